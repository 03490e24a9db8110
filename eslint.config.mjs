// ESLint (pinned in package.json) holds one rule over the page's JavaScript: no function
// over cyclomatic complexity 15, as ruff's C901 holds Python's (tests/test_web_shape.py
// runs it). Everything else about web/'s code is tsc's (tsconfig.json) and the tests'.
export default [
  {
    files: ["web/**/*.js"],
    languageOptions: { ecmaVersion: 2023, sourceType: "module" },
    linterOptions: { reportUnusedDisableDirectives: "error", noInlineConfig: true },
    rules: { complexity: ["error", { max: 15 }] },
  },
];

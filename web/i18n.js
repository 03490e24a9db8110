// The page's words (issue 22): one message catalogue per language, shared with Python.
// The catalogues are pkg/gridforge/catalogue/<language>.json, copied by build.py into the
// site's catalogue/ folder (format and how to add a message: docs/languages.md). Every text a
// player reads comes from t(key, params); Python's own texts come back already in the
// language of the call (the bridge sends the language with every call).
export const LANGUAGES = ["en", "zh-CN"];
const PLACEHOLDER = /\{([a-zA-Z_][a-zA-Z0-9_]*)\}/g;

const catalogues = {};
let current = "en";

/** The catalogue's language for a browser language tag: any zh* is zh-CN, else English. */
export function languageFor(tag) {
  return typeof tag === "string" && tag.toLowerCase().startsWith("zh") ? "zh-CN" : "en";
}

/** The language the browser asks for (its first preference decides). */
export function browserLanguage() {
  const tags = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language];
  return languageFor(tags[0]);
}

/** Load both catalogues (before the first screen is drawn). */
export async function loadCatalogues() {
  await Promise.all(LANGUAGES.map(async (lang) => {
    const response = await fetch(`catalogue/${lang}.json`);
    if (!response.ok) throw new Error(`catalogue/${lang}.json: HTTP ${response.status}`);  // i18n-ok: logged
    catalogues[lang] = await response.json();
  }));
}

/** The language in use. */
export function language() {
  return current;
}

/** Use `lang` from now on and mark the document with it (<html lang>). */
export function setLanguage(lang) {
  current = LANGUAGES.includes(lang) ? lang : "en";
  document.documentElement.lang = current;
}

/** Message `key` in the language in use, its {placeholders} filled from `params`. A key
 * missing in the language falls back to English, then to the key itself (a test keeps both
 * catalogues complete). */
export function t(key, params = {}) {
  const text = catalogues[current]?.[key] ?? catalogues.en?.[key] ?? key;
  return text.replace(PLACEHOLDER, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** Whether message `key` exists. */
export function has(key) {
  return Boolean(catalogues.en && key in catalogues.en);
}

/** A number as the language writes it. */
export function number(value) {
  return Number(value).toLocaleString(current);
}

/** Fill the static page's words: every element with data-i18n="key" gets the message as its
 * text, and data-i18n-attr="attr:key;attr:key" sets attributes (aria-label, title ...). */
export function translateStatic(root = document) {
  for (const node of root.querySelectorAll("[data-i18n]")) {
    if (node instanceof HTMLElement) node.textContent = t(node.dataset.i18n ?? "");
  }
  for (const node of root.querySelectorAll("[data-i18n-attr]")) {
    if (!(node instanceof HTMLElement) || node.dataset.i18nAttr === undefined) continue;
    for (const pair of node.dataset.i18nAttr.split(";")) {
      const [attr, key] = pair.split(":");
      if (attr && key) node.setAttribute(attr.trim(), t(key.trim()));
    }
  }
}

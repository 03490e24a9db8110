// Run gridforge inside Pyodide under Node.js, from local files only.
//
//   node tools/pyodide_run.mjs test [pytest args...]   run tests/ inside Pyodide (pytest)
//   node tools/pyodide_run.mjs run SCRIPT.py [args...]  run a Python script inside Pyodide
//
// Needs `python3 build.py build` (the runtime in build/site/pyodide, the wheel in
// build/dist) and, for `test`, the pure-Python test wheels in build/wheelhouse (build.py
// test downloads them). The repository is mounted at /repo (the working directory), and
// gridforge is installed from its wheel, so the shipped package is what runs. Any attempt
// to fetch from the network fails loudly: nothing may fall back to a CDN or to PyPI.
import { readdirSync, existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { loadPyodide } from "pyodide";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const RUNTIME = join(ROOT, "build", "site", "pyodide") + "/";
const DIST = join(ROOT, "build", "dist");
const WHEELHOUSE = join(ROOT, "build", "wheelhouse");

function die(message) {
  console.error(`pyodide_run.mjs: ${message}`);
  process.exit(2);
}

const realFetch = globalThis.fetch;
globalThis.fetch = async (input, init) => {
  const url = String(input && input.url ? input.url : input);
  if (/^https?:/i.test(url)) throw new Error(`network access refused in the offline check: ${url}`);
  return realFetch(input, init);
};

const [mode, ...rest] = process.argv.slice(2);
if (mode !== "test" && mode !== "run") die("usage: pyodide_run.mjs test [pytest args] | run SCRIPT.py [args]");
if (!existsSync(join(RUNTIME, "pyodide.asm.wasm"))) die("build/site/pyodide is missing: run `python3 build.py build`");

const wheels = (dir) => (existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".whl")).map((f) => join(dir, f)) : []);
const projectWheels = wheels(DIST).filter((f) => /\/gridforge-/.test(f));
if (projectWheels.length !== 1) die(`expected one gridforge wheel in build/dist, found ${projectWheels.length}`);
const install = mode === "test" ? [...wheels(WHEELHOUSE), ...projectWheels] : projectWheels;
if (mode === "test" && install.length < 2) die("build/wheelhouse is empty: run `python3 build.py test`");

const pyodide = await loadPyodide({ indexURL: RUNTIME });
await pyodide.loadPackage("micropip", { messageCallback: () => {}, errorCallback: (m) => console.error(m) });
if (!("micropip" in pyodide.loadedPackages)) die("micropip failed to load");

pyodide.FS.mkdirTree("/repo");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: ROOT }, "/repo");
pyodide.globals.set("wheel_paths", pyodide.toPy(install.map((p) => "emfs:/repo/" + p.slice(ROOT.length + 1))));
pyodide.globals.set("mode", mode);

if (mode === "run") {
  if (!rest.length) die("run needs a script path");
  const script = resolve(rest[0]);
  if (!script.startsWith(ROOT + "/")) die(`the script must lie inside the repository (${ROOT}): ${rest[0]}`);
  if (!existsSync(script)) die(`no such script: ${rest[0]}`);
  rest[0] = script.slice(ROOT.length + 1);
}
pyodide.globals.set("argv", pyodide.toPy(rest));

let code;
try {
  code = await pyodide.runPythonAsync(`
import os, sys
import micropip
await micropip.install(list(wheel_paths), deps=False)
sys.dont_write_bytecode = True
os.chdir("/repo")
if mode == "test":
    import pytest
    args = list(argv) or ["-q", "tests"]
    exit_code = int(pytest.main(["-p", "no:cacheprovider", "-m", "not cpython_only and not search_heavy", *args]))
else:
    import runpy
    script, *script_args = list(argv)
    sys.argv = [script, *script_args]
    try:
        runpy.run_path(script, run_name="__main__")
        exit_code = 0
    except SystemExit as exc:
        exit_code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
exit_code
`);
} catch (error) {
  // A Python exception: print Python's own traceback, not the runtime's source.
  console.error(String(error && error.message ? error.message : error));
  process.exit(1);
}
process.exit(code);

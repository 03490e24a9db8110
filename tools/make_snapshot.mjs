// Make the runtime's start-up snapshot:
//
//   node tools/make_snapshot.mjs RUNTIME_DIR WHEEL OUT.gz
//
// Pyodide can start from a memory snapshot instead of initialising Python: the page then
// skips the interpreter's start and the imports of every standard-library module gridforge
// needs, which is most of a visit's start-up once the files are cached. This script
//   1. loads the runtime in RUNTIME_DIR (the site's, with its precompiled standard library),
//      puts WHEEL on sys.path as the worker does, imports what the page can reach (gridforge.api and
//      the two games' page modules) and notes which other modules (standard library and
//      Pyodide's own) that pulled in;
//   2. loads a second, clean runtime with snapshots enabled, imports just those modules
//      (no gridforge code: the page still imports gridforge from the wheel it fetched and
//      checked), and writes its memory, gzipped, to OUT.gz.
// Prints one JSON line: {"modules": N, "bytes": raw size, "gzip_bytes": file size}.
//
// The snapshot belongs to this exact runtime build (the worker falls back to a normal
// start when it cannot use it). _makeSnapshot / makeMemorySnapshot / _loadSnapshot are
// Pyodide's own (used by Cloudflare Workers); they are marked private, so the pinned
// Pyodide version is what makes them safe to rely on.
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { loadPyodide } from "pyodide";

const [runtime, wheel, output] = process.argv.slice(2);
if (!runtime || !wheel || !output) {
  console.error("usage: make_snapshot.mjs RUNTIME_DIR WHEEL OUT.gz");
  process.exit(2);
}
const indexURL = resolve(runtime) + "/";

// The probe does what the worker does to start (the wheel on sys.path, gridforge imported,
// the versions asked for) and what a first call of each game needs (its page module).
const probe = await loadPyodide({ indexURL });
probe.FS.writeFile("/tmp/gridforge.whl", new Uint8Array(readFileSync(wheel)));
const names = probe.runPython(`
import sys
before = set(sys.modules)
sys.path.insert(0, "/tmp/gridforge.whl")
import gridforge.api, gridforge.mines.page, gridforge.snakes.page  # noqa: E401
gridforge.api.dispatch("gridforge.api.version", "[]")
# Everything that pulled in but gridforge itself and the bridges to JavaScript (js,
# pyodide_js), which belong to the page that runs it.
sorted(n for n in set(sys.modules) - before
       if n.partition(".")[0] not in ("gridforge", "js", "pyodide_js"))
`).toJs();

const pyodide = await loadPyodide({ indexURL, _makeSnapshot: true });
pyodide.globals.set("names", pyodide.toPy(names));
pyodide.runPython(`
import importlib
for name in names:
    importlib.import_module(name)
del importlib, name, names
`);
const memory = pyodide.makeMemorySnapshot();
const packed = gzipSync(memory, { level: 6 });
writeFileSync(output, packed);
console.log(JSON.stringify({ modules: names.length, bytes: memory.length, gzip_bytes: packed.length }));

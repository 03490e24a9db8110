// Make the runtime's start-up snapshot:
//
//   node tools/make_snapshot.mjs RUNTIME_DIR OUT.gz MODULE...
//
// Pyodide can start from a memory snapshot instead of initialising Python: the page then
// skips the interpreter's start and the imports of the standard-library modules gridforge
// uses, which is most of a visit's start-up once the files are cached. This script loads
// the runtime in RUNTIME_DIR (the site's, with its precompiled standard library) with
// snapshots enabled, imports each MODULE (build.py lists the standard-library modules that
// gridforge's code imports anywhere; one that does not import here, say a submodule name
// that is really a function, is skipped), and writes Python's memory, gzipped, to OUT.gz.
// No gridforge code goes in: the page imports gridforge from the wheel it fetched and
// checked. Prints one JSON line: {"modules": imported, "skipped": [...], "bytes": raw size,
// "gzip_bytes": file size}.
//
// The snapshot belongs to this exact runtime build (the worker falls back to a normal
// start when it cannot use it). _makeSnapshot / makeMemorySnapshot / _loadSnapshot are
// Pyodide's own (used by Cloudflare Workers); they are marked private, so the pinned
// Pyodide version is what makes them safe to rely on.
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { loadPyodide } from "pyodide";

const [runtime, output, ...modules] = process.argv.slice(2);
if (!runtime || !output) {
  console.error("usage: make_snapshot.mjs RUNTIME_DIR OUT.gz MODULE...");
  process.exit(2);
}
const pyodide = await loadPyodide({ indexURL: resolve(runtime) + "/", _makeSnapshot: true });
pyodide.globals.set("wanted", pyodide.toPy(modules));
const outcome = pyodide.runPython(`
import importlib
import json
imported, skipped = 0, []
for name in wanted:
    try:
        importlib.import_module(name)
        imported += 1
    except ImportError:
        skipped.append(name)
outcome = json.dumps({"modules": imported, "skipped": skipped})
del importlib, json, imported, skipped, name, wanted
outcome
`);
pyodide.runPython("del outcome");
const memory = pyodide.makeMemorySnapshot();
const packed = gzipSync(memory, { level: 6 });
writeFileSync(output, packed);
console.log(JSON.stringify({ ...JSON.parse(outcome), bytes: memory.length, gzip_bytes: packed.length }));

// Add bytecode beside every module of a zip, for a fast start in the browser:
//
//   node tools/precompile.mjs IN.zip OUT.zip [--bytecode-only]
//
// Used on Pyodide's standard library (the npm package's python_stdlib.zip holds sources
// only, so every module Python imports while it starts would be compiled on every visit)
// and on the gridforge wheel the site ships (the worker imports it straight from the zip).
// Writes a copy of IN.zip with, beside each NAME.py, NAME.pyc compiled by the very
// interpreter that will run it (Pyodide's own Python, under Node.js, so the bytecode's
// magic number matches). They are "unchecked hash" pycs: zipimport takes them without
// looking at the source (which stays, for tracebacks). With --bytecode-only a module that
// compiles keeps its bytecode alone (the site's gridforge wheel: its sources are the pip
// wheel's; a traceback then names files and lines without quoting them). A module that does
// not compile (a test file in old syntax) keeps its source only. Prints one JSON line:
// {"modules": N, "compiled": M, "bytes": B}.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { loadPyodide } from "pyodide";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const [input, output, option] = process.argv.slice(2);
if (!input || !output || (option !== undefined && option !== "--bytecode-only")) {
  console.error("usage: precompile.mjs IN.zip OUT.zip [--bytecode-only]");
  process.exit(2);
}
// The runtime itself is the npm package's; it does not need the zip we are writing.
const pyodide = await loadPyodide({ indexURL: join(ROOT, "node_modules", "pyodide") + "/" });
pyodide.globals.set("source_zip", pyodide.toPy(new Uint8Array(readFileSync(input))));
pyodide.globals.set("bytecode_only", option === "--bytecode-only");
const result = pyodide.runPython(`
import importlib.util
import io
import json
import zipfile
from importlib._bootstrap_external import _code_to_hash_pyc

modules = compiled = 0
buffer = io.BytesIO()
with zipfile.ZipFile(io.BytesIO(bytes(source_zip))) as src, \\
        zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as out:
    for info in src.infolist():
        data = src.read(info)
        code = None
        if info.filename.endswith(".py"):
            modules += 1
            try:
                code = compile(data, info.filename, "exec", dont_inherit=True)
            except SyntaxError:
                pass
        if code is None or not bytecode_only:
            out.writestr(info, data, compress_type=zipfile.ZIP_DEFLATED)
        if code is None:
            continue
        pyc = _code_to_hash_pyc(code, importlib.util.source_hash(data), checked=False)
        out.writestr(zipfile.ZipInfo(info.filename[:-3] + ".pyc", info.date_time), bytes(pyc),
                     compress_type=zipfile.ZIP_DEFLATED)
        compiled += 1
data = buffer.getvalue()
(data, json.dumps({"modules": modules, "compiled": compiled, "bytes": len(data)}))
`);
const [bytes, summary] = result.toJs();
result.destroy();
writeFileSync(output, bytes);
console.log(summary);

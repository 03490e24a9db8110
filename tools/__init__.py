"""Developer tools run from the repository's root (not parts of build.py, which must run on
a bare Python): the bridge's type generator (:mod:`tools.bridge_types`), beside the Node.js
scripts the build and the Pyodide test run use."""

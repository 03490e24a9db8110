#!/usr/bin/env python3
"""Build, serve and test gridforge: one script, standard library only.

    python3 build.py serve     build the wheel and the static site, serve it on 127.0.0.1:8000
    python3 build.py build     build the wheel and the static site only
    python3 build.py test      set up everything on a fresh machine, build, run every test

Every set-up step is done here, so a fresh Debian machine with Python, Node.js and npm
needs nothing installed by hand: a virtual environment in ``.venv`` with the project and
its test extras, Debian's ``chromium`` when ``/usr/bin/chromium`` is missing, and the npm
packages from the committed lock file. A step that fails names itself and its cause.

The parts live in the package ``buildsys/`` beside this file (set-up, website, levels, icons,
manifest, offline, server, suites, cli); this script is only its entry.
"""

from __future__ import annotations

import sys

from buildsys.cli import main

if __name__ == "__main__":
    sys.exit(main())

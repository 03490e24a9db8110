"""The parts of build.py (the one command that sets up, builds, serves and tests gridforge),
standard library only, so that a fresh machine's Python runs them before anything is installed:

    paths      where the build reads and writes
    steps      named steps (StepFailed, run_step), hashes
    install    set-up: .venv, chromium, npm packages, pinned wheels
    website    the wheel, the Pyodide runtime and the static site in build/site
    levels     the main line's level blocks and levels/index.json
    icons      the app's PNG icons drawn from web/icons/icon.svg
    manifest   the web app manifest's check
    offline    the service worker's list of files (sw-manifest.json, sw.js)
    server     the hardened static server (serve, the e2e tests, the benchmarks)
    suites     the test runner
    cli        build.py's command line
"""

"""The command line of build.py: serve, build, test, and their flags."""

from __future__ import annotations

import argparse
import sys

from buildsys.paths import ROOT, SITE
from buildsys.server import make_server
from buildsys.steps import StepFailed, say
from buildsys.suites import SUITES, run_tests
from buildsys.website import build_all

DESCRIPTION = "Build, serve and test gridforge: one script, standard library only."


def serve(port: int, *, isolation: bool = True) -> None:
    """Build everything and serve the site on 127.0.0.1:``port`` until Ctrl-C."""
    build_all()
    try:
        server = make_server(SITE, port=port, verbose=True, isolation=isolation)
    except OSError as exc:
        raise StepFailed(f"step 'serve' failed: cannot listen on 127.0.0.1:{port}: {exc}") \
            from None
    kind = "" if isolation else " as a plain static host (no COOP/COEP)"
    say(f"serving {SITE.relative_to(ROOT)}{kind} on http://127.0.0.1:{port}/ (Ctrl-C stops)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        say("stopped")
    finally:
        server.server_close()


def port_number(text: str) -> int:
    """argparse type for --port: an integer 1..65535."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"must be 1..65535, got {port}")
    return port


def main(argv: list[str] | None = None) -> int:
    """Run build.py's command ``argv``; the exit code: 0 done, 1 a step or suite failed,
    2 bad flags (argparse), 130 interrupted."""
    parser = argparse.ArgumentParser(description=DESCRIPTION)
    sub = parser.add_subparsers(dest="command", required=True)
    serve_p = sub.add_parser("serve", help="build everything and serve on 127.0.0.1")
    serve_p.add_argument("--port", type=port_number, default=8000)
    serve_p.add_argument("--plain", action="store_true",
                         help="serve as a plain static host: no cross-origin isolation "
                              "headers (cancel then restarts the Python worker)")
    sub.add_parser("build", help="build the wheel and the static site")
    test_p = sub.add_parser("test", help="set up, build and run every test")
    test_p.add_argument("--only", action="append", choices=SUITES,
                        help="run only these suites (repeatable); default: all")
    args = parser.parse_args(argv)
    try:
        if args.command == "serve":
            serve(args.port, isolation=not args.plain)
            return 0
        if args.command == "build":
            build_all()
            return 0
        return run_tests(args.only or [])
    except StepFailed as exc:
        print(f"build.py: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("build.py: interrupted", file=sys.stderr)
        return 130


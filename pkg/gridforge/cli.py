"""The ``gridforge`` command: a thin argparse layer over the game packages.

Each game contributes its subcommands through a ``register(subparsers)`` function in its
own ``commands`` module, so the command line grows without this file knowing the games.
A command returns an exit code; a :class:`GridforgeError` becomes one clear line on stderr
and exit code 2, never a traceback. An error no check foresaw (a bug) is one line too, with
exit code 3: never 1, which means a negative answer ("not solvable").
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import sys
from collections.abc import Sequence

from gridforge import __version__
from gridforge.errors import Cancelled, GridforgeError, ValidationError

# Modules that add subcommands; each has register(subparsers).
COMMAND_MODULES = ("gridforge.mines.commands", "gridforge.snakes.commands")
# A refusal prints this many issues and counts the rest (a terminal, not a report).
PRINTED_ISSUES = 10
# The exit code of an error no check foresaw (1 is a negative answer, 2 bad input).
INTERNAL_ERROR = 3


def build_parser() -> argparse.ArgumentParser:
    """The ``gridforge`` parser with every game's subcommands."""
    parser = argparse.ArgumentParser(
        prog="gridforge", description="Grid games and a level designer (mines, snakes)."
    )
    parser.add_argument("--version", action="version", version=f"gridforge {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module_name in COMMAND_MODULES:
        importlib.import_module(module_name).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (default: ``sys.argv[1:]``) and return the exit code:
    0 done, 1 a negative answer (not solvable, not no-guess), 2 bad input, 3 an internal
    error (a bug: one line, no traceback), 130 cancelled. Argparse's own usage errors (and
    ``--help``, ``--version``) exit through SystemExit."""
    for stream in (sys.stdout, sys.stderr):
        # A file name from the command line may hold bytes that are not UTF-8 (kept as lone
        # surrogates): printed escaped, never an encoding error.
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            with contextlib.suppress(ValueError, OSError):  # a stream that cannot: as it is
                reconfigure(errors="backslashreplace")
    parser = build_parser()
    args = parser.parse_args(argv)
    handler = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 0
    try:
        return int(handler(args) or 0)
    except ValidationError as exc:
        print(f"gridforge: error: invalid {exc.what}:", file=sys.stderr)
        for issue in exc.issues[:PRINTED_ISSUES]:
            print(f"  {issue}", file=sys.stderr)
        if (rest := len(exc.issues) - PRINTED_ISSUES + exc.more) > 0:
            print(f"  ... and {rest} more", file=sys.stderr)
        return 2
    except Cancelled as exc:
        print(f"gridforge: {exc}", file=sys.stderr)
        return 130
    except KeyboardInterrupt:
        print("gridforge: cancelled", file=sys.stderr)
        return 130
    except (GridforgeError, OSError) as exc:
        print(f"gridforge: error: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:
        print(f"gridforge: internal error ({type(exc).__name__}: {str(exc)[:200]}); "
              "this is a bug in gridforge, please report it", file=sys.stderr)
        return INTERNAL_ERROR


if __name__ == "__main__":
    sys.exit(main())

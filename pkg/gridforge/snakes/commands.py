"""Snakes subcommands (spec section 8; seed 004's npm scripts as one Python CLI).

- ``gridforge design-levels --verify in.json --out certificate.json``: certify a level file
  (or every level of a batch file) with :func:`gridforge.snakes.design.certify.certify`; the
  certificates a batch or an exported level carries are rechecked first, claim by claim, and
  a forged one is refused (exit 2) naming the claim; their solutions are then kept, the
  search only shortening them or proving them minimal (spec section 5b).
- ``gridforge design-levels --target 70 --count 10 --seed 123 --out batch.json`` and
  ``--spec my-spec.json``: the designer's generation mode,
  :func:`gridforge.snakes.design.pipeline.command` (budgets come from the spec file).
- ``gridforge check-designer``: the self-checks of :mod:`gridforge.snakes.solver.selfcheck` and the
  recheck of the shipped certificates (:mod:`gridforge.snakes.design.certify`).
- ``gridforge generate-levels`` and ``gridforge mainline level N``: the main line
  (:mod:`gridforge.snakes.design.commandline`).

Numeric flags are checked by their argparse types (exit 2 naming the flag); input files are
read by :func:`gridforge.errors.read_json` with a size cap per kind of file.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import stat
import sys
from typing import TYPE_CHECKING, Any

from gridforge import errors
from gridforge.flags import finite_float, int_range
from gridforge.progress import Progress, terminal_bar
from gridforge.snakes.game.certfile import BATCH_FORMAT
from gridforge.snakes.game.level import MAX_LEVEL_BYTES
from gridforge.snakes.solver.certificate import certificates_of
from gridforge.snakes.solver.search import DEFAULT_SECONDS, DEFAULT_STATES

if TYPE_CHECKING:  # the designer loads only when a command uses it
    from gridforge.snakes.design.weights import Weights

# Size caps per kind of file (docs/snakes-engine.md): a level (or an exported certified level)
# is a few KiB, and 1 MiB leaves room for a large meta; a batch holds up to 2000 levels with
# their certificates. A file above the level cap is read only when it begins as a batch (its
# format first, as every batch this package writes): a level file of two million stones is
# refused by its size before a byte of it is parsed.
MAX_VERIFY_BYTES = 32 * 1024 * 1024
MAX_SPEC_BYTES = 1024 * 1024
_BATCH_START = re.compile(rb'\A(\xef\xbb\xbf)?\s*\{\s*"format"\s*:\s*"'
                          + re.escape(BATCH_FORMAT.encode()))
MAX_STATES = 5_000_000  # --states: about 1 KiB a stored state on the largest level (5 GiB)
MAX_SECONDS = 7 * 86400.0
MAX_LEVELS = 100_000  # check-designer --levels


_STATES = int_range(1, MAX_STATES)
_SECONDS = finite_float(math.ulp(0.0), MAX_SECONDS)
_LEVELS = int_range(1, MAX_LEVELS)


def register(subparsers: Any) -> None:
    """Add ``design-levels`` and ``check-designer`` to the ``gridforge`` command."""
    design = subparsers.add_parser(
        "design-levels",
        help="verify a level or batch file, or generate levels (designer)",
        description="Certify levels (--verify) or design a batch (--target/--count or --spec).",
    )
    mode = design.add_mutually_exclusive_group(required=True)
    mode.add_argument("--verify", metavar="IN.json", help="level or batch file to certify")
    mode.add_argument("--target", type=finite_float(), help="design score to aim at (0..100)")
    mode.add_argument("--spec", metavar="SPEC.json", help="editor parameters as JSON")
    design.add_argument("--count", type=int_range(1), default=10,
                        help="levels to design (default 10)")
    design.add_argument("--seed", type=int_range(0, 2**63 - 1), default=0,
                        help="random seed (default 0)")
    design.add_argument("--out", required=True, metavar="OUT.json", help="file to write")
    design.add_argument(
        "--states",
        type=_STATES,
        default=DEFAULT_STATES,
        help=f"--verify: exact search state budget (default {DEFAULT_STATES}); "
        "generation takes its budgets from --spec",
    )
    design.add_argument(
        "--seconds",
        type=_SECONDS,
        default=DEFAULT_SECONDS,
        help=f"--verify: search time budget per level (default {DEFAULT_SECONDS:g})",
    )
    design.add_argument("--weights", default=None, metavar="WEIGHTS.json",
                        help="a weights file (gridforge calibrate): certificates carry a "
                        "predicted difficulty beside the design score")
    design.add_argument("--quiet", action="store_true", help="no progress bar")
    design.set_defaults(handler=design_levels_command)

    check = subparsers.add_parser(
        "check-designer",
        help="self-checks: A* vs BFS, matching vs brute force, shipped certificates",
    )
    check.add_argument("--levels", type=_LEVELS, default=200,
                       help="small levels for A* vs BFS (default 200)")
    check.add_argument("--quiet", action="store_true", help="no progress bar")
    check.set_defaults(handler=check_designer_command)

    # generate-levels (--levels, --workers, --scheduler, --resume) and mainline level N
    from gridforge.snakes.design.commandline import add_mainline_commands

    add_mainline_commands(subparsers)

    # synthetic-play and calibrate (issue 24)
    from gridforge.snakes.design.calibration_cli import add_calibration_commands

    add_calibration_commands(subparsers)


def _progress(args: argparse.Namespace) -> Progress:
    return Progress() if args.quiet else terminal_bar()


def read_json(path: str, what: str = "", *, max_bytes: int = MAX_SPEC_BYTES) -> Any:
    """Read a JSON file through :func:`gridforge.errors.read_json` (UTF-8, size, nesting and
    number limits); every failure is a ValidationError naming the file and the reason."""
    return errors.read_json(path, what or path, max_bytes=max_bytes)


def write_json(path: str, data: Any) -> None:
    """Write ``data`` as indented, key-ordered JSON (the same input gives the same bytes),
    whole or not at all, never through a planted name
    (:func:`gridforge.snakes.design.files.write_json`; a failure names the file)."""
    from gridforge.snakes.design.files import write_json as write_whole

    write_whole(path, data, indent=2)


def design_levels_command(args: argparse.Namespace) -> int:
    """``design-levels``: ``--verify`` certifies; otherwise the designer makes a batch."""
    weights = None
    if getattr(args, "weights", None) is not None:
        from gridforge.snakes.design.calibration_cli import load_weights

        weights = load_weights(args.weights)  # refused before any work is done
    if args.verify is not None:
        return _verify(args, weights)
    if weights is None:
        from gridforge.snakes.design.pipeline import command  # the designer loads when used

        return int(command(args, _progress(args)))
    import time

    from gridforge.snakes.design.calibration_cli import add_predictions
    from gridforge.snakes.design.console import print_batch
    from gridforge.snakes.design.pipeline import design_levels
    from gridforge.snakes.design.request import read_spec

    request: Any = (read_spec(args.spec) if args.spec else
                    {"target": args.target, "count": args.count, "seed": args.seed})
    started = time.monotonic()
    batch = design_levels(request, _progress(args))
    add_predictions(batch["certificates"], weights)
    write_json(args.out, batch)
    return print_batch(batch, args.out, time.monotonic() - started)


def _verify_cap(path: str) -> tuple[int, str]:
    """The size cap of a ``--verify`` input and what its errors call it: a batch's when it
    begins as one (at any size), else a level's (a level file above the cap is named so)."""
    level = (MAX_LEVEL_BYTES, "level or batch file")
    try:
        # Non-blocking, and only a regular file is peeked at: read_json refuses the rest.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except (OSError, ValueError):
        return level  # read_json reports the file itself
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return level
        head = os.read(fd, 256)
    except OSError:
        return level
    finally:
        os.close(fd)
    if _BATCH_START.match(head):
        return MAX_VERIFY_BYTES, "batch file"
    if info.st_size > MAX_LEVEL_BYTES:
        return MAX_LEVEL_BYTES, "level file (a file above 1 MiB must be a batch that begins " \
            "with its format)"
    return level


def _verify(args: argparse.Namespace, weights: Weights | None = None) -> int:
    from gridforge.snakes.design import certify

    cap, what = _verify_cap(args.verify)
    data = read_json(args.verify, what, max_bytes=cap)
    progress = _progress(args)
    # Claims a file carries are rechecked before anything is searched or written; then the
    # solutions they carry are kept, only shortened or proven minimal (spec section 5b).
    certify.check_file_certificates(data, progress=progress)
    out = certify.certify_file_data(
        data, max_states=args.states, max_seconds=args.seconds, progress=progress
    )
    certs = certificates_of(out)
    if weights is not None:
        from gridforge.snakes.design.calibration_cli import add_predictions

        add_predictions(certs, weights)
    write_json(args.out, out)
    for i, cert in enumerate(certs):
        bounds = (
            f"{cert['steps']} steps, minimum proven"
            if cert["optimal"]
            else f"bounds {cert['lower_bound']}..{cert['upper_bound']}, minimum unproven"
        )
        if cert["status"] in ("unsolvable", "undetermined"):
            bounds = cert["reason"]
        predicted = cert.get("prediction")
        if predicted:
            bounds += (f"; predicted difficulty {predicted['difficulty']:+.2f}, score "
                       f"{predicted['score']} under the weights, clear rate "
                       f"{predicted['solve_rate']:.0%}")
        print(f"level {i}: {cert['status']} ({bounds})")
    return 0 if all(c["status"] == "verified" for c in certs) else 1


def check_designer_command(args: argparse.Namespace) -> int:
    """``check-designer``: every self-check, one line each; exit 1 when one failed."""
    from gridforge.snakes.design.certify import check_shipped_certificates
    from gridforge.snakes.solver.selfcheck import run_all

    progress = _progress(args)
    results = [*run_all(progress, levels=args.levels), check_shipped_certificates(progress)]
    ok = True
    for result in results:
        figures = ", ".join(f"{k} {v}" for k, v in result.figures.items())
        print(f"{result.check}: {'ok' if result.ok else 'FAILED'} ({figures})")
        for failure in result.failures[:20]:
            print(f"  {failure}", file=sys.stderr)
        ok = ok and result.ok
    return 0 if ok else 1


__all__ = ["check_designer_command", "design_levels_command", "read_json", "register", "write_json"]

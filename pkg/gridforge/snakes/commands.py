"""Snakes subcommands (spec section 8; seed 004's npm scripts as one Python CLI).

- ``gridforge design-levels --verify in.json --out certificate.json``: certify a level file
  (or every level of a batch file) with :func:`gridforge.snakes.certificate.certify`.
- ``gridforge design-levels --target 70 --count 10 --seed 123 --out batch.json`` and
  ``--spec my-spec.json``: the designer's generation mode,
  :func:`gridforge.snakes.design.pipeline.command` (budgets come from the spec file).
- ``gridforge check-designer``: the self-checks of :mod:`gridforge.snakes.selfcheck`.
- ``gridforge generate-levels [--resume]``: the main line (:mod:`gridforge.snakes.design.mainline`).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from gridforge.errors import GridforgeError
from gridforge.progress import Progress, terminal_bar
from gridforge.snakes.search import DEFAULT_SECONDS, DEFAULT_STATES


def register(subparsers: Any) -> None:
    """Add ``design-levels`` and ``check-designer`` to the ``gridforge`` command."""
    design = subparsers.add_parser(
        "design-levels",
        help="verify a level or batch file, or generate levels (designer)",
        description="Certify levels (--verify) or design a batch (--target/--count or --spec).",
    )
    mode = design.add_mutually_exclusive_group(required=True)
    mode.add_argument("--verify", metavar="IN.json", help="level or batch file to certify")
    mode.add_argument("--target", type=float, help="design score to aim at (0..100)")
    mode.add_argument("--spec", metavar="SPEC.json", help="editor parameters as JSON")
    design.add_argument("--count", type=int, default=10, help="levels to design (default 10)")
    design.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    design.add_argument("--out", required=True, metavar="OUT.json", help="file to write")
    design.add_argument(
        "--states",
        type=int,
        default=DEFAULT_STATES,
        help=f"--verify: exact search state budget (default {DEFAULT_STATES}); "
        "generation takes its budgets from --spec",
    )
    design.add_argument(
        "--seconds",
        type=float,
        default=DEFAULT_SECONDS,
        help=f"--verify: search time budget per level (default {DEFAULT_SECONDS:g})",
    )
    design.add_argument("--quiet", action="store_true", help="no progress bar")
    design.set_defaults(handler=design_levels_command)

    check = subparsers.add_parser(
        "check-designer",
        help="self-checks: A* vs BFS, matching vs brute force, shipped certificates",
    )
    check.add_argument("--levels", type=int, default=200, help="small levels for A* vs BFS")
    check.add_argument("--quiet", action="store_true", help="no progress bar")
    check.set_defaults(handler=check_designer_command)

    mainline = subparsers.add_parser(
        "generate-levels",
        help="build the main line in blocks of 25, resumable",
        description="Build the main-line levels (block files and progress.json in --out).",
    )
    mainline.add_argument("--out", default="output/mainline", metavar="DIR",
                          help="folder of the block files (default output/mainline)")
    mainline.add_argument("--seed", type=int, default=2026, help="main-line seed (default 2026)")
    mainline.add_argument("--count", type=int, default=2000, help="levels (default 2000)")
    mainline.add_argument("--resume", action="store_true",
                          help="go on from the folder's progress.json")
    mainline.add_argument("--quiet", action="store_true", help="no progress bar")
    mainline.set_defaults(handler=generate_levels_command)


def _progress(args: argparse.Namespace) -> Progress:
    return Progress() if args.quiet else terminal_bar()


def read_json(path: str) -> Any:
    """Read a JSON file; errors name the file and the reason."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise GridforgeError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise GridforgeError(f"{path}: not UTF-8 text") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise GridforgeError(f"{path}: not valid JSON: {exc}") from None


def write_json(path: str, data: Any) -> None:
    """Write ``data`` as indented, key-ordered JSON (the same input gives the same bytes)."""
    text = json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
    out = Path(path)
    if out.parent and not out.parent.exists():
        out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(out)  # never a half-written certificate


def design_levels_command(args: argparse.Namespace) -> int:
    if args.verify is not None:
        return _verify(args)
    from gridforge.snakes.design.pipeline import command  # the designer loads only when used

    return int(command(args, _progress(args)))


def _verify(args: argparse.Namespace) -> int:
    from gridforge.snakes.certificate import certify_file_data

    data = read_json(args.verify)
    out = certify_file_data(
        data, max_states=args.states, max_seconds=args.seconds, progress=_progress(args)
    )
    write_json(args.out, out)
    certs = out.get("certificates", [out])
    for i, cert in enumerate(certs):
        bounds = (
            f"{cert['steps']} steps, minimum proven"
            if cert["optimal"]
            else f"bounds {cert['lower_bound']}..{cert['upper_bound']}, minimum unproven"
        )
        if cert["status"] in ("unsolvable", "undetermined"):
            bounds = cert["reason"]
        print(f"level {i}: {cert['status']} ({bounds})")
    return 0 if all(c["status"] == "verified" for c in certs) else 1


def check_designer_command(args: argparse.Namespace) -> int:
    from gridforge.snakes.selfcheck import run_all

    results = run_all(_progress(args), levels=args.levels)
    ok = True
    for result in results:
        failures = result.pop("failures")
        name = result.pop("check")
        figures = ", ".join(f"{k} {v}" for k, v in result.items())
        print(f"{name}: {'ok' if not failures else 'FAILED'} ({figures})")
        for failure in failures[:20]:
            print(f"  {failure}", file=sys.stderr)
        ok = ok and not failures
    return 0 if ok else 1


__all__ = ["check_designer_command", "design_levels_command", "read_json", "register", "write_json"]


def generate_levels_command(args: argparse.Namespace) -> int:
    from gridforge.snakes.design.mainline import build_mainline

    state = build_mainline(args.out, seed=args.seed, count=args.count, resume=args.resume,
                           progress=_progress(args))
    print(f"main line: {state['done']} levels in {len(state['files'])} files -> {args.out}")
    return 0

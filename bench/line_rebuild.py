"""Carry a rebuild of the main line across sittings, a few blocks at a time.

A whole rebuild takes longer than a sitting (about 15 CPU hours), and a folder outside the
repository does not outlive one. So the blocks rebuilt so far are shipped as they come, and
the next sitting goes on from them (issue 18 rebuilt the line this way, finished 2026-12-03):

    .venv/bin/python bench/line_rebuild.py start /work/line2 --from 1201  # keep 1-1200
    .venv/bin/gridforge generate-levels --out /work/line2 --resume --workers 2
    .venv/bin/python bench/line_rebuild.py ship /work/line2   # rebuilt blocks -> the data

``start`` writes the shipped ``progress.json`` and the shipped blocks before level ``--from``
(whole blocks) into a fresh folder: ``--resume`` names the missing blocks and rebuilds them.
``ship`` copies every block that the folder's ``progress.json`` lists into
``pkg/gridforge/snakes/data/`` and puts its record (name, span, SHA-256) in place of the
shipped one of the same span.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "pkg" / "gridforge" / "snakes" / "data"


def _progress(folder: Path) -> dict:
    return json.loads((folder / "progress.json").read_text(encoding="utf-8"))


def _write_progress(folder: Path, progress: dict) -> None:
    # The builder's own layout (one space indent, a final newline), so that a resume reads
    # and rewrites the same bytes.
    text = json.dumps(progress, indent=1, ensure_ascii=False) + "\n"
    (folder / "progress.json").write_text(text, encoding="utf-8")


def ship(source: Path) -> None:
    built, shipped = _progress(source), _progress(DATA)
    if (built["seed"], built["block"]) != (shipped["seed"], shipped["block"]):
        sys.exit("gridforge: error: the rebuild's seed or block size is not the shipped line's")
    records = {r["name"]: r for r in shipped["files"]}
    for record in built["files"]:
        if record["name"] not in records:
            sys.exit(f"gridforge: error: {record['name']} is not a block of the shipped line")
        shutil.copyfile(source / record["name"], DATA / record["name"])
        records[record["name"]] = record
    shipped["files"] = [records[r["name"]] for r in shipped["files"]]
    _write_progress(DATA, shipped)
    print(f"{len(built['files'])} rebuilt blocks shipped ({built['done']} levels)")


def start(out: Path, first: int) -> None:
    out.mkdir(parents=True, exist_ok=False)
    shutil.copyfile(DATA / "progress.json", out / "progress.json")
    kept = [r["name"] for r in _progress(DATA)["files"] if r["last"] < first]
    for name in kept:
        shutil.copyfile(DATA / name, out / name)
    print(f"{len(kept)} shipped blocks in {out}; --resume rebuilds the others")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=["ship", "start"])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--from", dest="first", type=int, metavar="N",
                        help="start: the first level to rebuild (the blocks before it are kept)")
    args = parser.parse_args()
    if args.what == "start":
        if args.first is None:
            sys.exit("gridforge: error: start needs the first level to rebuild (--from N)")
        start(args.folder, args.first)
    else:
        ship(args.folder)


if __name__ == "__main__":
    main()

"""Carry a rebuild of the main line across sittings, a few blocks at a time.

A whole rebuild takes longer than a sitting, and a folder outside the repository does not
outlive one. So the blocks rebuilt so far are shipped as they come (the line's first blocks
are this designer's, the rest the earlier one's; ``tests/snakes/test_mainline.py`` knows them
apart by the certificates' ``interaction_steps``), and the next sitting goes on from them:

    .venv/bin/python bench/line_rebuild.py ship /work/line2   # rebuilt blocks -> the data
    .venv/bin/python bench/line_rebuild.py start /work/line2  # the data -> a build folder
    .venv/bin/gridforge generate-levels --out /work/line2 --resume --workers 2

``ship`` copies every block that ``/work/line2/progress.json`` lists into
``pkg/gridforge/snakes/data/`` and puts its record (name, span, SHA-256) in place of the
shipped one of the same span. ``start`` writes the shipped ``progress.json`` and only the
rebuilt blocks into a fresh folder: ``--resume`` names the missing ones and rebuilds them.
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


def rebuilt(block: Path) -> bool:
    """Whether a block file holds levels of this designer (see the module's docstring)."""
    batch = json.loads(block.read_text(encoding="utf-8"))
    return all("interaction_steps" in c["score"]["diagnostics"] for c in batch["certificates"])


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


def start(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=False)
    shutil.copyfile(DATA / "progress.json", out / "progress.json")
    kept = [r["name"] for r in _progress(DATA)["files"] if rebuilt(DATA / r["name"])]
    for name in kept:
        shutil.copyfile(DATA / name, out / name)
    print(f"{len(kept)} rebuilt blocks in {out}; --resume rebuilds the others")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=["ship", "start"])
    parser.add_argument("folder", type=Path)
    args = parser.parse_args()
    ship(args.folder) if args.what == "ship" else start(args.folder)


if __name__ == "__main__":
    main()

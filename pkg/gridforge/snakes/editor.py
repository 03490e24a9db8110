"""The browser editor's calls that are not play: samples, templates, export.

Play, verification and design live in :mod:`~gridforge.snakes.play` and
:mod:`~gridforge.snakes.design.pipeline`; this module adds what an editor needs around them (seed
section 6): the shipped sample levels, the template list with size recommendations, and the
export of a certified level, which replays the certificate's solution once more and refuses
a certificate that no longer names the level (any edit invalidates it).
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from gridforge.errors import GridforgeError
from gridforge.snakes.certificate import check_certificate
from gridforge.snakes.design.templates import TOPOLOGIES
from gridforge.snakes.level import level_from_json
from gridforge.snakes.selfcheck import SPEC_EXAMPLE

__all__ = ["export", "sample_levels", "topologies"]


def sample_levels() -> list[dict[str, Any]]:
    """The levels shipped with the package (each a level dict with meta): the contract's
    example, ``data/samples.json``, then the shipped main-line blocks (``data/main-*.json``)."""
    data = resources.files("gridforge.snakes").joinpath("data")
    example = {**SPEC_EXAMPLE, "meta": {"id": "sample-spec", "template": "twin",
                                        "title": "The contract's example (minimum 20 steps)"}}
    levels = [example, *json.loads(data.joinpath("samples.json").read_text("utf-8"))["levels"]]
    blocks = sorted((f for f in data.iterdir() if f.name.startswith("main-")),
                    key=lambda f: f.name)
    for block in blocks:
        for level in json.loads(block.read_text("utf-8"))["levels"]:
            meta = level["meta"]
            level["meta"] = {**meta, "title": f"Main line {meta['level']} ({meta['template']})"}
            levels.append(level)
    return levels


def topologies() -> list[str]:
    """The template ids a design request may name (``mixed`` first)."""
    return list(TOPOLOGIES)


def export(level: dict[str, Any], certificate: dict[str, Any]) -> str:
    """The certified level as JSON text, after replaying the certificate's solution again.

    :raises GridforgeError: when the certificate is not ``verified``, names another level
        (the level was edited since), or its solution no longer replays.
    """
    parsed = level_from_json(level)
    if not isinstance(certificate, dict) or certificate.get("status") != "verified":
        raise GridforgeError("only a verified level can be exported: verify it first")
    problems = check_certificate(parsed, certificate)
    if problems:
        raise GridforgeError("the certificate does not hold for this level: "
                             + "; ".join(problems))
    out = {"level": parsed.to_json(), "certificate": certificate}
    return json.dumps(out, ensure_ascii=False, indent=1, sort_keys=True) + "\n"

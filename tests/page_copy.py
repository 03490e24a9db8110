"""What the page keeps of each game in play, as ``web/contract.js`` keeps it: the midend
answers the view, offer and save in full when a game opens, then only what changed; this
copy applies each answer to the last one, so a test reads every answer whole."""

from __future__ import annotations

from typing import Any

from gridforge.midend import apply_changes


class PageCopy:
    """Call it with each play answer of the midend; it answers the answer made whole."""

    def __init__(self) -> None:
        self.games: dict[str, dict[str, Any]] = {}

    def __call__(self, answer: Any) -> Any:
        held = self.games.get(answer["id"])
        if answer["changes"] is None:
            shown = {"view": answer["view"], "offer": answer["offer"]}
        else:
            assert held is not None, "changes for a game the page never opened"
            shown = apply_changes({"view": held["view"], "offer": held["offer"]},
                                  answer["changes"])
        save = answer["save"] if answer["save"] is not None else held and held["save"]
        whole = {**answer, **shown, "changes": None, "save": save}
        self.games[answer["id"]] = whole
        return whole

"""JSON as a type: what :func:`json.loads` gives and :func:`json.dumps` takes.

The page contract and the file readers speak JSON; below them the games work in typed values
(dataclasses, :class:`~typing.TypedDict` answers). These aliases type the boundary itself, so
that even there a value is known to be JSON (never ``Any``): a reader narrows it with
``isinstance`` before use, a writer can put nothing else in it.
"""

from __future__ import annotations

from typing import TypeAlias

Json: TypeAlias = "bool | int | float | str | list[Json] | dict[str, Json] | None"
JsonObject: TypeAlias = "dict[str, Json]"

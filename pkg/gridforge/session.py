"""Sessions the page holds in the worker, by id: the one registry of both games' midends.

The lesson of Simon Tatham's midend: the game in play lives beside its rules, not in the
page. A game's play module keeps each open game (its state and history) in a
:class:`Registry` and the page names it by the id the opening verb answered; every verb then
takes that id first and answers what the page draws, what it may offer and a small ``save``
that the page stores. Both games' page verbs take this one shape:

- an opening verb (``start`` / ``resume`` for snakes, ``new_run`` / ``resume_run`` for mines)
  answers the id with the first view and the save;
- every other verb takes the id first and answers the new view (and the save when the game
  changed);
- ``close`` (mines: ``close_run``) forgets the id; past its limit a registry forgets the
  oldest game first.

A save replays only in ``resume``: after a reload, or after the worker was restarted (a
cancel without cross-origin isolation), when the registry is empty. An id the registry does
not hold is refused with :class:`UnknownSession`, which the page answers by resuming from its
save.
"""

from __future__ import annotations

from typing import Generic, TypeVar

from gridforge.errors import GridforgeError

T = TypeVar("T")


class UnknownSession(GridforgeError):
    """An id this worker does not hold (closed, forgotten past the limit, or opened by a
    worker that has since been replaced): resume from the save."""


class Registry(Generic[T]):
    """Objects the page holds by id (``prefix`` and a counter); past ``limit`` the oldest
    goes. ``what`` names them in errors (``"snakes session"``, ``"mines run"``)."""

    def __init__(self, prefix: str, limit: int, what: str) -> None:
        if limit < 1:
            raise ValueError("a registry holds at least one object")
        self.prefix, self.limit, self.what = prefix, limit, what
        self.items: dict[str, T] = {}
        self.count = 0

    def add(self, item: T) -> str:
        """Hold ``item``; its new id (never one given before in this worker)."""
        self.count += 1
        key = f"{self.prefix}{self.count}"
        self.items[key] = item
        while len(self.items) > self.limit:
            del self.items[next(iter(self.items))]
        return key

    def get(self, key: object) -> T:
        """The object named ``key``; :class:`UnknownSession` when there is none."""
        if not isinstance(key, str) or key not in self.items:
            shown = repr(key) if isinstance(key, str | int | None) else type(key).__name__
            raise UnknownSession(f"unknown {self.what} {shown[:40]}")
        return self.items[key]

    def drop(self, key: object) -> bool:
        """Forget ``key``; ``False`` when it was not held."""
        return isinstance(key, str) and self.items.pop(key, None) is not None

    def __len__(self) -> int:
        return len(self.items)


__all__ = ["Registry", "UnknownSession"]

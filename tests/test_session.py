"""The shared session registry (gridforge/session.py) that both games' midends keep."""

from __future__ import annotations

import pytest
from gridforge.errors import GridforgeError
from gridforge.session import Registry, UnknownSession
from hypothesis import given
from hypothesis import strategies as st


def test_ids_are_never_reused_and_the_oldest_goes_past_the_limit():
    reg: Registry[str] = Registry("x", 2, "test thing")
    a, b = reg.add("a"), reg.add("b")
    assert (a, b) == ("x1", "x2") and reg.get(a) == "a" and len(reg) == 2
    c = reg.add("c")
    assert len(reg) == 2 and reg.get(b) == "b" and reg.get(c) == "c"
    with pytest.raises(UnknownSession, match="unknown test thing 'x1'"):
        reg.get(a)
    assert reg.drop(b) is True and reg.drop(b) is False
    assert reg.add("d") == "x4"  # a dropped id is not given again


@pytest.mark.parametrize("key", [None, 1, 1.5, [], {}, "x" * 1000, True])
def test_an_id_of_any_other_kind_is_unknown_and_the_message_stays_short(key):
    reg: Registry[int] = Registry("x", 4, "test thing")
    reg.add(1)
    with pytest.raises(UnknownSession) as err:
        reg.get(key)
    assert isinstance(err.value, GridforgeError) and len(str(err.value)) < 80
    assert reg.drop(key) is False


def test_a_registry_holds_at_least_one():
    with pytest.raises(ValueError):
        Registry("x", 0, "test thing")


@given(ops=st.lists(st.one_of(st.just("add"), st.integers(0, 30)), max_size=80),
       limit=st.integers(1, 6))
def test_the_registry_holds_exactly_the_newest_ids_not_dropped(ops, limit):
    """Against a model: a list of (id, item) in insertion order, trimmed to ``limit``."""
    reg: Registry[int] = Registry("k", limit, "test thing")
    model: list[tuple[str, int]] = []
    added = 0
    for op in ops:
        if op == "add":
            added += 1
            model.append((reg.add(added), added))
            del model[:-limit]
        else:
            key = f"k{op}"
            held = any(k == key for k, _ in model)
            assert reg.drop(key) is held
            model = [(k, v) for k, v in model if k != key]
        assert len(reg) == len(model) <= limit
        for k, v in model:
            assert reg.get(k) == v

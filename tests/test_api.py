"""The JSON bridge facade: what the browser and tools rely on."""

import json

import pytest
from gridforge import __version__, api
from gridforge.errors import Cancelled, GridforgeError
from gridforge.progress import Progress


def envelope(name: str, *args: object) -> dict:
    return json.loads(api.dispatch(name, json.dumps(list(args))))


def test_version_names_package_and_python():
    value = envelope("gridforge.api.version")["value"]
    assert value["gridforge"] == __version__
    assert value["python"].count(".") == 2


def test_echo_round_trips_json_values():
    payload = {"a": [1, 2.5, None, True], "b": "ü", "c": {"d": []}}
    assert envelope("gridforge.api.echo", payload) == {"ok": True, "value": payload}


def test_bad_arguments_name_the_function():
    answer = envelope("gridforge.api.echo", 1, 2)
    assert answer["ok"] is False
    assert "gridforge.api.echo" in answer["error"]["message"]


def test_only_the_page_contract_is_reachable():
    for name in ("os.system", "gridforge.os.system", "gridforge.api._error",
                 "gridforge.api.json", "gridforge.api.GridforgeError", "gridforge._x.y",
                 "gridforge.api.set_progress", "gridforge.api.dispatch",
                 "gridforge.snakes.commands.write_json", "gridforge.cli.main",
                 "gridforge.snakes.play.start", "gridforge.mines.run.new_run",
                 "gridforge.mines.page.run", "gridforge.snakes.page.play", 42):
        answer = envelope(name, ["--version"])
        assert answer["ok"] is False, name
        assert "unknown function" in answer["error"]["message"], name


def test_functions_lists_the_contract_with_docs():
    listed = envelope("gridforge.api.functions")["value"]
    names = [entry["name"] for entry in listed]
    assert "gridforge.snakes.page.open" in names and "gridforge.mines.page.act" in names
    assert "gridforge.api.set_progress" not in names
    for entry in listed:
        assert entry["doc"], entry["name"]
        assert callable(api.resolve(entry["name"]))


def test_a_bug_inside_the_package_is_reported_as_internal(monkeypatch):
    from gridforge.snakes import page

    def broken(level):
        raise SystemExit(3)

    monkeypatch.setattr(page, "validate", broken)
    answer = envelope("gridforge.snakes.page.validate", {})
    assert answer["ok"] is False and answer["error"]["type"] == "InternalError"
    assert "SystemExit" in answer["error"]["message"]


def test_arguments_must_be_a_json_array():
    assert "JSON array" in json.loads(api.dispatch("gridforge.api.echo", '{"a": 1}'))["error"][
        "message"
    ]
    assert "not valid JSON" in json.loads(api.dispatch("gridforge.api.echo", "[1,"))["error"][
        "message"
    ]
    deep = json.loads(api.dispatch("gridforge.api.echo", "[" * 100_000))["error"]
    assert deep["type"] == "ValidationError" and "nested deeper" in deep["message"]
    huge = json.loads(api.dispatch("gridforge.api.echo", "[" + "9" * 5000 + "]"))["error"]
    assert huge["type"] == "ValidationError" and "digits" in huge["message"]


def test_spin_rejects_a_negative_duration():
    answer = envelope("gridforge.api.spin", -1)
    assert answer["error"]["type"] == "GridforgeError"


@pytest.mark.parametrize("args", [
    [-1], [1e308], [True], ["1"], [None], [3601],
    [0.1, 0], [0.1, -1], [0.1, 1e-9], [0.1, True], [0.1, "0.25"], [0.1, None], [0.1, 1e9],
])
def test_spin_refuses_a_bad_duration_or_report_interval_naming_it(args):
    answer = envelope("gridforge.api.spin", *args)
    assert answer["ok"] is False and answer["error"]["type"] == "GridforgeError"
    name = "report_every" if len(args) == 2 else "seconds"
    assert f"spin: {name} must be" in answer["error"]["message"]


def test_spin_takes_a_short_loop_with_its_report_interval():
    answer = envelope("gridforge.api.spin", 0.01, 0.005)
    assert answer["ok"] is True and answer["value"]["seconds"] >= 0.01


def test_spin_reports_progress_and_can_be_cancelled():
    seen: list[tuple[int, int]] = []

    def sink(done: int, total: int, label: str, figures: dict) -> bool:
        seen.append((done, total))
        return len(seen) >= 3  # ask to stop at the third report

    api.set_progress(Progress(sink))
    try:
        answer = envelope("gridforge.api.spin", 30, 0.001)
    finally:
        api.set_progress(Progress())
    assert answer["ok"] is False and answer["error"]["type"] == "Cancelled"
    assert len(seen) == 3 and all(total == 30000 for _, total in seen)


def test_progress_cancel_raises_at_next_step():
    progress = Progress()
    progress.step(1, 2)
    progress.cancel()
    try:
        progress.step(2, 2)
    except Cancelled as exc:
        assert isinstance(exc, GridforgeError)
    else:
        raise AssertionError("step after cancel must raise")


def test_errors_carry_the_players_text_without_internal_names():
    error = envelope("gridforge.snakes.nothing")["error"]
    assert "gridforge" not in error["text"] and error["text"][0].isupper()
    assert "gridforge.snakes.nothing" in error["message"]  # the details stay for tools
    assert api.player_text("Cancelled", "cancelled") == "Stopped."
    assert "a bug" in api.player_text("InternalError", "internal error in x")
    assert api.player_text("GridforgeError", "gridforge.x.y") == "That did not work."
    assert api.player_text("GridforgeError", "bad cell in gridforge.snakes.game.level: (3, 4)") == \
        "Bad cell: (3, 4)"

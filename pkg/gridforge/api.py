"""The JSON facade that the Web Worker and tools call: the one place errors become JSON.

The browser calls ``dispatch(name, args_json)`` with a dotted function name and a JSON
array of arguments; the answer is a JSON text, either ``{"ok": true, "value": ...}`` or
``{"ok": false, "error": {"type", "message", ...}}``. Only the page's contract can be
called: the names in ``__all__`` of :mod:`gridforge.mines.page`, :mod:`gridforge.snakes.page`
and this module's :data:`API_FUNCTIONS`. Any other name is an unknown function, so a
helper can be renamed without breaking the page and the page never reaches anything else.
Long calls receive the dispatcher's progress sink as the keyword argument ``progress``.
"""

from __future__ import annotations

import importlib
import inspect
import json
import math
import platform
import re
import sys
import time
from collections.abc import Callable
from types import ModuleType
from typing import Any, NotRequired, TypedDict

from gridforge import __version__
from gridforge.errors import Cancelled, GridforgeError, ValidationError, parse_json
from gridforge.i18n import DEFAULT, language, say, speaking
from gridforge.progress import NO_PROGRESS, Progress
from gridforge.saves import check_progress as check_progress  # a page function (below)
from gridforge.words import issue_words, plain

# The modules whose ``__all__`` the page may call, besides this module's own functions.
PAGE_MODULES = ("gridforge.mines.page", "gridforge.snakes.page")
# check_progress: the saved progress's check (gridforge.saves), for either game's screens.
API_FUNCTIONS = ("check_progress", "echo", "functions", "spin", "version")

# The sink the worker installs so that long calls can report progress to the page.
_progress: Progress = NO_PROGRESS


def version() -> dict[str, str]:
    """Versions of the package and of the Python running it."""
    return {
        "gridforge": __version__,
        "python": platform.python_version(),
        "implementation": sys.implementation.name,
        "platform": sys.platform,
    }


def echo(value: Any) -> Any:
    """Return ``value`` unchanged: a round trip through the bridge."""
    return value


SPIN_SECONDS = 3600.0  # spin's longest loop (the page's tests spin for at most a minute)
SPIN_REPORT = (0.001, 3600.0)  # spin's report interval in seconds: at most 1,000 a second


def _seconds(value: Any, name: str, lo: float, hi: float) -> float:
    """A finite JSON number (not a bool) in ``lo..hi``, else a GridforgeError naming it."""
    if (not isinstance(value, int | float) or isinstance(value, bool)
            or not math.isfinite(value) or not lo <= value <= hi):
        raise GridforgeError(f"spin: {name} must be a number of seconds in {lo:g}..{hi:g}, "
                             f"got {value!r}")
    return float(value)


def spin(seconds: float, report_every: float = 0.25, *,
         progress: Progress = NO_PROGRESS) -> dict[str, float]:
    """Test-only long call: a busy loop of ``seconds`` that reports progress.

    It proves that long Python work can be cancelled from the page (the interrupt buffer
    raises KeyboardInterrupt inside this loop) and that the worker survives it. ``seconds``
    is a number in 0..3600 and ``report_every`` one in 0.001..3600 (a report at most every
    millisecond); anything else is refused naming the argument.
    """
    seconds = _seconds(seconds, "seconds", 0.0, SPIN_SECONDS)
    report_every = _seconds(report_every, "report_every", *SPIN_REPORT)
    start = time.monotonic()
    next_report = start
    spins = 0
    while (elapsed := time.monotonic() - start) < seconds:
        spins += 1
        if elapsed >= next_report - start:
            progress.step(int(elapsed * 1000), int(seconds * 1000), "spinning")
            next_report += report_every
    return {"seconds": round(time.monotonic() - start, 3), "spins": spins}


def set_progress(progress: Progress) -> None:
    """Install the progress sink used by calls made through :func:`dispatch`."""
    global _progress
    _progress = progress


def _contract(module_name: str) -> ModuleType:
    if module_name == __name__:
        return sys.modules[__name__]
    return importlib.import_module(module_name)


def _names(module_name: str) -> tuple[str, ...]:
    if module_name == __name__:
        return API_FUNCTIONS
    return tuple(getattr(_contract(module_name), "__all__", ()))


def resolve(name: str) -> Callable[..., Any]:
    """The page function ``name`` (``gridforge.<game>.page.<function>`` or
    ``gridforge.api.<function>``), or a :class:`GridforgeError` saying it is unknown."""
    if not isinstance(name, str):
        raise GridforgeError(f"unknown function {name!r}: a name is a string")
    module_name, _, func_name = name.rpartition(".")
    if module_name not in (__name__, *PAGE_MODULES) or func_name not in _names(module_name):
        raise GridforgeError(f"unknown function {name!r}: the page may call only the names "
                             "that gridforge.api.functions() lists")
    func: object = getattr(_contract(module_name), func_name)
    if not callable(func):  # pragma: no cover - a contract that lists a non-function
        raise GridforgeError(f"unknown function {name!r}")
    return func


def functions() -> list[dict[str, str]]:
    """Every name the page may call, with the first line of its docstring."""
    out = []
    for module_name in (__name__, *PAGE_MODULES):
        for func_name in sorted(_names(module_name)):
            doc = inspect.getdoc(getattr(_contract(module_name), func_name)) or ""
            out.append({"name": f"{module_name}.{func_name}", "doc": doc.split("\n")[0]})
    return out


def call(name: str, args: list[Any]) -> Any:
    """Call the page function ``name`` with ``args``; bad arguments name the function."""
    func = resolve(name)
    signature = inspect.signature(func)
    try:
        signature.bind(*args)
    except TypeError as exc:
        raise GridforgeError(f"bad arguments for {name}: {exc}") from None
    param = signature.parameters.get("progress")
    if param is not None and param.kind is inspect.Parameter.KEYWORD_ONLY:
        return func(*args, progress=_progress)
    return func(*args)


# A file format's name ('gridforge.snakes.level/1': said "the snakes level format"), and an
# internal dotted name (left out).
_FORMAT = re.compile(r"'?\bgridforge\.([a-z_.]+)/\d+'?")
_DOTTED = re.compile(r"'?\bgridforge(\.[A-Za-z_][A-Za-z0-9_]*)+(?![\w./])(\(\))?'?")
_DANGLING = re.compile(r"\b(for|in|of|from)\s*(?=[:,.]|$)")


def player_text(kind: str, message: str) -> str:
    """An error in the player's words (the page shows it as it is): no internal dotted
    names, no tracebacks, field paths, cells and identifiers in words
    (:func:`gridforge.words.plain`); a bug says so in a plain sentence."""
    if kind == "Cancelled":
        return say("error.cancelled")
    if kind == "InternalError":
        return say("error.internal")
    if language() != DEFAULT:
        # The engines' own messages are English (the command line's); in another language
        # the page says what went wrong in general and names the place (the issues, each in
        # its own words, say the rest).
        return say("error.refused")
    text = _FORMAT.sub(lambda m: f"the {m.group(1).replace('.', ' ')} format", message)
    text = _DANGLING.sub("", _DOTTED.sub("", text))
    text = re.sub(r"\s+([:,.])", r"\1", text)
    text = plain(re.sub(r"\s{2,}", " ", text.lstrip(" \t\n:")).strip())
    if not text:
        return say("error.nothing")
    return text[0].upper() + text[1:]


class ErrorAnswer(TypedDict):
    """A failed call's error: its kind, the raw message, the issues of a ValidationError
    (with their places and messages in words) and the message in the player's words."""

    type: str
    message: str
    issues: NotRequired[list[dict[str, str]]]
    text: str


def _error(exc: BaseException) -> ErrorAnswer:
    kind, message = type(exc).__name__, str(exc) or type(exc).__name__
    text = player_text(kind, message)
    if isinstance(exc, ValidationError):
        # Each issue keeps its path (the page places it beside its field) and adds its place
        # and message in words, which the page shows.
        return {"type": kind, "message": message,
                "issues": [issue_words(issue.to_json()) for issue in exc.issues], "text": text}
    return {"type": kind, "message": message, "text": text}


def dispatch(name: str, args_json: str = "[]", language: str = "en") -> str:
    """Call ``name`` with the JSON array ``args_json``; answer a JSON envelope (never raises).
    Player-facing words in the answer are in ``language`` (the page's: ``en`` or ``zh-CN``;
    :mod:`gridforge.i18n`), for this call only."""
    with speaking(language):
        return _dispatch(name, args_json)


def _dispatch(name: str, args_json: str) -> str:
    try:
        args = parse_json(args_json, "arguments")
        if not isinstance(args, list):
            raise GridforgeError("arguments must be a JSON array")
        value = call(name, args)
        return json.dumps({"ok": True, "value": value}, ensure_ascii=False, allow_nan=False)
    except KeyboardInterrupt:
        return json.dumps({"ok": False, "error": {"type": "Cancelled", "message": "cancelled",
                                                  "text": player_text("Cancelled", "cancelled")}})
    except Cancelled as exc:
        return json.dumps({"ok": False, "error": _error(exc)})
    except GridforgeError as exc:  # the caller's input, named by the package's own error
        return json.dumps({"ok": False, "error": _error(exc)}, ensure_ascii=False)
    except BaseException as exc:  # a bug (SystemExit included): a message, not a dead worker
        error = _error(exc)
        error["type"] = "InternalError"
        error["message"] = (f"internal error in {name} ({type(exc).__name__}): "
                            f"{error['message']}")
        error["text"] = player_text("InternalError", error["message"])
        return json.dumps({"ok": False, "error": error}, ensure_ascii=False)

"""The JSON facade that the Web Worker and tools call: the one place errors become JSON.

The browser calls ``dispatch(name, args_json)`` with a dotted function name under
``gridforge`` and a JSON array of arguments; the answer is a JSON text, either
``{"ok": true, "value": ...}`` or ``{"ok": false, "error": {"type", "message", ...}}``.
Only public functions of modules inside the package can be called, and only with
JSON values, so a page can never reach anything else of the interpreter.
"""

from __future__ import annotations

import importlib
import inspect
import json
import platform
import sys
import time
from collections.abc import Callable
from typing import Any

from gridforge import __version__
from gridforge.errors import Cancelled, GridforgeError, ValidationError
from gridforge.progress import NO_PROGRESS, Progress

PACKAGE = "gridforge"

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


def spin(seconds: float, report_every: float = 0.25) -> dict[str, float]:
    """Test-only long call: a busy loop of ``seconds`` that reports progress.

    It proves that long Python work can be cancelled from the page (the interrupt buffer
    raises KeyboardInterrupt inside this loop) and that the worker survives it.
    """
    if not isinstance(seconds, int | float) or isinstance(seconds, bool) or seconds < 0:
        raise GridforgeError(f"spin: seconds must be a non-negative number, got {seconds!r}")
    start = time.monotonic()
    next_report = start
    spins = 0
    while (elapsed := time.monotonic() - start) < seconds:
        spins += 1
        if elapsed >= next_report - start:
            _progress.step(int(elapsed * 1000), int(seconds * 1000), "spinning")
            next_report += report_every
    return {"seconds": round(time.monotonic() - start, 3), "spins": spins}


def set_progress(progress: Progress) -> None:
    """Install the progress sink used by calls made through :func:`dispatch`."""
    global _progress
    _progress = progress


def current_progress() -> Progress:
    """The progress sink of the call in flight (NO_PROGRESS outside the bridge)."""
    return _progress


def resolve(name: str) -> Callable[..., Any]:
    """Find the public function ``name`` (``gridforge.<module>.<function>``) or raise."""
    if not isinstance(name, str) or not name.startswith(PACKAGE + "."):
        raise GridforgeError(f"unknown function {name!r}: names start with '{PACKAGE}.'")
    module_name, _, func_name = name.rpartition(".")
    if not func_name or func_name.startswith("_") or any(
        part.startswith("_") for part in module_name.split(".")
    ):
        raise GridforgeError(f"unknown function {name!r}: not a public name")
    try:
        module = importlib.import_module(module_name)
    except ImportError:
        raise GridforgeError(f"unknown function {name!r}: no module {module_name!r}") from None
    func = getattr(module, func_name, None)
    if not inspect.isfunction(func) or func.__module__ != module.__name__:
        raise GridforgeError(f"unknown function {name!r}: {module_name} has no such function")
    return func


def call(name: str, args: list[Any]) -> Any:
    """Call the public function ``name`` with ``args``; bad arguments name the function."""
    func = resolve(name)
    try:
        inspect.signature(func).bind(*args)
    except TypeError as exc:
        raise GridforgeError(f"bad arguments for {name}: {exc}") from None
    return func(*args)


def _error(exc: BaseException) -> dict[str, Any]:
    error: dict[str, Any] = {"type": type(exc).__name__, "message": str(exc) or type(exc).__name__}
    if isinstance(exc, ValidationError):
        error["issues"] = exc.to_json()["issues"]
    return error


def dispatch(name: str, args_json: str = "[]") -> str:
    """Call ``name`` with the JSON array ``args_json``; answer a JSON envelope (never raises)."""
    try:
        try:
            args = json.loads(args_json)
        except json.JSONDecodeError as exc:
            raise GridforgeError(f"arguments are not valid JSON: {exc}") from None
        if not isinstance(args, list):
            raise GridforgeError("arguments must be a JSON array")
        value = call(name, args)
        return json.dumps({"ok": True, "value": value}, ensure_ascii=False, allow_nan=False)
    except KeyboardInterrupt:
        return json.dumps({"ok": False, "error": {"type": "Cancelled", "message": "cancelled"}})
    except Cancelled as exc:
        return json.dumps({"ok": False, "error": _error(exc)})
    except (GridforgeError, TypeError, ValueError, KeyError, IndexError) as exc:
        return json.dumps({"ok": False, "error": _error(exc)}, ensure_ascii=False)
    except Exception as exc:  # a bug, but the page must get a message, not a dead worker
        error = _error(exc)
        error["message"] = f"internal error in {name}: {error['message']}"
        return json.dumps({"ok": False, "error": error}, ensure_ascii=False)

"""The bridge typed from both ends: TypeScript declarations of the page contract, generated
from the Python answer types.

Every function the page may call (``gridforge.api.functions()``, the one registry of the
page's names) is read with its parameters and its return annotation; every
:class:`~typing.TypedDict` those reach, through fields, unions, lists and generic bases, is
written as an ``interface``. The result, ``web/types/bridge.d.ts``, is checked in: the page's
JavaScript names these types in JSDoc and ``tsc --checkJs`` holds it to them, and
``tests/test_bridge_types.py`` fails when the file is not what this module writes now.

    .venv/bin/python -m tools.bridge_types           # write web/types/bridge.d.ts
    .venv/bin/python -m tools.bridge_types --check   # exit 1 when it is stale

It imports ``gridforge``, so it lives here and not in ``buildsys/`` (build.py's parts run on
a bare Python, before ``.venv`` exists); it is under ``mypy --strict`` like them.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import json
import sys
import types
import typing
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from buildsys.paths import ROOT

OUTPUT = ROOT / "web" / "types" / "bridge.d.ts"
REGENERATE = ".venv/bin/python -m tools.bridge_types"
PROGRESS_PARAMETER = "progress"  # the dispatcher's sink: the page never passes it
# The module whose Json aliases are written as one TypeScript alias each (they are strings
# for Python's evaluator, so a field naming them is evaluated with these stand-ins).
JSON_MODULE = "gridforge.jsontypes"
JSON_DECLARATIONS = (
    "export type Json = boolean | number | string | null | Json[] | { [key: string]: Json };",
    "export type JsonObject = { [key: string]: Json };",
)


class BridgeTypeError(Exception):
    """A type of the page contract that has no JSON form the generator knows."""


class _JsonStandIn:
    """Evaluates in place of ``gridforge.jsontypes.Json`` (a string alias)."""


class _JsonObjectStandIn:
    """Evaluates in place of ``gridforge.jsontypes.JsonObject`` (a string alias)."""


_STAND_INS: dict[str, object] = {"Json": _JsonStandIn, "JsonObject": _JsonObjectStandIn}
_NAMED: dict[object, str] = {_JsonStandIn: "Json", _JsonObjectStandIn: "JsonObject",
                             typing.Any: "unknown", object: "unknown"}
_SCALARS: dict[object, str] = {str: "string", int: "number", float: "number",
                               bool: "boolean", type(None): "null", None: "null"}


def _type_checking_imports(module: types.ModuleType) -> dict[str, object]:
    """The names a module imports only under ``if TYPE_CHECKING:`` (its annotations use
    them, its namespace lacks them), imported now."""
    try:
        tree = ast.parse(inspect.getsource(module))
    except (OSError, TypeError):
        return {}
    names: dict[str, object] = {}
    for node in ast.walk(tree):
        if not (isinstance(node, ast.If) and isinstance(node.test, ast.Name)
                and node.test.id == "TYPE_CHECKING"):
            continue
        for stmt in node.body:
            if isinstance(stmt, ast.ImportFrom) and stmt.module:
                source = importlib.import_module(stmt.module)
                for alias in stmt.names:
                    names[alias.asname or alias.name] = getattr(source, alias.name) if hasattr(
                        source, alias.name) else importlib.import_module(
                        f"{stmt.module}.{alias.name}")  # a submodule not yet imported
    return names


class _Namespaces:
    """Each module's names for evaluating its string annotations, built once."""

    def __init__(self) -> None:
        self.cache: dict[str, dict[str, object]] = {}

    def of(self, module_name: str) -> dict[str, object]:
        if module_name not in self.cache:
            module = importlib.import_module(module_name)
            names = {**vars(module), **_type_checking_imports(module)}
            for alias, stand_in in _STAND_INS.items():
                if module_name == JSON_MODULE or getattr(
                        sys.modules[JSON_MODULE], alias) is names.get(alias):
                    names[alias] = stand_in
            self.cache[module_name] = names
        return self.cache[module_name]

    def evaluate(self, annotation: object, module_name: str) -> object:
        """``annotation`` (a string, a ForwardRef or a type) as a typing object."""
        if isinstance(annotation, typing.ForwardRef):
            module_name = annotation.__forward_module__ or module_name
            annotation = annotation.__forward_arg__
        if isinstance(annotation, str):
            try:
                return eval(annotation, self.of(module_name))
            except Exception as exc:
                raise BridgeTypeError(f"{module_name}: cannot read the annotation "
                                      f"{annotation!r}: {exc}") from exc
        return annotation


def _is_typeddict(value: object) -> bool:
    return isinstance(value, type) and typing.is_typeddict(value)


@dataclass
class _Interface:
    """One TypedDict as it is written: its generic parameters, bases and own fields."""

    cls: type
    parameters: list[str]
    bases: list[object]
    fields: list[tuple[str, object, bool]]  # name, type, required


@dataclass
class _Verb:
    """One page function: its dotted name, parameters (name, type, optional) and answer."""

    name: str
    doc: str
    parameters: list[tuple[str, object, bool]]
    answer: object


@dataclass
class Bridge:
    """Everything the page contract reaches: its verbs and the interfaces they name."""

    verbs: list[_Verb] = field(default_factory=list)
    interfaces: dict[type, _Interface] = field(default_factory=dict)
    names: dict[type, str] = field(default_factory=dict)


class _Reader:
    """Walks the contract's annotations, collecting every TypedDict they reach."""

    def __init__(self) -> None:
        self.spaces = _Namespaces()
        self.bridge = Bridge()

    def reach(self, tp: object) -> None:
        """Collect the TypedDicts within the evaluated type ``tp``."""
        origin = typing.get_origin(tp)
        if _is_typeddict(origin if origin is not None else tp):
            self.collect(typing.cast(type, origin if origin is not None else tp))
        if origin is not typing.Literal:
            for arg in typing.get_args(tp):
                self.reach(arg)

    def bases(self, cls: type) -> list[object]:
        """The TypedDict bases of ``cls`` as its class statement names them (Python keeps
        them in ``__orig_bases__`` only for generic ones: the others are read from source)."""
        written = cls.__dict__.get("__orig_bases__")
        if written is None:
            statement = ast.parse(inspect.getsource(cls)).body[0]
            assert isinstance(statement, ast.ClassDef)
            written = [self.spaces.evaluate(ast.unparse(base), cls.__module__)
                       for base in statement.bases]
        return [base for base in written if _is_typeddict(typing.get_origin(base) or base)]

    def collect(self, cls: type) -> None:
        if cls in self.bridge.interfaces:
            return
        own = inspect.get_annotations(cls)
        bases = self.bases(cls)
        inherited: set[str] = set()
        for base in bases:
            inherited.update(typing.cast(type, typing.get_origin(base) or base).__annotations__)
        fields = []
        for name, annotation in own.items():
            if name in inherited:
                continue
            tp = self.spaces.evaluate(annotation, cls.__module__)
            required = typing.get_origin(tp) is not typing.NotRequired and (
                name in cls.__required_keys__)  # type: ignore[attr-defined]
            if typing.get_origin(tp) in (typing.NotRequired, typing.Required):
                tp = typing.get_args(tp)[0]
            fields.append((name, tp, required))
        parameters = [p.__name__ for p in getattr(cls, "__parameters__", ())]
        self.bridge.interfaces[cls] = _Interface(cls, parameters, bases, fields)
        for base in bases:
            self.reach(base)
        for _, tp, _ in fields:
            self.reach(tp)

    def verb(self, name: str, func: Callable[..., object]) -> None:
        module_name = func.__module__
        signature = inspect.signature(func)
        parameters = []
        for param in signature.parameters.values():
            if param.name == PROGRESS_PARAMETER or param.kind is param.KEYWORD_ONLY:
                continue
            if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
                raise BridgeTypeError(f"{name}: the page passes a JSON list of arguments; "
                                      f"*{param.name} has no place in it")
            tp = self.spaces.evaluate(param.annotation, module_name) \
                if param.annotation is not param.empty else typing.Any
            parameters.append((param.name, tp, param.default is not param.empty))
            self.reach(tp)
        if signature.return_annotation is signature.empty:
            raise BridgeTypeError(f"{name}: a page function must annotate what it answers")
        answer = self.spaces.evaluate(signature.return_annotation, module_name)
        self.reach(answer)
        doc = (inspect.getdoc(func) or "").split("\n\n")[0]
        self.bridge.verbs.append(_Verb(name, doc, parameters, answer))


def _name_interfaces(interfaces: Mapping[type, _Interface]) -> dict[type, str]:
    """Each TypedDict's TypeScript name: its class name, or, where classes share one, the
    name prefixed with as few of its module's words as tell them apart, the game first
    (``gridforge.mines.backend.HintAnswer`` -> ``MinesHintAnswer``)."""
    by_name: dict[str, list[type]] = {}
    for cls in interfaces:
        by_name.setdefault(cls.__name__, []).append(cls)
    names: dict[type, str] = {}
    for name, classes in by_name.items():
        for words in range(len(max((c.__module__.split(".") for c in classes), key=len))):
            named = {cls: "".join(w.title().replace("_", "")
                                  for w in cls.__module__.split(".")[1:1 + words]) + name
                     for cls in classes}
            if len(set(named.values())) == len(classes):
                names.update(named)
                break
        else:
            raise BridgeTypeError(f"cannot tell apart the TypedDicts named {name}")
    return names


class _Writer:
    """Writes evaluated types as TypeScript."""

    def __init__(self, names: Mapping[type, str]) -> None:
        self.names = names

    def ts(self, tp: object) -> str:
        if tp in _SCALARS:
            return _SCALARS[tp]
        if tp in _NAMED:
            return _NAMED[tp]
        if isinstance(tp, str | typing.ForwardRef):
            return self.json_alias(tp)
        if isinstance(tp, typing.TypeVar):
            return tp.__name__
        if isinstance(tp, type) and tp in self.names:
            return self.names[tp]
        origin, args = typing.get_origin(tp), typing.get_args(tp)
        if origin is None:
            raise BridgeTypeError(f"no JSON form for the type {tp!r}")
        return self.generic(tp, origin, args)

    @staticmethod
    def json_alias(tp: str | typing.ForwardRef) -> str:
        """A Json alias inside a type built at import time (``list[Json]``), where Python
        keeps the alias's text: the alias's TypeScript name."""
        text = tp.__forward_arg__ if isinstance(tp, typing.ForwardRef) else tp
        json_module = sys.modules[JSON_MODULE]
        for alias in _STAND_INS:
            if text in (alias, getattr(json_module, alias)):
                return alias
        raise BridgeTypeError(f"no JSON form for the type named {text!r}")

    def generic(self, tp: object, origin: object, args: tuple[object, ...]) -> str:
        if origin is typing.Literal:
            return " | ".join(json.dumps(arg) for arg in args)
        if origin in (typing.Union, types.UnionType):
            members: list[str] = []
            for arg in args:
                text = self.ts(arg)
                if text not in members:
                    members.append(text)
            return " | ".join(members)
        if origin in (list, Sequence, set, frozenset):
            return f"{self.wrapped(args[0])}[]"
        if origin is tuple:
            if len(args) == 2 and args[1] is Ellipsis:
                return f"{self.wrapped(args[0])}[]"
            return "[" + ", ".join(self.ts(arg) for arg in args) + "]"
        if origin in (dict, Mapping):
            return f"{{ [key: string]: {self.ts(args[1])} }}"
        if isinstance(origin, type) and origin in self.names:
            return f"{self.names[origin]}<{', '.join(self.ts(arg) for arg in args)}>"
        raise BridgeTypeError(f"no JSON form for the type {tp!r}")

    def wrapped(self, tp: object) -> str:
        text = self.ts(tp)
        return f"({text})" if " " in text and not text.startswith(("{", "[")) else text


def read_contract() -> Bridge:
    """The page contract as the generator sees it: every page function of
    ``gridforge.api.functions()`` and the TypedDicts its annotations reach."""
    from gridforge import api

    reader = _Reader()
    for entry in api.functions():
        reader.verb(entry["name"], api.resolve(entry["name"]))
    reader.bridge.names = _name_interfaces(reader.bridge.interfaces)
    return reader.bridge


def _doc_comment(text: str, indent: str = "") -> Iterator[str]:
    text = " ".join(text.split()).replace("*/", "*\\/")
    if text:
        yield f"{indent}/** {text} */"


def _interface_lines(interface: _Interface, writer: _Writer) -> Iterator[str]:
    cls = interface.cls
    name = writer.names[cls]
    params = f"<{', '.join(interface.parameters)}>" if interface.parameters else ""
    extends = ""
    if interface.bases:
        extends = " extends " + ", ".join(writer.ts(base) for base in interface.bases)
    yield ""
    own_doc = inspect.cleandoc(cls.__dict__.get("__doc__") or "")  # never dict's own
    yield from _doc_comment(f"{cls.__module__}.{cls.__qualname__}"
                            + (f": {own_doc.split(chr(10) * 2)[0]}" if own_doc else ""))
    yield f"export interface {name}{params}{extends} {{"
    for field_name, tp, required in interface.fields:
        yield f"  {field_name}{'' if required else '?'}: {writer.ts(tp)};"
    yield "}"


def _verb_lines(verb: _Verb, writer: _Writer) -> Iterator[str]:
    args = ", ".join(f"{name}{'?' if optional else ''}: {writer.ts(tp)}"
                     for name, tp, optional in verb.parameters)
    yield from _doc_comment(verb.doc, "  ")
    yield f'  "{verb.name}": {{ args: [{args}]; answer: {writer.ts(verb.answer)} }};'


def render(bridge: Bridge) -> str:
    """The declaration file's text for ``bridge`` (same contract, same bytes)."""
    writer = _Writer(bridge.names)
    lines = [
        "// The page contract as Python types it: generated by tools/bridge_types.py from",
        "// the answer TypedDicts of gridforge's page functions. Do not edit; regenerate with",
        f"// `{REGENERATE}` (tests/test_bridge_types.py fails when it is stale).",
        "",
        *JSON_DECLARATIONS,
    ]
    for cls in sorted(bridge.interfaces, key=lambda c: bridge.names[c]):
        lines.extend(_interface_lines(bridge.interfaces[cls], writer))
    lines += ["", "/** Every function the page may call: its JSON arguments and its answer. */",
              "export interface PageVerbs {"]
    for verb in sorted(bridge.verbs, key=lambda v: v.name):
        lines.extend(_verb_lines(verb, writer))
    lines += ["}", ""]
    return "\n".join(lines)


def generate() -> str:
    """The declaration file as the Python sources say it should be now."""
    return render(read_contract())


def main(argv: list[str] | None = None) -> int:
    """Write ``web/types/bridge.d.ts``; with ``--check``, only say whether it is current."""
    args = sys.argv[1:] if argv is None else argv
    text = generate()
    if args == ["--check"]:
        current = OUTPUT.read_text(encoding="utf-8") if OUTPUT.exists() else ""
        if current != text:
            print(f"{OUTPUT.relative_to(ROOT)} is stale: run {REGENERATE}", file=sys.stderr)
            return 1
        return 0
    if args:
        print(f"usage: {REGENERATE} [--check]", file=sys.stderr)
        return 2
    OUTPUT.parent.mkdir(parents=True, exist_ok=True)
    OUTPUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUTPUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

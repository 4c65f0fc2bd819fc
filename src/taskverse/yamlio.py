"""Reading and writing YAML with locations: syntax errors and schema errors point at a line.

Every YAML document goes through one loader: the safe loader (plain data only), with the C parser when PyYAML has
it, and a composer that rejects what no task file needs and a hostile one can use against the machine: a key
given twice in one mapping (instead of the last one silently winning), nesting deeper than ``MAX_DEPTH`` (deep
enough for any task, shallow enough that nothing downstream recurses too deep), and aliases that expand to more
than ``MAX_NODES`` values (a 1 KB file of nested anchors can otherwise stand for billions). A plain document (no
anchors, aliases or tags) is built straight from the C parser's events (``taskverse.yaml_plain``), several times
faster, with the same data; the loader above reads every other one, and says what is wrong with it. Files are read
through ``taskverse.fileio`` (size limit, FIFOs, folders, encodings). The limits are listed in ``docs/limits.md``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, NamedTuple

import yaml
import yaml.reader
from yaml.composer import Composer
from yaml.constructor import SafeConstructor
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from yaml.parser import Parser
from yaml.reader import Reader
from yaml.resolver import Resolver
from yaml.scanner import Scanner

from taskverse.errors import TaskverseError
from taskverse.fileio import read_text
from taskverse.yaml_plain import NOT_PLAIN, plain_data


class _PyParser(Reader, Scanner, Parser):
    """PyYAML's pure-Python parser, for a PyYAML built without libyaml."""

    def __init__(self, stream: str) -> None:
        Reader.__init__(self, stream)
        Scanner.__init__(self)
        Parser.__init__(self)


# the C parser is several times faster on the 3000+ task library; its events feed the checking composer below
try:
    from yaml.cyaml import CParser as _CParser  # type: ignore[attr-defined]

    _Parser: type = _CParser
except ImportError:  # pragma: no cover - PyYAML built without libyaml
    _Parser = _PyParser
_Dumper: type = getattr(yaml, "CSafeDumper", yaml.SafeDumper)

MAX_DEPTH = 100
"""Deepest nesting of lists and mappings in a YAML document (a molecule nested 45 operators deep fits)."""
MAX_NODES = 1_000_000
"""Most values a YAML document may stand for, counting each alias as the values it repeats."""


class _LimitError(yaml.YAMLError):
    def __init__(self, message: str, mark: Any) -> None:
        super().__init__(message)
        self.message = message
        self.mark = mark


class _Composer(Composer):
    """PyYAML's composer with the limits above; each node carries its expanded size (``_size``)."""

    def __init__(self) -> None:
        super().__init__()
        self.depth = 0

    def compose_node(self, parent: Node | None, index: Any) -> Any:
        events: Any = self  # the parser half of the loader (C or Python) supplies the events
        if events.check_event(yaml.AliasEvent):
            event = events.peek_event()
            alias: Any = super().compose_node(parent, index)
            if not hasattr(alias, "_size"):
                raise _LimitError(f"the alias *{event.anchor} refers to a value that contains it", event.start_mark)
            return alias
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise _LimitError(f"nested more than {MAX_DEPTH} levels deep", events.peek_event().start_mark)
        node: Any = super().compose_node(parent, index)  # typed Any: the size is an attribute PyYAML does not declare
        self.depth -= 1
        kind = type(node)
        if kind is ScalarNode:
            node._size = 1
            return node
        if kind is SequenceNode:
            size = 1 + sum(child._size for child in node.value)
        else:
            size = 1 + sum(key._size + value._size for key, value in node.value)
            _check_duplicate_keys(node)
        if size > MAX_NODES:
            raise _LimitError(f"expands to more than {MAX_NODES:,} values (through aliases)", node.start_mark)
        node._size = size
        return node


def _check_duplicate_keys(node: MappingNode) -> None:
    plain = [key.value for key, _ in node.value if type(key) is ScalarNode]
    if len(set(plain)) == len(plain):
        return  # the usual case, decided at C speed
    seen: dict[tuple[str, str], Any] = {}
    for key, _ in node.value:
        if not isinstance(key, ScalarNode) or key.tag == "tag:yaml.org,2002:merge":
            continue
        first = seen.setdefault((key.tag, key.value), key)
        if first is not key:
            raise _LimitError(f"duplicate key {key.value!r} (first on line {first.start_mark.line + 1})",
                              key.start_mark)


class Loader(_Composer, _Parser, SafeConstructor, Resolver):  # type: ignore[misc, valid-type]
    """The safe loader with the limits of this module (the C parser's events, a checking composer)."""

    def __init__(self, stream: str) -> None:
        _Parser.__init__(self, stream)  # type: ignore[misc]
        _Composer.__init__(self)
        SafeConstructor.__init__(self)
        Resolver.__init__(self)


def parse_yaml(text: str, source: str | Path = "<string>") -> Any:
    """Parse YAML text; a syntax error or a broken limit becomes a TaskverseError with its line."""
    data = plain_data(text, MAX_DEPTH, MAX_NODES)  # most documents; the checking loader reads the others
    if data is not NOT_PLAIN:
        return data
    try:
        return yaml.load(text, Loader=Loader)  # noqa: S506 - Loader is a safe loader
    except _LimitError as exc:
        line = exc.mark.line + 1 if exc.mark is not None else None
        raise TaskverseError(f"invalid YAML: {exc.message}", file=source, line=line) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        problem = exc.problem or exc.context or "invalid YAML"
        if problem == "second occurrence" and exc.context:  # PyYAML splits this message in two
            problem = exc.context.replace("; first occurrence", "")
        elif problem.startswith("but ") and exc.context:
            problem = f"{exc.context}, {problem}"
        elif "maximum nesting depth" in problem:  # libyaml's own limit (1,000 levels) is far past ours
            problem = f"nested more than {MAX_DEPTH} levels deep"
        raise TaskverseError(f"invalid YAML: {problem}", file=source, line=line) from None
    except yaml.reader.ReaderError as exc:
        line = text.count("\n", 0, exc.position) + 1 if isinstance(exc.position, int) else None
        character = f"#x{exc.character:04x}" if isinstance(exc.character, int) else repr(exc.character)
        raise TaskverseError(f"invalid YAML: unacceptable character {character} ({exc.reason})", file=source,
                             line=line) from None
    except yaml.YAMLError as exc:
        raise TaskverseError(f"invalid YAML: {' '.join(str(exc).split())}", file=source) from None
    except (ValueError, OverflowError) as exc:  # e.g. a timestamp out of range: the constructor's own checks
        raise TaskverseError(f"invalid YAML: {exc}", file=source) from None


def read_yaml(path: str | Path) -> Any:
    """Read and parse one YAML file (see ``taskverse.fileio.read_text`` for the checks on the path)."""
    return parse_yaml(read_text(path, "YAML file"), path)


class Lines:
    """Finds the lines of locations in one YAML text, composing it once, on the first question.

    A file with many errors is read once, not once per error.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self._root: Node | None = None
        self._composed = False

    def of(self, location: tuple[str | int, ...]) -> int | None:
        """The 1-based line of the node at ``location`` (keys and list indices), or of its nearest parent."""
        if not self._composed:
            self._composed = True
            try:
                self._root = yaml.compose(self.text, Loader=Loader)
            except yaml.YAMLError:
                self._root = None
        node = self._root
        if node is None:
            return None
        line = node.start_mark.line + 1
        for step in location:
            if isinstance(node, MappingNode):
                for key_node, value_node in node.value:
                    if key_node.value == step:
                        line = key_node.start_mark.line + 1
                        node = value_node
                        break
                else:
                    return line
            elif isinstance(node, SequenceNode) and isinstance(step, int) and step < len(node.value):
                node = node.value[step]
                line = node.start_mark.line + 1
            else:
                return line
        return line


def line_of(text: str, location: tuple[str | int, ...]) -> int | None:
    """Return the 1-based line of the node at ``location`` (keys and list indices), or of its nearest parent."""
    return Lines(text).of(location)


def dump_yaml(data: Any) -> str:
    """Serialise plain data as YAML: block style outside, flow style for leaf collections; keys in given order."""
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=120, default_flow_style=None)


def validation_error(exc: Any, path: str | Path, text: str, prefix: tuple[str | int, ...] = ()) -> TaskverseError:
    """A pydantic ValidationError as one TaskverseError naming the file, line and field.

    The first of ``validation_errors`` (an unknown field if there is one), for commands that stop at the first
    problem.
    """
    return validation_errors(exc, path, text, prefix)[0]


_NO_DATA = object()


class _Problem(NamedTuple):
    """One pydantic error, placed in the input."""

    kind: str  # pydantic's error type
    loc: tuple[str | int, ...]  # where in the input, without union branch names
    branch: tuple[tuple[str | int, ...], str] | None  # the union it is under (its place, the branch's name)
    whole: bool  # about the branch as a whole: the input does not have the branch's shape
    message: str
    error: Any


def validation_errors(exc: Any, path: str | Path, text: str | Lines, prefix: tuple[str | int, ...] = (),
                      data: Any = _NO_DATA) -> list[TaskverseError]:
    """Every error of a pydantic ValidationError, each a TaskverseError naming the file, line and field.

    A mistyped key shows up as an unknown field *and* a missing one: the unknown one, which is what the user
    wrote, is reported, with the missing field it probably meant as the suggestion (and that missing field is not
    reported again). Unknown fields come first: they are the likeliest cause of the rest. A value outside a set of
    choices gets the close ones as suggestions.

    Given ``data`` (the input that was validated, found at ``prefix`` in the file), the branches of a union (a
    way is a list of needs or a mapping) are told apart: a branch the input does not have the shape of is left
    out when another branch got further, and the branch's name (``WaySpec``) is left out of the field.
    """
    from taskverse.errors import close_matches

    lines = text if isinstance(text, Lines) else Lines(text)
    problems = _one_branch([_problem(err, data) for err in exc.errors()])
    problems.sort(key=lambda p: p.kind != "extra_forbidden")
    claimed: set[tuple[str | int, ...]] = set()  # missing fields already suggested for an unknown one
    errors = []
    for problem in problems:
        loc, message, suggestions = problem.loc, problem.message, []
        if problem.kind == "extra_forbidden":
            message = "unknown field"
            missing = [str(p.loc[-1]) for p in problems
                       if p.kind == "missing" and p.loc[:-1] == loc[:-1] and p.loc not in claimed]
            suggestions = close_matches(str(loc[-1]), missing) or missing[:1] or \
                close_matches(str(loc[-1]), _known_fields(getattr(exc, "title", ""), loc[:-1]))
            claimed |= {(*loc[:-1], s) for s in suggestions[:1]}
        elif problem.kind == "missing":
            if loc in claimed:
                continue
            message = "missing required field"
        elif problem.kind in ("enum", "literal_error") and isinstance(problem.error.get("input"), str):
            choices = re.findall(r"'([^']*)'", str(problem.error.get("ctx", {}).get("expected", "")))
            suggestions = close_matches(problem.error["input"], choices)
        where = (*prefix, *loc)
        errors.append(TaskverseError(message, file=path, line=lines.of(where),
                                     field=".".join(str(p) for p in where) or None, suggestions=suggestions))
    return errors


def _known_fields(title: str, loc: tuple[str | int, ...]) -> list[str]:
    """The fields the model named ``title`` accepts at ``loc``, for close matches to an unknown optional field.

    Pydantic names only the root model (``AtomTask``); the nested models are found by walking its fields'
    annotations (optional values, unions, lists and mappings) along ``loc``. Empty when the walk cannot tell.
    """
    import typing

    from pydantic import BaseModel

    def models(annotation: Any) -> list[type[BaseModel]]:
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            return [annotation]
        return [m for arg in typing.get_args(annotation) for m in models(arg)]

    def subclasses(cls: type[BaseModel]) -> list[type[BaseModel]]:
        found: list[type[BaseModel]] = []
        for sub in cls.__subclasses__():
            found += [sub, *subclasses(sub)]
        return found

    current = [c for c in subclasses(BaseModel) if c.__name__ == title][:1]
    for step in loc:
        if isinstance(step, int) or step == "[key]":
            continue  # a list item or a mapping key: the same annotation's inner models follow
        current = [m for model in current if step in model.model_fields
                   for m in models(model.model_fields[step].annotation)]
    return sorted({name for model in current for name in model.model_fields})


def _problem(err: Any, data: Any) -> _Problem:
    """A pydantic error placed in the input, its location without the name of a union's branch.

    Pydantic puts a union branch's name into the location; it is the one kind of step the input does not have
    (besides a missing field, and ``[key]`` for a mapping key).
    """
    loc: tuple[str | int, ...] = tuple(err["loc"])
    message = str(err["msg"]).removeprefix("Value error, ")
    if data is _NO_DATA:
        return _Problem(err["type"], loc, None, False, message, err)
    node = data
    steps: list[str | int] = []
    branch: tuple[tuple[str | int, ...], str] | None = None
    for i, step in enumerate(loc):
        if isinstance(node, dict) and step in node:
            node = node[step]
        elif isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node):
            node = node[step]
        elif isinstance(step, str) and step != "[key]" and not (err["type"] == "missing" and i == len(loc) - 1):
            branch = branch or (tuple(steps), step)
            continue
        steps.append(step)
    whole = branch is not None and branch[0] == tuple(steps)
    return _Problem(err["type"], tuple(steps), branch, whole, message, err)


def _one_branch(problems: list[_Problem]) -> list[_Problem]:
    """Of a union's branches, keep those the input got into; if it got into none, one error naming them all."""
    entered = {p.branch[0] for p in problems if p.branch and not p.whole}
    kept: list[_Problem] = []
    unions: dict[tuple[str | int, ...], int] = {}  # a union no branch fits -> the index of its one error
    for problem in problems:
        if problem.branch is None or not problem.whole:
            kept.append(problem)
        elif problem.branch[0] in unions:
            first = kept[unions[problem.branch[0]]]
            also = problem.message.removeprefix("Input should be ")
            kept[unions[problem.branch[0]]] = first._replace(message=f"{first.message} or {also}")
        elif problem.branch[0] not in entered:
            unions[problem.branch[0]] = len(kept)
            kept.append(problem)
    return kept


def load_model(path: str | Path, model: Any, what: str) -> Any:
    """Read a YAML file holding one mapping and validate it as ``model``; every problem names file and line."""
    from pydantic import ValidationError

    path = Path(path)
    text = read_text(path, "YAML file")
    data = parse_yaml(text, path)
    if not isinstance(data, dict):
        raise TaskverseError(f"expected {what}", file=path, line=1)
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise validation_error(exc, path, text) from None

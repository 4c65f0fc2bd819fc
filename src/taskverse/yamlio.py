"""Reading and writing YAML with locations: syntax errors and schema errors point at a line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

try:  # the C parser is several times faster on the 3000+ task library
    _Loader: type = yaml.CSafeLoader
    _Dumper: type = yaml.CSafeDumper
except AttributeError:  # pragma: no cover - PyYAML built without libyaml
    _Loader = yaml.SafeLoader
    _Dumper = yaml.SafeDumper

from taskverse.errors import TaskverseError


def parse_yaml(text: str, source: str | Path = "<string>") -> Any:
    """Parse YAML text; a syntax error becomes a TaskverseError with the line it occurred on."""
    try:
        return yaml.load(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        problem = exc.problem or exc.context or "invalid YAML"
        raise TaskverseError(f"invalid YAML: {problem}", file=source, line=line) from None
    except yaml.YAMLError as exc:
        raise TaskverseError(f"invalid YAML: {exc}", file=source) from None


def read_yaml(path: str | Path) -> Any:
    """Read and parse one YAML file."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise TaskverseError("no such file", file=path) from None
    except UnicodeDecodeError as exc:
        raise TaskverseError(f"not UTF-8 text ({exc.reason})", file=path) from None
    return parse_yaml(text, path)


def line_of(text: str, location: tuple[str | int, ...]) -> int | None:
    """Return the 1-based line of the node at ``location`` (keys and list indices), or of its nearest parent."""
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return None
    line = node.start_mark.line + 1 if node is not None else None
    for step in location:
        if isinstance(node, yaml.MappingNode):
            for key_node, value_node in node.value:
                if key_node.value == step:
                    line = key_node.start_mark.line + 1
                    node = value_node
                    break
            else:
                return line
        elif isinstance(node, yaml.SequenceNode) and isinstance(step, int) and step < len(node.value):
            node = node.value[step]
            line = node.start_mark.line + 1
        else:
            return line
    return line


def dump_yaml(data: Any) -> str:
    """Serialise plain data as YAML: block style outside, flow style for leaf collections; keys in given order."""
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=120, default_flow_style=None)


def validation_error(exc: Any, path: str | Path, text: str, prefix: tuple[str | int, ...] = ()) -> TaskverseError:
    """A pydantic ValidationError as one TaskverseError naming the file, line and field.

    A mistyped key shows up as an unknown field *and* a missing one: the unknown one, which is what the user
    wrote, is reported, with the missing field it probably meant as the suggestion.
    """
    from taskverse.errors import close_matches

    errors = sorted(exc.errors(), key=lambda e: e["type"] != "extra_forbidden")
    err = errors[0]
    loc = (*prefix, *err["loc"])
    message = str(err["msg"]).removeprefix("Value error, ")
    suggestions: list[str] = []
    if err["type"] == "extra_forbidden":
        message = "unknown field"
        missing = [str(e["loc"][-1]) for e in errors if e["type"] == "missing" and e["loc"][:-1] == err["loc"][:-1]]
        suggestions = close_matches(str(err["loc"][-1]), missing) or missing[:1]
    elif err["type"] == "missing":
        message = "missing required field"
    field = ".".join(str(p) for p in loc) or None
    return TaskverseError(message, file=path, line=line_of(text, loc), field=field, suggestions=suggestions)


def load_model(path: str | Path, model: Any, what: str) -> Any:
    """Read a YAML file holding one mapping and validate it as ``model``; every problem names file and line."""
    from pydantic import ValidationError

    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise TaskverseError("no such file", file=path) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise TaskverseError(f"cannot read: {exc}", file=path) from None
    data = parse_yaml(text, path)
    if not isinstance(data, dict):
        raise TaskverseError(f"expected {what}", file=path, line=1)
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise validation_error(exc, path, text) from None

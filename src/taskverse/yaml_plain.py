"""Plain YAML documents built straight from the C parser's events: the fast path of ``taskverse.yamlio``.

Composing a node tree in Python and then constructing data from it costs seconds over the library's files; the
C parser's events cost a tenth of that. Most documents are plain: one document of mappings, lists and untagged
scalars, with no anchors, aliases, tags, merge keys or repeated keys. ``plain_data`` builds such a document's data
from the events in one pass, giving exactly what the safe loader gives, and returns ``NOT_PLAIN`` for anything
else (or for anything past a limit, or a syntax error), for the checking loader to read and report with its own
messages and lines. The limits are those of ``taskverse.yamlio``: a document this path accepts breaks none of them.
"""

from __future__ import annotations

from typing import Any

import yaml
from yaml.constructor import SafeConstructor
from yaml.events import (
    DocumentEndEvent,
    DocumentStartEvent,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
    StreamEndEvent,
    StreamStartEvent,
)
from yaml.nodes import ScalarNode
from yaml.resolver import Resolver

try:
    from yaml.cyaml import CParser  # type: ignore[attr-defined]

    _CParser: type | None = CParser
except ImportError:  # pragma: no cover - PyYAML built without libyaml: the checking loader reads everything
    _CParser = None

NOT_PLAIN = object()
"""What ``plain_data`` returns for a document it leaves to the checking loader."""

# the scalar kinds built here: each value is immutable, so one built value serves every equal scalar
_PLAIN_TAGS = frozenset(f"tag:yaml.org,2002:{kind}" for kind in ("str", "int", "float", "bool", "null"))
_RESOLVER = Resolver()
_CONSTRUCTOR = SafeConstructor()


class _NotPlain(Exception):
    """Raised inside ``plain_data`` to leave the document to the checking loader."""


def _scalar_builder() -> Any:
    """A function from a scalar event to its value, remembering each (value, implicitness) it has built."""
    built: dict[tuple[str, Any], Any] = {}
    resolve = _RESOLVER.resolve
    constructors = _CONSTRUCTOR.yaml_constructors

    def build(event: Any) -> Any:
        if event.anchor is not None or event.tag not in (None, "!"):
            raise _NotPlain
        key = (event.value, event.implicit)
        try:
            return built[key]
        except KeyError:
            pass
        tag = resolve(ScalarNode, event.value, event.implicit)
        if tag not in _PLAIN_TAGS:
            raise _NotPlain  # merge keys, timestamps, binary...: the checking loader's constructor builds them
        value = built[key] = constructors[tag](_CONSTRUCTOR, ScalarNode(tag, event.value))
        return value

    return build


def plain_data(text: str, max_depth: int, max_nodes: int) -> Any:
    """The data of ``text`` if it is one plain document within the limits, else ``NOT_PLAIN``.

    Example:
        >>> plain_data("a: [1, x]", 100, 1000)
        {'a': [1, 'x']}
        >>> plain_data("a: &x 1", 100, 1000) is NOT_PLAIN
        True

    """
    if _CParser is None:
        return NOT_PLAIN
    try:
        return _build(_CParser(text), max_depth, max_nodes)
    except (_NotPlain, yaml.YAMLError, ValueError, OverflowError):
        return NOT_PLAIN


def _build(parser: Any, max_depth: int, max_nodes: int) -> Any:
    """Build the one document of ``parser``'s events (raises ``_NotPlain`` for anything not plain)."""
    next_event = parser.get_event
    scalar = _scalar_builder()
    if type(next_event()) is not StreamStartEvent or type(next_event()) is not DocumentStartEvent:
        raise _NotPlain  # an empty stream
    # open collections, innermost last: a list, or a mapping with its pending key (``_NO_KEY`` before a key)
    stack: list[list[Any]] = []
    nodes = 0
    root: Any = NOT_PLAIN
    while True:
        event = next_event()
        kind = type(event)
        if kind is ScalarEvent:
            if len(stack) >= max_depth:
                raise _NotPlain
            value = scalar(event)
        elif kind is MappingStartEvent or kind is SequenceStartEvent:
            if event.anchor is not None or event.tag not in (None, "!") or len(stack) >= max_depth:
                raise _NotPlain
            stack.append([{} if kind is MappingStartEvent else [], _NO_KEY])
            nodes += 1
            continue
        elif kind is MappingEndEvent or kind is SequenceEndEvent:
            value = stack.pop()[0]
        else:
            raise _NotPlain  # an alias, or the document ended early
        nodes += kind is ScalarEvent
        if nodes > max_nodes:
            raise _NotPlain
        if not stack:
            root = value
            break
        top = stack[-1]
        into = top[0]
        if type(into) is list:
            into.append(value)
        elif top[1] is _NO_KEY:
            if type(value) is list or type(value) is dict or value in into:
                raise _NotPlain  # a collection as a key, or a key given twice
            top[1] = value
        else:
            into[top[1]] = value
            top[1] = _NO_KEY
    if type(next_event()) is not DocumentEndEvent or type(next_event()) is not StreamEndEvent:
        raise _NotPlain  # a second document: the checking loader says "expected a single document"
    return root


_NO_KEY = object()

"""The filter language over task attributes (MCU Section 2.3): ``category=mining and planning_complexity>=3``.

Fields: ``category``, ``verb``, ``kind`` (atom / molecule), ``init`` (atom / naive / custom), ``atoms`` (number of
atoms), ``id``, ``tag``, ``description`` (``~`` for contains), and each difficulty dimension, calibrated
(``planning_complexity``) or raw (``raw.planning_complexity``). Comparisons: ``= != < <= > >= ~``. Combine with
``and``, ``or``, ``not`` and parentheses, nested at most ``MAX_NESTING`` deep; a filter is at most
``MAX_FILTER_CHARS`` long. A malformed filter raises a TaskverseError pointing at the bad token.

Example:
    >>> f = parse_filter("category=mining and not tag=literature")
    >>> f.describe()
    '(category = mining and not tag = literature)'

"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from taskverse.errors import TaskverseError, at_column, close_matches
from taskverse.schema import DIFFICULTY_DIMENSIONS

TEXT_FIELDS = ("category", "verb", "kind", "init", "id", "tag", "description")
NUMBER_FIELDS = ("atoms", *DIFFICULTY_DIMENSIONS, *(f"raw.{d}" for d in DIFFICULTY_DIMENSIONS))
FIELDS = TEXT_FIELDS + NUMBER_FIELDS
FIXED_VALUES = {"category": ("mining", "navigation", "crafting", "exploitation", "combat", "building", "misc"),
                "kind": ("atom", "molecule"), "init": ("atom", "naive", "custom")}
MAX_NESTING = 32
"""Deepest nesting of parentheses and ``not`` in a filter."""
MAX_FILTER_CHARS = 10_000
"""Longest filter expression."""
NESTED = f"parentheses and 'not' nested more than {MAX_NESTING} deep"
OPERATORS: dict[str, Callable[[Any, Any], bool]] = {
    "=": operator.eq, "!=": operator.ne, "<=": operator.le, ">=": operator.ge, "<": operator.lt, ">": operator.gt,
    "~": lambda a, b: str(b).lower() in str(a).lower(),
}
TOKEN = re.compile(r"\s*(?:(?P<op><=|>=|!=|[=<>~()])|(?P<str>\"[^\"]*\"|'[^']*')|(?P<word>[^\s=<>!~()\"']+))")


@dataclass(frozen=True)
class Entry:
    """What a filter sees of one task: its attributes and (when known) its difficulty scores."""

    id: str
    description: str
    category: str
    verb: str
    kind: str
    init: str
    atoms: int
    tags: tuple[str, ...]
    calibrated: dict[str, float]
    raw: dict[str, float]

    def value(self, field: str) -> Any:
        """The value of a filter field."""
        if field in DIFFICULTY_DIMENSIONS:
            return self.calibrated.get(field)
        if field.startswith("raw."):
            return self.raw.get(field[4:])
        return getattr(self, field)


class Filter:
    """A parsed filter: call it on an Entry."""

    def __call__(self, entry: Entry) -> bool:  # pragma: no cover - abstract
        """Whether the entry passes."""
        raise NotImplementedError

    def describe(self) -> str:  # pragma: no cover - abstract
        """The filter in its normal written form."""
        raise NotImplementedError

    def comparisons(self) -> list[Compare]:
        """Every ``field OP value`` of the filter."""
        parts: list[Filter] = [self]
        found: list[Compare] = []
        while parts:  # a loop, not recursion: nesting depth costs no stack
            part = parts.pop()
            if isinstance(part, Compare):
                found.append(part)
            elif isinstance(part, Not):
                parts.append(part.part)
            elif isinstance(part, Both | Either):
                parts.extend(reversed(part.parts))
        return found


@dataclass(frozen=True)
class Compare(Filter):
    """``field OP value``."""

    field: str
    op: str
    value: Any

    def __call__(self, entry: Entry) -> bool:
        """Whether the entry's field compares true (a missing score never matches)."""
        if self.field == "tag":
            hit = any(OPERATORS[self.op if self.op != "!=" else "="](t, self.value) for t in entry.tags)
            return not hit if self.op == "!=" else hit
        actual = entry.value(self.field)
        if actual is None:
            return False
        return OPERATORS[self.op](actual, self.value)

    def describe(self) -> str:
        """``field op value``."""
        return f"{self.field} {self.op} {self.value}"


@dataclass(frozen=True)
class Not(Filter):
    """``not f``."""

    part: Filter

    def __call__(self, entry: Entry) -> bool:
        """Negation."""
        return not self.part(entry)

    def describe(self) -> str:
        """``not f``."""
        return f"not {self.part.describe()}"


@dataclass(frozen=True)
class Both(Filter):
    """``a and b and ...``."""

    parts: tuple[Filter, ...]

    def __call__(self, entry: Entry) -> bool:
        """Conjunction."""
        return all(p(entry) for p in self.parts)

    def describe(self) -> str:
        """``(a and b)``."""
        return "(" + " and ".join(p.describe() for p in self.parts) + ")"


@dataclass(frozen=True)
class Either(Filter):
    """``a or b or ...``."""

    parts: tuple[Filter, ...]

    def __call__(self, entry: Entry) -> bool:
        """Disjunction."""
        return any(p(entry) for p in self.parts)

    def describe(self) -> str:
        """``(a or b)``."""
        return "(" + " or ".join(p.describe() for p in self.parts) + ")"


@dataclass(frozen=True)
class Everything(Filter):
    """The empty filter: every task."""

    def __call__(self, entry: Entry) -> bool:
        """Always true."""
        return True

    def describe(self) -> str:
        """The empty string."""
        return ""


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens: list[tuple[str, str, int]] = []
        position = 0
        while position < len(text) and text[position:].strip():
            match = TOKEN.match(text, position)
            if match is None or match.end() == position:
                raise self.error(position, f"unexpected character {text[position]!r}")
            kind = match.lastgroup or ""
            value = match.group(kind)
            self.tokens.append((kind, value[1:-1] if kind == "str" else value, match.start(kind)))
            position = match.end()
        self.i = 0
        self.depth = 0

    def error(self, column: int, message: str) -> TaskverseError:
        return TaskverseError(at_column(self.text, column, message), field="FILTER")

    def peek(self) -> tuple[str, str, int] | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def fail(self, message: str) -> TaskverseError:
        token = self.peek()
        return self.error(token[2] if token else len(self.text), message)

    def keyword(self, word: str) -> bool:
        token = self.peek()
        if token is not None and token[0] == "word" and token[1].lower() == word:
            self.i += 1
            return True
        return False

    def parse(self) -> Filter:
        if not self.tokens:
            return Everything()
        result = self.parse_or()
        token = self.peek()
        if token is not None:
            word = {"&": "and", "&&": "and", "|": "or", "||": "or", "!": "not"}.get(token[1])
            hint = f"; write {word!r} instead" if word else "; expected and, or, or the end"
            raise self.fail(f"unexpected {token[1]!r}{hint}")
        return result

    def parse_or(self) -> Filter:
        parts = [self.parse_and()]
        while self.keyword("or"):
            parts.append(self.parse_and())
        return parts[0] if len(parts) == 1 else Either(tuple(parts))

    def parse_and(self) -> Filter:
        parts = [self.parse_not()]
        while self.keyword("and"):
            parts.append(self.parse_not())
        return parts[0] if len(parts) == 1 else Both(tuple(parts))

    def parse_not(self) -> Filter:
        negations = 0
        while self.keyword("not"):  # a loop: a long run of 'not' costs no stack
            negations += 1
            if self.depth + negations > MAX_NESTING:
                raise self.fail(NESTED)
        self.depth += negations
        part = self.parse_atom()
        self.depth -= negations
        for _ in range(negations):
            part = Not(part)
        return part

    def parse_atom(self) -> Filter:
        token = self.peek()
        if token is None:
            raise self.fail("expected a comparison such as category=mining")
        if token[:2] == ("op", "("):
            if self.depth >= MAX_NESTING:
                raise self.fail(NESTED)
            self.i += 1
            self.depth += 1
            inner = self.parse_or()
            self.depth -= 1
            token = self.peek()
            if token is None or token[:2] != ("op", ")"):
                raise self.fail("expected ')'")
            self.i += 1
            return inner
        if token[0] != "word":
            raise self.fail(f"expected a field name, found {token[1]!r}")
        field = token[1].lower()
        if field not in FIELDS:
            hint = close_matches(field, FIELDS, n=2)
            raise self.fail(f"unknown field {token[1]!r}" + (f" (did you mean {' or '.join(hint)}?)" if hint else
                                                               f"; fields: {', '.join(FIELDS[:9])}, ..."))
        self.i += 1
        op_token = self.peek()
        if op_token is None or op_token[0] != "op" or op_token[1] not in OPERATORS:
            raise self.fail(f"expected a comparison (= != < <= > >= ~) after {field}")
        self.i += 1
        value_token = self.peek()
        if value_token is None or value_token[0] not in ("word", "str"):
            raise self.fail(f"expected a value after {field} {op_token[1]}")
        self.i += 1
        value: Any = value_token[1]
        if field in NUMBER_FIELDS:
            if op_token[1] == "~":
                raise self.error(op_token[2], f"~ compares text; {field} is a number")
            try:
                value = float(value)
            except ValueError:
                raise self.error(value_token[2], f"{field} is a number, found {value!r}") from None
        elif op_token[1] in ("<", "<=", ">", ">="):
            raise self.error(op_token[2], f"{field} is text; use = != or ~")
        return Compare(field, op_token[1], value)


def parse_filter(text: str) -> Filter:
    """Parse a filter expression."""
    if len(text) > MAX_FILTER_CHARS:
        raise TaskverseError(f"the filter is {len(text):,} characters long; the limit is {MAX_FILTER_CHARS:,}",
                             field="FILTER")
    return _Parser(text).parse()


def check_values(check: Filter, known: dict[str, set[str]]) -> None:
    """Reject ``field=value`` comparisons whose value no task has, with close matches (``category=minig``).

    ``known`` maps a text field to the values tasks have; the fixed fields (category, kind, init) need no entry.
    Contains (``~``) comparisons are left alone: any text may be part of a value.
    """
    for compare in check.comparisons():
        if compare.op not in ("=", "!=") or compare.field in NUMBER_FIELDS or compare.field == "description":
            continue
        values = set(FIXED_VALUES.get(compare.field, ())) or known.get(compare.field, set())
        value = str(compare.value)
        if values and value not in values:
            lowered = {v.lower(): v for v in values}
            suggestions = close_matches(value, values)
            if not suggestions and value.lower() in lowered:
                suggestions = [lowered[value.lower()]]
            listed = f"; one of {', '.join(sorted(values))}" if len(values) <= 8 and not suggestions else ""
            raise TaskverseError(f"no task has {compare.field} {value!r}{listed}", field="FILTER",
                                 suggestions=suggestions)

"""The composition grammar of ``taskverse compose`` (see ``shared/CLI.md``).

Precedence from loosest to tightest, as in Python: ``|`` (either), ``&`` (all, any order), ``>>`` (then), ``N *``
(N times in a row), ``@`` (constraints and ``within=`` time bounds), then ``~`` (never), parentheses,
``naive(...)``, ``not(...)``, ``at_least(K, ...)``, ``amount(N, ...)``, ``init(..., field=value)`` and task
references. A reference is a quoted description or id, or bare words up to the next operator::

    naive(craft iron_sword) & (hunt sheep | "combat spider" @ when=night) >> build a pillar
    init(craft.bread, time=night, inventory.wheat=3) @ where=plains, how=bare_hand
    3 * mine oak_log @ within=600s
    craft iron_sword & ~commit.suicide
    at_least(2, hunt cow, hunt sheep, hunt pig) @ within=1day
    amount(8, obtain beef) @ where=swampland

A count is a whole number from 1 to ``MAX_TIMES``; a time bound a positive number with a unit (``t`` ticks,
``s``, ``min``, ``h``, ``day``/``days``; see ``expr.parse_duration``). A malformed expression raises a
TaskverseError that points at the offending token. Expressions nest at most ``MAX_DEPTH`` operators deep
(parentheses, ``naive``, ``not``, ``~``, ``at_least``, ``init``, ``N *`` and ``@`` each count a level) and are at
most ``MAX_EXPRESSION_CHARS`` long, so no expression a user types can exhaust the stack.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from taskverse.algebra.expr import (
    MAX_AMOUNT,
    MAX_DEPTH,
    MAX_TIMES,
    AllOf,
    Amount,
    AnyOf,
    AtLeast,
    AtomRef,
    Avoid,
    Constrained,
    Constraint,
    Initialized,
    InitOverrides,
    Repeat,
    Then,
    Within,
    check_shape,
    parse_duration,
)
from taskverse.errors import TaskverseError, at_column, close_matches

TOKEN = re.compile(r"""\s*(?:(?P<op>>>|[&|()@,=*~])|(?P<str>"[^"]*"|'[^']*')|(?P<word>[^\s&|()@,="'>*~]+|>(?!>)))""")
CONSTRAINT_KEYS = ("when", "where", "how", "within")
CALLS = ("naive", "init", "not", "at_least", "amount")
COMPOSITION_MARKS = ("&", "|", ">>", "@", "naive(", "init(", "not(", "at_least(", "amount(", "~", "*")
"""Text holding one of these is a composition, not an atom's id or description."""
INIT_COUNTED = {"inventory": "inventory", "summon": "summon", "nearby": "nearby_blocks"}
MAX_EXPRESSION_CHARS = 10_000
"""Longest composition expression."""
NESTED = (f"nested more than {MAX_DEPTH} levels deep (parentheses, naive, not, ~, at_least, init, N * and @ each "
          "count one)")


@dataclass
class Token:
    """A lexical token with its column in the source."""

    kind: str
    text: str
    column: int


def tokenize(source: str) -> list[Token]:
    """Split an expression into tokens; an unexpected character is an error naming its column."""
    tokens = []
    position = 0
    while position < len(source):
        match = TOKEN.match(source, position)
        if match is None or match.end() == position:
            if source[position:].strip() == "":
                break
            raise _error(source, position, f"unexpected character {source[position]!r}")
        kind = match.lastgroup or ""
        text = match.group(kind)
        if kind == "str":
            text = text[1:-1]
        tokens.append(Token(kind, text, match.start(kind) + 1))
        position = match.end()
    return tokens


def _error(source: str, column0: int, message: str, suggestions: list[str] | None = None) -> TaskverseError:
    return TaskverseError(at_column(source, column0, message), field="EXPR", suggestions=suggestions or [])


class Parser:
    """Recursive-descent parser producing algebra nodes (atom references keep the text as written)."""

    def __init__(self, source: str) -> None:
        if len(source) > MAX_EXPRESSION_CHARS:
            raise TaskverseError(f"the expression is {len(source):,} characters long; the limit is "
                                 f"{MAX_EXPRESSION_CHARS:,}", field="EXPR")
        self.source = source
        self.tokens = tokenize(source)
        self.position = 0
        self.depth = 0

    def peek(self, offset: int = 0) -> Token | None:
        """The token ``offset`` ahead, if any."""
        index = self.position + offset
        return self.tokens[index] if index < len(self.tokens) else None

    def fail(self, message: str, token: Token | None = None, suggestions: list[str] | None = None) -> TaskverseError:
        """An error at a token (or at the end of the expression), with close matches for a mistyped value."""
        token = token or self.peek()
        column = token.column - 1 if token else len(self.source)
        return _error(self.source, column, message, suggestions)

    def expect(self, op: str) -> Token:
        """Consume an operator token or fail."""
        token = self.peek()
        if token is None or token.kind != "op" or token.text != op:
            raise self.fail(f"expected {op!r}" + (f", found {token.text!r}" if token else " before the end"))
        self.position += 1
        return token

    def accept(self, op: str) -> bool:
        """Consume an operator token if it is next."""
        token = self.peek()
        if token is not None and token.kind == "op" and token.text == op:
            self.position += 1
            return True
        return False

    def parse(self) -> Any:
        """Parse the whole expression."""
        if not self.tokens:
            raise TaskverseError("empty expression", field="EXPR")
        node = self.parse_or()
        if self.peek() is not None:
            raise self.fail(f"unexpected {self.peek().text!r}")  # type: ignore[union-attr]
        return node

    def parse_or(self) -> Any:
        """``a | b | ...``."""
        parts = [self.parse_and()]
        while self.accept("|"):
            parts.append(self.parse_and())
        return parts[0] if len(parts) == 1 else AnyOf(parts=tuple(parts))

    def parse_and(self) -> Any:
        """``a & b & ...``."""
        parts = [self.parse_then()]
        while self.accept("&"):
            parts.append(self.parse_then())
        return parts[0] if len(parts) == 1 else AllOf(parts=tuple(parts))

    def parse_then(self) -> Any:
        """``a >> b >> ...``."""
        parts = [self.parse_repeat()]
        while self.accept(">>"):
            parts.append(self.parse_repeat())
        return parts[0] if len(parts) == 1 else Then(parts=tuple(parts))

    def parse_repeat(self) -> Any:
        """``3 * a``: the part three times in a row."""
        token, star = self.peek(), self.peek(1)
        if token is None or token.kind != "word" or star is None or star.kind != "op" or star.text != "*":
            return self.parse_constrained()
        if not token.text.isdigit() or not 1 <= int(token.text) <= MAX_TIMES:
            raise self.fail(f"a count must be a whole number from 1 to {MAX_TIMES}, found {token.text!r}", token)
        self.enter()
        self.position += 2
        node = self.parse_repeat()
        self.depth -= 1
        return Repeat(part=node, times=int(token.text))

    def parse_constrained(self) -> Any:
        """``a @ when=night, where=desert``."""
        node = self.parse_primary()
        levels = 0
        while (at := self.peek()) is not None and at.kind == "op" and at.text == "@":
            levels += 1
            if self.depth + levels > MAX_DEPTH:
                raise self.fail(NESTED)
            self.position += 1
            fields: dict[str, str] = {}
            bound: int | None = None
            start = self.peek()
            while True:
                key_token = self.peek()
                key, value = self.parse_assignment(CONSTRAINT_KEYS)
                if key == "within":  # a time bound is a node of its own, around the constrained part
                    try:
                        ticks = parse_duration(value)
                    except TaskverseError as exc:
                        raise self.fail(exc.message, key_token) from None
                    bound = ticks if bound is None else min(bound, ticks)
                    key = ""
                elif key in fields:  # when=first_day, when=clear: both hold, as nested constraints
                    node = self.constrain(node, fields, start)
                    fields = {}
                if key:
                    fields[key] = value
                following = self.peek(1)
                if following is None or following.kind != "word" or following.text not in CONSTRAINT_KEYS:
                    break  # a comma not followed by a constraint belongs to an enclosing init(...)
                if not self.accept(","):
                    break
            if fields:
                node = self.constrain(node, fields, start)
            if bound is not None:
                node = Within(part=node, ticks=bound)
        return node

    def constrain(self, node: Any, fields: dict[str, str], start: Token | None) -> Any:
        """``node`` under one constraint."""
        try:
            return Constrained(part=node, constraint=Constraint(**fields))  # type: ignore[arg-type]
        except ValidationError as exc:
            raise self.fail(*_pydantic_message(exc, start)) from None

    def parse_assignment(self, keys: tuple[str, ...] | None) -> tuple[str, str]:
        """``key=value``."""
        key_token = self.peek()
        if key_token is None or key_token.kind != "word":
            raise self.fail("expected " + (" / ".join(f"{k}=..." for k in keys) if keys else "field=value"))
        if keys is not None and key_token.text not in keys:
            raise self.fail(f"unknown constraint {key_token.text!r}; expected when=, where=, how= or within=",
                            key_token)
        self.position += 1
        self.expect("=")
        value = self.peek()
        if value is None or value.kind not in ("word", "str"):
            raise self.fail(f"expected a value for {key_token.text}")
        self.position += 1
        return key_token.text, value.text

    def parse_primary(self) -> Any:
        """Parentheses, ``~``, ``naive(...)``, ``not(...)``, ``at_least(...)``, ``init(...)`` or a task reference."""
        token = self.peek()
        if token is None:
            raise self.fail("expected a task before the end")
        if token.kind == "op" and token.text == "~":
            self.enter()
            self.position += 1
            node = self.parse_primary()
            self.depth -= 1
            return Avoid(part=node)
        if token.kind == "op" and token.text == "(":
            self.enter()
            self.position += 1
            node = self.parse_or()
            self.expect(")")
            self.depth -= 1
            return node
        following = self.peek(1)
        is_call = following is not None and following.kind == "op" and following.text == "("
        if token.kind == "word" and token.text in CALLS and is_call:
            self.enter()
            self.position += 2
            if token.text in ("at_least", "amount"):
                node = self.parse_at_least(token) if token.text == "at_least" else self.parse_amount(token)
                self.depth -= 1
                return node
            node = self.parse_or()
            self.depth -= 1
            if token.text == "naive":
                self.expect(")")
                return Initialized(part=node, mode="naive")
            if token.text == "not":
                self.expect(")")
                return Avoid(part=node)
            return self.parse_init_overrides(node, token)
        if token.kind == "str":
            self.position += 1
            return AtomRef(task=token.text)
        if token.kind != "word":
            raise self.fail(f"expected a task, found {token.text!r}")
        words = []
        while (t := self.peek()) is not None and t.kind == "word":
            words.append(t.text)
            self.position += 1
        return AtomRef(task=" ".join(words))

    def parse_at_least(self, call: Token) -> Any:
        """``at_least(K, a, b, ...)``: at least K of the parts."""
        count = self.peek()
        if count is None or count.kind != "word" or not count.text.isdigit() or int(count.text) < 1:
            raise self.fail("at_least needs a whole number of at least 1 first, as in at_least(2, a, b, c)", count)
        self.position += 1
        parts = []
        while self.accept(","):
            parts.append(self.parse_or())
        self.expect(")")
        if int(count.text) > len(parts):
            raise self.fail(f"at least {count.text} of {len(parts)} parts can never be done", count)
        return AtLeast(count=int(count.text), parts=tuple(parts))

    def parse_amount(self, call: Token) -> Any:
        """``amount(N, a)``: N of the atom's target in total, however many events it takes."""
        count = self.peek()
        if count is None or count.kind != "word" or not count.text.isdigit() or not 1 <= int(count.text) <= MAX_AMOUNT:
            raise self.fail(f"amount needs a whole number from 1 to {MAX_AMOUNT} first, as in amount(8, obtain.beef)",
                            count)
        self.position += 1
        self.expect(",")
        start = self.peek()
        part = self.parse_or()
        self.expect(")")
        try:
            return Amount(count=int(count.text), part=part)
        except ValidationError as exc:
            raise self.fail(*_pydantic_message(exc, start)) from None

    def enter(self) -> None:
        """One level deeper (parentheses, naive, init); too deep is an error, not a RecursionError."""
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise self.fail(NESTED)

    def parse_init_overrides(self, node: Any, call: Token) -> Any:
        """The ``field=value`` list of ``init(TASK, ...)``."""
        fields: dict[str, Any] = {}
        while self.accept(","):
            key, value = self.parse_assignment(None)
            head, _, item = key.partition(".")
            if head == "equipment" and item:  # equipment.head=iron_helmet: an item worn, not a count
                fields.setdefault("equipment", {})[item] = value
            elif head in INIT_COUNTED and item:
                try:
                    fields.setdefault(INIT_COUNTED[head], {})[item] = int(value)
                except ValueError:
                    raise self.fail(f"{key} needs a whole number, found {value!r}") from None
            else:
                fields[key] = value
        self.expect(")")
        try:
            return Initialized(part=node, mode="custom", overrides=InitOverrides(**fields))
        except ValidationError as exc:
            raise self.fail(*_pydantic_message(exc, call)) from None


def _pydantic_message(exc: ValidationError, token: Token | None) -> tuple[str, Token | None, list[str]]:
    """``Parser.fail``'s arguments: the first error's field and message, the token, close choices.

    The choices are those near a mistyped value (``when=nite``: ``night``).
    """
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err["loc"])
    message = str(err["msg"]).removeprefix("Value error, ")
    suggestions: list[str] = []
    if err["type"] in ("enum", "literal_error") and isinstance(err.get("input"), str):
        choices = re.findall(r"'([^']*)'", str(err.get("ctx", {}).get("expected", "")))
        suggestions = close_matches(err["input"], choices)
    return (f"{where}: {message}" if where else message), token, suggestions


def parse_expression(source: str) -> Any:
    """Parse a composition expression into an (unresolved) algebra expression."""
    expr = Parser(source).parse()
    try:
        check_shape(expr)
    except TaskverseError as exc:
        raise TaskverseError(exc.message, field="EXPR") from None
    return expr

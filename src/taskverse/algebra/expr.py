"""The task algebra: molecule tasks as a tagged union of small frozen nodes (MCU Section 2.2).

Nodes: an atom reference, ``AllOf`` (``A & B``, any order), ``AnyOf`` (``A | B``), ``Then`` (``A >> B``, in
order), ``Constrained`` (when / where / how the events must happen) and ``Initialized`` (naive or custom start),
and the operators beyond MCU: ``Repeat`` (``3 * A``, A three times in a row), ``AtLeast`` (at least k of the
parts), ``Avoid`` (``~A``, fail if A happens) and ``Within`` (``A.within("1day")``, done before a deadline or
failed). Every node can say what it is in words (``describe``); ``canonical`` flattens, sorts and de-duplicates
AND and OR so that equal tasks get equal content hashes. What each operator means, success, failure and
"not yet", is ``taskverse.algebra.machine`` (and docs/algebra.md).

Example:
    >>> from taskverse.algebra.expr import ref, naive
    >>> expr = (ref("plant.pumpkin_seeds") >> ref("use.carve_pumpkin")) & naive(ref("craft.stick"))
    >>> canonical(expr).describe({})
    '(plant.pumpkin_seeds and then use.carve_pumpkin) and craft.stick from scratch'

"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from enum import StrEnum
from functools import cached_property
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, model_validator

from taskverse.errors import TaskverseError
from taskverse.schema import Count, Dimension, EquipSlot, Initialization, Name, TimeOfDay, Weather


class _Node(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    def __and__(self, other: Expr) -> AllOf:
        return AllOf(parts=(self, other))  # type: ignore[arg-type]

    def __or__(self, other: Expr) -> AnyOf:
        return AnyOf(parts=(self, other))  # type: ignore[arg-type]

    def __rshift__(self, other: Expr) -> Then:
        return Then(parts=(self, other))  # type: ignore[arg-type]

    def __rmul__(self, times: int) -> Repeat:
        if not isinstance(times, int) or isinstance(times, bool):
            return NotImplemented
        return Repeat(part=self, times=times)  # type: ignore[arg-type]

    def __invert__(self) -> Avoid:
        return Avoid(part=self)  # type: ignore[arg-type]

    def within(self, bound: str | int) -> Within:
        """The task done within a time bound: ``"600s"``, ``"1day"``, ``"30min"``, ``"100t"`` or whole ticks."""
        ticks = bound if isinstance(bound, int) and not isinstance(bound, bool) else parse_duration(str(bound))
        return Within(part=self, ticks=ticks)  # type: ignore[arg-type]

    def at(self, **constraints: Any) -> Constrained:
        """The task under constraints: ``when=``, ``where=``, ``how=`` (see ``Constraint``)."""
        return Constrained(part=self, constraint=Constraint(**constraints))  # type: ignore[arg-type]

    @cached_property
    def key(self) -> str:
        """A stable text key of this node (children's keys in order), for sorting and hashing."""
        return self._key()

    def _key(self) -> str:
        raise NotImplementedError


class AtomRef(_Node):
    """A reference to an atom task of the library by id."""

    kind: Literal["atom"] = "atom"
    task: str

    def _key(self) -> str:
        return "a:" + self.task

    def describe(self, descriptions: Mapping[str, str]) -> str:
        """The atom's own description."""
        return descriptions.get(self.task, self.task)


class AllOf(_Node):
    """All parts, in any order (AND)."""

    kind: Literal["all"] = "all"
    parts: Annotated[tuple[Expr, ...], Field(min_length=1)]

    def _key(self) -> str:
        return "&(" + ",".join(p.key for p in self.parts) + ")"

    def describe(self, descriptions: Mapping[str, str]) -> str:
        """``A and B``."""
        return " and ".join(_wrap(p, descriptions, self) for p in self.parts)


class AnyOf(_Node):
    """Any one of the parts (OR)."""

    kind: Literal["any"] = "any"
    parts: Annotated[tuple[Expr, ...], Field(min_length=1)]

    def _key(self) -> str:
        return "|(" + ",".join(p.key for p in self.parts) + ")"

    def describe(self, descriptions: Mapping[str, str]) -> str:
        """``A or B``."""
        return " or ".join(_wrap(p, descriptions, self) for p in self.parts)


class Then(_Node):
    """The parts in order: each must be done after the previous one is done (beyond MCU)."""

    kind: Literal["then"] = "then"
    parts: Annotated[tuple[Expr, ...], Field(min_length=1)]

    def _key(self) -> str:
        return ">>(" + ",".join(p.key for p in self.parts) + ")"

    def describe(self, descriptions: Mapping[str, str]) -> str:
        """``A and then B``."""
        return " and then ".join(_wrap(p, descriptions, self) for p in self.parts)


class When(StrEnum):
    """When an event must happen."""

    DAY = "day"
    NIGHT = "night"
    FIRST_DAY = "first_day"
    CLEAR = "clear"
    RAIN = "rain"
    THUNDER = "thunder"


class Constraint(BaseModel):
    """When, where and how the events of a task must happen for it to count.

    ``where`` is a dimension, a biome, ``cave``, or a height range ``height:LOW..HIGH`` (either end may be left
    out). ``how`` is ``bare_hand``, ``with:ITEM`` (the item held) or ``arrows`` (killed with arrows).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    when: When | None = None
    where: str | None = None
    how: str | None = None

    @model_validator(mode="after")
    def _shape(self) -> Constraint:
        if self.when is None and self.where is None and self.how is None:
            raise ValueError("a constraint names at least one of when, where, how")
        if self.how is not None and self.how not in {"bare_hand", "arrows"} and not self.how.startswith("with:"):
            raise ValueError(f"how={self.how!r}: expected bare_hand, arrows or with:ITEM")
        if self.where is not None and self.where.startswith("height:"):
            height_range(self.where)
        return self

    def describe(self) -> str:
        """The constraint as a phrase: ``at night``, ``in desert``, ``with bare hands``."""
        words = []
        if self.when is not None:
            words.append({"first_day": "on the first day", "clear": "in clear weather", "rain": "in the rain",
                          "thunder": "in a thunderstorm"}.get(self.when.value, f"at {self.when.value}"))
        if self.where is not None:
            if self.where.startswith("height:"):
                low, high = height_range(self.where)
                words.append(f"at height {'' if low is None else f'{low:g}'}..{'' if high is None else f'{high:g}'}")
            else:
                words.append("in a cave" if self.where == "cave" else f"in {self.where}")
        if self.how is not None:
            how = {"bare_hand": "with bare hands", "arrows": "using arrows"}.get(self.how)
            words.append(how or f"with {self.how[5:]}")
        return " ".join(words)


def height_range(where: str) -> tuple[float | None, float | None]:
    """Parse ``height:LOW..HIGH`` (either end optional)."""
    body = where[len("height:"):]
    if ".." not in body:
        raise ValueError(f"where={where!r}: expected height:LOW..HIGH")
    low_text, high_text = body.split("..", 1)
    try:
        low = float(low_text) if low_text else None
        high = float(high_text) if high_text else None
    except ValueError:
        raise ValueError(f"where={where!r}: heights must be numbers") from None
    if low is not None and high is not None and low > high:
        raise ValueError(f"where={where!r}: the range is empty")
    return low, high


class Constrained(_Node):
    """A task whose events only count when they happen under a constraint."""

    kind: Literal["constrained"] = "constrained"
    part: Expr
    constraint: Constraint

    def _key(self) -> str:
        c = self.constraint
        return f"@({self.part.key}|{c.when.value if c.when else ''}|{c.where or ''}|{c.how or ''})"

    def describe(self, descriptions: Mapping[str, str]) -> str:
        """``A at night``."""
        return f"{_wrap(self.part, descriptions, self)} {self.constraint.describe()}"


class InitOverrides(BaseModel):
    """Fields of an initialization to set explicitly (custom initialization); unset fields are left alone."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    inventory: dict[str, Count] | None = None
    main_hand: str | None = None
    equipment: dict[EquipSlot, Name] | None = None
    dimension: Dimension | None = None
    biome: str | None = None
    structure: str | None = None
    nearby_blocks: dict[str, Count] | None = None
    summon: dict[str, Count] | None = None
    time: TimeOfDay | None = None
    weather: Weather | None = None


class Initialized(_Node):
    """A task started from a different state: ``naive`` (empty inventory, random spawn) or ``custom``."""

    kind: Literal["initialized"] = "initialized"
    part: Expr
    mode: Literal["naive", "custom"] = "naive"
    overrides: InitOverrides | None = None

    def _key(self) -> str:
        if self.mode == "naive":
            return f"n({self.part.key})"
        fields = self.overrides.model_dump(mode="json", exclude_none=True) if self.overrides else {}
        return f"c({self.part.key}|{json.dumps(fields, sort_keys=True, separators=(',', ':'))})"

    def describe(self, descriptions: Mapping[str, str]) -> str:
        """``A from scratch`` or ``A starting with ...``."""
        inner = _wrap(self.part, descriptions, self)
        if self.mode == "naive":
            return f"{inner} from scratch"
        fields = self.overrides.model_dump(exclude_none=True, mode="json") if self.overrides else {}
        words = []  # as init(...) writes them: inventory.coal=1, equipment.head=iron_helmet
        for key, value in sorted(fields.items()):
            if isinstance(value, dict):
                prefix = {"nearby_blocks": "nearby"}.get(key, key)
                words += [f"{prefix}.{k}={v}" for k, v in value.items()]
            else:
                words.append(f"{key}={value}")
        return f"{inner} starting with " + ", ".join(words)


MAX_TIMES = 1000
"""Most repetitions of ``N * A`` (a plan repeats its part that often, so the bound keeps plans finite)."""
TICKS_PER_SECOND = 20
"""Game ticks per second of game time (Minecraft's and the engine's rate)."""
DURATION_UNITS = {"t": 1, "tick": 1, "ticks": 1, "s": 20, "sec": 20, "min": 1200, "h": 72000,
                  "day": 24000, "days": 24000}
"""Units of a ``within=`` bound in ticks: one game day is 24000 ticks, 1200 s of game time (20 minutes)."""
MAX_TICKS = 24000 * 1000
"""Longest ``within=`` bound (a thousand game days)."""
_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([a-z]+)\s*$")


def parse_duration(text: str) -> int:
    """A time bound in game ticks: ``600s``, ``1day``, ``2days``, ``30min``, ``1h``, ``100t`` (ticks).

    Raises a TaskverseError naming the value for anything that is not a positive number with a unit.

    Example:
        >>> parse_duration("1day"), parse_duration("600s"), parse_duration("5t")
        (24000, 12000, 5)

    """
    match = _DURATION.match(text.lower())
    if match is None or match.group(2) not in DURATION_UNITS:
        raise TaskverseError(f"within={text!r}: expected a positive number with a unit "
                             f"({', '.join(sorted(set(DURATION_UNITS)))}), e.g. 600s or 1day", field="within")
    ticks = float(match.group(1)) * DURATION_UNITS[match.group(2)]
    if ticks < 1 or ticks != int(ticks):
        raise TaskverseError(f"within={text!r}: the bound must be a positive whole number of ticks "
                             f"(1t = 1/20 s)", field="within")
    if ticks > MAX_TICKS:
        raise TaskverseError(f"within={text!r}: the longest bound is 1000 days", field="within")
    return int(ticks)


def format_duration(ticks: int) -> str:
    """A tick count in the largest unit that divides it exactly (``24000`` -> ``1day``)."""
    for unit, size in (("day", 24000), ("h", 72000), ("min", 1200), ("s", 20)):
        if ticks % size == 0:
            return f"{ticks // size}{unit}"
    return f"{ticks}t"


class Repeat(_Node):
    """The part ``times`` times in a row (``3 * A``): each repetition starts after the previous one is done."""

    kind: Literal["repeat"] = "repeat"
    times: Annotated[int, Field(ge=1, le=MAX_TIMES)]
    part: Expr

    def _key(self) -> str:
        return f"*{self.times}({self.part.key})"

    def describe(self, descriptions: Mapping[str, str]) -> str:
        """``A 3 times``."""
        return f"{_wrap(self.part, descriptions, self)} {self.times} times"


MAX_AMOUNT = 2304
"""Largest amount of ``amount(N, A)``: a full inventory of stacks of 64 (a plan needs far fewer steps than N)."""


class Amount(_Node):
    """N of an atom's target in total (``amount(8, obtain.beef)``): its events add up their counts.

    ``N * A`` is A done N times (N events); ``amount(N, A)`` is A's count N times over, however many events it
    takes: one kill that drops 3 beef counts 3 towards ``amount(8, obtain.beef)``. The part is an atom, possibly
    under constraints.
    """

    kind: Literal["amount"] = "amount"
    count: Annotated[int, Field(ge=1, le=MAX_AMOUNT)]
    part: Expr

    @model_validator(mode="after")
    def _counts_an_atom(self) -> Amount:
        if counted_atom(self.part) is None:
            raise ValueError("amount(N, A) counts one atom's target, possibly under constraints: "
                             "A cannot hold &, |, >>, *, ~, at_least, within or a start")
        return self

    @property
    def atom(self) -> AtomRef:
        """The atom the amount counts (``counted_atom``; the validator makes sure there is one)."""
        found = counted_atom(self.part)
        assert found is not None
        return found

    def _key(self) -> str:
        return f"#{self.count}({self.part.key})"

    def describe(self, descriptions: Mapping[str, str]) -> str:
        """``obtain 8 beef``: the count after the atom's verb, as papers write it."""
        text = _wrap(self.part, descriptions, self)
        verb, _, rest = text.partition(" ")
        return f"{verb} {self.count} {rest}" if rest else f"{self.count} of {text}"


def counted_atom(node: Any) -> AtomRef | None:
    """The atom an amount counts: the node itself or the atom under its constraints (None for anything else)."""
    while isinstance(node, Constrained | Amount):
        node = node.part
    return node if isinstance(node, AtomRef) else None


class AtLeast(_Node):
    """At least ``count`` of the parts, in any order (1 of n is OR, n of n is AND)."""

    kind: Literal["at_least"] = "at_least"
    count: Annotated[int, Field(ge=1)]
    parts: Annotated[tuple[Expr, ...], Field(min_length=1)]

    @model_validator(mode="after")
    def _count_fits(self) -> AtLeast:
        if self.count > len(self.parts):
            raise ValueError(f"at least {self.count} of {len(self.parts)} parts can never be done")
        return self

    def _key(self) -> str:
        return f"{self.count}of(" + ",".join(p.key for p in self.parts) + ")"

    def describe(self, descriptions: Mapping[str, str]) -> str:
        """``at least 2 of: A, B, C``."""
        return f"at least {self.count} of: " + ", ".join(_wrap(p, descriptions, self) for p in self.parts)


class Avoid(_Node):
    """NOT: the task fails as soon as the part is done; until then it holds (see ``machine``)."""

    kind: Literal["not"] = "not"
    part: Expr

    def _key(self) -> str:
        return f"~({self.part.key})"

    def describe(self, descriptions: Mapping[str, str]) -> str:
        """``never A``."""
        return f"never {_wrap(self.part, descriptions, self)}"


class Within(_Node):
    """The part decided within ``ticks`` game ticks of its start.

    At the deadline an undecided part fails, or succeeds if all it still asks is to avoid something.
    """

    kind: Literal["within"] = "within"
    ticks: Annotated[int, Field(ge=1, le=MAX_TICKS)]
    part: Expr

    def _key(self) -> str:
        return f"w{self.ticks}({self.part.key})"

    def describe(self, descriptions: Mapping[str, str]) -> str:
        """``A within 1day``."""
        return f"{_wrap(self.part, descriptions, self)} within {format_duration(self.ticks)}"


Expr = Annotated[Union[AtomRef, AllOf, AnyOf, Then, Constrained, Initialized, Repeat, Amount, AtLeast, Avoid,  # noqa: UP007
                       Within],
                 Field(discriminator="kind")]
for _model in (AllOf, AnyOf, Then, Constrained, Initialized, Repeat, Amount, AtLeast, Avoid, Within):
    _model.model_rebuild()

GROUPS = (AllOf, AnyOf, Then, AtLeast)
"""Nodes with ``parts``; every other node but an atom has one ``part``."""


def _wrap(part: Any, descriptions: Mapping[str, str], parent: Any) -> str:
    text = part.describe(descriptions)
    compound = isinstance(part, AllOf | AnyOf | Then | AtLeast) and len(part.parts) > 1
    # "A within 1min 3 times" could bound one repetition or all three: say which
    trailing = isinstance(part, Repeat | Within | Amount) and isinstance(parent, Repeat | Within | Amount)
    return f"({text})" if (compound and type(part) is not type(parent)) or trailing else text


def ref(task: Any) -> AtomRef:
    """An atom reference from an atom task or its id."""
    return AtomRef(task=task if isinstance(task, str) else task.id)


def naive(part: Any) -> Initialized:
    """MCU's naive initialization: empty inventory, random spawn; the agent must solve the pre-tasks."""
    return Initialized(part=_as_expr(part), mode="naive")


def custom(part: Any, **fields: Any) -> Initialized:
    """A custom initialization overriding the given fields (``time="night"``, ``inventory={...}``)."""
    try:
        overrides = InitOverrides(**fields)
    except Exception as exc:  # pydantic's message names the field
        raise TaskverseError(f"custom initialization: {exc}") from None
    return Initialized(part=_as_expr(part), mode="custom", overrides=overrides)


def at_least(count: int, *parts: Any) -> AtLeast:
    """At least ``count`` of the parts (atom tasks, ids or expressions)."""
    return AtLeast(count=count, parts=tuple(_as_expr(p) for p in parts))


def amount(count: int, part: Any) -> Amount:
    """``count`` of an atom's target in total (an atom task, id or constrained atom), however many events it takes."""
    return Amount(count=count, part=_as_expr(part))


def _as_expr(task: Any) -> Any:
    return task if isinstance(task, _Node) else ref(task)


def canonical(expr: Any) -> Any:
    """The canonical form: AND/OR flattened, sorted, de-duplicated; THEN flattened; single parts unwrapped.

    Idempotent, and equal for expressions equal under the algebra's laws (A & A = A, associativity,
    commutativity of AND and OR, associativity of THEN, naive(naive(A)) = naive(A), 1 * A = A,
    m * (n * A) = (m * n) * A, amount(1, A) = A, amount(m, amount(n, A)) = amount(m * n, A), amount(n, A) @ c =
    amount(n, A @ c), at least 1 of = OR, at least n of n = AND, ~~A = A, and nested time bounds keep the shorter
    one).
    """
    if isinstance(expr, AtomRef):
        return expr
    if isinstance(expr, AllOf | AnyOf):
        flat: dict[str, Any] = {}
        for part in expr.parts:
            part = canonical(part)
            for leaf in part.parts if type(part) is type(expr) else (part,):
                flat.setdefault(leaf.key, leaf)
        parts = tuple(flat[k] for k in sorted(flat))
        return parts[0] if len(parts) == 1 else type(expr)(parts=parts)
    if isinstance(expr, Then):
        seq: list[Any] = []
        for part in expr.parts:
            part = canonical(part)
            seq.extend(part.parts if isinstance(part, Then) else (part,))
        return seq[0] if len(seq) == 1 else Then(parts=tuple(seq))
    if isinstance(expr, Constrained):
        part = canonical(expr.part)
        if isinstance(part, Amount):  # amount(N, A) @ c = amount(N, A @ c): the constraint filters A's events
            return canonical(Amount(part=Constrained(part=part.part, constraint=expr.constraint), count=part.count))
        if isinstance(part, Constrained):  # merge nested constraints where they do not clash
            merged = merge_constraints(part.constraint, expr.constraint)
            if merged is not None:
                return Constrained(part=part.part, constraint=merged)
        return Constrained(part=part, constraint=expr.constraint)
    if isinstance(expr, Initialized):
        part = canonical(expr.part)
        if expr.mode == "naive" and isinstance(part, Initialized) and part.mode == "naive":
            return part
        return Initialized(part=part, mode=expr.mode, overrides=expr.overrides)
    if isinstance(expr, Repeat):
        part = canonical(expr.part)
        if isinstance(part, Repeat) and part.times * expr.times <= MAX_TIMES:
            return Repeat(part=part.part, times=part.times * expr.times)
        return part if expr.times == 1 else Repeat(part=part, times=expr.times)
    if isinstance(expr, Amount):
        part = canonical(expr.part)
        if isinstance(part, Amount) and part.count * expr.count <= MAX_AMOUNT:
            return Amount(part=part.part, count=part.count * expr.count)
        return part if expr.count == 1 else Amount(part=part, count=expr.count)
    if isinstance(expr, AtLeast):
        parts = tuple(sorted((canonical(p) for p in expr.parts), key=lambda p: p.key))
        if expr.count == 1:
            return canonical(AnyOf(parts=parts))
        if expr.count == len(parts):
            return canonical(AllOf(parts=parts))
        return AtLeast(count=expr.count, parts=parts)
    if isinstance(expr, Avoid):
        part = canonical(expr.part)
        return part.part if isinstance(part, Avoid) else Avoid(part=part)
    if isinstance(expr, Within):
        part = canonical(expr.part)
        if isinstance(part, Within):  # both windows open together: the shorter one decides
            return Within(part=part.part, ticks=min(part.ticks, expr.ticks))
        return Within(part=part, ticks=expr.ticks)
    raise TypeError(f"not a task expression: {expr!r}")


def merge_constraints(inner: Constraint, outer: Constraint) -> Constraint | None:
    """One constraint equal to both, or None when they name different values for the same field."""
    fields: dict[str, Any] = {}
    for name in ("when", "where", "how"):
        a, b = getattr(inner, name), getattr(outer, name)
        if a is not None and b is not None and a != b:
            return None
        fields[name] = a if a is not None else b
    return Constraint(**fields)


def content_hash(expr: Any) -> str:
    """A stable hash of the canonical form: equal tasks get equal ids."""
    return hashlib.sha256(canonical(expr).key.encode()).hexdigest()[:16]


def atoms_of(expr: Any) -> list[str]:
    """The atom ids an expression uses, in first-use order, each once."""
    out: dict[str, None] = {}

    def walk(node: Any) -> None:
        if isinstance(node, AtomRef):
            out.setdefault(node.task)
        elif isinstance(node, GROUPS):
            for part in node.parts:
                walk(part)
        else:
            walk(node.part)

    walk(expr)
    return list(out)


MAX_DEPTH = 32
"""Deepest nesting of a task expression (every operator, ``naive``, ``init``, constraint, count, ``not``,
``at_least`` and time bound is a level)."""
MAX_NODES = 1000
"""Most nodes (atom references and operators) in one task expression."""
MAX_EXPANDED = 10_000
"""Most atoms an expression stands for with every count unrolled (``1000 * (1000 * A)`` is a million A's: a
plan for it would not fit in memory, though the expression is three nodes)."""


def check_shape(expr: Any) -> None:
    """Raise a TaskverseError if an expression is too deep, too large, or stands for too many atoms.

    The limits: ``MAX_DEPTH`` levels, ``MAX_NODES`` nodes, ``MAX_EXPANDED`` atoms once its counts (``N * A``,
    ``amount(N, A)``) are unrolled. Walks with a stack, not recursion, so it is safe on any input; everything
    recursive runs after it.
    """
    stack: list[tuple[Any, int, int]] = [(expr, 1, 1)]
    nodes = expanded = 0
    while stack:
        node, depth, times = stack.pop()
        nodes += 1
        if depth > MAX_DEPTH:
            raise TaskverseError(f"the expression nests more than {MAX_DEPTH} levels deep", field="expression")
        if nodes > MAX_NODES:
            raise TaskverseError(f"the expression has more than {MAX_NODES} parts", field="expression")
        if isinstance(node, GROUPS):
            stack.extend((part, depth + 1, times) for part in node.parts)
        elif isinstance(node, AtomRef):
            expanded += times
            if expanded > MAX_EXPANDED:
                raise TaskverseError(f"the expression stands for more than {MAX_EXPANDED:,} atoms with its counts "
                                     f"unrolled (counts multiply: 1000 * (1000 * A) is 1,000,000 A's)",
                                     field="expression")
        else:
            count = node.times if isinstance(node, Repeat) else node.count if isinstance(node, Amount) else 1
            stack.append((node.part, depth + 1, times * count))


def size(expr: Any) -> int:
    """Number of nodes in the expression tree."""
    if isinstance(expr, AtomRef):
        return 1
    if isinstance(expr, GROUPS):
        return 1 + sum(size(p) for p in expr.parts)
    return 1 + size(expr.part)


__all__ = [
    "AllOf", "Amount", "AnyOf", "AtLeast", "AtomRef", "Avoid", "Constrained", "Constraint", "DURATION_UNITS", "Expr",
    "GROUPS", "InitOverrides", "Initialization", "Initialized", "MAX_AMOUNT", "MAX_DEPTH", "MAX_EXPANDED",
    "MAX_NODES", "MAX_TICKS", "MAX_TIMES", "Repeat", "TICKS_PER_SECOND", "Then", "When", "Within", "amount",
    "at_least", "atoms_of", "canonical", "check_shape", "content_hash", "counted_atom", "custom", "format_duration",
    "height_range", "merge_constraints", "naive", "parse_duration", "ref", "size",
]

"""The task algebra: molecule tasks as a tagged union of small frozen nodes (MCU Section 2.2).

Nodes: an atom reference, ``AllOf`` (``A & B``, any order), ``AnyOf`` (``A | B``), ``Then`` (``A >> B``, in
order), ``Constrained`` (when / where / how the events must happen) and ``Initialized`` (naive or custom start).
Every node can say what it is in words (``describe``); ``canonical`` flattens, sorts and de-duplicates AND and OR
so that equal tasks get equal content hashes.

Example:
    >>> from taskverse.algebra.expr import ref, naive
    >>> expr = (ref("plant.pumpkin_seeds") >> ref("use.carve_pumpkin")) & naive(ref("craft.stick"))
    >>> canonical(expr).describe({})
    '(plant.pumpkin_seeds and then use.carve_pumpkin) and craft.stick from scratch'

"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from enum import StrEnum
from functools import cached_property
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, model_validator

from taskverse.errors import TaskverseError
from taskverse.schema import Count, Dimension, Initialization, TimeOfDay, Weather


class _Node(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    def __and__(self, other: Expr) -> AllOf:
        return AllOf(parts=(self, other))  # type: ignore[arg-type]

    def __or__(self, other: Expr) -> AnyOf:
        return AnyOf(parts=(self, other))  # type: ignore[arg-type]

    def __rshift__(self, other: Expr) -> Then:
        return Then(parts=(self, other))  # type: ignore[arg-type]

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
        return f"{inner} starting with " + ", ".join(f"{k}={v}" for k, v in sorted(fields.items()))


Expr = Annotated[Union[AtomRef, AllOf, AnyOf, Then, Constrained, Initialized], Field(discriminator="kind")]  # noqa: UP007
for _model in (AllOf, AnyOf, Then, Constrained, Initialized):
    _model.model_rebuild()


def _wrap(part: Any, descriptions: Mapping[str, str], parent: Any) -> str:
    text = part.describe(descriptions)
    compound = isinstance(part, AllOf | AnyOf | Then) and len(part.parts) > 1
    return f"({text})" if compound and type(part) is not type(parent) else text


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


def _as_expr(task: Any) -> Any:
    return task if isinstance(task, _Node) else ref(task)


def canonical(expr: Any) -> Any:
    """The canonical form: AND/OR flattened, sorted, de-duplicated; THEN flattened; single parts unwrapped.

    Idempotent, and equal for expressions equal under the algebra's laws (A & A = A, associativity,
    commutativity of AND and OR, associativity of THEN, naive(naive(A)) = naive(A)).
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
        elif isinstance(node, AllOf | AnyOf | Then):
            for part in node.parts:
                walk(part)
        else:
            walk(node.part)

    walk(expr)
    return list(out)


MAX_DEPTH = 32
"""Deepest nesting of a task expression (every operator, ``naive``, ``init`` and constraint is a level)."""
MAX_NODES = 1000
"""Most nodes (atom references and operators) in one task expression."""


def check_shape(expr: Any) -> None:
    """Raise a TaskverseError if an expression nests deeper than ``MAX_DEPTH`` or has more than ``MAX_NODES``.

    Walks with a stack, not recursion, so it is safe on any input; everything recursive runs after it.
    """
    stack: list[tuple[Any, int]] = [(expr, 1)]
    nodes = 0
    while stack:
        node, depth = stack.pop()
        nodes += 1
        if depth > MAX_DEPTH:
            raise TaskverseError(f"the expression nests more than {MAX_DEPTH} levels deep", field="expression")
        if nodes > MAX_NODES:
            raise TaskverseError(f"the expression has more than {MAX_NODES} parts", field="expression")
        if isinstance(node, AllOf | AnyOf | Then):
            stack.extend((part, depth + 1) for part in node.parts)
        elif isinstance(node, Constrained | Initialized):
            stack.append((node.part, depth + 1))


def size(expr: Any) -> int:
    """Number of nodes in the expression tree."""
    if isinstance(expr, AtomRef):
        return 1
    if isinstance(expr, AllOf | AnyOf | Then):
        return 1 + sum(size(p) for p in expr.parts)
    return 1 + size(expr.part)


__all__ = [
    "AllOf", "AnyOf", "AtomRef", "Constrained", "Constraint", "Expr", "InitOverrides", "Initialization",
    "Initialized", "MAX_DEPTH", "MAX_NODES", "Then", "When", "atoms_of", "canonical", "check_shape", "content_hash",
    "custom", "height_range",
    "merge_constraints", "naive", "ref", "size",
]

"""A phrase's reading: a small tree mirroring the algebra, plus counts, and the seam to the algebra.

A count is an amount when the phrase counts things (``obtain 8 beef``: eight beef in total, however many
pickups) and a repetition when it counts doings (``... 3 times``). ``render`` turns any reading into a
composition expression in the documented grammar (``amount(8, A)`` and ``N * A``); ``to_expr`` turns it into
algebra nodes (``Amount`` and ``Repeat``); ``without_counts`` drops the counts (what coverage checks for
feasibility first).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Literal

from taskverse.algebra.expr import (
    MAX_AMOUNT,
    MAX_TIMES,
    AllOf,
    Amount,
    AnyOf,
    AtomRef,
    Constrained,
    Constraint,
    Initialized,
    InitOverrides,
    Repeat,
    Then,
)
from taskverse.errors import TaskverseError
from taskverse.schema import Initialization

# --- the reading: a small tree that mirrors the algebra, plus counts ---------------------------------------------

@dataclass(frozen=True)
class Step:
    """One atom of the library."""

    task: str


@dataclass(frozen=True)
class Limited:
    """A part whose events count only under ``when`` / ``where`` / ``how`` (the ``@`` operator)."""

    part: Node
    constraint: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Counted:
    """A part counted: ``count`` of its things in total (``amount``), or done ``count`` times (``times``).

    An amount of a part that is not one atom (an armour suite) is read as that many times.
    """

    part: Node
    count: int
    kind: Literal["amount", "times"] = "times"

    @property
    def is_amount(self) -> bool:
        """Whether it reads as ``amount(N, A)``: a count of things, of one atom under constraints."""
        if self.kind != "amount":
            return False
        part: Node = self.part
        while isinstance(part, Limited):
            part = part.part
        return isinstance(part, Step)


@dataclass(frozen=True)
class Started:
    """A part started from scratch (``naive``) or from a given state (``init`` with ``overrides``)."""

    part: Node
    mode: Literal["naive", "custom"]
    overrides: tuple[tuple[str, Any], ...] = ()
    kit: bool = False
    """The items are the whole kit ("starting from ITEMS"): they replace the task's own, not add to them."""


@dataclass(frozen=True)
class Joined:
    """Parts joined by ``then`` (``>>``), ``all`` (``&``) or ``any`` (``|``)."""

    op: Literal["then", "all", "any"]
    parts: tuple[Node, ...]


Node = Step | Limited | Counted | Started | Joined


@dataclass(frozen=True)
class PhraseReading:
    """What the reader made of a phrase: the reading tree and the words it used, in order."""

    phrase: str
    root: Node
    used: tuple[str, ...]

    @property
    def counts(self) -> list[int]:
        """The counts the phrase asks for (empty when it has none)."""
        return _counts(self.root)

    @property
    def count(self) -> int | None:
        """The count of a phrase with one count (``obtain 6 wheat``: 6), else None."""
        counts = self.counts
        return counts[0] if len(counts) == 1 else None

    @property
    def expression(self) -> str:
        """The reading in the composition grammar (see ``render``)."""
        return render(self.root)


@dataclass
class PhraseError(TaskverseError):
    """A phrase the reader cannot turn into a composition: ``status`` says whether the game allows it at all."""

    status: Literal["impossible", "not expressible"] = "not expressible"
    unread: list[str] = field(default_factory=list)
    free_form: str | None = None
    """Set when the phrase asks what the world model has no task for (decorating, a free-form build): why."""


class NeedsCount(TaskverseError):
    """A reading's count is beyond what its operator (``amount(N, A)`` or ``N * A``) runs."""


# --- rendering and conversion: the seam for counts ----------------------------------------------------------------

def render(node: Node) -> str:
    """A reading as a composition expression: ``6 * (obtain.wheat @ where=plains)``, ``naive(craft.x)``.

    Counts of things render as ``amount(N, A)``, counts of doings as ``N * (A)``; everything else in the
    grammar ``parse_expression`` reads.
    """
    if isinstance(node, Step):
        return node.task
    if isinstance(node, Limited):
        inner = render(node.part)
        if not isinstance(node.part, Step | Started):
            inner = f"({inner})"
        return f"{inner} @ " + ", ".join(f"{k}={v}" for k, v in node.constraint)
    if isinstance(node, Counted):
        inner = render(node.part)
        if node.is_amount:
            return f"amount({node.count}, {inner})"
        return f"{node.count} * " + (inner if isinstance(node.part, Step) else f"({inner})")
    if isinstance(node, Started):
        if node.mode == "naive":
            return f"naive({render(node.part)})"
        return f"init({render(node.part)}, " + ", ".join(_init_fields(node.overrides)) + ")"
    joiner = {"then": " >> ", "all": " & ", "any": " | "}[node.op]
    return joiner.join(f"({render(p)})" if isinstance(p, Joined) else render(p) for p in node.parts)


def _init_fields(overrides: tuple[tuple[str, Any], ...]) -> list[str]:
    out = []
    for key, value in overrides:
        if isinstance(value, dict):
            prefix = {"nearby_blocks": "nearby"}.get(key, key)
            out += [f"{prefix}.{k}={v}" for k, v in value.items()]
        else:
            out.append(f"{key}={value}")
    return out


def to_expr(node: Node) -> Any:
    """A reading as algebra nodes (atom ids resolved; a count is the count operator ``N * A``)."""
    if isinstance(node, Step):
        return AtomRef(task=node.task)
    if isinstance(node, Limited):
        return Constrained(part=to_expr(node.part), constraint=Constraint(**dict(node.constraint)))  # type: ignore[arg-type]
    if isinstance(node, Counted):
        if node.is_amount:
            if node.count > MAX_AMOUNT:
                raise NeedsCount(f"{render(node)}: an amount runs up to {MAX_AMOUNT}")
            return Amount(count=node.count, part=to_expr(node.part))
        if node.count > MAX_TIMES:
            raise NeedsCount(f"{render(node)}: a count runs up to {MAX_TIMES}")
        return Repeat(times=node.count, part=to_expr(node.part))
    if isinstance(node, Started):
        if node.mode == "naive":
            return Initialized(part=to_expr(node.part), mode="naive")
        return Initialized(part=to_expr(node.part), mode="custom", overrides=InitOverrides(**dict(node.overrides)))
    kind = {"then": Then, "all": AllOf, "any": AnyOf}[node.op]
    return kind(parts=tuple(to_expr(p) for p in node.parts))


def without_counts(node: Node) -> Node:
    """The reading with every count dropped (what must be feasible for the counted task to be)."""
    if isinstance(node, Counted):
        return without_counts(node.part)
    if isinstance(node, Limited | Started):
        return dataclasses.replace(node, part=without_counts(node.part))
    if isinstance(node, Joined):
        return Joined(node.op, tuple(without_counts(p) for p in node.parts))
    return node


def _counts(node: Node) -> list[int]:
    if isinstance(node, Counted):
        return [node.count, *_counts(node.part)]
    if isinstance(node, Limited | Started):
        return _counts(node.part)
    if isinstance(node, Joined):
        return [c for p in node.parts for c in _counts(p)]
    return []


# --- putting modifiers on a reading ---------------------------------------------------------------------------------

def parts_of(node: Node, op: str) -> tuple[Node, ...]:
    """The parts of a join of kind ``op`` (to flatten ``A and B and C``), else the node itself."""
    return node.parts if isinstance(node, Joined) and node.op == op else (node,)


def apply_constraint(node: Node, fields: dict[str, str]) -> Node | None:
    """``node`` under a constraint; inside starts and counts, merged with a constraint already there."""
    if isinstance(node, Started | Counted):
        inner = apply_constraint(node.part, fields)
        return None if inner is None else dataclasses.replace(node, part=inner)
    if isinstance(node, Limited):
        merged = dict(node.constraint)
        for key, value in fields.items():
            if merged.get(key, value) != value:
                return None  # "at night during the day": not one reading
            merged[key] = value
        return Limited(node.part, tuple(sorted(merged.items())))
    return Limited(node, tuple(sorted(fields.items())))


def apply_count(node: Node, count: int) -> Node | None:
    """``node`` done ``count`` times; inside a start; None for a count of a count (not read)."""
    if isinstance(node, Started):
        inner = apply_count(node.part, count)
        return None if inner is None else dataclasses.replace(node, part=inner)
    if isinstance(node, Counted):
        return None  # "6 wheat 3 times": not read
    return Counted(node, count)


def apply_start(node: Node, mode: str, overrides: dict[str, Any]) -> Node | None:
    """``node`` from scratch or from a given state; a naive start stays inside a custom one."""
    if mode == "naive":
        if isinstance(node, Started):
            if node.mode == "naive":
                return node
            inner = apply_start(node.part, "naive", {})
            return None if inner is None else dataclasses.replace(node, part=inner)
        return Started(node, "naive")
    if isinstance(node, Started) and node.mode == "custom":
        merged = _merge_overrides(dict(node.overrides), overrides)
        return None if merged is None else Started(node.part, "custom", tuple(sorted(merged.items())))
    return Started(node, "custom", tuple(sorted(overrides.items())))


def kit_start(node: Node, items: dict[str, Any]) -> Node | None:
    """``node`` started from these items as its whole kit (``starting from wooden tools, ...``).

    Papers write "starting from ITEMS" for everything the agent carries (MCU's tool kits): the items replace the
    task's own inventory, so the target's own materials are to be got. "using / with ITEMS" adds to the task's
    own start instead (``PhraseReader.own_starts``).
    """
    started = apply_start(node, "custom", items)
    return dataclasses.replace(started, kit=True) if isinstance(started, Started) else started


def _merge_overrides(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any] | None:
    out = dict(a)
    for key, value in b.items():
        if key not in out:
            out[key] = value
        elif isinstance(value, dict) and isinstance(out[key], dict):
            merged = dict(out[key])
            for k, v in value.items():
                if key == "equipment" and merged.get(k, v) != v:
                    return None
                merged[k] = merged.get(k, 0) + v if key != "equipment" else v
            out[key] = dict(sorted(merged.items()))
        elif out[key] != value:
            return None
    return out


# --- a phrase's start added to the task's own ------------------------------------------------------------------

def with_own_start(own: Initialization, overrides: dict[str, Any]) -> dict[str, Any]:
    """A phrase's start (``with`` / ``using`` / ``starting from`` ITEMS) added to the start its task has anyway.

    ``init(A, ...)`` replaces each field it names, so the reader names the whole field: the task's own items and
    mobs with the phrase's added. The phrase's main hand and worn pieces are taken; an item or mob both name counts
    once, at the larger count (``build a snow golem using snow blocks and a carved pumpkin`` names the golem's own
    blocks, not more of them); nothing of the task's own start is dropped (a tool the phrase displaces from the
    hand or a piece from a slot is carried, as combined starts do). Only the fields the phrase sets are returned.
    """
    out = {key: value for key, value in overrides.items() if key != "inventory"}
    worn = {slot.value: item for slot, item in own.equipment.items()}
    if "equipment" in overrides:
        worn.update(overrides["equipment"])
        out["equipment"] = {slot: worn[slot] for slot in ("head", "chest", "legs", "feet", "offhand") if slot in worn}
    if "summon" in overrides:
        mobs = {s.entity: s.count for s in own.summon}
        for mob, n in overrides["summon"].items():
            mobs[mob] = max(mobs.get(mob, 0), n)
        out["summon"] = dict(sorted(mobs.items()))
    hand: str | None = overrides.get("main_hand", own.main_hand)
    total = _held(own.inventory, own.main_hand, {slot.value: item for slot, item in own.equipment.items()})
    for item, n in _held(overrides.get("inventory", {}), overrides.get("main_hand"),
                         overrides.get("equipment", {})).items():
        total[item] = max(total.get(item, 0), n)
    for held in [hand, *worn.values()]:  # what is held and worn is part of what the start has
        if held:
            total[held] -= 1
    inventory = {item: n for item, n in sorted(total.items()) if n > 0}
    # init(...) cannot say "carry nothing": when all the task carries is now held or worn, it keeps its own
    if inventory and inventory != own.inventory:
        out["inventory"] = inventory
    return out


def _held(inventory: dict[str, int], hand: str | None, worn: dict[str, str]) -> dict[str, int]:
    """Every item a start has, carried, in hand or worn, with its count."""
    out = dict(inventory)
    for item in [hand, *worn.values()]:
        if item:
            out[item] = out.get(item, 0) + 1
    return out

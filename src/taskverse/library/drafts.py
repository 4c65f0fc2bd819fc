"""Atoms before their initialization is chosen: the shape every generator rule builds (``generate``, ``mechanisms``).

A rule gives each atom its id, description, category, verb, ways (lists of needs), yields and success event; the
generator then orders the ways as a player would and writes the initialization of the first (that needs the ranks
of the whole library).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from taskverse.schema import Category, Need, ResourceKind

CATEGORY_OF_VERB = {
    "craft": Category.CRAFTING,
    "smelt": Category.CRAFTING,
    "smith": Category.CRAFTING,
    "stonecut": Category.CRAFTING,
    "brew": Category.CRAFTING,
    "mine": Category.MINING,
    "hunt": Category.COMBAT,
    "combat": Category.COMBAT,
    "lure": Category.COMBAT,
    "find": Category.NAVIGATION,
    "loot": Category.NAVIGATION,
    "eat": Category.EXPLOITATION,
    "equip": Category.EXPLOITATION,
    "strip": Category.EXPLOITATION,
    "enchant": Category.EXPLOITATION,
    "brush": Category.EXPLOITATION,
    "trade": Category.EXPLOITATION,
    "sell": Category.EXPLOITATION,
    "tend": Category.EXPLOITATION,
    "fill": Category.EXPLOITATION,
    "drink": Category.EXPLOITATION,
    "breed": Category.EXPLOITATION,
    "tame": Category.EXPLOITATION,
    "feed": Category.EXPLOITATION,
    "repair": Category.EXPLOITATION,
    "rename": Category.EXPLOITATION,
    "combine": Category.EXPLOITATION,
    "throw": Category.EXPLOITATION,
    "hook": Category.EXPLOITATION,
    "trap": Category.EXPLOITATION,
    "open": Category.EXPLOITATION,
    "interact": Category.EXPLOITATION,
    "inspect": Category.EXPLOITATION,
    "trigger": Category.EXPLOITATION,
    "place": Category.BUILDING,
    "hang": Category.BUILDING,
    "store": Category.EXPLOITATION,
    "pot": Category.BUILDING,
}
"""The MCU category of each generated verb's atoms (a rule may give its own, e.g. block changes)."""


@dataclass
class Draft:
    """An atom before its initialization is chosen (that needs the ranks of the whole library)."""

    data: dict[str, Any]
    ways: list[list[Need]]
    outcomes: list[list[dict[str, Any]]] | None = None
    """Per way, what it yields when the ways differ (recipes of one item that make different counts)."""
    start: Callable[[list[Need]], dict[str, Any]] | None = None
    """The initialization of a way, when it depends on which way comes first (the structure a block is found in)."""


def need(any_of: list[str] | tuple[str, ...], count: int = 1, kept: bool = False,
         kind: ResourceKind = ResourceKind.ITEM, uses: int = 1) -> Need:
    """A need of ``count`` of any of ``any_of`` (sorted, without repeats)."""
    return Need(kind=kind, any_of=sorted(set(any_of)), count=count, kept=kept, uses=uses)


def goal(event: str, target: str, **extra: Any) -> dict[str, Any]:
    """An atom's metrics: success is ``event`` on ``target``."""
    return {"success": {"event": event, "target": target, **extra}}


def draft(verb: str, target: str, event: str, ways: list[list[Need]], yields: list[dict[str, Any]],
          category: Category | None = None, description: str | None = None, **extra: Any) -> Draft:
    """The draft of atom ``<verb>.<target>``, whose success is ``event`` on ``target``."""
    data = {
        "id": f"{verb}.{target}",
        "description": description or f"{verb} {target}",
        "category": (category or CATEGORY_OF_VERB[verb]).value,
        "verb": verb,
        "yields": yields,
        "metrics": goal(event, target),
        **extra,
    }
    return Draft(data, ways)

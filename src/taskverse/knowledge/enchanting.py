"""The enchanting table's odds: how likely one try gives an item a wanted enchantment (Java Edition 1.20).

The game picks enchantments with ``EnchantmentHelper.selectEnchantment`` (Minecraft Wiki, *Enchanting mechanics*):

1. the modified level is ``level + 1 + rand(0..e/4) + rand(0..e/4)`` for the item's enchantability ``e``;
2. it is scaled by ``1 + (r1 + r2 - 1) * 0.15`` (``r1``, ``r2`` uniform in [0, 1)) and rounded;
3. the available enchantments are those the item takes whose power range holds that level (each at the highest
   such level), treasure-only ones left out;
4. one is drawn by weight; then, while ``rand(0..49) <= level``, the ones incompatible with the last drawn (and
   it) are removed, another is drawn, and the level is halved.

This module computes the chance that the wanted enchantment is among those drawn, exactly: the integer draws are
enumerated, the triangular scale is integrated. The weights and power ranges are minecraft-data's.

Example:
    >>> table = {"silk_touch": Enchantment("digger", 1, 1, (0, 15), (10, 51), ())}
    >>> offer_chance(table, "silk_touch", ("digger",), 10, 30)
    1.0

"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

SCALE = 0.15
"""The largest relative change step 2 makes to the modified level."""
MORE_ODDS = 50
"""Another enchantment is drawn while ``rand(0..MORE_ODDS - 1) <= level``."""


@dataclass(frozen=True)
class Enchantment:
    """One enchantment as the table draws it: which items take it, its weight, levels and power ranges."""

    category: str
    weight: int
    max_level: int
    min_cost: tuple[int, int]
    """Level L needs a power of at least ``a * L + b``."""
    max_cost: tuple[int, int]
    """Level L allows a power of at most ``a * L + b``."""
    exclude: tuple[str, ...]
    treasure: bool = False
    discoverable: bool = True

    def level_at(self, power: int) -> int:
        """The highest level whose power range holds ``power`` (0: none)."""
        for level in range(self.max_level, 0, -1):
            low = self.min_cost[0] * level + self.min_cost[1]
            high = self.max_cost[0] * level + self.max_cost[1]
            if low <= power <= high:
                return level
        return 0


def from_knowledge(raw: Mapping[str, Mapping[str, Any]]) -> dict[str, Enchantment]:
    """The enchantments of the knowledge file (``minecraft-1.20.json``, section ``enchantments``)."""
    return {name: Enchantment(e["category"], int(e["weight"]), int(e["max_level"]), tuple(e["min_cost"]),
                              tuple(e["max_cost"]), tuple(e["exclude"]), bool(e["treasure"]), bool(e["discoverable"]))
            for name, e in raw.items()}


def _scale_cdf(x: float) -> float:
    """P(f < x) for f = (r1 + r2 - 1) * SCALE: a triangular distribution on [-SCALE, SCALE]."""
    s = x / SCALE
    if s <= -1:
        return 0.0
    if s >= 1:
        return 1.0
    return (1 + s) ** 2 / 2 if s <= 0 else 1 - (1 - s) ** 2 / 2


def _powers(level: int, enchantability: int) -> dict[int, float]:
    """The distribution of the final power (steps 1 and 2) for a table level and an item's enchantability."""
    spread = enchantability // 4 + 1
    out: dict[int, float] = {}
    for a in range(spread):
        for b in range(spread):
            modified = level + 1 + a + b
            # Math.round(x) is floor(x + 0.5): power k comes from x in [k - 0.5, k + 0.5).
            lowest = max(1, math.floor(modified * (1 - SCALE) + 0.5))
            highest = math.floor(modified * (1 + SCALE) + 0.5)
            for k in range(lowest, highest + 1):
                share = _scale_cdf((k + 0.5) / modified - 1) - _scale_cdf((k - 0.5) / modified - 1)
                if share > 0:
                    out[k] = out.get(k, 0.0) + share / spread**2
    return out


def offered(table: Mapping[str, Enchantment], categories: Sequence[str], enchantability: int,
            level: int) -> list[str]:
    """The enchantments one enchanting of an item at ``level`` can give (some power it may reach holds them).

    Example:
        >>> table = {"silk_touch": Enchantment("digger", 1, 1, (0, 15), (10, 51), ())}
        >>> offered(table, ("digger",), 10, 30), offered(table, ("weapon",), 10, 30)
        (['silk_touch'], [])

    """
    powers = _powers(level, enchantability)
    return sorted(n for n, e in table.items() if e.category in categories and not e.treasure and e.discoverable
                  and any(e.level_at(p) > 0 for p in powers))


def offer_chance(table: Mapping[str, Enchantment], wanted: str, categories: Sequence[str], enchantability: int,
                 level: int) -> float:
    """The chance that one enchanting of an item at ``level`` gives it ``wanted``.

    Args:
        table: Every enchantment of the game, by name.
        wanted: The enchantment wanted (``silk_touch``).
        categories: The enchantment categories the item belongs to (a pickaxe: ``digger``, ``breakable``).
        enchantability: The item's enchantability (a diamond tool: 10).
        level: The table's level (30: the bottom slot with 15 bookshelves).

    """
    names = sorted(n for n, e in table.items() if e.category in categories and not e.treasure and e.discoverable)
    total = 0.0
    for power, share in _powers(level, enchantability).items():
        available = tuple(n for n in names if table[n].level_at(power) > 0)
        total += share * _drawn(table, available, wanted, power)
    return round(total, 6)


def _drawn(table: Mapping[str, Enchantment], available: tuple[str, ...], wanted: str, power: int) -> float:
    """P(wanted is drawn) given the available enchantments and the final power (step 4)."""
    weights = {n: table[n].weight for n in available}
    conflicts = {n: frozenset(table[n].exclude) | {n} for n in available}

    @cache
    def more(rest: frozenset[str], level: int) -> float:
        if not rest:
            return 0.0
        go_on = min(1.0, (level + 1) / MORE_ODDS)
        return go_on * pick(rest, level)

    @cache
    def pick(rest: frozenset[str], level: int) -> float:
        whole = sum(weights[n] for n in rest)
        chance = 0.0
        for n in sorted(rest):
            p = weights[n] / whole
            chance += p if n == wanted else p * more(frozenset(m for m in rest if m not in conflicts[n] and
                                                               n not in conflicts[m]), level // 2)
        return chance

    if not available:
        return 0.0
    whole = sum(weights.values())
    chance = 0.0
    for n in available:
        p = weights[n] / whole
        rest = frozenset(m for m in available if m not in conflicts[n] and n not in conflicts[m])
        chance += p if n == wanted else p * more(rest, power)
    return chance

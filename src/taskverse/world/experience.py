"""How a player raises one villager's experience: its offers mixed as each level opens, restocked when spent.

A trade of a level above novice needs a villager raised to that level (``trades.yaml``'s ``levels``: 10, 70, 150,
250 experience), and each trade adds its offer's ``xp``. A player raises one villager level by level: at each
level, the offers open up to it, each at most its ``uses`` before it locks, cheapest experience per price first;
when the open offers are spent (or a restock of a cheap one beats a dear one), the villager restocks (a wait at its
job site) or another villager is taken, whichever is cheaper (``restock``). The higher levels' offers need only the
lower levels, so the schedule has no loop: the level order cuts it.

This module holds the schedule as a plain function over the offers; ``world.derivation`` reads the offers off the
model (the trades yielding ``xp:<profession>``, their level need, their ``Need.restock`` uses) and prices them.

Example:
    >>> offers = [Offer(level=0, xp=1, uses=12, price=2.0), Offer(level=0, xp=2, uses=16, price=3.0),
    ...           Offer(level=10, xp=10, uses=12, price=5.0)]
    >>> raise_experience(offers, 0, 70, restock=100.0)
    [(1, 5), (2, 6)]

"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

RESTOCK = -1
"""The offer index of a restock in a schedule: the villager's offers fresh again (a wait, or another villager)."""


@dataclass(frozen=True, slots=True)
class Offer:
    """One offer of a profession, as the schedule sees it."""

    level: int
    """The experience a villager needs to make the offer (0 for a novice's)."""
    xp: int
    """The experience one trade gives the villager."""
    uses: int
    """The trades a villager makes of it before it locks until a restock (0: it never locks)."""
    price: float
    """What one trade costs (its inputs and its own run), in the cost model's units."""


def raise_experience(offers: Sequence[Offer], start: int, target: int,
                     restock: float) -> list[tuple[int, int]] | None:
    """The trades that raise a villager from ``start`` to at least ``target`` experience, in order; None if none do.

    A schedule is a list of (offer index, trades) chunks, in the order done, with ``(RESTOCK, 1)`` where the
    villager's offers are made fresh again (at ``restock``, the cheaper of a restock wait and another villager).
    At each step the villager's open offers (level at most its experience, uses left) are ranked by price per
    experience, and so is a restock followed by the best offer it refreshes (its price shared over that offer's
    uses); the cheapest is traded until the next level opens or the target is reached, or its uses run out.
    """
    left = [o.uses for o in offers]
    thresholds = sorted({o.level for o in offers if o.level > start})
    xp = start
    schedule: list[tuple[int, int]] = []
    while xp < target:
        goal = min([target, *(t for t in thresholds if t > xp)])
        best, best_rate = None, math.inf
        refreshed, refreshed_rate = None, math.inf
        for i, o in enumerate(offers):
            if o.level > xp or o.xp <= 0 or not math.isfinite(o.price):
                continue
            rate = o.price / o.xp
            if o.uses == 0 or left[i] > 0:
                if rate < best_rate:
                    best, best_rate = i, rate
            if o.uses and left[i] < o.uses:  # spent in part: a restock gives its uses back
                fresh = rate + restock / (o.uses * o.xp)
                if fresh < refreshed_rate:
                    refreshed, refreshed_rate = i, fresh
        if refreshed is not None and refreshed_rate < best_rate:
            schedule.append((RESTOCK, 1))
            left = [o.uses for o in offers]
            best = refreshed
        if best is None:
            return None
        o = offers[best]
        trades = -(-(goal - xp) // o.xp)
        if o.uses:
            trades = min(trades, left[best])
            left[best] -= trades
        xp += trades * o.xp
        if schedule and schedule[-1][0] == best:
            schedule[-1] = (best, schedule[-1][1] + trades)
        else:
            schedule.append((best, trades))
    return schedule

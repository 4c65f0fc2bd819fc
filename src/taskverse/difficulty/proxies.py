"""Named proxies for the human-rated dimensions, on the raters' own 1-5 scale (used where nobody rated a task).

MCU rates intricacy, creativity and novelty by hand (Section 3). Where a task has no rating, a proxy predicts one
from the task's data, so rated and unrated tasks share one scale and one calibration. Each proxy counts *bits*
(a base-2 logarithm of a count of possibilities, so independent parts add up) and maps them to a rating by

    rating(b) = 1 + 4 * b / (b + h)

which is 1 for b = 0, 3 at the dimension's half-point h and approaches 5 (``to_rating``; ``to_bits`` inverts it,
so a rated atom inside a plan counts with the bits its rating stands for).

* ``proxy:precision`` (intricacy, "the precision required in agent control"): an action asks for
  ``n`` precise operations (grid cells filled, blocks placed, hits landed, blocks broken, items eaten or used;
  walking has none) plus one per tool, station or piece of equipment that must be the right one, on ``k``
  distinct items; its *precision demand* is ``(1 + n) * 2^(k - 1)`` (each further kind of item doubles the ways
  to put the wrong thing in the wrong place). A plan's demand is the sum over its distinct atoms, so the bits
  are ``log2(sum of demands)``: its most demanding step, plus a little for each other one. A ``how`` constraint
  adds a bit (one more thing to get right). Half-point 4 bits.
* ``proxy:solution_space`` (creativity, "the size of the solution space"): the free choices in doing the
  actions of the plan, in bits (blocks placed where the game fixes no shape: ``blocks * log2(1 + kinds)``; a walk:
  a bit per chunk, 16 blocks, travelled; a fight: ``log2(1 + hits)``; crafting, smelting, mining, eating,
  equipping and using are fixed by the game: 0, MCU footnote 4), plus ``log2(1 + log2 W)`` for the W distinct
  solutions through the OR branches of the dependency graph given the initialization (doubly logged:
  interchangeable materials are not what makes a task creative). Half-point 16 bits.
* ``proxy:playthrough_distance`` (novelty, "out of the distribution of common play-throughs"): the common
  play-through is the literature's tasks (Appendix B; MCU's own examples left out) and everything their
  dependency graphs hold. An atom's bits are ``log2(1 + off) + 0.5 * log2(1 + n) + place + aimless``: ``off``
  atoms of its plan from scratch lie off that play-through (itself included), ``n`` atoms make that plan (how
  deep in the game it sits), ``place`` is 1 for a plan through the nether and 2 through the end (fewer players
  get there), and ``aimless`` is 3 for a kill that serves nothing (the mob drops nothing any action needs:
  MCU's "kill a villager"; nobody does it on purpose in a play-through). A plan is as novel as its most novel
  atom. Half-point 4 bits.

Ties: tasks whose counts agree (every "place X" places one block) are ordered by a secondary signal of the same
kind computed on their atoms' plans *from scratch* (the precision demand of making their items, the solutions
the world offers from scratch, the game time from scratch), worth less than ``TIE_BITS``: it orders tasks the
primary count ties and never moves one past another whose primary bits differ by more.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from taskverse.difficulty.timemodel import ActionModel
from taskverse.schema import AtomTask, Event, Need, ResourceKind
from taskverse.world.graph import World, task_node, ways_of

RATING_MIN, RATING_MAX = 1.0, 5.0
HALF_BITS = {"intricacy": 4.0, "creativity": 16.0, "novelty": 4.0}
"""Bits at which each proxy predicts a rating of 3."""
TIE_BITS = 0.1
"""The most the secondary signal adds (see the module docstring)."""
TIE_SCALE = 8.0
"""Secondary bits at which the tie-break term is half of ``TIE_BITS``."""
CHUNK = 16
"""Blocks a walk goes per free choice of direction."""
DIMENSION_BITS = {"nether": 1.0, "end": 2.0}
AIMLESS_BITS = 3.0
DEPTH_WEIGHT = 0.5
NAVIGATION_EVENTS = frozenset({Event.FIND, Event.REACH})
"""Events whose action is moving: nothing to place or hit precisely."""
SELF_TARGETS = frozenset({"sky", "inventory", "jump", "sneak", "sprint", "death", "day_survived",
                          "night_survived"})
"""Interactions with the agent's own state (``interact`` targets that name no thing): no precise operation."""


def to_rating(bits: float, half: float) -> float:
    """The predicted rating of ``bits`` bits: ``1 + 4 b / (b + h)``, in [1, 5)."""
    b = max(0.0, bits)
    return RATING_MIN + (RATING_MAX - RATING_MIN) * b / (b + half)


def to_bits(rating: float, half: float) -> float:
    """The bits a rating stands for (the inverse of ``to_rating``; a 5 counts as 99.9 % of the way)."""
    share = (min(max(rating, RATING_MIN), RATING_MAX) - RATING_MIN) / (RATING_MAX - RATING_MIN)
    share = min(share, 0.999)
    return half * share / (1.0 - share)


def tie_break(secondary_bits: float) -> float:
    """The secondary signal's share of the bits: ``TIE_BITS * s / (s + TIE_SCALE)``, below ``TIE_BITS``."""
    s = max(0.0, secondary_bits) if math.isfinite(secondary_bits) else 0.0
    return TIE_BITS * (1.0 - TIE_SCALE / (s + TIE_SCALE))  # written so that rounding keeps it monotone


@dataclass(frozen=True)
class ActionFacts:
    """What the proxies read off one atom's own action."""

    operations: int
    """Precise operations: cells filled, blocks placed or broken, hits landed, items eaten or used."""
    kinds: int
    """Distinct items the action handles (its way's item needs), at least 1."""
    free_bits: float
    """Free choices in doing it, in bits."""
    aimless: bool
    """Whether it kills for nothing: the mob drops nothing any action needs (MCU's "kill a villager")."""

    @property
    def demand(self) -> float:
        """The precision demand ``(1 + n) * 2^(k - 1)``."""
        return (1 + self.operations) * 2.0 ** (self.kinds - 1)


def the_way(task: AtomTask) -> list[Need]:
    """The way the atom's own action is done: the first its initialization fully holds, else its first."""
    ways = ways_of(task)
    init = task.initialization
    held = {**init.inventory, **{item: 1 for item in [init.main_hand, *init.equipment.values()] if item}}
    for way in ways:
        if all(n.kind != ResourceKind.ITEM or sum(held.get(m, 0) for m in n.any_of) >= n.count for n in way):
            return way
    return ways[0] if ways else []


def action_facts(task: AtomTask, actions: ActionModel, needed: Callable[[str, str], bool]) -> ActionFacts:
    """The facts of an atom's own action, from its way and the game-facts time model.

    Args:
        task: The atom.
        actions: The time model (hits of a fight, cells of a recipe, blocks walked).
        needed: Whether some action of the world needs a resource (kind, name): found, kept or consumed.

    """
    goal = task.goal
    way = the_way(task)
    items = [n for n in way if n.kind == ResourceKind.ITEM]
    consumed = [n for n in items if not n.kept]
    kept = [n for n in items if n.kept]
    placed = sum(n.count for n in consumed)
    count = max(1, goal.count)
    event = goal.event
    if event == Event.CRAFT:
        own = actions.cells(task)
    elif event in (Event.BUILD, Event.ENTER):
        own = placed
    elif event == Event.KILL:
        own = count * actions.hits(task, actions.weapon(task))
    elif event in NAVIGATION_EVENTS or (event == Event.INTERACT and goal.target in SELF_TARGETS):
        own = 0
    else:  # mine, smelt, place, eat, equip, use: one operation per target
        own = count
    if event in (Event.BUILD, Event.ENTER, Event.PLACE):
        free = placed * math.log2(1 + max(1, len(consumed))) if event != Event.PLACE else float(count)
    elif event in NAVIGATION_EVENTS:
        free = actions.route_blocks(task) / CHUNK
    elif event == Event.KILL:
        free = math.log2(1 + own)
    else:
        free = 0.0
    aimless = event == Event.KILL and not any(needed(y.kind.value, y.name) for y in task.yields)
    return ActionFacts(own + len(kept), max(1, len(items)), free, aimless=aimless)


def intricacy_bits(demands: Iterable[float]) -> float:
    """``proxy:precision`` bits of a plan: ``log2`` of the summed precision demands of its atoms."""
    total = sum(demands)
    return math.log2(total) if total > 0 else 0.0


def creativity_bits(free_bits: Iterable[float], log_ways: float) -> float:
    """``proxy:solution_space`` bits: the plan's free choices plus ``log2(1 + log2 W)`` (``log_ways`` = ln W)."""
    return sum(free_bits) + math.log2(1.0 + max(0.0, log_ways) / math.log(2))


def novelty_bits(off: int, atoms: int, place: str, aimless: bool) -> float:
    """``proxy:playthrough_distance`` bits of an atom (see the module docstring)."""
    return (math.log2(1 + off) + DEPTH_WEIGHT * math.log2(1 + atoms) + DIMENSION_BITS.get(place, 0.0)
            + AIMLESS_BITS * aimless)


class Playthrough:
    """The common play-through: the literature's tasks and every task their dependency graphs hold."""

    def __init__(self, world: World, literature: Iterable[str],
                 precomputed: set[str] | None = None) -> None:
        self.literature = {t for t in literature if task_node(t) in world.nodes}
        if precomputed is not None:
            self.tasks = precomputed
            return
        tasks: set[str] = set()
        for task_id in sorted(self.literature):
            node = task_node(task_id)
            tasks |= {n[5:] for n in world.ancestors(node) if n.startswith("task:")} | {task_id}
        self.tasks = tasks

    def __contains__(self, task_id: object) -> bool:
        return task_id in self.tasks

"""Named proxies for the human-rated dimensions, on the raters' own 1-5 scale (used where nobody rated a task).

MCU rates intricacy, creativity and novelty by hand. Where a task has no rating, these proxies predict one from
what the library knows, so rated and unrated tasks share one scale and one calibration:

* ``proxy:precision`` (intricacy): how error-intolerant the atom's action is. Crafting grows with the number of
  distinct ingredient kinds, a 3x3 grid and redstone; building and portal frames are high; walking, finding,
  eating and equipping are low (MCU Section 4.2: navigation has less intricacy); fighting grows with hostility
  and health.
* ``proxy:solution_space`` (creativity): a base by category (building high, exploitation low: MCU footnote 4;
  placing one block and crafting low, free navigation and survival higher) plus ``log10(1 + log10(W))``, with W
  the number of distinct ways through the OR branches of the task's dependency graph given its initialization.
* ``proxy:playthrough_distance`` (novelty): literature tasks (atoms tagged ``literature`` and the targets of
  ``atoms/aliases.yaml``) are least novel, the atoms they depend on (the common play-through) a little more, the
  rest more; deeper in the tech tree, the nether, the end, and unusual verbs (commit suicide, drop an item,
  killing a creature that gives nothing, as "kill a villager") add to it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from taskverse.knowledge.facts import Knowledge
from taskverse.schema import AtomTask, Category, Event, ResourceKind
from taskverse.world.graph import World, task_node, ways_of

RATING_MIN, RATING_MAX = 1.0, 5.0

CREATIVITY_BY_CATEGORY = {
    Category.BUILDING: 4.0, Category.NAVIGATION: 2.5, Category.COMBAT: 2.0, Category.MISC: 2.0,
    Category.MINING: 1.5, Category.CRAFTING: 1.5, Category.EXPLOITATION: 1.0,
}
CREATIVITY_BY_VERB = {"place": 1.5, "navigate": 3.0, "survive": 3.0, "build": 4.0, "find": 2.5}
CREATIVITY_WAYS_WEIGHT = 1.0  # times log10(1 + log10(number of solutions))
UNUSUAL_VERBS = {"commit", "drop"}
DIMENSION_NOVELTY = {"nether": 1.0, "end": 1.5}
REDSTONE_WORDS = ("redstone", "repeater", "comparator", "observer", "piston", "daylight_detector")


def clip(value: float) -> float:
    """Clip a proxy to the raters' scale."""
    return min(RATING_MAX, max(RATING_MIN, value))


def intricacy(task: AtomTask, kn: Knowledge) -> float:
    """``proxy:precision``: a predicted intricacy rating of the atom's own action."""
    goal = task.goal
    event = goal.event
    if event == Event.CRAFT:
        way = ways_of(task)[0]
        kinds = [n for n in way if n.kind == ResourceKind.ITEM and not n.kept]
        value = 1.5 + 0.5 * max(0, len(kinds) - 1)
        if any(w.needs_table for w in kn.craft_ways.get(goal.target, [])):
            value += 0.5
        names = [goal.target, *(name for n in kinds for name in n.any_of)]
        if any(word in name for name in names for word in REDSTONE_WORDS):
            value += 1.0
        return clip(value)
    if event == Event.BUILD:
        materials = len(task.initialization.inventory) + len(task.initialization.summon)
        return clip(3.5 + 0.5 * (materials >= 3) + 0.5 * any(w in i for i in task.initialization.inventory
                                                           for w in REDSTONE_WORDS))
    if event == Event.ENTER:
        return 2.5
    if event == Event.KILL:
        mob = kn.mobs.get(goal.target)
        hostile = mob is not None and mob.disposition in ("hostile", "boss")
        strong = mob is not None and mob.health >= 40
        return clip((2.0 if task.verb == "combat" else 1.5) + 0.5 * hostile + 0.5 * strong)
    if event == Event.MINE:
        tools = kn.blocks.get(goal.target, {}).get("harvest_tools") or []
        return clip(1.0 + 0.5 * bool(tools or goal.using))
    if event in (Event.SMELT, Event.PLACE):
        return 1.5
    if event == Event.USE:
        return clip(2.0 + 0.5 * (goal.using is not None))
    if event == Event.INTERACT:
        return 1.5 if goal.target not in ("sky", "inventory", "jump", "sneak", "sprint", "drop") else 1.0
    return 1.0  # find, reach, eat, equip, obtain: the work is in getting there or getting the item


def creativity_base(task: AtomTask) -> float:
    """The category (or verb) part of ``proxy:solution_space``."""
    return CREATIVITY_BY_VERB.get(task.verb, CREATIVITY_BY_CATEGORY[task.category])


def creativity(base: float, log_ways: float) -> float:
    """``proxy:solution_space`` from a base and the natural log of the number of solutions.

    The number of solutions is log-scaled twice: from scratch it runs to 10^100 (every choice of wood, of
    fuel...), and choosing among interchangeable materials is not what makes a task creative.
    """
    return clip(base + CREATIVITY_WAYS_WEIGHT * math.log10(1.0 + max(0.0, log_ways) / math.log(10)))


class Novelty:
    """``proxy:playthrough_distance``: literature tasks and the play-through they depend on are least novel."""

    def __init__(self, world: World, kn: Knowledge, literature: Iterable[str],
                 precomputed: tuple[set[str], dict[str, str]] | None = None) -> None:
        self.world = world
        self.kn = kn
        self.literature = {t for t in literature if task_node(t) in world.nodes}
        self.playthrough: set[str] = set()
        self.dimension_of: dict[str, str] = {}
        if precomputed is not None:
            self.playthrough, self.dimension_of = precomputed
            return
        for task_id in sorted(self.literature):
            node = task_node(task_id)
            self.playthrough |= {n for n in world.ancestors(node) if n.startswith("task:")} | {node}
        successors: dict[str, list[str]] = {}
        for node, preds in world.preds.items():
            for parent, _ in preds:
                successors.setdefault(parent, []).append(node)
        for dimension in ("nether", "end"):  # end last: a task needing both counts as the end's
            stack = [f"dimension:{dimension}"]
            seen: set[str] = set()
            while stack:
                for child in successors.get(stack.pop(), ()):
                    if child not in seen:
                        seen.add(child)
                        stack.append(child)
            self.dimension_of.update({n: dimension for n in seen if n.startswith("task:")})

    def tables(self) -> tuple[set[str], dict[str, str]]:
        """What the constructor derives from the world (cacheable alongside the library)."""
        return self.playthrough, self.dimension_of

    def __call__(self, task: AtomTask) -> float:
        """A predicted novelty rating of an atom."""
        node = task_node(task.id)
        if task.id in self.literature:
            value = 1.0
        elif node in self.playthrough:
            value = 1.5
        else:
            value = 2.5
        rank = self.world.rank.get(node, math.inf)
        value += 0.5 * min(1.0, rank / 30.0)
        dimension = task.initialization.dimension.value
        if dimension == "overworld":
            dimension = self.dimension_of.get(node, "overworld")
        value += DIMENSION_NOVELTY.get(dimension, 0.0)
        if task.verb in UNUSUAL_VERBS:
            value += 1.5
        goal = task.goal
        mob = self.kn.mobs.get(goal.target)
        if goal.event == Event.KILL and task.verb == "combat" and not task.yields and mob is not None \
                and mob.disposition == "passive":
            value += 1.5
        return clip(value)

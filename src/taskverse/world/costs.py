"""Step costs for ranking derivations: how many plain steps one task is worth (a named heuristic).

The dependency graph keeps an alternative when it is nearly as cheap as the best one (see ``graph``). Counting
every task as one step would make killing a 100-health iron golem as cheap as chopping a tree, so the rank of a
task weighs it by what the game data says about it:

* kill (hunt / combat): one step per 10 health points of the mob (rounded up), at least one;
* find: one step, plus one when the thing only occurs in some biomes, two for a structure;
* looting a kind of chest only a share p of the structures hold (a treasure bastion's, p = 1/4): one step plus the
  1/p - 1 further structure finds it takes on average;
* everything else: one step. Chance drops add 1/p - 1 steps on top (``graph.yield_penalty``).

These weights order alternatives; they are not the time-consumption score (the difficulty module estimates that).
"""

from __future__ import annotations

import math

from taskverse.knowledge.facts import Knowledge
from taskverse.schema import AtomTask, Event, ResourceKind
from taskverse.world.graph import StepCost

HEALTH_PER_STEP = 10.0
STRUCTURE_FIND_STEPS = 3.0
"""The steps a find of a structure is worth."""


def step_cost_for(kn: Knowledge) -> StepCost:
    """The knowledge-grounded step cost function."""
    loot = kn.mechanisms.structure_loot.kinds() if kn.mechanisms is not None else []
    shares = {(t.structure, t.chest): t.share for t in loot}

    def cost(task: AtomTask) -> float:
        goal = task.goal
        if goal.chest is not None and shares.get((goal.target, goal.chest), 1.0) < 1.0:
            # a kind of chest some of the structures hold (a treasure bastion, one in four): the further finds
            # it takes on average to reach one, at a structure find's cost
            return 1.0 + (1.0 / shares[(goal.target, goal.chest)] - 1.0) * STRUCTURE_FIND_STEPS
        if goal.event == Event.KILL and goal.target in kn.mobs:
            return max(1.0, math.ceil(kn.mobs[goal.target].health / HEALTH_PER_STEP))
        if goal.event == Event.FIND:
            found = {y.kind for y in task.yields}
            if ResourceKind.STRUCTURE in found:
                return STRUCTURE_FIND_STEPS
            mob = kn.mobs.get(goal.target)
            block = kn.natural_blocks.get(goal.target)
            restricted = (mob is not None and bool(mob.biomes)) or (block is not None and bool(block.biomes))
            return 2.0 if restricted else 1.0
        return 1.0

    return cost

"""The estimated optimal plan of an atom, read off the one world model and priced by the game-facts time model.

Time consumption and operational effort need a plan when a task has no exemplar trajectories. The plan comes
from the world model every consumer reads (``world.rules.Rules``) and its cost fixpoint (``CostModel``), priced
in frames: each action costs the frames of one run of its atom's own action (``timemodel.ActionModel``), so the
fixpoint's prices are game times, and the plan is the cheapest derivation those prices describe
(``world.derivation``): every need's cheapest producer for the amount wanted, tools, stations and found things
obtained once, before what needs them. Its frames add up; its synthetic action sequence (each action's
verb-specific pattern, repeated per run, prerequisites first) gives the permutation entropy.

An atom's own action is priced under its initialization (the tool in hand, a ``how`` constraint's tool, a
``when`` constraint's wait); a ``how`` tool the initialization does not hold is obtained first.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from taskverse.difficulty.entropy import DEFAULT_D, PatternSummary
from taskverse.difficulty.timemodel import ActionModel
from taskverse.schema import AtomTask, Initialization
from taskverse.world.derivation import Derivation, compile_needs, held_resources
from taskverse.world.graph import ways_of
from taskverse.world.rules import CostModel, Need, Rules, initialization_resources

INF = math.inf


@dataclass(frozen=True)
class Part:
    """A piece of a plan: its frames, its synthetic actions' pattern counts and the atoms it does."""

    frames: float
    motif: PatternSummary
    tasks: frozenset[str] = frozenset()

    def __add__(self, other: Part) -> Part:
        """The joined piece: this one, then ``other``."""
        if not other.motif.length and not other.frames and other.tasks <= self.tasks:
            return self
        if not self.motif.length and not self.frames and self.tasks <= other.tasks:
            return other
        return Part(self.frames + other.frames, self.motif + other.motif, self.tasks | other.tasks)

    then = __add__

    @property
    def feasible(self) -> bool:
        """Whether there is a plan at all."""
        return not math.isinf(self.frames)


class PlanModel:
    """Estimated optimal plans of atoms over one library's world model, priced in frames (memoised)."""

    def __init__(self, library: Any, d: int = DEFAULT_D) -> None:
        self.library = library
        self.d = d
        self.actions = ActionModel(library.knowledge, d)
        self.empty = Part(0.0, PatternSummary.empty(d))
        self.infeasible = Part(INF, PatternSummary.empty(d))
        self._steps: dict[tuple[int, int], Part] = {}
        self._derivations: dict[str, Derivation[Part]] = {}
        self._start_costs: dict[tuple[tuple[int, int], ...], CostModel] = {}

    @cached_property
    def _model(self) -> tuple[Rules, CostModel, list[float]]:
        """The world model, its frames per action and its cost fixpoint in frames (cached on disk, ~1 s to make)."""
        library = self.library
        if getattr(library, "_textworld_rules", None) is not None or not getattr(library, "digest", ""):
            return self._build()
        from taskverse.library.loader import _cached
        from taskverse.memo import code_digest

        key = f"plans-{library.digest}-{code_digest()}"
        model: tuple[Rules, CostModel, list[float]] = _cached(key, self._build)
        library._textworld_rules = model[0]  # the one model, for whoever asks next (Rules.for_library)
        return model

    def _build(self) -> tuple[Rules, CostModel, list[float]]:
        rules = Rules.for_library(self.library)
        by_id = self.library.by_id
        frames = [self.actions.action(by_id[atom]).frames for atom in rules.actions]
        return rules, CostModel(rules, [rules.index[("dimension", "overworld")]], steps=frames), frames

    @property
    def rules(self) -> Rules:
        """The one compiled world model."""
        return self._model[0]

    @property
    def costs(self) -> CostModel:
        """The cost fixpoint from nothing (standing in the overworld), every action priced in frames."""
        return self._model[1]

    @property
    def frames(self) -> list[float]:
        """Frames of one run of each action of the rules (its atom's own action, no initialization)."""
        return self._model[2]

    def step(self, a: int, runs: int) -> Part:
        """``runs`` runs of action ``a``: frames, synthetic actions, the atom."""
        key = (a, runs)
        found = self._steps.get(key)
        if found is None:
            atom = self.rules.actions[a]
            motif = self.actions.action(self.library.by_id[atom]).motif.repeat(runs)
            found = self._steps[key] = Part(self.frames[a] * runs, motif, frozenset({atom}))
        return found

    @cached_property
    def restock_wait(self) -> tuple[float, Part]:
        """A villager's wait for a restock (``trades.yaml``'s ``restock``), in frames, as the derivation prices it."""
        ticks = float(self.library.knowledge.mechanisms.trading.restock.ticks)
        return ticks, Part(ticks, self.actions.wait_motif(ticks))

    def costs_from(self, held: Mapping[int, int]) -> CostModel:
        """The prices a derivation from ``held`` follows: from nothing, unless it stands outside the overworld.

        Standing in the nether or the End is no holding to add to the overworld's prices: it takes the overworld
        away, and a need on it is the trip back (or no way at all, with nothing held in the End), which the prices
        from the overworld call free. So such a start is priced from its own holdings, as the planner's are.
        """
        overworld = self.rules.index[("dimension", "overworld")]
        if held.get(overworld):
            return self.costs
        key = tuple(sorted(held.items()))
        found = self._start_costs.get(key)
        if found is None:
            found = self._start_costs[key] = CostModel(self.rules, list(held), steps=self.frames)
        return found

    def derivation(self, init: Initialization) -> Derivation[Part]:
        """The derivation from an initialization's holdings (one per initialization, memoised)."""
        key = "" if init.is_naive() else init.model_dump_json()
        found = self._derivations.get(key)
        if found is None:
            rules = self.rules
            inventory = dict(init.inventory)
            for item in [init.main_hand, *init.equipment.values()]:
                if item:
                    inventory[item] = inventory.get(item, 0) + 1
            found_things = [r for r in initialization_resources(init) if r[0] != "item"]
            held = held_resources(rules, inventory, found_things)
            found = Derivation(rules, self.costs_from(held), self.step, self.empty, held, self.restock_wait)
            if len(self._derivations) > 64 and key:  # atoms' own initializations: keep the memory bounded
                self._derivations = {k: v for k, v in self._derivations.items() if not k}
            self._derivations[key] = found
        return found

    def plan(self, task: AtomTask, init: Initialization, forced: str | None = None, wait: float = 0.0,
             own_rules: bool = True, runs: int = 1) -> Part:
        """``runs`` runs of ``task`` from ``init`` (one by default), everything they need first.

        Args:
            task: The atom.
            init: The initialization it starts from.
            forced: ``bare_hand`` or an item the atom's own action must be done with (a ``how`` constraint).
            wait: Frames spent waiting before the action (a ``when`` constraint).
            own_rules: Whether the task is the library's own (else its needs are read off the task itself).
            runs: How many times its atom is done (an amount): the needs are met for all of them at once
                (eight beef from four cows, at two beef a cow on average); an atom whose goal counts what came
                runs until it came (``Rules.runs_to_count``).

        """
        action = self.actions.action(task, init.main_hand, forced)
        if math.isinf(action.frames):
            return self.infeasible
        rules = self.rules
        derivation = self.derivation(init)
        a = rules.action_index.get(task.id) if own_rules else None
        if a is not None:  # a trade whose offer a wandering trader has 1 time in 6 is tried until it comes
            runs = rules.runs_to_count(a, runs)
        own = Part(action.frames * runs + wait, self.actions.wait_motif(wait) + action.motif.repeat(runs),
                   frozenset({task.id}))
        ways: list[list[Need] | tuple[Need, ...]]
        if a is not None:
            ways, prices = list(rules.ways[a]), list(self.costs.batch_prices[a])
        else:
            ways, prices = [w for w in (compile_needs(rules, way) for way in ways_of(task)) if w is not None], None
        w = derivation.choose_way(ways, runs, prices)
        if w is None:
            return self.infeasible
        setups = []
        if forced is not None and forced != "bare_hand" and ("item", forced) in rules.index:
            setups.append(rules.index[("item", forced)])
        plan = derivation.plan_needs(ways[w], runs, own, setups)
        return self.infeasible if plan is None else plan

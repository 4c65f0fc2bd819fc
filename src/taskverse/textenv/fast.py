"""A fast way to step one text-world state: ``Rules.act``'s effects, precompiled per action where they are fixed.

``Rules`` (``taskverse.world.rules``) is the reference; this module reads it and never changes its meaning:

* An action's way whose every need names one member (no tagged group, no fuel, no tool that wears) and whose
  yields are certain has fixed effects: the same items taken and given every time, the same things found (found
  again: no change). Those are compiled once into a plan; a find is the commonest case.
* Any other way (a group to take from, fuel, wear or a repair of it, chance yields or count ranges) is done by
  ``Rules.effects`` itself, so the general rules live in one place.
* Where the agent ends up (``Rules.moved``) after a fixed plan is worked out from flat per-resource tables, once
  per place it starts from (the steps read nothing else), and remembered.
* The changes are applied with the same incremental mask bookkeeping as ``Rules.change``, flattened into one
  loop per resource over itself and the groups it belongs to.

``tests/test_textenv_fast.py`` steps this and ``Rules.act`` side by side on random masked trajectories and
compares the whole state, the events and the random draws after every step.

Example:
    >>> from taskverse import load_library
    >>> rules = Rules.for_library(load_library())
    >>> fast = FastRules.for_rules(rules)
    >>> state = rules.new_state()
    >>> events, changed = fast.act(state, rules.action_index["find.oak_log"])
    >>> changed == MASK, bool(state.mask[rules.action_index["mine.oak_log"]])
    (True, True)

"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from taskverse.world.rules import PRESENCE_KINDS, Event, Need, Rules, State

Place = tuple[int, int]
Move = tuple[int, int, int, int, bool]
Plan = tuple[tuple[tuple[int, int], ...], tuple[int, ...], tuple[tuple[int, int], ...], tuple[int, ...],
             tuple[tuple[int, int], ...], tuple[Move, ...], dict[Place, Place]]
"""A fixed way: (item changes, things found (each added the first time only), the item changes with the first of
them added, members used per need, what it gives (for events), the steps of ``Rules.moved``: (resource, kind,
the dimension it implies, the biome it implies, whether the biome is left), and where those steps lead from each
place met so far (filled as places are met: the steps read nothing but the place))."""
INVALID, UNCHANGED, COUNTS, MASK = -1, 0, 1, 2
"""What a step did: nothing (the action was no candidate), changed nothing, the counts only, or the candidate mask
too."""
BIOME, DIMENSION = 3, 5
"""Kind codes of the resources that are places (``PRESENCE_KINDS`` order after items)."""


class FastRules:
    """Flat per-action plans and per-resource fan-outs compiled from ``rules`` (build with ``for_rules``)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        need_way = rules.need_way
        self.fan: list[tuple[tuple[int, int, list[int], list[int]], ...]] = [
            tuple((v, weight, rules.thresholds[v], [need_way[n] for n in rules.threshold_needs[v]])
                  for v, weight in ((r, 1), *rules.groups_of[r]))
            for r in range(rules.n_resources)]
        """Per resource: itself and every group it counts towards, with the needs' thresholds on each and the way
        each of those needs belongs to."""
        self.plans: list[tuple[Plan | None, ...]] = [
            tuple(fixed_plan(rules, a, w) for w in range(len(ways))) for a, ways in enumerate(rules.ways)]
        self.single_way = bytearray(len(ways) == 1 for ways in rules.ways)
        self.found_text = tuple("" if resource == ("dimension", "overworld") else f"{name} ({kind})"  # all start there
                                for resource in rules.resources for kind, name in [resource])
        """Per resource, how the text observation names it when found (made once, not per environment)."""

    @classmethod
    def for_rules(cls, rules: Rules) -> FastRules:
        """The compiled form of ``rules`` (built once per rules and kept on them)."""
        cached: FastRules | None = getattr(rules, "_fast_rules", None)
        if cached is None:
            cached = cls(rules)
            rules._fast_rules = cached  # type: ignore[attr-defined]
        return cached

    def act(self, state: State, a: int, rng: np.random.Generator | None = None, events: bool = False,
            wield: Sequence[int] = ()) -> tuple[list[Event] | None, int]:
        """Do candidate action ``a`` on ``state`` exactly as ``Rules.act`` does.

        Returns the events (when ``events``, else None) and what changed: ``UNCHANGED``, ``COUNTS`` (the counts,
        not the candidates) or ``MASK`` (the candidates too). The caller checks that ``a`` is a candidate
        (``state.mask[a]``).
        """
        rules = self.rules
        w = 0
        if not self.single_way[a]:
            ways = rules.action_ways[a]
            way_missing = state.way_missing
            while way_missing[ways[w]]:
                w += 1
        plan = self.plans[a][w]
        counts = state.counts
        deltas: Any
        if plan is not None:
            deltas, found, with_found, used, outputs, moves, places = plan
            if found:
                if len(found) == 1:
                    if not counts[found[0]]:
                        deltas = with_found
                else:
                    deltas = deltas + tuple((r, 1) for r in found if not counts[r])
            if moves:
                place = state.place
                moved = places.get(place)
                if moved is None:
                    moved = places[place] = walk(moves, place)
                state.place = moved
        else:
            deltas, given, members = rules.effects(a, w, counts.__getitem__, rng, state.tries)
            if rules.can_move[a]:
                state.place = rules.moved(a, w, members, given, state.place)
            used, outputs = tuple(members), tuple(given)
        emitted = rules.events(a, w, list(used), list(outputs), state.place,
                               rules.wielded(a, w, wield, counts.__getitem__)) if events else None
        if deltas:
            return emitted, MASK if self.apply(state, deltas) else COUNTS
        return emitted, UNCHANGED

    def apply(self, state: State, deltas: Sequence[tuple[int, int]]) -> bool:
        """Add each (resource, delta) to ``state`` and update its candidate mask (as ``Rules.change``).

        Returns whether the mask changed.
        """
        counts = state.counts
        array = state.array
        virtual = state.virtual
        way_missing = state.way_missing
        ok_ways = state.ok_ways
        mask = state.mask
        way_action = self.rules.way_action
        fan = self.fan
        toggled = False
        for r, delta in deltas:
            counts[r] += delta
            if array is not None:
                array[r] = counts[r]
            for v, weight, thresholds, ways in fan[r]:
                old = virtual[v]
                new = old + delta * weight
                virtual[v] = new
                if not thresholds:
                    continue
                if new > old:
                    for k in range(bisect_right(thresholds, old), bisect_right(thresholds, new)):
                        w = ways[k]
                        way_missing[w] -= 1
                        if way_missing[w] == 0:
                            a = way_action[w]
                            ok_ways[a] += 1
                            if ok_ways[a] == 1:
                                mask[a] = 1
                                toggled = True
                else:
                    for k in range(bisect_right(thresholds, new), bisect_right(thresholds, old)):
                        w = ways[k]
                        if way_missing[w] == 0:
                            a = way_action[w]
                            ok_ways[a] -= 1
                            if ok_ways[a] == 0:
                                mask[a] = 0
                                toggled = True
                        way_missing[w] += 1
        return toggled


class ListState:
    """One ``State`` (lists, as ``Rules`` keeps them) stepped by ``FastRules``: the environment's way without numba.

    It has ``ArrayState``'s interface (``taskverse.textenv.arraystate``): ``counts`` and ``mask`` as arrays (sharing
    the state's own memory), ``load``, ``snapshot``, ``restore``, ``state``, ``step`` and ``act``.
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.fast = FastRules.for_rules(rules)
        self.held = rules.new_state(track=True)
        self._bind()

    def _bind(self) -> None:
        assert self.held.array is not None
        self.counts: np.ndarray = self.held.array
        self.mask: np.ndarray = np.frombuffer(self.held.mask, dtype=np.int8)

    def load(self, state: State) -> None:
        """Hold a copy of ``state`` (which must track its counts in an array)."""
        self.held = state.copy()
        self._bind()

    def snapshot(self) -> State:
        """A copy of the state held."""
        return self.held.copy()

    def restore(self, snapshot: State) -> None:
        """Hold a copy of a ``snapshot``."""
        self.load(snapshot)

    def state(self) -> State:
        """The state held itself (it follows later steps)."""
        return self.held

    def step(self, a: int, rng: np.random.Generator | None = None) -> int:
        """``act`` without events: what changed, or ``INVALID``."""
        held = self.held
        if not held.mask[a]:
            return INVALID
        return self.fast.act(held, a, rng)[1]

    def plain_step(self) -> Callable[[int], int]:
        """``step`` without drawing chance yields, as one call of the action."""
        return self.step

    def act(self, a: int, rng: np.random.Generator | None = None, events: bool = False,
            wield: Sequence[int] = ()) -> tuple[list[Event] | None, int]:
        """``FastRules.act`` on the state held, or ``INVALID`` (nothing done) when ``a`` is no candidate."""
        held = self.held
        if not held.mask[a]:
            return None, INVALID
        return self.fast.act(held, a, rng, events, wield)


def walk(moves: Sequence[Move], place: Place) -> Place:
    """Where ``Rules.moved`` leaves the agent from ``place`` after a fixed plan's steps ``moves``, unrolled."""
    biome, dimension = place
    for r, kind, where_dimension, where_biome, leaves in moves:
        if kind == BIOME:
            biome = r
        elif kind == DIMENSION:
            if r != dimension:
                biome = -1
            dimension = r
        if where_dimension >= 0 and dimension < 0:  # only a trip changes a known dimension
            if where_dimension != dimension and kind != BIOME:
                biome = -1
            dimension = where_dimension
        if where_biome >= 0:
            biome = where_biome
        if leaves:
            biome = -1
    return biome, dimension


def fixed_plan(rules: Rules, a: int, w: int) -> Plan | None:
    """The fixed effects of action ``a``'s way ``w``, or None when they depend on the state or on chance."""
    needs = rules.ways[a][w]
    outputs = rules.way_outputs[a][w]
    n_items = rules.n_items
    if (a, w) in rules.restores:  # an anvil's repair: the wear it takes off depends on the wear
        return None
    if any(o.resource in rules.dimensions for o in outputs):  # a trip: which dimension it leaves depends on the state
        return None
    if not needs and len(outputs) == 1 and outputs[0].resource >= n_items:  # Rules.effects' shortcut for a find
        r = outputs[0].resource
        return (), (r,), ((r, 1),), (), ((r, 1),), _moves(rules, a, needs, (), ((r, 1),)), {}
    deltas: list[tuple[int, int]] = []
    used: list[int] = []
    for need in needs:
        if len(need.members) != 1 or need.weights is not None or need.count < 1:
            return None
        m = need.members[0]
        if need.consume:
            deltas.append((m, -need.count))
        elif not need.presence and need.uses and m in rules.wear_of:
            return None
        used.append(m)
    given: list[tuple[int, int]] = []
    found: list[int] = []
    for out in outputs:
        if out.slot >= 0:
            return None
        if out.count <= 0:
            continue
        if out.resource < n_items:
            given.append((out.resource, out.count))
            deltas.append((out.resource, out.count))
        else:
            given.append((out.resource, 1))
            if out.resource not in found:
                found.append(out.resource)
    with_found = (*deltas, (found[0], 1)) if found else ()
    return (tuple(deltas), tuple(found), with_found, tuple(used), tuple(given), _moves(rules, a, needs, used, given),
            {})


def _moves(rules: Rules, a: int, needs: Sequence[Need], used: Sequence[int], given: Sequence[tuple[int, int]],
           ) -> tuple[Move, ...]:
    """``Rules.moved``'s steps for fixed effects: the presence needs' members, then the things found."""
    if not rules.can_move[a]:
        return ()
    present = [_move_step(rules, r, False) for r, need in zip(used, needs, strict=True) if need.presence]
    return (*present, *(_move_step(rules, r, True) for r, _ in given if r >= rules.n_items))


def _move_step(rules: Rules, r: int, found: bool) -> Move:
    """One ``Rules._at`` as data; a place the rules do not know changes nothing, as ``_at``'s lookups default."""
    kind = ("item", *PRESENCE_KINDS).index(rules.resources[r][0])
    where = rules.places.get(r, (None, None))
    where_dimension = -1 if where[1] is None else rules.index.get(("dimension", where[1]), -1)
    where_biome = -1 if where[0] is None else rules.index.get(("biome", where[0]), -1)
    return r, kind, where_dimension, where_biome, found and kind == DIMENSION


__all__ = ["COUNTS", "INVALID", "MASK", "UNCHANGED", "FastRules", "ListState", "fixed_plan", "walk"]

"""Planning in the text world: shortest plans by A*, and a greedy goal-stack policy.

Both work on the text world's own rules (``world.rules.Rules``) and decide success with the same automaton
(``algebra.tracker.GoalTracker``), so a plan found here is a plan in the environment.

**Costs.** ``CostModel`` estimates, for every resource, what one unit costs from the current holdings (actions
are one step; a batch of four planks shares its step; a found thing or a station is paid once, a tool once and
a share of another for each run it wears), by a fixpoint over the atoms. It orders alternatives; it is not the
search's bound.

**Universe.** A need such as a furnace's fuel accepts some 250 items, and naive relevance pulls in most of the
game (boats to burn, banners, nether trips). The planner therefore searches the actions that can contribute
to the target through alternatives at most ``slack`` steps dearer than the cheapest (keeping at most ``ties``
of equally cheap ones, e.g. two of the nine kinds of wood). Plans are optimal among plans made of these
actions; ``tests/test_textenv_planners.py`` checks them against a brute-force search over all actions.

**Search.** A* over states (inventory, found things, chance-yield counters, goal progress), hashed, with an
admissible heuristic: the fractional cost of the item flow the remaining goal needs beyond what is held, plus
the one-time needs (tools, stations, found things) every way to the goal must go through (landmarks), each
charged the cost of its cheapest first achiever, shared evenly where one action achieves several.
"""

from __future__ import annotations

import heapq
import itertools
import math
import weakref
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import repeat
from typing import TYPE_CHECKING, Any

from taskverse.world.rules import COUNTED_BY_ITEMS, CostModel, Need, Output, Rules, State
from taskverse.world.toolruns import tools_for_run

if TYPE_CHECKING:  # the goal automaton belongs to the algebra, a layer above; the planner only calls it
    from taskverse.algebra.tracker import GoalTracker

INF = math.inf
FUEL_CHOICES = 2
"""How many fuels a plan considers: the cheapest per smelt (held fuel is always considered)."""
FUEL_BATCHES = (1, 24)
"""Smelts a fuel choice is priced for: one, and a long furnace run (coal then beats planks)."""
LONG_RUN = 8
"""Runs of an action its needs' producers are also chosen for (by their marginal cost: setups had already)."""
NARROW_GAP = 2
"""How far above the heuristic's bound (in steps) a first plan still gets an exact search to shorten or prove it."""
TWO_STEP_BUDGET = 25
"""Expansions the exact search gets on a first plan two steps above the bound (one step: the whole budget).

Over the 746 naive craft atoms, the searches that found a shorter plan found it within 19 expansions, and none of
those given 100 found one after 25; the suites' combat tasks spent 3 s each on 100 expansions that proved nothing.
"""
WIDE_GAP_BUDGET = 10_000
"""From this many expansions on, ``best_plan`` also tries to prove a first plan far above the bound."""
TIE_WEIGHT = 1e-12
"""Scale of a secondary cost next to one step: a plan of 2,000 hour-long actions still adds less than 1e-3."""
GREEDY_EFFORT = 20_000
"""Producers one greedy choice may walk before it gives up (the library's choices walk a few hundred at most)."""
EVALUATIONS_PER_STATE = 64
"""Heuristic evaluations a search may make per state of its budget.

A state taken off the queue is evaluated, and counts as expanded only when it is not dropped (dearer than the bound)
or queued again; the evaluations, the dear part, were bounded only by the children of the states expanded (some
hundreds each in a large universe). Over the 746 naive craft atoms and 1,397 naive obtain, trade, combat and hunt
atoms a search evaluates at most 23 states per state it expands (budget 1,000).
"""
FIRST_PLAN_STEPS = 2000
"""The longest first plan the greedy policy makes (longer: it is taken to be going round in circles)."""
FIRST_PLAN_WORK = 200
"""Work units ``best_plan``'s first plan may take per state of its budget: a producer the greedy policy walks, a
step it or ``prune_plan`` takes or replays.

A first plan is not a search, yet it was bounded only by its own limits (2,000 greedy choices of up to
``GREEDY_EFFORT`` walks each, and pruning that replays the plan once for every step it tries to drop), none of them
tied to the budget. Tied to it, a budget of 1,000 states allows 200,000 units: the first plans of the library's 746
naive craft atoms take at most 11,400 and those of its 1,397 naive obtain, trade, combat and hunt atoms at most 29,600
(a coral block's 650 steps), so no plan of the library changes (``tests/test_plan.py`` checks the bound).
"""
FIRST_PLAN_FLOOR = 1000
"""The budget whose first-plan work any budget gets at least: a budget of 0 asks for the first plan alone (the engine's
greedy agent), and a first plan of the library takes at most 29,600 units (``FIRST_PLAN_WORK``)."""
TRIP_NESTING = 2
"""How deep the greedy policy's looks past a trip (``trip_needs``) nest: a look that itself gathers before the trips
it follows, so it sees the wear that gathering takes (all the blaze rods a stone sword kills in one visit), and the
looks inside it that do not."""


def first_plan_work(budget: int) -> int:
    """Work units the first plan of a ``best_plan`` with ``budget`` expansions may take."""
    return max(budget, FIRST_PLAN_FLOOR) * FIRST_PLAN_WORK

StateDict = dict[int, int]
"""A planning state's holdings: resource index -> count (only non-zero), and ``n_resources + slot`` -> tries."""


def holdings(rules: Rules, state: State) -> StateDict:
    """A text-world state as a planning state: its counts, chance-yield counters and place."""
    counts = state.counts  # thousands of resources, a few held: the non-zero ones picked out in C
    items = dict(zip(itertools.compress(range(len(counts)), counts), filter(None, counts), strict=True))
    n = rules.n_resources
    tries = state.tries
    items.update(zip(itertools.compress(range(n, n + len(tries)), tries), filter(None, tries), strict=True))
    biome_key, dimension_key = place_keys(rules)
    if state.place[0] >= 0:
        items[biome_key] = state.place[0] + 1
    if state.place[1] >= 0:
        items[dimension_key] = state.place[1] + 1
    return items


def place_keys(rules: Rules) -> tuple[int, int]:
    """The planning-state keys of the agent's biome and dimension (their values are resource index + 1)."""
    key = rules.n_resources + rules.n_slots
    return key, key + 1


@dataclass
class Universe:
    """The actions a planner considers for one target, and the resources they can use."""

    actions: list[int]
    emitters: dict[int, list[tuple[int, int]]]
    """Leaf index -> (action, events' count per execution) for the actions that can advance that atom."""
    producers: dict[int, list[tuple[int, float]]] = field(default_factory=dict)
    """Resource -> (action, amount per execution) among the universe's actions."""
    fuels: set[int] = field(default_factory=set)
    """The fuels chosen for the universe's fuel needs."""


def wield_of(rules: Rules, tracker: GoalTracker) -> tuple[int, ...]:
    """The tools a target asks to have in hand (``how=with:TOOL``), as item resources (``Rules.wielded``)."""
    needs = wield_needs(rules, tracker)  # per atom; here all of them, in order, each once
    return tuple(dict.fromkeys(r for tools in needs.values() for members, _ in tools for r in members))


def dead_leaves(rules: Rules, tracker: GoalTracker, start: StateDict | None = None) -> dict[int, str]:
    """The atoms of a target no event can ever count for, each with why (see ``infeasibility``).

    With ``start``, also those no action doing them can ever be done from there (``possible_actions``).
    """
    dead: dict[int, str] = {}
    tools = wield_needs(rules, tracker)
    possible = possible_actions(rules, start) if start is not None else None
    for leaf in tracker.leaves:
        able = [a for key in leaf.keys for a in rules.actions_by_key.get(key, ()) if _opens(rules, a, leaf.goal.chest)]
        if not able:
            dead[leaf.index] = f"no action of the text world does '{leaf.atom}'"
        elif (reason := tracker.never_counts(leaf)) is not None:
            dead[leaf.index] = reason
        elif possible is not None and not any(possible[a] for a in able):
            dead[leaf.index] = (f"'{leaf.atom}' needs what nothing gives from this start "
                                f"({_unmet(rules, able, possible)})")
        else:
            for members, name in tools.get(leaf.index, ()):
                if not any(_may_wield(rules, a, members) for a in able):
                    dead[leaf.index] = f"'{leaf.atom}' with {name}: no way to do it has a {name} in hand"
            for c in leaf.constraints:
                if c.where is not None and (elsewhere := _elsewhere(rules, able, c.where)) is not None:
                    dead[leaf.index] = (f"'{leaf.atom}' in {c.where}: every way to do it takes the agent to "
                                        f"{elsewhere}")
    return dead


def _elsewhere(rules: Rules, able: list[int], where: str) -> str | None:
    """Where the actions in ``able`` take the agent, when none can happen at ``where`` (a biome, a dimension).

    The event of an action happens where ``Rules.moved`` puts the agent: a way that mines netherrack or finds a
    nether fortress is in the nether, whatever the agent did before, so it never counts ``in warm_ocean``. Each way
    is moved from every place the agent can be in, with every member of its presence needs and with or without
    each uncertain place it yields. None when one of them ends at ``where``, when ``where`` is a cave or a height,
    or when a way has too many such choices to try.
    """
    biome_target = rules.index.get(("biome", where))
    dimension_target = rules.index.get(("dimension", where))
    if biome_target is None and dimension_target is None:
        return None  # a cave or a height: the text world has no position to prove it by
    kinds = [kind for kind, _ in rules.resources]
    dimensions = [r for r, kind in enumerate(kinds) if kind == "dimension"]
    starts = [(-1, -1), *((-1, d) for d in dimensions)]
    for b in (r for r, kind in enumerate(kinds) if kind == "biome"):
        home = rules.places.get(b, (None, None))[1]
        starts.append((b, rules.index.get(("dimension", home), -1) if home else -1))
    ends: set[int] = set()
    for a in able:
        for w in range(len(rules.ways[a])):
            places = _places_after(rules, a, w, starts)
            if places is None:
                return None
            for biome, dimension in places:
                if biome == biome_target or (biome_target is None and dimension == dimension_target):
                    return None
                ends.add(dimension)
    if not ends or -1 in ends:
        return None
    return " or ".join(sorted(f"the {rules.names[d]}" for d in ends))


MOVE_CHOICES = 256
"""Most member and yield choices of one way ``_elsewhere`` tries; past it the way proves nothing."""


def _places_after(rules: Rules, a: int, w: int, starts: list[tuple[int, int]]) -> set[tuple[int, int]] | None:
    """Every place ``Rules.moved`` can put the agent after way ``w`` of action ``a`` from ``starts``.

    None when the way has more than ``MOVE_CHOICES`` choices of members and uncertain yields to try.
    """
    members = [need.members if need.presence else need.members[:1] for need in rules.ways[a][w]]
    outputs = [o for o in rules.way_outputs[a][w] if o.resource >= rules.n_items]
    sure = [(o.resource, o.count) for o in outputs if o.chance >= 1.0 and o.count >= 1]
    maybe = [(o.resource, o.most) for o in outputs if not (o.chance >= 1.0 and o.count >= 1)]
    if math.prod(len(m) for m in members) << len(maybe) > MOVE_CHOICES:
        return None
    yields = [sure + [p for k, p in enumerate(maybe) if mask >> k & 1] for mask in range(1 << len(maybe))]
    return {rules.moved(a, w, list(used), given, start) for start in starts
            for used in itertools.product(*members) for given in yields}


def possible_actions(rules: Rules, start: StateDict) -> bytearray:
    """Which actions can ever be done from ``start``: a fixpoint that never uses anything up (so it over-counts).

    A resource is reachable when held at the start or given by a possible action; an action is possible when
    one of its ways has a reachable member for every need. What it leaves out can never be done.
    """
    key = frozenset(r for r, c in start.items() if c > 0 and r < rules.n_resources)
    memo: dict[frozenset[int], bytearray] = rules.__dict__.setdefault("_possible_actions", {})
    if key in memo:
        return memo[key]
    index = _need_index(rules)
    unmet = [[len(way) for way in ways] for ways in rules.ways]
    met: set[tuple[int, int, int]] = set()
    possible = bytearray(len(rules.actions))
    reached = bytearray(rules.n_resources)
    queue = list(key)
    for r in queue:
        reached[r] = 1

    def enable(a: int, w: int) -> None:
        possible[a] = 1
        for out in rules.way_outputs[a][w]:
            if not reached[out.resource]:
                reached[out.resource] = 1
                queue.append(out.resource)

    for a, ways in enumerate(rules.ways):
        for w, way in enumerate(ways):
            if not way:
                enable(a, w)
    while queue:
        r = queue.pop()
        for a, w, k in index.get(r, ()):
            if (a, w, k) in met:
                continue
            met.add((a, w, k))
            unmet[a][w] -= 1
            if unmet[a][w] == 0:
                enable(a, w)
    if len(memo) > 64:
        memo.clear()
    memo[key] = possible
    return possible


def _need_index(rules: Rules) -> dict[int, list[tuple[int, int, int]]]:
    """Resource -> the (action, way, need) that accept it; built once per rules."""
    index: dict[int, list[tuple[int, int, int]]] | None = rules.__dict__.get("_need_index")
    if index is None:
        index = {}
        for a, ways in enumerate(rules.ways):
            for w, way in enumerate(ways):
                for k, need in enumerate(way):
                    for m in need.members:
                        index.setdefault(m, []).append((a, w, k))
        rules.__dict__["_need_index"] = index
    return index


def _unmet(rules: Rules, able: list[int], possible: bytearray) -> str:
    """Names of what the first way of the first impossible action needs and nothing gives (for the reason)."""
    reached = {o.resource for a, ok in enumerate(possible) if ok for outs in rules.way_outputs[a] for o in outs}
    for a in able:
        for way in rules.ways[a]:
            missing = [rules.names[need.members[0]] for need in way if not reached & set(need.members)]
            if missing:
                return ", ".join(missing[:3])
    return "its needs"


def _may_wield(rules: Rules, a: int, members: tuple[int, ...]) -> bool:
    """Whether action ``a`` can be done holding one of ``members`` (``Rules.wielded`` with each one carried)."""
    return bool(members) and any(rules.wielded(a, w, members, lambda r: 1) is not None
                                 for w in range(len(rules.ways[a])))


def infeasibility(rules: Rules, tracker: GoalTracker, start: StateDict | None = None) -> str | None:
    """Why a target cannot succeed (from ``start``, if given), proven without a search; None without a proof.

    A target is infeasible when every way to it goes through an atom no event can count for: one no action of the
    rules emits, one whose constraint the episode's conditions never meet (``when=night`` in a world whose
    events all happen in the day), one no way of doing holds the tool ``how=with:`` asks for, or (from ``start``)
    one whose actions need what nothing gives from there (a spawner). The rest is the search's to decide.
    """
    dead = dead_leaves(rules, tracker, start)
    if not dead or tracker.can_succeed(dead.__contains__):
        return None
    return next(iter(dead.values()))


def wield_needs(rules: Rules, tracker: GoalTracker) -> dict[int, list[tuple[tuple[int, ...], str]]]:
    """Per atom of the target, the tools its ``how=with:TOOL`` constraints ask to hold: (the items, the name).

    Each is a one-time need of every action that counts for the atom, as a tool a way keeps is: the heuristic
    charges it as a landmark and the greedy policy gets the tool before the action.
    """
    out: dict[int, list[tuple[tuple[int, ...], str]]] = {}
    for leaf in tracker.leaves:
        for c in leaf.constraints:
            if c.how and c.how.startswith("with:"):
                out.setdefault(leaf.index, []).append((rules.wield_tools([c.how[5:]]), c.how[5:]))
    return out


_naive_choices: weakref.WeakKeyDictionary[
    CostModel, dict[frozenset[int], dict[tuple[int, float, float, int], list[int]]]] = weakref.WeakKeyDictionary()
"""Per cost model and start without items, the producers chosen for an amount of a resource."""
_Expansion = tuple[tuple[tuple[int, float], ...], tuple[int, ...]]
"""What an action's ways within the slack ask of a universe: the (member, amount) pairs whose producers it takes, in
order, and the fuels it chooses."""
_naive_expansions: weakref.WeakKeyDictionary[
    CostModel, dict[frozenset[int], dict[tuple[int, float, int], _Expansion]]] = weakref.WeakKeyDictionary()
"""Per cost model and start without items, what each action adds to a universe (``_Expansion``)."""


def build_universe(rules: Rules, tracker: GoalTracker, costs: CostModel, held: StateDict, slack: float = 1.0,
                   ties: int = 1) -> Universe:
    """The planning universe of a target (see the module docstring)."""
    unit = costs.unit
    action_cost = costs.action

    def cheapest(options: list[tuple[float, int]]) -> list[int]:
        finite = sorted(o for o in options if o[0] < INF)
        if not finite:
            return []
        best = finite[0][0]
        kept: list[int] = []
        level_count: dict[float, int] = {}
        for cost, key in finite:
            if cost > best + slack + 1e-9:
                break
            level = round(cost, 6)
            level_count[level] = level_count.get(level, 0) + 1
            if level_count[level] <= ties:
                kept.append(key)
        return kept

    held_items = any(r < rules.n_items for r in held)
    # From holdings without items (a naive start) the choices below depend on the cost model and the things
    # found alone: shared by the planners for every target from that start.
    shared = _naive_choices.setdefault(costs, {}).setdefault(frozenset(held), {}) if not held_items else None

    made_memo: dict[int, bool] = {}  # asked of every member of every need on the way: once per resource

    def made_from_held(r: int) -> bool:
        """Whether one step makes ``r`` from what is held (birch planks from a held birch log)."""
        if not held or len(rules.producers[r]) > 8:
            return False
        found = made_memo.get(r)
        if found is None:
            found = made_memo[r] = any(all(not n.consume or any(held.get(m, 0) for m in n.members) for n in way)
                                       and any(n.consume for n in way)
                                       for p in rules.producers[r] for way in rules.ways[p])
        return found

    emitters: dict[int, list[tuple[int, int]]] = {}
    queue: list[int] = []
    dead = dead_leaves(rules, tracker)
    tools = wield_needs(rules, tracker)
    counts = tracker.leaf_counts()
    for leaf in tracker.leaves:
        if leaf.index in dead:  # no event can count for it: nothing to do for it
            emitters[leaf.index] = []
            continue
        exact: list[tuple[float, int]] = []
        tagged: list[tuple[float, int]] = []
        # Only actions whose event can count: one that goes far enough ("reach 500 blocks": sailing, not a
        # short walk), one that opens the kind of chest the goal names (a library's, not a corridor's), and, when
        # the goal names a tool, one that holds it.
        able = sorted({a for key in leaf.keys for a in rules.actions_by_key.get(key, ())
                       if _far_enough(rules, a, leaf.goal.value) and _opens(rules, a, leaf.goal.chest)})
        for tool, _ in tools.get(leaf.index, ()):  # done with a tool in hand: the actions that can hold it
            able = [a for a in able if _may_wield(rules, a, tool)]
        biomes = [r for c in leaf.constraints if (r := rules.index.get(("biome", c.where or ""))) is not None]
        # "8 logs in a taiga": the actions that can be done there (spruce logs), when some can
        able = [a for a in able if all(rules.may_happen_in(a, b) for b in biomes)] or able
        holding = [a for a in able if _holds(rules, tracker, a, leaf.goal.using)]
        for a in able:
            if a in holding if holding else _may_hold(rules, a, leaf.goal.using):
                # An action whose target is a tag emits the member it used, which depends on the state: it
                # stands in only where no action names the target itself, unless every member it may use
                # counts (clearing eight weeds at once counts for "mine 8 weeds" whichever weed it breaks).
                goal = rules.goals[a]
                named = goal.target_tag is None and (goal.event, goal.target) in leaf.keys
                named = named or (goal.target_tag is not None
                                  and all((goal.event, t) in leaf.keys for t in goal.target_tag))
                named = named or any(("obtain", rules.names[o.resource]) in leaf.keys for o in rules.outputs[a])
                (exact if named else tagged).append((amount_cost(rules, costs, leaf.keys, a, counts[leaf.index]), a))
        chosen = cheapest(exact or tagged)
        emitters[leaf.index] = [(a, int(_token_yield(rules, a, leaf.keys))) for a in chosen]
        queue += chosen
    # A target constrained to a place needs the actions that take the agent there; one asking for a tool in
    # hand, the actions that make the tool.
    for leaf in tracker.leaves:
        for constraint in leaf.constraints:
            for kind in ("biome", "dimension"):
                r = rules.index.get((kind, constraint.where or ""))
                if r is not None:
                    queue += cheapest([(action_cost[p], p) for p in rules.producers[r]])
    producers: dict[int, list[tuple[int, float]]] = {}
    for r in wield_of(rules, tracker):
        if not held.get(r, 0):
            makers = cheapest([(action_cost[p], p) for p in rules.producers[r]])
            producers[r] = [(p, _amount(rules, p, r)) for p in makers]
            queue += makers
    def expansion(a: int) -> _Expansion:
        """The (member, amount) pairs an action's ways within the slack ask for, in order, and the fuels chosen."""
        pairs: list[tuple[int, float]] = []
        chosen_fuels: list[int] = []
        ways = rules.ways[a]
        way_costs = [m + s for m, s in costs.way_prices[a]]
        best_way = min(way_costs, default=INF)
        for way, cost in zip(ways, way_costs, strict=True):
            if cost > best_way + slack + 1e-9:
                continue
            for need in way:
                amount = float(need.count)  # a kept need's too: a villager's experience is had at its count
                if need.weights is None:
                    options = [(costs.amount_cost(m, amount), m) for m in need.members]
                    members = [m for m in need.members if held.get(m, 0) or made_from_held(m)] + cheapest(options)
                else:
                    # Fuel: some 250 items burn, each a few steps from the start; the cheapest few do, for one
                    # smelt and for a furnace run of many (planks for a smelt, coal for two dozen).
                    members = [m for m in need.members if held.get(m, 0)]
                    for smelts in FUEL_BATCHES:
                        ticks = need.count * smelts
                        # For a long run the setups (a pickaxe for coal) are most likely paid anyway.
                        price = costs.amount_cost if smelts == 1 else costs.marginal_cost
                        per_batch = sorted((price(m, math.ceil(ticks / w)), m)
                                           for m, w in zip(need.members, need.weights, strict=True) if unit[m] < INF)
                        members += [m for _, m in per_batch[:FUEL_CHOICES]]
                    members = list(dict.fromkeys(members))
                    chosen_fuels += members
                pairs += [(m, amount) for m in dict.fromkeys(members)]
        return tuple(pairs), tuple(chosen_fuels)

    # From a naive start an action asks the same of every universe it joins: worked out once per action.
    expansions = _naive_expansions.setdefault(costs, {}).setdefault(frozenset(held), {}) if shared is not None \
        else None
    seen: set[int] = set()
    demanded: set[tuple[int, float]] = set()
    fuels: set[int] = set()
    # The dimension the agent starts in is left only by a trip: the way back is wanted once the universe holds one.
    left_behind: dict[int, float] = {}
    tripped = False
    while queue or (left_behind and tripped):
        if not queue:
            for m, amount in left_behind.items():
                demanded.add((m, amount))
                chosen = cheapest([(costs.batch(p, m, amount), p) for p in rules.producers[m]])
                producers.setdefault(m, []).extend((p, _amount(rules, p, m)) for p in chosen)
                queue += chosen
            left_behind.clear()
            continue
        a = queue.pop()
        if a in seen:
            continue
        seen.add(a)
        tripped = tripped or a in rules.trips
        if expansions is None:
            pairs, chosen_fuels = expansion(a)
        else:
            known = expansions.get((a, slack, ties))
            if known is None:
                known = expansions[(a, slack, ties)] = expansion(a)
            pairs, chosen_fuels = known
        fuels.update(chosen_fuels)
        for m, amount in pairs:
            # The cheapest producers for the amount wanted: a drowned's copper for one ingot, ore and a
            # furnace for nine. Another need wanting another amount adds its own cheapest.
            if (m, amount) in demanded:
                continue
            if m in rules.dimensions and held.get(m, 0):
                left_behind[m] = amount
                continue
            demanded.add((m, amount))
            best = shared.get((m, amount, slack, ties)) if shared is not None else None
            if best is None:
                makers = [p for p in rules.producers[m] if not _recycles(rules, costs, held, p, m)]
                # and the cheapest for a long run of the action, once its setups are had: six red
                # sandstone blocks for six smelts are mined with the pickaxe the furnace needed, not
                # crafted from sand
                best = cheapest([(costs.batch(p, m, amount), p) for p in makers])
                best += cheapest([(costs.run_cost(p, m, amount * LONG_RUN), p) for p in makers])
                if shared is not None:
                    shared[(m, amount, slack, ties)] = best
            chosen = [p for p in dict.fromkeys(best) if p not in {q for q, _ in producers.get(m, [])}]
            producers.setdefault(m, []).extend((p, _amount(rules, p, m)) for p in chosen)
            queue += chosen
    return Universe(sorted(seen), emitters, producers, fuels)


def _far_enough(rules: Rules, a: int, wanted: float | None) -> bool:
    """Whether action ``a``'s event carries at least the value a goal asks for (a distance, a height)."""
    value = rules.goals[a].value
    return wanted is None or (value is not None and value >= wanted)


def _opens(rules: Rules, a: int, chest: str | None) -> bool:
    """Whether action ``a``'s event can count for a goal opening the kind of chest ``chest`` (None: any)."""
    return chest is None or rules.goals[a].chest == chest


def _holds(rules: Rules, tracker: GoalTracker, a: int, wanted: str | None) -> bool:
    """Whether action ``a`` names ``wanted`` (a leaf's ``using``) as the tool it holds for its event.

    Breeding cows and milking one both emit "use cow"; only milking holds a bucket.
    """
    goal = rules.goals[a]
    if wanted is None or (goal.using is None and goal.using_tag is None):
        return False
    held = sorted(goal.using_tag) if goal.using_tag is not None else [goal.using]
    return goal.using == wanted or any(tracker.evaluator._is(name, wanted) for name in held)


def _may_hold(rules: Rules, a: int, wanted: str | None) -> bool:
    """Whether action ``a`` may emit its event with ``wanted`` in hand: it names no tool of its own."""
    goal = rules.goals[a]
    return wanted is None or (goal.using is None and goal.using_tag is None)


def _recycles(rules: Rules, costs: CostModel, held: StateDict, a: int, r: int) -> bool:
    """Whether every way of ``a`` makes ``r`` out of something made of ``r`` (ingots from a block of ingots).

    Such a way is never part of a shortest plan from holdings without the block, and its cycle would make the
    heuristic's derivations branch without end.
    """
    ways = rules.ways[a]
    return bool(ways) and all(_way_recycles(rules, costs, held, way, r) for way in ways)


def _way_recycles(rules: Rules, costs: CostModel, held: StateDict, way: tuple[Need, ...], r: int,
                  any_member: bool = False) -> bool:
    """Whether a way makes ``r`` out of something made of ``r``.

    That is, a need none of whose members is held, each of them made by its cheapest way out of ``r`` (a need for
    ``r`` alone; with ``any_member``, any need that may take ``r``).
    """
    def made_from_r(x: int) -> bool:
        if held.get(x, 0):
            return False
        best_way = costs.cheapest_way(x)
        # Only a need for r itself binds: a fuel or "any wool" need may take r but has other members to take
        # (``any_member``: it counts too).
        return best_way is not None and any(n.consume and (r in n.members if any_member else n.members == (r,))
                                            for n in best_way)

    # A block is a presence need; placed from r, mining it back is the same detour (place a quartz block, mine it).
    return any((n.consume or n.presence) and all(made_from_r(x) for x in n.members) for n in way)


def _amount(rules: Rules, a: int, r: int, sure: bool = False) -> float:
    """Units of ``r`` one run of ``a`` gives: at most, or as a plan counts on (``sure``)."""
    return float(sum(o.sure if sure else o.most for o in rules.outputs[a] if o.resource == r)) or 1.0


def _token_yield(rules: Rules, a: int, keys: frozenset[tuple[str, str]], sure: bool = False) -> float:
    """How much one run of ``a`` counts towards an atom with event keys ``keys``: at most, or as a plan counts on."""
    goal = rules.goals[a]
    targets = goal.target_tag if goal.target_tag is not None else {goal.target}
    # An action obtaining its own yield counts what comes (below): a chance trade gives none on most tries.
    counted = a not in rules.obtains_own and a not in rules.finds_own and any((goal.event, t) in keys for t in targets)
    best: float = goal.count if counted else 0
    for out in rules.outputs[a]:
        if _counts_output(rules, a, out.resource, keys):
            best = max(best, out.sure if sure else out.most)
    return best or 1


def _counts_output(rules: Rules, a: int, r: int, keys: frozenset[tuple[str, str]]) -> bool:
    """Whether an atom with event keys ``keys`` counts the units of ``r`` that action ``a`` makes.

    Its obtain events do, and so does a craft or smelt event, counted by the items made, or a find of a mob an
    action brings about by chance (``Rules.finds_own``), counted by the mobs that came.
    """
    name = rules.names[r]
    event = rules.goals[a].event
    return ("obtain", name) in keys or (event in COUNTED_BY_ITEMS and (event, name) in keys) or \
        (a in rules.finds_own and (event, name) in keys)


class Work:
    """Work a planner's first plan may still do, counted in units (a greedy walk, a replayed step)."""

    def __init__(self, allowance: int) -> None:
        self.left = allowance
        self.spent = 0

    def spend(self, units: int = 1) -> bool:
        """Count ``units`` of work; False when they are more than what is left (then none is: the work stops)."""
        if units > self.left:
            self.left = 0
            return False
        self.charge(units)
        return True

    def charge(self, units: int = 1) -> None:
        """Count ``units`` of work done in any case (what is left stops at none)."""
        self.left = max(0, self.left - units)
        self.spent += units


def _tie_break_model(rules: Rules, tie_break: Sequence[float]) -> CostModel:
    """The empty inventory's cost model in steps, equally short alternatives ordered by ``tie_break``.

    That is ``CostModel.for_rules`` with steps ``1 + TIE_WEIGHT * t``. Every planner of a run passes the same list
    (``game_time_costs``, thousands of actions): the last list's model is kept per rules, with a copy of the list to
    tell it was changed since, instead of building and hashing the steps for every planner.
    """
    last = rules.__dict__.get("_tie_break_model")
    if last is not None and last[0] is tie_break and last[1] == list(tie_break):
        return last[2]  # type: ignore[no-any-return]
    model = CostModel.for_rules(rules, [1.0 + TIE_WEIGHT * t for t in tie_break])
    rules.__dict__["_tie_break_model"] = (tie_break, list(tie_break), model)
    return model


class Planner:
    """Shortest plans for one target from one start (A* with an admissible heuristic, see the module docstring).

    Args:
        rules: The text-world rules.
        tracker: The target as a goal automaton.
        start: The starting holdings (see ``holdings``).
        start_progress: The goal automaton's state at the start (default: nothing done yet).
        slack: How much dearer than the cheapest an alternative may be and still be considered.
        ties: How many equally cheap alternatives to keep.
        max_expansions: Give up (return None) after expanding this many states.
        action_cost: What each action costs (e.g. its game time in frames); None: every action is one step.
            Plans then minimise the total cost, and ``best_plan``'s proof is of the cheapest plan.
        tie_break: With steps as the cost, a secondary cost per action (e.g. its game time) that decides between
            alternatives of equal steps (an oak log found sooner than an acacia one, iron ore before a rare raw
            iron block). It orders the alternatives the planner considers and the greedy policy's choices; the
            search and its proofs stay about steps.
        costs: The cost model that orders alternatives (default: built from the start, in the objective's costs);
            e.g. ``CostModel.lowered`` from a cached one, on a large game.

    """

    def __init__(self, rules: Rules, tracker: GoalTracker, start: StateDict, slack: float = 1.0, ties: int = 1,
                 max_expansions: int = 200_000, start_progress: Any = None,
                 action_cost: Sequence[float] | None = None, tie_break: Sequence[float] | None = None,
                 costs: CostModel | None = None) -> None:
        self.rules = rules
        self.tracker = tracker
        self.unit_cost = action_cost is None
        self.action_cost: Sequence[float] = [1.0] * len(rules.actions) if action_cost is None else action_cost
        # Where the agent is matters only to targets constrained to a place; elsewhere it would only split states.
        self.track_place = any(c.where is not None for leaf in tracker.leaves for c in leaf.constraints)
        self.wield = wield_of(rules, tracker)
        self.place_keys = place_keys(rules)
        self.start = self.normalize(start)
        self.start_progress = tracker.initial() if start_progress is None else start_progress
        held = [r for r in start if r < rules.n_resources]
        naive = set(held) <= {rules.index[("dimension", "overworld")]}
        if costs is not None:
            self.costs = costs
        elif action_cost is not None:  # alternatives are priced in the objective's own costs
            self.costs = CostModel(rules, held or [rules.index[("dimension", "overworld")]], action_cost)
        elif tie_break is not None:  # steps first, then the secondary cost among equally short alternatives
            base = _tie_break_model(rules, tie_break)
            self.costs = base if naive else CostModel.lowered(base, held)
        else:  # from held items: lowered from the empty inventory's model (settled once per rules)
            self.costs = CostModel.for_rules(rules) if naive else CostModel.lowered(CostModel.for_rules(rules), held)
        self.universe = build_universe(rules, tracker, self.costs, self.start, slack, ties)
        self.max_expansions = max_expansions
        self.expanded = 0
        self.evaluated = 0
        self.work = Work(0)
        """What ``best_plan``'s first plan (greedy choices and pruning) spent of its allowance, the last time."""
        self._relevant: dict[int, bool] = {}
        self.emitter_orders: dict[tuple[int, int], list[tuple[int, int]]] = {}
        """Per leaf and count left, its emitters cheapest first for that count (``greedy_choice``)."""
        self._compile()

    def _compile(self) -> None:
        rules = self.rules
        uni = self.universe
        self.actions = uni.actions
        # One-time needs (kept items, found things) of the universe's actions are the landmark candidates.
        one_time: dict[tuple[int, ...], int] = {}
        steps = [_compile_step(rules, a) for a in uni.actions]
        for kept, _, _, _ in steps:
            for members in kept:
                one_time.setdefault(members, len(one_time))
        self.wield_needs = {leaf: [Need(members, 1, False, False, -1) for members, _ in tools if members]
                            for leaf, tools in wield_needs(rules, self.tracker).items()}
        for needs in self.wield_needs.values():
            for need in needs:
                one_time.setdefault(need.members, len(one_time))
        self.one_time = one_time
        self.one_time_members = list(one_time)
        self.tool_kinds = frozenset(m for kept in one_time for m in kept if m < rules.n_items)
        """Every item some one-time need takes (tools and stations: a fuel's table), for the spoil check."""
        self._cones: dict[int, int] | None = None
        self.flow_memo: dict[Any, tuple[float, int]] = {}
        self.achievers: list[list[int]] = [
            sorted({a for m in members for a, _ in uni.producers.get(m, ())}) for members in self.one_time_members]
        self.all_bits = (1 << len(one_time)) - 1
        self._lm_cache: dict[frozenset[int], tuple[int, dict[int, float]]] = {}
        self._h_cache: dict[Any, float] = {}
        triggers: dict[int, list[int]] = {}
        self.always: list[int] = []
        for a, (_, firsts, always, _) in zip(uni.actions, steps, strict=True):
            if always:
                self.always.append(a)
                continue
            for members in firsts:
                for m in members:
                    triggers.setdefault(m, []).append(a)
        self.triggers = triggers
        # An action serving several things the goal needs is charged to each a share of its cost (admissible).
        demanded = set(uni.producers)
        serves: dict[int, int] = {}
        for a, (_, _, _, made) in zip(uni.actions, steps, strict=True):
            serves[a] = len(made & demanded)
        for emitters in uni.emitters.values():
            for a, _ in emitters:
                serves[a] = serves.get(a, 0) + 1
        self.share = {a: 1.0 / max(1, n) for a, n in serves.items()}
        # Runs needed for chance yields: (sure units per run, chance slot, the uncertain output).
        self.supply: dict[tuple[int, int], tuple[float, int, Output | None]] = {}
        for r, options in uni.producers.items():
            for a, _ in options:
                self.supply[(a, r)] = _supply(rules, a, r)
        # Emitters whose goal counts what came by chance (a trade for an offer a wandering trader has 1 time in 6):
        # their runs are bounded by the yield's sure total, as supplies are (``_Flow.runs``).
        self.counted_chance: dict[tuple[int, int], Output] = {}
        for leaf, emitters in uni.emitters.items():
            keys = self.tracker.leaves[leaf].keys
            for a, _ in emitters:
                own = rules.own_yield(a)
                counted = [o for o in rules.outputs[a] if _counts_output(rules, a, o.resource, keys)]
                if own is not None and own.slot >= 0 and counted == [own]:
                    self.counted_chance[(leaf, a)] = own

    def cone(self, r: int) -> int:
        """Every holding (and chance counter) the heuristic may read to derive ``r``, as a bit set of indices."""
        cones = self._cones
        if cones is None:
            cones = self._cones = self._all_cones()
        return cones.get(r, 1 << r)

    def _all_cones(self) -> dict[int, int]:
        """Each derivable resource's cone, in one pass over the producer graph.

        Tarjan's algorithm gives each strongly connected component after every component it reaches, so a
        component's cone is its own bits and theirs.
        """
        producers = self.universe.producers
        succ: dict[int, list[int]] = {}
        own: dict[int, int] = {}
        for x, options in producers.items():
            bits = 1 << x
            reads: frozenset[int] | set[int] = frozenset()
            for a, _ in options:
                a_bits, a_reads = _cone_step(self.rules, a)
                bits |= a_bits
                reads = a_reads if not reads else reads | a_reads
            own[x] = bits
            succ[x] = list(producers.keys() & reads)  # (any order: the components and their cones are the same)
        cones: dict[int, int] = {}
        index: dict[int, int] = {}
        low: dict[int, int] = {}
        stack: list[int] = []
        on_stack: set[int] = set()
        for root in succ:
            if root in index:
                continue
            work = [(root, 0)]
            while work:
                v, i = work.pop()
                if i == 0:
                    index[v] = low[v] = len(index)
                    stack.append(v)
                    on_stack.add(v)
                edges = succ[v]
                while i < len(edges):
                    w = edges[i]
                    i += 1
                    if w not in index:
                        work.append((v, i))
                        work.append((w, 0))
                        break
                    if w in on_stack:
                        low[v] = min(low[v], index[w])
                else:
                    if low[v] == index[v]:
                        members = []
                        while True:
                            w = stack.pop()
                            on_stack.discard(w)
                            members.append(w)
                            if w == v:
                                break
                        bits = 0
                        for w in members:
                            bits |= own[w]
                            for x in succ[w]:
                                bits |= cones.get(x, 0)  # a reached component's cone (its own: not yet set)
                        for w in members:
                            cones[w] = bits
                    if work:
                        parent = work[-1][0]
                        low[parent] = min(low[parent], low[v])
        return cones

    # -- states ------------------------------------------------------------------------------------------------

    def enabled_way(self, a: int, state: StateDict) -> int | None:
        """The way the environment would use for action ``a`` in ``state`` (None: not a candidate)."""
        for w, way in enumerate(self.rules.ways[a]):
            for need in way:
                members = need.members
                if len(members) == 1 and need.weights is None:  # (``_credit``'s commonest case, inline)
                    if state.get(members[0], 0) < need.count:
                        break
                elif _credit(need, state) < need.count:
                    break
            else:
                return w
        return None

    def candidates(self, state: StateDict) -> list[tuple[int, int]]:
        """The universe's candidate actions in ``state`` with the way each would use."""
        seen: set[int] = set()
        out = []
        for a in itertools.chain(self.always, *(self.triggers.get(r, ()) for r in state)):
            if a in seen:
                continue
            seen.add(a)
            w = self.enabled_way(a, state)
            if w is not None:
                out.append((a, w))
        return out

    def normalize(self, state: StateDict) -> StateDict:
        """A planning state as this planner keeps it (without the place when the target does not care)."""
        if self.track_place:
            return dict(state)
        return {k: v for k, v in state.items() if k not in self.place_keys}

    def apply(self, state: StateDict, progress: Any, a: int, w: int) -> tuple[StateDict, Any]:
        """The successor of (state, progress) under action ``a`` by way ``w`` (chance yields as planned: sure)."""
        rules = self.rules
        n = rules.n_resources
        tries = _Tries(state, n)
        deltas, outputs, used = rules.effects(a, w, lambda r: state.get(r, 0), None, tries)
        child = dict(state)
        for r, d in deltas:
            value = child.get(r, 0) + d
            if value:
                child[r] = value
            else:
                child.pop(r, None)
        child.update(tries.changed)
        relevant = self._relevant.get(a)
        if relevant is None:  # whether the action's events can count for the target: fixed per action
            relevant = self._relevant[a] = bool(rules.action_keys[a] & self.tracker.keys)
        if self.track_place or relevant:
            biome_key, dimension_key = self.place_keys
            place = (state.get(biome_key, 0) - 1, state.get(dimension_key, 0) - 1)
            if rules.can_move[a]:
                place = rules.moved(a, w, used, outputs, place)
            if self.track_place and rules.can_move[a]:
                for key, value in zip(self.place_keys, place, strict=True):
                    if value >= 0:
                        child[key] = value + 1
                    else:
                        child.pop(key, None)
            if relevant:
                wielded = rules.wielded(a, w, self.wield, lambda r: state.get(r, 0))
                progress = self.tracker.feed(progress, rules.events(a, w, used, outputs, place, wielded))
        return child, progress

    # -- heuristic ---------------------------------------------------------------------------------------------

    def heuristic(self, state: StateDict, progress: Any, key: Any = None) -> float:
        """An admissible estimate of the steps left, rounded up (INF when the universe cannot reach the goal).

        A failed target (something to avoid was done) is a dead end: INF.
        """
        if self.tracker.failed(progress):
            return INF
        remaining = self.tracker.remaining(progress)
        if remaining is None:
            return 0.0
        if key is None:
            key = (_freeze(state), progress)
        cached = self._h_cache.get(key)
        if cached is not None:
            return cached
        evaluator = _Flow(self, state)
        flow, marks = evaluator.goal(remaining)
        if flow == INF:
            value = INF
        elif self.unit_cost:  # plans are whole steps
            value = float(math.ceil(flow + evaluator.landmark_cost(marks) - 1e-6))
        else:
            value = max(0.0, flow + evaluator.landmark_cost(marks) - 1e-6)
        self._h_cache[key] = value
        return value

    # -- search ------------------------------------------------------------------------------------------------

    def solve(self, upper: float | None = None, weight: float = 1.0,
              max_expansions: int | None = None) -> tuple[list[int] | None, bool]:
        """Search for a plan shorter than ``upper`` (any plan if None).

        With ``weight`` 1 this is A*: the plan found is a shortest (cheapest) one. A larger weight orders the
        search by ``g + weight * h`` (faster, not shortest). Returns (plan or None, whether the search was
        exhaustive): None with True means there is no plan cheaper than ``upper`` in the universe. The search
        stops unfinished after ``max_expansions`` expansions or ``EVALUATIONS_PER_STATE`` times as many heuristic
        evaluations.
        """
        budget = self.max_expansions if max_expansions is None else max_expansions
        start_progress = self.start_progress
        if self.tracker.done(start_progress):
            return [], True
        start_key = (_freeze(self.start), start_progress)
        h0 = self.heuristic(self.start, start_progress, start_key)
        bound = INF if upper is None else upper
        if h0 >= bound:
            return None, True
        counter = itertools.count()
        # Children are queued with a bound inherited from their parent and get their own heuristic only when they
        # come up (deferred evaluation): most children are never expanded, and the heuristic is the dear part.
        # h(parent) - cost(a) bounds h*(child) from below whenever h is admissible, so A* stays exact.
        open_heap: list[tuple[float, float, int, Any, float]] = [(weight * h0, 0.0, next(counter), start_key, h0)]
        nodes: dict[Any, tuple[StateDict, Any, float, Any, int]] = {start_key: (self.start, start_progress, 0.0, None,
                                                                              -1)}
        closed: set[Any] = set()
        expanded = 0
        evaluated = 0
        while open_heap:
            f, neg_g, _, key, h = heapq.heappop(open_heap)
            if key in closed:
                continue
            state, progress, g, _, _ = nodes[key]
            if -neg_g != g:
                continue
            if h < 0:  # deferred: evaluate now, and queue again if the node turns out dearer than it looked
                evaluated += 1
                self.evaluated += 1
                if evaluated > EVALUATIONS_PER_STATE * (budget + 1):
                    return None, False
                h = self.heuristic(state, progress, key)
                if g + h >= bound:
                    continue
                if g + weight * h > f + 1e-9:
                    heapq.heappush(open_heap, (g + weight * h, neg_g, next(counter), key, h))
                    continue
            if self.tracker.done(progress):  # reached with costs: the cheapest goal is the first one expanded
                return self._plan(nodes, key), True
            closed.add(key)
            expanded += 1
            self.expanded += 1
            if expanded > budget:
                return None, False
            for a, w in self.candidates(state):
                child, child_progress = self.apply(state, progress, a, w)
                child_key = (_freeze(child), child_progress)
                if child_key in closed:
                    continue
                cost = self.action_cost[a]
                g2 = g + cost
                old = nodes.get(child_key)
                if old is not None and old[2] <= g2:
                    continue
                done = self.tracker.done(child_progress)
                if self.unit_cost and done:
                    # Safe to stop at generation: every state that is not a goal has h >= 1.
                    if g2 < bound:
                        nodes[child_key] = (child, child_progress, g2, key, a)
                        return self._plan(nodes, child_key), True
                    continue
                if done:
                    child_h = 0.0
                elif self.tracker.failed(child_progress):
                    continue
                else:
                    cached = self._h_cache.get(child_key)
                    child_h = cached if cached is not None else -1.0
                known = max(0.0, h - cost) if child_h < 0 else child_h
                if self.unit_cost:
                    known = max(known, 1.0) if not done else known
                if g2 + known >= bound or known == INF:
                    continue
                nodes[child_key] = (child, child_progress, g2, key, a)
                heapq.heappush(open_heap, (g2 + weight * known, -g2, -next(counter), child_key, child_h))
        return None, True

    def best_plan(self, budget: int | None = None) -> tuple[list[int] | None, bool]:
        """The cheapest plan the search can prove, else the best found: (plan, proven cheapest).

        The greedy policy gives a first plan (its ``careful`` variant when the rule finds none: over the library's
        atoms it finds none either, so only an engine game's recycling recipes need it), pruned of the steps it
        can do without (``prune_plan``). When it is
        within two steps (or their cost) of the heuristic's lower bound, A* bounded by it gets the whole
        ``budget`` of expansions to find a cheaper plan or prove none exists. A first plan further above the
        bound is returned unproven: measured over 120 naive craft atoms, a weighted A* of 50 expansions per such
        plan shortened them by 25 steps in all (0.5%) and tripled the median planning time. A caller granting
        ``WIDE_GAP_BUDGET`` expansions or more (a test) gets a weighted A* of a
        fifth of them and then A* on wide gaps too. With no first plan, a weighted A* looks for one with the
        whole budget. The first plan's own work (greedy walks, pruning's replays) is bounded by the budget too:
        ``FIRST_PLAN_WORK`` units a state.
        """
        budget = self.max_expansions if budget is None else budget
        work = self.work = Work(first_plan_work(budget))  # the first plan's work grows with the budget, no more
        incumbent = greedy_plan(self, limit=FIRST_PLAN_STEPS, work=work)
        if incumbent is None:
            incumbent = greedy_plan(self, limit=FIRST_PLAN_STEPS, careful=True, work=work)
        h0 = self.heuristic(self.start, self.start_progress)
        if incumbent is not None and self.unit_cost:  # no plan is shorter than the bound: pruning stops there
            incumbent = prune_plan(self, incumbent, floor=h0 if h0 < INF else 0.0, work=work)
        if h0 == INF:
            return incumbent, False
        if incumbent is None:
            found, exhaustive = self.solve(None, weight=2.0, max_expansions=budget)
            if found is None:
                return None, exhaustive
            incumbent = found
        if self.cost_of(incumbent) <= h0 + 1e-9:
            return incumbent, True
        gap = self._gap(incumbent, h0)
        if 1 < gap <= NARROW_GAP and budget < WIDE_GAP_BUDGET:
            budget = min(budget, TWO_STEP_BUDGET)
        if gap > NARROW_GAP:
            if budget < WIDE_GAP_BUDGET:
                return incumbent, False
            found, _ = self.solve(self.cost_of(incumbent), weight=2.0, max_expansions=budget // 5)
            if found is not None:
                incumbent = found
                if self.cost_of(incumbent) <= h0 + 1e-9:
                    return incumbent, True
        found, exhaustive = self.solve(self.cost_of(incumbent), max_expansions=budget)
        if found is not None:
            return found, True
        return incumbent, exhaustive

    def _gap(self, plan: Sequence[int], bound: float) -> float:
        """How far a plan is above a lower bound, in steps (or in its average step's cost)."""
        step = 1.0 if self.unit_cost or not plan else self.cost_of(plan) / len(plan)
        return (self.cost_of(plan) - bound) / step

    def cost_of(self, plan: Sequence[int]) -> float:
        """What a plan costs: its length, or the sum of its actions' costs."""
        return float(len(plan)) if self.unit_cost else float(sum(self.action_cost[a] for a in plan))

    @staticmethod
    def _plan(nodes: dict[Any, tuple[StateDict, Any, float, Any, int]], key: Any) -> list[int]:
        plan: list[int] = []
        while True:
            _, _, _, parent, action = nodes[key]
            if parent is None:
                return plan[::-1]
            plan.append(action)
            key = parent


def _freeze(state: StateDict) -> tuple[tuple[int, int], ...]:
    return tuple(sorted(state.items()))


class _Tries:
    """Chance-yield counters of a planning state, as the list-like ``Rules.effects`` advances."""

    def __init__(self, state: StateDict, offset: int) -> None:
        self.state = state
        self.offset = offset
        self.changed: dict[int, int] = {}

    def __getitem__(self, slot: int) -> int:
        key = self.offset + slot
        return self.changed.get(key, self.state.get(key, 0))

    def __setitem__(self, slot: int, value: int) -> None:
        self.changed[self.offset + slot] = value


class _Flow:
    """One evaluation of the heuristic in one state: flow costs and landmarks (memoised per state)."""

    def __init__(self, planner: Planner, state: StateDict) -> None:
        self.p = planner
        self.state = state
        self.items = sorted(state.items())
        self.busy: set[int] = set()
        self.once_memo: dict[tuple[int, ...], tuple[bool, int]] = {}
        self.achiever_memo: dict[int, tuple[float, int]] = {}
        self.credits: dict[int, int] = {}
        self.local: dict[tuple[int, float], tuple[float, int]] = {}

    def goal(self, node: Any) -> tuple[float, int]:
        """(flow cost, landmark bits) of a remaining-goal tree."""
        kind = node[0]
        if kind == "leaf":
            _, leaf, count = node
            best, marks = INF, self.p.all_bits
            for a, per in self.p.universe.emitters.get(leaf, ()):
                out = self.p.counted_chance.get((leaf, a))
                cost, lm = self.action(a, count / per if out is None else self.chance_runs(out, count))
                best = min(best, cost * self.p.share.get(a, 1.0))
                marks &= lm
            for need in self.p.wield_needs.get(leaf, ()):  # the tool asked for in hand, as a kept need
                reachable, lm = self.one_time(need)
                if not reachable:
                    best = INF
                marks |= lm
            return best, (marks if best < INF else self.p.all_bits)
        parts = [self.goal(child) for child in node[1]]
        if kind == "all":
            return sum(c for c, _ in parts), _union(m for _, m in parts)
        best = min(c for c, _ in parts)
        marks = self.p.all_bits
        for _, m in parts:
            marks &= m
        return best, marks

    def action(self, a: int, executions: float) -> tuple[float, int]:
        """Cost of ``executions`` (fractional) runs of an action, and the landmarks it needs."""
        best, marks = INF, self.p.all_bits
        for way in self.p.rules.ways[a]:
            cost = executions * self.p.action_cost[a]
            lm = 0
            for need in way:
                if need.consume:
                    c, m = self.need(need, executions * need.count)
                    cost += c
                    lm |= m
                else:
                    reachable, m = self.one_time(need)
                    if not reachable:
                        cost = INF
                    lm |= m
                if cost == INF:
                    lm = self.p.all_bits  # an impossible way constrains nothing
                    break
            if cost < best:
                best = cost
            marks &= lm
        return best, marks

    def need(self, need: Need, amount: float) -> tuple[float, int]:
        get = self.state.get
        credit = self.credits.get(need.virtual)
        if credit is None:
            credit = self.credits[need.virtual] = _credit(need, self.state)
        if credit >= amount - 1e-9:
            return 0.0, 0
        deficit = amount - credit
        best, marks = INF, self.p.all_bits
        producers, fuels = self.p.universe.producers, self.p.universe.fuels  # (a fuel need: 250 members)
        per = need.weights or (1,) * len(need.members)
        for m, weight in zip(need.members, per, strict=True):
            if m in producers or get(m, 0):
                if weight > 1 and not get(m, 0) and m not in fuels:
                    continue
                cost, lm = self.resource(m, deficit / weight + get(m, 0))
                if cost < best:
                    best = cost
                marks &= lm
        return best, marks

    def runs(self, a: int, r: int, deficit: float) -> float:
        """A lower bound on the runs of ``a`` that give ``deficit`` more units of ``r``.

        A chance yield's sure total never runs above the line ``x t + b`` (``x`` its average per run, ``b`` its
        ``chance.excess``): ``t0`` runs in, it has given ``D0``, and gives ``deficit`` more after ``t`` runs only
        if ``t >= (deficit + D0 - b) / x - t0``; the bound stays additive over the branches that share the yield
        because the offset ``(D0 - b) / x - t0`` is never positive.
        """
        per, _, out = self.p.supply.get((a, r), (1.0, -1, None))
        if out is None:
            return deficit / per
        return self.chance_runs(out, deficit)

    def chance_runs(self, out: Output, deficit: float) -> float:
        """A lower bound on the runs that give ``deficit`` more units of a chance yield (``runs``' linear bound)."""
        t0 = self.state.get(self.p.rules.n_resources + out.slot, 0)
        return max(0.0, (deficit + out.sure_total(t0) - out.excess) / out.expected - t0)

    def one_time(self, need: Need) -> tuple[bool, int]:
        """Whether a one-time need can be met, and the landmark bits it adds (none if met now)."""
        # Computed under cut cycles the answer is only more optimistic (see ``resource``): shared per state.
        cached = self.once_memo.get(need.members)
        if cached is None:
            cached = self.once_memo[need.members] = self._one_time(need)
        return cached

    def _one_time(self, need: Need) -> tuple[bool, int]:
        get = self.state.get
        if any(get(m, 0) for m in need.members):
            return True, 0
        bit = self.p.one_time.get(need.members)
        marks = self.p.all_bits
        reachable = False
        for m in need.members:
            if m in self.p.universe.producers:
                cost, lm = self.resource(m, 1.0)
                if cost < INF:
                    reachable = True
                    marks &= lm
        return reachable, marks | (0 if bit is None else 1 << bit)

    def resource(self, r: int, amount: float) -> tuple[float, int]:
        """Cost to hold ``amount`` of ``r`` (beyond what is held), and the landmarks on the way."""
        have = self.state.get(r, 0)
        if have >= amount - 1e-9:
            return 0.0, 0
        busy = self.busy
        if r in busy:
            # A derivation through r itself: cut the cycle at no cost. Cutting only lowers the estimate, so
            # every value computed here, in any context, bounds the true cost from below and may be shared.
            return 0.0, 0
        local_key = (r, amount)
        cached = self.local.get(local_key)
        if cached is not None:
            return cached
        # The answer depends only on the holdings r's derivations can read (its cone): shared across states.
        cone = self.p.cone(r)
        key = (r, round(amount, 6), tuple(kv for kv in self.items if cone >> kv[0] & 1))
        memo = self.p.flow_memo
        cached = memo.get(key)
        if cached is not None:
            self.local[local_key] = cached
            return cached
        busy.add(r)
        deficit = amount - have if r < self.p.rules.n_items else 1.0
        best, marks = INF, self.p.all_bits
        share = self.p.share
        for a, _ in self.p.universe.producers.get(r, ()):
            cost, lm = self.action(a, self.runs(a, r, deficit))
            cost *= share.get(a, 1.0)
            if cost < best:
                best = cost
            marks &= lm
        busy.discard(r)
        if len(memo) > 500_000:
            memo.clear()
        memo[key] = self.local[local_key] = (best, marks)
        return best, marks

    def landmark_cost(self, marks: int) -> float:
        """The cost of the landmarks in ``marks``: each charged its cheapest first achiever (shared evenly)."""
        if not marks:
            return 0.0
        p = self.p
        achievers: dict[int, list[tuple[int, float]]] = {}
        memo = self.achiever_memo
        bit = 0
        rest = marks
        while rest:
            if rest & 1:
                options = []
                for a in p.achievers[bit]:
                    found = memo.get(a)
                    if found is None:
                        found = memo[a] = self.action(a, 1.0)
                    cost, lm = found
                    if cost < INF and not lm >> bit & 1:
                        options.append((a, cost))
                achievers[bit] = options
            rest >>= 1
            bit += 1
        share: dict[int, int] = {}
        for options in achievers.values():
            for a, _ in options:
                share[a] = share.get(a, 0) + 1
        total = 0.0
        for options in achievers.values():
            total += min((cost / share[a] for a, cost in options), default=0.0)
        return total


_CompileStep = tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...], bool, frozenset[int]]


def _compile_step(rules: Rules, a: int) -> _CompileStep:
    """What ``Planner._compile`` reads of action ``a``, fixed per rules: worked out once per action.

    The members of its one-time needs (kept and presence, in the order of its ways and needs), those of the first
    need of each way (what can make it a candidate), whether some way needs nothing, and what it yields.
    """
    steps: list[_CompileStep | None] | None = rules.__dict__.get("_compile_steps")
    if steps is None:
        steps = rules.__dict__["_compile_steps"] = [None] * len(rules.actions)
    found = steps[a]
    if found is None:
        ways = rules.ways[a]
        kept = tuple(need.members for way in ways for need in way if not need.consume)
        firsts = tuple({need.members for way in ways for need in way[:1]})
        found = steps[a] = (kept, firsts, any(not way for way in ways),
                            frozenset(o.resource for o in rules.outputs[a]))
    return found


def _supply(rules: Rules, a: int, r: int) -> tuple[float, int, Output | None]:
    """Units of ``r`` a run of ``a`` surely gives, or its chance slot and output (``Planner.supply``); memoised."""
    memo: dict[tuple[int, int], tuple[float, int, Output | None]] = rules.__dict__.setdefault("_supplies", {})
    found = memo.get((a, r))
    if found is None:
        sure = float(sum(o.count for o in rules.outputs[a] if o.resource == r and o.slot < 0))
        chancy = [o for o in rules.outputs[a] if o.resource == r and o.slot >= 0]
        several_ways = len(rules.way_outputs[a]) > 1
        if sure or len(chancy) != 1 or several_ways:
            found = (sure + sum(o.most for o in chancy) or 1.0, -1, None)
        else:
            found = (0.0, chancy[0].slot, chancy[0])
        memo[(a, r)] = found
    return found


def _cone_step(rules: Rules, a: int) -> tuple[int, frozenset[int]]:
    """What deriving with action ``a`` reads: the bits of its needs' members and chance counters, and the members.

    Fixed per rules (a fuel need alone has some 250 members), worked out once per action for every planner's cones.
    """
    steps: list[tuple[int, frozenset[int]] | None] | None = rules.__dict__.get("_cone_steps")
    if steps is None:
        steps = rules.__dict__["_cone_steps"] = [None] * len(rules.actions)
    found = steps[a]
    if found is None:
        n = rules.n_resources
        bits = 0
        for o in rules.outputs[a]:
            if o.slot >= 0:
                bits |= 1 << (n + o.slot)
        reads = frozenset(m for way in rules.ways[a] for need in way for m in need.members)
        for m in reads:
            bits |= 1 << m
        found = steps[a] = (bits, reads)
    return found


_MEMBER_SETS: dict[tuple[int, ...], frozenset[int]] = {}
_WEIGHTS: dict[tuple[tuple[int, ...], tuple[int, ...]], dict[int, int]] = {}


def _member_set(members: tuple[int, ...]) -> frozenset[int]:
    """A need's members as a set, made once per member tuple."""
    group = _MEMBER_SETS.get(members)
    if group is None:
        group = _MEMBER_SETS[members] = frozenset(members)
    return group


def _credit(need: Need, state: StateDict) -> int:
    """How many of a need's members are held, in the need's units (walks the smaller of the two)."""
    members = need.members
    if len(members) == 1 and need.weights is None:  # the commonest need: one item, one tool, one place
        return state.get(members[0], 0)
    if need.weights is not None:
        weights = _WEIGHTS.get((members, need.weights))
        if weights is None:
            weights = _WEIGHTS[(members, need.weights)] = dict(zip(members, need.weights, strict=True))
        if len(state) < len(members):  # a fuel need accepts some 250 items: walk the holdings instead
            return sum(c * weights[r] for r, c in state.items() if r in weights)
        get = state.get
        return sum(get(m, 0) * w for m, w in weights.items())
    if len(members) <= 4 or len(members) <= len(state):
        return sum(map(state.get, members, repeat(0)))  # get(m, 0) for each member, at C speed
    group = _member_set(members)
    return sum(c for r, c in state.items() if r in group)


def _union(marks: Iterable[int]) -> int:
    out = 0
    for m in marks:
        out |= m
    return out


def greedy_choice(planner: Planner, state: StateDict, progress: Any, careful: bool = False,
                  work: Work | None = None, looking_ahead: int = TRIP_NESTING) -> int | None:
    """The greedy policy's action: work down from the target to the first thing that can be done now.

    Pick the part of the target left to do (in order for ``>>``, the cheapest of ``|``), the cheapest action
    that advances it, and, while that action is not a candidate, the cheapest producer of the dearest unmet
    need of its cheapest way (a producer whose tools and found things are at hand counts no setup). An action
    that would use up what a step above is collecting (smelting green dye
    with the green wool as fuel), or the last of a tool or station a step above keeps (smelting the gold for a
    golden apple with the crafting table it is crafted on as fuel), counts as not possible yet: its need is met
    some other way first (a log to burn). Costs come from ``CostModel`` (a dependency-graph rank that counts
    batches). A tool that wears is chosen for the run it serves: the uses the target still asks of the action,
    and of a producer the runs that feed them (``members_for_run``, ``rules.tool_run_price``).

    ``careful`` (``best_plan``'s second try when the rule above finds nothing) also passes over a way that makes
    the wanted item out of something made of it (white wool from dyed wool, itself dyed from white wool), leaves
    a way as soon as one of its needs cannot be pursued instead of working on its other needs, and pursues an
    action at most once a choice: a web of recipes that recycle each other (an engine game's dyes, wool and beds)
    then neither sends the rule round in circles nor down every path of the web.

    A trip chosen when nothing else is left to gather here is first checked for what the plan would come back
    for (``trip_needs``): the spares wear on the other side will need, and the items only this side gives that
    a later visit would gather, are got before leaving. ``looking_ahead``: how deep those checks nest (0, a
    check's own look at the other side, skips it; see ``TRIP_NESTING``).

    ``work``: an allowance each producer walked counts against; the choice gives up (None) when it runs out.
    """
    if work is not None:  # (a walk that may give up: not remembered)
        return _greedy_choice(planner, state, progress, careful, work, looking_ahead)
    # Without an allowance the choice depends on the state alone: remembered, as the looks past a trip walk the
    # policy over the same states again (the plan's own, and each other's).
    memo: dict[Any, int | None] = _planner_memo(planner, "_choice_memo")
    key = (_state_key(state), progress, careful, looking_ahead)
    if key in memo:
        return memo[key]
    choice = _greedy_choice(planner, state, progress, careful, None, looking_ahead)
    _planner_memo(planner, "_choice_memo", _CHOICE_MEMO)[key] = choice
    return choice


_CHOICE_MEMO = 65536
"""Greedy choices remembered per planner (``greedy_choice``) before the memo starts afresh."""


def _state_key(state: StateDict) -> frozenset[tuple[int, int]]:
    """A state as the planner's memos key it: unordered, as equal states are equal dictionaries.

    The looks past a trip ask the memos at every step they walk: a frozen set is made without sorting the
    holdings (``_freeze``'s order is for the search's own keys) and keeps its hash once worked out.
    """
    return frozenset(state.items())


def _planner_memo(planner: Planner, name: str, bound: int | None = None) -> dict[Any, Any]:
    """The planner's memo ``name``; with ``bound`` (about to add to it), started afresh once past that many entries.

    A memo lives on the planner (one target, one start) and dies with it; a long plan's is kept bounded. It starts
    afresh only as an entry is added, never between a look-up and the steps that follow it: the looks past a trip
    carry a gathering in progress from state to state in theirs (``_remember_trip``), and a gathering forgotten
    half-way is taken afresh, which can give another plan.
    """
    memo: dict[Any, Any] = planner.__dict__.setdefault(name, {})
    if bound is not None and len(memo) > bound:
        memo.clear()
    return memo


def _greedy_choice(planner: Planner, state: StateDict, progress: Any, careful: bool, work: Work | None,
                   looking_ahead: int) -> int | None:
    """``greedy_choice``, worked out."""
    rules = planner.rules
    costs = planner.costs
    unit = costs.unit
    acost = costs.action
    remaining = planner.tracker.remaining(progress)
    if remaining is None:
        return None

    def leaf_of(node: Any) -> tuple[int, int]:
        if node[0] == "leaf":
            return int(node[1]), int(node[2])
        parts = node[1]
        if node[0] == "any":
            return min((leaf_of(p) for p in parts), key=lambda found: _leaf_cost(planner, *found))
        return leaf_of(parts[0])

    leaf, left = leaf_of(remaining)
    keys = planner.tracker.leaves[leaf].keys
    options = planner.emitter_orders.get((leaf, left))
    if options is None:  # fixed per planner: asked again at every step of a plan
        options = planner.emitter_orders[(leaf, left)] = sorted(
            planner.universe.emitters.get(leaf, ()), key=lambda e: amount_cost(rules, costs, keys, e[0], left))
    visiting: set[int] = set()
    get = state.get

    def here(d: int) -> int:
        return get(d, 0)

    ahead: list[list[Need]] = []

    def still_needed(m: int, k: int) -> bool:
        """Whether the rest of the target needs the tool or station ``m`` still, with ``k`` of it used up."""
        if not ahead:
            ahead.append(_kept_ahead(planner, state, remaining, at_hand))
        return any(m in n.members and _credit(n, state) - k < n.count for n in ahead[0])

    def spoils(a: int, way: tuple[Need, ...], protected: frozenset[int], keeping: frozenset[int]) -> list[Need]:
        """The consumed needs of a way that would use up what a step above collects, or the last it keeps of one.

        The last of a tool or station the rest of the target needs again counts as kept too (``_kept_ahead``): a
        stack of stone bricks does not burn the wooden pickaxe its next cobblestone is mined with.
        """
        watched = protected | keeping
        spare = rules.output_items[a]
        spoilt = []
        for n in way:
            if not n.consume:
                continue
            tools = _tool_members(planner, n.members)
            if watched.isdisjoint(_member_set(n.members)) and not any(map(get, tools, repeat(0))):
                continue
            if any(m in protected or (get(m, 0) <= k and (m in keeping or (m in tools and still_needed(m, k))))
                   for m, k in rules.take(n, lambda r: get(r, 0), spare)):
                spoilt.append(n)
        return spoilt

    at_hand = costs.setup_at_hand(state)
    # The order depends on what is at hand alone: kept per holding for the choices of every plan (the cost model's
    # own memo is keyed by the part of it that counts for the resource, worked out again at each ask).
    by_hand: dict[tuple[tuple[int, int], ...], dict[tuple[int, float], list[int]]] = \
        costs.__dict__.setdefault("_producer_cache", {})
    if len(by_hand) > 4096:
        by_hand.clear()
    orders = by_hand.setdefault(at_hand, {})

    def producers(m: int, amount: float) -> list[int]:
        """The producers of ``m``, cheapest first for ``amount`` with what is at hand now."""
        found = orders.get((m, amount))
        if found is None:
            found = orders[(m, amount)] = costs.producers_by_batch(m, amount, at_hand)
        return found

    # What is at hand changes only when a tool, a station or a place is got: the tie orders are kept per holding,
    # and what is not at hand on a resource's way by the holding of the few things its ways look at (_fresh_watch).
    cache = costs.__dict__.setdefault("_fresh_cache", {})
    fresh_memo: dict[tuple[int, int, tuple[tuple[int, int], ...]], float] = \
        costs.__dict__.setdefault("_fresh_memo", {})
    watches: dict[tuple[int, int], frozenset[int]] = costs.__dict__.setdefault("_fresh_watches", {})
    if len(cache) > 4096:
        cache.clear()
    if len(fresh_memo) > 65536:
        fresh_memo.clear()
    member_orders = cache.setdefault(at_hand, {})
    run_orders: dict[tuple[Any, ...], list[int]] = {}  # ``members_for_run``'s, for this state (it reads the state)
    first_tools: dict[int, float] = {}  # what a tool's way lacks in this state (``members_for_run``)
    yields: dict[tuple[int, int], float] = costs.__dict__.setdefault("_sure_yields", {})

    def yield_of(p: int, r: int) -> float:
        """What one run of ``p`` gives of ``r`` as a plan counts on it (``Output.sure``; 1 when it gives none)."""
        found = yields.get((p, r))
        if found is None:
            found = yields[(p, r)] = sum(out.sure for out in rules.outputs[p] if out.resource == r) or 1.0
        return found
    have = dict(at_hand)

    def fresh(r: int, depth: int = 0) -> float:
        """What the tools, stations and places not at hand cost on the cheapest way to ``r`` (``_fresh_setup``)."""
        watch = _fresh_watch(rules, r, depth, watches)
        key = (r, depth, tuple((m, c) for m, c in at_hand if m in watch))
        found = fresh_memo.get(key)
        if found is None:  # (no recipe loop comes back to a key: each step down is one deeper)
            found = fresh_memo[key] = _fresh_setup(rules, costs, have, r, depth, fresh)
        return found

    def members_in_order(need: Need, amount: float) -> list[int]:
        """A need's members, cheapest first; equally cheap ones by what of their way is not at hand yet.

        The cost model prices a way's setup by its dearest part (the crafting table of a slab), so oak and acacia
        slabs cost the same from an empty inventory; with oak logs found and acacia ones not, the oak slab is the
        one a player makes.
        """
        ordered = costs.members_by_amount(need.members, amount)
        if len(ordered) < 2 or need.weights is not None or len(ordered) >= _FRESH_MEMBERS:
            return ordered  # fuels and large tags: many ties, each a walk down its recipes, for a little fuel
        key = (need.members, amount)
        known = member_orders.get(key)
        if known is not None:
            return known
        first = costs.amount_cost(ordered[0], amount)
        top = [m for m in ordered if abs(costs.amount_cost(m, amount) - first) <= 1e-6 * max(1.0, first)]
        # one cheapest member (most needs), or it needs nothing new: no other order does better; else the
        # cheapest ones by what of their way is not at hand (the rest keep the cost model's order)
        if len(top) < 2 or fresh(top[0]) == 0:
            member_orders[key] = ordered
            return ordered
        known = member_orders[key] = [*sorted(top, key=fresh), *ordered[len(top):]]
        return known

    def members_for_run(need: Need, uses: float) -> list[int]:
        """A kept need that wears, its members least first for a run of ``uses`` uses (ties in their order).

        The rule of ``rules.tool_run_price`` from the state: the first tool at what its way still lacks here
        (``_way_gap``) and a step, and each further one the run wears out (``tools_for_run``) at its marginal
        price: after 59 stones a second wooden pickaxe for five more, a stone one, from the cobblestone and table
        at hand, for a hundred.
        """
        key = (need.members, need.wears, uses)
        known = run_orders.get(key)
        if known is not None:
            return known

        def run_total(i: int) -> float:
            m = need.members[i]
            marginal = min((mc for mc, _ in costs.fronts[m]), default=INF)
            if marginal == INF:
                return INF
            first = first_tools.get(m)
            if first is None:
                first = first_tools[m] = min(
                    (_way_gap(way, state, unit) for p, way in _ways_making(rules, m) if acost[p] < INF), default=INF)
            return 1.0 + first + marginal * (tools_for_run(uses, need.wears[i]) - 1.0)

        known = run_orders[key] = [need.members[i] for i in sorted(range(len(need.members)), key=run_total)]
        return known

    def kept_by(way: tuple[Need, ...]) -> frozenset[int]:
        """The held items that meet a way's kept needs (its tools and stations)."""
        return frozenset(m for n in way if not n.consume and not n.presence for m in n.members if get(m, 0) > 0)

    # A pursuit that fails without meeting the path (a cycle) or the depth limit fails from anywhere in this state:
    # remembered. A web of alternatives that cycle (wool dyed from wool of every colour, in an engine game's
    # recipes) can still take exponentially many paths: past GREEDY_EFFORT pursuits the choice gives up (None),
    # and ``best_plan`` searches instead.
    failed: set[tuple[int, frozenset[int], frozenset[int]]] = set()
    cut = [False]
    effort = [0]
    staying = [False]  # no trip to another dimension may be chosen (see below)
    tripped = [False]  # (staying) the pursuit just ended could go on only after a trip

    def pursue(a: int, depth: int, protected: frozenset[int], keeping: frozenset[int] = frozenset(),
               wanted: int | None = None, runs: float = 1.0, uses: float = 1.0) -> int | None:
        # ``uses``: the runs of ``a`` the target asks for, in all; a tool that wears is chosen for that run
        # (``members_for_run``), and a consumed need passes on the runs its producer takes for it.
        if a in visiting or depth > 64:
            cut[0] = True
            return None
        if (a, protected, keeping) in failed or (careful and (a, frozenset(), frozenset()) in failed):
            return None
        if staying[0] and a in rules.trips:
            tripped[0] = True
            return None
        effort[0] += 1
        if effort[0] > GREEDY_EFFORT or (work is not None and not work.spend()):
            raise _GaveUp
        w = planner.enabled_way(a, state)
        # Doing an action takes its first way whose needs are met: pursued for ``wanted``, that way must make it
        # (sugar crafted from sugar cane gives no glass bottle, though sugar from a honey bottle does).
        if w is not None and not spoils(a, rules.ways[a][w], protected, keeping) and _gives(rules, a, w, wanted):
            return a
        outer, cut[0] = cut[0], False
        visiting.add(a)
        ways = [way for i, way in enumerate(rules.ways[a]) if _gives(rules, a, i, wanted)]
        if len(ways) > 1:  # (most actions have one way: nothing to order, and a sort prices even one)
            ways.sort(key=lambda w: _way_gap(w, state, unit))
        waiting = False  # (staying) some need of the way is met after the trip: its dearer ways are no detour
        for way in ways:
            if careful and wanted is not None and _way_recycles(rules, costs, state, way, wanted, any_member=True):
                continue  # it makes the wanted item out of something made of it (wool dyed back to white)
            unmet = [n for n in way if not _met(n, state)] or spoils(a, way, protected, keeping)
            keeps = keeping | kept_by(way)
            if len(unmet) > 1:
                # What is at hand here first, the trip to another dimension last: a player gathers before it goes.
                unmet.sort(key=lambda n: (rules.elsewhere(n, here), -min(unit[m] for m in n.members)))
            for need in unmet:
                # kept ones too: a villager's experience is had at its count
                amount = max(1.0, need.count * (runs if need.consume else 1.0) - _credit(need, state))
                # A kept need of many units (experience) takes many runs of its producer: their consumed needs
                # are got for all of them (ten emeralds from ore, not one at a time from whatever is nearest).
                many = not need.consume and not need.presence and amount > 1
                # a run that wears out more than one of some member: chosen by the run (else by one's price)
                worn = (bool(need.wears) and not need.consume and uses > 1
                        and tools_for_run(uses, max(need.wears)) > 1.0)
                ordered = members_for_run(need, uses) if worn else members_in_order(need, amount)
                for m in ordered:
                    if m in protected:
                        continue
                    for p in producers(m, amount):
                        if acost[p] == INF:
                            continue
                        each = max(1, sum(o.count for o in rules.outputs[p] if o.resource == m)) if many else 1
                        # the runs of ``p`` the whole run of ``a`` takes (for the tools it wears, ``uses``)
                        feeds = math.ceil(need.count * uses / yield_of(p, m)) if need.consume else 1.0
                        tripped[0] = False
                        choice = pursue(p, depth + 1, protected | {m} if need.consume else protected, keeps, m,
                                        math.ceil(amount / each) if many else 1.0, feeds)
                        if choice is not None:
                            visiting.discard(a)
                            cut[0] = cut[0] or outer
                            return choice
                        if tripped[0]:
                            break
                    if tripped[0]:
                        break
                if tripped[0]:
                    waiting, tripped[0] = True, False
                elif careful:
                    break  # a need none of whose producers can be pursued now: the way cannot be done
            if waiting:
                break
        visiting.discard(a)
        tripped[0] = waiting
        if waiting:  # not failed: done after the trip
            cut[0] = cut[0] or outer
            return None
        if not cut[0]:
            failed.add((a, protected, keeping))
        if careful:  # once failed, never again in this choice, whatever the path: linear in the actions
            failed.add((a, frozenset(), frozenset()))
        cut[0] = cut[0] or outer
        return None

    emitters = {a for a, _ in options}

    def make_one(r: int, afresh: bool = False) -> int | None:
        """The first step towards one more ``r``: its producers pursued cheapest first (a tool, a spare).

        ``afresh``: each producer is a walk of its own, the last one's failures forgotten, and one that gives up
        passes to the next producer (else it gives the whole choice up).
        """
        for p in sorted(rules.producers[r], key=lambda p: costs.batch(p, r, 1.0)):
            if acost[p] == INF:
                continue
            if afresh:
                failed.clear()
                visiting.clear()
                cut[0] = False
                try:
                    made = pursue(p, 0, frozenset())
                except _GaveUp:
                    made = None
            else:
                made = pursue(p, 0, frozenset())
            if made is not None:
                return made
        return None

    def first_choice() -> int | None:
        for a, _ in options:
            choice = pursue(a, 0, frozenset(), uses=math.ceil(left / _token_yield(rules, a, keys, sure=True) - 1e-9))
            if choice is not None:
                if choice in emitters:  # ready to advance the target: first get the tool it must be done
                    for need in planner.wield_needs.get(leaf, ()):  # with, and go where it must happen, if anywhere
                        if _met(need, state):
                            continue
                        for m in sorted(need.members, key=lambda m: costs.amount_cost(m, 1.0)):
                            get_tool = make_one(m)
                            if get_tool is not None:
                                return get_tool
                    for r in _places_wanted(planner, leaf, state):
                        for p in sorted(rules.producers[r], key=lambda p: acost[p]):
                            move = pursue(p, 0, frozenset())
                            if move is not None:
                                return move
                return choice
        return None

    try:
        choice = first_choice()
    except _GaveUp:
        return None
    if choice is None or choice not in rules.trips or choice in emitters:
        return choice
    # A trip to another dimension: first whatever else the target needs that can be had here (a player gathers
    # its cobblestone before it goes through the portal, and its nether wart before it comes back).
    staying[0] = True
    failed.clear()
    visiting.clear()
    cut[0] = False
    try:
        nearer = first_choice()
    except _GaveUp:
        nearer = None
    if nearer is not None or not looking_ahead:
        return choice if nearer is None else nearer
    # Leaving now: first what the plan would otherwise come back here for (``trip_needs``), the spares that wear
    # on the other side will need and the items only this side gives that a later visit would gather.
    fresh_look = False
    while True:
        wanted, carried = _trip_wanted(planner, state, progress, choice, careful, looking_ahead, fresh_look)
        for r, total in wanted:
            make = make_one(r, afresh=True) if get(r, 0) < total else None
            if make is not None:
                _remember_trip(planner, state, progress, make, choice, (careful, looking_ahead))
                return make
        if not carried:
            return choice
        fresh_look = True  # what is left of a carried gathering cannot be had here: look past the trip afresh


TRIP_LOOKAHEAD = 400
"""Steps ``trip_needs`` follows the greedy policy past a trip (the library's stints are shorter)."""

_TRIP_MEMO = 4096
"""Gatherings before a trip remembered per planner (``_trip_wanted``) before the memo starts afresh."""


def _trip_wanted(planner: Planner, state: StateDict, progress: Any, trip: int, careful: bool, looking_ahead: int,
                 fresh: bool = False) -> tuple[list[tuple[int, int]], bool]:
    """``trip_needs`` at this state, remembered along the gathering it starts; and whether it was carried.

    A gathering takes several steps before the trip, each asking again: the look past the trip is taken once,
    its totals carried to the state each gathering step leads to (``_remember_trip``), and taken afresh once
    they are all held (the plan may then want more: a second spare) or, with ``fresh``, when what is left of
    them cannot be had here.
    """
    memo: dict[Any, list[tuple[int, int]]] = _planner_memo(planner, "_trip_memo")
    key = (_state_key(state), progress, trip, (careful, looking_ahead))
    known = memo.get(key)
    if known is not None and not fresh and any(state.get(r, 0) < total for r, total in known):
        return known, True
    # A look one level shallower taken here already (inside an earlier look) serves: the nesting only ever differs
    # in the wear of a gathering two trips on.
    wanted = memo.get((key[0], progress, trip, (careful, looking_ahead - 1))) if not fresh else None
    if wanted is None:
        wanted = trip_needs(planner, state, progress, trip, careful, looking_ahead)
    _planner_memo(planner, "_trip_memo", _TRIP_MEMO)[key] = wanted
    return wanted, False


def _remember_trip(planner: Planner, state: StateDict, progress: Any, a: int, trip: int, how: Any) -> None:
    """Carry the gathering's totals to the state step ``a`` leads to: the next choice asks for the same trip."""
    memo: dict[Any, list[tuple[int, int]]] = _planner_memo(planner, "_trip_memo")
    wanted = memo.get((_state_key(state), progress, trip, how))
    w = planner.enabled_way(a, state)
    if wanted is None or w is None:
        return
    child, after = planner.apply(state, progress, a, w)
    memo[(_state_key(child), after, trip, how)] = wanted


def trip_needs(planner: Planner, state: StateDict, progress: Any, trip: int,
               careful: bool = False, looking_ahead: int = 2) -> list[tuple[int, int]]:
    """What a plan about to take ``trip`` should hold first, as (resource, total held): what it would come back for.

    The rule: follow the greedy policy through the trip, on the other side, and, when it comes back here, on
    this side until it takes a trip again (or reaches the target). Whatever that later visit gathers here that
    can be gathered now is gathered before leaving: by the cost model's prices it costs the same now as then,
    and the later visit, the round trip's price, may then be saved. Two kinds:

    - spares: when a tool (or armour) that wears breaks on the other side, and the plan, once back, makes one of
      the worn tools again, the tools it makes then (one each; a player brings a second stone sword to the
      nether rather than going back for it);
    - items only this side gives (every producer is done here: blaze rods in the nether) that the later visit
      gets by steps whose tools and found things are at hand now: all of them (the blaze rods for every eye of
      ender and the end rod in one visit to the nether, not one visit per rod).

    The way back is the policy's own choice, so a trip back that was for something else (blaze rods home to
    craft) asks for no spare; a trip that costs nothing saves nothing and asks for nothing.
    """
    rules = planner.rules
    w = planner.enabled_way(trip, state)
    if w is None:
        return []
    here = next((d for d in rules.dimensions if state.get(d, 0) > 0), None)
    origin = state
    state, progress = planner.apply(state, progress, trip, w)
    away = planner.action_cost[trip]
    broke = False  # a worn tool broke on the other side (before the trip back)
    spares: list[int] = []
    gathered: dict[int, int] | None = {}  # None: the later visit here is needed for more than items to gather
    came_from: int | None = None  # where the plan comes back here from
    back = True  # the later visit ends in a trip back to where it came from, or the target: saved if gathered now
    back_trip: int | None = None  # the first trip after this one: spares are made before the one after it
    spared = False  # the stretch after the trip back is over: its spares are known
    coming: int | None = None  # the trip that brings the plan back here, once taken
    steps = 0
    while not planner.tracker.done(progress) and steps < TRIP_LOOKAHEAD:
        # Looks nest on the other side alone: its gathering before the trip back wears the tools the spares are for.
        a = greedy_choice(planner, state, progress, careful, looking_ahead=0 if back_trip else looking_ahead - 1)
        if a is None:
            return []
        w = planner.enabled_way(a, state)
        if w is None:
            return []
        child, progress = planner.apply(state, progress, a, w)
        steps += 1
        if a in rules.trips:
            if coming is not None:
                back = came_from is not None and child.get(came_from, 0) > 0
                break  # left here again: the later visit is over
            if here is not None and child.get(here, 0) > 0:
                coming = a
                came_from = next((d for d in rules.dimensions if state.get(d, 0) > 0), None)
            if back_trip is None:
                back_trip = a
                spared = not broke
            else:
                spared = True
        elif back_trip is None:
            # (whether any broke is all that counts: only what was held can break, and once one has, no more look)
            broke = broke or any(r in rules.wear_of and c > child.get(r, 0)
                                 and not any(n.consume and r in n.members for n in rules.ways[a][w])
                                 for r, c in state.items())
        elif not spared:
            spares = [r for r in rules.output_items[a] if r in rules.wear_of and child.get(r, 0) > state.get(r, 0)]
            spared = bool(spares)
        if coming is not None and a not in rules.trips and here is not None \
                and _bound_here(rules, rules.ways[a][w], here):
            # A step the later visit must be here for: gathered now when it can be done now (its tools and found
            # things at hand) and gives only what this side alone gives; else the visit is needed anyway.
            if gathered is not None and any(all(_met(n, origin) for n in way if not n.consume)
                                            for way in rules.ways[a]):
                for r in rules.output_items[a]:
                    more = child.get(r, 0) - state.get(r, 0)
                    if more <= 0 or ":" in rules.names[r] or (rules.resources[r][0] != "item" and origin.get(r, 0)):
                        continue  # (a tool's wear, what is left of a source; a found thing found already)
                    if not only_here(planner, r, here):
                        gathered = None
                        break
                    gathered[r] = gathered.get(r, 0) + more
            else:
                gathered = None
        if spared and (gathered is None or here is None):
            break  # the spares known, and no errand here to save (or nowhere to come back to): nothing more to see
        state = child
    else:  # the target reached on the later visit (done elsewhere once gathered), or no end in sight
        back = planner.tracker.done(progress)
    costs = planner.costs
    wanted: list[tuple[int, int]] = []
    if back_trip is not None and planner.action_cost[back_trip] + away > 0:  # a trip that costs nothing saves
        wanted = [(r, origin.get(r, 0) + 1) for r in spares if costs.amount_cost(r, 1.0) < INF]  # nothing
    if coming is not None and back and gathered and planner.action_cost[coming] + away > 0:
        wanted += [(r, origin.get(r, 0) + n) for r, n in gathered.items()]
    return wanted


def _bound_here(rules: Rules, way: tuple[Need, ...], here: int) -> bool:
    """Whether a way is done in dimension ``here`` alone: a presence need all of whose members lie there."""
    lies_in = rules.lies_in
    return any(n.presence and all(lies_in.get(m) == here for m in n.members) for n in way)


def only_here(planner: Planner, r: int, here: int) -> bool:
    """Whether item ``r`` is had in dimension ``here`` alone: every way of each producer giving it is done there."""
    memo: dict[tuple[int, int], bool] = planner.__dict__.setdefault("_only_here", {})
    found = memo.get((r, here))
    if found is None:
        rules = planner.rules
        # (not an internal item: what is left of a finite source, a tool's wear)
        found = rules.resources[r][0] == "item" and ":" not in rules.names[r] and all(
            _bound_here(rules, way, here) for p, way in _ways_making(rules, r) if planner.action_cost[p] < INF)
        memo[(r, here)] = found
    return found


_FRESH_MEMBERS = 16
"""Needs of this many members or more (fuels, large tags) keep the cost model's order among equally priced ones."""
_FRESH_DEPTH = 2
"""How many recipes down ``_fresh_setup`` looks for a tool, station or place not at hand (planks, then logs)."""


def _ways_making(rules: Rules, r: int) -> Iterator[tuple[int, tuple[Need, ...]]]:
    """Each producer of ``r`` with the needs of each of its ways that makes ``r``."""
    for p in rules.producers[r]:
        for w in range(len(rules.way_outputs[p])):
            if _gives(rules, p, w, r):
                yield p, rules.ways[p][w]


def _fresh_watch(rules: Rules, r: int, depth: int, watches: dict[tuple[int, int], frozenset[int]]) -> frozenset[int]:
    """The tools, stations and places ``_fresh_setup`` of ``r`` at ``depth`` looks at; memoised in ``watches``.

    Its ways' kept and presence needs' members, and those its consumed needs' own ways look at down to
    ``_FRESH_DEPTH``: what it costs is the same for every holding that agrees on these.
    """
    found = watches.get((r, depth))
    if found is None:
        members: set[int] = set()
        for _, way in _ways_making(rules, r):
            for need in way:
                if not need.consume:
                    members.update(need.members)
                elif depth < _FRESH_DEPTH:
                    for m in need.members:
                        members |= _fresh_watch(rules, m, depth + 1, watches)
        found = watches[(r, depth)] = frozenset(members)
    return found


def _fresh_setup(rules: Rules, costs: CostModel, have: dict[int, int], r: int, depth: int,
                 fresh: Any) -> float:
    """The least, over the ways that make ``r``, of what their kept and presence needs not at hand cost.

    ``have``: the tools, stations and found places held (``CostModel.setup_at_hand``). Consumed needs count what
    their own ways need that is not at hand (``fresh``), ``_FRESH_DEPTH`` recipes down, and below that their cost
    from nothing: an oak slab from oak planks from oak logs found costs nothing here, an acacia one the find of an
    acacia log.
    """
    best = INF
    for p, way in _ways_making(rules, r):
        if costs.action[p] == INF:
            continue
        total = 0.0
        for need in way:
            if not need.consume:
                short = need.count - sum(have.get(m, 0) for m in need.members)
                if short > 0:
                    total += min(costs.amount_cost(m, float(short)) for m in need.members)
            elif depth < _FRESH_DEPTH:
                total += min(fresh(m, depth + 1) for m in need.members)
            else:  # deeper down, what it costs from nothing (a log from wood blocks is no free log)
                total += min(costs.amount_cost(m, 1.0) for m in need.members)
            if total >= best:
                break
        best = min(best, total)
    return best


def _gives(rules: Rules, a: int, w: int, wanted: int | None) -> bool:
    """Whether way ``w`` of action ``a`` makes ``wanted`` (anything, when nothing in particular is wanted)."""
    return wanted is None or any(out.resource == wanted for out in rules.way_outputs[a][w])


class _GaveUp(Exception):
    """A greedy choice walked more than GREEDY_EFFORT producers."""


def _places_wanted(planner: Planner, leaf: int, state: StateDict) -> list[int]:
    """The biome or dimension an atom of the target must happen in, if the agent is not there now."""
    rules = planner.rules
    wanted = []
    for constraint in planner.tracker.leaves[leaf].constraints:
        for kind, key in zip(("biome", "dimension"), planner.place_keys, strict=True):
            r = rules.index.get((kind, constraint.where or ""))
            if r is not None and state.get(key, 0) - 1 != r:
                wanted.append(r)
    return wanted


def _leaf_cost(planner: Planner, leaf: int, left: int = 1) -> float:
    keys = planner.tracker.leaves[leaf].keys
    return min((amount_cost(planner.rules, planner.costs, keys, a, left)
                for a, _ in planner.universe.emitters.get(leaf, ())), default=INF)


def amount_cost(rules: Rules, costs: CostModel, keys: frozenset[tuple[str, str]], a: int, left: int) -> float:
    """What ``left`` more of an atom's count (its event keys ``keys``) cost by action ``a``.

    The first run, setup included, and the runs after it at their marginal cost: two redstone ores of 4.5
    redstone each beat 32 witches of a quarter each. A chance yield counts as a plan counts on it even for one
    unit: an enchanted golden apple is 33 ancient city chests or 212 mineshaft chests, not one chest of either.
    """
    first = costs.action[a]
    if first == INF:
        return first
    per_run = _token_yield(rules, a, keys, sure=True)
    marginal = min((m for m, _ in costs.way_prices[a]), default=INF)
    return first + (math.ceil(left / per_run - 1e-9) - 1) * marginal


def _tool_members(planner: Planner, members: tuple[int, ...]) -> frozenset[int]:
    """The members of a need that meet some action's one-time need (tools and stations: a fuel's table)."""
    memo: dict[tuple[int, ...], frozenset[int]] = _planner_memo(planner, "_tool_members")
    found = memo.get(members)
    if found is None:
        found = memo[members] = planner.tool_kinds.intersection(members)
    return found


def _kept_ahead(planner: Planner, state: StateDict, remaining: Any, at_hand: Sequence[tuple[int, int]]
                ) -> list[Need]:
    """The kept needs (tools, stations) on the cheapest ways to what the rest of the target still lacks.

    From each part of the remaining target (the cheapest of ``|``), its cheapest emitter for the count left and,
    for each consumed need short of what is held, its cheapest member's cheapest producer for the shortfall, down
    to ``_AHEAD_DEPTH`` recipes: sixteen stone bricks with four made and three stone held still smelt nine, and
    mine the cobblestone for eight with a pickaxe.
    """
    rules, costs = planner.rules, planner.costs
    found: list[Need] = []
    seen: set[int] = set()

    def walk(a: int, runs: float, depth: int) -> None:
        if a in seen or depth > _AHEAD_DEPTH or costs.action[a] == INF:
            return
        seen.add(a)
        way = min(rules.ways[a], key=lambda w: _way_gap(w, state, costs.unit), default=())
        for need in way:
            if need.presence:
                continue
            if not need.consume:
                found.append(need)
                if not _met(need, state):  # a tool to make: its own way's tools (the table) are needed too
                    short(need, 1.0, depth)
                continue
            short(need, need.count * runs - _credit(need, state), depth)

    def short(need: Need, amount: float, depth: int) -> None:
        if amount <= 1e-9:
            return
        if need.weights is None:
            m, items = costs.members_by_amount(need.members, amount)[0], amount
        else:  # fuel, counted in ticks: the member cheapest for them (a log's planks, not a hundred slabs)
            m, items = min(((m, math.ceil(amount / w - 1e-9)) for m, w in zip(need.members, need.weights,
                                                                             strict=True)),
                           key=lambda found: costs.amount_cost(*found))
        for p in costs.producers_by_batch(m, items, at_hand)[:1]:
            per = sum(out.sure for out in rules.outputs[p] if out.resource == m) or 1.0
            walk(p, math.ceil(items / per - 1e-9), depth + 1)

    def part(node: Any) -> None:
        if node[0] == "leaf":
            leaf, left = int(node[1]), int(node[2])
            keys = planner.tracker.leaves[leaf].keys
            emitters = planner.universe.emitters.get(leaf, ())
            if emitters:
                a = min((e for e, _ in emitters), key=lambda e: amount_cost(rules, costs, keys, e, left))
                walk(a, math.ceil(left / _token_yield(rules, a, keys, sure=True) - 1e-9), 0)
        elif node[0] == "any":
            part(min(node[1], key=lambda child: _leaf_cost(planner, *_first_leaf(child))))
        else:
            for child in node[1]:
                part(child)

    part(remaining)
    return found


_AHEAD_DEPTH = 12
"""Recipes down ``_kept_ahead`` follows a shortfall (the library's tools sit a few recipes below their use)."""


def _first_leaf(node: Any) -> tuple[int, int]:
    """The first (leaf, count left) of a remaining-goal tree."""
    while node[0] != "leaf":
        node = node[1][0]
    return int(node[1]), int(node[2])


def _met(need: Need, state: StateDict) -> bool:
    members = need.members
    if len(members) == 1 and need.weights is None:  # (``_credit``'s commonest case, inline: asked at every step)
        return state.get(members[0], 0) >= need.count
    return _credit(need, state) >= need.count


def _way_gap(way: tuple[Need, ...], state: StateDict, unit: Sequence[float]) -> float:
    """How much is missing for a way, in cost units."""
    get = state.get
    gap = 0.0
    for need in way:
        members = need.members
        if need.presence:
            if not any(map(get, members, repeat(0))):
                gap += min(map(unit.__getitem__, members))
        elif len(members) == 1 and need.weights is None:  # (``_credit``'s commonest case, inline: the greedy
            short = need.count - get(members[0], 0)  # policy orders an action's ways by it at every step)
            if short > 0:
                gap += short * unit[members[0]]
        else:
            short = need.count - _credit(need, state)
            if short > 0:
                if need.weights is None:
                    gap += short * min(map(unit.__getitem__, need.members))
                else:
                    gap += short * min(unit[m] / w for m, w in zip(need.members, need.weights, strict=True))
    return gap


def greedy_plan(planner: Planner, limit: int = 1000, careful: bool = False,
                work: Work | None = None) -> list[int] | None:
    """Run the greedy policy in the planner's model from its start; the plan if it reaches the target.

    ``work``: an allowance its choices' walks count against (None when it runs out first).
    """
    state, progress = dict(planner.start), planner.start_progress
    plan: list[int] = []
    seen: set[Any] = set()
    while not planner.tracker.done(progress):
        key = (_freeze(state), progress)
        if len(plan) >= limit or key in seen:  # going round in circles: the greedy rule is stuck
            return None
        seen.add(key)
        a = greedy_choice(planner, state, progress, careful, work)
        if a is None:
            return None
        w = planner.enabled_way(a, state)
        assert w is not None
        state, progress = planner.apply(state, progress, a, w)
        plan.append(a)
        if work is not None:
            work.charge()
    return plan


def prune_plan(planner: Planner, plan: list[int], floor: float = 0.0, work: Work | None = None) -> list[int]:
    """The plan without the steps it can do without (an extra log mined, a second crafting table).

    Drops one step at a time, last first, keeping a shorter plan whenever it still reaches the goal; repeats
    until no single step can go. The states before each step are kept, so a try replays only the steps after
    the dropped one, stops at the first that is no longer possible, and stops with success as soon as it is
    back in the state the plan had there (the rest of the plan then runs as before). Cheap next to a search,
    and it closes part of the greedy policy's gap. A plan as short as ``floor`` (a lower bound on any plan's
    length) is returned as it is: no step of it can go. With ``work``, each replayed step counts against it, and
    the plan is returned as pruned so far once it is spent (overrun by at most the one try under way).
    """
    if len(plan) <= floor + 1e-9:
        return plan
    prefix = [(dict(planner.start), planner.start_progress)]
    if work is not None:
        work.charge(len(plan))
    for a in plan:
        state, progress = prefix[-1]
        w = planner.enabled_way(a, state)
        assert w is not None, "prune_plan needs a plan that runs"
        prefix.append(planner.apply(state, progress, a, w))
    # Steps below the lowest one dropped in a pass were tried after every drop of that pass, on the plan as it
    # now is: trying them again would replay the same steps from the same states. The next pass stops there.
    lowest: int | None = 0
    while lowest is not None:
        stop, lowest = lowest, None
        failed: int | None = None  # the step whose drop was last tried, in vain, on the plan as it is
        for i in range(len(plan) - 1, stop - 1, -1):
            if failed == i + 1 and plan[i] == plan[i + 1]:
                # Dropping one of two equal neighbours gives the same plan: it failed a moment ago.
                failed = i
                continue
            if work is not None and work.left <= 0:
                return plan
            replayed = _replay_without(planner, plan, prefix, i, work)
            if replayed is not None:
                plan = plan[:i] + plan[i + 1:]
                prefix = replayed
                lowest = i
                failed = None
                if len(plan) <= floor + 1e-9:
                    return plan
            else:
                failed = i
    return plan


def _replay_without(planner: Planner, plan: list[int], prefix: list[tuple[StateDict, Any]],
                    i: int, work: Work | None = None) -> list[tuple[StateDict, Any]] | None:
    """The states before each step of ``plan`` without step ``i`` if it still reaches the goal, else None.

    ``prefix[k]`` is the (state, progress) before step ``k`` of ``plan`` (and ``prefix[-1]`` after the last).
    Each step replayed is one unit of ``work`` (counted even past what is left: a try is finished).
    """
    states = [prefix[i]]
    state, progress = prefix[i]
    for k in range(i + 1, len(plan)):
        if work is not None:
            work.charge()
        w = planner.enabled_way(plan[k], state)
        if w is None:
            return None
        state, progress = planner.apply(state, progress, plan[k], w)
        before = prefix[k + 1]
        if progress == before[1] and state == before[0]:  # back on the plan's own path: the rest runs as before
            return prefix[:i] + states + prefix[k + 1:]
        states.append((state, progress))
    return prefix[:i] + states if planner.tracker.done(progress) else None

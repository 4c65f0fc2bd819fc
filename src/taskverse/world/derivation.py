"""The cheapest derivation the cost fixpoint prices, read back as a plan: which actions, how many runs, in order.

``rules.CostModel`` prices every resource from some holdings as a marginal cost per unit and a setup paid once.
This module extracts the plan behind those prices, with no search of its own:

* a need for ``q`` units of an item that the holdings do not cover takes, of its members, the one with the least
  price for the ``q - held`` units still wanted (``CostModel.amount_cost``), and that member's cheapest producer
  for that amount: the (action, way) with the least ``marginal * q / per_run + setup``, run
  ``ceil(q / per_run)`` times (a chance drop gives its expected amount a run, so a 1-in-200 apple takes 200);
* consumed needs scale with the runs (a fuel need burns its smelts' ticks: ``ceil(ticks / burn ticks)`` items of
  the cheapest fuel for that many);
* a kept need (a tool, a station) and a presence need (a found block, mob, biome, structure, dimension) is a
  *setup*: obtained once per plan, before everything that needs it (a tool that wears as many times as the
  plan's uses of it need: a wooden pickaxe lasts 59 blocks), and a tool that wears is chosen by the run it
  serves: the tools the action's runs wear out, rounded up, at each tool's price (``rules.tool_run_price``), so
  a few blocks take the cheapest pickaxe and hundreds a lasting one;
* a way whose setups cannot be had without what it makes is no way (a block placed from the item that mining the
  block gives); the next member or producer is taken;
* a villager's experience (``xp:<profession>``, which a trade above novice keeps) is raised on one villager, level
  by level, its offers mixed as each level opens (``world.experience``: cheapest experience per price first, each
  within its uses, a restock where it beats a dearer offer, at the cheaper of the wait, ``restock_wait``, and
  another villager); the higher levels' offers need only the lower levels, so the level order cuts the loop;
* the holdings (the initialization) count for every need that asks for them, and a need they cover costs nothing,
  except that a held tool wears as a made one does: each held copy lasts its durability, and the plan's further
  uses of it take further copies (a held wooden pickaxe mines 59 blocks; the 60th needs another).

Plans are folded into any value with an associative ``+`` (``Derivation(..., step=...)``): a list of
(action, runs) steps (``steps``), or the difficulty module's frames and synthetic actions. A part of a plan is
computed once per (resource, amount) and reused, so the plans of every atom from one initialization cost
little more than the largest.

What is left out, on purpose: what a run makes beyond its need (four planks for two) is not kept for later
needs, and the agent's position once the plan has moved (going back to the overworld) costs nothing; the cost
fixpoint leaves these out too. Where the plan starts is a holding (a start that names no dimension: the
overworld, as ``Rules.start``): from the nether, a need on the overworld is the trip back, and the prices must be
from the same start (``CostModel(rules, held)``), else the derivation chases ways its holdings cannot ground
(``WORK_BUDGET`` stops it). Every plan from nothing runs step by step in the text world, the trip back taken
where a step needs it (all 5,156 at this tree; ``tests/test_world_derivation.py``), for two orders: the steps in a
dimension the trip there gives no way back from (the End, until the dragon dies: ``one_way_dimensions``) come
after every other step (``Piece.away``; a lingering potion's splash potion is brewed before the End is entered
for the dragon's breath), and of one way's parts, one that may spend any of several items comes before those that
make one of them (``Piece.takes``: the sticks before an acacia fence's acacia planks, else the text world, taking
them by name, spends the planks made for the fence).

Example:
    >>> from taskverse import load_library
    >>> from taskverse.world.rules import CostModel, Rules
    >>> rules = Rules.for_library(load_library())
    >>> overworld = {rules.index[("dimension", "overworld")]: 1}  # where a start names no dimension
    >>> plan = Derivation.of_steps(rules, CostModel.for_rules(rules), overworld)
    >>> steps = plan.steps_for(rules.action_index["craft.wooden_pickaxe"])
    >>> [rules.actions[a] for a, _ in steps][-1]
    'craft.wooden_pickaxe'

"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from taskverse.errors import TaskverseError
from taskverse.schema import VILLAGER_XP_PREFIX, Measure
from taskverse.schema import Need as NeedSpec
from taskverse.world.experience import RESTOCK, Offer, raise_experience
from taskverse.world.graph import PREFERRED_PREFIXES
from taskverse.world.rules import INF, TICKS_PER_SMELT, CostModel, Need, Rules, tool_run_price


class Summable(Protocol):
    """A value plans fold into: ``a + b`` is ``a``, then ``b`` (associative, with an empty value)."""

    def __add__(self, other: Any, /) -> Any: ...


T = TypeVar("T", bound=Summable)


@dataclass(frozen=True, slots=True)
class Piece(Generic[T]):
    """A part of a plan: its folded value (setups left out) and the setups it needs.

    ``setups`` maps each setup resource to the uses the part spends of it (durability, for a tool that wears; 0
    for one that does not, a station or a found thing). ``away``: the part's steps that are done away from the
    start's dimension (a trip there, and every step that needs what a trip or a step there brought), None when
    it has none: they wait until everything of the start's dimension is done.
    """

    value: T
    setups: Mapping[int, int]
    away: T | None = None
    takes: frozenset[int] = frozenset()
    """The items the part may spend through a need that takes any of several (sticks: any planks)."""


RESOLVE_ROUNDS = 4
"""Rounds to settle how many copies of each worn tool a plan needs (copies need setups of their own)."""
MEMBER_TRIES = 4
"""Members of a need tried, cheapest first, when the cheaper ones cannot be had without a loop."""
WORK_BUDGET = 10_000
"""Resources one outermost ``obtain`` may derive before the derivation gives up with an error (the library's
plans take at most about a thousand): a guard against prices that send it round loops it cannot ground."""
Steps = tuple[tuple[int, int], ...]
"""A plan as (action index, runs) steps, prerequisites first."""


class Derivation(Generic[T]):
    """Plans read off a cost model from some holdings, folded with ``step`` (memoised per resource and amount).

    Args:
        rules: The compiled world.
        costs: Its cost model (from nothing, or from holdings; its prices decide every choice).
        step: The value of ``runs`` runs of an action (``(action, runs) -> T``).
        empty: The value of doing nothing (the identity of ``+``).
        held: What the initialization holds, by resource index (items by count, found things by 1).
        restock_wait: A villager's wait for a restock, as (its price in the cost model's units, its value); None
            when the derivation's units have no time (steps: the text world has no wait, only another villager).

    """

    def __init__(self, rules: Rules, costs: CostModel, step: Callable[[int, int], T], empty: T,
                 held: Mapping[int, int] | None = None, restock_wait: tuple[float, T] | None = None) -> None:
        self.rules = rules
        self.costs = costs
        self.step = step
        self.empty = empty
        self.held = dict(held or {})
        self.restock_wait = restock_wait
        self._offers: dict[int, list[tuple[int, int, Offer]]] = {}
        # (resource, amount) -> its answers: (the resources its derivation looked at, those of them that were
        # on the path then, the piece), bit sets of resource indices
        self._memo: dict[tuple[int, int], list[tuple[int, int, Piece[T] | None]]] = {}
        self._members: dict[Any, tuple[int, ...]] = {}
        self._active = 0  # the resources being obtained on the current path, as a bit set
        self._seen = [0]  # per open ``obtain``: the resources its derivation has looked at so far
        self._preference = preferences(rules)
        start = next((d for d in rules.dimensions if self.held.get(d, 0)), rules.spawn(lambda r: 0))
        self._away_dimensions = one_way_dimensions(rules) - {start}
        self.work = 0
        """Resources derived so far (answers not taken from the memo): the work the plans asked for took."""
        self._started = (0, -1)  # ``work`` when the outermost ``obtain`` under way began, and its resource

    @classmethod
    def of_steps(cls, rules: Rules, costs: CostModel, held: Mapping[int, int] | None = None) -> Derivation[Any]:
        """A derivation whose plans are (action, runs) steps (``Steps``)."""
        return Derivation(rules, costs, lambda a, runs: ((a, runs),), (), held)

    # -- the plan of an action or of needs ------------------------------------------------------------------------

    def plan_action(self, a: int, runs: int = 1, last: T | None = None) -> T | None:
        """The plan of ``runs`` runs of action ``a`` from the holdings, setups first; None if there is none.

        ``last`` replaces the value of the action's own runs (e.g. its frames under the initialization's tool).
        """
        way = self.choose_way(self.rules.ways[a], runs, self.costs.batch_prices[a])
        if way is None:
            return None
        own = self.step(a, runs) if last is None else last
        return self.plan_needs(self.rules.ways[a][way], runs, own)

    def plan_needs(self, needs: Sequence[Need], runs: int, last: T, setups: Iterable[int] = ()) -> T | None:
        """The plan that meets ``needs`` (for ``runs`` runs) and then does ``last``; None if there is none.

        ``setups``: further resources to obtain once (a tool the task must be done with).
        """
        piece = self.meet(needs, runs)
        if piece is None:
            return None
        wanted = dict(piece.setups)
        for r in setups:
            if not self._holds(r, 1):
                wanted.setdefault(r, 0)
        first = self.resolve(wanted)
        if first is None:
            return None
        # a player gathers everything of the start's dimension before leaving it (the End's way back opens
        # only with the dragon's death): the setups and steps of home first, then the trips and what follows
        home, away = first
        result = home + piece.value
        if away is not None:
            result = result + away
        if piece.away is not None:
            result = result + piece.away
        return result + last  # type: ignore[no-any-return]

    def steps_for(self, a: int, times: int = 1) -> Steps | None:
        """The plan that does an action's atom ``times`` times, as steps (for a derivation made by ``of_steps``).

        Its runs are those whose events count the atom's goal that often (``Rules.runs_to_count``): a trade
        for blue ice, which a wandering trader has one time in six, is tried until 95% of players have it.
        """
        return self.plan_action(a, self.rules.runs_to_count(a, times))  # type: ignore[return-value]

    def resolve(self, setups: Mapping[int, int]) -> tuple[T, T | None] | None:
        """Obtain each setup once, and what each needs in turn, prerequisites first (sorted for stability).

        The steps come in two parts: those done in the start's dimension, and those away from it (``Piece.away``),
        each in that order.

        A tool that wears is obtained as many times as the plan's uses of it need: ``ceil(uses / durability)``
        (a wooden pickaxe lasts 59 blocks). Copies change what the setups themselves need, so the count is
        settled in a few rounds.
        """
        copies: dict[int, int] = {}
        order: list[int] | None = []
        for _ in range(RESOLVE_ROUNDS):
            order, tally = self._closure(setups, copies)
            if order is None:
                return None
            wanted = {r: self._copies(r, tally.get(r, 0)) for r in order}
            if all(copies.get(r, 1) == n for r, n in wanted.items()):
                break
            copies = wanted
        result: T = self.empty
        away: T | None = None
        for r in order or ():
            piece = self.obtain(r, copies.get(r, 1))
            if piece is None:
                return None
            result = result + piece.value
            away = _then(away, piece.away)
        return result, away

    def _closure(self, roots: Mapping[int, int], copies: Mapping[int, int]) -> tuple[list[int] | None, dict[int, int]]:
        """The setups reachable from ``roots``, prerequisites first, and the uses the plan spends of each."""
        tally = dict(roots)
        order: list[int] = []
        seen: set[int] = set()
        pending = [(r, False) for r in sorted(roots, reverse=True)]
        while pending:  # depth first, post-order: a setup's own setups come before it
            r, expanded = pending.pop()
            if expanded:
                order.append(r)
                continue
            if r in seen:
                continue
            seen.add(r)
            piece = self.obtain(r, copies.get(r, 1))
            if piece is None:
                return None, tally
            pending.append((r, True))
            for s, uses in piece.setups.items():
                tally[s] = tally.get(s, 0) + uses
            pending.extend((s, False) for s in sorted(piece.setups, reverse=True) if s not in seen)
        return order, tally

    def _copies(self, r: int, uses: int) -> int:
        """How many of a setup a plan spending ``uses`` of it needs (one, unless it is a tool that wears)."""
        wear = self.rules.wear_of.get(r)
        return max(1, -(-uses // wear[1])) if wear is not None and uses > 0 else 1

    # -- needs, members, producers --------------------------------------------------------------------------------

    def meet(self, needs: Sequence[Need], runs: int) -> Piece[T] | None:
        """What meeting one way's needs for ``runs`` runs takes: consumed needs in order, setups collected.

        Setups overlap: a member is chosen by its price less the setup the way's other needs pay anyway (coal
        needs the pickaxe the iron ore needs too, and planks the tree found for the ore's pickaxe), as the
        cost fixpoint prices a way (only its dearest setup counts).
        """
        wanted: list[tuple[Need, int]] = []
        worn: dict[int, int] = {}  # held tools the runs wear: their copies are counted with the plan's (``resolve``)
        for need in needs:
            amount = self._missing(need, runs)
            if amount > 0:
                wanted.append((need, amount))
            elif need.wears and not need.presence and not _kept_stock(need):
                tool = self._held_tool(need)
                if tool in self.rules.wear_of:
                    worn[tool] = worn.get(tool, 0) + need.uses * runs
        # needs that take any of several items first: made later, the sticks' "any planks" would use up the
        # acacia planks just made for an acacia fence
        wanted.sort(key=lambda item: -len(item[0].members))
        first = [self.choose_member(need, amount, runs=runs) for need, amount in wanted]
        if any(choice is None for choice in first):
            return None
        setups_of = [self._parts(need, amount, choice, runs)[1] for (need, amount), choice in  # type: ignore[arg-type]
                     zip(wanted, first, strict=True)]
        parts: list[tuple[int, Piece[T]]] = []  # (the member had, its part)
        setups: dict[int, int] = dict(worn)
        for i, (need, amount) in enumerate(wanted):
            free = max((s for j, s in enumerate(setups_of) if j != i), default=0.0)
            found = None
            for member in self.choose_members(need, amount, free, runs):  # the cheapest that can be had
                if _kept_stock(need):  # fifteen bookshelves around an enchanting table: made, then kept
                    found = self.obtain(member, amount, counted=True)
                    if found is not None:
                        break
                    continue
                if not need.consume:  # a tool, station or found thing: a setup
                    setup = self.obtain(member, 1)
                    if setup is not None:
                        # had away (the End, a dragon, a tool made of what a trip brought): the runs wait for it
                        found = Piece(self.empty, {member: need.uses * runs if member in self.rules.wear_of else 0},
                                      None if setup.away is None else self.empty)
                        break
                    continue
                units = amount if need.weights is None else -(-amount // need.weights[need.members.index(member)])
                found = self.obtain(member, units, counted=True)
                if found is not None:
                    break
            if found is None:
                return None
            if need.consume and len(need.members) > 1:
                found = Piece(found.value, found.setups, found.away, found.takes | set(need.members))
            parts.append((member, found))
            for r, uses in found.setups.items():
                setups[r] = setups.get(r, 0) + uses
        # a part that may spend what another makes comes first: made later, the sticks' "any planks" would use up
        # the acacia planks made for an acacia fence
        # (a lava bucket kept for obsidian would fuel the furnace that smelts the iron of the water's bucket)
        made = {member for member, _ in parts}
        parts.sort(key=lambda part: not part[1].takes & (made - {part[0]}))
        value: T = self.empty
        away: T | None = None
        for _, part in parts:
            value = value + part.value
            away = _then(away, part.away)
        return Piece(value, setups, away, frozenset().union(*(part.takes for _, part in parts)))

    def _missing(self, need: Need, runs: int) -> int:
        """What of a need the holdings leave to obtain: units (fuel: ticks), or 1 for an unheld setup."""
        held = self.held
        if _kept_stock(need):
            return max(0, need.count - sum(held.get(m, 0) for m in need.members))
        if not need.consume:
            return 0 if any(held.get(m, 0) for m in need.members) else 1
        weights = need.weights or (1,) * len(need.members)
        # a villager's offer: the villager the way finds makes its first ``restock`` trades, more take another
        return need.count * runs - sum(held.get(m, 0) * w for m, w in zip(need.members, weights, strict=True)) \
            - need.restock

    def _held_tool(self, need: Need) -> int:
        """The member of a kept need the holdings meet that the text world uses: the most held, the first of those."""
        held = self.held
        return max(need.members, key=lambda m: held.get(m, 0))

    def _parts(self, need: Need, amount: int, m: int, runs: int = 1) -> tuple[float, float]:
        """(marginal, setup) of meeting ``amount`` of a need with member ``m``, at its cheapest price.

        A tool that wears is priced by the run: the tools ``runs`` runs wear out, rounded up, at the front price
        least for them (``rules.tool_run_price``): three stones take a wooden pickaxe, three hundred a stone one.
        """
        if not need.consume and not _kept_stock(need):
            if not need.wears:
                return 0.0, self.costs.unit[m]
            _, marginal, setup = tool_run_price(self.costs.fronts[m], 1.0, need.wears[need.members.index(m)], runs)
            return runs * marginal, setup
        units = amount if need.weights is None else -(-amount // need.weights[need.members.index(m)])
        return min(((units * mc, sc) for mc, sc in self.costs.fronts[m]), key=sum, default=(INF, INF))

    def choose_way(self, ways: Sequence[Sequence[Need]], runs: int,
                   prices: Sequence[Sequence[tuple[float, float]]] | None = None) -> int | None:
        """The way to use: the first the holdings fully meet, else the cheapest by the model's prices.

        ``prices``: per way, its (marginal, setup) prices (``CostModel.batch_prices``); the least for ``runs``
        counts.
        """
        for w, way in enumerate(ways):
            if all(self._met(need, runs) for need in way):
                return w
        best, best_value = None, INF
        for w, way in enumerate(ways):
            if prices is not None:
                value = min((marginal * runs + setup for marginal, setup in prices[w]), default=INF)
            else:
                value = self._way_estimate(way, runs)
            if value < best_value:
                best, best_value = w, value
        return best

    def choose_member(self, need: Need, amount: int, free: float = 0.0, runs: int = 1) -> int | None:
        """The member of a need to get ``amount`` units (fuel: ticks) of: the cheapest for that amount.

        ``free``: setup paid anyway by the way's other needs, not counted again (see ``meet``); ``runs``: the runs
        a tool that wears is used for.
        """
        members = self.choose_members(need, amount, free, runs)
        return members[0] if members else None

    def choose_members(self, need: Need, amount: int, free: float = 0.0, runs: int = 1) -> tuple[int, ...]:
        """The ``MEMBER_TRIES`` cheapest members of a need for ``amount`` units (``runs`` runs), cheapest first."""
        members_key: Any = need.virtual if need.virtual >= 0 else (need.members, need.consume)
        key = (members_key, amount, round(free, 3), runs if need.wears else 1, need.wears)
        found = self._members.get(key)
        if found is not None:
            return found
        rules = self.rules
        options = []
        for m in need.members:
            if m == rules.heat:
                continue
            marginal, setup = self._parts(need, amount, m, runs)
            total = marginal + setup
            if total == INF:
                continue
            options.append((round(marginal + max(0.0, setup - free), 6), round(total, 6), self._preference[m],
                            rules.names[m], m))
        found = self._members[key] = tuple(option[-1] for option in sorted(options)[:MEMBER_TRIES])
        return found

    def obtain(self, r: int, amount: int, counted: bool = False) -> Piece[T] | None:
        """The cheapest way to ``amount`` units of ``r`` beyond what is held (``counted``: already subtracted)."""
        # A found thing is found once; a placed block is one block (mining it uses it up), so it counts.
        found_once = r >= self.rules.n_items and r not in self.rules.placed_only
        if not counted:
            have = self.held.get(r, 0)
            if have >= amount or (have and found_once):
                return Piece(self.empty, {})
            amount -= have
        if found_once:
            amount = 1
        # A loop is cut where the derivation meets a resource on its own path, so an answer depends on the path.
        # It must not depend on which plans were asked for before (scores and suites are built from them): an
        # answer is reused only where the resources it looked at are on the path exactly as they were when it
        # was derived, so that deriving it afresh would look at the same resources and give the same answer.
        bit = 1 << r
        key = (r, amount)
        active = self._active
        answers = self._memo.get(key)
        if answers is not None:
            for looked, on_path, piece in answers:
                if looked & active == on_path:
                    self._seen[-1] |= looked
                    return piece
        if active & bit:  # a producer that needs what it makes: not this way
            self._seen[-1] |= bit
            return None
        self.work += 1
        if not active:  # a plan's own setup or need: where its derivation starts
            self._started = (self.work, r)
        elif self.work - self._started[0] > WORK_BUDGET:
            raise TaskverseError(f"deriving {self.rules.names[self._started[1]]} took over {WORK_BUDGET} derivations "
                                 "of a resource: the cost model's prices are not from the derivation's holdings")
        self._active = active | bit
        self._seen.append(bit)
        found: Piece[T] | None = None
        try:
            # a villager's experience: its offers mixed level by level on one villager (``_raise``)
            raised = self._raise(r, amount) if self.rules.names[r].startswith(VILLAGER_XP_PREFIX) else None
            for a, w, runs in [] if raised is not None else self.producers(r, amount):
                found = self._run(a, w, runs)
                # its setups must be had without r (a block placed from the item that mining it gives is no
                # way to the item): obtained here, while r is being obtained, a loop back to r is cut. A held r
                # may wear in making another (a held iron pickaxe mines the iron of the next).
                if found is not None and all((s != r or self.held.get(r, 0) > 0) and self.obtain(s, 1) is not None
                                             for s in found.setups):
                    break
                found = None
            if raised is not None and all(s == r or self.obtain(s, 1) is not None for s in raised.setups):
                found = raised
        finally:
            self._active = active
            looked = self._seen.pop()
            self._seen[-1] |= looked
        self._memo.setdefault(key, []).append((looked, looked & active, found))
        return found

    def producers(self, r: int, amount: int) -> list[tuple[int, int, int]]:
        """(action, way, runs) that make ``amount`` units of ``r``, cheapest first by the model's prices."""
        rules, costs = self.rules, self.costs
        options: list[tuple[float, int, int, int]] = []
        for a in rules.producers[r]:
            for w, outputs in enumerate(rules.way_outputs[a]):
                prices = costs.batch_prices[a][w]
                if not prices:
                    continue
                for out in outputs:
                    if out.resource != r:
                        continue
                    per = out.units(rules.n_items)
                    if per <= 0:
                        continue
                    runs = out.runs_for(amount if r < rules.n_items else 1)
                    cost = min(marginal * amount / per + setup for marginal, setup in prices)
                    options.append((cost, a, w, runs))
        options.sort()
        return [(a, w, runs) for _, a, w, runs in options]

    # -- a villager's experience -----------------------------------------------------------------------------------

    def _raise(self, r: int, amount: int) -> Piece[T] | None:
        """``amount`` more of a villager's experience ``r``, raised on one villager (``world.experience``).

        The profession's offers (the trades yielding ``r``) are mixed level by level, cheapest experience per price
        first, each within its uses; a restock is the cheaper of the wait (``restock_wait``) and another villager
        (a find, which the text world gives fresh offers). Each offer's trades meet their needs but the
        experience, which the schedule's level order provides. None when no schedule exists (the producers then).
        """
        offers = self._xp_offers(r)
        start = self.held.get(r, 0)
        villager, find_price = self._another_villager(offers)
        wait = self.restock_wait
        restock = min(find_price, wait[0] if wait is not None else INF)
        schedule = raise_experience([o for _, _, o in offers], start, start + amount, restock)
        if schedule is None:
            return None
        value: T = self.empty
        setups: dict[int, int] = {}
        away: T | None = None
        takes: frozenset[int] = frozenset()
        for i, trades in schedule:
            if i == RESTOCK:
                if wait is not None and wait[0] <= find_price:
                    piece: Piece[T] | None = Piece(wait[1], {})
                else:
                    piece = None if villager is None else self.obtain(villager, 1, counted=True)
            else:
                a, w, _ = offers[i]
                needs = [n for n in self.rules.ways[a][w] if n.members != (r,) and not n.restock]
                piece = self._run_needs(a, needs, trades)
            if piece is None:
                return None
            if piece.away is None and away is None:
                value = value + piece.value
            else:
                away = _then(away, piece.value if piece.away is None else piece.value + piece.away)
            for s, uses in piece.setups.items():
                setups[s] = setups.get(s, 0) + uses
            takes = takes | piece.takes
        return Piece(value, setups, away, takes)

    def _xp_offers(self, r: int) -> list[tuple[int, int, Offer]]:
        """The offers yielding experience ``r``: (action, way, offer), each priced for the trades one restock gives."""
        found = self._offers.get(r)
        if found is not None:
            return found
        rules, costs = self.rules, self.costs
        found = []
        for a in rules.producers[r]:
            for w, outputs in enumerate(rules.way_outputs[a]):
                xp = sum(o.count for o in outputs if o.resource == r and o.chance >= 1)
                if xp <= 0:
                    continue
                way = rules.ways[a][w]
                level = max((n.count for n in way if n.members == (r,) and not n.consume), default=0)
                uses = max((n.restock for n in way), default=0)
                batch = uses or 1
                # the inputs' price for a restock's trades (their setups shared out), and the trade's own runs
                price = batch * (costs.steps[a] if costs.steps is not None else 1.0)
                for n in way:
                    if n.consume and not n.restock:
                        price += min((costs.amount_cost(m, n.count * batch) for m in n.members if m != rules.heat),
                                     default=INF)
                found.append((a, w, Offer(level, xp, uses, price / batch)))
        self._offers[r] = found
        return found

    def _another_villager(self, offers: Sequence[tuple[int, int, Offer]]) -> tuple[int | None, float]:
        """An offer's trades-left item a find of another villager gives, and that find's price (None, INF: none)."""
        rules = self.rules
        for a, w, _ in offers:
            for n in rules.ways[a][w]:
                if n.restock:
                    maker = next((v for v, counters in rules.stocked.items()
                                  if any(c == n.members[0] for c, _ in counters)), None)
                    if maker is not None:
                        return n.members[0], self.costs.unit[maker]
        return None, INF

    def _run_needs(self, a: int, needs: Sequence[Need], runs: int) -> Piece[T] | None:
        """``runs`` runs of action ``a`` after meeting ``needs`` (a way, or part of one)."""
        piece = self.meet(needs, runs)
        if piece is None:
            return None
        own = self.step(a, runs)
        if piece.away is None and not self._leaves(a):
            return Piece(piece.value + own, piece.setups, None, piece.takes)
        return Piece(piece.value, piece.setups, _then(piece.away, own), piece.takes)

    def _run(self, a: int, w: int, runs: int) -> Piece[T] | None:
        return self._run_needs(a, self.rules.ways[a][w], runs)

    def _leaves(self, a: int) -> bool:
        """Whether an action takes the agent away from the start's dimension (a trip to another)."""
        return a in self.rules.trips and any(o.resource in self._away_dimensions for o in self.rules.outputs[a])

    # -- holdings ---------------------------------------------------------------------------------------------------

    def _holds(self, r: int, amount: int) -> bool:
        return self.held.get(r, 0) >= amount

    def _met(self, need: Need, runs: int) -> bool:
        held = self.held
        if _kept_stock(need):
            return sum(held.get(m, 0) for m in need.members) >= need.count
        if not need.consume:
            return any(held.get(m, 0) for m in need.members)
        weights = need.weights or (1,) * len(need.members)
        return sum(held.get(m, 0) * w for m, w in zip(need.members, weights, strict=True)) + need.restock \
            >= need.count * runs

    def _way_estimate(self, way: Sequence[Need], runs: int) -> float:
        """What a way costs beyond the holdings: its consumed needs' prices, plus its dearest setup."""
        marginal, setup = 0.0, 0.0
        for need in way:
            if self._met(need, runs):
                continue
            if not need.consume:
                best = min((self._parts(need, 1, m, runs) for m in need.members), key=sum, default=(INF, INF))
                marginal += best[0]  # a tool that wears: its share of another a run
                setup = max(setup, best[1])
                continue
            weights = need.weights or (1,) * len(need.members)
            marginal += min((self.costs.amount_cost(m, -(-need.count * runs // w))
                             for m, w in zip(need.members, weights, strict=True) if m != self.rules.heat),
                            default=INF)
        return marginal + setup


def _then(first: Any, then: Any) -> Any:
    """``first + then`` where either may be None (no steps)."""
    if first is None:
        return then
    return first if then is None else first + then


def _kept_stock(need: Need) -> bool:
    """A kept need for several items (not a single tool or station): they are made like consumed ones."""
    return not need.consume and not need.presence and need.count > 1


def compile_needs(rules: Rules, way: Sequence[NeedSpec]) -> list[Need] | None:
    """A task's way (schema needs) as the model's needs; None when a need names nothing the world knows.

    For tasks the rules do not hold as actions: goals (``obtain.*``) and tasks from files.
    """
    compiled: list[Need] = []
    for need in way:
        kind = need.kind.value
        members = [rules.index[(kind, m)] for m in need.any_of if (kind, m) in rules.index]
        if not members:
            return None
        presence = kind != "item"
        weights: tuple[int, ...] | None = None
        count = 1 if presence else need.count
        if need.measure == Measure.SMELTS:
            members = [m for m in members if rules.fuel_ticks.get(rules.names[m], 0) > 0]
            if not members:
                return None
            weights = tuple(rules.fuel_ticks[rules.names[m]] for m in members)
            count = need.count * TICKS_PER_SMELT
        virtual = members[0] if len(members) == 1 and weights is None else -1 - len(compiled)
        uses = need.uses if need.kept and not presence and any(rules.names[m] in rules.tools for m in members) else 0
        compiled.append(Need(tuple(members), count, consume=not presence and not need.kept, presence=presence,
                             virtual=virtual, weights=weights, uses=uses, wears=rules.wear_shares(members, uses)))
    return compiled


def held_resources(rules: Rules, inventory: Mapping[str, int], found: Iterable[tuple[str, str]]) -> dict[int, int]:
    """Holdings by resource index: items by count, found things (and the dimension stood in) by 1."""
    held: dict[int, int] = {}
    for name, count in inventory.items():
        r = rules.index.get(("item", name))
        if r is not None and count > 0:
            held[r] = held.get(r, 0) + count
    for resource in found:
        r = rules.index.get(resource)
        if r is not None:
            held[r] = 1
    spawn = rules.spawn(lambda r: held.get(r, 0))  # as ``Rules.start``: a start that names no dimension
    if spawn is not None:
        held[spawn] = 1
    return held


def one_way_dimensions(rules: Rules) -> frozenset[int]:
    """The dimensions whose way back needs more than the trip there brought (the End's: the dragon's death).

    A plan enters these last: whatever a later step needs from elsewhere is had before.
    """
    found: set[int] = set()
    for d in rules.dimensions:
        into = [a for a in rules.trips if any(o.resource == d for o in rules.outputs[a])]
        brought = {o.resource for a in into for o in rules.outputs[a]}  # the End and its portal, say
        ways_back = [way for a in rules.trips if all(o.resource != d for o in rules.outputs[a])
                     for way in rules.ways[a] if any(need.presence and d in need.members for need in way)]
        if brought and all(any(need.presence and d not in need.members and not brought & set(need.members)
                               for need in way) for way in ways_back):
            found.add(d)
    return frozenset(found)


def preferences(rules: Rules) -> list[int]:
    """Per resource, its rank among equally cheap members (kept on the rules).

    What a player reaches for first (oak, white, coal...), as the dependency graph draws them.
    """
    cached: list[int] | None = getattr(rules, "_preferences", None)
    if cached is None:
        cached = [next((i for i, prefix in enumerate(PREFERRED_PREFIXES) if name.startswith(prefix)),
                       len(PREFERRED_PREFIXES)) for name in rules.names]
        rules._preferences = cached  # type: ignore[attr-defined]
    return cached

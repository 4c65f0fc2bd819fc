"""Pre-task dependency graphs (MCU Section 2.1 and Figure 2), built generically from what atoms need and yield.

Every atom declares its ways (``requires``: needs that must all be met) and what it gives (``yields``). From
those, one world-wide graph links resources to the atoms that produce and consume them:

* an item (or a found block, entity, biome, dimension) has an OR dependency on the atoms that yield it;
* a need that accepts several items ("any planks") is a group node with OR edges from its members;
* an atom has AND dependencies on its needs (and an OR over its ways when it has several).

Recipes loop (iron_block -> iron_ingot -> iron_block), so the graph is grounded in what the world generates:
every node gets a *rank*, the length of its shortest derivation from nothing (a least fixpoint, Knuth's
generalisation of Dijkstra). An alternative is kept only when it is at most ``SLACK`` steps deeper than the
best one, which leaves out recycling and re-dyeing detours, and what remains is checked acyclic. The dependency
graph of a task is the part of this graph its node depends on.
"""

from __future__ import annotations

import heapq
from collections import defaultdict
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from itertools import pairwise
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # networkx is imported where graphs are made: `taskverse show` need not pay for it
    import networkx as nx

from taskverse.schema import AtomTask, Initialization, Need, ResourceKind, WaySpec, Yield

SLACK = 1
"""Ranks: how much deeper than the best an alternative may be and still count as a shortest derivation."""
TIES = 2
"""Members of a need drawn with their derivations in the pruned graph, cheapest first (``--all`` draws them all)."""
PREFERRED_PREFIXES = ("oak_", "white_", "cobblestone", "coal", "iron_", "stone")
"""Among equally cheap members, the ones a player reaches for first (the generator's representatives too)."""
KEEP_RATIO = 5.0
KEEP_SLACK = 1.0
KEEP_AMOUNTS = (1.0,)
KEEP_WAY_RATIO = 2.0
MANY_PRODUCERS = 8
PRODUCERS = 4
"""An alternative (a way of a task, a member of a need, a producer of a resource) stays in the dependency graph when
it costs at most ``max(best + KEEP_SLACK, KEEP_RATIO * best)`` steps: a player's real choices (wool from a sheep
or from four strings, string from a spider or a cobweb, coal or planks as fuel), not detours (carpets as fuel).
``KEEP_AMOUNTS``: the amounts at which a producer is compared with the best one (a unit's price depends on how many
are wanted: setup once, marginal each). Recipes of one product stay when one unit from them costs at most
``KEEP_WAY_RATIO`` times the best recipe's (sticks from planks, not from bamboo at 2.7 times the price). Of the
producers of one resource within those bounds, when they are more than ``MANY_PRODUCERS``, the ``PRODUCERS``
cheapest stay: a player knows a few ways to emeralds, not the 33 trades that pay them within five times the
cheapest (string's five producers all stay: a spider, a cave spider, a cat, tripwire, a cobweb)."""



def yield_penalty(chance: float) -> float:
    """Extra steps a chance drop costs: on average 1/p tries instead of one (a zombie's iron ingot: ~119)."""
    return 1.0 / chance - 1.0


StepCost = Callable[[AtomTask], float]


def unit_cost(task: AtomTask) -> float:
    """Every task is one step (the plain depth of the derivation)."""
    return 1.0

AND = "and"
OR = "or"

Resource = tuple[str, str]  # (kind, name)


def resource_node(kind: str, name: str) -> str:
    """Node id of a resource: ``item:string``, ``entity:spider``, ``dimension:nether``."""
    return f"{kind}:{name}"


def task_node(task_id: str) -> str:
    """Node id of a task."""
    return f"task:{task_id}"


def needs_from_initialization(init: Initialization) -> list[Need]:
    """The needs an initialization implies: MCU's atoms start with exactly their prerequisites."""
    needs = [Need(any_of=[item], count=n) for item, n in sorted(init.inventory.items())]
    if init.main_hand:
        needs.append(Need(any_of=[init.main_hand], kept=True))
    needs += [Need(any_of=[item], kept=True) for _, item in sorted(init.equipment.items())]
    needs += [Need(kind=ResourceKind.ENTITY, any_of=[s.entity], count=s.count) for s in init.summon]
    needs += [Need(kind=ResourceKind.BLOCK, any_of=[b], count=n) for b, n in sorted(init.nearby_blocks.items())]
    if init.biome:
        needs.append(Need(kind=ResourceKind.BIOME, any_of=[init.biome], kept=True))
    if init.structure:
        needs.append(Need(kind=ResourceKind.STRUCTURE, any_of=[init.structure], kept=True))
    if init.dimension.value != "overworld":
        needs.append(Need(kind=ResourceKind.DIMENSION, any_of=[init.dimension.value], kept=True))
    return needs


def ways_of(task: AtomTask) -> list[list[Need]]:
    """The ways to do an atom: its declared ``requires``, else the one way its initialization implies."""
    if task.requires is not None:
        return [list(way.needs) if isinstance(way, WaySpec) else list(way) for way in task.requires]
    return [needs_from_initialization(task.initialization)]


def way_yields(task: AtomTask) -> list[list[Yield]]:
    """What each way of an atom yields (parallel to ``ways_of``): its own yields, else the task's."""
    if task.requires is None:
        return [list(task.yields)]
    return [list(way.yields) if isinstance(way, WaySpec) else list(task.yields) for way in task.requires]


USED_BY_HAND = frozenset({"place", "eat", "equip"})
"""Events whose item is used, as the game's ``used`` statistic counts it: the block placed, the food eaten, the
armour put on (right-clicked on)."""


def target_used(task: AtomTask) -> bool:
    """Whether doing an atom uses its goal's own item: the food eaten, the armour put on (``USED_BY_HAND``).

    A place uses the item it takes, not the block it names (``items_used``). An equip whose need keeps the item
    with no ``uses`` (an engine game's: the item only held in hand) puts nothing on, and the game counts no use of
    an item merely held.
    """
    event = task.goal.event.value
    if event not in USED_BY_HAND or event == "place":
        return False
    return event != "equip" or not any(need.kept and need.uses == 0 and task.goal.target in need.any_of
                                       for way in ways_of(task) for need in way)


def items_used(task: AtomTask, tags: Mapping[str, Collection[str]], tools: Collection[str],
               worn: Collection[str]) -> set[str]:
    """The items doing an atom can use, as the game's ``used`` statistic counts them (Minecraft Wiki, Statistics).

    The block it places, the food it eats, the armour it puts on; a tool it keeps and uses (a need's ``uses`` > 0:
    a pickaxe breaking a block, a sword hitting a mob), one of ``tools`` (the items with durability) other than
    the ``worn`` armour, which wears when hit: no use; and the item held when its goal is a use on a block in the
    world (a bucket on water, a compass on a lodestone). An item used on a mob (wheat fed to a cow) or at a
    station in the inventory (an anvil, an enchanting table) is no use of it in the game's count.
    ``world.rules.Rules.events`` emits a ``use`` event for each it uses.
    """
    goal = task.goal
    event = goal.event.value

    def names(name: str) -> set[str]:
        return set(tags.get(name[1:], ())) if name.startswith("#") else {name}

    out: set[str] = set()
    ways = ways_of(task)
    for way in ways:
        for need in way:
            if need.kind != ResourceKind.ITEM:
                continue
            if need.kept and need.uses and any(m in tools for m in need.any_of):
                out |= {m for m in need.any_of if m in tools and m not in worn}
            elif event == "place" and not need.kept:
                out |= set(need.any_of)
    if target_used(task):
        out |= names(goal.target)
    if event == "use" and goal.using is not None:
        blocks = names(goal.target)
        if any(need.kind == ResourceKind.BLOCK and blocks & set(need.any_of) for way in ways for need in way):
            out |= names(goal.using)
    return out


def need_members(need: Need) -> list[Resource]:
    """The resources that can satisfy a need."""
    return [(need.kind.value, name) for name in need.any_of]


INF = float("inf")


class World:
    """The world-wide dependency graph over a set of atoms, with ranks and the kept alternatives.

    Held as plain adjacency (fast to cache and load); networkx graphs are made on demand.
    """

    def __init__(self, graph: nx.DiGraph, rank: dict[str, float]) -> None:
        self.nodes: dict[str, dict[str, Any]] = {n: dict(d) for n, d in graph.nodes(data=True)}
        self.preds: dict[str, list[tuple[str, dict[str, Any]]]] = {
            n: [(u, dict(d)) for u, _, d in graph.in_edges(n, data=True)] for n in graph.nodes
        }
        self.rank = rank
        self._graph: nx.DiGraph | None = graph

    def __getstate__(self) -> dict[str, Any]:
        return {"nodes": self.nodes, "preds": self.preds, "rank": self.rank}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._graph = None

    @property
    def graph(self) -> nx.DiGraph:
        """The whole graph as networkx (built once on first use)."""
        if self._graph is None:
            self._graph = self._make_graph(self.nodes)
        return self._graph

    def task_rank(self, task_id: str) -> float:
        """Length of the shortest derivation of a task from an empty inventory (inf if impossible)."""
        return self.rank.get(task_node(task_id), INF)

    def resource_rank(self, kind: str, name: str) -> float:
        """Length of the shortest derivation of a resource (inf if the world cannot provide it)."""
        return self.rank.get(resource_node(kind, name), INF)

    def _parent_lists(self) -> dict[str, tuple[str, ...]]:
        """Each node's parents without the edges' data (made once: the walks up the graph read only these)."""
        parents: dict[str, tuple[str, ...]] | None = self.__dict__.get("_parents")
        if parents is None:
            parents = self.__dict__["_parents"] = {n: tuple(u for u, _ in edges) for n, edges in self.preds.items()}
        return parents

    def _task_nodes(self) -> frozenset[str]:
        """The nodes that are tasks (made once)."""
        tasks: frozenset[str] | None = self.__dict__.get("_tasks")
        if tasks is None:
            tasks = self.__dict__["_tasks"] = frozenset(n for n, d in self.nodes.items() if d.get("type") == "task")
        return tasks

    def ancestors(self, node: str) -> set[str]:
        """Every node ``node`` depends on, directly or not."""
        seen: set[str] = set()
        stack = [node]
        preds = self._parent_lists()
        while stack:
            for parent in preds.get(stack.pop(), ()):
                if parent not in seen:
                    seen.add(parent)
                    stack.append(parent)
        return seen

    def _make_graph(self, keep: Iterable[str]) -> nx.DiGraph:
        import networkx as nx

        graph = nx.DiGraph()
        keep = set(keep)
        graph.add_nodes_from((n, self.nodes[n]) for n in keep)
        graph.add_edges_from((u, v, d) for v in keep for u, d in self.preds.get(v, ()))
        return graph

    def dependency_graph(self, task_id: str) -> nx.DiGraph:
        """The pre-task dependency graph of one task: its node and everything it depends on."""
        node = task_node(task_id)
        if node not in self.nodes:
            raise KeyError(task_id)
        return self._make_graph(self.ancestors(node) | {node})

    def graph_size(self, task_id: str) -> tuple[int, int]:
        """Node and edge counts of a task's dependency graph (every parent of an ancestor is one too)."""
        node = task_node(task_id)
        keep = self.ancestors(node) | {node}
        return len(keep), sum(len(self.preds.get(n, ())) for n in keep)

    def pre_tasks(self, task_id: str) -> list[str]:
        """Ids of the atoms in a task's dependency graph, other than itself, sorted."""
        return sorted(n[5:] for n in self.ancestors(task_node(task_id)) & self._task_nodes())


def _need_node(need: Need, members: list[Resource]) -> str:
    if len(members) == 1:
        return resource_node(*members[0])
    return "any:" + need.kind.value + ":" + "|".join(sorted(m[1] for m in members))


def compute_ranks(tasks: dict[str, AtomTask], step_cost: StepCost = unit_cost) -> dict[str, float]:
    """Least-fixpoint ranks: rank(task) = cost + min over ways of max over needs of min over members.

    A resource's rank is its best producer's rank plus the penalty of a chance drop.

    Nodes are finalised in increasing rank (Knuth 1977), so each is settled once: O(E log V).
    """
    rank: dict[str, float] = {}
    # For each resource, the (task, way, need) slots it can fill.
    slots: dict[Resource, list[tuple[str, int, int]]] = defaultdict(list)
    missing: dict[tuple[str, int], int] = {}
    need_rank: dict[tuple[str, int, int], float] = {}
    heap: list[tuple[float, str, str]] = []
    outcomes = {task_id: way_yields(task) for task_id, task in tasks.items()}
    for task_id, task in tasks.items():
        for w, way in enumerate(ways_of(task)):
            missing[(task_id, w)] = len(way)
            for n, need in enumerate(way):
                for member in need_members(need):
                    slots[member].append((task_id, w, n))
            if not way:
                heapq.heappush(heap, (step_cost(task), "way", f"{task_id}\0{w}"))
    heapq.heappush(heap, (0.0, "res", "dimension\0overworld"))  # every start is in the overworld, or names its own
    settled_resources: set[Resource] = set()
    settled_ways: set[str] = set()
    while heap:
        value, kind, key = heapq.heappop(heap)
        if kind == "way":
            if key in settled_ways:
                continue
            settled_ways.add(key)
            task_id, way_text = key.split("\0")
            node = task_node(task_id)
            if node not in rank:
                rank[node] = value
            for y in outcomes[task_id][int(way_text)]:
                heapq.heappush(heap, (value + yield_penalty(y.chance), "res", f"{y.kind.value}\0{y.name}"))
            continue
        res_kind, name = key.split("\0")
        resource = (res_kind, name)
        if resource in settled_resources:
            continue
        settled_resources.add(resource)
        rank[resource_node(res_kind, name)] = value
        for task_id, w, n in slots.get(resource, ()):
            slot = (task_id, w, n)
            if slot in need_rank:
                continue
            need_rank[slot] = value
            missing[(task_id, w)] -= 1
            if missing[(task_id, w)] == 0:
                heapq.heappush(heap, (value + step_cost(tasks[task_id]), "way", f"{task_id}\0{w}"))
    return rank


def build_world(tasks: Iterable[AtomTask], step_cost: StepCost = unit_cost,
                costs: Mapping[str, Sequence[tuple[float, float]]] | None = None,
                fuel_ticks: Mapping[str, int] | None = None, include: nx.DiGraph | None = None,
                prune: bool = True, durability: Mapping[str, int] | None = None) -> World:
    """Build the world-wide dependency graph over ``tasks`` (see the module docstring for the rules).

    Args:
        tasks: The atoms.
        step_cost: Steps one run of a task is worth, for the ranks (solvable from scratch, derivation depth).
        costs: The prices of each resource (``item:stick``, ``entity:spider``) from nothing, in steps: the world
            model's cost fixpoint (``world.rules.CostModel.fronts``), each a (marginal per unit, setup once) pair.
            Alternatives dearer than ``KEEP_RATIO`` times the best (and more than ``KEEP_SLACK`` above it) are
            left out; a member of a need is priced without the setup the way's other needs pay anyway (coal needs
            the pickaxe that the iron ore needs too). Without costs, every grounded alternative stays
            (``taskverse graph --all``).
        fuel_ticks: Burn ticks of each fuel, to cost fuel needs per smelt.
        include: A graph whose nodes and edges this one holds too (the pruned graph, in the graph of every
            alternative: its cycles are broken at the other alternatives' edges, so every pruned graph is a part
            of the graph with every alternative).
        prune: Whether the costs leave out dear alternatives. Without pruning (``taskverse graph --all`` with
            costs), every grounded alternative stays and the costs only say which edge of a cycle is the detour:
            the one whose every unit costs most above the cheapest alternative's for its target (a banner burnt as
            fuel for iron, not the wool of shears made once), where depths alone tie them.
        durability: Durability of each item that wears: a kept need's tool costs, beyond its price once, the share
            ``uses / durability`` of another a run (``world.rules``'s rule for a kept need that wears).

    """
    by_id = {t.id: t for t in tasks}
    import networkx as nx

    rank = compute_ranks(by_id, step_cost)
    graph = nx.DiGraph()
    pruning = costs is not None and prune
    # With costs and no pruning: how much more each unit through an OR edge costs than through the cheapest
    # alternative (marginal prices: a tool is made once, so shears' wool is no detour; a banner burnt is one each time)
    excess: dict[tuple[str, str], float] = {}

    def note_excess(edge: tuple[str, str], value: float, best: float) -> None:
        over = INF if value == INF else value - min(value, best)
        excess[edge] = min(over, excess.get(edge, INF))  # a member of several needs: its cheapest use

    def r(node: str) -> float:
        return rank.get(node, INF)

    def unit(node: str) -> float:
        """One unit from nothing, setup included."""
        if r(node) == INF:
            return INF
        if costs is None:
            return 0.0
        return min((m + s for m, s in costs.get(node, ())), default=INF)

    def amount(need: Need, member: Resource) -> float:
        """Units of the member the need takes (fuel: the share of an item its smelts burn; the rest stays hot)."""
        if need.measure.value == "smelts":
            ticks = (fuel_ticks or {}).get(member[1], 0)
            return INF if not ticks else need.count * 200 / ticks
        return float(need.count)

    parts_memo: dict[tuple[Any, ...], tuple[float, float]] = {}

    def need_parts(need: Need, member: Resource) -> tuple[float, float]:
        """(marginal, setup) of meeting the need with this member: consumed, per unit times the amount; kept, once.

        Asked some 160,000 times over the library for fewer pairs: remembered by what the answer reads of the need.
        """
        key = (need.kept, need.kind, need.measure, need.count, need.uses, member)
        found = parts_memo.get(key)
        if found is None:
            found = parts_memo[key] = _need_parts(need, member)
        return found

    def _need_parts(need: Need, member: Resource) -> tuple[float, float]:
        node = resource_node(*member)
        if r(node) == INF:
            return INF, INF
        if costs is None:
            return 0.0, 0.0
        if need.kept or need.kind != ResourceKind.ITEM:
            lasting = (durability or {}).get(member[1], 0) if need.kept and need.kind == ResourceKind.ITEM else 0
            if not lasting or not need.uses:
                return 0.0, unit(node)
            # a tool that wears: had once, and each run wears its share of another (the best price's marginal)
            m, s = min(costs.get(node, ()), key=sum, default=(INF, INF))
            return need.uses / lasting * m, m + s
        q = amount(need, member)
        if q == INF:
            return INF, INF
        return min(((q * m, s) for m, s in costs.get(node, ())), key=sum, default=(INF, INF))

    def need_cost(need: Need, member: Resource, free: float = 0.0) -> float:
        """What meeting the need with this member costs, less the setup up to ``free`` paid anyway."""
        marginal, setup = need_parts(need, member)
        return marginal + max(0.0, setup - free)

    def best_parts(way: list[Need]) -> list[tuple[float, float]]:
        return [min((need_parts(n, m) for m in need_members(n)), key=sum, default=(INF, INF)) for n in way]

    def way_price(way: list[Need]) -> tuple[float, float]:
        """One run: (a step and the consumed needs' marginal costs, the dearest setup: setups overlap)."""
        parts = best_parts(way)
        return 1.0 + sum(m for m, _ in parts), max((s for _, s in parts), default=0.0)

    def way_cost(way: list[Need]) -> float:
        return sum(way_price(way))

    def per_unit(price: tuple[float, float], y: Yield) -> float:
        """One unit of a yield: the run's marginal cost shared by the units it gives, plus the setup."""
        return price[0] / y.units + price[1]

    def setups_elsewhere(way: list[Need]) -> list[float]:
        """Per need, the setup the way's other needs pay anyway."""
        setups = [s for _, s in best_parts(way)]
        return [max((x for j, x in enumerate(setups) if j != i), default=0.0) for i in range(len(setups))]

    def kept(value: float, best: float) -> bool:
        return value < INF and value <= max(best + KEEP_SLACK, KEEP_RATIO * best) + 1e-9

    def way_kept(price: tuple[float, float], best: Sequence[tuple[float, float]]) -> bool:
        """Whether a recipe's unit price is within ``KEEP_WAY_RATIO`` of the best recipe's for the same product."""
        value = price[0] + price[1]
        floor = min((m + s for m, s in best), default=INF)
        return value < INF and value <= KEEP_WAY_RATIO * floor + 1e-9

    def kept_at_some_amount(price: tuple[float, float], best: Sequence[tuple[float, float]]) -> bool:
        """Whether a per-unit price is about the best one's at some amount of ``KEEP_AMOUNTS``."""
        return any(kept(q * price[0] + price[1], min((q * m + s for m, s in best), default=INF))
                   for q in KEEP_AMOUNTS)

    # The cheapest way of each task, and the cheapest producer of each resource, for telling detours apart.
    best_ways: dict[str, list[Need]] = {}
    best_producer: dict[str, tuple[float, str]] = {}
    if costs is not None:
        for task_id, task in by_id.items():
            if r(task_node(task_id)) == INF:
                continue
            ways, outcomes = ways_of(task), way_yields(task)
            scored = [(sum(price), w, price) for w, price in enumerate(way_price(way) for way in ways)]
            value, w, price = min(scored)
            if value == INF:
                continue
            best_ways[task_id] = ways[w]
            for y in outcomes[w]:
                one = per_unit(price, y)
                node = resource_node(y.kind.value, y.name)
                if one < best_producer.get(node, (INF, ""))[0]:
                    best_producer[node] = (one, task_id)

    def consumed(way: list[Need]) -> set[str]:
        return {resource_node(*m) for n in way if not n.kept and n.kind == ResourceKind.ITEM for m in need_members(n)}

    def detour(way: list[Need], best: list[Need]) -> bool:
        """A way that makes what it uses out of what the best way uses (planks from wood blocks made of logs)."""
        sources = consumed(best)
        for need in way:
            if need.kept or need.kind != ResourceKind.ITEM:
                continue
            cheapest = min(need_members(need), key=lambda m: need_cost(need, m))
            producer = best_producer.get(resource_node(*cheapest))
            if producer is not None and consumed(best_ways.get(producer[1], [])) & sources:
                return True
        return False

    def made_from_another(member: Resource, others: set[str]) -> bool:
        """Whether a member is made from another member of the same need (oak wood from oak logs)."""
        producer = best_producer.get(resource_node(*member))
        return producer is not None and bool(consumed(best_ways.get(producer[1], [])) & others)

    def few_of_a_kind(options: dict[Resource, float]) -> tuple[list[Resource], list[Resource]]:
        """Kept options, and those drawn: the ``TIES`` cheapest (nine woods are one choice, drawn by two)."""
        best = min(options.values())
        names = {resource_node(*m) for m in options}
        chosen: list[Resource] = []
        drawn: list[Resource] = []
        for member, value in sorted(options.items(), key=lambda kv: (round(kv[1], 6), _preference(kv[0][1]),
                                                                     kv[0][1])):
            if not (kept(value, best) if pruning else r(resource_node(*member)) < INF):
                continue
            if pruning and value > best and made_from_another(member, names - {resource_node(*member)}):
                continue
            chosen.append(member)
            if not pruning or len(drawn) < TIES:
                drawn.append(member)
        return chosen, drawn

    def recycles(way: list[Need], resource: str) -> bool:
        """Whether a way makes ``resource`` out of something made of it (ingots from a block of ingots)."""
        if resource in consumed(way):
            return True  # re-dyeing: white wool from wool
        for need in way:
            if need.kept or need.kind != ResourceKind.ITEM:
                continue
            cheapest = min(need_members(need), key=lambda m: need_cost(need, m))
            producer = best_producer.get(resource_node(*cheapest))
            if producer is not None and resource in consumed(best_ways.get(producer[1], [])):
                return True
        return False

    producers: dict[str, list[tuple[float, str]]] = {}
    for task_id, task in sorted(by_id.items()):
        t_node = task_node(task_id)
        t_rank = r(t_node)
        graph.add_node(t_node, type="task", label=task.description, rank=t_rank)
        if t_rank == INF:
            continue
        ways = ways_of(task)
        cost = step_cost(task)
        way_ranks = [cost + max((_need_rank(need, rank) for need in way), default=0) for way in ways]
        way_prices = [way_price(way) if wr < INF else (INF, INF) for way, wr in zip(ways, way_ranks, strict=True)]
        way_costs = [sum(p) for p in way_prices]
        best_way = min(way_costs)
        best_price = way_prices[way_costs.index(best_way)]
        cheapest_way = ways[way_costs.index(best_way)]
        # Ways are compared by what one unit of their main yield costs (four sticks from planks, one from bamboo).
        outcomes = way_yields(task)
        unit_prices = [(p[0] / _main_amount(outcome), p[1]) for p, outcome in zip(way_prices, outcomes, strict=True)]
        kept_ways = [(w, way) for w, way in enumerate(ways)
                     if (way_costs[w] < INF and way_kept(unit_prices[w], unit_prices)
                         and (way is cheapest_way or not detour(way, cheapest_way)) if pruning
                         else way_ranks[w] < INF)]
        for w, way in kept_ways:
            target = t_node
            if len(kept_ways) > 1:
                target = f"way:{task_id}:{w}"
                graph.add_node(target, type="way", label=f"way {w + 1}", rank=way_ranks[w])
                graph.add_edge(target, t_node, dep=OR)
                note_excess((target, t_node), way_prices[w][0], min(m for m, _ in way_prices))
            for need, free in zip(way, setups_elsewhere(way), strict=True):
                members, drawn = few_of_a_kind({m: need_cost(need, m, free) for m in need_members(need)})
                margins = {m: need_parts(need, m)[0] for m in need_members(need)}
                node = _need_node(need, members)
                if len(members) > 1:
                    graph.add_node(node, type="group", kind=need.kind.value, members=[m[1] for m in members],
                                   rank=_need_rank(need, rank))
                    for m in drawn:
                        _add_resource(graph, m, rank)
                        graph.add_edge(resource_node(*m), node, dep=OR)
                        note_excess((resource_node(*m), node), margins[m], min(margins.values()))
                else:
                    _add_resource(graph, members[0], rank)
                graph.add_edge(node, target, dep=AND, count=need.count)
        for y in {y.name: y for outcome in way_yields(task) for y in outcome}.values():
            res_node = resource_node(y.kind.value, y.name)
            # A producer stays when one unit from it costs about what the cheapest producer's unit does.
            # Priced with what the cheapest way gives of it (four sticks from planks, not one from bamboo).
            given = {z.name: z for z in outcomes[ways.index(cheapest_way)]}.get(y.name, y)
            divisor = given.units
            price = (best_price[0] / divisor, best_price[1])
            fronts = (costs or {}).get(res_node, ())
            if not pruning or (kept_at_some_amount(price, fronts) and
                               not all(recycles(way, res_node) for _, way in kept_ways)):
                _add_resource(graph, (y.kind.value, y.name), rank)
                graph.add_edge(t_node, res_node, dep=OR)
                note_excess((t_node, res_node), price[0], min((m for m, _ in fronts), default=INF))
                producers.setdefault(res_node, []).append((price[0] + price[1], task_id))
    if pruning:
        for res_node, priced in producers.items():
            for _, task_id in sorted(priced)[PRODUCERS:] if len(priced) > MANY_PRODUCERS else []:
                graph.remove_edge(task_node(task_id), res_node)
    for task_id, task in sorted(by_id.items()):
        for pre in task.pre_tasks:
            if pre in by_id:
                graph.add_edge(task_node(pre), task_node(task_id), dep=AND)
    keep: frozenset[tuple[str, str]] = frozenset()
    if include is not None:
        graph.add_nodes_from(include.nodes(data=True))
        graph.add_edges_from(include.edges(data=True))
        keep = frozenset(include.edges)
    _break_cycles(graph, keep, excess if costs is not None and not prune else None)
    _merge_lone_ways(graph)
    # Producers that could not be grounded, and resources nothing produces, are not part of any derivation.
    graph.remove_nodes_from([n for n, d in list(graph.nodes(data=True)) if d.get("rank", INF) == INF and
                             d.get("type") != "task"])
    return World(graph, rank)


def _main_amount(outcome: Sequence[Yield]) -> float:
    """Units of a way's first yield (its main product) one run gives on average."""
    first = outcome[0] if outcome else None
    return first.units if first is not None else 1.0


def _need_rank(need: Need, rank: dict[str, float]) -> float:
    return min((rank.get(resource_node(*m), INF) for m in need_members(need)), default=INF)


def _add_resource(graph: nx.DiGraph, resource: Resource, rank: dict[str, float]) -> None:
    node = resource_node(*resource)
    if node not in graph:
        graph.add_node(node, type="resource", kind=resource[0], label=resource[1], rank=rank.get(node, INF))


def _edge_slack(graph: nx.DiGraph, u: str, v: str) -> float:
    """How much deeper than the best alternative an edge's source is (0 on a shortest derivation).

    Every cycle passes an AND edge, which climbs at least one rank, so it must also pass an edge that falls:
    a detour. Removing the largest detour of each cycle keeps every shortest derivation intact.
    """
    if graph.edges[u, v].get("dep") == AND and graph.nodes[v].get("type") == "task":
        return -1.0  # requirement edges are never the detour
    return graph.nodes[u].get("rank", INF) - graph.nodes[v].get("rank", INF)


def _merge_lone_ways(graph: nx.DiGraph) -> None:
    """A task left with one way after cycle breaking depends on that way's needs directly."""
    ways = [n for n, d in graph.nodes(data=True) if d.get("type") == "way"]
    for way in ways:
        if graph.out_degree(way) == 0:
            graph.remove_node(way)
    by_task: dict[str, list[str]] = defaultdict(list)
    for way in (n for n, d in graph.nodes(data=True) if d.get("type") == "way"):
        by_task[next(iter(graph.successors(way)))].append(way)
    for task, task_ways in by_task.items():
        if len(task_ways) == 1:
            way = task_ways[0]
            for need, _, data in list(graph.in_edges(way, data=True)):
                graph.add_edge(need, task, **data)
            graph.remove_node(way)


def _break_cycles(graph: nx.DiGraph, keep: Collection[tuple[str, str]] = (),
                  excess: Mapping[tuple[str, str], float] | None = None) -> None:
    """Remove the largest detour of each remaining cycle (alternatives within the slack can still loop).

    The largest detour is the edge whose source is dearest above the cheapest alternative by ``excess`` (steps,
    when given: edges it does not price are requirements, never the detour), then the deepest by ``_edge_slack``.

    Cycles lie inside strongly connected components, so each component is searched on its own, from its nodes in
    the graph's order (a component is a set: its own order changes with the hash seed). An edge in ``keep`` goes
    last (the pruned graph's edges, when the graph of every alternative is built: it holds them).
    """
    import networkx as nx

    def worst(cycle: list[tuple[str, str]]) -> tuple[str, str]:
        if excess is None:
            return max(cycle, key=lambda e: (e not in keep, _edge_slack(graph, *e), e))
        return max(cycle, key=lambda e: (e not in keep, excess.get(e, -1.0), _edge_slack(graph, *e), e))

    place = {node: n for n, node in enumerate(graph)}
    for component in list(nx.strongly_connected_components(graph)):
        if len(component) < 2:
            continue
        order = sorted(component, key=place.__getitem__)
        succ = {n: [v for v in graph.successors(n) if v in component] for n in order}
        for edge in _cut_cycles(order, succ, worst):
            graph.remove_edge(*edge)


def _cut_cycles(order: Sequence[str], succ: Mapping[str, Sequence[str]],
                choose: Callable[[list[tuple[str, str]]], tuple[str, str]]) -> list[tuple[str, str]]:
    """Cut cycles one at a time until none is left; the edges cut, in the order they were.

    Each cycle is the one ``networkx.find_cycle`` finds first (depth-first from the nodes in ``order``, successors
    in ``succ`` order) in what is left, and ``choose`` picks the edge of it to cut. After a cut the walk is rewound
    to where the cut edge was taken instead of started again: everything walked before that is walked the same
    way, so the cycles are the same as a restart's, and thousands of cuts in a component of thousands of nodes
    take a walk of it each, not one walk a cut (minutes for the graph of every alternative).
    """
    cut: list[tuple[str, str]] = []
    gone: set[tuple[str, str]] = set()
    explored: set[str] = set()  # nodes all of whose paths were walked without meeting a cycle
    for start in order:
        if start in explored:
            continue
        visits = [start]  # the nodes this walk reached, in order
        reached = {start: 0}  # node -> its place in visits
        tried = {start: 0}  # node -> how many of its successors the walk took
        path = [start]
        on_path = {start: 0}  # node -> its place in path
        while path:
            tail = path[-1]
            nth = tried[tail]
            if nth == len(succ[tail]):
                del on_path[path.pop()]
                continue
            tried[tail] = nth + 1
            head = succ[tail][nth]
            if head in explored or (tail, head) in gone:
                continue
            if head not in reached:
                reached[head], tried[head], on_path[head] = len(visits), 0, len(path)
                visits.append(head)
                path.append(head)
                continue
            if head not in on_path:
                continue  # finished by this walk: no cycle through it
            at = on_path[head]
            edge = choose([*pairwise(path[at:]), (tail, head)])
            cut.append(edge)
            gone.add(edge)
            if edge != (tail, head):
                # Rewind to just before the walk took the cut edge (u, v): u stays on the path with v tried,
                # whatever was reached from v since is unreached again.
                kept, back = on_path[edge[0]] + 1, reached[edge[1]]
                for node in path[kept:]:
                    del on_path[node]
                del path[kept:]
                for node in visits[back:]:
                    del reached[node], tried[node]
                del visits[back:]
        explored.update(visits)
    return cut


def iter_cycles_in_pre_tasks(tasks: dict[str, AtomTask]) -> Iterator[list[str]]:
    """Cycles formed by explicitly declared ``pre_tasks`` (each reported once)."""
    import networkx as nx

    g = nx.DiGraph()
    for task in tasks.values():
        for pre in task.pre_tasks:
            g.add_edge(pre, task.id)
    yield from (list(c) for c in nx.simple_cycles(g))


def _preference(name: str) -> int:
    return next((i for i, prefix in enumerate(PREFERRED_PREFIXES) if name.startswith(prefix)), len(PREFERRED_PREFIXES))

"""Scripted plans from the engine game's own recipe graph: what a player would do to complete a compiled task.

The planner reads the game's registry (``engine/games/<game>/registry.json``), not Minecraft's knowledge: its
recipes and cook recipes, what each node drops and which tools dig it, which nodes the map generator places
(ores at their depths, biome surfaces, trees and plants of decorations). From that it ranks every way to get an
item (dig a generated node, craft, cook) by cost, and expands the cheapest into engine actions for the harness
(:mod:`taskverse.engine.harness`), simulating the inventory as it goes, so naive-initialized tasks get plans from an
empty inventory.

Operators: parts of AND and THEN are planned in order (which satisfies both); OR plans the first part it can;
constraints add a step before the constrained part's last actions (night: set the time; a biome: travel there;
a cave or a height: move there; bare hands or an item: wield it). Every atom's final action is done afresh, so
THEN always sees its events after the previous part.

Example:
    >>> from taskverse.library.loader import load_library
    >>> from taskverse.engine.compiler import compile_task
    >>> library = load_library()
    >>> task = library.get("craft.stick")
    >>> [(s.do, s.item) for s in plan_task(task, compile_task(task, library), library).steps]
    [('craft', 'default:stick')]

"""

from __future__ import annotations

import heapq
import math
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from taskverse.algebra.expr import (
    AllOf,
    AnyOf,
    AtLeast,
    AtomRef,
    Avoid,
    Constrained,
    Constraint,
    Initialized,
    Repeat,
    Then,
    Within,
    height_range,
)
from taskverse.engine.harness import Plan, Step
from taskverse.engine.ir import GoalIR, TaskIR
from taskverse.engine.profile import (
    DropTable,
    GameMapping,
    GameSettings,
    Registry,
    load_game_settings,
    load_mapping,
    load_registry,
)
from taskverse.engine.runner import expression_of
from taskverse.errors import TaskverseError

INF = math.inf
HAND = ""
#: Where the flat test world's ground is (map generator settings in taskverse.engine.ir.MAPGEN).
GROUND_Y = 8


class NoPlan(TaskverseError):
    """The planner found no way to do a task (or a part) in the game."""


@dataclass(frozen=True)
class Way:
    """One way to get an item: dig a node, craft a recipe, or cook an input."""

    kind: str  # "dig" | "craft" | "cook"
    item: str
    node: str = ""
    tool: str = HAND
    gives: int = 1
    ingredients: tuple[tuple[str, int], ...] = ()
    cooktime: float = 0.0
    cost: float = INF
    rarity: int = 1  # a chance drop, 1 in ``rarity`` digs: the harness digs until it has what is needed


@dataclass
class Place:
    """Where a generated node is: a biome to travel to first, and a height to search around."""

    biomes: tuple[str, ...] = ()
    y: float | None = None
    far: bool = False  # in another dimension: the way there costs more than a walk


class GameGraph:
    """The game's ways to get items, ranked by cost (computed once per game)."""

    def __init__(self, registry: Registry, settings: GameSettings) -> None:
        self.registry = registry
        self.settings = settings
        self.stone = settings.stone
        self.furnace = settings.furnace
        self.items = registry.items
        self.hand = registry.items[HAND].tool_capabilities if HAND in registry.items else None
        self._member_cache: dict[str, list[str]] = {}
        self.cost: dict[str, float] = {}
        self.order: dict[str, int] = {}

    # --- where nodes are ------------------------------------------------------------------------------------

    @cached_property
    def places(self) -> dict[str, Place]:
        """Generated nodes and where to find them."""
        out: dict[str, Place] = {}
        # ores in the stone, and in layers of the stone (taskverse_mc's deepslate, itself an ore in stone), and in
        # the stone of other dimensions (netherrack, end stone)
        hosts = {self.stone} | {o.ore for o in self.registry.ores
                                if self.stone in o.wherein and o.ore_type == "stratum"}
        hosts |= {b.node_stone for b in self.registry.biomes.values() if self.layer_of(b.y_min) and b.node_stone}
        for ore in self.registry.ores:
            if ore.y_min > GROUND_Y or not set(ore.wherein) & hosts:
                continue  # mountain tops and other stones are not in a flat world
            y = min(ore.y_max, GROUND_Y - 12) - 8
            known = out[ore.ore].y if ore.ore in out else None
            if ore.ore not in out or (known is not None and y > known):
                out[ore.ore] = Place(y=y, far=self.layer_of(ore.y_min) is not None)
        out[self.stone] = Place(y=GROUND_Y - 8)
        self._dimension_places(out)
        for name, biome_def in sorted(self.registry.biomes.items()):
            if biome_def.y_min > GROUND_Y or biome_def.y_max < GROUND_Y or name.endswith(("_ocean", "_under")):
                continue
            for node in (biome_def.node_top, biome_def.node_filler, biome_def.node_dust):
                if node:
                    self._add(out, node, name)
        for deco in self.registry.decorations:
            for node in [*deco.decoration, *deco.schematic_nodes]:
                for biome in deco.biomes:
                    if self.at_ground(biome):
                        self._add(out, node, biome)
        return out

    def layer_of(self, y: float) -> str | None:
        """The other dimension a height is in (None: the overworld)."""
        return next((name for name, d in self.settings.dimensions.items() if d.y_min <= y <= d.y_max), None)

    def _dimension_places(self, out: dict[str, Place]) -> None:
        """Blocks of the other dimensions: their stone under the caverns' floors, what stands on the floors."""
        for biome in self.registry.biomes.values():
            layer = self.layer_of(biome.y_min)
            if layer is not None and biome.node_stone:
                out.setdefault(biome.node_stone, Place(y=self.settings.dimensions[layer].floor - 2, far=True))
        for deco in self.registry.decorations:
            if self.layer_of(deco.y_min) is not None:
                for node in [*deco.decoration, *deco.schematic_nodes]:
                    out.setdefault(node, Place(y=deco.y_min, far=True))

    def at_ground(self, biome: str) -> bool:
        """Whether a game biome reaches the flat world's surface (shores, dunes and sea floors do not)."""
        found = self.registry.biomes.get(biome)
        return found is not None and found.y_min <= GROUND_Y + 1 <= found.y_max

    @staticmethod
    def _add(out: dict[str, Place], node: str, biome: str) -> None:
        place = out.setdefault(node, Place())
        if place.y is None and biome not in place.biomes:
            place.biomes = (*place.biomes, biome)

    # --- digging --------------------------------------------------------------------------------------------

    def caps(self, tool: str) -> Any:
        """The tool capabilities an item digs with (the hand's when it has none)."""
        item = self.items.get(tool)
        return item.tool_capabilities if item is not None and item.tool_capabilities is not None else self.hand

    def can_dig(self, node: str, tool: str) -> bool:
        """Whether ``tool`` digs ``node``: ``get_dig_params`` with its capabilities, else the hand's.

        The client falls back to the hand for what a tool cannot dig; so does the harness.
        """
        return self._digs(node, tool) or (tool != HAND and self._digs(node, HAND))

    def _digs(self, node: str, tool: str) -> bool:
        item = self.items.get(node)
        caps = self.caps(tool)
        if item is None or caps is None:
            return False
        if int(item.groups.get("dig_immediate", 0)) in (2, 3):
            return True  # the engine digs these with anything (tool.cpp getDigParams)
        level = int(item.groups.get("level", 0))
        for group, rating in item.groups.items():
            cap = caps.groupcaps.get(group)
            if cap is not None and str(int(rating)) in cap.times and cap.maxlevel >= level:
                return True
        return False

    def chance_drops(self, node: str, tool: str) -> dict[str, int]:
        """Items a node gives only by chance, with their rarity (independent lines and alternatives alike)."""
        item = self.items.get(node)
        if item is None or item.type != "node" or not isinstance(item.drop, DropTable):
            return {}
        sure = self.drops(node, tool)
        out: dict[str, int] = {}
        reach = 1.0  # in a table of alternatives (max_items 1): the chance that no earlier choice took the slot
        for choice in item.drop.items:
            if choice.tools and tool not in choice.tools:
                continue
            chance = reach / choice.rarity if item.drop.max_items == 1 else 1 / choice.rarity
            if chance < 1:
                for entry in choice.items:
                    name = entry.partition(" ")[0]
                    if name not in sure:
                        out[name] = min(out.get(name, 1 << 30), max(2, math.ceil(1 / chance)))
            if item.drop.max_items == 1:
                reach *= 1 - 1 / choice.rarity
        return out

    def drops(self, node: str, tool: str) -> dict[str, int]:
        """What digging ``node`` always gives (chance drops are left out: a plan must not depend on luck)."""
        item = self.items.get(node)
        if item is None or item.type != "node":
            return {}
        drop = item.drop
        if drop is None:
            return {node: 1}
        if isinstance(drop, str):
            if not drop:
                return {}
            name, _, count = drop.partition(" ")
            return {name: int(count or 1)}
        out: Counter[str] = Counter()
        for index, choice in enumerate(drop.items):
            if drop.max_items and index >= drop.max_items:
                break
            if choice.rarity != 1:
                if drop.max_items:
                    break  # a chance entry before this one may take the only slot
                continue
            if choice.tools and tool not in choice.tools:
                continue
            for entry in choice.items:
                name, _, count = entry.partition(" ")
                out[name] += int(count or 1)
        return dict(out)

    @cached_property
    def normal_recipes(self) -> Counter[str]:
        """How many craft recipes make each item."""
        return Counter(r.output for r in self.registry.recipes if r.method == "normal")

    @cached_property
    def tools(self) -> list[str]:
        """Items with tool capabilities (and the hand)."""
        return [HAND, *sorted(n for n, i in self.items.items() if i.type == "tool" and i.tool_capabilities)]

    # --- ways and costs -------------------------------------------------------------------------------------

    def _members(self, cell: str) -> list[str]:
        members = self._member_cache.get(cell)
        if members is None:
            if not cell.startswith("group:"):
                members = [cell] if cell in self.items else []
            else:
                groups = cell[6:].split(",")
                members = sorted(n for n, i in self.items.items() if all(i.groups.get(g, 0) for g in groups))
            self._member_cache[cell] = members
        return members

    @cached_property
    def ways(self) -> dict[str, list[Way]]:
        """Every way to get every item, with its cost (cheapest first)."""
        raw: dict[str, list[Way]] = {}
        for node in self.places:
            for tool in self.tools:
                if not self.can_dig(node, tool):
                    continue
                for item, count in self.drops(node, tool).items():
                    raw.setdefault(item, []).append(Way("dig", item, node=node, tool=tool, gives=count))
                for item, rarity in self.chance_drops(node, tool).items():
                    raw.setdefault(item, []).append(Way("dig", item, node=node, tool=tool, rarity=rarity))
                break  # the first (cheapest: the hand, then by name) tool that digs it is enough
        for recipe in self.registry.recipes:
            if recipe.output not in self.items:
                continue
            if recipe.method == "normal":
                cells = Counter(c for c in recipe.items if c)
                raw.setdefault(recipe.output, []).append(
                    Way("craft", recipe.output, gives=recipe.count, ingredients=tuple(sorted(cells.items()))))
            elif recipe.method == "cooking" and recipe.items:
                raw.setdefault(recipe.output, []).append(
                    Way("cook", recipe.output, gives=recipe.count, ingredients=((recipe.items[0], 1),),
                        cooktime=float(recipe.cooktime or 3)))
        # tools can also dig better: a node some better tool digs when the hand cannot
        for node in self.places:
            if any(self.can_dig(node, t) for t in self.tools[:1]):
                continue
            for tool in self.tools[1:]:
                if self.can_dig(node, tool):
                    for item, count in self.drops(node, tool).items():
                        way = Way("dig", item, node=node, tool=tool, gives=count)
                        if way not in raw.setdefault(item, []):
                            raw[item].append(way)
        return self._rank(raw)

    def _rank(self, raw: dict[str, list[Way]]) -> dict[str, list[Way]]:
        """Settle items cheapest first; a way counts only once everything it uses is settled.

        So every way kept for an item uses only items settled before it: expanding them can never loop (a mese
        pickaxe is never "made" with a mese pickaxe), which a plain shortest-path fixed point would allow.
        """
        cost: dict[str, float] = {}
        order: dict[str, int] = {}
        users: dict[str, list[tuple[str, Way]]] = {}
        cooks: list[tuple[str, Way]] = []
        for item, ways in raw.items():
            for way in ways:
                for dep in self._deps(way):
                    users.setdefault(dep, []).append((item, way))
                if way.kind == "cook":
                    cooks.append((item, way))
        heap: list[tuple[float, str, int]] = []
        counter = 0
        fuel = INF

        def push(item: str, way: Way) -> None:
            nonlocal counter
            c = self._way_cost(way, cost, fuel)
            if c < INF:
                heapq.heappush(heap, (c, item, counter))
                counter += 1

        for item, ways in raw.items():
            for way in ways:
                push(item, way)
        while heap:
            c, item, _ = heapq.heappop(heap)
            if item in cost:
                continue
            cost[item] = c
            order[item] = len(order)
            for user, way in users.get(item, []):
                if user not in cost:
                    push(user, way)
            if item in self.registry.fuels:
                better = self._fuel_cost(cost)
                if better < fuel:
                    fuel = better
                    for user, way in cooks:
                        if user not in cost:
                            push(user, way)
        self.cost = cost
        self.order = order
        out: dict[str, list[Way]] = {}
        for item, ways in raw.items():
            if item not in order:
                continue
            limit = order[item]
            settled = _Before(cost, order, limit)
            fuel_before = self._fuel_cost(settled)
            kept = [Way(**{**w.__dict__, "cost": self._way_cost(w, settled, fuel_before)}) for w in ways]
            out[item] = sorted((w for w in kept if w.cost < INF), key=lambda w: (w.cost, w.kind, w.node, w.tool))
        return out

    def _deps(self, way: Way) -> set[str]:
        deps: set[str] = set()
        for cell, _ in way.ingredients:
            deps.update(self._members(cell))
        if way.kind == "dig" and way.tool != HAND:
            deps.add(way.tool)
        if way.kind == "cook":
            deps.add(self.furnace)
        return deps

    def _fuel_cost(self, cost: Any) -> float:
        """The cheapest cost of one second of burning, over settled fuels."""
        return min((cost[item] / max(fuel.burntime, 1) for item, fuel in self.registry.fuels.items()
                    if item in cost), default=INF)

    def _cell_cost(self, cell: str, cost: Any) -> float:
        return min((cost.get(m, INF) for m in self._members(cell)), default=INF)

    def _way_cost(self, way: Way, cost: Any, fuel: float) -> float:
        if way.kind == "dig":
            place = self.places.get(way.node, Place())
            travel = (2.0 if place.biomes else 0.0) + (1.0 if place.y is not None else 0.0) + \
                (5.0 if place.far else 0.0)
            tool = 0.0 if way.tool == HAND else cost.get(way.tool, INF)
            return (1.0 + travel + tool) * way.rarity / way.gives
        total = 1.0 + sum(n * self._cell_cost(c, cost) for c, n in way.ingredients)
        if way.kind == "cook":
            total += way.cooktime * fuel + cost.get(self.furnace, INF) * 0.1
        return total / way.gives

    def settled_before(self, item: str) -> int:
        """The settling position of an item (ways may use only items settled earlier)."""
        return self.order.get(item, len(self.order))

    def cheapest_member(self, cell: str, have: Counter[str], before: str | None = None) -> str | None:
        """The item to put in a recipe cell: one already held, else the cheapest settled before ``before``."""
        members = self._members(cell)
        held = [m for m in members if have[m] > 0]
        if held:  # the harness picks the same: the held member with the most, then the last by name
            return max(held, key=lambda m: (have[m], m))
        limit = self.settled_before(before) if before is not None else len(self.order)
        ranked = sorted((m for m in members if m in self.order and self.order[m] < limit),
                        key=lambda m: (self.cost[m], m))
        return ranked[0] if ranked else None


class _Before:
    """The settled costs of items settled before a position (a read-only view, no copying)."""

    def __init__(self, cost: dict[str, float], order: dict[str, int], limit: int) -> None:
        self._cost, self._order, self._limit = cost, order, limit

    def get(self, item: str, default: float = INF) -> float:
        """The cost of an item settled before the position, else ``default``."""
        return self._cost[item] if item in self._cost and self._order[item] < self._limit else default

    def __contains__(self, item: object) -> bool:
        return isinstance(item, str) and self.get(item) < INF

    def __getitem__(self, item: str) -> float:
        return self.get(item)


_GRAPHS: dict[str, GameGraph] = {}


def game_graph(game: str = "minetest_game") -> GameGraph:
    """The game's ranked ways (built once per game and process)."""
    if game not in _GRAPHS:
        graph = GameGraph(load_registry(game), load_game_settings(game))
        graph.ways  # noqa: B018 - rank now, so later calls are fast
        _GRAPHS[game] = graph
    return _GRAPHS[game]


@dataclass
class _Sim:
    """The planner's picture of the player: inventory, blocks and mobs placed around the start."""

    inv: Counter[str]
    nearby: Counter[str]
    mobs: Counter[str]
    steps: list[Step] = field(default_factory=list)
    furnace: int | None = None  # the place (see ``moves``) where a furnace stands
    away: bool = False
    moves: int = 0  # how often the player has moved: a furnace left behind is out of reach

    def add(self, step: Step) -> None:
        if step.do in ("goto_biome", "goto_node", "move"):
            self.away = True
            self.moves += 1
        self.steps.append(step)

    def home(self) -> None:
        """Go back to the start, where the start's blocks and mobs are."""
        if self.away:
            self.steps.append(Step(do="home"))
            self.away = False
            self.moves += 1

    def copy(self) -> _Sim:
        return _Sim(Counter(self.inv), Counter(self.nearby), Counter(self.mobs), list(self.steps), self.furnace,
                    self.away, self.moves)


def plan_first(sim: _Sim, options: Iterable[Any], attempt: Callable[[_Sim, Any], None],
               why: Callable[[list[str]], str]) -> None:
    """Plan the first option that works, on a copy of ``sim`` adopted only on success; else NoPlan(why(errors))."""
    errors = []
    for option in options:
        trial = sim.copy()
        try:
            attempt(trial, option)
        except NoPlan as exc:
            errors.append(str(exc))
            continue
        sim.__dict__.update(trial.__dict__)
        return
    raise NoPlan(why(errors))


class Planner:
    """Plans compiled tasks for one game."""

    def __init__(self, library: Any, ir: TaskIR) -> None:
        self.library = library
        self.ir = ir
        self.graph = game_graph(ir.game)
        self.mapping: GameMapping = load_mapping(ir.game)
        self.registry: Registry = self.graph.registry
        self.game_names = {mc: engine for engine, mc in ir.names.items()}

    # --- names ----------------------------------------------------------------------------------------------

    def engine(self, mc: str, kind: str = "item") -> str:
        """The game name of a Minecraft name (the IR's names first, then the mapping)."""
        counterpart = self.mapping.lookup(mc, kind)  # type: ignore[arg-type]
        if counterpart is not None and counterpart.to is not None:
            return counterpart.to
        if mc in self.game_names:
            return self.game_names[mc]
        raise NoPlan(f"{mc} has no counterpart in {self.ir.game}")

    def engine_all(self, names: Iterable[str], kind: str = "item") -> list[str]:
        """The game names of those Minecraft names that have one."""
        out = []
        for name in names:
            try:
                out.append(self.engine(name, kind))
            except NoPlan:
                continue
        return out

    # --- getting items --------------------------------------------------------------------------------------

    def acquire(self, sim: _Sim, item: str, n: int, *, fresh: bool = False, depth: int = 0) -> None:
        """Add steps that get ``n`` of ``item`` (all of them new when ``fresh``, else counting what is held)."""
        if depth > 30:
            raise NoPlan(f"the recipes for {item} go too deep")
        need = n if fresh else n - sim.inv[item]
        if need <= 0:
            return
        ways = self.graph.ways.get(item, [])
        if not ways:
            raise NoPlan(f"{item} cannot be dug, crafted or cooked from what the map generates")
        plan_first(sim, ways[:4], lambda trial, way: self._use_way(trial, way, need, depth), lambda e: e[0])

    def _use_way(self, sim: _Sim, way: Way, need: int, depth: int) -> None:
        times = math.ceil(need / way.gives)
        if way.kind == "dig" and way.rarity > 1:
            self.dig(sim, way.node, need, tool=way.tool, depth=depth, until=way.item)
        elif way.kind == "dig":
            self.dig(sim, way.node, times, tool=way.tool, depth=depth)
        elif way.kind == "craft":
            self.craft(sim, way, times, depth)
        else:
            self.cook(sim, way, times, depth)

    def dig(self, sim: _Sim, node: str, times: int, *, tool: str | None = None, depth: int = 0,
            bare_hand: bool = False, until: str | None = None) -> None:
        """Dig ``times`` of a node: with the given tool (or the first that digs it), where it is found.

        With ``until``: dig that node until ``times`` more of the item ``until`` are held (a chance drop).
        """
        if bare_hand:
            tool = HAND
            if not self.graph.can_dig(node, HAND):
                raise NoPlan(f"{node} cannot be dug with bare hands")
        elif tool is None:
            held = [t for t in self.graph.tools[1:] if sim.inv[t] > 0 and self.graph.can_dig(node, t)]
            tool = HAND if self.graph.can_dig(node, HAND) else (held[0] if held else None)
            if tool is None:
                options = [t for t in self.graph.tools[1:] if self.graph.can_dig(node, t)]
                if not options:
                    raise NoPlan(f"no tool digs {node}")
                tool = min(options, key=lambda t: (self.graph.cost.get(t, INF), t))
        if tool != HAND:
            self.acquire(sim, tool, 1, depth=depth + 1)
        if until is not None:
            place = self.graph.places.get(node)
            if place is None:
                raise NoPlan(f"{node} is not generated by the map")
            if place.biomes:
                sim.add(Step(do="goto_biome", biomes=list(place.biomes)))
            sim.add(Step(do="goto_node", node=node, radius=32, y=place.y, vertical=12 if place.biomes else None))
            sim.add(Step(do="dig", node=node, item=until, count=times, radius=12, tool=tool or None))
            sim.inv[until] += times
            return
        if sim.nearby[node] >= times:
            sim.nearby[node] -= times
            sim.home()
            sim.add(Step(do="dig", node=node, count=times, radius=6, tool=tool or None))
        else:
            place = self.graph.places.get(node)
            if place is None and self.graph.ways.get(node) and until is None and depth == 0:
                # a block the map does not make (a wall, wool): make it, place it, then dig it
                self.acquire(sim, node, times, depth=depth + 1)
                sim.home()
                for _n in range(times):
                    sim.add(Step(do="place", item=node))
                sim.inv[node] -= times
                sim.add(Step(do="dig", node=node, count=times, radius=6, tool=tool or None))
                for item, count in self.graph.drops(node, tool or HAND).items():
                    sim.inv[item] += count * times
                return
            if place is None:
                raise NoPlan(f"{node} is not generated by the map and not placed near the start")
            if place.biomes:
                sim.add(Step(do="goto_biome", biomes=list(place.biomes)))
            sim.add(Step(do="goto_node", node=node, radius=32, y=place.y, vertical=12 if place.biomes else None))
            sim.add(Step(do="dig", node=node, count=times, radius=12, tool=tool or None))
        if bare_hand:
            sim.steps[-1] = sim.steps[-1].model_copy(update={"tool": None})
            sim.steps.insert(len(sim.steps) - 1, Step(do="wield", item=""))
        for item, count in self.graph.drops(node, tool or HAND).items():
            sim.inv[item] += count * times

    def craft(self, sim: _Sim, way: Way, times: int, depth: int) -> None:
        """Craft a recipe ``times`` times, getting its ingredients first."""
        chosen: list[tuple[str, int]] = []
        for cell, count in way.ingredients:
            member = self.graph.cheapest_member(cell, sim.inv, before=way.item)
            if member is None:
                raise NoPlan(f"nothing fills {cell} in the recipe for {way.item}")
            chosen.append((member, count * times))
        for member, count in chosen:  # each set aside as soon as it is had: later ones must not use it up
            self.acquire(sim, member, count, depth=depth + 1)
            sim.inv[member] -= count
        several = self.graph.normal_recipes[way.item] > 1
        groups = sorted({m for (cell, _), (m, _) in zip(way.ingredients, chosen, strict=True)
                         if cell.startswith("group:") or several})  # several recipes: name the one set aside
        sim.add(Step(do="craft", item=way.item, count=times, ingredients=groups or None))
        sim.inv[way.item] += way.gives * times

    def cook(self, sim: _Sim, way: Way, times: int, depth: int) -> None:
        """Cook an input ``times`` times: a furnace, the input and enough fuel first."""
        source = self.graph.cheapest_member(way.ingredients[0][0], sim.inv, before=way.item)
        if source is None:
            raise NoPlan(f"nothing cooks into {way.item}")
        self.acquire(sim, source, times, depth=depth + 1)
        sim.inv[source] -= times  # set aside: the fuel must not use it up
        fuel, amount = self.fuel_for(sim, way.cooktime * times, depth)
        sim.inv[fuel] -= amount
        if sim.furnace != sim.moves:  # no furnace where the player is now (getting the input may move it)
            self.acquire(sim, self.graph.furnace, 1, depth=depth + 1)
        sim.inv[fuel] += amount
        sim.add(Step(do="cook", item=source, count=times, fuel=fuel))
        if sim.furnace != sim.moves:
            sim.inv[self.graph.furnace] -= 1
            sim.furnace = sim.moves
        sim.inv[fuel] -= amount
        sim.inv[way.item] += way.gives * times

    def fuel_for(self, sim: _Sim, seconds: float, depth: int) -> tuple[str, int]:
        """A fuel and how much of it burns ``seconds`` (one already held if it is enough)."""
        fuels = self.registry.fuels
        for item in sorted(sim.inv, key=lambda i: -fuels[i].burntime if i in fuels else 0):
            if item in fuels and sim.inv[item] * fuels[item].burntime >= seconds and item != self.graph.furnace:
                if self.graph.tools.count(item) == 0:
                    return item, math.ceil(seconds / fuels[item].burntime)
        ranked = sorted((i for i in fuels if self.graph.cost.get(i, INF) < INF),
                        key=lambda i: (self.graph.cost[i] / fuels[i].burntime, i))
        if not ranked:
            raise NoPlan("no fuel can be had")
        fuel = ranked[0]
        amount = math.ceil(seconds / fuels[fuel].burntime)
        self.acquire(sim, fuel, amount, depth=depth + 1)
        return fuel, amount

    # --- goals ----------------------------------------------------------------------------------------------

    def goal(self, sim: _Sim, goal: GoalIR, constraints: tuple[Constraint, ...]) -> None:
        """Steps that complete one atom's goal afresh under the constraints."""
        how = next((c.how for c in constraints if c.how is not None), None)
        using = self.engine_all(goal.using or [])
        tool: str | None = None
        if how is not None and how.startswith("with:"):
            tool = self.engine(how[5:])
        elif using:
            tool = using[0]
        if tool is not None and goal.event != "use":
            self.acquire(sim, tool, 1)
        handler = getattr(self, f"_goal_{goal.event}", None)
        if handler is None:
            raise NoPlan(f"the planner cannot plan {goal.event} goals")
        before = len(sim.steps)
        handler(sim, goal, tool, how, constraints, using)
        self._constrain(sim, before, constraints, tool, how)

    def _constrain(self, sim: _Sim, before: int, constraints: tuple[Constraint, ...], tool: str | None,
                   how: str | None) -> None:
        """Insert the set-up a constraint asks for just before the part's final action."""
        setup: list[Step] = []
        for c in constraints:
            if c.when is not None and c.when.value in ("day", "night"):
                setup.append(Step(do="time", of_day="day" if c.when.value == "day" else "night"))
            if c.where is not None:
                if c.where == "cave":
                    setup.append(Step(do="move", by=(0, -12, 0)))
                elif c.where.startswith("height:"):
                    low, high = height_range(c.where)
                    y = (low + 1 if low is not None else (high - 3 if high is not None else GROUND_Y)) \
                        if low is None or high is None else (low + high) / 2
                    setup.append(Step(do="move", to=(0, y, 0)))
                elif c.where in self.graph.settings.dimensions:
                    if self.start_dimension() != c.where:
                        raise NoPlan(f"the planner goes to the {c.where} only for enter goals")
                elif c.where not in ("overworld",):
                    biomes = [g for g, mc in self.ir.biomes.items() if mc == c.where and self.graph.at_ground(g)]
                    if not biomes:
                        raise NoPlan(f"no part of {c.where} is at the flat world's surface")
                    setup.append(Step(do="goto_biome", biomes=biomes))
        if how == "bare_hand":
            setup.append(Step(do="wield", item=""))
        elif tool is not None and how is not None:
            setup.append(Step(do="wield", item=tool))
        if not setup:
            return
        final = self._final_index(sim, before)
        sim.steps[final:final] = setup

    @staticmethod
    def _final_index(sim: _Sim, before: int) -> int:
        """Where the part's final actions start: its last goto (if any) or its last step."""
        last = len(sim.steps) - 1
        index = last
        while index - 1 >= before and sim.steps[index - 1].do in ("goto_node",):
            index -= 1
        return max(before, index)

    def _goal_obtain(self, sim: _Sim, goal: GoalIR, tool: str | None, how: str | None, *_: Any) -> None:
        item = self._target_item(goal)
        self.acquire(sim, item, goal.count, fresh=True)

    def _recipe_ways(self, goal: GoalIR, method: str) -> list[Way]:
        """Every recipe of the game making a target, not only the ranked ways.

        A start may hold the ingredients of a recipe the ranking leaves out, such as a coal block to craft back
        into coal.
        """
        ways = []
        for item in self.engine_all(goal.targets):
            for recipe in self.registry.recipes:
                if recipe.method != method or recipe.output != item or not recipe.items:
                    continue
                if method == "normal":
                    cells = tuple(sorted(Counter(c for c in recipe.items if c).items()))
                    ways.append(Way("craft", item, gives=recipe.count, ingredients=cells))
                else:
                    ways.append(Way("cook", item, gives=recipe.count, ingredients=((recipe.items[0], 1),),
                                    cooktime=float(recipe.cooktime or 3)))
        return ways

    def _make(self, sim: _Sim, goal: GoalIR, method: str) -> None:
        """Craft or cook a target afresh: recipes whose ingredients are held first, then the cheapest."""
        ways = self._recipe_ways(goal, method)
        if not ways:
            raise NoPlan(f"no recipe makes {', '.join(goal.targets)}")

        def held(way: Way) -> bool:
            return all(self.graph.cheapest_member(c, sim.inv) is not None and
                       any(sim.inv[m] >= n for m in self.graph._members(c)) for c, n in way.ingredients)

        ways.sort(key=lambda w: (not held(w), self.graph.cost.get(w.item, INF), w.item))
        make = self.craft if method == "normal" else self.cook
        plan_first(sim, ways, lambda trial, way: make(trial, way, math.ceil(goal.count / way.gives), 0),
                   lambda e: e[0])

    def _goal_craft(self, sim: _Sim, goal: GoalIR, *_: Any) -> None:
        self._make(sim, goal, "normal")

    def _goal_smelt(self, sim: _Sim, goal: GoalIR, *_: Any) -> None:
        self._make(sim, goal, "cooking")

    def _goal_mine(self, sim: _Sim, goal: GoalIR, tool: str | None, how: str | None, *_: Any) -> None:
        nodes = self.engine_all(goal.targets, "block")
        nodes.sort(key=lambda n: (sim.nearby[n] == 0, n not in self.graph.places, n))
        if not nodes:
            raise NoPlan("no target block")
        self.dig(sim, nodes[0], goal.count, tool=tool, bare_hand=how == "bare_hand")

    def _goal_place(self, sim: _Sim, goal: GoalIR, *_: Any) -> None:
        placers = [item for item, block in self.ir.place_as.items() if block in goal.targets]
        placers += [n for n in self.engine_all(goal.targets, "block") if self.registry.items.get(n)
                    and self.registry.items[n].type == "node"]
        placers.sort(key=lambda p: (sim.inv[p] == 0, p))
        if not placers:
            raise NoPlan("nothing places the target")
        self.acquire(sim, placers[0], goal.count)
        sim.add(Step(do="place", item=placers[0], count=goal.count))
        sim.inv[placers[0]] -= goal.count

    def _goal_kill(self, sim: _Sim, goal: GoalIR, tool: str | None, *_: Any) -> None:
        mobs = [m for m in self.engine_all(goal.targets, "entity") if sim.mobs[m] > 0]
        if not mobs:
            raise NoPlan(f"no {' or '.join(goal.targets)} is summoned at the start, and mobs do not spawn")
        sim.home()
        for _n in range(goal.count):
            if sim.mobs[mobs[0]] <= 0:
                raise NoPlan(f"fewer than {goal.count} {mobs[0]} at the start")
            sim.mobs[mobs[0]] -= 1
            sim.add(Step(do="kill", entity=mobs[0], tool=tool))
        sim.add(Step(do="collect"))

    def _goal_find(self, sim: _Sim, goal: GoalIR, *_: Any) -> None:
        target = goal.targets[0] if goal.targets else ""
        biomes = [g for g, mc in self.ir.biomes.items() if mc in goal.targets]
        layers = {g: self.graph.layer_of(self.registry.biomes[g].y_min) for g in biomes if g in self.registry.biomes}
        layered = [g for g, layer_name in layers.items() if layer_name is not None]
        if layered:
            layer = self.graph.settings.dimensions[layers[layered[0]] or ""]
            sim.add(Step(do="goto_biome", biomes=sorted(layered), y=layer.floor + 1))
            return
        if biomes:
            surface = [g for g in biomes if self.graph.at_ground(g)]
            if not surface:
                raise NoPlan(f"no part of {target} is at the flat world's surface (game biomes {', '.join(biomes)})")
            sim.add(Step(do="goto_biome", biomes=sorted(surface)))
            return
        nodes = [n for n in self.engine_all(goal.targets, "block") if n in self.graph.places]
        if nodes:
            place = self.graph.places[nodes[0]]
            if place.biomes:
                sim.add(Step(do="goto_biome", biomes=list(place.biomes)))
            sim.add(Step(do="goto_node", node=nodes[0], radius=32, y=place.y, vertical=12 if place.biomes else None))
            return
        mobs = [m for m in self.engine_all(goal.targets, "entity") if sim.mobs[m] > 0]
        if mobs:
            sim.home()
            sim.add(Step(do="wait", seconds=0.6))
            return
        raise NoPlan(f"the planner cannot find {target}")

    def _goal_eat(self, sim: _Sim, goal: GoalIR, *_: Any) -> None:
        item = self._target_item(goal)
        for _n in range(goal.count):
            self.acquire(sim, item, 1)
            sim.add(Step(do="eat", item=item))
            sim.inv[item] -= 1

    def _goal_equip(self, sim: _Sim, goal: GoalIR, *_: Any) -> None:
        item = self._target_item(goal)
        self.acquire(sim, item, 1)
        if sim.steps and sim.steps[-1].do == "wield" and sim.steps[-1].item == item:
            return
        sim.add(Step(do="wield", item=""))
        sim.add(Step(do="wield", item=item))

    def ensure_node(self, sim: _Sim, nodes: list[str]) -> str | None:
        """A target node near the player: one placed at the start, else one placed now from the inventory."""
        for node in nodes:
            if sim.nearby[node] > 0:
                sim.home()
                return node
        for node in nodes:
            placers = [node] + [item for item, block in self.ir.place_as.items()
                                if self.game_names.get(block) == node or block == self.ir.names.get(node)]
            for item in placers:
                if sim.inv[item] > 0 and self.registry.items.get(item) is not None:
                    sim.add(Step(do="place", item=item))
                    sim.inv[item] -= 1
                    sim.nearby[node] += 1
                    return node
        return None

    def ensure_entity(self, sim: _Sim, entities: list[str]) -> str | None:
        """A target entity near the player: summoned at the start, else placed from the inventory.

        A cart goes on a rail, a boat on water.
        """
        for entity in entities:
            if sim.mobs[entity] > 0:
                sim.home()
                return entity
        sim.home()
        for entity in entities:
            if sim.inv[entity] > 0:
                support = next((n for n in self.graph.settings.supports
                                if sim.nearby[n] > 0), None)
                if support is None:
                    continue
                sim.add(Step(do="place", item=entity, on=support))
                sim.inv[entity] -= 1
                sim.mobs[entity] += 1
                return entity
        return None

    def _goal_use(self, sim: _Sim, goal: GoalIR, tool: str | None, how: str | None, constraints: Any,
                  using: list[str]) -> None:
        items = [i for i in self.ir.trackers.use.items if not using or i in using]
        items.sort(key=lambda i: (sim.inv[i] == 0, self.graph.cost.get(i, INF), i))
        if not items:
            raise NoPlan("nothing to use")
        item = items[0]
        self.acquire(sim, item, 1)
        targets = self.engine_all(goal.targets, "block")
        node = self.ensure_node(sim, [n for n in targets if n != item]) if using else None
        mob = self.ensure_entity(sim, self.engine_all(goal.targets, "entity")) if using and node is None else None
        if using and node is None and mob is None:
            raise NoPlan(f"no {' or '.join(goal.targets)} to use {item} on")
        for _n in range(goal.count):
            if node is not None:
                sim.add(Step(do="use", item=item, node=node, radius=6))
            elif mob is not None:
                sim.add(Step(do="use", item=item, entity=mob))
            else:
                sim.add(Step(do="use", item=item))

    def _goal_interact(self, sim: _Sim, goal: GoalIR, *_: Any) -> None:
        if "death" in goal.targets:
            sim.add(Step(do="die"))
            return
        node = self.ensure_node(sim, list(self.ir.trackers.interact.nodes))
        mob = None if node is not None else self.ensure_entity(sim, list(self.ir.trackers.interact.entities))
        if node is None and mob is None:
            raise NoPlan("nothing to interact with near the start")
        for _n in range(goal.count):
            if node is not None:
                sim.add(Step(do="interact", node=node, radius=6))
            else:
                sim.add(Step(do="interact", entity=mob))

    def _goal_reach(self, sim: _Sim, goal: GoalIR, *_: Any) -> None:
        value = goal.value if goal.value is not None else 1.0
        measure = goal.targets[0] if goal.targets else ""
        if measure == "height":
            sim.add(Step(do="move", to=(0, value + 1, 0)))
        elif measure == "depth":
            sim.add(Step(do="move", by=(0, -(value + 1), 0)))
        elif measure in ("distance", "horizontal_distance"):
            sim.add(Step(do="move", by=(value + 1, 0, 0)))
        else:
            nodes = [n for n in self.ir.trackers.reach.nodes if n in self.graph.places]
            if not nodes:
                raise NoPlan(f"the planner cannot reach {measure}")
            place = self.graph.places[nodes[0]]
            if place.biomes:
                sim.add(Step(do="goto_biome", biomes=list(place.biomes)))
            sim.add(Step(do="goto_node", node=nodes[0], radius=32, y=place.y, above=True))

    def start_dimension(self) -> str:
        """The dimension the task starts in."""
        position = self.ir.init.position
        return (self.graph.layer_of(position[1]) if position is not None else None) or "overworld"

    def _goal_enter(self, sim: _Sim, goal: GoalIR, *_: Any) -> None:
        """Through a nether portal: an obsidian block, flint and steel on it, then through the portal above it."""
        target = goal.targets[0] if goal.targets else ""
        here = self.start_dimension()
        if target == here or (target == "overworld" and here == "overworld"):
            raise NoPlan(f"the task starts in the {target}")
        if "nether" not in (target, here):
            raise NoPlan(f"the planner reaches the {target} only through a nether portal")
        frame, lighter = self.engine("obsidian"), self.engine("flint_and_steel")
        self.acquire(sim, frame, 1)
        self.acquire(sim, lighter, 1)
        sim.home()
        sim.add(Step(do="place", item=frame))
        sim.inv[frame] -= 1
        sim.add(Step(do="use", item=lighter, node=frame, radius=6))
        sim.add(Step(do="interact", node=self.engine("nether_portal", "block"), radius=6))  # go through it
        sim.add(Step(do="wait", seconds=1.0))  # the map beyond is made first

    def _goal_build(self, sim: _Sim, goal: GoalIR, *_: Any) -> None:
        build = next((b for b in self.ir.trackers.builds if b.name in goal.targets), None)
        if build is None:
            raise NoPlan("no build shape")
        cells = {
            "column": [(2, k, 0) for k in range(build.length)],
            "line": [(2, 0, k) for k in range(build.length)],
            "floor": [(2 + i, 0, j) for i in range(build.length) for j in range(build.width)],
            "wall": [(2, k, j) for k in range(build.height) for j in range(build.length)],
        }[build.shape]
        blocks = sorted((i for i in sim.inv if sim.inv[i] >= len(cells) and self.registry.items.get(i)
                         and self.registry.items[i].type == "node"), key=lambda i: (-sim.inv[i], i))
        if not blocks:
            self.acquire(sim, self.graph.settings.dirt, len(cells))
            blocks = [self.graph.settings.dirt]
        sim.home()  # build on the open ground of the start, not in the pit the blocks were dug from
        for at in cells:
            sim.add(Step(do="place", item=blocks[0], at=at))
        sim.inv[blocks[0]] -= len(cells)

    def _target_item(self, goal: GoalIR, ok: Any = None) -> str:
        items = [e for e in self.engine_all(goal.targets) if ok is None or ok(e)]
        if not items:
            raise NoPlan(f"{', '.join(goal.targets)} cannot be made from what the map generates")
        return min(items, key=lambda e: (self.graph.cost.get(e, INF), e))

    # --- the expression -------------------------------------------------------------------------------------

    def expression(self, sim: _Sim, node: Any, constraints: tuple[Constraint, ...] = ()) -> None:
        """Plan an expression in place.

        AND and THEN in order, OR the first part that can be planned, "at least k" the first k that can,
        ``N * A`` A N times, nothing for a part to avoid (the plan simply does not do it), a time bound its part
        (a scripted plan is as fast as the engine runs it).
        """
        if isinstance(node, AtomRef):
            self.goal(sim, self.ir.goals[node.task], constraints)
        elif isinstance(node, AllOf | Then):
            for part in node.parts:
                self.expression(sim, part, constraints)
        elif isinstance(node, AnyOf):
            plan_first(sim, node.parts, lambda trial, part: self.expression(trial, part, constraints),
                       lambda e: "no part of the OR can be planned: " + "; ".join(e))
        elif isinstance(node, Constrained):
            self.expression(sim, node.part, (*constraints, node.constraint))
        elif isinstance(node, Initialized | Within):
            self.expression(sim, node.part, constraints)
        elif isinstance(node, Repeat):
            for _ in range(node.times):
                self.expression(sim, node.part, constraints)
        elif isinstance(node, AtLeast):
            errors: list[str] = []
            left = node.count
            for part in node.parts:
                if left == 0:
                    break
                trial = sim.copy()
                try:
                    self.expression(trial, part, constraints)
                except NoPlan as exc:
                    errors.append(str(exc))
                    continue
                sim.__dict__.update(trial.__dict__)
                left -= 1
            if left:
                raise NoPlan(f"only {node.count - left} of the {node.count} parts needed can be planned: "
                             + "; ".join(errors))
        elif isinstance(node, Avoid):
            pass
        else:
            raise TypeError(f"not a task expression: {node!r}")

    def plan(self, task: Any) -> Plan:
        """A scripted plan for the task, from its compiled start."""
        init = self.ir.init
        sim = _Sim(inv=Counter({s.name: s.count for s in init.inventory}),
                   nearby=Counter({s.name: s.count for s in init.nearby}),
                   mobs=Counter({s.name: s.count for s in init.summon}))
        if init.wield:
            sim.inv[init.wield] += 1
        try:
            self.expression(sim, expression_of(task))
        except NoPlan as exc:
            raise NoPlan(f"no scripted plan for {task.id} in {self.ir.game}: {exc}") from None
        return Plan(steps=sim.steps)


def plan_task(task: Any, ir: TaskIR, library: Any) -> Plan:
    """A scripted plan for a compiled task (raises :class:`NoPlan` saying what the game lacks)."""
    return Planner(library, ir).plan(task)

"""The rules of the text world (SkillForge-text, MCU Appendix D), read off the atoms' ``requires`` and ``yields``.

The state is an inventory of item counts plus the things found (blocks, mobs, biomes, structures, dimensions).
Every atom other than ``obtain.*`` (goals, not actions) is an action. Its candidates are exactly the atoms with a
way whose needs are all met now; doing one applies the game's effects. There is no per-recipe code: every rule
below reads the atom data.

Rules:

* A need is met when the items it accepts add up to its count (Minecraft's tagged recipe slots take any mix of
  planks), or, for a presence need (block, entity, biome, structure, dimension), when any of them was found.
* Presence is a fact, not a stock: a found tree, ore vein, herd or biome stays found, so hunting a found sheep
  or mining a found log can be done again. A block
  that only placing gives is one block: mining it uses it up (a placed quartz block is mined back once). Finite
  sources are found with the count one structure holds, kept as an internal item (``left:evoker``): a mob that
  generates once with its structure and never respawns (a woodland mansion's evokers), each kill using one up,
  and a structure's loot chests (a desert pyramid's four), each looting using one up. More take another find
  (another mansion or pyramid, priced by its travel). A wandering trader is one a find, and a trade with it uses
  it up too (its offers are drawn once: trying again for an offer it lacks takes another trader). A villager
  makes each offer its ``uses`` times (``trades.yaml``, the game's ``maxUses``: a librarian's bookshelf 12), then
  the offer locks until it restocks: a find of a villager gives each offer's trades (``stock:librarian:trade.
  bookshelf``), each trade uses one up, and more take another villager of the profession, found and given the
  job site the plan keeps (in game time a find, some 94 s, is cheaper than the wait for a restock, up to twice a
  day at the job site). Its experience stays the profession's (a second villager is not trained again). The cost
  model prices an offer's trades as the villager that makes them (``Need.restock``: the way's presence need, had
  once), not as a share of a find each: a share charged the first villager twice and made a fletcher's master
  experience 125 stick sales, a plan the difficulty derivation could not ground within its work.
* Kept needs (tools, a crafting table, a furnace) and presence needs are not consumed; the other item needs are.
  A kept item with durability in the game data wears: each action spends the need's ``uses`` of it, and when the
  item has none left it breaks (one fewer held); the uses spent on the item in hand are part of the state.
  An anvil's repair (an atom tagged ``REPAIRS_TAG``) gives the item back with less wear: all of it when a second
  of the item is used up (the other held items are whole), else the ``repair_share`` of its durability a unit of
  material.
* A kept need is paid once, as setup (the first tool, the crafting table), however many runs use it; one that
  wears is paid by the run, as a player chooses the tool for a job: ``n`` runs cost the tools they wear out,
  rounded up, the first at its price and each further one at its marginal price (``tool_run_price``), so three
  stones take a wooden pickaxe and a thousand a diamond one, and seventeen witch kills with wooden swords (seven
  hits each, 59 durability) cost three swords where one stone sword lasts them (``CostModel``, ``Need.wears``).
  A tool held from the start counts as made (``_held_tool``): the run's further tools cost their marginal, so a
  held iron pickaxe saves its own price once, not the 2,000 blocks' wear, as the text world breaks it after 250.
* A fuel need (``measure: smelts``) counts in smelts: each fuel item burns for its own number of ticks (200 a
  smelt: a coal smelts 8 items, a stick half of one). What an action burns beyond its need stays in the furnace
  as heat for the next smelt, so one coal smelts eight items, one at a time; the heat is used before any item.
* The first way (in the atom's order) whose needs are met is used. A need that accepts several items consumes
  them one unit at a time: the cheapest to get first (by the atoms' own costs, ``CostModel``), the most held
  of equally cheap ones, then the first by name; items some atom keeps (tools, tables, furnaces) and the
  action's own product go last. So smelting burns planks before wool or the crafting table, and dyeing wool
  green takes white wool, not green.
* Yields are added: each way gives its own (two planks make four sticks, two bamboo one). A chance yield or a
  count range (lapis ore: 4 to 9) is either drawn with the environment's ``np_random`` (``chance="sample"``)
  or delivered deterministically as a player plans for it (``chance="sure"``, the default): after ``t`` tries
  the total given is what ``t`` tries give with 95% probability (``world.chance``), so a 10% flint arrives
  on the 29th, 46th, ... gravel and a dead bush's 0 to 2 sticks give one stick on the third bush.
* The agent is where it last went: finding a biome takes it there, and so does using something found; it starts
  where the initialization says (a start that names no dimension: the overworld).
* Found things belong to the dimension they were found in (``places``: netherrack in the nether, a cow in the
  overworld). The agent is in one dimension at a time: a dimension's count is 1 there and 0 elsewhere, and only
  a trip (an action that yields a dimension: through the nether portal the plan built and lit, which stays, or
  the End's exit portal, which the ender dragon's death opens) changes it. So every way whose found things (its
  presence needs, else what it finds) all lie in one dimension also needs the agent to be there: using or finding
  a thing of another dimension than the agent's takes the trip back first, priced and planned like any need.
  What a way makes is not found: netherrack or a torch is placed, and a placed block mined back, wherever the
  agent is.
  A presence need whose members lie in several dimensions is one way per dimension (any animal to hunt).
* Each action emits the atom's own success event (a tag target is named by the member used) and an ``obtain``
  event per item received, where the agent is after the action, with the tool the action keeps in hand (none
  for craft and smelt). An atom whose success is to obtain the item it yields counts what came (a trade of 4
  apples obtains 4), and a try that gave none (a wandering trader without the offer) obtains nothing.
* It also emits a ``use`` event for each item it uses, as the game's ``used`` statistic counts them (Minecraft
  Wiki, Statistics): the block it places, the food it eats, the armour it puts on, the tool it wears down
  (mining, killing, tilling, shearing) and the item it uses on a block (a bucket on water, a compass on a
  lodestone). An item used on a mob (wheat fed to a cow) is no use of the item in the game's count.

Example:
    >>> from taskverse import load_library
    >>> rules = Rules.for_library(load_library())
    >>> state = rules.new_state()
    >>> a = rules.action_index["find.oak_log"]
    >>> bool(state.mask[a]), bool(state.mask[rules.action_index["mine.oak_log"]])
    (True, False)
    >>> _ = rules.act(state, a)
    >>> bool(state.mask[rules.action_index["mine.oak_log"]])
    True

"""

from __future__ import annotations

import itertools
import math
from bisect import bisect_right
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

import numpy as np

from taskverse.errors import TaskverseError, close_matches
from taskverse.schema import REPAIRS_TAG, VILLAGER_XP_PREFIX, AtomTask, Initialization, Measure
from taskverse.world import chance
from taskverse.world.graph import items_used, target_used, way_yields, ways_of
from taskverse.world.toolruns import tools_for_run

INF = math.inf
PRESENCE_KINDS = ("block", "entity", "biome", "structure", "dimension")
HEAT = "furnace_heat"
"""The internal item that holds a furnace's unburnt fuel, in ticks."""
TICKS_PER_SMELT = 200
WEAR_PREFIX = "wear:"
LEFT_PREFIX = "left:"
"""Internal items counting what finds of a finite source gave and nothing used up yet (``left:evoker``)."""
STOCK_PREFIX = "stock:"
"""Internal items counting the trades a villager's offer has left before it locks
(``stock:librarian:trade.bookshelf``)."""
USES_UP = {"entity": "kill", "structure": "interact"}
"""The event that uses one of a finite source up: killing one of its mobs, looting one of its chests."""
"""Internal items ``wear:<tool>``: durability spent on the tool in hand (it breaks when this reaches its durability)."""
CHANCE_MODES = ("sure", "sample")
STATION_EVENTS = frozenset({"craft", "smelt"})
"""Events done at a station, not with a tool in hand."""
HAND_EVENTS = frozenset({"place", "eat", "equip"})
"""Events whose hand holds the thing acted with (the block placed, the food, the armour): no tool can be held."""
COUNTED_BY_ITEMS = frozenset({"craft", "smelt"})
"""Events whose count is the items made, as the engine's runtime and the game's statistics count them."""

Resource = tuple[str, str]


class Counters(Protocol):
    """Chance-yield try counters by slot (a list, or a planner's view of its state)."""

    def __getitem__(self, slot: int, /) -> int: ...

    def __setitem__(self, slot: int, value: int, /) -> None: ...


Event = tuple[str, str, int, "str | None", "str | None", "str | None", "float | None", "str | None"]
"""A light event: (event, target, count, held, biome, dimension, value, chest): ``chest`` is the kind of a
structure's chest opened (``library``), None for its main kind and for any other event."""


@dataclass(frozen=True, slots=True)
class Need:
    """One compiled need: ``count`` of the resources ``members`` (indices, in consumption order)."""

    members: tuple[int, ...]
    count: int
    consume: bool
    presence: bool
    virtual: int
    """The single resource, or ``n_resources + g`` for the group of several members."""
    levels: tuple[float, ...] = ()
    """Per member, its place in the consumption order: kept items last, then by the cost to get one."""
    weights: tuple[int, ...] | None = None
    """Per member, what one unit counts for (a fuel's burn ticks); None: one each. ``count`` is in these units."""
    uses: int = 0
    """Uses one action makes of a kept tool (``Rules.tools``): a ``use`` event, and wear on one that wears
    (``Rules.wear_of``)."""
    wears: tuple[float, ...] = ()
    """Per member, the share of its durability one action spends (``uses / durability``; 0 for one that does not
    wear); empty when no member wears. The cost model charges each run this share of the tool (``_price``)."""
    restock: int = 0
    """For a villager offer's trades left (``stock:``): the trades one villager makes of it before it locks; 0 for
    every other need. The villager the way's presence need finds makes these, so the cost model prices the need as
    it prices that presence (had once: ``_priced_way`` leaves it out) and a derivation obtains only the trades past
    them (another villager a ``restock`` more)."""


@dataclass(frozen=True, slots=True)
class Output:
    """One compiled yield; ``slot`` >= 0 numbers the uncertain yields (a chance or a range: their try counters)."""

    resource: int
    count: int
    chance: float
    slot: int
    upper: int = 0
    """The most one try gives (``count`` when 0)."""

    @property
    def most(self) -> int:
        """The most one try gives."""
        return self.upper or self.count

    @property
    def at_least_one(self) -> float:
        """The chance one try gives any (a range ``0..n`` read as uniform, the least of the ways a game draws it)."""
        return self.chance * (1.0 if self.count >= 1 else self.most / (self.most + 1))

    @property
    def expected(self) -> float:
        """What one try gives on average."""
        return self.chance * (self.count + self.most) / 2

    @property
    def uncertain(self) -> bool:
        """Whether a try may give less than another (a chance below 1 or a count range)."""
        return self.chance < 1 or self.most != self.count

    @property
    def sure(self) -> float:
        """Units per try a plan counts on: the first sure units over the tries they take (``chance.sure_rate``)."""
        return chance.sure_rate(self.chance, self.count, self.most) if self.uncertain else float(self.count)

    def units(self, n_items: int) -> float:
        """Units of its resource a run is priced as giving, as ``schema.Yield.units`` (``n_items``: which are items)."""
        return self.sure if self.resource < n_items else min(1.0, self.sure)

    def delivery(self, tries: int) -> int:
        """Units the ``tries``-th try gives in the deterministic mode: where its sure total grows."""
        return chance.sure_delivery(self.chance, self.count, self.most, tries)

    def sure_total(self, tries: int) -> int:
        """Units ``tries`` tries give in the deterministic mode, in all."""
        return chance.sure_total(self.chance, self.count, self.most, tries)

    @property
    def excess(self) -> float:
        """How far its sure total can run above its average total (``chance.excess``)."""
        return chance.excess(self.chance, self.count, self.most)

    def runs_for(self, amount: float) -> int:
        """The fewest runs that give ``amount`` units for sure (whole runs of a sure yield)."""
        whole = max(1, math.ceil(amount - 1e-9))
        if self.uncertain:
            return chance.tries_for(self.chance, self.count, self.most, whole)
        return max(1, math.ceil(amount / self.count - 1e-9))


@dataclass(frozen=True, slots=True)
class GoalTemplate:
    """An action's success event, with its tag (if its target or tool is one) resolved at run time."""

    event: str
    target: str
    target_tag: frozenset[str] | None
    count: int
    value: float | None
    using: str | None
    using_tag: frozenset[str] | None
    chest: str | None = None



class Rules:
    """The compiled rules of one set of atoms: resources, actions, needs, effects, and mask bookkeeping.

    Args:
        tasks: The atoms (goal atoms, ``obtain.*`` and the item-use statistic's, are never actions).
        tags: Item tags (``#logs``) for goal targets and tools.
        places: The biome and dimension a found resource implies, e.g. ``("block", "netherrack") -> (None,
            "nether")``.
        extra_items: Further item names to give an inventory slot (items no atom mentions).
        fuel_ticks: Burn ticks of each fuel item (200 smelt one item), for fuel needs.
        durability: Durability of each item that wears, for kept needs.
        tools: Further items a kept need uses as the game's ``used`` statistic counts a tool doing the work (a
            dig, a kill), though these rules do not wear them (an engine game's model); the items with
            ``durability`` are such tools too.
        fuel_remainders: The container a fuel leaves in the fuel slot when it burns (a lava bucket's bucket).
        repair_share: The share of an item's durability a unit of material restores at an anvil.
        finite: Finite sources, with how many one find gives: mobs that generate once with their structure and
            never respawn (``mobs.yaml``'s ``finite``: a mansion's evokers), and structures' loot chests
            (``structures.yaml``'s ``chests``: a desert pyramid's four).
        spent_by: Per finite source, the verbs whose actions use one up besides its ``USES_UP`` event
            (``mobs.yaml``'s ``spent_by``: a trade with a wandering trader).
        chest_kinds: Further kinds of a structure's chests, by structure and kind (a stronghold's ``library``): how
            many one holds and the share of structures that hold the kind at all (``structure_loot.yaml``'s
            ``chest`` entries). A find of the structure gives these too, counted apart from its main chests, with
            that share as a chance (a treasure bastion's chests, one bastion in four); an action whose goal opens a
            chest of that kind (``Goal.chest``) uses up one of its own kind. A start at the structure holds them.
        stocks: Villager offers that lock after some trades (``trades.yaml``'s ``uses``), by (atom, job site):
            (the entity that makes them, its profession, the trades one makes). A find of the entity gives each
            offer's trades (``stock:<profession>:<atom>``), and the way of the atom at that job site uses one up:
            past them the offer takes another villager of the profession. Where an atom has several offers at one
            job site (an engine game's one trade atom per item: each item a farmer buys for an emerald is a way), the
            key names the offer's further items too, (atom, job site, item, ...): the way with them all is the offer,
            counted apart (``stock:<profession>:<atom>:<item>...``).

    """

    def __init__(self, tasks: Iterable[AtomTask], tags: Mapping[str, Sequence[str]] | None = None,
                 places: Mapping[Resource, tuple[str | None, str | None]] | None = None,
                 extra_items: Iterable[str] = (), fuel_ticks: Mapping[str, int] | None = None,
                 durability: Mapping[str, int] | None = None,
                 fuel_remainders: Mapping[str, str] | None = None, repair_share: float = 0.0,
                 finite: Mapping[Resource, int] | None = None, tools: Iterable[str] = (),
                 spent_by: Mapping[Resource, Iterable[str]] | None = None,
                 chest_kinds: Mapping[tuple[Resource, str], tuple[int, float]] | None = None,
                 grows_in: Mapping[Resource, Sequence[str]] | None = None,
                 stocks: Mapping[tuple[str, ...], tuple[str, str, int]] | None = None) -> None:
        tasks = sorted(tasks, key=lambda t: t.id)
        self.stocks = dict(stocks or {})
        self.spent_by = {r: frozenset(verbs) for r, verbs in (spent_by or {}).items()}
        self.repair_share = repair_share
        self.finite = dict(finite or {})
        self.chest_kinds = dict(chest_kinds or {})
        self.fuel_ticks = dict(fuel_ticks or {})
        self.fuel_remainders = dict(fuel_remainders or {})
        self.durability = dict(durability or {})
        self.tools: frozenset[str] = frozenset(self.durability) | frozenset(tools)
        """Items a kept need (``uses`` > 0) uses, as the ``used`` statistic counts them; those of ``durability``
        also wear."""
        self.tags = {k: frozenset(v) for k, v in (tags or {}).items()}
        self.atom_ids: list[str] = [t.id for t in tasks]
        self.atom_index = {t: i for i, t in enumerate(self.atom_ids)}
        self.goals_by_atom = {t.id: t.goal for t in tasks}
        action_tasks = [t for t in tasks if not t.goal_only]
        self.actions: list[str] = [t.id for t in action_tasks]
        self.action_index = {t: i for i, t in enumerate(self.actions)}
        self.descriptions: list[str] = [t.description for t in action_tasks]
        self._compile_resources(tasks, extra_items)
        self.places: dict[int, tuple[str | None, str | None]] = {}
        for resource, place in (places or {}).items():
            if resource in self.index:
                self.places[self.index[resource]] = place
        self.lies_in: dict[int, int] = {
            r: d for r, (_, dimension) in self.places.items()
            if dimension is not None and (d := self.index.get(("dimension", dimension))) is not None}
        """The dimension a found thing lies in, where it lies in one (netherrack: the nether); a dimension, itself."""
        self.lies_in.update((d, d) for d in self.dimensions)
        self._compile_actions(action_tasks)
        self._order_members()
        self.grows_in: dict[int, frozenset[int]] = {
            self.index[resource]: frozenset(self.index[("biome", b)] for b in biomes if ("biome", b) in self.index)
            for resource, biomes in (grows_in or {}).items() if resource in self.index}
        """The biomes a block generates in, where the game limits it (a spruce log: taigas, groves, ...); a block
        missing here may be in any biome of its dimension."""
        self._compile_masks()
        self._by_name = self._name_index()

    # -- construction -------------------------------------------------------------------------------------------

    @classmethod
    def for_library(cls, library: Any) -> Rules:
        """The rules of a loaded library (built once per library and kept on it)."""
        cached = getattr(library, "_textworld_rules", None)
        if cached is None:
            kn = library.knowledge

            def build() -> Rules:
                return cls.from_knowledge(library.tasks, kn, extra_items=kn.items)

            if library.digest:  # seconds to compile, a fraction of one to read back: kept in the cache
                from taskverse.memo import code_digest, remembered

                cached = remembered("rules", f"{library.digest[:16]}-{code_digest()}", build)
            else:
                cached = build()
            library._textworld_rules = cached
        return cached

    @classmethod
    def from_knowledge(cls, tasks: Iterable[AtomTask], kn: Any, extra_items: Iterable[str] = ()) -> Rules:
        """The rules of some atoms, with the game facts they read (tags, places, fuels, durability) from ``kn``."""
        return cls(tasks, kn.tags, places_from_knowledge(kn), extra_items=extra_items,
                   fuel_ticks=fuel_ticks_from_knowledge(kn), durability=durability_from_knowledge(kn),
                   fuel_remainders=fuel_remainders_from_knowledge(kn), finite=finite_from_knowledge(kn),
                   spent_by=spent_by_from_knowledge(kn), chest_kinds=chest_kinds_from_knowledge(kn),
                   stocks=stocks_from_knowledge(kn),
                   grows_in={("block", n): b.biomes for n, b in kn.natural_blocks.items() if b.biomes},
                   repair_share=kn.mechanisms.anvil.unit_share if getattr(kn, "mechanisms", None) else 0.0)

    def _compile_resources(self, tasks: list[AtomTask], extra_items: Iterable[str]) -> None:
        seen: set[Resource] = {("item", name) for name in extra_items}
        for task in tasks:
            for way in ways_of(task):
                seen.update((n.kind.value, m) for n in way for m in n.any_of)
                if any(n.measure == Measure.SMELTS for n in way):
                    seen.add(("item", HEAT))
                seen.update(("item", WEAR_PREFIX + m) for n in way if n.kept and n.uses and n.kind.value == "item"
                            for m in n.any_of if m in self.durability)
            seen.update((y.kind.value, y.name) for outcome in way_yields(task) for y in outcome)
            seen.update(initialization_resources(task.initialization))
        seen.update(("item", LEFT_PREFIX + name) for source, name in self.finite if (source, name) in seen)
        atoms = {t.id for t in tasks if not t.goal_only}
        seen.update(("item", _stock_counter(profession, *key)) for key, (source, profession, _)
                    in self.stocks.items() if key[0] in atoms and ("entity", source) in seen)
        opened = {(("structure", t.goal.target), t.goal.chest) for t in tasks if t.goal.chest is not None}
        seen.update(("item", _kind_counter(*kind)) for kind in self.chest_kinds if kind[0] in seen and kind in opened)
        seen.add(("dimension", "overworld"))
        kind_order = {"item": 0, **{k: i + 1 for i, k in enumerate(PRESENCE_KINDS)}}
        self.resources: list[Resource] = sorted(seen, key=lambda r: (kind_order[r[0]], r[1]))
        self.index = {r: i for i, r in enumerate(self.resources)}
        self.n_resources = len(self.resources)
        self.n_items = sum(1 for r in self.resources if r[0] == "item")
        self.names = [r[1] for r in self.resources]
        self.internal = frozenset(r for r, (kind, name) in enumerate(self.resources)
                                  if kind == "item" and (name == HEAT or name.startswith(
                                      (WEAR_PREFIX, LEFT_PREFIX, VILLAGER_XP_PREFIX, STOCK_PREFIX))))
        """Items the state tracks that are not things held: furnace heat, wear, what finite sources have left, the
        experience of the player's villagers, the trades their offers have left."""
        self.left_of: dict[int, tuple[int, int]] = {
            self.index[source]: (self.index[("item", LEFT_PREFIX + source[1])], count)
            for source, count in sorted(self.finite.items()) if ("item", LEFT_PREFIX + source[1]) in self.index}
        """Finite source -> (the internal item counting what is left of it, how many one find gives)."""
        self.kind_left: dict[tuple[Resource, str], tuple[int, int]] = {
            kind: (self.index[("item", _kind_counter(*kind))], count)
            for kind, (count, _) in sorted(self.chest_kinds.items()) if ("item", _kind_counter(*kind)) in self.index}
        """A further kind of chest (structure, kind) -> (the internal item counting those left, how many one find
        gives)."""
        self.also_left: dict[int, tuple[tuple[int, int, float], ...]] = {}
        """Finite source -> the further kinds of chest one find gives too (counter, count, share of finds)."""
        for kind, (counter, count) in sorted(self.kind_left.items()):
            source = self.index[kind[0]]
            self.also_left[source] = (*self.also_left.get(source, ()), (counter, count, self.chest_kinds[kind][1]))
        self.stock_of: dict[tuple[str, ...], int] = {}
        """(atom, job site, further items) -> the internal item counting the trades its villager's offer has left."""
        stocked: dict[int, dict[int, int]] = {}
        for key, (maker, profession, made) in sorted(self.stocks.items()):
            stock = self.index.get(("item", _stock_counter(profession, *key)))
            if stock is not None:
                self.stock_of[key] = stock
                stocked.setdefault(self.index[("entity", maker)], {})[stock] = made
        self._offer_keys: dict[str, list[tuple[str, ...]]] = {}
        """Atom -> its offers' ``stocks`` keys, the longest first (an offer told apart by its items before a plain
        one)."""
        for key in sorted(self.stock_of, key=lambda k: (-len(k), k)):
            self._offer_keys.setdefault(key[0], []).append(key)
        self.stocked: dict[int, tuple[tuple[int, int], ...]] = {
            source: tuple(sorted(counters.items())) for source, counters in sorted(stocked.items())}
        """Entity -> (counter, trades) of each offer a find of it gives (a villager: every profession's offers)."""
        self.dimensions: frozenset[int] = frozenset(r for r, (kind, _) in enumerate(self.resources)
                                                    if kind == "dimension")
        """The dimensions: a dimension's count is 1 where the agent is, 0 elsewhere (``travel``)."""
        self.heat = self.index.get(("item", HEAT), -1)
        self.fuel_back: dict[int, int] = {
            self.index[("item", fuel)]: self.index[("item", back)]
            for fuel, back in sorted(self.fuel_remainders.items())
            if ("item", fuel) in self.index and ("item", back) in self.index}
        """Fuel -> the container it leaves when it burns (resource indices)."""

    def _compile_actions(self, action_tasks: list[AtomTask]) -> None:
        index = self.index
        kept_items: set[int] = set()
        for task in action_tasks:
            for way in ways_of(task):
                for need in way:
                    # A tool or a station: kept and used. A need that only holds an item (``uses: 0``: an engine
                    # game's "hold it" actions) does not make every item one.
                    if need.kept and need.uses and need.kind.value == "item":
                        kept_items.update(index[("item", m)] for m in need.any_of)
        self.kept_items = frozenset(kept_items)
        groups: dict[tuple[tuple[int, ...], tuple[int, ...] | None], int] = {}
        self.ways: list[tuple[tuple[Need, ...], ...]] = []
        self.way_outputs: list[tuple[tuple[Output, ...], ...]] = []
        self.outputs: list[tuple[Output, ...]] = []
        self.goals: list[GoalTemplate] = []
        self.slot_action: list[int] = []
        self._placed_where: set[tuple[int, int]] = set()  # ways given the dimension need of where their things lie
        for a, task in enumerate(action_tasks):
            compiled_ways: list[tuple[Need, ...]] = []
            travels = any(y.kind.value == "dimension" for outcome in way_yields(task) for y in outcome)
            split = [(part, gives) for way, gives in zip(ways_of(task), way_yields(task), strict=True)
                     for part in self._by_dimension(way)]
            for way, way_gives in split:
                needs = []
                for need in way:
                    kind = need.kind.value
                    weights: tuple[int, ...] | None = None
                    count = need.count
                    members = sorted({index[(kind, m)] for m in need.any_of},
                                     key=lambda r: (r in self.kept_items, self.resources[r][1]))
                    if need.measure == Measure.SMELTS:
                        unknown = [self.names[m] for m in members if self.fuel_ticks.get(self.names[m], 0) <= 0]
                        if unknown:
                            raise TaskverseError(f"{task.id}: the fuel need lists {unknown[0]!r}, which has no burn "
                                                 "time (fuels.yaml)")
                        members.append(self.heat)
                        weights = tuple(1 if m == self.heat else self.fuel_ticks[self.names[m]] for m in members)
                        count = need.count * TICKS_PER_SMELT
                    key = tuple(sorted(members))
                    if len(key) == 1 and weights is None:
                        virtual = key[0]
                    else:
                        group_key = (key, None if weights is None else
                                     tuple(weights[members.index(m)] for m in key))
                        virtual = self.n_resources + groups.setdefault(group_key, len(groups))
                    presence = kind != "item"
                    works = need.kept and kind == "item" and any(self.names[m] in self.tools for m in members)
                    uses = need.uses if works else 0
                    needs.append(Need(tuple(members), 1 if presence else count,
                                      consume=not presence and not need.kept, presence=presence, virtual=virtual,
                                      weights=weights, uses=uses, wears=self.wear_shares(members, uses)))
                    finite = self.left_of.get(members[0]) if presence and len(members) == 1 else None
                    source = (kind, self.names[members[0]])
                    if finite is not None and task.goal.chest is not None:  # a library chest, not a corridor's
                        finite = self.kind_left.get((source, task.goal.chest))
                    if finite is not None and ((task.goal.event.value == USES_UP.get(kind)
                                                and task.goal.target == source[1])  # a kill, a chest looted
                                               or task.verb in self.spent_by.get(source, ())):  # a trader's offers
                        needs.append(Need((finite[0],), 1, consume=True, presence=False, virtual=finite[0]))
                offer = self._offer_of(task.id, way)
                if offer is not None:  # a villager's offer: one of the trades it makes before it locks
                    stock = self.stock_of[offer]
                    needs.append(Need((stock,), 1, consume=True, presence=False, virtual=stock,
                                      restock=self.stocks[offer][2]))
                # what it finds, not what it makes: a way that uses something up (netherrack or a torch placed,
                # obsidian from lava and water) makes its things where the agent is, unless it is a find (an eye of
                # ender thrown finds the stronghold where strongholds are)
                makes = task.verb != "find" and any(need.consume for need in needs)
                found = () if travels or makes else [index[(y.kind.value, y.name)] for y in way_gives
                                                     if y.kind.value != "item"]
                here = self._dimension_of(needs, found)
                if here is not None:  # done where its things are: a trip to them first, when elsewhere
                    needs.append(Need((here,), 1, consume=False, presence=True, virtual=here))
                    self._placed_where.add((a, len(compiled_ways)))
                compiled_ways.append(tuple(needs))
            self.ways.append(tuple(compiled_ways))
            outcomes = []
            for _, outcome in split:
                outputs = []
                for y in outcome:
                    slot = -1
                    if y.chance < 1 or y.upper != y.count:
                        slot = len(self.slot_action)
                        self.slot_action.append(a)
                    outputs.append(Output(index[(y.kind.value, y.name)], y.count, y.chance, slot,
                                          y.upper if y.upper != y.count else 0))
                    for counter, uses in self.stocked.get(index[(y.kind.value, y.name)], ()):
                        outputs.append(Output(counter, uses, 1.0, -1))  # a villager found: each offer's trades
                    held_by = self.left_of.get(index[(y.kind.value, y.name)])
                    if held_by is not None:  # a find of a finite source gives the few one structure holds
                        outputs.append(Output(held_by[0], held_by[1], 1.0, -1))
                        for counter, count, share in self.also_left.get(index[(y.kind.value, y.name)], ()):
                            kind_slot = -1
                            if share < 1:  # a kind some of the structures hold: a chance of the find
                                kind_slot = len(self.slot_action)
                                self.slot_action.append(a)
                            outputs.append(Output(counter, count, share, kind_slot))
                outcomes.append(tuple(outputs))
            self.way_outputs.append(tuple(outcomes))
            self.outputs.append(_best_outputs(outcomes))
            goal = task.goal
            self.goals.append(GoalTemplate(
                event=goal.event.value, target=goal.target, target_tag=self._tag(goal.target), count=goal.count,
                value=goal.value, using=goal.using, using_tag=self._tag(goal.using), chest=goal.chest))
        self.n_slots = len(self.slot_action)
        self.obtains_own: frozenset[int] = frozenset(
            a for a, g in enumerate(self.goals)
            if g.event == "obtain" and g.target_tag is None and ("item", g.target) in index
            and all(any(o.resource == index[("item", g.target)] for o in outs) for outs in self.way_outputs[a]))
        """Actions whose goal is to obtain an item every way of theirs yields: their goal event counts what came."""
        self.finds_own: frozenset[int] = frozenset(
            a for a, g in enumerate(self.goals)
            if g.event == "find" and g.target_tag is None and ("entity", g.target) in index
            and all(any(o.resource == index[("entity", g.target)] and o.uncertain for o in outs)
                    for outs in self.way_outputs[a]))
        """Actions whose goal is to find a mob every way of theirs brings about by chance (an endermite from an
        ender pearl thrown): their goal event counts what came, none on a try that brought none."""
        self.trips: frozenset[int] = frozenset(
            a for a, outputs in enumerate(self.outputs) if any(o.resource in self.dimensions for o in outputs))
        """Actions that take the agent to another dimension (through a portal): the only ones that change it."""
        self.output_items: list[frozenset[int]] = [
            frozenset(o.resource for o in outputs if o.resource < self.n_items) for outputs in self.outputs]
        ordered_groups = [key for key, _ in sorted(groups.items(), key=lambda kv: kv[1])]
        self.group_members: list[tuple[int, ...]] = [members for members, _ in ordered_groups]
        groups_of: list[list[tuple[int, int]]] = [[] for _ in range(self.n_resources)]
        for g, (group, group_weights) in enumerate(ordered_groups):
            for i, m in enumerate(group):
                groups_of[m].append((self.n_resources + g, 1 if group_weights is None else group_weights[i]))
        self.groups_of: list[tuple[tuple[int, int], ...]] = [tuple(g) for g in groups_of]
        """Per resource, the groups it is a member of and what one unit of it counts for there."""
        self.wear_of: dict[int, tuple[int, int]] = {
            index[("item", name)]: (index[("item", WEAR_PREFIX + name)], durability)
            for name, durability in self.durability.items()
            if ("item", name) in index and ("item", WEAR_PREFIX + name) in index}
        """Tool -> (its wear counter, its durability), for tools some kept need wears."""
        self.restores: dict[tuple[int, int], tuple[int, int]] = self._restores(action_tasks)
        """(action, way) -> (wear counter, uses it takes off): an anvil's repair (``REPAIRS_TAG``)."""
        self.producers: list[list[int]] = [[] for _ in range(self.n_resources)]
        for a, compiled in enumerate(self.outputs):
            for out in compiled:
                if a not in self.producers[out.resource]:
                    self.producers[out.resource].append(a)

        self._use_up_placed_blocks(action_tasks)
        self.target_used: list[bool] = [target_used(task) for task in action_tasks]
        """Per action, whether it uses its goal's own item (``world.graph.target_used``): eaten, put on."""
        self.worn: frozenset[int] = frozenset(
            r for g, on in zip(self.goals, self.target_used, strict=True)
            if on and g.event == "equip" and (r := index.get(("item", g.target))) is not None)
        """Armour (what equip actions put on): it wears when hit, which the game does not count as a use."""
        worn = {self.names[r] for r in self.worn}
        self.use_keys: list[frozenset[tuple[str, str]]] = [
            frozenset(("use", m) for m in items_used(task, self.tags, self.tools, worn))
            for task in action_tasks]
        """Per action, the ``use`` events it can emit (``world.graph.items_used``)."""
        self.used_on_block: list[bool] = [self._uses_on_block(a) for a in range(len(self.actions))]
        """Per action, whether its goal is an item used on a block in the world (the held item is used, as the
        game counts it), not on a mob or at a station in the inventory (enchanting, an anvil's repair)."""
        self.action_keys: list[frozenset[tuple[str, str]]] = [self._possible_keys(a) for a in range(len(self.actions))]
        self.can_move = bytearray(
            any(need.presence for way in self.ways[a] for need in way) or
            any(o.resource >= self.n_items for o in self.outputs[a]) for a in range(len(self.actions)))
        """Whether an action can take the agent somewhere (it uses or finds a thing with a place)."""
        self.actions_by_key: dict[tuple[str, str], list[int]] = {}
        for a, possible in enumerate(self.action_keys):
            for event_key in possible:
                self.actions_by_key.setdefault(event_key, []).append(a)

    def wear_shares(self, members: Sequence[int], uses: int) -> tuple[float, ...]:
        """Per member of a kept need, the share of its durability ``uses`` spend (``Need.wears``; empty: none wears)."""
        shares = tuple(uses / self.durability[self.names[m]] if self.names[m] in self.durability else 0.0
                       for m in members)
        return shares if any(shares) else ()

    def _by_dimension(self, way: Sequence[Any]) -> list[list[Any]]:
        """A way, or one way per dimension when a presence need's members lie in several (cows, or any animal).

        Each part keeps the members of one dimension (or those found in any), so that the one used is where the
        agent is (``_dimension_of``): a cow found in the overworld is no animal to hunt in the nether.
        """
        for i, need in enumerate(way):
            if need.kind.value not in PRESENCE_KINDS or len(need.any_of) < 2:
                continue
            homes: dict[int, list[str]] = {}
            for m in need.any_of:
                homes.setdefault(self.lies_in.get(self.index[(need.kind.value, m)], -1), []).append(m)
            if len(homes) > 1:
                return [part for _, members in sorted(homes.items())
                        for part in self._by_dimension([*way[:i], need.model_copy(update={"any_of": members}),
                                                        *way[i + 1:]])]
        return [list(way)]

    def _dimension_of(self, needs: list[Need], found: Sequence[int]) -> int | None:
        """The dimension a way must be done in, when it needs none already: where its found things all lie.

        Its presence needs decide (mining netherrack is done in the nether); a way with none that finds things
        (a find) is done where they all lie (no netherrack is found in the overworld). None when its things lie in
        no one dimension (an enderman: the overworld, the nether and the End), or it names a dimension itself.
        """
        if any(m in self.dimensions for need in needs if need.presence for m in need.members):
            return None
        presence = [need.members for need in needs if need.presence]
        if not presence:
            presence = [(r,) for r in found]
        where: set[int] = set()
        for members in presence:
            homes = {self.lies_in.get(m, -1) for m in members}
            if len(homes) == 1 and -1 not in homes:  # else found in any dimension, or a choice across them
                where |= homes
        return where.pop() if len(where) == 1 else None

    def elsewhere(self, need: Need, here: Callable[[int], int]) -> bool:
        """Whether meeting a presence need takes a trip: each of its members lies in a dimension the agent is not in.

        ``here``: a dimension's count (1 where the agent is).
        """
        return need.presence and all(m in self.lies_in and not here(self.lies_in[m]) for m in need.members)

    def _restores(self, action_tasks: list[AtomTask]) -> dict[tuple[int, int], tuple[int, int]]:
        """The wear each way of a repair takes off the item it gives back (all, or a share a unit of material)."""
        out: dict[tuple[int, int], tuple[int, int]] = {}
        for a, task in enumerate(action_tasks):
            if REPAIRS_TAG not in task.tags:
                continue
            for w, way in enumerate(self.ways[a]):
                tools = [o.resource for o in self.way_outputs[a][w] if o.resource in self.wear_of]
                if not tools:
                    continue
                counter, durability = self.wear_of[tools[0]]
                if any(n.consume and n.members == (tools[0],) and n.count >= 2 for n in way):
                    out[(a, w)] = (counter, durability)
                else:
                    units = sum(n.count for n in way if n.consume and tools[0] not in n.members)
                    out[(a, w)] = (counter, units * int(durability * self.repair_share))
        return out

    def _offer_of(self, atom: str, way: Sequence[Any]) -> tuple[str, ...] | None:
        """The villager offer a way of ``atom`` is (its ``stocks`` key), or None: its job site kept, its items held."""
        keys = self._offer_keys.get(atom)
        if not keys:
            return None
        sites = {m for n in way if n.kept for m in n.any_of}
        names = {m for n in way for m in n.any_of}
        return next((key for key in keys if key[1] in sites and names.issuperset(key[2:])), None)

    def _uses_on_block(self, a: int) -> bool:
        goal = self.goals[a]
        if goal.event != "use" or (goal.using is None and goal.using_tag is None):
            return False
        blocks = {self.index.get(("block", t)) for t in (goal.target_tag or {goal.target})} - {None}
        return any(n.presence and blocks & set(n.members) for way in self.ways[a] for n in way)

    def _use_up_placed_blocks(self, action_tasks: list[AtomTask]) -> None:
        """Breaking (or turning into another) a block that only placing gives uses it up: one placed, one back.

        A found block stands for a vein or a stand of trees, mined again and again; a placed one is one block.
        Without this, placing a block once and mining it repeatedly would copy the item without end.
        """
        placed_only = {r for r in range(self.n_items, self.n_resources)
                       if self.resources[r][0] == "block" and self.producers[r]
                       and all(any(n.consume for n in way) for a in self.producers[r] for way in self.ways[a])}
        self.placed_only: frozenset[int] = frozenset(placed_only)
        """Blocks only placing (or another action using something up) gives: counted, and used up when mined."""
        if not placed_only:
            return
        for a, task in enumerate(action_tasks):
            # Mining takes the block; an action that makes a block of it (waxing copper) turns it into another.
            makes_block = any(o.resource >= self.n_items and self.resources[o.resource][0] == "block"
                              for outputs in self.way_outputs[a] for o in outputs)
            if task.goal.event.value != "mine" and not makes_block:
                continue
            ways = []
            for w, way in enumerate(self.ways[a]):
                needs = [replace(n, consume=True, presence=False)
                         if n.presence and len(n.members) == 1 and n.members[0] in placed_only else n for n in way]
                if (a, w) in self._placed_where and needs != list(way):
                    # a placed block is where the agent put it, not where such blocks generate (a village's
                    # door): where the way is done is what its other found things say
                    here = self._dimension_of(needs[:-1], ())
                    needs = needs[:-1] if here is None else [*needs[:-1], replace(needs[-1], members=(here,),
                                                                                           virtual=here)]
                ways.append(tuple(needs))
            self.ways[a] = tuple(ways)

    def _order_members(self) -> None:
        """Sort each need's members into consumption order: items some atom keeps last, then cheapest first."""
        costs = CostModel(self, [self.index[("dimension", "overworld")]])
        self._cost_model = costs
        unit = costs.unit
        kept = self.kept_items

        def level(m: int) -> float:
            cost = unit[m] if unit[m] < INF else 1e9
            return (1e12 if m in kept else 0.0) + round(cost, 6)

        # The order depends on the members (and a fuel's weights) alone: one sort for each distinct list of them
        # (the 250 fuels of every smelting way are sorted once).
        orders: dict[tuple[Any, ...], tuple[tuple[int, ...], tuple[float, ...], tuple[int, ...] | None]] = {}
        ordered = []
        for ways in self.ways:
            new_ways = []
            for way in ways:
                needs = []
                for need in way:
                    key = (need.members, need.weights)
                    order = orders.get(key)
                    if order is None:
                        if need.weights is None:
                            members = tuple(sorted(need.members, key=lambda m: (level(m), self.names[m])))
                            order = (members, tuple(level(m) for m in members), None)
                        else:
                            # Fuel: the heat left in the furnace first, then the cheapest per tick of burning.
                            weight = dict(zip(need.members, need.weights, strict=True))

                            def fuel_level(m: int, weight: dict[int, int] = weight) -> float:
                                return -1.0 if m == self.heat else level(m) / weight[m]

                            members = tuple(sorted(need.members, key=lambda m: (fuel_level(m), self.names[m])))
                            order = (members, tuple(fuel_level(m) for m in members), tuple(weight[m] for m in members))
                        orders[key] = order
                    members, levels, weights = order
                    if weights is None:
                        share = dict(zip(need.members, need.wears, strict=True)) if need.wears else {}
                        needs.append(Need(members, need.count, need.consume, need.presence, need.virtual, levels,
                                          uses=need.uses, wears=tuple(share[m] for m in members) if share else (),
                                          restock=need.restock))
                    else:
                        needs.append(Need(members, need.count, need.consume, need.presence, need.virtual, levels,
                                          weights))
                new_ways.append(tuple(needs))
            ordered.append(tuple(new_ways))
        self.ways = ordered
        # the compiled fixpoint's tables were read off the ways in their first order: the first of equally cheap
        # members wins (and brings its wear), so they are read again in this one
        self.__dict__.pop("_settle_tables", None)

    def _tag(self, name: str | None) -> frozenset[str] | None:
        if name is None or not name.startswith("#"):
            return None
        return self.tags.get(name[1:], frozenset())

    def _possible_keys(self, a: int) -> frozenset[tuple[str, str]]:
        """Every (event, target) the action can emit."""
        goal = self.goals[a]
        targets = goal.target_tag if goal.target_tag is not None else {goal.target}
        keys = {(goal.event, t) for t in targets}
        keys |= {("obtain", self.names[o.resource]) for o in self.outputs[a]
                 if o.resource < self.n_items and o.resource not in self.internal}
        return frozenset(keys | self.use_keys[a])

    def _compile_masks(self) -> None:
        """Flat arrays for incremental candidate masks: needs -> ways -> actions, thresholds per resource."""
        n_virtual = self.n_resources + len(self.group_members)
        self.n_virtual = n_virtual
        self.need_way: list[int] = []
        self.way_action: list[int] = []
        self.action_ways: list[tuple[int, ...]] = []
        way_size: list[int] = []
        by_virtual: list[list[tuple[int, int]]] = [[] for _ in range(n_virtual)]
        for a, ways in enumerate(self.ways):
            ids = []
            for way in ways:
                w = len(self.way_action)
                ids.append(w)
                self.way_action.append(a)
                way_size.append(len(way))
                for need in way:
                    n = len(self.need_way)
                    self.need_way.append(w)
                    by_virtual[need.virtual].append((need.count, n))
            self.action_ways.append(tuple(ids))
        self.way_size = way_size
        self.thresholds: list[list[int]] = []
        self.threshold_needs: list[list[int]] = []
        for entries in by_virtual:
            entries.sort()
            self.thresholds.append([t for t, _ in entries])
            self.threshold_needs.append([n for _, n in entries])
        self._empty = self._empty_state()

    def _empty_state(self) -> State:
        ok_ways = [0] * len(self.actions)
        mask = bytearray(len(self.actions))
        for w, size in enumerate(self.way_size):
            if size == 0:
                a = self.way_action[w]
                ok_ways[a] += 1
                mask[a] = 1
        return State(counts=[0] * self.n_resources, virtual=[0] * self.n_virtual, way_missing=list(self.way_size),
                     ok_ways=ok_ways, mask=mask, tries=[0] * self.n_slots)

    def _name_index(self) -> dict[str, int]:
        from taskverse.text import loosen, normalize

        names: dict[str, int] = {}
        for a, (atom, text) in enumerate(zip(self.actions, self.descriptions, strict=True)):
            for key in (atom, normalize(text), loosen(text), loosen(atom.replace(".", " "))):
                names.setdefault(key, a)
        return names

    def own_yield(self, a: int) -> Output | None:
        """The yield an action's goal counts when its goal is to obtain what it yields (``obtains_own``), else None."""
        if a not in self.obtains_own:
            return None
        target = self.index[("item", self.goals[a].target)]
        return next((o for o in self.outputs[a] if o.resource == target), None)

    def runs_to_count(self, a: int, times: int = 1) -> int:
        """Runs of action ``a`` whose events count its goal ``times`` times, as the text world delivers them.

        One a time, except for an action whose goal counts what came (``obtains_own``): it runs until its yield's
        sure total reaches the goal's count (``world.chance``): a wandering trader has blue ice 1 time in 6, so a
        plan counts on the 17th trader, not the first.

        Example:
            >>> from taskverse import load_library
            >>> rules = Rules.for_library(load_library())
            >>> rules.runs_to_count(rules.action_index["trade.blue_ice"]), rules.runs_to_count(0, 3)
            (17, 3)

        """
        out = self.own_yield(a)
        if out is None:
            return times
        return out.runs_for(self.goals[a].count * times)

    # -- states --------------------------------------------------------------------------------------------------

    def new_state(self, inventory: Mapping[str, int] | None = None, found: Iterable[Resource] = (),
                  track: bool = False) -> State:
        """A state holding ``inventory`` with ``found`` present (empty: MCU's naive start).

        With ``track`` the state keeps a numpy copy of the counts up to date (for vector observations).
        """
        empty = self._empty
        state = State(counts=list(empty.counts), virtual=list(empty.virtual), way_missing=list(empty.way_missing),
                      ok_ways=list(empty.ok_ways), mask=bytearray(empty.mask), tries=[0] * self.n_slots)
        if track:
            state.array = np.zeros(self.n_resources, dtype=np.int32)
        for name, count in sorted((inventory or {}).items()):
            self.change(state, self.resource("item", name), count)
        for kind, name in sorted(found):
            r = self.resource(kind, name)
            if not state.counts[r]:
                self.change(state, r, 1)
                left = self.left_of.get(r)
                if left is not None:  # found with the few one structure holds
                    self.change(state, left[0], left[1])
                for counter, count, _ in self.also_left.get(r, ()):  # and its further kinds of chest
                    self.change(state, counter, count)
                for counter, count in self.stocked.get(r, ()):  # a villager with each offer's trades
                    self.change(state, counter, count)
        spawn = self.spawn(lambda r: state.counts[r])
        if spawn is not None:
            self.change(state, spawn, 1)
        return state

    def spawn(self, holds: Callable[[int], int]) -> int | None:
        """The dimension a start that names none stands in: the overworld's spawn (None when it names one)."""
        overworld = self.index.get(("dimension", "overworld"))
        if overworld is None or any(holds(d) for d in self.dimensions):
            return None
        return overworld

    def resource(self, kind: str, name: str) -> int:
        """The index of a resource; a clear error with close matches for an unknown one."""
        try:
            return self.index[(kind, name)]
        except KeyError:
            known = [n for k, n in self.resources if k == kind]
            raise TaskverseError(f"unknown {kind} {name!r} in the text world",
                                 suggestions=close_matches(name, known)) from None

    def state_from_initialization(self, init: Initialization, track: bool = False) -> State:
        """The starting state an initialization describes (items in hand and worn count as held)."""
        inventory = dict(init.inventory)
        for item in [init.main_hand, *init.equipment.values()]:
            if item:
                inventory[item] = inventory.get(item, 0) + 1
        found = [r for r in initialization_resources(init) if r[0] != "item"]
        state = self.new_state(inventory, [*found, ("dimension", init.dimension.value)], track=track)
        for summoned in init.summon:  # as many finite mobs as the initialization summons, at least
            left = self.left_of.get(self.index[("entity", summoned.entity)])
            if left is not None and summoned.count > state.counts[left[0]]:
                self.change(state, left[0], summoned.count - state.counts[left[0]])
            for counter, made in self.stocked.get(self.index[("entity", summoned.entity)], ()):
                if summoned.count * made > state.counts[counter]:  # each villager summoned makes every offer
                    self.change(state, counter, summoned.count * made - state.counts[counter])
        state.place = (self.index.get(("biome", init.biome), -1) if init.biome else -1,
                       self.index[("dimension", init.dimension.value)])
        return state

    def change(self, state: State, r: int, delta: int) -> None:
        """Add ``delta`` to resource ``r`` and update the candidate mask incrementally."""
        counts = state.counts
        old = counts[r]
        new = old + delta
        counts[r] = new
        if state.array is not None:
            state.array[r] = new
        self._virtual_change(state, r, old, new)
        virtual = state.virtual
        for v, weight in self.groups_of[r]:
            v_old = virtual[v]
            v_new = v_old + delta * weight
            virtual[v] = v_new
            self._virtual_change(state, v, v_old, v_new)

    def _virtual_change(self, state: State, v: int, old: int, new: int) -> None:
        if v < self.n_resources:
            state.virtual[v] = new
        thresholds = self.thresholds[v]
        if not thresholds:
            return
        needs = self.threshold_needs[v]
        way_missing = state.way_missing
        ok_ways = state.ok_ways
        mask = state.mask
        need_way = self.need_way
        way_action = self.way_action
        if new > old:
            for k in range(bisect_right(thresholds, old), bisect_right(thresholds, new)):
                w = need_way[needs[k]]
                way_missing[w] -= 1
                if way_missing[w] == 0:
                    a = way_action[w]
                    ok_ways[a] += 1
                    if ok_ways[a] == 1:
                        mask[a] = 1
        else:
            for k in range(bisect_right(thresholds, new), bisect_right(thresholds, old)):
                w = need_way[needs[k]]
                if way_missing[w] == 0:
                    a = way_action[w]
                    ok_ways[a] -= 1
                    if ok_ways[a] == 0:
                        mask[a] = 0
                way_missing[w] += 1

    # -- effects -------------------------------------------------------------------------------------------------

    def act(self, state: State, a: int, rng: np.random.Generator | None = None,
            events: bool = True, wield: Sequence[int] = ()) -> list[Event] | None:
        """Do candidate action ``a`` on ``state`` (in place); return the events it emits (if ``events``).

        ``rng`` draws chance yields (``chance="sample"``); without it they come as a plan counts on them (sure).
        ``wield``: tools the agent takes in hand, when it carries one, for actions that leave its hand free
        (``wielded``). Raises a TaskverseError if ``a`` is not a candidate now.
        """
        if not state.mask[a]:
            raise TaskverseError(f"{self.descriptions[a]!r} is not possible now: {self.explain(state, a)}")
        ways = self.action_ways[a]
        w = 0
        if len(ways) > 1:
            way_missing = state.way_missing
            while way_missing[ways[w]]:
                w += 1
        counts = state.counts
        deltas, outputs, used = self.effects(a, w, counts.__getitem__, rng, state.tries)
        place = state.place
        if self.can_move[a]:
            place = state.place = self.moved(a, w, used, outputs, place)
        emitted = self.events(a, w, used, outputs, place, self.wielded(a, w, wield, counts.__getitem__)) \
            if events else None
        for r, d in deltas:
            self.change(state, r, d)
        return emitted

    def effects(self, a: int, way: int, get: Callable[[int], int], rng: np.random.Generator | None,
                tries: Counters | None) -> tuple[list[tuple[int, int]], list[tuple[int, int]], list[int]]:
        """The changes doing action ``a`` by its way ``way`` makes, as a pure function of the counts.

        Returns (changes to apply, items received and things found (again or not), the member used for each
        need). ``tries`` (the chance-yield counters) is advanced in place.
        """
        deltas: list[tuple[int, int]] = []
        used: list[int] = []
        outputs_a = self.way_outputs[a][way]
        needs = self.ways[a][way]
        if len(outputs_a) == 1 and outputs_a[0].resource >= self.n_items \
                and all(need.presence for need in needs) and (not needs or outputs_a[0].slot < 0):
            # A find: the commonest action, done without the general machinery (its needs: where it is done).
            r = outputs_a[0].resource
            used = [next(m for m in need.members if get(m)) for need in needs]
            if get(r):
                return [], [(r, 1)], used
            return self._travel([(r, 1)], r, get), [(r, 1)], used
        for need in needs:
            if need.consume:
                taken = self.take(need, get, self.output_items[a])
                deltas += [(r, -k) for r, k in taken]
                used.append(taken[0][0])
                if need.weights is not None:  # what burns beyond the need stays in the furnace
                    weight = dict(zip(need.members, need.weights, strict=True))
                    left = sum(weight[r] * k for r, k in taken) - need.count
                    if left > 0:
                        deltas.append((self.heat, left))
                    for r, k in taken:  # a burnt lava bucket leaves its bucket (in the fuel slot: no event)
                        back = self.fuel_back.get(r)
                        if back is not None:
                            deltas.append((back, k))
            elif need.presence:
                used.append(next(m for m in need.members if get(m)))
            else:
                members = need.members  # the first of the most held (max is stable); one member: that one
                tool = members[0] if len(members) == 1 else max(members, key=get)
                used.append(tool)
                wear = self.wear_of.get(tool) if need.uses else None
                if wear is not None:
                    counter, durability = wear
                    spent = get(counter) + need.uses
                    broken = min(spent // durability, get(tool))
                    deltas.append((counter, spent - broken * durability - get(counter)))
                    if broken:
                        deltas.append((tool, -broken))
        restore = self.restores.get((a, way))
        if restore is not None and get(restore[0]) > 0:
            deltas.append((restore[0], -min(get(restore[0]), restore[1])))
        outputs: list[tuple[int, int]] = []
        n_items = self.n_items
        for out in outputs_a:
            amount = out.count
            if out.slot >= 0:
                if rng is not None:
                    amount = int(rng.integers(out.count, out.most + 1)) if rng.random() < out.chance else 0
                if tries is not None:
                    tries[out.slot] += 1
                    if rng is None:
                        amount = out.delivery(tries[out.slot])
            if amount <= 0:
                continue
            r = out.resource
            if r < n_items:
                outputs.append((r, amount))
                deltas.append((r, amount))
            else:  # found again is still "been there" (it moves the agent), but counts only once
                outputs.append((r, 1))
                if not get(r) and all(r != d[0] for d in deltas):
                    deltas = self._travel(deltas + [(r, 1)], r, get)
        return deltas, outputs, used

    def _travel(self, deltas: list[tuple[int, int]], r: int, get: Callable[[int], int]) -> list[tuple[int, int]]:
        """``deltas``, and when ``r`` is a dimension, leaving the one the agent is in (one dimension at a time)."""
        if r in self.dimensions:
            deltas += [(d, -get(d)) for d in sorted(self.dimensions) if d != r and get(d) > 0]
        return deltas

    def take(self, need: Need, get: Callable[[int], int], spare: frozenset[int] = frozenset()) -> list[tuple[int, int]]:
        """Which members a consumed need takes, and how many of each, one unit at a time.

        Each unit comes from the cheapest member to get (the atoms' costs), the most held among equally cheap
        ones, then the first by name. Items some atom keeps and, in ``spare``, what the action itself makes
        (dyeing green wool takes any wool) come last.
        """
        left = need.count
        taken: dict[int, int] = {}
        if need.weights is not None:  # fuel: heat first, then whole items, cheapest per tick, what is made last
            members = need.members
            # What the action makes goes last, in order (a stable sort on "in spare"): passed over the first time
            # through, and met again when the walk goes on into ``made``.
            made: list[int] = []
            for i in itertools.chain(range(len(members)), made):
                if left <= 0:
                    break
                m = members[i]
                if m in spare and i not in made:
                    made.append(i)
                    continue
                held = get(m)
                if held <= 0:
                    continue
                weight = need.weights[i]
                k = min(held, -(-left // weight))
                taken[m] = k
                left -= k * weight
            return list(taken.items())
        if len(need.members) == 1:  # the commonest need: every unit comes from its one member, if held
            m = need.members[0]
            held = get(m)
            return [(m, min(left, held))] if held > 0 and left else []
        pool: list[list[Any]] = []
        for i, m in enumerate(need.members):
            held = get(m)
            if held > 0:
                pool.append([m in spare, need.levels[i] if need.levels else 0.0, -held, i, m])
        if len(pool) == 1:  # one member held: every unit comes from it
            return [(pool[0][4], min(left, -pool[0][2]))] if left else []
        while left and pool:
            best = min(pool)
            best[2] += 1
            taken[best[4]] = taken.get(best[4], 0) + 1
            left -= 1
            if best[2] == 0:
                pool.remove(best)
        return list(taken.items())

    def moved(self, a: int, way: int, used: list[int], outputs: list[tuple[int, int]],
              place: tuple[int, int]) -> tuple[int, int]:
        """Where the agent is after action ``a`` (a biome and a dimension, -1 where unknown).

        First where the things it used are (mining netherrack happens in the nether), then where what it found
        is (finding a biome or entering a dimension takes it there).
        """
        biome, dimension = place
        resources = self.resources
        for u, need in zip(used, self.ways[a][way], strict=True):
            if need.presence:
                biome, dimension = self._at(u, biome, dimension)
        for r, _ in outputs:
            if r >= self.n_items:
                biome, dimension = self._at(r, biome, dimension)
                if resources[r][0] == "dimension":
                    biome = -1
        return biome, dimension

    def may_happen_in(self, a: int, biome: int) -> bool:
        """Whether some way of action ``a`` can be done in ``biome``: each thing it must find there can be there.

        An oak log is mined where oaks grow; in a taiga the logs are spruce (``natural_blocks.yaml``'s biomes).
        """
        return any(all(not need.presence or any(m not in self.grows_in or biome in self.grows_in[m]
                                                for m in need.members) for need in way) for way in self.ways[a])

    def _at(self, r: int, biome: int, dimension: int) -> tuple[int, int]:
        kind = self.resources[r][0]
        if kind == "biome":
            biome = r
        elif kind == "dimension":
            if r != dimension:
                biome = -1  # being in another dimension (a need met there) leaves the biome we were in
            dimension = r
        where = self.places.get(r)
        if where is not None:
            # Only a trip changes the dimension (a thing is used where the agent is, ``_dimension_of``); where it
            # is not known yet (a start that names none), the thing used says it.
            if where[1] is not None and dimension < 0:
                new_dimension = self.index.get(("dimension", where[1]), dimension)
                if new_dimension != dimension and kind != "biome":
                    biome = -1  # another dimension: not in the biome we were in
                dimension = new_dimension
            if where[0] is not None:
                biome = self.index.get(("biome", where[0]), biome)
        return biome, dimension

    def wield_tools(self, names: Iterable[str]) -> tuple[int, ...]:
        """The item resources a list of tool names (or ``#tags``) stands for, in order, for ``wielded``."""
        out: list[int] = []
        for name in names:
            members = self._tag(name) or {name}
            out += sorted(r for m in members if (r := self.index.get(("item", m))) is not None)
        return tuple(dict.fromkeys(out))

    def wielded(self, a: int, way: int, wield: Sequence[int], get: Callable[[int], int]) -> int | None:
        """The tool of ``wield`` the agent holds doing action ``a`` by ``way`` (None: no tool of ``wield``).

        The first it carries, when the action leaves its hand free (it keeps no tool of its own and is not a
        place, eat or equip), or when the action's own tool may be that one (mining iron ore with the stone
        pickaxe asked for, not the iron one also carried).

        So a target asking for ``how=with:stone_axe`` is honoured for every verb that can be done holding it:
        ``combat zombie @ how=with:stone_axe`` once the agent carries a stone axe.
        """
        if not wield:
            return None
        goal = self.goals[a]
        if goal.using is not None or goal.using_tag is not None or goal.event in HAND_EVENTS:
            return None
        if goal.event not in STATION_EVENTS:
            kept = [n for n in self.ways[a][way] if not n.consume and not n.presence]
            if kept:  # it holds a tool of its own (a pickaxe for mining): the asked one if it is one of those
                return next((r for r in wield if get(r) > 0 and r in kept[0].members), None)
        return next((r for r in wield if get(r) > 0), None)

    def events(self, a: int, way: int, used: list[int], outputs: list[tuple[int, int]],
               place: tuple[int, int] = (-1, -1), wielded: int | None = None) -> list[Event]:
        """The events action ``a`` emits.

        Given its way, the members its needs used, what it received, where it happened (``moved``), and the tool
        in hand when the action leaves the hand free (``wielded``).
        """
        goal = self.goals[a]
        names = self.names
        n_items = self.n_items
        way_needs = self.ways[a][way]
        target = goal.target
        if goal.target_tag is not None:
            target = self._pick(goal.target_tag, used, outputs)
        held: str | None = None
        if goal.using_tag is not None:
            held = self._pick(goal.using_tag, used, outputs)
        elif goal.using is not None:
            held = goal.using
        elif goal.event not in STATION_EVENTS:
            held = next((names[u] for u, n in zip(used, way_needs, strict=True) if not n.consume and not n.presence),
                        None)
        if held is None and wielded is not None:
            held = names[wielded]
        biome = names[place[0]] if place[0] >= 0 else None
        dimension = names[place[1]] if place[1] >= 0 else None
        count = goal.count
        events: list[Event] = []
        if goal.event in COUNTED_BY_ITEMS:  # as the game's statistics count them: a craft of 4 sticks counts 4
            made = sum(n for r, n in outputs if r < n_items and names[r] == target)
            count = made or count
        if goal.event == "obtain" and a in self.obtains_own:  # obtained is what came: 4 apples, or none this try
            count = sum(n for r, n in outputs if r < n_items and names[r] == target)
        elif a in self.finds_own:  # a pearl that landed with no endermite found none
            mob = self.index[("entity", target)]
            count = sum(n for r, n in outputs if r == mob)
        if count:
            events.append((goal.event, target, count, held, biome, dimension, goal.value, goal.chest))
        for item in self._used(a, goal, way_needs, used, target, held):
            if (goal.event, target) != ("use", item):
                events.append(("use", item, 1, held, biome, dimension, None, None))
        internal = self.internal
        for r, amount in outputs:
            if r < n_items and r not in internal and not (goal.event == "obtain" and names[r] == target):
                events.append(("obtain", names[r], amount, held, biome, dimension, None, None))
        return events

    def _used(self, a: int, goal: GoalTemplate, way_needs: Sequence[Need], used: list[int], target: str,
              held: str | None) -> list[str]:
        """The items action ``a`` uses this time, as the game's ``used`` statistic counts them (``items_used``)."""
        names = self.names
        out = [names[u] for u, n in zip(used, way_needs, strict=True)
               if (n.uses and u not in self.worn and names[u] in self.tools)
               or (goal.event == "place" and n.consume and u < self.n_items)]
        if self.target_used[a]:
            out.append(target)
        if self.used_on_block[a] and held is not None:
            out.append(held)
        return list(dict.fromkeys(out))

    def _pick(self, tag: frozenset[str], used: list[int], outputs: list[tuple[int, int]]) -> str:
        for r in [*used, *(r for r, _ in outputs)]:
            if self.names[r] in tag:
                return self.names[r]
        return min(tag) if tag else ""

    # -- reading states ------------------------------------------------------------------------------------------

    def candidates(self, state: State) -> list[int]:
        """The candidate actions now, in action order."""
        return [a for a, ok in enumerate(state.mask) if ok]

    def inventory(self, state: State) -> dict[str, int]:
        """Held items by name (only those held)."""
        counts = state.counts
        internal = self.internal
        return {self.names[r]: counts[r] for r in range(self.n_items) if counts[r] and r not in internal}

    def found(self, state: State) -> list[Resource]:
        """What was found, as (kind, name) pairs."""
        counts = state.counts
        return [self.resources[r] for r in range(self.n_items, self.n_resources) if counts[r]]

    def explain(self, state: State, a: int) -> str:
        """Why an action is not a candidate: the unmet needs of its closest way."""
        best: list[str] | None = None
        for way in self.ways[a]:
            missing = [self._describe_need(state, need) for need in way if not self.need_met(state, need)]
            if best is None or len(missing) < len(best):
                best = missing
        if not best:
            return "it is possible now"
        return "needs " + "; ".join(best)

    def need_met(self, state: State, need: Need) -> bool:
        """Whether one need is met in ``state``."""
        return state.virtual[need.virtual] >= need.count

    def _describe_need(self, state: State, need: Need) -> str:
        names = sorted(self.names[m] for m in need.members)
        shown = names[0] if len(names) == 1 else "any of " + ", ".join(names[:4]) + (", ..." if len(names) > 4
                                                                                      else "")
        if need.presence:
            return f"{shown} found ({self.resources[need.members[0]][0]})"
        have = state.virtual[need.virtual]
        if need.weights is not None:
            return f"fuel for {need.count / TICKS_PER_SMELT:g} smelt(s), have {have / TICKS_PER_SMELT:g}"
        if len(need.members) == 1 and names[0].startswith(LEFT_PREFIX):
            return f"one more {names[0][len(LEFT_PREFIX):]} (those found are used up: find another)"
        if len(need.members) == 1 and names[0].startswith(STOCK_PREFIX):
            profession, atom = names[0][len(STOCK_PREFIX):].split(":", 1)
            article = "an" if profession[:1] in "aeiou" else "a"
            return (f"the {profession}'s offer ({atom}) is locked after its trades until the villager restocks: "
                    f"find another villager and make it {article} {profession}")
        if len(need.members) == 1 and names[0].startswith(VILLAGER_XP_PREFIX):
            profession = names[0][len(VILLAGER_XP_PREFIX):]
            article = "an" if profession[:1] in "aeiou" else "a"  # an armorer, a librarian
            return f"{article} {profession} raised to {need.count} villager experience by trading with it, have {have}"
        kept = "" if need.consume else " (kept)"
        return f"{need.count} {shown}{kept}, have {have}"

    def lookup(self, text: str) -> int:
        """An action by id or description (case, spacing and underscores do not matter).

        Raises a TaskverseError naming the closest actions when nothing matches.
        """
        from taskverse.text import loosen, normalize

        for key in (text.strip(), normalize(text), loosen(text)):
            if key in self._by_name:
                return self._by_name[key]
        suggestions = close_matches(normalize(text), self.descriptions, n=3)
        raise TaskverseError(f"no action named {text.strip()!r}", suggestions=suggestions)


@dataclass(slots=True)
class State:
    """A mutable text-world state with its candidate mask kept up to date (see ``Rules.change``)."""

    counts: list[int]
    virtual: list[int]
    way_missing: list[int]
    ok_ways: list[int]
    mask: bytearray
    tries: list[int]
    array: np.ndarray | None = None
    place: tuple[int, int] = (-1, -1)
    """Where the agent is: (biome, dimension) resource indices, -1 where unknown (see ``Rules.moved``)."""

    def copy(self) -> State:
        """An independent copy."""
        return State(list(self.counts), list(self.virtual), list(self.way_missing), list(self.ok_ways),
                     bytearray(self.mask), list(self.tries), None if self.array is None else self.array.copy(),
                     self.place)


class CostModel:
    """What resources and actions cost from a set of holdings: a least fixpoint over the atoms, in steps.

    A price has two parts: a *marginal* cost per unit and a *setup* paid once however many units are made (the
    tools, stations and found things on the way). Iron from smelting costs a step or so an ingot once the pickaxe
    and the furnace exist; a drowned's 11% copper costs nine kills an ingot and needs only a sword. Which is
    cheaper depends on how many are wanted, so each resource keeps the prices no other beats at every amount (a
    Pareto front), and a need for ``q`` units takes the one with the least ``q * marginal + setup``. Within one
    way, setups overlap (the same pickaxe serves several needs), so only the dearest counts. A kept need that
    wears is chosen and priced by the run, at each run count a way is priced for (``_RUNS``): the tools the runs
    wear out, rounded up (``tool_run_price``), as a long-run wear a run (``uses / durability`` of another's
    marginal price) and the rest of the tools as setup (``_price``). The count of runs a consumer asks for is not
    known here; the derivation and the planner choose by the runs they plan.

    Each need of a way is bought at the price least for what it takes alone, not at the prices least for the way
    as a whole. A setup is one number, so what one need's setup shares with another's is not known; chosen
    together, each need would take its cheapest marginal whose setup hides under the dearest, as if it shared all
    of it. Chainmail leggings (three emeralds traded at an armorer's blast furnace) would cost 49 steps with the
    emeralds mined a step each under the blast furnace's setup, though the iron pickaxe's own ingots and craft are
    no part of the blast furnace and a player's plan takes 56; bought alone, the emeralds come from pufferfish at
    five steps each, 61 steps (``tests/test_cost_one_off.py`` works it out). Pricing the needs together soundly
    takes setups as the sets of lasting things they make, priced as a union.

    Args:
        rules: The text-world rules.
        held: Resources held or found at the start (cost nothing; a held tool that wears still costs its wear).
        steps: What one run of each action costs (default: one step each).

    """

    FRONT = 5
    """Prices kept per resource at most: the best for each amount of 1, 3, 9, 27 and 81 (``_offer``)."""

    compiled = True
    """Whether ``lowered`` may run the fixpoint compiled (False: the Python loop, as the tests compare them)."""

    def __init__(self, rules: Rules, held: Iterable[int] = (), steps: Sequence[float] | None = None) -> None:
        self.rules = rules
        self.steps = steps
        fronts: list[list[tuple[float, float]]] = [[] for _ in range(rules.n_resources)]
        way_prices: list[list[tuple[float, float]]] = [[(INF, INF)] * len(ways) for ways in rules.ways]
        batch_prices: list[list[tuple[tuple[float, float], ...]]] = [[()] * len(ways) for ways in rules.ways]
        # Held things that last (found places, tools, stations) cost nothing more; a held stack of something used
        # up does not make the next unit free, so it keeps its price, unless nothing makes it (then it is free).
        # A held tool that wears is had, but still worn down (``_held_tool``).
        held = list(held)
        lasting = [r for r in held if r >= rules.n_items or r in rules.kept_items]
        for r in lasting:
            if r not in rules.wear_of:
                fronts[r] = [(0.0, 0.0)]
        self._settle(fronts, way_prices, batch_prices, range(len(rules.actions)), compiled=True)
        worn = [r for r in lasting if r in rules.wear_of]
        for r in worn:
            fronts[r] = _held_tool(fronts[r])
        if worn:
            self._settle(fronts, way_prices, batch_prices, sorted({b for r in worn for b in consumers_of(rules)[r]}),
                         compiled=True)
        stock = [r for r in held if not fronts[r]]
        for r in stock:
            fronts[r] = [(0.0, 0.0)]
        if stock:
            consumers = consumers_of(rules)
            self._settle(fronts, way_prices, batch_prices, sorted({b for r in stock for b in consumers[r]}),
                         compiled=True)
        self.fronts = fronts
        self.way_prices = way_prices
        """Per action and way, the (marginal, setup) of one run, its needs bought for one run (``_price``'s first)."""
        self.batch_prices = batch_prices
        """Per action and way, the (marginal, setup) prices a run it keeps (``_offer``, by ``_run_counts``): of
        all it was priced at, the least for each of a few run counts, its needs bought for that many runs
        (``_price``); every price a front keeps is one of its producers'."""
        self.unit = [min((m + s for m, s in front), default=INF) for front in fronts]
        """What one unit of each resource costs from the holdings, setup included."""
        self.action = [min((m + s for m, s in prices), default=INF) for prices in way_prices]
        """What one run of each action costs, setup included."""

    def _settle(self, fronts: list[list[tuple[float, float]]], way_prices: list[list[tuple[float, float]]],
                batch_prices: list[list[tuple[tuple[float, float], ...]]], start: Iterable[int],
                compiled: bool = False) -> None:
        """Lower prices until nothing changes, starting from the actions ``start`` (the fixpoint).

        ``compiled``: with numba, ``world.settle`` runs this loop compiled, to the same prices. ``lowered`` and a
        model from scratch ask for it: lowering for a held table or tool can take seconds in Python, and
        milliseconds compiled; from scratch the Python loop takes half a second (a way priced at five run counts),
        the compiled one 0.05 s once loaded (0.4 s in a fresh process, paid by any that lowers a model too).
        """
        from taskverse.world import jit, settle

        if compiled and jit.HAVE_NUMBA and self.compiled:
            settle.settle(self.rules, consumers_of(self.rules), _priced_way, fronts, way_prices, batch_prices,
                          list(start), self.steps, self.FRONT, TOLERANCE)
            return
        rules, steps = self.rules, self.steps
        consumers = consumers_of(rules)
        ways_of_action = rules.ways
        table = _price_table(ways_of_action)
        active = list(dict.fromkeys(start))  # visited in the order given: a law shuffles it
        priced, limit = 0, 200 * len(rules.actions)
        changed: set[int] | None = None  # the resources whose fronts the last round changed (None: a first round)
        # Rounds, not a queue: every action of a round is priced from the fronts as the round found them, and
        # only then are the new prices offered (``_offer`` keeps what a set of prices keeps, in any order). So
        # the order the actions come in never changes a price. A way none of whose members' fronts changed in
        # the last round would be priced as it was then, and offer what its front already kept: it is skipped.
        while active and priced < limit:
            shared: dict[int, _Best] = {}  # a shared need's best (``_price``) this round
            offers: list[tuple[int, int, tuple[tuple[float, float], ...]]] = []
            for a in active:
                priced += 1
                step = 1.0 if steps is None else steps[a]
                ways = ways_of_action[a]
                entry = table[a]
                if entry is None or entry[0] is not ways:
                    entry = table[a] = (ways, [_priced_way(way) for way in ways],
                                        [_run_counts(rules, outputs) for outputs in rules.way_outputs[a]],
                                        [frozenset(m for _, members, *_ in _priced_way(way) for m, _ in members)
                                         for way in ways])
                for w, priced_way in enumerate(entry[1]):
                    if changed is not None and changed.isdisjoint(entry[3][w]):
                        continue
                    prices = _price(priced_way, fronts, step, shared)
                    way_prices[a][w] = prices[0]
                    kept = list(batch_prices[a][w])
                    if _offer(kept, prices, entry[2][w]):
                        batch_prices[a][w] = tuple(kept)
                        offers.append((a, w, prices))
            by_resource: dict[int, set[tuple[float, float]]] = {}  # a front takes its round's offers at once
            for a, w, prices in offers:
                for out in rules.way_outputs[a][w]:
                    per = out.units(rules.n_items)
                    by_resource.setdefault(out.resource, set()).update((m / per, s) for m, s in prices)
            changed = {r for r, offered in by_resource.items() if _offer(fronts[r], offered)}
            active = sorted({b for r in changed for b in consumers[r]})

    def per_unit(self, a: int, r: int) -> float:
        """What one unit of ``r`` costs when action ``a`` makes it (its cheapest way that yields ``r``).

        The unit's share of a run, as the fixpoint prices it: four planks share a craft, so one costs a quarter
        of it (``batch`` counts the whole runs an amount takes). Each of the way's prices (``batch_prices``) is
        a way to have it; the least counts, as in the fronts.
        """
        best = INF
        for w, outputs in enumerate(self.rules.way_outputs[a]):
            for out in outputs:
                if out.resource == r:
                    per = out.units(self.rules.n_items)
                    for marginal, setup in self.batch_prices[a][w]:
                        best = min(best, marginal / per + setup)
        return best

    def producers_by_batch(self, r: int, amount: float,
                           at_hand: Sequence[tuple[int, int]] = ()) -> list[int]:
        """The producers of ``r``, cheapest first for ``amount`` of it (``batch``; ties in index order); memoised.

        The greedy rule asks this of the same few resources and amounts at every step of a plan. With ``at_hand``
        (``setup_at_hand`` of a state) the order is ``batch``'s with the setup of the kept and presence needs met
        now left out (a held pickaxe and found emerald ore make emeralds a mine each). It is memoised by the
        members of ``at_hand`` that count for ``r`` (``setup_watch``), mostly none, when it is the order
        without ``at_hand``.
        """
        at: tuple[tuple[int, int], ...] = ()
        if at_hand:
            watch = self.setup_watch(r)
            at = tuple((m, min(c, watch[m])) for m, c in at_hand if m in watch)
        orders = self.__dict__.setdefault("_producer_orders", {})  # made here: ``lowered`` skips __init__
        key = (r, amount, at)
        found: list[int] | None = orders.get(key)
        if found is None:
            if at:
                have = dict(at)

                def met(need: Need) -> bool:
                    return sum(have.get(m, 0) for m in need.members) >= need.count

                found = sorted(self.rules.producers[r], key=lambda p: self.batch(p, r, amount, met))
            else:
                found = sorted(self.rules.producers[r], key=lambda p: self.batch(p, r, amount))
            orders[key] = found
        return found

    def setup_at_hand(self, state: Mapping[int, int]) -> tuple[tuple[int, int], ...]:
        """What a state holds of the members of kept and presence needs, with counts, in index order.

        Tools, stations and found places: what ``producers_by_batch`` reads of a state.
        """
        members: frozenset[int] | None = self.__dict__.get("_setup_members")
        if members is None:
            members = frozenset(m for ways in self.rules.ways for way in ways for need in way if not need.consume
                                for m in need.members)
            self.__dict__["_setup_members"] = members
        return tuple(sorted((m, c) for m, c in state.items() if c > 0 and m in members))

    def setup_watch(self, r: int) -> dict[int, int]:
        """The held members that can lower ``batch``'s price of ``r``, each with the most it counts; memoised.

        They are the members of the kept and presence needs that add setup to a way making ``r``, in index order,
        each with the largest count of those needs (holding more changes nothing). A need whose members cost
        nothing already (held from the start) adds no setup either way, and is left out.
        """
        memo: dict[int, dict[int, int]] = self.__dict__.setdefault("_setup_watch", {})
        found = memo.get(r)
        if found is None:
            rules, fronts = self.rules, self.fronts
            caps: dict[int, int] = {}
            for p in rules.producers[r]:
                for w, outputs in enumerate(rules.way_outputs[p]):
                    if not self.way_prices[p][w][1] or all(out.resource != r for out in outputs):
                        continue
                    for need in rules.ways[p][w]:
                        if not need.consume and any(_cost_at(fronts[m], 1.0) > 0 for m in need.members):
                            for m in need.members:
                                caps[m] = max(caps.get(m, 0), need.count)
            found = memo[r] = dict(sorted(caps.items()))
        return found

    def members_by_amount(self, members: tuple[int, ...], amount: float) -> list[int]:
        """A need's members, cheapest first for ``amount`` (``amount_cost``; ties in their order); memoised."""
        orders = self.__dict__.setdefault("_member_orders", {})
        key = (members, amount)
        found: list[int] | None = orders.get(key)
        if found is None:
            found = sorted(members, key=lambda m: self.amount_cost(m, amount))
            orders[key] = found
        return found

    def batch(self, a: int, r: int, amount: float, at_hand: Callable[[Need], bool] | None = None) -> float:
        """What ``amount`` units of ``r`` cost when action ``a`` makes them: runs' marginal costs plus one setup.

        Runs are whole (two raw iron from a block of nine take a whole craft, as two ores take two mines); a chance
        yield takes the runs that give the amount for sure (``Output.runs_for``). Kept and presence needs that
        ``at_hand`` says are met now add no setup (a held pickaxe and found emerald ore make emeralds a mine each),
        only the wear a run spends of a held tool (``_price``); consumed needs still bring theirs. Each of the
        way's prices (``batch_prices``) is a way to have it; the least counts.
        """
        best = INF
        for w, outputs in enumerate(self.rules.way_outputs[a]):
            prices = self.batch_prices[a][w]
            if at_hand is not None and any(setup for _, setup in prices):
                step = 1.0 if self.steps is None else self.steps[a]
                prices = (*prices, *_price(_priced_way(self.rules.ways[a][w], at_hand), self.fronts, step, {}))
            for out in outputs:
                if out.resource == r:
                    runs = self._runs(out, amount)
                    for marginal, setup in prices:
                        best = min(best, marginal * runs + setup)
        return best

    def run_cost(self, a: int, r: int, amount: float) -> float:
        """What ``amount`` units of ``r`` cost in whole runs of action ``a``, setups not counted."""
        best = INF
        for w, outputs in enumerate(self.rules.way_outputs[a]):
            marginal = min((marginal for marginal, _ in self.batch_prices[a][w]), default=INF)
            for out in outputs:
                if out.resource == r:
                    best = min(best, marginal * self._runs(out, amount))
        return best

    def _runs(self, out: Output, amount: float) -> int:
        """Whole runs that give ``amount`` of an output's resource (a place is found by its first sure run)."""
        return out.runs_for(amount if out.resource < self.rules.n_items else 1)

    def marginal_cost(self, r: int, amount: float) -> float:
        """What ``amount`` units of ``r`` cost beyond any setup (the tools and places are had already)."""
        return min((amount * marginal for marginal, _ in self.fronts[r]), default=INF)

    def amount_cost(self, r: int, amount: float) -> float:
        """What ``amount`` units of ``r`` cost by their cheapest producer at that amount."""
        return _cost_at(self.fronts[r], amount)

    def cheapest_way(self, r: int) -> tuple[Need, ...] | None:
        """The way of making ``r`` with the least price for one unit (None when nothing makes it).

        Not any way of its cheapest producer: white wool is made from string far more cheaply than by bleaching
        lime wool, though one recipe does both.
        """
        memo: dict[int, tuple[Need, ...] | None] = self.__dict__.setdefault("_cheapest_way", {})
        if r in memo:
            return memo[r]
        rules = self.rules
        best, best_way = INF, None
        for p in rules.producers[r]:
            for w, outputs in enumerate(rules.way_outputs[p]):
                for out in outputs:
                    if out.resource == r:
                        per = out.units(rules.n_items)
                        price = min((marginal / per + setup for marginal, setup in self.batch_prices[p][w]),
                                    default=INF)
                        if price < best:
                            best, best_way = price, rules.ways[p][w]
        memo[r] = best_way
        return best_way

    @classmethod
    def for_rules(cls, rules: Rules, steps: Sequence[float] | None = None) -> CostModel:
        """The model from an empty inventory (built once per rules, and once per ``steps`` list given)."""
        if steps is None:
            cached: CostModel | None = getattr(rules, "_cost_model", None)
            if cached is None:
                cached = cls(rules, [rules.index[("dimension", "overworld")]])
                rules._cost_model = cached  # type: ignore[attr-defined]
            return cached
        by_steps: dict[tuple[float, ...], CostModel] = rules.__dict__.setdefault("_cost_models_by_steps", {})
        key = tuple(steps)
        found = by_steps.get(key)
        if found is None:
            found = by_steps[key] = cls(rules, [rules.index[("dimension", "overworld")]], steps)
        return found

    @classmethod
    def lowered(cls, base: CostModel, held: Iterable[int]) -> CostModel:
        """The model from ``held`` (which includes ``base``'s holdings), lowered from ``base`` instead of from scratch.

        Holdings only lower prices, so settling again from the actions the new holdings feed reaches the prices
        a build from scratch reaches, up to which of equally good prices a front keeps. On a game of thousands of
        actions it takes a fraction of the time (taskverse_mc's 6,700: milliseconds instead of over a second).
        """
        rules = base.rules
        model = cls.__new__(cls)
        model.rules, model.steps = rules, base.steps
        fronts = [list(front) for front in base.fronts]
        way_prices = [list(prices) for prices in base.way_prices]
        batch_prices = [list(prices) for prices in base.batch_prices]
        held = list(held)
        consumers = consumers_of(rules)
        lasting = [r for r in held if (r >= rules.n_items or r in rules.kept_items) and fronts[r] != [(0.0, 0.0)]]
        plain = [r for r in lasting if r not in rules.wear_of]
        for r in plain:
            fronts[r] = [(0.0, 0.0)]
        model._settle(fronts, way_prices, batch_prices, sorted({b for r in plain for b in consumers[r]}),
                      compiled=True)
        worn = [r for r in lasting if r in rules.wear_of and fronts[r] != _held_tool(fronts[r])]
        for r in worn:  # priced from the other holdings, as ``__init__`` prices them
            fronts[r] = _held_tool(fronts[r])
        if worn:
            model._settle(fronts, way_prices, batch_prices, sorted({b for r in worn for b in consumers[r]}),
                          compiled=True)
        stock = [r for r in held if not fronts[r]]  # as in __init__: a held stack nothing makes is free
        for r in stock:
            fronts[r] = [(0.0, 0.0)]
        if stock:
            model._settle(fronts, way_prices, batch_prices, sorted({b for r in stock for b in consumers[r]}),
                          compiled=True)
        model.fronts = fronts
        model.way_prices = way_prices
        model.batch_prices = batch_prices
        model.unit = [min((m + s for m, s in front), default=INF) for front in fronts]
        model.action = [min((m + s for m, s in prices), default=INF) for prices in way_prices]
        return model


_AMOUNTS = (1.0, 3.0, 9.0, 27.0, 81.0)
_RUNS = _AMOUNTS
TOLERANCE = 1e-9
"""How much of itself a front's cost at one of its amounts must fall by for the front to change (``_offer``)."""
"""The run counts a way is priced for (``_price``): a front keeps the best at each of its amounts, and a way
offers its price at as many runs."""
_NO_PRICES = ((INF, INF),) * len(_RUNS)
_Best = tuple[float, float, float, tuple[tuple[float, float], ...] | None]
"""A need's best for one run (total, marginal, setup) and, when the best differs between run counts, its best
(marginal, setup) for each count (``_by_runs``)."""


def _held_tool(front: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The front of a tool that wears, held at the start: one is had, and a run still wears its share of another.

    The tool's cheapest price for one, ``(m, s)``, becomes ``(m, -m)``: one costs nothing (``m - m``, no setup),
    and each further one a run wears out costs the marginal ``m``, as a planned tool's further ones do
    (``tool_run_price``: the held one counts as made). Only the dearest setup of a way counts, from nothing up,
    so the negative setup never lowers another need's. A held iron pickaxe no longer mines 2,000 blocks for
    free: it saves its own price once, and the run's blocks wear out seven more. A tool nothing makes stays
    free (it cannot be replaced).
    """
    best = min(front, key=sum, default=(INF, INF))
    if best[0] == INF or best[0] + best[1] == INF:
        return [(0.0, 0.0)]
    return [(best[0], -best[0])]


def tool_run_price(front: Sequence[tuple[float, float]], unit: float, wear: float,
                   runs: float) -> tuple[float, float, float]:
    """The least a run of ``runs`` uses of one tool costs, by the run: (total, marginal, setup) of one front price.

    The rule a player follows: for ``n`` uses a tool costs its price once and its marginal again for each further
    one the run wears out, ``setup + marginal * ceil(n * wear)`` (``tools_for_run``), so three stones take the
    wooden pickaxe at hand and a thousand the diamond one. A tool held at the start has the front ``(m, -m)``
    (``_held_tool``): the one held costs nothing, each further one ``m``. The time of a use is the action's step,
    the same whatever tool is held. The price comes back as a per-run marginal of the long-run wear
    (``wear * m``: what one more use costs on average, and what a run beyond the counts priced extrapolates) and a
    setup holding the rest, ``s + m * (tools - n * wear)``, so that ``n * marginal + setup`` is the run's total.
    ``unit``: the units of the tool the need keeps (its count). Ties go to the first price.
    """
    best = (INF, INF, INF)
    tools = tools_for_run(runs, wear)
    for m_cost, s_cost in front:
        price = unit * m_cost
        total = s_cost + price * tools
        if total < best[0]:
            best = (total, wear * price, s_cost + price * (tools - runs * wear))
    return best


def _by_tools(members: tuple[tuple[int, float], ...], wears: tuple[float, ...],
              fronts: list[list[tuple[float, float]]]) -> tuple[tuple[float, float], ...] | None:
    """A kept need that wears: its best (marginal, setup) for each run count of ``_RUNS``, chosen by the run.

    The member and price least for ``k`` runs (``tool_run_price``; the first of equal ones); None when no member
    can be had.
    """
    found = []
    for k in _RUNS:
        best = (INF, INF, INF)
        for i, (m, amount) in enumerate(members):
            priced = tool_run_price(fronts[m], amount, wears[i], k)
            if priced[0] < best[0]:
                best = priced
        if best[0] == INF:
            return None
        found.append((best[1], best[2]))
    return tuple(found)


def _cost_at(front: list[tuple[float, float]], amount: float) -> float:
    return min((amount * m + s for m, s in front), default=INF)


# A way as the fixpoint prices it: per need, whether it is used up, its members (in order: the first of equally
# cheap ones wins) each with the amount one run takes, whether it is shared, the share of each member's durability
# a run wears (``Need.wears``; None: none wears) and whether it is held already (it adds its wear, not its price).
# The fixpoint prices each way some ten times, a fuel need's 250 members each time: read off the need once, not
# per member and price.
_PricedNeed = tuple[bool, tuple[tuple[int, float], ...], bool, tuple[float, ...] | None, bool]
_PricedWay = tuple[_PricedNeed, ...]
_PRICE_TABLES: dict[int, tuple[list[Any], list[Any]]] = {}
_SHARED_AT = 16
"""Needs of this many members or more (fuels) are shared: one tuple for equal ones, their best priced once."""
_SHARED: dict[tuple[tuple[int, float], ...], tuple[tuple[int, float], ...]] = {}


def _price_table(ways_of_action: list[Any]) -> list[Any]:
    """Per action, ``(its ways, their _PricedWay)`` once priced (None before): one table per ways list.

    The settles of one rules and of the models lowered from it share a table; the last few lists are kept, each
    with the list itself, so a table is never taken for another list that has the same id.
    """
    entry = _PRICE_TABLES.get(id(ways_of_action))
    if entry is None or entry[0] is not ways_of_action:
        if len(_PRICE_TABLES) >= 4:
            _PRICE_TABLES.pop(next(iter(_PRICE_TABLES)))
        entry = _PRICE_TABLES[id(ways_of_action)] = (ways_of_action, [None] * len(ways_of_action))
    return entry[1]


def _priced_way(way: tuple[Need, ...], held: Callable[[Need], bool] | None = None) -> _PricedWay:
    """A way's needs as ``_price`` reads them: per need, whether used up, its members with the units a run takes.

    ``held`` says which kept and presence needs are met now: they add no setup, and are left out unless they wear
    (a held sword still wears a share of itself each kill).
    """
    priced: list[_PricedNeed] = []
    for need in way:
        if need.restock:  # a villager offer's trades: the villager the way finds makes them (``Need.restock``)
            continue
        wears = need.wears or None
        is_held = held is not None and not need.consume and held(need)
        if is_held and wears is None:
            continue
        members = tuple(
            (m, (need.count if need.weights is None else need.count / need.weights[i]) if need.consume
             else float(need.count))  # a kept need is had once, all of its count (a villager's 250 experience)
            for i, m in enumerate(need.members))
        shared = len(members) >= _SHARED_AT and wears is None  # a wearing need's best carries its wear: not shared
        if shared:
            if len(_SHARED) > 10_000:  # a bound for a process that builds many rules (the tests)
                _SHARED.clear()
            members = _SHARED.setdefault(members, members)
        priced.append((need.consume, members, shared, wears, is_held))
    return tuple(priced)


def _price(way: _PricedWay, fronts: list[list[tuple[float, float]]], step: float,
           shared: dict[int, _Best]) -> tuple[tuple[float, float], ...]:
    """(marginal, setup) of one run of a priced way, for each run count of ``_RUNS`` its needs are bought for.

    For ``k`` runs a consumed need takes the member and price least for the units ``k`` runs use up (``k`` times
    one run's), and adds one run's share of it to the marginal; kept and presence needs are had once however many
    runs, so they add the least price of their count (one tool; a villager's 250 experience); a kept one that
    wears takes, for ``k`` runs, the member and price least for the tools ``k`` runs wear out (``_by_tools``,
    ``tool_run_price``): its long-run wear a run (``Need.wears`` of the price's marginal) and the rest of those
    tools as setup. One that is held now (``is_held``) adds its wear a run, not its price. Only the dearest setup
    counts. The first of the prices is one run's
    (``CostModel.way_prices``); a route with a high setup and a cheap marginal is priced at the counts it pays off
    at, so a consumer of many units sees it. A count's price that would cost less than one run's for one run is one
    run's instead: it undercuts it only because the model lets its needs' setups overlap (the dearest counts), which
    a one-off need does not live up to, and taken for one unit it led plans astray (six cooked meats from cows and
    pigs, a step more than from cows alone; a brick slab crafted from twelve bricks rather than cut from four).

    ``shared`` holds the best (``_Best``) of the shared needs priced since the fronts last changed, by their
    members' tuple: the same members at the same prices have the same best.
    """
    marginal = step
    setup = 0.0
    marginals: list[float] | None = None  # per run count, from the first need whose best differs between counts
    setups: list[float] = []
    for consume, members, is_shared, wears, is_held in way:
        if not consume and wears is not None and not is_held:
            # a tool that wears, made for the run: chosen by each count's own run (``tool_run_price``)
            by_tools = _by_tools(members, wears, fronts)
            if by_tools is None:
                return _NO_PRICES
            if marginals is None:
                marginals, setups = [marginal] * len(_RUNS), [setup] * len(_RUNS)
            marginals = [m + unit for m, (unit, _) in zip(marginals, by_tools, strict=True)]
            setups = [max(s, need_setup) for s, (_, need_setup) in zip(setups, by_tools, strict=True)]
            continue
        found = shared.get(id(members)) if is_shared else None
        wear = 0.0
        if found is not None:
            best, best_marginal, best_setup, by_runs = found
        else:
            best = best_marginal = best_setup = low = INF
            for i, (m, amount) in enumerate(members):
                for m_cost, s_cost in fronts[m]:
                    unit = amount * m_cost
                    total = unit + s_cost
                    if total < best:
                        best, best_marginal, best_setup = total, unit, s_cost
                        if wears is not None:
                            wear = wears[i] * unit
                    if unit < low:
                        low = unit
            # the best for one run is the best for any count unless some price has a smaller marginal
            by_runs = (_by_runs(members, fronts, best_marginal, best_setup)
                       if best_marginal > low and (consume or is_shared) else None)
            if is_shared:
                shared[id(members)] = (best, best_marginal, best_setup, by_runs)
        if best == INF:
            return _NO_PRICES
        if not consume:
            if is_held:  # met now: only its wear
                best = 0.0
            if marginals is None:
                marginal += wear
                if best > setup:
                    setup = best
            else:
                marginals = [m + wear for m in marginals]
                setups = [max(s, best) for s in setups]
        elif by_runs is None:
            if marginals is None:
                marginal += best_marginal
                if best_setup > setup:
                    setup = best_setup
            else:
                marginals = [m + best_marginal for m in marginals]
                setups = [max(s, best_setup) for s in setups]
        else:
            if marginals is None:
                marginals, setups = [marginal] * len(_RUNS), [setup] * len(_RUNS)
            marginals = [m + unit for m, (unit, _) in zip(marginals, by_runs, strict=True)]
            setups = [max(s, need_setup) for s, (_, need_setup) in zip(setups, by_runs, strict=True)]
    if marginals is None:
        return ((marginal, setup),) * len(_RUNS)
    one = (marginals[0], setups[0])
    return tuple(one if m + s < one[0] + one[1] else (m, s) for m, s in zip(marginals, setups, strict=True))


def _run_counts(rules: Rules, outputs: tuple[Output, ...]) -> tuple[float, ...]:
    """The run counts a way keeps its best prices for (``_offer``).

    Those of ``_RUNS``, and those that make each amount of ``_AMOUNTS`` of each output (a front's amounts, in
    runs, once each): what a way's output costs then reads the same off the way as off the front, up to the
    tolerance a front falls by to change (``_offer``).
    """
    return tuple(sorted({*_RUNS, *(amount / out.units(rules.n_items) for out in outputs for amount in _AMOUNTS)}))


def _by_runs(members: tuple[tuple[int, float], ...], fronts: list[list[tuple[float, float]]], unit: float,
             setup: float) -> tuple[tuple[float, float], ...]:
    """A need's best (one run's marginal, setup) for each run count ``k`` of ``_RUNS``, from its best for one run.

    At each count the best of the count before stays unless a price whose marginal is below one run's best costs
    less for ``k`` runs (``k * marginal + setup``; the first such in the members' order): no other can, as a
    price dearer for one run and no cheaper a run is dearer for any count.
    """
    cheaper = [(u, s) for m, amount in members for m_cost, s in fronts[m] if (u := amount * m_cost) < unit]
    found = [(unit, setup)]
    for k in _RUNS[1:]:
        best = k * unit + setup
        for u, s in cheaper:
            total = k * u + s
            if total < best:
                best, unit, setup = total, u, s
        found.append((unit, setup))
    return tuple(found)


def _offer(front: list[tuple[float, float]], prices: Iterable[tuple[float, float]],
           amounts: Sequence[float] = _AMOUNTS) -> bool:
    """Add prices to a front (a resource's, by units, or a way's, by runs); whether the front changed.

    The front keeps, for each of ``amounts``, the price that costs least for it, ties broken by the marginal then
    the setup, in (marginal, setup) order: what the front and the offered prices keep as a set, whatever order
    the offers come in. A front's cost at each of the amounts never rises, and it changes only when it falls at
    one of them by more than ``TOLERANCE`` of itself: a cycle that makes more than it uses (two smithing
    templates from one) lowers its price by a shrinking step each round, and would take dozens of rounds to
    reach the last bit.
    """
    kept = set(front)
    new = {p for p in prices if p[0] != INF and p not in kept}
    if not new:
        return False
    if front:
        least = [min(amount * m + s for m, s in front) for amount in amounts]
        if not any(amount * m + s < old - TOLERANCE * old for m, s in new
                   for amount, old in zip(amounts, least, strict=True)):
            return False
    pool = kept | new
    front[:] = sorted({min((amount * m + s, m, s) for m, s in pool)[1:] for amount in amounts})
    return True


def consumers_of(rules: Rules) -> list[list[int]]:
    """For each resource, the actions some need of which accepts it."""
    cached: list[list[int]] | None = getattr(rules, "_consumers", None)
    if cached is None:
        sets: list[set[int]] = [set() for _ in range(rules.n_resources)]
        for a, ways in enumerate(rules.ways):
            for way in ways:
                for need in way:
                    for m in need.members:
                        sets[m].add(a)
        cached = [sorted(s) for s in sets]
        rules._consumers = cached  # type: ignore[attr-defined]
    return cached




def initialization_resources(init: Initialization) -> list[Resource]:
    """Every resource an initialization mentions (items held, things present)."""
    out: list[Resource] = [("item", name) for name in init.inventory]
    out += [("item", name) for name in [init.main_hand, *init.equipment.values()] if name]
    out += [("block", name) for name in init.nearby_blocks]
    out += [("entity", s.entity) for s in init.summon]
    if init.biome:
        out.append(("biome", init.biome))
    if init.structure:
        out.append(("structure", init.structure))
    out.append(("dimension", init.dimension.value))
    return out


def places_from_knowledge(kn: Any) -> dict[Resource, tuple[str | None, str | None]]:
    """The biome and dimension a found thing implies, from the game knowledge (for event conditions)."""
    places: dict[Resource, tuple[str | None, str | None]] = {}
    for name, biome in kn.biomes.items():
        places[("biome", name)] = (name, biome.get("dimension"))
    for name, block in kn.natural_blocks.items():
        places[("block", name)] = (None, block.dimension)
    for name, held in getattr(kn, "structure_blocks", {}).items():
        dimensions = {kn.structures[s].dimension for s in held.structures}
        if len(dimensions) == 1:
            places[("block", name)] = (None, dimensions.pop())
    for name, mob in kn.mobs.items():
        if len(mob.dimensions) == 1:
            places[("entity", name)] = (None, mob.dimensions[0])
    for name, structure in kn.structures.items():
        places[("structure", name)] = (None, structure.dimension)
    return places


def _best_outputs(outcomes: list[tuple[Output, ...]]) -> tuple[Output, ...]:
    """One output per resource over all ways: the most a run can give (what estimates and producers read)."""
    if len(outcomes) == 1:
        return outcomes[0]
    best: dict[int, Output] = {}
    for outputs in outcomes:
        for out in outputs:
            old = best.get(out.resource)
            if old is None or (out.sure, out.most) > (old.sure, old.most):
                best[out.resource] = out
    return tuple(best.values())


def fuel_ticks_from_knowledge(kn: Any) -> dict[str, int]:
    """Burn ticks of every fuel (``fuels.yaml`` gives smelts per item; a smelt is 200 ticks)."""
    return {f.item: round(f.smelts * TICKS_PER_SMELT) for f in kn.fuels}


def fuel_remainders_from_knowledge(kn: Any) -> dict[str, str]:
    """The container each fuel leaves when it burns (``containers.yaml``: a lava bucket leaves its bucket)."""
    table = kn.mechanisms.containers if getattr(kn, "mechanisms", None) is not None else None
    if table is None:
        return {}
    return {f.item: back for f in kn.fuels if (back := table.remainder(f.item)) is not None}


def finite_from_knowledge(kn: Any) -> dict[Resource, int]:
    """Finite sources with how many one find gives: mobs that never respawn (``mobs.yaml``), structures' chests."""
    finite: dict[Resource, int] = {("entity", name): mob.finite for name, mob in sorted(kn.mobs.items())
                                   if getattr(mob, "finite", None)}
    finite.update({("structure", name): s.chests for name, s in sorted(kn.structures.items())
                   if getattr(s, "chests", None)})
    return finite


def chest_kinds_from_knowledge(kn: Any) -> dict[tuple[Resource, str], tuple[int, float]]:
    """Further kinds of a structure's chests (``structure_loot.yaml``'s ``chest``).

    (structure, kind) -> (the chests one holds, the share of the structures holding the kind).
    """
    mechanisms = getattr(kn, "mechanisms", None)
    if mechanisms is None:
        return {}
    return {(("structure", t.structure), str(t.chest)): (int(t.chests), float(t.share))
            for t in mechanisms.structure_loot.kinds()}


def _kind_counter(structure: Resource, chest: str) -> str:
    """The internal item counting a further kind's chests left: ``left:stronghold.library``."""
    return f"{LEFT_PREFIX}{structure[1]}.{chest}"


def stocks_from_knowledge(kn: Any) -> dict[tuple[str, ...], tuple[str, str, int]]:
    """Villager offers that lock after their ``uses`` (``trades.yaml``), for ``Rules``' ``stocks``.

    (``trade.<item>`` or ``sell.<item>``, job site) -> ("villager", profession, uses).
    """
    mechanisms = getattr(kn, "mechanisms", None)
    if mechanisms is None:
        return {}
    out: dict[tuple[str, ...], tuple[str, str, int]] = {}
    for prof in mechanisms.trading.professions:
        for trade in prof.sells:
            for item in trade.goods:
                out[(f"trade.{item}", prof.job_site)] = ("villager", prof.profession, trade.uses)
        for buy in prof.buys:
            out[(f"sell.{buy.item}", prof.job_site)] = ("villager", prof.profession, buy.uses)
    return out


def _stock_counter(profession: str, atom: str, site: str = "", *items: str) -> str:
    """The internal item counting the trades an offer has left: ``stock:librarian:trade.bookshelf``.

    An offer told apart from others of its atom at its job site by further items (``stocks``' longer keys) names
    them: ``stock:farmer:use.minecraft:villager.minecraft:emerald:minecraft:wheat``.
    """
    return f"{STOCK_PREFIX}{profession}:{atom}" + "".join(f":{item}" for item in items)


def spent_by_from_knowledge(kn: Any) -> dict[Resource, list[str]]:
    """The verbs that use up one of a finite mob besides killing it (``mobs.yaml``'s ``spent_by``)."""
    return {("entity", name): list(mob.spent_by) for name, mob in sorted(kn.mobs.items())
            if getattr(mob, "spent_by", None)}


def durability_from_knowledge(kn: Any) -> dict[str, int]:
    """Durability of every item that has one (minecraft-data's ``maxDurability``)."""
    return {name: int(item["durability"]) for name, item in kn.items.items() if item.get("durability")}

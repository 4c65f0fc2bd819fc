"""The engine game's world model: its registry read as atom tasks and built into the one ``world.rules.Rules``.

The scripted player plans with the one planner (:mod:`taskverse.world.search`) over the model of the game it
plays. The text world's rules are built from the library's atoms (``Rules.for_library``); an engine game's are
built by the same class from atoms this module writes, in the library's format (:class:`taskverse.schema.AtomTask`),
from what the game registers (``engine/games/<game>/registry.json``), its name mapping (``mapping.yaml``), its
settings (``game.yaml``) and where its map generator puts things. Names are the game's (``default:tree``). Every
atom is one thing the harness can play (:mod:`taskverse.engine.harness`):

====================  ==========================================================  ===============================
atom                  needs                                                       yields
====================  ==========================================================  ===============================
``find.<node>``       nothing (the harness travels to it); another dimension's    the node, found
                      node: being in that dimension
``find.<biome>``      nothing (another dimension's: being in it)                  the biome
``find.<entity>``     the entity (summoned at the start); a mob Minecraft         the mob, for a spawned one
                      spawns: being in a dimension it spawns in                   (the harness's ``spawn``)
``mine.<node>``       the node (found, placed or near the start), a tool that     its drops, chance lines as
                      digs it unless the hand does (a tool with drops of its     chances; a use of the tool
                      own, shears: ``mine.<node>.<tool>``)                       that dug it
``craft.<item>``      one way per recipe: its cells (``group:`` any member)       the recipe's count
``craft.<item>.cut``  per stonecutter recipe: one input item; the stonecutter     the recipe's count
                      (standing near the player, or held), in taskverse_mc
``craft.<i>.anvil``   a rename or combine: the item (and an enchanted book); an   the named or enchanted item
                      anvil (standing near the player, or held), in taskverse_mc  ``<i>``
``use.<item>.repair`` the item (kept) and a unit of its material, or two of it;   one of it (two given)
                      an anvil (near, or held); event: the anvil used holding it
``smelt.<item>``      per cooking recipe: the input, fuel for one cooking, a      the output
                      furnace (held, or standing near the player)
``place.<item>``      the item (a cart or boat also something to stand on)        its node (seeds: their crop;
                                                                                  a cart: the entity)
``place.<item>.<b>``  the item (and the block it goes into, a cake...)            its other form ``<b>``
``eat.<item>``        the item, eaten (items with ``on_use``)                     nothing
``equip.<item>``      the item, held                                              nothing
``use.<item>``        the item, held (items with a use callback); a bow also an   nothing
                      arrow, used up (taskverse_mc: it is used when it shoots)
``use.<tool>.dig``    a generated node the tool digs (found), the tool (kept)     nothing; the tool's use
``use.<t>.enchant``   a pickaxe, 3 lapis lazuli; kept: an enchanting table, 15    its Silk Touch tool ``<t>``
                      bookshelves, a grindstone (taskverse_mc)                    with the knowledge's chance,
                                                                                  else the pickaxe back
``mine.<n>.<t>``      as ``mine.<node>``, a Silk Touch tool ``<t>`` kept (one     the Silk Touch drops
                      that cannot dig it digs it as the hand does)
``use.<nest>.<item>`` a generated (full) bee nest, shears (kept) or a glass        3 honeycomb, a honey bottle
                      bottle (used up), in taskverse_mc
``use.<villager>.<i>`` a villager (met), its profession's job site (kept,         the item (an emerald for
                      placed beside it), the price (emeralds and more), the villager     what it buys) and the trade's
                      raised to the offer's level (``xp:<profession>``, kept),    experience
                      one of the offer's trades (a villager met gives its uses),
                      in taskverse_mc
``use.<trader>.<i>``  a wandering trader (met), the emeralds, in taskverse_mc     the item, with the chance a
                                                                                  trader has the offer
``kill.<mob>``        the mob (summoned or spawned); a spawned one, the combat    its loot (1 in 10 or likelier);
                      table's gear                                                a use of the weapon
``use.<mob>.<food>``  the animal (summoned or spawned), the food (used up); held:    its container (an axolotl's
                      the food (taskverse_mc: ``breeding.yaml``'s foods)          bucket; the game: fed, in love,
                                                                                  a baby, tamed by chance)
``use.<mob>.lay``     the animal (summoned or spawned), waited beside until it    the item (event: ``obtain``)
                      lays (taskverse_mc: ``husbandry.yaml``'s laying: an egg)
``interact.<x>``      the node or entity (``interact.death``: nothing)            nothing
``reach.<x>``         a walkable node to stand on, or nothing (a measure)         nothing
``build.<shape>``     its cells' worth of placeable blocks                        nothing
``enter.<dim>``       obsidian and flint and steel (a nether portal); the End:    the dimension
                      12 eyes of ender and a stronghold found (taskverse_mc)
``use.<filled>.fill`` the container and the block it is filled at (a glass        the filled item (a water
                      bottle, water; taskverse_mc)                                bottle: ``minecraft:potion``)
``brew.<potion>``     per recipe: the base potion, the ingredient, a blaze        the potion
                      powder (burnt), a brewing stand (held or standing near)
``find.<marker>``     nothing: a structure's marker node (taskverse_mc's stand-   the marker, found (the event:
                      ins, ``minecraft:structure_<name>``), travelled to          ``find <structure>``)
``interact.<marker>`` the structure found: its chest opened (taskverse_mc); a      its loot table's items, with
                      chest of a further kind beside it (``<marker>_<kind>``,     their chances (the kind's
                      a stronghold's library): that chest found                   table)
``use.<marker>.brush``  the structure found, a brush (kept): its suspicious         the archaeology table's items,
                      block brushed (taskverse_mc)                                with their chances
====================  ==========================================================  ===============================

Each atom's success event is the event the runtime logs for that action, in game names; a task's goals are
translated to game names to plan it (:mod:`taskverse.engine.planner`).

A tool doing its work is used, as Minecraft's ``used`` statistic counts it and the runtime logs it: a node dug
with a tool whose capabilities dig it, a mob killed with a weapon in hand (``Rules``'s ``tools``); so
``use.<tool>`` is one dig or one kill with it.

What the model leaves out, and why: tools do not wear (the harness digs at most a few dozen nodes a plan, well within a
tool's uses, and a use is counted whether or not the model wears the tool); fuel burns per cooking and what is left in
the furnace is not counted (the harness fills the furnace for every ``cook`` step, and a furnace's fuel goes on burning
while nothing cooks); items that only a mob drops come from the mobs a task's start summons or, in taskverse_mc, that
the scripted player spawns where Minecraft spawns them (a stand-in: the game spawns none), drops rarer than 1 in 10 left
out; a crafting grid needs no table (the harness crafts on the player's 3x3 grid).

Why taskverse_mc reads its registry too, though it is generated from the same knowledge as the library: the
game is not Minecraft. Its drops turn count ranges into rarities, its only enchantment is Silk Touch on pickaxes
(no experience), its tool tiers are dig groups and levels, it crafts without a table, cooks with fuel in seconds,
generates only what a flat world with layers holds and stand-ins of structures (a marker node, its chest), and
gives items few uses (eating, seeds, portals, stripping, enchanting). The library's rules would plan what the game
cannot do (loot from a village, a crafting table's step); the registry says what it does.

Example:
    >>> model = game_model("minetest_game")
    >>> type(model.rules).__name__, model.rules.actions[model.rules.producers[model.item("default:stick")][0]]
    ('Rules', 'craft.default:stick')

"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache, cached_property
from typing import Any

from taskverse.engine.compiler import BUILD_SHAPES, REACH_MEASURES, USE_CALLBACKS, mob_loot, stand_in_nodes
from taskverse.engine.gamegen.build import GENERATED_GAMES
from taskverse.engine.gamegen.content import END_PORTAL_FRAMES, structure_node
from taskverse.engine.gamegen.content import animals as content_animals
from taskverse.engine.gamegen.content import anvil as content_anvil
from taskverse.engine.gamegen.content import brewing as content_brewing
from taskverse.engine.gamegen.content import changes as content_changes
from taskverse.engine.gamegen.content import enchanting as content_enchanting
from taskverse.engine.gamegen.content import fills as content_fills
from taskverse.engine.gamegen.content import hand_uses as content_hand_uses
from taskverse.engine.gamegen.content import honey as content_honey
from taskverse.engine.gamegen.content import laying as content_laying
from taskverse.engine.gamegen.content import milking as content_milking
from taskverse.engine.gamegen.content import portal_room as content_portal_room
from taskverse.engine.gamegen.content import stonecutting as content_stonecutting
from taskverse.engine.gamegen.content import storing as content_storing
from taskverse.engine.gamegen.content import stripping as content_stripping
from taskverse.engine.gamegen.content import tool_uses as content_tool_uses
from taskverse.engine.gamegen.content import trading as content_trading
from taskverse.engine.gamegen.content import variants as content_variants
from taskverse.engine.ir import shape_cells
from taskverse.engine.profile import (
    GameMapping,
    GameSettings,
    Registry,
    ToolCapabilities,
    load_game_settings,
    load_mapping,
    load_registry,
    profile_dir,
)
from taskverse.errors import TaskverseError
from taskverse.library.combat import fight_needs
from taskverse.schema import AtomTask, Category, Goal, Metrics, Need, ResourceKind, WaySpec, Yield, villager_xp
from taskverse.world.rules import Rules

HAND = ""
#: Where the flat test world's ground is (map generator settings in taskverse.engine.ir.MAPGEN).
GROUND_Y = 8
#: Nodes no player holds or places.
NOT_BLOCKS = frozenset({"", "air", "ignore"})
#: A fuel that burns for less than a cooking's time over this many items is left out of the fuels of that cooking.
MOST_FUEL_ITEMS = 8
#: A mob's drop rarer than this a kill is left out of its loot: a plan must not hang on luck, and the harness kills
#: at most 40 mobs for each item a chance drop is wanted for (a zombie's iron ingot, 1 in 120, would be hundreds).
MIN_LOOT_CHANCE = 0.1
#: The value a measured ``reach`` action reports: the harness moves as far as the goal asks.
REACH_ANY = 1_000_000.0

CATEGORIES = {
    "find": Category.NAVIGATION, "reach": Category.NAVIGATION, "enter": Category.NAVIGATION,
    "mine": Category.MINING, "craft": Category.CRAFTING, "smelt": Category.CRAFTING,
    "place": Category.BUILDING, "build": Category.BUILDING, "kill": Category.COMBAT,
    "brew": Category.CRAFTING, "eat": Category.MISC, "equip": Category.MISC, "use": Category.MISC,
    "interact": Category.MISC, "store": Category.EXPLOITATION,
}


@dataclass
class Place:
    """Where a generated node is: biomes to travel to first, and a height to search around."""

    biomes: tuple[str, ...] = ()
    y: float | None = None
    dimension: str | None = None
    """Another dimension whose layer it is in (taskverse_mc's Nether and End); None: the overworld."""


@dataclass(frozen=True)
class Act:
    """What one atom of the model does in the engine: its verb, what it acts on, and what that is.

    ``kind`` is ``item``, ``block``, ``biome``, ``entity``, ``measure``, ``shape``, ``dimension`` or ``death``;
    ``makes`` is what a ``place`` puts into the world (a crop for seeds, an entity for a cart).
    """

    verb: str
    kind: str
    name: str
    makes: str = ""
    wall: bool = False
    """A place against a wall (the item's wall form)."""
    into: str = ""
    """A place onto a block that becomes what it makes (a candle onto a cake)."""
    beside: str = ""
    """A change: the block placed beside this one (concrete powder beside water)."""
    seconds: float = 0.0
    """A change: how long it takes once placed."""
    using: str = ""
    """A fill: the container used on the block (a glass bottle on water); a brew: the stand's fuel."""
    biomes: tuple[str, ...] = ()
    """A brush: the biomes of the structures that hold the block (warm ocean ruins; empty: all of them)."""


@dataclass
class _Atoms:
    """Atoms being written, with what each does."""

    tasks: list[AtomTask] = field(default_factory=list)
    acts: dict[str, Act] = field(default_factory=dict)
    stocks: dict[tuple[str, ...], tuple[str, str, int]] = field(default_factory=dict)
    """Villager offers that lock after their uses, as ``Rules``' ``stocks``: (atom, job site, price items) -> (the
    villager, its profession, the trades one makes)."""

    def add(self, act: Act, ways: list[tuple[list[Need], list[Yield]]] | None = None,
            target: str | None = None, value: float | None = None, suffix: str = "", using: str | None = None) -> None:
        """Add the atom ``<verb>.<name>[.<suffix>]`` with its ways (each its needs and yields; None: none).

        ``using``: the item its success event is done holding (a food used on an animal, a bottle on water).
        """
        atom_id = f"{act.verb}.{act.name}" + (f".{suffix}" if suffix else "")
        if atom_id in self.acts:
            raise TaskverseError(f"two atoms of the game model are both {atom_id!r}: {self.acts[atom_id]} and {act}")
        requires: list[Any] | None = None
        yields: list[Yield] = []
        if ways:
            if all(y == ways[0][1] for _, y in ways):
                requires, yields = [needs for needs, _ in ways], ways[0][1]
            else:
                requires = [WaySpec(needs=needs, yields=y) for needs, y in ways]
            if requires == [[]]:
                requires = None
        # a brew's success: the potion taken from the stand; a lay's: the item the animal laid, picked up
        event = "obtain" if act.verb == "brew" or act.kind == "lay" else act.verb
        goal = Goal(event=event, target=target or act.name, value=value, using=using)  # type: ignore[arg-type]
        self.tasks.append(AtomTask(id=atom_id, description=f"{act.verb} {target or act.name}",
                                   category=CATEGORIES[act.verb], verb=act.verb, requires=requires, yields=yields,
                                   metrics=Metrics(success=goal)))
        self.acts[atom_id] = act


def _need(kind: str, names: Iterable[str], count: int = 1, kept: bool = False, held: bool = False) -> Need:
    """A need; ``held``: an item kept in hand and not used (equipped, shown), not a tool or a station."""
    return Need(kind=ResourceKind(kind), any_of=sorted(set(names)), count=count, kept=kept or held,
                uses=0 if held else 1)


class GameModel:
    """One engine game as the one planner sees it: its atoms, built into :class:`Rules`, and where things are.

    Args:
        game: The game (a profile under ``engine/games/``).
        kn: The game knowledge (mob loot and seed placements, which the game's mobs and seeds follow).

    """

    def __init__(self, game: str, kn: Any) -> None:
        self.game = game
        self.kn = kn
        self.registry: Registry = load_registry(game)
        self.settings: GameSettings = load_game_settings(game)
        self.mapping: GameMapping = load_mapping(game)
        self.items = self.registry.items
        hand = self.items.get(HAND)
        self.hand: ToolCapabilities | None = hand.tool_capabilities if hand is not None else None
        atoms = self._atoms()
        self.atoms: list[AtomTask] = atoms.tasks
        self.acts: dict[str, Act] = atoms.acts
        self.rules = Rules(self.atoms, extra_items=[n for n in self.items if n not in NOT_BLOCKS],
                           tools=self.tools[1:], stocks=atoms.stocks)

    def __getstate__(self) -> dict[str, Any]:
        """What a cached model keeps: everything but the knowledge (``game_model`` gives it back)."""
        return {k: v for k, v in self.__dict__.items() if k != "kn"}

    def item(self, name: str) -> int:
        """The resource index of a game item."""
        return self.rules.resource("item", name)

    def act(self, action: int) -> Act:
        """What action ``action`` of the rules does."""
        return self.acts[self.rules.actions[action]]

    # --- the atoms ------------------------------------------------------------------------------------------

    def _atoms(self) -> _Atoms:
        out = _Atoms()
        self._finds(out)
        self._mines(out)
        self._crafts(out)
        self._cuts(out)
        self._anvils(out)
        self._smelts(out)
        self._places(out)
        # a pickaxe's right-click is the enchanting (``use.<silk tool>.enchant``): on anything else it does
        # nothing (its use by digging is the mine atoms')
        enchanted_by = {t["tool"] for t in self.enchanting["tools"]} if self.enchanting else set()
        ammo = self._ammo()
        for name, item in sorted(self.items.items()):
            if name in NOT_BLOCKS or item.type == "none":
                continue
            block, item_need = item.type == "node", [_need("item", [name], held=True)]
            out.add(Act("equip", "item", name), [(item_need, [])])
            if "on_use" in item.callbacks:
                out.add(Act("eat", "item", name), [([_need("item", [name])], [])])
            if set(item.callbacks) & USE_CALLBACKS and name not in enchanted_by:
                shot = [_need("item", ammo[name])] if name in ammo else []  # a bow is used when it shoots
                out.add(Act("use", "item", name), [([*item_need, *shot], [])])
            if block and name not in self.chests:
                out.add(Act("interact", "block", name), [([_need("block", [name])], [])])
                if item.walkable is not False:
                    out.add(Act("reach", "block", name), [([_need("block", [name])], [])])
        out.add(Act("interact", "death", "death"))
        for measure in REACH_MEASURES:
            out.add(Act("reach", "measure", measure), value=REACH_ANY)
        self._entities(out)
        self._feeds(out)
        self._trades(out)
        blocks = sorted(n for n, i in self.items.items() if i.type == "node" and n not in NOT_BLOCKS)
        for shape, spec in sorted(BUILD_SHAPES.items()):
            cells = len(shape_cells(spec["shape"], spec["length"], spec.get("width", 1), spec.get("height", 1)))
            out.add(Act("build", "shape", shape), [([_need("item", blocks, cells)], [])])
        self._portals(out)
        self._loots(out)
        return out

    @cached_property
    def structures(self) -> dict[str, str]:
        """Game marker node -> the Minecraft structure it stands for (taskverse_mc's, looted ones too).

        A chest of a further kind beside the marker (:attr:`chest_kinds`) stands for its structure too.
        """
        out = {}
        kinds: dict[str, list[str | None]] = {}
        for table in self._loot_kinds():
            kinds.setdefault(table.structure, []).append(table.chest)
        for name in sorted(self.kn.structures):
            for chest in [None, *kinds.get(name, [])]:
                for looted in (False, True):
                    node = structure_node(name, looted, chest)
                    if node in self.items and self.items[node].type == "node":
                        out[node] = name
        return out

    @cached_property
    def chest_kinds(self) -> dict[str, str]:
        """A structure's chest of a further kind (looted ones too) -> its kind (``library``); the marker is none.

        Opening one is the runtime's ``interact`` with the structure whose event names the kind, as the library's
        ``loot.<structure>.<kind>`` goal does (:func:`taskverse.engine.gamegen.content.structures`).
        """
        out = {}
        for table in self._loot_kinds():
            for looted in (False, True):
                node = structure_node(table.structure, looted, table.chest)
                if node in self.structures:
                    out[node] = str(table.chest)
        return out

    def _loot_kinds(self) -> list[Any]:
        """The knowledge's further kinds of a structure's chest (``structure_loot.yaml``'s ``chest``)."""
        return self.kn.mechanisms.structure_loot.kinds() if self.kn.mechanisms is not None else []

    @cached_property
    def chests(self) -> dict[str, list[Yield]]:
        """A structure's loot chest -> what opening it gives (the loot table's chances).

        The library's ``loot.<structure>`` in game names: each entry of a pool the knowledge lists, ``count`` to
        ``max`` items, with the chance rolls x weight / total weight (sure at one or more), and what the structure
        holds outside its chests with its share. The marker is the chest of the structure's main kind; a chest of
        a further kind beside it (``loot.<structure>.<kind>``) draws its own table. Only a chest the map generates
        (``find.<node>``).
        """
        mechanisms = self.kn.mechanisms
        if mechanisms is None:
            return {}
        out: dict[str, list[Yield]] = {}
        for table in mechanisms.structure_loot.tables:
            node = structure_node(table.structure, chest=table.chest)
            if table.verb != "loot" or node not in self.structures or node not in self.places:
                continue
            yields = []
            for pool in table.pools:
                for entry in pool.entries:
                    item = self._game(entry.item, "item")
                    chance = pool.chance(entry)
                    if item:
                        yields.append(Yield(name=item, count=entry.count,
                                            max=entry.max if entry.max not in (None, entry.count) else None,
                                            chance=min(1.0, chance)))
            for held in table.held:  # what the structure holds outside its chest, given with it (an elytra)
                item = self._game(held.item, "item")
                if item:
                    yields.append(Yield(name=item, chance=held.chance))
            out[node] = yields
        return out

    def _loots(self, out: _Atoms) -> None:
        """A structure's chest opened (``interact.<marker>``): the structure found, its loot table's items.

        The event is the runtime's ``interact`` with the marker, which a task names by the structure (the
        library's ``loot.<structure>``), or with a chest of a further kind, whose event names the kind too
        (``loot.<structure>.<kind>``). The generated game draws the table when the chest is first opened
        (:func:`taskverse.engine.gamegen.content.structures`); another chest of the kind is another structure's.
        """
        for node, yields in sorted(self.chests.items()):
            out.add(Act("interact", "loot", node), [([_need("block", [node])], yields)])
        self._brushes(out)

    def _brushes(self, out: _Atoms) -> None:
        """A structure's suspicious block brushed (``use.<marker>.brush``): the structure found, a brush (kept).

        The library's ``brush.<structure>`` in game names, with the archaeology table's chances; the event is the
        runtime's ``use`` of the block with the brush. The generated game puts the block beside the marker, of
        those in the table's biomes where it names some (warm ocean ruins: :func:`taskverse.engine.gamegen.content.
        structures`), which the player travels to.
        """
        mechanisms = self.kn.mechanisms
        if mechanisms is None or self.game not in GENERATED_GAMES:
            return
        for table in mechanisms.structure_loot.tables:
            node = structure_node(table.structure)
            block = self._game(table.block or "", "block")
            tools = [t for need in table.needs if need.kind == ResourceKind.ITEM
                     for t in (self._game(n, "item") for n in need.any_of) if t]
            only = {b for n in table.needs if n.kind == ResourceKind.BIOME for b in n.any_of}
            biomes = tuple(b for b in self.places[node].biomes if b in only) if node in self.places else ()
            if table.verb != "brush" or not block or not tools or node not in self.places or (only and not biomes) \
                    or "on_place" not in self.items[tools[0]].callbacks:
                continue
            yields = [Yield(name=item, count=entry.count,
                            max=entry.max if entry.max not in (None, entry.count) else None,
                            chance=min(1.0, pool.chance(entry)))
                      for pool in table.pools for entry in pool.entries if (item := self._game(entry.item, "item"))]
            out.add(Act("use", "brush", node, makes=block, using=tools[0], biomes=biomes),
                    [([_need("block", [node]), _need("item", tools[:1], kept=True)], yields)],
                    target=block, using=tools[0], suffix="brush")

    def _finds(self, out: _Atoms) -> None:
        """What the map generates is found by going there; another dimension's things, once in that dimension.

        A node only structures' stand-ins hold (a village's bed, an igloo's furnace) is found and yields nothing,
        as the library's finds of such blocks: a structure holds a few, not a vein to dig again and again.
        """
        held = self.structure_held
        for node, place in sorted(self.places.items()):
            if node in self.items:
                there = [_need("dimension", [place.dimension])] if place.dimension else []
                found = [] if node in held else [Yield(kind=ResourceKind.BLOCK, name=node)]
                out.add(Act("find", "block", node), [(there, found)])
        for biome in sorted(self.registry.biomes):
            layer = self.layer_of(self.registry.biomes[biome].y_min)
            if self.at_ground(biome) or layer is not None or self.underground(biome):
                there = [_need("dimension", [layer])] if layer else []
                out.add(Act("find", "biome", biome), [(there, [Yield(kind=ResourceKind.BIOME, name=biome)])])

    def _mines(self, out: _Atoms) -> None:
        for node, item in sorted(self.items.items()):
            if item.type != "node" or node in NOT_BLOCKS:
                continue
            by_yields: dict[tuple[Yield, ...], list[str]] = {}
            by_hand = tuple(self.drop_yields(node, HAND)) if self.digs(node, HAND) else None
            for tool in self.tools:
                digs = self.digs(node, tool)
                if not digs and by_hand is None:
                    continue
                drops = tuple(self.drop_yields(node, tool))
                # a tool that cannot dig it digs it as the hand does (the client's fallback), but the drops are
                # the tool's: a Silk Touch pickaxe digs a sculk sensor at the hand's speed and gets the sensor
                if digs or drops != by_hand:
                    by_yields.setdefault(drops, []).append(tool)
            # A tool with drops of its own (shears on grass) is an atom of its own, ``mine.<node>.<tool>``: one
            # action, one outcome, as the planner weighs them (a way chosen by what is held would hide the other).
            groups = sorted(by_yields.items(), key=lambda kv: (HAND not in kv[1], kv[1]))
            for n, (drops, tools) in enumerate(groups):
                needs = [_need("block", [node])]
                if HAND in tools:
                    ways = [(needs, list(drops))]
                else:  # a tool that digs it is used (the runtime logs a use); one that cannot is only held
                    digging = [t for t in tools if self.digs(node, t)]
                    idle = [t for t in tools if t not in digging]
                    ways = [([*needs, _need("item", group, kept=True, held=group is idle)], list(drops))
                            for group in (digging, idle) if group]
                out.add(Act("mine", "block", node), ways, suffix=tools[0] if n else "")
        self._tool_digs(out)

    def _tool_digs(self, out: _Atoms) -> None:
        """A node dug with a tool in hand (``use.<tool>.dig``): a use of that tool, as the library's ``use.<tool>``.

        Any generated node the tool digs by its own capabilities (found where the map has it), the tool kept; its
        event is the tool's use. The mine atoms use the tool too, but the first of their tools the player holds
        (as the rules use the cheapest that does the work), so a use of one named tool is an atom of its own, as
        the library's tiered tools have it; the drops are left out, as the library leaves them out.
        """
        generated = [n for n in sorted(self.places) if n in self.items and self.items[n].type == "node"
                     and n not in self.structure_held]
        for tool in self.tools[1:]:
            nodes = [n for n in generated if self.digs(n, tool)]
            if nodes:
                out.add(Act("use", "dig", tool), [([_need("block", nodes), _need("item", [tool], kept=True)], [])],
                        suffix="dig")

    def _crafts(self, out: _Atoms) -> None:
        ways: dict[str, list[tuple[list[Need], list[Yield]]]] = {}
        for recipe in self.registry.recipes:
            if recipe.method != "normal" or recipe.output not in self.items:
                continue
            cells = Counter(c for c in recipe.items if c)
            members = {cell: self.members(cell) for cell in cells}
            if not cells or not all(members.values()) or _overlap(list(members.values())):
                continue  # a cell nothing fills, or two cells one item fills (one unit cannot be spent twice)
            needs = [_need("item", members[cell], count) for cell, count in sorted(cells.items())]
            way = (needs, [Yield(name=recipe.output, count=recipe.count)])
            if way not in ways.setdefault(recipe.output, []):
                ways[recipe.output].append(way)
        for output, found in sorted(ways.items()):
            # the recipe giving most first: a player holding a log and a bush stem makes planks of the log
            out.add(Act("craft", "item", output), sorted(_merge_ways(found), key=lambda way: -way[1][0].count))

    def _smelts(self, out: _Atoms) -> None:
        furnace = self.settings.furnace
        ways: dict[str, list[tuple[list[Need], list[Yield]]]] = {}
        for recipe in self.registry.recipes:
            if recipe.method != "cooking" or not recipe.items or recipe.output not in self.items:
                continue
            inputs = self.members(recipe.items[0])
            cooktime = float(recipe.cooktime or 3)
            # Fuel for one cooking: k items of any fuel that burns at least cooktime / k seconds.
            by_count: dict[int, list[str]] = {}
            for fuel, burn in sorted(self.registry.fuels.items()):
                k = math.ceil(cooktime / float(burn.burntime)) if burn.burntime > 0 else 0
                if 0 < k <= MOST_FUEL_ITEMS and fuel in self.items and fuel not in inputs:
                    by_count.setdefault(k, []).append(fuel)
            made = [Yield(name=recipe.output, count=recipe.count)]
            for k, fuels in sorted(by_count.items()):
                for station in (_need("block", [furnace]), _need("item", [furnace], kept=True)):
                    way = ([_need("item", inputs), _need("item", fuels, k), station], made)
                    if way not in ways.setdefault(recipe.output, []):
                        ways[recipe.output].append(way)
        for output, found in sorted(ways.items()):
            out.add(Act("smelt", "item", output), found)

    def _places(self, out: _Atoms) -> None:
        # Seeds make crops (what the game's on_place does, from the knowledge's placements; a seed may be a node
        # itself, as minetest_game's are). A placement whose block the game has no name for is logged by the
        # runtime under the item's placement (TaskIR.place_as): the atom's target is then the item.
        seeds: dict[str, str] = {}
        for placement in self.kn.placements:
            seed, crop = self.mapping.lookup(placement.item), self.mapping.lookup(placement.block, "block")
            if seed is None or seed.to is None or seed.to not in self.items:
                continue
            if crop is not None and crop.to == seed.to:
                continue  # the item places itself
            seeds.setdefault(seed.to, crop.to if crop is not None and crop.to in self.items else "")
        for name, item in sorted(self.items.items()):
            if item.type == "node" and name not in NOT_BLOCKS and name not in seeds:
                out.add(Act("place", "item", name, makes=name),
                        [([_need("item", [name])], [Yield(kind=ResourceKind.BLOCK, name=name)])])
        for item_name, block_name in sorted(seeds.items()):
            made = [Yield(kind=ResourceKind.BLOCK, name=block_name)] if block_name else []
            out.add(Act("place", "item", item_name, makes=block_name), [([_need("item", [item_name])], made)],
                    target=block_name or item_name)
        self._variants(out)
        self._changes(out)
        self._strips(out)
        self._fills(out)
        self._brews(out)
        self._tool_uses(out)
        self._enchants(out)
        self._harvests(out)
        self._stores(out)
        supports = [n for n in self.settings.supports if n in self.items]
        for name in sorted(self.registry.entities):
            if name in self.items and self.items[name].type != "node" and supports:  # a cart on a rail
                out.add(Act("place", "entity", name, makes=name),
                        [([_need("item", [name]), _need("block", supports)],
                          [Yield(kind=ResourceKind.ENTITY, name=name)])])

    def _variants(self, out: _Atoms) -> None:
        """An item placed in another form (``place.<item>.<block>``): on a wall, or into a block that becomes it.

        Where the game places it so (the item has an ``on_place``; taskverse_mc's follow the knowledge's block
        variants and potted plants: :func:`taskverse.engine.gamegen.content.variants`).
        """
        for variant in content_variants(self.kn):
            item, block = self._game(variant["item"], "item"), self._game(variant["block"], "block")
            into = self._game(variant["into"], "block") if "into" in variant else ""
            if not item or not block or item == block or "on_place" not in self.items[item].callbacks or \
                    ("into" in variant and not into):
                continue
            needs = [_need("item", [item]), *([_need("block", [into])] if into else [])]
            made = [Yield(kind=ResourceKind.BLOCK, name=block)]
            made += [Yield(name=r) for r in (self._game(n, "item") for n in variant["returns"]) if r]
            out.add(Act("place", "item", item, makes=block, wall="wall" in variant, into=into), [(needs, made)],
                    target=block, suffix=block)

    def _changes(self, out: _Atoms) -> None:
        """Blocks that change by themselves once placed (``find.<new block>.<verb>``), seen when they have changed.

        The item placed (beside the water it needs), as the generated game runs them
        (:func:`taskverse.engine.gamegen.content.changes`: concrete powder hardening, coral drying).
        """
        if self.game not in GENERATED_GAMES:
            return  # only the generated games run them (from the same table)
        water = self._game("minecraft:water", "block")
        for change in content_changes(self.kn):
            block, becomes = self._game(change["block"], "block"), self._game(change["becomes"], "block")
            item = self._game(change["item"], "item") if change["item"] else ""
            if not block or not becomes or not item:
                continue
            beside = water if change["water"] == "touching" else ""
            if change["water"] == "touching" and not water:
                continue
            needs = [_need("item", [item]), *([_need("block", [beside])] if beside else [])]
            out.add(Act("find", "change", becomes, makes=item, wall=item != block, beside=beside,
                        seconds=float(change["seconds"])),
                    [(needs, [Yield(kind=ResourceKind.BLOCK, name=becomes)])], suffix=change["verb"])

    def _strips(self, out: _Atoms) -> None:
        """An axe used on a log strips it (``use.<stripped>.strip``): a log placed, then stripped with any axe (kept).

        As the library's ``strip`` atoms: one log for one stripped log, which is counted (and used up when mined).

        The generated game runs it from ``stripping.yaml`` (:func:`taskverse.engine.gamegen.content.stripping`).
        """
        if self.game not in GENERATED_GAMES:
            return
        table = content_stripping(self.kn)
        axes = [a for a in (self._game(t, "item") for t in table["tools"]) if a]
        for log_name, stripped_name in table["pairs"].items():
            log, stripped = self._game(log_name, "block"), self._game(stripped_name, "block")
            if log and stripped and axes:
                out.add(Act("use", "strip", stripped, makes=log),
                        [([_need("item", [log]), _need("item", axes, kept=True)],
                          [Yield(kind=ResourceKind.BLOCK, name=stripped)])], suffix="strip")

    def _ammo(self) -> dict[str, list[str]]:
        """The arrows a bow of the generated game shoots, one used up a shot (``shooting.yaml``).

        Its use is the shot, as Minecraft counts it; a trident thrown or a fishing rod cast needs only itself, held
        (:func:`taskverse.engine.gamegen.content.hand_uses`).
        """
        if self.game not in GENERATED_GAMES:
            return {}
        out: dict[str, list[str]] = {}
        for bow in content_hand_uses(self.kn)["shoot"]:
            name, arrows = self._game(bow["item"], "item"), [a for a in bow["ammo"] if self._game(a, "item")]
            if name and arrows:
                out[name] = [self._game(a, "item") for a in arrows]
        return out

    def _tool_uses(self, out: _Atoms) -> None:
        """A tool used on a block turns it into another (``use.<new block>.<verb>.<block>``).

        Grass tilled into farmland, flattened into a dirt path, a pumpkin carved: the block found (or near the
        start), any tool of the group kept; the new block is there, and what it drops (a pumpkin's seeds). The
        success event is the runtime's: the block used on, the tool held. The generated game runs it
        (:func:`taskverse.engine.gamegen.content.tool_uses`).
        """
        if self.game not in GENERATED_GAMES:
            return
        for group in content_tool_uses(self.kn):
            tools = [t for t in (self._game(n, "item") for n in group["tools"]) if t]
            tools = [t for t in tools if "on_place" in self.items[t].callbacks]
            for block_name, becomes_name in group["pairs"].items():
                block, becomes = self._game(block_name, "block"), self._game(becomes_name, "block")
                drops = [Yield(name=item, count=n) for item, n in
                         ((self._game(i, "item"), n) for i, n in group["drops"].get(block_name, {}).items()) if item]
                if block and becomes and tools:
                    out.add(Act("use", "tool", becomes, makes=block),
                            [([_need("block", [block]), _need("item", tools, kept=True)],
                              [Yield(kind=ResourceKind.BLOCK, name=becomes), *drops])],
                            target=block, suffix=f"{group['verb']}.{block.split(':', 1)[-1]}")

    def _fills(self, out: _Atoms) -> None:
        """A container used on the block it is filled at becomes the filled item (``use.<filled>.fill``).

        A glass bottle on water: a water bottle (``minecraft:potion``); a bucket on water, lava or powder snow: the
        filled bucket. The success event is the runtime's: the container used on the block. The generated game runs
        it (:func:`taskverse.engine.gamegen.content.fills`).
        """
        if self.game not in GENERATED_GAMES:
            return
        for container_name, blocks in content_fills(self.kn).items():
            container = self._game(container_name, "item")
            for block_name, fill in blocks.items():
                at, filled = self._game(block_name, "block"), self._game(fill["gives"], "item")
                if container and at and filled and "on_place" in self.items[container].callbacks:
                    out.add(Act("use", "fill", filled, makes=at, using=container),
                            [([_need("item", [container]), _need("block", [at])], [Yield(name=filled)])],
                            target=at, using=container, suffix="fill")

    def _brews(self, out: _Atoms) -> None:
        """A brewing stand's recipes (``brew.<potion>``): a way per recipe making the potion.

        Each way: the base potion, the ingredient, one blaze powder (burnt: the model does not count the 19 more
        brews Minecraft's powder charges the stand for, as it counts no fuel left in a furnace) and the stand,
        standing near the player or held to be placed. One bottle a brew (the stand takes three). The generated game
        brews them (:func:`taskverse.engine.gamegen.content.brewing`).
        """
        if self.game not in GENERATED_GAMES:
            return
        table = content_brewing(self.kn)
        if not table:
            return
        stand, fuel = self._game(table["stand"], "block"), self._game(table["fuel"], "item")
        if not stand or not fuel:
            return
        ways: dict[str, list[tuple[list[Need], list[Yield]]]] = {}
        for base_name, by_ingredient in table["recipes"].items():
            base = self._game(base_name, "item")
            for ingredient_name, result_name in by_ingredient.items():
                ingredient, result = self._game(ingredient_name, "item"), self._game(result_name, "item")
                if not base or not ingredient or not result:
                    continue
                inputs = [_need("item", [base]), _need("item", [ingredient])]
                if ingredient == fuel:  # blaze powder brewed into strength: one powder burnt, one put in
                    inputs = [_need("item", [base]), _need("item", [fuel], 2)]
                else:
                    inputs.append(_need("item", [fuel]))
                for station in (_need("block", [stand]), _need("item", [stand], kept=True)):
                    ways.setdefault(result, []).append((inputs + [station], [Yield(name=result)]))
        for result, found in sorted(ways.items()):
            out.add(Act("brew", "item", result, makes=stand, using=fuel), found)

    @cached_property
    def enchanting(self) -> dict[str, Any] | None:
        """The enchanting table's Silk Touch in game names (:func:`taskverse.engine.gamegen.content.enchanting`).

        ``station``, ``bookshelf``, ``bookshelves``, ``ring``, ``lapis``, ``lapis_count``, ``reset`` and ``tools``
        (each ``tool``, ``enchanted``, ``chance``); None where the game has no enchanting (only the generated games
        run it).
        """
        if self.game not in GENERATED_GAMES:
            return None
        table = content_enchanting(self.kn)
        names: dict[str, Any] = {k: self._game(table[k], "item") for k in ("station", "bookshelf", "lapis", "reset")
                                 if k in table}
        if len(names) < 4 or not all(names.values()):
            return None
        tools = [{**t, "tool": self._game(t["tool"], "item"), "enchanted": self._game(t["enchanted"], "item")}
                 for t in table["tools"]]
        return {**table, **names, "tools": [t for t in tools if t["tool"] and t["enchanted"]]}

    def _enchants(self, out: _Atoms) -> None:
        """A pickaxe enchanted for Silk Touch (``use.<silk tool>.enchant``), as the library's ``enchant`` atoms.

        Its event is the table's use holding the pickaxe, as the runtime logs a use (the item, and what it was used
        on) and the library's goal names it; the pickaxe's own use is its digs (``use.<tool>.dig``). The
        pickaxe, used on an enchanting table with 15 bookshelves around it, takes 3 lapis lazuli; with the
        knowledge's chance it comes back as its Silk Touch tool, else plain (a grindstone, kept, grinds off what
        the try gave instead). The table and the bookshelves are kept items: the scripted player sets them up at
        the start (:mod:`taskverse.engine.planner`). The game runs it (``enchanting.lua``).
        """
        table = self.enchanting
        if table is None:
            return
        setup = [_need("item", [table["lapis"]], table["lapis_count"]), _need("item", [table["station"]], kept=True),
                 _need("item", [table["bookshelf"]], table["bookshelves"], kept=True),
                 _need("item", [table["reset"]], kept=True)]
        for entry in table["tools"]:
            tool, chance = entry["tool"], float(entry["chance"])
            made = [Yield(name=entry["enchanted"], chance=chance), Yield(name=tool, chance=round(1 - chance, 6))]
            out.add(Act("use", "enchant", entry["enchanted"], makes=tool), [([_need("item", [tool]), *setup], made)],
                    target=table["station"], using=tool, suffix="enchant")

    def _harvests(self, out: _Atoms) -> None:
        """An item used on a full bee nest (``use.<nest>.<item>``): shears (kept) give 3 honeycomb, a bottle honey.

        The generated game runs them from ``honey.yaml`` (:func:`taskverse.engine.gamegen.content.honey`): the nests
        the map generates are full, and the one used is emptied, so each use is at a generated nest the player
        finds (a found nest, like a found tree, stands for all of them; a placed one starts empty and is not used).
        """
        if self.game not in GENERATED_GAMES:
            return
        table = content_honey(self.kn)
        nest = self._game(table["natural"], "block") if table["natural"] else ""
        for harvest in table["harvests"]:
            tool, gives = self._game(harvest["tool"], "item"), self._game(harvest["gives"], "item")
            if not nest or not tool or not gives or nest not in self.places:
                continue
            held = _need("item", [tool]) if harvest["uses_up"] else _need("item", [tool], kept=True)
            out.add(Act("use", "harvest", nest, makes=tool),
                    [([_need("block", [nest]), held], [Yield(name=gives, count=harvest["count"])])], suffix=tool)

    def _stores(self, out: _Atoms) -> None:
        """An item put into a container's slots (``store.<item>``): the item used up, the container near or held.

        The containers and items of ``storing.yaml`` the game has (:func:`taskverse.engine.gamegen.content.storing`):
        a container standing near the player, or one held, which the scripted player places (and keeps: it stays
        in the world, as a placed station does). The success event is the runtime's: the stack put into the
        container's ``main`` list.
        """
        if self.game not in GENERATED_GAMES:
            return
        table = content_storing(self.kn)
        containers = [c for c in (self._game(n, "block") for n in table["containers"]) if c]
        if not containers:
            return
        for item in sorted(i for i in (self._game(n, "item") for n in table["items"]) if i):
            out.add(Act("store", "item", item), [([_need("item", [item]), station], [])
                                                 for station in (_need("block", containers),
                                                                 _need("item", containers, kept=True))])

    def _game(self, name: str, kind: str) -> str:
        """The game name of a taskverse_mc name (``minecraft:<name>``) in this game, or ``""``."""
        counterpart = self.mapping.lookup(name.split(":", 1)[-1], kind)  # type: ignore[arg-type]
        found = counterpart.to if counterpart is not None and counterpart.to is not None else ""
        return found if found in self.items else ""

    def _entities(self, out: _Atoms) -> None:
        for entity, mc in sorted(self.entities.items()):
            present = [_need("entity", [entity])]
            spawns = self.spawns.get(entity)
            if spawns:  # met where Minecraft spawns it: one way per dimension (the harness's ``spawn`` stands in)
                out.add(Act("find", "entity", entity),
                        [([_need("dimension", [d])], [Yield(kind=ResourceKind.ENTITY, name=entity)])
                         for d in spawns])
            else:
                out.add(Act("find", "entity", entity), [(present, [])])
            out.add(Act("interact", "entity", entity), [(present, [])])
            if mc in self.kn.mobs:
                ways = self.fight_gear(mc) if entity in self.spawns else [[]]
                if ways:  # a spawned mob no gear beats (a warden) is not fought
                    out.add(Act("kill", "entity", entity), [(present + gear, self.loot(mc)) for gear in ways])

    def _feeds(self, out: _Atoms) -> None:
        """An animal fed one of its foods (``use.<mob>.<food>``): the food used on it, as the game's animals eat.

        The generated game feeds, breeds and tames from ``breeding.yaml``
        (:func:`taskverse.engine.gamegen.content.animals`): every food an animal eats (breeding, taming, other
        food) is one way to use an item on it, held and used up. What feeding leads to is left out of the model:
        love and taming are no resources, and a baby needs two adults of a kind, which a presence need cannot
        count; the game still makes the baby when two fed adults are near each other.
        """
        if self.game not in GENERATED_GAMES:
            return
        for name, containers in content_milking(self.kn).items():  # a bucket used on a cow: milk
            mob = self._game_entity(name)
            for container, filled in ((self._game(c, "item"), self._game(f, "item")) for c, f in containers.items()):
                if mob and container and filled:
                    out.add(Act("use", "feed", mob, makes=container),
                            [([_need("entity", [mob]), _need("item", [container])], [Yield(name=filled)])],
                            target=mob, suffix=container, using=container)
        for name, spec in content_laying(self.kn).items():  # an egg a chicken lays by itself, waited for beside it
            mob, item = self._game_entity(name), self._game(spec["item"], "item")
            if mob and item:
                out.add(Act("use", "lay", mob, makes=item), [([_need("entity", [mob])], [Yield(name=item)])],
                        target=item, suffix="lay")
        for name, spec in content_animals(self.kn).items():
            mob = self._game_entity(name)
            if not mob:
                continue
            back = self._game(spec["returns"], "item") if spec["returns"] else ""
            for food in (f for f in (self._game(x, "item") for x in spec["food"]) if f):
                returned = [Yield(name=back)] if back else []  # the container given back: the axolotl's bucket
                out.add(Act("use", "feed", mob, makes=food),
                        [([_need("entity", [mob]), _need("item", [food])], returned)], target=mob,
                        suffix=food, using=food)

    def _game_entity(self, name: str) -> str:
        """The game entity of a taskverse_mc mob (``minecraft:<name>``) in this game, or ``""``."""
        counterpart = self.mapping.lookup(name.split(":", 1)[-1], "entity")
        found = counterpart.to if counterpart is not None and counterpart.to is not None else ""
        return found if found in self.entities else ""

    def _trades(self, out: _Atoms) -> None:
        """A trade with a villager (``use.<villager>.<item>``): its job site placed beside it, the price given.

        One way per offer of the item (``trades.yaml``, as the generated game trades:
        :func:`taskverse.engine.gamegen.content.trading`): the villager (met), the profession's job site block
        (kept, as the library's trades keep it: placed beside the villager at its first trade, which it keeps for
        every later one), the villager raised to the offer's level (the library's
        internal item ``xp:<profession>``, kept: the experience its earlier trades gave, or the start's), the price
        (emeralds and the trade's other items; the items a villager buys, for an emerald). Each trade yields the
        goods and the offer's experience, as the game adds it to the villager's. Each offer locks after its uses (the
        game's ``maxUses``, as ``trading.lua`` counts a villager's trades of it): a villager met gives each offer's
        trades, as the library's world model does (``Rules``' ``stocks``), counted per way (an emerald for wheat
        apart from an emerald for potatoes), so that more trades of an offer take another villager.
        """
        if self.game not in GENERATED_GAMES:
            return
        table = content_trading(self.kn)
        counterpart = self.mapping.lookup(table["villager"].split(":", 1)[-1], "entity") if table["villager"] else None
        villager = counterpart.to if counterpart is not None and counterpart.to is not None else ""
        if villager not in self.entities:
            return
        levels = {level["level"]: level["xp"] for level in table["levels"]}
        ways: dict[str, list[tuple[list[Need], list[Yield]]]] = {}
        for prof in table["professions"]:
            site = self._game(prof["job_site"], "item")
            if not site:
                continue
            trained = villager_xp(prof["profession"])
            for offer in prof["offers"]:
                gives = self._game(offer["gives"], "item")
                price = [(self._game(p["item"], "item"), p["count"]) for p in offer["price"]]
                if not gives or not all(name for name, _ in price) or site in {n for n, _ in price}:
                    continue
                # the villager raised to the offer's level: its experience, kept as a station is (so that the
                # experience a start gives prices the trade as held; it is no tool: no use, no wear)
                at = levels[offer["level"]]
                raised = [_need("item", [trained], at, kept=True)] if at else []
                needs = [_need("entity", [villager]), _need("item", [site], kept=True), *raised,
                         *(_need("item", [name], count) for name, count in price)]
                way = (needs, [Yield(name=gives, count=offer["count"]), Yield(name=trained, count=offer["xp"])])
                if way not in ways.setdefault(gives, []):
                    ways[gives].append(way)
                # the offer's own trades: told apart from the item's other offers at the job site by its price
                key = (f"use.{villager}.{gives}", site, *sorted(name for name, _ in price))
                made = min(offer["uses"], out.stocks[key][2]) if key in out.stocks else offer["uses"]
                out.stocks[key] = (villager, prof["profession"], made)
        for gives, found in sorted(ways.items()):
            out.add(Act("use", "trade", villager, makes=gives), found, suffix=gives)
        self._wandering_trades(out, table["wandering"])

    def _wandering_trades(self, out: _Atoms, table: dict[str, Any]) -> None:
        """A trade with a wandering trader (``use.<trader>.<item>``): the trader (met), the emeralds.

        The item with the chance a trader has the offer (its pool's picks over the pool's size: 5 in 64, 1 in 6),
        as the game draws each trader's offers (:func:`taskverse.engine.gamegen.content.wandering`); the price is
        paid on every try in the model (the game takes it only where the offer is), as the library's atoms have it.
        """
        counterpart = self.mapping.lookup(table["trader"].split(":", 1)[-1], "entity") if table else None
        trader = counterpart.to if counterpart is not None and counterpart.to is not None else ""
        if trader not in self.entities:
            return
        for pool in table["pools"]:
            chance = round(pool["picks"] / len(pool["offers"]), 6)
            for offer in pool["offers"]:
                gives = self._game(offer["gives"], "item") if offer["gives"] else ""
                price = [(self._game(p["item"], "item"), p["count"]) for p in offer["price"]]
                if not gives or not all(name for name, _ in price):
                    continue
                needs = [_need("entity", [trader]), *(_need("item", [name], count) for name, count in price)]
                out.add(Act("use", "wander", trader, makes=gives),
                        [(needs, [Yield(name=gives, count=offer["count"], chance=chance)])], suffix=gives)

    def _cuts(self, out: _Atoms) -> None:
        """A cut at the stonecutter (``craft.<item>.cut``): one item of a cut's input, the stonecutter kept.

        One way per input the item is cut from (``stonecutting.yaml``, as the generated game cuts:
        :func:`taskverse.engine.gamegen.content.stonecutting`), the stonecutter standing near the player or held (the
        harness places it); the event is the craft the game's stonecutter runs.
        """
        if self.game not in GENERATED_GAMES:
            return
        table = content_stonecutting(self.kn)
        station = self._game(table["station"], "item") if table else ""
        if not station:
            return
        ways: dict[str, list[tuple[list[Need], list[Yield]]]] = {}
        for cut in table["cuts"]:
            source, output = self._game(cut["input"], "item"), self._game(cut["output"], "item")
            if not source or not output:
                continue
            for at in (_need("block", [station]), _need("item", [station], kept=True)):
                ways.setdefault(output, []).append(([_need("item", [source]), at],
                                                    [Yield(name=output, count=cut["count"])]))
        for output, found in sorted(ways.items()):
            out.add(Act("craft", "cut", output), found, suffix="cut")

    @cached_property
    def villagers(self) -> set[str]:
        """The game's entities that trade as villagers do (taskverse_mc's villager: its level is its own)."""
        return {act.name for act in self.acts.values() if act.kind == "trade"}

    @cached_property
    def anvils(self) -> set[str]:
        """The game's anvil nodes that do the anvil's work (taskverse_mc's, ``anvil.lua``)."""
        table = content_anvil(self.kn) if self.game in GENERATED_GAMES else {}
        return {n for n in (self._game(s, "item") for s in table.get("stations", [])) if n}

    def _anvils(self, out: _Atoms) -> None:
        """The anvil's work, as the generated game does it, at an anvil near the player or held (the harness places it).

        From ``anvil.yaml`` (:func:`taskverse.engine.gamegen.content.anvil`). A rename or a combine
        (``craft.<result>.anvil``): the item (and the enchanted book, used up) for the named or enchanted item, whose
        event is its craft; a rename is the anvil used holding the item too (``use.<named>.rename``). A repair
        (``use.<item>.repair``): the item, kept, and a unit of one of its materials (used up), or two of the item for
        one; its event is the anvil used holding the item. The same repair with the material in hand
        (``use.<material>.mend``, a way per item it repairs) is the anvil used holding the material: the game's
        anvil reports its use holding the item in hand when its work took it (``anvil.lua``).
        """
        if self.game not in GENERATED_GAMES:
            return
        table = content_anvil(self.kn)
        stations = sorted(self.anvils)
        if not stations:
            return
        at = [_need("block", stations), _need("item", stations, kept=True)]
        book = self._game(table["book"], "item")
        for entry in [*table["renames"], *table["combines"]]:
            item, result = self._game(entry["item"], "item"), self._game(entry["result"], "item")
            with_book = [_need("item", [book])] if entry in table["combines"] else []
            if item and result and (book or not with_book):
                out.add(Act("craft", "anvil", result),
                        [([_need("item", [item]), *with_book, a], [Yield(name=result)]) for a in at], suffix="anvil")
                if not with_book:  # a rename is also the anvil used holding the item renamed
                    out.add(Act("use", "rename", result, makes=stations[0]),
                            [([_need("item", [item]), a], [Yield(name=result)]) for a in at], target=stations[0],
                            using=item, suffix="rename")
        mended: dict[str, list[tuple[list[Need], list[Yield]]]] = {}
        for entry in table["repairs"]:
            item = self._game(entry["item"], "item")
            if not item:
                continue
            materials = [m for m in (self._game(x, "item") for x in entry["materials"]) if m]
            ways: list[tuple[list[Need], list[Yield]]] = []
            for a in at:
                if materials:
                    ways.append(([_need("item", [item], kept=True), _need("item", materials), a], []))
                ways.append(([_need("item", [item], 2), a], [Yield(name=item)]))
                for material in materials:  # the same repair, the material in hand
                    mended.setdefault(material, []).append(([_need("item", [item], kept=True),
                                                             _need("item", [material]), a], []))
            out.add(Act("use", "repair", item, makes=stations[0]), ways, target=stations[0], using=item,
                    suffix="repair")
        for material, ways in sorted(mended.items()):  # the anvil used holding the material (a way per item)
            out.add(Act("use", "mend", material, makes=stations[0]), ways, target=stations[0], using=material,
                    suffix="mend")

    def _portals(self, out: _Atoms) -> None:
        """Through a nether portal: obsidian placed, flint and steel used on it (the game's portals need no frame).

        Into the End (taskverse_mc): a stronghold found (its portal room), an eye of ender put into each of its
        end portal frame's 12 blocks, which opens the end portal (the generated game's stronghold,
        :func:`taskverse.engine.gamegen.content.structures`).
        """
        self._end_portal(out)
        if "nether" not in self.settings.dimensions:
            return
        frame, lighter = self.mapping.lookup("obsidian"), self.mapping.lookup("flint_and_steel")
        if frame is None or lighter is None or frame.to is None or lighter.to is None:
            return
        for there, here in (("nether", "overworld"), ("overworld", "nether")):
            needs = [_need("item", [frame.to]), _need("item", [lighter.to], kept=True), _need("dimension", [here])]
            out.add(Act("enter", "dimension", there), [(needs, [Yield(kind=ResourceKind.DIMENSION, name=there)])])

    def _end_portal(self, out: _Atoms) -> None:
        stronghold = structure_node("stronghold")
        room = content_portal_room()
        if "end" not in self.settings.dimensions or stronghold not in self.places or \
                not all(node in self.items for node in room.values()):
            return
        needs = [_need("item", [room["eye"]], END_PORTAL_FRAMES), _need("block", [stronghold]),
                 _need("dimension", ["overworld"])]
        out.add(Act("enter", "end_portal", "end", makes=stronghold, using=room["eye"]),
                [(needs, [Yield(kind=ResourceKind.DIMENSION, name="end")])])

    # --- the game's entities and their loot -----------------------------------------------------------------

    @cached_property
    def entities(self) -> dict[str, str]:
        """Game entity -> its Minecraft name, for the mobs and entities a task can meet (runtime or game)."""
        out: dict[str, str] = {}
        for mc, counterpart in sorted(self.mapping.entities.items()):
            to = counterpart.to
            if to is not None and (counterpart.supplied_by == "runtime" or to in self.registry.entities):
                out.setdefault(to, mc)
        for mc, counterpart in sorted(self.mapping.items.items()):  # an item that is an entity too (a cart)
            if counterpart.to is not None and counterpart.to in self.registry.entities:
                out.setdefault(counterpart.to, mc)
        return out

    @cached_property
    def spawns(self) -> dict[str, dict[str, tuple[str, ...]]]:
        """Game mob -> the dimensions Minecraft spawns it in -> the game biomes there (empty: any of them).

        The generated game spawns no mobs; the scripted player stands in for Minecraft's natural spawning with the
        harness's ``spawn`` step, which adds the mob beside the player in one of these places (the knowledge's
        ``mobs.yaml``: dimensions and biomes). Only the game's own mobs spawn so (taskverse_mc's), never the
        mobs a runtime registers for a task (minetest_game's), and only mobs Minecraft spawns (``natural``).
        """
        out: dict[str, dict[str, tuple[str, ...]]] = {}
        dimensions = {"overworld", *self.settings.dimensions}
        for entity, mc in sorted(self.entities.items()):
            mob = self.kn.mobs.get(mc)
            if mob is None or not mob.natural or entity not in self.registry.entities:
                continue
            for dimension in mob.dimensions:
                if dimension not in dimensions:
                    continue
                biomes = sorted(g for g, b in self.mapping.biome_names().items() if b in (mob.biomes or ())
                                and g in self.registry.biomes and (self.at_ground(g) if dimension == "overworld"
                                                                   else self.layer_of(self.registry.biomes[g].y_min)
                                                                   == dimension))
                if mob.biomes and not biomes:
                    continue  # none of its biomes is where the player can go
                out.setdefault(entity, {})[dimension] = tuple(biomes)
        return out

    def fight_gear(self, mob: str) -> list[list[Need]]:
        """The gear that wins a fight with a mob the player meets by spawning: the combat table's, in game names.

        The weapon is kept and used (the harness hits with it: a use of it), armour pieces and food are kept and eaten
        as the library's combat atoms have them, so a plan fights a golem as a survival player would (a sword, diamond
        armour), not bare-handed. A start that summons the mob is its own fight: the task's initialization gives the
        gear.
        """
        ways = []
        for way in fight_needs(self.kn, mob):
            gear, missing = [], False
            for need in way[1:]:
                names = [g for m in need.any_of if (g := self._game(f"minecraft:{m}", "item"))]
                if not names:
                    missing = True
                    break
                gear.append(_need("item", names, count=need.count, kept=need.kept))
            if not missing:
                ways.append(gear)
        return ways

    @cached_property
    def weapons(self) -> frozenset[str]:
        """The combat table's weapons, in Minecraft names."""
        table = self.kn.combat
        return frozenset(item for w in table.weapons for item in w.items) if table is not None else frozenset()

    def loot(self, mob: str) -> list[Yield]:
        """What killing a mob gives, in game names (the mobs_redo drop chances: 1 in N)."""
        out = []
        for item, chance, low, high in mob_loot(self.kn, mob):
            counterpart = self.mapping.lookup(item)
            if counterpart is None or counterpart.to is None or counterpart.to not in self.items or high < 1 or \
                    chance < MIN_LOOT_CHANCE:
                continue
            fewest, most = max(0, int(low)), int(high)
            out.append(Yield(name=counterpart.to, count=fewest, max=most if most != fewest else None,
                             chance=1 / max(1, round(1 / chance))))
        return out

    # --- where nodes are ------------------------------------------------------------------------------------

    @cached_property
    def structure_held(self) -> frozenset[str]:
        """Nodes the map generator places only in structures' stand-ins, beside their markers."""
        markers = set(self.structures)
        inside = stand_in_nodes(self.registry, markers)
        elsewhere: set[str] = {o.ore for o in self.registry.ores} | {self.settings.stone}
        for biome in self.registry.biomes.values():
            elsewhere |= {n for n in (biome.node_top, biome.node_filler, biome.node_dust, biome.node_stone) if n}
        for deco in self.registry.decorations:
            nodes = {*deco.decoration, *deco.schematic_nodes}
            if not nodes & markers:
                elsewhere |= nodes
        return frozenset(inside - markers - elsewhere)

    @cached_property
    def places(self) -> dict[str, Place]:
        """Generated nodes and where to find them."""
        out: dict[str, Place] = {}
        stone = self.settings.stone
        # ores in the stone, and in layers of the stone (taskverse_mc's deepslate, itself an ore in stone), and in
        # the stone of other dimensions (netherrack, end stone)
        strata = [o for o in self.registry.ores if o.ore_type == "stratum"]
        hosts = {stone} | {o.ore for o in strata if stone in o.wherein}
        hosts |= {b.node_stone for b in self.registry.biomes.values() if self.layer_of(b.y_min) and b.node_stone}
        for ore in self.registry.ores:
            if ore.y_min > GROUND_Y or not set(ore.wherein) & hosts:
                continue  # mountain tops and other stones are not in a flat world
            top = _uncovered_top(ore.y_min, ore.y_max, [(s.y_min, s.y_max) for s in strata if s.ore != ore.ore
                                                        and set(ore.wherein) <= set(s.wherein)])
            if top is None:
                continue  # a stratum (deepslate) replaced its host stone wherever it would be
            y = max(min(top, GROUND_Y - 12) - 8, ore.y_min)
            known = out[ore.ore].y if ore.ore in out else None
            if ore.ore not in out or (known is not None and y > known):
                out[ore.ore] = Place(y=y, dimension=self.layer_of(ore.y_min))
        out[stone] = Place(y=GROUND_Y - 8)
        for biome in self.registry.biomes.values():  # the other dimensions' stone, under their caverns' floors
            layer = self.layer_of(biome.y_min)
            if layer is not None and biome.node_stone:
                out.setdefault(biome.node_stone, Place(y=self.settings.dimensions[layer].floor - 2, dimension=layer))
        for name, biome_def in sorted(self.registry.biomes.items()):
            if biome_def.y_min > GROUND_Y or biome_def.y_max < GROUND_Y or name.endswith(("_ocean", "_under")):
                continue
            for node in (biome_def.node_top, biome_def.node_filler, biome_def.node_dust):
                if node:
                    _add(out, node, name)
        for deco in self.registry.decorations:
            for node in [*deco.decoration, *deco.schematic_nodes]:
                for deco_biome in deco.biomes:
                    if self.at_ground(deco_biome):
                        _add(out, node, deco_biome)
        # what stands on those floors, unless the overworld has it too (a chest: a desert pyramid's before a
        # bastion's, which needs a portal)
        for deco in self.registry.decorations:
            layer = self.layer_of(deco.y_min)
            if layer is not None:
                for node in [*deco.decoration, *deco.schematic_nodes]:
                    out.setdefault(node, Place(y=deco.y_min, dimension=layer))
        self._nest_biomes(out)
        return out

    def _nest_biomes(self, out: dict[str, Place]) -> None:
        """Bee nests are looked for where most trees carry one: a search in a forest would hardly find one.

        ``honey.yaml`` puts a nest on every meadow tree and on 1 in 500 of a forest's.
        """
        if self.game not in GENERATED_GAMES:
            return
        chances = self.kn.mechanisms.honey.trees.chances if self.kn.mechanisms is not None else {}
        nest = self._game(content_honey(self.kn)["natural"], "block")
        place = out.get(nest)
        if place is None or not place.biomes:
            return
        names = self.mapping.biome_names()
        rate = {g: float(chances.get(names.get(g, g), 0.0)) for g in place.biomes}
        best = max(rate.values())
        if best > 0:
            place.biomes = tuple(g for g in place.biomes if rate[g] == best)

    def layer_of(self, y: float) -> str | None:
        """The other dimension a height is in (None: the overworld)."""
        return next((name for name, d in self.settings.dimensions.items() if d.y_min <= y <= d.y_max), None)

    def at_ground(self, biome: str) -> bool:
        """Whether a game biome reaches the flat world's surface (shores, dunes and sea floors do not)."""
        found = self.registry.biomes.get(biome)
        return found is not None and found.y_min <= GROUND_Y + 1 <= found.y_max

    def underground(self, biome: str) -> bool:
        """Whether a game biome lies wholly under the overworld's ground (dripstone caves, the deep dark)."""
        found = self.registry.biomes.get(biome)
        return found is not None and found.y_max < GROUND_Y and self.layer_of(found.y_min) is None

    def biome_floor(self, biome: str) -> float | None:
        """The height to look for a biome at (None: the overworld's surface).

        Another dimension's biome: its layer's floor; an underground one: the middle of its heights.
        """
        found = self.registry.biomes.get(biome)
        if found is not None and self.underground(biome):
            return float((found.y_min + found.y_max) // 2)
        layer = self.layer_of(found.y_min) if found is not None else None
        return None if layer is None else self.settings.dimensions[layer].floor + 1

    def biome_depth(self, biome: str) -> int | None:
        """How far from :meth:`biome_floor` an underground biome reaches up and down (None: not underground)."""
        found = self.registry.biomes.get(biome)
        if found is None or not self.underground(biome):
            return None
        return max(1, (found.y_max - found.y_min) // 2 - 1)

    # --- digging --------------------------------------------------------------------------------------------

    @cached_property
    def tools(self) -> list[str]:
        """The hand and the items with tool capabilities."""
        return [HAND, *sorted(n for n, i in self.items.items() if i.type == "tool" and i.tool_capabilities)]

    def caps(self, tool: str) -> ToolCapabilities | None:
        """The tool capabilities an item digs with (the hand's when it has none)."""
        item = self.items.get(tool)
        return item.tool_capabilities if item is not None and item.tool_capabilities is not None else self.hand

    @cached_property
    def tool_drops(self) -> frozenset[str]:
        """Nodes some tool gets drops of its own from (``mine.<node>.<tool>``: shears, a Silk Touch pickaxe)."""
        return frozenset(act.name for atom, act in self.acts.items()
                         if act.verb == "mine" and atom != f"mine.{act.name}")

    def digs(self, node: str, tool: str) -> bool:
        """Whether ``tool`` digs ``node`` by its own capabilities (``get_dig_params``)."""
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

    def can_dig(self, node: str, tool: str) -> bool:
        """Whether the harness digs ``node`` holding ``tool``: with it, or with the hand, as the client falls back."""
        return self.digs(node, tool) or (tool != HAND and self.digs(node, HAND))

    def drop_yields(self, node: str, tool: str) -> list[Yield]:
        """What digging ``node`` with ``tool`` gives, chance lines with their chances.

        A table of alternatives (``max_items = 1``) gives each line with the chance that no earlier line took the
        slot; other tables give each line on its own (a limit above one is not modelled).
        """
        item = self.items[node]
        drop = item.drop
        if drop is None:
            return [Yield(name=node)]
        if isinstance(drop, str):
            name, _, count = drop.partition(" ")
            return [Yield(name=name, count=int(count or 1))] if name in self.items and name not in NOT_BLOCKS else []
        lines: dict[str, list[tuple[int, float]]] = {}
        reach = 1.0
        for choice in drop.items:
            if choice.tools and not any(tool_matches(tool, t) for t in choice.tools):
                continue
            chance = 1 / max(1, choice.rarity)
            for entry in choice.items:
                name, _, count = entry.partition(" ")
                if name in self.items and name not in NOT_BLOCKS:
                    lines.setdefault(name, []).append((int(count.split(" ")[0] or 1), reach * chance
                                                       if drop.max_items == 1 else chance))
            if drop.max_items == 1:
                reach *= 1 - chance
        return [_merge(name, found) for name, found in sorted(lines.items()) if sum(c * p for c, p in found) > 0]

    # --- names ----------------------------------------------------------------------------------------------

    def members(self, cell: str) -> list[str]:
        """The items a recipe cell takes (``group:a,b``: every item in all those groups)."""
        if not cell.startswith("group:"):
            return [cell] if cell in self.items else []
        return self._group(cell[6:])

    def _group(self, groups: str) -> list[str]:
        cache = self.__dict__.setdefault("_groups", {})
        if groups not in cache:
            wanted = groups.split(",")
            cache[groups] = sorted(n for n, i in self.items.items() if all(i.groups.get(g, 0) for g in wanted))
        found: list[str] = cache[groups]
        return found


@cache
def tool_matches(tool: str, entry: str) -> bool:
    """Whether a drop line's ``tools`` entry takes ``tool``: the name, or ``~`` and a Lua pattern it holds.

    As ``minetest.get_node_drops`` reads it (``toolname:find(pattern)``); the patterns' anchors, classes, ``.``
    and ``%`` escapes are read (:func:`lua_pattern`).

    Example:
        >>> tool_matches("minecraft:stick", "~^minecraft:[^s]"), tool_matches("", "~^$")
        (False, True)

    """
    if not entry.startswith("~"):
        return tool == entry
    return re.search(lua_pattern(entry[1:]), tool) is not None


def lua_pattern(pattern: str) -> str:
    """A Lua pattern as a Python regular expression (anchors, ``.``, ``[...]`` classes, ``%`` escapes, ``* + ? -``).

    Example:
        >>> lua_pattern("^ab[^c]-$")
        '^ab[^c]*?$'

    """
    out, i = [], 0
    while i < len(pattern):
        c = pattern[i]
        if c == "%" and i + 1 < len(pattern):
            if pattern[i + 1].isalnum():
                raise TaskverseError(f"the Lua pattern class %{pattern[i + 1]} in {pattern!r} is not read")
            out.append(re.escape(pattern[i + 1]))
            i += 2
            continue
        if c == "[":
            end = pattern.index("]", i + 2 if pattern[i + 1:i + 2] == "^" else i + 1)
            body = pattern[i + 1:end]
            negated = body.startswith("^")
            out.append("[" + ("^" if negated else "") + re.escape(body[1:] if negated else body) + "]")
            i = end + 1
            continue
        if (c == "^" and i == 0) or (c == "$" and i == len(pattern) - 1) or c in ".*+?":
            out.append(c)
        elif c == "-":
            out.append("*?")
        else:
            out.append(re.escape(c))
        i += 1
    return "".join(out)


def _add(out: dict[str, Place], node: str, biome: str) -> None:
    place = out.setdefault(node, Place())
    if place.y is None and biome not in place.biomes:
        place.biomes = (*place.biomes, biome)


def _merge_ways(ways: list[tuple[list[Need], list[Yield]]]) -> list[tuple[list[Need], list[Yield]]]:
    """Recipes that differ in one ingredient taken once become one way taking any of them.

    taskverse_mc registers a recipe per material, as Minecraft does (white wool from wool of each of 15 colours
    and white dye): as the library writes them, that is one way, "any coloured wool and white dye", which the
    planner weighs once instead of fifteen times. Only an ingredient taken once merges: three planks of one wood
    is not three planks of any mix.
    """
    out = list(ways)
    keys = [_way_key(way) for way in out]  # compared thousands of times: plain tuples, not models
    merged = True
    while merged:
        merged = False
        for first in range(len(out)):
            for second in range(first + 1, len(out)):
                joined = _joined(out[first], out[second], keys[first], keys[second])
                if joined is not None:
                    out[first], keys[first] = joined, _way_key(joined)
                    del out[second], keys[second]
                    merged = True
                    break
            if merged:
                break
    return out


_WayKey = tuple[list[tuple[Any, ...]], tuple[tuple[Any, ...], ...]]


def _way_key(way: tuple[list[Need], list[Yield]]) -> _WayKey:
    """A way's needs and yields as tuples of their fields: equal exactly when the models are equal."""
    needs, made = way
    return [_fields(n) for n in needs], tuple(_fields(y) for y in made)


def _fields(model: Need | Yield) -> tuple[Any, ...]:
    return tuple(tuple(v) if isinstance(v, list) else v for v in model.__dict__.values())


def _joined(first: tuple[list[Need], list[Yield]], second: tuple[list[Need], list[Yield]],
            first_key: _WayKey, second_key: _WayKey) -> tuple[list[Need], list[Yield]] | None:
    (needs, made), (other, _) = first, second
    (keys, made_key), (other_keys, other_made_key) = first_key, second_key
    if made_key != other_made_key or len(needs) != len(other):
        return None
    only = [n for n, k in zip(needs, keys, strict=True) if k not in other_keys]
    other_only = [n for n, k in zip(other, other_keys, strict=True) if k not in keys]
    if len(only) != 1 or len(other_only) != 1:
        return None
    a, b = only[0], other_only[0]
    if a.count != 1 or b.count != 1 or a.kind != b.kind or a.kept or b.kept:
        return None
    rest = [n for n in needs if n is not a]
    union = set(a.any_of) | set(b.any_of)
    if any(union & set(n.any_of) for n in rest):
        return None  # one unit cannot be spent twice
    return sorted([*rest, _need(a.kind.value, union)], key=lambda n: n.any_of), made


def _uncovered_top(low: int, high: int, covers: list[tuple[int, int]]) -> int | None:
    """The highest height in ``low..high`` outside every range of ``covers`` (None: all of it is covered)."""
    y = high
    while y >= low:
        cover = next(((a, b) for a, b in covers if a <= y <= b), None)
        if cover is None:
            return y
        y = cover[0] - 1
    return None


def _overlap(sets: list[list[str]]) -> bool:
    seen: set[str] = set()
    for members in sets:
        if seen & set(members):
            return True
        seen.update(members)
    return False


def _merge(name: str, lines: list[tuple[int, float]]) -> Yield:
    """One yield for an item several drop lines give.

    Sure lines add up; lines that are chances add nothing to sure ones (a plan counts only on what is sure), and
    on their own give one item with the chance that any of them drops (a dead bush's two 1-in-2 sticks: a stick
    3 times in 4, not a sure stick), so the scripted player digs until it holds it.
    """
    if len(lines) == 1:
        count, chance = lines[0]
        return Yield(name=name, count=max(1, count), chance=min(1.0, chance))
    sure = sum(count for count, chance in lines if chance >= 1)
    if sure:
        return Yield(name=name, count=sure)
    none = math.prod(1 - chance for _, chance in lines)
    return Yield(name=name, chance=round(1 - none, 6))


_MODELS: dict[str, GameModel] = {}


def game_model(game: str = "minetest_game", kn: Any = None) -> GameModel:
    """The model of a game (built once per game and process; kept on disk for the project's own knowledge).

    Building taskverse_mc's model takes some ten seconds of CPU, and every command that plans or proves in the
    engine needs it: with the knowledge of ``atoms/knowledge`` it is kept in the cache, keyed by the game's
    profile, the knowledge and the code, so that only the first process of a checkout builds it.
    """
    if game not in _MODELS:
        from taskverse.knowledge.facts import load_knowledge

        default = load_knowledge()
        kn = default if kn is None else kn
        _MODELS[game] = _remembered_model(game, kn) if kn is default else GameModel(game, kn)
    return _MODELS[game]


def _remembered_model(game: str, kn: Any) -> GameModel:
    from taskverse.memo import code_digest, files_digest, remembered
    from taskverse.paths import knowledge_dir

    profile = profile_dir(game)
    inputs = [*sorted(p for p in profile.rglob("*") if p.is_file()),
              *sorted(p for p in knowledge_dir().rglob("*") if p.is_file())]
    key = f"{files_digest(inputs)}-{code_digest()}"
    model = remembered(f"gamemodel_{game}", key, lambda: GameModel(game, kn))  # a kind per game: both kept
    model.kn = kn  # kept apart from the file: the knowledge this process has loaded already
    return model

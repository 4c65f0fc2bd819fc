"""Compile a task (atom or molecule) for an engine game: the typed intermediate form, or why it cannot be.

Every Minecraft name a task uses is looked up in the game profile: ``mapping.yaml`` says what it is in the game,
``registry.json`` whether the game can do what the goal asks (a recipe to craft, something to cook, an item to
eat, a callback to use). Whatever has no counterpart is a :class:`Problem`, grouped by a stable ``reason`` so a
coverage report can count why atoms do not compile; :class:`CompileError` names them all.

Example:
    >>> from taskverse.library.loader import load_library
    >>> ir = compile_task(load_library().get("craft.stick"))
    >>> ir.goals["craft.stick"].targets, ir.names["default:stick"]
    (['stick'], 'stick')

"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal

from taskverse.algebra.expr import (
    AllOf,
    Amount,
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
    atoms_of,
    height_range,
)
from taskverse.engine.gamegen.build import GENERATED_GAMES
from taskverse.engine.gamegen.content import anvil as content_anvil
from taskverse.engine.gamegen.content import mc, structure_node
from taskverse.engine.gamegen.content import stonecutting as content_stonecutting
from taskverse.engine.gamegen.content import storing as content_storing
from taskverse.engine.gamegen.content import trading as content_trading
from taskverse.engine.ir import (
    AmountIR,
    AtomIR,
    BuildIR,
    ConstrainedIR,
    ConstraintIR,
    DimensionIR,
    DropIR,
    ExprIR,
    FindIR,
    GoalIR,
    GroupIR,
    InitializedIR,
    InitIR,
    InteractIR,
    ItemsIR,
    MobIR,
    NotIR,
    ReachIR,
    RepeatIR,
    StackIR,
    TaskIR,
    TrackersIR,
    UseIR,
    WithinIR,
)
from taskverse.engine.profile import (
    GameMapping,
    GameSettings,
    Registry,
    load_game_settings,
    load_mapping,
    load_registry,
)
from taskverse.errors import TaskverseError
from taskverse.schema import VILLAGER_XP_PREFIX, Goal, Initialization, ResourceKind, WaySpec
from taskverse.world.graph import ways_of


def stand_in_nodes(registry: Registry, markers: set[str]) -> set[str]:
    """The nodes of the decorations that place a structure's marker (taskverse_mc's stand-ins), markers included."""
    out: set[str] = set()
    for deco in registry.decorations:
        nodes = {*deco.decoration, *deco.schematic_nodes}
        if nodes & markers:
            out |= nodes
    return out


#: Build targets the runtime recognises, as shapes of nodes the player placed (the rest do not compile).
BUILD_SHAPES: dict[str, dict[str, Any]] = {
    "pillar": {"shape": "column", "length": 5},
    "tower": {"shape": "column", "length": 10},
    "wall": {"shape": "wall", "length": 5, "height": 3},
    "floor": {"shape": "floor", "length": 5, "width": 5},
    "fence": {"shape": "line", "length": 10},
    "fence_stack": {"shape": "column", "length": 3},  # fences placed one on another (MCU's stacking_acacia_fence)
    "road": {"shape": "line", "length": 10},  # blocks laid in a straight row (MCU's atomic list: Build a road)
    "cube": {"shape": "box", "length": 3, "width": 3, "height": 3},  # a solid cube, three on a side (Build a cube)
    "pyramid": {"shape": "pyramid", "length": 5},  # stepped on a 5 x 5 base: 25 + 9 + 1 (Build a pyramid)
}

#: Reach targets the runtime measures: the player's height, depth below the start, distance from the start.
REACH_MEASURES = ("height", "depth", "distance", "horizontal_distance")

#: Times of day of an initialization, as the engine's time of day (0 midnight, 0.5 noon).
TIMES_OF_DAY = {"day": 0.5, "noon": 0.5, "night": 0.0, "midnight": 0.0, "sunrise": 0.25, "sunset": 0.75}

#: How the runtime draws each mob: a cube with one of the game's textures (simple visuals).
MOB_TEXTURES = {
    "sheep": "wool_white.png", "cow": "wool_brown.png", "pig": "wool_pink.png", "chicken": "wool_yellow.png",
    "zombie": "wool_dark_green.png", "skeleton": "wool_grey.png", "spider": "wool_black.png",
    "creeper": "wool_green.png",
}
DEFAULT_TEXTURE = "default_dirt.png"

USE_CALLBACKS = {"on_use", "on_secondary_use", "on_place"}
TASK_MOD = "taskverse_task"


@dataclass(frozen=True)
class Problem:
    """One thing a task needs that the game lacks.

    Attributes:
        reason: A stable group name for coverage reports (``item with no counterpart``).
        name: The Minecraft name (or value) it is about.
        detail: A sentence saying what is missing and why.

    """

    reason: str
    name: str
    detail: str


class CompileError(TaskverseError):
    """A task that cannot run in the game; ``problems`` lists every missing thing."""

    problems: list[Problem]

    def __init__(self, task_id: str, game: str, problems: list[Problem]) -> None:
        shown = "; ".join(p.detail for p in problems[:3])
        more = f" (and {len(problems) - 3} more)" if len(problems) > 3 else ""
        super().__init__(f"cannot compile {task_id} for {game}: {shown}{more}")
        self.problems = problems


@dataclass
class _State:
    problems: list[Problem] = field(default_factory=list)
    names: dict[str, str] = field(default_factory=dict)
    biomes: dict[str, str] = field(default_factory=dict)
    place_as: dict[str, str] = field(default_factory=dict)
    mobs: dict[str, MobIR] = field(default_factory=dict)
    game_mobs: set[str] = field(default_factory=set)
    find_nodes: set[str] = field(default_factory=set)
    find_entities: set[str] = field(default_factory=set)
    measures: set[str] = field(default_factory=set)
    reach_nodes: set[str] = field(default_factory=set)
    use_items: set[str] = field(default_factory=set)
    use_entities: set[str] = field(default_factory=set)
    place_items: set[str] = field(default_factory=set)
    interact_nodes: set[str] = field(default_factory=set)
    chests: dict[str, str] = field(default_factory=dict)
    store_nodes: set[str] = field(default_factory=set)
    interact_entities: set[str] = field(default_factory=set)
    death: bool = False
    builds: dict[str, BuildIR] = field(default_factory=dict)

    def problem(self, reason: str, name: str, detail: str) -> None:
        entry = Problem(reason, name, detail)
        if entry not in self.problems:
            self.problems.append(entry)


UNWATCHED_STATISTICS = {
    "climb_one_cm": "the runtime does not watch a player moving up a climbable node (the engine game's ladders "
                    "and vines are not climbable)",
    "target_hit": "the runtime does not watch a projectile hitting a block (the engine game's target block reacts "
                  "to no hit)",
    "clean_armor": "the runtime does not watch an item washed in a water cauldron (dyed items and cauldron washing "
                   "are not in the engine game)",
    "clean_banner": "the runtime does not watch an item washed in a water cauldron (banner patterns and cauldron "
                    "washing are not in the engine game)",
    "clean_shulker_box": "the runtime does not watch an item washed in a water cauldron (cauldron washing is not in "
                         "the engine game)",
    "eat_cake_slice": "the runtime does not watch a slice of a placed cake eaten (the engine game's cake is a node "
                      "nothing eats)",
    # distances: the runtime measures height, depth and distance from the start, not how the player moved
    "aviate_one_cm": "the runtime does not watch a flight with an elytra (the engine game has no elytra gliding)",
    "fall_one_cm": "the runtime does not watch the distance fallen (it measures height and depth from the start "
                   "only)",
    "walk_under_water_one_cm": "the runtime does not watch a walk with the head under water (it measures distance "
                               "from the start, wherever walked)",
    "boat_one_cm": "the runtime does not watch a boat's distance or the ground under it (it measures the player's "
                   "distance from the start, however moved)",
}
"""The custom statistics of ``statistics.yaml`` no callback of the engine runtime reports, with what it lacks."""


class Compiler:
    """Compiles tasks of a library for one game (its mapping and registry are loaded once)."""

    def __init__(self, library: Any, game: str = "minetest_game") -> None:
        self.library = library
        self.kn = library.knowledge
        self.game = game
        self.mapping: GameMapping = load_mapping(game)
        self.registry: Registry = load_registry(game)
        self.settings: GameSettings = load_game_settings(game)
        self._outputs = {(r.method, r.output) for r in self.registry.recipes}
        self._placements: dict[str, list[str]] = {}
        for p in self.kn.placements:
            self._placements.setdefault(p.block, []).append(p.item)

    # --- names -----------------------------------------------------------------------------------------------

    def _note(self, name: str, kind: str) -> str:
        counterpart = self.mapping.lookup(name, kind)  # type: ignore[arg-type]
        return f" ({counterpart.note})" if counterpart is not None and counterpart.note else ""

    def _lookup(self, s: _State, name: str, kind: str) -> str | None:
        """The game name of one Minecraft name (recorded in ``names``), or None with a problem recorded."""
        counterpart = self.mapping.lookup(name, kind)  # type: ignore[arg-type]
        if counterpart is None or counterpart.to is None:
            s.problem(f"{kind} with no counterpart", name,
                      f"{name} ({kind}) has no counterpart in {self.game}{self._note(name, kind)}")
            return None
        s.names.setdefault(counterpart.to, name)
        return counterpart.to

    def _members(self, name: str) -> list[str]:
        return list(self.kn.tags.get(name[1:], [])) if name.startswith("#") else [name]

    def _lookup_all(self, s: _State, name: str, kind: str) -> dict[str, str]:
        """Minecraft name (or each member of a ``#tag``) -> game name, for those with a counterpart."""
        if not name.startswith("#"):
            found = self._lookup(s, name, kind)
            return {name: found} if found else {}
        out = {}
        for member in self._members(name):
            counterpart = self.mapping.lookup(member, kind)  # type: ignore[arg-type]
            if counterpart is not None and counterpart.to is not None:
                s.names.setdefault(counterpart.to, member)
                out[member] = counterpart.to
        if not out:
            s.problem(f"{kind} with no counterpart", name, f"no member of {name} has a counterpart in {self.game}")
        return out

    def _item_type(self, engine: str) -> str | None:
        item = self.registry.items.get(engine)
        return item.type if item else None

    def _callbacks(self, engine: str) -> set[str]:
        item = self.registry.items.get(engine)
        return set(item.callbacks) if item else set()

    def _mob(self, s: _State, name: str) -> str | None:
        counterpart = self.mapping.lookup(name, "entity")
        if counterpart is None or counterpart.to is None:
            s.problem("mob with no counterpart", name, f"{name} (mob) has no counterpart in {self.game}")
            return None
        s.names.setdefault(counterpart.to, name)
        if counterpart.supplied_by == "runtime" and counterpart.to not in s.mobs:
            s.mobs[counterpart.to] = self._mob_ir(s, name, counterpart.to)
        elif counterpart.supplied_by == "game" and counterpart.to in self.registry.entities:
            s.game_mobs.add(counterpart.to)  # the game registers it (taskverse_mc: through the mobs API)
        return counterpart.to

    def _mob_ir(self, s: _State, name: str, engine: str) -> MobIR:
        mob = self.kn.mobs.get(name)
        drops = []
        for item, chance, low, high in mob_loot(self.kn, name):
            counterpart = self.mapping.lookup(item, "item")
            if counterpart is None or counterpart.to is None:
                continue  # a drop the game has no counterpart for is left out; the mob still drops the rest
            s.names.setdefault(counterpart.to, item)
            drops.append(DropIR(name=counterpart.to, chance=max(1, round(1 / chance)), min=int(low), max=int(high)))
        hp = max(1, round(mob.health)) if mob else 10
        return MobIR(name=engine, hp=hp, texture=MOB_TEXTURES.get(name, DEFAULT_TEXTURE),
                     drops=sorted(set(drops), key=lambda d: (d.name, d.chance, d.min, d.max)))

    # --- goals -----------------------------------------------------------------------------------------------

    def goal(self, s: _State, atom_id: str, goal: Goal) -> GoalIR:
        """The goal in Minecraft names, after checking the game can observe it."""
        event = goal.event.value
        handler = getattr(self, f"_goal_{event}", None)
        targets: list[str] = []
        if handler is None:
            s.problem(f"{event} goals", goal.target, f"{event} {goal.target}: the engine runtime has no {event} goals")
        else:
            targets = handler(s, goal)
        using = None
        if goal.using is not None:
            mapped = self._lookup_all(s, goal.using, "item")
            using = sorted(mapped)
            if event == "use" and self._on_mob(goal.target):  # the mob's right-click is a use on it, too
                s.use_items.update(e for e in mapped.values() if self._callbacks(e) & USE_CALLBACKS)
            elif event == "use" and self._anvil_does(goal):  # the anvil's work calls the item's _on_used_on
                s.use_items.update(mapped.values())
            elif event == "use":
                self._use_items(s, goal.using, mapped)
        return GoalIR(event=event, targets=sorted(set(targets)), count=goal.count, using=using, value=goal.value,
                      chest=goal.chest)

    def _items_with(self, s: _State, goal: Goal, check: Any, reason: str, verb: str) -> list[str]:
        mapped = self._lookup_all(s, goal.target, "item")
        ok = {mc: engine for mc, engine in mapped.items() if check(engine)}
        if mapped and not ok:
            s.problem(reason, goal.target, f"{goal.target} cannot be {verb} in {self.game}")
        return list(ok)

    def _goal_obtain(self, s: _State, goal: Goal) -> list[str]:
        return list(self._lookup_all(s, goal.target, "item"))

    def _goal_craft(self, s: _State, goal: Goal) -> list[str]:
        made = self._anvil_work["made"]  # a rename or a combine taken from the anvil is a craft (anvil.lua)
        return self._items_with(s, goal, lambda e: ("normal", e) in self._outputs or e in made,
                                "no such recipe in the game", "crafted")

    def _goal_smelt(self, s: _State, goal: Goal) -> list[str]:
        return self._items_with(s, goal, lambda e: ("cooking", e) in self._outputs, "not cookable in the game",
                                "smelted")

    def _goal_eat(self, s: _State, goal: Goal) -> list[str]:
        return self._items_with(s, goal, lambda e: "on_use" in self._callbacks(e), "not edible in the game", "eaten")

    def _goal_equip(self, s: _State, goal: Goal) -> list[str]:
        return list(self._lookup_all(s, goal.target, "item"))

    def _goal_store(self, s: _State, goal: Goal) -> list[str]:
        """An item put into a container's slots: the game's containers (``storing.yaml``'s, with an inventory)."""
        containers = self._containers()
        if not containers:
            s.problem("store goals", goal.target, f"store {goal.target}: {self.game} has no container that stores "
                      "items (only the generated games give storing.yaml's containers an inventory)")
            return []
        for mc_name, engine in containers.items():
            s.names.setdefault(engine, mc_name)
        s.store_nodes.update(containers.values())
        return list(self._lookup_all(s, goal.target, "item"))

    def _containers(self) -> dict[str, str]:
        """Minecraft name -> game node of each container the game stores items in (generated games only)."""
        if self.game not in GENERATED_GAMES:
            return {}
        out = {}
        for name in content_storing(self.kn)["containers"]:
            counterpart = self.mapping.lookup(name.split(":", 1)[-1], "block")
            if counterpart is not None and counterpart.to is not None and self._item_type(counterpart.to) == "node":
                out[name.split(":", 1)[-1]] = counterpart.to
        return out

    def _goal_mine(self, s: _State, goal: Goal) -> list[str]:
        mapped = self._lookup_all(s, goal.target, "block")
        nodes = [mc for mc, engine in mapped.items() if self._item_type(engine) == "node"]
        if mapped and not nodes:
            s.problem("not a node in the game", goal.target, f"{goal.target} is not a block in {self.game}")
        return nodes

    def _goal_place(self, s: _State, goal: Goal) -> list[str]:
        targets = []
        for block in self._members(goal.target):
            node = self.mapping.lookup(block, "block")
            placers = []
            if node is not None and node.to is not None and self._item_type(node.to) == "node":
                s.names.setdefault(node.to, block)
                placers.append(node.to)
            for item in self._placements.get(block, []):
                counterpart = self.mapping.lookup(item, "item")
                if counterpart is not None and counterpart.to is not None:
                    s.names.setdefault(counterpart.to, item)
                    s.place_as[counterpart.to] = block
                    s.place_items.add(counterpart.to)
                    placers.append(counterpart.to)
            if placers:
                targets.append(block)
        if not targets:
            s.problem("block with no counterpart", goal.target,
                      f"nothing in {self.game} places {goal.target}{self._note(goal.target, 'block')}")
        return targets

    def _goal_kill(self, s: _State, goal: Goal) -> list[str]:
        out = []
        for mob in self._members(goal.target):
            engine = self._mob(s, mob)
            if engine is not None and (engine in s.mobs or engine in s.game_mobs):
                out.append(mob)
            elif engine is not None:
                s.problem("mob with no counterpart", mob, f"{mob} ({engine}) is not a mob that can be killed")
        return out

    def _goal_find(self, s: _State, goal: Goal) -> list[str]:
        target = goal.target
        if target in self.kn.biomes:
            biome = self.mapping.biomes.get(target)
            if biome is None or biome.to is None:
                note = f" ({biome.note})" if biome is not None and biome.note else ""
                s.problem("biome with no counterpart", target,
                          f"{target} (biome) has no counterpart in {self.game}{note}")
                return []
            for engine in biome.to:
                s.biomes[engine] = target
            return [target]
        if target in self.kn.structures:
            markers = self._structure_nodes(s, target)
            s.find_nodes.update(markers)
            return [target] if markers else []
        held = getattr(self.kn, "structure_blocks", {}).get(target)
        if held is not None:  # found where a structure's stand-in holds it (taskverse_mc), as a generated block
            mapped = self._lookup_all(s, target, "block")
            if mapped and not set(mapped.values()) & self._structure_held:
                s.problem("blocks inside structures are not generated", target, self._not_held(target, held))
                return []
            s.find_nodes.update(mapped.values())
            return list(mapped)
        if target.startswith("#") or target in self.kn.blocks:
            mapped = self._lookup_all(s, target, "block")
            s.find_nodes.update(mapped.values())
            return list(mapped)
        mob = self._mob(s, target)
        if mob is None:
            return []
        s.find_entities.add(mob)
        return [target]

    def _unrun_station(self, task_id: str) -> str | None:
        """The station the runtime does not run that every way of an atom keeps, if any.

        An anvil (``anvil.yaml``: a repair, rename or combine) in a game whose anvil does not do the atom's work (all
        but the generated games, whose anvil renames, combines and repairs: ``anvil.lua``), or, for a cut
        (``stonecutting.yaml``), a stonecutter in a game whose stonecutter node has no recipes (all but the generated
        games, whose stonecutter cuts). An atom whose goal is the station's screen opened (``interact.anvil``) needs
        none of its work: the game's anvil opens its screen.
        """
        mech = self.kn.mechanisms
        task = self.library.by_id.get(task_id)
        if mech is None or task is None or not task.requires or task.goal.event.value == "interact":
            return None
        stations = set(mech.anvil.stations)
        ways = ways_of(task)
        if all(any(n.kept and stations & set(n.any_of) for n in way) for way in ways):
            return None if self._anvil_does(task.goal) else "anvil"
        # a cut, not every atom that keeps the block: a mason's trades keep it as the villager's job site
        if task.verb == "stonecut" and task.goal.target in mech.stonecutting.ways():
            if self.game in GENERATED_GAMES and mc(task.goal.target) in self._cut_outputs:
                return None  # the generated game's stonecutter cuts it (stonecutting.lua)
            return mech.stonecutting.station
        return None

    @cached_property
    def _anvil_work(self) -> dict[str, set[str]]:
        """The generated game's anvil (``anvil.yaml``) in its names; empty sets in the other games.

        ``stations`` (its anvils), ``made`` (the named and enchanted items it gives) and ``takes`` (the items its
        work takes: those it renames, combines or repairs, a repair's materials, the enchanted book).
        """
        table = content_anvil(self.kn) if self.game in GENERATED_GAMES else {}
        works = [*table.get("renames", []), *table.get("combines", [])]
        repairs = table.get("repairs", [])
        takes = {e["item"] for e in [*works, *repairs]} | {m for e in repairs for m in e["materials"]}
        return {"stations": set(table.get("stations", [])), "made": {e["result"] for e in works},
                "takes": takes | ({table["book"]} if table.get("combines") else set())}

    def _anvil_does(self, goal: Goal) -> bool:
        """Whether the game's anvil does what a goal judges.

        It gives the named or enchanted item crafted (a rename, a combine), and every work is the anvil used holding
        an item the work took (``anvil.lua``: the one in hand, a repair's material, else the item worked on).
        """
        work = self._anvil_work
        if goal.event.value == "craft":
            return mc(goal.target) in work["made"]
        return (goal.event.value == "use" and mc(goal.target) in work["stations"] and goal.using is not None
                and mc(goal.using) in work["takes"])

    @cached_property
    def _cut_outputs(self) -> set[str]:
        """The items the generated game's stonecutter cuts (``stonecutting.yaml``), in its names."""
        table = content_stonecutting(self.kn)
        return {cut["output"] for cut in table["cuts"]} if table else set()

    def _fed_screen(self, task_id: str) -> tuple[str, list[str]] | None:
        """The block and the items a screen atom puts into it (food on a campfire), if it is such an atom."""
        mech = self.kn.mechanisms
        task = self.library.by_id.get(task_id)
        if mech is None or task is None or task.goal.event.value != "interact":
            return None
        screen = next((b for b in mech.screens.blocks if b.block == task.goal.target and
                       task.id == f"{b.verb}.{b.block}"), None)
        return (screen.block, screen.with_) if screen is not None and screen.with_ else None

    def _unwatched_statistic(self, goal: Goal) -> tuple[str, str] | None:
        """The custom statistic (``statistics.yaml``) a goal is, with what the runtime lacks to watch it, if any.

        A statistic counted on a mob's right-click (``talk.villager``) is the mob's interact event, which the runtime
        logs; the others are a movement, a hit, a wash or a distance no engine callback reports.
        """
        mech = self.kn.mechanisms
        if mech is None or goal.event.value not in ("interact", "reach"):  # reach: a distance (aviate_one_cm)
            return None
        stat = next((st.statistic for st in mech.statistics.statistics if st.goal == goal), None)
        return None if stat is None or stat not in UNWATCHED_STATISTICS else (stat, UNWATCHED_STATISTICS[stat])

    def _hooks(self, goal: Goal) -> bool:
        """Whether a goal is a mob hooked with the fishing rod (``hooking.yaml``): the rod used on the mob."""
        mech = self.kn.mechanisms
        return mech is not None and goal.event.value == "use" and goal.using == mech.hooking.rod and \
            goal.target in self.kn.mobs

    def _traps(self, goal: Goal) -> bool:
        """Whether a goal is a mob trapped in a boat (``boating.yaml``): a boat of the tag used on the mob."""
        mech = self.kn.mechanisms
        return mech is not None and goal.event.value == "use" and goal.using == "#" + mech.boating.boats and \
            goal.target in self.kn.mobs

    def _use_items(self, s: _State, name: str, mapped: dict[str, str]) -> None:
        usable = {e for e in mapped.values() if self._callbacks(e) & USE_CALLBACKS}
        if mapped and not usable:
            s.problem("nothing happens on use in the game", name, f"{name} does nothing when used in {self.game}")
        s.use_items.update(usable)

    def _on_mob(self, target: str) -> bool:
        return target in self.kn.mobs or (target in self.kn.entities and target not in self.kn.items)

    def _goal_use(self, s: _State, goal: Goal) -> list[str]:
        target = goal.target
        if self._on_mob(target):  # an item used on the mob: the runtime watches the mob's right-click
            engine = self._mob(s, target)
            if engine:
                s.use_entities.add(engine)
            return [target] if engine else []
        if goal.using is not None:  # used on a block with an item (the item is checked with `using`)
            return list(self._lookup_all(s, target, "block"))
        mapped = self._lookup_all(s, target, "item")
        # a tool is used by digging or killing with it (the runtime's dig and kill callbacks emit its use), and
        # by its own use callbacks if it has any (flint and steel)
        tools = [mc for mc, e in mapped.items() if self._item_type(e) == "tool"]
        if tools:
            s.use_items.update(e for e in mapped.values() if self._callbacks(e) & USE_CALLBACKS)
            s.game_mobs.update(self._game_registered_mobs)  # a kill with the tool is a use: any mob's death counts
            return tools
        self._use_items(s, target, mapped)
        return [mc for mc, e in mapped.items() if e in s.use_items]

    def _goal_reach(self, s: _State, goal: Goal) -> list[str]:
        target = goal.target
        if target in REACH_MEASURES:
            s.measures.add(target)
            return [target]
        if target.startswith("#") or target in self.kn.blocks:
            mapped = self._lookup_all(s, target, "block")
            s.reach_nodes.update(mapped.values())
            return list(mapped)
        s.problem("reach target the engine cannot measure", target,
                  f"reach {target}: the runtime measures only {', '.join(REACH_MEASURES)} and blocks to stand on")
        return []

    @cached_property
    def _game_registered_mobs(self) -> frozenset[str]:
        """The mobs the game registers itself (taskverse_mc's): the runtime logs their deaths only when watched."""
        return frozenset(c.to for c in self.mapping.entities.values()
                         if c.supplied_by == "game" and c.to is not None and c.to in self.registry.entities)

    def _not_held(self, target: str, held: Any) -> str:
        """Why no structure stand-in of the game holds ``target``: none of its structures placed, or not its blocks.

        A block a player makes in the structure (``uses``: the stronghold's end portal, opened by twelve eyes in the
        portal room's frames) says so, as the compiled find plans no such use.
        """
        placed = [s for s in held.structures if self._placed(s)]
        if not placed:
            return (f"{target} is generated only inside {', '.join(held.structures)}, which {self.game} "
                    "does not generate")
        used = ", ".join(f"{n} {item}" for item, n in sorted((held.uses or {}).items()))
        made = f": it appears there only once a player uses {used}, which a compiled find does not plan" if used else ""
        return f"{target} is not among the blocks {self.game}'s stand-in of {', '.join(placed)} holds{made}"

    @cached_property
    def _structure_held(self) -> frozenset[str]:
        """Game nodes the map generator places with structures' stand-ins."""
        return frozenset(stand_in_nodes(self.registry, {structure_node(name) for name in self.kn.structures}))

    def _placed(self, structure: str) -> bool:
        node = structure_node(structure)
        return any(node in (*d.decoration, *d.schematic_nodes) for d in self.registry.decorations)

    def _structure_nodes(self, s: _State, structure: str) -> list[str]:
        """The marker nodes of a structure the game's map generator places (and its looted form), or a problem.

        taskverse_mc places a stand-in of most structures (:func:`taskverse.engine.gamegen.content.structures`):
        a marker node the runtime watches, logged under the structure's name.
        """
        node = structure_node(structure)
        if not self._placed(structure):
            s.problem("structures are not generated", structure,
                      f"{self.game} does not generate {structure}")
            return []
        markers = [n for n in (node, structure_node(structure, looted=True)) if n in self.registry.items]
        for marker in markers:
            s.names.setdefault(marker, structure)
        return markers

    def _chest_kinds(self, structure: str) -> dict[str, str]:
        """The game's chests of a structure's further kinds (and their looted forms) -> the kind (``library``).

        taskverse_mc's stand-in holds one of each kind ``structure_loot.yaml`` names beside its marker
        (:func:`taskverse.engine.gamegen.content.structures`); a game without them has none.
        """
        mechanisms = self.kn.mechanisms
        kinds = [t.chest for t in mechanisms.structure_loot.kinds() if t.structure == structure] if mechanisms else []
        return {node: str(kind) for kind in kinds for looted in (False, True)
                if (node := structure_node(structure, looted, kind)) in self.registry.items}

    def _goal_interact(self, s: _State, goal: Goal) -> list[str]:
        target = goal.target
        if target == "death":
            s.death = True
            return [target]
        if target in self.kn.structures:  # a structure's chest opened (loot.<structure>, loot.stronghold.library)
            markers = self._structure_nodes(s, target)
            if not markers:
                return []
            kinds = self._chest_kinds(target)
            if goal.chest is not None and goal.chest not in kinds.values():
                s.problem("no chest of the kind in the structure's stand-in", target, f"{goal.describe()}: "
                          f"{self.game}'s stand-in of a {target} holds no {goal.chest} chest")
                return []
            # a goal naming no kind counts any chest of the structure opened (Minecraft's loot.stronghold, a
            # library's too), one naming a kind only that kind, as the event of opening it names its kind
            s.interact_nodes.update(markers)
            s.interact_nodes.update(kinds)
            s.chests.update(kinds)
            for node in kinds:
                s.names.setdefault(node, target)
            return [target]
        if target.startswith("#") or target in self.kn.blocks:
            mapped = self._lookup_all(s, target, "block")
            s.interact_nodes.update(e for e in mapped.values() if self._item_type(e) == "node")
            return [mc for mc, e in mapped.items() if self._item_type(e) == "node"]
        counterpart = self.mapping.lookup(target, "entity") or self.mapping.lookup(target, "item")
        if counterpart is not None and counterpart.to is not None and \
                (counterpart.supplied_by == "runtime" or counterpart.to in self.registry.entities):
            engine = self._mob(s, target) if counterpart.supplied_by == "runtime" else counterpart.to
            if engine is not None:
                s.names.setdefault(engine, target)
                s.interact_entities.add(engine)
                return [target]
        s.problem("interact target the engine cannot observe", target,
                  f"interact with {target}: {self.game} has no block or entity for it to watch")
        return []

    def _goal_build(self, s: _State, goal: Goal) -> list[str]:
        shape = BUILD_SHAPES.get(goal.target)
        if shape is None:
            s.problem("build shape the runtime does not know", goal.target,
                      f"build {goal.target}: the runtime recognises only {', '.join(sorted(BUILD_SHAPES))}")
            return []
        s.builds[goal.target] = BuildIR(name=goal.target, **shape)
        return [goal.target]

    def _goal_enter(self, s: _State, goal: Goal) -> list[str]:
        if goal.target in self.settings.dimensions or (self.settings.dimensions and goal.target == "overworld"):
            return [goal.target]
        s.problem("other dimensions (nether, end)", goal.target, f"{self.game} has only the overworld")
        return []

    # --- constraints and the expression ----------------------------------------------------------------------

    def constraint(self, s: _State, c: Constraint) -> ConstraintIR:
        """A constraint as the runtime checks it; unsupported parts become problems."""
        fields: dict[str, Any] = {}
        if c.when is not None:
            if c.when.value in ("rain", "thunder"):
                s.problem("weather (rain, thunder)", c.when.value,
                          f"when={c.when.value}: {self.game} has no weather (it never rains)")
            fields["when"] = c.when.value
        if c.where is not None:
            where = c.where
            fields["where"] = where
            if where in ("overworld", "nether", "end"):
                if where != "overworld" and where not in self.settings.dimensions:
                    s.problem("other dimensions (nether, end)", where, f"where={where}: {self.game} has only the "
                              "overworld")
                fields["where_kind"] = "dimension"
            elif where == "cave":
                fields["where_kind"] = "cave"
            elif where.startswith("height:"):
                fields["where_kind"] = "height"
                fields["low"], fields["high"] = height_range(where)
            else:
                fields["where_kind"] = "biome"
                biome = self.mapping.biomes.get(where)
                if biome is None or biome.to is None:
                    s.problem("biome with no counterpart", where, f"where={where}: {where} (biome) has no "
                              f"counterpart in {self.game}")
                else:
                    for engine in biome.to:
                        s.biomes[engine] = where
        if c.how is not None:
            fields["how"] = c.how
            if c.how == "arrows":
                s.problem("ranged weapons (arrows)", "arrows", f"how=arrows: {self.game} has no bows or arrows")
            elif c.how.startswith("with:"):
                fields["how_items"] = sorted(self._lookup_all(s, c.how[5:], "item"))
        return ConstraintIR(**fields)

    def expression(self, s: _State, node: Any, goals: dict[str, GoalIR], own: dict[str, Goal]) -> ExprIR:
        """The expression in the runtime's form, compiling each atom's goal once.

        ``own`` holds goals of atoms that are not in the library, such as an atom read from a YAML file.
        """
        if isinstance(node, AtomRef):
            if node.task not in goals:
                goal = own[node.task] if node.task in own else self.library.by_id[node.task].goal
                station = self._unrun_station(node.task)
                if station == "anvil" and self.game in GENERATED_GAMES:
                    s.problem("no anvil in the game", "anvil", f"{node.task} is done at an anvil, and {self.game}'s "
                              f"anvil does not do what its goal judges ({goal.event.value} {goal.target}"
                              f"{f' using {goal.using}' if goal.using else ''}): it gives a named or enchanted item "
                              "crafted, and is used holding an item its work takes")
                elif station == "anvil":
                    s.problem("no anvil in the game", "anvil", f"{node.task} is done at an anvil, which the engine "
                              "runtime does not run (no repair, rename or enchanted book in the game)")
                elif station is not None:
                    s.problem("no stonecutter recipes in the game", station, f"{node.task} is done at a stonecutter, "
                              f"which the engine runtime does not run (the {self.game} stonecutter cuts nothing)")
                fed = self._fed_screen(node.task)
                if fed is not None:
                    s.problem("the block takes nothing in the game", fed[0], f"{node.task} puts "
                              f"{' or '.join(fed[1])} into the {fed[0]}, which the engine game's {fed[0]} does not "
                              "take (the game has no campfire cooking and no books on lecterns)")
                if station is not None or fed is not None:
                    goals[node.task] = GoalIR(event=goal.event.value, targets=[], count=goal.count)
                elif self._hooks(goal):
                    s.problem("no fishing hook in the game", goal.target, f"{node.task} hooks a mob with a fishing "
                              "rod's bobber, which the engine game does not have (a rod right-clicked on a mob "
                              "does nothing there)")
                    goals[node.task] = GoalIR(event=goal.event.value, targets=[], count=goal.count)
                elif self._traps(goal):
                    # a right-click with the boat would be logged as its use on the mob, but seats nothing
                    s.problem("no mob rides a boat in the game", goal.target, f"{node.task} traps a mob in a boat, "
                              "which the engine game does not do (its boats seat only a player; the runtime's mobs "
                              "ride nothing)")
                    goals[node.task] = GoalIR(event=goal.event.value, targets=[], count=goal.count)
                elif (unwatched := self._unwatched_statistic(goal)) is not None:
                    s.problem("custom statistic the runtime does not watch", goal.target,
                              f"{node.task} is counted by the game's {unwatched[0]} statistic: {unwatched[1]}")
                    goals[node.task] = GoalIR(event=goal.event.value, targets=[], count=goal.count)
                else:
                    goals[node.task] = self.goal(s, node.task, goal)
            return AtomIR(atom=node.task)
        if isinstance(node, AllOf | AnyOf | Then):
            op: Literal["all", "any", "then"] = "all" if isinstance(node, AllOf) else \
                "any" if isinstance(node, AnyOf) else "then"
            return GroupIR(op=op, parts=[self.expression(s, p, goals, own) for p in node.parts])
        if isinstance(node, AtLeast):
            return GroupIR(op="at_least", count=node.count,
                           parts=[self.expression(s, p, goals, own) for p in node.parts])
        if isinstance(node, Repeat):
            return RepeatIR(times=node.times, part=self.expression(s, node.part, goals, own))
        if isinstance(node, Amount):
            return AmountIR(count=node.count, part=self.expression(s, node.part, goals, own))
        if isinstance(node, Avoid):
            return NotIR(part=self.expression(s, node.part, goals, own))
        if isinstance(node, Within):
            return WithinIR(ticks=node.ticks, part=self.expression(s, node.part, goals, own))
        if isinstance(node, Constrained):
            return ConstrainedIR(part=self.expression(s, node.part, goals, own),
                                 constraint=self.constraint(s, node.constraint))
        if isinstance(node, Initialized):
            return InitializedIR(part=self.expression(s, node.part, goals, own))
        raise TypeError(f"not a task expression: {node!r}")

    # --- the start -------------------------------------------------------------------------------------------

    def _alternative(self, name: str, kind: str, alternatives: dict[str, list[str]]) -> str:
        """A stand-in with a counterpart for a starting item or block that has none, from the same need.

        An atom's start holds one choice per need (``bamboo`` for "2 of any planks"); when the game lacks that
        choice, another member of the need does the same job (oak first, then in order).
        """
        own = self.mapping.lookup(name, kind)  # type: ignore[arg-type]
        if own is not None and own.to is not None:
            return name
        options = [o for o in alternatives.get(name, [])
                   if (c := self.mapping.lookup(o, kind)) and c.to]  # type: ignore[arg-type]
        options = sorted(options, key=lambda o: not o.startswith("oak_"))  # stable: oak first, then in order
        return options[0] if options else name

    def _structure_alternative(self, structure: str, requires: list[Any]) -> str:
        """Another structure of the atom's ways for a start at one the game does not place, if there is one.

        A block several structures hold is found at any of them (``find.chest`` starts at an ancient city, the first
        of its ways; taskverse_mc places none, but a desert pyramid holds a chest too): the start is at one of the
        others, as a starting item with no counterpart is replaced by another member of its need.
        """
        if self._placed(structure):
            return structure
        others = sorted({m for way in requires for need in (way.needs if isinstance(way, WaySpec) else way)
                         if need.kind == ResourceKind.STRUCTURE for m in need.any_of if self._placed(m)})
        return others[0] if others else structure

    def init(self, s: _State, init: Initialization, requires: list[list[Any]] | None = None) -> InitIR:
        """The start in game names; what the game lacks becomes problems (unneeded things are left out)."""
        alternatives: dict[str, list[str]] = {}
        for way in requires or []:
            for need in (way.needs if isinstance(way, WaySpec) else way):  # a way with its own yields
                for member in need.any_of:
                    alternatives.setdefault(member, list(need.any_of))
        inventory: dict[str, int] = {}
        experience: dict[str, int] = {}
        for item, count in init.inventory.items():
            if item.startswith(VILLAGER_XP_PREFIX) and item[len(VILLAGER_XP_PREFIX):] in self._professions:
                experience[item[len(VILLAGER_XP_PREFIX):]] = count  # the summoned villagers' (trading.lua)
                continue
            counterpart = self.mapping.lookup(item, "item")
            if counterpart is not None and counterpart.to is None and not counterpart.needed:
                continue
            item = self._alternative(item, "item", alternatives)
            engine = self._lookup(s, item, "item")
            if engine is not None:
                inventory[engine] = inventory.get(engine, 0) + count
        wield = self._lookup(s, init.main_hand, "item") if init.main_hand else None
        if init.equipment:
            s.problem("equipment slots (armor)", ", ".join(sorted(init.equipment.values())),
                      f"{self.game} has no armor or equipment slots")
        position = list(init.position) if init.position is not None else None
        dimension = init.dimension.value
        if dimension != "overworld" and dimension not in self.settings.dimensions:
            s.problem("other dimensions (nether, end)", dimension,
                      f"starts in the {dimension}: {self.game} has only the overworld")
        elif dimension != "overworld":
            position = [0.0, float(self.settings.dimensions[dimension].floor + 1), 0.0]  # on the cavern's floor
        if init.structure is not None:  # a structure the game places: the scripted player travels to one
            self._structure_nodes(s, self._structure_alternative(init.structure, requires or []))
        biomes = None
        if init.biome is not None and dimension != "overworld" and dimension in self.settings.dimensions:
            s.problem("a start in a biome of another dimension", init.biome,
                      f"starts in {init.biome} in the {dimension}: the runtime finds biomes on the overworld's ground")
        elif init.biome is not None:
            biome = self.mapping.biomes.get(init.biome)
            if biome is None or biome.to is None:
                note = f" ({biome.note})" if biome is not None and biome.note else ""
                s.problem("biome with no counterpart", init.biome,
                          f"starts in {init.biome} (biome), which has no counterpart in {self.game}{note}")
            else:
                biomes = list(biome.to)
                for engine in biome.to:
                    s.biomes[engine] = init.biome
        if init.weather is not None and init.weather.value != "clear":
            s.problem("weather (rain, thunder)", init.weather.value,
                      f"starts in {init.weather.value}: {self.game} has no weather (it never rains)")
        nearby = []
        for block, count in init.nearby_blocks.items():
            engine = self._lookup(s, self._alternative(block, "block", alternatives), "block")
            if engine is not None:
                nearby.append(StackIR(name=engine, count=count))
        summon = []
        for entry in init.summon:
            engine = self._mob(s, entry.entity)
            if engine is not None:
                summon.append(StackIR(name=engine, count=entry.count))
        return InitIR(
            inventory=[StackIR(name=n, count=c) for n, c in sorted(inventory.items())],
            wield=wield, biomes=biomes, position=position,
            time=TIMES_OF_DAY[init.time.value] if init.time is not None else None,
            nearby=sorted(nearby, key=lambda x: x.name), summon=sorted(summon, key=lambda x: x.name),
            experience=dict(sorted(experience.items())) or None,
        )

    @cached_property
    def _professions(self) -> set[str]:
        """The villager professions whose levels the game runs (taskverse_mc's trading); none elsewhere."""
        if self.game not in GENERATED_GAMES:
            return set()
        return {p["profession"] for p in content_trading(self.kn)["professions"]}

    def _check_mobs_present(self, s: _State, goals: dict[str, GoalIR], init: InitIR) -> None:
        """Runtime mobs exist only where the start summons them (they never spawn by themselves)."""
        summoned = {stack.name for stack in init.summon}
        for goal in goals.values():
            if goal.event not in ("kill", "find"):
                continue
            mobs = {e for e, mc in s.names.items() if mc in goal.targets and (e in s.mobs or e in s.game_mobs)}
            if mobs and not mobs & summoned:
                s.problem("mobs are only summoned, never spawned", ", ".join(goal.targets),
                          f"{goal.event} {', '.join(goal.targets)}: the runtime's mobs do not spawn by "
                          "themselves and the start summons none")

    # --- the whole task --------------------------------------------------------------------------------------

    def problems(self, task: Any) -> list[Problem]:
        """Everything the game lacks for the task (empty when it compiles)."""
        return self._compile(task)[1]

    def compile(self, task: Any) -> TaskIR:
        """The task's intermediate form; raises :class:`CompileError` naming everything the game lacks."""
        ir, problems = self._compile(task)
        if problems or ir is None:
            raise CompileError(task.id, self.game, problems)
        return ir

    def _compile(self, task: Any) -> tuple[TaskIR | None, list[Problem]]:
        # every game biome with a counterpart, so the event log names biomes in Minecraft's words
        s = _State(biomes=dict(self.mapping.biome_names()))
        molecule = getattr(task, "kind", "atom") == "molecule"
        expr = task.expression if molecule else AtomRef(task=task.id)
        own = {} if molecule else {task.id: task.goal}
        goals: dict[str, GoalIR] = {}
        expression = self.expression(s, expr, goals, own)
        # a start holds one choice per need of each atom: the atoms' needs say what else would do
        requires = [way for atom in atoms_of(expr) for way in
                    ((task if atom == task.id and not molecule else self.library.by_id[atom]).requires or [])]
        init = self.init(s, task.initialization, requires)
        self._check_mobs_present(s, goals, init)
        if s.problems:
            return None, s.problems
        mobs = [s.mobs[name] for name in sorted(s.mobs)]
        settings = {k: v for k, v in self.registry.game.settings.items() if k != "mg_name"}
        ir = TaskIR(
            id=task.id, description=task.description, game=self.game, expression=expression,
            goals=dict(sorted(goals.items())), init=init,
            names=dict(sorted(s.names.items())), biomes=dict(sorted(s.biomes.items())),
            place_as=dict(sorted(s.place_as.items())), mobs=mobs,
            trackers=TrackersIR(
                find=FindIR(nodes=sorted(s.find_nodes), entities=sorted(s.find_entities)),
                reach=ReachIR(measures=sorted(s.measures), nodes=sorted(s.reach_nodes)),
                use=UseIR(items=sorted(s.use_items), entities=sorted(s.use_entities)),
                place=ItemsIR(items=sorted(s.place_items)),
                interact=InteractIR(nodes=sorted(s.interact_nodes), entities=sorted(s.interact_entities),
                                    chests=dict(sorted(s.chests.items())) or None,
                                    death=s.death),
                builds=[s.builds[name] for name in sorted(s.builds)],
                kill=ItemsIR(items=sorted(s.game_mobs)),
                store=ItemsIR(items=sorted(s.store_nodes)),
            ),
            mods=sorted({*self.settings.enable_mods, *(["mobs"] if mobs else [])}),
            dimensions={name: DimensionIR(y_min=d.y_min, y_max=d.y_max, floor=d.floor)
                        for name, d in sorted(self.settings.dimensions.items())} or None,
            settings=dict(sorted(settings.items())),
        )
        return ir, []


def mob_loot(kn: Any, name: str) -> list[tuple[str, float, int, int]]:
    """A mob's drops in Minecraft names: (item, chance, fewest, most), from the knowledge's loot and extra drops.

    The runtime's mobs (minetest_game) and the generated game's (taskverse_mc) drop these, mapped to the game.
    """
    mob = kn.mobs.get(name)
    loot = [(d["item"], d.get("chance", 1.0), d.get("min", 1), d.get("max", 1)) for d in kn.entity_loot.get(name, [])]
    loot += [(d.item, d.chance, d.count, d.count) for d in (mob.extra_drops if mob else [])]
    return loot


def compile_task(task: Any, library: Any | None = None, game: str = "minetest_game") -> TaskIR:
    """Compile one task (atom or molecule) for a game; raises :class:`CompileError` when the game lacks a part."""
    if library is None:
        from taskverse.library.loader import load_library

        library = load_library()
    return Compiler(library, game).compile(task)


def reasons(problems: Iterable[Problem]) -> list[str]:
    """The distinct reasons of some problems, in first-seen order."""
    return list(dict.fromkeys(p.reason for p in problems))

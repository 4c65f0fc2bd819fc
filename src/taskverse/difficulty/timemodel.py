"""How long one run of an atom's own action takes, in frames, and what its actions look like (a named estimate).

Time consumption is measured in frames (20 a second, one per game tick). Where a task has no exemplar
trajectories, the difficulty module adds up the frames of an estimated optimal plan; this module gives the frames
of one run of each atom's own action, grounded in the game facts of the knowledge files:

* breaking a block (Java 1.20, ``tool_tiers.yaml``): ``ceil(30 * hardness / speed)`` ticks with the right tool
  (or for a block that needs none), ``ceil(100 * hardness / speed)`` without it; speed is the tier's multiplier
  for a tool of the block's kind, shears and swords on their blocks, and 1 by hand;
* smelting: 200 ticks per item, plus putting the furnace down and loading it;
* crafting: opening the grid plus a move per filled cell;
* killing: the mob's health divided by the damage of the weapon held, one hit per attack cooldown, plus
  approaching (a fleeing animal is chased);
* finding: walking to where the thing occurs (see ``find_frames``), at 4.317 blocks a second;
* waiting for the world (copper weathering, eggs hatching, a thunderstorm): the mechanism tables' ticks
  (``knowledge.mechanisms``), plus a use; the weather's wait is ``WAIT_FOR_WEATHER``;
* the rest (placing, eating, equipping, using, building, travelling, waiting) from the constants below.

Each action also has a synthetic action sequence (``motif``) of about the same length, made of verb-specific
patterns: travel is long runs of ``forward``, combat a varied mix of attacks, strafes and jumps, waiting is
``noop``. Its permutation entropy is the operational-effort proxy.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from taskverse.difficulty.entropy import DEFAULT_D, PatternSummary
from taskverse.difficulty.trajectories import ACTION_CODE
from taskverse.knowledge.facts import Knowledge
from taskverse.schema import AtomTask, Event, ResourceKind
from taskverse.world.graph import ways_of

TICKS_PER_SECOND = 20
WALK_FRAMES_PER_BLOCK = TICKS_PER_SECOND / 4.317  # walking speed 4.317 blocks/s
SWIM_FRAMES_PER_BLOCK = TICKS_PER_SECOND / 2.2  # swimming on the surface, about 2.2 blocks/s
BOAT_FRAMES_PER_BLOCK = TICKS_PER_SECOND / 8.0  # a boat on open water, about 8 blocks/s
CLIMB_FRAMES_PER_LEVEL = 15  # jumping up one block and walking on, on a mountain side
CAVE_FRAMES_PER_LEVEL = 10  # descending through caves: about two blocks of path per level
SURFACE_Y = 64  # sea level: where a random spawn stands

MINE_OVERHEAD = 20  # walk up to the block, aim, pick up the drop
CRAFT_OPEN = 20  # open the inventory or the crafting table
CRAFT_PER_CELL = 10  # move one ingredient into a grid cell
CRAFT_TAKE = 10  # take the result
SMELT_TICKS = 200  # furnace ticks per smelted item (Java 1.20)
SMELT_SETUP = 60  # put the furnace down, load input and fuel, take the output
PLACE_FRAMES = 10  # select and place one block or item
BUILD_PLACE_FRAMES = 15  # place one block of a structure (aim at the right cell)
BUILD_PLAN_FRAMES = 200  # choose the site and walk around the structure
EAT_FRAMES = 40  # 32 ticks eating plus selecting the food
EQUIP_FRAMES = 40  # open the inventory and move the item to its slot
USE_FRAMES = 40  # select the item and use it on its target
PORTAL_WAIT = 80  # ticks standing in a nether portal before it takes the player
END_PORTAL_JUMP = 60  # walk to the end portal and jump in

FIND_LOOK_AROUND = 200  # frames to look around and spot something in view
FIND_COMMON_WALK = 64  # blocks walked to reach something that occurs everywhere
BIOME_SPAN = 150  # blocks: typical distance between biomes of one kind when every biome is that kind
STRUCTURE_WALK = 400  # blocks: typical distance to a world feature without a structure set (dungeon, well)
BLOCKS_PER_CHUNK = 16
UNDERGROUND_SEARCH = 1200  # frames searching the right depth for a block (strip mining or caves)

APPROACH_FRAMES = {"hostile": 60, "neutral": 100, "passive": 200, "boss": 600}  # reach the mob; animals flee
HAND_DAMAGE, HAND_COOLDOWN = 1.0, 5.0  # a fist: 1 damage, attack speed 4/s
SWORD_DAMAGE = {"wooden": 4.0, "golden": 4.0, "stone": 5.0, "iron": 6.0, "diamond": 7.0, "netherite": 8.0}
SWORD_COOLDOWN = 12.5  # swords: attack speed 1.6/s
WAIT_FOR_NIGHT = 4083  # expected ticks from a random time until night (10,000 of 24,000 ticks are night)
WAIT_FOR_DAY = 3000  # expected ticks from a random time until day (half the cycle)
WAIT_FOR_WEATHER = 48000  # rough expected ticks until rain (clear spells last 12,000-180,000 ticks)

INTERACT_FRAMES = {
    "sky": 20, "inventory": 10, "jump": 10, "sneak": 20, "sprint": 60, "drop": 10, "death": 600,
    "day_survived": 24000, "night_survived": 10000,
    # a catch (statistics.yaml's fish.open_water): a bite 100 to 600 ticks after the cast at no Lure, the fish's
    # approach 20 to 80 more (FishingHook.catchingFish; Minecraft Wiki, Fishing): 400 on average
    "fish_caught": 400,
}
"""Frames of the misc atoms whose goal is an event on the agent itself; other interactions take USE_FRAMES."""

REACH_DEFAULTS: dict[str, tuple[str, float]] = {
    # target: (how the agent moves, distance in blocks when the goal gives no value)
    "distance": ("walk", 100), "world_spawn": ("walk", 200), "goal_location": ("walk", 200),
    "opposite_bank": ("boat", 30), "#leaves": ("climb", 8), "height": ("climb", 50), "surface": ("climb", 40),
    "depth": ("dig", 30), "y_level": ("dig", 60), "horizontal_distance": ("tunnel", 20),
    "underwater_depth": ("swim", 5), "swim_distance": ("swim", 10),
    # the custom statistics' distances (statistics.yaml); a fall and an elytra flight are timed as a walk
    "underwater_distance": ("swim", 10), "boat_distance": ("boat", 30),
}


def _shears_speeds() -> dict[str, float]:
    """Shears' mining speeds by block kind, as ``tool_tiers.yaml`` notes them (``speed_<kind>``)."""
    from taskverse.paths import knowledge_dir
    from taskverse.yamlio import read_yaml

    data = read_yaml(knowledge_dir() / "curated" / "tool_tiers.yaml")
    shears = data.get("shears") or {} if isinstance(data, dict) else {}
    return {key[len("speed_"):]: float(value) for key, value in shears.items() if key.startswith("speed_")}


def _codes(*names: str) -> tuple[int, ...]:
    return tuple(ACTION_CODE[n] for n in names)


def _run(name: str, times: int) -> tuple[int, ...]:
    return (ACTION_CODE[name],) * max(0, times)


WALK = _run("forward", 15) + _codes("camera_left") + _run("forward", 12) + _codes("jump") + _run("forward", 8) \
    + _codes("camera_right")
SWIM = _codes("forward", "jump", "forward", "forward", "jump", "forward", "camera_left", "forward", "jump")
CLIMB = _codes("forward", "jump", "forward", "forward", "jump", "camera_up", "forward", "jump", "camera_down")
COMBAT = _codes("forward", "attack", "left", "attack", "jump", "camera_left", "attack", "back", "right", "attack",
                "camera_right", "sprint", "forward", "attack", "jump", "attack")
CHASE = _codes("sprint", "forward", "forward", "forward", "camera_left", "forward", "forward", "jump",
               "forward", "camera_right", "forward", "forward")
BUILD = _codes("hotbar", "camera_right", "use", "back", "camera_up", "use", "jump", "use", "left", "camera_down",
               "use", "sneak", "camera_left", "use", "right", "use")
CELL = _run("camera_right", 3) + _run("camera_down", 2) + _codes("use") + _run("camera_left", 2) \
    + _codes("camera_up", "noop")
PLACE = _codes("hotbar") + _run("camera_down", 3) + _codes("use") + _run("camera_up", 3) + _run("noop", 2)
USE = _codes("hotbar") + _run("forward", 8) + _run("camera_down", 3) + _run("use", 20) + _run("camera_up", 3) \
    + _run("back", 5)
EQUIP = _codes("inventory") + _run("camera_right", 8) + _run("camera_down", 6) + _codes("attack") \
    + _run("camera_up", 6) + _run("camera_left", 8) + _run("noop", 9) + _codes("inventory")
SURVIVE = _run("noop", 40) + _codes("camera_left") + _run("noop", 30) + _codes("attack", "back", "camera_right")


@dataclass(frozen=True)
class Action:
    """One run of an atom's own action: its frames and its synthetic action sequence."""

    frames: float
    motif: PatternSummary


class ActionModel:
    """Frames and synthetic actions of atoms' own actions, from the game knowledge (memoised)."""

    def __init__(self, kn: Knowledge, d: int = DEFAULT_D) -> None:
        self.kn = kn
        self.d = d
        self._memo: dict[tuple[str, str | None, str | None], Action] = {}
        self._tiers = {item: tier for tier in kn.tool_tiers for item in tier.items}
        self._shears_speed = _shears_speeds()
        self._overworld_biomes = [b for b, v in kn.biomes.items() if v["dimension"] == "overworld"]
        self._waits = kn.mechanisms.waits() if kn.mechanisms is not None else {}

    def action(self, task: AtomTask, held: str | None = None, forced: str | None = None) -> Action:
        """One run of the task's own action.

        Args:
            task: The atom.
            held: The item the initialization puts in hand; used where it is the right tool or weapon.
            forced: ``bare_hand`` or an item the action must be done with (a ``how`` constraint).

        """
        key = (task.id, held, forced)
        found = self._memo.get(key)
        if found is None:
            frames, pieces = self._estimate(task, held, forced)
            motif = PatternSummary.empty(self.d)
            for piece, times in pieces:
                if times > 0 and piece:
                    motif = motif + PatternSummary.of(piece, self.d).repeat(times)
            found = self._memo[key] = Action(frames, motif)
        return found

    def wait_motif(self, frames: float) -> PatternSummary:
        """The synthetic actions of waiting ``frames`` frames (standing still)."""
        if frames <= 0:
            return PatternSummary.empty(self.d)
        return PatternSummary.of(_run("noop", 1), self.d).repeat(round(frames))

    # -- per verb -------------------------------------------------------------------------------------------------

    def _estimate(self, task: AtomTask, held: str | None, forced: str | None,
                  ) -> tuple[float, list[tuple[tuple[int, ...], int]]]:
        goal = task.goal
        event = goal.event
        count = goal.count
        tool = None if forced == "bare_hand" else forced
        if task.id in self._waits:  # the world does the work: a use, then waiting for it
            ticks, weather = self._waits[task.id]
            frames = USE_FRAMES + ticks + (WAIT_FOR_WEATHER if weather is not None else 0)
            return frames, [(USE, 1), (_run("noop", 1), round(frames - USE_FRAMES))]
        if event == Event.MINE:
            block = self._block_of(task)
            if forced is None:
                tool = held if held is not None and self._suits(block, held) else self.default_tool(block, task)
            ticks = self.break_ticks(block, tool)
            if math.isinf(ticks):
                return math.inf, []
            frames = count * (MINE_OVERHEAD + ticks)
            piece = _run("forward", MINE_OVERHEAD - 5) + _codes("camera_down") + _run("attack", int(ticks)) \
                + _run("forward", 4)
            return frames, [(piece, count)]
        if event == Event.CRAFT:
            cells = self.cells(task)
            frames = CRAFT_OPEN + CRAFT_PER_CELL * cells + CRAFT_TAKE
            return frames, [(_codes("inventory", "camera_down"), 1), (CELL, cells), (_codes("attack", "inventory"), 1)]
        if event == Event.SMELT:
            frames = SMELT_SETUP + SMELT_TICKS * count
            return frames, [(_codes("hotbar", "use", "use", "camera_down", "attack", "camera_up", "attack"), 1),
                            (_run("noop", SMELT_TICKS), count), (_codes("attack", "inventory"), 1)]
        if event == Event.KILL:
            return self._kill(task, tool if forced is not None else self.weapon(task, held))
        if event == Event.FIND:
            frames = self.find_frames(task)
            return frames, [(_codes("camera_left", "camera_right"), 1), (WALK, round(frames / len(WALK)))]
        if event == Event.PLACE:
            return PLACE_FRAMES * count, [(PLACE, count)]
        if event == Event.EAT:
            return EAT_FRAMES * count, [(_codes("hotbar") + _run("use", EAT_FRAMES - 1), count)]
        if event == Event.EQUIP:
            return EQUIP_FRAMES, [(EQUIP, 1)]
        if event == Event.BUILD:
            blocks = sum(task.initialization.inventory.values()) or 10
            frames = BUILD_PLAN_FRAMES + BUILD_PLACE_FRAMES * blocks
            return frames, [(WALK, round(BUILD_PLAN_FRAMES / len(WALK))),
                            (BUILD, round(BUILD_PLACE_FRAMES * blocks / len(BUILD)))]
        if event == Event.ENTER:
            placed = sum(task.initialization.inventory.values())
            wait = END_PORTAL_JUMP if goal.target == "end" else PORTAL_WAIT
            return PLACE_FRAMES * placed + wait, [(BUILD, round(PLACE_FRAMES * placed / len(BUILD))),
                                                  (_run("noop", wait), 1)]
        if event == Event.REACH:
            return self._reach(task, tool if forced is not None else held or task.initialization.main_hand)
        if event == Event.INTERACT and goal.target in INTERACT_FRAMES:
            frames = INTERACT_FRAMES[goal.target] * count
            if frames >= 1000:  # surviving: waiting, looking out, now and then a fight
                return frames, [(SURVIVE, round(frames / len(SURVIVE)))]
            gesture = {"sky": _run("camera_up", 20), "jump": _run("jump", 10), "sneak": _run("sneak", 20),
                       "sprint": _run("sprint", 60), "drop": _codes("hotbar", "drop") + _run("noop", 8),
                       "inventory": _codes("inventory") + _run("noop", 9),
                       "fish_caught": _codes("use") + _run("noop", 398) + _codes("use")}.get(goal.target)
            if gesture is None:  # dying on purpose: walking into danger, then taking the blows
                return frames, [(WALK, round(frames / 2 / len(WALK))), (COMBAT, round(frames / 2 / len(COMBAT)))]
            return frames, [(gesture, count)]
        if event in (Event.USE, Event.INTERACT):
            return USE_FRAMES * count, [(USE, count)]
        if task.verb != "obtain":  # an obtain goal reached by acting (fishing, collecting, smithing)
            return USE_FRAMES * count, [(USE, count)]
        return 0.0, []  # obtain: the work is in getting the item (the plan's pre-tasks)

    def _block_of(self, task: AtomTask) -> str:
        target = task.goal.target
        if target in self.kn.blocks:
            return target
        for way in ways_of(task) if task.requires is not None else []:
            for need in way:
                if need.kind == ResourceKind.BLOCK:
                    return sorted(need.any_of, key=lambda b: self.kn.blocks.get(b, {}).get("hardness", 0))[0]
        return target

    def default_tool(self, block: str, task: AtomTask) -> str | None:
        """The tool a plan mines ``block`` with: the task's own tool, else the cheapest that harvests it."""
        if task.goal.using and not task.goal.using.startswith("#"):
            return task.goal.using
        if task.initialization.main_hand:
            return task.initialization.main_hand
        tools = self.kn.blocks.get(block, {}).get("harvest_tools") or []
        tiered = [t for t in tools if t in self._tiers]
        if tiered:
            return min(tiered, key=lambda t: (self._tiers[t].level, -self._tiers[t].durability))
        return tools[0] if tools else None

    def break_ticks(self, block: str, tool: str | None) -> float:
        """Ticks to break ``block`` holding ``tool`` (None: bare hand); inf for unbreakable blocks."""
        data = self.kn.blocks.get(block)
        if data is None:
            return 1.0
        tool = None if tool is None else self.kn.base_item(tool)  # an enchanted tool mines as its tool does
        hardness = float(data.get("hardness") or 0.0)
        if hardness < 0:
            return math.inf
        if hardness == 0:
            return 1.0
        needed = data.get("harvest_tools") or []
        right = not needed or (tool is not None and tool in needed)
        speed = self._speed(block, data.get("material") or "", tool)
        return float(math.ceil((30 if right else 100) * hardness / speed))

    def _speed(self, block: str, material: str, tool: str | None) -> float:
        if tool is None:
            return self.kn.hand_speed
        tier = self._tiers.get(tool)
        if tier is not None:
            kind = tool.rsplit("_", 1)[-1]
            if f"mineable/{kind}" in material:
                return tier.speed
            if kind == "sword" and block == "cobweb":
                return 15.0
            return self.kn.hand_speed
        if tool == "shears":
            kind = "cobweb" if block == "cobweb" else "leaves" if "leaves" in material else \
                "wool" if block.endswith("_wool") else block
            if kind in self._shears_speed:
                return self._shears_speed[kind]
        return self.kn.hand_speed

    def cells(self, task: AtomTask) -> int:
        """Crafting-grid cells one run fills: the consumed ingredients of the recipe's first way."""
        ways = ways_of(task) if task.requires is not None else None
        if ways:
            return sum(n.count for n in ways[0] if n.kind == ResourceKind.ITEM and not n.kept)
        return sum(n for item, n in task.initialization.inventory.items() if item != "crafting_table")

    def _suits(self, block: str, tool: str) -> bool:
        """Whether ``tool`` harvests ``block`` at least as well as a bare hand would."""
        data = self.kn.blocks.get(block, {})
        needed = data.get("harvest_tools") or []
        tool = self.kn.base_item(tool)
        return tool in needed if needed else self._speed(block, data.get("material") or "", tool) > 1

    def weapon(self, task: AtomTask, held: str | None = None) -> str | None:
        """The weapon a kill is fought with: the item in hand, else the best sword the initialization holds."""
        init = task.initialization
        if held is not None or init.main_hand is not None:
            return held or init.main_hand
        swords = [item for item in init.inventory if item.endswith("_sword") and item in self._tiers]
        return max(swords, key=lambda item: (self._damage(item), item), default=None)

    def _damage(self, weapon: str | None) -> tuple[float, float]:
        """(damage, ticks between hits) of a weapon (a fist: 1 every 5 ticks)."""
        tier = self._tiers.get(weapon or "")
        if weapon and weapon.endswith("_sword") and tier is not None:
            return SWORD_DAMAGE.get(tier.name, HAND_DAMAGE), SWORD_COOLDOWN
        return HAND_DAMAGE, HAND_COOLDOWN

    def hits(self, task: AtomTask, weapon: str | None) -> int:
        """Hits one kill of the task's mob takes with ``weapon``: its health over the weapon's damage."""
        mob = self.kn.mobs.get(task.goal.target)
        health = mob.health if mob else 20.0
        return math.ceil(health / self._damage(weapon)[0])

    def _kill(self, task: AtomTask, weapon: str | None) -> tuple[float, list[tuple[tuple[int, ...], int]]]:
        mob = self.kn.mobs.get(task.goal.target)
        disposition = mob.disposition if mob else "hostile"
        fight = self.hits(task, weapon) * self._damage(weapon)[1]
        approach = APPROACH_FRAMES.get(disposition, 100)
        frames = task.goal.count * (approach + fight)
        chase = CHASE if disposition == "passive" else WALK[:20]
        return frames, [(chase, task.goal.count * max(1, round(approach / len(chase)))),
                        (COMBAT, task.goal.count * max(1, round(fight / len(COMBAT))))]

    def find_frames(self, task: AtomTask) -> float:
        """Frames to find a task's target: look around, then walk to where it occurs.

        Something found everywhere is ``FIND_COMMON_WALK`` blocks away. Something found in ``k`` of the ``N``
        biomes of its dimension is about ``BIOME_SPAN * (sqrt(N / k) - 1)`` blocks further (a share ``k / N`` of the
        land puts the nearest patch at a distance growing as ``1 / sqrt(share)``). A structure is as far as its
        placement puts it (``structure_distance``); an underground block needs a descent to the middle of its
        height range through caves and a search there. A biome's share is that of the biomes of its category. A mob
        that is a small share of its category's spawns is as much further as its share makes it sparser
        (``Mob.spawn_share``: a witch, 5 of the overworld monsters' spawn weight of 515); a mob
        that only a structure holds is as far as its structures (``Mob.found_via``: a woodland mansion's evokers;
        a raid's ravager, past an outpost and a village), and one that comes at its own pace adds the expected wait
        (``Mob.appears_after``: a phantom after three sleepless days, a wandering trader every few days).
        """
        mob = self.kn.mobs.get(task.goal.target)
        return self._find_walk(task) + (mob.appears_after if mob is not None else 0)

    def _find_walk(self, task: AtomTask) -> float:
        """``find_frames`` without the wait for the target to appear: looking around and walking there."""
        target = task.goal.target
        kn = self.kn
        if target in kn.structures:
            return FIND_LOOK_AROUND + self.structure_distance(target) * WALK_FRAMES_PER_BLOCK
        if target in kn.biomes:
            biome = kn.biomes[target]
            same = [b for b, v in kn.biomes.items() if v["category"] == biome["category"]
                    and v["dimension"] == biome["dimension"]]
            return self._walk_to(same, biome["dimension"])
        if target in kn.structure_blocks:  # the walk to the structure is its own pre-task (find.<structure>)
            return FIND_LOOK_AROUND
        if target in kn.natural_blocks:
            block = kn.natural_blocks[target]
            frames = self._walk_to(block.biomes, block.dimension)
            if block.where in ("underground", "cave"):
                low, high = block.y_range or (-20, 40)
                depth = max(0.0, SURFACE_Y - (low + high) / 2)
                frames += depth * CAVE_FRAMES_PER_LEVEL + UNDERGROUND_SEARCH
            return frames
        if target in kn.mobs:
            mob = kn.mobs[target]
            if mob.found_via:  # only where its structures are (an evoker's mansion; a raid's outpost, then a village)
                walk = sum(self.structure_distance(s) for s in mob.found_via) * WALK_FRAMES_PER_BLOCK
                return FIND_LOOK_AROUND + walk
            return self._walk_to(mob.biomes, mob.dimensions[0] if mob.dimensions else "overworld", mob.spawn_share)
        return FIND_LOOK_AROUND + FIND_COMMON_WALK * WALK_FRAMES_PER_BLOCK

    def structure_distance(self, name: str) -> float:
        """Blocks to the nearest structure of a kind, from its placement in the game's structure sets.

        Placement attempts on a grid of ``spacing`` chunks, each kept with the set's ``frequency``, this
        structure's ``share`` of the set and its biomes' share of the land, are about a Poisson field of density
        ``rho`` per block squared, whose nearest point is ``1 / (2 sqrt(rho))`` away on average. Ring-placed
        structures (strongholds) are the middle of their first ring away. Features without a structure set
        (caves, dungeons, desert wells) keep ``STRUCTURE_WALK`` times the biome factor.
        """
        structure = self.kn.structures[name]
        if structure.distance is not None:
            return sum(structure.distance) / 2
        factor = self._biome_factor(structure.biomes, structure.dimension)
        if structure.spacing is None:
            return STRUCTURE_WALK * factor
        side = structure.spacing * BLOCKS_PER_CHUNK
        return side / (2 * math.sqrt(structure.frequency * structure.share)) * factor

    def _biome_factor(self, biomes: list[str] | None, dimension: str) -> float:
        every = [b for b, v in self.kn.biomes.items() if v["dimension"] == dimension] or self._overworld_biomes
        if not biomes:
            return 1.0
        share = max(1, len(set(biomes) & set(every))) / len(every)
        return math.sqrt(1.0 / share)

    def _walk_to(self, biomes: list[str] | None, dimension: str, share: float = 1.0) -> float:
        # A mob that is one spawn in 1 / share of its kind's (a witch among the monsters) is as sparse as a biome
        # of that share of the land: its nearest one is 1 / sqrt(share) as far.
        extra = BIOME_SPAN * (self._biome_factor(biomes, dimension) - 1.0)
        return FIND_LOOK_AROUND + (FIND_COMMON_WALK / math.sqrt(share) + extra) * WALK_FRAMES_PER_BLOCK

    def route_blocks(self, task: AtomTask) -> float:
        """Blocks the agent moves to find or reach its target (0 for an action done where it stands)."""
        if task.goal.event == Event.FIND:
            return max(0.0, self._find_walk(task) - FIND_LOOK_AROUND) / WALK_FRAMES_PER_BLOCK
        if task.goal.event == Event.REACH:
            return self._reach_distance(task)[1]
        return 0.0

    def _reach_distance(self, task: AtomTask) -> tuple[str, float]:
        """How a navigation goal is reached (walk, boat, swim, climb, dig, tunnel) and how far, in blocks."""
        goal = task.goal
        mode, default = REACH_DEFAULTS.get(goal.target, ("walk", 100))
        distance = float(default)
        if goal.value is not None:
            distance = abs(goal.value - SURFACE_Y) if goal.target == "y_level" else abs(goal.value)
            if goal.target == "height":
                distance = max(1.0, goal.value - 70)  # from the foot of a mountain, about y 70
        inventory = task.initialization.inventory
        if mode == "walk" and any(i.endswith(("_boat", "_raft")) for i in inventory):
            mode = "boat"
        return mode, distance

    def _reach(self, task: AtomTask, tool: str | None) -> tuple[float, list[tuple[tuple[int, ...], int]]]:
        mode, distance = self._reach_distance(task)
        if mode in ("dig", "tunnel"):
            per_block = self.break_ticks("stone", tool) * (2 if mode == "tunnel" else 1) + 5
            frames = distance * per_block
            piece = _run("attack", int(per_block) - 5) + _run("forward", 5) if mode == "tunnel" else \
                _codes("camera_down") + _run("attack", int(per_block) - 5) + _run("noop", 4)
            return frames, [(piece, round(distance))]
        per = {"walk": WALK_FRAMES_PER_BLOCK, "boat": BOAT_FRAMES_PER_BLOCK, "swim": SWIM_FRAMES_PER_BLOCK,
               "climb": CLIMB_FRAMES_PER_LEVEL}[mode]
        frames = distance * per
        piece = {"walk": WALK, "boat": _run("forward", 30) + _codes("camera_left"), "swim": SWIM,
                 "climb": CLIMB}[mode]
        return frames, [(piece, max(1, round(frames / len(piece))))]

"""Scripted plans: the one planner over the engine game's model, its actions played as harness steps.

A compiled task (:class:`taskverse.engine.ir.TaskIR`) is planned in three moves:

1. **Goals in the game's names.** Each atom goal of the task becomes a goal over the events the game model's
   actions emit (:mod:`taskverse.engine.model`): its Minecraft targets become the game names the mapping gives
   them (the runtime reports those names back in Minecraft's words, so the two agree). Constraints are taken off
   for planning (the model has no clock, weather or position) and become set-up steps later; a goal that needs an
   item in hand (``using``, ``how=with:ITEM``) also needs the item held (the model's ``equip`` event), so the
   planner gets it. An item used on a mob (feeding an animal) is the food the model's feeding events hold: the
   one asked for, else the start's food for the animal.
2. **One planner.** :class:`taskverse.world.search.Planner` plans the whole expression, its operators included
   (AND, OR, THEN, N times, at least k, avoid), as a goal automaton (``GoalTracker``) over the model's rules from
   the task's compiled start, with ``best_plan`` (steps objective): the same planner and code the text
   environment uses, over a second instance of the same rules.
3. **Steps.** Each planned action is replayed on the model (which way it takes, which items it uses) and written
   as harness steps: the travel to where a node is generated (``goto_biome``, ``goto_node``; teleports, and the
   step notes say so), a dig with the tool the way holds (a chance drop: dig until the item is held), a craft
   through the grid emulation with the items the model used, a cook at the furnace at the start with the fuel
   it burnt, a brew at the brewing stand at the start with the recipe's base potion and ingredient, a kill by
   hitting, a place, a use (a bottle filled at water, a hoe on grass) or an interaction with its target (a food
   used on an animal: a right-click with it, at one summoned or spawned; two fed, two animals). Runs of the same
   action become one step with a count. A constraint's set-up (the time, a biome, a cave, a height, the hand or an item
   in it) goes just before the last action that counts for the constrained part.

Every step's ``note`` names the model action it plays (``mine.default:tree``), or says why the player teleports.

Example:
    >>> from taskverse.library.loader import load_library
    >>> from taskverse.engine.compiler import compile_task
    >>> library = load_library()
    >>> task = library.get("craft.stick")
    >>> [(s.do, s.item) for s in plan_task(task, compile_task(task, library), library).steps]
    [('craft', 'default:stick')]

"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from taskverse.algebra.expr import (
    AllOf,
    AnyOf,
    AtLeast,
    AtomRef,
    Avoid,
    Constrained,
    Constraint,
    Repeat,
    Then,
    height_range,
)
from taskverse.algebra.semantics import Evaluator
from taskverse.algebra.tracker import Context, GoalTracker
from taskverse.engine.compiler import BUILD_SHAPES, REACH_MEASURES
from taskverse.engine.gamegen.content import portal_room as content_portal_room
from taskverse.engine.harness import Plan, Step
from taskverse.engine.ir import (
    AmountIR,
    AtomIR,
    ConstrainedIR,
    ConstraintIR,
    ExprIR,
    GoalIR,
    GroupIR,
    InitializedIR,
    NotIR,
    RepeatIR,
    TaskIR,
    WithinIR,
    shape_cells,
)
from taskverse.engine.model import GROUND_Y, HAND, GameModel, game_model
from taskverse.errors import TaskverseError
from taskverse.schema import MAX_COUNT, VILLAGER_XP_PREFIX, Goal, villager_xp
from taskverse.world.rules import CostModel, State
from taskverse.world.search import Planner, holdings, wield_of

DEFAULT_BUDGET = 1000
"""States the planner may expand to prove a plan shortest before it settles for the best found (as ``taskverse
plan``)."""
#: Steps whose consecutive runs become one step with a count (the rest repeat).
COUNTED = frozenset({"dig", "craft", "cook", "place", "enchant", "loot", "cut", "anvil"})
#: Steps that move the player (all teleports; a loot step travels to the structure it opens).
MOVES = frozenset({"goto_biome", "goto_node", "move", "home", "loot"})
#: The most a wait for a portal's travel takes before the step fails (it ends as soon as the player is there).
ARRIVAL_SECONDS = 30.0
#: Steps that stand in for what the game does not do (their notes say so): spawning a mob where Minecraft would.
STAND_INS = frozenset({"spawn"})
#: Where the scripted player sets up the enchanting table, from its feet at the start: far enough out that the
#: bookshelf ring around it (two blocks out) stays clear of the blocks a start puts beside the player.
ENCHANT_AT = (0, 0, 6)


class NoPlan(TaskverseError):
    """The planner found no way to do a task (or a part) in the game."""


@dataclass(frozen=True)
class ScriptedPlan:
    """A scripted plan and where it came from: the model's actions the one planner chose, in order."""

    plan: Plan
    actions: list[str]
    proven: bool
    """Whether the planner proved the action sequence shortest (else it is the best found within the budget)."""


@dataclass(frozen=True)
class _Leaf:
    """One atom occurrence of the task: its goal and the constraints around it."""

    atom: str
    goal: GoalIR
    constraints: tuple[ConstraintIR, ...]
    hold: tuple[str, ...] = ()
    """Game items the occurrence needs in hand (``using``, ``how=with:``), planned as held."""


class _Goals:
    """A task's goals over the game model's events, and its expression for the planner.

    Each atom occurrence gets an id of its own (``<atom>#<n>``), so the planner's leaves say which occurrence
    (and which constraints) they stand for.
    """

    def __init__(self, model: GameModel, ir: TaskIR) -> None:
        self.model = model
        self.ir = ir
        self.goals: dict[str, Goal] = {}
        self.tags: dict[str, list[str]] = {}
        self.leaves: dict[str, _Leaf] = {}
        self.problems: dict[str, str] = {}
        """Occurrences the game cannot do, and why: their goals match nothing (an OR can still take another part)."""
        self.expression = self._expr(ir.expression, ())

    def _expr(self, node: ExprIR, constraints: tuple[ConstraintIR, ...], amount: int = 1) -> Any:
        if isinstance(node, AtomIR):
            return self._atom(node.atom, constraints, amount)
        if isinstance(node, GroupIR):
            parts = tuple(self._expr(p, constraints) for p in node.parts)
            if node.op == "all":
                return AllOf(parts=parts)
            if node.op == "any":
                return AnyOf(parts=parts)
            if node.op == "then":
                return Then(parts=parts)
            return AtLeast(count=node.count or len(parts), parts=parts)
        if isinstance(node, RepeatIR):
            return Repeat(times=node.times, part=self._expr(node.part, constraints))
        if isinstance(node, AmountIR):  # the atom's goal counts the amount (its events add up their counts)
            return self._expr(node.part, constraints, amount * node.count)
        if isinstance(node, NotIR):
            return Avoid(part=self._expr(node.part, constraints))
        if isinstance(node, ConstrainedIR):
            return self._expr(node.part, (*constraints, node.constraint), amount)
        if isinstance(node, WithinIR | InitializedIR):
            # a time bound is not planned (the scripted player is as fast as the engine runs it); a part's own
            # start is already the compiled start
            return self._expr(node.part, constraints)
        raise TypeError(f"not a task expression: {node!r}")

    def _atom(self, atom: str, constraints: tuple[ConstraintIR, ...], amount: int = 1) -> Any:
        """One occurrence: its goal over the model's events; an item it needs in hand as ``how=with:``."""
        goal = self.ir.goals[atom]
        # an item used on nothing is the goal's target (``use.<item>``); one used on a mob (feeding it) is the item
        # its events are held with: the one the goal asks for, else the start's food for it (``_start_foods``)
        using = self.items(goal.using or []) if goal.using and goal.event != "use" else []
        fed: list[str] = []  # an item used on a mob: the food it is fed, as the model's feeding events carry it
        if goal.event == "use" and self._on_mob(goal):
            fed = self.items(goal.using) if goal.using else self._start_foods(goal)
        elif goal.event == "use" and goal.using and self._on_station(goal):
            fed = self.items(goal.using)  # a pickaxe on the enchanting table (an item repaired at an anvil): the
            # station's use, holding the item
        asked = [self.items(c.how_items or [c.how[5:]]) for c in constraints if c.how and c.how.startswith("with:")]
        hold = [i for i in using if all(i in a for a in asked)] if using else (asked[0] if asked else [])
        bare = any(c.how == "bare_hand" for c in constraints)
        key = f"{atom}#{len(self.leaves)}"
        self.leaves[key] = _Leaf(atom, goal, constraints, tuple(dict.fromkeys(hold)))
        try:
            event, targets = self._planned(goal)
            if (using or asked) and not hold:
                raise NoPlan(f"{atom} asks for an item in hand that {self.ir.game} does not have")
        except NoPlan as exc:
            self.problems[key] = str(exc)
            event, targets = goal.event, []
        tag = f"goal_{len(self.leaves)}"  # the targets as a tag (a tag name is a plain name)
        self.tags[tag] = targets
        if fed:
            self.tags[f"fed_{len(self.leaves)}"] = sorted(set(fed))
        # an amount beyond a full inventory is planned as a full inventory (the runtime still judges all of it)
        self.goals[key] = Goal(event=event, target=f"#{tag}",  # type: ignore[arg-type]
                               count=min(MAX_COUNT, goal.count * amount),
                               value=goal.value if goal.event == "reach" else None,
                               using=f"#fed_{len(self.leaves)}" if fed else None)
        if key in self.problems:
            return AtomRef(task=key)
        if bare:
            return Constrained(part=AtomRef(task=key), constraint=Constraint(how="bare_hand"))
        if not hold:
            return AtomRef(task=key)
        # The item in hand is the one constraint the model's events carry (the rules say what is held); the
        # others (time, place) are set up when the plan is played. First the item is had (the model's "equip",
        # which needs it held: no step of its own), then the part is done holding it (several items: any).
        held = f"hold#{len(self.leaves)}"
        self.tags[f"hold_{len(self.leaves)}"] = sorted(set(hold))
        self.goals[held] = Goal(event="equip", target=f"#hold_{len(self.leaves)}")  # type: ignore[arg-type]
        parts = [Constrained(part=AtomRef(task=key), constraint=Constraint(how=f"with:{item}"))
                 for item in dict.fromkeys(hold)]
        return Then(parts=(AtomRef(task=held), parts[0] if len(parts) == 1 else AnyOf(parts=tuple(parts))))

    def _planned(self, goal: GoalIR) -> tuple[str, list[str]]:
        """The event and game targets the model emits for a goal (a use goal: the item used)."""
        rules = self.model.rules
        if goal.event == "use" and goal.using and not self._on_mob(goal):
            names = self.items(goal.using)
            # a suspicious block brushed: the structures' (taskverse_mc's archaeology), found where they stand
            brushed = {act.makes for act in self.model.acts.values() if act.kind == "brush"}
            names = [n for t in goal.targets for n in self.names(t) if n in brushed] or names
            if self._on_station(goal):  # the station's use, held the item (other actions use a tool too)
                names = [n for t in goal.targets for n in self.names(t)]
        elif goal.event == "interact" and goal.chest is not None:  # only a chest of the kind (a library's) counts
            names = [n for n, kind in self.model.chest_kinds.items()
                     if kind == goal.chest and self.model.structures[n] in goal.targets]
        else:
            names = []
            for target in goal.targets:
                names += self.names(target)
        event = goal.event
        found = sorted({n for n in names if (event, n) in rules.actions_by_key})
        if not found:
            raise NoPlan(f"nothing in {self.ir.game} does {event} {' or '.join(goal.targets) or '?'}"
                         f"{' (' + ', '.join(sorted(set(names))) + ')' if names else ''}")
        return event, found

    def _on_station(self, goal: GoalIR) -> bool:
        """Whether a goal's targets are a station the model's actions use an item on (an enchanting table, anvil)."""
        stations = {self.model.enchanting["station"]} if self.model.enchanting else set()
        stations |= self.model.anvils
        return bool(goal.targets) and all(n in stations for t in goal.targets for n in self.names(t))

    def _on_mob(self, goal: GoalIR) -> bool:
        """Whether a goal's targets are the model's mobs (an item used on an animal: feeding it)."""
        return bool(goal.targets) and all(n in self.model.entities for t in goal.targets for n in self.names(t))

    def _start_foods(self, goal: GoalIR) -> list[str]:
        """The foods the start gives that the goal's animals eat.

        A start that hands the player two golden carrots for a horse means them (breeding food), not wheat from the
        fields (which it eats too, without breeding).
        """
        mobs = {n for t in goal.targets for n in self.names(t)}
        eats = {act.makes for act in self.model.acts.values() if act.kind == "feed" and act.name in mobs}
        return [s.name for s in self.ir.init.inventory if s.name in eats]

    def names(self, mc: str) -> list[str]:
        """Every game name a Minecraft name stands for: item, block, entity, the biomes the task maps it to."""
        out = [g for g, name in self.ir.biomes.items() if name == mc]
        out += [item for item, block in self.ir.place_as.items() if block == mc]  # what places it (seeds: crops)
        out += [node for node, structure in self.model.structures.items()  # its marker (the main kind's chest)
                if structure == mc and node not in self.model.chest_kinds]
        for kind in ("item", "block", "entity"):
            counterpart = self.model.mapping.lookup(mc, kind)  # type: ignore[arg-type]
            if counterpart is not None and counterpart.to is not None:
                out.append(counterpart.to)
        if mc in REACH_MEASURES or mc in BUILD_SHAPES or mc == "death" or mc in self.model.settings.dimensions or \
                mc == "overworld":
            out.append(mc)
        return out

    def items(self, names: Iterable[str]) -> list[str]:
        """The game items of Minecraft item names (those with a counterpart)."""
        out = []
        for name in names:
            counterpart = self.model.mapping.lookup(name)
            if counterpart is not None and counterpart.to is not None and counterpart.to in self.model.items:
                out.append(counterpart.to)
            elif name in self.model.items:
                out.append(name)
        return out


@dataclass
class _Out:
    """A written step and the planned actions (indices into the plan) it plays."""

    step: Step
    actions: list[int] = field(default_factory=list)
    received: Counter[str] = field(default_factory=Counter)
    """Items the actions received in the model."""
    chancy: dict[str, float] = field(default_factory=dict)
    """Items among them that came by chance, with the chance one try gives any (a dig plays those as 'until held')."""
    taken: set[str] = field(default_factory=set)
    """Items the actions used up in the model."""
    from_start: bool = False
    """A dig of a block near the start (one the start set out or the plan placed there)."""
    main: bool = True
    """The action's own step (not its travel, a target set out for it, or the drops picked up after it)."""


UNLUCKY = 1e-6
"""How unlikely a run of tries for a chance drop may be to come up short before the player gives up on it."""


VILLAGER_BACK = 30.0
"""Game seconds the scripted player waits, at most, for a villager it comes back to (the engine activates the objects
of a map block it unloaded every 2 s or so once a player is near)."""


def tries_for(chance: float, count: int) -> int:
    """How many tries (digs, kills) the player makes for ``count`` items that one try gives with ``chance``.

    Enough that all of them coming up empty is at most :data:`UNLUCKY` per item: a 10% flint gets 132 gravel.
    """
    if chance >= 1:
        return count
    return count * math.ceil(math.log(UNLUCKY) / math.log1p(-chance))


class _Player:
    """Replays a plan on the model and writes the harness steps, keeping track of where the player is."""

    def __init__(self, model: GameModel, goals: _Goals, tracker: GoalTracker, state: State) -> None:
        self.model = model
        self.rules = model.rules
        self.goals = goals
        self.tracker = tracker
        self.state = state
        init = goals.ir.init
        self.home_blocks: Counter[str] = Counter({s.name: s.count for s in init.nearby})
        self.home_mobs: Counter[str] = Counter({s.name: s.count for s in init.summon})
        self.here: tuple[str, str] = ("home", "")
        self.out: list[_Out] = []
        self.index = 0
        self.contributes: dict[int, list[str]] = {}
        """Plan index -> the occurrences (``_Goals.leaves`` keys) its events count for."""
        self.wield = wield_of(self.rules, tracker)
        self.made: Counter[str] = Counter()
        """Blocks a change or a strip made where the player is, away from the start (a concrete by the water found);
        forgotten when the player moves."""
        self.met: dict[str, str] = {}
        """Mob -> the dimension the player last had one spawned in (see ``_spawn``)."""
        self.fed = 0
        """Animals fed since the last one was spawned beside the player (see ``_feed``)."""
        self.enchanting = False
        """Whether the enchanting table and its bookshelves stand at the start (see ``_enchant``)."""
        self.furnace_placed = False
        """Whether a cook step set the held furnace up at the start (it is no longer in the inventory)."""
        self.experience: dict[tuple[str, str], Counter[str]] = {}
        """Where a villager traded -> its experience (``xp:<profession>``), the start's and its trades'."""
        self.villagers: dict[str, tuple[str, ...]] = {}
        """Job site -> the biomes travelled to from the start where the villager spawned for it stands."""
        self.sites: Counter[str] = Counter()
        """Job site blocks placed beside villagers (the model still holds them: a kept need)."""
        self.jobs: dict[tuple[str, str], str] = {}
        """Where a villager traded (``("home", "")``, or ``("spawned", villager)`` for the last one spawned) -> the job
        site placed beside it, which it keeps."""
        self.held: dict[int, str | None] = {}
        """Plan index -> the item in hand the model says the action is done with (asked for by ``how=with``)."""
        self.plan: list[int] = []

    # --- the plan -------------------------------------------------------------------------------------------

    def play(self, plan: list[int]) -> list[Step]:
        self.plan = plan
        for index, a in enumerate(plan):
            self.index = index
            self.action(a)
        self._merge()
        self._constrain()
        return [o.step for o in self.out]

    def add(self, step: Step, note: str | None = None, main: bool = True) -> None:
        """Write a step for the action being played (``main``: its own step, not a preparation or aftermath)."""
        if step.do in MOVES:
            self.here = ("moved", step.do)
            self.made.clear()
        self.out.append(_Out(step.model_copy(update={"note": note}) if note else step, [self.index], main=main))

    def home(self, why: str) -> None:
        """Go back to the start, where the start's blocks and mobs and the furnace are."""
        if self.here != ("home", ""):
            self.add(Step(do="home"), f"teleport: back to the start for {why}", main=False)
            self.here = ("home", "")

    def goto(self, node: str, why: str, above: bool = False, main: bool = False) -> None:
        """Travel to a generated node (its biome first), unless the player stands at one already.

        ``main``: the travel is the action itself (finding the node, standing on it), not on the way to it.
        """
        if self.here == ("node", node) and not above and not main:
            return
        place = self.model.places.get(node)
        if place is None:
            raise NoPlan(f"{node} is not generated by the map and not near the start ({why})")
        if place.biomes:
            self.add(Step(do="goto_biome", biomes=list(place.biomes)), f"teleport: to a biome with {node} for {why}",
                     main=False)
        self.add(Step(do="goto_node", node=node, radius=32, y=place.y, vertical=12 if place.biomes else None,
                      above=True if above else None), f"teleport: to {node} for {why}", main=main)
        self.here = ("node", node)

    def action(self, a: int) -> None:
        """Replay action ``a`` on the model and write its steps."""
        rules, state = self.rules, self.state
        name = rules.actions[a]
        ways = rules.action_ways[a]
        w = next((i for i, way in enumerate(ways) if not state.way_missing[way]), None)
        if w is None:
            raise NoPlan(f"the planned action {name} is not possible in the replay: {rules.explain(state, a)}")
        wielded = rules.wielded(a, w, self.wield, state.counts.__getitem__)
        self.held[self.index] = rules.names[wielded] if wielded is not None else None
        deltas, outputs, used = rules.effects(a, w, state.counts.__getitem__, None, state.tries)
        needs = rules.ways[a][w]
        events = rules.events(a, w, used, outputs, wielded=wielded)
        self.contributes[self.index] = [leaf.atom for leaf in self.tracker.leaves
                                        if any(self.tracker.matches(leaf, e) for e in events)]
        taken = [(rules.names[r], -d) for r, d in deltas if d < 0 and r < rules.n_items]
        kept = [rules.names[u] for u, n in zip(used, needs, strict=True) if not n.consume and not n.presence]
        presence = [rules.names[u] for u, n in zip(used, needs, strict=True) if n.presence]
        before = len(self.out)
        self._reclaim(taken, name)
        getattr(self, "_" + name.split(".", 1)[0])(self.model.acts[name], name, taken, kept, presence, outputs, w)
        for o in self.out[before:]:
            if o.main:
                o.taken.update(n for n, _ in taken)
        for r, d in deltas:
            rules.change(state, r, d)

    # --- actions, by verb ------------------------------------------------------------------------------------

    def _find(self, act: Any, name: str, taken: Any, kept: Any, presence: Any, outputs: Any, w: int) -> None:
        if act.kind == "change":  # placed where it changes (beside water), then seen once it has changed
            if act.beside:
                node = self._ensure_node([act.beside], name)
                if node is None:
                    raise NoPlan(f"no {act.beside} to place {act.makes} beside")
                self.add(Step(do="place", item=act.makes, beside=node, radius=6), name)
            else:
                self.home(name)
                self.add(Step(do="place", item=act.makes, wall=True if act.wall else None,
                              count=None if act.wall else 1), name)
            if act.seconds > 0:  # until it has changed: a busy server runs the game's timer late
                self.add(Step(do="wait", seconds=round(3 * act.seconds + 2.0, 2), node=act.name, radius=6),
                         f"{name}: the game changes it {act.seconds:g} s after it is placed", main=False)
            if self.here == ("home", ""):
                self.home_blocks[act.name] += 1
            else:
                self.made[act.name] += 1
        elif act.kind == "block":
            self.goto(act.name, name, main=True)
        elif act.kind == "biome":
            mc = self.goals.ir.biomes.get(act.name)
            siblings = [g for g, m in self.goals.ir.biomes.items() if mc is not None and m == mc]
            biomes = sorted({act.name, *(g for g in siblings if self.model.at_ground(g) ==
                                         self.model.at_ground(act.name))})
            self.add(Step(do="goto_biome", biomes=biomes, y=self.model.biome_floor(act.name),
                          vertical=self.model.biome_depth(act.name)),
                     f"teleport: to {act.name} for {name}" +
                     (" (into the rock where no cave is open there)" if self.model.underground(act.name) else ""))
            self.here = ("biome", act.name)
        elif act.name in self.model.villagers and self.state.counts[self.rules.index[("entity", act.name)]] > 0:
            self._another_villager(act.name, name, w)
        elif self.home_mobs[act.name] > 0 or act.name not in self.model.spawns:
            # a summoned entity: back where it was summoned, and a moment to see it
            self.home(name)
            self.add(Step(do="wait", seconds=0.6), name)
        else:
            self._spawn(act.name, name, list(self.model.spawns[act.name])[w])
            self.add(Step(do="wait", seconds=0.6), name)

    def _mine(self, act: Any, name: str, taken: Any, kept: list[str], presence: Any, outputs: Any, w: int) -> None:
        node = act.name
        # a node some tool gets other drops from (a Silk Touch pickaxe, shears) is dug by hand unless the atom
        # keeps a tool: the hand holds nothing the player happened to wield last
        tool = kept[0] if kept else (HAND if node in self.model.tool_drops else None)
        if self.made[node] > 0:  # made here by a change or a strip, away from the start
            self.made[node] -= 1
            self.add(Step(do="dig", node=node, count=1, radius=6, tool=tool), name)
        elif self.home_blocks[node] > 0:
            self.home_blocks[node] -= 1
            self.home(name)
            self.add(Step(do="dig", node=node, count=1, radius=6, tool=tool), name)
            self.out[-1].from_start = True
        else:
            self.goto(node, name)
            self.add(Step(do="dig", node=node, count=1, radius=12, tool=tool), name)
        rules = self.rules
        out = self.out[-1]
        out.received.update({rules.names[r]: n for r, n in outputs if r < rules.n_items})
        a = rules.action_index[name]
        out.chancy.update({rules.names[o.resource]: o.at_least_one for o in rules.way_outputs[a][w] if o.slot >= 0})

    def _craft(self, act: Any, name: str, taken: list[tuple[str, int]], kept: list[str], presence: list[str],
               *_: Any) -> None:
        furnace = self.model.settings.furnace
        if self.furnace_placed and any(n == furnace for n, _ in taken):
            # the cook steps set the held furnace up at the start: dug back for a recipe that takes it (a blast
            # furnace), with a tool the model holds that digs it
            held = self.rules.inventory(self.state)
            tool = next((t for t in sorted(held) if held[t] > 0 and self.model.digs(furnace, t)), None)
            if tool is None and not self.model.digs(furnace, HAND):
                raise NoPlan(f"nothing held digs the {furnace} the cooking set up at the start, for {name}")
            self.home(f"the {furnace} there, for {name}")
            self.add(Step(do="dig", node=furnace, count=1, radius=6, tool=tool),
                     f"{name}: the {furnace} the cooking set up at the start, dug back", main=False)
            self.furnace_placed = False
        if act.kind == "cut":  # at the stonecutter: the one near the start, else the held one placed there
            self.home(f"{name} (the stonecutter stands at the start)")
            self.add(Step(do="cut", item=act.name, node=(presence or kept)[0], count=1), name)
            return
        if act.kind == "anvil":  # a rename or a combine at the anvil near the start, else the held one placed there
            self._anvil(act.name, name, [*presence, *kept])
            return
        self.add(Step(do="craft", item=act.name, count=1, ingredients=sorted({n for n, _ in taken}) or None), name)

    def _smelt(self, act: Any, name: str, taken: list[tuple[str, int]], kept: Any, presence: Any, outputs: Any,
               w: int) -> None:
        inputs = {self.rules.names[m] for m in self.rules.ways[self.rules.action_index[name]][w][0].members}
        source = next(n for n, _ in taken if n in inputs)
        # the fuel the model burnt, kind by kind: its way takes k items of any fuel, so one cooking may burn a slab
        # and a stick together
        fuels = {n: c for n, c in sorted(taken) if n not in inputs}
        self.home(f"{name} (the furnace stands at the start)")
        self.add(Step(do="cook", item=source, count=1, fuels=fuels), name)
        station = self.rules.ways[self.rules.action_index[name]][w][2]
        if not station.presence and self.home_blocks[self.model.settings.furnace] == 0:
            self.furnace_placed = True  # the harness sets the held furnace up at the start

    def _brew(self, act: Any, name: str, taken: list[tuple[str, int]], kept: Any, presence: Any, outputs: Any,
              w: int) -> None:
        """The base potion and the ingredient into the brewing stand at the start (placed by the first brew).

        The way's needs are the model's (:meth:`GameModel._brews`): the base potion, the ingredient, the blaze
        powder (two when the ingredient is blaze powder itself), the stand.
        """
        needs = self.rules.ways[self.rules.action_index[name]][w]
        base, ingredient = (self.rules.names[needs[i].members[0]] for i in (0, 1))
        self.home(f"{name} (the brewing stand stands at the start)")
        self.add(Step(do="brew", item=base, ingredient=ingredient, fuel=act.using, count=1), name)

    def _store(self, act: Any, name: str, taken: Any, kept: list[str], presence: list[str], *_: Any) -> None:
        """The item put into a container at the start: the one standing there, else the held one, placed first.

        The way's needs are the model's (:meth:`GameModel._stores`): the item, and the container near or held.
        """
        self.home(f"{name} (the container stands at the start)")
        self.add(Step(do="store", item=act.name, node=(presence or kept)[0], count=1), name)

    def _place(self, act: Any, name: str, taken: Any, kept: Any, presence: list[str], *_: Any) -> None:
        self.home(name)
        if act.kind == "entity":  # a cart goes on what it stands on
            self.add(Step(do="place", item=act.name, on=presence[0] if presence else None), name)
            self.home_mobs[act.makes] += 1
            return
        if act.wall:  # against a wall: the side of a pocket beside the player
            self.add(Step(do="place", item=act.name, wall=True), name)
        elif act.into:  # onto the block it goes into, which becomes the variant
            node = self._ensure_node([act.into], name)
            if node is None:
                raise NoPlan(f"no {act.into} to place {act.name} into")
            self.add(Step(do="place", item=act.name, on=node, radius=6), name)
            self.home_blocks[node] -= 1
        else:
            self.add(Step(do="place", item=act.name, count=1), name)
        if act.makes:
            self.home_blocks[act.makes] += 1

    def _eat(self, act: Any, name: str, *_: Any) -> None:
        self.add(Step(do="eat", item=act.name), name)

    def _equip(self, act: Any, name: str, *_: Any) -> None:
        leaves = [self.goals.leaves[k] for k in self.contributes[self.index] if k in self.goals.leaves]
        if not leaves:
            return  # held for a goal that uses it: that goal's step wields it
        if self.out and self.out[-1].step.do == "wield" and self.out[-1].step.item == act.name:
            return
        self.add(Step(do="wield", item=""), f"{name}: an empty hand first, so holding it is a change", main=False)
        self.add(Step(do="wield", item=act.name), name)

    def _leaf(self) -> _Leaf | None:
        """The occurrence the action being played counts for (the first, if several)."""
        keys = [k for k in self.contributes[self.index] if k in self.goals.leaves]
        return self.goals.leaves[keys[0]] if keys else None

    def _use(self, act: Any, name: str, taken: Any, kept: list[str], presence: Any = None, outputs: Any = None,
             w: int = 0) -> None:
        if act.kind == "enchant":
            self._enchant(act, name, outputs, w)
            return
        if act.kind == "rename":  # the item renamed at the anvil near the start, else the held one placed there
            self._anvil(act.name, name, [*(presence or []), *kept])
            return
        if act.kind == "repair":  # the anvil used holding the item repaired: it in hand, not the material
            self._anvil(act.name, name, [*(presence or []), *kept], hold=act.name)
            return
        if act.kind == "mend":  # the item of the way repaired with the material in hand
            item = self.rules.names[self.rules.ways[self.rules.action_index[name]][w][0].members[0]]
            self._anvil(item, name, [*(presence or []), *kept], hold=act.name)
            return
        if act.kind == "trade":
            self._trade(act, name, w)
            return
        if act.kind == "wander":
            self._wander(act, name, outputs, w)
            return
        if act.kind == "strip":  # the log placed at the start, the axe used on it
            self.home(name)
            self.add(Step(do="place", item=act.makes, count=1), f"{name}: the log, placed", main=False)
            self.add(Step(do="use", item=kept[0], node=act.makes, radius=6), name)
            self.home_blocks[act.name] += 1
            return
        if act.kind == "tool":  # the tool used on a block: grass tilled into farmland, a pumpkin carved, there
            node = self._ensure_node([act.makes], name)
            if node is None:
                raise NoPlan(f"no {act.makes} to use {kept[0]} on")
            self.add(Step(do="use", item=kept[0], node=node, radius=6), name)
            if any(r < self.rules.n_items for r, _ in outputs or ()):
                self.add(Step(do="collect"), f"{name}: its drops", main=False)
            if self.here == ("home", ""):
                self.home_blocks[act.name] += 1
            else:
                self.made[act.name] += 1
            return
        if act.kind == "brush":  # a structure's suspicious block brushed
            self._loot(act, name, outputs, w)
            return
        if act.kind == "dig":  # a node the tool digs, dug with it in hand: its use
            self._mine(replace(act, verb="mine", kind="block", name=presence[0]), name, taken, kept, presence,
                       outputs, w)
            return
        if act.kind == "fill":  # the container used on the block it is filled at (a glass bottle on water)
            node = self._ensure_node([act.makes], name)
            if node is None:
                raise NoPlan(f"no {act.makes} to fill {act.using} at")
            self.add(Step(do="use", item=act.using, node=node, radius=6), name)
            return
        if act.kind == "feed":
            self._feed(act, name)
            return
        if act.kind == "lay":
            self._lay(act, name)
            return
        if act.kind == "harvest":  # at a full nest the map generated; the one used is empty: the next, another
            self.goto(act.name, name)
            self.add(Step(do="use", item=act.makes, node=act.name, radius=6), name)
            self.here = ("moved", name)
            return
        leaf = self._leaf()
        item = act.name
        if leaf is None or not leaf.goal.using:
            if set(self.model.items[item].callbacks) & {"on_use", "on_secondary_use"}:
                self.add(Step(do="use", item=item), name)
            else:  # used by pointing at a block (flint and steel lights the top of the ground beside the player)
                self.add(Step(do="use", item=item, at=(1, -1, 0)), name)
            return
        nodes = [n for t in leaf.goal.targets for n in self.goals.names(t) if n in self.model.items and n != item
                 and self.model.items[n].type == "node"]
        node = self._ensure_node(nodes, name)
        if node is not None:
            self.add(Step(do="use", item=item, node=node, radius=6), name)
            return
        mobs = [e for t in leaf.goal.targets for e in self.goals.names(t) if self.home_mobs[e] > 0]
        if not mobs:
            raise NoPlan(f"no {' or '.join(leaf.goal.targets)} near the start to use {item} on")
        self.home(name)
        self.add(Step(do="use", item=item, entity=mobs[0]), name)

    def _anvil(self, item: str, name: str, at: list[str], hold: str | None = None) -> None:
        """The anvil gives ``item`` (named, enchanted or repaired): at the start, where it stands or is placed.

        ``hold``: the item in hand for the work (a repair's material), which the anvil's use is then done holding.
        """
        stations = [n for n in at if self.model.items[n].type == "node" and n in self.model.anvils]
        if not stations:
            raise NoPlan(f"no anvil for {name}")
        self.home(f"{name} (the anvil stands at the start)")
        if hold is not None:
            self.add(Step(do="wield", item=hold), f"{name}: {hold} in hand", main=False)
        self.add(Step(do="anvil", item=item, node=stations[0], count=1), name)

    def _beside_animal(self, mob: str, name: str, purpose: str) -> bool:
        """To the animal: a summoned one, else one spawned now; True when already beside the one spawned for it."""
        if self.here == ("spawned", mob):  # the one spawned for finding it, still beside the player
            return True
        if self.home_mobs[mob] > 0:
            self.home(name)
        elif mob in self.model.spawns:
            self._spawn(mob, name)
        else:
            raise NoPlan(f"no {mob} summoned at the start {purpose} (and Minecraft does not spawn it)")
        return False

    def _feed(self, act: Any, name: str) -> None:
        """The food used on the animal, as a right-click with it in hand: a summoned one, or one spawned."""
        mob = act.name
        if self._beside_animal(mob, name, "to feed") and self.fed:
            # fed already: another of its herd, so two animals are fed (and breed), not one twice
            self.add(Step(do="spawn", entity=mob), f"spawn: another {mob} beside the player, standing in for "
                     f"Minecraft's natural spawning (taskverse_mc spawns no mobs), for {name}", main=False)
            self.fed = 0
        self.add(Step(do="use", item=act.makes, entity=mob, secondary=True),
                 f"{name}: {act.makes} used on {mob} (a right-click with it: the game's animal eats it, or fills it)")
        self.fed += 1

    def _lay(self, act: Any, name: str) -> None:
        """Beside the animal (a summoned one, the one spawned, else one spawned now), its item waited for."""
        mob = act.name
        self._beside_animal(mob, name, "to wait beside")
        self.add(Step(do="tend", entity=mob, item=act.makes, count=1),
                 f"{name}: beside {mob} until it lays {act.makes} (the game's own clock, passed), picked up")

    def _enchant(self, act: Any, name: str, outputs: Any, w: int) -> None:
        """One enchanting try: the table and its bookshelves set up at the start (once), the pickaxe used on it.

        The bookshelves go where Minecraft counts them (the game's ring, its own height first), and what stands
        between one and the table and stops its power (a flower: not of the game's transmitters) is dug away; tries in
        a row are one step, played until the Silk Touch tool is held (``_until``).
        """
        table = self.model.enchanting
        if table is None:
            raise NoPlan(f"{self.model.game} has no enchanting table for {name}")
        self.home(name)
        if not self.enchanting:
            x, y, z = ENCHANT_AT
            self.add(Step(do="place", item=table["station"], at=ENCHANT_AT), f"{name}: the enchanting table, placed",
                     main=False)
            for dx, dy, dz in table["ring"][:table["bookshelves"]]:
                self.add(Step(do="place", item=table["bookshelf"], at=(x + dx, y + dy, z + dz)),
                         f"{name}: a bookshelf two blocks from the table", main=False)
            # a flower or a torch between the table and a bookshelf stops its power (the game's transmitters)
            self.add(Step(do="clear", node=table["station"], radius=8),
                     f"{name}: what stands between the table and its bookshelves, dug away", main=False)
            self.enchanting = True
        self.add(Step(do="enchant", tool=act.makes, node=table["station"], count=1, radius=8), name)
        rules = self.rules
        out = self.out[-1]
        out.received.update({rules.names[r]: n for r, n in outputs
                             if r < rules.n_items and rules.names[r] != act.makes})  # the pickaxe back: not a drop
        a = rules.action_index[name]
        out.chancy.update({rules.names[o.resource]: o.at_least_one for o in rules.way_outputs[a][w] if o.slot >= 0})

    def _trade(self, act: Any, name: str, w: int) -> None:
        """A trade: at a villager, its profession's job site placed beside it, then the trade itself.

        The villager is the one a start summoned, or one spawned where Minecraft's villages are (the stand-in).
        """
        villager = act.name
        a = self.rules.action_index[name]
        way = self.rules.ways[a][w]
        site = self.rules.names[way[1].members[0]]
        trained = [n for n in way if self.rules.names[n.members[0]].startswith(VILLAGER_XP_PREFIX)]
        gained = [o for o in self.rules.way_outputs[a][w]
                  if self.rules.names[o.resource].startswith(VILLAGER_XP_PREFIX)]
        # a villager keeps the job site it claimed: one of another profession is another villager
        if self.here == ("villager", site):
            pass  # the one the earlier trades were made with, still beside the player
        elif self.here == ("spawned", villager) and site not in self.villagers:
            self._spawned_villager(villager, site)  # the one met (spawned) for this, still beside the player
        elif self.home_mobs[villager] > 0 and self.jobs.get(("home", ""), site) == site:
            self.home(name)
        elif site in self.villagers:  # the one spawned for the profession before, raised by its trades: back to it
            self.home(name)
            if self.villagers[site]:
                self.add(Step(do="goto_biome", biomes=list(self.villagers[site])), f"teleport: back to the "
                         f"{villager} beside the {site} for {name}", main=False)
            self.add(Step(do="goto_node", node=site, radius=16), f"teleport: to the {site} its {villager} stands "
                     f"beside, for {name}", main=False)
            # the engine activates the villager again a moment after the player is back (its map block unloaded)
            self.add(Step(do="wait", entity=villager, radius=8, seconds=VILLAGER_BACK),
                     f"wait: for the {villager} to be active again", main=False)
            self.here = ("villager", site)
        elif villager in self.model.spawns:
            # from the start, so that the same travel finds the same spot again for the villager's later trades
            self._spawn(villager, name)
            self._spawned_villager(villager, site)
        else:
            raise NoPlan(f"no {villager} summoned at the start for a trade with a {site} (and Minecraft does not "
                         "spawn it)")
        # the experience is the villager's, not the player's: the planner trades a profession's offers with one
        # villager (the start's, or the one spawned for it), which its earlier trades raised
        if self.here not in self.experience:
            start = (self.goals.ir.init.experience or {}) if self.here == ("home", "") else {}
            self.experience[self.here] = Counter({villager_xp(p): xp for p, xp in start.items()})
        has = self.experience[self.here]
        for need in trained:
            xp = self.rules.names[need.members[0]]
            if has[xp] < need.count:
                raise NoPlan(f"{name}: the {villager} at hand has {has[xp]} {xp}, the trade needs {need.count} "
                             "(the planner raised another villager of the profession)")
        if self.jobs.get(self.here) != site:  # placed once: the villager keeps it for every later trade
            # the model keeps the job site in the inventory; the game's stands beside the villager it was placed for
            if self.rules.inventory(self.state).get(site, 0) - self.sites[site] < 1:
                raise NoPlan(f"{name}: the {site} the model holds stands beside another {villager}")
            self.sites[site] += 1
            self.add(Step(do="place", item=site, count=1), f"{name}: {site}, the job site of the villager's "
                     "profession", main=False)
        self.jobs[self.here] = site
        for output in gained:
            has[self.rules.names[output.resource]] += output.count
        self.add(Step(do="trade", entity=villager, item=act.makes), name)

    def _reclaim(self, taken: list[tuple[str, int]], name: str) -> None:
        """Dig back a job site placed beside a villager when the model uses up the one it still holds.

        The model keeps a job site in the inventory after a trade (a kept need); the game's stands beside the
        villager. An action that takes it (burned as fuel, a recipe's ingredient) takes the placed block in the
        game: the player goes back to it and digs it, as a player would.
        """
        held = self.rules.inventory(self.state)
        for site, count in taken:
            if self.sites[site] == 0 or held.get(site, 0) - self.sites[site] >= count:
                continue
            tool = None if self.model.digs(site, HAND) else next(
                (t for t in sorted(held) if held[t] > 0 and self.model.digs(site, t)), None)
            if tool is None and not self.model.digs(site, HAND):
                raise NoPlan(f"nothing held digs the {site} placed beside a villager, for {name}")
            where = next((w for w, s in self.jobs.items() if s == site), ("home", ""))
            self.home(f"the {site} placed there, for {name}")
            if where != ("home", "") and self.villagers.get(site):
                self.add(Step(do="goto_biome", biomes=list(self.villagers[site])),
                         f"teleport: back to the {site} placed beside a villager, for {name}", main=False)
            if where != ("home", ""):
                self.add(Step(do="goto_node", node=site, radius=16),
                         f"teleport: to the {site} placed beside a villager, for {name}", main=False)
            self.add(Step(do="dig", node=site, count=1, radius=6, tool=tool),
                     f"{name}: the {site} placed beside a villager, dug back", main=False)
            self.sites[site] -= 1
            # the villager keeps its profession in the game, but the planner no longer knows where it stands
            self.jobs = {w: s for w, s in self.jobs.items() if s != site}
            self.villagers.pop(site, None)

    def _locked_sites(self, villager: str) -> list[str]:
        """The job sites of the offers locked now (their trades made) that the next trade with ``villager`` has."""
        rules = self.rules
        for a in self.plan[self.index + 1:]:
            act = self.model.act(a)
            if act.kind == "trade" and act.name == villager:
                return sorted({rules.names[way[1].members[0]] for way in rules.ways[a]
                               if any(n.restock and not self.state.counts[n.members[0]] for n in way)})
        return []

    def _another_villager(self, villager: str, name: str, w: int) -> None:
        """Another villager met: an offer of the ones met is locked (its uses made, ``trading.lua``), as in the model.

        The job site placed beside the locked villager is dug back first when the model holds no other (a player
        carries it to the next villager), then another is spawned where Minecraft's villages are (the stand-in);
        the offers' later trades are made with it, beside which the job site is placed anew.
        """
        locked = self._locked_sites(villager)
        for site in locked:
            self._reclaim([(site, 1)], f"{name}: its job site, carried to another {villager}")
        if villager not in self.model.spawns:
            raise NoPlan(f"{name}: an offer of the {villager} met is locked after its uses, and Minecraft does not "
                         f"spawn another {villager}")
        self._spawn(villager, name, list(self.model.spawns[villager])[w])
        for site in locked:  # the new villager trades the locked offers: its job site is not placed yet
            self.jobs.pop(("villager", site), None)
            self._spawned_villager(villager, site)

    def _spawned_villager(self, villager: str, site: str) -> None:
        """The villager just spawned (from the start: ``_spawn``) is the one the profession of ``site`` trades with.

        Its later trades go back to it: from the start the same travel finds the same spot, and the job site.
        """
        spawns = self.model.spawns[villager]
        self.villagers[site] = tuple(spawns[self.met.get(villager) or next(iter(spawns))])
        self.here = ("villager", site)
        self.experience.pop(self.here, None)  # a villager met anew has traded with no one

    def _wander(self, act: Any, name: str, outputs: Any, w: int) -> None:
        """Tries at a wandering trader's offer: one ``trade`` step over traders until one sells the item.

        A trader holds an offer by chance (the game draws its offers once); the model tries trader after trader
        until its sure total of the item grows, paying on every try. The step trades with the trader the start
        summoned (or one spawned where Minecraft spawns it) and, where it lacks the offer, with another spawned
        beside the player (``spawn``: the next trader met), up to ``tries`` traders: enough that all of them lacking
        it is at most one in a million. A run of tries for the item is that one step, buying once for each unit
        of the offer the model got.
        """
        trader = act.name
        rules = self.rules
        a = rules.action_index[name]
        got = sum(n for r, n in outputs if r < rules.n_items and rules.names[r] == act.makes)
        last = self.out[-1] if self.out else None
        if last is not None and last.step.do == "trade" and last.step.spawn and last.step.item == act.makes and \
                last.step.entity == trader:
            last.actions.append(self.index)
            last.received[act.makes] += got
        else:
            if self.here == ("spawned", trader):
                pass  # the one met (spawned) for this, still beside the player
            elif self.home_mobs[trader] > 0:
                self.home(name)
            elif trader in self.model.spawns:
                self._spawn(trader, name)
            else:
                raise NoPlan(f"no {trader} summoned at the start for {name} (and Minecraft does not spawn it)")
            self.add(Step(do="trade", entity=trader, item=act.makes, spawn=True), name)
            last = self.out[-1]
            last.received[act.makes] += got
        output = next(o for o in rules.way_outputs[a][w] if rules.names[o.resource] == act.makes)
        trades = max(1, math.ceil(last.received[act.makes] / output.count))
        last.step = last.step.model_copy(update={"count": trades,
                                                 "tries": tries_for(output.at_least_one, trades)})

    def _ensure_node(self, nodes: list[str], why: str) -> str | None:
        """A target node near the player: one near the start, one placed there now, or a generated one."""
        for node in nodes:
            if self.home_blocks[node] > 0:
                self.home(why)
                return node
        held = self.rules.inventory(self.state)
        for node in nodes:
            placers = [node, *(i for i, block in self.goals.ir.place_as.items()
                               if self.goals.names(block) and node in self.goals.names(block))]
            for item in placers:
                if held.get(item, 0) > 0:
                    self.home(why)
                    self.add(Step(do="place", item=item), f"{why}: its target, placed", main=False)
                    self.home_blocks[node] += 1
                    return node
        for node in nodes:
            if node in self.model.places:
                self.goto(node, why)
                return node
        return None

    def _spawn(self, mob: str, why: str, dimension: str | None = None) -> None:
        """Go where Minecraft spawns a mob and have the harness spawn one beside the player (the stand-in).

        ``dimension``: where the model met it; else where the player is, or the first the mob spawns in. A player
        still standing where it killed one (``("killed", mob)``) does not travel again.
        """
        spawns = self.model.spawns[mob]
        if dimension is None:
            dimension = self.met.get(mob) or next(iter(spawns))
        biomes = spawns[dimension]
        if mob in self.model.villagers:  # from the start: a villager's later trades travel back the same way
            self.home(why)
        if self.here == ("killed", mob) and self.met.get(mob) == dimension:
            pass
        elif biomes:
            self.add(Step(do="goto_biome", biomes=list(biomes), y=self.model.biome_floor(biomes[0])),
                     f"teleport: to a biome where Minecraft spawns {mob} for {why}", main=False)
        elif dimension != "overworld":
            layer = sorted(g for g, b in self.model.registry.biomes.items()
                           if self.model.layer_of(b.y_min) == dimension)
            self.add(Step(do="goto_biome", biomes=layer, y=self.model.biome_floor(layer[0])),
                     f"teleport: to the {dimension}, where Minecraft spawns {mob}, for {why}", main=False)
        else:
            self.home(why)
        self.add(Step(do="spawn", entity=mob), f"spawn: {mob} beside the player, standing in for Minecraft's natural "
                 f"spawning (taskverse_mc spawns no mobs), for {why}")
        self.here = ("spawned", mob)
        self.fed = 0
        self.jobs.pop(self.here, None)
        self.met[mob] = dimension

    def _kill(self, act: Any, name: str, taken: Any, kept: Any, presence: Any, outputs: Any, w: int) -> None:
        """A mob killed: the one found, one summoned at the start, or one spawned where Minecraft spawns it.

        Kills of a spawned mob one after the other, where the player still stands, are one ``kill`` step with a
        count (the harness spawns another beside the player for each further kill), as a run of digs is one
        ``dig``; the player does not travel to the mob's biome again for each.
        """
        mob = act.name
        leaf = self._leaf()
        weapon = next((k for k in kept if k.split(":", 1)[-1] in self.model.weapons), None)
        tool = leaf.hold[0] if leaf is not None and leaf.hold else weapon
        rules = self.rules
        a = rules.action_index[name]
        received = {rules.names[r]: n for r, n in outputs if r < rules.n_items}
        chancy = {rules.names[o.resource]: o.at_least_one for o in rules.way_outputs[a][w] if o.slot >= 0}
        step = Step(do="kill", note=name, entity=mob, tool=tool, spawn=True)
        last = self.out[-2] if len(self.out) >= 2 and self.here == ("killed", mob) else None
        this = _Out(step, [self.index])
        # (a kill for a chance drop and one a kill goal counts stay apart: the first goes on until the drop is held)
        if last is not None and self.out[-1].step.do == "collect" and \
                last.step.model_copy(update={"count": None}) == step and \
                self._kill_goals(last) == self._kill_goals(this) and self._joins(last, this):
            last.step = last.step.model_copy(update={"count": (last.step.count or 1) + 1})
            last.actions.append(self.index)
            last.received.update(received)
            last.chancy.update(chancy)
            return
        spawned = self.here == ("spawned", mob)
        if spawned:  # the one spawned for finding it, still beside the player
            pass
        elif self.home_mobs[mob] > 0:
            self.home_mobs[mob] -= 1
            self.home(name)
        elif mob in self.model.spawns:
            self._spawn(mob, name)
            spawned = True
        else:
            raise NoPlan(f"not enough {mob} summoned at the start (and Minecraft does not spawn it)")
        # where a spawned mob was killed, Minecraft spawns more of its kind (``_spawn`` need not travel there)
        self.here = ("killed", mob) if spawned else ("moved", "kill")
        self.add(Step(do="kill", entity=mob, tool=tool, spawn=spawned or None), name)
        out = self.out[-1]
        out.received.update(received)
        out.chancy.update(chancy)
        self.add(Step(do="collect"), f"{name}: its drops", main=False)

    def _interact(self, act: Any, name: str, taken: Any, kept: Any, presence: Any, outputs: Any, w: int) -> None:
        if act.kind == "loot":
            self._loot(act, name, outputs, w)
        elif act.kind == "death":
            self.add(Step(do="die"), name)
        elif act.kind == "entity":
            self.home(name)
            self.add(Step(do="interact", entity=act.name), name)
        else:
            node = self._ensure_node([act.name], name)
            if node is None:
                raise NoPlan(f"no {act.name} to interact with")
            self.add(Step(do="interact", node=node, radius=6), name)

    def _loot(self, act: Any, name: str, outputs: Any, w: int) -> None:
        """A structure's chest opened (or its suspicious block brushed): travelled to (its biome, then its marker).

        One ``loot`` step: to the nearest structure whose loot is not taken yet, and open it (or brush it: a
        ``use.<marker>.brush``); a chance item goes on to further structures until it is held (:meth:`_until`), as
        a survival player looks for another (taskverse_mc).
        """
        brush = act.kind == "brush"
        place = self.model.places[act.name]
        biomes = list(act.biomes or place.biomes)  # a brush: where the structures hold the block (warm ruins)
        if biomes and (self.here != ("node", act.name) or act.biomes):
            self.add(Step(do="goto_biome", biomes=biomes), f"teleport: to a biome with {act.name} for {name}",
                     main=False)
        kind = self.model.chest_kinds.get(act.name)  # a chest of a further kind, beside the marker (a library's)
        what = f"brush its {act.makes}" if brush else f"open its {kind + ' ' if kind else ''}chest"
        self.add(Step(do="loot", node=act.name, radius=32, y=place.y, vertical=12 if place.biomes else None,
                      tool=act.using if brush else None, on=act.makes if brush else None,
                      biomes=list(act.biomes) or None),
                 f"teleport: to the nearest {self.model.structures[act.name]} (its stand-in) whose loot is not "
                 f"taken yet, and {what}, for {name}")
        self.here = ("node", act.name)
        rules = self.rules
        out = self.out[-1]
        out.received.update({rules.names[r]: n for r, n in outputs if r < rules.n_items})
        a = rules.action_index[name]
        out.chancy.update({rules.names[o.resource]: o.at_least_one for o in rules.way_outputs[a][w] if o.slot >= 0})

    def _reach(self, act: Any, name: str, *_: Any) -> None:
        if act.kind == "block":
            self.goto(act.name, name, above=True, main=True)
            return
        leaf = self._leaf()
        value = leaf.goal.value if leaf is not None and leaf.goal.value is not None else 1.0
        if act.name == "height":
            self.add(Step(do="move", to=(0, value + 1, 0)), f"teleport: {name}")
        elif act.name == "depth":
            self.add(Step(do="move", by=(0, -(value + 1), 0)), f"teleport: {name}")
        else:
            self.add(Step(do="move", by=(value + 1, 0, 0)), f"teleport: {name}")

    def _build(self, act: Any, name: str, taken: list[tuple[str, int]], *_: Any) -> None:
        build = next((b for b in self.goals.ir.trackers.builds if b.name == act.name), None)
        spec = build.model_dump() if build is not None else {"name": act.name, **BUILD_SHAPES[act.name]}
        cells = shape_cells(spec["shape"], spec["length"], spec.get("width", 1), spec.get("height", 1))
        blocks = [item for item, n in taken for _ in range(n)]
        self.home(f"{name} (on the open ground of the start)")
        for at, item in zip(cells, blocks, strict=False):
            self.add(Step(do="place", item=item, at=at), name)

    def _enter(self, act: Any, name: str, taken: list[tuple[str, int]], kept: list[str], *_: Any) -> None:
        if act.kind == "end_portal":
            self._end_portal(act, name, taken)
            return
        frame, lighter = taken[0][0], kept[0]
        portal = self.model.mapping.lookup("nether_portal", "block")
        if portal is None or portal.to is None:
            raise NoPlan(f"{self.model.game} has no nether portal block")
        self.home(name)
        self.add(Step(do="place", item=frame), f"{name}: the portal's obsidian", main=False)
        self.add(Step(do="use", item=lighter, node=frame, radius=6), f"{name}: lit", main=False)
        self.add(Step(do="interact", node=portal.to, radius=6), f"teleport: {name}, through the portal")
        self.arrive(act.name, name)
        self.here = ("moved", name)

    def arrive(self, dimension: str, name: str) -> None:
        """A wait until a portal's travel has put the player in ``dimension``.

        The game generates the map beyond first, however long a busy machine takes: the wait is for the player
        being there, not for a time (``seconds`` only bounds it).
        """
        self.add(Step(do="wait", dimension=dimension, seconds=ARRIVAL_SECONDS),
                 f"{name}: until the portal has taken the player there (the map beyond is made first)", main=False)

    def _end_portal(self, act: Any, name: str, taken: list[tuple[str, int]]) -> None:
        """To a stronghold's portal room, an eye into each frame block, and through the end portal it opens."""
        room = content_portal_room()
        eyes = dict(taken).get(act.using, 0)
        self.goto(act.makes, name)
        for _ in range(eyes):
            self.add(Step(do="use", item=act.using, node=room["frame"], radius=6),
                     f"{name}: an eye of ender into the end portal frame", main=False)
        self.add(Step(do="interact", node=room["portal"], radius=6), f"teleport: {name}, through the end portal")
        self.arrive(act.name, name)
        self.here = ("moved", name)

    # --- after the actions ----------------------------------------------------------------------------------

    def _merge(self) -> None:
        """One step with a count for a run of the same counted step (a dig of three logs, a cook of two ores).

        A step that counts for a goal ends its run, unless the next counts for the same goals and they ask for
        more than one (mine 3 stone): two parts done one after the other (``2 * craft stick``) stay two steps.
        """
        merged: list[_Out] = []
        for o in self.out:
            last = merged[-1] if merged else None
            if last is not None and o.step.do in COUNTED and o.step.at is None and self._joins(last, o) and \
                    last.step.model_copy(update={"count": None}) == o.step.model_copy(update={"count": None}):
                last.step = last.step.model_copy(update={"count": (last.step.count or 1) + (o.step.count or 1)})
                last.actions += o.actions
                last.received.update(o.received)
                last.taken.update(o.taken)
                continue
            merged.append(o)
        self.out = merged
        done: list[_Out] = []
        for at, o in enumerate(merged):
            done += [o, *self._until(o, at)]
        self.out = self._fold_tries(done)

    def _until(self, out: _Out, at: int) -> list[_Out]:
        """A run of digs (or a kill) that got something by chance in the model goes on until that many are held.

        A plan must not depend on luck: the model delivers a chance drop where 95% of players would have it (a
        10% flint on the 29th gravel), the engine draws it. Of several chance drops, the one a goal or a later
        action wants (the rarest of those), else the rarest. Digs and kills counted by a goal (mine 5 gravel) keep
        their count. A kill of a spawned mob spawns another beside the player for each further kill (``spawn``;
        the stand-in for natural spawning).
        """
        got = [(out.chancy[item], item) for item, n in out.received.items() if item in out.chancy and n > 0]
        counted = any(self.goals.leaves[k].goal.event in ("mine", "kill")
                      for k in self._counts_for(out) if k in self.goals.leaves)
        if out.step.do not in ("dig", "kill", "enchant", "loot") or not got or counted:
            if out.step.do == "kill" and out.step.spawn and (out.step.count or 1) == 1:
                out.step = out.step.model_copy(update={"spawn": None})  # the one spawned before it is there
            return []
        wanted = {n for names in self.goals.tags.values() for n in names}
        wanted |= {n for o in self.out[at + 1:] for n in o.taken}
        chance, item = min(got, key=lambda g: (g[1] not in wanted, g))
        if out.step.do == "loot" and item not in wanted:
            return []  # the chests the plan opens, for what they hold at their rate
        update: dict[str, Any] = {"item": item, "count": out.received[item],
                                  "tries": tries_for(chance, out.received[item])}
        spawning = ("spawning another beside the player for each further kill, standing in for Minecraft's "
                    "natural spawning")
        if out.step.do == "kill" and out.step.spawn:
            update["note"] = f"{out.step.note}, until {item} is dropped ({spawning})"
        first = out.step
        out.step = out.step.model_copy(update=update)
        # a spawned mob's other chance drops the plan wants: more kills until each is held too
        if out.step.do != "kill" or not out.step.spawn:
            return []
        return [_Out(first.model_copy(update={"item": other, "count": out.received[other],
                                              "tries": tries_for(p, out.received[other]),
                                              "note": f"{first.note}, until {other} is dropped too ({spawning})"}),
                     main=False)
                for p, other in sorted(got) if other != item and other in wanted]

    def _fold_tries(self, outs: list[_Out]) -> list[_Out]:
        """Enchanting tries of a tool before the run the model gave its Silk Touch tool on are that run's tries.

        The model delivers the tool where its sure total grows (a 1 in 6 chance on the 17th try, lapis mined between
        the tries); the engine draws each try. Played as the model has them, a try before the last could give the tool
        and leave none to enchant; so the earlier tries go into the last step, which tries until the tool is held,
        with lapis for every try it may take (``_lapis_for``).
        """
        out: list[_Out] = []
        for o in outs:
            if o.step.do == "enchant" and o.step.item is not None:
                earlier = [e for e in out if e.step.do == "enchant" and e.step.item is None and
                           e.step.tool == o.step.tool]
                for e in earlier:
                    o.actions = [*e.actions, *o.actions]
                out = [e for e in out if all(e is not x for x in earlier)]
                self._lapis_for(out, o)
            out.append(o)
        return out

    def _lapis_for(self, before: list[_Out], run: _Out) -> None:
        """Lapis for every try an enchanting run may take, as a dig for a chance drop gets its tries.

        The model's tries spend the lapis it mined for them; bad luck takes more tries (up to ``tries``: one in a
        million comes up short), each 3 lapis. The last dig of lapis ore before the run (not one near the start,
        not one a goal counts) goes on until that much more lapis is held: the ore is in the world, as gravel is.
        """
        table = self.model.enchanting
        if table is None or run.step.tries is None:
            return
        lapis = table["lapis"]
        extra = table["lapis_count"] * (run.step.tries - len(run.actions))
        dig = next((o for o in reversed(before) if o.step.do == "dig" and o.received.get(lapis, 0) > 0), None)
        if dig is None or extra <= 0 or dig.from_start or dig.step.item is not None or self._counts_for(dig):
            return
        dig.step = dig.step.model_copy(update={
            "item": lapis, "count": dig.received[lapis] + extra,
            "note": f"{dig.step.note}, until lapis for {run.step.tries} enchanting tries is held"})

    def _joins(self, last: _Out, out: _Out) -> bool:
        before = self._counts_for(last)
        return not before or (before == self._counts_for(out) and all(
            self.goals.leaves[k].goal.count > 1 for k in before if k in self.goals.leaves))

    def _counts_for(self, out: _Out) -> set[str]:
        return {k for i in out.actions for k in self.contributes.get(i, [])}

    def _kill_goals(self, out: _Out) -> set[str]:
        """The occurrences of kill goals a step counts for (its kills are counted, not played for a drop)."""
        leaves = self.goals.leaves
        return {k for k in self._counts_for(out) if k in leaves and leaves[k].goal.event == "kill"}

    def _constrain(self) -> None:
        """Before each step that counts for a constrained occurrence, the set-up its constraints ask for.

        A run of the same action is one step (mine 3 stone in a cave: one dig, one move into the stone); a part
        done again (``2 * mine stone @ where=cave``) gets its set-up again. A set-up goes before the step's own
        travel to a node (``goto_node``), so the player looks for the node from where the set-up put it.
        """
        inserts: dict[int, list[Step]] = {}
        main = {i: at for at, out in enumerate(self.out) for i in out.actions if out.main}
        for key, leaf in self.goals.leaves.items():
            if not leaf.constraints and not leaf.hold:
                continue
            counting = {i for i, keys in self.contributes.items() if key in keys}
            for at in sorted({main[i] for i in counting if i in main}):
                out = self.out[at]
                setup = self._setup(leaf, at)
                first = at
                while first - 1 >= 0 and self.out[first - 1].step.do == "goto_node" and \
                        not self.out[first - 1].main and set(self.out[first - 1].actions) & set(out.actions):
                    first -= 1
                if setup:
                    inserts.setdefault(first, []).extend(setup)
                # the travel to the node stays in the biome the constraint asks for (the nearest copper ore to a
                # taiga spot may lie under the next biome)
                biomes = next((s.biomes for s in setup if s.do == "goto_biome"), None)
                for i in range(first, at + 1):
                    if biomes and self.out[i].step.do == "goto_node":
                        self.out[i].step = self.out[i].step.model_copy(update={"biomes": biomes})
        for at in sorted(inserts, reverse=True):
            self.out[at:at] = [_Out(s) for s in inserts[at]]

    def _setup(self, leaf: _Leaf, at: int) -> list[Step]:
        """The set-up steps of one occurrence, and its tool on its final step."""
        setup: list[Step] = []
        how = next((c.how for c in leaf.constraints if c.how is not None), None)
        place = next((c.where for c in leaf.constraints if c.where not in (None, "overworld")), None)
        if place is not None and self.out[at].step.do == "trade":
            raise NoPlan(f"a villager trades where it was met: the planner does not lead one to {place}")
        for c in leaf.constraints:
            note = f"constraint {c.when or c.where} of {leaf.atom}"
            if c.when in ("day", "night"):
                setup.append(Step(do="time", of_day="day" if c.when == "day" else "night", note=note))
            if c.where is None:
                continue
            if c.where == "cave":
                setup.append(Step(do="move", by=(0, -12, 0), note=f"teleport: into the stone, {note}"))
            elif c.where.startswith("height:"):
                low, high = height_range(c.where)
                if low is not None and high is not None:
                    y = (low + high) / 2
                else:
                    y = low + 1 if low is not None else (high - 3 if high is not None else GROUND_Y)
                setup.append(Step(do="move", to=(0, y, 0), note=f"teleport: {note}"))
            elif c.where in self.model.settings.dimensions:
                if self._start_dimension() != c.where:
                    raise NoPlan(f"the planner goes to the {c.where} only for enter goals")
            elif c.where != "overworld":
                biomes = [g for g, mc in self.goals.ir.biomes.items() if mc == c.where and self.model.at_ground(g)]
                if not biomes:
                    raise NoPlan(f"no part of {c.where} is at the flat world's surface")
                dug = self.out[at].step
                carry = self.out[at].from_start and dug.do == "dig" and dug.count == 1 and dug.node is not None \
                    and any(y.name == dug.node for y in self.model.drop_yields(dug.node, dug.tool or HAND))
                if carry:  # the block near the start, taken along: dug there, placed again in the biome
                    setup += [Step(do="home", note=f"teleport: back to the start for the {dug.node} there, {note}"),
                              Step(do="dig", node=dug.node, count=1, radius=6, tool=dug.tool,
                                   note=f"{note}: the {dug.node} near the start, dug to take along")]
                setup.append(Step(do="goto_biome", biomes=sorted(biomes), note=f"teleport: {note}"))
                if carry:
                    setup.append(Step(do="place", item=dug.node, count=1, note=f"{note}: the {dug.node} placed here"))
        final = self.out[at]
        held = [self.held.get(i) for i in final.actions]  # what the model held: one of the items asked for
        tool: str | None = next((h for h in held if h in leaf.hold), leaf.hold[0] if leaf.hold else None)
        if how == "bare_hand":
            if final.step.do == "dig" and not self.model.digs(final.step.node or "", HAND):
                raise NoPlan(f"{final.step.node} cannot be dug with bare hands")
            setup.append(Step(do="wield", item="", note=f"constraint how=bare_hand of {leaf.atom}"))
            tool = None
        elif tool is not None and how is not None:
            setup.append(Step(do="wield", item=tool, note=f"constraint {how} of {leaf.atom}"))
        elif tool is not None and final.step.do not in ("dig", "kill"):  # (those hold their tool themselves)
            setup.append(Step(do="wield", item=tool, note=f"{leaf.atom} is done holding {tool}"))
        if final.step.do in ("dig", "kill") and (how is not None or leaf.hold):
            final.step = final.step.model_copy(update={"tool": tool})
        return setup

    def _start_dimension(self) -> str:
        position = self.goals.ir.init.position
        return (self.model.layer_of(position[1]) if position is not None else None) or "overworld"


def start_state(model: GameModel, ir: TaskIR) -> State:
    """The model's state at the task's compiled start: the inventory, what is near, the biome and dimension."""
    init = ir.init
    inventory = Counter({s.name: s.count for s in init.inventory})
    if init.wield:
        inventory[init.wield] += 1
    for profession, xp in (init.experience or {}).items():  # the summoned villagers' (taskverse_mc's levels)
        inventory[villager_xp(profession)] += xp
    found: list[tuple[str, str]] = [("block", s.name) for s in init.nearby]
    found += [("entity", s.name) for s in init.summon]
    found += [("biome", b) for b in (init.biomes or [])[:1] if ("biome", b) in model.rules.index]
    dimension = (model.layer_of(init.position[1]) if init.position is not None else None) or "overworld"
    found.append(("dimension", dimension))
    try:
        state = model.rules.new_state(dict(inventory), found)
    except TaskverseError as exc:
        raise NoPlan(f"the start holds what the {model.game} model does not know: {exc}") from None
    for summoned in init.summon:  # each villager summoned makes every offer (the first: ``new_state``'s find)
        for counter, made in model.rules.stocked.get(model.rules.index[("entity", summoned.name)], ()):
            model.rules.change(state, counter, (summoned.count - 1) * made)
    return state


def scripted_plan(task: Any, ir: TaskIR, library: Any, budget: int = DEFAULT_BUDGET) -> ScriptedPlan:
    """The one planner's plan for a compiled task over its game's model, as harness steps.

    Raises :class:`NoPlan` naming what the game lacks (or that the planner found no plan within ``budget``).
    """
    model = game_model(ir.game, library.knowledge)
    goals = _Goals(model, ir)
    tracker = GoalTracker(goals.expression, Evaluator(goals.goals, goals.tags), Context())
    state = start_state(model, ir)
    actions: list[int] = []
    proven = True
    if tracker.remaining(tracker.initial()) is not None:  # else nothing is left to do but avoid something
        start = holdings(model.rules, state)
        # the prices that order alternatives, lowered from the game's cached ones by what the start holds
        costs = CostModel.lowered(CostModel.for_rules(model.rules), [r for r in start if r < model.rules.n_resources])
        planner = Planner(model.rules, tracker, start, max_expansions=budget, costs=costs)
        found, proven = planner.best_plan()
        if found is None:
            why = "; ".join(goals.problems.values()) or _why(model, planner, goals)
            raise NoPlan(f"no scripted plan for {task.id} in {ir.game}: {why}")
        actions = found
    player = _Player(model, goals, tracker, state.copy())
    try:
        steps = player.play(actions)
    except NoPlan as exc:
        raise NoPlan(f"no scripted plan for {task.id} in {ir.game}: {exc}") from None
    return ScriptedPlan(Plan(steps=steps), [model.rules.actions[a] for a in actions], proven)


def _why(model: GameModel, planner: Planner, goals: _Goals) -> str:
    """Why the planner found nothing: for each part no action can do from the start, what its ways lack."""
    rules, costs = model.rules, planner.costs
    inf = float("inf")
    mobs = (" (a mob comes from a start that summons it, or is spawned where Minecraft spawns it, if the player can "
            "go there)")
    reasons = []
    for leaf in planner.tracker.leaves:
        if any(costs.action[a] < inf for a, _ in planner.universe.emitters.get(leaf.index, [])):
            continue
        missing: dict[str, set[str]] = {}
        for a in sorted({a for key in leaf.keys for a in rules.actions_by_key.get(key, [])}):
            for way in rules.ways[a]:
                for need in way:
                    if all(costs.unit[m] == inf for m in need.members):
                        kind = rules.resources[need.members[0]][0]
                        missing.setdefault(kind, set()).update(rules.names[m] for m in need.members)
        what = goals.leaves[leaf.atom].atom if leaf.atom in goals.leaves else leaf.goal.describe()
        lacks = "; ".join(f"{kind} {' or '.join(sorted(names)[:4])}{' ...' if len(names) > 4 else ''}"
                          f"{mobs if kind == 'entity' else ''}"
                          for kind, names in sorted(missing.items()))
        reasons.append(f"{what}: {model.game} gives nothing its ways need from this start: {lacks or '?'}")
    return "; ".join(reasons) or f"no plan within {planner.max_expansions} expanded states"


def plan_task(task: Any, ir: TaskIR, library: Any) -> Plan:
    """A scripted plan for a compiled task (raises :class:`NoPlan` saying what the game lacks)."""
    return scripted_plan(task, ir, library).plan

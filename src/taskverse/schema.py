"""The task file format: pydantic models for atom tasks and the parts molecule tasks reuse.

Every model rejects unknown fields, so a mistyped key is an error and never silently ignored.

Example:
    >>> goal = Goal(event="craft", target="iron_sword")
    >>> goal.describe()
    'craft iron_sword'

"""

from __future__ import annotations

import functools
from enum import StrEnum
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from taskverse.world.chance import sure_rate

TASK_ID_PATTERN = r"^[a-z0-9_]+(\.[a-z0-9_#:-]+)+$"
NAME_PATTERN = r"^#?[a-z0-9_:]+$"

Name = Annotated[str, Field(pattern=NAME_PATTERN, min_length=1, max_length=128)]
GOAL_ONLY_TAG = "goal_only"
"""The tag of an atom that is a goal only (see ``AtomTask.goal_only``)."""
REPAIRS_TAG = "repairs"
"""The tag of an atom that gives back the item it takes in repaired (an anvil's repair): the text world takes a unit
of material's share of the durability (``anvil.yaml``), or all of it for a second item, off the item's wear."""
VILLAGER_XP_PREFIX = "xp:"
"""The internal items ``xp:<profession>``: the villager experience the player's villager of a profession has from
its trades (``trades.yaml``), kept; a trade of a level needs the experience of that level."""


def villager_xp(profession: str) -> str:
    """The internal item counting a profession's villager experience (``xp:librarian``)."""
    return VILLAGER_XP_PREFIX + profession


MAX_COUNT = 2304
"""The largest count a task may name: a full inventory (36 slots of 64)."""
Finite = Annotated[float, Field(allow_inf_nan=False)]
Count = Annotated[int, Field(strict=True, ge=1, le=MAX_COUNT)]
"""A count of items, blocks or mobs: a whole number (not ``true``, not ``"3"``) from 1 to ``MAX_COUNT``."""


class StrictModel(BaseModel):
    """Base of every file-format model: frozen, and unknown fields are rejected."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_enum_values=False)


class Category(StrEnum):
    """The seven functional groups of MCU (Section 2.1, footnote 2)."""

    MINING = "mining"
    NAVIGATION = "navigation"
    CRAFTING = "crafting"
    EXPLOITATION = "exploitation"
    COMBAT = "combat"
    BUILDING = "building"
    MISC = "misc"


class Dimension(StrEnum):
    """The three dimensions of the game world."""

    OVERWORLD = "overworld"
    NETHER = "nether"
    END = "end"


class TimeOfDay(StrEnum):
    """Times an initialization or a constraint can name."""

    DAY = "day"
    NIGHT = "night"
    SUNRISE = "sunrise"
    SUNSET = "sunset"
    NOON = "noon"
    MIDNIGHT = "midnight"


class Weather(StrEnum):
    """Weather an initialization or a constraint can name."""

    CLEAR = "clear"
    RAIN = "rain"
    THUNDER = "thunder"


class EquipSlot(StrEnum):
    """Equipment slots besides the main hand."""

    HEAD = "head"
    CHEST = "chest"
    LEGS = "legs"
    FEET = "feet"
    OFFHAND = "offhand"


class ResourceKind(StrEnum):
    """What a requirement or a yield is about: an item in the inventory, or something present in the world."""

    ITEM = "item"
    BLOCK = "block"
    ENTITY = "entity"
    BIOME = "biome"
    STRUCTURE = "structure"
    DIMENSION = "dimension"


class Event(StrEnum):
    """What the agent can be observed doing; success conditions are stated in these events."""

    OBTAIN = "obtain"
    CRAFT = "craft"
    MINE = "mine"
    SMELT = "smelt"
    KILL = "kill"
    FIND = "find"
    PLACE = "place"
    EAT = "eat"
    USE = "use"
    BUILD = "build"
    EQUIP = "equip"
    ENTER = "enter"
    REACH = "reach"
    INTERACT = "interact"
    STORE = "store"
    """An item put into a container's slots, out of the inventory (the game has no statistic for it)."""


class MetricName(StrEnum):
    """Metrics a task can be scored with besides success (MCU Section 2.1, Metrics)."""

    TIME_TO_SUCCESS = "time_to_success"
    VERTICAL_DISPLACEMENT = "vertical_displacement"
    HORIZONTAL_DISTANCE = "horizontal_distance"
    HUMAN_RATING = "human_rating"
    MINECLIP = "mineclip"


DIFFICULTY_DIMENSIONS: tuple[str, ...] = (
    "time_consumption",
    "operational_effort",
    "planning_complexity",
    "intricacy",
    "creativity",
    "novelty",
)


class Goal(StrictModel):
    """A success condition: an event on a target, at least ``count`` times.

    ``target`` is an item, block, entity, biome, structure or build-pattern name, or ``#tag`` for any member of a
    tag. ``using`` is the item that must be held; ``value`` is a threshold for ``reach`` goals (height, depth);
    ``chest`` is the kind of a structure's chest an ``interact`` goal opens (a stronghold's ``library``): only events
    naming that kind count, where a goal without one counts any chest of the structure.
    """

    event: Event
    target: Name
    count: Count = 1
    using: Name | None = None
    value: Annotated[float, Field(allow_inf_nan=False)] | None = None
    chest: Annotated[str, Field(pattern=r"^[a-z0-9_]+$", max_length=64)] | None = None

    @model_validator(mode="after")
    def _chest_opened(self) -> Goal:
        if self.chest is not None and self.event is not Event.INTERACT:
            raise ValueError("chest names the kind of a structure's chest opened: only an interact goal has one")
        return self

    def describe(self) -> str:
        """The goal in words, as MCU writes task descriptions."""
        words = [self.event.value, self.target]
        if self.count > 1:
            words.insert(1, str(self.count))
        if self.using:
            words += ["with", self.using]
        if self.value is not None:
            words.append(f"{self.value:g}")
        if self.chest is not None:
            words += ["at", "its", self.chest, "chest"]
        return " ".join(words)


class Measure(StrEnum):
    """What a need's ``count`` counts: items, or smelts' worth of furnace fuel (each fuel item burns for its own)."""

    ITEMS = "items"
    SMELTS = "smelts"


class Need(StrictModel):
    """One requirement of a way to do a task: ``count`` of any of the listed resources (AND across needs).

    ``kept`` items are not used up (tools, stations); a kept item with durability in the game data loses ``uses``
    durability points per action and breaks when it has none left. With ``measure: smelts`` the count is in smelts
    of fuel and each listed item pays what it burns for (a coal 8 smelts, a stick half of one).
    """

    kind: ResourceKind = ResourceKind.ITEM
    any_of: Annotated[list[Name], Field(min_length=1)]
    count: Count = 1
    kept: bool = False
    uses: Annotated[int, Field(ge=0, le=100_000)] = 1
    measure: Measure = Measure.ITEMS

    @field_validator("any_of")
    @classmethod
    def _no_repeats(cls, names: list[str]) -> list[str]:
        if len(set(names)) != len(names):
            raise ValueError("any_of lists a name twice")
        return names

    @model_validator(mode="after")
    def _consistent(self) -> Need:
        if self.measure == Measure.SMELTS and (self.kept or self.kind != ResourceKind.ITEM):
            raise ValueError("a fuel need (measure: smelts) is of items that are burnt, not kept")
        return self


class Yield(StrictModel):
    """What doing a task gives: items, or the presence of something found (a block, an entity, a biome...).

    ``count`` items come with probability ``chance``; with ``max`` the count is drawn from ``count..max`` (a
    range, as the game's loot tables give: lapis ore drops 4 to 9), so on average ``chance * (count + max) / 2``.
    """

    kind: ResourceKind = ResourceKind.ITEM
    name: Name
    count: Annotated[int, Field(ge=0, le=1_000_000)] = 1
    max: Annotated[int, Field(ge=1, le=1_000_000)] | None = None
    chance: Annotated[float, Field(gt=0, le=1)] = 1.0

    @model_validator(mode="after")
    def _range(self) -> Yield:
        if self.max is None and self.count == 0:
            raise ValueError("a yield of 0 items needs a range (max)")
        if self.max is not None and self.max < self.count:
            raise ValueError(f"max ({self.max}) is below count ({self.count})")
        return self

    @property
    def upper(self) -> int:
        """The most one try can give."""
        return self.count if self.max is None else self.max

    @property
    def expected(self) -> float:
        """The average one try gives."""
        return self.chance * (self.count + self.upper) / 2

    @property
    def sure(self) -> float:
        """Units per try a plan counts on (``world.chance.sure_rate``: what comes with 95% probability)."""
        if self.chance >= 1 and self.upper == self.count:
            return float(self.count)
        return sure_rate(self.chance, self.count, self.upper)

    @property
    def units(self) -> float:
        """Units a run is priced as giving: what an item's run gives for sure, a place's share of a find.

        A place is found once; a place by chance (an anvil worn to chipped) takes the tries that find it for sure.
        """
        return self.sure if self.kind == ResourceKind.ITEM else min(1.0, self.sure)


class Summon(StrictModel):
    """An entity placed near the agent at the start."""

    entity: Name
    count: Count = 1


class Initialization(StrictModel):
    """The state the agent starts in (MCU Section 2.1, Initialization).

    The default is the naive initialization: empty inventory, random spawn in the overworld.
    """

    inventory: dict[Name, Count] = Field(default_factory=dict)
    main_hand: Name | None = None
    equipment: dict[EquipSlot, Name] = Field(default_factory=dict)
    dimension: Dimension = Dimension.OVERWORLD
    biome: Name | None = None
    structure: Name | None = None
    position: tuple[Finite, Finite, Finite] | None = None
    nearby_blocks: dict[Name, Count] = Field(default_factory=dict)
    summon: list[Summon] = Field(default_factory=list)
    time: TimeOfDay | None = None
    weather: Weather | None = None

    def is_naive(self) -> bool:
        """True for an empty inventory and a random overworld spawn with nothing arranged."""
        return self == _naive_initialization()


@functools.cache
def _naive_initialization() -> Initialization:
    """The naive initialization, made once (models are frozen; suite building asks thousands of times)."""
    return Initialization()


class Metrics(StrictModel):
    """How a task is scored: its success condition and the other metrics recorded."""

    success: Goal
    also: list[MetricName] = Field(default_factory=lambda: [MetricName.TIME_TO_SUCCESS])


class Score(StrictModel):
    """One difficulty dimension: the raw heuristic, its calibrated value in [0, 5], and where it came from."""

    raw: float | None = None
    calibrated: Annotated[float, Field(ge=0, le=5)] | None = None
    source: str | None = None


class Difficulty(StrictModel):
    """The six difficulty dimensions of MCU Section 3."""

    time_consumption: Score | None = None
    operational_effort: Score | None = None
    planning_complexity: Score | None = None
    intricacy: Score | None = None
    creativity: Score | None = None
    novelty: Score | None = None


Way = list[Need]


class WaySpec(StrictModel):
    """A way with an outcome of its own: its needs, and what it yields instead of the task's ``yields``.

    Recipes for one item can give different counts (two planks make four sticks, two bamboo one), so a way may
    say what it yields; a plain list of needs yields the task's ``yields``.
    """

    needs: list[Need]
    yields: list[Yield]


class AtomTask(StrictModel):
    """An atom task (MCU Section 2.1): the basic building block of every benchmark.

    ``requires`` lists the ways to do the task, each a list of needs that must all be met; when it is omitted the
    needs are read off the initialization, which by MCU's convention gives exactly the prerequisites.
    ``yields`` is what doing the task gives. ``pre_tasks`` names further atoms that must be done first, beyond
    those the dependency graph derives from ``requires``.
    """

    kind: Literal["atom"] = "atom"
    id: Annotated[str, Field(pattern=TASK_ID_PATTERN, max_length=200)]
    description: Annotated[str, Field(min_length=1, max_length=500)]
    aliases: list[str] = Field(default_factory=list)
    category: Category
    verb: Annotated[str, Field(pattern=r"^[a-z_]+$")]
    initialization: Initialization = Field(default_factory=Initialization)
    requires: list[Way | WaySpec] | None = None
    yields: list[Yield] = Field(default_factory=list)
    pre_tasks: list[Annotated[str, Field(pattern=TASK_ID_PATTERN)]] = Field(default_factory=list)
    metrics: Metrics
    difficulty: Difficulty = Field(default_factory=Difficulty)
    tags: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _consistent(self) -> AtomTask:
        if self.id in self.pre_tasks:
            raise ValueError(f"task {self.id!r} lists itself as a pre-task")
        if self.requires is not None and not self.requires:
            raise ValueError("requires, when given, lists at least one way")
        for way in self.requires or ():
            needs = way.needs if isinstance(way, WaySpec) else way
            used: dict[str, int] = {}
            for n, need in enumerate(needs):
                if need.kept or need.kind != ResourceKind.ITEM:
                    continue
                for name in need.any_of:
                    if name in used:
                        # One unit cannot be spent twice: a log is not both the input and the fuel.
                        raise ValueError(f"needs {used[name] + 1} and {n + 1} of a way both use up {name!r}")
                    used[name] = n
        return self

    @property
    def goal(self) -> Goal:
        """The success condition."""
        return self.metrics.success

    @property
    def goal_only(self) -> bool:
        """Whether the atom is a goal other atoms' actions reach, never an action of its own.

        ``obtain.*`` (an item got by any action that gives it) and the item-use statistic's ``use.*`` atoms
        tagged ``GOAL_ONLY_TAG`` (an item used by any action that uses it: ``docs/algebra.md``).
        """
        return self.verb == "obtain" or self.id.startswith("obtain.") or GOAL_ONLY_TAG in self.tags


class TaskFile(StrictModel):
    """A file holding many atom tasks (the library's files are of this form)."""

    generated_by: str | None = None
    tasks: list[AtomTask]

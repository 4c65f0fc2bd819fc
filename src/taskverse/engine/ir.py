"""The typed intermediate form between a task and the Lua mod that runs it in the engine.

``taskverse.engine.compiler`` turns a task (atom or molecule) into a :class:`TaskIR`: every Minecraft name the task uses
is checked against the game profile (``engine/games/<game>/mapping.yaml`` and ``registry.json``) and the game
names it stands for are written out, so the runtime needs no knowledge of its own. ``taskverse.engine.lua``
writes a TaskIR as Lua data; the runtime mod (``engine/mods/taskverse``) reads exactly these fields.

Goals keep Minecraft names: the runtime logs events in the vocabulary of :class:`taskverse.algebra.semantics.GameEvent`
(it translates game names back through :attr:`TaskIR.names`), so a trace from the engine replays through the
Python evaluator unchanged.
"""

from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import BaseModel, ConfigDict, Field

#: The runtime's data format; ``engine/mods/taskverse/init.lua`` refuses other formats.
IR_FORMAT = 1

#: The map generator every compiled world is made with (written to the world's ``map_meta.txt``, which the
#: engine prefers to any config file): flat ground at y = 8, no caves or dungeons under a spot, the biomes,
#: ores and decorations of mapgen v7 that the game profile's registry was dumped with.
MAPGEN: dict[str, str] = {
    "mg_name": "flat",
    "seed": "1",
    "mg_flags": "nocaves,nodungeons",
    "mgflat_spflags": "nolakes,nohills,nocaverns",
}


class IRModel(BaseModel):
    """Base of the intermediate form: frozen, unknown fields rejected."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class GoalIR(IRModel):
    """An atom's success goal in Minecraft names (a ``#tag`` expanded to its members with a game counterpart)."""

    event: str
    targets: list[str]
    count: int = 1
    using: list[str] | None = None
    value: float | None = None
    chest: str | None = None
    """The kind of a structure's chest the goal opens (``Goal.chest``): only an event naming it counts."""


class ConstraintIR(IRModel):
    """A constraint as the runtime checks it (``where_kind`` says how to read ``where``)."""

    when: str | None = None
    where: str | None = None
    where_kind: Literal["dimension", "cave", "height", "biome"] | None = None
    low: float | None = None
    high: float | None = None
    how: str | None = None
    how_items: list[str] = Field(default_factory=list)


class AtomIR(IRModel):
    """A reference to an atom's goal (in :attr:`TaskIR.goals`)."""

    op: Literal["atom"] = "atom"
    atom: str


class GroupIR(IRModel):
    """AND (any order), OR, THEN (in order), or at least ``count`` of the parts."""

    op: Literal["all", "any", "then", "at_least"]
    parts: list[ExprIR]
    count: int | None = None


class RepeatIR(IRModel):
    """The part ``times`` times in a row."""

    op: Literal["repeat"] = "repeat"
    times: int
    part: ExprIR


class AmountIR(IRModel):
    """The part's atom with ``count`` times its goal's count: its events add up their counts."""

    op: Literal["amount"] = "amount"
    count: int
    part: ExprIR


class NotIR(IRModel):
    """Fails when the part is done (avoid)."""

    op: Literal["not"] = "not"
    part: ExprIR


class WithinIR(IRModel):
    """The part decided within ``ticks`` game ticks (20 a second) of its start."""

    op: Literal["within"] = "within"
    ticks: int
    part: ExprIR


class ConstrainedIR(IRModel):
    """A part whose events count only under a constraint."""

    op: Literal["constrained"] = "constrained"
    part: ExprIR
    constraint: ConstraintIR


class InitializedIR(IRModel):
    """A part with its own start; the start itself is :attr:`TaskIR.init` (success is unchanged)."""

    op: Literal["initialized"] = "initialized"
    part: ExprIR


ExprIR = Annotated[Union[AtomIR, GroupIR, ConstrainedIR, InitializedIR, RepeatIR, AmountIR, NotIR,  # noqa: UP007
                         WithinIR],
                   Field(discriminator="op")]
for _model in (GroupIR, ConstrainedIR, InitializedIR, RepeatIR, AmountIR, NotIR, WithinIR):
    _model.model_rebuild()


class StackIR(IRModel):
    """``count`` of one game item, node or entity."""

    name: str
    count: int


class InitIR(IRModel):
    """The start, in game names: the inventory (always replaced), the wielded item, where and when."""

    inventory: list[StackIR] = Field(default_factory=list)
    wield: str | None = None
    position: list[float] | None = None
    biomes: list[str] | None = None
    time: float | None = None
    nearby: list[StackIR] = Field(default_factory=list)
    summon: list[StackIR] = Field(default_factory=list)
    experience: dict[str, int] | None = None
    """A villager profession -> the experience the summoned villagers start with in it (taskverse_mc's levels)."""


class DropIR(IRModel):
    """A mob drop in mobs_redo's terms: ``chance`` is 1 in N."""

    name: str
    chance: int = 1
    min: int = 1
    max: int = 1


class MobIR(IRModel):
    """A mob the runtime registers through the mobs_redo API (minetest_game has none)."""

    name: str
    hp: int
    texture: str
    drops: list[DropIR] = Field(default_factory=list)


class FindIR(IRModel):
    """What the surroundings scan looks for (biomes are always watched)."""

    radius: int = 8
    nodes: list[str] = Field(default_factory=list)
    entities: list[str] = Field(default_factory=list)


class ReachIR(IRModel):
    """Measures of movement to report (``height``, ``depth``, ``distance``...) and nodes to stand on."""

    measures: list[str] = Field(default_factory=list)
    nodes: list[str] = Field(default_factory=list)


class ItemsIR(IRModel):
    """Game items whose callbacks the runtime wraps."""

    items: list[str] = Field(default_factory=list)


class UseIR(IRModel):
    """Items whose use callbacks the runtime wraps, and mobs an item used on (right-clicked) counts as used on."""

    items: list[str] = Field(default_factory=list)
    entities: list[str] = Field(default_factory=list)


class InteractIR(IRModel):
    """Nodes and entities to watch being right-clicked (or punched), and whether dying counts."""

    nodes: list[str] = Field(default_factory=list)
    entities: list[str] = Field(default_factory=list)
    death: bool = False
    chests: dict[str, str] | None = None
    """Nodes among ``nodes`` that are a structure's chest of a further kind -> the kind, which the event of opening
    one names (``GameEvent.chest``: a stronghold's library chest); None: no such node is watched."""


class BuildIR(IRModel):
    """A shape of placed nodes that counts as building ``name``."""

    name: str
    shape: Literal["column", "line", "floor", "wall", "box", "pyramid"]
    length: int
    width: int = 1
    height: int = 1


def shape_cells(shape: str, length: int, width: int = 1, height: int = 1) -> list[tuple[int, int, int]]:
    """The cells of a build shape, bottom layer first, two nodes east of where the player stands.

    A ``pyramid`` is stepped: a ``length`` x ``length`` base (odd), each layer above one smaller on every side.

    Example:
        >>> len(shape_cells("pyramid", 5))
        35

    """
    if shape == "pyramid":
        return [(2 + k + i, k, k + j) for k in range((length + 1) // 2)
                for i in range(length - 2 * k) for j in range(length - 2 * k)]
    return {
        "column": [(2, k, 0) for k in range(length)],
        "line": [(2, 0, k) for k in range(length)],
        "floor": [(2 + i, 0, j) for i in range(length) for j in range(width)],
        "wall": [(2, k, j) for k in range(height) for j in range(length)],
        "box": [(2 + i, k, j) for k in range(height) for i in range(length) for j in range(width)],
    }[shape]


class TrackersIR(IRModel):
    """The watchers a task needs beyond those always on (obtain, craft, mine, place, eat, smelt, kill, equip)."""

    find: FindIR = Field(default_factory=FindIR)
    reach: ReachIR = Field(default_factory=ReachIR)
    use: UseIR = Field(default_factory=UseIR)
    place: ItemsIR = Field(default_factory=ItemsIR)
    interact: InteractIR = Field(default_factory=InteractIR)
    builds: list[BuildIR] = Field(default_factory=list)
    kill: ItemsIR = Field(default_factory=ItemsIR)
    """Mobs the game registers itself (taskverse_mc): the runtime watches them die (its own mobs report it)."""
    store: ItemsIR = Field(default_factory=ItemsIR)
    """Container nodes whose ``main`` list the runtime watches a stack being put into (the ``store`` event)."""


class DimensionIR(IRModel):
    """Another dimension as a layer of the game's world: its heights, and the floor a player stands on."""

    y_min: int
    y_max: int
    floor: int


class TaskIR(IRModel):
    """Everything the runtime needs to run one task, and nothing it would have to look up.

    Attributes:
        names: game item, node or entity name -> the Minecraft name events report for it.
        biomes: game biome -> Minecraft biome.
        place_as: game item -> the Minecraft block placing it makes (seeds make crops).
        mods: mods installed beside the engine the task needs loaded (``mobs``).
        mapgen: the map generator settings the task's world is made with (the runtime checks them).
        settings: engine settings the task needs (the runtime checks them).

    """

    format: int = IR_FORMAT
    id: str
    description: str
    game: str
    expression: ExprIR
    goals: dict[str, GoalIR]
    init: InitIR
    names: dict[str, str] = Field(default_factory=dict)
    biomes: dict[str, str] = Field(default_factory=dict)
    place_as: dict[str, str] = Field(default_factory=dict)
    mobs: list[MobIR] = Field(default_factory=list)
    trackers: TrackersIR = Field(default_factory=TrackersIR)
    mods: list[str] = Field(default_factory=list)
    mapgen: dict[str, str] = Field(default_factory=lambda: dict(MAPGEN))
    settings: dict[str, str | bool | int] = Field(default_factory=dict)
    dimensions: dict[str, DimensionIR] | None = None
    """The game's other dimensions (taskverse_mc's Nether and End); None: the game has only the overworld."""


def server_key(ir: TaskIR) -> str:
    """What a server started for the task is made with: tasks with the same key can follow one another in it.

    The game, the map generator and engine settings, the mods loaded, the mobs registered and the item and mob
    callbacks wrapped when the mods load, and the game's dimensions: everything the runtime takes from the task
    only once, as the server starts. The rest (the expression, the goals, the names, the start, what the runtime
    watches for) it reads again when another task follows (``engine/mods/taskverse``: ``api.restart`` with the next
    task's data), and it refuses a task whose key differs, as this key does.

    Example:
        >>> a = TaskIR(id="a", description="a", game="minetest_game", expression=AtomIR(atom="a"), goals={},
        ...            init=InitIR())
        >>> server_key(a) == server_key(a.model_copy(update={"id": "b", "init": InitIR(time=0.5)}))
        True
        >>> server_key(a) == server_key(a.model_copy(update={"mods": ["mobs"]}))
        False

    """
    trackers = ir.trackers
    return _json({
        "game": ir.game, "mapgen": ir.mapgen, "settings": ir.settings, "mods": ir.mods,
        "mobs": [m.model_dump(mode="json") for m in ir.mobs],
        "dimensions": None if ir.dimensions is None else {k: v.model_dump(mode="json")
                                                           for k, v in ir.dimensions.items()},
        "use": trackers.use.model_dump(mode="json"), "place": trackers.place.model_dump(mode="json"),
        "kill": trackers.kill.model_dump(mode="json"),
        "interact": {"nodes": trackers.interact.nodes, "entities": trackers.interact.entities},
    })


def _json(value: object) -> str:
    import json

    return json.dumps(value, sort_keys=True)

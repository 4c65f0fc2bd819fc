"""A game's profile under ``engine/games/<game>/``: its registry dumped from the engine, and the name mapping.

``registry.json`` is what the game registers, read from the running engine by the ``taskverse_dump`` mod
(``engine/mods/taskverse_dump``) and normalised here; ``ENGINE_VERSION`` says which engine it came from.
``mapping.yaml`` is curated: Minecraft 1.20 names to the game's names, each non-obvious entry with a note.
"""

from __future__ import annotations

import json
import struct
import time
from functools import cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from taskverse.errors import TaskverseError, close_matches
from taskverse.paths import project_root
from taskverse.yamlio import line_of, read_yaml

REGISTRY_FILE = "registry.json"
VERSION_FILE = "ENGINE_VERSION"
MAPPING_FILE = "mapping.yaml"
GAME_FILE = "game.yaml"
DUMP_MOD = "taskverse_dump"
DUMP_OUTPUT = "taskverse_registry.json"  # written by the dump mod into the world folder
REGISTRY_FORMAT = 1
#: Server settings of minetest_game's dump run, recorded in the registry: runs of tasks must use the same ones.
#: minetest_game registers other biomes and decorations for the v6 map generator, and registers TNT
#: (``tnt:tnt``) on a server only when ``enable_tnt`` is set (the default is: only in singleplayer).
#: Each game's own are in its ``game.yaml`` (:class:`GameSettings`).
DUMP_SETTINGS: dict[str, str | bool] = {"mg_name": "v7", "enable_tnt": True}

Number = int | float  # ints stay ints after normalisation; pydantic's smart union keeps the type it is given


def engine_dir() -> Path:
    """Return the project's engine folder (``engine/``: mods and game profiles)."""
    return project_root() / "engine"


def profile_dir(game: str) -> Path:
    """Return the profile folder of a game (``engine/games/<game>``)."""
    return engine_dir() / "games" / game


class _Dumped(BaseModel):
    """A table from the dump mod.

    ``minetest.write_json`` writes an empty table as null: those keys are dropped, so every collection falls
    back to its empty default.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    @model_validator(mode="before")
    @classmethod
    def _drop_nulls(cls, data: Any) -> Any:
        if isinstance(data, dict):
            return {key: value for key, value in data.items() if value is not None}
        return data


class GroupCap(_Dumped):
    """How a tool digs one node group: seconds per rating (``"3": 1.6``), uses and maximum level."""

    times: dict[str, Number] = Field(default_factory=dict)
    uses: int = 0
    maxlevel: int = 0


class ToolCapabilities(_Dumped):
    """What an item does as a tool (the hand ``""`` has them too)."""

    full_punch_interval: Number = 1
    max_drop_level: int = 0
    groupcaps: dict[str, GroupCap] = Field(default_factory=dict)
    damage_groups: dict[str, Number] = Field(default_factory=dict)


class DropChoice(_Dumped):
    """One line of a node's drop table: these items, with probability 1/rarity, maybe only for some tools."""

    items: list[str] = Field(default_factory=list)
    rarity: int = 1
    tools: list[str] = Field(default_factory=list)
    inherit_color: bool = False


class DropTable(_Dumped):
    """A node drop table: at most ``max_items`` (0: no limit) of the choices, tried in order."""

    max_items: int = 0
    items: list[DropChoice] = Field(default_factory=list)


class Item(_Dumped):
    """A registered item. Nodes also have ``drop``: absent means the node drops itself, ``""`` nothing."""

    type: Literal["node", "tool", "craft", "none"]
    description: str = ""
    groups: dict[str, Number] = Field(default_factory=dict)
    stack_max: int = 99
    tool_capabilities: ToolCapabilities | None = None
    drop: str | DropTable | None = None
    walkable: bool | None = None
    liquidtype: str | None = None
    light_source: int | None = None
    callbacks: list[str] = Field(default_factory=list)
    """Callbacks beyond the engine's defaults: ``on_use``, ``on_place``, ``on_secondary_use``, ``on_rightclick``,
    ``on_punch`` (what using, placing, right-clicking or punching it does)."""


class Recipe(_Dumped):
    """A craft recipe, ``normal`` or ``cooking``.

    ``normal``: ``width`` 0 is shapeless, else ``items`` are the grid row by row with ``""`` for an empty cell
    (trailing empty cells left out). ``cooking``: one item, ``cooktime`` seconds. Items may be ``group:<name>``.
    """

    method: Literal["normal", "cooking"]
    width: int
    items: list[str] = Field(default_factory=list)
    output: str
    count: int = 1
    cooktime: Number | None = None


class Fuel(_Dumped):
    """A furnace fuel: seconds it burns, and what is left in the fuel slot (``bucket:bucket_empty``)."""

    burntime: Number
    replacement: str = ""


class Ore(_Dumped):
    """An ore registration (one ore may have several, at different depths)."""

    ore: str
    ore_type: str
    wherein: list[str] = Field(default_factory=list)
    y_min: int
    y_max: int
    clust_scarcity: int = 0
    clust_num_ores: int = 0
    clust_size: int = 0
    biomes: list[str] = Field(default_factory=list)


class Biome(_Dumped):
    """A biome: its surface and filler nodes, height range and climate point."""

    node_top: str = ""
    depth_top: int = 0
    node_filler: str = ""
    depth_filler: int = 0
    node_stone: str = ""
    node_water_top: str = ""
    node_riverbed: str = ""
    node_dust: str = ""
    y_min: int
    y_max: int
    heat_point: Number = 0
    humidity_point: Number = 0


class Decoration(_Dumped):
    """A decoration: nodes (``simple``) or a schematic (``schematic``) placed on some nodes."""

    name: str = ""
    deco_type: str
    place_on: list[str] = Field(default_factory=list)
    decoration: list[str] = Field(default_factory=list)
    schematic: str = ""
    schematic_nodes: list[str] = Field(default_factory=list)
    """The nodes a schematic places (a tree: trunk, leaves, fruit), so a planner knows where they come from."""
    biomes: list[str] = Field(default_factory=list)
    y_min: int
    y_max: int


class Entity(_Dumped):
    """A registered Lua entity (boats, carts, dropped items, falling nodes)."""

    visual: str = ""
    physical: bool = False
    hp_max: int = 0


class GameInfo(_Dumped):
    """The mods loaded when the registry was dumped, the map generator, and the settings the dump ran with."""

    mapgen: str
    mods: list[str] = Field(default_factory=list)
    settings: dict[str, str | bool] = Field(default_factory=dict)


class Registry(_Dumped):
    """Everything a game registers, as ``registry.json`` holds it (keys sorted, lists in a stable order)."""

    format: int
    game: GameInfo
    items: dict[str, Item]
    recipes: list[Recipe]
    fuels: dict[str, Fuel] = Field(default_factory=dict)
    ores: list[Ore] = Field(default_factory=list)
    biomes: dict[str, Biome] = Field(default_factory=dict)
    decorations: list[Decoration] = Field(default_factory=list)
    entities: dict[str, Entity] = Field(default_factory=dict)
    aliases: dict[str, str] = Field(default_factory=dict)

    def has(self, name: str) -> bool:
        """Say whether ``name`` is a registered item, node or entity of the game."""
        return name in self.items or name in self.entities


def _ints(value: Any) -> Any:
    """Turn the floats ``write_json`` made of integers back into ints, everywhere."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, list):
        return [_ints(v) for v in value]
    if isinstance(value, dict):
        return {k: _ints(v) for k, v in value.items()}
    return value


def _keyed(entries: list[dict[str, Any]] | None, key: str) -> dict[str, Any]:
    return {entry[key]: {k: v for k, v in entry.items() if k != key} for entry in entries or []}


def _stable(entry: dict[str, Any]) -> str:
    return json.dumps(entry, sort_keys=True)


def _resolve(name: str, aliases: dict[str, str]) -> str:
    seen = set()
    while name in aliases and name not in seen and aliases[name]:
        seen.add(name)
        name = aliases[name]
    return name


def _resolve_recipe(recipe: dict[str, Any], aliases: dict[str, str]) -> dict[str, Any]:
    """Recipes may name aliases (minetest_game's bed recipes output ``beds:bed``): use the registered names."""
    items = [_resolve(item, aliases) for item in recipe.get("items") or []]
    return {**recipe, "output": _resolve(recipe["output"], aliases), "items": items}


def parse_dump(raw: Any, source: str | Path = DUMP_OUTPUT) -> Registry:
    """Normalise the dump mod's JSON into a :class:`Registry` (ints as ints, nulls as empty tables).

    Lists with a natural key become mappings; the others are sorted, so two dumps of one game are equal.
    Recipe items and outputs that are aliases are replaced by the registered names they stand for.
    """
    if not isinstance(raw, dict) or raw.get("format") not in (REGISTRY_FORMAT, float(REGISTRY_FORMAT)):
        raise TaskverseError(f"not a registry dump of format {REGISTRY_FORMAT}", file=source)
    data = _ints(raw)
    aliases = {a["alias"]: a["target"] for a in data.get("aliases") or []}
    recipes = sorted((_resolve_recipe(r, aliases) for r in data.get("recipes") or []),
                     key=lambda r: (r["output"], r["method"], _stable(r)))
    shaped = {
        "format": data["format"],
        "game": data["game"],
        "items": _keyed(data.get("items"), "name"),
        "recipes": recipes,
        "fuels": _keyed(data.get("fuels"), "item"),
        "ores": sorted(data.get("ores") or [], key=lambda o: (o["ore"], o["y_min"], _stable(o))),
        "biomes": _keyed(data.get("biomes"), "name"),
        "decorations": sorted(data.get("decorations") or [], key=lambda d: (d.get("name") or "", _stable(d))),
        "entities": _keyed(data.get("entities"), "name"),
        "aliases": aliases,
    }
    return _validate(Registry, shaped, source)


def _validate(model: type[BaseModel], data: Any, source: str | Path) -> Any:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        raise TaskverseError(err["msg"], file=source, field=".".join(map(str, err["loc"]))) from None


def _compact(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(", ", ": "))


def registry_text(registry: Registry) -> str:
    """Serialise a registry as JSON with one entry per line, keys sorted, so diffs name what changed."""
    data = registry.model_dump(mode="json", exclude_none=True)
    lines = ["{"]
    sections = sorted(data)
    for index, section in enumerate(sections):
        value = data[section]
        end = "," if index < len(sections) - 1 else ""
        if isinstance(value, dict) and section != "game":
            body = [f" {_compact(k)}: {_compact(v)}" for k, v in sorted(value.items())]
            lines += [f"{_compact(section)}: {{", ",\n".join(body), f"}}{end}"] if body else [f'"{section}": {{}}{end}']
        elif isinstance(value, list):
            body = [f" {_compact(v)}" for v in value]
            lines += [f"{_compact(section)}: [", ",\n".join(body), f"]{end}"] if body else [f'"{section}": []{end}']
        else:
            lines.append(f"{_compact(section)}: {_compact(value)}{end}")
    return "\n".join(lines) + "\n}\n"


@cache
def load_registry(game: str = "minetest_game", directory: Path | None = None) -> Registry:
    """Load a game's committed ``registry.json`` (run ``taskverse engine dump`` to make it)."""
    path = (directory or profile_dir(game)) / REGISTRY_FILE
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise TaskverseError(f"no registry for game {game!r}; run: taskverse engine dump --game {game}",
                             file=path) from None
    except json.JSONDecodeError as exc:
        raise TaskverseError(f"invalid JSON: {exc.msg}", file=path, line=exc.lineno) from None
    registry: Registry = _validate(Registry, raw, path)
    return registry


class DimensionLayer(BaseModel):
    """Another dimension as a layer of a game's world (taskverse_mc): heights, floor, the cavern's height."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    y_min: int
    y_max: int
    floor: int
    open: int


class GameSettings(BaseModel):
    """``game.yaml``: how taskverse runs a game and the few node names its scripted player relies on.

    ``dump_settings``: the server settings of the dump run (tasks run with the same); ``enable_mods``: mods
    installed beside the engine the game needs (``mobs``); ``furnace``, ``stone``, ``dirt``: the game's furnace
    node, the stone ores sit in and the cheapest block to build with.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    dump_settings: dict[str, str | bool] = Field(default_factory=lambda: dict(DUMP_SETTINGS))
    enable_mods: list[str] = Field(default_factory=list)
    furnace: str
    stone: str
    dirt: str
    supports: list[str] = Field(default_factory=list, description="Nodes a placed entity stands on (rail, water).")
    dimensions: dict[str, DimensionLayer] = Field(default_factory=dict)
    """The Nether and the End, where the game has them: layers of its world, reached by portals."""


@cache
def load_game_settings(game: str = "minetest_game") -> GameSettings:
    """Load a game's ``game.yaml`` (see :class:`GameSettings`)."""
    path = profile_dir(game) / GAME_FILE
    if not path.is_file():
        known = sorted(p.name for p in (engine_dir() / "games").iterdir() if (p / GAME_FILE).is_file())
        raise TaskverseError(f"no game {game!r}: no profile engine/games/{game}/{GAME_FILE} (games: "
                             f"{', '.join(known)})", suggestions=close_matches(game, known))
    data = read_yaml(path)
    try:
        return GameSettings.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = tuple(err["loc"])
        raise TaskverseError(err["msg"], file=path, line=line_of(path.read_text(), loc),
                             field=".".join(map(str, loc))) from None


def dump_registry(game: str = "minetest_game", timeout: float = 60.0) -> tuple[Registry, str, float]:
    """Run the engine once with the dump mod and return the game's registry, the engine version and seconds.

    The run uses the game's ``dump_settings`` (``game.yaml``), which the registry records in ``game.settings``.
    """
    from taskverse.engine.binaries import engine_version, headless_server

    version = engine_version()
    mod = engine_dir() / "mods" / DUMP_MOD
    started = time.monotonic()
    game_settings = load_game_settings(game)
    settings = game_settings.dump_settings
    with headless_server(game, worldmods={DUMP_MOD: mod}, settings=settings, timeout=timeout,
                         enable_mods=game_settings.enable_mods) as run:
        run.wait()
        output = run.world / DUMP_OUTPUT
        if not output.is_file():
            raise TaskverseError(f"the engine exited without writing {DUMP_OUTPUT} (is the dump mod loaded?)",
                                 file=mod)
        raw = json.loads(output.read_text(encoding="utf-8"))
    seconds = time.monotonic() - started
    registry = parse_dump(raw)
    # the dump mod itself is not part of the game
    mods = [m for m in registry.game.mods if m != DUMP_MOD]
    game_info = registry.game.model_copy(update={"mods": mods, "settings": dict(settings)})
    decorations = [_with_schematic_nodes(d, game) for d in registry.decorations]
    return registry.model_copy(update={"game": game_info, "decorations": decorations}), version, seconds


def schematic_nodes(data: bytes) -> list[str]:
    r"""The node names an ``.mts`` schematic file lists (its name table), sorted, without ``air`` and ``ignore``.

    The engine's ``minetest.read_schematic`` crashes 5.6.1 on a file path, so the dump reads the file here. Format
    (``mg_schematic.cpp``): ``MTSM``, u16 version, three u16 sizes, one probability byte per y slice (version 3+),
    u16 name count, then each name as a u16 length and its bytes; the compressed node data follows.

    Example:
        >>> import struct
        >>> head = b"MTSM" + struct.pack(">HHHH", 4, 1, 1, 1) + b"\xff" + struct.pack(">H", 2)
        >>> schematic_nodes(head + b"\x00\x03air" + b"\x00\x0cdefault:tree")
        ['default:tree']

    """
    if data[:4] != b"MTSM" or len(data) < 12:
        raise TaskverseError("not a Minetest schematic (no MTSM header)")
    version, _, size_y, _ = struct.unpack(">HHHH", data[4:12])
    offset = 12 + (size_y if version >= 3 else 0)
    (count,) = struct.unpack(">H", data[offset:offset + 2])
    offset += 2
    names = set()
    for _ in range(count):
        (length,) = struct.unpack(">H", data[offset:offset + 2])
        names.add(data[offset + 2:offset + 2 + length].decode("utf-8", errors="replace"))
        offset += 2 + length
    return sorted(names - {"air", "ignore"})


def _with_schematic_nodes(decoration: Decoration, game: str) -> Decoration:
    if not decoration.schematic.endswith(".mts"):
        return decoration
    from taskverse.engine.binaries import GAMES_DIR

    found = sorted((GAMES_DIR / game / "mods").glob(f"*/schematics/{decoration.schematic}"))
    if not found:
        return decoration
    return decoration.model_copy(update={"schematic_nodes": schematic_nodes(found[0].read_bytes())})


def write_profile(registry: Registry, version: str, directory: Path, force: bool = False) -> list[Path]:
    """Write ``registry.json`` and ``ENGINE_VERSION`` into a profile folder (atomically); return the files.

    A profile under ``engine/games/`` is rewritten (that is what a dump is for); elsewhere existing files are
    replaced only with ``force``.
    """
    from taskverse.fileio import write_text

    profiles = engine_dir() / "games"
    registry_path = write_text(directory / REGISTRY_FILE, registry_text(registry), force, maintains=profiles)
    version_path = write_text(directory / VERSION_FILE, version + "\n", force, maintains=profiles)
    return [registry_path, version_path]


class Counterpart(BaseModel):
    """What one Minecraft name is in the game: ``to`` a game name, or null (no counterpart; ``note`` says why).

    ``supplied_by: runtime`` marks names the task runtime registers itself (mobs: minetest_game has none).
    ``needed: false`` marks a thing with no counterpart that the game does not need either (a crafting table,
    where every player crafts on a 3x3 grid): a compiler leaves it out of a starting inventory.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    to: str | None
    note: str | None = None
    supplied_by: Literal["game", "runtime"] = "game"
    needed: bool = True

    @model_validator(mode="before")
    @classmethod
    def _shorthand(cls, data: Any) -> Any:
        return {"to": data} if isinstance(data, str) else data

    @model_validator(mode="after")
    def _null_needs_note(self) -> Counterpart:
        if self.to is None and not self.note:
            raise ValueError("a name with no counterpart (to: null) needs a note saying why")
        return self


class BiomeCounterpart(BaseModel):
    """What one Minecraft biome is in the game: the game biomes that make it up, or null (``note`` says why)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    to: list[str] | None = Field(min_length=1)
    note: str | None = None

    @model_validator(mode="after")
    def _null_needs_note(self) -> BiomeCounterpart:
        if self.to is None and not self.note:
            raise ValueError("a biome with no counterpart (to: null) needs a note saying why")
        return self


class GameMapping(BaseModel):
    """``mapping.yaml``: Minecraft 1.20 names (items, placed-only blocks, mobs, biomes) to the game's names."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    source: str
    game: str
    namespace: str | None = None
    """A game that registers Minecraft's names itself (``minecraft`` for ``minecraft:stone``): every registered
    ``<namespace>:<name>`` is the counterpart of ``<name>``, and every game biome of itself; only what has no
    counterpart is listed (``to: null``)."""
    items: dict[str, Counterpart] = Field(default_factory=dict)
    blocks: dict[str, Counterpart] = Field(default_factory=dict)
    entities: dict[str, Counterpart] = Field(default_factory=dict)
    biomes: dict[str, BiomeCounterpart] = Field(default_factory=dict)

    def biome_names(self) -> dict[str, str]:
        """Game biome -> the Minecraft biome it stands for (each game biome stands for at most one)."""
        return {game: mc for mc, c in self.biomes.items() for game in c.to or ()}

    def sections(self) -> dict[str, dict[str, Counterpart]]:
        """Return the three name sections by name."""
        return {"items": self.items, "blocks": self.blocks, "entities": self.entities}

    def lookup(self, name: str, kind: Literal["item", "block", "entity"] = "item") -> Counterpart | None:
        """Return the counterpart of a Minecraft name, or None when it is not mapped (no counterpart).

        A block is looked up in ``blocks`` first, then in ``items`` (most blocks are their own item).

        Example:
            >>> mapping = load_mapping("minetest_game")
            >>> mapping.lookup("wheat", "block").to, mapping.lookup("wheat").to
            ('farming:wheat_8', 'farming:wheat')

        """
        sections = {"item": (self.items,), "block": (self.blocks, self.items), "entity": (self.entities,)}[kind]
        for section in sections:
            if name in section:
                return section[name]
        return None


@cache
def load_mapping(game: str = "minetest_game", directory: Path | None = None) -> GameMapping:
    """Load and check a game's ``mapping.yaml``: every game-side name must be in the game's registry."""
    if directory is None and not profile_dir(game).is_dir():
        known = sorted(p.name for p in (engine_dir() / "games").iterdir() if (p / MAPPING_FILE).is_file())
        raise TaskverseError(f"no game profile {game!r} in engine/games/ (games: {', '.join(known)})",
                             suggestions=close_matches(game, known))
    directory = directory or profile_dir(game)
    path = directory / MAPPING_FILE
    data = read_yaml(path)
    try:
        mapping = GameMapping.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = tuple(err["loc"])
        raise TaskverseError(err["msg"], file=path, line=line_of(path.read_text(), loc),
                             field=".".join(map(str, loc))) from None
    registry = load_registry(game, directory)
    if mapping.namespace is not None:
        return _namespace_mapping(mapping, registry)
    known = sorted(set(registry.items) | set(registry.entities))
    for section, names in mapping.sections().items():
        for name, counterpart in names.items():
            target = counterpart.to
            if target is None or counterpart.supplied_by == "runtime" or registry.has(target):
                continue
            raise TaskverseError(f"{target!r} is not registered by {game}", file=path,
                                 line=line_of(path.read_text(), (section, name)), field=f"{section}.{name}.to",
                                 suggestions=close_matches(target, known))
    owner: dict[str, str] = {}
    for name, biome in mapping.biomes.items():
        for target in biome.to or ():
            line = line_of(path.read_text(), ("biomes", name))
            field = f"biomes.{name}.to"
            if target not in registry.biomes:
                raise TaskverseError(f"biome {target!r} is not registered by {game}", file=path, line=line,
                                     field=field, suggestions=close_matches(target, list(registry.biomes)))
            if target in owner:
                raise TaskverseError(f"game biome {target!r} is already the counterpart of {owner[target]!r}; "
                                     "a game biome stands for one Minecraft biome", file=path, line=line, field=field)
            owner[target] = name
    return mapping


def _namespace_mapping(mapping: GameMapping, registry: Registry) -> GameMapping:
    """Fill a namespace mapping from the registry: ``name`` -> ``<namespace>:name`` wherever that is registered."""
    prefix = f"{mapping.namespace}:"
    items = {name[len(prefix):]: Counterpart(to=name) for name in sorted(registry.items) if name.startswith(prefix)}
    # what the file lists is what has no counterpart (a villager's experience, which the game keeps on its villagers)
    items = {**{n: c for n, c in mapping.items.items() if c.to is None}, **items}
    entities = {name[len(prefix):]: Counterpart(to=name) for name in sorted(registry.entities)
                if name.startswith(prefix)}
    biomes = {name: BiomeCounterpart(to=[name]) for name in sorted(registry.biomes)}
    return mapping.model_copy(update={"items": items, "entities": entities, "biomes": biomes})

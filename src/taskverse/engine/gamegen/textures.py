"""What the generated game's blocks, items and mobs look like: textures from freely licensed packs, per name.

``engine/games/<game>/textures.yaml`` maps every name to the engine's texture strings over files of installed
packs (Debian's ``minetest-data``: minetest_game's textures and player model, CC BY-SA 3.0; Debian's
``minetest-mod-mobs-redo``: a few item pictures, MIT), each source with its package and licence. A name takes its
entry in ``nodes``/``items``/``mobs``, else the first pattern that matches it, else the file's fallback; the game
build copies the files the textures name into the game and writes a credits file listing each one's source and
licence (:func:`texture_files`).

A pattern's ``match`` is a name with ``*`` (any part) and ``{palette}`` (one of a palette's names, such as a dye
colour); its ``texture`` may use ``{palette}`` (that name's colour) and ``{own}`` (the name's own plain colour),
and its ``like`` lists names whose look it takes (``{1}`` is what the first ``*`` matched), so a stair looks like
its block.

Example:
    >>> _glob("{dye}_wool", {"dye": {"red": "#b02e26"}}).fullmatch("red_wool").group("p_dye")
    'red'

"""

from __future__ import annotations

import fnmatch
import re
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from taskverse.errors import TaskverseError

TEXTURES_FILE = "textures.yaml"
CREDITS_FILE = "CREDITS.txt"
Tiles = str | list[str]
_FILE = re.compile(r"[A-Za-z0-9_\-]+\.(?:png|b3d)")
_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")
_TEXTURE = re.compile(r"^[A-Za-z0-9_.\-^:\[\]#(){}]+$")
_MODIFIERS = {"multiply", "colorize", "brighten", "transformFX", "transformFY", "transformR90", "transformR180",
              "transformR270", "opacity", "invert"}
_LIKE_DEPTH = 4


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Source(_Strict):
    """A pack of textures installed from a registry: where its files are and under which licence."""

    package: str = Field(description="The package that installs it (Debian's name).")
    folders: list[str] = Field(min_length=1, description="Folders holding its files (globs allowed).")
    licence: str
    exceptions: dict[str, str] = Field(default_factory=dict,
                                       description="Files (globs, first match) under another licence.")
    copyright: str = Field(description="The file that states the licence per file.")
    note: str = ""


class Pattern(_Strict):
    """Names that look alike: a texture for all of them, or the look of a related name (``like``)."""

    match: str
    texture: Tiles | None = None
    like: list[str] = Field(default_factory=list)


class Mob(_Strict):
    """A person's or upright monster's look: its texture on the player's model.

    Every other mob has a body of its own (``bodies.yaml``).
    """

    texture: str
    model: Literal["humanoid"] = "humanoid"


class Fallback(_Strict):
    """The look of a name no entry or pattern covers (``{own}``: the name's own plain colour)."""

    node: Tiles
    item: str


class TextureTable(_Strict):
    """``textures.yaml``: sources, palettes, the look of every name, and the fallback."""

    sources: dict[str, Source] = Field(min_length=1)
    palettes: dict[str, dict[str, str]] = Field(default_factory=dict)
    hand: str
    humanoid_model: str = Field(description="The mesh humanoid mobs wear (a file of a source).")
    also: list[str] = Field(default_factory=list, description="Files other mods of the game ask for by name.")
    nodes: dict[str, Tiles] = Field(default_factory=dict)
    items: dict[str, Tiles] = Field(default_factory=dict)
    mobs: dict[str, Mob] = Field(default_factory=dict)
    patterns: list[Pattern] = Field(default_factory=list)
    fallback: Fallback


def textures_path(game: str) -> Path:
    """The game's texture table (``engine/games/<game>/textures.yaml``)."""
    from taskverse.paths import project_root

    return project_root() / "engine" / "games" / game / TEXTURES_FILE


def load_textures(game: str, path: Path | None = None) -> TextureTable:
    """Read and check a game's texture table; a bad entry is one error naming file, line and field."""
    from taskverse.fileio import read_text
    from taskverse.yamlio import line_of, load_model

    path = path or textures_path(game)
    table: TextureTable = load_model(path, TextureTable, "a texture table (sources, palettes, names)")

    def fail(message: str, *where: str | int) -> TaskverseError:  # the text is read again only to name the line
        line = line_of(read_text(path, "YAML file"), where)
        return TaskverseError(message, file=path, line=line, field=".".join(map(str, where)))

    for palette, colours in table.palettes.items():
        for name, value in colours.items():
            if not _COLOUR.match(value):
                raise fail(f"colour {value!r} is not #rrggbb", "palettes", palette, name)
    for section in ("nodes", "items"):
        for name, tiles in getattr(table, section).items():
            _check_tiles(tiles, table, lambda msg, s=section, n=name: fail(msg, s, n))
    for name, mob in table.mobs.items():
        _check_tiles(mob.texture, table, lambda msg, n=name: fail(msg, "mobs", n, "texture"))
    for index, pattern in enumerate(table.patterns):
        if (pattern.texture is None) == (not pattern.like):
            raise fail("give a texture or like (names whose look it takes), one of the two", "patterns", index)
        for part in re.findall(r"\{(\w+)\}", pattern.match):
            if part not in table.palettes:
                raise fail(f"{{{part}}} names no palette (palettes: {', '.join(table.palettes)})",
                           "patterns", index, "match")
        if pattern.texture is not None:
            _check_tiles(pattern.texture, table, lambda msg, i=index: fail(msg, "patterns", i, "texture"))
    _check_tiles(table.hand, table, lambda msg: fail(msg, "hand"))
    for kind in ("node", "item"):
        _check_tiles(getattr(table.fallback, kind), table, lambda msg, k=kind: fail(msg, "fallback", k))
    return table


def _check_tiles(tiles: Tiles, table: TextureTable, fail: Any) -> None:
    """A texture string uses only files, groups and the modifiers the engine knows (no other syntax)."""
    for texture in [tiles] if isinstance(tiles, str) else tiles:
        if not _TEXTURE.match(texture):
            raise fail(f"{texture!r}: a texture is file names, '^', '(', ')' and [modifiers only")
        for placeholder in re.findall(r"\{(\w+)\}", texture):
            if placeholder not in table.palettes and placeholder != "own":
                raise fail(f"{{{placeholder}}} names no palette and is not {{own}}")
        for modifier in re.findall(r"\[(\w+)", texture):
            if modifier not in _MODIFIERS:
                raise fail(f"[{modifier}: not a modifier taskverse uses ({', '.join(sorted(_MODIFIERS))})")
        if not _FILE.search(texture):
            raise fail(f"{texture!r} names no file")
    if isinstance(tiles, list) and not 1 <= len(tiles) <= 6:
        raise fail("a block has 1 to 6 tiles (top, bottom, then the sides)")


@lru_cache(maxsize=256)
def _glob_cached(match: str, palettes: tuple[tuple[str, tuple[str, ...]], ...]) -> re.Pattern[str]:
    names = dict(palettes)
    out = []
    for part in re.split(r"(\*|\{\w+\})", match):
        if part == "*":
            out.append("(.*?)")
        elif part.startswith("{") and part.endswith("}"):
            key = part[1:-1]
            choices = sorted(names[key], key=len, reverse=True)  # longest first: light_blue before blue
            out.append(f"(?P<p_{key}>" + "|".join(map(re.escape, choices)) + ")")
        else:
            out.append(re.escape(part))
    return re.compile("".join(out))


def _glob(match: str, palettes: dict[str, dict[str, str]]) -> re.Pattern[str]:
    """A pattern's ``match`` as a regular expression (``*`` groups; ``{palette}`` named groups)."""
    return _glob_cached(match, tuple((k, tuple(v)) for k, v in sorted(palettes.items())))


class Looks:
    """Resolves names to tiles with one table; remembers which rule gave each look (for counts and tests)."""

    def __init__(self, table: TextureTable, own: Any) -> None:
        """``own(name)`` is a name's own plain colour (``#rrggbb``), used by ``{own}``."""
        self.table = table
        self.own = own
        self.how: dict[str, str] = {}
        # each pattern compiled once: a game's thousands of names each try every pattern
        self._patterns = [(pattern, _glob(pattern.match, table.palettes)) for pattern in table.patterns]

    def _fill(self, tiles: Tiles, name: str, found: dict[str, str]) -> list[str]:
        def one(texture: str) -> str:
            def colour(match: re.Match[str]) -> str:
                key = match.group(1)
                if key == "own":
                    return str(self.own(name))
                return self.table.palettes[key][found[key]]
            return re.sub(r"\{(\w+)\}", colour, texture)
        return [one(t) for t in ([tiles] if isinstance(tiles, str) else tiles)]

    def _lookup(self, name: str, section: str, depth: int) -> tuple[list[str], str] | None:
        exact = getattr(self.table, section).get(name)
        if exact is not None:
            return self._fill(exact, name, {}), "exact"
        for pattern, compiled in self._patterns:
            hit = compiled.fullmatch(name)
            if hit is None:
                continue
            found = {k[2:]: v for k, v in hit.groupdict().items() if v is not None}
            if pattern.texture is not None:
                return self._fill(pattern.texture, name, found), f"pattern {pattern.match}"
            if depth >= _LIKE_DEPTH:
                continue
            named = set(hit.re.groupindex.values())
            stars = [g for i, g in enumerate(hit.groups(), 1) if i not in named]
            parts = {**{str(i): star for i, star in enumerate(stars, 1)}, **found}
            for like in pattern.like:
                other_name = re.sub(r"\{(\w+)\}", lambda m, p=parts: p[m.group(1)], like)  # type: ignore[misc]
                if other_name == name:
                    continue
                got = self._lookup(other_name, section, depth + 1)
                if got is not None and got[1] != "fallback":
                    return got[0], f"like {other_name}"
        return None

    def node(self, name: str) -> list[str]:
        """The tiles of a block (top, bottom, sides as the engine reads them)."""
        got = self._lookup(name, "nodes", 0)
        tiles, how = got if got is not None else (self._fill(self.table.fallback.node, name, {}), "fallback")
        self.how[name] = how
        return tiles

    def item(self, name: str) -> list[str]:
        """An item's inventory picture (one tile)."""
        got = self._lookup(name, "items", 0)
        tiles, how = got if got is not None else (self._fill(self.table.fallback.item, name, {}), "fallback")
        self.how[name] = how
        return tiles[:1]

    def mob(self, name: str) -> list[str] | None:
        """A humanoid mob's texture on the player's model, or None for a mob with a body of its own."""
        mob = self.table.mobs.get(name)
        if mob is None:
            return None
        self.how[name] = "exact"
        return self._fill(mob.texture, name, {})


def files_named(textures: list[str]) -> set[str]:
    """Every file the texture strings name."""
    return {f for texture in textures for f in _FILE.findall(texture)}


def source_index(table: TextureTable) -> dict[str, tuple[str, Path]]:
    """Every file of the installed sources by name (the first source and folder that has it)."""
    index: dict[str, tuple[str, Path]] = {}
    for source_name, source in table.sources.items():
        for pattern in source.folders:
            for folder in sorted(Path("/").glob(pattern.lstrip("/"))):
                for path in sorted(folder.iterdir()) if folder.is_dir() else []:
                    if _FILE.fullmatch(path.name):
                        index.setdefault(path.name, (source_name, path))
    return index


MAX_TEXTURE_BYTES = 1 << 20
"""The largest file a texture source may give (minetest_game's are under 10 KB; the player model 80 KB)."""


def texture_files(table: TextureTable, names: set[str], game: str) -> dict[str, bytes]:
    """The files ``names`` from the installed sources (path in the game -> bytes), with a credits file.

    Raises TaskverseError naming the file and the package that installs it when a source is not installed.
    """
    from taskverse.fileio import read_bytes

    index = source_index(table)
    files: dict[str, bytes] = {}
    credits = [f"Textures and models of {game}, copied from installed packs by the game build "
               f"(engine/games/{game}/{TEXTURES_FILE}).", ""]
    for name in sorted(names):
        if name not in index:
            packages = ", ".join(sorted({s.package for s in table.sources.values()}))
            raise TaskverseError(f"texture {name} is in none of the installed sources; install {packages} "
                                 f"(scripts/install-engine.sh)", file=textures_path(game))
        source_name, path = index[name]
        folder = "models" if name.endswith(".b3d") else "textures"
        files[f"mods/minecraft/{folder}/{name}"] = read_bytes(path, "texture", MAX_TEXTURE_BYTES)
        source = table.sources[source_name]
        licence = next((v for k, v in source.exceptions.items() if fnmatch.fnmatchcase(name, k)), source.licence)
        credits.append(f"{folder}/{name}: {licence}, from {path} (Debian package {source.package}; "
                       f"authors and licence per file: {source.copyright})")
    files[f"mods/minecraft/{CREDITS_FILE}"] = ("\n".join(credits) + "\n").encode()
    return files


def dress(content: dict[str, Any], table: TextureTable, own: Any) -> tuple[dict[str, str], set[str]]:
    """Give the game's content its looks: ``textures`` (name -> tiles), humanoid mobs' ``model``, the hand's picture.

    Returns how each name got its look (``exact``, ``pattern ...``, ``like ...``, ``fallback``) and the files the
    game needs (the textures' and, when a mob is humanoid, the model). Mobs with no look here are left to their
    bodies (``taskverse.engine.gamegen.meshes.dress_bodies``).
    """
    looks = Looks(table, own)
    textures: dict[str, list[str]] = {}
    short = content["namespace"] + ":"
    for entry in content["nodes"]:
        textures[entry["name"]] = looks.node(entry["name"].removeprefix(short))
    for entry in content["items"]:
        textures[entry["name"]] = looks.item(entry["name"].removeprefix(short))
    for entry in content["structures"]:
        names = [entry["node"], entry["looted"]] + ([entry["portal_room"]["filled"]] if "portal_room" in entry else [])
        for name in names:
            textures[name] = looks.node(name.removeprefix(short))
    needed = set(table.also)
    for entry in content["mobs"]:
        tiles = looks.mob(entry["name"].removeprefix(short))
        if tiles is not None:
            textures[entry["name"]] = tiles
            entry["model"] = table.humanoid_model
            needed.add(table.humanoid_model)
    content["textures"] = dict(sorted(textures.items()))
    content["hand_image"] = table.hand
    needed |= files_named([t for tiles in textures.values() for t in tiles] + [table.hand])
    return dict(sorted(looks.how.items())), needed

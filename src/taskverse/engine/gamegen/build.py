"""Write the generated game's folder: the Lua template under ``engine/gamegen/<game>/``, its data, its textures.

The game folder is built into the cache (``.cache/taskverse/games/<game>/``), where the engine finds it through
``MINETEST_SUBGAME_PATH``; it is rebuilt whenever the knowledge or the template changed. Its digest (a hash of
every file written) is recorded in the game's profile (``engine/games/<game>/GAME_DIGEST``) when the registry is
dumped, so a profile that no longer matches the knowledge is noticed (``check_digest``) instead of silently
compiling against a stale registry. The textures are copied from installed packs as
``engine/games/<game>/textures.yaml`` maps them (``taskverse.engine.gamegen.textures``), so the digest covers
their bytes too.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import re
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from taskverse.engine.gamegen.bodies import load_bodies
from taskverse.engine.gamegen.content import colour, game_content
from taskverse.engine.gamegen.meshes import credits_lines, dress_bodies
from taskverse.engine.gamegen.png import RGB, png_file
from taskverse.engine.gamegen.textures import CREDITS_FILE, dress, load_textures, texture_files
from taskverse.errors import TaskverseError
from taskverse.paths import cache_dir, project_root

GENERATED_GAMES = ("taskverse_mc",)
DATA_FILE = "data.json"
DIGEST_FILE = "GAME_DIGEST"
STAMP_FILE = ".taskverse-digest"
"""In a built game's folder: the digest of the build (what a rebuild of the same knowledge leaves as it is)."""
TEXTURE = "taskverse_mc_white.png"
_COLOUR = re.compile(r"^#[0-9a-f]{6}$")


def template_dir(game: str) -> Path:
    """The hand-written part of a generated game (``engine/gamegen/<game>``)."""
    return project_root() / "engine" / "gamegen" / game


def games_cache() -> Path:
    """The folder the generated games are built into (given to the engine as ``MINETEST_SUBGAME_PATH``)."""
    path = cache_dir() / "games"
    path.mkdir(parents=True, exist_ok=True)
    return path


def white_png(size: int = 16) -> bytes:
    """A white square PNG: a block the texture table does not reach (a stand-in's frame) is this tile coloured."""
    return png_file(size, size, RGB, b"".join(b"\x00" + b"\xff\xff\xff" * size for _ in range(size)))


def _check(content: dict[str, Any]) -> None:
    """The Lua builds texture strings from colours: refuse anything but ``#rrggbb``."""
    for section in ("nodes", "items", "mobs"):
        for entry in content[section]:
            if not _COLOUR.match(entry["color"]):
                raise TaskverseError(f"{entry['name']}: colour {entry['color']!r} is not #rrggbb")


def game_files(game: str, knowledge: Any) -> dict[str, bytes]:
    """Every file of the game folder (relative path -> bytes), the same bytes for the same knowledge."""
    if game not in GENERATED_GAMES:
        raise TaskverseError(f"{game!r} is not a generated game (generated: {', '.join(GENERATED_GAMES)})")
    template = template_dir(game)
    files = {p.relative_to(template).as_posix(): p.read_bytes()
             for p in sorted(template.rglob("*")) if p.is_file()}
    content = game_content(knowledge)
    _check(content)
    table = load_textures(game)
    _, needed = dress(content, table, colour)
    files.update(texture_files(table, needed, game))
    _, bodies = dress_bodies(content, load_bodies(game), colour, game)
    files.update(bodies)
    credits = f"mods/minecraft/{CREDITS_FILE}"
    files[credits] += ("\n".join(credits_lines(bodies, game)) + "\n").encode()
    files[f"mods/minecraft/{DATA_FILE}"] = (json.dumps(content, sort_keys=True, separators=(",", ":"),
                                                       ensure_ascii=True) + "\n").encode()
    files[f"mods/minecraft/textures/{TEXTURE}"] = white_png()
    return dict(sorted(files.items()))


def digest_of(files: dict[str, bytes]) -> str:
    """A short hash of a game's files (names and bytes)."""
    sha = hashlib.sha256()
    for name, data in sorted(files.items()):
        sha.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
    return sha.hexdigest()[:16]


def build_game(game: str, knowledge: Any, out: Path | None = None) -> tuple[Path, str]:
    """Write the game folder (default: the cache) if it is not already there; return it and its digest.

    Episodes run in parallel (threads and processes) each ask for the game: one builds it while the others wait
    on a lock, then find it built. It is written under a name of its own and renamed into place whole.
    """
    files = game_files(game, knowledge)
    digest = digest_of(files)
    target = out or games_cache() / game
    stamp = target / STAMP_FILE
    target.parent.mkdir(parents=True, exist_ok=True)
    with _locked(target.with_name(f".{target.name}.lock")):
        if stamp.is_file() and stamp.read_text().strip() == digest:
            return target, digest
        staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
        try:
            for name, data in files.items():
                path = staging / name
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(data)
            (staging / STAMP_FILE).write_text(digest + "\n")
            staging.chmod(0o755)  # mkdtemp's folder is private; the engine's own folders are not
            shutil.rmtree(target, ignore_errors=True)
            staging.rename(target)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    return target, digest


@contextmanager
def _locked(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``path`` (created if missing) for the block; across threads and processes."""
    with path.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


_ENSURED: dict[str, tuple[Any, tuple[tuple[str, int, int], ...], Path, str]] = {}
"""Per game, what :func:`ensure_game` last built in this process: the knowledge, its inputs' stamps, folder, digest."""


def _input_stamps(game: str) -> tuple[tuple[str, int, int], ...]:
    """Name, size and modification time of the game's hand-written files and its texture table (cheap: no reads)."""
    from taskverse.engine.gamegen.bodies import bodies_path
    from taskverse.engine.gamegen.textures import textures_path

    paths = [p for p in sorted(template_dir(game).rglob("*")) if p.is_file()] + [textures_path(game),
                                                                              bodies_path(game)]
    stamps = []
    for path in paths:
        try:
            info = path.stat()
        except OSError:
            continue
        stamps.append((str(path), info.st_size, info.st_mtime_ns))
    return tuple(stamps)


def ensure_game(game: str) -> Path:
    """The built folder of a generated game, from the library's knowledge (built now if missing or stale).

    Every episode asks for its game, twice: the game's files are made (content, looks, textures: about a second)
    only when this process has not made them from the same knowledge and unchanged hand-written files, or when the
    folder in the cache no longer holds them (another process built other knowledge there).
    """
    from taskverse.knowledge.facts import load_knowledge

    knowledge = load_knowledge()
    stamps = _input_stamps(game)
    known = _ENSURED.get(game)
    if known is not None and known[0] is knowledge and known[1] == stamps and _holds(known[2], known[3]):
        return known[2]
    target, digest = build_game(game, knowledge)
    _ENSURED[game] = (knowledge, stamps, target, digest)
    return target


def _holds(target: Path, digest: str) -> bool:
    """Whether a built game folder is the build of ``digest`` (its stamp says so)."""
    try:
        return (target / STAMP_FILE).read_text().strip() == digest
    except OSError:
        return False


def recorded_digest(game: str) -> str | None:
    """The digest the game's profile was dumped from (``engine/games/<game>/GAME_DIGEST``), if any."""
    path = project_root() / "engine" / "games" / game / DIGEST_FILE
    return path.read_text().strip() if path.is_file() else None

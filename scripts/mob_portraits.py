"""Portraits of taskverse_mc's mobs as the player sees them: one first-person frame each, put together in one image.

For each mob, an interactive episode of the generated game (with the player's client on a virtual screen) goes to
a snowy plain (few plants grow between the player and the mob), spawns the mob, steps back 5.5 nodes so it
stands in front of the player (who looks along +z), waits while it turns to look at the player (mobs_redo's
standing mobs do), and keeps the frame. The frames, cropped around the mob and labelled, make one image
(``docs/images/taskverse_mc-mobs.png``). Needs the engine and its client (scripts/install-engine.sh) and Pillow
(the ``plot`` extra).

    python scripts/mob_portraits.py [-o docs/images/taskverse_mc-mobs.png] [--frames DIR] [MOB ...]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import Any

MOBS = ("cow", "pig", "sheep", "chicken", "spider", "creeper", "zombie", "horse", "wolf", "bee", "slime", "squid")
SCREEN = (480, 360)
CROP = (120, 140, 360, 320)  # around where a mob 5.5 nodes ahead stands on the 480x360 screen
BACK = 5.5
TURN_SECONDS = 4
TRIES = 3
BIOME = "snowy_plains"


def portrait(mob: str, folder: Path, library: Any) -> Path:
    """The frame of one mob standing in front of the player; another episode when it did not stand there."""
    for attempt in range(TRIES):
        frame = _attempt(mob, folder / str(attempt), library)
        if frame is not None:
            return frame
    raise SystemExit(f"{mob}: not in front of the player in {TRIES} episodes")


def _attempt(mob: str, folder: Path, library: Any) -> Path | None:
    """One episode's frame, or None when the mob did not end up ahead of the player (terrain in the way)."""
    from taskverse.engine.episode import EngineEpisode

    with EngineEpisode("combat zombie", library=library, game="taskverse_mc", screenshots=folder,
                       screen=SCREEN) as episode:
        episode.reset()
        for step in ({"do": "goto_biome", "biomes": [BIOME]}, {"do": "spawn", "entity": f"minecraft:{mob}"}):
            result = episode.step(step)
            if not result.ok:
                raise SystemExit(f"{mob}: {step['do']} failed: {result.error}")
        assert result.observation is not None
        x, y, z = result.observation.entities[f"minecraft:{mob}"].nearest
        result = episode.step({"do": "move", "to": [x, y + 1, z - BACK]})  # on any rise between the two
        if not result.ok:
            raise SystemExit(f"{mob}: move failed: {result.error}")
        result = episode.step({"do": "wait", "seconds": TURN_SECONDS})
        if result.frame is None or result.observation is None or f"minecraft:{mob}" not in \
                result.observation.entities:
            return None
        mx, _, mz = result.observation.entities[f"minecraft:{mob}"].nearest
        px, _, pz = result.observation.position
        return Path(result.frame) if abs(mx - px) < 1.5 and BACK - 1.5 < mz - pz < BACK + 1.5 else None


def composite(frames: dict[str, Path], out: Path) -> None:
    """The frames cropped around the mob, labelled, four to a row."""
    from PIL import Image, ImageDraw

    tiles = []
    for mob, frame in frames.items():
        tile = Image.open(frame).convert("RGB").crop(CROP)
        tile = tile.resize((tile.width * 3 // 2, tile.height * 3 // 2), Image.Resampling.NEAREST)
        ImageDraw.Draw(tile).text((6, 4), mob, fill=(255, 255, 255), stroke_width=2, stroke_fill=(0, 0, 0))
        tiles.append(tile)
    width, height = tiles[0].size
    cols = min(4, len(tiles))
    rows = (len(tiles) + cols - 1) // cols
    sheet = Image.new("RGB", (width * cols, height * rows), (255, 255, 255))
    for i, tile in enumerate(tiles):
        sheet.paste(tile, ((i % cols) * width, (i // cols) * height))
    out.parent.mkdir(parents=True, exist_ok=True)
    sheet.save(out, optimize=True)


def main(argv: list[str] | None = None) -> int:
    """Render the portraits and write the composite image."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mobs", nargs="*", default=list(MOBS))
    parser.add_argument("-o", "--out", type=Path, default=Path("docs/images/taskverse_mc-mobs.png"))
    parser.add_argument("--frames", type=Path, default=None, help="keep the frames here (default: a temporary folder)")
    args = parser.parse_args(argv)
    from taskverse import load_library

    library = load_library()
    with tempfile.TemporaryDirectory() as tmp:
        root = args.frames or Path(tmp)
        frames = {mob: portrait(mob, root / mob, library) for mob in args.mobs}
        composite(frames, args.out)
    print(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())

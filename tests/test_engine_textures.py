"""What taskverse_mc looks like: every block, item and mob a texture from a free pack, its licence noted.

The table (``engine/games/taskverse_mc/textures.yaml``) is read through the input layer: a bad entry is one line
naming file, line and field. The build copies the files the looks name, with a credits line each, and the engine's
client loads every image the game and its mods ask for.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import assert_one_bad_entry
from engine_support import need_engine
from taskverse.engine.gamegen.bodies import load_bodies
from taskverse.engine.gamegen.build import game_files
from taskverse.engine.gamegen.content import colour, game_content
from taskverse.engine.gamegen.meshes import dress_bodies
from taskverse.engine.gamegen.textures import (
    CREDITS_FILE,
    Looks,
    dress,
    load_textures,
    textures_path,
)
from taskverse.errors import TaskverseError

GAME = "taskverse_mc"


@pytest.fixture(scope="module")
def table():
    return load_textures(GAME)


@pytest.fixture(scope="module")
def dressed(library, table):
    content = game_content(library.knowledge)
    how, needed = dress(content, table, colour)
    bodies, _ = dress_bodies(content, load_bodies(GAME), colour, GAME)
    return content, {**how, **bodies}, needed


def test_every_block_item_and_mob_has_a_look_of_its_own_not_the_fallback(dressed):
    content, how, _ = dressed
    fallback = sorted(name for name, way in how.items() if way == "fallback")
    assert not fallback, f"add these to {textures_path(GAME)} (an entry or a pattern): {fallback[:20]}"
    names = [e["name"] for e in content["nodes"] + content["items"] + content["mobs"]]
    assert set(names) <= set(content["textures"])


def test_the_looks_tell_apart_what_a_player_must_tell_apart(dressed):
    textures = dressed[0]["textures"]

    def look(name):
        return textures[f"minecraft:{name}"]

    assert look("oak_log") != look("oak_leaves") != look("oak_planks")
    assert look("iron_ore") != look("gold_ore") != look("stone")
    assert look("oak_log")[0] != look("oak_log")[-1]  # rings on top, bark on the sides
    assert look("red_wool") == ["wool_white.png^[multiply:#b02e26"]  # Minecraft's red dye
    assert look("oak_stairs") == look("oak_planks") and look("stone_brick_slab") == look("stone_bricks")
    assert look("waxed_oxidized_copper") == look("oxidized_copper")
    assert look("dark_oak_fence_gate") == look("dark_oak_planks")


def test_humanoid_mobs_wear_the_player_model_and_animals_their_own_bodies(dressed, table):
    mobs = {m["name"]: m for m in dressed[0]["mobs"]}
    assert mobs["minecraft:zombie"]["model"] == table.humanoid_model == "character.b3d"
    assert "box" not in mobs["minecraft:zombie"]
    assert mobs["minecraft:cow"]["model"] == "taskverse_mc_cow.obj"
    assert dressed[0]["textures"]["minecraft:sheep"] == ["taskverse_mc_sheep.png"]
    assert dressed[1]["cow"] == "plan beast" and dressed[1]["chicken"] == "plan bird"


def test_the_build_copies_every_named_file_and_credits_each_with_its_licence(library, dressed):
    files = game_files(GAME, library.knowledge)
    _, _, needed = dressed
    copied = {Path(p).name for p in files if p.startswith(("mods/minecraft/textures/", "mods/minecraft/models/"))}
    assert needed <= copied
    assert "default_wood.png" in copied  # mobs_redo's fence asks for it by name
    credits = files[f"mods/minecraft/{CREDITS_FILE}"].decode()
    for name in needed:
        line = next(line for line in credits.splitlines() if f"/{name}: " in line)
        assert re.search(r": (CC BY-SA [34]\.0|MIT)", line) and "Debian package" in line, line
    assert "farming_wheat.png: MIT" in credits and "default_dirt.png: CC BY-SA 3.0" in credits


def test_patterns_read_palettes_and_take_the_look_of_a_related_name(table):
    looks = Looks(table, colour)
    assert looks.node("light_blue_concrete") == ["default_clay.png^[multiply:#3ab3da"]  # not blue's
    assert looks.how["light_blue_concrete"] == "pattern {dye}_concrete"
    assert looks.node("polished_blackstone_brick_stairs") == looks.node("polished_blackstone_bricks")
    assert looks.how["polished_blackstone_brick_stairs"] == "like polished_blackstone_bricks"
    assert looks.node("no_such_block_at_all") == [f"default_clay.png^[multiply:{colour('no_such_block_at_all')}"]
    assert looks.how["no_such_block_at_all"] == "fallback"


@pytest.mark.parametrize(("old", "new", "message", "field"), [
    ("  stone: default_stone.png\n", "  stone: default_stone.png^[sheet:2x2\n", "[sheet: not a modifier",
     "nodes.stone"),
    ("  dirt: default_dirt.png\n", "  dirt: \"default_dirt.png^[multiply:{paint}\"\n", "{paint} names no palette",
     "nodes.dirt"),
    ("  gravel: default_gravel.png\n", "  gravel: [a.png, b.png, c.png, d.png, e.png, f.png, g.png]\n",
     "1 to 6 tiles", "nodes.gravel"),
    ('  husk: {texture: "character.png^[multiply:#c0a070", model: humanoid}\n',
     '  husk: {texture: "character.png^[multiply:#c0a070", model: humanoid, legs: 4}\n', "legs", "mobs.husk.legs"),
])
def test_a_bad_entry_is_one_error_naming_file_line_and_field(tmp_path, old, new, message, field):
    def load(path):
        return load_textures(GAME, path)

    assert_one_bad_entry(textures_path(GAME), tmp_path / "textures.yaml", old, new, load, message, field)


def test_a_missing_pack_is_one_error_naming_the_package(table, monkeypatch):
    from taskverse.engine.gamegen import textures

    monkeypatch.setattr(textures, "source_index", lambda _table: {})
    with pytest.raises(TaskverseError, match="install minetest-data, minetest-mod-mobs-redo"):
        textures.texture_files(table, {"default_stone.png"}, GAME)


def test_the_client_loads_every_image_the_game_asks_for(library):
    """No "Could not load image" in the player's client log (it showed red on screen: default_wood.png)."""
    need_engine(client=True)
    from taskverse.engine.episode import EngineEpisode

    with EngineEpisode("combat zombie", library=library, game=GAME) as episode:
        result = episode.reset()
        assert result.observation is not None
        result = episode.step({"do": "spawn", "entity": "minecraft:zombie"})
        assert result.ok, result.error
        logs = sorted(episode._run.directory.glob("client-*.log"))
        assert logs
        text = "".join(p.read_text(errors="replace") for p in logs)
    assert "Could not load image" not in text, [line for line in text.splitlines() if "Could not load" in line][:5]


def test_docstring_examples():
    import doctest

    from taskverse.engine.gamegen import textures

    result = doctest.testmod(textures)
    assert result.attempted >= 1 and result.failed == 0

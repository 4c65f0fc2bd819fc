"""taskverse_mc's animals and monsters built from body plans: valid meshes and pictures, sized by their plans.

``engine/games/taskverse_mc/bodies.yaml`` declares the plans and every mob's body; the game build writes each
mob's ``.obj`` and atlas (``taskverse.engine.gamegen.meshes``). Checked here: every mob of the game has a body (or
the player's model), every plan and mob gives a well-formed OBJ whose faces point outwards and whose texture
coordinates fall inside its picture, the output is the same from build to build, sizes follow the plans, a bad
entry is one error naming file, line and field, and the engine loads the game with the models (no "Could not load"
or error line in its logs).
"""

from __future__ import annotations

import json
import re
import struct
import zlib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import assert_one_bad_entry
from engine_support import need_engine
from taskverse.engine.gamegen.bodies import KINDS, Part, Plan, bodies_path, body_of, layout, load_bodies
from taskverse.engine.gamegen.build import game_files
from taskverse.engine.gamegen.content import colour, game_content
from taskverse.engine.gamegen.meshes import Mesh, body_mesh, dress_bodies
from taskverse.engine.gamegen.textures import CREDITS_FILE, dress, load_textures
from taskverse.engine.profile import REGISTRY_FILE, profile_dir

GAME = "taskverse_mc"


@pytest.fixture(scope="module")
def bodies():
    return load_bodies(GAME)


@pytest.fixture(scope="module")
def built(library):
    return game_files(GAME, library.knowledge)


def png_size(data: bytes) -> tuple[int, int, int]:
    """Width, height and colour type of a PNG, after checking its signature and every chunk's CRC."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    at, chunks = 8, {}
    while at < len(data):
        (length,) = struct.unpack(">I", data[at:at + 4])
        kind, body = data[at + 4:at + 8], data[at + 8:at + 8 + length]
        (crc,) = struct.unpack(">I", data[at + 8 + length:at + 12 + length])
        assert crc == zlib.crc32(kind + body) & 0xFFFFFFFF, kind
        chunks[kind] = chunks.get(kind, b"") + body
        at += 12 + length
    width, height, depth, kind = struct.unpack(">IIBB", chunks[b"IHDR"][:10])
    assert depth == 8 and len(zlib.decompress(chunks[b"IDAT"])) == height * (1 + width * 4)
    return width, height, kind


def check_obj(mesh: Mesh, boxes: int) -> None:
    """A well-formed OBJ: 8 vertices and 6 outward quads a box, indices in range, UVs inside the picture."""
    vertices, uvs, normals, faces = [], [], [], []
    for line in mesh.obj.splitlines():
        kind, *rest = line.split()
        if kind == "v":
            vertices.append(tuple(map(float, rest)))
        elif kind == "vt":
            uvs.append(tuple(map(float, rest)))
        elif kind == "vn":
            normals.append(tuple(map(float, rest)))
        elif kind == "f":
            faces.append([tuple(int(i) for i in corner.split("/")) for corner in rest])
        else:
            assert kind in ("#", "o"), line
    assert len(vertices) == 8 * boxes and len(faces) == 6 * boxes and len(uvs) == 4 * len(faces)
    assert len(normals) == 6
    width, height, kind = png_size(mesh.png)
    assert kind == 6 and width & (width - 1) == 0 and height & (height - 1) == 0
    for u, v in uvs:
        assert 0 <= u <= 1 and 0 <= v <= 1
        assert abs(u * width - round(u * width)) < 1e-3 and abs(v * height - round(v * height)) < 1e-3  # texel edges
    for face in faces:
        assert len(face) == 4
        for v, t, n in face:
            assert 1 <= v <= len(vertices) and 1 <= t <= len(uvs) and 1 <= n <= len(normals)
        a, b, _, d = (vertices[v - 1] for v, _, _ in face)
        e1, e2 = [b[k] - a[k] for k in range(3)], [d[k] - a[k] for k in range(3)]
        cross = (e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0])
        normal = normals[face[0][2] - 1]
        assert sum(c * n for c, n in zip(cross, normal, strict=True)) > 0, "counter-clockwise seen from outside"


def test_every_mob_of_the_game_has_a_body_of_its_own_or_the_player_model(library, bodies):
    content = game_content(library.knowledge)
    dress(content, load_textures(GAME), colour)
    how, files = dress_bodies(content, bodies, colour, GAME)
    for mob in content["mobs"]:
        assert mob["model"].endswith((".obj", ".b3d")), mob["name"]
    fallback = sorted(name for name, way in how.items() if way.startswith("fallback"))
    assert not fallback, f"give these a body in {bodies_path(GAME)}: {fallback}"
    assert len(files) == 2 * len(how) >= 50
    unused = set(bodies.mobs) - {m["name"].removeprefix("minecraft:") for m in content["mobs"]}
    assert not unused, f"bodies of no mob of the game: {sorted(unused)}"


def test_the_engine_registered_every_mob_as_a_mesh(library):
    """The registry dumped from the running game (``taskverse engine dump``): no mob is a cube any more."""
    entities = json.loads((profile_dir(GAME) / REGISTRY_FILE).read_text())["entities"]
    # the game's mobs, not its other entities (the shot arrow or thrown trident is a sprite)
    names = {mob["name"] for mob in game_content(library.knowledge)["mobs"]}
    mobs = {name: entities[name]["visual"] for name in names if name in entities}
    assert len(mobs) == len(names) >= 79 and set(mobs.values()) == {"mesh"}


def test_a_mob_with_no_entry_takes_the_fallback_plan_in_its_own_colour(bodies):
    plan = body_of(bodies, "no_such_mob", "#123456")
    assert plan.kind == bodies.plans[bodies.fallback].kind
    assert {part.colour for part in plan.parts.values()} == {"#123456"}


@pytest.mark.parametrize("mob", ["cow", "pig", "sheep", "chicken", "spider", "creeper", "bee", "ghast", "cod",
                                 "slime", "silverfish", "ender_dragon", "shulker", "wither"])
def test_a_mob_body_is_a_valid_obj_and_picture(bodies, mob):
    plan = body_of(bodies, mob, "#808080")
    check_obj(body_mesh(mob, plan), len(layout(plan)))


@pytest.mark.parametrize("name", sorted(load_bodies(GAME).plans))
def test_every_plan_is_a_valid_obj_and_picture(bodies, name):
    plan = bodies.plans[name]
    check_obj(body_mesh(name, plan), len(layout(plan)))


@st.composite
def plans(draw: st.DrawFn) -> Plan:
    kind = draw(st.sampled_from(sorted(KINDS)))
    must, may = KINDS[kind]
    names = sorted(must) + draw(st.lists(st.sampled_from(sorted(may)), unique=True)) if may else sorted(must)
    side = st.floats(min_value=0.5, max_value=40, allow_nan=False).map(lambda v: round(v, 2))
    parts = {name: Part(size=(draw(side), draw(side), draw(side)), colour="#a0b0c0",
                        pattern=draw(st.sampled_from(["plain", "patches", "spots", "stripes", "wool", "mottled",
                                                      "scales"])),
                        face=draw(st.sampled_from(["none", "eyes", "creeper", "spider", "nostrils", "glow"])))
             for name in names}
    return Plan(kind=kind, parts=parts, count=draw(st.integers(0, 8)),
                scale=draw(st.sampled_from([0.5, 1.0, 2.0])))


@settings(max_examples=60, deadline=None)
@given(plans())
def test_any_plan_gives_a_valid_obj_the_same_every_time(plan):
    mesh = body_mesh("any", plan)
    check_obj(mesh, len(layout(plan)))
    assert body_mesh("any", plan) == mesh
    low_x, feet, low_z, high_x, top, high_z = mesh.box
    assert low_x == -high_x < 0 and low_z == -high_z < 0 and feet == -0.5 < top


def test_sizes_follow_the_plans(bodies):
    def box(mob):
        return body_mesh(mob, body_of(bodies, mob, "#808080")).box

    cow, chicken, pig = box("cow"), box("chicken"), box("pig")
    assert cow[4] > pig[4] > chicken[4] and cow[3] > chicken[3]
    assert 1.2 <= cow[4] - cow[1] <= 1.8 and 0.6 <= chicken[4] - chicken[1] <= 1.0  # Minecraft's 1.4 and 0.7


def test_the_build_writes_every_body_and_credits_it_as_the_project_s_own(built):
    credits = built[f"mods/minecraft/{CREDITS_FILE}"].decode()
    for path in (p for p in built if re.search(r"/taskverse_mc_\w+\.(obj|png)$", p)):
        if path.endswith("taskverse_mc_white.png"):
            continue
        short = path.removeprefix("mods/minecraft/")
        assert f"{short}: MIT, the taskverse project's own work" in credits, short
    assert "models/taskverse_mc_cow.obj" in credits and "textures/taskverse_mc_cow.png" in credits


@pytest.mark.parametrize(("old", "new", "message", "field"), [
    ("  spider: {plan: spider}\n", "  spider: {plan: arachnid}\n", "plan 'arachnid' is not one of",
     "mobs.spider.plan"),
    ("  horse: {plan: horse}\n", "  horse: {plan: horse, parts: {fin: {size: [1, 1, 1]}}}\n",
     "a quadruped has no part 'fin'", "mobs.horse.parts.fin"),
    ("  cod: {plan: fish}\n", "  cod: {plan: fish, colour: brown}\n", "is not #rrggbb", "mobs.cod.colour"),
    ("  horse: {plan: horse}\n", "  horse: {plan: horse, parts: {horn: {colour: \"#ffffff\"}}}\n",
     "the plan horse has no horn: give its size", "mobs.horse.parts.horn"),
    ("fallback: beast\n", "fallback: dragon\n", "fallback 'dragon' is not a plan", "fallback"),
])
def test_a_bad_entry_is_one_error_naming_file_line_and_field(tmp_path, old, new, message, field):
    def load(path):
        return load_bodies(GAME, path)

    assert_one_bad_entry(bodies_path(GAME), tmp_path / "bodies.yaml", old, new, load, message, field)


def test_the_engine_loads_the_models_with_no_error_line(library):
    """The server and the player's client load every mesh and picture: no "Could not load", no error line."""
    need_engine(client=True)
    from taskverse.engine.episode import EngineEpisode

    mobs = ["cow", "chicken", "spider", "creeper", "bee", "ghast", "cod"]
    with EngineEpisode("combat zombie", library=library, game=GAME) as episode:
        result = episode.reset()
        assert result.observation is not None
        for mob in mobs:
            result = episode.step({"do": "spawn", "entity": f"minecraft:{mob}"})
            assert result.ok, result.error
        assert result.observation is not None
        assert {f"minecraft:{mob}" for mob in mobs} <= set(result.observation.entities)
        result = episode.step({"do": "wait", "seconds": 1})  # the client has drawn them
        logs = sorted(Path(episode._run.directory).glob("*.log"))
        assert "server.log" in {p.name for p in logs} and any(p.name.startswith("client") for p in logs)
        text = "".join(p.read_text(errors="replace") for p in logs)
    # the engine's own window icon (Debian's package leaves it out) is no file of the game
    bad = [line for line in text.splitlines()
           if ("Could not load" in line and "icon file" not in line) or "ERROR[" in line]
    assert not bad, bad[:5]


def test_docstring_examples():
    import doctest

    from taskverse.engine.gamegen import bodies, meshes, png

    for module in (bodies, meshes, png):
        result = doctest.testmod(module)
        assert result.attempted >= 1 and result.failed == 0, module.__name__

r"""A laid-out body as the files the engine loads: a Wavefront ``.obj`` mesh and its texture atlas as a PNG.

Every face of every box gets its own rectangle of the atlas, one texel a Minecraft pixel, painted with the part's
colour and pattern (a cow's patches, a bee's stripes, wool's tufts) and, on a head's front, its face. The mesh is
in the engine's entity units (10 to a node, as the player's model), standing with its feet half a node below the
entity's position (where the game puts a summoned mob: the middle of the node above the ground), facing +z; the
OBJ's texture coordinates start at the picture's bottom left, as the format says (the engine's loader turns them).
The same body gives the same bytes: patterns draw from a hash of the mob's name and the texel's place, never from
a random generator.

Example:
    >>> from taskverse.engine.gamegen.bodies import Part, Plan, layout
    >>> plan = Plan(kind="cube", parts={"body": Part(size=(4, 4, 4), colour="#70c060")})
    >>> mesh = body_mesh("slime", plan)
    >>> mesh.obj.count("\nf "), mesh.obj.count("\nv ")
    (6, 8)

"""

from __future__ import annotations

import math
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from taskverse.engine.gamegen.bodies import Bodies, Box, Plan, Vec, body_of, layout
from taskverse.engine.gamegen.png import Pixel, encode_png

UNITS_PER_PIXEL = 10 / 16
"""Entity meshes are drawn at 10 units a node (the engine's BS); Minecraft's models at 16 pixels a block."""
FEET = -0.5
"""Where the feet are, in nodes below the entity's position."""
MAX_HALF_WIDTH = 0.9
MAX_HEIGHT = 2.9
"""A collision box at most 1.8 nodes wide and 2.9 high: a mob is summoned on a free spot one node wide beside the
player, where a ghast's 4-node box would sit in the terrain."""

# faces: name, corners (as indexes of the box's low/high per axis) counter-clockwise seen from outside, from the
# texture's bottom left; the texture's right is the first edge, its up the last
_FACES: tuple[tuple[str, tuple[tuple[int, int, int], ...], Vec], ...] = (
    ("front", ((0, 0, 1), (1, 0, 1), (1, 1, 1), (0, 1, 1)), (0.0, 0.0, 1.0)),
    ("back", ((1, 0, 0), (0, 0, 0), (0, 1, 0), (1, 1, 0)), (0.0, 0.0, -1.0)),
    ("right", ((1, 0, 1), (1, 0, 0), (1, 1, 0), (1, 1, 1)), (1.0, 0.0, 0.0)),
    ("left", ((0, 0, 0), (0, 0, 1), (0, 1, 1), (0, 1, 0)), (-1.0, 0.0, 0.0)),
    ("top", ((1, 1, 0), (0, 1, 0), (0, 1, 1), (1, 1, 1)), (0.0, 1.0, 0.0)),
    ("bottom", ((0, 0, 0), (1, 0, 0), (1, 0, 1), (0, 0, 1)), (0.0, -1.0, 0.0)),
)
_SHADE = {"top": 1.0, "front": 0.93, "back": 0.93, "right": 0.84, "left": 0.84, "bottom": 0.66}
"""Light baked into the faces, so a box reads as a box on screen (entities are lit evenly)."""


@dataclass(frozen=True)
class Mesh:
    """A mob's mesh (OBJ text), its atlas (PNG bytes), and its collision box in nodes."""

    obj: str
    png: bytes
    box: tuple[float, float, float, float, float, float]


@dataclass(frozen=True)
class _Rect:
    box: Box
    face: int
    cols: int
    rows: int
    x: int = 0
    y: int = 0


def body_mesh(name: str, plan: Plan) -> Mesh:
    """The mesh, atlas and collision box of a mob named ``name`` built from ``plan``."""
    boxes = layout(plan)
    rects = _pack([_Rect(box, face, *_texels(box, face)) for box in boxes for face in range(len(_FACES))])
    width = _power_of_two(max(r.x + r.cols + 2 for r in rects))
    height = _power_of_two(max(r.y + r.rows + 2 for r in rects))
    pixels: list[list[Pixel]] = [[(0, 0, 0, 0)] * width for _ in range(height)]
    for rect in rects:
        _paint(name, rect, pixels)
    return Mesh(_obj(name, rects, width, height, plan.scale), encode_png(width, height, pixels),
                _collision(boxes, plan.scale))


def _texels(box: Box, face: int) -> tuple[int, int]:
    corners, _ = _corners(box, face)
    right = _distance(corners[0], corners[1])
    up = _distance(corners[0], corners[3])
    return max(1, round(right)), max(1, round(up))


def _corners(box: Box, face: int) -> tuple[list[Vec], Vec]:
    ends = (box.low, box.high)
    _, picks, normal = _FACES[face]
    return [(ends[a][0], ends[b][1], ends[c][2]) for a, b, c in picks], normal


def _distance(a: Vec, b: Vec) -> float:
    return math.dist(a, b)


def _power_of_two(n: int) -> int:
    return 1 << max(4, (n - 1).bit_length())


def _pack(rects: list[_Rect]) -> list[_Rect]:
    """Shelves of rectangles (tallest first), each with a one-texel border that repeats its edge."""
    order = sorted(range(len(rects)), key=lambda i: (-rects[i].rows, -rects[i].cols, i))
    area = sum((r.cols + 2) * (r.rows + 2) for r in rects)
    width = max(max(r.cols + 2 for r in rects), _power_of_two(math.ceil(math.sqrt(area * 1.3))))
    placed: dict[int, _Rect] = {}
    x = y = shelf = 0
    for i in order:
        rect = rects[i]
        if x + rect.cols + 2 > width:
            x, y, shelf = 0, y + shelf, 0
        placed[i] = _Rect(rect.box, rect.face, rect.cols, rect.rows, x + 1, y + 1)
        x += rect.cols + 2
        shelf = max(shelf, rect.rows + 2)
    return [placed[i] for i in range(len(rects))]


def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def _seed(*parts: str) -> int:
    return zlib.crc32("/".join(parts).encode())


def _hash(seed: int, cell: tuple[int, ...]) -> float:
    """A number in [0, 1) from a seed and a cell: the same cell, the same number, build after build.

    An integer mix rather than a digest: a texel's colour is asked for some hundred thousand times a game.
    """
    h = seed
    for c, k in zip(cell, (0x9E3779B1, 0x85EBCA77, 0xC2B2AE3D), strict=False):
        h = (h ^ (c * k)) & 0xFFFFFFFF
        h ^= h >> 15
        h = (h * 0x2C1B3C6D) & 0xFFFFFFFF
        h ^= h >> 12
    return h / 2 ** 32


def _scaled(rgb: tuple[int, int, int], factor: float) -> tuple[int, int, int]:
    r, g, b = (max(0, min(255, round(c * factor))) for c in rgb)
    return r, g, b


class _Brush:
    """A part's pattern, ready to colour its texels: colours parsed and seeds drawn once a box."""

    def __init__(self, name: str, box: Box) -> None:
        look = box.look
        self.base = _rgb(look.colour or "#ff00ff")
        self.accent = _rgb(look.accent) if look.accent else _scaled(self.base, 0.6)
        self.pattern = look.pattern or "plain"
        self.grain = _seed(name, box.part, "grain")
        self.patch = _seed(name, "patch")
        self.shade = _seed(name, "shade")

    def colour(self, point: Vec) -> tuple[tuple[int, int, int], float]:
        """The colour of the pattern at a point of the part's surface (in pixels), and a brightness to apply."""
        cell = (math.floor(point[0] + 1e-6), math.floor(point[1] + 1e-6), math.floor(point[2] + 1e-6))
        grain = _hash(self.grain, cell)
        pattern = self.pattern
        if pattern == "patches":  # blocks of four pixels, as a cow's
            block = tuple(math.floor((c + 1e-6) / 4) for c in point)
            return (self.accent, 1.0) if _hash(self.patch, block) < 0.4 else (self.base, 0.97 + 0.06 * grain)
        if pattern == "spots":
            block = tuple(math.floor((c + 1e-6) / 2) for c in point)
            return (self.accent, 1.0) if _hash(self.patch, block) < 0.22 else (self.base, 0.96 + 0.08 * grain)
        if pattern == "stripes":  # bands across the length, two pixels wide, as a bee's
            return (self.accent, 1.0) if math.floor((point[2] + 1e-6) / 2) % 2 else (self.base, 0.96 + 0.08 * grain)
        if pattern == "wool":
            return self.base, 0.84 + 0.2 * grain
        if pattern == "mottled":  # a creeper's greens
            return (self.accent, 1.0) if grain < 0.3 else (self.base, 0.8 + 0.35 * _hash(self.shade, cell))
        if pattern == "scales":
            return (self.accent, 1.0) if (cell[0] + cell[1] + cell[2]) % 2 and grain < 0.6 else (self.base, 1.0)
        return self.base, 0.95 + 0.1 * grain


_CREEPER = ("........", "........", ".XX..XX.", ".XX..XX.", "...XX...", "..XXXX..", "..XXXX..", "..X..X..")
_SPIDER = ("........", ".R.RR.R.", "........", "..R..R..", "........", "........", "........", "........")


def _feature(kind: str, cols: int, rows: int, i: int, j: int) -> tuple[int, int, int] | None:
    """What a face shows at texel (i, j) of its front (j from the bottom), or None for the part's own colour."""
    top = rows - 1 - j
    if kind in ("creeper", "spider"):
        grid = _CREEPER if kind == "creeper" else _SPIDER
        mark = grid[min(7, top * 8 // rows)][min(7, i * 8 // cols)]
        return {"X": (20, 28, 20), "R": (200, 20, 20)}.get(mark)
    if kind == "nostrils":
        mid = rows // 2
        if j == mid and i in (cols // 2 - 1 - cols // 6, cols // 2 + cols // 6):
            return (120, 60, 70)
        return None
    if kind in ("eyes", "glow"):
        row = max(0, rows - 1 - max(1, rows * 3 // 8))
        if j != row:
            return None
        inner = max(1, cols // 4)
        pupil = (250, 220, 60) if kind == "glow" else (24, 24, 28)
        if cols < 5:
            return pupil if i in (0, cols - 1) else None
        if i in (inner, cols - 1 - inner):
            return pupil
        if i in (inner - 1, cols - inner):
            return (240, 240, 240)
    return None


def _paint(name: str, rect: _Rect, pixels: list[list[Pixel]]) -> None:
    corners, _ = _corners(rect.box, rect.face)
    face_name = _FACES[rect.face][0]
    shade = _SHADE[face_name]
    brush = _Brush(name, rect.box)
    (ox, oy, oz), right, up = corners[0], corners[1], corners[3]
    rx, ry, rz = right[0] - ox, right[1] - oy, right[2] - oz
    ux, uy, uz = up[0] - ox, up[1] - oy, up[2] - oz
    feature = rect.box.look.face if face_name == "front" and rect.box.look.face not in (None, "none") else None
    painted: dict[tuple[int, int], Pixel] = {}
    for cj in range(rect.rows):
        fv = (cj + 0.5) / rect.rows
        for ci in range(rect.cols):
            fu = (ci + 0.5) / rect.cols
            mark = _feature(feature, rect.cols, rect.rows, ci, cj) if feature else None
            if mark is not None:
                rgb, bright = mark, 1.0
            else:
                rgb, bright = brush.colour((ox + fu * rx + fv * ux, oy + fu * ry + fv * uy, oz + fu * rz + fv * uz))
            f = bright * shade
            painted[ci, cj] = (min(255, round(rgb[0] * f)), min(255, round(rgb[1] * f)), min(255, round(rgb[2] * f)),
                               255)
    for j in range(-1, rect.rows + 1):  # the border repeats the edge, so filtering never reaches a neighbour
        row = pixels[rect.y + rect.rows - 1 - j]
        cj = min(max(j, 0), rect.rows - 1)
        for i in range(-1, rect.cols + 1):
            row[rect.x + i] = painted[min(max(i, 0), rect.cols - 1), cj]


def _obj(name: str, rects: list[_Rect], width: int, height: int, scale: float) -> str:
    """The OBJ text: 8 vertices a box, 4 texture coordinates and one quad a face, normals shared."""
    lines = [f"# {name}: generated by taskverse (taskverse.engine.gamegen.meshes) from its body plan", f"o {name}"]
    lines += [f"vn {x:g} {y:g} {z:g}" for _, _, (x, y, z) in _FACES]
    vertex = uv = 0
    boxes: dict[int, int] = {}
    for rect in rects:
        key = id(rect.box)
        if key not in boxes:  # a box's corners once; its six faces share them
            boxes[key] = vertex
            for a in (0, 1):
                for b in (0, 1):
                    for c in (0, 1):
                        ends = (rect.box.low, rect.box.high)
                        x, y, z = ends[a][0], ends[b][1], ends[c][2]
                        lines.append(f"v {_units(x, scale):.4f} {_units(y, scale) + FEET * 10:.4f} "
                                     f"{_units(z, scale):.4f}")
            vertex += 8
        left, right = rect.x / width, (rect.x + rect.cols) / width
        bottom, top = 1 - (rect.y + rect.rows) / height, 1 - rect.y / height
        lines += [f"vt {u:.6f} {v:.6f}" for u, v in ((left, bottom), (right, bottom), (right, top), (left, top))]
        _, picks, _ = _FACES[rect.face]
        corners = [boxes[key] + a * 4 + b * 2 + c + 1 for a, b, c in picks]
        lines.append("f " + " ".join(f"{v}/{uv + k + 1}/{rect.face + 1}" for k, v in enumerate(corners)))
        uv += 4
    return "\n".join(lines) + "\n"


def _units(pixels: float, scale: float) -> float:
    return pixels * scale * UNITS_PER_PIXEL


def _collision(boxes: list[Box], scale: float) -> tuple[float, float, float, float, float, float]:
    """The collision box in nodes around the entity's position: the body's bounds, capped (see MAX_HALF_WIDTH)."""
    node = scale / 16
    # boxes do not turn with the mob: its width and length averaged, as Minecraft's square hit boxes
    half = sum(max(max(abs(b.low[k]), abs(b.high[k])) for b in boxes) for k in (0, 2)) / 2 * node
    half = round(min(MAX_HALF_WIDTH, max(0.15, half)), 3)
    top = round(min(MAX_HEIGHT, max(0.25, max(b.high[1] for b in boxes) * node)) + FEET, 3)
    return (-half, FEET, -half, half, top, half)


def dress_bodies(content: dict[str, Any], bodies: Bodies, own: Callable[[str], str],
                 game: str) -> tuple[dict[str, str], dict[str, bytes]]:
    """Give every mob with no model yet (not humanoid) its generated body: mesh, picture and collision box.

    Sets each such mob's ``model``, ``box`` and its entry in ``content["textures"]``; returns how each got its
    body (``plan <plan>``, or ``fallback <plan>``) and the files (path in the game -> bytes), with their credits
    line for the game's credits file.
    """
    short = content["namespace"] + ":"
    how: dict[str, str] = {}
    files: dict[str, bytes] = {}
    for entry in content["mobs"]:
        if "model" in entry:
            continue
        name = entry["name"].removeprefix(short)
        plan = bodies.mobs[name].plan if name in bodies.mobs else bodies.fallback
        how[name] = f"plan {plan}" if name in bodies.mobs else f"fallback {plan}"
        mesh = body_mesh(name, body_of(bodies, name, own(name)))
        stem = f"{game}_{name}"
        files[f"mods/minecraft/models/{stem}.obj"] = mesh.obj.encode()
        files[f"mods/minecraft/textures/{stem}.png"] = mesh.png
        entry["model"] = f"{stem}.obj"
        entry["box"] = list(mesh.box)
        content["textures"][entry["name"]] = [f"{stem}.png"]
    return how, files


def credits_lines(files: dict[str, bytes], game: str) -> list[str]:
    """The credits file's lines for the generated bodies: the project's own work, under its licence (MIT)."""
    return [f"{path.removeprefix('mods/minecraft/')}: MIT, the taskverse project's own work, generated by the game "
            f"build from engine/games/{game}/bodies.yaml" for path in sorted(files)]

"""Body plans of the generated game's mobs: boxes laid out from a few proportions, as Minecraft builds its own.

``engine/games/<game>/bodies.yaml`` declares every plan's parts (size in Minecraft pixels, 16 to a block, and
look: colour, pattern, face) and every mob's plan with the parts it changes; a mob with no entry of its own (and no
humanoid look in ``textures.yaml``) takes the file's ``fallback`` in its own colour. This module reads the file and
lays a mob's parts out as axis-aligned boxes (:func:`layout`): where a leg, a head or a wing goes is the plan
kind's rule here, how big and what colour it is the data's. ``taskverse.engine.gamegen.meshes`` turns the boxes
into the mesh and picture the game loads.

Example:
    >>> plan = Plan(kind="cube", parts={"body": Part(size=(8, 8, 8), colour="#70c060")})
    >>> [(box.part, box.low, box.size) for box in layout(plan)]
    [('body', (-4.0, 0.0, -4.0), (8.0, 8.0, 8.0))]

"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, field_validator

from taskverse.errors import TaskverseError

BODIES_FILE = "bodies.yaml"
Vec = tuple[float, float, float]
Pattern = Literal["plain", "patches", "spots", "stripes", "wool", "mottled", "scales"]
Face = Literal["none", "eyes", "creeper", "spider", "nostrils", "glow"]



def _rgb(value: str) -> str:
    if len(value) != 7 or value[0] != "#" or any(c not in "0123456789abcdef" for c in value[1:]):
        raise ValueError(f"colour {value!r} is not #rrggbb (lower case)")
    return value


Colour = Annotated[str, AfterValidator(_rgb)]

KINDS: dict[str, tuple[set[str], set[str]]] = {
    # kind: (parts it must have, parts it may have)
    "quadruped": ({"body", "head", "leg"}, {"snout", "horn", "ear", "tail", "neck", "hump", "wing", "mane"}),
    "upright": ({"body", "head", "leg"}, {"arm"}),
    "bird": ({"body", "head", "wing"}, {"leg", "beak", "wattle", "tail"}),
    "insect": ({"body", "wing"}, {"head", "leg", "stinger", "antenna"}),
    "spider": ({"body", "head", "leg"}, set()),
    "fish": ({"body"}, {"tail", "fin", "head", "leg"}),
    "floater": ({"body"}, {"tentacle"}),
    "cube": ({"body"}, {"core"}),
    "worm": ({"body"}, set()),
}
"""The plan kinds :func:`layout` knows, with the parts each must and may have."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Part(_Strict):
    """One part of a body: its size and look (a plan's default, or a mob's change to it)."""

    size: Vec | None = Field(default=None, description="Width (x), height (y), length (z) in Minecraft pixels.")
    colour: Colour | None = None
    pattern: Pattern | None = None
    accent: Colour | None = Field(default=None, description="The pattern's second colour.")
    face: Face | None = Field(default=None, description="What its front shows (eyes, a creeper's face, nostrils).")
    offset: Vec | None = Field(default=None, description="Pixels to move it by from where the plan puts it.")

    @field_validator("size")
    @classmethod
    def _positive(cls, value: Vec | None) -> Vec | None:
        if value is not None and not all(0 < v <= 256 for v in value):
            raise ValueError(f"size {value!r}: each side more than 0 and at most 256 pixels")
        return value

    def over(self, base: Part) -> Part:
        """The part with this one's fields where it gives them, else ``base``'s."""
        return base.model_copy(update={k: v for k, v in self.model_dump().items() if v is not None})


class Plan(_Strict):
    """A body: its kind, its parts, how many legs (or tentacles, segments) and a size multiplier."""

    kind: str
    parts: dict[str, Part]
    count: int = Field(default=0, ge=0, le=16, description="Legs, tentacles or segments where the kind counts them.")
    scale: float = Field(default=1.0, gt=0, le=8)


class MobBody(_Strict):
    """A mob's body: a plan, with the parts it changes and its own colour over the plan's."""

    plan: str
    colour: Colour | None = None
    parts: dict[str, Part] = Field(default_factory=dict)
    count: int | None = Field(default=None, ge=0, le=16)
    scale: float | None = Field(default=None, gt=0, le=8)


class Bodies(_Strict):
    """``bodies.yaml``: the plans, the mobs' bodies, and the plan a mob with no entry takes."""

    plans: dict[str, Plan] = Field(min_length=1)
    mobs: dict[str, MobBody] = Field(default_factory=dict)
    fallback: str


@dataclass(frozen=True)
class Box:
    """An axis-aligned box of a laid-out body: its lowest corner and size in pixels (y up, the head towards +z)."""

    part: str
    low: Vec
    size: Vec
    look: Part

    @property
    def high(self) -> Vec:
        """The corner opposite ``low``."""
        return (self.low[0] + self.size[0], self.low[1] + self.size[1], self.low[2] + self.size[2])


def bodies_path(game: str) -> Path:
    """The game's body plans (``engine/games/<game>/bodies.yaml``)."""
    from taskverse.paths import project_root

    return project_root() / "engine" / "games" / game / BODIES_FILE


def load_bodies(game: str, path: Path | None = None) -> Bodies:
    """Read and check a game's body plans; a bad entry is one error naming file, line and field."""
    from taskverse.fileio import read_text
    from taskverse.yamlio import line_of, load_model

    path = path or bodies_path(game)
    bodies: Bodies = load_model(path, Bodies, "body plans (plans, mobs, fallback)")

    def fail(message: str, *where: str) -> TaskverseError:
        line = line_of(read_text(path, "YAML file"), where)
        return TaskverseError(message, file=path, line=line, field=".".join(where))

    for name, plan in bodies.plans.items():
        if plan.kind not in KINDS:
            raise fail(f"kind {plan.kind!r} is not one of {', '.join(KINDS)}", "plans", name, "kind")
        must, may = KINDS[plan.kind]
        if must - set(plan.parts):
            raise fail(f"a {plan.kind} needs the parts {', '.join(sorted(must - set(plan.parts)))}", "plans", name)
        for part, look in plan.parts.items():
            if part not in must | may:
                raise fail(f"a {plan.kind} has no part {part!r} (parts: {', '.join(sorted(must | may))})",
                           "plans", name, "parts", part)
            if look.size is None or look.colour is None:
                raise fail("a plan's part gives its size and colour", "plans", name, "parts", part)
    if bodies.fallback not in bodies.plans:
        raise fail(f"fallback {bodies.fallback!r} is not a plan ({', '.join(bodies.plans)})", "fallback")
    for name, mob in bodies.mobs.items():
        if mob.plan not in bodies.plans:
            raise fail(f"plan {mob.plan!r} is not one of {', '.join(bodies.plans)}", "mobs", name, "plan")
        must, may = KINDS[bodies.plans[mob.plan].kind]
        kind = bodies.plans[mob.plan].kind
        for part, look in mob.parts.items():
            if part not in must | may:
                raise fail(f"a {kind} has no part {part!r} (parts: {', '.join(sorted(must | may))})",
                           "mobs", name, "parts", part)
            if part not in bodies.plans[mob.plan].parts and look.size is None:
                raise fail(f"the plan {mob.plan} has no {part}: give its size", "mobs", name, "parts", part)
    return bodies


def body_of(bodies: Bodies, mob: str, own: str) -> Plan:
    """The plan a mob is built from, its changes applied (``own``: its plain colour, for the fallback)."""
    entry = bodies.mobs.get(mob) or MobBody(plan=bodies.fallback, colour=own)
    plan = bodies.plans[entry.plan]
    parts: dict[str, Part] = {}
    for name, part in plan.parts.items():
        base = part.model_copy(update={"colour": entry.colour}) if entry.colour else part
        parts[name] = entry.parts[name].over(base) if name in entry.parts else base
    for name, part in entry.parts.items():  # parts the plan leaves out and the mob adds (a cow's horns)
        if name not in parts:
            parts[name] = part.over(Part(size=(1, 1, 1), colour=entry.colour or own))
    return Plan(kind=plan.kind, parts=parts, count=plan.count if entry.count is None else entry.count,
                scale=plan.scale if entry.scale is None else entry.scale)


def layout(plan: Plan) -> list[Box]:
    """The plan's parts as boxes in pixels, standing on y = 0 around x = z = 0, facing +z (before its scale)."""
    place = _Layout(plan)
    getattr(place, plan.kind)()
    return place.boxes


class _Layout:
    """Where each kind puts its parts: one method a kind, each reading sizes from the plan."""

    def __init__(self, plan: Plan) -> None:
        self.plan = plan
        self.boxes: list[Box] = []

    def size(self, part: str) -> Vec:
        look = self.plan.parts.get(part)
        return look.size if look is not None and look.size is not None else (0.0, 0.0, 0.0)

    def has(self, part: str) -> bool:
        return part in self.plan.parts

    def add(self, part: str, x: float, y: float, z: float, size: Vec | None = None, face: bool = True) -> Vec:
        """A box of ``part`` whose bottom centre is at (x, y, z); returns that point, moved by the part's offset."""
        look = self.plan.parts[part]
        if not face:  # the same part again (a worm's later segments): its face only once
            look = look.model_copy(update={"face": "none"})
        w, h, d = size or self.size(part)
        dx, dy, dz = look.offset or (0.0, 0.0, 0.0)
        self.boxes.append(Box(part, (x + dx - w / 2, y + dy, z + dz - d / 2), (w, h, d), look))
        return (x + dx, y + dy, z + dz)

    def head_features(self, x: float, y: float, z: float) -> None:
        """Snout, horns, ears on a head whose bottom centre is at (x, y, z)."""
        w, h, d = self.size("head")
        front = z + d / 2
        if self.has("snout"):
            sw, sh, sd = self.size("snout")
            self.add("snout", x, y + 1, front + sd / 2)
        if self.has("beak"):
            bw, bh, bd = self.size("beak")
            self.add("beak", x, y + h / 2 - bh / 2, front + bd / 2)
        if self.has("wattle"):
            ww, wh, wd = self.size("wattle")
            self.add("wattle", x, y + h / 2 - self.size("beak")[1] / 2 - wh, front + wd / 2)
        for side in (-1, 1):
            if self.has("horn"):
                hw, hh, hd = self.size("horn")
                self.add("horn", x + side * (w / 2 + hw / 2), y + h - 2, z + d / 2 - 2 - hd / 2)
            if self.has("ear"):
                ew, eh, ed = self.size("ear")
                self.add("ear", x + side * (w / 2 - ew / 2), y + h, z - d / 2 + ed / 2 + 1)
            if self.has("antenna"):
                aw, ah, ad = self.size("antenna")
                self.add("antenna", x + side * w / 4, y + h, front - ad / 2)

    def quadruped(self) -> None:
        bw, bh, bd = self.size("body")
        lw, lh, ld = self.size("leg")
        for sx in (-1, 1):
            for sz in (-1, 1):
                self.add("leg", sx * (bw / 2 - lw / 2), 0, sz * (bd / 2 - ld / 2))
        top = lh + bh
        self.add("body", 0, lh, 0)
        if self.has("hump"):
            self.add("hump", 0, top, 0)
        if self.has("mane"):
            self.add("mane", 0, top, bd / 4)
        hw, hh, hd = self.size("head")
        if self.has("neck"):
            nw, nh, nd = self.size("neck")
            nx, ny, nz = self.add("neck", 0, top - 2, bd / 2 - nd / 2)
            hx, hy, hz = self.add("head", nx, ny + nh - hh / 2, nz + nd / 2 + hd / 2 - 2)
        else:
            hx, hy, hz = self.add("head", 0, top - hh * 0.7, bd / 2 + hd / 2 - 1)
        self.head_features(hx, hy, hz)
        if self.has("tail"):
            tw, th, td = self.size("tail")
            self.add("tail", 0, top - th, -bd / 2 - td / 2)
        if self.has("wing"):
            ww, wh, wd = self.size("wing")
            for side in (-1, 1):
                self.add("wing", side * (bw / 2 + ww / 2), top - wh, 0)

    def upright(self) -> None:
        bw, bh, bd = self.size("body")
        lw, lh, ld = self.size("leg")
        if self.plan.count == 4:  # a creeper's legs: two in front of the body, two behind
            for sx in (-1, 1):
                for sz in (-1, 1):
                    self.add("leg", sx * lw / 2, 0, sz * (bd / 2 + ld / 2))
        else:
            for sx in (-1, 1):
                self.add("leg", sx * lw / 2, 0, 0)
        self.add("body", 0, lh, 0)
        hx, hy, hz = self.add("head", 0, lh + bh, 0)
        self.head_features(hx, hy, hz)
        if self.has("arm"):
            aw, ah, ad = self.size("arm")
            for side in (-1, 1):
                self.add("arm", side * (bw / 2 + aw / 2), lh + bh - ah, 0)

    def bird(self) -> None:
        bw, bh, bd = self.size("body")
        lw, lh, ld = self.size("leg")
        if self.has("leg"):
            for side in (-1, 1):
                self.add("leg", side * bw / 4, 0, 0)
        self.add("body", 0, lh, 0)
        hw, hh, hd = self.size("head")
        hx, hy, hz = self.add("head", 0, lh + bh - 2, bd / 2 - hd / 2 + 1)
        self.head_features(hx, hy, hz)
        ww, wh, wd = self.size("wing")
        for side in (-1, 1):
            self.add("wing", side * (bw / 2 + ww / 2), lh + bh - wh - 1, 0)
        if self.has("tail"):
            tw, th, td = self.size("tail")
            self.add("tail", 0, lh + bh - th, -bd / 2 - td / 2)

    def insect(self) -> None:
        bw, bh, bd = self.size("body")
        lw, lh, ld = self.size("leg")
        pairs = max(1, self.plan.count // 2)
        if self.has("leg"):
            for i in range(pairs):
                for side in (-1, 1):
                    self.add("leg", side * (bw / 2 - lw / 2), 0, (i - (pairs - 1) / 2) * bd / (pairs + 1))
        self.add("body", 0, lh, 0)
        if self.has("head"):
            hw, hh, hd = self.size("head")
            hx, hy, hz = self.add("head", 0, lh + (bh - hh) / 2, bd / 2 + hd / 2)
            self.head_features(hx, hy, hz)
        if self.has("stinger"):
            sw, sh, sd = self.size("stinger")
            self.add("stinger", 0, lh + bh / 2 - sh / 2, -bd / 2 - sd / 2)
        ww, wh, wd = self.size("wing")
        for side in (-1, 1):
            self.add("wing", side * ww / 2, lh + bh, 0)

    def spider(self) -> None:
        bw, bh, bd = self.size("body")
        hw, hh, hd = self.size("head")
        reach, lift, thick = self.size("leg")
        centre = lift - hh / 2  # the thorax hangs between the knees
        self.add("head", 0, centre, hd / 2)
        self.add("body", 0, centre + hh / 2 - bh / 2, -bd / 2)
        pairs = max(1, self.plan.count // 2)
        for i in range(pairs):
            z = hd / 2 - (i + 0.5) * hd / pairs
            for side in (-1, 1):
                self.add("leg", side * (hw / 2 + reach / 2), lift, z, (reach, thick, thick))
                self.add("leg", side * (hw / 2 + reach - thick / 2), 0, z, (thick, lift, thick))

    def fish(self) -> None:
        bw, bh, bd = self.size("body")
        lw, lh, ld = self.size("leg")
        if self.has("leg"):
            for sx in (-1, 1):
                for sz in (-1, 1):
                    self.add("leg", sx * (bw / 2 + lw / 2), 0, sz * bd / 4)
        base = lh / 2 if self.has("leg") else 0
        self.add("body", 0, base, 0)
        if self.has("head"):
            hw, hh, hd = self.size("head")
            self.add("head", 0, base + (bh - hh) / 2, bd / 2 + hd / 2)
        if self.has("tail"):
            tw, th, td = self.size("tail")
            self.add("tail", 0, base + (bh - th) / 2, -bd / 2 - td / 2)
        if self.has("fin"):
            fw, fh, fd = self.size("fin")
            self.add("fin", 0, base + bh, 0)

    def floater(self) -> None:
        bw, bh, bd = self.size("body")
        tw, th, td = self.size("tentacle")
        count = self.plan.count if self.has("tentacle") else 0
        side = max(1, round(count ** 0.5))
        for i in range(count):  # a grid under the body, as a ghast's or a squid's
            gx, gz = i % side, i // side
            rows = (count + side - 1) // side
            self.add("tentacle", (gx - (side - 1) / 2) * bw / (side + 0.5), 0,
                     (gz - (rows - 1) / 2) * bd / (rows + 0.5))
        self.add("body", 0, th, 0)

    def cube(self) -> None:
        bw, bh, bd = self.size("body")
        self.add("body", 0, 0, 0)
        if self.has("core"):
            cw, ch, cd = self.size("core")
            self.add("core", 0, (bh - ch) / 2, bd / 2 - cd / 2 + 0.01)

    def worm(self) -> None:
        bw, bh, bd = self.size("body")
        count = max(1, self.plan.count)
        z = bd * count / 2
        for i in range(count):  # segments shrinking towards the tail
            f = 1 - 0.5 * i / count
            self.add("body", 0, 0, z - bd / 2, (bw * f, bh * f, bd), face=i == 0)
            z -= bd

"""The plan format: a JSON list of engine actions the harness mod plays as the connected player.

A plan is engine-level and generic: any planner can write one (the scripted planner in
``taskverse.engine.planner``, the text-environment planner, a person). Item, node and entity names are the game's
(``default:tree``) or Minecraft names without a colon (``oak_log``), which :func:`resolve_plan` translates through
the game's mapping. ``engine/mods/taskverse_harness`` runs the steps; docs/engine.md lists every action.

Example:
    >>> plan = Plan(steps=[Step(do="dig", node="oak_log"), Step(do="craft", item="oak_planks")])
    >>> [s.item or s.node for s in resolve_plan(plan).steps]
    ['default:tree', 'default:wood']

"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from taskverse.errors import TaskverseError, close_matches

PLAN_FORMAT = 1

Action = Literal["wield", "dig", "place", "craft", "cook", "brew", "kill", "collect", "eat", "use", "interact", "move",
                 "home", "goto_biome", "goto_node", "time", "wait", "die", "soft_reset", "spawn", "enchant", "trade",
                 "loot", "store", "cut", "anvil", "clear", "tend"]

#: The fields each action reads (beyond ``do`` and ``note``); others are refused.
ACTION_FIELDS: dict[str, set[str]] = {
    "wield": {"item"},
    "dig": {"node", "tool", "count", "at", "pos", "radius", "item", "tries"},
    "place": {"item", "count", "at", "pos", "on", "radius", "wall", "beside"},
    "craft": {"item", "count", "ingredients"},
    "cook": {"item", "count", "fuel", "fuels"},
    "brew": {"item", "count", "ingredient", "fuel"},
    "kill": {"entity", "tool", "radius", "max_hits", "item", "count", "spawn", "tries"},
    "collect": {"radius"},
    "eat": {"item"},
    "use": {"item", "node", "entity", "at", "pos", "radius", "secondary"},
    "interact": {"node", "entity", "at", "pos", "radius", "punch"},
    "move": {"to", "by"},
    "home": set(),
    "goto_biome": {"biomes", "y", "vertical"},
    "goto_node": {"node", "radius", "y", "vertical", "above", "biomes"},
    "time": {"of_day"},
    "wait": {"seconds", "node", "entity", "radius", "dimension"},
    "die": set(),
    "soft_reset": set(),
    "spawn": {"entity"},
    "enchant": {"tool", "node", "item", "count", "tries", "radius"},
    "trade": {"entity", "item", "count", "radius", "tries", "spawn"},
    "loot": {"node", "radius", "y", "vertical", "item", "count", "tries", "tool", "on", "biomes"},
    "store": {"item", "node", "count"},
    "cut": {"item", "node", "count"},
    "anvil": {"item", "node", "count"},
    "clear": {"node", "radius"},
    "tend": {"entity", "item", "count", "radius"},
}
_REQUIRED: dict[str, tuple[str, ...]] = {
    "dig": ("node",), "place": ("item",), "craft": ("item",), "cook": ("item",), "brew": ("item", "ingredient"),
    "kill": ("entity",),
    "eat": ("item",), "spawn": ("entity",), "goto_biome": ("biomes",), "goto_node": ("node",), "time": ("of_day",),
    "enchant": ("tool", "node"), "trade": ("entity", "item"), "loot": ("node",), "store": ("item", "node"),
    "cut": ("item", "node"), "anvil": ("item", "node"), "clear": ("node",),
    "tend": ("entity", "item"),
}

Vector = tuple[float, float, float]


class Step(BaseModel):
    """One engine action. ``at`` is relative to the player's feet; ``pos`` and ``to`` are absolute."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    do: Action
    note: str | None = None
    item: str | None = None
    node: str | None = None
    entity: str | None = None
    tool: str | None = None
    fuel: str | None = None
    fuels: dict[str, int] | None = None
    """A cook's fuel for one cooking, kind by kind: how many of each burn, one kind after another (a cooking the
    model fuels with a slab and a stick burns both; a step cooking ``count`` items burns ``count`` times as much).
    ``fuel`` instead names one kind and the harness works out how many."""
    ingredient: str | None = None
    on: str | None = None
    count: int | None = Field(default=None, ge=1)
    at: Vector | None = None
    pos: Vector | None = None
    to: Vector | None = None
    by: Vector | None = None
    radius: int | None = Field(default=None, ge=1, le=128)
    y: float | None = None
    vertical: int | None = Field(default=None, ge=1, le=128)
    biomes: list[str] | None = None
    ingredients: list[str] | None = None
    of_day: float | Literal["day", "night"] | None = None
    seconds: float | None = Field(default=None, ge=0, le=30)
    secondary: bool | None = None
    punch: bool | None = None
    above: bool | None = None
    max_hits: int | None = Field(default=None, ge=1)
    tries: int | None = Field(default=None, ge=1)
    spawn: bool | None = None
    wall: bool | None = None
    beside: str | None = None
    dimension: str | None = None

    @model_validator(mode="after")
    def _fields_fit_the_action(self) -> Step:
        given = {name for name in type(self).model_fields if getattr(self, name) is not None} - {"do", "note"}
        extra = given - ACTION_FIELDS[self.do]
        if extra:
            raise ValueError(f"{self.do} does not take {', '.join(sorted(extra))} "
                             f"(it takes {', '.join(sorted(ACTION_FIELDS[self.do])) or 'nothing'})")
        missing = [name for name in _REQUIRED.get(self.do, ()) if getattr(self, name) is None]
        if missing:
            raise ValueError(f"{self.do} needs {', '.join(missing)}")
        if self.fuel is not None and self.fuels is not None:
            raise ValueError(f"{self.do} takes fuel (one kind) or fuels (kind by kind), not both")
        if self.fuels is not None and (not self.fuels or min(self.fuels.values()) < 1):
            raise ValueError(f"{self.do}'s fuels give at least one item of each kind")
        if self.tries is not None and self.item is None:
            raise ValueError(f"{self.do} takes tries only with item (the chance drop the tries are for)")
        return self


class Plan(BaseModel):
    """A scripted episode: steps in order; stop when the task is done (``stop_on_success``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    format: int = PLAN_FORMAT
    steps: list[Step]
    stop_on_success: bool = True
    settle: float = Field(default=0.2, ge=0, le=10, description="Seconds to keep observing after the last step.")

    def to_json(self) -> str:
        """The plan as the harness reads it (unset fields left out)."""
        return json.dumps(self.model_dump(mode="json", exclude_none=True), indent=1) + "\n"


def load_plan(path: Path, game: str | None = None) -> Plan:
    """Read a plan file (a JSON object with ``steps``, or a bare list of steps); with ``game``, resolve its names.

    Every error names the file, the line and the field (``steps.2.item``), with close matches for a mistyped name.
    """
    from taskverse.fileio import read_json

    data = read_json(path, "plan file (JSON)")
    bare = isinstance(data, list)
    if bare:
        data = {"steps": data}
    try:
        plan = Plan.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        return _raise(err, path, bare)
    if game is None:
        return plan
    try:
        return resolve_plan(plan, game)
    except TaskverseError as exc:
        if exc.file is not None or exc.field is None:
            raise
        loc = tuple(int(p) if p.isdigit() else p for p in exc.field.split("."))
        raise TaskverseError(exc.message, file=path, line=_line(path, loc, bare), field=exc.field,
                             suggestions=exc.suggestions) from None


def _line(path: Path, loc: tuple[str | int, ...], bare: bool) -> int | None:
    """The line of ``loc`` (``("steps", 2, "item")``) in the plan file (JSON is YAML: the YAML reader places it)."""
    from taskverse.fileio import read_text
    from taskverse.yamlio import line_of

    try:
        return line_of(read_text(path), loc[1:] if bare else loc)
    except Exception:  # noqa: BLE001  (a line is a help, never a second error)
        return None


def _raise(err: Any, path: Path, bare: bool = False) -> Plan:
    loc = ".".join(str(p) for p in err["loc"])
    message = err["msg"].removeprefix("Value error, ")
    suggestions: list[str] = []
    if err["type"] == "literal_error" and err["loc"][-1] == "do":
        message = f"unknown action {err.get('input')!r}; expected one of {', '.join(ACTION_FIELDS)}"
        suggestions = close_matches(str(err.get("input")), ACTION_FIELDS)
    raise TaskverseError(message, file=path, line=_line(path, tuple(err["loc"]), bare), field=loc or None,
                         suggestions=suggestions)


def resolve_plan(plan: Plan, game: str = "minetest_game") -> Plan:
    """Translate Minecraft names (no colon) in a plan to the game's names; unknown ones are an error.

    A game's own name (with a colon) must be one the game registers (an item, a node or an entity). An error names
    the field (``steps.2.fuels.cole``) and close matches.
    """
    from taskverse.engine.profile import load_mapping, load_registry

    mapping = load_mapping(game)
    registry = load_registry(game)
    # the game's own names: what it registers, and what the mapping maps to (a compiled task's mod registers the
    # mobs minetest_game lacks: taskverse:cow)
    mapped = {c.to for table in (mapping.items, mapping.blocks, mapping.entities) for c in table.values()
              if isinstance(c.to, str)}

    def name(value: str | None, kind: str, field: str) -> str | None:
        if value is None or value == "":
            return value
        if ":" in value:
            if registry.has(value) or value in registry.aliases or value in mapped:
                return value
            raise TaskverseError(f"{value!r} is no item, node or entity {game} has", field=field,
                                 suggestions=close_matches(value, [*registry.items, *registry.entities, *mapped]))
        counterpart = mapping.lookup(value, kind)  # type: ignore[arg-type]
        if counterpart is None or counterpart.to is None:
            known = [*mapping.items, *mapping.blocks, *mapping.entities]
            raise TaskverseError(f"plan names {value!r}, which has no counterpart in {game}", field=field,
                                 suggestions=close_matches(value, known))
        return counterpart.to

    def biomes(values: list[str] | None, field: str) -> list[str] | None:
        if values is None:
            return None
        out: list[str] = []
        for value in values:
            if value in registry.biomes:
                out.append(value)
            elif value in mapping.biomes and mapping.biomes[value].to:
                out.extend(mapping.biomes[value].to or [])
            else:
                raise TaskverseError(f"plan names biome {value!r}, which {game} does not have", field=field,
                                     suggestions=close_matches(value, [*registry.biomes, *mapping.biomes]))
        return out

    def resolved(i: int, step: Step) -> Step:
        at = f"steps.{i}"
        return step.model_copy(update={
            "item": name(step.item, "item", f"{at}.item"), "tool": name(step.tool, "item", f"{at}.tool"),
            "fuel": name(step.fuel, "item", f"{at}.fuel"),
            "ingredient": name(step.ingredient, "item", f"{at}.ingredient"),
            "fuels": {name(k, "item", f"{at}.fuels.{k}") or k: n for k, n in step.fuels.items()} if step.fuels
            else step.fuels,
            "node": name(step.node, "block", f"{at}.node"), "entity": name(step.entity, "entity", f"{at}.entity"),
            "on": name(step.on, "block", f"{at}.on"), "biomes": biomes(step.biomes, f"{at}.biomes"),
            "ingredients": [name(x, "item", f"{at}.ingredients.{j}") or x for j, x in enumerate(step.ingredients)]
            if step.ingredients else step.ingredients,
        })

    return plan.model_copy(update={"steps": [resolved(i, step) for i, step in enumerate(plan.steps)]})

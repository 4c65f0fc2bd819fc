"""Game knowledge: the reduced minecraft-data file plus the curated facts it lacks, in one typed object.

The knowledge file (``atoms/knowledge/minecraft-1.20.json``) is rebuilt by ``scripts/build_knowledge.py``; the
curated YAML files beside it (``atoms/knowledge/curated/``) each note their sources. Nothing here is typed in by
hand: this module only reads and interprets those files.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from taskverse.errors import TaskverseError, close_matches
from taskverse.knowledge.mechanisms import Mechanisms, load_mechanisms, names_used, unbreakable
from taskverse.paths import knowledge_dir
from taskverse.schema import Need
from taskverse.yamlio import Lines, read_yaml, validation_error


class _Curated(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class SmeltingRecipe(_Curated):
    """One furnace recipe: one input item gives ``count`` output items."""

    input: str
    output: str
    count: int = 1
    source: str | None = None


class Fuel(_Curated):
    """A furnace fuel and how many items one of it smelts."""

    item: str
    smelts: float
    source: str | None = None


class Drop(_Curated):
    """An item a mob or block gives: ``count`` (or a uniform ``count..max``) with probability ``chance``.

    ``condition: player_kill`` marks a mob drop the loot table gives only to a player's kill.
    """

    item: str
    count: int = Field(default=1, ge=0)
    max: int | None = Field(default=None, ge=1)
    chance: float = Field(default=1.0, gt=0, le=1)
    condition: str | None = Field(default=None, pattern="^player_kill$")

    @model_validator(mode="after")
    def _range(self) -> Drop:
        if self.max is None and self.count == 0:
            raise ValueError("a drop of 0 items needs a range (max)")
        if self.max is not None and self.max < self.count:
            raise ValueError(f"max ({self.max}) is below count ({self.count})")
        return self

    def as_loot(self) -> dict[str, Any]:
        """The drop in the knowledge file's loot form (``min``/``max``), marked as curated."""
        loot: dict[str, Any] = {"item": self.item, "chance": self.chance, "min": self.count,
                                "max": self.count if self.max is None else self.max, "corrected": True}
        if self.condition == "player_kill":
            loot["player_kill"] = True
        return loot


class Omitted(_Curated):
    """A loot-table drop a player's kill never gives, and why."""

    item: str
    reason: str


class EntityLoot(_Curated):
    """What a player's kill of one mob gives (replacing the package's flattened table), and what it never gives."""

    drops: list[Drop]
    omitted: list[Omitted] = Field(default_factory=list)
    source: str | None = None


class Brought(_Curated):
    """How a player brings about a mob that never spawns by itself: what it takes, and how many come how likely.

    An ender pearl thrown lands with an endermite one time in twenty; an evoker that sees a player summons vexes.
    """

    needs: list[Need] = Field(min_length=1)
    count: int = Field(default=1, ge=1, le=64)
    chance: float = Field(default=1.0, gt=0, le=1)
    source: str


class Mob(_Curated):
    """A mob with what minecraft-data lacks: how it behaves, its health, and where it spawns."""

    name: str
    disposition: str = Field(pattern="^(passive|neutral|hostile|boss)$")
    health: float
    dimensions: list[str]
    natural: bool = True
    player_made: bool = False
    """The player brings it into the world (builds, hatches, breeds it): it has a kill atom though not natural."""
    brought_by: Brought | None = None
    """What brings one about where the player is (``find.<mob>``'s way), for a mob that never spawns by itself."""
    biomes: list[str] | None = None
    extra_drops: list[Drop] = Field(default_factory=list)
    leaves: list[str] = Field(default_factory=list)
    """Blocks its death places in the world (the ender dragon's egg on the exit portal)."""
    found_via: list[str] = Field(default_factory=list)
    """Structures a player reaches before one appears (an evoker's woodland mansion; a raid's outpost and village)."""
    appears_after: int = Field(default=0, ge=0)
    """Expected game ticks a player waits there before one appears (a phantom: three days without sleep)."""
    spawn_share: float = Field(default=1.0, gt=0, le=1)
    """Its share of the spawn weights of its category where it spawns (a witch: 5 of the overworld monsters' 515),
    so one in that many spawns of the category is one of it: the nearest is that much further away."""
    finite: int | None = Field(default=None, ge=1)
    """How many a find can count on when they generate once with their structure and never respawn (a woodland
    mansion's evokers): killing uses one up, and more take another structure. None: they spawn again."""
    spent_by: list[str] = Field(default_factory=list)
    """Verbs whose actions use one of a finite mob up besides killing it (a wandering trader's offers are drawn
    once: a trade with it, for an offer it may not have, sees them, and another draw takes another trader)."""
    source: str | None = None


class Placed(_Curated):
    """How ``/place`` builds a structure at a position.

    ``/place structure ID``, or ``/place feature ID`` for a world feature; the first id is the one a command is
    written with, the others read as the same structure.
    """

    command: Literal["structure", "feature"]
    ids: list[str] = Field(min_length=1)


class Structure(_Curated):
    """A generated structure an agent can find."""

    name: str
    display: str
    dimension: str
    biomes: list[str] | None = None
    aliases: list[str] = Field(default_factory=list)
    spacing: int | None = None
    """Chunks between placement attempts (the structure set's ``random_spread`` grid); None: not a structure set."""
    frequency: float = 1.0
    """Chance an attempt places a structure of the set."""
    share: float = 1.0
    """This structure's share of its set's placements (its weight over the set's total)."""
    distance: tuple[int, int] | None = None
    """Blocks from the world's origin, for ring-placed structures (strongholds)."""
    located_with: str | None = None
    """An item a survival player uses up to locate it (an eye of ender for a stronghold), or None."""
    chests: int | None = Field(default=None, ge=1)
    """Loot chests one structure holds (a desert pyramid's four): looting uses one up, and more take another
    structure. Every structure whose chests ``structure_loot.yaml`` loots has one; None: no loot chests modelled."""
    chests_estimate: bool = False
    """``chests`` is a named estimate, the count a plan counts on where it varies with the layout (a mineshaft's
    chest minecarts grow with its size); the source says why."""
    placed: Placed | None = None
    """What ``/place`` builds it with (None: no command does, as for caves, which are carved)."""
    source: str | None = None

    @model_validator(mode="after")
    def _estimated_count(self) -> Structure:
        if self.chests_estimate and self.chests is None:
            raise ValueError("chests_estimate marks the chest count as an estimate, but chests gives none")
        return self


class ToolTier(_Curated):
    """A tool material: harvest level, mining speed multiplier, durability and its tools."""

    name: str
    level: int
    speed: float
    durability: int
    items: list[str]
    source: str | None = None


class NaturalBlock(_Curated):
    """A block the world generates, so an agent can find it."""

    name: str
    dimension: str
    where: str = Field(pattern="^(surface|underground|water|cave)$")
    biomes: list[str] | None = None
    y_range: tuple[int, int] | None = None
    source: str | None = None


class StructureBlock(_Curated):
    """A block the world generates only inside structures (``structure_blocks.yaml``): found by finding one."""

    name: str
    structures: list[str] = Field(min_length=1)
    source: str | None = None
    beside_templates: dict[str, str] | None = None
    """Structures of ``structures`` whose 1.20.1 templates (``structure_templates.json``) do not hold the block,
    each with why the structure places it anyway: a data marker its code fills (an ocean ruin's chest), a processor
    its code adds (a nether ruined portal's blackstone), or another form of the block."""
    uses: dict[str, int] | None = None
    """Items a player uses up in the structure before the block is there, by count: the end portal opens once the
    twelve frames of a stronghold's portal room each hold an eye of ender."""


class NeverGenerated(_Curated):
    """Blocks the world places nowhere, with the game's reason (``structure_blocks.yaml``: ``never_generated``)."""

    reason: str
    blocks: list[str] = Field(min_length=1)
    source: str | None = None


class Placement(_Curated):
    """An item that places a block of another name (seeds place crops), and what the block grows into."""

    item: str
    block: str
    placed_on: str | None = None
    grows: list[str] = Field(default_factory=list)
    source: str | None = None


class Hand(_Curated):
    """Bare hands as a weapon: damage per hit and hits a second."""

    damage: float = Field(gt=0)
    speed: float = Field(gt=0)


class Healing(_Curated):
    """Food eaten mid-fight: which items, the health each regenerates, the seconds it takes, at most how many."""

    items: list[str] = Field(min_length=1)
    health: float = Field(gt=0)
    seconds: float = Field(ge=0)
    most: int = Field(ge=0)
    source: str | None = None


class Player(_Curated):
    """The survival player's side of a fight."""

    health: float = Field(gt=0)
    max_hits_per_second: float = Field(gt=0)
    hand: Hand
    healing: Healing


class WeaponTier(_Curated):
    """Weapons of one tier: their items, damage per hit and attack speed (hits a second)."""

    tier: str
    items: list[str] = Field(min_length=1)
    damage: float = Field(gt=0)
    speed: float = Field(gt=0)


class ArmourTier(_Curated):
    """A full armour set (``<tier>_helmet``, ``_chestplate``, ``_leggings``, ``_boots``): points and toughness."""

    tier: str
    points: float = Field(ge=0, le=30)
    toughness: float = Field(ge=0)


class MobAttack(_Curated):
    """How hard and how often a mob attacks a player (Normal difficulty).

    ``estimate`` marks a figure the game does not fix (the note says what stands in).
    """

    damage: float = Field(gt=0)
    interval: float = Field(gt=0)
    estimate: bool = False
    note: str | None = None


class CombatTable(_Curated):
    """The numbers a fight is decided by (``curated/combat.yaml``)."""

    source: str
    player: Player
    weapons: list[WeaponTier]
    armour: list[ArmourTier]
    mobs: dict[str, MobAttack]


@dataclass(frozen=True)
class Ingredient:
    """``count`` of any of ``items`` (Minecraft's item tags, e.g. any planks)."""

    items: tuple[str, ...]
    count: int


@dataclass(frozen=True)
class CraftWay:
    """One way to craft an item: ingredients (all needed), output count, and whether it needs a crafting table."""

    ingredients: tuple[Ingredient, ...]
    count: int
    needs_table: bool


@dataclass
class Knowledge:
    """Everything the task generator and the dependency graphs know about the game."""

    source: dict[str, str]
    items: dict[str, dict[str, Any]]
    blocks: dict[str, dict[str, Any]]
    raw_recipes: dict[str, list[dict[str, Any]]]
    foods: dict[str, dict[str, Any]]
    biomes: dict[str, dict[str, Any]]
    entities: dict[str, dict[str, Any]]
    entity_loot: dict[str, list[dict[str, Any]]]
    smelting: list[SmeltingRecipe]
    fuels: list[Fuel]
    mobs: dict[str, Mob]
    structures: dict[str, Structure]
    tool_tiers: list[ToolTier]
    natural_blocks: dict[str, NaturalBlock]
    tags: dict[str, list[str]]
    structure_blocks: dict[str, StructureBlock] = field(default_factory=dict)
    """Blocks generated only inside structures, by name (``curated/structure_blocks.yaml``)."""
    never_generated: dict[str, str] = field(default_factory=dict)
    """Why the world generates a block nowhere, by name (``structure_blocks.yaml``: ``never_generated``)."""
    placements: list[Placement] = field(default_factory=list)
    loot_tables: dict[str, EntityLoot] = field(default_factory=dict)
    combat: CombatTable | None = None
    unobtainable: dict[str, str] = field(default_factory=dict)
    """Why no atom gives a thing, by name (``curated/unobtainable.yaml``)."""
    never_used: dict[str, str] = field(default_factory=dict)
    """Why the game counts no use of an item, by name (``curated/item_use.yaml``)."""
    """The curated mob loot tables (``entity_loot`` already holds their drops), with what they leave out."""
    shears: dict[str, list[str]] = field(default_factory=dict)
    hand_speed: float = 1.0
    sword_block_wear: int = 1
    """Durability a sword loses breaking a block (``tool_tiers.yaml``: 2, where a tool loses 1)."""
    mechanisms: Mechanisms | None = None
    """The game's mechanisms beyond recipes and drops (``knowledge.mechanisms``)."""
    enchantments: dict[str, dict[str, Any]] = field(default_factory=dict)
    """minecraft-data's enchantments: weights and power ranges (``knowledge.enchanting``)."""
    craft_ways: dict[str, list[CraftWay]] = field(default_factory=dict)
    enchanted: dict[str, str] = field(default_factory=dict)
    """The enchanted tools of the text world (``silk_touch_diamond_pickaxe``), each with the tool it is made of."""
    item_names: dict[str, Any] = field(init=False, default_factory=dict)
    """Every item name: the game's, the enchanted tools' and the library's own (potions by name)."""

    def __post_init__(self) -> None:
        self.craft_ways = {result: collapse_recipes(variants) for result, variants in self.raw_recipes.items()}
        if self.mechanisms is not None:
            self.enchanted = self.mechanisms.enchanted_items
            # A derived item tag: the enchanted tools (``silk_touch_tools``), for goals done with any of them.
            self.tags = {**self.tags, self.mechanisms.enchanting.prefix + "tools": sorted(self.enchanted)}
            for recipe in self.mechanisms.special_recipes.recipes:  # the recipes minecraft-data leaves out
                ingredients = tuple(Ingredient(tuple(sorted(ing.items or self.tags.get(ing.tag or "", []))), ing.count)
                                    for ing in recipe.ingredients)
                table = sum(i.count for i in ingredients) > 4
                self.craft_ways.setdefault(recipe.result, []).append(CraftWay(ingredients, recipe.count, table))
        own = self.mechanisms.library_items if self.mechanisms is not None else []
        self.item_names = {**self.items, **dict.fromkeys(self.enchanted, {}), **dict.fromkeys(own, {})}

    def why_not_found(self, name: str) -> str | None:
        """Why no agent finds block ``name`` in a 1.20 world (it is never generated), or None.

        Example:
            >>> from taskverse.library.loader import load_library
            >>> load_library().knowledge.why_not_found("yellow_concrete_powder")
            'the 1.20 world never generates yellow_concrete_powder: a player places it'

        """
        reason = self.never_generated.get(name)
        return f"the 1.20 world never generates {name}: {reason}" if reason is not None else None

    def sheared(self, block: str) -> dict[str, int]:
        """What shears collect from a block, by item with its count (two grass from a tall grass)."""
        items = self.shears.get(block, [])
        return {item: items.count(item) for item in items}

    def why_not_broken(self, name: str) -> str | None:
        """Why no survival player breaks ``name`` (bedrock, water, air), or None if one can (``breaking.yaml``)."""
        block = self.blocks.get(name)
        if self.mechanisms is None:
            return "unbreakable in survival (hardness -1)" if block is not None and unbreakable(block) else None
        return self.mechanisms.breaking.why_not_broken(name, block)

    def base_item(self, item: str) -> str:
        """The item an enchanted tool is made of (the item itself otherwise)."""
        return self.enchanted.get(item, item)

    def tool_tier_of(self, item: str) -> ToolTier | None:
        """The tier a tool item (or an enchanted one) belongs to, if any."""
        item = self.base_item(item)
        for tier in self.tool_tiers:
            if item in tier.items:
                return tier
        return None

    def knows(self, name: str, kind: str) -> bool:
        """Whether ``name`` is a known ``kind`` (item, block, ...); a ``#tag`` is known when the tag is."""
        return name[1:] in self.tags if name.startswith("#") else name in self.names(kind)

    def check_name(self, name: str, kind: str) -> None:
        """Raise a TaskverseError with close matches if ``name`` is not a known ``kind`` (item, block, ...)."""
        if self.knows(name, kind):
            return
        table = self.names(kind)
        if name.startswith("#"):
            suggestions = ["#" + s for s in close_matches(name[1:], self.tags)]
            raise TaskverseError(f"unknown tag {name!r}", suggestions=suggestions)
        if name not in table:
            raise TaskverseError(f"unknown {kind} {name!r}", suggestions=close_matches(name, table))

    def names(self, kind: str) -> dict[str, Any] | set[str]:
        """The known names of one kind of thing."""
        tables: dict[str, dict[str, Any] | set[str]] = {
            "item": self.item_names,
            "block": self.blocks,
            "entity": self.entities,
            "biome": self.biomes,
            "structure": self.structures,
            "dimension": {"overworld", "nether", "end"},
        }
        return tables[kind]


def _cell_signature(variant: dict[str, Any]) -> tuple[Any, ...]:
    if "shape" in variant:
        return ("shaped", tuple(tuple(cell is None for cell in row) for row in variant["shape"]))
    return ("shapeless", len(variant["ingredients"]))


def _needs_table(variant: dict[str, Any]) -> bool:
    if "shape" in variant:
        return len(variant["shape"]) > 2 or any(len(row) > 2 for row in variant["shape"])
    return len(variant["ingredients"]) > 4


def _ingredients_from_columns(columns: list[tuple[str, ...]]) -> tuple[Ingredient, ...]:
    """Cells whose items vary together across variants form one ingredient (any of their items)."""
    classes: Counter[tuple[str, ...]] = Counter(columns)
    ingredients = [Ingredient(tuple(sorted(set(col))), n) for col, n in classes.items()]
    merged: dict[tuple[str, ...], int] = defaultdict(int)
    for ing in ingredients:
        merged[ing.items] += ing.count
    return tuple(sorted((Ingredient(items, n) for items, n in merged.items()), key=lambda i: i.items))


def collapse_recipes(variants: list[dict[str, Any]]) -> list[CraftWay]:
    """Turn minecraft-data's expanded recipe variants back into tag-style ways.

    minecraft-data lists one recipe per concrete item where the game uses a tag (a bed from each of 11 planks).
    Variants with the same grid layout and the same output count are merged: cells whose items vary together
    become one ingredient that accepts any of those items, which is the game's own tag semantics. Variants that
    give different counts stay separate ways, each with its own count (two planks make four sticks, two bamboo
    one stick).
    """
    groups: dict[tuple[Any, ...], list[dict[str, Any]]] = defaultdict(list)
    for variant in variants:
        groups[(*_cell_signature(variant), variant["count"])].append(variant)
    ways: list[CraftWay] = []
    for signature, group in sorted(groups.items(), key=lambda kv: repr(kv[0])):
        count = group[0]["count"]
        table = _needs_table(group[0])
        if signature[0] == "shaped":
            cells = [[c for row in v["shape"] for c in row if c is not None] for v in group]
            columns = [tuple(v[i] for v in cells) for i in range(len(cells[0]))]
            ways.append(CraftWay(_ingredients_from_columns(columns), count, table))
            continue
        common = Counter(group[0]["ingredients"])
        for v in group[1:]:
            common &= Counter(v["ingredients"])
        residuals = [sorted((Counter(v["ingredients"]) - common).elements()) for v in group]
        fixed = [Ingredient((item,), n) for item, n in sorted(common.items())]
        if all(len(set(r)) <= 1 for r in residuals) and len({len(r) for r in residuals}) == 1 and residuals[0]:
            varying = Ingredient(tuple(sorted({r[0] for r in residuals})), len(residuals[0]))
            ways.append(CraftWay(tuple(sorted([*fixed, varying], key=lambda i: i.items)), count, table))
        elif not residuals[0]:
            ways.append(CraftWay(tuple(fixed), count, table))
        else:  # variants that differ in more than one way stay separate ways
            for v in group:
                counted = Counter(v["ingredients"])
                ways.append(
                    CraftWay(tuple(Ingredient((i,), n) for i, n in sorted(counted.items())), v["count"], table)
                )
    return ways


def _load_curated(path: Path, key: str, model: type[_Curated]) -> tuple[list[Any], dict[str, Any]]:
    data = read_yaml(path)
    if not isinstance(data, dict) or key not in data:
        raise TaskverseError(f"expected a mapping with a '{key}' list", file=path, line=1)
    out = []
    for index, entry in enumerate(data[key]):
        try:
            out.append(model.model_validate(entry))
        except ValidationError as exc:
            raise validation_error(exc, path, path.read_text(), (key, index)) from None
    return out, data


def _check_names(kn: Knowledge, curated: Path) -> None:
    """Every name a curated file uses must exist in the game data (a typo would silently drop a fact)."""
    checks: list[tuple[str, str, str]] = []
    checks += [("smelting.yaml", r.input, "item") for r in kn.smelting]
    checks += [("smelting.yaml", r.output, "item") for r in kn.smelting]
    checks += [("fuels.yaml", f.item, "item") for f in kn.fuels]
    checks += [("mobs.yaml", m.name, "entity") for m in kn.mobs.values()]
    checks += [("mobs.yaml", d.item, "item") for m in kn.mobs.values() for d in m.extra_drops]
    checks += [("mobs.yaml", b, "biome") for m in kn.mobs.values() for b in m.biomes or []]
    checks += [("structures.yaml", b, "biome") for s in kn.structures.values() for b in s.biomes or []]
    checks += [("tool_tiers.yaml", i, "item") for t in kn.tool_tiers for i in t.items]
    checks += [("natural_blocks.yaml", b.name, "block") for b in kn.natural_blocks.values()]
    checks += [("natural_blocks.yaml", x, "biome") for b in kn.natural_blocks.values() for x in b.biomes or []]
    checks += [("placements.yaml", p.item, "item") for p in kn.placements]
    checks += [("structure_blocks.yaml", b, "block") for b in [*kn.structure_blocks, *kn.never_generated]]
    checks += [("entity_loot.yaml", d.item, "item") for t in kn.loot_tables.values() for d in t.drops]
    checks += [("unobtainable.yaml", n, "item" if n in kn.items else "block") for n in kn.unobtainable]
    checks += [("item_use.yaml", n, "item") for n in kn.never_used]
    if kn.combat is not None:
        table = kn.combat
        checks += [("combat.yaml", m, "entity") for m in table.mobs]
        checks += [("combat.yaml", i, "item") for w in table.weapons for i in w.items]
        checks += [("combat.yaml", i, "item") for i in table.player.healing.items]
        checks += [("combat.yaml", f"{a.tier}_{piece}", "item") for a in table.armour
                   for piece in ("helmet", "chestplate", "leggings", "boots")]
    checks += [("loot_corrections.yaml", d["item"], "item") for b in kn.blocks.values() for d in b["drops"]
               if d.get("corrected")]
    checks += [("entity_loot.yaml", o.item, "item") for t in kn.loot_tables.values() for o in t.omitted]
    checks += [("placements.yaml", b, "block") for p in kn.placements
               for b in [p.block, *p.grows, *([p.placed_on] if p.placed_on else [])]]
    checks += [("mobs.yaml", b, "block") for m in kn.mobs.values() for b in m.leaves]
    checks += [("mobs.yaml", s, "structure") for m in kn.mobs.values() for s in m.found_via]
    checks += [("mobs.yaml", name, n.kind.value) for m in kn.mobs.values() if m.brought_by
               for n in m.brought_by.needs for name in n.any_of]
    if kn.mechanisms is not None:
        checks += names_used(kn.mechanisms)
    for file, name, kind in checks:
        try:
            kn.check_name(name, kind)
        except TaskverseError as exc:
            path = curated / file
            raise TaskverseError(
                exc.message, file=path, line=_find_line(path, name), suggestions=exc.suggestions
            ) from None


def _find_line(path: Path, name: str) -> int | None:
    for number, text in enumerate(path.read_text().splitlines(), start=1):
        if name in text:
            return number
    return None


class LootCorrection(_Curated):
    """The real drops of a block whose loot table minecraft-data flattens, and what shears collect from it."""

    drops: list[Drop]
    shears: list[str] = Field(default_factory=list)
    tools: list[str] | None = None
    """The tools the drops need, when the package's harvest tools are wrong (a cobweb gives string to a sword)."""


def _apply_loot_corrections(blocks: dict[str, Any], path: Path) -> tuple[dict[str, Any], dict[str, list[str]]]:
    """Replace flattened loot tables with the game's real chances (each correction sourced in the file)."""
    data = read_yaml(path) or {}
    corrected = dict(blocks)
    shears: dict[str, list[str]] = {}
    for block, entry in (data.get("blocks") or {}).items():
        if block not in blocks:
            raise TaskverseError(f"unknown block {block!r}", file=path, line=_find_line(path, block),
                                 suggestions=close_matches(block, blocks))
        try:
            correction = LootCorrection.model_validate(entry)
        except ValidationError as exc:
            raise TaskverseError(exc.errors()[0]["msg"], file=path, line=_find_line(path, block),
                                 field=f"blocks.{block}") from None
        # The Silk Touch drops stay: the correction is of what the block gives without it. With Silk Touch the
        # block drops itself for sure (the package's 0.5 is its half of a silk/no-silk pair).
        silk = [{**d, "chance": 1.0} for d in blocks[block]["drops"] if d.get("silk_touch")]
        corrected[block] = {**blocks[block], "drops": [d.as_loot() for d in correction.drops] + silk}
        if correction.tools is not None:
            corrected[block]["harvest_tools"] = sorted(correction.tools)
        if correction.shears:
            shears[block] = correction.shears
    return corrected, shears


def _apply_entity_loot(loot: dict[str, list[dict[str, Any]]], entities: dict[str, Any],
                       path: Path) -> tuple[dict[str, list[dict[str, Any]]], dict[str, EntityLoot]]:
    """Replace the package's flattened mob loot with the curated tables (each sourced in the file)."""
    data = read_yaml(path) or {}
    corrected = dict(loot)
    curated: dict[str, EntityLoot] = {}
    for mob, entry in (data.get("mobs") or {}).items():
        if mob not in entities:
            raise TaskverseError(f"unknown entity {mob!r}", file=path, line=_find_line(path, mob),
                                 suggestions=close_matches(mob, entities))
        try:
            table = EntityLoot.model_validate(entry)
        except ValidationError as exc:
            raise TaskverseError(exc.errors()[0]["msg"], file=path, line=_find_line(path, f"{mob}:"),
                                 field=f"mobs.{mob}") from None
        curated[mob] = table
        corrected[mob] = [d.as_loot() for d in table.drops]
    return corrected, curated


class UnobtainableGroup(_Curated):
    """Things no atom gives, and why (not obtainable in survival, or a mechanism not modelled yet)."""

    reason: str
    names: list[str] = Field(min_length=1)
    source: str | None = None


def _load_unobtainable(path: Path) -> dict[str, str]:
    groups, _ = _load_curated(path, "groups", UnobtainableGroup)
    return {name: group.reason for group in groups for name in group.names}


def _load_combat(path: Path) -> CombatTable:
    text = path.read_text()
    try:
        return CombatTable.model_validate(read_yaml(path))
    except ValidationError as exc:
        raise validation_error(exc, path, text, ()) from None


_LOADED: dict[Path, Knowledge] = {}


def prime_knowledge(kn: Knowledge, directory: Path | None = None) -> None:
    """Hand an already loaded (for instance unpickled) Knowledge to later ``load_knowledge`` calls."""
    _LOADED.setdefault(directory or knowledge_dir(), kn)


def load_knowledge(directory: Path | None = None) -> Knowledge:
    """Load the knowledge file and the curated facts (once per directory and process)."""
    directory = directory or knowledge_dir()
    if directory not in _LOADED:
        _LOADED[directory] = _load_knowledge(directory)
    return _LOADED[directory]


def _load_knowledge(directory: Path) -> Knowledge:
    files = sorted(directory.glob("minecraft-*.json"))
    if not files:
        raise TaskverseError("no knowledge file minecraft-*.json (run scripts/build_knowledge.py)", file=directory)
    raw = json.loads(files[-1].read_text())
    curated = directory / "curated"
    smelting, _ = _load_curated(curated / "smelting.yaml", "recipes", SmeltingRecipe)
    fuels, _ = _load_curated(curated / "fuels.yaml", "fuels", Fuel)
    mobs, _ = _load_curated(curated / "mobs.yaml", "mobs", Mob)
    structures, _ = _load_curated(curated / "structures.yaml", "structures", Structure)
    tiers, tier_data = _load_curated(curated / "tool_tiers.yaml", "tiers", ToolTier)
    natural, _ = _load_curated(curated / "natural_blocks.yaml", "blocks", NaturalBlock)
    in_structures, _ = _load_curated(curated / "structure_blocks.yaml", "blocks", StructureBlock)
    never, _ = _load_curated(curated / "structure_blocks.yaml", "never_generated", NeverGenerated)
    placements, _ = _load_curated(curated / "placements.yaml", "placements", Placement)
    blocks, shears = _apply_loot_corrections(raw["blocks"], curated / "loot_corrections.yaml")
    entity_loot, loot_tables = _apply_entity_loot(raw["entity_loot"], raw["entities"], curated / "entity_loot.yaml")
    combat = _load_combat(curated / "combat.yaml")
    unobtainable = _load_unobtainable(curated / "unobtainable.yaml")
    never_used = _load_unobtainable(curated / "item_use.yaml")  # the same shape: groups of names with a reason
    tags_data = read_yaml(curated / "tags.yaml")
    tags = {str(k): sorted(str(m) for m in v) for k, v in (tags_data.get("tags") or {}).items()}
    mechanisms = load_mechanisms(curated)
    kn = Knowledge(
        source=raw["source"],
        items=raw["items"],
        blocks=blocks,
        raw_recipes=raw["recipes"],
        foods=raw["foods"],
        biomes=raw["biomes"],
        entities=raw["entities"],
        entity_loot=entity_loot,
        loot_tables=loot_tables,
        combat=combat,
        unobtainable=unobtainable,
        never_used=never_used,
        smelting=smelting,
        fuels=fuels,
        mobs={m.name: m for m in mobs},
        structures={s.name: s for s in structures},
        tool_tiers=sorted(tiers, key=lambda t: (t.level, t.name)),
        natural_blocks={b.name: b for b in natural},
        structure_blocks={b.name: b for b in in_structures},
        never_generated={name: group.reason for group in never for name in group.blocks},
        tags=tags,
        placements=placements,
        shears=shears,
        hand_speed=float(tier_data.get("hand_speed", 1.0)),
        sword_block_wear=int(tier_data.get("sword_block_wear", 1)),
        mechanisms=mechanisms,
        enchantments=raw.get("enchantments", {}),
    )
    _check_names(kn, curated)
    _check_chests(kn, curated / "structures.yaml")
    _check_generated(kn, curated / "structure_blocks.yaml", [name for group in never for name in group.blocks])
    return kn


def _check_chests(kn: Knowledge, path: Path) -> None:
    """Every structure whose chests are looted (``structure_loot.yaml``) says how many one holds.

    Looting uses a chest up, so a structure without a count would give a plan endless chests from one find.
    """
    if kn.mechanisms is None:
        return
    looted = {t.structure: t.table for t in kn.mechanisms.structure_loot.tables
              if t.verb == "loot" and t.chest is None}  # a further kind gives its own count
    for index, (name, structure) in enumerate(kn.structures.items()):  # the file's order
        if name in looted and structure.chests is None:
            raise TaskverseError(
                f"{name}'s chests are looted ({looted[name]} in structure_loot.yaml) but it has no chest count: give "
                "how many one holds (chests; with chests_estimate: true and the reason in its source where it varies)",
                file=path, line=Lines(path.read_text()).of(("structures", index)),
                field=f"structures.{index}.chests")


def _check_generated(kn: Knowledge, path: Path, never: list[str]) -> None:
    """A block is natural, held by structures, or never generated: at most one of the three, and real structures.

    ``never``: the never-generated names as the file lists them (a name listed twice is an error).
    """
    seen: set[str] = set()
    for name in [*kn.structure_blocks, *never]:
        if name in kn.natural_blocks or name in seen:
            where = "natural_blocks.yaml" if name in kn.natural_blocks else "this file"
            raise TaskverseError(f"{name} is listed twice (also in {where}): a block is found in one way",
                                 file=path, line=_find_line(path, name))
        seen.add(name)
    for block in kn.structure_blocks.values():
        for structure in block.structures:
            if structure not in kn.structures:
                raise TaskverseError(f"{block.name}: unknown structure {structure!r}", file=path,
                                     line=_find_line(path, block.name),
                                     suggestions=close_matches(structure, kn.structures))

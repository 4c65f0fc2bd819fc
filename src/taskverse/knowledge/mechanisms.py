"""The game's mechanisms beyond recipes and drops, as curated tables (``atoms/knowledge/curated/``).

Each table declares one mechanism of Minecraft Java Edition 1.20 with its source: stripping logs, Silk Touch from an
enchanting table, blocks that change into others (copper weathering, concrete hardening, coral dying, anvils
wearing), what structures hold (chest loot, archaeology), villager trades, drops of mobs killed by other mobs,
special crafting recipes, smithing upgrades, blocks placed in another form (on a wall, into a cauldron), and what
raising animals gives. The atom generator (``taskverse.library.mechanisms``) interprets them, one rule per verb.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from taskverse.errors import TaskverseError
from taskverse.schema import Goal, Need, Weather, Yield
from taskverse.yamlio import read_yaml, validation_error

Ticks = float
"""Game ticks (20 a second)."""


class _Table(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# -- stripping ------------------------------------------------------------------------------------------------

class StrippedPair(_Table):
    """A log (or wood, stem, hyphae, bamboo block) and what an axe strips it into."""

    log: str
    stripped: str


class Stripping(_Table):
    """``stripping.yaml``: the pairs, and the item tag of the tools that strip."""

    source: str
    tools: str
    pairs: list[StrippedPair] = Field(min_length=1)


# -- Silk Touch -----------------------------------------------------------------------------------------------

class EnchantableTool(_Table):
    """A tool the library enchants, with its enchantability (Minecraft Wiki, Enchanting mechanics)."""

    item: str
    enchantability: int = Field(gt=0)


class Enchanting(_Table):
    """``enchanting.yaml``: one enchantment got from a table at a level, for some tools."""

    source: str
    enchantment: str
    prefix: str = Field(pattern=r"^[a-z_]+_$")
    level: int = Field(ge=1, le=30)
    station: str
    bookshelves: int = Field(ge=0, le=15)
    lapis: int = Field(ge=1, le=3)
    reset: str
    categories: list[str] = Field(min_length=1)
    tools: list[EnchantableTool] = Field(min_length=1)

    def enchanted(self, tool: str) -> str:
        """The text world's name of ``tool`` with the enchantment (``silk_touch_diamond_pickaxe``)."""
        return self.prefix + tool


# -- blocks that change -----------------------------------------------------------------------------------------

class Change(_Table):
    """A block and the block it changes into; ``modifier`` scales the group's chance per random tick.

    ``item``: the item placed as the block, in a group whose blocks the player places (a coral fan item becomes a
    wall fan on a wall); the block's own name by default.
    """

    block: str
    becomes: str
    modifier: float = Field(default=1.0, gt=0, le=1)
    item: str | None = None


class ChangeGroup(_Table):
    """Changes of one kind (one verb): what they also need, how long they take, how likely a use makes them."""

    verb: str = Field(pattern=r"^[a-z_]+$")
    description: str = Field(min_length=1)
    placed: bool = False
    """The change needs the block placed from its item (coral dies only where the player puts it out of water)."""
    needs: list[Need] = Field(default_factory=list)
    ticks: Ticks | None = Field(default=None, ge=0)
    random_tick_chance: float | None = Field(default=None, gt=0, le=1)
    chance: float = Field(default=1.0, gt=0, le=1)
    source: str
    changes: list[Change] = Field(min_length=1)

    @model_validator(mode="after")
    def _one_clock(self) -> ChangeGroup:
        if (self.ticks is None) == (self.random_tick_chance is None):
            raise ValueError("give exactly one of ticks and random_tick_chance")
        for key in ("{block}", "{becomes}"):
            if key not in self.description:
                raise ValueError(f"the description template lacks {key}")
        return self


class Transformations(_Table):
    """``transformations.yaml``: the groups, and how often a block gets a random tick."""

    source: str
    random_tick_interval: Ticks = Field(gt=0)
    groups: list[ChangeGroup] = Field(min_length=1)

    def ticks_of(self, group: ChangeGroup, change: Change) -> Ticks:
        """Game ticks a change takes on average."""
        if group.random_tick_chance is None:
            return float(group.ticks or 0.0)
        return self.random_tick_interval / (group.random_tick_chance * change.modifier)


# -- structure loot ---------------------------------------------------------------------------------------------

class LootEntry(_Table):
    """An entry of a loot pool: its weight, and ``count..max`` items when it is drawn."""

    item: str
    weight: int = Field(gt=0)
    count: int = Field(default=1, ge=1)
    max: int | None = Field(default=None, ge=1)


class LootPool(_Table):
    """A loot pool: uniform ``rolls``, the pool's total weight (empty entries included), the entries listed."""

    rolls: tuple[int, int]
    total_weight: int = Field(gt=0)
    entries: list[LootEntry] = Field(min_length=1)

    @model_validator(mode="after")
    def _consistent(self) -> LootPool:
        if not 0 <= self.rolls[0] <= self.rolls[1]:
            raise ValueError(f"rolls {list(self.rolls)} is not a range min..max")
        if sum(e.weight for e in self.entries) > self.total_weight:
            raise ValueError("the entries weigh more than the pool's total weight")
        if any(self.chance(e) > 1 for e in self.entries):
            raise ValueError("an entry is drawn more than once per chest on average: its chance would exceed one")
        return self

    def chance(self, entry: LootEntry) -> float:
        """How many times a chest draws the entry on average (its yield's chance)."""
        return round((self.rolls[0] + self.rolls[1]) / 2 * entry.weight / self.total_weight, 6)


class HeldItem(_Table):
    """An item a structure holds outside its chests, with the share of structures that hold it."""

    item: str
    chance: float = Field(gt=0, le=1)
    estimate: bool = False
    note: str | None = None


class StructureLoot(_Table):
    """What looting (a chest) or brushing (a suspicious block) one structure gives."""

    structure: str
    verb: Literal["loot", "brush"] = "loot"
    block: str | None = None
    table: str
    needs: list[Need] = Field(default_factory=list)
    pools: list[LootPool] = Field(min_length=1)
    held: list[HeldItem] = Field(default_factory=list)
    note: str | None = None

    @model_validator(mode="after")
    def _brushed_block(self) -> StructureLoot:
        if (self.verb == "brush") != (self.block is not None):
            raise ValueError("a brush entry names the suspicious block it brushes (block), a loot entry does not")
        return self


class StructureLootTables(_Table):
    """``structure_loot.yaml``."""

    source: str
    tables: list[StructureLoot] = Field(min_length=1)


# -- trades -----------------------------------------------------------------------------------------------------

class Trade(_Table):
    """An item a villager sells for emeralds, at a level of its profession."""

    item: str
    emeralds: int = Field(ge=1, le=64)
    level: Literal["novice", "apprentice", "journeyman", "expert", "master"]


class Profession(_Table):
    """A villager profession, the block that gives a villager it, and the trades the library needs."""

    profession: str
    job_site: str
    trades: list[Trade] = Field(min_length=1)


class Trading(_Table):
    """``trades.yaml``."""

    source: str
    professions: list[Profession] = Field(min_length=1)


# -- mobs killed by mobs ----------------------------------------------------------------------------------------

class Kill(_Table):
    """A victim (any of ``victim``), the item it drops to the killer, and what this kill needs besides."""

    victim: list[str] = Field(min_length=1)
    drop: str
    needs: list[Need] = Field(default_factory=list)
    ticks: Ticks = Field(default=0.0, ge=0)


class Killer(_Table):
    """A mob whose kills drop what a player's do not, what bringing it about needs, and its kills."""

    killer: str
    description: str
    needs: list[Need] = Field(default_factory=list)
    weather: Weather | None = None
    source: str
    kills: list[Kill] = Field(min_length=1)

    @model_validator(mode="after")
    def _template(self) -> Killer:
        if "{victim}" not in self.description:
            raise ValueError("the description template lacks {victim}")
        return self


class MobKills(_Table):
    """``mob_kills.yaml``."""

    source: str
    killers: list[Killer] = Field(min_length=1)


# -- special recipes, smithing ---------------------------------------------------------------------------------

class SpecialIngredient(_Table):
    """``count`` of any of ``items``, or of the items of the item tag ``tag``."""

    items: list[str] = Field(default_factory=list)
    tag: str | None = None
    count: int = Field(default=1, ge=1, le=9)

    @model_validator(mode="after")
    def _one_source(self) -> SpecialIngredient:
        if bool(self.items) == (self.tag is not None):
            raise ValueError("give exactly one of items and tag")
        return self


class SpecialRecipe(_Table):
    """A crafting recipe the game defines in code."""

    result: str
    count: int = Field(default=1, ge=1, le=64)
    ingredients: list[SpecialIngredient] = Field(min_length=1)


class SpecialRecipes(_Table):
    """``special_recipes.yaml``."""

    source: str
    recipes: list[SpecialRecipe] = Field(min_length=1)


class Upgrade(_Table):
    """A smithing upgrade: the base item and what it becomes."""

    base: str
    result: str


class Smithing(_Table):
    """``smithing.yaml``: the station, the template and addition every upgrade uses up, and the upgrades."""

    source: str
    station: str
    template: str
    addition: str
    upgrades: list[Upgrade] = Field(min_length=1)


# -- block variants, husbandry ----------------------------------------------------------------------------------

class BlockVariant(_Table):
    """A block an item places in another form: on a wall or the ground, or into a block it is used on."""

    block: str
    item: str
    against: Literal["wall", "ground"] | None = None
    into: str | None = None
    returns: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _where(self) -> BlockVariant:
        if (self.against is None) == (self.into is None):
            raise ValueError("give exactly one of against (wall, ground) and into (a block)")
        return self


class BlockVariants(_Table):
    """``block_variants.yaml``."""

    source: str
    variants: list[BlockVariant] = Field(min_length=1)


class Tending(_Table):
    """Something raising animals gives: its needs, yields, success event and how long it takes."""

    name: str = Field(pattern=r"^[a-z0-9_]+$")
    description: str
    needs: list[Need] = Field(min_length=1)
    yields: list[Yield] = Field(min_length=1)
    goal: Goal
    ticks: Ticks = Field(ge=0)
    source: str


class Husbandry(_Table):
    """``husbandry.yaml``."""

    source: str
    tending: list[Tending] = Field(min_length=1)


# -- loading ----------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Mechanisms:
    """Every mechanism table, loaded and validated."""

    stripping: Stripping
    enchanting: Enchanting
    transformations: Transformations
    structure_loot: StructureLootTables
    trading: Trading
    mob_kills: MobKills
    special_recipes: SpecialRecipes
    smithing: Smithing
    block_variants: BlockVariants
    husbandry: Husbandry

    def waits(self) -> dict[str, tuple[Ticks, Weather | None]]:
        """Per atom id, the game ticks its action waits for on average and the weather it waits for, if any.

        The ids are those ``taskverse.library.mechanisms`` gives: ``<verb>.<new block>`` for a block change,
        ``lure.<drop>``, ``tend.<name>``.
        """
        out: dict[str, tuple[Ticks, Weather | None]] = {}
        table = self.transformations
        for group in table.groups:
            out.update({f"{group.verb}.{c.becomes}": (table.ticks_of(group, c), None) for c in group.changes})
        for killer in self.mob_kills.killers:
            out.update({f"lure.{k.drop}": (k.ticks, killer.weather) for k in killer.kills})
        out.update({f"tend.{t.name}": (t.ticks, None) for t in self.husbandry.tending})
        return out

    @property
    def enchanted_items(self) -> dict[str, str]:
        """The enchanted tools of the text world, each with the tool it is made from."""
        return {self.enchanting.enchanted(t.item): t.item for t in self.enchanting.tools}


FILES: dict[str, tuple[str, type[_Table]]] = {
    "stripping": ("stripping.yaml", Stripping),
    "enchanting": ("enchanting.yaml", Enchanting),
    "transformations": ("transformations.yaml", Transformations),
    "structure_loot": ("structure_loot.yaml", StructureLootTables),
    "trading": ("trades.yaml", Trading),
    "mob_kills": ("mob_kills.yaml", MobKills),
    "special_recipes": ("special_recipes.yaml", SpecialRecipes),
    "smithing": ("smithing.yaml", Smithing),
    "block_variants": ("block_variants.yaml", BlockVariants),
    "husbandry": ("husbandry.yaml", Husbandry),
}
"""Field of ``Mechanisms``: (file under ``curated/``, model)."""


def _load_table(path: Path, model: type[_Table]) -> Any:
    data = read_yaml(path)
    if not isinstance(data, dict):
        raise TaskverseError("expected a mapping", file=path, line=1)
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise validation_error(exc, path, path.read_text(), ()) from None


def load_mechanisms(curated: Path) -> Mechanisms:
    """Load every mechanism table from the curated directory (a bad entry names its file, line and field)."""
    return Mechanisms(**{field: _load_table(curated / file, model) for field, (file, model) in FILES.items()})


def names_used(mech: Mechanisms) -> list[tuple[str, str, str]]:
    """(file, name, kind) for every game name the tables use, for the knowledge's name check."""
    out: list[tuple[str, str, str]] = []

    def need_names(file: str, needs: list[Need]) -> None:
        out.extend((file, m, n.kind.value) for n in needs for m in n.any_of)

    out += [("stripping.yaml", name, kind) for p in mech.stripping.pairs
            for name, kind in ((p.log, "item"), (p.stripped, "item"))]
    ench = mech.enchanting
    out += [("enchanting.yaml", name, "item") for name in (ench.station, ench.reset, "bookshelf", "lapis_lazuli")]
    out += [("enchanting.yaml", t.item, "item") for t in ench.tools]
    for group in mech.transformations.groups:
        need_names("transformations.yaml", group.needs)
        out += [("transformations.yaml", name, "block") for c in group.changes for name in (c.block, c.becomes)]
        out += [("transformations.yaml", c.item or c.block, "item") for c in group.changes if group.placed]
    for loot in mech.structure_loot.tables:
        need_names("structure_loot.yaml", loot.needs)
        out.append(("structure_loot.yaml", loot.structure, "structure"))
        out += [("structure_loot.yaml", loot.block, "block")] if loot.block else []
        out += [("structure_loot.yaml", e.item, "item") for p in loot.pools for e in p.entries]
        out += [("structure_loot.yaml", h.item, "item") for h in loot.held]
    for prof in mech.trading.professions:
        out.append(("trades.yaml", prof.job_site, "item"))
        out += [("trades.yaml", t.item, "item") for t in prof.trades]
    for killer in mech.mob_kills.killers:
        need_names("mob_kills.yaml", killer.needs)
        for kill in killer.kills:
            need_names("mob_kills.yaml", kill.needs)
            out += [("mob_kills.yaml", v, "entity") for v in kill.victim] + [("mob_kills.yaml", kill.drop, "item")]
    for recipe in mech.special_recipes.recipes:
        out += [("special_recipes.yaml", recipe.result, "item")]
        out += [("special_recipes.yaml", i, "item") for ing in recipe.ingredients for i in ing.items]
        out += [("special_recipes.yaml", "#" + ing.tag, "item") for ing in recipe.ingredients if ing.tag]
    smith = mech.smithing
    out += [("smithing.yaml", n, "item") for n in (smith.station, smith.template, smith.addition)]
    out += [("smithing.yaml", n, "item") for u in smith.upgrades for n in (u.base, u.result)]
    for v in mech.block_variants.variants:
        out += [("block_variants.yaml", v.block, "block"), ("block_variants.yaml", v.item, "item")]
        out += [("block_variants.yaml", v.into, "block")] if v.into else []
        out += [("block_variants.yaml", r, "item") for r in v.returns]
    for t in mech.husbandry.tending:
        need_names("husbandry.yaml", t.needs)
        out += [("husbandry.yaml", y.name, y.kind.value) for y in t.yields]
    return out

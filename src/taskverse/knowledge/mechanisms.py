"""The game's mechanisms beyond recipes and drops, as curated tables (``atoms/knowledge/curated/``).

Each table declares one mechanism of Minecraft Java Edition 1.20 with its source: stripping logs, tools used on blocks,
Silk Touch from an enchanting table, blocks that change into others (copper weathering, concrete hardening, coral
dying, anvils wearing), what structures hold (chest loot, archaeology), villager trades, drops of mobs killed by
other mobs, special crafting recipes, smithing upgrades, stonecutter recipes, blocks placed in another form (on a
wall, into a cauldron), what raising animals gives, brewing, breeding and taming, buckets, honey in bee nests, which
blocks a player breaks and what a break that drops nothing leaves, the anvil (repair, rename, combine), the items a
player throws, those hung on a block face, the mobs a fishing rod hooks and those a boat seats. The atom generator
(``taskverse.library.mechanisms``) interprets them, one rule per verb.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from taskverse.errors import TaskverseError
from taskverse.schema import Goal, Need, Weather, Yield, villager_xp
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


# -- tools used on blocks ------------------------------------------------------------------------------------

class ToolUsePair(_Table):
    """A block, what a tool used on it turns it into, and what that drops (a carved pumpkin's seeds)."""

    block: str
    becomes: str
    drops: dict[str, int] = Field(default_factory=dict)


class ToolUseGroup(_Table):
    """The blocks one kind of tool (an item tag, or one item) turns into others: hoes till, shovels flatten."""

    tools: str
    verb: str
    pairs: list[ToolUsePair] = Field(min_length=1)


class ToolUses(_Table):
    """``tool_uses.yaml``: hoes, shovels and shears used on blocks."""

    source: str
    groups: list[ToolUseGroup] = Field(min_length=1)


# -- Silk Touch -----------------------------------------------------------------------------------------------

class EnchantableTool(_Table):
    """A tool the library enchants, with its enchantability (Minecraft Wiki, Enchanting mechanics)."""

    item: str
    enchantability: int = Field(gt=0)


class EnchantableGroup(_Table):
    """Items of the same enchantment categories, each with its enchantability."""

    categories: list[str] = Field(min_length=1)
    items: dict[str, int] = Field(min_length=1)


class AnyEnchantment(_Table):
    """Every item a table enchants (``enchant.<item>``), and the names of the enchanted items."""

    prefix: str = Field(pattern=r"^[a-z_]+_$")
    results: dict[str, str] = Field(default_factory=dict)
    groups: list[EnchantableGroup] = Field(min_length=1)

    def enchanted(self, item: str) -> str:
        """The enchanted item's name (``enchanted_diamond_sword``; a book: ``enchanted_book``)."""
        return self.results.get(item) or self.prefix + item

    @property
    def items(self) -> dict[str, tuple[int, list[str]]]:
        """Each enchantable item with its enchantability and categories."""
        return {item: (e, g.categories) for g in self.groups for item, e in g.items.items()}


class Enchanting(_Table):
    """``enchanting.yaml``: one enchantment got from a table at a level, for some tools; and any enchantment."""

    source: str
    enchantment: str
    prefix: str = Field(pattern=r"^[a-z_]+_$")
    level: int = Field(ge=1, le=30)
    station: str
    bookshelves: int = Field(ge=0, le=15)
    transmitters_source: str = ""
    transmitters: list[str] = Field(default_factory=list)
    """The blocks between a bookshelf and the table that let its power through (the 1.20 tag
    ``enchantment_power_transmitter``: air and the replaceable blocks)."""
    lapis: int = Field(ge=1, le=3)
    reset: str
    categories: list[str] = Field(min_length=1)
    tools: list[EnchantableTool] = Field(min_length=1)
    any_enchantment: AnyEnchantment | None = None

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
    """What looting (a chest) or brushing (a suspicious block) one structure gives.

    A structure whose chests draw from several tables has an entry per kind of chest: the main kind (no
    ``chest``), whose count is the structure's ``chests`` in ``structures.yaml``, and each further kind named by
    ``chest`` (a stronghold's ``library``) with its own table, ``chests`` count and ``source``.
    """

    structure: str
    verb: Literal["loot", "brush"] = "loot"
    block: str | None = None
    table: str
    chest: str | None = Field(default=None, pattern=r"^[a-z0-9_]+$")
    """A further kind of chest of the structure (``library``); None: its main kind."""
    chests: int | None = Field(default=None, ge=1)
    """Chests of this further kind one structure holds (looting uses one up)."""
    chests_estimate: bool = False
    """``chests`` is a named estimate, the count a plan counts on where it varies; ``source`` says why."""
    share: float = Field(default=1.0, gt=0.0, le=1.0)
    """The share of the structures that hold this further kind at all (a treasure bastion is one bastion in four);
    a find of the structure gives its chests with that chance."""
    source: str | None = None
    needs: list[Need] = Field(default_factory=list)
    pools: list[LootPool] = Field(min_length=1)
    held: list[HeldItem] = Field(default_factory=list)
    note: str | None = None

    @model_validator(mode="after")
    def _brushed_block(self) -> StructureLoot:
        if (self.verb == "brush") != (self.block is not None):
            raise ValueError("a brush entry names the suspicious block it brushes (block), a loot entry does not")
        if self.chest is not None and (self.verb != "loot" or self.chests is None or self.source is None):
            raise ValueError("a further kind of chest (chest) is looted and gives its own count (chests) and source")
        if self.chest is None and self.chests is not None:
            raise ValueError("the main kind of chest takes its count from structures.yaml: give chests only with chest")
        if self.chests_estimate and self.chests is None:
            raise ValueError("chests_estimate marks the chest count as an estimate, but chests gives none")
        if self.share < 1.0 and self.chest is None:
            raise ValueError("share is the share of structures holding a further kind of chest: give it only with "
                             "chest")
        return self

    @property
    def atom_id(self) -> str:
        """The library's atom that loots (or brushes) one of these: ``loot.stronghold``, ``loot.stronghold.library``."""
        return f"{self.verb}.{self.structure}" + (f".{self.chest}" if self.chest else "")


class StructureLootTables(_Table):
    """``structure_loot.yaml``."""

    source: str
    tables: list[StructureLoot] = Field(min_length=1)

    @model_validator(mode="after")
    def _one_entry_per_kind(self) -> StructureLootTables:
        seen: set[str] = set()
        for table in self.tables:
            if table.atom_id in seen:
                raise ValueError(f"{table.atom_id} is given twice: one entry per structure and kind of chest")
            seen.add(table.atom_id)
        return self

    def kinds(self) -> list[StructureLoot]:
        """The further kinds of chest (those with ``chest``), in the file's order."""
        return [t for t in self.tables if t.chest is not None]


# -- trades -----------------------------------------------------------------------------------------------------

Level = Literal["novice", "apprentice", "journeyman", "expert", "master"]


class Stack(_Table):
    """``count`` of an item."""

    item: str
    count: int = Field(default=1, ge=1, le=64)


class Trade(_Table):
    """What a villager sells: ``count`` of an item (or of each item of a one-colour pool) for emeralds.

    ``also``: items the trade takes besides the emeralds (a fisherman cooks six cod for an emerald and the cod).
    ``most``: the highest price, for an offer whose price the game draws (an enchanted item: its base price plus
    the enchantment level); ``emeralds`` is then the lowest. ``chance``: how likely a villager of the profession
    that reaches the level offers the trade (two offers drawn from the level's pool). ``locates``: the structure
    an explorer map leads to; the map is an item of the text world of its own.
    """

    item: str | None = None
    items: list[str] = Field(default_factory=list)
    count: int = Field(default=1, ge=1, le=64)
    emeralds: int = Field(ge=1, le=64)
    most: int | None = Field(default=None, ge=1, le=64)
    also: Stack | None = None
    level: Level
    uses: int = Field(ge=1, le=64)
    """How many times a villager makes the trade before it locks until the villager restocks (``maxUses``)."""
    xp: int = Field(ge=1, le=30)
    """The villager experience the trade gives the villager (what raises it to its next levels)."""
    chance: float | None = Field(default=None, gt=0, le=1)
    locates: str | None = None

    @model_validator(mode="after")
    def _one_item(self) -> Trade:
        if (self.item is None) == (not self.items):
            raise ValueError("give exactly one of item and items (a pool of one-colour offers)")
        if self.most is not None and self.most < self.emeralds:
            raise ValueError(f"the highest price {self.most} is below the lowest {self.emeralds}")
        if self.locates is not None and self.item is None:
            raise ValueError("an explorer map (locates) is one item, not a pool")
        return self

    @property
    def price(self) -> int:
        """The emeralds a plan brings: the highest price, so that it affords whichever the villager drew."""
        return self.most if self.most is not None else self.emeralds

    @property
    def goods(self) -> list[str]:
        """The item, or each item of the pool."""
        return [self.item] if self.item is not None else list(self.items)


class Purchase(_Table):
    """What a villager buys: ``count`` of an item for ``emeralds``.

    ``biomes``: where a villager that makes this offer is found, for an offer that depends on the villager's type
    (the biome it was born in: a plains fisherman buys an oak boat, a savanna one an acacia boat).
    """

    item: str
    count: int = Field(ge=1, le=64)
    emeralds: int = Field(default=1, ge=1, le=64)
    level: Level
    uses: int = Field(ge=1, le=64)
    """How many times a villager makes the trade before it locks until the villager restocks (``maxUses``)."""
    xp: int = Field(ge=1, le=30)
    """The villager experience the trade gives the villager."""
    chance: float | None = Field(default=None, gt=0, le=1)
    biomes: list[str] = Field(default_factory=list)


class Profession(_Table):
    """A villager profession, the block that gives a villager it, and its trades."""

    profession: str
    job_site: str
    buys: list[Purchase] = Field(default_factory=list)
    sells: list[Trade] = Field(min_length=1)


class Offer(_Table):
    """A wandering trader's offer: ``count`` of an item for ``emeralds``, made ``uses`` times before it locks."""

    item: str
    count: int = Field(default=1, ge=1, le=64)
    emeralds: int = Field(ge=1, le=64)
    uses: int = Field(ge=1, le=64)


class WanderingTrader(_Table):
    """The wandering trader's offers: ``generic_offers`` drawn from ``generic`` and ``rare_offers`` from ``rare``."""

    mob: str
    source: str
    generic_offers: int = Field(ge=1)
    rare_offers: int = Field(ge=1)
    generic: list[Offer] = Field(min_length=1)
    rare: list[Offer] = Field(min_length=1)

    @model_validator(mode="after")
    def _distinct(self) -> WanderingTrader:
        for pool, picks in ((self.generic, self.generic_offers), (self.rare, self.rare_offers)):
            if picks > len(pool):
                raise ValueError(f"{picks} offers drawn from a pool of {len(pool)}")
            if len({o.item for o in pool}) != len(pool):
                raise ValueError("a pool lists an item twice")
        return self

    def offers(self) -> list[tuple[Offer, float]]:
        """Every offer with the chance a trader has it: the offers drawn from its pool over the pool's size."""
        return [(o, picks / len(pool)) for pool, picks in ((self.generic, self.generic_offers),
                                                           (self.rare, self.rare_offers)) for o in pool]


class Restock(_Table):
    """How long a villager whose offers are spent takes to restock them, working at its job site."""

    ticks: Ticks = Field(gt=0)
    """The game ticks a player waits for a restock, on average over a run of restocks."""
    source: str


class Trading(_Table):
    """``trades.yaml``."""

    source: str
    currency: str
    """What every trade pays or asks besides its goods (an emerald): no trade buys or sells it for itself."""
    levels: dict[Level, int]
    """The villager experience at which a villager reaches each level (the novice's is 0)."""
    restock: Restock
    professions: list[Profession] = Field(min_length=1)
    wandering_trader: WanderingTrader

    @model_validator(mode="after")
    def _levels_climb(self) -> Trading:
        order = list(get_args(Level))
        if list(self.levels) != order:
            raise ValueError(f"levels: give the experience of each level in order ({', '.join(order)})")
        steps = list(self.levels.values())
        if steps[0] != 0 or any(b <= a for a, b in zip(steps, steps[1:], strict=False)):
            raise ValueError("levels: a novice has no experience and each level asks for more than the one before")
        return self


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


class Cut(_Table):
    """What a stonecutter makes from one item: each result with the count one item gives."""

    from_: str = Field(alias="from")
    makes: dict[str, Annotated[int, Field(ge=1, le=64)]] = Field(min_length=1)


class Stonecutting(_Table):
    """``stonecutting.yaml``: the station (kept) and what it cuts each item into."""

    source: str
    station: str
    cuts: list[Cut] = Field(min_length=1)

    def ways(self) -> dict[str, list[tuple[str, int]]]:
        """Per result, the items it is cut from with the count one gives, in the file's order."""
        out: dict[str, list[tuple[str, int]]] = {}
        for cut in self.cuts:
            for result, count in cut.makes.items():
                out.setdefault(result, []).append((cut.from_, count))
        return out


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


class Laying(_Table):
    """An animal that lays an item by itself on its own clock: a chicken's egg every ``ticks[0]`` to ``ticks[1]``."""

    animal: str
    item: str
    ticks: tuple[Ticks, Ticks]
    source: str

    @model_validator(mode="after")
    def _a_range(self) -> Laying:
        if not 0 < self.ticks[0] <= self.ticks[1]:
            raise ValueError("ticks is [least, most], the least above 0")
        return self


class Husbandry(_Table):
    """``husbandry.yaml``."""

    source: str
    tending: list[Tending] = Field(min_length=1)
    laying: list[Laying] = Field(default_factory=list)


# -- brewing, filling, drinking ----------------------------------------------------------------------------------

Container = Literal["potion", "splash_potion", "lingering_potion"]


class Fill(_Table):
    """A container used on something found (a block or a mob) becomes a filled item."""

    item: str
    container: str
    kind: Literal["block", "entity"]
    at: str
    source: str


class Buckets(_Table):
    """``buckets.yaml``: what an empty bucket is filled with, used on a source block or an animal."""

    source: str
    fills: list[Fill] = Field(min_length=1)


class Returned(_Table):
    """An item whose container comes back when it is used up (``returns``), with the row's source."""

    item: str
    returns: str
    source: str


class Containers(_Table):
    """``containers.yaml``: the containers the game gives back.

    Used up in a recipe, a fuel slot or a brewing stand (``remainders``), or eaten (``eaten``).
    """

    source: str
    remainders: list[Returned] = Field(min_length=1)
    eaten: list[Returned] = Field(min_length=1)

    def remainder(self, item: str) -> str | None:
        """The container ``item`` leaves where it is used up (a crafting grid, a furnace's fuel, a brewing stand)."""
        return next((r.returns for r in self.remainders if r.item == item), None)

    def after_eating(self, item: str) -> str | None:
        """The container eating ``item`` gives back."""
        return next((r.returns for r in self.eaten if r.item == item), None)


class OuterEnd(_Table):
    """``outer_end.yaml``: what lies beyond the end gateway the dragon's death opens, by kind of found thing."""

    source: str
    gateway: str
    beyond: dict[Literal["biome", "structure", "block", "entity"], list[str]]

    def needs_gateway(self, kind: str, name: str) -> bool:
        """Whether finding ``name`` (a ``kind``) takes the way through the end gateway."""
        return name in self.beyond.get(kind, [])  # type: ignore[call-overload]


class Drink(_Table):
    """A drink that is not a potion, and the container drinking it gives back."""

    item: str
    returns: str | None = None


class PotionKind(_Table):
    """A potion by the game's potion id; ``names`` gives a base potion's own names by container."""

    id: str = Field(pattern=r"^[a-z_]+$")
    names: dict[Container, str] = Field(default_factory=dict)


class Mix(_Table):
    """A brewing recipe: the base potion (by id) with the ingredient becomes the result."""

    base: str
    ingredient: str
    result: str


class ContainerMix(_Table):
    """Any potion in the ``base`` container with the ingredient becomes the same potion in ``result``."""

    result: Container
    base: Container
    ingredient: str


class Brewing(_Table):
    """``brewing.yaml``: the stand, its fuel, the potions and the mixes, filling bottles, drinks."""

    source: str
    station: str
    fuel: str
    brews_per_fuel: int = Field(ge=1)
    bottle: str
    potions: list[PotionKind] = Field(min_length=1)
    mixes: list[Mix] = Field(min_length=1)
    containers: list[ContainerMix] = Field(default_factory=list)
    fills: list[Fill] = Field(default_factory=list)
    drinks: list[Drink] = Field(default_factory=list)

    @model_validator(mode="after")
    def _known_potions(self) -> Brewing:
        ids = {p.id for p in self.potions}
        for i, mix in enumerate(self.mixes):
            for field in ("base", "result"):
                if getattr(mix, field) not in ids:
                    raise ValueError(f"mixes.{i}.{field}: {getattr(mix, field)!r} is not a potion of the table")
        return self

    def name(self, potion: str, container: Container = "potion") -> str:
        """The library's item name of a potion in a container (``potion_of_long_swiftness``)."""
        kind = next(p for p in self.potions if p.id == potion)
        return kind.names.get(container) or f"{container}_of_{potion}"

    @property
    def items(self) -> list[str]:
        """Every potion item the library names."""
        return [self.name(p.id, c) for p in self.potions for c in ("potion", "splash_potion", "lingering_potion")]


# -- breeding and taming ----------------------------------------------------------------------------------------

class Breed(_Table):
    """An animal's breeding food; ``parents`` when the baby is of two other kinds (a mule: a horse and a donkey).

    ``gives``: what breeding gives when it is not a baby found (a turtle's eggs); ``returns``: the container the
    food comes in, given back (an axolotl's water bucket).
    """

    animal: str
    food: list[str] = Field(min_length=1)
    parents: list[str] = Field(default_factory=list, max_length=2)
    gives: Yield | None = None
    returns: str | None = None


class Tame(_Table):
    """An animal's taming food and the chance a try takes (one in ``one_in``); no food: tamed by riding it."""

    animal: str
    food: list[str] = Field(default_factory=list)
    one_in: int = Field(default=1, ge=1)

    @model_validator(mode="after")
    def _food_and_odds(self) -> Tame:
        if not self.food and self.one_in != 1:
            raise ValueError("an animal tamed by riding takes no food: one_in is for taming food")
        return self


class Feed(_Table):
    """What else an animal eats, beyond its breeding food (healing it, a baby growing): a horse's wheat."""

    animal: str
    food: list[str] = Field(min_length=1)


class Breeding(_Table):
    """``breeding.yaml``."""

    source: str
    breeding: list[Breed] = Field(min_length=1)
    taming: list[Tame] = Field(min_length=1)
    feeding: list[Feed] = Field(default_factory=list)
    fills: list[Fill] = Field(default_factory=list)


# -- honey ------------------------------------------------------------------------------------------------------

class HoneyHarvest(_Table):
    """What an item used on a full bee nest or beehive gives (and whether the item is used up or worn)."""

    tool: str
    gives: str
    count: int = Field(default=1, ge=1)
    wears: int = Field(default=0, ge=0)
    uses_up: bool = False


class NestTrees(_Table):
    """The trees a natural nest grows on and, per biome, the share of them that carry one."""

    logs: list[str] = Field(min_length=1)
    chances: dict[str, float] = Field(min_length=1)


class Honey(_Table):
    """``honey.yaml``: the blocks bees fill with honey, the full level, the harvests, where nests generate."""

    source: str
    blocks: list[str] = Field(min_length=1)
    full: int = Field(ge=1)
    natural: str
    harvests: list[HoneyHarvest] = Field(min_length=1)
    trees: NestTrees


# -- breaking ---------------------------------------------------------------------------------------------------

class NotBroken(_Table):
    """Blocks (or names) no player breaks, and why."""

    reason: str
    names: list[str] = Field(min_length=1)
    source: str


class BreakLeaves(_Table):
    """What breaking one of ``blocks`` without Silk Touch leaves in the world (an infested block: a silverfish)."""

    blocks: list[str] = Field(min_length=1)
    leaves: Yield
    source: str


def unbreakable(block: dict[str, Any]) -> bool:
    """Whether the game data says no player breaks a block (not diggable, or hardness -1 or none)."""
    hardness = block.get("hardness")
    return not block.get("diggable", True) or hardness is None or hardness < 0


class Breaking(_Table):
    """``breaking.yaml``: which blocks a player breaks ("mine X" is the game's ``mined`` statistic), and what is left.

    A block of hardness -1 is unbreakable (``unbreakable``, unless a group of ``not_broken`` says more); the groups
    name fluids and technical blocks; ``not_blocks`` names what the game data has no block for (air);
    ``left_out`` names breakable blocks the library's world cannot hold; ``leaves`` what a break leaves.
    """

    source: str
    unbreakable: str
    not_broken: list[NotBroken] = Field(default_factory=list)
    not_blocks: list[NotBroken] = Field(default_factory=list)
    left_out: list[NotBroken] = Field(default_factory=list)
    leaves: list[BreakLeaves] = Field(default_factory=list)

    def why_not_broken(self, name: str, block: dict[str, Any] | None) -> str | None:
        """Why no player breaks ``name`` (``block``: its game data, None if it is no block), or None if one can."""
        for group in (*self.not_broken, *self.not_blocks):
            if name in group.names:
                return group.reason
        return self.unbreakable if block is not None and unbreakable(block) else None

    def left_out_reason(self, name: str) -> str | None:
        """Why a breakable block has no mine atom, if it is left out."""
        return next((g.reason for g in self.left_out if name in g.names), None)

    def left_by(self, block: str) -> list[Yield]:
        """What breaking ``block`` without Silk Touch leaves in the world."""
        return [entry.leaves for entry in self.leaves if block in entry.blocks]


# -- the anvil --------------------------------------------------------------------------------------------------

class AnvilRepair(_Table):
    """Items one material repairs at an anvil (``material``: an item or ``#tag``; none: only two items combine)."""

    material: str | None = None
    also: list[str] = Field(default_factory=list)
    items: list[str] = Field(min_length=1)

    @property
    def materials(self) -> list[str]:
        """The material and the other items that repair as it does (cobbled deepslate for stone tools)."""
        return [*([self.material] if self.material else []), *self.also]


class Anvil(_Table):
    """``anvil.yaml``: what an anvil repairs and with what, what it renames, and the book it puts on an item."""

    source: str
    stations: list[str] = Field(min_length=1)
    unit_share: float = Field(gt=0, le=1)
    levels: dict[str, int]
    renamed_prefix: str = Field(pattern=r"^[a-z_]+_$")
    book: str
    also_renamed: list[str] = Field(default_factory=list)
    also_combined: list[str] = Field(default_factory=list)
    """Items an enchanting table does not take that a book's enchantments go on at an anvil (shears, a shield)."""
    repairs: list[AnvilRepair] = Field(min_length=1)

    @model_validator(mode="after")
    def _each_item_once(self) -> Anvil:
        items = [i for r in self.repairs for i in r.items]
        twice = sorted({i for i in items if items.count(i) > 1})
        if twice:
            raise ValueError(f"items listed twice: {twice}")
        if sorted(self.levels) != ["combine", "rename", "unit"]:
            raise ValueError("levels must give rename, unit and combine")
        return self

    @property
    def renamed(self) -> dict[str, str]:
        """Each item the anvil renames, with its renamed name (``named_iron_sword``)."""
        items = [*(i for r in self.repairs for i in r.items), *self.also_renamed]
        return {item: self.renamed_prefix + item for item in items}


# -- shooting ---------------------------------------------------------------------------------------------------

class Shooting(_Table):
    """``shooting.yaml``: the bow, and the arrows it shoots (one used up a shot; the ``used`` statistic counts it)."""

    source: str
    bow: str
    ammo: list[str] = Field(min_length=1)


# -- throwing ---------------------------------------------------------------------------------------------------

class Thrown(_Table):
    """An item a player throws: the chance it comes back (``back``), or the durability a throw takes (``wears``)."""

    item: str
    back: float = Field(default=0.0, ge=0, lt=1)
    wears: int = Field(default=0, ge=0)
    source: str


class NotThrown(_Table):
    """Items the literature writes as thrown that no player throws, and why."""

    names: list[str] = Field(min_length=1)
    reason: str
    source: str


class Throwing(_Table):
    """``throwing.yaml``: the items a player throws (the game's ``used`` statistic counts each throw)."""

    source: str
    items: list[Thrown] = Field(min_length=1)
    potions: list[Container] = Field(default_factory=list)
    potions_source: str
    not_thrown: list[NotThrown] = Field(default_factory=list)

    @model_validator(mode="after")
    def _each_item_once(self) -> Throwing:
        items = [t.item for t in self.items]
        twice = sorted({i for i in items if items.count(i) > 1})
        if twice:
            raise ValueError(f"items listed twice: {twice}")
        if any(t.back and t.wears for t in self.items):
            raise ValueError("an item is either picked up again with wear (wears) or comes back by chance (back)")
        return self

    def why_not_thrown(self, item: str) -> str | None:
        """Why a player cannot throw ``item``, if the table says (a fire charge), else None."""
        return next((g.reason for g in self.not_thrown if item in g.names), None)


class Hung(_Table):
    """An item a player hangs on a block face (an item frame, a painting)."""

    item: str
    source: str


class Hanging(_Table):
    """``hanging.yaml``: the items hung on a block face as entities (the game's ``used`` statistic counts each)."""

    source: str
    items: list[Hung] = Field(min_length=1)


class StoreContainer(_Table):
    """A container block a player places and stores items in (a chest, a barrel, a shulker box)."""

    item: str
    slots: int = Field(ge=1)
    source: str


class Stored(_Table):
    """An item the library has a ``store.<item>`` atom for."""

    item: str
    source: str


class Storing(_Table):
    """``storing.yaml``: items stored in a container, the event the game has no statistic for (``store``)."""

    source: str
    containers: list[StoreContainer] = Field(min_length=1)
    items: list[Stored] = Field(min_length=1)

    @model_validator(mode="after")
    def _each_once(self) -> Storing:
        for what, names in (("containers", [c.item for c in self.containers]), ("items", [i.item for i in self.items])):
            twice = sorted({n for n in names if names.count(n) > 1})
            if twice:
                raise ValueError(f"{what} listed twice: {twice}")
        return self

    @property
    def container_items(self) -> list[str]:
        """The containers' item names, in the table's order."""
        return [c.item for c in self.containers]


class Hooking(_Table):
    """``hooking.yaml``: the rod that hooks mobs and the durability a hooked mob reeled in takes off it."""

    source: str
    rod: str
    wear: int = Field(ge=1)


class NotRiding(_Table):
    """Mobs a boat never seats, and why."""

    names: list[str] = Field(min_length=1)
    reason: str
    source: str


class Boating(_Table):
    """``boating.yaml``: the boats (an item tag) that seat a mob walking into them, and the mobs they never seat."""

    source: str
    boats: str
    width: float = Field(gt=0)
    not_riding: list[NotRiding] = Field(default_factory=list)
    sized: list[str] = Field(default_factory=list)
    """Mobs minecraft-data gives the width of their largest size; their smaller sizes fit in a boat."""

    def why_not_trapped(self, mob: str) -> str | None:
        """Why a boat never seats ``mob`` (a spider is too wide), if the table says, else None."""
        return next((g.reason for g in self.not_riding if mob in g.names), None)


class Screen(_Table):
    """A block whose right-click the game counts as a custom statistic (``open_chest``, ``interact_with_loom``)."""

    block: str
    statistic: str = Field(pattern=r"^(open_|interact_with_|inspect_|trigger_)[a-z_]+$")
    with_: list[str] = Field(default_factory=list, alias="with")
    """Items the click needs in the hand and puts into the block (food on a campfire, a book on a lectern)."""
    source: str

    @property
    def verb(self) -> str:
        """The atom's verb, the statistic's own first word (``interact_with_furnace``: interact)."""
        return self.statistic.split("_", 1)[0]


class Screens(_Table):
    """``screens.yaml``: the blocks whose screen opened (or whose click) the game counts as a custom statistic."""

    source: str
    blocks: list[Screen] = Field(min_length=1)

    @model_validator(mode="after")
    def _once(self) -> Screens:
        names = [b.block for b in self.blocks]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise ValueError(f"blocks listed twice: {twice}")
        return self


# -- custom statistics ----------------------------------------------------------------------------------------

class Statistic(_Table):
    """An action the game counts as a custom statistic (``talked_to_villager``, ``climb_one_cm``): one atom."""

    verb: str = Field(pattern=r"^[a-z]+$")
    name: str = Field(pattern=r"^[a-z0-9_]+$")
    description: str
    statistic: str = Field(pattern=r"^[a-z_]+$")
    ways: list[list[Need]] = Field(min_length=1)
    yields: list[Yield] = Field(default_factory=list)
    goal: Goal
    source: str


class Statistics(_Table):
    """``statistics.yaml``: actions beyond a block's screen that the game counts as a custom statistic."""

    source: str
    statistics: list[Statistic] = Field(min_length=1)

    @model_validator(mode="after")
    def _once(self) -> Statistics:
        ids = [f"{s.verb}.{s.name}" for s in self.statistics]
        twice = sorted({i for i in ids if ids.count(i) > 1})
        if twice:
            raise ValueError(f"atoms listed twice: {twice}")
        return self


# -- loading ----------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Mechanisms:
    """Every mechanism table, loaded and validated."""

    stripping: Stripping
    tool_uses: ToolUses
    enchanting: Enchanting
    transformations: Transformations
    structure_loot: StructureLootTables
    trading: Trading
    mob_kills: MobKills
    special_recipes: SpecialRecipes
    smithing: Smithing
    stonecutting: Stonecutting
    block_variants: BlockVariants
    husbandry: Husbandry
    brewing: Brewing
    breeding: Breeding
    buckets: Buckets
    containers: Containers
    outer_end: OuterEnd
    honey: Honey
    breaking: Breaking
    anvil: Anvil
    throwing: Throwing
    hanging: Hanging
    storing: Storing
    hooking: Hooking
    boating: Boating
    shooting: Shooting
    screens: Screens
    statistics: Statistics

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
    def library_items(self) -> list[str]:
        """Items the library names that minecraft-data does not: potions, enchanted items, renamed items, maps.

        And the villagers' experience (``xp:<profession>``), an internal item of the text world.
        The Silk Touch tools are ``enchanted_items``.
        """
        anyway = self.enchanting.any_enchantment
        enchanted = [anyway.enchanted(i) for i in [*anyway.items, *self.anvil.also_combined]] if anyway else []
        maps = [t.item for p in self.trading.professions for t in p.sells if t.locates and t.item]
        trained = [villager_xp(p.profession) for p in self.trading.professions]  # internal: a villager's experience
        return [*self.brewing.items, *enchanted, *self.anvil.renamed.values(), *maps, *trained]

    @property
    def enchanted_items(self) -> dict[str, str]:
        """The enchanted tools of the text world, each with the tool it is made from."""
        return {self.enchanting.enchanted(t.item): t.item for t in self.enchanting.tools}


FILES: dict[str, tuple[str, type[_Table]]] = {
    "stripping": ("stripping.yaml", Stripping),
    "tool_uses": ("tool_uses.yaml", ToolUses),
    "enchanting": ("enchanting.yaml", Enchanting),
    "transformations": ("transformations.yaml", Transformations),
    "structure_loot": ("structure_loot.yaml", StructureLootTables),
    "trading": ("trades.yaml", Trading),
    "mob_kills": ("mob_kills.yaml", MobKills),
    "special_recipes": ("special_recipes.yaml", SpecialRecipes),
    "smithing": ("smithing.yaml", Smithing),
    "stonecutting": ("stonecutting.yaml", Stonecutting),
    "block_variants": ("block_variants.yaml", BlockVariants),
    "husbandry": ("husbandry.yaml", Husbandry),
    "brewing": ("brewing.yaml", Brewing),
    "breeding": ("breeding.yaml", Breeding),
    "buckets": ("buckets.yaml", Buckets),
    "containers": ("containers.yaml", Containers),
    "outer_end": ("outer_end.yaml", OuterEnd),
    "honey": ("honey.yaml", Honey),
    "breaking": ("breaking.yaml", Breaking),
    "anvil": ("anvil.yaml", Anvil),
    "throwing": ("throwing.yaml", Throwing),
    "hanging": ("hanging.yaml", Hanging),
    "storing": ("storing.yaml", Storing),
    "hooking": ("hooking.yaml", Hooking),
    "boating": ("boating.yaml", Boating),
    "shooting": ("shooting.yaml", Shooting),
    "screens": ("screens.yaml", Screens),
    "statistics": ("statistics.yaml", Statistics),
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
    out += [("tool_uses.yaml", name, "block") for g in mech.tool_uses.groups for p in g.pairs
            for name in (p.block, p.becomes)]
    out += [("tool_uses.yaml", name, "item") for g in mech.tool_uses.groups for p in g.pairs for name in p.drops]
    ench = mech.enchanting
    out += [("enchanting.yaml", name, "item") for name in (ench.station, ench.reset, "bookshelf", "lapis_lazuli")]
    out += [("enchanting.yaml", t.item, "item") for t in ench.tools]
    no_block = {n for group in mech.breaking.not_blocks for n in group.names}  # air: no block of the game data
    out += [("enchanting.yaml", b, "block") for b in ench.transmitters if b not in no_block]
    if ench.any_enchantment is not None:
        out += [("enchanting.yaml", item, "item") for item in ench.any_enchantment.items]
        out += [("enchanting.yaml", r, "item") for r in ench.any_enchantment.results.values()]
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
        out += [("trades.yaml", item, "item") for t in prof.sells for item in t.goods]
        out += [("trades.yaml", t.also.item, "item") for t in prof.sells if t.also]
        out += [("trades.yaml", t.item, "item") for t in prof.buys]
        out += [("trades.yaml", b, "biome") for t in prof.buys for b in t.biomes]
        out += [("trades.yaml", t.locates, "structure") for t in prof.sells if t.locates]
    out.append(("trades.yaml", mech.trading.currency, "item"))
    out += [("anvil.yaml", item, "item") for item in mech.anvil.also_combined]
    trader = mech.trading.wandering_trader
    out.append(("trades.yaml", trader.mob, "entity"))
    out += [("trades.yaml", offer.item, "item") for offer, _ in trader.offers()]
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
    cutter = mech.stonecutting
    out += [("stonecutting.yaml", cutter.station, "item")]
    out += [("stonecutting.yaml", n, "item") for c in cutter.cuts for n in (c.from_, *c.makes)]
    for v in mech.block_variants.variants:
        out += [("block_variants.yaml", v.block, "block"), ("block_variants.yaml", v.item, "item")]
        out += [("block_variants.yaml", v.into, "block")] if v.into else []
        out += [("block_variants.yaml", r, "item") for r in v.returns]
    for t in mech.husbandry.tending:
        need_names("husbandry.yaml", t.needs)
        out += [("husbandry.yaml", y.name, y.kind.value) for y in t.yields]
    for lay in mech.husbandry.laying:
        out += [("husbandry.yaml", lay.animal, "entity"), ("husbandry.yaml", lay.item, "item")]
    brew = mech.brewing
    out += [("brewing.yaml", n, "item") for n in (brew.station, brew.fuel, brew.bottle)]
    out += [("brewing.yaml", m.ingredient, "item") for m in brew.mixes]
    out += [("brewing.yaml", c.ingredient, "item") for c in brew.containers]
    out += [("brewing.yaml", n, "item") for f in brew.fills for n in (f.item, f.container)]
    out += [("brewing.yaml", f.at, f.kind) for f in brew.fills]
    out += [("brewing.yaml", n, "item") for d in brew.drinks for n in (d.item, *([d.returns] if d.returns else []))]
    breed = mech.breeding
    for b in breed.breeding:
        out += [("breeding.yaml", a, "entity") for a in (b.animal, *b.parents)]
        out += [("breeding.yaml", f, "item") for f in (*b.food, *([b.returns] if b.returns else []))]
        out += [("breeding.yaml", b.gives.name, b.gives.kind.value)] if b.gives else []
    out += [("breeding.yaml", n, "entity") for t in breed.taming for n in [t.animal]]
    out += [("breeding.yaml", f, "item") for t in breed.taming for f in t.food]
    out += [("breeding.yaml", n, kind) for f in breed.feeding for n, kind in
            [(f.animal, "entity"), *((x, "item") for x in f.food)]]
    out += [("breeding.yaml", n, "item") for f in breed.fills for n in (f.item, f.container)]
    out += [("breeding.yaml", f.at, f.kind) for f in breed.fills]
    out += [("buckets.yaml", n, "item") for f in mech.buckets.fills for n in (f.item, f.container)]
    out += [("buckets.yaml", f.at, f.kind) for f in mech.buckets.fills]
    out += [("containers.yaml", n, "item") for r in (*mech.containers.remainders, *mech.containers.eaten)
            for n in (r.item, r.returns)]
    out += [("outer_end.yaml", mech.outer_end.gateway, "block")]
    out += [("outer_end.yaml", n, kind) for kind, names in mech.outer_end.beyond.items() for n in names]
    honey = mech.honey
    out += [("honey.yaml", b, "block") for b in (*honey.blocks, honey.natural)]
    out += [("honey.yaml", n, "item") for h in honey.harvests for n in (h.tool, h.gives)]
    out += [("honey.yaml", n, "block") for n in honey.trees.logs]
    out += [("honey.yaml", b, "biome") for b in honey.trees.chances]
    breaking = mech.breaking
    out += [("breaking.yaml", n, "block") for g in (*breaking.not_broken, *breaking.left_out) for n in g.names]
    out += [("breaking.yaml", b, "block") for entry in breaking.leaves for b in entry.blocks]
    out += [("breaking.yaml", entry.leaves.name, entry.leaves.kind.value) for entry in breaking.leaves]
    anvil = mech.anvil
    out += [("anvil.yaml", n, "item") for n in (*anvil.stations, anvil.book, *anvil.also_renamed)]
    out += [("anvil.yaml", n, "item") for r in anvil.repairs for n in (*r.materials, *r.items)]
    throwing = mech.throwing
    out += [("throwing.yaml", n, "item") for n in (*(t.item for t in throwing.items),
                                                    *(n for g in throwing.not_thrown for n in g.names))]
    out += [("hanging.yaml", h.item, "item") for h in mech.hanging.items]
    out += [("storing.yaml", n, "item") for n in (*mech.storing.container_items, *(i.item for i in mech.storing.items))]
    out += [("hooking.yaml", mech.hooking.rod, "item")]
    out += [("boating.yaml", "#" + mech.boating.boats, "item")]
    out += [("boating.yaml", n, "entity") for g in mech.boating.not_riding for n in g.names]
    out += [("boating.yaml", n, "entity") for n in mech.boating.sized]
    out += [("shooting.yaml", n, "item") for n in (mech.shooting.bow, *mech.shooting.ammo)]
    out += [("screens.yaml", b.block, "block") for b in mech.screens.blocks]
    out += [("screens.yaml", n, "item") for b in mech.screens.blocks for n in b.with_]
    out += [("statistics.yaml", name, n.kind.value) for s in mech.statistics.statistics for way in s.ways
            for n in way for name in n.any_of]
    out += [("statistics.yaml", y.name, y.kind.value) for s in mech.statistics.statistics for y in s.yields]
    return out

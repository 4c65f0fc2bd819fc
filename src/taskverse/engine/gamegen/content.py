"""The content of the generated game, derived from the library's game knowledge as plain data.

Every Minecraft 1.20 block and item becomes ``minecraft:<name>``; the rules below turn the knowledge into what the
engine registers. Where the engine and Minecraft differ, the rule says how it is bridged:

* Digging: a block's Minecraft tool (``mineable/pickaxe`` ...) is its dig group (``cracky``, ``choppy``,
  ``crumbly``, ``snappy``; a sword's cobweb ``swordy``). A block with harvest tools gets ``level`` = the lowest
  tier level among them (wood and gold 0, stone 1, iron 2, diamond 3, netherite 4) and cannot be dug without one:
  where Minecraft digs it for no drop, the engine does not dig it at all. Blocks without harvest tools are also
  ``handy``: the hand (and so every item) digs them.
* Drops: Silk Touch lines are for the Silk Touch tools only (a line's ``tools``; sure, as Minecraft's Silk Touch
  drop is), and the other lines of such a block, rescaled to certainty, for every other item and the hand
  (:func:`not_prefixed`). Lines whose chances add up to one are alternatives (``max_items = 1``, rarest first);
  others are independent. A count range ``min..max`` is ``min`` sure items plus one item with rarity 2 for each of
  the rest, which keeps Minecraft's mean count.
* Tools: tier speed and durability from the tool tiers; swords' damage from the combat table. The Silk Touch
  tools (``silk_touch_<pickaxe>``) are tools with their pickaxe's capabilities.
* Enchanting (:func:`enchanting`): a pickaxe used on an enchanting table (a right-click: no enchanting screen)
  with 15 bookshelves in Minecraft's ring around it (each with a block of the ``enchantment_power_transmitter``
  tag between it and the table: air, water, grass; no flower) takes 3 lapis lazuli and becomes its Silk Touch tool
  with the knowledge's chance for the level-30 offer; otherwise it comes back plain, what the try gave ground off at a
  grindstone the player carries or stands near (the table asks for one). No experience levels; only the level-30
  offer (fewer bookshelves: no offer); no other enchantment.
* Special recipes: the crafting recipes Minecraft defines in code (``special_recipes.yaml``: a shulker box dyed, a
  suspicious stew) are shapeless recipes, one per choice of their ingredients.
* Smelting: Minecraft's 10 s a smelt; a fuel that smelts ``n`` items burns ``10 n`` seconds.
* Map: a flat world whose ground is at y = 8 (Minecraft's sea level 64 maps to 8: world y = Minecraft y - 56);
  ores at their Minecraft heights; every natural surface block is placed in its biomes (trees as trunk and
  leaves; water as pools in rivers and swamps); biomes by their temperature.
* The Nether and the End: layers of the same world far below the overworld (:data:`DIMENSIONS`): each a cavern
  whose floor is at ``floor``, carved by the map generator (an ore of air), made of its biomes' stone, with the
  dimension's blocks as ores in the floor and the rest standing on it. Portals: a nether portal (flint and steel
  on obsidian) and an end portal take a player standing in them to the other side; flint and steel on another
  block lights a fire on top of it.
* Block variants: an item placed against a wall places its wall form (a banner, a sign, a head); one placed on
  the block it goes into turns that block into the variant (a candle on a cake, a plant on a flower pot, a bucket
  on a cauldron), as Minecraft's use of the item on the block does (:func:`variants`).
* Stripping: an axe used on a log (wood, stem, hyphae, bamboo block) turns it into its stripped form and wears
  one use (:func:`stripping`).
* Tools used on blocks: a hoe used on grass or dirt turns it into farmland, a shovel into a dirt path (only with
  air above), shears carve a pumpkin (dropping its seeds), each wearing one use (:func:`tool_uses`).
* Uses from the hand that Minecraft counts only when they happen (:func:`hand_uses`): a bow shoots the first arrow
  of the inventory, used up (``shooting.yaml``; none: nothing happens); a trident is thrown and picked up again at
  once (``throwing.yaml``'s items with ``wears``); a fishing rod is cast, a bobber in the water in front of the
  player, and reeled in by the next use (``hooking.yaml``'s rod); each a projectile the game shows briefly. The
  item's ``_on_counted_use`` field is called the moment the use happens (where Minecraft awards ``used``: the
  arrow shot, the trident thrown, the rod cast), for the runtime to log. Not modelled: the projectile hitting
  anything, the durability a use takes, and a carrot on a stick (it boosts a ridden pig: nothing rides here).
* Screens (:func:`screens`): a right-click on a chest, a crafting table, a furnace, a loom... (``screens.yaml``:
  the blocks whose screen opened Minecraft counts as a custom statistic) opens its screen: the node's own form
  (a furnace's, a brewing stand's) or one that shows the player's inventory under the block's name. The click is
  the node's ``on_rightclick``, which the runtime logs as the block's ``interact``. Not modelled: a container's
  own slots (a chest holds nothing), and what a station's screen does besides the ones the game already runs.
* Changes: concrete powder hardens into concrete as soon as it touches water; coral dies (becomes its dead
  form) 79.5 ticks (4 s, Minecraft's average) after it is placed out of water (:func:`changes`). Copper does not
  weather (a stage takes about 27 minutes on average) and anvils do not wear.
* Brewing: a glass bottle used on a water source fills it (:func:`brewing`). The bottle becomes
  ``minecraft:potion``: minecraft-data's one potion item, which is what Minecraft's water bottle is (the library's
  ``water_bottle`` names the same item by its potion id), so the brewing stand takes either as water. The stand
  brews Minecraft's recipes (``brewing.yaml``: the mixes, and every potion into its splash form with gunpowder and
  its lingering form with dragon's breath): one ingredient on top, up to three bottles below, 20 s a brew, one
  blaze powder burnt for 20 brews.
* Honey: bee nests grow on the trees of their biomes, on the trunk under the leaves, on the share of the trees
  Minecraft gives them (``honey.yaml``; :func:`honey`). A nest the map generates is full (honey level 5): the game
  has no bees flying from flowers to fill it, so a generated nest stands for one its bees have filled. Shears used
  on a full nest or hive give 3 honeycomb (one use of the shears), a glass bottle becomes a honey bottle, and the
  level goes back to 0; a placed or crafted one starts empty.
* Storing: the containers of ``storing.yaml`` (a chest, a trapped chest, a barrel, the shulker boxes) hold their
  slots as a ``main`` list a player puts stacks into (:func:`storing`); the runtime logs a stack put there from the
  player's inventory as the ``store`` event (the node's ``on_metadata_inventory_put``). Not modelled: a double
  chest, a shulker box keeping its items when broken (a container is dug only when empty), a shulker box refusing
  another.
* Trading: a villager takes the profession of the nearest job site block within :data:`JOB_RADIUS` nodes
  (Minecraft: an unemployed villager claims one within 48) and trades the knowledge's offers of it
  (``trades.yaml``: emeralds and the trade's other items for its goods; what it buys for emeralds) at base prices
  (:func:`trading`), each once the villager has reached its level: a trade adds its ``xp`` to the villager's
  experience in that profession, and a level is reached at the experience ``levels`` gives (10 apprentice, 70
  journeyman...); an offer above the villager's level is refused, naming the level and experience it needs (a
  start gives the villagers it summons the experience its task names). Villagers are met as every mob is:
  summoned by a start, or spawned by the scripted player where Minecraft's villages stand (a stand-in: the
  game generates no structures). A wandering trader (:func:`wandering`) draws its offers once, the first time it
  is traded with or shown, as Minecraft's does when it spawns: 5 distinct offers of the generic pool and 1 of the
  rare one, each equally likely, and trades only those (each up to its ``uses``); the draw is seeded by the map
  seed and the trader's number in the world (the nth trader whose offers were drawn), so the same seed and the
  same play meet the same offers. Its price is taken only where it has the offer. It is met as other mobs are
  (summoned by a start, or spawned by the scripted player: the next trader met).
* Stonecutting (:func:`stonecutting`): the stonecutter cuts one item of a recipe's input from the player's
  inventory into the recipe's count (``stonecutting.yaml``), and the cut is a craft (Minecraft counts the result
  taken from its output slot as crafted): a right-click shows the cuts of what the player holds (a button each).
  Not modelled: its own input slot.
* The anvil (:func:`anvil`, ``anvil.yaml``): renames an item (``named_<item>``), puts an enchanted book's
  enchantment on one (``enchanted_<item>``; the book is used up) and repairs one with a unit of its material (the
  knowledge's share of its durability off the wear) or a second one (whole again), as the text world does. The
  named and enchanted items are items of their own (copies of the item, as the Silk Touch tools are; a named block
  is not placed); taking a rename or a combine from the anvil runs the engine's craft callbacks, as the library's
  goals judge them (the result crafted), and every work calls the ``_on_used_on`` of an item it took (the one in
  the player's hand, a repair's material, else the item worked on), which the runtime logs as the anvil used
  holding it. A right-click shows what the held items allow (a button
  each). Not modelled: experience levels (not a resource of the library), the anvil wearing, a typed-in name, which
  of a book's enchantments goes on, and the refusal of a whole item (the text world repairs one too, restoring
  nothing).
* Structures: the game generates a small, plain stand-in of each structure the knowledge places at the ground of
  the overworld or on the Nether's or the End's floor (``structures.yaml``; not villages, whose villagers are
  another mechanism, nor the underground ones: caves, dungeons, mineshafts, ancient cities): one marker node
  (``minecraft:structure_<name>``, a block in a colour of its own) that the map generator places as a decoration
  in the structure's biomes (on another dimension's floor: anywhere on it), far more often than Minecraft's
  spacing (one in about 400 ground nodes, so that one is within the scripted player's search), on the ground even
  where Minecraft buries it. Seeing the marker finds the structure. The marker of a structure with a loot chest
  (``structure_loot.yaml``) is its chest: opened (right-clicked) the first time, it draws the chest's loot table
  (Minecraft's pools: rolls, weights and counts; the entries the knowledge leaves out are drawn as nothing),
  gives it to the player and becomes the looted marker (``minecraft:structure_<name>_looted``), which gives
  nothing more (:func:`structures`). A structure whose chests draw from several tables (``structure_loot.yaml``'s
  ``chest``: a stronghold's library, a bastion's treasure room) has a chest of each further kind beside its marker
  (``minecraft:structure_<name>_<kind>``), which draws that kind's table; one the knowledge gives to a share of the
  structures is in that share of the stand-ins (a treasure chest in one bastion in four). The marker is the chest
  of the main kind. What a structure holds outside its chests comes with the marker's chest, each item
  with the share of structures that hold it (an end city's elytra and dragon head, in Minecraft on the end ship
  some end cities have: the knowledge's estimate, one in two). An archaeology structure (trail ruins; warm ocean
  ruins, those in warm and lukewarm oceans) has its suspicious block beside the marker: a brush used on it draws
  the structure's archaeology table, gives it to the player, turns the block into its plain form (suspicious
  gravel into gravel), makes the marker the looted one and wears the brush one of its 64 uses. The stronghold (in
  Minecraft underground, 1280 blocks or more from the origin, found with eyes of ender) is its end portal room on
  the ground of any biome, one in about 4000 ground nodes: its marker at a corner of a ring of 12 end portal
  frames around a 3 x 3 hole; an eye of ender used on a frame fills it (``minecraft:end_portal_frame_eye``,
  Minecraft's frame with its eye), and the 12 filled open the end portal in the hole, which takes a player
  standing in it (or using it) to the End. Each stand-in holds the blocks its structure holds
  (``structure_blocks.yaml``: an igloo's red bed and brewing stand, a desert pyramid's TNT, a stronghold's
  bookshelves), one of each, in a small square beside the stand-in's own cells (the marker, the portal room, the
  suspicious block), a row of ground between (:func:`held_blocks`): finding such a block is finding a structure
  that holds it.
* Mobs: through the mobs_redo API, with the knowledge's health, the combat table's attack and the loot tables'
  drops; hostile mobs are monsters that attack, the rest animals. They are summoned by tasks, never spawned.
* Animals (:func:`animals`, ``breeding.yaml``): an animal eats its breeding food, its taming food and its other
  food (a horse's wheat) when the player uses it on the animal (mobs_redo's ``mobs:feed_tame``: one item, four hit
  points back, a baby grows). An adult fed its breeding food is in love (mobs_redo's ``horny``) and mates with an
  animal in love within 8 nodes (Minecraft's search) that is its partner (its own kind; a horse and a donkey make
  a mule): the baby appears between them 3 s later (Minecraft's 60 ticks), a half-size child, and both parents
  wait out mobs_redo's 5-minute cooldown (Minecraft's). An axolotl gives the water bucket back. Taming food tames
  one try in ``one_in`` (a wolf's bone: 1 in 3), the owner the player; the draw is the engine's ``math.random``,
  the same sequence at every start, so the same plan tames at the same try in every episode (measured: an
  ocelot's first cod never, in 12 episodes; three cod always, in 6). Where mobs_redo or the game's mobs differ: the
  mobs stand still (Minecraft's lovers walk to each other), the horse family and llamas are not tamed by riding
  (they cannot be ridden), the wolf, cat and horse family breed untamed (as the library's atoms have it),
  animals that lay eggs (turtle, frog, sniffer) make no egg, an animal in love or at full health still eats
  (mobs_redo takes the item; Minecraft's animal refuses it), and a baby takes mobs_redo's 20 minutes to grow.
"""

from __future__ import annotations

import hashlib
import itertools
import math
from typing import Any

from taskverse.library.mechanisms import enchant_chance

NAMESPACE = "minecraft"
#: Minecraft's sea level in the world (see the module docstring).
Y_SHIFT = -56
GROUND_Y = 8
COOK_SECONDS = 10.0

_GROUPS = {"mineable/pickaxe": "cracky", "mineable/axe": "choppy", "mineable/shovel": "crumbly",
           "mineable/hoe": "snappy"}
_TOOL_GROUP = {"pickaxe": "cracky", "axe": "choppy", "shovel": "crumbly", "hoe": "snappy", "sword": "swordy"}
#: Dig seconds of a rating (1 hard, 2 medium, 3 soft) at speed 1, from Minecraft's hardness of each class.
_RATING_HARDNESS = {1: 3.0, 2: 1.5, 3: 0.5}
#: A surface block for each biome category, before the biome's own ground blocks (desert sand...).
_CATEGORY_TOP = {"desert": "sand", "beach": "sand", "mesa": "red_sand", "ice": "snow_block", "mushroom": "mycelium",
                 "ocean": "sand", "river": "sand", "swamp": "mud"}
_UNDERGROUND_BIOMES = {"deep_dark": (-60, -30), "dripstone_caves": (-29, -15), "lush_caves": (-14, -5)}
_LIQUIDS = ("water", "lava")
#: The biome categories whose ground has pools of water (sources on the ground, flowing around).
_WATER_CATEGORIES = ("river", "swamp")
#: The other dimensions as layers of the world: y range, the floor a player stands on, the cavern's height.
DIMENSIONS: dict[str, dict[str, int]] = {
    "nether": {"y_min": -3100, "y_max": -2900, "floor": -3000, "open": 12},
    "end": {"y_min": -4100, "y_max": -3900, "floor": -4000, "open": 12},
}
#: The overworld's biomes end above the other dimensions.
OVERWORLD_BOTTOM = -2500
_DIMENSION_STONE = {"nether": "netherrack", "end": "end_stone"}


def mc(name: str) -> str:
    """The game's name of a Minecraft name (``stone`` -> ``minecraft:stone``)."""
    return f"{NAMESPACE}:{name}"


def colour(name: str) -> str:
    """A plain colour for a name, the same on every build (``#rrggbb``)."""
    digest = hashlib.sha256(name.encode()).digest()
    return "#" + "".join(f"{64 + b % 160:02x}" for b in digest[:3])


def _rating(hardness: float) -> int:
    return 1 if hardness >= 3 else 2 if hardness >= 1 else 3


def _tier_levels(kn: Any) -> dict[str, int]:
    return {item: tier.level for tier in kn.tool_tiers for item in tier.items}


def node_groups(name: str, block: dict[str, Any], levels: dict[str, int]) -> dict[str, int]:
    """The dig groups of a block (see the module docstring)."""
    if not block.get("diggable", True):
        return {"unbreakable": 1}
    hardness = float(block.get("hardness") or 0)
    rating = _rating(hardness)
    groups: dict[str, int] = {}
    for part in (block.get("material") or "").split(";"):
        if part in _GROUPS:
            groups[_GROUPS[part]] = rating
    tools = block.get("harvest_tools") or []
    if tools:
        kinds = {t.rsplit("_", 1)[-1] for t in tools}
        for kind in sorted(kinds):
            if kind in _TOOL_GROUP:
                groups[_TOOL_GROUP[kind]] = rating
        groups["level"] = min(levels.get(t, 0) for t in tools)
    else:
        groups["handy"] = rating
    if hardness == 0 and not tools:
        groups["dig_immediate"] = 3
    if "leaves" in (block.get("material") or ""):
        groups["leaves"] = 1
    return groups


def _independent(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for line in lines:
        rarity = max(1, round(1 / line["chance"]))
        low, high = int(line.get("min", 1)), int(line.get("max", 1))
        item = mc(line["item"])
        if low > 0:
            out.append({"items": [f"{item} {low}" if low > 1 else item], "rarity": rarity})
        for _ in range(max(0, high - max(low, 0))):
            out.append({"items": [item], "rarity": rarity * 2})
    return out


def not_prefixed(prefix: str) -> list[str]:
    """Drop-line tool patterns (``~`` + a Lua pattern) that every item name matches unless it starts with ``prefix``.

    Luanti's ``tools`` only include: the complement of a prefix is the names that stop short of it or differ from
    it at one of its characters, one pattern each (the hand, ``""``, is one of them). ``prefix`` holds no pattern
    magic characters.

    Example:
        >>> not_prefixed("ab")
        ['~^$', '~^[^a]', '~^a$', '~^a[^b]']

    """
    return [p for i, c in enumerate(prefix) for p in (f"~^{prefix[:i]}$", f"~^{prefix[:i]}[^{c}]")]


def silk_prefix() -> str:
    """The game's names of the Silk Touch tools start with this (``minecraft:silk_touch_diamond_pickaxe``)."""
    return mc("silk_touch_")


def drop_table(name: str, block: dict[str, Any], shears: dict[str, int] | None,
               silk_tools: list[str] | None = None) -> dict[str, Any] | str | None:
    """The engine's drop definition of a block: None drops itself, ``""`` nothing, else a drop table.

    ``silk_tools``: the game's Silk Touch tools; a block's Silk Touch lines are then a line for those tools (first)
    and its other lines are for every other tool and the hand (:func:`not_prefixed`).
    """
    silk_lines = [d for d in block.get("drops") or [] if d.get("silk_touch")]
    lines = [d for d in block.get("drops") or [] if not d.get("silk_touch")]
    silk = sum(d["chance"] for d in silk_lines)
    if silk and silk < 1:
        lines = [{**d, "chance": min(1.0, d["chance"] / (1 - silk))} for d in lines]
    lines = [d for d in lines if d.get("chance", 1) > 0 and int(d.get("max", 1)) > 0]
    # With Silk Touch a block drops its Silk Touch items for sure (minecraft-data's chance is the line's share of
    # a silk/no-silk pair) and nothing else.
    silked = [{"items": [mc(d["item"])], "tools": list(silk_tools)} for d in silk_lines] if silk_tools else []
    plain = not_prefixed(silk_prefix()) if silked else None
    shear_lines = [{"items": [mc(item) + (f" {n}" if n > 1 else "")], "tools": [mc("shears")]}
                   for item, n in (shears or {}).items()]
    if not lines and not shear_lines and not silked:
        return ""
    if not shear_lines and len(lines) == 1 and lines[0]["item"] == name and lines[0]["chance"] >= 0.999 \
            and int(lines[0].get("min", 1)) == 1 and int(lines[0].get("max", 1)) == 1 \
            and all(d["item"] == name for d in silk_lines):
        return None
    total = sum(d["chance"] for d in lines)
    if len(lines) > 1 and abs(total - 1) < 0.01 and not shear_lines:
        ordered = sorted(lines, key=lambda d: (d["chance"], d["item"]))
        items = []
        for index, line in enumerate(ordered):
            count = int(line.get("max", 1)) if int(line.get("min", 1)) == int(line.get("max", 1)) \
                else round((int(line.get("min", 1)) + int(line.get("max", 1))) / 2)
            entry: dict[str, Any] = {"items": [f"{mc(line['item'])} {count}" if count > 1 else mc(line["item"])]}
            if index < len(ordered) - 1:
                entry["rarity"] = max(1, round(1 / line["chance"]))
            if count > 0:
                items.append(entry)
        # one slot: a Silk Touch tool takes it with the first line, the others go on to the alternatives
        return {"max_items": 1, "items": silked[:1] + items}
    plain_lines = [{**line, "tools": plain} if plain else line for line in _independent(lines)]
    return {"items": silked + shear_lines + plain_lines}


def _drawtype(name: str, block: dict[str, Any], crops: set[str]) -> str:
    material = block.get("material") or ""
    if name in _LIQUIDS:
        return "liquid"
    if "plant" in material or name in crops or "vine" in material or name in ("fire", "cobweb", "soul_fire"):
        return "plantlike"
    return "normal"


def nodes(kn: Any) -> list[dict[str, Any]]:
    """Every Minecraft block as a node definition (plain data for the game's Lua)."""
    levels = _tier_levels(kn)
    crops = {p.block for p in kn.placements}
    foods = {name: float(food.get("food_points", 1)) for name, food in kn.foods.items()}
    silk = sorted(mc(t) for t in kn.enchanted)
    out = []
    for name in sorted(kn.blocks):
        block = kn.blocks[name]
        item = kn.items.get(name, {})
        entry: dict[str, Any] = {
            "name": mc(name), "description": block.get("display") or name, "color": colour(name),
            "drawtype": _drawtype(name, block, crops), "groups": node_groups(name, block, levels),
            "stack": int(item.get("stack", 64)),
        }
        drop = drop_table(name, block, kn.sheared(name), silk)
        if drop is not None:
            entry["drop"] = drop
        if name not in kn.items:
            entry["groups"] = {**entry["groups"], "not_in_creative_inventory": 1}
        if name in foods:
            entry["food"] = foods[name]
        out.append(entry)
    return out


def _tool_caps(kn: Any, name: str) -> dict[str, Any] | None:
    kind = name.rsplit("_", 1)[-1]
    tier = kn.tool_tier_of(name)
    damage = {w_item: w.damage for w in (kn.combat.weapons if kn.combat else []) for w_item in w.items}
    if name == "shears":
        groups = {"snappy": 1.0, "swordy": 1.0}
        return {"full_punch_interval": 1.0, "max_drop_level": 0, "damage_groups": {"fleshy": 1},
                "groupcaps": {g: {"times": {str(r): round(_RATING_HARDNESS[r] / 5 * speed, 2) for r in (1, 2, 3)},
                                  "uses": 238, "maxlevel": 0} for g, speed in groups.items()}}
    if tier is None or kind not in _TOOL_GROUP:
        return None
    times = {str(r): round(max(0.05, _RATING_HARDNESS[r] * 1.5 / tier.speed), 2) for r in (1, 2, 3)}
    caps = {_TOOL_GROUP[kind]: {"times": times, "uses": tier.durability, "maxlevel": tier.level}}
    hit = damage.get(name, max(1.0, tier.level + 2.0))
    return {"full_punch_interval": 0.625 if kind == "sword" else 1.0, "max_drop_level": tier.level,
            "groupcaps": caps, "damage_groups": {"fleshy": round(hit)}}


def items(kn: Any) -> list[dict[str, Any]]:
    """Every Minecraft item that is not a block: tools (with capabilities) and craft items (food: eaten).

    Then the potions the library names (minecraft-data has one ``potion`` item for all), those in a bottle drunk
    and the bottle given back. Then the Silk Touch tools (``silk_touch_<tool>``, :func:`enchanting`): tools with
    their tool's capabilities, whose name the Silk Touch drop lines ask for.
    """
    placements = {p.item: mc(p.block) for p in kn.placements}
    foods = {name: float(food.get("food_points", 1)) for name, food in kn.foods.items()}
    drinks = _drinks(kn)
    containers = kn.mechanisms.containers if kn.mechanisms is not None else None
    out = []
    for name in sorted(set(kn.items) - set(kn.blocks)):
        item = kn.items[name]
        entry: dict[str, Any] = {"name": mc(name), "description": item.get("display") or name,
                                 "color": colour(name), "stack": int(item.get("stack", 64))}
        caps = _tool_caps(kn, name)
        if caps is not None or item.get("durability"):
            entry["type"] = "tool"
            entry["stack"] = 1
            if caps is not None:
                entry["tool_capabilities"] = caps
        else:
            entry["type"] = "craft"
        if name in foods:
            entry["food"] = foods[name]
            back = containers.after_eating(name) if containers is not None else None
            if back is not None:  # a stew's bowl (containers.yaml)
                entry["returns"] = mc(back)
        if name in drinks:
            entry["food"], entry["returns"] = 0.0, drinks[name]
        if name in placements:
            entry["places"] = placements[name]
        out.append(entry)
    potions = kn.mechanisms.brewing.items if kn.mechanisms is not None else []
    for name in sorted(set(potions) - set(kn.items)):
        entry = {"name": mc(name), "description": name.replace("_", " "), "color": colour(name), "stack": 1,
                 "type": "craft"}
        if name in drinks:
            entry["food"], entry["returns"] = 0.0, drinks[name]
        out.append(entry)
    by_name = {entry["name"]: entry for entry in out}
    for enchanted, tool in sorted(kn.enchanted.items()):
        base = by_name.get(mc(tool))
        if base is not None and base.get("tool_capabilities"):
            out.append({**base, "name": mc(enchanted), "description": f"{base['description']} (Silk Touch)",
                        "color": colour(enchanted)})
    for made, item in sorted(anvil_results(kn).items()):  # an anvil's result is its item, named or enchanted
        base = by_name.get(mc(item)) or {"name": mc(item), "description": kn.items[item].get("display") or item,
                                         "stack": int(kn.items[item].get("stack", 64)), "type": "craft"}
        how = "named" if made.startswith(kn.mechanisms.anvil.renamed_prefix) else "enchanted"
        entry = {k: v for k, v in base.items() if k not in ("places", "food", "returns")}
        out.append({**entry, "name": mc(made), "description": f"{base['description']} ({how})", "color": colour(made)})
    return out


def _drinks(kn: Any) -> dict[str, str]:
    """What is drunk (the potions in a bottle, milk) and the container drinking it gives back, in game names."""
    brewing = kn.mechanisms.brewing if kn.mechanisms is not None else None
    if brewing is None:
        return {}
    drinks = {brewing.name(p.id): mc(brewing.bottle) for p in brewing.potions}
    drinks["potion"] = mc(brewing.bottle)  # Minecraft's water bottle, which filling a bottle gives (:func:`brewing`)
    drinks.update({d.item: mc(d.returns) for d in brewing.drinks if d.returns})
    return drinks


def variants(kn: Any) -> list[dict[str, Any]]:
    """Blocks an item places in another form: on a wall, or into a block it is placed on.

    On a wall: a banner, a sign, a head; into a block: a candle onto a cake, a plant into a flower pot, a bucket
    into a cauldron (giving the bucket back). From the knowledge's ``block_variants.yaml`` (those against the
    ground are left out: bamboo starts as bamboo) and the potted blocks (a block with no item of its own that
    drops a flower pot and one plant, as ``taskverse.library.mechanisms.pots`` reads them). Each entry: ``item``,
    ``block``, ``wall`` or ``into``, and ``returns`` (items given back).
    """
    out: list[dict[str, Any]] = []
    table = kn.mechanisms.block_variants.variants if kn.mechanisms is not None else []
    for v in table:
        if v.item not in kn.items or v.block not in kn.blocks or v.against == "ground":
            continue
        entry: dict[str, Any] = {"item": mc(v.item), "block": mc(v.block)}
        if v.into is not None:
            if v.into not in kn.blocks:
                continue
            entry["into"] = mc(v.into)
        else:
            entry["wall"] = True
        entry["returns"] = [mc(r) for r in v.returns if r in kn.items]
        out.append(entry)
    for change in changes(kn):  # an item placed as another block in a change (a coral fan on a wall)
        if change["item"] and change["item"] != change["block"]:
            out.append({"item": change["item"], "block": change["block"], "wall": True, "returns": []})
    for block, info in sorted(kn.blocks.items()):
        dropped = sorted(d["item"] for d in info.get("drops") or [] if d.get("chance") == 1)
        if block in kn.items or len(dropped) != 2 or "flower_pot" not in dropped:
            continue
        (plant,) = [d for d in dropped if d != "flower_pot"]
        if plant in kn.items and "flower_pot" in kn.blocks:
            out.append({"item": mc(plant), "block": mc(block), "into": mc("flower_pot"), "returns": []})
    return sorted(out, key=lambda e: (e["item"], e["block"]))


#: Minecraft's brewing time: 400 ticks (Minecraft Wiki, Brewing Stand).
BREW_SECONDS = 20.0
#: Bottles a brewing stand holds (Minecraft Wiki, Brewing Stand).
BREW_BOTTLES = 3


def brewing(kn: Any) -> dict[str, Any]:
    """The brewing stand and filling bottles, from ``brewing.yaml``, in game names.

    ``recipes``: base potion -> ingredient -> result (the table's mixes; each container mix for every potion),
    with ``minecraft:potion`` brewing as the water bottle does (see the module docstring); ``fills``: a container ->
    the block it is filled at and the item it becomes (the fills at a block; the dragon's breath is left out);
    the stand, its fuel, ``brews_per_fuel``, ``seconds`` a brew and ``bottles`` it holds; ``leaves``: an ingredient ->
    the container it leaves in the stand (dragon's breath its bottle: ``containers.yaml``). Empty without the table.
    """
    table = kn.mechanisms.brewing if kn.mechanisms is not None else None
    if table is None or table.station not in kn.blocks or table.fuel not in kn.items:
        return {}
    water = table.name("water")
    recipes: dict[str, dict[str, str]] = {}
    ingredients: set[str] = set()

    def add(base: str, ingredient: str, result: str) -> None:
        if ingredient in kn.items:
            ingredients.add(ingredient)
            for name in (base, *(["potion"] if base == water and "potion" in kn.items else [])):
                recipes.setdefault(mc(name), {}).setdefault(mc(ingredient), mc(result))

    for mix in table.mixes:
        add(table.name(mix.base), mix.ingredient, table.name(mix.result))
    for c in table.containers:
        for p in table.potions:
            add(table.name(p.id, c.base), c.ingredient, table.name(p.id, c.result))
    containers = kn.mechanisms.containers
    leaves = {mc(i): mc(back) for i in sorted(ingredients) if (back := containers.remainder(i))}
    return {"stand": mc(table.station), "fuel": mc(table.fuel), "brews_per_fuel": table.brews_per_fuel,
            "seconds": BREW_SECONDS, "bottles": BREW_BOTTLES,
            "recipes": {base: dict(sorted(r.items())) for base, r in sorted(recipes.items())},
            "leaves": leaves}


def fills(kn: Any) -> dict[str, dict[str, dict[str, Any]]]:
    """Containers filled at a block: container -> block -> ``gives`` (the filled item) and ``takes`` (the block).

    A glass bottle at water (``brewing.yaml``) gives ``minecraft:potion``, Minecraft's water bottle, and the water
    stays; a bucket (``buckets.yaml``) takes the source it is filled at.
    """
    mech = kn.mechanisms
    if mech is None:
        return {}
    water = mech.brewing.name("water")
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for table, takes in ((mech.brewing, False), (mech.buckets, True)):
        for f in table.fills:
            known = f.item in kn.items or f.item == water
            if f.kind == "block" and f.at in kn.blocks and f.container in kn.items and known:
                made = "potion" if f.item == water and "potion" in kn.items else f.item
                out.setdefault(mc(f.container), {})[mc(f.at)] = {"gives": mc(made), "takes": takes}
    return {c: dict(sorted(at.items())) for c, at in sorted(out.items())}


def milking(kn: Any) -> dict[str, dict[str, str]]:
    """Containers an animal fills (``buckets.yaml``: a bucket used on a cow gives milk): mob -> container -> item."""
    mech = kn.mechanisms
    out: dict[str, dict[str, str]] = {}
    for f in mech.buckets.fills if mech is not None else []:
        if f.kind == "entity" and f.at in kn.mobs and f.container in kn.items and f.item in kn.items:
            out.setdefault(mc(f.at), {})[mc(f.container)] = mc(f.item)
    return dict(sorted(out.items()))


def laying(kn: Any) -> dict[str, dict[str, Any]]:
    """Animals that lay an item by themselves (``husbandry.yaml``: a chicken's egg): mob -> ``item`` and ``seconds``.

    ``seconds`` is the least and the most between two (Minecraft's ticks / 20: 300 to 600 s for an egg); an adult
    lays, a baby does not (``animals.lua``).
    """
    mech = kn.mechanisms
    out: dict[str, dict[str, Any]] = {}
    for lay in mech.husbandry.laying if mech is not None else []:
        if lay.animal in kn.mobs and lay.item in kn.items:
            out[mc(lay.animal)] = {"item": mc(lay.item), "seconds": [t / 20 for t in lay.ticks]}
    return dict(sorted(out.items()))


#: Where a block changes (``transformations.yaml`` says what a change needs, not where it stops): concrete powder
#: hardens touching water; coral dies out of water. The other changes (copper weathering, about 27 minutes a stage,
#: anvils worn by use) the game does not run.
_CHANGE_WATER = {"harden": "touching", "dry": "away"}
#: Changes slower than this (seconds) are left out: no episode waits for them.
MOST_CHANGE_SECONDS = 30.0


def changes(kn: Any) -> list[dict[str, Any]]:
    """Blocks the world changes into others by themselves, as the game runs them.

    From ``transformations.yaml``: each change of a group the game runs (:data:`_CHANGE_WATER`), whose blocks it
    has, with ``seconds`` (its average ticks / 20: Minecraft's 20 ticks a second), ``water`` (``touching``: the
    change happens only touching water; ``away``: only out of it) and ``item`` (what the player places as the block).
    """
    out: list[dict[str, Any]] = []
    if kn.mechanisms is None:
        return out
    table = kn.mechanisms.transformations
    for group in table.groups:
        if group.verb not in _CHANGE_WATER or group.chance < 1:
            continue
        for change in group.changes:
            seconds = round(table.ticks_of(group, change) / 20, 3)
            item = change.item or change.block
            if change.block not in kn.blocks or change.becomes not in kn.blocks or seconds > MOST_CHANGE_SECONDS:
                continue
            out.append({"verb": group.verb, "block": mc(change.block), "becomes": mc(change.becomes),
                        "item": mc(item) if item in kn.items else "", "seconds": seconds,
                        "water": _CHANGE_WATER[group.verb]})
    return sorted(out, key=lambda e: (e["block"], e["becomes"]))


def stripping(kn: Any) -> dict[str, Any]:
    """Logs an axe strips (``stripping.yaml``): ``tools`` (the tag's items), ``pairs`` (log -> stripped block)."""
    table = kn.mechanisms.stripping if kn.mechanisms is not None else None
    if table is None:
        return {"tools": [], "pairs": {}}
    tools = sorted(mc(t) for t in kn.tags.get(table.tools, []) if t in kn.items)
    pairs = {mc(p.log): mc(p.stripped) for p in table.pairs if p.log in kn.blocks and p.stripped in kn.blocks}
    return {"tools": tools, "pairs": dict(sorted(pairs.items()))}


def tool_uses(kn: Any) -> list[dict[str, Any]]:
    """What hoes, shovels and shears turn blocks into (``tool_uses.yaml``).

    Per group: its verb, ``tools`` (the tag's items, or the one item), ``pairs`` (block -> the block it becomes) and
    ``drops`` (block -> item -> count: a carved pumpkin's seeds).
    """
    table = kn.mechanisms.tool_uses if kn.mechanisms is not None else None
    out: list[dict[str, Any]] = []
    for group in table.groups if table is not None else []:
        names = kn.tags.get(group.tools) or ([group.tools] if group.tools in kn.items else [])
        tools = sorted(mc(t) for t in names if t in kn.items)
        kept = [p for p in group.pairs if p.block in kn.blocks and p.becomes in kn.blocks]
        pairs = {mc(p.block): mc(p.becomes) for p in kept}
        drops = {mc(p.block): {mc(i): n for i, n in sorted(p.drops.items()) if i in kn.items} for p in kept if p.drops}
        if tools and pairs:
            out.append({"verb": group.verb, "tools": tools, "pairs": dict(sorted(pairs.items())),
                        "drops": dict(sorted(drops.items()))})
    return out


def bookshelf_ring() -> list[tuple[int, int, int]]:
    """Where a bookshelf powers an enchanting table (Minecraft's ``BOOKSHELF_OFFSETS``), its own height first.

    Two blocks out, on the edge of the 5 x 5 square around it, at its height or one above.

    Example:
        >>> len(bookshelf_ring()), bookshelf_ring()[0]
        (32, (-2, 0, -2))

    """
    return sorted(((dx, dy, dz) for dy in (0, 1) for dx in range(-2, 3) for dz in range(-2, 3)
                   if max(abs(dx), abs(dz)) == 2), key=lambda o: (o[1], o[0], o[2]))


def power_transmitters(kn: Any) -> list[str]:
    """The game's nodes a bookshelf's power passes through to the table (``enchanting.yaml``'s ``transmitters``).

    Minecraft's air blocks are the engine's ``air``; a liquid's flowing node is the liquid (Minecraft's water at
    any level is water). A flower or a crop, which the game's nodes let a placed block replace, is none.
    """
    mech = kn.mechanisms
    if mech is None:
        return []
    no_block = {n for group in mech.breaking.not_blocks for n in group.names}
    out = set()
    for name in mech.enchanting.transmitters:
        if name in no_block:
            out.add("air")
        elif name in kn.blocks:
            out.update([mc(name), mc(name) + "_flowing"] if name in _LIQUIDS else [mc(name)])
    return sorted(out)


def enchanting(kn: Any) -> dict[str, Any]:
    """The enchanting table's Silk Touch (``enchanting.yaml``), as the game runs it (see the module docstring).

    ``station``, ``bookshelf`` (``bookshelves`` of them around it), ``lapis`` (``lapis_count`` a try), ``reset``
    (the grindstone a missed try needs), and per tool its Silk Touch tool and the chance one try gives it (the
    library's ``enchant.silk_touch_<tool>``: :func:`taskverse.library.mechanisms.enchant_chance`).
    """
    table = kn.mechanisms.enchanting if kn.mechanisms is not None else None
    if table is None:
        return {"tools": []}
    tools = [{"tool": mc(t.item), "enchanted": mc(table.enchanted(t.item)), "chance": enchant_chance(kn, t.item)}
             for t in table.tools if t.item in kn.items]
    return {"station": mc(table.station), "bookshelf": mc("bookshelf"), "bookshelves": table.bookshelves,
            "ring": [list(offset) for offset in bookshelf_ring()], "transmitters": power_transmitters(kn),
            "lapis": mc("lapis_lazuli"), "lapis_count": table.lapis, "reset": mc(table.reset), "level": table.level,
            "tools": tools}


def hand(kn: Any) -> dict[str, Any]:
    """The hand's capabilities: digs ``handy`` blocks at Minecraft's hand speed; the combat table's punch."""
    damage = kn.combat.player.hand.damage if kn.combat else 1.0
    times = {str(r): round(_RATING_HARDNESS[r] * 1.5, 2) for r in (1, 2, 3)}
    return {"full_punch_interval": 0.25, "max_drop_level": 0, "damage_groups": {"fleshy": round(damage)},
            "groupcaps": {"handy": {"times": times, "uses": 0, "maxlevel": 0}}}


def crafts(kn: Any) -> list[dict[str, Any]]:
    """Recipes with their counts (shaped and shapeless), smelting (10 s) and fuels (10 s an item smelted)."""
    out: list[dict[str, Any]] = []
    containers = kn.mechanisms.containers if kn.mechanisms is not None else None

    def left(cells: list[str]) -> dict[str, Any]:
        """The engine's ``replacements``: a pair per used-up cell that leaves its container (a cake's buckets)."""
        pairs = [[mc(c), mc(back)] for c in cells if c and containers is not None
                 and (back := containers.remainder(c)) is not None]
        return {"replacements": pairs} if pairs else {}

    for result in sorted(kn.raw_recipes):
        for variant in kn.raw_recipes[result]:
            output = mc(result) + (f" {variant['count']}" if int(variant.get("count", 1)) > 1 else "")
            if "shape" in variant:
                rows = [[mc(c) if c else "" for c in row] for row in variant["shape"]]
                out.append({"output": output, "recipe": rows, **left([c for row in variant["shape"] for c in row])})
            else:
                out.append({"type": "shapeless", "output": output, "recipe": [mc(c) for c in variant["ingredients"]],
                            **left(variant["ingredients"])})
    for special in kn.mechanisms.special_recipes.recipes if kn.mechanisms is not None else []:
        # the recipes Minecraft defines in code (special_recipes.yaml: a shulker box dyed), shapeless, one per
        # choice of its ingredients (a tag's or a list's members)
        choices = [[item for item in (ing.items or kn.tags.get(ing.tag or "", [])) if item in kn.items]
                   for ing in special.ingredients]
        if special.result not in kn.items or not all(choices):
            continue
        output = mc(special.result) + (f" {special.count}" if special.count > 1 else "")
        for picked in itertools.product(*choices):
            cells = [mc(item) for item, ing in zip(picked, special.ingredients, strict=True) for _ in range(ing.count)]
            out.append({"type": "shapeless", "output": output, "recipe": cells})
    for recipe in sorted(kn.smelting, key=lambda r: (r.output, r.input)):
        out.append({"type": "cooking", "output": mc(recipe.output) + (f" {recipe.count}" if recipe.count > 1 else ""),
                    "recipe": mc(recipe.input), "cooktime": COOK_SECONDS})
    for fuel in sorted(kn.fuels, key=lambda f: f.item):
        out.append({"type": "fuel", "recipe": mc(fuel.item), "burntime": round(fuel.smelts * COOK_SECONDS, 2),
                    **left([fuel.item])})
    return out


def _overworld_surface(kn: Any) -> list[str]:
    return sorted(n for n, b in kn.biomes.items() if b.get("dimension") == "overworld"
                  and b.get("category") not in ("underground", "none"))


def biomes(kn: Any) -> list[dict[str, Any]]:
    """Overworld biomes for the flat map: heat from Minecraft's temperature, each biome its own climate point."""
    specific: dict[str, list[str]] = {}
    for block in kn.natural_blocks.values():
        if block.dimension == "overworld" and block.where == "surface" and block.biomes and \
                (kn.blocks.get(block.name, {}).get("material") == "mineable/shovel") and \
                block.name not in ("snow", "dirt", "clay"):
            for biome in block.biomes:
                specific.setdefault(biome, []).append(block.name)
    out = []
    surface = _overworld_surface(kn)
    by_heat: dict[float, list[str]] = {}
    for name in surface:
        by_heat.setdefault(float(kn.biomes[name].get("temperature", 0.5)), []).append(name)
    for name in surface:
        info = kn.biomes[name]
        temperature = float(info.get("temperature", 0.5))
        peers = by_heat[temperature]
        top = _CATEGORY_TOP.get(info.get("category", ""), sorted(specific.get(name, ["grass_block"]))[0])
        filler = top if top in ("sand", "red_sand", "snow_block") else "dirt"
        out.append({"name": name, "node_top": mc(top), "depth_top": 1, "node_filler": mc(filler), "depth_filler": 3,
                    "y_min": OVERWORLD_BOTTOM, "y_max": 31000,
                    "heat_point": round(min(100.0, max(0.0, 50 + 25 * temperature)), 2),
                    "humidity_point": round(100 * (peers.index(name) + 0.5) / len(peers), 2)})
    for name, (low, high) in sorted(_UNDERGROUND_BIOMES.items()):
        if name in kn.biomes:
            out.append({"name": name, "node_top": mc("stone"), "depth_top": 1, "node_filler": mc("stone"),
                        "depth_filler": 1, "y_min": low + Y_SHIFT, "y_max": high + Y_SHIFT,
                        "heat_point": 50.0, "humidity_point": 50.0})
    return out + dimension_biomes(kn)


def _dimension_ground(kn: Any, dimension: str) -> dict[str, list[str]]:
    """Per biome of a dimension: its own solid ground blocks (crimson nylium, soul sand...), sorted."""
    out: dict[str, list[str]] = {}
    for block in kn.natural_blocks.values():
        material = kn.blocks.get(block.name, {}).get("material", "")
        if block.dimension == dimension and block.where == "surface" and block.biomes and \
                material in ("mineable/pickaxe", "mineable/shovel"):
            for biome in block.biomes:
                out.setdefault(biome, []).append(block.name)
    # the most characteristic first: the block of the fewest biomes (crimson nylium of the crimson forest)
    spread = {b.name: len(b.biomes or ()) for b in kn.natural_blocks.values()}
    return {biome: sorted(names, key=lambda n: (spread[n], n)) for biome, names in out.items()}


def dimension_biomes(kn: Any) -> list[dict[str, Any]]:
    """The Nether's and the End's biomes, in their layers: their stone is the dimension's own."""
    out = []
    for dimension, layer in DIMENSIONS.items():
        names = sorted(n for n, b in kn.biomes.items() if b.get("dimension") == dimension)
        ground = _dimension_ground(kn, dimension)
        stone = _DIMENSION_STONE[dimension]
        for index, name in enumerate(names):
            top = (ground.get(name) or [stone])[0] if dimension == "nether" else stone
            out.append({"name": name, "node_stone": mc(stone), "node_top": mc(top), "depth_top": 1,
                        "node_filler": mc(stone), "depth_filler": 1,
                        "y_min": layer["y_min"], "y_max": layer["y_max"], "heat_point": 50.0,
                        "humidity_point": round(100 * (index + 0.5) / len(names), 2)})
    return out


def dimension_ores(kn: Any) -> list[dict[str, Any]]:
    """Each dimension's cavern (an ore of air), each biome's floor, and the dimension's blocks in the floor."""
    out: list[dict[str, Any]] = []
    biome_list = dimension_biomes(kn)
    for dimension, layer in DIMENSIONS.items():
        floor, stone = layer["floor"], mc(_DIMENSION_STONE[dimension])
        out.append({"ore_type": "stratum", "ore": "air", "wherein": [stone], "y_min": floor + 1,
                    "y_max": floor + layer["open"], "clust_scarcity": 1, "clust_num_ores": 1, "clust_size": 1})
        # the biomes' own grounds as patches of the floor, everywhere in the layer: the map generator filters ores
        # and decorations by the biome of the overworld's surface above, never by a layer's own biomes
        tops = sorted({b["node_top"] for b in biome_list if b["y_min"] == layer["y_min"] and b["node_top"] != stone})
        for top in tops:
            out.append({"ore_type": "scatter", "ore": top, "wherein": [stone], "y_min": floor, "y_max": floor,
                        "clust_scarcity": 4 * 4 * 4, "clust_num_ores": 8, "clust_size": 3})
        for block in sorted(kn.natural_blocks.values(), key=lambda b: b.name):
            if block.dimension != dimension or block.where != "underground" or block.name not in kn.blocks:
                continue
            out.append({"ore_type": "scatter", "ore": mc(block.name), "wherein": [stone], "y_min": floor - 16,
                        "y_max": floor, "clust_scarcity": 6 * 6 * 6, "clust_num_ores": 4, "clust_size": 2})
    return out


def dimension_decorations(kn: Any) -> list[dict[str, Any]]:
    """The dimensions' surface blocks standing on their caverns' floors (plants, glowstone, end rods...)."""
    out = []
    for dimension, layer in DIMENSIONS.items():
        for block in sorted(kn.natural_blocks.values(), key=lambda b: b.name):
            if block.dimension != dimension or block.where != "surface" or block.name not in kn.blocks or \
                    block.name == _DIMENSION_STONE[dimension]:
                continue
            out.append({"name": mc(block.name), "deco_type": "simple", "decoration": mc(block.name),
                        "biomes": [], "fill_ratio": 0.02, "y_min": layer["floor"],
                        "y_max": layer["floor"] + 1, "floors": True, "layer": dimension})
    return out


def ores(kn: Any) -> list[dict[str, Any]]:
    """Underground blocks at their Minecraft heights (scattered in stone; deepslate as its own layer)."""
    out = [{"ore_type": "stratum", "ore": mc("deepslate"), "wherein": [mc("stone")],
            "y_min": -64 + Y_SHIFT, "y_max": 0 + Y_SHIFT, "clust_scarcity": 1, "clust_num_ores": 1, "clust_size": 1}]
    registered = {b["name"] for b in biomes(kn)}
    for block in sorted(kn.natural_blocks.values(), key=lambda b: b.name):
        if block.dimension != "overworld" or block.where not in ("underground", "cave") or \
                block.name in ("stone", "deepslate", "water", "lava") or block.name not in kn.blocks:
            continue
        low, high = block.y_range or (-60, 40)
        y_min, y_max = low + Y_SHIFT, min(high + Y_SHIFT, GROUND_Y - 4)
        if y_min > y_max:
            continue
        wherein = [mc("deepslate")] if block.name.startswith("deepslate_") else [mc("stone")]
        entry = {"ore_type": "scatter", "ore": mc(block.name), "wherein": wherein, "y_min": y_min, "y_max": y_max,
                 "clust_scarcity": 8 * 8 * 8, "clust_num_ores": 6, "clust_size": 3}
        if block.biomes and block.where == "underground":  # cave blocks: everywhere in their heights
            entry["biomes"] = sorted(b for b in block.biomes if b in registered)
        out.append(entry)
    return out + dimension_ores(kn)


def decorations(kn: Any) -> list[dict[str, Any]]:
    """Every natural overworld surface block placed in its biomes: trees as trunk and leaves, the rest as is."""
    surface = _overworld_surface(kn)
    nest = kn.mechanisms.honey.natural if kn.mechanisms is not None else ""
    out = []
    for block in sorted(kn.natural_blocks.values(), key=lambda b: b.name):
        if block.dimension != "overworld" or block.where not in ("surface", "water") or block.name not in kn.blocks:
            continue
        if block.name in ("grass_block", "dirt", "sand") or block.name.endswith("_leaves") or block.name == nest:
            continue  # the ground, and what grows on trees (leaves, bee nests: see _nest_trees)
        where = sorted(b for b in (block.biomes or surface) if b in surface)
        if block.name == "water":  # pools of it in rivers and swamps (a flat world has no seas)
            where = [b for b in where if kn.biomes[b].get("category") in _WATER_CATEGORIES]
        if not where:
            continue
        # blocks of a few biomes are common there; those of every biome (pumpkins, sugar cane) are rare
        entry: dict[str, Any] = {"name": mc(block.name), "biomes": where, "fill_ratio": 0.03 if block.biomes else 0.005}
        if block.name.endswith("_log"):
            leaves = block.name.removesuffix("_log") + "_leaves"
            entry.update(deco_type="tree", trunk=mc(block.name),
                         leaves=mc(leaves) if leaves in kn.blocks else mc("oak_leaves"), fill_ratio=TREE_FILL)
            out += _nest_trees(kn, entry)
            continue
        entry.update(deco_type="simple", decoration=mc(block.name))
        out.append(entry)
    return out


#: Trees a map node of a tree biome's ground grows (one in a hundred).
TREE_FILL = 0.01


def _nest_trees(kn: Any, tree: dict[str, Any]) -> list[dict[str, Any]]:
    """A tree decoration split by the share of its trees that carry a bee nest in each biome (``honey.yaml``).

    The trees of a biome where nests grow on them are two decorations: with a nest (``fill_ratio`` the share) and
    without (the rest); other biomes' trees are one, without.
    """
    table = kn.mechanisms.honey if kn.mechanisms is not None else None
    log = tree["trunk"].split(":", 1)[1]
    if table is None or log not in table.trees.logs or table.natural not in kn.blocks:
        return [tree]
    by_chance: dict[float, list[str]] = {}
    for biome in tree["biomes"]:
        by_chance.setdefault(float(table.trees.chances.get(biome, 0.0)), []).append(biome)
    out = []
    for chance, biomes in sorted(by_chance.items()):
        # names kept apart: the engine's registered_decorations holds one decoration a name
        if chance < 1:
            out.append({**tree, "name": tree["name"] + (f" {chance:g}" if chance else ""), "biomes": biomes,
                        "fill_ratio": round(TREE_FILL * (1 - chance), 8)})
        if chance > 0:
            out.append({**tree, "name": f"{tree['name']} {table.natural} {chance:g}", "biomes": biomes,
                        "nest": mc(table.natural),
                        "fill_ratio": round(TREE_FILL * chance, 8)})
    return out


def hand_uses(kn: Any) -> dict[str, Any]:
    """The items used from the hand whose use the game counts when it happens.

    ``shoot``: the bow and its arrows, in the order it takes them (``shooting.yaml``); ``throw``: items thrown and
    picked up again, a trident (``throwing.yaml``); ``cast``: the fishing rod (``hooking.yaml``).
    """
    mech = kn.mechanisms
    if mech is None:
        return {"shoot": [], "throw": [], "cast": []}
    bow = mech.shooting
    ammo = [mc(a) for a in bow.ammo if a in kn.items]
    return {
        "shoot": [{"item": mc(bow.bow), "ammo": ammo}] if bow.bow in kn.items and ammo else [],
        "throw": sorted(mc(t.item) for t in mech.throwing.items if t.wears > 0 and t.item in kn.items),
        "cast": [mc(mech.hooking.rod)] if mech.hooking.rod in kn.items else [],
    }


def screens(kn: Any) -> list[str]:
    """The blocks whose right-click opens a screen the game counts (``screens.yaml``), each given one to open.

    A block whose click needs an item put into it (food on a campfire, a book on a lectern) is left out: the game
    has no such mechanism, and the compile step refuses its atoms.
    """
    mech = kn.mechanisms
    if mech is None:
        return []
    return sorted(mc(b.block) for b in mech.screens.blocks if not b.with_ and b.block in kn.blocks)


def honey(kn: Any) -> dict[str, Any]:
    """The blocks bees fill with honey, the full level, and what each item used on a full one gives.

    From ``honey.yaml``: ``blocks``, ``natural`` (the nest the map generates, full), ``full``, ``harvests`` (per
    item used: ``gives``, ``count``, ``wears`` (uses of a tool), ``uses_up``); game names, those the game has.
    """
    table = kn.mechanisms.honey if kn.mechanisms is not None else None
    if table is None:
        return {"blocks": [], "natural": "", "full": 0, "harvests": []}
    harvests = [{"tool": mc(h.tool), "gives": mc(h.gives), "count": h.count, "wears": h.wears, "uses_up": h.uses_up}
                for h in table.harvests if h.tool in kn.items and h.gives in kn.items]
    return {"blocks": [mc(b) for b in table.blocks if b in kn.blocks], "natural": mc(table.natural),
            "full": table.full, "harvests": harvests}


def storing(kn: Any) -> dict[str, Any]:
    """The containers a player stores items in, and the items the library stores (``storing.yaml``).

    ``containers``: game name -> its slots (a chest's 27), the blocks the game has; ``items``: the stored items'
    game names, those the game has. The game gives each container an inventory of its slots (``storing.lua``).
    """
    table = kn.mechanisms.storing if kn.mechanisms is not None else None
    if table is None:
        return {"containers": {}, "items": []}
    return {"containers": {mc(c.item): c.slots for c in table.containers if c.item in kn.blocks},
            "items": [mc(i.item) for i in table.items if i.item in kn.items]}


#: How near a villager its job site block must stand for it to take the block's profession (Minecraft: 48).
JOB_RADIUS = 16


def trading(kn: Any) -> dict[str, Any]:
    """Villagers' professions and their offers (``trades.yaml``), in game names.

    Each profession: ``job_site`` (the block that gives a villager it) and ``offers``, each ``gives`` (an item),
    ``count`` and ``price`` (stacks: emeralds and the trade's other items for what a villager sells; the items it
    buys for its emeralds). An enchanted item a villager sells (``enchanted_<item>``: a toolsmith's enchanted
    pickaxe) is the game's enchanted item, the one its anvil makes, for the trade's lowest price (the game does not
    draw the enchantment level the price grows with). Offers whose items the game lacks are left out, and so are
    those that depend on a villager's type (``biomes``: a fisherman's boat), which the generated villager has none
    of; demand is not modelled, as in the table. Each offer has its ``level`` and the villager experience it gives
    (``xp``), and ``levels`` lists each level with the experience a villager reaches it at, in order: a villager
    trades an offer once its experience reaches the offer's level (``trading.lua``). Each offer has its ``uses``, the
    trades one villager makes of it before it locks (the game's ``maxUses``): the number the world model's stock of
    the offer holds (:func:`taskverse.world.rules.stocks_from_knowledge`, from the same ``trades.yaml``).
    """
    table = kn.mechanisms.trading if kn.mechanisms is not None else None
    # the game's items: the game data's, and the enchanted ones the anvil makes (an armorer's enchanted gear)
    known = {*kn.items, *anvil_results(kn)}
    out: list[dict[str, Any]] = []
    for prof in table.professions if table is not None else []:
        if prof.job_site not in kn.blocks:
            continue
        offers = []
        for trade in prof.sells:
            also = [{"item": mc(trade.also.item), "count": trade.also.count}] if trade.also else []
            for item in trade.goods:
                offers.append({"gives": mc(item), "count": trade.count, "level": trade.level, "xp": trade.xp,
                               "uses": trade.uses,
                               "price": [{"item": mc("emerald"), "count": trade.emeralds}, *also]})
        for buy in (b for b in prof.buys if not b.biomes):
            offers.append({"gives": mc("emerald"), "count": buy.emeralds, "level": buy.level, "xp": buy.xp,
                           "uses": buy.uses, "price": [{"item": mc(buy.item), "count": buy.count}]})
        offers = [o for o in offers if all(n.split(":", 1)[1] in known for n in
                                           (o["gives"], *(p["item"] for p in o["price"])))]
        out.append({"profession": prof.profession, "job_site": mc(prof.job_site), "offers": offers})
    levels = [{"level": name, "xp": xp} for name, xp in table.levels.items()] if table is not None else []
    return {"villager": mc("villager") if "villager" in kn.mobs else "", "job_radius": JOB_RADIUS,
            "levels": levels, "professions": out, "wandering": wandering(kn)}


def wandering(kn: Any) -> dict[str, Any]:
    """The wandering trader's pools (``trades.yaml``), in game names; empty where the knowledge has no trader.

    ``trader`` (the mob), ``pools``: each ``picks`` (how many distinct offers a trader draws from it) and
    ``offers`` (``gives``, ``count``, ``price``, as a villager's, and ``uses``: how many times a trader makes it).
    The game draws a trader's offers once, the first time it is traded with or shown (``trading.lua``); offers
    whose items the game lacks stay in the pool as offers of nothing the game sells, so each real offer keeps
    Minecraft's chance, picks over the pool's size.
    """
    table = kn.mechanisms.trading.wandering_trader if kn.mechanisms is not None else None
    if table is None or table.mob not in kn.mobs:
        return {}
    pools = []
    for picks, pool in ((table.generic_offers, table.generic), (table.rare_offers, table.rare)):
        pools.append({"picks": picks, "offers": [
            {"gives": mc(o.item) if o.item in kn.items else "", "count": o.count, "uses": o.uses,
             "price": [{"item": mc(kn.mechanisms.trading.currency), "count": o.emeralds}]} for o in pool]})
    return {"trader": mc(table.mob), "pools": pools}


def stonecutting(kn: Any) -> dict[str, Any]:
    """The stonecutter's recipes (``stonecutting.yaml``), in game names: ``station`` and ``cuts``.

    Each cut: ``input`` (one item taken), ``output`` and ``count`` (what it gives), in the file's order; cuts whose
    items the game lacks are left out. The game's stonecutter runs them (``stonecutting.lua``); empty where the
    knowledge has no stonecutter.
    """
    table = kn.mechanisms.stonecutting if kn.mechanisms is not None else None
    if table is None or table.station not in kn.blocks:
        return {}
    cuts = [{"input": mc(cut.from_), "output": mc(result), "count": count}
            for cut in table.cuts for result, count in cut.makes.items()
            if cut.from_ in kn.items and result in kn.items]
    return {"station": mc(table.station), "cuts": cuts}


def anvil(kn: Any) -> dict[str, Any]:
    """The anvil's work (``anvil.yaml``), in game names, as the library's ``repair``, ``rename`` and ``combine`` atoms.

    ``stations`` (the anvils the game has), ``book`` (the enchanted book a combine takes), ``share`` (the share of
    the most durability a unit of material restores), ``renames`` and ``combines`` (each ``item`` and the
    ``result`` the anvil gives for it: ``named_<item>``, ``enchanted_<item>``) and ``repairs`` (each ``item`` and
    the ``materials`` a unit of which repairs it; none: only a second item). Entries whose items the game lacks are
    left out; empty where the knowledge has no anvil. The game's anvil runs them (``anvil.lua``).
    """
    mech = kn.mechanisms
    if mech is None:
        return {}
    table = mech.anvil
    stations = [mc(s) for s in table.stations if s in kn.blocks]
    if not stations:
        return {}
    renames = [{"item": mc(item), "result": mc(named)} for item, named in table.renamed.items() if item in kn.items]
    anyway = mech.enchanting.any_enchantment
    combines = []
    if anyway is not None and table.book in kn.items:  # the items the library's combine atoms enchant
        combines = [{"item": mc(item), "result": mc(anyway.enchanted(item))}
                    for item in sorted({*anyway.items, *table.also_combined})
                    if item in kn.items and anyway.enchanted(item) != table.book]
    repairs = [{"item": mc(item), "materials": [mc(m) for m in _tag_members(kn, group.materials) if m in kn.items]}
               for group in table.repairs for item in group.items if item in kn.items]
    return {"stations": stations, "book": mc(table.book), "share": table.unit_share, "renames": renames,
            "combines": combines, "repairs": repairs}


def anvil_results(kn: Any) -> dict[str, str]:
    """The items only the anvil makes (``named_<item>``, ``enchanted_<item>``), each with the item it is made from."""
    table = anvil(kn)
    return {e["result"].split(":", 1)[1]: e["item"].split(":", 1)[1]
            for e in [*table.get("renames", []), *table.get("combines", [])]}


def _tag_members(kn: Any, names: list[str]) -> list[str]:
    """Item names with ``#tag`` read as the tag's members, in the file's order."""
    return [m for n in names for m in (kn.tags[n[1:]] if n.startswith("#") else [n])]


#: Structures the game does not place: villages (villagers are another mechanism), those under the ground (a flat
#: world's rock has no caves for them) and the stronghold (found through its own mechanism, not a decoration).
_UNPLACED_STRUCTURES = frozenset({"village", "cave", "dungeon", "mineshaft", "ancient_city"})
#: How often a structure's stand-in is placed: one in this many ground nodes of its biomes (a stronghold, whose
#: portal room is larger: one in STRONGHOLD_SCARCITY, so that two rooms seldom stand side by side).
STRUCTURE_SCARCITY = 400
STRONGHOLD_SCARCITY = 4000
#: The end portal frame's blocks around its 3 x 3 portal (Minecraft's ring: three on each side), each an eye.
END_PORTAL_FRAMES = 12
#: The stronghold's portal room is PORTAL_ROOM x PORTAL_ROOM nodes, its marker at the corner (0, 0).
PORTAL_ROOM = 5


def held_blocks(kn: Any, structure: str, width: int, depth: int, own: set[str]) -> list[dict[str, Any]]:
    """The blocks a structure holds (``structure_blocks.yaml``), laid out beside its stand-in's own cells.

    The stand-in's own cells fill ``width`` x ``depth`` nodes from its marker at (0, 0) towards +x and +z; the
    held blocks follow one row of untouched ground further on (so the marker stays in sight from that side), in
    rows of ``ceil(sqrt(n))`` nodes (at least ``width``), sorted by name: each ``{"node", "x", "z"}``, offsets
    from the marker. A block the stand-in already holds (``own``: the stronghold's end portal frames) is left out.
    Example: an igloo's 13 blocks stand in 4 rows of 4, at z 2 to 5.
    """
    names = sorted(mc(name) for name, block in kn.structure_blocks.items()
                   if structure in block.structures and name in kn.blocks and mc(name) not in own)
    if not names:
        return []
    row = max(width, math.isqrt(len(names) - 1) + 1)
    return [{"node": node, "x": i % row, "z": depth + 1 + i // row} for i, node in enumerate(names)]


def portal_room() -> dict[str, str]:
    """The stronghold's end portal room: the frame, the frame holding an eye, the eye, the portal it opens."""
    return {"frame": mc("end_portal_frame"), "filled": mc("end_portal_frame_eye"), "eye": mc("ender_eye"),
            "portal": mc("end_portal")}


def structure_node(structure: str, looted: bool = False, chest: str | None = None) -> str:
    """The game's marker node of a structure (``minecraft:structure_<name>``; ``_looted`` once its chest is).

    With ``chest``, the node of the structure's chest of that further kind (``structure_loot.yaml``'s ``chest``),
    which stands beside the marker: ``minecraft:structure_stronghold_library`` (``_looted`` once opened).

    Example:
        >>> structure_node("stronghold", chest="library"), structure_node("stronghold", looted=True)
        ('minecraft:structure_stronghold_library', 'minecraft:structure_stronghold_looted')

    """
    return mc(f"structure_{structure}" + (f"_{chest}" if chest else "") + ("_looted" if looted else ""))


def _pools(kn: Any, pools: list[Any]) -> list[dict[str, Any]]:
    return [{"rolls": list(pool.rolls), "total_weight": pool.total_weight,
             "entries": [{"item": mc(e.item), "weight": e.weight, "count": e.count, "max": e.max or e.count}
                         for e in pool.entries if e.item in kn.items]}
            for pool in pools]


def structures(kn: Any) -> list[dict[str, Any]]:
    """The structures the map generator places, each a marker node with its loot table (see the module docstring).

    Each: ``name``, ``node`` (the marker), ``looted`` (its looted form), ``description``, ``color``, ``biomes``
    (the game's biomes it is placed in; empty on another dimension's floor), ``layer`` (that dimension, or
    absent), ``fill_ratio``, and ``pools``: the chest's loot pools (``rolls`` [min, max], ``total_weight``,
    ``entries`` of ``item``, ``weight``, ``count``, ``max``), empty for a structure without a chest, and ``held``:
    what the structure holds outside its chest (``item``, ``chance``: the share of structures that hold it); an
    archaeology structure's ``brush``: its suspicious ``block`` beside the marker, the block it ``becomes`` once
    brushed, the ``tool`` and its ``uses``, the ``biomes`` of the structures that hold it (empty: all of them)
    and the archaeology table's ``pools``; the stronghold's
    ``portal_room`` (:func:`portal_room`); ``chests``: a chest of each further kind the structure's chests draw
    from (``structure_loot.yaml``'s ``chest``: a stronghold's library, a bastion's treasure room), each its
    ``kind``, its ``node`` and ``looted`` form (:func:`structure_node`), ``x`` (its offset from the marker, on the
    marker's row, after the stand-in's other cells), ``share`` (the share of stand-ins that hold it, as of the
    structures that hold the kind at all) and its table's ``pools``; ``holds``: the blocks the structure holds,
    placed beside its stand-in (:func:`held_blocks`).
    """
    tables = kn.mechanisms.structure_loot.tables if kn.mechanisms is not None else []
    loot = {t.structure: t for t in tables if t.verb == "loot" and t.chest is None}  # the stand-in's chest
    kinds: dict[str, list[Any]] = {}  # the structure's further kinds of chest, in the file's order
    for t in tables:
        if t.verb == "loot" and t.chest is not None:
            kinds.setdefault(t.structure, []).append(t)
    brushed = {t.structure: t for t in tables if t.verb == "brush" and t.block is not None}
    ground = [b["name"] for b in biomes(kn) if b["y_min"] <= GROUND_Y + 1 <= b["y_max"]]
    out = []
    for name, structure in sorted(kn.structures.items()):
        if name in _UNPLACED_STRUCTURES or (structure.dimension != "overworld" and structure.dimension not in
                                            DIMENSIONS):
            continue
        entry: dict[str, Any] = {"name": name, "node": structure_node(name), "looted": structure_node(name, True),
                                 "description": f"{structure.display} (a stand-in)", "color": colour(name),
                                 "fill_ratio": round(1 / STRUCTURE_SCARCITY, 6), "biomes": [], "pools": []}
        if structure.dimension == "overworld":
            entry["biomes"] = sorted(b for b in (structure.biomes or ground) if b in ground)
            if not entry["biomes"]:
                continue
        else:
            entry["layer"] = structure.dimension
        width, depth, own = 1, 1, {entry["node"]}
        if name == "stronghold":
            entry["portal_room"] = portal_room()
            entry["fill_ratio"] = round(1 / STRONGHOLD_SCARCITY, 6)
            width, depth, own = PORTAL_ROOM, PORTAL_ROOM, {*own, *portal_room().values()}
        table = loot.get(name)
        if table is not None:
            entry["pools"] = _pools(kn, table.pools)
            entry["held"] = [{"item": mc(h.item), "chance": h.chance} for h in table.held if h.item in kn.items]
        brush = brushed.get(name)
        if brush is not None and brush.block is not None:
            tool = next(iter(brush.needs[0].any_of), "brush") if brush.needs else "brush"
            # a table of some of the structure's biomes (warm ocean ruins' suspicious sand): only those ruins
            # hold the block
            only = {b for n in brush.needs if n.kind.value == "biome" for b in n.any_of}
            entry["brush"] = {"block": mc(brush.block), "becomes": mc(brush.block.removeprefix("suspicious_")),
                              "tool": mc(tool), "uses": int(kn.items.get(tool, {}).get("durability", 0)),
                              "biomes": sorted(b for b in entry["biomes"] if b in only),
                              "pools": _pools(kn, brush.pools)}
            width, own = 2, {*own, entry["brush"]["block"]}
        entry["chests"] = []
        for kind in kinds.get(name, []):  # a further kind of chest: one beside the marker, in a row after its cells
            node = structure_node(name, chest=kind.chest)
            entry["chests"].append({"kind": kind.chest, "node": node, "looted": structure_node(name, True, kind.chest),
                                    "x": width, "share": kind.share, "pools": _pools(kn, kind.pools)})
            width, own = width + 1, {*own, node}
        entry["holds"] = held_blocks(kn, name, width, depth, own)
        out.append(entry)
    return out


def mobs(kn: Any) -> list[dict[str, Any]]:
    """Every mob with its health, attack, hostility and drops (mobs_redo: ``chance`` is 1 in N)."""
    out = []
    attacks = kn.combat.mobs if kn.combat else {}
    for name in sorted(kn.mobs):
        mob = kn.mobs[name]
        drops = []
        for line in kn.entity_loot.get(name, []):
            drops.append({"name": mc(line["item"]), "chance": max(1, round(1 / float(line.get("chance", 1)))),
                          "min": int(line.get("min", 1)), "max": int(line.get("max", 1))})
        for extra in mob.extra_drops:
            drops.append({"name": mc(extra.item), "chance": max(1, round(1 / extra.chance)), "min": extra.count,
                          "max": extra.max or extra.count})
        attack = attacks.get(name)
        hostile = mob.disposition in ("hostile", "boss")
        out.append({"name": mc(name), "description": kn.entities.get(name, {}).get("display") or name,
                    "color": colour(name), "hp": max(1, round(mob.health)), "hostile": hostile,
                    "damage": round(attack.damage) if attack is not None else 0, "drops": drops})
    return out


def animals(kn: Any) -> dict[str, dict[str, Any]]:
    """What each animal eats and what it breeds, from ``breeding.yaml`` (the module docstring says how it plays).

    Per mob: ``breed`` (its breeding food), ``partners`` (partner -> the baby: its own kind, or a mule for a horse
    and a donkey; none for animals that lay eggs), ``tame`` (``food`` and ``one_in``, when an item tames it),
    ``food`` (everything it eats), ``returns`` (the container given back).
    """
    table = kn.mechanisms.breeding if kn.mechanisms is not None else None
    if table is None:
        return {}
    out: dict[str, dict[str, Any]] = {}

    def entry(animal: str) -> dict[str, Any]:
        return out.setdefault(mc(animal), {"breed": [], "partners": {}, "food": [], "returns": ""})

    for b in table.breeding:
        parents = b.parents or [b.animal, b.animal]
        if not all(p in kn.mobs for p in parents) or b.animal not in kn.mobs:
            continue
        foods = [mc(f) for f in b.food if f in kn.items]
        for i, parent in enumerate(parents):
            e = entry(parent)
            e["breed"] = sorted({*e["breed"], *foods})
            if b.gives is None:
                e["partners"][mc(parents[1 - i])] = mc(b.animal)
            if b.returns and b.returns in kn.items:
                e["returns"] = mc(b.returns)
    for t in table.taming:
        if t.food and t.animal in kn.mobs:
            entry(t.animal)["tame"] = {"food": sorted(mc(f) for f in t.food if f in kn.items), "one_in": t.one_in}
    for f in table.feeding:
        if f.animal in kn.mobs:
            e = entry(f.animal)
            e["food"] = sorted({*e["food"], *(mc(x) for x in f.food if x in kn.items)})
    for e in out.values():
        e["food"] = sorted({*e["food"], *e["breed"], *e.get("tame", {}).get("food", [])})
        e["partners"] = dict(sorted(e["partners"].items()))
    return dict(sorted(out.items()))


def game_content(kn: Any) -> dict[str, Any]:
    """Everything the game registers, as plain data (written as ``data.json`` beside the game's Lua)."""
    return {
        "format": 1,
        "namespace": NAMESPACE,
        "source": dict(sorted(kn.source.items())),
        "hand": hand(kn),
        "nodes": nodes(kn),
        "items": items(kn),
        "crafts": crafts(kn),
        "biomes": biomes(kn),
        "ores": ores(kn),
        "decorations": decorations(kn) + dimension_decorations(kn),
        "mobs": mobs(kn),
        "animals": animals(kn),
        "variants": variants(kn),
        "changes": changes(kn),
        "stripping": stripping(kn),
        "tool_uses": tool_uses(kn),
        "hand_uses": hand_uses(kn),
        "screens": screens(kn),
        "fills": fills(kn),
        "milking": milking(kn),
        "laying": laying(kn),
        "brewing": brewing(kn),
        "enchanting": enchanting(kn),
        "honey": honey(kn),
        "storing": storing(kn),
        "trading": trading(kn),
        "stonecutting": stonecutting(kn),
        "anvil": anvil(kn),
        "structures": structures(kn),
        "water": mc("water"),
        "furnace": mc("furnace"),
        "dimensions": {name: dict(layer) for name, layer in DIMENSIONS.items()},
        "portals": {
            "nether": {"portal": mc("nether_portal"), "frame": mc("obsidian"), "lighter": mc("flint_and_steel"),
                       "fire": mc("fire")},
            "end": {"portal": mc("end_portal")},
        },
        "mapgen_aliases": {"mapgen_stone": mc("stone"), "mapgen_water_source": mc("water"),
                           "mapgen_river_water_source": mc("water")},
    }

"""The phrase reader's vocabulary: verbs, condition words, number words, and how words are split and made singular.

Data, not code: the reader (``taskverse.language.reader``) interprets these tables.
"""

from __future__ import annotations

import re
from typing import Any

MAX_PHRASE_WORDS = 60
"""Longest phrase read, in words (the literature's longest task phrases have about 25)."""
MAX_READ_STEPS = 20_000
"""Most clause readings tried for one phrase (backtracking over where modifiers start is bounded by this)."""

NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
           "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30, "sixty-four": 64}
ARTICLES = {"a", "an", "the", "some", "any"}
SCREEN_VERBS = ("open", "interact", "inspect", "trigger")
"""The verbs of the game's statistics of a block's screen opened (``screens.yaml``): ``open_chest``,
``interact_with_furnace``, ``inspect_hopper``, ``trigger_trapped_chest``. A player may say any of them of any such
block (``open the furnace``), so each phrase verb tries the statistic's own verb first, then the others."""
VERBS: dict[str, tuple[str, ...]] = {
    "mine": ("mine",), "dig": ("mine",), "break": ("mine",), "chop": ("mine",), "cut": ("mine",),
    "craft": ("craft",), "make": ("craft",), "create": ("craft",), "build": ("craft", "build"),
    "smelt": ("smelt",), "cook": ("smelt",), "bake": ("smelt",),
    "obtain": ("obtain",), "get": ("obtain",), "collect": ("obtain",), "gather": ("obtain",),
    "harvest": ("obtain",), "acquire": ("obtain",), "pick": ("obtain",),
    "hunt": ("hunt", "combat"), "kill": ("combat", "hunt"), "combat": ("combat", "hunt"),
    "fight": ("combat", "hunt"), "slay": ("combat", "hunt"), "defeat": ("combat", "hunt"),
    "shoot": ("combat", "hunt"),
    "find": ("find",), "locate": ("find",), "discover": ("find",), "reach": ("find",), "visit": ("find",),
    "place": ("place",), "put": ("place",), "eat": ("eat",), "consume": ("eat",),
    "equip": ("equip",), "wear": ("equip",), "plant": ("plant",), "sow": ("plant",), "shear": ("shear",),
    "use": ("use", "place", "eat", "equip"),
    "trade": ("trade",), "buy": ("trade",), "purchase": ("trade",), "sell": ("sell",),
    "brew": ("brew",), "drink": ("drink",), "fill": ("fill",),
    "breed": ("breed",), "tame": ("tame",), "feed": ("feed",), "enchant": ("enchant",), "pot": ("pot",),
    "repair": ("repair",), "fix": ("repair",), "mend": ("repair",), "rename": ("rename",), "name": ("rename",),
    "combine": ("combine",), "throw": ("throw",), "toss": ("throw",), "hang": ("hang",),
    "hook": ("hook",), "trap": ("trap",), "store": ("store",),
    "open": SCREEN_VERBS, "interact": SCREEN_VERBS, "inspect": SCREEN_VERBS, "search": ("inspect",),
    "trigger": ("trigger",),
    # the actions of the game's custom statistics beyond a screen (statistics.yaml): talked_to_villager,
    # target_hit, clean_armor/clean_banner/clean_shulker_box, climb_one_cm
    "talk": ("talk",), "speak": ("talk",), "hit": ("hit",), "clean": ("clean",), "wash": ("clean",),
    "climb": ("climb",),
}
"""A phrase's verb and the library verbs it may mean, tried in order (``kill`` a mob: combat, else hunt).

``use X`` is the game's ``used`` statistic (``USE_MEANINGS``): the item's use atom, else placing, eating or putting
it on, which is how the game uses a block, a food and armour."""
USE_MEANINGS = {"use": "an item used, as the game's used statistic counts it (a tool worn down, a bucket filled)",
                "place": "the game's used statistic: a block is used by placing it",
                "eat": "the game's used statistic: a food is used by eating it",
                "equip": "the game's used statistic: armour is used by putting it on"}
"""Why ``use X`` became each library verb (Minecraft Wiki, Statistics: minecraft:used), for the audit trail."""
STORE_VERBS = frozenset({"put", "place", "store"})
"""``put|place|store X in a chest``: the item stored in a container (``store.X``), not a block placed."""
INTO_WORDS = frozenset({"in", "into", "inside"})
"""The words before the container a ``STORE_VERBS`` phrase names."""
MISSING_VERBS = {"ride": "riding", "fish": "fishing", "sleep": "sleeping"}
"""Verbs of the game the library has only a few fixed atoms for: lines beyond those are explained, not read."""
ONTO_WORDS = {"with", "onto", "on", "to", "and"}
"""``combine an enchanted book with a pickaxe``: the thing used up first, the thing the task is done to after."""
SKIP_AFTER_VERB = {"up", "down", "for", "to", "out"}
"""Particles of two-word verbs (``pick up``, ``look for``, ``go to``)."""
OBTAIN_WORDS = {"obtain", "get"}
"""``craft to obtain X``: after a verb and ``to``, the verb is how and X what to have (MineDojo's harvest tasks)."""
GIVEN_WORDS: dict[tuple[str, ...], tuple[str, int]] = {("fuels",): ("coal", 20), ("fuel",): ("coal", 20)}
"""Words naming no one item that a benchmark's tasks give as it starts them (MineDojo's tasks_specs.yaml,
initial_inventory): ``given a furnace and fuels`` is 20 coal (its harvest_*_with_furnace_and_fuel tasks)."""
KIT_WORDS: dict[tuple[str, ...], tuple[str, int]] = {("sword",): ("iron_sword", 1), ("food",): ("cooked_beef", 8)}
"""The same, in a start only (``given ...``): MineDojo's ``given a sword and some food`` is an iron sword and 8
cooked beef (survival_sword_food); elsewhere (MCU's ``mine iron ore using a sword``) the words name no item."""
TIME_OF_DAY = {"night": "night", "nighttime": "night", "day": "day", "daytime": "day"}
"""``in night forest``: a time of day before a biome (MineDojo's combat tasks)."""
WHEN_WORDS: dict[tuple[str, ...], str] = {
    ("at", "night"): "night", ("at", "nighttime"): "night", ("during", "the", "night"): "night",
    ("by", "night"): "night", ("in", "the", "night"): "night", ("at", "night", "time"): "night",
    ("during", "the", "day"): "day", ("at", "day"): "day", ("by", "day"): "day", ("in", "the", "day"): "day",
    ("during", "daytime"): "day", ("in", "daytime"): "day", ("in", "the", "daytime"): "day",
    ("at", "daytime"): "day", ("during", "the", "daytime"): "day",
    ("on", "the", "first", "day"): "first_day", ("in", "the", "rain"): "rain", ("in", "rain"): "rain",
    ("on", "a", "rainy", "day"): "rain", ("while", "raining"): "rain", ("while", "it", "rains"): "rain",
    ("in", "a", "thunderstorm"): "thunder", ("during", "a", "thunderstorm"): "thunder",
    ("in", "clear", "weather"): "clear",
}
HOW_WORDS: dict[tuple[str, ...], str] = {
    ("with", "bare", "hands"): "bare_hand", ("with", "bare", "hand"): "bare_hand",
    ("with", "a", "bare", "hand"): "bare_hand", ("with", "your", "bare", "hands"): "bare_hand",
    ("bare", "handed"): "bare_hand", ("bare-handed",): "bare_hand", ("barehanded",): "bare_hand",
    ("with", "arrows"): "arrows", ("using", "arrows"): "arrows", ("with", "bow", "and", "arrows"): "arrows",
    ("with", "a", "bow", "and", "arrows"): "arrows", ("using", "a", "bow", "and", "arrows"): "arrows",
    ("using", "bow", "and", "arrows"): "arrows",
}
DIMENSION_WORDS = {"nether": "nether", "end": "end", "overworld": "overworld"}
CAVE_WORDS = {("in", "a", "cave"), ("in", "caves"), ("in", "the", "cave"), ("in", "a", "cave", "system")}
NAIVE_WORDS = {("from", "scratch"), ("starting", "from", "scratch"), ("from", "nothing"),
               ("with", "an", "empty", "inventory"), ("from", "an", "empty", "inventory")}
NAIVE_PREFIXES = (("find", "material", "and"), ("find", "materials", "and"), ("find", "material", "to"),
                  ("find", "materials", "to"), ("from", "scratch", ","), ("starting", "from", "scratch", ","),
                  ("from", "nothing", ","))
START_WORDS = (("starting", "from"), ("starting", "with"), ("start", "with"), ("given",))
WITH_WORDS = {"with", "using", "holding", "wearing", "carrying"}
LOCATION_WORDS = {"in", "on", "at", "inside", "near"}
KEYWORDS = WITH_WORDS | LOCATION_WORDS | {"during", "by", "while", "from", "starting", "start", "given", "bare",
                                         "bare-handed", "barehanded", "times", "once", "twice", "thrice"}
REPEATS = {"once": 1, "twice": 2, "thrice": 3}
ARMOR = re.compile(r"^(?:a |the )?(?:full )?(?:(?:suite|set) of )?(?:full )?(\w+) armou?rs?$")
MATERIALS = {"leather": "leather", "chain": "chainmail", "chainmail": "chainmail", "iron": "iron",
             "gold": "golden", "golden": "golden", "diamond": "diamond", "netherite": "netherite"}
TOOLS = re.compile(r"^(?:a |the )?(?:set of |full set of )?(\w+) tools$")
TOOL_MATERIALS = {"wooden": "wooden", "wood": "wooden", "stone": "stone", "iron": "iron", "gold": "golden",
                  "golden": "golden", "diamond": "diamond", "netherite": "netherite"}
TOOL_KINDS = ("axe", "hoe", "pickaxe", "shovel", "sword")
"""``wooden tools``: the kit of one material MCU's "starting from MATERIAL tools" tasks give: the Minecraft Wiki's
four tools (Tool page: axe, hoe, pickaxe, shovel) and the sword."""
GERUNDS = {"riding": "ride", "repairing": "repair", "fishing": "fish", "sleeping": "sleep"}
"""A gerund of a missing verb anywhere in a phrase (``obtain fish by fishing``): the line is explained, not read."""
MEANS_GERUNDS = {"trading": ("trade", "sell"), "brewing": ("brew",), "breeding": ("breed",), "taming": ("tame",),
                 "enchanting": ("enchant",)}
"""``by trading``: a gerund naming how a goal is reached, by the library verbs that do it (a task cannot require
one way of reaching its goal; the line is explained with those atoms)."""
PAIR_VERBS = ("breed",)
"""Library verbs done to a pair: ``breed two cows`` is one breeding, not two."""
TRADE_VERBS = ("trade", "sell")
"""Library verbs whose phrases may name the villager traded with (``trade with a librarian for a bookshelf``)."""
PARTNER_WORDS = {"with", "from", "to"}
VILLAGERS = {"villager", "armorer", "butcher", "cartographer", "cleric", "farmer", "fisherman", "fletcher",
             "leatherworker", "librarian", "mason", "shepherd", "toolsmith", "weaponsmith", "trader"}
"""Who a trade phrase may name after ``with``/``from``/``to`` (Trading: the villager professions); the library's
trade atoms say which professions sell an item, so the partner is read and dropped."""
SLOTS = {"helmet": "head", "chestplate": "chest", "leggings": "legs", "boots": "feet"}


# --- words ---------------------------------------------------------------------------------------------------------

def tokenize(phrase: str) -> list[str]:
    """Lower-cased words; commas are words of their own; quotes, full stops and underscores are dropped."""
    text = phrase.lower().replace("\u2019", "'").replace("_", " ")
    text = re.sub(r"[\"“”()\[\]]", " ", text)
    text = re.sub(r"[.!?;:]+(\s|$)", " ", text)
    text = text.replace(",", " , ")
    words = text.split()
    while words and words[-1] == ",":
        words.pop()
    return words


def then_at(words: tuple[str, ...], i: int) -> int:
    """How many words a THEN joiner at ``i`` takes (``and then``, ``, then``, ``then``), or 0."""
    if i == 0:
        return 0
    if words[i:i + 2] in (("and", "then"), (",", "then")) and i + 2 < len(words):
        return 2
    if words[i] == "then" and i + 1 < len(words) and words[i - 1] not in ("and", ","):
        return 1
    return 0


def strip_articles(words: Any) -> list[str]:
    """The words without leading articles (``a``, ``the``, ``some``)."""
    words = list(words)
    while words and words[0] in ARTICLES:
        words = words[1:]
    return words


def armor_suite(text: str) -> dict[str, str] | None:
    """``a full suite of iron armor`` / ``iron armor``: the four pieces by slot."""
    match = ARMOR.match(text)
    if match is None or match.group(1) not in MATERIALS:
        return None
    material = MATERIALS[match.group(1)]
    return {slot: f"{material}_{piece}" for piece, slot in SLOTS.items()}


def tool_set(text: str) -> list[str] | None:
    """``wooden tools``: the five-piece kit of one material (``TOOL_KINDS``), or None."""
    match = TOOLS.match(text)
    if match is None or match.group(1) not in TOOL_MATERIALS:
        return None
    return [f"{TOOL_MATERIALS[match.group(1)]}_{kind}" for kind in TOOL_KINDS]


def forms(words: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The words as written, then with the last word (or the first of ``X of Y``) made singular."""
    words = tuple(strip_articles(words))
    if not words:
        return []
    forms = [words]
    forms += [(*words[:-1], s) for s in _singulars(words[-1])]
    if len(words) > 2 and words[1] in ("of", "o'"):
        forms += [(s, *words[1:]) for s in _singulars(words[0])]
    return forms


def _singulars(word: str) -> list[str]:
    out = []
    if word.endswith("ies") and len(word) > 4:
        out.append(word[:-3] + "y")
    if word.endswith("ves"):
        out += [word[:-3] + "f", word[:-1]]
    if word.endswith(("oes", "ches", "shes", "xes", "sses")):
        out.append(word[:-2])
    if word.endswith("men"):
        out.append(word[:-3] + "man")
    if word.endswith("s") and not word.endswith("ss"):
        out.append(word[:-1])
    return out




# --- MCU's task texts (MCU_benchmark/task_configs at CraftJarvis/MCU bfb7c1d, and its criteria_files) -------------

def _words(*phrases: str) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(p.split()) for p in phrases)


ANY_KIND = "any-kind"
"""The word ``any color`` / ``any kind of`` become: the thing after it is read as a kind (every wool), never as the
one item an old name means (``wool`` alone is white wool, its 1.12 name)."""

REWRITES: dict[tuple[str, ...], tuple[str, ...]] = {
    # names of several words, one of them "and" or split in two (the game's flint_and_steel, stonecutter)
    ("flint", "and", "steel"): ("flint_and_steel",),
    ("cartography", "stable"): ("cartography_table",),
    # the game's interact_with_<block> statistics, read with the verb of their atoms (interact.<block>)
    ("interact", "with"): ("interact",),
    ("stone", "cutter"): ("stonecutter",),
    # the game's target_hit and clean_armor statistics, read with the words of their atoms (hit.target,
    # clean.leather_armor): a target shot is a target hit; the only armour a cauldron cleans is dyed leather
    ("shoot", "a", "target"): ("hit", "target"), ("shoot", "the", "target"): ("hit", "target"),
    ("shoot", "target"): ("hit", "target"), ("clean", "armor"): ("clean", "leather_armor"),
    ("clean", "armour"): ("clean", "leather_armor"),
    # the game's eat_cake_slice statistic: a slice is eaten off a placed cake (eat.cake)
    ("cake", "slice"): ("cake",), ("slice", "of", "cake"): ("cake",),
    ("talk", "with"): ("talk",), ("talk", "to"): ("talk",), ("speak", "with"): ("talk",), ("speak", "to"): ("talk",),
    ("climb", "on"): ("climb",), ("climb", "up"): ("climb",),
    # riding a llama is mounting it, the right-click tame.llama counts: a llama takes no saddle and is never
    # steered, and the game's horse_one_cm counts its moves with the player on, as any AbstractHorse's
    ("ride", "llama"): ("tame", "llama"), ("ride", "a", "llama"): ("tame", "llama"),
    # the game's fill_cauldron statistic counts a bucket emptied into a cauldron (CauldronInteraction.emptyBucket);
    # a line that names no fluid is read as water, the one a cauldron is filled with for its uses
    ("fill", "cauldron"): ("place", "water_cauldron"), ("fill", "a", "cauldron"): ("place", "water_cauldron"),
    ("fill", "the", "cauldron"): ("place", "water_cauldron"),
    ("harming", "potion"): ("potion", "of", "harming"),
    ("lava", "pool"): ("lava",), ("lava", "source"): ("lava",),
    # MCU's task names, as its compositional configs join them (craft_to_cake, explore_boat, use_lead)
    ("craft", "to", "cake"): ("craft", "cake"), ("craft", "stonecut"): ("craft", "stonecutter"),
    ("explore", "boat"): ("explore", "with", "a", "boat"), ("use", "lead"): ("manoeuvre", "animal", "with", "leads"),
    ("explore", "the", "treasure"): ("loot", "a", "chest", "in", "buried_treasure"),
    # MCU's birthday present: its own thinking (task_configs/hard/prepare_a_birthday_present_for_your_neighbor.yaml)
    # is "craft a cake, store it in a chest"; the decorative items around it are how it looks, which no state shows
    ("prepare", "a", "birthday", "present", "for", "your", "neighbor", "using", "various", "decorative", "items",
     "and", "a", "cake"): ("store", "a", "cake", "in", "a", "chest"),
    ("prepare", "a", "birthday", "present", "for", "your", "neighbor"): ("store", "a", "cake", "in", "a", "chest"),
    # verbs the library says in other words
    ("construct",): ("build",), ("engage", "in", "combat", "with"): ("combat",), ("fend", "off"): ("combat",),
    ("carve", "pumpkins"): ("carve", "pumpkin"),
    ("dig", "three", "blocks", "down", "and", "fill", "one", "block", "up"): ("dig", "three", "and", "fill", "one"),
    ("make", "fire", "using", "flint_and_steel"): ("make", "fire", "with", "flint_and_steel"),
    ("use", "flint_and_steel", "to", "ignite", "a", "fire"): ("make", "fire", "with", "flint_and_steel"),
    ("use", "lead", "to", "get", "animals"): ("manoeuvre", "animal", "with", "leads"),
    ("use", "bow", "as", "your", "weapon"): ("use", "bow"),
    ("use", "trident", "to", "hunt", "animal"): ("use", "trident"),
    ("use", "trident", "to", "hunt", "animals"): ("use", "trident"),
    ("equip", "and", "use", "a", "shield", "to", "block", "incoming", "attacks"): ("resist", "by", "shield"),
    ("defend", "yourself", "using", "a", "shield"): ("resist", "by", "shield"),
    ("mine", "horizontally", "through", "a", "line", "of", "blocks"): ("mine", "horizontally"),
    ("use", "a", "pickaxe", "to", "mine"): ("mine",),
    ("shear", "sheep", "to", "collect", "wool"): ("shear", "a", "sheep"),
    ("obtain", "a", "bell", "through", "non-crafting", "means"): ("obtain", "a", "bell"),
    ("smelt", "raw", "beef", "into", "steak"): ("smelt", "beef"),
    ("collect", "wood", "from", "trees"): ("chop", "trees"),
    ("explore", "the", "world", "to"): (),
    ("explore", "the", "world", "of", "minecraft", "by", "traveling", "across", "various", "biomes", "and",
     "finding", "interesting", "locations"): ("explore",),
    ("mountainous", "terrain"): ("mountain",),
    ("explore", "the", "contents", "of", "a", "chest"): ("loot", "a", "chest"),
    ("explore", "and", "open", "a", "chest", "to", "discover", "its", "contents"): ("loot", "a", "chest"),
    ("locate", "and", "explore", "a", "buried", "treasure"): ("loot", "a", "chest", "in", "buried_treasure"),
    ("and", "discover", "a", "hidden", "chest"): (),
    ("build", "and", "use", "a", "boat", "to", "explore", "water", "bodies"): ("explore", "with", "a", "boat"),
    ("build", "a", "basic", "house", "with", "essential", "features"): ("build", "a", "house"),
    ("build", "a", "simple", "maze"): ("build", "a", "maze"),
    ("smelt", "raw", "food", "items", "to", "create", "cooked", "food"): ("smelt", "cooked", "food"),
    ("create", "a", "decorative", "garden"): ("build", "a", "garden"),
    ("build", "a", "garden"): ("build", "a", "flower", "garden"),
    ("open", "your", "inventory", "and"): ("open", "inventory", "and"),
    ("combat", "and", "kill", "multiple"): ("combat", "two"),
    # the atomic list's words for the library's use atoms (a record is a music disc; a bucket picks up a source)
    ("play", "record"): ("play", "a", "music", "disc"), ("play", "noteblock"): ("play", "a", "note", "block"),
    ("tune", "noteblock"): ("tune", "a", "note", "block"),
    ("till", "dirt", "into", "farmland", "with", "hoe"): ("till", "the", "land"),
    ("pick", "up", "water", "with", "bucket"): ("fill", "a", "bucket", "with", "water"),
    ("pick", "up", "lava", "with", "bucket"): ("fill", "a", "bucket", "with", "lava"),
    # display names (the game's English names) for item ids
    ("leather", "tunic"): ("leather_chestplate",), ("leather", "cap"): ("leather_helmet",),
    ("leather", "pants"): ("leather_leggings",), ("turtle", "scute"): ("scute",),
    ("rabbit's", "foot"): ("rabbit_foot",), ("bucket", "of", "cod"): ("cod_bucket",),
    ("any", "color"): (ANY_KIND,), ("any", "colour"): (ANY_KIND,), ("any", "kind", "of"): (ANY_KIND,),
    ("blank", "banner"): ("banner",),
    ("turtle", "shell"): ("turtle_helmet",), ("empty", "map"): ("map",),
    # MCU's "X (Y)": a trade's category, then the game's display name of the one item it means
    ("map", "empty", "map"): ("map",),
    ("banner", "pattern", "globe", "banner", "pattern"): ("globe_banner_pattern",),
    # a skeleton horseman is a skeleton riding a skeleton horse (Minecraft Wiki, Skeleton Horse: a skeleton trap's
    # lightning makes four); the mob fought or trapped is the rider, the game's skeleton
    ("skeleton", "horseman"): ("skeleton",), ("skeleton", "horsemen"): ("skeletons",),
}
"""Word sequences MCU's texts use for things the reader knows under other words (whole tokens, longest first).

Each is MCU's own meaning as its criteria file rates it: ``explore the contents of a chest`` opens the chest
(``use.loot_chest``'s success is the chest's interact event), ``combat and kill multiple spiders`` at least two
kills, ``use lead to get animals`` leading one (``use.lead_animal``)."""

CONTEXT_TAILS: frozenset[tuple[str, ...]] = frozenset(_words(
    "from the ground", "from the environment", "at the bottom of the world", "in the underground layers of the world",
    "in a clear area", "on the ground", "on a block", "on a solid surface", "in your minecraft world",
    "in minecraft", "to skip the night", "for smelting", "for smelting items", "to enchant your items",
    "for various crafting or building purposes", "in your surroundings", "from your inventory",
    "to secure your area", "on water", "on farmland", "in tilled soil", "to create jack-o'-lanterns",
    "from an oak log", "from oak logs", "and activate it with flint_and_steel",
    # the anvil's repair material the game already requires (Minecraft Wiki, Anvil: repairing; repair.<item> asks it)
    "repaired with scute", "repaired with phantom membrane",
    # MCU's own aside on combining two different tools (atomic_task_list.txt), which the anvil refuses anyway
    "although they are the same material , this is not typically done since they are different tools",
))
"""Words after a task that say why, where in words, or from what, and add nothing a task checks: the game's own
rules already require it (seeds go on farmland, a bed skips the night, oak planks come from oak logs) or it names
no place the world model has (``in your Minecraft world``). Read and left out of the expression."""

VAGUE_THINGS: frozenset[tuple[str, ...]] = frozenset(_words(
    "various blocks", "available materials", "various materials", "necessary ingredients",
    "ingredients gathered from various sources", "given weapons and armor", "equipped weapons and armor",
    "appropriate weapons and armor", "weapons and protective gear", "appropriate tool", "blocks of your choice",
    "various decorative items", "various plants and flowers", "treasure map",
    "sword", "bow or sword", "sword or bow", "pickaxe", "hoe", "silk touch shovel",
))
"""Things after ``with``/``using`` that name no one item (``various blocks``, ``a sword``): what the task is done
with is whatever its start gives (an MCU config's commands), so the words add nothing to the expression."""

NAMED_PLACES = frozenset({"home", "house", "castle", "temple", "pyramid", "tower", "cave", "base", "room"})
"""Places a player lights up or decorates in MCU's atomic list (``light up a castle``, ``decorate the cave``)."""
KIND_TAGS: dict[str, tuple[str, ...]] = {"flower": ("small_flowers", "tall_flowers")}
"""Kinds whose game tag is wider than the word: a flower a player plants or picks is a small or a tall flower
(Minecraft Wiki, Flower); the game's ``#flowers`` also holds cherry and flowering azalea leaves and the mangrove
propagule, which bees visit."""
PLACE_READINGS: dict[tuple[str, ...], tuple[str, ...]] = {
    ("light", "up"): ("light", "up", "the", "surroundings"),
    ("decorate",): ("decorate", "the", "ground"),
}
"""How lighting up or decorating a named place reads: as MCU's own counted ``light_up_the_surroundings`` and
``decorate_the_ground`` (eight light sources, eight ground decorations placed where the player is). The world model
has no house, castle or cave the player stands in, so the place is kept in words only; the look is rated."""


def place_reading(words: list[str]) -> tuple[list[str], str | None]:
    """The words with ``light up``/``decorate`` + a named place read as the counted task, and the place named.

    Example:
        >>> place_reading(["light", "up", "a", "castle"])
        (['light', 'up', 'the', 'surroundings'], 'castle')

    """
    for head, reading in PLACE_READINGS.items():
        rest = strip_articles(words[len(head):]) if tuple(words[:len(head)]) == head else []
        if len(rest) == 1 and rest[0] in NAMED_PLACES:
            return list(reading), rest[0]
    return words, None


FREE_FORM: dict[tuple[str, ...], str] = {
    ("prepare", "a", "birthday", "present"): "a present is judged by how it looks, which no state shows (MCU's "
                                             "present for a neighbour is a cake stored in a chest: store.cake)",
    ("bee", "nest-like", "structure"): "a structure like a bee nest is a free-form build",
    # matched after the rewrites ("interact with" is "interact"), as every key here
    ("interact", "a", "bee", "nest"): "interacting with a bee nest names neither of the game's two "
                                      "interactions (shears on a full nest: use.harvest_honeycomb; a glass "
                                      "bottle: use.collect_honey), and MCU's criteria rate crafting one from "
                                      "honeycomb and planks, which the game has no recipe for (that is a "
                                      "beehive's; a bee nest is found, not crafted)",
    # the atomic list's verbs for what the world model does not count (a mechanism it lacks, named)
    ("in", "house"): "a mob trapped in a house (walled in) is no event the world model counts (trap.<mob> traps "
                     "one in a boat)",
    ("feed", "tamed"): "whether an animal is tamed is not part of the world model's state (feed.wolf feeds any wolf)",
    ("bring",): "a mob's dimension (one led through a portal) is not part of the world model's state",
    ("turn", "a"): "a villager's profession (taken from a job site block) is not part of the world model's state",
    # the custom statistics' actions (statistics.yaml) are read; these name what no statistic counts
    ("climb", "waterfall"): "a waterfall is water, which the game's climbable blocks (ladders, vines, scaffolding) "
                            "do not include: moving up in water counts as swimming, and no statistic counts a "
                            "waterfall climbed",
    ("sprint-jumping",): "a jump made while sprinting is one jump and a sprinted distance (jump, sprint_one_cm), and "
                         "the world model does not say the two happened together (move.jump, move.sprint each count)",
    ("close", "door"): "a door closed is no statistic of the game and no event the world model counts (a door's "
                       "click changes its block state only)",
    ("clog",): "where fluids flow is not part of the world model's state",
    ("hatch",): "a chick hatched from a thrown egg is no event the world model counts",
    ("attract",): "a mob following the player is not part of the world model's state",
    ("tidy",): "how tidy a place looks is judged by eye, which no state of the world model shows",
    # the atomic list's finds of terrain the world model holds no table of (the 1.20.1 worldgen placed features)
    ("find", "cliff"): "a cliff is no feature of the 1.20 world generator: steep terrain comes of the noise that "
                       "shapes the land, with no block, feature or biome of its own (Minecraft Wiki, Terrain "
                       "features: Cliff)",
    ("find", "waterfall"): "the world model holds no springs: a waterfall is the flow of a water spring (the "
                           "spring_water feature) out of a cliff or a cave wall, and find.water finds any water",
    ("find", "lavafall"): "the world model holds no springs: a lavafall is the flow of a lava spring (the "
                          "spring_lava feature; spring_open and spring_closed in the Nether), and find.lava finds "
                          "any lava",
    ("find", "lake"): "the world model holds no bodies of water: the 1.20 world has no water lake feature (its "
                      "lakes are terrain and aquifers below the water level), and find.water finds any water",
    ("lava", "lake"): "the world model holds no lakes: a lava lake is the lake_lava feature (lake_lava_surface, one "
                      "in 200 chunks; lake_lava_underground, one in 9, five or more blocks under the surface), and "
                      "find.lava finds any lava",
    ("underground", "lake"): "the world model holds no lakes: an underground lake is an aquifer's water in a cave "
                             "(or lake_lava_underground's lava), and find.water finds any water",
    ("find", "void", "air"): "void_air is no block a player meets: the game gives it for positions outside the "
                             "world's height limits, where nothing is stored, and air is not seen (Minecraft Wiki, "
                             "Air)",
    ("find", "cave", "air"): "cave_air is the air carvers leave in caves and ravines, which looks as any air: being "
                             "in a cave is find.cave",
}
"""MCU texts the world model has no task for, each with why: the config imports with this named, not read."""


def rewrite(words: list[str]) -> list[str]:
    """The words with each ``REWRITES`` sequence replaced, scanning left to right, the longest match first.

    Done again on its own output (at most three times), as one sequence may hold another's result
    (``use flint and steel to ignite a fire``).
    """
    for _ in range(3):
        if not any(w in _REWRITE_FIRSTS for w in words):
            return words
        again = _rewrite_once(words)
        if again == words:
            return words
        words = again
    return words


def _rewrite_once(words: list[str]) -> list[str]:
    out: list[str] = []
    i = 0
    while i < len(words):
        for n in _REWRITE_LENGTHS:
            key = tuple(words[i:i + n])
            if len(key) == n and key in REWRITES:
                out += REWRITES[key]
                i += n
                break
        else:
            out.append(words[i])
            i += 1
    return out


def free_form_at(words: tuple[str, ...]) -> str | None:
    """Why a phrase asks what the world model has no task for (``FREE_FORM``), if a clause of it starts so."""
    for i in range(len(words)):
        if i and words[i - 1] not in ("and", "or", ",", "then"):
            continue
        for key, reason in FREE_FORM.items():
            if words[i:i + len(key)] == key:
                return f"'{' '.join(key)}': {reason}"
    for i in range(len(words)):  # names of things no task makes, wherever they stand ("a bee nest-like structure")
        for key, reason in FREE_FORM.items():
            if len(key) > 1 and key[0] not in VERBS and words[i:i + len(key)] == key:
                return f"'{' '.join(key)}': {reason}"
    return None


_REWRITE_FIRSTS = frozenset(k[0] for k in REWRITES)
_REWRITE_LENGTHS = sorted({len(k) for k in REWRITES}, reverse=True)


# --- names as players write them (MCU's atomic task list: CraftJarvis/MCU atomic_task_list.txt) --------------------

POTION_FORMS = {"splash": "splash", "lingering": "lingering"}
"""A potion's form, written before ``potion`` or just after it (``potion splash of water breathing``)."""
POTION_LEVELS = {"extended": "long", "long": "long", "enhanced": "strong", "strong": "strong", "ii": "strong"}
"""The game's display names of a stronger or longer potion: an extended potion (redstone) is the item id's
``long_`` variant, an enhanced one (glowstone, level II) its ``strong_`` variant (Minecraft Wiki, Potion)."""
POTION_BASES = ("awkward", "mundane", "thick")
"""Potions with no effect, named by a word before ``potion`` (``awkward potion``, ``splash awkward potion``)."""
POTION_EFFECTS = {"fire": "fire_resistance", "leap": "leaping", "jumping": "leaping", "speed": "swiftness",
                  "the_turtle_master": "turtle_master"}
"""Effect words as players shorten them: ``potion of fire`` is the potion of Fire Resistance, ``leap`` Leaping,
``speed`` Swiftness (the game's Speed effect) (Minecraft Wiki, Potion)."""
ALSO_MEANS: dict[str, tuple[str, ...]] = {"craft": ("brew",), "make": ("brew", "build"), "create": ("build",),
                                          "place": ("hang",), "put": ("hang",), "plant": ("place",),
                                          "trade": ("sell",), "find": ("enter",), "enchant": ("combine",)}
"""Library verbs a phrase's verb may also mean when its own find no atom: ``craft to potion of healing`` is brewed
(MCU's atomic list names every potion after ``craft to``; no potion has a crafting recipe), ``place an item
frame`` is hanging it (a frame or a painting is an entity, not a block), ``make a NAND gate`` is the named build
(nothing crafts one), ``plant a mushroom`` (a flower, sugar cane, a sapling) is placing it (the library's plant
atoms are seeds on farmland; the rest is planted by placing the block where it may stand), ``trade for ink sac`` is
selling it when villagers only buy it (a trade goes both ways; the library's trade atoms are what a villager sells,
its sell atoms what one buys), ``find nether`` is entering the dimension (``enter.nether``: a dimension is no
place in the world to find), and ``enchant shears`` is an enchanted book put on them at an anvil (``combine.shears``:
an enchanting table does not take them)."""
TYPOS: dict[str, str] = {"ot": "to", "dink": "drink", "bulid": "build", "villiager": "villager", "smlie": "slime",
                         "endmite": "endermite", "suger": "sugar",
                         "brewingstand": "brewing_stand"}
"""Misspellings in the published lists whose intended word is certain (``craft ot potion``, ``dink potion``)."""
NOT_IN_GAME: dict[tuple[str, ...], str] = {
    **{tuple(f"potion of {effect}".split()): "added in Java Edition 1.21; the game modelled is 1.20"
       for effect in ("oozing", "weaving", "infestation", "wind charging")},
    **{tuple(name.split()): "an Education Edition compound (Chemistry), brewed in no Java Edition brewing stand"
       for name in ("antidote", "elixir", "eye drops", "tonic")},
    ("copper", "bulb"): "added in Java Edition 1.21; the game modelled is 1.20",
    ("crafter",): "added in Java Edition 1.21; the game modelled is 1.20",
    ("trial", "explorer", "map"): "added in Java Edition 1.21 (trial chambers); the game modelled is 1.20",
    ("mace",): "added in Java Edition 1.21; the game modelled is 1.20",
}
"""Things players name that the 1.20 game does not have, with why: a line naming one is impossible, not unread."""


def potion_name(words: tuple[str, ...]) -> str | None:
    """The item id a potion's display name means, or None when the words name no potion.

    ``extended splash potion of fire`` is ``splash_potion_of_long_fire_resistance``.

    Example:
        >>> potion_name(("enhanced", "potion", "of", "healing"))
        'potion_of_strong_healing'
        >>> potion_name(("splash", "awkward", "potion"))
        'awkward_splash_potion'

    """
    words = tuple(strip_articles(words))
    if "potion" not in words:
        return None
    at = words.index("potion")
    before, after = list(words[:at]), list(words[at + 1:])
    form = level = base = None
    while after and after[0] in POTION_FORMS and form is None:  # "potion splash of ..."
        form = POTION_FORMS[after.pop(0)]
    for word in before:
        if word in POTION_FORMS and form is None:
            form = POTION_FORMS[word]
        elif word in POTION_LEVELS and level is None:
            level = POTION_LEVELS[word]
        elif word in POTION_BASES and base is None:
            base = word
        else:
            return None
    if base is not None:
        return None if after or level else f"{base}_{form + '_' if form else ''}potion"
    if len(after) < 2 or after[0] != "of":
        return None
    effect = "_".join(after[1:])
    effect = POTION_EFFECTS.get(effect, effect.removeprefix("the_"))
    return f"{form + '_' if form else ''}potion_of_{level + '_' if level else ''}{effect}"

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
VERBS: dict[str, tuple[str, ...]] = {
    "mine": ("mine",), "dig": ("mine",), "break": ("mine",), "chop": ("mine",), "cut": ("mine",),
    "craft": ("craft",), "make": ("craft",), "create": ("craft",), "build": ("craft",),
    "smelt": ("smelt",), "cook": ("smelt",), "bake": ("smelt",),
    "obtain": ("obtain",), "get": ("obtain",), "collect": ("obtain",), "gather": ("obtain",),
    "harvest": ("obtain",), "acquire": ("obtain",), "pick": ("obtain",),
    "hunt": ("hunt", "combat"), "kill": ("combat", "hunt"), "combat": ("combat", "hunt"),
    "fight": ("combat", "hunt"), "slay": ("combat", "hunt"), "defeat": ("combat", "hunt"),
    "find": ("find",), "locate": ("find",), "discover": ("find",), "reach": ("find",), "visit": ("find",),
    "place": ("place",), "put": ("place",), "eat": ("eat",), "consume": ("eat",),
    "equip": ("equip",), "wear": ("equip",), "plant": ("plant",), "sow": ("plant",), "shear": ("shear",),
    "use": ("use", "place", "eat", "equip"),
    "trade": ("trade",), "buy": ("trade",), "purchase": ("trade",), "sell": ("sell",),
    "brew": ("brew",), "drink": ("drink",), "fill": ("fill",),
    "breed": ("breed",), "tame": ("tame",), "enchant": ("enchant",),
}
"""A phrase's verb and the library verbs it may mean, tried in order (``kill`` a mob: combat, else hunt).

``use X`` is the game's ``used`` statistic (``USE_MEANINGS``): the item's use atom, else placing, eating or putting
it on, which is how the game uses a block, a food and armour."""
USE_MEANINGS = {"use": "an item used, as the game's used statistic counts it (a tool worn down, a bucket filled)",
                "place": "the game's used statistic: a block is used by placing it",
                "eat": "the game's used statistic: a food is used by eating it",
                "equip": "the game's used statistic: armour is used by putting it on"}
"""Why ``use X`` became each library verb (Minecraft Wiki, Statistics: minecraft:used), for the audit trail."""
MISSING_VERBS = {"ride": "riding", "repair": "repairing", "fish": "fishing", "sleep": "sleeping"}
"""Verbs of the game the library has only a few fixed atoms for: lines beyond those are explained, not read."""
SKIP_AFTER_VERB = {"up", "down", "for", "to", "out"}
"""Particles of two-word verbs (``pick up``, ``look for``, ``go to``)."""
OBTAIN_WORDS = {"obtain", "get"}
"""``craft to obtain X``: after a verb and ``to``, the verb is how and X what to have (MineDojo's harvest tasks)."""
FUEL_WORDS: dict[tuple[str, ...], tuple[str, int]] = {("fuels",): ("coal", 20), ("fuel",): ("coal", 20)}
"""``given a furnace and fuels``: MineDojo's harvest_*_with_furnace_and_fuel tasks start with 20 coal
(tasks_specs.yaml, initial_inventory)."""
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
    ("with", "a", "bow", "and", "arrows"): "arrows",
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



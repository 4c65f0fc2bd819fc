"""Minecraft 1.20 commands as a taskverse start: reading ``/give``, ``/summon``, ``/time`` ... and writing them.

MineStudio sets a task up by running chat commands after the world resets (its ``CommandsCallback``). This module
reads each command into the part of ``taskverse.schema.Initialization`` it means, and writes an initialization
back as commands that Minecraft Java 1.20 accepts. What a command does that a start cannot say (an effect, NBT
such as a villager's profession, a teleport) is returned as a reason, never dropped silently.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from taskverse.errors import close_matches
from taskverse.schema import MAX_COUNT, Initialization

MAX_COMMAND_CHARS = 4096
"""A longer command is refused: no setup command is that long."""

SLOTS = {"armor.head": "head", "armor.chest": "chest", "armor.legs": "legs", "armor.feet": "feet",
         "weapon.offhand": "offhand", "weapon.mainhand": "main_hand", "weapon": "main_hand"}
"""Minecraft's equipment slots and the start's fields (``main_hand``, ``equipment.SLOT``)."""

_SLOT_OF = {"head": "armor.head", "chest": "armor.chest", "legs": "armor.legs", "feet": "armor.feet",
            "offhand": "weapon.offhand"}

DIMENSIONS = {"minecraft:overworld": "overworld", "minecraft:the_nether": "nether", "minecraft:the_end": "end"}

TIMES = {"day": 1000, "noon": 6000, "sunset": 12000, "night": 13000, "midnight": 18000, "sunrise": 23000}
"""The game's named times (``/time set day``...) in ticks; ``sunset`` and ``sunrise`` have no keyword."""

_KEYWORD_TIMES = ("day", "noon", "night", "midnight")
_PLAYER = ("@s", "@p", "@a", "@r")
_NUMBER = re.compile(r"^-?[0-9]{1,12}(\.[0-9]{1,12})?$")


class CommandError(Exception):
    """A command, or a part of one, that a taskverse start cannot say; the message says why."""


@dataclass
class Setup:
    """What a list of commands sets up, gathered field by field (counts add up)."""

    inventory: dict[str, int] = field(default_factory=dict)
    main_hand: str | None = None
    equipment: dict[str, str] = field(default_factory=dict)
    summon: dict[str, int] = field(default_factory=dict)
    nearby_blocks: dict[str, int] = field(default_factory=dict)
    time: str | None = None
    weather: str | None = None
    dimension: str | None = None
    biome: str | None = None
    structure: str | None = None

    def overrides(self) -> dict[str, Any]:
        """The fields set, as ``custom(...)`` / ``InitOverrides`` take them (counts capped at the schema's)."""
        out: dict[str, Any] = {}
        for key in ("inventory", "summon", "nearby_blocks"):
            values: dict[str, int] = getattr(self, key)
            if values:
                out[key] = {name: min(n, MAX_COUNT) for name, n in sorted(values.items())}
        if self.equipment:
            out["equipment"] = dict(sorted(self.equipment.items()))
        for key in ("main_hand", "time", "weather", "dimension", "biome", "structure"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        return out


STAND_IN_ENCHANTMENT = "unbreaking"
"""What an ``enchanted_<item>`` (the library's "some enchantment from a table or a book") is given with: every item a
table enchants takes Unbreaking, and so does every item an anvil alone enchants (anvil.yaml's also_combined)."""


def game_forms(knowledge: Any) -> dict[str, tuple[str, str]]:
    """Library items that are one game item with a component: name -> (game item, NBT).

    Potions are one game item named by a ``Potion`` tag (``potion_of_swiftness`` is ``minecraft:potion
    {Potion:"minecraft:swiftness"}``); enchanted tools carry ``Enchantments`` (``silk_touch_iron_pickaxe``).
    """
    mech = knowledge.mechanisms
    out: dict[str, tuple[str, str]] = {}
    if mech is None:
        return out
    for potion in mech.brewing.potions:
        for container in ("potion", "splash_potion", "lingering_potion"):
            out[mech.brewing.name(potion.id, container)] = (container, f'{{Potion:"minecraft:{potion.id}"}}')
    anyway = mech.enchanting.any_enchantment
    for item in [*anyway.items, *mech.anvil.also_combined] if anyway else []:
        name = anyway.enchanted(item) if anyway else item
        if name not in knowledge.items:  # enchanted_book is an item of its own
            out[name] = (item, f'{{Enchantments:[{{id:"minecraft:{STAND_IN_ENCHANTMENT}",lvl:1}}]}}')
    for name, tool in knowledge.enchanted.items():
        out[name] = (tool, f'{{Enchantments:[{{id:"minecraft:{mech.enchanting.enchantment}",lvl:1}}]}}')
    return out


_POTION_TAG = re.compile(r'Potion:\s*"?(?:minecraft:)?([a-z_]+)"?')
_ENCHANTMENT_ID = re.compile(r'id:\s*"?(?:minecraft:)?([a-z_]+)"?')


class Names:
    """Checks names against the game knowledge; earlier names (``wool``) are read through the rename table.

    Items the library names by a component (potions, enchanted tools) are read from and written as the game's item
    with its NBT (``game_forms``).
    """

    def __init__(self, knowledge: Any, renames: dict[str, Any] | None = None) -> None:
        self.kn = knowledge
        self.renames = renames or {}
        self.forms = game_forms(knowledge)
        self._potions: dict[tuple[str, str], str] = {}
        self._enchanted: dict[tuple[str, str], str] = {}  # (item, enchantment or "") -> library name
        for name, (item, nbt) in self.forms.items():
            potion = _POTION_TAG.search(nbt)
            if potion:
                self._potions[(item, potion.group(1))] = name
            elif name in knowledge.enchanted:  # Silk Touch tools: that enchantment alone
                self._enchanted[(item, _ENCHANTMENT_ID.findall(nbt)[0])] = name
            else:  # enchanted_<item>: any enchantment
                self._enchanted[(item, "")] = name
        self._placed: dict[tuple[str, str], str] = {}  # (structure or feature, game id) -> library structure
        for name, structure in knowledge.structures.items():
            for game_id in structure.placed.ids if structure.placed else []:
                self._placed[(structure.placed.command, game_id)] = name

    def game_item(self, name: str) -> str:
        """The game's item argument for a library item (``minecraft:potion{Potion:"minecraft:water"}``)."""
        item, nbt = self.forms.get(name, (name, ""))
        return f"minecraft:{item}{nbt}"

    def item(self, raw: str, nbt: str) -> tuple[str, list[str]]:
        """The library item a game item with NBT is, and a note if the NBT means nothing to a start."""
        base = self.check(raw, "item")
        if not nbt:
            return base, []
        potion = _POTION_TAG.search(nbt)
        if potion and (base, potion.group(1)) in self._potions:
            return self._potions[(base, potion.group(1))], []
        if "Enchantments" in nbt:
            ids = _ENCHANTMENT_ID.findall(nbt)
            only = ids[0] if len(ids) == 1 else ""
            found = self._enchanted.get((base, only)) or self._enchanted.get((base, ""))
            if found:
                return found, []
        return base, [f"NBT {nbt} is not part of a start (the item is given without it)"]

    def placed(self, command: str, raw: str) -> str:
        """The library structure that ``/place structure|feature minecraft:ID`` builds; CommandError if none."""
        game_id = raw.removeprefix("minecraft:")
        found = self._placed.get((command, game_id))
        if found is None:
            known = sorted(i for c, i in self._placed if c == command)
            hint = close_matches(game_id, known)
            suffix = f" (did you mean {', '.join(repr(h) for h in hint)}?)" if hint else ""
            raise CommandError(f"no structure of the library is the {command} {raw!r}{suffix}")
        return found

    def check(self, raw: str, kind: str) -> str:
        """The 1.20 name of ``minecraft:NAME`` as a ``kind`` (item, block, entity, biome); CommandError if unknown."""
        name = raw.removeprefix("minecraft:")
        table = self.kn.names(kind)
        if name in table:
            return name
        rename = self.renames.get(name)
        if rename is not None and rename.now in table:
            return str(rename.now)
        hint = close_matches(name, table)
        suffix = f" (did you mean {', '.join(repr(h) for h in hint)}?)" if hint else ""
        raise CommandError(f"unknown {kind} {raw!r}{suffix}")


# --- reading ------------------------------------------------------------------------------------------------------

def tokens(command: str) -> list[str]:
    """A command split on spaces outside brackets, braces and quotes (NBT and block states stay whole)."""
    out: list[str] = []
    current: list[str] = []
    depth = 0
    quote: str | None = None
    for char in command:
        if quote:
            current.append(char)
            if char == quote:
                quote = None
        elif char in "\"'":
            quote = char
            current.append(char)
        elif char in "{[":
            depth += 1
            current.append(char)
        elif char in "}]":
            depth -= 1
            current.append(char)
        elif char.isspace() and depth <= 0:
            if current:
                out.append("".join(current))
                current = []
        else:
            current.append(char)
    if quote or depth:
        raise CommandError("unbalanced brackets or quotes")
    if current:
        out.append("".join(current))
    return out


def _split_spec(spec: str) -> tuple[str, str, str]:
    """``minecraft:chest[facing=east]{LootTable:...}`` as (name, block state, NBT)."""
    match = re.match(r"^([#a-z0-9_:./-]+)(\[[^\]]*\])?(\{.*\})?$", spec, re.IGNORECASE)
    if match is None:
        raise CommandError(f"cannot read {spec!r} as a name")
    return match.group(1).lower(), match.group(2) or "", match.group(3) or ""


_DIGITS = re.compile(r"^[0-9]{1,9}$")
WORLD_LIMIT = 30_000_000
"""No coordinate lies beyond the world border."""


def _count(text: str, what: str = "count") -> int:
    if not _DIGITS.match(text) or int(text) < 1:
        raise CommandError(f"{what} {text!r} is not a positive whole number")
    return int(text)


def _target(text: str) -> None:
    if text.split("[")[0] not in _PLAYER:
        raise CommandError(f"target {text!r} is not the player (@s, @p, @a)")


def _offset(text: str) -> tuple[bool, float]:
    """One coordinate: relative (``~``, ``~2``, ``^1``) or absolute, and its number."""
    relative = text[:1] in ("~", "^")
    number = text[1:] if relative else text
    if (number or not relative) and not _NUMBER.match(number):
        raise CommandError(f"cannot read the coordinate {text!r}")
    value = float(number or 0)
    if abs(value) > WORLD_LIMIT:
        raise CommandError(f"the coordinate {text!r} lies beyond the world border")
    return relative, value


def _volume(first: list[str], second: list[str]) -> int:
    """How many blocks a ``/fill`` box holds."""
    total = 1
    for a, b in zip(first, second, strict=True):
        (rel_a, va), (rel_b, vb) = _offset(a), _offset(b)
        if rel_a != rel_b:
            raise CommandError("a box with one corner relative and one absolute has no size a start can say")
        total *= int(abs(vb - va)) + 1
    return total


def _time(value: str) -> str:
    if value in TIMES:
        return value
    if not _DIGITS.match(value):
        raise CommandError(f"cannot read the time {value!r}")
    tick = int(value) % 24000
    for name, at in TIMES.items():
        if tick == at:
            return name
    if tick >= TIMES["sunrise"] or tick < 500:
        return "sunrise"
    return "day" if tick < TIMES["sunset"] else "sunset" if tick < TIMES["night"] else "night"


def read_command(command: str, setup: Setup, names: Names) -> list[str]:
    """Apply one command to ``setup``; return what of it was not understood (empty when all was).

    Raises:
        CommandError: nothing of the command can be said in a start (an effect, an unknown name...).

    Example:
        ``read_command("/time set night", setup, names)`` sets ``setup.time = "night"`` and returns ``[]``.

    """
    if len(command) > MAX_COMMAND_CHARS:
        raise CommandError(f"longer than {MAX_COMMAND_CHARS} characters")
    words = tokens(command.strip().removeprefix("/"))
    if not words:
        raise CommandError("empty command")
    verb, args = words[0].lower(), words[1:]
    reader = _READERS.get(verb)
    if reader is None:
        raise CommandError(f"/{verb} is not something a taskverse start can say")
    try:
        return reader(args, setup, names)
    except IndexError:
        raise CommandError(f"/{verb} is missing arguments") from None


def _capped(total: int, name: str) -> list[str]:
    return [f"{total} {name} in all: a start holds at most {MAX_COUNT}"] if total > MAX_COUNT else []


def _give(args: list[str], setup: Setup, names: Names) -> list[str]:
    _target(args[0])
    name, _, nbt = _split_spec(args[1])
    item, notes = names.item(name, nbt)
    count = _count(args[2]) if len(args) > 2 else 1
    if len(args) > 3:
        raise CommandError("/give takes a target, an item and a count")
    setup.inventory[item] = setup.inventory.get(item, 0) + count
    return notes + _capped(setup.inventory[item], item)


def _put(setup: Setup, slot: str, item: str, count: int) -> list[str]:
    if slot.startswith(("hotbar.", "inventory.")):
        setup.inventory[item] = setup.inventory.get(item, 0) + count
        return []
    field_name = SLOTS.get(slot)
    if field_name is None:
        raise CommandError(f"slot {slot!r} is not one a start has")
    notes = [f"{count} in the slot {slot}: a start holds one"] if count != 1 else []
    if field_name == "main_hand":
        setup.main_hand = item
    else:
        setup.equipment[field_name] = item
    return notes


def _item_replace(args: list[str], setup: Setup, names: Names) -> list[str]:
    """``/item replace entity @s SLOT with ITEM [N]`` (1.17+)."""
    if args[0] != "replace" or args[1] != "entity" or args[4] != "with":
        raise CommandError("only '/item replace entity @s SLOT with ITEM [COUNT]' sets up a start")
    _target(args[2])
    return _equip(args[3], args[5], args[6] if len(args) > 6 else "1", setup, names)


def _replaceitem(args: list[str], setup: Setup, names: Names) -> list[str]:
    """``/replaceitem entity @s SLOT ITEM [N]`` (before 1.17; MCU's configs use it)."""
    if args[0] != "entity":
        raise CommandError("only '/replaceitem entity @s SLOT ITEM' sets up a start")
    _target(args[1])
    return _equip(args[2], args[3], args[4] if len(args) > 4 else "1", setup, names)


def _equip(slot: str, spec: str, count: str, setup: Setup, names: Names) -> list[str]:
    name, _, nbt = _split_spec(spec)
    item, notes = names.item(name, nbt)
    return _put(setup, slot, item, _count(count)) + notes


def _summon(args: list[str], setup: Setup, names: Names) -> list[str]:
    name, _, nbt = _split_spec(args[0])
    mob = names.check(name, "entity")
    rest = args[1:]
    if len(rest) >= 3:
        for coordinate in rest[:3]:
            _offset(coordinate)
        rest = rest[3:]
    if rest and not rest[0].startswith("{"):
        raise CommandError(f"cannot read {rest[0]!r}")
    nbt = nbt or (rest[0] if rest else "")
    setup.summon[mob] = setup.summon.get(mob, 0) + 1
    return [f"NBT {nbt} is not part of a start (the {mob} is summoned without it)"] if nbt else []


def _block(spec: str, names: Names) -> tuple[str, list[str]]:
    name, _, nbt = _split_spec(spec)
    if name.removeprefix("minecraft:") in ("air", "cave_air", "void_air"):
        raise CommandError("clears blocks: a start says which blocks are near, not which are not")
    block = names.check(name, "block")
    return block, ([f"NBT {nbt} is not part of a start (the {block} is placed without it)"] if nbt else [])


def _setblock(args: list[str], setup: Setup, names: Names) -> list[str]:
    for coordinate in args[:3]:
        _offset(coordinate)
    block, notes = _block(args[3], names)
    setup.nearby_blocks[block] = setup.nearby_blocks.get(block, 0) + 1
    return notes


def _fill(args: list[str], setup: Setup, names: Names) -> list[str]:
    volume = _volume(args[0:3], args[3:6])
    block, notes = _block(args[6], names)
    if len(args) > 7 and args[7] not in ("replace", "destroy", "keep", "hollow", "outline"):
        raise CommandError(f"cannot read the fill mode {args[7]!r}")
    if len(args) > 7 and args[7] != "replace":
        notes.append(f"mode {args[7]}: counted as a full box of {volume}")
    setup.nearby_blocks[block] = setup.nearby_blocks.get(block, 0) + volume
    return notes + _capped(setup.nearby_blocks[block], block)


def _fillbiome(args: list[str], setup: Setup, names: Names) -> list[str]:
    _volume(args[0:3], args[3:6])
    setup.biome = names.check(args[6], "biome")
    return []


def _time_cmd(args: list[str], setup: Setup, names: Names) -> list[str]:
    if args[0] != "set":
        raise CommandError("only '/time set TIME' sets up a start")
    setup.time = _time(args[1])
    return []


def _weather(args: list[str], setup: Setup, names: Names) -> list[str]:
    if args[0] not in ("clear", "rain", "thunder"):
        raise CommandError(f"unknown weather {args[0]!r}")
    setup.weather = args[0]
    return []


def _execute(args: list[str], setup: Setup, names: Names) -> list[str]:
    """``/execute as @p at @s [in DIMENSION] run COMMAND``: the command, and the dimension if one is named."""
    if "run" not in args:
        raise CommandError("only '/execute ... run COMMAND' sets up a start")
    run = args.index("run")
    modifiers, inner = args[:run], args[run + 1:]
    index = 0
    dimension = None
    while index < len(modifiers):
        word = modifiers[index]
        if word in ("as", "at"):
            _target(modifiers[index + 1])
            index += 2
        elif word == "in":
            if modifiers[index + 1] not in DIMENSIONS:
                raise CommandError(f"unknown dimension {modifiers[index + 1]!r}")
            dimension = DIMENSIONS[modifiers[index + 1]]
            index += 2
        else:
            raise CommandError(f"'/execute {word}' is not something a start can say")
    if dimension is not None and inner[:1] in (["tp"], ["teleport"]):
        _target(inner[1])
        setup.dimension = dimension
        return []
    if dimension is not None:
        raise CommandError("'/execute in DIMENSION' sets up a start only with 'run tp @s ...'")
    return read_command(" ".join(inner), setup, names)


def _place(args: list[str], setup: Setup, names: Names) -> list[str]:
    """``/place structure|feature ID [POS]`` (1.19+): the start is in or near the structure built there."""
    if args[0] not in ("structure", "feature"):
        raise CommandError(f"'/place {args[0]}' builds a template, not a structure of the library")
    structure = names.placed(args[0], args[1])
    position = args[2:]
    if position and len(position) != 3:
        raise CommandError("/place takes a structure and one position (three coordinates)")
    for coordinate in position:
        if not _offset(coordinate)[0]:
            raise CommandError("a structure placed at an absolute position is not near the player's start")
    setup.structure = structure
    return []


def _refuse(reason: str) -> Any:
    def reader(args: list[str], setup: Setup, names: Names) -> list[str]:
        raise CommandError(reason)
    return reader


_READERS = {
    "give": _give, "item": _item_replace, "replaceitem": _replaceitem, "summon": _summon, "setblock": _setblock,
    "fill": _fill, "fillbiome": _fillbiome, "time": _time_cmd, "weather": _weather, "execute": _execute,
    "place": _place,
    "effect": _refuse("a status effect is not part of a taskverse start"),
    "tp": _refuse("moves the player: a start has no position relative to the spawn"),
    "teleport": _refuse("moves the player: a start has no position relative to the spawn"),
    "enchant": _refuse("an enchantment is not part of a taskverse start"),
}


# --- writing ------------------------------------------------------------------------------------------------------

def _rel(offset: int) -> str:
    return f"~{offset}" if offset else "~"


def write_commands(init: Initialization, names: Names) -> list[str]:
    """The Minecraft 1.20 commands that set up ``init``, in the order they run (items in the game's own form).

    A start in or near a structure builds it with ``/place`` in the player's own chunk once the player is in the
    start's dimension: the player then stands in it or above it (a buried or underground one), which is what "in
    or near" means; a ``/tp`` to a spot inside would need the generated layout, which no command reads back.

    Raises:
        CommandError: a part of the start that no command sets (a structure ``/place`` cannot build there, a
            position), with the reason.

    """
    place = _place_command(init, names) if init.structure is not None else None
    if init.position is not None:
        raise CommandError("starts at a given position: the spawn is the world's, no command moves to it safely")
    out: list[str] = []
    if init.dimension.value != "overworld":
        key = {value: key for key, value in DIMENSIONS.items()}[init.dimension.value]
        out.append(f"/execute in {key} run tp @s ~ ~ ~")
    if init.biome is not None:
        out.append(f"/fillbiome ~-16 ~-16 ~-16 ~16 ~16 ~16 minecraft:{init.biome}")
    if init.time is not None:
        value = init.time.value
        out.append(f"/time set {value if value in _KEYWORD_TIMES else TIMES[value]}")
    if init.weather is not None:
        out.append(f"/weather {init.weather.value}")
    if place is not None:
        out.append(place)
    out += [f"/give @s {names.game_item(item)} {n}" for item, n in sorted(init.inventory.items())]
    if init.main_hand is not None:
        out.append(f"/item replace entity @s weapon.mainhand with {names.game_item(init.main_hand)}")
    for slot, item in sorted(init.equipment.items()):
        out.append(f"/item replace entity @s {_SLOT_OF[slot.value]} with {names.game_item(item)}")
    for row, (block, n) in enumerate(sorted(init.nearby_blocks.items())):
        x = 2 + row
        if n == 1:
            out.append(f"/setblock ~{x} ~ ~2 minecraft:{block}")
        else:  # one row of n blocks, 64 to a layer, beside the player
            layers, rest = divmod(n, 64)
            if layers:
                out.append(f"/fill ~{x} ~ ~2 ~{x} {_rel(layers - 1)} ~65 minecraft:{block}")
            if rest:
                out.append(f"/fill ~{x} {_rel(layers)} ~2 ~{x} {_rel(layers)} ~{rest + 1} minecraft:{block}")
    for summon in sorted(init.summon, key=lambda s: s.entity):
        out += [f"/summon minecraft:{summon.entity} ~-3 ~ ~-3"] * summon.count
    return out


def _place_command(init: Initialization, names: Names) -> str:
    """The ``/place`` command that builds the start's structure; CommandError when the game cannot build it there."""
    name = str(init.structure)
    structure = names.kn.structures.get(name)
    if structure is None:
        raise CommandError(f"starts in or near {name!r}, which is no structure of the game")
    if structure.placed is None:
        raise CommandError(f"starts in or near the structure {name}: no /place command builds it (it is carved "
                           "out of the terrain, not placed)")
    if structure.dimension != init.dimension.value:
        raise CommandError(f"starts in or near the structure {name} in the {init.dimension.value}: the game "
                           f"generates it only in the {structure.dimension}, so a start built there by /place is "
                           "no start the game has")
    return f"/place {structure.placed.command} minecraft:{structure.placed.ids[0]} ~ ~ ~"

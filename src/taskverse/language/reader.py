"""The task phrase reader: a task as papers write it ("hunt a pig in the savanna") to a composition.

A phrase is a verb and a thing (``obtain 6 wheat``, ``kill 3 zombies``, ``craft a stone pickaxe``) with what the
literature adds around it: conditions (``in BIOME``, ``in the nether``, ``at night``, ``with bare hands``),
starts (``from scratch``, ``find material and ...``, ``starting from ITEMS, ...``, ``with ITEM(s)``, ``with a full
suite of MATERIAL armor``), counts (``6 wheat``, ``... 3 times``) and joins (``and then``, ``and``, ``or``, ``smelt
and eat X``). Names are read as written first (case, articles, plurals and underscores aside), then through the
curated rename table. The grammar, with examples: ``docs/phrases.md``.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

from taskverse.algebra.expr import MAX_AMOUNT as MAX_COUNT  # the larger of an amount's and a repetition's
from taskverse.algebra.molecule import MoleculeBuilder
from taskverse.errors import TaskverseError, close_matches
from taskverse.knowledge.renames import load_renames, loose_name
from taskverse.language.anvil import BOOK, anvil_things
from taskverse.language.reading import (
    Counted,
    Joined,
    Node,
    PhraseError,
    PhraseReading,
    Started,
    Step,
    apply_constraint,
    apply_count,
    apply_start,
    kit_start,
    parts_of,
    to_expr,
    with_own_start,
)
from taskverse.language.vocabulary import (
    ALSO_MEANS,
    ANY_KIND,
    ARTICLES,
    CAVE_WORDS,
    CONTEXT_TAILS,
    DIMENSION_WORDS,
    GERUNDS,
    GIVEN_WORDS,
    HOW_WORDS,
    INTO_WORDS,
    KEYWORDS,
    KIND_TAGS,
    KIT_WORDS,
    LOCATION_WORDS,
    MAX_PHRASE_WORDS,
    MAX_READ_STEPS,
    MEANS_GERUNDS,
    MISSING_VERBS,
    NAIVE_PREFIXES,
    NAIVE_WORDS,
    NOT_IN_GAME,
    NUMBERS,
    OBTAIN_WORDS,
    ONTO_WORDS,
    PAIR_VERBS,
    PARTNER_WORDS,
    REPEATS,
    SKIP_AFTER_VERB,
    SLOTS,
    START_WORDS,
    STORE_VERBS,
    TIME_OF_DAY,
    TRADE_VERBS,
    TYPOS,
    VAGUE_THINGS,
    VERBS,
    VILLAGERS,
    WHEN_WORDS,
    WITH_WORDS,
    armor_suite,
    forms,
    free_form_at,
    place_reading,
    potion_name,
    rewrite,
    strip_articles,
    then_at,
    tokenize,
    tool_set,
)

MAX_KIND = 64
"""The most things a kind ("door", "wool") stands for in one reading (an any of their atoms)."""

# --- the reader ---------------------------------------------------------------------------------------------------

def _steps_of(node: Node) -> list[str] | None:
    """The atoms of a step, or of a choice of steps (``any kind of pickaxe``); None for anything else."""
    if isinstance(node, Step):
        return [node.task]
    if isinstance(node, Joined) and node.op == "any" and all(isinstance(p, Step) for p in node.parts):
        return [p.task for p in node.parts if isinstance(p, Step)]
    return None


def _without_partner(words: list[str]) -> list[str]:
    """A trade phrase's words without the villager it names (``with a librarian``, ``to a farmer``)."""
    for i, word in enumerate(words):
        if word not in PARTNER_WORDS:
            continue
        j = i + 1
        while j < len(words) and words[j] in ARTICLES:
            j += 1
        k = j
        while k < len(words) and words[k] in VILLAGERS | {"wandering"} | {w + "s" for w in VILLAGERS}:
            k += 1
        if k > j:
            return [*words[:i], *words[k:]]
    return words


@dataclass
class _Modifier:
    kind: Literal["constraint", "count", "start", "source", "context"]
    data: Any
    text: str


class PhraseReader:
    """Reads task phrases against one library (build once, read many: names are indexed once)."""

    def __init__(self, library: Any) -> None:
        self.library = library
        self.kn = library.knowledge
        self.renames = load_renames()
        self.names: dict[str, str] = {}
        for table in (self.kn.items, self.kn.blocks, self.kn.entities, self.kn.biomes, self.kn.structures):
            for name in table:
                self.names.setdefault(name, name)
        for name, structure in self.kn.structures.items():
            for alias in getattr(structure, "aliases", None) or []:
                self.names.setdefault(loose_name(alias).replace(" ", "_"), name)
        self._near: dict[str, list[str]] = {}
        self._exact: set[str] = set()
        self._atoms: dict[str, dict[str, Any]] = library.index.data  # plain data: no task model is built here
        self.potions = {str(goal["target"]) for data in self._atoms.values()
                        if data.get("verb") in ("brew", "drink")
                        and (goal := (data.get("metrics") or {}).get("success") or {}).get("target")}
        """Potions by item id (``potion_of_long_fire_resistance``): the game data names one ``potion`` item."""
        self._on_tag: dict[tuple[str, str], str] = {}
        """The atom whose goal is a verb's event on any item of a tag, by verb and tag (``("obtain", "old_log")``:
        ``obtain.any_log``), so an old name's group atom is found by what it judges, not by how its id is spelt."""
        self._used: dict[str, str] = {}
        """The use, throw or hang atom whose goal is exactly the game's used statistic of an item (ender_pearl:
        throw.ender_pearl), for ``use X`` when no atom is named ``use.X``."""
        for task_id, data in sorted(self._atoms.items()):
            goal = (data.get("metrics") or {}).get("success") or {}
            verb = data.get("verb")
            if verb in ("use", "throw", "hang") and set(goal) == {"event", "target"} and goal["event"] == "use":
                self._used.setdefault(str(goal["target"]), task_id)
            if set(goal) == {"event", "target"} and str(goal["target"]).startswith("#"):
                self._on_tag.setdefault((str(verb), str(goal["target"])[1:]), task_id)
        self._smelts: dict[str, list[str]] = {}
        for recipe in self.kn.smelting:
            self._smelts.setdefault(recipe.input, []).append(recipe.output)

    # entry point ------------------------------------------------------------------------------------------------

    def read(self, phrase: str) -> PhraseReading:
        """Read a phrase; raise ``PhraseError`` naming the words not understood and close known names."""
        self._exact = {w for w in re.findall(r"[a-z0-9]+(?:_[a-z0-9]+)+", phrase.lower()) if w in self.names}
        """Game ids written as ids (``oak_wood``): each means that id, never an old name's or an alias's thing."""
        words, _ = place_reading(rewrite([TYPOS.get(word, word) for word in tokenize(phrase)]))
        if not words:
            raise PhraseError("an empty phrase", field="phrase")
        if len(words) > MAX_PHRASE_WORDS:
            raise PhraseError(f"the phrase has {len(words)} words; the limit is {MAX_PHRASE_WORDS}", field="phrase")
        self._memo: dict[tuple[str, ...], tuple[Node, tuple[str, ...]] | None] = {}
        self._sequences: dict[tuple[str, ...], tuple[Node, tuple[str, ...]] | None] = {}
        self._steps = 0
        self._count_error: PhraseError | None = None
        found = self._phrase(tuple(words))
        if found is None:
            if self._count_error is not None:
                raise self._count_error
            free_form = free_form_at(tuple(words))
            if free_form is not None:
                raise PhraseError(f"no task the world model can judge: {free_form}", field="phrase",
                                  free_form=free_form)
            raise self.diagnose(tuple(words), phrase)
        node, used = found
        return PhraseReading(phrase.strip(), self.own_starts(node), used)

    def own_starts(self, node: Node) -> Node:
        """The reading with each start a phrase gives (``using ITEMS``) added to its part's own start.

        Done once the whole phrase is read, innermost first, so each part's own start is counted once.
        """
        if isinstance(node, Step):
            return node
        if isinstance(node, Joined):
            return Joined(node.op, tuple(self.own_starts(p) for p in node.parts))
        inner = self.own_starts(node.part)
        if isinstance(node, Started) and node.mode == "custom" and not node.kit:
            try:
                own = MoleculeBuilder(self.library).initialization(to_expr(inner))[0]
            except TaskverseError:  # parts that do not go together: building the composition says why
                return dataclasses.replace(node, part=inner)
            merged = with_own_start(own, dict(node.overrides))
            # a start that adds nothing to the task's own ("starting from a porkchop, smelt cooked porkchop") is it
            return Started(inner, "custom", tuple(sorted(merged.items()))) if merged else inner
        return dataclasses.replace(node, part=inner)

    def _phrase(self, words: tuple[str, ...]) -> tuple[Node, tuple[str, ...]] | None:
        """Prefixes that start the whole phrase (``find material and``, ``starting from X,``), then the body."""
        for prefix in NAIVE_PREFIXES:
            if words[:len(prefix)] == prefix and len(words) > len(prefix):
                body = self._phrase(words[len(prefix):])
                if body is not None:
                    node = apply_start(body[0], "naive", {})
                    if node is not None:
                        return node, (" ".join(w for w in prefix if w != ","), *body[1])
        for start in START_WORDS:
            if words[:len(start)] == start and "," in words:
                comma = words.index(",")
                overrides = self.items(words[len(start):comma], inventory_only=True)
                body = self._phrase(words[comma + 1:]) if overrides is not None else None
                if body is not None and overrides is not None:
                    node = kit_start(body[0], overrides)
                    if node is not None:
                        return node, (" ".join(words[:comma]), *body[1])
        return self._sequence(words)

    def _sequence(self, words: tuple[str, ...]) -> tuple[Node, tuple[str, ...]] | None:
        """``A and then B``, ``A, then B``, ``A then B``: a THEN of clauses (or one clause)."""
        if words not in self._sequences:  # each stretch of words is read once: no exponential backtracking
            self._sequences[words] = None
            self._sequences[words] = self._sequence_uncached(words)
        return self._sequences[words]

    def _sequence_uncached(self, words: tuple[str, ...]) -> tuple[Node, tuple[str, ...]] | None:
        for i in range(len(words)):
            cut = then_at(words, i)
            if cut:
                left = self._sequence(words[:i])
                right = self._sequence(words[i + cut:]) if left is not None else None
                if left is not None and right is not None:
                    parts = [*parts_of(left[0], "then"), *parts_of(right[0], "then")]
                    return Joined("then", tuple(parts)), (*left[1], "then", *right[1])
        return self._clause(words)

    def _clause(self, words: tuple[str, ...]) -> tuple[Node, tuple[str, ...]] | None:
        words = tuple(w for w in words if w != ",") if words and words[-1] == "," else words
        if not words:
            return None
        if words in self._memo:
            return self._memo[words]
        self._steps += 1
        if self._steps > MAX_READ_STEPS:
            raise PhraseError(f"the phrase can be split in too many ways (more than {MAX_READ_STEPS:,} clauses "
                              "tried); write it in shorter phrases", field="phrase")
        self._memo[words] = None  # a clause never reads through itself
        found = self._clause_uncached(words)
        self._memo[words] = found
        return found

    def _clause_uncached(self, words: tuple[str, ...]) -> tuple[Node, tuple[str, ...]] | None:
        """A clause: a library description, a verb and a thing, modifiers peeled off the end, or a join."""
        atom = None if self._renamed_first(words) else self.library.lookup(" ".join(w for w in words if w != ","))
        if atom is not None and self._exact and "_".join(strip_articles(words[1:])) in self._exact and \
                "_".join(strip_articles(words[1:])) != (atom.metrics.success.target or ""):
            atom = None  # "mine oak_wood" is the bark block, not the oak log an alias ("mine oak wood") names
        if atom is not None and words[0] in VERBS and atom.verb not in VERBS[words[0]]:
            # a hand-written stand-in (use.breed_cows) yields to the atom of the phrase's own verb (breed.cow)
            core = self.core(words)
            if core is not None:
                return core
        if atom is not None:
            return Step(atom.id), (" ".join(words),)
        if self.anvil_refuses(words) is not None:
            return None  # "combine a golden axe and a golden hoe": one anvil pair the game refuses, not two combines
        core = self.core(words)
        if core is not None:
            return core
        onto = self.put_onto(words) or self.anvil_pair(words) or self.used_on(words) or self.stored_in(words) or \
            self.paid_with(words) or self.one_of(words)
        if onto is not None:
            return onto
        for i in range(len(words) - 1, 0, -1):  # the rightmost modifier first
            modifier = self.modifier(words[i:], words[:i])
            if modifier is None:
                continue
            inner = self._clause(words[:i])
            if inner is None:
                continue
            node = self.apply(inner[0], modifier)
            if node is not None:
                return node, (*inner[1], modifier.text)
        return self.join(words)

    def put_onto(self, words: tuple[str, ...]) -> tuple[Node, tuple[str, ...]] | None:
        """``VERB A with B``, where the task is done to B and uses A up: ``combine an enchanted book with a pickaxe``.

        Read as ``VERB B`` when every atom that reads names A among the items its ways use, and no atom of the verb
        is done to A itself (that reading is ``VERB A``, started with B).
        """
        if len(words) < 4 or words[0] not in VERBS:
            return None
        for i in range(2, len(words) - 1):
            if words[i] not in ONTO_WORDS:
                continue
            used = self.known(tuple(strip_articles(words[1:i])), ("item",))
            read = self.core((words[0], *words[i + 1:])) if used is not None else None
            steps = _steps_of(read[0]) if read is not None else None
            if read is None or not steps or not all(self.uses_item(s, used) for s in steps):
                continue
            return read[0], (words[0], " ".join(words[1:i + 1]), *read[1][1:])
        return None

    def anvil_pair(self, words: tuple[str, ...]) -> tuple[Node, tuple[str, ...]] | None:
        """``combine A and B`` at an anvil, in either order: the anvil's atom for the pair.

        An item and an enchanted book is ``combine.A``; two of one item, or an item and its repair material, the
        anvil's repair (``repair.A``).
        """
        if words[0] not in VERBS or "combine" not in VERBS[words[0]]:
            return None
        for first, second in anvil_things(words):
            pair = (self.known(first, ("item",)), self.known(second, ("item",)))
            task = None
            for item, other in (pair, pair[::-1]):
                if item is None or other is None or item == BOOK[0]:
                    continue
                if other == BOOK[0]:
                    task = self.task_for(words[0], (item,))
                elif (repair := self.task_for("repair", (item,))) is not None and \
                        (other == item or self.some_way_uses(repair, other)):
                    task = repair
                if task is not None:
                    return Step(task), (words[0], " ".join(words[1:]))
        return None

    def anvil_refuses(self, words: tuple[str, ...]) -> str | None:
        """Why the anvil refuses the two things ``combine A and B`` names (two different items), or None."""
        if words[0] not in VERBS or "combine" not in VERBS[words[0]]:
            return None
        for first, second in anvil_things(words):
            a, b = self.known(first, ("item",)), self.known(second, ("item",))
            if a is None or b is None or a == b or BOOK[0] in (a, b):
                continue
            if any((repair := self.task_for("repair", (item,))) is not None and self.some_way_uses(repair, other)
                   for item, other in ((a, b), (b, a))):
                continue  # an item and its repair material
            return (f"an anvil takes an item with an enchanted book, another of the same item or its repair "
                    f"material; {a} and {b} are different items, and neither repairs the other (Minecraft Wiki, "
                    "Anvil; anvil.yaml)")
        return None

    def used_on(self, words: tuple[str, ...]) -> tuple[Node, tuple[str, ...]] | None:
        """``use ITEM on THING``: the atoms whose success is the item used on that mob or block.

        As their goals say it (``use THING using ITEM``): ``use.milk_cow``, ``breed.cow``, ``tame.wolf``.
        """
        if len(words) < 4 or "use" not in VERBS.get(words[0], ())[:1]:
            return None
        for i in range(2, len(words) - 1):
            if words[i] not in ("on", "at"):
                continue
            item = self.known(tuple(strip_articles(words[1:i])), ("item",))
            thing = self.known(tuple(strip_articles(words[i + 1:])), ("entity", "block"))
            if item is None or thing is None:
                continue
            found = sorted(t for t, d in self._atoms.items()
                           if ((d.get("metrics") or {}).get("success") or {}).get("event") == "use"
                           and d["metrics"]["success"].get("target") == thing
                           and d["metrics"]["success"].get("using") == item)
            if found:
                node: Node = Step(found[0]) if len(found) == 1 else Joined("any", tuple(Step(t) for t in found))
                return node, (words[0], " ".join(words[1:i]), " ".join(words[i:]))
        return None

    def stored_in(self, words: tuple[str, ...]) -> tuple[Node, tuple[str, ...]] | None:
        """``put|place|store ITEM in|into CONTAINER``: the item stored in a container (``store.ITEM``).

        The container must be one ``storing.yaml`` names (a chest, a barrel, a shulker box): any of them does.
        """
        if len(words) < 4 or words[0] not in STORE_VERBS or self.kn.mechanisms is None:
            return None
        containers = set(self.kn.mechanisms.storing.container_items)
        for i in range(2, len(words) - 1):
            if words[i] not in INTO_WORDS:
                continue
            if self.known(tuple(strip_articles(words[i + 1:])), ("item",)) not in containers:
                continue
            read = self.core(("store", *words[1:i]))
            if read is not None:
                return read[0], (" ".join(words[:i]), " ".join(words[i:]))
        return None

    def paid_with(self, words: tuple[str, ...]) -> tuple[Node, tuple[str, ...]] | None:
        """``sell emerald and X``: what a player hands a villager for a trade, the trades whose price it is.

        An emerald is the currency, which no villager buys for itself (``trades.yaml``), so "selling" it with an
        item is paying a trade's price: emeralds and a compass buy an explorer map, emeralds and gravel flint.
        """
        if words[0] not in VERBS or "sell" not in VERBS[words[0]] or "and" not in words or self.kn.mechanisms is None:
            return None
        cut = words.index("and")
        pair = (self.known(tuple(strip_articles(words[1:cut])), ("item",)),
                self.known(tuple(strip_articles(words[cut + 1:])), ("item",)))
        currency = self.kn.mechanisms.trading.currency
        if currency not in pair or None in pair or pair[0] == pair[1]:
            return None
        other = str(pair[1] if pair[0] == currency else pair[0])
        found = sorted(t for t, data in self._atoms.items() if data.get("verb") == "trade" and
                       any({currency, other} <= {m for n in way if not n.get("kept") for m in n.get("any_of") or ()}
                           for way in ((w.get("needs", []) if isinstance(w, dict) else w)
                                       for w in data.get("requires") or [])))
        if not found or len(found) > MAX_KIND:
            return None
        node: Node = Step(found[0]) if len(found) == 1 else Joined("any", tuple(Step(t) for t in found))
        return node, (words[0], " ".join(words[1:]))

    def one_of(self, words: tuple[str, ...]) -> tuple[Node, tuple[str, ...]] | None:
        """``VERB one of N THINGS``: any of the kind, when the verb has an atom for exactly N of them.

        A trade table's "one of 5 boats" (a fisherman buys the boat of its villager type's wood) names the kind
        and how many of it the offer takes; a count that differs from the atoms found is not read.
        """
        if len(words) < 5 or words[0] not in VERBS or words[1:3] != ("one", "of"):
            return None
        number = self.number(words[3])
        kinds = self.any_kind(words[0], tuple(strip_articles(words[4:]))) if number is not None else []
        if not kinds or len(kinds) != number:
            return None
        return Joined("any", tuple(Step(t) for t in kinds)), (words[0], " ".join(words[1:]))

    def uses_item(self, task_id: str, item: str | None) -> bool:
        """Whether every way of an atom uses up ``item`` (an enchanted book put onto a tool)."""
        ways = self._atoms.get(task_id, {}).get("requires") or []
        return bool(ways) and all(any(item in (n.get("any_of") or []) and not n.get("kept") for n in
                                      (w.get("needs", []) if isinstance(w, dict) else w)) for w in ways)

    def some_way_uses(self, task_id: str, item: str) -> bool:
        """Whether a way of an atom uses up ``item`` (an iron ingot repairing an iron pickaxe)."""
        ways = self._atoms.get(task_id, {}).get("requires") or []
        return any(any(item in (n.get("any_of") or []) and not n.get("kept") for n in
                       (w.get("needs", []) if isinstance(w, dict) else w)) for w in ways)

    def _renamed_first(self, words: tuple[str, ...]) -> bool:
        """Whether a verb's thing is an old name read first for that verb (``obtain iron ore``: raw iron).

        Phrases do not tell ``iron ore`` from ``iron_ore``; the atom ``obtain.iron_ore`` is named by its id (or, as
        a TASK argument, by its description, which is tried before a phrase).
        """
        if len(words) < 2 or words[0] not in VERBS or "_".join(strip_articles(words[1:])) in self._exact:
            return False
        rename = self.renames.get(loose_name(" ".join(strip_articles(words[1:]))))
        return rename is not None and bool(set(rename.first_for) & set(VERBS[words[0]]))

    def join(self, words: tuple[str, ...]) -> tuple[Node, tuple[str, ...]] | None:
        """``A and B`` / ``A or B``; ``V1 and V2 THING`` is V1 THING then V2 THING."""
        for i, word in enumerate(words):
            if word not in ("and", "or") or i == 0 or i == len(words) - 1:
                continue
            left, right = words[:i], words[i + 1:]
            if word == "and" and len(left) == 1 and left[0] in VERBS and right[0] in VERBS:
                verbs = self.verbs_then(left[0], right)
                if verbs is not None:
                    return verbs
            read_left = self._clause(left)
            if read_left is None:
                continue
            if word == "and" and left[0] in VERBS and "combine" in VERBS[left[0]] and right[0] not in VERBS:
                continue  # "combine A and B": the anvil's two things (anvil_pair), never two combinations
            read_right = self._clause(right)
            if read_right is None and left[0] in VERBS and right[0] not in VERBS:  # "hunt a cow and a sheep"
                read_right = self._clause((left[0], *right))
            if read_right is not None:
                op: Literal["all", "any"] = "all" if word == "and" else "any"
                parts = [*parts_of(read_left[0], op), *parts_of(read_right[0], op)]
                return Joined(op, tuple(parts)), (*read_left[1], word, *read_right[1])
        return None

    def verbs_then(self, verb: str, right: tuple[str, ...]) -> tuple[Node, tuple[str, ...]] | None:
        """``V1 and V2 THING``: V1 THING then V2 THING (``smelt and eat cooked porkchop``).

        Verbs that mean the same library verb name one action, as papers double a verb for emphasis: ``combat and
        kill a zombie`` is one kill (read with the verb nearer the thing, else the first).
        """
        first = self._clause((verb, *right[1:]))
        second = self._clause(right)
        if set(VERBS[verb]) & set(VERBS[right[0]]):
            if second is not None:
                return second[0], (verb, "and", *second[1])
            return None if first is None else (first[0], (verb, "and", right[0], *first[1]))
        if first is None or second is None:
            return None
        return Joined("then", (first[0], second[0])), (verb, "and", *second[1])

    # the core: VERB [COUNT] THING ---------------------------------------------------------------------------------

    def core(self, words: tuple[str, ...]) -> tuple[Node, tuple[str, ...]] | None:
        """``obtain 6 wheat``, ``kill 3 zombies``, ``plant melon``, ``smelt iron ore``, ``mine iron``."""
        verb, rest = words[0], list(words[1:])
        if verb not in VERBS:
            return None
        if set(VERBS[verb]) & set(TRADE_VERBS):
            rest = _without_partner(rest)
        particle = bool(rest) and rest[0] in SKIP_AFTER_VERB
        while rest and rest[0] in SKIP_AFTER_VERB:
            rest = rest[1:]
        if particle and len(rest) > 1 and rest[0] in OBTAIN_WORDS and verb not in OBTAIN_WORDS:
            rest = rest[1:]  # MineDojo's "craft to obtain 8 furnace": the verb says how, the count what is held
        purpose = next((i for i in range(1, len(rest) - 2) if rest[i] == "to" and rest[i + 1] in OBTAIN_WORDS), None)
        if purpose is not None and verb not in OBTAIN_WORDS:
            # MineDojo's "chop trees to obtain log": the words before "to" say how, and the line is judged by what
            # is held (its harvest tasks check the inventory), so it reads as "obtain log"
            return self.core(("obtain", *rest[purpose + 2:]))
        count = None
        while rest and rest[0] in ARTICLES:
            rest = rest[1:]
        if rest and (number := self.number(rest[0])) is not None:
            count, rest = number, rest[1:]
        while rest and rest[0] in ARTICLES:
            rest = rest[1:]
        if not rest:
            return None
        if verb == "equip" and (suite := armor_suite(" ".join(rest))) is not None:
            steps = [self.library.lookup(f"equip {piece}") for piece in suite.values()]
            if all(steps):
                node: Node = Joined("all", tuple(Step(s.id) for s in steps if s is not None))
                return node, (verb, " ".join(rest))
        any_kind = rest[0] == ANY_KIND  # "any color wool": every wool, not the white wool "wool" once named
        rest = rest[1:] if any_kind else rest
        # "any color wool": the group atom where the verb has one (obtain.any_wool), else every wool's atom below
        task = self.group_for(verb, tuple(rest)) if any_kind and rest else \
            None if not rest else self.task_for(verb, tuple(rest))
        if task is None:
            if not rest:
                return None
            named = None if any_kind or self.group_of(tuple(rest)) is not None else \
                self.known(tuple(rest), ("item", "block", "entity", "biome", "structure"))
            kinds = self.any_kind(verb, tuple(rest)) if named is None else []  # "craft a log": oak_log, not a kind
            if not kinds:
                return None
            # "place a door": any door the library places (a kind of things, no one of them named)
            node = Joined("any", tuple(Step(t) for t in kinds))
            if count is not None and count > 1:
                node = Counted(node, count, "times")
            return node, (verb, *([str(count)] if count is not None else []), " ".join(rest))
        if count == 2 and task.split(".")[0] in PAIR_VERBS:
            count = None  # "breed two cows": the pair bred, not two breedings
        node = Step(task)
        used = [verb, *([str(count)] if count is not None else []), " ".join(rest)]
        if count is not None and count > 1:
            node = Counted(node, count, "amount")  # "obtain 8 beef": eight in total, however many pickups
        return node, tuple(used)

    def number(self, word: str) -> int | None:
        """A count word (``6``, ``six``); a count that is not a positive whole number is an error."""
        if word in NUMBERS:
            return NUMBERS[word]
        if not re.fullmatch(r"[+-]?\d+(?:\.\d*)?", word):
            return None
        if not re.fullmatch(r"\+?\d+", word) or int(word) < 1:
            self._count_error = PhraseError(f"a count must be a positive whole number, found {word!r}",
                                            field="phrase", unread=[word])
            return None
        if int(word) > MAX_COUNT:
            self._count_error = PhraseError(f"a count is at most {MAX_COUNT}, found {word}", field="phrase",
                                            unread=[word])
            return None
        return int(word)

    def any_kind(self, verb: str, thing: tuple[str, ...]) -> list[str]:
        """The atoms of a verb for any thing of a kind the name stands for (``door``: every ``*_door``).

        A kind is an item tag of the game (``beds``, ``wool``, ``logs``) or the last word several items (else
        structures) share (``door``, ``banner``, ``dye``; ``pyramid``); at most ``MAX_KIND`` of them. Empty when
        the name is no kind or fewer than two of its things have an atom for the verb.
        """
        for members in self.kind_members(thing):
            tasks = list(dict.fromkeys(t for m in sorted(members) if (t := self.task_for(verb, (m,))) is not None))
            if 2 <= len(tasks) <= MAX_KIND:
                return tasks
        return []

    def kind_members(self, thing: tuple[str, ...]) -> Iterator[list[str]]:
        """The things a kind name may stand for, one list per reading of the name (``doors``, ``door``)."""
        name = "_".join(thing)
        forms = [name, *([name[:-1]] if name.endswith("s") else []), *([name[:-2]] if name.endswith("es") else [])]
        group = self.group_of(thing)
        for form in forms:
            # an old name's own variants ("log": oak, spruce, birch, jungle), else the tag or the word's kind
            members = list(self.kn.tags[group]) if group is not None else \
                [m for tag in KIND_TAGS.get(form, ()) for m in self.kn.tags[tag]]
            members = members or list(self.kn.tags.get(form) or self.kn.tags.get(f"{form}s") or [])
            if not members:
                members = [item for item in self.kn.items if item.endswith(f"_{form}")]
            if not members:  # "find a pyramid": a desert or a jungle pyramid
                members = [s for s in self.kn.structures if s.endswith(f"_{form}")]
            yield members

    def unobtainable_kind(self, thing: tuple[str, ...]) -> str | None:
        """Why no thing of the kind a name stands for can be obtained (``spawn egg``: every mob's egg), or None."""
        never = self.kn.unobtainable
        for members in self.kind_members(thing):
            if len(members) >= 2 and all(m in never for m in members):
                reasons = "; ".join(sorted({never[m] for m in members}))
                return f"{' '.join(thing)} (any of {len(members)}: {', '.join(sorted(members)[:3])}, ...): {reasons}"
        return None

    def group_for(self, verb: str, thing: tuple[str, ...]) -> str | None:
        """The group atom an old name that held its variants as data values means with a verb, or None.

        ``obtain 8 log`` is ``obtain.any_log`` (oak, spruce, birch or jungle; ``renames.yaml``'s ``group``), as the
        benchmarks that write the name judge it; with no group atom for the verb, ``task_for`` reads every member's.
        """
        group = self.group_of(thing)
        if group is None:
            return None
        return next((task for v in VERBS[verb] if (task := self._on_tag.get((v, group))) is not None), None)

    def group_of(self, thing: tuple[str, ...]) -> str | None:
        """The tag an old name that held its variants as data values stands for (``log``: ``old_log``), or None."""
        if "_".join(strip_articles(thing)) in self._exact:
            return None
        for form in forms(thing):
            rename = self.renames.get(loose_name(" ".join(form)))
            if rename is not None and rename.group is not None:
                return rename.group
        return None

    def task_for(self, verb: str, thing: tuple[str, ...]) -> str | None:
        """The atom a verb and a thing mean, trying the verb's library verbs and each reading of the name."""
        group = self.group_for(verb, thing)
        if group is not None:
            return group
        if self.group_of(thing) is not None:  # an atom of the word itself (clean.banner), else every member's atom
            return next((f"{v}.{n}" for v in VERBS[verb] for form in forms(thing)
                         if f"{v}.{(n := '_'.join(form))}" in self._atoms), None)  # (any_kind), not data value 0's
        names = self.name_candidates(thing, VERBS[verb])
        for library_verb in (*VERBS[verb], *ALSO_MEANS.get(verb, ())):
            for name in names:
                for candidate in self._targets(library_verb, name):
                    found = self.library.lookup(f"{library_verb}.{candidate}") or \
                        self.library.lookup(f"{library_verb} {candidate}")
                    if found is not None and found.verb == library_verb:
                        return str(found.id)
            if library_verb == "use" and (used := next((self._used[n] for n in names if n in self._used), None)):
                return used  # "use ender pearl": the atom whose goal is that item's used statistic
        if verb == "harvest":  # a crop: break the grown plant (carrots, potatoes, beetroots) that surely drops it
            for name in names:
                for block in (name, f"{name}s"):
                    drops = self.kn.blocks.get(block, {}).get("drops") or []
                    sure = any(d.get("item") == name and d.get("chance", 1.0) >= 1.0 and not d.get("silk_touch")
                               for d in drops)
                    found = self.library.lookup(f"mine {block}") if sure else None
                    if found is not None:
                        return str(found.id)
        return None

    def _targets(self, verb: str, name: str) -> list[str]:
        """The names a verb's atom may carry for a thing.

        ``mine iron`` is iron_ore, ``find diamond`` diamond_ore, ``plant melon`` melon_seeds, and ``smelt iron
        ore`` names the furnace's output.
        """
        out = [name]
        if verb == "mine":
            out.append(f"{name}_ore")
        elif verb == "find":
            out.append(f"{name}_ore")
        elif verb == "plant":
            out.append(f"{name}_seeds")
        elif verb == "smelt" and len(set(self._smelts.get(name, []))) == 1:
            out.append(self._smelts[name][0])
        return out

    def name_candidates(self, words: tuple[str, ...], verbs: tuple[str, ...] = ()) -> list[str]:
        """1.20 names a thing's words may mean: as written, singular, then through the rename table.

        A rename marked ``first_for`` one of ``verbs`` (the library verbs the phrase's verb may mean) comes first.
        """
        if "_".join(strip_articles(words)) in self._exact:
            return ["_".join(strip_articles(words))]
        out: list[str] = []
        potion = potion_name(words)  # "splash potion of fire": splash_potion_of_fire_resistance
        if potion is not None:
            out.append(potion)
        for form in forms(words):
            key = "_".join(form)
            rename = self.renames.get(loose_name(" ".join(form)))
            if rename is not None and set(rename.first_for) & set(verbs):
                out.append(rename.now)
            if key in self.names:
                out.append(self.names[key])
            if rename is not None:
                out.append(rename.now)
        if not out and len(words) > 1 and words[-1] in ("block", "blocks", "biome"):
            # "dirt blocks": dirt (the game has no dirt_block); "a forest biome": forest
            return self.name_candidates(words[:-1], verbs)
        if not out:  # not a known name: still try it as written (a library description may use it)
            out.append("_".join(words))
        return list(dict.fromkeys(out))

    def known(self, words: tuple[str, ...], kinds: tuple[str, ...]) -> str | None:
        """The 1.20 name of one of ``kinds`` that ``words`` mean, or None."""
        tables = {"item": self.kn.items, "block": self.kn.blocks, "entity": self.kn.entities,
                  "biome": self.kn.biomes, "structure": self.kn.structures}
        for name in self.name_candidates(words):
            if any(name in tables[k] for k in kinds) or ("item" in kinds and name in self.potions):
                return name
        return None

    # modifiers ----------------------------------------------------------------------------------------------------

    def modifier(self, tail: tuple[str, ...], head: tuple[str, ...]) -> _Modifier | None:
        """What a clause's last words add, if they are a modifier (else None)."""
        if tail in CONTEXT_TAILS:  # "on the ground", "to skip the night": read, adding nothing
            return _Modifier("context", None, " ".join(tail))
        if tail[0] not in KEYWORDS and tail[-1] != "times" and tail not in HOW_WORDS:
            return None
        text = " ".join(tail)
        if tail in NAIVE_WORDS:
            return _Modifier("start", ("naive", {}), text)
        if tail in WHEN_WORDS:
            return _Modifier("constraint", {"when": WHEN_WORDS[tail]}, text)
        if tail in HOW_WORDS:
            return _Modifier("constraint", {"how": HOW_WORDS[tail]}, text)
        if tail in CAVE_WORDS:
            return _Modifier("constraint", {"where": "cave"}, text)
        if len(tail) == 1 and tail[0] in REPEATS:
            return _Modifier("count", REPEATS[tail[0]], text)
        if len(tail) == 2 and tail[1] == "times":
            number = self.number(tail[0])
            return None if number is None else _Modifier("count", number, text)
        if tail[0] in LOCATION_WORDS and len(tail) > 2 and tail[1] in TIME_OF_DAY:
            # MineDojo's "in night forest": in the biome, at that time of day
            where = self.modifier((tail[0], *tail[2:]), head)
            if where is None or where.kind != "constraint" or "where" not in where.data:
                return None
            return _Modifier("constraint", {"when": TIME_OF_DAY[tail[1]], **where.data}, text)
        if tail[0] in LOCATION_WORDS and len(tail) > 1:
            place = strip_articles(tail[1:])
            if place and place[-1] in ("biome", "biomes", "dimension"):
                place = place[:-1]
            if len(place) == 1 and place[0] in DIMENSION_WORDS:
                return _Modifier("constraint", {"where": DIMENSION_WORDS[place[0]]}, text)
            biome = self.known(tuple(place), ("biome",)) if place else None
            if biome is not None:
                return _Modifier("constraint", {"where": biome}, text)
            return None
        if tail[0] == "from" and len(tail) > 1 and (mob := self.known(tuple(strip_articles(tail[1:])),
                                                                        ("entity",))) is not None:
            return _Modifier("source", mob, text)  # "obtain milk from a cow"
        if tail[0] in WITH_WORDS and len(tail) > 1:
            overrides = self.items(tail[1:])
            if overrides is None and tuple(strip_articles(tail[1:])) in VAGUE_THINGS:
                return _Modifier("context", None, text)  # "using various blocks": whatever the start gives
            return None if overrides is None else _Modifier("start", ("custom", overrides), text)
        for start in START_WORDS:
            if tail[:len(start)] == start and len(tail) > len(start):
                overrides = self.items(tail[len(start):], inventory_only=True)
                return None if overrides is None else _Modifier("start", ("kit", overrides), text)
        return None

    def apply(self, node: Node, modifier: _Modifier) -> Node | None:
        """``node`` with a modifier on it (None when they cannot go together)."""
        if modifier.kind == "context":
            return node
        if modifier.kind == "constraint":
            return apply_constraint(node, modifier.data)
        if modifier.kind == "count":
            return node if modifier.data == 1 else apply_count(node, modifier.data)
        if modifier.kind == "source":
            return node if self.comes_from(node, modifier.data) else None
        mode, overrides = modifier.data
        return kit_start(node, overrides) if mode == "kit" else apply_start(node, mode, overrides)

    def comes_from(self, node: Node, mob: str) -> bool:
        """Whether an obtain step's item comes from the mob (``obtain milk from a cow``).

        Some atom done to the mob gives it (``use.milk_cow``, ``hunt.cow``); for a group step (``obtain wool``
        reads as ``obtain.any_wool``, a goal on the tag) some member of the group. The source only says how: the
        item counts however it comes.
        """
        if not isinstance(node, Step) or not node.task.startswith("obtain."):
            return False
        goal = (self._atoms.get(node.task) or {}).get("metrics", {}).get("success", {})
        target = str(goal.get("target") or node.task.removeprefix("obtain."))
        items = set(self.kn.tags.get(target[1:], ())) if target.startswith("#") else {target}
        return any(mob in task_id.split(".", 1)[1].split("_") and
                   any(y.get("name") in items for y in data.get("yields") or ())
                   for task_id, data in self._atoms.items() if "." in task_id)

    def items(self, words: tuple[str, ...], inventory_only: bool = False) -> dict[str, Any] | None:
        """``a diamond sword, shield and a full suite of iron armor``: main hand, armour, inventory, mobs.

        The first tool or other item is held in the main hand; armour pieces (and a suite of one material)
        are worn, a shield in the off hand; more items go to the inventory and mobs are summoned. With
        ``inventory_only`` (``starting from ...``) every item goes to the inventory.
        """
        pieces: list[list[str]] = [[]]
        for word in words:
            if word in (",", "and", "plus", "&"):
                pieces.append([])
            else:
                pieces[-1].append(word)
        main_hand: str | None = None
        equipment: dict[str, str] = {}
        inventory: dict[str, int] = {}
        summon: dict[str, int] = {}
        for piece in (p for p in pieces if p):
            suite = armor_suite(" ".join(piece))
            if suite is not None:
                if any(equipment.get(slot, item) != item for slot, item in suite.items()):
                    return None
                equipment.update(suite)
                continue
            tools = tool_set(" ".join(piece))
            if tools is not None:  # "wooden tools": carried, not held
                for tool in tools:
                    inventory[tool] = inventory.get(tool, 0) + 1
                continue
            piece = strip_articles(piece)
            count = 1
            if piece and (number := self.number(piece[0])) is not None:
                count, piece = number, strip_articles(piece[1:])
            if not piece:
                return None
            if piece[0] == "empty":  # "an empty bucket"
                piece = piece[1:]
            nearby = len(piece) > 1 and piece[-1] == "nearby"  # "a cow nearby": summoned beside the agent
            if nearby:
                piece = piece[:-1]
            words_given = {**GIVEN_WORDS, **KIT_WORDS} if inventory_only else GIVEN_WORDS
            if tuple(piece) in words_given:
                given, amount = words_given[tuple(piece)]
                inventory[given] = inventory.get(given, 0) + amount * count
                continue
            item = None if nearby else self.known(tuple(piece), ("item",))
            if item is None:
                mob = self.known(tuple(piece), ("entity",))
                if mob is None or inventory_only:
                    return None
                summon[mob] = summon.get(mob, 0) + count
                continue
            slot = SLOTS.get(item.rsplit("_", 1)[-1]) if item not in ("leather_horse_armor",) else None
            if inventory_only:
                inventory[item] = inventory.get(item, 0) + count
            elif slot is not None and item in self.kn.items and self.library.lookup(f"equip {item}") is not None:
                if equipment.get(slot, item) != item:
                    return None
                equipment[slot] = item
            elif item == "shield" and "offhand" not in equipment:
                equipment["offhand"] = item
            elif main_hand is None and count == 1:
                main_hand = item
            else:
                inventory[item] = inventory.get(item, 0) + count
        out: dict[str, Any] = {}
        if main_hand is not None:
            out["main_hand"] = main_hand
        if equipment:
            out["equipment"] = {slot: equipment[slot] for slot in ("head", "chest", "legs", "feet", "offhand")
                                if slot in equipment}
        if inventory:
            out["inventory"] = dict(sorted(inventory.items()))
        if summon:
            out["summon"] = dict(sorted(summon.items()))
        return out or None

    # why a phrase does not read ----------------------------------------------------------------------------------

    def diagnose(self, words: tuple[str, ...], phrase: str) -> PhraseError:
        """The words not understood, the close known names, and whether the game allows the task at all."""
        for prefix in NAIVE_PREFIXES:
            if words[:len(prefix)] == prefix and len(words) > len(prefix):
                return self.diagnose(words[len(prefix):], phrase)
        for start in START_WORDS:
            if words[:len(start)] == start and "," in words:
                comma = words.index(",")
                if self.items(words[len(start):comma], inventory_only=True) is None:
                    return self._unread(words[len(start):comma], "item to start from")
                return self.diagnose(words[comma + 1:], phrase)
        for i in range(len(words)):  # the first clause of a sequence that does not read
            cut = then_at(words, i)
            if cut:
                if self._clause(words[:i]) is None:
                    return self.diagnose(words[:i], phrase)
                return self.diagnose(words[i + cut:], phrase)
        for i, word in enumerate(words):  # "craft bell and craft cake": the part of a join that does not read
            if word in ("and", "or") and 1 < i < len(words) - 2 and words[i + 1] in VERBS and words[0] in VERBS:
                for part in (words[:i], words[i + 1:]):
                    if self._clause(part) is None:
                        return self.diagnose(part, phrase)
        if len(words) > 3 and words[0] in VERBS and words[1] == "and" and words[2] in VERBS:
            for clause in ((words[0], *words[3:]), words[2:]):  # "craft and use a clock": the verb that fails
                if self._clause(clause) is None:
                    return self.diagnose(clause, phrase)
        core = words
        structure_at: tuple[tuple[str, ...], str] | None = None
        peeled = True
        while peeled and len(core) > 1:  # peel the modifiers that read, and note a location naming a structure
            peeled = False
            for i in range(len(core) - 1, 0, -1):
                tail = core[i:]
                if self.modifier(tail, core[:i]) is not None:
                    core, peeled = core[:i], True
                    break
                if tail[0] in LOCATION_WORDS and len(tail) > 1:
                    structure = self.known(tuple(strip_articles(tail[1:])), ("structure",))
                    if structure is not None:
                        structure_at = (tail, structure)
                        core, peeled = core[:i], True
                        break
        means = self.gerund_at(words, MEANS_GERUNDS, start=1)
        if means is not None:
            verbs = MEANS_GERUNDS[words[means]]
            known = sorted(i for i, d in self._atoms.items() if d.get("verb") in verbs)
            return PhraseError(f"'{words[means]}' says how to reach the goal, which a task cannot require; the "
                               f"library's {' and '.join(verbs)} atoms do it ({', '.join(known[:3])}, ...)",
                               field="phrase", unread=list(words[means:]))
        gerund = self.gerund_at(words, GERUNDS)
        if gerund is not None:
            return self._why_not((GERUNDS[words[gerund]], *words[gerund + 1:]))
        if words[0] in MISSING_VERBS:
            return self._why_not(words)
        if self._clause(core) is not None:
            if structure_at is not None:
                tail, structure = structure_at
                return PhraseError(f"'{' '.join(tail)}' names a structure ({structure}); where= takes a "
                                   "dimension, biome, cave or height, so a task inside a structure is not "
                                   "expressible", field="phrase", unread=list(tail))
            return PhraseError("the parts read but do not go together (two different starts or conditions)",
                               field="phrase")
        for i in range(len(core) - 1, 0, -1):  # the clause reads up to a condition that does not
            tail = core[i:]
            if self._clause(core[:i]) is not None and tail[0] in WITH_WORDS | LOCATION_WORDS and len(tail) > 1:
                what = "item or mob" if tail[0] in WITH_WORDS else "biome, dimension or cave"
                return self._unread(tuple(strip_articles(tail[1:])), what)
        return self._why_not(core)

    def gerund_at(self, words: tuple[str, ...], gerunds: Any, start: int = 0) -> int | None:
        """Where the first gerund of ``gerunds`` is (``by brewing``), or None.

        A gerund that begins a thing's name is the thing (``an enchanting table``, ``a brewing stand``, ``a fishing
        rod``), not a way of doing the task.
        """
        for i in range(start, len(words)):
            if words[i] in gerunds and not any(self.known(words[i:j], ("item", "block", "entity")) is not None
                                               for j in range(i + 2, len(words) + 1)):
                return i
        return None

    def _why_not(self, words: tuple[str, ...]) -> PhraseError:
        verb = words[0]
        if verb in MISSING_VERBS:
            known = sorted(d["description"] for i, d in self._atoms.items() if d.get("verb") == "use" and verb in i)
            hint = f" (the library has: {', '.join(known[:4])})" if known else ""
            obj = " ".join(strip_articles(words[1:]))
            return PhraseError(f"no atom for {MISSING_VERBS[verb]}{' ' + obj if obj else ''}{hint}",
                               field="phrase",
                               unread=list(words[1:]))
        if verb not in VERBS and verb in {d.get("verb") for d in self._atoms.values()}:
            known = sorted(d["description"] for d in self._atoms.values() if d.get("verb") == verb)
            return PhraseError(f"the library's {verb} tasks are {', '.join(known[:6])}"
                               f"{', ...' if len(known) > 6 else ''}; none of them means this", field="phrase",
                               unread=list(words[1:]))
        if verb not in VERBS:
            return PhraseError(f"no atom starts with the verb {verb!r}; the phrase reader knows "
                               f"{', '.join(sorted(VERBS)[:14])}, ...", field="phrase", unread=[verb],
                               suggestions=close_matches(verb, VERBS))
        rest = [w for w in words[1:] if w not in SKIP_AFTER_VERB]
        rest = strip_articles(rest)
        rest = rest[1:] if rest and rest[0] == ANY_KIND else rest
        if rest and self.number(rest[0]) is not None:
            rest = strip_articles(rest[1:])
        if self._count_error is not None:
            return self._count_error
        if not rest:
            return PhraseError(f"{verb} what? (no thing named after the verb)", field="phrase", unread=[])
        thing = tuple(rest)
        for i in range(len(thing)):  # "brew potion of oozing", "repair a mace": a thing the 1.20 game lacks
            for j in range(len(thing), i, -1):
                if thing[i:j] in NOT_IN_GAME:
                    return PhraseError(f"not possible in the game: {' '.join(thing[i:j])}: {NOT_IN_GAME[thing[i:j]]}",
                                       field="phrase", status="impossible")
        for pair in anvil_things(words):  # "combine a shield and a book with ...": what the book goes onto
            if BOOK in pair and pair[0] != pair[1]:
                thing = pair[1] if pair[0] == BOOK else pair[0]
                break
        refused = self.anvil_refuses(words)
        if refused is not None:
            return PhraseError(f"not possible in the game: {refused}", field="phrase", status="impossible")
        name = self.known(thing, ("item", "block", "entity", "biome", "structure"))
        if verb == "build" and (name is None or name not in self.kn.items):
            builds = sorted(d["description"].removeprefix("build ") for d in self._atoms.values()
                            if d.get("verb") == "build")
            what = f"a free-form build ('{' '.join(thing)}')"
            return PhraseError(f"no task the world model can judge: {what}: the library's builds are "
                               f"{', '.join(builds[:8])}, ...; no other shape is checked", field="phrase",
                               free_form=what)
        if name is None and VERBS[verb][0] == "mine" and self.kn.why_not_broken("_".join(thing)) is not None:
            name = "_".join(thing)  # no block of the game data, but a name the game gives (air): impossible below
        if name is None and VERBS[verb][0] == "obtain" and (never := self.unobtainable_kind(thing)) is not None:
            return PhraseError(f"not possible in the game: {never}", field="phrase", status="impossible")
        if name is None:  # close names that make a task with this verb come first, as task ids
            error = self._unread(thing, "item, block, mob, biome or structure")
            tasks = [task for near in error.suggestions if (task := self.task_for(verb, (near,))) is not None]
            error.suggestions = list(dict.fromkeys([*tasks, *error.suggestions]))[:3]
            return error
        impossible = self.impossible(VERBS[verb][0], name)
        if impossible is not None:
            return PhraseError(f"not possible in the game: {impossible}", field="phrase",
                               status="impossible")
        left_out = self.kn.mechanisms.breaking.left_out_reason(name) if self.kn.mechanisms is not None else None
        if VERBS[verb][0] == "mine" and left_out is not None:
            return PhraseError(f"the library has no mine task for {name}: {left_out}", field="phrase")
        if VERBS[verb][0] == "obtain" and name in self.kn.blocks and name not in self.kn.craft_ways:
            drops = self.kn.blocks[name].get("drops") or []
            own = [d for d in drops if d.get("item") == name]
            if own and all(d.get("silk_touch") for d in own):
                return PhraseError(f"{name} drops itself only when mined with Silk Touch, and the library cannot "
                                   "get it from scratch", field="phrase")
        if VERBS[verb][0] == "obtain":
            return PhraseError(f"the library has no obtain task for {name} (obtain atoms are the items the world "
                               "model can get from scratch)", field="phrase")
        if VERBS[verb][0] == "find" and name in self.kn.blocks:
            return PhraseError(f"the library has no find task for {name}: the world model records neither the "
                               "structures that generate it nor that the world never does (structure_blocks.yaml)",
                               field="phrase")
        if VERBS[verb][0] == "enchant" and name in self.kn.items:
            return PhraseError(f"the library has no enchant task for {name}: an enchanting table does not take it, "
                               "and anvil.yaml lists it among no items a book's enchantment goes on", field="phrase")
        near = self.tasks_naming(VERBS[verb], name)
        return PhraseError(f"the library has no {' or '.join(VERBS[verb])} task for {name}", field="phrase",
                           suggestions=near[:3])

    def tasks_naming(self, verbs: tuple[str, ...], name: str) -> list[str]:
        """The atoms of ``verbs`` (by verb or by success event) whose goal is done to or with ``name``.

        An enchanting table: the enchant atoms, whose success is a use of the table.
        """
        out = []
        for task_id, data in self._atoms.items():
            goal = (data.get("metrics") or {}).get("success") or {}
            if (data.get("verb") in verbs or goal.get("event") in verbs) and name in (goal.get("target"),
                                                                                     goal.get("using")):
                out.append(task_id)
        return sorted(out)

    def _unread(self, words: Any, what: str) -> PhraseError:
        key = "_".join(words)
        if key not in self._near:
            self._near[key] = close_matches(key, self.names, n=3) if len(key) <= 64 else []
        near = self._near[key]
        return PhraseError(f"did not understand '{' '.join(words)}': it names no {what}",
                           field="phrase", unread=list(words), suggestions=near)

    def impossible(self, verb: str, name: str) -> str | None:
        """Why the game itself does not allow ``verb name`` (crafting a log), or None."""
        kn = self.kn
        if verb == "craft":
            if name not in kn.items:
                return f"{name} is not an item"
            if name not in kn.craft_ways:
                return f"{name} has no crafting recipe"
        elif verb == "smelt" and name not in self._smelts and name not in {r.output for r in kn.smelting}:
            return f"{name} goes into no furnace recipe and comes out of none"
        elif verb == "mine" and (why := kn.why_not_broken(name)) is not None:
            return f"{name}: {why}"
        elif verb == "mine" and name not in kn.blocks:
            return f"{name} is not a block"
        elif verb in ("hunt", "combat") and name not in kn.entities:
            return f"{name} is not a mob"
        elif verb == "drink" and name.startswith(("splash_", "lingering_")):
            return f"{name} is thrown, not drunk (Minecraft Wiki, Splash Potion, Lingering Potion)"
        elif verb == "throw" and kn.mechanisms is not None and \
                (why := kn.mechanisms.throwing.why_not_thrown(name)) is not None:
            return f"{why} (throwing.yaml)"
        elif verb == "trap" and kn.mechanisms is not None and \
                (why := kn.mechanisms.boating.why_not_trapped(name)) is not None:
            return f"no boat seats {name}: {why} (boating.yaml)"
        elif verb == "eat" and name not in kn.foods:
            return f"{name} is not food"
        elif verb == "place" and name not in kn.blocks:
            return f"{name} is not a block"
        elif verb == "find" and (never := kn.why_not_found(name)) is not None:
            return never
        elif verb in TRADE_VERBS and kn.mechanisms is not None and name == kn.mechanisms.trading.currency:
            return f"{name} is the currency of every trade: no villager or trader buys or sells it (trades.yaml)"
        elif verb == "obtain" and name in kn.unobtainable:
            return f"{name}: {kn.unobtainable[name]}"
        elif verb == "use" and name in kn.never_used:
            return f"{name}: {kn.never_used[name]} (item_use.yaml)"
        elif verb == "equip" and name in kn.items and SLOTS.get(name.rsplit("_", 1)[-1]) is None \
                and name not in ("shield", "elytra", "carved_pumpkin", "turtle_helmet"):
            return f"{name} cannot be worn"
        return None


def read_phrase(phrase: str, library: Any) -> PhraseReading:
    """Read one phrase against a library (see ``PhraseReader`` to read many)."""
    return PhraseReader(library).read(phrase)



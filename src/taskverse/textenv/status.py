"""The model's internal counts in the text observation, said as the game shows them to a player.

The model tracks more than things held (``Rules.internal``): a tool's wear (``wear:iron_pickaxe``), a furnace's
unburnt fuel (``furnace_heat``, in ticks), a profession's villager experience (``xp:librarian``), what the finite
sources found still hold (``left:evoker``, ``left:stronghold.library``) and an offer's trades left
(``stock:librarian:trade.bookshelf``). The text's inventory lists held items only; these lines say the rest in a
player's words, as the game shows it: a tool's durability bar, the furnace's flame, a villager's level bar, the mobs
and chests still standing where a structure was found. An offer's trades left are not shown (a villager holds one
such count per offer, hundreds in all, and a locked offer shows as its trade no longer a candidate). The structured
observation and ``env.inventory()`` keep every raw count.

Example:
    >>> from taskverse import load_library
    >>> from taskverse.world.rules import Rules
    >>> library = load_library()
    >>> rules = Rules.from_knowledge(library.tasks, library.knowledge, extra_items=library.knowledge.items)
    >>> words = StatusWords.for_rules(rules, library.knowledge)
    >>> items = [rules.index[("item", "xp:librarian")], rules.index[("item", "wear:iron_pickaxe")]]
    >>> for line in words.lines(items, [10, 12]):
    ...     print(line)
    Tools: iron_pickaxe (wear 12 of 250)
    Villagers: librarian apprentice (experience 10; journeyman at 70)

"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from taskverse.schema import VILLAGER_XP_PREFIX
from taskverse.world.rules import HEAT, TICKS_PER_SMELT, Rules

Words = Callable[[int], str]

#: The lines, in the order the observation prints them: the first two right after the inventory (about things
#: held), the others after what was found (about things found).
TITLES = ("Tools", "Furnace", "Villagers", "Left where found")
HELD_LINES = 2
MEMO = 4096
"""The most sets of internal counts whose lines are remembered (``StatusWords.of``)."""


def _worn(tool: str, durability: int) -> Words:
    return lambda n: f"{tool} (wear {n} of {durability})"


def _fuel(n: int) -> str:
    return f"fuel left for {n / TICKS_PER_SMELT:g} smelts"


def _level(profession: str, levels: Mapping[str, int]) -> Words:
    ordered = sorted(levels.items(), key=lambda kv: kv[1])

    def words(n: int) -> str:
        reached = [name for name, at in ordered if at <= n]
        ahead = [(name, at) for name, at in ordered if at > n]
        level = f"{reached[-1]} " if reached else ""
        following = f"; {ahead[0][0]} at {ahead[0][1]}" if ahead else ""
        return f"{profession} {level}(experience {n}{following})"

    return words


def _chests(what: str) -> Words:
    return lambda n: f"{what} ({n} chest{'' if n == 1 else 's'} unopened)"


def _alive(mob: str) -> Words:
    return lambda n: f"{mob} ({n})"


class StatusWords:
    """Per internal count the text shows, its line and its words (build with ``for_rules``)."""

    def __init__(self, rules: Rules, levels: Mapping[str, int]) -> None:
        entries: list[tuple[int, str, int, Words]] = []  # (line, name, resource, words)
        for wear, durability in rules.wear_of.values():
            tool = rules.names[wear].split(":", 1)[1]
            entries.append((0, tool, wear, _worn(tool, durability)))
        if ("item", HEAT) in rules.index:
            entries.append((1, HEAT, rules.index[("item", HEAT)], _fuel))
        for r in sorted(rules.internal):
            if rules.names[r].startswith(VILLAGER_XP_PREFIX):
                profession = rules.names[r][len(VILLAGER_XP_PREFIX):]
                entries.append((2, profession, r, _level(profession, levels)))
        for source, (left, _) in rules.left_of.items():
            kind, name = rules.resources[source]
            entries.append((3, name, left, _chests(name) if kind == "structure" else _alive(name)))
        for ((_, structure), chest), (left, _) in rules.kind_left.items():
            entries.append((3, f"{structure}.{chest}", left, _chests(f"{structure} {chest}")))
        entries.sort(key=lambda e: (e[0], e[1]))
        self.said: dict[int, tuple[int, int, Words]] = {e[2]: (e[0], i, e[3]) for i, e in enumerate(entries)}
        """Per internal item said: its line, its place among the lines' entries, its words."""
        self.index = np.array(sorted(self.said), dtype=np.intp)
        """The internal items said."""
        self._memo: dict[bytes, tuple[str, str]] = {}
        self.held = np.array([r not in rules.internal for r in range(rules.n_items)], dtype=np.int64)
        """Per item, 1 when the inventory lists it: a thing held, not an internal count."""

    @classmethod
    def for_rules(cls, rules: Rules, knowledge: Any = None) -> StatusWords:
        """The words for ``rules`` (built once per rules and kept on them); the villager levels from ``knowledge``."""
        cached: StatusWords | None = getattr(rules, "_status_words", None)
        if cached is None:
            mechanisms = getattr(knowledge, "mechanisms", None)
            levels = {str(k): int(v) for k, v in mechanisms.trading.levels.items()} if mechanisms is not None else {}
            cached = cls(rules, levels)
            rules._status_words = cached  # type: ignore[attr-defined]
        return cached

    def lines(self, items: list[int], counts: list[int]) -> tuple[str, str]:
        """The lines after the inventory and those after what was found, for internal ``items`` and their ``counts``.

        The items come in any order; those not said (an offer's trades left) are left out.
        """
        parts: list[list[tuple[int, str]]] = [[] for _ in TITLES]
        said = self.said
        for r, n in zip(items, counts, strict=True):
            entry = said.get(r)
            if entry is not None:
                parts[entry[0]].append((entry[1], entry[2](n)))
        out = [f"{title}: {', '.join(words for _, words in sorted(part))}" if part else ""
               for title, part in zip(TITLES, parts, strict=True)]
        return ("\n".join(line for line in out[:HELD_LINES] if line),
                "\n".join(line for line in out[HELD_LINES:] if line))

    def of(self, counts: np.ndarray) -> tuple[str, str]:
        """:meth:`lines` for a state's ``counts`` (every resource), remembered per set of internal counts.

        The internal counts change far less often than the inventory (a tool's wear at a use, a chest at a loot), so
        a text step mostly finds its lines made already.
        """
        said = counts[self.index]
        key = said.tobytes()
        made = self._memo.get(key)
        if made is None:
            nonzero = np.flatnonzero(said)
            made = self.lines(self.index[nonzero].tolist(), said[nonzero].tolist())
            if len(self._memo) >= MEMO:  # bounded: a long random walk meets ever new wear counts
                self._memo.clear()
            self._memo[key] = made
        return made

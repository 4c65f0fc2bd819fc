"""Why a phrase reads as it does: the rules behind a reading, one line each, for auditing a task list.

``taskverse coverage --format json`` gives each line's expression and these rules, so a researcher can check a
list's readings in minutes: which atom a name became and why (the game's name, an old name through the rename
table, a paper's own phrasing), which word became which operator, constraint or start.

Example:
    >>> from taskverse import load_library
    >>> from taskverse.language.reader import PhraseReader
    >>> reader = PhraseReader(load_library())
    >>> rules_of(reader.read("obtain 8 beef in swampland"), reader)[:2]
    ['a count of things: 8 in total, however many events give them (amount)', "'in swampland': where=swamp"]

"""

from __future__ import annotations

from functools import cache
from typing import Any

from taskverse.knowledge.renames import loose_name
from taskverse.language.reading import Counted, Joined, Limited, Node, PhraseReading, Started, Step
from taskverse.language.vocabulary import (
    ALSO_MEANS,
    ONTO_WORDS,
    USE_MEANINGS,
    VERBS,
    place_reading,
    strip_articles,
    tokenize,
)

JOINS = {"then": "one after the other: THEN (>>)", "all": "all of them, in any order: AND (&)",
         "any": "either of them: OR (|)"}


def rules_of(reading: PhraseReading, reader: Any) -> list[str]:
    """The rules that produced a reading, outermost first (see the module's docstring)."""
    rules: list[str] = []
    _walk(reading.root, reading, reader, rules)
    return list(dict.fromkeys(rules))


def _walk(node: Node, reading: PhraseReading, reader: Any, rules: list[str]) -> None:
    if isinstance(node, Counted):
        rules.append(f"a count of things: {node.count} in total, however many events give them (amount)"
                     if node.kind == "amount" else f"done {node.count} times: {node.count} * (times)")
        _walk(node.part, reading, reader, rules)
    elif isinstance(node, Limited):
        for key, value in node.constraint:
            said = _said(reading, (value, value.replace("_", " ")), ("at ", "in ", "during ", "with ", "by "))
            rules.append(f"{said}{key}={value}")
        _walk(node.part, reading, reader, rules)
    elif isinstance(node, Started):
        if node.mode == "naive":
            rules.append("from nothing ('find material and', 'from scratch'): naive(...)")
        elif node.kit:
            rules.append("'starting from ...': those items are the whole start (custom, replacing the task's own)")
        else:
            given = ", ".join(f"{k}={v}" for k, v in node.overrides)
            rules.append(f"'using/with ...': added to the task's own start (custom: {given})")
        _walk(node.part, reading, reader, rules)
    elif isinstance(node, Joined):
        rules.append(JOINS[node.op])
        for part in node.parts:
            _walk(part, reading, reader, rules)
    elif isinstance(node, Step):
        rules.extend(_step_rules(node.task, reading, reader))


def _said(reading: PhraseReading, values: tuple[str, ...], prefixes: tuple[str, ...]) -> str:
    """The piece of the phrase a constraint came from, quoted, if one names it."""
    for piece in reading.used:
        low = piece.lower()
        if low.startswith(prefixes) or any(v in low for v in values):
            return f"'{piece}': "
    return ""


def _step_rules(task_id: str, reading: PhraseReading, reader: Any) -> list[str]:
    """How a name and a verb became one atom: a paper's phrasing, an old name, a verb's meaning."""
    verb, _, target = task_id.partition(".")
    out = []
    pieces = [loose_name(p) for p in reading.used]
    phrase = loose_name(reading.phrase)
    for text, (task, paper) in _aliases().items():
        if task == task_id and (text == phrase or text in pieces):
            out.append(f"the literature's phrasing '{text}' is {task_id} ({paper})")
            break
    for piece in pieces:
        words = piece.split()
        while words and (words[0] in VERBS or words[0] in ("a", "an", "the", "some")):
            words = words[1:]
        rename = reader.renames.get(" ".join(words)) if words else None
        if rename is not None and rename.group is not None and target.startswith("any_"):
            tag = ((reader.library.index.data.get(task_id, {}).get("metrics") or {}).get("success") or {}).get(
                "target", f"#{rename.group}")
            out.append(f"old name '{' '.join(words)}' held its variants as data values ({rename.source}): any "
                       f"member of {tag} counts, as {rename.judged}")
            break
        if rename is not None and rename.now in target and rename.now != "_".join(words):
            out.append(f"old name '{' '.join(words)}' is {rename.now} ({rename.source})")
            break
    goal = (reader.library.index.data.get(task_id, {}).get("metrics") or {}).get("success") or {}
    for piece in reading.used:
        words = piece.split()
        used = reader.known(tuple(strip_articles(words[:-1])), ("item",)) if len(words) > 1 else None
        if used is not None and words[-1] in ONTO_WORDS and reader.uses_item(task_id, used):  # put_onto
            out.append(f"'{' '.join(words[:-1])}' is used up by {task_id}, done to what follows '{words[-1]}'")
        elif len(words) > 1 and words[0] in ("on", "at") and goal.get("event") == "use" and goal.get("using"):
            out.append(f"'use ITEM {words[0]} THING' is the atom whose success is {goal['target']} used with "
                       f"{goal['using']}")
    said = next((w for p in pieces for w in p.split()[:1] if w in VERBS and verb in VERBS[w] and w != verb), None)
    also = next((w for p in pieces for w in p.split()[:1] if verb in ALSO_MEANS.get(w, ())), None)
    if said is not None:
        out.append(f"'{said}' means {verb}" + (f" ({USE_MEANINGS[verb]})" if said == "use" else ""))
    elif also is not None:  # "enchant shears": no enchant atom for them, the anvil's combine
        out.append(f"'{also}' also means {verb}, when no atom of its own verb is done to the thing")
    elif verb == "use" and _is_statistic(reader.library.index.data.get(task_id, {}), target):
        out.append(f"'use' is {USE_MEANINGS['use']}")
    if verb == "trade" and any(p.split()[0] in VERBS and "sell" in VERBS[p.split()[0]] for p in pieces if p):
        out.append(f"'{phrase}': an emerald and an item handed over are the price {task_id} takes (the currency "
                   "is no thing a villager buys for itself)")  # paid_with
    out += [f"'{p}': any one of the kind, when the verb has an atom for exactly that many" for p in pieces
            if p.startswith("one of ")]  # one_of
    data = reader.library.index.data.get(task_id, {})
    _, place = place_reading(tokenize(reading.phrase))
    if place is not None:  # "light up a castle": the counted task, the place in words only
        out.append(f"'{reading.phrase.strip()}' is {task_id}, MCU's own counted reading; the {place} is not in the "
                   "world model's state")
    elif verb == "build" and goal.get("event") == "build":
        out.append(f"a named build: {task_id}, {_judged(data)}")
    out.append(f"atom {task_id}")
    return out


def _judged(data: dict[str, Any]) -> str:
    """How a named build is judged: its materials spent, and a person's rating of its look where it has one."""
    spent = ", ".join(f"{n} {item}" for item, n in sorted(((data.get("initialization") or {}).get("inventory")
                                                           or {}).items()))
    rated = "human_rating" in ((data.get("metrics") or {}).get("also") or [])
    return (f"made of {spent or 'its requirements'} (the text world takes it as built once they are spent)"
            + ("; its look rated by a person (human_rating)" if rated else
               "; an engine's runtime checks its shape where the game has one"))


def _is_statistic(data: dict[str, Any], item: str) -> bool:
    """Whether an atom's success is its item used and nothing more (``use.iron_pickaxe``, the used statistic)."""
    goal = (data.get("metrics") or {}).get("success") or {}
    return goal.get("event") == "use" and goal.get("target") == item and goal.get("using") is None


def _aliases() -> dict[str, tuple[str, str]]:
    """The literature's phrasings (``atoms/aliases.yaml``): loose text -> (atom id, paper)."""
    from taskverse.paths import atoms_dir

    path = atoms_dir() / "aliases.yaml"
    return _aliases_in(str(path), path.stat().st_mtime_ns if path.exists() else 0)


@cache
def _aliases_in(path: str, mtime: int) -> dict[str, tuple[str, str]]:
    """The phrasings of one version of the file (read again when it changes)."""
    from taskverse.yamlio import read_yaml

    data = read_yaml(path) if mtime else {}
    rows = (data or {}).get("aliases") or []
    return {loose_name(str(row["alias"])): (str(row["task"]), str(row.get("paper", "")))
            for row in rows if isinstance(row, dict) and "alias" in row and "task" in row}


__all__ = ["rules_of"]

"""Group atoms: ``obtain.any_log``, ``craft.any_bed``, a goal met by any variant an old name held as data values.

Before 1.13 ``log``, ``planks``, ``wool`` or ``bed`` was one id whose variants were data values; the benchmarks
that write those names (MineDojo) judge by the id and ignore the data value, so ``obtain 8 log in taiga`` is eight
of any 1.11 log, spruce included. The rename table (``curated/renames.yaml``) names each such group as a tag; this
module makes, for each group and each verb whose atoms its members have, one goal-only atom whose success is that
verb on the tag: an amount of it counts the members together (``amount(8, obtain.any_wool)``: eight wool of any
colours), which an OR of the members' atoms cannot, and the members' own actions reach it.
"""

from __future__ import annotations

from typing import Any

from taskverse.knowledge.facts import Knowledge
from taskverse.knowledge.renames import load_renames
from taskverse.library.drafts import goal
from taskverse.schema import GOAL_ONLY_TAG, AtomTask

GROUP_VERBS = ("obtain", "craft", "smelt")
"""The verbs whose atoms a group gets: having, crafting and smelting an item are judged by its name (MineDojo's
inventory check, its craft and smelt rewards), so any variant counts."""


def group_ids(kn: Knowledge) -> set[str]:
    """Every id a group atom may take (aliases may name them before the atoms are made)."""
    return {f"{verb}.any_{r.name.replace(' ', '_')}" for r in load_renames(kn=kn).values() if r.group is not None
            for verb in GROUP_VERBS}


def group_atoms(kn: Knowledge, everything: dict[str, AtomTask], aliases: dict[str, list[str]]) -> list[AtomTask]:
    """One atom per old-name group and verb with at least two member atoms (``obtain.any_log``).

    Each needs any member; a craft or smelt group starts as the atom of the item data value 0 became does.
    """
    out: list[AtomTask] = []
    made: set[tuple[str, str]] = set()  # (verb, tag): "wooden planks" is the group "planks" already made
    for rename in load_renames(kn=kn).values():
        if rename.group is None:
            continue
        name = rename.name.replace(" ", "_")
        members = kn.tags[rename.group]
        for verb in GROUP_VERBS:
            task_id = f"{verb}.any_{name}"
            atoms = [everything[f"{verb}.{m}"] for m in members if f"{verb}.{m}" in everything]
            if len(atoms) < 2 or task_id in everything or (verb, rename.group) in made:
                continue
            made.add((verb, rename.group))
            out.append(_atom(task_id, verb, name, rename.group, atoms, everything.get(f"{verb}.{rename.now}"),
                             aliases))
    return out


def _atom(task_id: str, verb: str, name: str, tag: str, atoms: list[AtomTask], first: AtomTask | None,
          aliases: dict[str, list[str]]) -> AtomTask:
    """The group atom of ``verb`` over the member atoms ``atoms`` (``first``: data value 0's, for its start).

    A goal only, as ``obtain.*`` is: the members' own actions reach it (``craft.red_bed`` crafts a bed), so the text
    world and the planner gain no second action for each recipe. It needs a member, as an obtain atom needs its
    item, which ranks it with its cheapest member; a craft or smelt group starts with what data value 0's does.
    """
    first = first or atoms[0]
    data: dict[str, Any] = {
        "id": task_id,
        "description": f"{verb} any {name.replace('_', ' ')}",
        "aliases": sorted(aliases.get(task_id, [])),
        "category": first.category.value,
        "verb": verb,
        "requires": [[{"any_of": sorted(a.goal.target for a in atoms)}]],
        "metrics": goal(verb, f"#{tag}"),
        "tags": ["from_scratch"] if verb == "obtain" else ["from_scratch", GOAL_ONLY_TAG],
    }
    if verb != "obtain":
        data["initialization"] = first.initialization.model_dump(mode="json", exclude_defaults=True)
    return AtomTask.model_validate(data)

"""MCU criteria files: what a rater looks for in an episode's video, built from a task's own structure.

MCU rates a video with a vision-language model against one plain-text file per task, in six sections (task
progress, action control, error recognition and correction, creative attempts, task completion efficiency,
material selection and usage), each a bold heading and a list of ``-`` points. MCU writes these files with a
language model; here they come from the task itself, the same every time: the milestones are the steps of the
planner's plan from the task's start (repeats counted once, in order), the materials and tools are what those
steps need, the errors are the ways the task's own requirements and constraints can be broken.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from taskverse.errors import TaskverseError

SECTIONS: tuple[tuple[str, str | None], ...] = (
    ("Task Progress", "the milestones the task passes through, in order"),
    ("Action Control", "whether the agent keeps to actions the task needs, without detours or repetition"),
    ("Error Recognition and Correction", "whether the agent notices its mistakes and puts them right"),
    ("Creative Attempts", "other ways to reach the goal the agent tries"),
    ("Task Completion Efficiency", None),
    ("Material Selection and Usage", "whether the agent picks the right materials and tools and uses them well"),
)
"""The six sections of an MCU criteria file (names as MCU writes them) with the line under each name."""

SECTION_NAMES: tuple[str, ...] = tuple(name for name, _ in SECTIONS)

MAX_MILESTONES = 15
"""Milestones listed; a longer plan's remaining steps are summed up in one line."""

HELD_SUFFIXES = ("_pickaxe", "_axe", "_shovel", "_hoe", "_sword", "bow", "shears", "fishing_rod", "flint_and_steel",
                 "trident", "shield", "bucket")
"""Tools used in the hand (unlike stations such as a crafting table), by the endings of their names."""

MAX_NAMES = 6
"""Items named in one point (the rest are counted)."""


@dataclass
class Criteria:
    """One task's criteria: the points under each of the six sections."""

    task_id: str
    description: str
    sections: dict[str, list[str]] = field(default_factory=dict)

    def render(self) -> str:
        """The file's text: ``**Section: what it asks**`` and a ``-`` point a line, sections a blank line apart."""
        blocks = []
        for name, headline in SECTIONS:
            title = f"**{name}: {headline}**" if headline else f"**{name}**"
            blocks.append("\n".join([title, *(f" - {point}" for point in self.sections.get(name, []))]))
        return "\n\n".join(blocks) + "\n"


def file_name(task_id: str) -> str:
    """The criteria file's name for a task (``craft.iron_sword.txt``)."""
    safe = "".join(c if c.isalnum() or c in "._-" else "_" for c in task_id)
    return f"{safe[:120]}.txt"


def _names(items: Iterable[str]) -> str:
    unique = list(dict.fromkeys(items))
    shown = [i.replace("_", " ") for i in unique[:MAX_NAMES]]
    more = len(unique) - len(shown)
    text = ", ".join(shown[:-1]) + (" and " if len(shown) > 1 else "") + shown[-1] if shown else ""
    return f"{text} (and {more} more)" if more > 0 else text


def _atom_ids(expr: Any) -> list[str]:
    if getattr(expr, "kind", None) == "atom":
        return [expr.task]
    parts = list(getattr(expr, "parts", ()) or ())
    if getattr(expr, "part", None) is not None:
        parts.append(expr.part)
    return [a for p in parts for a in _atom_ids(p)]


def _walk(expr: Any) -> Iterable[Any]:
    yield expr
    for p in [*(getattr(expr, "parts", ()) or ()), *([expr.part] if getattr(expr, "part", None) is not None else [])]:
        yield from _walk(p)


@dataclass
class _Plan:
    steps: list[str]  # atom ids in order
    descriptions: dict[str, str]
    seconds: float | None
    proven: bool


def _plan(task: Any, library: Any) -> _Plan | None:
    from taskverse.textenv.plans import plan_task

    try:
        report = plan_task(task, library)
    except TaskverseError:
        return None
    return _Plan(report.actions, dict(zip(report.actions, report.descriptions, strict=True)),
                 report.total_frames / 20, report.proven)


def _ways(atom: Any) -> list[list[Any]]:
    return [way.needs if hasattr(way, "needs") else way for way in (atom.requires or [])]


def _chosen_way(atom: Any, available: set[str]) -> list[Any]:
    """The first way of doing an atom whose items the episode can have (the start's or the plan's products)."""
    ways = _ways(atom)
    for way in ways:
        if all(n.kind != "item" or set(n.any_of) & available for n in way):
            return way
    return ways[0] if ways else []


def criteria_for(task: Any, library: Any) -> Criteria:
    """The criteria for one task (atom or molecule), from its plan, its requirements and its expression."""
    from taskverse.algebra.expr import ref

    expression = task.expression if getattr(task, "kind", None) == "molecule" else ref(task.id)
    plan = _plan(task, library)
    start = task.initialization
    given = dict(start.inventory)
    for held in [start.main_hand, *start.equipment.values()]:
        if held:
            given[held] = given.get(held, 0) + 1
    goal_atoms = list(dict.fromkeys(_atom_ids(expression)))
    steps = plan.steps if plan else goal_atoms
    atoms = {a: library.lookup(a) for a in dict.fromkeys([*steps, *goal_atoms])}
    available = set(given)
    for atom in atoms.values():
        if atom is not None:
            available |= {y.name for y in atom.yields} | {atom.metrics.success.target}
    consumed: dict[str, None] = {}
    tools: dict[str, None] = {}
    alternatives: list[str] = []
    seen: set[str] = set()
    preparation: list[str] = []  # what a one-step plan's step needs, as milestones before it
    one_step = set(steps) <= set(goal_atoms)
    for atom_id, atom in atoms.items():
        if atom is None:
            continue
        way = _chosen_way(atom, available)
        for need in way:
            if need.kind != "item":
                if one_step:
                    verb = "finds" if need.kind in ("block", "entity") else "reaches"
                    preparation.append(f"{verb} the {_names(need.any_of[:3]).replace(' and ', ' or ')}"
                                       + (f" ({need.count})" if need.count > 1 else ""))
                continue
            if one_step:
                usable = [i for i in need.any_of if i in given] or need.any_of[:1]
                verb = "has at hand" if need.kept else "has"
                preparation.append(f"{verb} the {_names(usable[:2]).replace(' and ', ' or ')}"
                                   + (f" ({need.count})" if need.count > 1 and not need.kept else ""))
            usable = [i for i in need.any_of if i in available] or need.any_of[:1]
            (tools if need.kept else consumed).update(dict.fromkeys(usable))
            if len(need.any_of) > 1 and len(alternatives) < 3 and not any(a in need.any_of for a in seen):
                seen.update(need.any_of)
                others = [i for i in need.any_of if i not in usable]
                if others:
                    alternatives.append(f"e.g. using {_names(others[:3])} instead of {_names(usable[:1])} "
                                        f"to {(plan.descriptions.get(atom_id) if plan else None) or atom.description}")
        if len(_ways(atom)) > 1 and len(alternatives) < 4:
            alternatives.append(f"e.g. another of the {len(_ways(atom))} recipes or routes to {atom.description}")
    sections: dict[str, list[str]] = {name: [] for name in SECTION_NAMES}
    sections["Task Progress"] = [f"whether the agent {p}" for p in dict.fromkeys(preparation)] + _progress(
        task, expression, steps, plan, library)
    if not consumed:  # a task with no recipe (a build) works with what its start gives
        consumed.update(dict.fromkeys(i for i in given if i not in tools))
    names = {*consumed, *tools}
    sections["Action Control"] = [
        f"whether the agent gathers or crafts only what the task uses ({_names(sorted(names))})" if names else
        "whether the agent acts toward the goal rather than gathering items the task does not use",
        "e.g. wandering without purpose, opening and closing the inventory or a crafting table again and again",
        "e.g. repeating a finished step, or breaking and placing blocks the task does not need",
    ]
    sections["Error Recognition and Correction"] = _errors(expression, atoms, tools, library)
    sections["Creative Attempts"] = alternatives[:4] or [
        "e.g. a route to the goal other than the shortest one, such as finding an item instead of making it"]
    sections["Creative Attempts"].append("e.g. using the terrain or the blocks at hand to make a step easier")
    efficiency = []
    if plan is not None:
        actions = f"{len(plan.steps)} action" + ("s" if len(plan.steps) != 1 else "")
        efficiency.append(f"the shortest known plan from this start takes {actions} and about "
                          f"{plan.seconds:.0f} s of game time"
                          + ("" if plan.proven else " (the best found, not proven shortest)"))
        efficiency.append("whether the agent's episode stays close to that, without long pauses or detours")
    else:
        efficiency.append("whether the time the agent takes falls within a reasonable range for the task")
    efficiency.append("whether each needed item is gathered in one go rather than in many small trips")
    sections["Task Completion Efficiency"] = efficiency
    sections["Material Selection and Usage"] = _materials(given, consumed, tools)
    return Criteria(task.id, task.description, sections)


def _progress(task: Any, expression: Any, steps: list[str], plan: _Plan | None, library: Any) -> list[str]:
    counts: dict[str, int] = {}
    for step in steps:
        counts[step] = counts.get(step, 0) + 1
    milestones = []
    for step, n in counts.items():
        words = (plan.descriptions.get(step) if plan else None) or (library.lookup(step) or task).description
        milestones.append(words + (f" ({n} times)" if n > 1 else ""))
    if len(milestones) > MAX_MILESTONES:
        rest = len(milestones) - MAX_MILESTONES + 1
        milestones = [*milestones[:MAX_MILESTONES - 1], f"{rest} further kinds of step, the last being "
                      f"{milestones[-1]}"]
    points = [f"whether the agent does: {words}" for words in milestones]
    kinds = {node.kind for node in _walk(expression)}
    if "then" in kinds:
        points.append("whether the parts are done in the order the task gives")
    points.append(f"whether the goal is reached in the end: {task.description}")
    return points


def _errors(expression: Any, atoms: dict[str, Any], tools: dict[str, None], library: Any) -> list[str]:
    points = []
    descriptions = {a: atom.description for a, atom in atoms.items() if atom is not None}
    for node in _walk(expression):
        if node.kind == "constrained":
            points.append(f"whether the agent notices when it is not meeting the condition "
                          f"'{node.constraint.describe()}' and waits or moves until it is")
        elif node.kind == "not":
            points.append(f"whether the agent avoids {node.part.describe(descriptions)}, which fails the task")
        elif node.kind == "within":
            points.append(f"whether the agent hurries when the deadline ({node.describe(descriptions)}) is near")
    categories = {atom.category.value for atom in atoms.values() if atom is not None}
    if "crafting" in categories:
        points.append("e.g. whether a wrong item placed in the crafting grid or furnace is taken out and replaced")
    if "mining" in categories or "collecting" in categories:
        points.append("e.g. whether breaking a block with the wrong tool (nothing drops) is followed by "
                      "switching to the right one")
    if "combat" in categories or "hunting" in categories:
        points.append("e.g. whether the agent backs off, heals or changes tactics when its health runs low")
    held = [t for t in tools if t.endswith(HELD_SUFFIXES)]
    if held:
        points.append(f"e.g. whether the agent switches to {_names(held[:3])} after acting with the wrong item "
                      "in hand")
    points.append("whether a corrected attempt works better than the first one")
    return points


def _materials(given: dict[str, int], consumed: dict[str, None], tools: dict[str, None]) -> list[str]:
    points = []
    if given:
        points.append(f"the start gives {_names(f'{n} {i}' for i, n in sorted(given.items()))}: whether the "
                      "agent uses these rather than gathering them again")
    if consumed:
        points.append(f"whether the agent uses the right materials: {_names(consumed)}")
    if tools:
        points.append(f"whether the agent uses the right tools or stations: {_names(tools)}")
    points.append("whether the agent avoids spending more material than the task needs, or the wrong material")
    return points

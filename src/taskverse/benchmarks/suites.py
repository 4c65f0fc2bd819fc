"""Benchmark suites (MCU Sections 2.3 and 4.2): files in ``benchmarks/``, built deterministically from definitions.

A suite file names how it was built (filter, selection method, size, seed, library hash) and lists its tasks, each
with a content hash, so a result can always be traced to exactly the tasks it ran on. ``benchmarks/suites.yaml``
declares the SkillForge family; ``benchmarks/literature.yaml`` the task lists of the 16 papers MCU surveys.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np
from pydantic import Field, ValidationError

from taskverse.algebra.expr import AtomRef, Expr, Initialized, naive, ref
from taskverse.benchmarks.filters import Entry, parse_filter
from taskverse.errors import TaskverseError, close_matches
from taskverse.paths import project_root
from taskverse.schema import DIFFICULTY_DIMENSIONS, StrictModel
from taskverse.yamlio import dump_yaml, load_model, read_yaml, validation_error

Scorer = Callable[[Any], tuple[dict[str, float], dict[str, float]]]
"""Gives a task's (calibrated, raw) difficulty scores by dimension."""
Checker = Callable[[Any], "TaskCheck"]
"""Says whether a task can be done, in how many steps at best, and within which step limit (see ``TaskCheck``)."""


def step_limit(optimal_steps: int) -> int:
    """The step limit a suite records for a task whose shortest plan takes ``optimal_steps``: twice it, plus 10.

    Room for an agent to explore and recover from mistakes, and no ceiling below the shortest plan.

    Example:
        >>> step_limit(4), step_limit(102)
        (18, 214)

    """
    return 2 * optimal_steps + 10


STEP_LIMIT_RULE = "2 * optimal_steps + 10"


@dataclass(frozen=True)
class TaskCheck:
    """A checker's verdict on one task: its shortest plan's length and step limit, or why it was rejected."""

    optimal_steps: int | None
    max_steps: int | None
    reason: str | None = None


class SuiteTask(StrictModel):
    """One task of a suite: an atom id, or a molecule expression with its id, plus a hash of its content."""

    id: str
    hash: str
    description: str
    expression: Expr | None = None
    source: str | None = None
    optimal_steps: int | None = None
    max_steps: int | None = None


class Rejected(StrictModel):
    """A task the builder selected and then left out, and why (it cannot be done, or not within a step limit)."""

    id: str
    description: str
    reason: str


class BuiltWith(StrictModel):
    """How a suite was built, so it can be rebuilt and audited."""

    selection: str
    filter: str | None = None
    source: str | None = None
    size: int | None = None
    seed: int | None = None
    library: str
    step_limit: str | None = None
    rejected: list[Rejected] | None = None


class Suite(StrictModel):
    """A benchmark: a named, versioned list of tasks."""

    name: str
    version: int = 1
    description: str
    built_with: BuiltWith
    tasks: list[SuiteTask]


class Selection(StrictModel):
    """How SkillForge picks representative tasks: farthest-point sampling per category in the 6-D task space."""

    method: Literal["farthest_point"] = "farthest_point"
    per_category: int = Field(default=15, ge=1)
    naive: int = Field(default=40, ge=0)
    molecules: int = Field(default=25, ge=0)
    max_atoms: int = Field(default=3, ge=1)


class SuiteDefinition(StrictModel):
    """A suite as declared in ``benchmarks/suites.yaml``: a selection from the library, or a filter of a suite."""

    name: str
    description: str
    seed: int = 0
    selection: Selection | None = None
    source: str | None = None
    filter: str | None = None


def benchmarks_dir() -> Path:
    """The folder of suite files."""
    return project_root() / "benchmarks"


def task_hash(task: Any) -> str:
    """A hash of what a task is (its canonical JSON without tags and scores), to trace results to exact tasks."""
    text = json.dumps(task.model_dump(mode="json", exclude={"tags", "difficulty"}), sort_keys=True,
                      separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def entries(library: Any, scorer: Scorer | None = None, include_naive: bool = True) -> list[Entry]:
    """Every atom, and (with ``include_naive``) every solvable atom's naive version, as filter entries."""
    out = []
    world = library.world
    for task in library.tasks:
        calibrated, raw = scorer(task) if scorer else ({}, {})
        out.append(Entry(task.id, task.description, task.category.value, task.verb, "atom", "atom", 1,
                         tuple(task.tags), calibrated, raw))
        if include_naive and world.task_rank(task.id) != float("inf") and not task.initialization.is_naive():
            molecule = naive_molecule(task, library)
            calibrated, raw = scorer(molecule) if scorer else ({}, {})
            out.append(Entry(molecule.id, molecule.description, task.category.value, task.verb, "molecule",
                             "naive", 1, tuple(task.tags), calibrated, raw))
    return out


def naive_molecule(atom: Any, library: Any) -> Any:
    """The naive-initialized version of an atom, as a molecule."""
    from taskverse.algebra.molecule import build_molecule

    return build_molecule(naive(ref(atom.id)), library)


def entry_for_suite_task(item: SuiteTask, library: Any, scorer: Scorer | None) -> Entry:
    """A suite task as a filter entry."""
    task = resolve_suite_task(item, library)
    calibrated, raw = scorer(task) if scorer else ({}, {})
    if task.kind == "atom":
        return Entry(task.id, task.description, task.category.value, task.verb, "atom", "atom", 1, tuple(task.tags),
                     calibrated, raw)
    from taskverse.algebra.expr import atoms_of

    expr = task.expression
    init = expr.mode if isinstance(expr, Initialized) else "atom"
    atom_ids = atoms_of(expr)
    verbs = {library.by_id[a].verb for a in atom_ids}
    return Entry(task.id, task.description, task.category.value, verbs.pop() if len(verbs) == 1 else "mixed",
                 "molecule", init, len(atom_ids), tuple(task.tags), calibrated, raw)


def resolve_suite_task(item: SuiteTask, library: Any) -> Any:
    """The task a suite entry names (an atom of the library, or its molecule rebuilt from the expression)."""
    if item.expression is None:
        return library.get(item.id)
    from taskverse.algebra.molecule import build_molecule

    expr = item.expression
    if isinstance(expr, Initialized) and expr.mode == "naive" and isinstance(expr.part, AtomRef):
        return naive_molecule(library.get(expr.part.task), library)
    return build_molecule(expr, library)


def suite_task(task: Any, source: str | None = None) -> SuiteTask:
    """A suite entry for an atom or a molecule."""
    expression = task.expression if task.kind == "molecule" else None
    return SuiteTask(id=task.id, hash=task_hash(task), description=task.description, expression=expression,
                     source=source)


def farthest_point(points: np.ndarray, k: int, rng: random.Random) -> list[int]:
    """Indices of ``k`` mutually dissimilar points: start nearest the mean, then repeatedly the farthest one.

    Ties are broken by ``rng``, so the selection is deterministic for a seed.
    """
    n = len(points)
    if n == 0 or k <= 0:
        return []
    centre = points.mean(axis=0)
    first_distances = np.linalg.norm(points - centre, axis=1)
    candidates = np.flatnonzero(np.isclose(first_distances, first_distances.min()))
    chosen = [int(candidates[rng.randrange(len(candidates))])]
    nearest = np.linalg.norm(points - points[chosen[0]], axis=1)
    while len(chosen) < min(k, n):
        best = nearest.max()
        if best <= 0:
            break  # the rest duplicate chosen points
        ties = np.flatnonzero(np.isclose(nearest, best))
        pick = int(ties[rng.randrange(len(ties))])
        chosen.append(pick)
        nearest = np.minimum(nearest, np.linalg.norm(points - points[pick], axis=1))
    return chosen


def load_definitions(path: Path | None = None) -> dict[str, SuiteDefinition]:
    """The suite definitions of ``benchmarks/suites.yaml``."""
    path = path or benchmarks_dir() / "suites.yaml"
    data = read_yaml(path)
    out: dict[str, SuiteDefinition] = {}
    for index, raw in enumerate((data or {}).get("suites", [])):
        try:
            definition = SuiteDefinition.model_validate(raw)
        except ValidationError as exc:
            raise validation_error(exc, path, path.read_text(), ("suites", index)) from None
        out[definition.name] = definition
    return out


def vector_of(task: Any, scorer: Scorer) -> list[float]:
    """A task's point in the task space: its six calibrated scores (0 where a score is undefined)."""
    calibrated, _ = scorer(task)
    return [calibrated.get(d, 0.0) for d in DIFFICULTY_DIMENSIONS]


def vectors(tasks: list[Any], scorer: Scorer) -> np.ndarray:
    """The (n, 6) calibrated difficulty of some tasks."""
    rows = [vector_of(task, scorer) for task in tasks]
    return np.array(rows, dtype=float).reshape(len(tasks), len(DIFFICULTY_DIMENSIONS))


def build_skillforge(definition: SuiteDefinition, library: Any, scorer: Scorer) -> list[SuiteTask]:
    """Representative tasks: per category the most dissimilar atoms, plus naive versions and molecules."""
    from taskverse.algebra.generate import random_molecules

    assert definition.selection is not None
    selection = definition.selection
    rng = random.Random(definition.seed)
    world = library.world
    solvable = [t for t in library.tasks if world.task_rank(t.id) != float("inf") and not t.goal_only]
    by_category: dict[str, list[Any]] = defaultdict(list)
    for task in solvable:
        by_category[task.category.value].append(task)
    chosen: list[SuiteTask] = []
    for category in sorted(by_category):
        tasks = sorted(by_category[category], key=lambda t: t.id)
        picks = farthest_point(vectors(tasks, scorer), selection.per_category, rng)
        chosen += [suite_task(tasks[i]) for i in sorted(picks, key=lambda i: tasks[i].id)]
    candidates = sorted((t for t in solvable if not t.initialization.is_naive()), key=lambda t: t.id)
    naive_versions = [naive_molecule(t, library) for t in candidates]
    picks = farthest_point(vectors(naive_versions, scorer), selection.naive, rng)
    chosen += [suite_task(naive_versions[i]) for i in sorted(picks, key=lambda i: naive_versions[i].id)]
    molecules = list(random_molecules(library, selection.molecules, definition.seed, selection.max_atoms))
    chosen += [suite_task(m) for m in sorted(molecules, key=lambda m: m.id)]
    return chosen


def expand_family(kind: str, library: Any) -> list[str]:
    """The task ids a literature family stands for (see ``benchmarks/literature.yaml``)."""
    world = library.world
    if kind == "tech_tree":
        nether = {"dimension:nether", "dimension:end"}
        out = []
        for task in library.tasks:
            if task.verb != "obtain" or world.task_rank(task.id) == float("inf"):
                continue
            if not (world.ancestors(f"task:{task.id}") & nether):
                out.append(task.id)
        return sorted(out)
    if kind == "task101":
        tiers = ("wooden", "stone", "iron", "diamond")
        tools = ("pickaxe", "axe", "shovel", "hoe", "sword")
        armour = ("helmet", "chestplate", "leggings", "boots")
        ids = [f"craft.{t}_{x}" for t in tiers for x in tools]
        ids += [f"craft.{m}_{a}" for m in ("leather", "iron", "diamond") for a in armour]
        ids += [f"equip.{m}_{a}" for m in ("leather", "iron", "diamond") for a in armour]
        return [i for i in ids if i in library.by_id]
    raise TaskverseError(f"unknown task family {kind!r}; expected tech_tree or task101")


class Paper(StrictModel):
    """One paper of MCU Appendix B with its task list as written."""

    key: str
    citation: str
    tasks: list[str] = Field(default_factory=list)
    from_scratch: bool = False
    expand: Literal["tech_tree", "task101"] | None = None


def load_papers(path: Path | None = None) -> list[Paper]:
    """The literature's task lists."""
    path = path or benchmarks_dir() / "literature.yaml"
    data = read_yaml(path) or {}
    papers = []
    for index, raw in enumerate(data.get("papers", [])):
        try:
            papers.append(Paper.model_validate(raw))
        except ValidationError as exc:
            raise validation_error(exc, path, path.read_text(), ("papers", index)) from None
    return papers


def literature_suite_name(paper: Paper) -> str:
    """``Literature-<key>``."""
    return f"Literature-{paper.key}"


def build_literature(paper: Paper, library: Any) -> list[SuiteTask]:
    """A paper's tasks mapped onto the library (naive versions when the paper starts from scratch)."""
    items: list[tuple[str, str]] = [(library.get(name).id, name) for name in paper.tasks]
    if paper.expand:
        items += [(task_id, paper.expand) for task_id in expand_family(paper.expand, library)]
    seen: set[str] = set()
    out = []
    for task_id, source in items:
        atom = library.by_id[task_id]
        task = naive_molecule(atom, library) if paper.from_scratch and not atom.initialization.is_naive() else atom
        if task.id not in seen:
            seen.add(task.id)
            out.append(suite_task(task, source=source))
    return out


def check_tasks(tasks: list[SuiteTask], library: Any, check: Checker) -> tuple[list[SuiteTask], list[Rejected]]:
    """The tasks the checker accepts, each with its shortest plan's length and step limit; and those rejected."""
    import sys

    from tqdm import tqdm

    kept: list[SuiteTask] = []
    rejected: list[Rejected] = []
    for item in tqdm(tasks, desc="check", unit="task", file=sys.stderr, dynamic_ncols=True, leave=False):
        verdict = check(resolve_suite_task(item, library))
        if verdict.reason is not None or verdict.max_steps is None:
            rejected.append(Rejected(id=item.id, description=item.description,
                                     reason=verdict.reason or "no step limit"))
            continue
        kept.append(item.model_copy(update={"optimal_steps": verdict.optimal_steps, "max_steps": verdict.max_steps}))
    return kept, rejected


def build_suite(name: str, library: Any, scorer: Scorer, size: int | None = None, seed: int | None = None,
                check: Checker | None = None) -> Suite:
    """Build a suite by name (a SkillForge definition or a literature paper), deterministically.

    With ``check`` (``taskverse.textenv.checks.check_task`` in the command line), every task a SkillForge
    selection picks must be feasible and solvable within its step limit: each records its shortest plan's length
    and step limit, and the builder leaves out what fails, recording why (``built_with.rejected``). Filtered
    suites take their tasks, with these fields, from the suite they filter.
    """
    definitions = load_definitions()
    papers = {literature_suite_name(p): p for p in load_papers()}
    if name in papers:
        tasks = build_literature(papers[name], library)
        return Suite(name=name, description=f"Tasks of {papers[name].citation}, as listed in MCU Appendix B",
                     built_with=BuiltWith(selection="literature", source="benchmarks/literature.yaml",
                                          library=library.digest), tasks=tasks)
    if name not in definitions:
        known = sorted([*definitions, *papers])
        raise TaskverseError(f"unknown suite {name!r}", suggestions=close_matches(name, known))
    definition = definitions[name]
    if seed is not None:
        definition = definition.model_copy(update={"seed": seed})
    if definition.selection is not None:
        selection = definition.selection
        if size is not None:
            per = max(1, round(size * 0.6 / 7))
            selection = selection.model_copy(update={"per_category": per, "naive": max(0, round(size * 0.25)),
                                                     "molecules": max(0, size - per * 7 - round(size * 0.25))})
            definition = definition.model_copy(update={"selection": selection})
        tasks = build_skillforge(definition, library, scorer)
        rejected: list[Rejected] | None = None
        if check is not None:
            tasks, rejected = check_tasks(tasks, library, check)
        built = BuiltWith(selection=f"farthest_point per category ({selection.per_category}), naive "
                          f"({selection.naive}), molecules ({selection.molecules})", size=len(tasks),
                          seed=definition.seed, library=library.digest,
                          step_limit=STEP_LIMIT_RULE if check is not None else None, rejected=rejected or None)
    else:
        if definition.source is None:
            raise TaskverseError(f"suite {name!r} names neither a selection nor a source suite",
                                 file=benchmarks_dir() / "suites.yaml")
        base = load_suite(definition.source)
        keep = parse_filter(definition.filter or "")
        tasks = [t for t in base.tasks if keep(entry_for_suite_task(t, library, scorer))]
        built = BuiltWith(selection="filter", filter=definition.filter, source=definition.source, size=len(tasks),
                          library=library.digest, step_limit=base.built_with.step_limit)
    return Suite(name=name, description=definition.description, built_with=built, tasks=tasks)


def suite_path(name: str) -> Path:
    """Where a suite file lives."""
    return benchmarks_dir() / f"{name}.yaml"


def suite_text(suite: Suite) -> str:
    """The text of a suite's file (what ``write_suite`` writes)."""
    return dump_yaml(suite.model_dump(mode="json", exclude_none=True))


def write_suite(suite: Suite) -> Path:
    """Write a suite file into ``benchmarks/`` (atomically, under a unique temporary name)."""
    from taskverse.fileio import write_text

    return write_text(suite_path(suite.name), suite_text(suite), maintains=benchmarks_dir())


def load_suite(name_or_path: str) -> Suite:
    """Load a suite by name or path, with file/line/field errors."""
    path = Path(name_or_path) if name_or_path.endswith((".yaml", ".yml")) else suite_path(name_or_path)
    if not path.exists():
        known = sorted(p.stem for p in benchmarks_dir().glob("*.yaml") if p.stem not in ("suites", "literature"))
        raise TaskverseError(f"no suite {name_or_path!r} (build it with: taskverse suite build {name_or_path})",
                             suggestions=close_matches(name_or_path, known))
    return load_model(path, Suite, "a suite (a mapping with name, built_with and tasks)")


def suite_names() -> list[str]:
    """Every suite that can be built: the definitions, then the literature."""
    return [*load_definitions(), *(literature_suite_name(p) for p in load_papers())]

"""The atom library: loading task files, validating them, and finding a task by id or description.

Loading checks everything a user can get wrong (YAML syntax, schema, unknown names with close matches, duplicate
ids or descriptions, pre-tasks that do not exist or form a cycle) and reports each problem with its file, line and
field. Validated tasks and the world graph are cached under ``.cache/`` keyed by a hash of every input file, so a
cache can never serve stale data.
"""

from __future__ import annotations

import hashlib
import pickle
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from taskverse import __version__
from taskverse.errors import TaskverseError, close_matches
from taskverse.fileio import read_text, write_bytes
from taskverse.knowledge.facts import Knowledge, load_knowledge, prime_knowledge
from taskverse.paths import atoms_dir, cache_dir, knowledge_dir
from taskverse.schema import AtomTask, Event, ResourceKind, TaskFile, WaySpec
from taskverse.text import loosen, normalize
from taskverse.world.costs import step_cost_for
from taskverse.world.graph import World, build_world, iter_cycles_in_pre_tasks
from taskverse.yamlio import line_of, parse_yaml, validation_error

GOAL_KINDS: dict[Event, tuple[str, ...]] = {
    Event.OBTAIN: ("item",),
    Event.CRAFT: ("item",),
    Event.SMELT: ("item",),
    Event.EAT: ("item",),
    Event.EQUIP: ("item",),
    Event.MINE: ("block",),
    Event.PLACE: ("block",),
    Event.KILL: ("entity",),
    Event.FIND: ("biome", "structure", "block", "entity"),
    Event.ENTER: ("dimension",),
}


def library_files(root: Path | None = None) -> list[Path]:
    """The task files of the library: every YAML under ``atoms/`` except the knowledge and alias files."""
    root = root or atoms_dir()
    return sorted(
        p for p in root.rglob("*.yaml") if "knowledge" not in p.relative_to(root).parts and p.name != "aliases.yaml"
    )


@dataclass
class Located:
    """A task with the file it came from and its index in that file (for error messages)."""

    task: AtomTask
    file: Path
    index: int | None


def parse_task_file(path: Path, text: str | None = None) -> list[Located]:
    """Parse and schema-check one task file (a single task, or ``tasks:`` with a list of them)."""
    text = read_text(path, "task file") if text is None else text
    data = parse_yaml(text, path)
    if isinstance(data, dict) and "tasks" in data:
        try:
            parsed = TaskFile.model_validate(data)
        except ValidationError as exc:
            raise validation_error(exc, path, text) from None
        return [Located(t, path, i) for i, t in enumerate(parsed.tasks)]
    if isinstance(data, dict):
        if data.get("kind", "atom") != "atom":
            return []  # molecules and suites are checked by their own loaders
        try:
            return [Located(AtomTask.model_validate(data), path, None)]
        except ValidationError as exc:
            raise validation_error(exc, path, text) from None
    raise TaskverseError("expected a task (a mapping with 'id') or a mapping with a 'tasks' list", file=path, line=1)


def _name_checks(task: AtomTask) -> Iterator[tuple[str, str, tuple[str | int, ...]]]:
    """Every (name, kind, location-in-task) a task refers to."""
    init = task.initialization
    for item in init.inventory:
        yield item, "item", ("initialization", "inventory", item)
    if init.main_hand:
        yield init.main_hand, "item", ("initialization", "main_hand")
    for slot, item in init.equipment.items():
        yield item, "item", ("initialization", "equipment", slot.value)
    for block in init.nearby_blocks:
        yield block, "block", ("initialization", "nearby_blocks", block)
    for i, summon in enumerate(init.summon):
        yield summon.entity, "entity", ("initialization", "summon", i, "entity")
    if init.biome:
        yield init.biome, "biome", ("initialization", "biome")
    if init.structure:
        yield init.structure, "structure", ("initialization", "structure")
    for w, way in enumerate(task.requires or []):
        needs, where = (way.needs, ("requires", w, "needs")) if isinstance(way, WaySpec) else (way, ("requires", w))
        for n, need in enumerate(needs):
            for name in need.any_of:
                yield name, need.kind.value, (*where, n, "any_of")
        if isinstance(way, WaySpec):
            for i, y in enumerate(way.yields):
                yield y.name, y.kind.value, ("requires", w, "yields", i, "name")
    for i, y in enumerate(task.yields):
        if y.kind != ResourceKind.STRUCTURE or y.name != "nether_portal":
            yield y.name, y.kind.value, ("yields", i, "name")
    goal = task.goal
    kinds = GOAL_KINDS.get(goal.event)
    if kinds:
        yield goal.target, "|".join(kinds), ("metrics", "success", "target")
    if goal.using:
        yield goal.using, "item", ("metrics", "success", "using")


def check_names(kn: Knowledge, located: Located, text: str) -> list[TaskverseError]:
    """Unknown item, block, entity, biome or structure names in a task, each with close matches."""
    errors = []
    prefix: tuple[str | int, ...] = ("tasks", located.index) if located.index is not None else ()
    for name, kinds, loc in _name_checks(located.task):
        problems = []
        for kind in kinds.split("|"):
            try:
                kn.check_name(name, kind)
                break
            except TaskverseError as exc:
                problems.append(exc)
        else:
            suggestions = sorted({s for p in problems for s in p.suggestions})[:3]
            errors.append(TaskverseError(
                f"unknown {' or '.join(kinds.split('|'))} {name!r}", file=located.file,
                line=line_of(text, (*prefix, *loc)), field=".".join(str(p) for p in loc), suggestions=suggestions,
            ))
    return errors


def _files_digest(files: Iterable[Path]) -> str:
    """A hash of the library's content: file names relative to ``atoms/`` and their bytes.

    Where the checkout lives does not enter it, so every checkout of the same library agrees, and suite and
    calibration files can record it. The rename table (``curated/renames.yaml``) is left out: it only changes
    how task phrases are read, never a task, a fact or a score.
    """
    digest = hashlib.sha256(__version__.encode())
    root = atoms_dir()
    knowledge = sorted(p for p in knowledge_dir().rglob("*") if p.is_file() and p.name != "renames.yaml")
    for path in [*files, *knowledge]:
        name = path.resolve().relative_to(root.resolve()) if path.resolve().is_relative_to(root.resolve()) else path
        digest.update(name.as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


class LazyTasks(Mapping[str, AtomTask]):
    """Tasks by id, each model built from its (already validated) data on first access."""

    def __init__(self, data: dict[str, dict[str, Any]]) -> None:
        self._data = data
        self._models: dict[str, AtomTask] = {}

    def __getitem__(self, task_id: str) -> AtomTask:
        model = self._models.get(task_id)
        if model is None:
            model = self._models[task_id] = AtomTask.model_validate(self._data[task_id])
        return model

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __contains__(self, task_id: object) -> bool:
        return task_id in self._data


@dataclass
class LibraryIndex:
    """What the cache holds: validated task data and the description index."""

    data: dict[str, dict[str, Any]]
    by_description: dict[str, str]

    @classmethod
    def from_located(cls, located: list[Located]) -> LibraryIndex:
        """Index validated tasks (file order is kept)."""
        index: dict[str, str] = {}
        for loc in located:
            for text in [loc.task.description, *loc.task.aliases]:
                index.setdefault(normalize(text), loc.task.id)
        return cls(
            data={loc.task.id: loc.task.model_dump(mode="json", exclude_defaults=True) for loc in located},
            by_description=index,
        )


@dataclass
class Library:
    """The loaded atom library, indexed by id and by description."""

    index: LibraryIndex
    knowledge: Knowledge
    digest: str = ""
    _world: World | None = field(default=None, repr=False)
    _world_all: World | None = field(default=None, repr=False)

    @cached_property
    def by_id(self) -> LazyTasks:
        """Tasks by id."""
        return LazyTasks(self.index.data)

    @property
    def by_description(self) -> dict[str, str]:
        """Task ids by normalised description and alias."""
        return self.index.by_description

    @cached_property
    def by_loose_description(self) -> dict[str, set[str]]:
        """Task ids by loosened description (``mine oak wood`` may mean ``oak_log`` or ``oak_wood``)."""
        index: dict[str, set[str]] = {}
        for key, task_id in self.by_description.items():
            index.setdefault(loosen(key), set()).add(task_id)
        return index

    @cached_property
    def tasks(self) -> list[AtomTask]:
        """All atoms, in file order."""
        return [self.by_id[task_id] for task_id in self.index.data]

    @property
    def world(self) -> World:
        """The world-wide dependency graph, alternatives pruned by cost (built once, cached on disk)."""
        if self._world is None:
            key = f"world-{self.digest}-{_code_digest()}"  # the graph's rules are code: a change rebuilds it
            self._world = _cached(key, self._build_world) if self.digest else self._build_world()
        return self._world

    @property
    def world_with_every_alternative(self) -> World:
        """The dependency graph with every grounded alternative, however dear (``taskverse graph --all``)."""
        if self._world_all is None:
            # the pruned graph's alternatives among them, whatever cycles the others make
            self._world_all = build_world(self.tasks, step_cost_for(self.knowledge), include=self.world.graph)
        return self._world_all

    def _build_world(self) -> World:
        from taskverse.world.graph import resource_node
        from taskverse.world.rules import CostModel, Rules, fuel_ticks_from_knowledge

        kn = self.knowledge
        rules = Rules.for_library(self)  # the one model the text environment and the planner read
        fronts = CostModel.for_rules(rules).fronts
        costs = {resource_node(kind, name): fronts[r] for r, (kind, name) in enumerate(rules.resources)}
        return build_world(self.tasks, step_cost_for(kn), costs=costs, fuel_ticks=fuel_ticks_from_knowledge(kn))

    def lookup(self, reference: str) -> AtomTask | None:
        """A task by id, description or alias, or None (no close matches computed: cheap on a miss)."""
        if reference in self.by_id:
            return self.by_id[reference]
        key = normalize(reference)
        if key in self.by_description:
            return self.by_id[self.by_description[key]]
        loose = self.by_loose_description.get(loosen(reference), set())
        if len(loose) == 1:
            return self.by_id[next(iter(loose))]
        return None

    def get(self, reference: str) -> AtomTask:
        """A task by id or description (MCU's descriptions identify tasks); a clear error with close matches."""
        found = self.lookup(reference)
        if found is not None:
            return found
        key = normalize(reference)
        loose = self.by_loose_description.get(loosen(reference), set())
        if len(loose) > 1:
            raise TaskverseError(f"{reference!r} could mean several tasks; name one", suggestions=sorted(loose))
        guesses = close_matches(key, self.by_description, n=3)
        id_guesses = close_matches(reference, list(self.by_id), n=3)
        raise TaskverseError(
            f"no task with id or description {reference!r}",
            suggestions=[*id_guesses, *(self.by_description[g] for g in guesses
                                        if self.by_description[g] not in id_guesses)][:3],
        )


def _code_digest() -> str:
    """A hash of the modules that decide what the world graph holds (graph rules and the model's costs)."""
    import hashlib

    from taskverse.world import costs, graph, rules

    sha = hashlib.sha256()
    for module in (graph, rules, costs):
        sha.update(Path(str(module.__file__)).read_bytes())
    return sha.hexdigest()[:16]


def _knowledge_code_digest() -> str:
    """A hash of the modules that read the game knowledge (the facts, the mechanism tables)."""
    from taskverse.knowledge import enchanting, facts, mechanisms

    sha = hashlib.sha256()
    for module in (facts, mechanisms, enchanting):
        sha.update(Path(str(module.__file__)).read_bytes())
    return sha.hexdigest()[:16]


def _cached(name: str, build: Any) -> Any:
    path = cache_dir() / f"{name}.pickle"
    if path.exists():
        try:
            with path.open("rb") as handle:
                return pickle.load(handle)
        except Exception:  # noqa: BLE001 - a corrupt cache is rebuilt, never trusted
            path.unlink(missing_ok=True)
    value = build()
    for stale in cache_dir().glob(name.split("-")[0] + "-*.pickle"):
        stale.unlink(missing_ok=True)  # one entry per kind: the cache never grows without bound
    try:  # a unique temporary name: two commands filling the cache at once each rename a whole file
        write_bytes(path, pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL), force=True)
    except TaskverseError:
        pass  # a cache that cannot be written (read-only checkout, full disk) only costs time
    return value


def validate_files(files: list[Path], kn: Knowledge, context: Mapping[str, AtomTask] | None = None,
                   texts: dict[Path, str] | None = None, new_ids: bool = False,
                   ) -> tuple[list[Located], list[TaskverseError]]:
    """Check files fully; return the tasks that loaded and every problem found (never raises on bad input).

    ``context`` holds the tasks pre-tasks may refer to (the library, when checking a user's files); with
    ``new_ids`` a task outside the library folder may not reuse one of their ids. ``texts`` holds files already
    read (by path); the others are read here.
    """
    located: list[Located] = []
    errors: list[TaskverseError] = []
    texts = dict(texts or {})
    for path in files:
        try:
            if path not in texts:
                texts[path] = read_text(path, "task file")
            found = parse_task_file(path, texts[path])
        except TaskverseError as exc:
            errors.append(exc)
            continue
        for loc in found:
            errors += check_names(kn, loc, texts[path])
        located += found
    errors += _check_library(located, texts, context or {})
    if new_ids and context:
        library_root = atoms_dir().resolve()
        for loc in located:
            if loc.task.id in context and not loc.file.resolve().is_relative_to(library_root):
                errors.append(TaskverseError(f"{loc.task.id!r} is already the id of a library atom; pick another",
                                             **_where(loc, texts, "id")))
    return located, errors


def _where(loc: Located, texts: dict[Path, str], *field_path: str | int) -> dict[str, Any]:
    prefix: tuple[str | int, ...] = ("tasks", loc.index) if loc.index is not None else ()
    return {"file": loc.file, "line": line_of(texts.get(loc.file, ""), (*prefix, *field_path)),
            "field": ".".join(str(p) for p in field_path) or None}


def _check_library(located: list[Located], texts: dict[Path, str], context: Mapping[str, AtomTask],
                   ) -> list[TaskverseError]:
    errors = []
    seen_ids: dict[str, Located] = {}
    seen_text: dict[str, Located] = {}
    for loc in located:
        task = loc.task
        if task.id in seen_ids:
            first = seen_ids[task.id]
            errors.append(TaskverseError(f"duplicate id {task.id!r} (first defined in {first.file})",
                                         **_where(loc, texts, "id")))
        seen_ids.setdefault(task.id, loc)
        for text in [task.description, *task.aliases]:
            key = normalize(text)
            other = seen_text.get(key)
            if other is not None and other.task.id != task.id:
                errors.append(TaskverseError(
                    f"description {text!r} is already used by {other.task.id!r} ({other.file})",
                    **_where(loc, texts, "description" if text == task.description else "aliases")))
            seen_text.setdefault(key, loc)
    known = set(context) | {loc.task.id for loc in located}  # ids only: building every library model is slow
    for loc in located:
        for i, pre in enumerate(loc.task.pre_tasks):
            if pre not in known:
                errors.append(TaskverseError(f"unknown pre-task {pre!r}", suggestions=close_matches(pre, known),
                                             **_where(loc, texts, "pre_tasks", i)))
    for cycle in iter_cycles_in_pre_tasks({loc.task.id: loc.task for loc in located}):
        loc = seen_ids[cycle[0]]
        errors.append(TaskverseError("pre-task cycle: " + " -> ".join([*cycle, cycle[0]]),
                                     **_where(loc, texts, "pre_tasks")))
    return errors


def load_library(root: Path | None = None, use_cache: bool = True) -> Library:
    """Load and validate the whole atom library; raise the first problem found as a TaskverseError.

    The validated tasks and the game knowledge are cached together, keyed by a hash of every input file.
    """
    files = library_files(root)
    if not files:
        raise TaskverseError("no task files found", file=root or atoms_dir())
    if not use_cache:
        kn = load_knowledge()
        located, errors = validate_files(files, kn)
        if errors:
            raise errors[0]
        return Library(index=LibraryIndex.from_located(located), knowledge=kn)
    digest = _files_digest(files)

    def build() -> tuple[LibraryIndex, Knowledge]:
        kn = load_knowledge()
        located, errors = validate_files(files, kn)
        if errors:
            raise errors[0]
        return LibraryIndex.from_located(located), kn

    # The knowledge is read by code too: a change to how facts are read rebuilds the cache.
    index, kn = _cached(f"library-{digest}-{_knowledge_code_digest()}", build)
    prime_knowledge(kn)
    return Library(index=index, knowledge=kn, digest=digest)

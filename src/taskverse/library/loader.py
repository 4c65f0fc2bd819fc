"""The atom library: loading task files, validating them, and finding a task by id or description.

Loading checks everything a user can get wrong (YAML syntax, schema, unknown names with close matches, duplicate
ids or descriptions, pre-tasks that do not exist or form a cycle) and reports each problem with its file, line and
field. Validated tasks and the world graph are cached under ``.cache/`` keyed by a hash of every input file, so a
cache can never serve stale data.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter, ValidationError

from taskverse import __version__
from taskverse.errors import TaskverseError, close_matches
from taskverse.fileio import read_text
from taskverse.knowledge.facts import Knowledge, load_knowledge, prime_knowledge
from taskverse.memo import code_digest
from taskverse.paths import atoms_dir, knowledge_dir
from taskverse.schema import AtomTask, Event, Name, ResourceKind, TaskFile
from taskverse.text import loosen, normalize
from taskverse.world.costs import step_cost_for
from taskverse.world.graph import World, build_world, iter_cycles_in_pre_tasks
from taskverse.yamlio import Lines, parse_yaml, validation_errors

GOAL_KINDS: dict[Event, tuple[str, ...]] = {
    Event.OBTAIN: ("item",),
    Event.CRAFT: ("item",),
    Event.SMELT: ("item",),
    Event.EAT: ("item",),
    Event.EQUIP: ("item",),
    Event.STORE: ("item",),
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


@dataclass
class ParsedFile:
    """One task file read as far as the schema goes, with every schema error rather than the first.

    ``located`` holds the tasks the schema accepted; ``data`` every task's data as written, with its place in
    the file, for the checks that do not need a valid task (names, pre-task ids).
    """

    located: list[Located]
    errors: list[TaskverseError]
    data: list[tuple[tuple[str | int, ...], dict[str, Any]]]


def read_task_file(path: Path, text: str | None = None, lines: Lines | None = None) -> ParsedFile:
    """Parse one task file (a single task, or ``tasks:`` with a list of them) and schema-check each task.

    A YAML syntax error, or a file that holds no task, is raised: nothing after it can be read. Each task of a
    ``tasks:`` list is checked on its own, so one bad task does not hide the others' errors or tasks.
    """
    text = read_text(path, "task file") if text is None else text
    lines = lines or Lines(text)
    data = parse_yaml(text, path)
    if not isinstance(data, dict):
        raise TaskverseError("expected a task (a mapping with 'id') or a mapping with a 'tasks' list", file=path,
                             line=1)
    if "tasks" not in data:
        if data.get("kind", "atom") != "atom":
            return ParsedFile([], [], [])  # molecules and suites are checked by their own loaders
        return _check_tasks(path, lines, [((), None, data)], [])
    tasks = data["tasks"]
    envelope = {**data, "tasks": []} if isinstance(tasks, list) else data  # not a list: the schema says so
    try:
        TaskFile.model_validate(envelope)
        errors = []
    except ValidationError as exc:
        errors = validation_errors(exc, path, lines, (), envelope)
    tasks = tasks if isinstance(tasks, list) else []
    return _check_tasks(path, lines, [(("tasks", i), i, task) for i, task in enumerate(tasks)], errors)


def _check_tasks(path: Path, lines: Lines, tasks: list[tuple[tuple[str | int, ...], int | None, Any]],
                 errors: list[TaskverseError]) -> ParsedFile:
    parsed = ParsedFile([], errors, [])
    for prefix, index, data in tasks:
        try:
            parsed.located.append(Located(AtomTask.model_validate(data), path, index))
        except ValidationError as exc:
            parsed.errors += validation_errors(exc, path, lines, prefix, data)
        if isinstance(data, dict):
            parsed.data.append((prefix, data))
    return parsed


def parse_task_file(path: Path, text: str | None = None) -> list[Located]:
    """Parse and schema-check one task file (a single task, or ``tasks:`` with a list of them).

    Raises the first problem as a TaskverseError (``read_task_file`` collects them all).
    """
    parsed = read_task_file(path, text)
    if parsed.errors:
        raise parsed.errors[0]
    return parsed.located


def _mapping(value: Any) -> dict[Any, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


_KINDS = {kind.value for kind in ResourceKind}
_EVENTS = {event.value for event in Event}
_NAME: TypeAdapter[str] = TypeAdapter(Name)


def _is_name(value: Any) -> bool:
    """Whether the schema takes ``value`` as a name (the names it refuses get its own error, not a second one)."""
    try:
        _NAME.validate_python(value, strict=True)
    except ValidationError:
        return False
    return True


def _kind(part: Any) -> str | None:
    """The resource kind of a need or a yield as written (item by default); None if it is no kind."""
    kind = _mapping(part).get("kind", ResourceKind.ITEM.value)
    return kind if isinstance(kind, str) and kind in _KINDS else None


def _goal_kinds(goal: dict[Any, Any]) -> str | None:
    """The kinds of thing a goal's target may be (``item``, ``biome|structure|block|entity``), if its event has one."""
    event = goal.get("event")
    if not isinstance(event, str) or event not in _EVENTS:
        return None
    kinds = GOAL_KINDS.get(Event(event))
    return "|".join(kinds) if kinds else None


def _name_checks(task: dict[str, Any]) -> Iterator[tuple[Any, str | None, tuple[Any, ...]]]:
    """Every (name, kind, location-in-task) a task's data refers to, read from the data as written.

    The data need not have passed the schema, so a task with a wrong category still gets its unknown items
    reported in the same run. What is not where a name belongs (a number where a list is due) is skipped here:
    the schema's errors say so.
    """
    init = _mapping(task.get("initialization"))
    for item in _mapping(init.get("inventory")):
        yield item, "item", ("initialization", "inventory", item)
    yield init.get("main_hand"), "item", ("initialization", "main_hand")
    for slot, item in _mapping(init.get("equipment")).items():
        yield item, "item", ("initialization", "equipment", slot)
    for block in _mapping(init.get("nearby_blocks")):
        yield block, "block", ("initialization", "nearby_blocks", block)
    for i, summon in enumerate(_list(init.get("summon"))):
        yield _mapping(summon).get("entity"), "entity", ("initialization", "summon", i, "entity")
    yield init.get("biome"), "biome", ("initialization", "biome")
    yield init.get("structure"), "structure", ("initialization", "structure")
    for w, way in enumerate(_list(task.get("requires"))):
        spec = _mapping(way)  # a way with yields of its own; a plain way is a list of needs
        needs, where = (spec.get("needs"), ("requires", w, "needs")) if spec else (way, ("requires", w))
        for n, need in enumerate(_list(needs)):
            for name in _list(_mapping(need).get("any_of")):
                yield name, _kind(need), (*where, n, "any_of")
        for i, y in enumerate(_list(spec.get("yields"))):
            yield _mapping(y).get("name"), _kind(y), ("requires", w, "yields", i, "name")
    for i, y in enumerate(_list(task.get("yields"))):
        if not (_kind(y) == ResourceKind.STRUCTURE.value and _mapping(y).get("name") == "nether_portal"):
            yield _mapping(y).get("name"), _kind(y), ("yields", i, "name")
    goal = _mapping(_mapping(task.get("metrics")).get("success"))
    yield goal.get("target"), _goal_kinds(goal), ("metrics", "success", "target")
    yield goal.get("using"), "item", ("metrics", "success", "using")


def check_names(kn: Knowledge, data: dict[str, Any], file: Path, lines: Lines,
                prefix: tuple[str | int, ...] = ()) -> list[TaskverseError]:
    """Unknown item, block, entity, biome or structure names in one task's data, each with close matches.

    ``data`` is the task as written, at ``prefix`` in the file; it need not have passed the schema. A name the
    schema refuses anyway (not a string, or not lowercase) is left to the schema's error.
    """
    errors = []
    for name, kinds, loc in _name_checks(data):
        if kinds is None or not _is_name(name):
            continue
        if any(kn.knows(name, kind) for kind in kinds.split("|")):
            continue
        problems = []  # close matches are dear (difflib): only for a name no kind knows
        for kind in kinds.split("|"):
            try:
                kn.check_name(name, kind)
            except TaskverseError as exc:
                problems.append(exc)
        if problems:
            suggestions = list(dict.fromkeys(s for p in problems for s in p.suggestions))[:3]  # closest first
            where = (*prefix, *loc)  # the whole path, as the schema's errors give it
            errors.append(TaskverseError(
                f"unknown {' or '.join(kinds.split('|'))} {name!r}", file=file,
                line=lines.of(where), field=".".join(str(p) for p in where), suggestions=suggestions,
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

    def keep(self, located: Iterable[Located]) -> None:
        """Take the models of tasks just validated from their files (their data's models), not to build them again."""
        for loc in located:
            if loc.task.id in self._data:
                self._models.setdefault(loc.task.id, loc.task)


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
            key = f"world-{self.digest}-{code_digest()}"  # the graph's rules are code: a change rebuilds it
            self._world = _cached(key, self._build_world) if self.digest else self._build_world()
        return self._world

    @property
    def world_with_every_alternative(self) -> World:
        """The dependency graph with every grounded alternative, however dear (``taskverse graph --all``)."""
        if self._world_all is None:
            from taskverse.world.rules import durability_from_knowledge, fuel_ticks_from_knowledge

            # the pruned graph's alternatives among them, whatever cycles the others make; the costs only say
            # which edge of a cycle is the detour (a banner burnt for iron, not the shears' wool)
            kn = self.knowledge
            self._world_all = build_world(self.tasks, step_cost_for(kn), costs=self._costs(),
                                          fuel_ticks=fuel_ticks_from_knowledge(kn), include=self.world.graph,
                                          prune=False, durability=durability_from_knowledge(kn))
        return self._world_all

    def _costs(self) -> dict[str, list[tuple[float, float]]]:
        """Each resource's prices from nothing in steps (the cost fixpoint of the one world model)."""
        from taskverse.world.graph import resource_node
        from taskverse.world.rules import CostModel, Rules

        rules = Rules.for_library(self)  # the one model the text environment and the planner read
        fronts = CostModel.for_rules(rules).fronts
        return {resource_node(kind, name): list(fronts[r]) for r, (kind, name) in enumerate(rules.resources)}

    def _build_world(self) -> World:
        from taskverse.world.rules import durability_from_knowledge, fuel_ticks_from_knowledge

        kn = self.knowledge
        return build_world(self.tasks, step_cost_for(kn), costs=self._costs(), fuel_ticks=fuel_ticks_from_knowledge(kn),
                           durability=durability_from_knowledge(kn))

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
            # one task may have several descriptions near the reference (its own and its aliases): named once
            suggestions=list(dict.fromkeys([*id_guesses, *(self.by_description[g] for g in guesses)]))[:3],
        )


def _cached(name: str, build: Any) -> Any:
    """``build()``, kept in the cache under ``name`` (its kind, a dash, the digest of its inputs)."""
    from taskverse.memo import remembered

    kind, _, key = name.partition("-")
    return remembered(kind, key, build)


def validate_files(files: list[Path], kn: Knowledge, context: Mapping[str, AtomTask] | None = None,
                   texts: dict[Path, str] | None = None, new_ids: bool = False,
                   ) -> tuple[list[Located], list[TaskverseError]]:
    """Check files fully; return the tasks that loaded and every problem found (never raises on bad input).

    ``context`` holds the tasks pre-tasks may refer to (the library, when checking a user's files); with
    ``new_ids`` a task outside the library folder may not reuse one of their ids. ``texts`` holds files already
    read (by path); the others are read here. Each file's schema errors come before its unknown names, so the
    first error is the one a command that stops at the first problem has always reported.
    """
    located: list[Located] = []
    errors: list[TaskverseError] = []
    lines: dict[Path, Lines] = {}
    written_ids: set[str] = set()  # of every task, valid or not: a pre-task naming a bad task is no second error
    texts = dict(texts or {})
    for path in files:
        try:
            if path not in texts:
                texts[path] = read_text(path, "task file")
            lines[path] = Lines(texts[path])
            parsed = read_task_file(path, texts[path], lines[path])
        except TaskverseError as exc:
            errors.append(exc)
            continue
        errors += parsed.errors
        for prefix, data in parsed.data:
            errors += check_names(kn, data, path, lines[path], prefix)
            if isinstance(data.get("id"), str):
                written_ids.add(data["id"])
        located += parsed.located
    errors += _check_library(located, lines, set(context or {}) | written_ids)
    if new_ids and context:
        library_root = atoms_dir().resolve()
        for loc in located:
            if loc.task.id in context and not loc.file.resolve().is_relative_to(library_root):
                errors.append(TaskverseError(f"{loc.task.id!r} is already the id of a library atom; pick another",
                                             **_where(loc, lines, "id")))
    return located, errors


def _where(loc: Located, lines: dict[Path, Lines], *field_path: str | int) -> dict[str, Any]:
    prefix: tuple[str | int, ...] = ("tasks", loc.index) if loc.index is not None else ()
    where = (*prefix, *field_path)
    line = lines[loc.file].of(where) if loc.file in lines else None
    return {"file": loc.file, "line": line, "field": ".".join(str(p) for p in where) or None}


def _check_library(located: list[Located], lines: dict[Path, Lines], known_ids: set[str]) -> list[TaskverseError]:
    errors = []
    seen_ids: dict[str, Located] = {}
    seen_text: dict[str, Located] = {}
    for loc in located:
        task = loc.task
        if task.id in seen_ids:
            first = seen_ids[task.id]
            errors.append(TaskverseError(f"duplicate id {task.id!r} (first defined in {first.file})",
                                         **_where(loc, lines, "id")))
        seen_ids.setdefault(task.id, loc)
        for text in [task.description, *task.aliases]:
            key = normalize(text)
            other = seen_text.get(key)
            if other is not None and other.task.id != task.id:
                errors.append(TaskverseError(
                    f"description {text!r} is already used by {other.task.id!r} ({other.file})",
                    **_where(loc, lines, "description" if text == task.description else "aliases")))
            seen_text.setdefault(key, loc)
    known = known_ids | {loc.task.id for loc in located}  # ids only: building every library model is slow
    for loc in located:
        for i, pre in enumerate(loc.task.pre_tasks):
            if pre not in known:
                errors.append(TaskverseError(f"unknown pre-task {pre!r}", suggestions=close_matches(pre, known),
                                             **_where(loc, lines, "pre_tasks", i)))
    for cycle in iter_cycles_in_pre_tasks({loc.task.id: loc.task for loc in located}):
        loc = seen_ids[cycle[0]]
        errors.append(TaskverseError("pre-task cycle: " + " -> ".join([*cycle, cycle[0]]),
                                     **_where(loc, lines, "pre_tasks")))
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
        library = Library(index=LibraryIndex.from_located(located), knowledge=kn)
        library.by_id.keep(located)
        return library
    digest = _files_digest(files)
    validated: list[Located] = []

    def build() -> tuple[LibraryIndex, Knowledge]:
        kn = load_knowledge()
        located, errors = validate_files(files, kn)
        if errors:
            raise errors[0]
        validated.extend(located)
        return LibraryIndex.from_located(located), kn

    # The knowledge is read by code too: a change to any module rebuilds the cache (a partial digest of the modules
    # thought to matter once let an entry built by other code be read back as current).
    index, kn = _cached(f"library-{digest}-{code_digest()}", build)
    prime_knowledge(kn)
    library = Library(index=index, knowledge=kn, digest=digest)
    library.by_id.keep(validated)  # built just now: the models are at hand (a model of its own dump is equal)
    return library

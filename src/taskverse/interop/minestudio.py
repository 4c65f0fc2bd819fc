"""MineStudio / MCU task configs: a YAML file of ``custom_init_commands`` and a ``text`` instruction.

Importing reads the commands into a start (``interop.commands``) and the text through the phrase reader, and builds
the molecule ``init(TEXT'S TASK, ...)`` whose start is the config's plus whatever the text's task needs on top of
it (``language.reading.with_own_start``). Exporting writes a task's start as Minecraft 1.20 commands, its
description as ``text``, and a ``taskverse`` block holding its expression as data, which importing prefers to the
text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from taskverse.errors import TaskverseError
from taskverse.fileio import read_text
from taskverse.interop.commands import MAX_COMMAND_CHARS, CommandError, Names, Setup, read_command, write_commands
from taskverse.schema import Initialization
from taskverse.yamlio import Lines, dump_yaml, parse_yaml

MAX_COMMANDS = 2000
"""Commands one config may hold."""

FORMAT_VERSION = 1


class TaskverseBlock(BaseModel):
    """What taskverse adds to a config it exports: the task's id and its success condition as data."""

    model_config = ConfigDict(extra="forbid")

    format: int = FORMAT_VERSION
    id: str
    description: str
    expression: dict[str, Any]
    """The task's expression (``taskverse.algebra.expr.Expr`` as JSON): when it holds, the task is done."""


class MineStudioConfig(BaseModel):
    """One MineStudio task config; other keys MineStudio or MCU use (``thinking``, ``defaults``) are kept as is."""

    model_config = ConfigDict(extra="allow")

    custom_init_commands: list[str] = Field(default_factory=list, max_length=MAX_COMMANDS)
    text: str = Field(min_length=1, max_length=2000)
    taskverse: TaskverseBlock | None = None


@dataclass
class Problem:
    """A command (or a part of one) that was not understood, where it stands."""

    file: str
    line: int | None
    command: str
    reason: str

    def __str__(self) -> str:
        """``file:line: COMMAND: reason`` on one line."""
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {' '.join(self.command.split())[:200]}: {self.reason}"


@dataclass
class Imported:
    """One config read: the molecule it means, what the text asked beyond the config, what was not understood."""

    file: str
    text: str
    molecule: Any = None
    config_start: dict[str, Any] = field(default_factory=dict)
    beyond_config: dict[str, Any] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    error: str | None = None
    no_task: str | None = None
    """Why the text asks what no task can judge (decorating, a free-form build, a thing the game forbids): the
    config's start is read and reported, and no molecule is made."""

    def summary(self) -> dict[str, Any]:
        """The result as JSON data."""
        mol = self.molecule
        return {
            "file": self.file, "text": self.text, "imported": mol is not None, "error": self.error,
            "no_task": self.no_task,
            "id": mol.id if mol else None, "description": mol.description if mol else None,
            "expression": mol.expression.model_dump(mode="json") if mol else None,
            "initialization": mol.initialization.model_dump(mode="json", exclude_defaults=True) if mol else None,
            "config_start": self.config_start, "beyond_config": self.beyond_config,
            "problems": [{"line": p.line, "command": p.command, "reason": p.reason} for p in self.problems],
        }


def _config(text: str, path: Path) -> MineStudioConfig:
    data = parse_yaml(text, path)
    if not isinstance(data, dict) or "text" not in data or not (
            "custom_init_commands" in data or "commands" in data or "taskverse" in data):
        raise TaskverseError("not a MineStudio task config (expected a mapping with custom_init_commands and text)",
                             file=path)
    if "custom_init_commands" not in data and "commands" in data:  # MineStudio's callback reads either key
        data = {**data, "custom_init_commands": data.pop("commands")}
    try:
        return MineStudioConfig.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"])
        line = Lines(text).of(tuple(err["loc"]))
        raise TaskverseError(f"not a MineStudio task config: {err['msg']}", file=path, line=line,
                             field=where) from None


def read_setup(config: MineStudioConfig, path: Path, lines: Lines, names: Names) -> tuple[Setup, list[Problem]]:
    """The start a config's commands set up, and one problem per command (or part) not understood."""
    setup = Setup()
    problems: list[Problem] = []
    for index, command in enumerate(config.custom_init_commands):
        line = lines.of(("custom_init_commands", index))
        try:
            notes = read_command(command, setup, names)
        except CommandError as exc:
            problems.append(Problem(str(path), line, command, f"not understood, left out: {exc}"))
            continue
        problems += [Problem(str(path), line, command, note) for note in notes]
    return setup, problems


def text_expression(config: MineStudioConfig, library: Any) -> Any:
    """The task a config asks for: its ``taskverse`` expression if it has one, else its text read as a phrase."""
    from taskverse.algebra.expr import Expr, ref

    if config.taskverse is not None:
        try:
            return TypeAdapter(Expr).validate_python(config.taskverse.expression)
        except ValidationError as exc:
            raise TaskverseError(f"taskverse.expression is not a task expression: {exc.errors()[0]['msg']}",
                                 field="taskverse.expression") from None
    found = library.lookup(config.text) or library.lookup(config.text.replace("_", " "))
    if found is not None:
        return ref(found.id)
    from taskverse.language.reader import PhraseReader
    from taskverse.language.reading import to_expr

    return to_expr(PhraseReader(library).read(config.text.replace("_", " ")).root)


def combined_start(own: Initialization, setup: Setup) -> dict[str, Any]:
    """The config's start with whatever the text's task needs added (an item both give counts at the larger)."""
    from taskverse.language.reading import with_own_start

    given = setup.overrides()
    out = with_own_start(own, given)
    if own.nearby_blocks or "nearby_blocks" in given:
        blocks = dict(own.nearby_blocks)
        for block, n in given.get("nearby_blocks", {}).items():
            blocks[block] = max(blocks.get(block, 0), n)
        out["nearby_blocks"] = dict(sorted(blocks.items()))
    return out


def minimal_start(start: dict[str, Any], inner: Initialization) -> dict[str, Any]:
    """``start`` without the fields the task has anyway, so equal starts give equal expressions (and ids)."""
    from taskverse.algebra.expr import InitOverrides

    have = inner.model_dump(mode="json")
    have["summon"] = {s["entity"]: s["count"] for s in have["summon"]}
    wanted = InitOverrides(**start).model_dump(mode="json", exclude_none=True)
    return {key: start[key] for key, value in wanted.items() if have.get(key) != value}


def beyond(start: Initialization, setup: Setup) -> dict[str, Any]:
    """What ``start`` has that the config's commands do not give (empty when the config gives it all)."""
    given = Initialization.model_validate(setup.overrides() | {
        "summon": [{"entity": e, "count": n} for e, n in sorted(setup.summon.items())]})
    have = dict(given.inventory)
    for held in [given.main_hand, *given.equipment.values()]:
        if held:
            have[held] = have.get(held, 0) + 1
    out: dict[str, Any] = {}
    items = {**start.inventory}
    for held in [start.main_hand, *start.equipment.values()]:
        if held:
            items[held] = items.get(held, 0) + 1
    more = {i: n - have.get(i, 0) for i, n in sorted(items.items()) if n > have.get(i, 0)}
    if more:
        out["items"] = more
    mobs = {s.entity: s.count for s in given.summon}
    more_mobs = {s.entity: s.count - mobs.get(s.entity, 0) for s in start.summon if s.count > mobs.get(s.entity, 0)}
    if more_mobs:
        out["summon"] = more_mobs
    blocks = {b: n - given.nearby_blocks.get(b, 0) for b, n in sorted(start.nearby_blocks.items())
              if n > given.nearby_blocks.get(b, 0)}
    if blocks:
        out["nearby_blocks"] = blocks
    for key in ("time", "weather", "biome", "dimension", "structure"):  # held items are counted among the items
        value = getattr(start, key)
        if value != getattr(given, key) and value is not None:
            out[key] = getattr(value, "value", value)
    return out


def import_config(path: Path, library: Any, names: Names) -> Imported:
    """Read one config file into the molecule it means; a file that is not a config raises one clean error."""
    from taskverse.algebra.expr import Initialized, custom
    from taskverse.algebra.molecule import MoleculeBuilder, build_molecule

    text = read_text(path, "task config")
    config = _config(text, path)
    lines = Lines(text)
    setup, problems = read_setup(config, path, lines, names)
    result = Imported(str(path), config.text, config_start=setup.overrides(), problems=problems)
    try:
        expr = text_expression(config, library)
        own, _ = MoleculeBuilder(library).initialization(expr)
        start = combined_start(own, setup)
        if isinstance(expr, Initialized) and expr.mode == "custom" and expr.overrides is not None:
            # the phrase's own start ("using sticks") is in ``own`` already: one custom start, not two
            start = {**expr.overrides.model_dump(exclude_none=True), **start}
            expr = expr.part
        start = minimal_start(start, MoleculeBuilder(library).initialization(expr)[0])
        result.molecule = build_molecule(custom(expr, **start) if start else expr, library)
    except TaskverseError as exc:
        if config.taskverse is None and _judged_by_nothing(exc):
            # the config is read (its start above), the text's task named as one no evaluator can judge
            result.no_task = exc.message
            reason = exc.message if exc.message.startswith("no task") else f"no task: {exc.message}"
            result.problems.append(Problem(str(path), lines.of(("text",)), config.text, reason))
            return result
        result.error = f"text {config.text!r}: {exc.message}" if config.taskverse is None else exc.message
        return result
    result.beyond_config = beyond(result.molecule.initialization, setup)
    return result


def _judged_by_nothing(exc: TaskverseError) -> bool:
    """Whether a text's error says what it asks has no task (free-form, or not possible in the game)."""
    from taskverse.language.reading import PhraseError

    return isinstance(exc, PhraseError) and (exc.free_form is not None or exc.status == "impossible")


# --- export -------------------------------------------------------------------------------------------------------

def task_expression(task: Any) -> Any:
    """A task's expression: a molecule's own, an atom's reference."""
    from taskverse.algebra.expr import ref

    return task.expression if getattr(task, "kind", None) == "molecule" else ref(task.id)


def export_config(task: Any, names: Names) -> str:
    """One task as a MineStudio config (YAML); CommandError says why a task cannot be set up by commands."""
    commands = write_commands(task.initialization, names)
    block = TaskverseBlock(id=task.id, description=task.description,
                           expression=task_expression(task).model_dump(mode="json", exclude_none=True))
    # one command a line, as MCU and MineStudio write them (dump_yaml puts short lists in flow style)
    listed = yaml.safe_dump({"custom_init_commands": commands}, default_flow_style=False, sort_keys=False,
                            width=MAX_COMMAND_CHARS + 100, allow_unicode=True)
    return listed + dump_yaml({"text": task.description, "taskverse": block.model_dump(mode="json")})


def config_file_name(task_id: str) -> str:
    """A file name for a task's config (``craft.iron_sword.yaml``)."""
    safe = "".join(c if c.isalnum() or c in "._-" else "_" for c in task_id)
    return f"{safe[:120]}.yaml"

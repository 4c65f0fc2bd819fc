"""Exemplar trajectories: the file format, loading with file/line errors, and the scores read from them.

A trajectory is one attempt at a task, one action per frame (20 frames a second), with its outcome. Time
consumption is the mean number of frames of the successful trajectories of a task, operational effort their mean
permutation entropy (MCU Section 3). Files live under ``calibration/trajectories/`` (any sub-folders, by
convention one per task id) and look like this::

    task: craft.iron_sword        # an atom id, or the mol.<hash> id of a molecule (taskverse compose prints it)
    outcome: success              # success | failure
    recorded_by: alice            # optional, free text
    actions:                      # one entry per frame; NAME*N is N frames of the same action
      - inventory
      - camera_right*3
      - attack
      - forward*40

Example:
    >>> Trajectory(task="craft.stick", outcome="success", actions=["forward*3", "attack"]).frames()
    [2, 2, 2, 9]

"""

from __future__ import annotations

import re
from collections.abc import Iterable
from enum import StrEnum
from pathlib import Path
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from taskverse.difficulty.entropy import DEFAULT_D, permutation_entropy
from taskverse.errors import TaskverseError, close_matches
from taskverse.fileio import read_text
from taskverse.yamlio import line_of, parse_yaml, validation_error

ACTIONS: tuple[str, ...] = (
    "noop", "forward", "back", "left", "right", "jump", "sneak", "sprint", "attack", "use", "drop", "inventory",
    "hotbar", "camera_left", "camera_right", "camera_up", "camera_down", "swap_hands", "pick_item",
)
"""The action vocabulary (the VPT/MineRL human action space reduced to one dominant action per frame).

An action's number, used by permutation entropy, is its position here plus one (MCU numbers actions 1..N).
"""

ACTION_CODE: dict[str, int] = {name: i + 1 for i, name in enumerate(ACTIONS)}
FRAMES_PER_SECOND = 20
_STEP = re.compile(r"^(?P<name>[a-z_]+)(\*(?P<times>[0-9]+))?$")
TASK_ID = r"^[a-z0-9_]+(\.[a-z0-9_#:-]+)+$"


def parse_step(step: str) -> tuple[int, int]:
    """The action number and frame count of one ``NAME`` or ``NAME*N`` entry (ValueError if malformed)."""
    match = _STEP.match(step)
    if match is None:
        raise ValueError(f"{step!r} is not NAME or NAME*N")
    name = match["name"]
    if name not in ACTION_CODE:
        hint = close_matches(name, ACTIONS, n=1)
        raise ValueError(f"unknown action {name!r}"
                         + (f" (did you mean {hint[0]!r}?)" if hint else f"; one of {', '.join(ACTIONS)}"))
    times = int(match["times"] or 1)
    if times < 1:
        raise ValueError(f"{step!r} repeats an action zero times")
    return ACTION_CODE[name], times


class Outcome(StrEnum):
    """How a trajectory ended."""

    SUCCESS = "success"
    FAILURE = "failure"


class Trajectory(BaseModel):
    """One recorded attempt at a task: an action per frame and the outcome."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    task: Annotated[str, Field(pattern=TASK_ID, description="Atom id, or mol.<hash> id of a molecule.")]
    outcome: Outcome
    recorded_by: str | None = None
    actions: Annotated[list[str], Field(min_length=1, description="One action per frame; NAME*N repeats N frames.")]

    @field_validator("actions")
    @classmethod
    def _known_actions(cls, steps: list[str]) -> list[str]:
        for index, step in enumerate(steps):
            try:
                parse_step(step)
            except ValueError as exc:
                raise ValueError(f"entry {index}: {exc}") from None
        return steps

    def frames(self) -> list[int]:
        """The action number of every frame, runs written out."""
        out: list[int] = []
        for step in self.actions:
            code, times = parse_step(step)
            out += [code] * times
        return out

    def permutation_entropy(self, d: int = DEFAULT_D) -> float:
        """Permutation entropy of the action sequence."""
        return permutation_entropy(self.frames(), d)


def load_trajectory(path: Path) -> Trajectory:
    """Read and check one trajectory file; errors name the file, line and field."""
    text = read_text(path, "trajectory file")
    data = parse_yaml(text, path)
    if not isinstance(data, dict):
        raise TaskverseError("expected a trajectory (a mapping with task, outcome and actions)", file=path, line=1)
    try:
        return Trajectory.model_validate(data)
    except ValidationError as exc:
        raise _located(exc, path, text) from None


def _located(exc: ValidationError, path: Path, text: str) -> TaskverseError:
    error = validation_error(exc, path, text)
    entry = re.match(r"entry (\d+): ", error.message)
    if entry and error.field == "actions":  # an action-level check names its entry: point at that line
        loc = ("actions", int(entry.group(1)))
        return TaskverseError(error.message[entry.end():], file=path, line=line_of(text, loc),
                              field=".".join(str(p) for p in loc))
    return error


def trajectory_files(root: Path) -> list[Path]:
    """Every trajectory file under ``root`` (``*.yaml`` and ``*.yml``), sorted."""
    if not root.is_dir():
        return []
    return sorted(p for p in root.rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file())


def load_trajectories(root: Path, known_tasks: Iterable[str] | None = None) -> dict[str, list[Trajectory]]:
    """All trajectories under ``root`` by task id; unknown atom ids are errors with close matches."""
    known = set(known_tasks) if known_tasks is not None else None
    found: dict[str, list[Trajectory]] = {}
    for path in trajectory_files(root):
        trajectory = load_trajectory(path)
        if known is not None and not trajectory.task.startswith("mol.") and trajectory.task not in known:
            text = read_text(path, "trajectory file")
            raise TaskverseError(f"unknown task {trajectory.task!r}", file=path, line=line_of(text, ("task",)),
                                 field="task", suggestions=close_matches(trajectory.task, known))
        found.setdefault(trajectory.task, []).append(trajectory)
    return found


def trajectory_scores(trajectories: list[Trajectory], d: int = DEFAULT_D) -> tuple[float, float, int] | None:
    """Mean frames and mean permutation entropy of the successful trajectories, and how many there are."""
    good = [t for t in trajectories if t.outcome == Outcome.SUCCESS]
    if not good:
        return None
    frames = [t.frames() for t in good]
    mean_frames = sum(len(f) for f in frames) / len(frames)
    mean_pe = sum(permutation_entropy(f, d) for f in frames) / len(frames)
    return mean_frames, mean_pe, len(good)

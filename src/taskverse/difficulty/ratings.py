"""Human ratings of intricacy, creativity and novelty (MCU Section 3): files, agreement and the terminal rater.

Each rater has one file, ``calibration/ratings/<rater>.yaml``::

    rater: alice
    ratings:
      - {task: craft.iron_sword, intricacy: 2, creativity: 1, novelty: 1}
      - {task: build.house, intricacy: 4, creativity: 5}      # a dimension may be left unrated
      - {task: mol.0123456789abcdef, novelty: 4, note: naive(craft bed)}

Ratings are integers from 1 (least) to 5 (most). Several raters are combined by the mean per task and dimension;
their agreement is Krippendorff's alpha with the interval metric, computed here (no extra dependency) over every
task that at least two raters rated.

Example:
    >>> round(krippendorff_alpha_interval([[1, 1], [2, 2], [3, 4]]), 3)
    0.878

"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from taskverse.errors import TaskverseError, close_matches
from taskverse.fileio import read_text
from taskverse.yamlio import dump_yaml, line_of, load_model

RATED_DIMENSIONS: tuple[str, ...] = ("intricacy", "creativity", "novelty")
TASK_ID = r"^[a-z0-9_]+(\.[a-z0-9_#:-]+)+$"
RATER_NAME = r"^[A-Za-z0-9][A-Za-z0-9_.-]*$"

DEFINITIONS: dict[str, str] = {
    "intricacy": "the precision required in agent control: error-intolerant tasks (activating redstone circuits, "
                 "crafting specific items) need precise task knowledge and the ability to debug when something goes "
                 "wrong (MCU Section 3).",
    "creativity": "the size of the solution space: there are many solutions to 'build a house' (high creativity) "
                  "but a single way to 'eat apple' (low creativity) (MCU Section 3).",
    "novelty": "how far the task lies from the trajectories of common play (survival, play-through): tasks valid in "
               "Minecraft but useless for play-through, such as 'commit suicide' or 'kill a villager', are novel "
               "(MCU Section 3).",
}

Score5 = Annotated[int, Field(ge=1, le=5)]


class Rating(BaseModel):
    """One rater's scores for one task (at least one dimension)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    task: Annotated[str, Field(pattern=TASK_ID, description="Atom id, or mol.<hash> id of a molecule.")]
    intricacy: Score5 | None = None
    creativity: Score5 | None = None
    novelty: Score5 | None = None
    note: str | None = None

    @model_validator(mode="after")
    def _something_rated(self) -> Rating:
        if all(getattr(self, dim) is None for dim in RATED_DIMENSIONS):
            raise ValueError("a rating gives at least one of intricacy, creativity, novelty")
        return self


class RatingsFile(BaseModel):
    """All ratings of one rater."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    rater: Annotated[str, Field(pattern=RATER_NAME)]
    ratings: list[Rating] = Field(default_factory=list)

    @model_validator(mode="after")
    def _once_per_task(self) -> RatingsFile:
        seen: set[str] = set()
        for rating in self.ratings:
            if rating.task in seen:
                raise ValueError(f"task {rating.task!r} is rated twice")
            seen.add(rating.task)
        return self


def load_ratings_file(path: Path, known_tasks: Iterable[str] | None = None) -> RatingsFile:
    """Read and check one ratings file; errors name the file, line and field."""
    parsed = load_model(path, RatingsFile, "a mapping with 'rater' and 'ratings'")
    text = read_text(path, "ratings file")
    if parsed.rater != path.stem:
        raise TaskverseError(f"rater {parsed.rater!r} does not match the file name (expected {path.stem!r})",
                             file=path, line=line_of(text, ("rater",)), field="rater")
    if known_tasks is not None:
        known = set(known_tasks)
        for index, rating in enumerate(parsed.ratings):
            if not rating.task.startswith("mol.") and rating.task not in known:
                raise TaskverseError(f"unknown task {rating.task!r}", file=path,
                                     line=line_of(text, ("ratings", index, "task")),
                                     field=f"ratings.{index}.task", suggestions=close_matches(rating.task, known))
    return parsed


def save_ratings_file(ratings: RatingsFile, path: Path) -> None:
    """Write a ratings file (ratings sorted by task), atomically."""
    from taskverse.fileio import write_text

    ordered = RatingsFile(rater=ratings.rater, ratings=sorted(ratings.ratings, key=lambda r: r.task))
    # the rater's own file, rewritten after every task: a unique temporary name, then a rename
    write_text(path, dump_yaml(ordered.model_dump(mode="json", exclude_none=True)), maintains=path.parent)


def krippendorff_alpha_interval(units: Iterable[Sequence[float]]) -> float | None:
    """Krippendorff's alpha, interval metric, for units each holding the values their raters gave.

    Units with fewer than two values are not pairable and are left out. Returns None when alpha is undefined
    (fewer than two pairable values, or no variation at all).

    Example:
        >>> krippendorff_alpha_interval([[1, 1], [3, 3]])
        1.0

    """
    pairable = [[float(v) for v in unit] for unit in units if len(unit) >= 2]
    n = sum(len(unit) for unit in pairable)
    if n < 2:
        return None

    def squared_differences(values: list[float]) -> float:  # sum over ordered pairs i != j of (v_i - v_j)^2
        total = sum(values)
        return 2.0 * (len(values) * sum(v * v for v in values) - total * total)

    observed = sum(squared_differences(unit) / (len(unit) - 1) for unit in pairable) / n
    expected = squared_differences([v for unit in pairable for v in unit]) / (n * (n - 1))
    if expected <= 0:
        return None
    return 1.0 - observed / expected


@dataclass
class AggregatedRatings:
    """Ratings of several raters combined: per dimension, the values by task, and the agreement."""

    raters: list[str] = field(default_factory=list)
    values: dict[str, dict[str, list[int]]] = field(default_factory=lambda: {d: {} for d in RATED_DIMENSIONS})
    alpha: dict[str, float | None] = field(default_factory=dict)

    def mean(self, dimension: str, task: str) -> tuple[float, int] | None:
        """The mean rating of a task on a dimension and how many raters gave it (None if nobody did)."""
        values = self.values[dimension].get(task)
        if not values:
            return None
        return sum(values) / len(values), len(values)

    def source(self, dimension: str, raters: int) -> str:
        """Where a rated number came from, in the words every output uses."""
        alpha = self.alpha.get(dimension)
        shown = "n/a" if alpha is None else f"{alpha:.2f}"
        return f"human ratings ({raters} rater{'s' if raters != 1 else ''}, alpha={shown})"


def aggregate(files: Iterable[RatingsFile]) -> AggregatedRatings:
    """Combine the ratings of several raters: mean per task, Krippendorff's alpha (interval) per dimension."""
    result = AggregatedRatings()
    for ratings in files:
        result.raters.append(ratings.rater)
        for rating in ratings.ratings:
            for dim in RATED_DIMENSIONS:
                value = getattr(rating, dim)
                if value is not None:
                    result.values[dim].setdefault(rating.task, []).append(value)
    for dim in RATED_DIMENSIONS:
        result.alpha[dim] = krippendorff_alpha_interval(list(result.values[dim].values()))
    return result


def load_all_ratings(folder: Path, known_tasks: Iterable[str] | None = None) -> AggregatedRatings:
    """Every rater's file in ``folder`` (``<rater>.yaml``), aggregated."""
    if not folder.is_dir():
        return AggregatedRatings()
    known = list(known_tasks) if known_tasks is not None else None
    return aggregate(load_ratings_file(path, known) for path in sorted(folder.glob("*.yaml")))


def pick_tasks(pool: Sequence[str], already: set[str], sample: int, seed: int) -> list[str]:
    """``sample`` tasks of ``pool`` the rater has not rated yet, drawn reproducibly from ``seed``."""
    todo = sorted(set(pool) - already)
    return random.Random(seed).sample(todo, min(sample, len(todo)))


Ask = Callable[[str], "str | None"]
"""Reads one answer for a prompt; None at the end of input."""


def rate_interactively(tasks: Sequence[tuple[str, str, list[str]]], existing: RatingsFile, path: Path, ask: Ask,
                       say: Callable[[str], Any]) -> RatingsFile:
    """Ask a person to rate tasks 1-5 per dimension; save after every task so quitting loses nothing.

    Args:
        tasks: (task id, description, lines describing it) for each task to rate.
        existing: The rater's current ratings (updated in place of older ratings of the same task).
        path: The ratings file to write.
        ask: Reads one answer (None at end of input).
        say: Shows one line.

    Returns:
        The rater's ratings after the session.

    """
    by_task = {r.task: r for r in existing.ratings}
    say("Rate each task from 1 (least) to 5 (most). Enter skips a dimension, 's' skips the task, 'q' quits.")
    for dim in RATED_DIMENSIONS:
        say(f"  {dim}: {DEFINITIONS[dim]}")
    current = existing
    for number, (task_id, description, info) in enumerate(tasks, start=1):
        say("")
        say(f"[{number}/{len(tasks)}] {description}  ({task_id})")
        for line in info:
            say(f"    {line}")
        scores: dict[str, int] = {}
        for dim in RATED_DIMENSIONS:
            answer = _ask_score(dim, ask, say)
            if answer in ("q", None):
                return current
            if answer == "s":
                scores = {}
                break
            if answer:
                scores[dim] = int(answer)
        if scores:
            by_task[task_id] = Rating(task=task_id, **scores)  # type: ignore[arg-type]
            current = RatingsFile(rater=existing.rater, ratings=list(by_task.values()))
            save_ratings_file(current, path)
    return current


def _ask_score(dim: str, ask: Ask, say: Callable[[str], Any]) -> str | None:
    while True:
        answer = ask(f"  {dim} [1-5, Enter skips, s, q]: ")
        if answer is None:
            return None
        answer = answer.strip().lower()
        if answer in ("", "s", "q") or answer in ("1", "2", "3", "4", "5"):
            return answer
        say("    please type a number from 1 to 5, Enter, s or q")

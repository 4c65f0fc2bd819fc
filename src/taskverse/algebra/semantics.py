"""What it means to do a task: an evaluator over a sequence of game events (MCU Section 2.2, made executable).

An event says what the agent did (obtained, crafted, mined, killed, found, placed, ...) to what, and under which
conditions (time, weather, biome, dimension, height, cave, held item, projectile). ``evaluate`` says whether a
task expression is satisfied by a trace, when, and how far along it is:

* an atom is done when events matching its success goal add up to its count;
* ``A & B`` when both are done, in any order; ``A | B`` when either is;
* ``A >> B`` when B is done by events strictly after A was done (order matters);
* a constrained task counts only the events that happen under its constraint;
* initialization changes where the agent starts, not what counts as success.

The text environment and the engine runtime decide success with these same rules.
"""

from __future__ import annotations

import bisect
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict

from taskverse.algebra.expr import AllOf, AnyOf, AtomRef, Constrained, Constraint, Initialized, Then, height_range
from taskverse.errors import TaskverseError
from taskverse.schema import Event, Goal


class GameEvent(BaseModel):
    """One thing the agent did, with the conditions it happened under (the trace file format)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    event: Event
    target: str
    count: int = 1
    value: float | None = None
    day: int = 0
    time: str | None = None
    weather: str | None = None
    biome: str | None = None
    dimension: str = "overworld"
    y: float | None = None
    in_cave: bool = False
    held: str | None = None
    via: str | None = None


class Status(StrEnum):
    """Where a task stands on a trace."""

    NOT_STARTED = "not_started"
    IN_PROGRESS = "in_progress"
    SATISFIED = "satisfied"


@dataclass(frozen=True)
class Verdict:
    """The evaluator's answer: status, progress in [0, 1], and the index of the event that completed the task."""

    status: Status
    progress: float
    satisfied_at: int | None

    @property
    def satisfied(self) -> bool:
        """Whether the task is done."""
        return self.status is Status.SATISFIED


def _verdict(at: int | None, progress: float) -> Verdict:
    if at is not None:
        return Verdict(Status.SATISFIED, 1.0, at)
    return Verdict(Status.IN_PROGRESS if progress > 0 else Status.NOT_STARTED, progress, None)


class Trace:
    """Events indexed by (event, target) so each atom looks only at the events that can match it."""

    def __init__(self, events: Sequence[GameEvent]) -> None:
        self.events = list(events)
        self.index: dict[tuple[str, str], list[int]] = defaultdict(list)
        for i, e in enumerate(self.events):
            self.index[(e.event.value, e.target)].append(i)


class Evaluator:
    """Evaluates task expressions against traces, given the atoms' success goals and the item tags."""

    def __init__(self, goals: Mapping[str, Goal], tags: Mapping[str, Sequence[str]] | None = None) -> None:
        self.goals = goals
        self.tags = {k: frozenset(v) for k, v in (tags or {}).items()}

    @classmethod
    def for_library(cls, library: Any) -> Evaluator:
        """An evaluator over a loaded library's atoms."""
        return cls(_GoalView(library), library.knowledge.tags)

    def goal(self, task_id: str) -> Goal:
        """The success goal of an atom."""
        try:
            return self.goals[task_id]
        except KeyError:
            raise TaskverseError(f"unknown atom {task_id!r} in the expression") from None

    def evaluate(self, expr: Any, events: Sequence[GameEvent] | Trace) -> Verdict:
        """Whether ``expr`` is satisfied by the events, when, and how far along it is."""
        trace = events if isinstance(events, Trace) else Trace(events)
        at, progress = self._sat(expr, trace, 0, ())
        return _verdict(at, progress)

    def relevant_keys(self, expr: Any) -> set[tuple[str, str]]:
        """The (event, target) pairs that can change the verdict (a cheap filter for environments)."""
        keys: set[tuple[str, str]] = set()
        for node in _atoms(expr):
            goal = self.goal(node.task)
            for target in self._targets(goal.target):
                keys.add((goal.event.value, target))
        return keys

    def _targets(self, target: str) -> Iterable[str]:
        if target.startswith("#"):
            return self.tags.get(target[1:], frozenset())
        return (target,)

    def _candidates(self, goal: Goal, trace: Trace) -> list[int]:
        if not goal.target.startswith("#"):
            return trace.index.get((goal.event.value, goal.target), [])
        lists = [trace.index.get((goal.event.value, t), []) for t in self._targets(goal.target)]
        return sorted(i for lst in lists for i in lst)

    def _matches(self, goal: Goal, event: GameEvent, constraints: tuple[Constraint, ...]) -> bool:
        if goal.using is not None and not self._is(event.held, goal.using):
            return False
        if goal.value is not None and (event.value is None or event.value < goal.value):
            return False
        return all(self._under(c, event) for c in constraints)

    def _is(self, name: str | None, wanted: str) -> bool:
        if name is None:
            return False
        return name in self.tags.get(wanted[1:], ()) if wanted.startswith("#") else name == wanted

    def _under(self, c: Constraint, e: GameEvent) -> bool:
        """Whether an event happened under a constraint."""
        if c.when is not None:
            when = c.when.value
            if when == "first_day":
                if e.day != 0:
                    return False
            elif when in ("day", "night"):
                if e.time != when:
                    return False
            elif e.weather != when:
                return False
        if c.where is not None:
            where = c.where
            if where in ("overworld", "nether", "end"):
                ok = e.dimension == where
            elif where == "cave":
                ok = e.in_cave
            elif where.startswith("height:"):
                low, high = height_range(where)
                ok = e.y is not None and (low is None or e.y >= low) and (high is None or e.y <= high)
            else:
                ok = e.biome == where
            if not ok:
                return False
        if c.how is not None:
            how = c.how
            if how == "bare_hand":
                return e.held is None
            if how == "arrows":
                return e.via == "arrow"
            return self._is(e.held, how[len("with:"):])
        return True

    def _sat(self, node: Any, trace: Trace, start: int, constraints: tuple[Constraint, ...]) -> tuple[int | None,
                                                                                                      float]:
        if isinstance(node, AtomRef):
            goal = self.goal(node.task)
            candidates = self._candidates(goal, trace)
            total = 0
            for i in candidates[bisect.bisect_left(candidates, start):]:
                event = trace.events[i]
                if self._matches(goal, event, constraints):
                    total += event.count
                    if total >= goal.count:
                        return i, 1.0
            return None, min(1.0, total / goal.count)
        if isinstance(node, AllOf):
            results = [self._sat(p, trace, start, constraints) for p in node.parts]
            if all(at is not None for at, _ in results):
                return max(at for at, _ in results if at is not None), 1.0
            return None, sum(p for _, p in results) / len(results)
        if isinstance(node, AnyOf):
            results = [self._sat(p, trace, start, constraints) for p in node.parts]
            done = [at for at, _ in results if at is not None]
            return (min(done), 1.0) if done else (None, max(p for _, p in results))
        if isinstance(node, Then):
            cursor = start
            for k, part in enumerate(node.parts):
                at, progress = self._sat(part, trace, cursor, constraints)
                if at is None:
                    return None, (k + progress) / len(node.parts)
                cursor = at + 1
            return cursor - 1, 1.0
        if isinstance(node, Constrained):
            return self._sat(node.part, trace, start, (*constraints, node.constraint))
        if isinstance(node, Initialized):
            return self._sat(node.part, trace, start, constraints)
        raise TypeError(f"not a task expression: {node!r}")


def _atoms(expr: Any) -> Iterable[AtomRef]:
    if isinstance(expr, AtomRef):
        yield expr
    elif isinstance(expr, AllOf | AnyOf | Then):
        for part in expr.parts:
            yield from _atoms(part)
    else:
        yield from _atoms(expr.part)


class _GoalView(Mapping[str, Goal]):
    """Goals of library atoms, read on demand."""

    def __init__(self, library: Any) -> None:
        self._library = library

    def __getitem__(self, task_id: str) -> Goal:
        return self._library.by_id[task_id].goal

    def __iter__(self) -> Any:
        return iter(self._library.by_id)

    def __len__(self) -> int:
        return len(self._library.by_id)

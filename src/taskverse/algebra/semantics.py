"""What it means to do a task: an evaluator over a sequence of game events (MCU Section 2.2, made executable).

An event says what the agent did (obtained, crafted, mined, killed, found, placed, ...) to what, and under which
conditions (time, weather, biome, dimension, height, cave, held item, projectile, the kind of chest opened) and
the game time it happened
at (``clock``, seconds since the episode began). ``evaluate`` says whether a task expression succeeded, failed or
is still pending on a trace, when, and how far along it is, by running the expression's automaton
(``taskverse.algebra.machine``, where each operator's meaning is written down):

* an atom is done when events matching its success goal add up to its count;
* ``A & B`` when both are done, in any order; ``A | B`` when either is; at least k of n when k are;
* ``A >> B`` when B is done by events strictly after A was done (order matters); ``N * A`` is A N times so;
* ``~A`` fails when A would be done; ``A @ within=T`` fails if A is not done T after it started;
* a constrained task counts only the events that happen under its constraint;
* initialization changes where the agent starts, not what counts as success.

The text environment and the engine runtime decide success and failure with these same rules.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict

from taskverse.algebra import machine
from taskverse.algebra.expr import AtomRef, Constraint, height_range
from taskverse.algebra.machine import Leaf, Outcome
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
    chest: str | None = None
    """The kind of a structure's chest opened (``library``), for an ``interact`` with a structure; None: its main
    kind, or no chest."""
    clock: float = 0.0


class Status(StrEnum):
    """Where a task stands on a trace: done, failed for good, or not yet (not started or in progress)."""

    NOT_STARTED = "not_started"
    IN_PROGRESS = "in_progress"
    SATISFIED = "satisfied"
    FAILED = "failed"


@dataclass(frozen=True)
class Verdict:
    """The evaluator's answer.

    Attributes:
        status: Satisfied, failed, or not yet.
        progress: In [0, 1].
        satisfied_at: The index of the event that completed the task (None if not, or if a deadline did).
        failed_at: The index of the event that failed it (None if not, or if a deadline did).
        decided_clock: The game time of success or failure (an event's clock or a deadline), None if undecided.
        holding: Undecided, with nothing left to do but keep avoiding something.

    """

    status: Status
    progress: float
    satisfied_at: int | None
    failed_at: int | None = None
    decided_clock: float | None = None
    holding: bool = False

    @property
    def satisfied(self) -> bool:
        """Whether the task is done."""
        return self.status is Status.SATISFIED

    @property
    def failed(self) -> bool:
        """Whether the task failed (it can no longer succeed)."""
        return self.status is Status.FAILED

    @property
    def decided(self) -> bool:
        """Whether the task succeeded or failed."""
        return self.status in (Status.SATISFIED, Status.FAILED)


class Trace:
    """A list of events (kept for callers that build one; the evaluator reads events in order)."""

    def __init__(self, events: Sequence[GameEvent]) -> None:
        self.events = list(events)


class Compiled:
    """An expression's automaton for one evaluator: its tree and its leaves (atoms with their constraints)."""

    def __init__(self, expr: Any, evaluator: Evaluator) -> None:
        self.leaves: list[Leaf] = []

        def leaf(node: AtomRef, constraints: tuple[Constraint, ...]) -> Leaf:
            goal = evaluator.goal(node.task)
            made = Leaf(len(self.leaves), node.task, goal, constraints,
                        frozenset((goal.event.value, t) for t in evaluator._targets(goal.target)))
            self.leaves.append(made)
            return made

        self.root = machine.compile_expr(expr, leaf)
        self.keys = self.root[1]
        self.timed = bool(self.root[2])


class Evaluator:
    """Evaluates task expressions against traces, given the atoms' success goals and the item tags."""

    def __init__(self, goals: Mapping[str, Goal], tags: Mapping[str, Sequence[str]] | None = None) -> None:
        self.goals = goals
        self.tags = {k: frozenset(v) for k, v in (tags or {}).items()}
        self._compiled: dict[str, Compiled] = {}

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

    def compile(self, expr: Any) -> Compiled:
        """The automaton of an expression (kept for the next call with an equal expression)."""
        key = expr.key
        compiled = self._compiled.get(key)
        if compiled is None:
            if len(self._compiled) >= 256:
                self._compiled.clear()
            compiled = self._compiled[key] = Compiled(expr, self)
        return compiled

    def evaluate(self, expr: Any, events: Sequence[GameEvent] | Trace, now: float | None = None) -> Verdict:
        """Whether ``expr`` succeeded, failed or is pending on the events, when, and how far along it is.

        ``now`` is the game time the trace was read at (seconds since the episode began); time bounds whose
        deadline is before it have passed. By default it is the clock of the last event.
        """
        items = events.events if isinstance(events, Trace) else events
        compiled = self.compile(expr)
        root, leaves = compiled.root, compiled.leaves
        state = machine.initial(root, 0.0)
        # the next deadline, kept while the state does not change: the clock matters only once it passes it
        deadline = machine.next_deadline(root, state)
        for i, event in enumerate(items):
            if deadline is not None and deadline < event.clock:
                state, passed = machine.advance(root, state, event.clock)
                if machine.outcome(root, state) in machine.DECIDED:
                    return self._verdict(root, state, None, passed)
                deadline = machine.next_deadline(root, state)
            key = (event.event.value, event.target)
            if key not in compiled.keys:
                continue

            def gain(index: int, event: GameEvent = event) -> int:
                leaf = leaves[index]
                return event.count if self._matches(leaf.goal, event, leaf.constraints) else 0

            fed = machine.feed(root, state, key, gain, event.clock)
            if fed == state:
                continue
            state = fed
            if machine.outcome(root, state) in machine.DECIDED:
                return self._verdict(root, state, i, event.clock)
            if compiled.timed:
                deadline = machine.next_deadline(root, state)
        if compiled.timed and (now is not None or items):
            state, passed = machine.advance(root, state, now if now is not None else items[-1].clock)
            return self._verdict(root, state, None, passed)
        return self._verdict(root, state, None, None)

    @staticmethod
    def _verdict(root: machine.Node, state: Any, at: int | None, clock: float | None) -> Verdict:
        outcome = machine.outcome(root, state)
        progress = machine.progress(root, state)
        if outcome is Outcome.SUCCESS:
            return Verdict(Status.SATISFIED, 1.0, at, None, clock)
        if outcome is Outcome.FAILURE:
            return Verdict(Status.FAILED, progress, None, at, clock)
        return Verdict(Status.IN_PROGRESS if progress > 0 else Status.NOT_STARTED, progress, None,
                       holding=outcome is Outcome.HOLDING)

    def relevant_keys(self, expr: Any) -> set[tuple[str, str]]:
        """The (event, target) pairs that can change the verdict (a cheap filter for environments)."""
        return set(self.compile(expr).keys)

    def is_timed(self, expr: Any) -> bool:
        """Whether the expression has a time bound (its verdict can change with the clock alone)."""
        return self.compile(expr).timed

    def _targets(self, target: str) -> Iterable[str]:
        if target.startswith("#"):
            return self.tags.get(target[1:], frozenset())
        return (target,)

    def _matches(self, goal: Goal, event: GameEvent, constraints: tuple[Constraint, ...]) -> bool:
        if goal.using is not None and not self._is(event.held, goal.using):
            return False
        if goal.value is not None and (event.value is None or event.value < goal.value):
            return False
        if goal.chest is not None and event.chest != goal.chest:  # a corridor chest is no library chest
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

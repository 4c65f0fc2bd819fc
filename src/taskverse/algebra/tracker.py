"""Targets of the text world: task expressions, the events that can matter to them, and incremental progress.

The environment decides success with ``semantics.Evaluator`` on its trace. Planners need the same answer for
many hypothetical traces, so ``GoalTracker`` compiles an expression into a small automaton whose state is a
hashable tuple: an atom counts its matching events (capped at its count), ``&`` and ``|`` hold their parts'
states, and ``>>`` holds the index of the part under way and that part's state, which starts with the event
after the previous part was done (as the evaluator's "strictly after"). Matching an event to an atom is the
evaluator's own test, so the two agree; a property test checks it on random traces.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from taskverse.algebra.expr import AllOf, AnyOf, AtomRef, Constrained, Constraint, Initialized, Then
from taskverse.algebra.semantics import Evaluator, GameEvent
from taskverse.schema import Event as EventName
from taskverse.schema import Goal
from taskverse.world.rules import Event

Key = tuple[str, str]


@dataclass(frozen=True)
class Context:
    """The time and weather of every event (the text world has no clock), and the dimension by default."""

    time: str | None = "day"
    weather: str | None = "clear"
    dimension: str = "overworld"

    def game_event(self, event: Event) -> GameEvent:
        """A light event as the evaluator's ``GameEvent``."""
        name, target, count, held, biome, dimension, value = event
        return GameEvent(event=EventName(name), target=target, count=count, value=value, time=self.time,
                         weather=self.weather, biome=biome, dimension=dimension or self.dimension, held=held)


@dataclass(frozen=True)
class Leaf:
    """An atom of the expression with the constraints around it."""

    index: int
    atom: str
    goal: Goal
    constraints: tuple[Constraint, ...]
    keys: frozenset[Key]


class GoalTracker:
    """The target expression as an automaton over events (see the module docstring).

    Args:
        expr: A task expression (atom references by id).
        evaluator: The evaluator whose goals and tags define matching.
        context: The conditions events happen under.

    """

    def __init__(self, expr: Any, evaluator: Evaluator, context: Context) -> None:
        self.evaluator = evaluator
        self.context = context
        self.leaves: list[Leaf] = []
        self.root = self._compile(expr, ())
        self.keys: frozenset[Key] = frozenset(k for leaf in self.leaves for k in leaf.keys)
        self._match_cache: dict[tuple[int, Event], int] = {}

    def _compile(self, node: Any, constraints: tuple[Constraint, ...]) -> tuple[Any, ...]:
        if isinstance(node, AtomRef):
            goal = self.evaluator.goal(node.task)
            targets = self.evaluator.tags.get(goal.target[1:], frozenset()) if goal.target.startswith("#") \
                else (goal.target,)
            leaf = Leaf(len(self.leaves), node.task, goal, constraints,
                        frozenset((goal.event.value, t) for t in targets))
            self.leaves.append(leaf)
            return ("leaf", leaf.index, goal.count, leaf.keys)
        if isinstance(node, AllOf | AnyOf | Then):
            kind = {AllOf: "all", AnyOf: "any", Then: "then"}[type(node)]
            children = tuple(self._compile(p, constraints) for p in node.parts)
            return (kind, children, frozenset(k for c in children for k in c[-1]))
        if isinstance(node, Constrained):
            return self._compile(node.part, (*constraints, node.constraint))
        if isinstance(node, Initialized):
            return self._compile(node.part, constraints)
        raise TypeError(f"not a task expression: {node!r}")

    # -- states ------------------------------------------------------------------------------------------------

    def initial(self) -> Any:
        """The state before any event."""
        return _initial(self.root)

    def done(self, state: Any) -> bool:
        """Whether the expression is satisfied."""
        return _done(self.root, state)

    def feed(self, state: Any, events: Iterable[Event]) -> Any:
        """The state after ``events`` (in order)."""
        for event in events:
            if (event[0], event[1]) in self.keys:
                state = self._feed(self.root, state, event)
        return state

    def matches(self, leaf: Leaf, event: Event) -> int:
        """How much an event counts towards an atom (0 if it does not match)."""
        key = (leaf.index, event)
        cached = self._match_cache.get(key)
        if cached is None:
            ok = (event[0], event[1]) in leaf.keys and \
                self.evaluator._matches(leaf.goal, self.context.game_event(event), leaf.constraints)
            cached = self._match_cache[key] = event[2] if ok else 0
        return cached

    def _feed(self, node: tuple[Any, ...], state: Any, event: Event) -> Any:
        kind = node[0]
        if (event[0], event[1]) not in node[-1]:
            return state
        if kind == "leaf":
            if state >= node[2]:
                return state
            gained = self.matches(self.leaves[node[1]], event)
            return min(node[2], state + gained) if gained else state
        children = node[1]
        if kind == "then":
            k, inner = state
            if k == len(children):
                return state
            inner = self._feed(children[k], inner, event)
            if _done(children[k], inner):
                k += 1
                inner = _initial(children[k]) if k < len(children) else None
            return (k, inner)
        if kind == "all" or not _done(node, state):
            return tuple(self._feed(c, s, event) for c, s in zip(children, state, strict=True))
        return state

    def remaining(self, state: Any) -> Any:
        """What is left to do, as a tree of ``("leaf", index, count)``, ``("all"|"any", parts)`` or None (done)."""
        return _remaining(self.root, state)

    def progress(self, state: Any) -> float:
        """A progress figure in [0, 1] with the evaluator's conventions."""
        return _progress(self.root, state)


def _initial(node: tuple[Any, ...]) -> Any:
    kind = node[0]
    if kind == "leaf":
        return 0
    if kind == "then":
        return (0, _initial(node[1][0]))
    return tuple(_initial(c) for c in node[1])


def _done(node: tuple[Any, ...], state: Any) -> bool:
    kind = node[0]
    if kind == "leaf":
        return bool(state >= node[2])
    if kind == "then":
        return bool(state[0] == len(node[1]))
    if kind == "all":
        return all(_done(c, s) for c, s in zip(node[1], state, strict=True))
    return any(_done(c, s) for c, s in zip(node[1], state, strict=True))


def _remaining(node: tuple[Any, ...], state: Any) -> Any:
    if _done(node, state):
        return None
    kind = node[0]
    if kind == "leaf":
        return ("leaf", node[1], node[2] - state)
    if kind == "then":
        k, inner = state
        todo = [_remaining(node[1][k], inner), *(_remaining(c, _initial(c)) for c in node[1][k + 1:])]
        return ("all", tuple(p for p in todo if p is not None))
    parts = tuple(p for p in (_remaining(c, s) for c, s in zip(node[1], state, strict=True)) if p is not None)
    return (kind, parts)


def _progress(node: tuple[Any, ...], state: Any) -> float:
    kind = node[0]
    if kind == "leaf":
        return float(min(1.0, state / node[2]))
    if kind == "then":
        k, inner = state
        n = len(node[1])
        return 1.0 if k == n else (k + _progress(node[1][k], inner)) / n
    values = [_progress(c, s) for c, s in zip(node[1], state, strict=True)]
    return sum(values) / len(values) if kind == "all" else max(values)

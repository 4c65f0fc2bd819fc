"""The meaning of a task expression, once: an automaton over events and the game clock.

Every judge of a task runs this automaton: the Python evaluator (``semantics.Evaluator``) over a trace, the text
environment through that evaluator, its planners through ``tracker.GoalTracker``, and the engine runtime
(``engine/mods/taskverse/eval.lua``, a line-for-line port that tests run against this module under LuaJIT).

A node's state says where it stands, one of four outcomes (the four truth values of runtime verification for
finite traces, RV-LTL):

* ``SUCCESS`` and ``FAILURE`` are final: no later event changes them;
* ``PENDING`` ("not yet"): work is left;
* ``HOLDING``: nothing is left to do but avoid something; it has not failed so far.

The operators (``docs/algebra.md`` has the truth tables):

* an atom is ``SUCCESS`` when events matching its goal add up to its count, else ``PENDING``; it never fails;
* ``at least k of n`` (``&`` is n of n, ``|`` is 1 of n) fails when more than n - k parts failed, succeeds when
  at least one part succeeded and at least k parts succeeded or hold, holds when k parts hold, else is pending;
* ``A >> B`` runs its parts in turn, each from the event after the previous one succeeded; it fails when the
  part under way fails, and holds when that part and every later part hold (an avoid part never finishes, so
  nothing after it starts);
* ``N * A`` is ``A >> A >> ...`` N times; ``amount(N, A)`` is the atom A with N times its count (its events
  add up their counts: one event of 3 beef counts 3);
* ``~A`` swaps success with failure and pending with holding: it fails when A would succeed;
* ``A within T`` is A while A is undecided and T game seconds have not passed since the node started (when the
  expression started, or when the previous part of a THEN succeeded); once they have, a holding A succeeds and a
  pending A fails, at the deadline. An event at the deadline still counts;
* a constraint filters the events its atoms count; an initialization does not change success.

A decided node is frozen: its parts see no more events. The clock is game time in seconds since the episode
began; a deadline passes when the clock is strictly past it, and whatever starts because of it starts at the
deadline itself, so the verdict does not depend on how often the clock is read.

Progress in [0, 1]: 1.0 on success, 0.0 on failure; otherwise an atom its counted share, k of n the mean of
its k most advanced parts, THEN and N * A the parts done plus the share of the one under way, ``~A`` one minus
A's progress, a time bound its part's.

States are hashable tuples so planners can search over them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from taskverse.algebra.expr import (
    TICKS_PER_SECOND,
    AllOf,
    Amount,
    AnyOf,
    AtLeast,
    AtomRef,
    Avoid,
    Constrained,
    Constraint,
    Initialized,
    Repeat,
    Then,
    Within,
)
from taskverse.schema import Event, Goal

Key = tuple[str, str]
Gain = Callable[[int], int]
"""How much the current event counts towards leaf ``index`` (0 when it does not match)."""


class Outcome(StrEnum):
    """Where a node stands (see the module docstring)."""

    PENDING = "pending"
    HOLDING = "holding"
    SUCCESS = "success"
    FAILURE = "failure"


DECIDED = (Outcome.SUCCESS, Outcome.FAILURE)
_FLIP = {Outcome.PENDING: Outcome.HOLDING, Outcome.HOLDING: Outcome.PENDING, Outcome.SUCCESS: Outcome.FAILURE,
         Outcome.FAILURE: Outcome.SUCCESS}


@dataclass(frozen=True)
class Leaf:
    """An atom of the expression with the constraints around it and the (event, target) pairs it can count."""

    index: int
    atom: str
    goal: Goal
    constraints: tuple[Constraint, ...]
    keys: frozenset[Key]


# A compiled node is a tuple (kind, keys, timed, ...): keys are the (event, target) pairs that can change it,
# timed says whether a time bound is inside. By kind:
#   ("leaf", keys, False, index, count)
#   ("group", keys, timed, k, children)           at least k of the children
#   ("then", keys, timed, children, holds_after)  holds_after[i]: every child after i holds from the start
#   ("repeat", keys, timed, times, child, holds0)
#   ("not", keys, timed, child)
#   ("within", keys, True, seconds, child)
Node = tuple[Any, ...]


def compile_expr(expr: Any, leaf: Callable[[AtomRef, tuple[Constraint, ...]], Leaf]) -> Node:
    """The automaton of an expression; ``leaf`` makes (and records) the leaf of an atom under constraints."""

    def build(node: Any, constraints: tuple[Constraint, ...]) -> Node:
        if isinstance(node, AtomRef):
            made = leaf(node, constraints)
            return ("leaf", made.keys, False, made.index, made.goal.count)
        if isinstance(node, AllOf | AnyOf | AtLeast):
            children = tuple(build(p, constraints) for p in node.parts)
            k = len(children) if isinstance(node, AllOf) else 1 if isinstance(node, AnyOf) else node.count
            return ("group", _keys(children), _timed(children), k, children)
        if isinstance(node, Then):
            children = tuple(build(p, constraints) for p in node.parts)
            holds = tuple(all(initial_outcome(c) is Outcome.HOLDING for c in children[i + 1:])
                          for i in range(len(children)))
            return ("then", _keys(children), _timed(children), children, holds)
        if isinstance(node, Repeat):
            child = build(node.part, constraints)
            return ("repeat", child[1], child[2], node.times, child, initial_outcome(child) is Outcome.HOLDING)
        if isinstance(node, Avoid):
            child = build(node.part, constraints)
            return ("not", child[1], child[2], child)
        if isinstance(node, Within):
            child = build(node.part, constraints)
            return ("within", child[1], True, node.ticks / TICKS_PER_SECOND, child)
        if isinstance(node, Constrained):
            return build(node.part, (*constraints, node.constraint))
        if isinstance(node, Amount):  # the atom's count, N times over: its events add up their counts
            _, keys, timed, index, count = build(node.part, constraints)
            return ("leaf", keys, timed, index, count * node.count)
        if isinstance(node, Initialized):
            return build(node.part, constraints)
        raise TypeError(f"not a task expression: {node!r}")

    return build(expr, ())


def _keys(children: tuple[Node, ...]) -> frozenset[Key]:
    return frozenset(k for c in children for k in c[1])


def _timed(children: tuple[Node, ...]) -> bool:
    return any(c[2] for c in children)


def initial_outcome(node: Node) -> Outcome:
    """A node's outcome before any event."""
    return outcome(node, initial(node, 0.0))


def starting_outcome(expr: Any) -> Outcome:
    """An expression's outcome before any event: HOLDING when all it asks is to avoid things, else PENDING.

    Needs no goals: before any event every atom is pending, whatever its count.
    """
    leaves: list[Leaf] = []

    def leaf(node: AtomRef, constraints: tuple[Constraint, ...]) -> Leaf:
        leaves.append(Leaf(len(leaves), node.task, Goal(event=Event.OBTAIN, target="any"), constraints,
                           frozenset()))
        return leaves[-1]

    return initial_outcome(compile_expr(expr, leaf))


# --- states -------------------------------------------------------------------------------------------------


def initial(node: Node, clock: float) -> Any:
    """The state of a node that starts at game time ``clock``."""
    kind = node[0]
    if kind == "leaf":
        return 0
    if kind == "group":
        return tuple(initial(c, clock) for c in node[4])
    if kind == "then":
        return (0, initial(node[3][0], clock))
    if kind == "repeat":
        return (0, initial(node[4], clock))
    if kind == "not":
        return initial(node[3], clock)
    return (clock, initial(node[4], clock), None)


def outcome(node: Node, state: Any) -> Outcome:
    """Where a node stands in a state."""
    kind = node[0]
    if kind == "leaf":
        return Outcome.SUCCESS if state >= node[4] else Outcome.PENDING
    if kind == "group":
        k, children = node[3], node[4]
        succeeded = holding = failed = 0
        for child, s in zip(children, state, strict=True):
            o = outcome(child, s)
            if o is Outcome.SUCCESS:
                succeeded += 1
            elif o is Outcome.HOLDING:
                holding += 1
            elif o is Outcome.FAILURE:
                failed += 1
        if failed > len(children) - k:
            return Outcome.FAILURE
        if succeeded + holding >= k:
            return Outcome.SUCCESS if succeeded else Outcome.HOLDING
        return Outcome.PENDING
    if kind in ("then", "repeat"):
        done, inner = state
        if kind == "then":
            n = len(node[3])
            if done == n:
                return Outcome.SUCCESS
            child, holds_after = node[3][done], node[4][done]
        else:
            n = node[3]
            if done == n:
                return Outcome.SUCCESS
            child, holds_after = node[4], node[5] or done == n - 1
        o = outcome(child, inner)
        if o is Outcome.FAILURE:
            return o
        return Outcome.HOLDING if o is Outcome.HOLDING and holds_after else Outcome.PENDING
    if kind == "not":
        return _FLIP[outcome(node[3], state)]
    decided = state[2]
    return Outcome(decided) if decided is not None else outcome(node[4], state[1])


def feed(node: Node, state: Any, key: Key, gain: Gain, clock: float) -> Any:
    """The state after one event with (event, target) ``key`` at game time ``clock`` (after ``advance``)."""
    if key not in node[1]:
        return state
    kind = node[0]
    if kind == "leaf":
        count = node[4]
        if state >= count:
            return state
        gained = gain(node[3])
        return min(count, state + gained) if gained else state
    if kind == "group":
        if outcome(node, state) in DECIDED:
            return state
        return tuple(feed(c, s, key, gain, clock) for c, s in zip(node[4], state, strict=True))
    if kind in ("then", "repeat"):
        done, inner = state
        children = node[3] if kind == "then" else None
        n = len(children) if children is not None else node[3]
        if done == n:
            return state
        child = children[done] if children is not None else node[4]
        inner = feed(child, inner, key, gain, clock)
        o = outcome(child, inner)
        if o is Outcome.SUCCESS:
            done += 1
            inner = None if done == n else initial(children[done] if children is not None else child, clock)
        return (done, inner)
    if kind == "not":
        return feed(node[3], state, key, gain, clock)
    if state[2] is not None:
        return state
    return (state[0], feed(node[4], state[1], key, gain, clock), None)


def next_deadline(node: Node, state: Any) -> float | None:
    """The earliest deadline of a time bound still open in the node (None if none)."""
    if not node[2]:
        return None
    kind = node[0]
    if kind == "group":
        if outcome(node, state) in DECIDED:
            return None
        times = [t for c, s in zip(node[4], state, strict=True) if (t := next_deadline(c, s)) is not None]
        return min(times) if times else None
    if kind in ("then", "repeat"):
        done, inner = state
        n = len(node[3]) if kind == "then" else node[3]
        if done == n:
            return None
        return next_deadline(node[3][done] if kind == "then" else node[4], inner)
    if kind == "not":
        return next_deadline(node[3], state)
    if kind == "within":
        start, inner, decided = state
        if decided is not None or outcome(node[4], inner) in DECIDED:
            return None
        own = start + node[3]
        inside = next_deadline(node[4], inner)
        return own if inside is None else min(own, inside)
    return None


def expire(node: Node, state: Any, deadline: float) -> Any:
    """The state once the clock passed ``deadline``: time bounds ending there decide, what follows starts."""
    if not node[2]:
        return state
    kind = node[0]
    if kind == "group":
        if outcome(node, state) in DECIDED:
            return state
        return tuple(expire(c, s, deadline) for c, s in zip(node[4], state, strict=True))
    if kind in ("then", "repeat"):
        done, inner = state
        children = node[3] if kind == "then" else None
        n = len(children) if children is not None else node[3]
        if done == n:
            return state
        child = children[done] if children is not None else node[4]
        inner = expire(child, inner, deadline)
        if outcome(child, inner) is Outcome.SUCCESS:
            done += 1
            inner = None if done == n else initial(children[done] if children is not None else child, deadline)
        return (done, inner)
    if kind == "not":
        return expire(node[3], state, deadline)
    start, inner, decided = state
    if decided is not None:
        return state
    inner = expire(node[4], inner, deadline)
    o = outcome(node[4], inner)
    if o not in DECIDED and start + node[3] <= deadline:
        decided = Outcome.SUCCESS.value if o is Outcome.HOLDING else Outcome.FAILURE.value
    return (start, inner, decided)


def advance(node: Node, state: Any, now: float) -> tuple[Any, float | None]:
    """The state at game time ``now``: every deadline strictly before it passes, in order.

    Returns the state and the last deadline that passed (None if none did).
    """
    passed = None
    while (deadline := next_deadline(node, state)) is not None and deadline < now:
        state = expire(node, state, deadline)
        passed = deadline
    return state, passed


def progress(node: Node, state: Any) -> float:
    """Progress in [0, 1] (see the module docstring): 1.0 on success, 0.0 on failure."""
    o = outcome(node, state)
    if o is Outcome.SUCCESS:
        return 1.0
    if o is Outcome.FAILURE:
        return 0.0
    kind = node[0]
    if kind == "leaf":
        return float(min(1.0, state / node[4]))
    if kind == "group":
        values = sorted((progress(c, s) for c, s in zip(node[4], state, strict=True)), reverse=True)
        return sum(values[:node[3]]) / node[3]
    if kind in ("then", "repeat"):
        done, inner = state
        n = len(node[3]) if kind == "then" else node[3]
        child = node[3][done] if kind == "then" else node[4]
        return (done + progress(child, inner)) / n
    if kind == "not":
        return 1.0 - progress(node[3], state)
    return progress(node[4], state[1])


def can_succeed(node: Node, dead: Callable[[int], bool]) -> bool:
    """Whether a node can still succeed (or hold) from its start when the ``dead`` leaves never count an event.

    Sound, not complete: False only when no trace can succeed (a ``~A`` is always taken to be able to hold). The
    planners ask it before searching: a target whose every way goes through an atom no event can count is
    infeasible without a search.
    """
    kind = node[0]
    if kind == "leaf":
        return not dead(node[3])
    if kind == "group":
        return sum(can_succeed(c, dead) for c in node[4]) >= node[3]
    if kind == "then":
        return all(can_succeed(c, dead) for c in node[3])
    if kind == "not":
        return True
    return can_succeed(node[4], dead)  # repeat, within: as their part


def leaf_counts(node: Node) -> dict[int, int]:
    """The count each leaf must add up to (its goal's count, times an amount around it)."""
    out: dict[int, int] = {}
    stack = [node]
    while stack:
        n = stack.pop()
        if n[0] == "leaf":
            out[n[3]] = max(out.get(n[3], 0), n[4])
        elif n[0] in ("group", "then"):
            stack.extend(n[4] if n[0] == "group" else n[3])
        else:
            stack.append(n[4] if n[0] in ("repeat", "within") else n[3])
    return out


def remaining(node: Node, state: Any) -> Any:
    """What is left to do, for planners: ``("leaf", index, count)``, ``("all"|"any", parts)`` or None.

    None when nothing can be done towards success: the node succeeded, failed, or only asks to avoid something
    (avoiding is not planned). "At least k of n" for 1 < k < n is given as "any" of its open parts, a lower
    bound on the work; time bounds are left to the clock.
    """
    if outcome(node, state) in DECIDED:
        return None
    kind = node[0]
    if kind == "leaf":
        return ("leaf", node[3], node[4] - state)
    if kind == "group":
        parts = tuple(p for c, s in zip(node[4], state, strict=True) if (p := remaining(c, s)) is not None)
        if not parts:
            return None
        return ("all" if node[3] == len(node[4]) else "any", parts)
    if kind in ("then", "repeat"):
        done, inner = state
        if kind == "then":
            current, later = node[3][done], node[3][done + 1:]
        else:
            current, later = node[4], (node[4],) * (node[3] - done - 1)
        todo = [remaining(current, inner), *(remaining(c, initial(c, 0.0)) for c in later)]
        parts = tuple(p for p in todo if p is not None)
        return ("all", parts) if parts else None
    if kind == "not":
        return None
    return remaining(node[4], state[1])


__all__ = [
    "DECIDED", "Gain", "Key", "Leaf", "Node", "Outcome", "advance", "can_succeed", "compile_expr", "expire", "feed",
    "initial",
    "initial_outcome", "next_deadline", "outcome", "progress", "remaining", "starting_outcome",
]

"""Targets of the text world: task expressions, the events that can matter to them, and incremental progress.

The environment decides success and failure with ``semantics.Evaluator`` on its trace. Planners need the same
answer for many hypothetical traces, so ``GoalTracker`` runs the same automaton (``taskverse.algebra.machine``)
one event at a time, with hashable states: an atom counts its matching events (capped at its count), groups hold
their parts' states, ``>>`` and ``N *`` hold the index of the part under way and that part's state, which starts
with the event after the previous part was done (as the evaluator's "strictly after"). Matching an event to an
atom is the evaluator's own test, so the two agree; a property test checks it on random traces.

Planners search without a clock: ``feed`` leaves time bounds open (``advance`` moves the clock when a caller has
one), so a plan is judged on what it does, and its length is the planner's own cost.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from taskverse.algebra import machine
from taskverse.algebra.expr import Constraint
from taskverse.algebra.machine import Leaf, Outcome
from taskverse.algebra.semantics import Evaluator, GameEvent
from taskverse.schema import Event as EventName
from taskverse.world.rules import Event

Key = tuple[str, str]


@dataclass(frozen=True)
class Context:
    """The time and weather of every event (the text world has no day and night), and the dimension by default."""

    time: str | None = "day"
    weather: str | None = "clear"
    dimension: str = "overworld"

    def game_event(self, event: Event, clock: float = 0.0) -> GameEvent:
        """A light event as the evaluator's ``GameEvent``, at game time ``clock``."""
        name, target, count, held, biome, dimension, value, chest = event
        return GameEvent(event=EventName(name), target=target, count=count, value=value, time=self.time,
                         weather=self.weather, biome=biome, dimension=dimension or self.dimension, held=held,
                         chest=chest, clock=clock)


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
        compiled = evaluator.compile(expr)
        self.leaves: list[Leaf] = compiled.leaves
        self.root = compiled.root
        self.keys: frozenset[Key] = compiled.keys
        self._match_cache: dict[tuple[int, Event], int] = {}

    # -- states ------------------------------------------------------------------------------------------------

    def initial(self) -> Any:
        """The state before any event."""
        return machine.initial(self.root, 0.0)

    def outcome(self, state: Any) -> Outcome:
        """Where the expression stands."""
        return machine.outcome(self.root, state)

    def done(self, state: Any) -> bool:
        """Whether the expression succeeded."""
        return machine.outcome(self.root, state) is Outcome.SUCCESS

    def failed(self, state: Any) -> bool:
        """Whether the expression failed (no event can make it succeed any more)."""
        return machine.outcome(self.root, state) is Outcome.FAILURE

    def feed(self, state: Any, events: Iterable[Event], clock: float = 0.0) -> Any:
        """The state after ``events`` (in order), all at game time ``clock``."""
        for event in events:
            key = (event[0], event[1])
            if key in self.keys:
                state = machine.feed(self.root, state, key, self._gain(event), clock)
        return state

    def _gain(self, event: Event) -> machine.Gain:
        return lambda index: self.matches(self.leaves[index], event)

    def advance(self, state: Any, now: float) -> Any:
        """The state at game time ``now`` (time bounds whose deadline passed decide)."""
        return machine.advance(self.root, state, now)[0]

    def matches(self, leaf: Leaf, event: Event) -> int:
        """How much an event counts towards an atom (0 if it does not match)."""
        key = (leaf.index, event)
        cached = self._match_cache.get(key)
        if cached is None:
            ok = (event[0], event[1]) in leaf.keys and \
                self.evaluator._matches(leaf.goal, self.context.game_event(event), leaf.constraints)
            cached = self._match_cache[key] = event[2] if ok else 0
        return cached

    def can_succeed(self, dead: Callable[[int], bool]) -> bool:
        """Whether the target can still succeed when the ``dead`` atoms never count (``machine.can_succeed``)."""
        return machine.can_succeed(self.root, dead)

    def never_counts(self, leaf: Leaf) -> str | None:
        """Why no event of an episode can count for an atom, when its conditions alone decide it, else None.

        The time and weather of every event are the context's (the text world has no day and night), so an atom
        constrained to another (``when=night`` from a start in the day) never counts.
        """
        probe = self.context.game_event((leaf.goal.event.value, leaf.goal.target, 1, None, None, None, None,
                                          leaf.goal.chest))
        for c in leaf.constraints:
            if c.when is not None and not self.evaluator._under(Constraint(when=c.when), probe):
                return (f"'{leaf.atom}' at {c.when.value}: the text world keeps the start's time and weather "
                        f"({self.context.time}, {self.context.weather}) for every event")
        return None

    def leaf_counts(self) -> dict[int, int]:
        """The count each atom of the target must add up to (an amount multiplies its goal's count)."""
        return machine.leaf_counts(self.root)

    def remaining(self, state: Any) -> Any:
        """What is left to do, as a tree of ``("leaf", index, count)``, ``("all"|"any", parts)`` or None."""
        return machine.remaining(self.root, state)

    def progress(self, state: Any) -> float:
        """A progress figure in [0, 1] with the evaluator's conventions."""
        return machine.progress(self.root, state)

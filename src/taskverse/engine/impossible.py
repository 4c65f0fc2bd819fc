"""Impossible tasks in the engine: the text world's, kept where the game's own model proves them out of reach too.

``taskverse engine eval --impossible N`` mixes in N tasks no agent can do, as ``taskverse eval --impossible N``
does, and offers the give-up (``taskverse.textenv.impossible``): the same candidate after the view's, ``N: give
up``, taken by its number or by the words ``give up`` and ``impossible``; taking it ends the episode, unsuccessful,
and "said impossible" is scored against "is impossible" by precision, recall and F1 (``impossible_scores``).

The targets are drawn as the text world draws them (seeded, from the same families, proven over the library's
world model from the start the run gives them), and each is kept only when it also compiles for the game and the
game's own model (``taskverse.engine.model``) proves it out of reach from the compiled start (``infeasibility``
over the game's rules): the engine's world is not the text world's, and nothing is called impossible there on the
text world's word alone. Both proofs of a candidate are kept in the cache (the text world's under ``impossible``,
the game's under ``impossible_<game>``), so drawing again proves only what is new. A target the game cannot prove
(it has no weather, so ``find desert @ when=rain`` is neither done nor proven undone by its model) is passed over.

The built-in planner agents give up where :func:`game_proof` proves the episode's task out of reach
(``Resigning`` with the engine's proof); the random agent takes the give-up as one more candidate.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from taskverse.errors import TaskverseError


@dataclass(frozen=True)
class EngineImpossible:
    """An impossible task of an engine run: how the report names it, the task to compile, the game's proof."""

    reference: str
    task: Any
    reason: str


def game_proof(task: Any, ir: Any, library: Any) -> str | None:
    """Why the compiled task cannot be done in its game from its compiled start (the game's model), or None.

    A part the game has nothing for (no event of its model counts for it) is out of reach as much as one whose ways
    need what nothing gives from the start; ``None`` when the model proves neither.
    """
    from taskverse.algebra.semantics import Evaluator
    from taskverse.algebra.tracker import Context, GoalTracker
    from taskverse.engine.model import game_model
    from taskverse.engine.planner import NoPlan, _Goals, start_state
    from taskverse.world.search import holdings, infeasibility

    model = game_model(ir.game, library.knowledge)
    goals = _Goals(model, ir)
    tracker = GoalTracker(goals.expression, Evaluator(goals.goals, goals.tags), Context())
    try:
        state = start_state(model, ir)
    except NoPlan:
        return None  # a start the model does not know: nothing is proven from it
    return infeasibility(model.rules, tracker, holdings(model.rules, state))


def episode_proof(world: Any) -> str | None:
    """:func:`game_proof` for an ``EngineWorld``'s episode (the planner agents' ``Resigning`` proof)."""
    episode = world.episode
    return game_proof(episode.task, episode.ir, episode.library)


def task_of(target: Any, library: Any) -> Any:
    """The atom or molecule task of a text-world target (its expression built again, conflicts kept)."""
    from taskverse.algebra.expr import AtomRef
    from taskverse.algebra.molecule import Conflict, build_molecule, build_out_of_reach

    expression = target.expression
    if isinstance(expression, AtomRef) and expression.task in library.by_id:
        return library.by_id[expression.task]
    try:
        return build_molecule(expression, library)
    except Conflict:  # a tool that cannot harvest the block: built all the same, as the text world does
        return build_out_of_reach(expression, library)[0]


def engine_impossible_tasks(library: Any, game: str, count: int, seed: int, possible: Sequence[tuple[str, Any]],
                            initialization: str = "task") -> list[EngineImpossible]:
    """``count`` targets out of reach both in the text world and in ``game``, drawn with ``seed``.

    ``possible`` are the run's (name, task) pairs (the first parts of compositions are drawn from them);
    ``initialization`` is the run's start mode (``starts.start_as``). Raises a TaskverseError when fewer are
    proven in both.
    """
    from taskverse.engine.compiler import Compiler
    from taskverse.engine.starts import start_as
    from taskverse.textenv.env import resolve_target
    from taskverse.textenv.evaluation import EvalTask
    from taskverse.textenv.impossible import ImpossibleTask, impossible_tasks

    compiler = functools.cache(lambda: Compiler(library, game))  # its mapping is read once a proof is needed
    kept: dict[str, EngineImpossible] = {}
    memo = _game_verdicts(library, game)

    def game_reason(drawn: ImpossibleTask) -> str | None:
        try:
            task = task_of(drawn.target, library)
            started = start_as(task, initialization, library)
        except TaskverseError:
            return None
        if compiler().problems(started):
            return None
        return game_proof(started, compiler().compile(started), library)

    def keep(drawn: ImpossibleTask) -> bool:
        key = (drawn.target.id, initialization)
        known = memo.get(key) if memo is not None else None
        reason = known[0] if known is not None else game_reason(drawn)
        if known is None and memo is not None:
            memo.put(key, (reason,))
        if reason is None:
            return False
        kept[drawn.target.id] = EngineImpossible(drawn.reference, task_of(drawn.target, library), reason)
        return True

    firsts = []
    for name, task in possible:
        try:
            firsts.append(EvalTask(name, resolve_target(task, library)))
        except TaskverseError:
            continue
    try:
        drawn = impossible_tasks(library, count, seed, firsts, initialization, keep=keep,
                                 where=f" that compile for {game} and its model proves out of reach too")
    finally:
        if memo is not None:
            memo.save()
    return [kept[task.target.id] for task in drawn]


def _game_verdicts(library: Any, game: str) -> Any:
    """The game's proofs of drawn targets, kept on disk (``memo.DiskMemo``), or None for a library with no digest.

    Keyed as the game's model is (its profile's files and the code) and by the library's digest: a target's proof
    in the game depends on all three.
    """
    digest = getattr(library, "digest", "")
    if not digest:
        return None
    from taskverse.engine.profile import profile_dir
    from taskverse.memo import DiskMemo, code_digest, files_digest

    profile = files_digest(sorted(p for p in profile_dir(game).rglob("*") if p.is_file()))
    return DiskMemo(f"impossible_{game}", f"{digest[:16]}-{profile}-{code_digest()}")


__all__ = ["EngineImpossible", "engine_impossible_tasks", "episode_proof", "game_proof", "task_of"]

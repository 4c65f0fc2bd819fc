"""Impossible tasks: targets the world model proves out of reach, the give-up answer, and its F1 score.

An agent that plans well also knows when there is no plan (Plancraft scores this by F1). ``impossible_tasks``
draws targets that the episode's start cannot reach, each with the world model's proof
(``world.search.infeasibility``: a reachability fixpoint from the start that never uses anything up, so what it
leaves out can never be had; an atom no action with the tool asked for counts for; a condition the episode's
events never meet). The candidates come from three families, taken in turn:

* the atoms no survival player can do (placing a spawner, mining an infested block);
* a block mined with a tool that cannot harvest it (``mine diamond_ore @ how=with:stone_pickaxe``): the game's
  harvest tools say so, and no way of mining it in the text world holds that tool;
* a biome found while it rains or thunders there, where it never does (``find desert @ when=rain``): the game's
  biomes say so, and the text world keeps the start's clear weather.

Each may come alone or after a task of the run (``craft stick >> place spawner``, where the first part is done
and the second cannot be). The last two the molecule builder refuses as compositions a user would not want
(``algebra.molecule.build_out_of_reach`` builds them all the same): each is used only when the game's knowledge
and the text world's proof both say it is out of reach. A candidate whose proof fails is never used: nothing is
called impossible on a guess.

Each candidate's verdict (its proof, or none) is kept in the cache under the library's and the code's digests
(``memo.DiskMemo``, kind ``impossible``), so a later draw from the same start mode proves only what it has not seen;
the draw itself, and its order, are the same either way.

When a run offers the give-up (``taskverse eval --impossible N``), every observation lists one more candidate
after the view's, ``N: give up``; answering it (its number, ``give up``, ``give_up`` or ``impossible``) ends the
episode as ``gave_up``. ``impossible_scores`` compares "said impossible" with "is impossible" over episodes.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from taskverse.algebra.tracker import GoalTracker
from taskverse.errors import TaskverseError
from taskverse.world.search import holdings, infeasibility

GIVE_UP = -1
"""The action index ``act`` returns to give up (no atom has it)."""
GIVE_UP_ID = "give_up"
GIVE_UP_NAME = "give up"
GIVE_UP_WORDS = ("give up", "impossible")
"""Names an answer may give the give-up by (any case, ``_`` for a space)."""
MAX_IMPOSSIBLE = 1000
"""The most impossible tasks one run mixes in."""


@dataclass(frozen=True)
class ImpossibleTask:
    """A generated impossible target: how the report names it, the target, and the world model's proof."""

    reference: str
    target: Any
    reason: str
    max_steps: int | None = None


def proof(env: Any, target: Any) -> str | None:
    """Why ``target`` cannot be done from the start ``env`` gives it (resetting ``env``), or None without a proof."""
    env.reset(seed=0, options={"task": target})
    tracker = GoalTracker(env.expression, env.evaluator, env.context)
    return infeasibility(env.rules, tracker, holdings(env.rules, env.state))


def impossible_tasks(library: Any, count: int, seed: int, possible: Sequence[Any] = (),
                     initialization: str = "auto", keep: Callable[[ImpossibleTask], bool] | None = None,
                     where: str = "") -> list[ImpossibleTask]:
    """``count`` distinct targets proven impossible from the start an evaluation gives them, drawn with ``seed``.

    Half (rounded down) are a target of the families (see the module docstring) after one of the ``possible``
    tasks (each an ``EvalTask``: its target and step limit), the rest such targets alone. ``keep`` is a further
    check a proven target must pass to be drawn (the engine's: it compiles for the game and the game's own model
    proves it out of reach too), ``where`` the words that say so in the error. Raises a TaskverseError when
    fewer than ``count`` are proven (and kept).
    """
    from taskverse.textenv.env import SkillForgeTextEnv

    if not 0 <= count <= MAX_IMPOSSIBLE:
        raise TaskverseError(f"--impossible {count}: expected 0 to {MAX_IMPOSSIBLE}")
    if count == 0:
        return []
    rng = random.Random(seed)

    @functools.cache
    def env() -> Any:  # built when a proof is first needed: a draw whose verdicts are all kept needs none
        return SkillForgeTextEnv(observation="structured", plan_info=False, library=library,
                                 initialization=initialization)  # type: ignore[arg-type]

    unreachable = set(_out_of_reach_atoms(library))
    verdicts = Verdicts(library, initialization)
    try:
        return _draw(library, env, rng, unreachable, verdicts, count, possible, keep, where)
    finally:
        verdicts.save()


class Verdicts:
    """Candidates' proofs from one start mode (``None``: not proven), kept on disk between draws.

    Keyed by the library's and the code's digests as the other caches are: a change to either starts afresh. A
    library loaded without the cache (no digest) keeps them for this process only.
    """

    def __init__(self, library: Any, initialization: str) -> None:
        from taskverse.memo import DiskMemo, code_digest

        self.initialization = initialization
        digest = getattr(library, "digest", "")
        self.memo = DiskMemo("impossible", f"{digest[:16]}-{code_digest()}") if digest else None
        self.local: dict[Any, tuple[str | None]] = {}

    def get(self, candidate: Hashable) -> tuple[str | None] | None:
        """``(proof,)`` kept for a candidate (the proof may be None), or None when it was never proven."""
        key = (candidate, self.initialization)
        found = self.local.get(key)
        if found is None and self.memo is not None:
            found = self.memo.get(key)
        return found

    def put(self, candidate: Hashable, reason: str | None) -> None:
        """Keep a candidate's proof (or that it has none)."""
        key = (candidate, self.initialization)
        self.local[key] = (reason,)
        if self.memo is not None:
            self.memo.put(key, (reason,))

    def save(self) -> None:
        """Write the verdicts learnt (a cache that cannot be written only costs time)."""
        if self.memo is not None:
            self.memo.save()


def _draw(library: Any, env: Callable[[], Any], rng: random.Random, unreachable: set[str], verdicts: Verdicts,
          count: int, possible: Sequence[Any], keep: Callable[[ImpossibleTask], bool] | None,
          where: str) -> list[ImpossibleTask]:
    """The draw of :func:`impossible_tasks` once its environment and verdicts are set up."""
    proven = (task for task in _proven(env, library, [rng.sample(family, len(family))
                                                      for family in candidate_families(library)], unreachable,
                                       verdicts)
              if keep is None or keep(task))
    pool = list(itertools.islice(proven, count))  # the lasts of the compositions are drawn from these
    firsts = [task for task in possible if task.target.id not in unreachable]
    chosen: list[ImpossibleTask] = []
    composed = count // 2 if firsts and pool else 0
    seen: set[str] = set()
    for _ in range(8 * composed):  # a composition the molecule builder refuses is passed over
        if len(chosen) >= composed:
            break
        first, last = rng.choice(firsts), rng.choice(pool)
        try:
            target, _ = _target(first.target.expression >> last.target.expression, library)
        except TaskverseError:
            continue
        reason = None
        if target.id not in seen:
            known = verdicts.get(("then", target.id))
            reason = known[0] if known is not None else proof(env(), target)
            verdicts.put(("then", target.id), reason)
        task = None if reason is None else ImpossibleTask(f"{first.reference} >> {last.reference}", target, reason,
                                                          first.max_steps)
        if task is not None and (keep is None or keep(task)):
            seen.add(target.id)
            chosen.append(task)
    for task in itertools.chain(pool, proven):
        if len(chosen) >= count:
            break
        if task.target.id not in seen:
            seen.add(task.target.id)
            chosen.append(task)
    if len(chosen) < count:
        raise TaskverseError(f"--impossible {count}: the world model proves only {len(chosen)} distinct targets "
                             f"out of reach for this run{where} (give at most {len(chosen)})")
    return chosen


def _out_of_reach_atoms(library: Any) -> list[str]:
    """The library's atoms no action of the world graph reaches (placing a spawner), sorted."""
    world = library.world
    return sorted(t.id for t in library.tasks if world.task_rank(t.id) == float("inf"))


def candidate_families(library: Any) -> list[list[str]]:
    """The candidate impossible targets as composition expressions, by family (see the module docstring).

    Each family is in a fixed order (the draw shuffles it); nothing here is proven yet.
    """
    from taskverse.schema import Event

    kn = library.knowledge
    world = library.world
    atoms = _out_of_reach_atoms(library)
    # the tools of a kind (pickaxe, shovel, sword) by the harvest tools the game's blocks name
    kinds: dict[str, set[str]] = {}
    for block in kn.blocks.values():
        for tool in block["harvest_tools"] or ():
            kinds.setdefault(tool.rsplit("_", 1)[-1], set()).add(tool)
    tools: list[str] = []
    dry: list[str] = []
    for task in sorted(library.tasks, key=lambda t: t.id):
        goal = getattr(task, "goal", None)
        if goal is None or world.task_rank(task.id) == float("inf"):
            continue
        if goal.event == Event.MINE and goal.using is None and goal.target in kn.blocks:
            harvest = set(kn.blocks[goal.target]["harvest_tools"] or ())
            others = {t for tool in harvest for t in kinds[tool.rsplit("_", 1)[-1]]} - harvest
            tools += [f"{task.id} @ how=with:{tool}" for tool in sorted(others)]
        elif goal.event == Event.FIND and goal.target in kn.biomes and not kn.biomes[goal.target]["precipitation"]:
            dry += [f"{task.id} @ when={weather}" for weather in ("rain", "thunder")]
    return [atoms, tools, dry]


def _target(expr: Any, library: Any) -> tuple[Any, str | None]:
    """The target of an expression or composition text, and the molecule builder's conflict where it refuses it.

    A conflict in the constraints (a tool that cannot harvest the block) is the game's own reason; the
    target is built all the same, for the world model's proof to confirm.
    """
    from taskverse.algebra.molecule import Conflict, build_out_of_reach
    from taskverse.algebra.parse import parse_expression
    from taskverse.textenv.env import resolve_target

    try:
        return resolve_target(expr, library), None
    except Conflict:
        parsed = parse_expression(expr) if isinstance(expr, str) else expr
        molecule, conflict = build_out_of_reach(parsed, library)
        return resolve_target(molecule, library), conflict


def _proven(env: Callable[[], Any], library: Any, families: list[list[str]], unreachable: set[str],
            verdicts: Verdicts) -> Iterator[ImpossibleTask]:
    """The candidates the world model proves out of reach, taking the families in turn.

    ``unreachable`` holds the out-of-reach atoms, which need no conflict of the molecule builder.
    """
    queues = [iter(family) for family in families]
    while queues:
        for queue in list(queues):
            for candidate in queue:
                task = _proven_one(env, library, candidate, candidate in unreachable, verdicts)
                if task is not None:
                    yield task
                    break
            else:
                queues.remove(queue)


def _proven_one(env: Callable[[], Any], library: Any, candidate: str, atom: bool,
                verdicts: Verdicts) -> ImpossibleTask | None:
    """A candidate as an impossible task when it is proven, else None.

    An out-of-reach atom needs the world model's proof; a constrained one also the game's own reason, the
    molecule builder's conflict (the text world alone would prove ``find plains @ when=rain`` out of reach, as
    its weather never changes, but it rains in the plains). The conflict is looked at first: it costs nothing,
    and the proof a reachability fixpoint from the candidate's own start.
    """
    kept = verdicts.get(candidate)
    if kept is not None and kept[0] is None:
        return None
    try:
        target, conflict = _target(candidate, library)
    except TaskverseError:  # another refusal (clashing starts): not a candidate
        verdicts.put(candidate, None)
        return None
    if kept is not None:
        reason = kept[0]
    elif not atom and conflict is None:
        reason = None
    else:
        reason = proof(env(), target)
    verdicts.put(candidate, reason)
    if reason is None or (not atom and conflict is None):
        return None
    return ImpossibleTask(target.description, target, reason)


def offered_text(text: str, shown: int) -> str:
    """The Figure 5 text with the give-up listed as candidate number ``shown`` (after the view's candidates)."""
    head, sep, line = text.rpartition("Candidate Actions:\n")
    extra = f"{shown}: {GIVE_UP_NAME}"
    return f"{head}{sep}{line}; {extra}" if line else f"{head}{sep}{extra}"


def offered_candidates(candidates: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The JSON observation's candidates with the give-up after them."""
    return [*candidates, {"index": len(candidates), "id": GIVE_UP_ID, "name": GIVE_UP_NAME}]


def names_give_up(answer: str, shown: int) -> bool:
    """Whether a whole answer (an external program's line) is the give-up: its number, name or id.

    Example:
        >>> names_give_up("12", 12), names_give_up("Give_Up", 3), names_give_up("12: give up", 12)
        (True, True, True)
        >>> names_give_up("3", 12)
        False

    """
    text = " ".join(answer.strip().casefold().replace("_", " ").split())
    head, colon, name = text.partition(":")
    if colon and head.strip().isdigit():
        text = name.strip()
    return text == str(shown) or text in GIVE_UP_WORDS


def impossible_scores(episodes: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Precision, recall and F1 of "said impossible" (``gave_up``) against "is impossible" over episodes.

    Precision is 0 when the agent never gave up, recall 0 when no episode was impossible.

    Example:
        >>> runs = [{"impossible": True, "gave_up": True}, {"impossible": True, "gave_up": False},
        ...         {"impossible": False, "gave_up": True}, {"impossible": False, "gave_up": False}]
        >>> impossible_scores(runs)["f1"]
        0.5

    """
    tp = sum(1 for e in episodes if e.get("impossible") and e.get("gave_up"))
    fp = sum(1 for e in episodes if not e.get("impossible") and e.get("gave_up"))
    fn = sum(1 for e in episodes if e.get("impossible") and not e.get("gave_up"))
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"episodes": sum(1 for e in episodes if e.get("impossible")), "said_impossible": tp + fp,
            "true_positives": tp, "false_positives": fp, "false_negatives": fn,
            "precision": round(precision, 4), "recall": round(recall, 4), "f1": round(f1, 4)}


def text_world_proof(env: Any) -> str | None:
    """Why the text world's target cannot be done from the episode's start (``infeasibility``), or None."""
    tracker = GoalTracker(env.expression, env.evaluator, env.context)
    return infeasibility(env.rules, tracker, holdings(env.rules, env.state))


class Resigning:
    """A built-in agent that answers the give-up where the world model proves the target out of reach.

    The planners (greedy, optimal) give up at the first step when ``infeasibility`` proves the target
    unreachable from the episode's start (the proof comes before any search, so no budget is spent on it); the
    random agent picks the give-up as one more candidate, uniformly, from its own seeded generator. ``prove``
    gives the proof in the agent's world (default: the text world's; the engine's proves over the game's model).
    """

    def __init__(self, agent: Any, prove: Callable[[Any], str | None] = text_world_proof) -> None:
        self.agent = agent
        self.name = agent.name
        self.prove = prove
        self.proven = False
        self._rng = random.Random(0)

    def reset(self, env: Any, seed: int | None = None) -> None:
        """Prove the target out of reach, or start the agent's episode."""
        self._rng = random.Random(seed)
        if self.name != "random":
            self.proven = self.prove(env) is not None
            if self.proven:
                return
        self.agent.reset(env, seed)

    def act(self, env: Any) -> int | str:
        """The give-up, or the agent's own choice."""
        if self.proven:
            return GIVE_UP
        if self.name == "random" and self._rng.randrange(len(env.candidates()) + 1) == 0:
            return GIVE_UP
        choice: int | str = self.agent.act(env)
        return choice

    def close(self) -> None:
        """Close the agent."""
        self.agent.close()


__all__ = ["GIVE_UP", "GIVE_UP_ID", "GIVE_UP_NAME", "ImpossibleTask", "Resigning", "impossible_scores",
           "impossible_tasks", "names_give_up", "offered_candidates", "offered_text", "proof", "text_world_proof"]

"""The six difficulty scores of MCU Section 3 for any task, atom or molecule, raw or calibrated.

* time_consumption: the mean frames of the successful exemplar trajectories (``trajectories``), else the frames
  of an estimated optimal plan (``proxy:estimated_plan_frames``, an estimate);
* operational_effort: their mean permutation entropy, D = 3 (``trajectories``), else that of the plan's synthetic
  action sequence (``proxy:synthetic_plan_pe``);
* planning_complexity: E + V of the dependency graph given the initialization (``dependency graph``);
* intricacy, creativity, novelty: the mean human rating, 1-5 (``human ratings``), else a named proxy on the same
  scale (``proxy:precision``, ``proxy:solution_space``, ``proxy:playthrough_distance``).

A molecule is scored on its combined graph: the union of its atoms' graphs, each given the molecule's
initialization (naive parts count their whole graph), plus one node per AND / OR / THEN and one edge per part.
Its plan takes AND and THEN parts one after the other and the cheapest OR part; ``when`` constraints add the
expected wait, ``how`` constraints change the tool. Intricacy and novelty of a plan are those of its most
intricate / most novel atom (rated or proxied); creativity adds up the solutions of its parts.

Example:
    >>> from taskverse import load_library
    >>> library = load_library()
    >>> vector = difficulty_vector(library.get("craft iron_sword"), library, calibrated=False)
    >>> int(vector[2])  # E + V: the task, its three needs and three edges
    7

"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from taskverse.algebra.expr import (
    AllOf,
    AnyOf,
    AtLeast,
    AtomRef,
    Avoid,
    Constrained,
    Expr,
    Initialized,
    Repeat,
    Then,
    Within,
    atoms_of,
    content_hash,
    naive,
    ref,
)
from taskverse.algebra.machine import Outcome, starting_outcome
from taskverse.difficulty.entropy import DEFAULT_D
from taskverse.difficulty.plans import Part, PlanGraph, Planner, Provided
from taskverse.difficulty.proxies import Novelty, creativity, creativity_base, intricacy
from taskverse.difficulty.ratings import AggregatedRatings, load_all_ratings
from taskverse.difficulty.timemodel import WAIT_FOR_DAY, WAIT_FOR_NIGHT, WAIT_FOR_WEATHER, ActionModel
from taskverse.difficulty.trajectories import Trajectory, load_trajectories, trajectory_scores
from taskverse.schema import DIFFICULTY_DIMENSIONS, AtomTask, Difficulty, Initialization, Score
from taskverse.world.graph import task_node

SOURCE_PLAN_FRAMES = "proxy:estimated_plan_frames (estimate: optimal plan under the game-facts time model)"
SOURCE_PLAN_PE = "proxy:synthetic_plan_pe (permutation entropy of the estimated plan's synthetic actions)"
SOURCE_GRAPH = "dependency graph (E + V given the initialization)"
PROXY_NAMES = {"intricacy": "proxy:precision", "creativity": "proxy:solution_space",
               "novelty": "proxy:playthrough_distance"}
WAITS = {"night": WAIT_FOR_NIGHT, "day": WAIT_FOR_DAY, "rain": WAIT_FOR_WEATHER, "thunder": 2 * WAIT_FOR_WEATHER}


@dataclass(frozen=True)
class RawScore:
    """One raw score (None when the task cannot be done from its initialization) and where it came from."""

    value: float | None
    source: str


@dataclass
class Occurrence:
    """An atom as it occurs in a task: with the initialization and constraints it is done under."""

    task_id: str
    init: Initialization
    forced: str | None = None
    wait: float = 0.0


class DifficultyContext:
    """Everything scoring needs, built once per library: graphs, planners, ratings, trajectories, proxies."""

    def __init__(self, library: Any, calibration_dir: Any = None, d: int = DEFAULT_D) -> None:
        from taskverse.difficulty.calibration import calibration_dir as default_dir

        self.library = library
        self.d = d
        self.dir = calibration_dir if calibration_dir is not None else default_dir()
        self.graph = PlanGraph(library.world, library.by_id)
        self.actions = ActionModel(library.knowledge, d)
        self._planners: dict[str, Planner] = {}
        self._provided: dict[str, Provided] = {}
        self._ways: dict[str, dict[str, float]] = {}
        self._intricacy: dict[str, float] = {}
        self._novelty: dict[str, float] = {}

    @cached_property
    def ratings(self) -> AggregatedRatings:
        """Every rater's ratings, aggregated (checked against the library's ids)."""
        return load_all_ratings(self.dir / "ratings", self.library.by_id)

    @cached_property
    def trajectories(self) -> dict[str, list[Trajectory]]:
        """Exemplar trajectories by task id."""
        return load_trajectories(self.dir / "trajectories", self.library.by_id)

    @cached_property
    def novelty_proxy(self) -> Novelty:
        """The novelty proxy, with the literature's tasks of this library."""
        library = self.library
        literature = literature_tasks(library)
        if not getattr(library, "digest", ""):
            return Novelty(library.world, library.knowledge, literature)
        from taskverse.library.loader import _cached

        # the key covers every input: the library (its digest) and the literature's phrasings, which the
        # library digest leaves out (atoms/aliases.yaml is not a task file)
        tables = _cached(f"novelty-{library.digest[:32]}-{aliases_digest()[:32]}",
                         lambda: Novelty(library.world, library.knowledge, literature).tables())
        return Novelty(library.world, library.knowledge, literature, precomputed=tables)

    def with_task(self, task: AtomTask) -> DifficultyContext:
        """A context where ``task`` (from a file) replaces or joins the library's atoms; ratings are shared."""
        other = DifficultyContext(self.library, self.dir, self.d)
        other.graph = PlanGraph(self.library.world, self.library.by_id, {task.id: task})
        for name in ("ratings", "trajectories", "novelty_proxy"):
            other.__dict__[name] = getattr(self, name)
        return other

    def _key(self, init: Initialization) -> str:
        return "" if init.is_naive() else init.model_dump_json()

    def provided(self, init: Initialization) -> Provided:
        """What an initialization provides (memoised)."""
        key = self._key(init)
        found = self._provided.get(key)
        if found is None:
            found = self._provided[key] = Provided.of(init)
        return found

    def planner(self, init: Initialization) -> Planner:
        """The planner from one initialization (memoised)."""
        key = self._key(init)
        found = self._planners.get(key)
        if found is None:
            found = self._planners[key] = Planner(self.graph, self.actions, self.provided(init), init.main_hand,
                                                  self.d)
        return found

    def log_ways(self, task_id: str, init: Initialization) -> float:
        """Natural log of the number of solutions of an atom from an initialization."""
        memo = self._ways.setdefault(self._key(init), {})
        return self.graph.log_ways(task_node(task_id), self.provided(init), memo)

    def rated(self, dimension: str, task_id: str) -> tuple[float, int] | None:
        """The mean human rating of a task, with the number of raters."""
        return self.ratings.mean(dimension, task_id)

    def atom_value(self, dimension: str, task_id: str) -> tuple[float, bool]:
        """An atom's own intricacy or novelty: its mean rating if rated, else its proxy; and whether rated."""
        rating = self.rated(dimension, task_id)
        if rating is not None:
            return rating[0], True
        memo = self._intricacy if dimension == "intricacy" else self._novelty
        value = memo.get(task_id)
        if value is None:
            task = self.graph.task(task_id)
            value = intricacy(task, self.library.knowledge) if dimension == "intricacy" else self.novelty_proxy(task)
            memo[task_id] = value
        return value, False


_CONTEXT: list[tuple[Any, DifficultyContext]] = []


def context_for(library: Any) -> DifficultyContext:
    """The scoring context of a library (one kept: the last library asked about)."""
    if _CONTEXT and _CONTEXT[0][0] is library:
        return _CONTEXT[0][1]
    ctx = DifficultyContext(library)
    _CONTEXT[:] = [(library, ctx)]
    return ctx


def aliases_digest() -> str:
    """A hash of ``atoms/aliases.yaml`` (empty when there is none): the novelty proxy reads it."""
    import hashlib

    from taskverse.paths import atoms_dir

    path = atoms_dir() / "aliases.yaml"
    return hashlib.sha256(path.read_bytes() if path.is_file() else b"").hexdigest()


def literature_tasks(library: Any) -> set[str]:
    """The literature's tasks: atoms tagged ``literature`` and the atoms ``atoms/aliases.yaml`` maps phrasings to."""
    from taskverse.paths import atoms_dir
    from taskverse.yamlio import read_yaml

    found = {task_id for task_id, data in library.index.data.items() if "literature" in data.get("tags", ())}
    path = atoms_dir() / "aliases.yaml"
    if path.exists():
        data = read_yaml(path) or {}
        found |= {str(row["task"]) for row in data.get("aliases") or [] if isinstance(row, dict) and "task" in row}
    return found


# -- walking a task ---------------------------------------------------------------------------------------------

@dataclass
class Shape:
    """What scoring needs from a task's expression: its atom occurrences, operators and plan."""

    occurrences: list[Occurrence] = field(default_factory=list)
    operators: int = 0
    operator_edges: int = 0
    how_constrained: bool = False


def _walk(expr: Any, init: Initialization, ctx: DifficultyContext, shape: Shape, forced: str | None = None,
          wait: float = 0.0) -> Iterator[None]:
    """Collect the atom occurrences of an expression (a generator so that deep trees need no recursion limit)."""
    if isinstance(expr, AtomRef):
        shape.occurrences.append(Occurrence(expr.task, init, forced, wait))
        return
    if isinstance(expr, AllOf | AnyOf | Then | AtLeast):
        shape.operators += 1
        shape.operator_edges += len(expr.parts)
        for part in expr.parts:
            yield from _walk(part, init, ctx, shape, forced, wait)
        return
    if isinstance(expr, Avoid):  # nothing to do: an operator to keep in mind, no atoms to plan
        shape.operators += 1
        shape.operator_edges += 1
        return
    if isinstance(expr, Repeat | Within):
        shape.operators += 1
        shape.operator_edges += 1
        yield from _walk(expr.part, init, ctx, shape, forced, wait)
        return
    if isinstance(expr, Constrained):
        c = expr.constraint
        if c.how is not None:
            shape.how_constrained = True
            forced = "bare_hand" if c.how == "bare_hand" else c.how[5:] if c.how.startswith("with:") else forced
        if c.when is not None:
            wait += WAITS.get(c.when.value, 0.0)
        yield from _walk(expr.part, init, ctx, shape, forced, wait)
        return
    if isinstance(expr, Initialized):
        if expr.mode == "naive":
            inner = Initialization()
        else:
            from taskverse.algebra.molecule import MoleculeBuilder

            inner = MoleculeBuilder(ctx.library).initialization(expr)[0]
        yield from _walk(expr.part, inner, ctx, shape, forced, wait)
        return
    raise TypeError(f"not a task expression: {expr!r}")


def _plan(expr: Any, occurrences: Iterator[Occurrence], ctx: DifficultyContext) -> Part:
    """The estimated plan of an expression.

    AND and THEN parts in turn, the cheapest OR part, the cheapest k parts of "at least k", ``N * A`` A's plan N
    times (time scales with N), nothing for a part to avoid, and a time bound its part's plan (the bound does not
    make the work longer).
    """
    if isinstance(expr, AtomRef):
        occ = next(occurrences)
        return ctx.planner(occ.init).plan(occ.task_id, occ.forced, occ.wait)
    if isinstance(expr, AnyOf):
        parts = [_plan(p, occurrences, ctx) for p in expr.parts]
        return min(parts, key=lambda p: p.frames)
    if isinstance(expr, AtLeast):
        cheapest = sorted((_plan(p, occurrences, ctx) for p in expr.parts), key=lambda plan: plan.frames)
        result = ctx.planner(Initialization()).empty
        for chosen in cheapest[:expr.count]:
            result = result.then(chosen)
        return result
    if isinstance(expr, Repeat):
        once = _plan(expr.part, occurrences, ctx)
        result = ctx.planner(Initialization()).empty
        for _ in range(expr.times):
            result = result.then(once)
        return result
    if isinstance(expr, Avoid):
        return ctx.planner(Initialization()).empty
    if isinstance(expr, Within):
        bounded = _plan(expr.part, occurrences, ctx)
        if starting_outcome(expr.part) is Outcome.HOLDING:  # survive the whole bound: it takes the bound
            return Part(float(expr.ticks), ctx.actions.wait_motif(expr.ticks), bounded.tasks, bounded.once)
        return bounded
    if isinstance(expr, AllOf | Then):
        result = ctx.planner(Initialization()).empty
        for p in expr.parts:
            result = result.then(_plan(p, occurrences, ctx))
        return result
    return _plan(expr.part, occurrences, ctx)


def _log_ways(expr: Any, occurrences: Iterator[Occurrence], ctx: DifficultyContext) -> float:
    if isinstance(expr, AtomRef):
        occ = next(occurrences)
        return ctx.log_ways(occ.task_id, occ.init)
    if isinstance(expr, AnyOf):
        values = [_log_ways(p, occurrences, ctx) for p in expr.parts]
        top = max(values)
        return top + math.log(sum(math.exp(v - top) for v in values))
    if isinstance(expr, AllOf | Then):
        return sum(_log_ways(p, occurrences, ctx) for p in expr.parts)
    if isinstance(expr, AtLeast):  # sum over the k-subsets of the product of their ways, in log space
        chosen = [0.0] + [-math.inf] * expr.count
        for v in (_log_ways(p, occurrences, ctx) for p in expr.parts):
            for j in range(expr.count, 0, -1):
                chosen[j] = _log_add(chosen[j], chosen[j - 1] + v)
        return chosen[expr.count]
    if isinstance(expr, Repeat):  # a choice each time
        return expr.times * _log_ways(expr.part, occurrences, ctx)
    if isinstance(expr, Avoid):
        return 0.0
    return _log_ways(expr.part, occurrences, ctx)


def _log_add(a: float, b: float) -> float:
    """log(exp(a) + exp(b)) without overflow."""
    if a == -math.inf:
        return b
    if b == -math.inf:
        return a
    top = max(a, b)
    return top + math.log(math.exp(a - top) + math.exp(b - top))


# -- the six scores ---------------------------------------------------------------------------------------------

def raw_scores(task: Any, library: Any, *, task_id: str | None = None, expression: Expr | None = None,
               initialization: Initialization | None = None) -> dict[str, RawScore]:
    """The six raw scores of an atom or a molecule, each with its source.

    Args:
        task: An ``AtomTask`` or a ``MoleculeTask`` (None when ``expression`` and ``initialization`` are given).
        library: The loaded library.
        task_id: The id ratings and trajectories are looked up under (default: the task's).
        expression: Score this expression instead of the task's (e.g. ``naive(ref(atom))``).
        initialization: The initialization the expression starts from.

    Returns:
        The raw scores by dimension name, in ``DIFFICULTY_DIMENSIONS`` order.

    """
    ctx = context_for(library)
    if expression is None:
        if task.kind == "atom":
            if task.id not in library.by_id or library.by_id[task.id] != task:
                ctx = ctx.with_task(task)  # a task from a file: scored on its own needs
            expression, initialization = ref(task.id), task.initialization
        else:
            expression, initialization = task.expression, task.initialization
    if initialization is None:
        raise TypeError("raw_scores: an expression needs its initialization")
    tid = task_id or (task.id if task is not None else f"mol.{content_hash(expression)}")
    shape = Shape()
    for _ in _walk(expression, initialization, ctx, shape):
        pass
    occ = shape.occurrences
    scores: dict[str, RawScore] = {}

    plan = _plan(expression, iter(occ), ctx)
    recorded = trajectory_scores(ctx.trajectories.get(tid, []), ctx.d)
    if recorded is not None:
        frames, pe, n = recorded
        scores["time_consumption"] = RawScore(frames, f"trajectories ({n} successful)")
        scores["operational_effort"] = RawScore(pe, f"trajectories ({n} successful, D={ctx.d})")
    else:
        feasible = not math.isinf(plan.frames)
        scores["time_consumption"] = RawScore(plan.frames if feasible else None, SOURCE_PLAN_FRAMES)
        scores["operational_effort"] = RawScore(plan.motif.entropy() if feasible else None, SOURCE_PLAN_PE)

    roots = [(task_node(o.task_id), ctx.provided(o.init)) for o in occ]
    vertices, edges = ctx.graph.size(roots)
    scores["planning_complexity"] = RawScore(float(vertices + edges + shape.operators + shape.operator_edges),
                                             SOURCE_GRAPH)

    atoms = plan.tasks if plan.tasks else frozenset(o.task_id for o in occ)
    if not atoms:  # only things to avoid: what is to be avoided says how intricate and novel the task is
        atoms = frozenset(atoms_of(expression))
    for dim in ("intricacy", "creativity", "novelty"):
        rating = ctx.rated(dim, tid)
        if rating is not None:
            scores[dim] = RawScore(rating[0], ctx.ratings.source(dim, rating[1]))
            continue
        if dim == "creativity":
            base = max(creativity_base(ctx.graph.task(a)) for a in ([o.task_id for o in occ] or sorted(atoms)))
            value = creativity(base, _log_ways(expression, iter(occ), ctx))
            scores[dim] = RawScore(value, PROXY_NAMES[dim])
            continue
        values = [ctx.atom_value(dim, a) for a in sorted(atoms)]
        value = max(v for v, _ in values)
        if dim == "intricacy" and shape.how_constrained:
            value = min(5.0, value + 0.5)
        rated = sum(1 for _, r in values if r)
        source = PROXY_NAMES[dim]
        if len(values) > 1:
            source += f" (the plan's most {'intricate' if dim == 'intricacy' else 'novel'} of {len(values)} atoms"
            source += f"; {rated} rated by humans)" if rated else ")"
        scores[dim] = RawScore(value, source)
    return {dim: scores[dim] for dim in DIFFICULTY_DIMENSIONS}


def naive_raw_scores(atom_id: str, library: Any) -> dict[str, RawScore]:
    """The raw scores of an atom's naive-initialized version ``naive(atom)`` (as ``taskverse compose`` builds it)."""
    expression = naive(ref(atom_id))
    return raw_scores(None, library, task_id=f"mol.{content_hash(expression)}", expression=expression,
                      initialization=Initialization())


def scores(task: Any, library: Any, calibrated: bool = True) -> Difficulty:
    """The six scores of a task: raw, calibrated to [0, 5] (when a calibration table exists) and their sources.

    Args:
        task: An ``AtomTask`` or a ``MoleculeTask``.
        library: The loaded library.
        calibrated: Whether to fill in the calibrated values from ``calibration/quantiles.json``.

    """
    from taskverse.difficulty.calibration import load_table

    raw = raw_scores(task, library)
    table = load_table() if calibrated else None
    fields: dict[str, Score] = {}
    for dim, score in raw.items():
        value = None
        if table is not None and score.value is not None:
            value = table.calibrate(dim, score.value)
        fields[dim] = Score(raw=score.value, calibrated=value, source=score.source)
    return Difficulty(**fields)


def difficulty_vector(task: Any, library: Any, calibrated: bool = True) -> np.ndarray:
    """The 6-vector of a task in ``DIFFICULTY_DIMENSIONS`` order (NaN where a score is undefined).

    Raises:
        TaskverseError: ``calibrated`` is asked for and there is no calibration table.

    """
    from taskverse.difficulty.calibration import require_table

    raw = raw_scores(task, library)
    table = require_table() if calibrated else None
    values = []
    for dim in DIFFICULTY_DIMENSIONS:
        value = raw[dim].value
        if value is None:
            values.append(math.nan)
        else:
            values.append(table.calibrate(dim, value) if table is not None else value)
    return np.array(values, dtype=float)


def atom_and_naive_scores(library: Any) -> Iterator[tuple[str, AtomTask, dict[str, RawScore]]]:
    """Raw scores of every atom (``"atom"``) and of its naive-initialized version (``"naive"``)."""
    for task in library.tasks:
        yield "atom", task, raw_scores(task, library)
        yield "naive", task, naive_raw_scores(task.id, library)

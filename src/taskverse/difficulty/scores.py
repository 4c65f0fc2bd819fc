"""The six difficulty scores of MCU Section 3 for any task, atom or molecule, raw or calibrated.

* time_consumption: the mean frames of the successful exemplar trajectories (``trajectories``), else the frames
  of an estimated optimal plan read off the one world model (``proxy:estimated_plan_frames``; ``estimate``);
* operational_effort: their mean permutation entropy, D = 3 (``trajectories``), else that of the plan's synthetic
  action sequence (``proxy:synthetic_plan_pe``);
* planning_complexity: E + V of the dependency graph given the initialization (``dependency graph``);
* intricacy, creativity, novelty: the mean human rating, 1-5 (``human ratings``), else a named proxy on the same
  scale (``proxy:precision``, ``proxy:solution_space``, ``proxy:playthrough_distance``).

A molecule is scored on its combined graph: the union of its atoms' graphs, each given the molecule's
initialization (naive parts count their whole graph), plus one node per AND / OR / THEN and one edge per part.
Its plan takes AND and THEN parts one after the other and the cheapest OR part; ``when`` constraints add the
expected wait, ``how`` constraints change the tool (obtained first if not held). The rated dimensions' proxies
(``proxies``) count over the plan's atoms: intricacy adds up their precision demands, creativity their free
choices and the solutions of the parts, novelty takes the most novel atom (rated atoms count with their rating).

Example:
    >>> from taskverse import load_library
    >>> library = load_library()
    >>> vector = difficulty_vector(library.get("craft iron_sword"), library, calibrated=False)
    >>> int(vector[2])  # E + V: the task, its three needs and three edges
    7

"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

import numpy as np

from taskverse.algebra.expr import (
    AllOf,
    Amount,
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
from taskverse.difficulty.estimate import Part, PlanModel
from taskverse.difficulty.proxies import (
    HALF_BITS,
    ActionFacts,
    Playthrough,
    action_facts,
    creativity_bits,
    intricacy_bits,
    novelty_bits,
    tie_break,
    to_bits,
    to_rating,
)
from taskverse.difficulty.ratings import AggregatedRatings, load_all_ratings
from taskverse.difficulty.timemodel import WAIT_FOR_DAY, WAIT_FOR_NIGHT, WAIT_FOR_WEATHER
from taskverse.difficulty.trajectories import Trajectory, load_trajectories, trajectory_scores
from taskverse.memo import DiskMemo, code_digest, files_digest
from taskverse.schema import DIFFICULTY_DIMENSIONS, AtomTask, Difficulty, Initialization, Score
from taskverse.world.graph import task_node
from taskverse.world.rules import consumers_of
from taskverse.world.taskgraph import Provided, TaskGraph

SOURCE_PLAN_FRAMES = ("proxy:estimated_plan_frames (estimate: the world model's cheapest plan, timed by the "
                      "game-facts time model)")
SOURCE_PLAN_PE = "proxy:synthetic_plan_pe (permutation entropy of the estimated plan's synthetic actions)"
SOURCE_GRAPH = "dependency graph (E + V given the initialization)"
PROXY_NAMES = {"intricacy": "proxy:precision", "creativity": "proxy:solution_space",
               "novelty": "proxy:playthrough_distance"}
FRAMES_PER_MINUTE = 1200
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
    amount: int = 1
    """How many runs of its action the task asks for in total (``amount(N, A)``)."""


class DifficultyContext:
    """Everything scoring needs, built once per library: graphs, plans, ratings, trajectories, proxies."""

    def __init__(self, library: Any, calibration_dir: Any = None, d: int = DEFAULT_D) -> None:
        from taskverse.difficulty.calibration import calibration_dir as default_dir

        self.library = library
        self.d = d
        self.dir = calibration_dir if calibration_dir is not None else default_dir()
        self.graph = TaskGraph(library.world, library.by_id)
        self.plans = PlanModel(library, d)
        self._provided: dict[str, Provided] = {}
        self._ways: dict[str, dict[str, float]] = {}
        self._facts: dict[str, ActionFacts] = {}
        self._naive: dict[str, Part] = {}
        self._atom_bits: dict[tuple[str, str], tuple[float, bool]] = {}
        self._secondary: dict[tuple[str, tuple[str, ...]], float] = {}

    @cached_property
    def memo(self) -> DiskMemo:
        """The raw scores remembered on disk for this context (see ``save_scores``).

        Keyed by the library, the code, and the other inputs of scoring in this context's calibration folder
        (the ratings, the trajectories) and the literature's phrasings: a change to any of them scores afresh.
        """
        from taskverse.paths import atoms_dir, project_root

        inputs = [*sorted((self.dir / "ratings").glob("**/*")), *sorted((self.dir / "trajectories").glob("**/*")),
                  atoms_dir() / "aliases.yaml"]
        digest = getattr(self.library, "digest", "")[:16]
        return DiskMemo("scores", f"{digest}-{code_digest()}-{files_digest(inputs, project_root())}")

    @cached_property
    def ratings(self) -> AggregatedRatings:
        """Every rater's ratings, aggregated (checked against the library's ids)."""
        return load_all_ratings(self.dir / "ratings", self.library.by_id)

    @cached_property
    def trajectories(self) -> dict[str, list[Trajectory]]:
        """Exemplar trajectories by task id."""
        return load_trajectories(self.dir / "trajectories", self.library.by_id)

    @cached_property
    def playthrough(self) -> Playthrough:
        """The common play-through: the literature's tasks of this library and their dependency graphs."""
        return Playthrough(self.library.world, literature_tasks(self.library))

    @cached_property
    def _needed(self) -> Callable[[str, str], bool]:
        rules = self.plans.rules
        consumers = consumers_of(rules)
        index = rules.index

        def needed(kind: str, name: str) -> bool:
            r = index.get((kind, name))
            return r is not None and bool(consumers[r])

        return needed

    @cached_property
    def _places(self) -> dict[str, str]:
        """The atoms that take the agent to another dimension, by atom id."""
        rules = self.plans.rules
        places: dict[str, str] = {}
        for dimension in ("nether", "end"):  # end last: a plan through both counts as the end's
            r = rules.index.get(("dimension", dimension))
            for a in rules.producers[r] if r is not None else ():
                places[rules.actions[a]] = dimension
        return places

    def with_task(self, task: AtomTask) -> DifficultyContext:
        """A context where ``task`` (from a file) replaces or joins the library's atoms; ratings are shared."""
        other = DifficultyContext(self.library, self.dir, self.d)
        other.graph = TaskGraph(self.library.world, self.library.by_id, {task.id: task})
        other.plans = self.plans
        for name in ("ratings", "trajectories", "playthrough"):
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

    def plan(self, occurrence: Occurrence) -> Part:
        """The estimated optimal plan of one atom occurrence (``estimate.PlanModel``)."""
        task = self.graph.task(occurrence.task_id)
        own = occurrence.task_id not in self.graph.extra
        if own and occurrence.init.is_naive() and occurrence.forced is None and not occurrence.wait \
                and occurrence.amount == 1:
            return self.naive_plan(occurrence.task_id)
        return self.plans.plan(task, occurrence.init, occurrence.forced, occurrence.wait, own_rules=own,
                               runs=occurrence.amount)

    def naive_plan(self, task_id: str) -> Part:
        """An atom's plan from scratch (memoised)."""
        found = self._naive.get(task_id)
        if found is None:
            task = self.graph.task(task_id)
            found = self.plans.plan(task, Initialization(), own_rules=task_id not in self.graph.extra)
            if task_id not in self.graph.extra:
                self._naive[task_id] = found
        return found

    def log_ways(self, task_id: str, init: Initialization) -> float:
        """Natural log of the number of solutions of an atom from an initialization."""
        memo = self._ways.setdefault(self._key(init), {})
        return self.graph.log_ways(task_node(task_id), self.provided(init), memo)

    def rated(self, dimension: str, task_id: str) -> tuple[float, int] | None:
        """The mean human rating of a task, with the number of raters."""
        return self.ratings.mean(dimension, task_id)

    def facts(self, task_id: str) -> ActionFacts:
        """What the proxies read off an atom's own action (memoised)."""
        found = self._facts.get(task_id)
        if found is None:
            found = action_facts(self.graph.task(task_id), self.plans.actions, self._needed)
            self._facts[task_id] = found
        return found

    def atom_bits(self, dimension: str, task_id: str) -> tuple[float, bool]:
        """An atom's own intricacy demand or novelty bits: from its mean rating if rated, else its proxy.

        Intricacy is returned as a precision demand (``2^bits``), so a plan's demands add up.
        """
        key = (dimension, task_id)
        found = self._atom_bits.get(key)
        if found is not None:
            return found
        rating = self.rated(dimension, task_id)
        if rating is not None:
            bits = to_bits(rating[0], HALF_BITS[dimension])
            found = (2.0 ** bits if dimension == "intricacy" else bits, True)
        elif dimension == "intricacy":
            found = (self.facts(task_id).demand, False)
        else:
            found = (self._novelty_bits(task_id), False)
        self._atom_bits[key] = found
        return found

    def _novelty_bits(self, task_id: str) -> float:
        plan = self.naive_plan(task_id)
        atoms = plan.tasks | {task_id}
        off = sum(1 for a in atoms if a not in self.playthrough)
        dimension = self.graph.task(task_id).initialization.dimension.value
        places = {self._places.get(a) for a in atoms}
        place = "end" if "end" in places or dimension == "end" else \
            "nether" if "nether" in places or dimension == "nether" else "overworld"
        return novelty_bits(off, len(atoms), place, self.facts(task_id).aimless)

    def secondary(self, dimension: str, atoms: tuple[str, ...]) -> float:
        """The tie-breaking signal of a task's atoms, in bits: the dimension's count on their plans from scratch.

        Intricacy: the precision bits of those plans; creativity: their solution-space bits; novelty: how deep
        in the game they lie, ``log2(1 + minutes of game time from scratch)``.
        """
        key = (dimension, atoms)
        found = self._secondary.get(key)
        if found is not None:
            return found
        plans = [self.naive_plan(a) for a in atoms]
        union = frozenset(atoms).union(*(p.tasks for p in plans))
        if dimension == "intricacy":
            found = intricacy_bits(self.atom_bits("intricacy", a)[0] for a in sorted(union))
        elif dimension == "creativity":
            found = creativity_bits((self.facts(a).free_bits for a in sorted(union)),
                                    sum(self.log_ways(a, Initialization()) for a in atoms))
        else:  # an atom the world cannot do from scratch: its own action's time
            frames = sum(p.frames if p.feasible else self.plans.actions.action(self.graph.task(a)).frames
                         for a, p in zip(atoms, plans, strict=True))
            found = math.log2(1.0 + frames / FRAMES_PER_MINUTE) if math.isfinite(frames) else 0.0
        self._secondary[key] = found
        return found


_CONTEXT: list[tuple[Any, DifficultyContext]] = []


def score_memo(library: Any) -> DiskMemo:
    """The raw scores remembered for a library's scoring context (``DifficultyContext.memo``)."""
    return context_for(library).memo


def save_scores(library: Any) -> None:
    """Write the raw scores computed for a library to the cache, for the next command to reuse."""
    score_memo(library).save()


def context_for(library: Any) -> DifficultyContext:
    """The scoring context of a library (one kept: the last library asked about)."""
    if _CONTEXT and _CONTEXT[0][0] is library:
        return _CONTEXT[0][1]
    ctx = DifficultyContext(library)
    _CONTEXT[:] = [(library, ctx)]
    return ctx


def literature_tasks(library: Any) -> set[str]:
    """The literature's tasks: atoms tagged ``literature`` and those the papers' phrasings map to.

    The phrasings are ``atoms/aliases.yaml``'s rows; rows citing only MCU's own figures and sections are MCU's
    showcase of its library, not the literature's play-through.
    """
    from taskverse.paths import atoms_dir
    from taskverse.yamlio import read_yaml

    found = {task_id for task_id, data in library.index.data.items() if "literature" in data.get("tags", ())}
    path = atoms_dir() / "aliases.yaml"
    if path.exists():
        data = read_yaml(path) or {}
        found |= {str(row["task"]) for row in data.get("aliases") or []
                  if isinstance(row, dict) and "task" in row and cites_the_literature(str(row.get("paper", "")))}
    return found


def cites_the_literature(paper: str) -> bool:
    """Whether an alias row's ``paper`` field cites a paper by author and year, ``Cai et al. (2023)``.

    MCU's own figures and sections and notes ("none: a plain phrasing") are not the literature.
    """
    return re.search(r"\(\d{4}[a-z]?\)", paper) is not None


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
    if isinstance(expr, Amount):  # its atom planned for the whole amount: runs of its action, needs for them all
        shape.operators += 1
        shape.operator_edges += 1
        first = len(shape.occurrences)
        yield from _walk(expr.part, init, ctx, shape, forced, wait)
        for i in range(first, len(shape.occurrences)):
            occ = shape.occurrences[i]
            shape.occurrences[i] = replace(occ, amount=occ.amount * expr.count)
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
        return ctx.plan(next(occurrences))
    if isinstance(expr, AnyOf):
        parts = [_plan(p, occurrences, ctx) for p in expr.parts]
        return min(parts, key=lambda p: p.frames)
    if isinstance(expr, AtLeast):
        cheapest = sorted((_plan(p, occurrences, ctx) for p in expr.parts), key=lambda plan: plan.frames)
        result = ctx.plans.empty
        for chosen in cheapest[:expr.count]:
            result = result.then(chosen)
        return result
    if isinstance(expr, Repeat):
        once = _plan(expr.part, occurrences, ctx)
        result = ctx.plans.empty
        for _ in range(expr.times):
            result = result.then(once)
        return result
    if isinstance(expr, Avoid):
        return ctx.plans.empty
    if isinstance(expr, Within):
        bounded = _plan(expr.part, occurrences, ctx)
        if starting_outcome(expr.part) is Outcome.HOLDING:  # survive the whole bound: it takes the bound
            return Part(float(expr.ticks), ctx.plans.actions.wait_motif(expr.ticks), bounded.tasks)
        return bounded
    if isinstance(expr, AllOf | Then):
        result = ctx.plans.empty
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
    # a file's own atom, or a library without a digest to key it by: never remembered
    keyed = bool(getattr(library, "digest", ""))
    memo = ctx.memo if keyed and ctx is context_for(library) else None
    key = (tid, expression.model_dump_json(), initialization.model_dump_json()) if memo is not None else None
    if memo is not None and (known := memo.get(key)) is not None:
        return dict(known)
    scores = _raw_scores(expression, initialization, tid, ctx)
    if memo is not None:
        memo.put(key, scores)
    return scores


def _raw_scores(expression: Expr, initialization: Initialization, tid: str,
                ctx: DifficultyContext) -> dict[str, RawScore]:
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
    ordered = sorted(atoms)
    parts = tuple(sorted({o.task_id for o in occ})) or tuple(ordered)
    for dim in ("intricacy", "creativity", "novelty"):
        rating = ctx.rated(dim, tid)
        if rating is not None:
            scores[dim] = RawScore(rating[0], ctx.ratings.source(dim, rating[1]))
            continue
        source = PROXY_NAMES[dim]
        if dim == "creativity":
            bits = creativity_bits((ctx.facts(a).free_bits for a in ordered), _log_ways(expression, iter(occ), ctx))
        else:
            values = [ctx.atom_bits(dim, a) for a in ordered]
            if dim == "intricacy":
                bits = intricacy_bits(v for v, _ in values) + (1.0 if shape.how_constrained else 0.0)
            else:
                bits = max(v for v, _ in values)
            rated = sum(1 for _, r in values if r)
            if len(values) > 1:
                source += (f" (summed over the plan's {len(values)} atoms" if dim == "intricacy" else
                           f" (the plan's most novel of {len(values)} atoms")
                source += f"; {rated} rated by humans)" if rated else ")"
        value = to_rating(bits + tie_break(ctx.secondary(dim, parts)), HALF_BITS[dim])
        scores[dim] = RawScore(value, source)
    return {dim: scores[dim] for dim in DIFFICULTY_DIMENSIONS}


def naive_raw_scores(atom_id: str, library: Any) -> dict[str, RawScore]:
    """The raw scores of an atom's naive-initialized version ``naive(atom)`` (as ``taskverse compose`` builds it)."""
    expression = naive(ref(atom_id))
    return raw_scores(None, library, task_id=f"mol.{content_hash(expression)}", expression=expression,
                      initialization=Initialization())


def scores(task: Any, library: Any, calibrated: bool = True, table: Any = None) -> Difficulty:
    """The six scores of a task: raw, calibrated to [0, 5] (when a calibration table exists) and their sources.

    Args:
        task: An ``AtomTask`` or a ``MoleculeTask``.
        library: The loaded library.
        calibrated: Whether to fill in the calibrated values from ``calibration/quantiles.json``.
        table: The calibration table to use, read once by a caller scoring many tasks (else read here).

    """
    from taskverse.difficulty.calibration import load_table

    raw = raw_scores(task, library)
    if not calibrated:
        table = None
    elif table is None:
        table = load_table()
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

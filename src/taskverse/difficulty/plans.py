"""A task's dependency graph given its initialization, and the estimated optimal plan through it.

The world graph (``taskverse.world.graph``) says how every resource can be obtained. Given what an initialization
provides, this module answers three questions about a task:

* its dependency graph *given the initialization* (what the agent must still obtain): the world graph below the
  task, cut at every need the initialization already provides (that node stays, as a leaf) and, for a task one of
  whose ways is already provided, keeping only such ways (``PlanGraph.size``);
* the number of distinct solutions through the OR branches of that graph (``PlanGraph.log_ways``);
* an estimated optimal plan: for every need the cheapest way to obtain the count needed, with chance drops costing
  1/p tries, tools and places (kept needs, blocks, mobs, biomes, structures, dimensions) obtained once per atom
  and consumables scaled by count (``Planner``). Its frames and synthetic action sequence are the time and
  operational-effort estimates.

Presence decides what the graph prunes (the initialization holds any of a need); the planner also counts: an
initialization with 2 of 3 iron ingots leaves one to obtain.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from taskverse.difficulty.entropy import DEFAULT_D, PatternSummary
from taskverse.difficulty.timemodel import ActionModel
from taskverse.schema import AtomTask, Initialization, Need, ResourceKind
from taskverse.world.graph import World, needs_from_initialization, task_node, ways_of

Edge = tuple[str, dict[str, Any]]
INF = math.inf


def need_node(need: Need) -> str:
    """The graph node of a need: the resource itself, or an ``any:`` group of its members."""
    if len(need.any_of) == 1:
        return f"{need.kind.value}:{need.any_of[0]}"
    return f"any:{need.kind.value}:" + "|".join(sorted(need.any_of))


def group_members(node: str) -> list[str]:
    """The member nodes of an ``any:KIND:a|b`` group node."""
    _, kind, names = node.split(":", 2)
    return [f"{kind}:{name}" for name in names.split("|")]


@dataclass(frozen=True)
class Provided:
    """What an initialization provides, as counts by graph node (``item:stick``, ``entity:cow``...)."""

    counts: dict[str, int]

    @classmethod
    def of(cls, init: Initialization) -> Provided:
        """The nodes an initialization provides; the needs it implies are exactly these."""
        counts: dict[str, int] = {}
        for need in needs_from_initialization(init):
            node = need_node(need)
            counts[node] = counts.get(node, 0) + need.count
        if init.dimension.value == "overworld":
            counts["dimension:overworld"] = 1
        return cls(counts)

    def amount(self, node: str) -> int:
        """How much of a node (summed over a group's members) the initialization holds."""
        if node.startswith("any:"):
            return sum(self.counts.get(m, 0) for m in group_members(node))
        return self.counts.get(node, 0)

    def has(self, node: str) -> bool:
        """Whether the initialization holds any of a node."""
        return self.amount(node) > 0


NAIVE = Provided.of(Initialization())
"""What the naive initialization provides: only the overworld to stand in."""


class PlanGraph:
    """The world graph, with tasks the world cannot ground (or that come from a file) read off their own needs."""

    def __init__(self, world: World, tasks: Any, extra: dict[str, AtomTask] | None = None) -> None:
        self.world = world
        self.tasks = tasks
        self.extra = dict(extra or {})
        self._declared: dict[str, list[Edge]] = {}
        self._kept: dict[str, frozenset[str]] = {}
        self._index: dict[str, int] = {}
        self._indegree: list[int] = []
        self._ancestors: dict[str, int] = {}
        self._indegree_array: np.ndarray = np.zeros(0, dtype=np.int64)

    def task(self, task_id: str) -> AtomTask:
        """An atom by id (a task from a file wins over the library's)."""
        return self.extra[task_id] if task_id in self.extra else self.tasks[task_id]

    def kind(self, node: str) -> str:
        """``task``, ``way``, ``group`` or ``resource``."""
        prefix = node.split(":", 1)[0]
        return {"task": "task", "way": "way", "any": "group"}.get(prefix, "resource")

    def preds(self, node: str) -> list[Edge]:
        """The nodes ``node`` depends on, with the edge attributes (``dep``, ``count``)."""
        if node in self._declared:
            return self._declared[node]
        if node.startswith("task:"):
            task_id = node[5:]
            if task_id in self.extra or (task_id in self.tasks and not self.world.preds.get(node)
                                         and self.world.rank.get(node, INF) == INF):
                self._declare(self.task(task_id))
                return self._declared[node]
        if node.startswith("any:") and node not in self.world.nodes:
            return [(m, {"dep": "or"}) for m in group_members(node)]
        return self.world.preds.get(node, [])

    def _declare(self, task: AtomTask) -> None:
        node = task_node(task.id)
        ways = ways_of(task)
        if len(ways) == 1:
            self._declared[node] = _needs_edges(ways[0])
            return
        self._declared[node] = [(f"way:{task.id}:{w}", {"dep": "or"}) for w in range(len(ways))]
        for w, way in enumerate(ways):
            self._declared[f"way:{task.id}:{w}"] = _needs_edges(way)

    def once(self, task_id: str, node: str) -> bool:
        """Whether a need is obtained once per atom rather than per run: a kept tool or a place, mob or world."""
        if not (node.startswith("item:") or node.startswith("any:item:")):
            return node.startswith(("block:", "entity:", "biome:", "structure:", "dimension:", "any:"))
        kept = self._kept.get(task_id)
        if kept is None:
            kept = self._kept[task_id] = frozenset(
                f"item:{name}" for way in ways_of(self.task(task_id)) for need in way if need.kept
                and need.kind == ResourceKind.ITEM for name in need.any_of)
        members = group_members(node) if node.startswith("any:") else [node]
        return any(m in kept for m in members)

    def _ready_ways(self, edges: list[Edge], provided: Provided) -> list[Edge]:
        ways = [e for e in edges if e[0].startswith("way:")]
        ready = [e for e in ways if all(provided.has(u) for u, _ in self.preds(e[0]))]
        if not ready:
            return edges
        return [e for e in edges if not e[0].startswith("way:")] + ready

    def naive_size(self, root: str) -> tuple[int, int]:
        """Vertices and edges of a node's whole dependency graph (from a naive initialization), fast.

        Ancestor sets are memoised as bit sets (Python ints), so the graphs of all atoms cost one pass.
        """
        naive = NAIVE
        stack = [root]
        while stack:  # post-order: a node's ancestors once all its parents' are known
            node = stack[-1]
            if node in self._ancestors:
                stack.pop()
                continue
            parents = self._naive_parents(node, naive)
            todo = [p for p in parents if p not in self._ancestors]
            if todo:
                stack.extend(todo)
                continue
            stack.pop()
            bits = 0
            for parent in parents:
                bits |= self._ancestors[parent] | (1 << self._bit(parent))
            self._ancestors[node] = bits
            self._bit(node)
        members = self._ancestors[root] | (1 << self._bit(root))
        size = len(self._indegree)
        if len(self._indegree_array) < size:  # grown by doubling; later entries are written by _bit
            self._indegree_array = np.zeros(max(2 * size, 1024), dtype=np.int64)
            self._indegree_array[:size] = self._indegree
        mask = np.unpackbits(np.frombuffer(members.to_bytes((size + 7) // 8, "little"), dtype=np.uint8),
                             bitorder="little")[:size]
        return int(mask.sum()), int(mask @ self._indegree_array[:size])

    def _naive_parents(self, node: str, naive: Provided) -> list[str]:
        if not node.startswith("task:") and naive.has(node):
            return []
        preds = self.preds(node)
        if node.startswith("task:"):
            preds = self._ready_ways(preds, naive)
        return [p for p, _ in preds]

    def _bit(self, node: str) -> int:
        index = self._index.get(node)
        if index is None:
            index = self._index[node] = len(self._indegree)
            self._indegree.append(len(self._naive_parents(node, NAIVE)))
            if index < len(self._indegree_array):
                self._indegree_array[index] = self._indegree[index]
        return index

    def size(self, roots: Iterable[tuple[str, Provided]]) -> tuple[int, int]:
        """Vertices and edges of the union of the roots' dependency graphs, each given its provisions."""
        roots = list(roots)
        if len(roots) == 1 and roots[0][1] == NAIVE:
            return self.naive_size(roots[0][0])
        nodes: set[str] = set()
        edge_set: set[tuple[str, str]] = set()
        edge_count = 0
        for root, provided in roots:
            stack = [root]
            nodes.add(root)
            expanded: set[str] = set()
            while stack:
                node = stack.pop()
                if node in expanded:
                    continue
                if node != root and not node.startswith("task:") and provided.has(node):
                    continue  # provided: a leaf
                expanded.add(node)
                preds = self.preds(node)
                if node.startswith("task:"):
                    preds = self._ready_ways(preds, provided)
                if len(roots) == 1:
                    edge_count += len(preds)  # each node is expanded once and its parents are distinct
                else:
                    edge_set.update((parent, node) for parent, _ in preds)
                for parent, _ in preds:
                    nodes.add(parent)
                    if parent not in expanded:
                        stack.append(parent)
        return len(nodes), edge_count + len(edge_set)

    def log_ways(self, root: str, provided: Provided, memo: dict[str, float]) -> float:
        """Natural log of the number of distinct solutions through the OR branches below ``root``."""
        found = memo.get(root)
        if found is not None:
            return found
        kind = self.kind(root)
        if kind != "task" and provided.has(root):
            memo[root] = 0.0
            return 0.0
        preds = self.preds(root)
        if kind == "task":
            preds = self._ready_ways(preds, provided)
            ways = [self.log_ways(u, provided, memo) for u, _ in preds if u.startswith("way:")]
            value = sum(self.log_ways(u, provided, memo) for u, _ in preds if not u.startswith("way:"))
            value += _logsumexp(ways) if ways else 0.0
        elif kind == "way":
            value = sum(self.log_ways(u, provided, memo) for u, _ in preds)
        else:
            value = _logsumexp([self.log_ways(u, provided, memo) for u, _ in preds]) if preds else 0.0
        memo[root] = value
        return value


def _needs_edges(way: list[Need]) -> list[Edge]:
    """The AND edges of a way's needs (a node named twice is one edge with the counts added)."""
    counts: dict[str, int] = {}
    for need in way:
        node = need_node(need)
        counts[node] = counts.get(node, 0) + need.count
    return [(node, {"dep": "and", "count": n}) for node, n in counts.items()]


def _logsumexp(values: list[float]) -> float:
    top = max(values)
    return top + math.log(sum(math.exp(v - top) for v in values))


@dataclass(frozen=True)
class Part:
    """A piece of a plan: its frames, synthetic actions, the atoms it uses and needs still to obtain once."""

    frames: float
    motif: PatternSummary
    tasks: frozenset[str] = frozenset()
    once: frozenset[str] = frozenset()

    def then(self, other: Part) -> Part:
        """Both pieces: first this one, then ``other``."""
        return Part(self.frames + other.frames, self.motif + other.motif, self.tasks | other.tasks,
                    self.once | other.once)


class Planner:
    """Estimated optimal plans from one initialization (memoised; one planner per initialization)."""

    def __init__(self, graph: PlanGraph, actions: ActionModel, provided: Provided, held: str | None = None,
                 d: int = DEFAULT_D) -> None:
        self.graph = graph
        self.actions = actions
        self.provided = provided
        self.held = held
        self.empty = Part(0.0, PatternSummary.empty(d))
        self.infeasible = Part(INF, PatternSummary.empty(d))
        self._obtain: dict[tuple[str, int], Part] = {}
        self._standalone: dict[str, float] = {}

    def plan(self, task_id: str, forced: str | None = None, wait: float = 0.0) -> Part:
        """One run of ``task_id`` from this initialization, everything it needs included (``once`` resolved).

        Args:
            task_id: The atom.
            forced: ``bare_hand`` or an item the atom's own action must be done with (a ``how`` constraint).
            wait: Frames spent waiting before the action (a ``when`` constraint).

        """
        part = self._run(task_id, 1, forced, wait)
        if math.isinf(part.frames):
            return part
        closure = self.resolve(part.once)
        return Part(closure.frames + part.frames, closure.motif + part.motif, closure.tasks | part.tasks)

    def resolve(self, once: Iterable[str]) -> Part:
        """Obtain each of ``once`` (and what they need once in turn) a single time, prerequisites first."""
        done: set[str] = set()
        result = self.empty

        def visit(node: str) -> None:
            nonlocal result
            if node in done:
                return
            done.add(node)
            part = self.obtain(node, 1)
            for inner in sorted(part.once):
                visit(inner)
            result = result.then(Part(part.frames, part.motif, part.tasks))

        for node in sorted(once):
            visit(node)
        return result

    def _standalone_cost(self, node: str) -> float:
        found = self._standalone.get(node)
        if found is None:
            self._standalone[node] = INF  # guards against a cycle while computing
            found = self._standalone[node] = self.resolve([node]).frames
        return found

    def _score(self, part: Part) -> float:
        return part.frames + sum(self._standalone_cost(n) for n in part.once)

    def obtain(self, node: str, count: int) -> Part:
        """The cheapest way to get ``count`` of a node (once-needs left in ``once``)."""
        have = self.provided.amount(node)
        if have >= count or (have and not node.startswith(("item:", "any:item:"))):
            return self.empty
        count -= have
        key = (node, count)
        found = self._obtain.get(key)
        if found is not None:
            return found
        self._obtain[key] = self.infeasible  # a cycle in a hand-written graph can never be cheapest
        options: list[Part] = []
        for parent, _ in self.graph.preds(node):
            if parent.startswith("task:"):
                runs = self._runs(parent[5:], node, count)
                if runs:
                    options.append(self._run(parent[5:], runs))
            else:  # a member of a group
                options.append(self.obtain(parent, count))
        best = min(options, key=self._score, default=self.infeasible)
        self._obtain[key] = best
        return best

    def _runs(self, task_id: str, node: str, count: int) -> int:
        kind, _, name = node.partition(":")
        for y in self.graph.task(task_id).yields:
            if y.kind.value == kind and y.name == name:
                return max(1, math.ceil(count / y.expected))
        return 0

    def _run(self, task_id: str, runs: int, forced: str | None = None, wait: float = 0.0) -> Part:
        task = self.graph.task(task_id)
        action = self.actions.action(task, self.held, forced)
        if math.isinf(action.frames):
            return self.infeasible
        own = Part(runs * action.frames + wait, self.actions.wait_motif(wait) + action.motif.repeat(runs),
                   frozenset({task_id}))
        preds = self.graph.preds(task_node(task_id))
        ways = [u for u, _ in preds if u.startswith("way:")]
        fixed = [(u, d) for u, d in preds if not u.startswith("way:")]
        before = self._needs(task_id, fixed, runs)
        if ways:
            before = before.then(min((self._needs(task_id, self.graph.preds(w), runs) for w in ways),
                                     key=self._score))
        return before.then(own)

    def _needs(self, task_id: str, edges: list[Edge], runs: int) -> Part:
        result = self.empty
        once: set[str] = set()
        for parent, data in edges:
            if parent.startswith("task:"):  # an explicit pre-task
                result = result.then(self._run(parent[5:], 1))
            elif self.graph.once(task_id, parent):
                if not self.provided.has(parent):
                    once.add(parent)
            else:
                result = result.then(self.obtain(parent, int(data.get("count", 1)) * runs))
        return Part(result.frames, result.motif, result.tasks, result.once | once)

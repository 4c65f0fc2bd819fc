"""A task's dependency graph given its initialization (MCU Section 2.1: the pre-tasks still to do).

The world graph (``taskverse.world.graph``) says how every resource can be obtained. Given what an initialization
provides, this module answers two questions about a task:

* its dependency graph *given the initialization* (what the agent must still obtain): the world graph below the
  task, cut at every need the initialization already provides (that node stays, as a leaf) and, for a task one of
  whose ways is already provided, keeping only such ways (``TaskGraph.size``, the planning complexity E + V);
* the number of distinct solutions through the OR branches of that graph (``TaskGraph.log_ways``).

Presence decides what the graph prunes: the initialization holds any of a need.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from taskverse.schema import AtomTask, Initialization, Need
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


class TaskGraph:
    """The world graph, with tasks the world cannot ground (or that come from a file) read off their own needs."""

    def __init__(self, world: World, tasks: Any, extra: dict[str, AtomTask] | None = None) -> None:
        self.world = world
        self.tasks = tasks
        self.extra = dict(extra or {})
        self._declared: dict[str, list[Edge]] = {}
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

"""The cost fixpoint (``CostModel._settle``) compiled: the same loop over flat arrays, run by numba.

``CostModel`` prices every resource and way by lowering prices until nothing changes. On the library's rules that
is tens of thousands of way prices, and every plan from a start that holds something lowers them again
(``CostModel.lowered``, which runs this loop): up to seconds a plan in Python when the start holds a table or
tools. Here the rules are flattened once (CSR style, as ``textenv.kernel.Tables`` flattens them for stepping) and
the loop runs compiled. It does exactly what the Python loop does (rounds: price every action of the round, then
offer the new prices), with the same floating-point operations, so both give the same prices to the last bit (a
test compares them on the library's rules); without numba (an optional extra, ``world.jit``) the Python loop runs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from taskverse.world.jit import njit as _njit

AMOUNTS = np.array([1.0, 3.0, 9.0, 27.0, 81.0])
"""The amounts a front keeps its best prices for (``rules._AMOUNTS``)."""


@dataclass(frozen=True)
class SettleTables:
    """What the fixpoint reads of ``Rules``, flat (``x_start[i]:x_start[i + 1]`` are entry ``i``'s parts)."""

    way_start: np.ndarray  # per action: its ways (consecutive ids)
    need_start: np.ndarray  # per way: its needs
    consume: np.ndarray  # per need: whether it is used up
    member_start: np.ndarray  # per need: its members
    member: np.ndarray  # per member entry: the resource
    amount: np.ndarray  # per member entry: the units one run takes of it (1 for a kept or presence need)
    output_start: np.ndarray  # per way: its outputs
    output: np.ndarray  # per output: the resource
    per_run: np.ndarray  # per output: the units a run is priced as giving (``Output.units``)
    consumer_start: np.ndarray  # per resource: the actions some need of which accepts it
    consumer: np.ndarray


def settle_tables(rules: Any, consumers: list[list[int]], priced_way: Callable[[Any], Any]) -> SettleTables:
    """``Rules`` flattened for the compiled fixpoint (made once per rules).

    ``consumers`` is ``rules.consumers_of`` and ``priced_way`` ``rules._priced_way``: a way's needs with the amount
    one run takes of each member, as the Python loop prices them (passed in: this module imports nothing of rules).
    """
    cached: SettleTables | None = rules.__dict__.get("_settle_tables")
    if cached is not None:
        return cached
    way_start, need_start, consume, member_start, member, amount = [0], [0], [], [0], [], []
    output_start, output, per_run = [0], [], []
    for a, ways in enumerate(rules.ways):
        for w, way in enumerate(ways):
            for used_up, members, _ in priced_way(way):
                consume.append(used_up)
                for m, units in members:
                    member.append(m)
                    amount.append(units)
                member_start.append(len(member))
            need_start.append(len(consume))
            for out in rules.way_outputs[a][w]:
                output.append(out.resource)
                per_run.append(out.units(rules.n_items))
            output_start.append(len(output))
        way_start.append(len(need_start) - 1)
    consumer_start = np.cumsum([0, *(len(c) for c in consumers)])
    tables = SettleTables(
        np.array(way_start, np.int64), np.array(need_start, np.int64), np.array(consume, np.bool_),
        np.array(member_start, np.int64), np.array(member, np.int64), np.array(amount, np.float64),
        np.array(output_start, np.int64), np.array(output, np.int64), np.array(per_run, np.float64),
        consumer_start.astype(np.int64), np.array([a for c in consumers for a in c], np.int64))
    rules.__dict__["_settle_tables"] = tables
    return tables


def settle(rules: Any, consumers: list[list[int]], priced_way: Callable[[Any], Any],
           fronts: list[list[tuple[float, float]]], way_prices: list[list[tuple[float, float]]], start: list[int],
           steps: Any, size: int) -> None:
    """``CostModel._settle`` on flat arrays, compiled; ``fronts`` and ``way_prices`` are updated in place.

    ``rules`` is a ``Rules``; ``consumers`` and ``priced_way`` as ``settle_tables`` takes them.
    """
    t = settle_tables(rules, consumers, priced_way)
    n_resources = len(fronts)
    front_m = np.full((n_resources, size + 1), np.inf)
    front_s = np.full((n_resources, size + 1), np.inf)
    front_len = np.zeros(n_resources, np.int64)
    for r, front in enumerate(fronts):
        front_len[r] = len(front)
        for i, (m, s) in enumerate(front):
            front_m[r, i] = m
            front_s[r, i] = s
    way_m = np.array([p[0] for prices in way_prices for p in prices], np.float64)
    way_s = np.array([p[1] for prices in way_prices for p in prices], np.float64)
    step = np.ones(len(way_prices)) if steps is None else np.asarray(steps, np.float64)
    front_changed = np.zeros(n_resources, np.bool_)
    way_changed = np.zeros(len(way_m), np.bool_)
    _settle_loop(t.way_start, t.need_start, t.consume, t.member_start, t.member, t.amount, t.output_start,
                 t.output, t.per_run, t.consumer_start, t.consumer, front_m, front_s, front_len, way_m, way_s,
                 step, np.array(start, np.int64), AMOUNTS, front_changed, way_changed)
    for r in np.flatnonzero(front_changed).tolist():
        fronts[r] = [(float(front_m[r, i]), float(front_s[r, i])) for i in range(front_len[r])]
    way_start = t.way_start
    for gw in np.flatnonzero(way_changed).tolist():
        a = int(np.searchsorted(way_start, gw, side="right")) - 1
        way_prices[a][gw - int(way_start[a])] = (float(way_m[gw]), float(way_s[gw]))


@_njit
def _way_price(need_start: Any, consume: Any, member_start: Any, member: Any, amount: Any, front_m: Any,
               front_s: Any, front_len: Any, gw: int, step: float) -> tuple[float, float]:
    marginal = step
    setup = 0.0
    for n in range(need_start[gw], need_start[gw + 1]):
        best = best_marginal = best_setup = np.inf
        for k in range(member_start[n], member_start[n + 1]):
            m = member[k]
            units = amount[k]
            for i in range(front_len[m]):
                total = units * front_m[m, i] + front_s[m, i]
                if total < best:
                    best = total
                    best_marginal = units * front_m[m, i]
                    best_setup = front_s[m, i]
        if best == np.inf:
            return np.inf, np.inf
        if consume[n]:
            marginal += best_marginal
            if best_setup > setup:
                setup = best_setup
        elif best > setup:
            setup = best
    return marginal, setup


@_njit
def _better(front_m: Any, front_s: Any, r: int, i: int, j: int, amount: float) -> bool:
    """Whether price ``i`` of row ``r`` beats price ``j`` at ``amount`` (by cost, then marginal, then setup)."""
    vi = amount * front_m[r, i] + front_s[r, i]
    vj = amount * front_m[r, j] + front_s[r, j]
    if vi != vj:
        return vi < vj
    if front_m[r, i] != front_m[r, j]:
        return front_m[r, i] < front_m[r, j]
    return front_s[r, i] < front_s[r, j]


@_njit
def _offer(front_m: Any, front_s: Any, front_len: Any, r: int, marginal: float, setup: float,
           amounts: Any) -> bool:
    """``rules._offer`` on row ``r`` of the front arrays (kept in (marginal, setup) order)."""
    if marginal == np.inf:
        return False
    n = front_len[r]
    for i in range(n):
        if front_m[r, i] == marginal and front_s[r, i] == setup:
            return False
    front_m[r, n] = marginal
    front_s[r, n] = setup
    keep = np.zeros(n + 1, np.bool_)
    for amount in amounts:
        best = 0
        for i in range(1, n + 1):
            if _better(front_m, front_s, r, i, best, amount):
                best = i
        keep[best] = True
    j = 0
    for i in range(n + 1):
        if keep[i]:
            m, s = front_m[r, i], front_s[r, i]
            k = j  # insertion into (marginal, setup) order, as sorted() orders the Python front
            while k > 0 and (front_m[r, k - 1] > m or (front_m[r, k - 1] == m and front_s[r, k - 1] > s)):
                front_m[r, k] = front_m[r, k - 1]
                front_s[r, k] = front_s[r, k - 1]
                k -= 1
            front_m[r, k] = m
            front_s[r, k] = s
            j += 1
    for i in range(j, n + 1):
        front_m[r, i] = np.inf
        front_s[r, i] = np.inf
    front_len[r] = j
    return bool(keep[n])


@_njit
def _settle_loop(way_start: Any, need_start: Any, consume: Any, member_start: Any, member: Any, amount: Any,
                 output_start: Any, output: Any, per_run: Any, consumer_start: Any, consumer: Any, front_m: Any,
                 front_s: Any, front_len: Any, way_m: Any, way_s: Any, step: Any, start: Any, amounts: Any,
                 front_changed: Any, way_changed: Any) -> None:
    n_actions = len(way_start) - 1
    active = np.zeros(n_actions, np.bool_)
    for a in start:
        active[a] = True
    offered = np.empty(len(way_m), np.int64)
    priced = 0
    while priced < 200 * n_actions:  # rounds, as the Python loop runs them: price all, then offer
        n_offered = 0
        any_active = False
        for a in range(n_actions):
            if not active[a]:
                continue
            any_active = True
            active[a] = False
            priced += 1
            for gw in range(way_start[a], way_start[a + 1]):
                marginal, setup = _way_price(need_start, consume, member_start, member, amount, front_m, front_s,
                                             front_len, gw, step[a])
                if marginal == way_m[gw] and setup == way_s[gw]:
                    continue
                way_m[gw] = marginal
                way_s[gw] = setup
                way_changed[gw] = True
                offered[n_offered] = gw
                n_offered += 1
        if not any_active:
            break
        for i in range(n_offered):
            gw = offered[i]
            for o in range(output_start[gw], output_start[gw + 1]):
                r = output[o]
                front_changed[r] = True  # an offer refused leaves it as it was: writing it back changes nothing
                if _offer(front_m, front_s, front_len, r, way_m[gw] / per_run[o], way_s[gw], amounts):
                    for c in range(consumer_start[r], consumer_start[r + 1]):
                        active[consumer[c]] = True

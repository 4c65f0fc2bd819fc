"""The cost fixpoint (``CostModel._settle``) compiled: the same loop over flat arrays, run by numba.

``CostModel`` prices every resource and way by lowering prices until nothing changes. On the library's rules that
is tens of thousands of way prices, and every plan from a start that holds something lowers them again
(``CostModel.lowered``, which runs this loop): up to seconds a plan in Python when the start holds a table or
tools. Here the rules are flattened once (CSR style, as ``textenv.kernel.Tables`` flattens them for stepping) and
the loop runs compiled. It does exactly what the Python loop does (rounds: price every action of the round at each
run count, then offer the new prices), with the same floating-point operations, so both give the same prices to
the last bit (a test compares them on the library's rules); without numba (an optional extra, ``world.jit``) the
Python loop runs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from taskverse.world.jit import njit as _njit
from taskverse.world.toolruns import RUN_SLACK

AMOUNTS = np.array([1.0, 3.0, 9.0, 27.0, 81.0])
"""The amounts a front keeps its best prices for (``rules._AMOUNTS``), and the run counts a way is priced for
(``rules._RUNS``)."""


@dataclass(frozen=True)
class SettleTables:
    """What the fixpoint reads of ``Rules``, flat (``x_start[i]:x_start[i + 1]`` are entry ``i``'s parts)."""

    way_start: np.ndarray  # per action: its ways (consecutive ids)
    need_start: np.ndarray  # per way: its needs
    consume: np.ndarray  # per need: whether it is used up
    member_start: np.ndarray  # per need: its members
    member: np.ndarray  # per member entry: the resource
    amount: np.ndarray  # per member entry: the units one run takes of it (1 for a kept or presence need)
    wear: np.ndarray  # per member entry: the share of its durability one run wears (``Need.wears``; 0: none)
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
    way_start, need_start, consume, member_start, member, amount, wear = [0], [0], [], [0], [], [], []
    output_start, output, per_run = [0], [], []
    for a, ways in enumerate(rules.ways):
        for w, way in enumerate(ways):
            for used_up, members, _, wears, _ in priced_way(way):
                consume.append(used_up)
                for i, (m, units) in enumerate(members):
                    member.append(m)
                    amount.append(units)
                    wear.append(0.0 if wears is None else wears[i])
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
        np.array(wear, np.float64), np.array(output_start, np.int64), np.array(output, np.int64),
        np.array(per_run, np.float64),
        consumer_start.astype(np.int64), np.array([a for c in consumers for a in c], np.int64))
    rules.__dict__["_settle_tables"] = tables
    return tables


def settle(rules: Any, consumers: list[list[int]], priced_way: Callable[[Any], Any],
           fronts: list[list[tuple[float, float]]], way_prices: list[list[tuple[float, float]]],
           batch_prices: list[list[tuple[tuple[float, float], ...]]], start: list[int], steps: Any,
           size: int, tolerance: float) -> None:
    """``CostModel._settle`` on flat arrays, compiled (``fronts``, ``way_prices``, ``batch_prices`` updated in place).

    ``rules`` is a ``Rules``; ``consumers`` and ``priced_way`` as ``settle_tables`` takes them.
    """
    t = settle_tables(rules, consumers, priced_way)
    n_resources = len(fronts)
    front_m = np.full((n_resources, size), np.inf)
    front_s = np.full((n_resources, size), np.inf)
    front_len = np.zeros(n_resources, np.int64)
    for r, front in enumerate(fronts):
        front_len[r] = len(front)
        for i, (m, s) in enumerate(front):
            front_m[r, i] = m
            front_s[r, i] = s
    # a way keeps a price for each of its run counts (``rules._run_counts``): the five of ``AMOUNTS``, and five
    # for each output
    n_ways = len(t.need_start) - 1
    width = len(AMOUNTS) * (1 + int(np.max(np.diff(t.output_start), initial=0)))
    way_m = np.full((n_ways, width), np.inf)
    way_s = np.full((n_ways, width), np.inf)
    way_len = np.zeros(n_ways, np.int64)
    gw = 0
    for prices in batch_prices:
        for batch in prices:
            way_len[gw] = len(batch)
            for i, (m, s) in enumerate(batch):
                way_m[gw, i] = m
                way_s[gw, i] = s
            gw += 1
    one_m = np.array([p[0] for prices in way_prices for p in prices], np.float64)
    one_s = np.array([p[1] for prices in way_prices for p in prices], np.float64)
    step = np.ones(len(way_prices)) if steps is None else np.asarray(steps, np.float64)
    front_changed = np.zeros(n_resources, np.bool_)
    way_changed = np.zeros(n_ways, np.bool_)
    one_changed = np.zeros(n_ways, np.bool_)
    _settle_loop(t.way_start, t.need_start, t.consume, t.member_start, t.member, t.amount, t.wear, t.output_start,
                 t.output, t.per_run, t.consumer_start, t.consumer, front_m, front_s, front_len, way_m, way_s,
                 way_len, one_m, one_s, step, np.array(start, np.int64), AMOUNTS, tolerance, front_changed,
                 way_changed, one_changed)
    for r in np.flatnonzero(front_changed).tolist():
        fronts[r] = [(float(front_m[r, i]), float(front_s[r, i])) for i in range(front_len[r])]
    way_start = t.way_start
    for gw in np.flatnonzero(way_changed | one_changed).tolist():
        a = int(np.searchsorted(way_start, gw, side="right")) - 1
        w = gw - int(way_start[a])
        batch_prices[a][w] = tuple((float(way_m[gw, i]), float(way_s[gw, i])) for i in range(way_len[gw]))
        way_prices[a][w] = (float(one_m[gw]), float(one_s[gw]))


@_njit
def _way_price(need_start: Any, consume: Any, member_start: Any, member: Any, amount: Any, wear: Any, front_m: Any,
               front_s: Any, front_len: Any, gw: int, step: float, runs: Any, marginals: Any, setups: Any) -> None:
    """``rules._price`` of way ``gw`` into ``marginals`` and ``setups`` (one entry per run count of ``runs``)."""
    n_runs = len(runs)
    for j in range(n_runs):
        marginals[j] = step
        setups[j] = 0.0
    for n in range(need_start[gw], need_start[gw + 1]):
        best = best_marginal = best_setup = low = np.inf
        for k in range(member_start[n], member_start[n + 1]):
            m = member[k]
            for i in range(front_len[m]):
                unit = amount[k] * front_m[m, i]
                total = unit + front_s[m, i]
                if total < best:
                    best = total
                    best_marginal = unit
                    best_setup = front_s[m, i]
                if unit < low:
                    low = unit
        if best == np.inf:
            for j in range(n_runs):
                marginals[j] = np.inf
                setups[j] = np.inf
            return
        if not consume[n]:  # ``rules._by_tools``: the member and price least for each count's run
            for j in range(n_runs):
                run_best = run_marginal = run_setup = np.inf
                for k in range(member_start[n], member_start[n + 1]):
                    m = member[k]
                    tools = max(1.0, np.ceil(runs[j] * wear[k] - RUN_SLACK))
                    for i in range(front_len[m]):
                        unit = amount[k] * front_m[m, i]
                        total = front_s[m, i] + unit * tools
                        if total < run_best:
                            run_best = total
                            run_marginal = wear[k] * unit
                            run_setup = front_s[m, i] + unit * (tools - runs[j] * wear[k])
                marginals[j] += run_marginal
                if run_setup > setups[j]:
                    setups[j] = run_setup
            continue
        unit_j, setup_j = best_marginal, best_setup  # ``rules._by_runs``: the count before's best, unless beaten
        for j in range(n_runs):
            if j > 0 and best_marginal > low:
                best_j = runs[j] * unit_j + setup_j
                for k in range(member_start[n], member_start[n + 1]):
                    m = member[k]
                    for i in range(front_len[m]):
                        unit = amount[k] * front_m[m, i]
                        if unit < best_marginal:
                            total = runs[j] * unit + front_s[m, i]
                            if total < best_j:
                                best_j = total
                                unit_j = unit
                                setup_j = front_s[m, i]
            marginals[j] += unit_j
            if setup_j > setups[j]:
                setups[j] = setup_j
    for j in range(1, n_runs):  # ``rules._price``: no count's price undercuts one run's for one run
        if marginals[j] + setups[j] < marginals[0] + setups[0]:
            marginals[j] = marginals[0]
            setups[j] = setups[0]


@_njit
def _better(pool_m: Any, pool_s: Any, i: int, j: int, amount: float) -> bool:
    """Whether price ``i`` of the pool beats price ``j`` at ``amount`` (by cost, then marginal, then setup)."""
    vi = amount * pool_m[i] + pool_s[i]
    vj = amount * pool_m[j] + pool_s[j]
    if vi != vj:
        return vi < vj
    if pool_m[i] != pool_m[j]:
        return pool_m[i] < pool_m[j]
    return pool_s[i] < pool_s[j]


@_njit
def _offer(front_m: Any, front_s: Any, front_len: Any, r: int, offer_m: Any, offer_s: Any, n_offers: int,
           amounts: Any, n_amounts: int, pool_m: Any, pool_s: Any, tolerance: float) -> bool:
    """``rules._offer`` of the first ``n_offers`` prices of ``offer_m``, ``offer_s`` on row ``r`` of the front arrays.

    The front is kept in (marginal, setup) order, the best for each of the first ``n_amounts`` of ``amounts``;
    ``pool_m`` and ``pool_s`` are room for the front and the offers.
    """
    n = front_len[r]
    for i in range(n):
        pool_m[i] = front_m[r, i]
        pool_s[i] = front_s[r, i]
    k = n
    for o in range(n_offers):
        m, s = offer_m[o], offer_s[o]
        if m == np.inf:
            continue
        seen = False
        for i in range(k):
            if pool_m[i] == m and pool_s[i] == s:
                seen = True
                break
        if not seen:
            pool_m[k] = m
            pool_s[k] = s
            k += 1
    if k == n:
        return False
    if n > 0:  # it changes only when its cost at an amount falls by more than ``tolerance`` of itself
        lower = False
        for a in range(n_amounts):
            amount = amounts[a]
            old = np.inf
            for i in range(n):
                value = amount * pool_m[i] + pool_s[i]
                if value < old:
                    old = value
            for i in range(n, k):
                if amount * pool_m[i] + pool_s[i] < old - tolerance * old:
                    lower = True
                    break
            if lower:
                break
        if not lower:
            return False
    keep = np.zeros(k, np.bool_)
    for a in range(n_amounts):
        amount = amounts[a]
        best = 0
        for i in range(1, k):
            if _better(pool_m, pool_s, i, best, amount):
                best = i
        keep[best] = True
    kept_m = np.empty(k)
    kept_s = np.empty(k)
    j = 0
    for i in range(k):
        if keep[i]:
            m, s = pool_m[i], pool_s[i]
            q = j  # insertion into (marginal, setup) order, as sorted() orders the Python front
            while q > 0 and (kept_m[q - 1] > m or (kept_m[q - 1] == m and kept_s[q - 1] > s)):
                kept_m[q] = kept_m[q - 1]
                kept_s[q] = kept_s[q - 1]
                q -= 1
            kept_m[q] = m
            kept_s[q] = s
            j += 1
    for i in range(j):
        front_m[r, i] = kept_m[i]
        front_s[r, i] = kept_s[i]
    for i in range(j, front_m.shape[1]):
        front_m[r, i] = np.inf
        front_s[r, i] = np.inf
    front_len[r] = j
    return True


@_njit
def _settle_loop(way_start: Any, need_start: Any, consume: Any, member_start: Any, member: Any, amount: Any,
                 wear: Any, output_start: Any, output: Any, per_run: Any, consumer_start: Any, consumer: Any,
                 front_m: Any, front_s: Any, front_len: Any, way_m: Any, way_s: Any, way_len: Any, one_m: Any,
                 one_s: Any, step: Any, start: Any, runs: Any, tolerance: float, front_changed: Any, way_changed: Any,
                 one_changed: Any) -> None:
    n_actions = len(way_start) - 1
    n_runs = len(runs)
    n_resources = len(front_len)
    active = np.zeros(n_actions, np.bool_)
    for a in start:
        active[a] = True
    last = np.zeros(n_resources, np.bool_)  # the fronts the last round changed
    first = True  # the first round prices every way of its actions
    offered = np.empty(len(way_m), np.int64)
    offered_m = np.empty((len(way_m), n_runs))  # the prices a changed way offers (``rules._price``'s)
    offered_s = np.empty((len(way_m), n_runs))
    marginals = np.empty(n_runs)
    setups = np.empty(n_runs)
    counts = np.empty(way_m.shape[1])
    pool_m = np.empty(way_m.shape[1] + n_runs)
    pool_s = np.empty(way_m.shape[1] + n_runs)
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
                if not first:  # a way none of whose members' fronts changed would offer what it kept
                    fed = False
                    for k in range(member_start[need_start[gw]], member_start[need_start[gw + 1]]):
                        if last[member[k]]:
                            fed = True
                            break
                    if not fed:
                        continue
                _way_price(need_start, consume, member_start, member, amount, wear, front_m, front_s, front_len, gw,
                           step[a], runs, marginals, setups)
                if marginals[0] != one_m[gw] or setups[0] != one_s[gw]:
                    one_m[gw] = marginals[0]
                    one_s[gw] = setups[0]
                    one_changed[gw] = True
                n_counts = 0  # ``rules._run_counts``
                for j in range(n_runs):
                    counts[n_counts] = runs[j]
                    n_counts += 1
                for o in range(output_start[gw], output_start[gw + 1]):
                    for j in range(n_runs):
                        counts[n_counts] = runs[j] / per_run[o]
                        n_counts += 1
                if not _offer(way_m, way_s, way_len, gw, marginals, setups, n_runs, counts, n_counts, pool_m,
                              pool_s, tolerance):
                    continue
                way_changed[gw] = True
                for j in range(n_runs):
                    offered_m[n_offered, j] = marginals[j]
                    offered_s[n_offered, j] = setups[j]
                offered[n_offered] = gw
                n_offered += 1
        if not any_active:
            break
        first = False
        last[:] = False
        # a front takes its round's offers at once: the offers grouped by the resource they price
        n_pairs = 0
        for i in range(n_offered):
            gw = offered[i]
            n_pairs += output_start[gw + 1] - output_start[gw]
        pair_r = np.empty(n_pairs, np.int64)
        pair_i = np.empty(n_pairs, np.int64)
        pair_o = np.empty(n_pairs, np.int64)
        p = 0
        for i in range(n_offered):
            gw = offered[i]
            for o in range(output_start[gw], output_start[gw + 1]):
                pair_r[p] = output[o]
                pair_i[p] = i
                pair_o[p] = o
                p += 1
        order = np.argsort(pair_r, kind="mergesort")
        g = 0
        while g < n_pairs:
            r = pair_r[order[g]]
            h = g
            while h < n_pairs and pair_r[order[h]] == r:
                h += 1
            n_offers = (h - g) * n_runs
            offer_m = np.empty(n_offers)
            offer_s = np.empty(n_offers)
            q = 0
            for x in range(g, h):
                i, o = pair_i[order[x]], pair_o[order[x]]
                for j in range(n_runs):
                    offer_m[q] = offered_m[i, j] / per_run[o]
                    offer_s[q] = offered_s[i, j]
                    q += 1
            room_m = np.empty(front_m.shape[1] + n_offers)
            room_s = np.empty(front_m.shape[1] + n_offers)
            if _offer(front_m, front_s, front_len, r, offer_m, offer_s, n_offers, runs, n_runs, room_m, room_s,
                      tolerance):
                front_changed[r] = True
                last[r] = True
                for c in range(consumer_start[r], consumer_start[r + 1]):
                    active[consumer[c]] = True
            g = h

"""The text world's step over a batch of states held in arrays: ``Rules.act`` as one loop over flat tables.

``Tables`` compiles ``Rules`` (``taskverse.world.rules``) into flat arrays (needs, members, outputs, thresholds,
places); ``step_batch`` steps N states held as rows of arrays, each by its own action, with every rule of
``Rules.effects``, ``Rules.moved`` and ``Rules.change``: the first way whose needs are met, groups taken one unit
at a time in consumption order, fuel counted in burn ticks with the rest left as heat, tools that wear and break,
chance yields and count ranges (where their sure totals grow, ``taskverse.world.chance``, or with amounts drawn
beforehand by the caller from each state's own generator, in ``Rules.effects``' order), things found added once,
and the agent's place.

The loop is plain Python over NumPy arrays. With numba installed (``pip install taskverse[fast]``) it is compiled
(``BACKENDS``); without, the same code runs as it is: correct, and much slower. The vector environment
(``taskverse.textenv.vector``) is its one user; ``tests/test_textenv_vector.py`` checks it against single
environments step by step, on both backends.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from typing import Any

import numpy as np

from taskverse.world import chance
from taskverse.world.chance import Z
from taskverse.world.jit import HAVE_NUMBA
from taskverse.world.jit import bare as _bare
from taskverse.world.jit import bare_with_gil as _bare_with_gil
from taskverse.world.jit import inlined as _inlined
from taskverse.world.jit import njit as _njit
from taskverse.world.rules import PRESENCE_KINDS, Event, Rules

BIOME, DIMENSION = 3, 5
"""Kind codes of places (``PRESENCE_KINDS`` order after items)."""
INVALID, UNCHANGED, COUNTS, MASK = -1, 0, 1, 2
"""What a step did: nothing (the action was no candidate), changed nothing, the counts (or the place) only, or the
candidate mask too (``taskverse.textenv.fast`` uses the same codes)."""
FLOAT_FIELDS = ("member_level", "output_mean", "output_sd", "output_shift")
"""The tables' float arrays: ``Tables.packed`` puts them apart from the integers."""


@dataclass(frozen=True)
class Tables:
    """``Rules`` as flat arrays (CSR style: ``x_start[i]:x_start[i + 1]`` are item ``i``'s entries)."""

    n_items: int
    heat: int
    way_start: np.ndarray  # per action: its ways (way ids are consecutive per action)
    need_start: np.ndarray  # per way: its needs
    need_consume: np.ndarray
    need_presence: np.ndarray
    need_weighted: np.ndarray
    need_count: np.ndarray
    need_uses: np.ndarray
    member_start: np.ndarray  # per need: its members, in consumption order
    member: np.ndarray
    member_level: np.ndarray
    member_weight: np.ndarray
    member_spare: np.ndarray  # the action itself makes it (taken last)
    output_start: np.ndarray  # per way: its yields
    output_resource: np.ndarray
    output_count: np.ndarray
    output_most: np.ndarray
    output_slot: np.ndarray
    output_sure_start: np.ndarray  # per output: its sure totals in ``sure_total`` (exact part, by tries)
    output_sure_end: np.ndarray
    output_mean: np.ndarray  # per output: one try's mean, deviation and shift (the sure totals past the exact part)
    output_sd: np.ndarray
    output_shift: np.ndarray
    sure_total: np.ndarray
    way_find: np.ndarray  # Rules.effects' shortcut for a find
    can_move: np.ndarray
    kind: np.ndarray  # per resource: 0 item, then PRESENCE_KINDS
    where_dimension: np.ndarray
    where_biome: np.ndarray
    wear_counter: np.ndarray  # per resource: its wear counter, or -1
    durability: np.ndarray
    restore_counter: np.ndarray  # per way: the wear counter an anvil's repair lowers (Rules.restores), or -1
    restore_amount: np.ndarray
    fuel_back: np.ndarray  # per resource: the container it leaves when it burns, or -1
    fan_start: np.ndarray  # per resource: itself and its groups, with what one unit counts for
    fan_virtual: np.ndarray
    fan_weight: np.ndarray
    threshold_start: np.ndarray  # per virtual resource: the needs on it, by count
    threshold: np.ndarray
    threshold_way: np.ndarray
    way_action: np.ndarray
    max_deltas: int
    max_needs: int
    max_outputs: int
    max_uncertain: int

    @classmethod
    def for_rules(cls, rules: Rules) -> Tables:
        """The tables of ``rules`` (built once per rules and kept on them)."""
        cached: Tables | None = getattr(rules, "_kernel_tables", None)
        if cached is None:
            cached = _compile(rules)
            rules._kernel_tables = cached  # type: ignore[attr-defined]
        return cached

    def arrays(self) -> tuple[Any, ...]:
        """Every field, in order (the kernel's trailing arguments)."""
        return tuple(getattr(self, f.name) for f in fields(self))

    def packed(self) -> np.ndarray:
        """Every field in one int64 array, for ``step_one``: a header, then the fields (floats as their bits).

        The header holds where each integer field starts (in field order, the last's end after it), then where each
        of ``FLOAT_FIELDS`` starts (and the last ends). A number is a field of one entry.
        """
        cached: np.ndarray | None = self.__dict__.get("_packed")
        if cached is not None:
            return cached
        parts = [np.atleast_1d(np.asarray(getattr(self, f.name), dtype=np.int64))
                 for f in fields(self) if f.name not in FLOAT_FIELDS]
        n_ints = len(parts)
        parts += [np.ascontiguousarray(getattr(self, name), dtype=np.float64).view(np.int64) for name in FLOAT_FIELDS]
        header = n_ints + 1 + len(FLOAT_FIELDS) + 1
        ends = header + np.cumsum([len(part) for part in parts])
        starts = np.concatenate([[header], ends[:n_ints], ends[n_ints - 1:]])
        cached = np.concatenate([starts, *parts]).astype(np.int64)
        self.__dict__["_packed"] = cached  # frozen: the fields never change, so neither does their packing
        return cached


def _compile(rules: Rules) -> Tables:
    i32, i64 = np.int32, np.int64
    way_start = [0]
    need_start = [0]
    member_start = [0]
    output_start = [0]
    needs: dict[str, list[Any]] = {k: [] for k in ("consume", "presence", "weighted", "count", "uses")}
    members: dict[str, list[Any]] = {k: [] for k in ("member", "level", "weight", "spare")}
    outputs: dict[str, list[Any]] = {k: [] for k in ("resource", "count", "most", "slot", "sure_start", "sure_end",
                                                     "mean", "sd", "shift")}
    sure_parts: list[np.ndarray] = []
    sure_at: dict[tuple[float, int, int], tuple[int, int, float, float, float]] = {}
    sure_size = 0
    way_find: list[int] = []
    max_deltas = max_needs = max_outputs = max_uncertain = 1
    for a, ways in enumerate(rules.ways):
        spare = rules.output_items[a]
        for w, way in enumerate(ways):
            deltas = 2  # one more for a repair's wear (Rules.restores)
            for need in way:
                needs["consume"].append(need.consume)
                needs["presence"].append(need.presence)
                needs["weighted"].append(need.weights is not None)
                needs["count"].append(need.count)
                needs["uses"].append(need.uses)
                for i, m in enumerate(need.members):
                    members["member"].append(m)
                    members["level"].append(need.levels[i] if need.levels else 0.0)
                    members["weight"].append(need.weights[i] if need.weights is not None else 1)
                    members["spare"].append(m in spare)
                member_start.append(len(members["member"]))
                deltas += min(len(need.members), need.count) * (2 if need.weights is not None else 1) + 2
            need_start.append(len(needs["count"]))
            outs = rules.way_outputs[a][w]
            for out in outs:
                outputs["resource"].append(out.resource)
                outputs["count"].append(out.count)
                outputs["most"].append(out.most)
                outputs["slot"].append(out.slot)
                key = (out.chance, out.count, out.most)
                if out.slot >= 0 and key not in sure_at:
                    table, mean, sd, shift = chance.schedule(*key)
                    sure_parts.append(table)
                    sure_at[key] = (sure_size, sure_size + table.size, mean, sd, shift)
                    sure_size += table.size
                start, end, mean, sd, shift = sure_at.get(key, (0, 0, 0.0, 0.0, 0.0))
                for name, value in (("sure_start", start), ("sure_end", end), ("mean", mean), ("sd", sd),
                                    ("shift", shift)):
                    outputs[name].append(value)
            output_start.append(len(outputs["resource"]))
            way_find.append(not way and len(outs) == 1 and outs[0].resource >= rules.n_items)
            max_deltas = max(max_deltas, deltas + len(outs) + len(rules.dimensions))  # a trip leaves a dimension
            max_needs = max(max_needs, len(way))
            max_outputs = max(max_outputs, len(outs))
            max_uncertain = max(max_uncertain, sum(out.slot >= 0 for out in outs))
        way_start.append(way_start[-1] + len(ways))
    kinds = ("item", *PRESENCE_KINDS)
    n = rules.n_resources
    where_dimension = np.full(n, -1, dtype=i32)
    where_biome = np.full(n, -1, dtype=i32)
    for r, (biome, dimension) in rules.places.items():
        if dimension is not None:  # a place the rules do not know moves nothing (Rules._at's lookups default)
            where_dimension[r] = rules.index.get(("dimension", dimension), -1)
        if biome is not None:
            where_biome[r] = rules.index.get(("biome", biome), -1)
    wear_counter = np.full(n, -1, dtype=i32)
    durability = np.ones(n, dtype=i64)
    for tool, (counter, most) in rules.wear_of.items():
        wear_counter[tool] = counter
        durability[tool] = most
    restore_counter = np.full(way_start[-1], -1, dtype=i32)
    restore_amount = np.zeros(way_start[-1], dtype=i64)
    for (a, w), (counter, amount) in rules.restores.items():
        restore_counter[way_start[a] + w] = counter
        restore_amount[way_start[a] + w] = amount
    fuel_back = np.full(n, -1, dtype=i32)
    for fuel, back in rules.fuel_back.items():
        fuel_back[fuel] = back
    fan_start, fan_virtual, fan_weight = [0], [], []
    for r in range(n):
        for v, weight in ((r, 1), *rules.groups_of[r]):
            fan_virtual.append(v)
            fan_weight.append(weight)
        fan_start.append(len(fan_virtual))
    threshold_start, threshold, threshold_way = [0], [], []
    for values, need_ids in zip(rules.thresholds, rules.threshold_needs, strict=True):
        threshold += values
        threshold_way += [rules.need_way[k] for k in need_ids]
        threshold_start.append(len(threshold))
    return Tables(
        n_items=rules.n_items, heat=rules.heat,
        way_start=np.array(way_start, i32), need_start=np.array(need_start, i32),
        need_consume=np.array(needs["consume"], np.bool_), need_presence=np.array(needs["presence"], np.bool_),
        need_weighted=np.array(needs["weighted"], np.bool_), need_count=np.array(needs["count"], i64),
        need_uses=np.array(needs["uses"], i64), member_start=np.array(member_start, i32),
        member=np.array(members["member"], i32), member_level=np.array(members["level"], np.float64),
        member_weight=np.array(members["weight"], i64), member_spare=np.array(members["spare"], np.bool_),
        output_start=np.array(output_start, i32), output_resource=np.array(outputs["resource"], i32),
        output_count=np.array(outputs["count"], i64), output_most=np.array(outputs["most"], i64),
        output_slot=np.array(outputs["slot"], i32), output_sure_start=np.array(outputs["sure_start"], i64),
        output_sure_end=np.array(outputs["sure_end"], i64), output_mean=np.array(outputs["mean"], np.float64),
        output_sd=np.array(outputs["sd"], np.float64), output_shift=np.array(outputs["shift"], np.float64),
        sure_total=np.concatenate(sure_parts) if sure_parts else np.zeros(1, i64),
        way_find=np.array(way_find, np.bool_), can_move=np.array(list(rules.can_move), np.bool_),
        kind=np.array([kinds.index(kind) for kind, _ in rules.resources], np.int8),
        where_dimension=where_dimension, where_biome=where_biome, wear_counter=wear_counter, durability=durability,
        restore_counter=restore_counter, restore_amount=restore_amount, fuel_back=fuel_back,
        fan_start=np.array(fan_start, i32), fan_virtual=np.array(fan_virtual, i32),
        fan_weight=np.array(fan_weight, i64), threshold_start=np.array(threshold_start, i32),
        threshold=np.array(threshold, i64), threshold_way=np.array(threshold_way, i32),
        way_action=np.array(rules.way_action, i32),
        max_deltas=max_deltas, max_needs=max_needs, max_outputs=max_outputs, max_uncertain=max_uncertain)


@_bare
def _bisect_right(values: np.ndarray, lo: int, hi: int, x: int) -> int:
    while lo < hi:
        mid = (lo + hi) // 2
        if x < values[mid]:
            hi = mid
        else:
            lo = mid + 1
    return lo


@_bare
def _sure(o: int, t: int, start: np.ndarray, end: np.ndarray, mean: np.ndarray, sd: np.ndarray,
          shift: np.ndarray, table: np.ndarray) -> int:
    """``chance.sure_total`` of output ``o`` after ``t`` tries, from the flat tables."""
    if start[o] + t < end[o]:
        return int(table[start[o] + t])
    return max(int(table[end[o] - 1]), math.floor(t * mean[o] - Z * sd[o] * math.sqrt(t) + shift[o]))


@_bare
def _change(n: int, r: int, delta: int, counts: np.ndarray, virtual: np.ndarray, way_missing: np.ndarray,
            ok_ways: np.ndarray, mask: np.ndarray, fan_start: np.ndarray, fan_virtual: np.ndarray,
            fan_weight: np.ndarray, threshold_start: np.ndarray, threshold: np.ndarray, threshold_way: np.ndarray,
            way_action: np.ndarray) -> bool:
    """``Rules.change``: add ``delta`` to resource ``r`` of state ``n``, and keep its mask up to date.

    Returns whether the mask changed.
    """
    counts[n, r] += delta
    toggled = False
    for f in range(fan_start[r], fan_start[r + 1]):
        v = fan_virtual[f]
        old = virtual[n, v]
        new = old + delta * fan_weight[f]
        virtual[n, v] = new
        lo, hi = threshold_start[v], threshold_start[v + 1]
        if lo == hi:
            continue
        if new > old:
            for k in range(_bisect_right(threshold, lo, hi, old), _bisect_right(threshold, lo, hi, new)):
                w = threshold_way[k]
                way_missing[n, w] -= 1
                if way_missing[n, w] == 0:
                    a = way_action[w]
                    ok_ways[n, a] += 1
                    if ok_ways[n, a] == 1:
                        mask[n, a] = 1
                        toggled = True
        else:
            for k in range(_bisect_right(threshold, lo, hi, new), _bisect_right(threshold, lo, hi, old)):
                w = threshold_way[k]
                if way_missing[n, w] == 0:
                    a = way_action[w]
                    ok_ways[n, a] -= 1
                    if ok_ways[n, a] == 0:
                        mask[n, a] = 0
                        toggled = True
                way_missing[n, w] += 1
    return toggled


@_inlined
def _step_row(n: int, a: int, sampled: bool, amounts: np.ndarray, counts: np.ndarray, virtual: np.ndarray,
              way_missing: np.ndarray, ok_ways: np.ndarray, mask: np.ndarray, tries: np.ndarray, place: np.ndarray,
              used_way: np.ndarray, used: np.ndarray, given: np.ndarray, delta_resource: np.ndarray,
              delta_value: np.ndarray, pool_key: np.ndarray, pool_held: np.ndarray, pool_index: np.ndarray,
              pool_spare: np.ndarray,
              n_items: int, heat: int, tables: tuple[np.ndarray, ...]) -> int:
    """Step state ``n`` (row ``n`` of the state's arrays) by action ``a``: ``INVALID`` (no candidate) or what changed.

    ``sampled``: take the uncertain yields' amounts from ``amounts[n]`` (drawn by the caller, in way order) instead
    of where their sure totals grow. Records, for events: the way used (``used_way[n]``), each need's member used
    (``used[n]``) and each yield's amount given (``given[n]``, 0 for none). Returns ``UNCHANGED``, ``COUNTS`` (the
    counts or the place, not the candidates) or ``MASK`` (the candidates too).
    """
    (way_start, need_start, need_consume, need_presence, need_weighted, need_count, need_uses, member_start, member,
     member_level, member_weight, member_spare, output_start, output_resource, output_count, output_slot,
     output_sure_start, output_sure_end, output_mean, output_sd, output_shift, sure_total, way_find, can_move, kind,
     where_dimension, where_biome, wear_counter, durability, restore_counter, restore_amount, fuel_back, fan_start,
     fan_virtual, fan_weight, threshold_start, threshold, threshold_way, way_action) = tables
    if mask[n, a] == 0:
        return INVALID
    w = way_start[a]
    while way_missing[n, w] != 0:
        w += 1
    used_way[n] = w - way_start[a]
    nd = 0
    first_out = output_start[w]
    if way_find[w]:
        r = output_resource[first_out]
        given[n, 0] = 1
        if counts[n, r] == 0:
            delta_resource[0] = r
            delta_value[0] = 1
            nd = 1
    else:
        for k in range(need_start[w], need_start[w + 1]):
            slot = k - need_start[w]
            lo, hi = member_start[k], member_start[k + 1]
            if need_consume[k]:
                left = need_count[k]
                start_nd = nd
                if need_weighted[k]:  # fuel: heat first, whole items cheapest per tick, what is made last
                    for last in (0, 1):
                        for i in range(lo, hi):
                            if member_spare[i] != last:
                                continue
                            m = member[i]
                            held = counts[n, m]
                            if left <= 0 or held <= 0:
                                continue
                            weight = member_weight[i]
                            take = min(held, -(-left // weight))
                            delta_resource[nd] = m
                            delta_value[nd] = take
                            nd += 1
                            left -= take * weight
                    burnt = 0
                    for d in range(start_nd, nd):
                        for i in range(lo, hi):
                            if member[i] == delta_resource[d]:
                                burnt += member_weight[i] * delta_value[d]
                                break
                    for d in range(start_nd, nd):
                        delta_value[d] = -delta_value[d]
                    if nd > start_nd:
                        used[n, slot] = delta_resource[start_nd]
                    if burnt - need_count[k] > 0:
                        delta_resource[nd] = heat
                        delta_value[nd] = burnt - need_count[k]
                        nd += 1
                    end_nd = nd
                    for d in range(start_nd, end_nd):  # a burnt lava bucket leaves its bucket
                        r = delta_resource[d]
                        if r != heat and fuel_back[r] >= 0:
                            delta_resource[nd] = fuel_back[r]
                            delta_value[nd] = -delta_value[d]
                            nd += 1
                else:  # one unit at a time: not made here first, cheapest, most held, first in order
                    size = 0
                    for i in range(lo, hi):
                        held = counts[n, member[i]]
                        if held > 0:
                            pool_spare[size] = member_spare[i]
                            pool_key[size] = member_level[i]
                            pool_held[size] = -held
                            pool_index[size] = i
                            size += 1
                    while left > 0 and size > 0:
                        best = 0
                        for p in range(1, size):
                            if pool_spare[p] != pool_spare[best]:
                                if pool_spare[p] < pool_spare[best]:
                                    best = p
                            elif pool_key[p] != pool_key[best]:
                                if pool_key[p] < pool_key[best]:
                                    best = p
                            elif pool_held[p] != pool_held[best]:
                                if pool_held[p] < pool_held[best]:
                                    best = p
                            elif pool_index[p] < pool_index[best]:
                                best = p
                        pool_held[best] += 1
                        m = member[pool_index[best]]
                        found = False
                        for d in range(start_nd, nd):
                            if delta_resource[d] == m:
                                delta_value[d] -= 1
                                found = True
                                break
                        if not found:
                            delta_resource[nd] = m
                            delta_value[nd] = -1
                            nd += 1
                        left -= 1
                        if pool_held[best] == 0:
                            size -= 1
                            pool_spare[best] = pool_spare[size]
                            pool_key[best] = pool_key[size]
                            pool_held[best] = pool_held[size]
                            pool_index[best] = pool_index[size]
                    if nd > start_nd:
                        used[n, slot] = delta_resource[start_nd]
            elif need_presence[k]:
                for i in range(lo, hi):
                    if counts[n, member[i]] != 0:
                        used[n, slot] = member[i]
                        break
            else:  # a kept tool: the first of the most held; it may wear
                tool = member[lo]
                for i in range(lo + 1, hi):
                    if counts[n, member[i]] > counts[n, tool]:
                        tool = member[i]
                used[n, slot] = tool
                counter = wear_counter[tool]
                if need_uses[k] and counter >= 0:
                    spent = counts[n, counter] + need_uses[k]
                    broken = min(spent // durability[tool], counts[n, tool])
                    delta_resource[nd] = counter
                    delta_value[nd] = spent - broken * durability[tool] - counts[n, counter]
                    nd += 1
                    if broken:
                        delta_resource[nd] = tool
                        delta_value[nd] = -broken
                        nd += 1
        counter = restore_counter[w]
        if counter >= 0 and counts[n, counter] > 0:  # an anvil's repair takes wear off (Rules.restores)
            delta_resource[nd] = counter
            delta_value[nd] = -min(counts[n, counter], restore_amount[w])
            nd += 1
        column = 0
        for o in range(first_out, output_start[w + 1]):
            amount = output_count[o]
            s = output_slot[o]
            if s >= 0:
                if sampled:
                    amount = amounts[n, column]
                column += 1
                tries[n, s] += 1
                if not sampled:
                    t = tries[n, s]
                    amount = (_sure(o, t, output_sure_start, output_sure_end, output_mean, output_sd, output_shift,
                                    sure_total)
                              - _sure(o, t - 1, output_sure_start, output_sure_end, output_mean, output_sd,
                                      output_shift, sure_total))
            given[n, o - first_out] = amount if amount > 0 else 0
            if amount <= 0:
                continue
            r = output_resource[o]
            if r < n_items:
                delta_resource[nd] = r
                delta_value[nd] = amount
                nd += 1
            else:
                given[n, o - first_out] = 1
                if counts[n, r] == 0:
                    seen = False
                    for d in range(nd):
                        if delta_resource[d] == r:
                            seen = True
                            break
                    if not seen:
                        delta_resource[nd] = r
                        delta_value[nd] = 1
                        nd += 1
                        if kind[r] == DIMENSION:  # Rules._travel: the dimension the agent was in is left
                            for d in range(kind.shape[0]):
                                if kind[d] == DIMENSION and d != r and counts[n, d] > 0:
                                    delta_resource[nd] = d
                                    delta_value[nd] = -counts[n, d]
                                    nd += 1
    changed = UNCHANGED
    if can_move[a]:  # Rules.moved: where the things used are, then where what was found is
        biome = place[n, 0]
        dimension = place[n, 1]
        steps = need_start[w + 1] - need_start[w]
        for j in range(steps + output_start[w + 1] - first_out):
            if j < steps:
                if not need_presence[need_start[w] + j]:
                    continue
                r = used[n, j]
            else:
                o = first_out + j - steps
                if given[n, j - steps] <= 0 or output_resource[o] < n_items:
                    continue
                r = output_resource[o]
            code = kind[r]
            if code == BIOME:
                biome = r
            elif code == DIMENSION:
                if r != dimension:
                    biome = -1
                dimension = r
            if where_dimension[r] >= 0 and dimension < 0:  # only a trip changes a known dimension
                if where_dimension[r] != dimension and code != BIOME:
                    biome = -1
                dimension = where_dimension[r]
            if where_biome[r] >= 0:
                biome = where_biome[r]
            if j >= steps and code == DIMENSION:
                biome = -1
        if biome != place[n, 0] or dimension != place[n, 1]:
            changed = COUNTS
        place[n, 0] = biome
        place[n, 1] = dimension
    for d in range(nd):
        if changed == UNCHANGED:
            changed = COUNTS
        if _change(n, delta_resource[d], delta_value[d], counts, virtual, way_missing, ok_ways, mask, fan_start,
                   fan_virtual, fan_weight, threshold_start, threshold, threshold_way, way_action):
            changed = MASK
    return changed


@_njit
def step_batch(actions: np.ndarray, active: np.ndarray, sampled: np.ndarray, amounts: np.ndarray,
               counts: np.ndarray, virtual: np.ndarray, way_missing: np.ndarray, ok_ways: np.ndarray,
               mask: np.ndarray, tries: np.ndarray, place: np.ndarray, valid: np.ndarray, used_way: np.ndarray,
               used: np.ndarray, given: np.ndarray,
               n_items: int, heat: int, way_start: np.ndarray, need_start: np.ndarray, need_consume: np.ndarray,
               need_presence: np.ndarray, need_weighted: np.ndarray, need_count: np.ndarray, need_uses: np.ndarray,
               member_start: np.ndarray, member: np.ndarray, member_level: np.ndarray, member_weight: np.ndarray,
               member_spare: np.ndarray, output_start: np.ndarray, output_resource: np.ndarray,
               output_count: np.ndarray, output_most: np.ndarray, output_slot: np.ndarray,
               output_sure_start: np.ndarray, output_sure_end: np.ndarray, output_mean: np.ndarray,
               output_sd: np.ndarray, output_shift: np.ndarray, sure_total: np.ndarray, way_find: np.ndarray,
               can_move: np.ndarray,
               kind: np.ndarray,
               where_dimension: np.ndarray, where_biome: np.ndarray, wear_counter: np.ndarray,
               durability: np.ndarray, restore_counter: np.ndarray, restore_amount: np.ndarray,
               fuel_back: np.ndarray, fan_start: np.ndarray, fan_virtual: np.ndarray,
               fan_weight: np.ndarray,
               threshold_start: np.ndarray, threshold: np.ndarray, threshold_way: np.ndarray,
               way_action: np.ndarray, max_deltas: int, max_needs: int,
               max_outputs: int, max_uncertain: int) -> None:
    """Step every active state ``n`` (row ``n`` of each array) by ``actions[n]``, as ``_step_row``.

    A non-candidate only sets ``valid[n] = 0``. ``sampled[n]``: take the uncertain yields' amounts from
    ``amounts[n]``; ``used_way``, ``used`` and ``given`` record each row's step for its events.
    """
    delta_resource = np.empty(max_deltas, dtype=np.int64)
    delta_value = np.empty(max_deltas, dtype=np.int64)
    pool_key = np.empty(member.shape[0] + 1, dtype=np.float64)
    pool_held = np.empty(member.shape[0] + 1, dtype=np.int64)
    pool_index = np.empty(member.shape[0] + 1, dtype=np.int64)
    pool_spare = np.empty(member.shape[0] + 1, dtype=np.bool_)
    # the tables as one argument: Python passes more than 30 as a tuple, which numba cannot write into the caller
    tables = (way_start, need_start, need_consume, need_presence, need_weighted, need_count, need_uses, member_start,
              member, member_level, member_weight, member_spare, output_start, output_resource,
              output_count, output_slot, output_sure_start, output_sure_end, output_mean, output_sd,
              output_shift, sure_total, way_find, can_move, kind, where_dimension, where_biome,
              wear_counter, durability, restore_counter, restore_amount, fuel_back, fan_start,
              fan_virtual, fan_weight, threshold_start, threshold, threshold_way, way_action)
    _step_rows(actions, active, sampled, amounts, counts, virtual, way_missing, ok_ways, mask, tries, place, valid,
               used_way, used, given, (delta_resource, delta_value, pool_key, pool_held, pool_index, pool_spare),
               n_items, heat, tables)


@_bare
def _step_rows(actions: np.ndarray, active: np.ndarray, sampled: np.ndarray, amounts: np.ndarray,
               counts: np.ndarray, virtual: np.ndarray, way_missing: np.ndarray, ok_ways: np.ndarray,
               mask: np.ndarray, tries: np.ndarray, place: np.ndarray, valid: np.ndarray, used_way: np.ndarray,
               used: np.ndarray, given: np.ndarray, scratch: tuple[np.ndarray, ...], n_items: int, heat: int,
               tables: tuple[np.ndarray, ...]) -> None:
    """``step_batch``'s loop, without reference counting (``taskverse.world.jit.bare``)."""
    delta_resource, delta_value, pool_key, pool_held, pool_index, pool_spare = scratch
    for n in range(actions.shape[0]):
        if not active[n]:
            continue
        code = _step_row(n, actions[n], sampled[n], amounts, counts, virtual, way_missing, ok_ways, mask, tries,
                         place, used_way, used, given, delta_resource, delta_value, pool_key, pool_held, pool_index,
                         pool_spare, n_items, heat, tables)
        valid[n] = 1 if code != INVALID else 0


WORK_PARTS = ("virtual", "way_missing", "ok_ways", "tries", "place", "used_way", "used", "given", "amounts",
              "delta_resource", "delta_value", "pool_held", "pool_index", "pool_spare", "counts", "mask", "pool_key")
"""The parts of ``step_one``'s work array, after its header (``SAMPLED``, then where each part starts and the
last ends): int64 each, but ``counts`` (int32, one per resource), ``mask`` (int8, one per action) and ``pool_key``
(float64), held in the int64 entries' bytes."""
SCRATCH = frozenset({"delta_resource", "delta_value", "pool_held", "pool_index", "pool_spare", "pool_key"})
"""The work array's parts a step writes before it reads them: no state, nothing for its events (a snapshot of the
state leaves them out)."""
FLOAT_HEADER = len(fields(Tables)) - len(FLOAT_FIELDS) + 1
"""Where ``Tables.packed``'s header says where the float fields start."""
SAMPLED = 0
"""The work array's flag: the uncertain yields' amounts were drawn into ``amounts`` for this step."""


@_inlined
def _part(packed: np.ndarray, i: int) -> np.ndarray:
    """Part ``i`` of a packed array whose header holds where each part starts (entry ``i``) and ends (``i + 1``)."""
    return packed[packed[i]:packed[i + 1]]


@_inlined
def _row(packed: np.ndarray, i: int) -> np.ndarray:
    """``_part`` as the one row of a 2-D array (``_step_row`` indexes the state's arrays by row)."""
    return packed[packed[i]:packed[i + 1]][np.newaxis, :]  # a view made inline: reshape calls out of compiled code


@_bare_with_gil
def step_one(packed: np.ndarray, work: np.ndarray, a: int) -> int:
    """``_step_row`` for one state, with few arguments (each costs a call from Python some time).

    ``packed`` is ``Tables.packed()``; ``work`` holds the state and the step's records and scratch (``WORK_PARTS``,
    after a header: ``work[SAMPLED]``, then where each part starts).
    """
    f = FLOAT_HEADER
    n_resources = packed[32] - packed[31] - 1  # the fan-outs: one per resource, and an end
    n_actions = packed[3] - packed[2] - 1  # the ways' starts: one per action, and an end
    tables = (_part(packed, 2), _part(packed, 3), _part(packed, 4), _part(packed, 5), _part(packed, 6),
              _part(packed, 7), _part(packed, 8), _part(packed, 9), _part(packed, 10),
              _part(packed, f).view(np.float64), _part(packed, 11), _part(packed, 12), _part(packed, 13),
              _part(packed, 14), _part(packed, 15), _part(packed, 17), _part(packed, 18), _part(packed, 19),
              _part(packed, f + 1).view(np.float64), _part(packed, f + 2).view(np.float64),
              _part(packed, f + 3).view(np.float64), _part(packed, 20), _part(packed, 21), _part(packed, 22),
              _part(packed, 23), _part(packed, 24), _part(packed, 25), _part(packed, 26), _part(packed, 27),
              _part(packed, 28), _part(packed, 29), _part(packed, 30), _part(packed, 31), _part(packed, 32),
              _part(packed, 33), _part(packed, 34), _part(packed, 35), _part(packed, 36), _part(packed, 37))
    counts = _part(work, 15).view(np.int32)[:n_resources][np.newaxis, :]
    mask = _part(work, 16).view(np.int8)[:n_actions][np.newaxis, :]
    return _step_row(0, a, work[SAMPLED] != 0, _row(work, 9), counts, _row(work, 1), _row(work, 2), _row(work, 3),
                     mask, _row(work, 4), _row(work, 5), _part(work, 6), _row(work, 7), _row(work, 8),
                     _part(work, 10), _part(work, 11), _part(work, 17).view(np.float64), _part(work, 12),
                     _part(work, 13), _part(work, 14), _part(packed, 0)[0], _part(packed, 1)[0], tables)


def recorded_events(rules: Rules, tables: Tables, a: int, w: int, used: np.ndarray, given: np.ndarray,
                    place: tuple[int, int], wielded: int | None) -> list[Event]:
    """The events ``Rules.act`` emits for a step the kernel did: from its way, its members used, its yields given."""
    outputs: list[tuple[int, int]] = []
    for j, out in enumerate(rules.way_outputs[a][w]):
        amount = int(given[j])
        if amount > 0:
            outputs.append((out.resource, amount if out.resource < rules.n_items else 1))
    find = tables.way_find[tables.way_start[a] + w]
    members = [] if find else [int(u) for u in used[:len(rules.ways[a][w])]]
    return rules.events(a, w, members, outputs, place, wielded)


BACKENDS = ("numba", "numpy") if HAVE_NUMBA else ("numpy",)
"""The kernels available: compiled by numba (if installed), and the same loop uncompiled."""


def kernel(backend: str) -> Any:
    """``step_batch`` for a backend: ``numba`` (compiled) or ``numpy`` (the same code, uncompiled)."""
    if backend == "numba":
        if not HAVE_NUMBA:
            from taskverse.errors import TaskverseError

            raise TaskverseError("backend='numba' needs numba: pip install 'taskverse[fast]'")
        return step_batch
    return getattr(step_batch, "py_func", step_batch)


__all__ = ["BACKENDS", "COUNTS", "HAVE_NUMBA", "INVALID", "MASK", "SAMPLED", "SCRATCH", "UNCHANGED", "WORK_PARTS",
           "Tables", "kernel", "recorded_events", "step_batch", "step_one"]

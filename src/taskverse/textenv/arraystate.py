"""One text-world state held in arrays and stepped by the compiled kernel: the single environment's fast path.

``FastRules`` (``taskverse.textenv.fast``) steps a ``State`` of Python lists; this holds the same state in one
NumPy work array (the counts, which the inventory observation copies; the candidate mask, which the mask observation
copies; group totals, ways' missing needs, actions' met ways, chance tries, the place, and the kernel's records and
scratch) and steps it with ``kernel.step_one``, ``Rules.act`` as one compiled call of two arrays and the action
(each argument costs a call from Python some time). What Python still does, it does only where it must: draw the
chance yields' amounts (``chance="sample"``) from the caller's generator in ``Rules.effects``' order, read the tool
in hand before the step, and build the events from what the kernel recorded, for actions whose events can matter.

It needs numba (``pip install 'taskverse[fast]'``): uncompiled, the kernel's loop over arrays is slower than
``FastRules`` over lists (``HAVE_NUMBA`` says which the environment uses). ``tests/test_textenv_fast.py`` steps it
and ``Rules.act`` side by side and compares the whole state, the events and the random draws after every step.

Example:
    >>> from taskverse import load_library
    >>> from taskverse.world.rules import Rules
    >>> rules = Rules.for_library(load_library())
    >>> held = ArrayState(rules)
    >>> held.load(rules.new_state())
    >>> events, changed = held.act(rules.action_index["find.oak_log"])
    >>> changed == MASK, bool(held.mask[rules.action_index["mine.oak_log"]])
    (True, True)

"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

import numpy as np

from taskverse.textenv.kernel import (
    COUNTS,
    INVALID,
    MASK,
    SAMPLED,
    SCRATCH,
    UNCHANGED,
    WORK_PARTS,
    Tables,
    recorded_events,
    step_one,
)
from taskverse.world.rules import Event, Rules, State


class ArrayState:
    """A text-world state of ``rules`` in arrays, stepped by the compiled kernel (``load`` one first).

    ``counts`` (int32, one per resource) and ``mask`` (int8, one per action) are views of the state's own work array,
    changed in place by every step; copy them to keep them.
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.tables = tables = Tables.for_rules(rules)
        self.packed = tables.packed()
        members = tables.member.shape[0] + 1
        sizes = {"virtual": rules.n_virtual, "way_missing": len(rules.way_action), "ok_ways": len(rules.actions),
                 "tries": max(rules.n_slots, 1), "place": 2, "used_way": 1, "used": tables.max_needs,
                 "given": tables.max_outputs, "amounts": tables.max_uncertain, "delta_resource": tables.max_deltas,
                 "delta_value": tables.max_deltas, "pool_held": members, "pool_index": members,
                 "pool_spare": members, "counts": -(-rules.n_resources // 2), "mask": -(-len(rules.actions) // 8),
                 "pool_key": members}
        header = 1 + len(WORK_PARTS) + 1
        starts = header + np.cumsum([0, *(sizes[part] for part in WORK_PARTS)])
        self.work = np.zeros(int(starts[-1]), dtype=np.int64)
        self.work[1:header] = starts
        part = {name: self.work[starts[i]:starts[i + 1]] for i, name in enumerate(WORK_PARTS)}
        self.counts = part["counts"].view(np.int32)[:rules.n_resources]
        self.mask = part["mask"].view(np.int8)[:len(rules.actions)]
        self.virtual, self.way_missing, self.ok_ways = part["virtual"], part["way_missing"], part["ok_ways"]
        self.tries, self.place, self.used_way = part["tries"], part["place"], part["used_way"]
        self.used, self.given, self.amounts = part["used"], part["given"], part["amounts"]
        self.uncertain = bytearray(any(out.slot >= 0 for out in outputs) for outputs in rules.outputs)
        """Per action: whether some way of it has a chance yield or a count range (drawn when sampling)."""
        # What a snapshot holds: the header, the state and the last step's records, not the kernel's scratch (written
        # before it is read in every step: nine tenths of the array), so that a reset copies a tenth of it.
        runs: list[list[int]] = [[0, header]]
        for i, name in enumerate(WORK_PARTS):
            if name in SCRATCH:
                continue
            if runs[-1][1] == starts[i]:
                runs[-1][1] = int(starts[i + 1])
            else:
                runs.append([int(starts[i]), int(starts[i + 1])])
        self._kept = [self.work[lo:hi] for lo, hi in runs]
        ends = np.cumsum([hi - lo for lo, hi in runs]).tolist()
        self._cuts = [slice(end - (hi - lo), end) for (lo, hi), end in zip(runs, ends, strict=True)]

    def load(self, state: State) -> None:
        """Hold ``state`` (copied in)."""
        rules = self.rules
        self.counts[:] = state.counts
        self.mask[:] = np.frombuffer(state.mask, dtype=np.int8)
        self.virtual[:] = state.virtual
        self.way_missing[:] = state.way_missing
        self.ok_ways[:] = state.ok_ways
        self.tries[:] = 0
        self.tries[:rules.n_slots] = state.tries
        self.place[:] = state.place

    def snapshot(self) -> np.ndarray:
        """A copy of the state's arrays (``restore`` puts it back: cheaper than ``load`` from lists)."""
        return np.concatenate(self._kept)

    def restore(self, snapshot: np.ndarray) -> None:
        """Hold a state ``snapshot`` copied."""
        for part, cut in zip(self._kept, self._cuts, strict=True):
            np.copyto(part, snapshot[cut])

    def state(self) -> State:
        """The state held, as ``Rules`` keeps one (lists; a copy: it does not follow later steps)."""
        return State(self.counts.tolist(), self.virtual.tolist(), self.way_missing.tolist(), self.ok_ways.tolist(),
                     bytearray(self.mask.tobytes()), self.tries[:self.rules.n_slots].tolist(), self.counts.copy(),
                     (int(self.place[0]), int(self.place[1])))

    def step(self, a: int, rng: np.random.Generator | None = None) -> int:
        """``act`` without events: what changed, or ``INVALID``."""
        if rng is not None and self.uncertain[a]:
            return self.act(a, rng)[1]
        return int(step_one(self.packed, self.work, a))

    def plain_step(self) -> Callable[[int], int]:
        """``step`` without drawing chance yields (they come where their sure totals grow), as one call of the action.

        The kernel with every argument but the action bound: the least a step can cost from Python.
        """
        return partial(step_one, self.packed, self.work)

    def way(self, a: int) -> int:
        """The way candidate action ``a`` would take now: the first whose needs are met."""
        way_missing = self.way_missing
        ways = self.rules.action_ways[a]
        w = 0
        while way_missing[ways[w]]:
            w += 1
        return w

    def act(self, a: int, rng: np.random.Generator | None = None, events: bool = False,
            wield: Sequence[int] = ()) -> tuple[list[Event] | None, int]:
        """Do action ``a`` exactly as ``Rules.act`` does, when it is a candidate.

        Returns the events (when ``events``, else None) and what changed: ``INVALID`` (``a`` is no candidate:
        nothing was done, nothing drawn), ``UNCHANGED``, ``COUNTS`` (the counts or the place, not the candidates)
        or ``MASK`` (the candidates too). ``rng``: draw chance yields from it (else they come where their sure
        totals grow).
        """
        if not self.mask[a]:
            return None, INVALID
        rules = self.rules
        w = -1
        if rng is not None and self.uncertain[a]:
            w = self.way(a)
            if self.tables.way_find[self.tables.way_start[a] + w]:
                pass  # Rules.effects' shortcut for a find draws nothing
            else:
                column = 0
                for out in rules.way_outputs[a][w]:
                    if out.slot >= 0:
                        self.amounts[column] = int(rng.integers(out.count, out.most + 1)) \
                            if rng.random() < out.chance else 0
                        column += 1
                self.work[SAMPLED] = 1
        wielded = None
        if events and wield:
            counts = self.counts
            wielded = rules.wielded(a, w if w >= 0 else self.way(a), wield, lambda r: int(counts[r]))
        changed = int(step_one(self.packed, self.work, a))
        self.work[SAMPLED] = 0
        if not events:
            return None, changed
        return recorded_events(rules, self.tables, a, int(self.used_way[0]), self.used, self.given,
                               (int(self.place[0]), int(self.place[1])), wielded), changed


__all__ = ["COUNTS", "INVALID", "MASK", "UNCHANGED", "ArrayState"]

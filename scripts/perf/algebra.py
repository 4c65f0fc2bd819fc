"""Benchmark: the task algebra's speed.

Composes and canonicalises 100,000 random molecules of up to 5 atoms, and evaluates a 10,000-event trace against a
20-atom molecule, and against the same molecule under the new operators (3 times, avoiding an atom, within a time
bound; the trace's events a second apart). Prints figures (not a test). Run on one core: ``taskset -c 0 python ...``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from taskverse.algebra.expr import AllOf, AnyOf, AtomRef, Avoid, Repeat, Then, Within, canonical, content_hash
from taskverse.algebra.semantics import Evaluator, GameEvent, Trace
from taskverse.library.loader import load_library
from taskverse.schema import Event

OPERATORS = (AllOf, AnyOf, Then)


def random_expr(rng: random.Random, pool: list[str], atoms: int):
    nodes = [AtomRef(task=rng.choice(pool)) for _ in range(atoms)]
    while len(nodes) > 1:
        i = rng.randrange(len(nodes) - 1)
        nodes[i:i + 2] = [rng.choice(OPERATORS)(parts=(nodes[i], nodes[i + 1]))]
    return nodes[0]


def main() -> int:
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    library = load_library()
    pool = sorted(library.by_id)
    rng = random.Random(0)
    start = time.perf_counter()
    hashes = set()
    for _ in range(100_000):
        hashes.add(content_hash(canonical(random_expr(rng, pool, rng.randint(1, 5)))))
    elapsed = time.perf_counter() - start
    print(f"compose + canonicalise + hash 100,000 molecules (<= 5 atoms): {elapsed:6.2f} s "
          f"({len(hashes):,} distinct)")

    atoms = [t for t in pool if library.by_id[t].goal.event in (Event.CRAFT, Event.MINE, Event.KILL)][:200]
    molecule = random_expr(random.Random(1), atoms, 20)
    goals = [library.by_id[t].goal for t in atoms]
    events = [GameEvent(event=g.event, target=g.target, time=rng.choice(["day", "night"]))
              for g in (rng.choice(goals) for _ in range(10_000))]
    evaluator = Evaluator.for_library(library)
    runs = []
    for _ in range(7):
        start = time.perf_counter()
        evaluator.evaluate(molecule, Trace(events))
        runs.append(time.perf_counter() - start)
    print(f"evaluate a 10,000-event trace against a 20-atom molecule: {statistics.median(runs) * 1000:6.1f} ms "
          f"(median of 7)")

    timed_events = [e.model_copy(update={"clock": float(i)}) for i, e in enumerate(events)]
    avoided = AtomRef(task=next(t for t in pool if t not in atoms and library.by_id[t].goal.event == Event.FIND))
    timed = Within(ticks=20 * 20_000, part=Repeat(times=3, part=AllOf(parts=(molecule, Avoid(part=avoided)))))
    runs = []
    for _ in range(7):
        start = time.perf_counter()
        evaluator.evaluate(timed, timed_events, now=10_000.0)
        runs.append(time.perf_counter() - start)
    print(f"evaluate it against 3 * (that molecule & ~atom) @ within=20000s: {statistics.median(runs) * 1000:6.1f} ms "
          f"(median of 7)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

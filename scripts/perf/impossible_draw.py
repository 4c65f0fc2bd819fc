"""Benchmark: drawing the out-of-reach tasks of ``taskverse engine eval --impossible N``.

Prints figures (not a test): the CPU seconds of a draw in a fresh process (the library, the text world's rules and
the game's model read from the cache, as a second command finds them) with no candidate's proof kept yet, then with
every proof kept (``impossible`` and ``impossible_<game>`` in the cache), and a second draw in the same process;
each draw is checked to be the same tasks in the same order.

    python scripts/perf/impossible_draw.py [GAME] [N] [SEED]     (default minetest_game 4 0)
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

CHILD = """
import json, sys, time
from taskverse.memo import DiskMemo
from taskverse.library.loader import load_library
from taskverse.engine.impossible import engine_impossible_tasks
game, count, seed, cold = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "cold"
if cold:  # the proofs are not read from the cache, nor written to it
    real_get, real_save = DiskMemo.get, DiskMemo.save
    DiskMemo.get = lambda self, key: None if self.kind.startswith("impossible") else real_get(self, key)
    DiskMemo.save = lambda self: None if self.kind.startswith("impossible") else real_save(self)
library = load_library()
library.world  # read from the cache before the clock starts, as every command does
stick = library.get("craft.stick")
times, draws = [], []
for _ in range(2):
    start = time.process_time()
    drawn = engine_impossible_tasks(library, game, count, seed, [("craft.stick", stick)], "task")
    times.append(time.process_time() - start)
    draws.append([e.reference for e in drawn])
print(json.dumps({"times": times, "draws": draws}))
"""


def draw(game: str, count: int, seed: int, mode: str) -> dict:
    done = subprocess.run([sys.executable, "-c", CHILD, game, str(count), str(seed), mode], capture_output=True,
                          text=True, check=True)
    return json.loads(done.stdout)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", nargs="?", default="minetest_game")
    parser.add_argument("count", nargs="?", type=int, default=4, help="the N of --impossible N")
    parser.add_argument("seed", nargs="?", type=int, default=0)
    args = parser.parse_args()
    game, count, seed = args.game, args.count, args.seed
    draw(game, count, seed, "warm")  # fills every cache the draw reads (and its proofs)
    cold = draw(game, count, seed, "cold")
    warm = draw(game, count, seed, "warm")
    same = cold["draws"][0] == warm["draws"][0] == warm["draws"][1] == cold["draws"][1]
    print(f"game {game}, --impossible {count}, seed {seed}: {len(warm['draws'][0])} tasks, same every time: {same}")
    print(f"draw in a fresh process, no proof kept: {cold['times'][0]:.2f} CPU-s")
    print(f"draw in a fresh process, proofs kept:   {warm['times'][0]:.2f} CPU-s")
    print(f"second draw in the same process:        {warm['times'][1]:.2f} CPU-s")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())

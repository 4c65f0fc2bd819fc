"""Benchmark: ``taskverse space`` over the whole library (every atom and naive version). Prints the time."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from tempfile import TemporaryDirectory

from taskverse.benchmarks.space import clustering, embed, scatter_png
from taskverse.cli.space import space_points
from taskverse.library.loader import load_library


def main() -> int:
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    library = load_library()
    start = time.perf_counter()
    points = space_points(None, library)
    scored = time.perf_counter()
    coordinates = embed(points, seed=0)
    embedded = time.perf_counter()
    scores = clustering(points, coordinates)
    with TemporaryDirectory() as tmp:
        scatter_png(points, coordinates, Path(tmp) / "space.png", "library")
    done = time.perf_counter()
    print(f"task space of the whole library: {len(points):,} tasks")
    print(f"  scores {scored - start:6.2f} s, t-SNE {embedded - scored:6.2f} s, "
          f"silhouette + PNG {done - embedded:6.2f} s, total {done - start:6.2f} s")
    print(f"  silhouette of categories: 6-D {scores['silhouette_6d']}, t-SNE {scores['silhouette_2d']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

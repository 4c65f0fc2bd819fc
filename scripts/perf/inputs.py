"""Benchmark: what the checking input layer costs, and how fast hostile input is refused.

Prints figures (not a test): the library's task files parsed by the checking YAML loader (duplicate keys, depth,
alias expansion) against PyYAML's plain C loader; a 1.4 KB file of 40 nested anchors and a 50,000-deep file
refused; `coverage` per unmatched line; a 50 MB line on `play`'s standard input skipped. Run on one core:
``taskset -c 0 python scripts/perf/inputs.py``.
"""

from __future__ import annotations

import argparse
import io
import statistics
import time

import yaml

from taskverse.errors import TaskverseError
from taskverse.fileio import read_line, read_text
from taskverse.library.loader import library_files, load_library
from taskverse.yamlio import parse_yaml


def best_of(func, repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return min(times)


def refused(text: str) -> float:
    start = time.perf_counter()
    try:
        parse_yaml(text)
    except TaskverseError:
        return time.perf_counter() - start
    raise AssertionError("not refused")


def main() -> int:
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    texts = [read_text(p) for p in library_files()]
    size = sum(len(t) for t in texts) / 1e6
    plain = best_of(lambda: [yaml.load(t, Loader=yaml.CSafeLoader) for t in texts])
    checked = best_of(lambda: [parse_yaml(t) for t in texts])
    print(f"library task files ({len(texts)} files, {size:.1f} MB): plain C loader {plain:.3f} s, "
          f"checking loader {checked:.3f} s ({checked / plain:.2f}x)")
    laughs = "a0: &a0 [x, y]\n" + "".join(f"a{i}: &a{i} [*a{i - 1}, *a{i - 1}]\n" for i in range(1, 40))
    print(f"{len(laughs)} bytes of 40 nested anchors (2^40 values) refused in {refused(laughs) * 1000:.1f} ms")
    deep = "[" * 50_000 + "]" * 50_000
    print(f"a list nested 50,000 deep refused in {refused(deep) * 1000:.1f} ms")

    from taskverse.benchmarks.coverage import coverage

    library = load_library()
    lines = [f"zzq{i} florp{i} and then blarg{i}" for i in range(500)]
    start = time.perf_counter()
    report = coverage(lines, library)
    per_line = (time.perf_counter() - start) / len(lines) * 1000
    assert report["covered"] == 0
    print(f"coverage: {per_line:.2f} ms per unmatched line (500 lines)")

    stream = io.BytesIO(b"y" * 50_000_000 + b"\ncraft stick\n")
    start = time.perf_counter()
    try:
        read_line(stream)
    except TaskverseError:
        pass
    assert read_line(stream) == "craft stick\n"
    print(f"a 50 MB line on standard input skipped in {time.perf_counter() - start:.3f} s (read in 64 KB pieces)")
    print(f"(median of the library's file sizes: {statistics.median(len(t) for t in texts) / 1000:.0f} KB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

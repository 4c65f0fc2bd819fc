"""Recompute the calibration table: score every atom and its naive version, then take 5-quantiles (Appendix C)."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime
from typing import Any

from taskverse import __version__
from taskverse.difficulty.calibration import CalibrationTable, quantiles
from taskverse.difficulty.scores import atom_and_naive_scores, context_for, save_scores
from taskverse.schema import DIFFICULTY_DIMENSIONS


def compute_table(library: Any) -> CalibrationTable:
    """Score every atom and its naive version and take the 5-quantiles per dimension (MCU Appendix C)."""
    values: dict[str, list[float]] = {dim: [] for dim in DIFFICULTY_DIMENSIONS}
    sources: dict[str, Counter[str]] = {dim: Counter() for dim in DIFFICULTY_DIMENSIONS}
    undefined: dict[str, int] = dict.fromkeys(DIFFICULTY_DIMENSIONS, 0)
    counts: Counter[str] = Counter()
    for version, _task, raw in atom_and_naive_scores(library):
        counts[version] += 1
        for dim, score in raw.items():
            if score.value is None:
                undefined[dim] += 1
                continue
            values[dim].append(score.value)
            sources[dim][score.source.split(" (")[0]] += 1
    save_scores(library)  # the suite builder and the filters score the same tasks next
    ctx = context_for(library)
    meta = {
        "library_digest": library.digest,
        "date": datetime.now(UTC).strftime("%Y-%m-%d"),
        "taskverse_version": __version__,
        "atoms": counts["atom"],
        "naive_versions": counts["naive"],
        "segment_length_d": ctx.d,
        "raters": sorted(ctx.ratings.raters),
        "agreement_alpha": {dim: ctx.ratings.alpha.get(dim) for dim in ("intricacy", "creativity", "novelty")},
        "trajectory_tasks": len(ctx.trajectories),
        "per_dimension": {dim: {"values": len(values[dim]), "undefined_left_out": undefined[dim],
                                "sources": dict(sorted(sources[dim].items()))} for dim in DIFFICULTY_DIMENSIONS},
    }
    return CalibrationTable({dim: quantiles(values[dim]) for dim in DIFFICULTY_DIMENSIONS}, meta)

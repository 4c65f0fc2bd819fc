"""Calibration of the raw difficulty scores to [0, 5] (MCU Appendix C).

Per dimension, the raw scores of every atom and of its naive-initialized version give the 5-quantiles
Q0 (minimum), Q1..Q4 (the 20/40/60/80 % quantiles, linear interpolation) and Q5 (maximum). A raw score S maps to

    j + (S - Q_j) / (Q_{j+1} - Q_j)   for Q_j <= S < Q_{j+1},   and 5 for S >= Q5,

clamped to 0 below Q0. Where quantiles are equal the half-open interval [Q_j, Q_{j+1}) is empty and S falls in the
next non-empty one, exactly as the formula reads: a score equal to tied quantiles Q_a = ... = Q_b maps to b (to 5
if b is 5). No division by zero can happen, the map is monotone (non-decreasing) and Q_j maps to j whenever Q_j
differs from Q_{j+1}.

The table lives in ``calibration/quantiles.json`` with what it was computed on (library digest, date, version,
counts); ``taskverse calibrate`` rewrites it.

Example:
    >>> calibrate_value(15.0, [0.0, 10.0, 20.0, 30.0, 40.0, 50.0])
    1.5

"""

from __future__ import annotations

import bisect
import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from taskverse.errors import TaskverseError
from taskverse.fileio import read_text
from taskverse.schema import DIFFICULTY_DIMENSIONS

QUANTILE_LEVELS = (0.0, 0.2, 0.4, 0.6, 0.8, 1.0)
TABLE_NAME = "quantiles.json"
FORMAT_VERSION = 1


def calibration_dir() -> Path:
    """The folder holding the calibration table, ratings and trajectories.

    ``$TASKVERSE_CALIBRATION`` when set (to try ratings or trajectories without touching the checkout), else
    ``calibration/`` in the project checkout.
    """
    import os

    from taskverse.paths import project_root

    env = os.environ.get("TASKVERSE_CALIBRATION")
    return Path(env) if env else project_root() / "calibration"


def quantiles(values: Iterable[float]) -> list[float]:
    """The 5-quantiles Q0..Q5 of finite values (NumPy's linear interpolation); order does not matter."""
    data = np.sort(np.array([v for v in values if v is not None and math.isfinite(v)], dtype=float))
    if data.size == 0:
        raise ValueError("no finite values to calibrate on")
    return [float(q) for q in np.quantile(data, QUANTILE_LEVELS)]


def calibrate_value(value: float, q: Sequence[float]) -> float:
    """Map a raw score to [0, 5] with the quantiles ``q`` = (Q0, ..., Q5) (MCU Appendix C)."""
    if len(q) != 6:
        raise ValueError("expected six quantiles Q0..Q5")
    if math.isnan(value):
        raise ValueError("cannot calibrate NaN")
    if value >= q[5]:
        return 5.0
    if value < q[0]:
        return 0.0
    j = min(4, bisect.bisect_right(q, value) - 1)  # the largest j with Q_j <= value; then Q_j <= value < Q_{j+1}
    return j + (value - q[j]) / (q[j + 1] - q[j])


@dataclass
class CalibrationTable:
    """Quantiles per dimension and what they were computed on."""

    quantiles: dict[str, list[float]]
    meta: dict[str, Any]

    def calibrate(self, dimension: str, value: float) -> float:
        """The calibrated score of a raw value on one dimension."""
        return calibrate_value(value, self.quantiles[dimension])

    def stale_for(self, library: Any) -> bool:
        """Whether the table was computed on a different library than ``library``."""
        digest = getattr(library, "digest", "")
        return bool(digest) and self.meta.get("library_digest") != digest

    def to_json(self) -> dict[str, Any]:
        """The table as written to ``quantiles.json``."""
        return {"format": FORMAT_VERSION, "computed_on": self.meta,
                "quantiles": {dim: self.quantiles[dim] for dim in DIFFICULTY_DIMENSIONS}}


def table_path() -> Path:
    """Where the calibration table is read and written (``quantiles.json`` in the calibration folder)."""
    return calibration_dir() / TABLE_NAME


_LOADED: dict[Path, tuple[int, CalibrationTable]] = {}


def load_table(path: Path | None = None) -> CalibrationTable | None:
    """The calibration table, or None if there is none yet (re-read only when the file changes)."""
    path = path or table_path()
    try:
        stamp = path.stat().st_mtime_ns
    except OSError:
        return None
    cached = _LOADED.get(path)
    if cached is not None and cached[0] == stamp:
        return cached[1]
    table = _read_table(path)
    _LOADED[path] = (stamp, table)
    return table


def _read_table(path: Path) -> CalibrationTable:
    try:
        data = json.loads(read_text(path, "calibration table"))
        table = CalibrationTable({dim: [float(v) for v in data["quantiles"][dim]] for dim in DIFFICULTY_DIMENSIONS},
                                 dict(data.get("computed_on") or {}))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise TaskverseError(f"unreadable calibration table ({exc}); run 'taskverse calibrate'", file=path) from None
    for dim, q in table.quantiles.items():
        if len(q) != 6 or any(b < a for a, b in zip(q, q[1:], strict=False)):
            raise TaskverseError("quantiles must be six non-decreasing numbers; run 'taskverse calibrate'",
                                 file=path, field=f"quantiles.{dim}")
    return table


def require_table(path: Path | None = None) -> CalibrationTable:
    """The calibration table; a clear error if there is none."""
    table = load_table(path)
    if table is None:
        raise TaskverseError("no calibration table yet; run 'taskverse calibrate' (or use --raw)",
                             file=path or table_path())
    return table


def save_table(table: CalibrationTable, path: Path | None = None, force: bool = False) -> Path:
    """Write the table atomically (a unique temporary name, then a rename) and return where.

    Without ``path`` it goes to the calibration folder, which this function maintains; elsewhere an existing
    file is replaced only with ``force``.
    """
    from taskverse.fileio import write_text

    text = json.dumps(table.to_json(), indent=2) + "\n"
    if path is None:
        return write_text(table_path(), text, maintains=calibration_dir())
    return write_text(path, text, force=force)

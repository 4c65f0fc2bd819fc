"""Bias of benchmarks (MCU Section 4.3, Figure 4): how calibrated difficulty is distributed in two task sets.

Per dimension, scores in [0, 5] fall into five unit bins. For each pair of sets this module gives the binned
distributions (the heatmap of Figure 4), the Jensen-Shannon divergence (base 2, in [0, 1]) and the 1-Wasserstein
distance between them, and each set's spread as the normalised entropy of its bins (1 = perfectly even).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from taskverse.schema import DIFFICULTY_DIMENSIONS

BINS = np.arange(6, dtype=float)  # edges 0..5; a score of exactly 5 falls in the last bin


def histogram(scores: np.ndarray) -> np.ndarray:
    """Share of scores in each unit bin of [0, 5]."""
    if len(scores) == 0:
        return np.zeros(5)
    counts, _ = np.histogram(np.clip(scores, 0, 5), bins=BINS)
    return counts / counts.sum()


def entropy(shares: np.ndarray) -> float:
    """Normalised Shannon entropy of a binned distribution (0 = one bin, 1 = even)."""
    p = shares[shares > 0]
    return float(-(p * np.log(p)).sum() / np.log(len(shares))) if len(p) else 0.0


def jensen_shannon(p: np.ndarray, q: np.ndarray) -> float:
    """Jensen-Shannon divergence in bits (0 = same distribution, 1 = disjoint)."""
    m = (p + q) / 2

    def kl(a: np.ndarray, b: np.ndarray) -> float:
        mask = a > 0
        return float((a[mask] * np.log2(a[mask] / b[mask])).sum())

    return 0.5 * kl(p, m) + 0.5 * kl(q, m)


def wasserstein(a: np.ndarray, b: np.ndarray) -> float:
    """1-Wasserstein distance between two samples of scores (the area between their CDFs)."""
    if len(a) == 0 or len(b) == 0:
        return float("nan")
    grid = np.sort(np.concatenate([a, b]))
    cdf_a = np.searchsorted(np.sort(a), grid[:-1], side="right") / len(a)
    cdf_b = np.searchsorted(np.sort(b), grid[:-1], side="right") / len(b)
    return float(np.sum(np.abs(cdf_a - cdf_b) * np.diff(grid)))


@dataclass
class Comparison:
    """Per-dimension comparison of two task sets' calibrated difficulty."""

    names: tuple[str, str]
    sizes: tuple[int, int]
    histograms: dict[str, tuple[list[float], list[float]]]
    jensen_shannon: dict[str, float]
    wasserstein: dict[str, float]
    spread: dict[str, tuple[float, float]]
    means: dict[str, tuple[float, float]]

    def to_json(self) -> dict[str, Any]:
        """Plain data for ``--format json``."""
        return {
            "sets": {name: {"tasks": size} for name, size in zip(self.names, self.sizes, strict=True)},
            "dimensions": {
                d: {
                    "histogram": dict(zip(self.names, self.histograms[d], strict=True)),
                    "mean": dict(zip(self.names, self.means[d], strict=True)),
                    "spread_entropy": dict(zip(self.names, self.spread[d], strict=True)),
                    "jensen_shannon": self.jensen_shannon[d],
                    "wasserstein": self.wasserstein[d],
                }
                for d in DIFFICULTY_DIMENSIONS
            },
        }


def compare(first: np.ndarray, second: np.ndarray, names: tuple[str, str]) -> Comparison:
    """Compare two (n, 6) arrays of calibrated scores, dimension by dimension."""
    hist, js, ws, spread, means = {}, {}, {}, {}, {}
    for j, dim in enumerate(DIFFICULTY_DIMENSIONS):
        a, b = first[:, j], second[:, j]
        ha, hb = histogram(a), histogram(b)
        hist[dim] = (ha.round(4).tolist(), hb.round(4).tolist())
        js[dim] = round(jensen_shannon(ha, hb), 4)
        ws[dim] = round(wasserstein(a, b), 4)
        spread[dim] = (round(entropy(ha), 4), round(entropy(hb), 4))
        means[dim] = (round(float(a.mean()), 3) if len(a) else float("nan"),
                      round(float(b.mean()), 3) if len(b) else float("nan"))
    return Comparison(names, (len(first), len(second)), hist, js, ws, spread, means)


def heatmap(comparison: Comparison, path: Path) -> None:
    """Figure 4: one panel per set, dimensions by score bins, darker = more tasks."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = [d.replace("_", " ") for d in DIFFICULTY_DIMENSIONS]
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), sharey=True)
    for k, ax in enumerate(axes):
        grid = np.array([comparison.histograms[d][k] for d in DIFFICULTY_DIMENSIONS])
        image = ax.imshow(grid, cmap="Blues", vmin=0, vmax=max(0.01, float(grid.max())), aspect="auto")
        ax.set_xticks(range(5), [f"{i}-{i + 1}" for i in range(5)])
        ax.set_yticks(range(len(labels)), labels)
        ax.set_xlabel("calibrated score")
        ax.set_title(f"{comparison.names[k]} ({comparison.sizes[k]} tasks)")
        for i in range(grid.shape[0]):
            for j in range(grid.shape[1]):
                ax.text(j, i, f"{grid[i, j]:.2f}", ha="center", va="center", fontsize=7,
                        color="white" if grid[i, j] > 0.5 * grid.max() else "black")
    fig.colorbar(image, ax=axes, shrink=0.8, label="share of tasks")
    fig.suptitle("Difficulty distributions (MCU Figure 4)")
    fig.savefig(path, dpi=120, bbox_inches="tight")
    plt.close(fig)

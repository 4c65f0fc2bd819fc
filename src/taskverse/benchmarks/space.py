"""The task space (MCU Section 4.2, Figure 3): t-SNE of calibrated difficulty vectors, radar charts, clustering.

Each task is a point in R^6 (its calibrated scores). ``embed`` projects a set of tasks to 2-D with t-SNE
(scikit-learn), deterministically from a seed and with a perplexity that adapts to small sets; ``clustering``
reports how well the categories cluster (silhouette scores in the 6-D space and in the embedding); the drawing
functions write a PNG scatter coloured by category, an interactive HTML page, and a per-task radar chart.
"""

from __future__ import annotations

import html
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from taskverse.errors import TaskverseError
from taskverse.schema import DIFFICULTY_DIMENSIONS

CATEGORY_COLOURS = {
    "mining": "#8c564b", "navigation": "#1f77b4", "crafting": "#ff7f0e", "exploitation": "#9467bd",
    "combat": "#d62728", "building": "#2ca02c", "misc": "#7f7f7f", "molecule": "#17becf",
}


@dataclass
class Point:
    """One task in the task space."""

    id: str
    description: str
    category: str
    vector: list[float]


def perplexity_for(n: int, wanted: float = 30.0) -> float:
    """scikit-learn needs perplexity < n; small suites get a proportionally smaller one."""
    return float(max(2.0, min(wanted, (n - 1) / 3.0)))


def embed(points: list[Point], seed: int = 0, perplexity: float = 30.0) -> np.ndarray:
    """2-D t-SNE coordinates of the points (deterministic for a seed)."""
    try:
        from sklearn.manifold import TSNE
    except ImportError as exc:  # pragma: no cover - depends on the installed extras
        raise TaskverseError("the task space needs scikit-learn: pip install 'taskverse[analysis]'") from exc
    if len(points) < 4:
        raise TaskverseError(f"t-SNE needs at least 4 tasks, got {len(points)}")
    from threadpoolctl import threadpool_limits

    data = np.array([p.vector for p in points], dtype=float)
    tsne = TSNE(n_components=2, perplexity=perplexity_for(len(points), perplexity), random_state=seed,
                init="pca", learning_rate="auto", max_iter=1000)
    # One thread: on a busy 2-core machine OpenMP's spinning threads made this 20x slower, and results stay
    # identical across machines with different core counts.
    with threadpool_limits(limits=1):
        return np.asarray(tsne.fit_transform(data))


def clustering(points: list[Point], coordinates: np.ndarray | None = None) -> dict[str, float | None]:
    """Silhouette scores of the category labels in the 6-D space and in the embedding (-1..1; > 0 clusters)."""
    from sklearn.metrics import silhouette_score

    labels = [p.category for p in points]
    if len(set(labels)) < 2 or len(points) <= len(set(labels)):
        return {"silhouette_6d": None, "silhouette_2d": None}
    data = np.array([p.vector for p in points], dtype=float)
    result: dict[str, float | None] = {"silhouette_6d": round(float(silhouette_score(data, labels)), 4)}
    result["silhouette_2d"] = (round(float(silhouette_score(coordinates, labels)), 4)
                               if coordinates is not None else None)
    return result


def scatter_png(points: list[Point], coordinates: np.ndarray, path: Path, title: str,
                label_ids: list[str] | None = None) -> None:
    """Figure 3 (right): the embedding coloured by category, with a legend and labels for chosen tasks."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(9, 7))
    categories = sorted({p.category for p in points})
    for category in categories:
        idx = [i for i, p in enumerate(points) if p.category == category]
        ax.scatter(coordinates[idx, 0], coordinates[idx, 1], s=14, alpha=0.75, label=f"{category} ({len(idx)})",
                   color=CATEGORY_COLOURS.get(category, "#333333"))
    wanted = set(label_ids or [])
    for i, p in enumerate(points):
        if p.id in wanted:
            ax.annotate(p.description, coordinates[i], fontsize=7, xytext=(3, 3), textcoords="offset points")
    ax.legend(title="category", fontsize=8, loc="best")
    ax.set_title(title)
    ax.set_xticks([])
    ax.set_yticks([])
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def scatter_html(points: list[Point], coordinates: np.ndarray, path: Path, title: str) -> None:
    """An interactive page (plain SVG and a few lines of script, no network): hovering shows each task."""
    xs, ys = coordinates[:, 0], coordinates[:, 1]
    span_x = float(xs.max() - xs.min()) or 1.0
    span_y = float(ys.max() - ys.min()) or 1.0
    circles = []
    for i, p in enumerate(points):
        cx = 20 + 760 * (xs[i] - xs.min()) / span_x
        cy = 20 + 560 * (ys[i] - ys.min()) / span_y
        info = json.dumps({"id": p.id, "description": p.description, "category": p.category,
                           "scores": dict(zip(DIFFICULTY_DIMENSIONS, p.vector, strict=True))})
        circles.append(
            f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="4" fill="{CATEGORY_COLOURS.get(p.category, "#333")}" '
            f"data-info='{html.escape(info, quote=True)}'><title>{html.escape(p.description)}</title></circle>")
    legend = "".join(f'<span style="color:{c}">&#9679; {html.escape(k)}</span> ' for k, c in CATEGORY_COLOURS.items()
                     if any(p.category == k for p in points))
    page = f"""<!doctype html>
<html><head><meta charset="utf-8"><title>{html.escape(title)}</title>
<style>body{{font-family:sans-serif}} #info{{white-space:pre;font-size:12px}} circle:hover{{stroke:#000}}</style>
</head><body><h3>{html.escape(title)}</h3><div>{legend}</div>
<svg width="800" height="600" style="border:1px solid #ccc">{''.join(circles)}</svg>
<div id="info">hover over a task</div>
<script>
for (const c of document.querySelectorAll('circle')) {{
  c.addEventListener('mouseenter', () => {{
    document.getElementById('info').textContent = JSON.stringify(JSON.parse(c.dataset.info), null, 2);
  }});
}}
</script></body></html>
"""
    path.write_text(page, encoding="utf-8")


def radar(point: Point, path: Path) -> None:
    """Figure 3 (left): one task's six calibrated scores as a radar chart."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    angles = np.linspace(0, 2 * np.pi, len(DIFFICULTY_DIMENSIONS), endpoint=False).tolist()
    values = list(point.vector)
    fig, ax = plt.subplots(figsize=(4.6, 4.6), subplot_kw={"polar": True})
    ax.plot([*angles, angles[0]], [*values, values[0]], color=CATEGORY_COLOURS.get(point.category, "#333"))
    ax.fill([*angles, angles[0]], [*values, values[0]], alpha=0.25,
            color=CATEGORY_COLOURS.get(point.category, "#333"))
    ax.set_xticks(angles, [d.replace("_", "\n") for d in DIFFICULTY_DIMENSIONS], fontsize=8)
    ax.set_ylim(0, 5)
    ax.set_title(point.description, fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)

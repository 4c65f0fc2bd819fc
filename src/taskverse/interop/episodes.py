"""A folder of episodes rated one by one (``taskverse rate-video DIR --each``): the episodes, their tasks, a summary.

An episode is an entry of the folder: a subfolder of PNG/JPEG frames or a video file, taken in the natural
order of their names (``2-1`` before ``10-1``). Its task is the one ``--task`` names, or, for the folders
``taskverse engine eval --screenshots DIR`` writes (``<task index>-<episode>``), the task at that index of the
run's report (``--report``). An episode that cannot be read or rated is recorded with its error and the others go
on: one bad episode fails itself, not the batch.

Example:
    >>> episode_index("3-2")
    3
    >>> summarise([{"scores": {"Task Progress": 4, "Action Control": 6}, "complete": True}])["mean"]
    {'Task Progress': 4.0, 'Action Control': 6.0}

"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from taskverse.errors import TaskverseError
from taskverse.interop.frames import IMAGE_SUFFIXES, VIDEO_SUFFIXES, natural_key

MAX_EPISODES = 1000
"""Episodes one batch rates."""
MAX_REPORT_BYTES = 256 * 1024 * 1024
"""The largest run report read for its tasks."""


def episode_sources(folder: Path) -> list[Path]:
    """The episodes of a folder: its subfolders that hold frames and its video files, in natural order."""
    from taskverse.fileio import os_reason

    if not folder.is_dir():
        raise TaskverseError("--each needs a folder of episodes (subfolders of frames, or video files)",
                             file=folder)
    try:
        entries = sorted(folder.iterdir(), key=natural_key)
    except OSError as exc:
        raise TaskverseError(f"cannot list the folder: {os_reason(exc)}", file=folder) from None
    found = [p for p in entries if (p.is_dir() and _holds_frames(p)) or
             (p.is_file() and p.suffix.lower() in VIDEO_SUFFIXES)]
    if not found:
        raise TaskverseError("holds no episodes: no subfolder of .png/.jpg frames and no video file", file=folder)
    if len(found) > MAX_EPISODES:
        raise TaskverseError(f"holds {len(found)} episodes; at most {MAX_EPISODES} are rated at once", file=folder)
    return found


def _holds_frames(folder: Path) -> bool:
    try:
        return any(p.suffix.lower() in IMAGE_SUFFIXES for p in folder.iterdir())
    except OSError:
        return False


def episode_index(name: str) -> int | None:
    """The task index of an engine eval screenshots folder's name (``<task index>-<episode>``), else None."""
    found = re.fullmatch(r"(\d{1,6})-\d{1,6}", name)
    return int(found.group(1)) if found else None


def report_tasks(path: Path) -> list[str]:
    """The task ids of a run report (``taskverse engine eval -o`` or ``taskverse eval -o``), by task index."""
    from taskverse.fileio import read_json

    report = read_json(path, "run report", MAX_REPORT_BYTES)
    tasks = report.get("tasks") if isinstance(report, dict) else None
    if not isinstance(tasks, list) or not all(isinstance(t, dict) for t in tasks):
        raise TaskverseError("not a run report of taskverse eval or engine eval (expected a 'tasks' list)", file=path)
    ids = [t.get("task") if isinstance(t.get("task"), str) else t.get("id") for t in tasks]
    if not all(isinstance(i, str) and i for i in ids):
        raise TaskverseError("a task of the report has no 'task' or 'id'", file=path)
    return [str(i) for i in ids]


def task_for(source: Path, given: str | None, tasks: Sequence[str] | None) -> str:
    """The task an episode played: ``given``, else the report's task at the folder name's index."""
    if given is not None:
        return given
    index = episode_index(source.stem if source.is_file() else source.name)
    if tasks is None or index is None:
        raise TaskverseError("cannot tell which task this episode played: give --task, or --report with folders "
                             "named <task index>-<episode> as engine eval --screenshots writes them", file=source)
    if index >= len(tasks):
        raise TaskverseError(f"task index {index}, but the report has {len(tasks)} tasks", file=source)
    return tasks[index]


def summarise(results: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Episodes rated, complete and failed, and each section's mean score over the complete ratings."""
    complete = [r for r in results if r.get("complete")]
    sections: dict[str, list[float]] = {}
    for result in complete:
        for name, score in result["scores"].items():
            sections.setdefault(name, []).append(float(score))
    mean = {name: round(sum(values) / len(values), 3) for name, values in sections.items()}
    return {"episodes": len(results), "complete": len(complete), "incomplete": len(results) - len(complete),
            "mean": mean, "overall": round(sum(mean.values()) / len(mean), 3) if mean else None}


__all__ = ["MAX_EPISODES", "episode_index", "episode_sources", "report_tasks", "summarise", "task_for"]

"""The grounding gap: where an agent that succeeds in the text world fails in the engine, and why.

Reads a text-world report (``taskverse eval ... -o TEXT.json``) and an engine report (``taskverse engine eval ...
-o ENGINE.json``) of the same tasks, matches tasks by id, and sorts each into ``both`` (succeeded in both worlds,
at least once), ``text only`` (the gap: the engine's failures with their reasons), ``engine only``, ``neither``,
``not compiled`` (the engine report lists it as not compiling, with the compiler's reason) or ``text world only``
(the engine report does not hold it). Per category: how many tasks of each kind and both worlds' success rates.
The impossible tasks of a run with ``--impossible`` are left out: no world can do them, and each report scores
its agent's give-up by F1 apart.

Example:
    >>> text = {"agent": "optimal", "tasks": [{"id": "craft.stick", "category": "crafting",
    ...          "episodes": [{"success": True}]}]}
    >>> engine = {"agent": "optimal", "game": "minetest_game", "tasks": [{"task": "craft.stick", "name": "craft.stick",
    ...           "category": "crafting", "compiled": True, "episodes": [{"success": False, "reason": "step limit"}]}]}
    >>> gap_report(text, engine)["tasks"][0]["kind"]
    'text only'

"""

from __future__ import annotations

from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from taskverse.errors import TaskverseError

KINDS = ("both", "text only", "engine only", "neither", "not compiled", "text world only")
MAX_REPORT_BYTES = 256 * 1024 * 1024


def load_report(path: Path, world: str) -> dict[str, Any]:
    """A report file of one world (``text`` or ``engine``), checked to be one."""
    from taskverse.fileio import read_json

    data = read_json(path, f"{world} report (JSON)", MAX_REPORT_BYTES)
    if not isinstance(data, dict) or not isinstance(data.get("tasks"), list):
        raise TaskverseError(f"not a {world} report: no list of tasks", file=path)
    engine_like = "game" in data and all("compiled" in t for t in data["tasks"] if isinstance(t, dict))
    if world == "engine" and not engine_like:
        raise TaskverseError("not an engine report (write one with: taskverse engine eval ... -o FILE)", file=path)
    if world == "text" and engine_like:
        raise TaskverseError("this is an engine report; the first file is the text world's (taskverse eval ... -o "
                             "FILE)", file=path)
    return data


def _rate(runs: list[dict[str, Any]]) -> float | None:
    return sum(bool(r.get("success")) for r in runs) / len(runs) if runs else None


def gap_report(text: dict[str, Any], engine: dict[str, Any]) -> dict[str, Any]:
    """The gap between a text-world report and an engine report (see the module docstring)."""
    from taskverse.engine.evaluation import failure_group

    engine_tasks: dict[str, dict[str, Any]] = {}
    for entry in engine["tasks"]:
        if "impossible" not in entry:
            engine_tasks.setdefault(str(entry.get("task")), entry)
            engine_tasks.setdefault(str(entry.get("name")), entry)
    rows = []
    for entry in text["tasks"]:
        if "impossible" in entry:  # out of reach in every world: scored by each report's give-up F1
            continue
        task_id = str(entry.get("id") or entry.get("task"))
        text_rate = _rate(entry.get("episodes") or [])
        other = engine_tasks.get(task_id) or engine_tasks.get(str(entry.get("task")))
        row: dict[str, Any] = {"task": task_id, "description": entry.get("description"),
                               "category": entry.get("category") or (other or {}).get("category") or "?",
                               "text_success_rate": text_rate, "engine_success_rate": None}
        if other is None:
            row["kind"] = "text world only"
        elif not other.get("compiled", True):
            row.update(kind="not compiled", why=other.get("reason"))
        else:
            runs = other.get("episodes") or []
            engine_rate = _rate(runs)
            row["engine_success_rate"] = engine_rate
            text_ok, engine_ok = bool(text_rate), bool(engine_rate)
            row["kind"] = ("both" if engine_ok else "text only") if text_ok else \
                ("engine only" if engine_ok else "neither")
            failed = [r for r in runs if not r.get("success")]
            if failed and row["kind"] in ("text only", "neither"):
                reasons = [str(r.get("error") or r.get("reason") or "not done") for r in failed]
                row["why"] = reasons[0]
                row["why_kinds"] = dict(Counter(failure_group(reason) for reason in reasons))
        rows.append(row)
    by_category: dict[str, dict[str, Any]] = {}
    grouped: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        grouped[row["category"]].append(row)
    for category, group in sorted(grouped.items()):
        kinds = Counter(row["kind"] for row in group)
        text_rates = [r["text_success_rate"] for r in group if r["text_success_rate"] is not None]
        engine_rates = [r["engine_success_rate"] for r in group if r["engine_success_rate"] is not None]
        by_category[category] = {
            "tasks": len(group), **{kind: kinds.get(kind, 0) for kind in KINDS},
            "text_success_rate": sum(text_rates) / len(text_rates) if text_rates else None,
            "engine_success_rate": sum(engine_rates) / len(engine_rates) if engine_rates else None,
        }
    gap_reasons = Counter(kind for row in rows if row["kind"] == "text only" for kind in row.get("why_kinds", {}))
    return {"text_agent": text.get("agent"), "engine_agent": engine.get("agent"), "game": engine.get("game"),
            "summary": {"tasks": len(rows), **{kind: sum(r["kind"] == kind for r in rows) for kind in KINDS},
                        "gap_reasons": dict(gap_reasons.most_common())},
            "by_category": by_category, "tasks": rows}


def gap_lines(report: dict[str, Any]) -> list[str]:
    """The gap report as text: the summary, each task the engine fails where the text world succeeds, categories."""
    s = report["summary"]
    lines = [f"{report['text_agent']} (text) vs {report['engine_agent']} ({report['game']}): {s['tasks']} tasks; "
             + ", ".join(f"{s[kind]} {kind}" for kind in KINDS if s[kind])]
    for row in report["tasks"]:
        if row["kind"] == "text only":
            lines.append(f"  gap: {row['task']} ({row['category']}): {row.get('why') or '?'}")
    for row in report["tasks"]:
        if row["kind"] == "not compiled":
            lines.append(f"  not in the engine: {row['task']}: {row.get('why')}")
    for category, c in report["by_category"].items():
        text_rate = "-" if c["text_success_rate"] is None else f"{100 * c['text_success_rate']:.0f}%"
        engine_rate = "-" if c["engine_success_rate"] is None else f"{100 * c['engine_success_rate']:.0f}%"
        lines.append(f"  {category}: {c['tasks']} tasks, text {text_rate}, engine {engine_rate}, "
                     f"{c['text only']} only in text, {c['not compiled']} not compiled")
    return lines

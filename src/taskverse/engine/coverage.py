"""How much of the atom library compiles for an engine game, and why the rest does not.

Each atom that does not compile is counted under the reason of its first problem (``item with no counterpart``,
``biome with no counterpart``...); the report also names the Minecraft names missing most often, so the mapping
can be extended where it pays. With ``check``, every compiled mod is written out and passed through
``luajit -bl`` and luacheck.
"""

from __future__ import annotations

import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from taskverse.engine.compiler import Compiler, Problem
from taskverse.engine.lua import luacheck, luajit_check, render_mod


def coverage(library: Any, game: str = "minetest_game", *, check: bool = False, examples: int = 3) -> dict[str, Any]:
    """The coverage report (see the module docstring); ``check`` also lints every compiled mod."""
    started = time.monotonic()
    compiler = Compiler(library, game)
    compiled: list[Any] = []
    world = library.world
    scratch = {t.id for t in library.tasks if world.task_rank(t.id) != float("inf")}
    failed: dict[str, list[Problem]] = {}
    by_verb: dict[str, Counter[str]] = defaultdict(Counter)
    by_category: dict[str, Counter[str]] = defaultdict(Counter)
    for task in library.tasks:
        verb = task.goal.event.value
        problems = compiler.problems(task)
        ok = not problems
        for table, key in ((by_verb, verb), (by_category, task.category.value)):
            table[key]["atoms"] += 1
            table[key]["compiled"] += ok
        if ok:
            compiled.append(task)
        else:
            failed[task.id] = problems
    compile_seconds = time.monotonic() - started
    primary: dict[str, list[str]] = defaultdict(list)
    names: dict[str, Counter[str]] = defaultdict(Counter)
    anywhere: Counter[str] = Counter()
    for task_id, problems in failed.items():
        primary[problems[0].reason].append(task_id)
        for reason in dict.fromkeys(p.reason for p in problems):
            anywhere[reason] += 1
        for problem in problems:
            names[problem.reason][problem.name] += 1
    total = len(library.tasks)
    report: dict[str, Any] = {
        "game": game,
        "atoms": total,
        "compiled": len(compiled),
        "share": round(len(compiled) / total, 4) if total else 0.0,
        # the atoms a player can do from an empty inventory (the world model's rank is finite)
        "solvable_from_scratch": {
            "atoms": len(scratch), "compiled": sum(1 for t in compiled if t.id in scratch),
            "share": round(sum(1 for t in compiled if t.id in scratch) / len(scratch), 4) if scratch else 0.0,
        },
        "by_verb": {k: dict(v) for k, v in sorted(by_verb.items())},
        "by_category": {k: dict(v) for k, v in sorted(by_category.items())},
        "reasons": [
            {"reason": reason, "atoms": len(ids), "atoms_with_this_problem": anywhere[reason],
             "most_missing": [[n, c] for n, c in names[reason].most_common(8)], "examples": sorted(ids)[:examples]}
            for reason, ids in sorted(primary.items(), key=lambda kv: (-len(kv[1]), kv[0]))
        ],
        "compile_seconds": round(compile_seconds, 3),
    }
    if check:
        report["check"] = check_compiled(compiler, compiled)
    return report


def check_compiled(compiler: Compiler, tasks: list[Any]) -> dict[str, Any]:
    """Write every task's generated mod and run ``luajit -bl`` and luacheck over all of them."""
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="taskverse-lua-") as tmp:
        paths = []
        for task in tasks:
            path = Path(tmp) / f"{task.id}.lua"
            path.write_text(render_mod(compiler.compile(task))["init.lua"], encoding="utf-8")
            paths.append(path)
        jit_failures = luajit_check(paths)
        code, output = luacheck(paths)
    problems = [line for line in output.splitlines() if ": (" in line]
    return {
        "files": len(tasks),
        "luajit_failures": {Path(p).stem: e for p, e in sorted(jit_failures.items())},
        "luacheck_exit": code,
        "luacheck_problems": problems[:20],
        "seconds": round(time.monotonic() - started, 3),
    }

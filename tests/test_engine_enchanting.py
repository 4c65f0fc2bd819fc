"""The generated game's enchanting table, played in the engine.

A try the table refuses names what it lacks (the table's own reason, through its ``_taskverse_refusal``): no
bookshelves around it.
"""

from __future__ import annotations

import pytest

from engine_support import ENGINE_TIMEOUT, need_engine
from taskverse.engine.compiler import compile_task

GAME = "taskverse_mc"

TASK = "enchant.silk_touch_iron_pickaxe"

#: The table placed where the scripted player puts it, and the pickaxe used on it with no bookshelf around it.
BARE_TABLE = [
    {"do": "place", "item": "minecraft:enchanting_table", "at": [0, 0, 6]},
    {"do": "enchant", "node": "minecraft:enchanting_table", "tool": "minecraft:iron_pickaxe", "count": 1},
]


@pytest.fixture(scope="module")
def played(library):
    need_engine(client=True)
    from taskverse.engine.harness import Plan
    from taskverse.engine.runner import run_jobs

    task = library.get(TASK)
    ir = compile_task(task, library, GAME)
    (bare,) = run_jobs([(task, ir, Plan.model_validate({"steps": BARE_TABLE}))], library=library,
                       timeout=ENGINE_TIMEOUT)
    return {"bare": bare}


def test_a_refused_try_names_what_the_table_lacks(played):
    report = played["bare"]
    assert report.error is None, report.engine_errors
    error = report.plan_error or ""
    assert "took nothing for minecraft:iron_pickaxe" in error
    assert error.endswith(": 0 bookshelves around it, 15 needed")

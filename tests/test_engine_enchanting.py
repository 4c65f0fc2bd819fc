"""The generated game's enchanting table, played in the engine.

The scripted player sets the table up at the start with the bookshelf ring ``enchanting.yaml`` asks for (15, two
blocks out) and enchants a pickaxe: every step must do what it says (a bookshelf that lands below its spot leaves the
table one short, and the try is refused), not only the table's use the goal counts; so must a ring whose first
bookshelf goes over a hole (a block placed at a spot goes there, not into the hole below it). A try the table refuses
names what it lacks (the table's own reason, through its ``_taskverse_refusal``): no bookshelves around it; and it
is no enchanting (no use of the table is counted for it).
"""

from __future__ import annotations

import pytest

from engine_support import ENGINE_TIMEOUT, assert_solved, need_engine
from taskverse.engine.compiler import compile_task
from taskverse.engine.gamegen.content import bookshelf_ring
from taskverse.engine.planner import ENCHANT_AT, plan_task

GAME = "taskverse_mc"

TASK = "enchant.silk_touch_iron_pickaxe"

#: The table placed where the scripted player puts it, and the pickaxe used on it with no bookshelf around it.
BARE_TABLE = [
    {"do": "place", "item": "minecraft:enchanting_table", "at": list(ENCHANT_AT)},
    {"do": "enchant", "node": "minecraft:enchanting_table", "tool": "minecraft:iron_pickaxe", "count": 1},
]

#: The table and the 15 bookshelves of the scripted player's ring, a hole dug under the first one's spot first, and
#: one try: the bookshelf must stand at its spot for the table to count it.
X, Y, Z = ENCHANT_AT
OVER_A_HOLE = [
    {"do": "place", "item": "minecraft:enchanting_table", "at": [X, Y, Z]},
    # the ground there (a dig at `at` digs what it finds; the node names it for the plan's reader)
    {"do": "dig", "node": "minecraft:grass_block", "at": [X - 2, Y - 1, Z - 2], "tool": "minecraft:iron_pickaxe"},
    *({"do": "place", "item": "minecraft:bookshelf", "at": [X + dx, Y + dy, Z + dz]}
      for dx, dy, dz in bookshelf_ring()[:15]),
    {"do": "enchant", "node": "minecraft:enchanting_table", "tool": "minecraft:iron_pickaxe", "count": 1},
]


@pytest.fixture(scope="module")
def played(library):
    need_engine(client=True)
    from taskverse.engine.harness import Plan
    from taskverse.engine.runner import run_jobs

    task = library.get(TASK)
    ir = compile_task(task, library, GAME)
    plans = {"scripted": plan_task(task, ir, library), "bare": Plan.model_validate({"steps": BARE_TABLE}),
             "hole": Plan.model_validate({"steps": OVER_A_HOLE, "stop_on_success": False})}
    reports = run_jobs([(task, ir, plan) for plan in plans.values()], library=library, parallel=2,
                       timeout=ENGINE_TIMEOUT)
    return dict(zip(plans, reports, strict=True))


def test_the_scripted_player_enchants_with_every_step_done(played):
    report = played["scripted"]
    assert_solved(report)
    assert report.plan_error is None
    placed = [s for s in report.steps if s["do"] == "place"]
    assert len(placed) == 1 + 15 and all(s["ok"] for s in placed)  # the table and enchanting.yaml's bookshelves
    (enchant,) = [s for s in report.steps if s["do"] == "enchant"]
    assert enchant["ok"], enchant.get("error")


def test_a_bookshelf_placed_over_a_hole_stands_at_its_spot(played):
    report = played["hole"]
    assert report.error is None, report.engine_errors
    assert report.plan_error is None
    assert [s["do"] for s in report.steps if s["ok"]] == [s["do"] for s in OVER_A_HOLE]


def test_a_refused_try_names_what_the_table_lacks(played):
    report = played["bare"]
    assert report.error is None, report.engine_errors
    error = report.plan_error or ""
    assert "took nothing for minecraft:iron_pickaxe" in error
    assert error.endswith(": 0 bookshelves around it, 15 needed")
    # the refused try is no enchanting: the table's use is counted when it takes a try, not at the right-click
    assert not report.success
    used = [(e["game_event"]["target"], e["game_event"].get("held")) for e in report.events
            if e["game_event"]["event"] == "use"]
    assert ("enchanting_table", "iron_pickaxe") not in used, used  # (the table placed is its own use, held itself)

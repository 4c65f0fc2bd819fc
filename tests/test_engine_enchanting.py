"""The generated game's enchanting table, played in the engine.

The scripted player sets the table up at the start with the bookshelf ring ``enchanting.yaml`` asks for (15, two
blocks out) and enchants a pickaxe: every step must do what it says (a bookshelf that lands below its spot leaves the
table one short, and the try is refused), not only the table's use the goal counts; so must a ring whose first
bookshelf goes over a hole (a block placed at a spot goes there, not into the hole below it). A try the table refuses
names what it lacks (the table's own reason, through its ``_taskverse_refusal``): no bookshelves around it; and it
is no enchanting (no use of the table is counted for it). A flower between the table and a bookshelf stops its power
(Minecraft 1.20's ``enchantment_power_transmitter`` tag holds air and the replaceable blocks, no flower): the table
counts 14, until the scripted player's ``clear`` digs the flower away.
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

#: The table and the 15 bookshelves of the scripted player's ring, a hole dug under the first one's spot first, the
#: ring cleared and one try: the bookshelf must stand at its spot for the table to count it.
X, Y, Z = ENCHANT_AT
OVER_A_HOLE = [
    {"do": "place", "item": "minecraft:enchanting_table", "at": [X, Y, Z]},
    # the ground there (a dig at `at` digs what it finds; the node names it for the plan's reader)
    {"do": "dig", "node": "minecraft:grass_block", "at": [X - 2, Y - 1, Z - 2], "tool": "minecraft:iron_pickaxe"},
    *({"do": "place", "item": "minecraft:bookshelf", "at": [X + dx, Y + dy, Z + dz]}
      for dx, dy, dz in bookshelf_ring()[:15]),
    # the plants the map grows between them dug away, as the scripted player does
    {"do": "clear", "node": "minecraft:enchanting_table"},
    {"do": "enchant", "node": "minecraft:enchanting_table", "tool": "minecraft:iron_pickaxe", "count": 1},
]

#: The cleared ring with a poppy (a start's own) put between the table and its first bookshelf (the corner one, whose
#: power passes that cell alone), then a try; and the same with the poppy dug away (a second clear) first.
FLOWER = [*OVER_A_HOLE[:1], *OVER_A_HOLE[2:-1],
          {"do": "place", "item": "minecraft:poppy", "at": [X - 1, Y, Z - 1]}, OVER_A_HOLE[-1]]
CLEARED = [*FLOWER[:-1], {"do": "clear", "node": "minecraft:enchanting_table"}, FLOWER[-1]]


def _with_a_poppy(task):
    """The task with a poppy in its start's inventory (the flower the FLOWER plans place)."""
    start = task.initialization
    return task.model_copy(update={"initialization": start.model_copy(
        update={"inventory": {**start.inventory, "poppy": 1}})})


@pytest.fixture(scope="module")
def played(library):
    need_engine(client=True)
    from taskverse.engine.harness import Plan
    from taskverse.engine.runner import run_jobs

    task = library.get(TASK)
    ir = compile_task(task, library, GAME)
    plans = {"scripted": plan_task(task, ir, library), "bare": Plan.model_validate({"steps": BARE_TABLE}),
             "hole": Plan.model_validate({"steps": OVER_A_HOLE, "stop_on_success": False})}
    jobs = [(task, ir, plan) for plan in plans.values()]
    flowered = _with_a_poppy(task)
    flowered_ir = compile_task(flowered, library, GAME)
    for key, steps in (("flower", FLOWER), ("cleared", CLEARED)):
        plans[key] = Plan.model_validate({"steps": steps})
        jobs.append((flowered, flowered_ir, plans[key]))
    reports = run_jobs(jobs, library=library, parallel=2, timeout=ENGINE_TIMEOUT)
    return dict(zip(plans, reports, strict=True))


def test_the_scripted_player_enchants_with_every_step_done(played):
    report = played["scripted"]
    assert_solved(report)
    assert report.plan_error is None
    placed = [s for s in report.steps if s["do"] == "place"]
    assert len(placed) == 1 + 15 and all(s["ok"] for s in placed)  # the table and enchanting.yaml's bookshelves
    (clear,) = [s for s in report.steps if s["do"] == "clear"]  # what blocks a bookshelf's power, dug away
    assert clear["ok"], clear.get("error")
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


def test_a_flower_between_the_table_and_a_bookshelf_stops_its_power(played):
    report = played["flower"]
    assert report.error is None, report.engine_errors
    assert not report.success
    assert (report.plan_error or "").endswith(": 14 bookshelves around it, 15 needed")


def test_the_flower_dug_away_lets_the_power_through(played):
    report = played["cleared"]
    assert_solved(report)
    *_, clear = [s for s in report.steps if s["do"] == "clear"]  # the second: the poppy alone
    assert clear["ok"] and clear.get("cleared") == 1, clear
    mined = [e["game_event"]["target"] for e in report.events if e["game_event"]["event"] == "mine"]
    assert mined[-1] == "poppy"  # after the plants the first clear dug

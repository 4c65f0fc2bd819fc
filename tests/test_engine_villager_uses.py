"""A villager's offer locks after its uses in the generated game, as in the world model, played in the engine.

``trades.yaml``'s ``uses`` (the game's ``maxUses``): a librarian sells 12 bookshelves, then the offer is locked until
it restocks, which neither the text world nor the game models. The game's villager refuses the 13th trade; the
scripted player's plan for 13 bookshelves buys 12 of the villager the start summons and the 13th of another
librarian: the lectern dug back from beside the first, another villager met (spawned where Minecraft's villages are,
the stand-in), the lectern placed beside it.
"""

from __future__ import annotations

import pytest

from engine_support import assert_solved, need_engine, play_in_engine
from taskverse.engine.compiler import compile_task
from taskverse.engine.planner import scripted_plan

GAME = "taskverse_mc"
USES = 12
"""A librarian's bookshelf offer: ItemsForEmeralds(BOOKSHELF, 9, 1, 12, 1) (trades.yaml)."""

LOCKED = f"the librarian's minecraft:bookshelf offer is locked: {USES} of {USES} trades made"


def _thirteen(library):
    """``trade.bookshelf`` for 13 bookshelves: its start (one villager, a lectern) with the emeralds for 13."""
    task = library.get("trade.bookshelf")
    start = task.initialization
    assert [(s.entity, s.count) for s in start.summon] == [("villager", 1)]
    success = task.metrics.success.model_copy(update={"count": USES + 1})
    return task.model_copy(update={
        "initialization": start.model_copy(update={"inventory": {"emerald": 9 * (USES + 1), "lectern": 1}}),
        "metrics": task.metrics.model_copy(update={"success": success})})


@pytest.fixture(scope="module")
def played(library):
    need_engine(client=True)
    task = _thirteen(library)
    one_villager = [{"do": "place", "item": "minecraft:lectern", "count": 1},
                    {"do": "trade", "entity": "minecraft:villager", "item": "minecraft:bookshelf",
                     "count": USES + 1}]
    return play_in_engine(library, GAME, [("thirteen", task)], [("one_villager", task, one_villager)])


def test_the_plan_for_thirteen_bookshelves_meets_a_second_librarian(library):
    task = _thirteen(library)
    scripted = scripted_plan(task, compile_task(task, library, GAME), library)
    trade = "use.minecraft:villager.minecraft:bookshelf"
    assert scripted.actions.count(trade) == USES + 1
    assert scripted.actions.index("find.minecraft:villager") == USES  # after the first villager's twelve
    steps = [(s.do, s.item or s.node or s.entity) for s in scripted.plan.steps]
    dug = steps.index(("dig", "minecraft:lectern"))
    spawned = steps.index(("spawn", "minecraft:villager"))
    assert dug < spawned < steps.index(("place", "minecraft:lectern"), dug)
    assert sum(s.count or 1 for s in scripted.plan.steps[:dug] if s.do == "trade") == USES


def test_a_villager_refuses_the_thirteenth_bookshelf(played):
    report = played["one_villager"]
    assert report.error is None, report.engine_errors
    assert not report.success
    assert LOCKED in (report.plan_error or "")


def test_thirteen_bookshelves_are_bought_of_two_librarians_in_the_engine(played):
    report = played["thirteen"]
    assert_solved(report)
    ok = [(s["do"], s["ok"]) for s in report.steps]
    assert ("spawn", True) in ok and ("dig", True) in ok
    assert all(done for _, done in ok)

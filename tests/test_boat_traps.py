"""Boat traps (``boating.yaml``): a mob seated in a boat it walks into (``trap.<mob>``), judged as a boat of the tag
used on the mob, with one meaning for the world's rules, the fast and the batched stepping, the evaluator, the phrase
reader and the engine compile step; the mobs a boat never seats checked against minecraft-data's widths."""

import json
from pathlib import Path

import minecraft_data
import pytest

from phrase_support import phrase_reader, reads_as
from stepping_support import assert_fast_path_agrees, one_step_single_and_batched
from taskverse.algebra.expr import AtomRef
from taskverse.algebra.semantics import Evaluator, GameEvent
from taskverse.engine.compiler import CompileError, compile_task
from taskverse.language.reading import PhraseError
from taskverse.textenv.kernel import BACKENDS
from taskverse.world.graph import ways_of


def _widths() -> dict[str, float]:
    path = Path(minecraft_data.__file__).parent / "data" / "data" / "pc" / "1.20" / "entities.json"
    return {e["name"]: float(e["width"]) for e in json.loads(path.read_text()) if e.get("width") is not None}


def test_the_too_wide_mobs_are_those_minecraft_data_makes_wider_than_a_boat(library):
    table = library.knowledge.mechanisms.boating
    widths = _widths()
    assert widths["boat"] == widths["chest_boat"] == table.width
    wide = {m for m in library.knowledge.mobs if widths[m] >= table.width} - set(table.sized)
    listed = next(g for g in table.not_riding if g.reason.startswith("too wide")).names
    assert wide == set(listed)
    assert all(widths[m] >= table.width for m in table.sized)  # only their largest size


def test_every_mob_the_world_finds_is_trapped_but_those_a_boat_never_seats(library):
    kn = library.knowledge
    table = kn.mechanisms.boating
    trapped = {t.goal.target for t in library.tasks if t.verb == "trap"}
    assert trapped == {m for m, info in kn.mobs.items()
                       if (info.natural or info.brought_by) and table.why_not_trapped(m) is None}
    assert {"witch", "cow", "slime", "shulker"} <= trapped
    assert not trapped & {"spider", "horse", "squid", "bat", "ghast"}
    task = library.get("trap.witch")
    assert (task.goal.event.value, task.goal.target, task.goal.using) == ("use", "witch", "#boats")
    boat, mob = ways_of(task)[0]
    assert set(boat.any_of) == set(kn.tags["boats"]) and boat.kept and mob.any_of == ["witch"] and mob.kept
    assert task.initialization.inventory == {"oak_boat": 1}


def test_a_trap_keeps_the_boat_and_counts_it_used_on_the_mob(rules):
    state = rules.new_state({"spruce_boat": 1}, [("entity", "witch")])
    events = rules.act(state, rules.action_index["trap.witch"])
    assert [e[:4] for e in events][0] == ("use", "witch", 1, "spruce_boat")
    assert rules.inventory(state) == {"spruce_boat": 1}


def test_traps_step_the_same_in_the_fast_path(rules):
    assert_fast_path_agrees(rules, {"oak_boat": 1}, ["trap.cow", "trap.witch"] * 3,
                            [("entity", "cow"), ("entity", "witch")])


@pytest.mark.parametrize("backend", BACKENDS)
def test_traps_step_the_same_batched(library, backend):
    rules, inventory = one_step_single_and_batched(library, backend, "trap.chicken")
    assert inventory[0, rules.index[("item", "oak_boat")]] == 1


def test_the_evaluator_needs_a_boat_on_the_mob(library):
    evaluator = Evaluator.for_library(library)
    assert evaluator.evaluate(AtomRef(task="trap.witch"), [GameEvent(event="use", target="witch",
                                                                      held="bamboo_raft")]).satisfied
    assert not evaluator.evaluate(AtomRef(task="trap.witch"), [GameEvent(event="use", target="witch",
                                                                          held="fishing_rod")]).satisfied
    assert not evaluator.evaluate(AtomRef(task="trap.cow"), [GameEvent(event="use", target="witch",
                                                                        held="oak_boat")]).satisfied


@pytest.mark.parametrize(("phrase", "expected"), [
    ("trap a witch with a boat", "init(trap.witch, main_hand=oak_boat)"),  # MCU's atomic list
    ("trap_a_witch_with_a_boat_and_combat_spiders", "init(trap.witch, main_hand=oak_boat) & combat.spider"),
    ("trap a cow", "trap.cow"),
])
def test_trap_phrases_read(phrase, expected):
    assert reads_as(phrase, expected)


@pytest.mark.parametrize(("phrase", "why"), [
    ("trap a spider with a boat", "too wide"),
    ("trap a horse with a boat", "too wide"),
    ("trap a squid", "water animal"),
    ("trap a wither with a boat", "rides nothing"),
])
def test_a_mob_no_boat_seats_is_impossible_and_says_why(phrase, why):
    with pytest.raises(PhraseError) as caught:
        phrase_reader().read(phrase)
    assert caught.value.status == "impossible" and why in caught.value.message


def test_the_engine_compile_step_says_no_mob_rides_a_boat_there(library):
    with pytest.raises(CompileError, match="traps a mob in a boat") as info:
        compile_task(library.get("trap.cow"), library, game="taskverse_mc")
    assert "\n" not in str(info.value)

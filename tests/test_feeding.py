"""Feeding an animal (``feed.<animal>``): one item of what it eats (its breeding food, the feeding table's) used on
it, the animal kept; the same meaning in the world's rules, the fast stepping, the evaluator, the phrase reader and
the engine compile step."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from phrase_support import reads_as
from stepping_support import assert_fast_path_agrees
from taskverse.algebra.expr import AtomRef
from taskverse.algebra.semantics import Evaluator, GameEvent
from taskverse.engine.compiler import compile_task
from taskverse.world.graph import ways_of


def _foods(library) -> dict[str, set[str]]:
    table = library.knowledge.mechanisms.breeding
    foods: dict[str, set[str]] = {}
    for entry in [*(b for b in table.breeding if not b.parents), *table.feeding]:
        foods.setdefault(entry.animal, set()).update(entry.food)
    return foods


def test_every_animal_is_fed_what_the_breeding_table_says_it_eats(library):
    foods = _foods(library)
    fed = {t.goal.target: t for t in library.tasks if t.verb == "feed"}
    assert set(fed) == set(foods) and {"cow", "horse", "mule", "cat"} <= set(fed)
    for animal, task in fed.items():
        mob, food = ways_of(task)[0]
        assert mob.any_of == [animal] and mob.kept and set(food.any_of) == foods[animal] and not food.kept
        assert (task.goal.event.value, task.goal.count) == ("use", 1)
    assert {"wheat", "sugar", "golden_carrot"} <= foods["horse"]  # the feeding table's and the breeding food


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_food_used_on_the_animal_satisfies_its_feed_atom_and_no_other(library, data):
    foods = _foods(library)
    animal = data.draw(st.sampled_from(sorted(foods)))
    other = data.draw(st.sampled_from(sorted(foods)))
    food = data.draw(st.sampled_from(sorted(foods[animal])))
    evaluator = Evaluator.for_library(library)
    event = GameEvent(event="use", target=animal, held=food)
    assert evaluator.evaluate(AtomRef(task=f"feed.{animal}"), [event]).satisfied
    assert evaluator.evaluate(AtomRef(task=f"feed.{other}"), [event]).satisfied == (other == animal)


def test_feeding_uses_one_food_and_keeps_the_animal(rules):
    state = rules.new_state({"wheat": 3}, [("entity", "cow")])
    events = rules.act(state, rules.action_index["feed.cow"])
    assert events[0][:4] == ("use", "cow", 1, "wheat")
    assert rules.inventory(state) == {"wheat": 2} and ("entity", "cow") in rules.found(state)


def test_feeding_steps_the_same_in_the_fast_path(rules):
    assert_fast_path_agrees(rules, {"wheat": 3, "sugar": 1}, ["feed.cow", "feed.horse", "feed.sheep"] * 2,
                            [("entity", "cow"), ("entity", "horse"), ("entity", "sheep")], candidates_only=True)


@pytest.mark.parametrize(("phrase", "expected"), [
    ("feed cow", "feed.cow"), ("feed sheep", "feed.sheep"), ("feed chicken", "feed.chicken"),
    ("feed mooshroom", "feed.mooshroom"), ("feed ocelot", "feed.ocelot"), ("feed cat", "feed.cat"),
    ("feed a horse", "feed.horse"),
])
def test_feed_phrases_read(phrase, expected):
    assert reads_as(phrase, expected)


def test_the_engine_compiles_a_feeding_as_the_food_used_on_the_mob(library):
    ir = compile_task(library.get("feed.cow"), library, game="taskverse_mc")
    assert ir.trackers.use.entities

"""The harness's cook, tend and loot steps on the inputs a plan or an agent may give them, in the real engine.

Each step ends by itself within its own bound and says in one line what it did not find: a cook of many items burns
the fuel they need (more than a stack); one whose fuel burns out first fails with how far it got
(never a step half done reported done); a tend beside a chicken with no room for the egg says so; a loot where no
structure is left unopened searches a bounded number of regions and fails the step, not the run.
"""

from __future__ import annotations

import pytest

from engine_support import need_engine
from taskverse.algebra.molecule import build_molecule
from taskverse.algebra.parse import parse_expression
from taskverse.engine.episode import EngineEpisode

GAME = "taskverse_mc"
#: A goal none of the steps below reaches, so the episode stays open for all of them.
GOAL = "craft.diamond_sword"


@pytest.fixture(scope="module")
def furnace(library):
    """An episode with a furnace, 35 raw iron and 68 sticks (66 of them more than one stack of 64)."""
    need_engine(client=True)
    task = build_molecule(parse_expression(
        f"init({GOAL}, inventory.furnace=1, inventory.raw_iron=35, inventory.stick=68)"), library)
    episode = EngineEpisode(task, library=library, game=GAME)
    episode.reset()
    yield episode
    episode.close()


def test_a_cook_of_many_burns_the_fuel_they_need_even_past_a_stack(furnace):
    # 33 smelts of 10 s on sticks of 5 s: 66 sticks, more than a stack (64), all in the furnace's fuel slot
    result = furnace.step({"do": "cook", "item": "raw_iron", "count": 33, "fuel": "stick"})
    assert result.ok, result.error
    assert result.observation.inventory.get("minecraft:iron_ingot") == 33
    assert result.observation.inventory.get("minecraft:stick") == 2  # 66 of 68 burnt


def test_a_cook_whose_fuel_burns_out_fails_saying_how_far_it_got(furnace):
    # one stick a cooking is half a smelt: two sticks cook one of two
    result = furnace.step({"do": "cook", "item": "raw_iron", "count": 2, "fuels": {"stick": 1}})
    assert not result.ok and not result.invalid
    assert result.error == "the furnace cooked 1 of 2 minecraft:iron_ingot (the fuel burnt out)"
    assert result.observation.inventory.get("minecraft:iron_ingot") == 34


def test_a_loot_with_no_structure_left_fails_the_step_after_a_bounded_search(furnace):
    # no woodland mansion stands in the end's biomes on this map: the first ring of regions is searched, no more
    result = furnace.step({"do": "loot", "node": "structure_woodland_mansion", "radius": 8, "vertical": 4,
                           "biomes": ["end_barrens"]})
    assert not result.ok and not result.invalid and furnace.running
    side = 9 * 2 * 8  # the square one search covers: the first ring of regions reaches a side and a half
    assert result.error.startswith(f"no minecraft:structure_woodland_mansion left unopened within {int(1.5 * side)} "
                                   "nodes of ")
    assert result.record["regions"] == 9


def test_a_tend_with_no_room_for_the_egg_says_so(library):
    need_engine(client=True)
    task = build_molecule(parse_expression(f"init({GOAL}, inventory.cobblestone=2304, summon.chicken=1)"), library)
    episode = EngineEpisode(task, library=library, game=GAME)
    try:
        episode.reset()
        result = episode.step({"do": "tend", "entity": "chicken", "item": "egg"})
        assert not result.ok and not result.invalid
        assert result.error == "no room for minecraft:egg in the inventory"
    finally:
        episode.close()

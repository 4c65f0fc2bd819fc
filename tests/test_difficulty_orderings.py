"""Difficulty a player would agree with: orderings of calibrated scores, spread over [0, 5], proxy invariants."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from taskverse.algebra.expr import naive, ref
from taskverse.algebra.molecule import build_molecule
from taskverse.difficulty.calibration import require_table
from taskverse.difficulty.proxies import HALF_BITS, TIE_BITS, tie_break, to_bits, to_rating
from taskverse.difficulty.scores import atom_and_naive_scores, cites_the_literature, scores
from taskverse.schema import DIFFICULTY_DIMENSIONS

HARDER = [  # (dimension, harder task, easier task); "naive X" is naive(X)
    *[(dim, a, b) for dim in ("time_consumption", "planning_complexity") for a, b in [
        ("naive craft.diamond_pickaxe", "naive craft.wooden_pickaxe"),
        ("naive combat.ender_dragon", "naive craft.diamond_pickaxe"),
        ("find.stronghold", "find.village")]],
    ("operational_effort", "build.nether_portal", "eat.apple"),
    ("operational_effort", "combat.zombie", "place.dirt"),
    *[(dim, a, b) for dim in ("intricacy", "creativity") for a, b in [
        ("build.house", "build.pillar"), ("build.nether_portal", "craft.stick")]],
    # the library's "enchant diamond_sword" against everyday food (an apple is no longer everyday in the model: its
    # plan raises a farmer to apprentice, as oak leaves give one only 1 in 200)
    ("novelty", "enchant.diamond_sword", "eat.cooked_beef"),
]


def _task(library, name):
    if name.startswith("naive "):
        return build_molecule(naive(ref(name[len("naive "):])), library)
    return library.by_id[name]


@pytest.mark.parametrize(("dimension", "harder", "easier"), HARDER)
def test_orderings_a_player_would_agree_with(library, dimension, harder, easier):
    a = getattr(scores(_task(library, harder), library), dimension)
    b = getattr(scores(_task(library, easier), library), dimension)
    assert a.calibrated is not None and b.calibrated is not None
    assert a.calibrated > b.calibrated, (a, b)


def test_every_dimension_has_tasks_in_every_fifth(library):
    table = require_table()
    counts = {dim: [0] * 5 for dim in DIFFICULTY_DIMENSIONS}
    for _, _, raw in atom_and_naive_scores(library):
        for dim, score in raw.items():
            if score.value is not None:
                counts[dim][min(4, int(table.calibrate(dim, score.value)))] += 1
    for dim, fifths in counts.items():
        assert all(fifths), (dim, fifths, table.quantiles[dim])
        q = table.quantiles[dim]
        assert all(a < b for a, b in zip(q, q[1:], strict=False)), (dim, q)  # no two edges tie


def test_the_library_has_the_enchanting_atom():
    """``enchant diamond_sword`` (MCU's phrasing) is ``enchant.diamond_sword``: lapis, the table and its bookshelves."""
    from taskverse import load_library

    assert load_library().get("enchant diamond_sword").id == "enchant.diamond_sword"


@given(st.floats(min_value=0, max_value=1e6), st.floats(min_value=0, max_value=1e6),
       st.sampled_from(sorted(HALF_BITS.values())))
def test_ratings_grow_with_bits_and_stay_on_the_raters_scale(a, b, half):
    low, high = sorted((a, b))
    assert 1.0 <= to_rating(low, half) <= to_rating(high, half) <= 5.0
    assert to_rating(0.0, half) == 1.0 and to_rating(half, half) == pytest.approx(3.0)


@given(st.floats(min_value=1.0, max_value=4.99), st.sampled_from(sorted(HALF_BITS.values())))
def test_a_rating_counts_with_the_bits_it_stands_for(rating, half):
    assert to_rating(to_bits(rating, half), half) == pytest.approx(rating)


@given(st.floats(min_value=0, max_value=1e9, allow_nan=False))
def test_the_tie_break_is_small_and_monotone(s):
    assert 0.0 <= tie_break(s) < TIE_BITS
    assert tie_break(s) <= tie_break(s + 1.0)
    assert tie_break(math.inf) == 0.0


def test_literature_rows_are_those_citing_other_papers():
    assert cites_the_literature("Cai et al. (2023); MCU Figure 2")
    assert not cites_the_literature("MCU Figure 3; MCU Section 4.2")
    assert not cites_the_literature("none: a plain phrasing of the task")
    assert not cites_the_literature("MCU Section 4.2 (brainstormed tasks); a villager never fights back")
    assert cites_the_literature("Wang et al. (2023b); Baker et al. (2022)")


def test_proxies_count_what_they_say(library):
    from taskverse.difficulty.scores import context_for

    ctx = context_for(library)
    house, pillar = ctx.facts("build.house"), ctx.facts("build.pillar")
    assert (house.operations, house.kinds) == (101, 3)  # 96 planks, a door and four panes placed
    assert (pillar.operations, pillar.kinds) == (5, 1)
    portal, stick = ctx.facts("build.nether_portal"), ctx.facts("craft.stick")
    assert (portal.operations, portal.kinds) == (11, 2)  # ten obsidian placed, lit with flint and steel
    assert (stick.operations, stick.kinds) == (2, 1)  # two planks in the grid
    assert ctx.facts("find.village").operations == 0 and ctx.facts("find.village").free_bits > 16
    assert ctx.facts("hunt.villager").aimless and not ctx.facts("hunt.cow").aimless

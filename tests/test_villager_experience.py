"""A villager's experience as the difficulty derivation raises it (``world.experience``, ``world.derivation``).

A player raises one villager level by level, mixing the offers each level opens (each within its uses), and waits
for a restock (or takes another villager, whichever is cheaper) when they are spent; the levels and uses are read
here from ``trades.yaml`` alone.
"""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import take_trip_back
from taskverse.difficulty.estimate import PlanModel
from taskverse.schema import Initialization
from taskverse.world.derivation import Derivation
from taskverse.world.experience import RESTOCK, Offer, raise_experience
from taskverse.world.rules import Need

TICKS_PER_SECOND = 20
TIPPED_ARROW_BEFORE_LOCKS = 2128
"""The tipped arrow's estimated seconds with 250 arrow purchases from one villager (before offers locked)."""


@pytest.fixture(scope="module")
def plans(library):
    return PlanModel(library)


@pytest.fixture(scope="module")
def derived(plans):
    """The difficulty derivation's plans (its prices in frames) as steps, from nothing in the overworld."""
    rules = plans.rules
    return Derivation.of_steps(rules, plans.costs, {rules.index[("dimension", "overworld")]: 1})




def _trading(library):
    return library.knowledge.mechanisms.trading


def test_a_master_fletcher_is_raised_on_one_villager_with_offers_of_each_level(library, plans, derived):
    # 250 arrow purchases took 21 villagers (12 a villager): a player raises one fletcher, its bows and its string
    # sales as their levels open, well within their uses.
    rules = plans.rules
    steps = derived.steps_for(rules.action_index["trade.tipped_arrow"])
    assert sum(runs for a, runs in steps if rules.actions[a] == "find.villager") == 1
    fletcher = next(p for p in _trading(library).professions if p.profession == "fletcher")
    level_of = {f"trade.{t.item}": t.level for t in fletcher.sells} | {f"sell.{b.item}": b.level for b in fletcher.buys}
    traded = {level_of[rules.actions[a]] for a, _ in steps if rules.actions[a] in level_of}
    assert {"novice", "apprentice", "master"} <= traded and len(traded) >= 3


def test_the_tipped_arrow_estimate_is_below_one_offer_alone(library, plans):
    seconds = plans.plan(library.by_id["trade.tipped_arrow"], Initialization()).frames / TICKS_PER_SECOND
    assert seconds < TIPPED_ARROW_BEFORE_LOCKS


def test_the_restock_wait_is_the_game_s_two_a_day(library):
    # Villager.allowedToRestock: twice a day at most (24,000 ticks), so half a day a restock over a run of them.
    assert _trading(library).restock.ticks == 24000 / 2


def _levels(library):
    trading = _trading(library)
    return [(p.profession, xp) for p in trading.professions for level, xp in trading.levels.items() if xp]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_raised_villager_reaches_its_level_within_each_offer_s_uses(library, plans, derived, data):
    """For any profession and level: the trades the derivation plans reach the level in the text world, no offer is
    made past its uses by one villager (the text world's lock raises), and past apprentice the offers of more than
    one level are mixed (not one offer alone)."""
    profession, level = data.draw(st.sampled_from(_levels(library)))
    rules = plans.rules
    xp = rules.index[("item", f"xp:{profession}")]
    steps = derived.plan_needs([Need((xp,), level, consume=False, presence=False, virtual=xp)], 1, ())
    assert steps is not None
    state = rules.new_state(found=[("dimension", "overworld")])
    uses = {f"trade.{g}": t.uses for p in _trading(library).professions if p.profession == profession
            for t in p.sells for g in t.goods}
    uses |= {f"sell.{b.item}": b.uses for p in _trading(library).professions if p.profession == profession
             for b in p.buys}
    made: dict[str, int] = {}
    for a, runs in steps:
        atom = rules.actions[a]
        if not state.mask[a]:
            take_trip_back(rules, state, a)
        for _ in range(runs):
            if atom == "find.villager":
                made = {}
            gained = state.counts[xp]
            rules.act(state, a, events=False)
            if state.counts[xp] > gained and atom in uses:
                made[atom] = made.get(atom, 0) + 1
                assert made[atom] <= uses[atom], f"{atom} made {made[atom]} times by one villager"
    assert state.counts[xp] >= level
    levels = {n.count for a, _ in steps for way in rules.ways[a] for n in way if n.members == (xp,)} | {0}
    if level >= _trading(library).levels["journeyman"]:
        assert len(levels) > 1, f"{profession} raised to {level} with novice offers alone"


_offers = st.lists(st.builds(Offer, level=st.sampled_from([0, 0, 10, 70, 150, 250]), xp=st.integers(1, 30),
                             uses=st.integers(0, 16), price=st.floats(0.1, 1000)), min_size=1, max_size=8)


@given(offers=_offers, start=st.integers(0, 100), more=st.integers(1, 300), restock=st.floats(0, 5000))
def test_a_schedule_reaches_its_target_in_level_order_within_uses(offers, start, more, restock):
    """The experience reached is at least the target; each trade's offer is open at the experience it is made at;
    between restocks no offer is made past its uses."""
    schedule = raise_experience(offers, start, start + more, restock)
    if schedule is None:  # only when no novice offer (or none open at the start) can begin
        assert all(o.level > start for o in offers)
        return
    xp, made = start, [0] * len(offers)
    for i, trades in schedule:
        if i == RESTOCK:
            made = [0] * len(offers)
            continue
        assert offers[i].level <= xp and trades > 0
        made[i] += trades
        assert not offers[i].uses or made[i] <= offers[i].uses
        xp += trades * offers[i].xp
    assert xp >= start + more


@given(offers=_offers, start=st.integers(0, 100), more=st.integers(1, 300))
def test_a_restock_dearer_than_any_trade_is_taken_only_when_the_offers_are_spent(offers, start, more):
    schedule = raise_experience(offers, start, start + more, float("inf"))
    assert schedule is None or all(i != RESTOCK for i, _ in schedule)

"""Villager restocks: an offer locks after its ``uses`` trades (``trades.yaml``, the game's ``maxUses``).

Past them the text world takes another villager of the profession (found, its job site kept beside it): the uses are
recomputed here from ``trades.yaml`` alone, not read off the rules' internal ``stock:`` items.
"""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from taskverse.errors import TaskverseError
from taskverse.schema import Initialization, Summon
from taskverse.textenv.plans import plan_task
from taskverse.world import rules as rules_module
from taskverse.world.derivation import Derivation
from taskverse.world.rules import CostModel, Rules


def _uses(library):
    """(atom id, job site) -> the trades a villager makes of the offer before it locks."""
    out = {}
    for prof in library.knowledge.mechanisms.trading.professions:
        for trade in prof.sells:
            for item in trade.goods:
                out[(f"trade.{item}", prof.job_site)] = trade.uses
        for buy in prof.buys:
            out[(f"sell.{buy.item}", prof.job_site)] = buy.uses
    return out


def test_a_librarian_sells_twelve_bookshelves_then_another_librarian_is_needed(library, rules):
    # VillagerTrades: ItemsForEmeralds(BOOKSHELF, 9, 1, 12, 1); the 13th takes another villager at the lectern.
    state = rules.new_state({"lectern": 1, "emerald": 9 * 13}, [("entity", "villager")])
    trade = rules.action_index["trade.bookshelf"]
    for _ in range(12):
        rules.act(state, trade)
    assert not state.mask[trade]
    with pytest.raises(TaskverseError, match="locked"):
        rules.act(state, trade)
    rules.act(state, rules.action_index["find.villager"])
    assert state.mask[trade]
    rules.act(state, trade)
    assert state.counts[rules.index[("item", "bookshelf")]] == 13


@pytest.mark.parametrize("goal", ["craft packed_ice"])
def test_a_plan_makes_no_offer_past_its_uses_with_one_villager(library, rules, goal):
    # The naive packed ice plan buys 13 bookshelves of a librarian (one past the trade's 12 uses, on the tree
    # before restocks were counted): each villager found makes an offer at most its uses times.
    uses = _uses(library)
    sites = {site for _, site in uses}
    plan = plan_task(f"naive({goal})", library, "steps").actions
    assert sum(1 for a in plan if a == "trade.bookshelf") > 12
    state = rules.new_state()
    made: dict[str, int] = {}
    for action in plan:
        if action == "find.villager":
            made = {}  # another villager: its offers fresh
        site = next((rules.names[m] for way in rules.ways[rules.action_index[action]][:1] for need in way
                     for m in need.members if rules.names[m] in sites and (action, rules.names[m]) in uses), None)
        if site is not None:
            made[action] = made.get(action, 0) + 1
            assert made[action] <= uses[(action, site)], f"{action} made {made[action]} times by one villager"
        rules.act(state, rules.action_index[action])


def test_a_start_that_summons_two_villagers_has_each_offer_twice(rules):
    # Two librarians at the start: 24 bookshelves before the offer locks, then another villager.
    init = Initialization(inventory={"lectern": 1, "emerald": 9 * 25}, summon=[Summon(entity="villager", count=2)])
    state = rules.state_from_initialization(init)
    trade = rules.action_index["trade.bookshelf"]
    for _ in range(24):
        rules.act(state, trade)
    assert not state.mask[trade]


@pytest.fixture(scope="module")
def derived(rules):
    costs = CostModel.for_rules(rules)
    return Derivation.of_steps(rules, costs, {rules.index[("dimension", "overworld")]: 1})


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(bookshelves=st.sampled_from([1, 12, 13, 24, 25]) | st.integers(1, 40))
def test_a_derived_plan_finds_a_villager_for_each_twelve_bookshelves(rules, derived, bookshelves):
    # The villager the trade's presence need finds makes the first twelve (no second find for them: the cost
    # fixpoint prices the offer's trades as that presence), each further twelve another villager; the plan runs.
    plan = derived.plan_action(rules.action_index["trade.bookshelf"], bookshelves)
    assert plan is not None
    villagers = -(-bookshelves // 12)
    assert sum(runs for a, runs in plan if rules.actions[a] == "find.villager") == villagers
    state = rules.new_state()
    for a, runs in plan:
        for _ in range(runs):
            rules.act(state, a)
    assert state.counts[rules.index[("item", "bookshelf")]] == bookshelves


def test_the_lock_changes_no_price_of_the_cost_model(library, rules, monkeypatch):
    # Each trade paying a share of a villager find charged the first villager twice (its find is the way's presence
    # setup already) and flipped the fletcher's cheapest experience to 125 stick sales, which the derivation could
    # not ground within its work: the offer's trades are priced as the villager that makes them.
    monkeypatch.setattr(rules_module, "stocks_from_knowledge", lambda kn: {})
    unlocked = Rules.from_knowledge(library.tasks, library.knowledge, extra_items=library.knowledge.items)
    assert not unlocked.stock_of and rules.stock_of
    locked, plain = CostModel.for_rules(rules), CostModel.for_rules(unlocked)
    for a, atom in enumerate(rules.actions):
        assert locked.way_prices[a] == plain.way_prices[unlocked.action_index[atom]], atom


def test_the_text_observation_lists_no_offer_s_trades_left():
    """A villager found holds a count of trades left per offer (hundreds in all): the text's inventory lists none of
    them, the found villager and the held items as before."""
    from taskverse.textenv.env import SkillForgeTextEnv

    env = SkillForgeTextEnv(tasks="naive-craft", observation="text", plan_info=False)
    _, info = env.reset(seed=0)
    find = env.rules.descriptions.index("find villager")
    assert info["action_mask"][find]
    obs, *_ = env.step(find)
    assert any(name.startswith("stock:") for name in env.inventory())  # the model counts them
    inventory, found = (line for line in obs.splitlines() if line.startswith(("Inventory:", "Found:")))
    assert inventory == "Inventory: {}"
    assert "villager (entity)" in found

"""Villager levels: a trade of a level needs a villager raised to it by the experience of its earlier trades.

The experience is recomputed here from ``trades.yaml`` alone (each trade's ``xp``, each level's threshold), not read
off the text world's internal ``xp:<profession>`` items, so the tests check the rules and the planner against the
game facts.
"""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from taskverse.textenv.plans import plan_task


def offers(library):
    """(atom id, job site) -> (profession, experience the level asks for, experience the trade gives)."""
    trading = library.knowledge.mechanisms.trading
    out = {}
    for prof in trading.professions:
        for trade in prof.sells:
            for item in trade.goods:
                out[(f"trade.{item}", prof.job_site)] = (prof.profession, trading.levels[trade.level], trade.xp)
        for buy in prof.buys:
            out[(f"sell.{buy.item}", prof.job_site)] = (prof.profession, trading.levels[buy.level], buy.xp)
    return out


def way_met(counts, way):
    return all(sum(counts[m] * w for m, w in zip(need.members, need.weights or [1] * len(need.members), strict=True))
               >= need.count for need in way)


def villager_offer(rules, table, state, a):
    """The offer of ``trades.yaml`` the action makes now (the first way whose needs are met), or None."""
    ways = [w for w in rules.ways[a] if way_met(state.counts, w)]
    if not ways:
        return None
    for need in ways[0]:
        for m in need.members:
            found = table.get((rules.actions[a], rules.names[m]))
            if found is not None:
                return found
    return None


def replay(rules, table, actions, state=None):
    """Do the plan's actions; yield (atom id, profession, asked, experience before) for each villager trade."""
    state = state if state is not None else rules.new_state()
    experience: dict[str, int] = {}
    for action in actions:
        a = rules.action_index[action]
        offer = villager_offer(rules, table, state, a)
        if offer is not None:
            profession, asked, xp = offer
            yield action, profession, asked, experience.get(profession, 0)
            experience[profession] = experience.get(profession, 0) + xp
        rules.act(state, a)


@pytest.mark.parametrize("goal", ["obtain.name_tag", "craft golden_apple"])
def test_a_plan_raises_a_villager_to_a_trades_level_before_it_trades(library, rules, goal):
    # The name tag is a master librarian's (250 experience); the apple an apprentice farmer's (10) or another way.
    table = offers(library)
    plan = plan_task(f"naive({goal})", library, "steps").actions
    trades = list(replay(rules, table, plan))
    for action, profession, asked, had in trades:
        assert had >= asked, f"{action} with a {profession} of {had} experience, which its level asks {asked} of"
    if goal == "obtain.name_tag" and "trade.name_tag" in plan:
        assert sum(1 for _, profession, _, _ in trades if profession == "librarian") > 1


def test_a_fresh_villager_offers_only_its_novice_trades(library, rules):
    table = offers(library)
    trading = library.knowledge.mechanisms.trading
    for prof in trading.professions:
        state = rules.new_state(_plenty(library, prof), [("entity", "villager")])
        mine = {aid for (aid, site), (name, _, _) in table.items() if name == prof.profession}
        for aid in sorted(mine):
            a = rules.action_index[aid]
            asked = table[(aid, prof.job_site)][1]
            assert bool(state.mask[a]) == (asked == 0), f"{aid} from a fresh {prof.profession}"


def _plenty(library, prof):
    """The job site and plenty of everything the profession's trades take."""
    held = {prof.job_site: 1, "emerald": 2000}
    for trade in prof.sells:
        if trade.also:
            held[trade.also.item] = 2000
    for buy in prof.buys:
        held[buy.item] = 2000
    return held


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(which=st.integers(0, 12), picks=st.lists(st.integers(0, 10**6), min_size=1, max_size=40))
def test_no_trade_of_a_level_before_the_villager_reaches_it(library, rules, which, picks):
    # A walk of the profession's trades in the text world's rules: a trade is a candidate exactly when the
    # experience of the trades done so far reaches its level (everything else it takes is held in plenty) and
    # the villager has not yet made it its ``uses`` times (tests/test_villager_restocks.py).
    table = offers(library)
    prof = library.knowledge.mechanisms.trading.professions[which]
    state = rules.new_state(_plenty(library, prof), [("entity", "villager")])
    mine = sorted(rules.action_index[aid] for (aid, site) in table if site == prof.job_site)
    uses = {f"trade.{item}": t.uses for t in prof.sells for item in t.goods} | {
        f"sell.{b.item}": b.uses for b in prof.buys}
    had = 0
    made: dict[str, int] = {}
    for pick in picks:
        for a in mine:
            asked = table[(rules.actions[a], prof.job_site)][1]
            open_ = made.get(rules.actions[a], 0) < uses[rules.actions[a]]
            assert bool(state.mask[a]) == (had >= asked and open_), (rules.actions[a], had)
        ready = [a for a in mine if state.mask[a]]
        a = ready[pick % len(ready)]
        had += table[(rules.actions[a], prof.job_site)][2]
        made[rules.actions[a]] = made.get(rules.actions[a], 0) + 1
        rules.act(state, a)

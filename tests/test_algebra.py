"""Laws of the task algebra (hypothesis): canonical form, content hashes, and what the evaluator makes of them."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taskverse.algebra.expr import (
    AllOf,
    AnyOf,
    AtomRef,
    Constrained,
    Constraint,
    Initialized,
    Then,
    canonical,
    content_hash,
    naive,
    ref,
)
from taskverse.algebra.semantics import Evaluator, GameEvent
from taskverse.schema import Goal

ATOMS = {
    "craft.x": Goal(event="craft", target="x"),
    "mine.y": Goal(event="mine", target="y"),
    "kill.z": Goal(event="kill", target="z", count=2),
    "find.w": Goal(event="find", target="w"),
}
EVALUATOR = Evaluator(ATOMS)

atoms = st.sampled_from(sorted(ATOMS)).map(lambda t: AtomRef(task=t))
constraints = st.sampled_from([Constraint(when="night"), Constraint(where="desert"), Constraint(how="bare_hand"),
                               Constraint(when="day", where="cave")])


def _extend(children):
    parts = st.lists(children, min_size=1, max_size=3).map(tuple)
    return st.one_of(
        parts.map(lambda p: AllOf(parts=p)), parts.map(lambda p: AnyOf(parts=p)), parts.map(lambda p: Then(parts=p)),
        st.tuples(children, constraints).map(lambda pc: Constrained(part=pc[0], constraint=pc[1])),
        children.map(lambda c: Initialized(part=c)),
    )


exprs = st.recursive(atoms, _extend, max_leaves=8)
events = st.builds(
    GameEvent,
    event=st.sampled_from(["craft", "mine", "kill", "find"]),
    target=st.sampled_from(["x", "y", "z", "w", "v"]),
    time=st.sampled_from(["day", "night"]),
    biome=st.sampled_from(["desert", "plains"]),
    in_cave=st.booleans(),
    held=st.sampled_from([None, "iron_sword"]),
)
traces = st.lists(events, max_size=12)


@given(exprs)
def test_canonical_is_idempotent(e):
    assert canonical(canonical(e)) == canonical(e)


@given(exprs, exprs, exprs)
def test_and_or_laws(a, b, c):
    for op in (AllOf, AnyOf):
        assert canonical(op(parts=(a, a))) == canonical(a)
        assert canonical(op(parts=(op(parts=(a, b)), c))) == canonical(op(parts=(a, op(parts=(b, c)))))
        assert canonical(op(parts=(a, b))) == canonical(op(parts=(b, a)))
        assert content_hash(op(parts=(a, b))) == content_hash(op(parts=(b, a)))


@given(exprs, exprs, exprs)
def test_then_is_associative_but_not_commutative(a, b, c):
    assert canonical((a >> b) >> c) == canonical(a >> (b >> c))
    x, y = ref("craft.x"), ref("mine.y")
    assert content_hash(x >> y) != content_hash(y >> x)


@given(exprs)
def test_naive_is_idempotent(e):
    assert canonical(naive(naive(e))) == canonical(naive(e))


@settings(max_examples=300)
@given(exprs, traces)
def test_canonical_form_keeps_the_meaning(e, trace):
    assert EVALUATOR.evaluate(e, trace).satisfied == EVALUATOR.evaluate(canonical(e), trace).satisfied


@settings(max_examples=300)
@given(st.lists(atoms, min_size=1, max_size=4), traces, st.randoms(use_true_random=False))
def test_and_is_invariant_to_event_order(parts, trace, rnd):
    expr = AllOf(parts=tuple(parts))
    shuffled = list(trace)
    rnd.shuffle(shuffled)
    assert EVALUATOR.evaluate(expr, trace).satisfied == EVALUATOR.evaluate(expr, shuffled).satisfied


def _e(event, target, **kw):
    return GameEvent(event=event, target=target, **kw)


def test_then_is_order_sensitive():
    x, y = ref("craft.x"), ref("mine.y")
    forward = [_e("craft", "x"), _e("mine", "y")]
    assert EVALUATOR.evaluate(x >> y, forward).satisfied
    assert not EVALUATOR.evaluate(y >> x, forward).satisfied
    assert EVALUATOR.evaluate(x & y, forward).satisfied and EVALUATOR.evaluate(y & x, forward).satisfied
    # the event that completes A does not also count for B
    assert not EVALUATOR.evaluate(x >> x, [_e("craft", "x")]).satisfied
    assert EVALUATOR.evaluate(x >> x, [_e("craft", "x"), _e("craft", "x")]).satisfied


def test_progress_and_nesting():
    x, y, z = ref("craft.x"), ref("mine.y"), ref("kill.z")
    verdict = EVALUATOR.evaluate((x | y) >> z, [_e("mine", "y"), _e("kill", "z")])
    assert not verdict.satisfied and verdict.progress == 0.75
    assert EVALUATOR.evaluate(((x | y) >> z) & x, [_e("mine", "y"), _e("kill", "z"), _e("kill", "z"),
                                                   _e("craft", "x")]).satisfied_at == 3
    assert EVALUATOR.evaluate(z, []).status.value == "not_started"


def test_constraints_restrict_what_counts():
    z = ref("kill.z")
    night = [_e("kill", "z", time="night"), _e("kill", "z", time="night")]
    day = [_e("kill", "z", time="day"), _e("kill", "z", time="night")]
    assert EVALUATOR.evaluate(z.at(when="night"), night).satisfied
    assert not EVALUATOR.evaluate(z.at(when="night"), day).satisfied
    assert EVALUATOR.evaluate(z, day).satisfied
    bare = [_e("kill", "z"), _e("kill", "z", held="iron_sword")]
    assert not EVALUATOR.evaluate(z.at(how="bare_hand"), bare).satisfied
    assert EVALUATOR.evaluate(z.at(how="with:iron_sword"), bare[1:] * 2).satisfied
    arrows = [_e("kill", "z", via="arrow")] * 2
    assert EVALUATOR.evaluate(z.at(how="arrows"), arrows).satisfied
    deep = [_e("kill", "z", y=-10), _e("kill", "z", y=-30)]
    assert EVALUATOR.evaluate(z.at(where="height:..0"), deep).satisfied
    assert not EVALUATOR.evaluate(z.at(where="height:-20.."), deep).satisfied
    first = [_e("kill", "z", day=0), _e("kill", "z", day=1)]
    assert not EVALUATOR.evaluate(z.at(when="first_day"), first).satisfied


def test_a_goal_naming_a_kind_of_chest_counts_only_that_kind():
    # "loot a library chest in a stronghold" is done by a library chest, not by a corridor chest of the same
    # stronghold; "loot a chest in a stronghold" by either.
    goals = {"loot.s": Goal(event="interact", target="s"),
             "loot.s.library": Goal(event="interact", target="s", chest="library")}
    evaluator = Evaluator(goals)
    corridor, library = _e("interact", "s"), _e("interact", "s", chest="library")
    assert not evaluator.evaluate(ref("loot.s.library"), [corridor, corridor]).satisfied
    assert evaluator.evaluate(ref("loot.s.library"), [corridor, library]).satisfied_at == 1
    assert evaluator.evaluate(ref("loot.s"), [library]).satisfied
    assert evaluator.evaluate(ref("loot.s") >> ref("loot.s.library"), [corridor, library]).satisfied
    assert not evaluator.evaluate(ref("loot.s.library") >> ref("loot.s"), [corridor, library]).satisfied


def test_only_an_interact_goal_names_a_kind_of_chest():
    with pytest.raises(ValueError, match="only an interact goal"):
        Goal(event="mine", target="s", chest="library")

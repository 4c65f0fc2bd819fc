"""Counts, at-least-k, avoid and time bounds: their laws under hypothesis, and one meaning everywhere.

The evaluator is run on the expressions as written (not their canonical forms), so a law that holds here holds
for the automaton itself; the Lua port is checked against it in ``test_engine_compile`` and the real engine in
``test_engine_proofs``.
"""

from __future__ import annotations

import gymnasium
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import cli
from taskverse.algebra.expr import (
    AllOf,
    Amount,
    AnyOf,
    AtLeast,
    AtomRef,
    Avoid,
    Constrained,
    Constraint,
    Repeat,
    Then,
    Within,
    amount,
    at_least,
    canonical,
    content_hash,
    format_duration,
    parse_duration,
    ref,
)
from taskverse.algebra.parse import parse_expression
from taskverse.algebra.semantics import Evaluator, GameEvent, Status
from taskverse.errors import TaskverseError
from taskverse.schema import Goal

ATOMS = {
    "craft.x": Goal(event="craft", target="x"),
    "mine.y": Goal(event="mine", target="y"),
    "kill.z": Goal(event="kill", target="z", count=2),
    "find.w": Goal(event="find", target="w"),
}
EVALUATOR = Evaluator(ATOMS)

atoms = st.sampled_from(sorted(ATOMS)).map(lambda t: AtomRef(task=t))
bounds = st.sampled_from([20, 40, 100, 200, 600])


def _extend(children, avoid: bool = True):
    parts = st.lists(children, min_size=1, max_size=3).map(tuple)
    options = [
        parts.map(lambda p: AllOf(parts=p)), parts.map(lambda p: AnyOf(parts=p)), parts.map(lambda p: Then(parts=p)),
        st.tuples(st.integers(1, 3), parts).map(lambda kp: AtLeast(count=min(kp[0], len(kp[1])), parts=kp[1])),
        st.tuples(st.integers(1, 3), children).map(lambda tc: Repeat(times=tc[0], part=tc[1])),
        st.tuples(bounds, children).map(lambda bc: Within(ticks=bc[0], part=bc[1])),
        children.map(lambda c: Constrained(part=c, constraint=Constraint(when="night"))),
        st.tuples(st.integers(1, 9), atoms).map(lambda na: Amount(count=na[0], part=na[1])),
    ]
    if avoid:
        options.append(children.map(lambda c: Avoid(part=c)))
    return st.one_of(*options)


exprs = st.recursive(atoms, _extend, max_leaves=7)
positive = st.recursive(atoms, lambda c: _extend(c, avoid=False), max_leaves=6)  # nothing to avoid inside


@st.composite
def traces(draw):
    """Events in clock order (seconds), some at the same instant."""
    events, clock = [], 0.0
    for _ in range(draw(st.integers(0, 12))):
        clock += draw(st.sampled_from([0.0, 0.5, 1.0, 3.0, 12.0]))
        events.append(GameEvent(event=draw(st.sampled_from(["craft", "mine", "kill", "find"])),
                                target=draw(st.sampled_from(["x", "y", "z", "w"])),
                                count=draw(st.sampled_from([1, 1, 2, 4])),
                                time=draw(st.sampled_from(["day", "night"])), clock=clock))
    return events


nows = st.sampled_from([None, 0.0, 5.0, 40.0])


def verdict(expr, trace, now=None):
    v = EVALUATOR.evaluate(expr, trace, now=now)
    return v.status, v.satisfied_at, v.failed_at, v.decided_clock


def same(a, b, trace, now):
    va, vb = EVALUATOR.evaluate(a, trace, now=now), EVALUATOR.evaluate(b, trace, now=now)
    assert (va.status, va.satisfied_at, va.failed_at, va.decided_clock, va.holding) == \
        (vb.status, vb.satisfied_at, vb.failed_at, vb.decided_clock, vb.holding)
    assert va.progress == pytest.approx(vb.progress)


LAWS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# --- counts -------------------------------------------------------------------------------------------------

@LAWS
@given(exprs, traces(), nows)
def test_once_is_the_task_itself(a, trace, now):
    same(Repeat(times=1, part=a), a, trace, now)


@LAWS
@given(exprs, st.integers(1, 3), st.integers(1, 3), traces(), nows)
def test_counts_multiply(a, m, n, trace, now):
    product = Repeat(times=m * n, part=a)
    same(Repeat(times=m, part=Repeat(times=n, part=a)), product, trace, now)
    same(Repeat(times=n, part=Repeat(times=m, part=a)), product, trace, now)
    assert content_hash(Repeat(times=m, part=Repeat(times=n, part=a))) == content_hash(product)


@LAWS
@given(exprs, st.integers(2, 4), traces(), nows)
def test_n_times_is_n_in_a_row(a, n, trace, now):
    same(Repeat(times=n, part=a), Then(parts=(a,) * n), trace, now)


def test_three_times_needs_three_events_in_order():
    three = 3 * ref("craft.x")
    craft = [GameEvent(event="craft", target="x", clock=float(i)) for i in range(3)]
    assert not EVALUATOR.evaluate(three, craft[:2]).satisfied
    assert EVALUATOR.evaluate(three, craft).satisfied_at == 2
    # a count of 3 on an atom that needs 2 kills is 6 kills
    assert EVALUATOR.evaluate(3 * ref("kill.z"), [GameEvent(event="kill", target="z", count=5)]).progress == \
        pytest.approx(1 / 3)  # one event completes one repetition; the next starts after it


# --- amounts ----------------------------------------------------------------------------------------------------

@LAWS
@given(st.lists(st.integers(1, 9), max_size=6), st.integers(1, 20))
def test_an_amount_is_met_when_the_counts_add_up_to_it(counts, n):
    trace = [GameEvent(event="craft", target="x", count=c, clock=float(i)) for i, c in enumerate(counts)]
    v = EVALUATOR.evaluate(amount(n, "craft.x"), trace)
    assert v.satisfied == (sum(counts) >= n)
    if v.satisfied:  # the event that brings the total to n decides it
        assert sum(counts[:v.satisfied_at + 1]) >= n > sum(counts[:v.satisfied_at])


def test_an_amount_is_not_n_events():
    one_of_8 = [GameEvent(event="craft", target="x", count=8)]
    two_of_4 = [GameEvent(event="craft", target="x", count=4, clock=float(i)) for i in range(2)]
    assert EVALUATOR.evaluate(amount(8, "craft.x"), one_of_8).satisfied
    assert EVALUATOR.evaluate(amount(8, "craft.x"), two_of_4).satisfied
    assert not EVALUATOR.evaluate(8 * ref("craft.x"), one_of_8).satisfied  # N * A keeps its meaning: 8 events
    assert EVALUATOR.evaluate(8 * ref("craft.x"), one_of_8).progress == pytest.approx(1 / 8)
    assert EVALUATOR.evaluate(amount(8, "craft.x"), two_of_4[:1]).progress == pytest.approx(1 / 2)
    # an amount multiplies the atom's own count: kill.z needs 2, three times over is 6
    assert not EVALUATOR.evaluate(amount(3, "kill.z"), [GameEvent(event="kill", target="z", count=5)]).satisfied
    assert EVALUATOR.evaluate(amount(3, "kill.z"), [GameEvent(event="kill", target="z", count=6)]).satisfied


@LAWS
@given(atoms, st.integers(1, 5), st.integers(1, 5), traces(), nows)
def test_amounts_multiply_and_one_is_the_atom(a, m, n, trace, now):
    same(Amount(count=1, part=a), a, trace, now)
    same(Amount(count=m, part=Amount(count=n, part=a)), Amount(count=m * n, part=a), trace, now)
    assert content_hash(Amount(count=m, part=Amount(count=n, part=a))) == content_hash(Amount(count=m * n, part=a))
    night = Constraint(when="night")
    inside = Amount(count=m, part=Constrained(part=a, constraint=night))
    outside = Constrained(part=Amount(count=m, part=a), constraint=night)
    same(inside, outside, trace, now)
    assert content_hash(inside) == content_hash(outside)


def test_an_amount_counts_one_atom():
    with pytest.raises(TaskverseError, match="amount"):
        parse_expression("amount(3, craft.x >> mine.y)")
    with pytest.raises(TaskverseError, match="from 1 to 2304"):
        parse_expression("amount(0, craft.x)")
    assert parse_expression("amount(8, craft.x) @ when=night").key == \
        Constrained(part=amount(8, "craft.x"), constraint=Constraint(when="night")).key


# --- at least k of n ----------------------------------------------------------------------------------------

@LAWS
@given(st.lists(exprs, min_size=1, max_size=3).map(tuple), traces(), nows)
def test_at_least_one_is_or_and_all_is_and(parts, trace, now):
    same(AtLeast(count=1, parts=parts), AnyOf(parts=parts), trace, now)
    same(AtLeast(count=len(parts), parts=parts), AllOf(parts=parts), trace, now)
    assert canonical(AtLeast(count=1, parts=parts)) == canonical(AnyOf(parts=parts))
    assert canonical(AtLeast(count=len(parts), parts=parts)) == canonical(AllOf(parts=parts))


@LAWS
@given(st.lists(positive, min_size=2, max_size=4).map(tuple), traces())
def test_at_least_k_is_done_when_k_parts_are(parts, trace):
    for k in range(1, len(parts) + 1):
        v = EVALUATOR.evaluate(AtLeast(count=k, parts=parts), trace)
        times = sorted(t for p in parts if (t := EVALUATOR.evaluate(p, trace).satisfied_at) is not None)
        if all(EVALUATOR.evaluate(p, trace).status is not Status.FAILED for p in parts):
            assert v.satisfied_at == (times[k - 1] if len(times) >= k else None)


@LAWS
@given(st.lists(exprs, min_size=2, max_size=3).map(tuple), traces(), nows)
def test_at_least_is_monotone_in_k(parts, trace, now):
    outcomes = [EVALUATOR.evaluate(AtLeast(count=k, parts=parts), trace, now=now) for k in range(1, len(parts) + 1)]
    for easier, harder in zip(outcomes, outcomes[1:], strict=False):
        if harder.satisfied:  # the easier one is done too, no later
            assert easier.satisfied and easier.decided_clock <= harder.decided_clock
        if easier.failed:
            assert harder.failed


# --- avoid ----------------------------------------------------------------------------------------------------

@LAWS
@given(exprs, traces(), nows)
def test_not_not_is_the_task_itself(a, trace, now):
    same(Avoid(part=Avoid(part=a)), a, trace, now)
    assert canonical(Avoid(part=Avoid(part=a))) == canonical(a)


@LAWS
@given(exprs, traces(), nows)
def test_not_swaps_success_and_failure(a, trace, now):
    v, n = EVALUATOR.evaluate(a, trace, now=now), EVALUATOR.evaluate(Avoid(part=a), trace, now=now)
    assert (v.satisfied, v.failed) == (n.failed, n.satisfied)
    assert (v.satisfied_at, v.failed_at, v.decided_clock) == (n.failed_at, n.satisfied_at, n.decided_clock)
    if not v.decided:
        assert v.holding != n.holding


def test_avoid_fails_the_episode_and_guards_only_its_part():
    x, y = ref("craft.x"), ref("mine.y")
    craft, mine = GameEvent(event="craft", target="x"), GameEvent(event="mine", target="y")
    task = x & ~y  # craft x without mining y first
    assert EVALUATOR.evaluate(task, [craft]).satisfied
    v = EVALUATOR.evaluate(task, [mine, craft])
    assert v.failed and v.failed_at == 0 and v.status is Status.FAILED
    assert EVALUATOR.evaluate(task, [craft, mine]).satisfied_at == 0  # done before y: the avoid is over
    alone = ~y
    assert EVALUATOR.evaluate(alone, [craft]).holding and not EVALUATOR.evaluate(alone, [craft]).decided
    # nothing after an avoid part in a THEN starts: it never finishes by itself
    assert not EVALUATOR.evaluate(Then(parts=(~y, x)), [craft]).decided


# --- time bounds ----------------------------------------------------------------------------------------------

@LAWS
@given(positive, bounds, bounds, traces(), nows)
def test_a_longer_bound_never_turns_success_into_failure(a, t1, t2, trace, now):
    short, long = sorted((t1, t2))
    v_short = EVALUATOR.evaluate(Within(ticks=short, part=a), trace, now=now)
    v_long = EVALUATOR.evaluate(Within(ticks=long, part=a), trace, now=now)
    if v_short.satisfied:
        assert v_long.satisfied and v_long.satisfied_at == v_short.satisfied_at
    if v_long.failed:
        assert v_short.failed
    # avoiding is the other way round: a shorter watch is easier to survive
    n_short = EVALUATOR.evaluate(Within(ticks=short, part=Avoid(part=a)), trace, now=now)
    n_long = EVALUATOR.evaluate(Within(ticks=long, part=Avoid(part=a)), trace, now=now)
    if n_long.satisfied:
        assert n_short.satisfied


@LAWS
@given(exprs, bounds, bounds, traces(), nows)
def test_nested_bounds_keep_the_shorter(a, t1, t2, trace, now):
    same(Within(ticks=t1, part=Within(ticks=t2, part=a)), Within(ticks=min(t1, t2), part=a), trace, now)


@LAWS
@given(exprs, traces(), nows)
def test_decided_verdicts_are_final(a, trace, now):
    # what a prefix decided, the whole trace keeps (success and failure are final; pending is not)
    late = EVALUATOR.evaluate(a, trace, now=max(now or 0.0, trace[-1].clock if trace else 0.0))
    for cut in range(len(trace) + 1):
        prefix = trace[:cut]
        early = EVALUATOR.evaluate(a, prefix, now=prefix[-1].clock if prefix else 0.0)
        if early.decided:
            assert (late.status, late.satisfied_at, late.failed_at, late.decided_clock) == \
                (early.status, early.satisfied_at, early.failed_at, early.decided_clock)


@LAWS
@given(exprs, traces())
def test_the_verdict_does_not_depend_on_how_often_the_clock_is_read(a, trace):
    # reading the clock between events (as the text world and the engine do) changes nothing
    full = EVALUATOR.evaluate(a, trace, now=60.0)
    for cut in range(len(trace) + 1):
        v = EVALUATOR.evaluate(a, trace[:cut], now=trace[cut - 1].clock if cut else 0.0)
        if v.decided:
            assert (v.status, v.decided_clock) == (full.status, full.decided_clock)
            break


def test_within_counts_from_when_the_part_starts():
    x, y = ref("craft.x"), ref("mine.y")
    events = [GameEvent(event="craft", target="x", clock=100.0), GameEvent(event="mine", target="y", clock=104.0)]
    assert EVALUATOR.evaluate(x >> y.within("5s"), events).satisfied  # y's window opens when x is done
    assert EVALUATOR.evaluate((x >> y).within("5s"), events).failed  # the whole task had 5 s from the start
    late = EVALUATOR.evaluate(x.within("5s"), [], now=5.0)
    assert not late.decided  # an event at the deadline still counts
    late = EVALUATOR.evaluate(x.within("5s"), [], now=5.05)
    assert late.failed and late.decided_clock == 5.0 and late.failed_at is None
    survived = EVALUATOR.evaluate((~y).within("1day"), [], now=1200.5)
    assert survived.satisfied and survived.decided_clock == 1200.0


def test_time_units():
    assert parse_duration("1day") == parse_duration("20min") == parse_duration("1200s") == 24000
    assert parse_duration("2days") == 48000 and parse_duration("7t") == 7 and parse_duration("0.5s") == 10
    assert [format_duration(t) for t in (24000, 1200, 20, 7, 72000)] == ["1day", "1min", "1s", "7t", "3day"]
    for bad in ("0s", "-1s", "3", "1 fortnight", "0.01t", "2000days"):
        with pytest.raises(TaskverseError):
            parse_duration(bad)


# --- the grammar and the YAML format -----------------------------------------------------------------------------

def test_the_grammar_reads_every_operator():
    assert parse_expression("3 * craft.x") == Repeat(times=3, part=ref("craft.x"))
    assert parse_expression("2 * 3 * craft.x >> mine.y") == Then(parts=(
        Repeat(times=2, part=Repeat(times=3, part=ref("craft.x"))), ref("mine.y")))
    assert parse_expression("~mine.y") == parse_expression("not(mine.y)") == Avoid(part=ref("mine.y"))
    assert parse_expression("craft.x & ~mine.y") == AllOf(parts=(ref("craft.x"), Avoid(part=ref("mine.y"))))
    assert parse_expression("at_least(2, craft.x, mine.y, find.w)") == at_least(2, "craft.x", "mine.y", "find.w")
    assert parse_expression("craft.x @ within=600s") == ref("craft.x").within("10min")
    assert parse_expression("craft.x @ when=night, within=1day") == Within(
        ticks=24000, part=Constrained(part=ref("craft.x"), constraint=Constraint(when="night")))
    assert parse_expression("3 * craft.x @ within=1s") == Repeat(times=3, part=ref("craft.x").within("1s"))


@pytest.mark.parametrize(("text", "message"), [
    ("0 * craft.x", "a count must be a whole number from 1 to 1000, found '0'"),
    ("-2 * craft.x", "a count must be a whole number"),
    ("1001 * craft.x", "from 1 to 1000"),
    ("craft.x @ within=0s", "positive whole number of ticks"),
    ("craft.x @ within=-5s", "expected a positive number with a unit"),
    ("craft.x @ within=soon", "expected a positive number with a unit"),
    ("at_least(0, craft.x)", "at_least needs a whole number of at least 1"),
    ("at_least(3, craft.x, mine.y)", "at least 3 of 2 parts can never be done"),
    ("~" * 40 + "craft.x", "nested more than 32 levels deep"),
    ("2 * " * 40 + "craft.x", "nested more than 32 levels deep"),
])
def test_bad_counts_bounds_and_depths_are_clear_errors(text, message):
    with pytest.raises(TaskverseError) as caught:
        parse_expression(text)
    assert message in str(caught.value)


def test_the_cli_says_what_is_wrong_in_one_line():
    done = cli("compose", "0 * craft stick")
    assert done.exit_code == 2 and "Traceback" not in done.stderr and done.stderr.count("\n") == 1
    assert "a count must be a whole number from 1 to 1000" in done.stderr
    done = cli("compose", "craft stick @ within=0s")
    assert done.exit_code == 2 and "within='0s'" in done.stderr and "Traceback" not in done.stderr


def test_molecules_with_the_new_operators_round_trip_through_yaml(library, tmp_path):
    from taskverse.algebra.files import load_molecule_file, molecule_to_yaml
    from taskverse.algebra.molecule import build_molecule

    expr = parse_expression("(at_least(2, craft stick, mine oak_log, craft oak_planks) & ~commit.suicide) "
                            ">> 3 * craft stick @ within=1day")
    molecule = build_molecule(expr, library)
    path = tmp_path / "m.yaml"
    path.write_text(molecule_to_yaml(molecule))
    assert load_molecule_file(path, library) == molecule
    assert "never" in molecule.description and "3 times" in molecule.description
    bad = molecule_to_yaml(molecule).replace("times: 3", "times: 0")
    path.write_text(bad)
    with pytest.raises(TaskverseError) as caught:
        load_molecule_file(path, library)
    message = str(caught.value)
    assert "m.yaml" in message and "times" in message and "greater than or equal to 1" in message


# --- the text environment judges the same way ----------------------------------------------------------------

@pytest.mark.parametrize(("task", "planned", "outcome"), [
    ("craft stick & ~craft.oak_planks", True, "failed"),  # the plan for a stick crafts oak planks
    ("2 * craft stick", True, "success"),
    ("craft stick @ within=2s", True, "failed"),  # the plan takes four steps, four seconds
    ("craft stick @ within=10s", True, "success"),
    ("~craft.stick @ within=3s", False, "success"),  # three seconds of doing something else
])
def test_the_text_environment_ends_episodes_on_success_and_on_failure(task, planned, outcome):
    from taskverse.textenv.planning import plan_for

    stick = gymnasium.make("taskverse/SkillForgeText-v0", task="craft stick").unwrapped
    stick.reset(seed=0)
    plan = (plan_for(stick)[0] or []) * 2 if planned else []
    env = gymnasium.make("taskverse/SkillForgeText-v0", task=task, max_steps=50)
    env.reset(seed=0)
    base = env.unwrapped
    terminated = truncated = False
    while not (terminated or truncated):
        action = plan.pop(0) if plan else next(a for a in base.candidates() if "stick" not in base.rules.actions[a])
        _, reward, terminated, truncated, info = env.step(action)
        # the environment's verdict is the evaluator's on its own trace, read at its clock (a second a step)
        v = base.evaluator.evaluate(base.expression, base.trace, now=float(base.steps))
        assert (info["success"], info["failed"]) == (v.satisfied, v.failed)
    assert terminated and info[outcome if outcome == "failed" else "success"]
    assert reward == (1.0 if outcome == "success" else 0.0)


# --- difficulty -------------------------------------------------------------------------------------------------

def _raw(library, text):
    from taskverse.algebra.molecule import build_molecule
    from taskverse.difficulty.scores import raw_scores

    return {k: v.value for k, v in raw_scores(build_molecule(parse_expression(text), library), library).items()}


def test_difficulty_of_the_new_operators(library):
    once, twice = _raw(library, "craft.stick"), _raw(library, "2 * craft.stick")
    assert twice["time_consumption"] == 2 * once["time_consumption"]  # N * A scales time
    assert twice["planning_complexity"] > once["planning_complexity"]  # one more operator to keep in mind
    parts = "craft.stick, mine.iron_ore, eat.apple"
    assert _raw(library, f"at_least(1, {parts})") == _raw(library, "craft.stick | mine.iron_ore | eat.apple")
    two = _raw(library, f"at_least(2, {parts})")
    assert _raw(library, "craft.stick | eat.apple")["time_consumption"] < two["time_consumption"] < \
        _raw(library, "craft.stick & mine.iron_ore & eat.apple")["time_consumption"]
    guarded = _raw(library, "craft.stick & ~commit.suicide")
    assert guarded["time_consumption"] == once["time_consumption"]  # avoiding adds no work
    assert guarded["planning_complexity"] > once["planning_complexity"]
    survive = _raw(library, "~commit.suicide @ within=1day")
    assert survive["time_consumption"] == 24000  # a day to survive takes a day (frames are ticks)
    assert all(value is not None for value in survive.values())
    # an amount is planned for all of it at once: eight beef from four cows, not eight hunts from scratch
    beef, eight = _raw(library, "naive(obtain.beef)"), _raw(library, "naive(amount(8, obtain.beef))")
    assert beef["time_consumption"] < eight["time_consumption"] < _raw(library, "naive(8 * obtain.beef)")[
        "time_consumption"]


@pytest.mark.parametrize(("text", "message"), [
    ("~commit.suicide", "can never succeed (it only avoids things)"),
    ("craft stick & ~commit.suicide >> craft stick", "never finishes by itself, so what comes after it never starts"),
    ("2 * ~commit.suicide & craft stick", "never finishes by itself"),
])
def test_compositions_that_can_never_succeed_are_rejected(library, text, message):
    from taskverse.algebra.molecule import Conflict, build_molecule

    with pytest.raises(Conflict) as caught:
        build_molecule(parse_expression(text), library)
    assert message in str(caught.value)
    for fine in ("(~commit.suicide @ within=1day) >> craft stick", "2 * ~commit.suicide @ within=1day"):
        build_molecule(parse_expression(fine), library)  # bounded: each repetition ends at its deadline


# --- infeasibility without a search -------------------------------------------------------------------------

@LAWS
@given(exprs, st.sets(st.sampled_from(sorted(ATOMS))), traces(), nows)
def test_what_cannot_succeed_succeeds_on_no_trace(expr, dead, trace, now):
    """``machine.can_succeed`` is sound: refused with some atoms never counting, no trace without them succeeds."""
    from taskverse.algebra.machine import can_succeed

    compiled = EVALUATOR.compile(expr)
    never = {leaf.index for leaf in compiled.leaves if leaf.atom in dead}
    if can_succeed(compiled.root, never.__contains__):
        return
    goals = {(ATOMS[a].event.value, ATOMS[a].target) for a in dead}
    live = [e for e in trace if (e.event.value, e.target) not in goals]
    assert not EVALUATOR.evaluate(expr, live, now=now).satisfied


def test_can_succeed_sees_through_the_operators():
    from taskverse.algebra.machine import can_succeed

    def refused(text):
        compiled = EVALUATOR.compile(parse_expression(text))
        return not can_succeed(compiled.root, lambda i: compiled.leaves[i].atom == "mine.y")

    assert refused("mine.y") and refused("craft.x & mine.y") and refused("craft.x >> mine.y")
    assert refused("2 * mine.y") and refused("at_least(2, craft.x, mine.y)") and refused("mine.y @ within=60s")
    assert not refused("craft.x | mine.y") and not refused("~mine.y @ within=60s")
    assert not refused("at_least(1, craft.x, mine.y)")

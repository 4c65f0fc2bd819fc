"""The filter language: agrees with a brute-force check (hypothesis), and points at bad tokens."""

import operator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taskverse.benchmarks.filters import Entry, parse_filter
from taskverse.errors import TaskverseError
from taskverse.schema import DIFFICULTY_DIMENSIONS

CATEGORIES = ["mining", "crafting", "combat", "building"]
OPS = {"=": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
       ">=": operator.ge}

entries_strategy = st.lists(st.builds(
    Entry,
    id=st.from_regex(r"[a-z]{3}\.[a-z]{3}", fullmatch=True),
    description=st.sampled_from(["craft iron_sword", "mine stone", "hunt sheep"]),
    category=st.sampled_from(CATEGORIES),
    verb=st.sampled_from(["craft", "mine", "hunt"]),
    kind=st.sampled_from(["atom", "molecule"]),
    init=st.sampled_from(["atom", "naive", "custom"]),
    atoms=st.integers(1, 5),
    tags=st.lists(st.sampled_from(["literature", "curated"]), max_size=2).map(tuple),
    calibrated=st.fixed_dictionaries({d: st.floats(0, 5) for d in DIFFICULTY_DIMENSIONS}),
    raw=st.fixed_dictionaries({d: st.floats(0, 1000) for d in DIFFICULTY_DIMENSIONS}),
), max_size=25)


def comparisons():
    text = st.tuples(st.sampled_from(["category", "init", "kind", "verb"]), st.sampled_from(["=", "!="]),
                     st.sampled_from([*CATEGORIES, "atom", "naive", "molecule", "craft", "mine"]))
    number = st.tuples(st.sampled_from(["atoms", *DIFFICULTY_DIMENSIONS, "raw.planning_complexity"]),
                       st.sampled_from(list(OPS)), st.integers(0, 5))

    def make(parts):
        field, op, value = parts
        source = f"{field}{op}{value}"

        def check(e):
            actual = e.value(field)
            return OPS[op](actual, float(value) if field not in ("category", "init", "kind", "verb") else value)
        return source, check

    tag = st.sampled_from(["literature", "curated"]).map(
        lambda t: (f"tag={t}", lambda e, t=t: t in e.tags))
    return st.one_of(text.map(make), number.map(make), tag)


def combine(children):
    pair = st.tuples(children, children)
    return st.one_of(
        pair.map(lambda ab: (f"({ab[0][0]} and {ab[1][0]})", lambda e, a=ab[0][1], b=ab[1][1]: a(e) and b(e))),
        pair.map(lambda ab: (f"({ab[0][0]} or {ab[1][0]})", lambda e, a=ab[0][1], b=ab[1][1]: a(e) or b(e))),
        children.map(lambda a: (f"not {a[0]}", lambda e, f=a[1]: not f(e))),
    )


filters = st.recursive(comparisons(), combine, max_leaves=6)


@settings(max_examples=300)
@given(filters, entries_strategy)
def test_filters_agree_with_brute_force(spec, entries):
    source, check = spec
    parsed = parse_filter(source)
    assert [e.id for e in entries if parsed(e)] == [e.id for e in entries if check(e)]


def test_precedence_and_binds_tighter_than_or():
    f = parse_filter("category=mining or category=crafting and init=naive")
    e = Entry("a.b", "d", "mining", "mine", "atom", "atom", 1, (), {}, {})
    assert f(e)  # mining or (crafting and naive)


@pytest.mark.parametrize("text, column, needle", [
    ("category=mining and", 20, "expected a comparison"),
    ("categroy=mining", 1, "did you mean category"),
    ("planning_complexity>=high", 22, "is a number"),
    ("category>mining", 9, "is text"),
    ("(category=mining", 17, "expected ')'"),
    ("category=mining category=crafting", 17, "unexpected"),
    ("category=mining & init=naive", 17, "write 'and' instead"),
])
def test_malformed_filters_point_at_the_bad_token(text, column, needle):
    with pytest.raises(TaskverseError) as info:
        parse_filter(text)
    assert needle in str(info.value) and f"column {column}" in str(info.value)


def test_library_entries_filter_by_attributes(library):
    from taskverse.benchmarks.suites import entries

    pool = entries(library)
    naive_mining = [e for e in pool if parse_filter("category=mining and init=naive")(e)]
    assert naive_mining and all(e.kind == "molecule" and e.category == "mining" for e in naive_mining)
    assert len([e for e in pool if e.init == "atom"]) == len(library.tasks)

import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from taskverse.difficulty.calibration import calibrate_value, load_table, quantiles, table_path
from taskverse.schema import DIFFICULTY_DIMENSIONS

values = st.lists(st.floats(min_value=-1e6, max_value=1e6, allow_nan=False), min_size=1, max_size=60)


def test_each_distinct_quantile_maps_to_its_index():
    q = [0.0, 10.0, 20.0, 30.0, 40.0, 50.0]
    for j, v in enumerate(q):
        assert calibrate_value(v, q) == j
    assert calibrate_value(15.0, q) == 1.5
    assert calibrate_value(-5.0, q) == 0.0 and calibrate_value(99.0, q) == 5.0  # clamped


def test_equal_quantiles_need_no_division_and_follow_the_half_open_intervals():
    q = [1.0, 1.0, 1.0, 4.0, 4.0, 9.0]
    assert calibrate_value(1.0, q) == 2.0  # [Q0, Q1) and [Q1, Q2) are empty: S lies in [Q2, Q3)
    assert calibrate_value(2.5, q) == 2.5
    assert calibrate_value(4.0, q) == 4.0
    assert calibrate_value(6.5, q) == 4.5
    flat = [3.0] * 6
    assert calibrate_value(3.0, flat) == 5.0 and calibrate_value(2.0, flat) == 0.0


@given(values)
def test_quantiles_ignore_the_order_of_their_input(data):
    shuffled = data[:]
    random.Random(len(data)).shuffle(shuffled)
    assert quantiles(data) == quantiles(shuffled) == quantiles(sorted(data, reverse=True))


@given(values, st.lists(st.floats(min_value=-2e6, max_value=2e6, allow_nan=False), min_size=2, max_size=20))
def test_map_is_monotone_and_bounded(data, probes):
    q = quantiles(data)
    mapped = [calibrate_value(v, q) for v in sorted(probes)]
    assert all(0.0 <= m <= 5.0 for m in mapped)
    assert all(a <= b for a, b in zip(mapped, mapped[1:], strict=False))
    assert calibrate_value(q[5], q) == 5.0


@given(values)
def test_data_quantiles_map_to_their_index_when_distinct(data):
    q = quantiles(data)
    for j in range(5):
        if q[j] < q[j + 1]:
            assert calibrate_value(q[j], q) == pytest.approx(j)


def test_shipped_table_is_complete():
    table = load_table()
    assert table is not None, f"run 'taskverse calibrate' to write {table_path()}"
    raw = json.loads(table_path().read_text())
    assert set(raw["quantiles"]) == set(DIFFICULTY_DIMENSIONS)
    for q in table.quantiles.values():
        assert len(q) == 6 and q == sorted(q)
    meta = table.meta
    assert meta["atoms"] >= 3000 and meta["naive_versions"] == meta["atoms"]
    assert {"library_digest", "date", "taskverse_version"} <= set(meta)

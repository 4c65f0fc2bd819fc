"""Suites: reproducible, traceable, their tasks exist; bias analysis and the task space on real data."""

import json

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from conftest import cli, cli_json, in_process_json, run_cli
from taskverse.benchmarks.bias import compare, entropy, histogram, jensen_shannon, wasserstein
from taskverse.benchmarks.suites import (
    load_suite,
    resolve_suite_task,
    suite_names,
    suite_path,
    task_hash,
)


def test_every_suite_file_is_current_and_its_tasks_exist(library):
    for name in suite_names():
        suite = load_suite(name)
        assert suite.tasks, name
        for item in suite.tasks:
            task = resolve_suite_task(item, library)
            assert task.id == item.id
            assert task_hash(task) == item.hash, f"{name}: {item.id} changed since the suite was built"


def test_building_a_suite_twice_gives_the_same_file():
    """``taskverse suite build`` makes the shipped SkillForge-Chain file again from the same inputs.

    SkillForge itself is rebuilt in place by the same command.
    """
    before = suite_path("SkillForge-Chain").read_text()
    first = run_cli("suite", "build", "SkillForge", "SkillForge-Chain")
    assert first.returncode == 0, first.stderr
    assert suite_path("SkillForge-Chain").read_text() == before


def test_skillforge_covers_every_category_and_kind():
    suite = cli_json("suite", "show", "SkillForge")  # the installed command, as a user runs it
    entries = in_process_json("filter", "", "--from", "SkillForge")
    assert len(entries) == len(suite["tasks"])
    assert {e["category"] for e in entries} >= {"mining", "navigation", "crafting", "exploitation", "combat",
                                                 "building", "misc"}
    assert {e["init"] for e in entries} >= {"atom", "naive"}
    assert any(e["kind"] == "molecule" and e["init"] == "atom" for e in entries)  # compositions
    chain = in_process_json("filter", "", "--from", "SkillForge-Chain")
    assert chain and all(e["init"] == "naive" for e in chain)


def test_filter_command_errors_point_at_the_token():
    result = cli("filter", "category=mining and planning>=3")
    assert result.exit_code == 2 and "unknown field 'planning'" in result.stderr and "column 21" in result.stderr


@given(st.lists(st.floats(0, 5), min_size=1, max_size=50), st.lists(st.floats(0, 5), min_size=1, max_size=50))
def test_distribution_measures_are_bounded_and_symmetric(a, b):
    ha, hb = histogram(np.array(a)), histogram(np.array(b))
    assert abs(ha.sum() - 1) < 1e-9 and 0 <= entropy(ha) <= 1 + 1e-9
    assert 0 <= jensen_shannon(ha, hb) <= 1 + 1e-9
    assert abs(jensen_shannon(ha, hb) - jensen_shannon(hb, ha)) < 1e-9
    assert abs(wasserstein(np.array(a), np.array(b)) - wasserstein(np.array(b), np.array(a))) < 1e-9
    assert wasserstein(np.array(a), np.array(a)) == 0


def test_bias_command_on_the_literature_and_skillforge(tmp_path):
    out = tmp_path / "bias.png"
    report = in_process_json("bias", "-o", str(out))
    assert out.read_bytes()[:4] == b"\x89PNG"
    dims = report["dimensions"]
    assert set(dims) == {"time_consumption", "operational_effort", "planning_complexity", "intricacy",
                         "creativity", "novelty"}
    for dim in dims.values():
        assert 0 <= dim["jensen_shannon"] <= 1


def test_compare_identical_sets_is_zero():
    data = np.random.default_rng(0).uniform(0, 5, size=(30, 6))
    result = compare(data, data, ("a", "b"))
    assert all(v == 0 for v in result.jensen_shannon.values()) and all(v == 0 for v in result.wasserstein.values())


def test_space_command_is_deterministic_and_reports_clustering(tmp_path):
    # once in a process of its own and once in this one: the same points whatever order sets iterate in
    a = json.loads(run_cli("space", "--suite", "SkillForge-Combat", "--format", "json").stdout)
    b = json.loads(cli("space", "--suite", "SkillForge-Combat", "--format", "json").stdout)
    assert a["points"] == b["points"] and a["tasks"] == len(a["points"])
    assert a["silhouette_6d"] is None or -1 <= a["silhouette_6d"] <= 1
    html = tmp_path / "space.html"
    assert cli("space", "--suite", "SkillForge-Mining", "-o", str(html)).exit_code == 0
    assert "<svg" in html.read_text() and "data-info" in html.read_text()
    radar = tmp_path / "radar.png"
    assert cli("space", "--radar", "craft iron_sword", "-o", str(radar)).exit_code == 0
    assert radar.read_bytes()[:4] == b"\x89PNG"

"""Old names that held their variants as data values (``log``, ``planks``, ``wool``, ``bed``) read as group atoms
(``obtain.any_log``): one meaning for the reader, the evaluator and its amounts, the text world's planner and the
engine compile step."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import assert_one_bad_entry
from phrase_support import reads_as
from taskverse.algebra.expr import AtomRef
from taskverse.algebra.parse import parse_expression
from taskverse.algebra.semantics import Evaluator, GameEvent
from taskverse.engine.compiler import compile_task
from taskverse.knowledge.renames import load_renames, renames_path
from taskverse.language.explain import rules_of
from taskverse.textenv.env import SkillForgeTextEnv
from taskverse.textenv.plans import plan_task

WOOL = ["black_wool", "blue_wool", "brown_wool", "cyan_wool", "gray_wool", "green_wool", "light_blue_wool",
        "light_gray_wool", "lime_wool", "magenta_wool", "orange_wool", "pink_wool", "purple_wool", "red_wool",
        "white_wool", "yellow_wool"]


@pytest.mark.parametrize(("phrase", "expected"), [
    ("obtain 8 log in taiga", "amount(8, obtain.any_log @ where=taiga)"),
    ("obtain log", "obtain.any_log"),
    ("find material and craft to obtain planks in jungle", "naive(craft.any_planks @ where=jungle)"),
    ("find material and craft to obtain 8 planks", "naive(amount(8, craft.any_planks))"),
    ("obtain wool", "obtain.any_wool"),
    ("obtain 8 wool", "amount(8, obtain.any_wool)"),
    ("craft bed", "craft.any_bed"),
    ("craft wool", "craft.any_wool"),
    ("obtain any color wool", "obtain.any_wool"),
    ("obtain 3 any color beds", "amount(3, obtain.any_bed)"),
    ("obtain 8 leaves", "amount(8, obtain.any_leaves)"),
    ("obtain 8 fish", "amount(8, obtain.any_fish)"),
    ("craft 2 stained glass", "amount(2, craft.any_stained_glass)"),
    # a verb with no group atom keeps its reading: a tree chopped is any log; a carpet laid is MineDojo's white one
    ("chop a tree", "mine.any_log"),
    ("mine log", "mine.any_log"),
    ("lay carpet", "place.white_carpet"),
    # a game id names that item, and a start gives the one item data value 0 became
    ("obtain oak_log", "obtain.oak_log"),
    ("starting from 3 planks, craft sticks", "init(craft.stick, inventory.oak_planks=3)"),
])
def test_an_old_name_reads_as_its_group_where_the_verb_has_one(phrase, expected):
    assert reads_as(phrase, expected)


def test_the_rule_names_the_old_name_and_the_benchmark_s_judgement(reader):
    rules = rules_of(reader.read("obtain 8 log in taiga"), reader)
    said = next(r for r in rules if r.startswith("old name 'log'"))
    assert "#old_log" in said and "Pre-flattening" in said and "_simple_inventory_based_check" in said


def test_a_1_11_log_is_oak_spruce_birch_or_jungle_as_minedojo_s_check_of_log_counts(library):
    # MineDojo's inventory names acacia and dark oak logs log2: its check of "log" does not count them
    assert library.knowledge.tags["old_log"] == ["birch_log", "jungle_log", "oak_log", "spruce_log"]


@settings(max_examples=40, deadline=None)
@given(split=st.lists(st.sampled_from(WOOL), min_size=1, max_size=20))
def test_an_amount_of_the_group_is_met_by_any_split_over_colours_and_not_by_one_fewer(library, split):
    evaluator = Evaluator.for_library(library)
    expr = parse_expression(f"amount({len(split)}, obtain.any_wool)")
    events = [GameEvent(event="obtain", target=item) for item in split]
    assert evaluator.evaluate(expr, events).satisfied
    assert not evaluator.evaluate(expr, events[:-1]).satisfied
    assert not evaluator.evaluate(expr, [*events[:-1], GameEvent(event="obtain", target="string")]).satisfied


def test_a_log_outside_the_group_does_not_count(library):
    evaluator = Evaluator.for_library(library)
    assert not evaluator.evaluate(AtomRef(task="obtain.any_log"), [GameEvent(event="obtain", target="acacia_log")]
                                  ).satisfied
    assert evaluator.evaluate(AtomRef(task="obtain.any_log"), [GameEvent(event="obtain", target="spruce_log")]
                              ).satisfied


def test_the_group_is_a_goal_the_members_actions_reach_in_the_text_world(library, rules):
    assert "craft.any_bed" not in rules.action_index  # no second action for each recipe
    state = rules.new_state({"red_wool": 3, "birch_planks": 3, "crafting_table": 1}, [])
    action = rules.action_index["craft.red_bed"]
    assert state.mask[action]
    events = rules.act(state, action)
    assert rules.inventory(state).get("red_bed") == 1
    evaluator = Evaluator.for_library(library)
    judged = [GameEvent(event=e[0], target=e[1], count=e[2]) for e in events]
    assert evaluator.evaluate(AtomRef(task="craft.any_bed"), judged).satisfied


def test_the_plan_for_logs_in_a_taiga_mines_spruce_and_is_short(library):
    plan = plan_task("amount(8, obtain.any_log) @ where=taiga", library)
    mined = [a for a in plan.actions if a.startswith("mine.")]
    assert mined == ["mine.spruce_log"] * 8
    assert plan.steps <= 10


def test_the_engine_compile_step_checks_the_members_of_the_group(library):
    ir = compile_task(library.by_id["obtain.any_log"], library, "taskverse_mc")
    assert ir.goals["obtain.any_log"].targets == ["birch_log", "jungle_log", "oak_log", "spruce_log"]


def test_a_group_that_is_no_tag_is_one_clean_line(library, tmp_path):
    old = next(line for line in renames_path().read_text().splitlines() if line.startswith("  - {name: wool,"))
    assert_one_bad_entry(renames_path(), tmp_path / "renames.yaml", old, old.replace("group: wool", "group: wools"),
                         lambda p: load_renames(p, library.knowledge), "no tag of tags.yaml", "group")


def test_skillforge_text_counts_logs_of_two_kinds_towards_the_group(library):
    env = SkillForgeTextEnv(task="amount(3, obtain.any_log)", library=library)
    env.reset(seed=0)
    for name in ("find.spruce_log", "mine.spruce_log", "find.birch_log", "mine.birch_log"):
        _, reward, terminated, _, info = env.step(env.rules.action_index[name])
    assert not terminated and 0 < info["progress"] < 1  # two of three
    _, reward, terminated, _, _ = env.step(env.rules.action_index["mine.spruce_log"])
    assert terminated and reward == 1.0

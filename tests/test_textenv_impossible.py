"""Impossible tasks: drawn only where the world model proves them out of reach, offered a give-up, scored by F1.

Tasks are named by id, never by a suite's contents (suites are rebuilt as the world model changes).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from conftest import HANG_GUARD, cli
from llm_server import Server, greedy_answer
from taskverse.errors import TaskverseError
from taskverse.textenv.answers import choose_action
from taskverse.textenv.env import SkillForgeTextEnv, resolve_target, shared_library
from taskverse.textenv.evaluation import named_tasks
from taskverse.textenv.impossible import GIVE_UP, impossible_tasks, offered_text, proof
from taskverse.textenv.llm import GIVE_UP_INSTRUCTION
from taskverse.textenv.options import AnswerRefused
from taskverse.textenv.planning import planner_for
from taskverse.world.search import possible_actions

POSSIBLE = ("craft.stick", "hunt.sheep")


def test_every_impossible_task_is_proven_out_of_reach_and_drawn_by_the_seed():
    library = shared_library()
    possible = named_tasks(POSSIBLE, library)
    drawn = impossible_tasks(library, 6, seed=3, possible=possible)
    assert [t.target.id for t in drawn] == [t.target.id for t in impossible_tasks(library, 6, 3, possible)]
    assert len({t.target.id for t in drawn}) == 6
    assert sum(">>" in t.reference for t in drawn) == 3  # half after a task of the run
    env = SkillForgeTextEnv(observation="structured", plan_info=False, library=library)
    for task in drawn:
        _check_proof(env, library, task)
    for task in possible:  # a task to be done is never called impossible
        assert proof(env, task.target) is None
    with pytest.raises(TaskverseError, match="proves only 207 distinct"):  # 31 atoms, 142 tools, 34 weathers
        impossible_tasks(library, 1000, seed=0)


def _check_proof(env, library, task) -> None:
    """The task's proof holds, on its own ground, and the planner's own search finds no plan either."""
    kn = library.knowledge
    assert task.reason and proof(env, task.target) == task.reason
    rules = env.rules
    dead = task.reason.split("'")[1]
    if "needs what nothing gives" in task.reason:
        # from this start no action that counts for the atom can ever be done
        reachable = possible_actions(rules, {r: c for r, c in enumerate(env.state.counts) if c})
        assert not any(reachable[a] for a in range(len(rules.actions)) if rules.actions[a] == dead)
    elif "in hand" in task.reason:
        # the game's harvest tools leave the tool out: mined with it, the block drops nothing
        tool = re.search(r" with (\w+): no way to do it has", task.reason).group(1)
        block = library.get(dead).goal.target
        assert tool not in kn.blocks[block]["harvest_tools"], task.reason
    else:
        # it never rains or thunders in the biome
        assert re.search(r"at (rain|thunder): the text world keeps", task.reason), task.reason
        assert not kn.biomes[library.get(dead).goal.target]["precipitation"], task.reason
    assert planner_for(env, from_start=True, budget=500).best_plan()[0] is None


def test_impossible_tasks_come_from_every_family_and_only_the_game_s_own_reasons():
    """Out-of-reach atoms, blocks mined with a tool that cannot harvest them, weather a biome never has."""
    from taskverse.algebra.molecule import Conflict, build_molecule
    from taskverse.algebra.parse import parse_expression
    from taskverse.textenv.impossible import candidate_families

    library = shared_library()
    drawn = impossible_tasks(library, 9, seed=5)
    kinds = ["in hand" in t.reason for t in drawn], ["keeps the start's" in t.reason for t in drawn]
    assert sum(kinds[0]) == 3 and sum(kinds[1]) == 3  # the families taken in turn
    env = SkillForgeTextEnv(observation="structured", plan_info=False, library=library)
    for task in drawn:
        _check_proof(env, library, task)
    atoms, tools, weathers = candidate_families(library)
    assert "mine.diamond_ore @ how=with:stone_pickaxe" in tools and "find.desert @ when=rain" in weathers
    for candidate in (tools[0], weathers[0]):  # a user's composition of them is refused, naming why
        with pytest.raises(Conflict):
            build_molecule(parse_expression(candidate), library)
    # the text world keeps its clear weather, but it does rain in the plains: never called impossible
    assert not any("plains" in t.reference for t in impossible_tasks(library, 207, seed=0))
    plains = resolve_target("find.plains @ when=rain", library)
    assert proof(env, plains) is not None


def test_the_give_up_is_one_more_candidate_and_read_from_answers():
    env = SkillForgeTextEnv(task="craft stick", plan_info=False, view="top:5")
    env.reset(seed=0)
    shown = env.shown_candidates()
    assert offered_text(env.text(), len(shown)).endswith(f"; {len(shown)}: give up")
    for answer in ("ACTION: 5", "I cannot do this. ACTION: give up", "impossible", "<think>0?</think>Give_Up"):
        assert choose_action(env, answer, give_up=True) == GIVE_UP
    assert choose_action(env, "ACTION: 4", give_up=True) == shown[4]
    with pytest.raises(AnswerRefused):  # not offered: not an answer
        choose_action(env, "ACTION: 5")


def _run(*args: str, tmp_path: Path, name: str) -> tuple[dict, list[dict]]:
    report = tmp_path / f"{name}.json"
    result = cli("eval", "--tasks", *POSSIBLE, "--no-progress", "--format", "json", "-o", str(report), *args)
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in (tmp_path / f"{name}.trajectories.jsonl").read_text().splitlines()]
    return json.loads(result.stdout), lines


def test_impossible_tasks_leave_the_success_figures_as_they_were_and_are_scored_by_f1(tmp_path):
    plain, _ = _run("--agent", "greedy", tmp_path=tmp_path, name="plain")
    mixed, lines = _run("--agent", "greedy", "--impossible", "4", "--seed", "0", tmp_path=tmp_path, name="mixed")
    assert mixed["summary"] == plain["summary"] and mixed["by_category"] == plain["by_category"]
    assert mixed["impossible"] == {"tasks": 4, "episodes": 4, "said_impossible": 4, "true_positives": 4,
                                   "false_positives": 0, "false_negatives": 0, "precision": 1.0, "recall": 1.0,
                                   "f1": 1.0}
    assert mixed["give_up"] is True and "give_up" not in plain and mixed["episodes_done"] == 6
    impossible = [t for t in mixed["tasks"] if "impossible" in t]
    assert len(impossible) == 4 and all(t["episodes"][0]["termination"] == "gave_up" for t in impossible)
    assert lines[-1]["trajectory"][-1]["action"] == "give_up" and lines[-1]["gave_up"] is True
    text = "\n".join(cli("eval", "--tasks", *POSSIBLE, "--agent", "greedy", "--impossible", "4",
                         "--no-progress").stdout.splitlines())
    assert "impossible tasks: 4 (4 episodes); said impossible 4 times (4 rightly); precision 1.000, recall " \
           "1.000, F1 1.000" in text
    # an agent that always gives up: every impossible task found, every possible one lost
    always = f"cmd:{sys.executable} -c \"import sys\nfor line in sys.stdin: print('give up', flush=True)\""
    quitter, lines = _run("--agent", always, "--impossible", "2", "--answer-timeout", str(HANG_GUARD),
                          tmp_path=tmp_path, name="quitter")
    assert quitter["summary"]["successes"] == 0 and quitter["impossible"]["recall"] == 1.0
    assert quitter["impossible"]["precision"] == 0.5 and quitter["impossible"]["f1"] == 0.6667


def _judge(body: dict) -> str:
    """A model that knows: the give-up's number when the world model proves the task out of reach, else greedy."""
    prompt = body["messages"][-1]["content"]
    task = re.search(r"^Task: (.*)\.$", prompt, re.M).group(1)
    library = shared_library()
    env = SkillForgeTextEnv(observation="structured", plan_info=False, library=library)
    try:
        impossible = proof(env, resolve_target(_composition(task), library)) is not None
    except TaskverseError:  # a composition the game's rules refuse ("mine diamond_ore with wooden_pickaxe")
        impossible = True
    if impossible:
        return "It cannot be done.\nACTION: " + re.search(r"(\d+): give up$", prompt, re.M).group(1)
    return greedy_answer(prompt)


def _composition(description: str) -> str:
    return " >> ".join(description.split(" and then "))


def test_a_language_model_is_offered_the_give_up_over_the_wire(tmp_path):
    server = Server(answer=_judge)
    try:
        report, lines = _run("--agent", "openai:m", "--base-url", server.url, "--impossible", "2", "--view",
                             "relevant", "--answer-timeout", str(HANG_GUARD), tmp_path=tmp_path, name="model")
    finally:
        server.close()
    assert report["summary"]["successes"] == 2 and report["impossible"]["f1"] == 1.0
    # every request lists the give-up after the view's candidates, and the trajectory keeps what was sent
    assert all(re.search(r"^Candidate Actions:\n(.*; )?\d+: give up$", body["messages"][-1]["content"], re.M)
               for body in server.bodies)
    gave_up = [line for line in lines if line.get("gave_up")]
    assert [line["termination"] for line in gave_up] == ["gave_up", "gave_up"]
    assert all(line["trajectory"][-1]["action"] == "give_up" and "give up" in
               line["trajectory"][-1]["messages"][-1]["content"] for line in gave_up)
    # and the model is told what the give-up is for
    assert all(body["messages"][-1]["content"].endswith(GIVE_UP_INSTRUCTION) for body in server.bodies)

"""``taskverse engine eval``: agents a step at a time in the real engine, with the report of the text world's kind.

A program in another language (POSIX sh) speaking JSON lines finishes episodes; one that crashes or never answers
fails its episodes with the reason and the run goes on; tasks that do not compile are listed with the reason.
"""

from __future__ import annotations

import json
import os
import stat

import pytest

from engine_support import need_engine
from taskverse.engine.evaluation import build_report, check_agent, summary_lines
from taskverse.errors import TaskverseError


@pytest.mark.parametrize(("spec", "reason"), [("openai:", "needs a model name"),
                                              ("optimum", "unknown agent 'optimum'"), ("cmd:", "needs a program")])
def test_an_agent_the_engine_does_not_run_is_one_clear_message(spec, reason):
    with pytest.raises(TaskverseError) as caught:
        check_agent(spec)
    assert reason in caught.value.message


def test_the_report_counts_successes_by_category_and_says_why_episodes_failed():
    entries = [
        {"name": "craft.stick", "task": "craft.stick", "category": "crafting", "compiled": True, "reason": None,
         "episodes": [{"episode": 0, "success": True, "steps": 1, "invalid_steps": 0, "replay_agrees": True},
                      {"episode": 1, "success": False, "steps": 3, "invalid_steps": 2, "error": None,
                       "reason": "step limit", "replay_agrees": True}]},
        {"name": "craft.iron_helmet", "task": "craft.iron_helmet", "category": "crafting", "compiled": False,
         "reason": "iron_helmet (item) has no counterpart in minetest_game", "episodes": []},
    ]
    report = build_report(entries, agent="random", game="minetest_game", episodes=2, seed=0, max_steps=3, wall=1.0)
    s = report["summary"]
    assert (s["episodes"], s["successes"], s["success_rate"], s["compiled"], s["invalid_steps"]) == (2, 1, 0.5, 1, 2)
    assert s["by_category"] == {"crafting": {"episodes": 2, "success_rate": 0.5}}
    assert s["failures"] == {"step limit": 1}
    lines = summary_lines(report)
    assert "craft.iron_helmet: does not compile: iron_helmet (item) has no counterpart" in "\n".join(lines)


def _script(path, text):
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return path


def _eval(*args):
    from click.testing import CliRunner

    from taskverse.cli.engine import engine

    return CliRunner().invoke(engine, ["eval", *args])


def test_the_optimal_agent_over_tasks_with_a_report_file(tmp_path):
    need_engine(client=True)
    out = tmp_path / "report.json"
    done = _eval("--tasks", "craft.stick", "--tasks", "craft.iron_helmet", "--tasks", "mine.stone", "--agent",
                 "optimal", "--workers", "2", "-o", str(out), "--format", "json")
    assert done.exit_code == 0, done.output
    report = json.loads(done.stdout)
    assert report == json.loads(out.read_text())
    s = report["summary"]
    assert (s["tasks"], s["compiled"], s["episodes"], s["successes"]) == (3, 2, 2, 2) and s["replay_agrees"]
    helmet = report["tasks"][1]
    assert not helmet["compiled"] and "no counterpart" in helmet["reason"]
    first = report["tasks"][0]["episodes"][0]["trajectory"][0]["action"]
    assert (first["do"], first["item"]) == ("craft", "default:stick")
    again = _eval("--tasks", "craft.stick", "--agent", "optimal", "-o", str(out))
    assert again.exit_code == 2 and "--force" in again.output


def test_programs_in_another_language_finish_episodes_and_failing_ones_fail_only_theirs(tmp_path):
    need_engine(client=True)
    json_agent = _script(tmp_path / "json_agent.sh", "#!/bin/sh\nwhile read -r line; do\n"
                         "  echo '{\"action\": {\"do\": \"craft\", \"item\": \"stick\"}, \"reasoning\": \"planks\"}'\n"
                         "done\n")
    number_agent = _script(tmp_path / "number_agent.sh", "#!/bin/sh\nwhile read -r line; do echo 1; done\n")
    words_agent = _script(tmp_path / "words_agent.sh",
                          "#!/bin/sh\nwhile read -r line; do echo 'craft default:stick'; done\n")
    # each form of answer finishes an episode; one program plays two
    for agent, episodes in ((json_agent, 2), (number_agent, 1), (words_agent, 1)):
        done = _eval("--tasks", "craft.stick", "--agent", f"cmd:sh {agent}", "--episodes", str(episodes), "--format",
                     "json")
        assert done.exit_code == 0, done.output
        summary = json.loads(done.stdout)["summary"]
        assert (summary["episodes"], summary["successes"]) == (episodes, episodes), done.stdout
    crash = _script(tmp_path / "crash.sh", "#!/bin/sh\nexit 3\n")
    silent = _script(tmp_path / "silent.sh", "#!/bin/sh\nexec sleep 100000\n")
    for agent, reason in ((crash, "stopped reading its input"), (silent, "gave no answer within 2 s")):
        done = _eval("--tasks", "craft.stick", "--tasks", "mine.stone", "--agent", f"cmd:sh {agent}",
                     "--answer-timeout", "2", "--format", "json")
        assert done.exit_code == 0, done.output
        report = json.loads(done.stdout)
        runs = [run for entry in report["tasks"] for run in entry["episodes"]]
        assert len(runs) == 2 and not any(run["success"] for run in runs)
        assert all(run["error"].startswith("agent: ") and reason in run["error"] for run in runs), runs
    assert not [p for p in os.listdir("/proc") if p.isdigit() and _is_engine_of(p, tmp_path)]


def _is_engine_of(pid: str, tmp_path) -> bool:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return str(tmp_path).encode() in f.read()
    except OSError:
        return False


def test_the_greedy_agent_plays_the_planners_first_plan():
    need_engine(client=True)
    done = _eval("--tasks", "craft.wooden_pickaxe", "--tasks", "mine.iron_ore", "--agent", "greedy", "--format", "json")
    assert done.exit_code == 0, done.output
    summary = json.loads(done.stdout)["summary"]
    assert (summary["episodes"], summary["successes"]) == (2, 2) and summary["replay_agrees"]


def test_the_random_agent_runs_to_its_step_limit_honestly():
    need_engine(client=True)
    done = _eval("--tasks", "mine.iron_ore", "--agent", "random", "--max-steps", "5", "--seed", "3", "--format", "json")
    assert done.exit_code == 0, done.output
    run = json.loads(done.stdout)["tasks"][0]["episodes"][0]
    assert run["error"] is None and run["steps"] <= 5 and len(run["trajectory"]) == run["steps"]
    assert run["success"] or run["reason"] in ("step limit", "the agent stopped") or run["failed_steps"]


def _fake_episodes(monkeypatch, stop_after=None, errors=()):
    """Episodes that finish at once without an engine (``errors``: (task, episode) that end in an agent error);
    the run is interrupted after ``stop_after`` of them. The calls made are returned, as (task, episode)."""
    from taskverse.engine import evaluation, runner

    calls = []

    def episode(job, agent, settings, *, library, client_home=None, episode=None):
        if stop_after is not None and len(calls) == stop_after:
            raise runner.Interrupted([], 0)  # Ctrl-C while this episode plays: it is not finished
        calls.append((job.index, job.episode))
        error = "agent: it crashed" if (job.index, job.episode) in errors else None
        return {"index": job.index, "episode": job.episode, "task": job.task.id, "seed": job.seed,
                "success": error is None, "steps": 1, "invalid_steps": 0, "error": error, "failed_steps": [],
                "replay_agrees": True, "trajectory": [], "seconds": 0.5}

    def run_all(one, jobs, parallel):
        for job in jobs:
            one(job, None)

    monkeypatch.setattr(evaluation, "run_engine_episode", episode)
    monkeypatch.setattr(runner, "run_all", run_all)
    return calls


def test_ctrl_c_reports_the_episodes_that_finished(monkeypatch, tmp_path):
    import signal

    from click.testing import CliRunner

    from taskverse.cli.engine import engine

    _fake_episodes(monkeypatch, stop_after=1)
    out = tmp_path / "report.json"
    previous = signal.getsignal(signal.SIGINT)
    try:
        done = CliRunner().invoke(engine, ["eval", "--tasks", "craft.stick", "--agent", "random", "--episodes", "3",
                                           "-o", str(out), "--format", "json"])
    finally:
        signal.signal(signal.SIGINT, previous)
    assert done.exit_code == 130, done.output
    report = json.loads(done.stdout)
    assert report == json.loads(out.read_text())
    assert report["interrupted"] == {"episodes": 3, "finished": 1}
    assert report["summary"]["episodes"] == 1 and report["summary"]["successes"] == 1
    assert done.stderr.strip().splitlines()[-1].startswith("error: interrupted; every engine of the run was stopped")


def test_resume_keeps_finished_episodes_runs_agent_errors_again_and_keeps_the_wall_time(monkeypatch, tmp_path):
    import signal

    from click.testing import CliRunner

    from taskverse.cli.engine import engine

    out = tmp_path / "report.json"
    args = ["eval", "--tasks", "craft.stick", "--tasks", "craft.iron_helmet", "--tasks", "mine.stone", "--agent",
            "random", "--episodes", "2", "-o", str(out), "--format", "json"]
    calls = _fake_episodes(monkeypatch, stop_after=3, errors={(0, 1)})
    previous = signal.getsignal(signal.SIGINT)
    try:
        first = CliRunner().invoke(engine, args)
    finally:
        signal.signal(signal.SIGINT, previous)
    assert first.exit_code == 130, first.output
    assert calls == [(0, 0), (0, 1), (2, 0)]
    partial = json.loads(out.read_text())
    assert not partial["complete"] and partial["summary"]["episodes"] == 3
    lines = (tmp_path / "report.trajectories.jsonl").read_text().splitlines()
    assert len(lines) == 3
    wall = partial["run"]["wall_seconds"]
    again = CliRunner().invoke(engine, [*args, "--seed", "1", "--resume"])
    assert again.exit_code == 2 and "seed" in again.output  # not the same evaluation
    calls = _fake_episodes(monkeypatch)
    done = CliRunner().invoke(engine, [*args, "--resume"])
    assert done.exit_code == 0, done.output
    assert calls == [(0, 1), (2, 1)]  # the agent error again, and the episode never run
    report = json.loads(done.stdout)
    assert report == json.loads(out.read_text()) and report["complete"]
    s = report["summary"]
    assert (s["episodes"], s["successes"], s["agent_errors"]) == (4, 4, 0)
    assert report["run"]["wall_seconds"] >= wall
    lines = (tmp_path / "report.trajectories.jsonl").read_text().splitlines()
    assert sorted((json.loads(line)["index"], json.loads(line)["episode"]) for line in lines) == \
        [(0, 0), (0, 1), (2, 0), (2, 1)]


class _ModelServer:
    """An OpenAI-compatible chat completions endpoint on loopback that answers like a small model: a line of
    reasoning, then the number of the first candidate that crafts (else 1) — or, in ``broken`` mode, HTTP 500."""

    def __init__(self, broken: bool = False) -> None:
        import threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        self.prompts: list[str] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                prompt = body["messages"][-1]["content"]
                outer.prompts.append(prompt)
                if broken:
                    self.send_response(500)
                    self.end_headers()
                    return
                numbers = [line.split(".")[0].strip() for line in prompt.splitlines()
                           if line.startswith("  ") and '"do": "craft"' in line]
                content = f"Crafting is the way.\nACTION: {numbers[0] if numbers else 1}"
                data = json.dumps({"id": "x", "object": "chat.completion", "created": 0, "model": body["model"],
                                   "choices": [{"index": 0, "finish_reason": "stop",
                                                "message": {"role": "assistant", "content": content}}],
                                   "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}})
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data.encode())

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.mark.parametrize("broken", [False, True])
def test_a_language_model_behind_a_loopback_endpoint_finishes_episodes(monkeypatch, broken):
    need_engine(client=True)
    pytest.importorskip("openai")
    server = _ModelServer(broken)
    monkeypatch.setenv("OPENAI_BASE_URL", server.url)
    monkeypatch.setenv("OPENAI_API_KEY", "local")
    try:
        # (a broken endpoint is not asked again: trying again after a backoff is the text world's test_textenv_llm's)
        retries = ("--retries", "0") if broken else ()
        done = _eval("--tasks", "craft.stick", "--agent", "openai:tiny-model", "--episodes", "2", *retries,
                     "--format", "json")
    finally:
        server.close()
    assert done.exit_code == 0, done.output
    report = json.loads(done.stdout)
    runs = report["tasks"][0]["episodes"]
    if broken:
        assert not any(r["success"] for r in runs)
        assert all(r["error"].startswith("agent: openai:tiny-model: ") for r in runs), runs
        assert all(r["invalid_steps"] == 2 for r in runs), runs  # two wasted steps, then the third ends it
    else:
        assert [r["success"] for r in runs] == [True, True] and runs[0]["steps"] == 1
        assert server.prompts[0].startswith("Task: craft stick.") and "Candidate actions" in server.prompts[0]


@pytest.mark.parametrize(("args", "says"), [
    (["--chance", "sure"], "the engine draws every drop itself: use --chance sample"),
    (["--view", "top:0"], "top:K needs a whole number K"),
    (["--init", "nave"], "'nave' is not one of 'auto', 'naive', 'task'"),
])
def test_text_world_options_the_engine_cannot_honour_are_one_line_saying_why(args, says):
    done = _eval("--tasks", "craft.stick", "--agent", "random", *args)
    assert done.exit_code == 2 and says in done.output, done.output
    assert "Traceback" not in done.output


def test_a_start_mode_gives_the_task_its_own_start_or_the_naive_one(library):
    from taskverse.algebra.expr import custom, ref
    from taskverse.algebra.molecule import build_molecule
    from taskverse.engine.starts import start_as

    atom = library.get("craft.iron_sword")
    assert start_as(atom, "task", library) is atom
    naive_sword = start_as(atom, "naive", library)
    assert naive_sword.kind == "molecule" and naive_sword.expression.mode == "naive"
    assert start_as(atom, "auto", library).id == naive_sword.id  # the text world's default: naive
    assert start_as(naive_sword, "naive", library) is naive_sword  # not naive(naive(...))
    night = build_molecule(custom(ref("craft.iron_sword"), time="night"), library)
    assert start_as(night, "auto", library) is night  # a custom init(...) is kept, as in the text world
    with pytest.raises(TaskverseError, match="expected auto, naive, task"):
        start_as(atom, "empty", library)


def test_a_view_lists_what_the_plan_names_and_ranks_the_plans_own_actions_first(monkeypatch):
    from types import SimpleNamespace

    from taskverse.engine import adapter

    plan = (["dig default:tree", "craft default:wood", "craft default:stick"],
            {"default:tree", "default:wood", "default:stick"})
    monkeypatch.setattr(adapter, "_plan_view", lambda episode: plan)
    episode = SimpleNamespace(task=SimpleNamespace(id="craft.stick", category=None, kind="atom"),
                              description="craft stick")
    actions = [{"do": "wield", "item": "default:dirt"}, {"do": "craft", "item": "default:stick"},
               {"do": "goto_node", "node": "default:stone", "radius": 8}, {"do": "collect"},
               {"do": "dig", "node": "default:tree"}, {"do": "craft", "item": "default:wood"}]

    def shown(view):
        world = adapter.EngineWorld(episode, view=view)  # type: ignore[arg-type]
        world._candidates = [world.rules.add(a) for a in actions]
        return [world.rules.descriptions[a] for a in world.shown_candidates()]

    assert shown("all") == [adapter.describe(a) for a in actions]
    assert shown("relevant") == ["craft default:stick", "collect", "dig default:tree", "craft default:wood"]
    assert shown("top:3") == ["dig default:tree", "craft default:wood", "craft default:stick"]
    monkeypatch.setattr(adapter, "_plan_view", lambda episode: ([], set()))  # no plan: nothing to rank by
    assert shown("relevant") == [adapter.describe(a) for a in actions]


def test_a_naive_start_a_view_and_the_engines_trajectories_as_few_shot_examples(tmp_path):
    need_engine(client=True)
    from taskverse.textenv.llm import few_shot_text

    out = tmp_path / "report.json"
    done = _eval("--tasks", "craft.stick", "--agent", "optimal", "--init", "naive", "--view", "top:4",
                 "-o", str(out), "--format", "json")
    assert done.exit_code == 0, done.output
    report = json.loads(done.stdout)
    assert report["settings"]["init"] == "naive" and report["settings"]["view"] == "top:4"
    run = report["tasks"][0]["episodes"][0]
    assert run["success"] and run["steps"] > 1  # from an empty inventory: wood first, then the stick
    assert run["actions"][-1].startswith("craft default:stick")  # the plan's step in words, with its ingredients
    examples = few_shot_text(out.with_name("report.trajectories.jsonl"))
    assert "Actions, in order:" in examples and "craft default:stick" in examples
    assert examples.splitlines()[1].startswith("Task: craft stick. Actions")  # as the text world names it
    assert run["description"] == "craft stick" and run["task"].startswith("mol.")  # not by the naive molecule's id


def test_both_evaluations_take_the_agent_options_from_one_declaration():
    import doctest
    import importlib

    from taskverse.cli import agent_options
    from taskverse.cli.engine import engine
    from taskverse.cli.textenv import eval_command

    def declared(command):
        return {p.name: (p.opts, p.default, p.help, repr(p.type)) for p in command.params
                if p.name in agent_options.AGENT_ARGS}

    text, engine_eval = declared(eval_command), declared(engine.commands["eval"])
    assert set(text) == set(agent_options.AGENT_ARGS) and text == engine_eval
    result = doctest.testmod(importlib.import_module("taskverse.cli.agent_options"))
    assert result.attempted >= 1 and result.failed == 0


def test_the_game_proves_a_tool_that_cannot_harvest_out_of_reach_and_a_craft_not(library):
    from taskverse.algebra.molecule import build_out_of_reach
    from taskverse.algebra.parse import parse_expression
    from taskverse.engine.compiler import compile_task
    from taskverse.engine.impossible import game_proof

    wrong_tool, conflict = build_out_of_reach(parse_expression("mine.diamond_ore @ how=with:wooden_pickaxe"), library)
    assert conflict is not None  # the molecule builder refuses it as a composition a user would not want
    proof = game_proof(wrong_tool, compile_task(wrong_tool, library, "minetest_game"), library)
    assert proof is not None and "default:pick_wood" in proof
    stick = library.get("craft.stick")
    assert game_proof(stick, compile_task(stick, library, "minetest_game"), library) is None


#: The draw of ``engine eval --tasks craft.stick --impossible 4`` (seed 0, the task's own start, minetest_game).
#: Each is a block the tool cannot dig in minetest_game as the test below checks on the registry (a pickaxe digs a
#: ``cracky`` level only when its capabilities give that level a time) and as Minecraft has it (iron ore needs a
#: stone pickaxe, gold blocks and diamond ore an iron one).
DRAWN = [("craft.stick >> mine iron_ore with wooden_pickaxe", "default:stone_with_iron", "default:pick_wood"),
         ("craft.stick >> mine gold_block with stone_pickaxe", "default:goldblock", "default:pick_stone"),
         ("mine diamond_ore with wooden_pickaxe", "default:stone_with_diamond", "default:pick_wood"),
         ("mine gold_block with stone_pickaxe", "default:goldblock", "default:pick_stone")]


def test_the_draw_for_a_seed_is_the_same_and_a_second_draw_proves_nothing_again(library, monkeypatch):
    import taskverse.engine.impossible as engine_impossible
    import taskverse.textenv.impossible as text_impossible
    from taskverse.engine.profile import load_registry

    def draw():
        stick = library.get("craft.stick")
        return engine_impossible.engine_impossible_tasks(library, "minetest_game", 4, 0, [("craft.stick", stick)],
                                                         "task")

    first = draw()
    assert [e.reference for e in first] == [ref for ref, _, _ in DRAWN]
    registry = load_registry("minetest_game")
    for drawn, (_, node, tool) in zip(first, DRAWN, strict=True):
        assert f"with {tool}: no way to do it has a {tool} in hand" in drawn.reason
        level = str(registry.items[node].groups["cracky"])
        caps = registry.items[tool].tool_capabilities
        assert caps is not None and level not in caps.groupcaps["cracky"].times  # the game's own dig rule
    # the proofs are kept (text world and game alike): drawing again proves nothing, and draws the same
    def never(*_):
        raise AssertionError("proved again")

    monkeypatch.setattr(text_impossible, "proof", never)
    monkeypatch.setattr(engine_impossible, "game_proof", never)
    again = draw()
    assert [(e.reference, e.task.id, e.reason) for e in again] == [(e.reference, e.task.id, e.reason) for e in first]


def test_the_report_scores_the_give_up_apart_by_f1():
    def run(episode, success, gave_up, impossible):
        return {"episode": episode, "success": success, "steps": 1, "invalid_steps": 0, "replay_agrees": True,
                "gave_up": gave_up, "impossible": impossible, "reason": "gave up" if gave_up else None}

    entries = [
        {"name": "craft.stick", "task": "craft.stick", "category": "crafting", "compiled": True, "reason": None,
         "episodes": [run(0, True, False, False), run(1, False, True, False)]},
        {"name": "mine diamond_ore with wooden_pickaxe", "task": "mol.x", "category": "molecule", "compiled": True,
         "reason": None, "impossible": "no way to do it has a default:pick_wood in hand",
         "episodes": [run(0, False, True, True), run(1, False, False, True)]},
    ]
    report = build_report(entries, agent="cmd:x", game="minetest_game", episodes=2, seed=0, max_steps=3, wall=1.0,
                          give_up=True)
    s = report["summary"]
    assert (s["tasks"], s["episodes"], s["successes"]) == (1, 2, 1) and set(s["by_category"]) == {"crafting"}
    f1 = report["impossible"]
    assert (f1["tasks"], f1["episodes"], f1["true_positives"], f1["false_positives"], f1["false_negatives"]) == \
        (1, 2, 1, 1, 1)
    assert f1["f1"] == 0.5
    lines = "\n".join(summary_lines(report))
    assert "impossible: gave up" in lines and "F1 0.500" in lines


def test_impossible_tasks_in_the_engine_the_planner_gives_up_on_them_and_a_program_may_too(tmp_path):
    need_engine(client=True)
    done = _eval("--tasks", "craft.stick", "--agent", "optimal", "--impossible", "1", "--format", "json")
    assert done.exit_code == 0, done.output
    report = json.loads(done.stdout)
    assert report["settings"]["give_up"] and len(report["impossible_run"]) == 1
    stick, out_of_reach = report["tasks"]
    assert stick["episodes"][0]["success"] and not stick["episodes"][0]["gave_up"]
    assert out_of_reach["impossible"] and out_of_reach["compiled"]
    run = out_of_reach["episodes"][0]
    assert run["gave_up"] and run["impossible"] and not run["success"] and run["reason"] == "gave up"
    assert run["steps"] == 0 and run["trajectory"][-1]["action"] == "give_up"  # nothing played, then the give-up
    assert report["impossible"]["f1"] == 1.0 and report["summary"]["success_rate"] == 1.0
    # a program told of the give-up candidate (its number after the others') takes it for every task
    quitter = _script(tmp_path / "quitter.sh", "#!/bin/sh\nwhile read -r line; do\n"
                      "  case \"$line\" in *'\"give up\"'*) echo 'give up' ;; *) echo 0 ;; esac\ndone\n")
    done = _eval("--tasks", "craft.stick", "--agent", f"cmd:sh {quitter}", "--impossible", "1", "--format", "json")
    assert done.exit_code == 0, done.output
    report = json.loads(done.stdout)
    assert [r["gave_up"] for t in report["tasks"] for r in t["episodes"]] == [True, True]
    f1 = report["impossible"]
    assert (f1["true_positives"], f1["false_positives"], f1["precision"], f1["recall"]) == (1, 1, 0.5, 1.0)
    assert report["summary"]["successes"] == 0


def test_a_tasks_episodes_are_cut_into_chains_one_per_worker_and_fresh_servers_play_one_each():
    from types import SimpleNamespace

    from taskverse.engine.chains import chains

    def cut(jobs, workers, fresh=False):
        return [[(j.index, j.episode) for j in chain] for chain in chains(jobs, workers, fresh)]

    jobs = [SimpleNamespace(index=i, episode=k) for i in (0, 2) for k in range(5)]
    assert cut(jobs, 1) == cut(jobs, 2) == [[(0, k) for k in range(5)], [(2, k) for k in range(5)]]
    # as many chains as the workers need: a task alone is cut in two for two workers, in three for four of each
    assert cut(jobs[:5], 2) == [[(0, 0), (0, 1), (0, 2)], [(0, 3), (0, 4)]]
    assert [len(chain) for chain in cut(jobs, 5)] == [2, 2, 1, 2, 2, 1]
    assert cut(jobs[:2], 4) == [[(0, 0)], [(0, 1)]]  # never more chains than episodes
    assert cut(jobs, 2, fresh=True) == [[(j.index, j.episode)] for j in jobs]
    resumed = [jobs[1], jobs[3], jobs[4], jobs[7]]  # what a resumed run has left: chains of those alone
    assert cut(resumed, 1) == [[(0, 1), (0, 3), (0, 4)], [(2, 2)]]


def test_a_chains_episodes_share_one_episode_and_fresh_server_gives_each_its_own(monkeypatch):
    from click.testing import CliRunner

    from taskverse.cli.engine import engine
    from taskverse.engine import evaluation

    _fake_episodes(monkeypatch)
    shared: list[tuple[int, int, object]] = []
    fake = evaluation.run_engine_episode

    def episode(job, agent, settings, *, library, client_home=None, episode=None):
        shared.append((job.index, job.episode, episode))
        assert episode is not None and episode.reuse is not settings.fresh_server
        return fake(job, agent, settings, library=library, client_home=client_home, episode=episode)

    monkeypatch.setattr(evaluation, "run_engine_episode", episode)
    args = ["eval", "--tasks", "craft.stick", "--tasks", "mine.stone", "--agent", "random", "--episodes", "3",
            "--format", "json"]
    done = CliRunner().invoke(engine, args)
    assert done.exit_code == 0, done.output
    assert [(i, k) for i, k, _ in shared] == [(i, k) for i in (0, 1) for k in range(3)]
    # the two tasks are of one world: their six episodes follow one another in one server
    assert len({id(e) for _, _, e in shared}) == 1
    assert json.loads(done.stdout)["run"]["fresh_server"] is False
    shared.clear()
    done = CliRunner().invoke(engine, [*args, "--fresh-server"])
    assert done.exit_code == 0, done.output
    assert len({id(e) for _, _, e in shared}) == 6 and json.loads(done.stdout)["run"]["fresh_server"] is True


#: What may differ between an evaluation that restarts episodes in the running server and one that starts a new
#: server for each: timings, and the counts of how episodes started.
SERVER_COUNTS = ("run", "seconds", "wall_seconds", "server", "refused_restart", "servers_started",
                 "restarted_in_server")


def _but_servers(value):
    if isinstance(value, list):
        return [_but_servers(v) for v in value]
    if isinstance(value, dict):
        return {k: _but_servers(v) for k, v in value.items() if k not in SERVER_COUNTS}
    return value


def test_episodes_restarted_in_the_running_server_report_as_on_a_new_server_each():
    need_engine(client=True)
    # from scratch: trees are dug and a crafting table is placed, which the next episode must find put back
    args = ("--tasks", "naive(craft.wooden_pickaxe)", "--agent", "optimal", "--episodes", "3", "--format", "json")
    reused = _eval(*args)
    fresh = _eval(*args, "--fresh-server")
    assert reused.exit_code == 0 and fresh.exit_code == 0, reused.output + fresh.output
    again, each = json.loads(reused.stdout), json.loads(fresh.stdout)
    runs = again["tasks"][0]["episodes"]
    assert [r["server"] for r in runs] == ["fresh", "restart", "restart"], runs
    assert (again["summary"]["servers_started"], again["summary"]["restarted_in_server"]) == (1, 2)
    assert [r["server"] for r in each["tasks"][0]["episodes"]] == ["fresh"] * 3
    assert (each["summary"]["servers_started"], each["summary"]["restarted_in_server"]) == (3, 0)
    assert again["summary"]["successes"] == 3 and all(r["steps"] > 5 and r["events"] for r in runs)
    # successes, steps, progress, every step's action and outcome, the events logged: all the same
    assert _but_servers(again) == _but_servers(each)


def test_a_chain_keeps_each_episodes_frames_in_a_folder_of_its_own(tmp_path):
    need_engine(client=True)
    from taskverse.engine.frames import XVFB

    assert XVFB.exists(), "screenshots need Debian's xvfb (scripts/install-engine.sh installs it)"
    done = _eval("--tasks", "craft.stick", "--agent", "optimal", "--episodes", "2", "--screenshots",
                 str(tmp_path / "frames"), "--format", "json")
    assert done.exit_code == 0, done.output
    report = json.loads(done.stdout)
    runs = report["tasks"][0]["episodes"]
    assert [r["server"] for r in runs] == ["fresh", "restart"] and [r["success"] for r in runs] == [True, True]
    for k in (0, 1):
        folder = tmp_path / "frames" / f"0-{k}"
        assert sorted(p.name for p in folder.iterdir()) == ["frame_00000.png", "frame_00001.png"], k
        assert runs[k]["trajectory"][0]["frame"] == str(folder / "frame_00001.png")

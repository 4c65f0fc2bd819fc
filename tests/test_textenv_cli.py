"""``taskverse play`` and ``taskverse eval``, and the external agent protocol."""

import json
import sys

from conftest import HANG_GUARD, ROOT, cli, run_cli

EXAMPLE_AGENT = f"cmd:{sys.executable} {ROOT / 'examples' / 'agents' / 'greedy_agent.py'}"


def test_play_through_stdin_like_figure_5():  # the installed command, as a user runs it
    answers = "find oak log\n1: nonsense\nmine.oak_log\ncraft oak planks\ncraft stik\ncraft stick\n"
    result = run_cli("play", "craft stick", "--seed", "0", input=answers)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.startswith("Task: craft stick.\nStep: 0/100\nInventory: {}")
    assert "Input the No. or name of the action: " in out and "#" * 36 in out
    assert "did you mean 'craft stick'?" in out
    assert "Inventory: {'oak_log': 1}" in out
    assert out.rstrip().endswith("Done: craft stick in 4 steps (shortest plan: 4).")


def test_play_json_summary_and_unfinished_session():
    result = cli("play", "craft.stick", "--format", "json", input="find oak_log\nquit\n")
    assert result.exit_code == 1
    summary = json.loads(result.stdout)
    assert summary["success"] is False and summary["actions"] == ["find.oak_log"] and summary["ended"] == "quit"
    assert "Task: craft stick." in result.stderr
    assert cli("play", "craft stik").exit_code == 2


def test_eval_json_report_shape(tmp_path):
    report_path = tmp_path / "report.json"
    result = run_cli("eval", "--tasks", "craft stick", "craft stick | hunt sheep", "--agent", "greedy",
                     "--episodes", "2", "--seed", "1", "-o", str(report_path), "--format", "json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report == json.loads(report_path.read_text())
    settings = {"agent", "suite", "episodes_per_task", "seed", "max_steps", "summary", "by_category", "tasks"}
    assert settings <= set(report)
    summary = report["summary"]
    assert summary["tasks"] == 2 and summary["episodes"] == 4 and summary["success_rate"] == 1.0
    assert summary["plan_efficiency"] == 1.0 and summary["mean_steps"] > 0
    assert set(report["by_category"]) == {"crafting", "misc"}
    task = report["tasks"][0]
    assert task["id"] == "craft.stick" and task["optimal_steps"] == 4 and task["optimal_proven"] is True
    assert [e["seed"] for e in task["episodes"]] == [1, 2]
    assert {"seed", "success", "steps", "efficiency", "invalid_actions", "progress", "termination", "error",
            "episode", "line", "seconds", "max_steps", "reward", "invalid_answers", "answers",
            "invalid_answer_rate"} == set(task["episodes"][0])
    assert "eval greedy" in result.stderr  # the progress bar


def test_eval_text_summary_and_bad_input():
    result = cli("eval", "--tasks", "craft.stick", "--agent", "optimal")
    assert result.exit_code == 0 and result.stdout.startswith("optimal: 1/1 episodes succeeded")
    for args, message in [
        (["--agent", "greedy"], "either --suite NAME or --tasks"),
        (["--suite", "NoSuchSuite", "--agent", "greedy"], "no suite 'NoSuchSuite'"),
        (["--tasks", "craft stick", "--agent", "gredy"], "did you mean 'greedy'"),
        (["--tasks", "craft stik", "--agent", "greedy"], "no task"),
        (["--tasks", "craft stick", "--agent", "cmd:"], "needs a program"),
    ]:
        bad = cli("eval", *args)
        assert bad.exit_code == 2 and message in bad.stderr and "Traceback" not in bad.stderr, (args, bad.stderr)
        assert len(bad.stderr.strip().splitlines()) == 1


def test_eval_suite_from_a_file(tmp_path):
    suite = tmp_path / "mini.yaml"
    suite.write_text("name: mini\nversion: 1\ndescription: two tasks\nbuilt_with: {selection: hand, library: x}\n"
                     "tasks:\n- {id: craft.stick, hash: x, description: craft stick}\n"
                     "- {id: craft.crafting_table, hash: x, description: craft crafting_table}\n")
    result = cli("eval", "--suite", str(suite), "--agent", "optimal", "--format", "json", "--no-progress")
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["suite"] == str(suite) and report["summary"]["success_rate"] == 1.0


def test_external_agent_protocol_with_the_example_agent():
    # the example agent loads the library before its first answer: no answer timeout a busy machine could reach
    result = run_cli("eval", "--tasks", "craft stick", "craft torch", "--agent", EXAMPLE_AGENT, "--answer-timeout",
                     str(HANG_GUARD), "--format", "json", "--no-progress")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["agent"].startswith("cmd:") and report["summary"]["success_rate"] == 1.0


def test_external_agent_answers_are_checked(tmp_path):
    script = tmp_path / "agent.py"
    script.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    obs = json.loads(line)\n"
        "    assert obs['type'] == 'observation' and obs['candidates'] and 'text' in obs\n"
        "    print('craft nothing' if obs['step'] == 0 else json.dumps({'action': obs['candidates'][0]['index']}),"
        " flush=True)\n")
    result = cli("eval", "--tasks", "craft stick", "--agent", f"cmd:{sys.executable} {script}", "--max-steps",
                 "3", "--format", "json", "--no-progress")
    assert result.exit_code == 0, result.stderr
    episode = json.loads(result.stdout)["tasks"][0]["episodes"][0]
    assert episode["invalid_actions"] == 1 and episode["steps"] == 3 and not episode["success"]
    crash = tmp_path / "crash.py"
    crash.write_text("import sys; sys.stdin.readline(); sys.exit(3)\n")
    bad = cli("eval", "--tasks", "craft stick", "--agent", f"cmd:{sys.executable} {crash}", "--no-progress",
              "--format", "json")
    assert bad.exit_code == 0 and "ended without answering" in bad.stderr  # the episode fails, the run goes on
    failed = json.loads(bad.stdout)["tasks"][0]["episodes"][0]
    assert failed["termination"] == "agent_error" and "ended without answering" in failed["error"]

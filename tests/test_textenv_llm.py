"""Language-model evaluation a researcher can trust: tolerant answer reading, and every endpoint failure as data.

The endpoints are real HTTP servers on loopback (``llm_server``) spoken to by the official ``openai`` client.
Nothing here measures time: timeouts are what some tests check, so they end by the timeout's own mechanism.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, cli, run_cli
from llm_server import HOSTILE_BODIES, ODD_USAGE, HostileServer, Server, greedy_answer
from taskverse.errors import TaskverseError
from taskverse.textenv.answers import answer_part, choose_action
from taskverse.textenv.endpoint import RequestFailed, read_reply
from taskverse.textenv.env import SkillForgeTextEnv
from taskverse.textenv.llm import prompt_fields
from taskverse.textenv.options import AnswerRefused

MEMORY_BOUND_KB = 500 * 1024
"""The most memory (peak resident set) one evaluation may take against a hostile endpoint or agent."""


def _env(view: str = "top:5", **kwargs) -> SkillForgeTextEnv:
    env = SkillForgeTextEnv(task="craft stick", plan_info=False, view=view, **kwargs)
    env.reset(seed=0)
    return env


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


# -- reading answers ---------------------------------------------------------------------------------------------

def test_the_first_valid_number_or_name_is_the_answer():
    env = _env()
    shown = env.shown_candidates()
    name = env.rules.descriptions
    # what SmolLM2-135M answered: the index first, then an echo of the prompt
    assert choose_action(env, "1\nActions taken so far: 0, no action.") == shown[1]
    assert choose_action(env, "ACTION: 3") == shown[3]
    assert choose_action(env, "**Action:** 2.") == shown[2]
    assert choose_action(env, "I pick [4]") == shown[4]
    # numbers no candidate has, or part of something else, are passed over
    assert choose_action(env, "Step 10/100, 1.5 logs, x2, 99 -> 0") == shown[0]
    # names and ids, any case, underscores or spaces; a name not shown in the view still counts
    assert name[choose_action(env, "Let me FIND oak log now")] == "find oak_log"
    assert name[choose_action(env, "find.oak_log")] == "find oak_log"
    assert name[choose_action(env, "find bee")] == "find bee"
    # an article between a name's words, as SmolLM2-135M wrote after a number no candidate has ("Step: 5/10")
    assert name[choose_action(env, "ACTION: 10\nThe next action is to find the oak log.")] == "find oak_log"
    assert name[choose_action(env, "10: You will need to find a spider.")] == "find spider"
    assert name[choose_action(env, "find an oak_log")] == "find oak_log"
    # a reasoning block and everything before the last ACTION: marker are reasoning
    assert choose_action(env, "<think>0? no, 1 is better</think>\n2") == shown[2]
    assert choose_action(env, "Maybe 0 or 1. ACTION: 4") == shown[4]
    assert choose_action(env, "thinking 0 1 2</think> answer 3") == shown[3]
    assert answer_part("<think>never closed ACTION: 1") == " "
    # nothing valid: refused, saying why
    for nothing in ("I like turtles.", "craft stick", "craft a stick", "find anoak_log", "find the", "ACTION: 7",
                    "<think>1</think>", ""):
        with pytest.raises(AnswerRefused, match="names no candidate"):
            choose_action(env, nothing)


def test_every_candidate_is_named_with_or_without_articles():
    from taskverse.textenv.answers import ARTICLES

    env = _env(view="all")
    rules = env.rules
    for action in env.candidates():
        words = rules.descriptions[action].split(" ")
        bare = [w for w in words[1:] if w not in ARTICLES]
        assert choose_action(env, " ".join([words[0], *bare])) == action
        for article in ARTICLES:
            assert choose_action(env, f"I {' '.join([words[0], article, *words[1:]])}.") == action
        assert choose_action(env, rules.actions[action]) == action


def test_shuffled_candidates_follow_the_episode_seed():
    planner_order = _env().shown_candidates()
    shuffled = _env(shuffle=True)
    again = _env(shuffle=True)
    assert sorted(shuffled.shown_candidates()) == sorted(planner_order)
    assert shuffled.shown_candidates() == again.shown_candidates()  # the same seed, the same order
    orders = set()
    for seed in range(8):
        shuffled.reset(seed=seed)
        orders.add(tuple(shuffled.shown_candidates()))
        assert shuffled.text().endswith("; ".join(f"{i}: {shuffled.rules.descriptions[a]}"
                                                  for i, a in enumerate(shuffled.shown_candidates())))
        assert choose_action(shuffled, "0") == shuffled.shown_candidates()[0]
    assert len(orders) > 1


def test_history_lists_the_last_actions_only():
    env = _env(view="all")
    for name in ["find oak_log", "mine oak_log", "craft oak_planks"]:
        env.step(env.rules.lookup(name))
    assert prompt_fields(env, history=20)["history"] == "- find oak_log\n- mine oak_log\n- craft oak_planks"
    assert prompt_fields(env, history=1)["history"] == "(earlier actions not shown)\n- craft oak_planks"
    assert prompt_fields(env, history=0)["history"] == "(earlier actions not shown)"


def test_a_copied_history_line_is_never_read_as_a_candidate_number():
    """SmolLM2-135M answers by copying the history's last line: it must not choose a candidate by a number."""
    env = _env(view="top:10")
    for name in ["find oak_log", "mine oak_log", "craft oak_planks"]:
        env.step(env.rules.lookup(name))
    for history in (20, 1):
        for line in prompt_fields(env, history=history)["history"].splitlines():
            try:
                choice = choose_action(env, line)
            except AnswerRefused:
                continue
            assert env.rules.descriptions[choice] in line, (line, env.rules.descriptions[choice])


def test_responses_are_read_field_by_field():
    assert read_reply(json.dumps({"choices": [{"message": {"content": None}}]}).encode()).content == ""
    thinking = read_reply(json.dumps({"choices": [{"message": {"content": "1", "reasoning_content": "hm"}}]}).encode())
    assert thinking.thinking == "hm"
    for kind, body in HOSTILE_BODIES.items():
        with pytest.raises(RequestFailed):
            read_reply(body)
        assert kind
    for body in ODD_USAGE.values():
        reply = read_reply(body)
        assert reply.content == "ACTION: 0" and reply.prompt_tokens == reply.completion_tokens == 0


# -- the endpoint, over the wire ---------------------------------------------------------------------------------

def _eval(url: str, tmp_path: Path, *extra: str, name: str = "r") -> tuple[dict, list[dict]]:
    report = tmp_path / f"{name}.json"
    result = cli("eval", "--tasks", "craft stick", "--agent", "openai:m", "--base-url", url, "--no-progress",
                 "--format", "json", "-o", str(report), *extra)
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr
    return json.loads(result.stdout), _lines(tmp_path / f"{name}.trajectories.jsonl")


def test_a_small_model_s_chatty_answers_are_read_and_the_run_is_recorded(tmp_path):
    server = Server(mode="chatty")
    try:
        report, lines = _eval(server.url, tmp_path, "--view", "relevant", "--episodes", "2", "--seed", "7",
                              "--answer-timeout", "600")
    finally:
        server.close()
    summary = report["summary"]
    assert summary["successes"] == 2 and summary["invalid_answers"] == 0 and summary["invalid_answer_rate"] == 0.0
    episode = report["tasks"][0]["episodes"][0]
    assert episode["invalid_answer_rate"] == 0.0 and episode["answers"] == episode["steps"]
    # the episode's seed goes with every request, and the trajectory keeps exactly the messages sent
    assert [body["seed"] for body in server.bodies] == [7] * episode["steps"] + [8] * (len(server.bodies)
                                                                                      - episode["steps"])
    steps = lines[0]["trajectory"]
    assert [s["messages"] for s in steps] == [b["messages"] for b in server.bodies[:len(steps)]]
    assert steps[0]["answer"].endswith("Actions taken so far: 0, no action.")
    assert summary["usage"]["calls"] == len(server.bodies) and summary["usage"]["retries"] == 0


@pytest.mark.parametrize("kind", [*HOSTILE_BODIES, "status_500", "huge", "endless"])
def test_a_malformed_answer_wastes_the_step_and_the_run_goes_on(kind, tmp_path):
    server = HostileServer(kind)
    try:
        report, lines = _eval(server.url, tmp_path, "--max-steps", "2", "--retries", "0", "--answer-timeout", "600")
    finally:
        server.close()
    episode = report["tasks"][0]["episodes"][0]
    assert episode["termination"] == "step_limit" and episode["invalid_answers"] == 2
    assert episode["invalid_answer_rate"] == 1.0 and report["summary"]["invalid_answer_rate"] == 1.0
    step = lines[0]["trajectory"][0]
    assert step["invalid"] and step["action"] is None and step["error"].startswith("openai:m: ")
    assert step["messages"][-1]["role"] == "user"


@pytest.mark.parametrize("kind", list(ODD_USAGE))
def test_token_counts_that_are_not_numbers_are_left_out(kind, tmp_path):
    server = HostileServer(kind)
    try:
        report, _ = _eval(server.url, tmp_path, "--max-steps", "2", "--answer-timeout", "600")
    finally:
        server.close()
    episode = report["tasks"][0]["episodes"][0]
    assert episode["invalid_answers"] == 0
    assert episode["usage"] == {"calls": 2, "retries": 0, "prompt_tokens": 0, "completion_tokens": 0}


@pytest.mark.parametrize("kind", ["drip", "drip_headers", "silent"])
def test_a_slow_endpoint_is_timed_out_per_answer(kind, tmp_path):
    # ends by the answer timeout itself: an endpoint that drips a byte every 0.2 s for ever never finishes
    server = HostileServer(kind)
    try:
        report, lines = _eval(server.url, tmp_path, "--max-steps", "2", "--retries", "0", "--answer-timeout", "1")
    finally:
        server.close()
    episode = report["tasks"][0]["episodes"][0]
    assert episode["termination"] == "step_limit" and episode["invalid_answers"] == 2
    assert "within 1 s" in lines[0]["trajectory"][0]["error"]


def test_retries_are_counted_and_failures_in_a_row_end_the_episode(tmp_path):
    server = HostileServer("status_429")
    try:
        report, lines = _eval(server.url, tmp_path, "--retries", "1", "--episodes", "2", "--answer-timeout", "600")
    finally:
        server.close()
    episodes = report["tasks"][0]["episodes"]
    for episode in episodes:  # three steps in a row fail: the episode ends, the next one runs
        assert episode["termination"] == "agent_error" and "3 steps in a row" in episode["error"]
        assert episode["usage"]["calls"] == 6 and episode["usage"]["retries"] == 3
    assert server.requests == 12 and report["summary"]["usage"]["retries"] == 6
    assert "(1 retries)" in lines[0]["trajectory"][0]["error"]


def _peak_memory_kb(*args: str) -> tuple[int, subprocess.CompletedProcess[str]]:
    """Run ``taskverse ARGS`` as the only child of a fresh interpreter; its peak resident memory and result."""
    probe = ("import resource, subprocess, sys\n"
             "r = subprocess.run([sys.executable, '-m', 'taskverse.cli', *sys.argv[1:]], capture_output=True, "
             "text=True)\n"
             "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
             "sys.stderr.write(r.stderr); sys.exit(r.returncode)")
    result = subprocess.run([sys.executable, "-c", probe, *args], capture_output=True, text=True, cwd=ROOT)
    return int(result.stdout.split()[-1]), result


@pytest.mark.parametrize("kind", ["huge", "endless"])
def test_huge_answers_cost_bounded_memory(kind, tmp_path):
    server = HostileServer(kind)
    try:
        peak, result = _peak_memory_kb("eval", "--tasks", "craft stick", "--agent", "openai:m", "--base-url",
                                       server.url, "--max-steps", "3", "--retries", "1", "--no-progress",
                                       "--answer-timeout", "600", "-o", str(tmp_path / "r.json"))
    finally:
        server.close()
    assert result.returncode == 0, result.stderr
    assert peak < MEMORY_BOUND_KB, f"{peak / 1024:.0f} MB"
    episode = json.loads((tmp_path / "r.json").read_text())["tasks"][0]["episodes"][0]
    assert episode["invalid_answers"] == 3 and episode["usage"]["calls"] == 3  # too large: not asked again


# -- runs: resume, slices, the prompt shown ----------------------------------------------------------------------

def test_resume_runs_agent_errors_again_and_adds_up_the_time(tmp_path):
    keyed = Server(key="right")
    try:
        args = ["eval", "--tasks", "craft stick", "--episodes", "2", "--agent", "openai:m", "--base-url", keyed.url,
                "--answer-timeout", "600", "--no-progress", "--format", "json", "-o", str(tmp_path / "r.json")]
        first = cli(*args, "--api-key", "wrong")
        assert first.exit_code == 0, first.output
        earlier = json.loads(first.stdout)
        assert earlier["summary"]["agent_errors"] == 2
        again = cli(*args, "--api-key", "right", "--resume")
    finally:
        keyed.close()
    assert again.exit_code == 0, again.output
    report = json.loads(again.stdout)
    assert report["summary"]["successes"] == 2 and report["summary"]["agent_errors"] == 0
    assert report["run"]["wall_seconds"] >= earlier["run"]["wall_seconds"]
    assert [line["termination"] for line in _lines(tmp_path / "r.trajectories.jsonl")] == ["success"] * 2


def test_a_suite_is_cut_to_a_slice_and_the_prompt_is_shown_filled(tmp_path):
    sliced = cli("eval", "--suite", "SkillForge-Chain", "--slice", "2:4", "--agent", "greedy", "--no-progress",
                 "--format", "json")
    assert sliced.exit_code == 0, sliced.output
    from taskverse.benchmarks.suites import load_suite

    ids = [t.id for t in load_suite("SkillForge-Chain").tasks[2:4]]
    assert json.loads(sliced.stdout)["tasks_run"] == ids
    for bad in ("2", "a:b", "-1:3"):
        result = cli("eval", "--tasks", "craft stick", "--agent", "greedy", "--slice", bad)
        assert result.exit_code == 2 and "START:STOP" in result.stderr
    empty = cli("eval", "--tasks", "craft stick", "--agent", "greedy", "--slice", "5:")
    assert empty.exit_code == 2 and "leaves no task" in empty.stderr
    shown = cli("eval", "--show-prompt", "--tasks", "craft crafting_table", "--view", "top:3", "--shuffle")
    assert shown.exit_code == 0 and shown.stdout.startswith("[system]\n")
    assert "Task: craft crafting_table." in shown.stdout and "$observation" not in shown.stdout
    assert shown.stdout.count("ACTION: <number>") == 2 and "Input the No." not in shown.stdout


def test_the_default_prompt_asks_one_thing():
    template = run_cli("eval", "--show-prompt")
    assert template.returncode == 0 and "$observation" in template.stdout
    assert "Input the No." not in template.stdout


def test_prompt_files_go_through_the_input_layer(tmp_path):
    for path, reason in (("/dev/zero", "device"), (str(tmp_path), "directory")):
        result = cli("eval", "--tasks", "craft stick", "--agent", "openai:m", "--base-url", "http://127.0.0.1:9/v1",
                     "--prompt", path, "--no-progress")
        assert result.exit_code != 0 and reason in result.stderr and "Traceback" not in result.stderr
    with pytest.raises(TaskverseError):
        from taskverse.textenv.llm import PromptTemplate

        PromptTemplate.load("/dev/zero")


# -- external programs (cmd:) ------------------------------------------------------------------------------------

DEAF_AGENT = """
import sys, time
for _ in range(3):
    print(0, flush=True)  # answers, but never reads what it is sent
while True:
    time.sleep(1)
"""

FLOOD_AGENT = """
import sys
line = b"1" * (1 << 20) + b"\\n"  # a megabyte a line, for ever, whatever it is asked
while True:
    sys.stdout.buffer.write(line)
"""

PARENT_AGENT = """
import json, os, subprocess, sys, time
lock, ready = sys.argv[1], sys.argv[2]
child = ("import fcntl, sys, time\\n"
         "f = open(sys.argv[1], 'a'); fcntl.flock(f, fcntl.LOCK_EX); open(sys.argv[2], 'w').close()\\n"
         "while True: time.sleep(1)")
subprocess.Popen([sys.executable, "-c", child, lock, ready])  # a child of its own, that never ends by itself
while not os.path.exists(ready):
    time.sleep(0.01)
for line in sys.stdin:
    print(json.loads(line)["candidates"][0]["index"], flush=True)
"""


def test_an_agent_that_never_reads_fails_its_episodes_without_blocking_the_run(tmp_path):
    # the observations (about 30 KB each with every candidate) fill the pipe it never reads; the write's own
    # deadline (--answer-timeout) is what ends each episode
    script = tmp_path / "deaf.py"
    script.write_text(DEAF_AGENT)
    result = run_cli("eval", "--tasks", "craft stick", "--episodes", "2", "--agent", f"cmd:python {script}",
                     "--answer-timeout", "2", "--no-progress", "--format", "json")
    assert result.returncode == 0, result.stderr
    episodes = json.loads(result.stdout)["tasks"][0]["episodes"]
    assert [e["termination"] for e in episodes] == ["agent_error"] * 2
    assert all("stopped reading its input" in e["error"] for e in episodes)


@pytest.mark.parametrize("agent", ["yes", "flood"])
def test_agents_that_flood_their_output_cost_bounded_memory(agent, tmp_path):
    script = tmp_path / "flood.py"
    script.write_text(FLOOD_AGENT)
    spec = "cmd:yes 0" if agent == "yes" else f"cmd:python {script}"
    # neither reads its input: once the pipe is full, the write's deadline (--answer-timeout) ends the episode
    peak, result = _peak_memory_kb("eval", "--tasks", "craft stick", "--episodes", "2", "--agent", spec,
                                   "--max-steps", "20", "--answer-timeout", "2", "--no-progress",
                                   "-o", str(tmp_path / "r.json"))
    assert result.returncode == 0, result.stderr
    assert peak < MEMORY_BOUND_KB, f"{peak / 1024:.0f} MB"
    lines = _lines(tmp_path / "r.trajectories.jsonl")
    if agent == "yes":  # "0" is an answer, candidate 0, until the observations fill the pipe it never reads
        assert all(s["action"] is not None for line in lines for s in line["trajectory"][:-1])
    for line in lines:
        assert line["termination"] == "agent_error"
        assert ("longer than 65536 bytes" if agent == "flood" else "stopped reading its input") in line["error"]


def test_an_agent_s_own_children_end_with_the_run(tmp_path):
    import fcntl
    import threading

    from conftest import HANG_GUARD

    script, lock, ready = tmp_path / "parent.py", tmp_path / "lock", tmp_path / "ready"
    script.write_text(PARENT_AGENT)
    result = run_cli("eval", "--tasks", "craft stick", "--agent", f"cmd:python {script} {lock} {ready}",
                     "--answer-timeout", "600", "--max-steps", "3", "--no-progress", "--format", "json")
    assert result.returncode == 0, result.stderr
    assert ready.exists()  # the child took the lock; it lets go only when it has ended
    taken = threading.Event()

    def take() -> None:
        with lock.open("a") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            taken.set()

    threading.Thread(target=take, daemon=True).start()
    assert taken.wait(HANG_GUARD), "the agent's child outlived the run"


@pytest.mark.parametrize("spec", ['cmd:python agent.py "x"', 'cmd:python agent.py"', "cmd:'python agent.py",
                                  'cmd:""'])
def test_command_lines_ending_in_a_quote_are_read_or_refused_cleanly(spec, tmp_path):
    result = cli("eval", "--tasks", "craft stick", "--agent", spec, "--no-progress", "--max-steps", "1")
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr
    if spec == 'cmd:python agent.py "x"':  # a fine command line: the program (which does not exist) fails
        assert result.exit_code == 0 and "agent.py" in result.stderr
    else:
        assert result.exit_code == 2 and len(result.stderr.strip().splitlines()) == 1


# -- what eval reads and writes, and its numbers -----------------------------------------------------------------

def _one_line(result, *needles: str) -> None:
    stderr = result.stderr if hasattr(result, "stderr") else ""
    code = result.exit_code if hasattr(result, "exit_code") else result.returncode
    assert code == 2, stderr
    assert len(stderr.strip().splitlines()) == 1 and "Traceback" not in stderr, stderr
    for needle in needles:
        assert needle in stderr, stderr


def test_trajectories_and_reports_go_through_the_output_layer(tmp_path):
    import os

    greedy = ["eval", "--tasks", "craft stick", "--agent", "greedy", "--no-progress"]
    existing = tmp_path / "old.jsonl"
    existing.write_text("keep me\n")
    _one_line(cli(*greedy, "--trajectories", str(existing)), "already exists", "--force")
    assert existing.read_text() == "keep me\n"
    forced = cli(*greedy, "--trajectories", str(existing), "--force")
    assert forced.exit_code == 0 and json.loads(existing.read_text().splitlines()[0])["success"]
    for folder in ("atoms", "benchmarks"):
        _one_line(cli(*greedy, "--trajectories", str(ROOT / folder / "x.jsonl")), f"library's own folder {folder}/")
        _one_line(cli(*greedy, "-o", str(ROOT / folder / "r.json"), "--force"), f"library's own folder {folder}/")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    _one_line(cli(*greedy, "--trajectories", str(fifo), "--force"), "FIFO")
    _one_line(cli(*greedy, "-o", str(fifo), "--force"), "FIFO")
    _one_line(cli(*greedy, "-o", str(tmp_path / "r.json"), "--trajectories", str(tmp_path / "." / "r.json")),
              "report's own file")
    _one_line(cli(*greedy, "-o", "/dev/zero", "--resume"), "device")
    report = tmp_path / "r.json"
    assert cli(*greedy, "-o", str(report)).exit_code == 0
    (tmp_path / "r.trajectories.jsonl").unlink()
    os.mkfifo(tmp_path / "r.trajectories.jsonl")
    _one_line(cli(*greedy, "-o", str(report), "--resume"), "FIFO")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fifo", "old.jsonl", "r.json", "r.trajectories.jsonl"]


@pytest.mark.parametrize("args", [
    ["plan", "1000 * (1000 * (1000 * craft stick))"],
    ["eval", "--tasks", "1000 * (1000 * (1000 * craft stick))", "--agent", "greedy"],
    ["engine", "run", "1000 * (1000 * (1000 * craft stick))", "--show-plan"],
    ["plan", "1000 * amount(2304, obtain.beef)"],
])
def test_expressions_are_bounded_by_what_they_expand_to(args):
    _one_line(cli(*args), "more than 10,000 atoms")


def test_an_expression_of_a_billion_atoms_costs_bounded_memory():
    # it took 3.3 GB when only its nesting was bounded
    peak, result = _peak_memory_kb("eval", "--tasks", "1000 * (1000 * (1000 * craft stick))", "--agent", "greedy",
                                   "--no-progress")
    assert result.returncode == 2 and "more than 10,000 atoms" in result.stderr, result.stderr
    assert peak < MEMORY_BOUND_KB, f"{peak / 1024:.0f} MB"


@pytest.mark.parametrize("option, value, needle", [
    ("--max-steps", str(10**30), "1<=x<=100000"),
    ("--episodes", str(10**9), "1<=x<=100000"),
    ("--answer-timeout", "nan", "not a finite number"),
    ("--answer-timeout", "inf", "0.1<=x<=3600"),
    ("--temperature", "nan", "not a finite number"),
    ("--temperature", "inf", "0<=x<=2"),
    ("--temperature", "3", "0<=x<=2"),
    ("--retries", "1000", "0<=x<=10"),
    ("--workers", "100000", "1<=x<=256"),
    ("--history", "-1", "0<=x<=10000"),
    ("--base-url", "not a url", "not an http(s) URL"),
    ("--base-url", "http://[::1", "not a URL"),
    ("--base-url", "ftp://host/v1", "not an http(s) URL"),
])
def test_every_number_and_address_is_checked_before_anything_runs(option, value, needle):
    _one_line(cli("eval", "--tasks", "craft stick", "--agent", "openai:m", option, value), needle)


def test_concurrent_episodes_keep_requests_in_flight_and_give_the_same_report(tmp_path):
    # the server answers nothing until four requests are in flight at once: the run ends only if they are
    args = ("--view", "relevant", "--episodes", "4", "--answer-timeout", "1800", "--shuffle")
    server = Server(gate=4)
    try:
        together, _ = _eval(server.url, tmp_path, *args, "--concurrency", "4", name="together")
    finally:
        server.close()
    alone_server = Server()
    try:
        alone, _ = _eval(alone_server.url, tmp_path, *args, name="alone")
    finally:
        alone_server.close()
    assert server.opened.is_set()
    for report in (together, alone):
        report.pop("run"), report.pop("trajectories"), report["agent_options"].pop("base_url")
        for episode in report["tasks"][0]["episodes"]:
            episode.pop("seconds"), episode.pop("line")
    assert together == alone and together["summary"]["successes"] == 4
    summary = together["summary"]
    assert summary["success_se"] == 0.0 and "usage" in summary


def test_the_summary_gives_the_standard_error_and_a_chain_of_thought_can_be_asked_for(tmp_path):
    server = Server(mode="nonsense")
    try:
        report, lines = _eval(server.url, tmp_path, "--max-steps", "2", "--cot", "50", "--answer-timeout", "600")
    finally:
        server.close()
    assert server.bodies[0]["max_tokens"] == 82 and "<think>" in server.bodies[0]["messages"][-1]["content"]
    assert report["agent_options"]["cot"] == 50
    from taskverse.textenv.evaluation import _standard_error, summary_lines

    assert _standard_error(1, 4) == 0.2165 and _standard_error(0, 0) == 0.0
    text = "\n".join(summary_lines(report))
    assert "0/1 episodes succeeded (0.0% ± 0.0)" in text and "invalid answers: 2 (100.0%" in text


def test_few_shot_examples_come_from_recorded_solved_episodes(tmp_path):
    solved = cli("eval", "--tasks", "craft stick", "hunt sheep", "--agent", "greedy", "--no-progress",
                 "-o", str(tmp_path / "greedy.json"))
    assert solved.exit_code == 0, solved.output
    server = Server()
    try:
        _eval(server.url, tmp_path, "--max-steps", "1", "--answer-timeout", "600", "--few-shot",
              str(tmp_path / "greedy.trajectories.jsonl"))
    finally:
        server.close()
    system = server.bodies[0]["messages"][0]
    assert system["role"] == "system" and "Examples of solved episodes:\nTask: craft stick. Actions, in order: " \
        "find " in system["content"] and "Task: hunt sheep." in system["content"]
    empty = tmp_path / "none.jsonl"
    empty.write_text(json.dumps({"success": False, "actions": []}) + "\n")
    _one_line(cli("eval", "--tasks", "craft stick", "--agent", "openai:m", "--base-url", "http://127.0.0.1:9/v1",
                  "--few-shot", str(empty), "--no-progress"), "no successful episode")
    _one_line(cli("eval", "--tasks", "craft stick", "--agent", "openai:m", "--base-url", "http://127.0.0.1:9/v1",
                  "--few-shot", "/dev/zero", "--no-progress"), "device")


def test_history_as_chat_messages_keeps_the_last_exchanges_within_a_budget(tmp_path):
    server = Server()
    try:
        report, lines = _eval(server.url, tmp_path, "--view", "relevant", "--answer-timeout", "600",
                              "--history", "2", "--history-mode", "messages", "--cot", "20", name="messages")
    finally:
        server.close()
    assert report["summary"]["successes"] == 1 and report["agent_options"]["history_mode"] == "messages"
    bodies = [body["messages"] for body in server.bodies]
    assert len(bodies) >= 4
    users = [messages[-1]["content"] for messages in bodies]
    answers = [greedy_answer(user) for user in users]  # what the server answered each step
    for step, messages in enumerate(bodies):
        assert [m["role"] for m in messages] == ["system"] + ["user", "assistant"] * min(step, 2) + ["user"]
        earlier = messages[1:-1]
        shown = range(max(0, step - 2), step)  # the last two exchanges, exactly as they went
        assert [m["content"] for m in earlier[0::2]] == [users[i] for i in shown]
        assert [m["content"] for m in earlier[1::2]] == [answers[i] for i in shown]
    # the trajectory keeps exactly what was sent, the earlier exchanges included
    assert [s["messages"] for s in lines[0]["trajectory"]] == bodies
    # a budget of characters smaller than one exchange: every request stands alone again
    tight = Server()
    try:
        _eval(tight.url, tmp_path, "--view", "relevant", "--answer-timeout", "600", "--history-mode", "messages",
              "--history-chars", "100", name="tight")
    finally:
        tight.close()
    assert all(len(body["messages"]) == 2 for body in tight.bodies)


def test_a_long_episode_s_conversation_stays_within_its_budget():
    from taskverse.textenv.history import MAX_ANSWER_CHARS, Conversation

    conversation = Conversation(turns=10_000, chars=5000)
    for step in range(3000):
        conversation.add("observation " * 40 + str(step), "<think>" + "x" * 10_000 + "</think>ACTION: 1" + "!" * 5000)
        assert sum(len(m["content"]) for m in conversation.messages()) <= 5000
    kept = conversation.messages()
    assert kept[-2]["content"].endswith("2999") and len(kept[-1]["content"]) == MAX_ANSWER_CHARS
    assert kept[-1]["content"].startswith("ACTION: 1") and conversation.dropped + len(kept) // 2 == 3000

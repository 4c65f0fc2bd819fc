"""The cases of the bad-input issue, through the command line: each is one clean line (or works), nothing is
overwritten or written into the library, nothing is unbounded, and Ctrl-C keeps finished results."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import GOOD, HANG_GUARD, PATH_ERRORS, billion_laughs, cli, one_clean_line, run_cli
from taskverse.paths import project_root

ROOT = project_root()



# -- the cases, through the command line ---------------------------------------------------------------

@pytest.mark.parametrize("command", ["show", "difficulty", "graph", "compile"])
@pytest.mark.parametrize("kind", ["folder", "binary", "latin1", "fifo", "missing"])
def test_task_files_that_are_not_task_files(bad_paths, tmp_path, command, kind):
    extra = ["-o", str(tmp_path / "out")] if command == "compile" else []
    one_clean_line(cli(command, str(bad_paths[kind]), *extra), str(bad_paths[kind]), PATH_ERRORS[kind])


@pytest.mark.parametrize("kind", ["missing", "folder", "loop"])
def test_validate_bad_paths(bad_paths, kind):
    result = cli("validate", str(bad_paths[kind]))
    assert result.exit_code == 1 and "Traceback" not in result.stderr
    errors = result.stderr.strip().splitlines()
    assert len(errors) == 1 and str(bad_paths[kind]) in errors[0]
    assert "ok:" not in result.stdout


def test_validate_a_folder_without_task_files_is_not_ok(tmp_path):
    (tmp_path / "notes.txt").write_text("nothing here")
    (tmp_path / "sub.yaml").mkdir()  # a folder named like a task file is not one
    result = cli("validate", str(tmp_path))
    assert result.exit_code == 1 and "no .yaml or .yml files" in result.stderr
    assert "0 file(s)" in result.stdout


@pytest.mark.parametrize("change, needles", [
    ("category: crafting\n", ["duplicate key 'category'"]),
    ("initialization:\n  inventory: {stick: 1000000000000000000000000000000}\n", ["duplicate key"]),
])
def test_duplicate_keys_fail_validate(tmp_path, change, needles):
    path = tmp_path / "t.yaml"
    path.write_text(GOOD + change)
    result = cli("validate", str(path))
    assert result.exit_code == 1
    for needle in needles:
        assert needle in result.stderr


@pytest.mark.parametrize("value, needle", [("1000000000000000000000000000000", "less than or equal to 2304"),
                                           ("true", "valid integer"), ("'3'", "valid integer"), ("0", "greater")])
def test_counts_are_whole_numbers_in_range(tmp_path, value, needle):
    path = tmp_path / "t.yaml"
    path.write_text(GOOD.replace("stick: 1", f"stick: {value}"))
    result = cli("validate", str(path))
    assert result.exit_code == 1 and needle in result.stderr and "initialization.inventory.stick" in result.stderr


def test_validate_rejects_an_id_of_the_library(tmp_path):
    path = tmp_path / "t.yaml"
    path.write_text(GOOD.replace("craft.my_sword", "craft.iron_sword"))
    result = cli("validate", str(path))
    assert result.exit_code == 1 and f"{path}:1: id: 'craft.iron_sword' is already the id of a library atom" \
        in result.stderr


@pytest.mark.parametrize("command", ["show", "difficulty", "compile", "play", "eval"])
def test_unknown_items_in_a_task_file_are_reported_by_every_command(tmp_path, command):
    path = tmp_path / "t.yaml"
    path.write_text(GOOD.replace("iron_ingot: 2", "iron_ingt: 2"))
    extra = {"compile": ["-o", str(tmp_path / "out")], "eval": ["--agent", "random"]}.get(command, [])
    line = one_clean_line(cli(command, str(path), *extra), f"{path}:6:", "unknown item 'iron_ingt'")
    assert "'iron_ingot'" in line


def test_a_molecule_file_of_nested_anchors_is_refused_quickly(tmp_path):
    path = tmp_path / "laughs.yaml"
    path.write_text(billion_laughs())
    for command in ("show", "validate"):
        result = cli(command, str(path))
        assert result.exit_code in (1, 2) and "more than 1,000,000 values" in result.stderr


@pytest.mark.parametrize("expr, needle", [
    ("(" * 200 + "craft stick" + ")" * 200, "nested more than 32 levels"),
    ("naive(" * 300 + "craft stick" + ")" * 300, "nested more than 32 levels"),
    ("craft stick" + " @ when=night" * 100, "nested more than 32 levels"),
    ("naive(", "expected a task before the end at column 7"),
    ("&".join(["hunt.pig"] * 1001), "more than 1000 parts"),
    ("craft stick & " * 2000 + "craft stick", "the limit is 10,000"),
    ("init(craft bread, inventory.wheatt=3)", "unknown item 'wheatt' (did you mean 'wheat'?)"),
    ("init(craft bread, summon.zombi=1)", "unknown entity 'zombi'"),
    ("init(craft bread, biome=desrt)", "unknown biome 'desrt'"),
    ("init(craft bread, inventory.wheat=100000)", "less than or equal to 2304"),
])
def test_bad_compositions(expr, needle):
    one_clean_line(cli("compose", expr), needle)


def test_nesting_up_to_the_limit_works():
    result = cli("compose", "(" * 31 + "craft stick" + ")" * 31 + " & hunt sheep", "--format", "json")
    assert result.exit_code == 0, result.stderr


@pytest.mark.parametrize("text, needle", [
    ("(" * 300 + "category=mining" + ")" * 300, "nested more than 32 deep"),
    ("not " * 2000 + "category=mining", "nested more than 32 deep"),
    ("category=minig", "no task has category 'minig' (did you mean 'mining'?)"),
    ("verb=crafft", "did you mean 'craft'?"),
    ("kind=Atom and init=naive", "did you mean 'atom'?"),
])
def test_bad_filters(text, needle):
    one_clean_line(cli("filter", text, "--from", "SkillForge-Mining"), needle)


def test_not_not_still_means_what_it_says():
    from taskverse.benchmarks.filters import parse_filter

    assert parse_filter("not not category=mining").describe() == "not not category = mining"


@pytest.mark.parametrize("args, needle", [
    (["generate", "--n", str(10**30), "--seed", "0"], "0<=x<=10000"),
    (["generate", "--n", "2", "--seed", "-1"], "0<=x<=4294967295"),
    (["suite", "build", "SkillForge", "--size", str(10**30)], "8<=x<=10000"),
    (["space", "--perplexity", "-5"], "1.0<=x<=1000.0"),
    (["space", "--perplexity", "nan"], "not a finite number"),
    (["play", "craft stick", "--seed", "-1"], "0<=x<=4294967295"),
    (["eval", "--tasks", "craft.stick", "--agent", "random", "--seed", "-1"], "0<=x<=4294967295"),
    (["engine", "run", "craft.stick", "--timeout", "nan"], "not a finite number"),
    (["compse", "craft stick"], "did you mean 'compose'"),
    (["list", "--verb", "crafft"], "did you mean 'craft'"),
    (["compile", "craft.stick", "-o", "/nonexistent/never-written", "--game", "minetest_gmae"],
     "did you mean 'minetest_game'"),
])
def test_numbers_and_names_out_of_range(args, needle):
    one_clean_line(cli(*args), needle)


def test_ranges_are_in_help():
    assert "0<=x<=10000" in cli("generate", "--help").output
    assert "8<=x<=10000" in cli("suite", "build", "--help").output


def test_molecule_ids_from_list_are_accepted_by_show():
    rows = json.loads(cli("list", "--kind", "molecule", "--format", "json").stdout)
    assert rows
    shown = json.loads(cli("show", rows[0]["id"], "--format", "json").stdout)
    assert shown["id"] == rows[0]["id"] and shown["kind"] == "molecule"
    one_clean_line(cli("show", rows[0]["id"][:-1] + "z"), "no molecule", "did you mean")


@pytest.mark.parametrize("args", [
    ["compose", "craft stick", "-o"],
    ["graph", "craft stick", "-o"],
    ["compile", "craft stick", "-o"],
    ["space", "--radar", "craft stick", "-o"],
    ["bias", "-o"],
])
@pytest.mark.parametrize("target, needle", [("folder.png", "is a folder"), ("afile/x.png", "is a file, not a folder"),
                                            ("/dev/full", "")])
def test_outputs_to_bad_places(tmp_path, args, target, needle):
    for suffix in (".png", ".yaml", ".dot"):
        (tmp_path / f"folder{suffix}").mkdir()
    (tmp_path / "afile").write_text("x")
    path = target if target.startswith("/") else str(tmp_path / target)
    if args[0] == "compose":
        path = path.replace(".png", ".yaml")
    if args[0] == "graph":
        path = path.replace(".png", ".dot")
    if args[0] == "compile" and target == "folder.png":
        return  # a folder is what compile writes
    one_clean_line(cli(*args, path), needle)


def test_generate_into_a_path_under_a_file(tmp_path):
    (tmp_path / "afile").write_text("x")
    one_clean_line(cli("generate", "--n", "1", "--seed", "0", "-o", str(tmp_path / "afile" / "dir")),
                   "is a file, not a folder")


def test_bias_refuses_an_unknown_format_before_computing(tmp_path):
    one_clean_line(cli("bias", "-o", str(tmp_path / "b.txt")), "expected .png or .svg")
    assert not (tmp_path / "b.txt").exists()


def test_compose_never_writes_into_the_library():
    craft = ROOT / "atoms" / "crafting" / "craft.yaml"
    before = craft.read_bytes()
    one_clean_line(cli("compose", "craft stick", "-o", str(craft)), "library's own folder atoms/")
    one_clean_line(cli("compose", "craft stick", "-o", str(craft), "--force"), "library's own folder atoms/")
    assert craft.read_bytes() == before


@pytest.mark.parametrize("args", [
    ["compose", "craft stick", "-o", "{}"],
    ["graph", "craft stick", "-o", "{}"],
    ["eval", "--tasks", "craft.stick", "--agent", "greedy", "--no-progress", "-o", "{}"],
    ["space", "--radar", "craft stick", "-o", "{}"],
])
def test_existing_outputs_are_kept_without_force(tmp_path, args):
    suffix = {"compose": ".yaml", "graph": ".dot", "eval": ".json", "space": ".png"}[args[0]]
    target = tmp_path / f"out{suffix}"
    target.write_text("mine")
    filled = [a.replace("{}", str(target)) for a in args]
    one_clean_line(cli(*filled), "already exists; add --force")
    assert target.read_text() == "mine"
    result = cli(*filled, "--force")
    assert result.exit_code == 0, result.stderr
    assert target.read_bytes() != b"mine"


def test_compile_replaces_only_its_own_folder_and_only_with_force(tmp_path):
    out = tmp_path / "env"
    assert cli("compile", "craft stick", "-o", str(out)).exit_code == 0
    one_clean_line(cli("compile", "craft stick", "-o", str(out)), "add --force")
    assert cli("compile", "craft stick", "-o", str(out), "--force").exit_code == 0
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("keep")
    one_clean_line(cli("compile", "craft stick", "-o", str(mine), "--force"), "not an earlier output")
    assert (mine / "notes.txt").read_text() == "keep"


def test_ctrl_c_during_generate_keeps_the_finished_files(tmp_path, monkeypatch):
    import taskverse.algebra.generate as generate

    real = generate.random_molecules

    def interrupted(*args, **kwargs):
        for count, molecule in enumerate(real(*args, **kwargs)):
            if count == 3:
                raise KeyboardInterrupt
            yield molecule

    monkeypatch.setattr(generate, "random_molecules", interrupted)
    out = tmp_path / "mols"
    result = cli("generate", "--n", "10", "--seed", "0", "-o", str(out))
    assert result.exit_code == 130 and "interrupted after 3 of 10" in result.stderr
    files = sorted(out.iterdir())
    assert len(files) == 3 and all(f.stat().st_size > 100 and f.name.startswith("mol.") for f in files)
    for file in files:
        assert cli("validate", str(file)).exit_code == 0
    result = cli("generate", "--n", "10", "--seed", "0", "--format", "json")
    assert result.exit_code == 130 and len(json.loads(result.stdout)) == 3  # the partial list, as valid JSON


def test_generate_reruns_into_the_same_folder(tmp_path):
    out = tmp_path / "mols"
    assert cli("generate", "--n", "3", "--seed", "1", "-o", str(out)).exit_code == 0
    assert cli("generate", "--n", "3", "--seed", "1", "-o", str(out)).exit_code == 0  # same files: unchanged
    first = sorted(out.iterdir())[0]
    first.write_text(first.read_text() + "# edited\n")
    one_clean_line(cli("generate", "--n", "3", "--seed", "1", "-o", str(out)), "already exists; add --force")
    assert first.read_text().endswith("# edited\n")


def test_play_reads_bounded_lines_from_stdin():
    result = cli("play", "craft stick", "--init", "task", input=b"x" * 200_000 + b"\ncraft stick\n")
    assert result.exit_code == 0, result.output
    assert "longer than 4096 characters" in result.output and "Done: craft stick" in result.output


def test_play_survives_bytes_that_are_not_utf8():
    result = cli("play", "craft stick", "--init", "task", input=b"\xff\xfe\ncraft stick\n")
    assert result.exit_code == 0 and "Traceback" not in result.output


def test_coverage_of_a_file_that_is_not_utf8(bad_paths):
    one_clean_line(cli("coverage", str(bad_paths["latin1"])), "not UTF-8")


def test_coverage_bounds_lines(tmp_path):
    path = tmp_path / "tasks.txt"
    path.write_text("craft stick\n" + "x" * 600 + "\n")
    rows = json.loads(cli("coverage", str(path), "--format", "json").stdout)["lines"]
    assert rows[0]["mapped"] and not rows[1]["mapped"] and "longer than 500" in rows[1]["reason"]
    path.write_text("craft stick\n" * 10_001)
    one_clean_line(cli("coverage", str(path)), "the limit is 10,000")


def test_the_playthrough_follows_the_aliases_file(tmp_path, monkeypatch, library):
    import taskverse.difficulty.scores as scores
    import taskverse.paths

    monkeypatch.setattr(taskverse.paths, "atoms_dir", lambda: tmp_path)
    (tmp_path / "aliases.yaml").write_text("aliases: []\n")
    assert "mine.dirt" not in scores.literature_tasks(library)  # nothing cached from an earlier aliases file
    row = "{alias: get dirt, task: mine.dirt, paper: Lifshitz et al. (2023)}"
    (tmp_path / "aliases.yaml").write_text(f"aliases:\n- {row}\n")
    assert "mine.dirt" in scores.literature_tasks(library)


def test_engine_dump_may_write_only_its_own_profiles(tmp_path):
    ours = ROOT / "engine" / "games" / "minetest_game"
    from taskverse.engine.profile import engine_dir
    from taskverse.fileio import check_output

    check_output(ours / "registry.json", maintains=engine_dir() / "games")  # rewriting its own profile: allowed
    one_clean_line(cli("engine", "dump", "-o", str(ROOT / "engine" / "mods")), "library's own folder engine/")
    (tmp_path / "registry.json").write_text("{}")
    one_clean_line(cli("engine", "dump", "-o", str(tmp_path)), "already exists; add --force")
    assert (tmp_path / "registry.json").read_text() == "{}"


def test_a_real_ctrl_c_during_generate_keeps_whole_files(tmp_path):
    import os
    import signal
    import subprocess
    import sys
    import time

    out = tmp_path / "mols"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    process = subprocess.Popen([sys.executable, "-m", "taskverse.cli", "generate", "--n", "10000", "--seed", "5",
                                "--max-atoms", "8", "-o", str(out)], env=env, stderr=subprocess.PIPE, text=True)
    # no clock: the wait ends with the 20th file or with the process (which ends by itself after 10000 files)
    while not (out.is_dir() and len(list(out.iterdir())) >= 20) and process.poll() is None:
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate()
    files = list(out.iterdir())
    assert process.returncode == 130, stderr
    assert stderr.strip().endswith(f"error: interrupted after {len(files)} of 10000 molecule(s)")
    assert all(f.name.startswith("mol.") and f.suffix == ".yaml" and f.stat().st_size > 100 for f in files)


# -- agents that answer badly (eval) -------------------------------------------------------------------------------

def test_an_agent_command_line_that_shlex_cannot_split_is_one_clean_line():
    for spec in ['cmd:python "unterminated', "cmd:python 'unterminated", 'cmd:python agent.py "a\\']:
        one_clean_line(cli("eval", "--tasks", "craft.stick", "--agent", spec), "cannot read the command line",
                       spec, "No closing quotation" if "unterminated" in spec else "No escaped character")


NOT_UTF8_AGENT = r"""
import json, sys
for line in sys.stdin:
    o = json.loads(line)
    if o["step"] == 0:  # bytes that are not UTF-8, on their own and inside what looks like JSON
        sys.stdout.buffer.write(b"\xff\xfe\x80craft\n" if o["episode"] == 0 else b'{"action": 0, "why": "\xc3("}\n')
    else:
        sys.stdout.buffer.write(str(o["candidates"][0]["index"]).encode() + b"\n")
    sys.stdout.flush()
"""


def test_an_answer_that_is_not_utf8_is_refused_like_a_wrong_name_and_the_run_goes_on(tmp_path):
    import subprocess
    import sys

    script = tmp_path / "agent.py"
    script.write_text(NOT_UTF8_AGENT)
    report = tmp_path / "r.json"
    done = subprocess.run([sys.executable, "-m", "taskverse.cli", "eval", "--tasks", "craft.stick", "--episodes", "2",
                           "--agent", f"cmd:python {script}", "--max-steps", "3", "--no-progress", "-o", str(report)],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and "Exception in thread" not in done.stderr, done.stderr
    episodes = json.loads(report.read_text())["tasks"][0]["episodes"]
    # the step is wasted (3 steps, 1 invalid), the next answers count, the episode is not an agent error
    assert [(e["termination"], e["steps"], e["invalid_actions"]) for e in episodes] == [("step_limit", 3, 1)] * 2
    for line in (report.with_name("r.trajectories.jsonl")).read_text().splitlines():
        first, second = json.loads(line)["trajectory"][:2]
        assert first["invalid"] and first["action"] is None and "not UTF-8" in first["error"]
        assert not second["invalid"] and second["action"] is not None


HUGE_LINE_AGENT = r"""
import json, sys
huge = len(sys.argv) > 1
for line in sys.stdin:
    o = json.loads(line)
    if huge and o["episode"] == 0:  # 50 MB on one line, written in pieces (the agent itself stays small)
        piece = b"7" * (1 << 20)
        for _ in range(50):
            sys.stdout.buffer.write(piece)
        sys.stdout.buffer.write(b"\n")
    else:
        sys.stdout.buffer.write(str(o["candidates"][0]["index"]).encode() + b"\n")
    sys.stdout.flush()
"""


def _peak_memory_mb(args: list[str], out: Path) -> tuple[int, float, str]:
    """Run the command line; (exit code, the largest resident size of it and what it waited for, stderr)."""
    import os
    import subprocess
    import sys

    with (out / "stderr").open("w") as stderr:
        process = subprocess.Popen([sys.executable, "-m", "taskverse.cli", *args], stdout=subprocess.DEVNULL,
                                   stderr=stderr, cwd=ROOT)
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
    return process.returncode, usage.ru_maxrss / 1024, (out / "stderr").read_text()


def test_a_50_mb_answer_line_is_read_in_pieces_and_fails_the_episode(tmp_path):
    script = tmp_path / "agent.py"
    script.write_text(HUGE_LINE_AGENT)
    runs = {}
    for name, extra in (("normal", ""), ("huge", " huge")):
        (tmp_path / name).mkdir()
        report = tmp_path / name / "r.json"
        runs[name] = _peak_memory_mb(["eval", "--tasks", "craft.stick", "--episodes", "2", "--agent",
                                      f"cmd:python {script}{extra}", "--max-steps", "3", "--no-progress",
                                      "--answer-timeout", str(HANG_GUARD),
                                      "-o", str(report)], tmp_path / name)
        assert runs[name][0] == 0 and "Traceback" not in runs[name][2], runs[name][2]
    episodes = json.loads((tmp_path / "huge" / "r.json").read_text())["tasks"][0]["episodes"]
    assert [e["termination"] for e in episodes] == ["agent_error", "step_limit"]
    assert "wrote an answer longer than 65536 bytes" in episodes[0]["error"]
    # bounded: the 50 MB line is never held (a run that kept it would need at least 50 MB more)
    assert runs["huge"][1] < runs["normal"][1] + 25, (runs["normal"][1], runs["huge"][1])


ODD_ANSWERS_AGENT = r"""
import json, sys
odd = ["9" * 5000, '{"action": ' + "9" * 5000 + "}", '{"a":' * 10000 + "1" + "}" * 10000, "\u00b2", "3: " + "9" * 5000]
for line in sys.stdin:
    o = json.loads(line)
    print(odd[o["step"]] if o["step"] < len(odd) else o["candidates"][0]["index"], flush=True)
"""


def test_answers_python_cannot_convert_are_refused_and_the_run_goes_on(tmp_path):
    # numbers of over 4300 digits (bare and in JSON), JSON nested past the recursion limit, a digit int() refuses
    script = tmp_path / "agent.py"
    script.write_text(ODD_ANSWERS_AGENT)
    report = tmp_path / "r.json"
    done = run_cli("eval", "--tasks", "craft.stick", "--agent", f"cmd:python {script}", "--max-steps", "6",
                   "--no-progress", "-o", str(report))
    assert done.returncode == 0 and "internal error" not in done.stderr, done.stderr
    episode = json.loads(report.read_text())["tasks"][0]["episodes"][0]
    assert (episode["termination"], episode["steps"], episode["invalid_actions"]) == ("step_limit", 6, 5)
    steps = json.loads(report.with_name("r.trajectories.jsonl").read_text())["trajectory"]
    assert [s["invalid"] for s in steps] == [True] * 5 + [False]
    assert "5000 digits" in steps[0]["error"] and "no action named" in steps[1]["error"]


@pytest.mark.parametrize("view", ["top:\u00b2", "top:" + "9" * 5000, "top:0"])
def test_a_view_with_a_number_python_cannot_convert_is_one_clean_line(view):
    one_clean_line(cli("eval", "--tasks", "craft.stick", "--agent", "greedy", "--view", view),
                   "top:K needs a whole number K from 1 to 999999999")


@pytest.mark.parametrize("args", [["eval", "--tasks", "craft.stick", "--agent", "greedy", "--no-progress"],
                                  ["engine", "run", "craft.stick"]])
def test_a_ray_address_where_nothing_listens_is_one_clean_line_at_once(monkeypatch, args):
    ray = pytest.importorskip("ray")
    monkeypatch.setenv("RAY_ADDRESS", "127.0.0.1:1")
    # "at once" without a clock: ray.init itself would wait for minutes, so it must not be called at all
    calls = []

    def init(*given, **options):
        calls.append((given, options))
        raise AssertionError("ray.init was called: it waits for minutes when nothing listens")

    monkeypatch.setattr(ray, "init", init)
    one_clean_line(cli(*args), "cannot reach the Ray cluster at 127.0.0.1:1 (RAY_ADDRESS)")
    assert calls == []


def test_a_long_error_keeps_what_is_wrong_at_its_end():
    from taskverse.cli.util import MAX_ERROR_CHARS, error_line

    line = error_line("x" * 5000 + ": a count runs up to 1000")
    assert line.endswith("a count runs up to 1000") and line.startswith("error: xxx") and "…" in line
    assert len(line) == len("error: ") + MAX_ERROR_CHARS


@pytest.mark.parametrize("command", [("show",), ("plan",), ("difficulty",),
                                     ("eval", "--agent", "greedy", "--no-progress", "--tasks")])
def test_a_mistyped_id_is_answered_with_close_ids_not_a_phrase_reading(command):
    """``craft.stik`` has an id's shape: the error offers ``craft.stick``, not the phrase reader's verb list."""
    line = one_clean_line(cli(*command, "craft.stik"), "'craft.stick'")
    assert "as a phrase" not in line


@pytest.mark.parametrize("command", [("plan",), ("eval", "--agent", "greedy", "--no-progress", "--tasks")])
def test_plan_and_eval_check_a_task_file_as_show_does(tmp_path, command):
    """A task file with an unknown item is refused naming its file, line and field, before any planning."""
    path = tmp_path / "t.yaml"
    path.write_text(GOOD.replace("iron_ingot: 2", "iron_ingott: 2"))
    one_clean_line(cli(*command, str(path)), f"{path}:6: initialization.inventory.iron_ingott", "'iron_ingot'")


@pytest.mark.parametrize("typo, field, meant", [
    ("  biom: desert\n", "initialization.biom", "biome"),  # an optional field of a nested model
    ("  tme: night\n", "initialization.tme", "time"),
])
def test_an_unknown_optional_field_gets_the_close_known_fields(tmp_path, typo, field, meant):
    """A mistyped optional key is named with the fields the model has there, as a mistyped required one is."""
    path = tmp_path / "t.yaml"
    path.write_text(GOOD.replace("initialization:\n", "initialization:\n" + typo))
    result = cli("validate", str(path))
    assert result.exit_code == 1
    assert f"{path}:6: {field}: unknown field (did you mean '{meant}'" in result.stderr, result.stderr


@pytest.mark.parametrize("expr, meant", [("craft iron_sword @ when=nite", "night"),
                                         ("init(craft bread, time=noom)", "noon")])
def test_a_mistyped_choice_in_an_expression_gets_the_close_choices(expr, meant):
    """A value outside a constraint's or a start's choices is named with the close ones, as in a task file."""
    one_clean_line(cli("compose", expr), f"(did you mean '{meant}'")

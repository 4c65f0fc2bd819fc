"""Fuzzing the command line with bad paths, YAML, expressions and filters (hypothesis).

Whatever the input, a command ends with exit 0 (the input happened to be valid) or with a non-zero exit and one
readable ``error:`` line per problem: never a traceback, never an internal error. Most cases run in-process with
click's test runner (fast); a few run as real processes under a memory limit. No time bound: the examples run with
no deadline (tests/conftest.py), and a command that would block (on a FIFO) is fed so that it ends.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import ROOT

# CI runs 100 fixed examples per test; TASKVERSE_FUZZ_EXAMPLES=2000 searches longer, and at random
EXAMPLES = os.environ.get("TASKVERSE_FUZZ_EXAMPLES")
FUZZ = settings(max_examples=int(EXAMPLES or 100), deadline=None, derandomize=EXAMPLES is None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
MEMORY_LIMIT = 1024 * 1024 * 1024  # 1 GiB of address space: a normal command needs well under half of it


def run(*args: str) -> object:
    from taskverse.cli import main

    return CliRunner().invoke(main, list(args))


def assert_clean(result, one_line: bool = True) -> None:
    """Exit 0, or a non-zero exit with readable error lines and nothing else."""
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    if result.exit_code == 0:
        return
    assert result.exit_code in (1, 2), (result.exit_code, result.stderr)
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert lines, result.output
    if one_line:
        assert len(lines) == 1, result.stderr
    for line in lines:
        assert line.startswith("error: "), line
        assert "internal error" not in line and len(line) <= 1100, line
    assert "Traceback" not in result.stderr


@pytest.fixture(scope="module")
def folder():
    with tempfile.TemporaryDirectory(prefix="taskverse-fuzz-") as name:
        base = Path(name)
        (base / "dir.yaml").mkdir()
        (base / "afile").write_text("x")
        os.mkfifo(base / "fifo.yaml")
        os.symlink(base / "loop_b.yaml", base / "loop_a.yaml")
        os.symlink(base / "loop_a.yaml", base / "loop_b.yaml")
        yield base


KINDS = ["missing.yaml", "dir.yaml", "fifo.yaml", "loop_a.yaml", "afile/under.yaml", "bytes.yaml", "empty.yaml"]
PATH_COMMANDS = [["show"], ["difficulty"], ["graph"], ["validate"], ["coverage"], ["compile", "-o", "{out}"],
                 ["suite", "show"], ["eval", "--agent", "random", "--no-progress", "--suite"]]


@FUZZ
@given(kind=st.sampled_from(KINDS), command=st.sampled_from(PATH_COMMANDS), data=st.binary(max_size=300))
def test_bad_paths(folder, kind, command, data):
    path = folder / kind
    if kind in ("bytes.yaml", "empty.yaml"):
        path.write_bytes(data if kind == "bytes.yaml" else b"")
    args = [a.replace("{out}", str(folder / "out")) for a in command]
    if "-o" in args:
        args = [args[0], str(path), *args[1:]]
    else:
        args = [*args, str(path)]
    assert_clean(run(*args), one_line=command != ["validate"])


SCALARS = st.one_of(st.integers(-10**40, 10**40), st.booleans(), st.none(), st.floats(allow_nan=True),
                    st.text(alphabet="abc_.#:-{}[]&*!| '\"", max_size=12))
KEYS = st.sampled_from(["id", "description", "category", "verb", "kind", "initialization", "inventory", "stick",
                        "metrics", "success", "event", "target", "expression", "parts", "task", "tasks", "count"])
DATA = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                     st.dictionaries(KEYS, inner, max_size=5)), max_leaves=30)


def yaml_text(data: object) -> str:
    import yaml

    return yaml.safe_dump(data, default_flow_style=None)


RAW_YAML = st.text(alphabet="[]{}:,-&*!|>'\"#? \nabc01\t", max_size=200)
NESTED = st.integers(min_value=90, max_value=3000).map(lambda n: "a: " + "[" * n + "]" * n + "\n")
DUPLICATED = DATA.map(lambda d: yaml_text({"id": "x", "verb": "y"}) + "id: again\n" + yaml_text(d))
ANCHORED = st.integers(min_value=1, max_value=45).map(
    lambda n: "a0: &a0 [x, y]\n" + "".join(f"a{i}: &a{i} [*a{i - 1}, *a{i - 1}, *a{i - 1}]\n" for i in range(1, n)))


@FUZZ
@given(text=st.one_of(DATA.map(yaml_text), RAW_YAML, NESTED, DUPLICATED, ANCHORED),
       command=st.sampled_from(["show", "validate", "difficulty"]))
def test_bad_yaml(folder, text, command):
    path = folder / "fuzz.yaml"
    path.write_text(text, encoding="utf-8")
    assert_clean(run(command, str(path)), one_line=command != "validate")


EXPR_TOKENS = ["craft stick", "hunt sheep", '"mine dirt"', "craft.torch", "&", "|", ">>", "(", ")", "@", "when",
               "=", "night", "where", "desert", "how", "with:iron_sword", "naive(", "init(", ",", "inventory.stick",
               "summon.zombie", "3", "-1", "99999999999999999999", "'", '"', " ", "\\", "\x00", "é", "nope"]


@FUZZ
@given(tokens=st.lists(st.sampled_from(EXPR_TOKENS), max_size=40),
       depth=st.integers(min_value=0, max_value=400))
def test_bad_expressions(tokens, depth):
    expr = "(" * depth + " ".join(tokens) + ")" * depth
    result = run("compose", expr, "--format", "json")
    if not tokens:
        assert result.exit_code == 2
    assert_clean(result)


FILTER_TOKENS = ["category", "=", "mining", "minig", "and", "or", "not", "(", ")", "planning_complexity", ">=",
                 "3", "~", "'", '"', "verb", "craft", "raw.novelty", "<", "nan", "inf", "!", "&&", "tag", "id"]


@FUZZ
@given(tokens=st.lists(st.sampled_from(FILTER_TOKENS), max_size=30), nots=st.integers(min_value=0, max_value=3000))
def test_bad_filters(tokens, nots):
    result = run("filter", "not " * nots + " ".join(tokens), "--from", "SkillForge-Mining")
    assert_clean(result)


def test_fuzzing_stays_within_memory():
    """The in-process fuzzing above did not raise the test process's peak memory past a bound."""
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    assert peak_kb < 2 * 1024 * 1024, f"peak {peak_kb / 1024:.0f} MB"


# -- real processes, under a memory limit ------------------------------------------------------------------------

def limited(*args: str, stdin: object = subprocess.DEVNULL,
            stdout: object = subprocess.PIPE) -> subprocess.CompletedProcess[bytes]:
    """Run the command line as a user would, with at most ``MEMORY_LIMIT`` of address space."""
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))

    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    return subprocess.run([sys.executable, "-m", "taskverse.cli", *args], stdin=stdin, stdout=stdout,
                          stderr=subprocess.PIPE, preexec_fn=limit, cwd=ROOT, env=env)


def clean_exit(done: subprocess.CompletedProcess[bytes], needle: str) -> None:
    stderr = done.stderr.decode("utf-8", "replace")
    assert done.returncode in (1, 2), (done.returncode, stderr[-2000:])
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0], stderr[-2000:]


def test_a_yaml_nested_50000_deep_is_no_segfault(tmp_path):
    path = tmp_path / "deep.yaml"
    path.write_text("[" * 50_000 + "]" * 50_000)
    clean_exit(limited("show", str(path)), "nested more than 100 levels")


def test_a_small_file_of_nested_anchors_stays_small(tmp_path):
    from conftest import billion_laughs

    path = tmp_path / "laughs.yaml"
    path.write_text(billion_laughs(40))
    clean_exit(limited("show", str(path)), "more than 1,000,000 values")


@contextmanager
def fed(fifo: Path) -> Iterator[None]:
    """While the block runs, whoever opens ``fifo`` to read gets an empty file at once instead of waiting forever.

    A writer opens it in a thread (which waits for a reader); at the end of the block, a reader of our own lets that
    writer finish if nobody else came. So a command that wrongly reads the FIFO ends (and fails the test on what it
    says), with no clock involved.
    """
    def write() -> None:
        try:
            with open(fifo, "wb"):
                pass
        except OSError:
            pass

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    try:
        yield
    finally:
        reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # never waits; lets a waiting writer open
        try:
            writer.join()
        finally:
            os.close(reader)


def test_a_fifo_as_a_task_does_not_block(tmp_path):
    fifo = tmp_path / "task.yaml"
    os.mkfifo(fifo)
    with fed(fifo):
        done = limited("show", str(fifo))
    clean_exit(done, "FIFO")


def test_a_50_mb_line_on_plays_stdin(tmp_path):
    stdin = tmp_path / "stdin.txt"
    with stdin.open("wb") as handle:
        handle.write(b"y" * 50_000_000 + b"\ncraft stick\n")
    with stdin.open("rb") as handle:
        done = limited("play", "craft stick", "--init", "task", stdin=handle)
    out = done.stdout.decode()
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    assert "longer than 4096 characters" in out and "Done: craft stick" in out


def test_a_full_disk_on_stdout(tmp_path):
    with open("/dev/full", "wb") as full:
        done = limited("schema", "atom", stdout=full)
    clean_exit(done, "no space left")


def test_huge_counts_are_refused_at_once():
    clean_exit(limited("generate", "--n", str(10**30), "--seed", "0"), "0<=x<=10000")
    clean_exit(limited("suite", "build", "SkillForge", "--size", str(10**30)), "8<=x<=10000")

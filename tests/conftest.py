from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parent.parent

# No clock in a test: hypothesis's default deadline (200 ms an example) and its too_slow health check fail a test
# on a busy machine, so neither applies. Tests bound the work (examples, steps, states); speed is measured in
# scripts/perf/. Tests that name their own health checks to suppress add too_slow to them.
settings.register_profile("taskverse", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("taskverse")

HANG_GUARD = 1800.0
"""Seconds after which a test gives up on something that could hang forever (an engine, a child process, an agent
that must answer). Only a guard against a hung CI, far above anything a loaded machine needs: never a speed check."""


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: a worker a core, at most four (each loads the library; the engine's tests start engines)."""
    return max(1, min(4, len(os.sched_getaffinity(0))))


@pytest.fixture(scope="session")
def library():
    from taskverse import load_library

    return load_library()


@pytest.fixture(scope="session")
def rules(library):
    """The text world's rules of the library."""
    from taskverse.world.rules import Rules

    return Rules.for_library(library)


@pytest.fixture(scope="session")
def reader(library):
    """The phrase reader of the library."""
    from taskverse.language.reader import PhraseReader

    return PhraseReader(library)


def run_cli(*args: str, input: str | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run the installed ``taskverse`` command as a user would."""
    return subprocess.run(
        [sys.executable, "-m", "taskverse.cli", *args], capture_output=True, text=True, input=input, cwd=cwd or ROOT,
    )


def cli_json(*args: str):
    result = run_cli(*args, "--format", "json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def cli(*args: str, input: str | bytes | None = None):
    """Run the command line in-process (click's test runner): fast, with stdout and stderr apart."""
    from click.testing import CliRunner

    from taskverse.cli import main

    return CliRunner().invoke(main, list(args), input=input)


def in_process_json(*args: str):
    """A command's JSON output, run in-process (for tests about what a command prints, not its start-up)."""
    result = cli(*args, "--format", "json")
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def one_clean_line(result, *needles: str, code: int | None = 2) -> str:
    """The command failed with exactly one line on stderr, no traceback, naming what it should."""
    assert result.exit_code != 0, result.output
    if code is not None:
        assert result.exit_code == code, (result.exit_code, result.stderr)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ") and "Traceback" not in result.stderr and "internal error" not in lines[0]
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


def assert_one_bad_entry(table: Path, edited: Path, old: str, new: str, load, message: str, field: str) -> None:
    """``table`` with the line ``old`` replaced by ``new``, written to ``edited``: ``load(edited)`` raises one error
    saying ``message`` and naming the file, the edited line and ``field``."""
    from taskverse.errors import TaskverseError

    text = table.read_text()
    assert old in text
    edited.write_text(text.replace(old, new))
    with pytest.raises(TaskverseError) as caught:
        load(edited)
    error = caught.value
    assert message in str(error) and error.file == edited and error.field == field
    assert error.line == text.splitlines().index(old.rstrip("\n")) + 1


PATH_ERRORS = {"missing": "no such file", "folder": "is a folder", "fifo": "FIFO", "loop": "symlink loop",
               "binary": "not UTF-8", "latin1": "not UTF-8", "under_file": "is a file, not a folder"}
"""Each kind of bad path, and what its error says."""


@pytest.fixture
def bad_paths(tmp_path: Path) -> dict[str, Path]:
    """One path of each bad kind (see PATH_ERRORS)."""
    paths = {"missing": tmp_path / "missing.yaml", "folder": tmp_path / "folder.yaml",
             "fifo": tmp_path / "fifo.yaml", "loop": tmp_path / "loop.yaml", "binary": tmp_path / "binary.yaml",
             "latin1": tmp_path / "latin1.yaml", "under_file": tmp_path / "afile" / "x.yaml"}
    paths["folder"].mkdir()
    os.mkfifo(paths["fifo"])
    os.symlink(tmp_path / "loop2.yaml", paths["loop"])
    os.symlink(paths["loop"], tmp_path / "loop2.yaml")
    paths["binary"].write_bytes(b"\x00\x01\xff\xfe\x89PNG")
    paths["latin1"].write_bytes("id: caf\xe9\n".encode("latin-1"))
    (tmp_path / "afile").write_text("x")
    return paths


def billion_laughs(levels: int = 40) -> str:
    """A small molecule file whose anchors double at each level (under 2 KB for 40 levels)."""
    lines = ["kind: molecule", "id: mol.0000000000000000", "description: laughs", "category: misc",
             "expression:", "  kind: all", "  parts:", "  - &l0 {kind: atom, task: craft.stick}"]
    lines += [f"  - &l{i} {{kind: all, parts: [*l{i - 1}, *l{i - 1}]}}" for i in range(1, levels)]
    return "\n".join(lines) + "\n"


# A valid user task file, for the bad-input tests to break one field at a time.
GOOD = """\
id: craft.my_sword
description: craft my sword
category: crafting
verb: craft
initialization:
  inventory: {iron_ingot: 2, stick: 1, crafting_table: 1}
metrics:
  success: {event: craft, target: iron_sword}
"""


@contextmanager
def local_ray() -> Iterator[None]:
    """A local Ray instance of two CPUs for the block; the workers' actor pools are forgotten when it stops."""
    import ray

    from taskverse import workers

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield
    finally:
        workers._ACTOR_POOLS.clear()
        ray.shutdown()


def take_trip_back(rules, state, b: int) -> None:
    """Take the trip to the dimension step ``b`` needs, which a derivation's plan leaves out (the agent's position once
    the plan has moved costs nothing in its prices): through the portal the plan lit, or the End's exit portal."""
    for way in rules.ways[b]:
        unmet = [need for need in way if not rules.need_met(state, need)]
        if len(unmet) == 1 and unmet[0].members[0] in rules.dimensions:
            trip = next((t for t in sorted(rules.trips) if state.mask[t]
                         and any(o.resource == unmet[0].members[0] for o in rules.outputs[t])), None)
            if trip is not None:
                rules.act(state, trip, events=False)
                return

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def library():
    from taskverse import load_library

    return load_library()


def run_cli(*args: str, input: str | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run the installed ``taskverse`` command as a user would."""
    return subprocess.run(
        [sys.executable, "-m", "taskverse.cli", *args], capture_output=True, text=True, input=input,
        cwd=cwd or ROOT, timeout=300,
    )


def cli_json(*args: str):
    result = run_cli(*args, "--format", "json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)

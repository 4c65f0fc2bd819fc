"""Every benchmark script under ``scripts/perf`` answers ``--help`` with its usage and runs nothing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

PERF = Path(__file__).resolve().parents[1] / "scripts" / "perf"
SCRIPTS = sorted(p.name for p in PERF.glob("*.py") if not p.name.startswith("_"))


@pytest.mark.parametrize("script", SCRIPTS)
def test_a_benchmark_script_says_its_usage_when_asked_for_help(script: str) -> None:
    done = subprocess.run([sys.executable, str(PERF / script), "--help"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"usage: {script}"), done.stdout[:300]

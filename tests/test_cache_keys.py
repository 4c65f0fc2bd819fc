"""Every answer kept on disk between commands is keyed by the whole package's code, not by a few modules of it.

An entry derived by other code and read back as current makes a rebuilt suite or calibration differ from the
shipped one at the same commit (seen when a knowledge reader changed without its module being in a partial key).
"""

from __future__ import annotations

import pytest

import taskverse.memo
from taskverse.difficulty.estimate import PlanModel
from taskverse.library.loader import load_library
from taskverse.memo import code_digest


def test_the_library_world_and_plan_caches_carry_the_code_digest(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[str] = []
    real = taskverse.memo.DiskMemo.__init__

    def recording(self: taskverse.memo.DiskMemo, kind: str, key: str) -> None:
        asked.append(f"{kind}-{key}")
        real(self, kind, key)

    # The keys asked for, not the files found afterwards: another process saving a memo of the same kind under
    # its own key removes this one's file as stale, so what is on disk is not this test's to read.
    monkeypatch.setattr(taskverse.memo.DiskMemo, "__init__", recording)
    library = load_library()
    assert library.world is not None
    assert PlanModel(library).rules is not None
    digest = code_digest()
    for kind in ("library", "world", "plans"):
        keys = [key for key in asked if key.startswith(f"{kind}-")]
        assert keys, f"no {kind} cache was asked for"
        assert all(digest in key for key in keys), f"{kind} cache keys lack the code digest: {keys}"

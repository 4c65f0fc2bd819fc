"""Every answer kept on disk between commands is keyed by the whole package's code, not by a few modules of it.

An entry derived by other code and read back as current makes a rebuilt suite or calibration differ from the
shipped one at the same commit (seen when a knowledge reader changed without its module being in a partial key).
"""

from __future__ import annotations

from taskverse.difficulty.estimate import PlanModel
from taskverse.library.loader import load_library
from taskverse.memo import code_digest
from taskverse.paths import cache_dir


def test_the_library_world_and_plan_caches_carry_the_code_digest() -> None:
    library = load_library()
    assert library.world is not None
    assert PlanModel(library).rules is not None
    digest = code_digest()
    for kind in ("library", "world", "plans"):
        names = [p.name for p in cache_dir().glob(f"{kind}-*.pickle")]
        assert names, f"no {kind} cache was written"
        assert any(digest in name for name in names), f"{kind} cache keys lack the code digest: {names}"

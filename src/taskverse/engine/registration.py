"""Gymnasium registration of ``taskverse/EngineSkills-v0``, cheap enough to run on ``import taskverse``.

The entry point is a string: the environment module (the engine episode, the library) loads only on ``make``.
"""

from __future__ import annotations

ENV_ID = "taskverse/EngineSkills-v0"
ENTRY_POINT = "taskverse.engine.gymenv:EngineSkillsEnv"


def register_engine_envs() -> None:
    """Register ``taskverse/EngineSkills-v0`` with gymnasium (idempotent)."""
    import gymnasium

    if ENV_ID not in gymnasium.envs.registry:
        gymnasium.register(id=ENV_ID, entry_point=ENTRY_POINT)

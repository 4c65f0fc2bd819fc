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
        # The engine's server runs in real time: how far the day, the mobs and the falling blocks have moved by
        # the first observation depends on how busy the machine is, so one seed does not give one observation.
        gymnasium.register(id=ENV_ID, entry_point=ENTRY_POINT, nondeterministic=True)

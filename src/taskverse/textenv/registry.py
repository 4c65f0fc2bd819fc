"""Gymnasium registration of the SkillForge-text variants, cheap enough to run on ``import taskverse``.

Entry points are strings, so the environment module (and the library) load only when an environment is made.
"""

from __future__ import annotations

from typing import Literal, TypedDict

ENV_NAMESPACE = "taskverse"
ObservationMode = Literal["text", "structured"]


class Preset(TypedDict, total=False):
    """Constructor arguments a registered variant fixes."""

    observation: ObservationMode
    chance: str
    tasks: str | list[str]
    max_steps: int


PRESETS: dict[str, Preset] = {
    "SkillForgeText-v0": {"observation": "text"},
    "SkillForgeTextStructured-v0": {"observation": "structured"},
    "SkillForgeTextStochastic-v0": {"observation": "text", "chance": "sample"},
    "SkillForgeTextChain-v0": {"observation": "structured", "tasks": "naive-craft"},
}
"""The registered variants: Figure 5's text observation, a vector observation for learning agents, chance yields
drawn at random, and a fixed task list (every craft atom the world can reach from an empty inventory, one drawn
per episode, MCU's SkillForge-Chain idea)."""
VECTOR_ENTRY_POINT = "taskverse.textenv.vector:SkillForgeTextVectorEnv"
"""What ``gymnasium.make_vec`` builds for the structured variants: N copies stepped together in one call."""



def env_ids() -> list[str]:
    """The registered gymnasium ids."""
    return [f"{ENV_NAMESPACE}/{name}" for name in PRESETS]


def register_envs() -> None:
    """Register every preset with gymnasium (idempotent)."""
    import gymnasium

    registry = gymnasium.envs.registry
    for name, preset in PRESETS.items():
        env_id = f"{ENV_NAMESPACE}/{name}"
        if env_id not in registry:
            vector = VECTOR_ENTRY_POINT if preset.get("observation") == "structured" else None
            # No PassiveEnvChecker or OrderEnforcing around what gymnasium.make returns: the environment refuses a
            # step before reset() itself (ResetNeeded), and CI runs check_env over every id; the two wrappers
            # would add their calls to every step a learner takes. gymnasium.make(id, disable_env_checker=False)
            # still adds the checker.
            gymnasium.register(id=env_id, entry_point="taskverse.textenv.env:SkillForgeTextEnv", kwargs=dict(preset),
                               vector_entry_point=vector, disable_env_checker=True, order_enforce=False)

"""SkillForge-text: the gymnasium environment, its registered variants, agents and the evaluation runner."""

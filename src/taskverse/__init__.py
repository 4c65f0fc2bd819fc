"""taskverse: build and run benchmarks of open-ended game agents out of a task algebra.

Example:
    >>> from taskverse import load_library
    >>> library = load_library()
    >>> library.get("craft iron_sword").initialization.inventory
    {'crafting_table': 1, 'iron_ingot': 2, 'stick': 1}

"""

__version__ = "0.1.0"

from taskverse.errors import TaskverseError  # noqa: E402
from taskverse.library.loader import Library, load_library  # noqa: E402
from taskverse.schema import AtomTask, Category, Goal, Initialization  # noqa: E402

__all__ = ["AtomTask", "Category", "Goal", "Initialization", "Library", "TaskverseError", "__version__", "load_library"]

try:  # gymnasium.make("taskverse/SkillForgeText-v0" or "taskverse/EngineSkills-v0") works after `import taskverse`
    # (string entry points: cheap)
    from taskverse.engine.registration import register_engine_envs as _register_engine_envs
    from taskverse.textenv.registry import register_envs as _register_envs

    _register_envs()
    _register_engine_envs()
except ImportError:  # pragma: no cover - gymnasium is a core dependency
    pass

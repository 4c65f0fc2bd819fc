"""Every docstring example of the library runs as written (the engine's modules: ``test_engine_lua``).

An example is what a reader copies first; one that went stale as the model changed (a derivation from holdings
naming no dimension, a plan's logs) misleads silently, since nothing else runs it.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import taskverse

MODULES = sorted(info.name for info in pkgutil.walk_packages(taskverse.__path__, "taskverse.")
                 if not info.name.startswith("taskverse.engine.") and not info.name.endswith("__main__"))


def _examples(module: str) -> int:
    finder = doctest.DocTestFinder()
    return sum(len(test.examples) for test in finder.find(importlib.import_module(module)))


WITH_EXAMPLES = [m for m in MODULES if _examples(m)]


def test_the_library_has_docstring_examples_to_run():
    assert len(WITH_EXAMPLES) >= 5  # the world model's, the text environment's, the algebra's...


@pytest.mark.parametrize("module", WITH_EXAMPLES)
def test_a_docstring_example_runs_as_written(module):
    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted >= 1 and result.failed == 0

"""The tools a run of uses wears out: the one rounding rule the cost model, its compiled loop and the planner share.

Kept apart from ``world.rules`` so that ``world.settle`` (the compiled loop, which imports nothing of the rules)
and the rules read the same slack.
"""

from __future__ import annotations

import math

__all__ = ["RUN_SLACK", "tools_for_run"]

RUN_SLACK = 1e-9
"""What a run's uses may exceed a whole number of tools by in floating point and still take that many."""


def tools_for_run(runs: float, wear: float) -> float:
    """How many of a tool ``runs`` runs wear out, each run wearing ``wear`` of one: at least the one held in hand.

    Example:
        >>> tools_for_run(60, 1 / 59), tools_for_run(3, 1 / 59), tools_for_run(3, 0.0)
        (2.0, 1.0, 1.0)

    """
    return max(1.0, float(math.ceil(runs * wear - RUN_SLACK)))

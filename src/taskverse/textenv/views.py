"""Candidate views: which of the candidate actions an observation lists.

Language models' prompts grow with every candidate shown; these views keep them short.

* ``all``: every candidate (about 300 from an empty inventory), numbered as ``info["candidates"]``.
* ``relevant``: the candidates on some way to the target in its dependency graph: the actions that emit an event
  the target counts, and, transitively, every action producing something one of their ways needs.
* ``top:K``: the K candidates the planner ranks cheapest: one step plus the planner's admissible estimate of the
  steps left after the action, ties broken in favour of actions the planner would use, then relevant ones, then
  by the cost model's price of the action.

A view changes what is listed and how candidates are numbered, not what may be done: an action that is a
candidate but not shown can still be named by id or name.

Example:
    >>> parse_view("top:5")
    ('top', 5)
    >>> parse_view("relevant")
    ('relevant', None)

"""

from __future__ import annotations

from typing import TYPE_CHECKING

from taskverse.errors import TaskverseError, close_matches

if TYPE_CHECKING:
    from taskverse.textenv.env import SkillForgeTextEnv

VIEW_NAMES = ("all", "relevant", "top:K")


def parse_view(spec: str) -> tuple[str, int | None]:
    """A view spec (``all``, ``relevant``, ``top:K``) as (kind, K); raises a TaskverseError naming the problem."""
    text = str(spec).strip()
    if text in ("all", "relevant"):
        return text, None
    if text.startswith("top:"):
        number = text[4:].strip()
        if number.isascii() and number.isdigit() and len(number) <= 9 and int(number) >= 1:
            return "top", int(number)
        raise TaskverseError(f"view {spec[:40]!r}: top:K needs a whole number K from 1 to 999999999, e.g. top:10")
    raise TaskverseError(f"unknown candidate view {spec!r}; expected all, relevant or top:K",
                         suggestions=close_matches(text, ["all", "relevant", "top:10"]))


def relevant_closure(env: SkillForgeTextEnv) -> bytearray:
    """A mask of the actions on some way to the env's target (its dependency graph, every alternative)."""
    rules = env.rules
    seen = bytearray(len(rules.actions))
    stack = [a for a, on in enumerate(env.relevant_actions) if on]
    expanded: set[int] = set()
    while stack:
        a = stack.pop()
        if seen[a]:
            continue
        seen[a] = 1
        for way in rules.ways[a]:
            for need in way:
                for m in need.members:
                    if m not in expanded:
                        expanded.add(m)
                        stack.extend(p for p in rules.producers[m] if not seen[p])
    return seen


def shown_candidates(env: SkillForgeTextEnv, kind: str, k: int | None) -> list[int]:
    """The candidates the view lists now, in the order it numbers them."""
    candidates = env.candidates()
    if kind == "all":
        return candidates
    relevant = env.relevant_closure()
    if kind == "relevant":
        return [a for a in candidates if relevant[a]]
    assert k is not None
    return _ranked(env, candidates, relevant)[:k]


def _ranked(env: SkillForgeTextEnv, candidates: list[int], relevant: bytearray) -> list[int]:
    from taskverse.textenv.planning import planner_for, view

    # one planner per episode, from its start: a planner from a mid-episode state prices every action again
    planner = env.view_planner
    if planner is None:
        planner = env.view_planner = planner_for(env, from_start=True)
    state = view(planner, env)
    tracker = planner.tracker
    progress = tracker.feed(tracker.initial(), env.light_trace)
    used = set(planner.universe.actions)
    price = planner.costs.action
    keyed = []
    for a in candidates:
        w = planner.enabled_way(a, state)
        estimate = float("inf")
        if w is not None:
            child, after = planner.apply(state, progress, a, w)
            estimate = 1.0 + planner.heuristic(child, after)
        keyed.append((estimate, a not in used, not relevant[a], price[a], a))
    keyed.sort()
    return [key[-1] for key in keyed]


__all__ = ["VIEW_NAMES", "parse_view", "relevant_closure", "shown_candidates"]

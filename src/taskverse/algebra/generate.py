"""Random feasible molecule tasks, reproducible from a seed (``taskverse generate``)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from taskverse.algebra.expr import AllOf, AnyOf, AtomRef, Constrained, Constraint, Initialized, Then
from taskverse.algebra.molecule import Conflict, MoleculeTask, build_molecule

OPERATORS = (AllOf, AnyOf, Then)
WHEN = ("day", "night", "first_day", "rain", "clear")
HOW = ("bare_hand",)


def _constraint(rng: random.Random, biomes: list[str], tools: list[str]) -> Constraint:
    kind = rng.choice(("when", "where", "how"))
    if kind == "when":
        return Constraint(when=rng.choice(WHEN))  # type: ignore[arg-type]
    if kind == "where":
        return Constraint(where=rng.choice(["overworld", "cave", "height:..0", "height:64..", *biomes]))
    return Constraint(how=rng.choice([*HOW, *(f"with:{t}" for t in tools)]))


def _tree(rng: random.Random, atoms: list[str], biomes: list[str], tools: list[str]) -> Any:
    nodes: list[Any] = [AtomRef(task=a) for a in atoms]
    while len(nodes) > 1:  # join two random neighbours with a random operator until one tree is left
        i = rng.randrange(len(nodes) - 1)
        nodes[i:i + 2] = [rng.choice(OPERATORS)(parts=(nodes[i], nodes[i + 1]))]
    node = nodes[0]
    if rng.random() < 0.3:
        node = Constrained(part=node, constraint=_constraint(rng, biomes, tools))
    if rng.random() < 0.3 or isinstance(node, AtomRef):
        node = Initialized(part=node, mode="naive")
    return node


def random_molecules(library: Any, n: int, seed: int, max_atoms: int = 3,
                     max_attempts: int | None = None) -> Iterator[MoleculeTask]:
    """Yield ``n`` distinct feasible molecules (by content hash), the same ones for the same seed and library."""
    if n < 0 or max_atoms < 1:
        raise ValueError("n must be >= 0 and max_atoms >= 1")
    rng = random.Random(seed)
    world = library.world
    pool = sorted(t for t in library.by_id if world.task_rank(t) != float("inf"))
    biomes = sorted(b for b, info in library.knowledge.biomes.items() if info["dimension"] == "overworld")
    tools = sorted(t for tier in library.knowledge.tool_tiers for t in tier.items)
    seen: set[str] = set()
    attempts = 0
    limit = max_attempts if max_attempts is not None else 200 * max(n, 1)
    while len(seen) < n:
        attempts += 1
        if attempts > limit:
            raise RuntimeError(f"found only {len(seen)} distinct feasible molecules in {limit} attempts")
        atoms = rng.sample(pool, rng.randint(1, max_atoms))
        try:
            molecule = build_molecule(_tree(rng, atoms, biomes, tools), library, tags=["generated"])
        except Conflict:
            continue
        if molecule.id not in seen:
            seen.add(molecule.id)
            yield molecule

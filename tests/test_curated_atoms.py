"""Atoms for what the game data does not define: anvils, blocks in use, movement skills, builds, blocks only
structures or the world's floor hold."""

from __future__ import annotations

import math

import pytest

from taskverse.algebra.expr import canonical
from taskverse.algebra.molecule import resolve_refs
from taskverse.algebra.parse import parse_expression
from taskverse.language.reading import to_expr
from taskverse.world.derivation import Derivation
from taskverse.world.rules import CostModel, Rules

PHRASES = {
    "repair a pickaxe on an anvil": "use.repair_with_anvil",
    "rename an item": "use.rename_with_anvil",
    "combine items on an anvil": "use.combine_with_anvil",
    "open a barrel": "open.barrel",
    "open the door": "open.door",
    "play a note block": "use.play_note_block",
    "put an item in an item frame": "use.fill_item_frame",
    "water bucket landing": "move.water_bucket_landing",
    "reach the build limit": "navigate.reach_build_limit",
    "build a redstone clock": "build.redstone_clock",
    "build an and gate": "build.logic_gate",
    "build an automatic door": "build.door_opener",
    "build a castle": "build.castle",
    "build a hedge maze": "build.maze",
    "build a garden": "build.garden",
    "trap a cow in a boat": "trap.cow",
    "find bedrock": "find.bedrock",
    "find a monster spawner": "find.spawner",
}


@pytest.mark.parametrize("phrase", sorted(PHRASES))
def test_each_phrase_reads_as_its_atom(phrase, reader, library):
    read = canonical(resolve_refs(to_expr(reader.read(phrase).root), library))
    assert read == canonical(resolve_refs(parse_expression(PHRASES[phrase]), library)), reader.read(phrase).expression


def test_each_is_solvable_from_scratch_and_its_plan_runs_in_the_text_world(library):
    rules = Rules.for_library(library)
    naive = Derivation.of_steps(rules, CostModel.for_rules(rules), {rules.index[("dimension", "overworld")]: 1})
    for atom in PHRASES.values():
        assert library.world.task_rank(atom) != math.inf, atom
        state = rules.new_state(found=[("dimension", "overworld")])
        for a, runs in naive.steps_for(rules.action_index[atom]):
            for _ in range(runs):
                rules.act(state, a, events=False)
        assert rules.actions[a] == atom


def test_anvil_work_keeps_the_anvil_and_says_what_is_held(library):
    repair, rename = library.get("use.repair_with_anvil"), library.get("use.rename_with_anvil")
    assert (repair.goal.target, repair.goal.using) == ("anvil", "iron_ingot")
    assert (rename.goal.target, rename.goal.using) == ("anvil", "iron_sword")
    for task in (repair, rename, library.get("use.combine_with_anvil")):
        anvil = next(n for way in task.requires for n in way if n.any_of == ["anvil"])
        assert anvil.kept

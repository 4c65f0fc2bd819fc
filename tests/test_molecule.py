"""Molecules built against the library: attributes, feasibility, YAML round trip, MCU equation (1), the CLI."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import cli, run_cli
from taskverse.algebra.expr import AllOf, AtomRef, atoms_of, canonical, naive, ref
from taskverse.algebra.files import molecule_to_yaml
from taskverse.algebra.generate import random_molecules
from taskverse.algebra.molecule import Conflict, MoleculeTask, build_molecule, expand_naive
from taskverse.algebra.parse import parse_expression
from taskverse.algebra.semantics import Evaluator, GameEvent
from taskverse.errors import TaskverseError
from taskverse.yamlio import parse_yaml


def test_mcu_equation_1_naive_craft_oak_planks(library):
    expanded = expand_naive("craft oak_planks", library)
    # find oak trees & chop oak trees & craft oak planks; planks from oak wood is a detour the graph leaves out
    expected = AllOf(parts=(ref("craft.oak_planks"), ref("find.oak_log"), ref("mine.oak_log")))
    assert expanded == canonical(expected)
    assert set(atoms_of(expanded)) == {"craft.oak_planks", *library.world.pre_tasks("craft.oak_planks")}
    evaluator = Evaluator.for_library(library)
    play = [GameEvent(event="find", target="oak_log"), GameEvent(event="mine", target="oak_log"),
            GameEvent(event="obtain", target="oak_log"), GameEvent(event="craft", target="oak_planks", count=4)]
    for prefix in range(len(play) + 1):  # on a game-consistent trace both say the same at every step
        trace = play[:prefix]
        assert (evaluator.evaluate(naive(ref("craft.oak_planks")), trace).satisfied
                == evaluator.evaluate(expanded, trace).satisfied)
    assert evaluator.evaluate(expanded, play).satisfied


def test_molecule_attributes(library):
    m = build_molecule(parse_expression("plant wheat_seeds >> carve pumpkin"), library)
    assert m.description == "plant wheat_seeds and then carve pumpkin"
    sword = library.get("craft iron_sword")
    both = build_molecule(parse_expression("craft iron_sword & craft iron_sword & hunt sheep"), library)
    assert both.initialization.inventory == sword.initialization.inventory  # A & A = A
    assert [s.entity for s in both.initialization.summon] == ["sheep"]
    assert set(sword.pre_tasks) | set(library.world.pre_tasks(sword.id)) <= set(both.pre_tasks) | {"hunt.sheep"}
    assert build_molecule(naive(ref("craft.iron_sword")), library).initialization.is_naive()
    assert both.id == build_molecule(parse_expression("hunt sheep & craft.iron_sword"), library).id


@pytest.mark.parametrize("expr, needle", [
    ("mine obsidian @ how=bare_hand", "obsidian drops nothing unless mined with diamond_pickaxe"),
    ("combat blaze @ where=overworld", "blaze is only found in the nether"),
    ("climb the mountain & boating", "conflicting initializations"),
    ("hunt sheep @ when=day >> (hunt sheep @ when=night) @ when=day", "cannot happen both when=day and when=night"),
    ("find desert @ when=rain", "never rains"),
    ("craft iron_sword @ how=arrows", "only killing"),
    ("combat zombie @ where=desrt", "unknown biome 'desrt'"),
    ("craft iron_swrod", "no task with id or description"),
])
def test_infeasible_compositions_are_rejected_naming_the_conflict(library, expr, needle):
    with pytest.raises(TaskverseError, match=needle):
        build_molecule(parse_expression(expr), library)


@pytest.mark.parametrize("expr, column", [
    ("craft iron_sword & & mine", 20), ("(hunt sheep", 12), ("hunt sheep @ whence=night", 14),
    ("hunt sheep @ how=sideways", 14), ("naive(hunt sheep", 17), ("hunt sheep )", 12), ("", None),
])
def test_malformed_expressions_point_at_the_token(expr, column):
    with pytest.raises(TaskverseError) as info:
        parse_expression(expr)
    if column is not None:
        assert f"column {column}" in str(info.value)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(st.integers(min_value=0, max_value=10**6))
def test_yaml_round_trip(library, seed):
    for molecule in random_molecules(library, 3, seed, max_atoms=4):
        again = MoleculeTask.model_validate(parse_yaml(molecule_to_yaml(molecule)))
        assert again == molecule


def test_generated_molecules_are_feasible_distinct_and_reproducible(library):
    first = list(random_molecules(library, 40, seed=7, max_atoms=5))
    again = list(random_molecules(library, 40, seed=7, max_atoms=5))
    assert [m.id for m in first] == [m.id for m in again]
    assert len({m.id for m in first}) == 40
    for m in first:
        rebuilt = build_molecule(m.expression, library)  # feasible: building it again raises nothing
        assert rebuilt.id == m.id
    other = [m.id for m in random_molecules(library, 40, seed=8, max_atoms=5)]
    assert other != [m.id for m in first]


def test_custom_initialization_overrides(library):
    m = build_molecule(parse_expression("init(craft bread, time=night, inventory.wheat=5, summon.zombie=2)"), library)
    assert m.initialization.time.value == "night"
    assert m.initialization.inventory == {"wheat": 5}
    assert [(s.entity, s.count) for s in m.initialization.summon] == [("zombie", 2)]
    with pytest.raises(TaskverseError, match="time"):
        build_molecule(parse_expression("init(craft bread, time=teatime)"), library)


def test_compose_and_generate_cli(tmp_path):
    out = tmp_path / "m.yaml"
    result = cli("compose", "plant wheat_seeds >> carve pumpkin", "-o", str(out))
    assert result.exit_code == 0, result.stderr
    shown = json.loads(cli("show", str(out), "--format", "json").stdout)
    assert shown["kind"] == "molecule" and shown["description"] == "plant wheat_seeds and then carve pumpkin"
    assert cli("validate", str(out)).exit_code == 0
    bad = cli("compose", "mine obsidian @ how=bare_hand")
    assert bad.exit_code == 2 and "Traceback" not in bad.stderr and "obsidian" in bad.stderr
    # the same seed gives the same molecules in another process too (where sets iterate in another order)
    a = json.loads(run_cli("generate", "--n", "5", "--seed", "3", "--format", "json").stdout)
    b = json.loads(cli("generate", "--n", "5", "--seed", "3", "--format", "json").stdout)
    assert a == b and len({m["id"] for m in a}) == 5
    cli("generate", "--n", "4", "--seed", "3", "-o", str(tmp_path / "gen"))
    assert len(list((tmp_path / "gen").glob("mol.*.yaml"))) == 4
    assert json.loads(cli("schema", "molecule", "--format", "json").stdout)["properties"]["expression"]


def test_tampered_molecule_file_is_rejected(tmp_path):
    out = tmp_path / "m.yaml"
    assert cli("compose", "hunt sheep & hunt cow", "-o", str(out)).exit_code == 0
    out.write_text(out.read_text().replace("hunt.cow", "hunt.pig"))
    result = cli("validate", str(out))
    assert result.exit_code == 1 and "id does not match" in result.stderr


def test_atom_refs_by_description_resolve(library):
    m = build_molecule(AllOf(parts=(AtomRef(task="Hunt a sheep"), AtomRef(task="combat.spider"))), library)
    assert set(m.atoms) == {"hunt.sheep", "combat.spider"}
    with pytest.raises(Conflict):
        build_molecule(parse_expression("find ocean @ where=nether"), library)


def test_constraints_of_different_facets_combine(library):
    both = build_molecule(parse_expression("hunt sheep @ when=first_day, when=clear, where=plains"), library)
    assert both.description == "hunt sheep in plains on the first day in clear weather" or "clear" in both.description
    night_rain = build_molecule(parse_expression("combat zombie @ when=night, when=rain"), library)
    assert "night" in night_rain.description and "rain" in night_rain.description
    with pytest.raises(Conflict, match="when=clear and when=rain"):
        build_molecule(parse_expression("hunt sheep @ when=rain, when=clear"), library)


def test_a_constraint_inside_init_keeps_its_commas_apart(library):
    m = build_molecule(parse_expression("init(hunt sheep @ when=night, time=night)"), library)
    assert m.initialization.time.value == "night" and "at night" in m.description

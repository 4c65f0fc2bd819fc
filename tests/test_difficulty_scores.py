import math

import numpy as np
import pytest

from taskverse.algebra.expr import naive, ref
from taskverse.algebra.molecule import build_molecule
from taskverse.algebra.parse import parse_expression
from taskverse.difficulty.scores import context_for, difficulty_vector, naive_raw_scores, raw_scores, scores
from taskverse.difficulty.timemodel import ActionModel
from taskverse.schema import DIFFICULTY_DIMENSIONS, Initialization
from taskverse.world.graph import task_node
from taskverse.world.taskgraph import NAIVE


def test_naive_planning_complexity_is_the_whole_graph(library):
    ctx = context_for(library)
    world = library.world
    for task in library.tasks:
        if world.task_rank(task.id) == math.inf:
            continue
        nodes, edges = world.graph_size(task.id)
        assert ctx.graph.size([(task_node(task.id), NAIVE)]) == (nodes, edges), task.id
    for task_id in ("craft.white_bed", "craft.iron_sword", "mine.diamond_ore", "hunt.sheep"):
        graph = world.dependency_graph(task_id)
        expected = graph.number_of_nodes() + graph.number_of_edges()
        assert naive_raw_scores(task_id, library)["planning_complexity"].value == expected


def test_naive_versions_plan_at_least_as_much_as_their_atoms(library):
    ctx = context_for(library)
    for task in library.tasks:
        atom = ctx.graph.size([(task_node(task.id), ctx.provided(task.initialization))])
        whole = ctx.graph.size([(task_node(task.id), NAIVE)])
        assert sum(whole) >= sum(atom), task.id


def test_initialization_prunes_what_it_provides(library):
    sword = raw_scores(library.get("craft iron_sword"), library)
    assert sword["planning_complexity"].value == 7  # the task, its three needs, three edges
    assert sword["time_consumption"].value == 20 + 3 * 10 + 10  # open the grid, three cells, take
    naive_sword = naive_raw_scores("craft.iron_sword", library)
    assert naive_sword["time_consumption"].value > 50 * sword["time_consumption"].value


def test_molecules_combine_their_atoms(library):
    a, b = library.get("hunt sheep"), library.get("craft iron_sword")
    both = build_molecule(ref(a) & ref(b), library)
    either = build_molecule(ref(a) | ref(b), library)
    ra, rb = raw_scores(a, library), raw_scores(b, library)
    r_and, r_or = raw_scores(both, library), raw_scores(either, library)
    assert r_and["time_consumption"].value == pytest.approx(ra["time_consumption"].value
                                                            + rb["time_consumption"].value)
    assert r_or["time_consumption"].value == min(ra["time_consumption"].value, rb["time_consumption"].value)
    # union of the two graphs (given the combined initialization) plus the AND node and its two edges
    assert r_and["planning_complexity"].value >= max(ra["planning_complexity"].value,
                                                     rb["planning_complexity"].value) + 3
    # precision demands add up (each step is one more chance of a mistake); novelty is the most novel atom's
    assert r_and["intricacy"].value > max(ra["intricacy"].value, rb["intricacy"].value)
    assert r_and["novelty"].value >= max(ra["novelty"].value, rb["novelty"].value) - 0.1


def test_naive_molecule_equals_the_calibration_path(library):
    for task_id in ("craft.white_bed", "combat.zombie", "find.village", "smelt.iron_ingot"):
        molecule = build_molecule(naive(ref(task_id)), library)
        via_molecule = raw_scores(molecule, library)
        direct = naive_raw_scores(task_id, library)
        assert via_molecule == direct


def test_constraints_change_the_plan(library):
    plain = raw_scores(build_molecule(ref("combat.zombie"), library), library)
    night = raw_scores(build_molecule(ref("combat.zombie").at(when="night"), library), library)
    assert night["time_consumption"].value > plain["time_consumption"].value
    # fighting with an iron sword one holds is quicker than with the wooden one the atom starts with ...
    held = parse_expression("init(combat zombie, inventory.iron_sword=1) @ how=with:iron_sword")
    armed = raw_scores(build_molecule(held, library), library)
    assert armed["time_consumption"].value < plain["time_consumption"].value
    assert armed["intricacy"].value > plain["intricacy"].value  # one more thing to get right
    # ... and one not held is made first
    unarmed = build_molecule(ref("combat.zombie").at(how="with:iron_sword"), library)
    assert raw_scores(unarmed, library)["time_consumption"].value > 10 * plain["time_consumption"].value


def test_break_times_follow_the_game_rules(library):
    model = ActionModel(library.knowledge)
    assert model.break_ticks("oak_log", None) == 60  # 2.0 * 1.5 s by hand
    assert model.break_ticks("obsidian", "diamond_pickaxe") == math.ceil(30 * 50 / 8)
    assert model.break_ticks("iron_ore", None) == 300  # needs a pickaxe: 3.0 * 5 s
    assert model.break_ticks("stone", "wooden_pickaxe") == math.ceil(30 * 1.5 / 2)
    assert model.break_ticks("cobweb", "shears") < model.break_ticks("cobweb", None)
    assert model.break_ticks("bedrock", "diamond_pickaxe") == math.inf


def test_every_score_names_its_source(library):
    for task_id in ("craft.iron_sword", "navigate.explore", "build.house"):
        difficulty = scores(library.by_id[task_id], library)
        for dim in DIFFICULTY_DIMENSIONS:
            score = getattr(difficulty, dim)
            assert score.source and (score.source.startswith(("proxy:", "dependency graph", "trajectories",
                                                              "human ratings")))
            assert score.calibrated is None or 0 <= score.calibrated <= 5


def test_vector_and_infeasible_tasks(library):
    vector = difficulty_vector(library.get("craft iron_sword"), library)
    assert vector.shape == (6,) and np.all((vector >= 0) & (vector <= 5))
    unsolvable = next(t for t in library.tasks if library.world.task_rank(t.id) == math.inf)
    raw = naive_raw_scores(unsolvable.id, library)
    assert raw["time_consumption"].value is None and raw["planning_complexity"].value >= 1
    molecule = build_molecule(naive(ref(unsolvable.id)), library)
    assert math.isnan(difficulty_vector(molecule, library, calibrated=False)[0])


def test_a_task_from_a_file_is_scored_on_its_own_needs(library):
    task = library.get("craft iron_sword").model_copy(update={
        "id": "craft.my_sword", "description": "craft my sword",
        "initialization": Initialization(inventory={"crafting_table": 1, "iron_ingot": 2})})
    raw = raw_scores(task, library)
    assert raw["planning_complexity"].value > 7  # the sticks must still be made
    assert raw["time_consumption"].value > 60


def test_structures_are_as_far_as_their_placement_puts_them(library):
    model = ActionModel(library.knowledge)
    distance = model.structure_distance
    # A village every 34 chunks in six biomes; strongholds in a ring 1280-2816 blocks out; a mansion every 80
    # chunks in dark forests only.
    assert distance("village") < distance("stronghold") < distance("woodland_mansion")
    assert distance("mineshaft") < distance("village")
    stronghold, village = (difficulty_vector(library.get(t), library) for t in ("find stronghold", "find village"))
    time, planning = DIFFICULTY_DIMENSIONS.index("time_consumption"), DIFFICULTY_DIMENSIONS.index("planning_complexity")
    assert stronghold[time] > village[time]
    assert stronghold[planning] > village[planning]  # eyes of ender lead to a stronghold
    assert library.get("find stronghold").initialization.inventory == {"ender_eye": 1}

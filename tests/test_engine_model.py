"""One model, one planner: the engine game's model is a second instance of the text world's rules, and scripted plans
are the one planner's plans over it, played in order.

No engine is needed: these check the model built from the committed registries and the plans made over it.
"""

from __future__ import annotations

import pytest

from taskverse.algebra.expr import AtomRef, naive, ref
from taskverse.algebra.molecule import build_molecule
from taskverse.algebra.semantics import Evaluator
from taskverse.algebra.tracker import Context, GoalTracker
from taskverse.engine.compiler import compile_task
from taskverse.engine.model import GameModel, game_model
from taskverse.engine.planner import MOVES, NoPlan, scripted_plan
from taskverse.engine.profile import load_registry
from taskverse.schema import AtomTask, Goal
from taskverse.world.rules import Rules
from taskverse.world.search import Planner, holdings

GAMES = ("minetest_game", "taskverse_mc")


@pytest.mark.parametrize("game", GAMES)
def test_the_engine_model_is_built_by_the_same_rules_class(library, game):
    model = game_model(game, library.knowledge)
    assert isinstance(model, GameModel)
    assert type(model.rules) is Rules is type(Rules.for_library(library))  # one class, two instances
    assert model.rules is not Rules.for_library(library)
    assert all(isinstance(atom, AtomTask) for atom in model.atoms)  # the library's own atom format
    assert model.rules.actions == sorted(atom.id for atom in model.atoms)  # every atom an action, as in the library
    assert {atom.verb for atom in model.atoms} >= {"find", "mine", "craft", "smelt", "place", "equip", "kill"}


def test_numbers_come_from_the_registry(library):
    model = game_model("minetest_game", library.knowledge)
    rules = model.rules
    registry = load_registry("minetest_game")
    stick = rules.action_index["craft.default:stick"]
    made = {out.count for outputs in rules.way_outputs[stick] for out in outputs}
    assert made == {r.count for r in registry.recipes if r.output == "default:stick" and r.method == "normal"}
    stone = rules.action_index["mine.default:stone"]  # a pickaxe is kept, the stone is found, cobble comes out
    (way,) = rules.ways[stone]
    kept = next(n for n in way if not n.consume and not n.presence)
    assert "default:pick_wood" in {rules.names[m] for m in kept.members} and "default:axe_wood" not in \
        {rules.names[m] for m in kept.members}
    assert [(rules.names[o.resource], o.count) for o in rules.outputs[stone]] == [("default:cobble", 1)]
    iron = rules.action_index["smelt.default:steel_ingot"]
    needs = {rules.names[m] for way in rules.ways[iron] for n in way for m in n.members}
    assert {"default:iron_lump", "default:coal_lump", "default:furnace"} <= needs
    assert "find.default:stone_with_iron" in rules.action_index and model.places["default:stone_with_iron"].y < 0
    assert "minecraft:raw_iron_block" not in game_model("taskverse_mc", library.knowledge).places  # under deepslate


def _independent_plan(model: GameModel, event: str, target: str) -> list[str]:
    """The one planner's plan for one goal from an empty inventory, built here by hand (not by engine.planner)."""
    rules = model.rules
    tracker = GoalTracker(AtomRef(task="goal"), Evaluator({"goal": Goal(event=event, target=target)}), Context())
    start = holdings(rules, rules.new_state({}, [("dimension", "overworld")]))
    plan, _ = Planner(rules, tracker, start, max_expansions=1000).best_plan()
    assert plan is not None
    return [rules.actions[a] for a in plan]


@pytest.mark.parametrize(("game", "atom", "event", "target"), [
    ("minetest_game", "craft.wooden_pickaxe", "craft", "default:pick_wood"),
    ("minetest_game", "obtain.iron_ingot", "obtain", "default:steel_ingot"),
    ("taskverse_mc", "obtain.iron_ingot", "obtain", "minecraft:iron_ingot"),
    ("taskverse_mc", "obtain.flint", "obtain", "minecraft:flint"),
])
def test_a_naive_tasks_steps_follow_the_one_planners_actions(library, game, atom, event, target):
    task = build_molecule(naive(ref(atom)), library)
    scripted = scripted_plan(task, compile_task(task, library, game), library)
    model = game_model(game, library.knowledge)
    assert scripted.actions == _independent_plan(model, event, target)
    # each step plays the planned actions in order (a run of one action is one step with a count); moves say why
    played = [s.note for s in scripted.plan.steps if s.do not in MOVES]
    assert all(note in model.acts for note in played)
    runs = [a for i, a in enumerate(scripted.actions) if i == 0 or scripted.actions[i - 1] != a]
    assert [n for i, n in enumerate(played) if i == 0 or played[i - 1] != n] == \
        [a for a in runs if not a.startswith("find.")]
    assert all(s.note and s.note.startswith("teleport") for s in scripted.plan.steps if s.do in MOVES)


def test_what_the_game_lacks_is_named(library):
    task = build_molecule(naive(ref("obtain.leather")), library)
    with pytest.raises(NoPlan, match=r"entity minecraft:cow .*mobs come only from a start that summons them"):
        scripted_plan(task, compile_task(task, library, "taskverse_mc"), library)
    task = library.get("obtain.honeycomb")
    with pytest.raises(NoPlan, match="nothing in taskverse_mc does obtain honeycomb"):
        scripted_plan(task, compile_task(task, library, "taskverse_mc"), library)


def test_constraints_set_up_before_each_action_that_counts(library):
    task = build_molecule(ref("craft.oak_planks") >> ref("craft.stick").at(when="night"), library)
    steps = scripted_plan(task, compile_task(task, library), library).plan.steps
    assert [s.do for s in steps] == ["craft", "time", "craft"] and steps[1].of_day == "night"
    task = build_molecule((2 * ref("mine.stone")).at(where="cave"), library)
    steps = scripted_plan(task, compile_task(task, library), library).plan.steps
    # each part in the cave: the stone near the start, then another found from down there
    assert [s.do for s in steps] == ["move", "dig", "move", "goto_node", "dig"]

"""The actions that make sense after an observation of the engine, as the text environment offers candidates.

Read from the observation and the game's registry alone: the items held (wield, place, eat, craft what the
inventory's items make, cook what cooks), the nodes around (dig one in reach, go to one in sight), the mobs around
(kill), dropped items (collect). A candidate is an action of the plan format (a dict), so an agent can send it
back as it is; it may still fail (the wrong tool, a recipe's group the inventory fills in another way).

Example:
    >>> from taskverse.engine.episode import Observation
    >>> from taskverse.engine.profile import load_registry
    >>> obs = Observation(inventory={"default:wood": 2})
    >>> {"do": "craft", "item": "default:stick"} in candidate_actions(obs, load_registry())
    True

"""

from __future__ import annotations

from collections import Counter
from typing import Any

from taskverse.engine.profile import Recipe, Registry

FURNACES = ("default:furnace", "default:furnace_active", "minecraft:furnace")
"""The furnaces the harness cooks in (its FURNACES)."""


def _fits(name: str, wanted: str, registry: Registry) -> bool:
    """Whether an item fills a recipe cell (a name, or ``group:a,b``: every group)."""
    if not wanted.startswith("group:"):
        return name == wanted
    item = registry.items.get(name)
    return item is not None and all(item.groups.get(group, 0) for group in wanted[6:].split(","))


def can_craft(recipe: Recipe, inventory: dict[str, int], registry: Registry) -> bool:
    """Whether the inventory holds a recipe's ingredients (each cell filled by a distinct item held).

    Example:
        >>> from taskverse.engine.profile import load_registry
        >>> registry = load_registry()
        >>> stick = next(r for r in registry.recipes if r.output == "default:stick")
        >>> can_craft(stick, {"default:wood": 1}, registry), can_craft(stick, {}, registry)
        (True, False)

    """
    left = dict(inventory)
    for cell in recipe.items:
        if not cell:
            continue
        options = sorted((name for name, n in left.items() if n > 0 and _fits(name, cell, registry)),
                         key=lambda name: -left[name])
        if not options:
            return False
        left[options[0]] -= 1
    return True


_FIRST_CELLS: dict[int, tuple[Registry, dict[str, list[Recipe]]]] = {}


def _by_first_cell(registry: Registry) -> dict[str, list[Recipe]]:
    """The registry's crafting recipes by their first filled cell, made once a registry.

    A recipe whose first cell nothing held fills is then never looked at: taskverse_mc has 2,800 recipes, and a
    step's inventory fills few cells.
    """
    known = _FIRST_CELLS.get(id(registry))
    if known is not None and known[0] is registry:
        return known[1]
    index: dict[str, list[Recipe]] = {}
    for recipe in registry.recipes:
        first = next((cell for cell in recipe.items if cell), None)
        if recipe.method == "normal" and first is not None:
            index.setdefault(first, []).append(recipe)
    _FIRST_CELLS[id(registry)] = (registry, index)
    return index


def candidate_actions(observation: Any, registry: Registry) -> list[dict[str, Any]]:
    """The actions worth trying now, in a stable order (by kind, then by name)."""
    inventory: dict[str, int] = dict(observation.inventory)
    out: list[dict[str, Any]] = []
    items = registry.items
    for name in sorted(inventory):
        if name != observation.held:
            out.append({"do": "wield", "item": name})
    for name in sorted(inventory):
        item = items.get(name)
        if item is not None and item.type == "node":
            out.append({"do": "place", "item": name})
    for name in sorted(inventory):
        item = items.get(name)
        if item is not None and "on_use" in item.callbacks and item.type != "tool":
            out.append({"do": "eat", "item": name})
    fills: dict[str, bool] = {}  # per distinct cell: whether anything held fills it (thousands of recipes share few)

    def fillable(cell: str) -> bool:
        known = fills.get(cell)
        if known is None:
            known = fills[cell] = any(n > 0 and _fits(name, cell, registry) for name, n in inventory.items())
        return known

    craftable = sorted({r.output for first, recipes in _by_first_cell(registry).items() if fillable(first)
                        for r in recipes if all(fillable(cell) for cell in r.items if cell)
                        and can_craft(r, inventory, registry)})
    out.extend({"do": "craft", "item": name} for name in craftable)
    furnace = any(name in inventory for name in FURNACES) or any(name in observation.nodes for name in FURNACES)
    fuel = any(name in registry.fuels for name in inventory)
    if furnace and fuel:
        cookable = sorted({r.items[0] for r in registry.recipes if r.method == "cooking" and r.items
                           and r.items[0] in inventory})
        out.extend({"do": "cook", "item": name} for name in cookable)
    for name, seen in sorted(observation.nodes.items()):
        item = items.get(name)
        if item is None or item.liquidtype not in (None, "none"):
            continue
        if seen.reach:
            out.append({"do": "dig", "node": name})
        elif seen.sight:
            out.append({"do": "goto_node", "node": name, "radius": 8})
    for name in sorted(observation.entities):
        out.append({"do": "kill", "entity": name})
    if observation.drops:
        out.append({"do": "collect"})
    return out


MAIN_FIELDS = ("item", "node", "entity", "biomes")
"""The field an action is about, named right after its verb in its words (``describe``)."""


def describe(action: dict[str, Any]) -> str:
    """An action in words, as the text world names its actions: the verb, what it is about, then the rest.

    Example:
        >>> describe({"do": "goto_node", "node": "default:tree", "radius": 8})
        'goto_node default:tree radius 8'
        >>> describe({"do": "collect"})
        'collect'

    """
    words = [str(action.get("do", "?"))]
    main = next((key for key in MAIN_FIELDS if key in action), None)
    if main is not None:
        value = action[main]
        words.append(" ".join(map(str, value)) if isinstance(value, list) else str(value))
    for key in sorted(action):
        if key not in ("do", main):
            value = action[key]
            words.append(f"{key} {' '.join(map(str, value)) if isinstance(value, list) else value}")
    return " ".join(words)


def counts(candidates: list[dict[str, Any]]) -> dict[str, int]:
    """How many candidates of each action (for a summary line)."""
    return dict(Counter(c["do"] for c in candidates))

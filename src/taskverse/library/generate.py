"""Generate the atom library from game knowledge: one generic rule per verb, no per-item code.

Where the game defines a task, the generator writes it: craft every craftable item, mine every block that drops
something, smelt every furnace recipe, hunt or combat every naturally spawning mob, find every biome, structure,
natural block and mob, eat every food, place every placeable block, equip every wearable, and obtain every item
the world can provide. Hand-written atoms (``atoms/<category>/curated.yaml``) are read, never written, and the
literature's phrasings (``atoms/aliases.yaml``) are attached as aliases. Running it twice changes no file.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from taskverse.errors import TaskverseError, close_matches
from taskverse.knowledge.facts import Knowledge
from taskverse.schema import AtomTask, Category, Measure, Need, ResourceKind
from taskverse.world.costs import step_cost_for
from taskverse.world.graph import INF, build_world, compute_ranks, resource_node
from taskverse.yamlio import dump_yaml, read_yaml

GENERATED_BY = ("taskverse.library.generate (scripts/generate_atoms.py); "
                "edit the knowledge or the generator, not this file")
CATEGORY_OF_VERB = {
    "craft": Category.CRAFTING,
    "smelt": Category.CRAFTING,
    "mine": Category.MINING,
    "hunt": Category.COMBAT,
    "combat": Category.COMBAT,
    "find": Category.NAVIGATION,
    "eat": Category.EXPLOITATION,
    "equip": Category.EXPLOITATION,
    "place": Category.BUILDING,
}
EQUIP_SLOTS = {"helmet": "head", "chestplate": "chest", "leggings": "legs", "boots": "feet"}
EXTRA_EQUIPPABLE = {"shield": "offhand", "elytra": "chest", "carved_pumpkin": "head", "turtle_helmet": "head"}
PREFERRED_PREFIXES = ("oak_", "white_", "cobblestone", "coal", "iron_", "stone")


@dataclass
class Draft:
    """An atom before its initialization is chosen (that needs the ranks of the whole library)."""

    data: dict[str, Any]
    ways: list[list[Need]]


def _need(any_of: list[str] | tuple[str, ...], count: int = 1, kept: bool = False,
          kind: ResourceKind = ResourceKind.ITEM) -> Need:
    return Need(kind=kind, any_of=sorted(set(any_of)), count=count, kept=kept)


def _goal(event: str, target: str, **extra: Any) -> dict[str, Any]:
    return {"success": {"event": event, "target": target, **extra}}


def _draft(verb: str, target: str, event: str, ways: list[list[Need]], yields: list[dict[str, Any]],
           category: Category | None = None, description: str | None = None, **extra: Any) -> Draft:
    data = {
        "id": f"{verb}.{target}",
        "description": description or f"{verb} {target}",
        "category": (category or CATEGORY_OF_VERB[verb]).value,
        "verb": verb,
        "yields": yields,
        "metrics": _goal(event, target),
        **extra,
    }
    return Draft(data, ways)


def _crafts(kn: Knowledge) -> list[Draft]:
    drafts = []
    for result, ways in sorted(kn.craft_ways.items()):
        if result not in kn.items:
            continue
        needs_ways = []
        for way in ways:
            needs = [_need(ing.items, ing.count) for ing in way.ingredients]
            if way.needs_table:
                needs.append(_need(["crafting_table"], kept=True))
            needs_ways.append(needs)
        count = min(w.count for w in ways)
        drafts.append(_draft("craft", result, "craft", needs_ways, [{"name": result, "count": count}]))
    return drafts


def _drops(raw: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Drops without Silk Touch. minecraft-data gives a silk/no-silk pair 0.5 each: without silk it is certain."""
    merged: dict[str, dict[str, Any]] = {}
    for drop in raw:
        if drop.get("silk_touch") or drop["chance"] <= 0 or drop["max"] <= 0:
            continue
        chance = 1.0 if drop.get("no_silk_touch") else drop["chance"]
        entry = merged.setdefault(drop["item"], {"name": drop["item"], "count": max(1, drop["min"]), "chance": 0.0})
        entry["chance"] = round(min(1.0, entry["chance"] + chance), 6)
    return [{k: v for k, v in d.items() if not (k == "chance" and v == 1.0)} for _, d in sorted(merged.items())]


def _tool_order(kn: Knowledge, tool: str) -> tuple[float, float, str]:
    tier = kn.tool_tier_of(tool)
    return (tier.level, tier.speed, tool) if tier else (0.5, 0.0, tool)


def _mines(kn: Knowledge) -> list[Draft]:
    drafts = []
    for block, info in sorted(kn.blocks.items()):
        if not info["diggable"] or info["hardness"] is None or info["hardness"] < 0:
            continue
        yields = _drops(info["drops"])
        if not yields:
            continue
        needs = [_need([block], kind=ResourceKind.BLOCK)]
        init: dict[str, Any] = {"nearby_blocks": {block: 1}}
        tools = info["harvest_tools"]
        if tools:
            needs.append(_need(tools, kept=True))
            init["main_hand"] = min(tools, key=lambda t: _tool_order(kn, t))
        natural = kn.natural_blocks.get(block)
        if natural and natural.dimension != "overworld":
            init["dimension"] = natural.dimension
        drafts.append(_draft("mine", block, "mine", [needs], yields, initialization=init))
    return drafts


def _shears(kn: Knowledge) -> list[Draft]:
    """Blocks whose own item only shears collect (leaves)."""
    drafts = []
    for block, items in sorted(kn.shears.items()):
        needs = [_need([block], kind=ResourceKind.BLOCK), _need(["shears"], kept=True)]
        init = {"nearby_blocks": {block: 1}, "main_hand": "shears"}
        draft = _draft("shear", block, "mine", [needs], [{"name": i} for i in items], category=Category.MINING,
                       initialization=init)
        draft.data["metrics"] = _goal("mine", block, using="shears")
        drafts.append(draft)
    return drafts


def _fuel_items(kn: Knowledge) -> list[str]:
    return sorted({f.item for f in kn.fuels})


def _smelts(kn: Knowledge) -> list[Draft]:
    inputs: dict[str, list[str]] = defaultdict(list)
    counts: dict[str, int] = {}
    for recipe in kn.smelting:
        inputs[recipe.output].append(recipe.input)
        counts[recipe.output] = recipe.count
    fuels = _fuel_items(kn)
    drafts = []
    for output, ins in sorted(inputs.items()):
        # One item is not both the input and the fuel (a log smelted into charcoal burns another fuel).
        fuel = Need(any_of=[f for f in fuels if f not in ins], count=1, measure=Measure.SMELTS)
        needs = [_need(ins), _need(["furnace"], kept=True), fuel]
        drafts.append(_draft("smelt", output, "smelt", [needs], [{"name": output, "count": counts[output]}]))
    return drafts


def _mob_drops(kn: Knowledge, mob: str) -> list[dict[str, Any]]:
    drops = _drops(kn.entity_loot.get(mob, []))
    known = {d["name"] for d in drops}
    for extra in kn.mobs[mob].extra_drops:
        if extra.item not in known:
            entry: dict[str, Any] = {"name": extra.item, "count": extra.count}
            if extra.chance < 1:
                entry["chance"] = extra.chance
            drops.append(entry)
    return sorted(drops, key=lambda d: d["name"])


def _kills(kn: Knowledge) -> list[Draft]:
    drafts = []
    for name, mob in sorted(kn.mobs.items()):
        if not mob.natural:
            continue
        verbs = {"passive": ["hunt"], "neutral": ["hunt", "combat"], "hostile": ["combat"], "boss": ["combat"]}
        init: dict[str, Any] = {"summon": [{"entity": name}]}
        if mob.dimensions and "overworld" not in mob.dimensions:
            init["dimension"] = mob.dimensions[0]
        for verb in verbs[mob.disposition]:
            needs = [_need([name], kind=ResourceKind.ENTITY)]
            drafts.append(_draft(verb, name, "kill", [needs], _mob_drops(kn, name), initialization=init))
    return drafts


def _dimension_needs(dimension: str | None) -> list[Need]:
    if dimension in (None, "overworld"):
        return []
    return [_need([str(dimension)], kind=ResourceKind.DIMENSION, kept=True)]


def _finds(kn: Knowledge) -> list[Draft]:
    found: list[tuple[str, ResourceKind, str | None]] = []
    found += [(b, ResourceKind.BIOME, info["dimension"]) for b, info in kn.biomes.items() if b != "the_void"]
    found += [(s, ResourceKind.STRUCTURE, info.dimension) for s, info in kn.structures.items()]
    found += [(b, ResourceKind.BLOCK, info.dimension) for b, info in kn.natural_blocks.items()]
    found += [(m, ResourceKind.ENTITY, info.dimensions[0] if info.dimensions else None)
              for m, info in kn.mobs.items() if info.natural]
    names: dict[str, int] = defaultdict(int)
    for name, _, _ in found:
        names[name] += 1
    drafts = []
    for name, kind, dimension in sorted(found, key=lambda f: (f[0], f[1].value)):
        target_id = name if names[name] == 1 else f"{kind.value}.{name}"
        init = {"dimension": dimension} if dimension not in (None, "overworld") else {}
        draft = _draft("find", target_id, "find", [_dimension_needs(dimension)],
                       [{"kind": kind.value, "name": name}], description=f"find {name}", initialization=init)
        draft.data["metrics"] = _goal("find", name)
        drafts.append(draft)
    return drafts


def _eats(kn: Knowledge) -> list[Draft]:
    return [_draft("eat", food, "eat", [[_need([food])]], []) for food in sorted(kn.foods) if food in kn.items]


def _places(kn: Knowledge) -> list[Draft]:
    drafts = []
    for block in sorted(kn.blocks):
        if block in kn.items and kn.blocks[block]["diggable"]:
            drafts.append(_draft("place", block, "place", [[_need([block])]], [{"kind": "block", "name": block}]))
    return drafts


def _plants(kn: Knowledge) -> list[Draft]:
    """Items that place a block of another name: seeds are planted (on farmland), others placed."""
    drafts = []
    for p in sorted(kn.placements, key=lambda p: p.item):
        verb = "plant" if p.placed_on == "farmland" else "place"
        needs = [_need([p.item])]
        init: dict[str, Any] = {}
        if p.placed_on:
            needs.append(_need([p.placed_on], kind=ResourceKind.BLOCK, kept=True))
            init["nearby_blocks"] = {p.placed_on: 1}
        yields = [{"kind": "block", "name": b} for b in [p.block, *p.grows]]
        category = Category.BUILDING if verb == "place" else Category.EXPLOITATION
        draft = _draft(verb, p.item, "place", [needs], yields, category=category, initialization=init)
        draft.data["metrics"] = _goal("place", p.block)
        drafts.append(draft)
    return drafts


def _equips(kn: Knowledge) -> list[Draft]:
    slots = {item: slot for item in kn.items for suffix, slot in EQUIP_SLOTS.items() if item.endswith("_" + suffix)}
    slots.update({k: v for k, v in EXTRA_EQUIPPABLE.items() if k in kn.items})
    return [_draft("equip", item, "equip", [[_need([item], kept=True)]], []) for item in sorted(slots)]


GENERATORS: tuple[Callable[[Knowledge], list[Draft]], ...] = (
    _crafts, _mines, _shears, _smelts, _kills, _finds, _eats, _places, _plants, _equips,
)


def _representative(names: list[str], rank: dict[str, float], kind: str) -> str:
    def key(name: str) -> tuple[float, int, str]:
        preferred = next((i for i, p in enumerate(PREFERRED_PREFIXES) if name.startswith(p)), len(PREFERRED_PREFIXES))
        return (rank.get(resource_node(kind, name), INF), preferred, name)

    return min(names, key=key)


def _initialization_for(way: list[Need], rank: dict[str, float], base: dict[str, Any],
                        smelts: dict[str, float]) -> dict[str, Any]:
    """An initialization with exactly the prerequisites of one way (the given base fields kept).

    A fuel need gets as many of its representative fuel as burn for its count of smelts.
    """
    init = dict(base)
    inventory: dict[str, int] = dict(init.get("inventory", {}))
    for need in way:
        if need.kind != ResourceKind.ITEM:
            continue
        item = _representative(need.any_of, rank, "item")
        if need.kept and "main_hand" in init:
            continue
        count = need.count
        if need.measure == Measure.SMELTS:
            count = math.ceil(need.count / smelts[item] - 1e-9)
        inventory[item] = inventory.get(item, 0) + count
    if inventory:
        init["inventory"] = dict(sorted(inventory.items()))
    return init


def _best_way(ways: list[list[Need]], rank: dict[str, float]) -> list[Need]:
    def way_rank(way: list[Need]) -> tuple[float, int]:
        worst = max((min(rank.get(resource_node(n.kind.value, m), INF) for m in n.any_of) for n in way), default=0)
        return (worst, sum(n.count for n in way))

    return min(ways, key=way_rank)


def generate(kn: Knowledge, curated: list[AtomTask], aliases: dict[str, list[str]]) -> list[AtomTask]:
    """Return the generated atoms (curated ones are inputs: they shape ranks and win id clashes)."""
    curated_ids = {t.id for t in curated}
    drafts = [d for gen in GENERATORS for d in gen(kn) if d.data["id"] not in curated_ids]
    _check_aliases(aliases, {d.data["id"] for d in drafts} | curated_ids | {f"obtain.{i}" for i in kn.items})
    ids = [d.data["id"] for d in drafts]
    if len(ids) != len(set(ids)):
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        raise TaskverseError(f"the generator made duplicate ids: {dupes[:5]}")
    provisional = [
        AtomTask.model_validate({**d.data, "requires": [[n.model_dump() for n in w] for w in d.ways]}) for d in drafts
    ]
    everything = {t.id: t for t in [*provisional, *curated]}
    step_cost = step_cost_for(kn)
    rank = compute_ranks(everything, step_cost)
    world = build_world(everything.values(), step_cost)
    smelts = {f.item: f.smelts for f in kn.fuels}
    tasks = []
    for draft in drafts:
        data = dict(draft.data)
        base = data.pop("initialization", {})
        way = _best_way(draft.ways, rank)
        data["initialization"] = _initialization_for(way, rank, base, smelts)
        data["requires"] = [[n.model_dump(mode="json", exclude_defaults=True) for n in w] for w in draft.ways]
        data["aliases"] = sorted(aliases.get(data["id"], []))
        tasks.append(AtomTask.model_validate(data))
    tasks += _obtains(kn, world, everything, aliases)
    _check_aliases(aliases, {t.id for t in tasks} | curated_ids)
    return sorted(tasks, key=lambda t: t.id)


def _check_aliases(aliases: dict[str, list[str]], ids: set[str]) -> None:
    for task_id, phrasings in sorted(aliases.items()):
        if task_id not in ids:
            raise TaskverseError(f"alias {phrasings[0]!r} names task {task_id!r}, which the library does not have",
                                 file="atoms/aliases.yaml", suggestions=close_matches(task_id, ids))


def _obtains(kn: Knowledge, world: Any, everything: dict[str, AtomTask],
             aliases: dict[str, list[str]]) -> list[AtomTask]:
    """'Obtain X' for every item the world can provide: the literature's from-scratch tasks."""
    out = []
    for item in sorted(kn.items):
        node = resource_node("item", item)
        if world.rank.get(node, INF) == INF or f"obtain.{item}" in everything:
            continue
        best = min((p for p, _ in world.preds[node]), key=lambda p: (world.rank.get(p, INF), p))
        category = everything[best[len("task:"):]].category
        out.append(AtomTask.model_validate({
            "id": f"obtain.{item}",
            "description": f"obtain {item}",
            "aliases": sorted(aliases.get(f"obtain.{item}", [])),
            "category": category.value,
            "verb": "obtain",
            "requires": [[{"any_of": [item]}]],
            "metrics": _goal("obtain", item),
            "tags": ["from_scratch"],
        }))
    return out


def load_aliases(path: Path) -> dict[str, list[str]]:
    """The literature's phrasings for generated atoms, by task id."""
    if not path.exists():
        return {}
    data = read_yaml(path) or {}
    out: dict[str, list[str]] = defaultdict(list)
    for entry in data.get("aliases", []):
        out[entry["task"]].append(str(entry["alias"]).lower())
    return out


def file_for(task: AtomTask) -> str:
    """Where a generated atom is written: ``<category>/<verb>.yaml``."""
    return f"{task.category.value}/{task.verb}.yaml"


def task_to_data(task: BaseModel) -> dict[str, Any]:
    """A task as plain data for YAML: defaults left out, so files stay short."""
    return task.model_dump(mode="json", exclude_defaults=True, exclude={"kind"})


def render_files(tasks: list[AtomTask]) -> dict[str, str]:
    """The generated library as file contents, by path relative to ``atoms/``."""
    groups: dict[str, list[AtomTask]] = defaultdict(list)
    for task in tasks:
        groups[file_for(task)].append(task)
    return {
        path: "# " + GENERATED_BY + "\n" + dump_yaml({"generated_by": "taskverse.library.generate",
                                                      "tasks": [task_to_data(t) for t in group]})
        for path, group in sorted(groups.items())
    }



def curated_tasks(root: Path) -> list[AtomTask]:
    """The hand-written atoms (``atoms/<category>/curated.yaml``), validated."""
    from taskverse.library.loader import parse_task_file  # noqa: PLC0415 - library imports this module's users

    return [loc.task for path in sorted(root.glob("*/curated.yaml")) for loc in parse_task_file(path)]


def write_library(root: Path, kn: Knowledge, check: bool = False) -> list[str]:
    """Regenerate the generated files under ``root``; return the paths that changed (or would, with ``check``).

    Generated files that the generator no longer produces are removed. Nothing is written until every file has
    been rendered, so a failure leaves the library as it was.
    """
    curated = curated_tasks(root)
    files = render_files(generate(kn, curated, load_aliases(root / "aliases.yaml")))
    existing = {
        str(p.relative_to(root)): p for p in root.glob("*/*.yaml")
        if p.name != "curated.yaml" and "knowledge" not in p.parts
    }
    changed = [rel for rel, text in files.items() if rel not in existing or existing[rel].read_text() != text]
    stale = [rel for rel in existing if rel not in files]
    if not check:
        for rel in changed:
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_text(files[rel])
        for rel in stale:
            existing[rel].unlink()
    return sorted(changed + stale)

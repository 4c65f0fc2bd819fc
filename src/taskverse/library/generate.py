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
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from taskverse.errors import TaskverseError, close_matches
from taskverse.knowledge.facts import Knowledge
from taskverse.library.combat import fight_needs
from taskverse.library.drafts import Draft
from taskverse.library.drafts import draft as _draft
from taskverse.library.drafts import goal as _goal
from taskverse.library.drafts import need as _need
from taskverse.library.groups import group_atoms, group_ids
from taskverse.library.mechanisms import GENERATORS as MECHANISMS
from taskverse.library.mechanisms import presence
from taskverse.schema import GOAL_ONLY_TAG, AtomTask, Category, Measure, Need, ResourceKind
from taskverse.world.costs import step_cost_for
from taskverse.world.graph import (
    INF,
    USED_BY_HAND,
    compute_ranks,
    items_used,
    resource_node,
    task_node,
    way_yields,
    yield_penalty,
)
from taskverse.world.rules import durability_from_knowledge
from taskverse.yamlio import dump_yaml, read_yaml

GENERATED_BY = ("taskverse.library.generate (scripts/generate_atoms.py); "
                "edit the knowledge or the generator, not this file")
EQUIP_SLOTS = {"helmet": "head", "chestplate": "chest", "leggings": "legs", "boots": "feet"}
EXTRA_EQUIPPABLE = {"shield": "offhand", "elytra": "chest", "carved_pumpkin": "head", "turtle_helmet": "head"}
PREFERRED_PREFIXES = ("oak_", "white_", "cobblestone", "coal", "iron_", "stone")


def _crafts(kn: Knowledge) -> list[Draft]:
    drafts = []
    for result, ways in sorted(kn.craft_ways.items()):
        if result not in kn.items:
            continue
        needs_ways = []
        outcomes = []
        for way in ways:
            needs = [_need(ing.items, ing.count) for ing in way.ingredients]
            outcomes.append([{"name": result, "count": way.count}, *_remainders(kn, needs)])
            if way.needs_table:
                needs.append(_need(["crafting_table"], kept=True))
            needs_ways.append(needs)
        draft = _draft("craft", result, "craft", needs_ways, outcomes[0])
        if any(o != outcomes[0] for o in outcomes):
            draft.outcomes = outcomes
        drafts.append(draft)
    return drafts


def _remainders(kn: Knowledge, needs: list[Need]) -> list[dict[str, Any]]:
    """The containers the used-up needs leave (three buckets after a cake: ``containers.yaml``), in name order."""
    table = kn.mechanisms.containers if kn.mechanisms is not None else None
    left: dict[str, int] = {}
    for n in needs:
        kinds = {table.remainder(m) for m in n.any_of} if table is not None else {None}
        back = kinds.pop() if len(kinds) == 1 else None
        if back is not None:  # every member leaves the same container
            left[back] = left.get(back, 0) + n.count
    return [{"name": name, "count": count} if count > 1 else {"name": name} for name, count in sorted(left.items())]


def _drops(raw: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Drops without Silk Touch. minecraft-data gives a silk/no-silk pair 0.5 each: without silk it is certain.

    Curated drops (``corrected``) keep their count range and chance as the game's loot table gives them; the
    package's own counts are flattened, so only their minimum is trusted. Silk Touch drops are left out here
    (``mechanisms.silk_mines`` makes atoms of their own).
    """
    raw = [d for d in raw if not d.get("silk_touch")]
    if raw and all(d.get("corrected") for d in raw):
        out = []
        for drop in sorted(raw, key=lambda d: d["item"]):
            entry: dict[str, Any] = {"name": drop["item"], "count": drop["min"]}
            if drop["max"] != drop["min"]:
                entry["max"] = drop["max"]
            if drop["chance"] < 1:
                entry["chance"] = drop["chance"]
            out.append(entry)
        return out
    merged: dict[str, dict[str, Any]] = {}
    for drop in raw:
        if drop["chance"] <= 0 or drop["max"] <= 0:
            continue
        chance = 1.0 if drop.get("no_silk_touch") else drop["chance"]
        entry = merged.setdefault(drop["item"], {"name": drop["item"], "count": max(1, drop["min"]), "chance": 0.0})
        entry["chance"] = round(min(1.0, entry["chance"] + chance), 6)
    return [{k: v for k, v in d.items() if not (k == "chance" and v == 1.0)} for _, d in sorted(merged.items())]


def _block_wear(kn: Knowledge, tools: list[str]) -> int:
    """Durability breaking a block takes from any of ``tools``: a sword's ``sword_block_wear``, a tool's 1."""
    swords = {item for weapon in kn.combat.weapons for item in weapon.items} if kn.combat is not None else set()
    return kn.sword_block_wear if tools and set(tools) <= swords else 1


def _tool_order(kn: Knowledge, tool: str) -> tuple[float, float, str]:
    tier = kn.tool_tier_of(tool)
    return (tier.level, tier.speed, tool) if tier else (0.5, 0.0, tool)


def _mines(kn: Knowledge) -> list[Draft]:
    """``mine.<block>``: every block a player breaks, as the game's ``mined`` statistic counts it, drop or not.

    A block that drops nothing without Silk Touch (glass, ice, a spawner, cake) is mined all the same: its atom
    yields what the break leaves (ice its water, an infested block its silverfish: ``breaking.yaml``), and its
    success is the break. Blocks no player breaks (bedrock, fluids) and those the world cannot hold have none.
    """
    breaking = kn.mechanisms.breaking if kn.mechanisms is not None else None
    drafts = []
    for block, info in sorted(kn.blocks.items()):
        if kn.why_not_broken(block) is not None:
            continue
        yields = _drops(info["drops"])
        if not yields:
            if breaking is None or breaking.left_out_reason(block) is not None:
                continue
            yields = [y.model_dump(mode="json", exclude_defaults=True) for y in breaking.left_by(block)]
        needs = [_need([block], kind=ResourceKind.BLOCK)]
        init: dict[str, Any] = {"nearby_blocks": {block: 1}}
        tools = info["harvest_tools"]
        if tools:
            needs.append(_need(tools, kept=True, uses=_block_wear(kn, tools)))
            init["main_hand"] = min(tools, key=lambda t: _tool_order(kn, t))
        natural = kn.natural_blocks.get(block)
        if natural and natural.dimension != "overworld":
            init["dimension"] = natural.dimension
        drafts.append(_draft("mine", block, "mine", [needs], yields, initialization=init))
    return drafts


def _shears(kn: Knowledge) -> list[Draft]:
    """Blocks whose own item only shears collect (leaves)."""
    drafts = []
    for block in sorted(kn.shears):
        needs = [_need([block], kind=ResourceKind.BLOCK), _need(["shears"], kept=True)]
        init = {"nearby_blocks": {block: 1}, "main_hand": "shears"}
        yields = [{"name": i, "count": n} if n > 1 else {"name": i} for i, n in kn.sheared(block).items()]
        draft = _draft("shear", block, "mine", [needs], yields, category=Category.MINING, initialization=init)
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
    extras = _drops([e.as_loot() for e in kn.mobs[mob].extra_drops if e.item not in known])
    return sorted(drops + extras, key=lambda d: d["name"])


def _kills(kn: Knowledge) -> list[Draft]:
    drafts = []
    for name, mob in sorted(kn.mobs.items()):
        if not (mob.natural or mob.player_made or mob.brought_by):
            continue
        # Hunt: kill an animal that never fights back, for its drops. Combat: fight a mob that attacks (hostile
        # mobs, bosses, and neutral mobs, which fight back once provoked). One atom per mob.
        verb = "hunt" if mob.disposition == "passive" else "combat"
        init: dict[str, Any] = {"summon": [{"entity": name}]}
        if mob.dimensions and "overworld" not in mob.dimensions:
            init["dimension"] = mob.dimensions[0]
        ways = fight_needs(kn, name) if verb == "combat" else [[_need([name], kind=ResourceKind.ENTITY)]]
        left = [{"kind": "block", "name": b} for b in mob.leaves]  # the dragon's egg on the exit portal
        if ways:  # a mob no gear beats gets no atom (curated/unobtainable.yaml says why)
            drafts.append(_draft(verb, name, "kill", ways, _mob_drops(kn, name) + left, initialization=init))
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
    outer = kn.mechanisms.outer_end if kn.mechanisms is not None else None
    drafts = []
    for name, kind, dimension in sorted(found, key=lambda f: (f[0], f[1].value)):
        target_id = name if names[name] == 1 else f"{kind.value}.{name}"
        init = {"dimension": dimension} if dimension not in (None, "overworld") else {}
        needs = _dimension_needs(dimension)
        structure = kn.structures.get(name) if kind == ResourceKind.STRUCTURE else None
        if structure is not None and structure.located_with:  # eyes of ender lead to a stronghold
            needs = [*needs, _need([structure.located_with])]
        if outer is not None and outer.needs_gateway(kind.value, name):  # past the gateway the dragon opens
            needs = [*needs, _need([outer.gateway], kind=ResourceKind.BLOCK, kept=True)]
        draft = _draft("find", target_id, "find", [needs],
                       [{"kind": kind.value, "name": name}], description=f"find {name}", initialization=init)
        draft.data["metrics"] = _goal("find", name)
        drafts.append(draft)
    return drafts + _brought_finds(kn) + _structure_block_finds(kn)


def _brought_finds(kn: Knowledge) -> list[Draft]:
    """``find.<mob>`` of a mob that never spawns by itself: the way that brings it about (``mobs.yaml``).

    An ender pearl thrown (used up) lands with an endermite with its chance; an evoker met (kept: it summons again)
    brings three vexes. The goal is the find event on the mob, as for a mob that spawns.
    """
    drafts = []
    for name, mob in sorted(kn.mobs.items()):
        if mob.brought_by is None:
            continue
        brought = mob.brought_by
        given: dict[str, Any] = {"kind": "entity", "name": name}
        given.update({"count": brought.count} if brought.count > 1 else {})
        given.update({"chance": brought.chance} if brought.chance < 1 else {})
        draft = _draft("find", name, "find", [list(brought.needs)], [given], description=f"find {name}",
                       initialization=presence(kn, list(brought.needs)))
        draft.data["metrics"] = _goal("find", name)
        drafts.append(draft)
    return drafts


def _structure_block_finds(kn: Knowledge) -> list[Draft]:
    """``find.<block>`` of a block only structures hold or a mob's death leaves: a way per structure or mob.

    A structure's way finds the structure (kept), uses up there what the block needs (a stronghold's end portal
    takes twelve eyes of ender in its frames), then sees the block; a mob's way is the block its death left
    (``mobs.yaml``: the ender dragon's egg, its exit portal and the end gateway), so the plan fights the mob first.
    The goal is the find event on the block, as for a natural block; the start is beside the way's structure, or
    by the left block in the mob's dimension. The find yields nothing: a structure holds a few such blocks, not a
    vein to mine again and again, and a plan priced in steps would take a village's lectern and bookshelves before
    a tree (a trip to a structure is one step). Breaking a structure's blocks for their items is left out until
    plans price travel by its time.
    """
    left: dict[str, list[str]] = defaultdict(list)  # block -> the dimensions of the mobs whose death leaves it
    for mob in kn.mobs.values():
        for block in mob.leaves:
            left[block].append(mob.dimensions[0] if mob.dimensions else "overworld")
    drafts = []
    for name in sorted(set(kn.structure_blocks) | set(left)):
        row = kn.structure_blocks.get(name)
        uses = [_need([item], count=n) for item, n in sorted((row.uses or {}).items())] if row is not None else []
        ways = [[_need([s], kind=ResourceKind.STRUCTURE, kept=True), *uses] for s in row.structures] if row else []
        if name in left:  # the block the mob's death left, found where it stands
            ways.append([_need([name], kind=ResourceKind.BLOCK, kept=True)])
        draft = _draft("find", name, "find", ways, [], description=f"find {name}")
        draft.start = lambda way, name=name: _block_start(kn, way, left.get(name, []))
        drafts.append(draft)
    return drafts


def _block_start(kn: Knowledge, way: list[Need], dimensions: list[str]) -> dict[str, Any]:
    """Where a structure block's find starts: beside the way's structure, or by a left block in its mob's dimension."""
    init = presence(kn, way)
    if "structure" not in init and dimensions and dimensions[0] != "overworld":
        init["dimension"] = dimensions[0]
    return init


def _eats(kn: Knowledge) -> list[Draft]:
    """``eat.<food>``, giving back the bowl or bottle it came in (``containers.yaml``)."""
    table = kn.mechanisms.containers if kn.mechanisms is not None else None
    drafts = []
    for food in sorted(kn.foods):
        if food in kn.items:
            back = table.after_eating(food) if table is not None else None
            drafts.append(_draft("eat", food, "eat", [[_need([food])]], [{"name": back}] if back else []))
    return drafts


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
    _crafts, _mines, _shears, _smelts, _kills, _finds, _eats, _places, _plants, _equips, *MECHANISMS,
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


def _way_rank(way: list[Need], rank: dict[str, float]) -> tuple[float, int]:
    worst = max((min(rank.get(resource_node(n.kind.value, m), INF) for m in n.any_of) for n in way), default=0)
    return (worst, sum(n.count for n in way))


def _player_order(draft: Draft, rank: dict[str, float]) -> None:
    """Put the way a player uses first: of the obtainable ways, the one giving the most on average, then the earliest.

    "Earliest" is the way whose needs have the lowest rank. Two planks (4 sticks) come before two bamboo
    (1 stick), an iron block (9 ingots) before nine nuggets (1).
    """
    outcomes = draft.outcomes or [draft.data["yields"]] * len(draft.ways)
    target = draft.data["id"].partition(".")[2]

    def key(i: int) -> tuple[bool, float, float, int, int]:
        worst, spent = _way_rank(draft.ways[i], rank)
        # what the way makes of the atom's own item (a container given back beside it is no more of it), on
        # average: a trade a villager always offers before the wandering trader's chance of the same offer
        given = (sum(y.get("count", 1) * y.get("chance", 1.0) for y in outcomes[i] if y.get("name") == target)
                 or sum(y.get("count", 1) * y.get("chance", 1.0) for y in outcomes[i]))
        return (worst == INF, -given, worst, spent, i)

    order = sorted(range(len(draft.ways)), key=key)
    draft.ways = [draft.ways[i] for i in order]
    if draft.outcomes:
        draft.outcomes = [draft.outcomes[i] for i in order]
        draft.data["yields"] = draft.outcomes[0]


def _requires(draft: Draft) -> list[Any]:
    """The draft's ways as file data: plain need lists, or needs with their own yields when the ways differ."""
    ways = [[n.model_dump(mode="json", exclude_defaults=True) for n in w] for w in draft.ways]
    if draft.outcomes is None:
        return ways
    return [{"needs": w, "yields": y} for w, y in zip(ways, draft.outcomes, strict=True)]


def generate(kn: Knowledge, curated: list[AtomTask], aliases: dict[str, list[str]]) -> list[AtomTask]:
    """Return the generated atoms (curated ones are inputs: they shape ranks and win id clashes)."""
    curated_ids = {t.id for t in curated}
    drafts = [d for gen in GENERATORS for d in gen(kn) if d.data["id"] not in curated_ids]
    _check_aliases(aliases, {d.data["id"] for d in drafts} | curated_ids | {f"obtain.{i}" for i in kn.items}
                   | group_ids(kn))
    ids = [d.data["id"] for d in drafts]
    if len(ids) != len(set(ids)):
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        raise TaskverseError(f"the generator made duplicate ids: {dupes[:5]}")
    provisional = [AtomTask.model_validate({**d.data, "requires": _requires(d)}) for d in drafts]
    everything = {t.id: t for t in [*provisional, *curated]}
    step_cost = step_cost_for(kn)
    rank = compute_ranks(everything, step_cost)
    smelts = {f.item: f.smelts for f in kn.fuels}
    tasks = []
    for draft in drafts:
        data = dict(draft.data)
        base = data.pop("initialization", {})
        _player_order(draft, rank)
        if draft.start is not None:
            base = draft.start(draft.ways[0])
        data["yields"] = draft.data["yields"]
        data["initialization"] = _initialization_for(draft.ways[0], rank, base, smelts)
        data["requires"] = _requires(draft)
        data["aliases"] = sorted(aliases.get(data["id"], []))
        tasks.append(AtomTask.model_validate(data))
    tasks += _obtains(kn, rank, everything, aliases)
    tasks += _uses(kn, rank, everything, aliases)
    tasks += group_atoms(kn, {**{t.id: t for t in tasks}, **{t.id: t for t in curated}}, aliases)
    _check_aliases(aliases, {t.id for t in tasks} | curated_ids)
    return sorted(tasks, key=lambda t: t.id)


def _check_aliases(aliases: dict[str, list[str]], ids: set[str]) -> None:
    for task_id, phrasings in sorted(aliases.items()):
        if task_id not in ids:
            raise TaskverseError(f"alias {phrasings[0]!r} names task {task_id!r}, which the library does not have",
                                 file="atoms/aliases.yaml", suggestions=close_matches(task_id, ids))


def _obtains(kn: Knowledge, rank: dict[str, float], everything: dict[str, AtomTask],
             aliases: dict[str, list[str]]) -> list[AtomTask]:
    """'Obtain X' for every item the world can provide: the literature's from-scratch tasks."""
    out = []
    producers: dict[str, list[tuple[float, str]]] = defaultdict(list)
    for task_id, task in everything.items():
        for outcome in way_yields(task):
            for y in outcome:
                if y.kind == ResourceKind.ITEM:
                    producers[y.name].append((rank.get(task_node(task_id), INF) + yield_penalty(y.chance), task_id))
    for item in sorted(kn.items):
        node = resource_node("item", item)
        if rank.get(node, INF) == INF or f"obtain.{item}" in everything:
            continue
        _, best = min(producers[item])  # the category of the cheapest way to get it
        category = everything[best].category
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


def _uses(kn: Knowledge, rank: dict[str, float], everything: dict[str, AtomTask],
          aliases: dict[str, list[str]]) -> list[AtomTask]:
    """'Use X' (the game's ``used`` statistic) for every item some atom uses, except by placing, eating or wearing.

    Those read as the place, eat and equip atoms; these are a tool worn down, a bucket filled, a compass on a
    lodestone. A tiered tool's is an action (a block broken with it: Minecraft Wiki, Item durability); the
    others are goals, reached by any atom that uses the item (``world.graph.items_used``).
    """
    durability = durability_from_knowledge(kn)
    tiered = {t for tier in kn.tool_tiers for t in tier.items}
    worn = {t.goal.target for t in everything.values() if t.goal.event.value == "equip"}
    used: set[str] = set()
    by_hand: set[str] = set()
    for task in everything.values():
        if task.goal_only:
            continue
        items = items_used(task, kn.tags, durability, worn)
        (by_hand if task.goal.event.value in USED_BY_HAND else used).update(items)
    out = []
    for item in sorted(used - by_hand):
        if rank.get(resource_node("item", item), INF) == INF or f"use.{item}" in everything:
            continue
        # A tool of a tier (pickaxe, axe, shovel, hoe, sword) is used by breaking any block with it in hand (one
        # durability, a sword's two; what the block drops is not counted): an action of its own, as the player
        # takes that tool in hand, where the text world's other actions wear the cheapest tool that does them.
        # Anything else (a bow shot, shears, a bucket) is used only by its own actions: a goal they reach.
        tool = item in tiered
        out.append(AtomTask.model_validate({
            "id": f"use.{item}",
            "description": f"use {item}",
            "aliases": sorted(aliases.get(f"use.{item}", [])),
            "category": Category.EXPLOITATION.value,
            "verb": "use",
            "initialization": {"main_hand": item},
            "requires": [[{"any_of": [item], "kept": tool, "uses": _block_wear(kn, [item]) if tool else 1}]],
            "metrics": _goal("use", item),
            "tags": ["from_scratch"] if tool else ["from_scratch", GOAL_ONLY_TAG],
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

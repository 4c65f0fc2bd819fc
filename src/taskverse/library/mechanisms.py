"""Atoms of the game's mechanisms beyond recipes and drops: one generic rule per verb, reading the curated tables.

The tables (``taskverse.knowledge.mechanisms``, each citing its source) declare the facts; each rule below turns one
table into atoms, with no per-item code:

* ``strip.<log>``: an axe (kept, worn one use) strips a log into its stripped form;
* ``enchant.<enchanted tool>``: an enchanting table gives a tool Silk Touch with the chance the game's algorithm
  gives, and ``mine.<block>.silk_touch`` mines a block itself with such a tool; ``enchant.<item>``: any
  enchantment for every item the table takes;
* ``<verb>.<block>``: a block changes into another (``weather``, ``harden``, ``dry``, ``wear``);
* ``loot.<structure>`` / ``brush.<structure>``: a structure's chest or suspicious block, with the loot table's chances;
* ``trade.<item>`` / ``sell.<item>``: a villager of a profession sells an item for emeralds, or buys it for them;
* ``lure.<drop>``: a mob killed by another drops what no player kill gives (heads, wither roses, froglights);
* ``smith.<item>``: a smithing table upgrades a diamond item to netherite;
* ``stonecut.<item>``: a stonecutter cuts one item into a block of another shape (``stonecutting.yaml``);
* ``place.<block>``: an item placed in another form (on a wall, into a cauldron);
* ``tend.<name>``: raising animals (turtle eggs and scutes, sniffers and their seeds);
* ``pot.<plant>``: a plant put in a flower pot (read off minecraft-data: a potted block drops its pot and plant);
* ``fill.<item>``, ``brew.<potion>``, ``drink.<potion>``: bottles filled, potions brewed in a brewing stand and drunk;
* ``breed.<animal>``, ``tame.<animal>``, ``feed.<animal>``: animals bred with their food, tamed with theirs or by
  riding, or fed one item of what they eat;
* ``repair.<item>``, ``rename.<item>``, ``combine.<item>``: an item repaired at an anvil with its material or a
  second of its kind, renamed, or given an enchanted book's enchantments;
* ``store.<item>``: an item put into a container's slots (``storing.yaml``), the ``store`` event;
* ``throw.<item>``: an item thrown (a snowball, an ender pearl, a splash potion), as the game's used statistic counts;
* ``hang.<item>``: an item frame or a painting hung on a block face, as the game's used statistic counts;
* ``hook.<mob>``: a mob hooked with a fishing rod and reeled in (the rod used on the mob);
* ``trap.<mob>``: a mob trapped in a boat it walks into (the boat used on the mob);
* ``open.<block>``, ``interact.<block>``, ``inspect.<block>``, ``trigger.<block>``: a block's screen opened (or its
  click counted), as the game's custom statistic of that name counts it (``screens.yaml``);
* ``talk.<mob>``, ``hit.target``, ``clean.<item>``, ``climb.<block>``: other actions a custom statistic counts
  (``statistics.yaml``: a villager talked to, a target block hit, an item washed in a cauldron, a block climbed).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from taskverse.errors import TaskverseError
from taskverse.knowledge.enchanting import from_knowledge, offer_chance, offered
from taskverse.knowledge.facts import Knowledge
from taskverse.knowledge.mechanisms import Level, LootPool, Mechanisms, Profession
from taskverse.library.drafts import Draft, draft, goal, need
from taskverse.schema import REPAIRS_TAG, Category, Need, ResourceKind, villager_xp

BLOCK = ResourceKind.BLOCK
ENTITY = ResourceKind.ENTITY


def _mech(kn: Knowledge) -> Mechanisms:
    if kn.mechanisms is None:
        raise ValueError("the knowledge has no mechanism tables")
    return kn.mechanisms


def presence(kn: Knowledge, needs: list[Need]) -> dict[str, Any]:
    """The initialization fields of a way's presence needs: the blocks, mobs, biome and structure to start beside."""
    init: dict[str, Any] = {}
    blocks = {n.any_of[0]: 1 for n in needs if n.kind == BLOCK}
    mobs = [{"entity": n.any_of[0], **({"count": n.count} if n.count > 1 else {})} for n in needs if n.kind == ENTITY]
    if blocks:
        init["nearby_blocks"] = blocks
    if mobs:
        init["summon"] = mobs
    for n in needs:
        if n.kind == ResourceKind.BIOME:
            init.setdefault("biome", n.any_of[0])
        elif n.kind == ResourceKind.STRUCTURE:
            init.setdefault("structure", n.any_of[0])
            dimension = kn.structures[n.any_of[0]].dimension
            if dimension != "overworld":
                init["dimension"] = dimension
    return init


def strips(kn: Knowledge) -> list[Draft]:
    """``strip.<log>``: the log used up, any axe kept and worn one use; one stripped log."""
    table = _mech(kn).stripping
    axes = kn.tags[table.tools]
    hand = min(axes, key=lambda a: _tier_order(kn, a))
    return [draft("strip", p.log, "use", [[need([p.log]), need(axes, kept=True)]], [{"name": p.stripped}],
                  description=f"strip {p.log}", metrics=goal("use", p.log, using="#" + table.tools),
                  initialization={"main_hand": hand})
            for p in table.pairs]


def _tier_order(kn: Knowledge, tool: str) -> tuple[float, float, str]:
    """Cheapest first: a tool's tier level and speed (an enchanted tool's are its tool's)."""
    tier = kn.tool_tier_of(tool)
    return (tier.level, tier.speed, tool) if tier else (0.5, 0.0, tool)


def enchant_chance(kn: Knowledge, tool: str) -> float:
    """The chance one enchanting try gives ``tool`` the table's enchantment (``enchanting.yaml``)."""
    ench = _mech(kn).enchanting
    (entry,) = [t for t in ench.tools if t.item == tool]
    return offer_chance(from_knowledge(kn.enchantments), ench.enchantment, ench.categories, entry.enchantability,
                        ench.level)


def enchants(kn: Knowledge) -> list[Draft]:
    """``enchant.<enchanted tool>``: tool and lapis into the table; the tool comes back enchanted with the chance.

    A missed try's enchantments are ground off at the grindstone (kept), so the tool comes back plain with the rest
    of the chance: on average a try spends only the lapis and the chance's share of the tool.
    """
    ench = _mech(kn).enchanting
    drafts = []
    for tool in ench.tools:
        chance = enchant_chance(kn, tool.item)
        enchanted = ench.enchanted(tool.item)
        needs = [need([tool.item]), need(["lapis_lazuli"], ench.lapis), need([ench.station], kept=True),
                 need(["bookshelf"], ench.bookshelves, kept=True), need([ench.reset], kept=True)]
        yields = [{"name": enchanted, "chance": chance}, {"name": tool.item, "chance": round(1 - chance, 6)}]
        # Success is a try made (as mining gravel is, flint or not): the tool gets the enchantment on some tries.
        drafts.append(draft("enchant", enchanted, "use", [needs], yields,
                            description=f"enchant {tool.item} for {ench.enchantment}",
                            metrics=goal("use", ench.station, using=tool.item)))
    return drafts


def enchants_any(kn: Knowledge) -> list[Draft]:
    """``enchant.<item>``: an item and lapis into the table at the level-30 offer; it comes back enchanted.

    Every enchantable item gets some enchantment there (its categories hold enchantments in the level's power
    range: checked here against minecraft-data's table), so the atom is sure; which one is not modelled.
    """
    ench = _mech(kn).enchanting
    table = ench.any_enchantment
    if table is None:
        return []
    known = from_knowledge(kn.enchantments)
    drafts = []
    for item, (enchantability, categories) in sorted(table.items.items()):
        if not offered(known, categories, enchantability, ench.level):
            raise TaskverseError(f"{item}: no enchantment of its categories {categories} is offered at level "
                                 f"{ench.level}", file="atoms/knowledge/curated/enchanting.yaml")
        needs = [need([item]), need(["lapis_lazuli"], ench.lapis), need([ench.station], kept=True),
                 need(["bookshelf"], ench.bookshelves, kept=True)]
        drafts.append(draft("enchant", item, "use", [needs], [{"name": table.enchanted(item)}],
                            description=f"enchant {item} at an enchanting table",
                            metrics=goal("use", ench.station, using=item)))
    return drafts


def silk_mines(kn: Knowledge) -> list[Draft]:
    """``mine.<block>.silk_touch``: an enchanted tool mines a block that has a Silk Touch drop of itself.

    An atom of its own, beside ``mine.<block>``: the text world does a way of an atom when its needs are met, and
    a player holding both tools chooses. The block's harvest tools, if it has any, decide which enchanted tools can
    (a diamond ore needs an iron pickaxe or better, with Silk Touch).
    """
    ench = _mech(kn).enchanting
    tag = "#" + silk_tag(kn)
    drafts = []
    for block, info in sorted(kn.blocks.items()):
        drops = [d for d in info["drops"] if d.get("silk_touch") and d["item"] == block]
        tools = [ench.enchanted(t.item) for t in ench.tools
                 if not info["harvest_tools"] or t.item in info["harvest_tools"]]
        if not drops or not tools or not info["diggable"]:
            continue
        given: dict[str, Any] = {"name": block, "count": max(1, drops[0]["min"])}
        if drops[0]["max"] > given["count"]:
            given["max"] = drops[0]["max"]
        init: dict[str, Any] = {"nearby_blocks": {block: 1}, "main_hand": min(tools, key=lambda t: _tier_order(kn, t))}
        natural = kn.natural_blocks.get(block)
        if natural and natural.dimension != "overworld":
            init["dimension"] = natural.dimension
        mined = draft("mine", block, "mine", [[need([block], kind=BLOCK), need(tools, kept=True)]], [given],
                      description=f"mine {block} with {ench.enchantment}", initialization=init,
                      metrics=goal("mine", block, using=tag))
        mined.data["id"] = f"mine.{block}.{ench.enchantment}"
        drafts.append(mined)
    return drafts


def silk_tag(kn: Knowledge) -> str:
    """The item tag of the enchanted tools (``silk_touch_tools``), which ``Knowledge`` derives from the table."""
    return _mech(kn).enchanting.prefix + "tools"


def changes(kn: Knowledge) -> list[Draft]:
    """``<verb>.<new block>``: the old block in the world (and the group's needs) becomes the new one."""
    drafts = []
    for group in _mech(kn).transformations.groups:
        for change in group.changes:
            given: list[dict[str, Any]] = [{"kind": "block", "name": change.becomes}]
            if group.chance < 1:
                # a use that does not change the block leaves it as it was (an anvil survives 88% of uses)
                given[0]["chance"] = group.chance
                given.append({"kind": "block", "name": change.block, "chance": round(1 - group.chance, 6)})
            old = need([change.item or change.block]) if group.placed else need([change.block], kind=BLOCK)
            ways = [[old, *group.needs]]
            drafts.append(draft(group.verb, change.becomes, "find", ways, given, category=Category.BUILDING,
                                description=group.description.format(block=change.block, becomes=change.becomes),
                                initialization=presence(kn, ways[0])))
    return drafts


def _pool_yields(pool: LootPool) -> list[dict[str, Any]]:
    out = []
    for entry in pool.entries:
        given: dict[str, Any] = {"name": entry.item, "count": entry.count, "chance": pool.chance(entry)}
        if entry.max is not None:
            given["max"] = entry.max
        out.append(given)
    return out


def loots(kn: Knowledge) -> list[Draft]:
    """``loot.<structure>`` (one chest) and ``brush.<structure>`` (one suspicious block), with the table's chances."""
    drafts = []
    for loot in _mech(kn).structure_loot.tables:
        yields = [y for pool in loot.pools for y in _pool_yields(pool)]
        yields += [{"name": h.item, "chance": h.chance} for h in loot.held]
        ways = [[need([loot.structure], kind=ResourceKind.STRUCTURE, kept=True), *loot.needs]]
        init = presence(kn, ways[0])
        if loot.verb == "brush":
            brushed = draft("brush", loot.structure, "use", ways, yields, initialization=init,
                            description=f"brush {loot.block} in {loot.structure}")
            brushed.data["metrics"] = goal("use", str(loot.block), using="brush")
            brushed.data["initialization"]["main_hand"] = "brush"
            drafts.append(brushed)
        elif loot.chest is not None:  # a further kind of chest: the goal names the kind opened, as the event does
            kind = draft("loot", loot.structure, "interact", ways, yields, initialization=init,
                         description=f"loot a {loot.chest} chest in {loot.structure}")
            kind.data["id"] = loot.atom_id
            kind.data["metrics"] = goal("interact", loot.structure, chest=loot.chest)
            drafts.append(kind)
        else:
            drafts.append(draft("loot", loot.structure, "interact", ways, yields, initialization=init,
                                description=f"loot a chest in {loot.structure}"))
    return drafts


def _villager_ways(kn: Knowledge, verb: str,
                   offers: dict[str, list[tuple[str, list[Need], list[dict[str, Any]]]]],
                   description: str) -> list[Draft]:
    """One atom per item a villager trades, with a way per profession that offers it (its own yields).

    A way yields the goods and the villager experience the trade gives that profession's villager.
    """
    drafts = []
    for item, ways in sorted(offers.items()):
        named = [("an " if p[0] in "aeiou" else "a ") + p for p in dict.fromkeys(p for p, _, _ in ways)]
        professions = named[0] if len(named) == 1 else ", ".join(named[:-1]) + " or " + named[-1]
        made = draft(verb, item, "obtain", [w for _, w, _ in ways], ways[0][2],
                     description=description.format(profession=professions, item=item))
        # beside the villager of the way a player uses first; a biome it needs (its villager type's: a plains
        # fisherman's oak boat) is found on the way, so the sells of two types' boats can start as one
        made.start = lambda way: {k: v for k, v in presence(kn, way).items() if k != "biome"}
        if len({repr(y) for _, _, y in ways}) > 1:
            made.outcomes = [y for _, _, y in ways]
        if verb == "sell":  # as the curated use.trade_villager: interacting with the villager, the goods in hand
            made.data["metrics"] = goal("interact", "villager", using=item)
        drafts.append(made)
    return drafts


def _villager(kn: Knowledge, prof: Profession, level: Level) -> list[Need]:
    """A villager of the profession (its job site kept beside it), raised to ``level``.

    The level is the villager experience its earlier trades gave (``villager_xp``), kept, as a tool is (a novice
    needs none).
    """
    at = _mech(kn).trading.levels[level]
    raised = [need([villager_xp(prof.profession)], at, kept=True, uses=0)] if at else []
    return [need(["villager"], kind=ENTITY), need([prof.job_site], kept=True), *raised]


def _experience(prof: Profession, xp: int) -> dict[str, Any]:
    """The yield of villager experience a trade with the profession gives."""
    return {"name": villager_xp(prof.profession), "count": xp}


def trades(kn: Knowledge) -> list[Draft]:
    """``trade.<item>``: emeralds (and the trade's other items) to a villager of a profession that sells the item.

    The villager's job site block is kept beside it; an item several professions sell has a way per profession.
    A trade whose price the game draws (an enchanted item) asks for its highest price. A wandering trader's offer
    is a way too, whose item comes with the chance a trader has the offer.
    """
    offers: dict[str, list[tuple[str, list[Need], list[dict[str, Any]]]]] = {}
    for prof in _mech(kn).trading.professions:
        for trade in prof.sells:
            extra = [need([trade.also.item], trade.also.count)] if trade.also else []
            for item in trade.goods:
                given: dict[str, Any] = {"name": item, **({"count": trade.count} if trade.count > 1 else {})}
                ways = [*_villager(kn, prof, trade.level), need(["emerald"], trade.price), *extra]
                offers.setdefault(item, []).append((prof.profession, ways, [given, _experience(prof, trade.xp)]))
    trader = _mech(kn).trading.wandering_trader
    for offer, chance in trader.offers():
        given = {"name": offer.item, **({"count": offer.count} if offer.count > 1 else {}), "chance": chance}
        ways = [need([trader.mob], kind=ENTITY), need(["emerald"], offer.emeralds)]
        offers.setdefault(offer.item, []).append((trader.mob.replace("_", " "), ways, [given]))
    return _villager_ways(kn, "trade", offers, "trade emeralds with {profession} for {item}")


def sells(kn: Knowledge) -> list[Draft]:
    """``sell.<item>``: the item to a villager of a profession that buys it, for emeralds."""
    offers: dict[str, list[tuple[str, list[Need], list[dict[str, Any]]]]] = {}
    for prof in _mech(kn).trading.professions:
        for buy in prof.buys:
            given: dict[str, Any] = {"name": "emerald", **({"count": buy.emeralds} if buy.emeralds > 1 else {})}
            # a villager whose type (the biome it was born in) makes the offer, found there (a plains fisherman)
            where = [need(buy.biomes, kind=ResourceKind.BIOME, kept=True)] if buy.biomes else []
            ways = [*_villager(kn, prof, buy.level), *where, need([buy.item], buy.count)]
            offers.setdefault(buy.item, []).append((prof.profession, ways, [given, _experience(prof, buy.xp)]))
    return _villager_ways(kn, "sell", offers, "sell {item} to {profession} for emeralds")


def lures(kn: Knowledge) -> list[Draft]:
    """``lure.<drop>``: a victim brought to the killer (with the killer's and the kill's needs) drops the item."""
    drafts = []
    for killer in _mech(kn).mob_kills.killers:
        for kill in killer.kills:
            ways = [_merged([need(kill.victim, kind=ENTITY), *killer.needs, *kill.needs])]
            victim = kill.victim[0] if len(kill.victim) == 1 else "a mob"
            drafts.append(draft("lure", kill.drop, "obtain", ways, [{"name": kill.drop}],
                                description=killer.description.format(victim=victim) + f" for {kill.drop}",
                                initialization=presence(kn, ways[0])))
    return drafts


def _merged(needs: list[Need]) -> list[Need]:
    """Needs of the same things as one need of their total (a charged creeper and the creeper it kills: two)."""
    out: dict[tuple[str, tuple[str, ...], bool], Need] = {}
    for n in needs:
        key = (n.kind.value, tuple(n.any_of), n.kept)
        old = out.get(key)
        out[key] = n if old is None else n.model_copy(update={"count": old.count + n.count})
    return list(out.values())


def smiths(kn: Knowledge) -> list[Draft]:
    """``smith.<item>``: template, base item and addition at the smithing table (kept) make the upgraded item."""
    table = _mech(kn).smithing
    return [draft("smith", u.result, "craft",
                  [[need([table.template]), need([u.base]), need([table.addition]), need([table.station], kept=True)]],
                  [{"name": u.result}], description=f"smith {u.result}")
            for u in table.upgrades]


def stonecuts(kn: Knowledge) -> list[Draft]:
    """``stonecut.<item>``: one item cut at the stonecutter (kept), a way per item it is cut from with its count.

    The game counts the result as crafted, so the atom's goal is the craft event, as a crafting recipe's.
    """
    table = _mech(kn).stonecutting
    drafts = []
    for result, ways in sorted(table.ways().items()):
        needs = [[need([item]), need([table.station], kept=True)] for item, _ in ways]
        made = draft("stonecut", result, "craft", needs, [{"name": result, "count": ways[0][1]}],
                     description=f"cut {result} at a stonecutter")
        outcomes = [[{"name": result, "count": count}] for _, count in ways]
        if any(o != outcomes[0] for o in outcomes):
            made.outcomes = outcomes
        drafts.append(made)
    return drafts


def variants(kn: Knowledge) -> list[Draft]:
    """``place.<block>``: the item placed in its other form (into a block placed beforehand, kept)."""
    drafts = []
    for v in _mech(kn).block_variants.variants:
        ways = [[need([v.item]), *([need([v.into], kind=BLOCK, kept=True)] if v.into else [])]]
        yields = [{"kind": "block", "name": v.block}, *({"name": r} for r in v.returns)]
        where = f"into {v.into}" if v.into else f"on a {v.against}"
        drafts.append(draft("place", v.block, "place", ways, yields, initialization=presence(kn, ways[0]),
                            description=f"place {v.item} {where} as {v.block}"))
    return drafts


def tending(kn: Knowledge) -> list[Draft]:
    """``tend.<name>``: what raising animals gives, as the table declares it."""
    drafts = []
    for t in _mech(kn).husbandry.tending:
        yields = [y.model_dump(mode="json", exclude_defaults=True) for y in t.yields]
        made = draft("tend", t.name, t.goal.event.value, [list(t.needs)], yields, description=t.description,
                     initialization=presence(kn, list(t.needs)))
        made.data["metrics"] = {"success": t.goal.model_dump(mode="json", exclude_defaults=True)}
        drafts.append(made)
    return drafts


def _with_mobs(kn: Knowledge, needs: list[Need]) -> dict[str, Any]:
    """``presence``, in the dimension of a mob that lives outside the overworld (striders, the ender dragon)."""
    init = presence(kn, needs)
    for n in needs:
        mob = kn.mobs.get(n.any_of[0]) if n.kind == ENTITY else None
        if mob is not None and mob.dimensions and "overworld" not in mob.dimensions:
            init["dimension"] = mob.dimensions[0]
    return init


def fills(kn: Knowledge) -> list[Draft]:
    """``fill.<item>``: a container used up on something found (water, the dragon's breath) becomes the item."""
    drafts = []
    for f in [*_mech(kn).brewing.fills, *_mech(kn).breeding.fills]:
        ways = [[need([f.container]), need([f.at], kind=ResourceKind(f.kind))]]
        made = draft("fill", f.item, "use", ways, [{"name": f.item}], initialization=_with_mobs(kn, ways[0]),
                     description=f"fill {f.container} at {f.at} for {f.item}")
        made.data["metrics"] = goal("use", f.at, using=f.container)
        drafts.append(made)
    return drafts


def brews(kn: Knowledge) -> list[Draft]:
    """``brew.<potion>``: the base potion and the ingredient in the brewing stand (kept), fuelled by blaze powder.

    A way per mix that makes the potion (slowness from swiftness or from leaping). The fuel is used and comes back
    with chance ``1 - 1 / brews_per_fuel``: one blaze powder fuels 20 brews on average.
    """
    table = _mech(kn).brewing
    refuel = round(1 - 1 / table.brews_per_fuel, 6)
    recipes: dict[str, list[tuple[str, str]]] = {}
    for mix in table.mixes:
        recipes.setdefault(table.name(mix.result), []).append((table.name(mix.base), mix.ingredient))
    for c in table.containers:
        for p in table.potions:
            recipes.setdefault(table.name(p.id, c.result), []).append((table.name(p.id, c.base), c.ingredient))
    containers = _mech(kn).containers
    drafts = []
    for potion, mixes in sorted(recipes.items()):
        ways = [_merged([need([base]), need([ingredient]), need([table.fuel]), need([table.station], kept=True)])
                for base, ingredient in mixes]
        given: list[dict[str, Any]] = [{"name": potion}, {"name": table.fuel, "chance": refuel}]
        # an ingredient's container stays in the stand (dragon's breath leaves its bottle: containers.yaml)
        outcomes = [[*given, *([{"name": back}] if (back := containers.remainder(ingredient)) else [])]
                    for _, ingredient in mixes]
        made = draft("brew", potion, "obtain", ways, outcomes[0], description=f"brew {potion}")
        if any(o != outcomes[0] for o in outcomes):
            made.outcomes = outcomes
        drafts.append(made)
    return drafts


def drinks(kn: Knowledge) -> list[Draft]:
    """``drink.<potion>`` (the glass bottle given back) and the table's other drinks; success is the eat event."""
    table = _mech(kn).brewing
    given: list[tuple[str, str | None]] = [(table.name(p.id), table.bottle) for p in table.potions]
    given += [(d.item, d.returns) for d in table.drinks]
    return [draft("drink", item, "eat", [[need([item])]], [{"name": back}] if back else [],
                  description=f"drink {item}")
            for item, back in sorted(given)]


def breeds(kn: Knowledge) -> list[Draft]:
    """``breed.<animal>``: two animals found (or the two parents), fed the food one each, make a baby (found).

    Success is the curated ``use.breed_cows``'s: the food used on two animals (``using`` when there is one food).
    """
    drafts = []
    for b in _mech(kn).breeding.breeding:
        parents = [need([p], kind=ENTITY) for p in b.parents] or [need([b.animal], 2, kind=ENTITY)]
        ways = [[*parents, need(b.food, 2)]]
        yields = [b.gives.model_dump(mode="json", exclude_defaults=True) if b.gives
                  else {"kind": "entity", "name": b.animal}]
        yields += [{"name": b.returns, "count": 2}] if b.returns else []
        who = f"{' and '.join(b.parents)} for {b.animal}" if b.parents else b.animal
        made = draft("breed", b.animal, "use", ways, yields, initialization=_with_mobs(kn, ways[0]),
                     description=f"breed {who} with {' or '.join(b.food[:3])}{' or ...' if len(b.food) > 3 else ''}")
        target = b.parents[0] if b.parents else b.animal
        made.data["metrics"] = goal("use", target, count=2, **({"using": b.food[0]} if len(b.food) == 1 else {}))
        drafts.append(made)
    return drafts


def feeds(kn: Knowledge) -> list[Draft]:
    """``feed.<animal>``: an animal found (kept) given one item of what it eats, used up.

    What it eats is its breeding food and the ``feeding`` table's (a horse's wheat).

    The game keeps no statistic of an animal fed (``animals_bred`` counts a baby born), so success is the food used
    on the animal, as ``breed.<animal>``'s is (``using`` when it eats one food).
    """
    table = _mech(kn).breeding
    foods: dict[str, list[str]] = {}
    eaten = [(b.animal, b.food) for b in table.breeding if not b.parents]
    for animal, food in [*eaten, *((f.animal, f.food) for f in table.feeding)]:
        foods.setdefault(animal, [])
        foods[animal] += [f for f in food if f not in foods[animal]]
    drafts = []
    for animal, food in sorted(foods.items()):
        ways = [[need([animal], kind=ENTITY, kept=True), need(food)]]
        made = draft("feed", animal, "use", ways, [], initialization=_with_mobs(kn, ways[0]),
                     description=f"feed {animal} with {' or '.join(food[:3])}{' or ...' if len(food) > 3 else ''}")
        made.data["metrics"] = goal("use", animal, **({"using": food[0]} if len(food) == 1 else {}))
        drafts.append(made)
    return drafts


def tames(kn: Knowledge) -> list[Draft]:
    """``tame.<animal>``: fed its taming food for the expected number of tries, or ridden (the curated events)."""
    drafts = []
    for t in _mech(kn).breeding.taming:
        ways = [[need([t.animal], kind=ENTITY), *([need(t.food, t.one_in)] if t.food else [])]]
        how = f" with {' or '.join(t.food[:2])}{' or ...' if len(t.food) > 2 else ''}" if t.food else " by riding it"
        made = draft("tame", t.animal, "use", ways, [], initialization=_with_mobs(kn, ways[0]),
                     description=f"tame a {t.animal}{how}")
        if not t.food:  # as the curated use.ride_horse
            made.data["metrics"] = goal("interact", t.animal)
        elif len(t.food) == 1:  # as the curated use.tame_wolf
            made.data["metrics"] = goal("use", t.animal, using=t.food[0])
        drafts.append(made)
    return drafts


def pots(kn: Knowledge) -> list[Draft]:
    """``pot.<plant>``: a flower pot and a plant make the potted plant block.

    Read off minecraft-data: a potted block is a block with no item of its own that drops a flower pot and one plant.
    """
    drafts = []
    for block, info in sorted(kn.blocks.items()):
        dropped = sorted(d["item"] for d in info["drops"] if d["chance"] == 1)
        if block in kn.items or len(dropped) != 2 or "flower_pot" not in dropped:
            continue
        (plant,) = [d for d in dropped if d != "flower_pot"]
        drafts.append(draft("pot", plant, "place", [[need(["flower_pot"]), need([plant])]],
                            [{"kind": "block", "name": block}], description=f"pot {plant}"))
        drafts[-1].data["metrics"] = goal("place", block)
    return drafts


def _names(kn: Knowledge, names: list[str]) -> list[str]:
    """Item names with ``#tag`` read as the tag's members."""
    return [m for n in names for m in (kn.tags[n[1:]] if n.startswith("#") else [n])]


def repairs(kn: Knowledge) -> list[Draft]:
    """``repair.<item>``: the item and a unit of its material, or two of it, at an anvil (kept): one item back.

    Success is the item used on the anvil, as the curated ``use.repair_with_anvil``'s. The atom is tagged
    ``REPAIRS_TAG``: the text world takes the unit's share, or all, off the wear of the item given back.
    """
    table = _mech(kn).anvil
    drafts = []
    for group in table.repairs:
        materials = _names(kn, group.materials)
        for item in group.items:
            anvil = need(table.stations, kept=True)
            ways = [[need([item]), need(materials), anvil]] if materials else []
            ways.append([need([item], 2), anvil])
            how = f"{' or '.join(group.materials)} or another {item}" if materials else f"another {item}"
            made = draft("repair", item, "use", ways, [{"name": item}], metrics=goal("use", "anvil", using=item),
                         description=f"repair {item} at an anvil with {how}", tags=[REPAIRS_TAG])
            drafts.append(made)
    return drafts


def renames(kn: Knowledge) -> list[Draft]:
    """``rename.<item>``: the item at an anvil (kept), given a name: ``named_<item>``, taken from its output."""
    table = _mech(kn).anvil
    return [draft("rename", item, "craft", [[need([item]), need(table.stations, kept=True)]], [{"name": named}],
                  metrics=goal("craft", named), description=f"rename {item} at an anvil")
            for item, named in table.renamed.items()]


def combines(kn: Knowledge) -> list[Draft]:
    """``combine.<item>``: an enchanted book onto the item at an anvil (kept): the enchanted item, from its output.

    The items an enchanting table enchants (``enchanting.yaml``), each named as there (``enchanted_<item>``), and
    those only an anvil enchants (``anvil.yaml``'s ``also_combined``: shears, a shield, elytra).
    """
    table = _mech(kn).anvil
    anyway = _mech(kn).enchanting.any_enchantment
    if anyway is None:
        return []
    drafts = []
    for item in sorted({*anyway.items, *table.also_combined}):
        result = anyway.enchanted(item)
        if result == table.book:
            continue
        ways = [[need([item]), need([table.book]), need(table.stations, kept=True)]]
        drafts.append(draft("combine", item, "craft", ways, [{"name": result}], metrics=goal("craft", result),
                            description=f"combine {table.book} with {item} at an anvil"))
    return drafts


def throws(kn: Knowledge) -> list[Draft]:
    """``throw.<item>``: the item thrown from the hand; success is its ``use`` (the game's used statistic).

    It leaves the inventory, comes back with the table's chance (an eye of ender dropping where it lands), or is
    picked up again, worn by the throw (a trident). Every splash and lingering potion of ``brewing.yaml`` is thrown.
    """
    table = _mech(kn).throwing
    brewing = _mech(kn).brewing
    thrown = [(t.item, t.back, t.wears) for t in table.items]
    thrown += [(brewing.name(p.id, c), 0.0, 0) for c in table.potions for p in brewing.potions]
    drafts = []
    for item, back, wears in sorted(thrown):
        kept = need([item], kept=True, uses=wears) if wears else need([item])
        yields = [{"name": item, "chance": back}] if back else []
        drafts.append(draft("throw", item, "use", [[kept]], yields, description=f"throw {item}",
                            initialization={"main_hand": item} if wears else {}))
    return drafts


def hangs(kn: Knowledge) -> list[Draft]:
    """``hang.<item>``: the item hung on a block face, used up; success is its ``use`` (the game's used statistic)."""
    return [draft("hang", h.item, "use", [[need([h.item])]], [], description=f"hang {h.item} on a block")
            for h in _mech(kn).hanging.items]


def stores(kn: Knowledge) -> list[Draft]:
    """``store.<item>``: the item put into a container's slots, out of the inventory; success is its ``store``.

    The container (``storing.yaml``: a chest, a barrel, a shulker box) is placed and kept; the item is used up.
    """
    table = _mech(kn).storing
    return [draft("store", s.item, "store", [[need([s.item]), need(table.container_items, kept=True)]], [],
                  description=f"store {s.item} in a chest") for s in sorted(table.items, key=lambda s: s.item)]


def hooks(kn: Knowledge) -> list[Draft]:
    """``hook.<mob>``: a mob found (kept) hooked with the rod (kept, worn by the table's wear) and reeled in.

    Every mob the world finds (``natural``, or ``brought_by`` an action); success is the rod used on the mob.
    """
    table = _mech(kn).hooking
    drafts = []
    for mob in sorted(m for m, info in kn.mobs.items() if info.natural or info.brought_by):
        ways = [[need([table.rod], kept=True, uses=table.wear), need([mob], kind=ENTITY, kept=True)]]
        made = draft("hook", mob, "use", ways, [], initialization=_with_mobs(kn, ways[0]),
                     description=f"hook {mob} with a {table.rod}")
        made.data["metrics"] = goal("use", mob, using=table.rod)
        drafts.append(made)
    return drafts


def traps(kn: Knowledge) -> list[Draft]:
    """``trap.<mob>``: a boat (kept) placed where a mob found (kept) walks into it, which seats the mob.

    Every mob the world finds (``natural``, or ``brought_by`` an action) but those the table says a boat never
    seats (a spider is too wide, a squid a water animal); success is a boat of the tag used on the mob.
    """
    table = _mech(kn).boating
    boats = kn.tags[table.boats]
    drafts = []
    for mob in sorted(m for m, info in kn.mobs.items()
                      if (info.natural or info.brought_by) and table.why_not_trapped(m) is None):
        ways = [[need(boats, kept=True), need([mob], kind=ENTITY, kept=True)]]
        made = draft("trap", mob, "use", ways, [], initialization=_with_mobs(kn, ways[0]),
                     description=f"trap {mob} in a boat")
        made.data["metrics"] = goal("use", mob, using="#" + table.boats)
        drafts.append(made)
    return drafts


def opens(kn: Knowledge) -> list[Draft]:
    """``<verb>.<block>``: a block's screen opened (or its click counted), as the game's custom statistic counts it.

    The verb is the statistic's (``open.chest``, ``interact.crafting_table``, ``inspect.hopper``); the block is
    found or placed (kept) and the items its click needs are put into it (used up). Success is the block's
    ``interact`` event.
    """
    drafts = []
    for screen in _mech(kn).screens.blocks:
        ways = [[need([screen.block], kind=BLOCK, kept=True), *([need(screen.with_)] if screen.with_ else [])]]
        words = "interact with" if screen.verb == "interact" else screen.verb
        made = draft(screen.verb, screen.block, "interact", ways, [], initialization=presence(kn, ways[0]),
                     description=f"{words} {screen.block}")
        made.data["metrics"] = goal("interact", screen.block)
        drafts.append(made)
    return drafts


def counted(kn: Knowledge) -> list[Draft]:
    """``<verb>.<name>``: an action a custom statistic counts, with the ways, yields and success the table declares.

    The mobs and blocks of the first way are where the atom starts (a villager summoned, a ladder beside).
    """
    drafts = []
    for stat in _mech(kn).statistics.statistics:
        ways = [list(way) for way in stat.ways]
        yields = [y.model_dump(mode="json", exclude_defaults=True) for y in stat.yields]
        made = draft(stat.verb, stat.name, stat.goal.event.value, ways, yields, category=Category.EXPLOITATION,
                     description=stat.description, initialization=_with_mobs(kn, ways[0]))
        made.data["metrics"] = {"success": stat.goal.model_dump(mode="json", exclude_defaults=True)}
        drafts.append(made)
    return drafts


GENERATORS: tuple[Callable[[Knowledge], list[Draft]], ...] = (
    strips, enchants, enchants_any, silk_mines, changes, loots, trades, sells, lures, smiths, stonecuts, variants,
    tending, pots, fills, brews, drinks, breeds, tames, repairs, renames, combines, throws, hangs, stores, hooks,
    traps, opens, feeds, counted,
)
"""The mechanism rules, run after the recipe and drop rules of ``taskverse.library.generate``."""

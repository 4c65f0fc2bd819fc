"""Atoms of the game's mechanisms beyond recipes and drops: one generic rule per verb, reading the curated tables.

The tables (``taskverse.knowledge.mechanisms``, each citing its source) declare the facts; each rule below turns one
table into atoms, with no per-item code:

* ``strip.<log>``: an axe (kept, worn one use) strips a log into its stripped form;
* ``enchant.<enchanted tool>``: an enchanting table gives a tool Silk Touch with the chance the game's algorithm
  gives, and ``mine.<block>.silk_touch`` mines a block itself with such a tool;
* ``<verb>.<block>``: a block changes into another (``weather``, ``harden``, ``dry``, ``wear``);
* ``loot.<structure>`` / ``brush.<structure>``: a structure's chest or suspicious block, with the loot table's chances;
* ``trade.<item>``: a villager of a profession sells an item for emeralds;
* ``lure.<drop>``: a mob killed by another drops what no player kill gives (heads, wither roses, froglights);
* ``smith.<item>``: a smithing table upgrades a diamond item to netherite;
* ``place.<block>``: an item placed in another form (on a wall, into a cauldron);
* ``tend.<name>``: raising animals (turtle eggs and scutes, sniffers and their seeds);
* ``pot.<plant>``: a plant put in a flower pot (read off minecraft-data: a potted block drops its pot and plant).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from taskverse.knowledge.enchanting import from_knowledge, offer_chance
from taskverse.knowledge.facts import Knowledge
from taskverse.knowledge.mechanisms import LootPool, Mechanisms
from taskverse.library.drafts import Draft, draft, goal, need
from taskverse.schema import Category, Need, ResourceKind

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
        else:
            drafts.append(draft("loot", loot.structure, "interact", ways, yields, initialization=init,
                                description=f"loot a chest in {loot.structure}"))
    return drafts


def trades(kn: Knowledge) -> list[Draft]:
    """``trade.<item>``: emeralds to a villager of the profession, whose job site block is kept beside it."""
    drafts = []
    for prof in _mech(kn).trading.professions:
        for trade in prof.trades:
            ways = [[need(["villager"], kind=ENTITY), need([prof.job_site], kept=True),
                     need(["emerald"], trade.emeralds)]]
            drafts.append(draft("trade", trade.item, "obtain", ways, [{"name": trade.item}],
                                description=f"trade emeralds with {prof.profession} for {trade.item}",
                                initialization=presence(kn, ways[0])))
    return drafts


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


GENERATORS: tuple[Callable[[Knowledge], list[Draft]], ...] = (
    strips, enchants, silk_mines, changes, loots, trades, lures, smiths, variants, tending, pots,
)
"""The mechanism rules, run after the recipe and drop rules of ``taskverse.library.generate``."""

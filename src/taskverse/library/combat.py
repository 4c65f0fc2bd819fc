"""Combat as a survival player meets it: which weapon, armour and food let a player win a fight with a mob.

The numbers come from the curated combat table (``atoms/knowledge/curated/combat.yaml``, Java Edition 1.20 on
Normal difficulty, each with its source); this module only does the arithmetic the game does:

* hits needed = the mob's health / the weapon's damage (rounded up); the fight lasts hits / hit rate, where the
  hit rate is the weapon's attack speed, at most two a second (a mob is invulnerable for 10 ticks after a hit);
* damage taken = the mob's damage per attack, reduced by the armour (the game's formula, ``armour_reduction``),
  times its attacks over the fight;
* the player has 20 health; beyond that it eats cooked meat mid-fight, each item healing a fixed amount but
  taking time to eat while the mob keeps attacking. A fight that eating cannot keep up with is lost.

Each way to win names a weapon tier (or bare hands), an armour tier (or none) and the food it needs. The ways
kept are the least demanding ones: for each weapon tier, the lightest armour that needs no food, else the
lightest that wins with the food a player brings (at most ``healing.most``); then any way that asks for at least
as much of everything as another is dropped.

Example:
    >>> from taskverse.knowledge.facts import load_knowledge
    >>> [(w.weapon, w.armour, w.food) for w in fight_ways(load_knowledge(), "zombie")]
    [(None, 'golden', 0), ('wooden', None, 0)]

"""

from __future__ import annotations

import math
from dataclasses import dataclass

from taskverse.knowledge.facts import ArmourTier, CombatTable, Knowledge, WeaponTier
from taskverse.schema import Need, ResourceKind

ARMOUR_PIECES = ("helmet", "chestplate", "leggings", "boots")


@dataclass(frozen=True)
class FightWay:
    """One way to win a fight: the weapon and armour tiers (None: bare hands, no armour), and what it costs."""

    weapon: str | None
    armour: str | None
    food: int
    hits: int
    """Hits the player lands (the weapon's wear)."""
    attacks: int
    """Attacks the mob lands over the fight."""
    armour_wear: int
    """Durability each armour piece loses: per attack, a quarter of its damage, at least 1."""
    damage: float
    """Damage the player takes over the fight, after armour."""


def armour_reduction(points: float, toughness: float, damage: float) -> float:
    """The share of one attack's damage that armour absorbs (the game's formula, at most 80%).

    Example:
        >>> round(armour_reduction(20, 8, 30), 3)
        0.5

    """
    return min(20.0, max(points / 5, points - 4 * damage / (toughness + 8))) / 25


def fight(table: CombatTable, mob: str, health: float, weapon: WeaponTier | None,
          armour: ArmourTier | None) -> FightWay | None:
    """The outcome of one fight, or None when the player cannot win it with this gear."""
    attack = table.mobs[mob]
    damage, speed = (weapon.damage, weapon.speed) if weapon else (table.player.hand.damage, table.player.hand.speed)
    hits = max(1, math.ceil(health / damage))
    seconds = hits / min(speed, table.player.max_hits_per_second)
    points, toughness = (armour.points, armour.toughness) if armour else (0.0, 0.0)
    per_attack = attack.damage * (1 - armour_reduction(points, toughness, attack.damage))
    per_second = per_attack / attack.interval
    taken = per_second * seconds
    food = 0
    if taken >= table.player.health:
        healing = table.player.healing
        net = healing.health - healing.seconds * per_second  # eating takes time, and the mob keeps attacking
        if net <= 0:
            return None
        food = math.ceil((taken - table.player.health + 1) / net)
        if food > healing.most:
            return None
    attacks = math.ceil(seconds / attack.interval)
    wear = attacks * max(1, math.floor(attack.damage / 4))
    return FightWay(weapon.tier if weapon else None, armour.tier if armour else None, food, hits, attacks,
                    wear if armour else 0, round(taken, 2))


def fight_ways(kn: Knowledge, mob: str) -> list[FightWay]:
    """The least demanding ways to win a fight with ``mob`` (empty when no gear wins it)."""
    table = kn.combat
    if table is None or mob not in table.mobs:
        return []
    health = kn.mobs[mob].health
    weapons: list[WeaponTier | None] = [None, *table.weapons]
    armours: list[ArmourTier | None] = [None, *table.armour]
    found: list[FightWay] = []
    for weapon in weapons:
        outcomes = [o for a in armours if (o := fight(table, mob, health, weapon, a)) is not None]
        if outcomes:
            free = [o for o in outcomes if o.food == 0]
            found.append(free[0] if free else outcomes[0])
    w_rank = {w.tier if w else None: i for i, w in enumerate(weapons)}
    a_rank = {a.tier if a else None: i for i, a in enumerate(armours)}

    def dominated(way: FightWay, other: FightWay) -> bool:
        return (other != way and w_rank[other.weapon] <= w_rank[way.weapon]
                and a_rank[other.armour] <= a_rank[way.armour] and other.food <= way.food)

    return [way for way in found if not any(dominated(way, other) for other in found)]


def weapon_items(table: CombatTable, tier: str) -> list[str]:
    """The weapons of a tier or a better one (a player holding a better sword fights at least as well)."""
    index = [w.tier for w in table.weapons].index(tier)
    return sorted(item for w in table.weapons[index:] for item in w.items)


def armour_items(table: CombatTable, tier: str, piece: str) -> list[str]:
    """One piece of armour of a tier or one that protects at least as well (points and toughness)."""
    base = next(a for a in table.armour if a.tier == tier)
    return sorted(f"{a.tier}_{piece}" for a in table.armour
                  if a.points >= base.points and a.toughness >= base.toughness)


def fight_needs(kn: Knowledge, mob: str) -> list[list[Need]]:
    """The ways to win a fight with ``mob`` as needs: the weapon and armour kept (worn by the fight), food eaten.

    Each way starts with the mob itself (an entity, found). A mob the combat table does not list is fought as it is
    found, with no gear; a mob no gear beats has no way.
    """
    found = Need(kind=ResourceKind.ENTITY, any_of=[mob])
    table = kn.combat
    if table is None or mob not in table.mobs:
        return [[found]]
    ways = []
    for way in fight_ways(kn, mob):
        needs = [found]
        if way.weapon is not None:
            needs.append(Need(any_of=weapon_items(table, way.weapon), kept=True, uses=way.hits))
        if way.armour is not None:
            needs += [Need(any_of=armour_items(table, way.armour, piece), kept=True, uses=way.armour_wear)
                      for piece in ARMOUR_PIECES]
        if way.food:
            needs.append(Need(any_of=sorted(set(table.player.healing.items)), count=way.food))
        ways.append(needs)
    return ways

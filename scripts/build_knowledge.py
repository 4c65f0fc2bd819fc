"""Reduce PrismarineJS minecraft-data (Java 1.20) into the compact knowledge file under ``atoms/knowledge/``.

The output depends only on the pinned package version, so running this again rebuilds the committed file
byte for byte::

    pip install "minecraft-data-latest==0.2"
    python scripts/build_knowledge.py            # writes atoms/knowledge/minecraft-1.20.json
    python scripts/build_knowledge.py --check    # exit 1 if the committed file differs
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from importlib import metadata
from pathlib import Path
from typing import Any

PACKAGE = "minecraft-data-latest"
PINNED_VERSION = "0.2"
EDITION = "pc"
MINECRAFT_VERSION = "1.20"
OUTPUT = Path(__file__).resolve().parent.parent / "atoms" / "knowledge" / f"minecraft-{MINECRAFT_VERSION}.json"
LIVING_TYPES = {"hostile", "animal", "water_creature", "mob", "passive", "ambient"}


def _data_dir() -> Path:
    import minecraft_data  # noqa: PLC0415 - optional dependency, only needed to rebuild

    return Path(os.path.dirname(minecraft_data.__file__)) / "data" / "data"


def _load(kind: str) -> Any:
    root = _data_dir()
    paths = json.loads((root / "dataPaths.json").read_text())[EDITION][MINECRAFT_VERSION]
    return json.loads((root / paths[kind] / f"{kind}.json").read_text())


def _drop(raw: dict[str, Any], item_key: str = "item") -> dict[str, Any]:
    low, high = raw.get("stackSizeRange", [1, 1])
    drop: dict[str, Any] = {"item": raw[item_key], "chance": round(float(raw.get("dropChance", 1)), 6)}
    drop["min"], drop["max"] = int(low if low is not None else 1), int(high if high is not None else low or 1)
    flags = (("silkTouch", "silk_touch"), ("noSilkTouch", "no_silk_touch"), ("playerKill", "player_kill"))
    for source_key, key in flags:
        if raw.get(source_key):
            drop[key] = True
    return drop


def build() -> dict[str, Any]:
    """Return the reduced knowledge as a plain, JSON-ready dictionary."""
    items = _load("items")
    name_of = {item["id"]: item["name"] for item in items}
    knowledge: dict[str, Any] = {
        "source": {"package": PACKAGE, "version": PINNED_VERSION, "edition": EDITION, "minecraft": MINECRAFT_VERSION},
    }
    knowledge["items"] = {
        item["name"]: {
            "display": item["displayName"],
            "stack": item["stackSize"],
            **({"durability": item["maxDurability"]} if "maxDurability" in item else {}),
        }
        for item in items
        if item["name"] != "air"
    }

    loot = {entry["block"]: [_drop(d) for d in entry["drops"]] for entry in _load("blockLoot")}
    blocks: dict[str, Any] = {}
    for block in _load("blocks"):
        if block["name"] in {"air", "cave_air", "void_air"}:
            continue
        tools = block.get("harvestTools")
        drops = loot.get(block["name"])
        if drops is None:  # blocks without a loot table fall back to the block's plain drop list
            drops = [{"item": name_of[i], "chance": 1.0, "min": 1, "max": 1} for i in block.get("drops", [])]
        blocks[block["name"]] = {
            "display": block["displayName"],
            "hardness": block["hardness"],
            "diggable": bool(block["diggable"]),
            "material": block.get("material", "default"),
            "harvest_tools": sorted(name_of[int(t)] for t in tools) if tools else None,
            "drops": drops,
        }
    knowledge["blocks"] = blocks

    recipes: dict[str, list[dict[str, Any]]] = {}
    for result_id, variants in _load("recipes").items():
        out = []
        for variant in variants:
            entry: dict[str, Any] = {"count": variant["result"]["count"]}
            if "inShape" in variant:
                entry["shape"] = [[name_of[c] if c is not None else None for c in row] for row in variant["inShape"]]
            else:
                entry["ingredients"] = sorted(name_of[i] for i in variant["ingredients"])
            out.append(entry)
        out.sort(key=lambda e: json.dumps(e, sort_keys=True))
        recipes[name_of[int(result_id)]] = out
    knowledge["recipes"] = recipes

    knowledge["foods"] = {
        food["name"]: {"food_points": food["foodPoints"], "saturation": food["saturation"]} for food in _load("foods")
    }
    knowledge["biomes"] = {
        biome["name"]: {
            "display": biome["displayName"],
            "category": biome["category"],
            "dimension": biome["dimension"],
            "temperature": biome["temperature"],
            "precipitation": bool(biome.get("has_precipitation", biome.get("precipitation", "none") != "none")),
        }
        for biome in _load("biomes")
    }
    knowledge["entities"] = {
        entity["name"]: {"display": entity["displayName"], "type": entity["type"], "category": entity.get("category")}
        for entity in _load("entities")
        if entity["type"] in LIVING_TYPES
    }
    knowledge["entity_loot"] = {
        entry["entity"]: [_drop(d) for d in entry["drops"]]
        for entry in _load("entityLoot")
        if entry["entity"] in knowledge["entities"]
    }
    knowledge["enchantments"] = {
        enchantment["name"]: {
            "category": enchantment["category"],
            "weight": enchantment["weight"],
            "max_level": enchantment["maxLevel"],
            # The power (modified enchantment level) range of level L is [a * L + b, a' * L + b'].
            "min_cost": [enchantment["minCost"]["a"], enchantment["minCost"]["b"]],
            "max_cost": [enchantment["maxCost"]["a"], enchantment["maxCost"]["b"]],
            "exclude": sorted(enchantment["exclude"]),
            "treasure": bool(enchantment["treasureOnly"]),
            "discoverable": bool(enchantment["discoverable"]),
        }
        for enchantment in _load("enchantments")
    }
    return knowledge


def render(knowledge: dict[str, Any]) -> str:
    """Serialise deterministically: sorted keys, one top-level entry per line, so diffs stay readable."""
    lines = ["{"]
    sections = sorted(knowledge)
    for s_index, section in enumerate(sections):
        value = knowledge[section]
        closing = "," if s_index < len(sections) - 1 else ""
        if section == "source":
            lines.append(f' "source": {json.dumps(value, sort_keys=True)}{closing}')
            continue
        lines.append(f" {json.dumps(section)}: {{")
        keys = sorted(value)
        for k_index, key in enumerate(keys):
            comma = "," if k_index < len(keys) - 1 else ""
            lines.append(f"  {json.dumps(key)}: {json.dumps(value[key], sort_keys=True)}{comma}")
        lines.append(" }" + closing)
    lines.append("}")
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the committed file instead of writing")
    parser.add_argument("-o", "--output", type=Path, default=OUTPUT)
    args = parser.parse_args()
    installed = metadata.version(PACKAGE)
    if installed != PINNED_VERSION:
        print(f"error: {PACKAGE}=={installed} is installed; this file is built from =={PINNED_VERSION}",
              file=sys.stderr)
        return 2
    text = render(build())
    if args.check:
        same = args.output.exists() and args.output.read_text() == text
        print(f"{args.output}: {'up to date' if same else 'DIFFERS from a fresh build'}")
        return 0 if same else 1
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(text)
    print(f"wrote {args.output} ({len(text):,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

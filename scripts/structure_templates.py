"""Rebuild the table of blocks each structure's templates place, from the vanilla data of one game version.

Reads the structure templates (``data/minecraft/structures/**.nbt``: gzip'd NBT) and the worldgen files that
use them (``worldgen/structure``, ``template_pool``, ``processor_list``) from a git directory of extracted vanilla
data (the Datapack-Registry/default repository tags one commit per version: ``1.20.1``), and writes
``atoms/knowledge/structure_templates.json``: for each block, the structures (``structures.yaml`` names) whose
templates place it. A jigsaw structure (village, bastion, ancient city, trail ruins, pillager outpost) counts the
templates of the pools reachable from its start pool (a jigsaw block names the pool it grows into) and what their
rule processors put in place of a block the template holds, and the blocks its pools' feature elements place (a
village's hay, melon, pumpkin, snow and ice piles, its trees and flowers: the block states the placed feature's
configured feature names, in ``worldgen/placed_feature`` and ``configured_feature``); a structure the game code
assembles from templates (end city, igloo, mansion, shipwreck, ocean ruins, ruined portal, nether fossil) counts
every template of its folder, without the processors its code adds (ocean ruins' and ruined portals' ageing and
netherrack). A jigsaw block counts as the block it turns into (its ``final_state``). Structures the code builds
block by block (pyramids, swamp hut, stronghold, mineshaft, fortress, monument) hold no templates and are not
in the table.

Usage: python scripts/structure_templates.py GIT_DIR [--ref 1.20.1] [--out PATH]
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
import struct
import subprocess
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "atoms" / "knowledge" / "structure_templates.json"
DATA = "data/minecraft/"

#: Jigsaw structures (worldgen/structure files, without .json) and the structures.yaml name each belongs to.
JIGSAW = {"ancient_city": "ancient_city", "bastion_remnant": "bastion_remnant",
          "pillager_outpost": "pillager_outpost", "trail_ruins": "trail_ruins", "village_desert": "village",
          "village_plains": "village", "village_savanna": "village", "village_snowy": "village",
          "village_taiga": "village"}
#: Template folders the game code places whole (no pools), and the structures.yaml name of each.
CODE_PLACED = {"end_city": "end_city", "igloo": "igloo", "woodland_mansion": "woodland_mansion",
               "shipwreck": "shipwreck", "underwater_ruin": "ocean_ruins", "ruined_portal": "ruined_portal",
               "nether_fossils": "nether_fossil"}
#: Blocks that mark template space rather than place anything: a jigsaw block turns into its final state, and a
#: structure block is a data marker the code turns into a chest or a mob (mansions, end cities, shipwrecks,
#: ocean ruins, igloos) or that a pool element's placement ignores (BlockIgnoreProcessor.STRUCTURE_BLOCK).
NOT_PLACED = {"air", "structure_void", "jigsaw", "cave_air", "structure_block"}


class _Reader:
    """A reader of Java Edition NBT (big-endian, named root compound)."""

    def __init__(self, data: bytes) -> None:
        self.buf = io.BytesIO(data)

    def _take(self, fmt: str) -> Any:
        size = struct.calcsize(fmt)
        return struct.unpack(fmt, self.buf.read(size))[0]

    def _string(self) -> str:
        return self.buf.read(self._take(">H")).decode("utf-8", "replace")

    def payload(self, tag: int) -> Any:
        """The value of one tag of type ``tag``."""
        simple = {1: ">b", 2: ">h", 3: ">i", 4: ">q", 5: ">f", 6: ">d"}
        if tag in simple:
            return self._take(simple[tag])
        if tag in (7, 11, 12):  # byte, int and long arrays: their contents are never needed here
            width = {7: 1, 11: 4, 12: 8}[tag]
            self.buf.read(width * self._take(">i"))
            return None
        if tag == 8:
            return self._string()
        if tag == 9:
            inner, count = self._take(">b"), self._take(">i")
            return [self.payload(inner) for _ in range(count)] if inner else []  # an empty list's type is 0
        if tag == 10:
            out: dict[str, Any] = {}
            while (inner := self._take(">b")) != 0:
                key = self._string()  # read before the value: Python evaluates an assignment's value first
                out[key] = self.payload(inner)
            return out
        raise ValueError(f"unknown NBT tag {tag}")

    def root(self) -> dict[str, Any]:
        """The root compound."""
        tag = self._take(">b")
        self._string()
        return self.payload(tag)


def _name(state: str) -> str:
    """A block state's block name without namespace or properties: ``minecraft:oak_stairs[facing=n]`` -> oak_stairs."""
    return state.split("[", 1)[0].split("{", 1)[0].removeprefix("minecraft:")


def template_blocks(nbt: dict[str, Any]) -> set[str]:
    """The blocks one template places: the palette states its blocks use and its jigsaw blocks' final states."""
    palettes = nbt.get("palettes") or [nbt.get("palette", [])]
    used = {block["state"] for block in nbt.get("blocks", [])}
    names = {_name(palette[i]["Name"]) for palette in palettes for i in used if i < len(palette)}
    for block in nbt.get("blocks", []):
        final = (block.get("nbt") or {}).get("final_state")
        if final:
            names.add(_name(final))
    return names - NOT_PLACED


def template_pools(nbt: dict[str, Any]) -> set[str]:
    """The pools a template's jigsaw blocks grow into."""
    return {_id(block["nbt"]["pool"]) for block in nbt.get("blocks", []) if "pool" in (block.get("nbt") or {})}


def _id(ref: str) -> str:
    return ref.removeprefix("minecraft:")


class _Data:
    """Files of one ref of a git directory, read through one ``git cat-file --batch``."""

    def __init__(self, git_dir: Path, ref: str) -> None:
        self.git_dir, self.ref = git_dir, ref
        self.proc = subprocess.Popen(["git", "-C", str(git_dir), "cat-file", "--batch"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def listing(self, folder: str) -> list[str]:
        """Paths of every file under ``folder``."""
        out = subprocess.run(["git", "-C", str(self.git_dir), "ls-tree", "-r", "--name-only", self.ref, folder],
                             check=True, capture_output=True, text=True).stdout
        return out.split()

    def read(self, path: str) -> bytes:
        """The bytes of one file."""
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(f"{self.ref}:{path}\n".encode())
        self.proc.stdin.flush()
        header = self.proc.stdout.readline().split()
        if header[-1] == b"missing":
            raise FileNotFoundError(path)
        data = self.proc.stdout.read(int(header[2]))
        self.proc.stdout.read(1)
        return data

    def json(self, path: str) -> Any:
        """One JSON file."""
        return json.loads(self.read(path))

    def template(self, name: str) -> dict[str, Any]:
        """One template's NBT by its id (``village/plains/houses/plains_small_house_1``)."""
        return _Reader(gzip.decompress(self.read(f"{DATA}structures/{name}.nbt"))).root()


def _rules(spec: Any, data: _Data) -> list[dict[str, Any]]:
    """The rule processors' rules of a pool element's processors (an id of a processor list, or inline)."""
    if isinstance(spec, str):
        spec = data.json(f"{DATA}worldgen/processor_list/{_id(spec)}.json")
    rules = []
    for proc in spec.get("processors", []):
        proc = proc.get("delegate", proc)  # a capped processor wraps a rule processor
        if proc.get("processor_type") == "minecraft:rule":
            rules += proc["rules"]
    return rules


def _processed(blocks: set[str], rules: list[dict[str, Any]]) -> set[str]:
    """The blocks rule processors put in place of blocks the template holds."""
    out = set()
    for rule in rules:
        source = rule["input_predicate"]
        if "block" in source and _name(source["block"]) not in blocks:
            continue
        out.add(_name(rule["output_state"]["Name"]))
    return out - NOT_PLACED


def _elements(element: dict[str, Any]) -> list[dict[str, Any]]:
    if element["element_type"] == "minecraft:list_pool_element":
        return [e for inner in element["elements"] for e in _elements(inner)]
    return [element]


def _states(config: Any, data: _Data, seen: set[str]) -> set[str]:
    """The block states a feature's config names (state providers, weighted lists), following nested features."""
    out: set[str] = set()
    if isinstance(config, dict):
        if isinstance(config.get("Name"), str):
            out.add(_name(config["Name"]))
        for key, value in config.items():
            if key == "feature" and isinstance(value, str):
                out |= feature_blocks(data, value, seen)
            else:
                out |= _states(value, data, seen)
    elif isinstance(config, list):
        for item in config:
            out |= _states(item, data, seen)
    return out


def feature_blocks(data: _Data, placed: str | dict[str, Any], seen: set[str] | None = None) -> set[str]:
    """The blocks a feature pool element's placed feature places: the states its configured feature names.

    A placed feature names its configured feature (by id or inline); a configured feature names block states in its
    state providers (a simple, rotated or weighted provider: a village's pumpkin pile holds 19 pumpkins to one jack
    o'lantern) and may name further placed features (a random patch of flowers), which are followed.
    """
    seen = set() if seen is None else seen
    if isinstance(placed, str):
        if f"placed:{placed}" in seen:
            return set()
        seen.add(f"placed:{placed}")
        placed = data.json(f"{DATA}worldgen/placed_feature/{_id(placed)}.json")
    feature = placed["feature"] if isinstance(placed, dict) and "feature" in placed else placed
    if isinstance(feature, str):
        if f"configured:{feature}" in seen:
            return set()
        seen.add(f"configured:{feature}")
        feature = data.json(f"{DATA}worldgen/configured_feature/{_id(feature)}.json")
    return _states(feature.get("config", {}), data, seen) - NOT_PLACED


def jigsaw_blocks(data: _Data, start_pool: str, missing: set[str]) -> set[str]:
    """The blocks of every template reachable from a start pool, with what its rule processors place.

    A pool may name a template the data lacks (1.20.1's ancient city walls name intact_horizontal_wall_stairs_5):
    the game places nothing for it, and its name goes into ``missing``.
    """
    seen_pools: set[str] = set()
    todo, blocks = [_id(start_pool)], set()
    while todo:
        pool = todo.pop()
        if pool in seen_pools or pool == "empty":
            continue
        seen_pools.add(pool)
        spec = data.json(f"{DATA}worldgen/template_pool/{pool}.json")
        todo.append(_id(spec.get("fallback", "minecraft:empty")))
        for entry in spec["elements"]:
            for element in _elements(entry["element"]):
                if "feature" in element:
                    blocks |= feature_blocks(data, element["feature"])
                    continue
                if "location" not in element:
                    continue  # an empty element places nothing
                try:
                    nbt = data.template(_id(element["location"]))
                except FileNotFoundError:
                    missing.add(_id(element["location"]))
                    continue
                own = template_blocks(nbt)
                blocks |= own | _processed(own, _rules(element.get("processors", {}), data))
                todo += sorted(template_pools(nbt))
    return blocks


def build(git_dir: Path, ref: str) -> dict[str, Any]:
    """The table: each block and the structures whose templates place it."""
    data = _Data(git_dir, ref)
    held: dict[str, set[str]] = defaultdict(set)
    missing: set[str] = set()
    for structure, name in JIGSAW.items():
        start = data.json(f"{DATA}worldgen/structure/{structure}.json")["start_pool"]
        for block in jigsaw_blocks(data, start, missing):
            held[block].add(name)
    for folder, name in CODE_PLACED.items():
        for path in data.listing(f"{DATA}structures/{folder}/"):
            template = path.removeprefix(f"{DATA}structures/").removesuffix(".nbt")
            for block in template_blocks(data.template(template)):
                held[block].add(name)
    return {"version": ref,
            "source": f"vanilla {ref} data (data/minecraft/structures/**.nbt and worldgen/structure, template_pool, "
                      "processor_list), extracted by the Datapack-Registry/default repository (tag "
                      f"{ref}); rebuilt by scripts/structure_templates.py",
            "missing_templates": sorted(missing),
            "blocks": {block: sorted(held[block]) for block in sorted(held)}}


def _dump(table: dict[str, Any]) -> str:
    """The table as JSON, a block a line (so that a diff shows the blocks that changed)."""
    head = {k: v for k, v in table.items() if k != "blocks"}
    lines = [f"  {json.dumps(k)}: {json.dumps(v)}," for k, v in head.items()]
    rows = [f"    {json.dumps(block)}: {json.dumps(held)}" for block, held in table["blocks"].items()]
    return "{\n" + "\n".join(lines) + '\n  "blocks": {\n' + ",\n".join(rows) + "\n  }\n}\n"


def main(argv: list[str] | None = None) -> int:
    """Write the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("git_dir", type=Path, help="a git directory of extracted vanilla data")
    parser.add_argument("--ref", default="1.20.1", help="the version's tag")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    table = build(args.git_dir, args.ref)
    args.out.write_text(_dump(table))
    print(f"{len(table['blocks'])} blocks in {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

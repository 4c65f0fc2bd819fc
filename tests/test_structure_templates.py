"""The table of blocks the 1.20 structure templates place (scripts/structure_templates.py) and its reader."""

from __future__ import annotations

import gzip
import importlib.util
import json
import struct
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "atoms" / "knowledge" / "structure_templates.json"


def _script():
    spec = importlib.util.spec_from_file_location("structure_templates", ROOT / "scripts" / "structure_templates.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _s(text: str) -> bytes:
    return struct.pack(">H", len(text)) + text.encode()


def _named(tag: int, name: str, payload: bytes) -> bytes:
    return bytes([tag]) + _s(name) + payload


def _compound(*fields: bytes) -> bytes:
    return b"".join(fields) + b"\x00"


def _list(tag: int, items: list[bytes]) -> bytes:
    return bytes([tag]) + struct.pack(">i", len(items)) + b"".join(items)


def _block(state: int, nbt: bytes = b"") -> bytes:
    pos = _named(9, "pos", _list(3, [struct.pack(">i", 0)] * 3))
    return _compound(pos, _named(3, "state", struct.pack(">i", state)), nbt)


def _template() -> bytes:
    """A template of four palette states, three used: stone bricks, a jigsaw that becomes a lantern, a data marker."""
    palette = [_compound(_named(8, "Name", _s(f"minecraft:{name}")))
               for name in ("stone_bricks", "jigsaw", "structure_block", "oak_planks")]
    jigsaw = _named(10, "nbt", _compound(_named(8, "final_state", _s("minecraft:lantern[hanging=true]")),
                                         _named(8, "pool", _s("minecraft:village/plains/decor"))))
    blocks = [_block(0), _block(1, jigsaw), _block(2)]
    root = _compound(_named(9, "size", _list(3, [struct.pack(">i", 1)] * 3)), _named(9, "entities", _list(0, [])),
                     _named(9, "blocks", _list(10, blocks)), _named(9, "palette", _list(10, palette)),
                     _named(11, "ints", struct.pack(">i", 2) + b"\x00" * 8))
    return gzip.compress(_named(10, "", root))


def test_a_template_places_its_used_palette_states_and_its_jigsaws_final_states():
    st = _script()
    nbt = st._Reader(gzip.decompress(_template())).root()
    # oak planks are in the palette but no block uses them; the structure block is a data marker
    assert st.template_blocks(nbt) == {"stone_bricks", "lantern"}
    assert st.template_pools(nbt) == {"village/plains/decor"}


def test_a_rule_processor_places_its_output_only_where_the_template_holds_its_input():
    st = _script()
    rules = [{"input_predicate": {"block": "minecraft:gravel"}, "output_state": {"Name": "minecraft:dirt"}},
             {"input_predicate": {"block": "minecraft:stone_bricks"},
              "output_state": {"Name": "minecraft:cracked_stone_bricks"}},
             {"input_predicate": {"predicate_type": "minecraft:always_true"},
              "output_state": {"Name": "minecraft:air"}}]
    assert st._processed({"stone_bricks"}, rules) == {"cracked_stone_bricks"}


def test_the_table_names_its_version_and_known_structures(library):
    table = json.loads(TABLE.read_text())
    assert table["version"] == "1.20.1" and "scripts/structure_templates.py" in table["source"]
    structures = {s for held in table["blocks"].values() for s in held}
    assert structures <= set(library.knowledge.structures)
    assert table["blocks"]["dragon_wall_head"] == ["end_city"]  # the end ship's bow
    assert "structure_block" not in table["blocks"] and "jigsaw" not in table["blocks"]


def test_rows_citing_the_templates_hold_what_the_templates_place(library):
    """A curated row that cites the 1.20 templates names each templated structure the table gives it."""
    table = json.loads(TABLE.read_text())["blocks"]
    templated = {s for held in table.values() for s in held}
    cited = [b for b in library.knowledge.structure_blocks.values() if "structure templates" in b.source]
    assert len(cited) >= 30
    for block in cited:
        assert {s for s in block.structures if s in templated} == set(table[block.name]), block.name

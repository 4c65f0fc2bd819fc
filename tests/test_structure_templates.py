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


def test_a_feature_element_places_the_states_its_configured_feature_names_through_nested_features():
    st = _script()
    pile = {"type": "minecraft:block_pile", "config": {"state_provider": {
        "type": "minecraft:weighted_state_provider",
        "entries": [{"data": {"Name": "minecraft:pumpkin"}, "weight": 19},
                    {"data": {"Name": "minecraft:jack_o_lantern", "Properties": {"facing": "north"}}, "weight": 1}]}}}
    patch = {"type": "minecraft:random_patch", "config": {"tries": 64, "feature": "minecraft:pile_pumpkin"}}
    files = {"placed_feature/pile_pumpkin": {"feature": "minecraft:pile_pumpkin", "placement": []},
             "configured_feature/pile_pumpkin": pile, "placed_feature/patch": {"feature": patch, "placement": []}}

    class Data:
        def json(self, path: str):
            return files[path.removeprefix(st.DATA + "worldgen/").removesuffix(".json")]

    assert st.feature_blocks(Data(), "minecraft:pile_pumpkin") == {"pumpkin", "jack_o_lantern"}
    assert st.feature_blocks(Data(), "minecraft:patch") == {"pumpkin", "jack_o_lantern"}  # an inline patch of piles


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
        named = {s for s in block.structures if s in templated} - set(block.beside_templates or {})
        assert named == set(table.get(block.name, [])), block.name


def test_every_rows_templated_structures_are_the_templates_unless_it_names_why(library):
    """A row names no templated structure whose 1.20.1 templates lack the block, unless ``beside_templates`` says why.

    The wiki's rows named structures the game's own templates contradict (acacia shipwrecks, a bastion's polished
    blackstone, a plains village's oak wood); a structure the code fills (an ocean ruin's chest marker) or processes (a
    nether ruined portal's blackstone) names its reason instead.
    """
    table = json.loads(TABLE.read_text())["blocks"]
    templated = {s for held in table.values() for s in held}
    for block in library.knowledge.structure_blocks.values():
        named = {s for s in block.structures if s in templated}
        excused = set(block.beside_templates or {})
        assert excused <= named, (block.name, excused - named)
        assert named - excused <= set(table.get(block.name, [])), (block.name, named - excused)
        assert not excused & set(table.get(block.name, [])), block.name  # a reason only where the table lacks it

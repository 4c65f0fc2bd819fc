"""MineStudio / MCU task configs: commands read into starts, tasks written as commands, and round trips."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from conftest import ROOT, cli, one_clean_line
from taskverse.interop.commands import CommandError, Names, Setup, read_command, tokens, write_commands
from taskverse.interop.minestudio import export_config, import_config
from taskverse.schema import Initialization

CONFIGS = ROOT / "tests" / "data" / "mcu_configs"


@pytest.fixture(scope="module")
def names(library):
    from taskverse.knowledge.renames import load_renames

    return Names(library.knowledge, load_renames(kn=library.knowledge))


def _read(commands: list[str], names: Names) -> tuple[Setup, list[str]]:
    setup, notes = Setup(), []
    for command in commands:
        notes += read_command(command, setup, names)
    return setup, notes


def test_each_command_sets_the_field_it_means(names):
    setup, notes = _read([
        "/give @s minecraft:iron_ingot 6", "/give @p minecraft:iron_ingot", "/give @s wool 2",
        "/replaceitem entity @s weapon.mainhand minecraft:iron_sword",
        "/item replace entity @s armor.head with minecraft:iron_helmet",
        "/summon minecraft:sheep ~2 ~ ~", "/summon sheep", "/time set 18000", "/weather thunder 600",
        "/execute as @p at @s run fill ~2 ~ ~2 ~4 ~ ~4 minecraft:melon", "/setblock ~2 ~ ~ minecraft:furnace",
        "/execute in minecraft:the_nether run tp @s ~ ~ ~", "/fillbiome ~-1 ~-1 ~-1 ~1 ~1 ~1 minecraft:desert",
    ], names)
    assert notes == []
    assert setup.overrides() == {
        "inventory": {"iron_ingot": 7, "white_wool": 2}, "main_hand": "iron_sword",
        "equipment": {"head": "iron_helmet"}, "summon": {"sheep": 2}, "time": "midnight", "weather": "thunder",
        "nearby_blocks": {"furnace": 1, "melon": 9}, "dimension": "nether", "biome": "desert"}


@pytest.mark.parametrize(("command", "says"), [
    ("/effect give @a night_vision 99999 250 true", "status effect"),
    ("/give @s minecraft:shovel 1", "unknown item 'minecraft:shovel'"),
    ("/summon boat", "unknown entity 'boat'"),
    ("/tp @s ~ ~-10 ~", "moves the player"),
    ("/time set dusk", "cannot read the time"),
    ("/give @e minecraft:stick", "not the player"),
    ("/give @s minecraft:stick{a:[1", "unbalanced"),
    ("/fill ~ ~ ~ ~1 ~ ~ minecraft:air", "clears blocks"),
    ("/gamerule doDaylightCycle false", "not something a taskverse start can say"),
    ("/give @s minecraft:stick ²", "not a positive whole number"),
    ("/give @s minecraft:stick 0", "not a positive whole number"),
    ("/fill ~ ~ ~ ~" + "9" * 4000 + " ~ ~ minecraft:stone", "cannot read the coordinate"),
    ("/fill 0 0 0 99999999 0 0 minecraft:stone", "beyond the world border"),
    ("/time set 1" + "0" * 100, "cannot read the time"),
    ("/summon", "missing arguments"),
    ("/" + "x" * 5000, "longer than"),
])
def test_what_a_start_cannot_say_is_an_error_with_the_reason(names, command, says):
    with pytest.raises(CommandError, match=says):
        read_command(command, Setup(), names)


def test_nbt_is_reported_and_the_rest_kept(names):
    setup, notes = _read(['/summon villager ~3 ~ ~3 {VillagerData:{profession:"minecraft:librarian"}}',
                          '/give @s minecraft:stick{display:{Name:"x"}}'], names)
    assert setup.summon == {"villager": 1} and setup.inventory == {"stick": 1}
    assert len(notes) == 2 and all("NBT" in note for note in notes)


def test_potions_and_enchanted_tools_are_the_library_items_their_nbt_names(names):
    setup, notes = _read(['/give @p minecraft:potion{Potion:"minecraft:harming"} 2',
                          '/give @s minecraft:splash_potion{Potion:"minecraft:long_swiftness"}',
                          '/give @s minecraft:potion{Potion:"minecraft:water"}',
                          '/give @s minecraft:diamond_shovel{Enchantments:[{id:"minecraft:efficiency",lvl:1}]}',
                          '/item replace entity @s weapon.mainhand with '
                          'minecraft:iron_pickaxe{Enchantments:[{id:"minecraft:silk_touch",lvl:1}]}'], names)
    assert notes == []
    assert setup.inventory == {"potion_of_harming": 2, "splash_potion_of_long_swiftness": 1, "water_bottle": 1,
                               "enchanted_diamond_shovel": 1}
    assert setup.main_hand == "silk_touch_iron_pickaxe"
    assert names.game_item("potion_of_harming") == 'minecraft:potion{Potion:"minecraft:harming"}'
    assert names.game_item("stick") == "minecraft:stick"


def test_counts_beyond_what_a_start_holds_are_reported(names):
    setup, notes = _read(["/fill ~ ~ ~ ~20 ~20 ~20 minecraft:stone"], names)
    assert notes == ["9261 stone in all: a start holds at most 2304"]
    assert setup.overrides()["nearby_blocks"] == {"stone": 2304}


def test_tokens_keep_nbt_whole():
    assert tokens('summon villager ~ ~ ~ {A:"x y",B:[1, 2]}') == ["summon", "villager", "~", "~", "~",
                                                                  '{A:"x y",B:[1, 2]}']


def test_written_commands_read_back_as_the_same_start(names):
    init = Initialization.model_validate({
        "inventory": {"coal": 3, "oak_planks": 100, "awkward_potion": 2, "enchanted_bow": 1},
        "main_hand": "silk_touch_iron_pickaxe",
        "equipment": {"head": "iron_helmet", "offhand": "shield"}, "nearby_blocks": {"stone": 130, "furnace": 1},
        "summon": [{"entity": "cow", "count": 2}], "time": "sunset", "weather": "rain", "dimension": "nether",
        "biome": "nether_wastes"})
    setup, notes = _read(write_commands(init, names), names)
    assert notes == []
    again = Initialization.model_validate(setup.overrides() | {
        "summon": [{"entity": e, "count": n} for e, n in setup.summon.items()]})
    assert again == init


# the 1.20 ids /place takes: data/minecraft/worldgen/structure/*.json of Minecraft Java Edition 1.20 (Minecraft Wiki,
# Structure: Data values), and the two configured features placed as structures of the library
GAME_STRUCTURES = {
    "ancient_city", "bastion_remnant", "buried_treasure", "desert_pyramid", "end_city", "fortress", "igloo",
    "jungle_pyramid", "mansion", "mineshaft", "mineshaft_mesa", "monument", "nether_fossil", "ocean_ruin_cold",
    "ocean_ruin_warm", "pillager_outpost", "ruined_portal", "ruined_portal_desert", "ruined_portal_jungle",
    "ruined_portal_mountain", "ruined_portal_nether", "ruined_portal_ocean", "ruined_portal_swamp", "shipwreck",
    "shipwreck_beached", "stronghold", "swamp_hut", "trail_ruins", "village_desert", "village_plains",
    "village_savanna", "village_snowy", "village_taiga"}
GAME_FEATURES = {"desert_well", "monster_room"}


def test_a_start_in_a_structure_is_placed_and_read_back(library, names):
    placed = 0
    for name, structure in sorted(library.knowledge.structures.items()):
        init = Initialization(structure=name, dimension=structure.dimension)
        if structure.placed is None:
            with pytest.raises(CommandError, match="no /place command builds it"):
                write_commands(init, names)
            continue
        for game_id in structure.placed.ids:  # every id of the game's is read as the library's structure
            assert game_id in (GAME_STRUCTURES if structure.placed.command == "structure" else GAME_FEATURES)
            setup, notes = _read([f"/place {structure.placed.command} minecraft:{game_id}"], names)
            assert (setup.structure, notes) == (name, [])
        commands = write_commands(init, names)
        assert commands[-1] == f"/place {structure.placed.command} minecraft:{structure.placed.ids[0]} ~ ~ ~"
        setup, notes = _read(commands, names)
        assert notes == []
        assert Initialization.model_validate(setup.overrides()) == init
        placed += 1
    assert placed >= 20


@pytest.mark.parametrize(("init", "says"), [
    (Initialization(structure="nether_fortress"), "generates it only in the nether"),
    (Initialization(structure="village", dimension="end"), "generates it only in the overworld"),
    (Initialization(structure="cave"), "carved out of the terrain"),
])
def test_a_structure_place_cannot_build_there_says_why(names, init, says):
    with pytest.raises(CommandError, match=says):
        write_commands(init, names)


@pytest.mark.parametrize(("command", "says"), [
    ("/place structure minecraft:villages", "no structure of the library is the structure 'minecraft:villages'"),
    ("/place feature minecraft:oak", "no structure of the library"),
    ("/place template minecraft:igloo/top", "builds a template"),
    ("/place structure minecraft:igloo 10 64 10", "absolute position"),
    ("/place structure minecraft:igloo ~ ~", "one position"),
])
def test_a_place_the_start_cannot_say_is_refused(names, command, says):
    with pytest.raises(CommandError, match=re.escape(says)):
        read_command(command, Setup(), names)


def _setup(init: Initialization) -> tuple:
    """What the round trip keeps: items and counts (carried, held, worn), mobs, blocks, time, weather, where."""
    return (init.inventory, init.main_hand, init.equipment, init.summon, init.nearby_blocks, init.time, init.weather,
            init.dimension, init.structure)


@pytest.mark.parametrize("path", sorted(CONFIGS.glob("*.yaml")), ids=lambda p: p.stem)
def test_shipped_configs_import_export_and_import_to_the_same_setup(path, library, names, tmp_path):
    first = import_config(path, library, names)
    assert first.error is None and first.problems == [], (first.error, first.problems)
    # the task starts with at least what the config gives
    given = first.config_start.get("inventory", {})
    have = dict(first.molecule.initialization.inventory)
    for held in [first.molecule.initialization.main_hand, *first.molecule.initialization.equipment.values()]:
        if held:
            have[held] = have.get(held, 0) + 1
    assert all(have.get(item, 0) >= n for item, n in given.items())
    exported = tmp_path / path.name
    exported.write_text(export_config(first.molecule, names))
    second = import_config(exported, library, names)
    assert second.problems == [] and second.beyond_config == {}
    assert _setup(second.molecule.initialization) == _setup(first.molecule.initialization)
    assert second.molecule.id == first.molecule.id


def test_every_skillforge_task_exports_to_commands_that_read_back(library, names, tmp_path):
    from taskverse.benchmarks.suites import load_suite, resolve_suite_task

    exported = skipped = 0
    for item in load_suite("SkillForge").tasks:
        task = resolve_suite_task(item, library)
        try:
            text = export_config(task, names)
        except CommandError as exc:
            assert "structure" in str(exc)
            skipped += 1
            continue
        for command in yaml.safe_load(text)["custom_init_commands"]:  # real 1.20 ids, components as NBT
            if command.startswith("/place"):
                assert command.split()[2].removeprefix("minecraft:") in GAME_STRUCTURES | GAME_FEATURES
            if command.startswith(("/give", "/item")):
                game_item = re.search(r"minecraft:([a-z_]+)", command.split()[-2 if command.startswith("/give")
                                                                           else -1]).group(1)
                assert game_item in library.knowledge.items, (task.id, command)
        path = tmp_path / f"{task.id}.yaml"
        path.write_text(text)
        again = import_config(path, library, names)
        assert again.problems == [] and again.error is None, (task.id, again.problems, again.error)
        assert again.molecule.initialization == task.initialization, task.id
        exported += 1
    assert exported > 0.9 * (exported + skipped)


def test_cli_import_reports_each_command_not_understood_by_file_and_line(tmp_path):
    config = tmp_path / "combat.yaml"
    config.write_text("custom_init_commands:\n- /give @s minecraft:iron_sword\n- /effect give @a night_vision 9\n"
                      "- /summon minecraft:zombie ~2 ~ ~\n- /time set night\ntext: combat and kill zombies\n")
    out = tmp_path / "out"
    result = cli("import", str(config), "-o", str(out), "--format", "json")
    assert result.exit_code == 1
    assert result.stderr.strip().splitlines() == [
        f"warning: {config}:3: /effect give @a night_vision 9: not understood, left out: "
        "a status effect is not part of a taskverse start", f"wrote 1 molecules to {out}"]
    import json

    data = json.loads(result.stdout)
    assert data["summary"]["imported"] == 1 and data["files"][0]["problems"][0]["line"] == 3
    written = (out / "combat.yaml").read_text()
    assert "kind: molecule" in written and "zombie" in written


def test_cli_import_refuses_a_file_that_is_not_a_config_in_one_line(tmp_path):
    bad = tmp_path / "atom.yaml"
    bad.write_text("id: craft.stick\ndescription: craft stick\n")
    one_clean_line(cli("import", str(bad)), "not a MineStudio task config", str(bad))


def test_cli_import_says_which_text_it_cannot_read(tmp_path):
    config = tmp_path / "garden.yaml"
    config.write_text("custom_init_commands: [/give @s minecraft:poppy 3]\ntext: juggle three pumpkins\n")
    one_clean_line(cli("import", str(config)), "garden.yaml: not imported: text 'juggle three pumpkins'",
                   code=1)


def test_cli_export_writes_one_config_per_task_and_says_what_it_left_out(tmp_path):
    out = tmp_path / "configs"
    result = cli("export", "craft.iron_sword", "combat zombie @ when=night", "--to", "minestudio", "-o", str(out))
    assert result.exit_code == 0, result.stderr
    files = sorted(p.name for p in Path(out).iterdir())
    assert "craft.iron_sword.yaml" in files and len(files) == 2
    text = (out / "craft.iron_sword.yaml").read_text()
    assert "/give @s minecraft:iron_ingot 2" in text and "text: craft iron_sword" in text
    assert "taskverse:" in text and "expression:" in text
    (out / "craft.iron_sword.yaml").write_text("edited\n")
    one_clean_line(cli("export", "craft.iron_sword", "--to", "minestudio", "-o", str(out)), "--force")
    assert cli("export", "craft.iron_sword", "--to", "minestudio", "-o", str(out), "--force").exit_code == 0
    assert (out / "craft.iron_sword.yaml").read_text() == text


def test_cli_export_goes_on_past_a_task_no_command_can_set_up(tmp_path):
    result = cli("export", "init(craft stick, structure=cave)", "craft.stick",
                 "init(craft stick, structure=stronghold)", "--to", "minestudio", "-o", str(tmp_path / "out"),
                 "--format", "json")
    assert result.exit_code == 1
    assert "not exported: starts in or near the structure cave: no /place command builds it" in result.stderr
    import json

    data = json.loads(result.stdout)
    assert len(data["written"]) == 2 and data["written"][0]["id"] == "craft.stick" and len(data["skipped"]) == 1
    placed = (tmp_path / "out" / f"{data['written'][1]['id']}.yaml").read_text()
    assert "/place structure minecraft:stronghold ~ ~ ~" in placed


def test_cli_import_of_a_folder_keeps_its_layout_and_checks_outputs_first(tmp_path):
    for group in ("simple", "hard"):
        (tmp_path / "in" / group).mkdir(parents=True)
        (tmp_path / "in" / group / "find_sand.yaml").write_text(
            "custom_init_commands: [/give @s minecraft:bucket]\ntext: find sand\n")
    (tmp_path / "in" / "notes.yaml").write_text("just: notes\n")
    out = tmp_path / "out"
    result = cli("import", str(tmp_path / "in"), "-o", str(out))
    assert result.exit_code == 1  # notes.yaml is not a config: said in one line, the rest imported
    assert [line for line in result.stderr.splitlines() if "notes.yaml" in line] == [
        f"error: {tmp_path / 'in' / 'notes.yaml'}: not imported: not a MineStudio task config (expected a mapping with "
        "custom_init_commands and text)"]
    assert (out / "simple" / "find_sand.yaml").is_file() and (out / "hard" / "find_sand.yaml").is_file()
    (out / "hard" / "find_sand.yaml").write_text("edited\n")
    again = cli("import", str(tmp_path / "in" / "simple"), "-o", str(out / "simple"))
    one_clean_line(again, "already exists; add --force")

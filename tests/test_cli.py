import json

from conftest import cli_json, run_cli


def test_list_filters_by_category():
    rows = cli_json("list", "--category", "combat")
    assert rows and all(r["category"] == "combat" for r in rows)
    bad = run_cli("list", "--category", "cooking")
    assert bad.returncode == 2 and "unknown category" in bad.stderr


def test_show_by_id_description_and_file(tmp_path):
    by_id = cli_json("show", "craft.iron_sword")
    by_text = cli_json("show", "Craft an iron_sword")
    assert by_id == by_text
    assert by_id["initialization"]["inventory"] == {"crafting_table": 1, "iron_ingot": 2, "stick": 1}
    assert "craft.stick" in by_id["pre_tasks"] and by_id["dependency_graph"]["nodes"] > 10
    assert set(by_id["difficulty"]) == {"time_consumption", "operational_effort", "planning_complexity",
                                        "intricacy", "creativity", "novelty"}
    path = tmp_path / "t.yaml"
    path.write_text(run_cli("show", "craft.iron_sword").stdout)
    assert run_cli("validate", str(path)).returncode != 0  # show's extras (dependency_graph) are not task fields
    yaml_out = run_cli("show", "hunt sheep")
    assert yaml_out.returncode == 0 and "id: hunt.sheep" in yaml_out.stdout


def test_graph_outputs(tmp_path):
    dot = run_cli("graph", "craft bed")
    assert dot.returncode == 0 and dot.stdout.startswith("digraph") and "any planks" in dot.stdout
    for suffix in ("dot", "png", "svg"):
        out = tmp_path / f"bed.{suffix}"
        result = run_cli("graph", "craft bed", "-o", str(out))
        assert result.returncode == 0, result.stderr
        assert out.stat().st_size > 500
    assert (tmp_path / "bed.png").read_bytes()[:4] == b"\x89PNG"
    assert run_cli("graph", "craft bed", "-o", str(tmp_path / "bed.gif")).returncode == 2


def test_dot_labels_are_escaped(library):
    from taskverse.library.render import to_dot

    graph = library.world.dependency_graph("craft.stick")
    text = to_dot(graph, 'evil "title"\n]] --')
    assert '"evil \\"title\\"\\n]] --"' in text


def test_summary_and_version():
    summary = cli_json("summary")
    assert summary["atoms"] >= 3000
    assert run_cli("--version").stdout.startswith("taskverse")
    help_text = run_cli("--help").stdout
    for command in ("list", "show", "validate", "graph", "schema"):
        assert command in help_text
    assert json.loads(run_cli("validate", "--format", "json").stdout)["valid"] is True


def test_list_molecules_of_the_suites():
    molecules = cli_json("list", "--kind", "molecule")
    assert molecules and all(m["kind"] == "molecule" and m["id"].startswith("mol.") for m in molecules)
    atoms = cli_json("list", "--kind", "atom")
    assert all(a["kind"] == "atom" for a in atoms)
    assert len(cli_json("list")) == len(atoms) + len(molecules)

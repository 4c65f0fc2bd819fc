
from conftest import cli, in_process_json, run_cli


def test_list_filters_by_category():
    rows = in_process_json("list", "--category", "combat")
    assert rows and all(r["category"] == "combat" for r in rows)
    bad = cli("list", "--category", "cooking")
    assert bad.exit_code == 2 and "unknown category" in bad.stderr


def test_show_by_id_description_and_file(tmp_path):
    by_id = in_process_json("show", "craft.iron_sword")
    by_text = in_process_json("show", "Craft an iron_sword")
    assert by_id == by_text
    assert by_id["initialization"]["inventory"] == {"crafting_table": 1, "iron_ingot": 2, "stick": 1}
    assert "craft.stick" in by_id["pre_tasks"] and by_id["dependency_graph"]["nodes"] > 10
    assert set(by_id["difficulty"]) == {"time_consumption", "operational_effort", "planning_complexity",
                                        "intricacy", "creativity", "novelty"}
    path = tmp_path / "t.yaml"
    path.write_text(cli("show", "craft.iron_sword").stdout)
    assert cli("validate", str(path)).exit_code != 0  # show's extras (dependency_graph) are not task fields
    yaml_out = cli("show", "hunt sheep")
    assert yaml_out.exit_code == 0 and "id: hunt.sheep" in yaml_out.stdout


def test_graph_outputs(tmp_path):
    dot = cli("graph", "craft bed")
    assert dot.exit_code == 0 and dot.stdout.startswith("digraph") and "any planks" in dot.stdout
    # drawn: the stick's graph (planks of any wood too), a tenth of the bed's to draw
    for task, suffix in (("craft bed", "dot"), ("craft stick", "png"), ("craft stick", "svg")):
        out = tmp_path / f"graph.{suffix}"
        result = cli("graph", task, "-o", str(out))
        assert result.exit_code == 0, result.stderr
        assert out.stat().st_size > 500
    assert (tmp_path / "graph.png").read_bytes()[:4] == b"\x89PNG"
    assert "<svg" in (tmp_path / "graph.svg").read_text()
    assert cli("graph", "craft bed", "-o", str(tmp_path / "bed.gif")).exit_code == 2


def test_dot_labels_are_escaped(library):
    from taskverse.library.render import to_dot

    graph = library.world.dependency_graph("craft.stick")
    text = to_dot(graph, 'evil "title"\n]] --')
    assert '"evil \\"title\\"\\n]] --"' in text


def test_summary_and_version():
    summary = in_process_json("summary")
    assert summary["atoms"] >= 3000
    assert run_cli("--version").stdout.startswith("taskverse")  # the installed command, as a user runs it
    help_text = cli("--help").stdout
    for command in ("list", "show", "validate", "graph", "schema"):
        assert command in help_text
    assert in_process_json("validate")["valid"] is True


def test_list_molecules_of_the_suites():
    molecules = in_process_json("list", "--kind", "molecule")
    assert molecules and all(m["kind"] == "molecule" and m["id"].startswith("mol.") for m in molecules)
    atoms = in_process_json("list", "--kind", "atom")
    assert all(a["kind"] == "atom" for a in atoms)
    assert len(in_process_json("list")) == len(atoms) + len(molecules)

"""The literature's benchmarks (MCU Appendix B) map onto the library, and coverage says why lines do not."""

from taskverse.benchmarks.coverage import coverage
from taskverse.benchmarks.suites import build_literature, expand_family, load_papers


def test_sixteen_papers_and_every_task_is_in_the_library(library):
    papers = load_papers()
    assert len(papers) == 16
    for paper in papers:
        for name in paper.tasks:
            library.get(name)  # raises if a paper's task is missing
        suite = build_literature(paper, library)
        assert suite, paper.key
        for item in suite:
            target = item.expression.part.task if item.expression is not None else item.id
            assert target in library.by_id


def test_families_expand_to_their_items(library):
    tree = expand_family("tech_tree", library)
    assert "obtain.diamond_pickaxe" in tree and "obtain.iron_ingot" in tree
    assert "obtain.blaze_rod" not in tree  # needs the nether
    task101 = expand_family("task101", library)
    assert "craft.iron_pickaxe" in task101 and "equip.iron_helmet" in task101


def test_coverage_maps_same_meaning_only(library):
    report = coverage(["Mine oak wood", "Obtain cooked_beef", "Combat a zombie", "craft XXX", "",
                       "# a comment", "Craft a replica of the Titanic", "mine oak wod", "hunt sheep at night",
                       "plant wheat seeds and then carve pumpkin", "Mine diamond from scratch",
                       "mine obsidian with bare hands", "design a city"], library)
    by_text = {row["text"]: row for row in report["lines"]}
    assert by_text["Mine oak wood"]["task"] == "mine.oak_log"
    assert by_text["Combat a zombie"]["task"] == "combat.zombie"
    assert by_text["craft XXX"]["kind"] == "family"
    assert not by_text["mine oak wod"]["mapped"] and "oak_wood" in by_text["mine oak wod"]["reason"]
    assert by_text["hunt sheep at night"]["kind"] == "molecule"
    assert by_text["plant wheat seeds and then carve pumpkin"]["kind"] == "molecule"
    assert "infeasible" in by_text["mine obsidian with bare hands"]["reason"]
    assert "verb 'design'" in by_text["design a city"]["reason"]
    assert report["total"] == 11 and report["covered"] == 7

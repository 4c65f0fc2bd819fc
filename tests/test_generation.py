"""Derived files rebuild exactly: the knowledge file from the pinned data package, the atoms from the knowledge."""

import subprocess
import sys

from conftest import ROOT


def _run(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(ROOT / "scripts" / script), *args], capture_output=True, text=True,
                          cwd=ROOT)


def test_knowledge_file_rebuilds_byte_for_byte_from_the_pinned_package():
    result = _run("build_knowledge.py", "--check")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "up to date" in result.stdout


def test_generator_is_deterministic_and_the_committed_library_is_current():
    result = _run("generate_atoms.py", "--check")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 file(s) out of date" in result.stdout


def test_generation_into_a_fresh_copy_gives_identical_files(tmp_path):
    import shutil

    from taskverse.knowledge.facts import load_knowledge
    from taskverse.library.generate import write_library

    copy = tmp_path / "atoms"
    shutil.copytree(ROOT / "atoms", copy)
    generated = [p for p in copy.glob("*/*.yaml") if p.name != "curated.yaml" and "knowledge" not in p.parts]
    for path in generated:
        path.unlink()
    changed = write_library(copy, load_knowledge())
    assert changed  # everything was rewritten
    for path in generated:
        assert path.read_text() == (ROOT / "atoms" / path.relative_to(copy)).read_text(), path
    assert write_library(copy, load_knowledge()) == []  # and a second run changes nothing

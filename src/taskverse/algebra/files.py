"""Molecule task files: YAML in the task schema, loaded back equal, re-checked against the library."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import ValidationError

from taskverse.algebra.molecule import MoleculeTask, build_molecule
from taskverse.errors import TaskverseError
from taskverse.fileio import read_text
from taskverse.yamlio import dump_yaml, line_of, parse_yaml, validation_errors


def molecule_to_yaml(molecule: MoleculeTask) -> str:
    """The molecule as YAML (fields at their empty defaults are left out)."""
    return dump_yaml(molecule.model_dump(mode="json", exclude_none=True))


def load_molecule_file(path: Path, library: Any, text: str | None = None) -> MoleculeTask | None:
    """Load a molecule YAML file (None if the file holds an atom); check it is what its expression builds.

    Raises the first problem as a TaskverseError (``check_molecule_file`` collects them all).
    """
    molecule, errors = check_molecule_file(path, library, text)
    if errors:
        raise errors[0]
    return molecule


def check_molecule_file(path: Path, library: Any, text: str | None = None,
                        ) -> tuple[MoleculeTask | None, list[TaskverseError]]:
    """A molecule YAML file and every problem in it: all its schema errors, else what rebuilding it finds.

    The molecule is None if the file is invalid or holds an atom. A YAML syntax error is raised.
    """
    text = read_text(path, "task file") if text is None else text
    data = parse_yaml(text, path)
    if not isinstance(data, dict) or data.get("kind") != "molecule":
        return None, []
    try:
        molecule = MoleculeTask.model_validate(data)
    except ValidationError as exc:
        return None, validation_errors(exc, path, text, (), data)
    try:
        rebuilt = build_molecule(molecule.expression, library, tags=molecule.tags)
    except TaskverseError as exc:
        return None, [TaskverseError(exc.message, file=path, line=line_of(text, ("expression",)),
                                     field="expression", suggestions=exc.suggestions)]
    if rebuilt.id != molecule.id:
        return None, [TaskverseError(f"id does not match the expression (expected {rebuilt.id})", file=path,
                                     line=line_of(text, ("id",)), field="id")]
    return molecule, []

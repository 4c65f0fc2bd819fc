"""Every notebook runs top to bottom on a fresh install (executed here, as CI does)."""

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from conftest import HANG_GUARD

NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("*.ipynb"))


def test_there_are_notebooks():
    assert len(NOTEBOOKS) >= 2


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs_without_error(path, tmp_path):
    nb = nbformat.read(path, as_version=4)
    # no time limits: a cell may take as long as a busy machine needs (timeout=None), and so may the kernel's start
    # and a cell's last outputs (nbclient's defaults: 60 s and 4 s); the hang guard only ends a kernel that never
    # starts or never finishes sending
    NotebookClient(nb, timeout=None, startup_timeout=int(HANG_GUARD), iopub_timeout=int(HANG_GUARD),
                   kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []) if o.output_type == "error"]
    assert not errors

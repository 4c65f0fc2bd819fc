"""Regenerate the atom library under ``atoms/`` from the knowledge files.

Deterministic: running it again changes no file. ``--check`` exits 1 if any generated file is out of date.
"""

from __future__ import annotations

import argparse
import sys

from taskverse.errors import TaskverseError
from taskverse.knowledge.facts import load_knowledge
from taskverse.library.generate import write_library
from taskverse.paths import atoms_dir


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="report out-of-date files instead of writing")
    args = parser.parse_args()
    try:
        changed = write_library(atoms_dir(), load_knowledge(), check=args.check)
    except TaskverseError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    verb = "out of date" if args.check else "written"
    for rel in changed:
        print(f"{verb}: atoms/{rel}")
    print(f"{len(changed)} file(s) {verb}")
    return 1 if args.check and changed else 0


if __name__ == "__main__":
    sys.exit(main())

"""Issue 22's figures: MCU / MineStudio task configs imported, and exported and imported again (the round trip).

Usage: python scripts/perf/mcu_configs.py [FOLDER]

FOLDER holds task configs (every .yaml under it), for instance MCU's ``MCU_benchmark/task_configs`` from a
checkout of https://github.com/CraftJarvis/MCU (182 configs at commit ``bfb7c1d``, which has no licence file, so
they are not shipped here); the default is the MineStudio copies in ``tests/data/mcu_configs``. Prints how many
import, how many with every command understood, how many need nothing beyond what the config gives, how many are
read with no task (the text asks what no task can judge, the reason named), the reasons the others fail (grouped),
and the round trip: each imported task exported as a MineStudio config and imported
again, compared on what a setup is (items and counts carried, held and worn, mobs, nearby blocks, time,
weather) and on the molecule's id. ``--list`` prints every file's result.
"""

from __future__ import annotations

import argparse
import re
import tempfile
import time
from collections import Counter
from pathlib import Path

from taskverse.cli.interop import config_files
from taskverse.errors import TaskverseError
from taskverse.interop.commands import CommandError, Names
from taskverse.interop.minestudio import export_config, import_config
from taskverse.knowledge.renames import load_renames
from taskverse.library.loader import load_library

ROOT = Path(__file__).resolve().parents[2]


def setup_of(init) -> tuple:
    """What the round trip keeps (as tests/test_interop.py compares it)."""
    return (init.inventory, init.main_hand, init.equipment, init.summon, init.nearby_blocks, init.time, init.weather,
            init.dimension, init.structure)


def reason_group(error: str) -> str:
    """A failure's reason without the config's own words, to group failures by."""
    reason = error.split(": ", 1)[1] if error.startswith("text ") and ": " in error else error
    return re.sub(r"'[^']*'|\"[^\"]*\"", "'…'", reason)[:90]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", nargs="?", type=Path, default=ROOT / "tests" / "data" / "mcu_configs",
                        help="the folder of task configs to import")
    parser.add_argument("--list", action="store_true", help="list every config with what became of it")
    args = parser.parse_args()
    listing, folder = args.list, args.folder
    started = time.perf_counter()
    library = load_library()
    names = Names(library.knowledge, load_renames(kn=library.knowledge))
    files = config_files(folder)
    loaded = time.perf_counter()
    imported, understood, nothing_beyond, same, same_id, not_exported = [], 0, 0, 0, 0, []
    failures: Counter[str] = Counter()
    no_task: Counter[str] = Counter()
    rows = []
    with tempfile.TemporaryDirectory(prefix="taskverse-roundtrip-") as tmp:
        for path in files:
            try:
                first = import_config(path, library, names)
            except TaskverseError as exc:
                failures[f"not a config: {reason_group(exc.message)}"] += 1
                rows.append((path, "not a config", exc.message))
                continue
            if first.no_task is not None:
                no_task[reason_group(first.no_task)] += 1
                rows.append((path, "read, no task", first.no_task))
                continue
            if first.molecule is None:
                failures[reason_group(first.error or "")] += 1
                rows.append((path, "not imported", first.error))
                continue
            imported.append(first)
            understood += not first.problems
            nothing_beyond += not first.beyond_config
            try:
                text = export_config(first.molecule, names)
            except CommandError as exc:
                not_exported.append((path, str(exc)))
                rows.append((path, "imported, not exported", str(exc)))
                continue
            again_path = Path(tmp) / f"{len(imported)}.yaml"
            again_path.write_text(text)
            second = import_config(again_path, library, names)
            kept = second.molecule is not None and setup_of(second.molecule.initialization) == setup_of(
                first.molecule.initialization)
            same += kept
            same_id += second.molecule is not None and second.molecule.id == first.molecule.id
            rows.append((path, "round trip " + ("same setup" if kept else "DIFFERS"),
                         "; ".join(str(p) for p in first.problems)[:200]))
    done = time.perf_counter()
    total = len(files)
    print(f"configs under {folder}: {total}")
    print(f"  imported: {len(imported)} ({len(imported) / total:.1%})")
    print(f"    every command understood: {understood}")
    print(f"    need nothing beyond what the config gives: {nothing_beyond}")
    print(f"  read with no task, named (free-form, or not possible in the game): {sum(no_task.values())}, by "
          "reason:")
    for reason, count in no_task.most_common():
        print(f"    {count:4d}  {reason}")
    print(f"  not imported: {total - len(imported) - sum(no_task.values())}, by reason:")
    for reason, count in failures.most_common(12):
        print(f"    {count:4d}  {reason}")
    rest = sum(failures.values()) - sum(c for _, c in failures.most_common(12))
    if rest:
        print(f"    {rest:4d}  (other reasons)")
    exported = len(imported) - len(not_exported)
    print(f"round trip (import, export, import): {exported} of {len(imported)} imported configs export")
    if exported:
        print("  same setup (items and counts, held, worn, mobs, blocks, time, weather, dimension, structure): "
              f"{same} of {exported} "
              f"({same / exported:.1%}); same molecule id: {same_id}")
    for path, reason in not_exported:
        print(f"  not exported: {path.relative_to(folder)}: {reason}")
    print(f"time: library {loaded - started:.1f} s, {total} configs {done - loaded:.1f} s "
          f"({(done - loaded) / max(total, 1) * 1000:.0f} ms a config)")
    if listing:
        for path, status, detail in rows:
            print(f"{path.relative_to(folder)}\t{status}\t{detail or ''}")


if __name__ == "__main__":
    main()

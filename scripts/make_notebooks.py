"""Write the notebooks under ``notebooks/`` from the cell sources below, then run them (outputs kept small).

    python scripts/make_notebooks.py            # write and execute every notebook
    python scripts/make_notebooks.py --no-run   # write only

The notebooks are the source of truth once written; this script keeps them reproducible.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS: dict[str, list[tuple[str, str]]] = {}


def notebook(name: str, cells: list[tuple[str, str]]) -> None:
    NOTEBOOKS[name] = cells


notebook("01_composing_tasks.ipynb", [
    ("md", "# Composing tasks\n\nAtoms come from the library; molecules are built with the task algebra "
           "(MCU Section 2.2): combination (`&`, `|`, `>>`), constraints (when / where / how) and custom "
           "initialization (`naive`, `custom`). Every molecule saves to YAML and compiles to a Lua mod."),
    ("code", "from taskverse import load_library\nlibrary = load_library()\nsword = library.get('craft iron_sword')\n"
             "print(sword.id, sword.category.value, sword.initialization.inventory)\n"
             "print(len(library.world.pre_tasks(sword.id)), 'pre-tasks, e.g.', library.world.pre_tasks(sword.id)[:4])"),
    ("code", "from taskverse.algebra.expr import naive, ref\nfrom taskverse.algebra.molecule import build_molecule\n"
             "expr = (ref('plant.pumpkin_seeds') >> ref('use.carve_pumpkin')) & ref('hunt.sheep').at(when='night')\n"
             "molecule = build_molecule(expr, library)\nprint(molecule.id)\nprint(molecule.description)\n"
             "print(molecule.initialization.model_dump(exclude_defaults=True))"),
    ("md", "The same with the expression grammar of `taskverse compose`, and an infeasible composition:"),
    ("code", "from taskverse.algebra.parse import parse_expression\nfrom taskverse.errors import TaskverseError\n"
             "same = build_molecule(parse_expression('hunt sheep @ when=night & (plant pumpkin_seeds >> carve "
             "pumpkin)'), library)\nprint('same id:', same.id == molecule.id)\ntry:\n"
             "    build_molecule(parse_expression('mine obsidian @ how=bare_hand'), library)\n"
             "except TaskverseError as exc:\n    print('rejected:', exc)"),
    ("md", "## What counts as success\nThe evaluator reads a trace of events; THEN is order-sensitive, AND is not."),
    ("code", "from taskverse.algebra.semantics import Evaluator, GameEvent\n"
     "evaluator = Evaluator.for_library(library)\n"
             "trace = [GameEvent(event='kill', target='sheep', time='night'),\n"
             "         GameEvent(event='place', target='pumpkin_stem'),\n"
             "         GameEvent(event='use', target='pumpkin', held='shears')]\n"
             "print(evaluator.evaluate(expr, trace))\nprint(evaluator.evaluate(expr, list(reversed(trace))))"),
    ("md", "## YAML round trip, difficulty, and a Lua mod"),
    ("code", "from taskverse.algebra.molecule import MoleculeTask\n"
     "from taskverse.algebra.files import molecule_to_yaml\n"
             "from taskverse.yamlio import parse_yaml\ntext = molecule_to_yaml(molecule)\n"
             "print(MoleculeTask.model_validate(parse_yaml(text)) == molecule)\n"
             "from taskverse.difficulty.scores import scores\nd = scores(molecule, library)\n"
             "print({k: round(v.calibrated, 2) for k, v in d if v is not None and v.calibrated is not None})"),
    ("code", "import tempfile, pathlib\nfrom taskverse.engine.compiler import compile_task\n"
             "from taskverse.engine.lua import write_env\n"
             "ir = compile_task(build_molecule(parse_expression('naive(craft wooden_pickaxe)'), library), library)\n"
             "out = pathlib.Path(tempfile.mkdtemp()) / 'env'\nfiles = write_env(ir, out)\n"
             "print(sorted(str(f.relative_to(out)) for f in files)[:6])\n"
             "print((out / 'mods' / 'taskverse_task' / 'init.lua').read_text()[:400])"),
])

notebook("02_benchmarks.ipynb", [
    ("md", "# Building and filtering benchmarks\n\nSuites are files in `benchmarks/`, built deterministically "
           "from `benchmarks/suites.yaml` (SkillForge and its filtered versions) and `benchmarks/literature.yaml` "
           "(the 16 papers of MCU Appendix B). Every task carries a content hash."),
    ("code", "from taskverse import load_library\nfrom taskverse.cli.suites import scorer_for\n"
             "from taskverse.benchmarks.suites import load_suite, entries, suite_names\n"
             "from taskverse.benchmarks.filters import parse_filter\n\nlibrary = load_library()\n"
             "score = scorer_for(library)\n"
             "print(len(suite_names()), 'suites:', ', '.join(suite_names()[:10]), '...')"),
    ("code", "skillforge = load_suite('SkillForge')\nprint(skillforge.built_with)\n"
             "for item in skillforge.tasks[:5]:\n    print(item.id, item.hash, item.description)"),
    ("md", "## Filters\nThe filter language works over categories, verbs, initialization, number of atoms, tags and "
           "every difficulty score (calibrated, or `raw.<dimension>`)."),
    ("code", "pool = entries(library, score)\nplanning = parse_filter('init=naive and planning_complexity>=4 and "
             "category=crafting')\nhits = [e for e in pool if planning(e)]\nprint(len(pool), 'tasks;', len(hits), "
             "'match', planning.describe())\nfor e in hits[:5]:\n    print(' ', e.description, "
             "round(e.calibrated['planning_complexity'], 2))"),
    ("md", "## Expressivity (MCU Section 4.1)\nAny benchmark's task list maps onto the library, line by line."),
    ("code", "from taskverse.benchmarks.coverage import coverage\n"
     "report = coverage(['Mine oak wood', 'Obtain cooked_beef', "
             "'Combat a zombie', 'craft XXX', 'plant wheat seeds and then carve pumpkin', "
             "'Craft a replica of the Titanic'], library)\nfor row in report['lines']:\n"
             "    print(row['text'], '->', row['task'] or row['reason'])\nprint('covered', report['share'])"),
])

notebook("03_task_space.ipynb", [
    ("md", "# The task space (MCU Section 4.2, Figures 3 and 4)\n\nEach task is a point in R^6: its calibrated "
           "difficulty scores. We embed SkillForge with t-SNE, measure how categories cluster, and compare the "
           "difficulty distributions of the literature's benchmarks with SkillForge."),
    ("code", "import matplotlib\nmatplotlib.use('Agg')\nfrom IPython.display import Image, display\n"
             "from taskverse import load_library\nfrom taskverse.cli.space import space_points\n"
             "from taskverse.benchmarks.space import embed, clustering, scatter_png\nimport tempfile, pathlib\n"
             "out = pathlib.Path(tempfile.mkdtemp())  # figures go to a scratch folder, not the repository\n"
             "library = load_library()\n"
             "points = space_points('SkillForge', library)\ncoords = embed(points, seed=0)\n"
             "print(clustering(points, coords))"),
    ("code", "scatter_png(points, coords, out / 'space.png', 'SkillForge task space', "
             "label_ids=[p.id for p in points[:6]])\ndisplay(Image(out / 'space.png', width=480))"),
    ("md", "Silhouette scores near zero mean the categories overlap in our task space; the paper reports "
           "clusters. SkillForge picks the most dissimilar tasks within each category, which spreads each "
           "category out."),
    ("code", "import numpy as np\nfrom taskverse.benchmarks.bias import compare, heatmap\n"
     "from taskverse.cli.suites import "
             "scorer_for, suite_vectors\nfrom taskverse.benchmarks.suites import literature_suite_name, load_papers\n"
             "score = scorer_for(library)\nexisting = suite_vectors([literature_suite_name(p) for p in load_papers()],"
             " library, score)\nskillforge = suite_vectors(['SkillForge'], library, score)\n"
             "result = compare(existing, skillforge, ('Existing benchmarks', 'SkillForge'))\n"
             "for d in result.means:\n    print(f'{d:<20} mean {result.means[d][0]:.2f} vs {result.means[d][1]:.2f}  "
             "spread {result.spread[d][0]:.2f} vs {result.spread[d][1]:.2f}  JS {result.jensen_shannon[d]:.3f}')"),
    ("code", "heatmap(result, out / 'bias.png')\ndisplay(Image(out / 'bias.png', width=560))"),
])


notebook("04_planners.ipynb", [
    ("md", "# Evaluating planners in SkillForge-text\n\nThe text-only environment of MCU Appendix D: each step "
           "the agent picks one atom whose dependencies are met. We compare the random, greedy and optimal "
           "baselines on SkillForge-Chain (naive-initialized tasks)."),
    ("code", "import gymnasium\nimport taskverse.textenv.env  # registers the environments\n"
             "env = gymnasium.make('taskverse/SkillForgeText-v0', task='craft wooden_pickaxe')\n"
             "text, info = env.reset(seed=0)\nprint(text[:600])"),
    ("code", "from taskverse import load_library\nfrom taskverse.textenv.evaluation import evaluate, suite_tasks\n"
             "library = load_library()\ntasks = suite_tasks('SkillForge-Chain', library)[:20]\nreports = {}\n"
             "for agent in ('random', 'greedy', 'optimal'):\n"
             "    reports[agent] = evaluate(agent, tasks, episodes=1, seed=0, library=library, progress=False)\n"
             "    s = reports[agent]['summary']\n"
             "    print(f\"{agent:<8} success {s['success_rate']:.2f}  mean steps {s['mean_steps']:.1f}  \"\n"
             "          f\"plan efficiency {s['plan_efficiency']:.2f}\")"),
    ("code", "import matplotlib\nmatplotlib.use('Agg')\nimport matplotlib.pyplot as plt\n"
             "import tempfile, pathlib\nfrom IPython.display import Image, display\n"
             "agents = list(reports)\nfig, axes = plt.subplots(1, 2, figsize=(8, 3))\n"
             "axes[0].bar(agents, [reports[a]['summary']['success_rate'] for a in agents], color='#4c72b0')\n"
             "axes[0].set_title('success rate')\n"
             "axes[1].bar(agents, [reports[a]['summary']['plan_efficiency'] for a in agents], color='#dd8452')\n"
             "axes[1].set_title('plan efficiency (optimal / taken)')\nfig.tight_layout()\n"
             "out = pathlib.Path(tempfile.mkdtemp()) / 'planners.png'\nfig.savefig(out, dpi=80)\n"
             "display(Image(out))"),
    ("md", "Per category (the report also lists every task and episode):"),
    ("code", "for category, stats in reports['greedy']['by_category'].items():\n"
             "    print(f\"{category:<13} {stats['success_rate']:.2f}\")"),
])


def write(name: str, cells: list[tuple[str, str]]) -> Path:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [nbformat.v4.new_markdown_cell(src) if kind == "md" else nbformat.v4.new_code_cell(src)
                for kind, src in cells]
    path = ROOT / "notebooks" / name
    nbformat.write(nb, path)
    return path


def run(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}).execute()
    for cell in nb.cells:  # keep outputs readable on a code host: no execution counts or widget state
        if cell.cell_type == "code":
            cell.execution_count = None
            for output in cell.get("outputs", []):
                output.pop("execution_count", None)
    nbformat.write(nb, path)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-run", action="store_true")
    parser.add_argument("names", nargs="*", help="only these notebooks")
    args = parser.parse_args()
    for name, cells in NOTEBOOKS.items():
        if args.names and name not in args.names:
            continue
        path = write(name, cells)
        if not args.no_run:
            run(path)
        print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

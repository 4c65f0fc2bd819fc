"""Commands for other tools' formats: ``import``, ``export`` (MineStudio configs, MCU criteria), ``rate-video``."""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path
from typing import Any

import click

from taskverse.cli.util import FiniteFloat, emit_json, error_line, force_option, friendly
from taskverse.errors import TaskverseError

MAX_CONFIGS = 10_000
"""Config files one import reads."""

MAX_LINE = 1000
"""Characters of one warning line."""


def config_files(source: Path) -> list[Path]:
    """The YAML files of a folder (recursively, sorted), or the one file given."""
    from taskverse.fileio import check_readable

    if source.is_dir():
        found = sorted(p for p in source.rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file())
        if not found:
            raise TaskverseError("holds no .yaml files", file=source)
        if len(found) > MAX_CONFIGS:
            raise TaskverseError(f"holds {len(found)} YAML files; at most {MAX_CONFIGS} are read", file=source)
        return found
    check_readable(source, "task config")
    return [source]


def _names(library: Any) -> Any:
    from taskverse.interop.commands import Names
    from taskverse.knowledge.renames import load_renames

    return Names(library.knowledge, load_renames(kn=library.knowledge))


@click.command("import")
@click.argument("source", type=click.Path(path_type=Path))
@click.option("-o", "--output", type=click.Path(path_type=Path),
              help="Write each imported molecule to DIR/<config path>.yaml (a folder's layout is kept).")
@force_option
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@friendly
def import_(source: Path, output: Path | None, force: bool, fmt: str) -> None:
    """Read MineStudio / MCU task configs (FILE or every .yaml under a folder) into molecule tasks.

    \b
    Each config's custom_init_commands become the task's start (/give, /item replace and /replaceitem,
    /summon, /time set, /weather, /setblock, /fill, /fillbiome, /execute ... run, /execute in DIM run tp);
    its text is read as a task phrase (or its taskverse block, when taskverse wrote it) and the task starts
    with what the config gives plus what the text's task needs. Whatever is not understood is reported as
    FILE:LINE: COMMAND: reason on stderr, one per line. A text that asks what no task can judge (decorating,
    a free-form build, a thing the game does not allow) is reported as FILE:LINE: TEXT: no task ... why; its
    start is read (in --format json) and no molecule is written. Exits 1 if any file failed, any command was
    not understood or any text has no task (the rest is still imported), 2 on bad input.
    """  # noqa: D301
    from taskverse.algebra.files import molecule_to_yaml
    from taskverse.cli.app import _library
    from taskverse.fileio import check_output, write_text
    from taskverse.interop.minestudio import import_config

    files = config_files(source)
    targets: dict[str, Path] = {}
    if output is not None:  # every file that may be written is checked before any work is done
        check_output(output, force, folder=True)
        for path in files:
            # simple/x.yaml and hard/x.yaml stay apart: the folder's layout is kept
            relative = path.relative_to(source) if source.is_dir() else Path(path.name)
            targets[str(path)] = check_output(output / relative.with_suffix(".yaml"), force)
    library = _library()
    names = _names(library)
    results = []
    for path in files:
        try:
            results.append(import_config(path, library, names))
        except TaskverseError as exc:  # not a config: one line, and the other files go on
            if len(files) == 1:
                raise
            from taskverse.interop.minestudio import Imported

            at_line = f"line {exc.line}: " if exc.line else ""
            results.append(Imported(str(path), "", error=at_line + str(dataclasses.replace(exc, file=None, line=None))))
    failed = False
    for result in results:
        for problem in result.problems:
            click.echo(_one_line(f"warning: {problem}"), err=True)
        failed = failed or bool(result.problems) or result.error is not None
        if result.error is not None:
            click.echo(error_line(f"{result.file}: not imported: {result.error}"), err=True)
        elif output is not None and result.molecule is not None:
            write_text(targets[result.file], molecule_to_yaml(result.molecule), force=force)
    summary = {
        "found": len(results),
        "imported": sum(r.molecule is not None for r in results),
        "every_command_understood": sum(r.molecule is not None and not r.problems for r in results),
        "nothing_beyond_config": sum(r.molecule is not None and not r.beyond_config for r in results),
        "read_without_task": sum(r.no_task is not None for r in results),
        "not_imported": sum(r.molecule is None and r.no_task is None for r in results),
    }
    if fmt == "json":
        emit_json({"files": [r.summary() for r in results], "summary": summary})
    else:
        for result in results:
            if result.molecule is not None:
                extra = f"  (text adds {_words(result.beyond_config)})" if result.beyond_config else ""
                click.echo(f"{result.file}: {result.molecule.id}: {result.molecule.description}{extra}")
        click.echo(", ".join(f"{v} {k.replace('_', ' ')}" for k, v in summary.items()))
    if output is not None:
        click.echo(f"wrote {summary['imported']} molecules to {output}", err=True)
    if failed:
        sys.exit(1)


def _one_line(text: str) -> str:
    return " ".join(text.split())[:MAX_LINE]


def _words(extra: dict[str, Any]) -> str:
    parts = []
    for key, value in extra.items():
        if isinstance(value, dict):
            parts += [f"{key}.{k}={v}" for k, v in value.items()]
        else:
            parts.append(f"{key}={value}")
    return ", ".join(parts)


@click.command("export")
@click.argument("tasks", nargs=-1)
@click.option("--suite", help="Export every task of a suite (SkillForge, ...).")
@click.option("--to", "target", type=click.Choice(["minestudio", "mcu-criteria"]), required=True,
              help="minestudio: task configs (YAML); mcu-criteria: MCU rating criteria (text).")
@click.option("-o", "--output", type=click.Path(path_type=Path), required=True, help="The folder to write into.")
@force_option
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@friendly
def export(tasks: tuple[str, ...], suite: str | None, target: str, output: Path, force: bool, fmt: str) -> None:
    """Write tasks (TASK... or --suite NAME) as MineStudio task configs or MCU criteria files, one per task in DIR.

    --to minestudio: each file has custom_init_commands (Minecraft 1.20 commands setting up the task's start), text (its
    description) and a taskverse block with its id and its expression as data (the success condition), which
    `taskverse import` reads back. A task no command can set up (a start in a structure) is reported with the
    reason and the run goes on; exits 1 if any task was left out.

    --to mcu-criteria: DIR/<task id>.txt in MCU's six sections (task progress, action control, error
    recognition and correction, creative attempts, task completion efficiency, material selection and usage),
    built from the task's plan from its start, the materials and tools its steps need and its constraints; the
    same task always gives the same file. `taskverse rate-video` rates an episode against it.
    """
    from taskverse.cli.app import _library, resolve_task
    from taskverse.fileio import check_output, write_text
    from taskverse.interop.commands import CommandError
    from taskverse.interop.minestudio import config_file_name, export_config

    if bool(tasks) == bool(suite):
        raise TaskverseError("give TASK arguments or --suite NAME (one of them)")
    check_output(output, force, folder=True)
    library = _library()
    chosen: list[Any]
    if suite:
        from taskverse.benchmarks.suites import load_suite, resolve_suite_task

        chosen = [resolve_suite_task(item, library) for item in load_suite(suite).tasks]
    else:
        chosen = [resolve_task(reference) for reference in tasks]
    if target == "mcu-criteria":
        _export_criteria(chosen, library, output, force, fmt)
        return
    names = _names(library)
    written, skipped = [], []
    for task in chosen:
        try:
            text = export_config(task, names)
        except CommandError as exc:
            skipped.append({"id": task.id, "reason": str(exc)})
            click.echo(error_line(f"{task.id}: not exported: {exc}"), err=True)
            continue
        path = output / config_file_name(task.id)
        write_text(path, text, force=force)
        written.append({"id": task.id, "file": str(path)})
    if fmt == "json":
        emit_json({"written": written, "skipped": skipped, "to": target})
    else:
        click.echo(f"wrote {len(written)} MineStudio configs to {output}; {len(skipped)} tasks left out")
    if skipped:
        sys.exit(1)


def _export_criteria(chosen: list[Any], library: Any, output: Path, force: bool, fmt: str) -> None:
    from taskverse.fileio import check_output, write_text
    from taskverse.interop.criteria import criteria_for, file_name

    paths = [check_output(output / file_name(task.id), force) for task in chosen]  # all refused before any work
    written = []
    for task, path in zip(chosen, paths, strict=True):
        write_text(path, criteria_for(task, library).render(), force=force)
        written.append({"id": task.id, "file": str(path)})
    if fmt == "json":
        emit_json({"written": written, "skipped": [], "to": "mcu-criteria"})
    else:
        click.echo(f"wrote {len(written)} MCU criteria files to {output}")


@click.command("rate-video")
@click.argument("source", metavar="VIDEO_OR_FRAMES", type=click.Path(path_type=Path))
@click.option("--task", "task_ref", help="The task the episode attempts (id, description, file or composition): its "
                                         "criteria are built as export writes them. Required, but with --each and "
                                         "--report.")
@click.option("--each", is_flag=True, help="VIDEO_OR_FRAMES is a folder of episodes (subfolders of frames, video "
                                           "files): rate each, and summarise.")
@click.option("--report", "report_file", type=click.Path(path_type=Path), metavar="REPORT.json",
              help="With --each: the run report whose task each episode played, for folders named <task "
                   "index>-<episode> as engine eval --screenshots writes them.")
@click.option("--criteria", "criteria_file", type=click.Path(path_type=Path),
              help="A criteria file to rate against instead (one of MCU's, or one edited by hand).")
@click.option("--model", required=True, metavar="openai:MODEL", help="The vision model, e.g. openai:gpt-4o.")
@click.option("--base-url", help="OpenAI-compatible endpoint, e.g. http://127.0.0.1:8000/v1 [default: "
                                 "OPENAI_BASE_URL, else OpenAI's].")
@click.option("--api-key", help="The endpoint's key [default: OPENAI_API_KEY; local servers need none].")
@click.option("--frames", "count", type=click.IntRange(min=1, max=64), default=16, show_default=True,
              help="Frames sent, spread evenly over the episode (first and last included).")
@click.option("--answer-timeout", type=FiniteFloat(min=0.1, max=3600.0), default=120.0, show_default=True,
              help="Seconds to wait for the whole answer.")
@click.option("--retries", type=click.IntRange(min=0, max=10), default=2, show_default=True,
              help="Retries of a request that timed out, lost its connection or got a 429/5xx.")
@click.option("--max-tokens", type=click.IntRange(min=16, max=100_000), default=2000, show_default=True)
@click.option("--temperature", type=FiniteFloat(min=0.0, max=2.0), default=0.0, show_default=True)
@click.option("-o", "--output", type=click.Path(path_type=Path), help="Write the rating as JSON to this file.")
@force_option
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@friendly
def rate_video(source: Path, task_ref: str | None, each: bool, report_file: Path | None, criteria_file: Path | None,
               model: str, base_url: str | None, api_key: str | None, count: int, answer_timeout: float,
               retries: int, max_tokens: int, temperature: float, output: Path | None, force: bool,
               fmt: str) -> None:
    """Rate an episode (a folder of PNG/JPEG frames, or a video file) as MCU does, with a vision model.

    \b
    Sends --frames frames spread over the episode, with the task's MCU criteria (as `export --to
    mcu-criteria` writes them), to an OpenAI-compatible vision endpoint, and asks for six scores from 0 to
    10 with evidence: task progress, action control, error recognition and correction, creative attempts,
    task completion efficiency, material selection and usage. A video file needs ffmpeg: the one on PATH,
    else the static build of the video extra (pip install 'taskverse[video]'). An answer that is not usable
    (no JSON, scores missing or out of range) or a failed request is reported in the result; the exit
    status is then 1.

    \b
    With --each, every episode of a folder is rated in turn (a failed one is recorded and the rest go on),
    and the result holds each rating and the mean score of each section over the complete ones.

    \b
    taskverse rate-video frames/ --task craft.iron_sword --model openai:Qwen/Qwen2.5-VL-7B-Instruct \\
        --base-url http://127.0.0.1:8000/v1 -o rating.json
    taskverse rate-video shots/ --each --report engine_report.json --model openai:MODEL -o ratings.json
    """  # noqa: D301
    from taskverse.cli.app import _library, resolve_task
    from taskverse.fileio import check_output, read_text, write_text
    from taskverse.interop.criteria import criteria_for
    from taskverse.interop.frames import sample_frames
    from taskverse.interop.rating import Endpoint, rate
    from taskverse.textenv.llm import check_base_url

    if not model.startswith("openai:") or len(model) == len("openai:"):
        raise TaskverseError(f"--model {model[:80]!r}: expected openai:MODEL (e.g. openai:gpt-4o)")
    if base_url is not None:
        check_base_url(base_url)
    if output is not None:
        check_output(output, force)
    if report_file is not None and not each:
        raise TaskverseError("--report goes with --each (a folder of episodes)")
    if task_ref is None and not (each and report_file is not None):
        raise TaskverseError("--task is required: the task the episode attempts (or --each with --report)")
    endpoint = Endpoint(model[len("openai:"):], base_url, api_key, answer_timeout, retries, max_tokens, temperature)
    given = read_text(criteria_file, "criteria file", 256 * 1024) if criteria_file else None
    if each or task_ref is None:
        _rate_each(source, task_ref, report_file, given, count, endpoint, output, force, fmt)
        return
    task = resolve_task(task_ref)
    criteria = given if given is not None else criteria_for(task, _library()).render()
    frames, total = sample_frames(source, count)
    result = {"source": str(source), **rate(task, criteria, frames, total, endpoint)}
    if output is not None:
        write_text(output, json.dumps(result, indent=2) + "\n", force=force)
    if fmt == "json":
        emit_json(result)
    else:
        for name, score in result["scores"].items():
            evidence = "; ".join(result["evidence"][name])
            click.echo(f"{name:<34} {'-' if score is None else score:>4}  {evidence[:200]}")
    for problem in [result["error"], *result["problems"]]:
        if problem:
            click.echo(_one_line(f"warning: rate-video: {problem}"), err=True)
    if not result["complete"]:
        sys.exit(1)


def _rate_each(folder: Path, task_ref: str | None, report_file: Path | None, given: str | None, count: int,
               endpoint: Any, output: Path | None, force: bool, fmt: str) -> None:
    """Rate every episode of a folder in turn; one that cannot be read or rated fails alone."""
    from taskverse.cli.app import _library, resolve_task
    from taskverse.fileio import write_text
    from taskverse.interop.criteria import criteria_for
    from taskverse.interop.episodes import episode_sources, report_tasks, summarise, task_for
    from taskverse.interop.frames import sample_frames
    from taskverse.interop.rating import rate

    sources = episode_sources(folder)
    tasks = report_tasks(report_file) if report_file is not None else None
    criteria: dict[str, str] = {}
    results: list[dict[str, Any]] = []
    for source in sources:
        try:
            task = resolve_task(task_for(source, task_ref, tasks))
            if task.id not in criteria:
                criteria[task.id] = given if given is not None else criteria_for(task, _library()).render()
            frames, total = sample_frames(source, count)
        except TaskverseError as exc:
            results.append({"source": str(source), "complete": False, "error": str(exc), "problems": []})
        else:
            results.append({"source": str(source), **rate(task, criteria[task.id], frames, total, endpoint)})
        last = results[-1]
        if fmt != "json":
            scores = [v for v in (last.get("scores") or {}).values() if v is not None]
            shown = f"{sum(scores) / len(scores):4.1f}" if scores else "   -"
            click.echo(f"{Path(last['source']).name:<24} {last.get('task', '?'):<32} {shown}  "
                       f"{'complete' if last['complete'] else 'incomplete'}")
        for problem in [last["error"], *last["problems"]]:
            if problem:
                click.echo(_one_line(f"warning: rate-video: {Path(last['source']).name}: {problem}"), err=True)
    summary = summarise(results)
    result = {"folder": str(folder), "summary": summary, "episodes": results}
    if output is not None:
        write_text(output, json.dumps(result, indent=2) + "\n", force=force)
    if fmt == "json":
        emit_json(result)
    else:
        click.echo(f"{summary['complete']} of {summary['episodes']} episodes rated completely; mean scores: "
                   + ", ".join(f"{name} {value:g}" for name, value in summary["mean"].items()))
    if summary["incomplete"]:
        sys.exit(1)


COMMANDS = [import_, export, rate_video]

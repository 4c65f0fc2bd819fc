"""The ``taskverse`` command group and what every command shares: the bundled library, TASK arguments.

Every command that prints data takes ``--format json`` and then prints exactly one JSON document on stdout;
progress and logs go to stderr. Bad input exits non-zero with one clear line, never a traceback.
"""

from __future__ import annotations

import functools
import os
import sys
from pathlib import Path
from typing import Any

import click

from taskverse import __version__
from taskverse.cli.util import error_line
from taskverse.errors import TaskverseError
from taskverse.fileio import os_reason


class TaskverseGroup(click.Group):
    """The command group, with the one place every failure becomes one line on stderr.

    Bad input (a TaskverseError, or a bad option that click rejects) exits 2, Ctrl-C exits 130 with
    ``error: interrupted`` (commands that produce many results keep what they finished), a full disk or closed
    pipe on stdout is reported (or, for a pipe, ends quietly), and anything else is a bug: one line saying so,
    exit 70, and the traceback only with ``TASKVERSE_DEBUG=1``.
    """

    def main(self, args: Any = None, prog_name: str | None = None, complete_var: str | None = None,
             standalone_mode: bool = True, **extra: Any) -> Any:
        """Run the command line; click's usage errors become one line (``error: ...``)."""
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        try:
            result = super().main(args, prog_name, complete_var, False, **extra)
        except click.exceptions.NoArgsIsHelpError as exc:
            exc.show()
            sys.exit(exc.exit_code)
        except click.ClickException as exc:
            where = exc.ctx.command_path if isinstance(exc, click.UsageError) and exc.ctx else "taskverse"
            click.echo(error_line(f"{exc.format_message()} (see '{where} --help')"), err=True)
            sys.exit(exc.exit_code)
        except click.exceptions.Abort:
            click.echo("error: interrupted", err=True)
            sys.exit(130)
        sys.exit(result if isinstance(result, int) else 0)

    def resolve_command(self, ctx: click.Context, args: list[str]) -> Any:
        """The command named first in ``args``; an unknown name suggests close ones."""
        name = args[0] if args else ""
        if args and self.get_command(ctx, name) is None and not name.startswith("-"):
            from taskverse.errors import close_matches

            hint = close_matches(name, self.list_commands(ctx))
            suffix = f" (did you mean {', '.join(repr(h) for h in hint)}?)" if hint else ""
            raise click.UsageError(f"no command {name!r}{suffix}", ctx)
        return super().resolve_command(ctx, args)

    def invoke(self, ctx: click.Context) -> Any:
        """Run the chosen command and turn whatever it raises into one line and an exit code."""
        try:
            result = super().invoke(ctx)
            sys.stdout.flush()  # a full disk shows up here, not as an 'Exception ignored' at exit
            return result
        except (click.ClickException, click.exceptions.Exit, click.exceptions.Abort):
            raise
        except TaskverseError as exc:
            click.echo(error_line(exc), err=True)
            sys.exit(2)
        except KeyboardInterrupt:
            click.echo("\nerror: interrupted", err=True)
            sys.exit(130)
        except BrokenPipeError:
            _silence_stdout()
            sys.exit(1)
        except OSError as exc:
            _silence_stdout()
            target = exc.filename or "the output"
            click.echo(error_line(f"cannot write {target}: {os_reason(exc)}"), err=True)
            sys.exit(1)
        except Exception as exc:
            if os.environ.get("TASKVERSE_DEBUG"):
                raise
            click.echo(error_line(f"internal error ({type(exc).__name__}: {exc}); this is a bug in taskverse, "
                                  "please report it (TASKVERSE_DEBUG=1 shows the traceback)"), err=True)
            sys.exit(70)


def _silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's final flush cannot fail a second time."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # not a real file (e.g. under click's test runner)
        pass


@click.group(cls=TaskverseGroup,
             context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="taskverse")
def main() -> None:
    """taskverse: atom and molecule tasks, difficulty scores and benchmarks for open-ended game agents."""


@functools.cache
def _library() -> Any:
    """The bundled library, loaded once per command (commands consult it from several places)."""
    from taskverse.library.loader import load_library

    return load_library()


EXPRESSION_CHARACTERS = ("(", ")", "=")
"""Text with these is never read as a phrase: it is an expression, or a mistyped one."""


def is_phrase(reference: str) -> bool:
    """Whether a TASK argument is read as a task phrase: no file, expression, id or description (see README)."""
    from taskverse.algebra.parse import COMPOSITION_MARKS

    if reference.endswith((".yaml", ".yml")) or reference.startswith("mol."):
        return False
    if any(mark in reference for mark in (*COMPOSITION_MARKS, *EXPRESSION_CHARACTERS)):
        return False
    from taskverse.text import id_shaped

    if id_shaped(reference):
        return False
    return _library().lookup(reference) is None


def resolve_task(reference: str, molecules: bool = True) -> Any:
    """A TASK argument: an id, a description, a task YAML file, (with ``molecules``) a composition, or a phrase.

    A file is checked as ``taskverse validate`` checks it (names of items, blocks and mobs with close matches,
    pre-tasks that exist); a molecule id (``mol.<hash>``) is looked up in the built suites. Text that is none of
    these is read as a task phrase (``hunt a pig in the savanna``), the rule ``docs/phrases.md`` documents.
    """
    if reference.endswith((".yaml", ".yml")):
        return task_from_file(Path(reference), molecules)
    from taskverse.algebra.parse import COMPOSITION_MARKS

    if molecules and any(mark in reference for mark in COMPOSITION_MARKS):
        return compose_expression(reference)
    library = _library()
    if reference.startswith("mol.") and reference not in library.by_id:
        return suite_molecule(reference)
    if not is_phrase(reference):
        return library.get(reference)
    from taskverse.algebra.expr import AtomRef
    from taskverse.algebra.molecule import build_molecule

    expr = phrase_expression(reference)
    if isinstance(expr, AtomRef):
        return library.by_id[expr.task]
    if not molecules:
        raise TaskverseError(f"{reference!r} reads as a composition; this command takes one atom task")
    return build_molecule(expr, library)


def phrase_expression(reference: str) -> Any:
    """A task phrase as an algebra expression; what was read goes to stderr, what was not is the error.

    A phrase that needs the count operator (``obtain 6 wheat``) is refused with the expression it reads as.
    """
    from taskverse.language.reader import PhraseReader
    from taskverse.language.reading import PhraseError, to_expr
    from taskverse.text import loosen

    library = _library()
    if len(library.by_loose_description.get(loosen(reference), ())) > 1:
        library.get(reference)  # ambiguous ("mine oak wood"): the library's error lists the tasks
    try:
        reading = PhraseReader(library).read(reference)
    except PhraseError as exc:
        try:
            library.get(reference)
        except TaskverseError as missing:
            suggestions = exc.suggestions or missing.suggestions
            raise TaskverseError(f"{missing.message}; as a phrase: {exc.message}", suggestions=suggestions) \
                from None
        raise
    click.echo(f"read {reference!r} as {reading.expression} (used: {' | '.join(reading.used)})", err=True)
    return to_expr(reading.root)


def task_or_phrase(reference: str) -> Any:
    """A TASK argument for the text environment: the text itself, or a phrase read into an expression.

    A task file is checked first as every command checks one (unknown names with close matches, the file's line
    and field), so plan, play and eval refuse what show and validate refuse; the path itself is passed on.
    """
    if reference.endswith((".yaml", ".yml")):
        task_from_file(Path(reference))
    return phrase_expression(reference) if is_phrase(reference) else reference


def task_from_file(path: Path, molecules: bool = True) -> Any:
    """The one task of a task file, fully checked (a molecule is rebuilt from its expression and compared)."""
    from taskverse.fileio import read_text
    from taskverse.library.loader import validate_files

    text = read_text(path, "task file")
    library = _library()
    if molecules:
        from taskverse.algebra.files import load_molecule_file

        molecule = load_molecule_file(path, library, text)
        if molecule is not None:
            return molecule
    located, errors = validate_files([path], library.knowledge, library.by_id, texts={path: text})
    if errors:
        raise errors[0]
    if len(located) != 1:
        raise TaskverseError(f"expected one task in the file, found {len(located)}", file=path)
    return located[0].task


def suite_molecule(reference: str) -> Any:
    """A molecule of a built suite by its id (as ``taskverse list --kind molecule`` lists them)."""
    from taskverse.benchmarks.suites import load_suite, resolve_suite_task, suite_names, suite_path
    from taskverse.errors import close_matches

    known: set[str] = set()
    for name in suite_names():
        if not suite_path(name).exists():
            continue
        for item in load_suite(name).tasks:
            if item.expression is not None:
                if item.id == reference:
                    return resolve_suite_task(item, _library())
                known.add(item.id)
    raise TaskverseError(f"no molecule {reference!r} in the built suites (write it as a composition instead)",
                         suggestions=close_matches(reference, known))


def compose_expression(source: str) -> Any:
    """Parse, check and build a molecule from a composition expression (or a task phrase, see resolve_task)."""
    from taskverse.algebra.molecule import build_molecule
    from taskverse.algebra.parse import parse_expression

    library = _library()
    if is_phrase(source):
        return build_molecule(phrase_expression(source), library)
    return build_molecule(parse_expression(source), library)

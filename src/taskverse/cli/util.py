"""Helpers every command module uses: clean one-line errors and JSON output (no imports of the commands)."""

from __future__ import annotations

import contextlib
import json
import math
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from functools import wraps
from typing import Any, TypeVar

import click

from taskverse.errors import TaskverseError

F = TypeVar("F", bound=Callable[..., Any])


def friendly(func: F) -> F:
    """Turn TaskverseError into one clean line on stderr and exit code 2."""

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except TaskverseError as exc:
            click.echo(error_line(exc), err=True)
            sys.exit(2)

    return wrapper  # type: ignore[return-value]


MAX_ERROR_CHARS = 1000


def error_line(problem: object) -> str:
    """``error: ...`` on one line of at most ``MAX_ERROR_CHARS`` characters (long input is cut, not echoed whole).

    The middle goes: a message names what it is about first and says what is wrong last (a long expression, then
    "a count runs up to 1000"), so both ends stay.
    """
    text = " ".join(str(problem).split())
    if len(text) > MAX_ERROR_CHARS:
        head = (MAX_ERROR_CHARS - 1) // 2
        text = text[:head] + "…" + text[len(text) - (MAX_ERROR_CHARS - 1 - head):]
    return f"error: {text}"


def emit_json(data: Any) -> None:
    """Print one JSON document on stdout."""
    click.echo(json.dumps(data, indent=2, sort_keys=False, default=str))


force_option = click.option("--force", is_flag=True,
                            help="Replace existing output files (without it, a command never overwrites one).")
"""The ``--force`` option of every command that writes files."""


SEED = click.IntRange(min=0, max=2**32 - 1)
"""Seeds: what every random generator the commands use accepts (``--seed -1`` is a clean error)."""


class FiniteFloat(click.FloatRange):
    """A float in a range that is also finite: click's ranges let ``nan`` through (it compares false)."""

    name = "finite float"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        """The number, or a usage error naming the range."""
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number", param, ctx)
        return number


@contextlib.contextmanager
def interruptible() -> Iterator[Callable[[], bool]]:
    """Yield a function saying whether Ctrl-C was pressed; the first Ctrl-C only sets it, a second one stops at once.

    A loop producing many results checks it between results and stops cleanly, keeping what it finished. (An
    interrupt raised at an arbitrary point can be swallowed by a C extension calling back into Python, and the
    loop would go on.)
    """
    if threading.current_thread() is not threading.main_thread():
        yield lambda: False
        return
    pressed = [False]

    def handler(signum: int, frame: Any) -> None:
        pressed[0] = True
        signal.signal(signal.SIGINT, signal.default_int_handler)  # a second Ctrl-C interrupts at once

    previous = signal.signal(signal.SIGINT, handler)
    try:
        yield lambda: pressed[0]
    finally:
        signal.signal(signal.SIGINT, previous)

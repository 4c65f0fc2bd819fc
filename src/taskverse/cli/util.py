"""Helpers every command module uses: clean one-line errors and JSON output (no imports of the commands)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
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
            click.echo(f"error: {exc}", err=True)
            sys.exit(2)

    return wrapper  # type: ignore[return-value]


def emit_json(data: Any) -> None:
    """Print one JSON document on stdout."""
    click.echo(json.dumps(data, indent=2, sort_keys=False, default=str))

"""The one exception type users see: it names where bad input entered and what was expected."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path


@dataclass
class TaskverseError(Exception):
    """Bad input or an impossible request, with the place it came from.

    Attributes:
        message: What is wrong, in words a user can act on.
        file: The file the bad input came from, if any.
        line: 1-based line in that file, if known.
        field: Dotted path of the offending field (``tasks[3].initialization.inventory``).
        suggestions: Close matches for a mistyped name.

    """

    message: str
    file: str | Path | None = None
    line: int | None = None
    field: str | None = None
    suggestions: list[str] = dataclasses.field(default_factory=list)

    def __post_init__(self) -> None:
        super().__init__(str(self))

    def __str__(self) -> str:
        where = ""
        if self.file is not None:
            where = f"{self.file}:{self.line}: " if self.line else f"{self.file}: "
        field_part = f"{self.field}: " if self.field else ""
        hint = f" (did you mean {', '.join(repr(s) for s in self.suggestions)}?)" if self.suggestions else ""
        return f"{where}{field_part}{self.message}{hint}"


def close_matches(name: str, known: Iterable[str], n: int = 3) -> list[str]:
    """Return up to ``n`` known names that look like ``name`` (for 'did you mean' hints)."""
    import difflib

    if len(name) > 200:  # no name is that long; comparing pasted text against every name only costs time
        return []
    return difflib.get_close_matches(name, list(known), n=n, cutoff=0.6)


def at_column(source: str, column0: int, message: str, context: int = 30) -> str:
    """``message at column N, after '...'``: a place in a one-line source (expressions, filters), on one line."""
    before = source[max(0, column0 - context):column0]
    if column0 > context:
        before = "…" + before
    return f"{message} at column {column0 + 1}" + (f", after {before!r}" if before.strip() else "")

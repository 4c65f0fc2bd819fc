"""The phrase reader the phrase tests share (one per process), and the comparison they read lines with."""

from __future__ import annotations

import functools

from taskverse.algebra.expr import canonical
from taskverse.algebra.molecule import resolve_refs
from taskverse.algebra.parse import parse_expression
from taskverse.language.reader import PhraseReader
from taskverse.language.reading import to_expr


@functools.cache
def phrase_reader() -> PhraseReader:
    """The library's phrase reader, made once."""
    from taskverse import load_library

    return PhraseReader(load_library())


def reads_as(phrase: str, expected: str) -> bool:
    """Whether the phrase reads as the expected composition (both resolved and canonical)."""
    reader = phrase_reader()
    got = to_expr(reader.read(phrase).root)
    return canonical(resolve_refs(got, reader.library)) == canonical(
        resolve_refs(parse_expression(expected), reader.library))

"""Normalising task descriptions for lookup, shared by the library, the world's action names and the CLI."""

from __future__ import annotations

import re

STOPWORDS = {"a", "an", "the", "to", "some"}


def normalize(text: str) -> str:
    """Normalise a description for lookup: case, spacing and articles do not matter (underscores do)."""
    words = re.sub(r"\s+", " ", text.strip().lower()).split(" ")
    return " ".join(w for w in words if w and w not in STOPWORDS)


def loosen(text: str) -> str:
    """A looser key where ``iron_sword`` and ``iron sword`` agree (used only when it names one task)."""
    return normalize(re.sub(r"[_\-]+", " ", text))


ID_SHAPE = re.compile(r"[a-z0-9_]+\.[a-z0-9_]+", re.IGNORECASE)


def id_shaped(text: str) -> bool:
    """Whether text has a task id's shape (``craft.stick``, or a mistyped ``craft.stik``): never a task phrase.

    So a mistyped id is answered with the close ids, not with the phrase reader's reading of ``craft.stik`` as a
    verb.
    """
    return ID_SHAPE.fullmatch(text.strip()) is not None

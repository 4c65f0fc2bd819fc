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

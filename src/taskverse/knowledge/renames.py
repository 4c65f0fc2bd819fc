"""Names from earlier game versions and the wiki mapped to their 1.20 names (``curated/renames.yaml``).

MineDojo and many papers use the 1.11 and 1.12 names (``reeds``, ``web``, ``zombie pigman``, ``extreme hills``)
or the wiki's display names (``block of redstone``, ``redstone repeater``). Each entry names its source; its
1.20 name is checked against the game data when the table loads, so a typo is an error naming the line.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from taskverse.errors import TaskverseError
from taskverse.knowledge.facts import Knowledge, load_knowledge
from taskverse.paths import knowledge_dir
from taskverse.yamlio import parse_yaml, validation_error

RenameKind = Literal["item", "block", "entity", "biome", "structure"]


class Rename(BaseModel):
    """One earlier or wiki name and the 1.20 name it means."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    now: str
    kind: RenameKind
    first_for: list[str] = []
    """Library verbs for which the old name is read before the same name as written: the literature's 'obtain
    iron ore' is MineDojo's harvest of 1.11, when the ore dropped itself (raw iron), though Silk Touch gives the
    ore block in 1.20."""
    source: str
    group: str | None = None
    """A tag of the 1.20 items the old name meant together: a pre-1.13 name that held its variants as data values
    (``log``: oak, spruce, birch and jungle). A goal naming it is met by any member, as the benchmarks that write
    it judge (by the item's name, its data value ignored); ``now`` stays the one item a start gives."""
    judged: str | None = None
    """Where the group reading comes from: the benchmark's judgement that ignores the data value."""


def loose_name(text: str) -> str:
    """The key a name is matched by: case, spaces, underscores and hyphens do not matter."""
    text = text.lower().replace("\u2019", "'")
    return " ".join(re.sub(r"[_\-\s]+", " ", text).split())


def renames_path() -> Path:
    """Where the curated rename table lives."""
    return knowledge_dir() / "curated" / "renames.yaml"


def load_renames(path: Path | None = None, kn: Knowledge | None = None) -> dict[str, Rename]:
    """The rename table by loose name; every 1.20 name is checked against the game data."""
    return dict(_load(path or renames_path(), kn))


@functools.cache
def _cached(path: Path) -> tuple[tuple[str, Rename], ...]:
    return tuple(_read(path, load_knowledge()).items())


def _load(path: Path, kn: Knowledge | None) -> tuple[tuple[str, Rename], ...]:
    return _cached(path) if kn is None else tuple(_read(path, kn).items())


def _read(path: Path, kn: Knowledge) -> dict[str, Rename]:
    text = path.read_text(encoding="utf-8")
    data = parse_yaml(text, path)
    if not isinstance(data, dict) or not isinstance(data.get("renames"), list):
        raise TaskverseError("expected a mapping with a 'renames' list", file=path, line=1)
    table: dict[str, Rename] = {}
    for index, entry in enumerate(data["renames"]):
        try:
            rename = Rename.model_validate(entry)
        except ValidationError as exc:
            raise validation_error(exc, path, text, ("renames", index)) from None
        line = _line_of(text, rename.name)
        try:
            kn.check_name(rename.now, rename.kind)
        except TaskverseError as exc:
            raise TaskverseError(exc.message, file=path, line=line, field="now",
                                 suggestions=exc.suggestions) from None
        if rename.group is not None and (rename.group not in kn.tags or rename.now not in kn.tags[rename.group]):
            raise TaskverseError(f"group {rename.group!r} is no tag of tags.yaml holding {rename.now}", file=path,
                                 line=line, field="group")
        if (rename.group is None) != (rename.judged is None):
            raise TaskverseError("a group needs 'judged' (the benchmark's judgement) and 'judged' a group", file=path,
                                 line=line, field="judged")
        key = loose_name(rename.name)
        if key in table:
            raise TaskverseError(f"{rename.name!r} is listed twice", file=path, line=line, field="name")
        table[key] = rename
    return table


def _line_of(text: str, name: str) -> int | None:
    for number, line in enumerate(text.splitlines(), start=1):
        if f"name: {name}," in line:
            return number
    return None

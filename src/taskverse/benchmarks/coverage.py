"""Expressivity (MCU Section 4.1) as a user feature: map a benchmark's task list onto the library.

Each line is a task as a paper writes it ("Mine oak wood", "obtain 6 wheat in plains", "combat a skeleton at
night with an iron sword and iron armor", "craft XXX"). The phrase reader (``taskverse.language.reader``) turns
it into an atom or a composition, and says which words it used; a line maps only when the meaning is the same
(names are matched exactly, through the curated rename table, never by similarity). Every line gets a status:

- ``matched``: an atom, a composition (with its expression), a family (``craft XXX``: every craft atom), or a
  counted task, expressible with the count operator (``6 * obtain.wheat``);
- ``impossible``: not possible in the game (crafting a log, mining obsidian with bare hands), with the reason;
- ``not expressible``: what the library or the algebra cannot say, with the reason (an unknown name with close
  names, a verb with no atom, a task inside a structure).

A list holds at most ``MAX_LINES`` lines; a line longer than ``MAX_LINE_CHARS`` maps to nothing.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from typing import Any

from taskverse.errors import TaskverseError
from taskverse.language.explain import rules_of
from taskverse.language.reader import PhraseReader
from taskverse.language.reading import PhraseError, Step, to_expr, without_counts

FAMILY = re.compile(r"^(\w+)\s+(xxx|x|\*)$", re.IGNORECASE)
MAX_LINES = 10_000
"""Most lines of a task list (the literature's longest lists have a few hundred)."""
MAX_LINE_CHARS = 500
"""Longest line mapped (as long as a task description may be)."""


@dataclass
class LineMapping:
    """How one line of a task list maps onto the library."""

    line: int
    text: str
    mapped: bool
    status: str = "not expressible"
    kind: str | None = None
    task: str | None = None
    expression: str | None = None
    description: str | None = None
    reason: str | None = None
    used: list[str] = field(default_factory=list)
    rules: list[str] = field(default_factory=list)
    """Why it reads so: the rules behind the reading, outermost first (``language.explain``)."""


class Mapper:
    """Maps task descriptions to library atoms, compositions or families."""

    def __init__(self, library: Any) -> None:
        self.library = library
        self.reader = PhraseReader(library)

    def family(self, text: str) -> list[str] | None:
        """``craft XXX``: every atom of a verb."""
        match = FAMILY.match(text.strip())
        if not match:
            return None
        verb = match.group(1).lower()
        ids = [t.id for t in self.library.tasks if t.verb == verb]
        return ids or None

    def map_line(self, number: int, text: str) -> LineMapping:
        """Map one line."""
        if len(text) > MAX_LINE_CHARS:
            return LineMapping(number, text[:60] + "…", False,
                               reason=f"longer than {MAX_LINE_CHARS} characters; not a task description")
        family = self.family(text)
        if family is not None:
            verb = text.split()[0].lower()
            return LineMapping(number, text, True, "matched", "family", f"{len(family)} atoms ({family[0]}, ...)",
                               description=f"every {verb} atom of the library",
                               rules=[f"'{text.strip()}': every {verb} atom (a family)"])
        try:
            reading = self.reader.read(text)
        except PhraseError as exc:
            near = f"; close known names: {', '.join(exc.suggestions)}" if exc.suggestions else ""
            return LineMapping(number, text, False, exc.status, reason=exc.message + near)
        except TaskverseError as exc:
            return LineMapping(number, text, False, reason=exc.message)
        used = list(reading.used)
        rules = rules_of(reading, self.reader)
        if isinstance(reading.root, Step):
            atom = self.library.by_id[reading.root.task]
            return LineMapping(number, text, True, "matched", "atom", atom.id, atom.id, atom.description, used=used,
                               rules=rules)
        from taskverse.algebra.molecule import build_molecule

        try:
            molecule = build_molecule(to_expr(without_counts(reading.root)), self.library)
        except TaskverseError as exc:
            return LineMapping(number, text, False, "impossible", expression=reading.expression,
                               reason=f"the composition is infeasible: {exc.message}", used=used)
        if reading.counts:
            try:
                counted = build_molecule(to_expr(reading.root), self.library)
            except TaskverseError as exc:
                return LineMapping(number, text, False, "not expressible", expression=reading.expression,
                                   reason=exc.message, used=used)
            return LineMapping(number, text, True, "matched", "count", counted.id, reading.expression,
                               counted.description, used=used, rules=rules)
        return LineMapping(number, text, True, "matched", "molecule", molecule.id, reading.expression,
                           molecule.description, used=used, rules=rules)


def coverage(lines: list[str], library: Any) -> dict[str, Any]:
    """Map every non-empty, non-comment line; return the mappings, the share covered and counts by status."""
    if len(lines) > MAX_LINES:
        raise TaskverseError(f"the list has {len(lines):,} lines; the limit is {MAX_LINES:,}")
    mapper = Mapper(library)
    rows = [mapper.map_line(i, line.strip()) for i, line in enumerate(lines, start=1)
            if line.strip() and not line.strip().startswith("#")]
    covered = sum(r.mapped for r in rows)
    statuses = {status: sum(r.status == status for r in rows) for status in ("matched", "impossible",
                                                                             "not expressible")}
    return {"lines": [asdict(r) for r in rows], "covered": covered, "total": len(rows),
            "share": covered / len(rows) if rows else 1.0, "by_status": statuses}

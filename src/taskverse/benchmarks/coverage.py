"""Expressivity (MCU Section 4.1) as a user feature: map a benchmark's task list onto the library.

Each line is a task as a paper writes it ("Mine oak wood", "Obtain cooked_beef", "Combat a zombie",
"craft XXX"). A line maps to a library atom, a composition of atoms ("X and then Y", "X from scratch",
"X at night"), or a family ("craft XXX": every craft atom) only when the meaning is the same: names are matched
exactly (case, articles and underscores aside), never by similarity, so a near name of a different item is not a
match. A line that maps to nothing says why. A list holds at most ``MAX_LINES`` lines; a line longer than
``MAX_LINE_CHARS`` maps to nothing.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from typing import Any

from taskverse.algebra.expr import AllOf, AnyOf, AtomRef, Constrained, Constraint, Initialized, Then
from taskverse.errors import TaskverseError, close_matches
from taskverse.text import normalize

FAMILY = re.compile(r"^(\w+)\s+(xxx|x|\*)$", re.IGNORECASE)
SUFFIXES: tuple[tuple[str, dict[str, str]], ...] = (
    (" from scratch", {}),
    (" at night", {"when": "night"}),
    (" during the day", {"when": "day"}),
    (" on the first day", {"when": "first_day"}),
    (" in the rain", {"when": "rain"}),
    (" on a rainy day", {"when": "rain"}),
    (" with bare hands", {"how": "bare_hand"}),
    (" bare-handed", {"how": "bare_hand"}),
    (" using arrows", {"how": "arrows"}),
    (" with arrows", {"how": "arrows"}),
    (" in a cave", {"where": "cave"}),
    (" in the nether", {"where": "nether"}),
    (" in the end", {"where": "end"}),
)
JOINERS = ((" and then ", Then), (" then ", Then), (" and ", AllOf), (" or ", AnyOf))
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
    kind: str | None = None
    task: str | None = None
    description: str | None = None
    reason: str | None = None


class Mapper:
    """Maps task descriptions to library atoms, compositions or families."""

    def __init__(self, library: Any) -> None:
        self.library = library
        self.verbs = sorted({t.verb for t in library.tasks})
        self._near: dict[str, list[str]] = {}

    def atom(self, text: str) -> AtomRef | None:
        """An exact (normalised) match of a description or alias, else None."""
        found = self.library.lookup(text.strip())
        return None if found is None else AtomRef(task=found.id)

    def expression(self, text: str, depth: int = 0) -> Any | None:
        """A composition with the same meaning, else None."""
        text = text.strip().rstrip(".")
        found = self.atom(text)
        if found is not None or depth > 4:
            return found
        lowered = text.lower()
        for suffix, fields in SUFFIXES:
            if lowered.endswith(suffix):
                inner = self.expression(text[: -len(suffix)], depth + 1)
                if inner is None:
                    return None
                if not fields:
                    return Initialized(part=inner, mode="naive")
                return Constrained(part=inner, constraint=Constraint(**fields))  # type: ignore[arg-type]
        for joiner, node in JOINERS:
            if joiner in lowered:
                cut = lowered.index(joiner)
                left = self.expression(text[:cut], depth + 1)
                right = self.expression(text[cut + len(joiner):], depth + 1)
                if left is not None and right is not None:
                    return node(parts=(left, right))
        return None

    def family(self, text: str) -> list[str] | None:
        """``craft XXX``: every atom of a verb."""
        match = FAMILY.match(text.strip())
        if not match:
            return None
        verb = match.group(1).lower()
        ids = [t.id for t in self.library.tasks if t.verb == verb]
        return ids or None

    def why_not(self, text: str) -> str:
        """Why a line maps to nothing: an unknown verb, or an unknown or ambiguous name."""
        words = normalize(text).split()
        if not words:
            return "empty line"
        verb = words[0]
        if verb not in self.verbs:
            return (f"no atom starts with the verb {verb!r}; the library's verbs are "
                    f"{', '.join(self.verbs[:12])}, ...")
        rest = "_".join(words[1:])
        kn = self.library.knowledge
        tables = [kn.items, kn.blocks, kn.entities, kn.biomes, kn.structures]
        if rest and not any(rest in table for table in tables):
            if rest not in self._near:  # a list repeats its unknown names; each is looked for once
                names = sorted({n for table in tables for n in table})
                self._near[rest] = close_matches(rest, names, n=3) if len(rest) <= 64 else []
            near = self._near[rest]
            hint = f"; near names of other things: {', '.join(near)}" if near else ""
            return f"{rest!r} names no item, block, mob, biome or structure{hint}"
        return f"the library has no {verb} task for {rest!r}"

    def map_line(self, number: int, text: str) -> LineMapping:
        """Map one line."""
        if len(text) > MAX_LINE_CHARS:
            return LineMapping(number, text[:60] + "…", False,
                               reason=f"longer than {MAX_LINE_CHARS} characters; not a task description")
        family = self.family(text)
        if family is not None:
            return LineMapping(number, text, True, "family", f"{len(family)} atoms ({family[0]}, ...)",
                               f"every {text.split()[0].lower()} atom of the library")
        expr = self.expression(text)
        if expr is None:
            return LineMapping(number, text, False, reason=self.why_not(text))
        if isinstance(expr, AtomRef):
            atom = self.library.by_id[expr.task]
            return LineMapping(number, text, True, "atom", atom.id, atom.description)
        from taskverse.algebra.molecule import build_molecule

        try:
            molecule = build_molecule(expr, self.library)
        except TaskverseError as exc:
            return LineMapping(number, text, False, reason=f"the composition is infeasible: {exc.message}")
        return LineMapping(number, text, True, "molecule", molecule.id, molecule.description)


def coverage(lines: list[str], library: Any) -> dict[str, Any]:
    """Map every non-empty, non-comment line; return the mappings and the share covered."""
    if len(lines) > MAX_LINES:
        raise TaskverseError(f"the list has {len(lines):,} lines; the limit is {MAX_LINES:,}")
    mapper = Mapper(library)
    rows = [mapper.map_line(i, line.strip()) for i, line in enumerate(lines, start=1)
            if line.strip() and not line.strip().startswith("#")]
    covered = sum(r.mapped for r in rows)
    return {"lines": [asdict(r) for r in rows], "covered": covered, "total": len(rows),
            "share": covered / len(rows) if rows else 1.0}

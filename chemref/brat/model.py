"""BRAT standoff value objects: spans, text-bound entities, relations and a parsed document.

Offsets are character offsets (Python code points) into the unmodified ``.txt``, end exclusive.
"""

from __future__ import annotations

from dataclasses import dataclass, field

#: A mention's identity for scoring: (label, sorted distinct fragments as (start, end) pairs).
MentionKey = tuple[str, tuple[tuple[int, int], ...]]


@dataclass(frozen=True, slots=True)
class Span:
    """One fragment ``[start, end)`` of a (possibly discontinuous) text-bound annotation."""

    start: int
    end: int

    def overlaps(self, other: "Span") -> bool:
        """True when the two fragments share at least one character (``s2 < e1 and s1 < e2``)."""
        return other.start < self.end and self.start < other.end


@dataclass(frozen=True, slots=True)
class Entity:
    """A ``T`` line: id, label, one or more fragments (file order) and the text field (may be None)."""

    id: str
    type: str
    spans: tuple[Span, ...]
    text: str | None = None
    line: int = 0

    @property
    def fragments(self) -> tuple[tuple[int, int], ...]:
        """The fragments as ``(start, end)`` pairs, in file order."""
        return tuple((s.start, s.end) for s in self.spans)

    @property
    def key(self) -> MentionKey:
        """Identity used by the ChEMU scorer: label plus the sorted set of fragments."""
        return (self.type, tuple(sorted(set(self.fragments))))

    @property
    def start(self) -> int:
        """First character covered by any fragment."""
        return min(s.start for s in self.spans)

    @property
    def end(self) -> int:
        """End (exclusive) of the last fragment."""
        return max(s.end for s in self.spans)


@dataclass(frozen=True, slots=True)
class Relation:
    """An ``R`` line: ``arg1``/``arg2`` are the T ids with roles ``Arg1``/``Arg2`` (anaphor, antecedent)."""

    id: str
    type: str
    arg1: str
    arg2: str
    line: int = 0


@dataclass(frozen=True, slots=True)
class Event:
    """An ``E`` line: trigger T id and ``(role, id)`` arguments. Never scored."""

    id: str
    type: str
    trigger: str
    args: tuple[tuple[str, str], ...] = ()
    line: int = 0


@dataclass(frozen=True, slots=True)
class Attribute:
    """An ``A``/``M`` line: attribute name, target id and optional value. Never scored."""

    id: str
    name: str
    target: str
    value: str | None = None
    line: int = 0


@dataclass(frozen=True, slots=True)
class Normalization:
    """An ``N`` line: ``Reference T1 DB:ID`` plus its text. Never scored."""

    id: str
    type: str
    target: str
    ref: str
    text: str = ""
    line: int = 0


@dataclass(frozen=True, slots=True)
class Note:
    """A ``#`` line (annotator note) on a target id. Never scored."""

    id: str
    type: str
    target: str
    text: str = ""
    line: int = 0


@dataclass(frozen=True, slots=True)
class Equiv:
    """A ``*`` line: an equivalence group of T ids. Never scored."""

    type: str
    ids: tuple[str, ...]
    line: int = 0


@dataclass(frozen=True, slots=True)
class Document:
    """One parsed ``.ann`` file. ``diagnostics`` holds one-line messages for oddities that were tolerated."""

    name: str
    entities: tuple[Entity, ...] = ()
    relations: tuple[Relation, ...] = ()
    events: tuple[Event, ...] = ()
    attributes: tuple[Attribute, ...] = ()
    normalizations: tuple[Normalization, ...] = ()
    notes: tuple[Note, ...] = ()
    equivs: tuple[Equiv, ...] = ()
    diagnostics: tuple[str, ...] = ()
    path: str | None = field(default=None, compare=False)

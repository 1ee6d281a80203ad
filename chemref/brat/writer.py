"""Write :class:`Document` objects back to BRAT standoff text (the inverse of the reader)."""

from __future__ import annotations

import os

from chemref._io.atomic import atomic_write
from chemref.brat.model import Document, Entity


def _offsets(entity: Entity) -> str:
    return ";".join(f"{s.start} {s.end}" for s in entity.spans)


def format_ann(doc: Document) -> str:
    """The ``.ann`` text of ``doc``: T, R, E, A, N, #, * lines in that order, ``\\n`` line ends."""
    out: list[str] = []
    for e in doc.entities:
        out.append(f"{e.id}\t{e.type} {_offsets(e)}\t{e.text or ''}")
    for r in doc.relations:
        out.append(f"{r.id}\t{r.type} Arg1:{r.arg1} Arg2:{r.arg2}")
    for ev in doc.events:
        args = "".join(f" {role}:{ref}" for role, ref in ev.args)
        out.append(f"{ev.id}\t{ev.type}:{ev.trigger}{args}")
    for a in doc.attributes:
        out.append(f"{a.id}\t{a.name} {a.target}" + (f" {a.value}" if a.value is not None else ""))
    for n in doc.normalizations:
        out.append(f"{n.id}\t{n.type} {n.target} {n.ref}\t{n.text}")
    for note in doc.notes:
        out.append(f"{note.id}\t{note.type} {note.target}\t{note.text}")
    for q in doc.equivs:
        out.append(f"*\t{q.type} {' '.join(q.ids)}")
    return "".join(line + "\n" for line in out)


def write_ann(doc: Document, path: str | os.PathLike[str]) -> None:
    """Write ``doc`` to ``path`` atomically (a temporary file renamed into place)."""
    with atomic_write(path) as handle:
        handle.write(format_ann(doc))

"""Read BRAT standoff ``.ann`` text into :class:`Document` objects, with line-numbered errors.

Lines are split on ``\\n`` (a trailing ``\\r`` is removed, so CRLF files work); blank lines are
skipped. ``T`` and ``R`` lines are always parsed; ``E``, ``A``/``M``, ``N``, ``#`` and ``*`` lines
are parsed when their letter is in ``kinds`` and skipped otherwise (the scorers only need T and R).
Lines of any other kind are ignored and recorded in ``Document.diagnostics``.
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

from chemref.brat.decode import decode_ann
from chemref.brat.model import (
    Attribute,
    Document,
    Entity,
    Equiv,
    Event,
    MentionKey,
    Normalization,
    Note,
    Relation,
    Span,
)
from chemref.errors import BratError

#: every line kind this reader understands (the first character of a line)
ALL_KINDS = "TREAMN#*"
#: what the scorers need
SCORING_KINDS = "TR"
#: warnings listed line by line for one file; past them, one line counts the rest (a file of a million bad
#: lines gives a few lines of warnings, in bounded memory)
LINE_WARNINGS = 5
#: digits an offset may have: 15 reach past any text a scorer reads (its limits are in megabytes)
OFFSET_DIGITS = 15


class LineWarnings:
    """The per-line warnings of one file, appended to ``out``: the first :data:`LINE_WARNINGS` as they come,
    then only counted, with one line saying how many more there were (:meth:`close`)."""

    __slots__ = ("out", "path", "listed", "more")

    def __init__(self, out: list[str], path: str | None) -> None:
        self.out, self.path, self.listed, self.more = out, path, 0, 0

    def add(self, message: str) -> None:
        if self.listed < LINE_WARNINGS:
            self.out.append(message)
            self.listed += 1
        else:
            self.more += 1

    def close(self) -> None:
        if self.more:
            self.out.append(f"{self.path}: {self.more:,} more lines with warnings; only the first {LINE_WARNINGS} "
                            "are listed")
            self.more = 0


def refuse_unknown_lines(unknown: int, lines: int, path: str | None) -> None:
    """A BratError naming ``path`` when more than half of its ``lines`` (not blank) are of no BRAT kind: the
    file is not a BRAT annotation file (random bytes, another format), and scoring it as the few lines that
    happen to parse would hide that. A file with a few stray lines is read, with a warning per line."""
    if unknown and 2 * unknown > lines:
        raise BratError(f"{unknown:,} of its {lines:,} lines are of no BRAT kind (a line starts with T, R, E, A, M, "
                        "N, # or *): this is not a BRAT .ann file", path=path,
                        hint="give the annotations' .ann files, in BRAT standoff format")


def read_ann(path: str | os.PathLike[str], *, name: str | None = None, kinds: str = ALL_KINDS,
             data: bytes | None = None) -> Document:
    """Read one ``.ann`` file (or its ``data`` bytes, e.g. from a zip member) into a :class:`Document`."""
    spath = str(path)
    if data is None:
        try:
            data = Path(path).read_bytes()
        except OSError as exc:
            raise BratError(f"cannot read the annotation file: {exc.strerror or exc}", path=spath) from None
    text, warnings = decode_ann(data, path=spath)
    doc = parse_ann(text, name=name if name is not None else Path(spath).stem, path=spath, kinds=kinds)
    if warnings:
        doc = _with_diagnostics(doc, warnings)
    return doc


def _with_diagnostics(doc: Document, extra: list[str]) -> Document:
    return replace(doc, diagnostics=tuple(extra) + doc.diagnostics)


def parse_offsets(field: str, path: str | None, lineno: int) -> list[tuple[int, int]]:
    """``START END[;START END...]`` (spaces around ``;`` allowed) -> ``[(start, end), ...]``; BratError otherwise,
    and for an empty fragment (``5 5``): it holds no character, so no overlap test can say what it matches.

    Shared by :func:`parse_ann` and :func:`scan_ann`, so both reject the same offsets with the same message.
    """
    frags = []
    for frag in field.split(";"):
        se = frag.split()
        if len(se) != 2:
            raise BratError(f"cannot read the offsets {field.strip()!r}: each fragment must be 'START END'",
                            path=path, line=lineno, hint="fragments of a discontinuous span are separated by ';'")
        a, b = se
        if not (a.isascii() and a.isdigit() and b.isascii() and b.isdigit()):
            raise BratError(f"offsets must be non-negative integers written with the digits 0-9, got "
                            f"{shortened(frag.strip())!r}", path=path, line=lineno)
        if len(a) > OFFSET_DIGITS or len(b) > OFFSET_DIGITS:
            raise BratError(f"an offset has {max(len(a), len(b)):,} digits, more than any text can need "
                            f"({OFFSET_DIGITS})", path=path, line=lineno, hint="fix the offsets or remove the line")
        start, end = int(a), int(b)
        if end < start:
            raise BratError(f"fragment {start} {end} ends before it starts", path=path, line=lineno)
        if end == start:
            raise BratError(f"fragment {start} {end} is empty: a mention covers at least one character",
                            path=path, line=lineno, hint="fix the offsets or remove the line")
        frags.append((start, end))
    return frags


def shortened(text: str, width: int = 60) -> str:
    """``text`` cut to ``width`` characters for a message (an offset field may be megabytes long)."""
    return text if len(text) <= width else text[:width] + "..."


def split_t_line(line: str, path: str | None, lineno: int) -> tuple[str, str, str, str | None]:
    """A ``T`` line as ``(id, type, offsets field, text or None)``; BratError when it has not that shape."""
    fields = line.split("\t", 3)
    if len(fields) < 2:
        raise BratError("T line has no tab after its id", path=path, line=lineno,
                        hint="expected 'Tn<TAB>TYPE START END<TAB>TEXT'")
    typ, _, rest = fields[1].strip().partition(" ")
    if not typ or not rest.strip():
        raise BratError(f"cannot read {fields[1]!r} as 'TYPE START END'", path=path, line=lineno)
    return fields[0], typ, rest, fields[2] if len(fields) > 2 else None


def _frags(offs: str, path: str | None, lineno: int) -> tuple[tuple[int, int], ...]:
    """The sorted distinct fragments of a T line's offsets field (a mention's identity in ChEMU scoring)."""
    return tuple(sorted(set(parse_offsets(offs, path, lineno))))


def read_t_line(line: str, path: str | None, lineno: int) -> tuple[str, str, tuple[tuple[int, int], ...]]:
    """Careful reading of one T line: ``(id, label, fragments)`` or a BratError saying what is wrong."""
    tid, typ, offs, _ = split_t_line(line, path, lineno)
    return tid, typ, _frags(offs, path, lineno)


def read_r_line(line: str, path: str | None, lineno: int) -> tuple[str, str, str]:
    """Careful reading of one R line: ``(type, Arg1 id, Arg2 id)`` or a BratError saying what is wrong."""
    fields = line.split("\t", 2)
    toks = fields[1].split() if len(fields) > 1 else []
    if len(toks) != 3:
        raise BratError("cannot read the relation: expected 'Rn<TAB>TYPE Arg1:Tid Arg2:Tid'",
                        path=path, line=lineno)
    r1, s1, a = toks[1].partition(":")
    r2, s2, b = toks[2].partition(":")
    if not (s1 and s2 and a and b):
        raise BratError(f"cannot read the relation arguments {toks[1]!r} {toks[2]!r}", path=path,
                        line=lineno, hint="expected Arg1:Tid and Arg2:Tid")
    if r1 == "Arg1" and r2 == "Arg2":
        return toks[0], a, b
    if r1 == "Arg2" and r2 == "Arg1":
        return toks[0], b, a
    raise BratError(f"relation roles must be Arg1 and Arg2, got {r1} and {r2}", path=path, line=lineno)


#: repeated lines in one file past which :func:`scan_ann` reads each distinct line once
REPEATED_LINES = 1000


def scan_ann(text: str, path: str | None = None) -> tuple[dict[str, MentionKey], list[tuple[str, str, str, int]],
                                                         list[str]]:
    """Lean T/R reading for scoring: ``({Tid: Entity.key}, [(type, arg1_id, arg2_id, line)], diagnostics)``.

    Same rules and errors as :func:`parse_ann` with ``kinds="TR"``, without building objects (what the
    ChEMU scorer reads thousands of files with): the common line shapes take a short path, anything
    else goes through :func:`read_t_line` / :func:`read_r_line`. In a file holding more than
    :data:`REPEATED_LINES` repeated lines, a line identical to an earlier one (id included) is read once: the
    same mention (the later line still wins) or the same relation (scored once, as sets are); its reused id is
    warned about as any other.
    """
    if "\r" in text:  # CR, LF and CRLF end a line, as in BRATEval mode (offsets point into the .txt, not here)
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    if len(lines) > REPEATED_LINES and len(lines) - len(set(lines)) > REPEATED_LINES:
        return _scan_repeated(lines, path)
    ments: dict[str, MentionKey] = {}
    rels: list[tuple[str, str, str, int]] = []
    diags: list[str] = []
    unknown = LineWarnings(diags, path)
    n_t = 0
    n_unknown = blank = 0
    r_ids: list[str] = []
    lineno = 0
    for line in lines:
        lineno += 1
        c = line[:1]
        if c == "T":
            n_t += 1
            parts = line.split("\t", 2)
            if len(parts) > 1:
                sp = parts[1].split()
                if len(sp) == 3 and sp[1].isascii() and sp[1].isdigit() and sp[2].isascii() and sp[2].isdigit() \
                        and len(sp[1]) <= OFFSET_DIGITS and len(sp[2]) <= OFFSET_DIGITS:
                    start, end = int(sp[1]), int(sp[2])
                    if start < end:
                        ments[parts[0]] = (sp[0], ((start, end),))
                        continue
            tid, typ, frags = read_t_line(line, path, lineno)
            ments[tid] = (typ, frags)
        elif c == "R":
            parts = line.split("\t", 2)
            if len(parts) > 1:
                sp = parts[1].split()
                if len(sp) == 3:
                    typ, x, y = sp
                    if x[:5] == "Arg1:" and y[:5] == "Arg2:" and x[5:] and y[5:]:
                        rels.append((typ, x[5:], y[5:], lineno))
                        r_ids.append(parts[0])
                        continue
            typ, a, b = read_r_line(line, path, lineno)
            rels.append((typ, a, b, lineno))
            r_ids.append(line.split("\t", 1)[0])
        elif not c or line.isspace():
            blank += 1
        elif c not in "EAMN#*":
            n_unknown += 1
            unknown.add(f"{path}:{lineno}: ignored a line of unknown kind {c!r}")
    refuse_unknown_lines(n_unknown, lineno - blank, path)
    unknown.close()
    if len(ments) != n_t:
        _duplicates(lines, path, "T", diags)
    if len(set(r_ids)) != len(r_ids):
        _duplicates(lines, path, "R", diags)
    return ments, rels, diags


def _scan_repeated(lines: list[str], path: str | None) -> tuple[dict[str, MentionKey],
                                                                 list[tuple[str, str, str, int]], list[str]]:
    """:func:`scan_ann` of a file of many repeated lines: each distinct T or R line is read once."""
    ments: dict[str, MentionKey] = {}
    rels: list[tuple[str, str, str, int]] = []
    diags: list[str] = []
    unknown = LineWarnings(diags, path)
    t_ids, r_ids = _Ids(path, "the later line wins"), _Ids(path, "both relations are scored (ids must be unique)")
    t_lines: dict[str, tuple[str, MentionKey]] = {}  # a T line read -> (its id, its mention)
    r_lines: dict[str, str] = {}  # an R line read -> its id
    n_unknown = blank = 0
    lineno = 0
    for line in lines:
        lineno += 1
        c = line[:1]
        if c == "T":
            known = t_lines.get(line)
            if known is None:
                known = t_lines[line] = _scan_t_line(line, path, lineno)
            ments[known[0]] = known[1]
            t_ids.see(known[0], lineno)
        elif c == "R":
            rid = r_lines.get(line)
            if rid is None:
                rid = r_lines[line] = _scan_r_line(line, path, lineno, rels)
            r_ids.see(rid, lineno)
        elif not c or line.isspace():
            blank += 1
        elif c not in "EAMN#*":
            n_unknown += 1
            unknown.add(f"{path}:{lineno}: ignored a line of unknown kind {c!r}")
    refuse_unknown_lines(n_unknown, lineno - blank, path)
    unknown.close()
    t_ids.close(diags)
    r_ids.close(diags)
    return ments, rels, diags


def _scan_t_line(line: str, path: str | None, lineno: int) -> tuple[str, MentionKey]:
    """One T line as ``(id, mention key)`` (the common shape on a short path)."""
    parts = line.split("\t", 2)
    if len(parts) > 1:
        sp = parts[1].split()
        if len(sp) == 3 and sp[1].isascii() and sp[1].isdigit() and sp[2].isascii() and sp[2].isdigit() \
                and len(sp[1]) <= OFFSET_DIGITS and len(sp[2]) <= OFFSET_DIGITS:
            start, end = int(sp[1]), int(sp[2])
            if start < end:
                return parts[0], (sp[0], ((start, end),))
    tid, typ, frags = read_t_line(line, path, lineno)
    return tid, (typ, frags)


def _scan_r_line(line: str, path: str | None, lineno: int, rels: list[tuple[str, str, str, int]]) -> str:
    """Read one R line into ``rels`` (the common shape on a short path); its id."""
    parts = line.split("\t", 2)
    if len(parts) > 1:
        sp = parts[1].split()
        if len(sp) == 3:
            typ, x, y = sp
            if x[:5] == "Arg1:" and y[:5] == "Arg2:" and x[5:] and y[5:]:
                rels.append((typ, x[5:], y[5:], lineno))
                return parts[0]
    typ, a, b = read_r_line(line, path, lineno)
    rels.append((typ, a, b, lineno))
    return line.split("\t", 1)[0]


class _Ids:
    """The T or R ids of one file as they come: a reused one is warned about (naming the line it was last on and
    ``outcome``), the first :data:`LINE_WARNINGS` one by one, then counted; a message is made only when listed."""

    __slots__ = ("last", "warnings", "path", "outcome")

    def __init__(self, path: str | None, outcome: str) -> None:
        self.last: dict[str, int] = {}
        self.warnings = LineWarnings([], path)
        self.path = path
        self.outcome = outcome

    def see(self, xid: str, lineno: int) -> None:
        previous = self.last.get(xid)
        if previous is not None:
            warnings = self.warnings
            if warnings.listed < LINE_WARNINGS:
                warnings.add(f"{self.path}:{lineno}: duplicate id {xid} (line {previous}); {self.outcome}")
            else:
                warnings.more += 1
        self.last[xid] = lineno

    def close(self, out: list[str]) -> None:
        """Append the warnings to ``out``."""
        self.warnings.close()
        out.extend(self.warnings.out)


def _duplicates(lines: list[str], path: str | None, kind: str, out: list[str]) -> None:
    """One line per reused ``kind`` (T or R) id, up to :data:`LINE_WARNINGS`, then a count: a T line replaces
    the earlier one, both R lines are kept."""
    first: dict[str, int] = {}
    warnings = LineWarnings(out, path)
    outcome = "the later line wins" if kind == "T" else "both relations are scored (ids must be unique)"
    for lineno, line in enumerate(lines, 1):
        if line[:1] == kind:
            xid = line.split("\t", 1)[0]
            if xid in first:
                warnings.add(f"{path}:{lineno}: duplicate id {xid} (line {first[xid]}); {outcome}")
            first[xid] = lineno
    warnings.close()


def parse_ann(text: str, *, name: str = "", path: str | None = None, kinds: str = ALL_KINDS) -> Document:
    """Parse the text of an ``.ann`` file. Raises :class:`BratError` (with file and line) on a bad T/R line,
    on a relation whose argument is not a T id of the file, and (naming the file) when most lines are of no
    BRAT kind (:func:`refuse_unknown_lines`)."""
    entities: dict[str, Entity] = {}
    relations: list[Relation] = []
    events: list[Event] = []
    attributes: list[Attribute] = []
    norms: list[Normalization] = []
    notes: list[Note] = []
    equivs: list[Equiv] = []
    diags: list[str] = []
    r_lines: dict[str, int] = {}
    where = path or name or "<ann>"
    noted = LineWarnings(diags, where)
    lineno = lines = unknown = 0
    for line in text.split("\n"):
        lineno += 1
        if line.endswith("\r"):
            line = line[:-1]
        if not line or line.isspace():
            continue
        lines += 1
        kind = line[0]
        if kind == "T":
            tid, typ, rest, mention = split_t_line(line, path, lineno)
            if tid in entities:
                noted.add(f"{where}:{lineno}: duplicate id {tid} (line {entities[tid].line}); the later line wins")
            entities[tid] = Entity(tid, typ, tuple(Span(a, b) for a, b in parse_offsets(rest, path, lineno)),
                                   mention, lineno)
        elif kind == "R":
            rel = _relation(line, path, lineno)
            if rel.id in r_lines:
                noted.add(f"{where}:{lineno}: duplicate id {rel.id} (line {r_lines[rel.id]}); both "
                          "relations are kept (ids must be unique)")
            r_lines.setdefault(rel.id, lineno)
            relations.append(rel)
        elif kind not in kinds:
            if kind not in ALL_KINDS:
                unknown += 1
                noted.add(f"{where}:{lineno}: ignored a line of unknown kind {kind!r}")
        else:
            _parse_other(kind, line, lineno, path, events, attributes, norms, notes, equivs)
    refuse_unknown_lines(unknown, lines, path or name)
    noted.close()
    for rel in relations:
        for ref in (rel.arg1, rel.arg2):
            if ref not in entities:
                raise BratError(f"relation {rel.id} refers to {ref}, which is not a T id of this file",
                                path=path or name, line=rel.line)
    return Document(name=name, entities=tuple(entities.values()), relations=tuple(relations),
                    events=tuple(events), attributes=tuple(attributes), normalizations=tuple(norms),
                    notes=tuple(notes), equivs=tuple(equivs), diagnostics=tuple(diags), path=path)


def _relation(line: str, path: str | None, lineno: int) -> Relation:
    """An R line as a :class:`Relation` (its roles in either order); a malformed one is a BratError."""
    fields = line.split("\t", 2)
    toks = fields[1].split() if len(fields) > 1 else []
    if len(toks) != 3:
        raise BratError("cannot read the relation: expected 'Rn<TAB>TYPE Arg1:Tid Arg2:Tid'", path=path, line=lineno)
    args = {}
    for tok in toks[1:]:
        role, sep, ref = tok.partition(":")
        if not sep or not ref or role in args:
            raise BratError(f"cannot read the relation argument {tok!r}", path=path, line=lineno,
                            hint="expected Arg1:Tid and Arg2:Tid")
        args[role] = ref
    if "Arg1" not in args or "Arg2" not in args:
        raise BratError(f"relation roles must be Arg1 and Arg2, got {' '.join(args)}", path=path, line=lineno)
    return Relation(fields[0], toks[0], args["Arg1"], args["Arg2"], lineno)


def _parse_other(kind: str, line: str, lineno: int, path: str | None, events: list, attributes: list,
                 norms: list, notes: list, equivs: list) -> None:
    """E, A/M, N, # and * lines as BRAT defines them; a malformed one is a BratError."""
    fields = line.split("\t")
    toks = fields[1].split() if len(fields) > 1 else []
    if kind == "E":
        typ, sep, trigger = toks[0].partition(":") if toks else ("", "", "")
        pairs = [t.partition(":") for t in toks[1:]]
        if not sep or not trigger or any(not p[1] or not p[2] for p in pairs):
            raise BratError("cannot read the event: expected 'En<TAB>TYPE:Tid ROLE:ID ...'", path=path, line=lineno)
        events.append(Event(fields[0], typ, trigger, tuple((p[0], p[2]) for p in pairs), lineno))
    elif kind in "AM":
        if len(toks) not in (2, 3):
            raise BratError("cannot read the attribute: expected 'An<TAB>NAME ID [VALUE]'", path=path, line=lineno)
        attributes.append(Attribute(fields[0], toks[0], toks[1], toks[2] if len(toks) > 2 else None, lineno))
    elif kind == "N":
        if len(toks) != 3:
            raise BratError("cannot read the normalization: expected 'Nn<TAB>TYPE ID DB:ID<TAB>TEXT'",
                            path=path, line=lineno)
        norms.append(Normalization(fields[0], toks[0], toks[1], toks[2],
                                   fields[2] if len(fields) > 2 else "", lineno))
    elif kind == "#":
        if len(toks) < 2:
            raise BratError("cannot read the note: expected '#n<TAB>TYPE ID<TAB>TEXT'", path=path, line=lineno)
        notes.append(Note(fields[0], toks[0], toks[1], fields[2] if len(fields) > 2 else "", lineno))
    else:  # "*"
        if len(toks) < 2:
            raise BratError("cannot read the equivalence: expected '*<TAB>Equiv ID ID ...'", path=path, line=lineno)
        equivs.append(Equiv(toks[0], tuple(toks[1:]), lineno))

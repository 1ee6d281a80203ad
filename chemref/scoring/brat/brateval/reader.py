"""``.ann`` files as BRATEval v0.3.2 reads them (``Annotations.read``): the lines it keeps, the ones it skips
with a warning and the ones that make it abort (raised as :class:`BratError` naming file, line and the
Java exception).

This is deliberately not :mod:`chemref.brat.reader`: BRATEval splits on single spaces and tabs the Java
way, keeps fragments in file order and the T text field, and crashes where BRAT's rules say "error".
"""

from __future__ import annotations

from typing import Any

from chemref._io import line_and_column
from chemref.brat.decode import binary, gold_not_utf8
from chemref.brat.reader import LineWarnings, refuse_unknown_lines, shortened
from chemref.errors import BratError
from chemref.scoring.brat.brateval.java import java_parse_int, java_read_lines, java_split, java_trim


class BEntity:
    """A T line as BRATEval keeps it: id, type, fragments in file order, text."""

    __slots__ = ("id", "type", "frags", "text")

    def __init__(self, id: str, type: str, frags: list[tuple[int, int]], text: str) -> None:
        self.id, self.type, self.frags, self.text = id, type, frags, text


class BRelation:
    """An R line as BRATEval keeps it; ``e1``/``e2`` are filled once the T ids are resolved."""

    __slots__ = ("id", "rel", "id1", "id2", "line", "e1", "e2")

    def __init__(self, id: str, rel: str, id1: str, id2: str, line: int) -> None:
        self.id, self.rel, self.id1, self.id2, self.line = id, rel, id1, id2, line
        self.e1: BEntity | None = None
        self.e2: BEntity | None = None

    @property
    def key(self) -> str:
        """BRATEval's per-type key ``REL|TYPE1|TYPE2``."""
        return f"{self.rel}|{self.e1.type}|{self.e2.type}"  # type: ignore[union-attr]


class BDocument:
    """One ``.ann`` file as BRATEval reads it: entities and relations by id."""

    __slots__ = ("entities", "relations", "path")

    def __init__(self, entities: dict[str, BEntity], relations: dict[str, BRelation], path: str) -> None:
        self.entities, self.relations, self.path = entities, relations, path


def _abort(why: str, path: str, line: int, exc: str) -> BratError:
    return BratError(why, path=path, line=line, hint=f"BRATEval v0.3.2 aborts here with {exc}")


def _empty_fragment(path: str, lineno: int, at: int) -> str:
    return (f"{path}:{lineno}: an empty fragment ({at} {at}) holds no character; BRATEval scores it as it is "
            f"(its overlap test matches it with mentions around it), ChEMU mode refuses it")


def parse_brateval(text: str, path: str, warnings: list[str]) -> BDocument:
    """``Annotations.read`` of BRATEval v0.3.2, including the lines it skips and the ones that crash it."""
    entities: dict[str, BEntity] = {}
    relations: dict[str, BRelation] = {}
    noted = LineWarnings(warnings, path)
    if text.startswith("\ufeff"):
        warnings.append(f"{path}:1: the file starts with a byte order mark; BRATEval reads it as part of the "
                        f"first line, which it then ignores")
    lines = unknown = 0
    for lineno, line in enumerate(java_read_lines(text), 1):
        if not line or (line[0] <= " " and not java_trim(line)):
            continue
        lines += 1
        c = line[0]
        if c == "T":
            _t_line(line, path, lineno, entities, noted)
        elif c == "R":
            _r_line(line, path, lineno, relations, noted)
        elif c in "E*AMN#":
            _check_other(c, line, path, lineno)
        else:
            unknown += 1  # BRATEval ignores it without a word
    refuse_unknown_lines(unknown, lines, path)
    noted.close()
    for rel in relations.values():
        rel.e1 = entities.get(rel.id1)
        rel.e2 = entities.get(rel.id2)
    return BDocument(entities, relations, path)


def _t_line(line: str, path: str, lineno: int, entities: dict[str, BEntity], noted: LineWarnings) -> None:
    """A T line into ``entities`` (a skipped one noted), or the error BRATEval aborts with."""
    fields = line.split("\t")
    if len(fields) == 3 and fields[2]:
        # common shape "TYPE START END": Python and Java splitting agree, parse directly
        ent = fields[1].split(" ")
        if len(ent) == 3 and ent[0] and ent[1].isdigit() and ent[2].isdigit() and ent[1].isascii() \
                and ent[2].isascii() and len(ent[1]) < 10 and len(ent[2]) < 10:
            start, end = int(ent[1]), int(ent[2])
            entities[fields[0]] = BEntity(fields[0], ent[0], [(start, end)], fields[2])
            if start == end:
                noted.add(_empty_fragment(path, lineno, start))
            return
    else:
        fields = java_split(line, "\t")
    if len(fields) != 3:
        noted.add(f"{path}:{lineno}: BRATEval skips this T line ({len(fields)} tab-separated "
                  f"fields, not 3; an empty text field counts as missing)")
        return
    ent = java_split(fields[1], " ")
    if not ent:
        raise _abort("cannot read the T line's type and offsets", path, lineno, "ArrayIndexOutOfBoundsException")
    frags = [_fragment(loc, path, lineno) for loc in java_split(java_trim(fields[1][len(ent[0]):]), ";")]
    entities[fields[0]] = BEntity(fields[0], ent[0], frags, fields[2])
    empty = next((s for s, e in frags if s == e), None)
    if empty is not None:
        noted.add(_empty_fragment(path, lineno, empty))


def _fragment(loc: str, path: str, lineno: int) -> tuple[int, int]:
    """One ``START END`` fragment read with Java's ``parseInt``, or the error BRATEval aborts with."""
    se = java_split(loc, " ")
    bad = next((x for x in se[:2] if not x.isascii()), None)
    if bad is not None:  # Java's parseInt reads any Unicode digits ("\u0664"); chemref refuses them
        raise BratError(f"offsets must be written with the digits 0-9, got {shortened(bad)!r}",
                        path=path, line=lineno, hint="BRATEval would read other Unicode digits as "
                        "numbers; write the offsets with ASCII digits")
    try:
        return java_parse_int(se[0]), java_parse_int(se[1])
    except IndexError:
        raise _abort(f"fragment {shortened(loc)!r} has no end offset", path, lineno,
                     "ArrayIndexOutOfBoundsException") from None
    except ValueError as exc:
        raise _abort(f"offset {shortened(str(exc.args[0]))!r} in fragment {shortened(loc)!r} is not "
                     f"an integer (write 'START END;START END' with single spaces)", path, lineno,
                     "NumberFormatException") from None


def _r_line(line: str, path: str, lineno: int, relations: dict[str, BRelation], noted: LineWarnings) -> None:
    """An R line into ``relations`` (a skipped one noted), or the error BRATEval aborts with."""
    fields = line.split(" ") if line[-1] > " " else java_split(java_trim(line), " ")
    if len(fields) != 3:
        noted.add(f"{path}:{lineno}: BRATEval skips this R line (splitting on single spaces "
                  f"gives {len(fields)} parts, not 3)")
        return
    sub = java_split(fields[0], "\t")
    a1 = fields[1].split(":")
    a2 = fields[2].split(":")
    if len(sub) < 2 or len(a1) < 2 or len(a2) < 2 or not a1[1] or not a2[1]:
        a1, a2 = java_split(fields[1], ":"), java_split(fields[2], ":")
        if len(sub) < 2 or len(a1) < 2 or len(a2) < 2:
            raise _abort("cannot read the relation: expected 'Rn<TAB>TYPE Arg1:Tid Arg2:Tid'", path,
                         lineno, "ArrayIndexOutOfBoundsException")
    relations[sub[0]] = BRelation(sub[0], sub[1], a1[1], a2[1], lineno)


def _check_other(c: str, line: str, path: str, lineno: int) -> None:
    """An E, ``*``, A/M, N or # line, which BRATEval reads but does not score: the error it aborts with, if any."""
    if c == "E":
        fields = java_split(java_trim(line), "\t")
        if len(fields) > 1:
            sub = java_split(fields[1], " ")
            if not sub or len(java_split(sub[0], ":")) < 2:
                raise _abort("cannot read the event trigger TYPE:Tid", path, lineno, "ArrayIndexOutOfBoundsException")
    elif c == "*":
        if len(line) < 2:
            raise _abort("a '*' line needs '*<TAB>Equiv ID ID...'", path, lineno, "StringIndexOutOfBoundsException")
    elif c in "AM":
        fields = java_split(java_trim(line), "\t")
        if len(fields) > 1 and len(fields[1].split()) < 2:
            raise _abort("the attribute line has no target id ('An<TAB>NAME ID [VALUE]')", path, lineno,
                         "NoSuchElementException")
    else:  # N or #
        fields = java_split(java_trim(line), "\t")
        need = 3 if c == "N" else 2
        if len(fields) == 3 and len(java_split(fields[1], " ")) < need:
            raise _abort(f"the {'normalization' if c == 'N' else 'note'} line has too few fields", path,
                         lineno, "ArrayIndexOutOfBoundsException")


def read_document(src: Any, name: str, warnings: list[str], gold: bool = False) -> BDocument:
    """One document of ``src``; bytes that are not UTF-8 are read as U+FFFD with a warning, as BRATEval does,
    except in a ``gold`` file (the reference says one thing): there they are a :class:`BratError`."""
    where = src.display(name)
    data = src.read_bytes(name)
    why = binary(data)  # gzip, zip, UTF-16, NUL bytes: BRATEval would score its U+FFFD garbage as an empty file
    if why is not None:
        raise BratError(why, path=where, hint="re-save it as UTF-8 text")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        if gold:
            raise gold_not_utf8(data, exc, where) from None
        line, _ = line_and_column(data, exc.start)
        warnings.append(f"{where}:{line}: bytes that are not UTF-8 were read as U+FFFD, as BRATEval does "
                        f"with a UTF-8 default charset")
        text = data.decode("utf-8", errors="replace")
    return parse_brateval(text, where, warnings)

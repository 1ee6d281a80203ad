"""BRATEval v0.3.2 compatibility (SCORING.md section 2): its line parsing, greedy matching in
``java.util.HashMap`` id order, asymmetric span tests, ``REL|TYPE1|TYPE2`` keys, fpm/fnm and
Java's HALF_UP number formatting, printed line for line from ``Summary:`` on.

Wherever BRATEval aborts with a Java exception, this module raises a :class:`BratError` /
:class:`ScoringError` that says which file, which line and why, and no summary is produced.
"""

from __future__ import annotations

import os
from functools import lru_cache
from typing import Any, Iterable, Sequence

from chemref.errors import BratError, ScoringError
from chemref.scoring.report import Report, format4, prf
from chemref.scoring.spans import brateval_exact, brateval_overlap, brateval_similarity

_JAVA_WS = "".join(chr(i) for i in range(33))
_SPAN_NAMES = {"exact": "EXACT", "overlap": "OVERLAP", "approx": "APPROXIMATE"}
_TYPE_NAMES = {"exact": "EXACT", "inexact": "INEXACT", "hierarchical": "HIERARCHICAL"}


# ---------------------------------------------------------------- Java helpers
def java_format4(x: float) -> str:
    """``String.format("%1.4f", x)``: HALF_UP on the shortest decimal representation of ``x``."""
    return format4(x)


def java_split(s: str, sep: str) -> list[str]:
    """``String.split`` with a one-character separator: trailing empty strings are dropped."""
    parts = s.split(sep)
    if len(parts) == 1:
        return parts
    while parts and parts[-1] == "":
        parts.pop()
    return parts


def java_trim(s: str) -> str:
    """``String.trim``: strips characters <= U+0020 only."""
    return s.strip(_JAVA_WS)


def java_read_lines(text: str) -> list[str]:
    """``BufferedReader.readLine`` splitting: ``\\n``, ``\\r`` and ``\\r\\n`` end a line."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def java_parse_int(s: str) -> int:
    """``Integer.parseInt``: optional sign, decimal digits, 32-bit range; ValueError otherwise."""
    body = s[1:] if s[:1] in ("+", "-") else s
    if not body or not body.isdecimal():
        raise ValueError(s)
    value = int(s)
    if not -(2 ** 31) <= value < 2 ** 31:
        raise ValueError(s)
    return value


@lru_cache(maxsize=65536)
def java_string_hash(s: str) -> int:
    """``String.hashCode`` over UTF-16 code units, as an unsigned 32-bit value."""
    h = 0
    if s.isascii():
        for c in s.encode("ascii"):
            h = (31 * h + c) & 0xFFFFFFFF
    else:
        data = s.encode("utf-16-le", "surrogatepass")
        for i in range(0, len(data), 2):
            h = (31 * h + (data[i] | data[i + 1] << 8)) & 0xFFFFFFFF
    return h


def java_hashmap_layout(keys: Iterable[str]) -> tuple[list[str], bool]:
    """Iteration order of a ``java.util.HashMap<String, V>`` after ``put`` of ``keys`` in this order, and
    whether Java would have turned a bucket into a tree (then the order shown is only approximate).

    Emulates the bucket index ``(h ^ h>>>16) & (cap-1)``, insertion order within a bucket, growth at
    size > 0.75·cap, and the resize a bucket of 9+ entries causes in a table smaller than 64. In a
    larger table such a bucket becomes a red-black tree whose iteration order is not emulated.
    """
    spread: dict[str, int] = {}
    cap = 16
    counts: dict[int, int] = {}
    treeified = False
    for key in keys:
        if key in spread:
            continue  # put on an existing key replaces the value in place
        h = java_string_hash(key)
        h ^= h >> 16
        spread[key] = h
        b = h & (cap - 1)
        before = counts.get(b, 0)
        counts[b] = before + 1
        long_bin = before >= 8
        if long_bin and cap >= 64:
            treeified = True
        if len(spread) > cap * 3 // 4 or (long_bin and cap < 64):
            while True:
                cap *= 2
                if not (len(spread) > cap * 3 // 4):
                    break
            counts = {}
            for hv in spread.values():
                counts[hv & (cap - 1)] = counts.get(hv & (cap - 1), 0) + 1
    index = {k: i for i, k in enumerate(spread)}
    return sorted(spread, key=lambda k: (spread[k] & (cap - 1), index[k])), treeified


def java_hashmap_order(keys: Iterable[str]) -> list[str]:
    """The iteration order part of :func:`java_hashmap_layout`."""
    return java_hashmap_layout(keys)[0]


def java_sort_key(s: str) -> bytes:
    """Sort key equal to ``String.compareTo`` (UTF-16 code unit order)."""
    return s.encode("utf-16-be", "surrogatepass")


def java_double(x: float) -> str:
    """``Double.toString`` for the similarity threshold in the settings line."""
    if x == int(x) and abs(x) < 1e7:
        return f"{x:.1f}"
    if 1e-3 <= abs(x) < 1e7:
        return repr(x)
    mant, exp = f"{x:.16e}".split("e")
    mant = repr(float(mant))
    return f"{mant}E{int(exp)}"


# ---------------------------------------------------------------- documents as BRATEval sees them
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


def parse_brateval(text: str, path: str, warnings: list[str]) -> BDocument:
    """``Annotations.read`` of BRATEval v0.3.2, including the lines it skips and the ones that crash it."""
    entities: dict[str, BEntity] = {}
    relations: dict[str, BRelation] = {}
    if text.startswith("\ufeff"):
        warnings.append(f"{path}:1: the file starts with a byte order mark; BRATEval reads it as part of the "
                        f"first line, which it then ignores")
    for lineno, line in enumerate(java_read_lines(text), 1):
        if not line or (line[0] <= " " and not java_trim(line)):
            continue
        c = line[0]
        if c == "T":
            fields = line.split("\t")
            if len(fields) == 3 and fields[2]:
                # common shape "TYPE START END": Python and Java splitting agree, parse directly
                ent = fields[1].split(" ")
                if len(ent) == 3 and ent[0] and ent[1].isdigit() and ent[2].isdigit() and ent[1].isascii() \
                        and ent[2].isascii() and len(ent[1]) < 10 and len(ent[2]) < 10:
                    entities[fields[0]] = BEntity(fields[0], ent[0], [(int(ent[1]), int(ent[2]))], fields[2])
                    continue
            else:
                fields = java_split(line, "\t")
            if len(fields) != 3:
                warnings.append(f"{path}:{lineno}: BRATEval skips this T line ({len(fields)} tab-separated "
                                f"fields, not 3; an empty text field counts as missing)")
                continue
            ent = java_split(fields[1], " ")
            if not ent:
                raise _abort("cannot read the T line's type and offsets", path, lineno,
                             "ArrayIndexOutOfBoundsException")
            frags = []
            for loc in java_split(java_trim(fields[1][len(ent[0]):]), ";"):
                se = java_split(loc, " ")
                try:
                    frags.append((java_parse_int(se[0]), java_parse_int(se[1])))
                except IndexError:
                    raise _abort(f"fragment {loc!r} has no end offset", path, lineno,
                                 "ArrayIndexOutOfBoundsException") from None
                except ValueError as exc:
                    raise _abort(f"offset {exc.args[0]!r} in fragment {loc!r} is not an integer "
                                 f"(write 'START END;START END' with single spaces)", path, lineno,
                                 "NumberFormatException") from None
            entities[fields[0]] = BEntity(fields[0], ent[0], frags, fields[2])
        elif c == "R":
            fields = line.split(" ") if line[-1] > " " else java_split(java_trim(line), " ")
            if len(fields) != 3:
                warnings.append(f"{path}:{lineno}: BRATEval skips this R line (splitting on single spaces "
                                f"gives {len(fields)} parts, not 3)")
                continue
            sub = java_split(fields[0], "\t")
            a1 = fields[1].split(":")
            a2 = fields[2].split(":")
            if len(sub) < 2 or len(a1) < 2 or len(a2) < 2 or not a1[1] or not a2[1]:
                a1, a2 = java_split(fields[1], ":"), java_split(fields[2], ":")
                if len(sub) < 2 or len(a1) < 2 or len(a2) < 2:
                    raise _abort("cannot read the relation: expected 'Rn<TAB>TYPE Arg1:Tid Arg2:Tid'", path,
                                 lineno, "ArrayIndexOutOfBoundsException")
            relations[sub[0]] = BRelation(sub[0], sub[1], a1[1], a2[1], lineno)
        elif c == "E":
            fields = java_split(java_trim(line), "\t")
            if len(fields) > 1:
                sub = java_split(fields[1], " ")
                if not sub or len(java_split(sub[0], ":")) < 2:
                    raise _abort("cannot read the event trigger TYPE:Tid", path, lineno,
                                 "ArrayIndexOutOfBoundsException")
        elif c == "*":
            if len(line) < 2:
                raise _abort("a '*' line needs '*<TAB>Equiv ID ID...'", path, lineno,
                             "StringIndexOutOfBoundsException")
        elif c in "AM":
            fields = java_split(java_trim(line), "\t")
            if len(fields) > 1 and len(fields[1].split()) < 2:
                raise _abort("the attribute line has no target id ('An<TAB>NAME ID [VALUE]')", path, lineno,
                             "NoSuchElementException")
        elif c in "N#":
            fields = java_split(java_trim(line), "\t")
            need = 3 if c == "N" else 2
            if len(fields) == 3 and len(java_split(fields[1], " ")) < need:
                raise _abort(f"the {'normalization' if c == 'N' else 'note'} line has too few fields", path,
                             lineno, "ArrayIndexOutOfBoundsException")
    for rel in relations.values():
        rel.e1 = entities.get(rel.id1)
        rel.e2 = entities.get(rel.id2)
    return BDocument(entities, relations, path)


# ---------------------------------------------------------------- matching
class Matcher:
    """``Entity.getMatchResult`` for one span / type / similarity setting."""

    __slots__ = ("span", "type_exact", "threshold")

    def __init__(self, span: str, type_match: str, threshold: float | None) -> None:
        self.span = span
        self.type_exact = type_match != "inexact"  # hierarchical without annotation.conf acts like exact
        self.threshold = threshold

    def __call__(self, e1: BEntity, e2: BEntity) -> bool:
        if self.type_exact and e1.type != e2.type:
            return False
        if brateval_exact(e1.frags, e2.frags):
            return True
        if self.span == "exact" or not brateval_overlap(e1.frags, e2.frags):
            return False
        if self.span == "approx":
            sim = brateval_similarity(e1.text, e2.text, self.threshold)  # type: ignore[arg-type]
            return sim >= self.threshold  # NaN never matches
        return True


def _find(item: Any, candidates: list, alive: list[bool] | None, match) -> int:
    for j, cand in enumerate(candidates):
        if (alive is None or alive[j]) and match(item, cand):
            return j
    return -1


def _ordered(mapping: dict, path: str, warnings: list[str]) -> list:
    order, treeified = java_hashmap_layout(mapping)
    if treeified:
        warnings.append(f"{path}: so many ids share one java.util.HashMap bucket that Java would use a tree "
                        f"there; BRATEval's greedy visiting order is only approximated for this file")
    return [mapping[k] for k in order]


# ---------------------------------------------------------------- scoring
def _counts() -> list[int]:
    return [0, 0, 0, 0, 0]  # tp, fp, fn, fpm, fnm


def score_entities_doc(gold: BDocument, pred: BDocument, m: Matcher, acc: dict[str, list[int]],
                       types: set[str], errors: list | None, warnings: list[str]) -> None:
    """``CompareEntities`` for one document pair."""
    evals = _ordered(pred.entities, pred.path, warnings)
    alive = [True] * len(evals)
    for g in _ordered(gold.entities, gold.path, warnings):
        types.add(g.type)
        j = _find(g, evals, alive, m)
        if j >= 0:
            alive[j] = False
            acc.setdefault(g.type, _counts())[0] += 1
            types.add(evals[j].type)
        else:
            acc.setdefault(g.type, _counts())[2] += 1
            if errors is not None:
                errors.append(("FN", g))
    for j, e in enumerate(evals):
        if alive[j]:
            types.add(e.type)
            acc.setdefault(e.type, _counts())[1] += 1
            if errors is not None:
                errors.append(("FP", e))


def score_relations_doc(gold: BDocument, pred: BDocument, m: Matcher, acc: dict[str, list[int]],
                        types: set[str], errors: list | None, warnings: list[str]) -> None:
    """``CompareRelations`` for one document pair (greedy in HashMap order, then fpm / fnm)."""
    for doc in (gold, pred):
        for rel in doc.relations.values():
            if rel.e1 is None or rel.e2 is None:
                missing = rel.id1 if rel.e1 is None else rel.id2
                raise BratError(f"relation {rel.id} refers to {missing}, which is not a T id BRATEval read from "
                                f"this file (undefined, or a T line it skipped)", path=doc.path, line=rel.line,
                                hint="BRATEval v0.3.2 aborts here with NullPointerException")
    evals = _ordered(pred.relations, pred.path, warnings)
    ekeys = [r.key for r in evals]
    alive = [True] * len(evals)
    fns: list[BRelation] = []
    for g in _ordered(gold.relations, gold.path, warnings):
        key = g.key
        types.add(key)
        row = acc.setdefault(key, _counts())
        for j, r in enumerate(evals):
            if alive[j] and ekeys[j] == key and m(g.e1, r.e1) and m(g.e2, r.e2):
                alive[j] = False
                row[0] += 1
                break
        else:
            row[2] += 1
            fns.append(g)
    pred_ents = list(pred.entities.values())
    gold_ents = list(gold.entities.values())
    for g in fns:
        if _find(g.e1, pred_ents, None, m) < 0 or _find(g.e2, pred_ents, None, m) < 0:
            acc[g.key][4] += 1
        if errors is not None:
            errors.append(("FN", g))
    for j, r in enumerate(evals):
        if alive[j]:
            key = ekeys[j]
            types.add(key)
            row = acc.setdefault(key, _counts())
            row[1] += 1
            if _find(r.e1, gold_ents, None, m) < 0 or _find(r.e2, gold_ents, None, m) < 0:
                row[3] += 1
            if errors is not None:
                errors.append(("FP", r))


def _read(src: Any, name: str, warnings: list[str]) -> BDocument:
    where = src.display(name)
    data = src.read_bytes(name)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        warnings.append(f"{where}:{line}: bytes that are not UTF-8 were read as U+FFFD, as BRATEval does "
                        f"with a UTF-8 default charset")
        text = data.decode("utf-8", errors="replace")
    return parse_brateval(text, where, warnings)


def _score_names(names: Sequence[str], gsrc: Any, psrc: Any, m: Matcher, *, relations: bool, per_doc: bool,
                 errors: bool, label: str = "brateval", collect: bool = False) -> tuple:
    """Score the documents ``names``: ``(counts by key, row keys, per-doc counts, error records, warnings,
    per-document counts)``; the last (``{(label, key or "all"): (tp, fp, fn)}`` per document) only with ``collect``."""
    acc: dict[str, list[int]] = {}
    types: set[str] = set()
    docs: dict[str, Any] = {}
    records: list[dict[str, Any]] = []
    warnings: list[str] = []
    rows: list[dict[tuple[str, str], tuple[int, int, int]]] = []
    for name in names:
        gdoc = _read(gsrc, name, warnings)
        pdoc = _read(psrc, name, warnings)
        doc_acc: dict[str, list[int]] = {}
        errs: list | None = [] if errors else None
        if relations:
            score_relations_doc(gdoc, pdoc, m, doc_acc, types, errs, warnings)
        else:
            score_entities_doc(gdoc, pdoc, m, doc_acc, types, errs, warnings)
        for key, row in doc_acc.items():
            old = acc.get(key)
            if old is None:
                acc[key] = list(row)
            else:
                for i in range(5):
                    old[i] += row[i]
        if per_doc or collect:
            total = tuple(sum(v[i] for v in doc_acc.values()) for i in range(3))
            if per_doc:
                docs[name] = {"all": prf(*total)}
            if collect:
                doc_row = {(label, key): (v[0], v[1], v[2]) for key, v in doc_acc.items()}
                doc_row[(label, "all")] = total  # type: ignore[assignment]
                rows.append(doc_row)
        if errs:
            records.extend(_brateval_errors(name, errs, relations))
    return acc, types, docs, records, warnings, rows


def _settings_line(pred: str, gold: str, span: str, type_match: str, threshold: float | None) -> str:
    s = f"Type match={_TYPE_NAMES[type_match]}; Span match={_SPAN_NAMES[span]}"
    if span == "approx":
        s += f"; Similarity={java_double(threshold)}"  # type: ignore[arg-type]
    return f"Evaluating Folder: {pred} against Gold Folder: {gold} Match settings : {s}"


def _row(tp: int, fp: int, fn: int) -> tuple[str, str, str, dict[str, Any]]:
    c = prf(tp, fp, fn)
    return java_format4(c["precision"]), java_format4(c["recall"]), java_format4(c["f1"]), c


def score_brateval(gold: str | os.PathLike[str], pred: str | os.PathLike[str], *, level: str = "relations",
                   span: str = "exact", similarity: float | None = None, type_match: str = "exact",
                   per_doc: bool = False, errors: bool = False, jobs: int | None = None,
                   resampling: Any = None, doc_counts: bool = False) -> Report:
    """BRATEval v0.3.2 ``CompareRelations`` / ``CompareEntities`` (eval = ``pred``, gold = ``gold``).

    ``resampling`` (a :class:`~chemref.scoring.resampling.Resampling`) adds bootstrap intervals over documents;
    ``doc_counts`` keeps every document's counts in ``report.doc_counts``.
    """
    from chemref.scoring.parallel import map_chunks, resolve_jobs as _jobs
    from chemref.scoring.sources import AnnSource

    threshold = similarity if span == "approx" else None
    if span == "approx" and threshold is None:
        threshold = 0.8
    m = Matcher(span, type_match, threshold)
    relations = level == "relations"
    warnings: list[str] = []
    acc: dict[str, list[int]] = {}
    types: set[str] = set()
    docs: dict[str, Any] = {}
    records: list[dict[str, Any]] = []
    rows: list[dict[tuple[str, str], tuple[int, int, int]]] = []
    collect = resampling is not None or doc_counts
    label = f"brateval/{level}/{span}" + (f"{java_double(threshold)}" if span == "approx" else "") + f"/{type_match}"
    with AnnSource(gold, recursive=not relations) as gsrc, AnnSource(pred, recursive=not relations) as psrc:
        if not gsrc.names:
            warnings.append(f"{gsrc.path}: no .ann files in the gold folder; BRATEval prints an empty summary")
        for src in (gsrc, psrc):
            for skipped in src.skipped:
                warnings.append(f"{skipped}: in a subfolder; BRATEval's CompareRelations ignores it")
        for name in sorted(psrc.names.keys() - gsrc.names.keys()):
            warnings.append(f"{psrc.display(name)}: prediction file has no gold file; BRATEval ignores it")
        for name in sorted(gsrc.names):
            if name not in psrc.names:
                raise ScoringError(f"mandatory file is missing: {name}.ann (no such file in {psrc.path})",
                                   path=gsrc.display(name),
                                   hint="BRATEval v0.3.2 aborts here; chemref's ChEMU mode (without --brateval) "
                                        "scores a missing file as empty")
        names = sorted(gsrc.names)

        def run(chunk: Sequence[str]) -> tuple:
            return _score_names(chunk, gsrc, psrc, m, relations=relations, per_doc=per_doc, errors=errors,
                                label=label, collect=collect)

        def reopen() -> None:
            gsrc.reopen()
            psrc.reopen()

        for part in map_chunks(run, names, _jobs(jobs, len(names)), reopen):
            part_acc, part_types, part_docs, part_records, part_warnings, part_rows = part
            rows.extend(part_rows)
            for key, row in part_acc.items():
                old = acc.setdefault(key, _counts())
                for i in range(5):
                    old[i] += row[i]
            types |= part_types
            docs.update(part_docs)
            records.extend(part_records)
            warnings.extend(part_warnings)
    lines = ["Annotation taxonomy ignored. No file annotation.conf found.",
             _settings_line(str(pred), str(gold), span, type_match, threshold), "Summary:"]
    per_type: dict[str, Any] = {}
    total = [0, 0, 0, 0, 0]
    if not relations:
        lines.append("|tp|fp|fn|precision|recall|f1")

    def summary_line(key: str, row: Sequence[int]) -> dict[str, Any]:
        """Append BRATEval's printed line for one row (its relation and entity formats differ); return its counts."""
        p, r, f, counts = _row(*row[:3])
        if relations:
            counts.update(fpm=row[3], fnm=row[4])
            lines.append(f"{key}|tp:{row[0]}|fp:{row[1]}|fn:{row[2]}|precision:{p}|recall:{r}|f1:{f}"
                         f"|fpm:{row[3]}|fnm:{row[4]}")
        else:
            lines.append(f"{key}|{row[0]}|{row[1]}|{row[2]}|{p}|{r}|{f}")
        return counts

    for key in sorted(types, key=java_sort_key):
        row = acc.get(key, _counts())
        for i in range(5):
            total[i] += row[i]
        per_type[key] = summary_line(key, row)
    overall = summary_line("all", total)
    if not relations:
        lines.append("")
    text = "\n".join(lines) + "\n"
    if per_doc:
        text += "\nper document (tp/fp/fn)\n" + "".join(
            f"  {d}  {c['all']['tp']}/{c['all']['fp']}/{c['all']['fn']}\n" for d, c in docs.items())
    if errors:
        from chemref.scoring.report import format_error

        text += f"\nerrors ({len(records)} false positives and false negatives)\n" + "".join(
            "  " + format_error(e) + "\n" for e in records)
    from chemref.scoring.brat_api import _meta

    matching = (f"BRATEval v0.3.2: greedy, gold in java.util.HashMap id order; span {_SPAN_NAMES[span]}"
                + (f" (similarity {java_double(threshold)})" if span == "approx" else "")
                + f"; type {_TYPE_NAMES[type_match]}")
    meta = _meta("brateval", f"{label} f1 (the 'all' row)", len(gsrc.names), matching, resampling,
                 "BRATEval's summary line 'all'")
    data: dict[str, Any] = {"meta": meta, "mode": "brateval", "label": label, "level": level, "span": span,
                            "similarity": threshold, "type": type_match, "gold": str(gold), "pred": str(pred),
                            "documents": len(gsrc.names), "per_type": per_type, "overall": overall,
                            "lines": lines}
    if per_doc:
        data["per_doc"] = docs
    if errors:
        data["errors"] = records
    data["warnings"] = warnings
    report = Report(data, text=text)
    if resampling is not None:
        report.add_intervals(rows, resampling)
    if doc_counts:
        report.doc_counts = rows
    return report


def _brateval_errors(name: str, errs: list, relations: bool) -> list[dict[str, Any]]:
    def mention(e: BEntity) -> dict[str, Any]:
        return {"label": e.type, "fragments": [list(f) for f in e.frags], "text": e.text}

    out = []
    for kind, item in errs:
        if relations:
            out.append({"report": "brateval/relations", "kind": kind, "document": name, "type": item.key,
                        "arg1": mention(item.e1), "arg2": mention(item.e2)})
        else:
            out.append({"report": "brateval/entities", "kind": kind, "document": name, "type": item.type,
                        "mention": mention(item)})
    return out

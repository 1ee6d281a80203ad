"""ChEMU 2021 scoring (SCORING.md section 1): exact and relaxed (maximum bipartite) matching of
mentions and relations, with and without COREFERENCE expansion, micro-summed over documents.

A mention is ``(label, sorted distinct fragments)``; a relation is ``(type, Arg1 mention, Arg2 mention)``.
Gold and prediction of one document are sets of those, so duplicates collapse.
"""

from __future__ import annotations

from collections import Counter
from operator import itemgetter

from chemref.brat.reader import parse_offsets, split_t_line
from chemref.errors import BratError, ScoringError
from chemref.scoring.closure import ClosureTooLarge, closure_pairs
from chemref.scoring.matching import max_matching
from chemref.scoring.spans import OverlapIndex

Mention = tuple[str, tuple[tuple[int, int], ...]]
RelItem = tuple[str, Mention, Mention]
COREF = "COREFERENCE"

#: (level, match, coref) of the six ChEMU reports; coref is None for entities
BLOCKS: tuple[tuple[str, str, str | None], ...] = (
    ("relations", "exact", "coref_not_expanded"),
    ("relations", "exact", "coref_expanded"),
    ("relations", "relaxed_bipartite", "coref_not_expanded"),
    ("relations", "relaxed_bipartite", "coref_expanded"),
    ("entities", "exact", None),
    ("entities", "relaxed_bipartite", None),
)


def _frags(offs: str, path: str | None, lineno: int) -> tuple[tuple[int, int], ...]:
    """The sorted distinct fragments of a T line's offsets field (a mention's identity in ChEMU scoring)."""
    return tuple(sorted(set(parse_offsets(offs, path, lineno))))


def _t_line(line: str, path: str | None, lineno: int) -> tuple[str, str, tuple[tuple[int, int], ...]]:
    """Careful reading of one T line: ``(id, label, fragments)`` or a BratError saying what is wrong."""
    tid, typ, offs, _ = split_t_line(line, path, lineno)
    return tid, typ, _frags(offs, path, lineno)


def _r_line(line: str, path: str | None, lineno: int) -> tuple[str, str, str]:
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


def scan_ann(text: str, path: str | None = None) -> tuple[dict[str, Mention], list[tuple[str, str, str, int]], list[str]]:
    """Lean T/R reader for scoring: ``({Tid: mention}, [(type, arg1_id, arg2_id, line)], diagnostics)``.

    Same rules as :func:`chemref.brat.parse_ann` with ``kinds="TR"``, without building objects: the
    common line shapes take a short path, anything else goes through the careful readers above.
    """
    ments: dict[str, Mention] = {}
    rels: list[tuple[str, str, str, int]] = []
    diags: list[str] = []
    n_t = 0
    lineno = 0
    for line in text.split("\n"):
        lineno += 1
        c = line[:1]
        if c == "T":
            n_t += 1
            parts = line.split("\t", 2)
            if len(parts) > 1:
                sp = parts[1].split()
                if len(sp) == 3 and sp[1].isdecimal() and sp[2].isdecimal():
                    start, end = int(sp[1]), int(sp[2])
                    if start <= end:
                        ments[parts[0]] = (sp[0], ((start, end),))
                        continue
            tid, typ, frags = _t_line(line, path, lineno)
            ments[tid] = (typ, frags)
        elif c == "R":
            parts = line.split("\t", 2)
            if len(parts) > 1:
                sp = parts[1].split()
                if len(sp) == 3:
                    typ, x, y = sp
                    if x[:5] == "Arg1:" and y[:5] == "Arg2:" and x[5:] and y[5:]:
                        rels.append((typ, x[5:], y[5:], lineno))
                        continue
            typ, a, b = _r_line(line, path, lineno)
            rels.append((typ, a, b, lineno))
        elif c and c not in "EAMN#*" and not line.isspace():
            diags.append(f"{path}:{lineno}: ignored a line of unknown kind {c!r}")
    if len(ments) != n_t:
        diags.extend(_duplicates(text, path))
    return ments, rels, diags


def _duplicates(text: str, path: str | None) -> list[str]:
    first: dict[str, int] = {}
    out = []
    for lineno, line in enumerate(text.split("\n"), 1):
        if line[:1] == "T":
            tid = line.split("\t", 1)[0]
            if tid in first:
                out.append(f"{path}:{lineno}: duplicate id {tid} (line {first[tid]}); the later line wins")
            first[tid] = lineno
    return out


def document_items(text: str, path: str | None = None) -> tuple[set[Mention], set[RelItem], list[str]]:
    """Entities (every T line) and relations of one ``.ann`` text as sets, plus diagnostics."""
    if "\r" in text:  # CR, LF and CRLF end a line, as in BRATEval mode (offsets point into the .txt, not here)
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    ments, rels, diags = scan_ann(text, path)
    items: set[RelItem] = set()
    for typ, a, b, lineno in rels:
        try:
            items.add((typ, ments[a], ments[b]))
        except KeyError as exc:
            raise BratError(f"relation refers to {exc.args[0]}, which is not a T id of this file",
                            path=path, line=lineno, hint="every Arg1/Arg2 must name a T line") from None
    return set(ments.values()), items, diags


#: default largest number of COREFERENCE links one document's expansion may hold (gold or prediction)
MAX_COREF_LINKS = 1_000_000


def expand_coref(rels: set[RelItem], max_links: int | None = MAX_COREF_LINKS,
                 path: str | None = None) -> set[RelItem]:
    """Add the transitive COREFERENCE links (no inferred self links); other types are untouched.

    Returns ``rels`` itself when nothing follows transitively. A closure holding more than ``max_links``
    links (None: no limit) raises :class:`ScoringError` naming ``path`` before it is built.
    """
    links = [(a, b) for t, a, b in rels if t == COREF]
    if len(links) < 2:
        return rels
    heads = {a for a, _ in links}
    if not any(b in heads for _, b in links):
        return rels  # no chain a->b->c: the closure adds nothing
    try:
        closure = closure_pairs(links, max_links)
    except ClosureTooLarge as exc:
        raise ScoringError(f"the COREFERENCE chains expand to {exc.size:,} links, more than the limit of "
                           f"{exc.limit:,} per document", path=path,
                           hint="raise it with --max-coref-links (max_coref_links=) if the file is genuine"
                           ) from None
    expanded = set(rels)
    before = len(expanded)
    expanded.update((COREF, a, b) for a, b in closure)
    return rels if len(expanded) == before else expanded


Counts = dict[str, list[int]]  # type -> [tp, fp, fn]
_first = itemgetter(0)


def _ent_adjacency(gl: list[Mention], pl: list[Mention]) -> list[list[int]]:
    """``adj[i]``: the indices of the predicted mentions (same label) overlapping gold mention ``i``, ascending."""
    index = OverlapIndex((j, p[1]) for j, p in enumerate(pl))
    return [sorted(index.query(g[1])) for g in gl]


def _rel_adjacency(gl: list[RelItem], pl: list[RelItem]) -> list[list[int]]:
    """``adj[i]``: the indices of the predicted relations whose arguments have gold relation ``i``'s labels
    and overlap its arguments, ascending. Mentions are matched once through an index, then relations
    are found from the matching argument pairs, so the cost follows the edges, not ``len(gl) * len(pl)``."""
    by_label: dict[str, set[Mention]] = {}
    for _, a, b in pl:
        by_label.setdefault(a[0], set()).add(a)
        by_label.setdefault(b[0], set()).add(b)
    indexes = {label: OverlapIndex((m, m[1]) for m in ms) for label, ms in by_label.items()}
    matches: dict[Mention, set[Mention]] = {}

    def partners(m: Mention) -> set[Mention]:
        found = matches.get(m)
        if found is None:
            index = indexes.get(m[0])
            found = matches[m] = index.query(m[1]) if index is not None else set()
        return found

    rel_type = pl[0][0]
    position = {p: j for j, p in enumerate(pl)}  # one type per group, so (arg1, arg2) names one relation
    by_arg: dict[int, dict[Mention, list[int]]] = {}

    def relations_of(side: int) -> dict[Mention, list[int]]:
        found = by_arg.get(side)
        if found is None:
            found = by_arg[side] = {}
            for j, p in enumerate(pl):
                found.setdefault(p[side], []).append(j)
        return found

    adj: list[list[int]] = []
    empty: list[int] = []
    for _, a, b in gl:
        ca = matches.get(a)
        if ca is None:
            ca = partners(a)
        cb = matches.get(b)
        if cb is None:
            cb = partners(b)
        via_pairs = len(ca) * len(cb)
        if via_pairs == 0:
            adj.append(empty)
            continue
        if via_pairs == 1:
            j = position.get((rel_type, next(iter(ca)), next(iter(cb))))
            adj.append(empty if j is None else [j])
            continue
        via_arg1 = via_arg2 = via_pairs
        if via_pairs > 16:  # many overlapping mentions: walk the relations of the rarer side instead
            via_arg1 = sum(len(relations_of(1).get(m, ())) for m in ca)
            via_arg2 = sum(len(relations_of(2).get(m, ())) for m in cb)
        row: list[int] = []
        if via_pairs <= via_arg1 and via_pairs <= via_arg2:
            for x in ca:
                for y in cb:
                    j = position.get((rel_type, x, y))
                    if j is not None:
                        row.append(j)
        elif via_arg1 <= via_arg2:
            for x in ca:
                row.extend(j for j in relations_of(1).get(x, ()) if pl[j][2] in cb)
        else:
            for y in cb:
                row.extend(j for j in relations_of(2).get(y, ()) if pl[j][1] in ca)
        row.sort()
        adj.append(row)
    return adj


def _score_pair(gold: set, pred: set, exact: Counts, relaxed: Counts | None, adjacency,
                unmatched_exact: list | None, unmatched_relaxed: list | None) -> None:
    """Exact counts (set intersection) and, when ``relaxed`` is given, maximum-matching counts per type."""
    if gold == pred:  # identical sets: everything matches exactly, hence also relaxed
        for t, n in Counter(map(_first, gold)).items():
            exact[t] = [n, 0, 0]
            if relaxed is not None:
                relaxed[t] = [n, 0, 0]
        return
    both = gold & pred
    gc, pc, bc = Counter(map(_first, gold)), Counter(map(_first, pred)), Counter(map(_first, both))
    for t in gc.keys() | pc.keys():
        tp = bc[t]
        exact[t] = [tp, pc[t] - tp, gc[t] - tp]
    if unmatched_exact is not None:
        unmatched_exact.extend(("FN", x) for x in gold - both)
        unmatched_exact.extend(("FP", x) for x in pred - both)
    if relaxed is None:
        return
    groups: dict[str, tuple[list, list]] = {}
    for x in gold:
        groups.setdefault(x[0], ([], []))[0].append(x)
    for x in pred:
        groups.setdefault(x[0], ([], []))[1].append(x)
    for t, (gl, pl) in groups.items():
        if gl and pl and (len(gl) != len(pl) or bc[t] != len(gl)):
            adj = adjacency(gl, pl)
            tp, match = max_matching(adj, len(pl))
            if unmatched_relaxed is not None:
                used = set(match)
                unmatched_relaxed.extend(("FN", g) for g, m in zip(gl, match) if m < 0)
                unmatched_relaxed.extend(("FP", p) for j, p in enumerate(pl) if j not in used)
        else:
            tp = len(gl) if gl and pl else 0
            if unmatched_relaxed is not None and not tp:
                unmatched_relaxed.extend(("FN", g) for g in gl)
                unmatched_relaxed.extend(("FP", p) for p in pl)
        relaxed[t] = [tp, len(pl) - tp, len(gl) - tp]


def score_document(gold: tuple[set, set], pred: tuple[set, set], totals: dict[tuple, Counts],
                   errors: list | None = None, *, max_coref_links: int | None = MAX_COREF_LINKS,
                   paths: tuple[str | None, str | None] = (None, None)) -> dict[tuple, Counts]:
    """Add one document's counts to ``totals`` (block -> type -> [tp, fp, fn]); returns this document's counts.

    ``errors`` (when a list) receives ``(block, "FP"|"FN", item)`` for every unmatched item.
    ``max_coref_links`` bounds each side's COREFERENCE expansion (see :func:`expand_coref`); ``paths``
    (gold, prediction) name the files in its error.
    """
    g_ent, g_rel = gold
    p_ent, p_rel = pred
    doc: dict[tuple, Counts] = {b: {} for b in BLOCKS}
    um: dict[tuple, list] | None = {b: [] for b in BLOCKS} if errors is not None else None
    b_rel_ex, b_rel_ex_x, b_rel_rx, b_rel_rx_x, b_ent_ex, b_ent_rx = BLOCKS

    def u(b):
        return um[b] if um is not None else None

    _score_pair(g_rel, p_rel, doc[b_rel_ex], doc[b_rel_rx], _rel_adjacency, u(b_rel_ex), u(b_rel_rx))
    gx = expand_coref(g_rel, max_coref_links, paths[0])
    px = expand_coref(p_rel, max_coref_links, paths[1])
    if gx is g_rel and px is p_rel:
        for src, dst in ((b_rel_ex, b_rel_ex_x), (b_rel_rx, b_rel_rx_x)):
            doc[dst] = {t: list(v) for t, v in doc[src].items()}
            if um is not None:
                um[dst] = list(um[src])
    else:
        _score_pair(gx, px, doc[b_rel_ex_x], doc[b_rel_rx_x], _rel_adjacency, u(b_rel_ex_x), u(b_rel_rx_x))
    _score_pair(g_ent, p_ent, doc[b_ent_ex], doc[b_ent_rx], _ent_adjacency, u(b_ent_ex), u(b_ent_rx))
    for block, counts in doc.items():
        acc = totals.setdefault(block, {})
        for t, (tp, fp, fn) in counts.items():
            row = acc.get(t)
            if row is None:
                acc[t] = [tp, fp, fn]
            else:
                row[0] += tp
                row[1] += fp
                row[2] += fn
    if errors is not None and um is not None:
        for block, items in um.items():
            errors.extend((block, kind, item) for kind, item in items)
    return doc

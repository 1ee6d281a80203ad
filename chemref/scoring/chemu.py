"""ChEMU 2021 scoring (SCORING.md section 1): exact and relaxed (maximum bipartite) matching of
mentions and relations, with and without COREFERENCE expansion, micro-summed over documents.

A mention is ``(label, sorted distinct fragments)``; a relation is ``(type, Arg1 mention, Arg2 mention)``.
Gold and prediction of one document are sets of those, so duplicates collapse.
"""

from __future__ import annotations

from collections import Counter
from operator import itemgetter

from chemref.brat.reader import parse_offsets, split_t_line
from chemref.errors import BratError
from chemref.scoring.closure import transitive_closure
from chemref.scoring.matching import max_matching
from chemref.scoring.spans import overlap

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
    ments, rels, diags = scan_ann(text, path)
    items: set[RelItem] = set()
    for typ, a, b, lineno in rels:
        try:
            items.add((typ, ments[a], ments[b]))
        except KeyError as exc:
            raise BratError(f"relation refers to {exc.args[0]}, which is not a T id of this file",
                            path=path, line=lineno, hint="every Arg1/Arg2 must name a T line") from None
    return set(ments.values()), items, diags


def expand_coref(rels: set[RelItem]) -> set[RelItem]:
    """Add the transitive COREFERENCE links (no inferred self links); other types are untouched.

    Returns ``rels`` itself when nothing follows transitively.
    """
    links = [(a, b) for t, a, b in rels if t == COREF]
    if len(links) < 2:
        return rels
    heads = {a for a, _ in links}
    if not any(b in heads for _, b in links):
        return rels  # no chain a->b->c: the closure adds nothing
    extra = {(COREF, a, b) for a, b in transitive_closure(links)}
    return rels if extra <= rels else rels | extra


Counts = dict[str, list[int]]  # type -> [tp, fp, fn]
_first = itemgetter(0)


def _rel_edge(g: RelItem, p: RelItem) -> bool:
    (_, (l1, f1), (l2, f2)), (_, (m1, h1), (m2, h2)) = g, p
    return l1 == m1 and l2 == m2 and overlap(f1, h1) and overlap(f2, h2)


def _ent_edge(g: Mention, p: Mention) -> bool:
    return overlap(g[1], p[1])


def _score_pair(gold: set, pred: set, exact: Counts, relaxed: Counts | None, edge,
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
            adj = [[j for j, p in enumerate(pl) if edge(g, p)] for g in gl]
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
                   errors: list | None = None) -> dict[tuple, Counts]:
    """Add one document's counts to ``totals`` (block -> type -> [tp, fp, fn]); returns this document's counts.

    ``errors`` (when a list) receives ``(block, "FP"|"FN", item)`` for every unmatched item.
    """
    g_ent, g_rel = gold
    p_ent, p_rel = pred
    doc: dict[tuple, Counts] = {b: {} for b in BLOCKS}
    um: dict[tuple, list] | None = {b: [] for b in BLOCKS} if errors is not None else None
    b_rel_ex, b_rel_ex_x, b_rel_rx, b_rel_rx_x, b_ent_ex, b_ent_rx = BLOCKS

    def u(b):
        return um[b] if um is not None else None

    _score_pair(g_rel, p_rel, doc[b_rel_ex], doc[b_rel_rx], _rel_edge, u(b_rel_ex), u(b_rel_rx))
    gx, px = expand_coref(g_rel), expand_coref(p_rel)
    if gx is g_rel and px is p_rel:
        for src, dst in ((b_rel_ex, b_rel_ex_x), (b_rel_rx, b_rel_rx_x)):
            doc[dst] = {t: list(v) for t, v in doc[src].items()}
            if um is not None:
                um[dst] = list(um[src])
    else:
        _score_pair(gx, px, doc[b_rel_ex_x], doc[b_rel_rx_x], _rel_edge, u(b_rel_ex_x), u(b_rel_rx_x))
    _score_pair(g_ent, p_ent, doc[b_ent_ex], doc[b_ent_rx], _ent_edge, u(b_ent_ex), u(b_ent_rx))
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

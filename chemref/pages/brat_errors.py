"""The BRAT scoring error page: the report's tables, then every document's text with its mentions coloured
by outcome (TP / FP / FN) and its relations listed with both ends linked to the text.

Built from :func:`chemref.scoring.brat.match_details.match_details` (plain data); this module only lays it out.
"""

from __future__ import annotations

import os
from typing import Any, Sequence

from chemref.pages.render import render_page, write_page
from chemref.scoring.report.formats import format4

__all__ = ["brat_error_page", "page_segments", "render_brat_error_page", "segments", "write_brat_error_page"]

PathLike = str | os.PathLike[str]


def segments(length: int, mentions: Sequence[dict[str, Any]]) -> list[tuple[int, int, list[int], list[int]]]:
    """Cut ``[0, length)`` at every fragment boundary: ``(start, end, covering mentions, mentions starting here)``.

    Fragments past ``length`` are clipped, empty ones are skipped; a sweep over sorted boundaries keeps
    it ``O(n log n)`` in the number of fragments.
    """
    events: dict[int, list[tuple[int, int]]] = {}
    for i, m in enumerate(mentions):
        for s, e in m["fragments"]:
            s, e = max(0, min(s, length)), max(0, min(e, length))
            if s < e:
                events.setdefault(s, []).append((1, i))
                events.setdefault(e, []).append((-1, i))
    cuts = sorted({0, length, *events})
    active: dict[int, int] = {}
    started: set[int] = set()
    out = []
    for a, b in zip(cuts, cuts[1:]):
        first = []
        for delta, i in events.get(a, ()):
            n = active.get(i, 0) + delta
            if n:
                active[i] = n
            else:
                active.pop(i, None)
        for i in sorted(active):
            if i not in started:
                started.add(i)
                first.append(i)
        out.append((a, b, sorted(active), first))
    return out


def page_segments(length: int, mentions: Sequence[dict[str, Any]]) -> list[tuple[int, int, bool, list[int]]]:
    """What the page draws of :func:`segments`, in time and size linear in the fragments: ``(start, end,
    covered by some mention, mentions whose first fragment starts here)``. The page's script works out which
    mentions cover a segment from the mentions' own fragments, so no segment lists them (a list per segment
    is quadratic when mentions nest)."""
    delta: dict[int, int] = {}
    first_at: dict[int, list[int]] = {}
    for i, m in enumerate(mentions):
        first = None
        for s, e in m["fragments"]:
            s, e = max(0, min(s, length)), max(0, min(e, length))
            if s < e:
                delta[s] = delta.get(s, 0) + 1
                delta[e] = delta.get(e, 0) - 1
                first = s if first is None else min(first, s)
        if first is not None:
            first_at.setdefault(first, []).append(i)
    cuts = sorted({0, length, *delta})
    out = []
    active = 0
    for a, b in zip(cuts, cuts[1:]):
        active += delta.get(a, 0)
        out.append((a, b, active > 0, first_at.get(a, [])))
    return out


def _summary(report: Any) -> list[dict[str, Any]]:
    tables = []
    for label, per_type, overall in report.sections():
        rows = []
        for t, c in list(per_type.items()) + [("overall", overall)]:
            rows.append({"type": t, "tp": c["tp"], "fp": c["fp"], "fn": c["fn"], "precision": format4(c["precision"]),
                         "recall": format4(c["recall"]), "f1": format4(c["f1"])})
        tables.append({"label": label, "rows": rows})
    return tables


def _doc_counts(counts: dict[str, Any], views: dict[str, list[str]], brateval: bool) -> dict[str, list[int]]:
    out = {}
    for label in views["entities"] + views["relations"]:
        c = counts.get("all" if brateval else label)
        if c is not None:
            out[label] = [c["tp"], c["fp"], c["fn"]]
    return out


def brat_error_page(details: dict[str, Any]) -> dict[str, Any]:
    """The template context of the error page, from :func:`~chemref.scoring.brat.match_details.match_details`."""
    report = details["report"]
    views = details["views"]
    brateval = report.get("mode") == "brateval"
    docs = []
    script_docs = []
    entity_types: set[str] = set()
    relation_types: set[str] = set()
    for number, doc in enumerate(details["documents"]):
        mentions = doc["mentions"]
        text = doc["text"]
        segs = []
        if text is not None:
            for a, b, covered, first in page_segments(len(text), mentions):
                segs.append({"text": text[a:b], "o": a if covered else None, "first": first})
        ends: set[Any] = set()
        for r in doc["relations"]:
            ends.update((r["arg1"], r["arg2"]))
            relation_types.add(r["type"])
        for m in mentions:
            entity_types.add(m["label"])
        docs.append({"number": number, "name": doc["name"], "segments": segs, "has_text": text is not None,
                     "mentions": mentions, "relations": doc["relations"]})
        script_docs.append({
            "n": doc["name"],
            "c": _doc_counts(doc["counts"], views, brateval),
            "m": [[m["label"], int(m["gold"]) + 2 * int(m["pred"]), [m["kinds"].get(v, "") for v in views["entities"]],
                   ";".join(f"{s}-{e}" for s, e in m["fragments"])] for m in mentions],
            "r": [[r["type"], [r["kinds"].get(v, "") for v in views["relations"]]] for r in doc["relations"]],
        })
    title = report.get("title") or f"BRATEval scores ({report.get('label', '')})"
    heading = ("Scoring errors: ChEMU 2021 definition" if not brateval
               else f"Scoring errors: BRATEval v0.3.2 ({report.get('label', '')})")
    primary = str((report.get("meta") or {}).get("primary", "")).split(" ")[0]
    value = report.primary_value() if hasattr(report, "primary_value") else None
    relation_view = next((i for i, v in enumerate(views["relations"]) if v == primary),
                         next((i for i, v in enumerate(views["relations"]) if v.endswith("/coref_expanded")), 0))
    return {"title": title, "heading": heading, "mode": report.get("mode", "chemu"), "gold": str(report.get("gold", "")),
            "primary": primary, "primary_value": None if value is None else format4(value),
            "relation_view": relation_view,
            "pred": str(report.get("pred", "")), "tables": _summary(report), "warnings": details["warnings"],
            "views": views, "entity_types": sorted(entity_types), "relation_types": sorted(relation_types),
            "documents": docs, "data": {"views": views, "docs": script_docs}}


def render_brat_error_page(details: dict[str, Any]) -> str:
    """The error page of ``details`` as HTML text (what :func:`write_brat_error_page` writes)."""
    return render_page("brat_errors.html", **brat_error_page(details))


def write_brat_error_page(path: PathLike, details: dict[str, Any]) -> int:
    """Write the error page of ``details`` to ``path`` (atomically); returns its size in bytes."""
    return write_page(path, "brat_errors.html", **brat_error_page(details))

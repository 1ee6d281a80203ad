"""Per-document match details of a BRAT scoring run, as plain data (what the HTML error page draws).

:func:`match_details` scores like :func:`chemref.scoring.score_brat` (same options, both modes) and adds,
for every document, its text and every gold or predicted mention and relation with its outcome in each
report of the run: ``TP`` (matched), ``FP`` (predicted only) or ``FN`` (gold only). The outcomes come
from the scorer's own FP/FN records, so they agree with the report's counts.
"""

from __future__ import annotations

import heapq
import os
from collections import Counter
from collections.abc import Collection
from typing import Any

from chemref.brat.decode import decode_ann
from chemref.scoring.brat import score as brat_score  # its functions looked up when called (tests replace them)
from chemref.scoring.brat.chemu import COREF, MAX_COREF_LINKS, MAX_ERROR_RECORDS, document_items, expand_coref
from chemref.scoring.brat.closure import ClosureTooLarge, closure_size
from chemref.scoring.brat.sources import AnnSource

__all__ = ["match_details"]

PathLike = str | os.PathLike[str]
_Key = tuple  # (label, fragments) of a mention; (type, mention key, mention key) of a relation


def match_details(gold: PathLike, pred: PathLike, *, report: Any = None, **options: Any) -> dict[str, Any]:
    """Score ``pred`` against ``gold`` and return ``{"report": report, "warnings": [...], "views": {...},
    "documents": [...]}``.

    ``report``: the report of ``pred`` against ``gold`` already scored with ``details=True`` and the same
    ``options`` (then it is not scored again), e.g. the one a command also prints.

    ``options`` are those of :func:`~chemref.scoring.brat.score.score_brat` (``mode``, ``level``, ``span``,
    ``similarity``, ``type_match``, ``strict``, ``jobs``, ``max_coref_links``, ``zip_limits``; the last two
    also bound the second reading). ``views`` maps ``"entities"`` and ``"relations"`` to the report labels that
    judge them (e.g. ``entities/exact``, ``relations/exact/coref_expanded``).
    Each document is::

        {"name": "0050", "text": str | None,
         "counts": {report label: {"tp", "fp", "fn", ...}},
         "mentions": [{"label", "fragments": [[start, end], ...], "text": str | None,
                       "gold": bool, "pred": bool, "kinds": {report label: "TP" | "FP" | "FN" | "TP FP" ...}}],
         "relations": [{"type", "arg1": mention index, "arg2": mention index, "gold": bool, "pred": bool,
                        "inferred": bool, "kinds": {report label: kind}}]}

    At most ``max_error_records`` (an option of ``score_brat``, default 1,000) relations are listed per
    document, the first in the page's order (by their arguments' offsets), and a side's COREFERENCE links
    inferred by the expansion only when its closure holds no more than that; in a report whose FP/FN records
    were cut at that number (``report["errors_left_out"]``), the document's items have no kind (``""``). A
    warning names each document where something was left out.
    A mention or relation that is both in gold and prediction is listed once; its kind can hold two
    outcomes when its gold and predicted copies fare differently (a maximum matching may pair them with
    others). ``inferred`` relations exist only through COREFERENCE expansion (``coref_expanded`` reports).
    ``warnings`` are the report's and those of reading the FP/FN records' texts.
    Raises what ``score_brat`` raises.
    """

    options = {k: v for k, v in options.items() if k not in ("errors", "per_doc", "details")}
    if report is None or report.details is None:
        report = brat_score.score_brat(gold, pred, details=True, **options)
    details = report.details
    mode = report.get("mode", "chemu")
    labels = [label for label, _, _ in report.sections()]
    if mode == "brateval":
        views = {"entities": labels if report.get("level") == "entities" else [],
                 "relations": labels if report.get("level") == "relations" else []}
    else:
        views = {"entities": [x for x in labels if x.startswith("entities/")],
                 "relations": [x for x in labels if x.startswith("relations/")]}
    unmatched = _unmatched_by_document(details["errors"], report, mode)
    documents = []
    limits = options.get("zip_limits")
    max_links = options.get("max_coref_links", MAX_COREF_LINKS)
    cap = options.get("max_error_records", MAX_ERROR_RECORDS)
    cut = details.get("errors_left_out") or {}
    notes: list[str] = []
    unreadable = bool(options.get("unreadable_as_empty"))
    with AnnSource(gold, limits=limits, is_gold=True) as gsrc, AnnSource(pred, limits=limits) as psrc:
        psrc.pair_with(gsrc)
        for name in sorted(gsrc.names):
            g_ent, g_rel = _items(gsrc, name)
            if name not in psrc.names:
                p_ent, p_rel = set[Any](), set[Any]()
            elif mode == "brateval":
                p_ent, p_rel = _items(psrc, name)
            else:
                p_ent, p_rel = brat_score.read_prediction(psrc, name, [], unreadable)
            text = gsrc.read_text(name) or (psrc.read_text(name) if name in psrc.names else None)
            documents.append(_document(name, text, (g_ent, g_rel), (p_ent, p_rel), views,
                                       unmatched.get(name, {}), details["per_doc"].get(name, {}),
                                       max_links, cap, set(cut.get(name, ())), notes))
    return {"report": report, "warnings": report.get("warnings", []) + details["warnings"] + notes,
            "views": views, "documents": documents}


def _items(src: Any, name: str) -> tuple[set, set]:
    """The entity and relation keys of one document (its warnings are the scorer's, already in the report)."""
    where = src.display(name)
    text, _ = decode_ann(src.read_bytes(name), path=where)
    ents, rels, _ = document_items(text, where)
    return ents, rels


def _mention_key(m: dict[str, Any]) -> _Key:
    return (m["label"], tuple(sorted({(int(s), int(e)) for s, e in m["fragments"]})))


def _unmatched_by_document(records: list[dict[str, Any]], report: dict[str, Any],
                           mode: str) -> dict[str, dict[str, dict[str, Counter]]]:
    """``document -> report label -> "FP"|"FN" -> Counter(item key)`` from the scorer's error records."""
    out: dict[str, dict[str, dict[str, Counter]]] = {}
    for rec in records:
        label = rec["report"]
        if mode == "brateval":
            label = report.get("label", label)
        if "arg1" in rec:
            rtype = rec["type"].split("|", 1)[0] if mode == "brateval" else rec["type"]
            key: _Key = (rtype, _mention_key(rec["arg1"]), _mention_key(rec["arg2"]))
        else:
            key = _mention_key(rec["mention"])
        by_kind = out.setdefault(rec["document"], {}).setdefault(label, {"FP": Counter(), "FN": Counter()})
        by_kind[rec["kind"]][key] += 1
    return out


def _kind(key: _Key, in_gold: bool, in_pred: bool, unmatched: dict[str, Counter] | None) -> str:
    """The outcome of one item in one report: TP, FP, FN, or two of them when its copies differ."""
    fp = unmatched is not None and unmatched["FP"][key] > 0
    fn = unmatched is not None and unmatched["FN"][key] > 0
    kinds = []
    if in_gold and in_pred and not fp and not fn:
        return "TP"
    if in_gold:
        kinds.append("FN" if fn else "TP")
    if in_pred:
        kinds.append("FP" if fp else "TP")
    return " ".join(dict.fromkeys(kinds))


def _relation_order(r: _Key) -> tuple:
    return (r[1][1], r[2][1], r[0], r[1][0], r[2][0])


def _expanded(rels: set, max_links: int | None, cap: int | None, name: str, side: str,
              notes: list[str] | None) -> set:
    """``rels`` with the COREFERENCE links its expansion infers, when they number no more than ``cap`` (counted
    first, linear in the links); else ``rels`` as given, with a note."""
    if cap is not None:
        links = [(a, b) for t, a, b in rels if t == COREF]
        try:
            closure_size(links, cap + len(links))
        except ClosureTooLarge as exc:
            if notes is not None:
                more = "" if exc.exact else "more than "
                notes.append(f"{name}: the error page does not list the {more}{exc.size - len(links):,} "
                             f"COREFERENCE links the {side}'s expansion infers (--max-error-records)")
            return rels
    return expand_coref(rels, max_links)


def _document(name: str, text: str | None, gold: tuple[set, set], pred: tuple[set, set],
              views: dict[str, list[str]], unmatched: dict[str, dict[str, Counter]],
              counts: dict[str, Any], max_links: int | None = MAX_COREF_LINKS, cap: int | None = None,
              cut: Collection[str] = (), notes: list[str] | None = None) -> dict[str, Any]:
    g_ent, g_rel = gold
    p_ent, p_rel = pred
    index: dict[_Key, int] = {}
    mentions: list[dict[str, Any]] = []

    def mention_index(m: _Key) -> int:
        i = index.get(m)
        if i is None:
            i = index[m] = len(mentions)
            label, frags = m
            shown = None
            if text is not None and all(e <= len(text) for _, e in frags):
                shown = " ".join(text[s:e] for s, e in frags)
            mentions.append({"label": label, "fragments": [list(f) for f in frags], "text": shown,
                             "gold": m in g_ent, "pred": m in p_ent, "kinds": {}})
        return i

    for m in sorted(g_ent | p_ent, key=lambda m: (m[1], m[0])):
        mention_index(m)
    for label in views["entities"]:
        for m in mentions:
            key = (m["label"], tuple(map(tuple, m["fragments"])))
            m["kinds"][label] = "" if label in cut else _kind(key, m["gold"], m["pred"], unmatched.get(label))
    relations: list[dict[str, Any]] = []
    rel_index: dict[_Key, int] = {}
    expanded = any(v.endswith("coref_expanded") for v in views["relations"])
    gx, px = (_expanded(g_rel, max_links, cap, name, "gold", notes), _expanded(p_rel, max_links, cap, name,
                                                                          "prediction", notes)) \
        if expanded else (g_rel, p_rel)
    every = gx | px
    if cap is not None and len(every) > cap:
        if notes is not None:
            notes.append(f"{name}: the error page lists the first {cap:,} of its {len(every):,} relations "
                         "(--max-error-records)")
        listed = heapq.nsmallest(cap, every, key=_relation_order)
    else:
        listed = sorted(every, key=_relation_order)
    if cut and notes is not None:
        notes.append(f"{name}: the error page shows no outcome in {', '.join(sorted(cut))}: too many false "
                     "positives and negatives to list (--max-error-records)")
    for r in listed:
        direct = r in g_rel or r in p_rel
        rel_index[r] = len(relations)
        relations.append({"type": r[0], "arg1": mention_index(r[1]), "arg2": mention_index(r[2]),
                          "gold": r in gx, "pred": r in px, "inferred": not direct, "kinds": {}})
    for label in views["relations"]:
        with_closure = label.endswith("coref_expanded")
        in_gold, in_pred = (gx, px) if with_closure else (g_rel, p_rel)
        for r, i in rel_index.items():
            if not with_closure and relations[i]["inferred"]:
                continue
            if r[0] != COREF and relations[i]["inferred"]:
                continue
            relations[i]["kinds"][label] = "" if label in cut else _kind(r, r in in_gold, r in in_pred,
                                                                         unmatched.get(label))
    return {"name": name, "text": text, "counts": counts, "mentions": mentions, "relations": relations}

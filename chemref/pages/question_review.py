"""The question review page: one card per question (and per rejected candidate, with its reason), filters,
a search box, label buttons for the fields of the labelling guide, and an export of the labels as JSON Lines.

The records are embedded as escaped JSON and the cards are drawn by the page's script with ``textContent``
only, so no text of an article can become markup; only the cards in view are drawn, which keeps a page of
thousands of records quick to open.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any, Iterable, Sequence

from chemref.errors import ChemrefError, InputError, printable
from chemref.inputs.contained import corpus_article
from chemref.jats.reader import read
from chemref.jsonl import read_jsonl
from chemref.pages.render import check_page_path, write_page
from chemref.questions.labels.label import GUIDE, excerpt_sha1

__all__ = ["LABEL_KEYS", "corpus_article", "read_review_records", "review_page", "write_review_page"]

PathLike = str | os.PathLike[str]
#: The keys of one exported label line, in the labelling guide's order.
LABEL_KEYS = ("id", "good_question", "author_named", "function", "sentence_ok", "note")
_NEEDED = ("id", "excerpt")
_HINT = "give the questions.jsonl (or rejected.jsonl) written by 'chemref questions build'"


def read_review_records(path: PathLike, *, rejected: bool = False,
                        seen: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """The records of a questions or rejected-candidates file, read strictly (a key given twice in one object is
    an error); a line that is not such a record is an error naming the file and line: no ``id`` or ``excerpt``
    text, an id given before (in this file, or in ``seen``: id -> where, which this call extends), citation
    offsets that are not whole numbers ``0 <= citation_start <= citation_end <= len(sentence)``."""
    out = []
    where = str(path)
    ids: dict[str, str] = {} if seen is None else seen
    for line, rec in read_jsonl(path, unique=True):
        missing = [k for k in _NEEDED if not isinstance(rec.get(k), str) or not rec.get(k)]
        if missing:
            raise InputError(f"not a question record: no {' or '.join(missing)} text", path=where, line=line,
                             hint=_HINT)
        if rejected and not isinstance(rec.get("reason"), str):
            raise InputError("not a rejected candidate: no 'reason' field", path=where, line=line,
                             hint="give the --rejected file written by 'chemref questions build'")
        ident = rec["id"]
        if ident in ids:
            raise InputError(f"the id {printable(ident)!r} is given twice (first at {printable(ids[ident])})",
                             path=where, line=line, hint="give each record once, with a unique id")
        ids[ident] = f"{where}:{line}"
        problem = _offsets_problem(rec)
        if problem:
            raise InputError(problem, path=where, line=line, hint=_HINT)
        out.append(rec)
    return out


def _offsets_problem(rec: dict[str, Any]) -> str | None:
    """What is wrong with a record's citation offsets (None when they are absent or valid)."""
    start, end = rec.get("citation_start"), rec.get("citation_end")
    if start is None and end is None:
        return None
    if not (isinstance(start, int) and isinstance(end, int)) or isinstance(start, bool) or isinstance(end, bool):
        return "citation_start and citation_end must both be whole numbers"
    sentence = rec.get("sentence")
    if not isinstance(sentence, str):
        return "citation offsets without a sentence text"
    if not 0 <= start <= end <= len(sentence):
        return (f"citation offsets {start}..{end} are not within the sentence ({len(sentence)} characters) "
                "with start <= end")
    return None


def _article(rec: dict[str, Any]) -> str:
    for key in ("source_pmcid", "source_doi"):
        if rec.get(key):
            return str(rec[key])
    source = rec.get("source_file")
    return Path(str(source)).stem if source else "(unknown article)"


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _compact(rec: dict[str, Any], article: int,
             references: dict[str, dict[str, tuple[str, str]]] | None = None) -> dict[str, Any]:
    """The fields a card shows, under short keys (the page holds thousands of them)."""
    excerpt = rec["excerpt"]
    cite = rec.get("citation_text") if isinstance(rec.get("citation_text"), str) else None
    sentence = rec.get("sentence") if isinstance(rec.get("sentence"), str) else None
    start, end = rec.get("citation_start"), rec.get("citation_end")
    row: dict[str, Any] = {"i": str(rec["id"]), "e": excerpt, "a": article}
    if sentence is not None:
        if cite is not None and sentence == excerpt.replace("[CITATION]", cite, 1):
            row["s"] = 1  # the excerpt with the citation put back: rebuilt by the page
        else:
            row["s"] = sentence
        if isinstance(start, int) and isinstance(end, int) and 0 <= start <= end <= len(sentence):
            row["cs"], row["ce"] = start, end
    if cite is not None:
        row["c"] = cite
    row["h"] = excerpt_sha1(excerpt)
    ref_id = rec.get("ref_id")
    ref_ids = ref_id.split() if isinstance(ref_id, str) else []
    if len(ref_ids) > 1 and not rec.get("target_title"):  # a range or several citations (one_citation)
        known = (references or {}).get(str(rec.get("source_file")), {})
        row["rf"] = [[rid, *known.get(rid, ("", ""))] for rid in ref_ids]  # [id, title, doi] each
    authors = rec.get("target_authors")
    fields = {"t": rec.get("target_title"), "d": rec.get("target_doi"), "p": rec.get("target_pmid"),
              "y": rec.get("target_year"), "sec": rec.get("section"),
              "au": ", ".join(map(str, authors)) if isinstance(authors, list) else authors,
              "sc": _number(rec.get("score")), "f": _number(rec.get("findability")), "r": rec.get("reason")}
    row.update({k: (v if isinstance(v, (int, float)) and not isinstance(v, bool) else str(v))
                for k, v in fields.items() if v is not None and v != ""})
    return row


def review_page(questions: Iterable[dict[str, Any]], rejected: Iterable[dict[str, Any]] = (), *,
                source: str = "questions", storage_key: str | None = None,
                references: dict[str, dict[str, tuple[str, str]]] | None = None) -> dict[str, Any]:
    """The template context of the review page for ``questions`` (kept) and ``rejected`` candidates;
    ``references`` (source_file -> ref id -> (title, DOI)) names the works a multi-reference citation cites."""
    articles: dict[str, int] = {}
    records = []
    reasons: dict[str, int] = {}
    sections: dict[str, int] = {}
    n_kept = 0
    for kept, recs in ((True, questions), (False, rejected)):
        for rec in recs:
            rec = dict(rec)
            if kept:
                rec.pop("reason", None)
                n_kept += 1
            else:
                reason = str(rec.get("reason") or "rejected")
                rec["reason"] = reason
                reasons[reason] = reasons.get(reason, 0) + 1
            art = articles.setdefault(_article(rec), len(articles))
            section = rec.get("section")
            if section:
                sections[str(section)] = sections.get(str(section), 0) + 1
            records.append(_compact(rec, art, references))
    key = storage_key or hashlib.sha1(f"{source}:{len(records)}".encode()).hexdigest()[:12]
    return {"title": f"Question review: {source}", "source": source, "n_kept": n_kept,
            "n_rejected": len(records) - n_kept, "reasons": sorted(reasons.items(), key=lambda kv: -kv[1]),
            "sections": sorted(sections.items()), "articles": list(articles), "label_keys": list(LABEL_KEYS),
            "guide": GUIDE,
            "data": {"records": records, "articles": list(articles), "key": "chemref-review:" + key}}


def _cited_references(records: Iterable[dict[str, Any]], corpora: Sequence[PathLike],
                      notes: list[str]) -> dict[str, dict[str, tuple[str, str]]]:
    """For the candidates citing several references, their source articles' references (title, DOI) by id,
    read only from articles inside the folders ``corpora`` (:func:`corpus_article`); the others are left
    out, with a line in ``notes`` saying how many and why, and the page names those references by id only."""

    wanted = {str(r.get("source_file")) for r in records
              if isinstance(r.get("ref_id"), str) and len(r["ref_id"].split()) > 1 and not r.get("target_title")}
    wanted = {source for source in wanted if ".tar" not in source}  # a package member is never read here
    if not wanted:
        return {}
    if not corpora:
        notes.append(f"the titles of the references cited together are not shown: {len(wanted)} article(s) would "
                     "be read for them (give their corpus folder with --corpus)")
        return {}
    roots = [Path(c).resolve() for c in corpora]
    out: dict[str, dict[str, tuple[str, str]]] = {}
    skipped: dict[str, list[str]] = {}
    for source in sorted(wanted):
        path, why = corpus_article(source, roots)
        if path is None:
            skipped.setdefault(why, []).append(source)
            continue
        try:
            article = read(path)
        except (ChemrefError, OSError):
            skipped.setdefault("unreadable", []).append(source)
            continue
        out[source] = {ref.id: (ref.title or "", ref.doi or "") for ref in article.references}
    for why, sources in skipped.items():
        notes.append(f"{len(sources)} source_file(s) not read ({why}), the first: {printable(sources[0])}; their "
                     "references are named by id only")
    return out


def write_review_page(path: PathLike, questions: PathLike, rejected: PathLike | None = None,
                      corpora: Sequence[PathLike] = ()) -> tuple[int, int, list[str]]:
    """Read ``questions`` (and ``rejected``), write the review page to ``path``; returns ``(cards, bytes,
    notes)``. Articles are read (for the titles of references cited together) only inside ``corpora``."""
    check_page_path(path)
    ids: dict[str, str] = {}
    kept = read_review_records(questions, seen=ids)
    dropped = read_review_records(rejected, rejected=True, seen=ids) if rejected is not None else []
    notes: list[str] = []
    context = review_page(kept, dropped, source=Path(questions).name,
                          references=_cited_references(dropped, corpora, notes),
                          storage_key=hashlib.sha1(f"{Path(questions).resolve()}:{len(kept)}:{len(dropped)}"
                                                   .encode()).hexdigest()[:12])
    size = write_page(path, "question_review.html", **context)
    return len(kept) + len(dropped), size, notes

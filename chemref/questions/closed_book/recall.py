"""Which records a model recalls: closed-book answers joined to any records by id, for training and evaluation.

``closed-book apply`` decides recall for the questions a build keeps; the selector's training and ``questions
evaluate`` need it for every labelled candidate, whatever stage rejected it (``train-selector --target
good-not-recalled``, ``evaluate --closed-book``). The rule is the stage's, in one place
(:func:`names_cited_work`): a record is recalled when any sample's answer names its cited work: the DOI or PMID
after normalisation or the title at ``title_threshold`` (the scorer's matcher,
:func:`chemref.scoring.benchmarks.citation_prediction.answer_hit`), or, unless ``author_year`` is off, the
surname of its first author together with its year (how a reader names a work: "Koopmans 2011"; a model that
knows both knows which work it is, whatever title it gives). Not recalled when every sample has a usable answer
and none names it; unknown (None) otherwise: a sample never answered might have recalled it. A record with no
cited work to name (no DOI, PMID or title) cannot be recalled.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from chemref.errors import InputError, ScoringError
from chemref.questions.closed_book.answers import Recollection, read_recollections
from chemref.questions.closed_book.defaults import AUTHOR_YEAR
from chemref.questions.closed_book.prepare import TITLE_THRESHOLD, split_sample_id
from chemref.scoring.benchmarks.citation_prediction import GoldQuestion, answer_hit, gold_question
from chemref.scoring.benchmarks.titles import normalize_title

__all__ = ["MATCH_KINDS", "names_cited_work", "recalled_records", "read_recalled"]

#: how an answer can name the cited work (what :func:`names_cited_work` returns), in the order reports list them
MATCH_KINDS = ("doi", "pmid", "title", "author_year")


def _surname(name: str) -> str:
    """A surname's comparison form: the title fold without spaces ("van der Meulen" = "VanderMeulen")."""
    return normalize_title(name).replace(" ", "")


def _names_author_and_year(record: Mapping[str, Any], answer: Recollection) -> bool:
    authors, year = record.get("target_authors"), record.get("target_year")
    if not answer.first_author or answer.year is None or not authors or not isinstance(year, int):
        return False
    first = authors[0] if isinstance(authors[0], str) else None
    if not first or answer.year != year:
        return False
    wanted = _surname(first)
    words = normalize_title(answer.first_author).split()
    # "Koopmans", "Koopmans M", "M. Koopmans", "J. van der Berg et al.": the surname is a run of the words
    return bool(wanted) and any("".join(words[i:j]) == wanted
                                for i in range(len(words)) for j in range(i + 1, len(words) + 1))


def names_cited_work(record: Mapping[str, Any], gold: GoldQuestion, answer: Recollection, *, title_threshold: float,
                     author_year: bool = AUTHOR_YEAR) -> str | None:
    """How one usable answer names the record's cited work: ``"doi"``, ``"pmid"``, ``"title"`` (as
    :func:`~chemref.scoring.benchmarks.citation_prediction.answer_hit`), ``"author_year"`` (the first author's
    surname and the year, when ``author_year``), or None."""
    hit = answer_hit(gold, identifiers=(answer.doi,), titles=(answer.title,), threshold=title_threshold)
    if hit is None and author_year and _names_author_and_year(record, answer):
        return "author_year"
    return hit


def recalled_records(records: Iterable[Mapping[str, Any]], answers: Mapping[str, tuple[int, Any]], *,
                     title_threshold: float | None = None, author_year: bool = AUTHOR_YEAR,
                     responses_path: str | None = None) -> dict[str, bool | None]:
    """``{record id: recalled}`` for every record that has at least one answer (``answers``:
    :func:`~chemref.questions.closed_book.answers.read_recollections`, ``ID#k -> (line, answer)``): True, False,
    or None when no sample names the cited work and some sample has no usable answer. An answer whose id is no
    ``ID#k`` of a record is an :class:`InputError` naming ``responses_path`` and the line."""
    if title_threshold is None:
        title_threshold = TITLE_THRESHOLD
    if not 0.0 < title_threshold <= 1.0:
        raise InputError(f"the title threshold must be above 0 and at most 1, got {title_threshold}")
    by_id = {str(r.get("id")): r for r in records}
    samples: dict[str, list[Any]] = {}
    for ident, (line, answer) in answers.items():
        split = split_sample_id(ident)
        if split is None or split[0] not in by_id:
            raise InputError(f"unknown custom_id {ident!r}: no sample (ID#k) of a record of the questions or the "
                             "rejected file", path=responses_path, line=line,
                             hint="give the closed-book answers for the candidates of this build")
        samples.setdefault(split[0], []).append(answer)
    out: dict[str, bool | None] = {}
    for ident, got in samples.items():
        record = by_id[ident]
        if not (record.get("target_doi") or record.get("target_pmid") or record.get("target_title")):
            out[ident] = False  # no cited work to name
            continue
        try:
            gold = gold_question(record)
        except ScoringError:
            out[ident] = None
            continue
        hit = any(a.ok and names_cited_work(record, gold, a, title_threshold=title_threshold,
                                            author_year=author_year) is not None for a in got)
        out[ident] = True if hit else (False if all(a.ok for a in got) else None)
    return out


def read_recalled(path: str, records: Iterable[Mapping[str, Any]], *, title_threshold: float | None = None,
                  author_year: bool = AUTHOR_YEAR) -> dict[str, bool | None]:
    """:func:`recalled_records` of the closed-book answers in ``path`` (Batch output lines)."""
    return recalled_records(records, read_recollections(path), title_threshold=title_threshold,
                            author_year=author_year, responses_path=path)

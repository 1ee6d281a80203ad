"""The closed-book requests show the excerpt and nothing else about the cited work or the citing article.

A structural test renders a record whose every other field is a sentinel; the dev test reads every request built
from the dev articles of the reference data (every candidate the stage asks about: the questions of a build at
``--min-score 0`` and the candidates rejected only by a cap) and looks for the cited work's title, each author
surname, the DOI, the PMID, a year next to an author, and the citing article's title.

How the comparisons are made:

- the user message is searched (it carries the record); the system message must be the same text for every
  request, so it carries nothing of any record (and the word "You" that opens its sentences is not the author
  surname You);
- a surname is found as a whole word, case-sensitively ("Long" the surname, not "long" the adjective), at any
  length: that is stricter than the author filter, which looks for surnames of one or two letters ("Li", "Wu")
  only inside a citation pattern ("Li et al."). A surname that is also an ordinary capitalised word in an
  excerpt would fail this test; none does among the stage's candidates of the dev set. Such excerpts are the
  author filter's business (``no_author_named``), which rejects them before this stage: their requests are not
  built by ``closed-book prepare``;
- titles and the source title are compared normalised (:func:`chemref.scoring.benchmarks.titles.normalize_title`), as whole
  words. A title of one or two words ("Multiple Sclerosis", "Gaussian 16") is a name an excerpt may use for its own
  topic: it is listed in :data:`SHORT_TITLES_IN_EXCERPT` when the excerpt's own words hold it, not counted as a
  leak (the request shows the article's sentence, never the metadata);
- DOIs compare case-insensitively, PMIDs as whole numbers.
"""

from __future__ import annotations

import re
from functools import lru_cache

import pytest

from chemref.questions.closed_book.prepare import closed_book_candidates, prepare_requests
from chemref.scoring.benchmarks.titles import normalize_title
from tests.helpers import shared_path

#: Stage candidates of the dev set whose cited work has a title of one or two words that the excerpt itself says.
SHORT_TITLES_IN_EXCERPT = {"PMC3682907-p0-s0": "Multiple Sclerosis"}
SENTINELS = {"target_title": "Zyxwv Title Sentinel", "target_authors": ["Qwertyson", "Asdfgh"],
             "target_year": 1877, "target_container": "Journal Of Sentinels", "target_doi": "10.9999/sentinel.42",
             "target_pmid": "98765432", "sentence": "Printed sentence sentinel (Qwertyson et al., 1877).",
             "source_doi": "10.9999/source.7", "source_pmcid": "PMC9999999", "source_file": "sentinel_source.nxml",
             "citation_text": "(Qwertyson et al., 1877)", "section": "introduction", "target_type": "journal"}


def _user(request: dict) -> str:
    return "\n".join(m["content"] for m in request["body"]["messages"] if m["role"] == "user")


def _system(request: dict) -> str:
    return "\n".join(m["content"] for m in request["body"]["messages"] if m["role"] == "system")


def test_a_request_shows_the_excerpt_and_no_other_field():
    record = {"id": "a-p1-s1", "excerpt": "Cobalt oxide was first shown to oxidise water at pH 7 [CITATION].",
              **SENTINELS}
    requests = list(prepare_requests([record], model="m", samples=3))
    assert [r["custom_id"] for r in requests] == ["a-p1-s1#1", "a-p1-s1#2", "a-p1-s1#3"]
    for request in requests:
        text = "\n".join(m["content"] for m in request["body"]["messages"])
        assert record["excerpt"] in text
        assert request["body"]["temperature"] > 0
        for value in ("Zyxwv", "Qwertyson", "Asdfgh", "1877", "Sentinels", "sentinel", "98765432", "PMC9999999",
                      "Printed sentence"):
            assert value.lower() not in text.lower(), value


@lru_cache(maxsize=1)
def _dev_requests() -> tuple[list[tuple[dict, dict]], dict[str, str | None]]:
    """(record, request) for every stage candidate of the dev articles, and each source file's title."""
    from chemref.jats.reader import read
    from chemref.questions.funnel.builder import build_article
    from chemref.questions.funnel.settings import BuildSettings

    folder = shared_path("corpora", "jats", "dev")
    settings = BuildSettings(min_score=0.0)
    pairs: list[tuple[dict, dict]] = []
    source_titles: dict[str, str | None] = {}
    for path in sorted(folder.glob("*.nxml")):
        result = build_article(str(path), settings)
        assert result.error is None, result.error
        records = [r.to_dict() for r in (*result.questions, *result.rejected)]
        source_titles[str(path)] = read(str(path)).title
        for record in closed_book_candidates(records):
            record["source_title"] = source_titles[str(path)]
            pairs.append((record, next(prepare_requests([record], model="m", samples=1))))
    return pairs, source_titles


def _word(text: str) -> re.Pattern[str]:
    return re.compile(rf"(?<!\w){re.escape(text)}(?!\w)")


def _leaks(record: dict, request: dict) -> list[str]:
    user = _user(request)
    found = []
    normal = f" {normalize_title(user)} "
    title = normalize_title(record.get("target_title") or "")
    if title and f" {title} " in normal and not (len(title.split()) <= 2
                                                 and SHORT_TITLES_IN_EXCERPT.get(record["id"]) is not None):
        found.append(f"title {record['target_title']!r}")
    source = normalize_title(record.get("source_title") or "")
    if source and f" {source} " in normal:
        found.append(f"source title {record['source_title']!r}")
    if record.get("target_doi") and record["target_doi"].lower() in user.lower():
        found.append(f"DOI {record['target_doi']}")
    if record.get("target_pmid") and re.search(rf"(?<!\d){re.escape(str(record['target_pmid']))}(?!\d)", user):
        found.append(f"PMID {record['target_pmid']}")
    year = record.get("target_year")
    for surname in record.get("target_authors") or []:
        if _word(surname).search(user):
            found.append(f"surname {surname!r}")
        if year and re.search(rf"(?<!\w){re.escape(surname)}(?!\w)\W{{0,30}}(?:et\s*al\.?\W{{0,5}})?{year}"
                              rf"|{year}\W{{0,10}}{re.escape(surname)}(?!\w)", user):
            found.append(f"year {year} next to {surname!r}")
    return found


@pytest.mark.shared
def test_no_dev_request_shows_the_cited_work_or_the_source_article():
    pairs, _ = _dev_requests()
    assert len(pairs) > 1000  # every candidate the stage asks about (1,224 with the selector of chemref 0.1.0)
    systems = {_system(request) for _, request in pairs}
    assert len(systems) == 1  # the same for every request: it holds nothing of any record
    leaks = {record["id"]: found for record, request in pairs if (found := _leaks(record, request))}
    assert leaks == {}


@pytest.mark.shared
def test_the_short_titles_allowed_are_the_excerpts_own_words():
    pairs, _ = _dev_requests()
    records = {record["id"]: record for record, _ in pairs}
    for ident, title in SHORT_TITLES_IN_EXCERPT.items():
        assert records[ident]["target_title"] == title
        assert normalize_title(title) in normalize_title(records[ident]["excerpt"])

"""The closed-book stage's one rule for "this answer names the cited work": the DOI, PMID or title, or the
first author's surname with the year (unless switched off)."""

from __future__ import annotations

import pytest

from chemref.questions.closed_book.answers import Recollection
from chemref.questions.closed_book.recall import names_cited_work, recalled_records
from chemref.scoring.benchmarks.citation_prediction import gold_question

RECORD = {"id": "a-p1-s1", "target_doi": "10.1000/zinc.42", "target_title": "Zinc knuckles fold around one metal ion",
          "target_authors": ["van der Berg", "Okafor"], "target_year": 2011}


def _answer(**fields) -> Recollection:
    return Recollection(**{"kind": "ok", **fields})


@pytest.mark.parametrize("fields, expected", [
    ({"doi": "https://doi.org/10.1000/ZINC.42"}, "doi"),
    ({"title": "Zinc knuckles fold around a single metal ion"}, "title"),
    ({"first_author": "Van der Berg", "year": 2011, "title": "Metal binding by small domains"}, "author_year"),
    ({"first_author": "VanderBerg J", "year": 2011}, "author_year"),
    ({"first_author": "J. van der Berg et al.", "year": 2011}, "author_year"),
    ({"first_author": "Berg", "year": 2011}, None),  # one word of a compound surname is not the surname
    ({"first_author": "van der Berg", "year": 2012}, None),
    ({"first_author": "van der Berg", "year": None}, None),
    ({"first_author": "Okafor", "year": 2011}, None),  # the second author
    ({"title": "Something else entirely about copper"}, None),
])
def test_what_names_the_cited_work(fields: dict, expected: str | None) -> None:
    got = names_cited_work(RECORD, gold_question(RECORD), _answer(**fields), title_threshold=0.85)
    assert got == expected


def test_title_only_leaves_author_and_year_out() -> None:
    answer = _answer(first_author="van der Berg", year=2011)
    assert names_cited_work(RECORD, gold_question(RECORD), answer, title_threshold=0.85, author_year=False) is None


def test_a_record_without_authors_or_year_is_named_only_by_doi_or_title() -> None:
    bare = {k: v for k, v in RECORD.items() if k not in ("target_authors", "target_year")}
    answer = _answer(first_author="van der Berg", year=2011)
    assert names_cited_work(bare, gold_question(bare), answer, title_threshold=0.85) is None


def test_recalled_records_follows_the_same_rule() -> None:
    answers = {"a-p1-s1#1": (1, _answer(first_author="van der Berg", year=2011)),
               "a-p1-s1#2": (2, _answer(title="Unrelated work on copper"))}
    assert recalled_records([RECORD], answers) == {"a-p1-s1": True}
    assert recalled_records([RECORD], answers, author_year=False) == {"a-p1-s1": False}

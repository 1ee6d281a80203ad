"""The difficulty profile on hostile reference lists: titles that hold no word BM25 indexes (stop words only,
punctuation) must not cost an article its questions."""

from __future__ import annotations

import re

from chemref.baseline.bm25 import TitleIndex
from chemref.questions import build
from chemref.questions.funnel.difficulty import bibliography_ranks
from tests.hostile.cli_runner import CORPORA

SAMPLE = CORPORA / "jats" / "sample_zinc_knuckle.xml"


def test_titles_without_an_indexed_word_rank_every_target_last() -> None:
    index = TitleIndex(["The", "of a", "—"], ["the [CITATION] of", "Zinc [CITATION]."])
    assert [index.rank_in(index.query_scores(n), 1) for n in range(2)] == [3, 3]
    refs = [type("Ref", (), {"id": f"r{i}", "title": title, "doi": f"10.1/{i}", "pmid": None})()
            for i, title in enumerate(["The", "A", "..."])]
    assert bibliography_ranks(refs, [("r0", "Zinc binds [CITATION].")]) == [3]


def test_an_article_whose_reference_titles_are_stop_words_keeps_its_questions() -> None:
    text = SAMPLE.read_text(encoding="utf-8")
    back = text.index("<ref-list")
    hostile = text[:back] + re.sub(r"<article-title>.*?</article-title>", "<article-title>The</article-title>",
                                   text[back:], flags=re.DOTALL)
    plain, odd = (build([data.encode("utf-8")], min_score=0) for data in (text, hostile))
    assert odd.errors == [] and odd.questions
    assert len(odd.questions) + len(odd.rejected) == len(plain.questions) + len(plain.rejected)
    assert all(q.bm25_rank_bibliography is not None for q in odd.questions)

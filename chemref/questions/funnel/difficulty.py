"""The difficulty profile of a question: how hard its cited work is to find by the excerpt's words, offline.

``bm25_rank_bibliography`` is the cited work's rank among the citing article's own references when BM25
(:class:`chemref.baseline.titles_bm25.TitleIndex`, chemref's one BM25) ranks their titles by the excerpt:
1 is the easiest (the excerpt's words point at the title), the number of titled references the hardest.
The pool is the article's references that have a title, one entry per cited work (the same DOI, PMID or
title listed twice counts once); references without a title cannot be ranked and are left out of it, and the
rank is null when the cited reference itself has no title (a rejected candidate). A tie counts against the
target: 1 + the number of other titles scoring at least as high, so an excerpt sharing no word with any
title ranks its target last.

``bm25_rank_corpus`` is the same rank among every cited work of the build (the titled references of all its
articles), which no single article knows: the build writes it null and ``chemref questions difficulty``
fills it in afterwards (:mod:`chemref.questions.output.difficulty`).

Both are computed for the candidates that reach the selector (the questions, and those rejected by the score
threshold or a cap), the records that carry a ``score``.
"""

from __future__ import annotations

import re
from typing import Any, Iterable, Mapping, Sequence

from chemref.baseline.titles_bm25 import TitleIndex

__all__ = ["DIFFICULTY_FIELDS", "DIFFICULTY_FIELD_DOCS", "RANK_BUCKETS", "rank_bucket", "work_key",
           "bibliography_ranks", "rank_counts"]

#: The difficulty fields of a question record, in output order.
DIFFICULTY_FIELDS = ("bm25_rank_bibliography", "bm25_rank_corpus")
#: What each of :data:`DIFFICULTY_FIELDS` holds (the dataset card's field table).
DIFFICULTY_FIELD_DOCS = {
    "bm25_rank_bibliography": "rank (1 = easiest) of the cited work among the source article's titled references "
                              "when BM25 ranks their titles by the excerpt; ties count against it; null when not "
                              "computed (see chemref.questions.funnel.difficulty)",
    "bm25_rank_corpus": "the same rank among every cited work of the build; null until `chemref questions "
                        "difficulty` fills it in",
}
#: Rank buckets of the card, the report chart and ``questions evaluate``: (name, lowest rank, highest rank).
RANK_BUCKETS = (("1", 1, 1), ("2-5", 2, 5), ("6-20", 6, 20), ("21-100", 21, 100), (">100", 101, None))
_SPACE = re.compile(r"\s+")


def rank_bucket(rank: Any) -> str:
    """The bucket name of a rank (``"none"`` for a null or non-integer one)."""
    if isinstance(rank, bool) or not isinstance(rank, int) or rank < 1:
        return "none"
    for name, low, high in RANK_BUCKETS:
        if low <= rank and (high is None or rank <= high):
            return name
    return "none"  # pragma: no cover - the last bucket is open


def work_key(doi: str | None, pmid: str | None, title: str | None) -> str | None:
    """What tells one cited work from another: its DOI, else its PMID, else its title (case and spacing
    folded); None when it has none of them."""
    if doi:
        return "doi:" + doi.lower()
    if pmid:
        return "pmid:" + str(pmid)
    if title and title.strip():
        return "title:" + _SPACE.sub(" ", title.strip()).casefold()
    return None


def bibliography_ranks(references: Iterable[Any], records: Sequence[tuple[str | None, str]]) -> list[int | None]:
    """The ``bm25_rank_bibliography`` of each ``(ref_id, excerpt)`` in ``records`` among ``references`` (the
    article's :class:`~chemref.jats.model.Reference` objects: ``id``, ``doi``, ``pmid``, ``title``).

    The BM25 index is built once for the article, with all its excerpts tokenised in the same pass.
    """
    if not records:
        return []
    titles: list[str] = []
    position: dict[str, int] = {}  # work key -> title index
    by_ref: dict[str, int] = {}  # reference id -> title index
    for ref in references:
        title = ref.title
        if not title or not title.strip():
            continue
        key = work_key(ref.doi, ref.pmid, title)
        at = position.setdefault(key, len(titles)) if key is not None else len(titles)
        if at == len(titles):
            titles.append(title)
        if ref.id:
            by_ref.setdefault(ref.id, at)
    wanted = [by_ref.get(ref_id) if ref_id else None for ref_id, _ in records]
    if not titles or all(target is None for target in wanted):
        return [None] * len(records)
    asked = [n for n, target in enumerate(wanted) if target is not None]
    index = TitleIndex(titles, [records[n][1] for n in asked])
    ranks: list[int | None] = [None] * len(records)
    for query, n in enumerate(asked):
        ranks[n] = index.query_rank(query, wanted[n])  # type: ignore[arg-type]
    return ranks


def rank_counts(records: Iterable[Mapping[str, Any]], field: str) -> dict[str, int]:
    """How many of ``records`` fall in each rank bucket of ``field`` (``none`` last)."""
    counts = {name: 0 for name, _, _ in RANK_BUCKETS}
    counts["none"] = 0
    for record in records:
        counts[rank_bucket(record.get(field))] += 1
    return counts

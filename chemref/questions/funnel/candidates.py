"""Candidate sentences: every body sentence with at least one citation anchor, with its context.

Only paragraphs that hold citations are split into sentences, and a sentence is a candidate when
it holds at least one anchor; offsets are into the unmodified paragraph text, and the anchors of a
candidate are re-based onto its sentence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator, Sequence

from chemref.jats.model import Article, CitationAnchor, Reference
from chemref.jats.text import DISPLAY_FORMULA

__all__ = ["ArticleInfo", "Candidate", "article_info", "id_key", "iter_candidates", "replace_citation",
           "widen_anchor", "CITATION_MARK"]

#: What replaces the one citation of a question in its excerpt.
CITATION_MARK = "[CITATION]"

#: ``split(text, protected=[(start, end), ...]) -> [(start, end), ...]`` (:func:`chemref.nlp.sentences.split_sentences`).
Splitter = Callable[..., Sequence[tuple[int, int]]]

_OPEN_FOR = {"]": "[", ")": "("}
_SPACE = " \t\r\n\u00a0\u2009\u202f"


@dataclass(frozen=True, slots=True)
class ArticleInfo:
    """What every record says about its source article."""

    source_file: str | None
    source_pmcid: str | None
    source_doi: str | None
    source_license: str | None
    cc_by: bool
    key: str  # the id prefix: PMCID, else file stem, else DOI, else "article"


@dataclass(frozen=True, slots=True)
class Candidate:
    """One sentence with at least one citation, ready for the filters.

    ``anchors`` are re-based onto ``sentence`` and widened over brackets or parentheses that hold
    nothing but the citation ("[12]", "(Goodenough and Kim, 2010)"); ``references`` holds, for the
    first anchor, the reference of each of its ids (None where the id is not in the reference list).
    """

    id: str
    article: ArticleInfo
    section: str  # the section kind, or "caption" for a figure/table caption
    section_title: str
    paragraph_index: int
    sentence_index: int
    sentence: str
    anchors: tuple[CitationAnchor, ...]
    references: tuple[Reference | None, ...]
    display_formula: bool = False  # part of a <disp-formula> was flattened into the sentence

    @property
    def anchor(self) -> CitationAnchor:
        """The first (for a question: the only) citation anchor of the sentence."""
        return self.anchors[0]

    @property
    def reference(self) -> Reference | None:
        """The one cited reference when the first anchor resolves to exactly one, else None."""
        if len(self.references) == 1:
            return self.references[0]
        return None


def _license_label(article: Article) -> str | None:
    lic = article.license
    return lic.url or (lic.text.strip()[:200] if lic.text else None)


def id_key(text: str) -> str:
    """``text`` (a PMCID or a file stem, from an untrusted file) as an id prefix: each space, other whitespace
    or control character as ``_``, so that an id is one token of one line (TREC runs, TSV, the terminal)."""
    if text.isprintable() and " " not in text:
        return text
    return "".join(ch if ch.isprintable() and ch != " " else "_" for ch in text)


def article_info(article: Article) -> ArticleInfo:
    """The source fields of every record from ``article``, and the stable id prefix (:func:`id_key`)."""
    # "<bytes 0>" names bytes given without a file: no stem to build an id from
    stem = Path(article.file).stem if article.file and not article.file.startswith("<") else None
    if article.pmcid:
        key = id_key(article.pmcid if article.pmcid.upper().startswith("PMC") else f"PMC{article.pmcid}")
    elif stem:
        key = id_key(stem)
    elif article.doi:
        key = re.sub(r"[^A-Za-z0-9._-]", "_", article.doi)
    else:
        key = "article"
    key = with_part(key, article)
    return ArticleInfo(
        source_file=article.file,
        source_pmcid=article.pmcid or None,
        source_doi=article.doi or None,
        source_license=_license_label(article),
        cc_by=bool(article.license.cc_by),
        key=key,
    )


_PART_STEP = re.compile(r"(sub-article|response|article)(?:\[(\d+)\])?$")


def with_part(key: str, article: Article) -> str:
    """``key`` for an article that is not its file's only one (``Article.part``): the n-th article of an
    ``<articles>`` file adds ``-a<n>`` unless it has a PMCID of its own, a sub-article ``-s<n>`` (its place
    among the sub-articles of its article), so every article of a file has ids of its own."""
    if not article.part:
        return key
    suffix = []
    for step in article.part.strip("/").split("/"):
        match = _PART_STEP.match(step)
        if match is None:
            continue
        kind, n = match.group(1), match.group(2)
        if kind == "article":
            if n and not article.pmcid:  # an article of an <articles> file has its own PMCID, else its place
                suffix.append(f"a{n}")
        else:
            suffix.append(f"{'s' if kind == 'sub-article' else 'r'}{n or 1}")
    return "-".join([key, *suffix])


def widen_anchor(text: str, start: int, end: int) -> tuple[int, int]:
    """Extend ``text[start:end]`` over a bracket pair that encloses only it ("[12]", "(Smith, 2010)").

    Brackets already inside the anchor are kept as they are; white space between the bracket and
    the anchor is allowed. Returns the (possibly unchanged) span.
    """
    if end > start and text[end - 1] in _OPEN_FOR and text[start] == _OPEN_FOR[text[end - 1]]:
        return start, end
    left = start
    while left > 0 and text[left - 1] in _SPACE:
        left -= 1
    right = end
    while right < len(text) and text[right] in _SPACE:
        right += 1
    if left > 0 and right < len(text):
        close = text[right]
        if close in _OPEN_FOR and text[left - 1] == _OPEN_FOR[close]:
            return left - 1, right + 1
    return start, end


def replace_citation(sentence: str, start: int, end: int) -> str:
    """The excerpt: ``sentence`` with ``sentence[start:end]`` replaced by ``[CITATION]``."""
    return sentence[:start] + CITATION_MARK + sentence[end:]


def _strip_span(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


# Paragraphs counted apart (their own id letter), so reading them never moves the ids of running text.
_COUNTERS = {"title": "t", "attrib": "a"}
_SECTIONS = {"c": "caption", "t": "title", "a": "attrib"}


def _in_foreign_markup(path: str | None) -> bool:
    """True for a paragraph inside foreign-namespace markup (TaxPub's ``tp:`` treatments): its XPath has a
    prefixed step (``tp:nomenclature``) or an unprefixed foreign one (``*``)."""
    return path is not None and (":" in path or "*" in path)


def iter_candidates(article: Article, split: Splitter, *,
                    info: ArticleInfo | None = None) -> Iterator[Candidate]:
    """Yield every candidate sentence of ``article``'s body in document order.

    ``split`` is :func:`chemref.nlp.sentences.split_sentences` (or a stand-in with its signature).
    Paragraphs without citations are never split. Ids are ``<key>-p<paragraph>-s<sentence>`` with the
    index of the running-text paragraph in the body and of the sentence in the paragraph; figure/table
    captions and table text are counted apart, ``<key>-c<caption>-s<sentence>``, and so are titles that cite
    (``t``), the source lines of quotes and figures (``<attrib>``, ``a``) and paragraphs inside foreign markup
    such as TaxPub treatments (``x``), so ids of running text do not move when those are read differently.
    """
    info = info or article_info(article)
    refs = article.references_by_id
    counters = {"p": -1, "c": -1, "t": -1, "a": -1, "x": -1}
    for section, paragraph in article.paragraphs():
        kind = _COUNTERS.get(paragraph.context) or ("c" if paragraph.is_caption else
                                                    "x" if _in_foreign_markup(paragraph.path) else "p")
        counters[kind] += 1
        if not paragraph.citations:
            continue
        p_index = counters[kind]
        text = paragraph.text
        anchors = sorted(paragraph.citations, key=lambda a: (a.start, a.end))
        spans = split(text, protected=[(a.start, a.end) for a in anchors])
        formulas = [(f.start, f.end) for f in paragraph.formatting if f.style == DISPLAY_FORMULA]
        a_pos = 0
        for s_index, (s_start, s_end) in enumerate(spans):
            if a_pos == len(anchors) or anchors[a_pos].start >= s_end:
                continue  # no anchor starts in the span, nor then in its stripped part
            s_start, s_end = _strip_span(text, s_start, s_end)
            inside: list[CitationAnchor] = []
            while a_pos < len(anchors) and anchors[a_pos].start < s_end:
                inside.append(anchors[a_pos])  # an anchor is never dropped: it joins the next sentence
                a_pos += 1
            if not inside:
                continue
            sentence = text[s_start:s_end]
            rebased = []
            for anchor in inside:
                start = max(anchor.start, s_start) - s_start
                end = max(min(anchor.end, s_end) - s_start, start)
                start, end = widen_anchor(sentence, start, end)
                rebased.append(CitationAnchor(start, end, sentence[start:end], tuple(anchor.ref_ids)))
            first = rebased[0]
            yield Candidate(
                id=f"{info.key}-{kind}{p_index}-s{s_index}",
                article=info,
                section=_SECTIONS.get(kind) or section.kind,
                section_title=section.title,
                paragraph_index=p_index,
                sentence_index=s_index,
                sentence=sentence,
                anchors=tuple(rebased),
                references=tuple(map(refs.get, first.ref_ids)),
                display_formula=bool(formulas) and any(f_start < s_end and f_end > s_start for f_start, f_end in formulas),
            )

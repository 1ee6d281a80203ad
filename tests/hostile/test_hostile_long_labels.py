"""Citation ranges whose ends are labels of 4 digits or more (long reviews): read as ranges like shorter ones,
within the same expansion caps; numbers that are neither the cited reference's label nor its place in the list
(years) are never joined into a range."""

from __future__ import annotations

import re

import pytest

from chemref import read_jats
from chemref.jats.citations import MAX_EXPANDED, MAX_RANGE
from tests.jats_helpers import article, numbered_refs, x


def B(*numbers: int) -> tuple[str, ...]:
    return tuple(f"B{n}" for n in numbers)


def _citations(paragraph: str, refs: str) -> tuple[list[tuple[str, tuple[str, ...]]], list[str]]:
    doc = read_jats(article(f"<sec><title>Introduction</title><p>{paragraph}</p></sec>", refs))
    (_, para), = list(doc.paragraphs())
    return [(a.text, a.ref_ids) for a in para.citations], [d.code for d in doc.diagnostics]


def _range(first: int, last: int, dash: str = "&#x02013;") -> str:
    return f"Known [{x(f'B{first}', str(first))}{dash}{x(f'B{last}', str(last))}]."


REFS = numbered_refs(1_205)
UNLABELLED = re.sub(r"<label>\d+</label>", "", REFS)

CASES = [
    pytest.param(_range(998, 1002), REFS, [("998–1002", B(*range(998, 1003)))], [], id="3-to-4-digits"),
    pytest.param(_range(1001, 1003), REFS, [("1001–1003", B(1001, 1002, 1003))], [], id="4-digits"),
    pytest.param(_range(1199, 1205, "-"), REFS, [("1199-1205", B(*range(1199, 1206)))], [], id="hyphen"),
    pytest.param(_range(998, 1002), UNLABELLED, [("998–1002", B(*range(998, 1003)))], [],
                 id="places-in-an-unlabelled-list"),
    pytest.param(_range(1, 1000), REFS, [("1–1000", B(1, 1000))], ["range-too-long"], id="capped-with-diagnostic"),
    pytest.param(_range(1100, 1100 - MAX_RANGE - 2), REFS, [(f"1100–{1098 - MAX_RANGE}", B(1098 - MAX_RANGE, 1100))],
                 ["range-reversed"], id="4-digit-ends-reversed"),
    pytest.param(_range(600, 602 + MAX_RANGE), REFS, [(f"600–{602 + MAX_RANGE}", B(600, 602 + MAX_RANGE))],
                 ["range-too-long"], id="3-to-4-digit-ends-capped"),
    pytest.param(f"(Smith, {x('B1', '2010')}&#x02013;{x('B3', '2012')})", REFS,
                 [("Smith, 2010", B(1)), ("2012", B(3))], [], id="years-are-not-a-range"),
    pytest.param(f"Known [{x('B1001', '1001')}&#x02013;{x('B1003', '2012')}].", REFS,
                 [("1001", B(1001)), ("2012", B(1003))], [], id="an-end-that-is-not-its-label"),
]


@pytest.mark.parametrize("paragraph, refs, expected, codes", CASES)
def test_ranges_with_long_labels(paragraph: str, refs: str, expected: list, codes: list[str]) -> None:
    got, diagnostics = _citations(paragraph, refs)
    assert got == expected
    assert diagnostics == codes


def test_ranges_of_long_labels_spend_the_article_budget() -> None:
    ranges = MAX_EXPANDED // (MAX_RANGE - 3) + 1
    paragraph = " ".join(_range(1000, 1000 + MAX_RANGE - 2) for _ in range(ranges))
    got, diagnostics = _citations(paragraph, numbered_refs(1000 + MAX_RANGE))
    assert [len(ids) for _, ids in got] == [MAX_RANGE - 1] * (ranges - 1) + [2]
    assert diagnostics == ["range-budget-spent"]


def _long_label_refs(labels: list[str]) -> str:
    return "".join(f'<ref id="L{n}"><label>{label}</label><mixed-citation publication-type="journal">'
                   f'<article-title>Work {n}</article-title>. <year>2020</year>. '
                   f'<pub-id pub-id-type="doi">10.1000/l{n}</pub-id></mixed-citation></ref>'
                   for n, label in enumerate(labels))


@pytest.mark.parametrize("digits", [10, 20])
def test_a_range_of_labels_of_ten_digits_or_more_is_expanded(digits: int) -> None:
    first = 10 ** (digits - 1)
    labels = [str(first + n) for n in range(5)]
    paragraph = f"Known [{x('L0', labels[0])}&#x02013;{x('L4', labels[4])}]."
    cited, codes = _citations(paragraph, _long_label_refs(labels))
    assert cited == [(f"{labels[0]}–{labels[4]}", ("L0", "L1", "L2", "L3", "L4"))] and codes == []


def test_one_xref_printing_a_range_of_long_labels_is_expanded_by_its_labels() -> None:
    labels = [str(10 ** 11 + n) for n in range(4)]
    paragraph = f"Known [{x('L0', labels[0] + '&#x02013;' + labels[3])}]."
    cited, codes = _citations(paragraph, _long_label_refs(labels))
    assert cited == [(f"{labels[0]}–{labels[3]}", ("L0", "L1", "L2", "L3"))] and codes == []

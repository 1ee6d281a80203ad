"""Golden table: inline JATS markup -> paragraph text and formatting ranges; odd paragraph places."""

from __future__ import annotations

import pytest
from tests.jats_helpers import article, numbered_refs, x

from chemref import read_jats

# (paragraph inner XML, expected text, expected [(start, end, style)])
CASES = [
    ("H<sub>2</sub>O and Cu<sup>2+</sup> in <italic>E. coli</italic>", "H2O and Cu2+ in E. coli",
     [(1, 2, "sub"), (10, 12, "sup"), (16, 23, "italic")]),
    ("<bold>Bold <italic>both</italic></bold> end", "Bold both end", [(0, 9, "bold"), (5, 9, "italic")]),
    ("  spaced\n   out\ttext  ", "spaced out text", []),
    ("a&#x02013;b &#x000A0;c", "a–b \u00a0c", []),
    ("E = mc<sup>2</sup><!-- a comment --> ok<?pi x?>", "E = mc2 ok", [(6, 7, "sup")]),
    ('<inline-formula><alternatives><tex-math>\\documentclass[12pt]{minimal}\\begin{document}$$x^2$$'
     '\\end{document}</tex-math><mml:math><mml:msup><mml:mi>x</mml:mi><mml:mn>2</mml:mn></mml:msup></mml:math>'
     '<inline-graphic xlink:href="a.gif"/></alternatives></inline-formula> is', "x2 is", []),
    ('<inline-formula><tex-math>\\documentclass{minimal}\\begin{document}$\\alpha$\\end{document}</tex-math>'
     '</inline-formula> only', "\\alpha only", []),
    ("line<break/>break", "line break", []),
]


@pytest.mark.parametrize("inner, text, formatting", CASES)
def test_paragraph_text(inner: str, text: str, formatting: list[tuple[int, int, str]]) -> None:
    art = read_jats(article(f"<sec><title>T</title><p>{inner}</p></sec>"))
    (_, para), = list(art.paragraphs())
    assert para.text == text
    assert [(f.start, f.end, f.style) for f in para.formatting] == formatting


def test_blocks_inside_a_paragraph_become_their_own_paragraphs() -> None:
    body = ("<sec><title>T</title><p>Before the list [" + x("B1", "1") + "]:"
            "<list><list-item><p>item one " + x("B2", "2") + "</p></list-item></list> after.</p>"
            "<boxed-text><p>Boxed " + x("B3", "3") + "</p></boxed-text>"
            "<disp-quote><p>Quoted.</p></disp-quote>"
            "<fig id='F1'><label>Figure 1</label><caption><title>Fig title " + x("B4", "4") + "</title>"
            "<p>Caption text.</p></caption><graphic xlink:href='f1.jpg'/></fig>"
            "<table-wrap><caption><p>Table caption</p></caption><table><thead><tr><th>Head</th></tr></thead>"
            "<tbody><tr><td>cell " + x("B5", "5") + "</td><td/><td> </td><td><italic>last</italic></td></tr>"
            "</tbody></table>"
            "<table-wrap-foot><fn><p>Table note.</p></fn></table-wrap-foot></table-wrap></sec>")
    art = read_jats(article(body, numbered_refs(5)))
    got = [(p.text, p.context, p.is_caption) for _, p in art.paragraphs()]
    assert got == [
        ("Before the list [1]: after.", "p", False),
        ("item one 2", "list", False),
        ("Boxed 3", "boxed-text", False),
        ("Quoted.", "disp-quote", False),
        ("Fig title 4", "caption", True),
        ("Caption text.", "caption", True),
        ("Table caption", "caption", True),
        ("Head", "table", True),
        ("cell 5 | last", "table", True),
        ("Table note.", "table-foot", True),
    ]
    row = [p for _, p in art.paragraphs() if p.text.startswith("cell")][0]
    assert [(f.start, f.end, f.style) for f in row.formatting] == [(9, 13, "italic")]
    cited = [r for _, p in art.paragraphs() for a in p.citations for r in a.ref_ids]
    assert cited == ["B1", "B2", "B3", "B4", "B5"]
    assert not [d for d in art.diagnostics if d.code == "citation-outside-paragraph"]


def test_citation_in_a_section_title_is_a_title_paragraph() -> None:
    art = read_jats(article("<sec><title>On X " + x("B1", "1") + "</title><p>Text.</p></sec>", numbered_refs(1)))
    assert art.diagnostics == ()
    assert [(s.title, p.context, p.text, p.path, [a.ref_ids for a in p.citations]) for s, p in art.paragraphs()] == [
        ("On X 1", "title", "On X 1", "/article/body/sec/title", [("B1",)]),
        ("On X 1", "p", "Text.", "/article/body/sec/p", [])]


def test_paragraph_path_and_line() -> None:
    art = read_jats(article("<sec><title>T</title><p>one</p><p>two</p></sec>"))
    assert [p.path for _, p in art.paragraphs()] == ["/article/body/sec/p[1]", "/article/body/sec/p[2]"]
    assert all(p.line == 1 for _, p in art.paragraphs())


def test_a_skipped_paragraph_is_named_with_where_it_sits() -> None:
    art = read_jats(article("<sec><title>T</title><p>Read.</p><label><p>Not read.</p></label></sec>"))
    assert [(d.code, d.message) for d in art.diagnostics] == [
        ("paragraph-skipped", "1 <p> element(s) of the body sit where no paragraph is read: inside <label> (1)")]

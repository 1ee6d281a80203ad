"""Golden table: section titles -> normalised kinds; nesting, abstracts, loose body paragraphs."""

from __future__ import annotations

import pytest
from tests.jats_helpers import article

from chemref import read_jats
from chemref.jats.sections import section_kind

# (title, sec-type, parent kind, expected kind)
CASES = [
    ("Introduction", None, None, "introduction"),
    ("1. Introduction", None, None, "introduction"),
    ("Background", None, None, "introduction"),
    ("Results", None, None, "results"),
    ("Results and Discussion", None, None, "results"),
    ("3. Results and discussion", None, None, "results"),
    ("Discussion", None, None, "discussion"),
    ("Conclusions", None, None, "conclusions"),
    ("Conclusion", None, None, "conclusions"),
    ("Summary and Outlook", None, None, "conclusions"),
    ("Experimental", None, None, "methods"),
    ("Experimental section", None, None, "methods"),
    ("2. Experimental Section", None, None, "methods"),
    ("Experimental Procedures", None, None, "methods"),
    ("Materials and methods", None, None, "methods"),
    ("MATERIALS AND METHODS", None, None, "methods"),
    ("Material and Methods", None, None, "methods"),
    ("Patients and Methods", None, None, "methods"),
    ("Methods", None, None, "methods"),
    ("Methodology", None, None, "methods"),
    ("Computational details", None, None, "methods"),
    ("Statistical methods", None, None, "methods"),
    ("Materials", None, None, "materials"),
    ("Reagents", None, None, "materials"),
    ("Chemicals and reagents", None, None, "materials"),
    ("Protocol", None, None, "protocol"),
    ("Protocols", None, None, "protocol"),
    ("Supporting Information", None, None, "other"),
    ("Author contributions", None, None, "other"),
    ("", "intro", None, "introduction"),
    ("Something", "materials|methods", None, "methods"),
    # nested: inherit unless the title is specific on its own
    ("Cell culture", None, "methods", "methods"),
    ("Statistical analysis", None, "methods", "methods"),
    ("Reagents", None, "methods", "materials"),
    ("A new method for X", None, "results", "results"),
    ("Protocol optimisation", None, "results", "results"),
    ("Overview", None, "other", "other"),
]


@pytest.mark.parametrize("title, sec_type, parent, expected", CASES)
def test_section_kind(title: str, sec_type: str | None, parent: str | None, expected: str) -> None:
    assert section_kind(title, sec_type, parent) == expected


def test_section_tree_abstracts_and_loose_paragraphs() -> None:
    body = ("<p>Untitled opening.</p>"
            "<sec><title>Experimental</title><p>E.</p><sec><title>Synthesis</title><p>S.</p></sec>"
            "<sec><title>Reagents</title><p>R.</p></sec></sec>"
            "<sec><title>Results</title><p>Res.</p></sec>")
    meta = ('<abstract><p>Plain abstract.</p></abstract>'
            '<abstract abstract-type="graphical"><title>Graphical abstract</title><p>G.</p></abstract>'
            '<abstract><sec><title>Background</title><p>B.</p></sec></abstract>')
    art = read_jats(article(body, meta=meta))
    assert [(s.title, s.kind) for s in art.sections] == [("", "introduction"), ("Experimental", "methods"),
                                                        ("Results", "results")]
    assert [(s.title, s.kind) for s in art.sections[1].sections] == [("Synthesis", "methods"),
                                                                    ("Reagents", "materials")]
    assert [(s.title, s.kind) for s in art.abstracts] == [("Abstract", "abstract"),
                                                         ("Graphical abstract", "abstract"), ("Abstract", "abstract")]
    assert art.abstracts[2].sections[0].kind == "abstract"
    texts = [p.text for _, p in art.paragraphs()]
    assert texts == ["Untitled opening.", "E.", "S.", "R.", "Res."]
    assert [p.text for _, p in art.paragraphs(include_abstracts=True)][:3] == ["Plain abstract.", "G.", "B."]


def test_back_matter_is_kept_apart() -> None:
    back = ('<ack><p>Thanks.</p></ack><app-group><app><title>Appendix A</title><p>App text.</p></app></app-group>'
            '<fn-group><fn><p>A footnote.</p></fn></fn-group>')
    art = read_jats(article("<sec><title>Intro</title><p>Body.</p></sec>", back_extra=back))
    assert [p.text for _, p in art.paragraphs()] == ["Body."]
    assert [p.text for _, p in art.paragraphs(include_back=True)][1:] == ["Thanks.", "App text.", "A footnote."]
    assert "back" in art.to_dict()

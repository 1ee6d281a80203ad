"""Golden tables for each question filter (candidate -> reason | None), with stand-in NLP components."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from chemref.jats.model import CitationAnchor, Reference
from chemref.questions.funnel.candidates import ArticleInfo, Candidate, replace_citation
from chemref.questions.funnel.engines import Components
from chemref.questions.funnel.filters import (
    FILTERS, REASONS, FilterContext, cc_by, has_doi, has_title, is_claim, length, no_author_named,
    no_caption_fragment, no_dangling_opening, no_identifier, no_display_formula, no_glued_sentences, no_table_row, one_citation,
    per_target_cap, section,
)
from chemref.questions.funnel.settings import BuildSettings


@dataclass(frozen=True)
class _Decision:
    label: str
    score: float = 1.0
    rule: str | None = None


def _mentions(text, surnames):
    """Stand-in for chemref.nlp.authors.cited_author_mentions: whole-word surname hits only."""
    import re
    return [m for s in surnames for m in re.finditer(rf"\b{re.escape(s)}\b", text) if len(s) >= 3]


def _classify(sentence, citation=None):
    """Stand-in claim classifier: supplier / 'as described' sentences are passing mentions."""
    passing = any(w in sentence for w in ("purchased from", "as described previously", "software"))
    return _Decision("PASSING" if passing else "CLAIM")


FAKE = Components(split=lambda text, protected=(): [(0, len(text))], mentions=_mentions,
                  mask=lambda text, mentions: text, classify=_classify)
CTX = FilterContext(BuildSettings(), FAKE)
CTX_MASK = FilterContext(BuildSettings(authors="mask"), FAKE)
CTX_SHORT = FilterContext(BuildSettings(min_chars=20, max_chars=40), FAKE)
CTX_PMID = FilterContext(BuildSettings(answer_key="doi-or-pmid"), FAKE)

INFO = ArticleInfo("a.xml", "PMC1", "10.1/a", "https://creativecommons.org/licenses/by/4.0/", True, "PMC1")
INFO_NC = ArticleInfo("b.xml", None, None, "https://creativecommons.org/licenses/by-nc/4.0/", False, "b")
REF = Reference("R1", doi="10.5555/x", title="T", authors=("Okafor", "Lindgren"))
REF_NODOI = Reference("R2", authors=("Quispe",))
REF_AMBIG = Reference("R3", ambiguous=True)
REF_PMID = Reference("R4", pmid="12345", title="T", authors=("Quispe",))
REF_NOTITLE = Reference("R5", doi="10.5555/y", title=None)
REF_BLANKTITLE = Reference("R6", doi="10.5555/z", title="  ")

LONG = "Carbon shells raised the discharge capacity at 10 C from 62 to 118 mAh g-1 in olivine cathodes"


def cand(sentence: str = LONG + " [1].", *, refs=(REF,), n_anchors: int = 1, ids=None, section_kind="results",
         info=INFO, formula: bool = False) -> Candidate:
    """A candidate whose first anchor is the last "[...]" of ``sentence``."""
    start = sentence.rindex("[")
    anchors = tuple(CitationAnchor(start, len(sentence) - 1, sentence[start:-1], ids or tuple(
        r.id if r else "X" for r in refs)) for _ in range(n_anchors))
    return Candidate("PMC1-p0-s0", info, section_kind, "Results", 0, 0, sentence, anchors, tuple(refs),
                     display_formula=formula)


def run(check, c: Candidate, ctx=CTX):
    return check(c, replace_citation(c.sentence, c.anchor.start, c.anchor.end), ctx)


CASES = [
    # (filter, candidate, context, expected reason)
    pytest.param(no_display_formula, cand(), CTX, None, id="formula-none"),
    pytest.param(no_display_formula, cand(formula=True), CTX, "no_display_formula", id="formula-flattened"),
    pytest.param(has_doi, cand(refs=(REF_PMID,)), CTX, "has_doi", id="doi-key-pmid-only"),
    pytest.param(has_doi, cand(refs=(REF_PMID,)), CTX_PMID, None, id="doi-or-pmid-key-pmid-only"),
    pytest.param(has_doi, cand(refs=(REF_NODOI,)), CTX_PMID, "has_doi", id="doi-or-pmid-key-neither"),
    pytest.param(has_title, cand(), CTX, None, id="title-ok"),
    pytest.param(has_title, cand(refs=(REF_NOTITLE,)), CTX, "has_title", id="title-missing"),
    pytest.param(has_title, cand(refs=(REF_BLANKTITLE,)), CTX, "has_title", id="title-blank"),
    pytest.param(cc_by, cand(), CTX, None, id="cc_by-ok"),
    pytest.param(cc_by, cand(info=INFO_NC), CTX, "cc_by", id="cc_by-nc"),
    pytest.param(section, cand(section_kind="introduction"), CTX, None, id="section-intro"),
    pytest.param(section, cand(section_kind="results"), CTX, None, id="section-results"),
    pytest.param(section, cand(section_kind="discussion"), CTX, None, id="section-discussion"),
    pytest.param(section, cand(section_kind="other"), CTX, None, id="section-other"),
    pytest.param(section, cand(section_kind="methods"), CTX, "section", id="section-methods"),
    pytest.param(section, cand(section_kind="materials"), CTX, "section", id="section-materials"),
    pytest.param(section, cand(section_kind="protocol"), CTX, "section", id="section-protocol"),
    pytest.param(section, cand(section_kind="caption"), CTX, "section", id="section-caption"),
    pytest.param(one_citation, cand(), CTX, None, id="one-ok"),
    pytest.param(one_citation, cand(n_anchors=2), CTX, "one_citation", id="one-two-anchors"),
    pytest.param(one_citation, cand(refs=(REF, REF_NODOI)), CTX, "one_citation", id="one-range-or-multirid"),
    pytest.param(one_citation, cand(refs=(None,)), CTX, "one_citation", id="one-missing-ref-id"),
    pytest.param(one_citation, cand(refs=(REF_AMBIG,)), CTX, "one_citation", id="one-ambiguous-ref"),
    pytest.param(has_doi, cand(), CTX, None, id="doi-ok"),
    pytest.param(has_doi, cand(refs=(REF_NODOI,)), CTX, "has_doi", id="doi-missing"),
    pytest.param(no_author_named, cand(), CTX, None, id="author-none"),
    pytest.param(no_author_named, cand("Okafor and co-workers showed that carbon helps in every cell [1]."), CTX,
                 "no_author_named", id="author-named"),
    pytest.param(no_author_named, cand("Okafor and co-workers showed that carbon helps in every cell [1]."), CTX_MASK,
                 None, id="author-named-mask-mode"),
    pytest.param(no_author_named, cand("Okaforite minerals were found [1]."), CTX, None, id="author-not-whole-word"),
    pytest.param(no_author_named, cand("Shown before [1].", refs=(Reference("R9", doi="10.1/z"),)), CTX, None,
                 id="author-list-empty"),
    pytest.param(is_claim, cand(), CTX, None, id="claim"),
    pytest.param(is_claim, cand("LiFePO4 was purchased from a supplier and used as received [1]."), CTX,
                 "is_claim", id="passing-supplier"),
    pytest.param(is_claim, cand("Spectra were fitted as described previously [1]."), CTX, "is_claim",
                 id="passing-described"),
    pytest.param(length, cand(), CTX_SHORT, "length", id="length-too-long"),
    pytest.param(length, cand("Short one [1]."), CTX_SHORT, None, id="length-ok-short-bounds"),
    pytest.param(length, cand("Short [1]."), CTX_SHORT, "length", id="length-too-short"),
    pytest.param(length, cand("x" * 108 + " [1]."), CTX, None, id="length-exactly-120"),
    pytest.param(length, cand("x" * 107 + " [1]."), CTX, "length", id="length-119"),
    pytest.param(length, cand("x" * 588 + " [1]."), CTX, None, id="length-exactly-600"),
    pytest.param(length, cand("x" * 589 + " [1]."), CTX, "length", id="length-601"),
    # an opening that points back at the sentence before
    pytest.param(no_identifier, cand(), CTX, None, id="identifier-none"),
    pytest.param(no_identifier, cand("Data for the zinc sites: https://doi.org/10.5061/dryad.x1 [1]."), CTX,
                 "no_identifier", id="identifier-doi-link"),
    pytest.param(no_identifier, cand("The structure is deposited as doi:10.1000/zn.7 in the archive [1]."), CTX,
                 "no_identifier", id="identifier-doi-prefix"),
    pytest.param(no_identifier, cand("The sequence tool is served at www.example.org for all users [1]."), CTX,
                 "no_identifier", id="identifier-web-address"),
    pytest.param(no_identifier, cand("A 10.5 kDa band and a 10.12/3 ratio are no identifiers [1]."), CTX, None,
                 id="identifier-numbers-are-not"),
    pytest.param(no_dangling_opening, cand(), CTX, None, id="dangling-none"),
    pytest.param(no_dangling_opening, cand("These mice respond to doxycycline within two days [1]."), CTX,
                 "no_dangling_opening", id="dangling-these-noun"),
    pytest.param(no_dangling_opening, cand("This was later traced to a second copper site [1]."), CTX,
                 "no_dangling_opening", id="dangling-this-pronoun"),
    pytest.param(no_dangling_opening, cand("Such coatings slow the dissolution of iron [1]."), CTX,
                 "no_dangling_opening", id="dangling-such"),
    pytest.param(no_dangling_opening, cand("Moreover, these two ligands bind zinc [1]."), CTX,
                 "no_dangling_opening", id="dangling-after-connective"),
    pytest.param(no_dangling_opening, cand("However, the enrichment step was run off the disc [1]."), CTX,
                 "no_dangling_opening", id="dangling-contrast"),
    pytest.param(no_dangling_opening, cand("Thus, copper uptake rises in the mutant [1]."), CTX,
                 "no_dangling_opening", id="dangling-consequence"),
    pytest.param(no_dangling_opening, cand("Furthermore, copper uptake rises in the mutant [1]."), CTX,
                 None, id="additive-connective-stays"),
    pytest.param(no_dangling_opening, cand("However the enrichment step was run off the disc [1]."), CTX,
                 "no_dangling_opening", id="connective-without-its-comma"),
    pytest.param(no_dangling_opening, cand("Thusly named compounds bind zinc [1]."), CTX, None,
                 id="connective-not-a-whole-word"),
    pytest.param(no_dangling_opening, cand("Taken together, these results implicate copper [1]."), CTX,
                 "no_dangling_opening", id="dangling-after-two-word-connective"),
    pytest.param(no_dangling_opening, cand("Thiolate ligands in this family bind zinc [1]."), CTX, None,
                 id="dangling-demonstrative-later"),
    pytest.param(no_dangling_opening, cand("Thisbe mutants lack the wing vein [1]."), CTX, None,
                 id="dangling-not-a-whole-word"),
    pytest.param(no_dangling_opening, cand("In the yeast two-hybrid screen of 2010, these two ligands bound "
                                           "zinc [1]."), CTX, None, id="dangling-long-opening-phrase"),
]


@pytest.mark.parametrize(("check", "candidate", "ctx", "expected"), CASES)
def test_filter(check, candidate, ctx, expected):
    assert run(check, candidate, ctx) == expected


def test_filters_are_in_funnel_order():
    assert [name for name, _ in FILTERS] == ["cc_by", "no_table_row", "no_caption_fragment", "no_glued_sentences",
                                             "section", "no_display_formula", "one_citation", "has_doi",
                                             "has_title", "length", "no_dangling_opening", "no_identifier",
                                             "no_author_named", "is_claim"]
    assert REASONS[-4:] == ("min_findability", "min_score", "per_target_cap", "per_article_cap")
    for name, check in FILTERS:  # each filter is named after the reason it returns
        assert check.__name__ == name


def test_the_funnel_is_one_table_of_steps():
    import chemref.questions.funnel.filters as filters

    assert [step.name for step in filters.STEPS] == list(REASONS) == list(filters.DESCRIPTIONS)
    assert [(step.name, step.check) for step in filters.STEPS if step.stage == "sentence"] == list(FILTERS)
    assert filters.SCORE_STAGES == REASONS[len(FILTERS):]  # every per-sentence filter comes first
    assert filters.SELECTOR_STAGES == ("min_score", "per_target_cap", "per_article_cap")
    for step in filters.STEPS:
        assert step.check.__name__ == step.name and step.stage in filters.STAGES, step.name
        text = step.description
        assert text == filters.description(step.name)
        assert text[0].islower() and not text.endswith("."), step.name  # shown as a table cell
        assert "``" not in text and ":func:" not in text and "|" not in text, step.name  # plain text
    with pytest.raises(KeyError):
        filters.description("tiebreak")  # not a funnel step


def test_length_counts_the_excerpt_not_the_sentence():
    # the sentence is 121 characters, the excerpt ("[CITATION]" replaces "[12345678901]") 118
    sentence = "y" * 106 + " [12345678901]."
    c = cand(sentence)
    assert len(sentence) >= 120
    assert run(length, c) == "length"


def test_article_steps_are_named_functions_too():
    """Steps (8) and --min-findability are named functions like filters 1-7, returning their reason."""
    from chemref.questions.funnel.filters import min_findability, per_article_cap, tiebreak

    assert min_findability(0.2, BuildSettings(min_findability=0.3)) == "min_findability"
    assert min_findability(0.3, BuildSettings(min_findability=0.3)) is None
    assert min_findability(0.0, BuildSettings()) is None
    survivors = [("a", 0.5), ("b", 0.9), ("c", 0.5), ("d", 0.7), ("e", 0.5)]
    settings = BuildSettings(per_article=3, seed=7)
    kept, capped = per_article_cap(survivors, settings, score=lambda s: s[1], record_id=lambda s: s[0])
    tied = sorted(["a", "c", "e"], key=lambda name: tiebreak(7, name))
    assert kept == [s for s in survivors if s[0] in {"b", "d", tied[0]}]  # document order
    assert [s[0] for s in capped] == tied[1:]  # best first
    again, _ = per_article_cap(survivors, settings, score=lambda s: s[1], record_id=lambda s: s[0])
    assert again == kept  # same seed, same choice
    assert per_article_cap(survivors[:2], settings, score=lambda s: s[1], record_id=lambda s: s[0]) == \
        (survivors[:2], [])


# --------------------------------------------------------------------------- per-target cap
PER_TARGET = [
    # (survivors as (id, score, target), per_target, expected kept ids, expected capped ids best first)
    pytest.param([("a", 0.9, "T1"), ("b", 0.5, "T1"), ("c", 0.7, "T2")], 1, ["a", "c"], ["b"], id="one-per-target"),
    pytest.param([("a", 0.4, "T1"), ("b", 0.5, "T1"), ("c", 0.6, "T1")], 2, ["b", "c"], ["a"], id="two-per-target"),
    pytest.param([("a", 0.4, "T1"), ("b", 0.5, "T2")], 1, ["a", "b"], [], id="distinct-targets"),
    pytest.param([("b", 0.5, "T1"), ("a", 0.5, "T1")], 1, None, None, id="tie-broken-by-seed"),
]


@pytest.mark.parametrize(("survivors", "per_target", "kept", "capped"), PER_TARGET)
def test_per_target_cap(survivors, per_target, kept, capped):
    settings = BuildSettings(per_target=per_target, per_article=10)
    got_kept, got_capped = per_target_cap(survivors, settings, target=lambda s: s[2], score=lambda s: s[1],
                                          record_id=lambda s: s[0])
    if kept is None:  # a tie: exactly one survives, the same one on every run
        assert len(got_kept) == 1 and len(got_capped) == 1
        again, _ = per_target_cap(list(reversed(survivors)), settings, target=lambda s: s[2],
                                  score=lambda s: s[1], record_id=lambda s: s[0])
        assert again == got_kept
        return
    assert [s[0] for s in got_kept] == kept  # input order
    assert [s[0] for s in got_capped] == capped


@pytest.mark.slow
def test_funnel_descriptions_survive_python_oo():
    # ``python -OO`` (PYTHONOPTIMIZE=2) drops docstrings: the descriptions are data, so the funnel table is whole
    import json
    import subprocess
    import sys

    from chemref.questions.funnel.filters import DESCRIPTIONS

    code = ("import json; from chemref.questions.output.report import funnel_rows; "
            "from chemref.questions.output.totals import BuildTotals; "
            "print(json.dumps({r['filter']: r['description'] for r in funnel_rows(BuildTotals())}))")
    out = subprocess.run([sys.executable, "-OO", "-c", code], capture_output=True, text=True, check=True).stdout
    assert json.loads(out) == DESCRIPTIONS


#: Sentences that are no sentence (our own text): (text, expected reason or None), one table per filter.
TABLE_ROWS = [
    ("Strain KX12 | Gammaproteobacteria | [4]", "no_table_row"),
    ("Cobalt oxide | 450 °C | 12 h | spinel | [17]", "no_table_row"),
    ("2005 •Nitrogenase genes found in soil metagenomes and confirmed in E. coli [10].", "no_table_row"),
    ("▪ Copper sites bind oxygen reversibly at room temperature [3].", "no_table_row"),
    (LONG + " [1].", None),
    ("The yield was 62% (entry 3 | 4) under argon [2].", None),  # one bar: not a row of cells
    ("Values for Cu|Zn interfaces were lower than for bulk copper [5].", None),
]
TABLE_ROWS_HARD = [
    # a row whose cells are separated by tabs or runs of spaces, as some converters write tables
    ("Strain KX12\tGammaproteobacteria\t[4]", "no_table_row"),
    # the absolute-value bars of a formula in the text are no cells
    ("The overlap |⟨ψ|φ⟩| stays below 0.1 for |k| > 2 in the model of [6].", None),
]
CAPTION_FRAGMENTS = [
    ("Adapted with permission from ref [41].", "no_caption_fragment"),
    ("Reproduced from Okafor et al. [19], licensed under CC BY 4.0.", "no_caption_fragment"),
    ("This figure is adapted from the reviews of two groups [28].", "no_caption_fragment"),
    ("Copyright 2014, Royal Society of Chemistry [12].", "no_caption_fragment"),
    ("Scale bars, 50 µm; nuclei were stained as in [9].", "no_caption_fragment"),
    ("Sox9 (green) and Pax2 (red) antibodies both stain the tips of the growing duct [17].", "no_caption_fragment"),
    ("Iron uptake was measured with a method adapted from [9].", None),  # a method, not a picture credit
    ("Copper sites turn blue (red-shifted) on binding oxygen [3].", None),
    ("Nuclei stained with DAPI (blue) were counted as before [8].", None),  # one colour: body text may say that
    (LONG + " [1].", None),
]
CAPTION_FRAGMENTS_HARD = [
    # a panel description without a credit, a bar or a colour key
    ("(B) Time course of the copper uptake in wild-type and mutant cells [5].", "no_caption_fragment"),
    # a colour key spread over two clauses that a sentence in the results could also use
    ("The wild-type (black) trace rises faster than that of the mutant, as in [4] (grey).", None),
]
GLUED = [
    ("Cdc42 activates the kinase, However, recruitment can occur without it at the synapse [3].",
     "no_glued_sentences"),
    ("The ligand binds zinc; Therefore, the site is blocked in the apo form [7].", "no_glued_sentences"),
    ("The catalyst was calcined overnight.The spinel phase formed within two hours [11].", "no_glued_sentences"),
    ("However, the ligand binds zinc, and, therefore, the site is blocked [7].", None),  # lower-case adverb
    ("Copper, Moreover and Thus are the names of three strains in [2].", None),  # no comma after the word
    ("The samples were run on a Bruker Avance III (Bruker, Germany) [4].", None),
    ("Growth was slower at pH 5.5 than at pH 7.0 in [6].", None),  # decimal points
    ("Sequences were taken from www.ebi.ac.uk and aligned [8].", None),
    ("Strains of the genus E.Coli bind copper [5].", None),  # one letter before the stop: an abbreviation
]
GLUED_HARD = [
    # two sentences joined with no mark at all
    ("The ligand binds zinc the site is then blocked in the apo form [7].", "no_glued_sentences"),
    # a qualified name in code ("java.util.Random") is no full stop
    ("Seeds were drawn with java.util.Random as in the simulations of [5].", None),
]


def _golden(table, hard):
    return [pytest.param(text, expected, id=f"{i}") for i, (text, expected) in enumerate(table)] + [
        pytest.param(text, expected, id=f"hard-{i}", marks=pytest.mark.xfail(strict=True, reason="not caught yet"))
        for i, (text, expected) in enumerate(hard)]


@pytest.mark.parametrize(("text", "expected"), _golden(TABLE_ROWS, TABLE_ROWS_HARD))
def test_no_table_row(text, expected):
    assert no_table_row(cand(text), text, CTX) == expected


@pytest.mark.parametrize(("text", "expected"), _golden(CAPTION_FRAGMENTS, CAPTION_FRAGMENTS_HARD))
def test_no_caption_fragment(text, expected):
    assert no_caption_fragment(cand(text), text, CTX) == expected


@pytest.mark.parametrize(("text", "expected"), _golden(GLUED, GLUED_HARD))
def test_no_glued_sentences(text, expected):
    assert no_glued_sentences(cand(text), text, CTX) == expected


def test_broken_sentence_filters_come_before_the_section_filter():
    """A table row of a caption is named for what it is, not for where it stands."""
    row = cand("Strain KX12 | Gammaproteobacteria | [4]", section_kind="caption")
    first = next(name for name, check in FILTERS if check(row, row.sentence, CTX))
    assert first == "no_table_row"

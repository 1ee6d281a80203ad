"""End-to-end question building on the sample corpus (golden funnel), the dev corpus (acceptance
invariants), workers=2 and Dask equal to one process, and unreadable input as a per-file error."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from tests.helpers import CORPORA, shared_path

from chemref.errors import InputError
from chemref.jats.reader import read
from chemref.questions import BuildResult, build
from chemref.questions.funnel.candidates import CITATION_MARK

SAMPLE = CORPORA / "jats"
ONE_OR_TWO_LETTER_PATTERNS = (r"{s} et al", r"{s} and co-?workers", r"{s} and colleagues", r"{s}['’]s\b",
                              r"{s} (?:and|&) [A-Z]", r"group of {s}\b")

# Every candidate sentence of the sample corpus and its first failing filter ("kept": passes filters 1-7;
# it is then a question or falls to the per-article cap). The traps are described in corpora/README.md.
GOLDEN = [
    ("PMC0000101-c0-s0", "section"),  # X-ray diffraction patterns of bare and coated Li
    ("PMC0000101-p0-s0", "length"),  # Olivine LiFePO4 is a widely used cathode materia
    ("PMC0000101-p0-s1", "one_citation"),  # Its intrinsic electronic conductivity of about 1
    ("PMC0000101-p0-s2", "no_author_named"),  # Okafor and co-workers showed that a 3 nm carbon 
    ("PMC0000101-p1-s0", "one_citation"),  # Carbon coatings derived from citric acid, glucos
    ("PMC0000101-p1-s1", "has_doi"),  # Nitrogen doping of the carbon layer further lowe
    ("PMC0000101-p2-s0", "kept"),  # Rietveld refinement of the X-ray diffraction pat (comparison with reported values)
    ("PMC0000101-p2-s1", "kept"),  # The Raman D/G band intensity ratio of 0.92 indic
    ("PMC0000101-p3-s0", "length"),  # Electrochemical impedance spectra were fitted wi
    ("PMC0000101-p3-s1", "kept"),  # The coated electrodes retained 96% of their init
    ("PMC0000101-p4-s0", "kept"),  # Thin, partially graphitic carbon shells are thou
    ("PMC0000101-p4-s1", "kept"),  # Lithium-ion batteries are one of the most import
    ("PMC0000101-p5-s0", "no_author_named"),  # A similar trend was reported by Li et al., who f
    ("PMC0000101-p5-s1", "has_doi"),  # Pyridinic nitrogen at 2.1 at.% in our shells, me
    ("PMC0000101-p6-s0", "section"),  # LiFePO4 powder was purchased from a commercial s
    ("PMC0000102-p0-s0", "kept"),  # Laccases are multicopper oxidases that couple th
    ("PMC0000102-p0-s1", "kept"),  # The T1 copper site of fungal laccases has a redo
    ("PMC0000102-p0-s2", "one_citation"),  # Both the axial ligand and the hydrophobicity of 
    ("PMC0000102-p1-s0", "kept"),  # [CITATION] showed that replacing the axial methi
    ("PMC0000102-p1-s1", "length"),  # Enzymes are widely used in industry because they
    ("PMC0000102-p2-s0", "kept"),  # Initial rates followed Michaelis–Menten kinetics
    ("PMC0000102-p2-s1", "no_author_named"),  # Protein concentrations were measured with the Ha
    ("PMC0000102-p3-s0", "length"),  # ABTS and syringaldazine were obtained from Merck
    ("PMC0000102-p3-s1", "kept"),  # Activity measured after purging the buffer with 
    ("PMC0000102-p4-s0", "is_claim"),  # Docking poses of ABTS in the substrate pocket we
    ("PMC0000102-p5-s0", "kept"),  # The 2.4-fold increase in kcat of the L386W varia
    ("PMC0000102-p5-s1", "no_author_named"),  # Ma's group later extended this approach to bacte
    ("PMC0000102-p6-s0", "kept"),  # Glycosylation at Asn54 and Asn333 increased the 
    ("PMC0000102-p7-s0", "section"),  # The laccase gene was codon-optimised and express
    ("PMC0000102-p7-s1", "section"),  # Secreted protein was concentrated by ultrafiltra
    ("PMC0000104-p0-s0", "cc_by"),  # Substoichiometric Zn2+ shortens the lag phase of
    ("PMC0000104-p0-s1", "cc_by"),  # The designed peptide KFFEH9 carries a single his
    ("PMC0000104-p1-s0", "cc_by"),  # Equimolar Zn2+ raised the thioflavin-T fluoresce
    ("PMC0000104-p1-s1", "cc_by"),  # Isothermal titration calorimetry gave a dissocia
    ("PMC0000104-p2-s0", "cc_by"),  # Peptides were synthesised by standard Fmoc solid
    ("PMC0000105-p0-s0", "has_doi"),  # Zinc is an essential trace element for all livin
    ("PMC0000105-p0-s1", "kept"),  # Zinc binding to the CCHC knuckles of retroviral 
    ("PMC0000105-p0-s2", "one_citation"),  # Earlier reports on knuckle stoichiometry disagre
    ("PMC0000105-p1-s0", "kept"),  # Co2+ substitution gives d–d bands at 568 and 642
    ("PMC0000105-p1-s1", "no_author_named"),  # The Amsel titration, in which Co2+ is displaced 
    ("PMC0000105-p2-s0", "kept"),  # Fluorescence anisotropy with a fluorescein-label
    ("PMC0000105-p2-s1", "kept"),  # A single Cys-to-Ser mutation in the distal knuck
    ("PMC0000105-p2-s2", "one_citation"),  # The NMR chemical shifts of His34 confirm that it
    ("PMC0000105-p3-s0", "no_author_named"),  # Our results agree with the sequential model of V
    ("PMC0000105-p3-s1", "has_doi"),  # Proteins containing zinc fingers play important 
    ("PMC0000105-p4-s0", "section"),  # Protein was expressed in E. coli BL21(DE3) cells
    ("sample_cu_tio2_co2-c0-s0", "section"),  # Product rates on Cu/TiO2 photocatalysts from thi
    ("sample_cu_tio2_co2-c3-s0", "section"),  # Cu NP/TiO2[CITATION] | 7
    ("sample_cu_tio2_co2-p0-s0", "has_doi"),  # Climate change driven by rising atmospheric CO2 
    ("sample_cu_tio2_co2-p0-s1", "kept"),  # Copper single atoms anchored on anatase TiO2 con
    ("sample_cu_tio2_co2-p0-s2", "one_citation"),  # The competing hydrogen evolution reaction has be
    ("sample_cu_tio2_co2-p1-s0", "one_citation"),  # Oxygen vacancies next to the copper sites stabil
    ("sample_cu_tio2_co2-p1-s1", "kept"),  # Doping anatase with Li+ instead of copper shifts
    ("sample_cu_tio2_co2-p2-s0", "kept"),  # In situ X-ray photoelectron spectroscopy showed 
    ("sample_cu_tio2_co2-p2-s1", "no_author_named"),  # The isotope-labelling experiment with 13CO2 gave
    ("sample_cu_tio2_co2-p3-s0", "is_claim"),  # Adsorption energies were computed with the plane
    ("sample_cu_tio2_co2-p3-s1", "kept"),  # Methane formation rates reached 42 µmol g−1 h−1 (six times higher than)
    ("sample_cu_tio2_co2-p4-s0", "kept"),  # The persistence of Cu+ under illumination explai
    ("sample_cu_tio2_co2-p4-s1", "length"),  # Photocatalysis has great potential for solar fue
    ("sample_cu_tio2_co2-p5-s0", "section"),  # Anatase nanoparticles (25 nm) were impregnated w
]


def _dump(result):
    return ([q.to_dict() for q in result.questions], [r.to_dict() for r in result.rejected], result.funnel,
            [a.error for a in result.articles])


def named_surnames(excerpt: str, surnames) -> list[str]:
    """The no-author-named rule, independently: >= 3 letters anywhere as a whole word (case-sensitive); 1-2 letters
    only in an author-mention pattern."""
    hits = []
    for name in surnames:
        if len(name) >= 3:
            if re.search(rf"(?<!\w){re.escape(name)}(?!\w)", excerpt):
                hits.append(name)
        elif any(re.search(rf"(?<!\w){p.format(s=re.escape(name))}", excerpt) for p in ONE_OR_TWO_LETTER_PATTERNS):
            hits.append(name)
    return hits


def check_invariants(result, folder: Path, *, masked: bool = False) -> None:
    """The builder's invariants, for every question of ``result`` built from ``folder``."""
    settings = result.settings
    per_article = Counter(q.source_file for q in result.questions)
    assert max(per_article.values(), default=0) <= settings.per_article
    per_target = Counter((q.source_file, q.target_doi) for q in result.questions)
    assert max(per_target.values(), default=0) <= settings.per_target
    articles = {}
    for q in result.questions:
        if q.source_file not in articles:
            articles[q.source_file] = read(folder.parent / q.source_file)  # named from the folder's name on
        article = articles[q.source_file]
        assert article.license.cc_by, q.id
        ref = article.references_by_id[q.ref_id]
        assert q.target_doi and q.target_doi == ref.doi, q.id
        assert q.target_title and q.target_title == ref.title, q.id
        assert q.score is not None and q.score >= settings.min_score, q.id
        assert q.excerpt.count(CITATION_MARK) == 1, q.id
        assert settings.min_chars <= len(q.excerpt) <= settings.max_chars, q.id
        assert q.sentence[q.citation_start:q.citation_end] == q.citation_text, q.id
        rebuilt = q.sentence[:q.citation_start] + CITATION_MARK + q.sentence[q.citation_end:]
        if not masked:
            assert q.excerpt == rebuilt, q.id
            assert q.excerpt.replace(CITATION_MARK, q.citation_text) == q.sentence, q.id
        assert any(q.sentence in p.text for _, p in article.paragraphs()), q.id
        assert q.section not in ("methods", "materials", "protocol", "caption"), q.id
        assert not named_surnames(q.excerpt, ref.authors), (q.id, named_surnames(q.excerpt, ref.authors))
    assert len({q.id for q in result.questions} | {r.id for r in result.rejected}) == \
        len(result.questions) + len(result.rejected)
    assert result.candidates == len(result.questions) + len(result.rejected)
    assert sum(result.funnel.values()) == len(result.rejected)


@pytest.fixture(scope="module")
def sample_result():
    return build([SAMPLE])


@pytest.mark.parametrize(("record_id", "expected"), GOLDEN)
def test_sample_golden_funnel(sample_result, record_id, expected):
    outcome = {q.id: "kept" for q in sample_result.questions}
    outcome.update({r.id: "kept" if r.reason in ("min_score", "per_target_cap", "per_article_cap") else r.reason for r in sample_result.rejected})
    assert outcome.get(record_id) == expected


def test_sample_has_no_unlisted_candidates(sample_result):
    listed = {(case.values if hasattr(case, "values") else case)[0] for case in GOLDEN}
    assert {q.id for q in sample_result.questions} | {r.id for r in sample_result.rejected} == listed


def test_sample_invariants(sample_result):
    # the README's main command gives questions at the default threshold, which puts precision first (on the
    # dev labels it keeps a third of the good candidates): 2 of the 21 candidates that reach the selector
    assert 2 <= len(sample_result.questions) <= 20
    scored = [r for r in sample_result.rejected if r.reason in ("min_score", "per_target_cap", "per_article_cap")]
    assert 5 <= len(sample_result.questions) + len(scored) <= 30
    assert not sample_result.errors
    check_invariants(sample_result, SAMPLE)


def test_sample_mask_mode_keeps_author_named_sentences_masked():
    result = build([SAMPLE], authors="mask")
    check_invariants(result, SAMPLE, masked=True)
    masked = [q for q in result.questions + result.rejected if "[AUTHOR]" in q.excerpt]
    assert masked, "the author-named traps should be masked, not dropped"
    assert "no_author_named" not in {r.reason for r in result.rejected}


def test_same_seed_same_output_and_workers_2_equal(sample_result):
    assert _dump(build([SAMPLE])) == _dump(sample_result)
    assert _dump(build([SAMPLE], workers=2)) == _dump(sample_result)


@pytest.mark.slow
def test_dask_bag_equals_single_process(sample_result):
    pytest.importorskip("dask.bag")
    from chemref.questions import build_bag

    bag = build_bag([SAMPLE])
    assert bag.npartitions >= 1
    assert _dump(BuildResult(sample_result.settings, tuple(bag.compute(scheduler="sync")))) == _dump(sample_result)


def test_malformed_file_is_a_per_file_error(tmp_path):
    bad = tmp_path / "broken.xml"
    bad.write_text("<article><front><article-meta></front></article>", encoding="utf-8")
    good = SAMPLE / "sample_lfp_carbon_coating.xml"
    result = build([good, bad, tmp_path / "broken.xml"], min_score=0)
    assert [a.error is None for a in result.articles] == [True, False, False]
    assert "broken.xml" in result.errors[0][1]
    assert result.questions  # the readable article still gives its questions


@pytest.mark.shared
@pytest.mark.slow
def test_dev_corpus_acceptance():
    dev = shared_path("corpora", "jats", "dev")
    result = build([dev])
    assert not result.errors
    check_invariants(result, dev)
    # precision first: the default threshold keeps a third of the good candidates that pass the other filters
    # (1.5% of the dev candidates, 98 of 6,379), where the F0.5 maximum kept half of them (2.2%; BioChemCite
    # keeps roughly one in twenty with no selector); below 1% the threshold or a filter drops good ones wholesale
    assert 0.01 < result.survival_rate < 0.02


@pytest.mark.shared
@pytest.mark.slow
def test_dev_corpus_mask_mode_invariants():
    dev = shared_path("corpora", "jats", "dev")
    result = build([dev], authors="mask")
    check_invariants(result, dev, masked=True)


def test_sentence_with_a_display_formula_is_rejected_not_flattened():
    from tests.jats_helpers import numbered_refs, x

    from tests.jats_helpers import article as jats_article

    formula = ('<disp-formula id="e1"><label>(4)</label><mml:math><mml:mi>ΔG</mml:mi><mml:mo>=</mml:mo>'
               '<mml:mo>−</mml:mo><mml:mi>RT</mml:mi><mml:mi>ln</mml:mi><mml:mi>K</mml:mi></mml:math></disp-formula>')
    body = ('<sec><title>Results</title><p>The binding free energy of the Zn2+ complex of the tripeptide was '
            f'obtained from the association constant as defined in {x("B1", "1")}:{formula}where K is the measured '
            'association constant at 298 K in 50 mM HEPES buffer. The association constant of the Cu2+ complex '
            f'of the same tripeptide was 40 times larger at pH 7.4 in the same buffer {x("B2", "2")}.</p></sec>')
    meta = ('<permissions><license xlink:href="http://creativecommons.org/licenses/by/4.0/"><license-p>CC BY'
            '</license-p></license></permissions>')
    result = build([jats_article(body, numbered_refs(3), meta)], min_score=0)
    reasons = {r.id: r.reason for r in result.rejected}
    kept = {q.id: q for q in result.questions}
    assert reasons["article-p0-s0"] == "no_display_formula"
    assert "article-p0-s1" in kept or reasons["article-p0-s1"] != "no_display_formula"
    assert all("ΔG" not in q.excerpt for q in result.questions)


# --- source_file is the path as given, so `chemref baseline bm25 questions.jsonl` reopens it from here -------
@pytest.mark.slow
def test_source_file_is_the_path_as_given(tmp_path, monkeypatch):
    import shutil

    from chemref.questions.output.writer import build_to_files

    folder = tmp_path / "in" / "sub"
    folder.mkdir(parents=True)
    shutil.copy(SAMPLE / "sample_lfp_carbon_coating.xml", folder)
    monkeypatch.chdir(tmp_path)
    relative = build(["in"], min_score=0).questions
    assert relative and all(q.source_file == "in/sub/sample_lfp_carbon_coating.xml" for q in relative)
    assert all(Path(q.source_file).is_file() for q in relative)
    # an absolute input never writes the machine's path: it is named from its last folder name on
    absolute = build([str(tmp_path / "in")], min_score=0).questions
    assert all(q.source_file == "in/sub/sample_lfp_carbon_coating.xml" for q in absolute)
    assert [q.id for q in absolute] == [q.id for q in relative]  # ids do not depend on how the path was given
    single = build([str(folder / "sample_lfp_carbon_coating.xml")], min_score=0).questions
    assert single and all(q.source_file == "sample_lfp_carbon_coating.xml" for q in single)
    # the default input (the CLI's sample corpus) names files relative to itself: the BM25 baseline searches it
    with pytest.raises(InputError, match="no input given"):
        build_to_files([], tmp_path / "q.jsonl")  # the library reads no folder it is not given
    build_to_files([], tmp_path / "q.jsonl", default_input=SAMPLE)
    rows = [json.loads(line) for line in (tmp_path / "q.jsonl").read_text(encoding="utf-8").splitlines()]
    assert rows and all("/" not in row["source_file"] for row in rows)


def test_named_researchers_drop_the_question_even_without_reference_authors():
    from chemref.questions.funnel.builder import article_questions
    from chemref.questions.funnel.settings import BuildSettings

    article = read(SAMPLE / "sample_lfp_carbon_coating.xml")
    text = ("In the recent study by Moller et al. [1], copper nanocubes of about 35 nm were followed by operando "
            "X-ray absorption spectroscopy under CO2 reduction conditions for several hours.")
    from dataclasses import replace

    from chemref.jats.model import CitationAnchor

    section, paragraph = next((s, p) for s, p in article.paragraphs() if not p.is_caption and p.citations
                              and s.kind not in ("methods", "materials", "protocol"))
    ref = next(r for r in article.references if r.doi)
    start = text.index("[1]")
    new_paragraph = replace(paragraph, text=text, citations=(CitationAnchor(start, start + 3, "[1]", (ref.id,)),))
    new_ref = replace(ref, authors=())  # a reference list without authors: the pattern alone decides
    sections = tuple(replace(s, paragraphs=tuple(new_paragraph if p is paragraph else p for p in s.paragraphs))
                     for s in article.sections)
    edited = replace(article, sections=sections,
                     references=tuple(new_ref if r is ref else r for r in article.references))
    result = article_questions(edited, BuildSettings(min_chars=1))
    reasons = {r.excerpt: r.reason for r in result.rejected}
    excerpt = text.replace("[1]", CITATION_MARK)
    assert reasons.get(excerpt) == "no_author_named"

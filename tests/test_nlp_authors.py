"""Golden tables for author-mention detection (chemref.nlp.authors), written for chemref.

CASES: ``(excerpt, cited surnames, texts of the mentions that name a cited author)`` for
:func:`cited_author_mentions` — the question builder's drop rule. PATTERN_CASES: ``(text, [(mention, pattern)])``
for :func:`find_author_mentions` without a reference list.
"""

from __future__ import annotations

import pytest
from tests.nlp_helpers import blank_with, doc_with_citations
from hypothesis import given
from hypothesis import strategies as st

from chemref.nlp.authors import (
    AuthorMention, cited_author_mentions, find_author_mentions, mask_author_mentions,
)


def _xfail(text: str, surnames: tuple[str, ...], expected: tuple[str, ...], reason: str):
    return pytest.param(text, surnames, expected, marks=pytest.mark.xfail(reason=reason, strict=False))


CASES = [
    # --- "X et al." and friends name the cited author ------------------------------------------------
    ("Smith et al. reported a 40% gain in capacity [CITATION].", ("Smith", "Jones"), ("Smith et al.",)),
    ("As Jones et al. showed, the phase is metastable [CITATION].", ("Smith", "Jones"), ("Jones et al.",)),
    ("García-Pérez et al. isolated the alkaloid from bark [CITATION].", ("García-Pérez",), ("García-Pérez et al.",)),
    ("van der Berg et al. measured the diffusion constant [CITATION].", ("van der Berg",), ("van der Berg et al.",)),
    ("O'Brien et al. found no effect of the drug on survival [CITATION].", ("O'Brien",), ("O'Brien et al.",)),
    ("Müller et al. described the first stable carbene [CITATION].", ("Müller",), ("Müller et al.",)),
    ("Muller et al. described the first stable carbene [CITATION].", ("Müller",), ("Muller et al.",)),
    ("Tanaka and co-workers prepared the first chiral MOF [CITATION].", ("Tanaka",), ("Tanaka and co-workers",)),
    ("Zhang and colleagues observed a 3-fold increase in yield [CITATION].", ("Zhang", "Wu"), ("Zhang and colleagues",)),
    ("Fischer and his coworkers reported the sandwich structure [CITATION].", ("Fischer",), ("Fischer and his coworkers",)),
    ("The group of Yaghi introduced reticular chemistry [CITATION].", ("Yaghi",), ("The group of Yaghi",)),
    ("The laboratory of Prof. Bertozzi developed copper-free click reactions [CITATION].", ("Bertozzi",),
     ("The laboratory of Prof. Bertozzi",)),
    ("The Sharpless group reported the epoxidation [CITATION].", ("Sharpless",), ("The Sharpless group",)),
    ("Grubbs's catalyst tolerates many functional groups [CITATION].", ("Grubbs",), ("Grubbs's",)),
    ("Kumar's model explains the hysteresis [CITATION].", ("Kumar",), ("Kumar's",)),
    ("Following Nakamura [CITATION], we treat the solvent as a continuum.", ("Nakamura",), ("Nakamura",)),
    ("This interpretation, first given by Pauling [CITATION], is still accepted.", ("Pauling",), ("Pauling",)),
    ("Watson & Crick proposed the double helix [CITATION].", ("Watson", "Crick"), ("Watson & Crick",)),
    # --- author-year leftovers: names outside the anchor --------------------------------------------
    ("Goodenough and Kim [CITATION] reviewed the challenges of lithium batteries.", ("Goodenough", "Kim"),
     ("Goodenough and Kim",)),
    ("As argued by Kim [CITATION], the electrolyte limits the voltage window.", ("Goodenough", "Kim"), ("Kim",)),
    ("Similar results were obtained by Park and Lee (2015) and by others [CITATION].", ("Park", "Lee"),
     ("Park and Lee",)),
    ("Dobson's [CITATION] model of amyloid formation is widely used.", ("Dobson",), ("Dobson's",)),
    ("The estimate of Hansen [CITATION] is twice ours.", ("Hansen", "Sato"), ("Hansen",)),
    ("In the study of Sato and Hansen [CITATION], mortality fell by 20%.", ("Hansen", "Sato"), ("Sato and Hansen",)),
    # --- short surnames (Li, He, Ma, Hu, Ye): only inside a pattern --------------------------------------
    ("Li et al. reported a Li-ion cathode with 200 mAh/g [CITATION].", ("Li", "Wang"), ("Li et al.",)),
    ("Li-ion cells lose capacity at high temperature [CITATION].", ("Li", "Wang"), ()),
    ("Doping with Li raised the conductivity tenfold [CITATION].", ("Li",), ()),
    ("He et al. showed that the enzyme is allosteric [CITATION].", ("He",), ("He et al.",)),
    ("He showed that the enzyme is allosteric [CITATION].", ("He",), ()),
    ("He gas was used as the carrier in all runs [CITATION].", ("He",), ()),
    ("Ma and co-workers developed the ligand [CITATION].", ("Ma",), ("Ma and co-workers",)),
    ("The Ma group reported the coupling [CITATION].", ("Ma",), ("The Ma group",)),
    ("Hu's synthesis gave 80% yield [CITATION].", ("Hu",), ("Hu's",)),
    ("Ye et al. reported a similar trend [CITATION].", ("Ye",), ("Ye et al.",)),
    ("Ye and Hu (2019) observed the same shift [CITATION].", ("Ye", "Hu"), ("Ye and Hu",)),
    ("The yield rose when Hu was replaced by Ma in the model [CITATION].", ("Hu", "Ma"), ()),
    ("Li and Na were co-doped into the lattice [CITATION].", ("Li",), ()),
    ("Li and Wang (2015) prepared LiFePO4 nanoplates [CITATION].", ("Li", "Wang"), ("Li and Wang",)),
    ("LiFePO4 was first reported as a cathode material [CITATION].", ("Li",), ()),
    ("Ma et al. found that MOFs adsorb CO2 [CITATION].", ("Ma",), ("Ma et al.",)),
    ("The Co and Ni contents were measured [CITATION].", ("Co",), ()),
    ("Co et al. reported the phase diagram [CITATION].", ("Co",), ("Co et al.",)),
    # --- eponyms that are NOT the cited authors --------------------------------------------------------
    ("Michaelis–Menten kinetics describe the reaction rate [CITATION].", ("Smith", "Jones"), ()),
    ("The Suzuki coupling of aryl chlorides is slow [CITATION].", ("Littke", "Fu"), ()),
    ("Western blot analysis showed reduced p53 [CITATION].", ("Kim",), ()),
    ("Kaplan–Meier curves showed better survival [CITATION].", ("Rossi",), ()),
    ("Protein was quantified by the Bradford assay [CITATION].", ("Lowry",), ()),
    ("Fisher's exact test showed a significant difference [CITATION].", ("Zhao",), ()),
    ("Alzheimer's disease affects 50 million people [CITATION].", ("Prince",), ()),
    ("The Diels–Alder reaction is a [4+2] cycloaddition [CITATION].", ("Houk",), ()),
    ("Hummers' method produces graphene oxide with many defects [CITATION].", ("Marcano",), ()),
    ("Beer–Lambert behaviour holds up to 1 mM [CITATION].", ("Smith",), ()),
    ("Density functional theory with the Becke functional was used [CITATION].", ("Perdew",), ()),
    ("Hückel's rule predicts aromaticity for 4n+2 electrons [CITATION].", ("Schleyer",), ()),
    ("The Stokes shift of the dye is 120 nm [CITATION].", ("Lakowicz",), ()),
    ("Raman spectra showed the D and G bands [CITATION].", ("Ferrari",), ()),
    ("Gram-negative bacteria resist the peptide [CITATION].", ("Hancock",), ()),
    ("Parkinson's disease involves loss of dopaminergic neurons [CITATION].", ("Dauer",), ()),
    ("The Haber–Bosch process consumes 1% of world energy [CITATION].", ("Smil",), ()),
    # --- eponyms that ARE the cited authors --------------------------------------------------------------
    ("Protein was quantified by the Bradford assay [CITATION].", ("Bradford",), ("Bradford",)),
    ("Michaelis–Menten kinetics describe the reaction rate [CITATION].", ("Michaelis", "Menten"),
     ("Michaelis", "Menten")),
    ("Kaplan–Meier curves showed better survival [CITATION].", ("Kaplan", "Meier"), ("Kaplan", "Meier")),
    ("Hummers' method produces graphene oxide [CITATION].", ("Hummers", "Offeman"), ("Hummers'",)),
    ("Western blotting was introduced to detect proteins on membranes [CITATION].", ("Towbin",), ()),
    ("The Suzuki coupling tolerates water [CITATION].", ("Miyaura", "Suzuki"), ("Suzuki",)),
    ("Lowry's method overestimates protein in detergent [CITATION].", ("Lowry",), ("Lowry's",)),
    ("The Scherrer equation gives the crystallite size [CITATION].", ("Scherrer",), ("Scherrer",)),
    # --- supplier names that are surnames ---------------------------------------------------------------
    ("The silica gel (Merck) gave the best separation [CITATION].", ("Smith",), ()),
    ("Roche's assay detects troponin at 5 ng/L [CITATION].", ("Jaffe",), ()),
    ("Reagents from Merck and Roche gave identical results [CITATION].", ("Hoffmann",), ()),
    ("Sigma-Aldrich supplies the ligand in 98% purity [CITATION].", ("Buchwald",), ()),
    ("Merck et al. described the cohort [CITATION].", ("Merck",), ("Merck et al.",)),
    ("Roche and co-workers reported the assay [CITATION].", ("Roche",), ("Roche and co-workers",)),
    ("The silica gel (Merck) gave the best separation [CITATION].", ("Merck",), ("Merck",)),
    ("Johnson & Johnson markets the device worldwide [CITATION].", ("Smith",), ()),
    # --- consortium / collaboration authors ---------------------------------------------------------------
    ("The ENCODE Project Consortium mapped regulatory elements [CITATION].", ("ENCODE Project Consortium",),
     ("The ENCODE Project Consortium",)),
    ("ENCODE data show that 80% of the genome is transcribed [CITATION].", ("ENCODE Project Consortium",),
     ("ENCODE",)),
    ("The GTEx Consortium reported tissue-specific eQTLs [CITATION].", ("GTEx Consortium",),
     ("The GTEx Consortium",)),
    ("The GTEx Consortium reported tissue-specific eQTLs [CITATION].", ("Ardlie",), ()),
    ("The Planck Collaboration measured the Hubble constant [CITATION].", ("Planck Collaboration",),
     ("The Planck Collaboration",)),
    ("RECOVERY Collaborative Group showed that dexamethasone lowers mortality [CITATION].",
     ("RECOVERY Collaborative Group",), ("RECOVERY Collaborative Group",)),
    ("European regulators set a limit of 2 mg/kg [CITATION].",
     ("European Parliament and the Council of the European Union",), ()),
    ("EFSA set a tolerable weekly intake of 4 ug/kg [CITATION].", ("EFSA Panel on Contaminants in the Food Chain",),
     ("EFSA",)),
    ("Aiese Cigliano et al. mapped the fibres [CITATION].", ("Aiese Cigliano",), ("Aiese Cigliano",)),
    ("The World Health Organization estimates 1.3 million deaths a year [CITATION].", ("World Health Organization",),
     ("World Health Organization",)),
    # --- >= 3 char surnames anywhere, case-sensitive, whole word -------------------------------------
    ("The Kim lab reported this [CITATION].", ("Kim",), ("The Kim lab",)),
    ("Kimchi fermentation produces lactic acid [CITATION].", ("Kim",), ()),
    ("The brown colour faded within 2 h [CITATION].", ("Brown",), ()),
    ("Brown adipose tissue burns glucose [CITATION].", ("Brown",), ("Brown",)),
    ("Young's modulus of the film is 3 GPa [CITATION].", ("Young",), ("Young's",)),
    ("Young's modulus of the film is 3 GPa [CITATION].", ("Oliver", "Pharr"), ()),
    ("Nanoindentation following Oliver and Pharr gave 3 GPa [CITATION].", ("Oliver", "Pharr"), ("Oliver and Pharr",)),
    ("The wang-type resin was used [CITATION].", ("Wang",), ()),
    ("SMITH reported the structure [CITATION].", ("Smith",), ()),
    ("Smith reported the structure [CITATION].", ("SMITH",), ("Smith",)),
    ("The Cole-Cole plot shows one relaxation [CITATION].", ("Cole",), ("Cole", "Cole")),
    ("The van der Waals radius of Xe is 216 pm [CITATION].", ("van der Waals",), ("van der Waals",)),
    ("The spectra agree with those of Deng [CITATION] within 2 nm.", ("Deng", "Yang"), ("Deng",)),
    ("No author is named here although Yang-Mills theory is [CITATION].", ("Yang",), ("Yang",)),
    ("Smithson reported the structure [CITATION].", ("Smith",), ()),
    # --- sentences with no author mention at all -----------------------------------------------------
    ("The catalyst decomposes above 300 °C [CITATION].", ("Smith", "Jones"), ()),
    ("These results are consistent with earlier work [CITATION].", ("Li", "He", "Ma"), ()),
    ("It is well established that p53 is mutated in half of cancers [CITATION].", ("Vogelstein",), ()),
    # the rule is literal: a cited surname that is also a capitalised word still counts
    ("Most groups now use the modified protocol [CITATION].", ("Most",), ("Most",)),
    ("Cu and Zn are essential trace elements [CITATION].", ("Zn",), ()),
    ("In China and Japan the incidence is higher [CITATION].", ("Chen",), ()),
    # --- hard cases kept as xfail ------------------------------------------------------------------------------
    ("Brown et al. and Brownian motion [CITATION].", ("Brown",), ("Brown et al.",)),
    _xfail("Darwinian selection explains the pattern [CITATION].", ("Darwin",), ("Darwinian",),
           "derived adjectives (Darwinian, Gaussian) are not whole-word matches of the surname"),
    _xfail("Variants from the 1000 Genomes Project were used [CITATION].", ("1000 Genomes Project Consortium",),
           ("1000 Genomes Project",), "a collaboration named only by generic words and a number has no key token"),
    _xfail("Vries et al. reported the opposite [CITATION].", ("de Vries",), ("Vries et al.",),
           "a particle surname written without its particle is not matched"),
    _xfail("Jørgensen et al. found that the ligand field is weak [CITATION].", ("Jorgensen",), ("Jørgensen et al.",),
           "text with diacritics vs an ASCII reference surname: only reference-side folding is done"),
]


@pytest.mark.parametrize(("text", "surnames", "expected"), CASES)
def test_cited_author_mentions(text: str, surnames: tuple[str, ...], expected: tuple[str, ...]) -> None:
    found = cited_author_mentions(text, surnames)
    assert tuple(m.text for m in found) == expected, found
    for m in found:
        assert text[m.start:m.end] == m.text


PATTERN_CASES = [
    ("Smith et al. reported it [1].", [("Smith et al.", "et_al")]),
    ("Smith et al reported it [1].", [("Smith et al", "et_al")]),
    ("Smith, et al. reported it [1].", [("Smith, et al.", "et_al")]),
    ("Smith and Jones (2010) reported it.", [("Smith and Jones", "and")]),
    ("Smith and Jones [4] reported it.", [("Smith and Jones", "and")]),
    ("It was shown by Smith and Jones [4].", [("Smith and Jones", "and")]),
    ("Smith & Jones reported it [4].", [("Smith & Jones", "ampersand")]),
    ("Smith and co-workers reported it [4].", [("Smith and co-workers", "coworkers")]),
    ("Smith and colleagues reported it [4].", [("Smith and colleagues", "coworkers")]),
    ("the group of Smith reported it [4].", [("the group of Smith", "group_of")]),
    ("the research group of Smith reported it [4].", [("the research group of Smith", "group_of")]),
    ("the groups of Smith and Jones reported it [4].", [("the groups of Smith and Jones", "group_of")]),
    ("Smith's group reported it [4].", [("Smith's", "possessive")]),
    ("The Human Genome Sequencing Consortium finished it [4].",
     [("The Human Genome Sequencing Consortium", "consortium")]),
    ("The ATLAS Collaboration found the boson [4].", [("The ATLAS Collaboration", "consortium")]),
    ("The 1000 Genomes Project Consortium released it [4].",
     [("The 1000 Genomes Project Consortium", "consortium")]),
    ("The 2019 Working Group met [4].", []),
    ("Michaelis–Menten kinetics apply [4].", []),
    ("Fisher's exact test was used [4].", []),
    ("Alzheimer's disease is common [4].", []),
    ("DNA and RNA were extracted [4].", []),
    ("Fe and Co (2010) were compared.", []),
    ("China and Japan reported cases [4].", []),
    ("Johnson & Johnson makes it [4].", []),
    ("R&D spending rose [4].", []),
    ("The Boc group was removed [4].", []),
    ("Earth's mantle is hot [4].", []),
    ("It's clear that it works [4].", []),
    ("Li-ion batteries dominate [4].", []),
    ("He showed it [4].", []),
    ("Cells and tissues were compared (2010).", []),
    ("This and that were done [4].", []),
    ("Rossi's results were confirmed [4].", [("Rossi's", "possessive")]),
    ("Stokes' shift is large [4].", []),
    ("Zhang et al. and Wang et al. disagree [4].", [("Zhang et al.", "et_al"), ("Wang et al.", "et_al")]),
    ("Signalling through Akt and ErbB (2015) was blocked.", []),
    ("The DCs' response was weak [4].", []),
    ("The Polycomb group silences Hox genes [4].", []),
    ("The Kovacs lab reported it [4].", [("The Kovacs lab", "group_of")]),
    ("the group of Prof. Dr. Weber reported it [4].", [("the group of Prof. Dr. Weber", "group_of")]),
    ("Researchers' attention has shifted [4].", []),
    ("Google's model was larger [4].", []),
    ("Ahmed and Rahman (2019) and Wu and Li (2020) agree.", [("Ahmed and Rahman", "and"), ("Wu and Li", "and")]),
]


@pytest.mark.parametrize(("text", "expected"), PATTERN_CASES)
def test_find_author_mentions(text: str, expected: list[tuple[str, str]]) -> None:
    found = find_author_mentions(text)
    assert [(m.text, m.pattern) for m in found] == expected, found


MASK_CASES = [
    ("Li et al. showed it [CITATION].", ("Li",), "[AUTHOR] et al. showed it [CITATION]."),
    ("Smith and Jones [CITATION] showed it.", ("Jones",), "[AUTHOR] and [AUTHOR] [CITATION] showed it."),
    ("The group of Yaghi made it [CITATION].", ("Yaghi",), "The group of [AUTHOR] made it [CITATION]."),
    ("Hu's synthesis works [CITATION].", ("Hu",), "[AUTHOR]'s synthesis works [CITATION]."),
    ("The Bradford assay [CITATION] is quick.", ("Bradford",), "The [AUTHOR] assay [CITATION] is quick."),
    ("No names here [CITATION].", ("Smith",), "No names here [CITATION]."),
]


@pytest.mark.parametrize(("text", "surnames", "expected"), MASK_CASES)
def test_mask(text: str, surnames: tuple[str, ...], expected: str) -> None:
    assert mask_author_mentions(text, cited_author_mentions(text, surnames)) == expected


def test_custom_mask_and_overlaps() -> None:
    text = "Smith et al. [1]"
    mentions = [AuthorMention(0, 12, "Smith et al.", "Smith", "et_al", ((0, 5),)),
                AuthorMention(0, 5, "Smith", "Smith", "surname", ((0, 5),))]
    assert mask_author_mentions(text, mentions, mask="***") == "*** et al. [1]"
    # a mention without name offsets is replaced whole
    assert mask_author_mentions(text, [AuthorMention(0, 12, "Smith et al.", None, "et_al")]) == "[AUTHOR] [1]"


def test_counts() -> None:
    assert len(CASES) + len(PATTERN_CASES) + len(MASK_CASES) >= 100
    assert len(CASES) >= 100


_names = st.sampled_from(["Smith", "Li", "He", "García", "van der Berg", "ENCODE Project Consortium", "Ma"])
_texts = st.lists(st.sampled_from(list("abc XYZ.,'&[]()-–") + ["Smith", " et al.", " and ", "Li", "'s", " Ma"]),
                  max_size=30).map("".join)


@pytest.mark.slow
@given(text=_texts, surnames=st.lists(_names, max_size=3))
def test_offsets_and_mask_properties(text: str, surnames: list[str]) -> None:
    found = find_author_mentions(text, surnames)
    cited = cited_author_mentions(text, surnames)
    for m in found + cited:
        assert text[m.start:m.end] == m.text
        assert m.pattern in {"et_al", "and", "ampersand", "coworkers", "group_of", "possessive", "consortium",
                             "surname"}
    # mentions never overlap, and are sorted
    for a, b in zip(found, found[1:]):
        assert a.end <= b.start
    masked = mask_author_mentions(text, cited)
    if not cited:
        assert masked == text
    # every cited >= 3 char surname disappears from the masked text as a whole word
    assert not cited_author_mentions(masked, [s for s in surnames if len(s) >= 3 and " " not in s])


# --- the spaCy component ------------------------------------------------------------------------------
@pytest.mark.slow
def test_component_flags_cited_eponym_and_patterns() -> None:
    from chemref.jats.model import Reference

    nlp = blank_with("chemref_author_mentions")
    refs = {"r12": Reference(id="r12", authors=("Bradford",)), "r3": Reference(id="r3", authors=("Li", "Chen"))}
    doc = doc_with_citations(
        nlp, "Li et al. used the Bradford assay [12] as in Western blots, and Suzuki coupling failed [3].",
        [("[12]", ("r12",)), ("[3]", ("r3",))], refs)
    doc = nlp.get_pipe("chemref_author_mentions")(doc)
    got = [(s.text, s.label_, s.kb_id_) for s in doc.spans["chemref_author_mentions"]]
    assert got == [("Li et al.", "et_al", "Li"), ("Bradford", "surname", "Bradford")]


@pytest.mark.slow
def test_component_skips_names_inside_the_citation_span() -> None:
    from chemref.jats.model import Reference

    nlp = blank_with("chemref_author_mentions")
    refs = {"b1": Reference(id="b1", authors=("Goodenough", "Kim"))}
    doc = doc_with_citations(nlp, "Cathodes degrade at high voltage (Goodenough and Kim, 2010).",
                              [("(Goodenough and Kim, 2010)", ("b1",))], refs)
    doc = nlp(doc)
    assert list(doc.spans["chemref_author_mentions"]) == []
    doc = doc_with_citations(nlp, "As Kim noted, cathodes degrade (Goodenough and Kim, 2010).",
                              [("(Goodenough and Kim, 2010)", ("b1",))], refs)
    doc = nlp(doc)
    assert [s.text for s in doc.spans["chemref_author_mentions"]] == ["Kim"]


@pytest.mark.slow
def test_component_uses_surnames_of_the_same_sentence_only() -> None:
    from chemref.jats.model import Reference

    nlp = blank_with("chemref_author_mentions", with_sentences=True)
    refs = {"a": Reference(id="a", authors=("Miller",)), "b": Reference(id="b", authors=("Young",))}
    text = "Miller showed the effect [1]. Young mice were used in a later study [2]. Miller agreed."
    doc = doc_with_citations(nlp, text, [("[1]", ("a",)), ("[2]", ("b",))], refs)
    doc = nlp(doc)
    got = [(s.text, s.start_char) for s in doc.spans["chemref_author_mentions"]]
    assert got == [("Miller", 0), ("Young", text.index("Young"))]  # the last "Miller" has no citation of a


@pytest.mark.slow
def test_component_without_references_or_citations() -> None:
    nlp = blank_with("chemref_author_mentions")
    doc = nlp("Zhang and co-workers reported the structure.")
    assert [(s.text, s.label_) for s in doc.spans["chemref_author_mentions"]] == [
        ("Zhang and co-workers", "coworkers")]


@pytest.mark.slow
def test_component_serialisation_roundtrip(tmp_path) -> None:
    spacy = pytest.importorskip("spacy")
    nlp = blank_with("chemref_author_mentions")
    nlp.to_disk(tmp_path / "model")
    assert (tmp_path / "model" / "chemref_author_mentions" / "authors_rules.json").exists()
    loaded = spacy.load(tmp_path / "model")
    doc = loaded("The group of Yaghi made it.")
    assert [s.label_ for s in doc.spans["chemref_author_mentions"]] == ["group_of"]
    again = spacy.blank("en")
    again.add_pipe("chemref_author_mentions")
    again.from_bytes(nlp.to_bytes())
    assert again.get_pipe("chemref_author_mentions").rules.tables == nlp.get_pipe("chemref_author_mentions").rules.tables


def test_one_string_of_surnames_is_an_error() -> None:
    with pytest.raises(TypeError, match="iterable of surnames"):
        cited_author_mentions("Smith et al. showed it.", "Smith")


def test_bad_rule_table_names_the_file(tmp_path) -> None:
    import json

    from chemref.errors import InputError
    from chemref.nlp.authors import TABLE_FILES, load_author_tables

    for file_name, field_name in TABLE_FILES.values():
        (tmp_path / file_name).write_text(json.dumps({field_name: []}), encoding="utf-8")
    (tmp_path / "authors_stopwords.json").write_text("{}", encoding="utf-8")
    with pytest.raises(InputError, match="authors_stopwords.json"):
        load_author_tables(tmp_path)


# --- named_author_mentions: the question builder's drop rule ------------------------------------------------
# (excerpt, cited surnames, texts of the mentions). Regressions from the hand audit of the dev-corpus questions:
# reference author lists are truncated ("et al." in the reference), misspelt or missing, so a pattern that names
# researchers drops the question even when the name is not in the list; eponyms still do not.
NAMED_CASES = [
    # group / team patterns with a name outside a truncated author list
    ("A new study by the research group led by Maria Okafor, published in this issue [CITATION], shows X.",
     ("Adeyemi",), ("the research group led by Maria Okafor",)),
    ("The landmark trial run by the Rosenberg team first showed responses in melanoma [CITATION].",
     ("Morgan", "Dudley"), ("the Rosenberg team",)),
    ("Recent work by Wei Lin and Chen Hao’s team revealed that the virus boosts vaccine efficacy [CITATION].",
     ("Dan", "Cai"), ("Chen Hao’s",)),
    ("Kaur's group reported the first stable ylide [CITATION].", ("Singh",), ("Kaur's",)),
    # "X et al." / "X and co-workers" with a missing, truncated or misspelt list
    ("In the recent study by Moller et al., [CITATION] copper cubes were followed by operando XAS.", (),
     ("Moller et al.",)),
    ("In 2007, Gannonand and co-authors showed photothermal ablation in rabbits [CITATION].", ("Gannon",),
     ("Gannonand and co-authors",)),
    ("Recently, Chan et al. stabilised Mn3+ in tetrahedral sites [CITATION].", ("Morgan Chan", "Ceder"),
     ("Chan et al.",)),
    ("Adamu and Kale proposed a sol-gel route to the conductor [CITATION].", ("Adamu", "Kale"), ("Adamu and Kale",)),
    ("Ortiz and Bauer reported a 3-fold rate increase [CITATION].", ("Lindqvist",), ("Ortiz and Bauer",)),
    # cited names are still found as before
    ("The Bradford assay [CITATION] was used to quantify protein.", ("Bradford",), ("Bradford",)),
    # eponyms and non-person patterns are not
    ("Consecutive Ramachandran’s angles are varied while ω is kept fixed [CITATION].", ("Dinner",), ()),
    ("Michaelis and Menten kinetics describe the initial rates [CITATION].", ("Johnson",), ()),
    ("Western blot and Kaplan–Meier analysis confirmed the effect [CITATION].", ("Lee",), ()),
    ("As in Goodsell's paintings, data sculptures convey information through art [CITATION].", ("Jansen",), ()),
    ("Fick's law describes the diffusion flux through the membrane [CITATION].", ("Crank",), ()),
    ("Samples were analysed by Suzuki and Heck coupling products [CITATION].", ("Li",), ()),
    ("The amino group of the drug is protonated at pH 7.5 [CITATION].", ("Homem",), ()),
    ("The Warburg effect and the Crabtree effect are linked [CITATION].", ("Vander Heiden",), ()),
]


@pytest.mark.parametrize(("text", "surnames", "expected"), NAMED_CASES)
def test_named_author_mentions(text: str, surnames: tuple[str, ...], expected: tuple[str, ...]) -> None:
    from chemref.nlp.authors import named_author_mentions

    assert tuple(m.text for m in named_author_mentions(text, surnames)) == expected


def test_named_includes_every_cited_mention() -> None:
    from chemref.nlp.authors import named_author_mentions

    for case in CASES:
        if hasattr(case, "values"):  # an xfail param
            continue
        text, surnames, _ = case
        cited = {(m.start, m.end) for m in cited_author_mentions(text, surnames)}
        named = {(m.start, m.end) for m in named_author_mentions(text, surnames)}
        assert cited <= named, text


def test_mask_named_group_leader_masks_given_name_and_surname() -> None:
    from chemref.nlp.authors import named_author_mentions

    text = "A study by the group led by Maria Okafor [CITATION] and the group of Smith and Jones agree."
    masked = mask_author_mentions(text, named_author_mentions(text, ()))
    assert masked == "A study by the group led by [AUTHOR] [AUTHOR] [CITATION] and the group of [AUTHOR] and [AUTHOR] agree."


def test_mask_possessive_team_masks_both_name_words() -> None:
    from chemref.nlp.authors import named_author_mentions

    text = "Recent work by Wei Lin and Chen Hao’s team showed that the virus boosts vaccines [CITATION]."
    masked = mask_author_mentions(text, named_author_mentions(text, ("Dan",)))
    assert masked == "Recent work by Wei Lin and [AUTHOR] [AUTHOR]’s team showed that the virus boosts vaccines [CITATION]."
    text = "In Kaur's group the ylide was isolated at -78 °C [CITATION]."
    assert mask_author_mentions(text, named_author_mentions(text, ())) == (
        "In [AUTHOR]'s group the ylide was isolated at -78 °C [CITATION].")


def _non_overlapping_plain(mentions):
    """The plain O(n^2) reading of the rule, to check the indexed one against."""
    from chemref.nlp.authors import _PRIORITY

    ordered = sorted(mentions, key=lambda m: (-(m.end - m.start), _PRIORITY.get(m.pattern, 99), m.start))
    kept = []
    for m in ordered:
        if all(m.end <= k.start or m.start >= k.end for k in kept):
            kept.append(m)
    return sorted(kept, key=lambda m: (m.start, m.end))


@pytest.mark.slow
@given(st.lists(st.tuples(st.integers(0, 60), st.integers(0, 9), st.sampled_from(["et_al", "and", "surname"])),
                max_size=25))
def test_overlap_resolution_equals_the_plain_rule(spans) -> None:
    from chemref.nlp.authors import AuthorMention, _non_overlapping

    mentions = [AuthorMention(s, s + n, "x" * n, None, p) for s, n, p in spans]
    assert _non_overlapping(list(mentions)) == _non_overlapping_plain(mentions)


@pytest.mark.slow
def test_long_text_full_of_mentions_is_handled_in_linear_time() -> None:
    """Overlaps were resolved by scanning every kept mention (O(n^2)): 18 s for 200 kB of "Smith et al.".
    No timing assert: a quadratic regression shows up as a hung test."""
    from chemref.nlp.authors import named_author_mentions

    for unit, pattern in (("Smith et al. ", "et_al"), ("Smith's group ", "possessive"),
                          ("the group of Smith ", "group_of")):
        text = unit * 15_000
        assert len(find_author_mentions(text, ("Smith",))) == 15_000
        named = named_author_mentions(text, ("Smith",))
        assert len(named) == 15_000 and named[0].pattern == pattern

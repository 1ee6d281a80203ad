"""Findability: specific excerpts score above generic ones; features are found where documented."""

from __future__ import annotations

import pytest

from chemref.questions.funnel.findability import WEIGHTS, findability, findability_features

# (more specific excerpt, less specific excerpt): the first must score strictly higher
ORDER_CASES = [
    ("LiFePO4 cathodes retained 95% of their capacity after 500 cycles when coated with 5 wt% carbon [CITATION].",
     "Lithium-ion batteries are one of the most important energy storage technologies [CITATION]."),
    ("Knockout of TP53 in HeLa cells increased IL-6 secretion threefold, as shown by qPCR [CITATION].",
     "Cancer is a major cause of death worldwide [CITATION]."),
    ("Cu2+ binds the N-terminal domain of amyloid-β with a dissociation constant of 10 nM [CITATION].",
     "Metal ions play an important role in neurodegeneration [CITATION]."),
    ("The structure of the complex was solved by X-ray crystallography at 2.1 Å resolution [CITATION].",
     "The structure of the complex has been studied by many groups [CITATION]."),
    ("2,4-Dichloropyrimidine reacted with phenylboronic acid at 80 °C to give the product in 82% yield [CITATION].",
     "Cross-coupling reactions have attracted much attention in recent years [CITATION]."),
    ("Laccase oxidises ABTS with a KM of 38 µM at pH 4.5 [CITATION].",
     "Enzymes are widely used in industry [CITATION]."),
    ("CRISPR-Cas9 deletion of BRCA1 exon 11 sensitised the cells to olaparib [CITATION].",
     "DNA repair is essential for genome stability [CITATION]."),
    ("Fe3O4 nanoparticles of 12 nm adsorbed 45 mg g−1 of Pb2+ [CITATION].",
     "Nanoparticles have great potential for water treatment [CITATION]."),
]


@pytest.mark.parametrize(("specific", "generic"), ORDER_CASES)
def test_specific_beats_generic(specific, generic):
    assert findability(specific) > findability(generic)


FEATURE_CASES = [
    # (text, feature, a match that must be found)
    ("LiFePO4 and Fe3O4", "formula", "LiFePO4"),
    ("free Cu2+ ions", "formula", "Cu2+"),
    ("in H2O at room temperature", "formula", "H2O"),
    ("0.1 M NaCl", "formula", "NaCl"),
    ("at 80 °C", "number_unit", "80 °C"),
    ("0.5 mM ABTS", "number_unit", "0.5 mM"),
    ("a 20-fold drop", "number_unit", "20-fold"),
    ("TP53 and BRCA1", "gene_protein", "TP53"),
    ("IL-6 secretion", "gene_protein", "IL-6"),
    ("p53 levels", "gene_protein", "p53"),
    ("by cryo-EM", "method", "cryo-em"),
    ("measured by NMR", "method", "nmr"),
    ("a laccase and a kinase", "chemical_name", "laccase"),
    ("2,4-dichloropyrimidine", "chemical_name", "2,4-dichloropyrimidine"),
    ("Smith et al. showed it", "claim_verb", "showed"),
    ("is a major cause of death worldwide", "generic", "worldwide"),
    ("plays an important role in", "generic", "plays an important role"),
    # regressions from the hand audit of the dev-corpus questions (specific names that scored 0)
    ("CircHIPK2 acts by sponging miR-124-2HG", "gene_protein", "CircHIPK2"),
    ("CircHIPK2 acts by sponging miR-124-2HG", "gene_protein", "miR-124-2HG"),
    ("regulated by miR-200a/141 in renal cell carcinoma", "gene_protein", "miR-200a/141"),
    ("interacting with nuclear cGAS", "gene_protein", "cGAS"),
    ("E-cadherin loss in tumour cells", "gene_protein", "E-cadherin"),
    ("toxic to S. zeamais and T. castaneum", "named_entity", "S. zeamais"),
    ("recurrence within 2 years of operation", "number_unit", "2 years"),
]


@pytest.mark.parametrize(("text", "feature", "match"), FEATURE_CASES)
def test_feature_found(text, feature, match):
    assert match in findability_features(text)[feature]


NOT_FEATURE_CASES = [
    ("levels of mRNA, siRNA, lncRNA and circRNA", "gene_protein"),
    ("the C18 column and figure S1", "formula"),
    ("an increase and a decrease in disease", "chemical_name"),
    ("[CITATION]", "named_entity"),
]


@pytest.mark.parametrize(("text", "feature"), NOT_FEATURE_CASES)
def test_feature_not_found(text, feature):
    assert not findability_features(text)[feature]


def test_range_and_generic_is_zero():
    assert findability("Cancer is a major cause of death worldwide [CITATION].") == 0.0
    dense = ("LiFePO4 with 3 nm N-doped carbon (2.1 at.% N by XPS) gave 121 mAh g−1 at 10 C and 96% after 500 "
             "cycles, and TP53 and IL-6 NMR cryo-EM Cu2+ Fe3O4 showed it [CITATION].")
    assert 0.6 < findability(dense) < 1.0
    assert set(WEIGHTS) == set(findability_features("x"))

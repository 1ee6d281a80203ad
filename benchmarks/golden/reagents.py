"""Golden tables for the chemical mentions of synthesis text (``chemref.load(chemicals=True)``), one table per
class of reagent, written for chemref: ``(text, expected mention texts in order)``. Hard cases are
:func:`benchmarks.golden.hard` (strict xfails in tests/test_nlp_chemicals_reagents.py).

Where corpora disagree, BC5CDR's guidelines rule: a protecting group glued into a longer name is part of
that name, not a mention of its own; an abbreviation that also names a disease or a method ("DCM",
dilated cardiomyopathy; "LDA", linear discriminant analysis) is a chemical only in a synthesis context.
"""

from __future__ import annotations

from benchmarks.golden import hard

__all__ = ["ALL_TABLES"]

#: Solvent mixtures: each part is a mention.
MIXTURE_CASES = [
    ("The crude product was purified by chromatography (hexane/EtOAc 4:1).", ["hexane", "EtOAc"]),
    ("Elution with CH2Cl2/MeOH 10:1 gave the product.", ["CH2Cl2", "MeOH"]),
    ("The ester was hydrolysed with LiOH in H2O/THF.", ["LiOH", "H2O", "THF"]),
    ("The residue was taken up in DCM/MeOH and filtered.", ["DCM", "MeOH"]),
    ("The coupling was run in toluene/water at 90 °C.", ["toluene", "water"]),
    ("Recrystallisation from ethanol/water gave needles.", ["ethanol", "water"]),
    ("Chromatography with ethyl acetate/petroleum ether (1:5) gave 3.", ["ethyl acetate", "petroleum ether"]),
]

#: Solvent and reagent abbreviations.
ABBREVIATION_CASES = [
    ("The residue was dissolved in MeOH and stirred overnight.", ["MeOH"]),
    ("The oxidation used DMP in DCM at 0 °C.", ["DMP", "DCM"]),
    ("n-BuLi (2.5 M in hexanes) was added dropwise at -78 °C.", ["n-BuLi", "hexanes"]),
    ("Reduction with DIBAL-H in toluene was complete in 1 h.", ["DIBAL-H", "toluene"]),
    ("Epoxidation with mCPBA was complete after 2 h.", ["mCPBA"]),
    ("The acid was activated with HATU and DIPEA in DMF.", ["HATU", "DIPEA", "DMF"]),
    ("Bromination with NBS in MeCN was complete in 1 h.", ["NBS", "MeCN"]),
    ("LDA was prepared from diisopropylamine and n-BuLi in THF.", ["LDA", "diisopropylamine", "n-BuLi", "THF"]),
    ("DMAP (0.1 equiv) and TEA (2 equiv) were added.", ["DMAP", "TEA"]),
    ("The spectra were recorded in DMSO-d6.", ["DMSO-d6"]),
]

#: Catalysts and ligands: the Buchwald biaryl phosphines by their shape, bidentate phosphines, Pd sources.
LIGAND_CASES = [
    ("SPhos and XPhos gave the highest yields.", ["SPhos", "XPhos"]),
    ("RuPhos, DavePhos and BrettPhos were screened.", ["RuPhos", "DavePhos", "BrettPhos"]),
    ("With tBuXPhos the aryl chloride reacted at room temperature.", ["tBuXPhos"]),
    ("Pd2(dba)3 (2 mol%) and XPhos (4 mol%) were used.", ["Pd2(dba)3", "XPhos"]),
    ("The reaction used Pd(dppf)Cl2 and K2CO3 in dioxane.", ["Pd(dppf)Cl2", "K2CO3", "dioxane"]),
    ("(R)-BINAP gave 92% ee, dppf and Xantphos gave racemates.", ["(R)-BINAP", "dppf", "Xantphos"]),
    ("Pd(PPh3)4 was replaced by Pd(OAc)2 with dppe.", ["Pd(PPh3)4", "Pd(OAc)2", "dppe"]),
]

#: Protecting groups and their reagents; never split out of a longer name.
PROTECTING_GROUP_CASES = [
    ("The Boc group was removed with TFA in DCM.", ["Boc", "TFA", "DCM"]),
    ("Protection with TBSCl and imidazole in DMF gave 4.", ["TBSCl", "imidazole", "DMF"]),
    ("Compound 3 was treated with Boc2O and Et3N.", ["Boc2O", "Et3N"]),
    ("Cleavage of the Fmoc group used piperidine in DMF.", ["Fmoc", "piperidine", "DMF"]),
    ("N-Boc-piperidine was lithiated with s-BuLi.", ["N-Boc-piperidine", "s-BuLi"]),
    ("Compound 7 was converted with Tf2O and pyridine.", ["Tf2O", "pyridine"]),
]

#: Coupling reagents.
COUPLING_CASES = [
    ("EDC and HOBt were used for the amide coupling.", ["EDC", "HOBt"]),
    ("PyBOP, HBTU and T3P gave similar yields.", ["PyBOP", "HBTU", "T3P"]),
    ("The ester was formed with DCC and DMAP in CH2Cl2.", ["DCC", "DMAP", "CH2Cl2"]),
]

#: Assay reagents.
ASSAY_CASES = [
    ("Laccase activity was measured with ABTS at 420 nm.", ["ABTS"]),
    ("The radical scavenging activity was measured with DPPH and ABTS.", ["DPPH", "ABTS"]),
    ("Nuclei were stained with DAPI.", ["DAPI"]),
]

#: Abbreviations that name something else outside synthesis text: no mention (BC5CDR's reading).
NOT_CHEMICAL_CASES = [
    ("Patients with DCM had a reduced ejection fraction.", []),
    ("LDA separated the two groups of patients.", []),
    ("The MS spectra were recorded in positive mode.", []),
    ("Values are given as mean ± SEM.", []),
    ("The TBS score and the DIC rate were recorded in all patients.", []),
    hard("TEA was associated with a higher risk of stroke.", [],
         reason="'TEA' (thromboendarterectomy) is tagged: 'risk'-like words are not read as a medical context"),
]

ALL_TABLES = {
    "mixtures": MIXTURE_CASES,
    "abbreviations": ABBREVIATION_CASES,
    "ligands": LIGAND_CASES,
    "protecting_groups": PROTECTING_GROUP_CASES,
    "coupling": COUPLING_CASES,
    "assay": ASSAY_CASES,
    "not_chemical": NOT_CHEMICAL_CASES,
}

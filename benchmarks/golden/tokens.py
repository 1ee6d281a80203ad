"""Golden tables for chemref's chemistry-aware tokenizer, one table per class of boundary, written for chemref.

Every case is ``(text, expected tokens)``; :func:`benchmarks.golden.hard` marks a hard case (a strict xfail in
tests/test_nlp_tokenizer_golden.py). The experimental-section sentences are in the style of patent and
journal procedures, written here (no sentence is copied from a corpus).
"""

from __future__ import annotations

from benchmarks.golden import hard

__all__ = ["ALL_TABLES"]

#: Solvent and reagent mixtures split at "/" when both sides are chemical words.
MIXTURE_CASES = [
    ("hexane/EtOAc", ["hexane", "/", "EtOAc"]),
    ("CH2Cl2/MeOH 10:1", ["CH2Cl2", "/", "MeOH", "10:1"]),
    ("H2O/THF", ["H2O", "/", "THF"]),
    ("DCM/MeOH", ["DCM", "/", "MeOH"]),
    ("toluene/water", ["toluene", "/", "water"]),
    ("eluted with EtOAc/hexanes (1:4).", ["eluted", "with", "EtOAc", "/", "hexanes", "(", "1:4", ")", "."]),
    ("(hexane/EtOAc, 3:1)", ["(", "hexane", "/", "EtOAc", ",", "3:1", ")"]),
    ("Rf 0.3 (Hexane/EtOAc).", ["Rf", "0.3", "(", "Hexane", "/", "EtOAc", ")", "."]),
    ("MeOH/CH2Cl2/NH4OH (10:89:1)", ["MeOH", "/", "CH2Cl2", "/", "NH4OH", "(", "10:89:1", ")"]),
    ("in dioxane/H2O", ["in", "dioxane", "/", "H2O"]),
    ("Et2O/pentane", ["Et2O", "/", "pentane"]),
    ("MeCN/H2O with 0.1% TFA", ["MeCN", "/", "H2O", "with", "0.1", "%", "TFA"]),
    ("ethanol/water", ["ethanol", "/", "water"]),
    ("cyclohexane/ethyl acetate", ["cyclohexane", "/", "ethyl", "acetate"]),
    ("ethyl acetate/petroleum ether (1:5)", ["ethyl", "acetate", "/", "petroleum", "ether", "(", "1:5", ")"]),
    ("CDCl3/DMSO-d6", ["CDCl3", "/", "DMSO-d6"]),
    ("N2/H2", ["N2", "/", "H2"]),
    ("THF/DMF;", ["THF", "/", "DMF", ";"]),
    hard("PE/EA (5:1)", ["PE", "/", "EA", "(", "5:1", ")"],
         reason="two-letter abbreviations (petroleum ether, ethyl acetate) are too ambiguous to split on their own"),
    ("Pd(OAc)2/XPhos", ["Pd(OAc)2", "/", "XPhos"]),
    ("Pd(PPh3)4/CuI (5 mol%)", ["Pd(PPh3)4", "/", "CuI", "(", "5", "mol%", ")"]),
    ("MeOH/HCl", ["MeOH", "/", "HCl"]),
]

#: What must stay whole: ratios, units, English and/or, N/A, DOIs, supported catalysts, charges, brackets.
KEEP_WHOLE_CASES = [
    ("10% w/v", ["10", "%", "w/v"]),
    ("(v/v)", ["(", "v/v", ")"]),
    ("5% w/w", ["5", "%", "w/w"]),
    ("N/A", ["N/A"]),
    ("and/or", ["and/or"]),
    ("km/h", ["km/h"]),
    ("10 mg/mL", ["10", "mg/mL"]),
    ("1/2", ["1/2"]),
    ("m/z 345", ["m/z", "345"]),
    ("Pd/C", ["Pd/C"]),
    ("10% Pd/C (50 mg)", ["10", "%", "Pd/C", "(", "50", "mg", ")"]),
    ("Na+/K+-ATPase", ["Na+/K+-ATPase"]),
    ("input/output", ["input/output"]),
    ("his/her", ["his/her"]),
    ("https://doi.org/10.1021/acs.joc.5b00001", ["https://doi.org/10.1021/acs.joc.5b00001"]),
    ("10.1021/ja00001", ["10.1021/ja00001"]),
    ("(1S,3R/1R,3S)-2-methylcyclohexanol", ["(1S,3R/1R,3S)-2-methylcyclohexanol"]),
    ("Cu/Zn-SOD", ["Cu/Zn-SOD"]),
]

#: Quantities, units and formulas in procedure text (patents and experimental sections).
QUANTITY_CASES = [
    ("(3.5 g, 10 mmol)", ["(", "3.5", "g", ",", "10", "mmol", ")"]),
    ("(1.2 g, 5.0 mmol, 1.0 eq.)", ["(", "1.2", "g", ",", "5.0", "mmol", ",", "1.0", "eq.", ")"]),
    ("in 50mL of THF", ["in", "50", "mL", "of", "THF"]),
    ("0.5M HCl", ["0.5", "M", "HCl"]),
    ("2 M NaOH (aq.)", ["2", "M", "NaOH", "(", "aq.", ")"]),
    ("in CDCl3)", ["in", "CDCl3", ")"]),
    ("(400 MHz, CDCl3):", ["(", "400", "MHz", ",", "CDCl3", ")", ":"]),
    ("at 60°C.", ["at", "60", "°C", "."]),
    ("at -78°C", ["at", "-78", "°C"]),
    ("stirred at rt. The", ["stirred", "at", "rt", ".", "The"]),
    ("stirred for 30 min. The", ["stirred", "for", "30", "min", ".", "The"]),
    ("(5 mol%)", ["(", "5", "mol%", ")"]),
    ("K2CO3 (2.0 equiv)", ["K2CO3", "(", "2.0", "equiv", ")"]),
    ("NaH (60% in oil)", ["NaH", "(", "60", "%", "in", "oil", ")"]),
    ("n-BuLi (2.5 M in hexanes)", ["n-BuLi", "(", "2.5", "M", "in", "hexanes", ")"]),
    ("Pd2(dba)3 (46 mg)", ["Pd2(dba)3", "(", "46", "mg", ")"]),
    ("Pd(dppf)Cl2·CH2Cl2", ["Pd(dppf)Cl2·CH2Cl2"]),
    ("ESI-MS m/z: 345.1 [M+H]+.", ["ESI-MS", "m/z", ":", "345.1", "[M+H]+", "."]),
    ("as shown in FIG. 3.", ["as", "shown", "in", "FIG.", "3", "."]),
    ("at 0° C. The", ["at", "0", "°", "C", ".", "The"]),
    ("at 300 K.", ["at", "300", "K", "."]),
    ("J. C. Smith", ["J.", "C", ".", "Smith"]),  # the price of the rule above: an initial C splits
]

#: Systematic names of patent text, with brackets nested up to four deep, stay one token.
NAME_CASES = [
    ("1-(4-chlorophenyl)-4-[3-(2,2-difluorobenzo[d][1,3]dioxol-5-yl)-1,2,4-oxadiazol-5-yl]pyrrolidin-2-one",
     ["1-(4-chlorophenyl)-4-[3-(2,2-difluorobenzo[d][1,3]dioxol-5-yl)-1,2,4-oxadiazol-5-yl]pyrrolidin-2-one"]),
    ("(2-(8-(benzyloxy)-2-oxo-1,2-dihydroquinolin-5-yl)ethyl)((1-benzylpiperidin-4-yl)methyl)carbamate,",
     ["(2-(8-(benzyloxy)-2-oxo-1,2-dihydroquinolin-5-yl)ethyl)((1-benzylpiperidin-4-yl)methyl)carbamate", ","]),
    ("4,4'-((biphenyl-3,3'-diyl)bis(methylene))bis(oxy)bis(3-methylbenzaldehyde)",
     ["4,4'-((biphenyl-3,3'-diyl)bis(methylene))bis(oxy)bis(3-methylbenzaldehyde)"]),
    ("7-methyl-[1,2,4]triazolo[1,5-a]pyridine", ["7-methyl-[1,2,4]triazolo[1,5-a]pyridine"]),
    ("of 2-[4-(2-oxo-benzo[d][1,3]diazepin-3-yl)piperidin-1-yl]ethanol (5 g)",
     ["of", "2-[4-(2-oxo-benzo[d][1,3]diazepin-3-yl)piperidin-1-yl]ethanol", "(", "5", "g", ")"]),
    ("as reported[3,4].", ["as", "reported", "[", "3,4", "]", "."]),
    hard("(4-(4-((1-(trans-4-ethoxycyclohexyl)-1H-pyrazol-4-yl)carbamoyl)oxazol-2-yl)-1H-pyrazol-1-yl)methyl",
         ["(4-(4-((1-(trans-4-ethoxycyclohexyl)-1H-pyrazol-4-yl)carbamoyl)oxazol-2-yl)-1H-pyrazol-1-yl)methyl"],
         reason="brackets nested five deep: the patterns stop at four to stay small and linear"),
]

ALL_TABLES = {
    "mixtures": MIXTURE_CASES,
    "keep_whole": KEEP_WHOLE_CASES,
    "quantities": QUANTITY_CASES,
    "names": NAME_CASES,
}

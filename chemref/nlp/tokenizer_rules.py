"""The chemistry-aware tokenizer's rules: prefix, suffix, infix and whole-token patterns, units, abbreviations.

Pure Python and ``re`` (no spaCy): :mod:`chemref.nlp.components.tokenizer` builds spaCy's own tokenizer
from them. The patterns are plain ``re`` expressions built once at import; spaCy caches the result per
distinct whitespace-separated chunk, so their cost is paid once per word form.

Design (spaCy's English rules and scispaCy's bracket lookaheads studied; written here; scispaCy itself
does not earn a dependency: it pulls in nmslib/scikit-learn for rules that fit in this file):

* hyphens, slashes and "=" between letters never split, nor commas after digits or capitals
  ("1,3,5-triazine", "N,N-dimethyl", "mg/mL", "C=O");
* an opening bracket is not split off when its group is glued to what follows ("(S)-BINAP",
  "[Ru(bpy)3]2+", "[1,3]dioxole"); ``token_match`` keeps bracket-balanced chemical words whole
  ("Pd(PPh3)4", "Pd(OAc)2") unless the whole word is one group ("(12)") or a citation group ends it;
* units split from a preceding number ("50°C", "5mol%", "10mg/mL");
* a period followed by a digit or "[" after a lower-case word splits ("diffusion.7", "diffusion.[12]"),
  as does "word.Word", so a sentence never starts inside a token in ordinary text.
"""

from __future__ import annotations

import re

from chemref.nlp.wordlists import ELEMENT_SYMBOLS

__all__ = ["PREFIX_RE", "SUFFIX_RE", "INFIX_RE", "TOKEN_MATCH_RE", "MAX_AFFIXES", "UNITS", "UNIT_LETTERS",
           "ELEMENT_ABBREVIATIONS", "SCIENTIFIC_ABBREVIATIONS"]

#: Units split from a number written directly before them ("50°C" -> "50", "°C"). Single letters other
#: than M and K are left out on purpose: "2h", "3a", "Et3N", "H2S", "Fig. 2A" are labels and formulas.
UNITS = (
    "°C", "°F", "℃", "K", "mK", "%", "‰", "mol%", "wt%", "vol%", "at%", "equiv", "eq",
    "M", "mM", "µM", "μM", "nM", "pM", "fM", "mol", "mmol", "µmol", "μmol", "nmol", "pmol",
    "mL", "µL", "μL", "nL", "dL", "kg", "mg", "µg", "μg", "ng", "pg", "Da", "kDa", "MDa",
    "hr", "hrs", "min", "ms", "µs", "μs", "ns", "ps", "fs", "wk",
    "km", "cm", "mm", "µm", "μm", "nm", "pm", "Å",
    "Hz", "kHz", "MHz", "GHz", "ppm", "ppb", "bar", "mbar", "atm", "Pa", "kPa", "MPa", "GPa", "Torr", "psi",
    "kJ", "cal", "kcal", "eV", "meV", "keV", "MeV", "mW", "kW", "mV", "kV", "mA", "µA", "μA",
    "rpm", "bp", "kb", "kbp", "Mb", "×", "Gy", "mCi", "Bq", "mS", "µS", "μS",
    "cm-1", "cm−1", "cm⁻¹",
)

_UNIT_ALT = "|".join(re.escape(u) for u in sorted(set(UNITS), key=len, reverse=True))
_UNIT_SUFFIX = rf"(?<=[0-9])(?:{_UNIT_ALT})(?:/(?:{_UNIT_ALT}))*$"

_OPEN_QUOTES = "\"'“‘«‹„‚`"
_CLOSE_QUOTES = "\"'”’»›"

# A bracket group of depth <= 2 without whitespace inside.
_INNER = r"[^\s()\[\]{}]"
_G1 = rf"(?:\({_INNER}*\)|\[{_INNER}*\]|\{{{_INNER}*\}})"
_G2 = rf"(?:\((?:{_INNER}|{_G1})*\)|\[(?:{_INNER}|{_G1})*\]|\{{(?:{_INNER}|{_G1})*\}})"
# what may follow a group that is glued to a chemical word: a letter, digit, hyphen, prime or charge sign
_GLUE = r"[0-9A-Za-zα-ωΑ-Ω\-‐−–+′'″·•]"

#: Opening brackets split off unless their (depth <= 2) group is glued to what follows it.
PREFIX_RE = re.compile(
    r"^(?:"
    rf"[\(\[{{](?!(?:{_INNER}|{_G1})*[\)\]}}]{_GLUE})"  # "(", "[" and "{" unless "(S)-", "[Ru(bpy)3]2+"
    rf"|[{_OPEN_QUOTES}]"
    r"|[¿¡§#$£€¥~≈∼<>≤≥±*†‡]"
    r"|\.\.+|…"
    r")"
)

#: Closing punctuation, quotes, clitics and units after a number.
SUFFIX_RE = re.compile(
    r"(?:"
    r"\.\.+$|…$"
    r"|[.,;:!?]$"
    r"|[\)\]}]$"
    rf"|[{_CLOSE_QUOTES}]$"
    r"|(?:'s|'S|’s|’S)$"
    r"|[—*†‡]$"
    rf"|{_UNIT_SUFFIX}"
    r")"
)

#: Splits inside a chunk: sentence-like periods, ellipses, em dashes, comparisons before numbers.
INFIX_RE = re.compile(
    r"\.\.+|…"  # ellipsis
    r"|—"  # em dash
    r"|(?<=[a-z)\]])\.(?=[A-Z])"  # "word.Next", "(data).To", "derivatives.T,"
    r"|(?<=[A-Za-z][A-Z])\.(?=[A-Z][a-z])"  # "XbaI.Hybridization" (not "J.Am", "U.S.A")
    r"|(?<=[a-z\)\]])\.(?=[0-9\[])"  # "diffusion.7", "diffusion.[12]"
    r"|\[(?=[0-9][0-9,\-–−]*(?:\]|$))"  # "diffusion[12]" (the "]" may be gone as a suffix)
    r"|(?<=[a-z]),(?=[A-Za-z])"  # "word,word" (but not "N,N-dimethyl")
    r"|(?<=[A-Za-z])(?:=|<|>|≤|≥|≈)(?=[0-9])"  # "n=3", "p<0.05" (but not "C=O")
)

# A numeric square group ("[12]", "[3-5]") is a citation unless a letter follows ("[1,3]dioxole").
_CITE_GROUP = r"\[[0-9][0-9,\-–−]*\](?![A-Za-z])"
_CHEM_BODY = (rf"(?:(?!{_CITE_GROUP})(?:{_G2})|,(?=[0-9A-Za-z])|(?<=[0-9])\.(?=[0-9])"
              rf"|[^\s()\[\]{{}}.,;:!?\"“”‘’«»])+")

# Affix characters: a chunk holding many of them would be stripped one by one, each strip rescanning the
# chunk (quadratic in spaCy's tokenizer, default rules included), so such a chunk is kept as one token.
_AFFIX = r"()\[\]{}.,;:!?\"'“”‘’«»‹›—…*†‡"
MAX_AFFIXES = 32

#: Whole bracket-balanced chemical words (not one group alone, not ending in punctuation or a citation),
#: and, to bound the worst case, any chunk with MAX_AFFIXES or more affix characters ("))))...").
TOKEN_MATCH_RE = re.compile(
    rf"(?:(?=(?:[^{_AFFIX}]*[{_AFFIX}]){{{MAX_AFFIXES}}})\S*"
    rf"|(?!{_G2}$)"  # "(12)", "[Ru(bpy)3]" alone are split as brackets
    rf"(?=[^\s]*[\(\[{{])"  # only words with a bracket need this
    rf"(?:{_CHEM_BODY}))$"
)

#: spaCy's English single-letter special cases that are units ("12 h." ends in a unit, not an initial).
UNIT_LETTERS = ("h.", "s.", "g.", "m.", "d.", "l.", "x.", "y.")

#: spaCy's English abbreviations that clash with element symbols ("Co." for Colorado, "Mo." ...): their period
#: is left to end a sentence after the element ("Ind." for Indiana reads as indium, "In.", too).
ELEMENT_ABBREVIATIONS = {symbol + "." for symbol in ELEMENT_SYMBOLS} | {"Ind."}

#: Scientific and chemical abbreviations kept as one token with their period.
SCIENTIFIC_ABBREVIATIONS = (
    "Fig.", "Figs.", "fig.", "figs.", "Eq.", "Eqs.", "eq.", "eqs.", "Ref.", "Refs.", "ref.", "refs.",
    "Tab.", "Sect.", "Sec.", "Suppl.", "Supp.", "approx.", "ca.", "cf.", "viz.", "al.", "etc.", "resp.",
    "r.t.", "m.p.", "b.p.", "equiv.", "Anal.", "Calcd.", "calcd.", "Found.", "No.", "Nos.", "no.",
    "sp.", "spp.", "subsp.", "var.", "nov.", "conc.", "aq.", "sat.", "min.", "max.", "Vol.", "vol.",
    "Chem.", "Soc.", "Lett.", "Phys.", "Biol.", "Proc.", "Natl.", "Acad.", "Sci.", "Rev.", "Int.", "Ed.",
    "Am.", "Org.", "Inorg.", "Commun.", "Angew.", "Nat.", "Med.", "Res.", "Eur.", "Mater.", "Catal.", "Synth.",
)

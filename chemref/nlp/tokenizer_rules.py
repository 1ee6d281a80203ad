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
  as does "word.Word", so a sentence never starts inside a token in ordinary text;
* a solvent or reagent mixture splits at "/" when both sides are chemical words ("hexane/EtOAc",
  "CH2Cl2/MeOH", "MeOH/CH2Cl2/NH4OH", "Pd(OAc)2/XPhos"): a known solvent or reagent
  (:mod:`chemref.nlp.wordlists`), a formula ("H2O", "Et3N", "CuI") or a lower-case word built of systematic
  fragments ("ethanol"); both sides have two characters or more, so "w/v", "v/v", "N/A", "and/or", "km/h",
  "mg/mL", "1/2", "Pd/C" and DOIs stay whole, as do names with "/" inside brackets.
"""

from __future__ import annotations

import re

from chemref.nlp.wordlists import COMMON_CHEMICAL_NAMES, ELEMENT_SYMBOLS, REAGENT_ABBREVIATIONS, REAGENT_NAME_PATTERNS

__all__ = ["PREFIX_RE", "SUFFIX_RE", "INFIX_RE", "TOKEN_MATCH_RE", "MAX_AFFIXES", "UNITS", "UNIT_LETTERS",
           "ELEMENT_ABBREVIATIONS", "SCIENTIFIC_ABBREVIATIONS", "MIXTURE_PART"]

#: Units split from a number written directly before them ("50°C" -> "50", "°C"). Single letters other
#: than M and K are left out on purpose: "2h", "3a", "Et3N", "H2S", "Fig. 2A" are labels and formulas.
UNITS = (
    "°C", "°F", "℃", "°", "K", "mK", "%", "‰", "mol%", "wt%", "vol%", "at%", "equiv", "eq",
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

# Bracket groups without whitespace inside, nested up to a depth: _G1 holds no bracket, _GROUP up to
# _DEPTH levels (patent names nest four deep: "(2-(8-(benzyloxy)-2-oxo...)ethyl)((...)methyl)carbamate").
_INNER = r"[^\s()\[\]{}]"
_DEPTH = 4


def _nested(depth: int) -> str:
    """A bracket group of ``depth`` levels at most."""
    body = _INNER
    group = ""
    for _ in range(depth):
        group = rf"(?:\((?:{body})*\)|\[(?:{body})*\]|\{{(?:{body})*\}})"
        body = rf"{_INNER}|{group}"
    return group


_G1 = _nested(1)
_G2 = _nested(2)
_GROUP = _nested(_DEPTH)
_GROUP_BODY = rf"(?:{_INNER}|{_nested(_DEPTH - 1)})"
# what may follow a group that is glued to a chemical word: a letter, digit, hyphen, prime or charge sign
_GLUE = r"[0-9A-Za-zα-ωΑ-Ω\-‐−–+′'″·•(\[]"

# -- mixtures: "hexane/EtOAc", "CH2Cl2/MeOH", "H2O/THF" split at the slash ----------------------------------
_MIX_WORDS = sorted({w for words in REAGENT_ABBREVIATIONS.values() for w in words
                     if not any(c in w for c in "/ ·")}, key=len, reverse=True)
# one-word names, and the first and last words of longer ones ("ethyl acetate/petroleum ether")
_MIX_NAMES = sorted({w for n in COMMON_CHEMICAL_NAMES if "/" not in n
                     for w in ([n] if " " not in n else [n.split(" ")[0], n.split(" ")[-1]]) if len(w) >= 4},
                    key=len, reverse=True)
# a formula with a digit ("H2O", "CH2Cl2", "Pd(OAc)2"), or of two to six symbols with a lower-case letter ("CuI")
_MIX_FORMULA = (r"(?:(?=[A-Za-z()]{0,30}\d)(?:[A-Z][a-z]?\d{0,3}|\((?:[A-Z][a-z]?\d{0,3}){1,6}\)\d{0,3}){1,10}"
                r"(?:-d\d{1,2})?|(?=[A-Z]{0,6}[a-z])(?:[A-Z][a-z]?){2,6})")
_MIX_FRAGMENTS = ("meth", "eth", "prop", "but", "pent", "hex", "hept", "oct", "benz", "phen", "tolu", "xyl", "chlor",
                  "brom", "fluor", "iod", "hydr", "oxy", "amin", "amid", "pyr", "sulf", "sulph", "phosph", "nitr",
                  "acet", "form", "carb", "cyclo", "diox", "furan", "glyc")
_MIX_ENDINGS = ("ane", "anes", "ene", "enes", "ol", "ols", "ine", "ide", "ate", "one", "ether", "yl")
# a fragment somewhere (a lazy look ahead), then the whole word, whose ending is checked looking back: a
# fixed number of steps per word, however the word is built ("methethmethprop...")
_MIX_WORD = (r"(?=[A-Za-z]?[a-z0-9,'\-]{0,30}?(?:" + "|".join(_MIX_FRAGMENTS) + r"))[A-Za-z]?[a-z0-9,'\-]{1,40}(?:"
             + "|".join(f"(?<={ending})" for ending in _MIX_ENDINGS) + ")")


def _alternation(words: list[str]) -> str:
    """A regular expression matching any of ``words``, longest first, written as a trie (a compact pattern
    compiles faster than a flat alternation)."""
    trie: dict = {}
    for word in words:
        node = trie
        for ch in word:
            node = node.setdefault(ch, {})
        node[""] = {}

    def emit(node: dict) -> str:
        branches = [re.escape(ch) + emit(child) for ch, child in sorted(node.items()) if ch]
        optional = "" in node
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        if optional:  # the longer match first, then the word that ends here
            return f"(?:{body})?" if len(branches) == 1 else body + "?"
        return body

    return emit(trie)


#: One side of a mixture: a known solvent or reagent, a formula with a digit, a systematic lower-case word.
MIXTURE_PART = ("(?:" + _alternation(_MIX_WORDS)
                + "|(?i:" + _alternation(_MIX_NAMES) + ")"
                + rf"|{_MIX_FORMULA}|{_MIX_WORD}|{REAGENT_NAME_PATTERNS['biaryl_phosphines']})")
_MIX_END = r"(?:/|$|[,;:.)\]}}(])"
# the left side as a prefix when a chemical side follows the slash, then the slash itself
_MIXTURE_LEFT = rf"(?:(?=[^/\s]{{2,60}}/){MIXTURE_PART}(?=/)|/)(?=/?{MIXTURE_PART}{_MIX_END})"  # cheap guard first

#: Opening brackets split off unless their group (up to _DEPTH levels) is glued to what follows it; the
#: left side of a solvent mixture, then its slash.
PREFIX_RE = re.compile(
    r"^(?:"
    rf"[\(\[{{](?!{_GROUP_BODY}*[\)\]}}]{_GLUE})"  # "(", "[" and "{" unless "(S)-", "[Ru(bpy)3]2+"
    rf"|{_MIXTURE_LEFT}"  # "hexane" of "hexane/EtOAc", then "/" of "/EtOAc"
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
    r"|\[(?=[0-9][0-9,\-–−]*(?:\](?![A-Za-z])|$))"  # "diffusion[12]" (not "benzo[d][1,3]dioxol-5-yl")
    r"|(?<=[a-z]),(?=[A-Za-z])"  # "word,word" (but not "N,N-dimethyl")
    r"|(?<=[A-Za-z])(?:=|<|>|≤|≥|≈)(?=[0-9])"  # "n=3", "p<0.05" (but not "C=O")
)

# A numeric square group ("[12]", "[3-5]") is a citation unless a letter follows ("[1,3]dioxole").
_CITE_GROUP = r"\[[0-9][0-9,\-–−]*\](?![A-Za-z])"
# a "/" outside brackets is left to the mixture rule ("Pd(OAc)2/XPhos"); inside them it stays ("(1S,3R/1R,3S)-")
_CHEM_BODY = (rf"(?:(?!{_CITE_GROUP})(?:{_GROUP})|,(?=[0-9A-Za-z])|(?<=[0-9])\.(?=[0-9])"
              rf"|/(?!{MIXTURE_PART}{_MIX_END})|[^\s()\[\]{{}}.,;:!?\"“”‘’«»/])+")

# Affix characters (and the mixture slash): a chunk holding many of them would be stripped one by one, each
# strip rescanning the chunk (quadratic in spaCy's tokenizer, default rules included), so such a chunk is
# kept as one token.
_AFFIX = r"()\[\]{}.,;:!?\"'“”‘’«»‹›—…*†‡/"
MAX_AFFIXES = 32

#: Whole bracket-balanced chemical words (not one group alone, not ending in punctuation or a citation),
#: and, to bound the worst case, any chunk with MAX_AFFIXES or more affix characters ("))))...").
TOKEN_MATCH_RE = re.compile(
    rf"(?:(?=(?:[^{_AFFIX}]*[{_AFFIX}]){{{MAX_AFFIXES}}})\S*"
    rf"|(?!{_GROUP}$)"  # "(12)", "[Ru(bpy)3]" alone are split as brackets
    rf"(?=[^\s]*[\(\[{{])"  # only words with a bracket need this
    rf"(?:{_CHEM_BODY}))$"
)

#: spaCy's English single-letter special cases that are units ("12 h." ends in a unit, not an initial), and the
#: capital letters of temperature units, which patents write apart from the degree sign ("at 0° C. The",
#: "at 300 K."): a period after them splits off, so an initial "C." is two tokens (sentences are split on
#: the text, not on tokens, so "J. C. Smith" and "C. elegans" stay in one sentence).
UNIT_LETTERS = ("h.", "s.", "g.", "m.", "d.", "l.", "x.", "y.", "C.", "K.")

#: spaCy's English abbreviations that clash with element symbols ("Co." for Colorado, "Mo." ...): their period
#: is left to end a sentence after the element ("Ind." for Indiana reads as indium, "In.", too).
ELEMENT_ABBREVIATIONS = {symbol + "." for symbol in ELEMENT_SYMBOLS} | {"Ind."}

#: Scientific and chemical abbreviations kept as one token with their period ("min." is not one: "for 30 min."
#: ends a sentence with a unit).
SCIENTIFIC_ABBREVIATIONS = (
    "Fig.", "Figs.", "fig.", "figs.", "Eq.", "Eqs.", "eq.", "eqs.", "Ref.", "Refs.", "ref.", "refs.",
    "Tab.", "Sect.", "Sec.", "Suppl.", "Supp.", "approx.", "ca.", "cf.", "viz.", "al.", "etc.", "resp.",
    "r.t.", "m.p.", "b.p.", "equiv.", "Anal.", "Calcd.", "calcd.", "Found.", "No.", "Nos.", "no.",
    "sp.", "spp.", "subsp.", "var.", "nov.", "conc.", "aq.", "sat.", "max.", "Vol.", "vol.", "FIG.", "FIGS.",
    "Chem.", "Soc.", "Lett.", "Phys.", "Biol.", "Proc.", "Natl.", "Acad.", "Sci.", "Rev.", "Int.", "Ed.",
    "Am.", "Org.", "Inorg.", "Commun.", "Angew.", "Nat.", "Med.", "Res.", "Eur.", "Mater.", "Catal.", "Synth.",
)

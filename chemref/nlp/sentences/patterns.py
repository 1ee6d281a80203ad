"""The sentence splitter's character classes and compiled patterns, built once at import: the candidate
boundaries (:data:`_CANDIDATE`), citation markers, and the shapes of the word after a period.
"""

from __future__ import annotations

import re

from chemref.nlp.rules import SentenceRules

#: Built once at import (compiled look-ups inside).
DEFAULT_RULES = SentenceRules.default()

_TERMINALS = ".!?\u2026\u203c\u2047\u2048\u2049"
_CLOSERS = "\"'\u201d\u2019\u00bb\u203a)\\]\u2020\u2021\u00a7\u00b6"  # incl. footnote daggers ("ESI.† The")
_OPENERS = "([{\"'\u201c\u2018\u00ab\u2039\u201e"
_DASHES = "-\u2010\u2011\u2012\u2013\u2014\u2212"
_SUP = "\u00b9\u00b2\u00b3\u2070\u2074-\u2079"  # superscript digits
_DASH_CLASS = "\\-\u2010\u2011\u2012\u2013\u2014\u2212"  # for use inside [...]

# caption panel labels and legend keys that open a sentence in lower case: "(c) ...", "(d–f) ...", "(*) ...",
# "c. TEM analysis", "a: Overview", "cc, connecting cilium"
_LABEL = re.compile(
    r"\((?:[a-z][\'\u2032\d]?(?:\s?[,\u2013\u2212\u2010\u2011\-]\s?[a-z][\'\u2032\d]?){0,8}|\*{1,3}|[ivx]{1,5})\)\s"
    r"|[a-z]\.\s+[^\sa-z]|[a-h]\s[A-Z][a-z]|[a-z](?:[\-\u2013][a-z])?[,:]\s"
    r"|(?!(?:no|so|yes|and|or|but|yet|nor|thus|then|also|too|now|here|well|not)[,:])[a-z]{1,4}[,:]\s|[a-zA-Z]\s?[=<>\u2264\u2265]\s?\d"
)

_CAMEL = re.compile(r"[a-z]{1,4}[A-Z]|[a-z]{1,3}\d")        # mRNA, cDNA, pH, p53
# kinetic symbols written in lower case that open sentences: "kcat was 3.4 s−1", "t1/2 was 4 h" (not "m/z", which
# follows "calc." and "exp." in mass spectrometry data)
_SYMBOL = re.compile(r"k(?:cat|obs|app|on|off|inact|ex|nr|r)\b|t1/2\b")
_PREFIX = re.compile(r"([a-z]{1,8})[-\u2010\u2011(]")      # p-, n-, tert-, cis-, bis(
# a superset of the lower-case sentence openers, for the fast path
_LOWER_MAYBE = rf"{_LABEL.pattern}|{_CAMEL.pattern}|{_SYMBOL.pattern}|[a-z]{{1,8}}[-\u2010\u2011(]|[a-z]{{2,8}}\.\s|[a-z]\.[a-z]\.\s"
_LOWER_ABBREV = re.compile(r"(?:[a-z]{2,8}\.|[a-z]\.[a-z]\.)(?=\s)")  # "aq. HCl was added" (see RuleTable.lowercase_openers)
_LOWER_MAYBE_START = re.compile(_LOWER_MAYBE)
# _next_kind's tests of a lower-case word in one match: an opener shape (_LABEL, _CAMEL, _SYMBOL), else a prefix
# (_PREFIX) or an abbreviation (_LOWER_ABBREV), which the rule tables decide (the last two never both match: the
# run of letters ends in a hyphen or bracket for one, in a period for the other)
_LOWER_KIND = re.compile(
    rf"(?P<opener>{_LABEL.pattern}|{_CAMEL.pattern}|{_SYMBOL.pattern})"
    rf"|(?P<prefix>[a-z]{{1,8}})[-\u2010\u2011(]|(?P<abbrev>{_LOWER_ABBREV.pattern})")
_PLAIN = ".,;:!?=+%/<>~^|\\})\\]\u00b1\u00d7\u2032\u2033\u00b0&@"
_PLAIN_SYMBOLS = frozenset(_PLAIN.replace("\\", ""))


# One pass finds every candidate: a newline (with any blank lines after it), a run of terminal
# punctuation (+ closing quotes/brackets) before whitespace, the end or "[", or a period glued to a
# superscript-like citation number after a word ("diffusion.7 Studies").
_CANDIDATE = re.compile(
    rf"[{_TERMINALS}\n](?<![{_TERMINALS}][{_TERMINALS}])(?:"            # one leading set keeps the scan fast
    r"(?<=\n)(?P<nl>(?:[^\S\n]*+\n)*+)"
    rf"|(?P<term>[{_TERMINALS}]*+)[{_CLOSERS}]*+(?=\[|\((?=\d|[^\W\d_][\w'\u2019\-]{{0,40}}(?: et al| and| &)?[.,]? )|\Z|\s++(?P<next>)(?:\Z|[^\sa-z{_PLAIN}]|{_LOWER_MAYBE}))"
    rf"|(?<=[^\W\d_]\.|[)\]+%\u2212\u201d\u2019\x22]\.)(?P<glued>)(?=[\d{_SUP}]{{1,3}}[a-z]?(?:(?:,\s?|[{_DASH_CLASS}\u207b])[\d{_SUP}]{{1,3}}[a-z]?){{0,30}}(?:\s|\Z))"
    # after a number only before a capitalised word ("at Ser133.1,2 This event"; a decimal never reads so)
    rf"|(?<=[^\W\d_]\.)(?P<glued_close>)(?=[)\]][\d{_SUP}]{{1,3}}[a-z]?(?:(?:,\s?|[{_DASH_CLASS}\u207b])[\d{_SUP}]{{1,3}}[a-z]?){{0,30}}(?:\s|\Z))"
    rf"|(?<=\d\.)(?P<glued_num>)(?=\d{{1,3}}(?:[,{_DASH_CLASS}]\d{{1,3}}){{0,30}}\s+[A-Z])"
    # a space lost between sentences: "digestion with XbaI.Hybridization with probe A ..."
    r"|(?<=[^\W\d_]\.|[)\]]\.)(?P<nospace>)(?=[A-Z][a-z]{2,}[\s,])"
    r")"
)
# the next non-space character after a candidate
_NEXT = re.compile(r"\s*+(\S)")
_NONWS = re.compile(r"\S")
_SPACES = re.compile(r"[^\S\n]*+")  # horizontal whitespace only
# Citation markers that may follow a sentence's final punctuation and then belong to it.
_MARKER = re.compile(
    rf"\[\s?\d{{1,4}}[a-z]?(?:\s?[,;{_DASH_CLASS}]\s?(?:\d{{1,4}}[a-z]?|[a-z])){{0,30}}\s?\]"            # [12] [3–5] [1, 4-6]
    rf"|\(\d{{1,4}}(?:\s?[,;{_DASH_CLASS}]\s?\d{{1,4}}){{0,30}}\)"                            # (12) (3-5)
    r"|\((?:[A-Z][\w'\u2019\-]{0,40}(?: et al\.?| and [A-Z][\w'\u2019\-]{0,40}| & [A-Z][\w'\u2019\-]{0,40})?"
    r",? (?:1[5-9]|20)\d\d[a-z]?(?:, \d{1,4})?(?:; ?|, (?=[A-Z]))?){1,12}+\)"          # (Smith et al., 2019)
)
_GLUED_DIGITS = re.compile(rf"[\d{_SUP}]{{1,3}}[a-z]?(?:(?:,\s?|[{_DASH_CLASS}\u207b])[\d{_SUP}]{{1,3}}[a-z]?){{0,30}}(?=\s|\Z)")
_TOKEN_BACK_LIMIT = 48
_YEAR_IN_BRACKETS = re.compile(r"\(\s?(?:1[5-9]|20)\d\d[a-z]?\s?\)")
_CAPITALISED = re.compile(r"[A-Z][a-z]{2,}\b")
# capitalised units that may follow a number opening a sentence ("2 M HCl", "10 MHz", "5 Pa")
_UNIT_WORDS = "(?:Hz|kHz|MHz|GHz|THz|Da|kDa|MDa|Pa|kPa|MPa|GPa|Gy|Bq|MBq|GBq|Sv|Wb|Ci|Np|MW|GW|MeV|GeV|TeV|MΩ|KΩ|OD|Torr)"
_SPACED_CITATION = re.compile(
    rf"(\d{{1,3}}(?:\s?[,{_DASH_CLASS}]\s?\d{{1,3}}){{0,30}})(?:\s+(?=(?!{_UNIT_WORDS}\b)[A-Z](?:[a-z]+|[\w\-]*[A-Z\d][\w\-]*)\b|A\s+[a-z])|\s*+\Z)")
_OPEN_BRACKET = re.compile(r"[(\[]")
# more citation numbers after glued ones, set off by single spaces, before a capitalised word ("heating.11 12 Further")
_GLUED_SPACED = re.compile(
    rf"(?:[^\S\n][\d{_SUP}]{{1,3}}[a-z]?(?:(?:,\s?|[{_DASH_CLASS}])[\d{_SUP}]{{1,3}}[a-z]?){{0,30}}){{1,10}}"
    rf"(?=\s+(?!{_UNIT_WORDS}\b)[A-Z][a-z])")
_SENTENCE_AFTER_ET_AL = re.compile(r"\s+[A-Z][a-z]{2,}\s+[a-z]{3,}\b(?!\s+(?:1[89]|20)\d\d)")
# what follows a word of an abbreviated journal title: another abbreviated word, or "2019," / "2019;"
_CITATION_NEXT = re.compile(r"\s+(?:[A-Z][a-z]{1,11}\.(?=[\s,])|(?:1[89]|20)\d\d[a-z]?[,;:])")
# next-word shapes
_WORD = re.compile(r"[^\W\d_][\w'\u2019]{0,40}")
_LIST_LABEL = re.compile(r"(?:\d{1,3}(?:\.\d{1,3}){0,4}|[ivxlcIVXLC]{1,5}|[A-Za-z])\Z")
_STEREO = re.compile(r"\((?:[+\-\u2212\u00b1]|[RSEZ](?:,[RSEZ])*)\)")
_BULLETS = frozenset("\u2022\u25aa\u25cf\u25e6\u2023\u2043\u25a0\u25a1\u27a2*\u2020\u2021\u00a7\u00b6#")
_FOOTNOTE_MARKS = frozenset("*\u2020\u2021\u00a7\u00b6")  # "*P < 0.05", "†, p < 0.01"
# next-word kinds
_END, _STARTER, _UPPER, _DIGIT, _LOWERSTART, _LOWER, _OTHER = range(7)
_SPLIT_AFTER_WORD = frozenset({_END, _STARTER, _UPPER, _DIGIT, _LOWERSTART})

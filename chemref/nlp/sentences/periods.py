"""The decision rules for one candidate boundary: the word before a period and the kind of word after it (from
the rule tables), brackets, citations that open a sentence, and the vetoes.
"""

from __future__ import annotations

import re

from chemref.nlp.rules import EITHER, NAME, NEVER
from chemref.nlp.sentences.patterns import (
    _BULLETS,
    _CITATION_NEXT,
    _DIGIT,
    _END,
    _FOOTNOTE_MARKS,
    _LABEL,
    _LIST_LABEL,
    _LOWER,
    _LOWER_KIND,
    _LOWERSTART,
    _OPEN_BRACKET,
    _OPENERS,
    _OTHER,
    _SENTENCE_AFTER_ET_AL,
    _SPACED_CITATION,
    _SPACES,
    _SPLIT_AFTER_WORD,
    _STARTER,
    _STEREO,
    _TERMINALS,
    _TOKEN_BACK_LIMIT,
    _UPPER,
    _WORD,
)
from chemref.nlp.sentences.protected import _name_ends_in_digits
from chemref.nlp.sentences.structure import _word_before

# ---------------------------------------------------------------- decision rules for one candidate
# (called for the candidates that survive the cheap tests in split_sentences' loop)

def _period_ends(text: str, i: int, j: int, nxt: int, raw_nxt: int, narrative: bool, end: int, punct_end: int,
                 sent_start: int, idx) -> tuple[bool | None, int]:
    """Does the single period at ``i`` end a sentence, and where (the end may move past a citation number
    set off by a space)? None: the period and a citation number close the text."""
    sc = _SPACED_CITATION.match(text, j) if (
        nxt == _DIGIT and end == punct_end and not text.startswith(".", j + 1)) else None
    if sc is not None:
        # "diffusion. 7 Studies": a citation number set off by a space, before a capitalised word (a
        # sentence that opens with a number goes on with a unit or a lower-case word: "48 h later");
        # it is read as a glued citation and the word after it decides
        if sc.end() == len(text):
            if _after_period(text, i, _END, _END, sent_start, idx, i + 1):
                return None, end
            sc = None
        else:
            nxt2 = _next_kind(text, sc.end(), idx)
            if nxt2 != _STARTER and text[i - 1].isdigit() and not _name_ends_in_digits(text, i):
                sc = None  # "at pH 7. 5 Samples": only a function word proves the number is no subject
    if sc is not None:
        return _after_period(text, i, nxt2, nxt2, sent_start, idx, sc.end(1)), sc.end(1)
    return _after_period(text, i, nxt, raw_nxt, sent_start, idx,
                         i + 1 if narrative or end == punct_end else end), end


def _split_vetoed(text: str, i: int, run_end: int, punct_end: int, end: int, c: str, j: int, nxt: int,
                  last_cut: int) -> bool:
    """Rules that overrule a sentence end at ``i`` for what surrounds it: a bracket that goes on
    ("(Willd.) Iljin", "(Musa spp. ABB group)"), a quotation's source, a bracket after an abbreviation."""
    if c in _OPENERS and run_end < punct_end and ")" in text[run_end:punct_end] \
            and not _parenthesised_sentence(text, i):
        return True  # "(1/500, 30 min.) (Vector ...": an abbreviation inside brackets
    if c == "(" and run_end < punct_end and text[punct_end - 1] in _QUOTES and _SOURCE_AFTER_QUOTE.match(text, j):
        return True  # '"... the end." (Baker 112).': a quotation's source in brackets closes its sentence
    if nxt == _STARTER:
        return False
    if punct_end > run_end:
        # "Rhaponticum carthamoides (Willd.) Iljin (Asteraceae)"
        return text[run_end] == ")" and _BRACKETED_AUTHORITY.search(text, i - 24 if i > 24 else 0, i + 1) is not None
    lo = last_cut if last_cut > i - 80 else i - 80
    # "(Musa spp. ABB group)": an abbreviation inside a short bracket
    return (text.find("(", lo, i) >= 0 or text.find("[", lo, i) >= 0) and _inside_brackets(text, i, end, last_cut)



def _next_kind(text: str, j: int, idx) -> int:
    """Classify the word that starts at ``j`` (after whitespace) as a sentence start or not."""
    c = text[j]
    if c.isupper():
        if text.startswith(".", j + 1):
            return _UPPER  # an initial ("J. Smith"): the word is the letter alone, never an opener
        w = _WORD.match(text, j)
        return _STARTER if (w.group() if w else c) in idx.starters else _UPPER
    if c.isdigit():
        return _DIGIT
    if c.islower():
        if "\u03b1" <= c <= "\u03c9" or c == "\u00b5":  # Greek lower case opens sentences ("α-Synuclein")
            return _LOWERSTART
        return _lower_kind(text, j, idx)
    if c in _OPENERS:
        return _opener_kind(text, j)
    if c in _BULLETS and _opens_item(text, j):
        return _UPPER
    return _OTHER


def _opener_kind(text: str, j: int) -> int:
    """The kind of what follows an opening bracket or quote at ``j``: a stereodescriptor or panel label in
    brackets opens a sentence in lower case ("(R)-...", "(c) ..."); a capital letter or digit after one or two
    openers reads as a capitalised word."""
    c = text[j]
    if c == "(" and (_STEREO.match(text, j) or _LABEL.match(text, j)):
        return _LOWERSTART
    n = len(text)
    if j + 1 < n:
        c2 = text[j + 1]
        if c2.isupper() or c2.isdigit():
            return _UPPER
        if c2 in _OPENERS and j + 2 < n and (text[j + 2].isupper() or text[j + 2].isdigit()):
            return _UPPER
    return _OTHER


def _opens_item(text: str, j: int) -> bool:
    """Does the bullet or footnote mark at ``j`` open an item ("• item", "** p < 0.01", "*P < 0.05",
    "†, p < 0.01")?"""
    c = text[j]
    if j + 1 >= len(text):
        return False
    c2 = text[j + 1]
    return c2.isspace() or c2 == c or c in _FOOTNOTE_MARKS and (c2.isalpha() or c2 == ",")


def _lower_kind(text: str, j: int, idx) -> int:
    """The kind of a word that opens in lower case at ``j``: an opener shape (a label, "mRNA", "kcat"), or a
    prefix ("tert-") or abbreviation ("aq.") that the rule tables list as a sentence opener, else a plain word."""
    m = _LOWER_KIND.match(text, j)
    if m is None:
        return _LOWER
    group = m.lastgroup
    if group == "opener" or m.group(group) in (  # type: ignore[arg-type]
            idx.lowercase_prefixes if group == "prefix" else idx.lowercase_openers):
        return _LOWERSTART
    return _LOWER


_NOT_PROSE = re.compile(r"[/@:\\_=]|www|http|\.[A-Za-z]{2,4}\.")


def _nospace_splits(text: str, p: int, idx) -> bool:
    """"XbaI.Hybridization": a sentence end with the space lost, unless the chunk is a URL, a path, an
    e-mail address or a dotted name, or the word before the period is an abbreviation."""
    lo = p - _TOKEN_BACK_LIMIT if p > _TOKEN_BACK_LIMIT else 0
    ws = _token_start(text, p)
    if ws == lo and lo > 0:
        return False  # a very long chunk: not prose
    w = _WORD.match(text, p + 1)
    chunk = text[ws:w.end() if w else p + 1]
    if _NOT_PROSE.search(chunk) or chunk.count(".") > 1:
        return False
    word = text[ws:p].lstrip(_OPENERS)
    return word != "" and idx.kinds.get(word + ".") is None and not (len(word) == 1)


def _inside_brackets(text: str, p: int, end: int, last_cut: int) -> bool:
    """Is the period at ``p`` inside a short bracket opened in mid-sentence and closed a few words on,
    with no other sentence end before the close ("... banana (Musa spp. ABB group) plant ...")?"""
    lo = max(last_cut, p - 80)
    o = max(text.rfind("(", lo, p), text.rfind("[", lo, p))
    if o <= lo:
        return False
    opener = text[o]
    closer = ")" if opener == "(" else "]"
    if text.find(closer, o, p) >= 0 or not text[lo:o].strip():
        return False
    close = text.find(closer, end, end + 40)
    if close < 0:
        return False
    inner = text[end:close]
    return opener not in inner and ". " not in inner


def _parenthesised_sentence(text: str, p: int) -> bool:
    """For "x.) (Next": is the bracket a whole sentence ("... end. (This one.) (Next ...") rather than an
    abbreviation inside brackets ("(1/500, 30 min.) (Vector ...")?"""
    o = text.rfind("(", max(0, p - 400), p)
    if o < 0:
        return True
    k = o
    while k > 0 and text[k - 1] in " \t\u00a0":
        k -= 1
    return k == 0 or text[k - 1] in _TERMINALS or text[k - 1] == "\n"


def _after_period(text: str, p: int, nxt: int, raw_nxt: int, sent_start: int, idx, after: int) -> bool:
    """Is the single period at ``p`` a sentence end, given the kind of the next word (``after`` is the
    offset past the period and a citation number glued to it)? The word before it is looked up in the rule
    tables (a phrase such as "et al." first); a word they do not list is read by its shape
    (:func:`_unlisted_kind`)."""
    if nxt == _END:
        return True
    # (:func:`_word_bounds` inline, its commonest case first: a token after a plain space, no bracket in it)
    lo = p - _TOKEN_BACK_LIMIT if p > _TOKEN_BACK_LIMIT else 0
    ws = text.rfind(" ", lo, p) + 1 or lo
    token = text[ws:p]
    if token.isprintable() and token[:1] not in _OPENERS and "(" not in token and "[" not in token:
        word_start = ws
    else:
        ws, word_start = _word_bounds(text, p)
    word = text[word_start:p]
    key = word + "."
    multi = idx.multiword.get(key)
    kind = _multiword_kind(text, p, multi) if multi else None
    if kind is None:
        kind = idx.kinds.get(key)
    if nxt == _DIGIT and key in idx.measure_abbreviations and _after_number(text, ws):
        return False  # "2 lb. 4 oz.", "5 ft. 6 in.": a measure in two units
    if kind is None and word and (ws == sent_start or len(word) == 1 or "." in word):  # (cheap filter first)
        kind = _unlisted_kind(text, p, word, ws, word_start, sent_start, idx)
    if kind is None:
        # (the commonest case, a plain word: a capitalised one may go on)
        if nxt == _STARTER or not word[:1].isupper():
            return nxt in _SPLIT_AFTER_WORD
        return _capitalised_word_ends(text, p, word, nxt)
    return _listed_word_ends(text, p, word, key, kind, nxt, raw_nxt, after)


def _token_start(text: str, p: int) -> int:
    """The start of the run of non-space characters that ends at ``p``, read back at most
    :data:`_TOKEN_BACK_LIMIT` characters (the limit itself when the run is longer)."""
    lo = p - _TOKEN_BACK_LIMIT if p > _TOKEN_BACK_LIMIT else 0
    ws = text.rfind(" ", lo, p) + 1 or lo
    if text[ws:p].isprintable():  # (no other whitespace: every whitespace character but " " is unprintable)
        return ws
    ws = p
    while ws > lo and not text[ws - 1].isspace():
        ws -= 1
    return ws


def _word_bounds(text: str, p: int) -> tuple[int, int]:
    """``(token start, word start)`` of the word before the period at ``p``: the word starts after the opening
    brackets and quotes of its token, and after a bracket opened inside it ("2(Fig." -> "Fig.")."""
    # (:func:`_token_start` inline for a token after a plain space, the commonest case)
    lo = p - _TOKEN_BACK_LIMIT if p > _TOKEN_BACK_LIMIT else 0
    ws = text.rfind(" ", lo, p) + 1 or lo
    if not text[ws:p].isprintable():
        ws = _token_start(text, p)
    word_start = ws
    while word_start < p and text[word_start] in _OPENERS:
        word_start += 1
    if p - word_start > 1 and _OPEN_BRACKET.search(text, word_start, p):
        inner = max(text.rfind("(", word_start, p), text.rfind("[", word_start, p))
        if text.find(")", inner, p) < 0 and text.find("]", inner, p) < 0:
            word_start = inner + 1
    return ws, word_start


def _multiword_kind(text: str, p: int, phrases) -> str | None:
    """The kind of the first listed phrase ("et al.", "i. e.") that ends with the period at ``p`` and starts
    at a word boundary, else None."""
    for phrase, kind in phrases:
        b = p + 1 - len(phrase)
        if b >= 0 and text.startswith(phrase, b) and (b == 0 or not text[b - 1].isalnum()):
            return kind
    return None


def _unlisted_kind(text: str, p: int, word: str, ws: int, word_start: int, sent_start: int, idx) -> str | None:
    """The kind of a word the rule tables do not list, by its shape: a list label opening the sentence never
    ends it; a single capital letter is an initial (a name) or a unit or label; a dotted word is a name
    ("U.S.") or an abbreviation ("i.p."). None: a plain word."""
    # (a label is ASCII but for the digits, which may be any decimal digits: cheap tests before the regex)
    if ws == sent_start and (word[0] < "{" or word[0].isdecimal()) and (
            (len(word) <= 3 and word.isdecimal()) or _LIST_LABEL.match(word)):
        return NEVER  # "1. Dissolve", "2.1. Materials", "iii. ..."
    if len(word) == 1 and word.isupper():
        # "373.15 K." and "type I." end sentences like words; "J. R. R. Tolkien" is a name
        if word == "I":
            return NAME if _after_given_name(text, ws) else EITHER  # "Albert I. Jones" vs "you and I. Did"
        return EITHER if (word != "L" and word_start == ws and _after_word(text, ws, idx)
                          and not _CITATION_NEXT.match(text, p + 1)) else NAME
    if "." in word and word[-1].isalpha() and word.replace(".", "").replace("-", "").isalpha():
        return NAME if word[0].isupper() else EITHER
    return None


def _capitalised_word_ends(text: str, p: int, word: str, nxt: int) -> bool:
    """After a capitalised plain word (no abbreviation), the period ends a sentence before a word that may open
    one, unless the word goes on: with a bracket ("Calocedrus decurrens Torr. (California incense-cedar),
    Cupressus ...") or as a word of an unlisted journal abbreviation ("J. Pharm. Biomed. Anal. 2019, 5, 1")."""
    if text.find("(", p + 1, p + 3) >= 0 and _BRACKET_GOES_ON.match(text, p + 1):
        return False
    if word[1:].islower() and word.isalpha() and _CITATION_NEXT.match(text, p + 1):
        return False
    return nxt in _SPLIT_AFTER_WORD


def _listed_word_ends(text: str, p: int, word: str, key: str, kind: str, nxt: int, raw_nxt: int,
                      after: int) -> bool:
    """After an abbreviation of ``kind`` (from the rule tables or :func:`_unlisted_kind`): never, either (a
    word that may open a sentence follows) or a name (only a sentence opener follows)."""
    if kind == NEVER:
        return False
    if nxt != _STARTER and text.find("(", p + 1, p + 3) >= 0 and (
            (word[:1].isupper() and _BRACKET_GOES_ON.match(text, p + 1))
            or _BRACKET_THEN_PUNCT.match(text, p + 1)):
        # "Thermo Fisher Scientific, Inc. (Waltham, MA, USA). Trypsin ...", "etc. (Fig. 2).",
        return False
    if kind == EITHER and key in _STRAIN_RANKS and _STRAIN_CODE.match(text, p + 1):
        return False  # "Synechocystis sp. PCC 6803", "Pseudogymnoascus sp. VKMF-4246"
    if kind == NAME:
        if raw_nxt == _UPPER and key == "al." and _SENTENCE_AFTER_ET_AL.match(text, after):
            return True  # "... by Jones et al. Mechanistic studies ..." (a journal or name would not go on in lower case)
        return raw_nxt == _STARTER
    return nxt in _SPLIT_AFTER_WORD


_QUOTES = "\"'\u201d\u2019\u00bb\u203a"
_SOURCE_AFTER_QUOTE = re.compile(r"\([^()\n]{1,80}\)[.!?]")
# a short bracket right after an abbreviation that closes before punctuation belongs to the same sentence
_BRACKET_THEN_PUNCT = re.compile(r"\s*+\([^()\n]{1,80}\)[.,;:]")
# ... and after a capitalised word ("Torr."), a bracket that opens with a word and goes on with a comma or a
# lower-case word continues the sentence (caption panel labels "(F and L) show ..." do not open with a word)
_BRACKET_GOES_ON = re.compile(r"\s*+\([A-Z][a-z]{2,}[^()\n]{0,80}(?<![.!?])\)(?:[,;:]|\s+[a-z]{2})")
_STRAIN_RANKS = frozenset({"sp.", "spp.", "str.", "strain."})
_STRAIN_CODE = re.compile(r"\s+(?:[A-Z]{2,}[\s\-]?\d|[A-Z0-9]*\d[A-Z0-9]*[\-_][A-Z0-9])")
# a botanical author abbreviation in brackets: "Rhaponticum carthamoides (Willd.) Iljin", "(A. Rich.) Hochst."
_BRACKETED_AUTHORITY = re.compile(r"\((?:[A-Z]\.\s?){0,2}[A-Z][a-z]{0,12}\.\Z")

_LABEL_NOUNS = frozenset({"Method", "Procedure", "Protocol", "Route", "Condition", "Conditions", "Catalyst",
                          "Compound", "Complex", "Sample", "Series", "Form", "Phase", "Type", "Step", "Part",
                          "Appendix", "Group", "Model", "Set", "Site", "Fraction", "Peak", "Band", "Ring",
                          "Domain", "Region", "Entry", "Scheme", "Solution", "Buffer", "Medium", "Isomer"})

_NAME_LEADS = frozenset({"et", "ex", "thank", "thanks", "courtesy", "dr", "prof", "mr", "mrs", "ms", "gift", "provided",
                         "kindly", "donated", "supplied", "sir", "lady", "des", "van", "von", "de", "da", "di",
                         "del", "della", "le", "la"})


def _after_word(text: str, ws: int, idx) -> bool:
    """Is the one capital letter at ``ws`` a unit or label rather than an initial? True after a number
    ("373.15 K.") or after a lower-case content word ("vitamin A.", "metaphase I.", "form B.")."""
    e = ws
    while e > 0 and text[e - 1] in " \t\u00a0\u2009\u202f":
        e -= 1
    if e == ws or e == 0:
        return False
    if text[e - 1].isdigit():
        # "373.15 K." is a unit; "Copyright (C) 2018 S. Korgur AG" is an initial after a copyright year
        return _COPYRIGHT_YEAR.search(text, e - 40 if e > 40 else 0, e) is None
    if not text[e - 1].isalpha():
        return False  # (no word before: the tests below fail on an empty one)
    b = e
    while b > 0 and e - b < 24 and text[b - 1].isalpha():
        b -= 1
    prev = text[b:e]
    if prev in _LABEL_NOUNS:
        return True  # "Method B.", "Scheme A.", "Form II."
    if len(prev) < 2 or not prev.islower() or (b > 0 and not text[b - 1].isspace() and text[b - 1] not in "(["):
        return False
    return prev.capitalize() not in idx.starters and prev not in _NAME_LEADS


_COPYRIGHT_YEAR = re.compile(r"(?:\u00a9|\([Cc]\)|[Cc]opyright)[^\S\n]*(?:(?:1[89]|20)\d\d[\s,\u2013\-]*){1,3}\Z")
# capitalised words before a roman numeral that is no initial ("Table I.", "Photosystem I.", "Type I.")
_NUMBERED_NOUNS = _LABEL_NOUNS | frozenset({"Table", "Figure", "Fig", "Chapter", "Section", "Class", "Grade", "Stage",
                                            "Level", "Photosystem", "War", "Volume", "Book", "Act", "Article",
                                            "Tier", "Cluster", "Subunit", "Fragment", "Loop", "Helix", "Motif"})


def _after_given_name(text: str, ws: int) -> bool:
    """Is the capital letter at ``ws`` a middle initial after a given name ("Albert I. Jones")?"""
    e = ws
    while e > 0 and text[e - 1] in " \t\u00a0":
        e -= 1
    prev = _word_before(text, e)
    b = e - len(prev)
    return (e < ws and 2 < len(prev) < 13 and prev[0].isupper() and prev[1:].islower()
            and prev not in _NUMBERED_NOUNS and (b == 0 or text[b - 1].isspace()))


def _after_number(text: str, ws: int) -> bool:
    """Does a number (then a space) come right before the word at ``ws``?"""
    return ws >= 2 and text[ws - 1] == " " and text[ws - 2].isdigit()


def _citation_opens_sentence(text: str, i: int, run_end: int, punct_end: int, idx) -> bool:
    """After "implications. [7]", a lower-case word makes the bracketed citation the subject of the next
    sentence: the punctuation at ``i`` ends a sentence when it follows a plain word, not an abbreviation."""
    j = _SPACES.match(text, punct_end).end()  # type: ignore[union-attr]
    if j == punct_end or not text.startswith("[", j):
        return False
    if run_end - i > 1 or text[i] != ".":
        return text[i] in "!?"
    word = _word_before(text, i) if text[i - 1:i].isalpha() else ""
    return len(word) > 1 and word.islower() and idx.kinds.get(word + ".") is None

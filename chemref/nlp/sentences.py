"""Rule-based sentence splitting for scientific and chemical text, as character offsets.

Pure Python + ``re`` (never imports spaCy), so the question builder's fast path and worker processes
stay light. The text is never changed: sentences are ``(start, end)`` offsets. Every regex is bounded or
possessive, so the work is linear in the input.

1. Structure found before the pass (:func:`_structure`): inline list items ("1. ... 2. ...", "a) ... b) ...")
   force a cut before each later item's marker, and their markers and spaced ellipses (". . .") are quiet
   spans where no boundary falls.
2. Candidate boundaries (:data:`_CANDIDATE`, one compiled regex): terminal punctuation with its closing
   quotes/brackets, newlines, periods glued to citation numbers, periods with the space after them lost.
3. One left-to-right pass (:func:`_cut_points`, over :func:`_candidates`) decides each candidate: cheap tests
   on the next character first, then :func:`_decide` (the end moved over citation markers) and
   :func:`_ends_at` (the verdict), with the named decision rules: :func:`_period_ends` / :func:`_after_period`
   (the word before a period and the kind of word after it, from the rule tables), :func:`_newline_splits`,
   :func:`_nospace_splits`, :func:`_citation_opens_sentence`, and the vetoes in :func:`_split_vetoed`.
"""

from __future__ import annotations

import heapq
import re
from bisect import bisect_right
from typing import Sequence

from chemref.nlp.rules import EITHER, NAME, NEVER, SentenceRules

__all__ = ["split_sentences", "SentenceRules", "DEFAULT_RULES"]

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


def split_sentences(text: str, *, protected: Sequence[tuple[int, int]] = (),
                    rules: SentenceRules | None = None) -> list[tuple[int, int]]:
    """Sentence spans ``(start, end)`` of ``text`` (end exclusive), in order, stripped of whitespace.

    Together they cover every non-whitespace character exactly once. ``protected`` spans (citation
    anchors) never contain a boundary; one that follows sentence-final punctuation, like a plain
    "[12]" or "(Smith et al., 2019)", is attached to the sentence before it.
    """
    if not isinstance(text, str):
        raise TypeError(f"split_sentences() needs a str, got {type(text).__name__}")
    idx = (DEFAULT_RULES if rules is None else rules).index
    prot = _protected_spans(text, protected, idx.no_split)
    quiet, forced = _structure(text)
    cuts = _cut_points(text, _candidates(text, prot), prot, quiet, idx)
    if forced:
        cuts = sorted(set(cuts).union(forced))
    return _spans(text, cuts)


def _candidates(text: str, prot: list[tuple[int, int]]):
    """The candidate boundaries of ``text`` in order: :data:`_CANDIDATE`'s matches, and the periods glued to a
    protected anchor after a word ("diffusion.a Studies", "al.)7")."""
    candidates = _CANDIDATE.finditer(text)
    if prot:
        glued = [_GluedAnchor(s - 1) for s, _ in prot
                 if s >= 2 and text[s - 1] == "." and not text[s - 2].isspace()]
        glued += [_GluedAnchor(s - 2, "glued_close") for s, _ in prot
                  if s >= 3 and text[s - 1] in ")]" and text[s - 2] == "." and not text[s - 3].isspace()]
        glued.sort(key=_start_of)
        if glued:
            candidates = heapq.merge(candidates, glued, key=_start_of)  # type: ignore[arg-type]
    return candidates


#: what :func:`_decide` returns for a candidate after which only whitespace is left (the pass stops)
_STOP = -1


def _cut_points(text: str, candidates, prot: list[tuple[int, int]], quiet: list[tuple[int, int]],
                idx) -> list[int]:
    """The split points of one left-to-right pass over the candidates (sentences are the stripped pieces
    between them): the candidates inside quiet spans and anchors are passed over, newlines and lost spaces
    are decided by their own rules, and a terminal or glued period is passed to :func:`_decide` unless a
    plain lower-case word or a symbol follows it (the fast path), or to :func:`_ends_at` when there is nothing
    to move its end over. (The tests every candidate meets stay inline in this loop: it is the hot path.)"""
    q_starts = [a for a, _ in quiet]
    p_starts = [s for s, _ in prot]
    # (the protected spans are sorted and disjoint: outside [p_first, p_last) no offset is inside one)
    p_first, p_last = (prot[0][0], prot[-1][1]) if prot else (0, 0)
    n = len(text)
    cuts: list[int] = []
    last_cut = 0
    sent_start = -1               # first non-space offset after last_cut, computed lazily
    skip_to = 0                   # candidates before this offset were swallowed by an extension
    # (hot loop: module-level look-ups bound to locals; the most common outcomes are tested first)
    append = cuts.append
    next_match = _NEXT.match
    lower_maybe = _LOWER_MAYBE_START.match
    plain = _PLAIN_SYMBOLS
    decide = _decide
    ends_at = _ends_at
    last_i = -1
    for m in candidates:
        i = m.start()
        if i < skip_to or i == last_i:
            continue
        if quiet:
            k = bisect_right(q_starts, i) - 1
            if k >= 0 and quiet[k][1] > i:
                continue  # a list item's marker or a spaced ellipsis
        last_i = i
        group = m.lastgroup
        if group == "next":
            group = "term"  # (the group in the look-ahead closed last)
        if p_first <= i < p_last:
            k = bisect_right(p_starts, i) - 1
            if k >= 0 and prot[k][1] > i and not (group == "term" and m.end() >= prot[k][1]):
                continue  # inside an anchor (an anchor that ends with the period, "145.", may end a sentence)
        if group == "term":
            # terminal punctuation
            glued = False
            run_end = m.end(2)
            end = m.end()
            if run_end - i > 1 and i > 0 and text[i - 1] in "[(" and text.startswith(("]", ")"), run_end):
                continue  # "[...]": an omission in a quotation, not a sentence end
            j = m.start("next")  # (_CANDIDATE's look-ahead went over the spaces after the punctuation already)
            if j == n:
                break  # only whitespace is left: the end of the text closes the last sentence anyway
        elif group == "nl":
            # (a newline right after a cut, "end.\nNext", changes nothing: no need to read the lines)
            if i > last_cut and (
                    ((e := m.end()) - i > 1 and m.group().count("\n") > 1) or _newline_splits(text, i, e, last_cut)):
                append(i)
                # (the newlines and blank lines run to e: a non-space character there opens the next sentence)
                last_cut, sent_start = i, e if e < n and not text[e].isspace() else -1
            continue
        elif group == "nospace":
            if _nospace_splits(text, i, idx):
                append(i + 1)
                last_cut = sent_start = skip_to = i + 1  # (the match looked ahead to a capital letter there)
            continue
        else:
            # a period glued to a citation number
            glued = True
            run_end = i + 1
            end = i + 2 if group == "glued_close" else i + 1
            j = -1
        if j < 0:
            nm = next_match(text, end)
            if nm is None:
                break
            j = nm.start(1)
        c = text[j]
        starts_prot = prot and (j == end or c in "([" or c.isdigit() or c in _SUP) \
            and _starts_protected(prot, p_starts, j) is not None
        # (after terminal punctuation, _CANDIDATE matched only if a lower-case word there passes lower_maybe)
        if not glued and not starts_prot and (
                c in plain or ("a" <= c <= "z" and group != "term" and lower_maybe(text, j) is None)):
            continue  # fast path: a plain lower-case word or a symbol follows, never a boundary
        if glued or starts_prot or c in "[(,;" or p_first < end < p_last:  # (c is one character)
            cut, sent_start = decide(text, i, j, group, glued, starts_prot, run_end, end, last_cut, sent_start,  # type: ignore[arg-type]
                                     prot, p_starts, p_first, p_last, idx)
        else:  # nothing to move the end over
            cut, sent_start = ends_at(text, i, j, j, group, glued, run_end, end, end, last_cut, sent_start,
                                      prot, p_starts, idx)
        if cut is None:
            continue
        if cut == _STOP:
            break
        append(cut)
        last_cut = skip_to = cut
    return cuts


def _decide(text: str, i: int, j: int, group: str, glued: bool, starts_prot: bool, run_end: int, punct_end: int,
            last_cut: int, sent_start: int, prot: list[tuple[int, int]], p_starts: list[int], p_first: int,
            p_last: int, idx) -> tuple[int | None, int]:
    """Whether the terminal punctuation (or glued period) at ``i``, before the next non-space character at
    ``j``, ends a sentence: ``(cut, sent_start)``, the split point (None for no boundary, :data:`_STOP` when
    only whitespace follows) and the first non-space offset of the current sentence (-1: not known; after a
    cut, that of the next sentence). The end moves over the citation markers after the punctuation and out of
    an anchor it falls in; :func:`_ends_at` decides on the word after it."""
    end = punct_end
    raw_j = j
    c = text[j]
    if glued or starts_prot or c in "[(,;":  # (c is one character)
        end = _extend_over_markers(text, end, prot, p_starts, glued=glued)
        if glued and end == punct_end:
            return None, sent_start  # "Fig.3b": a period inside a word
        if end == punct_end and c == "(" and j == end:
            return None, sent_start  # "sp.(Fig. 2)": a bracket glued to the period that is not a citation
        if end != punct_end:
            nm = _NEXT.match(text, end)
            if nm is None:
                return _STOP, sent_start
            j = nm.start(1)
            c = text[j]
        if c in _PLAIN_SYMBOLS or ("a" <= c <= "z" and _LOWER_MAYBE_START.match(text, j) is None):
            if group == "term" and end != punct_end and "a" <= c <= "z" \
                    and _citation_opens_sentence(text, i, run_end, punct_end, idx) and punct_end > last_cut:
                return punct_end, -1  # "... implications. [7] confirms this.": the citation is the next subject
            return None, sent_start  # after the markers, a plain lower-case word or a symbol: never a boundary
    if p_first < end < p_last:
        k = bisect_right(p_starts, end - 1) - 1
        if k >= 0 and prot[k][0] < end < prot[k][1]:
            # the end fell inside an anchor ("diffusion.7 A" with "7 A" protected): go past it
            end = _extend_over_markers(text, prot[k][1], prot, p_starts, glued=False)
            nm = _NEXT.match(text, end)
            if nm is None:
                return _STOP, sent_start
            j = nm.start(1)
    return _ends_at(text, i, raw_j, j, group, glued, run_end, end, punct_end, last_cut, sent_start, prot, p_starts,
                    idx)


def _ends_at(text: str, i: int, raw_j: int, j: int, group: str, glued: bool, run_end: int, end: int,
             punct_end: int, last_cut: int, sent_start: int, prot: list[tuple[int, int]], p_starts: list[int],
             idx) -> tuple[int | None, int]:
    """:func:`_decide`'s verdict once the end is past the markers: the kind of the word at ``j`` (and at
    ``raw_j``, right after the punctuation) decides a single period through :func:`_period_ends`, other
    punctuation directly; then the vetoes (:func:`_split_vetoed`)."""
    c = text[j]
    # (ASCII digits and lower-case letters: _next_kind's answer without the call)
    if "0" <= c <= "9":
        nxt = _DIGIT
    elif "a" <= c <= "z":
        lk = _LOWER_KIND.match(text, j)
        if lk is None:
            nxt = _LOWER
        else:
            g = lk.lastgroup
            nxt = _LOWERSTART if g == "opener" or lk.group(g) in (  # type: ignore[arg-type]
                idx.lowercase_prefixes if g == "prefix" else idx.lowercase_openers) else _LOWER
    else:
        nxt = _next_kind(text, j, idx)
    if glued and group == "glued_num" and nxt != _STARTER and not (
            prot and _starts_protected(prot, p_starts, i + 1) is not None) and not (
            _name_ends_in_digits(text, i) and _CAPITALISED.match(text, j)):
        return None, sent_start  # "133.1,2 This" is a citation, "Section 3.2 Results" is not
    # "et al. (2005) A ..." is a name followed by a year, whatever comes after the marker;
    # a glued citation number is not a word ("Koshland et al.23 Conformational ...")
    # (only a parenthesised marker can be such a year: "et al. [12] In this study" goes on after the marker)
    if raw_j == j:
        narrative = False
        raw_nxt = nxt
    else:
        narrative = not glued and _YEAR_IN_BRACKETS.match(text, raw_j) is not None
        raw_nxt = _next_kind(text, raw_j, idx) if narrative else nxt
    if nxt >= _LOWER and raw_nxt >= _LOWER:
        return None, sent_start  # a lower-case word or a symbol follows: no rule below splits (nor moves the end)
    looked_from = end  # (where the search for the next non-space character started)
    if run_end - i == 1 and text[i] == ".":
        if sent_start < last_cut:
            ss = _NONWS.search(text, last_cut)
            sent_start = ss.start() if ss else len(text)
        split, end = _period_ends(text, i, j, nxt, raw_nxt, narrative, end, punct_end, sent_start, idx)
        if split is None:
            return _STOP, sent_start  # a citation number closes the text and belongs to the last sentence
    else:  # ! ? … and runs such as "..." or "?!"
        split = nxt in _SPLIT_AFTER_WORD
    if not split or _split_vetoed(text, i, run_end, punct_end, end, text[j], j, nxt, last_cut) or end <= last_cut:
        return None, sent_start
    # (when the next non-space character was looked up from this very end, it opens the next sentence)
    return end, j if looked_from == end else -1


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


class _GluedAnchor:
    """A stand-in match for a period directly followed by a protected anchor."""

    __slots__ = ("pos", "lastgroup")

    def __init__(self, pos: int, group: str = "glued") -> None:
        self.pos = pos
        self.lastgroup = group

    def start(self) -> int:
        return self.pos


def _name_ends_in_digits(text: str, p: int) -> bool:
    """Does the word before the period at ``p`` end in digits after letters ("Dectin-2.", "CD4."), so that a
    protected anchor glued to the period is a citation, not the decimals of a number ("1.5")?"""
    k = p
    while k > 0 and p - k < 4 and text[k - 1].isdigit():
        k -= 1
    if k == p or k == 0:
        return False
    if text[k - 1] in "-\u2010\u2011" and k > 1:
        k -= 1
    return text[k - 1].isalpha()


def _start_of(m) -> int:
    return m.start()


def _protected_spans(text: str, protected: Sequence[tuple[int, int]],
                     no_split: re.Pattern[str] | None) -> list[tuple[int, int]]:
    """Caller's protected spans plus no-split pattern matches, sorted and merged."""
    spans = []
    n = len(text)
    for span in protected:
        s, e = int(span[0]), int(span[1])
        if not 0 <= s <= e <= n:
            raise ValueError(f"protected span {span!r} is outside the text (length {n})")
        if e > s:
            spans.append((s, e))
    if no_split is not None:
        spans.extend(m.span() for m in no_split.finditer(text) if m.end() > m.start())
    if not spans:
        return spans
    spans.sort()
    merged = [spans[0]]
    for s, e in spans[1:]:
        ls, le = merged[-1]
        if s < le:
            if e > le:
                merged[-1] = (ls, e)
        else:
            merged.append((s, e))
    return merged


def _starts_protected(prot: list[tuple[int, int]], p_starts: list[int], pos: int) -> int | None:
    """End of the protected span that starts exactly at ``pos``, else None."""
    k = bisect_right(p_starts, pos) - 1
    if k >= 0 and prot[k][0] == pos:
        return prot[k][1]
    return None


def _extend_over_markers(text: str, end: int, prot: list[tuple[int, int]], p_starts: list[int],
                         *, glued: bool) -> int:
    """Move a sentence end past citation anchors/markers that follow the final punctuation."""
    if glued:
        g = _GLUED_DIGITS.match(text, end)
        if g is None:
            # a protected anchor glued to the period ("diffusion.7" given by the JATS reader)
            k = bisect_right(p_starts, end) - 1 if prot else -1
            if k >= 0 and prot[k][0] == end:
                end = prot[k][1]
            elif not (end < len(text) and text[end] in "(["):
                return end  # (a bracketed marker glued to the period, "al.(43)", is read below)
        else:
            end = g.end()
            more = _GLUED_SPACED.match(text, end)
            if more is not None:
                end = more.end()  # "heating.11 12 Further work": a space-separated list of citation numbers
    n = len(text)
    while end < n:
        j = _SPACES.match(text, end).end()  # type: ignore[union-attr]
        if j < n and text[j] in ",;" and prot and j + 1 < n:
            # "7,8" or "5, 16": separators between glued anchors
            j1 = _SPACES.match(text, j + 1).end()  # type: ignore[union-attr]
            k = bisect_right(p_starts, j1) - 1
            if k >= 0 and prot[k][0] == j1:
                end = prot[k][1]
                continue
        if prot and j < n and (j == end or text[j] in "([" or text[j].isdigit() or text[j] in _SUP):
            # an anchor glued to the period or a bracketed/numeric one belongs to the sentence before;
            # a narrative one ("... absent. Kwong et al. (2008) have ...") opens the next sentence
            k = bisect_right(p_starts, j) - 1
            if k >= 0 and prot[k][0] == j:
                end = prot[k][1]
                continue
        mk = _MARKER.match(text, j)
        if mk is None or (text[j] == "(" and _is_enumerator(text, j, mk.end())):
            break
        end = mk.end()
    return end


def _is_enumerator(text: str, j: int, e: int) -> bool:
    """"(3)" after a period opens a list item when "(2)" came shortly before (or it is "(1)")."""
    inner = text[j + 1:e - 1]
    if not inner.isdigit():
        return False
    num = int(inner)
    return num <= 1 or text.rfind(f"({num - 1})", max(0, j - 1500), j) >= 0


def _next_kind(text: str, j: int, idx) -> int:
    """Classify the word that starts at ``j`` (after whitespace) as a sentence start or not."""
    c = text[j]
    if c.isupper():
        if text.startswith(".", j + 1):
            return _UPPER  # an initial ("J. Smith"): the word is the letter alone, never an opener
        w = _WORD.match(text, j)
        word = w.group() if w else c
        if word in idx.starters and not (len(word) == 1 and text.startswith(".", j + 1)):
            return _STARTER
        return _UPPER
    if c.isdigit():
        return _DIGIT
    if c.islower():
        if "\u03b1" <= c <= "\u03c9" or c == "\u00b5":  # Greek lower case opens sentences ("α-Synuclein")
            return _LOWERSTART
        m = _LOWER_KIND.match(text, j)
        if m is None:
            return _LOWER
        group = m.lastgroup
        if group == "opener" or m.group(group) in (  # type: ignore[arg-type]
                idx.lowercase_prefixes if group == "prefix" else idx.lowercase_openers):
            return _LOWERSTART
        return _LOWER
    if c in _OPENERS:
        if c == "(" and (_STEREO.match(text, j) or _LABEL.match(text, j)):
            return _LOWERSTART
        if j + 1 < len(text):
            c2 = text[j + 1]
            if c2.isupper() or c2.isdigit():
                return _UPPER
            if c2 in _OPENERS and j + 2 < len(text) and (text[j + 2].isupper() or text[j + 2].isdigit()):
                return _UPPER
        return _OTHER
    if c in _BULLETS and j + 1 < len(text) and (text[j + 1].isspace() or text[j + 1] == c
                                                 or c in _FOOTNOTE_MARKS and (text[j + 1].isalpha() or text[j + 1] == ",")):
        return _UPPER
    return _OTHER


_NOT_PROSE = re.compile(r"[/@:\\_=]|www|http|\.[A-Za-z]{2,4}\.")


def _nospace_splits(text: str, p: int, idx) -> bool:
    """"XbaI.Hybridization": a sentence end with the space lost, unless the chunk is a URL, a path, an
    e-mail address or a dotted name, or the word before the period is an abbreviation."""
    lo = p - _TOKEN_BACK_LIMIT if p > _TOKEN_BACK_LIMIT else 0
    ws = p
    while ws > lo and not text[ws - 1].isspace():
        ws -= 1
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
    offset past the period and a citation number glued to it)?"""
    if nxt == _END:
        return True
    lo = p - _TOKEN_BACK_LIMIT if p > _TOKEN_BACK_LIMIT else 0
    ws = p
    while ws > lo and not text[ws - 1].isspace():
        ws -= 1
    word_start = ws
    while word_start < p and text[word_start] in _OPENERS:
        word_start += 1
    if p - word_start > 1 and _OPEN_BRACKET.search(text, word_start, p):
        inner = max(text.rfind("(", word_start, p), text.rfind("[", word_start, p))
        if text.find(")", inner, p) < 0 and text.find("]", inner, p) < 0:
            word_start = inner + 1  # "2(Fig." -> "Fig."
    word = text[word_start:p]
    key = word + "."
    kind = None
    multi = idx.multiword.get(key)
    if multi:
        for phrase, k in multi:
            b = p + 1 - len(phrase)
            if b >= 0 and text.startswith(phrase, b) and (b == 0 or not text[b - 1].isalnum()):
                kind = k
                break
    if kind is None:
        kind = idx.kinds.get(key)
    if nxt == _DIGIT and key in idx.measure_abbreviations and _after_number(text, ws):
        return False  # "2 lb. 4 oz.", "5 ft. 6 in.": a measure in two units
    if kind is None and word:
        # (a label is ASCII but for the digits, which may be any decimal digits: cheap tests before the regex)
        if ws == sent_start and (word[0] < "{" or word[0].isdecimal()) and (
                (len(word) <= 3 and word.isdecimal()) or _LIST_LABEL.match(word)):
            return False  # "1. Dissolve", "2.1. Materials", "iii. ..."
        if len(word) == 1 and word.isupper():
            # "373.15 K." and "type I." end sentences like words; "J. R. R. Tolkien" is a name
            if word == "I":
                kind = NAME if _after_given_name(text, ws) else EITHER  # "Albert I. Jones" vs "you and I. Did"
            else:
                kind = EITHER if (word != "L" and word_start == ws and _after_word(text, ws, idx)
                                  and not _CITATION_NEXT.match(text, p + 1)) else NAME
        elif "." in word and word[-1].isalpha() and word.replace(".", "").replace("-", "").isalpha():
            kind = NAME if word[0].isupper() else EITHER         # "U.S." vs "i.p."
    if kind is None:
        # (the commonest case, a plain word: only the checks below that can apply to it)
        if nxt == _STARTER:
            return True
        if word[:1].isupper():
            if text.find("(", p + 1, p + 3) >= 0 and _BRACKET_GOES_ON.match(text, p + 1):
                return False  # "Calocedrus decurrens Torr. (California incense-cedar), Cupressus ..."
            if word[1:].islower() and word.isalpha() and _CITATION_NEXT.match(text, p + 1):
                return False  # an unlisted journal abbreviation: "J. Pharm. Biomed. Anal. 2019, 5, 1"
        return nxt in _SPLIT_AFTER_WORD
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


def _newline_splits(text: str, i: int, j: int, last_cut: int) -> bool:
    """A single newline is a boundary after a heading-like line or before a list item / bullet, not inside
    prose hard-wrapped at a fixed width."""
    k = _NONWS.search(text, j)
    if k is None:
        return False
    ks = k.start()
    c = text[ks]
    if c in _BULLETS or c in _DASHES:
        # "• item", "- item"; a hash or dash glued to a word ("#G0", "−1") is text, not a bullet
        return c not in "#-\u2212" or text[ks + 1:ks + 2].isspace()
    list_item = _LIST_LABEL_LINE.match(text, ks) is not None
    line_start = text.rfind("\n", last_cut if last_cut > i - 81 else i - 81, i) + 1
    if line_start == 0:
        if i - 81 > last_cut:
            return list_item  # the line is long: hard-wrapped prose, not a heading
        if last_cut > 0 and not text[last_cut - 1].isspace() \
                and _MID_LINE_CUT.match(text, last_cut) and not text[last_cut:i].strip()[:1].isdigit():
            # (line_start == 0 here means no newline since the last cut, which is at most 81 characters back)
            return False  # a sentence ended earlier on this physical line: prose wrapped at a fixed width
    if text[i - 1] == ".":
        return list_item  # (the test below on the stripped line, without building it)
    line = text[line_start if line_start > last_cut else last_cut:i].strip()
    if not line or len(line) > 80:
        return list_item
    if line[-1] == ".":
        return list_item  # the period was read already (and "LOD vs.\n4 ng" or "cv.\nPinot Noir" go on)
    if line_start > 0 and len(line) >= 40 and line[-1] not in _TERMINALS \
            and not _LIST_LABEL_LINE.match(text, line_start):
        # a long line after another line that did not end a sentence either: prose wrapped at a fixed width
        # ("... are listed in Table\n4. The oil ..."; a heading stands alone: after a blank line, a sentence
        # end or at the top)
        e = line_start - 1
        b = text.rfind("\n", max(0, e - 200), e) + 1
        prev = text[b:e].rstrip()
        if len(prev) >= 40 and prev[-1] not in _TERMINALS and prev[-1] not in ":)":
            return False
    if list_item:
        return True
    if line[-1] in ",;:-(\u2013\u2014&/" or line[-1].islower() and len(line.split()) > 6:
        return False  # a list lead-in, or prose wrapped at the end of a line
    return c.isupper() or c.isdigit()


_MID_LINE_CUT = re.compile(r"[^\S\n]")  # the cut is followed by a space on the same line, not by a newline
_LIST_LABEL_LINE = re.compile(r"(?:\d{1,3}[.)]|\(?[ivxIVX]{1,5}\)|\(?[a-zA-Z]\)|\(\d{1,3}\))\s")


def _spans(text: str, cuts: list[int]) -> list[tuple[int, int]]:
    """Strip the pieces between cut points; drop whitespace-only pieces."""
    # (str.strip and the regex ``\s`` agree on what is whitespace: both use Unicode ``isspace``)
    out = []  # type: ignore[var-annotated]
    append = out.append
    prev = 0
    for c in cuts:
        piece = text[prev:c].lstrip()
        if piece:
            s = c - len(piece)
            append((s, s + len(piece.rstrip())))
        prev = c
    piece = text[prev:].lstrip()
    if piece:
        s = len(text) - len(piece)
        append((s, s + len(piece.rstrip())))
    return out


# ---------------------------------------------------------------- structural pre-pass
# Inline list items ("1. The first item 2. The second item", "a) ... b) ...", "• 9. ... • 10. ...") and spaced
# ellipses (". . .") are found before the main pass: a list item's marker is never a sentence end and the
# boundary belongs before the next item's marker; a spaced ellipsis inside a sentence is never a boundary.
_LIST_BULLETS = "\u2022\u25aa\u25cf\u25e6\u2023\u2043\u25a0\u25a1\u27a2*\u2013\u2014-"
# the separator after a list label, "1. " "1.) " "1) " "a. " "ii) ", before a word that is not lower case (the
# label itself is read backwards from it; each pattern opens with a literal, which ``re`` searches for fast)
# (the look-behinds after the literal ". " keep only periods after a 1-3 character label)
_ITEM_SEPARATORS = (
    re.compile(r"\. (?:(?<=(?<![a-z\d])[\da-z]\. )|(?<=(?<![a-z\d])(?:\d\d|[ivx]{2})\. )"
               r"|(?<=(?<![a-z\d])(?:\d{3}|[ivx]{3})\. )|(?<=(?<![a-z])[ivx]{4}\. )|(?<=(?<![a-z])[ivx]{5}\. ))"
               r"(?=[^\S\n]*+[^\sa-z])"),
    re.compile(r"\) (?=[^\S\n]*+[^\sa-z])"),
)
# an item's marker opens a sentence: at the start of the text or a line, or after a sentence end
_ITEM_OPENS = re.compile(rf"(?:\A|\n|[{_TERMINALS}][{_CLOSERS}]*)[^\S\n]*\Z")
# words after which a number is a reference, not the next item ("Table 2.", "step 3.", "entries 1 and 2.")
_NUMBER_TAKERS = frozenset({"step", "steps", "entry", "entries", "compound", "compounds", "section", "sections",
                            "page", "pages", "ref", "refs", "eq", "eqs", "equation", "equations", "lane", "lanes",
                            "panel", "panels", "day", "days", "week", "weeks", "month", "months", "year", "years",
                            "and", "or", "to", "of", "than", "from", "with", "between", "vs", "no", "vol", "fig",
                            "figs", "table", "tables", "scheme", "schemes", "figure", "figures", "type", "group",
                            "phase", "stage", "class", "grade", "level", "chapter", "part", "appendix",
                            "sample", "samples", "run", "runs", "experiment", "experiments", "patient",
                            "patients", "at", "by", "in", "on", "for", "per", "about", "around", "only", "also"})
_ITEM_TEXT = re.compile(r"[^\W\d_]{2}")  # an item has words between its marker and the next one
_ROMAN = {"i": 1, "ii": 2, "iii": 3, "iv": 4, "v": 5, "vi": 6, "vii": 7, "viii": 8, "ix": 9, "x": 10, "xi": 11,
          "xii": 12, "xiii": 13, "xiv": 14, "xv": 15}
# a spaced ellipsis not run into a fourth period (the fourth one ends a sentence: "... a period . . . . Next")
_SPACED_ELLIPSIS = re.compile(r"(?<!\. )(?<!\.)\.(?:[^\S\n]\.){2}(?=[^\S\n]++(?!\.))")
# a sentence that ends before a spaced ellipsis that opens the next one: "... compounds. . . . The practice"
_END_BEFORE_ELLIPSIS = re.compile(r"(?<=[^\W\d_])\.(?=[^\S\n]\.[^\S\n]\.[^\S\n]\.[^\S\n]+[A-Z\"'\u201c\u2018(\[])")


def _item_values(label: str) -> tuple[tuple[str, int], ...]:
    """(kind, value) readings of a list label: "3" -> digit 3, "c" -> letter 3, "ii" -> roman 2, "i" -> both."""
    if label.isdigit():
        return (("digit", int(label)),)
    out = []
    if len(label) == 1:
        out.append(("letter", ord(label) - 96))
    if label in _ROMAN:
        out.append(("roman", _ROMAN[label]))
    return tuple(out)


def _word_before(text: str, p: int) -> str:
    """The word (letters) that ends at the last non-space character before ``p``; '' after a non-letter."""
    e = p
    while e > 0 and text[e - 1].isspace():
        e -= 1
    b = e
    while b > 0 and e - b < 24 and text[b - 1].isalpha():
        b -= 1
    return text[b:e]


def _item_marker(text: str, p: int) -> tuple[int, str, str] | None:
    """(start, bullet, label) of a list item marker whose separator starts at ``p``, else None: a label
    ("12", "c", "iv") after the start of the text, whitespace or a bullet ("• 9.", "\u20439.")."""
    k = p
    while k > 0 and p - k < 5 and ("0" <= text[k - 1] <= "9" or "a" <= text[k - 1] <= "z"):
        k -= 1
    label = text[k:p]
    if not label or not ((label.isdigit() and len(label) <= 3) or len(label) == 1 or label in _ROMAN) \
            or (label.isdigit() != label[0].isdigit()):
        return None
    if k == 0 or text[k - 1].isspace() and (k < 2 or text[k - 2] not in _LIST_BULLETS
                                             or k > 2 and not text[k - 3].isspace()):
        return k, "", label
    b = k - 1 if text[k - 1] in _LIST_BULLETS else k - 2 if text[k - 1] == " " else -1
    if b >= 0 and text[b] in _LIST_BULLETS and (b == 0 or text[b - 1].isspace()):
        return b, text[b], label
    return None


# every list label with its separator (for the check in C on long texts)
_LABELS = re.compile(rf" (?:[{re.escape(_LIST_BULLETS)}] ?)?(\d{{1,3}}|[ivx]{{1,5}}|[a-z])(?:\.\)?|\)) ")


def _labels_have_neighbours(text: str) -> bool:
    """Do two list labels of consecutive values ("1." and "2.", "c)" and "d)") occur anywhere in ``text``?"""
    present = {reading for label in set(_LABELS.findall(" " + text)) for reading in _item_values(label)}
    return any((kind, value + 1) in present for kind, value in present)


def _item_opens(text: str, s: int) -> bool:
    """Does a list item's marker at ``s`` open a sentence: at the start of the text or of a line, or after a
    sentence end that is not an abbreviation's period?"""
    return _ITEM_OPENS.search(text, s - 8 if s > 8 else 0, s) is not None and _opens_after_sentence(text, s)


def _opens_after_sentence(text: str, s: int) -> bool:
    """Not after an abbreviation's period ("in Fig. 3. This file ...")."""
    e = s
    while e > 0 and text[e - 1].isspace():
        e -= 1
    if e == 0 or text[e - 1] != ".":
        return True
    word = _word_before(text, e - 1)
    return not word or DEFAULT_RULES.index.kinds.get(word + ".") is None


def _inline_items(text: str) -> tuple[list[tuple[int, int]], list[int]]:
    """Markers of inline list items (spans where no boundary falls) and the cuts before items 2, 3, ....

    An item follows the item before it in the same style (bullet, separator, numbering) and value + 1; the
    first item opens a sentence; a later one follows a plain word, not a word that takes a number ("Table 2.")
    and not a comma ("1) heating, 2) cooling" is one sentence)."""
    quiet: list[tuple[int, int]] = []
    cuts: list[int] = []
    open_items: dict[tuple, tuple[int, int, int]] = {}  # style -> (value, start, marker end) of the last item
    if len(text) > 200_000 and not _labels_have_neighbours(text):
        return quiet, cuts  # (a long text, such as "1. 1. 1. ...": one pass in C rules lists out)
    markers = []  # (marker start, separator start, marker end + 1, bullet, label)
    for pattern in _ITEM_SEPARATORS:
        for m in pattern.finditer(text):
            p = m.start()
            if p and text[p - 1] == "." and text[p] == ")":
                p -= 1  # "1.) "
            if not p or not ("0" <= text[p - 1] <= "9" or "a" <= text[p - 1] <= "z"):
                continue
            if p >= 2 and "a" <= text[p - 2] <= "z" and text[p - 1] not in "ivx":
                continue  # the end of a word, not a label
            marker = _item_marker(text, p)
            if marker is not None:
                markers.append((marker[0], p, m.end() + 1, marker[1], marker[2]))
    if len(markers) < 2:
        return quiet, cuts
    # (cheap filter first: only a marker with a neighbouring value anywhere can be part of a list)
    markers.sort()
    readings = [_item_values(label) for *_, label in markers]
    present = {reading for values in readings for reading in values}
    for (s, p, e, bullet, label), values in zip(markers, readings):
        values = [(kind, value) for kind, value in values  # type: ignore[assignment]
                  if (kind, value + 1) in present or (kind, value - 1) in present]
        if not values:
            continue
        opens = _item_opens(text, s)
        for kind, value in values:
            style = (bullet, text[p:e - 2], kind)
            last = open_items.get(style)
            if last is not None and last[0] == value - 1 and s - last[1] < 600 \
                    and _ITEM_TEXT.search(text, last[2], s):
                word = _word_before(text, s)
                if (word and word[0].islower() and word not in _NUMBER_TAKERS) or (opens and text[s - 1].isspace()):
                    if not cuts or cuts[-1] != last[1]:
                        quiet.append((last[1], last[2]))  # the first item's own marker
                    quiet.append((s, e))
                    cuts.append(s)
                    open_items[style] = (value, s, e)
                    break
            if opens:
                open_items[style] = (value, s, e)
    if cuts and quiet:
        quiet.sort()
    return quiet, cuts


def _structure(text: str) -> tuple[list[tuple[int, int]], list[int]]:
    """Spans where no boundary falls (inline list markers, spaced ellipses) and cuts they force."""
    quiet, cuts = _inline_items(text)
    if ". ." in text:
        quiet += [(m.start(), m.end() + 1) for m in _SPACED_ELLIPSIS.finditer(text)]
        for m in _END_BEFORE_ELLIPSIS.finditer(text):
            cuts.append(m.end())
            quiet.append((m.end(), m.end() + 7))
        quiet.sort()
        cuts.sort()
    return quiet, cuts

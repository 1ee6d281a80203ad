"""The sentence splitter: :func:`split_sentences` and its one left-to-right pass over the candidate boundaries
(:func:`_cut_points`, :func:`_decide`, :func:`_ends_at`), then the stripped spans.
"""

from __future__ import annotations

import heapq
from bisect import bisect_right
from typing import Sequence

from chemref.nlp.rules import SentenceRules
from chemref.nlp.sentences.newlines import _newline_splits
from chemref.nlp.sentences.patterns import (
    _CANDIDATE,
    _CAPITALISED,
    _DIGIT,
    _LOWER,
    _LOWER_MAYBE_START,
    _NEXT,
    _NONWS,
    _PLAIN_SYMBOLS,
    _SPLIT_AFTER_WORD,
    _STARTER,
    _SUP,
    _UPPER,
    _WORD,
    _YEAR_IN_BRACKETS,
    DEFAULT_RULES,
)
from chemref.nlp.sentences.periods import (
    _after_period,
    _citation_opens_sentence,
    _lower_kind,
    _next_kind,
    _nospace_splits,
    _period_ends,
    _split_vetoed,
)
from chemref.nlp.sentences.protected import (
    _extend_over_markers,
    _GluedAnchor,
    _name_ends_in_digits,
    _protected_spans,
    _start_of,
    _starts_protected,
)
from chemref.nlp.sentences.structure import _structure


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
    between them): the candidates inside quiet spans and anchors are passed over, newlines, lost spaces and
    glued periods are decided by their own rules (:data:`_BREAK_RULES`), and terminal punctuation is passed
    to :func:`_decide` unless a symbol follows it (the fast path), or to :func:`_ends_at` when there is nothing
    to move its end over. (The tests every terminal candidate meets stay inline in this loop: it is the hot
    path.)"""
    q_starts = _starts_of(quiet)
    p_starts = _starts_of(prot)
    p_first, p_last = _bounds(prot)
    n = len(text)
    cuts: list[int] = []
    last_cut = 0
    sent_start = -1               # first non-space offset after last_cut, computed lazily
    skip_to = 0                   # candidates before this offset were swallowed by an extension
    # (hot loop: module-level look-ups bound to locals; the most common outcomes are tested first)
    append = cuts.append
    plain = _PLAIN_SYMBOLS
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
        term = group in _TERMINAL_GROUPS  # ("next": the group in the look-ahead closed last)
        if p_first <= i < p_last and _inside_anchor(prot, p_starts, i, term, m):
            continue
        if not term:
            if group == "nl" and i <= last_cut:
                continue  # "end.\nNext": a newline right after a cut changes nothing
            cut, sent_start = _BREAK_RULES[group](text, m, last_cut, sent_start, prot, p_starts, p_first, p_last,
                                                  idx)
        else:
            run_end = m.end(2)
            end = m.end()
            if run_end - i > 1 and _omission(text, i, run_end):
                continue
            j = m.start(_NEXT_GROUP)  # (_CANDIDATE's look-ahead went over the spaces after the punctuation already)
            if j < 0:
                j = _first_non_space(text, end)
            if j == n:
                break  # only whitespace is left: the end of the text closes the last sentence anyway
            c = text[j]
            starts_prot = prot and _anchor_follows(text, prot, p_starts, j, end)
            if not starts_prot and c in plain:
                continue  # fast path: a symbol follows, never a boundary (_CANDIDATE passed over plain words)
            if starts_prot or c in "[(,;" or p_first < end < p_last:  # (c is one character)
                cut, sent_start = _decide(text, i, j, "term", False, starts_prot, run_end, end,  # type: ignore[arg-type]
                                          last_cut, sent_start, prot, p_starts, p_first, p_last, idx)
            else:  # nothing to move the end over
                cut, sent_start = _ends_at(text, i, j, j, "term", False, run_end, end, end, last_cut, sent_start,
                                           prot, p_starts, idx)
        if cut is None:
            continue
        if cut == _STOP:
            break
        append(cut)
        last_cut = skip_to = cut
    return cuts


#: the groups of :data:`_CANDIDATE` that match terminal punctuation
_TERMINAL_GROUPS = frozenset({"term", "next"})
#: the number of the group ``next`` of :data:`_CANDIDATE` (read by number: no look-up of its name per match)
_NEXT_GROUP = _CANDIDATE.groupindex["next"]


def _starts_of(spans: list[tuple[int, int]]) -> list[int]:
    return [s for s, _ in spans]


def _bounds(prot: list[tuple[int, int]]) -> tuple[int, int]:
    """The protected spans are sorted and disjoint: outside ``[first start, last end)`` no offset is inside
    one."""
    return (prot[0][0], prot[-1][1]) if prot else (0, 0)


def _inside_anchor(prot: list[tuple[int, int]], p_starts: list[int], i: int, term: bool, m) -> bool:
    """Is the candidate ``m`` at ``i`` inside an anchor? Not when it is terminal punctuation (``term``) whose
    match ends at or past the anchor's end: an anchor that ends with the period, "145.", may end a sentence."""
    k = bisect_right(p_starts, i) - 1
    return k >= 0 and prot[k][1] > i and not (term and m.end() >= prot[k][1])


def _anchor_follows(text: str, prot: list[tuple[int, int]], p_starts: list[int], j: int, end: int) -> bool:
    """Does a protected anchor start at ``j``, the next non-space character after the punctuation that ends
    at ``end`` (glued to it, or opening with a bracket, a digit or a superscript)?"""
    c = text[j]
    return (j == end or c in "([" or c.isdigit() or c in _SUP) and _starts_protected(prot, p_starts, j) is not None


def _omission(text: str, i: int, run_end: int) -> bool:
    """"[...]": a run of periods in brackets is an omission in a quotation, not a sentence end."""
    return i > 0 and text[i - 1] in "[(" and text.startswith(("]", ")"), run_end)


def _newline_cut(text: str, m, last_cut: int, sent_start: int, prot, p_starts, p_first, p_last,
                 idx) -> tuple[int | None, int]:
    """A newline run (at ``m``, after the last cut) is a boundary when it holds a blank line, or by
    :func:`_newline_splits`; the next sentence then opens at the non-space character after the run."""
    i = m.start()
    e = m.end()
    if (e - i > 1 and m.group().count("\n") > 1) or _newline_splits(text, i, e, last_cut):
        return i, e if e < len(text) and not text[e].isspace() else -1
    return None, sent_start


def _nospace_cut(text: str, m, last_cut: int, sent_start: int, prot, p_starts, p_first, p_last,
                 idx) -> tuple[int | None, int]:
    """A period with the space after it lost ("XbaI.Hybridization"): the match looked ahead to a capital
    letter, which opens the next sentence."""
    i = m.start()
    if _nospace_splits(text, i, idx):
        return i + 1, i + 1
    return None, sent_start


def _glued_cut(text: str, m, last_cut: int, sent_start: int, prot: list[tuple[int, int]], p_starts: list[int],
               p_first: int, p_last: int, idx) -> tuple[int | None, int]:
    """A period glued to a citation number ("diffusion.7 Studies", "al.)7", "Ser133.1,2 This"): decided by
    :func:`_decide` on the next non-space character."""
    i = m.start()
    group = m.lastgroup
    end = i + 2 if group == "glued_close" else i + 1
    nm = _NEXT.match(text, end)
    if nm is None:
        return _STOP, sent_start
    j = nm.start(1)
    starts_prot = bool(prot) and _anchor_follows(text, prot, p_starts, j, end)
    return _decide(text, i, j, group, True, starts_prot, i + 1, end, last_cut, sent_start, prot, p_starts,
                   p_first, p_last, idx)


#: the candidates other than terminal punctuation, each with its rule: ``rule(text, match, last_cut, sent_start,
#: prot, p_starts, p_first, p_last, idx) -> (cut, sent_start)`` as :func:`_decide` returns
_BREAK_RULES = {"nl": _newline_cut, "nospace": _nospace_cut, "glued": _glued_cut, "glued_close": _glued_cut,
                "glued_num": _glued_cut}


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
    while p_first < end < p_last:
        k = bisect_right(p_starts, end - 1) - 1
        if not (k >= 0 and prot[k][0] < end < prot[k][1]):
            break
        # the end fell inside an anchor ("diffusion.7 A" with "7 A" protected): go past it, and past the next
        # one if the markers after it end inside that one too (each turn moves the end forward)
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
    # (ASCII capitals, digits and lower-case letters: _next_kind's answer without its tests of the other classes)
    if "A" <= c <= "Z":
        if text.startswith(".", j + 1):
            nxt = _UPPER  # an initial
        else:
            w = _WORD.match(text, j)
            nxt = _STARTER if (w.group() if w else c) in idx.starters else _UPPER
    elif "0" <= c <= "9":
        nxt = _DIGIT
    elif "a" <= c <= "z":
        nxt = _lower_kind(text, j, idx)
    else:
        nxt = _next_kind(text, j, idx)
    if glued and group == "glued_num" and _decimal_not_citation(text, i, j, nxt, prot, p_starts):
        return None, sent_start  # "133.1,2 This" is a citation, "Section 3.2 Results" is not
    if raw_j == j:
        narrative = False
        raw_nxt = nxt
    else:
        narrative, raw_nxt = _kind_after_marker(text, raw_j, glued, nxt, idx)
    if nxt >= _LOWER and raw_nxt >= _LOWER:
        return None, sent_start  # a lower-case word or a symbol follows: no rule below splits (nor moves the end)
    looked_from = end  # (where the search for the next non-space character started)
    split: bool | None
    if run_end - i == 1 and text[i] == ".":
        if sent_start < last_cut:
            sent_start = _first_non_space(text, last_cut)
        if nxt != _DIGIT and end == punct_end:  # (the commonest case: no citation number to read past)
            split = _after_period(text, i, nxt, raw_nxt, sent_start, idx, i + 1)
        else:
            split, end = _period_ends(text, i, j, nxt, raw_nxt, narrative, end, punct_end, sent_start, idx)
            if split is None:
                return _STOP, sent_start  # a citation number closes the text and belongs to the last sentence
    else:  # ! ? … and runs such as "..." or "?!"
        split = nxt in _SPLIT_AFTER_WORD
    # (before a sentence opener, a capitalised word, no veto applies: _split_vetoed's tests need a bracket there)
    if not split or (nxt != _STARTER and _split_vetoed(text, i, run_end, punct_end, end, text[j], j, nxt, last_cut)) \
            or end <= last_cut:
        return None, sent_start
    # (when the next non-space character was looked up from this very end, it opens the next sentence)
    return end, j if looked_from == end else -1


def _decimal_not_citation(text: str, i: int, j: int, nxt: int, prot: list[tuple[int, int]],
                          p_starts: list[int]) -> bool:
    """Are the digits glued to the period at ``i`` after a number ("Section 3.2 Results") decimals rather than
    a citation ("at Ser133.1,2 This event")? A citation when a sentence opener follows, when a protected anchor
    starts after the period, or after a name that ends in digits before a capitalised word."""
    return nxt != _STARTER and not (prot and _starts_protected(prot, p_starts, i + 1) is not None) and not (
        _name_ends_in_digits(text, i) and _CAPITALISED.match(text, j))


def _kind_after_marker(text: str, raw_j: int, glued: bool, nxt: int, idx) -> tuple[bool, int]:
    """``(narrative, kind)`` of the word right after the punctuation (at ``raw_j``) when a marker was passed
    over: "et al. (2005) A ..." is a name followed by a year, whatever comes after the marker (only a
    parenthesised marker can be such a year: "et al. [12] In this study" goes on after it); a glued citation
    number is not a word ("Koshland et al.23 Conformational ...")."""
    narrative = not glued and _YEAR_IN_BRACKETS.match(text, raw_j) is not None
    return narrative, _next_kind(text, raw_j, idx) if narrative else nxt


def _first_non_space(text: str, pos: int) -> int:
    """The first non-space offset at or after ``pos`` (the length of the text when none is left)."""
    ss = _NONWS.search(text, pos)
    return ss.start() if ss else len(text)



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

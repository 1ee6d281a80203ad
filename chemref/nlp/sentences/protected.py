"""Protected spans (citation anchors): merged and sorted, periods glued to them as candidates, and the end of a
sentence moved over the citation markers (and list enumerators) that follow its punctuation.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from typing import Sequence

from chemref.nlp.sentences.patterns import _GLUED_DIGITS, _GLUED_SPACED, _MARKER, _SPACES, _SUP


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

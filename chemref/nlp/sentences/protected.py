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
        moved = _past_glued(text, end, prot, p_starts)
        if moved is None:
            return end
        end = moved
    n = len(text)
    while end < n:
        j = _SPACES.match(text, end).end()  # type: ignore[union-attr]
        anchor_end = _anchor_after(text, end, j, prot, p_starts) if prot else None
        if anchor_end is not None:
            end = anchor_end
            continue
        mk = _MARKER.match(text, j)
        if mk is None or (text[j] == "(" and _is_enumerator(text, j, mk.end())):
            break
        end = mk.end()
    return end


def _past_glued(text: str, end: int, prot: list[tuple[int, int]], p_starts: list[int]) -> int | None:
    """The end past the citation glued to the period that ends at ``end``: its digits ("diffusion.7", and
    "heating.11 12 Further work", a space-separated list), or a protected anchor; ``end`` itself before a
    bracket, whose marker ("al.(43)") the caller reads; None when nothing is glued."""
    g = _GLUED_DIGITS.match(text, end)
    if g is not None:
        more = _GLUED_SPACED.match(text, g.end())
        return g.end() if more is None else more.end()
    anchor_end = _starts_protected(prot, p_starts, end) if prot else None
    if anchor_end is not None:
        return anchor_end  # a protected anchor glued to the period ("diffusion.7" given by the JATS reader)
    return end if end < len(text) and text[end] in "([" else None


def _anchor_after(text: str, end: int, j: int, prot: list[tuple[int, int]], p_starts: list[int]) -> int | None:
    """The end of the protected anchor that belongs to the sentence ending at ``end`` (``j``: the next
    character after spaces), else None. After "," or ";" an anchor continues a list of glued ones ("7,8",
    "5, 16"); an anchor glued to the period or a bracketed or numeric one belongs to the sentence before; a
    narrative one ("... absent. Kwong et al. (2008) have ...") opens the next sentence."""
    n = len(text)
    if j >= n:
        return None
    c = text[j]
    if c in ",;" and j + 1 < n:
        after = _starts_protected(prot, p_starts, _SPACES.match(text, j + 1).end())  # type: ignore[union-attr]
        if after is not None:
            return after
    if j == end or c in "([" or c.isdigit() or c in _SUP:
        return _starts_protected(prot, p_starts, j)
    return None


def _is_enumerator(text: str, j: int, e: int) -> bool:
    """"(3)" after a period opens a list item when "(2)" came shortly before (or it is "(1)")."""
    inner = text[j + 1:e - 1]
    if not inner.isdigit():
        return False
    num = int(inner)
    return num <= 1 or text.rfind(f"({num - 1})", max(0, j - 1500), j) >= 0

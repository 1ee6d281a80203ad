"""When a single newline is a sentence boundary: after a heading-like line or before a list item, not inside
prose hard-wrapped at a fixed width.
"""

from __future__ import annotations

import re

from chemref.nlp.sentences.patterns import _BULLETS, _DASHES, _NONWS, _TERMINALS


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
        if _sentence_ended_on_line(text, i, last_cut):
            return False  # prose wrapped at a fixed width
    if text[i - 1] == ".":
        return list_item  # (the test below on the stripped line, without building it)
    line = text[line_start if line_start > last_cut else last_cut:i].strip()
    if not line or len(line) > 80 or line[-1] == ".":
        # (a period at the end was read already: "LOD vs.\n4 ng" or "cv.\nPinot Noir" go on)
        return list_item
    if line_start > 0 and _wrapped_after_prose(text, line, line_start):
        return False
    if list_item:
        return True
    if line[-1] in ",;:-(\u2013\u2014&/" or line[-1].islower() and len(line.split()) > 6:
        return False  # a list lead-in, or prose wrapped at the end of a line
    return c.isupper() or c.isdigit()


def _sentence_ended_on_line(text: str, i: int, last_cut: int) -> bool:
    """With no newline since the last cut (at most 81 characters back), did a sentence end earlier on the
    physical line of the newline at ``i``, a space after it?"""
    return last_cut > 0 and not text[last_cut - 1].isspace() \
        and _MID_LINE_CUT.match(text, last_cut) is not None and not text[last_cut:i].strip()[:1].isdigit()


def _wrapped_after_prose(text: str, line: str, line_start: int) -> bool:
    """Is the long ``line`` (starting at ``line_start``) prose wrapped at a fixed width: it does not end a
    sentence, nor does the line before it ("... are listed in Table\n4. The oil ..."; a heading stands alone:
    after a blank line, a sentence end or at the top)?"""
    if len(line) < 40 or line[-1] in _TERMINALS or _LIST_LABEL_LINE.match(text, line_start):
        return False
    e = line_start - 1
    b = text.rfind("\n", max(0, e - 200), e) + 1
    prev = text[b:e].rstrip()
    return len(prev) >= 40 and prev[-1] not in _TERMINALS and prev[-1] not in ":)"


_MID_LINE_CUT = re.compile(r"[^\S\n]")  # the cut is followed by a space on the same line, not by a newline
_LIST_LABEL_LINE = re.compile(r"(?:\d{1,3}[.)]|\(?[ivxIVX]{1,5}\)|\(?[a-zA-Z]\)|\(\d{1,3}\))\s")

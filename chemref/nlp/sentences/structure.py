"""The structural pre-pass: inline list items ("1. ... 2. ...", "a) ... b) ...") force a cut before each later
item's marker, and their markers and spaced ellipses (". . .") are quiet spans where no boundary falls.
"""

from __future__ import annotations

import re

from chemref.nlp.sentences.patterns import _CLOSERS, _TERMINALS, DEFAULT_RULES

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
    if len(text) > 200_000 and not _labels_have_neighbours(text):
        return [], []  # (a long text, such as "1. 1. 1. ...": one pass in C rules lists out)
    markers = _item_markers(text)
    if len(markers) < 2:
        return [], []
    return _chain_items(text, markers)


def _item_markers(text: str) -> list[tuple[int, int, int, str, str]]:
    """Every list item marker, sorted: ``(marker start, separator start, marker end + 1, bullet, label)``."""
    markers = []
    for pattern in _ITEM_SEPARATORS:
        for m in pattern.finditer(text):
            p = m.start()
            if p and text[p - 1] == "." and text[p] == ")":
                p -= 1  # "1.) "
            if _label_ends_at(text, p):
                marker = _item_marker(text, p)
                if marker is not None:
                    markers.append((marker[0], p, m.end() + 1, marker[1], marker[2]))
    markers.sort()
    return markers


def _label_ends_at(text: str, p: int) -> bool:
    """Can a list label end at ``p``: a digit or lower-case letter before it, not the end of a word (but for a
    roman numeral)?"""
    if not p or not ("0" <= text[p - 1] <= "9" or "a" <= text[p - 1] <= "z"):
        return False
    return not (p >= 2 and "a" <= text[p - 2] <= "z" and text[p - 1] not in "ivx")


def _chain_items(text: str, markers: list[tuple[int, int, int, str, str]]
                 ) -> tuple[list[tuple[int, int]], list[int]]:
    """:func:`_inline_items` on the sorted markers: each marker joins the open list of its style whose last
    value is one less (:func:`_next_item`), or opens one."""
    quiet: list[tuple[int, int]] = []
    cuts: list[int] = []
    open_items: dict[tuple, tuple[int, int, int]] = {}  # style -> (value, start, marker end) of the last item
    # (cheap filter first: only a marker with a neighbouring value anywhere can be part of a list)
    readings = [_item_values(label) for *_, label in markers]
    present = {reading for values in readings for reading in values}
    for (s, p, e, bullet, _label), values in zip(markers, readings):
        values = tuple((kind, value) for kind, value in values
                       if (kind, value + 1) in present or (kind, value - 1) in present)
        if not values:
            continue
        opens = _item_opens(text, s)
        for kind, value in values:
            style = (bullet, text[p:e - 2], kind)
            last = open_items.get(style)
            if last is not None and _next_item(text, last, value, s, opens):
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


def _next_item(text: str, last: tuple[int, int, int], value: int, s: int, opens: bool) -> bool:
    """Is the marker at ``s`` (of ``value``) the item after ``last`` (value, start, marker end): one more, less
    than 600 characters on with words between, after a plain word or opening a sentence?"""
    if last[0] != value - 1 or s - last[1] >= 600 or not _ITEM_TEXT.search(text, last[2], s):
        return False
    word = _word_before(text, s)
    return bool(word and word[0].islower() and word not in _NUMBER_TAKERS) or (opens and text[s - 1].isspace())


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

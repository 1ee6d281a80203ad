"""Authors' surnames and the title of a citation given as plain text (an unstructured ``mixed-citation``)."""

from __future__ import annotations

import re

from chemref.names import particle_pattern

__all__ = ["parse_unstructured_citation"]

# Unstructured ``mixed-citation`` text: an author list, then (maybe) a bracketed year, then the title up to the
# next sentence end. Author shapes: "Smith JA", "Smith, J. A.", "J. A. Smith", "van der Berg, K.", "Smith J-P".
_SURNAME = rf"(?:{particle_pattern(capitalised=False)}\s)*[A-Z][\w'\u2019\-]+"
_INITIALS = r"(?:[A-Z]\.?\s?-?){1,3}"
_AUTHOR = re.compile(
    rf"(?P<a>{_SURNAME}),?\s(?:{_INITIALS})(?![\w'])(?<!\s)(?!\s+[a-z])"  # Smith JA / Smith, J. A.
    rf"|(?:[A-Z]\.\s?-?){{1,3}}\s?(?P<b>{_SURNAME})(?![\w'])"      # J. A. Smith
)
_AUTHOR_SEPARATOR = re.compile(r"\s*(?:,|;|&|\band\b)\s*(?:and\s+|&\s*)?")
_ET_AL = re.compile(r",?\s*et\s+al\.?")
_AFTER_AUTHORS = re.compile(r"[\s.,:;]*(?:\(\s*(?:1[5-9]\d\d|20\d\d)[a-z]?\s*\)[\s.,:;]*)?")
# the title ends at a period before a space (not after an initial)
# (a question mark ends it only before an abbreviated journal word: "Why blue? Chem. Teach." but "Why? A survey")
_TITLE_END = re.compile(r"(?<![A-Z])\.(?=\s|$)|(?<=[A-Z]{2})\.(?=\s|$)|[?!](?=\s+[A-Z][a-z]{0,11}\.|$)")


def parse_unstructured_citation(text: str) -> tuple[list[str], str | None]:
    """Surnames and title of a citation given as plain text ("Smith JA, Lee K (2019) A title. J Chem 4:1").

    Returns ``([], None)`` when the text does not open with an author list; the title is None when what
    follows the authors is no title (an abbreviated journal name, as in "Smith, J. J. Am. Chem. Soc. 2019")."""
    text = " ".join(text.split())
    names: list[str] = []
    pos = 0
    while True:
        m = _AUTHOR.match(text, pos)
        if m is None:
            break
        names.append((m.group("a") or m.group("b")).strip())
        pos = m.end()
        sep = _AUTHOR_SEPARATOR.match(text, pos)
        if sep is None or sep.end() == pos:
            break
        if _AUTHOR.match(text, sep.end()) is None:
            break
        pos = sep.end()
    if not names:
        return [], None
    etal = _ET_AL.match(text, pos)
    if etal:
        pos = etal.end()
    after = _AFTER_AUTHORS.match(text, pos)
    return names, _title_after(text, after.end() if after else pos)


_JOURNAL_TAIL = re.compile(r",\s+[A-Z][a-z]{0,11}\Z")


def _title_after(text: str, pos: int) -> str | None:
    end = _TITLE_END.search(text, pos)
    title = text[pos:end.start() + (1 if end and text[end.start()] in "?!" else 0) if end else len(text)].strip()
    if end is not None and text[end.start()] == ".":
        title = _JOURNAL_TAIL.sub("", title)  # "A title, Chem. Sci." (the journal follows a comma)
    words = title.split()
    if len(words) < 3 or words[0].endswith(".") or not words[0][:1].isalpha():
        return None
    return title


"""In-text citation anchors from the citation ``<xref>`` events of one paragraph.

* every rid is mapped to its ``<ref>`` (ids of citation elements inside a ref count too);
* ranges are merged into one anchor and expanded in reference-list order: ``3–5`` as two xrefs
  joined by a dash (brackets inside or outside, wrapped in bold or sup), with a hidden empty
  middle xref, one multi-rid xref with range text, or one xref whose text alone is a range;
* expansion is bounded, so the anchors stay linear in the input: a range spanning more than
  :data:`MAX_RANGE` references, or any range once the article's ranges have added :data:`MAX_EXPANDED`
  references in all (:class:`RangeBudget`), cites only its ends, with a diagnostic;
* an author-year citation whose year alone is linked takes the author names into its span:
  "(Goodenough and Kim, 2010)" -> "Goodenough and Kim, 2010"; "Smith et al. (2010)" likewise.
"""

from __future__ import annotations

import re

from chemref.jats.model import CitationAnchor, Diagnostic
from chemref.jats.references import ReferenceList
from chemref.jats.text import XrefEvent
from chemref.names import particle_pattern

__all__ = ["MAX_EXPANDED", "MAX_RANGE", "RangeBudget", "resolve_anchors"]

#: The most references one range adds between its ends (real ranges add at most a few dozen).
MAX_RANGE = 500
#: The most references the ranges of one article add in all.
MAX_EXPANDED = 20_000
#: Ranges over :data:`MAX_RANGE` named one by one in diagnostics; further ones are counted in the last.
_NAMED_TOO_LONG = 20

_DASHES = "-\u2010\u2011\u2012\u2013\u2014\u2212"
_DASH_SET = frozenset(_DASHES)
# Numbers of up to 4,000 digits (Python converts up to 4,300 to int): a label of any real length, never a limit
# that turns a range of long labels into two citations without a word.
_BRACKETS = str.maketrans("", "", " \t()[]")
_NUMERIC = re.compile(r"^[\s\[\(]*\d{1,4000}[a-z]?[\s\]\),;]*$")
# a number of 4 digits or more, which may be a year (author-year citations) rather than a label
_LONG_NUMBER = re.compile(r"^[\s\[\(]*((\d{4,4000})[a-z]?)[\s\]\),;]*$")
_RANGE_TEXT = re.compile(rf"^[\s\[\(]*(\d{{1,4000}}[a-z]?)\s*[{_DASHES}]\s*(\d{{1,4000}}[a-z]?)[\s\]\)]*$")
_YEAR_ONLY = re.compile(r"^[\s\[\(]*(?:1[6-9]|20)\d\d[a-z]?(?:\s*[,/]\s*[a-z])?[\s\]\)]*$")

# Author names before a linked year. A name starts with a capital (Latin letters with diacritics
# included) and may carry particles ("van der", "de") or be hyphenated.
_PARTICLE = rf"(?:{particle_pattern(capitalised=False)}\s+)"
_NAME = rf"{_PARTICLE}*[A-Z\u00C0-\u00D6\u00D8-\u00DE\u0100-\u024F][\w'\u2019\-]*\.?"
_MULTI = rf"{_NAME}(?:\s+{_NAME})*"      # "ARTIS Zoo", "World Health Organization": only inside brackets
_ETAL = r"(?:\s*,?\s*et\s*al\.?|\s+and\s+(?:colleagues|co-?workers))?"


def _authors(name: str) -> str:
    return rf"{name}(?:\s*,\s*{name})*(?:\s*,?\s*(?:and|&)\s+{name})?{_ETAL}"


_PAREN_AUTHORS = re.compile(rf"(?:^|(?<=[(\[;])|(?<=\s))\s*(?:(?:see|e\.g\.,?|cf\.|i\.e\.,?|also|reviewed in)\s+)?"
                            rf"(?P<authors>{_authors(_MULTI)})\s*,?\s*$")
_NARRATIVE_AUTHORS = re.compile(rf"(?:^|(?<=[\s(\[;,]))(?P<authors>{_authors(_NAME)})\s*[(\[]\s*$")
_OPENERS = "([;"
_LOOKBACK = 160


class RangeBudget:
    """What the citation ranges of one article may still add (one per article, shared by its paragraphs)."""

    __slots__ = ("left", "spent", "too_long")

    def __init__(self, limit: int = MAX_EXPANDED) -> None:
        self.left = limit
        self.too_long = 0      # ranges refused for their own length
        self.spent = False     # True once a range was refused for the article's budget

    def take(self, first: str, last: str, span: int, line: int | None, diagnostics: list[Diagnostic]) -> bool:
        """True when a range adding ``span`` references may be expanded; otherwise a diagnostic says why not."""
        if span > MAX_RANGE:
            self.too_long += 1
            if self.too_long <= _NAMED_TOO_LONG:
                more = (f"; further ranges over {MAX_RANGE} references are not named one by one"
                        if self.too_long == _NAMED_TOO_LONG else "")
                diagnostics.append(Diagnostic(
                    "range-too-long", f"citation range from {first} to {last} spans {span + 2:,} references "
                    f"(more than {MAX_RANGE + 2}); only its ends are cited{more}", line))
            return False
        if span > self.left:
            if not self.spent:
                self.spent = True
                diagnostics.append(Diagnostic(
                    "range-budget-spent", f"the citation ranges of this article already add {MAX_EXPANDED:,} "
                    f"references; from the range {first} to {last} on, ranges cite only their ends", line))
            return False
        self.left -= span
        return True


def _resolve(event: XrefEvent, refs: ReferenceList, diagnostics: list[Diagnostic]) -> list[str]:
    rids = event.rids
    if len(rids) == 1:  # most xrefs: one rid, no set needed
        ref_id = refs.resolve(rids[0])
        if ref_id is not None:
            return [ref_id]
    ids: dict[str, None] = {}  # insertion-ordered set: linear in the number of rids
    if not rids:
        diagnostics.append(Diagnostic("xref-no-rid", "citation xref without a rid attribute", event.line))
    for rid in rids:
        ref_id = refs.resolve(rid)
        if ref_id is None:
            diagnostics.append(Diagnostic("xref-unknown-rid", f"citation xref points to {rid!r}, "
                                          "which is not in the reference list", event.line))
        else:
            ids[ref_id] = None
    return list(ids)


def _joins_range(text: str, left: XrefEvent, right: XrefEvent) -> str | None:
    """'range' if a dash joins two numeric xrefs, 'hidden' for an empty xref glued on, else None."""
    if left.end == right.start:
        return "hidden" if left.start == left.end or right.start == right.end else None
    # the dash may sit among brackets written around each number: "5)- (7", "[5]–[7]"
    if right.start - left.end > 8 or text[left.end:right.start].translate(_BRACKETS) not in _DASH_SET:
        return None
    left_text = text[left.start:left.end]
    right_text = text[right.start:right.end]
    if (left_text == "" or _NUMERIC.match(left_text)) and (right_text == "" or _NUMERIC.match(right_text)):
        return "range"
    return None


def _expand(first: str, last: str, refs: ReferenceList, line: int | None,
            diagnostics: list[Diagnostic], budget: RangeBudget) -> list[str]:
    a = refs.position[first]
    b = refs.position[last]
    if a < b:
        return refs.order[a + 1:b] if budget.take(first, last, b - a - 1, line, diagnostics) else []
    if a > b:
        diagnostics.append(Diagnostic("range-reversed", f"citation range from {first} to {last} runs backwards "
                                      "in the reference list; only its ends are cited", line))
    return []


def _text_range(label_text: str, ids: list[str], refs: ReferenceList, line: int | None,
                diagnostics: list[Diagnostic], budget: RangeBudget) -> list[str]:
    """Expand one xref whose own text is a range ("121–124"): by its rids' ends, else by labels."""
    match = _RANGE_TEXT.match(label_text)
    if not match:
        return []
    if len(ids) >= 2:
        # the rids are the cited references; they are the ends of the range only when two rids span as
        # many references as the printed numbers do
        first, end = match.group(1), match.group(2)
        if not (first.isdigit() and end.isdigit()):
            return _expand(ids[0], ids[-1], refs, line, diagnostics, budget) if len(ids) == 2 else []
        printed = int(end) - int(first) + 1
        if len(ids) >= printed:
            return []
        if len(ids) == 2 and refs.position[ids[1]] - refs.position[ids[0]] + 1 == printed:
            return _expand(ids[0], ids[1], refs, line, diagnostics, budget)
        diagnostics.append(Diagnostic("range-rids-mismatch", f"citation {label_text!r} prints a range of {printed} "
                                      f"references but lists {len(ids)} rids that do not span it; only its rids "
                                      "are cited", line))
        return []
    if len(ids) == 1:
        first, end = match.group(1), match.group(2)
        last = refs.label_to_id.get(end)
        if last is None or refs.label_to_id.get(first) != ids[0]:
            # no labels: the printed numbers may still be positions in the list
            last = None
            if first.isdigit() and end.isdigit() and refs.position[ids[0]] == int(first) - 1 \
                    and int(end) <= len(refs.order):
                last = refs.order[int(end) - 1]
        if last is not None:
            return _expand(ids[0], last, refs, line, diagnostics, budget) + [last]
        diagnostics.append(Diagnostic("range-unexpanded", f"citation {label_text!r} looks like a range but "
                                      "its end is not a reference label; only its rid is cited", line))
    return []


def _author_start(text: str, start: int, floor: int) -> tuple[int, bool]:
    """Where author names before a linked year begin (``start`` if none); True if narrative form."""
    low = max(floor, start - _LOOKBACK)
    before = text[low:start]
    stripped = before.rstrip()
    if not stripped:
        return start, False
    if stripped[-1] in "([":
        match = _NARRATIVE_AUTHORS.search(before)
        if match:
            return low + match.start("authors"), True
        return start, False
    match = _PAREN_AUTHORS.search(before)
    if match is None:
        return start, False
    head = before[:match.start("authors")].rstrip()
    if head:
        # the names must open the citation: right after "(", "[", ";" or a "see"-like word
        opener = head[-1]
        after_previous = low == floor and floor > 0 and head.strip() == ","  # "(Smith, 2017, Adnan, 2020)"
        if opener not in _OPENERS and not after_previous and not re.search(r"(?:see|e\.g\.,?|cf\.|i\.e\.,?|also|reviewed in)$", head):
            return start, False
    elif low > floor:
        return start, False
    return low + match.start("authors"), False


def resolve_anchors(text: str, events: list[XrefEvent], refs: ReferenceList,
                    diagnostics: list[Diagnostic], budget: RangeBudget | None = None) -> tuple[CitationAnchor, ...]:
    """Turn a paragraph's citation xrefs into anchors (ranges merged and expanded, author names kept);
    ``budget`` bounds the expansion of the whole article (a fresh one serves this paragraph alone)."""
    if not events:
        return ()
    paragraph = _Paragraph(text, events, refs, diagnostics, budget if budget is not None else RangeBudget())
    anchors: list[CitationAnchor] = []
    floor = 0
    resolved = paragraph.resolved
    for group, joins in paragraph.groups():
        if len(group) == 1:  # most groups: one xref, whose ids are already distinct (see _resolve)
            ids = list(resolved[group[0]])
        else:
            ids = list(dict.fromkeys(r for i in group for r in resolved[i]))
        all_ids, expanded = paragraph.cited(ids, paragraph.added(group, joins, ids))
        start, end = paragraph.span(group, floor)
        anchors.append(CitationAnchor(start, end, text[start:end], all_ids, expanded))
        floor = end
    return tuple(anchors)


class _Paragraph:
    """One paragraph's text and citation xrefs while they become anchors: each xref's resolved reference ids,
    the reference list, the diagnostics and the article's range budget."""

    __slots__ = ("text", "events", "refs", "diagnostics", "budget", "resolved")

    def __init__(self, text: str, events: list[XrefEvent], refs: ReferenceList, diagnostics: list[Diagnostic],
                 budget: RangeBudget) -> None:
        self.text = text
        self.events = events
        self.refs = refs
        self.diagnostics = diagnostics
        self.budget = budget
        self.resolved = [_resolve(event, refs, diagnostics) for event in events]

    def groups(self) -> list[tuple[list[int], list[str | None]]]:
        """The xrefs (their indexes) grouped where a range dash or a hidden empty xref joins them, with the
        join between each two."""
        events = self.events
        groups: list[list[int]] = [[0]]
        links: list[list[str | None]] = [[]]
        for i in range(1, len(events)):
            join = _joins_range(self.text, events[i - 1], events[i])
            if join == "range" and not (self._labelled(i - 1) and self._labelled(i)):
                join = None
            if join:
                groups[-1].append(i)
                links[-1].append(join)
            else:
                groups.append([i])
                links.append([])
        return list(zip(groups, links))

    def _labelled(self, i: int) -> bool:
        """Whether xref ``i`` may end a range: a number of up to 3 digits (or no text) always; a longer one only
        when it is the label of the reference cited or that reference's place in the list, so that years joined
        by a dash ("2010–2012") are never a range."""
        event = self.events[i]
        match = _LONG_NUMBER.match(self.text[event.start:event.end])
        if match is None:
            return True
        ids = self.resolved[i]
        if not ids:
            return False
        return self.refs.label_to_id.get(match.group(1)) in ids or self.refs.position[ids[0]] == int(match.group(2)) - 1

    def added(self, group: list[int], joins: list[str | None], ids: list[str]) -> list[str]:
        """The references a group's ranges add between their ends: dash-joined xrefs, or one xref whose
        text is a range."""
        line = self.events[group[0]].line
        resolved = self.resolved
        if "range" in joins:
            extra: list[str] = []
            for k, join in enumerate(joins):
                if join != "range":
                    continue
                left = next((resolved[i][-1] for i in reversed(group[:k + 1]) if resolved[i]), None)
                right = next((resolved[i][0] for i in group[k + 1:] if resolved[i]), None)
                if left is not None and right is not None:
                    extra.extend(_expand(left, right, self.refs, line, self.diagnostics, self.budget))
            return extra
        if len(group) == 1:
            event = self.events[group[0]]
            return _text_range(self.text[event.start:event.end], ids, self.refs, line, self.diagnostics,
                               self.budget)
        return []

    def cited(self, ids: list[str], extra: list[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """Every reference id a group cites, in reference-list order, and those its ranges added."""
        position = self.refs.position.__getitem__
        if extra:
            cited = set(ids)
            expanded = tuple(r for r in dict.fromkeys(extra) if r not in cited)
            return tuple(sorted(set(ids) | set(expanded), key=position)), expanded
        return (tuple(ids) if len(ids) < 2 else tuple(sorted(ids, key=position))), ()

    def span(self, group: list[int], floor: int) -> tuple[int, int]:
        """The anchor's span: its xrefs without surrounding space; a linked year alone takes in the author
        names before it (and, in narrative form, the bracket closing after it). ``floor``: the previous
        anchor's end."""
        text = self.text
        start = self.events[group[0]].start
        end = self.events[group[-1]].end
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        if len(group) == 1 and _YEAR_ONLY.match(text[start:end]):
            new_start, narrative = _author_start(text, start, floor)
            if new_start < start:
                start = new_start
                if narrative:
                    rest = text[end:end + 3]
                    stripped = rest.lstrip()
                    if stripped[:1] in (")", "]"):
                        end += len(rest) - len(stripped) + 1
        return start, end

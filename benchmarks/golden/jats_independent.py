"""An independent, deliberately naive count of JATS citations, used to check chemref.jats.reader.

It shares no code with the reader: one plain lxml walk per file, written from the JATS tag
names only. For each article it gives the set of (paragraph path, cited reference id) pairs and
the reference id -> DOI map, which the tests and ``benchmarks/bench_jats.py`` compare with the
reader's output. Run directly for corpus totals: ``python tests/jats_independent.py DIR``.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from html import unescape
from urllib.parse import unquote

from lxml import etree

DASHES = "-\u2013\u2014\u2212\u2010\u2011"
_DASH_GAP = re.compile(rf"^\s*[{DASHES}]\s*$")
_DOI = re.compile(r"10\.\d{4,9}/[^\s\"']+")  # SICI DOIs hold < and >
_XLINK = "{http://www.w3.org/1999/xlink}href"
_WRAPPERS = {"bold", "italic", "sup", "sub"}
_CITE_TYPES = {"bibr", "ref"}
_PARAGRAPH_TAGS = {"p", "title", "tr"}  # a table row is one paragraph
_RANGE_TEXT = re.compile(rf"^\W*(\d+)\s*[{DASHES}]\s*(\d+)\W*$")


@dataclass
class Count:
    """Per-article figures of the independent count."""

    file: str
    xrefs: int = 0                        # body citation xrefs (ref-type bibr or ref)
    xrefs_bibr: int = 0                   # body xrefs with ref-type="bibr" only (MANIFEST's rule)
    refs: int = 0
    ranges: int = 0                       # dash-joined xref pairs expanded
    pairs: set = field(default_factory=set)       # (paragraph path, ref id) for existing ref ids
    missing: set = field(default_factory=set)     # rids that name no reference
    dois: dict = field(default_factory=dict)      # ref id -> normalised DOI (first found)
    multi_work_refs: set = field(default_factory=set)  # refs holding more than one citation element

    @property
    def cited(self) -> set:
        return {ref for _, ref in self.pairs}


def _doi(text: str) -> str | None:
    text = unescape(unquote(text))
    match = _DOI.search(text)
    if not match:
        return None
    doi = match.group(0)
    while doi and doi[-1] in ".,;:)]}":
        if doi[-1] in ")]}" and doi.count(doi[-1]) <= doi.count({")": "(", "]": "[", "}": "{"}[doi[-1]]):
            break
        doi = doi[:-1]
    return doi.lower()


def _ref_doi(ref) -> str | None:
    for pid in ref.iter("pub-id"):
        if pid.get("pub-id-type") == "doi":
            found = _doi("".join(pid.itertext()))
            if found:
                return found
    for link in ref.iter("ext-link", "uri"):
        found = _doi("".join(link.itertext())) or _doi(link.get(_XLINK) or "")  # what is printed first
        if found:
            return found
    pieces = list(ref.itertext())
    return _doi("".join(pieces)) or _doi(" ".join(pieces))


def _next_xref_after_dash(xref):
    """The xref that follows ``xref`` across a dash (climbing bold/italic/sup wrappers), or None."""
    node = xref
    while True:
        tail = node.tail or ""
        nxt = node.getnext()
        if tail.strip() == "" and nxt is None and node.getparent() is not None \
                and node.getparent().tag in _WRAPPERS:
            node = node.getparent()
            continue
        break
    if not _DASH_GAP.match(tail) or nxt is None:
        return None
    while nxt is not None and nxt.tag != "xref" and nxt.tag in _WRAPPERS and len(nxt) and not (nxt.text or "").strip():
        nxt = nxt[0]
    return nxt if nxt is not None and nxt.tag == "xref" and nxt.get("ref-type") in _CITE_TYPES else None


def count_file(path: str | Path) -> Count:
    """Count one file."""
    parser = etree.XMLParser(load_dtd=False, no_network=True, resolve_entities=False)
    tree = etree.parse(str(path), parser)
    root = tree.getroot()
    result = Count(file=Path(path).name)
    order: list[str] = []
    labels: dict[str, str] = {}
    back = root.find("back")
    refs = [ref for rl in (back.iter("ref-list") if back is not None else ()) for ref in rl.iter("ref")]
    result.refs = len(refs)
    for ref in refs:
        rid = ref.get("id")
        if not rid:
            continue
        order.append(rid)
        label = ref.find("label")
        if label is not None:
            labels.setdefault("".join(label.itertext()).strip().strip("[]()."), rid)
        doi = _ref_doi(ref)
        if doi:
            result.dois[rid] = doi
        works = [c for c in ref if c.tag in ("mixed-citation", "element-citation", "citation", "nlm-citation")]
        if len(works) > 1:
            result.multi_work_refs.add(rid)
    position = {rid: i for i, rid in enumerate(order)}
    body = root.find("body")
    if body is None:
        return result
    for xref in body.iter("xref"):
        if xref.get("ref-type") not in _CITE_TYPES:
            continue
        result.xrefs += 1
        result.xrefs_bibr += xref.get("ref-type") == "bibr"
        para = xref.getparent()
        while para is not None and para.tag not in _PARAGRAPH_TAGS:
            para = para.getparent()
        key = tree.getpath(para) if para is not None else "?"
        rids = (xref.get("rid") or "").split()
        following = _next_xref_after_dash(xref)
        if following is not None and rids:
            ends = (following.get("rid") or "").split()
            if ends and rids[-1] in position and ends[0] in position \
                    and position[rids[-1]] < position[ends[0]]:
                result.ranges += 1
                rids = rids + order[position[rids[-1]] + 1:position[ends[0]]]
        numbers = _RANGE_TEXT.match("".join(xref.itertext()))
        if numbers and rids and rids[0] in position:
            # one xref printed as a range ("121–124" or "11-15"): its end by rid, label or list position
            last = rids[-1] if len(rids) > 1 else labels.get(numbers.group(2))
            if last is None and position[rids[0]] == int(numbers.group(1)) - 1 \
                    and int(numbers.group(2)) <= len(order):
                last = order[int(numbers.group(2)) - 1]
            if last in position and position[last] > position[rids[0]]:
                result.ranges += 1
                rids = rids + order[position[rids[0]] + 1:position[last] + 1]
        for rid in rids:
            if rid in position:
                result.pairs.add((key, rid))
            else:
                result.missing.add(rid)
    return result


def main(folder: str) -> None:
    totals = dict(files=0, xrefs=0, xrefs_bibr=0, refs=0, ranges=0, pairs=0, cited=0, cited_with_doi=0,
                  refs_with_doi=0, missing=0, multi_work_refs=0)
    for path in sorted(Path(folder).glob("*.nxml")):
        c = count_file(path)
        totals["files"] += 1
        totals["xrefs"] += c.xrefs
        totals["xrefs_bibr"] += c.xrefs_bibr
        totals["refs"] += c.refs
        totals["ranges"] += c.ranges
        totals["pairs"] += len(c.pairs)
        totals["cited"] += len(c.cited)
        totals["cited_with_doi"] += sum(1 for r in c.cited if r in c.dois)
        totals["refs_with_doi"] += len(c.dois)
        totals["missing"] += len(c.missing)
        totals["multi_work_refs"] += len(c.multi_work_refs)
    for key, value in totals.items():
        print(f"{key:>16} {value:>8,}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "../shared/corpora/jats/dev")

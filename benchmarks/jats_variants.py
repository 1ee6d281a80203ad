"""Variants of the dev JATS files in shapes the dev set lacks, built at benchmark time (never committed).

Each dev file gives one variant, the kind chosen round robin so that every kind is built from files of
several publishers:

* ``no-doctype``  the XML declaration and DOCTYPE removed, and the file on one line (Europe PMC style);
* ``articles``    the file and the next two in one PMC ``<articles>`` bundle;
* ``long-refs``   the reference list repeated to at least 1,500 references, with a section citing the
                  copies one by one, in lists and in dash ranges;
* ``taxpub``      each body section turned into a TaxPub taxon treatment (``tp:taxon-treatment`` with a
                  ``tp:nomenclature`` and ``tp:treatment-sec`` children);
* ``scielo``      each reference given a ``<mixed-citation>`` twin of its ``<element-citation>`` (SciELO's
                  paired citations), plus a translated title, abstract and keyword group.

``build(dev_files, folder)`` writes the variants and returns their paths with their kinds. The recall check
of a variant uses the independent count of the variant itself (``count_variant``), which follows the
articles of a bundle one by one.
"""

from __future__ import annotations

import copy
import re
from pathlib import Path

from lxml import etree

KINDS = ("no-doctype", "articles", "long-refs", "taxpub", "scielo")
_TP = "http://www.plazi.org/taxpub"
_XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
_PROLOGUE = re.compile(rb"\A\s*(?:<\?xml[^>]*\?>\s*)?(?:<!DOCTYPE[^>\[]*(?:\[[^\]]*\])?\s*>\s*)?", re.S)
_PARSER = etree.XMLParser(load_dtd=False, no_network=True, resolve_entities=False)
_LONG_REFS = 1500


def _parse(data: bytes):
    return etree.fromstring(data, _PARSER)


def _serialise(root) -> bytes:
    return etree.tostring(root, encoding="UTF-8", xml_declaration=True)


def no_doctype(data: bytes) -> bytes:
    """No prologue, one line: newlines between and inside elements become spaces."""
    body = _PROLOGUE.sub(b"", data, count=1)
    return body.replace(b"\r\n", b" ").replace(b"\n", b" ").replace(b"\r", b" ")


def articles_bundle(parts: list[bytes]) -> bytes:
    """A PMC ``<articles>`` file holding each of ``parts`` (their prologues removed)."""
    inner = b"".join(_PROLOGUE.sub(b"", part, count=1) for part in parts)
    return b'<?xml version="1.0" encoding="UTF-8"?>\n<articles>' + inner + b"</articles>\n"


def long_refs(data: bytes) -> bytes:
    """The reference list copied until it holds at least 1,500 references (fresh ids and labels), and a
    closing body section citing the copies: one at a time, several in one xref, and dash ranges."""
    root = _parse(data)
    ref_list = next(root.iter("ref-list"), None)
    body = root.find("body")
    if ref_list is None or body is None:
        return data
    originals = [ref for ref in ref_list.iter("ref") if ref.get("id")]
    if not originals:
        return data
    copies = []
    n = len(originals)
    round_ = 0
    while n + len(copies) < _LONG_REFS:
        round_ += 1
        for ref in originals:
            clone = copy.deepcopy(ref)
            for element in clone.iter():
                if element.get("id"):
                    element.set("id", f"{element.get('id')}-v{round_}")
            label = clone.find("label")
            if label is not None:
                for child in list(label):
                    label.remove(child)
                label.text = str(n + len(copies) + 1)
            ref_list.append(clone)
            copies.append(clone.get("id"))
    sec = etree.SubElement(body, "sec")
    etree.SubElement(sec, "title").text = "Further reading"
    for start in range(0, len(copies), 12):
        chunk = copies[start:start + 12]
        p = etree.SubElement(sec, "p")
        p.text = "Related work "
        for i, rid in enumerate(chunk[:4]):
            xref = etree.SubElement(p, "xref", {"ref-type": "bibr", "rid": rid})
            xref.text = str(i + 1)
            xref.tail = ", "
        xref = etree.SubElement(p, "xref", {"ref-type": "bibr", "rid": " ".join(chunk[4:7])})
        xref.text = "5,6,7"
        xref.tail = " and ["
        if len(chunk) >= 11:
            first = etree.SubElement(p, "xref", {"ref-type": "bibr", "rid": chunk[7]})
            first.text = "8"
            first.tail = "\u2013"
            last = etree.SubElement(p, "xref", {"ref-type": "bibr", "rid": chunk[10]})
            last.text = "11"
            last.tail = "]."
        else:
            xref.tail = "."
    return _serialise(root)


def taxpub(data: bytes) -> bytes:
    """Each top-level body section as a TaxPub treatment: ``sec`` holding a ``tp:taxon-treatment`` whose
    nomenclature names a taxon and whose ``tp:treatment-sec`` children are the section's subsections (or,
    with none, one treatment section holding its paragraphs)."""
    root = _parse(data)
    body = root.find("body")
    if body is None:
        return data
    nsmap = dict(root.nsmap)
    nsmap["tp"] = _TP
    new_root = etree.Element(root.tag, root.attrib, nsmap=nsmap)
    new_root.text = root.text
    for child in root:
        new_root.append(child)
    body = new_root.find("body")
    for k, sec in enumerate(body.findall("sec"), 1):
        title = sec.find("title")
        treatment = etree.Element(f"{{{_TP}}}taxon-treatment")
        nomenclature = etree.SubElement(treatment, f"{{{_TP}}}nomenclature")
        etree.SubElement(nomenclature, f"{{{_TP}}}taxon-name").text = f"Genus species{k}"
        content = [c for c in sec if c is not title]
        subsecs = [c for c in content if c.tag == "sec"]
        if subsecs and len(subsecs) == len(content):
            for sub in subsecs:
                sub.tag = f"{{{_TP}}}treatment-sec"
                treatment.append(sub)
        else:
            part = etree.SubElement(treatment, f"{{{_TP}}}treatment-sec", {"sec-type": "description"})
            for c in content:
                part.append(c)
        sec.append(treatment)
    return _serialise(new_root)


def scielo(data: bytes) -> bytes:
    """SciELO's shapes: every ``element-citation`` preceded by a ``mixed-citation`` of its text; a
    ``trans-title-group``, a ``trans-abstract`` and a Portuguese ``kwd-group`` in the article-meta."""
    root = _parse(data)
    for ref in root.iter("ref"):
        for citation in [c for c in ref if c.tag == "element-citation"]:
            mixed = etree.Element("mixed-citation")
            mixed.text = " ".join("".join(citation.itertext()).split())
            citation.addprevious(mixed)
    meta = root.find("front/article-meta")
    if meta is not None:
        group = meta.find("title-group")
        if group is not None:
            trans = etree.SubElement(group, "trans-title-group", {_XML_LANG: "pt"})
            etree.SubElement(trans, "trans-title").text = "Um título traduzido"
        abstract = meta.find("abstract")
        if abstract is not None:
            translated = copy.deepcopy(abstract)
            translated.tag = "trans-abstract"
            translated.set(_XML_LANG, "es")
            abstract.addnext(translated)
        kwd = etree.SubElement(meta, "kwd-group", {_XML_LANG: "pt"})
        etree.SubElement(kwd, "title").text = "Palavras-chave"
        for word in ("química", "catálise"):
            etree.SubElement(kwd, "kwd").text = word
    return _serialise(root)


def build(dev_files: list[Path], folder: Path) -> list[tuple[Path, str]]:
    """Write one variant per dev file into ``folder``; returns ``(path, kind)`` pairs in order."""
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for i, path in enumerate(dev_files):
        kind = KINDS[i % len(KINDS)]
        data = path.read_bytes()
        if kind == "no-doctype":
            variant = no_doctype(data)
        elif kind == "articles":
            parts = [data] + [dev_files[(i + k) % len(dev_files)].read_bytes() for k in (1, 2)]
            variant = articles_bundle(parts)
        elif kind == "long-refs":
            variant = long_refs(data)
        elif kind == "taxpub":
            variant = taxpub(data)
        else:
            variant = scielo(data)
        target = folder / f"{path.stem}.{kind}.nxml"
        target.write_bytes(variant)
        out.append((target, kind))
    return out

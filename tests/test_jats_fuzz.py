"""Property tests: mutated real articles (byte flips, truncation, tag deletion, tree surgery) and
hand-made citation soups; whatever the input, ``read`` returns an Article or raises JatsError only."""

from __future__ import annotations

import re

import pytest
from tests.helpers import shared_path
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.jats_helpers import paragraph_article
from lxml import etree

from chemref import read_jats
from chemref.errors import JatsError

# Small real files covering: superscript, bracket ranges, author-year, PLOS native, eLife, Wiley ref-type="ref".
FILES = ["PMC4391421.nxml", "PMC5172360.nxml", "PMC7704251.nxml", "10.1371_journal.pbio.1000359.nxml",
         "10.7554_eLife.06003.nxml", "PMC7065120.nxml", "10.1371_journal.pone.0067227.nxml"]
_TAG = re.compile(rb"<[^<>]{1,80}>")
_TAGS = ["p", "xref", "sec", "title", "ref", "ref-list", "sup", "sub", "bold", "table-wrap", "td", "fig",
         "caption", "list", "mixed-citation", "element-citation", "pub-id", "ext-link", "body", "back", "year"]
_ATTRS = ["rid", "ref-type", "id", "pub-id-type", "sec-type"]


@pytest.fixture(scope="module")
def sources() -> list[bytes]:
    folder = shared_path("corpora", "jats", "dev")
    return [(folder / name).read_bytes() for name in FILES]


def check(data: bytes) -> None:
    try:
        article = read_jats(data, name="fuzz.nxml")
    except JatsError:
        return
    for _, paragraph in article.paragraphs(include_abstracts=True, include_back=True):
        for anchor in paragraph.citations:
            assert paragraph.text[anchor.start:anchor.end] == anchor.text
            assert all(r in article.references_by_id for r in anchor.ref_ids)
    article.to_dict()


@pytest.mark.slow
@settings(max_examples=60)
@given(data=st.data())
def test_byte_mutations(sources, data) -> None:
    raw = bytearray(sources[data.draw(st.integers(0, len(sources) - 1))])
    kind = data.draw(st.sampled_from(["flip", "truncate", "delete-tag", "insert"]))
    if kind == "flip":
        for _ in range(data.draw(st.integers(1, 8))):
            raw[data.draw(st.integers(0, len(raw) - 1))] = data.draw(st.integers(0, 255))
    elif kind == "truncate":
        raw = raw[:data.draw(st.integers(0, len(raw)))]
    elif kind == "delete-tag":
        tags = list(_TAG.finditer(raw))
        for _ in range(data.draw(st.integers(1, 5))):
            match = tags[data.draw(st.integers(0, len(tags) - 1))]
            raw[match.start():match.end()] = b" " * (match.end() - match.start())
    else:
        at = data.draw(st.integers(0, len(raw)))
        raw[at:at] = data.draw(st.sampled_from([b"<", b"&", b"]]>", b"<xref/>", b"&#0;", b"\xff\xfe", b"&foo;"]))
    check(bytes(raw))


@pytest.mark.slow
@settings(max_examples=60)
@given(data=st.data())
def test_tree_mutations(sources, data) -> None:
    """Well-formed but odd structure: elements deleted, renamed, moved; attributes changed or dropped."""
    root = etree.fromstring(sources[data.draw(st.integers(0, len(sources) - 1))],
                            etree.XMLParser(resolve_entities=False, load_dtd=False, no_network=True))
    elements = [e for e in root.iter() if isinstance(e.tag, str)]
    for _ in range(data.draw(st.integers(1, 12))):
        element = elements[data.draw(st.integers(0, len(elements) - 1))]
        action = data.draw(st.sampled_from(["delete", "rename", "attr", "move", "text"]))
        parent = element.getparent()
        if action == "delete" and parent is not None:
            parent.remove(element)
        elif action == "rename":
            element.tag = data.draw(st.sampled_from(_TAGS))
        elif action == "attr":
            name = data.draw(st.sampled_from(_ATTRS))
            value = data.draw(st.sampled_from(["", " ", "B1 B2", "bibr", "ref", "doi", "x", "B1", "pmid"]))
            element.set(name, value)
        elif action == "move" and parent is not None:
            target = elements[data.draw(st.integers(0, len(elements) - 1))]
            if element not in target.iterancestors() and target is not element:
                parent.remove(element)
                target.append(element)
        elif action == "text":
            element.text = data.draw(st.text(st.characters(codec="utf-8", exclude_categories=("Cc", "Cs")),
                                                max_size=20))
    check(etree.tostring(root))


_PIECES = ["[", "]", "(", ")", "–", "-", ", ", "; ", " ", ".", "Smith et al., ", "and ", "<sup>", "</sup>",
           "<bold>", "</bold>"]


@pytest.mark.slow
@settings(max_examples=80)
@given(st.lists(st.one_of(
    st.sampled_from(_PIECES),
    st.builds(lambda rid, text: f'<xref ref-type="bibr" rid="{rid}">{text}</xref>',
              st.sampled_from(["B1", "B2", "B3", "B5", "B2 B4", "B9", "", "C1"]),
              st.sampled_from(["", "1", "3", "2–5", "[4]", "2010", "2011a", "Smith 2010", "7-3"])),
), max_size=14))
def test_citation_soup(pieces) -> None:
    xml = "".join(pieces)
    # keep the markup balanced: drop unmatched sup/bold tags
    for tag in ("sup", "bold"):
        if xml.count(f"<{tag}>") != xml.count(f"</{tag}>"):
            xml = xml.replace(f"<{tag}>", "").replace(f"</{tag}>", "")
    try:
        etree.fromstring(f"<p>{xml}</p>".encode())
    except etree.XMLSyntaxError:
        xml = xml.replace("<sup>", "").replace("</sup>", "").replace("<bold>", "").replace("</bold>", "")
    check(paragraph_article(xml, n_refs=5))

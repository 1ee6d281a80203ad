"""Builders for the hand-written JATS snippets of the tests/test_jats_*.py golden tables."""

from __future__ import annotations

NS = ('xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:mml="http://www.w3.org/1998/Math/MathML" '
      'xmlns:ali="http://www.niso.org/schemas/ali/1.0/"')
DOCTYPE = ('<!DOCTYPE article PUBLIC "-//NLM//DTD JATS (Z39.96) Journal Publishing DTD v1.2 20190208//EN" '
           '"http://jats.nlm.nih.gov/publishing/1.2/JATS-journalpublishing1.dtd">')


def numbered_refs(n: int, prefix: str = "B") -> str:
    """``n`` references B1..Bn, each with a label and a DOI 10.1000/rI."""
    return "".join(
        f'<ref id="{prefix}{i}"><label>{i}</label><mixed-citation publication-type="journal">'
        f'<person-group person-group-type="author"><name><surname>Author{i}</surname></name></person-group>'
        f' <article-title>Work {i}</article-title>. <year>20{i % 100:02d}</year>. '
        f'<pub-id pub-id-type="doi">10.1000/r{i}</pub-id></mixed-citation></ref>'
        for i in range(1, n + 1))


def article(body: str = "", refs: str = "", meta: str = "", back_extra: str = "") -> bytes:
    """A complete JATS article around a body, a reference list and article-meta content."""
    return (f'<?xml version="1.0" encoding="UTF-8"?>{DOCTYPE}<article {NS} article-type="research-article">'
            f'<front><journal-meta><journal-title-group><journal-title>J Test</journal-title></journal-title-group>'
            f'</journal-meta><article-meta>{meta}</article-meta></front>'
            f'<body>{body}</body><back>{back_extra}<ref-list>{refs}</ref-list></back></article>').encode()


def paragraph_article(paragraph: str, n_refs: int = 12) -> bytes:
    """One section holding one paragraph, with ``n_refs`` numbered references."""
    return article(f'<sec><title>Introduction</title><p>{paragraph}</p></sec>', numbered_refs(n_refs))


def x(rid: str, text: str = "", ref_type: str = "bibr") -> str:
    """A citation xref (self-closing when ``text`` is empty)."""
    if not text:
        return f'<xref ref-type="{ref_type}" rid="{rid}"/>'
    return f'<xref ref-type="{ref_type}" rid="{rid}">{text}</xref>'

"""One ``<article>`` element (or ``<sub-article>``) into an :class:`Article`: front matter, abstracts, body,
back matter, references and diagnostics."""

from __future__ import annotations

from html.entities import name2codepoint

from lxml import etree

from chemref.jats.blocks import SECTION_TAGS, BlockWalker, Place
from chemref.jats.license import read_license
from chemref.jats.metadata import read_meta, read_metadata
from chemref.jats.model import Article, Diagnostic, Paragraph, Section
from chemref.jats.paths import child_paths, path_function
from chemref.jats.references import ReferenceList, read_references
from chemref.jats.text import first_child

__all__ = ["articles_of"]


def _abstracts(reader: BlockWalker, meta) -> tuple[tuple[Section, ...], str | None]:
    """The abstracts (translated ones too) as sections, and the main abstract's text (the first ``<abstract>``
    without an ``abstract-type``, else the first ``<abstract>``): its paragraphs joined by spaces."""
    if meta is None:
        return (), None
    out: list[Section] = []
    main: Section | None = None
    main_typed = True
    for element in meta:
        tag = element.tag
        if tag != "abstract" and tag != "trans-abstract":
            continue
        section = reader.section(element, "abstract", reader.getpath(element))
        kind = element.get("abstract-type")
        title = section.title or (kind or "Abstract").replace("-", " ").capitalize()
        out.append(Section(title, "abstract", section.paragraphs, section.sections))
        if tag == "abstract" and (main is None or (main_typed and not kind)):
            main, main_typed = section, bool(kind)
    text = " ".join(p.text for _, p in main.walk()) if main is not None else None
    return tuple(out), text or None


def _back(reader: BlockWalker, back, floats) -> tuple[Section, ...]:
    out: list[Section] = []
    for container in (back, floats):
        if container is None:
            continue
        loose: list[Paragraph] = []
        for child, path in child_paths(container, reader.getpath(container)):
            tag = child.tag
            if tag in ("ref-list", "label", "title"):
                continue
            if tag in SECTION_TAGS or tag in ("app-group", "fn-group", "glossary"):
                section = reader.section(child, None, path)
                if not section.title:
                    default = {"ack": "Acknowledgements", "fn-group": "Footnotes", "app-group": "Appendices",
                               "glossary": "Glossary", "notes": "Notes"}.get(tag, "")
                    section = Section(default, section.kind, section.paragraphs, section.sections)
                if section.paragraphs or section.sections:
                    out.append(section)
            else:
                extra: list[Section] = []
                reader.block(child, Place("other", loose, extra), path)
                out.extend(extra)
        if loose:
            out.append(Section("Floating figures and tables" if container is floats else "", "other",
                               tuple(loose)))
    return tuple(out)


def _check_entities(article, diagnostics: list[Diagnostic]) -> None:
    """A diagnostic for entity references left unexpanded (internal DTD entities are never expanded; HTML
    names such as ``&alpha;`` are read as their characters): the text keeps them as written."""
    unexpanded = [e for e in article.iter(etree.Entity) if e.name not in name2codepoint]
    if unexpanded:
        names = sorted({f"&{e.name};" for e in unexpanded})
        shown = ", ".join(names[:5]) + (", ..." if len(names) > 5 else "")
        diagnostics.append(Diagnostic(
            "entity-unexpanded", f"{len(unexpanded)} reference(s) to entities that are not expanded ({shown}) "
            "are left in the text as written (entities declared in a DTD are never expanded)",
            unexpanded[0].sourceline))


def _sub_articles(article) -> list:
    """Every ``<sub-article>`` / ``<response>`` inside ``article`` (nested ones too), in document order."""
    return [e for e in article.iter("sub-article", "response") if e is not article]


def _read_body(reader: BlockWalker, body, refs: ReferenceList, diagnostics: list[Diagnostic],
               where) -> tuple[Section, ...]:
    if body is None:
        diagnostics.append(Diagnostic("no-body", "the article has no <body> (metadata or abstract only)",
                                      where.sourceline))
        return ()
    reader.consumed = []
    reader.visited_p = []
    sections = reader.body(body)
    n_citations = reader.check_body(body)
    if refs.references and not n_citations:
        diagnostics.append(Diagnostic(
            "no-citation-markup", f"{len(refs.references)} references but no citation <xref> in the body; "
            "the citations are probably plain text (e.g. '(Gibson et al., 2009)') and are not resolved",
            body.sourceline))
    return sections


def _front_fields(article, metadata, abstract_text: str | None) -> dict:
    """The Article fields read from the front matter beyond the identifying ones."""
    return {"article_type": article.get("article-type"), "authors": metadata.authors,
            "keywords": metadata.keywords, "subjects": metadata.subjects, "dates": metadata.dates,
            "funding": metadata.funding, "abstract_text": abstract_text}


def articles_of(article, file: str | None, *, part: str | None = None, sub_articles: bool = False,
               entities: bool = True) -> list[Article]:
    """The Article of one ``<article>`` element, then (with ``sub_articles``) one per sub-article."""
    diagnostics: list[Diagnostic] = []
    front = first_child(article, "front")
    back = first_child(article, "back")
    body = first_child(article, "body")
    metadata = read_metadata(front, diagnostics)
    meta = first_child(front, "article-meta") if front is not None else None
    refs = read_references((body, back), diagnostics)
    reader = BlockWalker(refs, diagnostics)
    getpath = reader.getpath = path_function(article, part)
    abstracts, abstract_text = _abstracts(reader, meta)
    sections = _read_body(reader, body, refs, diagnostics, article)
    if entities:
        _check_entities(article, diagnostics)
    back_sections = _back(reader, back, first_child(article, "floats-group"))
    subs = _sub_articles(article)
    if subs and not sub_articles:
        diagnostics.append(Diagnostic("sub-article-ignored", f"{len(subs)} <sub-article>/<response> "
                                      "element(s) (e.g. decision letters) are not read (read each as an article "
                                      "of its own with sub_articles=True, or --sub-articles)", subs[0].sourceline))
    licence = read_license(meta)
    main = Article(
        file=file, pmcid=metadata.pmcid, pmid=metadata.pmid, doi=metadata.doi, title=metadata.title,
        journal=metadata.journal, year=metadata.year, license=licence, sections=sections,
        references=tuple(refs.references), diagnostics=tuple(diagnostics), abstracts=abstracts,
        back=back_sections, part=part, **_front_fields(article, metadata, abstract_text),
    )
    out = [main]
    if sub_articles:
        out.extend(_read_sub_article(sub, main, refs, getpath) for sub in subs)
    return out



def _read_sub_article(sub, parent: Article, parent_refs: ReferenceList, getpath) -> Article:
    """A sub-article as an article of its own: its own front (or front-stub), body, back and references
    (the parent's when it has none); the parent's PMCID, journal, year and licence where it gives none."""
    diagnostics: list[Diagnostic] = []
    front = first_child(sub, "front")
    meta = first_child(front, "article-meta") if front is not None else first_child(sub, "front-stub")
    metadata = read_meta(meta, first_child(front, "journal-meta") if front is not None else None, diagnostics)
    body = first_child(sub, "body")
    back = first_child(sub, "back")
    refs = read_references((body, back), diagnostics)
    if not refs.references:
        refs = parent_refs
    reader = BlockWalker(refs, diagnostics)
    reader.getpath = getpath
    abstracts, abstract_text = _abstracts(reader, meta)
    sections = _read_body(reader, body, refs, diagnostics, sub)
    back_sections = _back(reader, back, first_child(sub, "floats-group"))
    has_licence = meta is not None and first_child(meta, "permissions") is not None
    return Article(
        file=parent.file, pmcid=metadata.pmcid or parent.pmcid, pmid=metadata.pmid, doi=metadata.doi,
        title=metadata.title, journal=metadata.journal or parent.journal, year=metadata.year or parent.year,
        license=read_license(meta) if has_licence else parent.license, sections=sections,
        references=tuple(refs.references), diagnostics=tuple(diagnostics), abstracts=abstracts,
        back=back_sections, part=getpath(sub), **_front_fields(sub, metadata, abstract_text),
    )


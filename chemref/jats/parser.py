"""The hardened lxml parser: no DTD, no network, no entity expansion, libxml2's size limits kept.

Every JATS file names an external DTD; it is never fetched. Malformed XML becomes a
:class:`~chemref.errors.JatsError` that names the file, line and column.
"""

from __future__ import annotations

import threading

from lxml import etree

from chemref.errors import JatsError

__all__ = ["parse_article", "parse_articles"]

_HINT = "the file is not well-formed XML; re-download it or check it with `xmllint --noout FILE`"


_LOCAL = threading.local()
#: Documents one parser reads before it is replaced. A parser keeps one libxml2 dictionary for the names and
#: short texts of every document it reads: reusing it halves the parse time (nothing is interned twice), and
#: replacing it now and then bounds the dictionary's memory on any number of files.
_PARSER_USES = 256


def _parser() -> etree.XMLParser:
    # One parser per thread: lxml parsers keep state (error log) and must not be shared across threads.
    # (collect_ids=False is deliberately not set: in lxml it makes libxml2 try to load the external DTD.)
    local = _LOCAL
    uses = getattr(local, "uses", _PARSER_USES)
    if uses >= _PARSER_USES:
        local.parser = etree.XMLParser(
            resolve_entities=False, load_dtd=False, dtd_validation=False, no_network=True,
            huge_tree=False, remove_comments=False, remove_pis=False,
            attribute_defaults=False,
        )
        uses = 0
    local.uses = uses + 1
    return local.parser


def parse_articles(data: bytes, path: str | None = None) -> list[etree._Element]:
    """Parse ``data`` and return its ``<article>`` elements: the root, or every one inside a wrapper such as
    PMC's ``<articles>`` (in document order)."""
    if not data or not data.strip():
        raise JatsError("empty file, expected a JATS <article>", path=path)
    try:
        root = etree.fromstring(data, _parser())
    except etree.XMLSyntaxError as exc:
        line, column = exc.position if exc.position else (None, None)
        message, hint = f"malformed XML: {exc.msg}", _HINT
        if "XML_PARSE_HUGE" in (exc.msg or ""):
            message = "XML exceeds the parser's safety limits (nesting deeper than 256 levels or a huge text node)"
            hint = "such files are refused on purpose; check that this is a real JATS article"
        elif _resource_limit(exc):
            # libxml2 reports where it noticed, not where the entities are: no line is better than a wrong one
            line = column = None
            message = ("XML exceeds the parser's safety limits: its entities expand to far more text than the "
                       "file holds (an entity-expansion bomb)")
            hint = "such files are refused on purpose; a JATS article declares no such entities"
        raise JatsError(message, path=path, line=line or None, column=column or None, hint=hint) from None
    except (etree.LxmlError, ValueError) as exc:
        raise JatsError(f"cannot parse XML: {exc}", path=path, hint=_HINT) from None
    if root is None:
        raise JatsError("no XML element found", path=path, hint=_HINT)
    if root.tag == "article":
        return [root]
    articles = list(root.iter("article"))
    if not articles:
        raise JatsError(f"no <article> element (root element is <{_name(root.tag)}>)", path=path,
                        line=root.sourceline, hint="is this a JATS / PMC .nxml file?")
    return articles


def _resource_limit(exc: etree.XMLSyntaxError) -> bool:
    """Whether libxml2 stopped at one of its resource limits (entity amplification) rather than at bad XML."""
    return exc.code == etree.ErrorTypes.ERR_RESOURCE_LIMIT


def parse_article(data: bytes, path: str | None = None) -> etree._Element:
    """Parse ``data`` and return its ``<article>`` element (the root, or the first one inside a wrapper)."""
    return parse_articles(data, path)[0]


def _name(tag: object) -> str:
    return tag if isinstance(tag, str) else "?"

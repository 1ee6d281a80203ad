"""Small hostile inputs for tests/hostile/test_hostile_minor.py (built at run time)."""

from __future__ import annotations

UNCLOSED_ARTICLE = "<article><body><p>x</p>"  # not well-formed: the body and article are never closed


def forged_id_article(source: str, kind: str = "pmcid") -> str:
    """``source`` (a JATS text with a ``pub-id-type="pmcid"`` article id) with that id replaced by one holding
    a carriage return, a forged error line and a line feed, written as character references."""
    import re

    forged = "PMC9&#13;chemref: error: FORGED&#10;x"
    text, n = re.subn(r'<article-id pub-id-type="pmcid">[^<]*</article-id>',
                      f'<article-id pub-id-type="{kind}">{forged}</article-id>', source, count=1)
    assert n == 1
    return text

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


def link_only_zip(path, name: str = "r001.ann", target: str = "/etc/passwd"):
    """A zip whose one member is a symbolic link (Unix mode bits in the external attributes) to ``target``."""
    import stat
    import zipfile

    info = zipfile.ZipInfo(name)
    info.external_attr = (stat.S_IFLNK | 0o777) << 16
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr(info, target)
    return path


def entity_bomb(levels: int = 9) -> str:
    """A well-formed article whose internal entities each expand to ten of the previous one (a "billion laughs"):
    the entity is used on line 3."""
    names = [chr(ord("a") + i) for i in range(levels)]
    decls = [f'<!ENTITY {names[0]} "aaaaaaaaaa">'] + [
        f'<!ENTITY {name} "{("&" + prev + ";") * 10}">' for prev, name in zip(names, names[1:])]
    return ('<?xml version="1.0"?>\n<!DOCTYPE article [' + "".join(decls) + "]>\n"
            f"<article><body><p>&{names[-1]};</p></body></article>\n")


def package_with_twins(path, name: str, first: bytes, second: bytes, others: dict | None = None):
    """A ``.tar.gz`` package holding two members named ``name`` (``first`` then ``second``) and ``others``."""
    import io
    import tarfile

    with tarfile.open(path, "w:gz") as tar:
        for member, data in [(name, first), (name, second), *(others or {}).items()]:
            info = tarfile.TarInfo(member)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return path

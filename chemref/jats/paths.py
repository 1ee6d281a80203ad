"""XPaths of JATS elements, as lxml's ``getpath`` gives them, computed without its per-call walk up the tree.

Every paragraph records the path of its element; these helpers give the same strings cheaply: a child's
path from its parent's, an article's elements' paths inside a file of many articles, and all articles'
paths in one pass.
"""

from __future__ import annotations

from typing import Any, Callable

from lxml import etree

__all__ = ["child_paths", "path_function", "article_paths", "prefixed_name"]

_MATHML = "{http://www.w3.org/1998/Math/MathML}"


def child_paths(element, path: str) -> list[tuple[Any, str]]:
    """The element children of ``element`` with their XPaths (``p[2]``; no index when the tag is unique),
    the same strings lxml's ``getpath`` gives, without its per-call walk up the tree."""
    tags: dict[str, int] = {}
    kids = []
    foreign = False
    for child in element:
        tag = child.tag
        if tag.__class__ is str:
            if tag[0] == "{":
                if tag.startswith(_MATHML):
                    continue
                foreign = True
            tags[tag] = tags.get(tag, 0) + 1
            kids.append(child)
    if len(tags) == len(kids) and not foreign:
        return [(child, f"{path}/{child.tag}") for child in kids]
    seen: dict[str, int] = {}
    out = []
    for child in kids:
        tag = child.tag
        name = tag if tag[0] != "{" or not child.prefix else f"{child.prefix}:{tag.partition('}')[2]}"
        if tag[0] == "{" and not child.prefix:
            out.append((child, child.getroottree().getpath(child)))
        elif tags[tag] == 1:
            out.append((child, f"{path}/{name}"))
        else:
            n = seen[tag] = seen.get(tag, 0) + 1
            out.append((child, f"{path}/{name}[{n}]"))
    return out



def prefixed_name(element) -> str:
    """``tp:nomenclature`` for a namespaced element, its tag otherwise."""
    tag = element.tag
    if tag.__class__ is not str:
        return "?"
    if tag[0] == "{":
        return f"{element.prefix}:{tag.partition('}')[2]}" if element.prefix else tag.partition("}")[2]
    return tag


def path_function(article, part: str | None) -> Callable[[object], str]:
    """lxml's ``getpath`` for elements of ``article``, whose own path is ``part`` (None: the whole tree's
    getpath). Inside a file of many articles the whole tree's getpath counts an article's preceding siblings at
    every call; paths are taken inside the article and put after ``part`` instead."""
    if part is None:
        return article.getroottree().getpath
    local = etree.ElementTree(article).getpath   # "/article/body/sec[2]" for the article's elements

    def getpath(element) -> str:
        if element is article:
            return part
        path = local(element)
        return part + path[path.index("/", 1):]

    return getpath


def article_paths(elements: list) -> list[str]:
    """The path of each article element, as the tree's ``getpath`` gives it, in time linear in their number."""
    out = []
    siblings: dict = {}   # parent element -> (its path, {article element: its index among same-tag siblings})
    for element in elements:
        parent = element.getparent()
        if parent is None:
            out.append(element.getroottree().getpath(element))
            continue
        entry = siblings.get(parent)
        if entry is None:
            same: dict = {}
            for child in parent:
                if child.tag == element.tag:
                    same[child] = len(same) + 1
            entry = siblings[parent] = (element.getroottree().getpath(parent), same)
        path, same = entry
        index = same.get(element)
        if index is None or len(same) == 1 or element.tag.__class__ is not str or element.tag[0] == "{":
            out.append(element.getroottree().getpath(element))  # not a plain sibling list: lxml's own
        else:
            out.append(f"{path}/{element.tag}[{index}]")
    return out


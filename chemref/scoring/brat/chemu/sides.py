"""One side of a ChEMU document (gold or prediction) read for scoring: its mentions numbered, its relations
coded by their argument numbers, and the COREFERENCE closure made once under a limit."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Hashable, Iterable, Sequence, cast

from chemref.brat.model import MentionKey
from chemref.brat.reader import scan_ann
from chemref.errors import BratError, ScoringError
from chemref.scoring.brat.closure import ClosureTooLarge, chain_successors, closure_pairs, closure_targets

Mention = MentionKey
RelItem = tuple[str, Mention, Mention]
Frag = tuple[int, int]


COREF = "COREFERENCE"


def document_items(text: str, path: str | None = None) -> tuple[set[Mention], set[RelItem], list[str]]:
    """Entities (every T line) and relations of one ``.ann`` text as sets, plus diagnostics.

    Read with :func:`chemref.brat.reader.scan_ann` (the reader's rules, without building objects; CR, LF
    and CRLF end a line).

    Args:
        text: The ``.ann`` text.
        path: The file's name, for errors and diagnostics.

    Returns:
        ``(entities, relations, diagnostics)``: mentions, ``(type, arg1 mention, arg2 mention)`` relations,
        and the reader's messages about the lines it ignored.

    Raises:
        BratError: A relation names an argument that is no T id of the file.
    """
    ments, rels, diags = scan_ann(text, path)
    items: set[RelItem] = set()
    for typ, a, b, lineno in rels:
        try:
            items.add((typ, ments[a], ments[b]))
        except KeyError as exc:
            raise BratError(f"relation refers to {exc.args[0]}, which is not a T id of this file",
                            path=path, line=lineno, hint="every Arg1/Arg2 must name a T line") from None
    return set(ments.values()), items, diags


#: default largest number of COREFERENCE links one document's expansion may hold (gold or prediction)
MAX_COREF_LINKS = 1_000_000
#: default largest number of COREFERENCE links the expansions of all of one prediction's documents may hold
MAX_COREF_TOTAL = 5_000_000


def _too_many_links(exc: ClosureTooLarge, path: str | None) -> ScoringError:
    return ScoringError(f"the COREFERENCE chains expand to {'' if exc.exact else 'more than '}{exc.size:,} "
                        f"links, more than the limit of {exc.limit:,} per document", path=path,
                        hint="raise it with --max-coref-links (max_coref_links=) if the file is genuine")


class CorefBudget:
    """The COREFERENCE links one prediction's expansions may hold over all its documents (``limit``; None: no
    limit), and how many they hold so far (``used``): one document past what is left is refused before its
    closure is built."""

    __slots__ = ("documents", "limit", "used")

    def __init__(self, limit: int | None) -> None:
        self.limit, self.used, self.documents = limit, 0, 0

    def left(self) -> int | None:
        return None if self.limit is None else max(self.limit - self.used, 0)

    def spend(self, links: int) -> None:
        self.used += links
        self.documents += 1

    def error(self, exc: ClosureTooLarge, path: str | None) -> ScoringError:
        more = "" if exc.exact else "more than "
        return ScoringError(f"the COREFERENCE chains of this document expand to {more}{exc.size:,} links; with "
                            f"the {self.used:,} of the {self.documents:,} documents before it, the prediction "
                            f"holds more than the limit of {self.limit:,} links per submission", path=path,
                            hint="raise it with --max-coref-total (max_coref_total=) if the files are genuine")


#: a relation's arguments as one number, ``arg1 << 32 | arg2`` (mention numbers, see :class:`Side`)
_LOW = (1 << 32) - 1
_BOTH = (1 << 32) + 1


@dataclass(frozen=True, eq=False)
class Side:
    """One side of a document (gold or prediction) as the scorer uses it: its entities, every mention
    numbered, each relation type's relations as the numbers of their two arguments, and the COREFERENCE links
    with the closure's added (made once, the limit checked first).

    A prediction is numbered after its gold (``base``): an equal mention has an equal number, so equal
    relations have equal codes; the prediction's own mentions come after the gold's.
    """

    ents: set[Mention]
    names: list[Mention]  # number -> mention (a prediction: the gold's list, then its own mentions)
    ids: dict[Mention, int]  # this side's mentions -> number
    ent_numbers: Sequence[int]  # the numbers of ``ents``
    codes: dict[str, set[int]]  # relation type -> {arg1 << 32 | arg2}
    expanded: set[int] | None  # the COREFERENCE codes with the closure's links, None when it adds none
    base: "Side | None" = None  # the gold a prediction is numbered after


def read_side(text: str, path: str | None = None, max_links: int | None = MAX_COREF_LINKS,
              gold: Side | None = None, whole_limit: bool = False,
              budget: CorefBudget | None = None) -> tuple[Side, list[str]]:
    """One ``.ann`` text as a :class:`Side` (a prediction after its ``gold``), plus the reader's diagnostics.

    :func:`document_items`'s reading and errors, :func:`prepare_side`'s numbering and expansion.

    Args:
        text: The ``.ann`` text.
        path: The file's name, for errors.
        max_links: The most COREFERENCE links this document's expansion may hold (None: no limit).
        gold: For a prediction, the gold side it is numbered after.
        whole_limit: Hold ``max_links`` for the closure however its links are laid out (a gold document).
        budget: Bounds the expansions of all the documents it is given for.

    Returns:
        ``(side, diagnostics)``.

    Raises:
        BratError: A relation names an argument that is no T id of the file.
        ScoringError: The COREFERENCE expansion would pass ``max_links`` or the budget.
    """
    ments, rels, diags = scan_ann(text, path)
    return _side(ments, rels, max_links, path, gold, whole_limit, lenient=False, budget=budget), diags


def prepare_side(ents: set[Mention], rels: set[RelItem], max_links: int | None = MAX_COREF_LINKS,
                 path: str | None = None, gold: Side | None = None, whole_limit: bool = False) -> Side:
    """Number one side's mentions (a prediction after its ``gold``), code its relations and expand its
    COREFERENCE links (:func:`expand_coref`'s rules, its limit and error).

    ``whole_limit`` (a gold document, checked as soon as it is read, before its prediction): the limit holds
    for the closure however its links are laid out, not only when they chain."""
    return _side({m: m for m in ents}, [(t, a, b, None) for t, a, b in rels], max_links, path, gold,
                 whole_limit, lenient=True)


def _side(ments: dict, rels: Iterable[tuple[str, Hashable, Hashable, int | None]], max_links: int | None,
          path: str | None, gold: Side | None, whole_limit: bool, lenient: bool,
          budget: CorefBudget | None = None) -> Side:
    """``ments``: key (a T id) -> mention; ``rels``: ``(type, arg1 key, arg2 key, line)``. An argument that is
    no key is a BratError, or (``lenient``: the key is the mention itself) a mention numbered but not an
    entity."""
    ids: dict[Mention, int] = {}
    number: dict = {}  # key -> number
    extra: list[Mention] = []  # a prediction's own mentions
    if gold is None:
        for key, m in ments.items():
            number[key] = ids.setdefault(m, len(ids))
        names = list(ids)
        ent_numbers: Sequence[int] = range(len(names))
    else:
        known, base = gold.ids.get, len(gold.names)
        for key, m in ments.items():
            i = ids.get(m)
            if i is None:
                i = known(m)
                if i is None:
                    i = base + len(extra)
                    extra.append(m)
                ids[m] = i
            number[key] = i
        ent_numbers = list(ids.values())
        names = gold.names + extra if extra else gold.names
    ents = set(ids)
    codes: dict[str, set[int]] = {}
    get = number.get
    for t, a, b, lineno in rels:
        i, j = get(a), get(b)
        if i is None or j is None:
            if not lenient:
                raise BratError(f"relation refers to {a if i is None else b}, which is not a T id of this file",
                                path=path, line=lineno, hint="every Arg1/Arg2 must name a T line")
            if names is (gold.names if gold is not None else None):
                names = list(names)
            # lenient: the keys are the mentions themselves
            i = _number(cast(Mention, a), ids, number, names, gold)
            j = _number(cast(Mention, b), ids, number, names, gold)
        found = codes.get(t)
        if found is None:
            found = codes[t] = set()
        found.add(i << 32 | j)
    expanded = _expanded_codes(codes.get(COREF), max_links, path, whole_limit, budget)
    return Side(ents, names, ids, ent_numbers, codes, expanded, gold)


def _number(m: Mention, ids: dict[Mention, int], number: dict, names: list[Mention], gold: Side | None) -> int:
    """The number of a relation argument given as a mention that is not one of the side's entities."""
    i = ids.get(m)
    if i is None:
        i = gold.ids.get(m) if gold is not None else None
        if i is None:
            i = len(names)
            names.append(m)
        ids[m] = i
        number[m] = i
    return i


def prepare_gold(ents: set[Mention], rels: set[RelItem], max_links: int | None = MAX_COREF_LINKS,
                 path: str | None = None) -> Side:
    """A gold document ready to score against any prediction (:func:`score_document` takes it as ``gold``).

    Args:
        ents: The gold mentions.
        rels: The gold relations.
        max_links: The most links its COREFERENCE closure may hold (counted before any is made).
        path: The file's name, for errors.

    Returns:
        The gold :class:`Side`, numbered and expanded once.

    Raises:
        ScoringError: The closure would hold more than ``max_links`` links (naming ``path``).
    """
    return prepare_side(ents, rels, max_links, path, whole_limit=True)


def _expanded_codes(links: set[int] | None, max_links: int | None, path: str | None,
                    whole_limit: bool, budget: CorefBudget | None = None) -> set[int] | None:
    """The COREFERENCE codes ``links`` with their closure's added, or None when it adds none; past
    ``max_links`` (or what is left of ``budget``), a ScoringError naming ``path`` before any link is made."""
    tighter = False
    if budget is not None and budget.limit is not None:
        left = budget.left()
        tighter = max_links is None or left < max_links  # type: ignore[operator]
        if tighter:
            max_links = left
    try:
        out = _closure_codes(links, max_links, whole_limit)
    except ClosureTooLarge as exc:
        raise (budget.error(exc, path) if tighter and budget is not None else _too_many_links(exc, path)) from None
    if budget is not None and out is not None:
        budget.spend(len(out))
    return out


def _closure_codes(links: set[int] | None, max_links: int | None, whole_limit: bool) -> set[int] | None:
    """:func:`_expanded_codes` raising :class:`ClosureTooLarge`."""
    if not links:
        return None
    pairs = [(c >> 32, c & _LOW) for c in links]
    heads = {a for a, _ in pairs}
    if (len(pairs) < 2 and not whole_limit) or not any(b in heads for _, b in pairs):
        # nothing follows transitively; with no chain, the closure is the links themselves
        if whole_limit and max_links is not None and len(pairs) > max_links:
            raise ClosureTooLarge(len(pairs), max_links)
        return None
    succ = chain_successors(pairs, max_links) if len(pairs) >= _VECTOR else None
    if succ is not None:
        out = set(links)
        out.update(_chain_codes(succ).tolist())
        return out if len(out) > len(links) else None
    closure = closure_targets(pairs, max_links)
    out = set(links)
    for a, reached in closure:
        high = a << 32
        out.update([high | b for b in reached])
    return out if len(out) > len(links) else None


def expand_coref(rels: set[RelItem], max_links: int | None = MAX_COREF_LINKS,
                 path: str | None = None) -> set[RelItem]:
    """Add the transitive COREFERENCE links (no inferred self links); other types are untouched.

    Args:
        rels: ``(type, arg1 mention, arg2 mention)`` relations.
        max_links: The most links the closure may hold (None: no limit).
        path: The file's name, for errors.

    Returns:
        The relations with the closure's links, or ``rels`` itself when nothing follows transitively.

    Raises:
        ScoringError: The closure would hold more than ``max_links`` links (before it is built).
    """
    links = [(a, b) for t, a, b in rels if t == COREF]
    if len(links) < 2:
        return rels
    heads = {a for a, _ in links}
    if not any(b in heads for _, b in links):
        return rels  # no chain a->b->c: the closure adds nothing
    try:
        closure = closure_pairs(links, max_links)
    except ClosureTooLarge as exc:
        raise _too_many_links(exc, path) from None
    expanded = set(rels)
    before = len(expanded)
    expanded.update((COREF, a, b) for a, b in closure)
    return rels if len(expanded) == before else expanded




#: from this many items, chains are walked and relations grouped with numpy arrays
_VECTOR = 20_000


def _chain_codes(succ: dict[int, int]):
    """The codes of the closure of links where each node has one successor and no cycle: every node paired
    with each node along its path, one step further for all nodes at once (numpy)."""
    import numpy as np

    a = np.fromiter(succ.keys(), np.int64, len(succ))
    b = np.fromiter(succ.values(), np.int64, len(succ))
    step = np.full(int(max(a.max(), b.max())) + 1, -1, np.int64)
    step[a] = b
    parts = []
    while a.size:
        parts.append((a << 32) | b)
        b = step[b]
        keep = b >= 0
        a, b = a[keep], b[keep]
    return np.concatenate(parts)

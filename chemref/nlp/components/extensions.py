"""The custom attributes chemref puts on spaCy objects: ``Doc._.chemref_references``, ``Span._.chemref_ref_ids``
and ``Span._.chemref_claim``, registered in one place.

Both are stored in ``doc.user_data`` in JSON-safe form (strings, tuples, plain dicts), so a Doc built by
:func:`chemref.nlp.make_doc` still survives ``doc.to_bytes()``, ``DocBin`` and ``nlp.pipe(n_process=...)``;
the getters hand back :class:`chemref.jats.model.Reference` objects and tuples of ids.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import fields
from typing import TYPE_CHECKING, Any, Iterable, Mapping
from weakref import WeakKeyDictionary

from chemref.jats.model import Reference
from chemref.nlp.claims import ClaimDecision

if TYPE_CHECKING:  # pragma: no cover
    from spacy.tokens import Doc, Span
from spacy.tokens import Doc, Span

__all__ = ["CITATIONS_KEY", "AUTHORS_KEY", "doc_text", "register_extensions", "references_mapping", "spans_within"]

#: The default span group of citation markers: ``spans_key`` of ``chemref_citations``, ``citations_key`` of
#: the components that read them.
CITATIONS_KEY = "chemref_citations"
#: The default span group of author mentions.
AUTHORS_KEY = "chemref_author_mentions"

_REFS_KEY = "chemref_references"
_IDS_KEY = "chemref_ref_ids"
_CLAIM_KEY = "chemref_claim"
_REF_FIELDS = tuple(f.name for f in fields(Reference))


# Doc.text rebuilds the string from every token on each access: components share one copy per Doc.
_TEXTS: "WeakKeyDictionary[Doc, str]" = WeakKeyDictionary()


def doc_text(doc: "Doc", text: str | None = None) -> str:
    """``doc.text``, computed once per Doc and shared by chemref's components (``text`` primes the cache)."""
    if text is not None:
        _TEXTS[doc] = text
        return text
    cached = _TEXTS.get(doc)
    if cached is None:
        cached = _TEXTS[doc] = doc.text
    return cached


def spans_within(windows: Iterable[tuple[int, int]], spans: Iterable["Span"]) -> list[list["Span"]]:
    """For each ``(start, end)`` character window, the spans lying wholly inside it, in text order.

    One bisect per window over the spans sorted by start, so a Doc with many sentences and many
    citations costs O((S + C) log C), not O(S x C).
    """
    items = sorted(((s.start_char, s.end_char, k, s) for k, s in enumerate(spans)), key=lambda t: t[:3])
    starts = [start for start, _, _, _ in items]
    out: list[list["Span"]] = []
    for w_start, w_end in windows:
        lo, hi = bisect_left(starts, w_start), bisect_right(starts, w_end)
        out.append([span for _, end, _, span in items[lo:hi] if end <= w_end])
    return out


def references_mapping(references: Mapping[str, Reference] | Iterable[Reference] | None) -> dict[str, Reference]:
    """Normalise ``references`` (id -> Reference, or an iterable of Reference) to a dict keyed by id."""
    if references is None:
        return {}
    if isinstance(references, Mapping):
        return dict(references)
    result: dict[str, Reference] = {}
    for ref in references:
        if not isinstance(ref, Reference):
            raise TypeError(f"references must be chemref.jats.model.Reference objects, got {type(ref).__name__}")
        result[ref.id] = ref
    return result


def _ref_to_plain(ref: Reference) -> dict[str, Any]:
    return {name: list(value) if isinstance(value, tuple) else value
            for name in _REF_FIELDS for value in (getattr(ref, name),)}


def _ref_from_plain(data: Mapping[str, Any]) -> Reference:
    fields: dict[str, Any] = {name: tuple(value) if isinstance(value, list) else value
                              for name, value in data.items() if name in _REF_FIELDS}
    return Reference(**fields)


def _get_references(doc: "Doc") -> dict[str, Reference]:
    stored = doc.user_data.get(_REFS_KEY)
    if not stored:
        return {}
    return {key: _ref_from_plain(value) for key, value in stored.items()}


def _set_references(doc: "Doc", value: Mapping[str, Reference] | Iterable[Reference] | None) -> None:
    mapping = references_mapping(value)
    doc.user_data[_REFS_KEY] = {str(key): _ref_to_plain(ref) for key, ref in mapping.items()}


def _user_data(doc: "Doc") -> dict[Any, Any]:
    """``doc.user_data``, keyed by tuples here as spaCy keys its own span attributes."""
    return doc.user_data  # type: ignore[no-any-return]


def _get_ref_ids(span: "Span") -> tuple[str, ...]:
    return tuple(_user_data(span.doc).get((_IDS_KEY, span.start_char, span.end_char, span.id), ()))


def _set_ref_ids(span: "Span", value: Iterable[str]) -> None:
    # keyed like spaCy's own span attributes (offsets and span id), so two anchors on the same characters
    # (make_doc gives each its index as span.id_) keep their own ids
    _user_data(span.doc)[(_IDS_KEY, span.start_char, span.end_char, span.id)] = tuple(str(v) for v in value)


def _claim_key(span: "Span") -> tuple[str, str, int, int]:
    return ("._.", _CLAIM_KEY, span.start_char, span.end_char)


def _get_claim(span: "Span") -> ClaimDecision | None:
    value = _user_data(span.doc).get(_claim_key(span))
    return None if value is None else ClaimDecision(*value)


def _set_claim(span: "Span", decision: ClaimDecision | None) -> None:
    # stored as a plain (label, score, rule) tuple so Docs stay msgpack-safe (DocBin, n_process > 1)
    key = _claim_key(span)
    if decision is None:
        _user_data(span.doc).pop(key, None)
    else:
        _user_data(span.doc)[key] = (decision.label, decision.score, decision.rule)


def register_extensions() -> None:
    """Register the attributes once (idempotent: guarded with ``has_extension``)."""
    if not Doc.has_extension(_REFS_KEY):
        Doc.set_extension(_REFS_KEY, getter=_get_references, setter=_set_references)
    if not Span.has_extension(_IDS_KEY):
        Span.set_extension(_IDS_KEY, getter=_get_ref_ids, setter=_set_ref_ids)
    if not Span.has_extension(_CLAIM_KEY):
        Span.set_extension(_CLAIM_KEY, getter=_get_claim, setter=_set_claim)


register_extensions()

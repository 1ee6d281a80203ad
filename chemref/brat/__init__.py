"""BRAT standoff model and reader/writer (no spaCy)."""

from chemref.brat.model import (Attribute, Document, Entity, Equiv, Event, MentionKey, Normalization, Note,
                                Relation, Span)
from chemref.brat.reader import ALL_KINDS, SCORING_KINDS, decode_ann, parse_ann, read_ann
from chemref.brat.writer import format_ann, write_ann

__all__ = ["Span", "Entity", "Relation", "Event", "Attribute", "Normalization", "Note", "Equiv", "Document",
           "MentionKey", "parse_ann", "read_ann", "decode_ann", "format_ann", "write_ann", "ALL_KINDS",
           "SCORING_KINDS"]

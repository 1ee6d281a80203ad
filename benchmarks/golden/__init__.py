"""Golden tables and oracles shared by the tests and the benchmarks (the benchmarks never import tests/)."""

from __future__ import annotations

from typing import Any, NamedTuple

__all__ = ["Hard", "hard"]


class Hard(NamedTuple):
    """A golden case the rules do not get right yet: an xfail in the tests (strict unless said otherwise),
    a case like any other for the benchmarks (``case.values``, as ``pytest.param`` has)."""

    values: tuple[Any, ...]
    reason: str
    strict: bool = True


def hard(*values: Any, reason: str, strict: bool = True) -> Hard:
    """``hard(text, expected, reason="...")``: a :class:`Hard` case."""
    return Hard(tuple(values), reason, strict)

"""JSON (never pickle) serialisation shared by the rule-table components (author mentions, claims)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, ClassVar, Iterable

from chemref.errors import InputError
from chemref.jsonl import parse_json

__all__ = ["JsonRulesMixin"]


class JsonRulesMixin:
    """spaCy ``to_bytes``/``from_bytes``/``to_disk``/``from_disk`` for a component whose state is ``self.rules``.

    A subclass names the rules class (built from the parsed JSON, exported by its ``to_json()``) and the file
    that holds the tables in the component's folder of a saved pipeline.
    """

    rules: Any
    rules_class: ClassVar[type]
    tables_file: ClassVar[str]

    def to_bytes(self, *, exclude: Iterable[str] = ()) -> bytes:
        """The rule tables as JSON bytes."""
        return json.dumps(self.rules.to_json(), ensure_ascii=False, sort_keys=True).encode("utf-8")

    def from_bytes(self, data: bytes, *, exclude: Iterable[str] = ()) -> Any:
        """Load rule tables written by :meth:`to_bytes`."""
        self.rules = self.rules_class(parse_json(data))  # strict: finite numbers, bounded nesting
        return self

    def to_disk(self, path: str | Path, *, exclude: Iterable[str] = ()) -> None:
        """Write the rule tables as JSON into the component's folder."""
        path = Path(path)
        path.mkdir(parents=True, exist_ok=True)
        (path / self.tables_file).write_bytes(self.to_bytes())

    def from_disk(self, path: str | Path, *, exclude: Iterable[str] = ()) -> Any:
        """Load the tables written by :meth:`to_disk` (InputError when the file is missing)."""
        file = Path(path) / self.tables_file
        if not file.is_file():
            raise InputError("the saved component has no rule-table file", path=str(file),
                             hint="save the pipeline again with nlp.to_disk()")
        return self.from_bytes(file.read_bytes())

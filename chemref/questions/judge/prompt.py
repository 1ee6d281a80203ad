"""The judge's prompt: a versioned template shipped in the package (``data/judge_prompt_v1.json``).

The template shows the model only what a labeller sees: the excerpt, the sentence as printed, and the cited
work's title, authors, year and venue. It never shows a score, a rule or a rejection reason. The first line
of the system message names the prompt version, so every request carries it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any, Mapping

__all__ = ["PROMPT_VERSION", "Prompt", "load_prompt", "render_messages", "version_line"]

#: The version of the shipped prompt; it is the first line of every system message it renders.
PROMPT_VERSION = "judge-v1"
_FIELDS = ("excerpt", "sentence", "title", "authors", "year", "venue")


def version_line(version: str) -> str:
    """The first line of the system message of prompt ``version``."""
    return f"chemref question judge, prompt {version}"


@dataclass(frozen=True, slots=True)
class Prompt:
    """A judge prompt: the system message, the user message's template (``str.format`` fields
    :data:`_FIELDS`), how many authors are listed before "et al.", and the text for a missing field."""

    version: str
    system: str
    user: str
    max_authors: int
    unknown: str

    def render(self, record: Mapping[str, Any]) -> list[dict[str, str]]:
        """The chat messages for one candidate record (a row of ``questions.jsonl`` or ``rejected.jsonl``)."""
        authors = record.get("target_authors") or []
        names = ", ".join(str(name) for name in authors[: self.max_authors])
        if len(authors) > self.max_authors:
            names += ", et al."
        values = {
            "excerpt": _text(record.get("excerpt"), self.unknown),
            "sentence": _text(record.get("sentence"), self.unknown),
            "title": _text(record.get("target_title"), self.unknown),
            "authors": names or self.unknown,
            "year": _text(record.get("target_year"), self.unknown),
            "venue": _text(record.get("target_container"), self.unknown),
        }
        return [{"role": "system", "content": self.system},
                {"role": "user", "content": self.user.format_map(values)}]


def _text(value: Any, unknown: str) -> str:
    if value is None or value == "":
        return unknown
    return " ".join(str(value).split())


def _parse(doc: Mapping[str, Any], where: str) -> Prompt:
    def lines(key: str) -> str:
        value = doc.get(key)
        if not isinstance(value, list) or not all(isinstance(line, str) for line in value):
            raise ValueError(f"{where}: {key!r} must be a list of lines")
        return "\n".join(value)

    version = doc.get("version")
    if not isinstance(version, str) or not version:
        raise ValueError(f"{where}: 'version' must be a non-empty string")
    system, user = lines("system"), lines("user")
    if system.splitlines()[0] != version_line(version):
        raise ValueError(f"{where}: the system message must open with {version_line(version)!r}")
    try:
        user.format_map({name: "" for name in _FIELDS})
    except (KeyError, IndexError, ValueError) as exc:
        raise ValueError(f"{where}: the user template uses an unknown field or a stray brace ({exc})") from None
    max_authors, unknown = doc.get("max_authors"), doc.get("unknown")
    if not isinstance(max_authors, int) or isinstance(max_authors, bool) or max_authors < 1:
        raise ValueError(f"{where}: 'max_authors' must be a positive integer")
    if not isinstance(unknown, str):
        raise ValueError(f"{where}: 'unknown' must be a string")
    return Prompt(version, system, user, max_authors, unknown)


@lru_cache(maxsize=None)
def load_prompt(version: str = PROMPT_VERSION) -> Prompt:
    """The shipped prompt of ``version`` (only ``judge-v1`` ships)."""
    name = f"judge_prompt_{version.removeprefix('judge-')}.json"
    resource = resources.files("chemref.questions").joinpath("data", name)
    if not resource.is_file():
        raise KeyError(f"no shipped judge prompt {version!r}")
    return _parse(json.loads(resource.read_text(encoding="utf-8")), name)


def render_messages(record: Mapping[str, Any], version: str = PROMPT_VERSION) -> list[dict[str, str]]:
    """The chat messages of the shipped prompt ``version`` for one candidate record."""
    return load_prompt(version).render(record)

"""The language-model prompts: versioned templates shipped in the package (``data/*_prompt_v1.json``).

Two kinds ship (:data:`KINDS`), each allowed its own template fields and nothing else:

- the judge's (``judge-v1``) shows the model only what a labeller sees: the excerpt, the sentence as printed,
  and the cited work's title, authors, year and venue;
- the closed-book test's (``closed-book-v1``) shows only the excerpt, with its ``[CITATION]`` marker: what a
  benchmark taker sees. A template that asks for any other field is refused when it is loaded.

Neither shows a score, a rule or a rejection reason. The first line of the system message names the prompt
version, so every request carries it (:func:`prompt_version` reads it back).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any, Mapping

__all__ = ["PROMPT_VERSION", "CLOSED_BOOK_PROMPT_VERSION", "KINDS", "Prompt", "load_prompt", "render_messages",
           "version_line", "prompt_version"]

#: The version of the shipped judge prompt; it is the first line of every system message it renders.
PROMPT_VERSION = "judge-v1"
#: The version of the shipped closed-book prompt.
CLOSED_BOOK_PROMPT_VERSION = "closed-book-v1"
#: Each kind of prompt: the name its version line gives it, and the record fields its template may show.
KINDS: dict[str, tuple[str, tuple[str, ...]]] = {
    "judge": ("chemref question judge", ("excerpt", "sentence", "title", "authors", "year", "venue")),
    "closed-book": ("chemref closed-book recall", ("excerpt",)),
}
_VERSION = re.compile(r"\A(?P<kind>[a-z]+(?:-[a-z]+)*)-v(?P<number>\d{1,4})\Z")
_LINE = re.compile(r"\A(?P<name>chemref [a-z -]{1,40}), prompt (?P<version>[\w.+-]{1,40})(?!\S)")


def _kind(version: str) -> str:
    match = _VERSION.match(version)
    if match is None or match.group("kind") not in KINDS:
        raise KeyError(f"no shipped prompt {version!r}")
    return match.group("kind")


def version_line(version: str) -> str:
    """The first line of the system message of prompt ``version``."""
    return f"{KINDS[_kind(version)][0]}, prompt {version}"


def prompt_version(messages: Any, kind: str = "judge") -> str | None:
    """The version of a ``kind`` prompt named by the first line of ``messages`` (a request's chat messages), or
    None when they open with no such line."""
    if not isinstance(messages, list) or not messages or not isinstance(messages[0], dict):
        return None
    match = _LINE.match(str(messages[0].get("content") or ""))
    if match is None or match.group("name") != KINDS[kind][0]:
        return None
    version = match.group("version")
    parsed = _VERSION.match(version)
    return version if parsed is not None and parsed.group("kind") == kind else None


@dataclass(frozen=True, slots=True)
class Prompt:
    """A prompt: the system message, the user message's template (``str.format`` fields: only those its kind
    allows, :data:`KINDS`), how many authors are listed before "et al.", and the text for a missing field."""

    version: str
    system: str
    user: str
    max_authors: int
    unknown: str

    @property
    def fields(self) -> tuple[str, ...]:
        """The record fields this prompt may show (its kind's, :data:`KINDS`)."""
        return KINDS[_kind(self.version)][1]

    def render(self, record: Mapping[str, Any]) -> list[dict[str, str]]:
        """The chat messages for one candidate record (a row of ``questions.jsonl`` or ``rejected.jsonl``): only
        the fields of :attr:`fields` are read from it."""
        values = {name: _VALUES[name](record, self) for name in self.fields}
        return [{"role": "system", "content": self.system},
                {"role": "user", "content": self.user.format_map(values)}]


def _authors(record: Mapping[str, Any], prompt: Prompt) -> str:
    authors = record.get("target_authors") or []
    names = ", ".join(str(name) for name in authors[: prompt.max_authors])
    if len(authors) > prompt.max_authors:
        names += ", et al."
    return names or prompt.unknown


#: How each template field is read from a record.
_VALUES = {
    "excerpt": lambda record, prompt: _text(record.get("excerpt"), prompt.unknown),
    "sentence": lambda record, prompt: _text(record.get("sentence"), prompt.unknown),
    "title": lambda record, prompt: _text(record.get("target_title"), prompt.unknown),
    "authors": _authors,
    "year": lambda record, prompt: _text(record.get("target_year"), prompt.unknown),
    "venue": lambda record, prompt: _text(record.get("target_container"), prompt.unknown),
}


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
    try:
        kind = _kind(version)
    except KeyError:
        raise ValueError(f"{where}: 'version' must be one of the kinds {', '.join(KINDS)} and -vN, "
                         f"got {version!r}") from None
    system, user = lines("system"), lines("user")
    if system.splitlines()[0] != version_line(version):
        raise ValueError(f"{where}: the system message must open with {version_line(version)!r}")
    try:
        user.format_map({name: "" for name in KINDS[kind][1]})
    except (KeyError, IndexError, ValueError) as exc:
        raise ValueError(f"{where}: the user template uses a field a {kind} prompt may not show, or a stray "
                         f"brace ({exc})") from None
    max_authors, unknown = doc.get("max_authors"), doc.get("unknown")
    if not isinstance(max_authors, int) or isinstance(max_authors, bool) or max_authors < 1:
        raise ValueError(f"{where}: 'max_authors' must be a positive integer")
    if not isinstance(unknown, str):
        raise ValueError(f"{where}: 'unknown' must be a string")
    return Prompt(version, system, user, max_authors, unknown)


@lru_cache(maxsize=None)
def load_prompt(version: str = PROMPT_VERSION) -> Prompt:
    """The shipped prompt of ``version`` (``judge-v1`` and ``closed-book-v1`` ship)."""
    kind = _kind(version)
    name = f"{kind.replace('-', '_')}_prompt_{version.removeprefix(kind + '-')}.json"
    resource = resources.files("chemref.questions").joinpath("data", name)
    if not resource.is_file():
        raise KeyError(f"no shipped {kind} prompt {version!r}")
    return _parse(json.loads(resource.read_text(encoding="utf-8")), name)


def render_messages(record: Mapping[str, Any], version: str = PROMPT_VERSION) -> list[dict[str, str]]:
    """The chat messages of the shipped prompt ``version`` for one candidate record."""
    return load_prompt(version).render(record)

"""The state a build reads back from its output folder: ``manifest.json`` and the journal ``progress.jsonl``.

Both are untrusted input (anyone can edit an output folder), so each is checked against a JSON Schema
before any of it is used, and what the schema cannot say is checked after: a shard summary names exactly
the files of its index, its row counts and totals agree, its articles fit in a shard. A build removes or
renames only the names it would write itself (:func:`is_build_name`), inside its output folder.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path
from typing import Any

from chemref.errors import InputError
from chemref.jsonl import check_schema, parse_json, read_json
from chemref.questions.funnel.difficulty import RANK_BUCKETS
from chemref.questions.funnel.filters import REASONS
from chemref.questions.funnel.settings import ANSWER_KEYS, AUTHOR_MODES
from chemref.questions.output.shards import FORMATS, KINDS, file_digest, shard_name
from chemref.questions.output.totals import MAX_ERRORS, MAX_LICENCES, MAX_SOURCES

__all__ = ["check_build_state", "MANIFEST_FORMAT", "MAX_MANIFEST_BYTES", "MAX_JOURNAL_LINE", "FOLDER_FILES", "is_build_name",
           "read_manifest", "journal_header", "journal_shard", "check_shard", "keeps_rejected"]

#: what marks a manifest (and a journal) as chemref's
MANIFEST_FORMAT = "chemref-questions-build"
#: largest manifest read (a build of 100 million articles writes about 60 MB)
MAX_MANIFEST_BYTES = 64 * 2**20
#: largest journal line read (a shard summary with its samples of sources and errors: well under 1 MB)
MAX_JOURNAL_LINE = 16 * 2**20
#: the files of a folder build besides its shards
FOLDER_FILES = ("report.json", "report.png", "README.md")
#: the most shards a build can have (the index has five digits at least; this bounds what a journal may claim)
MAX_SHARDS = 10**9

_SHARD_NAME = re.compile(r"(questions|rejected|articles)-([0-9]{5,})\.(jsonl|parquet)")
_HINT = "remove the staging folder (or the output folder) to start the build again"

_COUNT = {"type": "integer", "minimum": 0}
_TEXT = {"type": "string", "maxLength": 100_000}
_OPTIONAL_TEXT = {"type": ["string", "null"], "maxLength": 100_000}
_SHA256 = {"type": "string", "pattern": "^[0-9a-f]{64}$"}


def _totals_schema(samples: bool) -> dict[str, Any]:
    properties: dict[str, Any] = {
        "articles": _COUNT, "read": _COUNT, "unreadable": _COUNT, "with_questions": _COUNT,
        "candidates": _COUNT, "questions": _COUNT, "rejected": _COUNT,
        "skipped": {"type": "object", "additionalProperties": _COUNT, "maxProperties": 100},
        "funnel": {"type": "object", "propertyNames": {"enum": list(REASONS)}, "additionalProperties": _COUNT},
        "licences": {"type": "array", "items": _TEXT, "maxItems": MAX_LICENCES},
        "licences_over": {"type": "boolean"},
        "stopped": {"type": "array", "items": _TEXT, "maxItems": 10_000},
    }
    if samples:
        properties["sources"] = {"type": "array", "maxItems": MAX_SOURCES, "items": {
            "type": "array", "minItems": 4, "maxItems": 4,
            "items": [_OPTIONAL_TEXT, _OPTIONAL_TEXT, _OPTIONAL_TEXT, _COUNT]}}
        properties["errors"] = {"type": "array", "maxItems": MAX_ERRORS, "items": {
            "type": "array", "minItems": 2, "maxItems": 2, "items": _TEXT}}
    required = list(properties)
    ranks = [name for name, _, _ in RANK_BUCKETS]
    # questions per difficulty bucket (absent from the checkpoints of builds made before it was counted)
    properties["bibliography_ranks"] = {"type": "object", "propertyNames": {"enum": [*ranks, "none"]},
                                        "additionalProperties": _COUNT}
    return {"type": "object", "additionalProperties": False, "required": required, "properties": properties}


def _settings_schema() -> dict[str, Any]:
    share = {"type": "number", "minimum": 0, "maximum": 1}
    properties = {
        "per_article": {"type": "integer", "minimum": 1}, "min_chars": _COUNT, "max_chars": _COUNT,
        "seed": {"type": "integer"}, "authors": {"enum": list(AUTHOR_MODES)},
        "min_findability": {"anyOf": [share, {"type": "null"}]}, "min_score": share,
        "per_target": {"type": "integer", "minimum": 1}, "answer_key": {"enum": list(ANSWER_KEYS)},
        "selector": _OPTIONAL_TEXT,
    }
    return {"type": "object", "additionalProperties": False, "required": list(properties),
            "properties": properties}


def _identity_schema() -> dict[str, Any]:
    properties = {
        "chemref_version": _TEXT, "settings": _settings_schema(), "selector_sha256": _SHA256,
        "layout": {"type": "object", "additionalProperties": False, "required": ["format", "shard_articles"],
                   "properties": {"format": {"enum": list(FORMATS)},
                                  "shard_articles": {"type": "integer", "minimum": 1},
                                  # whether the shards hold the rejected records (keeps_rejected)
                                  "rejected": {"type": "boolean"}}},
        "inputs": {"type": "array", "items": _TEXT}, "files_from": _OPTIONAL_TEXT,
    }
    # a build recorded before the selector's digest was has none: resuming it names the difference
    required = [name for name in properties if name != "selector_sha256"]
    return {"type": "object", "additionalProperties": False, "required": required, "properties": properties}


def _shard_schema(totals: bool) -> dict[str, Any]:
    file_info = {"type": "object", "additionalProperties": False, "required": ["sha256", "bytes", "rows"],
                 "properties": {"sha256": _SHA256, "bytes": _COUNT, "rows": _COUNT}}
    properties: dict[str, Any] = {
        "index": {"type": "integer", "minimum": 0, "maximum": MAX_SHARDS},
        "articles": {"type": "integer", "minimum": 1}, "first": _TEXT, "last": _TEXT,
        "files": {"type": "object", "minProperties": 3, "maxProperties": 3,
                  "propertyNames": {"pattern": f"^{_SHARD_NAME.pattern}$"}, "additionalProperties": file_info},
    }
    required = list(properties)
    if totals:
        properties["labels"] = {"anyOf": [_SHA256, {"type": "null"}]}
        properties["inputs"] = {"anyOf": [_SHA256, {"type": "null"}]}
        properties["totals"] = _totals_schema(samples=True)
        required += ["totals"]
    return {"type": "object", "additionalProperties": False, "required": required, "properties": properties}


_SCHEMAS: dict[str, dict[str, Any]] = {}


def _schema(name: str) -> dict[str, Any]:
    """The schemas, built once (they name the filters, formats and limits of the modules they describe)."""
    if not _SCHEMAS:
        header = {"type": "object", "additionalProperties": False, "required": ["format", "identity"],
                  "properties": {"format": {"const": MANIFEST_FORMAT}, "identity": _identity_schema(),
                                 "started": _TEXT}}
        identity = _identity_schema()
        manifest_props = {
            "format": {"const": MANIFEST_FORMAT}, "chemref_version": _TEXT, "status": {"const": "complete"},
            "identity": identity, "settings": identity["properties"]["settings"],
            "layout": identity["properties"]["layout"], "inputs": identity["properties"]["inputs"],
            "files_from": _OPTIONAL_TEXT, "articles_done": _COUNT,
            "shards": {"type": "array", "items": _shard_schema(totals=False)},
            "files": {"type": "object", "additionalProperties": False, "required": list(FOLDER_FILES),
                      "properties": {name: {"type": "object", "additionalProperties": False,
                                            "required": ["sha256", "bytes"],
                                            "properties": {"sha256": _SHA256, "bytes": _COUNT}}
                                     for name in FOLDER_FILES}},
            "totals": {**_totals_schema(samples=False)},
            "timings": {"type": "object", "additionalProperties": _TEXT},
        }
        _SCHEMAS["manifest"] = {"type": "object", "additionalProperties": False, "required": list(manifest_props),
                                "properties": manifest_props}
        _SCHEMAS["header"] = header
        _SCHEMAS["shard"] = _shard_schema(totals=True)
        _SCHEMAS["format"] = {"type": "object", "required": ["format"],
                              "properties": {"format": {"const": MANIFEST_FORMAT}}}
    return _SCHEMAS[name]


def is_build_name(name: str) -> bool:
    """Whether ``name`` is a file a folder build writes: a shard file (``questions-00003.jsonl``) or one of
    :data:`FOLDER_FILES`. Nothing else in an output folder is ever removed or replaced."""
    return name in FOLDER_FILES or _SHARD_NAME.fullmatch(name) is not None


def is_chemref_manifest(path: Path) -> bool:
    """Whether ``path`` is a regular file that says it is a chemref build's manifest (read, then checked
    whole by :func:`read_manifest` before any of it is used)."""
    try:
        value = read_json(path, what="invalid manifest", limit=MAX_MANIFEST_BYTES, hint=_HINT)
    except InputError:
        return False
    return isinstance(value, dict) and value.get("format") == MANIFEST_FORMAT


def keeps_rejected(layout: dict[str, Any]) -> bool:
    """Whether the shards of a build with this recorded ``layout`` hold its rejected records (a layout recorded
    before it said so: they do)."""
    return bool(layout.get("rejected", True))


def read_manifest(path: Path) -> dict[str, Any]:
    """The manifest of a complete folder build, checked against its schema (and its shards against their
    index, as :func:`check_shard` checks a journal's)."""
    manifest = read_json(path, what="invalid manifest", schema=_schema("manifest"), limit=MAX_MANIFEST_BYTES,
                         hint="remove the output folder's files to build again")
    fmt = manifest["layout"]["format"]
    size = manifest["layout"]["shard_articles"]
    for k, shard in enumerate(manifest["shards"]):
        problem = _shard_problem(shard, k, fmt, size, keeps_rejected(manifest["layout"]))
        if problem:
            raise InputError(f"invalid manifest: {problem} (at $.shards[{k}])", path=str(path),
                             hint="remove the output folder's files to build again")
    return manifest


def journal_header(raw: bytes, *, path: Path, line: int) -> dict[str, Any]:
    """The journal's first line, checked."""
    value = parse_json(raw, path=path, line=line)
    check_schema(value, _schema("format"), what="invalid checkpoint", path=path, line=line, hint=_HINT)
    return check_schema(value, _schema("header"), what="invalid checkpoint", path=path, line=line, hint=_HINT)


def journal_shard(raw: bytes | str, *, path: Path, line: int, fmt: str, shard_articles: int,
                  rejected: bool = True) -> dict[str, Any]:
    """One shard summary of the journal, checked (schema, then :func:`check_shard`; ``rejected``: whether the
    build's shards hold its rejected records)."""
    value = parse_json(raw, path=path, line=line)
    check_schema(value, _schema("shard"), what="invalid checkpoint", path=path, line=line, hint=_HINT)
    problem = _shard_problem(value, None, fmt, shard_articles, rejected)
    if problem:
        raise InputError(f"invalid checkpoint: {problem}", path=str(path), line=line, hint=_HINT)
    return value


def _shard_problem(shard: dict[str, Any], index: int | None, fmt: str, shard_articles: int,
                   rejected: bool = True) -> str | None:
    """What is wrong with a shard summary beyond its schema, or None (``rejected``: the shards hold the rejected
    records; else their shard has no rows)."""
    k = shard["index"]
    if index is not None and k != index:
        return f"shard {k} where shard {index} belongs"
    if shard["articles"] > shard_articles:
        return f"shard {k} claims {shard['articles']} articles, more than the {shard_articles} of a shard"
    expected = {shard_name(kind, k, fmt): kind for kind in KINDS}
    if set(shard["files"]) != set(expected):
        return f"shard {k} must name exactly the files {', '.join(sorted(expected))}"
    rows = {kind: shard["files"][name]["rows"] for name, kind in expected.items()}
    if rows["articles"] != shard["articles"]:
        return f"shard {k} claims {shard['articles']} articles but {rows['articles']} article rows"
    totals = shard.get("totals")
    if totals is not None:
        counted = totals["read"] + totals["unreadable"] + sum(totals["skipped"].values())
        if totals["articles"] != shard["articles"] or counted != shard["articles"]:
            return f"shard {k}: its totals count {totals['articles']} articles ({counted} read, unreadable or " \
                   f"skipped), its summary {shard['articles']}"
        if totals["questions"] != rows["questions"] or rows["rejected"] != (totals["rejected"] if rejected else 0):
            return f"shard {k}: its totals count {totals['questions']} questions and {totals['rejected']} " \
                   f"rejected, its files {rows['questions']} and {rows['rejected']}"
        if sum(totals["funnel"].values()) != totals["rejected"] or \
                totals["questions"] + totals["rejected"] != totals["candidates"]:
            return f"shard {k}: its totals do not add up ({totals['candidates']} candidates, {totals['questions']} " \
                   f"questions, {totals['rejected']} rejected, {sum(totals['funnel'].values())} in the funnel)"
        if totals["with_questions"] > totals["read"] or totals["with_questions"] > totals["questions"]:
            return f"shard {k}: more articles with questions ({totals['with_questions']}) than it can have"
    return None


def _build_file(path: Path) -> bool:
    """Whether the build's own file ``path`` is there: a regular file, not followed through a link (a link,
    a FIFO or a folder in its place is an :class:`InputError`: the build writes none)."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return False
    except OSError as exc:
        raise InputError(f"cannot read the build's file: {exc.strerror or exc}", path=str(path)) from None
    if not stat.S_ISREG(mode):
        kind = "a symbolic link" if stat.S_ISLNK(mode) else "a folder" if stat.S_ISDIR(mode) else \
            "not a regular file"
        raise InputError(f"the build's file {path.name} is {kind}; a build writes only regular files, so it "
                         "was not written by one", path=str(path), hint=_HINT)
    return True


def check_build_state(staging: Path, journal: Path) -> None:
    """Before a resumed build reads its state: the staging folder is a folder and the journal a regular file,
    neither reached through a symbolic link (an :class:`InputError` otherwise)."""
    try:
        mode = os.lstat(staging).st_mode
    except OSError:
        return  # nothing there: "nothing to resume" is said next
    if not stat.S_ISDIR(mode):
        raise InputError("the staging folder is " + ("a symbolic link" if stat.S_ISLNK(mode) else "not a folder")
                         + "; a build makes a folder of its own there", path=str(staging), hint=_HINT)
    _build_file(journal)


def check_shard(shard: dict[str, Any], folders: tuple[Path, ...]) -> None:
    """The files of a shard the journal (or manifest) lists must be on disk as it lists them: size, SHA-256
    and (JSON Lines) row count, in the first of ``folders`` that holds them. Checked before a resumed build
    uses them."""
    for name, info in shard["files"].items():
        path = next((folder / name for folder in folders if _build_file(folder / name)), None)
        if path is None:
            raise InputError(f"shard file {name} of the interrupted build is missing", path=str(folders[0]),
                             hint=_HINT)
        size = os.stat(path).st_size
        if size != info["bytes"]:
            raise InputError(f"shard file {name} has changed since it was written ({size} bytes, the journal "
                             f"says {info['bytes']})", path=str(path), hint=_HINT)
        digest, lines = file_digest(path)
        if digest != info["sha256"] or (name.endswith(".jsonl") and lines != info["rows"]):
            raise InputError(f"shard file {name} has changed since it was written (its SHA-256 differs from the "
                             "journal's)", path=str(path), hint=_HINT)

"""The build's journal (``progress.jsonl`` in the staging folder): one line per finished shard, read back
on ``--resume``, with the running totals of the shards done."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any, Iterator

from chemref._io import atomic_write
from chemref.errors import InputError
from chemref.jsonl import json_line
from chemref.questions.output.manifest import (
    MANIFEST_FORMAT,
    MAX_JOURNAL_LINE,
    check_shard,
    journal_header,
    journal_shard,
    keeps_rejected,
)
from chemref.questions.output.totals import MAX_ERRORS, MAX_SOURCES, BuildTotals

__all__ = ["CHECKPOINT", "Checkpoint", "differences"]

#: the journal's name in the staging folder
CHECKPOINT = "progress.jsonl"


def differences(saved: dict[str, Any], current: dict[str, Any]) -> list[str]:
    """What differs between a recorded build identity and this run's, one ``key <then> then, <now> now`` each (a
    layout that does not say whether the shards hold the rejected records, as recorded before it did, holds
    them)."""
    saved, current = _rejected_kept(saved), _rejected_kept(current)
    out = []
    for key in sorted(set(saved) | set(current)):
        if saved.get(key) != current.get(key):
            out.append(f"{key} {json.dumps(saved.get(key))} then, {json.dumps(current.get(key))} now")
    return out


def _rejected_kept(identity: dict[str, Any]) -> dict[str, Any]:
    layout = identity.get("layout")
    if isinstance(layout, dict) and "rejected" not in layout:
        return {**identity, "layout": {**layout, "rejected": keeps_rejected(layout)}}
    return identity


class Checkpoint:
    """``progress.jsonl`` in the staging folder, an append-only journal: a header line (the identity of the
    run), then one line per finished shard (its summary), each flushed and fsync'ed, so adding a shard
    costs the same at the first shard and the millionth.

    In memory: the totals of the contiguous done shards ``0..prefix_end-1`` folded into ``prefix``, and the
    summaries of shards done out of order (none for the local pool, at most the window on Dask). On resume
    :attr:`done` holds the article count, first and last article and the digest of the articles' names of
    each shard done before, which the input check needs."""

    def __init__(self, path: Path, identity: dict[str, Any]) -> None:
        self.path = path
        self.identity = identity
        self.started = time.strftime("%Y-%m-%dT%H:%M:%S%z")
        self.prefix = BuildTotals()  # totals of the shards 0..prefix_end-1 (their samples merged here)
        self.prefix_end = 0
        self.pending: dict[int, dict[str, Any]] = {}  # shards done after a gap, by index
        self.done: dict[int, dict[str, Any]] = {}  # shards done before a resume: articles, first, last
        self.articles = 0
        self.questions = 0
        #: the digest of each shard's inputs (names, sizes, modification times), by index, until recorded
        self.stamps: dict[int, str] = {}
        self._handle: Any = None

    def _header(self) -> dict[str, Any]:
        return {"format": MANIFEST_FORMAT, "identity": self.identity, "started": self.started}

    def start(self) -> None:
        """Open a new journal and write its header."""
        try:
            self._handle = open(self.path, "x", encoding="utf-8")
        except OSError as exc:
            raise InputError(f"cannot write the checkpoint: {exc.strerror or exc}", path=str(self.path)) from None
        self._append(self._header())

    def load(self, what: str) -> None:
        """Read the journal of an interrupted build, checking every line against its schema, and open it for
        appending. A torn last line (a kill part-way through writing it) is cut off: the shard it describes
        is simply redone."""
        good = 0  # the byte offset after the last whole line
        ended = True  # whether that line has its newline
        header: dict[str, Any] | None = None
        layout = self.identity["layout"]
        with open(self.path, "rb") as handle:
            for number, raw in enumerate(iter(lambda: handle.readline(MAX_JOURNAL_LINE + 1), b""), 1):
                if len(raw) > MAX_JOURNAL_LINE:
                    raise self._damaged(f"line {number} of the checkpoint is longer than any shard summary")
                if _journal_entry(raw) is None:
                    if handle.read(1):  # not the last line: the journal was damaged, not torn
                        raise self._damaged(f"line {number} of the checkpoint is damaged")
                    break
                if header is None:
                    first = _journal_entry(raw) or {}
                    if first.get("format") != MANIFEST_FORMAT:
                        raise InputError(f"{what} is not a chemref build", path=str(self.path))
                    saved = first.get("identity")
                    diffs = differences(saved, self.identity) if isinstance(saved, dict) else []
                    if not diffs:
                        header = journal_header(raw, path=self.path, line=number)
                    else:
                        raise InputError(f"cannot resume {what}: it was started with other settings or inputs ("
                                         + "; ".join(diffs) + ")", path=str(self.path.parent),
                                         hint="resume with the same command, or start again without --resume "
                                         "elsewhere")
                    self.started = header.get("started", self.started)
                else:
                    entry = journal_shard(raw, path=self.path, line=number, fmt=layout["format"],
                                          shard_articles=layout["shard_articles"],
                                          rejected=keeps_rejected(layout))
                    index = entry["index"]
                    if index in self.done:
                        raise self._damaged(f"line {number} of the checkpoint records shard {index} again")
                    self.done[index] = {"articles": entry["articles"], "first": entry["first"],
                                        "last": entry["last"], "labels": entry.get("labels"),
                                        "inputs": entry.get("inputs")}
                    self._record(entry)
                good += len(raw)
                ended = raw.endswith(b"\n")
        with open(self.path, "r+b") as handle:
            handle.truncate(good)
            if not ended:  # whole, only its newline not written yet
                handle.seek(good)
                handle.write(b"\n")
            handle.flush()
            os.fsync(handle.fileno())
        self._handle = open(self.path, "a", encoding="utf-8")
        if header is None:  # killed while writing the header: nothing was done
            self._append(self._header())

    def verify(self, folders: tuple[Path, ...]) -> None:
        """Every shard file the journal lists must be on disk as the journal has it (size, SHA-256, rows),
        in the staging folder or (an interrupted finish) the output folder: checked before any is used."""
        for shard in self.shards():
            check_shard(shard, folders)

    def _damaged(self, message: str) -> InputError:
        return InputError(message, path=str(self.path), hint="remove the staging folder to start the build again")

    def add(self, summary: dict[str, Any]) -> None:
        """Record a finished shard: one line appended to the journal (with the digest of its inputs' names,
        sizes and modification times, from :attr:`stamps`)."""
        summary = self._trimmed({**summary, "inputs": self.stamps.pop(int(summary["index"]), None)})
        self._append(summary)
        self._record(summary)

    def _trimmed(self, summary: dict[str, Any]) -> dict[str, Any]:
        if len(self.prefix.sources) >= MAX_SOURCES and summary["totals"]["sources"]:
            summary = {**summary, "totals": {**summary["totals"], "sources": []}}  # past the sample: unused
        if len(self.prefix.errors) >= MAX_ERRORS and summary["totals"]["errors"]:
            summary = {**summary, "totals": {**summary["totals"], "errors": []}}
        return summary

    def replace(self, summaries: dict[int, dict[str, Any]]) -> None:
        """Replace the journal lines of the shards in ``summaries`` (shards built again, every shard done) with
        their new summaries (the journal rewritten whole, then renamed over itself), and count again."""
        self.close()
        entries = []
        with open(self.path, "rb") as handle:
            header = next(handle)
            for line in handle:
                entry = json.loads(line)
                fresh = summaries.get(int(entry["index"]))
                entries.append(entry if fresh is None else {**fresh, "inputs": entry.get("inputs")})
        self.prefix, self.prefix_end, self.pending, self.articles, self.questions = BuildTotals(), 0, {}, 0, 0
        with atomic_write(self.path, "wb") as out:
            out.write(header)
            for entry in entries:
                entry = self._trimmed(entry)
                out.write(json_line(entry).encode("utf-8"))
                self._record(entry)
        self._handle = open(self.path, "a", encoding="utf-8")

    def close(self) -> None:
        if self._handle is not None:
            try:
                self._handle.close()
            except OSError:  # a line that could not be written (reported by _append) is torn, redone on resume
                pass
            self._handle = None

    def _append(self, entry: dict[str, Any]) -> None:
        try:
            self._handle.write(json_line(entry))
            self._handle.flush()
            os.fsync(self._handle.fileno())
        except OSError as exc:  # a disk full mid-line leaves a torn line, redone on --resume
            raise InputError(f"cannot write the checkpoint: {exc.strerror or exc}", path=str(self.path),
                             hint="free some space there, then finish with --resume") from None

    def _record(self, summary: dict[str, Any]) -> None:
        """Count the shard, and fold the contiguous done shards into ``prefix`` in index order."""
        index = int(summary["index"])
        if index < self.prefix_end or index in self.pending:
            return
        self.articles += summary["articles"]
        self.questions += summary["totals"]["questions"]
        self.pending[index] = summary
        while self.prefix_end in self.pending:
            self.prefix.merge(BuildTotals.from_dict(self.pending.pop(self.prefix_end)["totals"]))
            self.prefix_end += 1

    def totals(self) -> BuildTotals:
        total = BuildTotals()
        total.merge(self.prefix)
        for k in sorted(self.pending):
            total.merge(BuildTotals.from_dict(self.pending[k]["totals"]))
        return total

    def shards(self) -> Iterator[dict[str, Any]]:
        """The summaries of the shards done, in index order, read back from the journal (a window of
        out-of-order ones held at a time)."""
        waiting: dict[int, dict[str, Any]] = {}
        following = 0
        layout = self.identity["layout"]
        with open(self.path, "rb") as handle:
            next(handle, None)  # the header
            for number, line in enumerate(handle, 2):
                entry = journal_shard(line, path=self.path, line=number, fmt=layout["format"],
                                      shard_articles=layout["shard_articles"], rejected=keeps_rejected(layout))
                index = entry["index"]
                if index < following:
                    continue
                waiting[index] = entry
                while following in waiting:
                    yield waiting.pop(following)
                    following += 1
        for k in sorted(waiting):
            yield waiting[k]


def _journal_entry(raw: bytes) -> dict[str, Any] | None:
    """One journal line's entry, or None for a torn line (its JSON cut off part-way); checked by the caller."""
    try:
        entry = json.loads(raw)
    except (ValueError, RecursionError):
        return None
    return entry if isinstance(entry, dict) else None

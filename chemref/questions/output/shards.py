"""The shard files of a build: ``questions-00000.jsonl``, ``rejected-00000.jsonl``, ``articles-00000.jsonl``.

Shard ``k`` holds the articles ``k * shard_articles`` to ``(k + 1) * shard_articles - 1`` of the inputs, so the
same inputs give the same shards whoever writes them (this process, a pool, a Dask worker) and whatever
order the shards finish in. A shard's files appear under their names only once complete (temp file, fsync,
rename); :class:`ShardWriter` returns a summary with their checksums and the shard's running totals.

An article's rows are made where it was built (:func:`encode`): a pool worker sends back the JSON Lines text
(an :class:`EncodedArticle`), and the process writing the shard only appends it, so the writer never
spends the cores the workers need on unpickling and re-encoding rejected records.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Iterable, Iterator, Sequence

from chemref.errors import InputError
from chemref.jsonl import json_line
from chemref.questions.funnel.records import QUESTION_FIELDS, ArticleResult
from chemref.questions.output.totals import BuildTotals

__all__ = ["FORMATS", "KINDS", "shard_name", "EncodedArticle", "encode", "ShardWriter", "write_shard", "sha256",
           "file_digest", "add_label", "per_article_rows"]

#: data formats of the question and rejection shards (per-article rows are always JSON Lines)
FORMATS = ("jsonl", "parquet")
#: the files of one shard
KINDS = ("questions", "rejected", "articles")


def shard_name(kind: str, index: int, fmt: str) -> str:
    ext = "jsonl" if kind == "articles" or fmt == "jsonl" else "parquet"
    return f"{kind}-{index:05d}.{ext}"


def sha256(path: str | os.PathLike[str]) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def file_digest(path: str | os.PathLike[str]) -> tuple[str, int]:
    """The SHA-256 of a file and its count of newlines (the rows of a JSON Lines file), in one pass."""
    digest = hashlib.sha256()
    lines = 0
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
            lines += block.count(b"\n")
    return digest.hexdigest(), lines


def add_label(digest: Any, label: str) -> None:
    """Add one article's ``source_file`` to ``digest`` (a shard's summary holds the digest of all of them, so
    a resumed build sees an article renamed, added or removed anywhere in a shard it has done)."""
    digest.update(label.encode("utf-8", "surrogatepass") + b"\n")


def _arrow_schema(rejected: bool) -> Any:
    import pyarrow as pa

    types = {"citation_start": pa.int64(), "citation_end": pa.int64(), "target_year": pa.int64(),
             "target_authors": pa.list_(pa.string()), "findability": pa.float64(), "score": pa.float64(),
             "bm25_rank_bibliography": pa.int64(), "bm25_rank_corpus": pa.int64()}
    names = (*QUESTION_FIELDS, "reason") if rejected else QUESTION_FIELDS
    return pa.schema([(name, types.get(name, pa.string())) for name in names])


@dataclass(frozen=True, slots=True)
class EncodedArticle:
    """One article's shard rows, ready to append: ``result`` keeps what the totals read (its questions; the
    rejected records, the bulk of a result, are dropped and only counted in ``rejected``); ``text`` holds the
    UTF-8 JSON Lines of each of :data:`KINDS`, or ``rows`` the question and rejected rows for Parquet;
    ``counts`` the rows of each kind written (no rejected ones when the build writes none)."""

    result: ArticleResult
    text: tuple[bytes, ...]
    counts: tuple[int, ...]
    rows: tuple[tuple[dict[str, Any], ...], ...] | None = None
    rejected: int = 0  # how many rejected records the article had, written or not


def encode(article: ArticleResult, fmt: str = "jsonl", rejected: bool = True) -> EncodedArticle:
    """``article``'s shard rows, the same bytes whoever makes them (this process, a pool worker).

    ``rejected=False`` (a build that writes no rejections): the rejected records are counted, not encoded,
    and the ``rejected`` shard gets no rows."""
    questions = [q.to_dict() for q in article.questions]
    rows = [r.to_dict() for r in article.rejected] if rejected else []
    counts = (len(questions), len(rows), 1)
    row = json_line(article.row()).encode("utf-8")
    light = replace(article, rejected=())
    if fmt == "jsonl":
        text = ("".join(map(json_line, questions)).encode("utf-8"), "".join(map(json_line, rows)).encode("utf-8"),
                row)
        return EncodedArticle(light, text, counts, rejected=len(article.rejected))
    return EncodedArticle(light, (b"", b"", row), counts, (tuple(questions), tuple(rows)), len(article.rejected))


class ShardWriter:
    """Write one shard, article by article, in input order; :meth:`close` makes its files appear."""

    def __init__(self, folder: str | os.PathLike[str], index: int, fmt: str = "jsonl", rejected: bool = True) -> None:
        self.folder, self.index, self.fmt, self.keep_rejected = Path(folder), index, fmt, rejected
        self.totals = BuildTotals()
        self.first: str | None = None
        self.last: str | None = None
        self.rows = {kind: 0 for kind in KINDS}
        self._labels = hashlib.sha256()
        self._tmp = {kind: self.folder / f".{shard_name(kind, index, fmt)}.tmp" for kind in KINDS}
        text_kinds = KINDS if fmt == "jsonl" else ("articles",)
        self._handles: dict[str, Any] = {}
        try:
            for kind in text_kinds:
                self._handles[kind] = open(self._tmp[kind], "wb")
        except OSError as exc:
            self.abort()
            raise self._cannot_write(kind, exc) from None
        self._buffers: dict[str, list[dict[str, Any]]] = {k: [] for k in KINDS if k not in text_kinds}

    def add(self, article: ArticleResult | EncodedArticle) -> None:
        """Append one article (in input order): its result, or its rows encoded by a worker."""
        encoded = article if isinstance(article, EncodedArticle) else encode(article, self.fmt, self.keep_rejected)
        result = encoded.result
        if self.first is None:
            self.first = result.source
        self.last = result.source
        add_label(self._labels, result.source)
        self.totals.add(result, rejected=encoded.rejected)
        for k, kind in enumerate(KINDS):
            self.rows[kind] += encoded.counts[k]
            handle = self._handles.get(kind)
            if handle is not None:
                try:
                    handle.write(encoded.text[k])
                except OSError as exc:
                    raise self._cannot_write(kind, exc) from None
            elif encoded.rows is not None:
                self._buffers[kind].extend(encoded.rows[k])

    def _cannot_write(self, kind: str, exc: OSError) -> InputError:
        """A shard file that cannot be written (a full disk) as a one-line error naming it."""
        return InputError(f"cannot write the shard: {exc.strerror or exc}",
                          path=str(exc.filename or self.folder / shard_name(kind, self.index, self.fmt)),
                          hint="free some space there, then finish the build with --resume")

    def close(self) -> dict[str, Any]:
        """Finish the files (fsync, rename) and return the shard's summary (JSON-ready)."""
        try:
            return self._close()
        except OSError as exc:
            raise self._cannot_write(KINDS[0], exc) from None

    def _close(self) -> dict[str, Any]:
        for kind, rows in self._buffers.items():
            import pyarrow as pa
            import pyarrow.parquet as pq

            schema = _arrow_schema(kind == "rejected")
            if rows:
                pq.write_table(pa.Table.from_pylist(rows, schema=schema), self._tmp[kind])
            else:  # no row group at all: a 0-row group makes `datasets` fail ("BatchSize must be greater than 0")
                pq.ParquetWriter(self._tmp[kind], schema).close()
        for handle in self._handles.values():
            handle.flush()
            os.fsync(handle.fileno())
            handle.close()
        files = {}
        for kind in KINDS:
            name = shard_name(kind, self.index, self.fmt)
            final = self.folder / name
            os.replace(self._tmp[kind], final)
            files[name] = {"sha256": sha256(final), "bytes": final.stat().st_size, "rows": self.rows[kind]}
        return {"index": self.index, "articles": self.totals.articles, "first": self.first, "last": self.last,
                "labels": self._labels.hexdigest(), "files": files, "totals": self.totals.to_dict()}

    def abort(self) -> None:
        """Drop the shard's temporary files (an interrupted shard is redone whole)."""
        for handle in self._handles.values():
            try:
                handle.close()
            except OSError:  # the disk is full: what it still buffers goes with the file
                pass
        for tmp in self._tmp.values():
            try:
                os.unlink(tmp)
            except FileNotFoundError:
                pass


def write_shard(folder: str | os.PathLike[str], index: int, articles: Iterable[ArticleResult | EncodedArticle],
                fmt: str = "jsonl", rejected: bool = True) -> dict[str, Any]:
    """Write shard ``index`` from ``articles`` (in input order) and return its summary (``rejected``: see
    :func:`encode`)."""
    writer = ShardWriter(folder, index, fmt, rejected)
    try:
        for article in articles:
            writer.add(article)
    except BaseException:
        writer.abort()
        raise
    return writer.close()


def per_article_rows(staging: Path, shards: Sequence[int], fmt: str,
                      placed: Path | None = None) -> Iterator[dict[str, Any]]:
    """Every shard's per-article rows; ``placed``: where an interrupted finish already moved shards."""
    for index in shards:
        path = staging / shard_name("articles", index, fmt)
        if placed is not None and not path.exists():
            path = placed / path.name
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                yield json.loads(line)

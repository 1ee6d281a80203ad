"""The plan of a run: its articles grouped by shard, the shards done skipped, and on ``--resume`` the check that
those shards still hold the same articles (by name, size and modification time)."""

from __future__ import annotations

import hashlib
import os
from typing import Any, Callable, Iterator

from chemref.errors import InputError
from chemref.inputs import Source
from chemref.questions.output.shards import add_label

__all__ = ["InputPlan"]


def _inputs_differ(detail: str) -> InputError:
    return InputError(f"the inputs differ from those of the interrupted build: {detail}",
                      hint="resume with the same inputs, or start again without --resume")


def _stamp(digest: Any, source: Source) -> None:
    """Add what says whether an input article changed to ``digest``: its name and, for a file, its size and
    modification time; for a package member, a digest of its bytes."""
    add_label(digest, source.label)
    if source.data is not None:
        digest.update(hashlib.sha1(source.data).digest())
    elif source.path is not None:
        try:
            info = os.stat(source.path)
            digest.update(f"{info.st_size}:{info.st_mtime_ns}\n".encode())
        except OSError:
            digest.update(b"-\n")
    else:
        digest.update(f"{source.skip}:{source.error}\n".encode("utf-8", "surrogatepass"))


class InputPlan:
    """The articles of the run, grouped by shard, checking on resume that the shards already done still
    hold the same articles (by name, size and modification time); ``stamps`` receives the digest of the
    inputs of each shard to build."""

    def __init__(self, sources: Callable[[], Iterator[Source]], shard_articles: int,
                 done: dict[int, dict[str, Any]], stamps: dict[int, str] | None = None) -> None:
        self.sources, self.size, self.done = sources, shard_articles, done
        self.stamps = {} if stamps is None else stamps

    def _stamped(self, k: int, digest: Any, first: int, last: int) -> None:
        """Shard ``k`` (articles ``first`` to ``last``, 1-based) has been read whole: record or check its digest."""
        shard = self.done.get(k)
        if shard is None:
            self.stamps[k] = digest.hexdigest()
        elif shard.get("inputs") not in (None, digest.hexdigest()):
            raise _inputs_differ(f"articles {first} to {last} ({shard['first']!r} to {shard['last']!r}) have "
                                 "changed since they were built (size or modification time)")

    def todo(self) -> Iterator[tuple[int, Source]]:
        """``(position, source)`` of every article whose shard is not done yet, in input order."""
        count = 0
        labels: Any = None  # the digest of the labels of the done shard being read
        stamp: Any = None  # the digest of the inputs of the shard being read
        for i, source in enumerate(self.sources()):
            count = i + 1
            k = i // self.size
            offset = i - k * self.size
            if offset == 0:
                stamp = hashlib.sha256()
            _stamp(stamp, source)
            shard = self.done.get(k)
            if shard is None:
                if offset == self.size - 1:
                    self._stamped(k, stamp, i + 1 - offset, i + 1)
                yield i, source
                continue
            expected = shard["first"] if offset == 0 else shard["last"] if offset == shard["articles"] - 1 else None
            if offset >= shard["articles"] or (expected is not None and expected != source.label):
                raise _inputs_differ(f"article {i + 1} is {source.label!r}, was {expected!r}" if expected else
                                     f"article {i + 1} ({source.label!r}) is new")
            if offset == 0:
                labels = hashlib.sha256()
            add_label(labels, source.label)
            if offset == shard["articles"] - 1:
                if shard.get("labels") not in (None, labels.hexdigest()):
                    raise _inputs_differ(f"articles {i + 1 - offset} to {i + 1} ({shard['first']!r} to "
                                         f"{source.label!r}) are not the same articles")
                self._stamped(k, stamp, i + 1 - offset, i + 1)
        if count and (count - 1) % self.size != self.size - 1:  # the last shard, not full
            last = (count - 1) // self.size
            self._stamped(last, stamp, last * self.size + 1, count)
        for k, shard in self.done.items():
            if k * self.size + shard["articles"] > count:
                raise _inputs_differ(f"{count} article(s) now, at least {k * self.size + shard['articles']} then")

    def shards(self) -> Iterator[tuple[int, list[Source]]]:
        """``(shard index, sources)`` of each shard not done yet (for workers that write whole shards)."""
        group: list[Source] = []
        current = None
        for i, source in self.todo():
            k = i // self.size
            if current is not None and k != current:
                yield current, group
                group = []
            current = k
            group.append(source)
        if current is not None:
            yield current, group

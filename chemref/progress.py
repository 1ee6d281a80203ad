"""Progress of long work on stderr: a bar on a terminal, plain periodic lines otherwise."""

from __future__ import annotations

import sys
import time
from typing import IO

__all__ = ["Progress"]


def _duration(seconds: float) -> str:
    seconds = int(seconds)
    if seconds >= 3600:
        return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"
    return f"{seconds // 60}m{seconds % 60:02d}s"


class Progress:
    """Articles done, articles/s, questions so far and the ETA (when the total is known); ``unit`` and
    ``counted`` name other work (``"request"``, ``"failed"``).

    On a terminal it is a tqdm bar; when ``stream`` is not a terminal (a log file, a batch job) it prints
    one plain line every ``every`` seconds instead of carriage-return frames, and a last line at the end.
    """

    def __init__(self, total: int | None, *, done: int = 0, stream: IO[str] | None = None, every: float = 30.0,
                 desc: str = "building", enabled: bool = True, unit: str = "article",
                 counted: str = "questions") -> None:
        self.stream = stream or sys.stderr
        self.total, self.done, self.questions, self.every, self.desc = total, done, 0, every, desc
        self.enabled, self.unit, self.counted = enabled, unit, counted
        self.start = self.last = time.monotonic()
        self.start_done = done
        self.bar = None
        if enabled and self._tty():
            from tqdm import tqdm

            self.bar = tqdm(total=total, initial=done, unit=unit, file=self.stream, desc=desc,
                            dynamic_ncols=True, smoothing=0.05)

    def _tty(self) -> bool:
        try:
            return self.stream.isatty()
        except (AttributeError, ValueError):
            return False

    def update(self, articles: int = 1, questions: int = 0) -> None:
        self.done += articles
        self.questions += questions
        if self.total is not None and self.done > self.total:  # the total was an estimate (a package's file
            self.total = None                                   # list): past it, it is unknown, never "250%"
            if self.bar is not None:
                self.bar.total = None
        if not self.enabled:
            return
        if self.bar is not None:
            self.bar.set_postfix_str(f"{self.questions} {self.counted}", refresh=False)
            self.bar.update(articles)
            return
        now = time.monotonic()
        if now - self.last >= self.every:
            self.last = now
            self._line(now)

    def _line(self, now: float) -> None:
        elapsed = max(now - self.start, 1e-9)
        rate = (self.done - self.start_done) / elapsed
        of = f"/{self.total}" if self.total else ""
        pct = f" ({self.done / self.total:.0%})" if self.total else ""
        eta = ""
        if self.total and rate > 0 and self.done < self.total:
            eta = f", ETA {_duration((self.total - self.done) / rate)}"
        print(f"chemref: {self.desc}: {self.done}{of} {self.unit}s{pct}, {rate:.1f} {self.unit}s/s, "
              f"{self.questions} {self.counted}, {_duration(elapsed)} elapsed{eta}", file=self.stream, flush=True)

    def close(self) -> None:
        if not self.enabled:
            return
        if self.bar is not None:
            self.bar.close()
        else:
            self._line(time.monotonic())

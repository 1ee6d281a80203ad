"""The claim-vs-passing training sentences, rebuilt from the dev JATS of the reference data.

``corpora/labels/claims_labels.jsonl`` holds, for each labelled citing sentence, where it is and what was
replaced, never its text: ``id`` (``<article>-p<paragraph>-s<sentence>``), ``article`` (the file stem in
``corpora/jats/dev/``), ``paragraph`` (the index in ``Article.paragraphs()``), ``sentence`` (its start and end
in that paragraph's text), ``anchor`` (the citation replaced by ``[CITATION]``, same offsets), ``function``
(CLAIM or PASSING), ``votes`` (annotators), ``section_kind`` and ``text_sha1`` (the first 12 hex digits of
the SHA-1 of the labelled text). The text is the paragraph's sentence with the anchor replaced by
``[CITATION]``; a row whose text no longer has that fingerprint is left out and reported.

    python tools/claims_training_set.py -o claims_rows.jsonl      # from the repo root (needs ../shared)

writes one row per sentence: ``{"id", "article", "text", "cite": [start, end], "label", "votes",
"section_kind"}`` (``cite`` is the ``[CITATION]`` marker's span in ``text``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any, Iterable, Iterator

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
from tools.reference_data import REFERENCE_DATA_ENV, reference_path  # noqa: E402

__all__ = ["LABELS_FILE", "MARKER", "TrainingSet", "dev_jats", "load_rows", "read_labels"]

LABELS_FILE = ROOT / "corpora" / "labels" / "claims_labels.jsonl"
MARKER = "[CITATION]"


def dev_jats() -> Path:
    """The dev JATS folder of the reference data (may be absent)."""
    return reference_path("corpora", "jats", "dev", project_root=ROOT)


def read_labels(path: Path = LABELS_FILE) -> list[dict[str, Any]]:
    """The label rows of ``path`` (one JSON object a line)."""
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def text_sha1(text: str) -> str:
    """The fingerprint stored in ``text_sha1``."""
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:12]


class TrainingSet:
    """The rebuilt rows and the labels that could not be rebuilt (``stale``: id and why)."""

    def __init__(self, rows: list[dict[str, Any]], stale: list[tuple[str, str]]) -> None:
        self.rows = rows
        self.stale = stale


def _rebuild(labels: Iterable[dict[str, Any]], folder: Path) -> Iterator[tuple[dict[str, Any], dict[str, Any] | str]]:
    import chemref  # noqa: PLC0415 (a development tool: the JATS reader only when rebuilding)

    by_article: dict[str, list[dict[str, Any]]] = {}
    for label in labels:
        by_article.setdefault(label["article"], []).append(label)
    for article, items in sorted(by_article.items()):
        path = folder / f"{article}.nxml"
        if not path.is_file():
            for label in items:
                yield label, f"{path.name} not found"
            continue
        paragraphs = [par for _, par in chemref.read_jats(path).paragraphs()]
        for label in items:
            index = label["paragraph"]
            if not 0 <= index < len(paragraphs):
                yield label, f"paragraph {index} not in {path.name}"
                continue
            par = paragraphs[index].text
            (s, e), (a0, a1) = label["sentence"], label["anchor"]
            if not 0 <= s <= a0 <= a1 <= e <= len(par):
                yield label, f"offsets outside paragraph {index} of {path.name}"
                continue
            text = par[s:a0] + MARKER + par[a1:e]
            if text_sha1(text) != label["text_sha1"]:
                yield label, f"text of paragraph {index} of {path.name} changed since labelling"
                continue
            yield label, {"id": label["id"], "article": article, "text": text,
                          "cite": [a0 - s, a0 - s + len(MARKER)], "label": label["function"],
                          "votes": label["votes"], "section_kind": label["section_kind"]}


def load_rows(labels_path: Path = LABELS_FILE, folder: Path | None = None) -> TrainingSet:
    """The labelled sentences rebuilt from ``folder`` (default: the reference data's dev JATS)."""
    rows: list[dict[str, Any]] = []
    stale: list[tuple[str, str]] = []
    for label, result in _rebuild(read_labels(labels_path), folder or dev_jats()):
        if isinstance(result, str):
            stale.append((label["id"], result))
        else:
            rows.append(result)
    return TrainingSet(rows, stale)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--output", type=Path, required=True, help="JSONL of the rebuilt rows")
    parser.add_argument("--labels", type=Path, default=LABELS_FILE)
    parser.add_argument("--jats", type=Path, default=None, help="the dev JATS folder (default: the reference data's)")
    args = parser.parse_args(argv)
    folder = args.jats or dev_jats()
    if not folder.is_dir():
        print(f"claims_training_set.py: error: {folder}: not found (the dev JATS of the reference data: set "
              f"{REFERENCE_DATA_ENV} or --jats; docs/reference-data.md)", file=sys.stderr)
        return 2
    found = load_rows(args.labels, folder)
    with args.output.open("w", encoding="utf-8") as handle:
        for row in found.rows:
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")
    for ident, why in found.stale:
        print(f"left out {ident}: {why}", file=sys.stderr)
    print(f"{len(found.rows)} rows written to {args.output} ({len(found.stale)} left out)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""JSON Lines writing speed: :func:`chemref.jsonl.json_line` (which escapes the characters a terminal acts on:
C1 controls, bidirectional controls, line separators) against the plain ``json.dumps(ensure_ascii=False)``
writer it replaced, on the ``jats --json`` rows of real articles (the dev JATS corpus of the reference data,
read in place) and on the same rows with every string ASCII.

Run from the project root:  python benchmarks/bench_jsonl.py [N_ARTICLES]
Prints one table and writes benchmarks/results/jsonl_escapes.json. Both writers run in one process, interleaved
for several rounds, CPU time (the machine is shared); the figure is the ratio of the fastest rounds.
"""

from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from chemref.jats.reader import read  # noqa: E402
from chemref.jsonl import json_line  # noqa: E402
from tools.reference_data import reference_path  # noqa: E402

OUT = ROOT / "benchmarks" / "results" / "jsonl_escapes.json"
ROUNDS = 15
DEV = reference_path("corpora", "jats", "dev", project_root=ROOT)

_SURROGATE = re.compile("[\ud800-\udfff]")


def _base_json_line(row: Any) -> str:
    """The writer before the escapes (lone surrogates and U+2028/U+2029 only)."""
    text = json.dumps(row, ensure_ascii=False)
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            text = _SURROGATE.sub(lambda m: f"\\\\u{ord(m.group()):04x}", text)
    if "\u2028" in text or "\u2029" in text:
        text = text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    return text + "\n"


def _ascii(value: Any) -> Any:
    if isinstance(value, str):
        return value.encode("ascii", "replace").decode("ascii")
    if isinstance(value, dict):
        return {_ascii(k): _ascii(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_ascii(v) for v in value]
    return value


def _time(write: Callable[[Any], str], rows: list[Any]) -> float:
    start = time.process_time()
    for row in rows:
        write(row)
    return time.process_time() - start


def main() -> None:
    if not DEV.is_dir():
        print(f"no dev JATS corpus at {DEV}: nothing measured")
        return
    limit = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    rows = []
    for path in sorted(DEV.glob("*.nxml"))[:limit]:
        rows.append(read(path.read_bytes(), name=path.name).to_dict())
    sets = {"real articles": rows, "same, ASCII only": [_ascii(r) for r in rows]}
    results = []
    for name, data in sets.items():
        assert all(json.loads(json_line(r)) == json.loads(_base_json_line(r)) for r in data)
        size = sum(len(_base_json_line(r).encode("utf-8")) for r in data)
        base, new = [], []
        for _ in range(ROUNDS):
            base.append(_time(_base_json_line, data))
            new.append(_time(json_line, data))
        b, n = min(base), min(new)  # the least disturbed round of each (the machine is shared)
        results.append({"rows": name, "articles": len(data), "mb": round(size / 1e6, 2),
                        "base_ms": round(b * 1e3, 1), "new_ms": round(n * 1e3, 1), "ratio": round(n / b, 3),
                        "new_mb_s": round(size / 1e6 / n, 1)})
    print(f"{'rows':<18}{'articles':>9}{'MB':>7}{'base ms':>9}{'new ms':>8}{'new/base':>10}{'MB/s':>7}")
    for r in results:
        print(f"{r['rows']:<18}{r['articles']:>9}{r['mb']:>7}{r['base_ms']:>9}{r['new_ms']:>8}{r['ratio']:>10}"
              f"{r['new_mb_s']:>7}")
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps({"rounds": ROUNDS, "results": results}, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()

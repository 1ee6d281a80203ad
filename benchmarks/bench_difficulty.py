"""Cost of ``bm25_rank_corpus`` against the number of cited works: the BM25 index of their titles
(:meth:`chemref.baseline.bm25.TitleIndex.streamed`, what ``chemref questions difficulty`` builds) and one rank.

Run from the project root:  python benchmarks/bench_difficulty.py [--sizes 10000 50000 200000]
Each size runs in a fresh process (its peak memory is its own): titles of 12 words drawn from a Zipf-like
vocabulary of 100,000 words are streamed into the index; the table gives the build's CPU seconds, the peak
resident memory above the process's start, per cited work, and the CPU milliseconds of one rank (200 ranks).
Writes benchmarks/results/difficulty.json.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "benchmarks" / "results" / "difficulty.json"


def _one(size: int) -> dict:
    import random

    sys.path.insert(0, str(ROOT))
    from chemref.baseline.bm25 import TitleIndex

    words = [f"w{i}" for i in range(100_000)]
    cumulative, total = [], 0.0
    for rank in range(len(words)):
        total += 1 / (rank + 1)
        cumulative.append(total)

    def titles():
        rng = random.Random(0)
        for _ in range(size):
            yield " ".join(rng.choices(words, cum_weights=cumulative, k=12))

    TitleIndex.streamed(iter(["warm up"]))  # modules imported: not counted
    start = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    cpu = time.process_time()
    index = TitleIndex.streamed(titles())
    build = time.process_time() - cpu
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    queries = list(titles())[:200]
    cpu = time.process_time()
    for n, query in enumerate(queries):
        index.rank(query + " [CITATION]", n)
    rank_ms = (time.process_time() - cpu) / len(queries) * 1000
    return {"works": size, "build_cpu_s": round(build, 2), "peak_rss_mb": round((peak - start) / 1024, 1),
            "bytes_per_work": round((peak - start) * 1024 / size), "rank_cpu_ms": round(rank_ms, 3)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 50_000, 200_000])
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(_one(args.one)))
        return 0
    rows = []
    for size in args.sizes:
        out = subprocess.run([sys.executable, __file__, "--one", str(size)], capture_output=True, text=True,
                             check=True).stdout
        rows.append(json.loads(out))
    print(f"{'cited works':>12}{'build cpu s':>13}{'peak MB':>10}{'bytes/work':>12}{'rank cpu ms':>13}")
    for r in rows:
        print(f"{r['works']:>12}{r['build_cpu_s']:>13.2f}{r['peak_rss_mb']:>10.1f}{r['bytes_per_work']:>12}"
              f"{r['rank_cpu_ms']:>13.3f}")
    from chemref._io.atomic import atomic_write

    OUT.parent.mkdir(parents=True, exist_ok=True)
    with atomic_write(OUT) as handle:
        json.dump({"rows": rows, "note": "synthetic 12-word titles, Zipf-like vocabulary of 100,000 words"},
                  handle, indent=2)
        handle.write("\n")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    raise SystemExit(main())

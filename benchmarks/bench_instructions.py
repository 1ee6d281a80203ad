"""This tree's question build against an earlier commit in instructions executed (valgrind's callgrind).

Run from the project root:  python benchmarks/bench_instructions.py [--base REV]

The build of ``benchmarks/bench_commits.py`` (``python -m chemref questions build`` of the dev articles, one
worker, bytecode cached, ``PYTHONHASHSEED=0``) run once per tree under ``valgrind --tool=callgrind``: the count
of instructions is the same on a busy machine as on a quiet one, so two commits can be told apart where CPU
seconds are noise. It is not time: a change that saves instructions of tight C loops (the regex engine) saves
less time than the count says, and memory traffic is not counted, so the CPU ratio of bench_commits stays the
figure that decides; this one says where instructions went. About 100 s per tree. Prints one table and writes
benchmarks/results/instructions.json; skipped when valgrind or the reference data is missing.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.bench_commits import export_tree, tree_env  # noqa: E402
from tools.reference_data import reference_path  # noqa: E402

OUT = ROOT / "benchmarks" / "results" / "instructions.json"
_COLLECTED = re.compile(r"Collected : (\d+)")


def _instructions(tree: Path, articles: str, scratch: Path) -> int:
    """Instructions of one build of ``articles`` by ``tree`` (a first run, not counted, caches its bytecode)."""
    env = tree_env(tree, scratch)
    build = [sys.executable, "-m", "chemref", "questions", "build", articles, "-w", "1", "--no-progress", "-o"]
    counted = None
    for run, wrapper in enumerate(([], ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"])):
        out = scratch / f"build-{tree.name}-{run}"
        done = subprocess.run([*wrapper, *build, str(out / "q.jsonl")], env=env, cwd=tree, capture_output=True,
                              text=True)
        if done.returncode != 0:
            raise SystemExit(f"the build failed on {tree}:\n{done.stderr[-2000:]}")
        counted = _COLLECTED.search(done.stderr)
    if counted is None:
        raise SystemExit("callgrind printed no instruction count")
    return int(counted.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="331480e", help="the earlier commit (default: 331480e)")
    args = parser.parse_args()
    articles = reference_path("corpora", "jats", "dev")
    if shutil.which("valgrind") is None:
        print("skipped: valgrind is not installed (apt-get install -y valgrind)")
        return
    if not articles.exists():
        print(f"skipped: reference data not available ({articles})")
        return
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)
        base = export_tree(args.base, scratch)
        counts = {"base": _instructions(base, str(articles), scratch), "this": _instructions(ROOT, str(articles), scratch)}
    ratio = counts["base"] / counts["this"]
    print(f"the dev build of this tree against {args.base}, in instructions (callgrind; ratio above 1: fewer here)")
    print(f"{'base':>16} {'this':>16} {'ratio':>6}")
    print(f"{counts['base']:>16,} {counts['this']:>16,} {ratio:>6.3f}")
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps({"base": args.base, "workload": "build", "base_instructions": counts["base"],
                               "this_instructions": counts["this"], "ratio": round(ratio, 3)}, indent=2) + "\n",
                   encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()

"""This tree against an earlier commit, in one run: the sentence splitter, BRAT scoring, JATS reading, the build.

Run from the project root:  python benchmarks/bench_commits.py [--base REV] [--repeat N]
The base commit (default 331480e, the previous landing) is exported with ``git archive`` into a temporary folder.
Each workload runs in a fresh process per tree (``PYTHONPATH`` puts that tree first), the two trees taking turns,
``--repeat`` times; the best CPU time of each tree is kept (of the work itself, after imports and one warm-up call;
the build: the whole process) (CPU time is steadier than wall time on a shared
machine). The ratio is base time / this tree's time: above 1, this tree is faster. Python's bytecode is cached
in the temporary folder (``PYTHONPYCACHEPREFIX``), as an installed package has it, so the build's whole-process
time does not count compiling each module's source (with ``PYTHONDONTWRITEBYTECODE`` set, every run would);
``--from-source`` measures that instead. The workloads use only
interfaces both trees have:
- sentences: ``chemref.nlp.sentences.split_sentences`` over the 61 CRAFT articles, five times
  (../shared/corpora/sentences);
- BRAT: ``chemref.scoring.score_brat`` on ChEMU-Ref dev against five systems, twice (../shared/chemu_ref);
- JATS: ``chemref.jats.reader.read_articles`` on every dev article, twice (../shared/corpora/jats/dev);
- build: ``python -m chemref questions build`` of the dev articles with one worker.
Prints one table and writes benchmarks/results/commits.json.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tools.reference_data import reference_path  # noqa: E402

OUT = ROOT / "benchmarks" / "results" / "commits.json"

WORKLOADS = {
    "sentences": textwrap.dedent("""
        import json, sys, time
        from chemref.nlp.sentences import split_sentences
        with open(sys.argv[1], encoding="utf-8") as handle:
            texts = [json.loads(line)["text"] for line in handle]
        split_sentences(texts[0][:2000])  # rule tables loaded
        start = time.process_time()
        for _ in range(5):
            for text in texts:
                split_sentences(text)
        print(time.process_time() - start)
    """),
    "brat": textwrap.dedent("""
        import sys, time
        from chemref.scoring import score_brat
        score_brat(sys.argv[1] + "/gold/dev", sys.argv[1] + "/systems/perfect")  # modules loaded
        start = time.process_time()
        for system in ("mixed", "perfect", "drop20", "shift30", "coref_closure") * 2:
            score_brat(sys.argv[1] + "/gold/dev", sys.argv[1] + "/systems/" + system)
        print(time.process_time() - start)
    """),
    "jats": textwrap.dedent("""
        import sys, time
        from pathlib import Path
        from chemref.jats.reader import read_articles
        paths = sorted(Path(sys.argv[1]).glob("*.nxml"))
        read_articles(str(paths[0]))  # modules loaded
        start = time.process_time()
        for _ in range(2):
            for path in paths:
                read_articles(str(path))
        print(time.process_time() - start)
    """),
    "build": None,  # the CLI, below: the whole process's CPU time
}


def export_tree(rev: str, scratch: Path) -> Path:
    """The files of commit ``rev`` (``git archive``) in ``scratch/base``."""
    base = scratch / "base"
    base.mkdir()
    archive = subprocess.run(["git", "archive", rev], cwd=ROOT, capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(base)], input=archive, check=True)
    return base


def tree_env(tree: Path, scratch: Path, from_source: bool = False) -> dict[str, str]:
    """The environment of a process running ``tree``'s chemref: hash seed fixed, its bytecode cached under
    ``scratch`` unless ``from_source``."""
    env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONHASHSEED": "0"}
    if from_source:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    else:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(scratch / f"pycache-{tree.name}")
    return env


def _run(tree: Path, name: str, data: dict[str, str], scratch: Path, from_source: bool = False) -> float:
    """CPU seconds (user + system) of one fresh process running workload ``name`` on ``tree`` (its bytecode
    cached under ``scratch`` unless ``from_source``)."""
    env = tree_env(tree, scratch, from_source)
    if name == "build":
        out = scratch / f"build-{tree.name}"
        command = [sys.executable, "-m", "chemref", "questions", "build", data["jats"], "-o", str(out / "q.jsonl"),
                   "-w", "1", "--no-progress"]
    else:
        command = [sys.executable, "-c", WORKLOADS[name], data[name]]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, env=env, cwd=tree, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{name} failed on {tree}:\n{done.stderr[-2000:]}")
    if name != "build":  # the work itself, timed inside the process after its imports
        return float(done.stdout.split()[-1])
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="331480e", help="the earlier commit (default: 331480e)")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--only", nargs="*", choices=sorted(WORKLOADS), help="workloads to run (default: all)")
    parser.add_argument("--from-source", action="store_true", help="no bytecode cache: every process compiles the "
                        "modules it imports from their source")
    args = parser.parse_args()
    data = {"sentences": str(reference_path("corpora", "sentences", "craft_v5_ccby_sentences.jsonl")),
            "brat": str(reference_path("chemu_ref")), "jats": str(reference_path("corpora", "jats", "dev"))}
    missing = [path for path in data.values() if not Path(path).exists()]
    if missing:
        print(f"skipped: reference data not available ({', '.join(missing)})")
        return
    names = args.only or list(WORKLOADS)
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)
        base = export_tree(args.base, scratch)
        rows = []
        for name in names:
            times: dict[str, list[float]] = {"base": [], "this": []}
            start = time.perf_counter()
            for label, tree in (("base", base), ("this", ROOT)):  # a first run fills the bytecode cache
                _run(tree, name, data, scratch, args.from_source)
            for _ in range(args.repeat):
                for label, tree in (("base", base), ("this", ROOT)):
                    times[label].append(_run(tree, name, data, scratch, args.from_source))
            best = {label: min(values) for label, values in times.items()}
            rows.append({"workload": name, "base_cpu_s": round(best["base"], 3), "this_cpu_s": round(best["this"], 3),
                         "ratio": round(best["base"] / best["this"], 3), "repeat": args.repeat,
                         "wall_s": round(time.perf_counter() - start, 1)})
    print(f"this tree against {args.base} (best CPU seconds of {args.repeat} alternating runs, "
          f"{'compiled from source' if args.from_source else 'bytecode cached'}; load {load:.1f} at start, "
          f"{os.getloadavg()[0]:.1f} at end)")
    print(f"{'workload':<10} {'base s':>8} {'this s':>8} {'ratio':>6}")
    for row in rows:
        print(f"{row['workload']:<10} {row['base_cpu_s']:>8.3f} {row['this_cpu_s']:>8.3f} {row['ratio']:>6.3f}")
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps({"base": args.base, "from_source": args.from_source, "load_start": load,
                               "load_end": os.getloadavg()[0],
                               "rows": rows}, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()

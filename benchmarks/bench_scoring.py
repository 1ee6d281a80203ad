"""Benchmark ``chemref score brat`` as a whole process on ChEMU-Ref dev replicated to 2,250 documents.

BRATEval v0.3.2 (Java) is not installed here; its figures for the same 2,250 documents on this machine
type are quoted, not measured here. Each configuration runs REPEATS times under ``/usr/bin/time -v``
(Debian ``time``; ``apt-get install -y time``); the table shows the median wall time, the CPU time
(user + sys, children included) and the peak RSS of the largest process. chemref runs in one process by
default; the ``--workers 2`` rows split the documents over two forked processes. The ``--ci`` row adds
bootstrap intervals (1,000 resamples) to all six reports; the leaderboard row compares three systems
(perfect, mixed, drop20, each replicated the same way) with paired approximate randomization (10,000 trials).

    python benchmarks/bench_scoring.py            # writes benchmarks/results/scoring.json
"""

from __future__ import annotations

import json
import os
import platform
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from tools.reference_data import reference_path  # noqa: E402
DEV = reference_path("chemu_ref", "gold", "dev", project_root=ROOT)
SYSTEMS = reference_path("chemu_ref", "systems", project_root=ROOT)
LEADERBOARD_SYSTEMS = ("perfect", "mixed", "drop20")
RESULTS = ROOT / "benchmarks" / "results" / "scoring.json"
COPIES = 10
REPEATS = 5
TIME = "/usr/bin/time"

# (name, chemref arguments after GOLD PRED, BRATEval's quoted (seconds, MB) or None)
RUNS = [
    ("chemu: all six ChEMU reports (--json)", ["--json"], None),
    ("chemu: same, --ci 0.95 (1,000 resamples)", ["--json", "--ci", "0.95"], None),
    ("chemu: same, --ci, --workers 2", ["--json", "--ci", "0.95", "--workers", "2"], None),
    ("leaderboard: 3 systems, randomization 10,000", ["{leaderboard}", "--json"], None),
    ("chemu: same, two processes (--workers 2)", ["--json", "--workers", "2"], None),
    ("brateval: relations, overlap", ["--brateval", "--level", "relations", "--span", "overlap"], (1.04, 300)),
    ("brateval: entities, overlap", ["--brateval", "--level", "entities", "--span", "overlap"], (2.82, 710)),
    ("brateval: relations, overlap, --workers 2", ["--brateval", "--level", "relations", "--span", "overlap",
                                               "--workers", "2"], (1.04, 300)),
    ("brateval: entities, overlap, --workers 2", ["--brateval", "--level", "entities", "--span", "overlap",
                                              "--workers", "2"], (2.82, 710)),
    ("brateval: relations, exact", ["--brateval", "--level", "relations", "--span", "exact"], None),
    ("brateval: entities, approx 0.8", ["--brateval", "--level", "entities", "--span", "approx",
                                        "--similarity", "0.8"], None),
]
TARGET = (1.0, 150)  # seconds, MB for the whole ChEMU-mode process
#: wall-time targets (seconds) of the other acceptance rows
TARGETS = {"chemu: same, --ci 0.95 (1,000 resamples)": 2.0, "leaderboard: 3 systems, randomization 10,000": 5.0}


def replicate(dst: Path, src: Path = DEV) -> int:
    """Copy every document of ``src`` COPIES times under new names; returns the number of documents."""
    n = 0
    for k in range(COPIES):
        for ann in sorted(src.glob("*.ann")):
            shutil.copyfile(ann, dst / f"c{k}_{ann.name}")
            txt = ann.with_suffix(".txt")
            if txt.exists():
                shutil.copyfile(txt, dst / f"c{k}_{txt.name}")
            n += 1
    return n


def chemref_cmd() -> list[str]:
    exe = shutil.which("chemref")
    return [exe] if exe else [sys.executable, "-m", "chemref"]


def timed(cmd: list[str]) -> tuple[float, float, float]:
    """(wall seconds, user+sys CPU seconds, peak RSS MB) of one run of ``cmd``."""
    if os.path.exists(TIME):
        p = subprocess.run([TIME, "-v", *cmd], capture_output=True, text=True)
        if p.returncode != 0:
            raise SystemExit(f"benchmark run failed: {' '.join(cmd)}\n{p.stderr[-2000:]}")
        err = p.stderr
        wall = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)", err)
        h, m, s = wall.groups()
        seconds = int(h or 0) * 3600 + int(m) * 60 + float(s)
        cpu = float(re.search(r"User time \(seconds\): ([\d.]+)", err).group(1)) + \
            float(re.search(r"System time \(seconds\): ([\d.]+)", err).group(1))
        rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", err).group(1)) / 1024
        return seconds, cpu, rss
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if p.returncode != 0:
        raise SystemExit(f"benchmark run failed: {' '.join(cmd)}\n{p.stderr[-2000:]}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return seconds, cpu, after.ru_maxrss / 1024


def main() -> int:
    if not DEV.is_dir():
        print(f"skipped: {DEV} is not available (../shared is not beside this checkout)")
        return 0
    rows = []
    with tempfile.TemporaryDirectory(prefix="chemref-bench-") as tmp:
        gold = Path(tmp) / "gold"
        gold.mkdir()
        n_docs = replicate(gold)
        systems = []
        for name in LEADERBOARD_SYSTEMS:
            folder = Path(tmp) / name
            folder.mkdir()
            replicate(folder, SYSTEMS / name)
            systems.append(str(folder))
        base = chemref_cmd() + ["score", "brat", str(gold)]
        startup = [timed(chemref_cmd() + ["--version"]) for _ in range(REPEATS)]
        for name, args, quoted in RUNS:
            if args[0] == "{leaderboard}":
                cmd = base + systems + args[1:]
            else:
                cmd = base + [str(gold)] + args
            runs = [timed(cmd) for _ in range(REPEATS)]
            wall = statistics.median(r[0] for r in runs)
            rows.append({"run": name, "args": args, "documents": n_docs, "repeats": REPEATS,
                         "wall_s_median": round(wall, 3), "wall_s_min": round(min(r[0] for r in runs), 3),
                         "cpu_s_median": round(statistics.median(r[1] for r in runs), 3),
                         "peak_rss_mb": round(max(r[2] for r in runs), 1),
                         "target_wall_s": TARGETS.get(name, TARGET[0] if name == RUNS[0][0] else None),
                         "brateval_s": quoted[0] if quoted else None, "brateval_mb": quoted[1] if quoted else None,
                         "speedup_vs_brateval": round(quoted[0] / wall, 2) if quoted else None,
                         "memory_ratio_vs_brateval": round(quoted[1] / max(r[2] for r in runs), 1) if quoted else None})
    print(f"chemref score brat on {n_docs} documents (ChEMU-Ref dev x{COPIES}), whole process, "
          f"median of {REPEATS} runs; load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    print(f"interpreter + CLI start-up alone (chemref --version): {statistics.median(r[0] for r in startup):.2f} s")
    head = f"{'run':<46} {'wall s':>7} {'min s':>6} {'cpu s':>6} {'RSS MB':>7} {'BRATEval s':>10} {'BRATEval MB':>11} {'speed-up':>8}"
    print(head)
    print("-" * len(head))
    for r in rows:
        quoted = (f"{r['brateval_s']:>10.2f} {r['brateval_mb']:>11}" if r["brateval_s"] else f"{'':>10} {'':>11}")
        speed = f"{r['speedup_vs_brateval']:>7.1f}x" if r["speedup_vs_brateval"] else ""
        print(f"{r['run']:<46} {r['wall_s_median']:>7.2f} {r['wall_s_min']:>6.2f} {r['cpu_s_median']:>6.2f} "
              f"{r['peak_rss_mb']:>7.1f} {quoted} {speed}")
    chemu = rows[0]
    ok = chemu["wall_s_median"] < TARGET[0] and chemu["peak_rss_mb"] < TARGET[1]
    print(f"target for the ChEMU run: < {TARGET[0]} s and < {TARGET[1]} MB -> {'met' if ok else 'NOT met'}")
    for r in rows:
        if r["run"] in TARGETS:
            met = r["wall_s_median"] < TARGETS[r["run"]]
            ok = ok and met
            print(f"target for {r['run']}: < {TARGETS[r['run']]} s -> {'met' if met else 'NOT met'} "
                  f"(cpu {r['cpu_s_median']:.2f} s)")
    from chemref._io.atomic import atomic_write

    with atomic_write(RESULTS) as handle:
        json.dump({"benchmark": "chemref score brat, whole process", "documents": n_docs, "copies": COPIES,
                   "timer": TIME if os.path.exists(TIME) else "perf_counter + getrusage",
                   "python": platform.python_version(), "cpus": os.cpu_count(),
                   "load_average": round(os.getloadavg()[0], 2),
                   "startup_s_median": round(statistics.median(r[0] for r in startup), 3),
                   "target": {"wall_s": TARGET[0], "rss_mb": TARGET[1], "met": ok},
                   "runs": rows}, handle, indent=2)
        handle.write("\n")
    print(f"wrote {RESULTS.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

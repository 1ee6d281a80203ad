"""Scale of the streaming question build: wall time, articles/s and peak RSS against corpus size.

Run from the project root:  python benchmarks/bench_scale.py [--sizes 500 5000 20000] [--no-dask]
Makes corpora by copying the dev JATS articles (../shared/corpora/jats/dev) under new names in a temporary
folder, packs the middle one as a .tar.gz too, and runs ``chemref questions build -o OUT/`` on each in a fresh
process (peak RSS from the child's rusage, as /usr/bin/time -v reports it). Prints one table and writes
benchmarks/results/scale.json. Targets: RSS at the largest size within 10% of the smallest and
under 250 MB; articles/s flat within +-10%; tar.gz at most 10% slower than the extracted folder;
--workers 2 >= 1.7x and a 2-worker LocalCluster >= 1.5x one process (both on the middle size). The
middle-size runs that are compared (one process, tar.gz, --workers 2, Dask) run back to back, and the
parallel builds' files are checked byte for byte against the one-process build (the tar.gz build's rows
apart from their source_file prefix). The Dask row's wall time counts the cluster start-up (startup_s). A
10-article build measures the fixed cost every run pays once (start-up, report, chart); the throughput ratio is
also given without it.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from tools.reference_data import reference_path  # noqa: E402
DEV = reference_path("corpora", "jats", "dev", project_root=ROOT)
OUT = ROOT / "benchmarks" / "results" / "scale.json"

_DASK_RUN = """
import sys, time
start = time.perf_counter()
from distributed import Client, LocalCluster
from chemref.questions import build_dask
if __name__ == "__main__":
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \\
            Client(cluster) as client:
        print("STARTUP", time.perf_counter() - start, file=sys.stderr)
        build_dask([sys.argv[1]], sys.argv[2], client=client, shard_articles=int(sys.argv[3]))
"""


def make_corpus(folder: Path, size: int) -> Path:
    """``size`` copies of the dev articles, each its own article: a PMCID gets the copy's number (a build gives
    articles that share a PMCID distinct ids, which costs a second build of each)."""
    import re

    files = sorted(DEV.glob("*.nxml")) + sorted(DEV.glob("*.xml"))
    pmcid = re.compile(rb'(<article-id pub-id-type="pmc(?:id)?">)([^<]*)')
    folder.mkdir(parents=True)
    for n in range(size):
        src = files[n % len(files)]
        sub = folder / f"d{n // 1000:03d}"  # a tree, as PMC's one-file-per-article layout is
        sub.mkdir(exist_ok=True)
        data = pmcid.sub(lambda m: m.group(1) + m.group(2).strip() + b"%06d" % n, src.read_bytes(), count=1)
        (sub / f"a{n:06d}_{src.name}").write_bytes(data)
    return folder


def pack(folder: Path, target: Path) -> Path:
    with tarfile.open(target, "w:gz", compresslevel=6) as archive:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                archive.add(path, arcname=path.relative_to(folder).as_posix())
    return target


def timed_build(cmd: list[str], label: str, n: int) -> dict:
    """Run ``cmd`` under a tiny wrapper that reports the child's own peak RSS (KB) on its last stderr line."""
    wrapper = ("import resource, subprocess, sys; p = subprocess.run(sys.argv[1:]); "
               "print('MAXRSS', resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr); "
               "sys.exit(p.returncode)")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    load = os.getloadavg()[0]  # other users' work on a shared machine shows here (this run's own is not in yet)
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", wrapper, *cmd], env=env, capture_output=True, text=True)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"bench_scale: {label} failed: {proc.stderr.strip()[-800:]}")
    rss_kb = int([x for x in proc.stderr.splitlines() if x.startswith("MAXRSS")][-1].split()[1])
    row = {"run": label, "articles": n, "wall_s": round(wall, 2), "articles_per_s": round(n / wall, 1),
           "peak_rss_mb": round(rss_kb / 1024, 1), "load_before": round(load, 2)}
    startup = [x for x in proc.stderr.splitlines() if x.startswith("STARTUP")]
    if startup:  # Dask: imports and cluster start-up, counted in wall_s like every run's own start-up
        row["startup_s"] = round(float(startup[-1].split()[1]), 2)
    return row


def same_outputs(a: Path, b: Path) -> list[str]:
    """The files of two folder builds that differ (the manifest compared without its timings)."""
    names = sorted(p.name for p in a.iterdir() if not p.name.startswith("."))
    if names != sorted(p.name for p in b.iterdir() if not p.name.startswith(".")):
        return ["the file names"]
    differ = []
    for name in names:
        x, y = (a / name).read_bytes(), (b / name).read_bytes()
        if name == "manifest.json":
            x, y = (json.dumps({k: v for k, v in json.loads(m).items() if k != "timings"}) for m in (x, y))
        if x != y:
            differ.append(name)
    return differ


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[500, 5000, 20000])
    parser.add_argument("--no-dask", action="store_true", help="skip the Dask LocalCluster row")
    parser.add_argument("--no-workers", action="store_true", help="skip the --workers 2 and Dask rows")
    parser.add_argument("--shard-articles", type=int, default=100,
                        help="articles per shard in every run (Dask spreads shards over its workers)")
    args = parser.parse_args()
    if not DEV.is_dir():
        print(f"bench_scale: the dev corpus is not available at {DEV}", file=sys.stderr)
        return 2
    chemref = [sys.executable, "-c", "import sys; from chemref.cli import main; sys.exit(main())"]
    shard = ["--shard-articles", str(args.shard_articles)]
    load_start = os.getloadavg()[0]
    rows: list[dict] = []
    with tempfile.TemporaryDirectory(prefix="bench_scale.") as tmp:
        base = Path(tmp)
        sizes = sorted(args.sizes)
        mid = sizes[len(sizes) // 2] if len(sizes) > 1 else sizes[0]
        corpora = {n: make_corpus(base / f"c{n}", n) for n in sizes}
        package = pack(corpora[mid], base / f"c{mid}.tar.gz")
        tiny = make_corpus(base / "c10", 10)
        os.sync()  # the corpora are on disk before any timing (no write-back of gigabytes during the first run)

        def run(label: str, n: int, cmd: list[str]) -> None:
            rows.append(timed_build(cmd, label, n))
            print(rows[-1], file=sys.stderr)

        def build(source: Path, out: str, *extra: str) -> list[str]:
            return [*chemref, "questions", "build", str(source), "-o", str(base / out) + "/", "--no-progress",
                    *shard, *extra]

        # what every run pays once whatever its size (start-up, imports, report, chart, card)
        run("fixed cost: folder, 1 process", 10, build(tiny, "o10"))
        for n in sizes:
            if n != mid:
                run("folder, 1 process", n, build(corpora[n], f"o{n}"))
        # the runs compared with each other go back to back on the same corpus (the machine drifts over
        # the long runs): the one-process reference, the package, then the parallel builds
        run("folder, 1 process", mid, build(corpora[mid], f"o{mid}"))
        run("tar.gz, 1 process", mid, build(package, f"t{mid}"))
        if not args.no_workers:
            run("folder, --workers 2", mid, build(corpora[mid], f"w{mid}", "--workers", "2"))
            if not args.no_dask:
                script = base / "dask_run.py"
                script.write_text(_DASK_RUN, encoding="utf-8")
                run("folder, Dask LocalCluster 2 workers", mid,
                    [sys.executable, str(script), str(corpora[mid]), str(base / f"d{mid}") + "/",
                     str(args.shard_articles)])
        for other in ("w", "d"):
            if (base / f"{other}{mid}").exists():
                differ = same_outputs(base / f"o{mid}", base / f"{other}{mid}")
                assert not differ, f"{other}{mid}: differs from the one-process build: {differ}"
        # the package's rows name their source as package.tar.gz:member, the rest is the same
        for kind in ("questions", "rejected"):
            for path in sorted((base / f"o{mid}").glob(f"{kind}-*.jsonl")):
                plain = path.read_text(encoding="utf-8").replace(f'"c{mid}/', f'"c{mid}.tar.gz:')
                assert plain == (base / f"t{mid}" / path.name).read_text(encoding="utf-8"), f"tar: {path.name}"
    rows.sort(key=lambda r: (not r["run"].startswith(("fixed", "folder, 1 process")), r["articles"]))
    one = {r["articles"]: r for r in rows if r["run"] == "folder, 1 process"}
    small, large = one[min(one)], one[max(one)]
    ref = one[mid]
    fixed = next(r for r in rows if r["run"].startswith("fixed cost"))

    def net_rate(r: dict) -> float:  # articles/s beyond the tiny build (its fixed cost and 10 articles)
        return (r["articles"] - fixed["articles"]) / (r["wall_s"] - fixed["wall_s"])

    ratios = {
        "rss_largest_over_smallest": round(large["peak_rss_mb"] / small["peak_rss_mb"], 3),
        "throughput_largest_over_smallest": round(large["articles_per_s"] / small["articles_per_s"], 3),
        "throughput_largest_over_smallest_without_fixed_cost": round(net_rate(large) / net_rate(small), 3),
        "tar_time_over_folder": round(next(r for r in rows if r["run"].startswith("tar"))["wall_s"] / ref["wall_s"], 3),
    }
    for r in rows:
        if r["run"] == "folder, --workers 2":
            ratios["workers2_speedup"] = round(ref["wall_s"] / r["wall_s"], 3)
        if r["run"].startswith("folder, Dask"):
            ratios["dask2_speedup"] = round(ref["wall_s"] / r["wall_s"], 3)
            ratios["dask2_speedup_without_startup"] = round(ref["wall_s"] / (r["wall_s"] - r["startup_s"]), 3)
    print(f"{'run':<52}{'articles':>9}{'wall s':>9}{'art/s':>8}{'peak RSS MB':>13}{'load before':>13}")
    for r in rows:
        print(f"{r['run']:<52}{r['articles']:>9}{r['wall_s']:>9}{r['articles_per_s']:>8}{r['peak_rss_mb']:>13}"
              f"{r['load_before']:>13}")
    for k, v in ratios.items():
        print(f"{k}: {v}")
    result = {"machine": {"python": platform.python_version(), "cpus": os.cpu_count(),
                          "load_start": load_start, "load_end": os.getloadavg()[0]},
              "dev_articles": len(list(DEV.glob("*.*xml"))), "rows": rows, "ratios": ratios}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    tmp_out = OUT.with_suffix(".json.tmp")
    tmp_out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    os.replace(tmp_out, OUT)
    return 0


if __name__ == "__main__":
    sys.exit(main())

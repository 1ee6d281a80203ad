"""``chemref questions judge run`` against the local test server (tests/judge_server.py, 127.0.0.1, port 0).

Run from the project root:  python benchmarks/bench_judge.py [--requests 1000] [--repeats 3]

Two tables, written to benchmarks/results/judge.json:

1. The overhead chemref adds per request, with a server that answers at once, one request in flight: the
   time per request of ``run_requests`` (reading the requests, the resume check, the output line written and
   flushed, the retry and progress bookkeeping) minus that of a bare loop of ``httpx.AsyncClient.post`` on one
   keep-alive connection (the same bodies, the same server), the best of ``--repeats`` runs. Goal: < 5 ms.
2. The requests in flight reached at ``--concurrency`` 8 and 32, counted by the client and by the server
   (which answers after 20 ms, so that requests overlap), with the throughput.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "benchmarks" / "results" / "judge.json"
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from chemref._io.atomic import atomic_write  # noqa: E402
from chemref.questions.judge.client import read_requests, request_url, run_requests  # noqa: E402
from judge_server import JudgeServer, write_requests  # noqa: E402


async def _bare(url: str, bodies: list[bytes]) -> float:
    import httpx

    async with httpx.AsyncClient(limits=httpx.Limits(max_connections=1), trust_env=False,
                                 headers={"Content-Type": "application/json"}) as client:
        start = time.perf_counter()
        for body in bodies:
            response = await client.post(url, content=body)
            response.json()
        return time.perf_counter() - start


def overhead(n: int, repeats: int, folder: Path) -> dict:
    requests = folder / "requests.jsonl"
    write_requests(requests, [f"q{i}" for i in range(n)])
    bodies = [json.dumps(r.body).encode() for r in read_requests(requests)]
    chemref_s, bare_s = [], []
    with JudgeServer() as server:
        url = request_url(server.url, "/v1/chat/completions")
        asyncio.run(_bare(url, bodies[:20]))  # warm up both
        for i in range(repeats):
            bare_s.append(asyncio.run(_bare(url, bodies)))
            out = folder / f"responses{i}.jsonl"
            start = time.perf_counter()
            summary = run_requests(requests, out, endpoint=server.url, concurrency=1, progress=False)
            chemref_s.append(time.perf_counter() - start)
            assert summary.answered == n and not summary.failures
        assert not server.problems
    per_chemref = min(chemref_s) / n * 1000
    per_bare = min(bare_s) / n * 1000
    return {"requests": n, "repeats": repeats, "chemref_ms_per_request": round(per_chemref, 3),
            "bare_httpx_ms_per_request": round(per_bare, 3),
            "overhead_ms_per_request": round(per_chemref - per_bare, 3),
            "ratio_chemref_to_bare": round(per_chemref / per_bare, 3), "goal_ms": 5.0}


def in_flight(concurrency: int, folder: Path, delay: float = 0.02) -> dict:
    n = concurrency * 12
    requests = folder / f"requests_c{concurrency}.jsonl"
    write_requests(requests, [f"q{i}" for i in range(n)])
    with JudgeServer(delay=delay) as server:
        start = time.perf_counter()
        summary = run_requests(requests, folder / f"responses_c{concurrency}.jsonl", endpoint=server.url,
                               concurrency=concurrency, progress=False)
        seconds = time.perf_counter() - start
        assert summary.answered == n and not server.problems
        return {"concurrency": concurrency, "requests": n, "server_delay_s": delay,
                "client_max_in_flight": summary.max_in_flight, "server_max_in_flight": server.max_in_flight,
                "connections": server.connections, "requests_per_s": round(n / seconds, 1),
                "ideal_requests_per_s": round(concurrency / delay, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        cost = overhead(args.requests, args.repeats, folder)
        flights = [in_flight(c, folder) for c in (8, 32)]
    print(f"overhead per request ({cost['requests']} requests, one in flight, best of {cost['repeats']}):")
    print(f"  {'chemref judge run':<22}{cost['chemref_ms_per_request']:>8.3f} ms")
    print(f"  {'bare httpx loop':<22}{cost['bare_httpx_ms_per_request']:>8.3f} ms")
    print(f"  {'overhead':<22}{cost['overhead_ms_per_request']:>8.3f} ms  (goal < 5 ms; ratio "
          f"{cost['ratio_chemref_to_bare']:.2f}x)")
    print()
    print(f"{'concurrency':>11}{'requests':>10}{'client max':>12}{'server max':>12}{'connections':>13}"
          f"{'req/s':>9}{'ideal':>9}")
    for row in flights:
        print(f"{row['concurrency']:>11}{row['requests']:>10}{row['client_max_in_flight']:>12}"
              f"{row['server_max_in_flight']:>12}{row['connections']:>13}{row['requests_per_s']:>9}"
              f"{row['ideal_requests_per_s']:>9}")
    with atomic_write(OUT) as handle:
        json.dump({"overhead": cost, "in_flight": flights}, handle, indent=2)
        handle.write("\n")
    print(f"\nwrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()

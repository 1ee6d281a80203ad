"""Hostile inputs: time and peak memory of the scorer and the rule engines on inputs built to hurt them.

Run from the project root:  python benchmarks/bench_hostile.py  (``--brat``: only the BRAT scoring cases, written
to benchmarks/results/hostile_brat.json; ``--judge``: only the judge's hostile servers, to
benchmarks/results/hostile_judge.json; ``--chain-details``: only the long chain's ``--errors``/``--html`` and the
per-submission COREFERENCE budget, to benchmarks/results/hostile_chain_details.json; ``--bounds``: only the input
size bounds, to benchmarks/results/hostile_bounds.json)
Prints one table and writes benchmarks/results/hostile.json. Each case runs in a fresh process, which
reports the time of the work itself (imports, and one warm-up call on a short text that loads the rule
tables, excluded), wall-clock (held to the target) and CPU (what the work costs when other jobs share the
machine), and its own peak resident memory. Load average at start and end are recorded.
Cases: the ChEMU COREFERENCE chain (benchmarks/golden/hostile_recipes.py) at N = 100, 1,000, 10,000; BRAT scoring
(benchmarks/golden/hostile_recipes_brat.py, target 5 s and 500 MB each): 10,000 nested overlapping mentions (relaxed
matching, and the --html page), a 300-link chain of mutually overlapping spans, 10,000 chains of 10 links and a
150,000-link chain (refused); ``--errors`` and ``--html`` on one chain of 350, 700 and 1,400 mentions (FP/FN
lists capped per document and report), and the per-submission budget on 2 to 40 documents of a 1,400-mention chain
(refused past 5,000,000 links); a cited sentence
holding 50,000 digits, and one holding 1 MB of each string below, through ``questions build`` (the whole
build of that one article: reading, splitting, every filter); 1 MB of "1", "C", "e.g. ", "(" and
"Smith et al. " through every rule engine (sentence splitter, tokenizer, claims, authors, findability, and
the question selector's features of a candidate record whose excerpt and cited sentence hold that text);
``judge run`` (16 requests, ``--concurrency 8``, one retry each) against the test server (tests/judge_server.py)
answering every request with a 1 MB gzip or deflate bomb (1 GB inflated), or a body gzipped twice
(``Content-Encoding: gzip, gzip``): target 10 s and 300 MB each.
Input size bounds (target 60 s and 2 GB each), each at three sizes N to show linear growth: reading (and writing
as JSON) an article of N sentences each citing all N/6 references as one range; an ``<articles>`` file of N
articles; ``is_formula`` and ``token_classes`` on N digits; the chemicals component on N tokens; listing a
package of N empty members.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "benchmarks" / "results" / "hostile.json"
sys.path.insert(0, str(ROOT))

from chemref._io.atomic import write_text  # noqa: E402

STRINGS = ("1", "C", "e.g. ", "(", "Smith et al. ")
ENGINES = ("sentences", "tokenizer", "claims", "authors", "findability", "selector")
MB = 1_000_000

_PRELUDE = textwrap.dedent("""
    import json, resource, sys, tempfile, time
    from pathlib import Path
    sys.path[:0] = [@ROOT@]
    from benchmarks.golden import hostile_recipes as recipes

    def start():
        global _wall, _cpu
        _wall, _cpu = time.perf_counter(), time.process_time()

    def done(outcome):
        seconds, cpu = time.perf_counter() - _wall, time.process_time() - _cpu
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(json.dumps({"seconds": seconds, "cpu_seconds": cpu, "peak_mb": peak, "outcome": outcome}))
""").replace("@ROOT@", repr(str(ROOT)))

_COREF = _PRELUDE + textwrap.dedent("""
    from chemref.errors import ScoringError
    from chemref.scoring.brat.score import score_brat
    with tempfile.TemporaryDirectory() as tmp:
        gold, pred = recipes.coref_folders(Path(tmp), @N@)
        start()
        try:
            report = score_brat(gold, pred)
            f1 = report["relations"]["relaxed_bipartite"]["coref_expanded"]["overall"]["f1"]
            outcome = f"scored (relaxed, expanded F1 {f1:.3f})"
        except ScoringError as exc:
            outcome = "refused: " + exc.message
        done(outcome)
""")

_BRAT = _PRELUDE + textwrap.dedent("""
    from benchmarks.golden import hostile_recipes_brat as recipes_brat
    from chemref.errors import ScoringError
    from chemref.scoring.brat.score import score_brat
    case, n = @CASE@, @N@
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        if case == "nested" or case == "html":
            gold, pred = recipes_brat.folders(root, recipes_brat.nested_mentions(n),
                                              recipes_brat.nested_mentions(n, 1), text_chars=2 * n + 10)
        elif case == "overlapping":
            gold, pred = recipes_brat.folders(root, recipes_brat.overlapping_chain(n),
                                              recipes_brat.overlapping_chain(n, 1))
        elif case == "chains":
            gold, pred = recipes_brat.folders(root, recipes_brat.coref_chains(n, 10),
                                              recipes_brat.coref_chains(n, 10, 1))
        else:
            gold, pred = recipes.coref_folders(root, n)
        start()
        try:
            report = score_brat(gold, pred, details=case == "html")
            ent = report["entities"]["relaxed_bipartite"]["overall"]
            rel = report["relations"]["relaxed_bipartite"]["coref_expanded"]["overall"]
            outcome = f"scored: relaxed entities tp {ent['tp']:,}, relaxed expanded relations tp {rel['tp']:,}"
            if case == "html":
                from chemref.pages.brat_errors import write_brat_error_page
                from chemref.scoring.brat.match_details import match_details
                size = write_brat_error_page(root / "page.html", match_details(gold, pred, report=report))
                outcome = f"page of {size / 1e6:.1f} MB; " + outcome
        except ScoringError as exc:
            outcome = "refused: " + exc.message
        done(outcome)
""")

#: (case, recipe, size) of the BRAT scoring cases
BRAT_CASES = (
    ("relaxed matching, 10,000 nested overlapping mentions", "nested", 10_000),
    ("--html page, 10,000 nested overlapping mentions", "html", 10_000),
    ("300-link chain of mutually overlapping spans", "overlapping", 300),
    ("10,000 COREFERENCE chains of 10 links", "chains", 10_000),
    ("150,000-link COREFERENCE chain (refused)", "long", 150_000),
)

_BUILD = _PRELUDE + textwrap.dedent("""
    from chemref.questions.output.writer import build_to_files
    unit = @UNIT@
    if unit is None:
        sentence = recipes.digits_sentence(50_000)
    else:  # one cited sentence holding 1 MB of the unit
        sentence = "The yields rose " + (unit * (@MB@ // len(unit) + 1))[:@MB@] + " in the earlier study [CIT]."
    with tempfile.TemporaryDirectory() as tmp:
        article = Path(tmp) / "hostile.xml"
        article.write_text(recipes.jats_article(sentence), encoding="utf-8")
        start()
        out = build_to_files([str(article)], Path(tmp) / "q.jsonl", progress=False)
        done(f"{out.totals.questions} questions, {out.totals.rejected} rejected")
""")

_ENGINE = _PRELUDE + textwrap.dedent("""
    engine, unit, size = @ARGS@
    text = (unit * (size // len(unit) + 1))[:size]
    if engine == "sentences":
        from chemref.nlp.sentences import split_sentences as run
    elif engine == "tokenizer":
        import spacy
        from chemref.nlp.components.tokenizer import chemical_tokenizer
        nlp = spacy.blank("en")
        nlp.max_length = 10 * len(text)
        run = chemical_tokenizer(nlp.vocab)
    elif engine == "claims":
        from chemref.nlp.claims import classify_citation
        def run(t):
            return classify_citation(t + " [1]", (len(t) + 1, len(t) + 4))
    elif engine == "authors":
        from chemref.nlp.authors import cited_author_mentions
        def run(t):
            return cited_author_mentions(t, ["Smith"])
    elif engine == "selector":
        from chemref.questions.funnel.selector_features import selector_features
        def run(t):  # a candidate record as the builder makes it: the 1 MB sentence, then its citation
            return selector_features({"excerpt": t + " [CITATION].", "sentence": t + " [1].",
                                      "citation_start": len(t) + 1, "citation_end": len(t) + 4,
                                      "target_title": "A study of yields", "section": "results"})
    else:
        from chemref.questions.funnel.findability import findability as run
    run("Smith et al. found 5 mM C2H4 (e.g. 1) [1].")  # rule tables loaded and compiled once, not timed
    start()
    run(text)
    done("ok")
""")


_CHAIN_DETAILS = _PRELUDE + textwrap.dedent("""
    from benchmarks.golden import hostile_recipes_brat as recipes_brat
    from chemref.scoring import score_brat
    flag, n = @FLAG@, @N@
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        gold, pred = recipes_brat.folders(root, recipes_brat.coref_chains(1, 20), recipes_brat.coref_chains(1, n),
                                          text_chars=4 * (n + 2))
        size = (pred / "doc.ann").stat().st_size
        start()
        if flag == "--errors":  # what `score brat --errors --json` does: score, list, print
            report = score_brat(gold, pred, errors=True)
            text = report.to_json()
            left = sum(sum(v.values()) for v in report.get("errors_left_out", {}).values())
            outcome = f"{len(report['errors']):,} records listed, {left:,} counted; JSON {len(text) / 1e6:.1f} MB"
        else:  # `score brat --html PAGE`
            from chemref.pages.brat_errors import write_brat_error_page
            from chemref.scoring.brat.match_details import match_details
            report = score_brat(gold, pred, details=True)
            written = write_brat_error_page(root / "page.html", match_details(gold, pred, report=report))
            outcome = f"page of {written / 1e6:.1f} MB"
        done(f"{size / 1e3:.0f} kB prediction: " + outcome)
""")

_COREF_BUDGET = _PRELUDE + textwrap.dedent("""
    from benchmarks.golden import hostile_recipes_brat as recipes_brat
    from chemref.errors import ScoringError
    from chemref.scoring import score_brat
    docs, n = @DOCS@, @N@
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for side in ("gold", "pred"):
            (root / side).mkdir()
        chain = recipes_brat.coref_chains(1, n, 1)
        for d in range(docs):
            (root / "gold" / f"d{d:03}.ann").write_text("T1\\tReaction_product 0 3\\tabc\\n", encoding="utf-8")
            (root / "pred" / f"d{d:03}.ann").write_text(chain, encoding="utf-8")
        size = docs * len(chain.encode())
        start()
        try:
            report = score_brat(root / "gold", root / "pred")
            outcome = f"scored {report['documents']} documents"
        except ScoringError as exc:
            outcome = "refused: " + exc.message[:90]
        done(f"{size / 1e6:.1f} MB submission: " + outcome)
""")

#: (flag, chain links) of the long-chain --errors / --html cases: 1,400 mentions is 979,300 links once expanded
CHAIN_DETAIL_CASES = tuple((flag, n) for flag in ("--errors", "--html") for n in (349, 699, 1_399))
#: documents of one 1,400-mention chain each, against the default per-submission budget (5,000,000 links)
COREF_BUDGET_CASES = (2, 5, 10, 40)


def _chain_detail_rows() -> list[dict]:
    """``score brat --errors`` and ``--html`` on one long COREFERENCE chain: time and peak memory against size
    (the FP/FN lists are capped per document and report; the score is the same work as without the flags)."""
    rows = []
    for flag, n in CHAIN_DETAIL_CASES:
        code = _CHAIN_DETAILS.replace("@FLAG@", repr(flag)).replace("@N@", str(n))
        rows.append({"case": f"{flag}, one chain of {n + 1:,} mentions ({n * (n + 1) // 2:,} links)",
                     "limit_s": 5.0, "limit_mb": 500.0, **_run(code, timeout=300.0)})
    return rows


def _coref_budget_rows() -> list[dict]:
    """The per-submission COREFERENCE budget: submissions of 2 to 40 documents of one 1,400-mention chain each
    (979,300 links each), refused once past 5,000,000 links, in time and memory bounded by the budget."""
    rows = []
    for docs in COREF_BUDGET_CASES:
        code = _COREF_BUDGET.replace("@DOCS@", str(docs)).replace("@N@", "1399")
        rows.append({"case": f"per-submission budget, {docs} documents of a 1,400-mention chain",
                     "limit_s": 15.0, "limit_mb": 500.0, **_run(code, timeout=300.0)})
    return rows
_JUDGE = _PRELUDE + textwrap.dedent("""
    sys.path.insert(0, str(Path(@ROOT@) / "tests"))
    from judge_server import JudgeServer, write_requests
    from chemref.questions.judge.client import run_requests
    kind = @KIND@
    items = [f"q{i}" for i in range(16)]
    with tempfile.TemporaryDirectory() as tmp, JudgeServer() as server:
        requests = Path(tmp) / "requests.jsonl"
        write_requests(requests, items)
        server.plan = {item: [kind, kind] for item in items}
        from judge_server import _encoded
        _encoded(kind, b"")  # the bomb made before the clock starts (the server's work, not chemref's)
        start()
        summary = run_requests(requests, Path(tmp) / "responses.jsonl", endpoint=server.url, concurrency=8,
                               max_retries=1, first_wait=0.0, progress=False)
        done(f"{summary.failures} of {summary.requests} refused unread ({', '.join(summary.failed)})")
""").replace("@ROOT@", repr(str(ROOT)))

#: (case, test server kind) of the judge cases
JUDGE_CASES = (
    ("judge run, 16 x 1 MB gzip bomb (1 GB inflated), concurrency 8", "bomb"),
    ("judge run, 16 x 1 MB deflate bomb (1 GB inflated), concurrency 8", "deflate_bomb"),
    ("judge run, 16 bodies gzipped twice (gzip, gzip), concurrency 8", "gzip2"),
)


def _judge_rows() -> list[dict]:
    return [{"case": case, "limit_s": 10.0, "limit_mb": 300.0, **_run(_JUDGE.replace("@KIND@", repr(kind)))}
            for case, kind in JUDGE_CASES]
_BOUNDS = _PRELUDE + textwrap.dedent("""
    case, n = @CASE@, @N@
    if case == "ranges":  # n sentences each citing all n // 6 references as one range (one xref, "1-N")
        from chemref.jats import read_articles
        from chemref.jsonl import json_line
        data = recipes.range_article(n // 6, n, "text").encode()
        start()
        size = sum(len(json_line(a.to_dict())) for a in read_articles(data, name="ranges.xml"))
        done(f"{len(data) / 1e6:.1f} MB in, {size / 1e6:.1f} MB of JSON out")
    elif case == "articles":  # an <articles> file of n articles
        from chemref.jats import read_articles
        data = recipes.articles_file(n).encode()
        start()
        done(f"{len(read_articles(data, name='articles.xml')):,} articles of {len(data) / 1e6:.1f} MB")
    elif case == "formula":  # is_formula on n digits
        from chemref.nlp.components.chemical_features import is_formula, token_classes
        is_formula("H2O")
        start()
        done(f"formula: {is_formula('1' * n)}, classes: {token_classes('1' * n + '+')[0]!r}")
    elif case == "chemicals":  # the chemicals component on a text of about n tokens
        from chemref.nlp.components.chemicals import _counter
        nlp = _counter()
        text = "Aspirin and NaCl in DMSO were stirred with Pd(PPh3)4 at 50 C for 2 h. " * (n // 18 + 1)
        nlp.max_length = len(text) + 1
        nlp("NaCl in DMSO")
        start()
        doc = nlp(text)
        done(f"{len(doc):,} tokens, {len(doc.ents):,} mentions")
    else:  # a .tar.gz package of n empty members named like articles
        from chemref.inputs.archives import package_sources
        with tempfile.TemporaryDirectory() as tmp:
            package = recipes.package(Path(tmp) / "oa.tar.gz", {f"PMC{i}/a.nxml": b"" for i in range(n)})
            start()
            count = sum(1 for _ in package_sources(package, "oa.tar.gz"))
            done(f"{count:,} members listed")
""")

#: (case, recipe, sizes) of the input size bounds: each at three or more sizes, to show linear growth
BOUND_CASES = (
    ("jats read, {n} sentences each citing {refs} references as one range", "ranges", (7_500, 15_000, 30_000)),
    ("jats read, <articles> file of {n} articles", "articles", (2_000, 4_000, 8_000)),
    ("is_formula and token_classes, {n} digits", "formula", (20_000, 40_000, 80_000)),
    ("chemicals component, text of about {n} tokens", "chemicals", (10_000, 20_000, 40_000)),
    ("package of {n} empty members, listed", "package", (25_000, 50_000, 100_000)),
)


def _bound_rows() -> list[dict]:
    rows = []
    for case, recipe, sizes in BOUND_CASES:
        for n in sizes:
            code = _BOUNDS.replace("@CASE@", repr(recipe)).replace("@N@", str(n))
            rows.append({"case": case.format(n=f"{n:,}", refs=f"{n // 6:,}"),
                         "recipe": recipe, "size": n, "limit_s": 60.0, "limit_mb": 2000.0, **_run(code, timeout=300.0)})
    return rows


def _run(code: str, timeout: float = 120.0) -> dict:
    try:
        proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"seconds": None, "cpu_seconds": None, "peak_mb": None, "outcome": f"timed out after {timeout:g} s"}
    if proc.returncode != 0:
        return {"seconds": None, "cpu_seconds": None, "peak_mb": None,
                "outcome": "failed: " + proc.stderr.strip().splitlines()[-1]}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _brat_rows() -> list[dict]:
    rows = []
    for case, recipe, n in BRAT_CASES:
        code = _BRAT.replace("@CASE@", repr(recipe)).replace("@N@", str(n))
        rows.append({"case": case, "limit_s": 5.0, "limit_mb": 500.0, **_run(code, timeout=900.0)})
    return rows + _chain_detail_rows() + _coref_budget_rows()


def main() -> None:
    load_start = os.getloadavg()[0]
    rows: list[dict] = []
    if "--chain-details" in sys.argv[1:]:  # only the long chain's --errors/--html and the per-submission budget
        _table(_chain_detail_rows() + _coref_budget_rows(), load_start, OUT.with_name("hostile_chain_details.json"))
        return
    if "--brat" in sys.argv[1:]:  # only the BRAT scoring cases, to results/hostile_brat.json
        _table(_brat_rows(), load_start, OUT.with_name("hostile_brat.json"))
        return
    if "--judge" in sys.argv[1:]:  # only the judge's hostile servers, to results/hostile_judge.json
        _table(_judge_rows(), load_start, OUT.with_name("hostile_judge.json"))
        return
    if "--bounds" in sys.argv[1:]:  # only the input size bounds, to results/hostile_bounds.json
        _table(_bound_rows(), load_start, OUT.with_name("hostile_bounds.json"))
        return
    for n in (100, 1_000, 10_000):
        rows.append({"case": f"coref chain N={n:,}", "limit_s": 5.0, **_run(_COREF.replace("@N@", str(n)))})
    rows.extend(_brat_rows())
    rows.extend(_judge_rows())
    rows.append({"case": "questions build, 50k-digit sentence", "limit_s": 5.0,
                 **_run(_BUILD.replace("@UNIT@", "None").replace("@MB@", str(MB)))})
    for unit in STRINGS:
        rows.append({"case": f"questions build, 1 MB of {unit!r} in a cited sentence", "limit_s": 5.0,
                     **_run(_BUILD.replace("@UNIT@", repr(unit)).replace("@MB@", str(MB)))})
    for unit in STRINGS:
        for engine in ENGINES:
            rows.append({"case": f"{engine}, 1 MB of {unit!r}", "limit_s": 1.0,
                         **_run(_ENGINE.replace("@ARGS@", repr((engine, unit, MB))))})
    rows.extend(_bound_rows())
    _table(rows, load_start, OUT)


def _loop_ms() -> float:
    """Milliseconds for a million dictionary look-ups in a Python loop: how fast this machine runs Python right
    now (about 40 ms on an idle 3 GHz core; several times more when other jobs share it)."""
    import timeit

    table = {i: i for i in range(1000)}
    return min(timeit.repeat("for i in keys: get(i)", globals={"keys": range(1000), "get": table.get},
                             number=1000, repeat=3)) * 1000


def _table(rows: list[dict], load_start: float, out: Path) -> None:
    loop_ms = _loop_ms()
    print(f"load average {load_start:.1f}; a million dict look-ups in a Python loop take {loop_ms:.0f} ms")
    width = max(len(r["case"]) for r in rows)
    print(f"{'case':<{width}}  {'seconds':>8}  {'cpu s':>7}  {'peak MB':>8}  {'target':>7}  outcome")
    for r in rows:
        secs = "-" if r["seconds"] is None else f"{r['seconds']:.3f}"
        cpu = "-" if r["cpu_seconds"] is None else f"{r['cpu_seconds']:.3f}"
        peak = "-" if r["peak_mb"] is None else f"{r['peak_mb']:.0f}"
        ok = r["seconds"] is not None and r["seconds"] < r["limit_s"] and r["peak_mb"] < r.get("limit_mb", 1e9)
        r["within_target"] = ok
        print(f"{r['case']:<{width}}  {secs:>8}  {cpu:>7}  {peak:>8}  {'<' + format(r['limit_s'], 'g') + ' s':>7}  "
              f"{'' if ok else 'OVER TARGET: '}{r['outcome']}")
    write_text(out, json.dumps({"python": sys.version.split()[0], "cpus": os.cpu_count(),
                                "load_average": {"start": load_start, "end": os.getloadavg()[0]},
                                "python_loop_ms": loop_ms, "cases": rows}, indent=2) + "\n")
    print(f"wrote {out.relative_to(ROOT)}")


if __name__ == "__main__":
    main()

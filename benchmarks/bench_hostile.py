"""Hostile inputs: time and peak memory of the scorer and the rule engines on inputs built to hurt them.

Run from the project root:  python benchmarks/bench_hostile.py  (``--brat``: only the BRAT scoring cases, written
to benchmarks/results/hostile_brat.json)
Prints one table and writes benchmarks/results/hostile.json. Each case runs in a fresh process, which
reports the time of the work itself (imports, and one warm-up call on a short text that loads the rule
tables, excluded), wall-clock (held to the target) and CPU (what the work costs when other jobs share the
machine), and its own peak resident memory. Load average at start and end are recorded.
Cases: the ChEMU COREFERENCE chain (benchmarks/golden/hostile_recipes.py) at N = 100, 1,000, 10,000; BRAT scoring
(benchmarks/golden/hostile_recipes_brat.py, target 5 s and 500 MB each): 10,000 nested overlapping mentions (relaxed
matching, and the --html page), a 300-link chain of mutually overlapping spans, 10,000 chains of 10 links and a
150,000-link chain (refused); a cited sentence
holding 50,000 digits, and one holding 1 MB of each string below, through ``questions build`` (the whole
build of that one article: reading, splitting, every filter); 1 MB of "1", "C", "e.g. ", "(" and
"Smith et al. " through every rule engine (sentence splitter, tokenizer, claims, authors, findability, and
the question selector's features of a candidate record whose excerpt and cited sentence hold that text).
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
        from chemref.questions.funnel.selector import selector_features
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
    return rows


def main() -> None:
    load_start = os.getloadavg()[0]
    rows: list[dict] = []
    if "--brat" in sys.argv[1:]:  # only the BRAT scoring cases, to results/hostile_brat.json
        _table(_brat_rows(), load_start, OUT.with_name("hostile_brat.json"))
        return
    for n in (100, 1_000, 10_000):
        rows.append({"case": f"coref chain N={n:,}", "limit_s": 5.0, **_run(_COREF.replace("@N@", str(n)))})
    rows.extend(_brat_rows())
    rows.append({"case": "questions build, 50k-digit sentence", "limit_s": 5.0,
                 **_run(_BUILD.replace("@UNIT@", "None").replace("@MB@", str(MB)))})
    for unit in STRINGS:
        rows.append({"case": f"questions build, 1 MB of {unit!r} in a cited sentence", "limit_s": 5.0,
                     **_run(_BUILD.replace("@UNIT@", repr(unit)).replace("@MB@", str(MB)))})
    for unit in STRINGS:
        for engine in ENGINES:
            rows.append({"case": f"{engine}, 1 MB of {unit!r}", "limit_s": 1.0,
                         **_run(_ENGINE.replace("@ARGS@", repr((engine, unit, MB))))})
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

"""JATS reading: articles/s over the dev corpus, chemref side by side with pubmed_parser, plus
citation -> DOI recall of both against an independent lxml count (benchmarks/golden/jats_independent.py).

Run from the project root:  python benchmarks/bench_jats.py [--repeats 3] [--corpus DIR]
Prints a table and writes benchmarks/results/jats.json. pubmed_parser is a benchmark-only peer
(benchmarks/requirements-peers.txt); its row is skipped with a note when it is not installed.

Speed: each tool reads every file from disk and does the work needed for citation -> DOI
(chemref: ``jats.read``, everything; pubmed_parser: ``parse_pubmed_paragraph(all_paragraph=True)``
+ ``parse_pubmed_references``, and a second row adding ``parse_pubmed_xml`` for metadata). Runs are
interleaved and the best of ``--repeats`` is kept, so a busy machine hurts both alike.

Recall: a resolvable citation is a (paragraph, reference id) pair of the independent count whose
reference exists and has a DOI; a tool finds it when it puts that reference id in that paragraph and
gives the reference that same DOI.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from tools.reference_data import reference_path  # noqa: E402

from benchmarks.golden.jats_independent import count_file  # noqa: E402

import chemref.jats as jats  # noqa: E402
from chemref.doi import normalize_doi  # noqa: E402

DEFAULT_CORPUS = reference_path("corpora", "jats", "dev", project_root=ROOT)


def time_run(fn, files, wall_log: list[float], cpu_log: list[float]) -> None:
    """One timed pass; CPU time (this process and its children) is kept beside wall time because the
    benchmark machine is shared and wall time also measures the neighbours' load."""
    start_wall = time.perf_counter()
    start_cpu = _cpu()
    fn(files)
    cpu_log.append(_cpu() - start_cpu)
    wall_log.append(time.perf_counter() - start_wall)


def _cpu() -> float:
    import os

    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


# Timed runs stream: each result is dropped before the next file is read, as a pipeline would do
# (holding every parsed article of every tool alive would time the garbage collector instead).
def run_chemref(files):
    for f in files:
        jats.read(f)


def run_chemref_2(files):
    for _ in jats.read_many(files, workers=2):
        pass


def run_lxml_count(files):
    for f in files:
        count_file(f)


def _pp_call(fn, *args, **kwargs):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return fn(*args, **kwargs)
    except Exception:  # noqa: BLE001 - a peer crashing on a file is a measured outcome, not our error
        return None


def pubmed_parser_results(files):
    """What pubmed_parser gives for citation -> DOI: paragraphs (all) and references, per file."""
    import pubmed_parser as pp

    return [(_pp_call(pp.parse_pubmed_paragraph, str(f), all_paragraph=True),
             _pp_call(pp.parse_pubmed_references, str(f))) for f in files]


def run_pubmed_parser(files):
    import pubmed_parser as pp

    for f in files:
        _pp_call(pp.parse_pubmed_paragraph, str(f), all_paragraph=True)
        _pp_call(pp.parse_pubmed_references, str(f))


def run_pubmed_parser_meta(files):
    import pubmed_parser as pp

    for f in files:
        _pp_call(pp.parse_pubmed_xml, str(f))
        _pp_call(pp.parse_pubmed_paragraph, str(f), all_paragraph=True)
        _pp_call(pp.parse_pubmed_references, str(f))


def body_p_paths(path: Path) -> list[str]:
    """The XPath of every ``//body//p`` in document order (pubmed_parser's paragraph order)."""
    from lxml import etree

    tree = etree.parse(str(path), etree.XMLParser(load_dtd=False, no_network=True, resolve_entities=False))
    return [tree.getpath(p) for p in tree.xpath("//body//p")]


def recall(files, counts, chemref_articles, pp_results) -> dict:
    """Citation -> DOI recall of each tool over the resolvable citations of the independent count."""
    resolvable = 0
    found = {"chemref": 0, "pubmed_parser": 0}
    pp_failed = 0
    for path, count, article, pp in zip(files, counts, chemref_articles, pp_results):
        targets = {(key, ref): count.dois[ref] for key, ref in count.pairs if ref in count.dois}
        resolvable += len(targets)
        by_id = article.references_by_id
        mine = {(p.path, ref) for _, p in article.paragraphs() for a in p.citations for ref in a.ref_ids}
        found["chemref"] += sum(1 for pair, doi in targets.items()
                                if pair in mine and by_id[pair[1]].doi == doi)
        if pp is None or pp[0] is None or pp[1] is None:
            pp_failed += 1
            continue
        paragraphs, references = pp
        pp_doi = {r.get("ref_id"): normalize_doi(r.get("doi_cited") or "") for r in references}
        paths = body_p_paths(path)
        theirs = set()
        if len(paths) == len(paragraphs):
            for key, paragraph in zip(paths, paragraphs):
                for rid in paragraph.get("reference_ids") or ():
                    theirs.add((key, rid))
        found["pubmed_parser"] += sum(1 for pair, doi in targets.items()
                                      if pair in theirs and pp_doi.get(pair[1]) == doi)
    return {"resolvable_citations": resolvable,
            "chemref": found["chemref"] / resolvable if resolvable else None,
            "pubmed_parser": found["pubmed_parser"] / resolvable if resolvable else None,
            "found": found, "pubmed_parser_files_failed": pp_failed}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--output", type=Path, default=ROOT / "benchmarks" / "results" / "jats.json")
    args = parser.parse_args()
    files = sorted(args.corpus.glob("*.nxml"))
    if not files:
        print(f"no .nxml files in {args.corpus}", file=sys.stderr)
        return 2
    try:
        import pubmed_parser  # noqa: F401
        have_pp = True
    except ImportError:
        have_pp = False
        print("pubmed_parser not installed (pip install -r benchmarks/requirements-peers.txt): row skipped",
              file=sys.stderr)

    tools = [("chemref jats.read", run_chemref),
             ("chemref read_many(workers=2)", run_chemref_2),
             ("independent lxml count (no text)", run_lxml_count)]
    if have_pp:
        tools += [("pubmed_parser paragraphs+references", run_pubmed_parser),
                  ("pubmed_parser + parse_pubmed_xml", run_pubmed_parser_meta)]
    # warm up (imports, page cache)
    for _, fn in tools:
        fn(files[:3])
    times: dict[str, list[float]] = {name: [] for name, _ in tools}
    cpu: dict[str, list[float]] = {name: [] for name, _ in tools}
    for _ in range(args.repeats):
        for name, fn in tools:
            time_run(fn, files, times[name], cpu[name])

    counts = [count_file(f) for f in files]
    articles = [jats.read(f) for f in files]
    pp_results = pubmed_parser_results(files) if have_pp else [None] * len(files)
    rec = recall(files, counts, articles, pp_results)

    totals = {
        "files": len(files),
        "independent": {
            "bibr_xrefs": sum(c.xrefs_bibr for c in counts), "citation_xrefs": sum(c.xrefs for c in counts),
            "references": sum(c.refs for c in counts), "ranges": sum(c.ranges for c in counts),
            "paragraph_ref_pairs": sum(len(c.pairs) for c in counts),
            "cited_references": sum(len(c.cited) for c in counts),
            "cited_references_with_doi": sum(sum(1 for r in c.cited if r in c.dois) for c in counts),
            "references_with_doi": sum(len(c.dois) for c in counts),
        },
        "chemref": {
            "anchors": sum(len(p.citations) for a in articles for _, p in a.paragraphs()),
            "range_anchors": sum(1 for a in articles for _, p in a.paragraphs() for c in p.citations if c.expanded),
            "references": sum(len(a.references) for a in articles),
            "paragraph_ref_pairs": sum(len({(p.path, r) for _, p in a.paragraphs() for c in p.citations
                                            for r in c.ref_ids}) for a in articles),
            "references_with_doi": sum(1 for a in articles for r in a.references if r.doi),
            "ambiguous_references": sum(1 for a in articles for r in a.references if r.ambiguous),
            "diagnostics": sum(len(a.diagnostics) for a in articles),
        },
    }
    rows = []
    for name, _ in tools:
        best = min(times[name])
        best_cpu = min(cpu[name])
        median = statistics.median(times[name])
        row = {"tool": name, "best_seconds": round(best, 4), "articles_per_s": round(len(files) / best, 1),
               "median_seconds": round(median, 4), "median_articles_per_s": round(len(files) / median, 1),
               "best_cpu_seconds": round(best_cpu, 4),
               "articles_per_cpu_s": round(len(files) / best_cpu, 1) if best_cpu else None,
               "runs": [round(t, 4) for t in times[name]], "cpu_runs": [round(t, 4) for t in cpu[name]]}
        if name == "chemref jats.read":
            row["citation_doi_recall"] = rec["chemref"]
        elif name.startswith("pubmed_parser paragraphs"):
            row["citation_doi_recall"] = rec["pubmed_parser"]
        rows.append(row)
    reference = next((r for r in rows if r["tool"].startswith("pubmed_parser paragraphs")), None)
    chem = rows[0]

    width = max(len(r["tool"]) for r in rows)
    print(f"JATS reading, {len(files)} dev articles, best of {args.repeats} (python {platform.python_version()})")
    print(f"{'tool'.ljust(width)}  {'art/s best':>10}  {'art/s median':>12}  {'art/CPU-s':>9}  {'DOI recall':>10}")
    for row in rows:
        recall_text = f"{row['citation_doi_recall']:.1%}" if row.get("citation_doi_recall") is not None else "-"
        per_cpu = f"{row['articles_per_cpu_s']:.1f}" if row["articles_per_cpu_s"] else "-"
        print(f"{row['tool'].ljust(width)}  {row['articles_per_s']:>10.1f}  {row['median_articles_per_s']:>12.1f}  "
              f"{per_cpu:>9}  {recall_text:>10}")
    if reference:
        print("chemref / pubmed_parser speed ratio: "
              f"{chem['articles_per_s'] / reference['articles_per_s']:.2f}x (best wall), "
              f"{chem['median_articles_per_s'] / reference['median_articles_per_s']:.2f}x (median wall), "
              f"{chem['articles_per_cpu_s'] / reference['articles_per_cpu_s']:.2f}x (CPU)")
    print(f"resolvable citations (independent count): {rec['resolvable_citations']:,}; "
          f"found: chemref {rec['found']['chemref']:,}, pubmed_parser {rec['found']['pubmed_parser']:,}")
    print("totals:", json.dumps(totals))

    result = {"benchmark": "jats", "corpus": str(args.corpus), "files": len(files), "repeats": args.repeats,
              "python": platform.python_version(), "rows": rows, "recall": rec, "totals": totals,
              "speed_ratio_vs_pubmed_parser": (chem["articles_per_s"] / reference["articles_per_s"])
              if reference else None,
              "median_speed_ratio_vs_pubmed_parser": (chem["median_articles_per_s"]
                                                      / reference["median_articles_per_s"]) if reference else None,
              "cpu_speed_ratio_vs_pubmed_parser": (chem["articles_per_cpu_s"] / reference["articles_per_cpu_s"])
              if reference else None}
    from chemref._io.atomic import atomic_write

    with atomic_write(args.output) as handle:
        json.dump(result, handle, indent=2)
        handle.write("\n")
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""JATS reading: articles/s of chemref beside pubmed_parser in one run, on the dev corpus and on a varied set
(the dev files plus a variant of each in a shape the dev set lacks: ``<articles>`` bundles, 1,500-reference
lists, TaxPub treatments, SciELO paired citations, no DOCTYPE on one line; see benchmarks/jats_variants.py),
with citation -> DOI recall of both against an independent lxml count (benchmarks/golden/jats_independent.py)
and the front-matter fields each gives on the dev files.

Run from the project root:  python benchmarks/bench_jats.py [--repeats 5] [--corpus DIR] [--no-variants]
Prints a table and writes benchmarks/results/jats.json. pubmed_parser is a benchmark-only peer
(benchmarks/requirements-peers.txt); its rows are skipped with a note when it is not installed.

Speed: each tool reads every file from disk and does the work needed for citation -> DOI
(chemref: ``read_articles``, everything, metadata included; pubmed_parser:
``parse_pubmed_paragraph(all_paragraph=True)`` + ``parse_pubmed_references``, and a second row adding
``parse_pubmed_xml`` for metadata). The tools take turns on chunks of 12 files, ``--repeats`` times over, and
each chunk's best time is kept, so a busy machine hurts both alike; CPU time is reported beside wall time.

Recall: a resolvable citation is a (paragraph, reference id) pair of the independent count whose
reference exists and has a DOI; a tool finds it when it puts that reference id in that paragraph and
gives the reference that same DOI. The articles of an ``<articles>`` bundle are counted one by one.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import tempfile
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from tools.reference_data import reference_path  # noqa: E402

from benchmarks.golden.jats_independent import Count, count_file  # noqa: E402
from benchmarks.jats_variants import build as build_variants  # noqa: E402

import chemref.jats as jats  # noqa: E402
from chemref.doi import normalize_doi  # noqa: E402

DEFAULT_CORPUS = reference_path("corpora", "jats", "dev", project_root=ROOT)


def time_run(fn, files, wall_log: list[float], cpu_log: list[float]) -> None:
    """One timed pass; CPU time (this process, at the clock's full resolution) is kept beside wall time because
    the benchmark machine is shared and wall time also measures the neighbours' load."""
    start_wall = time.perf_counter()
    start_cpu = time.process_time()
    fn(files)
    cpu_log.append(time.process_time() - start_cpu)
    wall_log.append(time.perf_counter() - start_wall)


# Timed runs stream: each result is dropped before the next file is read, as a pipeline would do
# (holding every parsed article of every tool alive would time the garbage collector instead).
def run_chemref(files):
    for f in files:
        jats.read_articles(f)


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


def _tree(path: Path):
    from lxml import etree

    return etree.parse(str(path), etree.XMLParser(load_dtd=False, no_network=True, resolve_entities=False))


def body_p_paths(path: Path) -> list[str]:
    """The XPath of every ``//body//p`` in document order (pubmed_parser's paragraph order)."""
    tree = _tree(path)
    return [tree.getpath(p) for p in tree.xpath("//body//p")]


def count_articles(path: Path, folder: Path) -> list[Count]:
    """The independent count of each article of a file: the file itself, or each ``<article>`` of an
    ``<articles>`` bundle written to a file of its own, its paragraph paths moved under the bundle's."""
    tree = _tree(path)
    root = tree.getroot()
    if root.tag == "article":
        return [count_file(path)]
    from lxml import etree

    out = []
    for k, element in enumerate(root.iter("article"), 1):
        single = folder / f"{path.stem}.part{k}.xml"
        single.write_bytes(etree.tostring(element))
        count = count_file(single)
        prefix = tree.getpath(element)
        count.pairs = {(prefix + key[len("/article"):], ref) for key, ref in count.pairs}
        out.append(count)
    return out


def recall(files, counts, chemref_articles, pp_results) -> dict:
    """Citation -> DOI recall of each tool over the resolvable citations of the independent count
    (per file: a list of counts and a list of articles, one per article of the file)."""
    resolvable = 0
    found = {"chemref": 0, "pubmed_parser": 0}
    pp_failed = 0
    for path, file_counts, articles, pp in zip(files, counts, chemref_articles, pp_results):
        targets = {(key, ref): count.dois[ref] for count in file_counts for key, ref in count.pairs
                   if ref in count.dois}
        resolvable += len(targets)
        mine = {(p.path, ref): article.references_by_id[ref].doi for article in articles
                for _, p in article.paragraphs() for a in p.citations for ref in a.ref_ids}
        found["chemref"] += sum(1 for pair, doi in targets.items() if mine.get(pair, "") == doi)
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


#: Front-matter fields: name -> (does a chemref Article give it, does pubmed_parser's parse_pubmed_xml give it)
def _pp_affiliated(d: dict) -> bool:
    affs = {a[0]: a[1] for a in d.get("affiliation_list") or () if len(a) > 1}
    return any(len(a) > 2 and affs.get(a[2]) for a in d.get("author_list") or ())


FIELDS = {
    "authors": (lambda a: bool(a.authors), lambda d: bool(d.get("author_list"))),
    "affiliations": (lambda a: any(x.affiliations for x in a.authors), _pp_affiliated),
    "orcid": (lambda a: any(x.orcid for x in a.authors), None),
    "corresponding": (lambda a: any(x.corresponding for x in a.authors), None),
    "equal_contribution": (lambda a: any(x.equal_contribution for x in a.authors), None),
    "keywords": (lambda a: bool(a.keywords), None),
    "subjects": (lambda a: bool(a.subjects), lambda d: bool(d.get("subjects"))),
    "article_type": (lambda a: bool(a.article_type), None),
    "dates": (lambda a: bool(a.dates), lambda d: bool(d.get("publication_date") or d.get("epublication_date"))),
    "history_dates": (lambda a: any(x.kind == "history" for x in a.dates), None),
    "funding": (lambda a: bool(a.funding.statements or a.funding.awards), None),
    "award_ids": (lambda a: any(w.award_ids for w in a.funding.awards), None),
    "abstract_text": (lambda a: bool(a.abstract_text), lambda d: bool((d.get("abstract") or "").strip())),
}


def metadata_coverage(files, articles) -> dict:
    """How many files each tool gives each front-matter field for (None: the tool has no such field), plus
    reference authors' given names (pubmed_parser: its reference ``name`` field)."""
    have_pp = _have_pubmed_parser()
    rows = {name: {"chemref": 0, "pubmed_parser": 0 if theirs and have_pp else None}
            for name, (_, theirs) in FIELDS.items()}
    rows["reference_given_names"] = {"chemref": 0, "pubmed_parser": 0 if have_pp else None}
    for path, file_articles in zip(files, articles):
        first = file_articles[0]
        for name, (ours, _) in FIELDS.items():
            rows[name]["chemref"] += ours(first)
        rows["reference_given_names"]["chemref"] += any(g for r in first.references for g in r.given_names)
        if have_pp:
            import pubmed_parser as pp

            d = _pp_call(pp.parse_pubmed_xml, str(path)) or {}
            for name, (_, theirs) in FIELDS.items():
                if theirs is not None:
                    rows[name]["pubmed_parser"] += theirs(d)
            refs = _pp_call(pp.parse_pubmed_references, str(path)) or []
            rows["reference_given_names"]["pubmed_parser"] += any(r.get("name") for r in refs)
    return {"files": len(files), "fields": rows}


def _have_pubmed_parser() -> bool:
    try:
        import pubmed_parser  # noqa: F401
    except ImportError:
        return False
    return True


#: Files per timed chunk: the tools take turns chunk by chunk, and each chunk's best time over the repeats is kept.
CHUNK = 12


def measure(label: str, files: list[Path], tools, repeats: int, scratch: Path) -> dict:
    """Time every tool on ``files`` and measure recall; one result row each.

    The tools take turns on chunks of :data:`CHUNK` files, ``repeats`` times over; a tool's best time is the sum
    over chunks of the chunk's best time (a neighbour's burst of load spoils one chunk of one run, not a whole
    pass), and its median time the median of its whole passes. Wall and CPU time alike."""
    for _, fn in tools:  # warm up (imports, page cache)
        fn(files[:3])
    chunks = [files[i:i + CHUNK] for i in range(0, len(files), CHUNK)]
    names = [name for name, _ in tools]
    chunk_wall = {name: [[] for _ in chunks] for name in names}
    chunk_cpu = {name: [[] for _ in chunks] for name in names}
    for r in range(repeats):
        for k, chunk in enumerate(chunks):
            order = tools if (r + k) % 2 == 0 else tools[::-1]  # who goes first alternates
            for name, fn in order:
                time_run(fn, chunk, chunk_wall[name][k], chunk_cpu[name][k])
    times = {name: [sum(runs[r] for runs in chunk_wall[name]) for r in range(repeats)] for name in names}
    cpu = {name: [sum(runs[r] for runs in chunk_cpu[name]) for r in range(repeats)] for name in names}
    best_wall = {name: sum(min(runs) for runs in chunk_wall[name]) for name in names}
    best_cpu_time = {name: sum(min(runs) for runs in chunk_cpu[name]) for name in names}
    counts = [count_articles(f, scratch) for f in files]
    articles = [jats.read_articles(f) for f in files]
    have_pp = any(name.startswith("pubmed_parser") for name, _ in tools)
    pp_results = pubmed_parser_results(files) if have_pp else [None] * len(files)
    rec = recall(files, counts, articles, pp_results)
    rows = []
    for name, _ in tools:
        best, best_cpu, median = best_wall[name], best_cpu_time[name], statistics.median(times[name])
        row = {"tool": name, "best_seconds": round(best, 4), "articles_per_s": round(len(files) / best, 1),
               "median_seconds": round(median, 4), "median_articles_per_s": round(len(files) / median, 1),
               "best_cpu_seconds": round(best_cpu, 4),
               "articles_per_cpu_s": round(len(files) / best_cpu, 1) if best_cpu else None,
               "runs": [round(t, 4) for t in times[name]], "cpu_runs": [round(t, 4) for t in cpu[name]]}
        if name.startswith("chemref read_articles"):
            row["citation_doi_recall"] = rec["chemref"]
        elif name.startswith("pubmed_parser paragraphs"):
            row["citation_doi_recall"] = rec["pubmed_parser"]
        rows.append(row)
    chem = rows[0]
    ratios = {}
    for row in rows:
        if row["tool"].startswith("pubmed_parser"):
            key = "vs_pubmed_parser" if "paragraphs" in row["tool"] else "vs_pubmed_parser_with_metadata"
            ratios[key] = {
                "best_wall": round(chem["articles_per_s"] / row["articles_per_s"], 3),
                "median_wall": round(chem["median_articles_per_s"] / row["median_articles_per_s"], 3),
                "cpu": round(chem["articles_per_cpu_s"] / row["articles_per_cpu_s"], 3)}
    return {"set": label, "files": len(files), "articles": sum(len(a) for a in articles), "rows": rows,
            "recall": rec, "speed_ratios": ratios, "_counts": counts, "_articles": articles}


def print_set(result: dict, repeats: int) -> None:
    rows = result["rows"]
    width = max(len(r["tool"]) for r in rows)
    print(f"\nJATS reading, {result['set']}: {result['files']} files ({result['articles']} articles), best of "
          f"{repeats} per chunk of {CHUNK} files (python {platform.python_version()})")
    print(f"{'tool'.ljust(width)}  {'art/s best':>10}  {'art/s median':>12}  {'art/CPU-s':>9}  {'DOI recall':>10}")
    for row in rows:
        recall_text = f"{row['citation_doi_recall']:.2%}" if row.get("citation_doi_recall") is not None else "-"
        per_cpu = f"{row['articles_per_cpu_s']:.1f}" if row["articles_per_cpu_s"] else "-"
        print(f"{row['tool'].ljust(width)}  {row['articles_per_s']:>10.1f}  {row['median_articles_per_s']:>12.1f}  "
              f"{per_cpu:>9}  {recall_text:>10}")
    for key, ratio in result["speed_ratios"].items():
        print(f"chemref / pubmed_parser{' (+ parse_pubmed_xml)' if 'metadata' in key else ''}: "
              f"{ratio['best_wall']:.2f}x (best wall), {ratio['median_wall']:.2f}x (median wall), "
              f"{ratio['cpu']:.2f}x (CPU)")
    rec = result["recall"]
    print(f"resolvable citations (independent count): {rec['resolvable_citations']:,}; "
          f"found: chemref {rec['found']['chemref']:,}, pubmed_parser {rec['found']['pubmed_parser']:,}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--no-variants", action="store_true", help="time the corpus only, not the varied set")
    parser.add_argument("--output", type=Path, default=ROOT / "benchmarks" / "results" / "jats.json")
    args = parser.parse_args()
    files = sorted(args.corpus.glob("*.nxml"))
    if not files:
        print(f"no .nxml files in {args.corpus}", file=sys.stderr)
        return 2
    have_pp = _have_pubmed_parser()
    if not have_pp:
        print("pubmed_parser not installed (pip install -r benchmarks/requirements-peers.txt): rows skipped",
              file=sys.stderr)
    # (read_many with worker processes is not timed here: per chunk, the pool's start-up would be the measure)
    tools = [("chemref read_articles", run_chemref),
             ("independent lxml count (no text)", run_lxml_count)]
    if have_pp:
        tools += [("pubmed_parser paragraphs+references", run_pubmed_parser),
                  ("pubmed_parser + parse_pubmed_xml", run_pubmed_parser_meta)]
    results = []
    with tempfile.TemporaryDirectory(prefix="chemref-bench-jats-") as tmp:
        scratch = Path(tmp)
        dev = measure("dev" if args.corpus == DEFAULT_CORPUS else args.corpus.name, files, tools, args.repeats,
                      scratch)
        results.append(dev)
        if not args.no_variants:
            variants = build_variants(files, scratch / "variants")
            varied = measure("varied (dev + one variant of each)", files + [p for p, _ in variants],
                             [t for t in tools if t[1] is not run_lxml_count], args.repeats, scratch)
            kinds: dict[str, int] = {}
            for _, kind in variants:
                kinds[kind] = kinds.get(kind, 0) + 1
            varied["variant_kinds"] = kinds
            results.append(varied)
    for result in results:
        print_set(result, args.repeats)
    if "variant_kinds" in results[-1]:
        print("variants:", ", ".join(f"{k} {n}" for k, n in results[-1]["variant_kinds"].items()))

    counts, articles = dev["_counts"], dev["_articles"]
    totals = {
        "files": len(files),
        "independent": {
            "bibr_xrefs": sum(c.xrefs_bibr for f in counts for c in f),
            "citation_xrefs": sum(c.xrefs for f in counts for c in f),
            "references": sum(c.refs for f in counts for c in f),
            "ranges": sum(c.ranges for f in counts for c in f),
            "paragraph_ref_pairs": sum(len(c.pairs) for f in counts for c in f),
            "cited_references": sum(len(c.cited) for f in counts for c in f),
            "cited_references_with_doi": sum(sum(1 for r in c.cited if r in c.dois) for f in counts for c in f),
            "references_with_doi": sum(len(c.dois) for f in counts for c in f),
        },
        "chemref": {
            "anchors": sum(len(p.citations) for f in articles for a in f for _, p in a.paragraphs()),
            "range_anchors": sum(1 for f in articles for a in f for _, p in a.paragraphs()
                                 for c in p.citations if c.expanded),
            "references": sum(len(a.references) for f in articles for a in f),
            "paragraph_ref_pairs": sum(len({(p.path, r) for _, p in a.paragraphs() for c in p.citations
                                            for r in c.ref_ids}) for f in articles for a in f),
            "references_with_doi": sum(1 for f in articles for a in f for r in a.references if r.doi),
            "ambiguous_references": sum(1 for f in articles for a in f for r in a.references if r.ambiguous),
            "diagnostics": sum(len(a.diagnostics) for f in articles for a in f),
        },
    }
    coverage = metadata_coverage(files, articles)
    print(f"\nfront matter on the {len(files)} dev files (files that give each field; '-': the tool has no such "
          "field):")
    print(f"{'field':<22}  {'chemref':>7}  {'pubmed_parser':>13}")
    for name, row in coverage["fields"].items():
        theirs = "-" if row["pubmed_parser"] is None else f"{row['pubmed_parser']}"
        print(f"{name:<22}  {row['chemref']:>7}  {theirs:>13}")
    print("totals:", json.dumps(totals))

    public = [{k: v for k, v in r.items() if not k.startswith("_")} for r in results]
    result = {"benchmark": "jats", "corpus": str(args.corpus), "files": len(files), "repeats": args.repeats,
              "python": platform.python_version(), "sets": public, "totals": totals,
              "metadata_coverage": coverage,
              # the dev figures at the top level, as before
              "rows": public[0]["rows"], "recall": public[0]["recall"],
              "speed_ratio_vs_pubmed_parser": public[0]["speed_ratios"].get("vs_pubmed_parser", {}).get("best_wall"),
              "median_speed_ratio_vs_pubmed_parser": public[0]["speed_ratios"].get("vs_pubmed_parser", {})
              .get("median_wall"),
              "cpu_speed_ratio_vs_pubmed_parser": public[0]["speed_ratios"].get("vs_pubmed_parser", {}).get("cpu")}
    from chemref._io.atomic import atomic_write

    with atomic_write(args.output) as handle:
        json.dump(result, handle, indent=2)
        handle.write("\n")
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

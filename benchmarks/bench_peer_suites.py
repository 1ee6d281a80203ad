"""chemref's splitter on the peers' own sentence-boundary test tables, side by side with pySBD.

Run from the project root: ``python benchmarks/bench_peer_suites.py PEER_TEST_FILE [...]``. Each file is a
peer's pytest module (for example pySBD's ``tests/lang/test_english.py`` from a checkout of its repository;
the installed wheel ships no tests). The module is read with :mod:`ast`, never imported or copied: every
list literal of ``(text, [sentences])`` pairs (``pytest.param(text, sentences, ...)`` included, and
``(issue, text, sentences)`` triples) is a case. A case passes when the stripped sentences equal the
expected list exactly. Prints a table per file and writes benchmarks/results/peer_suites.json with the
counts and the texts' SHA-1 only (never the peers' text). ``--show-failures`` prints chemref's misses.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import platform
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results" / "peer_suites.json"


def _literal(node: ast.AST):
    try:
        return ast.literal_eval(node)
    except (ValueError, SyntaxError, TypeError):
        return None


def _case(node: ast.AST) -> tuple[str, list[str]] | None:
    """(text, expected) from a tuple literal or a ``pytest.param(...)`` call, else None."""
    if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "param":
        items = [_literal(a) for a in node.args]
    elif isinstance(node, ast.Tuple):
        items = [_literal(e) for e in node.elts]
    else:
        return None
    if len(items) >= 2 and isinstance(items[-2], str) and isinstance(items[-1], list) \
            and all(isinstance(s, str) for s in items[-1]):
        return items[-2], items[-1]
    return None


def load_cases(path: Path) -> dict[str, list[tuple[str, list[str]]]]:
    """Every module-level list of cases, by variable name."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    tables = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.List) and len(node.targets) == 1:
            cases = [c for c in map(_case, node.value.elts) if c is not None]
            if cases:
                tables[getattr(node.targets[0], "id", "cases")] = cases
    return tables


def chemref_split():
    from chemref.nlp.sentences import split_sentences
    return lambda text: [text[s:e] for s, e in split_sentences(text)]


def pysbd_split():
    try:
        import pysbd
    except ImportError:
        return None
    seg = pysbd.Segmenter(language="en", clean=False)
    return lambda text: [s.strip() for s in seg.segment(text) if s.strip()]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+", type=Path)
    ap.add_argument("--show-failures", action="store_true")
    ap.add_argument("--no-write", action="store_true", help="print only; do not write the results JSON")
    args = ap.parse_args(argv)
    splitters = {"chemref": chemref_split(), "pysbd": pysbd_split()}
    splitters = {k: v for k, v in splitters.items() if v is not None}
    out = {"python": platform.python_version(), "suites": []}
    print(f"{'suite':60} {'cases':>5} " + " ".join(f"{k:>8}" for k in splitters))
    for path in args.files:
        if not path.is_file():
            print(f"{path}: not found, skipped", file=sys.stderr)
            continue
        for name, cases in load_cases(path).items():
            row = {"file": path.name, "table": name, "cases": len(cases),
                   "sha1": hashlib.sha1(json.dumps(cases).encode()).hexdigest(), "passed": {}}
            for key, split in splitters.items():
                ok = 0
                for text, expected in cases:
                    got = split(text)
                    if got == [s.strip() for s in expected]:
                        ok += 1
                    elif key == "chemref" and args.show_failures:
                        print(f"  MISS {text!r}\n    want {expected!r}\n    got  {got!r}")
                row["passed"][key] = ok
            out["suites"].append(row)
            print(f"{path.name + ':' + name:60} {len(cases):5} "
                  + " ".join(f"{row['passed'][k]:8}" for k in splitters))
    if not args.no_write:
        RESULTS.parent.mkdir(parents=True, exist_ok=True)
        RESULTS.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

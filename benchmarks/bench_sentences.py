"""Sentence splitting: chemref against pySBD, biosenter, syntok, blingfire and spaCy's sentencizer.

Run from the project root: ``python benchmarks/bench_sentences.py [--quick]``. Every splitter is scored
with ../shared/tools/sentence_f1.py (boundary P/R/F1 over non-space offsets, all boundaries and internal
ones) on (1) the CRAFT gold (61 CC BY full texts, headings included, scored as is), (2) chemref's own
golden tables (benchmarks/golden/sentences.py, the chemistry development set, all tables) and (3) the three
blind batches of hard chemistry sentences in those tables (each written before the splitter was run on it;
the figures before the fixes they led to are in the tables' comments). Speed is characters
per second over all of CRAFT in this run (best of 3 passes for splitters that take under 5 s, else one
pass), with ratios to pySBD. Peers are optional (benchmarks/requirements-peers.txt); a missing one is
reported and skipped. Writes benchmarks/results/sentences.json.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import platform
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from tools.reference_data import reference_path  # noqa: E402
SHARED = reference_path(project_root=ROOT)
CRAFT = SHARED / "corpora" / "sentences" / "craft_v5_ccby_sentences.jsonl"
RESULTS = ROOT / "benchmarks" / "results" / "sentences.json"

Split = Callable[[str], list[tuple[int, int]]]


def align(text: str, pieces) -> list[tuple[int, int]]:
    """Offsets of sentence strings in ``text``, found left to right (for peers that return strings)."""
    out, pos = [], 0
    for piece in pieces:
        piece = piece.strip()
        if not piece:
            continue
        i = text.find(piece, pos)
        if i < 0:  # a peer that normalised whitespace: match the first and last word instead
            words = piece.split()
            i = text.find(words[0], pos)
            if i < 0:
                continue
            j = text.find(words[-1], i + len(words[0]) - len(words[-1]) if len(words) == 1 else i)
            end = (j + len(words[-1])) if j >= 0 else i + len(words[0])
        else:
            end = i + len(piece)
        out.append((i, end))
        pos = end
    return out


# ---------------------------------------------------------------- splitters (peers import lazily)

def make_chemref() -> Split:
    from chemref.nlp.sentences import split_sentences
    return split_sentences


def make_pysbd() -> Split:
    import pysbd
    seg = pysbd.Segmenter(language="en", clean=False)
    return lambda text: align(text, seg.segment(text))


def make_biosenter() -> Split:
    import biosenter
    biosenter.split_into_sentences("Warm up. The model loads here.")
    return lambda text: [(s, e) for s, e, _ in biosenter.split_into_sentences(text)]


def make_syntok() -> Split:
    from syntok import segmenter

    def split(text: str) -> list[tuple[int, int]]:
        spans = []
        for paragraph in segmenter.analyze(text):
            for sentence in paragraph:
                if sentence:
                    spans.append((sentence[0].offset, sentence[-1].offset + len(sentence[-1].value)))
        return spans
    return split


def make_blingfire() -> Split:
    import blingfire

    def split(text: str) -> list[tuple[int, int]]:
        if not text.strip():
            return []
        _, offsets = blingfire.text_to_sentences_and_offsets(text)
        return [(s, e) for s, e in offsets]
    return split


def make_spacy_sentencizer() -> Split:
    import spacy
    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    nlp.max_length = 10_000_000
    return lambda text: [(s.start_char, s.end_char) for s in nlp(text).sents]


def make_chemref_pipeline(exclude=()) -> Callable[[], Split]:
    def make() -> Split:
        import chemref
        nlp = chemref.load(exclude=exclude) if exclude else chemref.load()
        nlp.max_length = 10_000_000
        return lambda text: [(s.start_char, s.end_char) for s in nlp(text).sents]
    return make


PEERS: dict[str, tuple[Callable[[], Split], str | None]] = {
    "chemref.split_sentences": (make_chemref, None),
    "pySBD": (make_pysbd, "pysbd"),
    "biosenter": (make_biosenter, "biosenter"),
    "syntok": (make_syntok, "syntok"),
    "blingfire": (make_blingfire, "blingfire"),
    "spaCy sentencizer": (make_spacy_sentencizer, "spacy"),
    "chemref.load() (sentences only)": (make_chemref_pipeline(("chemref_author_mentions", "chemref_claim_classifier")),
                                        "spacy"),
    "chemref.load() (full)": (make_chemref_pipeline(), "spacy"),
}


# ---------------------------------------------------------------- data and scoring

def golden_jsonl(path: Path, tables: tuple[str, ...] | None = None) -> int:
    """Write chemref's golden tables (all, or the named ones) as gold JSONL (sentences located left to right);
    returns the case count."""
    sys.path.insert(0, str(ROOT))
    from benchmarks.golden import sentences as golden
    n = 0
    with open(path, "w", encoding="utf-8") as f:
        for name, table in golden.ALL_TABLES.items():
            if tables is not None and name not in tables:
                continue
            for case in table:
                text, expected = case.values if hasattr(case, "values") else case
                if not text.strip():
                    continue
                spans, pos = [], 0
                for sent in expected:
                    i = text.index(sent, pos)
                    spans.append([i, i + len(sent)])
                    pos = i + len(sent)
                f.write(json.dumps({"text": text, "sentences": spans}) + "\n")
                n += 1
    return n


def load_evaluate():
    spec = importlib.util.spec_from_file_location("sentence_f1", SHARED / "tools" / "sentence_f1.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.evaluate


def speed(split: Split, texts: list[str]) -> float:
    total = sum(len(t) for t in texts)
    best = None
    for attempt in range(3):
        t0 = time.perf_counter()
        for t in texts:
            split(t)
        dt = time.perf_counter() - t0
        best = dt if best is None else min(best, dt)
        if dt > 5:
            break
    return total / best


def worst_case() -> dict[str, dict[str, float]]:
    """Wall and CPU seconds for chemref.split_sentences on 1 MB adversarial inputs (CPU time is the
    fairer figure on a shared machine)."""
    from chemref.nlp.sentences import split_sentences
    cases = {
        "digit run": "1" * 1_000_000, "decimal runs": "3.14159" * 140_000, "no punctuation": "word " * 200_000,
        "one huge word": "a" * 1_000_000, "periods": "." * 1_000_000, "spaced periods": ". " * 500_000,
        "initials 'A. '": "A. " * 333_333, "'The. '": "The. " * 200_000, "list labels '1. '": "1. " * 333_333,
        "glued citations": "a.1 " * 250_000, "open brackets 'x. ('": "x. (" * 250_000, "newlines": "\n" * 1_000_000,
        "spaced citation numbers": "word. 1, 2 The " * 70_000, "unclosed brackets": "a (b. C " * 125_000,
        "dotted lower-case openers": "MeOH. m.p. 2 " * 76_000,
    }
    out = {}
    for name, text in cases.items():
        t0, c0 = time.perf_counter(), time.process_time()
        split_sentences(text)
        out[name] = {"wall": round(time.perf_counter() - t0, 3), "cpu": round(time.process_time() - c0, 3)}
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="first 10 CRAFT documents only")
    parser.add_argument("--only", nargs="*", help="splitter names to run (default: all available)")
    args = parser.parse_args()
    if not CRAFT.exists():
        print(f"CRAFT gold not found at {CRAFT} (../shared is not beside this checkout)", file=sys.stderr)
        return 2
    evaluate = load_evaluate()
    with tempfile.TemporaryDirectory() as tmp:
        craft = Path(tmp) / "craft.jsonl"
        lines = CRAFT.read_text(encoding="utf-8").splitlines()
        if args.quick:
            lines = lines[:10]
        craft.write_text("\n".join(lines) + "\n", encoding="utf-8")
        texts = [json.loads(line)["text"] for line in lines if line.strip()]
        golden = Path(tmp) / "golden.jsonl"
        n_golden = golden_jsonl(golden)
        # the three blind batches of hard chemistry sentences (each written before the splitter was run on it)
        blind = Path(tmp) / "blind.jsonl"
        n_blind = golden_jsonl(blind, ("blind_chemistry", "blind_chemistry_2", "blind_chemistry_3"))

        rows, skipped = {}, {}
        for name, (make, module) in PEERS.items():
            if args.only and name not in args.only:
                continue
            if module and importlib.util.find_spec(module) is None:
                skipped[name] = f"not installed (pip install {module})"
                continue
            try:
                split = make()
            except Exception as exc:  # a peer that cannot start is reported, not fatal
                skipped[name] = f"{type(exc).__name__}: {exc}"
                continue
            row = {"craft": evaluate(str(craft), split), "golden": evaluate(str(golden), split),
                   "blind": evaluate(str(blind), split), "chars_per_s": speed(split, texts)}
            rows[name] = row
            print(f"  {name}: done", file=sys.stderr)

    base = rows.get("pySBD", {}).get("chars_per_s")
    header = (f"{'splitter':34} {'CRAFT F1':>8} {'int F1':>7} {'P':>6} {'R':>6} {'chem F1':>8} {'int F1':>7}"
              f" {'blind F1':>8} {'int F1':>7} {'M chars/s':>9} {'x pySBD':>8}")
    print(f"Sentence boundaries: CRAFT ({len(texts)} docs, {sum(map(len, texts)):,} chars), chemref golden "
          f"tables ({n_golden} cases, all tables) and the blind chemistry batches ({n_blind} cases)")
    print(header)
    print("-" * len(header))
    for name, r in rows.items():
        c, g, b = r["craft"], r["golden"], r["blind"]
        ratio = f"{r['chars_per_s'] / base:8.1f}" if base else f"{'-':>8}"
        r["ratio_to_pysbd"] = r["chars_per_s"] / base if base else None
        print(f"{name:34} {c['all']['f1']:8.4f} {c['internal']['f1']:7.4f} {c['all']['precision']:6.3f}"
              f" {c['all']['recall']:6.3f} {g['all']['f1']:8.4f} {g['internal']['f1']:7.4f}"
              f" {b['all']['f1']:8.4f} {b['internal']['f1']:7.4f} {r['chars_per_s'] / 1e6:9.2f} {ratio}")
    for name, why in skipped.items():
        print(f"{name:34} skipped: {why}")
    worst = worst_case() if not args.only or "chemref.split_sentences" in args.only else {}
    if worst:
        print("chemref.split_sentences worst case on 1 MB inputs, CPU seconds (wall): "
              + ", ".join(f"{k} {v['cpu']} ({v['wall']})" for k, v in worst.items()))

    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    payload = {
        "command": "python benchmarks/bench_sentences.py" + (" --quick" if args.quick else ""),
        "machine": {"python": platform.python_version(), "platform": platform.platform()},
        "craft": {"documents": len(texts), "chars": sum(map(len, texts))},
        "golden_cases": n_golden,
        "blind_cases": n_blind,
        "splitters": rows,
        "skipped": skipped,
        "worst_case_seconds_1mb": worst,
    }
    from chemref._io.atomic import atomic_write
    with atomic_write(RESULTS) as f:
        f.write(json.dumps(payload, indent=2))
    print(f"wrote {RESULTS.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

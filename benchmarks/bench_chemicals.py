"""Chemical mentions: chemref_chemicals vs a dictionary tagger vs en-chem-ner on BC5CDR chemicals (devel split).

Run from the project root:  python benchmarks/bench_chemicals.py
Prints one table and writes it as JSON to --json (default benchmarks/results/local/chemicals.json, which git
ignores); --record writes the tracked benchmarks/results/chemicals.json, the figures the README quotes.

* Accuracy: exact spans on the corpus tokens. Each sentence's tokens are joined by single spaces, the
  system runs on that text, and each predicted character span is aligned back to the tokens; a prediction
  that does not start and end on token boundaries counts as a false positive.
* Speed: words (corpus tokens) per second on one process, ``nlp.pipe`` over all devel sentences, for the
  full ``chemref.load(chemicals=True)`` pipeline; load time in a fresh interpreter.
* Peers: a dictionary tagger written here (every chemical name of train.tsv, longest match on tokens,
  minus names that are mostly not chemicals in train.tsv); ``en_chem_ner`` (MIT, PyPI) when importable
  (it pins spaCy < 3.8: install it with ``pip install --no-deps --target DIR en-chem-ner`` and put DIR on
  PYTHONPATH).

The test split is never read.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Callable, Iterable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from chemref.reference_data import reference_path  # noqa: E402
DATA = reference_path("corpora", "chemicals", "bc5cdr_chem", project_root=ROOT)
RECORD = ROOT / "benchmarks" / "results" / "chemicals.json"
OUT = ROOT / "benchmarks" / "results" / "local" / "chemicals.json"

from chemref._io import atomic_write  # noqa: E402
from chemref.nlp.chemical_corpus import TaggedSentence, joined_text, read_tagged  # noqa: E402

Spans = list[tuple[int, int]]  # character spans in the joined text


def align(pred: Spans, offsets: list[tuple[int, int]]) -> set[tuple]:
    """Predicted character spans as token spans (i, j); a span off the token boundaries stays as ('x', s, e)."""
    starts = {s: i for i, (s, _) in enumerate(offsets)}
    ends = {e: i + 1 for i, (_, e) in enumerate(offsets)}
    out: set[tuple] = set()
    for s, e in pred:
        out.add((starts[s], ends[e]) if s in starts and e in ends else ("x", s, e))
    return out


def evaluate(sentences: list[TaggedSentence], predict: Callable[[list[str]], Iterable[Spans]]) -> dict:
    texts, offsets = zip(*(joined_text(s.tokens) for s in sentences))
    n_words = sum(len(s.tokens) for s in sentences)
    t0 = time.perf_counter()
    predictions = list(predict(list(texts)))
    seconds = time.perf_counter() - t0
    tp = fp = fn = 0
    for sentence, pred, offs in zip(sentences, predictions, offsets):
        gold = set(sentence.spans())
        got = align(pred, offs)
        tp += len(gold & got)
        fp += len(got - gold)
        fn += len(gold - got)
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return {"precision": p, "recall": r, "f1": f, "tp": tp, "fp": fp, "fn": fn,
            "words": n_words, "seconds": seconds, "words_per_s": n_words / seconds}


# -- systems ------------------------------------------------------------------------------------------------

def spacy_predict(nlp, label: str | None = None) -> Callable[[list[str]], Iterable[Spans]]:
    def predict(texts: list[str]) -> Iterable[Spans]:
        for doc in nlp.pipe(texts, batch_size=256):
            yield [(e.start_char, e.end_char) for e in doc.ents if label is None or e.label_ == label]
    return predict


class DictionaryTagger:
    """Longest match of known chemical names (token sequences) on whitespace tokens."""

    def __init__(self, sentences: Iterable[TaggedSentence], *, min_precision: float = 0.5) -> None:
        names: Counter = Counter()
        for s in sentences:
            for i, j in s.spans():
                names[s.tokens[i:j]] += 1
        # a stoplist learned from the same file: drop names that are mostly not tagged where they occur
        occurrences: Counter = Counter()
        longest = max((len(n) for n in names), default=1)
        firsts = {n[0] for n in names}
        for s in sentences:
            for i, tok in enumerate(s.tokens):
                if tok in firsts:
                    for n in range(1, longest + 1):
                        if tuple(s.tokens[i:i + n]) in names:
                            occurrences[tuple(s.tokens[i:i + n])] += 1
        self.names = {n for n, c in names.items() if c / max(occurrences[n], c) >= min_precision}
        self.longest = longest
        self.firsts = {n[0] for n in self.names}

    def __call__(self, texts: list[str]) -> Iterable[Spans]:
        for text in texts:
            tokens = text.split(" ")
            _, offsets = joined_text(tokens)
            spans: Spans = []
            i = 0
            while i < len(tokens):
                hit = 0
                if tokens[i] in self.firsts:
                    for n in range(min(self.longest, len(tokens) - i), 0, -1):
                        if tuple(tokens[i:i + n]) in self.names:
                            hit = n
                            break
                if hit:
                    spans.append((offsets[i][0], offsets[i + hit - 1][1]))
                    i += hit
                else:
                    i += 1
            yield spans


def rule_ablation(devel: list[TaggedSentence], nlp) -> dict[str, dict]:
    """F1 of the NER alone, and with each rule after it (one model pass; the rules re-run on copies)."""
    from chemref.nlp import chemicals as chem

    pipe = nlp.get_pipe("chemref_chemicals")
    texts = [joined_text(s.tokens)[0] for s in devel]
    docs = list(pipe.ner.pipe(nlp.tokenizer.pipe(texts), batch_size=256))
    model_ents = [[(e.start, e.end) for e in doc.ents] for doc in docs]
    steps = {"formulas": chem._add_formulas, "gazetteer": chem._add_gazetteer_names,
             "boundaries": chem._fix_boundaries, "authors": chem._drop_author_names,
             "abbreviations": chem._propagate_abbreviations}
    variants = {"NER only (no rules)": ()} | {f"NER + {name} rule": (name,) for name in steps}
    out = {}
    for label, names in variants.items():
        def predict(_texts: list[str], names: tuple = names) -> Iterable[Spans]:
            for doc, ents in zip(docs, model_ents):
                doc.ents = [chem.Span(doc, a, b, label="CHEMICAL") for a, b in ents]
                for name in steps:
                    if name in names:
                        steps[name](doc)
                yield [(e.start_char, e.end_char) for e in doc.ents]
        res = evaluate(devel, predict)
        res["words_per_s"] = res["seconds"] = None  # accuracy only
        out[label] = res
    return out


def load_seconds(code: str) -> float:
    """Seconds for ``code`` in a fresh interpreter (import included), the best of three."""
    best = float("inf")
    for _ in range(3):
        out = subprocess.run([sys.executable, "-c", "import time; t = time.perf_counter()\n" + code +
                              "\nprint(time.perf_counter() - t)"], capture_output=True, text=True, check=True,
                             cwd=ROOT, env=None)
        best = min(best, float(out.stdout.strip().splitlines()[-1]))
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=0, help="only the first N devel sentences")
    parser.add_argument("--json", type=Path, default=None, help=f"where to write the results (default {OUT})")
    parser.add_argument("--record", action="store_true",
                        help=f"write the tracked {RECORD.relative_to(ROOT)} (the figures the README quotes)")
    args = parser.parse_args(argv)
    if args.record and args.limit:
        parser.error("--record writes the figures of the whole devel split: drop --limit")
    out = args.json or (RECORD if args.record else OUT)
    if not (DATA / "devel.tsv").is_file():
        print(f"bench_chemicals: {DATA} is absent; nothing to measure")
        return 0
    devel = list(read_tagged(DATA / "devel.tsv"))
    if args.limit:
        devel = devel[:args.limit]
    train = list(read_tagged(DATA / "train.tsv"))
    import chemref
    from chemref.nlp.chemicals import count_chemicals, model_meta

    rows: dict[str, dict] = {}
    nlp = chemref.load(chemicals=True)
    rows["chemref_chemicals (full chemref pipeline)"] = evaluate(devel, spacy_predict(nlp, "CHEMICAL"))
    rows["chemref_chemicals (full chemref pipeline)"]["load_s"] = load_seconds(
        "import chemref; chemref.load(chemicals=True)")
    rows.update(rule_ablation(devel, nlp))
    rows["chemref pipeline without chemicals (speed only)"] = evaluate(devel, spacy_predict(chemref.load(), "-"))
    rows["dictionary tagger (train.tsv names)"] = evaluate(devel, DictionaryTagger(train))
    try:
        import en_chem_ner  # type: ignore[import-not-found]

        t0 = time.perf_counter()
        peer = en_chem_ner.load()
        load_s = time.perf_counter() - t0
        rows["en_chem_ner 0.1.0"] = evaluate(devel, spacy_predict(peer, "CHEMICAL"))
        rows["en_chem_ner 0.1.0"]["load_s"] = load_s
        rows["en_chem_ner 0.1.0"]["note"] = "own spaCy tokenizer; built for spaCy 3.7, run on " + __import__("spacy").__version__
    except ImportError as exc:
        rows["en_chem_ner 0.1.0"] = {"skipped": f"not importable ({exc}); see the module docstring"}

    sample = [" ".join(s.tokens) for s in devel[:500]]
    count_chemicals(sample[0])
    t0 = time.perf_counter()
    for text in sample:
        count_chemicals(text)
    per_call = (time.perf_counter() - t0) / len(sample)
    words = sum(len(t.split()) for t in sample) / len(sample)

    ours = rows["chemref_chemicals (full chemref pipeline)"]
    print(f"BC5CDR chemicals devel: {len(devel)} sentences, {ours['words']} words; exact spans")
    print(f"{'system':<50} {'P':>6} {'R':>6} {'F1':>6} {'F1/ours':>8} {'words/s':>9} {'speed/ours':>10} {'load s':>7}")
    for name, res in rows.items():
        if "skipped" in res:
            print(f"{name:<50} skipped: {res['skipped']}")
            continue
        f1 = f"{res['f1']:.3f}" if res["tp"] + res["fp"] + res["fn"] and res["f1"] else "-"
        ratio = f"{res['f1'] / ours['f1']:.2f}" if res["f1"] else "-"
        load = f"{res['load_s']:.2f}" if "load_s" in res else ""
        p = f"{res['precision']:.3f}" if res["f1"] else "-"
        r = f"{res['recall']:.3f}" if res["f1"] else "-"
        speed = "" if res["words_per_s"] is None else f"{res['words_per_s']:.0f}"
        speed_ratio = "" if not speed else f"{res['words_per_s'] / ours['words_per_s']:.2f}"
        print(f"{name:<50} {p:>6} {r:>6} {f1:>6} {ratio:>8} {speed:>9} {speed_ratio:>10} {load:>7}")
    print(f"count_chemicals(text): {per_call * 1e3:.2f} ms per call on a {words:.0f}-word sentence "
          f"({per_call / words * 1e6:.0f} µs/word)")
    with atomic_write(out) as handle:
        json.dump({"command": "python benchmarks/bench_chemicals.py", "data": "bc5cdr_chem/devel.tsv",
                   "sentences": len(devel), "model_meta": model_meta(), "systems": rows,
                   "count_chemicals_ms_per_call": per_call * 1e3, "count_chemicals_words_per_call": words},
                  handle, indent=1)
        handle.write("\n")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

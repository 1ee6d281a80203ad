"""Chemical mentions: chemref_chemicals vs a dictionary tagger vs en-chem-ner on BC5CDR chemicals (devel split).

Run from the project root:  python benchmarks/bench_chemicals.py
Prints one table and writes it as JSON to --json (default benchmarks/results/local/chemicals.json, which git
ignores); --record writes the tracked benchmarks/results/chemicals.json, the figures docs/chemicals.md quotes.

* Accuracy: exact spans on the corpus tokens. Each sentence's tokens are joined by single spaces, the
  system runs on that text, and each predicted character span is aligned back to the tokens; a prediction
  that does not start and end on token boundaries counts as a false positive. Two protocols:
  *per sentence* (each sentence is its own Doc) and *per document* (the sentences of one abstract, joined
  by spaces, make one Doc, so an abbreviation defined in one sentence counts in the others; the file has
  no document markers, so abstracts are found by ``training.chemicals.corpus.group_documents``, a title detector:
  526 groups for the 500 abstracts of devel). A span that crosses two sentences counts as a false positive.
* Speed: words (corpus tokens) per second on one process, ``nlp.pipe`` over all devel sentences, for the
  full ``chemref.load(chemicals=True)`` pipeline, by the wall clock and by the process's CPU time (the
  second is the one to read on a shared machine); load time in a fresh interpreter.
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
from tools.reference_data import reference_path  # noqa: E402
DATA = reference_path("corpora", "chemicals", "bc5cdr_chem", project_root=ROOT)
RECORD = ROOT / "benchmarks" / "results" / "chemicals.json"
OUT = ROOT / "benchmarks" / "results" / "local" / "chemicals.json"

from chemref._io.atomic import atomic_write  # noqa: E402
from training.chemicals.corpus import TaggedSentence, group_documents, joined_text, read_tagged  # noqa: E402

Spans = list[tuple[int, int]]  # character spans in the joined text
OURS = "chemref_chemicals (full chemref pipeline)"


def align(pred: Spans, offsets: list[tuple[int, int]]) -> set[tuple]:
    """Predicted character spans as token spans (i, j); a span off the token boundaries stays as ('x', s, e)."""
    starts = {s: i for i, (s, _) in enumerate(offsets)}
    ends = {e: i + 1 for i, (_, e) in enumerate(offsets)}
    out: set[tuple] = set()
    for s, e in pred:
        out.add((starts[s], ends[e]) if s in starts and e in ends else ("x", s, e))
    return out


def evaluate(sentences: list[TaggedSentence], predict: Callable[[list[str]], Iterable[Spans]],
             documents: list[list[TaggedSentence]] | None = None) -> dict:
    """P/R/F1 (and speed) of ``predict`` over ``sentences``, one text per sentence, or one text per
    document when ``documents`` (the same sentences, grouped) is given."""
    joined = [joined_text(s.tokens) for s in sentences]
    offsets = [offs for _, offs in joined]
    if documents is None:
        units = [[i] for i in range(len(sentences))]
    else:
        index = {id(s): i for i, s in enumerate(sentences)}
        units = [[index[id(s)] for s in doc] for doc in documents]
    texts = [" ".join(joined[i][0] for i in unit) for unit in units]
    n_words = sum(len(s.tokens) for s in sentences)
    t0, c0 = time.perf_counter(), time.process_time()
    predictions = list(predict(texts))
    seconds, cpu_seconds = time.perf_counter() - t0, time.process_time() - c0
    per_sentence: list[Spans] = [[] for _ in sentences]
    for unit, pred in zip(units, predictions):
        starts = []
        pos = 0
        for i in unit:
            starts.append(pos)
            pos += len(joined[i][0]) + 1
        for s, e in pred:
            k = max(j for j, start in enumerate(starts) if start <= s)
            end_k = starts[k] + len(joined[unit[k]][0])
            per_sentence[unit[k]].append((s - starts[k], e - starts[k]) if e <= end_k else (-1, -1))
    tp = fp = fn = 0
    for sentence, pred, offs in zip(sentences, per_sentence, offsets):
        gold = set(sentence.spans())
        got = align(pred, offs)
        tp += len(gold & got)
        fp += len(got - gold)
        fn += len(gold - got)
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return {"precision": p, "recall": r, "f1": f, "tp": tp, "fp": fp, "fn": fn,
            "words": n_words, "seconds": seconds, "words_per_s": n_words / seconds,
            "cpu_words_per_s": n_words / cpu_seconds if cpu_seconds else None}


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


def rule_ablation(devel: list[TaggedSentence], nlp, documents: list[list[TaggedSentence]] | None = None
                  ) -> dict[str, dict]:
    """F1 of the NER alone, with all the rules, and with all but one (one model pass; the rules re-run on
    copies of its output)."""
    from chemref.nlp.components import chemicals as chem

    pipe = nlp.get_pipe("chemref_chemicals")
    units = [[s] for s in devel] if documents is None else documents
    texts = [" ".join(joined_text(s.tokens)[0] for s in unit) for unit in units]
    before = [name for name in nlp.pipe_names if name != "chemref_chemicals"]
    docs = list(pipe.ner.pipe(nlp.pipe(texts, disable=["chemref_chemicals"]) if before else
                              nlp.tokenizer.pipe(texts), batch_size=256))
    model_ents = [[(e.start, e.end) for e in doc.ents] for doc in docs]
    variants = {"NER only (no rules)": ()} | {"NER + all rules": chem.RULES} | {
        f"NER + all rules but {name}": tuple(r for r in chem.RULES if r != name) for name in chem.RULES}
    out = {}
    for label, names in variants.items():
        def predict(_texts: list[str], names: tuple = names) -> Iterable[Spans]:
            for doc, ents in zip(docs, model_ents):
                doc.ents = [chem.Span(doc, a, b, label="CHEMICAL") for a, b in ents]
                for name in chem.RULES:
                    if name in names:
                        chem._STEPS[name](doc)
                yield [(e.start_char, e.end_char) for e in doc.ents]
        res = evaluate(devel, predict, documents)
        res["words_per_s"] = res["seconds"] = res["cpu_words_per_s"] = None  # accuracy only
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
                        help=f"write the tracked {RECORD.relative_to(ROOT)} (the figures docs/chemicals.md quotes)")
    parser.add_argument("--no-peers", action="store_true", help="skip the dictionary tagger and en_chem_ner")
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
    documents = group_documents(devel)
    import chemref
    from chemref.nlp.components.chemicals import count_chemicals, model_meta

    nlp = chemref.load(chemicals=True)
    protocols: dict[str, dict[str, dict]] = {"per sentence": {}, "per document": {}}
    for protocol, docs in (("per sentence", None), ("per document", documents)):
        rows = protocols[protocol]
        rows[OURS] = evaluate(devel, spacy_predict(nlp, "CHEMICAL"), docs)
        rows.update(rule_ablation(devel, nlp, docs))
    protocols["per sentence"][OURS]["load_s"] = load_seconds("import chemref; chemref.load(chemicals=True)")
    protocols["per sentence"]["chemref pipeline without chemicals (speed only)"] = evaluate(
        devel, spacy_predict(chemref.load(), "-"))
    if not args.no_peers:
        train = list(read_tagged(DATA / "train.tsv"))
        tagger = DictionaryTagger(train)
        try:
            import en_chem_ner  # type: ignore[import-not-found]

            t0 = time.perf_counter()
            peer = en_chem_ner.load()
            peer_load = time.perf_counter() - t0
        except ImportError as exc:
            peer = None
            peer_skip = {"skipped": f"not importable ({exc}); see the module docstring"}
        for protocol, docs in (("per sentence", None), ("per document", documents)):
            rows = protocols[protocol]
            rows["dictionary tagger (train.tsv names)"] = evaluate(devel, tagger, docs)
            if peer is None:
                rows["en_chem_ner 0.1.0"] = peer_skip
                continue
            rows["en_chem_ner 0.1.0"] = evaluate(devel, spacy_predict(peer, "CHEMICAL"), docs)
            rows["en_chem_ner 0.1.0"]["load_s"] = peer_load
            rows["en_chem_ner 0.1.0"]["note"] = ("own spaCy tokenizer; built for spaCy 3.7, run on "
                                                 + __import__("spacy").__version__)

    sample = [" ".join(s.tokens) for s in devel[:500]]
    count_chemicals(sample[0])
    t0 = time.perf_counter()
    for text in sample:
        count_chemicals(text)
    per_call = (time.perf_counter() - t0) / len(sample)
    words = sum(len(t.split()) for t in sample) / len(sample)

    ours = protocols["per sentence"][OURS]
    print(f"BC5CDR chemicals devel: {len(devel)} sentences in {len(documents)} documents (grouped by "
          f"training.chemicals.corpus.group_documents), {ours['words']} words; exact spans")
    print(f"{'protocol':<13} {'system':<46} {'P':>6} {'R':>6} {'F1':>6} {'F1/ours':>8} {'words/s':>9} "
          f"{'CPU w/s':>9} {'speed/ours':>10} {'load s':>7}")
    for protocol, rows in protocols.items():
        base = rows[OURS]
        for name, res in rows.items():
            if "skipped" in res:
                print(f"{protocol:<13} {name:<46} skipped: {res['skipped']}")
                continue
            f1 = f"{res['f1']:.3f}" if res["f1"] else "-"
            ratio = f"{res['f1'] / base['f1']:.2f}" if res["f1"] else "-"
            load = f"{res['load_s']:.2f}" if "load_s" in res else ""
            p = f"{res['precision']:.3f}" if res["f1"] else "-"
            r = f"{res['recall']:.3f}" if res["f1"] else "-"
            speed = "" if res["words_per_s"] is None else f"{res['words_per_s']:.0f}"
            speed_ratio = "" if not speed else f"{res['words_per_s'] / base['words_per_s']:.2f}"
            cpu = "" if not res.get("cpu_words_per_s") else f"{res['cpu_words_per_s']:.0f}"
            print(f"{protocol:<13} {name:<46} {p:>6} {r:>6} {f1:>6} {ratio:>8} {speed:>9} {cpu:>9} "
                  f"{speed_ratio:>10} {load:>7}")
    print(f"count_chemicals(text): {per_call * 1e3:.2f} ms per call on a {words:.0f}-word sentence "
          f"({per_call / words * 1e6:.0f} µs/word)")
    with atomic_write(out) as handle:
        json.dump({"command": "python benchmarks/bench_chemicals.py --record", "data": "bc5cdr_chem/devel.tsv",
                   "sentences": len(devel), "documents": len(documents), "model_meta": model_meta(),
                   "protocols": protocols, "count_chemicals_ms_per_call": per_call * 1e3,
                   "count_chemicals_words_per_call": words}, handle, indent=1)
        handle.write("\n")
    print(f"wrote {out}")
    return 0

if __name__ == "__main__":
    raise SystemExit(main())

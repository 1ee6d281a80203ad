"""Train the ``chemref_chemicals`` NER model and copy it into the package.

    PYTHONPATH=. nice python training/chemicals/train.py            # from the repo root

1. reads ``corpora/chemicals/bc5cdr_chem/{train,devel}.tsv`` of the reference data (``$CHEMREF_REFERENCE_DATA``,
   default ``../shared``; BC5CDR chemical mentions, CC BY 4.0; the test split is never read);
2. writes spaCy DocBins to ``--work`` (default: a temporary folder): the training sentences on their own
   tokens, plus the same sentences with natural spacing restored ("2 , 4 - D" -> "2,4-D") and re-tokenized by
   chemref's tokenizer, so the model also sees the whole-token forms chemref produces on running text;
3. runs ``spacy train training/chemicals/config.cfg`` (fixed seed; selection on devel.tsv);
4. copies ``model-best``'s NER component into ``chemref/nlp/data/chemicals_model`` with its meta.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from tools.reference_data import REFERENCE_DATA_ENV, reference_path  # noqa: E402
from training.chemicals.corpus import TaggedSentence, joined_text, read_tagged  # noqa: E402

DATA = reference_path("corpora", "chemicals", "bc5cdr_chem", project_root=ROOT)
CONFIG = Path(__file__).resolve().parent / "config.cfg"
TARGET = ROOT / "chemref" / "nlp" / "data" / "chemicals_model"
LABEL = "CHEMICAL"

# spacing rules that undo the corpus tokenization, applied left to right on " "-joined tokens
_RESPACE = [
    (re.compile(r"(?<=\S) - (?=\S)"), "-"),  # "drug - induced" -> "drug-induced"
    (re.compile(r"(?<=\d) , (?=\d)"), ","),  # "2 , 4" -> "2,4"
    (re.compile(r"(?<=[\w\]\)]) ' (?=s\b)"), "'"),  # "Parkinson ' s" -> "Parkinson's"
    (re.compile(r"(?<=\d) ' (?=[,\-\d])"), "'"),  # "4 ' , 7" -> "4',7"
    (re.compile(r"([\(\[]) "), r"\1"),  # "( RS )" -> "(RS )"
    (re.compile(r" ([\)\]])"), r"\1"),  # -> "(RS)"
    (re.compile(r"(?<=[\)\]]) (?=-|\d+[+\-]?\b)"), ""),  # "(RS) -1" -> "(RS)-1", "[ 3H ]" stays
    (re.compile(r" ([,.;:%])(?= |$)"), r"\1"),  # "word ," -> "word,"
]


def respaced(sentence: TaggedSentence) -> tuple[str, list[tuple[int, int]]]:
    """The sentence with natural spacing and its entity character spans in that text."""
    text, offsets = joined_text(sentence.tokens)
    # mark entity boundaries with private-use characters that no rule touches, then read them back
    marks = {}
    for start, end in sentence.spans():
        marks.setdefault(offsets[start][0], []).append("\ue000")
        marks.setdefault(offsets[end - 1][1], []).insert(0, "\ue001")
    out = []
    for i, ch in enumerate(text):
        out.extend(marks.get(i, ()))
        out.append(ch)
    out.extend(marks.get(len(text), ()))
    marked = "".join(out)
    for pattern, repl in _RESPACE:
        marked = pattern.sub(repl, marked)
    spans = []
    plain = []
    start = None
    for ch in marked:
        if ch == "\ue000":
            start = len(plain)
        elif ch == "\ue001":
            spans.append((start, len(plain)))
        else:
            plain.append(ch)
    return "".join(plain), spans


def _docbins(path: Path, nlp, augment: bool):
    from spacy.tokens import Doc, DocBin, Span

    db = DocBin(store_user_data=False)
    n_aug = n_skip = 0
    for sentence in read_tagged(path):
        doc = Doc(nlp.vocab, words=list(sentence.tokens), spaces=[True] * len(sentence.tokens))
        doc.ents = [Span(doc, s, e, label=LABEL) for s, e in sentence.spans()]
        db.add(doc)
        if not augment:
            continue
        text, spans = respaced(sentence)
        if text == doc.text.rstrip():
            continue
        redoc = nlp.make_doc(text)
        ents = [redoc.char_span(s, e, label=LABEL) for s, e in spans]
        if any(ent is None for ent in ents):
            n_skip += 1  # an entity inside a chemref token ("cocaine-induced"): not representable
            continue
        redoc.ents = ents
        db.add(redoc)
        n_aug += 1
    return db, n_aug, n_skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", type=Path, default=None, help="folder for DocBins and spaCy output")
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--no-export", action="store_true", help="train only; do not copy into the package")
    parser.add_argument("overrides", nargs="*", help="spaCy config overrides, e.g. --training.max_epochs=5")
    args, extra = parser.parse_known_args(argv)
    missing = [args.data / name for name in ("train.tsv", "devel.tsv") if not (args.data / name).is_file()]
    if missing:
        print(f"train.py: error: {missing[0]}: not found (the BC5CDR chemical mentions of the reference data: set "
              f"{REFERENCE_DATA_ENV} or --data; docs/reference-data.md)", file=sys.stderr)
        return 2
    import spacy

    import chemref.nlp.components.factories  # noqa: F401  (registers chemref.Tokenizer.v1)
    from chemref.nlp.components.chemical_features import register_architectures

    register_architectures()
    own_work = args.work is None
    work = args.work or Path(tempfile.mkdtemp(prefix="chemref-chemicals-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        return _train(args, extra, work)
    except subprocess.CalledProcessError as exc:
        print(f"train.py: error: spacy train exited with status {exc.returncode}", file=sys.stderr)
        return 2
    finally:
        if own_work:
            shutil.rmtree(work, ignore_errors=True)


def _train(args: argparse.Namespace, extra: list[str], work: Path) -> int:
    """Write the DocBins into ``work``, train there, and export the best model (unless --no-export)."""
    import spacy

    nlp = spacy.blank("en", config={"nlp": {"tokenizer": {"@tokenizers": "chemref.Tokenizer.v1"}}})
    train, n_aug, n_skip = _docbins(args.data / "train.tsv", nlp, augment=True)
    train.to_disk(work / "train.spacy")
    dev, _, _ = _docbins(args.data / "devel.tsv", nlp, augment=False)
    dev.to_disk(work / "dev.spacy")
    print(f"train: {len(train)} docs ({n_aug} re-spaced copies, {n_skip} skipped); dev: {len(dev)} docs", flush=True)
    cmd = [sys.executable, "-m", "spacy", "train", str(CONFIG), "--output", str(work / "out"),
           "--paths.train", str(work / "train.spacy"), "--paths.dev", str(work / "dev.spacy"),
           "--code", str(Path(__file__).resolve().parent / "register.py"), *args.overrides, *extra]
    print(" ".join(cmd), flush=True)
    subprocess.run(cmd, check=True)
    if not args.no_export:
        export(work / "out" / "model-best", TARGET)
    return 0


def export(model_dir: Path, target: Path) -> None:
    """Copy the trained NER (weights, moves, cfg) and a meta with scores and attribution into ``target``."""
    from chemref.nlp.components.chemical_features import lexicon_version

    meta = json.loads((model_dir / "meta.json").read_text(encoding="utf-8"))
    config = (model_dir / "config.cfg").read_text(encoding="utf-8")
    tmp = target.with_name(target.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    shutil.copytree(model_dir / "ner", tmp)
    (tmp / "config.cfg").write_text(config, encoding="utf-8")
    perf = meta.get("performance", {})
    (tmp / "meta.json").write_text(json.dumps({
        "name": "chemref_chemicals",
        "label": LABEL,
        "spacy_version": meta.get("spacy_version"),
        "lexicon_version": lexicon_version(),
        "gazetteer_version": json.loads((ROOT / "chemref" / "nlp" / "data" / "chemicals_gazetteer.json")
                                        .read_text(encoding="utf-8"))["version"],
        "trained_on": "BC5CDR chemical mentions, train split (selected on the devel split)",
        "devel_ner_only": {k: perf.get(k) for k in ("ents_p", "ents_r", "ents_f")},
        "license": "model weights: MIT (chemref); training data: CC BY 4.0",
        "attribution": ("BioCreative V CDR corpus (BC5CDR): Li J, Sun Y, Johnson RJ, et al. BioCreative V CDR task "
                        "corpus: a resource for chemical disease relation extraction. Database 2016:baw068. "
                        "CC BY 4.0."),
    }, indent=1) + "\n", encoding="utf-8")
    shutil.rmtree(target, ignore_errors=True)
    tmp.rename(target)
    print(f"exported to {target}")


if __name__ == "__main__":
    raise SystemExit(main())

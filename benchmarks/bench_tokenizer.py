"""Tokenizer boundaries on patent text: chemref's tokenizer vs spaCy's English tokenizer on ChEMU-Ref.

Run from the project root:  python benchmarks/bench_tokenizer.py
Prints one table and writes it as JSON to --json (default benchmarks/results/local/tokenizer_chemu.json).

ChEMU-Ref (``chemu_ref/gold/{train,dev}`` of the reference data) gives the tokens of 1,125 patent procedures,
joined by single spaces. The text a tokenizer meets is rebuilt from them: no space before ``) ] , . ; : %``,
after ``( [``, nor around ``/`` ("hexane / EtOAc" -> "hexane/EtOAc"). Each ChEMU token is then compared
with the tokenizer's tokens:

* *split*: a tokenizer boundary falls inside the ChEMU token;
* *merged*: a ChEMU token boundary falls inside a tokenizer token.

Disagreements are counted by class: a number with its unit ("10%", "0°C": chemref splits units off by
design, ChEMU keeps them), a slash between words ("hexane/EtOAc") or in a unit or ratio ("mL/min", "m/z"),
a bracketed name, a word with a period, other. The figures to read are the classes that are errors for chemref (slash between words: mixtures such
as "hexane/EtOAc"; names; periods); "slash units" ("mL/min", "m/z": kept whole on purpose) and "number+unit"
measure conventions, not errors.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from chemref._io.atomic import atomic_write  # noqa: E402
from tools.reference_data import reference_path  # noqa: E402

DATA = reference_path("chemu_ref", "gold", project_root=ROOT)
OUT = ROOT / "benchmarks" / "results" / "local" / "tokenizer_chemu.json"

_GLUE_LEFT = frozenset({")", "]", ",", ".", ";", ":", "%", "/"})
_GLUE_RIGHT = frozenset({"(", "[", "/"})
_NUMBER_UNIT = re.compile(r"[-+−~]?[\d.,\-–]+\s?(?:%|°C|°|[A-Za-zµμ%]{1,5})")


def rebuild(line: str) -> tuple[str, list[tuple[int, int]]]:
    """The text of a ChEMU line of space-joined tokens, and each token's span in it."""
    out: list[str] = []
    spans: list[tuple[int, int]] = []
    pos = 0
    prev = ""
    for k, tok in enumerate(line.split(" ")):
        if k and not (tok in _GLUE_LEFT or prev in _GLUE_RIGHT):
            out.append(" ")
            pos += 1
        spans.append((pos, pos + len(tok)))
        out.append(tok)
        pos += len(tok)
        prev = tok
    return "".join(out), spans


_UNIT_WORDS = frozenset("mL ml L l min h s mol mmol g mg kg M mM V v w z m".split())


def classify(token: str) -> str:
    if "/" in token and not any(c in token for c in "()[]"):
        sides = token.split("/")
        return "slash units" if any(side in _UNIT_WORDS or len(side) < 2 for side in sides) else "slash words"
    if _NUMBER_UNIT.fullmatch(token):
        return "number+unit"
    if any(c in token for c in "()[]{}"):
        return "bracketed name"
    if "." in token:
        return "period"
    return "other"


def compare(tokenize, lines: list[str]) -> dict:
    split: Counter = Counter()
    merged: Counter = Counter()
    examples: dict[str, list[str]] = {}
    n_tokens = 0
    t0 = time.process_time()
    for line in lines:
        text, spans = rebuild(line)
        ours = tokenize(text)
        bounds = {b for s, e in ours for b in (s, e)}
        gold = {b for s, e in spans for b in (s, e)}
        n_tokens += len(spans)
        for s, e in spans:
            if any(s < b < e for b in bounds):
                cls = classify(text[s:e])
                split[cls] += 1
                examples.setdefault("split " + cls, []).append(text[s:e])
        for s, e in ours:
            if any(s < b < e for b in gold):
                cls = classify(text[s:e])
                merged[cls] += 1
                examples.setdefault("merged " + cls, []).append(text[s:e])
    return {"chemu_tokens": n_tokens, "split": dict(split), "merged": dict(merged),
            "cpu_seconds": time.process_time() - t0,
            "examples": {k: Counter(v).most_common(5) for k, v in examples.items()}}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", type=Path, default=OUT, help=f"where to write the results (default {OUT})")
    parser.add_argument("--limit", type=int, default=0, help="only the first N documents of each split")
    args = parser.parse_args(argv)
    if not DATA.is_dir():
        print(f"bench_tokenizer: {DATA} is absent; nothing to measure")
        return 0
    lines: list[str] = []
    for split in ("train", "dev"):
        files = sorted((DATA / split).glob("*.txt"))
        for path in files[:args.limit or None]:
            lines.extend(line for line in path.read_text(encoding="utf-8").split("\n") if line)
    import spacy

    import chemref

    ours = chemref.load().tokenizer
    blank = spacy.blank("en").tokenizer
    rows = {"chemref tokenizer": compare(lambda t: [(x.idx, x.idx + len(x)) for x in ours(t)], lines),
            "spaCy English tokenizer": compare(lambda t: [(x.idx, x.idx + len(x)) for x in blank(t)], lines)}
    classes = ["slash words", "slash units", "bracketed name", "period", "other", "number+unit"]
    print(f"ChEMU-Ref train+dev: {len(lines)} lines, {rows['chemref tokenizer']['chemu_tokens']} ChEMU tokens "
          "(text rebuilt from the tokens)")
    print(f"{'tokenizer':<26} {'kind':<7} " + " ".join(f"{c:>15}" for c in classes))
    for name, res in rows.items():
        for kind in ("split", "merged"):
            print(f"{name:<26} {kind:<7} " + " ".join(f"{res[kind].get(c, 0):>15}" for c in classes))
    with atomic_write(args.json) as handle:
        json.dump({"command": "python benchmarks/bench_tokenizer.py", "lines": len(lines), "rows": rows}, handle,
                  indent=1, ensure_ascii=False)
        handle.write("\n")
    print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

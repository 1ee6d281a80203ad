"""The search for a registered secret in a stored body: this tree against an earlier commit, in one run.

Run from the project root:  python benchmarks/bench_secret_search.py [--base REV] [--repeat N]
Every body a server sends is searched for the API key in its other forms before it is stored (``holds_secret``,
``scrub``, ``scrub_json``), so the search must stay cheap on ordinary text. The body: 1 MB of the dev JATS
articles' XML as published (../shared/corpora/jats/dev: prose, DOIs, URLs, formulae, numbers), as one text, and
as a chat-completion-like JSON object of 1,000 strings of 1 kB. The base's ``chemref/_io/secrets.py`` is loaded
from ``git show REV:...`` beside this tree's; the two take turns ``--repeat`` times and the best CPU time of
each is kept. The ratio is base time / this tree's time: above 1, this tree is faster. Then the false positives:
with each of ``--keys`` random keys (``sk-`` and ``sk-proj-`` then 32 random letters and digits) registered
alone, how many of the dev articles' XML texts this tree's search says hold it (none should). Prints one table
and writes benchmarks/results/secret_search.json.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import string
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from chemref._io import secrets as this_tree  # noqa: E402
from tools.reference_data import reference_path  # noqa: E402

OUT = ROOT / "benchmarks" / "results" / "secret_search.json"
#: a fake key: random letters and digits, no word
KEY = "sk-Tq8vN3xWb6Lr9Zk2Hm5Pd7Jc4Yf1Gs"
BODY_CHARS = 1_000_000


def _base_module(rev: str, folder: Path) -> Any:
    source = subprocess.run(["git", "show", f"{rev}:chemref/_io/secrets.py"], cwd=ROOT, capture_output=True,
                            text=True, check=True).stdout
    path = folder / "base_secrets.py"
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("base_secrets", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _articles() -> list[str]:
    return [path.read_text(encoding="utf-8", errors="replace")
            for path in sorted(reference_path("corpora", "jats", "dev").glob("*.nxml"))]


def _false_positives(articles: list[str], keys: int) -> dict[str, int]:
    """How many (key, article) pairs this tree's search finds a random key in (each key registered alone)."""
    rng = random.Random(7)
    found = 0
    for n in range(keys):
        with this_tree._lock:  # the registry emptied: one key at a time
            this_tree._secrets.clear()
            this_tree._pattern = None
            this_tree._index = None
        prefix = "sk-proj-" if n % 2 else "sk-"
        this_tree.register_secret(prefix + "".join(rng.choice(string.ascii_letters + string.digits)
                                                    for _ in range(32)))
        found += sum(this_tree.holds_secret(text) for text in articles)
    return {"keys": keys, "articles": len(articles), "characters": sum(map(len, articles)),
            "false_positives": found}


def _cpu(call: Any, *args: Any) -> float:
    start = time.process_time()
    call(*args)
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="5eb3d2b")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--keys", type=int, default=20)
    args = parser.parse_args()
    articles = _articles()
    text = "\n".join(articles)[:BODY_CHARS]
    body = {"choices": [{"message": {"content": text[i:i + 1000]}} for i in range(0, len(text), 1000)]}
    with tempfile.TemporaryDirectory() as folder:
        base = _base_module(args.base, Path(folder))
    trees = {"base": base, "this tree": this_tree}
    for module in trees.values():
        module.register_secret(KEY)
        assert not module.holds_secret(text) and module.scrub_json(body) == body  # ordinary text kept whole
    cases = {"holds_secret, 1 MB text": ("holds_secret", text), "scrub, 1 MB text": ("scrub", text),
             "scrub_json, 1 MB object": ("scrub_json", body)}
    rows = []
    print(f"{'case':28s} {'base s':>8s} {'this s':>8s} {'ratio':>6s}")
    for name, (function, value) in cases.items():
        best = {tree: float("inf") for tree in trees}
        for _ in range(args.repeat):  # the two trees take turns
            for tree, module in trees.items():
                best[tree] = min(best[tree], _cpu(getattr(module, function), value))
        ratio = best["base"] / best["this tree"]
        rows.append({"case": name, "base_s": round(best["base"], 4), "this_s": round(best["this tree"], 4),
                     "ratio": round(ratio, 2)})
        print(f"{name:28s} {best['base']:8.3f} {best['this tree']:8.3f} {ratio:6.2f}")
    false = _false_positives(articles, args.keys)
    print(f"false positives: {false['false_positives']} in {false['articles']} articles "
          f"({false['characters'] / 1e6:.1f} M characters) x {false['keys']} random keys")
    OUT.write_text(json.dumps({"base": args.base, "body_chars": len(text), "rows": rows,
                               "false_positives": false}, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()

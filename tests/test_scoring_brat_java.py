"""Differential tests of the Java-compatibility helpers against a real JVM (skipped without ``javac``).

``tests/data/scoring_brat/JavaOracle.java`` prints what ``java.util.HashMap`` iteration,
``String.format("%1.4f")`` and ``String.compareTo`` give; the Python emulations must agree.
"""

from __future__ import annotations

import random
import shutil
import subprocess
from pathlib import Path

import pytest

from chemref.scoring.brat.brateval import java_format4, java_hashmap_layout, java_sort_key, java_split, java_trim
from chemref.scoring.brat.brateval import brateval_similarity

ORACLE = Path(__file__).parent / "data" / "scoring_brat" / "JavaOracle.java"


@pytest.fixture(scope="module")
def oracle(tmp_path_factory):
    if not (shutil.which("javac") and shutil.which("java")):
        pytest.skip("no JDK (javac/java) on PATH")
    out = tmp_path_factory.mktemp("oracle")
    subprocess.run(["javac", "-d", str(out), str(ORACLE)], check=True, capture_output=True)

    def ask(lines: list[str]) -> list[str]:
        p = subprocess.run(["java", "-Dfile.encoding=UTF-8", "-cp", str(out), "JavaOracle"], check=True,
                           input="\n".join(lines) + "\n", capture_output=True, text=True, encoding="utf-8")
        return p.stdout.split("\n")[:len(lines)]
    return ask


def _colliding(mask: int, n: int) -> list[str]:
    """``n`` ids whose spread hashes agree on ``mask`` bits: long chains in one bucket."""
    from chemref.scoring.brat.brateval import java_string_hash

    out = []
    for i in range(1, 10 ** 6):
        h = java_string_hash(f"T{i}")
        if ((h ^ (h >> 16)) & mask) == 0:
            out.append(f"T{i}")
            if len(out) == n:
                return out
    return out


def _key_sets(rnd: random.Random) -> list[list[str]]:
    sets = [[f"T{i}" for i in range(1, n)] for n in (2, 10, 13, 14, 25, 26, 49, 50, 100, 200)]
    sets += [[f"R{i}" for i in rnd.sample(range(1, 400), rnd.randint(1, 120))] for _ in range(150)]
    sets += [[rnd.choice("TRE") + str(rnd.randint(0, 99)) for _ in range(rnd.randint(1, 60))] for _ in range(100)]
    # keys that share buckets in small tables (long chains force the small-table resize)
    sets += [[f"T{i}" for i in range(1, 2000, 16)][:n] for n in (8, 9, 10, 12, 20, 40)]
    sets += [_colliding(mask, n) for mask in (15, 63, 255) for n in (8, 9, 10, 11, 12, 13)]
    sets += [_colliding(15, 9) + [f"T{i}" for i in range(1, 30)]]
    sets += [["".join(rnd.choice("abT1é") for _ in range(rnd.randint(1, 4))) for _ in range(rnd.randint(1, 30))]
             for _ in range(50)]
    return sets


@pytest.mark.slow
def test_hashmap_iteration_order_matches_the_jvm(oracle) -> None:
    sets = _key_sets(random.Random(7))
    got = oracle(["order\t" + " ".join(keys) for keys in sets])
    trees = 0
    for keys, java in zip(sets, got):
        order, treeified = java_hashmap_layout(keys)
        if treeified:   # a red-black tree bin: not emulated, only flagged
            trees += 1
            assert sorted(order) == sorted(java.split(" "))
        else:
            assert order == java.split(" "), keys
    assert 0 < trees < 20


@pytest.mark.slow
def test_half_up_format_matches_the_jvm(oracle) -> None:
    rnd = random.Random(11)
    values = [tp / (tp + fp) for tp in range(0, 200) for fp in range(1, 40, 3)]
    values += [2 * p * r / (p + r) for p, r in ((rnd.random(), rnd.random()) for _ in range(3000))]
    values += [1 / 32, 0.00005, 0.99995, 0.12345, 0.5]
    got = oracle([f"format\t{v!r}" for v in values])
    mismatches = [(v, java_format4(v), j) for v, j in zip(values, got) if java_format4(v) != j]
    assert not mismatches[:5]


def test_string_order_matches_the_jvm(oracle) -> None:
    words = ["a", "B", "b", "\U0001F600", "\uFFFD", "REL|entity|entity", "REL|Entity|entity", "é", "e", "ARG1|X|Y"]
    pairs = [(a, b) for a in words for b in words]
    got = oracle([f"compare\t{a}\t{b}" for a, b in pairs])
    for (a, b), j in zip(pairs, got):
        mine = (java_sort_key(a) > java_sort_key(b)) - (java_sort_key(a) < java_sort_key(b))
        assert mine == int(j), (a, b)


@pytest.mark.slow
def test_similarity_matches_the_jvm(oracle) -> None:
    rnd = random.Random(5)
    alphabet = "abcde xyz-\u00e9\U0001F600"
    pairs = []
    for _ in range(1500):
        a = "".join(rnd.choice(alphabet) for _ in range(rnd.randint(1, 14)))
        b = list(a)
        for _ in range(rnd.randint(0, 4)):
            op = rnd.randint(0, 2)
            pos = rnd.randint(0, len(b))
            if op == 0:
                b.insert(pos, rnd.choice(alphabet))
            elif b and pos < len(b):
                if op == 1:
                    del b[pos]
                else:
                    b[pos] = rnd.choice(alphabet)
        pairs.append((rnd.choice([0.5, 0.8, 0.9, 0.95, 0.7]), a, "".join(b) or "q"))
    got = oracle([f"sim\t{t!r}\t{a}\t{b}" for t, a, b in pairs])
    for (t, a, b), j in zip(pairs, got):
        assert brateval_similarity(a, b, t) == pytest.approx(float(j), abs=0, rel=1e-15), (t, a, b)


SPLITS = ["T1\tentity 0 8\t", "\t\t", "", "a", "T1\t\tx\t", "R1\tX Arg1:T1  Arg2:T2 ", " x\t", "\ta\t\tb\t\t"]


def test_split_and_trim_match_the_jvm(oracle) -> None:
    cases = [(sep, s) for s in SPLITS for sep in ("\t", " ")]
    esc = {"\t": "\\t", " ": "\\s"}
    got = oracle([f"split\t{esc[sep]}\t{s.replace(chr(9), chr(92) + 't').replace(' ', chr(92) + 's')}"
                  for sep, s in cases])
    for (sep, s), j in zip(cases, got):
        trim_len, count, joined = j.split("#", 2)
        parts = java_split(s, sep)
        assert (len(java_trim(s)), len(parts), "|".join(parts)) == (int(trim_len), int(count), joined), (sep, s)

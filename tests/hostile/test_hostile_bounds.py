"""Input size bounds: what one input may make chemref do is linear in its size. Citation ranges expand a bounded
number of references; files of many articles, packages and file lists are read in linear time; formulas and
long texts through the chemicals component run in linear time and bounded memory; a saved chemicals
component's settings are checked before spaCy sees them."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hypothesis import given, settings, strategies as st

from benchmarks.golden import hostile_recipes as recipes
from chemref.jats import read_articles
from chemref.jats.reader import read
from chemref.jats.citations import MAX_EXPANDED, MAX_RANGE
from tests.hostile.cli_runner import CORPORA, ROOT, assert_refused, chemref


def _anchors(article):  # type: ignore[no-untyped-def]
    def walk(sections):  # type: ignore[no-untyped-def]
        for section in sections:
            for paragraph in section.paragraphs:
                yield from paragraph.citations
            yield from walk(section.sections)
    yield from walk(article.abstracts + article.sections + article.back)


# -- citation ranges
def test_a_range_longer_than_the_cap_cites_only_its_ends() -> None:
    article = read(recipes.range_article(MAX_RANGE + 10, 3, "text").encode(), name="r.xml")
    anchors = list(_anchors(article))
    assert len(anchors) == 3
    assert all(a.ref_ids == ("R1", f"R{MAX_RANGE + 10}") for a in anchors)  # its end is read from its text
    codes = [d.code for d in article.diagnostics]
    assert codes.count("range-too-long") == 3


def test_a_range_under_the_cap_is_still_expanded() -> None:
    article = read(recipes.range_article(MAX_RANGE, 2, "text").encode(), name="r.xml")
    assert all(len(a.ref_ids) == MAX_RANGE for a in _anchors(article))
    assert not [d for d in article.diagnostics if d.code.startswith("range-")]


def test_the_ranges_of_one_article_expand_a_bounded_number_of_references() -> None:
    sentences = 3 * MAX_EXPANDED // (MAX_RANGE - 2)
    article = read(recipes.range_article(MAX_RANGE, sentences, "pair").encode(), name="r.xml")
    expanded = sum(len(a.expanded) for a in _anchors(article))
    assert MAX_EXPANDED - MAX_RANGE < expanded <= MAX_EXPANDED
    assert [d.code for d in article.diagnostics].count("range-budget-spent") == 1


def test_references_all_labelled_alike_do_not_amplify() -> None:
    article = read(recipes.range_article(3000, 200, "labels").encode(), name="r.xml")
    assert sum(len(a.ref_ids) for a in _anchors(article)) <= 2 * 200 + MAX_EXPANDED


def test_too_many_range_diagnostics_are_not_named_one_by_one() -> None:
    article = read(recipes.range_article(MAX_RANGE + 10, 500, "text").encode(), name="r.xml")
    too_long = [d for d in article.diagnostics if d.code == "range-too-long"]
    assert len(too_long) < 50 and "not named one by one" in too_long[-1].message


def test_a_range_of_huge_printed_numbers_is_not_an_error() -> None:
    article = recipes.range_article(3, 1, "text").replace("1\u20133</xref>", "1\u2013" + "9" * 5000 + "</xref>")
    assert "9" * 5000 in article
    assert read(article.encode(), name="r.xml").sections


def test_an_article_of_5000_references_cited_as_one_range_30000_times_reads_quickly(tmp_path: Path) -> None:
    (tmp_path / "r.xml").write_text(recipes.range_article(5000, 30_000, "text"), encoding="utf-8")
    proc = chemref("jats", "--json", "r.xml", "-o", "r.jsonl", cwd=tmp_path, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "r.jsonl").stat().st_size < 4 * (tmp_path / "r.xml").stat().st_size
    row = json.loads((tmp_path / "r.jsonl").read_text(encoding="utf-8"))
    assert any(d["code"] == "range-too-long" for d in row["diagnostics"])


# -- files of many articles
def test_a_file_of_many_articles_is_read_in_linear_time() -> None:
    small, large = recipes.articles_file(500).encode(), recipes.articles_file(4000).encode()

    def seconds(data: bytes) -> float:
        best = float("inf")
        for _ in range(2):
            started = time.perf_counter()
            read_articles(data, name="a.xml")
            best = min(best, time.perf_counter() - started)
        return best

    assert seconds(large) < 20 * seconds(small)  # 8 times the articles: about 8 times the time, not 64


def test_the_articles_of_a_file_keep_their_paths() -> None:
    articles = read_articles(recipes.articles_file(3).encode(), name="a.xml")
    assert [a.part for a in articles] == [f"/articles/article[{i}]" for i in (1, 2, 3)]
    assert articles[2].sections[0].paragraphs[0].path == "/articles/article[3]/body/sec/p"


# -- packages and file lists
SAMPLE = CORPORA / "jats" / "sample_zinc_knuckle.xml"


def test_a_member_that_would_inflate_a_package_past_its_bound_stops_it(tmp_path: Path, monkeypatch) -> None:
    from chemref.inputs import archives

    monkeypatch.setattr(archives, "MIN_INFLATED_BYTES", 8 << 20)
    package = recipes.zeros_package(tmp_path / "oa.tar.gz", 64, SAMPLE.read_bytes(), SAMPLE.read_bytes())
    assert package.stat().st_size * archives.MAX_INFLATION < 64 << 20
    sources = list(archives.package_sources(package, "oa.tar.gz"))
    assert [s.label for s in sources] == ["oa.tar.gz:PMC1/a.nxml", "oa.tar.gz:PMC2/zeros.nxml"]
    assert sources[0].error is None and sources[1].stops
    assert "decompression bomb" in sources[1].error and "rest of the package is not read" in sources[1].error


def test_unreadable_members_are_named_on_the_terminal_a_bounded_number_of_times(tmp_path: Path) -> None:
    recipes.package(tmp_path / "oa.tar.gz", {f"PMC{i}/a.nxml": b"" for i in range(300)} |
                    {"PMC9999/a.nxml": SAMPLE.read_bytes()})
    proc = chemref("questions", "build", "oa.tar.gz", "-o", "q.jsonl", "--no-progress", cwd=tmp_path, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "301 given, 1 read, 300 unreadable" in proc.stdout
    warnings = [line for line in proc.stderr.splitlines() if line.startswith("chemref: warning: ")]
    assert len(warnings) <= 101 and "not named here" in warnings[-1]


def test_a_file_listed_many_times_is_read_once(tmp_path: Path) -> None:
    (tmp_path / "a.xml").write_bytes(SAMPLE.read_bytes())
    (tmp_path / "list.txt").write_text("a.xml\n./a.xml\n" * 50_000, encoding="utf-8")
    proc = chemref("questions", "build", "--files-from", "list.txt", "-o", "q.jsonl", "--no-progress",
                   cwd=tmp_path, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "1 given, 1 read" in proc.stdout
    warnings = [line for line in proc.stderr.splitlines() if "listed before" in line]
    assert len(warnings) == 1 and "99999 line(s)" in warnings[0], proc.stderr


def test_a_package_file_list_that_is_not_utf8_names_the_package_too(tmp_path: Path) -> None:
    recipes.package(tmp_path / "oa.tar.gz", {"PMC1/a.nxml": SAMPLE.read_bytes()})
    (tmp_path / "oa.filelist.csv").write_bytes("Article File,License\nPMC1/a.nxml,CC BY \xe9t\xe9\n".encode("latin-1"))
    proc = chemref("questions", "build", "oa.tar.gz", "-o", "q.jsonl", "--no-progress", cwd=tmp_path, timeout=60)
    assert_refused(proc, "oa.filelist.csv", "oa.tar.gz")


def test_zip_members_with_absolute_names_are_said(work: Path) -> None:
    pred = {"/r001.ann": (work / "pred" / "r001.ann").read_text(encoding="utf-8")}
    pred |= {f"{n}.ann": (work / "gold" / f"{n}.ann").read_text(encoding="utf-8") for n in ("r002", "r003")}
    recipes.small_zip(work / "pred.zip", pred)
    proc = chemref("score", "brat", "gold", "pred.zip", cwd=work, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "absolute" in proc.stderr and "/r001.ann" in proc.stderr, proc.stderr


# -- formulas and systematic names: linear in the length of the word
_OLD_CHARGE = re.compile(r"(?:\d*[+\-−]|[+\-−]\d*|\(\d*[+\-−]\)|\^\d*[+\-−])\Z")  # the written rule, searched
_OLD_LOCANT = re.compile(r"\d[\d,']*[A-Za-z]?-|-\d")


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="12a+-−()^CNl,'", max_size=14))
def test_the_charge_and_locant_rules_keep_their_meaning(text: str) -> None:
    from chemref.nlp.components.chemical_features import _strip_charge
    from chemref.nlp.components.chemical_rules import _LOCANT_IN_NAME_REVERSED

    assert _strip_charge(text) == _OLD_CHARGE.sub("", text)
    assert bool(_LOCANT_IN_NAME_REVERSED.search(text[::-1])) == bool(_OLD_LOCANT.search(text))


@settings(max_examples=12, deadline=None)
@given(st.sampled_from(["1", "C", "a", "1a", "1,", "Cl2", "1x"]), st.sampled_from(["", "+", "xx-", "-", "2+a"]))
def test_chemical_word_rules_take_linear_time_on_long_runs(unit: str, end: str) -> None:
    from chemref.nlp.components.chemical_features import is_formula, is_strong_formula, token_classes
    from chemref.nlp.components.chemical_rules import is_systematic_name

    text = unit * (30_000 // len(unit)) + end
    started = time.perf_counter()
    for rule in (is_formula, is_strong_formula, token_classes, is_systematic_name):
        rule(text)
    assert time.perf_counter() - started < 2.0  # quadratic rules took seconds to minutes here


# -- the chemicals component: long texts in bounded windows, saved settings checked before spaCy reads them
_LONG_TEXT = "Aspirin and NaCl in DMSO were stirred with Pd(PPh3)4 at 50 C for 2 h. "


def _python(code: str, timeout: float = 240.0) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout,
                          cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)))


def test_a_long_text_through_the_chemicals_component_takes_bounded_memory() -> None:
    code = f"""
import resource
from chemref.nlp.components.chemicals import _counter
nlp = _counter()
text = {_LONG_TEXT!r} * 3500
nlp.max_length = len(text) + 1
nlp("warm up")
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
doc = nlp(text)
print(len(doc), len(doc.ents), (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) // 1024)
"""
    proc = _python(code)
    assert proc.returncode == 0, proc.stderr
    tokens, ents, grown_mb = map(int, proc.stdout.split())
    assert tokens > 50_000 and ents >= 3 * 3500
    assert grown_mb < 300, f"{grown_mb} MB for {tokens} tokens"  # 17 kB a token without windows: about 1 GB


def test_windows_find_what_the_whole_text_finds(monkeypatch) -> None:
    from chemref.nlp.components import chemicals

    nlp = chemicals._counter()
    text = " ".join(f"Sample {i} held {i % 7 + 1} mM NaCl, then DMSO and Pd(OAc)2 were added." for i in range(600))
    doc = nlp(text)
    assert len(doc) > 3 * chemicals.WINDOW_TOKENS
    windowed = [(e.start_char, e.end_char) for e in doc.ents]
    monkeypatch.setattr(chemicals, "WINDOW_TOKENS", 10**9)
    assert windowed == [(e.start_char, e.end_char) for e in nlp(text).ents]


_TAMPER = """
import json, pathlib, sys, tempfile
import spacy
from chemref.errors import InputError
folder = pathlib.Path(tempfile.mkdtemp())
nlp = spacy.blank("en")
nlp.add_pipe("chemref_chemicals")
nlp.to_disk(folder)
target = folder / "chemref_chemicals" / sys.argv[1]
target.write_text(target.read_text().replace(sys.argv[2], sys.argv[3]))
try:
    spacy.load(folder)
except InputError as exc:
    print("refused: " + str(exc))
"""


@pytest.mark.parametrize(("file", "old", "new", "needle"), [
    ("cfg", '"beam_width":1', '"beam_width":999999999', "beam_width"),
    ("config.cfg", "depth = 4", "depth = 400000", "depth"),
    ("config.cfg", "rows = [8000, 1000, 2500, 2500]", "rows = [8000000000, 1000, 2500, 2500]", "rows"),
    ("config.cfg", "width = 96", "width = 96000000", "width"),
])
def test_a_tampered_saved_chemicals_component_is_refused_in_one_line(file: str, old: str, new: str,
                                                                    needle: str) -> None:
    proc = subprocess.run([sys.executable, "-c", _TAMPER, file, old, new], capture_output=True, text=True,
                          timeout=120, cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert proc.returncode == 0, proc.stderr[-2000:]
    lines = proc.stdout.splitlines()
    assert len(lines) == 1 and lines[0].startswith("refused: ") and needle in lines[0], proc.stdout

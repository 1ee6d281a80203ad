"""``chemref score brat`` end to end on the sample in corpora/brat, plus the Java-compatibility helpers."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.helpers import CORPORA

from chemref.errors import ChemrefError, InputError, ScoringError
from chemref.scoring import score_brat
from chemref.scoring.brat.brateval import java_double, java_format4, java_hashmap_order, java_split, java_sort_key
from chemref.scoring.brat.closure import transitive_closure
from chemref.scoring.report.model import ScoreReport
from chemref.scoring.brat.brateval import banded_edit_distance, brateval_exact, brateval_overlap, brateval_similarity
from chemref.scoring.brat.chemu import overlap

GOLD = CORPORA / "brat" / "gold"
PRED = CORPORA / "brat" / "pred"


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "chemref", "score", "brat", *map(str, args)],
                          capture_output=True, text=True, timeout=120)


@pytest.mark.slow
def test_default_table_on_the_sample() -> None:
    p = run(GOLD, PRED)
    assert p.returncode == 0, p.stderr
    assert "relations/relaxed_bipartite/coref_expanded" in p.stdout and "overall" in p.stdout
    assert p.stderr == ""


@pytest.mark.slow
def test_json_has_the_paper_structure() -> None:
    p = run(GOLD, PRED, "--json")
    got = json.loads(p.stdout)
    for match in ("exact", "relaxed_bipartite"):
        for coref in ("coref_not_expanded", "coref_expanded"):
            leaf = got["relations"][match][coref]
            assert set(leaf) == {"per_type", "overall"}
            assert set(leaf["overall"]) == {"tp", "fp", "fn", "precision", "recall", "f1"}
        assert set(got["entities"][match]) == {"per_type", "overall"}
    assert got == json.loads(score_brat(GOLD, PRED).to_json())


@pytest.mark.slow
def test_csv_markdown_per_doc_and_errors() -> None:
    csv_out = run(GOLD, PRED, "--csv", "--per-doc").stdout.splitlines()
    assert csv_out[0] == "document,report,type,tp,fp,fn,precision,recall,f1"
    assert any(line.startswith("r001,") for line in csv_out)
    md = run(GOLD, PRED, "--markdown").stdout
    assert md.startswith("**chemref ") and "primary: relations/exact/coref_expanded f1 = 0.8293" in md.splitlines()[0]
    assert "\n| report | type |" in md  # no document column without per-document rows
    md_doc = run(GOLD, PRED, "--markdown", "--per-doc").stdout
    assert "\n| document | report | type |" in md_doc and "| (all) | relations/exact/coref_expanded | all |" in md_doc
    err = run(GOLD, PRED, "--errors", "--level", "entities", "--span", "exact")
    assert err.returncode == 0
    assert "entities/exact" in err.stdout and "relations/" not in err.stdout
    assert "'4-Chloro-2-nitrophenol'" in err.stdout          # FP text from the prediction's .txt
    report = score_brat(GOLD, PRED, errors=True, per_doc=True)
    assert {e["kind"] for e in report["errors"]} == {"FP", "FN"}
    assert set(report["per_doc"]) == {"r001", "r002", "r003"}


@pytest.mark.slow
def test_errors_reach_csv_and_markdown() -> None:
    """--errors with --csv/--markdown is not silently dropped: one row per FP/FN with its mention text."""
    import csv
    import io

    report = score_brat(GOLD, PRED, errors=True, level="entities", span="exact")
    rows = list(csv.DictReader(io.StringIO(report.to_csv())))
    error_rows = [r for r in rows if r["error"]]
    assert len(error_rows) == len(report["errors"]) > 0
    assert any("'4-Chloro-2-nitrophenol'" in r["error"] and r["error"].startswith("FP: ") for r in error_rows)
    assert all(r["tp"] == "" for r in error_rows)
    md = report.to_markdown().splitlines()[2:]  # after the headline and a blank line
    assert md[0].endswith("| error |") and sum("FP: " in line or "FN: " in line for line in md) == len(error_rows)
    assert "error" not in score_brat(GOLD, PRED).to_csv().splitlines()[0]     # no column without --errors
    cli = run(GOLD, PRED, "--csv", "--errors")
    assert cli.returncode == 0 and "FP: " in cli.stdout


def test_errors_without_txt_files_warn_once(tmp_path: Path) -> None:
    """No .txt anywhere: --errors lists offsets only and says so in one warning, never a silent ``None``."""
    gold, pred = tmp_path / "gold", tmp_path / "pred"
    for src, dst in ((GOLD, gold), (PRED, pred)):
        dst.mkdir()
        for f in src.glob("*.ann"):
            shutil.copy(f, dst / f.name)
    report = score_brat(gold, pred, errors=True)
    missing = [w for w in report["warnings"] if "no .txt" in w]
    assert len(missing) == 1 and "3 document(s)" in missing[0] and "r001, r002, r003" in missing[0]
    assert "None" not in str(report)
    with_text = score_brat(GOLD, PRED, errors=True)
    assert not [w for w in with_text["warnings"] if "no .txt" in w]


def test_markdown_escapes_brateval_relation_keys() -> None:
    """BRATEval's ``REL|TYPE1|TYPE2`` keys must not split a Markdown row into extra cells."""
    md = score_brat(GOLD, PRED, mode="brateval", level="relations").to_markdown().splitlines()[2:]
    width = md[0].count(" | ")
    assert all(line.replace("\\|", "").count(" | ") == width for line in md[2:])
    assert any("WORK_UP\\|entity\\|entity" in line for line in md)


def test_codalab_zip_with_a_subfolder(tmp_path: Path) -> None:
    archive = tmp_path / "submission.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for f in PRED.glob("*.ann"):
            zf.write(f, f"res/{f.name}")
        zf.writestr("__MACOSX/res/._r001.ann", "junk")
    assert score_brat(GOLD, archive) == {**score_brat(GOLD, PRED), "pred": str(archive),
                                         "title": score_brat(GOLD, archive)["title"]}
    b = score_brat(GOLD, archive, mode="brateval", span="overlap")
    assert b["overall"] == score_brat(GOLD, PRED, mode="brateval", span="overlap")["overall"]


def _partial_pred(tmp_path: Path) -> Path:
    pred = tmp_path / "pred"
    shutil.copytree(PRED, pred)
    (pred / "r003.ann").unlink()
    (pred / "extra.ann").write_text("")
    return pred


@pytest.mark.slow
def test_missing_prediction_file_chemu_warns_strict_fails(tmp_path: Path) -> None:
    pred = _partial_pred(tmp_path)
    p = run(GOLD, pred)
    assert p.returncode == 0
    assert "r003" in p.stderr and "counted as empty" in p.stderr and "extra" in p.stderr
    assert all(line.startswith("chemref: warning: ") for line in p.stderr.splitlines())
    s = run(GOLD, pred, "--strict")
    assert s.returncode == 2 and s.stdout == "" and s.stderr.startswith("chemref: error: ")
    with pytest.raises(ScoringError):
        score_brat(GOLD, pred, strict=True)


@pytest.mark.slow
def test_missing_prediction_file_brateval_aborts(tmp_path: Path) -> None:
    p = run(GOLD, _partial_pred(tmp_path), "--brateval")
    assert p.returncode == 2 and p.stdout == ""
    assert "mandatory file is missing: r003.ann" in p.stderr and "Traceback" not in p.stderr


BAD_ANN = [
    ("T1\tentity 0 five\tx\n", "offsets must be non-negative integers"),
    ("T1\tentity 0 5\tx\nR1\tCOREFERENCE Arg1:T1 Arg2:T9\n", "T9"),
    ("T1\tentity 0 5\tx\nR1\tCOREFERENCE Arg1:T1\n", "relation"),
]


@pytest.mark.slow
@pytest.mark.parametrize("text, words", BAD_ANN)
@pytest.mark.parametrize("mode", [[], ["--brateval"]])
def test_bad_lines_are_one_line_errors(tmp_path: Path, text: str, words: str, mode: list[str]) -> None:
    (tmp_path / "g").mkdir()
    (tmp_path / "p").mkdir()
    (tmp_path / "g" / "d.ann").write_text("T1\tentity 0 5\tx\n")
    (tmp_path / "p" / "d.ann").write_text(text)
    p = run(tmp_path / "g", tmp_path / "p", *mode)
    if mode and "Arg1:T1\n" in text:   # BRATEval skips an R line that is not 3 space-separated parts
        assert p.returncode == 0 and "skips this R line" in p.stderr
        return
    assert p.returncode == 2 and "Traceback" not in p.stderr
    assert len(p.stderr.strip().splitlines()) == 1
    assert f"{tmp_path / 'p' / 'd.ann'}:" in p.stderr and (words in p.stderr or mode)


@pytest.mark.slow
def test_non_utf8_is_a_warning_with_file_and_line_in_a_prediction_and_an_error_in_the_gold(tmp_path: Path) -> None:
    for d in ("g", "p"):
        (tmp_path / d).mkdir()
        (tmp_path / d / "d.ann").write_bytes(b"T1\tentity 0 5\tx\nT2\tentity 6 9\tcaf\xe9\n")
    for mode in ([], ["--brateval"]):
        p = run(tmp_path / "g", tmp_path / "p", *mode)
        assert p.returncode == 2 and f"{tmp_path / 'g' / 'd.ann'}:2: bytes that are not UTF-8" in p.stderr
    (tmp_path / "g" / "d.ann").write_bytes(b"T1\tentity 0 5\tx\nT2\tentity 6 9\tcafe\n")
    for mode in ([], ["--brateval"]):
        p = run(tmp_path / "g", tmp_path / "p", *mode)
        assert p.returncode == 0 and f"{tmp_path / 'p' / 'd.ann'}:2:" in p.stderr


@pytest.mark.slow
def test_bad_arguments(tmp_path: Path) -> None:
    assert run(GOLD, tmp_path / "nope").returncode == 2
    assert run(GOLD, PRED, "--similarity", "0.8").returncode == 2        # a BRATEval option
    assert run(GOLD, PRED, "--brateval", "--span", "fuzzy").returncode == 2
    assert run(GOLD, PRED, "--json", "--csv").returncode == 2
    empty = tmp_path / "empty"
    empty.mkdir()
    p = run(empty, PRED)
    assert p.returncode == 2 and "no .ann files" in p.stderr
    with pytest.raises(InputError):
        score_brat(GOLD, PRED, mode="other")  # type: ignore[arg-type]


def test_api_never_exits(tmp_path: Path) -> None:
    with pytest.raises(ChemrefError):
        score_brat(tmp_path / "missing", PRED)
    report = score_brat(GOLD, PRED, mode="brateval", level="entities", span="approx", similarity=0.8,
                        type_match="inexact")
    assert isinstance(report, ScoreReport) and isinstance(report, dict)
    assert str(report).splitlines()[2] == "Summary:"
    assert json.loads(report.to_json())["overall"]["tp"] == report["overall"]["tp"]


# ------------------------------------------------------------------ Java compatibility helpers
JAVA_FORMAT = [(1 / 32, "0.0313"), (0.5, "0.5000"), (2 / 3, "0.6667"), (0.0, "0.0000"), (1.0, "1.0000"),
               (0.00005, "0.0001"), (0.12345, "0.1235"), (0.99995, "1.0000")]


@pytest.mark.parametrize("x, text", JAVA_FORMAT)
def test_java_half_up_format(x: float, text: str) -> None:
    assert java_format4(x) == text


def test_java_hashmap_order() -> None:
    # "T1".hashCode() = 84*31 + 49 = 2653, bucket 13 of 16: T4..T9 (buckets 0..5) come first
    assert java_hashmap_order([f"T{i}" for i in range(1, 10)]) == ["T4", "T5", "T6", "T7", "T8", "T9", "T1", "T2", "T3"]
    # the greedy order named in crafted/greedy_5x5/DESCRIPTION.txt
    assert java_hashmap_order(["R1", "R2", "R3", "R4", "R5"]) == ["R2", "R3", "R4", "R5", "R1"]
    keys = [f"T{i}" for i in range(1, 200)]
    assert sorted(java_hashmap_order(keys)) == sorted(keys)
    assert java_hashmap_order(["T1", "T2", "T1"]) == java_hashmap_order(["T1", "T2"])


def test_java_strings() -> None:
    assert java_split("T1\tentity 0 8\t", "\t") == ["T1", "entity 0 8"]
    assert java_split("", "\t") == [""]
    assert java_split("\t\t", "\t") == []
    assert sorted(["b", "\U0001F600", "\uFFFD", "B"], key=java_sort_key) == ["B", "b", "\U0001F600", "\uFFFD"]
    assert java_double(0.8) == "0.8" and java_double(1.0) == "1.0"


SPAN_CASES = [
    # (e1, e2, brateval exact, brateval overlap, chemu overlap)
    ([(0, 5)], [(0, 5), (7, 9)], True, True, True),
    ([(0, 5), (7, 9)], [(0, 5)], False, True, True),
    ([(0, 5)], [(5, 9)], False, False, False),
    ([(10, 10)], [(5, 10)], False, True, False),       # zero-length fragment: BRATEval says overlap
    ([(0, 5)], [(4, 9)], False, True, True),
]


@pytest.mark.parametrize("e1, e2, exact, bo, co", SPAN_CASES)
def test_span_predicates(e1, e2, exact, bo, co) -> None:
    assert brateval_exact(e1, e2) is exact
    assert brateval_overlap(e1, e2) is bo
    assert overlap(e1, e2) is co


def test_brateval_similarity() -> None:
    assert brateval_similarity("abcde", "abcdx", 0.8) == 0.0          # allowed = floor(0.19999999999999996*5) = 0
    assert brateval_similarity("abcdefghij", "abcdefghix", 0.8) == pytest.approx(0.9)
    assert brateval_similarity("a\U0001F600b", "a\U0001F600b", 0.8) == 1.0
    assert banded_edit_distance("kitten", "sitting", 3) == 3
    assert banded_edit_distance("ab", "abcdef", 2) == 3                # out of band: allowed + 1


def test_closure() -> None:
    assert transitive_closure([(1, 2), (2, 3), (3, 4)]) == {(1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)}
    assert transitive_closure([(1, 2), (2, 1)]) == {(1, 2), (2, 1)}


@pytest.mark.slow
def test_scoring_imports_stay_small() -> None:
    code = ("import sys; from chemref.scoring import score_brat; import chemref.brat, chemref.cli.score_brat; "
            f"score_brat({str(GOLD)!r}, {str(PRED)!r}); score_brat({str(GOLD)!r}, {str(PRED)!r}, mode='brateval'); "
            "heavy = {'spacy', 'numpy', 'scipy', 'networkx', 'lxml'} & set(sys.modules); assert not heavy, heavy")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr

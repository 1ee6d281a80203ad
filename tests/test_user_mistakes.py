"""What a new user gets wrong on a first try, and the one clear line (or the right output) each gets back.

Also what a first reader of a report needs: the primary figure's value, column headers, each error once.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import CORPORA, ROOT

from chemref.cli import main
from chemref.errors import ScoringError

GOLD = CORPORA / "brat" / "gold"
PRED = CORPORA / "brat" / "pred"


# ------------------------------------------------------------------------------ question outputs

@pytest.mark.parametrize("name", ["q.csv", "q.json", "q.txt", "questions.JSON"])
def test_a_questions_file_not_named_jsonl_is_refused(tmp_path, capsys, name):
    status = main(["questions", "build", "-o", str(tmp_path / name), "--no-progress"])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1
    assert "written as JSON Lines" in err and ".jsonl" in err and name in err and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name", ["q.jsonl", "q.ndjson", "out"])
def test_jsonl_names_and_folders_are_accepted(tmp_path, name):
    assert main(["questions", "build", "-o", str(tmp_path / name), "--no-progress"]) == 0


@pytest.mark.parametrize("output", ["q.jsonl", "out/"])
def test_a_finished_build_leaves_no_lock_file(tmp_path, output):
    target = tmp_path / output
    assert main(["questions", "build", "-o", str(target), "--no-progress"]) == 0
    assert not list(tmp_path.rglob("*.chemref.lock")) and not list(tmp_path.rglob(".chemref.lock"))
    assert main(["questions", "build", "-o", str(target), "--no-progress"]) == 0  # and again: nothing in the way
    assert not list(tmp_path.rglob("*chemref.lock"))


def test_a_failed_build_leaves_no_lock_file(tmp_path):
    bad = tmp_path / "bad.xml"
    bad.write_text("<article", encoding="utf-8")
    main(["questions", "build", str(bad), "-o", str(tmp_path / "q.jsonl"), "--no-progress"])
    assert not list(tmp_path.rglob("*chemref.lock"))


def test_a_run_that_opened_a_lock_file_being_removed_locks_the_new_one(tmp_path):
    """The lock file goes when a run ends; a run that opened it just before takes the lock on the path again,
    so two runs never hold locks on two different files of the same name."""
    import fcntl

    from chemref._io.lock import RunLock

    path = tmp_path / ".q.jsonl.chemref.lock"
    first = RunLock(path, "to q.jsonl").__enter__()
    stale_fd = os.open(path, os.O_RDWR)  # a second run opened the file, and waits for the first
    first.__exit__(None, None, None)
    assert not path.exists()
    fcntl.flock(stale_fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # it now holds a removed file...
    with RunLock(path, "to q.jsonl") as lock:  # ...and a third run locks the new file, which the second sees
        assert path.exists() and lock._is_current(lock._fd)
        probe = RunLock(path, "to q.jsonl")
        assert not probe._is_current(stale_fd)
    os.close(stale_fd)


# ------------------------------------------------------------------------------ TREC files as JSON Lines

@pytest.mark.parametrize("gold, pred, kind", [
    ("qrels.txt", "pred.jsonl", "qrels"),
    ("gold.jsonl", "run_a.run", "run"),
])
def test_trec_files_without_format_trec_say_so(capsys, gold, pred, kind):
    status = main(["score", "ranking", str(CORPORA / "ranking" / gold), str(CORPORA / "ranking" / pred), "--k", "10"])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1
    assert f"this is a TREC {kind} file" in err and "--format trec" in err and ":1:" in err


def test_trec_hint_only_for_trec_shaped_lines(tmp_path):
    from chemref.scoring import score_ranking

    broken = tmp_path / "gold.jsonl"
    broken.write_text('{"id": "q1", "relevant": ["a"]\n', encoding="utf-8")
    with pytest.raises(Exception) as info:
        score_ranking(broken, CORPORA / "ranking" / "pred.jsonl", k=10)
    assert "TREC" not in str(info.value) and "not valid JSON" in str(info.value)
    with pytest.raises(ScoringError, match="format='trec'"):
        score_ranking(CORPORA / "ranking" / "qrels.txt", CORPORA / "ranking" / "pred.jsonl", k=10)


# ------------------------------------------------------------------------------ Dask with relative paths

def test_dask_workers_get_absolute_paths_and_the_same_labels(tmp_path, monkeypatch):
    from chemref.inputs.sources import expand_inputs
    from chemref.questions.funnel.builder import build_article
    from chemref.questions.output.cluster import for_workers
    from chemref.questions.funnel.settings import BuildSettings

    monkeypatch.chdir(ROOT)
    sources = expand_inputs(["corpora/jats"])
    shipped = for_workers(sources)
    assert all(os.path.isabs(s.path) for s in shipped)
    assert [s.label for s in shipped] == [s.label for s in sources]
    monkeypatch.chdir(tmp_path)  # a worker of a cluster runs elsewhere
    settings = BuildSettings()
    built = [build_article(s, settings) for s in shipped]
    monkeypatch.chdir(ROOT)
    here = [build_article(s, settings) for s in sources]
    assert [[q.to_dict() for q in a.questions] for a in built] == [[q.to_dict() for q in a.questions] for a in here]
    assert all(not a.error for a in built)


# ------------------------------------------------------------------------------ training and benchmarks

def test_training_without_the_data_is_one_line_and_leaves_no_temporary_folder(tmp_path):
    env = dict(os.environ, TMPDIR=str(tmp_path), CHEMREF_REFERENCE_DATA=str(tmp_path / "nowhere"),
               PYTHONPATH=str(ROOT))
    p = subprocess.run([sys.executable, str(ROOT / "training" / "chemicals" / "train.py")], capture_output=True,
                       text=True, env=env, timeout=120)
    assert p.returncode == 2
    assert p.stderr.count("\n") == 1 and "Traceback" not in p.stderr
    assert "nowhere" in p.stderr and "CHEMREF_REFERENCE_DATA" in p.stderr
    assert list(tmp_path.iterdir()) == []


def test_the_chemicals_benchmark_does_not_rewrite_a_tracked_file():
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_chemicals", ROOT / "benchmarks" / "bench_chemicals.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    assert bench.OUT != bench.RECORD
    ignored = subprocess.run(["git", "check-ignore", "-q", str(bench.OUT)], cwd=ROOT)
    if ignored.returncode == 128:
        pytest.skip("not a git checkout")
    assert ignored.returncode == 0, "the default output of bench_chemicals.py must be ignored by git"
    with pytest.raises(SystemExit):
        bench.main(["--record", "--limit", "5"])


# ------------------------------------------------------------------------------ licence text

def test_licence_url_and_sentence_stay_apart():
    from chemref.jats.reader import read

    xml = b"""<article xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:ali="http://www.niso.org/schemas/ali/1.0/">
<front><article-meta><permissions><license>
<ali:license_ref>https://creativecommons.org/licenses/by/4.0/</ali:license_ref><license-p>This is an Open Access
article distributed under the terms of the Creative Commons Attribution License.</license-p></license>
</permissions></article-meta></front><body><p>Text.</p></body></article>"""
    licence = read(xml).license
    assert licence.cc_by
    assert licence.text.startswith("https://creativecommons.org/licenses/by/4.0/ This is an Open Access article")


# ------------------------------------------------------------------------------ evaluate: in-sample labels

def test_evaluate_says_when_labels_are_the_selectors_training_labels(tmp_path):
    from chemref.questions.funnel import selector_record as docs
    from chemref.questions.labels.evaluate import evaluate
    from chemref.questions.labels.label import Label

    trained = set(docs.selector_evaluation()["trained_ids"])
    rows = [json.loads(line) for line in (CORPORA / "labels" / "dev_labels.jsonl").read_text(encoding="utf-8")
            .splitlines()]
    first = next(row for row in rows if docs.id_hash(row["id"]) in trained)
    record = {"id": first["id"], "excerpt": "x", "score": 0.9, "target_doi": "10.1/x"}
    label = Label(first["id"], first["good_question"], False, "CLAIM", True)
    result = evaluate({label.id: label}, [record], [])
    assert result.trained_on == 1 and result.cross_validated is not None
    text = result.to_text()
    assert "in-sample" in text and f"AUC {docs.selector_evaluation()['auc']:.3f}" in text
    assert result.to_dict()["selector"]["trained_on"] == 1
    own = evaluate({label.id: label}, [record], [], scores={label.id: 0.5})
    assert own.trained_on == 0 and "in-sample" not in own.to_text()  # cross-validated scores given


def test_evaluate_on_the_sample_labels_is_not_in_sample():
    from chemref.questions.labels.evaluate import evaluate
    from chemref.questions.labels.label import read_labels
    from chemref.questions.funnel.builder import build

    result = build([str(CORPORA / "jats")], min_score=0.0, workers=1)
    rows = [q.to_dict() for q in result.questions]
    rejected = [r.to_dict() for r in result.rejected]
    ev = evaluate(read_labels(CORPORA / "labels" / "sample_labels.jsonl"), rows, rejected)
    assert ev.trained_on == 0 and ev.stale == 0 and ev.matched == 36


# ------------------------------------------------------------------------------ BRAT reports

def _run_brat(*args: str) -> str:
    p = subprocess.run([sys.executable, "-m", "chemref", "score", "brat", str(GOLD), str(PRED), *args],
                       capture_output=True, text=True, timeout=120, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert p.returncode == 0, p.stderr
    return p.stdout


def test_brat_headline_gives_the_primary_value_in_text_json_and_markdown():
    from chemref.scoring import score_brat

    report = score_brat(GOLD, PRED)
    value = report["relations"]["exact"]["coref_expanded"]["overall"]["f1"]
    assert report["meta"]["primary_value"] == value
    assert list(report["meta"])[:4] == ["chemref_version", "mode", "primary", "primary_value"]
    text = _run_brat()
    assert f"primary: relations/exact/coref_expanded f1 = {value:.4f}" in text.splitlines()[2]
    md = _run_brat("--markdown").splitlines()
    assert md[0].startswith("**chemref ") and f"f1 = {value:.4f}" in md[0]
    brateval = score_brat(GOLD, PRED, mode="brateval", level="relations")
    assert brateval["meta"]["primary_value"] == brateval["overall"]["f1"]


def test_brat_markdown_has_no_empty_document_cells():
    md = _run_brat("--markdown", "--per-doc").splitlines()
    table = [line for line in md if line.startswith("| ")]
    assert table[0].startswith("| document |")
    assert all(not line.startswith("|  |") for line in table)
    assert any(line.startswith("| (all) |") for line in table) and any(line.startswith("| r001 |") for line in table)


def test_brat_per_document_table_has_column_headers():
    text = _run_brat("--per-doc").splitlines()
    at = text.index("per document: tp/fp/fn of each report")
    header = text[at + 1].split()
    assert header[0] == "document" and "+coref" in header and "relaxed" in header
    rows = text[at + 2:at + 5]
    assert [row.split()[0] for row in rows] == ["r001", "r002", "r003"]
    assert all(len(row) == len(text[at + 1]) for row in rows)  # aligned under the headers


def test_brat_errors_list_each_error_once():
    from chemref.scoring import score_brat

    report = score_brat(GOLD, PRED, errors=True)
    text = _run_brat("--errors").split("errors (", 1)[1].splitlines()[1:]
    lines = [line for line in text if line.startswith("  ")]
    assert len(lines) == len(set(lines)) < len(report["errors"])
    residue = [line for line in lines if "'The residue' -> entity [224-236] 'the filtrate'" in line]
    assert len(residue) == 1 and "[in: exact, exact +coref, relaxed, relaxed +coref]" in residue[0]
    assert len(report["errors"]) == 28  # the JSON keeps one record per report

"""Citation-prediction scorer: CiteME TSV with titles as gold, chemref question JSONL with DOIs, bad input."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from tests.helpers import shared_path

from chemref.cli import main
from chemref.errors import InputError, ScoringError
from chemref.scoring import score_questions
from chemref.scoring.benchmarks.citation_prediction import TITLE_SEPARATOR, read_questions
from chemref.scoring.benchmarks.titles import normalize_title

DATA = Path(__file__).parent / "data" / "scoring"
QUESTIONS = DATA / "questions.jsonl"


@pytest.fixture(scope="module")
def citeme() -> Path:
    return shared_path("corpora", "citeme", "CiteME.tsv")


@pytest.fixture(scope="module")
def citeme_rows(citeme: Path) -> list[tuple[str, list[str]]]:
    questions, _ = read_questions(citeme, format="citeme")
    return [(q.id, list(q.titles)) for q in questions]


def _write(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


# ----------------------------------------------------------------------------------------- CiteME

@pytest.mark.shared
def test_citeme_reader(citeme: Path) -> None:
    questions, diagnostics = read_questions(citeme, format="citeme")
    assert len(questions) == 130
    assert sum(len(q.titles) > 1 for q in questions) == 2  # two rows give two acceptable titles
    assert all(TITLE_SEPARATOR not in t for q in questions for t in q.titles)
    assert any("[CITATIONS]" in d and "93" in d and "185" in d for d in diagnostics)


@pytest.mark.shared
def test_citeme_perfect_predictions_score_one(citeme: Path, citeme_rows, tmp_path: Path) -> None:
    # int ids as in the TSV, the last acceptable title, in upper case with a trailing period
    records = [{"id": int(qid), "titles": [titles[-1].upper() + "."]} for qid, titles in citeme_rows]
    report = score_questions(citeme, _write(tmp_path / "perfect.jsonl", records), format="citeme")
    assert report["n"] == 130
    for name in ("accuracy@1", "recall@5", "mrr@5", "recall@10", "mrr@10"):
        assert report[name] == 1.0
    assert set(report["breakdowns"]) == {"source", "split", "year"}
    assert report["breakdowns"]["split"]["test"]["n"] == 119


@pytest.mark.shared
def test_citeme_shuffled_single_titles_score_only_shared_targets(citeme: Path, citeme_rows, tmp_path: Path) -> None:
    """Each question gets another question's title: only questions citing the same paper can be right."""
    rng = random.Random(6)
    order = list(range(len(citeme_rows)))
    rng.shuffle(order)
    records = [{"id": qid, "titles": [citeme_rows[j][1][0]]} for (qid, _), j in zip(citeme_rows, order)]
    expected = sum(
        normalize_title(citeme_rows[j][1][0]) in {normalize_title(t) for t in titles}
        for (_, titles), j in zip(citeme_rows, order)
    ) / len(citeme_rows)
    report = score_questions(citeme, _write(tmp_path / "shuffled.jsonl", records), format="citeme")
    assert report["accuracy@1"] == pytest.approx(expected)
    assert report["accuracy@1"] < 0.05


@pytest.mark.slow
@pytest.mark.shared
def test_citeme_shuffled_rankings_score_one_over_n(citeme: Path, citeme_rows, tmp_path: Path) -> None:
    """Every distinct gold title, in a random order per question: accuracy@1 ≈ 1/N, Recall@10 ≈ 10/N."""
    distinct = list({normalize_title(t): t for _, titles in citeme_rows for t in titles[:1]}.values())
    n = len(distinct)
    rng = random.Random(2024)
    totals = {"accuracy@1": 0.0, "recall@10": 0.0, "mrr@10": 0.0}
    rounds = 40
    for round_ in range(rounds):
        records = []
        for qid, _ in citeme_rows:
            ranking = distinct[:]
            rng.shuffle(ranking)
            records.append({"id": qid, "titles": ranking})
        report = score_questions(citeme, _write(tmp_path / f"shuffled{round_}.jsonl", records), format="citeme")
        for name in totals:
            totals[name] += report[name] / rounds
    assert totals["accuracy@1"] == pytest.approx(1 / n, abs=0.005)
    assert totals["recall@10"] == pytest.approx(10 / n, abs=0.02)
    assert totals["mrr@10"] == pytest.approx(sum(1 / r for r in range(1, 11)) / n, abs=0.01)


@pytest.mark.shared
def test_citeme_rejects_doi_predictions(citeme: Path, tmp_path: Path) -> None:
    pred = _write(tmp_path / "dois.jsonl", [{"id": 10, "dois": ["10.1000/x"]}])
    with pytest.raises(ScoringError, match="no gold DOI or PMID.*predict titles"):
        score_questions(citeme, pred, format="citeme")


@pytest.mark.shared
def test_citeme_cli_json(citeme: Path, citeme_rows, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    pred = _write(tmp_path / "p.jsonl", [{"id": qid, "titles": ["nothing like it", titles[0]]}
                                         for qid, titles in citeme_rows[:65]])
    assert main(["score", "questions", str(citeme), str(pred), "--format", "citeme", "--json", "--k", "1",
                 "--k", "2"]) == 0
    captured = capsys.readouterr()
    out = json.loads(captured.out)
    assert out["metric"] == ["accuracy@1", "recall@2", "mrr@2"]
    assert out["accuracy@1"] == 0.0 and out["recall@2"] == 0.5 and out["mrr@2"] == 0.25
    assert out["counts"]["missing_predictions"] == 65
    assert "65 question(s) without a prediction" in captured.err


# ----------------------------------------------------------------------------------------- chemref questions

def _gold() -> list[dict]:
    return [json.loads(line) for line in QUESTIONS.read_text(encoding="utf-8").splitlines()]


def test_chemref_dois_in_every_form(tmp_path: Path) -> None:
    forms = ["https://doi.org/{}", "doi:{}", "{}", "HTTP://DX.DOI.ORG/{}", " {}. ", "https://doi.org/{}"]
    records = [{"id": q["id"], "dois": ["10.1/not-it", form.format(q["target_doi"].upper())]}
               for q, form in zip(_gold(), forms)]
    report = score_questions(QUESTIONS, _write(tmp_path / "p.jsonl", records))
    assert report["accuracy@1"] == 0.0 and report["recall@5"] == 1.0 and report["mrr@10"] == 0.5
    assert report["breakdowns"]["section"]["introduction"]["n"] == 4
    assert set(report["breakdowns"]["source"]) == {"PMC0000001", "PMC0000002"}


def test_chemref_titles(tmp_path: Path) -> None:
    records = [{"id": q["id"], "titles": [q["target_title"].lower()]} for q in _gold()]
    report = score_questions(QUESTIONS, _write(tmp_path / "p.jsonl", records))
    assert report["accuracy@1"] == 1.0


def test_missing_unknown_and_unparseable(tmp_path: Path) -> None:
    gold = _gold()
    records = [{"id": gold[0]["id"], "dois": ["not a doi", gold[0]["target_doi"]]}, {"id": "zz", "dois": []}]
    report = score_questions(QUESTIONS, _write(tmp_path / "p.jsonl", records))
    assert report["n"] == 6 and report["accuracy@1"] == 0.0 and report["recall@5"] == pytest.approx(1 / 6)
    assert report["counts"] == {"questions": 6, "predicted": 1, "missing_predictions": 5,
                                "unknown_prediction_ids": 1, "unparseable_dois": 1}
    assert len(report["diagnostics"]) == 3
    with pytest.raises(ScoringError, match="not question ids"):
        score_questions(QUESTIONS, tmp_path / "p.jsonl", strict=True)


def test_only_the_top_k_counts() -> None:
    gold = _gold()[:1]
    ranking = [f"10.1/x{i}" for i in range(10)] + [gold[0]["target_doi"]]
    report = score_questions(gold, [{"id": gold[0]["id"], "dois": ranking}], k=(10, 20))
    assert report["recall@10"] == 0.0 and report["recall@20"] == 1.0 and report["mrr@20"] == pytest.approx(1 / 11)


BAD = [
    ('{"id": "q1", "dois": ["10.1/a"], "titles": ["A"]}\n', "exactly one of 'dois', 'pmids' or 'titles'"),
    ('{"id": "q1"}\n', "exactly one of 'dois', 'pmids' or 'titles'"),
    ('{"id": "q1", "dois": "10.1/a"}\n', "must be a list of strings"),
    ('{"id": "q1", "dois": []}\n{"id": "q1", "dois": []}\n', "given twice"),
    ('{"dois": []}\n', "no 'id' field"),
    ('{"id": "q1", "dois": []}\n{oops\n', r"p\.jsonl:2"),
    ('{"id": "nope", "dois": []}\n', "not question ids"),
]


@pytest.mark.parametrize(("text", "message"), BAD)
def test_bad_predictions(tmp_path: Path, text: str, message: str) -> None:
    (tmp_path / "p.jsonl").write_text(text, encoding="utf-8")
    with pytest.raises(InputError, match=message):
        score_questions(QUESTIONS, tmp_path / "p.jsonl")


BAD_GOLD = [
    ('{"id": "q1", "target_doi": "nonsense"}\n', "is not a DOI"),
    ('{"id": "q1"}\n', "none of target_doi, target_pmid, target_title"),
    ('{"id": "q1", "target_doi": "10.1000/a"}\n{"id": "q1", "target_doi": "10.1000/b"}\n', "appears twice.*line 1"),
]


@pytest.mark.parametrize(("text", "message"), BAD_GOLD)
def test_bad_gold(tmp_path: Path, text: str, message: str) -> None:
    (tmp_path / "q.jsonl").write_text(text, encoding="utf-8")
    _write(tmp_path / "p.jsonl", [{"id": "q1", "dois": []}])
    with pytest.raises(InputError, match=message):
        score_questions(tmp_path / "q.jsonl", tmp_path / "p.jsonl")


def test_citeme_format_on_a_jsonl_file_is_explained(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    pred = _write(tmp_path / "p.jsonl", [{"id": "q1", "dois": []}])
    assert main(["score", "questions", str(QUESTIONS), str(pred), "--format", "citeme"]) == 2
    err = capsys.readouterr().err
    assert "not a CiteME TSV" in err and err.count("\n") == 1


# --------------------------------------------------------------------------- PMID answer keys

PMID_GOLD = [
    {"id": "a", "excerpt": "x [CITATION].", "target_doi": "10.1000/a", "target_pmid": "111", "target_title": "A"},
    {"id": "b", "excerpt": "y [CITATION].", "target_doi": None, "target_pmid": "222", "target_title": "B"},
]


@pytest.mark.parametrize(("predictions", "expected"), [
    pytest.param([{"id": "a", "dois": ["10.1000/A"]}, {"id": "b", "dois": ["PMID: 222"]}], 1.0,
                 id="pmid-inside-a-doi-list"),
    pytest.param([{"id": "a", "pmids": ["111"]}, {"id": "b", "pmids": ["0222"]}], 1.0, id="pmids-leading-zero"),
    pytest.param([{"id": "a", "pmids": ["999", "111"]}, {"id": "b", "pmids": ["222"]}], 0.5, id="pmids-rank-2"),
    pytest.param([{"id": "a", "dois": ["10.1000/b"]}, {"id": "b", "dois": ["10.1000/b"]}], 0.0,
                 id="doi-for-a-pmid-only-question-misses"),
])
def test_questions_answer_by_doi_or_pmid(predictions, expected):
    report = score_questions(PMID_GOLD, predictions, k=(1,))
    assert report["accuracy@1"] == expected


def test_question_with_a_bad_pmid_is_an_error():
    with pytest.raises(ScoringError, match="target_pmid 'PMC12' is not a PubMed id"):
        score_questions([{"id": "a", "target_pmid": "PMC12", "target_title": "T"}], [{"id": "a", "pmids": ["1"]}])


def test_pmids_against_doi_only_gold_are_an_error_not_a_silent_zero():
    gold = [{"id": "a", "excerpt": "x [CITATION].", "target_doi": "10.1000/a", "target_pmid": None,
             "target_title": "A"}]
    with pytest.raises(ScoringError, match="question 'a' has no gold PMID but the prediction gives PMIDs"):
        score_questions(gold, [{"id": "a", "pmids": ["111"]}])

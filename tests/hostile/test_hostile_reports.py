"""Hostile inputs to what chemref writes: FP/FN lists and error pages bounded like the score, a COREFERENCE
budget per submission, names that would run as spreadsheet formulas or terminal escapes, dataset cards that a
name could forge, and a review page that reads articles only from the corpus folders it is given. Each CLI case
runs under a 1 GB address-space limit and a time bound (tests/hostile/cli_runner.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.golden import hostile_recipes_brat as recipes_brat
from tests.hostile.cli_runner import assert_refused, chemref

# bounds that catch what was quadratic (minutes, gigabytes) on a loaded two-core machine
SLOW = 60.0
CHAIN = 1_399  # 1,400 mentions in one COREFERENCE chain: 979,300 links once expanded, under the default limit


def _chain_case(root: Path) -> None:
    recipes_brat.folders(root, recipes_brat.coref_chains(1, 20), recipes_brat.coref_chains(1, CHAIN),
                         text_chars=4 * (CHAIN + 2))


# -- --errors and --html are bounded like the score
def test_the_fp_list_of_a_long_chain_is_capped_with_a_count_of_what_was_left_out(tmp_path: Path) -> None:
    _chain_case(tmp_path)
    proc = chemref("score", "brat", "gold", "pred", "--errors", "--json", cwd=tmp_path, timeout=SLOW)
    assert proc.returncode == 0, proc.stderr[-2000:]
    report = json.loads(proc.stdout)
    expanded = report["relations"]["exact"]["coref_expanded"]["overall"]
    assert expanded["fp"] + expanded["tp"] == CHAIN * (CHAIN + 1) // 2  # the counts stay complete
    listed = [e for e in report["errors"] if e["report"] == "relations/exact/coref_expanded"]
    assert len(listed) == 1_000
    left = report["errors_left_out"]["doc"]["relations/exact/coref_expanded"]
    assert left + len(listed) == expanded["fp"] + expanded["fn"]
    assert "left out of the error list" in proc.stderr and "--max-error-records" in proc.stderr


def test_the_listed_records_are_the_first_ones_in_the_records_order(tmp_path: Path) -> None:
    from chemref.scoring.brat_scoring import score_brat

    gold, pred = recipes_brat.folders(tmp_path, recipes_brat.coref_chains(1, 5),
                                      recipes_brat.coref_chains(3, 30), text_chars=600)
    whole = score_brat(gold, pred, errors=True, max_error_records=None)
    capped = score_brat(gold, pred, errors=True, max_error_records=7)
    for label in {e["report"] for e in whole["errors"]}:
        first = [e for e in whole["errors"] if e["report"] == label][:7]
        assert [e for e in capped["errors"] if e["report"] == label] == first
    assert whole["relations"] == capped["relations"] and "errors_left_out" not in whole


def test_the_error_page_of_a_long_chain_is_written_in_seconds(tmp_path: Path) -> None:
    _chain_case(tmp_path)
    proc = chemref("score", "brat", "gold", "pred", "--html", "page.html", cwd=tmp_path, timeout=SLOW)
    assert proc.returncode == 0, proc.stderr[-2000:]
    page = (tmp_path / "page.html").read_text(encoding="utf-8")
    assert len(page) < 5_000_000
    assert "the error page lists the first 1,000" in page or "does not list" in page


# -- a COREFERENCE budget over the whole submission
def test_a_submission_past_the_coreference_budget_is_refused_naming_the_option(tmp_path: Path) -> None:
    for side, shift in (("gold", 0), ("pred", 1)):
        folder = tmp_path / side
        folder.mkdir()
        for n in range(4):  # four documents of one 300-link chain: 45,150 links each once expanded
            (folder / f"d{n}.ann").write_text(recipes_brat.coref_chains(1, 300, shift) if side == "pred"
                                              else "T1\tReaction_product 0 3\tabc\n", encoding="utf-8")
    proc = chemref("score", "brat", "gold", "pred", "--max-coref-total", "100000", cwd=tmp_path, timeout=SLOW)
    assert_refused(proc, "d2.ann", "per submission", "--max-coref-total")
    proc = chemref("score", "brat", "gold", "pred", "--max-coref-total", "200000", cwd=tmp_path, timeout=SLOW)
    assert proc.returncode == 0, proc.stderr


def test_the_budget_holds_with_two_workers(tmp_path: Path) -> None:
    from chemref.errors import ScoringError
    from chemref.scoring.brat_scoring import score_brat

    for side in ("gold", "pred"):
        (tmp_path / side).mkdir()
        for n in range(4):
            text = recipes_brat.coref_chains(1, 100) if side == "pred" else "T1\tReaction_product 0 3\tabc\n"
            (tmp_path / side / f"d{n}.ann").write_text(text, encoding="utf-8")
    with pytest.raises(ScoringError, match="per submission"):
        score_brat(tmp_path / "gold", tmp_path / "pred", jobs=2, max_coref_total=15_000)
    assert score_brat(tmp_path / "gold", tmp_path / "pred", jobs=2, max_coref_total=25_000)["documents"] == 4

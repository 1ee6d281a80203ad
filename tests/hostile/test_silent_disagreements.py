"""Inputs that used to be read two ways, or silently: now read one way, or refused."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from chemref.errors import InputError
from chemref.scoring.brat.score import score_brat
from chemref.scoring.benchmarks.pubmedqa import score_pubmedqa
from chemref.scoring.benchmarks.ranking import score_ranking

CORPORA = Path(__file__).resolve().parents[2] / "corpora"


@pytest.mark.parametrize("ending", ["\r", "\r\n"])
def test_cr_and_crlf_ann_files_score_as_lf(tmp_path: Path, ending: str) -> None:
    shutil.copytree(CORPORA / "brat" / "pred", tmp_path / "pred")
    for ann in (tmp_path / "pred").glob("*.ann"):
        ann.write_bytes(ann.read_bytes().replace(b"\n", ending.encode()))
    gold = CORPORA / "brat" / "gold"
    assert score_brat(gold, tmp_path / "pred").to_json() .replace(str(tmp_path / "pred"), "P") == \
        score_brat(gold, CORPORA / "brat" / "pred").to_json().replace(str(CORPORA / "brat" / "pred"), "P")


def test_duplicate_pubmedqa_ids_are_an_error(tmp_path: Path) -> None:
    (tmp_path / "g.json").write_text('{"7": "yes", "7": "no"}')
    (tmp_path / "p.json").write_text('{"7": "yes"}')
    with pytest.raises(InputError, match="given twice"):
        score_pubmedqa(tmp_path / "g.json", tmp_path / "p.json")


def test_a_string_where_a_list_of_ids_belongs_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="list of ids"):
        score_ranking({"q1": "abc"}, {"q1": ["a", "b", "c"]})
    with pytest.raises(TypeError, match="list of ids"):
        score_ranking({"q1": ["a"]}, {"q1": "abc"})

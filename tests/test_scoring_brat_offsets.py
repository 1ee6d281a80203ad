"""Offsets past the end of the gold text: a warning naming the file (ChEMU mode), scores unchanged."""

from __future__ import annotations

import shutil
import zipfile
from pathlib import Path

import pytest

from chemref.errors import BratError
from chemref.scoring import score_brat
from tests.helpers import CORPORA

GOLD = CORPORA / "brat" / "gold"


def _with_bad_offsets(tmp_path: Path) -> Path:
    pred = tmp_path / "pred"
    shutil.copytree(GOLD, pred)
    (pred / "r001.ann").write_text("T1\tREACTION_STEP 99990 99995\tabcde\n", encoding="utf-8")
    return pred


def test_prediction_past_the_gold_text_is_a_warning(tmp_path: Path) -> None:
    pred = _with_bad_offsets(tmp_path)
    report = score_brat(GOLD, pred)
    hits = [w for w in report["warnings"] if "past the end of the gold text" in w]
    assert len(hits) == 1 and hits[0].startswith(f"{pred / 'r001.ann'}: a mention ends at offset 99995")
    assert report["entities"]["exact"]["overall"]["fp"] == 1


def test_gold_past_its_own_text_is_a_warning_also_in_a_zip(tmp_path: Path) -> None:
    bad = _with_bad_offsets(tmp_path)
    archive = tmp_path / "gold.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for f in sorted(bad.iterdir()):
            zf.write(f, f"submission/{f.name}")
    report = score_brat(archive, GOLD)
    assert any(w.startswith(f"{archive}:submission/r001.ann: a mention ends at offset 99995")
               for w in report["warnings"])


def test_no_warning_on_the_sample() -> None:
    assert not [w for w in score_brat(GOLD, GOLD)["warnings"] if "past the end" in w]


def test_non_utf8_text_shown_with_errors_is_a_warning_in_a_prediction_and_an_error_in_the_gold(
        tmp_path: Path) -> None:
    gold = tmp_path / "gold"
    shutil.copytree(GOLD, gold)
    pred = tmp_path / "pred"
    shutil.copytree(GOLD, pred)
    with open(pred / "r001.txt", "ab") as handle:
        handle.write(b"caf\xe9 au lait\n")
    lines = (pred / "r001.ann").read_text(encoding="utf-8").splitlines(keepends=True)
    # false negatives (the relations left out: their text is read from the gold .txt) and a false positive (read
    # from the prediction's)
    (pred / "r001.ann").write_text("".join(line for line in lines if not line.startswith("R")) + "T99\tentity 0 3\tThe\n",
                                   encoding="utf-8")
    report = score_brat(gold, pred, errors=True)
    assert any(w.startswith(f"{pred / 'r001.txt'}:") and "not UTF-8" in w for w in report["warnings"])
    with open(gold / "r001.txt", "ab") as handle:
        handle.write(b"caf\xe9 au lait\n")
    with pytest.raises(BratError, match="not UTF-8") as raised:
        score_brat(gold, pred, errors=True)
    assert raised.value.path == str(gold / "r001.txt")

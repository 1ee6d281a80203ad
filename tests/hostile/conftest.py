"""Fixtures shared by the hostile-input tests."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.hostile.cli_runner import CORPORA, PREVIOUS


@pytest.fixture
def work(tmp_path: Path) -> Path:
    """A work folder holding copies of the sample BRAT gold and prediction folders, and an output file with
    known previous content (``out.txt``)."""
    shutil.copytree(CORPORA / "brat" / "gold", tmp_path / "gold")
    shutil.copytree(CORPORA / "brat" / "pred", tmp_path / "pred")
    (tmp_path / "out.txt").write_text(PREVIOUS)
    return tmp_path

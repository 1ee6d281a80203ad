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


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Every hostile case runs the CLI in a subprocess under resource limits (a few tenths of a second each,
    a minute and a half together): all are ``slow``, left out of the fast run (``pytest tests/hostile`` runs them)."""
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.slow)

"""Shared fixtures: where the reference data in ../shared lives, skipping cleanly when absent."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = (ROOT / ".." / "shared").resolve()
CORPORA = ROOT / "corpora"


def shared_path(*parts: str) -> Path:
    """Path inside ../shared; skips the calling test with a reason when it is absent."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"reference data not available: {path} (../shared is not beside this checkout)")
    return path


@pytest.fixture(scope="session")
def shared() -> Path:
    """The ../shared folder (skips when absent)."""
    return shared_path()

"""Shared fixtures: where the reference data lives ($CHEMREF_REFERENCE_DATA, default ../shared), skipping
cleanly when absent."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from chemref.reference_data import REFERENCE_DATA_ENV, reference_root  # noqa: E402

SHARED = reference_root(ROOT)
CORPORA = ROOT / "corpora"


def shared_path(*parts: str) -> Path:
    """Path inside ../shared; skips the calling test with a reason when it is absent."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"reference data not available: {path} (set {REFERENCE_DATA_ENV}, or put ../shared beside "
                    "this checkout: README, Reference data)")
    return path


@pytest.fixture(scope="session")
def shared() -> Path:
    """The ../shared folder (skips when absent)."""
    return shared_path()


try:  # hypothesis is a test dependency; keep property tests free of flaky time limits on a loaded CI box
    from hypothesis import HealthCheck, settings

    settings.register_profile("chemref", deadline=None, suppress_health_check=[HealthCheck.too_slow])
    settings.load_profile("chemref")
except ImportError:  # pragma: no cover - the test extra installs it
    pass

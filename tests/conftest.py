"""Shared fixtures: the reference data ($CHEMREF_REFERENCE_DATA, default ../shared; skipping cleanly when
absent) and the one chemref pipeline."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest

from chemref._io import secrets
from tests.helpers import pipeline, shared_path


@pytest.fixture(autouse=True)
def _no_secret_carried_over() -> Iterator[None]:
    """Every test starts and ends with no registered secret: a key one test registers (as the judge commands
    do for the process) must not withhold another test's messages when the suite runs in one process."""
    _forget_secrets()
    yield
    _forget_secrets()


def _forget_secrets() -> None:
    with secrets._lock:
        secrets._secrets.clear()
        secrets._pattern = None
        secrets._index = None


@pytest.fixture(scope="session")
def shared() -> Path:
    """The ../shared folder (skips when absent)."""
    return shared_path()


@pytest.fixture
def nlp(request: pytest.FixtureRequest):
    """``chemref.load()``, built once per session; in a module or test marked ``chemicals``,
    ``chemref.load(chemicals=True)``. Shared: a test that changes a pipeline builds its own."""
    return pipeline(chemicals=request.node.get_closest_marker("chemicals") is not None)


try:  # hypothesis is a test dependency; keep property tests free of flaky time limits on a loaded CI box
    from hypothesis import HealthCheck, settings

    # the nlp fixture is function-scoped but returns one cached pipeline, so reusing it across examples is safe
    settings.register_profile("chemref", deadline=None,
                              suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
    settings.load_profile("chemref")
except ImportError:  # pragma: no cover - the test extra installs it
    pass

"""The ``chemref`` script tunes the cyclic garbage collector for a batch job; the library leaves it alone."""

from __future__ import annotations

import gc
import subprocess
import sys

import pytest

import chemref.__main__ as entry


def test_the_script_raises_the_young_generations_threshold(monkeypatch: pytest.MonkeyPatch) -> None:
    before = gc.get_threshold()
    monkeypatch.setattr(entry, "main", lambda: 0)
    try:
        assert entry.run() == 0
        assert gc.get_threshold() == (entry.GC_THRESHOLD, *before[1:])
    finally:
        gc.set_threshold(*before)


def test_importing_the_library_and_the_cli_keeps_pythons_collector_settings() -> None:
    code = ("import gc; before = gc.get_threshold(); import chemref.cli, chemref.questions.funnel.builder; "
            "import chemref.jats.reader; print(gc.get_threshold() == before, gc.isenabled())")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["True", "True"]

"""Helpers shared by the tests: where the repository, its sample corpora and the reference data in ../shared are,
and the chemref pipelines the spaCy tests share (built once per session)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import pytest

from tools.reference_data import REFERENCE_DATA_ENV, reference_root

ROOT = Path(__file__).resolve().parents[1]
SHARED = reference_root(ROOT)
CORPORA = ROOT / "corpora"


def shared_path(*parts: str) -> Path:
    """Path inside the reference data ($CHEMREF_REFERENCE_DATA, default ../shared); skips the calling test with a
    reason when it is absent."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"reference data not available: {path} (set {REFERENCE_DATA_ENV}, or put ../shared beside "
                    "this checkout: docs/reference-data.md)")
    return path


@lru_cache(maxsize=2)
def pipeline(*, chemicals: bool = False):
    """``chemref.load()`` (``chemicals=True``: with ``chemref_chemicals``), built once and shared: tests must not
    change it (build their own with ``chemref.load()`` to add, remove or reconfigure components)."""
    pytest.importorskip("spacy")
    import chemref

    return chemref.load(chemicals=chemicals)


def golden_params(tables: Mapping[str, Sequence[Any]], *,
                  shape: Callable[[tuple[Any, ...]], tuple[Any, ...]] = tuple) -> list[Any]:
    """The cases of golden ``tables`` (name -> cases) as ``pytest.param``s with ids ``<table>-<n>``; a
    :class:`benchmarks.golden.Hard` case is an xfail (strict unless it says otherwise). ``shape`` maps a case's
    values to the test's arguments."""
    from benchmarks.golden import Hard

    params = []
    for name, table in tables.items():
        for n, case in enumerate(table):
            if isinstance(case, Hard):
                params.append(pytest.param(*shape(case.values), id=f"{name}-{n}",
                                           marks=pytest.mark.xfail(reason=case.reason, strict=case.strict)))
            else:
                params.append(pytest.param(*shape(tuple(case)), id=f"{name}-{n}"))
    return params


def tar_package(path: Path, members: Mapping[str, bytes]) -> Path:
    """A ``.tar.gz`` at ``path`` holding ``members`` (name -> bytes), as a PMC bulk package does."""
    import io
    import tarfile

    with tarfile.open(path, "w:gz") as archive:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return path

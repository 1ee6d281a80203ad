"""The examples the docs mark as needing something (see :mod:`tests.docs_examples`) run where it is there: a
document's blocks run in order in a fresh copy, the marked ones of one kind included, the others skipped.

- ``data``: the reference data, from ``../shared`` beside the checkout (or ``$CHEMREF_REFERENCE_DATA``), linked
  beside the copy; skipped when absent;
- ``judge``: the local OpenAI-compatible test server (``tests/judge_server.py``) in place of the example's
  ``http://127.0.0.1:8000/v1``;
- ``dask``: a local Dask cluster (``distributed.LocalCluster``) in place of the example's scheduler address.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.docs_examples import BLOCKS, files_of, make_clone, needs, run_block
from tools.reference_data import REFERENCE_DATA_ENV, reference_root

ROOT = Path(__file__).resolve().parents[1]
#: a marked block with the reference data may train a model (the chemicals page: about 10 minutes on 2 cores)
DATA_TIMEOUT = 3600
#: set to 1 to run the marked examples that retrain a model (left out of the default runs and CI for their time)
TRAINING_ENV = "CHEMREF_RUN_TRAINING"
#: the addresses the examples show, replaced by the test's own
JUDGE_ENDPOINT = "http://127.0.0.1:8000/v1"
SCHEDULER = "tcp://127.0.0.1:8786"


def _cases(kind: str) -> list:
    documents = sorted({b.document for b in BLOCKS if b.skip and needs(b.skip) == kind})
    return [pytest.param(d, id=d) for d in documents]


def _run_document(document: str, kind: str, base: Path, substitutions: dict[str, str],
                  env: dict[str, str] | None = None) -> int:
    repo = make_clone(base)
    if kind == "data":
        os.symlink(reference_root(ROOT), base / "shared")
    before = files_of(repo)
    ran = 0
    for block in (b for b in BLOCKS if b.document == document):
        if block.skip and needs(block.skip) != kind:
            continue
        run_block(block, repo, before, substitutions, env, timeout=DATA_TIMEOUT if kind == "data" else 300)
        ran += bool(block.skip)
    return ran


@pytest.mark.slow
@pytest.mark.shared
@pytest.mark.parametrize("document", _cases("data"))
def test_examples_with_the_reference_data(document: str, tmp_path: Path) -> None:
    root = reference_root(ROOT)
    if not (root / "corpora").is_dir():
        pytest.skip(f"needs the reference data in {root} (${REFERENCE_DATA_ENV} or ../shared)")
    trains = any(b.document == document and b.skip and needs(b.skip) == "data" and "training/" in b.code
                 for b in BLOCKS)
    if trains and os.environ.get(TRAINING_ENV) != "1":
        pytest.skip(f"retrains a model (10-30 minutes on 2 cores): set {TRAINING_ENV}=1 to run it")
    assert _run_document(document, "data", tmp_path, {}, {REFERENCE_DATA_ENV: str(root)}) > 0


@pytest.mark.slow
@pytest.mark.parametrize("document", _cases("judge"))
def test_examples_with_a_judge_server(document: str, tmp_path: Path) -> None:
    pytest.importorskip("httpx")
    from tests.judge_server import JudgeServer  # noqa: PLC0415 (imports httpx's peers only where httpx is there)

    with JudgeServer(model="my-model") as server:
        assert _run_document(document, "judge", tmp_path, {JUDGE_ENDPOINT: server.url}) > 0
        assert server.problems == []


@pytest.mark.slow
@pytest.mark.parametrize("document", _cases("dask"))
def test_examples_with_a_dask_cluster(document: str, tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  host="127.0.0.1") as cluster:
        assert _run_document(document, "dask", tmp_path, {SCHEDULER: cluster.scheduler_address}) > 0


def test_every_marked_example_has_a_test() -> None:
    for block in BLOCKS:
        if block.skip and needs(block.skip) != "setup":
            assert _cases(needs(block.skip)), block.name
            if needs(block.skip) == "judge":
                assert JUDGE_ENDPOINT in block.code, f"{block.name}: show the endpoint as {JUDGE_ENDPOINT}"
            if needs(block.skip) == "dask":
                assert SCHEDULER in block.code, f"{block.name}: show the scheduler as {SCHEDULER}"

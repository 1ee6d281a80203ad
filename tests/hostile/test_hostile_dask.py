"""A Dask build does what a local build does with the same hostile corpus: an article whose PMCID another
article already has (forged, or a copy given twice) gets the next free id prefix (or is skipped as the same
article), with the same warning, and the manifest is written; the shards hold no path of the build machine
(an unreadable article's error row names it as the local build does), so the files are the same bytes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.hostile.cli_runner import CORPORA, chemref


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def _without_timings(manifest: bytes) -> dict:
    data = json.loads(manifest)
    data.pop("timings", None)
    return data


@pytest.mark.parametrize("shard_articles", ["1", "3"])
def test_a_forged_pmcid_does_to_a_dask_build_what_it_does_to_a_local_one(tmp_path: Path,
                                                                          shard_articles: str) -> None:
    distributed = pytest.importorskip("distributed")
    corpus = tmp_path / "in"
    corpus.mkdir()
    shutil.copyfile(CORPORA / "jats" / "sample_zinc_knuckle.xml", corpus / "a.xml")
    forged = (CORPORA / "jats" / "sample_laccase_kinetics.xml").read_text(encoding="utf-8")
    original = (CORPORA / "jats" / "sample_zinc_knuckle.xml").read_text(encoding="utf-8")
    pmcid = original.split('pub-id-type="pmcid">', 1)[1].split("<", 1)[0]
    theirs = forged.split('pub-id-type="pmcid">', 1)[1].split("<", 1)[0]
    (corpus / "b.xml").write_text(forged.replace(theirs, pmcid), encoding="utf-8")  # another article, same PMCID
    (corpus / "c_broken.xml").write_text("<article><front><article-meta></front></article>", encoding="utf-8")
    inputs = ("in", "in/a.xml")  # a.xml given twice: skipped the second time
    runs = {}
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, protocol="tcp://",
                                  host="127.0.0.1", dashboard_address=None) as cluster:
        for name, extra in (("local", ()), ("dask", ("--dask", cluster.scheduler_address))):
            proc = chemref("questions", "build", *inputs, "-o", f"{name}/", "--shard-articles", shard_articles,
                           "--no-progress", *extra, cwd=tmp_path, timeout=180)
            assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
            runs[name] = proc
    for proc in runs.values():
        assert "shares its id with in/a.xml" in proc.stderr and "given twice" in proc.stderr
    local, dask = _files(tmp_path / "local"), _files(tmp_path / "dask")
    assert local.keys() == dask.keys() and "manifest.json" in dask
    for name in local:
        if name != "manifest.json":
            assert local[name] == dask[name], name
    assert _without_timings(local["manifest.json"]) == _without_timings(dask["manifest.json"])
    for name, data in dask.items():
        assert str(tmp_path).encode() not in data, name  # no path of the build machine
    rows = [json.loads(line) for name, data in sorted(dask.items()) if name.startswith("articles-")
            for line in data.decode("utf-8").splitlines()]
    assert [row.get("id_prefix") for row in rows] == [pmcid, f"{pmcid}-2", None, None]
    assert rows[2]["error"].startswith("in/c_broken.xml:") and rows[3]["skipped"] == "duplicate"

"""Question ids stay unique when a PMC ``<articles>`` file holds two different articles with the same PMCID: the
repeat is named by its place in the file (``-a<n>``), with a warning, locally and on Dask alike; a bundle
whose PMCID another input already has gets a new prefix per article; the build's files are then read back by
``judge prepare`` and ``review``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.hostile.cli_runner import chemref

SENTENCE = ("The photocatalytic reduction of carbon dioxide on copper-doped titania was shown to depend strongly on "
            "the oxidation state of the copper species and on the dispersion of the metal over the support surface")


def _article(pmcid: str, title: str, refs: int) -> str:
    """One CC BY JATS article (no XML declaration) whose every paragraph cites one reference."""
    body = "".join(f'<p>{SENTENCE} <xref ref-type="bibr" rid="R{i}">{i}</xref>. Further results were obtained '
                   "with other supports in this study.</p>" for i in range(1, refs + 1))
    ref_list = "".join(
        f'<ref id="R{i}"><label>{i}</label><element-citation publication-type="journal"><person-group '
        f'person-group-type="author"><name><surname>Author{i}</surname><given-names>A</given-names></name>'
        f"</person-group><article-title>Catalytic study number {i} of {title} on titania surfaces</article-title>"
        f'<source>J Chem</source><year>2019</year><pub-id pub-id-type="doi">10.1000/{title}.{i}</pub-id>'
        "</element-citation></ref>" for i in range(1, refs + 1))
    return (f'<article xmlns:xlink="http://www.w3.org/1999/xlink" article-type="research-article"><front>'
            f'<article-meta><article-id pub-id-type="pmcid">{pmcid}</article-id><title-group><article-title>'
            f'{title}</article-title></title-group><pub-date><year>2020</year></pub-date><permissions><license '
            'xlink:href="https://creativecommons.org/licenses/by/4.0/"><license-p>CC BY 4.0</license-p></license>'
            f'</permissions></article-meta></front><body><sec><title>Introduction</title>{body}</sec></body>'
            f"<back><ref-list>{ref_list}</ref-list></back></article>")


def _bundle(*articles: str) -> str:
    return '<?xml version="1.0" encoding="UTF-8"?>\n<articles>' + "".join(articles) + "</articles>"


def _same_pmcid(folder: Path) -> Path:
    """An ``<articles>`` file whose two (different) articles both have the PMCID PMC100."""
    path = folder / "two.xml"
    path.write_text(_bundle(_article("PMC100", "first", 2), _article("PMC100", "second", 3)), encoding="utf-8")
    return path


def _ids(path: Path) -> list[str]:
    return [json.loads(line)["id"] for line in path.read_text(encoding="utf-8").splitlines()]


def _build(tmp_path: Path, out: str, *inputs: str, extra: tuple[str, ...] = ()) -> tuple[list[str], str]:
    proc = chemref("questions", "build", *inputs, "-o", f"{out}/q.jsonl", "--min-score", "0", "--no-progress",
                   *extra, cwd=tmp_path, timeout=180)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    return _ids(tmp_path / out / "q.jsonl"), proc.stderr


def test_two_articles_sharing_a_pmcid_in_one_file_get_ids_of_their_own(tmp_path: Path) -> None:
    _same_pmcid(tmp_path)
    ids, stderr = _build(tmp_path, "out", "two.xml")
    assert len(ids) == len(set(ids)) == 5, ids
    assert [i.rsplit("-p", 1)[0] for i in ids] == ["PMC100"] * 2 + ["PMC100-a2"] * 3, ids
    assert "have the PMCID of an earlier one" in stderr and "PMC100-a2-..." in stderr, stderr
    for command in (("judge", "prepare", "out/q.jsonl", "--model", "m", "-o", "out/req.jsonl"),
                    ("review", "out/q.jsonl", "-o", "out/review.html")):
        proc = chemref("questions", *command, cwd=tmp_path)
        assert proc.returncode == 0, proc.stderr


def test_a_bundle_meeting_a_pmcid_of_another_input_gets_new_prefixes(tmp_path: Path) -> None:
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a_single.xml").write_text(_article("PMC100", "single", 1), encoding="utf-8")
    bundle = _bundle(_article("PMC100", "first", 1), _article("PMC200", "second", 1))
    (tmp_path / "in" / "b_bundle.xml").write_text(bundle, encoding="utf-8")
    ids, stderr = _build(tmp_path, "out", "in")
    assert len(ids) == len(set(ids)), ids
    assert [i.rsplit("-p", 1)[0] for i in ids] == ["PMC100", "PMC100-2-a1", "PMC100-2-a2"], ids
    assert "shares its id with in/a_single.xml" in stderr, stderr


def test_an_ordinary_bundle_keeps_its_pmcids(tmp_path: Path) -> None:
    (tmp_path / "w.xml").write_text(_bundle(_article("PMC100", "first", 1), _article("PMC200", "second", 1)),
                                    encoding="utf-8")
    ids, stderr = _build(tmp_path, "out", "w.xml")
    assert [i.rsplit("-p", 1)[0] for i in ids] == ["PMC100", "PMC200"], ids
    assert "warning" not in stderr, stderr


def test_a_dask_build_names_the_repeat_as_a_local_build_does(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    _same_pmcid(tmp_path)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, protocol="tcp://",
                                  host="127.0.0.1", dashboard_address=None) as cluster:
        dask, dask_err = _build(tmp_path, "dask", "two.xml", extra=("--dask", cluster.scheduler_address))
    local, _ = _build(tmp_path, "local", "two.xml")
    assert dask == local and len(set(dask)) == len(dask), (dask, local)
    assert (tmp_path / "dask" / "q.jsonl").read_bytes() == (tmp_path / "local" / "q.jsonl").read_bytes()
    assert "have the PMCID of an earlier one" in dask_err, dask_err

"""read / read_many / the CLI: errors name file, line and column; no DTD, no network; order is kept."""

from __future__ import annotations

import contextlib
import io
import json
import pickle
import subprocess
import sys

import pytest
from tests.jats_helpers import article, numbered_refs, paragraph_article, x

import chemref.jats as jats
from chemref import read_jats
from chemref.cli import main
from chemref.errors import JatsError

GOOD = paragraph_article(f"Known [{x('B1', '1')}&#x02013;{x('B3', '3')}].", n_refs=3)


@pytest.fixture()
def files(tmp_path):
    paths = []
    for i in range(5):
        path = tmp_path / f"a{i}.nxml"
        path.write_bytes(article(f"<sec><title>Results</title><p>Article {i} [{x('B1', '1')}]</p></sec>",
                                 numbered_refs(1)))
        paths.append(path)
    return paths


ERROR_CASES = [
    pytest.param(b"", "empty file", None, id="empty"),
    pytest.param(b"<article><body><p>x</body></article>", "malformed XML", 1, id="mismatched-tag"),
    pytest.param(b"<?xml version='1.0'?>\n<article>\n<body><p>x &nbsp; y</p></body></article>", "malformed XML", 3,
                 id="undefined-entity-without-dtd"),
    pytest.param(b"<html><body/></html>", "no <article> element", 1, id="not-jats"),
    pytest.param(GOOD[:200], "malformed XML", 1, id="truncated"),
]


@pytest.mark.parametrize("data, message, line", ERROR_CASES)
def test_bad_input_raises_jats_error(data: bytes, message: str, line: int | None) -> None:
    with pytest.raises(JatsError) as info:
        read_jats(data, name="bad.nxml")
    assert message in str(info.value) and "bad.nxml" in str(info.value)
    assert info.value.line == line


def test_safety_limits() -> None:
    deep = b"<article><body><p>" + b"<italic>" * 300 + b"x" + b"</italic>" * 300 + b"</p></body></article>"
    with pytest.raises(JatsError, match="safety limits"):
        read_jats(deep)
    ok = b"<article><body><p>" + b"<italic>" * 200 + b"x" + b"</italic>" * 200 + b"</p></body></article>"
    assert read_jats(ok).sections[0].paragraphs[0].text == "x"
    laughs = (b'<?xml version="1.0"?><!DOCTYPE article [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;">'
              b'<!ENTITY c "&b;&b;&b;&b;&b;">]><article><body><p>&c;</p></body></article>')
    assert read_jats(laughs).sections[0].paragraphs[0].text == "&c;"  # never expanded


def test_missing_file_and_directory(tmp_path) -> None:
    with pytest.raises(JatsError, match="no such file"):
        read_jats(tmp_path / "nope.nxml")
    with pytest.raises(JatsError, match="directory"):
        read_jats(tmp_path)


def test_external_entities_and_dtd_are_never_loaded(tmp_path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP SECRET")
    data = (f'<?xml version="1.0"?><!DOCTYPE article [<!ENTITY xxe SYSTEM "file://{secret}">]>'
            '<article><body><p>leak: &xxe;</p></body></article>').encode()
    art = read_jats(data)
    assert "TOP SECRET" not in json.dumps(art.to_dict())


def test_dtd_url_in_doctype_is_not_fetched() -> None:
    # every dev file names an http DTD; reading must neither fetch it nor fail on it
    art = read_jats(GOOD)
    assert art.sections[0].paragraphs[0].citations[0].ref_ids == ("B1", "B2", "B3")


def test_wrapper_root_and_metadata() -> None:
    meta = ('<article-id pub-id-type="pmc">12345</article-id><article-id pub-id-type="pmid">999</article-id>'
            '<article-id pub-id-type="doi">10.1000/ABC</article-id><title-group><article-title>H<sub>2</sub>O '
            'study</article-title></title-group><pub-date pub-type="collection"><year>2019</year></pub-date>'
            '<pub-date pub-type="epub"><year>2018</year></pub-date>')
    data = b"<pmc-articleset>" + article("<p>x</p>", meta=meta).split(b"?>", 1)[1] + b"</pmc-articleset>"
    data = data.replace(b"<!DOCTYPE", b"<!-- ").replace(b'.dtd">', b'.dtd -->', 1)
    art = read_jats(data)
    assert (art.pmcid, art.pmid, art.doi, art.title, art.journal, art.year) == (
        "PMC12345", "999", "10.1000/abc", "H2O study", "J Test", 2018)


def test_no_body_and_sub_articles_are_diagnosed() -> None:
    data = article("<p>x</p>").replace(b"<body><p>x</p></body>", b"").replace(
        b"</article>", b"<sub-article><body><p>Decision letter</p></body></sub-article></article>")
    codes = [d.code for d in read_jats(data).diagnostics]
    assert codes == ["no-body", "sub-article-ignored"]


def test_article_pickles_and_serialises() -> None:
    art = read_jats(GOOD, name="good.nxml")
    assert pickle.loads(pickle.dumps(art)) == art
    data = json.loads(json.dumps(art.to_dict()))
    assert data["file"] == "good.nxml"
    assert data["sections"][0]["paragraphs"][0]["citations"][0] == {
        "start": 7, "end": 10, "text": "1–3", "ref_ids": ["B1", "B2", "B3"], "expanded": ["B2"]}
    assert jats.Article.from_dict(data) == art
    assert set(data) >= {"file", "pmcid", "pmid", "doi", "title", "journal", "year", "license", "sections",
                         "references", "diagnostics"}


@pytest.mark.parametrize("workers", [1, 2])
def test_read_many_keeps_input_order(files, workers: int) -> None:
    titles = [a.sections[0].paragraphs[0].text for a in jats.read_many(files, workers=workers)]
    assert titles == [f"Article {i} [1]" for i in range(5)]


def test_read_many_errors(files, tmp_path) -> None:
    bad = tmp_path / "bad.nxml"
    bad.write_bytes(b"<article><body>")
    paths = [files[0], bad, files[1]]
    with pytest.raises(JatsError, match="bad.nxml"):
        list(jats.read_many(paths))
    errors: list[JatsError] = []
    got = list(jats.read_many(paths, workers=2, on_error="skip", errors=errors))
    assert [a.file for a in got] == [str(files[0]), str(files[1])]
    assert len(errors) == 1 and errors[0].path == str(bad) and errors[0].line == 1
    with pytest.warns(UserWarning, match="bad.nxml"):
        list(jats.read_many(paths, on_error="skip"))


@pytest.mark.slow
def test_no_spacy_import() -> None:
    code = ("import sys, chemref; chemref.read_jats(" + repr(GOOD) + "); import chemref.cli.jats; "
            "assert 'spacy' not in sys.modules, 'spacy imported'")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_cli_table_json_and_output(files, tmp_path, capsys) -> None:
    assert main(["jats", str(files[0]), str(files[1])]) == 0
    out = capsys.readouterr().out
    assert "a0.nxml" in out and "total (2 articles)" in out and "with_doi" in out
    assert main(["jats", "--json", *map(str, files)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [json.loads(line)["file"] for line in lines] == [str(p) for p in files]
    inside = tmp_path / "out" / "articles.jsonl"  # inside the input folder: refused
    assert main(["jats", "--json", "-o", str(inside), "--workers", "2", str(files[0].parent)]) == 2
    assert "inside the input folder" in capsys.readouterr().err and not inside.parent.exists()
    target = tmp_path.with_name(tmp_path.name + "-out") / "articles.jsonl"
    assert main(["jats", "--json", "-o", str(target), "--workers", "2", str(files[0].parent)]) == 0
    assert len(target.read_text().splitlines()) == 5


def test_cli_errors(files, tmp_path, capsys) -> None:
    bad = tmp_path / "bad.nxml"
    bad.write_bytes(b"<article><body>")
    target = tmp_path / "o.jsonl"
    assert main(["jats", "--json", "-o", str(target), str(files[0]), str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("chemref: error: ") and "bad.nxml:1" in err and "Traceback" not in err
    # the articles that were read are written, as on standard output; the exit status says one was not
    assert [json.loads(line)["file"] for line in target.read_text().splitlines()] == [str(files[0])]
    assert "1 input could not be read" in err
    target.write_text("previous\n")
    assert main(["jats", "--json", "-o", str(target), str(bad)]) == 2
    assert target.read_text() == "previous\n"  # nothing read: an earlier output is left as it was
    assert main(["jats", str(tmp_path / "missing.nxml")]) == 2
    assert "no such file" in capsys.readouterr().err


def test_hand_written_article_with_every_form() -> None:
    from tests.helpers import ROOT
    from benchmarks.golden.jats_independent import count_file

    path = ROOT / "tests" / "data" / "jats" / "citation_forms.nxml"
    art = read_jats(path)
    got = [(s.kind, a.text, a.ref_ids) for s, p in art.paragraphs() for a in p.citations]
    assert got == [
        ("introduction", "1", ("R1",)), ("introduction", "2–4", ("R2", "R3", "R4")),
        ("introduction", "1-3", ("R1", "R2", "R3")), ("introduction", "4–6", ("R4", "R5", "R6")),
        ("introduction", "5", ("R5",)), ("introduction", "1,2", ("R1", "R2")),
        ("methods", "Goodenough and Kim, 2010", ("R6",)),
    ]
    assert [(r.id, r.doi_source) for r in art.references] == [
        ("R1", "pub-id"), ("R2", "comment"), ("R3", "text"), ("R4", "ext-link"), ("R5", None), ("R6", "pub-id")]
    assert (art.pmcid, art.doi, art.title, art.year, art.license.cc_by) == (
        "PMC0000001", "10.9999/jtc.2024.001", "CO2 reduction on Cu2+ sites", 2024, True)
    count = count_file(path)
    assert {(p.path, r) for _, p in art.paragraphs() for a in p.citations for r in a.ref_ids} == count.pairs
    assert {r.id: r.doi for r in art.references if r.doi} == count.dois


def test_cli_progress_bar(files, tmp_path) -> None:
    """``--progress`` shows the bar on any stderr (a pipe here); the automatic default only on a terminal."""
    from chemref.jats.report import run

    err = io.StringIO()
    target = tmp_path / "p.jsonl"
    with contextlib.redirect_stderr(err):
        assert run(files, as_json=True, output=str(target), progress=True) == []
    assert f"/{len(files)} [" in err.getvalue() and "article" in err.getvalue()
    quiet = io.StringIO()
    with contextlib.redirect_stderr(quiet):
        assert run(files, as_json=True, output=str(target), progress=False) == []
    assert quiet.getvalue() == ""
    assert len(target.read_text().splitlines()) == len(files)


# -- Article.to_dict / from_dict: every field, through JSON ---------------------------------------------------
from hypothesis import given, settings, strategies as st  # noqa: E402

_text = st.text(max_size=12)
_maybe_text = st.none() | _text
_maybe_int = st.none() | st.integers(min_value=0, max_value=10**6)
_ids = st.lists(_text, max_size=3).map(tuple)
_anchor = st.builds(jats.CitationAnchor, st.integers(0, 99), st.integers(0, 99), _text, _ids, _ids)
_format = st.builds(jats.FormatRange, st.integers(0, 99), st.integers(0, 99), _text)
_paragraph = st.builds(jats.Paragraph, _text, st.lists(_anchor, max_size=2).map(tuple),
                       st.lists(_format, max_size=2).map(tuple), st.booleans(), _maybe_int, _text, _maybe_text)
_section = st.recursive(
    st.builds(jats.Section, _text, _text, st.lists(_paragraph, max_size=2).map(tuple)),
    lambda inner: st.builds(jats.Section, _text, _text, st.lists(_paragraph, max_size=2).map(tuple),
                            st.lists(inner, max_size=2).map(tuple)),
    max_leaves=4)
_reference = st.builds(jats.Reference, _text, _maybe_text, _maybe_text, _maybe_text, _maybe_text, _ids, _maybe_int,
                       st.booleans(), _ids, _maybe_text, _maybe_int, _maybe_text, _maybe_text,
                       st.lists(_maybe_text, max_size=3).map(tuple))
_sections = st.lists(_section, max_size=2).map(tuple)
_author = st.builds(jats.Author, _maybe_text, _maybe_text, _maybe_text, _ids, st.booleans(), st.booleans(),
                    _maybe_text, st.booleans())
_date = st.builds(jats.ArticleDate, _text, _text, _maybe_text, _maybe_text)
_funding = st.builds(jats.Funding, _ids, st.lists(st.builds(jats.Award, _ids, _ids), max_size=2).map(tuple))
_article = st.builds(
    jats.Article, _maybe_text, _maybe_text, _maybe_text, _maybe_text, _maybe_text, _maybe_text, _maybe_int,
    st.builds(jats.License, _maybe_text, _maybe_text, st.booleans()), _sections,
    st.lists(_reference, max_size=3).map(tuple),
    st.lists(st.builds(jats.Diagnostic, _text, _text, _maybe_int), max_size=2).map(tuple), _sections, _sections,
    _maybe_text, _maybe_text, st.lists(_author, max_size=3).map(tuple), _ids, _ids,
    st.lists(_date, max_size=3).map(tuple), _funding, _maybe_text)


@settings(max_examples=60)
@given(_article)
@pytest.mark.slow
def test_to_dict_and_from_dict_round_trip_every_field(article: jats.Article) -> None:
    assert jats.Article.from_dict(json.loads(json.dumps(article.to_dict()))) == article


def test_a_reused_parser_reports_each_files_own_error() -> None:
    """The parser is kept from file to file (its name dictionary is reused): a file read after a broken one, or
    after one declaring entities, reads as it does alone, and each error names its own line."""
    alone = read_jats(GOOD).to_dict()
    for bad, line in ((b"<article>\n\n<body><p>x</body></article>", 3), (b"<article><body>", 1)):
        with pytest.raises(JatsError) as first:
            read_jats(bad, name="bad.nxml")
        assert read_jats(GOOD).to_dict() == alone
        with pytest.raises(JatsError) as again:
            read_jats(bad, name="bad.nxml")
        assert first.value.line == again.value.line == line
    laughs = (b'<?xml version="1.0"?><!DOCTYPE article [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;">]>'
              b'<article><body><p>&b;</p></body></article>')
    assert read_jats(laughs).sections[0].paragraphs[0].text == "&b;"
    assert read_jats(GOOD).to_dict() == alone


def test_read_errors_cross_process_boundaries_after_dask_is_imported(tmp_path) -> None:
    # distributed installs tblib's exception pickling, which keeps __context__ (lxml's error log, unpicklable):
    # a file's JatsError must still reach the parent from a worker
    pytest.importorskip("tblib")
    import subprocess
    import sys

    bad = tmp_path / "bad.nxml"
    bad.write_bytes(b"<article><body>")
    code = ("import pickle, sys\nfrom chemref.inputs.source import Source\nfrom chemref.jats.reader import _Task\n"
            "import tblib.pickling_support\ntblib.pickling_support.install()\n"
            "result = _Task()(Source(path=sys.argv[1], label='bad.nxml'))\n"
            "print(type(pickle.loads(pickle.dumps(result))[0][1]).__name__)\n")
    proc = subprocess.run([sys.executable, "-c", code, str(bad)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "JatsError"

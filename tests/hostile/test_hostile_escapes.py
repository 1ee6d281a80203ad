"""Text from the input that a terminal, a Markdown renderer or an HTTP client would act on: terminal and
bidirectional controls in JSON output, HTML and links in Markdown table cells, request URLs that cannot be sent,
and a gold ``.txt`` that is not UTF-8 (offsets counted in another text). Each CLI case runs under a 1 GB
address-space limit (tests/hostile/cli_runner.py)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from benchmarks.golden import hostile_recipes as recipes
from chemref.jsonl import json_line, json_text
from chemref.questions.judge.client import Request, run_requests
from tests.hostile.cli_runner import CORPORA, assert_refused, chemref

#: C1 controls (U+009B is CSI: a terminal escape), bidirectional overrides and isolates, line separators
ACTING = "\x85\x9b31m\x9d0;title\x07\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u2028\u2029"


# -- JSON and JSON Lines: escaped, read back the same
@pytest.mark.parametrize("indent", [None, 1])
def test_json_text_escapes_what_a_terminal_acts_on_and_reads_back_the_same(indent: int | None) -> None:
    value = {f"k{ACTING}": [f"a{ACTING}b é 中 \U0001f600", 1], "plain": "ascii"}
    for text in (json_text(value, indent=indent), json_line(value)):
        assert not any(ch in text for ch in ACTING if not ch.isascii() or not ch.isprintable()), ascii(text)
        assert "\\u009b" in text and "\\u202e" in text and "é 中 \U0001f600" in text  # other text kept as is
        assert json.loads(text) == value
    assert json_line(value).count("\n") == 1


def test_jats_json_sends_no_c1_or_bidi_control_to_the_terminal(tmp_path: Path) -> None:
    article = recipes.jats_article("Yields rose to 95 % \x9b31mred\u202eevil [CIT] under the same conditions.")
    (tmp_path / "a.xml").write_text(article.replace("A hostile article", "Title \x9b2J\u202e"), encoding="utf-8")
    proc = chemref("jats", "a.xml", "--json", "--no-progress", cwd=tmp_path, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "\x9b" not in proc.stdout and "\u202e" not in proc.stdout
    row = json.loads(proc.stdout)
    assert "\x9b2J\u202e" in row["title"]  # the data is unchanged


def test_score_report_json_escapes_a_c1_control_in_a_type_name(tmp_path: Path) -> None:
    shutil.copytree(CORPORA / "brat" / "gold", tmp_path / "gold")
    shutil.copytree(CORPORA / "brat" / "pred", tmp_path / "pred")
    ann = tmp_path / "pred" / "r001.ann"
    ann.write_text(ann.read_text(encoding="utf-8") + "T900\tX\x9b2J\u202e 0 1\tx\n", encoding="utf-8")
    proc = chemref("score", "brat", "gold", "pred", "--json", cwd=tmp_path, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "\x9b" not in proc.stdout and "\u202e" not in proc.stdout
    assert "X\x9b2J\u202e" in json.dumps(json.loads(proc.stdout), ensure_ascii=False)


# -- Markdown: every table cell through one escaper
HOSTILE_NAMES = ["<img src=x onerror=alert(1)>", "**bold**[l](javascript:alert(1))"]


def test_ranking_markdown_escapes_html_and_links_in_run_names(tmp_path: Path) -> None:
    runs = []
    for name in HOSTILE_NAMES:
        (tmp_path / f"{name}.run").write_text("q1 Q0 d1 1 9 x\nq1 Q0 d4 2 8 x\n")
        runs.append(f"{name}.run")
    proc = chemref("score", "ranking", "--format", "trec", CORPORA / "ranking" / "qrels.txt", *runs, "--markdown",
                   cwd=tmp_path, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "<img" not in proc.stdout and not re.search(r"(?<!\\)\]\(", proc.stdout)  # no tag, no link
    assert "&lt;img src=x onerror=alert(1)&gt;" in proc.stdout and "\\[l\\](javascript:alert(1))" in proc.stdout


# -- requests: a url that cannot be sent is refused when the file is read
@pytest.mark.parametrize("url", ["/v1/chat/completions\r\nX-Injected: 1", "/v1/\x00x", "/v1/" + "a" * 100_000,
                                 "/v1/chat completions", "/v1/\x9b"],
                         ids=["crlf", "nul", "100k", "space", "c1"])
def test_a_request_url_that_cannot_be_sent_is_one_error_line(tmp_path: Path, url: str) -> None:
    row = {"custom_id": "q1", "method": "POST", "url": url, "body": {"model": "m", "messages": []}}
    (tmp_path / "requests.jsonl").write_text(json.dumps(row) + "\n")
    proc = chemref("questions", "judge", "run", "requests.jsonl", "--endpoint", "http://127.0.0.1:9",
                   "--no-progress", "-o", "out.jsonl", cwd=tmp_path, timeout=60)
    assert_refused(proc, "requests.jsonl:1", "url must be a path")
    assert len(proc.stderr) < 1000
    assert not (tmp_path / "out.jsonl").exists()


def test_a_url_httpx_refuses_is_an_error_line_for_that_request(tmp_path: Path) -> None:
    pytest.importorskip("httpx")
    requests = [Request("bad", "/v1/\x00x", {"model": "m"}, 1)]
    summary = run_requests(requests, tmp_path / "out.jsonl", endpoint="http://127.0.0.1:9", progress=False,
                           max_retries=3, first_wait=0)
    row = json.loads((tmp_path / "out.jsonl").read_text(encoding="utf-8"))
    assert summary.failed["connection"] == 1 and summary.retries == 0
    assert row["custom_id"] == "bad" and row["error"]["message"].startswith("InvalidURL")


# -- a gold .txt is UTF-8, as a gold .ann is
@pytest.mark.parametrize("encode", [lambda t: t.encode("utf-16"), lambda t: t.encode("utf-16-le"),
                                    lambda t: t.encode("utf-8")[:10] + b"\xff" + t.encode("utf-8")[10:]],
                         ids=["utf16-bom", "utf16-no-bom", "stray-byte"])
@pytest.mark.parametrize("flag", [("--errors",), ("--html", "page.html")], ids=["errors", "html"])
def test_a_gold_txt_that_is_not_utf8_is_an_error(work: Path, encode, flag: tuple[str, ...]) -> None:  # type: ignore[no-untyped-def]
    txt = work / "gold" / "r001.txt"
    txt.write_bytes(encode(txt.read_text(encoding="utf-8")))
    proc = chemref("score", "brat", "gold", "pred", *flag, cwd=work, timeout=60)
    assert_refused(proc, "r001.txt")
    assert not (work / "page.html").exists()


def test_a_prediction_txt_that_is_not_utf8_stays_a_warning(work: Path) -> None:
    (work / "gold" / "r001.txt").unlink()  # the prediction's .txt is the one read
    txt = work / "pred" / "r001.txt"
    if not txt.exists():
        shutil.copyfile(CORPORA / "brat" / "gold" / "r001.txt", txt)
    txt.write_bytes(txt.read_bytes()[:10] + b"\xff" + txt.read_bytes()[10:])
    proc = chemref("score", "brat", "gold", "pred", "--errors", cwd=work, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "not UTF-8" in proc.stderr and "r001.txt" in proc.stderr

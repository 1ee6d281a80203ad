"""The human-baseline page: it never holds an answer, survives hostile excerpts, and what a person exports from it
in a real browser (headless Chromium, as tests/test_pages_browser.py drives it) is scored by ``chemref score
questions`` as it is."""

from __future__ import annotations

import json
import re
from html import unescape
from pathlib import Path

import pytest

from chemref.cli import main
from chemref.jsonl import read_jsonl
from tests.helpers import ROOT

SAMPLES = ROOT / "corpora" / "jats"
HOSTILE = ('Copper </script><script>window.__planted = 1</script> <img src="x" onerror="window.__planted = 2"> '
           '<!-- and --> ends [CITATION] here \u2028 too.')


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict]]:
    """The sample articles' candidates that reach the selector, as a question file, and its page."""
    tmp = tmp_path_factory.mktemp("baseline_page")
    questions = tmp / "questions.jsonl"
    assert main(["questions", "build", str(SAMPLES), "-o", str(questions), "--min-score", "0"]) == 0
    page = tmp / "page.html"
    assert main(["questions", "baseline-page", str(questions), "-o", str(page)]) == 0
    return page, [row for _, row in read_jsonl(questions)]


def _page_data(html: str) -> dict:
    found = re.search(r'<script type="application/json" id="page-data">(.*?)</script>', html, re.DOTALL)
    assert found is not None
    return json.loads(found.group(1))


def test_the_page_holds_no_answer(built) -> None:
    page, records = built
    html = page.read_text(encoding="utf-8")
    data = _page_data(html)
    assert [sorted(q) for q in data["questions"]] == [["excerpt", "id"]] * len(records)
    excerpts = " ".join(r["excerpt"] for r in records)
    for record in records:
        for value in (record["target_title"], record["target_doi"], record["target_pmid"], record["target_container"],
                      record["sentence"]):
            if value:
                assert value not in html and json.dumps(value)[1:-1] not in html, value
        for surname in record["target_authors"] or ():
            if len(surname) >= 4 and surname not in excerpts:
                assert surname not in html, surname


def test_a_repeated_id_or_an_empty_file_is_a_clear_error(tmp_path: Path, capsys) -> None:
    questions = tmp_path / "q.jsonl"
    questions.write_text('{"id": "a", "excerpt": "x [CITATION]."}\n' * 2, encoding="utf-8")
    assert main(["questions", "baseline-page", str(questions), "-o", str(tmp_path / "p.html")]) == 2
    assert "given twice" in capsys.readouterr().err
    questions.write_text("", encoding="utf-8")
    assert main(["questions", "baseline-page", str(questions), "-o", str(tmp_path / "p.html")]) == 2
    assert "no questions" in capsys.readouterr().err
    assert not (tmp_path / "p.html").exists()


def test_the_script_is_allowed_by_its_hash(built) -> None:
    from chemref.pages.human_baseline import script_hash

    html = built[0].read_text(encoding="utf-8")
    scripts = re.findall(r"<script>(.*?)</script>", html, re.DOTALL)
    assert len(scripts) == 1
    policy = unescape(re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', html).group(1))
    assert policy.startswith("default-src 'none';")
    assert f"script-src {script_hash(scripts[0])};" in policy


# ----------------------------------------------------------------- in a real browser
browser_tests = pytest.mark.slow


@pytest.fixture(scope="module")
def browser():
    from tests.test_pages_browser import CHROMIUM_ARGS, _chromium

    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install playwright)")
    executable = _chromium()
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield b
        b.close()


def _open(browser, page_file: Path, tmp: Path):
    from tests.test_pages_browser import Opened

    return Opened(browser, page_file, downloads=True)


@browser_tests
def test_answer_reload_export_and_score(browser, built, tmp_path: Path) -> None:
    page_file, records = built
    opened = _open(browser, page_file, tmp_path)
    page = opened.page
    try:
        assert opened.errors == [] and opened.requests == []
        by_id = {r["id"]: r for r in records}
        first = page.locator("#qid").text_content().split(" ")[0]
        assert page.locator("#excerpt").text_content() == by_id[first]["excerpt"]
        page.fill("#answer", by_id[first]["target_title"])  # the right title
        page.press("#answer", "Enter")
        second = page.locator("#qid").text_content().split(" ")[0]
        assert second != first
        page.fill("#answer", "https://doi.org/" + by_id[second]["target_doi"].upper())  # the right DOI, as a link
        page.click("#submit")
        page.wait_for_timeout(1200)  # a second on the third question: counted
        third = page.locator("#qid").text_content().split(" ")[0]
        page.click("#giveup")
        assert page.locator("#answered").text_content().startswith("3 of ")

        page.reload()  # progress survives
        page.wait_for_selector("body[data-ready]")
        assert page.locator("#answered").text_content().startswith("3 of ")
        fourth = page.locator("#qid").text_content().split(" ")[0]
        assert fourth not in (first, second, third)
        page.fill("#answer", "A title nobody wrote")
        page.click("#submit")

        with page.expect_download() as info:
            page.click("#export")
        predictions = tmp_path / "predictions.jsonl"
        info.value.save_as(predictions)
        rows = [row for _, row in read_jsonl(predictions)]
        assert [row["id"] for row in rows] == [r["id"] for r in records if r["id"] in (first, second, third, fourth)]
        assert all(isinstance(row["seconds"], (int, float)) and row["seconds"] >= 0 for row in rows)
        answered = {row["id"]: row for row in rows}
        assert answered[first]["titles"] == [by_id[first]["target_title"]]
        assert answered[second]["dois"] == [by_id[second]["target_doi"].upper()]  # the DOI out of the link
        assert answered[third]["titles"] == [] and answered[third]["gave_up"] is True
        assert answered[third]["seconds"] >= 1.0
        assert opened.errors == []
    finally:
        opened.close()

    gold = tmp_path / "gold.jsonl"
    gold.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    report = tmp_path / "score.json"
    assert main(["score", "questions", str(gold), str(predictions), "--json", "-o", str(report)]) == 0
    scored = json.loads(report.read_text(encoding="utf-8"))
    assert scored["accuracy@1"] == pytest.approx(2 / len(records), abs=1e-4)


@browser_tests
def test_hostile_excerpts_stay_text(browser, tmp_path: Path) -> None:
    questions = tmp_path / "questions.jsonl"
    questions.write_text(json.dumps({"id": "</script>", "excerpt": HOSTILE}) + "\n"
                         + json.dumps({"id": "b", "excerpt": "<b>bold</b> & [CITATION] \"quoted\" 'x'"}) + "\n",
                         encoding="utf-8")
    page_file = tmp_path / "page.html"
    assert main(["questions", "baseline-page", str(questions), "-o", str(page_file)]) == 0
    opened = _open(browser, page_file, tmp_path)
    try:
        page = opened.page
        assert page.evaluate("window.__planted") is None
        assert page.locator("#excerpt").text_content() == HOSTILE
        assert page.locator("img").count() == 0
        page.click("#giveup")
        assert page.locator("#excerpt").text_content() == "<b>bold</b> & [CITATION] \"quoted\" 'x'"
        assert opened.errors == [] and opened.requests == []
    finally:
        opened.close()

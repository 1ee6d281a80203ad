"""The HTML pages in a real browser, on the samples shipped in corpora/ (no reference data needed).

What a first reader of each page needs: the BRAT error page shows the primary figure and opens on the relation
view it is computed from, its sticky filter bar never covers the place a link jumps to, and a prediction nested
in a gold mention it does not match stays readable; the review page links DOIs, says which references a
``one_citation`` reject cites, uses the page's width, and exports labels with their ``excerpt_sha1``.
Screenshots are written beside each test's files (``CHEMREF_SCREENSHOTS=folder`` keeps a copy there).
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from tests.helpers import CORPORA, ROOT
from tests.test_pages_browser import Opened, browser  # noqa: F401  (the Chromium fixture and page wrapper)

pytestmark = pytest.mark.slow


def _screenshot(page, path: Path) -> None:
    page.screenshot(path=str(path), full_page=False)
    keep = os.environ.get("CHEMREF_SCREENSHOTS")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(keep) / path.name)


@pytest.fixture(scope="module")
def sample_error_page(tmp_path_factory):
    from chemref.cli import main

    tmp = tmp_path_factory.mktemp("sample_error_page")
    page, report = tmp / "errors.html", tmp / "report.json"
    assert main(["score", "brat", str(CORPORA / "brat" / "gold"), str(CORPORA / "brat" / "pred"), "--json",
                 "-o", str(report), "--html", str(page)]) == 0
    return page, json.loads(report.read_text(encoding="utf-8")), tmp


def test_error_page_shows_the_primary_figure_and_opens_on_its_view(browser, sample_error_page):  # noqa: F811
    page_file, report, tmp = sample_error_page
    opened = Opened(browser, page_file)
    page = opened.page
    try:
        assert opened.errors == []
        primary = report["meta"]["primary"].split(" ")[0]
        assert page.text_content("#primary b") == f"{report['meta']['primary_value']:.4f}"
        assert page.get_attribute("table.sum.primary", "data-report") == primary
        assert page.locator("table.sum.primary td.pf").text_content() == f"{report['meta']['primary_value']:.4f}"
        assert page.evaluate("() => { const s = document.getElementById('rel-view'); "
                             "return s.options[s.selectedIndex].text; }") == primary
        _screenshot(page, tmp / "sample_errors_top.png")
    finally:
        opened.close()


def test_error_page_link_targets_are_not_under_the_sticky_bar(browser, sample_error_page):  # noqa: F811
    page_file, _, tmp = sample_error_page
    opened = Opened(browser, page_file)
    page = opened.page
    try:
        page.set_viewport_size({"width": 900, "height": 500})  # a narrow window: the bar wraps onto more lines
        page.wait_for_timeout(100)
        link = page.locator("section.doc").last.locator(".rels a[data-m]").first
        link.click()
        page.wait_for_timeout(300)
        target = link.get_attribute("href").lstrip("#")
        bar_bottom = page.evaluate("() => document.getElementById('controls').getBoundingClientRect().bottom")
        target_top = page.evaluate(f"() => document.getElementById('{target}').getBoundingClientRect().top")
        assert target_top >= bar_bottom, (target_top, bar_bottom)
        index_top = page.evaluate("() => document.getElementById('index').getBoundingClientRect().top")
        assert index_top >= bar_bottom - 1
        _screenshot(page, tmp / "sample_errors_jump.png")
    finally:
        opened.close()


def test_error_page_prediction_inside_a_gold_mention_keeps_its_colour(browser, sample_error_page):  # noqa: F811
    page_file, _, tmp = sample_error_page
    opened = Opened(browser, page_file)
    page = opened.page
    try:
        nested = page.locator("section.doc").first.locator(".txt span.m.k-FP.k-FN")
        assert nested.count() >= 1  # r001: the prediction shortened "4-Chloro-2-nitrophenol (1.20 g, 6.9 mmol)"
        outer = page.locator("section.doc").first.locator(".txt span.m.k-FN:not(.k-FP)")
        colours = page.evaluate("""([a, b]) => [getComputedStyle(a).backgroundColor, getComputedStyle(b).backgroundColor,
                                               getComputedStyle(a).backgroundImage]""",
                                [nested.first.element_handle(), outer.first.element_handle()])
        assert colours[0] == "rgb(255, 210, 204)" and colours[1] == "rgb(211, 226, 255)" and colours[2] == "none"
        nested.first.scroll_into_view_if_needed()
        _screenshot(page, tmp / "sample_errors_nested.png")
    finally:
        opened.close()


@pytest.fixture(scope="module")
def sample_review_page(tmp_path_factory):
    from chemref.cli import main

    tmp = tmp_path_factory.mktemp("sample_review_page")
    questions, rejected, page = tmp / "questions.jsonl", tmp / "rejected.jsonl", tmp / "review.html"
    cwd = os.getcwd()
    os.chdir(ROOT)  # the records name their articles relative to the project root, as built from there
    try:
        assert main(["questions", "build", "corpora/jats", "-o", str(questions), "--rejected", str(rejected),
                     "--no-progress"]) == 0
        assert main(["questions", "review", str(questions), "--rejected", str(rejected), "--corpus", "corpora/jats",
                     "-o", str(page)]) == 0
    finally:
        os.chdir(cwd)
    kept = [json.loads(x) for x in questions.read_text(encoding="utf-8").splitlines()]
    dropped = [json.loads(x) for x in rejected.read_text(encoding="utf-8").splitlines()]
    return page, kept, dropped, tmp


def test_review_page_links_dois_and_names_the_references_of_a_range(browser, sample_review_page):  # noqa: F811
    page_file, kept, dropped, tmp = sample_review_page
    opened = Opened(browser, page_file)
    page = opened.page
    try:
        assert opened.errors == [] and opened.requests == []
        first = page.locator(f'.card[data-id="{kept[0]["id"]}"] a.doi')
        assert first.get_attribute("href") == f"https://doi.org/{kept[0]['target_doi']}"
        assert first.get_attribute("rel") == "noopener noreferrer"
        several = next(r for r in dropped if r["reason"] == "one_citation" and len(r["ref_id"].split()) > 1)
        page.fill("#f-search", several["id"])
        page.wait_for_function("() => document.querySelectorAll('.card').length === 1")
        text = page.locator(".card .target .refs").text_content()
        ids = several["ref_id"].split()
        assert text.startswith(f"cites {len(ids)} references ({', '.join(ids)})") and "(no title" not in text
        from chemref.jats.reader import read

        refs = {r.id: r for r in read(ROOT / several["source_file"]).references}
        items = page.locator(".card .target .reflist li").all_text_contents()
        assert len(items) == len(ids)
        for rid, item in zip(ids, items):
            assert item.startswith(f"{rid}: {refs[rid].title}")
        _screenshot(page, tmp / "sample_review_range.png")
    finally:
        opened.close()


def test_review_page_cards_use_the_width(browser, sample_review_page):  # noqa: F811
    page_file, _, _, tmp = sample_review_page
    opened = Opened(browser, page_file)
    page = opened.page
    try:
        page.set_viewport_size({"width": 1800, "height": 1000})
        card, body = page.evaluate("() => [document.querySelector('.card').getBoundingClientRect().width, "
                                   "document.body.clientWidth]")
        assert card >= 0.95 * (body - 40), (card, body)
        _screenshot(page, tmp / "sample_review_wide.png")
    finally:
        opened.close()


def test_review_page_exports_the_excerpt_fingerprint(browser, sample_review_page, tmp_path):  # noqa: F811
    from chemref.questions.labels.label import excerpt_sha1, read_labels

    page_file, kept, _, _ = sample_review_page
    opened = Opened(browser, page_file, downloads=True)
    page = opened.page
    try:
        card = page.locator(".card").first
        for field, value in (("good_question", "true"), ("author_named", "false"), ("function", '"CLAIM"'),
                             ("sentence_ok", "true")):
            card.locator(f'button[data-field="{field}"][data-value=\'{value}\']').click()
        with page.expect_download() as info:
            page.click("#export")
        out = tmp_path / "labels.jsonl"
        info.value.save_as(out)
        row = json.loads(out.read_text(encoding="utf-8"))
        assert row["id"] == kept[0]["id"] and row["excerpt_sha1"] == excerpt_sha1(kept[0]["excerpt"])
        assert read_labels(out)[kept[0]["id"]].excerpt_sha1 == row["excerpt_sha1"]
        assert "corpora/labels/QUESTION_GUIDE.md" in page.text_content("header")
    finally:
        opened.close()

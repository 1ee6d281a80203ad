"""The HTML pages in a real browser (headless Chromium driven by Playwright), generated from the shared data.

Playwright's own browser download is not used: the tests drive the system's Chromium (Debian's ``chromium``
package, which ``.ci/run`` installs) and skip with a reason when there is none.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import pytest

from tests.helpers import shared_path

pytestmark = [pytest.mark.shared, pytest.mark.slow]

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
MAX_BYTES = 5_000_000
MAX_SECONDS = 2.0
PLANTED = '<script>window.__planted = 1; alert("planted")</script><img src="x" onerror="window.__planted = 2">'


def _chromium() -> str:
    for candidate in (os.environ.get("CHEMREF_CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium"),
                      shutil.which("chromium-browser")):
        if candidate and Path(candidate).exists():
            return candidate
    pytest.skip("no Chromium found (install Debian's chromium package: apt-get install -y chromium; "
                "or set CHEMREF_CHROMIUM)")


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install playwright)")
    executable = _chromium()
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield b
        b.close()


class Opened:
    """A page opened from disk, with its console errors, dialogs and the measured load time."""

    def __init__(self, browser, path: Path, *, downloads: bool = False) -> None:
        self.context = browser.new_context(viewport={"width": 1400, "height": 1000}, accept_downloads=downloads)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.dialogs: list[str] = []
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("dialog", self._dialog)
        self.requests: list[str] = []
        self.page.on("request", lambda r: self.requests.append(r.url) if not r.url.startswith(("file:", "blob:", "data:")) else None)
        self.size = path.stat().st_size
        start = time.perf_counter()
        self.page.goto(path.as_uri())
        self.page.wait_for_selector("body[data-ready]")
        self.seconds = time.perf_counter() - start

    def _dialog(self, dialog) -> None:
        self.dialogs.append(dialog.message)
        dialog.dismiss()

    def close(self) -> None:
        self.context.close()


def _report_figures(name: str, opened: Opened, tmp: Path) -> None:
    line = f"{name}: {opened.size / 1e6:.2f} MB, opened in {opened.seconds:.2f} s"
    print(line)
    (tmp / "figures.txt").write_text(line + "\n")


# ----------------------------------------------------------------- the BRAT error page
@pytest.fixture(scope="module")
def error_page(tmp_path_factory):
    from chemref.cli import main

    gold_src = shared_path("chemu_ref", "gold", "dev")
    pred_src = shared_path("chemu_ref", "systems", "mixed")
    tmp = tmp_path_factory.mktemp("error_page")
    gold, pred = tmp / "gold", tmp / "pred"
    for src, dst in ((gold_src, gold), (pred_src, pred)):  # shared/ may be read-only: copy the bytes, not the modes
        shutil.copytree(src, dst, copy_function=shutil.copyfile)
        dst.chmod(0o755)
    planted_doc = sorted(p.stem for p in gold.glob("*.ann"))[0]
    for folder in (gold, pred):  # appended after the last mention: no offset moves
        txt = folder / f"{planted_doc}.txt"
        txt.write_text(txt.read_text(encoding="utf-8") + PLANTED, encoding="utf-8")
    page = tmp / "errors.html"
    report = tmp / "report.json"
    assert main(["score", "brat", str(gold), str(pred), "--json", "-o", str(report), "--per-doc",
                 "--html", str(page)]) == 0
    return page, json.loads(report.read_text()), tmp


def test_error_page_opens_fast_without_errors(browser, error_page):
    page_file, report, tmp = error_page
    opened = Opened(browser, page_file)
    try:
        _report_figures("error page (225 ChEMU dev documents, system 'mixed')", opened, tmp)
        assert opened.errors == []
        assert opened.requests == []
        assert opened.size < MAX_BYTES
        assert opened.seconds < MAX_SECONDS
        assert opened.page.locator("section.doc").count() == report["documents"] == 225
        opened.page.screenshot(path=str(tmp / "errors.png"))
    finally:
        opened.close()


def test_error_page_summary_equals_the_json_report(browser, error_page):
    page_file, report, _ = error_page
    opened = Opened(browser, page_file)
    try:
        shown = opened.page.evaluate("""() => Array.from(document.querySelectorAll('table.sum')).map(t => [
            t.dataset.report,
            Array.from(t.querySelectorAll('tbody tr')).map(r => Array.from(r.cells).map(c => c.textContent))])""")
        expected = []
        for level in ("relations", "entities"):
            for match, sub in report[level].items():
                leaves = [(f"{level}/{match}", sub)] if "per_type" in sub else [
                    (f"{level}/{match}/{coref}", leaf) for coref, leaf in sub.items()]
                for label, leaf in leaves:
                    rows = [[t, str(c["tp"]), str(c["fp"]), str(c["fn"]), f"{c['precision']:.4f}",
                             f"{c['recall']:.4f}", f"{c['f1']:.4f}"]
                            for t, c in list(leaf["per_type"].items()) + [("overall", leaf["overall"])]]
                    expected.append([label, rows])
        assert shown == expected
    finally:
        opened.close()


def test_error_page_filters_hide_exactly_the_expected_items(browser, error_page):
    page_file, report, _ = error_page
    opened = Opened(browser, page_file)
    page = opened.page
    try:
        ent, rel = "entities/exact", "relations/exact/coref_not_expanded"
        # the page opens on the primary figure's view (COREFERENCE expanded): judge by the other one here
        assert page.evaluate("() => { const s = document.getElementById('rel-view'); "
                             "return s.options[s.selectedIndex].text; }") == "relations/exact/coref_expanded"
        page.select_option("#rel-view", label=rel)
        with_errors = sorted(d for d, c in report["per_doc"].items()
                             if c[ent]["fp"] + c[ent]["fn"] + c[rel]["fp"] + c[rel]["fn"] > 0)
        page.check("#errors-only")
        visible = page.evaluate("() => Array.from(document.querySelectorAll('section.doc:not([hidden]) .name'))"
                                ".map(e => e.textContent).sort()")
        assert visible == with_errors
        assert page.locator("#index a >> visible=true").count() == len(with_errors)
        assert page.locator("section.doc >> visible=true").count() == len(with_errors)
        page.screenshot(path=str(error_page[2] / "errors_only.png"))
        page.uncheck("#errors-only")
        # hide the matched ones: the relation rows left are exactly the report's FP + FN
        page.uncheck("#show-TP")
        rows = page.locator(".rels li:not([hidden])").count()
        overall = report["relations"]["exact"]["coref_not_expanded"]["overall"]
        assert rows == overall["fp"] + overall["fn"]
        # one relation type
        page.select_option("#rel-type", "COREFERENCE")
        coref = report["relations"]["exact"]["coref_not_expanded"]["per_type"]["COREFERENCE"]
        assert page.locator(".rels li:not([hidden])").count() == coref["fp"] + coref["fn"]
        assert opened.errors == []
    finally:
        opened.close()


def test_error_page_planted_script_does_not_run(browser, error_page):
    page_file, _, _ = error_page
    opened = Opened(browser, page_file)
    try:
        assert opened.page.evaluate("() => window.__planted") is None
        assert opened.dialogs == []
        first = opened.page.locator("section.doc").first.locator(".txt")
        assert "<script>window.__planted = 1" in first.text_content()
    finally:
        opened.close()


# ----------------------------------------------------------------- the question review page
@pytest.fixture(scope="module")
def review_page_file(tmp_path_factory):
    from chemref.cli import main

    corpus = shared_path("corpora", "jats", "dev")
    tmp = tmp_path_factory.mktemp("review_page")
    questions, rejected = tmp / "questions.jsonl", tmp / "rejected.jsonl"
    assert main(["questions", "build", str(corpus), "-o", str(questions), "--rejected", str(rejected),
                 "--no-progress"]) == 0
    lines = questions.read_text(encoding="utf-8").splitlines()
    first = json.loads(lines[0])
    first["target_title"] = PLANTED + " " + (first.get("target_title") or "")
    lines[0] = json.dumps(first)
    questions.write_text("\n".join(lines) + "\n", encoding="utf-8")
    page = tmp / "review.html"
    assert main(["questions", "review", str(questions), "--rejected", str(rejected), "-o", str(page)]) == 0
    kept = [json.loads(x) for x in lines]
    dropped = [json.loads(x) for x in rejected.read_text(encoding="utf-8").splitlines()]
    return page, kept, dropped, tmp


def test_review_page_opens_fast_and_counts_every_card(browser, review_page_file):
    page_file, kept, dropped, tmp = review_page_file
    opened = Opened(browser, page_file)
    try:
        _report_figures(f"review page ({len(kept)} questions + {len(dropped)} rejected)", opened, tmp)
        assert opened.errors == []
        assert opened.requests == []
        assert opened.size < MAX_BYTES
        assert opened.seconds < MAX_SECONDS
        total = len(kept) + len(dropped)
        assert opened.page.text_content("#shown").startswith(f"{total} of {total} cards match")
        opened.page.screenshot(path=str(tmp / "review.png"))
    finally:
        opened.close()


def test_review_page_reason_filter_shows_exactly_that_reason(browser, review_page_file):
    page_file, kept, dropped, _ = review_page_file
    opened = Opened(browser, page_file)
    page = opened.page
    try:
        reason = "section"
        expected = [r["id"] for r in dropped if r["reason"] == reason]
        page.select_option("#f-reason", reason)
        assert page.text_content("#shown").startswith(f"{len(expected)} of ")
        while page.is_visible("#more"):
            page.click("#more")
        ids = page.evaluate("() => Array.from(document.querySelectorAll('.card')).map(c => c.dataset.id)")
        assert ids == expected
        page.select_option("#f-reason", "(kept)")
        page.fill("#f-search", kept[1]["id"])
        page.wait_for_function("() => document.querySelectorAll('.card').length === 1")
        assert page.locator(".card").first.get_attribute("data-id") == kept[1]["id"]
    finally:
        opened.close()


def test_review_page_planted_title_does_not_run(browser, review_page_file):
    page_file, kept, _, _ = review_page_file
    opened = Opened(browser, page_file)
    try:
        assert opened.page.evaluate("() => window.__planted") is None
        assert opened.dialogs == []
        title = opened.page.locator(f'.card[data-id="{kept[0]["id"]}"] .ttl').text_content()
        assert title.startswith("<script>window.__planted = 1")
    finally:
        opened.close()


def test_review_page_labels_three_cards_and_exports_guide_lines(browser, review_page_file, tmp_path):
    page_file, kept, _, _ = review_page_file
    opened = Opened(browser, page_file, downloads=True)
    page = opened.page
    try:
        cards = page.locator(".card")

        def label(n: int, clicks: list[tuple[str, str]], note: str = "") -> None:
            card = cards.nth(n)
            for field, value in clicks:
                card.locator(f'button[data-field="{field}"][data-value=\'{value}\']').click()
            if note:
                card.locator("input.note").fill(note)

        label(0, [("good_question", "true"), ("author_named", "false"), ("function", '"CLAIM"'),
                  ("sentence_ok", "true")], "specific finding")
        label(1, [("good_question", "false"), ("author_named", "false"), ("function", '"PASSING"'),
                  ("sentence_ok", "false")], 'glued "two" sentences')
        label(2, [("good_question", "null"), ("author_named", "true"), ("function", '"CLAIM"'),
                  ("sentence_ok", "true")])
        label(3, [("good_question", "true")])  # incomplete: not exported
        # the labels survive a reload (kept in the page's storage)
        page.reload()
        page.wait_for_selector("body[data-ready]")
        assert page.locator(".card").nth(0).locator("button.on").count() == 4
        with page.expect_download() as info:
            page.click("#export")
        out = tmp_path / "labels.jsonl"
        info.value.save_as(out)
        expected = [
            {"id": kept[0]["id"], "good_question": True, "author_named": False, "function": "CLAIM",
             "sentence_ok": True, "note": "specific finding"},
            {"id": kept[1]["id"], "good_question": False, "author_named": False, "function": "PASSING",
             "sentence_ok": False, "note": 'glued "two" sentences'},
            {"id": kept[2]["id"], "good_question": None, "author_named": True, "function": "CLAIM",
             "sentence_ok": True, "note": ""},
        ]
        from chemref.questions.labels.label import excerpt_sha1

        for row, record in zip(expected, kept):  # the fingerprint of the excerpt judged, as the label files have
            row["excerpt_sha1"] = excerpt_sha1(record["excerpt"])
        assert out.read_text(encoding="utf-8") == "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in expected)
        assert "1 incomplete left out" in page.text_content("#export-status")
        try:  # the reader of 'chemref questions evaluate', where this checkout has it
            from chemref.questions.labels.label import read_labels
        except ImportError:
            read_labels = None
        if read_labels is not None:
            assert sorted(read_labels(out)) == sorted(e["id"] for e in expected)
        page.screenshot(path=str(tmp_path / "review_labelled.png"))
        page.select_option("#f-reason", "(rejected)")
        page.screenshot(path=str(tmp_path / "review_rejected.png"))
        assert opened.errors == []
    finally:
        opened.close()

"""The HTML pages without a browser: segmentation, match details against the report, escaping, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from chemref.cli import main
from chemref.pages.brat_errors import segments
from chemref.pages.question_review import LABEL_KEYS, review_page
from chemref.pages.render import render_page
from chemref.scoring.brat.match_details import match_details

# ----------------------------------------------------------------- segmentation (golden table)
SEGMENT_CASES = [
    # (text length, fragments of each mention, expected (start, end, covering, starting here))
    (10, [], [(0, 10, [], [])]),
    (10, [[[2, 5]]], [(0, 2, [], []), (2, 5, [0], [0]), (5, 10, [], [])]),
    # gold and prediction overlapping at the boundary (a shifted span)
    (10, [[[2, 6]], [[4, 8]]], [(0, 2, [], []), (2, 4, [0], [0]), (4, 6, [0, 1], [1]), (6, 8, [1], []),
                                (8, 10, [], [])]),
    # nested, and a discontinuous mention that reappears: it starts only once
    (10, [[[0, 10]], [[1, 2], [5, 6]]], [(0, 1, [0], [0]), (1, 2, [0, 1], [1]), (2, 5, [0], []), (5, 6, [0, 1], []),
                                         (6, 10, [0], [])]),
    # empty fragments are skipped, fragments past the end are clipped
    (5, [[[3, 3]], [[4, 99]]], [(0, 4, [], []), (4, 5, [1], [1])]),
]


@pytest.mark.parametrize("length, frags, expected", SEGMENT_CASES)
def test_segments_cut_at_every_boundary(length, frags, expected):
    got = segments(length, [{"fragments": f} for f in frags])
    assert got == expected


# ----------------------------------------------------------------- a tiny BRAT pair written here
GOLD_TXT = "Sodium chloride was added to the flask. The mixture was stirred. <script>window.x=1</script>\n"
GOLD_ANN = ("T1\tentity 0 15\tSodium chloride\nT2\tentity 33 38\tflask\nT3\tentity 40 51\tThe mixture\n"
            "R1\tCOREFERENCE Arg1:T3 Arg2:T2\n")
PRED_ANN = ("T1\tentity 0 6\tSodium\nT2\tentity 33 38\tflask\nT3\tentity 40 51\tThe mixture\n"
            "R1\tCOREFERENCE Arg1:T3 Arg2:T1\n")


@pytest.fixture()
def brat_pair(tmp_path: Path) -> tuple[Path, Path]:
    gold, pred = tmp_path / "gold", tmp_path / "pred"
    for folder, ann in ((gold, GOLD_ANN), (pred, PRED_ANN)):
        folder.mkdir()
        (folder / "doc1.txt").write_text(GOLD_TXT, encoding="utf-8")
        (folder / "doc1.ann").write_text(ann, encoding="utf-8")
    return gold, pred


def _kinds(doc, level):
    items = doc["mentions"] if level == "entities" else doc["relations"]
    return items


def test_match_details_outcomes_agree_with_the_report(brat_pair):
    gold, pred = brat_pair
    details = match_details(gold, pred)
    doc = details["documents"][0]
    by_text = {m["text"]: m["kinds"] for m in doc["mentions"]}
    assert by_text["Sodium chloride"] == {"entities/exact": "FN", "entities/relaxed_bipartite": "TP"}
    assert by_text["Sodium"] == {"entities/exact": "FP", "entities/relaxed_bipartite": "TP"}
    assert by_text["flask"]["entities/exact"] == "TP"
    rel = {(r["gold"], r["pred"]): r["kinds"] for r in doc["relations"]}
    assert rel[(True, False)]["relations/exact/coref_not_expanded"] == "FN"
    assert rel[(False, True)]["relations/exact/coref_not_expanded"] == "FP"
    # every report's per-document counts are what the outcomes add up to
    for label, counts in doc["counts"].items():
        level = label.split("/")[0]
        items = [x for x in _kinds(doc, level) if x["kinds"].get(label)]
        tp = sum(1 for x in items if x["gold"] and x["kinds"][label].split()[0] == "TP")
        fp = sum("FP" in x["kinds"][label] for x in items)
        fn = sum("FN" in x["kinds"][label] for x in items)
        assert (tp, fp, fn) == (counts["tp"], counts["fp"], counts["fn"]), label


@pytest.mark.parametrize("mode", ["chemu", "brateval"])
def test_error_page_reuses_the_printed_report(brat_pair, tmp_path, monkeypatch, capsys, mode):
    """--html scores once: the report printed and the page come from the same run, and the details kept for
    the page change nothing in the printed report."""
    import chemref.scoring.brat.score as scoring

    gold, pred = brat_pair
    options = {"mode": mode, "level": "entities"}
    assert scoring.score_brat(gold, pred, details=True, **options) == scoring.score_brat(gold, pred, **options)
    calls = []
    real = scoring.score_brat
    monkeypatch.setattr(scoring, "score_brat", lambda *a, **k: calls.append(k) or real(*a, **k))
    args = ["score", "brat", str(gold), str(pred), "--level", "entities", "--json"]
    args += ["--brateval"] if mode == "brateval" else []
    assert main(args) == 0
    printed = capsys.readouterr().out
    assert main(args + ["--html", str(tmp_path / "errors.html")]) == 0
    assert capsys.readouterr().out == printed
    assert len(calls) == 2  # once per command
    html = (tmp_path / "errors.html").read_text(encoding="utf-8")
    assert 'data-type="overall"' in html


def test_a_gold_text_only_the_page_reads_is_checked_when_the_page_is_made(brat_pair, tmp_path, capsys):
    """A gold .txt that only the FP/FN records read (bad bytes here) does not stop the report printed without
    --html; with --html it is one error naming the file, and no page is written (a gold file is UTF-8)."""
    gold, pred = brat_pair
    (gold / "doc1.txt").write_bytes(GOLD_TXT.encode("utf-8") + b"\xff")
    assert main(["score", "brat", str(gold), str(pred)]) == 0
    capsys.readouterr()
    page = tmp_path / "errors.html"
    assert main(["score", "brat", str(gold), str(pred), "--html", str(page)]) == 2
    err = capsys.readouterr().err
    assert "doc1.txt" in err and "UTF-8" in err and not page.exists()


def test_match_details_in_brateval_mode(brat_pair):
    gold, pred = brat_pair
    details = match_details(gold, pred, mode="brateval", level="entities")
    assert details["views"] == {"entities": ["brateval/entities/exact/exact"], "relations": []}
    kinds = sorted(m["kinds"]["brateval/entities/exact/exact"] for m in details["documents"][0]["mentions"])
    assert kinds == ["FN", "FP", "TP", "TP"]


def test_error_page_escapes_the_text(brat_pair, tmp_path):
    gold, pred = brat_pair
    page = tmp_path / "errors.html"
    assert main([ "score", "brat", str(gold), str(pred), "--html", str(page)]) == 0
    html = page.read_text(encoding="utf-8")
    assert "<script>window.x=1</script>" not in html
    assert "&lt;script&gt;window.x=1&lt;/script&gt;" in html
    assert "<script" not in html.split("<body>")[1].split('<script type="application/json"')[0]


def test_review_page_embeds_records_as_escaped_json():
    rec = {"id": "a-1", "excerpt": "X </script><script>alert(1)</script> [CITATION].", "sentence": "s",
           "target_title": "<b>title</b>", "score": 0.5}
    html = render_page("question_review.html", **review_page([rec]))
    assert "</script><script>alert(1)" not in html
    assert "<b>title</b>" not in html
    assert html.count("<script") == 2  # the JSON data block and the page's own script


def test_review_page_context_counts_reasons_and_articles():
    kept = [{"id": "q1", "excerpt": "A [CITATION].", "source_doi": "10.1/a", "section": "results"}]
    rejected = [{"id": "r1", "excerpt": "B [CITATION].", "source_doi": "10.1/a", "reason": "length"},
                {"id": "r2", "excerpt": "C [CITATION].", "source_doi": "10.1/b", "reason": "length"}]
    ctx = review_page(kept, rejected)
    assert (ctx["n_kept"], ctx["n_rejected"]) == (1, 2)
    assert ctx["reasons"] == [("length", 2)]
    assert ctx["articles"] == ["10.1/a", "10.1/b"]
    assert ctx["label_keys"] == ["id", "good_question", "author_named", "function", "sentence_ok", "note"]
    assert LABEL_KEYS == tuple(ctx["label_keys"])


# ----------------------------------------------------------------- bad input: one line, exit 2
def _one_error_line(capsys) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("chemref: error: "), err
    return err[0]


def test_html_into_a_missing_folder_creates_it(brat_pair, tmp_path):
    gold, pred = brat_pair
    target = tmp_path / "no_such_folder" / "deeper" / "errors.html"
    assert main(["score", "brat", str(gold), str(pred), "--html", str(target)]) == 0
    assert target.is_file()


def test_html_under_a_file_is_an_error(brat_pair, tmp_path, capsys):
    gold, pred = brat_pair
    blocker = tmp_path / "file.txt"
    blocker.write_text("x")
    assert main(["score", "brat", str(gold), str(pred), "--html", str(blocker / "errors.html")]) == 2
    assert "not a folder" in _one_error_line(capsys)


def test_html_into_a_read_only_folder_is_an_error(brat_pair, tmp_path, capsys):
    import os

    if os.geteuid() == 0:
        pytest.skip("root can write into a read-only folder; the under-a-file case covers the check")
    gold, pred = brat_pair
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        assert main(["score", "brat", str(gold), str(pred), "--html", str(folder / "errors.html")]) == 2
        _one_error_line(capsys)
    finally:
        folder.chmod(0o755)


def test_review_of_a_file_that_is_not_questions_is_an_error(tmp_path, capsys):
    labels = tmp_path / "labels.jsonl"
    labels.write_text(json.dumps({"id": "q1", "good_question": True}) + "\n")
    assert main(["questions", "review", str(labels), "-o", str(tmp_path / "r.html")]) == 2
    line = _one_error_line(capsys)
    assert "labels.jsonl:1" in line and "not a question record" in line
    assert not (tmp_path / "r.html").exists()


def test_review_with_a_questions_file_as_rejected_is_an_error(tmp_path, capsys):
    q = tmp_path / "q.jsonl"
    q.write_text(json.dumps({"id": "q1", "excerpt": "A [CITATION]."}) + "\n")
    assert main(["questions", "review", str(q), "--rejected", str(q), "-o", str(tmp_path / "r.html")]) == 2
    assert "no 'reason' field" in _one_error_line(capsys)


def test_review_into_a_missing_folder_creates_it(tmp_path):
    q = tmp_path / "q.jsonl"
    q.write_text(json.dumps({"id": "q1", "excerpt": "A [CITATION]."}) + "\n")
    assert main(["questions", "review", str(q), "-o", str(tmp_path / "missing" / "r.html")]) == 0
    assert (tmp_path / "missing" / "r.html").is_file()


def test_match_details_expands_coreference_with_the_limits_given(tmp_path, monkeypatch):
    """The page's second reading uses the caller's --max-coref-links and zip limits, not the defaults."""
    import chemref.scoring.brat.match_details as md
    from chemref.scoring.brat.sources import ZipLimits

    ann = "".join(f"T{i}\tREACTION_PRODUCT {4 * i} {4 * i + 3}\tabc\n" for i in range(1, 5))
    ann += "".join(f"R{i}\tCOREFERENCE Arg1:T{i} Arg2:T{i + 1}\n" for i in range(1, 4))
    for side in ("gold", "pred"):
        (tmp_path / side).mkdir()
        (tmp_path / side / "doc.ann").write_text(ann, encoding="utf-8")
        (tmp_path / side / "doc.txt").write_text("abc " * 6, encoding="utf-8")
    limits_seen = []
    real_expand = md.expand_coref
    def recording_expand(rels, max_links="default"):
        limits_seen.append(max_links)
        return real_expand(rels, None if max_links == "default" else max_links)

    monkeypatch.setattr(md, "expand_coref", recording_expand)
    details = match_details(tmp_path / "gold", tmp_path / "pred", max_coref_links=None,
                            zip_limits=ZipLimits(member=2**20))
    assert limits_seen == [None, None]
    inferred = [r for r in details["documents"][0]["relations"] if r["inferred"]]
    assert len(inferred) == 3  # T1->T3, T1->T4, T2->T4

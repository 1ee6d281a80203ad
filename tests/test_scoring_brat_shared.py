"""The scorer against every shared expectation (read in place from ../shared/chemu_ref, skipped when absent):
BRATEval's printed lines from ``Summary:`` on, its crashes, and the ChEMU 2021 ``paper`` numbers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import SHARED, shared_path

from chemref.errors import ChemrefError
from chemref.scoring import score_brat

CHEMU = SHARED / "chemu_ref"
SPANS = {"exact": dict(span="exact"), "overlap": dict(span="overlap"),
         "approx0.8": dict(span="approx", similarity=0.8)}


def _summary(text: str) -> str:
    lines = [line.rstrip() for line in text.splitlines()]
    return "\n".join(lines[lines.index("Summary:"):]).strip()


def _counts(o):
    if isinstance(o, dict):
        return {k: _counts(v) for k, v in o.items() if k not in ("precision", "recall", "f1")}
    return o


def _expected_files() -> list[str]:
    return sorted(p.stem for p in (CHEMU / "expected").glob("*.json")) or ["<missing>"]


def _dirs(name: str) -> tuple[Path, Path]:
    if name.startswith("crafted_"):
        case = shared_path("chemu_ref", "crafted", name[len("crafted_"):])
        return case / "gold", case / "system"
    return shared_path("chemu_ref", "gold", "dev"), shared_path("chemu_ref", "systems", name)


def _load(name: str) -> dict:
    return json.loads(shared_path("chemu_ref", "expected", f"{name}.json").read_text())


@pytest.mark.slow
@pytest.mark.shared
@pytest.mark.parametrize("name", _expected_files())
def test_chemu_mode_equals_paper_numbers(name: str) -> None:
    expected = _load(name)
    gold, pred = _dirs(name)
    paper = expected["paper"]
    if "error" in paper:
        with pytest.raises(ChemrefError):
            score_brat(gold, pred)
        return
    report = score_brat(gold, pred)
    got = {"relations": report["relations"], "entities": report["entities"]}
    assert _counts(got) == _counts({"relations": paper["relations"], "entities": paper["entities"]})
    # and the ratios, to float precision
    assert report["relations"]["relaxed_bipartite"]["coref_expanded"]["overall"]["f1"] == pytest.approx(
        paper["relations"]["relaxed_bipartite"]["coref_expanded"]["overall"]["f1"])


@pytest.mark.slow
@pytest.mark.shared
@pytest.mark.parametrize("name", _expected_files())
@pytest.mark.parametrize("level", ["relations", "entities"])
def test_brateval_mode_reproduces_brateval(name: str, level: str) -> None:
    expected = _load(name)
    gold, pred = _dirs(name)
    runs = expected.get("brateval", {}).get(level, {})
    if not runs:
        pytest.skip("no BRATEval output recorded for this level")
    for mode, run in runs.items():
        if run["returncode"] != 0:
            with pytest.raises(ChemrefError) as info:
                score_brat(gold, pred, mode="brateval", level=level, **SPANS[mode])
            assert "\n" not in str(info.value)
        else:
            report = score_brat(gold, pred, mode="brateval", level=level, **SPANS[mode])
            assert _summary(str(report)) == _summary(run["stdout"]), mode


def _sample_files() -> list[str]:
    return sorted(p.name for p in (CHEMU / "brateval_sample" / "expected").glob("*.txt")) or ["<missing>"]


@pytest.mark.shared
@pytest.mark.parametrize("filename", _sample_files())
def test_brateval_own_sample(filename: str) -> None:
    expected = shared_path("chemu_ref", "brateval_sample", "expected", filename).read_text()
    task, _, _, span, typ = filename[:-4].split("-", 4)
    base = shared_path("chemu_ref", "brateval_sample")
    report = score_brat(base / "gold" / task / "gt", base / "system" / task / "test", mode="brateval",
                        level="entities" if task == "ner" else "relations", type_match=typ, **SPANS[span])
    assert _summary(str(report)) == _summary(expected)


@pytest.mark.slow
@pytest.mark.shared
def test_perfect_renumbered_shows_brateval_id_order_dependence() -> None:
    """SCORING.md: a perfect copy with permuted ids scores 3203/3204 in BRATEval entity overlap mode."""
    gold, pred = shared_path("chemu_ref", "gold", "dev"), shared_path("chemu_ref", "systems", "perfect_renumbered")
    greedy = score_brat(gold, pred, mode="brateval", level="entities", span="overlap")
    assert (greedy["overall"]["tp"], greedy["overall"]["fn"]) == (3203, 1)
    chemu = score_brat(gold, pred, level="entities")
    assert chemu["entities"]["relaxed_bipartite"]["overall"]["f1"] == 1.0


CRAFTED_BRATEVAL_CRASHES = [("dangling_reference_crash", "relations", "T99"),
                            ("empty_text_T_crash", "relations", "T2"),
                            ("missing_system_file", "relations", "d2.ann"),
                            ("missing_system_file", "entities", "d2.ann")]


@pytest.mark.shared
@pytest.mark.parametrize("case, level, words", CRAFTED_BRATEVAL_CRASHES)
def test_crafted_brateval_crashes_are_clear_errors(case: str, level: str, words: str) -> None:
    base = shared_path("chemu_ref", "crafted", case)
    with pytest.raises(ChemrefError) as info:
        score_brat(base / "gold", base / "system", mode="brateval", level=level, span="overlap")
    assert words in str(info.value) and "BRATEval" in str(info.value)


# (case, level, BRATEval overlap tp/fp/fn, ChEMU relaxed-with-expansion tp/fp/fn) for the crafted cases
# without a shared expected file, derived from their DESCRIPTION.txt and SCORING.md
CRAFTED = [
    ("arg_role_order", (0, 1, 1), (1, 0, 0)),
    ("coref_cycle", (0, 1, 3), (1, 0, 3)),
    ("entity_label_case", (0, 1, 1), (0, 1, 1)),
    ("overlap_perfect_copy_fails", (2, 1, 1), (3, 0, 0)),
    ("unknown_and_malformed_lines", (1, 0, 1), (2, 0, 0)),
    ("extra_system_file_and_empty_file", (1, 0, 1), (1, 0, 1)),
]


@pytest.mark.shared
@pytest.mark.parametrize("case, brateval, chemu", CRAFTED)
def test_crafted_cases_without_expected_files(case: str, brateval: tuple, chemu: tuple) -> None:
    base = shared_path("chemu_ref", "crafted", case)
    b = score_brat(base / "gold", base / "system", mode="brateval", span="overlap")["overall"]
    assert (b["tp"], b["fp"], b["fn"]) == brateval
    c = score_brat(base / "gold", base / "system")["relations"]["relaxed_bipartite"]["coref_expanded"]["overall"]
    assert (c["tp"], c["fp"], c["fn"]) == chemu


@pytest.mark.slow
@pytest.mark.shared
@pytest.mark.parametrize("kwargs", [{}, {"mode": "brateval", "span": "overlap"},
                                    {"mode": "brateval", "level": "entities", "span": "approx"},
                                    {"per_doc": True, "errors": True}])
def test_two_worker_processes_give_the_same_report(kwargs: dict) -> None:
    gold, pred = shared_path("chemu_ref", "gold", "dev"), shared_path("chemu_ref", "systems", "mixed")
    one = score_brat(gold, pred, jobs=1, **kwargs)
    two = score_brat(gold, pred, jobs=2, **kwargs)
    assert one == two and str(one) == str(two)


@pytest.mark.slow
@pytest.mark.shared
def test_an_error_in_a_worker_process_is_raised_with_its_file_and_line(tmp_path: Path) -> None:
    gold = shared_path("chemu_ref", "gold", "dev")
    pred = tmp_path / "pred"
    pred.mkdir()
    names = sorted(p.name for p in gold.glob("*.ann"))
    for name in names:
        (pred / name).write_bytes((gold / name).read_bytes())
    (pred / names[-1]).write_text("T1\tentity 0 x\tw\n")     # the last document goes to the second worker
    for mode in ("chemu", "brateval"):
        with pytest.raises(ChemrefError) as info:
            score_brat(gold, pred, mode=mode, jobs=2)     # type: ignore[arg-type]
        assert info.value.path and info.value.path.endswith(names[-1]) and info.value.line == 1

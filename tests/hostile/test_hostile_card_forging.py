"""The dataset card cannot be forged from its inputs: a selector file whose ``version`` is not a short
printable token is refused when it is read (naming the file), and every input-derived table cell shows control
characters escaped and Markdown link brackets inert."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from chemref.errors import InputError
from chemref.questions.funnel.selector import default_selector, load_selector
from chemref.questions.funnel.selector_training import train_selector
from chemref.scoring.report.formats import md_cell
from tests.hostile.cli_runner import CORPORA, chemref


@pytest.mark.parametrize("version", ["2\n---\ntitle: forged", "2 ---", "v\x1b[31m2", "v\x072", "<script>x</script>",
                                     "x" * 65, ""])
def test_a_selector_version_that_could_forge_the_card_is_refused(tmp_path: Path, version: str) -> None:
    path = tmp_path / "selector.json"
    path.write_text(json.dumps({**default_selector().to_dict(), "version": version}), encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load_selector(path)
    assert "selector.json" in str(caught.value) + str(caught.value.path)


def test_a_good_version_is_read(tmp_path: Path) -> None:
    path = tmp_path / "selector.json"
    path.write_text(json.dumps({**default_selector().to_dict(), "version": "3.1-beta+local"}), encoding="utf-8")
    assert load_selector(path).version == "3.1-beta+local"


@pytest.mark.parametrize("name", ["a\x1b[2Jb.xml", "bell\x07.xml", "[a](javascript:alert(1))", "![i](http://x/y.png)",
                                  "<script>x</script>", "a|b\nc"])
def test_a_card_cell_cannot_carry_control_characters_links_or_html(name: str) -> None:
    cell = md_cell(name)
    assert cell.isprintable() and "<" not in cell and "\n" not in cell
    assert "](" not in cell.replace("\\](", "")
    assert "|" not in cell.replace("\\|", "")


def test_training_refuses_a_version_that_could_not_be_read_back() -> None:
    with pytest.raises(InputError, match="selector version"):
        train_selector([], {}, version="v\n---")


def _unescaped_backticks(text: str) -> list[int]:
    """Where ``text`` holds a backtick that is not escaped (preceded by an even number of backslashes)."""
    out = []
    for i, ch in enumerate(text):
        if ch == "`":
            run = len(text[:i]) - len(text[:i].rstrip("\\"))
            if run % 2 == 0:
                out.append(i)
    return out


@pytest.mark.parametrize("name", ["a`b", "``x | y``", "\\`", "a\\\\`b`"])
def test_a_card_cell_cannot_open_a_code_span(name: str) -> None:
    assert _unescaped_backticks(md_cell(name)) == []


@pytest.mark.slow
def test_a_file_name_with_backticks_cannot_open_a_code_span_in_the_card(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "a`b | `c.xml").write_bytes((CORPORA / "jats" / "sample_cu_tio2_co2.xml").read_bytes())
    proc = chemref("questions", "build", "corpus", "-o", "out/q.jsonl", cwd=tmp_path, timeout=60)
    assert proc.returncode == 0, proc.stderr
    rows = [line for line in (tmp_path / "out" / "README.md").read_text(encoding="utf-8").splitlines()
            if line.startswith("| corpus/a")]
    assert len(rows) == 1 and _unescaped_backticks(rows[0]) == [], rows

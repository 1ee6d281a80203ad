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

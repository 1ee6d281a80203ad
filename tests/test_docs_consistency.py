"""The README, the dataset card, ``--help`` and the labels' notes say what the code does, with its figures.

Each figure or description has one source (the filter table, the build defaults, the selector file and its
recorded evaluation); these tests fail when a document and its source differ.
"""

from __future__ import annotations

import json
import re

import pytest

from tests.helpers import CORPORA, ROOT

from tools import readme_blocks as docs
from chemref.questions.funnel.selector_record import selector_evaluation
from chemref.questions.output.prose import caps_text, selector_text
from chemref.questions.funnel.filters import DESCRIPTIONS as FILTER_DESCRIPTIONS, REASONS
from chemref.questions.labels.label import GUIDE
from chemref.questions.funnel.selector import default_selector
from chemref.questions.funnel.settings import BuildSettings

#: The README and the documentation pages, one text (each generated block lives in one of them).
README = "\n".join(path.read_text(encoding="utf-8") for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))])
REFERENCE_DATA_PAGE = (ROOT / "docs" / "reference-data.md").read_text(encoding="utf-8")


LABELS_README = (CORPORA / "labels" / "README.md").read_text(encoding="utf-8")


def test_readme_generated_blocks_are_up_to_date():
    assert docs.stale_blocks(README) == [], "run: python tools/readme_blocks.py"
    assert docs.stale_blocks(LABELS_README) == [], "run: python tools/readme_blocks.py"
    assert docs.main(["--check"]) == 0
    for name in docs.GENERATORS:
        assert f"<!-- generated: {name} -->" in README + LABELS_README, name


def test_the_selector_features_are_one_table_and_the_notes_show_it():
    import chemref.questions.funnel.selector as selector_module
    from chemref.questions.funnel.selector_features import FEATURE_TABLE, FEATURES

    assert [name for names, _ in FEATURE_TABLE for name in names] == list(FEATURES)
    table = docs.selector_features_table()
    rows = table.splitlines()[2:]
    assert len(rows) == len(FEATURE_TABLE)
    used = set()
    for (names, what), row in zip(FEATURE_TABLE, rows):
        first, mark, text = row.strip("| ").split(" | ")
        assert text == what and "<" not in what and "|" not in what, names
        shown = [n for n in names if n in default_selector().weights]
        assert mark == ("" if not shown else "✓" if len(shown) == len(names) else mark), names
        used.update(shown)
    assert used == set(default_selector().weights)  # every weight is a documented feature
    assert "| `formula`, `chemical_name`, `number_unit`, `gene_protein`, `method`, `named_entity` | ✓ `method` only |" \
        in table
    assert "``findability``" not in (selector_module.__doc__ or "")  # the table is data, not the docstring
    assert table in LABELS_README


def test_readme_funnel_table_has_every_step_in_order():
    rows = re.findall(r"^\| `([a-z_]+)` \| (.*?) \|", README, re.MULTILINE)
    steps = [name for name, _ in rows if name in REASONS]
    assert steps == list(REASONS)
    assert {name: text for name, text in rows if name in REASONS} == FILTER_DESCRIPTIONS


def test_stale_blocks_names_a_changed_block():
    changed = README.replace("| `cc_by` |", "| `cc_by_changed` |", 1)
    assert docs.stale_blocks(changed) == ["funnel-table"]
    assert docs.render(changed) == README


def test_the_recorded_evaluation_is_of_the_shipped_selector():
    evaluation = selector_evaluation()
    assert evaluation is not None, ("chemref/questions/data/selector_evaluation.json was not recorded for the "
                                    "shipped weights: chemref questions record-selector ...")
    meta = default_selector().meta
    at = evaluation["at_threshold"]
    # the selector file's cross-validated figures and the recorded evaluation are the same measurement
    assert at["threshold"] == default_selector().threshold == meta["cv"]["threshold"]
    assert (at["good_share"], at["kept_share"], at["good_kept_share"]) == \
        (meta["cv"]["good_share"], meta["cv"]["kept_share"], meta["cv"]["good_kept_share"])
    assert evaluation["auc"] == meta["cv"]["auc"]
    assert len(evaluation["trained_ids"]) == meta["trained_on"]
    assert evaluation["scored"] <= meta["trained_on"] and evaluation["scored_good"] <= meta["good"]


def test_a_changed_selector_has_no_recorded_evaluation():
    from dataclasses import replace

    other = replace(default_selector(), bias=default_selector().bias + 0.5)
    assert selector_evaluation(other) is None
    text = selector_text(other)
    assert "1,226" not in text and str(other.meta["trained_on"])[:1] in text


def test_labels_readme_quotes_the_recorded_figures():
    notes = (CORPORA / "labels" / "README.md").read_text(encoding="utf-8")
    ev = selector_evaluation()
    caps = ev["after_caps"]
    assert f"{ev['scored']:,} labelled candidates that pass the other filters ({ev['scored_good']} good)" in notes
    assert f"| {ev['at_threshold']['threshold']} | {caps['questions']} | {caps['good_share']:.3f} |" in notes
    assert f"ranking AUC {ev['auc']:.2f}" in notes


def _sample_card(tmp_path):
    from chemref.cli import main

    assert main(["questions", "build", str(CORPORA / "jats"), "-o", str(tmp_path / "q.jsonl"), "--no-progress"]) == 0
    return (tmp_path / "README.md").read_text(encoding="utf-8")


def test_card_says_what_the_caps_and_the_selector_do(tmp_path):
    card = _sample_card(tmp_path)
    s = BuildSettings()
    assert caps_text(s.per_target, s.per_article) in card
    assert "highest\nfindability" not in card and "highest findability" not in card
    assert selector_text() in card
    for reason in REASONS:
        if reason != "min_findability":
            assert f"| {reason} |" in card and FILTER_DESCRIPTIONS[reason] in card


def test_card_and_readme_give_the_same_selector_figures(tmp_path):
    card = _sample_card(tmp_path)
    ev = selector_evaluation()
    flat_readme = " ".join(README.split())
    for figure in (f"{default_selector().meta['trained_on']:,}", f"{ev['scored']:,}",
                   f"{ev['after_caps']['good_share']:.3f}", f"{ev['at_threshold']['good_share']:.3f}",
                   f"AUC {ev['auc']:.2f}", str(default_selector().threshold)):
        assert figure in card and figure in flat_readme, figure


def _build_options():
    import typer.main

    from chemref.cli.app import app

    command = typer.main.get_command(app)
    build = command.commands["questions"].commands["build"]
    return {p.name: p for p in build.params}


def test_build_help_defaults_are_the_build_settings():
    options = _build_options()
    s = BuildSettings()
    for name in ("per_article", "per_target", "min_chars", "max_chars", "seed", "authors", "answer_key",
                 "min_findability"):
        assert options[name].default == getattr(s, name), name
    # no --min-score: the selector's threshold, which the help states
    assert options["min_score"].default is None and s.min_score == default_selector().threshold
    assert str(default_selector().threshold) in options["min_score"].help


def test_readme_build_examples_use_the_shipped_threshold_or_zero():
    for value in re.findall(r"--min-score (\d+(?:\.\d+)?)", README):
        assert float(value) in (0.0, default_selector().threshold), value


def test_the_labelling_guide_is_in_the_repository_and_everything_points_to_it():
    guide = ROOT / GUIDE
    assert guide.is_file()
    text = guide.read_text(encoding="utf-8")
    for field in ("good_question", "author_named", "function", "sentence_ok", "note", "excerpt_sha1"):
        assert f"`{field}`" in text
    assert GUIDE in README
    assert "{{ guide }}" in (ROOT / "chemref" / "pages" / "templates" / "question_review.html").read_text()
    evaluate = _evaluate_help()
    assert GUIDE in " ".join(evaluate.split())
    assert "../shared/QUESTION_GUIDE.md" not in (ROOT / "chemref" / "questions" / "labels" / "label.py").read_text()


def _evaluate_help() -> str:
    import typer.main

    from chemref.cli.app import app

    command = typer.main.get_command(app)
    return command.commands["questions"].commands["evaluate"].params[0].help


def test_readme_reference_data_section_lists_each_set_and_the_variable():
    from tools.reference_data import REFERENCE_DATA_ENV

    section = REFERENCE_DATA_PAGE
    assert REFERENCE_DATA_ENV in section and "../shared" in section
    for layout in ("corpora/jats/dev", "corpora/citeme/CiteME.tsv", "corpora/pubmedqa/test_ground_truth.json",
                   "chemu_ref/gold", "corpora/sentences/craft_v5_ccby_sentences.jsonl", "corpora/citation_function",
                   "corpora/chemicals/bc5cdr_chem"):
        assert layout in section, layout
    assert section.count("\n| ") >= 10  # header, rule and a row per data set


def test_reference_data_variable(monkeypatch, tmp_path):
    from tools.reference_data import REFERENCE_DATA_ENV, reference_path, reference_root

    monkeypatch.delenv(REFERENCE_DATA_ENV, raising=False)
    assert reference_root(tmp_path / "project") == (tmp_path / "shared").resolve()
    monkeypatch.setenv(REFERENCE_DATA_ENV, str(tmp_path / "elsewhere"))
    assert reference_path("corpora", "jats", project_root=tmp_path) == (tmp_path / "elsewhere" / "corpora" / "jats")


@pytest.mark.parametrize("script", sorted(p.name for p in (ROOT / "benchmarks").glob("bench_*.py")))
def test_benchmarks_find_the_reference_data_through_the_variable(script):
    text = (ROOT / "benchmarks" / script).read_text(encoding="utf-8")
    assert '"shared"' not in text, f"{script} builds its own ../shared path"


def test_sample_corpora_cover_every_kind_the_readme_scores():
    for path in ("citeme/sample.tsv", "pubmedqa/sample_ground_truth.json", "ranking/qrels.txt", "ranking/run_a.run",
                 "ranking/gold.jsonl", "brat/gold", "brat/pred_b", "labels/sample_labels.jsonl", "jats"):
        assert (CORPORA / path).exists(), path
    header = (CORPORA / "citeme" / "sample.tsv").read_text(encoding="utf-8").splitlines()[0].split("\t")
    assert header == ["id", "excerpt", "target_paper_title", "target_paper_url", "source_paper_title",
                      "source_paper_url", "year", "split"]
    answers = json.loads((CORPORA / "pubmedqa" / "sample_ground_truth.json").read_text(encoding="utf-8"))
    assert set(answers.values()) == {"yes", "no", "maybe"}


def test_a_missing_reference_data_path_names_the_variable(tmp_path, monkeypatch, capsys):
    from chemref.cli import main
    from tools.reference_data import REFERENCE_DATA_ENV

    monkeypatch.delenv(REFERENCE_DATA_ENV, raising=False)
    monkeypatch.chdir(tmp_path)
    assert main(["questions", "build", "../shared/corpora/jats/dev", "-o", "q.jsonl", "--no-progress"]) == 2
    assert REFERENCE_DATA_ENV in capsys.readouterr().err
    assert main(["score", "brat", "../shared/chemu_ref/gold/dev", "pred"]) == 2
    assert REFERENCE_DATA_ENV in capsys.readouterr().err
    assert main(["jats", "missing.xml"]) == 2
    assert REFERENCE_DATA_ENV not in capsys.readouterr().err  # only where the reference data was meant


def test_the_cli_reference_is_up_to_date():
    from tools import cli_reference

    assert cli_reference.main(["--check"]) == 0, "run: python tools/cli_reference.py"
    page = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    for path, _ in cli_reference.commands():
        assert f"`{' '.join(path)}`" in page, path
    assert "`--judge-endpoint`" in page and "`--selector`" in page


def test_the_site_has_the_references_and_the_changelog():
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    for page in ("cli.md", "api.md", "changelog.md"):
        assert page in nav, page
    assert "::: chemref.jats" in (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    from chemref import __version__

    assert f"## [{__version__}] - " in changelog and "## [Unreleased]" in changelog
    assert '--8<-- "CHANGELOG.md"' in (ROOT / "docs" / "changelog.md").read_text(encoding="utf-8")
    for name in ("LICENSE", "CITATION.cff"):
        assert (ROOT / name).is_file(), name
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) <= 250


@pytest.mark.parametrize("package", ["chemref", "chemref.jats", "chemref.questions", "chemref.scoring", "chemref.nlp"])
def test_the_api_reference_documents_each_public_function_and_class(package):
    import importlib
    import inspect

    page = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    module = importlib.import_module(package)
    left_out = {"Source", "SECTION_KINDS", "FormatRange", "expand_inputs", "article_questions"}  # internal plumbing
    for name in module.__all__:
        value = getattr(module, name)
        if name in left_out or not (inspect.isfunction(value) or inspect.isclass(value)):
            continue
        defined = f"{value.__module__}.{value.__qualname__}"
        assert f"::: {defined}\n" in page, f"{package}.{name} ({defined})"


def test_the_api_reference_names_each_object_where_it_is_defined():
    """mkdocstrings reads the source, not the lazy exports: each ``::: path`` is where the object is defined."""
    import importlib

    page = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    for path in re.findall(r"^::: (\S+)$", page, re.MULTILINE):
        module, _, name = path.rpartition(".")
        value = getattr(importlib.import_module(module), name)
        assert f"{value.__module__}.{value.__qualname__}" == path, path

"""Every shell and Python example of README.md and docs/*.md runs as written, in order, in a fresh copy of the
repository with nothing beside it (see :mod:`tests.docs_examples`); marked examples are skipped here with their
reason and run by :mod:`tests.test_docs_marked_examples` where what they need is there."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.docs_examples import (
    BLOCKS,
    DOCUMENTS,
    OUTPUTS,
    ROOT,
    Block,
    files_of,
    make_clone,
    needs,
    readme_blocks,
    run_block,
    with_checks,
)


def test_documents_have_examples() -> None:
    assert len(BLOCKS) >= 40
    assert all(block.skip for block in BLOCKS if "../shared" in block.code), \
        "a block that reads ../shared must carry a skip marker"
    assert {needs(block.skip) for block in BLOCKS if block.skip} <= {"data", "judge", "dask", "setup"}
    setup = [block.name for block in BLOCKS if block.skip and needs(block.skip) == "setup"]
    # installing, running the suite, serving the site: .ci/run does each
    assert all(name.startswith(("README.md:", "docs/development.md:")) for name in setup), setup


def test_examples_write_into_the_ignored_folder() -> None:
    assert f"/{OUTPUTS}/" in (ROOT / ".gitignore").read_text(encoding="utf-8").split()
    for block in BLOCKS:
        assert "/tmp" not in block.code, f"{block.name} writes outside its working folder"


def test_shown_outputs_become_checks() -> None:
    code = ("x = [1, 2]\nx  # [1, 2]\nlen(x)\n# 2\nprint(x)  # prints the list\nlen(x)  # 2; the count\n"
            "print(len(x))  # 2\n")
    checked = with_checks(code)
    assert checked.count("assert ") == 4 and "print(x)" in checked and "print(len(x))" in checked
    exec(compile(checked, "<readme>", "exec"), {})
    with pytest.raises(AssertionError, match="shows 3"):
        exec(compile(with_checks("len([1])  # 3\n"), "<readme>", "exec"), {})


def test_markers_parse() -> None:
    text = ("a\n<!-- readme-test: skip (needs a Dask scheduler) -->\n```bash\necho 1\n```\n\n"
            "```python\nprint(2)\n```\n")
    first, second = readme_blocks(text)
    assert (first.skip, first.language, first.code, first.line) == ("needs a Dask scheduler", "bash", "echo 1\n", 3)
    assert (second.skip, second.language) == (None, "python")
    assert needs("needs a Dask scheduler") == "dask" and needs("needs the reference data: x") == "data"
    assert needs("needs an OpenAI-compatible server at 127.0.0.1:8000") == "judge"


@pytest.fixture(scope="module")
def clones(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, set[str]]]:
    return {}


def clone_of(document: str, clones: dict, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, set[str]]:
    """The copy a document's blocks run in, made at its first block (one copy per document)."""
    if document not in clones:
        repo = make_clone(tmp_path_factory.mktemp(document.replace("/", "_").replace(".", "_")))
        clones[document] = (repo, files_of(repo))
    return clones[document]


@pytest.mark.slow
@pytest.mark.parametrize("block", [pytest.param(b, marks=pytest.mark.xdist_group(b.document)) for b in BLOCKS],
                         ids=[block.name for block in BLOCKS])
def test_example_runs(block: Block, clones: dict, tmp_path_factory: pytest.TempPathFactory) -> None:
    repo, before = clone_of(block.document, clones, tmp_path_factory)
    if block.skip:
        pytest.skip(f"{block.name}: {block.skip}")
    run_block(block, repo, before)


def test_every_document_is_in_the_site_navigation() -> None:
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    for path in DOCUMENTS[1:]:
        assert path.name in nav, f"{path.name} is not in mkdocs.yml's nav"


def test_git_ignores_what_the_examples_write() -> None:
    try:
        ignored = subprocess.run(["git", "check-ignore", "-q", "--no-index", f"{OUTPUTS}/x/questions.jsonl"],
                                 cwd=ROOT, capture_output=True)
    except OSError:
        pytest.skip("git is not available")
    assert ignored.returncode == 0


def test_ci_runs_the_readmes_test_command_then_everything_else() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    command = next(b.code for b in BLOCKS if b.document == "README.md" and "pytest" in b.code).strip()
    install, tests = command.split(" && ")
    assert install == "pip install -e '.[test]'" and tests.startswith("pytest -m \"not slow\"")
    assert f"run_tests {tests}" in ci and "run_tests pytest -m slow" in ci  # together: every test
    assert "mkdocs build --strict" in ci

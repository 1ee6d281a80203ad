"""Every shell and Python example of README.md runs as written, in order, in a fresh copy of the repository.

The copy is made in a temporary folder with nothing beside it (no ``../shared``), so an example that needs
the reference data, a server or a cluster must say so: the line just before its fence is the marker

    <!-- readme-test: skip (the reason) -->

and the block is skipped with that reason. Blocks run one after the other in the same copy (a later example
may use an earlier one's output), each in its own process: ``bash -e`` for ```bash blocks, ``python`` for
```python blocks. The README structure may change freely: blocks are found wherever they are.
"""

from __future__ import annotations

import ast
import io
import os
import re
import shutil
import subprocess
import sys
import tokenize
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"

_FENCE = re.compile(r"^```(bash|python)[ \t]*\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)
_SKIP = re.compile(r"<!--\s*readme-test:\s*skip\s*\((?P<reason>[^)]*)\)\s*-->\s*\Z")
_TIMEOUT = 300


@dataclass(frozen=True)
class Block:
    line: int
    language: str
    code: str
    skip: str | None

    @property
    def name(self) -> str:
        return f"README.md:{self.line}:{self.language}"


def readme_blocks(text: str) -> list[Block]:
    """The ```bash and ```python blocks of ``text``, with the skip reason of the marker just before each."""
    blocks = []
    for match in _FENCE.finditer(text):
        before = text[:match.start()].rstrip("\n").rsplit("\n", 1)[-1]
        skip = _SKIP.search(before)
        blocks.append(Block(line=text.count("\n", 0, match.start()) + 1, language=match.group(1),
                            code=match.group(2), skip=skip.group("reason").strip() if skip else None))
    return blocks


BLOCKS = readme_blocks(README.read_text(encoding="utf-8"))


def _repository_files() -> list[str]:
    """The files of a fresh clone: tracked and new (not ignored) files of this checkout."""
    try:
        out = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                             capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("the README test copies the repository's files with git, which is not available here")
    return [name for name in out.decode("utf-8", "surrogateescape").split("\0")
            if name and (ROOT / name).is_file()]


@pytest.fixture(scope="module")
def clone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the repository in a folder of its own (nothing beside it: no ../shared)."""
    base = tmp_path_factory.mktemp("readme")
    repo = base / "chemref"
    for name in _repository_files():
        target = repo / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, target)
    (base / "blocks").mkdir()
    return repo


def _environment(repo: Path) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("CHEMREF_", "PYTEST_", "COV_"))}
    env["PYTHONPATH"] = str(repo)  # the copy's code, also for the `chemref` command's entry point
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env["MPLBACKEND"] = "Agg"
    bindir = str(Path(sys.executable).parent)  # the `chemref` script installed beside this interpreter
    env["PATH"] = bindir + os.pathsep + env.get("PATH", "")
    return env


def _literal(comment: str) -> tuple[bool, object]:
    """``(True, value)`` when a comment is a Python literal (up to a ``;``), as in ``x  # 3; the count``."""
    text = comment.lstrip("#").strip().split(";")[0].strip()
    if not text or "..." in text:
        return False, None
    try:
        return True, ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return False, None


def with_checks(code: str) -> str:
    """``code`` with every top-level expression whose comment (on its line, or alone on the next line) is a
    literal turned into an ``assert`` that it evaluates to that literal: the README's shown outputs are checked."""
    comments: dict[int, str] = {}
    for token in tokenize.generate_tokens(io.StringIO(code).readline):
        if token.type == tokenize.COMMENT:
            comments[token.start[0]] = token.string
    lines = code.splitlines()
    tree = ast.parse(code)
    body: list[ast.stmt] = []
    for node in tree.body:
        shown: tuple[bool, object] = (False, None)
        if isinstance(node, ast.Expr):
            end = node.end_lineno or node.lineno
            for number in (end, end + 1):
                if number in comments and (number == end or lines[number - 1].lstrip().startswith("#")):
                    shown = _literal(comments[number])
                    if shown[0]:
                        break
        if not shown[0]:
            body.append(node)
            continue
        expected = ast.parse(repr(shown[1]), mode="eval").body
        check = ast.Assert(test=ast.Compare(left=node.value, ops=[ast.Eq()], comparators=[expected]),
                           msg=ast.Constant(f"README.md shows {shown[1]!r} for line {node.lineno} of this block"))
        body.append(ast.copy_location(check, node))
    tree.body = body
    return ast.unparse(ast.fix_missing_locations(tree)) + "\n"


def test_readme_has_examples() -> None:
    assert len(BLOCKS) >= 20
    assert all(block.skip for block in BLOCKS if "../shared" in block.code), \
        "a block that reads ../shared must carry a skip marker"


def test_shown_outputs_become_checks() -> None:
    code = "x = [1, 2]\nx  # [1, 2]\nlen(x)\n# 2\nprint(x)  # prints the list\nlen(x)  # 2; the count\n"
    checked = with_checks(code)
    assert checked.count("assert ") == 3 and "print(x)" in checked
    exec(compile(checked, "<readme>", "exec"), {})
    with pytest.raises(AssertionError, match="shows 3"):
        exec(compile(with_checks("len([1])  # 3\n"), "<readme>", "exec"), {})


def test_markers_parse() -> None:
    text = ("a\n<!-- readme-test: skip (needs a Dask scheduler) -->\n```bash\necho 1\n```\n\n"
            "```python\nprint(2)\n```\n")
    first, second = readme_blocks(text)
    assert (first.skip, first.language, first.code, first.line) == ("needs a Dask scheduler", "bash", "echo 1\n", 3)
    assert (second.skip, second.language) == (None, "python")


@pytest.mark.slow
@pytest.mark.parametrize("block", BLOCKS, ids=[block.name for block in BLOCKS])
def test_readme_example_runs(block: Block, clone: Path) -> None:
    if block.skip:
        pytest.skip(f"{block.name}: {block.skip}")
    script = clone.parent / "blocks" / f"line{block.line}.{'sh' if block.language == 'bash' else 'py'}"
    script.write_text(block.code if block.language == "bash" else with_checks(block.code), encoding="utf-8")
    command = ["bash", "-e", "-o", "pipefail", str(script)] if block.language == "bash" \
        else [sys.executable, str(script)]
    result = subprocess.run(command, cwd=clone, env=_environment(clone), capture_output=True, text=True,
                            timeout=_TIMEOUT, stdin=subprocess.DEVNULL)
    assert result.returncode == 0, (f"{block.name} exited with {result.returncode}\n--- code\n{block.code}"
                                    f"--- stdout\n{result.stdout[-3000:]}\n--- stderr\n{result.stderr[-3000:]}")

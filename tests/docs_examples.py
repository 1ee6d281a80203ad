"""The examples of README.md and of each page of docs/: found, checked and run in a fresh copy of the repository.

Each document's ```bash and ```python blocks run as written, in order, in a copy of the repository of its own, in
a temporary folder with nothing beside it (no ``../shared``). An example that needs the reference data, a server
or a cluster says so: the line just before its fence is the marker

    <!-- readme-test: skip (the reason) -->

and :mod:`tests.test_docs_examples` skips it with that reason, while :mod:`tests.test_docs_marked_examples` runs
it where what it needs is there (:func:`needs` reads the reason). Blocks of one document run one after the other
in the same copy (a later example may use an earlier one's output), each in its own process: ``bash -e`` for
```bash blocks, ``python`` for ```python blocks. Every file an example writes must be under ``runs/`` or otherwise ignored by git (a
benchmark's local results), which :func:`run_block` checks after each block.
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
#: The documents whose examples run: the README, then the documentation pages.
DOCUMENTS = [README, *sorted((ROOT / "docs").glob("*.md"))]
#: The one folder the examples write into (``.gitignore`` ignores it).
OUTPUTS = "runs"

_FENCE = re.compile(r"^```(bash|python)[ \t]*\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)
_SKIP = re.compile(r"<!--\s*readme-test:\s*skip\s*\((?P<reason>[^)]*)\)\s*-->\s*\Z")
_TIMEOUT = 300


@dataclass(frozen=True)
class Block:
    line: int
    language: str
    code: str
    skip: str | None
    document: str = "README.md"

    @property
    def name(self) -> str:
        return f"{self.document}:{self.line}:{self.language}"


def needs(reason: str) -> str:
    """What a marked block needs, read from its marker's reason: ``data`` (the reference data), ``judge`` (an
    OpenAI-compatible server), ``dask`` (a Dask scheduler) or ``setup`` (installs the package or runs the test
    suite: ``.ci/run`` runs those commands)."""
    text = reason.lower()
    if "reference data" in text:
        return "data"
    if "server" in text:
        return "judge"
    if "dask" in text:
        return "dask"
    return "setup"


def readme_blocks(text: str, document: str = "README.md") -> list[Block]:
    """The ```bash and ```python blocks of ``text``, with the skip reason of the marker just before each."""
    blocks = []
    for match in _FENCE.finditer(text):
        before = text[:match.start()].rstrip("\n").rsplit("\n", 1)[-1]
        skip = _SKIP.search(before)
        blocks.append(Block(line=text.count("\n", 0, match.start()) + 1, language=match.group(1),
                            code=match.group(2), skip=skip.group("reason").strip() if skip else None,
                            document=document))
    return blocks


def document_blocks(path: Path) -> list[Block]:
    return readme_blocks(path.read_text(encoding="utf-8"), path.relative_to(ROOT).as_posix())


BLOCKS = [block for path in DOCUMENTS for block in document_blocks(path)]


def _repository_files() -> list[str]:
    """The files of a fresh clone: tracked and new (not ignored) files of this checkout."""
    try:
        out = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                             capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("the README test copies the repository's files with git, which is not available here")
    return [name for name in out.decode("utf-8", "surrogateescape").split("\0")
            if name and (ROOT / name).is_file()]


def make_clone(base: Path) -> Path:
    """A copy of the repository in ``base/chemref`` (nothing beside it: no ../shared)."""
    repo = base / "chemref"
    for name in _repository_files():
        target = repo / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, target)
    (base / "blocks").mkdir()
    return repo


def files_of(repo: Path) -> set[str]:
    return {p.relative_to(repo).as_posix() for p in repo.rglob("*") if p.is_file() or p.is_symlink()}


def environment(repo: Path) -> dict[str, str]:
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
    literal turned into an ``assert`` that it evaluates to that literal (for ``print(x)``: that ``x`` does, and it is
    still printed): the outputs the documents show are checked."""
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
        value = node.value
        printed = (isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "print"
                   and len(value.args) == 1 and not value.keywords)
        if printed:  # print(x)  # shown: check x, and print it still
            body.append(node)
            value = value.args[0]
        check = ast.Assert(test=ast.Compare(left=value, ops=[ast.Eq()], comparators=[expected]),
                           msg=ast.Constant(f"the document shows {shown[1]!r} for line {node.lineno} of this block"))
        body.append(ast.copy_location(check, node))
    tree.body = body
    return ast.unparse(ast.fix_missing_locations(tree)) + "\n"


def run_block(block: Block, repo: Path, before: set[str], substitutions: dict[str, str] | None = None,
              env: dict[str, str] | None = None, timeout: float = _TIMEOUT) -> None:
    """Run ``block`` in ``repo`` (after ``substitutions`` of its text: a server's or a scheduler's address), and
    check it wrote nothing outside ``runs/`` (``before``: the copy's files before the document's first block)."""
    code = block.code
    for old, new in (substitutions or {}).items():
        code = code.replace(old, new)
    script = repo.parent / "blocks" / f"{block.document.replace('/', '_')}-line{block.line}." \
        f"{'sh' if block.language == 'bash' else 'py'}"
    script.write_text(code if block.language == "bash" else with_checks(code), encoding="utf-8")
    command = ["bash", "-e", "-o", "pipefail", str(script)] if block.language == "bash" \
        else [sys.executable, str(script)]
    result = subprocess.run(command, cwd=repo, env={**environment(repo), **(env or {})}, capture_output=True,
                            text=True, timeout=timeout, stdin=subprocess.DEVNULL)
    assert result.returncode == 0, (f"{block.name} exited with {result.returncode}\n--- code\n{code}"
                                    f"--- stdout\n{result.stdout[-3000:]}\n--- stderr\n{result.stderr[-3000:]}")
    if block.language == "python":
        assert result.stdout.strip(), f"{block.name} prints nothing when run as a script (print what it shows)"
    stray = not_ignored(sorted(name for name in files_of(repo) - before if not name.startswith(OUTPUTS + "/")))
    assert not stray, f"{block.name} wrote files that git would show (write them under {OUTPUTS}/): {stray[:10]}"


def not_ignored(names: list[str]) -> list[str]:
    """Those of ``names`` (paths relative to the repository) that the repository's ``.gitignore`` leaves shown."""
    if not names:
        return []
    try:
        out = subprocess.run(["git", "check-ignore", "--no-index", "--stdin"], cwd=ROOT, input="\n".join(names),
                             capture_output=True, text=True).stdout
    except OSError:
        return names
    ignored = set(out.splitlines())
    return [name for name in names if name not in ignored]

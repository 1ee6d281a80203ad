"""The layout drawn in the README's "Layout" section: nothing imports upward.

``jats``, ``brat`` and ``scoring`` import neither ``nlp`` nor ``questions``; the rule engines of ``nlp`` import no
spaCy (nor thinc, nor a spaCy component). Inside ``questions``, ``funnel`` < ``output`` < ``judge`` < ``labels``:
each imports only the parts before it. Every import is read from the source (module level and inside
functions, and the module names of lazy-export tables), so an import that only runs on some path counts too.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import ROOT

PACKAGE = ROOT / "chemref"
#: Rule engines: pure Python, never spaCy.
ENGINES = ("sentences", "rules", "authors", "claims", "citation_markers", "prefilters", "wordlists",
           "tokenizer_rules")
#: Layers below nlp and questions.
LOWER = ("jats", "brat", "scoring")
#: The parts of questions, lowest first: each may import only those before it.
QUESTION_PARTS = ("funnel", "output", "judge", "labels")


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    """Every module ``path`` imports (absolute names), plus ``"chemref..."`` strings (lazy-export targets)."""
    package = _module_name(path) if path.name == "__init__.py" else _module_name(path).rpartition(".")[0]
    return _imports_in(path.read_text(encoding="utf-8"), package)


def _imports_in(text: str, package: str) -> set[str]:
    """The imports of a module's source ``text``, relative ones resolved against ``package``."""
    tree = ast.parse(text)
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([node.module] if node.module else []))
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.startswith("chemref."):
            found.add(node.value.partition(":")[0])
    return found


def _under(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


@pytest.mark.slow
@pytest.mark.parametrize("layer", LOWER)
def test_lower_layers_import_neither_nlp_nor_questions(layer: str) -> None:
    upward = {
        f"{_module_name(path)} imports {name}"
        for path in sorted((PACKAGE / layer).rglob("*.py"))
        for name in _imports(path)
        if _under(name, "chemref.nlp") or _under(name, "chemref.questions")
    }
    assert not upward, sorted(upward)


@pytest.mark.parametrize("part", QUESTION_PARTS[:-1])
def test_question_parts_import_only_the_parts_below(part: str) -> None:
    above = QUESTION_PARTS[QUESTION_PARTS.index(part) + 1:]
    upward = {
        f"{_module_name(path)} imports {name}"
        for path in sorted((PACKAGE / "questions" / part).rglob("*.py"))
        for name in _imports(path)
        if any(_under(name, f"chemref.questions.{other}") for other in above)
    }
    assert not upward, sorted(upward)


def test_every_question_module_is_in_a_part() -> None:
    loose = sorted(p.name for p in (PACKAGE / "questions").glob("*.py") if p.name != "__init__.py")
    assert not loose, f"put these in one of {QUESTION_PARTS}: {loose}"


@pytest.mark.parametrize("engine", ENGINES)
def test_rule_engines_import_no_spacy(engine: str) -> None:
    names = _imports(PACKAGE / "nlp" / f"{engine}.py")
    heavy = {name for name in names
             if any(_under(name, top) for top in ("spacy", "thinc", "chemref.nlp.components", "chemref.nlp.chemicals",
                                                  "chemref.nlp.chemical_features", "chemref.nlp.chemical_corpus"))}
    assert not heavy, sorted(heavy)


@pytest.mark.slow
def test_importing_the_rule_engines_loads_no_spacy() -> None:
    modules = ", ".join(f"chemref.nlp.{engine}" for engine in ENGINES)
    code = f"import sys, {modules}; assert 'spacy' not in sys.modules and 'thinc' not in sys.modules, sorted(sys.modules)"
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_the_checker_sees_an_upward_import() -> None:
    """The scan itself: an import inside a function, a relative import and a lazy-export string all count."""
    text = ("X = {'load': 'chemref.nlp.components.pipeline:load'}\n"
            "def f():\n    from chemref.questions import build\n    from ..nlp import wordlists\n")
    assert {"chemref.nlp.components.pipeline", "chemref.questions", "chemref.nlp.wordlists"} <= _imports_in(
        text, "chemref.jats")


def _module_level_imports(path: Path) -> set[str]:
    """The chemref modules ``path`` imports when it is imported (not inside functions, not for type checking)."""
    package = _module_name(path) if path.name == "__init__.py" else _module_name(path).rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    body = [node for node in tree.body
            if not (isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test))]
    found: set[str] = set()
    for node in body:
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([node.module] if node.module else []))
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    own = _module_name(path)
    return {name for name in found if _is_module(name) and name != own}


def _is_module(name: str) -> bool:
    if not _under(name, "chemref"):
        return False
    path = ROOT.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def test_no_import_cycles_in_nlp() -> None:
    """Importing any nlp module never comes back to itself (no lazy shims needed to break a circle)."""
    graph = {_module_name(path): _module_level_imports(path) for path in (PACKAGE / "nlp").rglob("*.py")}
    cycles = []
    for start in graph:
        stack, seen = [(start, (start,))], set()
        while stack:
            node, trail = stack.pop()
            for nxt in graph.get(node, ()):
                if nxt == start:
                    cycles.append(" -> ".join(trail + (start,)))
                elif nxt not in seen and nxt in graph:
                    seen.add(nxt)
                    stack.append((nxt, trail + (nxt,)))
    assert not cycles, cycles

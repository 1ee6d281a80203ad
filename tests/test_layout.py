"""The layout drawn in docs/layout.md.

The layers are import-linter contracts in ``pyproject.toml`` (``[tool.importlinter]``): ``lint-imports`` reads
every import, those inside functions included, and no import is ignored. These tests run it, show that it fails
on an upward import, and check what the contracts cannot say (every module of ``questions`` sits in a part; the
rule engines load no spaCy when imported; one home per input/output helper; outputs written atomically).
"""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import ROOT

PACKAGE = ROOT / "chemref"
#: Rule engines: pure Python, never spaCy.
ENGINES = ("sentences", "rules", "authors", "claims", "citation_markers", "prefilters", "wordlists",
           "tokenizer_rules", "reagents")
#: The parts of questions, lowest first: each may import only those before it.
QUESTION_PARTS = ("funnel", "output", "judge", "labels")


def _lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` on the package under ``root`` (its ``pyproject.toml``), the graph built afresh."""
    pytest.importorskip("importlinter", reason="import-linter is not installed (pip install -e '.[test]')")
    code = "import sys; from importlinter.cli import lint_imports_command; sys.exit(lint_imports_command())"
    env = {"PYTHONPATH": str(root), "LC_ALL": "C.UTF-8", "PATH": str(Path(sys.executable).parent)}
    return subprocess.run([sys.executable, "-c", code, "--no-cache", "--config", str(root / "pyproject.toml")],
                          cwd=root, env=env, capture_output=True, text=True, timeout=300)


def test_import_contracts_hold() -> None:
    result = _lint_imports(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout and "ignored" not in result.stdout.lower()


def test_only_heavy_packages_are_imported_inside_functions() -> None:
    """Every import sits at a module's top except those of the heavy optional packages (the list in pyproject's
    ``banned-module-level-imports``); ``tools/function_imports.py --check`` names any other."""
    result = subprocess.run([sys.executable, str(ROOT / "tools" / "function_imports.py"), "--check"], cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("module, line, contract", [
    # a scorer importing the question build, inside a function
    ("chemref/scoring/stats/wrong.py", "def f():\n    from chemref.questions import build\n",
     "chemref's layers"),
    # the funnel importing what a build writes
    pytest.param("chemref/questions/funnel/wrong.py", "from chemref.questions.output import writer\n",
                 "questions: funnel < output", marks=pytest.mark.slow),
    # a rule engine importing spaCy
    pytest.param("chemref/nlp/sentences_wrong.py", "import spacy\n", None, marks=pytest.mark.slow),
    # two sibling modules importing each other
    pytest.param("chemref/scoring/brat/wrong.py", "from chemref.scoring.brat import score\n", "no import cycles",
                 marks=pytest.mark.slow),
])
def test_import_contracts_fail_on_a_wrong_import(tmp_path: Path, module: str, line: str, contract: str | None) -> None:
    copy = tmp_path / "tree"
    shutil.copytree(PACKAGE, copy / "chemref", ignore=shutil.ignore_patterns("__pycache__", "data", "templates"))
    shutil.copy(ROOT / "pyproject.toml", copy / "pyproject.toml")
    target = copy / module
    target.write_text(line, encoding="utf-8")
    if module.endswith("sentences_wrong.py"):  # the forbidden contract names its source modules: extend one
        (copy / "chemref/nlp/sentences/core.py").write_text(
            (copy / "chemref/nlp/sentences/core.py").read_text(encoding="utf-8") + "\n\ndef _wrong():\n    import spacy\n",
            encoding="utf-8")
        contract = "nlp: the rule engines import neither spaCy"
    if module.endswith("brat/wrong.py"):  # and score imports it back
        (copy / "chemref/scoring/brat/score.py").write_text(
            (copy / "chemref/scoring/brat/score.py").read_text(encoding="utf-8")
            + "\n\ndef _wrong():\n    from chemref.scoring.brat import wrong\n", encoding="utf-8")
    result = _lint_imports(copy)
    assert result.returncode == 1, result.stdout + result.stderr
    assert f"{contract}" in result.stdout and "BROKEN" in result.stdout, result.stdout


def test_every_question_module_is_in_a_part() -> None:
    loose = sorted(p.name for p in (PACKAGE / "questions").glob("*.py") if p.name != "__init__.py")
    assert not loose, f"put these in one of {QUESTION_PARTS}: {loose}"


@pytest.mark.slow
def test_importing_the_rule_engines_loads_no_spacy() -> None:
    modules = ", ".join(f"chemref.nlp.{engine}" for engine in ENGINES)
    code = f"import sys, {modules}; assert 'spacy' not in sys.modules and 'thinc' not in sys.modules, sorted(sys.modules)"
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _under(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


# ---------------------------------------------------------------- the input/output layer: one home per helper

#: Each I/O concept's helpers and the one module that defines them (``chemref._io`` and ``chemref.inputs`` also
#: export them from their ``__init__``).
IO_HOMES = {
    "chemref._io.limits": ("max_file_bytes", "megabytes", "regular_file", "read_limited", "read_regular"),
    "chemref._io.text": ("line_and_column", "decode_utf8", "undecodable_line", "not_utf8", "iter_lines"),
    "chemref._io.outputs": ("is_stdout", "check_output", "check_distinct_outputs", "check_not_input"),
    "chemref._io.temporary": ("remove_stale_temporaries", "discard_pending"),
    "chemref._io.atomic": ("atomic_write", "write_text"),
    "chemref._io.lock": ("RunLock",),
    "chemref._io.staging": ("staged_file", "commit_renames", "discard_staged"),
    "chemref._io.secrets": ("scrub", "scrub_json", "excerpt", "register_secret", "check_api_key", "safe_url"),
    "chemref.inputs.kinds": ("is_package",),
    "chemref.inputs.source": ("Source", "source_label", "path_text"),
    "chemref.inputs.walk": ("walk_jats",),
    "chemref.inputs.file_lists": ("read_file_list",),
    "chemref.inputs.package_lists": ("package_licences",),
    "chemref.inputs.archives": ("package_sources",),
    "chemref.inputs.sources": ("iter_sources", "expand_inputs", "count_sources", "check_inputs", "folder_sources"),
    "chemref.licence": ("cc_kind", "cc_by_decision", "is_cc_by_name", "is_cc_by_4", "short_name"),
    "chemref.jsonl": ("read_jsonl", "write_jsonl"),
    "chemref.pool": ("ordered_map", "map_chunks"),
}
_HOME_OF = {name: module for module, names in IO_HOMES.items() for name in names}
#: Re-exports that are public API elsewhere: ``chemref.questions`` offers the input layer's ``Source`` and
#: ``expand_inputs`` (through its builder) to users of the question builder.
PUBLIC_REEXPORTS = {("chemref/questions/__init__.py", "chemref.questions.builder", "Source"),
                    ("chemref/questions/__init__.py", "chemref.questions.builder", "expand_inputs")}
#: The packages whose ``__init__`` re-exports their modules' names.
IO_PACKAGES = ("chemref._io", "chemref.inputs")


def _sources(*folders: str) -> list[Path]:
    return sorted(path for folder in folders for path in (ROOT / folder).rglob("*.py"))


def _top_level_definitions(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = {node.name for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
    names.update(t.id for node in tree.body if isinstance(node, ast.Assign) for t in node.targets
                 if isinstance(t, ast.Name))
    return names


def test_each_io_helper_is_defined_in_one_module() -> None:
    assert set(IO_HOMES) <= {_module_name(path) for path in _sources("chemref")}
    misplaced = sorted(f"{_module_name(path)} defines {name} (its home is {_HOME_OF[name]})"
                       for path in _sources("chemref") for name in _top_level_definitions(path)
                       if name in _HOME_OF and _module_name(path) != _HOME_OF[name])
    missing = sorted(f"{module} does not define {name}" for module, names in IO_HOMES.items()
                     for name in names if name not in _top_level_definitions(ROOT.joinpath(*module.split("."))
                                                                          .with_suffix(".py")))
    assert not misplaced and not missing, misplaced + missing


def test_io_helpers_are_imported_from_their_home_or_its_package() -> None:
    """``read_jsonl`` from ``chemref.jsonl`` (not through a scorer's module), ``atomic_write`` from
    ``chemref._io`` or ``chemref._io.atomic``, and so on, in chemref, the tests, the benchmarks and training."""
    wrong = []
    for path in _sources("chemref", "tests", "benchmarks", "training"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                for alias in node.names:
                    home = _HOME_OF.get(alias.name)
                    if home and node.module != home and node.module != home.rpartition(".")[0] \
                            and _under(node.module, "chemref") \
                            and (path.relative_to(ROOT).as_posix(), node.module, alias.name) not in PUBLIC_REEXPORTS:
                        wrong.append(f"{path.relative_to(ROOT)}:{node.lineno}: {alias.name} from {node.module}")
    assert not wrong, wrong


@pytest.mark.parametrize("package", IO_PACKAGES)
def test_io_package_init_only_imports_from_its_modules(package: str) -> None:
    """The ``__init__`` holds imports and ``__all__`` only (no code, no lazy ``__getattr__``), and every name in
    ``__all__`` is importable from it."""
    import importlib

    init = ROOT.joinpath(*package.split("."), "__init__.py")
    tree = ast.parse(init.read_text(encoding="utf-8"))
    other = [ast.unparse(node)[:60] for node in tree.body
             if not isinstance(node, (ast.Import, ast.ImportFrom))
             and not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant))
             and not (isinstance(node, ast.Assign) and [ast.unparse(t) for t in node.targets] == ["__all__"])]
    assert not other, other
    module = importlib.import_module(package)
    assert [name for name in module.__all__ if not hasattr(module, name)] == []


#: The modules outside ``chemref._io`` that write files without the atomic helpers, and why each may.
OWN_WRITERS = {
    "chemref/cli/__init__.py": "reopens standard output (descriptor 1) as UTF-8",
    "chemref/nlp/components/chemicals.py": "spaCy's to_disk writes a model folder file by file, as spaCy does",
    "chemref/nlp/components/serialize.py": "spaCy's to_disk writes a model folder file by file, as spaCy does",
    "chemref/questions/output/checkpoint.py": "the build journal is appended to, one line per shard",
    "chemref/questions/output/finish.py": "shards are joined into a staged file",
    "chemref/questions/output/shards.py": "a shard's files are written in the staging folder and renamed there",
    "chemref/questions/judge/client.py": "the judge's responses are appended to, one request at a time",
    "chemref/questions/output/difficulty.py": "the ranked records are streamed into staged files renamed together",
}
_TEMPORARY_CALLS = {"mkstemp", "mkdtemp", "NamedTemporaryFile", "TemporaryFile", "SpooledTemporaryFile"}


def _writes(path: Path) -> list[str]:
    """The file writes of ``path``'s source: ``open(..., "w"/"a"/"x"/"+")``, ``.write_text``, ``.write_bytes``,
    ``os.replace``, ``os.rename`` and ``tempfile`` files."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        if name == "open" and isinstance(func, ast.Name):
            mode = node.args[1] if len(node.args) > 1 else next((k.value for k in node.keywords if k.arg == "mode"),
                                                                None)
            if isinstance(mode, ast.Constant) and isinstance(mode.value, str) and set(mode.value) & set("wax+"):
                found.append(f"{node.lineno}: open(..., {mode.value!r})")
        elif name in ("write_text", "write_bytes") and isinstance(func, ast.Attribute) or \
                name in ("replace", "rename") and isinstance(func, ast.Attribute) and ast.unparse(func.value) == "os" \
                or name in _TEMPORARY_CALLS:
            found.append(f"{node.lineno}: {ast.unparse(func)}")
    return found


def test_outputs_are_written_through_the_atomic_helpers() -> None:
    """Outside ``chemref._io``, a module writes a file only with :func:`chemref._io.atomic_write` (or
    ``write_text``, ``staged_file``), unless it is one of :data:`OWN_WRITERS`, each with its reason."""
    writers = {}
    for path in _sources("chemref"):
        rel = path.relative_to(ROOT).as_posix()
        if not rel.startswith("chemref/_io/"):
            found = _writes(path)
            if found:
                writers[rel] = found
    assert sorted(set(writers) - set(OWN_WRITERS)) == [], {k: writers[k] for k in set(writers) - set(OWN_WRITERS)}
    assert sorted(set(OWN_WRITERS) - set(writers)) == [], "no longer writes on its own: remove it from OWN_WRITERS"


def test_the_writer_scan_sees_each_kind_of_write(tmp_path: Path) -> None:
    source = tmp_path / "m.py"
    source.write_text("import os, tempfile\nopen(p, 'w')\nopen(p, mode='ab')\nopen(p)\nopen(p, 'rb')\n"
                      "P.write_text('x')\nos.replace(a, b)\ntempfile.mkstemp()\n", encoding="utf-8")
    assert [line.split(":")[0] for line in _writes(source)] == ["2", "3", "6", "7", "8"]


def test_package_exports_never_shadow_a_submodule() -> None:
    """A lazily exported name that is also a submodule's name would be the module or the function depending on
    what was imported first."""
    import importlib
    import pkgutil

    import chemref

    clashes = []
    for info in pkgutil.walk_packages(chemref.__path__, "chemref."):
        if info.ispkg:
            package = importlib.import_module(info.name)
            subs = {sub.name for sub in pkgutil.iter_modules(package.__path__)}
            clashes += [f"{info.name}.{name}" for name in sorted(set(getattr(package, "__all__", ())) & subs)]
    assert not clashes, clashes

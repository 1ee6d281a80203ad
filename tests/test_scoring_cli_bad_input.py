"""Bad input through every ``chemref`` command: one ``chemref: error: ...`` line, exit status 2, no traceback
and no output file left behind (``questions build`` has its own tests)."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from tests.helpers import CORPORA

from chemref._io.atomic import atomic_write
from chemref.cli import main
from chemref.errors import InputError

GOLD = CORPORA / "brat" / "gold"
JATS = CORPORA / "jats" / "sample_zinc_knuckle.xml"
QUESTIONS = Path(__file__).parent / "data" / "scoring" / "questions.jsonl"
POOL = Path(__file__).parent / "data" / "scoring" / "pool.jsonl"


@pytest.fixture()
def bad(tmp_path: Path) -> Path:
    """A scratch folder of bad inputs, one file or folder per kind of mistake."""
    (tmp_path / "empty.txt").write_bytes(b"")
    (tmp_path / "bad.jsonl").write_text('{"id": "q1", "relevant": ["a"]}\n{bad\n', encoding="utf-8")
    (tmp_path / "badpred.jsonl").write_text('{"id": "q1", "dois": []}\n{bad\n', encoding="utf-8")
    (tmp_path / "qrels").write_text("q1 0 a inf\n", encoding="utf-8")
    (tmp_path / "run").write_text("q1 Q0 a 1 nan tag\n", encoding="utf-8")
    (tmp_path / "rgold.jsonl").write_text('{"id": "q1", "relevant": ["a"]}\n', encoding="utf-8")
    (tmp_path / "nanscores.jsonl").write_text('{"id": "q1", "ranking": ["a"], "scores": [NaN]}\n', encoding="utf-8")
    (tmp_path / "nonutf.bin").write_bytes(b"\xff\xfe\x00bad")
    (tmp_path / "late.jsonl").write_bytes(b"".join(b'{"id": "q%d", "relevant": ["a"]}\n' % n for n in range(2000))
                                          + b'{"id": "q\xe9"}\n')
    (tmp_path / "bad.xml").write_text("<article><p>unclosed</article>", encoding="utf-8")
    (tmp_path / "list.json").write_text("[1, 2]", encoding="utf-8")
    (tmp_path / "gold.json").write_text('{"1": "yes", "2": "no"}', encoding="utf-8")
    (tmp_path / "emptydir").mkdir()
    zipfile.ZipFile(tmp_path / "empty.zip", "w").close()
    with zipfile.ZipFile(tmp_path / "junk.zip", "w") as zf:
        zf.writestr("readme.txt", "no annotations here")
    bada = tmp_path / "bada"
    bada.mkdir()
    for f in GOLD.iterdir():
        (bada / f.name).write_bytes(f.read_bytes())
    (bada / "r001.ann").write_text("T1\tREACTION_STEP 0 5\tabc\nT2 no tab here\n", encoding="utf-8")
    (tmp_path / "afile").write_text("x", encoding="utf-8")
    return tmp_path


# (arguments with {d} for the scratch folder, words the error line must contain)
CASES = [
    # usage errors become one line too
    (["frob"], "No such command"),
    (["score", "brat", "{d}/emptydir"], "Missing argument"),
    (["score", "brat", str(GOLD), str(GOLD), "--frob"], "No such option"),
    (["score", "brat", str(GOLD), str(GOLD), "--workers", "-1"], "--workers"),
    (["jats", str(JATS), "--workers", "0"], "--workers"),
    (["baseline", "bm25", str(QUESTIONS)], "--output"),
    (["score", "ranking", "{d}/rgold.jsonl", "{d}/rgold.jsonl", "--k", "0"], "--k"),
    (["score", "questions", str(QUESTIONS), str(QUESTIONS), "--k", "0"], "--k"),
    # score brat
    (["score", "brat", "{d}/missing", str(GOLD)], "missing: no such file or folder"),
    (["score", "brat", str(GOLD), "{d}/missing"], "missing: no such file or folder"),
    (["score", "brat", "{d}/empty.txt", str(GOLD)], "not a folder or a .zip"),
    (["score", "brat", "{d}/emptydir", str(GOLD)], "no .ann files found in the gold"),
    (["score", "brat", str(GOLD), "{d}/emptydir"], "no .ann files found in the prediction"),
    (["score", "brat", str(GOLD), "{d}/empty.zip"], "no .ann files found in the prediction"),
    (["score", "brat", str(GOLD), "{d}/junk.zip"], "no .ann files found in the prediction"),
    (["score", "brat", str(GOLD), "{d}/bada"], "r001.ann:2: T line has no tab"),
    (["score", "brat", "{d}/bada", str(GOLD)], "r001.ann:2: T line has no tab"),
    (["score", "brat", str(GOLD), str(GOLD), "--brateval", "--span", "approx", "--similarity", "2"],
     "similarity threshold must be between 0 and 1"),
    (["score", "brat", str(GOLD), str(GOLD), "-o", "{d}/emptydir"], "output path is a folder"),
    (["score", "brat", str(GOLD), str(GOLD), "-o", "{d}/afile/out.txt"], "is a file, not a folder"),
    # score questions / ranking / pubmedqa
    (["score", "questions", "{d}/missing", "{d}/empty.txt"], "missing: no such file"),
    (["score", "questions", "{d}/emptydir", "{d}/empty.txt"], "is a folder, expected a file"),
    (["score", "questions", "{d}/empty.txt", "{d}/empty.txt"], "holds no questions"),
    (["score", "questions", "{d}/nonutf.bin", "{d}/empty.txt"], "nonutf.bin:1:1: not UTF-8"),
    (["score", "questions", "{d}/empty.txt", "{d}/empty.txt", "--format", "citeme"], "empty file"),
    (["score", "questions", str(QUESTIONS), "{d}/badpred.jsonl"], "badpred.jsonl:2:2: not valid JSON"),
    (["score", "ranking", "{d}/empty.txt", "{d}/empty.txt"], "holds no queries"),
    (["score", "ranking", "{d}/bad.jsonl", "{d}/bad.jsonl"], "bad.jsonl:2:2: not valid JSON"),
    (["score", "ranking", "{d}/list.json", "{d}/list.json"], "list.json:1: expected a JSON object"),
    (["score", "ranking", "{d}/nonutf.bin", "{d}/empty.txt"], "not UTF-8"),
    (["score", "ranking", "{d}/late.jsonl", "{d}/rgold.jsonl"], "late.jsonl:2001:10: not UTF-8"),
    (["score", "ranking", "{d}/bad.jsonl", "{d}/bad.jsonl", "-o", "{d}/emptydir"], "output path is a folder"),
    (["score", "ranking", "{d}/qrels", "{d}/run", "--format", "trec"], "qrels:1: relevance 'inf' is not a finite"),
    (["score", "ranking", "{d}/rgold.jsonl", "{d}/nanscores.jsonl"], "nanscores.jsonl:1: NaN is not a finite number"),
    (["score", "pubmedqa", "{d}/missing", "{d}/gold.json"], "missing: no such file"),
    (["score", "pubmedqa", "{d}/gold.json", "{d}/empty.txt"], "empty.txt:1:1: not valid JSON"),
    (["score", "pubmedqa", "{d}/list.json", "{d}/gold.json"], "must be a JSON object"),
    (["score", "pubmedqa", "{d}/gold.json", "{d}/gold.json", "-o", "{d}/emptydir"], "output path is a folder"),
    # jats
    (["jats", "{d}/missing.xml"], "missing.xml: no such file"),
    (["jats", "{d}/emptydir"], "holds no .nxml or .xml files"),
    (["jats", "{d}/empty.txt"], "empty file"),
    (["jats", "{d}/bad.xml"], "bad.xml:1:31: malformed XML"),
    (["jats", str(JATS), "--json", "-o", "{d}/emptydir"], "output path is a folder"),
    # baseline bm25
    (["baseline", "bm25", "{d}/missing", "-o", "{d}/out.jsonl"], "missing: no such file"),
    (["baseline", "bm25", "{d}/emptydir", "-o", "{d}/out.jsonl"], "is a folder"),
    (["baseline", "bm25", "{d}/empty.txt", "-o", "{d}/out.jsonl"], "no questions to rank"),
    (["baseline", "bm25", "{d}/bad.jsonl", "-o", "{d}/out.jsonl"], "bad.jsonl:"),
    (["baseline", "bm25", "{d}/nonutf.bin", "-o", "{d}/out.jsonl"], "not UTF-8"),
    (["baseline", "bm25", str(QUESTIONS), "-o", "{d}/out.jsonl", "--pool", "{d}/empty.txt"], "pool is empty"),
    (["baseline", "bm25", str(QUESTIONS), "-o", "{d}/emptydir", "--pool", str(POOL)], "output path is a folder"),
]


@pytest.mark.slow
@pytest.mark.parametrize("args, words", CASES, ids=[" ".join(a[:3]) + f" [{w}]" for a, w in CASES])
def test_bad_input_is_one_error_line_and_status_2(bad: Path, capsys: pytest.CaptureFixture,
                                                  args: list[str], words: str) -> None:
    before = sorted(p.name for p in bad.rglob("*"))
    status = main([a.replace("{d}", str(bad)) for a in args])
    err = capsys.readouterr().err
    assert status == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("chemref: error: "), err
    assert words in lines[0]
    assert "Traceback" not in err
    assert sorted(p.name for p in bad.rglob("*")) == before  # no output, no temp file left behind


def test_ctrl_c_is_one_line_status_130_and_no_output(tmp_path: Path, capsys: pytest.CaptureFixture,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    import chemref.jats.report as report

    real = report.json_line
    calls = []

    def interrupted_after_one(article):  # Ctrl-C in the middle of writing the output
        calls.append(1)
        if len(calls) > 1:
            raise KeyboardInterrupt
        return real(article)

    monkeypatch.setattr(report, "json_line", interrupted_after_one)
    out = tmp_path / "out.jsonl"
    status = main(["jats", str(JATS), str(JATS), "--json", "-o", str(out), "--no-progress"])
    err = capsys.readouterr().err
    assert status == 130
    assert err.strip().splitlines() == ["chemref: error: interrupted"]
    assert list(tmp_path.iterdir()) == []


def test_atomic_write_leaves_nothing_on_interrupt(tmp_path: Path) -> None:
    target = tmp_path / "out.txt"
    target.write_text("old", encoding="utf-8")
    with pytest.raises(KeyboardInterrupt):
        with atomic_write(target) as handle:
            handle.write("half")
            raise KeyboardInterrupt
    assert target.read_text(encoding="utf-8") == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]


def test_atomic_write_errors_are_input_errors(tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("x", encoding="utf-8")
    with pytest.raises(InputError, match="is a file, not a folder"):
        with atomic_write(tmp_path / "afile" / "out.txt"):
            pass
    with pytest.raises(InputError, match="output path is a folder"):
        with atomic_write(tmp_path):
            pass


def test_atomic_write_refuses_a_folder_without_write_permission(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    import chemref._io.outputs as io

    monkeypatch.setattr(io.os, "access", lambda path, mode: False)  # tests may run as root: fake a read-only folder
    with pytest.raises(InputError, match="no permission to write in"):
        with atomic_write(tmp_path / "out.txt"):
            pass
    assert list(tmp_path.iterdir()) == []


def test_atomic_write_gives_normal_permissions(tmp_path: Path) -> None:
    import os

    mask = os.umask(0o022)
    try:
        with atomic_write(tmp_path / "new.txt") as handle:
            handle.write("x")
        assert (tmp_path / "new.txt").stat().st_mode & 0o777 == 0o644   # not mkstemp's 0o600
        (tmp_path / "old.txt").write_text("old", encoding="utf-8")
        (tmp_path / "old.txt").chmod(0o640)
        with atomic_write(tmp_path / "old.txt") as handle:
            handle.write("new")
        assert (tmp_path / "old.txt").stat().st_mode & 0o777 == 0o640   # a replaced file keeps its mode
    finally:
        os.umask(mask)


def test_output_option_writes_what_stdout_shows(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert main(["score", "brat", str(GOLD), str(GOLD), "--json"]) == 0
    shown = capsys.readouterr().out
    out = tmp_path / "new" / "report.json"   # a missing folder is created, like mkdir -p
    assert main(["score", "brat", str(GOLD), str(GOLD), "--json", "-o", str(out)]) == 0
    assert capsys.readouterr().out == ""
    assert out.read_text(encoding="utf-8") == shown


@pytest.mark.slow
def test_help_and_version_exit_0(capsys: pytest.CaptureFixture) -> None:
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.startswith("chemref ")
    for args in (["--help"], ["score", "brat", "--help"], ["jats", "--help"], ["baseline", "bm25", "--help"]):
        assert main(args) == 0


def test_every_command_has_help_for_every_option() -> None:
    import typer.main

    from chemref.cli import _register
    from chemref.cli.app import app

    _register()
    root = typer.main.get_command(app)

    def walk(command, path):
        if hasattr(command, "commands"):
            for name, sub in command.commands.items():
                yield from walk(sub, path + [name])
        else:
            yield path, command

    for path, command in walk(root, []):
        assert command.help, path
        for param in command.params:
            assert getattr(param, "help", None), (path, param.name)


@pytest.mark.slow
def test_nan_for_any_number_option_is_a_usage_error(capsys: pytest.CaptureFixture) -> None:
    import typer.main

    from chemref.cli import _register, numbers_not_nan, param_type_name
    from chemref.cli.app import app

    _register()
    root = typer.main.get_command(app)
    numbers_not_nan(root)

    def number_options(command, path):
        for name, sub in getattr(command, "commands", {}).items():
            yield from number_options(sub, path + [name])
        for param in getattr(command, "params", ()):
            if param.param_type_name == "option" and param_type_name(param) in ("float", "float range"):
                yield path, param.opts[-1]

    found = list(number_options(root, []))
    assert len(found) >= 10
    for path, option in found:
        assert main([*path, option, "nan"]) == 2, (path, option)
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "'nan' is not a number" in err and option in err, err


HEAVY = ("spacy", "lxml", "numpy", "bm25s", "tqdm", "dask", "matplotlib", "rich", "scipy", "pandas")


@pytest.mark.slow
def test_cli_and_score_commands_import_nothing_heavy(tmp_path: Path) -> None:
    import subprocess
    import sys

    gold = tmp_path / "gold.json"
    gold.write_text('{"1": "yes"}', encoding="utf-8")
    ranking = tmp_path / "ranking.jsonl"
    ranking.write_text('{"id": "q1", "relevant": ["a"], "ranking": ["a"]}\n', encoding="utf-8")
    code = (
        "import sys\n"
        "from chemref.cli import _register, main\n"
        "_register()\n"
        f"heavy = {HEAVY!r}\n"
        "assert not [m for m in heavy if m in sys.modules], [m for m in heavy if m in sys.modules]\n"
        f"assert main(['score', 'brat', {str(GOLD)!r}, {str(GOLD)!r}]) == 0\n"
        f"assert main(['score', 'pubmedqa', {str(gold)!r}, {str(gold)!r}]) == 0\n"
        f"assert main(['score', 'ranking', {str(ranking)!r}, {str(ranking)!r}]) == 0\n"
        "assert not [m for m in heavy if m in sys.modules], [m for m in heavy if m in sys.modules]\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr


def test_library_raises_typed_errors_for_bad_settings_and_values() -> None:
    from chemref.errors import ScoringError
    from chemref.scoring import score_brat
    from chemref.scoring.benchmarks.ranking import score_ranking

    with pytest.raises(ScoringError, match="finite numbers"):
        score_ranking([{"id": "q", "relevant": ["a"]}], [{"id": "q", "ranking": ["a"], "scores": ["x"]}])
    with pytest.raises(InputError, match="similarity threshold"):
        score_brat(GOLD, GOLD, mode="brateval", span="approx", similarity=1.5)
    with pytest.raises(InputError, match="jobs must be"):
        score_brat(GOLD, GOLD, jobs=-2)


@pytest.mark.slow
@pytest.mark.parametrize("sig, status, word", [("SIGINT", 130, "interrupted"), ("SIGTERM", 143, "terminated")])
@pytest.mark.parametrize("workers", ["1", "2"])
def test_signal_midway_leaves_no_output(tmp_path: Path, sig: str, status: int, word: str, workers: str) -> None:
    """A real signal to the whole process group (as Ctrl-C in a terminal sends it) while the output is open."""
    import os
    import signal
    import subprocess
    import sys
    import time

    out = tmp_path / "out" / "articles.jsonl"
    files = [str(p) for p in sorted((CORPORA / "jats").glob("*.xml"))] * 400
    proc = subprocess.Popen([sys.executable, "-m", "chemref", "jats", *files, "--json", "-o", str(out),
                             "--no-progress", "-w", workers], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)
    deadline = time.monotonic() + 60
    while proc.poll() is None and time.monotonic() < deadline:
        if out.parent.exists() and any(p.name.endswith(".tmp") for p in out.parent.iterdir()):
            break
        time.sleep(0.02)
    if proc.poll() is not None:
        pytest.skip("the run ended before the signal could be sent")
    time.sleep(0.3)
    os.killpg(proc.pid, getattr(signal, sig))
    _, err = proc.communicate(timeout=60)
    if proc.returncode == 0:
        pytest.skip("the run ended before the signal arrived")
    assert proc.returncode == status, err
    assert err.strip().splitlines() == [f"chemref: error: {word}"]
    assert list(out.parent.iterdir()) == []

"""The commands' registry (chemref/cli/registry.py): each command's summary is what its help says, and a group's
``--help`` lists its commands without importing their modules."""

from __future__ import annotations

import inspect
import os
import subprocess
import sys
from importlib import import_module

import pytest

from chemref.cli.registry import COMMANDS, GROUPS, children, modules
from tests.helpers import ROOT


@pytest.mark.parametrize("path", sorted(COMMANDS), ids=" ".join)
def test_each_summary_is_the_first_paragraph_of_the_command_help(path: tuple[str, ...]) -> None:
    entry = COMMANDS[path]
    module, _, function = entry.target.partition(":")
    help_text = entry.help or inspect.getdoc(getattr(import_module(module), function)) or ""
    assert entry.summary == inspect.cleandoc(help_text).split("\n\n")[0]


def test_every_group_has_commands_and_every_command_a_group() -> None:
    assert all(children(group) or any(other[:-1] == group for other in GROUPS if other) for group in GROUPS)
    assert all(path[:-1] in GROUPS for path in COMMANDS)


def test_listing_a_group_imports_no_command_module() -> None:
    code = ("import sys; from chemref.cli import main\n"
            "for args in (['--help'], ['questions', '--help'], ['questions', 'judge', '--help'], ['score'], []):\n"
            "    main(args)\n"
            f"loaded = [m for m in {modules()!r} if m in sys.modules]\n"
            "assert not loaded, loaded\n")
    done = subprocess.run([sys.executable, "-c", code], env={**os.environ, "PYTHONPATH": str(ROOT)},
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_a_command_imports_its_own_module_only() -> None:
    code = ("import sys; from chemref.cli import main\n"
            "assert main(['score', 'brat', '--help']) == 0\n"
            f"loaded = [m for m in {modules()!r} if m in sys.modules]\n"
            "assert loaded == ['chemref.cli.score_brat'], loaded\n")
    done = subprocess.run([sys.executable, "-c", code], env={**os.environ, "PYTHONPATH": str(ROOT)},
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr

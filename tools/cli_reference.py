"""The CLI reference page, ``docs/cli.md``, written from the ``chemref`` command's own tree (typer over click):
every command and sub-command with its usage, its help text and a table of its arguments and options.

``python tools/cli_reference.py`` rewrites the page; ``--check`` exits 1 when it differs from what the code gives
(``tests/test_docs_consistency.py`` runs the same check). Not shipped in the wheel.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Iterator

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import typer.main  # noqa: E402

import chemref.cli  # noqa: E402,F401  (registers every command on the app)
from chemref._io.atomic import write_text  # noqa: E402
from chemref.cli.app import app  # noqa: E402

__all__ = ["PAGE", "commands", "render", "main"]

PAGE = ROOT / "docs" / "cli.md"


def _context(command: Any, name: str = "chemref") -> Any:
    return command.context_class(command, info_name=name)  # typer may vendor its own click: use the command's


def commands(command: Any = None, path: tuple[str, ...] = ("chemref",)) -> Iterator[tuple[tuple[str, ...], Any]]:
    """Every command of the tree, depth first, in the order ``--help`` lists them."""
    if command is None:
        chemref.cli._register()  # the command modules register themselves on the app when imported
        command = typer.main.get_command(app)
    yield path, command
    if hasattr(command, "list_commands"):
        for name in command.list_commands(_context(command)):
            sub = command.get_command(_context(command), name)
            if sub is not None and not sub.hidden:
                yield from commands(sub, (*path, name))


def _cell(text: Any) -> str:
    return " ".join(str(text).split()).replace("|", "\\|").replace("<", "&lt;").replace("*", "\\*").replace("_", "\\_")


def _default(param: Any) -> str:
    if getattr(param, "is_flag", False) or getattr(param, "count", False):
        return ""
    value = param.default
    if value is None or callable(value) or value == () or param.required:
        return ""
    return f"`{value}`"


def _argument_name(param: Any) -> str:
    """How ``--help`` names an argument: click's ``human_readable_name`` (typer < 0.29), else typer's own."""
    if hasattr(param, "human_readable_name"):
        return param.human_readable_name
    return param.display_name_raw


def _section(path: tuple[str, ...], command: Any) -> list[str]:
    ctx = _context(command, " ".join(path))
    usage = " ".join([" ".join(path), *command.collect_usage_pieces(ctx)])
    lines = [f"{'#' * min(len(path) + 1, 4)} `{' '.join(path)}`", "", "```text", usage, "```", ""]
    if command.help:
        lines += [" ".join(command.help.split()), ""]
    params = [p for p in command.params if not getattr(p, "hidden", False) and p.name != "help"]
    if params:
        lines += ["| argument or option | what it is | default |", "|---|---|---|"]
        for p in params:
            if p.param_type_name == "argument":
                name = f"`{_argument_name(p)}`"
                what = getattr(p, "help", None) or ""
            else:
                name = ", ".join(f"`{o}`" for o in [*p.opts, *p.secondary_opts])
                what = p.help or ""
            if p.required:
                what = f"(required) {what}"
            lines.append(f"| {name} | {_cell(what)} | {_default(p)} |")
        lines.append("")
    return lines


def render() -> str:
    lines = ["# Command-line reference", "",
             "Written from the `chemref` command itself by `python tools/cli_reference.py` (a test checks it is "
             "up to date). `chemref COMMAND --help` prints the same.", ""]
    for path, command in commands():
        lines += _section(path, command)
    return "\n".join(lines).rstrip("\n") + "\n"


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    text = render()
    if "--check" in args:
        if not PAGE.is_file() or PAGE.read_text(encoding="utf-8") != text:
            print(f"{PAGE}: out of date (run python tools/cli_reference.py)", file=sys.stderr)
            return 1
        return 0
    if not PAGE.is_file() or PAGE.read_text(encoding="utf-8") != text:
        write_text(PAGE, text)
        print(f"wrote {PAGE}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

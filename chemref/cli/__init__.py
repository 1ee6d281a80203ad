"""``chemref`` console script: a thin typer layer over the library (see ``chemref/cli/app.py``)."""

from __future__ import annotations

import sys
from importlib import import_module

import typer

from chemref.cli.app import app

# Each module registers its commands on the groups in chemref.cli.app when imported.
_COMMAND_MODULES = (
    "chemref.cli.score_brat",       # chemref score brat
    "chemref.cli.score_benchmarks", # chemref score questions|ranking|pubmedqa
    "chemref.cli.jats",             # chemref jats
    "chemref.cli.questions",        # chemref questions build
    "chemref.cli.baseline",         # chemref baseline bm25
)


def _register() -> None:
    for name in _COMMAND_MODULES:
        import_module(name)


def _show_version(value: bool) -> None:
    if value:
        from chemref._version import __version__

        print(f"chemref {__version__}")
        raise typer.Exit(0)


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", is_eager=True, callback=_show_version,
                                 help="Print chemref's version and exit."),
) -> None:
    """Chemistry-aware NLP for literature benchmarks."""


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``chemref`` script; returns the exit status."""
    _register()
    try:
        app(args=argv, prog_name="chemref", standalone_mode=True)
    except SystemExit as exc:  # typer/click exit: pass the status through
        return int(exc.code or 0) if not isinstance(exc.code, str) else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""``python -m chemref`` and the ``chemref`` script: the CLI (:func:`chemref.cli.main`).

Ctrl-C while the CLI is still being imported ends as it does later: one error line, exit 130.
"""

import sys


def run() -> int:
    """The ``chemref`` script's entry point."""
    try:
        from chemref.cli import main  # noqa: PLC0415 (the CLI, with Ctrl-C handled while it loads)
    except KeyboardInterrupt:
        sys.stderr.write("chemref: error: interrupted\n")
        return 130
    return main()


if __name__ == "__main__":
    sys.exit(run())

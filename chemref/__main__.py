"""``python -m chemref`` and the ``chemref`` script: the CLI (:func:`chemref.cli.main`).

Ctrl-C while the CLI is still being imported ends as it does later: one error line, exit 130.
"""

import sys

try:
    from chemref.cli import main
except KeyboardInterrupt:  # reported by run(), which the script calls once this module is imported
    main = None  # type: ignore[assignment]


def run() -> int:
    """The ``chemref`` script's entry point."""
    if main is None:
        sys.stderr.write("chemref: error: interrupted\n")
        return 130
    return main()


if __name__ == "__main__":
    sys.exit(run())

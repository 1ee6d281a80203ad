"""``python -m chemref`` and the ``chemref`` script: the CLI (:func:`chemref.cli.main`).

Ctrl-C while the CLI is still being imported ends as it does later: one error line, exit 130.
"""

import gc
import sys

try:
    from chemref.cli import main
except KeyboardInterrupt:  # reported by run(), which the script calls once this module is imported
    main = None  # type: ignore[assignment]


#: The cyclic garbage collector's generation-0 threshold in a ``chemref`` process (Python's default is 700).
GC_THRESHOLD = 10_000


def run() -> int:
    """The ``chemref`` script's entry point.

    A command is a batch job that makes millions of short-lived objects, nearly all freed by reference counting:
    with Python's threshold of 700 the cyclic collector runs about 200 times in a build of 110 articles and
    finds almost nothing (1.5% of its CPU). At :data:`GC_THRESHOLD` it runs a few times, and garbage held in
    cycles waits for at most that many new container objects (a few megabytes). The library leaves the
    collector alone: only the script sets it."""
    gc.set_threshold(GC_THRESHOLD, *gc.get_threshold()[1:])
    if main is None:
        sys.stderr.write("chemref: error: interrupted\n")
        return 130
    return main()


if __name__ == "__main__":
    sys.exit(run())

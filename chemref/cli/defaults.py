"""What the command line reads when it is given no input, which the library never assumes: the sample articles
of the source tree (``corpora/jats/``)."""

from __future__ import annotations

from pathlib import Path

from chemref.errors import InputError

__all__ = ["SAMPLE_CORPUS", "sample_corpus"]

#: The sample articles shipped with the project (written by the project; CC BY 4.0).
SAMPLE_CORPUS = Path(__file__).resolve().parents[2] / "corpora" / "jats"


def sample_corpus() -> Path:
    """The folder of sample articles, which ``questions build`` reads when given no input."""
    if not SAMPLE_CORPUS.is_dir():
        raise InputError("no input given and the sample corpus is not installed", path=str(SAMPLE_CORPUS),
                         hint="give JATS files or folders, or install chemref from its source tree")
    return SAMPLE_CORPUS

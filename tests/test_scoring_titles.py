"""Golden tables for title normalisation and the fuzzy title match used by the citation-prediction scorer."""

from __future__ import annotations

import pytest

from chemref.scoring.benchmarks.titles import normalize_title, titles_match

NORMALISE = [
    ("Attention Is All You Need", "attention is all you need"),
    ("  Attention   is\tall\nyou need. ", "attention is all you need"),
    ("BERT: Pre-training of Deep Bidirectional Transformers", "bert pre training of deep bidirectional transformers"),
    ("Naïve Bayes at the café", "naive bayes at the cafe"),
    ("Erdős–Rényi graphs", "erdos renyi graphs"),
    ("Schrödinger’s cat", "schrodinger s cat"),
    ("The ﬁrst ﬂow", "the first flow"),  # ligatures
    ("ＧＰＵ kernels", "gpu kernels"),  # full-width forms
    ("TNF-α signalling", "tnf alpha signalling"),
    ("TNF-alpha signalling", "tnf alpha signalling"),
    ("$\\beta$-lactamase inhibitors", "beta lactamase inhibitors"),
    ("\\emph{In vivo} imaging", "in vivo imaging"),
    ("The {R}\\'enyi entropy", "the renyi entropy"),
    ("M{\\\"o}bius strips", "mobius strips"),
    ("{\\v{S}}koda cars", "skoda cars"),
    ("{BERT}: deep {T}ransformers", "bert deep transformers"),
    ("<i>E. coli</i> growth &amp; division", "e coli growth division"),
    ("Size of 5 µm particles", "size of 5 mu m particles"),
    ("CO<sub>2</sub> reduction", "co 2 reduction"),
    ("STRAẞE", "strasse"),  # casefold, not lower
    ("", ""),
    ("...", ""),
]


@pytest.mark.parametrize(("title", "expected"), NORMALISE)
def test_normalize_title(title: str, expected: str) -> None:
    assert normalize_title(title) == expected


MATCH = [
    # same work
    ("Deep Residual Learning for Image Recognition", "deep residual learning for image recognition.", True),
    ("Deep Residual Learning for Image Recognition", "Deep Residual Learning for Image Recognition (CVPR 2016)",
     False),
    ("Learning Transferable Visual Models From Natural Language Supervision",
     "Learning transferable visual models from natural-language supervision", True),
    ("Batch Normalization: Accelerating Deep Network Training by Reducing Internal Covariate Shift",
     "Batch Normalisation: Accelerating Deep Network Training by Reducing Internal Covariate Shift", True),
    ("Language Models are Few-Shot Learners", "Language models are few shot learners", True),
    ("An Image is Worth 16x16 Words: Transformers for Image Recognition at Scale",
     "An Image is Worth 16x16 Words: Transformers for Image Recognitoin at Scale", True),  # typo
    ("Visual Instruction Tuning", "Visual instruction tuning", True),
    # different works
    ("Attention is all you need", "Attention is not all you need", False),  # short: exact only
    ("Visual Instruction Tuning", "Improved Baselines with Visual Instruction Tuning", False),
    ("Deep Residual Learning for Image Recognition", "Identity Mappings in Deep Residual Networks", False),
    ("Language Models are Few-Shot Learners", "Language Models are Unsupervised Multitask Learners", False),
    ("Learning Transferable Visual Models From Natural Language Supervision",
     "Learning Visual N-Grams from Web Data", False),
    ("", "", False),
    ("", "Anything", False),
]


@pytest.mark.parametrize(("a", "b", "expected"), MATCH)
def test_titles_match(a: str, b: str, expected: bool) -> None:
    assert titles_match(a, b) is expected
    assert titles_match(b, a) is expected


def test_threshold_is_tunable() -> None:
    a = "An Image is Worth 16x16 Words: Transformers for Image Recognition at Scale"
    b = "An Image is Worth 16x16 Words: Transformers"
    assert not titles_match(a, b)
    assert titles_match(a, b, threshold=0.5)
    assert not titles_match(a, a.replace("Image", "Imago"), threshold=1.0)
    assert titles_match(a, a.upper(), threshold=1.0)

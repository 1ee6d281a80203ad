"""Loaded by ``spacy train --code``: registers chemref's tokenizer and feature architecture."""

import chemref.nlp.components.factories  # noqa: F401  (chemref.Tokenizer.v1)
from chemref.nlp.components.chemical_features import register_architectures

register_architectures()

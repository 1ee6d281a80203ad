"""Baselines for the question sets chemref builds (BM25)."""

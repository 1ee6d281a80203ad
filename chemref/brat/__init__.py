"""BRAT standoff model and reader/writer (no spaCy)."""

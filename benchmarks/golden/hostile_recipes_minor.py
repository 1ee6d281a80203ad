"""Small hostile inputs for tests/hostile/test_hostile_minor.py (built at run time)."""

from __future__ import annotations

UNCLOSED_ARTICLE = "<article><body><p>x</p>"  # not well-formed: the body and article are never closed

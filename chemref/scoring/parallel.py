"""The scorers' process-pool entry points, from the one pool helper :mod:`chemref.pool`."""

from __future__ import annotations

from chemref.pool import MIN_DOCS_PER_JOB, auto_jobs, map_chunks, resolve_jobs

__all__ = ["MIN_DOCS_PER_JOB", "auto_jobs", "map_chunks", "resolve_jobs"]

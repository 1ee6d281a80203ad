"""Hostile inputs: limits, signals, pathological text."""

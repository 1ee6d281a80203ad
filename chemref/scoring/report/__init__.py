"""The one report type every scorer returns (``model.ScoreReport``) and its formats (``formats``: text,
Markdown, CSV, JSON)."""

"""The scorers of the benchmarks beside BRAT: citation prediction (``citation_prediction``, with fuzzy title
matching in ``titles``), citation recommendation (``ranking``) and PubMedQA (``pubmedqa``), with their
line-numbered input readers (``readers``) and per-group breakdowns (``breakdowns``)."""

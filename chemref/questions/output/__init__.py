"""What a build writes: the streaming, resumable writer of ``chemref questions build`` (shards, manifest and
journal, running totals), the funnel report and chart, the dataset card, and the Dask runner.

May import :mod:`chemref.questions.funnel`; never :mod:`chemref.questions.judge` nor
:mod:`chemref.questions.labels`, which sit on top of it.
"""

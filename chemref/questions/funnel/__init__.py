"""The per-article funnel: candidate sentences, the filters in funnel order, the findability and selector
scores, the records they produce and the builder that runs them over articles (in this process or a pool).

Imports nothing of :mod:`chemref.questions.output`, :mod:`chemref.questions.labels` or
:mod:`chemref.questions.judge`: those sit on top of it.
"""

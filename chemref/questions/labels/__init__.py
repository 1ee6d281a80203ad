"""Labels in the format of the labelling guide, and how good a build is measured against them.

The top of ``questions``: may import :mod:`chemref.questions.funnel`, :mod:`chemref.questions.output` and
:mod:`chemref.questions.judge` (to read a judged build).
"""

"""Labels in the format of the labelling guide, and how good a build is measured against them.

May import :mod:`chemref.questions.funnel` and :mod:`chemref.questions.judge` (to read a judged build).
"""

"""A language-model judge after the selector: requests in the OpenAI Batch format, answers checked strictly.

:mod:`~chemref.questions.judge.prompt` renders the versioned prompt for one candidate record;
:mod:`~chemref.questions.judge.prepare` picks the candidates that reach the judge and writes one
chat-completions request per candidate. Nothing here touches the network.
"""

from __future__ import annotations

from chemref.questions.judge.prepare import JUDGED_REASONS, judge_candidates, prepare_requests, write_requests
from chemref.questions.judge.prompt import PROMPT_VERSION, Prompt, load_prompt, render_messages

__all__ = ["PROMPT_VERSION", "Prompt", "load_prompt", "render_messages", "JUDGED_REASONS", "judge_candidates",
           "prepare_requests", "write_requests"]

"""A language-model judge after the selector: requests in the OpenAI Batch format, answers checked strictly.

:mod:`~chemref.questions.judge.prompt` renders the versioned prompt for one candidate record;
:mod:`~chemref.questions.judge.prepare` picks the candidates that reach the judge and writes one
chat-completions request per candidate; :mod:`~chemref.questions.judge.client` sends them to an
OpenAI-compatible server (the only module that touches the network, and only when asked: httpx, the extra
``chemref[judge]``, is imported when requests are sent); :mod:`~chemref.questions.judge.answers` reads the
answers strictly and :mod:`~chemref.questions.judge.apply` keeps what the judge calls good.
"""

from __future__ import annotations

from chemref._lazy import lazy_exports
from chemref.questions.judge.prepare import JUDGED_REASONS, judge_candidates, prepare_requests, write_requests
from chemref.questions.judge.prompt import PROMPT_VERSION, Prompt, load_prompt, render_messages

__all__ = ["PROMPT_VERSION", "Prompt", "load_prompt", "render_messages", "JUDGED_REASONS", "judge_candidates",
           "prepare_requests", "write_requests", "run_requests", "read_requests", "RunSummary", "read_responses",
           "Answer", "ANSWER_KINDS", "apply_judgement", "apply_to_files", "JudgeSummary"]

__getattr__, __dir__ = lazy_exports(__name__, {
    "run_requests": "chemref.questions.judge.client", "read_requests": "chemref.questions.judge.client",
    "RunSummary": "chemref.questions.judge.client", "read_responses": "chemref.questions.judge.answers",
    "Answer": "chemref.questions.judge.answers", "ANSWER_KINDS": "chemref.questions.judge.answers",
    "apply_judgement": "chemref.questions.judge.apply", "apply_to_files": "chemref.questions.judge.apply",
    "JudgeSummary": "chemref.questions.judge.apply",
})

"""The prose that describes a build's questions, shared by the dataset card and the README: how the caps
choose (:func:`caps_text`) and how the selector was trained and how good it is (:func:`selector_text`)."""

from __future__ import annotations

from typing import Any

from chemref.questions.funnel.selector import default_selector
from chemref.questions.funnel.selector_record import selector_evaluation

__all__ = ["caps_text", "selector_text", "thousands"]


def thousands(n: int) -> str:
    """``n`` with thousands separators."""
    return f"{n:,}"


def caps_text(per_target: int, per_article: int) -> str:
    """How the two caps choose, for the card and the README (the rule of :func:`~chemref.questions.funnel.filters.
    per_target_cap` and :func:`~chemref.questions.funnel.filters.per_article_cap`)."""
    works = "question" if per_target == 1 else "questions"
    return (f"Of the candidates that pass every other filter, at most {per_target} {works} of an article may cite "
            f"the same work and at most {per_article} questions come from one article: in both caps the highest "
            "selector `score` wins (ties broken by a hash of the seed and the id).")


def selector_text(selector: Any = None) -> str:
    """How the selector behind ``score`` and ``--min-score`` was trained and how good it is, from its file
    (``meta``) and, for the shipped weights, the recorded evaluation: the one paragraph the card and the
    documentation (docs/funnel.md) show."""
    sel = selector if selector is not None else default_selector()
    meta = dict(sel.meta)
    features = f"{meta['features']} features" if meta.get("features") else "features"
    text = (f"The question selector (version {sel.version}) is a {meta.get('model', 'logistic regression')} over "
            f"{features} documented in `chemref.questions.funnel.selector`")
    if not meta.get("trained_on"):
        return text + "."
    ev = selector_evaluation(sel)
    text += (f", trained on {thousands(meta['trained_on'])} labelled candidates from {meta.get('articles', '?')} "
             f"articles ({thousands(meta.get('good', 0))} good)")
    if ev is not None:
        lost = meta["trained_on"] - ev["scored"]
        text += (f": the {thousands(ev['scored'])} that pass every other filter ({thousands(ev['scored_good'])} "
                 f"good)" + (f" and {lost} lost only for want of a DOI (questions with `--answer-key doi-or-pmid`)"
                             if lost > 0 else ""))
    text += (f"; {meta.get('folds', '?')}-fold cross-validation grouped by article, seed {meta.get('seed', 0)}"
             + (f", L2 penalty {meta['l2']}" if meta.get("l2") is not None else "") + ". ")
    if meta.get("threshold_rule"):
        text += f"The default `--min-score` {sel.threshold} is the {meta['threshold_rule']}. "
    cv = meta.get("cv") if isinstance(meta.get("cv"), dict) else None
    if ev is not None:
        at, caps = ev["at_threshold"], ev["after_caps"]
        text += (f"Cross-validated over those {thousands(ev['scored'])} candidates: ranking AUC {ev['auc']:.2f}; at "
                 f"the threshold, before the caps, {at['kept']} are kept ({at['kept_share']:.1%}), "
                 f"{at['good_share']:.3f} of them good, {at['good_kept_share']:.0%} of the good ones; with the "
                 f"per-target and per-article caps applied again (`evaluate --reselect`), {caps['questions']} "
                 f"questions: good {caps['good_share']:.3f}, author named {caps['author_named']}, PASSING "
                 f"{caps['passing_share']:.3f}, broken {caps['broken_share']:.3f}, "
                 f"{caps['good_kept_share']:.0%} of the good candidates kept.")
    elif cv and cv.get("good_share") is not None:
        text += (f"Cross-validated at that threshold {cv.get('kept_share')} of the labelled candidates are kept, "
                 f"{cv['good_share']} of them good, {cv.get('good_kept_share')} of the good ones kept"
                 + (f" (ranking AUC {cv['auc']})" if cv.get("auc") is not None else "") + ".")
    return text

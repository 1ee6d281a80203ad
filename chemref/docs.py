"""The figures and descriptions that the README, the dataset card and ``--help`` share, rendered from the data
the code uses: the funnel's steps (:data:`chemref.questions.funnel.filters.STEPS`), the build
defaults (:class:`~chemref.questions.funnel.settings.BuildSettings`), the question fields, the shipped selector's
file and its recorded evaluation (``chemref/questions/data/selector_evaluation.json``).

The README holds generated blocks between two markers::

    <!-- generated: NAME -->
    ...
    <!-- end generated: NAME -->

``python -m chemref.docs README.md`` rewrites them; ``--check`` exits 1, naming the blocks, when one differs
(the documentation test runs the same check). ``python -m chemref.docs record-selector ...`` records the
evaluation of the shipped selector on its labels (see :func:`record_selector_evaluation`).
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

__all__ = ["GENERATORS", "EVALUATION_FILE", "caps_text", "funnel_table", "question_fields", "jats_fields",
           "selector_text", "selector_features_table", "selector_training_text", "selector_evaluation", "selector_fingerprint", "training_overlap", "render",
           "stale_blocks", "record_selector_evaluation", "main"]

#: The recorded evaluation of the shipped selector (written by ``record-selector``, read by the card,
#: the README and ``questions evaluate``).
EVALUATION_FILE = Path(__file__).resolve().parent / "questions" / "data" / "selector_evaluation.json"
_BLOCK = re.compile(r"(<!-- generated: (?P<name>[a-z0-9-]+) -->\n)(?P<body>.*?)(<!-- end generated: (?P=name) -->)",
                    re.DOTALL)


def _defaults() -> Any:
    from chemref.questions.funnel.settings import BuildSettings

    return BuildSettings()


def _thousands(n: int) -> str:
    return f"{n:,}"


def caps_text(per_target: int, per_article: int) -> str:
    """How the two caps choose, for the card and the README (the rule of :func:`~chemref.questions.funnel.filters.
    per_target_cap` and :func:`~chemref.questions.funnel.filters.per_article_cap`)."""
    works = "question" if per_target == 1 else "questions"
    return (f"Of the candidates that pass every other filter, at most {per_target} {works} of an article may cite "
            f"the same work and at most {per_article} questions come from one article: in both caps the highest "
            "selector `score` wins (ties broken by a hash of the seed and the id).")


def _step_setting(reason: str) -> str:
    """A step's settings and their defaults (from :class:`BuildSettings` and the selector file)."""
    s = _defaults()
    if reason == "length":
        return f"`--min-chars` {s.min_chars}, `--max-chars` {s.max_chars}"
    if reason == "has_doi":
        return f"`--answer-key` {s.answer_key}"
    if reason == "min_findability":
        return "`--min-findability` (off by default)"
    if reason == "min_score":
        from chemref.questions.funnel.selector import default_selector

        return f"`--min-score` {default_selector().threshold} (the shipped selector's threshold)"
    if reason == "per_target_cap":
        return f"`--per-target` {s.per_target}"
    if reason == "per_article_cap":
        return f"`--per-article` {s.per_article}, `--seed` {s.seed} (tie-break)"
    if reason == "no_author_named":
        return f"`--authors` {s.authors} (`mask`: the names are masked instead)"
    return ""


def funnel_table() -> str:
    """The funnel steps in order, one row each: the step's own one-line description and its settings."""
    from chemref.questions.funnel.filters import STEPS

    lines = ["| step | a candidate is kept when | setting (default) |", "|---|---|---|"]
    lines += [f"| `{step.name}` | {step.description} | {_step_setting(step.name)} |" for step in STEPS]
    return "\n".join(lines) + "\n"


def _wrap(text: str) -> str:
    import textwrap

    return textwrap.fill(text, width=115, break_on_hyphens=False, break_long_words=False) + "\n"


def question_fields() -> str:
    """The sentence listing the fields of a question record (:data:`~chemref.questions.funnel.records.QUESTION_FIELDS`)."""
    from chemref.questions.funnel.records import QUESTION_FIELDS

    return _wrap(f"Each question has `{', '.join(QUESTION_FIELDS)}`, with `excerpt == sentence[:citation_start] + "
                 "\"[CITATION]\" + sentence[citation_end:]` (with `--authors mask` the cited authors' names in the "
                 "excerpt are also replaced by `[AUTHOR]`; the offsets still refer to `sentence`).")


def jats_fields() -> str:
    """The keys of one ``chemref jats --json`` line, read off the JSON of a sample article."""
    from dataclasses import replace

    from chemref.jats.model import ArticleDate, Author, Award, Funding
    from chemref.jats.reader import read

    sample = Path(__file__).resolve().parents[1] / "corpora" / "jats" / "sample_cu_tio2_co2.xml"
    article = read(sample)
    data = article.to_dict()
    nested = ("sections", "references", "diagnostics", "abstracts", "back", "license", "authors", "dates", "funding")
    top = [k for k in data if k not in nested]
    # the keys of the list items, whether or not the sample has such items
    probe = replace(article, authors=(Author(),), dates=(ArticleDate("", ""),),
                    funding=Funding(awards=(Award(),))).to_dict()
    paragraph = next((s["paragraphs"][0] for s in data["sections"] if s["paragraphs"]), {})
    citation = next((p["citations"][0] for s in data["sections"] for p in s["paragraphs"] if p["citations"]), {})
    fmt = next((p["formatting"][0] for s in data["sections"] for p in s["paragraphs"] if p["formatting"]), {})

    def keys(row: Mapping[str, Any], nested: Mapping[str, str] | None = None) -> str:
        nested = nested or {}
        return ", ".join(f"{k}{nested[k]}" if k in nested else k for k in row)

    section_keys = keys(data["sections"][0], {"paragraphs": "[{" + keys(paragraph, {
        "citations": "[{" + keys(citation) + "}]", "formatting": "[{" + keys(fmt) + "}]"}) + "}]",
        "sections": ""})
    reference = data["references"][0]
    front = (f"authors[{{{keys(probe['authors'][0])}}}], dates[{{{keys(probe['dates'][0])}}}], "
             f"funding{{statements, awards[{{{keys(probe['funding']['awards'][0])}}}]}}")
    return _wrap(f"Each JSON line has `{', '.join(top)}, license{{{keys(data['license'])}}}, {front}, sections[...]` "
                 f"(body sections, nested, each with `{section_keys}`), `references[{{{keys(reference)}}}]`, "
                 f"`diagnostics[{{code, message, line}}]`, plus `abstracts` and `back` in the same shape as `sections`.")


# ------------------------------------------------------------------------------------------------ selector

def selector_fingerprint(selector: Any) -> str:
    """A short hash of what a selector computes (weights, standardisation, bias, threshold, version)."""
    body = json.dumps({"weights": dict(selector.weights), "means": dict(selector.means),
                       "scales": dict(selector.scales), "bias": selector.bias, "threshold": selector.threshold,
                       "version": selector.version}, sort_keys=True)
    return hashlib.sha1(body.encode("utf-8")).hexdigest()[:16]


def _id_hash(ident: str) -> str:
    return hashlib.sha1(ident.encode("utf-8")).hexdigest()[:10]


@lru_cache(maxsize=1)
def _evaluation_file() -> dict[str, Any] | None:
    try:
        return json.loads(EVALUATION_FILE.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def selector_evaluation(selector: Any = None) -> dict[str, Any] | None:
    """The recorded evaluation of ``selector`` (default: the shipped one), or None when none was recorded
    for exactly these weights."""
    from chemref.questions.funnel.selector import default_selector

    sel = selector if selector is not None else default_selector()
    data = _evaluation_file()
    if data is None or data.get("selector") != selector_fingerprint(sel):
        return None
    return data


def training_overlap(ids: Iterable[str], selector: Any = None) -> int:
    """How many of ``ids`` are labelled records the selector was trained on (0 when unknown)."""
    data = selector_evaluation(selector)
    if data is None:
        return 0
    trained = set(data.get("trained_ids", ()))
    return sum(1 for ident in ids if _id_hash(str(ident)) in trained)


def selector_text(selector: Any = None) -> str:
    """How the selector behind ``score`` and ``--min-score`` was trained and how good it is, from its file
    (``meta``) and, for the shipped weights, the recorded evaluation: the one paragraph the card and the
    README show."""
    from chemref.questions.funnel.selector import default_selector

    sel = selector if selector is not None else default_selector()
    meta = dict(sel.meta)
    features = f"{meta['features']} features" if meta.get("features") else "features"
    text = (f"The question selector (version {sel.version}) is a {meta.get('model', 'logistic regression')} over "
            f"{features} documented in `chemref.questions.funnel.selector`")
    if not meta.get("trained_on"):
        return text + "."
    ev = selector_evaluation(sel)
    text += (f", trained on {_thousands(meta['trained_on'])} labelled candidates from {meta.get('articles', '?')} "
             f"articles ({_thousands(meta.get('good', 0))} good)")
    if ev is not None:
        lost = meta["trained_on"] - ev["scored"]
        text += (f": the {_thousands(ev['scored'])} that pass every other filter ({_thousands(ev['scored_good'])} "
                 f"good)" + (f" and {lost} lost only for want of a DOI (questions with `--answer-key doi-or-pmid`)"
                             if lost > 0 else ""))
    text += (f"; {meta.get('folds', '?')}-fold cross-validation grouped by article, seed {meta.get('seed', 0)}"
             + (f", L2 penalty {meta['l2']}" if meta.get("l2") is not None else "") + ". ")
    if meta.get("threshold_rule"):
        text += f"The default `--min-score` {sel.threshold} is the {meta['threshold_rule']}. "
    cv = meta.get("cv") if isinstance(meta.get("cv"), dict) else None
    if ev is not None:
        at, caps = ev["at_threshold"], ev["after_caps"]
        text += (f"Cross-validated over those {_thousands(ev['scored'])} candidates: ranking AUC {ev['auc']:.2f}; at "
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


def _selector_block() -> str:
    return _wrap(selector_text())


def selector_features_table(selector: Any = None) -> str:
    """The selector's features, one row per group of :data:`~chemref.questions.funnel.selector.FEATURE_TABLE`:
    the names, which of them ``selector`` (default: the shipped one) uses, and what they measure."""
    from chemref.questions.funnel.selector import FEATURE_TABLE, default_selector

    sel = selector if selector is not None else default_selector()
    lines = [f"| feature | used by the shipped weights (version {sel.version}) | what it measures |", "|---|---|---|"]
    for names, what in FEATURE_TABLE:
        used = [name for name in names if name in sel.weights]
        unused = [name for name in names if name not in sel.weights]
        mark = "" if not used else "✓" if not unused else (
            f"✓ not {', '.join(f'`{n}`' for n in unused)}" if len(unused) < len(used)
            else f"✓ {', '.join(f'`{n}`' for n in used)} only")
        lines.append(f"| {', '.join(f'`{n}`' for n in names)} | {mark} | {what} |")
    return "\n".join(lines) + "\n"


def selector_training_text(selector: Any = None) -> str:
    """What the shipped weights are and what they were trained on (the selector file's ``meta`` and its
    recorded evaluation), for the labels' notes."""
    from chemref.questions.funnel.selector import default_selector

    sel = selector if selector is not None else default_selector()
    meta = dict(sel.meta)
    text = (f"The shipped weights (`chemref/questions/data/selector.json`, version {sel.version}: "
            f"{meta.get('features', len(sel.weights))} features, {meta.get('model', 'logistic regression')}, "
            f"{meta.get('folds', '?')} folds grouped by article, seed {meta.get('seed', 0)}) are fitted on "
            f"{_thousands(meta.get('trained_on', 0))} labelled candidates from {meta.get('articles', '?')} articles "
            f"({_thousands(meta.get('good', 0))} good)")
    ev = selector_evaluation(sel)
    if ev is not None:
        lost = meta.get("trained_on", 0) - ev["scored"]
        text += (f": the {_thousands(ev['scored'])} that pass every other filter ({ev['scored_good']} good)"
                 + (f" and {lost} rejected only for want of a DOI (usable with `--answer-key doi-or-pmid`); the "
                    f"cross-validated figures below are over the {_thousands(ev['scored'])}" if lost > 0 else ""))
    return text + "."


#: The generated blocks (of the README and ``corpora/labels/README.md``): name -> the function that renders it.
GENERATORS: dict[str, Callable[[], str]] = {
    "funnel-table": funnel_table,
    "question-fields": question_fields,
    "selector": _selector_block,
    "caps": lambda: _wrap(caps_text(_defaults().per_target, _defaults().per_article)),
    "selector-features": lambda: selector_features_table(),
    "selector-training": lambda: _wrap(selector_training_text()),
    "jats-fields": jats_fields,
}


def render(text: str) -> str:
    """``text`` with every generated block rendered again (an unknown block name is a ValueError)."""
    def replace(match: re.Match[str]) -> str:
        name = match.group("name")
        if name not in GENERATORS:
            raise ValueError(f"unknown generated block {name!r}; known: {', '.join(GENERATORS)}")
        return match.group(1) + GENERATORS[name]() + match.group(4)

    return _BLOCK.sub(replace, text)


def stale_blocks(text: str) -> list[str]:
    """The names of the generated blocks of ``text`` whose content differs from what the code renders."""
    return [m.group("name") for m, n in zip(_BLOCK.finditer(text), _BLOCK.finditer(render(text)))
            if m.group("body") != n.group("body")]


# ------------------------------------------------------------------------------------------------ recording

def record_selector_evaluation(labels_path: str, questions_path: str, rejected_path: str, scores_path: str,
                               *, output: Path = EVALUATION_FILE) -> dict[str, Any]:
    """Evaluate the shipped selector's cross-validated scores (``train-selector --cv-scores``) on its labels,
    with the caps applied again, and write what the documents quote: the candidates scored, the AUC, the
    figures at the threshold and after the caps, and a hash of every labelled id it was trained on (so that
    ``evaluate`` can say when labels are in-sample)."""
    from chemref._io.atomic import atomic_write
    from chemref.cli.questions import _scores as read_scores
    from chemref.jsonl import read_jsonl
    from chemref.questions.labels.evaluate import evaluate
    from chemref.questions.labels.label import read_labels
    from chemref.questions.funnel.selector import TRAINED_ON, default_selector

    labels = read_labels(labels_path)
    questions = [row for _, row in read_jsonl(questions_path)]
    rejected = [row for _, row in read_jsonl(rejected_path)]
    scores = read_scores(Path(scores_path))
    result = evaluate(labels, questions, rejected, scores=scores, reselect=True, source=labels_path)
    in_sample = evaluate(labels, questions, rejected, source=labels_path)
    trained = sorted(_id_hash(str(r["id"])) for r in [*questions, *rejected]
                     if r.get("reason") in TRAINED_ON and str(r.get("id")) in labels
                     and labels[str(r["id"])].good_question is not None)
    kept = result.kept
    good_total = result.scored_good
    data = {
        "selector": selector_fingerprint(default_selector()),
        "command": ("python -m chemref.docs record-selector LABELS QUESTIONS REJECTED CV_SCORES "
                    "(a --min-score 0 build of the labels' corpus; CV_SCORES from train-selector --cv-scores)"),
        "labels": Path(labels_path).name, "scored": result.scored, "scored_good": good_total,
        "auc": result.auc, "in_sample_auc": in_sample.auc,
        "at_threshold": None if result.at_threshold is None else {
            k: getattr(result.at_threshold, k) for k in ("threshold", "kept", "kept_share", "good", "good_share",
                                                          "good_kept_share")},
        "in_sample_at_threshold": None if in_sample.at_threshold is None else {
            k: getattr(in_sample.at_threshold, k) for k in ("kept", "good_share", "good_kept_share")},
        "after_caps": {"questions": kept.questions, "good": kept.good, "good_share": kept.good_share,
                       "author_named": kept.author_named, "passing_share": kept.passing_share,
                       "broken_share": kept.broken_share,
                       "good_kept_share": round(kept.good / good_total, 4) if good_total else None},
        "trained_ids": trained,
    }
    with atomic_write(output) as handle:
        json.dump(data, handle, indent=1)
        handle.write("\n")
    _evaluation_file.cache_clear()
    return data


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["record-selector"] and len(args) == 5:
        data = record_selector_evaluation(*args[1:])
        print(f"wrote {EVALUATION_FILE} ({data['scored']} candidates scored, {len(data['trained_ids'])} trained on)")
        return 0
    check = "--check" in args
    paths = [a for a in args if a != "--check"]
    if len(paths) != 1:
        print("usage: python -m chemref.docs [--check] README.md | record-selector LABELS QUESTIONS REJECTED "
              "CV_SCORES", file=sys.stderr)
        return 2
    path = Path(paths[0])
    text = path.read_text(encoding="utf-8")
    if check:
        stale = stale_blocks(text)
        if stale:
            print(f"{path}: generated blocks out of date: {', '.join(stale)} (run python -m chemref.docs {path})",
                  file=sys.stderr)
            return 1
        return 0
    new = render(text)
    if new != text:
        from chemref._io.atomic import write_text

        write_text(path, new)
        print(f"rewrote the generated blocks of {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

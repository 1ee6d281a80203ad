"""The documentation's generated blocks, rendered from the data the code uses: the funnel's steps
(:data:`chemref.questions.funnel.filters.STEPS`), the build defaults
(:class:`~chemref.questions.funnel.settings.BuildSettings`), the question fields, the JSON of ``chemref jats``,
the shipped selector's file and its recorded evaluation.

The documentation pages (``docs/*.md``, the README, ``corpora/labels/README.md``) hold generated blocks
between two markers::

    <!-- generated: NAME -->
    ...
    <!-- end generated: NAME -->

``python tools/readme_blocks.py`` rewrites them in every such document (or in the files given); ``--check``
exits 1, naming the blocks, when one differs (``tests/test_docs_consistency.py`` runs the same check). Not
shipped in the wheel.
"""

from __future__ import annotations

import re
import sys
import textwrap
from pathlib import Path
from typing import Any, Callable, Mapping

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from dataclasses import replace  # noqa: E402

from chemref import read_jats  # noqa: E402
from chemref._io.atomic import write_text  # noqa: E402
from chemref.jats.model import ArticleDate, Author, Award, Funding  # noqa: E402
from chemref.questions.funnel.difficulty import DIFFICULTY_FIELD_DOCS  # noqa: E402
from chemref.questions.funnel.filters import STEPS  # noqa: E402
from chemref.questions.funnel.records import QUESTION_FIELDS  # noqa: E402
from chemref.questions.funnel.selector import default_selector  # noqa: E402
from chemref.questions.funnel.selector_features import FEATURE_TABLE  # noqa: E402
from chemref.questions.funnel.selector_record import selector_evaluation  # noqa: E402
from chemref.questions.funnel.settings import BuildSettings  # noqa: E402
from chemref.questions.output.prose import caps_text, selector_text, thousands  # noqa: E402

__all__ = ["GENERATORS", "documents", "funnel_table", "question_fields", "jats_fields", "selector_features_table",
           "selector_training_text", "render", "stale_blocks", "main"]

_BLOCK = re.compile(r"(<!-- generated: (?P<name>[a-z0-9-]+) -->\n)(?P<body>.*?)(<!-- end generated: (?P=name) -->)",
                    re.DOTALL)
SAMPLE_ARTICLE = ROOT / "corpora" / "jats" / "sample_cu_tio2_co2.xml"


def _defaults() -> Any:
    return BuildSettings()


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
    lines = ["| step | a candidate is kept when | setting (default) |", "|---|---|---|"]
    lines += [f"| `{step.name}` | {step.description} | {_step_setting(step.name)} |" for step in STEPS]
    return "\n".join(lines) + "\n"


def _wrap(text: str) -> str:
    return textwrap.fill(text, width=115, break_on_hyphens=False, break_long_words=False) + "\n"


def question_fields() -> str:
    """The sentence listing the fields of a question record (:data:`~chemref.questions.funnel.records.QUESTION_FIELDS`)."""
    return _wrap(f"Each question has `{', '.join(QUESTION_FIELDS)}`, with `excerpt == sentence[:citation_start] + "
                 "\"[CITATION]\" + sentence[citation_end:]` (with `--authors mask` the cited authors' names in the "
                 "excerpt are also replaced by `[AUTHOR]`; the offsets still refer to `sentence`). The difficulty "
                 "profile: " + " ".join(f"`{name}`: {doc}." for name, doc in DIFFICULTY_FIELD_DOCS.items()))


def jats_fields() -> str:
    """The keys of one ``chemref jats --json`` line, read off the JSON of a sample article."""
    article = read_jats(SAMPLE_ARTICLE)
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


def _selector_block() -> str:
    return _wrap(selector_text())


def selector_features_table(selector: Any = None) -> str:
    """The selector's features, one row per group of :data:`~chemref.questions.funnel.selector_features.FEATURE_TABLE`:
    the names, which of them ``selector`` (default: the shipped one) uses, and what they measure."""
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
    sel = selector if selector is not None else default_selector()
    meta = dict(sel.meta)
    text = (f"The shipped weights (`chemref/questions/data/selector.json`, version {sel.version}: "
            f"{meta.get('features', len(sel.weights))} features, {meta.get('model', 'logistic regression')}, "
            f"{meta.get('folds', '?')} folds grouped by article, seed {meta.get('seed', 0)}) are fitted on "
            f"{thousands(meta.get('trained_on', 0))} labelled candidates from {meta.get('articles', '?')} articles "
            f"({thousands(meta.get('good', 0))} good)")
    ev = selector_evaluation(sel)
    if ev is not None:
        lost = meta.get("trained_on", 0) - ev["scored"]
        text += (f": the {thousands(ev['scored'])} that pass every other filter ({ev['scored_good']} good)"
                 + (f" and {lost} rejected only for want of a DOI (usable with `--answer-key doi-or-pmid`); the "
                    f"cross-validated figures below are over the {thousands(ev['scored'])}" if lost > 0 else ""))
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


def documents() -> list[Path]:
    """The documents that may hold generated blocks: the README, the documentation pages, the labels' notes."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), ROOT / "corpora" / "labels" / "README.md"]


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    check = "--check" in args
    paths = [Path(a) for a in args if a != "--check"] or documents()
    status = 0
    for path in paths:
        text = path.read_text(encoding="utf-8")
        if check:
            stale = stale_blocks(text)
            if stale:
                print(f"{path}: generated blocks out of date: {', '.join(stale)} (run python tools/readme_blocks.py)",
                      file=sys.stderr)
                status = 1
            continue
        new = render(text)
        if new != text:
            write_text(path, new)
            print(f"rewrote the generated blocks of {path}")
    return status


if __name__ == "__main__":
    raise SystemExit(main())

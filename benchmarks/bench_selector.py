"""Candidate selector features, measured by article-grouped cross-validation on the dev labels.

Run from the project root:  python benchmarks/bench_selector.py [--seeds 10] [--boot 300] [--workers 2]
Builds the dev corpus (../shared/corpora/jats/dev) with ``--min-score 0``, joins the labels of
corpora/labels/dev_labels.jsonl, and fits the project's model (:func:`chemref.questions.funnel.selector_training._fit`,
L2 logistic regression on standardised features) on the shipped feature set and on that set plus each
family of candidate features below. Prints one table and writes benchmarks/results/selector.json.

Per row: ranking AUC (mean ± sd over ``--seeds`` fold assignments, 5 folds grouped by article), the good
share when keeping 60% / 40% / 25% of the good candidates (mean over the fold seeds), the good share and
good-kept share at the threshold :func:`~chemref.questions.funnel.selector_training.choose_threshold` picks (fold seed 0),
and the AUC gain over the shipped set with a 95% interval from resampling articles (fold seed 0), the
figure that says whether a gain is more than noise. The candidate features live here, not in the
package: none of the families beat the shipped set by more than that noise (see corpora/labels/README.md).
Each row also gives the acceptance figure: the good share of the questions a build keeps at the threshold that
keeps a third of the good candidates, after the per-target (1) and per-article (4) caps, as
``questions evaluate --scores cv.jsonl --reselect`` counts it (mean and range over the fold seeds).
A second table is the shipped model's learning curve (trained on a quarter, half, three quarters and all of each
fold's training articles) with the good share at the strict end of the precision-yield curve; a third, the
shipped model's kept set under other threshold rules and per-article caps.

Beside the feature families: chemical mentions (chemref's ``chemref_chemicals`` component, so spaCy), the cited
title's words in the excerpt (``title_overlap``, and the excerpt-title cosine of WordLlama), and changes of the
objective rather than the features: soft targets (the labels blended with the judge's confidence in
corpora/labels/dev_judge_responses.jsonl; always judged against the labels alone), two stages (the logit beside
its article's mean logit and its rank in the article) and weights learnt within articles (article intercepts).
Every row also gives BM25@1, the share of its kept set that the BM25 baseline (:mod:`chemref.baseline.bm25`, over
every reference of the dev articles) answers at rank 1: a selector that reads the cited title keeps questions that
lexical retrieval finds easy. The third table adds weak-tail caps (only an article's candidates within a logit
gap of its best) and the soft-target model.

The embedding family needs ``wordllama`` (``pip install wordllama``: MIT, its 16 MB of weights in the wheel); it
is loaded from the package's own files (:func:`wordllama_embedder`), so nothing is downloaded, and is left out
with a note when the package is absent.
"""

from __future__ import annotations

import argparse
import collections
import json
import math
import re
import sys
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from tools.reference_data import reference_path  # noqa: E402
DEV = reference_path("corpora", "jats", "dev", project_root=ROOT)
LABELS = ROOT / "corpora" / "labels" / "dev_labels.jsonl"
JUDGE_RESPONSES = ROOT / "corpora" / "labels" / "dev_judge_responses.jsonl"
OUT = ROOT / "benchmarks" / "results" / "selector.json"


import numpy as np  # noqa: E402

from chemref._io.atomic import atomic_write  # noqa: E402
from chemref.jats.reader import read  # noqa: E402
from chemref.questions import build  # noqa: E402
from chemref.scoring.stats.agreement import ranking_auc  # noqa: E402
from chemref.questions.labels.label import good_labels, read_labels  # noqa: E402
from chemref.questions.funnel.selector_features import DEFAULT_FEATURES, FEATURES, _specific_tokens, selector_features  # noqa: E402
from chemref.questions.funnel.selector_training import (TRAINED_ON, _fit, _standardise, article_of,  # noqa: E402
                                                        choose_threshold)

_I = re.IGNORECASE
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9-]{3,}")
_STOP = frozenset("that this with from have were been which their these those they than then there also into such "
                  "other more most some only both each when where while would could should about after before "
                  "between during under over very well however using used based".split())


def _count(pattern: "re.Pattern[str]", text: str, cap: float = 3.0) -> float:
    return float(min(sum(1 for _ in pattern.finditer(text)), cap))


def _cue(pattern: str, flags: int = _I, cap: float = 3.0) -> Callable[[dict[str, Any]], float]:
    compiled = re.compile(pattern, flags)
    return lambda r: _count(compiled, r["excerpt"], cap)


#: Candidate features by family: name -> function of (record + "ctx", the article context added below).
FAMILIES: dict[str, dict[str, Callable[[dict[str, Any]], float]]] = {
    "generic statement cues": {
        "is_widely": _cue(r"\b(?:is|are)\s+(?:\w+\s+)?(?:widely|commonly|generally|often|usually|typically)\b"),
        "important_role": _cue(r"\bplays?\s+(?:an?\s+)?(?:\w+\s+)?(?:important|key|crucial|critical|central|essential|"
                               r"pivotal|major|vital)\s+roles?\b"),
        "has_been_shown": _cue(r"\b(?:has|have)\s+(?:also\s+|previously\s+|recently\s+)?been\s+(?:\w+ly\s+)?(?:shown|"
                               r"reported|demonstrated|found|suggested|proposed|described|implicated|associated)\b"),
        "is_known": _cue(r"\b(?:is|are)\s+(?:well\s+|widely\s+|generally\s+)?(?:known|thought|believed|considered|"
                         r"recogni[sz]ed|accepted)\b"),
        "one_of_the_most": _cue(r"\bone\s+of\s+the\s+(?:most|main|major|leading)\b"),
        "definition": _cue(r"^[^,;]{0,60}?\b(?:is|are)\s+(?:a|an|the)\s+(?:\w+\s+){0,3}?(?:member|family|class|type|"
                           r"form|group|protein|enzyme|receptor|disease|process|method|technique|kind|component)\b"),
        "plural_generic_subject": _cue(r"\b[a-z]{4,}s\s+(?:are|have|play|can)\b", 0),
        "modal_generic": _cue(r"\b(?:can|may)\s+(?:be|also|lead|cause|result|act|induce|contribute)\b"),
        "evidence": _cue(r"\b(?:evidence|accumulating|growing|increasing\s+number|body\s+of)\b"),
        "studies_plural": _cue(r"\b(?:studies|reports|works|papers|investigations|findings|literature)\b"),
    },
    "specific result cues": {
        "quantity": _cue(r"\d+(?:\.\d+)?\s*(?:%|-?fold|nM|µM|μM|mM|mg|kg|°C|K\b|eV|Å|nm|mV|V\b|h\b|min\b)"),
        "comparative": _cue(r"\b(?:higher|lower|more|less|increased|decreased|greater|reduced|faster|slower)\s+than\b"),
        "result_verbs": _cue(r"\b(?:inhibit|induc|activat|increas|decreas|reduc|enhanc|suppress|promot|regulat|bind|"
                             r"cataly|convert|yield)\w*\b"),
        "organism_or_model": _cue(r"\b(?:mice|mouse|rats?|patients|cells|knockout|deficient|mutant|in\s+vivo|"
                                  r"in\s+vitro)\b"),
        "previous_cue": _cue(r"\b(?:previously|recently|earlier|prior|previous|recent)\b"),
        "specific_rate": lambda r: _specific_tokens(r["excerpt"].replace("[CITATION]", " "), 50.0)
        / max(len(r["excerpt"].split()), 1),
    },
    "openings and own-work cues": {
        "the_noun_opening": lambda r: 1.0 if re.match(r"The\s+[a-z]", r["excerpt"]) else 0.0,
        "definite_subject": lambda r: 1.0 if re.match(r"(?:The|This|These|Those|Such|Its|Their)\s+(?:[a-z]+\s+){0,2}"
                                                      r"(?:was|were|is|are|has|had|have|showed|led|did)\b",
                                                      r["excerpt"]) else 0.0,
        "additive": _cue(r"\b(?:also|further|again|too|as\s+well|additionally|other|another|likewise|similarly)\b"),
        "figure_pointer": _cue(r"\b(?:Fig(?:ure)?s?\.?|Table|Supplementary|Supplemental)\s", _I, 1.0),
        "we_opening": lambda r: 1.0 if re.match(r"(?:We|Our|Here|In\s+this\s+study)\b", r["excerpt"]) else 0.0,
        "parentheses": _cue(r"\(", 0),
    },
    "target in the article": {
        "ref_citations": lambda r: math.log1p(min(r["ctx"]["cites"], 10)),
        "ref_sections": lambda r: float(min(r["ctx"]["sections"], 4)),
        "ref_in_methods": lambda r: r["ctx"]["in_methods"],
        "ref_cocited_share": lambda r: r["ctx"]["cocited"] / max(r["ctx"]["cites"], 1),
        "ref_list_position": lambda r: r["ctx"]["position"],
        "ref_first_cited": lambda r: r["ctx"]["first"],
        "ref_age": lambda r: math.log1p(min(max(r["ctx"]["age"], 0), 40)),
    },
    "paragraph context": {
        "paragraph_citations": lambda r: math.log1p(min(r["ctx"]["para_ids"], 30)),
        "citations_before": lambda r: math.log1p(min(r["ctx"]["before"], 10)),
        "citations_after": lambda r: math.log1p(min(r["ctx"]["after"], 10)),
        "same_ref_before": lambda r: r["ctx"]["same_before"],
        "first_sentence": lambda r: 1.0 if r["id"].endswith("-s0") else 0.0,
    },
    "citing article vocabulary": {
        "in_article_title": lambda r: r["ctx"]["in_title"],
        "in_abstract": lambda r: r["ctx"]["in_abstract"],
        "topic_word_share": lambda r: r["ctx"]["topic_share"],
        "new_word_share": lambda r: r["ctx"]["new_share"],
    },
    "cited title form": {
        "title_specific_tokens": lambda r: _specific_tokens(r.get("target_title") or "", 5.0),
        "title_general_words": lambda r: 1.0 if re.search(r"\b(?:role|roles|mechanisms?|functions?|biology|regulation|"
                                                          r"implications?|principles|concepts?|approach(?:es)?|"
                                                          r"strategies|applications?|new|novel|emerging|future)\b",
                                                          r.get("target_title") or "", _I) else 0.0,
        "title_question": lambda r: 1.0 if "?" in (r.get("target_title") or "") else 0.0,
        "target_has_pmid": lambda r: 1.0 if r.get("target_pmid") else 0.0,
        "target_before_2000": lambda r: 1.0 if (r.get("target_year") or 2020) < 2000 else 0.0,
    },
}

#: Review venues beyond the shipped ``venue_review`` list (which already has Rev, Trends, Curr. Opin., Annu. Rev.,
#: Acc. Chem. Res., Prog., Crit.): seminar series, expert opinions and reviews, essays, perspectives, review
#: series of books and societies.
LONGER_REVIEW_VENUES = re.compile(
    r"\b(?:Rev|Revs|Review|Reviews|Trends|Curr\.?\s+Opin|Current\s+Opinion|Annu|Annual|Acc\.?\s+Chem|Accounts|Prog|"
    r"Progress|Crit|Semin|Seminars|Expert\s+Opin|Expert\s+Rev|Essays|Perspect|Perspectives|Biochem\.?\s+Soc\.?\s+"
    r"Trans|Drug\s+Discov\.?\s+Today|Mol\.?\s+Aspects\s+Med|Molecular\s+Aspects|Phys\.?\s+Rep|Physics\s+Reports|"
    r"Surf\.?\s+Sci\.?\s+Rep|Rep\.?\s+Prog|Cold\s+Spring\s+Harb|Advances\s+in|Handb|Handbook|Methods\s+Enzymol|"
    r"Methods\s+in\s+Enzymology|Encyclopedia|Compr|Comprehensive|Overview|Highlights)\b", _I)

#: Families measured beside the shipped features that need the whole build (the source article's type, its
#: number of candidates) or replace a shipped column: name -> function of the record.
ARTICLE_FAMILIES: dict[str, dict[str, Callable[[dict[str, Any]], float]]] = {
    "source article is a review (JATS article-type)": {
        "source_review": lambda r: 1.0 if r["ctx"]["article_type"] == "review-article" else 0.0,
    },
    "source article's size (log candidates passing the other filters)": {
        "source_candidates": lambda r: math.log1p(r["ctx"]["article_candidates"]),
    },
    "the cited reference's age": {
        "ref_age": lambda r: math.log1p(min(max(r["ctx"]["age"], 0), 40)),
    },
    "how often and where the article cites it (times cited, sections)": {
        "ref_citations": lambda r: math.log1p(min(r["ctx"]["cites"], 10)),
        "ref_sections": lambda r: float(min(r["ctx"]["sections"], 4)),
    },
    "the cited work is not a journal article": {
        "not_journal": lambda r: 1.0 if (r.get("target_type") or "journal") != "journal" else 0.0,
    },
    "where the marker sits, the cited title's specific tokens in the excerpt": {
        "marker_position": lambda r: max(r["excerpt"].find("[CITATION]"), 0) / max(len(r["excerpt"]), 1),
        "title_tokens_in_excerpt": lambda r: float(min(sum(
            1 for token in {t.strip("(),.;:").lower() for t in (r.get("target_title") or "").split()
                            if re.search(r"[a-z][A-Z]|[A-Z]{2}|\d", t)}
            if token and token in r["excerpt"].lower()), 3)),
    },
}

_ARTICLE_TYPE = re.compile(r"<article\b[^>]*?\barticle-type\s*=\s*[\"']([^\"']*)")


def article_type(path: str) -> str:
    """The root ``<article article-type>`` of a JATS file ("none" when absent)."""
    with open(path, encoding="utf-8", errors="replace") as handle:
        match = _ARTICLE_TYPE.search(handle.read(50_000))
    return match.group(1) if match else "none"


def wordllama_embedder() -> Callable[[list[str]], Any] | None:
    """WordLlama's embedding (256 dimensions, MIT), built from the weight and tokenizer files inside the installed
    package, so that nothing is fetched (``WordLlama.load()`` looks for its tokenizer in a folder the wheel does
    not have and then downloads it). None when the package is absent."""
    import importlib.util

    spec = importlib.util.find_spec("wordllama")
    if spec is None or spec.origin is None:
        return None
    from safetensors import safe_open
    from tokenizers import Tokenizer
    from wordllama.inference import WordLlamaInference

    root = Path(spec.origin).parent
    with safe_open(str(root / "weights" / "l2_supercat_256.safetensors"), framework="np") as handle:
        weights = handle.get_tensor("embedding.weight")
    model = WordLlamaInference(weights, Tokenizer.from_file(str(root / "tokenizers" / "l2_supercat_tokenizer_config.json")))
    return lambda texts: model.embed(texts, norm=True, batch_size=256)


def _cv_embedding(x: Any, y: Any, folds: Any, embedding: Any, dims: int, l2: float = 30.0) -> Any:
    """Cross-validated scores of the features ``x`` plus the first ``dims`` principal components of ``embedding``,
    the components fitted on each fold's training rows only."""
    scores = np.zeros(len(y))
    for k in range(int(folds.max()) + 1):
        test = folds == k
        centre = embedding[~test].mean(axis=0)
        _, _, axes = np.linalg.svd(embedding[~test] - centre, full_matrices=False)
        xx = np.hstack([x, (embedding - centre) @ axes[:dims].T])
        means, scales = _standardise(xx[~test])
        w, b = _fit((xx[~test] - means) / scales, y[~test], l2)
        scores[test] = 1.0 / (1.0 + np.exp(-(b + ((xx[test] - means) / scales) @ w)))
    return scores


def kept_after_caps(scores: Any, rows: list[dict[str, Any]], candidates: Any, threshold: float,
                    per_target: int = 1, per_article: int = 4, seed: int = 0) -> Any:
    """The rows a build keeps at ``threshold`` after the per-target and per-article caps (as
    ``questions evaluate --reselect``): ``candidates`` marks the rows that pass the other filters."""
    from chemref.questions.funnel.filters import tiebreak

    kept = np.zeros(len(rows), dtype=bool)
    by_article: dict[str, list[int]] = collections.defaultdict(list)
    for i, r in enumerate(rows):
        if candidates[i] and scores[i] >= threshold:
            by_article[article_of(r["id"])].append(i)
    for items in by_article.values():
        items.sort(key=lambda i: (-scores[i], tiebreak(seed, rows[i]["id"])))
        per: collections.Counter[str] = collections.Counter()
        chosen = []
        for i in items:
            key = str(rows[i].get("target_doi") or rows[i].get("ref_id") or rows[i]["id"])
            per[key] += 1
            if per[key] <= per_target:
                chosen.append(i)
        kept[chosen[:per_article]] = True
    return kept


def acceptance(scores: Any, y: Any, rows: list[dict[str, Any]], candidates: Any, share: float = 0.33,
               per_article: int = 4, bm25_top1: Any = None) -> dict[str, float]:
    """The kept set at the highest threshold keeping ``share`` of the good candidates, after the caps;
    with ``bm25_top1`` (1 where BM25 ranks the row's cited work first, 0 where not, NaN without a DOI), also the
    share of the kept questions that BM25 answers at rank 1 (how easy the set is for lexical retrieval)."""
    rounded = np.round(scores, 4)
    threshold = choose_threshold(rounded[candidates].tolist(), (y[candidates] > 0).tolist(), fallback_good_kept=share)
    kept = kept_after_caps(rounded, rows, candidates, threshold, per_article=per_article)
    out = {"threshold": threshold, "kept": int(kept.sum()), "good_share": float(y[kept].mean()) if kept.any() else 0.0,
           "good_kept": float(y[kept].sum() / y[candidates].sum())}
    if bm25_top1 is not None:
        answered = bm25_top1[kept & np.isfinite(bm25_top1)]
        out["bm25_top1"] = float(answered.mean()) if len(answered) else 0.0
    return out


def weak_tail_acceptance(scores: Any, y: Any, rows: list[dict[str, Any]], candidates: Any, gap: float,
                         share: float = 0.33, per_article: int = 4) -> dict[str, float]:
    """:func:`acceptance` with a cap that also drops an article's weak tail: of an article's candidates above the
    threshold (after the per-target cap), only those whose logit is within ``gap`` of the article's best."""
    rounded = np.round(scores, 4)
    threshold = choose_threshold(rounded[candidates].tolist(), (y[candidates] > 0).tolist(), fallback_good_kept=share)
    above = kept_after_caps(rounded, rows, candidates, threshold, per_article=10**6)
    logit = np.log(np.clip(rounded, 1e-6, 1 - 1e-6) / np.clip(1 - rounded, 1e-6, 1))
    kept = np.zeros(len(rows), dtype=bool)
    articles = np.array([article_of(r["id"]) for r in rows])
    for article in np.unique(articles[above]):
        items = np.where(above & (articles == article))[0]
        best = logit[items].max()
        items = sorted((i for i in items if logit[i] >= best - gap), key=lambda i: -rounded[i])
        kept[items[:per_article]] = True
    return {"threshold": threshold, "kept": int(kept.sum()), "good_share": float(y[kept].mean()) if kept.any() else 0.0,
            "good_kept": float(y[kept].sum() / y[candidates].sum())}


def bm25_top1(rows: list[dict[str, Any]]) -> Any:
    """Per row: 1.0 when the BM25 baseline (:mod:`chemref.baseline.bm25`, the pool of every reference of the dev
    articles) ranks the cited work first for the excerpt, 0.0 when not, NaN for a row without a DOI."""
    from chemref.baseline.bm25 import bm25_predictions
    from chemref.doi import normalize_doi

    import logging

    logging.getLogger("bm25s").setLevel(logging.WARNING)
    with_doi = [r for r in rows if r.get("target_doi")]
    first = {r["id"]: 1.0 if p["dois"][:1] == [normalize_doi(r["target_doi"])] else 0.0
             for r, p in zip(with_doi, bm25_predictions(with_doi, corpus=str(DEV.parent), k=1))}
    return np.array([first.get(r["id"], np.nan) for r in rows])


def judge_confidence(ids: list[str]) -> Any:
    """The strong model's P(good question) for each labelled candidate it answered
    (corpora/labels/dev_judge_responses.jsonl, read with the judge's own parser); NaN where it did not."""
    from chemref.questions.judge.answers import read_responses

    answers = read_responses(JUDGE_RESPONSES)
    return np.array([answers[i][1].confidence if i in answers and answers[i][1].ok else np.nan for i in ids])


def chemical_counts(rows: list[dict[str, Any]]) -> Any | None:
    """Chemical mentions (chemref's ``chemref_chemicals`` component: its NER and rules) in each excerpt and
    sentence, as columns; None when spaCy or the model cannot be loaded."""
    try:
        from chemref.nlp.components.chemicals import count_chemicals_many
        excerpts = count_chemicals_many([r["excerpt"].replace("[CITATION]", " ") for r in rows])
        sentences = count_chemicals_many([r["sentence"] for r in rows])
    except Exception as exc:  # an optional family: say why it is left out
        print(f"bench_selector: the chemical-mention family is left out ({exc})")
        return None
    return np.column_stack([excerpts, sentences]).astype(float)


#: Section x cue products (a linear model cannot learn them from the two features alone).
INTERACTIONS = (("section_introduction", "background"), ("section_introduction", "venue_review"),
                ("section_results", "comparison"), ("section_results", "own_result"),
                ("section_discussion", "comparison"), ("section_results", "attribution"),
                ("own_result", "comparison"), ("title_review", "background"))


def _words(text: str) -> list[str]:
    return [w for w in (m.lower() for m in _WORD.findall(text)) if w not in _STOP]


def article_context(path: str, records: list[dict[str, Any]]) -> None:
    """Add ``ctx`` (what the candidate features need from the whole article) to each record of one article."""
    article = read(path)
    counters = {"p": -1, "c": -1}
    paragraphs = {}
    cites: collections.Counter[str] = collections.Counter()
    cocited: collections.Counter[str] = collections.Counter()
    sections: dict[str, set[str]] = collections.defaultdict(set)
    first: dict[str, int] = {}
    in_paragraphs: collections.Counter[str] = collections.Counter()
    for section, paragraph in article.paragraphs():
        kind = "c" if paragraph.is_caption else "p"
        counters[kind] += 1
        paragraphs[f"{kind}{counters[kind]}"] = paragraph
        in_paragraphs.update(set(_words(paragraph.text)))
        for anchor in paragraph.citations:
            for rid in anchor.ref_ids:
                cites[rid] += 1
                sections[rid].add("caption" if paragraph.is_caption else section.kind)
                cocited[rid] += len(anchor.ref_ids) > 1
                first.setdefault(rid, len(first))
    position = {ref.id: i / max(len(article.references) - 1, 1) for i, ref in enumerate(article.references)}
    years = {ref.id: ref.year for ref in article.references}
    title = set(_words(article.title or ""))
    abstract = {w for s in article.abstracts for _, p in s.walk() for w in _words(p.text)}
    n_paragraphs = max(sum(counters.values()) + 2, 1)
    kind = article_type(path)
    n_candidates = sum(1 for r in records if r.get("reason") != "has_doi")
    for record in records:
        rid = record.get("ref_id") or ""
        paragraph = paragraphs[re.match(r".+-([pc]\d+)-s\d+$", record["id"]).group(1)]
        start = paragraph.text.find(record["sentence"])
        end = start + len(record["sentence"])
        words = _words(record["excerpt"].replace("[CITATION]", " ")) or ["_"]
        ref_year, year = years.get(rid), article.year
        record["ctx"] = {
            "cites": cites[rid], "sections": len(sections[rid]),
            "in_methods": 1.0 if sections[rid] & {"methods", "materials"} else 0.0,
            "cocited": cocited[rid], "position": position.get(rid, 0.5),
            "first": first.get(rid, 0) / max(len(first) - 1, 1),
            "age": (year - ref_year) if year and ref_year else 5,
            "para_ids": sum(len(a.ref_ids) for a in paragraph.citations),
            "before": sum(1 for a in paragraph.citations if start >= 0 and a.end <= start),
            "after": sum(1 for a in paragraph.citations if start >= 0 and a.start >= end),
            "same_before": 1.0 if any(a.end <= start and rid in a.ref_ids for a in paragraph.citations) else 0.0,
            "in_title": sum(w in title for w in words) / len(words),
            "in_abstract": sum(w in abstract for w in words) / len(words),
            "topic_share": sum(in_paragraphs[w] / n_paragraphs >= 0.2 for w in words) / len(words),
            "new_share": sum(in_paragraphs[w] <= 1 for w in words) / len(words),
            "article_type": kind, "article_candidates": n_candidates,
        }


def _folds(ids: list[str], seed: int, k: int = 5) -> Any:
    articles = sorted({article_of(i) for i in ids})
    order = np.random.default_rng(seed).permutation(len(articles))
    fold_of = {articles[j]: n % k for n, j in enumerate(order)}
    return np.array([fold_of[article_of(i)] for i in ids])


def _cv(x: Any, y: Any, folds: Any, l2: float = 30.0,
        training: Callable[[Any], Any] | None = None, targets: Any = None) -> Any:
    """Cross-validated scores; ``training`` narrows each fold's training rows (a mask in, a mask out);
    ``targets`` (0-1, default ``y``) are what the model is fitted to (soft targets)."""
    targets = y if targets is None else targets
    scores = np.zeros(len(y))
    for k in range(int(folds.max()) + 1):
        test = folds == k
        train = ~test if training is None else training(~test)
        means, scales = _standardise(x[train])
        w, b = _fit((x[train] - means) / scales, targets[train], l2)
        scores[test] = 1.0 / (1.0 + np.exp(-(b + ((x[test] - means) / scales) @ w)))
    return scores


def _logits(x: Any, targets: Any, train: Any, l2: float = 30.0) -> Any:
    """The logits of every row under the model fitted on the ``train`` rows."""
    means, scales = _standardise(x[train])
    w, b = _fit((x[train] - means) / scales, targets[train], l2)
    return b + ((x - means) / scales) @ w


def article_stats(logit: Any, articles: Any, candidates: Any) -> Any:
    """Per row: the mean logit of its article's candidates, and its rank among them (log of 1 + the number
    scored higher): what a second stage can know of the article around a candidate."""
    mean = np.zeros(len(logit))
    rank = np.zeros(len(logit))
    for article in np.unique(articles):
        rows = np.where(articles == article)[0]
        pool = logit[rows[candidates[rows]]] if candidates[rows].any() else logit[rows]
        mean[rows] = pool.mean()
        rank[rows] = np.log1p((pool[None, :] > logit[rows][:, None]).sum(axis=1))
    return np.column_stack([mean, rank])


def _cv_two_stage(x: Any, y: Any, folds: Any, articles: Any, candidates: Any, l2: float = 30.0) -> Any:
    """Two stages: the shipped model's logit (out of fold for the training rows too, by an inner article-grouped
    split) beside its article's mean logit and its rank in the article, in a second logistic regression."""
    scores = np.zeros(len(y))
    for k in range(int(folds.max()) + 1):
        test = folds == k
        logit = np.zeros(len(y))
        inner = _folds([f"{a}-p0-s0" for a in articles[~test]], seed=100 + k)
        inner_of = np.full(len(y), -1)
        inner_of[~test] = inner
        for j in range(5):
            held = inner_of == j
            logit[held] = _logits(x, y, ~test & ~held & (inner_of >= 0), l2)[held]
        logit[test] = _logits(x, y, ~test, l2)[test]
        second = np.column_stack([logit, article_stats(logit, articles, candidates)])
        scores[test] = 1.0 / (1.0 + np.exp(-_logits(second, y, ~test, 1.0)[test]))
    return scores


def _cv_article_effects(x: Any, y: Any, folds: Any, articles: Any, l2: float = 30.0, l2_article: float = 1.0,
                        iterations: int = 30) -> Any:
    """Weights learnt within articles: a logistic regression with one (penalised) intercept per training article,
    scored on the held-out articles with the shared weights and the overall intercept only."""
    scores = np.zeros(len(y))
    for k in range(int(folds.max()) + 1):
        test = folds == k
        means, scales = _standardise(x[~test])
        xs = (x - means) / scales
        _, which = np.unique(articles[~test], return_inverse=True)
        n, d = xs[~test].shape
        design = np.hstack([np.ones((n, 1)), xs[~test], np.eye(which.max() + 1)[which]])
        penalty = np.concatenate([[0.0], np.full(d, l2), np.full(which.max() + 1, l2_article)])
        beta = np.zeros(design.shape[1])
        for _ in range(iterations):
            p = 1.0 / (1.0 + np.exp(-np.clip(design @ beta, -35, 35)))
            step = np.linalg.solve((design * (p * (1 - p))[:, None]).T @ design + np.diag(penalty)
                                   + 1e-9 * np.eye(len(beta)), design.T @ (p - y[~test]) + penalty * beta)
            beta -= step
            if np.max(np.abs(step)) < 1e-8:
                break
        scores[test] = 1.0 / (1.0 + np.exp(-(beta[0] + xs[test] @ beta[1:d + 1])))
    return scores


def _auc(scores: Any, y: Any) -> float:
    return ranking_auc(list(zip(scores.tolist(), (y > 0).tolist()))) or 0.0


def _precision_at(scores: Any, y: Any, share: float) -> float:
    order = np.argsort(-scores, kind="stable")
    found = np.cumsum(y[order])
    k = int(np.searchsorted(found, math.ceil(share * y.sum() - 1e-9))) + 1
    return float(found[k - 1] / k)


#: shares of the training articles for the learning curve, and shares of the good candidates kept
CURVE_FRACTIONS = (0.25, 0.5, 0.75, 1.0)
KEPT_SHARES = (0.6, 0.25, 0.1, 0.05)


def learning_curve(x: Any, y: Any, ids: list[str], seeds: int) -> list[dict[str, Any]]:
    """The shipped model trained on a random share of each fold's training articles, scored on the same held-out
    folds: does more labelled data of this kind move the ranking? Also the good share at the strict end of the
    curve (5% / 10% of the good kept), the most precise kept set any threshold could give."""
    articles = np.array([article_of(i) for i in ids])
    curve = []
    for fraction in CURVE_FRACTIONS:
        aucs, at = [], collections.defaultdict(list)
        for seed in range(seeds):
            rng = np.random.default_rng(1000 + seed)

            def some_articles(train: Any) -> Any:
                pool = np.unique(articles[train])
                chosen = rng.choice(pool, max(2, round(fraction * len(pool))), replace=False)
                return train & np.isin(articles, chosen)

            scores = _cv(x, y, _folds(ids, seed), training=some_articles)
            aucs.append(_auc(scores, y))
            for share in KEPT_SHARES:
                at[share].append(_precision_at(scores, y, share))
        curve.append({"training_share": fraction, "auc_mean": round(float(np.mean(aucs)), 4),
                      "auc_sd": round(float(np.std(aucs)), 4),
                      "good_share_at_good_kept": {f"{k:.2f}": round(float(np.mean(v)), 4) for k, v in at.items()}})
    return curve


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=10, help="fold assignments to average over")
    parser.add_argument("--boot", type=int, default=300, help="article resamples for the AUC gain interval")
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    if not DEV.is_dir():
        sys.exit(f"bench_selector: the dev corpus is not at {DEV} (../shared from the project root)")

    labels = good_labels(read_labels(LABELS).values())
    result = build(DEV, min_score=0.0, workers=args.workers)
    records = [r.to_dict() for r in (*result.questions, *result.rejected)]
    rows = [r for r in records if labels.get(r["id"]) is not None and r.get("reason") in TRAINED_ON]
    by_file: dict[str, list[dict[str, Any]]] = collections.defaultdict(list)
    for r in rows:
        by_file[r["source_file"]].append(r)
    for label, items in by_file.items():  # labels are relative to the folder given to build
        path = Path(label) if Path(label).is_file() else DEV.parent / label
        article_context(str(path), items)
    ids = [r["id"] for r in rows]
    y = np.array([1.0 if labels[i] else 0.0 for i in ids])
    values = [selector_features(r) for r in rows]
    shipped = np.array([[v[n] for n in DEFAULT_FEATURES] for v in values])

    def columns(names: list[str]) -> Any:
        return np.array([[v[n] for n in names] for v in values])

    sets: list[tuple[str, int, Any]] = [("shipped (v2 features)", 0, shipped)]
    rest = [n for n in FEATURES if n not in DEFAULT_FEATURES and n != "title_overlap"]  # title_overlap: its own rows
    sets.append(("+ the other computable features", len(rest), np.hstack([shipped, columns(rest)])))
    tried = len(rest)
    for family, funcs in FAMILIES.items():
        extra = np.array([[f(r) for f in funcs.values()] for r in rows])
        sets.append((f"+ {family}", len(funcs), np.hstack([shipped, extra])))
        tried += len(funcs)
    products = np.array([[v[a] * v[b] for a, b in INTERACTIONS] for v in values])
    sets.append(("+ section x cue products", len(INTERACTIONS), np.hstack([shipped, products])))
    tried += len(INTERACTIONS)
    everything = np.hstack([s[2] for s in sets[1:]] + [shipped])
    _, unique = np.unique(everything.T, axis=0, return_index=True)
    everything = everything[:, sorted(unique)]
    sets.append(("+ all of the above", everything.shape[1] - shipped.shape[1], everything))
    single = np.array([[1.0 if re.match(r"The\s+[a-z]", r["excerpt"]) else 0.0] for r in rows])
    sets.append(("+ the_noun_opening alone (best single)", 1, np.hstack([shipped, single])))
    for family, funcs in ARTICLE_FAMILIES.items():
        extra = np.array([[f(r) for f in funcs.values()] for r in rows])
        sets.append((f"+ {family}", len(funcs), np.hstack([shipped, extra])))
        tried += len(funcs)
    longer = shipped.copy()
    longer[:, list(DEFAULT_FEATURES).index("venue_review")] = [
        1.0 if LONGER_REVIEW_VENUES.search(r.get("target_container") or "") else 0.0 for r in rows]
    sets.append(("venue_review with a longer list of review venues", 0, longer))
    tried += 1
    scorers: dict[str, Callable[[Any], Any]] = {}
    embed = wordllama_embedder()
    if embed is None:
        print("bench_selector: wordllama is not installed; the embedding rows are left out (pip install wordllama)")
    else:
        excerpts = embed([r["excerpt"].replace("[CITATION]", " ") for r in rows]).astype(float)
        for dims in (8, 32):
            name = f"+ excerpt embedding (WordLlama, {dims} PCA components per fold)"
            sets.append((name, dims, shipped))
            scorers[name] = lambda f, dims=dims: _cv_embedding(shipped, y, f, excerpts, dims)
            tried += dims
        titles = embed([r.get("target_title") or "none" for r in rows]).astype(float)
        cosine = np.nan_to_num((excerpts * titles).sum(axis=1) / np.maximum(
            np.linalg.norm(excerpts, axis=1) * np.linalg.norm(titles, axis=1), 1e-9))
        untitled = np.array([not (r.get("target_title") or "").strip() for r in rows])
        cosine[untitled] = np.median(cosine[~untitled])
        sets.append(("+ excerpt-title cosine (WordLlama)", 1, np.hstack([shipped, cosine[:, None]])))
        tried += 1

    chemicals = chemical_counts(rows)
    if chemicals is not None:
        n_words = np.array([[max(len(r["excerpt"].split()), 1)] for r in rows], dtype=float)
        sets.append(("+ chemical mentions (chemref_chemicals: excerpt, sentence, density)", 3,
                     np.hstack([shipped, np.minimum(chemicals, 5), chemicals[:, :1] / n_words])))
        tried += 3
    overlap = columns(["title_overlap"])
    sets.append(("+ title_overlap (the cited title's words in the excerpt)", 1, np.hstack([shipped, overlap])))
    sets.append(("+ title_overlap saturated at 0.2", 1, np.hstack([shipped, np.minimum(overlap, 0.2)])))
    tried += 2
    articles = np.array([article_of(i) for i in ids])
    candidates = np.array([r.get("reason") != "has_doi" for r in rows])  # those a build's score stages see
    confidence = judge_confidence(ids)
    for weight in (0.5, 0.25):
        name = f"soft targets: label weight {weight}, the judge's confidence {1 - weight:g}"
        targets = np.where(np.isfinite(confidence), weight * y + (1 - weight) * np.nan_to_num(confidence), y)
        sets.append((name, 0, shipped))
        scorers[name] = lambda f, t=targets: _cv(shipped, y, f, targets=t)
    soft = np.where(np.isfinite(confidence), 0.25 * y + 0.75 * np.nan_to_num(confidence), y)
    name = "+ title_overlap, soft targets (label weight 0.25)"
    sets.append((name, 1, shipped))
    scorers[name] = lambda f: _cv(np.hstack([shipped, overlap]), y, f, targets=soft)
    name = "two stages: logit, the article's mean logit, rank in the article"
    sets.append((name, 2, shipped))
    scorers[name] = lambda f: _cv_two_stage(shipped, y, f, articles, candidates)
    name = "weights learnt within articles (article intercepts)"
    sets.append((name, 0, shipped))
    scorers[name] = lambda f: _cv_article_effects(shipped, y, f, articles)
    top1 = bm25_top1(rows)

    fold_sets = [_folds(ids, seed) for seed in range(args.seeds)]
    base0 = _cv(shipped, y, fold_sets[0])
    groups = [np.where(articles == a)[0] for a in np.unique(articles)]
    rng = np.random.default_rng(0)
    resamples = [np.concatenate([groups[j] for j in rng.integers(0, len(groups), len(groups))])
                 for _ in range(args.boot)]
    table = []
    for name, added, x in sets:
        runs = [scorers[name](f) if name in scorers else _cv(x, y, f) for f in fold_sets]
        accepted = [acceptance(s, y, rows, candidates, bm25_top1=top1) for s in runs]
        aucs = [_auc(s, y) for s in runs]
        at = {share: float(np.mean([_precision_at(s, y, share) for s in runs])) for share in (0.6, 0.4, 0.25)}
        s0 = runs[0]
        threshold = choose_threshold(np.round(s0, 4).tolist(), (y > 0).tolist())
        kept = s0 >= threshold
        gains = [_auc(s0[i], y[i]) - _auc(base0[i], y[i]) for i in resamples if 0 < y[i].sum() < len(i)]
        table.append({
            "features": name, "added": added, "auc_mean": round(float(np.mean(aucs)), 4),
            "auc_sd": round(float(np.std(aucs)), 4),
            "good_share_at_good_kept": {f"{share:.2f}": round(v, 4) for share, v in at.items()},
            "threshold": threshold, "good_share_at_threshold": round(float(y[kept].mean()), 4),
            "good_kept_at_threshold": round(float(y[kept].sum() / y.sum()), 4),
            "auc_gain": round(float(np.mean(gains)), 4),
            "auc_gain_95": [round(float(v), 4) for v in np.percentile(gains, [2.5, 97.5])],
            "after_caps": {"good_share_mean": round(float(np.mean([a["good_share"] for a in accepted])), 4),
                           "good_share_range": [round(min(a["good_share"] for a in accepted), 4),
                                                round(max(a["good_share"] for a in accepted), 4)],
                           "kept_mean": round(float(np.mean([a["kept"] for a in accepted])), 1),
                           "good_kept_mean": round(float(np.mean([a["good_kept"] for a in accepted])), 4),
                           "bm25_top1_mean": round(float(np.mean([a["bm25_top1"] for a in accepted])), 4),
                           "seed0": accepted[0]},
        })

    print(f"{len(rows)} labelled candidates ({int(y.sum())} good) from {len(groups)} articles; "
          f"{tried} candidate features; {len(sets) - 1} rows beside the shipped set; {args.seeds} fold seeds, "
          f"{args.boot} article resamples")
    ease = {"all candidates": float(np.nanmean(top1[candidates])),
            "good candidates": float(np.nanmean(top1[candidates & (y > 0)]))}
    print(f"BM25 answers at rank 1: {ease['all candidates']:.3f} of the candidates with a DOI, "
          f"{ease['good candidates']:.3f} of the good ones (BM25@1: the same share of a row's kept set)")
    head = (f"{'features':<40}{'+n':>4}{'AUC':>8}{'±sd':>7}{'P@60%':>7}{'P@40%':>7}{'P@25%':>7}"
            f"{'thr':>8}{'P@thr':>7}{'kept':>7}{'ΔAUC [95%]':>24}{'capped good [range]':>23}{'n':>5}{'BM25@1':>8}")
    print(head)
    for row in table:
        at = row["good_share_at_good_kept"]
        low, high = row["auc_gain_95"]
        print(f"{row['features']:<40}{row['added']:>4}{row['auc_mean']:>8.4f}{row['auc_sd']:>7.4f}{at['0.60']:>7.3f}"
              f"{at['0.40']:>7.3f}{at['0.25']:>7.3f}{row['threshold']:>8.4f}{row['good_share_at_threshold']:>7.3f}"
              f"{row['good_kept_at_threshold']:>7.3f}{row['auc_gain']:>+9.4f} [{low:+.4f}, {high:+.4f}]"
              f"{row['after_caps']['good_share_mean']:>9.3f} [{row['after_caps']['good_share_range'][0]:.3f}, "
              f"{row['after_caps']['good_share_range'][1]:.3f}]{row['after_caps']['kept_mean']:>5.0f}"
              f"{row['after_caps']['bm25_top1_mean']:>8.3f}")
    curve = learning_curve(shipped, y, ids, args.seeds)
    print("\nLearning curve of the shipped features (share of each fold's training articles used; good share when "
          "keeping the given share of the good candidates)")
    print(f"{'training share':<16}{'AUC':>8}{'±sd':>7}" + "".join(f"{f'P@{k:.0%}':>7}" for k in KEPT_SHARES))
    for row in curve:
        at = row["good_share_at_good_kept"]
        print(f"{row['training_share']:<16.2f}{row['auc_mean']:>8.4f}{row['auc_sd']:>7.4f}"
              + "".join(f"{at[f'{k:.2f}']:>7.3f}" for k in KEPT_SHARES))
    shipped_runs = [_cv(shipped, y, f) for f in fold_sets]
    soft_runs = [_cv(shipped, y, f, targets=soft) for f in fold_sets]
    rules = []
    for model, share, per_article, gap in (
            *(("shipped", share, cap, None) for share, cap in (
                (0.33, 1), (0.33, 2), (0.33, 4), (0.33, 8), (0.33, 10**6), (0.10, 4), (0.20, 4), (0.25, 4))),
            *(("shipped", 0.33, 4, gap) for gap in (0.25, 0.5, 1.0)),
            ("soft 0.25", 0.33, 1, None), ("soft 0.25", 0.33, 4, None)):
        runs = shipped_runs if model == "shipped" else soft_runs
        if gap is None:
            accepted = [acceptance(s, y, rows, candidates, share=share, per_article=per_article) for s in runs]
        else:
            accepted = [weak_tail_acceptance(s, y, rows, candidates, gap, share=share, per_article=per_article)
                        for s in runs]
        rules.append({"model": model, "keep_share_of_good": share, "per_article": per_article, "tail_gap": gap,
                      "good_share_mean": round(float(np.mean([a["good_share"] for a in accepted])), 4),
                      "good_share_range": [round(min(a["good_share"] for a in accepted), 4),
                                           round(max(a["good_share"] for a in accepted), 4)],
                      "kept_mean": round(float(np.mean([a["kept"] for a in accepted])), 1),
                      "good_kept_mean": round(float(np.mean([a["good_kept"] for a in accepted])), 4)})
    print("\nThe kept set after the caps under other threshold rules, per-article caps and weak-tail caps (an "
          "article's candidates within the tail gap of its best logit), for the shipped model and the soft-target "
          "one (per-target 1; mean over the fold seeds)")
    print(f"{'model':<11}{'threshold keeps':<18}{'per article':>12}{'tail gap':>10}{'kept':>7}{'good [range]':>22}"
          f"{'good kept':>11}")
    for rule in rules:
        cap = "none" if rule["per_article"] >= 10**6 else str(rule["per_article"])
        gap = "-" if rule["tail_gap"] is None else f"{rule['tail_gap']:g}"
        print(f"{rule['model']:<11}{rule['keep_share_of_good']:<18.2f}{cap:>12}{gap:>10}{rule['kept_mean']:>7.0f}"
              f"{rule['good_share_mean']:>8.3f} "
              f"[{rule['good_share_range'][0]:.3f}, {rule['good_share_range'][1]:.3f}]{rule['good_kept_mean']:>11.3f}")
    with atomic_write(OUT) as handle:
        json.dump({"labelled": len(rows), "good": int(y.sum()), "articles": len(groups), "seeds": args.seeds,
                   "resamples": args.boot, "features_tried": tried, "bm25_top1": ease, "rows": table,
                   "learning_curve": curve,
                   "threshold_rules_and_caps": rules},
                  handle, indent=1)
        handle.write("\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()

"""The closed-book stage's defaults, in one place: a module that imports nothing, so the CLI can show them."""

__all__ = ["DEFAULT_SAMPLES", "DEFAULT_TEMPERATURE", "TITLE_THRESHOLD", "AUTHOR_YEAR", "DEFAULT_MAX_TOKENS"]

#: Requests per question (CiteME ran its closed-book test five times).
DEFAULT_SAMPLES = 5
#: The sampling temperature: the API's default, the model's own distribution, so that five samples show what
#: the model may answer rather than one most likely answer five times.
DEFAULT_TEMPERATURE = 1.0
#: The title similarity from which an answer names the cited work (``titles_match``). Lower than the scorer's
#: 0.95: a recollection paraphrases a title more than a typed answer does. Chosen on hand-checked answer and
#: target pairs (corpora/labels/closed_book_title_pairs.jsonl; python benchmarks/bench_closed_book_stage.py).
TITLE_THRESHOLD = 0.85
#: Whether an answer that gives the cited work's first-author surname and its year names the work, whatever
#: title it gives (off: the DOI, PMID or title only, as CiteME counted). On the dev set, the answers of a fresh
#: run that named a kept question's title had, in four of five cases, named its first author in the five
#: samples, three of them with the right year, under a paraphrased or neighbouring title.
AUTHOR_YEAR = True
#: An answer is four short fields.
DEFAULT_MAX_TOKENS = 300

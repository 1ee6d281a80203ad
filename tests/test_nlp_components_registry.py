"""The one registry of chemref's spaCy components: entry points, factory metadata, scorers, span keys end to end,
spaCy's error handler on every component, and ``chemref.load`` taking ``spacy.load``'s arguments."""

from __future__ import annotations

import ast
import tomllib

import pytest

spacy = pytest.importorskip("spacy")

import chemref  # noqa: E402
from chemref.nlp.components import factories  # noqa: E402
from spacy.language import Language  # noqa: E402
from spacy.training import Example  # noqa: E402
from tests.helpers import ROOT  # noqa: E402

TEXT = "Pd(PPh3)4 (5 mol%) was added at 50 °C [12]. Smith et al. showed that the yield was 85% (Smith et al., 2019)."


def test_entry_points_name_the_registry() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    entry_points = project["project"]["entry-points"]
    assert entry_points["spacy_factories"] == {name: f"chemref.nlp.components.factories:make_{name[8:]}"
                                               for name in factories.COMPONENTS}
    assert entry_points["spacy_tokenizers"] == {factories.TOKENIZER: "chemref.nlp.components.factories:create_tokenizer"}
    for target in entry_points["spacy_factories"].values():
        module, _, attr = target.partition(":")
        assert callable(getattr(__import__(module, fromlist=[attr]), attr))


def test_components_is_the_registry() -> None:
    from chemref import nlp

    assert nlp.COMPONENTS is factories.COMPONENTS
    assert factories.COMPONENTS == ("chemref_citations", "chemref_sentencizer", "chemref_author_mentions",
                                    "chemref_claim_classifier", "chemref_chemicals")


def test_every_factory_is_registered_in_the_registry_only() -> None:
    """No ``@Language.factory`` outside ``factories.py``; no lazy ``__getattr__`` in the rule engines."""
    for path in (ROOT / "chemref" / "nlp").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        if path.name != "factories.py":
            assert "Language.factory" not in text, path
        tree = ast.parse(text)
        assert not any(isinstance(node, ast.FunctionDef) and node.name == "__getattr__" for node in tree.body) \
            or path.name == "__init__.py", path


@pytest.mark.parametrize("name", factories.COMPONENTS)
def test_factory_metadata(name: str) -> None:
    meta = Language.get_factory_meta(name)
    assert meta.assigns
    assert "scorer" in meta.default_config
    assert any(weight == 1.0 for weight in meta.default_score_weights.values())
    if name in ("chemref_author_mentions", "chemref_claim_classifier"):
        assert meta.requires == ["doc.spans"]


def test_scores_through_nlp_evaluate(nlp) -> None:
    gold = nlp(TEXT)
    scores = nlp.evaluate([Example(nlp.make_doc(TEXT), gold)])
    assert scores["spans_chemref_citations_f"] == 1.0
    assert scores["spans_chemref_author_mentions_f"] == 1.0
    assert scores["sents_f"] == 1.0
    assert "cats_score" in scores


def _spans(doc, key: str) -> list[tuple[int, int, str]]:
    return [(s.start_char, s.end_char, s.label_) for s in doc.spans[key]]


def _outputs(doc, key: str) -> tuple:
    return (_spans(doc, key), [(s.start_char, s.end_char) for s in doc.sents], _spans(doc, "chemref_author_mentions"),
            doc.cats, [s._.chemref_claim for s in doc.sents])


def test_citations_key_end_to_end_through_load(nlp) -> None:
    moved = chemref.load(config={"components.chemref_citations.spans_key": "cites"})
    for name in ("chemref_sentencizer", "chemref_author_mentions", "chemref_claim_classifier"):
        assert moved.get_pipe(name).citations_key == "cites"
    doc = moved(TEXT)
    assert "chemref_citations" not in doc.spans
    assert _outputs(doc, "cites") == _outputs(nlp(TEXT), "chemref_citations")


def test_citations_key_end_to_end_with_add_pipe(nlp) -> None:
    """Set by hand on a blank pipeline, and through make_doc (whose anchors go to the pipeline's key)."""
    from chemref.jats.model import CitationAnchor, Paragraph, Reference
    from chemref.nlp import make_doc

    blank = spacy.blank("en", config={"nlp": {"tokenizer": {"@tokenizers": factories.TOKENIZER}}})
    blank.add_pipe("chemref_citations", config={"spans_key": "cites"})
    for name in ("chemref_sentencizer", "chemref_author_mentions", "chemref_claim_classifier"):
        blank.add_pipe(name, config={"citations_key": "cites"})
    assert _outputs(blank(TEXT), "cites") == _outputs(nlp(TEXT), "chemref_citations")
    text = "The rate was first measured by Smith [1]. It rose."
    paragraph = Paragraph(text=text, citations=(CitationAnchor(start=37, end=40, text="[1]", ref_ids=("r1",)),))
    refs = {"r1": Reference(id="r1", authors=("Smith",))}
    moved, default = make_doc(blank, paragraph, refs), make_doc(nlp, paragraph, refs)
    assert "chemref_citations" not in moved.spans
    assert _outputs(moved, "cites") == _outputs(default, "chemref_citations")
    assert [s.label_ for s in moved.spans["chemref_author_mentions"]] == ["surname"]


def _failing(doc):
    raise ValueError("boom")


@pytest.mark.slow
@pytest.mark.chemicals
@pytest.mark.parametrize("name", factories.COMPONENTS)
def test_set_error_handler_reaches_every_component(name: str, monkeypatch) -> None:
    """A component that fails on a Doc: spaCy's error handler decides (here: record and skip), in ``nlp.pipe``."""
    nlp = chemref.load(chemicals=True)
    seen: list[tuple[str, str]] = []
    nlp.set_error_handler(lambda component, proc, docs, exc: seen.extend((component, d.text) for d in docs))
    component = nlp.get_pipe(name)
    target = "_finish" if name == "chemref_chemicals" else "__call__"
    original = getattr(type(component), target)

    def fail_on_bad(self, doc, *args, **kwargs):
        if doc.text.startswith("bad"):
            raise ValueError("boom")
        return original(self, doc, *args, **kwargs)

    monkeypatch.setattr(type(component), target, fail_on_bad)
    done = [doc.text for doc in nlp.pipe(["good one [1].", "bad one [2].", "good two [3]."])]
    assert done == ["good one [1].", "good two [3]."]
    assert seen == [(name, "bad one [2].")]


@pytest.mark.slow
def test_load_takes_spacy_load_arguments() -> None:
    assert chemref.load(exclude=["chemref_chemicals"]).pipe_names == list(factories.DEFAULT_PIPELINE)
    assert chemref.load(exclude="chemref_claim_classifier").pipe_names == list(factories.DEFAULT_PIPELINE[:-1])
    disabled = chemref.load(disable=["chemref_author_mentions"])
    assert disabled.disabled == ["chemref_author_mentions"]
    assert "chemref_author_mentions" not in disabled(TEXT).spans
    enabled = chemref.load(enable=["chemref_citations"])
    assert enabled.pipe_names == ["chemref_citations"]
    vocab = spacy.blank("en").vocab
    assert chemref.load(vocab=vocab).vocab is vocab
    nested = chemref.load(config={"components": {"chemref_citations": {"author_year": False}}})
    at = TEXT.index("[12]")
    assert _spans(nested(TEXT), "chemref_citations") == [(at, at + 4, "numeric")]
    with pytest.raises(Exception, match="chemref_nothing"):
        chemref.load(config={"components.chemref_nothing.x": 1})

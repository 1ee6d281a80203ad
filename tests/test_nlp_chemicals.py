"""chemref_chemicals: golden chemical mentions, traps, registration, serialisation, offline use."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

spacy = pytest.importorskip("spacy")
pytestmark = pytest.mark.chemicals  # the nlp fixture is chemref.load(chemicals=True)

import chemref  # noqa: E402
from training.chemicals.corpus import joined_text, read_tagged, spans_from_tags  # noqa: E402
from chemref.nlp.components.chemical_features import is_formula, is_strong_formula, token_classes  # noqa: E402
from chemref.errors import InputError  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def xfail(text, expected, reason):
    return pytest.param(text, expected, marks=pytest.mark.xfail(reason=reason, strict=True))




def mentions(nlp, text: str) -> list[str]:
    return [ent.text for ent in nlp(text).ents if ent.label_ == "CHEMICAL"]


# (sentence, the chemical mentions expected in it, in order). Sentences written for these tests.
GOLDEN = [
    # formulas and charges
    ("The cathode was coated with LiFePO4 and dried.", ["LiFePO4"]),
    ("A solution of NaCl in H2O was stirred for an hour.", ["NaCl", "H2O"]),
    ("The coupling used Pd(PPh3)4 as the catalyst.", ["Pd(PPh3)4"]),
    ("Emission from [Ru(bpy)3]2+ was quenched by oxygen.", ["[Ru(bpy)3]2+", "oxygen"]),
    ("Influx of Ca2+ increased after exposure.", ["Ca2+"]),
    ("Fe3O4 nanoparticles were dispersed in ethanol.", ["Fe3O4", "ethanol"]),
    # systematic names with locants
    ("Plants were sprayed with 2,4-dichlorophenoxyacetic acid before harvest.", ["2,4-dichlorophenoxyacetic acid"]),
    ("We measured the uptake of 6-hydroxydopamine in the striatum.", ["6-hydroxydopamine"]),
    # abbreviations defined in the text
    ("Cells were kept in dimethyl sulfoxide (DMSO) and the DMSO was removed later.",
     ["dimethyl sulfoxide", "DMSO", "DMSO"]),
    # drug names
    ("Patients received haloperidol or clozapine for six weeks.", ["haloperidol", "clozapine"]),
    ("Tamoxifen and doxorubicin were given together.", ["Tamoxifen", "doxorubicin"]),
    ("Pretreatment with lidocaine reduced the pain caused by propofol.", ["lidocaine", "propofol"]),
    ("Lithium carbonate is used to treat bipolar disorder.", ["Lithium carbonate"]),
    # traps: element symbols as words, the surname Li, gene names that look like formulas, units
    ("In this study we asked whether As shown before holds.", []),
    ("Li et al. reported a new synthesis of aspirin.", ["aspirin"]),
    ("As described by Li and co-workers, the reaction of NaCl was slow.", ["NaCl"]),
    ("Expression of CYP2D6 and HER2 was measured in tumour samples.", []),
    ("The rats received 5 mg/kg twice a day for 10 days.", []),
    ("The solution was 10 mM in volume of 5 mL at 25 °C.", []),
    ("Expression of NOS2 rose in the liver.", []),
]


@pytest.mark.slow
@pytest.mark.parametrize(("text", "expected"), GOLDEN)
def test_golden_mentions(nlp, text, expected):
    assert mentions(nlp, text) == expected


def test_ents_and_span_group_agree(nlp):
    doc = nlp("Morphine and cocaine were compared with NaCl.")
    assert [e.label_ for e in doc.ents] == ["CHEMICAL"] * 3
    assert [(s.start, s.end) for s in doc.spans["chemref_chemicals"]] == [(e.start, e.end) for e in doc.ents]


def test_tokenizer_keeps_formulas_whole(nlp):
    doc = nlp("Pd(PPh3)4 and [Ru(bpy)3]2+ and 2,4-dichlorophenoxyacetic acid and LiFePO4.")
    texts = [t.text for t in doc]
    for word in ("Pd(PPh3)4", "[Ru(bpy)3]2+", "2,4-dichlorophenoxyacetic", "LiFePO4"):
        assert word in texts


@pytest.mark.slow
def test_add_pipe_on_blank_pipeline():
    import chemref.nlp.components.chemicals  # noqa: F401  (registers the factory without the entry point)

    blank = spacy.blank("en")
    blank.add_pipe("chemref_chemicals")
    assert [e.text for e in blank("Patients took ibuprofen daily.").ents] == ["ibuprofen"]


def test_load_without_chemicals_has_no_component():
    assert "chemref_chemicals" not in chemref.load().pipe_names


def test_rules_can_be_switched_off():
    import chemref.nlp.components.chemicals  # noqa: F401

    blank = spacy.blank("en")
    blank.add_pipe("chemref_chemicals", config={"abbreviations": False, "formulas": False, "authors": False,
                                                "gazetteer": False})
    pipe = blank.get_pipe("chemref_chemicals")
    assert (pipe.abbreviations, pipe.formulas, pipe.authors, pipe.gazetteer) == (False, False, False, False)


def test_gazetteer_rule_adds_known_names():
    from spacy.tokens import Span

    from chemref.nlp.components.chemical_rules import _add_gazetteer_names, rule_names

    names = rule_names()
    assert {"metformin", "ouabain"} <= names and "analgesic" not in names and "the" not in names
    nlp = spacy.blank("en")
    doc = nlp("Metformin and aspirin were given with the analgesic .")
    doc.ents = [Span(doc, 2, 3, label="CHEMICAL")]
    _add_gazetteer_names(doc)
    assert [e.text for e in doc.ents] == ["Metformin", "aspirin"]


@pytest.mark.slow
def test_to_disk_and_spacy_load_round_trip(nlp, tmp_path):
    text = "Cells in dimethyl sulfoxide (DMSO) took up NaCl, cisplatin and 5-fluorouracil."
    nlp.get_pipe("chemref_chemicals").formulas = True
    nlp.to_disk(tmp_path / "pipeline")
    loaded = spacy.load(tmp_path / "pipeline")
    assert loaded.pipe_names == nlp.pipe_names
    before, after = nlp(text), loaded(text)
    assert [(e.start_char, e.end_char, e.label_) for e in after.ents] == \
        [(e.start_char, e.end_char, e.label_) for e in before.ents]
    assert (tmp_path / "pipeline" / "chemref_chemicals" / "meta.json").is_file()


@pytest.mark.slow
def test_settings_survive_serialisation(tmp_path):
    import chemref.nlp.components.chemicals  # noqa: F401

    blank = spacy.blank("en")
    blank.add_pipe("chemref_chemicals", config={"abbreviations": False, "spans_key": "chem"})
    pipe = blank.get_pipe("chemref_chemicals")
    data = pipe.to_bytes()
    other = spacy.blank("en")
    other.add_pipe("chemref_chemicals")
    restored = other.get_pipe("chemref_chemicals").from_bytes(data)
    assert (restored.abbreviations, restored.spans_key) == (False, "chem")
    assert "chem" in other("Heparin was infused.").spans


def test_from_disk_missing_model_is_a_clear_error(tmp_path):
    import chemref.nlp.components.chemicals  # noqa: F401

    blank = spacy.blank("en")
    blank.add_pipe("chemref_chemicals")
    with pytest.raises(InputError, match="no chemicals model"):
        blank.get_pipe("chemref_chemicals").from_disk(tmp_path)


def test_model_meta_carries_attribution():
    from chemref.nlp.components.chemicals import model_meta

    meta = model_meta()
    assert "CC BY 4.0" in meta["attribution"] and "BioCreative V CDR" in meta["attribution"]
    assert meta["label"] == "CHEMICAL"


def test_count_chemicals():
    from chemref.nlp import count_chemicals

    assert count_chemicals("Aspirin and ibuprofen in H2O.") == 3
    assert count_chemicals("No compounds are named here.") == 0


@pytest.mark.slow
def test_no_network_while_loading_and_running():
    code = textwrap.dedent("""
        import socket
        def refuse(*args, **kwargs):
            raise RuntimeError("network access attempted")
        socket.socket.connect = refuse
        socket.socket.connect_ex = refuse
        socket.create_connection = refuse
        socket.getaddrinfo = refuse
        import chemref
        nlp = chemref.load(chemicals=True)
        doc = nlp("Cisplatin and NaCl were dissolved in DMSO.")
        assert [e.text for e in doc.ents], doc.ents
        from chemref.nlp import count_chemicals
        assert count_chemicals("Aspirin.") == 1
        print("ok")
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip().endswith("ok")


# -- features and the corpus reader (no model) -----------------------------------------------------------------

@pytest.mark.parametrize(("word", "formula", "strong"), [
    ("H2O", True, True), ("NaCl", True, True), ("Pd(PPh3)4", True, True), ("[Ru(bpy)3]2+", True, True),
    ("CO2", True, False), ("NOS2", True, False), ("CYP2D6", False, False), ("HER2", False, False),
    ("Li", False, False), ("ICU", True, False), ("mg", False, False), ("Ca2+", False, True),
])
def test_formula_patterns(word, formula, strong):
    assert (is_formula(word), is_strong_formula(word)) == (formula, strong)


def test_token_classes():
    assert token_classes("diazepam")[1] == "azepam"
    assert "ELEM" in token_classes("Li")[0]
    assert "ELNAME" in token_classes("lithium")[0]
    assert "SYS" in token_classes("dichlorophenoxy")[0]
    assert "LOC" in token_classes("2,4")[0]
    assert token_classes("the") == ("", "")


def test_read_tagged_and_spans(tmp_path):
    path = tmp_path / "x.tsv"
    path.write_text("Aspirin\tB-Chemical\nand\tO\nsodium\tB-Chemical\nchloride\tI-Chemical\n\nok\tO\n",
                    encoding="utf-8")
    sentences = list(read_tagged(path))
    assert [s.spans() for s in sentences] == [[(0, 1), (2, 4)], []]
    assert sentences[1].line == 6
    assert spans_from_tags(["I-X", "I-X", "O", "B-X", "B-X"]) == [(0, 2), (3, 4), (4, 5)]
    assert joined_text(["a", "bc"]) == ("a bc", [(0, 1), (2, 4)])


def test_read_tagged_names_a_bad_line(tmp_path):
    path = tmp_path / "bad.tsv"
    path.write_text("Aspirin\tB-Chemical\nbroken line\n", encoding="utf-8")
    with pytest.raises(InputError, match="line 2"):
        list(read_tagged(path))

"""Golden table for the BRAT standoff reader: every line kind, CRLF, blank lines and bad lines."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chemref.brat import (Attribute, Document, Entity, Equiv, Event, Normalization, Note, Relation, Span,
                          format_ann, parse_ann, read_ann, write_ann)
from chemref.errors import BratError, ChemrefError


def _summary(doc: Document) -> dict:
    out: dict = {}
    if doc.entities:
        out["T"] = [(e.id, e.type, e.fragments, e.text) for e in doc.entities]
    if doc.relations:
        out["R"] = [(r.id, r.type, r.arg1, r.arg2) for r in doc.relations]
    if doc.events:
        out["E"] = [(e.id, e.type, e.trigger, e.args) for e in doc.events]
    if doc.attributes:
        out["A"] = [(a.id, a.name, a.target, a.value) for a in doc.attributes]
    if doc.normalizations:
        out["N"] = [(n.id, n.type, n.target, n.ref, n.text) for n in doc.normalizations]
    if doc.notes:
        out["#"] = [(n.id, n.type, n.target, n.text) for n in doc.notes]
    if doc.equivs:
        out["*"] = [(q.type, q.ids) for q in doc.equivs]
    if doc.diagnostics:
        out["diagnostics"] = len(doc.diagnostics)
    return out


T2 = "T2\tentity 0 5\tw0 w1\n"

CASES = [
    ("T1\tentity 0 5\tw0 w1\n", {"T": [("T1", "entity", ((0, 5),), "w0 w1")]}),
    # discontinuous fragments, kept in file order; spaces around ';' are accepted
    ("T1\tentity 30 37;46 53\tw10 w11 w14 w15\n", {"T": [("T1", "entity", ((30, 37), (46, 53)), "w10 w11 w14 w15")]}),
    ("T1\tentity 46 53 ; 30 37\tx\n", {"T": [("T1", "entity", ((46, 53), (30, 37)), "x")]}),
    # the text field may be empty or missing; extra tab fields are ignored
    ("T1\tentity 0 5\t\n", {"T": [("T1", "entity", ((0, 5),), "")]}),
    ("T1\tentity 0 5\n", {"T": [("T1", "entity", ((0, 5),), None)]}),
    ("T1\tentity 0 5\tw0\textra\n", {"T": [("T1", "entity", ((0, 5),), "w0")]}),
    # relations: roles decide Arg1/Arg2, whatever their order; brat.py's trailing tab is fine
    (T2 + "T3\tentity 6 8\tw2\nR1\tCOREFERENCE Arg1:T3 Arg2:T2\n", {"T": 2, "R": [("R1", "COREFERENCE", "T3", "T2")]}),
    (T2 + "T3\tentity 6 8\tw2\nR1\tCOREFERENCE Arg2:T2 Arg1:T3\t\n", {"T": 2, "R": [("R1", "COREFERENCE", "T3", "T2")]}),
    (T2 + "T3\tentity 6 8\tw2\nR1\tWORK_UP  Arg1:T3   Arg2:T2\n", {"T": 2, "R": [("R1", "WORK_UP", "T3", "T2")]}),
    # a relation may come before the T lines it uses
    ("R1\tCOREFERENCE Arg1:T3 Arg2:T2\n" + T2 + "T3\tentity 6 8\tw2\n", {"T": 2, "R": [("R1", "COREFERENCE", "T3", "T2")]}),
    # CRLF line ends, blank and whitespace-only lines
    ("T1\tentity 0 5\tw0 w1\r\n\r\n   \r\n\nT2\tentity 6 8\tw2\r\n",
     {"T": [("T1", "entity", ((0, 5),), "w0 w1"), ("T2", "entity", ((6, 8),), "w2")]}),
    # the other line kinds
    (T2 + "E1\tStep:T2 Theme:T2\n", {"T": 1, "E": [("E1", "Step", "T2", (("Theme", "T2"),))]}),
    (T2 + "A1\tNegation T2\n", {"T": 1, "A": [("A1", "Negation", "T2", None)]}),
    (T2 + "M1\tConfidence T2 High\n", {"T": 1, "A": [("M1", "Confidence", "T2", "High")]}),
    (T2 + "N1\tReference T2 ChEBI:123\tbenzene\n", {"T": 1, "N": [("N1", "Reference", "T2", "ChEBI:123", "benzene")]}),
    (T2 + "#1\tAnnotatorNotes T2\tcheck this\n", {"T": 1, "#": [("#1", "AnnotatorNotes", "T2", "check this")]}),
    (T2 + "*\tEquiv T2 T2\n", {"T": 1, "*": [("Equiv", ("T2", "T2"))]}),
    # unknown kinds are ignored with a diagnostic
    (T2 + "X1\tjunk line\nT3\tentity 6 8\tw2\n% comment\n", {"T": 2, "diagnostics": 2}),
    # duplicate id: the later line wins, with a diagnostic
    ("T1\tentity 0 5\ta\nT1\tentity 6 8\tb\n", {"T": [("T1", "entity", ((6, 8),), "b")], "diagnostics": 1}),
    ("", {}),
]

BAD = [
    ("T1 entity 0 5 w0\n", 1, "no tab"),
    ("T1\tentity\tw0\n", 1, "TYPE START END"),
    ("T1\tentity 0\tw0\n", 1, "START END"),
    ("T1\tentity 0 five\tw0\n", 1, "integers"),
    ("T1\tentity -1 5\tw0\n", 1, "integers"),
    ("T1\tentity 0 5;7\tw0\n", 1, "START END"),
    ("\nT1\tentity 9 5\tw0\n", 2, "ends before"),
    # an empty fragment holds no character: alone or in a discontinuous mention
    ("T1\tentity 10 10\t\n", 1, "is empty"),
    ("T2\tentity 0 5\tw0\nT1\tentity 0 3;4 4\tx\n", 2, "is empty"),
    (T2 + "R1\tCOREFERENCE Arg1:T2\n", 2, "relation"),
    (T2 + "R1\tCOREFERENCE Arg1:T2 Arg2:T9\n", 2, "T9"),
    (T2 + "R1\tCOREFERENCE Arg1:T2 Arg3:T2\n", 2, "Arg1 and Arg2"),
    (T2 + "R1\tCOREFERENCE Arg1T2 Arg2:T2\n", 2, "argument"),
    (T2 + "E1\tStep T2\n", 2, "event"),
    (T2 + "A1\tNegation\n", 2, "attribute"),
    (T2 + "N1\tReference T2\tx\n", 2, "normalization"),
    (T2 + "#1\tAnnotatorNotes\tx\n", 2, "note"),
    (T2 + "*\n", 2, "equivalence"),
]


@pytest.mark.parametrize("text, expected", CASES)
def test_reader_golden(text: str, expected: dict) -> None:
    got = _summary(parse_ann(text, name="d1", path="d1.ann"))
    for kind, value in expected.items():
        if isinstance(value, int) and kind != "diagnostics":
            assert len(got[kind]) == value
        else:
            assert got.get(kind) == value, kind
    assert set(got) == set(expected)


@pytest.mark.parametrize("text, line, words", BAD)
def test_reader_bad_lines(text: str, line: int, words: str) -> None:
    with pytest.raises(BratError) as info:
        parse_ann(text, name="d1", path="gold/d1.ann")
    assert info.value.line == line
    assert info.value.path == "gold/d1.ann"
    message = str(info.value)
    assert message.startswith(f"gold/d1.ann:{line}: ")
    assert words in message
    assert "\n" not in message


def test_scoring_kinds_skip_other_lines() -> None:
    doc = parse_ann(T2 + "A1\tNegation\n*\n", name="d", kinds="TR")
    assert len(doc.entities) == 1 and not doc.attributes and not doc.diagnostics


def test_read_ann_non_utf8_is_a_warning_naming_the_line(tmp_path) -> None:
    path = tmp_path / "d1.ann"
    path.write_bytes(b"T1\tentity 0 5\tw0\nT2\tentity 6 8\tcaf\xe9\n")
    doc = read_ann(path)
    assert [e.text for e in doc.entities] == ["w0", "caf\ufffd"]
    assert len(doc.diagnostics) == 1 and f"{path}:2:" in doc.diagnostics[0]


def test_read_ann_bom_and_missing_file(tmp_path) -> None:
    path = tmp_path / "d1.ann"
    path.write_bytes(b"\xef\xbb\xbfT1\tentity 0 5\tw0\n")
    assert read_ann(path).entities[0].id == "T1"
    with pytest.raises(ChemrefError):
        read_ann(tmp_path / "nope.ann")


def test_value_objects_are_frozen() -> None:
    e = Entity("T1", "entity", (Span(0, 5), Span(7, 9)), "a b")
    with pytest.raises(AttributeError):
        e.type = "x"  # type: ignore[misc]
    assert e.key == ("entity", ((0, 5), (7, 9)))
    assert e.start == 0 and e.end == 9
    assert Span(0, 5).overlaps(Span(4, 6)) and not Span(0, 5).overlaps(Span(5, 6))


def test_writer_round_trip(tmp_path) -> None:
    doc = Document(
        name="d1",
        entities=(Entity("T1", "entity", (Span(0, 5),), "w0 w1"), Entity("T2", "entity", (Span(6, 8), Span(9, 11)), "a b")),
        relations=(Relation("R1", "COREFERENCE", "T2", "T1"),),
        events=(Event("E1", "Step", "T1", (("Theme", "T2"),)),),
        attributes=(Attribute("A1", "Negation", "T1"), Attribute("M1", "Conf", "T2", "High")),
        normalizations=(Normalization("N1", "Reference", "T1", "ChEBI:1", "x"),),
        notes=(Note("#1", "AnnotatorNotes", "T1", "n"),),
        equivs=(Equiv("Equiv", ("T1", "T2")),),
    )
    path = tmp_path / "out" / "d1.ann"
    write_ann(doc, path)
    again = read_ann(path)
    assert _summary(again) == _summary(doc)
    assert format_ann(again) == path.read_text()


_label = st.sampled_from(["entity", "Chem", "REACTION_STEP"])
_frag = st.tuples(st.integers(0, 500), st.integers(1, 50)).map(lambda t: Span(t[0], t[0] + t[1]))


@st.composite
def documents(draw) -> Document:
    n = draw(st.integers(1, 6))
    ents = tuple(Entity(f"T{i + 1}", draw(_label), tuple(draw(st.lists(_frag, min_size=1, max_size=3))),
                        draw(st.text(st.characters(blacklist_characters="\t\n\r", blacklist_categories=("Cs",)),
                                     max_size=8)))
                 for i in range(n))
    rels = tuple(Relation(f"R{j + 1}", draw(st.sampled_from(["COREFERENCE", "WORK_UP"])),
                          f"T{draw(st.integers(1, n))}", f"T{draw(st.integers(1, n))}")
                 for j in range(draw(st.integers(0, 5))))
    return Document(name="d", entities=ents, relations=rels)


@pytest.mark.slow
@given(documents())
def test_format_then_parse_is_identity(doc: Document) -> None:
    again = parse_ann(format_ann(doc), name="d")
    assert _summary(again) == _summary(doc)


@pytest.mark.slow
@given(documents())
def test_lean_scoring_reader_agrees_with_the_reader(doc: Document) -> None:
    from chemref.brat.reader import scan_ann

    text = format_ann(doc)
    ments, rels, _ = scan_ann(text, "d.ann")
    parsed = parse_ann(text, name="d", kinds="TR")
    assert ments == {e.id: e.key for e in parsed.entities}
    assert [(t, a, b) for t, a, b, _ in rels] == [(r.type, r.arg1, r.arg2) for r in parsed.relations]


_lines = st.sampled_from(["T1\tentity 0 5\tx", "T2\tentity 3 9;12 15\ty", "T3\tentity 3 9 ; 12 15", "T4\tentity +3 9\tz",
                          "T5\tentity 9 3\tz", "T6\tentity 0 5 7\tz", "T7 entity 0 5", "T8\tentity\tq", "T9\tentity ٣ 9\tw",
                          "R1\tCOREFERENCE Arg1:T1 Arg2:T2", "R2\tWORK_UP Arg2:T2 Arg1:T1", "R3\tX Arg1:T1",
                          "R4\tX Arg1:T1 Arg2:T99", "R5\tX Arg1:T1 Arg3:T2", "A1\tNeg", "X1\tjunk", "", "  ", "T1\tChem 1 2\t"])


@pytest.mark.slow
@given(st.lists(_lines, max_size=6))
def test_lean_scoring_reader_agrees_on_any_lines(lines) -> None:
    from chemref.scoring.brat.chemu import document_items

    text = "\r\n".join(lines)
    try:
        parsed = parse_ann(text, name="d", path="d.ann", kinds="TR")
    except BratError as exc:
        with pytest.raises(BratError) as info:
            document_items(text, "d.ann")
        assert info.value.line == exc.line
        return
    ents, rels, _ = document_items(text, "d.ann")
    by_id = {e.id: e.key for e in parsed.entities}
    assert ents == set(by_id.values())
    assert rels == {(r.type, by_id[r.arg1], by_id[r.arg2]) for r in parsed.relations}

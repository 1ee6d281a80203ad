"""SentenceRules: the shipped tables, user additions, JSON round trip, equality and clear errors."""

from __future__ import annotations

import json

import pytest

from chemref.errors import InputError
from chemref.nlp.rules import DEFAULT_TABLES, RuleTable, SentenceRules
from chemref.nlp.sentences import DEFAULT_RULES, split_sentences


def sents(text, **kw):
    return [text[s:e] for s, e in split_sentences(text, **kw)]


@pytest.mark.parametrize("species", ["E. coli", "S. cerevisiae", "C. elegans", "A. thaliana", "P. falciparum"])
def test_abbreviated_genus_is_no_sentence_end(species):
    # the one-letter genus reads as an initial before a lower-case species name (no list of binomials needed)
    assert sents(f"Cultures of {species} grew overnight. They were harvested.") == [
        f"Cultures of {species} grew overnight.", "They were harvested."]


def test_default_tables_in_order():
    rules = SentenceRules.default()
    assert rules.table_names == DEFAULT_TABLES == ("general", "scientific", "chemistry", "taxonomy", "journals")
    assert rules == DEFAULT_RULES
    assert "Fig." in rules.table("scientific").never
    assert "r.t." in rules.table("chemistry").either
    assert "spp." in rules.table("taxonomy").either | rules.table("taxonomy").never | rules.table("taxonomy").name_like
    assert "J. Am. Chem. Soc." in rules.table("journals").journals


@pytest.mark.parametrize("name", DEFAULT_TABLES)
def test_shipped_json_round_trips(name):
    table = RuleTable.load(name)
    assert RuleTable.from_dict(json.loads(json.dumps(table.to_dict()))) == table


def test_rules_json_round_trip_and_equality():
    rules = SentenceRules.default().with_abbreviations(["Cmpd", "Expt."]).with_no_split([r"Ex\. \d+"])
    data = json.loads(json.dumps(rules.to_dict()))
    back = SentenceRules.from_dict(data)
    assert back == rules
    assert hash(back) == hash(rules)
    assert back != SentenceRules.default()


def test_user_abbreviation_suppresses_a_split():
    text = "The sample was sent to the Lab. Smith group for analysis. It came back."
    assert sents(text) == ["The sample was sent to the Lab. Smith group for analysis.", "It came back."]
    text = "The yield of Bch. Alpha was low. We repeated it."
    assert sents(text) == ["The yield of Bch.", "Alpha was low.", "We repeated it."]
    rules = SentenceRules.default().with_abbreviations(["Bch."], kind="never")
    assert sents(text, rules=rules) == ["The yield of Bch. Alpha was low.", "We repeated it."]


def test_user_abbreviation_kinds():
    rules = SentenceRules.default().with_abbreviations(["Cpd"])  # default kind "name"
    assert "Cpd." in rules.table("user").name_like
    rules = rules.with_abbreviations(["Cpd"], kind="either")
    assert "Cpd." in rules.table("user").either and "Cpd." not in rules.table("user").name_like
    with pytest.raises(InputError, match="unknown abbreviation kind"):
        rules.with_abbreviations(["x"], kind="sometimes")
    with pytest.raises(InputError, match="non-empty"):
        rules.with_abbreviations([""])


def test_no_split_pattern():
    text = "See Example 1. It is in the SI. Ex. 2 shows more. Done."
    rules = SentenceRules.default().with_no_split([r"\bSI\. Ex\."])
    assert sents(text, rules=rules) == ["See Example 1.", "It is in the SI. Ex. 2 shows more.", "Done."]
    with pytest.raises(InputError, match="not a valid regular expression"):
        SentenceRules.default().with_no_split(["(unclosed"])


@pytest.mark.parametrize("bad,message", [
    ({}, "'tables' list"),
    ({"tables": [{"name": ""}]}, "non-empty string 'name'"),
    ({"tables": [{"name": "x", "abbreviations": {"sometimes": []}}]}, "abbreviations"),
    ({"tables": [{"name": "x", "sentence_starters": "The"}]}, "list of non-empty strings"),
    ({"tables": [], "no_split": "x"}, "no_split"),
    ({"tables": [], "format": 99}, "unsupported"),
    ({"tables": [{"name": "a"}, {"name": "a"}]}, "unique"),
])
def test_from_dict_errors_are_clear(bad, message):
    with pytest.raises(InputError, match=message):
        SentenceRules.from_dict(bad, source="pipeline/chemref_sentencizer/rules.json")


def test_unknown_shipped_table():
    with pytest.raises(InputError, match="no shipped sentence rule table"):
        RuleTable.load("klingon")

"""Golden cases for the classes of sentence boundary that general-English suites test (inline lists,
initials, measures, brackets, citations between sentences, quotations with their source, ellipses).

Every sentence here was written for chemref; none is taken from another project's tests.
"""

from __future__ import annotations

import pytest

from chemref.nlp.sentences import split_sentences


def sents(text: str) -> list[str]:
    return [text[s:e] for s, e in split_sentences(text)]


INLINE_LIST_CASES = [
    ("1. Weigh the salt 2. Dissolve it in water 3. Filter the solution",
     ["1. Weigh the salt", "2. Dissolve it in water", "3. Filter the solution"]),
    ("1) Cool the flask 2) Add the acid slowly", ["1) Cool the flask", "2) Add the acid slowly"]),
    ("1.) Rinse the column 2.) Load the sample", ["1.) Rinse the column", "2.) Load the sample"]),
    ("a. Stir for an hour b. Decant the liquid c. Dry the solid",
     ["a. Stir for an hour", "b. Decant the liquid", "c. Dry the solid"]),
    ("i. Grind the crystals ii. Press a pellet iii. Record the spectrum",
     ["i. Grind the crystals", "ii. Press a pellet", "iii. Record the spectrum"]),
    ("\u2022 4. Seal the vial \u2022 5. Store it cold", ["\u2022 4. Seal the vial", "\u2022 5. Store it cold"]),
    ("\u20437. Label the tubes \u20438. Spin them down", ["\u20437. Label the tubes", "\u20438. Spin them down"]),
    ("1. Heat the oil. 2. Add the seeds.", ["1. Heat the oil.", "2. Add the seeds."]),
    # not lists: a reference to a numbered thing, an enumeration inside one sentence, initials
    ("1. The yield is given in Table 2. The purity was high.",
     ["1. The yield is given in Table 2.", "The purity was high."]),
    ("The steps were 1) heating, 2) cooling and 3) drying.", ["The steps were 1) heating, 2) cooling and 3) drying."]),
    ("A. B. Carter and D. E. Lane wrote the review.", ["A. B. Carter and D. E. Lane wrote the review."]),
    ("The films in Fig. 3. This one was taken at noon. Fig. 4. This one at dusk.",
     ["The films in Fig. 3.", "This one was taken at noon.", "Fig. 4.", "This one at dusk."]),
]

INITIALS_CASES = [
    ("The crystals were grown by Maria K. Novak last spring.", ["The crystals were grown by Maria K. Novak last spring."]),
    ("The data came from Peter I. Grant at the institute.", ["The data came from Peter I. Grant at the institute."]),
    ("It was left to you and I. Nobody else came.", ["It was left to you and I.", "Nobody else came."]),
    ("Copyright (C) 2021 R. Brandt GmbH", ["Copyright (C) 2021 R. Brandt GmbH"]),
    ("\u00a9 2020 T. Huber Verlag. All rights reserved.", ["\u00a9 2020 T. Huber Verlag.", "All rights reserved."]),
    ("The sample was kept at 77 K. Then it was warmed.", ["The sample was kept at 77 K.", "Then it was warmed."]),
    ("The complex is shown in Table I. Its colour is red.", ["The complex is shown in Table I.", "Its colour is red."]),
]

MEASURE_CASES = [
    ("The crate weighed 3 lb. 7 oz. when full.", ["The crate weighed 3 lb. 7 oz. when full."]),
    ("The pipe was 4 ft. 2 in. long.", ["The pipe was 4 ft. 2 in. long."]),
    ("The sample from well No. 12 was cloudy.", ["The sample from well No. 12 was cloudy."]),
    ("The vial was stored in cabinet N\u00b0. 7 overnight.", ["The vial was stored in cabinet N\u00b0. 7 overnight."]),
    ("The pipe was 4 ft. The rod was longer.", ["The pipe was 4 ft.", "The rod was longer."]),
]

BRACKET_CASES = [
    ("The quote is on [p. 17] of the report.", ["The quote is on [p. 17] of the report."]),
    ("The note [vol. 3] cites it. We agree.", ["The note [vol. 3] cites it.", "We agree."]),
    ("He wrote that \u201cthe salt [...] dissolved at once\u201d. Nobody replied.",
     ["He wrote that \u201cthe salt [...] dissolved at once\u201d.", "Nobody replied."]),
]

CITATION_CASES = [
    ("The melt was cooled slowly.4 5 Later work used quenching.",
     ["The melt was cooled slowly.4 5", "Later work used quenching."]),
    ("The melt was cooled slowly.4 5 8 Later work used quenching.",
     ["The melt was cooled slowly.4 5 8", "Later work used quenching."]),
    ("This has consequences for catalysis. [12] reports a similar effect.",
     ["This has consequences for catalysis.", "[12] reports a similar effect."]),
    ("This has consequences for catalysis. [12] Similar effects are known.",
     ["This has consequences for catalysis. [12]", "Similar effects are known."]),
    ("The rate doubled. [3, 4] and [9] report the same trend.",
     ["The rate doubled.", "[3, 4] and [9] report the same trend."]),
]

QUOTATION_CASES = [
    ('"The flask [...] cracked in the cold [...]" (Baker 112).', ['"The flask [...] cracked in the cold [...]" (Baker 112).']),
    ('"The flask cracked." (Baker 112). It was replaced.', ['"The flask cracked." (Baker 112).', "It was replaced."]),
]

ELLIPSIS_CASES = [
    ("The flask held . . . nothing at all.", ["The flask held . . . nothing at all."]),
    ("The colour was . . . I cannot say.", ["The colour was . . . I cannot say."]),
    ("He heated it and waited.... Then it boiled.", ["He heated it and waited....", "Then it boiled."]),
    ("The report ends abruptly . . . . The next page is missing.",
     ["The report ends abruptly . . . .", "The next page is missing."]),
    ("The salt dissolved. . . . The rest was filtered. . . .",
     ["The salt dissolved.", ". . . The rest was filtered. . . ."]),
    ("It went well...then it failed.", ["It went well...then it failed."]),
]


@pytest.mark.parametrize("text,expected", INLINE_LIST_CASES)
def test_inline_lists(text, expected):
    assert sents(text) == expected


@pytest.mark.parametrize("text,expected", INITIALS_CASES)
def test_initials_and_organisations(text, expected):
    assert sents(text) == expected


@pytest.mark.parametrize("text,expected", MEASURE_CASES)
def test_measures(text, expected):
    assert sents(text) == expected


@pytest.mark.parametrize("text,expected", BRACKET_CASES)
def test_periods_in_brackets(text, expected):
    assert sents(text) == expected


@pytest.mark.parametrize("text,expected", CITATION_CASES)
def test_citations_between_sentences(text, expected):
    assert sents(text) == expected


@pytest.mark.parametrize("text,expected", QUOTATION_CASES)
def test_quotation_with_source(text, expected):
    assert sents(text) == expected


@pytest.mark.parametrize("text,expected", ELLIPSIS_CASES)
def test_ellipses(text, expected):
    assert sents(text) == expected

"""One T-line and offsets parser for the BRAT reader and the ChEMU scorer: same results, same errors."""

from __future__ import annotations

import pytest

from chemref.brat.reader import parse_ann, parse_offsets, read_t_line, split_t_line
from chemref.errors import BratError

# (T line, (id, type, fragments as the reader keeps them)) or an error fragment
CASES = [
    ("T1\tCHEM 0 5\tbenzene", ("T1", "CHEM", [(0, 5)])),
    ("T2\tCHEM 10 12;0 5\tx y", ("T2", "CHEM", [(10, 12), (0, 5)])),
    ("T3\tCHEM 0 5 ; 7 9\tx y", ("T3", "CHEM", [(0, 5), (7, 9)])),
    ("T4\tCHEM 0 5", ("T4", "CHEM", [(0, 5)])),                    # no text field
    ("T5 CHEM 0 5 x", "no tab after its id"),
    ("T6\tCHEM\tx", "as 'TYPE START END'"),
    ("T7\tCHEM 0 five\tx", "non-negative integers"),
    ("T8\tCHEM 0 -5\tx", "non-negative integers"),
    ("T9\tCHEM 9 5\tx", "ends before it starts"),
    ("T10\tCHEM 0 5;7\tx", "each fragment must be 'START END'"),
]


@pytest.mark.parametrize("line, expected", CASES)
def test_reader_and_scorer_agree(line: str, expected) -> None:
    if isinstance(expected, str):
        for parse in (lambda: parse_ann(line, path="d.ann"), lambda: read_t_line(line, "d.ann", 1)):
            with pytest.raises(BratError, match=expected) as info:
                parse()
            assert str(info.value).startswith("d.ann:1: ")
        return
    tid, typ, frags = expected
    entity = parse_ann(line, path="d.ann").entities[0]
    assert (entity.id, entity.type, [(s.start, s.end) for s in entity.spans]) == (tid, typ, frags)
    assert read_t_line(line, "d.ann", 1) == (tid, typ, tuple(sorted(set(frags))))
    assert split_t_line(line, "d.ann", 1)[:2] == (tid, typ)
    assert parse_offsets(split_t_line(line, "d.ann", 1)[2], "d.ann", 1) == frags

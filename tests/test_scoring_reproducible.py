"""``score brat`` writes the same bytes whatever Python's hash seed: the order of the FP/FN lists and of the
page's rows never follows a set's iteration order."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import ROOT

TEXT = "The reaction mixture was stirred. The reaction was quenched with water and ethyl acetate."

GOLD = """T1\tREACTION_STEP 0 12\tThe reaction
T2\tREACTION_STEP 4 20\treaction mixture
T3\tWORKUP 65 70\twater
T4\tentity 34 46\tThe reaction
T5\tentity 75 88\tethyl acetate
R1\tARG1 Arg1:T1 Arg2:T3
R2\tARG1 Arg1:T4 Arg2:T5
"""

PRED = """T1\tREACTION_STEP 0 7\tThe rea
T2\tREACTION_STEP 4 12\treaction
T3\tREACTION_STEP 9 20\tion mixture
T4\tWORKUP 65 69\twate
T5\tentity 34 46\tThe reaction
T6\tother 34 46\tThe reaction
T7\tentity 75 83\tethyl ac
R1\tARG1 Arg1:T1 Arg2:T4
R2\tARG1 Arg1:T2 Arg2:T4
R3\tARG1 Arg1:T5 Arg2:T7
R4\tARG1 Arg1:T6 Arg2:T7
"""


def _run(tmp: Path, seed: int, args: list[str]) -> tuple[str, bytes]:
    env = {**os.environ, "PYTHONHASHSEED": str(seed), "PYTHONPATH": str(ROOT)}
    page = tmp / f"page{seed}.html"
    out = subprocess.run([sys.executable, "-m", "chemref", "score", "brat", str(tmp / "gold"), str(tmp / "pred"),
                          *args, "--html", str(page)], capture_output=True, text=True, env=env, check=True)
    return out.stdout, page.read_bytes()


@pytest.mark.slow
@pytest.mark.parametrize("args", [["--errors"], ["--errors", "--json"], ["--brateval", "--errors"]],
                         ids=["errors", "json", "brateval"])
def test_the_same_bytes_under_any_hash_seed(tmp_path: Path, args: list[str]) -> None:
    for side, ann in (("gold", GOLD), ("pred", PRED)):
        (tmp_path / side).mkdir()
        (tmp_path / side / "d.txt").write_text(TEXT)
        (tmp_path / side / "d.ann").write_text(ann)
    first = _run(tmp_path, 1, args)
    assert "FP" in first[0] or '"FP"' in first[0]
    for seed in (2, 3, 11):
        assert _run(tmp_path, seed, args) == first, f"PYTHONHASHSEED={seed} changed the output"

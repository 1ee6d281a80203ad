"""Recipes for hostile BRAT inputs (scoring), built at run time: long and many COREFERENCE chains, nested and
mutually overlapping mentions. Used by tests/hostile/test_hostile_brat.py and benchmarks/bench_hostile.py."""

from __future__ import annotations

from pathlib import Path


def coref_chains(chains: int, links: int, shift: int = 0) -> str:
    """``chains`` separate COREFERENCE chains of ``links`` links each (``links + 1`` mentions a chain, 4
    characters apart), so the closure holds ``chains * links * (links + 1) / 2`` links."""
    lines = []
    t = 0
    r = 0
    for c in range(chains):
        first = t + 1
        for j in range(links + 1):
            t += 1
            start = 4 * (t - 1) + shift
            lines.append(f"T{t}\tReaction_product {start} {start + 3}\tabc")
        for j in range(links):
            r += 1
            lines.append(f"R{r}\tCOREFERENCE Arg1:T{first + j} Arg2:T{first + j + 1}")
    return "\n".join(lines) + "\n"


def nested_mentions(n: int, shift: int = 0) -> str:
    """``n`` mentions nested in each other (``[i, 2n - i)``), every one overlapping every other."""
    return "".join(f"T{i + 1}\tReaction_product {i + shift} {2 * n - i + shift}\tx\n" for i in range(n))


def overlapping_chain(n: int, shift: int = 0) -> str:
    """A COREFERENCE chain of ``n`` links over ``n + 1`` mentions whose spans all overlap (``[k, k + n + 2)``)."""
    lines = [f"T{k + 1}\tReaction_product {k + shift} {k + n + 2 + shift}\tx" for k in range(n + 1)]
    lines += [f"R{k + 1}\tCOREFERENCE Arg1:T{k + 1} Arg2:T{k + 2}" for k in range(n)]
    return "\n".join(lines) + "\n"


def folders(root: Path, gold: str, pred: str, text_chars: int = 0) -> tuple[Path, Path]:
    """Gold and prediction folders of one document ``doc`` holding ``gold`` and ``pred`` (and a ``.txt``)."""
    out = []
    for side, ann in (("gold", gold), ("pred", pred)):
        folder = root / side
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "doc.ann").write_text(ann, encoding="utf-8")
        if text_chars:
            (folder / "doc.txt").write_text("x" * text_chars, encoding="utf-8")
        out.append(folder)
    return out[0], out[1]


def one_document(root: Path, gold: str, pred: str, *, name: str = "doc",
                 text: str = "Sodium chloride was added to the flask.") -> tuple[Path, Path]:
    """Gold and prediction folders of one document ``name`` (which may hold any bytes a file name can, given as
    ``os.fsdecode`` gives them) with its ``.txt`` on both sides."""
    out = []
    for side, ann in (("gold", gold), ("pred", pred)):
        folder = root / side
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{name}.ann").write_bytes(ann.encode("utf-8"))
        (folder / f"{name}.txt").write_bytes(text.encode("utf-8"))
        out.append(folder)
    return out[0], out[1]


#: a document name whose file name is not UTF-8 (a Latin-1 byte), as Python decodes it from the file system
NOT_UTF8_NAME = "r\udce9action"

#: empty fragments placed where a relaxed overlap test is most tempted to count them: inside a gold mention,
#: at its end, and as one fragment of a discontinuous mention
EMPTY_FRAGMENTS = {"inside": "3 3", "at the end": "15 15", "discontinuous": "0 6;9 9"}


def offset_digits(digits: int) -> str:
    """A T line whose end offset has ``digits`` digits (Python refuses to read 4,300 or more as an int)."""
    return f"T1\tReaction_product 0 {'9' * digits}\tx\n"


def many_bad_lines(lines: int, kind: str) -> str:
    """``lines`` lines that each earn a warning: of an unknown kind (``X``; each after a T line, so half the
    file is annotations, short of what makes it no BRAT file), a reused T id, or (BRATEval mode) a T line without
    a text field."""
    line = {"unknown": "T1\tReaction_product 0 15\tSodium chloride\nX1\tjunk",
            "reused": "T1\tReaction_product 0 15\tSodium chloride", "no text": "T1\tReaction_product 0 15"}[kind]
    return (line + "\n") * (lines // 2 if kind == "unknown" else lines)


def unknown_lines(lines: int, annotations: int = 1) -> str:
    """A file of ``lines`` lines of no BRAT kind after ``annotations`` T lines: mostly not a BRAT file."""
    return "T1\tReaction_product 0 15\tSodium chloride\n" * annotations + "% a line of another format\n" * lines

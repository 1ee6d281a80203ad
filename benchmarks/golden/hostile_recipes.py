"""Recipes for hostile inputs, built at run time (nothing large is stored in the repository).

Used by the hostile-input tests (tests/hostile/) and by benchmarks/bench_hostile.py.
"""

from __future__ import annotations

import os
import zipfile
from pathlib import Path


def coref_chain(n: int, shift: int) -> str:
    """A ``.ann`` text with ``n`` COREFERENCE links T(2i+1) -> T(2i+2) whose mentions chain: the second
    mention of each link has the same span as the first of the next, so the closure holds n(n+1)/2 links."""
    lines = []
    for i in range(n):
        for k, j in ((2 * i + 1, i), (2 * i + 2, i + 1)):
            start = 4 * j + shift
            lines.append(f"T{k}\tReaction_product {start} {start + 3}\tabc")
        lines.append(f"R{i + 1}\tCOREFERENCE Arg1:T{2 * i + 1} Arg2:T{2 * i + 2}")
    return "\n".join(lines) + "\n"


def coref_folders(root: Path, n: int) -> tuple[Path, Path]:
    """Gold and prediction folders holding one document: the chain of ``n`` links, the prediction's offsets
    shifted by one character (so only relaxed matching pairs them)."""
    out = []
    for side, shift in (("gold", 0), ("pred", 1)):
        folder = root / side
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "doc.ann").write_text(coref_chain(n, shift), encoding="utf-8")
        (folder / "doc.txt").write_text("abc " * (n + 2), encoding="utf-8")
        out.append(folder)
    return out[0], out[1]


def zip_bomb(path: Path, megabytes: int = 200, name: str = "doc.ann") -> Path:
    """A zip of ~0.2 MB per 200 MB of zeros in one member (written in chunks: never held in memory)."""
    chunk = b"\0" * (1 << 20)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        with zf.open(name, "w", force_zip64=True) as handle:
            for _ in range(megabytes):
                handle.write(chunk)
    return path


def small_zip(path: Path, members: dict[str, str]) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, text in members.items():
            zf.writestr(name, text)
    return path


def flipped_zip(path: Path, members: dict[str, str]) -> Path:
    """A zip whose first member's compressed data has one byte flipped."""
    small_zip(path, members)
    data = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as zf:
        info = zf.infolist()[0]
    offset = info.header_offset + 30 + len(info.filename.encode()) + len(info.extra) + info.compress_size // 2
    data[offset] ^= 0xFF
    path.write_bytes(bytes(data))
    return path


def encrypted_zip(path: Path, members: dict[str, str]) -> Path:
    """A zip whose members are flagged as encrypted (the flag is what readers check first)."""
    small_zip(path, members)
    data = bytearray(path.read_bytes())
    for signature, flag_at in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
        at = data.find(signature)
        while at >= 0:
            data[at + flag_at] |= 1
            at = data.find(signature, at + 4)
    path.write_bytes(bytes(data))
    return path


def duplicate_member_zip(path: Path, name: str, texts: tuple[str, str]) -> Path:
    import warnings

    with zipfile.ZipFile(path, "w") as zf, warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zipfile warns about the duplicate name: that is the point
        for text in texts:
            zf.writestr(name, text)
    return path


def sparse_file(path: Path, size: int) -> Path:
    """A file of ``size`` bytes that takes no disk space (a hole), larger than the memory limit of the tests."""
    with open(path, "wb") as handle:
        handle.truncate(size)
    return path


def deep_json(levels: int = 100_000) -> str:
    return "[" * levels + "]" * levels


def jats_article(paragraph: str) -> str:
    """A minimal JATS article with one cited paragraph (``[CIT]`` marks the citation) and one reference."""
    body = paragraph.replace("[CIT]", '<xref ref-type="bibr" rid="R1">[1]</xref>')
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<article xmlns:xlink="http://www.w3.org/1999/xlink" article-type="research-article">
<front><article-meta>
<article-id pub-id-type="pmcid">PMC0000999</article-id>
<title-group><article-title>A hostile article</article-title></title-group>
<permissions><license xlink:href="https://creativecommons.org/licenses/by/4.0/"><license-p>CC BY 4.0</license-p></license></permissions>
</article-meta></front>
<body><sec><title>Introduction</title><p>{body}</p></sec></body>
<back><ref-list><ref id="R1"><element-citation><article-title>A cited work on yields</article-title>
<pub-id pub-id-type="doi">10.5555/hostile.1</pub-id><year>2001</year></element-citation></ref></ref-list></back>
</article>
"""


def digits_sentence(digits: int = 50_000) -> str:
    return f"The measured yields rose to {'1' * digits} percent in the earlier study [CIT]."


def fifo(path: Path) -> Path | None:
    if not hasattr(os, "mkfifo"):
        return None
    os.mkfifo(path)
    return path


def many_rids_article(n: int = 40_000, range_text: bool = False) -> str:
    """A JATS article whose one xref names all ``n`` references of its reference list."""
    refs = "".join(f'<ref id="R{i}"><element-citation><article-title>Work {i}</article-title><year>2001</year>'
                   "</element-citation></ref>" for i in range(1, n + 1))
    rids = " ".join(f"R{i}" for i in range(1, n + 1))
    label = f"1\u2013{n}" if range_text else "[1]"
    return (f'<?xml version="1.0"?>\n<article><front><article-meta><title-group><article-title>Many'
            f"</article-title></title-group></article-meta></front><body><sec><title>Introduction</title>"
            f'<p>Yields rose in earlier work <xref ref-type="bibr" rid="{rids}">{label}</xref>.</p></sec></body>'
            f"<back><ref-list>{refs}</ref-list></back></article>\n")


def cited_paragraph(sentences: int) -> str:
    """A paragraph of ``sentences`` cited sentences (work for the question builder)."""
    return " ".join(f"Catalyst {i} raised the yield of the coupling to {i % 90 + 5} percent at room temperature "
                    "in the earlier study [CIT]." for i in range(sentences))


def forged_name() -> str:
    """A file name that would forge an error line and clear the screen if printed raw."""
    return "evil\nchemref: error: forged\x1b[2J.xml"


def sample_corpus(folder: Path, copies: int = 1) -> Path:
    """The sample articles, ``copies`` times over, each copy its own article (its own PMCID)."""
    source = Path(__file__).resolve().parents[2] / "corpora" / "jats"
    folder.mkdir(parents=True, exist_ok=True)
    for n in range(copies):
        for f in sorted(source.glob("*.xml")):
            text = f.read_text(encoding="utf-8").replace(">PMC00001", f">PMC{n:03d}001")
            (folder / f"c{n:03d}_{f.name}").write_text(text, encoding="utf-8")
    return folder


def interrupted_build(corpus: Path, output: Path, *, shards_done: int = 2, shard_articles: int = 1) -> Path:
    """A folder build of ``corpus`` stopped (as by ``kill -9``) after ``shards_done`` shards; its staging folder.
    Run in this process; finish it with ``chemref questions build CORPUS -o OUTPUT/ --shard-articles N --resume``."""
    from chemref.questions.output import writer
    from chemref.questions.output.checkpoint import Checkpoint

    original = Checkpoint.add
    calls: list[int] = []

    def stop_after(self, summary):  # type: ignore[no-untyped-def]
        if len(calls) == shards_done:
            raise KeyboardInterrupt
        calls.append(summary["index"])
        original(self, summary)

    Checkpoint.add = stop_after  # type: ignore[method-assign]
    try:
        writer.build_to_files([str(corpus)], str(output) + "/", shard_articles=shard_articles)
    except KeyboardInterrupt:
        pass
    finally:
        Checkpoint.add = original  # type: ignore[method-assign]
    return output / ".chemref-build"


def edit_json_lines(path: Path, line: int, edit) -> None:  # type: ignore[no-untyped-def]
    """Rewrite line ``line`` (1-based) of a JSON Lines file with ``edit(value)`` (which changes it in place)."""
    import json

    lines = path.read_text(encoding="utf-8").splitlines()
    value = json.loads(lines[line - 1])
    edit(value)
    lines[line - 1] = json.dumps(value)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def package(path: Path, members: dict[str, bytes], links: dict[str, str] | None = None) -> Path:
    """A ``.tar.gz`` package of ``members`` and hard links ``{name: target}``."""
    import io
    import tarfile

    with tarfile.open(path, "w:gz") as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
        for name, target in (links or {}).items():
            info = tarfile.TarInfo(name)
            info.type = tarfile.LNKTYPE
            info.linkname = target
            tar.addfile(info)
    return path


def labelled_build(folder: Path) -> tuple[Path, Path, Path]:
    """Questions and rejected candidates of the sample corpus (``--min-score 0``) with a label for each of the
    first 40 records, alternately good and not: ``(labels, questions, rejected)``."""
    import json

    from chemref.questions.output.writer import build_to_files

    corpus = sample_corpus(folder / "corpus", 2)
    questions, rejected = folder / "q.jsonl", folder / "r.jsonl"
    build_to_files([str(corpus)], str(questions), rejected=str(rejected), min_score=0.0)
    records = [json.loads(line) for path in (questions, rejected) for line in path.read_text().splitlines()]
    usable = [r for r in records if r.get("reason") in (None, "per_target_cap", "per_article_cap", "has_doi")]
    labels = folder / "labels.jsonl"
    labels.write_text("".join(json.dumps({"id": r["id"], "good_question": k % 2 == 0, "author_named": False,
                                          "function": "CLAIM", "sentence_ok": True, "note": ""}) + "\n"
                              for k, r in enumerate(usable[:40])), encoding="utf-8")
    return labels, questions, rejected


def odd_package(path: Path, article: bytes) -> Path:
    """A ``.tar.gz`` package holding one article and, named like articles, members that hold no file: a
    character device, a FIFO and a folder (whose members would come on their own)."""
    import io
    import tarfile

    with tarfile.open(path, "w:gz") as tar:
        info = tarfile.TarInfo("ok/article.xml")
        info.size = len(article)
        tar.addfile(info, io.BytesIO(article))
        for name, kind in (("ok/device.xml", tarfile.CHRTYPE), ("ok/pipe.nxml", tarfile.FIFOTYPE),
                           ("ok/folder.xml", tarfile.DIRTYPE)):
            info = tarfile.TarInfo(name)
            info.type = kind
            tar.addfile(info)
    return path


def judge_files(folder: Path) -> dict[str, Path]:
    """A build of the sample corpus (``--min-score 0``, with its report, so that ``judge apply`` writes a
    dataset card) and the judge's requests for it: ``{"questions", "rejected", "report", "requests"}``."""
    from chemref.jsonl import read_jsonl
    from chemref.questions.judge.prepare import judge_candidates, write_requests
    from chemref.questions.output.writer import build_to_files

    source = Path(__file__).resolve().parents[2] / "corpora" / "jats"
    folder.mkdir(parents=True, exist_ok=True)
    paths = {name: folder / f"{name}.{'json' if name == 'report' else 'jsonl'}"
             for name in ("questions", "rejected", "report", "requests")}
    build_to_files([str(source)], str(paths["questions"]), rejected=str(paths["rejected"]),
                   report=str(paths["report"]), min_score=0.0)
    records = [row for name in ("questions", "rejected") for _, row in read_jsonl(paths[name])]
    write_requests(paths["requests"], judge_candidates(records, min_score=0.0), model="m")
    return paths


def judge_responses(path: Path, edit) -> Path:  # type: ignore[no-untyped-def]
    """The sample judge answers (corpora/judge) with ``edit(rows)`` applied (it changes them in place),
    written to ``path`` as JSON Lines."""
    import json

    sample = Path(__file__).resolve().parents[2] / "corpora" / "judge" / "sample_responses.jsonl"
    rows = [json.loads(line) for line in sample.read_text(encoding="utf-8").splitlines() if line.strip()]
    edit(rows)
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def answer_of(row: dict) -> dict:
    """The chat message of one Batch output row (whose ``content`` holds the judge's JSON answer)."""
    return row["response"]["body"]["choices"][0]["message"]


def range_article(references: int, sentences: int, form: str = "pair") -> str:
    """A JATS article of ``references`` references and ``sentences`` sentences, each citing the whole list as
    a range: ``pair`` two xrefs joined by a dash (``1``–``N``), ``text`` one xref whose text is ``1–N``,
    ``labels`` two xrefs joined by a dash over references that are all labelled "1"."""
    label = (lambda i: "1") if form == "labels" else str
    refs = "".join(f'<ref id="R{i}"><label>{label(i)}</label><element-citation><article-title>Work {i}'
                   "</article-title><year>2001</year></element-citation></ref>" for i in range(1, references + 1))
    if form == "text":
        cite = f'<xref ref-type="bibr" rid="R1">1\u2013{references}</xref>'
    else:
        cite = (f'<xref ref-type="bibr" rid="R1">{label(1)}</xref>\u2013'
                f'<xref ref-type="bibr" rid="R{references}">{label(references)}</xref>')
    body = " ".join(f"Yields rose in run {i} [{cite}]." for i in range(sentences))
    return (f'<?xml version="1.0"?>\n<article><front><article-meta><title-group><article-title>Ranges'
            f"</article-title></title-group></article-meta></front><body><sec><title>Introduction</title>"
            f"<p>{body}</p></sec></body><back><ref-list>{refs}</ref-list></back></article>\n")


def articles_file(articles: int) -> str:
    """A PMC ``<articles>`` file of ``articles`` small cited articles."""
    one = ('<article><front><article-meta><title-group><article-title>Article {i}</article-title></title-group>'
           '</article-meta></front><body><sec><title>Introduction</title><p>Yields of A &amp; B rose in run {i} '
           '<xref ref-type="bibr" rid="R1">[1]</xref>.</p></sec></body><back><ref-list><ref id="R1">'
           "<element-citation><article-title>Work {i}</article-title><year>2001</year></element-citation></ref>"
           "</ref-list></back></article>")
    return '<?xml version="1.0"?>\n<articles>' + "".join(one.format(i=i) for i in range(articles)) + "</articles>\n"


def zeros_package(path: Path, megabytes: int, before: bytes, after: bytes) -> Path:
    """A ``.tar.gz`` package: an article (``before``), a member of ``megabytes`` MB of zeros named like an article
    (streamed, never held in memory) and another article (``after``)."""
    import io
    import tarfile

    class _Zeros(io.RawIOBase):
        def __init__(self, size: int) -> None:
            self.left = size

        def readable(self) -> bool:
            return True

        def readinto(self, buffer) -> int:  # type: ignore[no-untyped-def]
            n = min(len(buffer), self.left)
            buffer[:n] = bytes(n)
            self.left -= n
            return n

    size = megabytes << 20
    with tarfile.open(path, "w:gz", compresslevel=9) as tar:
        for name, data in (("PMC1/a.nxml", before), ("PMC2/zeros.nxml", None), ("PMC3/c.nxml", after)):
            info = tarfile.TarInfo(name)
            info.size = size if data is None else len(data)
            tar.addfile(info, io.BufferedReader(_Zeros(size), 1 << 20) if data is None else io.BytesIO(data))
    return path

"""PMC packages whose tar headers would make ``tarfile`` hold a large text before any member is checked: GNU long
names, pax headers, chains of them, GNU sparse maps; and member names too long to be read. Each stops the package
(or refuses the member) with one line naming the package and what is wrong."""

from __future__ import annotations

import gzip
import tarfile
from pathlib import Path

import pytest

from chemref.inputs import archives
from chemref.inputs.contained import MAX_NAME_CHARS
from chemref.inputs.tar_headers import MAX_CHAIN, MAX_HEADER_BYTES
from tests.hostile.cli_runner import CORPORA, assert_refused, chemref

SAMPLE = (CORPORA / "jats" / "sample_zinc_knuckle.xml").read_bytes()
_BLOCK = tarfile.BLOCKSIZE


def _padded(data: bytes) -> bytes:
    return data + b"\0" * (-len(data) % _BLOCK)


def _member(name: str, data: bytes = SAMPLE, form: int = tarfile.GNU_FORMAT, **pax: str) -> bytes:
    info = tarfile.TarInfo(name)
    info.size = len(data)
    info.pax_headers = pax
    return info.tobuf(form) + _padded(data)


def _extended(kind: bytes, size: int) -> bytes:
    """A GNU long name (``L``) or pax (``x``/``g``) header of ``size`` bytes of text."""
    info = tarfile.TarInfo("././@LongLink")
    info.size = size
    info.type = kind
    if kind in (b"L", b"K"):
        head = info.tobuf(tarfile.GNU_FORMAT)
    else:
        head = info._create_header(info.get_info(), tarfile.USTAR_FORMAT, "utf-8", "surrogateescape")  # type: ignore[attr-defined]
    text = b"a" * size if kind in (b"L", b"K") else (b"%d a=" % size).ljust(size - 1, b"b") + b"\n"
    return head + _padded(text)


def _package(path: Path, *parts: bytes) -> Path:
    path.write_bytes(gzip.compress(b"".join(parts) + b"\0" * (2 * _BLOCK)))
    return path


def _sources(path: Path) -> list:
    return list(archives.package_sources(path, path.name))


@pytest.mark.parametrize("kind", [b"L", b"x", b"g"])
def test_an_extended_header_past_the_limit_stops_the_package_before_it_is_read(tmp_path: Path, kind: bytes) -> None:
    package = _package(tmp_path / "p.tar.gz", _member("PMC1/a.nxml"), _extended(kind, 1 << 20),
                       _member("PMC2/b.nxml"))
    sources = _sources(package)
    assert [s.error is None for s in sources] == [True, False]
    error = sources[1].error
    assert error.startswith("p.tar.gz: a ") and "1,048,576 bytes" in error and f"{MAX_HEADER_BYTES:,}" in error
    assert "the last PMC1/a.nxml" in error and "rest of the package is not read" in error and len(error) < 400


def test_headers_within_the_limit_are_read_as_before(tmp_path: Path) -> None:
    name = "PMC1/" + "n" * 3000 + ".nxml"
    package = _package(tmp_path / "p.tar.gz", _member(name), _member("PMC2/b.nxml", form=tarfile.PAX_FORMAT,
                                                                      comment="c" * 30_000))
    assert [(s.label, s.error) for s in _sources(package)] == [(f"p.tar.gz:{name}", None),
                                                               ("p.tar.gz:PMC2/b.nxml", None)]


def test_a_long_chain_of_extended_headers_stops_the_package(tmp_path: Path) -> None:
    package = _package(tmp_path / "p.tar.gz", *[_extended(b"L", 600)] * (5 * MAX_CHAIN), _member("PMC1/a.nxml"))
    sources = _sources(package)
    assert len(sources) == 1 and f"more than {MAX_CHAIN} extended headers" in sources[0].error


def test_global_headers_adding_up_past_the_limit_stop_the_package(tmp_path: Path) -> None:
    parts = [_extended(b"g", 40_000), _member("PMC1/a.nxml"), _extended(b"g", 40_000)]
    sources = _sources(_package(tmp_path / "p.tar.gz", *parts, _member("PMC2/b.nxml")))
    assert [s.error is None for s in sources] == [True, False]
    assert "global headers" in sources[1].error


def test_a_member_name_past_the_limit_is_not_read_and_is_cut_short(tmp_path: Path) -> None:
    name = "PMC1/" + "n" * (MAX_NAME_CHARS + 10) + ".nxml"
    sources = _sources(_package(tmp_path / "p.tar.gz", _member(name), _member("PMC2/b.nxml")))
    assert sources[0].error is not None and not sources[0].stops and sources[0].data is None
    assert len(sources[0].label) < 300 and len(sources[0].error) < 600
    assert f"{len(name):,} characters" in sources[0].error
    assert (sources[1].label, sources[1].error) == ("p.tar.gz:PMC2/b.nxml", None)


def _sparse_member(name: str, extension_blocks: int) -> bytes:
    """An old GNU sparse member whose header says ``extension_blocks`` blocks of sparse map follow."""
    info = tarfile.TarInfo(name)
    info.type = tarfile.GNUTYPE_SPARSE
    head = bytearray(info.tobuf(tarfile.GNU_FORMAT))
    head[482] = 1  # isextended
    head[148:156] = b" " * 8
    head[148:155] = b"%06o\0" % sum(head[:_BLOCK])
    more = bytearray(_BLOCK)
    more[504] = 1
    return bytes(head) + bytes(more) * (extension_blocks - 1) + bytes(_BLOCK)


def test_a_gnu_sparse_map_past_the_limit_stops_the_package(tmp_path: Path) -> None:
    blocks = 2 * MAX_HEADER_BYTES // _BLOCK
    sources = _sources(_package(tmp_path / "p.tar.gz", _sparse_member("PMC1/s.nxml", blocks),
                                _member("PMC2/b.nxml")))
    assert len(sources) == 1 and "GNU sparse" in sources[0].error


def test_a_gnu_sparse_1_0_map_past_the_limit_stops_the_package(tmp_path: Path) -> None:
    data = b"1000000\n" + b"1\n" * MAX_HEADER_BYTES
    member = _member("PMC1/s.nxml", data, tarfile.PAX_FORMAT, **{"GNU.sparse.major": "1", "GNU.sparse.minor": "0"})
    sources = _sources(_package(tmp_path / "p.tar.gz", member, _member("PMC2/b.nxml")))
    assert len(sources) == 1 and "GNU sparse 1.0" in sources[0].error


def test_a_package_with_a_huge_long_name_is_one_error_line_in_bounded_time(tmp_path: Path) -> None:
    _package(tmp_path / "p.tar.gz", _extended(b"L", 64 << 20), _member("PMC1/a.nxml"))
    proc = chemref("jats", "p.tar.gz", cwd=tmp_path, timeout=60)
    assert_refused(proc, "p.tar.gz: a GNU long name header of 67,108,864 bytes")
    assert proc.seconds < 20 and len(proc.stderr) < 400  # type: ignore[attr-defined]

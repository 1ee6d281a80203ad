"""Tar member headers read with bounds: what ``tarfile`` holds in memory for one member's headers is checked
before it is read.

A GNU long name or long link (``L``/``K``) and a pax header (``x``/``g``) carry their text as data whose size
the header gives: ``tarfile`` reads it whole, and it compresses about 1000 to 1, so a small package could make
it hold gigabytes before any member is seen. :class:`BoundedTarInfo` (given as ``tarinfo=``) refuses such a
header larger than :data:`MAX_HEADER_BYTES`, more than :data:`MAX_CHAIN` of them before one member, global pax
headers adding up to more than that size, and GNU sparse maps longer than that, with
:class:`TarHeaderError` (the package cannot be read past it)."""

from __future__ import annotations

import tarfile

__all__ = ["MAX_HEADER_BYTES", "BoundedTarInfo", "TarHeaderError", "shown_name"]

#: largest extended header (GNU long name or link, pax) read, and most all those of one member span in all
MAX_HEADER_BYTES = 64 * 1024
#: most extended headers before one member (GNU tar writes up to 2, a pax archive 1 or 2)
MAX_CHAIN = 16
#: characters of a member name shown in a message
SHOWN_CHARS = 200

_KINDS = {tarfile.GNUTYPE_LONGNAME: "GNU long name", tarfile.GNUTYPE_LONGLINK: "GNU long link name",
          tarfile.XHDTYPE: "pax extended", tarfile.SOLARIS_XHDTYPE: "pax extended", tarfile.XGLTYPE: "pax global"}
_BLOCK = tarfile.BLOCKSIZE
#: the attribute of a TarFile holding (where the member being read starts, its extended headers so far)
_CHAIN = "_chemref_header_chain"


class TarHeaderError(tarfile.TarError):
    """A member header that would make ``tarfile`` hold more than the bounds: the package stops there."""


def shown_name(name: str) -> str:
    """``name`` for a message: its first :data:`SHOWN_CHARS` characters and how many there are, when longer."""
    if len(name) <= SHOWN_CHARS:
        return name
    return f"{name[:SHOWN_CHARS]}... ({len(name):,} characters)"


def _too_large(kind: str, size: int, offset: int, what: str = "") -> TarHeaderError:
    return TarHeaderError(f"a {kind} header of {size:,} bytes at byte {offset:,}{what}, past the limit of "
                          f"{MAX_HEADER_BYTES:,} bytes for tar headers")


class BoundedTarInfo(tarfile.TarInfo):
    """A ``tarfile.TarInfo`` whose extended headers and sparse maps are bounded before they are read."""

    def _proc_member(self, tarfile):  # type: ignore[no-untyped-def]
        kind = _KINDS.get(self.type)
        if kind is not None:
            _check_extended(self, kind, tarfile)
        return super()._proc_member(tarfile)

    def _proc_sparse(self, tarfile):  # type: ignore[no-untyped-def]
        """tarfile's old GNU sparse member, with at most :data:`MAX_HEADER_BYTES` of extension blocks."""
        structs, extended, realsize = self._sparse_structs  # type: ignore[attr-defined]
        del self._sparse_structs  # type: ignore[attr-defined]
        blocks = 0
        while extended:
            blocks += 1
            if blocks * _BLOCK > MAX_HEADER_BYTES:
                raise _too_large("GNU sparse", blocks * _BLOCK, self.offset, " (extension blocks)")
            buf = tarfile.fileobj.read(_BLOCK)
            structs.extend(_sparse_block(buf))
            extended = bool(buf[504]) if len(buf) > 504 else False
        self.sparse = structs
        self.offset_data = tarfile.fileobj.tell()
        tarfile.offset = self.offset_data + self._block(self.size)
        self.size = realsize
        return self

    def _proc_gnusparse_10(self, next, pax_headers, tarfile):  # type: ignore[no-untyped-def]
        """tarfile's GNU sparse 1.0 map, read from at most :data:`MAX_HEADER_BYTES` bytes."""
        buf = b""
        numbers: list[int] = []
        fields = None
        while fields is None or len(numbers) < 2 * fields:
            if b"\n" not in buf:
                if len(buf) + _BLOCK > MAX_HEADER_BYTES:
                    raise _too_large("GNU sparse 1.0", len(buf) + _BLOCK, self.offset, " (its map)")
                block = tarfile.fileobj.read(_BLOCK)
                if not block:
                    raise TarHeaderError(f"a GNU sparse 1.0 map cut short at byte {self.offset:,}")
                buf += block
                continue
            line, buf = buf.split(b"\n", 1)
            if not line.isdigit():
                raise TarHeaderError(f"a GNU sparse 1.0 map that is not numbers at byte {self.offset:,}")
            if fields is None:
                fields = int(line)
            else:
                numbers.append(int(line))
        next.offset_data = tarfile.fileobj.tell()
        next.sparse = list(zip(numbers[::2], numbers[1::2]))


def _sparse_block(buf: bytes) -> list[tuple[int, int]]:
    """The (offset, size) pairs of one GNU sparse extension block."""
    pairs = []
    for pos in range(0, 21 * 24, 24):
        try:
            offset, size = tarfile.nti(buf[pos:pos + 12]), tarfile.nti(buf[pos + 12:pos + 24])  # type: ignore[attr-defined]
        except ValueError:
            break
        if offset and size:
            pairs.append((offset, size))
    return pairs


def _check_extended(header: tarfile.TarInfo, kind: str, archive: tarfile.TarFile) -> None:
    """Refuse ``header`` (an extended header of ``archive``) when reading its data would pass the bounds.

    The extended headers of one member come one after another from ``archive.offset`` (where the member's first
    header is): each of them is counted there, under that offset, so that a long chain (which ``tarfile`` reads
    recursively) stops at :data:`MAX_CHAIN` headers."""
    if header.size > MAX_HEADER_BYTES:
        raise _too_large(kind, header.size, header.offset)
    start, count = getattr(archive, _CHAIN, (-1, 0))
    count = count + 1 if start == archive.offset else 1
    if count > MAX_CHAIN:
        raise TarHeaderError(f"more than {MAX_CHAIN} extended headers for one member at byte {archive.offset:,}")
    setattr(archive, _CHAIN, (archive.offset, count))
    if header.type == tarfile.XGLTYPE:
        held = sum(len(key) + len(value) for key, value in archive.pax_headers.items())
        if held + header.size > MAX_HEADER_BYTES:
            raise _too_large(kind, header.size, header.offset, f" (after {held:,} bytes of global headers)")

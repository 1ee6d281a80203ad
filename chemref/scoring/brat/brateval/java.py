"""What BRATEval's Java code computes, emulated: ``java.util.HashMap`` iteration order (``String.hashCode``,
bucket layout, resizes), ``String.split`` / ``trim`` / ``compareTo``, ``Integer.parseInt``,
``BufferedReader.readLine``, ``%1.4f`` and ``Double.toString``, and BRATEval's approximate string
similarity (a banded edit distance over UTF-16 code units, as Java's ``charAt`` sees a string).
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Iterable, Sequence

from chemref.scoring.report.formats import format4

_JAVA_WS = "".join(chr(i) for i in range(33))
#: BRATEval's default threshold of :func:`brateval_similarity` for approximate span matching.
DEFAULT_SIMILARITY = 0.8


def java_format4(x: float) -> str:
    """``String.format("%1.4f", x)``: HALF_UP on the shortest decimal representation of ``x``."""
    return format4(x)


def java_split(s: str, sep: str) -> list[str]:
    """``String.split`` with a one-character separator: trailing empty strings are dropped."""
    parts = s.split(sep)
    if len(parts) == 1:
        return parts
    while parts and parts[-1] == "":
        parts.pop()
    return parts


def java_trim(s: str) -> str:
    """``String.trim``: strips characters <= U+0020 only."""
    return s.strip(_JAVA_WS)


def java_read_lines(text: str) -> list[str]:
    """``BufferedReader.readLine`` splitting: ``\\n``, ``\\r`` and ``\\r\\n`` end a line."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def java_parse_int(s: str) -> int:
    """``Integer.parseInt``: optional sign, decimal digits, 32-bit range; ValueError otherwise."""
    body = s[1:] if s[:1] in ("+", "-") else s
    if not body or not body.isdecimal() or len(body.lstrip("0")) > 10:  # past 32 bits before int() reads it
        raise ValueError(s)
    value = int(s)
    if not -(2 ** 31) <= value < 2 ** 31:
        raise ValueError(s)
    return value


@lru_cache(maxsize=65536)
def java_string_hash(s: str) -> int:
    """``String.hashCode`` over UTF-16 code units, as an unsigned 32-bit value."""
    h = 0
    if s.isascii():
        for c in s.encode("ascii"):
            h = (31 * h + c) & 0xFFFFFFFF
    else:
        data = s.encode("utf-16-le", "surrogatepass")
        for i in range(0, len(data), 2):
            h = (31 * h + (data[i] | data[i + 1] << 8)) & 0xFFFFFFFF
    return h


def java_hashmap_layout(keys: Iterable[str]) -> tuple[list[str], bool]:
    """Iteration order of a ``java.util.HashMap<String, V>`` after ``put`` of ``keys`` in this order, and
    whether Java would have turned a bucket into a tree (then the order shown is only approximate).

    Emulates the bucket index ``(h ^ h>>>16) & (cap-1)``, insertion order within a bucket, growth at
    size > 0.75·cap, and the resize a bucket of 9+ entries causes in a table smaller than 64. In a
    larger table such a bucket becomes a red-black tree whose iteration order is not emulated.
    """
    spread: dict[str, int] = {}
    cap = 16
    counts: dict[int, int] = {}
    treeified = False
    for key in keys:
        if key in spread:
            continue  # put on an existing key replaces the value in place
        h = java_string_hash(key)
        h ^= h >> 16
        spread[key] = h
        b = h & (cap - 1)
        before = counts.get(b, 0)
        counts[b] = before + 1
        long_bin = before >= 8
        if long_bin and cap >= 64:
            treeified = True
        if len(spread) > cap * 3 // 4 or (long_bin and cap < 64):
            while True:
                cap *= 2
                if not (len(spread) > cap * 3 // 4):
                    break
            counts = {}
            for hv in spread.values():
                counts[hv & (cap - 1)] = counts.get(hv & (cap - 1), 0) + 1
    index = {k: i for i, k in enumerate(spread)}
    return sorted(spread, key=lambda k: (spread[k] & (cap - 1), index[k])), treeified


def java_hashmap_order(keys: Iterable[str]) -> list[str]:
    """The iteration order part of :func:`java_hashmap_layout`."""
    return java_hashmap_layout(keys)[0]


def java_sort_key(s: str) -> bytes:
    """Sort key equal to ``String.compareTo`` (UTF-16 code unit order)."""
    return s.encode("utf-16-be", "surrogatepass")


def java_double(x: float) -> str:
    """``Double.toString`` for the similarity threshold in the settings line."""
    if x == int(x) and abs(x) < 1e7:
        return f"{x:.1f}"
    if 1e-3 <= abs(x) < 1e7:
        return repr(x)
    mant, exp = f"{x:.16e}".split("e")
    mant = repr(float(mant))
    return f"{mant}E{int(exp)}"


# ---------------------------------------------------------------- similarity
def _is_bmp(text: str) -> bool:
    return text.isascii() or all(ord(c) < 0x10000 for c in text)


def utf16_units(text: str) -> list[int]:
    """``text`` as a list of UTF-16 code units (a character outside the BMP gives two)."""
    data = text.encode("utf-16-le", "surrogatepass")
    return [data[i] | (data[i + 1] << 8) for i in range(0, len(data), 2)]


def banded_edit_distance(x: Sequence, y: Sequence, allowed: int) -> int:
    """BRATEval's banded Levenshtein distance, reproduced as is (stale cells outside the band included)."""
    lx, ly = len(x), len(y)
    lb = min(ly - lx, 0)
    ub = max(ly - lx, 0)
    margin = allowed - (ub - lb)
    if margin < 0:
        return allowed + 1
    d = list(range(ly + 1))
    for i in range(1, lx + 1):
        lo = max(1, lb + i - margin)
        hi = min(ly, ub + i + margin)
        j = lo
        subst = d[j - 1]
        d[j - 1] += 1
        xi = x[i - 1]
        while j <= hi:
            new = min(subst + (xi != y[j - 1]), d[j] + 1, d[j - 1] + 1)
            subst = d[j]
            d[j] = new
            j += 1
    return d[ly]


def brateval_similarity(a: str, b: str, threshold: float) -> float:
    """BRATEval's string similarity of two T text fields: ``1 - d/L`` when ``d`` is within the band, else 0."""
    if _is_bmp(a) and _is_bmp(b):
        x: Sequence = a
        y: Sequence = b
    else:  # compare UTF-16 code units on both sides, as Java's charAt does
        x, y = utf16_units(a), utf16_units(b)
    length = max(len(x), len(y))
    allowed = math.floor((1.0 - threshold) * float(length))
    dist = banded_edit_distance(x, y, allowed)
    if dist <= allowed:
        return 1.0 - dist / length if length else math.nan
    return 0.0

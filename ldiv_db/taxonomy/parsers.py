"""Hierarchies from files and numbers: the ARX CSV parser and the interval builder (SPEC §0.4)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

from ..errors import HierarchyError
from ..util.files import read_text
from .model import ROOT_LABEL, Hierarchy, Number


def parse_arx(text_or_path: str | Path, sep: str = ";") -> Hierarchy:
    """Parse an ARX hierarchy CSV (SPEC §0.4): no header, one row per leaf, columns leaf → root.

    A :class:`~pathlib.Path`, or a one-line ``str`` naming an existing file, is read as UTF-8 (a BOM is
    ignored); any other ``str`` is the CSV text. ``\\r\\n`` line ends and trailing empty lines are
    accepted; labels are used exactly as written (no whitespace stripping).
    """
    if isinstance(text_or_path, Path):
        text = _read(text_or_path)
    elif text_or_path and "\n" not in text_or_path and sep not in text_or_path:
        path = Path(text_or_path)
        if not path.is_file():
            raise HierarchyError(f"hierarchy file {text_or_path} does not exist", "check the path")
        text = _read(path)
    else:
        text = text_or_path
    if not sep or "\n" in sep or "\r" in sep:
        raise HierarchyError(f"unusable separator {sep!r}", "give one character, e.g. --sep ';'")
    lines = text.replace("\r\n", "\n").split("\n")
    if lines and lines[-1].endswith("\r"):
        lines[-1] = lines[-1][:-1]
    while lines and lines[-1] == "":
        lines.pop()
    return Hierarchy._from_lines(lines, sep)


def _read(path: Path) -> str:
    return read_text(
        path, "hierarchy file", "an ARX hierarchy: ';'-separated lines leaf -> root", error=HierarchyError
    )


# ---------------------------------------------------------------------------------------------- intervals


def build_intervals(
    values: Iterable[Number] | Mapping[str, Number], widths: Sequence[Number], *, integer: bool = True
) -> Hierarchy:
    """Interval hierarchy for a numeric column (SPEC §0.4: ranges as internal nodes).

    Leaves are the distinct values, rendered as DuckDB renders ``CAST(v AS VARCHAR)`` ('39', '39.5'); a
    mapping label → value supplies the labels instead (what :func:`build_hierarchy` reads in SQL).
    Level k groups values into aligned intervals of width ``widths[k-1]`` (lo = floor(v/w)·w), labelled
    ``"lo-hi"`` (inclusive hi = lo+w-1) for integer data and ``"[lo, hi)"`` otherwise; the last level is
    the root ``*``. Each width must be a multiple of the previous one so the intervals nest. Levels that
    group the values identically are kept (the hierarchy then has a chain of single-child nodes).
    """
    ws = [_exact(w, "width") for w in widths]
    for i, w in enumerate(ws):
        if w <= 0:
            raise HierarchyError(f"interval width {widths[i]} is not positive", "use widths like 5, 10, 20")
        if integer and w.denominator != 1:
            raise HierarchyError(
                f"interval width {widths[i]} is not a whole number, but the data are integers",
                "use whole widths, or integer=False for non-integer data",
            )
        if i and w % ws[i - 1] != 0:
            raise HierarchyError(
                f"interval width {widths[i]} is not a multiple of the previous width {widths[i - 1]}, "
                "so the intervals would not nest",
                "make every width a multiple of the one before, e.g. 5, 10, 20, 40",
            )
    pairs = values.items() if isinstance(values, Mapping) else ((_duck_text(v), v) for v in values)
    leaves: dict[str, Fraction | int] = {}
    for label, v in pairs:
        if integer and type(v) is int:  # the common case, without a Fraction (sorting those is slow)
            leaves[label] = v
            continue
        x = _exact(v, "value")
        if integer and x.denominator != 1:
            raise HierarchyError(
                f"value {label} is not an integer", "build with integer=False for non-integer data"
            )
        leaves[label] = int(x) if integer else x
    if not leaves:
        raise HierarchyError("there are no values to build intervals from", "the column holds only NULLs")
    ordered = sorted(leaves.items(), key=lambda kv: (kv[1], kv[0]))
    if integer:  # whole values and widths: int arithmetic, a tenth of Fraction's cost per value
        whole = [int(w) for w in ws]
        rows = []
        for label, v in ordered:
            rows.append([label, *(f"{v // w * w}-{v // w * w + w - 1}" for w in whole), ROOT_LABEL])
        return Hierarchy(rows)
    rows = []
    for label, value in ordered:
        row = [label]
        for w in ws:
            lo = math.floor(value / w) * w
            row.append(f"[{_num(lo)}, {_num(lo + w)})")
        row.append(ROOT_LABEL)
        rows.append(row)
    return Hierarchy(rows)


def _exact(v: object, what: str) -> Fraction:
    if isinstance(v, bool) or not isinstance(v, int | float | Decimal | Fraction):
        raise HierarchyError(f"{what} {v!r} is not a number", "interval hierarchies need numeric values")
    if isinstance(v, float | Decimal) and not math.isfinite(v):
        raise HierarchyError(f"{what} {v} is not finite", "remove NaN and infinite values first")
    if isinstance(v, float):
        return Fraction(repr(v))  # the decimal the user sees, not the binary expansion (SPEC §0.3)
    return Fraction(v)


def _num(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else repr(float(x))


def _duck_text(v: Number) -> str:
    """How DuckDB prints CAST(v AS VARCHAR): 39 → '39', 39.0 (DOUBLE) → '39.0', Decimal('1.50') → '1.50'."""
    if isinstance(v, float):
        return repr(v)
    return str(v)

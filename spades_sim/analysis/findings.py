"""Findings: rows of a report's tables written as plain sentences, each number with its interval.

A report's section opens with two to four sentences (:class:`Finding`) made here from the rows of
the tables it exports, never from numbers written into the code: a value is written as the
table has it (a rate in percent, one decimal; any other value with two), its 95% interval in
brackets, and a difference between runs on the same deals as "no measurable difference" when
its paired interval holds 0. Each finding names the CSV file and the rows its numbers come
from, so a test can read them back.

>>> quantity(0.8642, 0.8541, 0.8735, "rate"), quantity(12.035, 11.928, 12.143, "hands")
('86.4% [85.4, 87.4]', '12.04 [11.93, 12.14]')
>>> change(-2.394, -2.502, -2.287, "hands"), change(0.007, -0.001, 0.016, "rate")
('−2.39 [−2.50, −2.29]', '+0.7 percentage points [−0.1, +1.6]')
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import pandas as pd

from .formatting import PERCENT_UNITS

MINUS = "\N{MINUS SIGN}"
"""The minus sign of the sentences (a hyphen would read as a dash)."""


@dataclass(frozen=True)
class Finding:
    """One sentence of a report section and where its numbers come from: ``source``, the CSV
    file beside the page, and ``rows``, each a mapping of column to value picking one row of it.
    Every number of ``text`` outside the names it quotes is a value of those rows, rounded as
    written (a share possibly in percent)."""

    text: str
    source: str
    rows: tuple[Mapping[str, object], ...] = field(default_factory=tuple)


def number(value: float, digits: int, sign: bool = False) -> str:
    """``value`` with ``digits`` decimals (and its sign with ``sign``), a minus sign for minus.

    >>> number(-0.25, 1, sign=True), number(-0.01, 1)
    ('−0.2', '0.0')
    """
    text = f"{value:+.{digits}f}" if sign else f"{value:.{digits}f}"
    if text.lstrip("+-").strip("0.") == "":  # -0.0 and +0.0 are written 0.0
        text = f"{0.0:.{digits}f}"
    return text.replace("-", MINUS)


def _digits(unit: str) -> tuple[float, int]:
    """The scale and the decimals a value of ``unit`` is written with."""
    return (100.0, 1) if unit in PERCENT_UNITS else (1.0, 2)


def quantity(value: float, low: float, high: float, unit: str) -> str:
    """A value and its interval: ``86.4% [85.4, 87.3]`` for a rate, ``12.04 [11.93, 12.14]``
    for anything else; ``n/a`` with no value."""
    if math.isnan(value):
        return "n/a"
    scale, digits = _digits(unit)
    text = number(scale * value, digits) + ("%" if scale != 1 else "")
    if math.isnan(low) or math.isnan(high):
        return text
    return f"{text} [{number(scale * low, digits)}, {number(scale * high, digits)}]"


def change(difference: float, low: float, high: float, unit: str) -> str:
    """A signed difference and its paired interval (a rate's in percentage points)."""
    scale, digits = _digits(unit)
    words = " percentage points" if scale != 1 else ""
    return (f"{number(scale * difference, digits, sign=True)}{words} "
            f"[{number(scale * low, digits, sign=True)}, "
            f"{number(scale * high, digits, sign=True)}]")


def holds_zero(low: float, high: float) -> bool:
    """Whether an interval of a difference holds 0: no measurable difference."""
    return low <= 0 <= high


def _join(parts: Sequence[str]) -> str:
    """Names or clauses as a list in words: ``a``, ``a and b``, ``a, b and c``."""
    parts = list(parts)
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def across_runs(table: pd.DataFrame, key: str, side: int | None, subject: str, source: str,
                unplayed: Mapping[str, set[str]] | None = None, group: str = "run"
                ) -> Finding | None:
    """One metric of a side-by-side table (:func:`spades_sim.analysis.metrics.compare_game_frames`)
    across its runs: the first run's value, each other run's value and its difference from the
    first, and "no measurable difference" for the runs whose paired interval holds 0.

    ``subject`` opens the sentence (the metric's label is added); ``unplayed`` maps a run to the
    metric keys its rules cannot play, named as not played. None when the table has no such
    row or the first run has no value.

    >>> table = pd.DataFrame({"run": ["a", "b", "c"], "key": "points", "side": None,
    ...     "metric": "points per side-hand", "unit": "points", "value": [15.1, 47.5, 15.2],
    ...     "low": [14.5, 47.4, 14.6], "high": [15.8, 47.7, 15.9],
    ...     "difference": [0.0, 32.4, 0.1], "diff_low": [0.0, 31.8, -0.2],
    ...     "diff_high": [0.0, 33.1, 0.4]})
    >>> finding = across_runs(table, "points", None, "For equal players,", "t.csv")
    >>> for clause in finding.text.split("; "):
    ...     print(clause)
    For equal players, points per side-hand is 15.10 [14.50, 15.80] under a
    b 47.50 [47.40, 47.70] (+32.40 [+31.80, +33.10])
    no measurable difference under c (+0.10 [−0.20, +0.40]).
    """
    rows = table[(table["key"] == key)
                 & (table["side"].isna() if side is None else table["side"] == side)]
    if rows.empty:
        return None
    unplayed = unplayed or {}
    first = rows.iloc[0]
    reference = str(first[group])
    if key in unplayed.get(reference, set()) or math.isnan(first["value"]):
        return None
    unit = str(first["unit"])
    used = [first]
    measured, level, absent = [], [], []
    for _, row in rows.iloc[1:].iterrows():
        label = str(row[group])
        if key in unplayed.get(label, set()) or math.isnan(row["value"]):
            absent.append(label)
            continue
        used.append(row)
        moved = change(row["difference"], row["diff_low"], row["diff_high"], unit)
        if holds_zero(row["diff_low"], row["diff_high"]):
            level.append(f"{label} ({moved})")
        else:
            measured.append(f"{label} {quantity(row['value'], row['low'], row['high'], unit)} "
                            f"({moved})")
    clauses = [f"{subject} {first['metric']} is "
               f"{quantity(first['value'], first['low'], first['high'], unit)} under {reference}"]
    clauses += measured
    if level:
        clauses.append(f"no measurable difference under {_join(level)}")
    if absent:
        clauses.append(f"not played under {_join(absent)}")
    return Finding("; ".join(clauses) + ".", source, tuple(_pick(row, group) for row in used))


def _pick(row: pd.Series, group: str) -> dict[str, object]:
    """The columns that pick ``row`` out of its table."""
    side = row["side"]
    return {group: row[group], "key": row["key"], "side": None if pd.isna(side) else int(side)}


def ranked(table: pd.DataFrame, by: str, name: str, subject: str, unit: str, source: str,
           low: str = "low", high: str = "high", most: str = "most", least: str = "least",
           pick: Mapping[str, object] | None = None) -> Finding | None:
    """The rows of ``table`` with the highest and lowest ``by``, named by column ``name``:
    "{subject} {most} for A, 9.4% [9.3, 9.5], and {least} for B, 1.2% [1.1, 1.3]." ``pick``
    selects the rows first (column to value). None with fewer than two rows that have a value."""
    rows = table
    for column, value in (pick or {}).items():
        rows = rows[rows[column] == value]
    rows = rows[rows[by].notna()].sort_values(by, ascending=False, kind="stable")
    if len(rows) < 2:
        return None
    top, bottom = rows.iloc[0], rows.iloc[-1]
    text = (f"{subject} {most} for {top[name]}, {quantity(top[by], top[low], top[high], unit)}, "
            f"and {least} for {bottom[name]}, "
            f"{quantity(bottom[by], bottom[low], bottom[high], unit)}.")
    keys = [name, *(pick or {})]
    return Finding(text, source, tuple({column: row[column] for column in keys}
                                       for row in (top, bottom)))


__all__ = ["MINUS", "Finding", "across_runs", "change", "holds_zero", "number", "quantity", "ranked"]

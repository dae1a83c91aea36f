"""One way to write a value and its interval: as text for a terminal, and the text tables of the
commands. Whether a value is a percentage comes from its unit (``rate``, see
:mod:`spades_sim.catalogue`), never from its label.

>>> value_text(0.12345, "rate"), value_text(2.5, "points"), interval_text(0.1, 0.2, "rate")
('12.35%', '2.500', '[10.00%, 20.00%]')
"""

from __future__ import annotations

import math

import pandas as pd

PERCENT_UNITS = ("rate", "share")
"""Units whose values are shares, written as percentages."""


def _scale(unit: str, digits: int | None) -> tuple[float, str, int]:
    if unit in PERCENT_UNITS:
        return 100.0, "%", 2 if digits is None else digits
    return 1.0, "", 3 if digits is None else digits


def value_text(value: float, unit: str, digits: int | None = None, sign: str = "",
               percent_sign: bool = True) -> str:
    """``value`` in its unit: shares as percentages (2 decimals), others with 3 decimals;
    ``sign="+"`` writes the sign of a difference; ``-`` for no value (NaN)."""
    if value is None or math.isnan(value):
        return "-"
    scale, suffix, places = _scale(unit, digits)
    return f"{scale * value:{sign}.{places}f}{suffix if percent_sign else ''}"


def interval_text(low: float, high: float, unit: str, digits: int | None = None,
                  percent_sign: bool = True) -> str:
    """``[low, high]`` in the unit of the value; empty when there is no interval."""
    if low is None or math.isnan(low):
        return ""
    return (f"[{value_text(low, unit, digits, percent_sign=percent_sign)}, "
            f"{value_text(high, unit, digits, percent_sign=percent_sign)}]")


def summary_text(table: pd.DataFrame) -> str:
    """A metrics table (:data:`spades_sim.catalogue.TABLE_COLUMNS`) as aligned text: metric,
    value, 95% interval and n."""
    width = max(len(m) for m in table["metric"])
    lines = [f"{'metric':<{width}}  {'value':>9}  {'95% interval':>21}  {'n':>10}"]
    for row in table.itertuples(index=False):
        lines.append(f"{row.metric:<{width}}  {value_text(row.value, row.unit):>9}  "
                     f"{interval_text(row.low, row.high, row.unit):>21}  {row.n:>10,}")
    return "\n".join(lines)


def comparison_text(table: pd.DataFrame) -> str:
    """A duplicate comparison (``Comparison.summary()``): A, B, A − B and its paired interval."""
    width = max(len(m) for m in table["metric"])
    lines = [f"{'metric':<{width}}  {'A':>9}  {'B':>9}  {'A - B':>9}  {'paired 95% interval':>21}"]
    for row in table.itertuples(index=False):
        cells = [value_text(v, row.unit) for v in (row.a, row.b, row.difference)]
        lines.append(f"{row.metric:<{width}}  {cells[0]:>9}  {cells[1]:>9}  {cells[2]:>9}  "
                     f"{interval_text(row.low, row.high, row.unit):>21}")
    return "\n".join(lines)


def side_by_side_text(table: pd.DataFrame, group: str = "run") -> str:
    """Metric by metric, one line per run (rule set or strategy): value and 95% interval, and
    with a ``difference`` column the difference from the first run and its paired interval."""
    width = max(len(str(name)) for name in table[group]) + 2
    paired = "difference" in table.columns
    lines = [f"{'':<{width}}  {'value':>9}  {'95% interval':>22}"
             + (f"  {'minus first':>11}  {'paired 95% interval':>22}" if paired else "")]
    first = table[group].iloc[0]
    for metric, part in table.groupby("metric", sort=False):
        lines.append(metric)
        for row in part.itertuples(index=False):
            line = (f"  {str(getattr(row, group)):<{width - 2}}  "
                    f"{value_text(row.value, row.unit):>9}  "
                    f"{interval_text(row.low, row.high, row.unit):>22}")
            if paired and getattr(row, group) != first:
                line += (f"  {value_text(row.difference, row.unit, sign='+'):>11}  "
                         f"{interval_text(row.diff_low, row.diff_high, row.unit):>22}")
            lines.append(line.rstrip())
    return "\n".join(lines)


__all__ = ["PERCENT_UNITS", "comparison_text", "interval_text", "side_by_side_text",
           "summary_text", "value_text"]

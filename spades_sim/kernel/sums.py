"""The sums a block adds to a run's streaming totals (``spades_sim.run.catalogue.Totals``).

Every metric of a run is Σ numerator / Σ denominator over its units, with an interval from
Σy, Σy², Σx, Σx² and Σxy; one pass over a block's unit table here takes all of them, for every
metric and for the sides pooled and each side, where the numpy equivalent stacks and
multiplies a copy of the table per side. The values are whole numbers or halves, so every
partial sum is exact in float64 and the order of the additions cannot change a bit.
"""

import numpy as np
from numba import njit

SUMS = 5
"""Sums per metric and selection, in the order of ``Sums``' fields: Σy, Σy², Σx, Σx², Σxy."""


@njit(cache=True)
def _metric_sums(columns, per_side, numerators, denominators, out):
    """Add to ``out[selection, metric]`` (float64, (1 + sides, metrics, SUMS)) the sums of
    every metric over the units of ``columns`` ((names, units, sides); a name with
    ``per_side`` 0 holds one count per unit, in side 0, the same for every selection).
    Metric ``m`` is column ``numerators[m]`` over column ``denominators[m]``; selection 0 sums
    each column over the sides, selection ``1 + s`` takes side ``s``."""
    names, units, sides = columns.shape
    values = np.zeros((names, sides + 1), np.float64)  # one unit's columns: pooled, per side
    for unit in range(units):
        for name in range(names):
            if per_side[name]:
                pooled = 0.0
                for side in range(sides):
                    value = np.float64(columns[name, unit, side])
                    values[name, 1 + side] = value
                    pooled += value
                values[name, 0] = pooled
            else:
                value = np.float64(columns[name, unit, 0])
                for selection in range(sides + 1):
                    values[name, selection] = value
        for metric in range(numerators.shape[0]):
            for selection in range(sides + 1):
                y = values[numerators[metric], selection]
                x = values[denominators[metric], selection]
                out[selection, metric, 0] += y
                out[selection, metric, 1] += y * y
                out[selection, metric, 2] += x
                out[selection, metric, 3] += x * x
                out[selection, metric, 4] += x * y

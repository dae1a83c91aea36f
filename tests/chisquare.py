"""Chi-square helpers for the statistical tests (scipy is not installed).

``chi2_upper`` is the Wilson–Hilferty cube-root normal approximation of an upper
point; tests/test_deals.py checks it against the exact tail ``chi2_sf``.
"""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np

P_FALSE_ALARM = 1e-4
"""The false-alarm rate every chi-square threshold is set for."""


def chi2_upper(df: int, p: float = P_FALSE_ALARM) -> float:
    """Upper ``p`` point of chi-square with ``df`` degrees of freedom (Wilson–Hilferty)."""
    z = NormalDist().inv_cdf(1 - p)
    h = 2 / (9 * df)
    return df * (1 - h + z * math.sqrt(h)) ** 3


def chi2_sf(x: float, df: int) -> float:
    """Exact upper tail of chi-square: 1 - P(df/2, x/2), the regularized gamma by its series."""
    a, half = df / 2, x / 2
    term = total = 1.0 / a
    n = 0
    while term > 1e-17 * total:
        n += 1
        term *= half / (a + n)
        total += term
    return 1.0 - math.exp(a * math.log(half) - half - math.lgamma(a)) * total


def chi_square(observed: np.ndarray, expected: np.ndarray) -> float:
    return float(((observed - expected) ** 2 / expected).sum())

"""95% confidence intervals: of a proportion (Wilson), a mean, a ratio over independent clusters
(a rate kept within [0, 1], a non-negative ratio above 0), and of paired differences. Which one
a metric takes is the catalogue's business
(:mod:`spades_sim.run.catalogue`)."""

from __future__ import annotations

import math

import numpy as np

Z95 = 1.959963984540054
"""The two-sided 95% normal quantile."""


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (NaNs when there are no trials).

    >>> [round(x, 4) for x in wilson_interval(8, 10)]
    [0.4902, 0.9433]
    >>> wilson_interval(0, 300_000)[0]
    0.0
    """
    if trials == 0:
        return math.nan, math.nan
    low, high = wilson_bounds(successes / trials, trials, z)
    # At 0 or all successes the bound is exactly 0 or 1 (rounding would leave it a hair off).
    return (0.0 if successes == 0 else low), (1.0 if successes == trials else high)


def wilson_bounds(share: float, trials: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score bounds of an observed ``share`` of ``trials`` trials, which need not be
    a whole number (an effective number of trials, see :func:`rate_interval`): every p with
    (share − p)² ≤ z² p(1 − p) / trials. Always within [0, 1].

    >>> [round(x, 4) for x in wilson_bounds(0.8, 10)]
    [0.4902, 0.9433]
    """
    denominator = 1 + z * z / trials
    centre = (share + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(share * (1 - share) / trials + z * z / (4 * trials * trials)) / denominator
    return max(centre - half, 0.0), min(centre + half, 1.0)


def mean_interval(total: float, total_sq: float, n: int, z: float = Z95) -> tuple[float, float, float]:
    """Mean and normal 95% interval from a sum, a sum of squares and a count.

    >>> mean_interval(6.0, 14.0, 3)[0]
    2.0
    """
    if n == 0:
        return math.nan, math.nan, math.nan
    mean = total / n
    variance = max(total_sq / n - mean * mean, 0.0) * n / max(n - 1, 1)
    half = z * math.sqrt(variance / n)
    return mean, mean - half, mean + half


def ratio_interval(sum_y: float, sum_x: float, sum_yy: float, sum_xx: float, sum_xy: float,
                   n: int, z: float = Z95) -> tuple[float, float, float]:
    """Ratio Σy/Σx over n independent clusters (games), with its delta-method 95% interval.

    Used wherever what is counted clusters in units: the hands of one game, the sides of one hand.

    >>> [round(v, 3) for v in ratio_interval(6.0, 6.0, 14.0, 14.0, 14.0, 3)]
    [1.0, 1.0, 1.0]
    """
    if n < 2 or sum_x == 0:
        return math.nan, math.nan, math.nan
    ratio = sum_y / sum_x
    residual_sq = max(sum_yy - 2 * ratio * sum_xy + ratio * ratio * sum_xx, 0.0) / (n - 1)
    half = z * math.sqrt(residual_sq / n) / (sum_x / n)
    return ratio, ratio - half, ratio + half


def rate_interval(sum_y: float, sum_x: float, sum_yy: float, sum_xx: float, sum_xy: float,
                  n: int, z: float = Z95) -> tuple[float, float, float]:
    """A rate Σy/Σx (each unit's y a share of its x trials) over n independent clusters, with a
    95% interval inside [0, 1] however few events there are: the Wilson interval on the
    effective number of trials.

    The delta method's variance v of the ratio (:func:`ratio_interval`) against the binomial
    variance p(1 − p)/Σx of as many independent trials is the design effect of the clustering;
    Σx divided by it is the number of independent trials the clusters are worth,
    p(1 − p)/v, and the interval is Wilson's on that many trials: every p with
    (rate − p)² ≤ z² p(1 − p)/trials. At none or all of the trials a success the delta method
    has no variance to go on and the trials count as independent.

    >>> [round(v, 4) for v in rate_interval(1.0, 4.0, 1.0, 4.0, 1.0, 4)]
    [0.25, 0.0368, 0.7439]
    """
    if sum_x == 0:
        return math.nan, math.nan, math.nan
    rate = sum_y / sum_x
    if n < 2:
        return rate, math.nan, math.nan
    trials = sum_x
    if 0 < rate < 1:
        _, low, high = ratio_interval(sum_y, sum_x, sum_yy, sum_xx, sum_xy, n, z)
        variance = ((high - low) / (2 * z)) ** 2
        if variance > 0:
            trials = rate * (1 - rate) / variance
    low, high = wilson_bounds(rate, trials, z)
    return rate, (0.0 if rate == 0 else low), (1.0 if rate == 1 else high)


def positive_ratio_interval(sum_y: float, sum_x: float, sum_yy: float, sum_xx: float,
                            sum_xy: float, n: int, z: float = Z95) -> tuple[float, float, float]:
    """A ratio of non-negative sums over n independent clusters (bags per side-hand, penalty
    points per game), with its delta-method 95% interval taken on the log scale so that it
    stays above 0: ratio ÷ e^(z·se/ratio) to ratio × e^(z·se/ratio), se the delta method's
    standard error. A ratio of 0 has the interval [0, 0] (no unit had any).

    >>> [round(v, 3) for v in positive_ratio_interval(3.0, 4.0, 9.0, 4.0, 3.0, 4)]
    [0.75, 0.106, 5.324]
    """
    ratio, low, high = ratio_interval(sum_y, sum_x, sum_yy, sum_xx, sum_xy, n, z)
    if math.isnan(low) or ratio <= 0:
        return ratio, low, high
    factor = math.exp((high - low) / 2 / ratio)
    return ratio, ratio / factor, ratio * factor


def paired_interval(differences: np.ndarray, z: float = Z95) -> tuple[float, float, float]:
    """Mean of per-pair values (differences of two runs on the same deals) and its normal 95%
    interval: the mean ± z standard errors of the pairs (NaN bounds with fewer than 2 pairs).

    >>> [round(v, 3) for v in paired_interval(np.array([1.0, 0.0, 1.0, 0.0]))]
    [0.5, -0.066, 1.066]
    """
    n = differences.size
    mean = float(differences.mean()) if n else math.nan
    if n < 2:
        return mean, math.nan, math.nan
    half = z * float(differences.std(ddof=1)) / math.sqrt(n)
    return mean, mean - half, mean + half


def share_interval(shares: np.ndarray, z: float = Z95) -> tuple[float, float, float]:
    """Mean of per-pair shares (each within [0, 1]: a duplicate pair's share of the two games)
    and its 95% interval, inside [0, 1] however lopsided: Wilson's bounds on the pairs'
    effective number of trials, p(1 − p)/v with v the variance of the mean (as
    :func:`rate_interval` does for rates); of zero width when every pair came to the same share
    (NaN bounds with fewer than 2 pairs).

    >>> [round(v, 3) for v in share_interval(np.array([1.0, 0.0, 1.0, 0.0]))]
    [0.5, 0.125, 0.875]
    >>> [round(v, 4) for v in share_interval(np.array([0.0] * 49 + [0.5]))]
    [0.01, 0.0018, 0.0549]
    """
    n = shares.size
    mean = float(shares.mean()) if n else math.nan
    if n < 2:
        return mean, math.nan, math.nan
    variance = float(shares.var(ddof=1)) / n
    if variance == 0:
        return mean, mean, mean
    low, high = wilson_bounds(mean, mean * (1 - mean) / variance, z)
    return mean, low, high


def ratio_difference(num_a: np.ndarray, den_a: np.ndarray, num_b: np.ndarray, den_b: np.ndarray,
                     z: float = Z95) -> tuple[float, float, float]:
    """Σnum_a/Σden_a − Σnum_b/Σden_b over paired units (games on the same deals) and its 95%
    interval by the delta method: units with no denominator (no nil bid) weigh nothing.

    >>> one = np.array([1.0, 2.0, 3.0])
    >>> ratio_difference(one, one, one, one)
    (0.0, 0.0, 0.0)
    """
    n = num_a.size
    if n == 0 or not den_a.sum() or not den_b.sum():
        return math.nan, math.nan, math.nan
    ratio_a, ratio_b = num_a.sum() / den_a.sum(), num_b.sum() / den_b.sum()
    difference = float(ratio_a - ratio_b)
    if n < 2:
        return difference, math.nan, math.nan
    # Linearised per-unit contributions of the difference of two ratio estimators.
    contributions = (num_a - ratio_a * den_a) / den_a.mean() - (num_b - ratio_b * den_b) / den_b.mean()
    half = z * float(contributions.std(ddof=1)) / math.sqrt(n)
    return difference, difference - half, difference + half


__all__ = ["Z95", "mean_interval", "paired_interval", "positive_ratio_interval", "rate_interval",
           "ratio_difference", "ratio_interval", "share_interval", "wilson_bounds", "wilson_interval"]

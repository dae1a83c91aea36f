"""A sequential probability ratio test on duplicate pairs: play until the answer is clear.

The unit is the duplicate pair (one deal sequence played twice, seats swapped), as fishtest's
pentanomial model counts colour-swapped game pairs. A pair's score for A is the mean of its two
games (a win 1, an unfinished game ½): 1 (won both), ¾, ½ (split, or both unfinished), ¼ or 0
(lost both), so the pairs fall into five outcomes with counts n₀ … n₄. A's strength is the Elo
of its expected pair score s on the logistic scale, s = 1 / (1 + 10^(−Elo/400)).

The test is the generalised SPRT fishtest uses (Van den Bergh's): between H0 "Elo = elo0" and
H1 "Elo = elo1", the log-likelihood ratio of the outcome counts is taken at the maximum-
likelihood distribution of the five outcomes with mean s₀ and with mean s₁:

    LLR = N · Σᵢ pᵢ · log(qᵢ(s₁) / qᵢ(s₀)),   qᵢ(s) = pᵢ / (1 + λ(aᵢ − s)),

pᵢ the observed shares of the outcomes, aᵢ their scores, λ the Lagrange multiplier that makes
Σ qᵢ aᵢ = s (one decreasing equation in λ, solved by bisection). Outcomes never seen count
10⁻³ pairs each, so that the distribution is defined from the first pair. The test stops when
the LLR leaves Wald's bounds: at or below log(β / (1 − α)) it accepts H0, at or above
log((1 − β) / α) it accepts H1. The LLR is checked after each block of pairs rather than after
every pair, which can only lower the error rates.

>>> test = Sprt(0.0, 20.0)
>>> [round(bound, 3) for bound in test.bounds]
[-2.944, 2.944]
>>> round(float(llr(np.array([10.0, 0, 80, 0, 10]), 0.0, 20.0)), 3)
-0.808
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..kernel.drivers import RunError
from ..numbers import decimal_number
from ..outputs import shown

PAIR_SCORES = np.array([0.0, 0.25, 0.5, 0.75, 1.0])
"""A's score in a pair, by outcome: lost both, lost one (the other unfinished), split,
won one (the other unfinished), won both."""

UNSEEN = 1e-3
"""The pairs an outcome never seen counts, so the constrained fit is defined (fishtest's)."""

BISECTIONS = 60
"""Halvings of λ's interval: its width ends below 10⁻¹⁷ of the start."""


def elo_score(elo: float | np.ndarray) -> float | np.ndarray:
    """The expected score of a player ``elo`` points stronger, on the logistic scale.

    >>> elo_score(0.0), round(float(elo_score(400.0)), 4)
    (0.5, 0.9091)
    """
    return 1 / (1 + 10 ** (-np.asarray(elo, dtype=np.float64) / 400)) if isinstance(
        elo, np.ndarray) else 1 / (1 + 10 ** (-elo / 400))


def score_elo(score: float) -> float:
    """The Elo difference of an expected score (±inf at 1 and 0; NaN outside [0, 1]).

    >>> round(score_elo(0.75), 1)
    190.8
    """
    if not 0 <= score <= 1 or math.isnan(score):
        return math.nan
    if score in (0.0, 1.0):
        return math.inf if score else -math.inf
    return -400 * math.log10(1 / score - 1)


def pentanomial(shares: np.ndarray) -> np.ndarray:
    """The counts of the five pair outcomes (:data:`PAIR_SCORES`) among pair scores ``shares``.

    >>> pentanomial(np.array([1.0, 0.5, 0.5, 0.0, 0.75])).tolist()
    [1, 0, 2, 1, 1]
    """
    index = np.rint(np.asarray(shares, dtype=np.float64) * 4).astype(np.int64)
    return np.asarray(np.bincount(index, minlength=5))


def llr(counts: np.ndarray, elo0: float, elo1: float) -> np.ndarray:
    """The generalised log-likelihood ratio of H1 (Elo = ``elo1``) against H0 (Elo = ``elo0``)
    from pair-outcome ``counts`` (last axis: the five outcomes); any leading axes are separate
    tests, computed at once."""
    counts = np.where(counts > 0, counts, UNSEEN).astype(np.float64)
    total = counts.sum(axis=-1)
    shares = counts / total[..., None]
    terms = [_log_ratio_terms(shares, float(elo_score(elo))) for elo in (elo0, elo1)]
    # log(q1 / q0) = log(1 + λ0(a − s0)) − log(1 + λ1(a − s1)).
    return np.asarray(total * (shares * (terms[0] - terms[1])).sum(axis=-1))


def _log_ratio_terms(shares: np.ndarray, score: float) -> np.ndarray:
    """log(1 + λ(a − s)) per outcome, λ the multiplier of the distribution nearest the observed
    one (in likelihood) whose mean score is ``score``."""
    offset = PAIR_SCORES - score
    # 1 + λ(a − s) > 0 for every outcome: λ in (−1/(1 − s), 1/s).
    low = np.full(shares.shape[:-1], -1 / (1 - score) * (1 - 1e-12))
    high = np.full(shares.shape[:-1], 1 / score * (1 - 1e-12))
    for _ in range(BISECTIONS):
        middle = (low + high) / 2
        slope = (shares * offset / (1 + middle[..., None] * offset)).sum(axis=-1)
        # The sum falls as λ grows: positive means λ is still too small.
        low, high = np.where(slope > 0, middle, low), np.where(slope > 0, high, middle)
    return np.asarray(np.log1p(((low + high) / 2)[..., None] * offset))


@dataclass(frozen=True)
class Sprt:
    """A sequential test of H0 "A is ``elo0`` Elo stronger" against H1 "``elo1``", with
    error rates ``alpha`` (accepting H1 when H0 holds) and ``beta`` (accepting H0 under H1)."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        for name in ("elo0", "elo1"):
            value = getattr(self, name)
            if not math.isfinite(value) or abs(value) >= 1000:
                raise RunError(f"sprt={self.elo0:g},{self.elo1:g}: allowed ELO0,ELO1 with "
                                  "each Elo between -1000 and 1000 and ELO0 < ELO1")
        if not self.elo0 < self.elo1:
            raise RunError(f"sprt={self.elo0:g},{self.elo1:g}: allowed ELO0,ELO1 with "
                              "ELO0 < ELO1 (H0 the weaker claim)")
        for name in ("alpha", "beta"):
            value = getattr(self, name)
            if not 0 < value < 0.5:
                raise RunError(f"{name}={value:g}: allowed a probability between 0 and 0.5 "
                                  "(exclusive)")

    @property
    def bounds(self) -> tuple[float, float]:
        """Wald's bounds on the LLR: accept H0 at or below the first, H1 at or above the second."""
        return (math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha))

    def llr(self, counts: np.ndarray) -> np.ndarray:
        """The LLR of pair-outcome ``counts`` (see :func:`llr`)."""
        return llr(counts, self.elo0, self.elo1)

    def verdict(self, value: float) -> str | None:
        """``"H0"`` or ``"H1"`` when the LLR ``value`` has left the bounds, else None."""
        lower, upper = self.bounds
        return "H0" if value <= lower else "H1" if value >= upper else None


def parse_sprt(text: str, alpha: float = 0.05, beta: float = 0.05) -> Sprt:
    """``--sprt ELO0,ELO1``: two numbers and a comma, into a :class:`Sprt` (a one-line
    :class:`~spades_sim.kernel.drivers.RunError` otherwise).

    >>> parse_sprt("0,5")
    Sprt(elo0=0.0, elo1=5.0, alpha=0.05, beta=0.05)
    """
    parts = text.split(",")
    try:
        if len(parts) != 2:
            raise ValueError
        elo0, elo1 = (decimal_number(part) for part in parts)
    except ValueError:
        raise RunError(f"sprt={shown(text)!r}: allowed ELO0,ELO1, two numbers (Elo differences "
                          "of A over B) such as 0,10") from None
    return Sprt(elo0, elo1, alpha, beta)


@dataclass
class SprtResult:
    """Where a sequential test stands: the pair outcomes so far, their LLR and the verdict."""

    test: Sprt
    counts: np.ndarray = field(default_factory=lambda: np.zeros(5, dtype=np.int64))
    """Pairs of each outcome (:data:`PAIR_SCORES`)."""
    llr: float = 0.0
    verdict: str | None = None
    """``"H0"``, ``"H1"``, or None: no verdict within the pairs allowed."""

    @property
    def pairs(self) -> int:
        """Pairs played."""
        return int(self.counts.sum())

    def add(self, shares: np.ndarray) -> str | None:
        """Count the pairs with scores ``shares``; the verdict once the LLR has left the bounds."""
        self.counts = self.counts + pentanomial(shares)
        self.llr = float(self.test.llr(self.counts))
        self.verdict = self.test.verdict(self.llr)
        return self.verdict

    @property
    def verdict_text(self) -> str:
        """The verdict in words."""
        if self.verdict == "H1":
            return f"H1 accepted: A's Elo over B is {self.test.elo1:g} or more"
        if self.verdict == "H0":
            return f"H0 accepted: A's Elo over B is {self.test.elo0:g} or less"
        return "no verdict within the pairs allowed"

    def as_dict(self) -> dict[str, object]:
        """The test and its state, for JSON and metadata."""
        lower, upper = self.test.bounds
        won_both, won_one, split, lost_one, lost_both = self.counts[::-1].tolist()
        return {"elo0": self.test.elo0, "elo1": self.test.elo1, "alpha": self.test.alpha,
                "beta": self.test.beta, "llr": self.llr, "lower_bound": lower,
                "upper_bound": upper, "pairs": self.pairs, "verdict": self.verdict,
                "won_both": won_both, "won_one_other_unfinished": won_one, "split": split,
                "lost_one_other_unfinished": lost_one, "lost_both": lost_both}


    def frame(self) -> pd.DataFrame:
        """:meth:`as_dict` as a one-row table (the ``sprt`` table of ``--format json``)."""
        return pd.DataFrame([self.as_dict()])


def run_sprt(test: Sprt, play_block: Callable[[int, int], np.ndarray | None], max_pairs: int,
             block: int) -> SprtResult:
    """Play pairs ``block`` at a time until the test's verdict or ``max_pairs``:
    ``play_block(start, count)`` plays pairs ``start`` … ``start + count − 1`` and gives their
    scores for A (None: stopped, the pairs so far stand)."""
    result = SprtResult(test)
    start = 0
    while start < max_pairs:
        count = min(block, max_pairs - start)
        shares = play_block(start, count)
        if shares is None:
            break
        start += count
        if result.add(shares) is not None:
            break
    return result


__all__ = ["PAIR_SCORES", "Sprt", "SprtResult", "elo_score", "llr", "parse_sprt", "pentanomial",
           "run_sprt", "score_elo"]

"""The sequential test of compare-strategies --sprt: its error rates on pair streams of known
strength, and its verdicts on real duplicate pairs."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from clirun import assert_ok, invoke

from spades_sim.analysis.compare import compare_strategies, sprt_strategies
from spades_sim.analysis.sprt import PAIR_SCORES, Sprt, elo_score, llr, pentanomial, score_elo

RUNS = 1_500
"""Simulated tests per hypothesis: a true error rate of 5% is then measured within ±0.56
points (one standard deviation)."""

SPLITS = np.array([0.2, 0.03, 0.54, 0.03, 0.2])
"""Pair outcomes of two equal strategies, lost both … won both: most pairs split, a few have an
unfinished game."""


def outcomes_at(elo: float) -> np.ndarray:
    """The outcome shares of a strategy ``elo`` stronger: :data:`SPLITS` tilted exponentially
    towards winning until the mean pair score is that Elo's."""
    low, high = -50.0, 50.0
    for _ in range(100):
        tilt = (low + high) / 2
        shares = SPLITS * np.exp(tilt * PAIR_SCORES)
        shares /= shares.sum()
        low, high = (tilt, high) if shares @ PAIR_SCORES < elo_score(elo) else (low, tilt)
    return shares


def verdicts(test: Sprt, elo: float, seed: int, block: int = 10, most: int = 100_000
             ) -> tuple[np.ndarray, np.ndarray]:
    """The verdicts ("H0", "H1", "" for none) and the pairs played of ``RUNS`` tests on pair
    streams of strength ``elo``, each looked at every ``block`` pairs."""
    rng = np.random.default_rng(seed)
    shares = outcomes_at(elo)
    counts = np.zeros((RUNS, 5))
    verdict = np.full(RUNS, "", dtype=object)
    pairs = np.zeros(RUNS, dtype=np.int64)
    active = np.ones(RUNS, dtype=bool)
    played = 0
    while active.any() and played < most:
        counts[active] += rng.multinomial(block, shares, size=int(active.sum()))
        played += block
        where = np.flatnonzero(active)
        decided = np.array([test.verdict(float(v)) or "" for v in test.llr(counts[where])])
        done = decided != ""
        verdict[where[done]], pairs[where[done]] = decided[done], played
        active[where[done]] = False
    return verdict, pairs


@pytest.mark.parametrize(("alpha", "beta"), [(0.05, 0.05), (0.1, 0.05)])
def test_wrong_verdicts_are_at_most_alpha_and_beta(alpha: float, beta: float) -> None:
    """At exactly elo0 the test accepts H1 at most alpha of the time, at elo1 H0 at most beta
    (within 2.33 standard deviations of the count: a one-sided 99% allowance), and it always
    comes to a verdict."""
    test = Sprt(0.0, 20.0, alpha, beta)
    for elo, wrong, rate in ((0.0, "H1", alpha), (20.0, "H0", beta)):
        verdict, pairs = verdicts(test, elo, seed=43 + int(elo))
        share = float(np.mean(verdict == wrong))
        allowance = 2.33 * math.sqrt(rate * (1 - rate) / RUNS)
        assert share <= rate + allowance, (elo, share)
        assert share > rate / 3, (elo, share)  # the test is as bold as its error rates allow
        assert (verdict != "").all()
        assert 300 < np.median(pairs) < 1500  # about (z-bounds / drift) pairs, not a handful


def test_a_clear_difference_is_settled_in_few_pairs() -> None:
    verdict, pairs = verdicts(Sprt(0.0, 20.0), 80.0, seed=7)
    assert (verdict == "H1").mean() > 0.999 and np.median(pairs) <= 200


def test_the_llr_is_the_normal_approximation_for_many_pairs() -> None:
    """With many pairs the GSPRT's LLR approaches N·((x̄ − s0)² − (x̄ − s1)²)/(2σ²)."""
    counts = np.array([2000.0, 300.0, 5400.0, 300.0, 2000.0])
    shares = counts / counts.sum()
    mean = shares @ PAIR_SCORES
    variance = shares @ (PAIR_SCORES - mean) ** 2
    s0, s1 = elo_score(0.0), elo_score(5.0)
    normal = counts.sum() * ((mean - s0) ** 2 - (mean - s1) ** 2) / (2 * variance)
    assert float(llr(counts, 0.0, 5.0)) == pytest.approx(normal, rel=0.02)
    assert pentanomial(np.array([0.0, 0.25, 0.5, 0.5, 1.0])).tolist() == [1, 1, 2, 0, 1]
    assert score_elo(float(elo_score(37.0))) == pytest.approx(37.0)


def test_expert_against_random_accepts_h1_in_a_few_hundred_pairs() -> None:
    comparison, result = sprt_strategies("standard", "expert", "random", Sprt(0.0, 50.0), 2_000,
                                         seed=3, block=25)
    assert result.verdict == "H1" and result.pairs <= 300
    assert result.llr >= result.test.bounds[1]
    assert comparison.pairs == result.pairs
    # The pairs are the first deal sequences of the seed, as compare-strategies plays them.
    plain = compare_strategies("standard", "expert", "random", result.pairs, seed=3)
    assert np.array_equal(plain.share, comparison.share)


def test_a_strategy_against_itself_accepts_h0() -> None:
    """Against itself every pair of a deterministic strategy splits (or both games are
    unfinished): the pair score is ½, Elo 0, and H0 (Elo 0) is accepted."""
    _, result = sprt_strategies("standard", "basic", "basic", Sprt(0.0, 20.0), 2_000, seed=3)
    assert result.verdict == "H0" and result.pairs <= 100


def test_the_command_prints_and_exports_the_test() -> None:
    args = ["compare-strategies", "expert", "random", "--sprt", "0,50", "--games", "500",
            "--seed", "3", "--no-figure"]
    text = invoke(args)
    assert_ok(text)
    assert "SPRT: H0 Elo 0 against H1 Elo 50 (of A's pair score), alpha 0.05, beta 0.05" in text.output
    assert "in bounds [-2.944, 2.944]: H1 accepted: A's Elo over B is 50 or more" in text.output
    data = invoke([*args, "--format", "json"])
    assert_ok(data)
    sprt = json.loads(data.output)["metadata"]["sprt"]
    assert sprt["verdict"] == "H1" and sprt["pairs"] == sprt["won_both"] + sprt["split"] + sprt[
        "lost_both"] + sprt["won_one_other_unfinished"] + sprt["lost_one_other_unfinished"]
    assert sprt["upper_bound"] == pytest.approx(math.log(0.95 / 0.05))

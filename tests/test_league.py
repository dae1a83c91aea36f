"""spades-sim league: Bradley–Terry ratings that recover known strengths with intervals that
cover them, and a round robin on the same deal sequences for every match."""

from __future__ import annotations

import functools
import itertools
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from clirun import assert_ok, invoke, stop_after
from test_sprt import outcomes_at

from spades_sim.analysis.compare import compare_strategies
from spades_sim.analysis.league import fit_ratings, match_totals, play_league, rate
from spades_sim.analysis.sprt import PAIR_SCORES, elo_score

TRUE_ELO = np.array([0.0, 40.0, -30.0, 100.0])
"""The strengths of the synthetic league; the first is the anchor."""
LEAGUES = 600
"""Synthetic leagues: 1,800 intervals (three ratings each), so a true 95% coverage is measured
within ±0.51 points (one standard deviation) and the band 93–97% is ±3.9 of them."""


MATCHES = list(itertools.combinations(range(len(TRUE_ELO)), 2))


@functools.cache
def match_outcomes(i: int, j: int) -> np.ndarray:
    """The pair-outcome shares of i against j: those of two strategies of the true Elo
    difference (:func:`test_sprt.outcomes_at`)."""
    return outcomes_at(float(TRUE_ELO[i] - TRUE_ELO[j]))


def synthetic_league(rng: np.random.Generator, pairs: int) -> dict[tuple[int, int], np.ndarray]:
    """Pair scores of every match, drawn from its outcome shares."""
    return {(i, j): rng.choice(PAIR_SCORES, size=pairs, p=match_outcomes(i, j))
            for i, j in MATCHES}


def test_the_fit_recovers_ratings_from_their_expected_scores() -> None:
    """Matches that score exactly what the model expects give back its ratings (but for the
    prior split pair, worth under 0.3 Elo in 100,000 pairs)."""
    count = len(TRUE_ELO)
    shares = {(i, j): np.full(100_000, float(elo_score(TRUE_ELO[i] - TRUE_ELO[j])))
              for i, j in itertools.combinations(range(count), 2)}
    assert fit_ratings(*match_totals(shares, count), anchor=0) == pytest.approx(TRUE_ELO, abs=0.3)
    moved = fit_ratings(*match_totals(shares, count), anchor=2)
    assert moved == pytest.approx(TRUE_ELO - TRUE_ELO[2], abs=0.3)


def test_ratings_and_intervals_recover_known_strengths() -> None:
    """600 seeded synthetic leagues of 1,000 pairs a match: the ratings are unbiased and their
    bootstrap 95% intervals hold the true Elo 93–97% of the time."""
    rng = np.random.default_rng(2026)
    estimates, covered = [], []
    for league in range(LEAGUES):
        ratings, replicates = rate(synthetic_league(rng, 1000), len(TRUE_ELO), 0, 400, league)
        low, high = np.percentile(replicates, [2.5, 97.5], axis=0)
        estimates.append(ratings)
        covered += [bool(low[k] <= TRUE_ELO[k] <= high[k]) for k in (1, 2, 3)]
    assert np.mean(estimates, axis=0) == pytest.approx(TRUE_ELO, abs=3.0)
    assert 0.93 <= np.mean(covered) <= 0.97, np.mean(covered)


@pytest.fixture(scope="module")
def league():
    return play_league("standard", ["expert", "expert-v1", "basic"], 60, seed=3, bootstrap=300)


def test_every_match_is_the_duplicate_comparison_on_the_same_deals(league) -> None:
    assert [(m.a, m.b) for m in league.matches] == [
        ("expert", "expert-v1"), ("expert", "basic"), ("expert-v1", "basic")]
    for match in league.matches:
        alone = compare_strategies("standard", match.a, match.b, 60, seed=3)
        assert np.array_equal(alone.share, match.share)
    table = league.rating_table()
    assert list(table["name"]) == ["expert", "expert-v1", "basic"]
    anchor = table[table["name"] == "expert-v1"].iloc[0]
    assert (anchor["elo"], anchor["low"], anchor["high"]) == (0.0, 0.0, 0.0)
    assert all(table["low"] <= table["elo"]) and all(table["elo"] <= table["high"])
    assert 0.5 <= table["los_next"].iloc[0] <= 1 and np.isnan(table["los_next"].iloc[-1])
    pairs = league.pair_table()
    assert (pairs["won_both"] + pairs["split"] + pairs["lost_both"] + pairs["with_unfinished"]
            == 60).all()


def test_the_command_prints_and_exports_the_league(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("mine.toml").write_text('name = "mine"\nbase = "expert"\n[params]\nnil_bonus = -10\n',
                                 encoding="utf-8")
    args = ["league", "expert", "mine.toml", "basic", "--games", "40", "--seed", "3",
            "--anchor", "basic", "--bootstrap", "200", "--quiet"]
    text = invoke([*args, "--out", "pairs.csv", "--figure", "league.png"])
    assert_ok(text)
    lines = text.output.splitlines()
    assert lines[0].startswith("rules standard, league of 3, seed 3: 40 deal sequences x 2 a "
                               "match, ratings anchored at basic = 0")
    assert any(line.split()[1:3] == ["basic", "+0.0"] and "(anchor)" in line for line in lines)
    assert Path("league.png").is_file()
    assert list(pd.read_csv("pairs.csv")["b"]) == ["mine", "basic", "basic"]
    data = json.loads(invoke([*args, "--format", "json", "--no-figure"]).output)
    assert data["metadata"]["anchor"] == "basic"
    assert data["metadata"]["strategies"][1]["params"]["nil_bonus"] == -10
    assert {row["name"] for row in data["rows"]} == {"expert", "mine", "basic"}
    assert len(data["pairs"]) == 3
    csv = invoke([*args, "--format", "csv", "--no-figure"])
    assert_ok(csv)
    assert csv.output.splitlines()[0] == "rank,name,elo,low,high,los_next"


def test_a_bot_plays_at_the_python_table() -> None:
    bot = str(Path(__file__).resolve().parent.parent / "examples" / "high_low_bot.py")
    result = invoke(["league", f"{bot}:HighLowBot", "uniform", "--games", "6", "--seed", "1",
                     "--quiet", "--no-figure", "--bootstrap", "50"])
    assert_ok(result)
    assert "HighLowBot" in result.output and "uniform" in result.output


def test_ctrl_c_stops_the_league_without_ratings() -> None:
    """Ratings need every match: a league stopped part-way says so and rates nothing."""
    league = play_league("standard", ["expert", "basic", "random"], 3000, seed=1,
                         on_block=stop_after(1))
    assert league.interrupted and league.ratings.size == 0

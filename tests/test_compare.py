"""Duplicate comparison of strategies: every deal sequence played twice, the seats swapped."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from clirun import assert_ok, assert_one_line_error, invoke

from spades_sim.analysis.compare import Comparison, PairsAlike, _pair_row, compare_strategies
from spades_sim.intervals import paired_interval
from spades_sim.kernel.strategies import STRATEGIES
from spades_sim.rules import RuleSet
from spades_sim.run.catalogue import METRICS, Units
from spades_sim.run.simulate import simulate_games

SEED = 515


def test_paired_interval_by_hand() -> None:
    # Values 0, 0.5, 1, 0.5: mean 0.5, sample sd sqrt(1/6), half-width 1.96 sqrt(1/6) / 2.
    mean, low, high = paired_interval(np.array([0.0, 0.5, 1.0, 0.5]))
    half = 1.959963984540054 * math.sqrt(1 / 6) / 2
    assert (mean, low, high) == pytest.approx((0.5, 0.5 - half, 0.5 + half))


def test_pair_row_by_hand() -> None:
    """A made 3 of 4 nils over two pairs, B 1 of 2: 75% against 50%."""
    def units(made, bids):  # (pairs, sides) columns of one run
        return Units("games", 4, 2, {"nil_made": np.array(made), "nil_bids": np.array(bids)})

    # A sat on side 0 of the first run and on side 1 of the second.
    first = units([[1, 0], [1, 1]], [[1, 1], [2, 1]])
    second = units([[0, 0], [0, 1]], [[0, 0], [0, 1]])
    row = _pair_row(METRICS["nil_success"], [first, second])
    assert (row["a"], row["b"], row["difference"]) == pytest.approx((0.75, 0.5, 0.25))
    assert row["low"] < 0.25 < row["high"]


def test_a_strategy_against_itself_scores_exactly_half() -> None:
    """Same strategy both ways: every pair of games is split, so 50% lies inside the interval
    (which has zero width: the two halves of a pair are the same games, sides swapped)."""
    result = compare_strategies(RuleSet(), "basic", "basic", 300, SEED)
    low, high = result.paired_interval
    assert low <= 0.5 <= high
    assert np.all(result.share == 0.5)
    assert result.pairs_alike is PairsAlike.SPLIT
    assert result.summary().set_index("key").loc["points", "difference"] == 0


def test_duplicate_agrees_with_the_two_runs_it_is_made_of() -> None:
    """A's win share is its wins on side 0 in the first run plus on side 1 in the second."""
    games = 400
    result = compare_strategies(RuleSet(), "conservative", "basic", games, SEED)
    first = simulate_games(RuleSet(), ["conservative", "basic"], games, seed=SEED,
                           keep_records=True).records()
    second = simulate_games(RuleSet(), ["basic", "conservative"], games, seed=SEED,
                            keep_records=True).records()
    wins = (first["winner"] == 0).sum() + (second["winner"] == 1).sum()
    unfinished = (first["winner"] < 0).sum() + (second["winner"] < 0).sum()
    assert result.share.mean() == pytest.approx((wins + unfinished / 2) / (2 * games))
    assert result.pairs == games


def test_basic_beats_random_and_pairing_sharpens() -> None:
    result = compare_strategies(RuleSet(), "basic", "random", 300, SEED)
    low, _ = result.paired_interval
    assert low > 0.95
    # conservative against basic: the paired interval is narrower than the unpaired one.
    close = compare_strategies(RuleSet(), "conservative", "basic", 600, SEED)
    paired, unpaired = close.paired_interval, close.unpaired_interval
    assert paired[1] - paired[0] < unpaired[1] - unpaired[0]


@pytest.mark.parametrize(("a", "b", "max_hands", "alike"), [
    ("basic", "random", 1000, PairsAlike.A_WON),
    ("random", "basic", 1000, PairsAlike.B_WON),
    ("basic", "random", 1, PairsAlike.UNFINISHED),  # every game stopped after its first hand
    ("conservative", "basic", 1000, None),
])
def test_pairs_alike_says_how_every_pair_came_out(a: str, b: str, max_hands: int,
                                                  alike: PairsAlike | None) -> None:
    result = compare_strategies(RuleSet(), a, b, 30, SEED, max_hands=max_hands)
    assert result.pairs_alike is alike
    low, high = result.paired_interval
    assert (low == high) == (alike is not None)


def _comparison(share: list[float], unfinished: list[int]) -> Comparison:
    """A comparison with these pair results and nothing else."""
    return Comparison(RuleSet(), STRATEGIES["basic"], STRATEGIES["random"], 1, len(share), False,
                      [], np.array(share), np.array(unfinished, dtype=float))


@pytest.mark.parametrize(("share", "unfinished", "alike"), [
    ([0.75, 0.75], [1, 1], PairsAlike.A_WON_ONE),
    ([0.25, 0.25, 0.25], [1, 1, 1], PairsAlike.B_WON_ONE),
    ([0.5, 0.5], [0, 2], PairsAlike.SPLIT_OR_UNFINISHED),
    ([0.5, 0.5], [2, 2], PairsAlike.UNFINISHED),
    ([0.5, 0.5], [0, 0], PairsAlike.SPLIT),
    ([1.0, 0.75], [0, 1], None),
    ([], [], None),
])
def test_pairs_alike_of_constructed_results(share: list[float], unfinished: list[int],
                                            alike: PairsAlike | None) -> None:
    assert _comparison(share, unfinished).pairs_alike is alike


@pytest.mark.parametrize(("a", "b", "games", "says"), [
    ("basic", "random", 20, "of zero width (A won both games of every pair), against"),
    ("random", "basic", 20, "of zero width (B won both games of every pair), against"),
    ("basic", "basic", 20, "of zero width (every pair split evenly, one game to each), against"),
    ("basic", "random", 1, "undefined with one pair, against"),
])
def test_compare_command_says_why_the_paired_interval_has_no_width(
        a: str, b: str, games: int, says: str, tmp_path: Path) -> None:
    result = invoke(["compare-strategies", a, b, "--games", str(games), "--seed", "1", "--quiet",
                     "--figure", str(tmp_path / "c.png")])
    assert_ok(result)
    line = next(line for line in result.output.splitlines() if line.startswith("A's win share"))
    assert f" is {says} the unpaired " in line
    assert "narrower" not in line


def test_compare_command_prints_and_writes_the_figure(tmp_path: Path) -> None:
    figure = tmp_path / "cmp.png"
    result = invoke(["compare-strategies", "basic", "random", "--games", "50", "--seed", "1",
                     "--quiet", "--figure", str(figure)])
    assert_ok(result)
    lines = result.output.splitlines()
    assert lines[0] == "rules standard, basic (A) vs random (B), seed 1: 50 deal sequences x 2"
    assert lines[2].startswith("win share (win 1, unfinished ½)")
    assert "A's win share: paired interval" in result.output
    assert figure.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_compare_command_param_changes_one_side(tmp_path: Path) -> None:
    """--param 1.NAME=VALUE changes B only: the printed win share is the library's for expert
    against expert with set attempts turned off, on the same deals."""
    result = invoke(["compare-strategies", "expert", "expert", "--games", "40", "--seed", "3",
                     "--quiet", "--param", "1.set_slack=0", "--figure", str(tmp_path / "c.png")])
    assert_ok(result)
    lines = result.output.splitlines()
    assert lines[0] == (
        "rules standard, expert (A) vs expert[set_slack=0] (B), seed 3: 40 deal sequences x 2")
    variant = STRATEGIES["expert"].variant({"set_slack": 0.0})
    expected = compare_strategies(RuleSet(), "expert", variant, 40, 3).share.mean()
    assert lines[2].split("½)")[1].split()[0] == f"{100 * expected:.2f}%"
    assert expected != 0.5


@pytest.mark.parametrize(("args", "message"), [
    (["--param", "2.set_slack=1"], "param side 2: allowed 0 to 1"),
    (["--param", "0.set_slack=20"], "param set_slack=20: allowed 0 to 13"),
    (["--rules", "solo"], "rules mode='solo': allowed a two-sided table (partnership or"
     " two-player) for a duplicate comparison"),
    (["--figure", "out.txt"], "figure='out.txt': allowed a file ending in .png or .svg"),
    (["--games", "0"], "games=0: allowed 1 to 1,000,000,000"),
])
def test_compare_command_bad_input(args: list[str], message: str) -> None:
    assert_one_line_error(invoke(["compare-strategies", "basic", "random", "--quiet", *args]),
                          message)

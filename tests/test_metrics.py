"""The analysis API of ``spades_sim.analysis.metrics`` (the catalogue on record frames) and the interval
helpers of ``spades_sim.intervals``.

Every expected value below is worked out by hand from small record frames built in this file
(the derivation is in the comment next to it), never by calling the function under test.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from spades_sim.analysis.metrics import (
    EconomicsError,
    Payouts,
    bid_label,
    bid_minus_tricks,
    bid_profile,
    check_buy_in,
    compare_game_frames,
    decided_by_penalty,
    economics,
    game_metrics,
    hand_metrics,
    parse_rake,
    placed_second,
    side_count,
)
from spades_sim.intervals import (
    paired_interval,
    ratio_difference,
    share_interval,
    wilson_bounds,
    wilson_interval,
)
from spades_sim.run.catalogue import Sums, pick, select

Z = 1.959963984540054  # two-sided 95% normal quantile
EXACT = 1e-12  # relative tolerance for values that are exact arithmetic

# ---------------------------------------------------------------- frame builders

GAME_SIDE_COLUMNS = ("score", "bag_total", "contracts", "made", "nil_bids", "nil_made",
                     "blind_bids", "blind_made", "bags", "penalty", "bid_error")


def game_rows(rows: list[dict], sides: int) -> pd.DataFrame:
    """A game frame (the columns of ``records.game_frame``) from one dict per game.

    Each dict gives ``hands``, ``winner`` and, per side column name, a tuple with one value per
    side; side columns left out are 0. Two sides are a partnership table (two seats a side),
    more are a solo table (one seat a side).
    """
    frame = pd.DataFrame({
        "game": np.arange(len(rows)),
        "first_dealer": [i % sides for i in range(len(rows))],
        "hands": [row["hands"] for row in rows],
        "winner": [row["winner"] for row in rows],
    })
    for name in GAME_SIDE_COLUMNS:
        for side in range(sides):
            frame[f"{name}_{side}"] = [row.get(name, (0,) * sides)[side] for row in rows]
    for side in range(sides):
        frame[f"seat_hands_{side}"] = frame["hands"] * (2 if sides == 2 else 1)
    return frame


def partnership_games() -> pd.DataFrame:
    """Five games of a 2-side partnership table.

    ====  =====  ======  ==========  =========  =====  ====  =====  =====  =====  =======  =====
    game  hands  winner  score       contracts  made   nil   nil    blind  blind  penalty  bid
                                                       bids  made   bids   made            error
    ====  =====  ======  ==========  =========  =====  ====  =====  =====  =====  =======  =====
    0     10     0       520 / 310   9 / 10     8 / 7  1/0   1/0    0/0    0/0    0 / 0    12/15
    1     12     1       480 / 505   12 / 11    10/10  0/1   0/0    0/1    0/0    100 / 0  20/10
    2     8      0       510 / 400   8 / 8      7 / 6  0/0   0/0    0/0    0/0    100 / 0  9/11
    3     20     -1      300 / 350   19 / 18    14/13  1/2   0/1    0/0    0/0    0 / 100  30/28
    4     10     0       560 / 420   10 / 9     9 / 7  0/1   0/1    1/0    1/0    0 / 100  8/14
    ====  =====  ======  ==========  =========  =====  ====  =====  =====  =====  =======  =====

    Bags per game: side 0 6, 14, 11, 9, 5; side 1 4, 5, 3, 12, 13.
    Game 1 is decided by a bag penalty: without the 100 side 0 lost it has 580 > 505.
    """
    return game_rows([
        dict(hands=10, winner=0, score=(520, 310), bag_total=(6, 4), contracts=(9, 10),
             made=(8, 7), nil_bids=(1, 0), nil_made=(1, 0), bags=(6, 4), bid_error=(12, 15)),
        dict(hands=12, winner=1, score=(480, 505), bag_total=(4, 5), contracts=(12, 11),
             made=(10, 10), nil_bids=(0, 1), blind_bids=(0, 1), bags=(14, 5), penalty=(100, 0),
             bid_error=(20, 10)),
        dict(hands=8, winner=0, score=(510, 400), bag_total=(1, 3), contracts=(8, 8),
             made=(7, 6), bags=(11, 3), penalty=(100, 0), bid_error=(9, 11)),
        dict(hands=20, winner=-1, score=(300, 350), bag_total=(9, 2), contracts=(19, 18),
             made=(14, 13), nil_bids=(1, 2), nil_made=(0, 1), bags=(9, 12), penalty=(0, 100),
             bid_error=(30, 28)),
        dict(hands=10, winner=0, score=(560, 420), bag_total=(5, 3), contracts=(10, 9),
             made=(9, 7), nil_bids=(0, 1), nil_made=(0, 1), blind_bids=(1, 0), blind_made=(1, 0),
             bags=(5, 13), penalty=(0, 100), bid_error=(8, 14)),
    ], sides=2)


def solo_games() -> pd.DataFrame:
    """Four games of a 4-side solo table (only scores, penalties, hands and winner matter).

    game 0: side 2 wins 505; losers 200, 310, 150 -> second is side 1.
    game 1: side 0 wins 520; losers 300, 300, 480 -> second is side 3. Side 3 lost 100 to bags:
            580 without it beats 520, so the penalty decided the game.
    game 2: unfinished -> no winner, no second, not decided by a penalty.
    game 3: side 3 wins 510; losers 400, 450, 450 -> tie for second, the lower side (1) gets it.
            Side 0 lost 100 to bags but 500 < 510, so not decided.
    """
    return game_rows([
        dict(hands=9, winner=2, score=(200, 310, 505, 150)),
        dict(hands=11, winner=0, score=(520, 300, 300, 480), penalty=(0, 0, 0, 100)),
        dict(hands=25, winner=-1, score=(400, 380, 420, 390), penalty=(0, 100, 0, 0)),
        dict(hands=12, winner=3, score=(400, 450, 450, 510), penalty=(100, 0, 0, 0)),
    ], sides=4)


def seat_hand(game, seat, bid, tricks, side_values, blind=0) -> dict:
    """One seat-hand row of a 4-seat partnership table (side = seat % 2)."""
    contract, made, points, bags, penalty = side_values
    return dict(game=game, hand=0, dealer=game % 4, seat=seat, side=seat % 2, bid=bid,
                blind=blind, tricks=tricks, spades=3, top_spade=9, aces=1, kings=1, voids=0,
                nil_risk=0.0, contract=contract, made=made, points=points, bags=bags,
                penalty=penalty, score=points, bag_total=0)


def partnership_hands() -> pd.DataFrame:
    """Three independent hands (a hand run: game 0, 1, 2) of a 4-seat table, 12 seat-hands.

    Side columns per hand (contract, made, points, bags, penalty):

    hand 0: seats bid 4, 3, nil, 4 and take 5, 2, 0, 6.
            side 0: contract 4, count tricks 5 (seat 2 is nil), made, 1 bag, 40+1+100 = 141.
            side 1: contract 7, count tricks 8, made, 1 bag, 71.
    hand 1: seats bid 5, blind nil, 3, 5 and take 3, 1, 3, 6.
            side 0: contract 8, count tricks 6, set, 0 bags, -80.
            side 1: contract 5, count tricks 6 (the blind nil's trick does not count), made,
                    2 bags (1 over + the blind nil's trick), 50+2-200 = -148.
    hand 2: seats bid nil, 1, nil, 3 and take 1, 4, 0, 8.
            side 0: two nils, contract 0 (made is 1 as the kernel scores it: 0 >= 0), the failed
                    nil's trick is 1 bag, and the side is penalised 100 (as if it carried 9 bags):
                    1+100-100-100 = -99.
            side 1: contract 4, count tricks 12, made, 8 bags, 40+8 = 48.
    """
    s00, s01 = (4, 1, 141, 1, 0), (7, 1, 71, 1, 0)
    s10, s11 = (8, 0, -80, 0, 0), (5, 1, -148, 2, 0)
    s20, s21 = (0, 1, -99, 1, 100), (4, 1, 48, 8, 0)
    return pd.DataFrame([
        seat_hand(0, 0, 4, 5, s00), seat_hand(0, 1, 3, 2, s01),
        seat_hand(0, 2, 0, 0, s00), seat_hand(0, 3, 4, 6, s01),
        seat_hand(1, 0, 5, 3, s10), seat_hand(1, 1, 0, 1, s11, blind=1),
        seat_hand(1, 2, 3, 3, s10), seat_hand(1, 3, 5, 6, s11),
        seat_hand(2, 0, 0, 1, s20), seat_hand(2, 1, 1, 4, s21),
        seat_hand(2, 2, 0, 0, s20), seat_hand(2, 3, 3, 8, s21),
    ])


def check(table: pd.DataFrame, expected: dict, side: int | None = None) -> None:
    """Every (value, n) of ``expected`` (by metric key, or (key, side)) matches its row of
    ``table`` (rows of ``side`` unless the key says); NaN values must be NaN."""
    for name, (value, n) in expected.items():
        row = pick(table, *name) if isinstance(name, tuple) else pick(table, name, side)
        if math.isnan(value):
            assert math.isnan(row["value"]), name
        else:
            assert row["value"] == pytest.approx(value, rel=EXACT, abs=1e-15), name
        assert row["n"] == n, name


# ---------------------------------------------------------------- game_metrics


def test_game_metrics_pooled_values_and_counts() -> None:
    table = game_metrics(partnership_games())
    check(table, {
        # Finished games 0, 1, 2, 4: side 0 won 0, 2, 4 and side 1 won 1.
        ("win_rate", 0): (3 / 4, 4),
        ("win_rate", 1): (1 / 4, 4),
        "unfinished_rate": (1 / 5, 5),  # game 3
        "hands_per_game": (60 / 5, 5),  # 10+12+8+20+10 = 60
        # contracts 58 + 56 = 114, made 48 + 43 = 91
        "make_rate": (91 / 114, 114),
        "set_rate": (23 / 114, 114),
        # seat-hands = 4 × 60 = 240; nil bids 2 + 4 = 6, made 1 + 2 = 3
        "nil_bid_rate": (6 / 240, 240),
        "nil_success": (3 / 6, 6),
        "blind_bid_rate": (2 / 240, 240),  # game 4 side 0, game 1 side 1
        "blind_success": (1 / 2, 2),  # only game 4's was made
        "bid_error": (157 / 114, 114),  # (79 + 78) / contracts
        "bags": (82 / 120, 120),  # 45 + 37 over 2 × 60 side-hands
        "penalty_points": (400 / 120, 120),
        "penalty_per_game": (400 / 5, 5),  # 0, 100, 100, 100, 100
        # side-games penalised: game 1 side 0, game 2 side 0, game 3 side 1, game 4 side 1
        "penalised_games": (4 / 10, 10),
        "decided_by_penalty": (1 / 5, 5),  # game 1
        "points": (4355 / 120, 120),  # 2370 + 1985
    })
    assert table["key"].iloc[:2].tolist() == ["win_rate", "win_rate"]
    assert table["metric"].iloc[:2].tolist() == ["side 0 (seats 0+2) win rate",
                                                 "side 1 (seats 1+3) win rate"]


def test_game_metrics_of_each_side() -> None:
    games = partnership_games()
    side0 = game_metrics(games, side=0)
    check(side0, {
        "win_rate": (3 / 4, 4),
        "unfinished_rate": (1 / 5, 5),
        "hands_per_game": (12.0, 5),
        "make_rate": (48 / 58, 58),  # made 8+10+7+14+9, contracts 9+12+8+19+10
        "set_rate": (10 / 58, 58),
        "nil_bid_rate": (2 / 120, 120),  # seat-hands = 2 × 60
        "nil_success": (1 / 2, 2),
        "blind_bid_rate": (1 / 120, 120),
        "blind_success": (1.0, 1),
        "bid_error": (79 / 58, 58),  # 12+20+9+30+8
        "bags": (45 / 60, 60),  # 6+14+11+9+5
        "penalty_per_game": (200 / 5, 5),  # 0, 100, 100, 0, 0
        "penalised_games": (2 / 5, 5),
        "decided_by_penalty": (1 / 5, 5),  # a game-level figure
        "points": (2370 / 60, 60),  # 520+480+510+300+560
    }, side=0)
    assert set(side0["side"]) == {0}
    side1 = game_metrics(games, side=1)
    check(side1, {
        "win_rate": (1 / 4, 4),
        "make_rate": (43 / 56, 56),  # made 7+10+6+13+7, contracts 10+11+8+18+9
        "set_rate": (13 / 56, 56),
        "nil_bid_rate": (4 / 120, 120),
        "nil_success": (2 / 4, 4),
        "blind_bid_rate": (1 / 120, 120),
        "blind_success": (0.0, 1),
        "bid_error": (78 / 56, 56),  # 15+10+11+28+14
        "bags": (37 / 60, 60),  # 4+5+3+12+13
        "penalty_per_game": (200 / 5, 5),  # 0, 0, 0, 100, 100
        "penalised_games": (2 / 5, 5),
        "decided_by_penalty": (1 / 5, 5),
        "points": (1985 / 60, 60),  # 310+505+400+350+420
    }, side=1)


def cluster_half_width(y: list[float], x: list[float]) -> float:
    """The delta-method half-width of Σy/Σx over units (the formula, written out here)."""
    y, x = np.array(y, float), np.array(x, float)
    ratio, n = y.sum() / x.sum(), y.size
    return Z * math.sqrt(((y - ratio * x) ** 2).sum() / (n - 1) / n) / x.mean()


def test_game_metric_intervals_by_hand() -> None:
    table = game_metrics(partnership_games())
    # hands per game: 10, 12, 8, 20, 10 around 12 -> squares 4+0+16+64+4 = 88, sample variance
    # 88/4 = 22, so 12 ± Z·sqrt(22/5).
    # Hands are never negative: the interval is the normal one on the log scale.
    half = Z * math.sqrt(22 / 5)
    row = pick(table, "hands_per_game")
    factor = math.exp(half / 12)
    assert (row["low"], row["high"]) == pytest.approx((12 / factor, 12 * factor), rel=EXACT)
    # nil bids per seat-hand, games as clusters: y = 1, 1, 0, 3, 1 nil bids over x = 40, 48, 32,
    # 80, 40 seat-hands, ratio 0.025; residuals y − 0.025x = 0, −0.2, −0.8, 1, 0 square to 1.68;
    # delta-method half-width Z·sqrt(1.68/4/5) / (240/5). A rate takes Wilson's interval on the
    # trials that variance is worth, p(1 − p)/se².
    half = Z * math.sqrt(1.68 / 4 / 5) / 48
    row = pick(table, "nil_bid_rate")
    assert (row["low"], row["high"]) == pytest.approx(
        wilson_bounds(0.025, 0.025 * 0.975 / (half / Z) ** 2), rel=1e-9)
    # Contracts made, games as clusters: made 15, 20, 13, 27, 16 of 19, 23, 16, 37, 19.
    half = cluster_half_width([15, 20, 13, 27, 16], [19, 23, 16, 37, 19])
    row = pick(table, "make_rate")
    made = 91 / 114
    assert (row["low"], row["high"]) == pytest.approx(
        wilson_bounds(made, made * (1 - made) / (half / Z) ** 2), rel=1e-9)
    assert row["interval"] == "ratio"
    # A proportion of games takes the Wilson interval of the counts.
    row = pick(table, "win_rate", 0)
    assert (row["low"], row["high"]) == wilson_interval(3, 4)
    assert row["interval"] == "proportion"


def test_game_metrics_of_a_solo_table() -> None:
    table = game_metrics(solo_games())
    # 3 finished games won by sides 2, 0, 3.
    check(table, {
        ("win_rate", 0): (1 / 3, 3),
        ("win_rate", 1): (0.0, 3),
        ("win_rate", 2): (1 / 3, 3),
        ("win_rate", 3): (1 / 3, 3),
        "unfinished_rate": (1 / 4, 4),
        "hands_per_game": (57 / 4, 4),  # 9+11+25+12
        "decided_by_penalty": (1 / 4, 4),  # game 1
        "penalised_games": (3 / 16, 16),  # game 1 side 3, game 2 side 1, game 3 side 0
        "penalty_per_game": (300 / 4, 4),
        # 4 sides × 57 hands = 228 side-hands; scores 1165 + 1600 + 1590 + 1810 = 6165
        "points": (6165 / 228, 228),
    })
    assert pick(table, "win_rate", 3)["metric"] == "side 3 (seat 3) win rate"
    assert side_count(solo_games()) == 4
    assert side_count(partnership_games()) == 2


# ---------------------------------------------------------------- decided_by_penalty / placed_second


def test_decided_by_penalty_cases() -> None:
    games = game_rows([
        # no penalties, winner ahead -> False
        dict(hands=10, winner=0, score=(520, 480)),
        # the winner lost 100 itself: 610 vs 400, ahead either way -> False
        dict(hands=10, winner=0, score=(510, 400), penalty=(100, 0)),
        # the loser lost 100: without it 580 vs 505, the winner is ahead only thanks to it -> True
        dict(hands=10, winner=1, score=(480, 505), penalty=(100, 0)),
        # the loser lost 100 but 520 < 560: ahead either way -> False
        dict(hands=10, winner=0, score=(560, 420), penalty=(0, 100)),
        # unfinished, even though side 1 would lead without its penalty -> False
        dict(hands=25, winner=-1, score=(330, 300), penalty=(0, 100)),
        # the loser lost 50: without it 550 vs 550, a tie, so the penalty decided it -> True
        dict(hands=12, winner=1, score=(500, 550), penalty=(50, 0)),
    ], sides=2)
    assert decided_by_penalty(games).tolist() == [False, False, True, False, False, True]


def test_decided_by_penalty_on_a_solo_table() -> None:
    # See solo_games: only game 1 (side 3 would have 580 > 520 without its penalty).
    assert decided_by_penalty(solo_games()).tolist() == [False, True, False, False]


def test_placed_second() -> None:
    second = placed_second(solo_games())
    assert second.dtype == bool
    assert second.tolist() == [
        [False, True, False, False],   # losers 200, 310, 150 -> side 1
        [False, False, False, True],   # losers 300, 300, 480 -> side 3
        [False, False, False, False],  # unfinished: no second
        [False, True, False, False],   # losers 400, 450, 450 -> tie, lower side 1
    ]


# ---------------------------------------------------------------- seat-hand frames


def test_hand_metrics_pooled() -> None:
    table = hand_metrics(partnership_hands())
    check(table, {
        # bids 4,3,0,4 + 5,0,3,5 + 0,1,0,3 = 28 over 12 seat-hands
        "mean_bid": (28 / 12, 12),
        "nil_bid_rate": (3 / 12, 12),  # hand 0 seat 2, hand 2 seats 0 and 2
        "nil_success": (2 / 3, 3),  # hand 2 seat 0 took a trick
        "blind_bid_rate": (1 / 12, 12),
        "blind_success": (0.0, 1),  # it took a trick
        # side-hands with a contract: 4, 7, 8, 5, 4 (hand 2 side 0 has contract 0 and is out
        # even though its made column is 1); made all but hand 1 side 0
        "make_rate": (4 / 5, 5),
        "set_rate": (1 / 5, 5),
        # contract − count tricks: 4−5, 7−8, 8−6, 5−6, 4−12 = −1, −1, 2, −1, −8 -> sum −9
        "bid_minus_tricks": (-9 / 5, 5),
        "bid_error": (13 / 5, 5),  # 1+1+2+1+8
        "bags": (13 / 6, 6),  # 1, 1, 0, 2, 1, 8
        "penalty_rate": (1 / 6, 6),
        "penalty_points": (100 / 6, 6),
        "points": (-67 / 6, 6),  # 141 + 71 − 80 − 148 − 99 + 48
    })
    # The sides of one hand share its tricks, so the hand is the unit: contract − tricks per
    # hand y = −2, 1, −8 over x = 2, 2, 1 contracts, ratio −1.8; residuals y + 1.8x = 1.6, 4.6,
    # −6.2 square to 62.16, so the half-width is Z·sqrt(62.16/2/3) / (5/3).
    half = Z * math.sqrt(62.16 / 2 / 3) / (5 / 3)
    row = pick(table, "bid_minus_tricks")
    assert (row["low"], row["high"]) == pytest.approx((-1.8 - half, -1.8 + half), rel=1e-9)
    # Nils per hand: 1 made of 1, none, 1 made of 2; ratio 2/3, residuals 1/3, 0, −1/3.
    half = Z * math.sqrt((2 / 9) / 2 / 3) / 1
    row = pick(table, "nil_success")
    assert (row["low"], row["high"]) == pytest.approx(
        wilson_bounds(2 / 3, (2 / 9) / (half / Z) ** 2), rel=1e-9)
    # No blind nil was made: an interval without width would claim too much, so the bounds
    # are Wilson's for 0 of 1.
    row = pick(table, "blind_success")
    assert (row["low"], row["high"]) == wilson_interval(0, 1)


def test_hand_metrics_of_each_side() -> None:
    hands = partnership_hands()
    check(hand_metrics(hands, side=0), {
        "mean_bid": (12 / 6, 6),  # 4, 0, 5, 3, 0, 0
        "nil_bid_rate": (3 / 6, 6),
        "nil_success": (2 / 3, 3),
        "blind_bid_rate": (0.0, 6),
        "blind_success": (math.nan, 0),
        "make_rate": (1 / 2, 2),  # contracts 4 (made), 8 (set); contract 0 left out
        "set_rate": (1 / 2, 2),
        "bid_minus_tricks": (1 / 2, 2),  # −1 + 2
        "bid_error": (3 / 2, 2),
        "bags": (2 / 3, 3),  # 1, 0, 1
        "penalty_rate": (1 / 3, 3),
        "points": (-38 / 3, 3),  # 141 − 80 − 99
    }, side=0)
    check(hand_metrics(hands, side=1), {
        "mean_bid": (16 / 6, 6),  # 3, 4, 0, 5, 1, 3
        "nil_bid_rate": (0.0, 6),
        "nil_success": (math.nan, 0),
        "blind_bid_rate": (1 / 6, 6),
        "blind_success": (0.0, 1),
        "make_rate": (1.0, 3),
        "set_rate": (0.0, 3),
        "bid_minus_tricks": (-10 / 3, 3),  # −1, −1, −8
        "bid_error": (10 / 3, 3),
        "bags": (11 / 3, 3),  # 1, 2, 8
        "penalty_rate": (0.0, 3),
        "points": (-29 / 3, 3),  # 71 − 148 + 48
    }, side=1)


def test_hand_metrics_do_not_depend_on_row_order() -> None:
    """Side-hand figures pair each side's first seat with its count tricks: shuffled rows must
    give the same table."""
    hands = partnership_hands()
    shuffled = hands.sample(frac=1.0, random_state=7).reset_index(drop=True)
    assert not shuffled["seat"].equals(hands["seat"])
    pd.testing.assert_frame_equal(hand_metrics(shuffled), hand_metrics(hands))
    pd.testing.assert_frame_equal(bid_minus_tricks(shuffled), bid_minus_tricks(hands))


def test_bid_minus_tricks_distribution() -> None:
    table = bid_minus_tricks(partnership_hands())
    # values −1, −1, 2, −1, −8 over the 5 side-hands with a contract
    assert table["bid_minus_tricks"].tolist() == [-8, -1, 2]
    assert table["side_hands"].tolist() == [1, 3, 1]
    assert table["share"].tolist() == pytest.approx([0.2, 0.6, 0.2], rel=EXACT)
    assert (table.loc[1, "low"], table.loc[1, "high"]) == wilson_interval(3, 5)
    # side 1 only: −1, −1, −8
    side1 = bid_minus_tricks(partnership_hands().query("side == 1"))
    assert side1["bid_minus_tricks"].tolist() == [-8, -1]
    assert side1["side_hands"].tolist() == [1, 2]
    assert side1["share"].tolist() == pytest.approx([1 / 3, 2 / 3], rel=EXACT)


def test_bid_profile() -> None:
    table = bid_profile(partnership_hands())
    # 12 seat-hands: blind nil ×1 (hand 1 seat 1), nil ×3, 1 ×1, 3 ×3, 4 ×2, 5 ×2
    assert table["bid"].tolist() == ["blind nil", "nil", "1", "3", "4", "5"]
    assert table["seat_hands"].tolist() == [1, 3, 1, 3, 2, 2]
    assert table["share"].tolist() == pytest.approx([1 / 12, 3 / 12, 1 / 12, 3 / 12, 2 / 12, 2 / 12],
                                                   rel=EXACT)
    assert (table.loc[1, "low"], table.loc[1, "high"]) == wilson_interval(3, 12)
    assert [bid_label(0, 1), bid_label(0, 0), bid_label(7, 0), bid_label(10, 0)] == \
        ["blind nil", "nil", "7", "10"]


def test_bid_profile_orders_bids_by_number() -> None:
    # Labels sorted as strings would put "10" before "9".
    hands = partnership_hands()
    hands.loc[0, "bid"] = 10
    hands.loc[1, "bid"] = 9
    assert bid_profile(hands)["bid"].tolist() == ["blind nil", "nil", "1", "3", "4", "5", "9", "10"]


# ---------------------------------------------------------------- intervals


def test_wilson_interval_known_case() -> None:
    # 8 of 10: p = 0.8, z² = 3.8415, centre (0.8 + 0.19207)/1.38415 = 0.71674, half-width
    # 1.96·sqrt(0.016 + 0.0096037)/1.38415 = 0.22658 -> [0.4902, 0.9433].
    low, high = wilson_interval(8, 10)
    assert (round(low, 4), round(high, 4)) == (0.4902, 0.9433)
    # No successes / all successes: the bounds are exactly 0 / 1.
    assert wilson_interval(0, 50)[0] == 0.0
    assert wilson_interval(50, 50)[1] == 1.0
    assert all(math.isnan(x) for x in wilson_interval(0, 0))


def test_sums_estimate_by_interval_kind() -> None:
    """A proportion of units takes Wilson's bounds on the counts; a ratio the delta method."""
    sums = Sums()
    sums.add(np.array([1, 0, 1, 1, 1, 0, 1, 1, 1, 1], float), np.ones(10))
    assert sums.estimate("proportion") == (0.8, *wilson_interval(8, 10))
    # Numerators and denominators are summed over units: 3 of 4 + 2 of 6 = 5 of 10; residuals
    # 3 − 0.5·4 = 1 and 2 − 0.5·6 = −1, so the half-width is Z·sqrt(2/1/2) / 5.
    sums = Sums()
    sums.add(np.array([3.0, 2.0]), np.array([4.0, 6.0]))
    value, low, high = sums.estimate("ratio", share=False)
    half = Z * math.sqrt(2 / 1 / 2) / 5
    assert (value, low, high) == pytest.approx((0.5, 0.5 - half, 0.5 + half), rel=EXACT)
    # A rate: Wilson's bounds on the trials the clusters are worth, p(1 − p) / variance.
    assert sums.estimate("ratio") == pytest.approx(
        (0.5, *wilson_bounds(0.5, 0.25 / (half / Z) ** 2)), rel=EXACT)
    # A non-negative mean: the delta method's interval on the log scale.
    factor = math.exp(half / 0.5)
    assert sums.estimate("ratio", share=False, nonnegative=True) == pytest.approx(
        (0.5, 0.5 / factor, 0.5 * factor), rel=EXACT)
    assert all(math.isnan(v) for v in Sums().estimate("ratio"))


def test_no_interval_leaves_its_metrics_range() -> None:
    """Two blind nils in 1,584 seat-hands of 40 games (``simulate --games 40 --seed 1``) took
    the delta method's interval below 0; a rate's interval stays within [0, 1] and a mean of
    non-negative counts above 0, however few the events."""
    rare = Sums()
    rare.add(np.array([1.0, 1.0] + [0.0] * 38), np.full(40, 40.0))
    value, low, high = rare.estimate("ratio")
    assert value == 2 / 1600 and 0 < low < value < high < 1
    assert rare.estimate("ratio", share=False)[1] < 0  # what the delta method alone gives
    value, low, high = rare.estimate("ratio", share=False, nonnegative=True)
    assert 0 < low < value < high
    every = Sums()
    every.add(np.array([40.0, 39.0] + [40.0] * 38), np.full(40, 40.0))
    value, low, high = every.estimate("ratio")
    assert 0 < low < value < high < 1


def wilson_coverage(n: int, p: float, trials: int, seed: int) -> float:
    """Share of ``trials`` Wilson 95% intervals of Binomial(n, p) samples that contain p."""
    successes = np.random.default_rng(seed).binomial(n, p, size=trials)
    covered = 0
    for k in successes:
        low, high = wilson_interval(int(k), n)
        covered += low <= p <= high
    return covered / trials


# 99.9% acceptance band for the covered share of 4000 intervals of true coverage 0.95:
# 0.95 ± 3.29·sqrt(0.95·0.05/4000) = 0.95 ± 0.01134 -> [0.93866, 0.96134].
TRIALS = 4000
BAND = 3.29 * math.sqrt(0.95 * 0.05 / TRIALS)


def test_wilson_coverage_on_a_known_binomial() -> None:
    # Exact coverage at n=200, p=0.3 is 0.9466 (binomial pmf summed over the covering k), well
    # inside the band.
    coverage = wilson_coverage(200, 0.3, TRIALS, seed=20240611)
    assert 0.95 - BAND <= coverage <= 0.95 + BAND


def test_wilson_coverage_small_sample() -> None:
    # n=20, p=0.1: the Wilson intervals of k = 0..4 contain 0.1 (k=4 gives [0.081, 0.416], k=5
    # gives [0.112, 0.469]), so the exact coverage is P(X <= 4) = 0.9568 for X ~ Bin(20, 0.1).
    # 0.92 is more than 10 Monte Carlo standard errors (0.0032) below it; an interval that
    # under-covers like the Wald interval (about 0.88 here) would fail.
    coverage = wilson_coverage(20, 0.1, TRIALS, seed=20240612)
    assert coverage >= 0.92


def test_paired_interval_coverage_on_normal_differences() -> None:
    # 4000 runs of 400 pairs with differences ~ Normal(0.7, 2): the z-interval with the sample
    # sd covers with P(|t_399| <= 1.96) ≈ 0.9493, inside the same 99.9% band around 0.95.
    rng = np.random.default_rng(20240613)
    differences = rng.normal(0.7, 2.0, size=(TRIALS, 400))
    covered = 0
    for row in differences:
        _, low, high = paired_interval(row)
        covered += low <= 0.7 <= high
    assert 0.95 - BAND <= covered / TRIALS <= 0.95 + BAND


# ---------------------------------------------------------------- paired differences


def test_paired_interval_by_hand() -> None:
    # 1, 2, 3, 6: mean 3, squared deviations 4+1+0+9 = 14, sample variance 14/3,
    # standard error sqrt(14/3/4).
    mean, low, high = paired_interval(np.array([1.0, 2.0, 3.0, 6.0]))
    half = Z * math.sqrt(14 / 3 / 4)
    assert (mean, low, high) == pytest.approx((3.0, 3.0 - half, 3.0 + half), rel=EXACT)
    # the docstring case: 1, 0, 1, 0 -> 0.5 ± Z·sqrt(1/3)/2
    mean, low, high = paired_interval(np.array([1.0, 0.0, 1.0, 0.0]))
    half = Z * math.sqrt(1 / 3) / 2
    assert (mean, low, high) == pytest.approx((0.5, 0.5 - half, 0.5 + half), rel=EXACT)
    assert paired_interval(np.array([2.5, 2.5, 2.5])) == (2.5, 2.5, 2.5)
    mean, low, high = paired_interval(np.array([4.0]))
    assert mean == 4.0 and math.isnan(low) and math.isnan(high)
    assert all(math.isnan(x) for x in paired_interval(np.array([])))


def test_ratio_difference_by_hand() -> None:
    num_a, den_a = np.array([1.0, 2.0, 3.0]), np.array([2.0, 2.0, 2.0])
    num_b, den_b = np.array([1.0, 1.0, 1.0]), np.array([1.0, 2.0, 1.0])
    # ratios 6/6 = 1 and 3/4 = 0.75 -> difference 0.25. Per-unit contributions:
    # (num_a − 1·den_a)/2 = −0.5, 0, 0.5 minus (num_b − 0.75·den_b)/(4/3) = 0.1875, −0.375, 0.1875
    # -> −0.6875, 0.375, 0.3125 (mean 0), squares summing to 0.7109375; sample variance
    # 0.7109375/2, standard error sqrt(0.7109375/2/3).
    difference, low, high = ratio_difference(num_a, den_a, num_b, den_b)
    half = Z * math.sqrt(0.7109375 / 2 / 3)
    assert (difference, low, high) == pytest.approx((0.25, 0.25 - half, 0.25 + half), rel=EXACT)


def test_ratio_difference_edge_cases() -> None:
    one = np.array([1.0, 2.0, 3.0])
    assert ratio_difference(one, one, one, one) == (0.0, 0.0, 0.0)
    values = np.array([0.0, 1.0, 1.0, 0.0, 1.0])
    counts = np.array([0.0, 2.0, 1.0, 1.0, 3.0])  # a unit without a denominator weighs nothing
    assert ratio_difference(values, counts, values, counts) == (0.0, 0.0, 0.0)
    # no denominator at all, or no units -> NaN
    zero = np.zeros(3)
    assert all(math.isnan(x) for x in ratio_difference(one, zero, one, one))
    assert all(math.isnan(x) for x in ratio_difference(one, one, one, zero))
    empty = np.array([])
    assert all(math.isnan(x) for x in ratio_difference(empty, empty, empty, empty))
    # one unit: the difference (2/4 − 1/1 = −0.5) without an interval
    difference, low, high = ratio_difference(np.array([2.0]), np.array([4.0]),
                                             np.array([1.0]), np.array([1.0]))
    assert difference == -0.5 and math.isnan(low) and math.isnan(high)


def test_ratio_difference_with_unit_denominators_is_the_paired_mean() -> None:
    # Denominators of 1: contributions reduce to (a − b) − mean(a − b). a − b = 2, −1, 0, 3:
    # mean 1, squared deviations 1+4+1+4 = 10, standard error sqrt(10/3/4).
    a, b, ones = np.array([3.0, 0.0, 2.0, 5.0]), np.array([1.0, 1.0, 2.0, 2.0]), np.ones(4)
    half = Z * math.sqrt(10 / 3 / 4)
    assert ratio_difference(a, ones, b, ones) == pytest.approx((1.0, 1 - half, 1 + half), rel=EXACT)
    assert paired_interval(a - b) == pytest.approx((1.0, 1 - half, 1 + half), rel=EXACT)


def test_compare_identical_runs_shows_no_difference() -> None:
    games = partnership_games()
    for side in (None, 0, 1):
        table = compare_game_frames({"a": games, "b": games.copy()}, side=side)
        assert table["run"].tolist() == ["a"] * (len(table) // 2) + ["b"] * (len(table) // 2)
        for column in ("difference", "diff_low", "diff_high"):
            assert (table[column] == 0).all(), (side, column)
        # the metric columns are those of game_metrics for each run
        base = game_metrics(games, side=side)
        for run in ("a", "b"):
            rows = table[table["run"] == run].reset_index(drop=True)
            pd.testing.assert_frame_equal(rows[list(base.columns)], base)


def test_compare_game_frames_difference_by_hand() -> None:
    # Run b is run a with every game 2 hands longer: hands per game 14 − 12 = 2, and per game
    # (h + 2 − 14) − (h − 12) = 0, so the paired interval has no width.
    games = partnership_games()
    longer = games.assign(hands=games["hands"] + 2, seat_hands_0=2 * (games["hands"] + 2),
                          seat_hands_1=2 * (games["hands"] + 2))
    table = compare_game_frames({"a": games, "b": longer})
    row = select(table, "hands_per_game").set_index("run").loc["b"]
    assert (row["value"], row["difference"], row["diff_low"], row["diff_high"]) == \
        pytest.approx((14.0, 2.0, 2.0, 2.0), rel=EXACT)
    # bags per side-hand: 82/120 against 82/140
    row = select(table, "bags").set_index("run").loc["b"]
    assert row["difference"] == pytest.approx(82 / 140 - 82 / 120, rel=EXACT)
    assert row["diff_low"] < row["difference"] < row["diff_high"]


def test_compare_game_frames_refuses_runs_of_different_lengths() -> None:
    games = partnership_games()
    with pytest.raises(ValueError, match=r"games=\[4, 5\]"):
        compare_game_frames({"a": games, "b": games.iloc[:4]})


# ---------------------------------------------------------------- economics


def test_payouts_partnership() -> None:
    # pool 4 × 85 = 340 shared by the 2 winning players: 170 each; break-even 100/170.
    payouts = Payouts(buy_in=100, rake=0.15, seats=4, sides=2)
    assert payouts.net == pytest.approx(85.0, rel=EXACT)
    assert payouts.second == 0.0
    assert payouts.first == pytest.approx(170.0, rel=EXACT)
    assert payouts.break_even() == pytest.approx(100 / 170, rel=EXACT)
    assert payouts.expected_profit(0.6) == pytest.approx(0.6 * 170 - 100, rel=EXACT)  # 2.0
    assert payouts.expected_profit(0.6) == pytest.approx(2.0, rel=1e-9)
    # an unfinished game pays the 85 back: −15
    assert payouts.expected_profit(0.0, unfinished=1.0) == pytest.approx(-15.0, rel=EXACT)
    # no rake: 200 to each winner, break-even one half
    assert Payouts(100, 0.0, 4, 2).first == 200.0
    assert Payouts(100, 0.0, 4, 2).break_even() == 0.5


def test_payouts_two_player() -> None:
    # pool 2 × 85 to the one winner; no second place at a table of two.
    payouts = Payouts(100, 0.15, 2, 2)
    assert payouts.second == 0.0
    assert payouts.first == pytest.approx(170.0, rel=EXACT)
    assert payouts.break_even() == pytest.approx(100 / 170, rel=EXACT)


def test_payouts_solo() -> None:
    # pool 4 × 85 = 340; second gets its 85 back, the winner the other 255.
    payouts = Payouts(100, 0.15, 4, 4)
    assert payouts.second == pytest.approx(85.0, rel=EXACT)
    assert payouts.first == pytest.approx(255.0, rel=EXACT)
    assert payouts.expected_profit(0.3, second=0.25) == \
        pytest.approx(0.3 * 255 + 0.25 * 85 - 100, rel=1e-9)  # −2.25
    assert payouts.expected_profit(0.3, second=0.25) == pytest.approx(-2.25, rel=1e-9)
    assert payouts.break_even(second=0.25) == pytest.approx((100 - 21.25) / 255, rel=EXACT)
    assert payouts.expected_profit(payouts.break_even(second=0.25), second=0.25) == \
        pytest.approx(0.0, abs=1e-9)


def test_payouts_three_player() -> None:
    # pool 3 × 85 = 255: second 85, first 170.
    payouts = Payouts(100, 0.15, 3, 3)
    assert payouts.second == pytest.approx(85.0, rel=EXACT)
    assert payouts.first == pytest.approx(170.0, rel=EXACT)


def test_payouts_profit_per_game() -> None:
    payouts = Payouts(100, 0.15, 4, 4)
    profit = payouts.profit(np.array([1.0, 0.0, 0.0, 0.0]), np.array([0.0, 1.0, 0.0, 0.0]),
                            np.array([0.0, 0.0, 1.0, 0.0]))
    # win 255−100, second 85−100, unfinished 85−100, last −100
    assert profit.tolist() == pytest.approx([155.0, -15.0, -15.0, -100.0], rel=EXACT)


def test_economics_partnership() -> None:
    table = economics(partnership_games(), 100, 0.15, seats=4, labels={0: "expert"})
    assert table["side"].tolist() == [0, 1]
    assert table["label"].tolist() == ["expert", "side 1"]
    # side 0 per game: won +70, lost −100, won +70, unfinished −15, won +70 -> mean 95/5 = 19;
    # side 1: −100, +70, −100, −15, −100 -> −245/5 = −49. Both have squared deviations
    # 51²·3 + 119² + 34² = 23120, sample variance 5780, standard error sqrt(5780/5) = 34.
    assert table["win_rate"].tolist() == pytest.approx([3 / 5, 1 / 5], rel=EXACT)
    assert table["second_rate"].tolist() == [0.0, 0.0]  # no second place in partnership
    assert table["profit"].tolist() == pytest.approx([19.0, -49.0], rel=EXACT)
    assert table["low"].tolist() == pytest.approx([19 - 34 * Z, -49 - 34 * Z], rel=1e-9)
    assert table["high"].tolist() == pytest.approx([19 + 34 * Z, -49 + 34 * Z], rel=1e-9)
    # break-even with 1 unfinished game in 5 paying 85: (100 − 0.2·85)/170 = 83/170
    assert table["break_even"].tolist() == pytest.approx([83 / 170, 83 / 170], rel=EXACT)


def test_economics_solo() -> None:
    table = economics(solo_games(), 100, 0.15, seats=4)
    assert table["label"].tolist() == ["side 0", "side 1", "side 2", "side 3"]
    # wins: side 2 (game 0), side 0 (game 1), side 3 (game 3); seconds: side 1 (games 0, 3),
    # side 3 (game 1); game 2 unfinished pays everyone 85.
    assert table["win_rate"].tolist() == pytest.approx([0.25, 0.0, 0.25, 0.25], rel=EXACT)
    assert table["second_rate"].tolist() == pytest.approx([0.0, 0.5, 0.0, 0.25], rel=EXACT)
    # side 0: −100 + 155 − 15 − 100 = −60;  side 1: −15 − 100 − 15 − 15 = −145;
    # side 2: 155 − 100 − 15 − 100 = −60;   side 3: −100 − 15 − 15 + 155 = 25   (over 4 games)
    assert table["profit"].tolist() == pytest.approx([-15.0, -36.25, -15.0, 6.25], rel=EXACT)
    # side 3: deviations −106.25, −21.25, −21.25, 148.75 square to 34318.75.
    half = Z * math.sqrt(34318.75 / 3 / 4)
    assert (table.loc[3, "low"], table.loc[3, "high"]) == \
        pytest.approx((6.25 - half, 6.25 + half), rel=1e-9)
    # (100 − second·85 − 0.25·85) / 255
    assert table["break_even"].tolist() == pytest.approx(
        [78.75 / 255, 36.25 / 255, 78.75 / 255, 57.5 / 255], rel=EXACT)


def test_economics_refuses_a_bad_buy_in() -> None:
    with pytest.raises(EconomicsError, match=r"^buy-in="):
        economics(partnership_games(), 0, 0.15, seats=4)


def test_parse_rake() -> None:
    assert parse_rake("15%") == 0.15
    assert parse_rake("0.15") == 0.15
    assert parse_rake("0") == 0.0
    assert parse_rake("0%") == 0.0
    for text in ("1.5", "abc", "-5%", "100%", "1", "", "nan"):
        with pytest.raises(EconomicsError, match=r"^rake=") as caught:
            parse_rake(text)
        assert isinstance(caught.value, ValueError)
        assert repr(text) in str(caught.value)


def test_check_buy_in() -> None:
    check_buy_in(100)
    check_buy_in(0.5)
    for bad in (0, -5, float("nan"), float("inf")):
        with pytest.raises(EconomicsError, match=r"^buy-in="):
            check_buy_in(bad)


@pytest.mark.parametrize(("win", "pairs"), [(0.5, 40), (0.9, 40), (0.8, 200)])
def test_a_duplicate_win_share_interval_stays_in_range_and_covers(win: float, pairs: int) -> None:
    """Pairs of games each won with chance ``win``: the share's interval never leaves [0, 1] and
    covers ``win`` in 93-97% of 4,000 seeded runs (the normal interval on the pair means left
    the range in 5.6% of them at 0.9 and 40 pairs, and covered 89.3%)."""
    rng = np.random.default_rng(7)
    covered = 0
    for _ in range(4_000):
        shares = ((rng.random(pairs) < win).astype(float) + (rng.random(pairs) < win)) / 2
        mean, low, high = share_interval(shares)
        assert 0.0 <= low <= mean <= high <= 1.0
        covered += low <= win <= high
    assert 0.93 <= covered / 4_000 <= 0.97


def test_a_lopsided_duplicate_share_keeps_its_interval_in_range() -> None:
    shares = np.array([0.0] * 48 + [0.5, 1.0])  # the normal interval: [-0.0109, 0.0709]
    mean, low, high = share_interval(shares)
    assert mean == 0.03 and 0.0 < low < mean < high < 1.0
    assert paired_interval(shares)[1] < 0.0
    assert share_interval(np.full(5, 1.0)) == (1.0, 1.0, 1.0)  # pairs alike: zero width

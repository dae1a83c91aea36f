"""The catalogue of metrics: one definition evaluated the same way everywhere, and intervals that
cover as often as they claim.

The coverage tests cut long seeded runs into 1,000 short runs of consecutive hands or games
(each hand and each game is dealt from its own counter, so the short runs are independent
seeded runs) and count how often each short run's 95% interval holds the value of a separate
run many times longer. With 1,000 runs per kind the share covered by a true 95% interval has a
standard deviation of 0.7 points, so the band 93–97% is ±2.9 of them; the long run's own error
is under 3% of a short run's interval.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from spades_sim import simulate_games, simulate_hands
from spades_sim.analysis.metrics import compare_game_frames, game_metrics, hand_metrics
from spades_sim.intervals import ratio_difference
from spades_sim.kernel import drivers
from spades_sim.kernel.drivers import HAND_UNIT_COLUMNS, hand_unit_table, metric_sums
from spades_sim.kernel.strategies import load_strategy
from spades_sim.rules import RuleSet
from spades_sim.run.catalogue import CATALOGUE, METRICS, RUN_KINDS, Units, frame_units, sums_of

RUNS = 1_000
"""Short runs per interval kind."""
STRATEGIES = ["expert", "basic"]
"""The table of every coverage run: the basic side bids blind nil often enough to measure."""


# ---------------------------------------------------------------- the catalogue as data


def test_every_metric_reads_columns_its_runs_have() -> None:
    hands = frame_units(simulate_hands("standard", STRATEGIES, 50, seed=1,
                                       keep_records=True).records())
    games = frame_units(simulate_games("standard", STRATEGIES, 5, seed=1,
                                       keep_records=True).records())
    units = {"hands": hands, "games": games}
    assert len({m.key for m in CATALOGUE}) == len(CATALOGUE)
    for kind in RUN_KINDS:
        labels = [m.label for m in CATALOGUE if kind in m.runs]
        assert len(set(labels)) == len(labels), kind
    for metric in CATALOGUE:
        assert metric.interval in ("ratio", "proportion") and metric.runs
        assert metric.shown in ("pooled", "each", "both", "none")
        for kind in metric.runs:
            assert {metric.numerator, metric.denominator} <= set(units[kind].columns), metric.key


def test_the_docs_list_every_metric() -> None:
    text = (Path(__file__).parent.parent / "docs" / "analysis.md").read_text()
    for metric in CATALOGUE:
        assert f"| `{metric.key}` | {metric.label} | {metric.unit} |" in text, metric.key


# ---------------------------------------------------------------- streaming = frames


@pytest.mark.usefixtures("small_blocks")
@pytest.mark.parametrize("preset", ["standard", "solo"])
def test_the_streaming_summary_equals_the_record_frame_metrics(preset: str) -> None:
    """One seeded run of several blocks: simulate's totals, added block by block, and the
    catalogue on the run's record frame give the same table, key by key and side by side."""
    for run, metrics in ((simulate_hands(preset, STRATEGIES, 3_500, seed=21, keep_records=True),
                          hand_metrics),
                         (simulate_games(preset, STRATEGIES, 160, seed=21, keep_records=True),
                          game_metrics)):
        frame = run.records()
        sides = run.rules.side_count
        for side in (None, *range(sides)):
            streamed, framed = run.summary(side), metrics(frame, side)
            assert len(streamed) >= 10
            pd.testing.assert_frame_equal(streamed, framed)


def test_a_blocks_metric_sums_by_hand() -> None:
    """Two units, two sides: column 0 per side (1, 2 then 3, 0), column 1 a count per unit (4
    then 5, in side 0); the metric column 0 over column 1. Pooled y = 3, 3 over x = 4, 5: Σy 6,
    Σy² 18, Σx 9, Σx² 41, Σxy 27; side 0 y = 1, 3: 4, 10, 9, 41, 19; side 1 y = 2, 0: 2, 4, 9,
    41, 8."""
    columns = np.array([[[1, 2], [3, 0]], [[4, 0], [5, 0]]], np.int32)
    index = np.array([0], np.int64)
    out = metric_sums(columns, np.array([1, 0], np.int64), index, index + 1)
    assert out[:, 0].tolist() == [[6, 18, 9, 41, 27], [4, 10, 9, 41, 19], [2, 4, 9, 41, 8]]
    with pytest.raises(ValueError, match="numerators, denominators"):
        metric_sums(columns, np.array([1, 0], np.int64), index, index + 2)
    with pytest.raises(ValueError, match="per_side: allowed a 1-D int64 array"):
        metric_sums(columns, np.array([1, 0], np.int32), index, index + 1)



def test_metric_sums_over_many_tiles_equal_numpys() -> None:
    """1,000 units (tiles of 256 and a partial one), three sides, a count column: every sum
    equals numpy's, exactly (whole numbers)."""
    rng = np.random.default_rng(3)
    columns = rng.integers(-20, 30, (3, 1_000, 3)).astype(np.int32)
    columns[2, :, 1:] = 0  # a count per unit, in side 0
    per_side = np.array([1, 1, 0], np.int64)
    numerators, denominators = np.array([0, 1, 0], np.int64), np.array([1, 2, 2], np.int64)
    out = metric_sums(columns, per_side, numerators, denominators)

    def values(name: int, selection: int) -> np.ndarray:
        column = columns[name].astype(np.float64)
        if not per_side[name]:
            return column[:, 0]
        return column.sum(axis=1) if selection == 0 else column[:, selection - 1]

    for selection in range(4):
        for metric, (top, bottom) in enumerate(zip(numerators, denominators, strict=True)):
            y, x = values(top, selection), values(bottom, selection)
            expected = [y.sum(), (y * y).sum(), x.sum(), (x * x).sum(), (x * y).sum()]
            assert out[selection, metric].tolist() == expected, (selection, metric)


@pytest.mark.parametrize("threads", [1, 2])
def test_hand_sums_from_records_equal_the_unit_tables(monkeypatch: pytest.MonkeyPatch,
                                                      threads: int) -> None:
    """A block's sums taken straight from the records, in chunks of 300 hands (tiles of 256 and
    partial ones) on one or two threads, are the sums of its unit table, to the bit."""
    rng = np.random.default_rng(5)
    units = 1_000
    columns = {name: rng.integers(0, 6, (units, 4)) for name in ("bid", "tricks")}
    columns["blind"] = (rng.random((units, 4)) < 0.1).astype(np.int64)
    for name, low, high in (("contract", 0, 14), ("made", 0, 2), ("points", -300, 300),
                            ("bags", 0, 6), ("penalty", 0, 2)):
        columns[name] = rng.integers(low, high, (units, 2))
    columns["penalty"] *= 100
    numerators, denominators = np.arange(16, dtype=np.int64), np.arange(16, dtype=np.int64)[::-1]
    table = hand_unit_table(**columns)
    expected = metric_sums(table, np.ones(16, np.int64), numerators, denominators.copy())
    monkeypatch.setattr(drivers, "CHUNK_HANDS", 300)
    saved = drivers.threads()
    drivers.set_threads(threads)
    try:
        got = drivers.hand_metric_sums(numerators, denominators.copy(), **columns)
    finally:
        drivers.set_threads(saved)
    assert np.array_equal(got, expected)

def test_a_hand_blocks_unit_table_by_hand() -> None:
    """Hand 0: bids nil, 3, 2, 4, tricks 0, 4, 3, 6: side 0's nil made and its contract of 2 made
    with 3 (contract minus tricks -1), side 1's 7 made with 10 (-3). Hand 1: seat 0 blind nil
    taking a trick, seat 1 nil taking none, tricks 1, 0, 9, 3: side 0's 5 made with 9 (-4),
    side 1's 4 set with 3 (+1)."""
    table = hand_unit_table(
        bid=np.array([[0, 3, 2, 4], [0, 0, 5, 4]]), blind=np.array([[0, 0, 0, 0], [1, 0, 0, 0]]),
        tricks=np.array([[0, 4, 3, 6], [1, 0, 9, 3]]), contract=np.array([[2, 7], [5, 4]]),
        made=np.array([[1, 1], [1, 0]]), points=np.array([[121, 67], [-60, 60]]),
        bags=np.array([[1, 3], [4, 0]]), penalty=np.array([[0, 0], [100, 0]]))
    rows = {name: table[i].tolist() for i, name in enumerate(HAND_UNIT_COLUMNS)}
    assert rows == {
        "seat_hands": [[2, 2], [2, 2]], "side_hands": [[1, 1], [1, 1]],
        "bid_sum": [[2, 7], [5, 4]], "nil_bids": [[1, 0], [0, 1]], "nil_made": [[1, 0], [0, 1]],
        "blind_bids": [[0, 0], [1, 0]], "blind_made": [[0, 0], [0, 0]],
        "contracts": [[1, 1], [1, 1]], "made": [[1, 1], [1, 0]], "set": [[0, 0], [0, 1]],
        "bid_minus": [[-1, -3], [-4, 1]], "bid_error": [[1, 3], [4, 1]],
        "bags": [[1, 3], [4, 0]], "penalty": [[0, 0], [100, 0]], "penalised": [[0, 0], [1, 0]],
        "points": [[121, 67], [-60, 60]]}
    with pytest.raises(ValueError, match="hand unit columns"):
        hand_unit_table(bid=np.zeros((2, 4)), blind=np.zeros((2, 4)), tricks=np.zeros((2, 4)),
                        contract=np.zeros((2, 3)), made=np.zeros((2, 3)), points=np.zeros((2, 3)),
                        bags=np.zeros((2, 3)), penalty=np.zeros((2, 3)))


# ---------------------------------------------------------------- coverage


def _coverage(short: list[Units], truth: Units, chosen: list[tuple[str, int | None]]
              ) -> tuple[float, dict[str, float]]:
    """The share of short runs whose interval holds the long run's value, over every chosen
    (metric, side), and per metric."""
    hits, per_metric = [], {}
    for key, side in chosen:
        metric = METRICS[key]
        sides = None if side is None else [side]
        target = sums_of(truth, metric, sides).estimate(metric.interval, metric.percent)[0]
        covered = []
        for units in short:
            _, low, high = sums_of(units, metric, sides).estimate(
                metric.interval, metric.percent, metric.nonnegative)
            if not math.isnan(low):
                covered.append(low <= target <= high)
        assert len(covered) > 0.9 * len(short), key  # nearly every short run has a value
        per_metric[f"{key}:{side}"] = float(np.mean(covered))
        hits += covered
    return float(np.mean(hits)), per_metric


def _assert_covers(share: float, per_metric: dict[str, float]) -> None:
    assert 0.93 <= share <= 0.97, (share, per_metric)


SHORT_GAMES = 40
"""Games of a short run. The delta method's interval is a large-sample one: at 25 games it
covers about 93.7%, a little short."""
PROPORTION_GAMES = 50
"""Games of a short run for proportions (the Wilson interval of a rate near 0 or 1 in 25 trials
covers less than 95% by its discreteness)."""


@pytest.fixture(scope="module")
def game_runs() -> dict[str, Units]:
    """The games of two rule sets on the same deals (same seed): the first 40,000 (50,000 for
    proportions) for the short runs, the rest for the long one."""
    rules = {"standard": (RuleSet(), 100_000), "nil 50": (RuleSet(nil_value=50), 90_000)}
    return {label: frame_units(simulate_games(rule_set, STRATEGIES, games, seed=77,
                                              keep_records=True).records())
            for label, (rule_set, games) in rules.items()}


def _short_and_long(units: Units, size: int, end: int | None = None
                    ) -> tuple[list[Units], Units]:
    """``RUNS`` short runs of ``size`` units from the start, and the long run of the units
    after them (up to ``end``)."""
    short = [units.rows(k * size, (k + 1) * size) for k in range(RUNS)]
    return short, units.rows(RUNS * size, end)


def test_proportions_of_games_cover_95_percent(game_runs: dict[str, Units]) -> None:
    short, long = _short_and_long(game_runs["standard"], PROPORTION_GAMES)
    _assert_covers(*_coverage(short, long, [("win_rate", 0), ("win_rate", 1),
                                            ("decided_by_penalty", None)]))


def test_per_hand_figures_of_a_game_run_cover_95_percent(game_runs: dict[str, Units]) -> None:
    """Blind nils cluster in games (a side far behind bids them hand after hand): the game is
    the unit, and the blind-nil bid rate covers as the others do."""
    short, long = _short_and_long(game_runs["standard"], SHORT_GAMES)
    share, per_metric = _coverage(short, long, [
        ("nil_bid_rate", None), ("nil_success", None), ("blind_bid_rate", None),
        ("blind_success", None), ("make_rate", None), ("bid_error", None), ("bags", None),
        ("points", None), ("blind_bid_rate", 1)])
    _assert_covers(share, per_metric)
    assert 0.92 <= per_metric["blind_bid_rate:None"] <= 0.98, per_metric


RARE_BLIND_NIL = load_strategy(Path(__file__).parent.parent / "examples" / "expert-before-tuning.toml")
"""``expert`` with the nil parameters of before its tuning, which bids blind nil rarely (the
tuned one, about four times as often, is no rare rate)."""
EXPERT_BLIND_NIL_RATE = 0.003105627
"""The blind nil bid rate of :data:`RARE_BLIND_NIL` at every seat under ``standard``, from
``spades-sim simulate --strategy examples/expert-before-tuning.toml --games 1000000 --seed 4343
--format json`` (38,333,320 seat-hands; its own interval [0.30887%, 0.31227%] is 1% of a 40-game
run's)."""


def test_a_rare_rate_in_small_runs_covers_95_percent() -> None:
    """Blind nils of :data:`RARE_BLIND_NIL` at every seat: some 5 in a run of 40 games, often 2
    or fewer, and clustered in the games where a side falls far behind. The delta method's
    interval covered 89% here and went below 0; the Wilson interval on the trials the games are
    worth stays within [0, 1] and covers 93–97%."""
    units = frame_units(simulate_games("standard", [RARE_BLIND_NIL], RUNS * SHORT_GAMES, seed=43,
                                       keep_records=True).records())
    metric = METRICS["blind_bid_rate"]
    covered, events = [], []
    for k in range(RUNS):
        sums = sums_of(units.rows(k * SHORT_GAMES, (k + 1) * SHORT_GAMES), metric)
        _, low, high = sums.estimate(metric.interval, metric.percent)
        assert 0 <= low <= high <= 1
        covered.append(low <= EXPERT_BLIND_NIL_RATE <= high)
        events.append(sums.y)
    assert np.median(events) <= 5  # rare: a typical run has a handful
    assert 0.93 <= float(np.mean(covered)) <= 0.97, float(np.mean(covered))


def test_pooled_figures_of_a_hand_run_cover_95_percent() -> None:
    """The two sides of a hand share its tricks: bags and bid errors of one hand are not two
    independent draws, and with the hand as the unit their intervals cover 95%."""
    short_hands = 100
    units = frame_units(simulate_hands("standard", STRATEGIES, RUNS * short_hands + 300_000,
                                       seed=78, keep_records=True).records())
    short, long = _short_and_long(units, short_hands)
    share, per_metric = _coverage(short, long, [
        ("bags", None), ("bid_error", None), ("bid_minus_tricks", None), ("make_rate", None),
        ("points", None), ("nil_bid_rate", None), ("nil_success", None)])
    _assert_covers(share, per_metric)
    for key in ("bags:None", "bid_error:None"):
        assert 0.92 <= per_metric[key] <= 0.98, per_metric


def test_paired_differences_cover_95_percent(game_runs: dict[str, Units]) -> None:
    """Nil worth 50 against 100 on the same deals: the paired interval of each difference,
    game g against game g, holds the long run's difference 95% of the time."""
    (short_a, long_a), (short_b, long_b) = (_short_and_long(game_runs[label], SHORT_GAMES, 90_000)
                                            for label in ("nil 50", "standard"))
    hits = []
    for key, side in (("win_rate", 0), ("points", None), ("bags", None), ("nil_bid_rate", None),
                      ("make_rate", None)):
        sides = None if side is None else [side]
        metric = METRICS[key]
        target = ratio_difference(*long_a.pair(metric, sides), *long_b.pair(metric, sides))[0]
        assert abs(target) > 0 or key == "win_rate"
        for a, b in zip(short_a, short_b, strict=True):
            _, low, high = ratio_difference(*a.pair(metric, sides), *b.pair(metric, sides))
            if not math.isnan(low):
                hits.append(low <= target <= high)
    assert 0.93 <= float(np.mean(hits)) <= 0.97


def test_compare_game_frames_uses_the_same_paired_difference() -> None:
    """The comparison table's differences are those the coverage test measures."""
    frames = {label: simulate_games(rules, STRATEGIES, 60, seed=5, keep_records=True).records()
              for label, rules in (("standard", RuleSet()), ("nil 50", RuleSet(nil_value=50)))}
    table = compare_game_frames(frames)
    row = table[(table["run"] == "nil 50") & (table["key"] == "points")].iloc[0]
    a, b = frame_units(frames["nil 50"]), frame_units(frames["standard"])
    expected = ratio_difference(*a.pair(METRICS["points"]), *b.pair(METRICS["points"]))
    assert (row["difference"], row["diff_low"], row["diff_high"]) == expected

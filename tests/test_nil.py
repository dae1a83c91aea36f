"""Nil success by hand feature: the table on hand-made frames, and ``spades-sim nil``."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from clirun import assert_ok, assert_one_line_error, invoke

from spades_sim.analysis.nil import FEATURES, feature_values, nil_by_feature, nil_columns
from spades_sim.intervals import wilson_interval
from spades_sim.run.simulate import simulate_hands

# Seven seat-hands. Plain nils: rows 0 (made), 2 (set), 3 (made) and 5 (made); row 6 is a
# blind nil, which the table leaves out; rows 1 and 4 bid 3 and 4.
FRAME = pd.DataFrame({
    "bid": [0, 3, 0, 0, 4, 0, 0],
    "blind": [0, 0, 0, 0, 0, 0, 1],
    "tricks": [0, 3, 1, 0, 4, 0, 0],
    "spades": [0, 0, 1, 1, 1, 2, 2],
    "top_spade": [-1, -1, 3, 9, 12, 5, 2],
    "voids": [1, 0, 0, 0, 0, 0, 0],
    "aces": [0, 1, 0, 0, 2, 0, 0],
    "kings": [0, 1, 1, 0, 1, 0, 0],
    "nil_risk": np.array([0.0, 3.6, 0.8, 0.3, 4.9, 0.5, 0.0], dtype=np.float32),
})


def test_nil_by_spades_counts_and_intervals() -> None:
    """0 spades: 2 hands, 1 nil, made. 1 spade: 3 hands, 2 nils, 1 made. 2 spades: 2 hands, 1
    plain nil (the blind one is left out), made."""
    table = nil_by_feature(FRAME, "spades")
    assert table["spades"].tolist() == [0, 1, 2]
    assert table["seat_hands"].tolist() == [2, 3, 2]
    assert table["bids"].tolist() == [1, 2, 1]
    assert table["made"].tolist() == [1, 1, 1]
    assert table["success"].tolist() == [1.0, 0.5, 1.0]
    assert table["bid_rate"].tolist() == pytest.approx([0.5, 2 / 3, 0.5])
    row = table.iloc[1]
    assert (row["low"], row["high"]) == pytest.approx(wilson_interval(1, 2))
    assert (row["bid_low"], row["bid_high"]) == pytest.approx(wilson_interval(2, 3))


@pytest.fixture(scope="module")
def expert_run():
    return simulate_hands("standard", "expert", 300, seed=5, keep_records=True)


@pytest.mark.parametrize("blind", [False, True])
@pytest.mark.parametrize("feature", sorted(FEATURES))
def test_the_nil_columns_are_all_a_table_reads(expert_run, feature: str, blind: bool) -> None:
    # The report and the nil command count nils from these columns of a run's records alone.
    run = expert_run
    whole = run.records()
    some = run.records(nil_columns(feature))
    assert list(some.columns) == nil_columns(feature)
    pd.testing.assert_frame_equal(some, whole[nil_columns(feature)])
    pd.testing.assert_frame_equal(nil_by_feature(some, feature, blind),
                                  nil_by_feature(whole, feature, blind))


def test_feature_values() -> None:
    assert feature_values(FRAME, "aces_kings").tolist() == [0, 2, 1, 0, 3, 0, 0]
    # Steps of 0.25, rounded down; the float32 0.3 and 0.5 land in 0.25 and 0.5.
    assert feature_values(FRAME, "nil_risk").tolist() == [0.0, 3.5, 0.75, 0.25, 4.75, 0.5, 0.0]
    table = nil_by_feature(FRAME, "voids")
    assert table["voids"].tolist() == [0, 1]
    assert table["bids"].tolist() == [3, 1]
    assert np.isnan(nil_by_feature(FRAME, "aces_kings").set_index("aces_kings").loc[3, "success"])


def test_unknown_feature_is_refused() -> None:
    with pytest.raises(ValueError, match="by='clubs': allowed spades, top_spade"):
        nil_by_feature(FRAME, "clubs")


def test_nil_command_prints_and_writes_the_table_and_figure(tmp_path: Path) -> None:
    data, figure = tmp_path / "nil.csv", tmp_path / "nil.svg"
    result = invoke(["nil", "--hands", "3000", "--seed", "2", "--quiet", "--by", "spades",
                     "--out", str(data), "--figure", str(figure)])
    assert_ok(result)
    lines = result.output.splitlines()
    assert lines[0] == "rules standard, strategy expert, seed 2: 3,000 hands"
    assert lines[-2:] == [f"wrote {figure}", f"wrote {data}"]
    expected = nil_by_feature(simulate_hands("standard", "expert", 3000, seed=2,
                                             keep_records=True).records(), "spades")
    written = pd.read_csv(data)
    assert list(written.columns) == list(expected.columns)
    pd.testing.assert_frame_equal(written, expected, check_dtype=False)
    assert len(lines) == 2 + len(expected) + 2  # title, header, a row per value, two "wrote"
    assert expected["seat_hands"].sum() == 4 * 3000
    svg = figure.read_text()
    for label in ("nils made (%)", "bid nil (%)", FEATURES["spades"], "95% interval"):
        assert label in svg


@pytest.mark.parametrize(("args", "message"), [
    (["--by", "clubs"], "by='clubs': allowed " + ", ".join(FEATURES)),
    (["--figure", "nil.txt"], "figure='nil.txt': allowed a file ending in .png or .svg"),
    (["--out", "nil.txt"], "out='nil.txt': allowed a file ending in .parquet, .csv or .json, "
                           "or - for stdout"),
    (["--hands", "0"], "hands=0: allowed 1 to 10,000,000,000"),
])
def test_nil_command_bad_input(args: list[str], message: str) -> None:
    assert_one_line_error(invoke(["nil", "--quiet", *args]), message)


def test_figure_of_rates_at_0_and_100_percent(tmp_path: Path) -> None:
    """Most top_spade values of FRAME bid nil always or never: the error bars still draw (with
    a minimum of one case, as FRAME has one or two a value)."""
    from spades_sim.analysis.nil import plot_nil_by_feature

    path = tmp_path / "top.svg"
    table = nil_by_feature(FRAME, "top_spade")
    assert set(table["bid_rate"]) == {0.0, 0.5, 1.0}
    plot_nil_by_feature(table, "top_spade", "frame", str(path), min_cases=1)
    assert FEATURES["top_spade"] in path.read_text()


def test_blind_nils_by_feature() -> None:
    """Only row 6 of FRAME is a blind nil: 2 spades, no trick taken."""
    table = nil_by_feature(FRAME, "spades", blind=True)
    assert table["seat_hands"].tolist() == [2, 3, 2]
    assert table["bids"].tolist() == [0, 0, 1]
    assert table["made"].tolist() == [0, 0, 1]
    assert np.isnan(table["success"][0]) and table["success"][2] == 1.0


def test_nil_command_blind(tmp_path: Path) -> None:
    """Blind nils from 0-0: side 0's first bidder (expert-v1, told to go blind whatever the
    score) bids blind nil in every hand."""
    data, figure = tmp_path / "bn.csv", tmp_path / "bn.svg"
    rules = ["--rule", "blind_nil=anytime", "--strategy", "expert-v1", "--param",
             "0.blind_nil_deficit=0", "--param", "0.blind_nil_near=10000"]
    result = invoke(["nil", "--blind", *rules, "--hands", "2000", "--seed", "3", "--quiet",
                     "--out", str(data), "--figure", str(figure)])
    assert_ok(result)
    written = pd.read_csv(data)
    assert written["bids"].sum() == 2000
    from spades_sim.kernel.strategies import get_strategy
    from spades_sim.rules import load_preset

    strategy = get_strategy("expert-v1").variant({"blind_nil_deficit": 0,
                                                  "blind_nil_near": 10000})
    run = simulate_hands(load_preset("standard").replace(blind_nil="anytime"),
                         [strategy, "expert-v1"], 2000, seed=3, keep_records=True)
    expected = nil_by_feature(run.records(), "spades", blind=True)
    pd.testing.assert_frame_equal(written, expected, check_dtype=False)
    assert "blind nils made (%)" in figure.read_text()

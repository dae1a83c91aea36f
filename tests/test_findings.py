"""What a report says it found: each section opens with sentences written from its own tables,
and every number of a sentence is a value of the rows it names in the CSV beside the page; a
difference whose paired interval holds 0 is said to be no measurable difference; what the rules
cannot play is left out and named; the game for equal players counts comebacks."""

from __future__ import annotations

import html
import math
import re
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from spades_sim.analysis.findings import MINUS, across_runs, quantity
from spades_sim.analysis.report import Study, run_study
from spades_sim.analysis.variants import (
    COMEBACK_DEFICIT,
    comeback_units,
    leave_out_unplayed,
    unplayed_metrics,
    unplayed_text,
)
from spades_sim.rules import load_preset

NAME_COLUMNS = ("run", "metric", "strategy", "opponent", "name")
"""The columns of the report's tables that hold names (which may have digits: "5 bags -50",
"expert-v1", "side 0 (seats 0+2, expert) win rate")."""

NUMBER = re.compile(r"[+\-\u2212]?\d[\d,]*(?:\.(\d+))?")


def _table(differences: list[tuple[float, float, float]]) -> pd.DataFrame:
    """A side-by-side table of one metric (a rate) under runs a, b, c, … with these paired
    differences from a."""
    rows = []
    for k, (difference, low, high) in enumerate([(0.0, 0.0, 0.0), *differences]):
        rows.append({"run": "abcdef"[k], "key": "win_rate", "side": 0,
                     "metric": "side 0 win rate", "unit": "rate", "value": 0.5 + difference,
                     "low": 0.48 + difference, "high": 0.52 + difference,
                     "difference": difference, "diff_low": low, "diff_high": high})
    return pd.DataFrame(rows)


def test_a_difference_whose_interval_holds_zero_is_no_measurable_difference() -> None:
    table = _table([(0.007, -0.001, 0.016), (-0.139, -0.154, -0.124), (0.0, 0.0, 0.0)])
    text = across_runs(table, "win_rate", 0, "With x against y,", "t.csv").text
    assert text == (
        "With x against y, side 0 win rate is 50.0% [48.0, 52.0] under a; "
        f"c 36.1% [34.1, 38.1] ({MINUS}13.9 percentage points [{MINUS}15.4, {MINUS}12.4]); "
        f"no measurable difference under b (+0.7 percentage points [{MINUS}0.1, +1.6]) and "
        "d (0.0 percentage points [0.0, 0.0]).")
    # A rule set that cannot play the row is named, not measured.
    named = across_runs(table, "win_rate", 0, "S", "t.csv", unplayed={"c": {"win_rate"}}).text
    assert named.endswith("; not played under c.") and "36.1%" not in named
    assert across_runs(table, "win_rate", 1, "S", "t.csv") is None  # no such row


def test_quantities_are_written_as_the_tables_round_them() -> None:
    assert quantity(0.0937325, 0.09288, 0.09459, "rate") == "9.4% [9.3, 9.5]"
    assert quantity(-1.3148, -1.3207, -1.3090, "tricks") == f"{MINUS}1.31 [{MINUS}1.32, {MINUS}1.31]"
    assert quantity(math.nan, math.nan, math.nan, "rate") == "n/a"


def test_what_the_rules_cannot_play_is_left_out_and_named() -> None:
    standard, classic = load_preset("standard"), load_preset("classic")
    assert unplayed_metrics(standard) == set()
    assert {"nil_bid_rate", "nil_success", "blind_bid_rate", "blind_success",
            "penalty_per_game", "decided_by_penalty"} <= unplayed_metrics(classic)
    # Each hand of a hand run is a game's first, from 0–0: no blind nil when it needs a deficit,
    # but one hand's tricks can reach 10 bags.
    assert unplayed_metrics(standard, "hands") == {"blind_bid_rate", "blind_success"}
    assert unplayed_metrics(standard.replace(blind_nil="anytime"), "hands") == set()
    assert "penalty_points" in unplayed_metrics(standard.replace(bag_limit=14), "hands")
    rows = [{"run": run, "key": key, "value": 0.5, "low": 0.4, "high": 0.6, "difference": 0.0,
             "diff_low": 0.0, "diff_high": 0.0}
            for run in ("no penalty", "classic") for key in ("nil_bid_rate", "penalty_per_game",
                                                             "points")]
    kept, unplayed = leave_out_unplayed(pd.DataFrame(rows), [standard.replace(bag_penalty=0),
                                                             classic], ["no penalty", "classic"])
    # Penalties: unplayed under both, so the row goes; nils: under classic only, left empty.
    assert set(kept["key"]) == {"nil_bid_rate", "points"}
    nil = kept[kept["key"] == "nil_bid_rate"].set_index("run")
    assert nil.loc["no penalty", "value"] == 0.5 and math.isnan(nil.loc["classic", "value"])
    assert unplayed_text(unplayed, ["nil_bid_rate", "penalty_per_game"]) == (
        "Not played under these rules (left out): no penalty: bag penalty points per game; "
        "classic: nil bids per seat-hand, bag penalty points per game.")


def test_a_comeback_is_a_win_after_trailing_by_the_deficit() -> None:
    """Four games of two sides. Game 0: side 1 trails by exactly the deficit, then side 0 does,
    and side 1 wins (two sides trailed, one came back). Game 1: side 0 trails by less and wins,
    side 1 trailed by more and lost. Game 2: side 0 trails by more and loses. Game 3 is
    unfinished: not counted."""
    deficit = COMEBACK_DEFICIT
    games = SimpleNamespace(winner=np.array([1, 0, 1, -1]), score=np.zeros((4, 2)))
    hands = SimpleNamespace(
        game=np.array([0, 0, 1, 1, 2, 3]),
        score=np.array([[deficit, 0], [deficit, 2 * deficit], [0, deficit - 10], [300, 50],
                        [0, deficit + 1], [deficit + 1, 0]]))
    came_back, trailed = comeback_units(games, hands)
    assert trailed.tolist() == [2, 1, 1, 0]
    assert came_back.tolist() == [1, 0, 0, 0]


def _rows(table: pd.DataFrame, pick: dict[str, object]) -> pd.DataFrame:
    rows = table
    for column, value in pick.items():
        rows = rows[rows[column].isna()] if value is None else rows[rows[column] == value]
    return rows


def _matches(text: str, candidates: list[float]) -> bool:
    """Whether a number as written is one of ``candidates`` (or 100 times one: a share in
    percent), rounded to the decimals written."""
    digits = len(text.split(".")[1]) if "." in text else 0
    value = float(text.replace(MINUS, "-").replace(",", ""))
    return any(abs(value - scale * candidate) <= 0.5 * 10 ** -digits + 1e-9
               for candidate in candidates for scale in (1, 100))


def test_every_sentence_quotes_the_numbers_of_its_table(tmp_path: Path) -> None:
    """A small study: every section opens with two to four sentences on the page (escaped), and every
    number in them (outside the names they quote) is a value of the rows each names in the
    CSV beside the page."""
    study = Study(name="found", seed=2, games=60, self_play_games=40, pairs=20, hands=2000,
                  rules=("standard", "classic"), bag_rules=("10:100", "5:50", "10:0"),
                  strategies=("expert", "basic", "conservative"), anchor="basic")
    report = run_study(study, tmp_path)
    page = report.index.read_text(encoding="utf-8")
    assert [section.heading for section in report.sections] == [
        "Rule variants", "Bag rules", "Strategies", "Bidding", "Nil"]
    checked = 0
    for section in report.sections:
        assert 2 <= len(section.findings) <= 4, section.heading
        opening = "".join(f"<li>{html.escape(finding.text)}</li>" for finding in section.findings)
        assert f'<h2 id="{section.anchor}">{section.heading}</h2><ul class="findings">{opening}</ul>' in page
        for finding in section.findings:
            table = pd.read_csv(report.folder / finding.source)
            rows = pd.concat([_rows(table, dict(pick)) for pick in finding.rows])
            assert len(rows) == len(finding.rows), finding.text  # each pick is one row
            names = {str(value) for column in NAME_COLUMNS if column in table.columns
                     for value in table[column].dropna()}
            text = finding.text
            for name in sorted(names, key=len, reverse=True):
                text = text.replace(name, " ")
            candidates = [float(value) for value in rows.select_dtypes("number").to_numpy().ravel()
                          if not math.isnan(value)]
            numbers = [match.group(0) for match in NUMBER.finditer(text)]
            assert numbers, finding.text
            wrong = [number for number in numbers if not _matches(number, candidates)]
            assert wrong == [], (finding.text, finding.source)
            checked += len(numbers)
    assert checked > 60
    # Classic has no nil and no bag penalty, named once under the section's sentences; the
    # bag section's sentence on penalties names the rule without one.
    assert "Not played under these rules (left out): classic: nil bids per seat-hand" in page
    assert "not played under no bag penalty." in page


@pytest.mark.parametrize("value", [0.0, -0.0001])
def test_a_zero_is_written_without_a_sign(value: float) -> None:
    assert quantity(value, value, value, "points") == "0.00 [0.00, 0.00]"

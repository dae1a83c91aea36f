"""spades-sim review (spades_sim.analysis.review) on a hand-built log whose mistakes are worked
out by hand, and the hand log's ``strategies`` field that labels its seats.

The deal (dealer 3, so seat 0 leads; standard rules):

    seat 0: AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S + AH   (twelve spades and the ace of hearts)
    seat 1: 2S + AD KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D   (the two of spades and twelve diamonds)
    seat 2: KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H + 2D   (twelve hearts and the two of diamonds)
    seat 3: the thirteen clubs

Seat 0 holds a heart, so it may not lead a spade to the first trick: it must lead AH. Seat 1,
void in hearts, either ruffs with 2S and wins the trick, or throws a diamond. Nothing else
in the hand matters: once seat 0 is on lead it holds only spades and wins every trick (2S
falls under its first spade); if seat 1 ruffed, it must lead a diamond, seat 2 follows with
2D and seat 0 ruffs. Seat 2 (hearts and 2D) and seat 3 (clubs) never win a trick.
So, double dummy, side 1 takes 1 trick if seat 1 ruffs and 0 if it does not, and every other
play of the hand is worth the same whatever the card.

Line 1, bids 10, 1, 2, nil (seat 3 nil, never at risk): seat 1 throws 3D. Side 1 loses its
one trick; in points: ruffing, side 0 makes 12 exactly (120) and side 1 makes its 1 (10)
and the nil (+100), a difference of 110 − 120 = −10 for side 1; throwing, side 0 takes 13
(120 + 1 bag) and side 1 is set (−10) with the nil made (+100): 90 − 121 = −31. Lost:
1 trick, 21 points; the better card is 2S.

Line 2, bids 10, nil, 2, 1 (seat 1 nil): seat 1 ruffs with 2S. Its nil could not be set
(it throws a diamond and never wins), and now it is: a nil lost. In points: throwing,
side 0 takes 13 (121) and side 1 makes the nil (+100) with seat 3's 1 set (−10): 90 − 121 =
−31; ruffing, side 0 takes 12 (120) and side 1 loses the nil (−100) and is set (−10):
−110 − 120 = −230. Lost: 199 points and the nil, no trick (the ruff is side 1's one trick);
the better card is the lowest diamond, 3D.

Line 3, the bids of line 1, seat 1 ruffs: no play loses anything.

Every other card of each line is each seat's lowest legal card.
"""

from __future__ import annotations

import dataclasses
import json
import math

import pytest
from clirun import assert_ok, assert_one_line_error, invoke
from refereeplay import auto_finish, log_of, play, write_lines

from spades_sim.analysis.review import UNKNOWN, ReviewError, review_file
from spades_sim.intervals import positive_ratio_interval, rate_interval
from spades_sim.referee import Hand, HandLog, LogError, score_file
from spades_sim.referee.replay import logged_hands
from spades_sim.rules import RuleSet

HANDS = (
    "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S AH",
    "2S AD KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D",
    "KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H 2D",
    "AC KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C 2C",
)


def hand_line(bids: tuple[int, int, int, int], seat_1_plays: str, **fields) -> HandLog:
    """The deal played out: bids, seat 0's forced AH, seat 1's card, then lowest cards."""
    hand = Hand(RuleSet(), 3, HANDS)
    for seat, bid in enumerate(bids):
        hand.bid(seat, bid)
    play(hand, "0 AH", f"1 {seat_1_plays}")
    return log_of(auto_finish(hand), **fields)


LINES = (
    hand_line((10, 1, 2, 0), "3D", strategies=("north", "east", "north", "east")),
    hand_line((10, 0, 2, 1), "2S", strategies=("north", "east", "north", "east")),
    hand_line((10, 1, 2, 0), "2S", strategies=("north", "east", "north", "east")),
)


@pytest.fixture
def log(tmp_path):
    return write_lines(tmp_path, LINES)


def test_the_worked_mistakes(log):
    result = review_file(log)
    assert [hand.line_number for hand in result.hands] == [1, 2, 3]
    assert [m.row() for m in result.mistakes] == [
        {"line": 1, "game": None, "hand": 0, "trick": 1, "seat": 1, "strategy": "east",
         "played": "3D", "better": "2S", "lost": "tricks+points", "tricks_lost": 1,
         "points_lost": 21, "nils_lost": "", "trick_so_far": "0 AH"},
        {"line": 2, "game": None, "hand": 0, "trick": 1, "seat": 1, "strategy": "east",
         "played": "2S", "better": "3D", "lost": "points+nil", "tricks_lost": 0,
         "points_lost": 199, "nils_lost": "1", "trick_so_far": "0 AH"},
    ]
    assert all(hand.plays == (13, 13, 13, 13) for hand in result.hands)
    assert result.plays == 3 * 52


def test_totals_per_seat_and_strategy(log):
    totals = review_file(log).totals().set_index("name")
    assert list(totals.index) == ["seat 0 (north)", "seat 1 (east)", "seat 2 (north)",
                                  "seat 3 (east)", "north", "east"]
    seat1 = totals.loc["seat 1 (east)"]
    assert (seat1["hands"], seat1["seat_hands"], seat1["plays"]) == (3, 3, 39)
    # Per seat-hand over the three hands (the units): mistakes 1, 1, 0; tricks 1, 0, 0;
    # points 21, 199, 0; nils 0, 1, 0; and 2 of the 39 plays.
    for column, per_hand, plays in (("mistakes", [1, 1, 0], None), ("tricks_lost", [1, 0, 0], None),
                                    ("points_lost", [21, 199, 0], None),
                                    ("nils_lost", [0, 1, 0], None),
                                    ("lost_share", [1, 1, 0], [13, 13, 13])):
        x = plays or [1, 1, 1]
        # Counts per seat-hand stay above 0 (log scale), the share of plays within [0, 1].
        interval = rate_interval if column == "lost_share" else positive_ratio_interval
        expected = interval(sum(per_hand), sum(x), sum(y * y for y in per_hand),
                            sum(v * v for v in x), sum(a * b for a, b in zip(per_hand, x)), 3)
        assert 0 <= expected[1] <= expected[2]
        assert seat1[column] == pytest.approx(expected[0])
        assert seat1[f"{column}_low"] == pytest.approx(expected[1])
        assert seat1[f"{column}_high"] == pytest.approx(expected[2])
    east = totals.loc["east"]  # seats 1 and 3: each hand one unit of two seat-hands
    assert (east["hands"], east["seat_hands"], east["plays"]) == (3, 6, 78)
    assert east["mistakes"] == pytest.approx(2 / 6)
    assert east["points_lost"] == pytest.approx(220 / 6)
    north = totals.loc["north"]
    assert north["mistakes"] == 0 and north["mistakes_high"] == 0


def test_strategies_named_by_the_caller_or_unknown(tmp_path, log):
    named = review_file(log, strategies=["a", "b", "c", "d"]).totals()
    assert list(named["name"])[-4:] == ["a", "b", "c", "d"]
    bare = write_lines(tmp_path, [dataclasses.replace(line, strategies=None) for line in LINES])
    totals = review_file(bare).totals()
    assert list(totals["name"]) == ["seat 0 (unknown)", "seat 1 (unknown)", "seat 2 (unknown)",
                                    "seat 3 (unknown)", UNKNOWN]
    with pytest.raises(ReviewError, match=r"allowed 4 names, one per seat"):
        review_file(log, strategies=["a", "b"])


def test_the_strategies_field_round_trips_and_leaves_other_bits_alone():
    line = LINES[0]
    text = line.dumps()
    assert HandLog.loads(text) == line
    without = dataclasses.replace(line, strategies=None).dumps()
    # The field is the line's last key: without it the line is what it always was.
    assert text == without[:-1] + ', "strategies": ["north", "east", "north", "east"]}'
    assert "strategies" not in without


@pytest.mark.parametrize("value", [["a", "b"], ["a", "b", "c", 4], ["a", "", "c", "d"],
                                   [" a", "b", "c", "d"], "abcd"])
def test_a_bad_strategies_field_is_refused(tmp_path, value):
    raw = json.loads(LINES[0].dumps())
    raw["strategies"] = value
    path = write_lines(tmp_path, [raw])
    with pytest.raises(LogError, match=r"^line 1: strategies=.*: allowed a list of 4 strategy names"):
        score_file(path)


def test_simulate_log_names_the_strategies(tmp_path):
    path = tmp_path / "sim.jsonl"
    assert_ok(invoke(["simulate", "--hands", "20", "--seed", "3", "--quiet", "--strategy",
                      "basic", "--strategy", "random", "--log", str(path), "--log-deals", "0:2"]))
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 2
    assert all(json.loads(text)["strategies"] == ["basic", "random", "basic", "random"]
               for text in lines)
    assert all(text.endswith('"strategies": ["basic", "random", "basic", "random"]}')
               for text in lines)
    assert [logged.log.strategies for logged in logged_hands(path)] == [
        ("basic", "random", "basic", "random")] * 2


def test_review_command(tmp_path, log):
    out, mistakes = tmp_path / "totals.csv", tmp_path / "mistakes.json"
    result = invoke(["review", str(log), "--quiet", "--out", str(out), "--mistakes",
                     str(mistakes)])
    assert_ok(result)
    text = result.output
    assert text.startswith("3 hands, 156 card plays, 2 lost double-dummy value\n")
    assert "first 2 of 2 plays that lost value:" in text
    assert "1 trick+21 pts" in text and "199 pts+nil 1" in text
    import pandas as pd

    written = pd.read_csv(out)
    assert list(written["name"]) == ["seat 0 (north)", "seat 1 (east)", "seat 2 (north)",
                                     "seat 3 (east)", "north", "east"]
    assert written.loc[1, "total_mistakes"] == 2
    document = json.loads(mistakes.read_text(encoding="utf-8"))
    assert [row["played"] for row in document["rows"]] == ["3D", "2S"]
    assert document["metadata"]["command"] == "review"


def test_review_json_and_list(log):
    result = invoke(["review", str(log), "--quiet", "--format", "json", "--list", "1"])
    assert_ok(result)
    document = json.loads(result.output)
    assert document["metadata"]["mistakes"] == 2
    assert [row["played"] for row in document["mistakes"]] == ["3D"]
    east = next(row for row in document["rows"] if row["name"] == "east")
    assert east["plays"] == 78 and math.isclose(east["mistakes"], 1 / 3)


@pytest.mark.parametrize(("args", "message"), [
    (["--list", "-1"], "list=-1: allowed a whole number 0 to 100,000"),
    (["--list", "100001"], "list=100001: allowed a whole number 0 to 100,000"),
    (["--strategies", "a,b"], "strategies='a,b': allowed 4 names, one per seat (line 1 is a hand "
                              "of 4 seats)"),
    (["--mistakes", "m.txt"], "mistakes='m.txt': allowed a file ending in .parquet, .csv or "
                              ".json, or - for stdout"),
    (["--rule", "nil_value=50"], "rule: allowed only together with --rules"),
])
def test_review_bad_input(log, args, message):
    assert_one_line_error(invoke(["review", str(log), "--quiet", *args]), message)


def test_review_refuses_an_illegal_log(tmp_path):
    raw = json.loads(LINES[0].dumps())
    raw["actions"][4] = "0 p AS"  # a spade led to the first trick, holding a heart
    raw.pop("tricks")
    raw.pop("result")
    path = write_lines(tmp_path, [raw])
    assert_one_line_error(invoke(["review", str(path), "--quiet"]),
                          "line 1: trick 1: seat 0 led AS before spades were broken")


"""spades-sim dd: deals and log positions whose double-dummy answers are known by hand, JSON
output, and bad deals refused in one line.

The suit deal: seat 0 holds the thirteen spades, seat 1 the hearts, seat 2 the diamonds and
seat 3 the clubs. Whoever leads, seat 0 (void in every other suit) plays a spade to every
trick and wins it: side 0 takes 13 tricks, side 1 none, seat 0's nil is set and no other
seat's can be. Bid 6, 2, 6, 2: side 0 makes 12 with a bag (121), side 1 is set 4 (−40), a
score difference of +161 for side 0.

The log is line 1 of tests/test_review.py: seat 0 must lead AH, and seat 1 (2S and twelve
diamonds, void in hearts) takes side 1's only trick by ruffing with 2S (bids 10, 1, 2, nil:
difference −10 for side 1) or none by throwing a diamond (−31).
"""

from __future__ import annotations

import json

import pytest
from clirun import assert_ok, assert_one_line_error, invoke
from refereeplay import write_lines
from test_review import LINES

SUITS = ["AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S", "AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H",
         "AD KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D 2D", "AC KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C 2C"]


def hands_args(hands: list[str]) -> list[str]:
    return [word for text in hands for word in ("--cards", text)]


def test_one_side_holds_every_spade():
    result = invoke(["dd", *hands_args(SUITS), "--format", "json"])
    assert_ok(result)
    document = json.loads(result.output)
    rows = document["rows"]
    assert [row["leader"] for row in rows] == [0, 1, 2, 3]
    assert all(row["tricks_0"] == 13 and row["tricks_1"] == 0 for row in rows)
    assert all([row[f"nil_set_{seat}"] for seat in range(4)] == [True, False, False, False]
               for row in rows)
    assert [row["first"] for row in rows] == [True, False, False, False]  # dealer 3
    assert document["metadata"]["command"] == "dd"
    assert document["metadata"]["first_leader"] == 0


def test_the_score_line():
    result = invoke(["dd", *hands_args(SUITS), "--bids", "0:6,1:2,2:6,3:2", "--dealer", "0"])
    assert_ok(result)
    lines = result.output.splitlines()
    assert lines[0] == "rules standard: double-dummy tricks of each side by the seat that leads"
    assert lines[1].split() == ["lead", "tricks", "0+2", "tricks", "1+3", "nil", "0", "nil", "1",
                                "nil", "2", "nil", "3", "score", "0+2", "score", "1+3"]
    assert lines[3].split() == ["1*", "13", "0", "set", "safe", "safe", "safe", "+161", "-161"]
    assert "best line for side 1+3 (bids 6 2 6 2): score difference -161" in result.output
    tricks = [line for line in lines if line.startswith("  trick ")]
    assert len(tricks) == 13 and all(line.endswith("-> seat 0") for line in tricks)
    assert tricks[0].startswith("  trick 1: 1 ")  # seat 1 leads: dealer 0


def test_a_position_of_a_log(tmp_path):
    log = write_lines(tmp_path, LINES)
    result = invoke(["dd", "--log", str(log), "--line", "1", "--after", "1", "--format", "json"])
    assert_ok(result)
    document = json.loads(result.output)
    meta = document["metadata"]
    assert (meta["to_play"], meta["trick"], meta["tricks"]) == (1, ["AH"], [12, 1])  # seat 1 can ruff
    assert meta["logged_card"] == "3D"
    assert meta["nil_set"] == {"3": False}
    assert meta["score"] == -10
    cards = {row["card"]: (row["tricks"], row["score"]) for row in document["rows"]}
    assert cards.pop("2S") == (1, -10)
    assert len(cards) == 12 and set(cards.values()) == {(0, -31)}
    text = invoke(["dd", "--log", str(log), "--after", "1"])
    assert_ok(text)
    assert "line 1, after 1 of 52 card plays (bids 10 1 2 nil); the log plays 3D" in text.output
    assert "double-dummy tricks in the hand from here: side 0+2 12, side 1+3 1" in text.output


BAD_DEALS = [
    ([SUITS[0], SUITS[0], SUITS[2], SUITS[3]],
     "cards: card AS dealt twice (seats 0 and 1): each card is dealt once"),
    ([SUITS[0], SUITS[1], SUITS[2], SUITS[3].removesuffix(" 2C")],
     "cards[3] has 12 cards: allowed 13; missing from the deal: 2C"),
    ([SUITS[0], SUITS[1], SUITS[2]], "cards: 3 given: allowed 4, one per seat"),
    ([SUITS[0], SUITS[1], SUITS[2], SUITS[3].replace("2C", "XC")], "cards[3]: card 'XC': allowed"),
    ([SUITS[0] + " 2H", SUITS[1].removesuffix(" 2H"), SUITS[2], SUITS[3]],
     "cards[0] has 14 cards: allowed 13"),
]


@pytest.mark.parametrize(("hands", "message"), BAD_DEALS)
def test_a_bad_deal_is_one_line(hands, message):
    assert_one_line_error(invoke(["dd", *hands_args(hands)]), message, prefix_only=True)


def test_bad_positions_and_options(tmp_path):
    log = write_lines(tmp_path, LINES)
    cases = [
        (["--log", str(log), "--after", "52"],
         "after=52: allowed 0 to 51 (the hand on line 1 has 52 card plays; 52 is past its end)"),
        (["--log", str(log), "--line", "4"], "line=4: allowed a line of the log holding a hand "
                                             "(1 to 3)"),
        (["--after", "3", *hands_args(SUITS)], "after=3: allowed only together with --log FILE"),
        (["--log", str(log), *hands_args(SUITS)],
         "cards: allowed either --cards or --log FILE, not both"),
        ([], "cards: allowed --cards once per seat, or --log FILE"),
        ([*hands_args(SUITS), "--bids", "0:6,1:2,2:6"],
         "bids='0:6,1:2,2:6': allowed a bid for every seat 0 to 3, e.g. 0:4,1:3,2:nil,3:4"),
        ([*hands_args(SUITS), "--bids", "0:6,1:2,2:6,3:14"], "bids='0:6,1:2,2:6,3:14': allowed "
         "SEAT:BID,… with seats 0 to 3 once each and BID 0 to 13"),
        ([*hands_args(SUITS), "--bags", "0=1,1=10"],
         "bags='0=1,1=10': allowed bags 0 to 9 for each side"),
        ([*hands_args(SUITS), "--dealer", "4"], "dealer=4: allowed 0 to 3"),
        ([*hands_args(SUITS), "--rules", "jokers"], "cards[2]: card 2D is not in the jokers deck"),
    ]
    for args, message in cases:
        assert_one_line_error(invoke(["dd", *args]), message, prefix_only=True)


def test_hand_dd_every_spade():
    """hand --dd with every spade in the seat's hand: whoever leads, the seat wins or ruffs
    every trick, so its side takes 13 double-dummy tricks on every completion."""
    result = invoke(["hand", SUITS[0], "--deals", "3", "--seed", "1", "--quiet", "--no-figure",
                     "--dd"])
    assert_ok(result)
    assert ("double-dummy tricks of side 0 (seats 0+2) over the 3 deals, every card visible, the "
            "first leader leading: mean 13.00 [13.00, 13.00]") in result.output
    row = next(line for line in result.output.splitlines() if line.split()[:2] == ["13", "3"])
    assert row.split()[2:4] == ["100.0%", "100.0%"]


def test_hand_dd_interrupted_prints_the_table_without_the_view(monkeypatch):
    """Ctrl-C while the deals are solved: the what-if's table, the view marked not solved, exit
    130; the solver itself stops at once, its deals in flight left to finish on their threads."""
    from spades_sim.kernel import double_dummy, drivers

    calls = []
    plain = drivers.run_chunks

    def run_chunks(count, chunk, play, check=lambda: None, workers=None, finish_running=True):
        if play.__qualname__.startswith("solve_deals."):  # the what-if's chunks run as ever
            calls.append((chunk, finish_running))
            raise KeyboardInterrupt  # as the check raises it once Ctrl-C is noted
        plain(count, chunk, play, check, workers, finish_running)

    monkeypatch.setattr(drivers, "run_chunks", run_chunks)
    result = invoke(["hand", SUITS[0], "--deals", "3", "--seed", "1", "--quiet", "--no-figure",
                     "--dd"])
    assert result.exit_code == 130, result.output
    lines = result.output.splitlines()
    assert lines[0].endswith("seed 1: 3 deals")  # the what-if itself finished
    assert lines[-1] == "double-dummy view: not solved (interrupted)"
    assert "best bid: " in result.output and "double-dummy tricks" not in result.output
    assert calls == [(double_dummy.SOLVE_CHUNK, False)]


def test_hand_dd_matches_the_solver():
    """The view's tricks are the solver's on the what-if's own deals (deal i of the seed)."""
    from spades_sim.analysis.whatif import what_if, what_if_double_dummy
    from spades_sim.kernel.double_dummy import DoubleDummy, Position
    from spades_sim.referee.hand import first_leader
    from spades_sim.run.deals import Dealer

    result = what_if("standard", "2S 3S 4S 2H 3H 4H 5H 2D 3D 4D 5D 2C 3C", strategies="expert",
                     deals=3, seed=1)
    view = what_if_double_dummy(result, threads=2)
    dealer = Dealer(result.rules, {result.seat: result.hand}, result.constraints)
    solver = DoubleDummy(result.rules)
    for i, row in enumerate(dealer.deal(3, result.seed, 0)):
        held = dealer.hands(row)
        leader = first_leader(result.rules, result.dealer, [set(cards) for cards in held])
        position = Position.deal([sum(1 << card for card in cards) for cards in held], leader)
        assert view.tricks[i] == solver.tricks(position, result.rules.seat_side(result.seat))

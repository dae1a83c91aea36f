"""What-if for one hand: constrained deals and ``spades-sim hand``."""

from __future__ import annotations

import itertools
import json
import math
import os
import pty
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from clirun import assert_ok, assert_one_line_error, invoke

from spades_sim.analysis import whatif
from spades_sim.analysis.hand_inputs import (
    HandInputError,
    bid_code,
    bid_name,
    every_seat_bids,
    old_bids_spelling,
    old_side_spelling,
    parse_bids,
    parse_side_values,
)
from spades_sim.analysis.whatif import (
    BLIND_LABEL,
    POLICY_LABEL,
    WhatIfError,
    what_if,
)
from spades_sim.cards import parse_cards
from spades_sim.kernel import drivers, engine
from spades_sim.rules import load_preset
from spades_sim.run import deals as deals_module
from spades_sim.run.deals import Dealer, DealError, SuitCount, parse_suit_count, popcount

STANDARD = load_preset("standard")

# 46 cards fixed: seat 0 all 13, seats 1 and 2 twelve each, seat 3 nine (no spade). Six are
# left (2S 3S 2D 3D 2C 3C): one to seat 1, one to seat 2 and four to seat 3,
# 6!/(1!·1!·4!) = 30 completions.
LEFT = parse_cards("2S 3S 2D 3D 2C 3C")
PREDEAL = {
    0: "4S 5S 6S 7S 8S 9S 10S JS QS KS AS JH QH",
    1: "KH AH 4D 5D 6D 7D 8D 9D 10D JD QD KD",
    2: "AD 4C 5C 6C 7C 8C 9C 10C JC QC KC AC",
    3: "2H 3H 4H 5H 6H 7H 8H 9H 10H",
}


def _chi_square_limit(df: int, z: float = 3.090232306167813) -> float:
    """The 99.9% point of chi-square with ``df`` degrees of freedom (Wilson–Hilferty: within
    0.3% of the exact value for df ≥ 10)."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def _completion_counts(dealer: Dealer, deals: np.ndarray) -> Counter:
    """How often each completion (the cards of seats 1 and 2 from LEFT) came up."""
    return Counter(tuple(int(deals[i, seat]) for seat in (1, 2)) for i in range(len(deals)))


def test_fixed_cards_stay_fixed() -> None:
    dealer = Dealer(STANDARD, {0: "AS 7S 3S 9H 8H 4H 2H QD 6D 3D 8C 5C 2C", 2: "KS QS"})
    deals = dealer.deal(5000, seed=3)
    assert (deals[:, 0] == dealer.fixed[0]).all()
    assert ((deals[:, 2] & dealer.fixed[2]) == dealer.fixed[2]).all()
    # Every deal is a partition of the 52 cards into four hands of 13.
    assert (popcount(deals) == 13).all()
    union = np.bitwise_or.reduce(deals, axis=1)
    assert (union == np.uint64((1 << 52) - 1)).all()
    assert (popcount(deals[:, 1] & deals[:, 3]) == 0).all()


def test_completions_are_uniform() -> None:
    """30,000 deals over the 30 completions: a chi-square test at the 0.1% level (29 df)."""
    dealer = Dealer(STANDARD, PREDEAL)
    assert dealer.completions() == 30
    counts = _completion_counts(dealer, dealer.deal(30_000, seed=5))
    assert len(counts) == 30
    expected = 30_000 / 30
    chi2 = sum((k - expected) ** 2 / expected for k in counts.values())
    assert chi2 < _chi_square_limit(29)


def test_constrained_completions_are_uniform_over_the_deals_that_qualify() -> None:
    """Seat 3 must hold both of 2S and 3S: seats 1 and 2 then take two of the four other cards,
    4 × 3 = 12 completions (counted by enumeration), each equally likely."""
    spades = set(parse_cards("2S 3S"))
    qualifying = [(a, b) for a, b in itertools.permutations(LEFT, 2)
                  if a not in spades and b not in spades]
    assert len(qualifying) == 12
    dealer = Dealer(STANDARD, PREDEAL, [SuitCount(3, "spades", 2, 2)])
    deals = dealer.deal(12_000, seed=6)
    assert (dealer.suit_counts(deals, "spades")[:, 3] == 2).all()
    counts = _completion_counts(dealer, deals)
    assert len(counts) == 12
    chi2 = sum((k - 1000) ** 2 / 1000 for k in counts.values())
    assert chi2 < _chi_square_limit(11)


def test_accept_function_and_determinism() -> None:
    def seat_1_has_no_ace(hands) -> bool:
        return not any(card % 13 == 12 for card in hands[1])

    dealer = Dealer(STANDARD, {0: "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS 2H"},
                    accept=seat_1_has_no_ace)
    deals = dealer.deal(300, seed=1)
    assert all(seat_1_has_no_ace(dealer.hands(deal)) for deal in deals)
    assert (dealer.deal(300, seed=1) == deals).all()
    assert not (dealer.deal(300, seed=2) == deals).all()


@pytest.mark.parametrize(("constraints", "message"), [
    # Seat 0 holds ten spades: the other seats share three.
    ([SuitCount(1, "spades", 4, 13)], "constraint='1:spades=4-13': allowed a range that meets 0 to 3"),
    ([SuitCount(1, "spades", 3, 1)], "constraint='1:spades=3-1': allowed a range that meets 0 to 3"),
    ([SuitCount(7, "spades", 0, 1)], "constraint='7:spades=0-1': allowed seats 0 to 3"),
])
def test_impossible_constraints_are_refused_at_once(constraints, message: str) -> None:
    with pytest.raises(DealError) as error:
        Dealer(STANDARD, {0: "AS KS QS JS 10S 9S 8S 7S 6S 5S AH KH QH"}, constraints)
    assert str(error.value).startswith(message)


def test_very_rare_constraints_are_refused_instead_of_running_for_ever() -> None:
    """Seat 1 with all 13 spades: about 1 deal in 8·10^9."""
    dealer = Dealer(STANDARD, {}, [SuitCount(1, "spades", 13, 13)])
    with pytest.raises(DealError, match="constraints: 0 of 20,000 trial deals met them; allowed "
                                        "constraints that at least 1 deal in 10,000 meets"):
        dealer.deal(10, seed=1)


def test_parsers() -> None:
    assert parse_suit_count("2:hearts=3") == SuitCount(2, "hearts", 3, 3)
    with pytest.raises(DealError, match="constraint='1:sp=0-2': allowed a suit of clubs"):
        parse_suit_count("1:sp=0-2")
    assert parse_bids("1:4, 2:nil,3:blind", STANDARD) == {1: 4, 2: 0, 3: 100}
    with pytest.raises(HandInputError, match="bids='1:4,1:5': allowed SEAT:BID"):
        parse_bids("1:4,1:5", STANDARD)
    assert parse_side_values("us=240,them=310", "score", STANDARD, 1) == (310, 240)
    assert parse_side_values("0=-50,1=0", "score", STANDARD, 0) == (-50, 0)
    for text in ("we=10", "0=-50", "us=1", "us=1,them=2,us=3", "us=1,them= 2"):
        with pytest.raises(HandInputError, match=rf"score='{text}': allowed us=N,them=N or "
                                                 "SIDE=N,… with every side 0 to 1 once"):
            parse_side_values(text, "score", STANDARD, 0)


def test_one_parser_for_bids_score_and_bags() -> None:
    """hand and dd read bids (SEAT:BID,…) and per-side values (SIDE=N,…) with the same
    parsers; us/them only where a seat is known; the ranges are checked there."""
    assert every_seat_bids("0:4,1:3,2:nil,3:blind", STANDARD) == ((4, 3, 0, 0),
                                                                  (False, False, False, True))
    with pytest.raises(HandInputError, match="bids='0:4,1:3': allowed a bid for every seat"):
        every_seat_bids("0:4,1:3", STANDARD)
    with pytest.raises(HandInputError, match="bids='1:14': allowed SEAT:BID,… with seats 0 to 3 "
                                             "once each and BID 0 to 13"):
        parse_bids("1:14", STANDARD)
    assert parse_side_values("1=5,0=3", "bags", STANDARD) == (3, 5)
    with pytest.raises(HandInputError, match="bags='us=1,them=2': allowed SIDE=N,…"):
        parse_side_values("us=1,them=2", "bags", STANDARD)  # no seat: no us
    with pytest.raises(HandInputError, match="bags='0=10,1=0': allowed bags 0 to 9 for each side"):
        parse_side_values("0=10,1=0", "bags", STANDARD, 0)
    with pytest.raises(HandInputError, match="score='0=100001,1=0': allowed score -100,000 to "
                                             "100,000"):
        parse_side_values("0=100001,1=0", "score", STANDARD)
    assert old_bids_spelling("4, 3,nil,blind") == "0:4,1:3,2:nil,3:blind"
    assert old_bids_spelling("1:4") is None and old_bids_spelling("") is None
    assert old_side_spelling("1,2") == "0=1,1=2" and old_side_spelling("0=1,1=2") is None


def _nil_made(hand: str, **kwargs) -> float:
    result = what_if(STANDARD, hand, deals=400, seed=7, **kwargs)
    return float(result.table.set_index("bid").loc["nil", "made"])


def test_a_nil_with_the_top_spades_almost_always_fails() -> None:
    assert _nil_made("AS KS QS JS 9H 8H 4H 2H QD 6D 3D 8C 5C") < 0.05


def test_a_nil_with_the_deuce_of_spades_and_low_cards_mostly_succeeds() -> None:
    assert _nil_made("2S 2H 3H 4H 5H 2D 3D 4D 5D 2C 3C 4C 5C") > 0.6


def test_the_strategy_choice_is_the_bid_it_makes_on_the_same_deals() -> None:
    """Seat 0 bids first, so expert's bid depends only on its cards: always the same number.
    That bid's row equals the strategy's row exactly (the same deals, streams and later hands),
    and its change against the strategy is 0 with an interval of zero width."""
    result = what_if(STANDARD, "AS KS 7S 3S AH KH 4H 2H QD 6D 3D 8C 5C", deals=200, seed=2)
    assert len(result.choices) == 1
    choice = result.choices.index[0]
    table = result.table.set_index("bid")
    for column in ("made", "points", "win"):
        assert table.loc[choice, column] == table.loc[POLICY_LABEL, column]
    assert (table.loc[choice, "win_change"], table.loc[choice, "change_low"],
            table.loc[choice, "change_high"]) == (0.0, 0.0, 0.0)
    # Blind nil is not allowed at 0-0 under the standard rules (100 behind); nil and 1-13 are.
    assert result.refused == ["blind nil"]
    assert list(table.index) == [POLICY_LABEL, "nil", *map(str, range(1, 14))]


def test_blind_nil_is_judged_before_looking_when_the_rules_allow_it() -> None:
    strong = what_if(STANDARD, "AS KS 7S 3S AH KH 4H 2H QD 6D 3D 8C 5C", deals=100, seed=2,
                     score=(100, 300))
    weak = what_if(STANDARD, "2S 2H 3H 4H 5H 2D 3D 4D 5D 2C 3C 4C 5C", deals=100, seed=2,
                   score=(100, 300))
    assert strong.hand_index == 1
    blind = [result.table.set_index("bid").loc[BLIND_LABEL] for result in (strong, weak)]
    # Played on random cards of the seat, so the same whatever hand was given: with the ace of
    # spades in hand, a blind nil judged with the cards would never be made.
    assert blind[0].equals(blind[1])
    assert 0.0 < blind[0]["made"] < 1.0
    # The best bid is one a seat that has seen its cards can make.
    assert strong.best != BLIND_LABEL and weak.best == "nil"


def test_known_bids_fix_the_dealer_and_are_checked() -> None:
    result = what_if(STANDARD, "AS KS 7S 3S AH KH 4H 2H QD 6D 3D 8C 5C", seat=2, deals=50,
                     seed=2, bids={0: 3, 1: 4})
    assert result.dealer == 3  # seat 0 bids first: the dealer is seat 3
    with pytest.raises(WhatIfError, match=r"bids='1:4': allowed the bids of seats 0, 1 \(seat 2's"):
        what_if(STANDARD, "AS KS 7S 3S AH KH 4H 2H QD 6D 3D 8C 5C", seat=2, deals=10,
                bids={1: 4}, dealer=3)


def _ctrl_c_after(chunks: int):
    """A stand-in for ``drivers.interrupts_held`` whose check reports Ctrl-C after ``chunks``
    chunks, as the real one does when SIGINT arrives while the kernel runs."""
    @contextmanager
    def held():
        calls = []

        def check() -> None:
            calls.append(1)
            if len(calls) >= chunks:
                raise KeyboardInterrupt

        yield check
        check()
    return held


def test_ctrl_c_keeps_the_deals_finished_and_exits_130(monkeypatch, tmp_path: Path) -> None:
    """Stopped after 3 chunks of 16 deals on one thread: the table holds those 48 deals, exactly
    as a run of 48 deals would, and the command prints it and exits 130."""
    hand = "AS 7S 3S 9H 8H 4H 2H QD 6D 3D 8C 5C 2C"
    whole = what_if(STANDARD, hand, score=(240, 310), deals=48, seed=4, threads=1)
    monkeypatch.setattr(drivers, "interrupts_held", _ctrl_c_after(3))
    cut = what_if(STANDARD, hand, score=(240, 310), deals=1000, seed=4, threads=1)
    assert cut.interrupted and not whole.interrupted
    assert (cut.table["deals"] == 48).all()
    numbers = ["made", "points", "win", "win_change", "change_low", "change_high"]
    pd.testing.assert_frame_equal(cut.table[numbers], whole.table[numbers])
    result = invoke(["hand", hand, "--score", "us=240,them=310", "--deals", "1000", "--seed", "4",
                     "--threads", "1", "--quiet", "--figure", str(tmp_path / "hand.png")])
    assert result.exit_code == 130
    lines = result.output.splitlines()
    assert lines[0].endswith("seed 4: 1,000 deals (interrupted after 48)")
    assert lines[2].startswith("strategy's choice") and "best bid: " in result.output
    assert "Traceback" not in result.output


def test_ctrl_c_while_the_last_chunks_of_a_call_finish_still_stops_the_run(monkeypatch) -> None:
    """Ctrl-C noted while the last chunks of a driver call were in flight: they finish every
    deal of the call, and the run must still stop there (it used to go on to its end)."""
    hand = "AS 7S 3S 9H 8H 4H 2H QD 6D 3D 8C 5C 2C"
    per_call = deals_module.DEAL_BLOCK  # one driver call plays a deal block
    run_chunks = drivers.run_chunks

    def noted_in_the_last_chunk(count, chunk, play, check=lambda: None):
        checked = []

        def after_each() -> None:  # the real check, and Ctrl-C once the last chunk is played
            check()
            checked.append(1)
            if len(checked) == math.ceil(count / chunk):
                raise KeyboardInterrupt

        run_chunks(count, chunk, play, after_each)

    monkeypatch.setattr(drivers, "run_chunks", noted_in_the_last_chunk)
    cut = what_if(STANDARD, hand, score=(100, 300), deals=4 * per_call, seed=4, threads=1)
    monkeypatch.undo()
    whole = what_if(STANDARD, hand, score=(100, 300), deals=per_call, seed=4, threads=1)
    assert cut.interrupted
    assert (cut.table["deals"] == per_call).all()
    seen = whole.table[whole.table["bid"] != BLIND_LABEL].reset_index(drop=True)  # 2nd pass
    numbers = ["bid", "made", "points", "win", "win_change", "change_low", "change_high"]
    pd.testing.assert_frame_equal(cut.table[numbers], seen[numbers])


STOP_WITHIN = 2.0
"""Seconds from SIGINT to the table of a what-if: one on an idle machine, two on a busy one
(docs/guarantees.md, "Interrupts"); a test machine may be busy."""


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _drain(terminal: int, seen: list[bytes]) -> None:
    """Read a pseudo-terminal to its end (so that the run never blocks writing to it)."""
    while True:
        try:
            data = os.read(terminal, 4096)
        except OSError:  # the run closed its end
            return
        if not data:
            return
        seen.append(data)


def test_sigint_seconds_into_a_real_long_what_if_stops_it_at_once(tmp_path: Path) -> None:
    """SIGINT to a real what-if of 200,000 deals two seconds after its progress bar first
    moved (its kernel running): it prints the table of the deals it finished within
    STOP_WITHIN seconds and exits 130."""
    hand = "AS 7S 3S 9H 8H 4H 2H QD 6D 3D 8C 5C 2C"
    command = [sys.executable, "-m", "spades_sim", "hand", hand, "--score", "us=100,them=300",
               "--seed", "734893", "--no-figure", "--threads", "2", "--deals", "200000"]
    # stderr on a terminal, so that the run draws its progress bar: its rate shows from its
    # second block of deals on.
    terminal, its_end = pty.openpty()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=its_end, text=True,
                               cwd=tmp_path, preexec_fn=_default_sigint)
    os.close(its_end)
    seen: list[bytes] = []
    reader = threading.Thread(target=_drain, args=(terminal, seen), daemon=True)
    reader.start()
    deadline = time.monotonic() + 120
    while b"/s" not in b"".join(seen) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert b"/s" in b"".join(seen), "the progress bar never moved"
    time.sleep(2)
    process.send_signal(signal.SIGINT)
    sent = time.monotonic()
    assert process.stdout is not None
    header = process.stdout.readline()
    stopped = time.monotonic() - sent
    # The rest through the same buffered reader (communicate() would miss what readline()
    # has buffered).
    rest = process.stdout.read()
    assert process.wait(timeout=60) == 130
    reader.join(timeout=10)
    os.close(terminal)
    err = b"".join(seen).decode(errors="replace")
    assert "Traceback" not in err
    assert stopped < STOP_WITHIN, f"{stopped:.2f} s from SIGINT to the table"
    assert header.startswith("rules standard, seat 0 of dealer 3, score 100/300")
    played = int(header.split("(interrupted after ")[1].rstrip(")\n").replace(",", ""))
    assert 0 < played < 200_000
    rows = rest.splitlines()[1:]
    assert rows and rows[0].startswith("strategy's choice") and "best bid: " in rest, rest


def test_hand_command_prints_the_table_and_writes_figure_and_data(tmp_path: Path) -> None:
    data, figure = tmp_path / "hand.csv", tmp_path / "hand.svg"
    result = invoke(["hand", "AS 7S 3S 9H 8H 4H 2H QD 6D 3D 8C 5C 2C", "--score",
                     "us=240,them=310", "--bags", "us=7,them=2", "--deals", "100", "--seed", "4",
                     "--quiet", "--out", str(data), "--figure", str(figure)])
    assert_ok(result)
    lines = result.output.splitlines()
    assert lines[0] == ("rules standard, seat 0 of dealer 3, score 240/310, bags 7/2, strategy "
                        "expert, seed 4: 100 deals")
    expected = what_if(STANDARD, "AS 7S 3S 9H 8H 4H 2H QD 6D 3D 8C 5C 2C", score=(240, 310),
                       bags=(7, 2), deals=100, seed=4)
    pd.testing.assert_frame_equal(pd.read_csv(data), expected.table, check_dtype=False)
    assert f"best bid: {expected.best}," in result.output
    svg = figure.read_text()
    for label in ("bid made", "paired 95% interval", "bid of seat 0 (green: the best, "
                  f"{expected.best};", "nil"):
        assert label in svg, label


def test_sets_before_the_hand_count_toward_losing_the_game() -> None:
    """Under ``tournament-blind`` two sets lose the game. With one set already (``--sets
    us=1,them=0``) a count bid that is set loses the game there and then, so no count bid wins
    more deals than it makes; from no sets a hopeless 13 is set on nearly every deal and still
    wins some games."""
    rules = load_preset("tournament-blind")
    cards = "AS 7S 3S 9H 8H 4H 2H QD 6D 3D 8C 5C 2C"
    one_set = what_if(rules, cards, score=(100, 150), sets=(1, 0), deals=200, seed=3)
    none = what_if(rules, cards, score=(100, 150), deals=200, seed=3)
    assert one_set.sets == (1, 0) and none.sets == (0, 0)
    counts = one_set.table[one_set.table["bid"].isin([str(k) for k in range(1, 14)])]
    assert len(counts) == 13
    assert (counts["win"] <= counts["made"]).all(), counts[["bid", "made", "win"]]
    thirteen = none.table.set_index("bid").loc["13"]
    assert thirteen["win"] > thirteen["made"]
    result = invoke(["hand", cards, "--rules", "tournament-blind", "--score", "us=100,them=150",
                     "--sets", "us=1,them=0", "--deals", "20", "--seed", "3", "--quiet",
                     "--format", "json"])
    assert_ok(result)
    assert json.loads(result.output)["metadata"]["sets"] == [1, 0]


@pytest.mark.parametrize(("args", "message"), [
    (["AS AS 3S 9H 8H 4H 2H QD 6D 3D 8C 5C 2C"], "card 'AS' appears twice"),
    (["AS 7S 3S 9H 8H 4H 2H QD 6D 3D 8C 5C"], "hand=12 cards: allowed 13 (a hand of standard)"),
    (["AS 7S 3S 9H 8H 4H 2H QD 6D 3D 8C 5C 1X"], "card '1X'"),
    (["AS 7S 3S 9H 8H 4H 2H QD 6D 3D 8C 5C 2C", "--seat", "4"], "seat=4: allowed 0 to 3"),
    (["AS 7S 3S 9H 8H 4H 2H QD 6D 3D 8C 5C 2C", "--score", "us=x"], "score='us=x': allowed"),
    (["AS 7S 3S 9H 8H 4H 2H QD 6D 3D 8C 5C 2C", "--bags", "us=12,them=0"],
     "bags='us=12,them=0': allowed bags 0 to 9 for each side"),
    (["AS 7S 3S 9H 8H 4H 2H QD 6D 3D 8C 5C 2C", "--sets", "us=1,them=0"],
     "sets='us=1,them=0': allowed only under rules with sets_to_lose (a game lost by sets)"),
    (["AS 7S 3S 9H 8H 4H 2H QD 6D 3D 8C 5C 2C", "--rules", "tournament-blind", "--sets",
      "us=2,them=0"], "sets='us=2,them=0': allowed sets 0 to 1 for each side"),
    (["AS 7S 3S 9H 8H 4H 2H QD 6D 3D 8C 5C 2C", "--seat", "2", "--bids", "0:3,1:14"],
     "bids='0:3,1:14': allowed SEAT:BID,… with seats 0 to 3 once each and BID 0 to 13"),
    (["AS 7S 3S 9H 8H 4H 2H QD 6D 3D 8C 5C 2C", "--rules", "classic", "--seat", "2", "--bids",
      "0:nil,1:3", "--deals", "5"], "bids='0:nil,1:3': allowed bids the rules permit"),
    (["AS 7S 3S 9H 8H 4H 2H QD 6D 3D 8C 5C 2C", "--bids", "2:3"],
     "bids='2:3': allowed the bids of seats 3 (seat 0's turn to bid, dealer 2)"),
    (["AS 7S 3S 9H 8H 4H 2H QD 6D 3D 8C 5C 2C", "--constraint", "1:spades=11-12"],
     "constraint='1:spades=11-12': allowed a range that meets 0 to 10"),
    (["AS 7S 3S 9H 8H 4H 2H QD 6D 3D 8C 5C 2C", "--deals", "0"], "deals=0: allowed"),
])
def test_hand_command_bad_input(args: list[str], message: str) -> None:
    assert_one_line_error(invoke(["hand", *args, "--quiet"]), message, prefix_only=True)


def test_same_seed_same_results_whatever_the_threads() -> None:
    hand = "AS KS 7S 3S AH KH 4H 2H QD 6D 3D 8C 5C"
    one = what_if(STANDARD, hand, deals=60, seed=8, threads=1)
    two = what_if(STANDARD, hand, deals=60, seed=8, threads=2)
    pd.testing.assert_frame_equal(one.table, two.table)


def test_same_seed_same_results_whatever_the_threads_and_the_block_size(monkeypatch) -> None:
    """Deal i of a seed, and the play after it, depend on the seed and i alone: with deal
    blocks of 16, what-ifs played in blocks of 16, 48 or 64 deals, on 1 or 2 threads and in
    chunks of 16 or 4 deals, give one table, blind nil's pass included; the progress callback
    sees every deal of both passes."""
    monkeypatch.setattr(deals_module, "DEAL_BLOCK", 16)
    hand = "AS KS 7S 3S AH KH 4H 2H QD 6D 3D 8C 5C"
    tables = []
    for block, threads, chunk in ((16, 1, 16), (48, 2, 16), (64, 2, 4)):
        monkeypatch.setattr(whatif, "BLOCK_DEALS", block)
        monkeypatch.setattr(drivers, "CHUNK_DEALS", chunk)
        counted: list[int] = []
        result = what_if(STANDARD, hand, score=(100, 300), deals=100, seed=8, threads=threads,
                         on_block=counted.append)
        assert sum(counted) == 2 * 100 and whatif.deal_passes(STANDARD) == 2
        assert BLIND_LABEL in set(result.table["bid"])
        tables.append(result.table)
    for table in tables[1:]:
        pd.testing.assert_frame_equal(table, tables[0])


TOURNAMENT = load_preset("tournament-blind")


def test_blind_bids_are_offered_and_judged_before_looking() -> None:
    """Under the tournament preset a side 100 or more behind may bid 6 to 13 blind: each is a
    candidate, played like blind nil on random cards of the seat, so the same whatever hand is
    given; the best bid stays one a seat that has seen its cards can make."""
    strong, weak = (what_if(TOURNAMENT, hand, deals=60, seed=2, score=(100, 300))
                    for hand in ("AS KS 7S 3S AH KH 4H 2H QD 6D 3D 8C 5C",
                                 "2S 2H 3H 4H 5H 2D 3D 4D 5D 2C 3C 4C 5C"))
    labels = [f"blind {count}, unseen" for count in range(6, 14)]
    for result in (strong, weak):
        assert [bid for bid in result.table["bid"] if "unseen" in bid] == [BLIND_LABEL, *labels]
        assert not result.best.endswith("unseen")
    rows = [result.table.set_index("bid").loc[labels] for result in (strong, weak)]
    assert rows[0].equals(rows[1])
    # A blind 13 is almost never made, a blind 6 sometimes.
    assert rows[0].loc["blind 13, unseen", "made"] < rows[0].loc["blind 6, unseen", "made"]


def test_a_side_not_behind_is_refused_the_blind_bid() -> None:
    result = what_if(TOURNAMENT, "AS KS 7S 3S AH KH 4H 2H QD 6D 3D 8C 5C", deals=20, seed=2)
    assert result.refused == ["blind nil", "blind 6"]
    assert not any("unseen" in bid for bid in result.table["bid"])


def test_blind_bids_are_written_blind_n() -> None:
    assert bid_code("blind6") == bid_code("bb6") == engine.BLIND_COUNT_BID + 6
    assert bid_name(engine.BLIND_COUNT_BID + 7) == "blind 7"
    assert parse_bids("1:blind7", TOURNAMENT) == {1: engine.BLIND_COUNT_BID + 7}
    assert every_seat_bids("0:blind6,1:3,2:nil,3:4", TOURNAMENT) == ((6, 3, 0, 4), (2, 0, 0, 0))

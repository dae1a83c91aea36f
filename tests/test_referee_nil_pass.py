"""The nil card pass (``nil_pass``) and the zero bid (``zero_bid``) in the referee, worked by hand.

docs/scoring.md "The nil card pass" and "The zero bid": after the bidding a plain nil bidder's
partner passes ``nil_pass`` cards face down, then the nil bidder as many back; no exchange when
both partners bid nil; a side with a blind nil exchanges ``blind_nil_pass`` cards for it instead.
Under ``zero_bid = "zero"`` a bid of 0 is a contract of no tricks: no nil bonus or penalty, its
tricks count for the side's contract, and beyond the contract they are bags.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from refereeplay import auto_finish, expect_illegal, give, log_of, write_lines
from stacking import bid_in_turn, stacked_deal

from spades_sim.cards import parse_card, parse_cards
from spades_sim.referee import Hand, Phase, replay_hand, score_file, score_hand
from spades_sim.referee.handlog import CardPass, HandLog
from spades_sim.rules import RulesError, RuleSet, save_rules

# Standard deck, dealer 3 (seat 0 bids first): test_referee_modes's deal C.
DEAL_C = (
    "AC KC QC JC 10C 9C 8C 7C 6C 5C 8H 7H 6H",
    "4C 3C 2C AD KD QD JD 10D 9D 8D JH 10H 9H",
    "7D 6D 5D 4D 3D 2D AH KH QH AS KS QS JS",
    "5H 4H 3H 2H 10S 9S 8S 7S 6S 5S 4S 3S 2S",
)

PASS_2 = RuleSet(nil_pass=2)


def bid_hand(rules: RuleSet, bids: tuple[int | str, ...]) -> Hand:
    hand = Hand(rules, 3, DEAL_C)
    bid_in_turn(hand, bids)
    return hand


def exchange_steps(hand: Hand, moves: tuple[str, ...]) -> list[str]:
    """What the hand waits for before each of ``moves``, the moves made in turn."""
    steps = []
    for move in moves:
        steps.append(hand.waiting_for())
        give(hand, move)
    return steps


def test_plain_nil_partner_passes_first_then_the_nil_bidder() -> None:
    hand = bid_hand(PASS_2, (3, 0, 4, 3))
    # Seat 1 bid nil, its partner seat 3 bid 3: seat 3 passes two cards, seat 1 two back.
    assert hand.phase is Phase.EXCHANGE
    expect_illegal(lambda: hand.pass_card(1, parse_card("AD")),
                   "seat 1 passed AD out of turn (seat 3 is to pass 2 cards to seat 1)")
    expect_illegal(lambda: hand.play(3, parse_card("5H")),
                   "seat 3 played 5H during the card exchange (seat 3 is to pass 2 cards to seat 1)")
    assert exchange_steps(hand, ("3 2S", "3 5H", "1 AD", "1 2S")) == [
        "seat 3 is to pass 2 cards to seat 1", "seat 3 is to pass 1 card to seat 1",
        "seat 1 is to pass 2 cards to seat 3", "seat 1 is to pass 1 card to seat 3"]
    assert hand.phase is Phase.PLAY and hand.turn_index == 0
    # Seat 1 gave its ace of diamonds and the 2S it had just received; it keeps 5H.
    assert hand.holding(1) == tuple(sorted(parse_cards(DEAL_C[1].replace("AD", "5H"))))
    assert hand.holding(3) == tuple(sorted(parse_cards(DEAL_C[3].replace("5H", "AD"))))
    expect_illegal(lambda: hand.pass_card(1, parse_card("3C")),
                   "seat 1 passed 3C after the card exchange was over (seat 0 is to play)")


def test_four_card_pass() -> None:
    hand = bid_hand(RuleSet(nil_pass=4), (0, 4, 3, 4))
    # Seat 0 bid nil, seat 2 bid 3: four cards each way, seat 2 first.
    give(hand, "2 2D", "2 3D", "2 4D", "2 5D")
    assert hand.waiting_for() == "seat 0 is to pass 4 cards to seat 2"
    give(hand, "0 AC", "0 KC", "0 QC", "0 JC")
    assert hand.phase is Phase.PLAY
    assert sum(isinstance(op, CardPass) for op in hand.operations) == 8


def test_both_partners_nil_no_exchange() -> None:
    hand = bid_hand(PASS_2, (3, 0, 4, 0))
    assert hand.phase is Phase.PLAY
    expect_illegal(lambda: hand.pass_card(3, parse_card("5H")),
                   "seat 3 passed 5H but no side has a nil to pass to (none, or both partners bid nil)")
    without_nil = bid_hand(PASS_2, (3, 3, 4, 3))
    assert without_nil.phase is Phase.PLAY


def test_two_sides_exchange_in_bidding_order() -> None:
    hand = bid_hand(RuleSet(nil_pass=1), (0, 0, 4, 3))
    assert exchange_steps(hand, ("2 7D", "0 AC", "3 5H", "1 2C")) == [
        "seat 2 is to pass 1 card to seat 0", "seat 0 is to pass 1 card to seat 2",
        "seat 3 is to pass 1 card to seat 1", "seat 1 is to pass 1 card to seat 3"]
    assert hand.phase is Phase.PLAY


def test_blind_nil_uses_blind_nil_pass_plain_nil_uses_nil_pass() -> None:
    rules = RuleSet(blind_nil="anytime", blind_nil_pass=1, nil_pass=3)
    hand = bid_hand(rules, (0, "bn", 4, 3))
    # Seat 0's plain nil: three cards each way with seat 2; seat 1's blind nil: one with seat 3.
    assert exchange_steps(hand, ("2 7D", "2 6D", "2 5D", "0 AC", "0 KC", "0 QC", "3 5H", "1 AD")) == [
        "seat 2 is to pass 3 cards to seat 0", "seat 2 is to pass 2 cards to seat 0",
        "seat 2 is to pass 1 card to seat 0", "seat 0 is to pass 3 cards to seat 2",
        "seat 0 is to pass 2 cards to seat 2", "seat 0 is to pass 1 card to seat 2",
        "seat 3 is to pass 1 card to seat 1", "seat 1 is to pass 1 card to seat 3"]
    assert hand.phase is Phase.PLAY


def test_blind_nil_beside_a_plain_nil() -> None:
    # A side with a blind nil exchanges for it (blind_nil_pass cards), its plain nil beside it
    # or not; with blind_nil_pass = 0 the side has two nils and passes nothing.
    both = RuleSet(blind_nil="anytime", blind_nil_pass=2, nil_pass=4)
    hand = bid_hand(both, (3, 0, 4, "bn"))
    assert exchange_steps(hand, ("1 AD", "1 KD", "3 5H", "3 4H")) == [
        "seat 1 is to pass 2 cards to seat 3", "seat 1 is to pass 1 card to seat 3",
        "seat 3 is to pass 2 cards to seat 1", "seat 3 is to pass 1 card to seat 1"]
    assert hand.phase is Phase.PLAY
    nil_only = bid_hand(RuleSet(blind_nil="anytime", nil_pass=4), (3, 0, 4, "bn"))
    assert nil_only.phase is Phase.PLAY


def test_nil_pass_hand_scores_as_ever_and_replays(tmp_path: Path) -> None:
    hand = bid_hand(PASS_2, (3, 0, 4, 3))
    give(hand, "3 2S", "3 5H", "1 AD", "1 2S")
    auto_finish(hand)
    result = hand.result
    assert result is not None
    # The pass changes no score: the nil is worth its 100 made, or loses 100 set.
    nil_points = 100 if result.tricks[1] == 0 else -100
    side_1 = 30 + (result.tricks[3] - 3) if result.tricks[3] >= 3 else -30
    assert result.points[1] == side_1 + nil_points - result.penalty[1]
    rules_file = tmp_path / "pass.toml"
    save_rules(PASS_2.replace(name="pass-2"), rules_file)
    log = log_of(hand, str(rules_file))
    assert log.actions[4:8] == ("3 g 2S", "3 g 5H", "1 g AD", "1 g 2S")
    assert replay_hand(PASS_2, HandLog.loads(log.dumps())) == (log.result, log.tricks)
    (scored,) = score_file(write_lines(tmp_path, [log]), PASS_2)
    assert scored.bids == (3, 0, 4, 3)


def test_replay_refuses_a_pass_the_rules_do_not_have(tmp_path: Path) -> None:
    hand = bid_hand(PASS_2, (3, 0, 4, 3))
    give(hand, "3 2S", "3 5H", "1 AD", "1 2S")
    log = log_of(auto_finish(hand))
    with pytest.raises(ValueError, match="no cards are passed"):
        score_file(write_lines(tmp_path, [log]), RuleSet())


# --- the zero bid ----------------------------------------------------------------------------------

ZERO = RuleSet(zero_bid="zero")


def test_zero_bid_is_a_contract_its_tricks_count() -> None:
    # Side 0: seat 0 bids 0 and takes 1, seat 2 bids 4 and takes 4: contract 4, 5 tricks, made:
    # 40 + 1 bag = 41 (as a nil it would have been set: 40 + 1 bag - 100 = -59).
    # Side 1: 3 + 6 = 9, takes 3 + 4 = 7: set, -90.
    zero = score_hand(ZERO, (0, 3, 4, 6), (1, 3, 4, 5))
    assert zero.points == (41, -90) and zero.bags == (1, 0) and zero.nil == (None, None, None, None)
    nil = score_hand(RuleSet(), (0, 3, 4, 6), (1, 3, 4, 5))
    assert nil.points == (-59, -90) and nil.nil == ("set", None, None, None)


def test_zero_bid_contract_of_zero_every_trick_a_bag() -> None:
    # Both partners bid 0: a contract of 0, always made; its 3 tricks are 3 bags, 8 carried make 11:
    # one penalty of 100, 1 bag carried: 0 + 3 - 100 = -97. Side 1 bids 9 and takes 10: 91.
    result = score_hand(ZERO, (0, 3, 0, 6), (2, 3, 1, 7), (200, 100), (8, 0))
    assert result.points == (-97, 91)
    assert result.penalty == (100, 0) and result.bag_total == (1, 1)
    assert result.score == (103, 191)
    # A zero taken no trick scores nothing, where a nil would have scored 100.
    assert score_hand(ZERO, (0, 4, 5, 4), (0, 4, 5, 4)).points == (50, 80)


def test_zero_bid_beside_blind_nil_and_in_solo() -> None:
    # A blind nil stays a nil under zero_bid: seat 1's blind nil made scores 200, seat 3 bid 6
    # and took 9: 60 + 3 bags. Side 0: 3 + 0, takes 3 + 1: 30 + 1 bag.
    rules = ZERO.replace(blind_nil="anytime")
    assert score_hand(rules, (3, "bn", 0, 6), (3, 0, 1, 9)).points == (31, 263)
    # Solo: seat 1 bids 0 alone and takes 2 tricks: 2 bags, 2 points.
    solo = RuleSet(mode="solo", blind_nil="off", zero_bid="zero")
    assert score_hand(solo, (3, 0, 4, 5), (3, 2, 4, 4)).points == (30, 2, 40, -50)


def test_zero_bid_hand_and_log(tmp_path: Path) -> None:
    hands, plays = stacked_deal((2, 3, 4, 4), 3)
    hand = Hand(ZERO, 3, hands)
    bid_in_turn(hand, (0, 3, 4, 4))
    assert hand.phase is Phase.PLAY  # no exchange: a zero is no nil
    for seat, card in plays:
        hand.play(seat, card)
    assert hand.result is not None
    # Side 0: 0 + 4 = 4, takes 2 + 4 = 6: 40 + 2 bags. Side 1: 3 + 4 = 7, takes 7: 70.
    assert hand.result.points == (42, 70) and hand.result.nil == (None,) * 4
    rules_file = tmp_path / "zero.toml"
    save_rules(ZERO.replace(name="zero"), rules_file)
    log = log_of(hand, str(rules_file))
    (scored,) = score_file(write_lines(tmp_path, [log]))
    assert scored.result.points == (42, 70)


@pytest.mark.parametrize(("changes", "message"), [
    ({"nil_pass": 5}, "nil_pass=5: allowed 0 to 4"),
    ({"nil_pass": -1}, "nil_pass=-1: allowed 0 to 4"),
    ({"nil_pass": 2, "mode": "solo", "blind_nil": "off"},
     "nil_pass=2: allowed 0 with mode='solo' (no partners)"),
    ({"nil_pass": 1, "mode": "three-player", "blind_nil": "off"},
     "nil_pass=1: allowed 0 with mode='three-player' (no partners)"),
    ({"nil_pass": 1, "min_bid": 1, "blind_nil": "off"},
     "nil_pass=1: allowed 0 when min_bid=1 (no nil to pass to)"),
    ({"nil_pass": 2, "zero_bid": "zero"},
     "nil_pass=2: allowed 0 with zero_bid='zero' (a bid of 0 is not a nil; no nil to pass to)"),
    ({"nil_pass": 2, "forced_mode": "suicide", "blind_nil": "off"},
     "nil_pass=2: allowed 0 with forced_mode='suicide' (a forced mode sets every bid itself)"),
    ({"zero_bid": "none"}, "zero_bid='none': allowed nil, zero"),
    ({"zero_bid": "zero", "min_bid": 1, "blind_nil": "off"},
     "min_bid=1: allowed 0 with zero_bid='zero' (a bid of 0 is a contract, not a nil)"),
    ({"zero_bid": "zero", "both_partners_nil": "forbidden"},
     "both_partners_nil='forbidden': allowed 'allowed' with zero_bid='zero' (a bid of 0 is a "
     "contract, not a nil)"),
])
def test_refused_combinations(changes: dict[str, object], message: str) -> None:
    with pytest.raises(RulesError) as raised:
        RuleSet(**changes)  # type: ignore[arg-type]
    assert str(raised.value) == message

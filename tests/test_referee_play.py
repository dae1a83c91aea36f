"""Legal moves, trick winners and IllegalMove messages of the referee.

Each test names the docs/rules.md baseline rule (or docs/scoring.md "Play" reading) it checks.
The deals are written out card by card so that every void and every holding is visible.
"""

from __future__ import annotations

import pytest
from refereeplay import bid_all, expect_illegal, play

from spades_sim.cards import parse_card, parse_cards
from spades_sim.referee import Hand, Phase, trick_winner_index
from spades_sim.referee.handlog import Bid, BlindNilBid, CardPlay
from spades_sim.rules import BlindNil, RuleSet

STANDARD = RuleSet()

# Deal C: seat 0 has no spade and no diamond, seat 3 no club and no diamond,
# seat 2 holds the top hearts and the top four spades.
DEAL_C = (
    "AC KC QC JC 10C 9C 8C 7C 6C 5C 8H 7H 6H",
    "4C 3C 2C AD KD QD JD 10D 9D 8D JH 10H 9H",
    "7D 6D 5D 4D 3D 2D AH KH QH AS KS QS JS",
    "5H 4H 3H 2H 10S 9S 8S 7S 6S 5S 4S 3S 2S",
)

# Deal D: one suit a seat; seat 0 holds every spade.
DEAL_D = (
    "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S",
    "AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H",
    "AD KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D 2D",
    "AC KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C 2C",
)


def deal_c_hand() -> Hand:
    """Deal C with dealer 1, so seat 2 leads the first trick; all bid 3."""
    hand = Hand(STANDARD, 1, DEAL_C)
    bid_all(hand)
    return hand


# --- first lead and leading spades ---


def test_rules_first_lead_is_dealer_left() -> None:
    hand = deal_c_hand()
    assert hand.phase is Phase.PLAY
    assert hand.turn_index == 2


def test_rules_first_lead_no_spade() -> None:
    hand = deal_c_hand()
    expect_illegal(lambda: hand.play(2, parse_card("AS")), "trick 1: seat 2 led AS before spades were broken")
    assert not hand.can_play(2, parse_card("AS"))
    assert hand.legal_plays(2) == parse_cards("2D 3D 4D 5D 6D 7D QH KH AH")


def test_rules_cannot_lead_spade_before_broken_trick3() -> None:
    hand = deal_c_hand()
    play(hand, "2 AH", "3 2H", "0 6H", "1 9H", "2 KH", "3 3H", "0 7H", "1 10H")
    assert hand.turn_index == 2 and len(hand.tricks) == 2
    expect_illegal(lambda: hand.play(2, parse_card("JS")), "trick 3: seat 2 led JS before spades were broken")


def test_scoring_md_may_lead_spade_holding_only_spades() -> None:
    hand = Hand(STANDARD, 3, DEAL_D)
    bid_all(hand)
    assert hand.legal_plays(0) == parse_cards("2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS")
    play(hand, "0 2S", "1 AH", "2 AD", "3 AC")
    assert hand.tricks[-1].winner == 0
    # Leading a spade when holding only spades does not itself break spades.
    assert not hand.spades_broken_status


def test_rules_spade_on_another_suit_breaks_spades_and_wins() -> None:
    hand = deal_c_hand()
    play(hand, "2 AH", "3 2H", "0 6H", "1 9H", "2 KH", "3 3H", "0 7H", "1 10H")
    play(hand, "2 QH", "3 4H", "0 8H", "1 JH")
    assert not hand.spades_broken_status
    # Trick 4: seat 3 is void in diamonds and trumps with its lowest spade.
    play(hand, "2 2D", "3 2S")
    assert hand.spades_broken_status
    play(hand, "0 5C", "1 AD")
    assert hand.tricks[3].winner == 3  # 2S beats the ace of the suit led
    # Now broken: seat 3 may lead a spade although it still holds 5H.
    assert hand.can_play(3, parse_card("3S"))


# --- following suit ---


def test_rules_must_follow_suit() -> None:
    hand = deal_c_hand()
    play(hand, "2 AH")
    expect_illegal(
        lambda: hand.play(3, parse_card("2S")), "trick 1: seat 3 must follow hearts; holds 2H 3H 4H 5H"
    )
    assert hand.legal_plays(3) == parse_cards("2H 3H 4H 5H")


def test_rules_void_may_play_any_card() -> None:
    hand = Hand(STANDARD, 3, DEAL_C)  # seat 0 leads
    bid_all(hand)
    play(hand, "0 AC")
    assert hand.legal_plays(1) == parse_cards("2C 3C 4C")
    play(hand, "1 2C")
    # Seats 2 and 3 hold no club: every card they hold is legal, spades included.
    assert hand.legal_plays(2) == tuple(sorted(parse_cards(DEAL_C[2])))
    play(hand, "2 2D")
    assert hand.legal_plays(3) == tuple(sorted(parse_cards(DEAL_C[3])))


def test_rules_must_follow_spades_when_spade_led() -> None:
    hand = deal_c_hand()
    play(hand, "2 AH", "3 2H", "0 6H", "1 9H", "2 KH", "3 3H", "0 7H", "1 10H")
    play(hand, "2 QH", "3 4H", "0 8H", "1 JH", "2 2D", "3 2S", "0 5C", "1 AD")
    play(hand, "3 3S", "0 AC", "1 2C")  # seats 0 and 1 have no spade
    expect_illegal(
        lambda: hand.play(2, parse_card("3D")), "trick 5: seat 2 must follow spades; holds JS QS KS AS"
    )
    play(hand, "2 JS")
    assert hand.tricks[-1].winner == 2


# --- trick winners ---


def test_rules_highest_spade_wins() -> None:
    hand = Hand(STANDARD, 3, DEAL_C)
    bid_all(hand)
    play(hand, "0 AC", "1 2C", "2 2D", "3 2H")  # off-suit cards lose to the suit led
    play(hand, "0 KC", "1 3C", "2 JS", "3 10S")  # two trumps: the higher wins
    assert [(t.leader, t.winner) for t in hand.tricks] == [(0, 0), (0, 2)]
    assert hand.turn_index == 2  # the winner leads the next trick


def test_rules_off_suit_high_card_loses_to_led_suit() -> None:
    hand = Hand(STANDARD, 0, DEAL_D)  # seat 1 (all hearts) leads
    bid_all(hand)
    play(hand, "1 2H", "2 AD", "3 AC", "0 2S")
    assert hand.tricks[0].winner == 0  # the only spade
    assert trick_winner_index(parse_cards("2H AD AC 3H")) == 3  # no spade: highest heart


@pytest.mark.parametrize(
    ("trick", "position"),
    [("KH AC 2H QH", 0), ("5D 6D 7D 8D", 3), ("KH AC 2S 3S", 3), ("2S AH AS KS", 2), ("9C 9D 9H 10C", 3)],
)
def test_trick_winner_index(trick: str, position: int) -> None:
    assert trick_winner_index(parse_cards(trick)) == position


# --- turn, holding and bidding messages ---


def test_bid_out_of_turn_message() -> None:
    hand = Hand(STANDARD, 3, DEAL_C)
    expect_illegal(lambda: hand.bid(1, 3), "seat 1 bid out of turn (seat 0 is to bid)")
    assert not hand.can_bid(1, 3) and hand.can_bid(0, 3)


def test_bid_range_message() -> None:
    hand = Hand(STANDARD, 1, DEAL_C)
    expect_illegal(lambda: hand.bid(2, 14), "seat 2 bid 14: allowed 0-13")
    expect_illegal(lambda: hand.bid(2, -1), "seat 2 bid -1: allowed 0-13")


def test_rules_min_bid_1_refuses_nil() -> None:
    hand = Hand(RuleSet(min_bid=1, blind_nil=BlindNil.OFF), 3, DEAL_C)
    expect_illegal(lambda: hand.bid(0, 0), "seat 0 bid 0: allowed 1-13")
    assert hand.bid(0, 1) == Bid(0, 1)


def test_play_not_in_hand_message() -> None:
    hand = Hand(STANDARD, 3, DEAL_C)
    bid_all(hand)
    expect_illegal(lambda: hand.play(0, parse_card("4C")), "seat 0 played 4C, not in hand")


def test_play_out_of_turn_and_phase_messages() -> None:
    hand = Hand(STANDARD, 3, DEAL_C)
    expect_illegal(
        lambda: hand.play(0, parse_card("AC")), "seat 0 played AC during bidding (seat 0 is to bid)"
    )
    bid_all(hand)
    expect_illegal(lambda: hand.play(1, parse_card("2C")), "seat 1 played 2C out of turn (seat 0 is to play)")
    expect_illegal(lambda: hand.bid(0, 3), "seat 0 bid after bidding was over")


def test_operations_are_the_records_applied() -> None:
    hand = Hand(RuleSet(blind_nil=BlindNil.ANYTIME), 3, DEAL_C)
    assert hand.bid(0, 4) == Bid(0, 4)
    assert hand.blind_nil(1) == BlindNilBid(1)
    hand.bid(2, 3)
    hand.bid(3, 2)
    assert hand.play(0, parse_card("AC")) == CardPlay(0, parse_card("AC"))
    assert hand.operations == [Bid(0, 4), BlindNilBid(1), Bid(2, 3), Bid(3, 2), CardPlay(0, parse_card("AC"))]
    assert hand.bids == (4, "bn", 3, 2)


def test_deal_must_be_13_distinct_cards_a_seat() -> None:
    with pytest.raises(ValueError, match=r"^hands\[1\] has 12 cards: allowed 13$"):
        Hand(STANDARD, 0, (DEAL_C[0], DEAL_C[1][:-3], DEAL_C[2], DEAL_C[3]))
    with pytest.raises(
        ValueError, match=r"^hands: card AC dealt twice \(seats 0 and 1\): each card is dealt once$"
    ):
        Hand(STANDARD, 0, (DEAL_C[0], "AC" + DEAL_C[1][2:], DEAL_C[2], DEAL_C[3]))


def test_result_only_when_hand_is_over() -> None:
    hand = deal_c_hand()
    with pytest.raises(ValueError, match="the hand is not over"):
        _ = hand.result

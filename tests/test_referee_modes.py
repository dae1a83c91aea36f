"""The referee at every table mode, and the blind-nil exchange (docs/scoring.md, "Table modes
and the blind-nil exchange").

Each test names the docs/scoring.md reading it checks: "Seats and sides" (decks and hand sizes per
mode, individual scoring), "Who deals, bids and leads", "Blind nil in the individual modes", "The
two-player draw", "The blind-nil exchange" and "End of a game with more than two sides". Every
expected number is worked out by hand in the test from the bids and tricks. Scoring tests play
stacked deals (``stacking.py``) through the real API; the exchange tests write their deal out card
by card.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path

import pytest
from refereeplay import auto_finish, expect_illegal, expect_refused, give, log_of, play, write_lines
from stacking import bid_in_turn, finish, play_game_hand, play_hand, stacked_deal, stacked_draw

from spades_sim.cards import CLUBS, DIAMONDS, HEARTS, format_cards, parse_card, parse_cards
from spades_sim.referee import (
    Game,
    Hand,
    Phase,
    deck_of,
    first_bidder,
    first_leader,
    game_winner,
    replay_hand,
    score_file,
    thirteen_winner,
    trick_winner_index,
)
from spades_sim.referee.handlog import CardPass, HandLog, LogError
from spades_sim.rules import RuleSet

STANDARD = RuleSet()
SOLO = RuleSet(mode="solo", blind_nil="off", nil_value=50)
TWO = RuleSet(mode="two-player", blind_nil="off")
THREE = RuleSet(mode="three-player", blind_nil="off")
THREE_DEUCE_HIGH = THREE.replace(deck="deuce-high")
THREE_JOKERS = THREE.replace(deck="jokers", joker_deuces="none")
FIVE = RuleSet(mode="five-player", blind_nil="off", deck="jokers", joker_deuces="all")

SPADES_A_TO_3 = "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S"

# Standard deck (test_referee_play's deal C): seat 0 has no spade and no diamond, seat 1 holds the
# three lowest clubs, seat 3 the lowest hearts and nine spades.
DEAL_C = (
    "AC KC QC JC 10C 9C 8C 7C 6C 5C 8H 7H 6H",
    "4C 3C 2C AD KD QD JD 10D 9D 8D JH 10H 9H",
    "7D 6D 5D 4D 3D 2D AH KH QH AS KS QS JS",
    "5H 4H 3H 2H 10S 9S 8S 7S 6S 5S 4S 3S 2S",
)

# Two-player draw: what each player kept and what it discarded (every card of the deck once).
TWO_KEPT = ("AC KC QC JC 10C 9C 8C 7S 6S 5S 4S 3S 2S", "7C 6C 5C 4C 3C 2C AS KS QS JS 10S 9S 8S")
TWO_THROWN = ("AD KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D 2D", "AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H")


# --- decks and hand sizes per mode ("Seats and sides") -------------------------------------------


@pytest.mark.parametrize(
    ("rules", "size", "hand_size", "trumps", "absent", "plain_counts", "lowest_club"),
    [
        (SOLO, 52, 13, SPADES_A_TO_3 + " 2S", "BJ LJ", (13, 13, 13), "2C"),
        (TWO, 52, 13, SPADES_A_TO_3 + " 2S", "BJ LJ", (13, 13, 13), "2C"),
        (THREE, 51, 17, SPADES_A_TO_3 + " 2S", "2C BJ LJ", (12, 13, 13), "3C"),
        (THREE_DEUCE_HIGH, 51, 17, "2S " + SPADES_A_TO_3, "2C BJ LJ", (12, 13, 13), "3C"),
        (THREE_JOKERS, 54, 18, "BJ LJ " + SPADES_A_TO_3 + " 2S", "", (13, 13, 13), "2C"),
        (FIVE, 50, 10, "BJ LJ " + SPADES_A_TO_3, "2C 2D 2H 2S", (12, 12, 12), "3C"),
    ],
    ids=["solo", "two-player", "three-player", "three-deuce-high", "three-jokers", "five-player"],
)
def test_mode_deck_and_hand_size(
    rules: RuleSet, size: int, hand_size: int, trumps: str, absent: str,
    plain_counts: tuple[int, int, int], lowest_club: str,
) -> None:  # fmt: skip
    deck = deck_of(rules)
    assert len(deck.cards) == size == rules.deck_size
    assert rules.hand_size == hand_size
    assert format_cards(deck.trumps) == trumps
    assert not set(parse_cards(absent)) & deck.cards
    assert tuple(len(deck.suit_cards(suit)) for suit in (CLUBS, DIAMONDS, HEARTS)) == plain_counts
    assert sum(plain_counts) + len(deck.trumps) == size
    assert format_cards([deck.lowest_club]) == lowest_club


def test_five_player_50_cards_10_each_14_trumps_3c_lowest_club() -> None:
    deck = deck_of(FIVE)
    assert len(deck.cards) == 50 and len(deck.trumps) == 14
    assert format_cards(deck.suit_cards(CLUBS)) == "3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC"
    hands, _ = stacked_deal((2, 2, 2, 2, 2), 4, FIVE)
    hand = Hand(FIVE, 4, hands)
    assert [len(seat_cards) for seat_cards in hand.hands] == [10] * 5
    assert set().union(*map(set, hand.hands)) == deck.cards
    # 3C is the lowest club: under two_of_clubs its holder leads it.
    holder = next(seat for seat, seat_cards in enumerate(hands) if parse_card("3C") in seat_cards)
    assert first_leader(FIVE.replace(first_lead="two_of_clubs"), 4, hands) == holder


@pytest.mark.parametrize(
    ("rules", "counts"),
    [(SOLO, (0, 6, 3, 4)), (THREE, (6, 0, 11)), (THREE_JOKERS, (7, 0, 11)), (FIVE, (3, 0, 2, 4, 1))],
    ids=["solo", "three", "three-jokers", "five"],
)
def test_stacked_deal_is_the_whole_deck(rules: RuleSet, counts: tuple[int, ...]) -> None:
    hands, plays = stacked_deal(counts, 0, rules)
    assert sorted(card for seat_cards in hands for card in seat_cards) == sorted(deck_of(rules).cards)
    assert {len(seat_cards) for seat_cards in hands} == {rules.hand_size}
    assert plays[0][0] == 1  # the dealer's left leads


def test_three_player_deal_refuses_2c_and_four_seats() -> None:
    hands, _ = stacked_deal((6, 0, 11), 0, THREE)
    hands[2][0] = parse_card("2C")
    expect_refused(lambda: Hand(THREE, 0, hands),
                   "hands[2] holds 2C: allowed a card of the standard deck (2C removed, no jokers)")
    expect_refused(lambda: Hand(THREE, 0, DEAL_C), "hands has 4 seats: allowed 3")


def test_three_player_jokers_deal_54_cards_18_each() -> None:
    hands, _ = stacked_deal((7, 0, 11), 0, THREE_JOKERS)
    assert [len(seat_cards) for seat_cards in Hand(THREE_JOKERS, 0, hands).hands] == [18, 18, 18]
    short = [seat_cards[:17] for seat_cards in hands]
    expect_refused(lambda: Hand(THREE_JOKERS, 0, short), "hands[0] has 17 cards: allowed 18")
    assert deck_of(THREE_JOKERS).note == "54 cards, BJ and LJ added"


def test_five_player_deal_refuses_a_deuce_and_11_cards() -> None:
    hands, _ = stacked_deal((2, 2, 2, 2, 2), 4, FIVE)
    hands[1][0] = parse_card("2S")
    expect_refused(lambda: Hand(FIVE, 4, hands),
                   "hands[1] holds 2S: allowed a card of the jokers deck (2C, 2D, 2H and 2S removed, BJ and "
                   "LJ added)")
    hands, _ = stacked_deal((2, 2, 2, 2, 2), 4, FIVE)
    hands[1].append(hands[2].pop())
    expect_refused(lambda: Hand(FIVE, 4, hands), "hands[1] has 11 cards: allowed 10")


def test_five_player_trick_of_five_cards() -> None:
    # Clubs led; LJ is the only trump; 4H is off-suit.
    assert trick_winner_index(parse_cards("3C 8C LJ AC 4H"), FIVE) == 2
    assert trick_winner_index(parse_cards("3C 8C 4H AC 9C"), FIVE) == 3


# --- who deals, bids and leads -------------------------------------------------------------------


def test_three_player_dealer_right_bids_first_is_dealer_plus_2() -> None:
    rules = THREE.replace(first_bidder="dealer_right")
    hands, _ = stacked_deal((6, 0, 11), 0, THREE)
    hand = Hand(rules, 0, hands)
    # Dealer 0: the dealer's right is seat 2 (0 - 1 mod 3); then clockwise 0, 1.
    assert hand.turn_index == 2 and first_bidder(rules, 1) == 0
    expect_illegal(lambda: hand.bid(1, 5), "seat 1 bid out of turn (seat 2 is to bid)")
    for seat in (2, 0, 1):
        hand.bid(seat, 5)
    assert [op.seat_index for op in hand.operations] == [2, 0, 1]
    assert hand.phase is Phase.PLAY and hand.turn_index == 1  # the dealer's left still leads


def test_three_player_first_lead_dealer_right() -> None:
    hands, _ = stacked_deal((6, 0, 11), 1, THREE)
    hand = Hand(THREE.replace(first_lead="dealer_right"), 1, hands)
    bid_in_turn(hand, (5, 5, 5))
    assert hand.turn_index == 0  # dealer 1's right


def test_five_player_first_bidder_left_and_right() -> None:
    assert first_bidder(FIVE, 4) == 0
    assert first_bidder(FIVE.replace(first_bidder="dealer_right"), 4) == 3
    assert first_bidder(FIVE.replace(first_bidder="dealer_right"), 0) == 4


def test_seat_out_of_range_of_the_table() -> None:
    hands, _ = stacked_deal((6, 0, 11), 2, THREE)
    hand = Hand(THREE, 2, hands)
    expect_illegal(lambda: hand.bid(3, 4), "seat 3: allowed 0-2")
    expect_refused(lambda: Hand(THREE, 3, hands), "dealer 3: allowed 0-2")


@pytest.mark.parametrize(
    ("rules", "counts", "top"),
    [(THREE, (6, 0, 11), 17), (THREE_JOKERS, (7, 0, 11), 18), (FIVE, (2, 2, 2, 2, 2), 10),
     (SOLO, (0, 6, 3, 4), 13)],
    ids=["three", "three-jokers", "five", "solo"],
)
def test_bid_range_is_0_to_hand_size(rules: RuleSet, counts: tuple[int, ...], top: int) -> None:
    hands, _ = stacked_deal(counts, 0, rules)
    hand = Hand(rules, 0, hands)
    expect_illegal(lambda: hand.bid(1, top + 1), f"seat 1 bid {top + 1}: allowed 0-{top}")
    assert [t for t in range(top + 2) if hand.can_bid(1, t)] == list(range(top + 1))


def test_sum_of_bids_three_player_not_17() -> None:
    rules = THREE.replace(sum_of_bids_not_hand_size=True)
    hand = Hand(rules, 0, stacked_deal((6, 0, 11), 0, THREE)[0])  # order 1, 2, 0
    hand.bid(1, 5)
    hand.bid(2, 6)
    # 5 + 6 = 11: seat 0 may not bid 17 - 11 = 6.
    expect_illegal(lambda: hand.bid(0, 6),
                   "seat 0 bid 6: the three bids would add up to 17 (sum_of_bids_not_hand_size)")
    assert [t for t in range(18) if not hand.can_bid(0, t)] == [6]


def test_sum_of_bids_five_player_not_10_and_nil() -> None:
    rules = FIVE.replace(sum_of_bids_not_hand_size=True)
    hand = Hand(rules, 4, stacked_deal((2, 2, 2, 2, 2), 4, FIVE)[0])  # order 0, 1, 2, 3, 4
    for seat in range(4):
        hand.bid(seat, (3, 2, 0, 5)[seat])
    # 3 + 2 + 0 + 5 = 10: seat 4 may not bid nil; 1 and more are fine.
    expect_illegal(lambda: hand.bid(4, 0),
                   "seat 4 may not bid nil: the five bids would add up to 10 (sum_of_bids_not_hand_size)")
    assert hand.can_bid(4, 1)


# --- scoring in the individual modes -------------------------------------------------------------


def test_solo_nil_50_made_and_bid4_took6_scores_42() -> None:
    # Seat 0 nil, no trick: +50. Seat 1 bids 4, takes 6: 40 + 2 bags. Seat 2 bids 3, takes 3: 30.
    # Seat 3 bids 5, takes 4: -50.
    result = play_hand((0, 4, 3, 5), (0, 6, 3, 4), SOLO)
    assert result.nil == ("made", None, None, None)
    assert result.points == (50, 42, 30, -50)
    assert result.bags == (0, 2, 0, 0)
    assert result.score == (50, 42, 30, -50)


def test_solo_each_seat_its_own_bags_and_penalty() -> None:
    # Seat 1 carries 9 bags and takes 2 more: 40 + 2 - 100, 1 bag left. Seat 0's nil takes 1 trick:
    # -50; its contract of 0 is made, so the trick is a bag worth +1 (docs/scoring.md steps 1-3).
    result = play_hand(
        (0, 4, 3, 5), (1, 6, 2, 4), SOLO, score_before=(0, 100, 0, 0), bags_before=(0, 9, 3, 0)
    )
    assert result.nil == ("set", None, None, None)
    assert result.points == (-49, -58, -30, -50)
    assert result.bags == (1, 2, 0, 0)
    assert result.penalty == (0, 100, 0, 0)
    assert result.score == (-49, 42, -30, -50)
    assert result.bag_total == (1, 1, 3, 0)


def test_three_player_scoring_17_tricks() -> None:
    # Seat 0 bids 5, takes 6: 51. Seat 1 nil takes 2: -100 + 2 bags (its made contract of 0) = -98.
    # Seat 2 bids 9, takes 9: 90.
    result = play_hand((5, 0, 9), (6, 2, 9), THREE)
    assert result.nil == (None, "set", None)
    assert result.points == (51, -98, 90)
    assert result.bags == (1, 2, 0)


def test_three_player_jokers_scoring_18_tricks() -> None:
    # Seat 0 bids 6, takes 7: 61. Seat 1 nil made: +100. Seat 2 bids 10, takes 11: 101.
    result = play_hand((6, 0, 10), (7, 0, 11), THREE_JOKERS)
    assert result.points == (61, 100, 101)


def test_five_player_scoring_10_tricks() -> None:
    # Seat 0 2 -> 3: 21; seat 1 nil made: 100; seat 2 3 -> 2: -30; seat 3 4 -> 4: 40; seat 4 1 -> 1: 10.
    result = play_hand((2, 0, 3, 4, 1), (3, 0, 2, 4, 1), FIVE)
    assert result.nil == (None, "made", None, None, None)
    assert result.points == (21, 100, -30, 40, 10)
    assert result.bags == (1, 0, 0, 0, 0)


def test_two_player_scoring() -> None:
    # Seat 0 bids 5, takes 6: 51. Seat 1 bids 7, takes 7: 70.
    result = play_hand((5, 7), (6, 7), TWO)
    assert result.points == (51, 70) and result.bags == (1, 0)


# --- blind nil in the individual modes -----------------------------------------------------------

SOLO_BLIND = RuleSet(mode="solo", nil_value=50, blind_nil="when_behind", blind_nil_solo=True)


def test_solo_blind_nil_measured_against_the_leader() -> None:
    hand = Hand(SOLO_BLIND, 3, DEAL_C, score_before=(300, 200, 150, 210))  # order 0, 1, 2, 3
    expect_illegal(lambda: hand.blind_nil(0),
                   "seat 0 bid blind nil but side 0 leads by 90 (needs to trail by 100)")
    hand.bid(0, 3)
    assert hand.can_blind_nil(1)  # exactly 100 behind seat 0
    hand.blind_nil(1)
    assert hand.can_blind_nil(2)  # 150 behind
    hand.bid(2, 4)
    expect_illegal(lambda: hand.blind_nil(3),
                   "seat 3 bid blind nil but side 3 trails the leader by 90 (needs 100)")
    level = Hand(SOLO_BLIND, 3, DEAL_C, score_before=(300, 300, 0, 0))
    expect_illegal(lambda: level.blind_nil(0),
                   "seat 0 bid blind nil but side 0 is level with the leader (needs to trail by 100)")


def test_solo_blind_nil_scores_200_alone() -> None:
    # Seat 1 blind nil, no trick: +200. Seat 0 3 -> 4: 31; seat 2 4 -> 5: 41; seat 3 5 -> 4: -50.
    result = play_hand((3, "bn", 4, 5), (4, 0, 5, 4), SOLO_BLIND, score_before=(300, 200, 150, 210))
    assert result.nil == (None, "made", None, None)
    assert result.points == (31, 200, 41, -50)
    assert result.score == (331, 400, 191, 160)


# --- the two-player draw -------------------------------------------------------------------------


def test_two_player_first_non_dealer_bids_and_leads() -> None:
    hand = Hand(TWO, 0, TWO_KEPT, discards=TWO_THROWN)
    assert hand.turn_index == 1
    hand.bid(1, 6)
    hand.bid(0, 6)
    assert hand.phase is Phase.PLAY and hand.turn_index == 1
    # The first lead is under dealer_left_no_spade: seat 1 holds clubs, so no spade.
    expect_illegal(lambda: hand.play(1, parse_card("AS")), "trick 1: seat 1 led AS before spades were broken")
    play(hand, "1 2C", "0 AC")
    assert hand.tricks[0].winner == 0 and hand.turn_index == 0


def test_two_player_first_dealer_bids_and_leads() -> None:
    hand = Hand(TWO.replace(two_player_first="dealer"), 0, TWO_KEPT, discards=TWO_THROWN)
    assert hand.turn_index == 0
    hand.bid(0, 6)
    hand.bid(1, 6)
    assert hand.turn_index == 0


def test_two_player_draw_validation() -> None:
    assert Hand(TWO, 0, TWO_KEPT, discards=TWO_THROWN).discards == (
        parse_cards(TWO_THROWN[0]), parse_cards(TWO_THROWN[1]))
    # AS kept by seat 1 and discarded by seat 1 (instead of 2H).
    twice = (TWO_THROWN[0], TWO_THROWN[1].replace("2H", "AS"))
    expect_refused(lambda: Hand(TWO, 0, TWO_KEPT, discards=twice),
                   "discards: card AS dealt twice (hands[1] and discards[1]): each card is dealt once")
    twelve = (TWO_THROWN[0].replace(" 2D", ""), TWO_THROWN[1])
    expect_refused(lambda: Hand(TWO, 0, TWO_KEPT, discards=twelve), "discards[0] has 12 cards: allowed 13")
    expect_refused(lambda: Hand(TWO, 0, TWO_KEPT),
                   "discards missing: required with mode='two-player', allowed 2 strings of 13 cards "
                   "(the cards each player discarded in the draw)")
    expect_refused(lambda: Hand(STANDARD, 0, DEAL_C, discards=TWO_THROWN),
                   "discards: allowed only with mode='two-player' (mode='partnership' deals every card)")
    jokers = (TWO_THROWN[0].replace("2D", "BJ"), TWO_THROWN[1])
    expect_refused(lambda: Hand(TWO, 0, TWO_KEPT, discards=jokers),
                   "discards[0] holds BJ: allowed a card of the standard deck (52 cards, no jokers)")


def test_two_player_game_deal_passes_to_the_other_seat() -> None:
    game = Game(TWO, dealer=1)
    # Dealer 1: seat 0 bids and leads first. Seat 0 bids 5, takes 6: 51; seat 1 bids 7, takes 7: 70.
    assert play_game_hand(game, (5, 7), (6, 7)) is None
    assert game.dealer_index == 0 and game.score == (51, 70)


def test_score_file_two_player_with_discards(tmp_path: Path) -> None:
    rules_path = tmp_path / "two.toml"
    rules_path.write_text('name = "two"\nmode = "two-player"\nblind_nil = "off"\n', encoding="utf-8")
    hands, discards, plays = stacked_draw((6, 7), 1, TWO)
    hand = Hand(TWO, 1, hands, discards=discards)
    finish(hand, (5, 7), plays)
    log = log_of(hand, str(rules_path))
    assert HandLog.loads(log.dumps()) == log
    (scored,) = score_file(write_lines(tmp_path, [log]))
    assert scored.result.points == (51, 70)
    with pytest.raises(LogError) as raised:
        score_file(write_lines(tmp_path, [dataclasses.replace(log, discards=None)]))
    assert str(raised.value).startswith("line 1: discards missing: required with mode='two-player'")


def test_score_file_discards_refused_outside_two_player(tmp_path: Path) -> None:
    hands, plays = stacked_deal((4, 3, 3, 3), 3)
    hand = Hand(STANDARD, 3, hands)
    finish(hand, (3, 3, 3, 3), plays)
    log = dataclasses.replace(log_of(hand), discards=(parse_cards("BJ"), parse_cards("LJ"), (), ()))
    with pytest.raises(LogError) as raised:
        score_file(write_lines(tmp_path, [log]))
    assert str(raised.value) == (
        "line 1: discards: allowed only with mode='two-player' (mode='partnership' deals every card)")


# --- the blind-nil exchange ----------------------------------------------------------------------

EXCHANGE_2 = RuleSet(blind_nil="anytime", blind_nil_pass=2)


def exchange_hand(rules: RuleSet = EXCHANGE_2, bids: Sequence[int | str] = (3, "bn", 4, 3)) -> Hand:
    """DEAL_C, dealer 3 (bids 0, 1, 2, 3), every seat bid."""
    hand = Hand(rules, 3, DEAL_C)
    bid_in_turn(hand, bids)
    return hand


def test_exchange_order_count_and_holding() -> None:
    hand = exchange_hand()
    # Seat 1 bid blind nil: its partner, seat 3, passes 2 cards first.
    assert hand.phase is Phase.EXCHANGE and hand.turn_index == 3
    expect_illegal(lambda: hand.bid(0, 3), "seat 0 bid after bidding was over")
    expect_illegal(lambda: hand.pass_card(1, parse_card("JH")),
                   "seat 1 passed JH out of turn (seat 3 is to pass 2 cards to seat 1)")
    expect_illegal(lambda: hand.pass_card(3, parse_card("3C")), "seat 3 passed 3C, which it does not hold")
    expect_illegal(lambda: hand.play(3, parse_card("5H")),
                   "seat 3 played 5H during the blind-nil exchange (seat 3 is to pass 2 cards to seat 1)")
    give(hand, "3 2S")
    # One card is not the count: the bidder may not pass back yet.
    expect_illegal(lambda: hand.pass_card(1, parse_card("JH")),
                   "seat 1 passed JH out of turn (seat 3 is to pass 1 card to seat 1)")
    give(hand, "3 5H")
    # A third card from the partner is out of order.
    expect_illegal(lambda: hand.pass_card(3, parse_card("4H")),
                   "seat 3 passed 4H out of turn (seat 1 is to pass 2 cards to seat 3)")
    assert hand.can_pass_card(1, parse_card("2S"))  # just received, and may go back
    give(hand, "1 2S", "1 2C")
    assert hand.phase is Phase.PLAY and hand.turn_index == 0
    expect_illegal(lambda: hand.pass_card(1, parse_card("3C")),
                   "seat 1 passed 3C after the blind-nil exchange was over (seat 0 is to play)")
    assert hand.holding(1) == tuple(sorted(parse_cards(DEAL_C[1].replace("2C", "5H"))))
    assert hand.holding(3) == tuple(sorted(parse_cards(DEAL_C[3].replace("5H", "2C"))))
    assert hand.hands == tuple(parse_cards(seat) for seat in DEAL_C)  # as dealt
    assert hand.operations[4:] == [CardPass(3, parse_card("2S")), CardPass(3, parse_card("5H")),
                                   CardPass(1, parse_card("2S")), CardPass(1, parse_card("2C"))]


def test_exchange_played_card_must_be_held_after_it() -> None:
    hand = exchange_hand()
    give(hand, "3 2S", "3 5H", "1 2S", "1 2C")
    play(hand, "0 AC")
    expect_illegal(lambda: hand.play(1, parse_card("2C")), "seat 1 played 2C, not in hand")
    # Seat 1 still holds clubs (3C, 4C), so it must follow.
    expect_illegal(lambda: hand.play(1, parse_card("5H")), "trick 1: seat 1 must follow clubs; holds 3C 4C")


def test_exchange_passing_when_there_is_none() -> None:
    during_bidding = Hand(EXCHANGE_2, 3, DEAL_C)
    expect_illegal(lambda: during_bidding.pass_card(0, parse_card("AC")),
                   "seat 0 passed AC during bidding (seat 0 is to bid)")
    no_blind_nil = exchange_hand(bids=(3, 0, 4, 3))  # a plain nil exchanges nothing
    assert no_blind_nil.phase is Phase.PLAY
    expect_illegal(lambda: no_blind_nil.pass_card(0, parse_card("AC")),
                   "seat 0 passed AC but nobody bid blind nil (cards are passed only after a blind nil)")
    no_passing = exchange_hand(RuleSet(blind_nil="anytime"))
    assert no_passing.phase is Phase.PLAY
    expect_illegal(lambda: no_passing.pass_card(3, parse_card("5H")),
                   "seat 3 passed 5H but no cards are passed (blind_nil_pass=0, nil_pass=0)")


def test_exchange_both_partners_blind_nil_one_exchange() -> None:
    hand = exchange_hand(EXCHANGE_2.replace(blind_nil_pass=1), bids=(3, "bn", 4, "bn"))
    # Seat 1 bid blind nil first: it receives from seat 3, and the side exchanges once.
    assert hand.waiting_for() == "seat 3 is to pass 1 card to seat 1"
    give(hand, "3 2S")
    assert hand.waiting_for() == "seat 1 is to pass 1 card to seat 3"
    give(hand, "1 2C")
    assert hand.phase is Phase.PLAY


def test_exchange_two_sides_in_bidding_order() -> None:
    hand = exchange_hand(EXCHANGE_2.replace(blind_nil_pass=1), bids=("bn", "bn", 4, 3))
    steps = []
    for move in ("2 7D", "0 AC", "3 5H", "1 2C"):
        steps.append(hand.waiting_for())
        give(hand, move)
    assert steps == ["seat 2 is to pass 1 card to seat 0", "seat 0 is to pass 1 card to seat 2",
                     "seat 3 is to pass 1 card to seat 1", "seat 1 is to pass 1 card to seat 3"]
    assert hand.phase is Phase.PLAY


def test_exchange_two_of_clubs_leader_found_after_it() -> None:
    rules = RuleSet(blind_nil="anytime", blind_nil_pass=1, first_lead="two_of_clubs")
    hand = exchange_hand(rules)
    assert hand.leader_index == 1  # seat 1 was dealt 2C
    give(hand, "3 5H", "1 2C")
    assert hand.leader_index == hand.turn_index == 3  # seat 3 holds 2C now
    expect_illegal(lambda: hand.play(1, parse_card("3C")), "seat 1 played 3C out of turn (seat 3 is to play)")
    expect_illegal(lambda: hand.play(3, parse_card("4H")), "trick 1: seat 3 must lead 2C (two_of_clubs)")
    play(hand, "3 2C")


def exchanged_deal(
    given: Sequence[int], returned: Sequence[int]
) -> tuple[list[list[int]], list[tuple[int, int]]]:
    """The deal and plays of a stacked hand, dealer 3, whose holdings after seat 3 passes ``given``
    to seat 1 and seat 1 passes ``returned`` back are those of ``stacked_deal((4, 0, 5, 4), 3)``."""
    after, plays = stacked_deal((4, 0, 5, 4), 3)
    hands = [list(seat_cards) for seat_cards in after]
    hands[1] = [card for card in after[1] if card not in given] + list(returned)
    hands[3] = [card for card in after[3] if card not in returned] + list(given)
    return hands, plays


def test_exchange_full_hand_scores() -> None:
    after, _ = stacked_deal((4, 0, 5, 4), 3)
    given, returned = after[1][:2], after[3][:2]
    hands, plays = exchanged_deal(given, returned)
    rules = RuleSet(blind_nil_pass=2)  # blind nil when 100 behind
    hand = Hand(rules, 3, hands, score_before=(200, 100))
    bid_in_turn(hand, (3, "bn", 4, 3))
    for card in given:
        hand.pass_card(3, card)
    for card in returned:
        hand.pass_card(1, card)
    for seat, card in plays:
        hand.play(seat, card)
    # Side 0 bids 3 + 4 = 7 and takes 4 + 5 = 9: 70 + 2 bags = 72.
    # Side 1: seat 1's blind nil takes nothing: +200; seat 3 bids 3, takes 4: 30 + 1 = 231.
    assert hand.result.tricks == (4, 0, 5, 4)
    assert hand.result.nil == (None, "made", None, None)
    assert hand.result.points == (72, 231)
    assert hand.result.score == (272, 331)
    assert hand.result.bags == (2, 1)


def test_exchange_log_replay_and_refusals(tmp_path: Path) -> None:
    hand = exchange_hand()
    give(hand, "3 2S", "3 5H", "1 2S", "1 2C")
    log = log_of(auto_finish(hand))
    assert log.actions[4:8] == ("3 g 2S", "3 g 5H", "1 g 2S", "1 g 2C")
    assert log.hands[1] == parse_cards(DEAL_C[1])  # the hands before the exchange
    assert replay_hand(EXCHANGE_2, HandLog.loads(log.dumps())) == (log.result, log.tricks)
    (scored,) = score_file(write_lines(tmp_path, [log]), EXCHANGE_2)
    assert scored.bids == (3, "bn", 4, 3)

    def refused(actions: tuple[str, ...]) -> str:
        with pytest.raises(LogError) as raised:
            score_file(write_lines(tmp_path, [dataclasses.replace(log, actions=actions)]), EXCHANGE_2)
        return str(raised.value)

    bad = (*log.actions[:4], "3 g 3C", *log.actions[5:])
    assert refused(bad) == "line 1: seat 3 passed 3C, which it does not hold"
    assert refused(log.actions[:5]) == (
        "line 1: actions: the hand is unfinished after 5 actions (seat 3 is to pass 1 card to seat 1)")
    no_exchange = (*log.actions[:4], *log.actions[8:])
    first_play = log.actions[8]  # "0 p CARD": the dealer's left leads
    assert refused(no_exchange) == (
        f"line 1: seat 0 played {first_play[4:]} during the blind-nil exchange (seat 3 is to pass 2 cards "
        "to seat 1)")


# --- end of a game with more than two sides ------------------------------------------------------


def test_three_sides_tie_on_top_over_target_plays_another_hand() -> None:
    game = Game(THREE, dealer=2, score=(480, 470, 200))
    # Seat 0 bids 3, takes 3: 510. Seat 1 bids 4, takes 4: 510. Seat 2 bids 5, takes 10: 55 -> 255.
    assert play_game_hand(game, (3, 4, 5), (3, 4, 10)) is None
    assert game.score == (510, 510, 255) and game.bags == (0, 0, 5) and not game.over
    # Dealer 0 next. Seat 0 3 -> 4: 31 -> 541; seat 1 4 -> 4: 550; seat 2 5 -> 9: 54 -> 309.
    assert game.dealer_index == 0
    assert play_game_hand(game, (3, 4, 5), (4, 4, 9)) == 1
    assert game.score == (541, 550, 309) and game.bags == (1, 0, 9)


def test_solo_elimination_ends_game_highest_wins() -> None:
    game = Game(SOLO.replace(elimination=-200), dealer=3, score=(100, -150, 250, 0))
    # Seat 0 3 -> 4: 31 -> 131. Seat 1 bids 5, takes nothing: -50 -> -200, eliminated.
    # Seat 2 4 -> 5: 41 -> 291. Seat 3 1 -> 4: 13 -> 13. The highest score, seat 2, wins (under 500).
    assert play_game_hand(game, (3, 5, 4, 1), (4, 0, 5, 4)) == 2
    assert game.score == (131, -200, 291, 13)


@pytest.mark.parametrize(
    ("rules", "score", "hands_played", "winner"),
    [
        (SOLO, (505, 100, 520, 0), None, 2),  # two over the target: the higher
        (SOLO, (499, 100, 498, 0), None, None),
        (SOLO.replace(elimination=-200), (291, -200, 291, 13), None, None),  # over, a shared top
        (FIVE.replace(hand_limit=4), (90, 80, 90, 10, 0), 4, None),
        (FIVE.replace(hand_limit=4), (90, 95, 90, 10, 0), 4, 1),
        (FIVE.replace(hand_limit=4), (90, 95, 90, 10, 0), 3, None),
        (THREE, (100, 500, 100), None, 1),
    ],
)
def test_game_winner_more_than_two_sides(
    rules: RuleSet, score: tuple[int, ...], hands_played: int | None, winner: int | None
) -> None:
    assert game_winner(rules, score, hands_played) == winner


def test_solo_made_thirteen_wins_game_alone() -> None:
    rules = SOLO.replace(bid_thirteen="wins_game")
    # Seat 2 bids 13 and takes every trick: it wins whatever the scores.
    assert thirteen_winner(rules, (1, 0, 13, 2), (0, 0, 13, 0)) == 2
    assert thirteen_winner(rules, (1, 0, 13, 2), (1, 0, 12, 0)) is None


def test_game_needs_one_score_per_side() -> None:
    expect_refused(lambda: Game(THREE, score=(0, 0)), "score=[0, 0]: allowed 3 whole numbers, one per side")
    assert Game(THREE).score == (0, 0, 0) and Game(FIVE, dealer=4).bags == (0,) * 5


def test_score_file_three_player_game(tmp_path: Path) -> None:
    rules_path = tmp_path / "three.toml"
    rules_path.write_text('name = "three"\nmode = "three-player"\nblind_nil = "off"\n', encoding="utf-8")
    game = Game(THREE, dealer=2, score=(480, 470, 200))
    logs = []
    for index, (bids, counts) in enumerate([((3, 4, 5), (3, 4, 10)), ((3, 4, 5), (4, 4, 9))]):
        hands, plays = stacked_deal(counts, game.dealer_index, THREE)
        hand = game.start_hand(hands)
        finish(hand, bids, plays)
        game.record(hand)
        logs.append(log_of(hand, str(rules_path), game=0, hand=index))
    logs[-1] = dataclasses.replace(logs[-1], game_over={"winner": 1})
    scored = score_file(write_lines(tmp_path, logs))
    assert [s.dealer for s in scored] == [2, 0]
    assert [s.game_winner for s in scored] == [None, 1]
    assert scored[-1].result.score == (541, 550, 309)
    # Per-side lists must have one entry per side of the table.
    wrong = dataclasses.replace(logs[0], score_before=(480, 470))
    with pytest.raises(LogError) as raised:
        score_file(write_lines(tmp_path, [wrong]))
    assert str(raised.value) == "line 1: score_before=[480, 470]: allowed 3 whole numbers, one per side"

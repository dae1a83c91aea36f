"""The referee under every rule option of docs/scoring.md "Rule options".

Each test is named after the option it checks, and every expected value is worked out by hand
in the test: trick winners and following under each deck, the deck check, bid order, the first
lead, leading trumps, both partners nil, the scoring options and the end of a game (target,
bid_thirteen wins_game, elimination, hand_limit). The deals are written out card by card so that
every void and every holding is visible; the referee's own deck check confirms each of them.
Scoring tests play stacked standard-deck hands (see :func:`stacked_deal`) through the real API.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path

import pytest
from refereeplay import auto_finish, bid_all, expect_illegal, log_of, play, write_lines
from stacking import finish, play_game_hand, play_hand, stacked_deal

from spades_sim.cards import CLUBS, DIAMONDS, HEARTS, SPADES, format_cards, parse_card, parse_cards
from spades_sim.referee import (
    Game,
    Hand,
    Phase,
    deck_of,
    game_winner,
    replay_hand,
    score_file,
    score_hand,
    trick_winner_index,
)
from spades_sim.referee.handlog import HandLog, LogError
from spades_sim.rules import RulesError, RuleSet, load_preset

STANDARD = RuleSet()
JOKERS = RuleSet(deck="jokers")
JOKERS_CLUBS_HEARTS = RuleSet(deck="jokers", joker_deuces="clubs_hearts")
JJDD = RuleSet(deck="joker-joker-deuce-deuce")
JJDA = RuleSet(deck="joker-joker-deuce-ace")
DEUCE_HIGH = RuleSet(deck="deuce-high")
ACE = 12

# --- deals ---------------------------------------------------------------------------------------

# Standard deck (test_referee_play's deal C): seat 0 has no spade and no diamond, seat 3 no club
# and no diamond, seat 2 the top hearts and the top four spades; seat 1 holds 2C.
DEAL_C = (
    "AC KC QC JC 10C 9C 8C 7C 6C 5C 8H 7H 6H",
    "4C 3C 2C AD KD QD JD 10D 9D 8D JH 10H 9H",
    "7D 6D 5D 4D 3D 2D AH KH QH AS KS QS JS",
    "5H 4H 3H 2H 10S 9S 8S 7S 6S 5S 4S 3S 2S",
)

# Jokers deck (2C and 2D removed): seat 0 all 13 hearts; the others are void in hearts.
# Clubs 3C-AC (12, all seat 1), diamonds 3D-AD (12), spades 13, BJ and LJ.
DEAL_J = (
    "AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H",
    "AS AC KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C",
    "LJ 2S KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D",
    "BJ AD KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S",
)

# Jokers deck: seat 0 holds only spades; seat 1's only trump is LJ, seat 2's only trump is BJ.
DEAL_J2 = (
    "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S",
    "LJ AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H",
    "BJ 2H KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C",
    "AC AD KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D",
)

# Joker-joker-deuce-deuce (2H and 2C removed; 2D is a trump): seat 0 holds only trumps;
# seat 1's only trump is 2S, seat 2's is 2D (and seat 2 holds no diamond), seat 3's is 3S.
DEAL_K = (
    "BJ LJ AS KS QS JS 10S 9S 8S 7S 6S 5S 4S",
    "2S AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H",
    "2D AC KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C",
    "3S AD KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D",
)

# Joker-joker-deuce-deuce: seat 1 holds 2D and one real diamond, 3D.
DEAL_K2 = (
    "AD KD QD JD 10D 9D 8D 7D 6D 5D 4D AH KH",
    "2D 3D AC KC QC JC 10C 9C 8C 7C 6C 5C 4C",
    "2S AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S",
    "BJ LJ 3C QH JH 10H 9H 8H 7H 6H 5H 4H 3H",
)

# Joker-joker-deuce-deuce: nobody but seat 0 holds a heart; seat 1's only trump is 2D.
DEAL_K3 = (
    "AS AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H",
    "2D AC KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C",
    "KS AD KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D",
    "BJ LJ 2S QS JS 10S 9S 8S 7S 6S 5S 4S 3S",
)

# Joker-joker-deuce-ace (2H and 2D removed; 2C stays): seat 3 holds 2C; seats 0 and 1 hold no club.
DEAL_L = (
    "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S BJ",
    "2S LJ AH KH QH JH 10H 9H 8H 7H 6H 5H 4H",
    "3H AC KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C",
    "2C AD KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D",
)

# Standard 52 cards for deuce-high: seat 0 all hearts; AS with seat 1, 2S with seat 2, KS with seat 3.
DEAL_H = (
    "AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H",
    "AS KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C 2C",
    "2S KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D 2D",
    "AC AD KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S",
)


# --- helpers -------------------------------------------------------------------------------------


def dealt(rules: RuleSet, dealer: int, deal: Sequence[str]) -> Hand:
    """A hand of ``deal`` in which every seat has bid 3."""
    hand = Hand(rules, dealer, deal)
    bid_all(hand)
    assert hand.phase is Phase.PLAY
    return hand


# --- decks: composition and the deck check ------------------------------------------------------

SPADES_A_TO_3 = "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S"


@pytest.mark.parametrize(
    ("rules", "trumps", "absent", "plain_counts", "lowest_club"),
    [
        (STANDARD, SPADES_A_TO_3 + " 2S", "BJ LJ", (13, 13, 13), "2C"),
        (JOKERS, "BJ LJ " + SPADES_A_TO_3 + " 2S", "2C 2D", (12, 12, 13), "3C"),
        (JOKERS_CLUBS_HEARTS, "BJ LJ " + SPADES_A_TO_3 + " 2S", "2C 2H", (12, 13, 12), "3C"),
        (JJDD, "BJ LJ 2D 2S " + SPADES_A_TO_3, "2H 2C", (12, 12, 12), "3C"),
        (JJDA, "BJ LJ 2S " + SPADES_A_TO_3, "2H 2D", (13, 12, 12), "2C"),
        (DEUCE_HIGH, "2S " + SPADES_A_TO_3, "BJ LJ", (13, 13, 13), "2C"),
    ],
    ids=["standard", "jokers", "jokers-clubs-hearts", "jjdd", "jjda", "deuce-high"],
)
def test_deck_composition(
    rules: RuleSet, trumps: str, absent: str, plain_counts: tuple[int, int, int], lowest_club: str
) -> None:
    deck = deck_of(rules)
    assert len(deck.cards) == 52
    assert format_cards(deck.trumps) == trumps
    assert not set(parse_cards(absent)) & deck.cards
    # clubs, diamonds, hearts as plain suits; trumps count as spades.
    assert tuple(len(deck.suit_cards(suit)) for suit in (CLUBS, DIAMONDS, HEARTS)) == plain_counts
    assert len(deck.suit_cards(SPADES)) == len(deck.trumps)
    assert sum(plain_counts) + len(deck.trumps) == 52
    assert format_cards([deck.lowest_club]) == lowest_club


def test_deck_trump_counts_13_15_16_15_13() -> None:
    counts = [len(deck_of(rules).trumps) for rules in (STANDARD, JOKERS, JJDD, JJDA, DEUCE_HIGH)]
    assert counts == [13, 15, 16, 15, 13]


def test_deck_jjdd_diamonds_run_ace_to_three() -> None:
    assert format_cards(deck_of(JJDD).suit_cards(DIAMONDS)) == "3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD"


JOKERS_NOTE = "(2C and 2D removed, BJ and LJ added)"
NO_JOKERS_NOTE = "(52 cards, no jokers)"


@pytest.mark.parametrize(
    ("rules", "deal", "message"),
    [
        (JOKERS, DEAL_C, f"hands[1] holds 2C: allowed a card of the jokers deck {JOKERS_NOTE}"),
        (JOKERS_CLUBS_HEARTS, DEAL_C,
         "hands[1] holds 2C: allowed a card of the jokers deck (2C and 2H removed, BJ and LJ added)"),
        (JOKERS_CLUBS_HEARTS, DEAL_J,
         "hands[0] holds 2H: allowed a card of the jokers deck (2C and 2H removed, BJ and LJ added)"),
        (STANDARD, DEAL_J, f"hands[2] holds LJ: allowed a card of the standard deck {NO_JOKERS_NOTE}"),
        (DEUCE_HIGH, DEAL_K, f"hands[0] holds BJ: allowed a card of the deuce-high deck {NO_JOKERS_NOTE}"),
        (JJDD, DEAL_J,
         "hands[0] holds 2H: allowed a card of the joker-joker-deuce-deuce deck "
         "(2H and 2C removed, BJ and LJ added)"),
        (JJDA, DEAL_K,
         "hands[2] holds 2D: allowed a card of the joker-joker-deuce-ace deck "
         "(2H and 2D removed, BJ and LJ added)"),
        (JOKERS, DEAL_K, f"hands[2] holds 2D: allowed a card of the jokers deck {JOKERS_NOTE}"),
    ],
    ids=["jokers-2C", "clubs-hearts-2C", "clubs-hearts-2H", "standard-LJ", "deuce-high-BJ", "jjdd-2H",
         "jjda-2D", "jokers-2D"],
)
def test_deck_check_refuses_a_card_outside_the_deck(
    rules: RuleSet, deal: Sequence[str], message: str
) -> None:
    # The first card outside the deck, seat by seat in the order written, is named.
    with pytest.raises(ValueError) as raised:
        Hand(rules, 0, deal)
    assert str(raised.value) == message


@pytest.mark.parametrize(
    ("rules", "deal"),
    [(STANDARD, DEAL_C), (DEUCE_HIGH, DEAL_H), (JOKERS, DEAL_J), (JOKERS, DEAL_J2), (JJDD, DEAL_K),
     (JJDD, DEAL_K2), (JJDD, DEAL_K3), (JJDA, DEAL_L)],
)
def test_deck_check_accepts_exactly_the_deck(rules: RuleSet, deal: Sequence[str]) -> None:
    hand = Hand(rules, 0, deal)
    assert set().union(*map(set, hand.hands)) == deck_of(rules).cards


def test_deck_check_12_cards_a_seat_refused() -> None:
    with pytest.raises(ValueError, match=r"^hands\[3\] has 12 cards: allowed 13$"):
        Hand(JOKERS, 0, (*DEAL_J[:3], DEAL_J[3][3:]))


def test_deck_check_card_id_out_of_range() -> None:
    hands = [list(parse_cards(seat)) for seat in DEAL_J]
    hands[1][0] = 54
    with pytest.raises(ValueError, match=r"^hands\[1\] holds 54: allowed a card id 0-53$"):
        Hand(JOKERS, 0, hands)


# --- decks: trick winners ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "trick", "position"),
    [
        (JOKERS, "2H AS LJ BJ", 3),  # BJ > LJ > AS
        (JOKERS, "2H BJ LJ AS", 1),
        (JOKERS, "2H AS LJ 3C", 2),  # LJ > AS
        (JOKERS, "LJ AS KS 2S", 0),
        (JJDD, "AS 2S 2D 3S", 2),  # 2D > 2S > AS
        (JJDD, "KD 2D AD 3D", 1),  # 2D is a trump, not a diamond
        (JJDD, "3D 4D 2S 2D", 3),
        (JJDD, "2D LJ 2S AS", 1),
        (JJDA, "AS 2S KS 3S", 1),  # 2S > AS
        (JJDA, "2S LJ AS KS", 1),
        (DEUCE_HIGH, "AS 2S KS 3S", 1),  # 2S > AS
        (DEUCE_HIGH, "2H AS 2S KS", 2),
        (STANDARD, "AS 2S KS 3S", 0),  # the standard deck, for contrast
    ],
)
def test_deck_trick_winner(rules: RuleSet, trick: str, position: int) -> None:
    assert trick_winner_index(parse_cards(trick), rules) == position


def test_deck_jokers_bj_beats_lj_beats_as_in_play() -> None:
    hand = dealt(JOKERS, 3, DEAL_J)  # seat 0 leads; seats 1-3 hold no heart
    play(hand, "0 2H", "1 AS", "2 LJ", "3 BJ")
    assert hand.tricks[0].winner == 3


def test_deck_jokers_joker_breaks_spades() -> None:
    hand = dealt(JOKERS, 3, DEAL_J)
    play(hand, "0 2H", "1 3C")
    assert not hand.spades_broken_status
    play(hand, "2 LJ")
    assert hand.spades_broken_status
    play(hand, "3 AD")
    assert hand.tricks[0].winner == 2  # LJ, the only trump
    assert hand.can_play(2, parse_card("2S"))  # broken by the joker: seat 2 may lead a spade


def test_deck_jokers_joker_may_not_be_led_before_broken() -> None:
    hand = dealt(JOKERS, 1, DEAL_J)  # seat 2 leads
    expect_illegal(lambda: hand.play(2, parse_card("LJ")), "trick 1: seat 2 led LJ before spades were broken")
    assert hand.legal_plays(2) == parse_cards("3D 4D 5D 6D 7D 8D 9D 10D JD QD KD")


def test_deck_jokers_joker_follows_spades() -> None:
    hand = dealt(JOKERS, 3, DEAL_J2)  # seat 0 holds only spades and leads one
    play(hand, "0 2S")
    expect_illegal(lambda: hand.play(1, parse_card("3H")), "trick 1: seat 1 must follow spades; holds LJ")
    assert hand.legal_plays(1) == parse_cards("LJ")
    play(hand, "1 LJ")
    assert hand.legal_plays(2) == parse_cards("BJ")
    play(hand, "2 BJ", "3 3D")
    assert hand.tricks[0].winner == 2
    assert not hand.spades_broken_status  # a trump lead breaks nothing


def test_deck_jokers_joker_is_not_a_diamond() -> None:
    hand = dealt(JOKERS, 2, DEAL_J)  # seat 3 leads
    play(hand, "3 AD", "0 2H", "1 3C")
    expect_illegal(
        lambda: hand.play(2, parse_card("LJ")),
        "trick 1: seat 2 must follow diamonds; holds 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD",
    )


def test_deck_jjdd_2d_follows_spades_and_beats_2s() -> None:
    hand = dealt(JJDD, 3, DEAL_K)  # seat 0 holds only trumps and leads AS
    play(hand, "0 AS")
    assert hand.legal_plays(1) == parse_cards("2S")
    play(hand, "1 2S")
    expect_illegal(lambda: hand.play(2, parse_card("3C")), "trick 1: seat 2 must follow spades; holds 2D")
    play(hand, "2 2D", "3 3S")
    assert hand.tricks[0].winner == 2  # 2D > 2S > AS > 3S


def test_deck_jjdd_diamond_lead_cannot_be_followed_with_2d() -> None:
    hand = dealt(JJDD, 3, DEAL_K2)  # seat 0 leads
    play(hand, "0 KD")
    expect_illegal(lambda: hand.play(1, parse_card("2D")), "trick 1: seat 1 must follow diamonds; holds 3D")
    assert hand.legal_plays(1) == parse_cards("3D")
    play(hand, "1 3D", "2 2S", "3 3C")
    assert hand.tricks[0].winner == 2


def test_deck_jjdd_2d_trumps_a_diamond_lead() -> None:
    hand = dealt(JJDD, 2, DEAL_K)  # seat 3 leads; seat 2's 2D is its only "diamond", so it is void
    play(hand, "3 AD", "0 4S", "1 3H")
    assert hand.legal_plays(2) == tuple(sorted(parse_cards(DEAL_K[2])))
    play(hand, "2 2D")
    assert hand.tricks[0].winner == 2  # 2D beats 4S


def test_deck_jjdd_2d_breaks_spades() -> None:
    hand = dealt(JJDD, 3, DEAL_K3)  # seat 0 leads; only seat 0 holds hearts
    expect_illegal(lambda: hand.play(0, parse_card("AS")), "trick 1: seat 0 led AS before spades were broken")
    play(hand, "0 AH", "1 2D")
    assert hand.spades_broken_status
    play(hand, "2 3D", "3 3S")
    assert hand.tricks[0].winner == 1  # 2D > 3S


def test_deck_jjdd_2d_may_not_be_led_before_broken() -> None:
    hand = dealt(JJDD, 0, DEAL_K3)  # seat 1 leads
    expect_illegal(lambda: hand.play(1, parse_card("2D")), "trick 1: seat 1 led 2D before spades were broken")
    assert hand.legal_plays(1) == parse_cards("3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC")


def test_deck_jjda_2s_beats_as_in_play() -> None:
    hand = dealt(JJDA.replace(first_lead="two_of_clubs"), 0, DEAL_L)  # seat 3 holds 2C and leads it
    assert hand.turn_index == 3
    play(hand, "3 2C", "0 AS", "1 2S", "2 AC")
    assert hand.tricks[0].winner == 1  # 2S > AS > AC


def test_deck_deuce_high_2s_beats_as() -> None:
    moves = ("0 2H", "1 AS", "2 2S", "3 KS")  # seats 1-3 hold no heart
    hand = dealt(DEUCE_HIGH, 3, DEAL_H)
    play(hand, *moves)
    assert hand.tricks[0].winner == 2
    standard = dealt(STANDARD, 3, DEAL_H)
    play(standard, *moves)
    assert standard.tricks[0].winner == 1  # the same trick in the standard deck: AS wins


# --- bidding and leading ------------------------------------------------------------------------


def test_first_bidder_dealer_right_order() -> None:
    hand = Hand(RuleSet(first_bidder="dealer_right"), 0, DEAL_C)
    # Dealer 0: the dealer's right (3) bids first, then the dealer (0), its left (1), its partner (2).
    assert hand.turn_index == 3
    expect_illegal(lambda: hand.bid(1, 3), "seat 1 bid out of turn (seat 3 is to bid)")
    for seat in (3, 0, 1):
        hand.bid(seat, 3)
        assert hand.phase is Phase.BID
    hand.bid(2, 3)
    assert [op.seat_index for op in hand.operations] == [3, 0, 1, 2]
    assert hand.phase is Phase.PLAY and hand.turn_index == 1  # the dealer's left still leads


def test_first_bidder_dealer_left_default_order() -> None:
    hand = Hand(STANDARD, 0, DEAL_C)
    assert hand.turn_index == 1


def test_first_lead_two_of_clubs_standard_deck() -> None:
    hand = dealt(RuleSet(first_lead="two_of_clubs"), 1, DEAL_C)  # seat 2 bid first; seat 1 holds 2C
    assert hand.operations[0].seat_index == 2
    assert hand.turn_index == 1
    expect_illegal(lambda: hand.play(1, parse_card("3C")), "trick 1: seat 1 must lead 2C (two_of_clubs)")
    assert hand.legal_plays(1) == parse_cards("2C")
    play(hand, "1 2C")


def test_first_lead_two_of_clubs_jokers_deck_leads_3c() -> None:
    hand = dealt(JOKERS.replace(first_lead="two_of_clubs"), 2, DEAL_J)  # 2C is removed; seat 1 holds 3C
    assert hand.turn_index == 1
    expect_illegal(lambda: hand.play(1, parse_card("AC")), "trick 1: seat 1 must lead 3C (two_of_clubs)")
    expect_illegal(lambda: hand.play(1, parse_card("AS")), "trick 1: seat 1 must lead 3C (two_of_clubs)")
    assert hand.legal_plays(1) == parse_cards("3C")
    play(hand, "1 3C", "2 LJ", "3 AD", "0 2H")
    assert hand.tricks[0].winner == 2 and hand.spades_broken_status


def test_first_lead_dealer_right() -> None:
    rules = RuleSet(first_lead="dealer_right")
    hand = dealt(rules, 3, DEAL_C)  # seat 0 bid first; the dealer's right, seat 2, leads
    assert hand.operations[0].seat_index == 0
    assert hand.turn_index == 2
    # The ordinary leading rule: spades not yet broken, and seat 2 holds other suits.
    expect_illegal(lambda: hand.play(2, parse_card("AS")), "trick 1: seat 2 led AS before spades were broken")
    # With spades_lead = "any_time" the ordinary rule lets seat 2 lead a spade at once.
    any_time = dealt(rules.replace(spades_lead="any_time"), 3, DEAL_C)
    play(any_time, "2 AS", "3 2S", "0 5C", "1 2C")
    assert any_time.tricks[0].winner == 2 and not any_time.spades_broken_status


def test_spades_lead_any_time() -> None:
    hand = dealt(RuleSet(spades_lead="any_time"), 1, DEAL_C)  # seat 2 leads
    # The first lead stays spade-free under dealer_left_no_spade, whatever spades_lead says.
    expect_illegal(
        lambda: hand.play(2, parse_card("AS")),
        "trick 1: seat 2 may not lead AS: no spade on the first lead unless holding only spades "
        "(dealer_left_no_spade)",
    )
    play(hand, "2 AH", "3 2H", "0 6H", "1 9H")
    assert not hand.spades_broken_status
    # Trick 2: spades are not broken, yet seat 2 may lead one.
    assert hand.can_play(2, parse_card("AS"))
    play(hand, "2 AS", "3 2S", "0 5C", "1 2C")
    assert hand.tricks[1].winner == 2
    assert not hand.spades_broken_status  # a spade lead breaks nothing


def test_spades_lead_must_break_default_trick2() -> None:
    hand = dealt(STANDARD, 1, DEAL_C)
    play(hand, "2 AH", "3 2H", "0 6H", "1 9H")
    expect_illegal(lambda: hand.play(2, parse_card("AS")), "trick 2: seat 2 led AS before spades were broken")


FORBIDDEN = RuleSet(both_partners_nil="forbidden", blind_nil="anytime")


def test_both_partners_nil_forbidden_nil() -> None:
    hand = Hand(FORBIDDEN, 3, DEAL_C)  # bids: 0, 1, 2, 3
    hand.bid(0, 3)
    hand.bid(1, 0)
    hand.bid(2, 3)
    expect_illegal(
        lambda: hand.bid(3, 0),
        "seat 3 may not bid nil: partner seat 1 already bid nil (both_partners_nil=forbidden)",
    )
    expect_illegal(
        lambda: hand.blind_nil(3),
        "seat 3 may not bid blind nil: partner seat 1 already bid nil (both_partners_nil=forbidden)",
    )
    assert not hand.can_bid(3, 0) and not hand.can_blind_nil(3) and hand.can_bid(3, 1)
    hand.bid(3, 1)
    assert hand.bids == (3, 0, 3, 1)


def test_both_partners_nil_forbidden_after_blind_nil() -> None:
    hand = Hand(FORBIDDEN, 3, DEAL_C)
    hand.blind_nil(0)
    hand.bid(1, 0)  # the other side may still bid one nil
    expect_illegal(
        lambda: hand.bid(2, 0),
        "seat 2 may not bid nil: partner seat 0 already bid blind nil (both_partners_nil=forbidden)",
    )
    expect_illegal(
        lambda: hand.blind_nil(2),
        "seat 2 may not bid blind nil: partner seat 0 already bid blind nil (both_partners_nil=forbidden)",
    )


def test_both_partners_nil_allowed_default() -> None:
    hand = Hand(RuleSet(blind_nil="anytime"), 3, DEAL_C)
    hand.bid(0, 0)
    hand.bid(1, 3)
    assert hand.can_bid(2, 0) and hand.can_blind_nil(2)


# --- scoring options -----------------------------------------------------------------------------


def test_nil_tricks_count_for_partner_makes_contract() -> None:
    # Seat 0 bids nil and takes 2; partner seat 2 bids 4 and takes 2: contract 4, contract
    # tricks 2 + 2 = 4, made: +40, no bag; nil set: -100. Side 0: -60.
    # Side 1 bids 4 + 4 = 8 and takes 5 + 4 = 9: +80 + 1 bag = +81.
    result = play_hand((0, 4, 4, 4), (2, 5, 2, 4), RuleSet(nil_tricks="count_for_partner"))
    assert result.nil == ("set", None, None, None)
    assert result.points == (-60, 81)
    assert result.bags == (0, 1)
    assert result.score == (-60, 81)


def test_nil_tricks_bags_only_default_same_hand() -> None:
    # The same hand by default: contract tricks 2 < 4, set: -40; the nil's 2 tricks are bags (no
    # bag points on a set contract); nil -100. Side 0: -140, 2 bags.
    result = play_hand((0, 4, 4, 4), (2, 5, 2, 4))
    assert result.points == (-140, 81)
    assert result.bags == (2, 1)


def test_nil_tricks_count_for_partner_bags() -> None:
    # Seat 0 nil takes 3, seat 2 bids 2 takes 1: contract tricks 4 >= 2, made: +20 + 2 bags = 22,
    # nil -100: -78, 2 bags (not 2 + 3). Side 1: 8 bid, 9 taken: +81.
    rules = RuleSet(nil_tricks="count_for_partner")
    result = play_hand((0, 4, 2, 4), (3, 5, 1, 4), rules)
    assert result.points == (-78, 81)
    assert result.bags == (2, 1)
    # Bags only: contract tricks 1 < 2, set: -20; 3 bags from the nil; nil -100: -120.
    assert play_hand((0, 4, 2, 4), (3, 5, 1, 4)).points == (-120, 81)


def test_ten_for_two_hundred_made() -> None:
    # Side 0 bids 6 + 4 = 10 and takes 6 + 5 = 11: +200 + 1 bag = 201. Side 1 bids 1 + 1, takes 1 + 1: +20.
    result = play_hand((6, 1, 4, 1), (6, 1, 5, 1), RuleSet(ten_for_two_hundred=True))
    assert result.points == (201, 20)
    assert result.bags == (1, 0)
    # Off (default): 100 + 1.
    assert play_hand((6, 1, 4, 1), (6, 1, 5, 1)).points == (101, 20)


@pytest.mark.parametrize("failed_contract", ["minus_ten_per_bid", "zero"])
def test_ten_for_two_hundred_set(failed_contract: str) -> None:
    # Side 0 bids 10, takes 5 + 4 = 9: -200 whatever failed_contract says.
    # Side 1 bids 2, takes 2 + 2 = 4: +20 + 2 bags = 22.
    rules = RuleSet(ten_for_two_hundred=True, failed_contract=failed_contract)
    result = play_hand((6, 1, 4, 1), (5, 2, 4, 2), rules)
    assert result.points == (-200, 22)
    assert result.bags == (0, 2)


def test_ten_for_two_hundred_contract_9_unchanged() -> None:
    # Side 0 bids 5 + 4 = 9 and takes 9: +90 as usual.
    result = play_hand((5, 1, 4, 1), (5, 2, 4, 2), RuleSet(ten_for_two_hundred=True))
    assert result.points == (90, 22)


@pytest.mark.parametrize(
    ("changes", "side0_points"),
    [
        ({"bid_thirteen": "scores_500"}, 500),
        ({"bid_thirteen": "scores_200"}, 200),
        ({"bid_thirteen": "wins_game"}, 130),
        ({}, 130),
        ({"ten_for_two_hundred": True}, 200),
        ({"ten_for_two_hundred": True, "bid_thirteen": "scores_500"}, 500),
        ({"ten_for_two_hundred": True, "bid_thirteen": "scores_200"}, 200),
    ],
)
def test_bid_thirteen_made(changes: dict[str, object], side0_points: int) -> None:
    # Side 0 bids 7 + 6 = 13 and takes every trick; side 1 bids 1 + 1 and takes none: -20.
    result = play_hand((7, 1, 6, 1), (7, 0, 6, 0), RuleSet(**changes))  # type: ignore[arg-type]
    assert result.points == (side0_points, -20)
    assert result.bags == (0, 0)


@pytest.mark.parametrize(
    ("changes", "side0_points"),
    [
        ({"bid_thirteen": "scores_500"}, -130),
        ({"bid_thirteen": "scores_500", "ten_for_two_hundred": True}, -200),
        ({"bid_thirteen": "scores_200", "failed_contract": "zero"}, 0),
    ],
)
def test_bid_thirteen_set_scores_as_any_set(changes: dict[str, object], side0_points: int) -> None:
    # Side 0 bids 13 and takes 7 + 5 = 12: set. Side 1 bids 2 and takes 1: set, -20 (or 0 with zero).
    result = play_hand((7, 1, 6, 1), (7, 1, 5, 0), RuleSet(**changes))  # type: ignore[arg-type]
    side1 = 0 if changes.get("failed_contract") == "zero" else -20
    assert result.points == (side0_points, side1)


def test_bid_thirteen_scores_500_beside_two_nils() -> None:
    # score_hand alone: side 0 bids 7 + 6 = 13 and takes all 13: 500.
    result = score_hand(RuleSet(bid_thirteen="scores_500"), (7, 0, 6, 0), (7, 0, 6, 0))
    # Side 1 bid nil twice and took nothing: +100 + 100.
    assert result.points == (500, 200)


# --- end of a game -------------------------------------------------------------------------------


def test_bid_thirteen_wins_game_from_behind() -> None:
    game = Game(RuleSet(bid_thirteen="wins_game"), dealer=3, score=(-150, 420))
    # Side 0 bids 7 + 6 = 13 and takes all 13: +130 -> -20. Side 1 bids nil twice, both made:
    # +200 -> 620, over the target. Side 0 made 13 under wins_game: it wins whatever the scores.
    assert play_game_hand(game, (7, 0, 6, 0), (7, 0, 6, 0)) == 0
    assert game.score == (-20, 620) and game.over


def test_bid_thirteen_off_same_hand_target_wins() -> None:
    game = Game(STANDARD, dealer=3, score=(-150, 420))
    assert play_game_hand(game, (7, 0, 6, 0), (7, 0, 6, 0)) == 1  # only side 1 reached 500


def test_bid_thirteen_wins_game_only_when_made() -> None:
    game = Game(RuleSet(bid_thirteen="wins_game"), dealer=3)
    # Side 0 bids 13 and takes 12: -130. Side 1 bids 2 and takes 1: -20. Nobody wins.
    assert play_game_hand(game, (7, 1, 6, 1), (7, 1, 5, 0)) is None
    assert game.score == (-130, -20)


ELIMINATION = RuleSet(elimination=-200)


def test_elimination_exactly_minus_200_loses() -> None:
    game = Game(ELIMINATION, dealer=3, score=(-150, 100))
    # Side 0 bids 3 + 2 = 5 and takes nothing: -50 -> -200, at the threshold: it has lost.
    # Side 1 bids 8, takes 13: +80 + 5 bags = 85 -> 185.
    assert play_game_hand(game, (3, 4, 2, 4), (0, 7, 0, 6)) == 1
    assert game.score == (-200, 185)


def test_elimination_minus_190_plays_on() -> None:
    game = Game(ELIMINATION, dealer=3, score=(-140, 100))
    assert play_game_hand(game, (3, 4, 2, 4), (0, 7, 0, 6)) is None
    assert game.score == (-190, 185)


def test_elimination_both_below_higher_wins() -> None:
    game = Game(ELIMINATION, dealer=3, score=(-150, -130))
    # Side 0 bids 4 + 3 = 7, takes 3 + 3 = 6: -70 -> -220. Side 1 bids 4 + 4 = 8, takes 4 + 3 = 7:
    # -80 -> -210. Both at or below -200: both claim, the higher (side 1) wins.
    assert play_game_hand(game, (4, 4, 3, 4), (3, 4, 3, 3)) == 1
    assert game.score == (-220, -210)


def test_elimination_both_below_tie_plays_on() -> None:
    game = Game(ELIMINATION, dealer=3, score=(-150, -140))
    assert play_game_hand(game, (4, 4, 3, 4), (3, 4, 3, 3)) is None
    assert game.score == (-220, -220)


@pytest.mark.parametrize(
    ("score", "winner"),
    [
        ((100, -200), 0),  # the other side at the threshold
        ((-201, 499), 1),
        ((-250, -210), 1),  # both below: the higher
        ((-210, -210), None),  # both below, equal: play on
        ((510, -300), 0),  # target and elimination claims of the same side
        ((-199, 499), None),
    ],
)
def test_elimination_game_winner(score: tuple[int, int], winner: int | None) -> None:
    assert game_winner(ELIMINATION, score) == winner


def test_hand_limit_after_hand_n_higher_wins() -> None:
    game = Game(RuleSet(hand_limit=2), dealer=3)
    # Hand 1: side 0 bids 5, takes 5: +50; side 1 bids 8, takes 8: +80. One hand played: go on.
    assert play_game_hand(game, (3, 4, 2, 4), (3, 4, 2, 4)) is None
    assert game.score == (50, 80)
    # Hand 2 (dealer 0), the same: (100, 160). Two hands played: the higher score wins.
    assert play_game_hand(game, (3, 4, 2, 4), (3, 4, 2, 4)) == 1
    assert game.score == (100, 160) and game.hand_index == 2


def test_hand_limit_tie_plays_on() -> None:
    game = Game(RuleSet(hand_limit=1), dealer=3, score=(30, 0))
    # Side 0: +50 -> 80; side 1: +80 -> 80. The limit is reached but the scores are equal.
    assert play_game_hand(game, (3, 4, 2, 4), (3, 4, 2, 4)) is None
    assert game.score == (80, 80)
    # Next hand: side 0 bids 5, takes 6: +51 -> 131; side 1 bids 8, takes 7: -80 -> 0.
    assert play_game_hand(game, (3, 4, 2, 4), (4, 4, 2, 3)) == 0
    assert game.score == (131, 0)


def test_hand_limit_target_claim_first() -> None:
    assert game_winner(RuleSet(hand_limit=4), (480, 520), hands_played=4) == 1
    assert game_winner(RuleSet(hand_limit=4), (480, 300), hands_played=3) is None
    assert game_winner(RuleSet(hand_limit=4), (480, 300), hands_played=4) == 0
    assert game_winner(RuleSet(hand_limit=4), (300, 300), hands_played=9) is None
    assert game_winner(RuleSet(), (300, 100), hands_played=1000) is None  # no limit


def test_hand_limit_game_started_past_the_limit_is_over() -> None:
    assert Game(RuleSet(hand_limit=8), score=(90, 80), hand_index=8).winner == 0


# --- presets -------------------------------------------------------------------------------------

PRESET_CHANGES: dict[str, dict[str, object]] = {
    "classic": {"min_bid": 1, "blind_nil": "off", "failed_contract": "zero", "bag_penalty": 0},
    "jokers": {"deck": "jokers"},
    "joker-joker-deuce-deuce": {"deck": "joker-joker-deuce-deuce"},
    "joker-joker-deuce-ace": {"deck": "joker-joker-deuce-ace"},
    "deuce-high": {"deck": "deuce-high"},
    "online-table": {"blind_nil": "after_first_hand", "elimination": -200, "target": 500},
}


@pytest.mark.parametrize("name", PRESET_CHANGES)
def test_preset_is_standard_with_its_changes(name: str) -> None:
    preset = load_preset(name)
    changes = PRESET_CHANGES[name]
    expected = RuleSet(name=name, description=preset.description, **changes)  # type: ignore[arg-type]
    assert preset == expected
    assert preset.description and "\n" not in preset.description
    assert preset.description != STANDARD.description


def test_preset_classic_values() -> None:
    classic = load_preset("classic")
    assert classic.min_bid == 1
    assert classic.failed_contract == "zero" and classic.blind_nil == "off"
    assert classic.bag_penalty == 0 and classic.target == 500


def test_preset_classic_plays_book_rules() -> None:
    classic = load_preset("classic")
    expect_illegal(lambda: Hand(classic, 3, DEAL_C).bid(0, 0), "seat 0 bid 0: allowed 1-13")
    # Side 0 bids 5, takes 4: set, 0. Side 1 bids 8, takes 9: +81 and its tenth bag costs nothing.
    result = play_hand((3, 4, 2, 4), (2, 5, 2, 4), classic, bags_before=(0, 9))
    assert result.points == (0, 81) and result.penalty == (0, 0)


def test_preset_online_table_values() -> None:
    table = load_preset("online-table")
    assert (table.target, table.elimination, table.hand_limit, table.blind_nil) == (
        500, -200, None, "after_first_hand")
    hand = Hand(table, 3, DEAL_C)
    expect_illegal(
        lambda: hand.blind_nil(0),
        "seat 0 bid blind nil but this is the first hand of the game (allowed after the first hand)",
    )
    assert Hand(table, 3, DEAL_C, hand_index=1).can_blind_nil(0)


@pytest.mark.parametrize("name", ["jokers", "joker-joker-deuce-deuce", "joker-joker-deuce-ace", "deuce-high"])
def test_preset_deck_matches_deck_of(name: str) -> None:
    assert deck_of(load_preset(name)) == deck_of(RuleSet(deck=name))


# --- logs: replay_hand and score_file with the new rules ------------------------------------------


def jokers_hand() -> Hand:
    hand = dealt(load_preset("jokers"), 3, DEAL_J)
    play(hand, "0 2H", "1 AS", "2 LJ", "3 BJ")
    return auto_finish(hand)


def test_score_file_jokers_preset(tmp_path: Path) -> None:
    log = log_of(jokers_hand(), "jokers")
    (scored,) = score_file(write_lines(tmp_path, [log]))
    assert scored.result == log.result
    assert log.tricks is not None and log.tricks[0].winner == 3  # BJ
    result, tricks = replay_hand(load_preset("jokers"), HandLog.loads(log.dumps()))
    assert tricks[0].winner == 3 and result == log.result


def test_score_file_jokers_wrong_trick_winner(tmp_path: Path) -> None:
    log = log_of(jokers_hand(), "jokers")
    assert log.tricks is not None
    tricks = (dataclasses.replace(log.tricks[0], winner=2), *log.tricks[1:])
    with pytest.raises(LogError) as raised:
        score_file(write_lines(tmp_path, [dataclasses.replace(log, tricks=tricks)]))
    assert str(raised.value) == "line 1: tricks[0].winner: log says 2, referee computes 3"


def test_score_file_jokers_deal_under_standard_rules(tmp_path: Path) -> None:
    log = log_of(jokers_hand(), "standard")
    with pytest.raises(LogError) as raised:
        score_file(write_lines(tmp_path, [log]))
    message = f"hands[2] holds LJ: allowed a card of the standard deck {NO_JOKERS_NOTE}"
    assert str(raised.value) == f"line 1: {message}"


def test_score_file_two_of_clubs_from_toml(tmp_path: Path) -> None:
    rules_path = tmp_path / "jokers-2c.toml"
    text = 'name = "jokers-2c"\ndeck = "jokers"\nfirst_lead = "two_of_clubs"\n'
    rules_path.write_text(text, encoding="utf-8")
    rules = RuleSet(name="jokers-2c", deck="jokers", first_lead="two_of_clubs")
    hand = dealt(rules, 2, DEAL_J)
    play(hand, "1 3C")
    good = log_of(auto_finish(hand), str(rules_path))
    assert len(score_file(write_lines(tmp_path, [good]))) == 1
    # The same line with seat 1 leading AC instead of 3C.
    actions = tuple("1 p AC" if a == "1 p 3C" else "1 p 3C" if a == "1 p AC" else a for a in good.actions)
    bad = dataclasses.replace(good, actions=actions, tricks=None, result=None)
    with pytest.raises(LogError) as raised:
        score_file(write_lines(tmp_path, [bad]))
    assert str(raised.value) == "line 1: trick 1: seat 1 must lead 3C (two_of_clubs)"


def test_score_file_online_table_elimination_ends_game(tmp_path: Path) -> None:
    table = load_preset("online-table")
    hands, plays = stacked_deal((0, 7, 0, 6), 3)
    hand = Hand(table, 3, hands, (-150, 100), (0, 0), hand_index=3)
    finish(hand, (3, 4, 2, 4), plays)
    assert hand.result.score == (-200, 185)
    log = log_of(hand, "online-table", game=0, hand=3, game_over={"winner": 1})
    (scored,) = score_file(write_lines(tmp_path, [log]))
    assert scored.game_winner == 1
    # A further hand of the same game is refused.
    hands2, plays2 = stacked_deal((3, 4, 2, 4), 0)
    hand2 = Hand(table, 0, hands2, (-200, 185), (0, 5), hand_index=4)
    finish(hand2, (3, 4, 2, 4), plays2)
    with pytest.raises(LogError) as raised:
        score_file(write_lines(tmp_path, [log, log_of(hand2, "online-table", game=0, hand=4)]))
    assert str(raised.value) == "line 2: game 0: a hand after the game is over (game_over at line 1)"
    # Logged as going on, the game is over by the referee's count.
    with pytest.raises(LogError) as raised:
        score_file(write_lines(tmp_path, [dataclasses.replace(log, game_over={"winner": 0})]))
    assert str(raised.value) == 'line 1: game_over: log says {"winner": 0}, referee computes {"winner": 1}'


# --- bidding constraints: side_min_bid and sum_of_bids_not_hand_size -----------------------------
# docs/scoring.md "Bidding constraints". DEAL_C throughout; with dealer 3
# the bid order is 0, 1, 2, 3 (seats 2 and 3 are their sides' second partners), with dealer 0
# it is 1, 2, 3, 0 (seat 0 bids last).

SIDE_MIN4 = RuleSet(side_min_bid=4, blind_nil="anytime")
SUM13 = RuleSet(sum_of_bids_not_hand_size=True, blind_nil="anytime")


def test_side_min_bid_second_partner_must_reach_the_minimum() -> None:
    hand = Hand(SIDE_MIN4, 3, DEAL_C)
    hand.bid(0, 2)
    hand.bid(1, 2)
    # Seat 2: 2 + 2 = 4 reaches the minimum; 1 + 2 = 3 does not; nil would leave the side at 2.
    expect_illegal(
        lambda: hand.bid(2, 1),
        "seat 2 bid 1: side 0 needs at least 4 (side_min_bid=4; partner seat 0 bid 2)",
    )
    expect_illegal(
        lambda: hand.bid(2, 0),
        "seat 2 may not bid nil: partner seat 0 bid 2, below side_min_bid=4",
    )
    expect_illegal(
        lambda: hand.blind_nil(2), "seat 2 may not bid blind nil: partner seat 0 bid 2, below side_min_bid=4"
    )
    assert [t for t in range(14) if hand.can_bid(2, t)] == list(range(2, 14))
    hand.bid(2, 2)
    expect_illegal(
        lambda: hand.bid(3, 1),
        "seat 3 bid 1: side 1 needs at least 4 (side_min_bid=4; partner seat 1 bid 2)",
    )
    hand.bid(3, 3)  # 2 + 3 = 5
    assert hand.bids == (2, 2, 2, 3) and hand.phase is Phase.PLAY


def test_side_min_bid_nil_allowed_beside_partner_at_the_minimum() -> None:
    hand = Hand(SIDE_MIN4, 3, DEAL_C)
    hand.bid(0, 4)
    hand.bid(1, 5)
    assert hand.can_bid(2, 0) and hand.can_blind_nil(2) and hand.can_bid(2, 1)
    hand.bid(2, 0)  # side 0: 4 + 0 = 4
    assert hand.can_bid(3, 0)
    hand.blind_nil(3)  # side 1: 5 + 0 = 5
    assert hand.bids == (4, 5, 0, "bn")


def test_side_min_bid_first_partner_bids_freely() -> None:
    hand = Hand(SIDE_MIN4, 3, DEAL_C)
    assert all(hand.can_bid(0, t) for t in range(14)) and hand.can_blind_nil(0)
    hand.bid(0, 0)
    assert all(hand.can_bid(1, t) for t in range(14)) and hand.can_blind_nil(1)
    hand.blind_nil(1)
    # Both first partners bid nil, so seats 2 and 3 must bid 4 or more on their own.
    expect_illegal(
        lambda: hand.bid(2, 3),
        "seat 2 bid 3: side 0 needs at least 4 (side_min_bid=4; partner seat 0 bid nil)",
    )
    expect_illegal(
        lambda: hand.bid(2, 0),
        "seat 2 may not bid nil: partner seat 0 bid nil, below side_min_bid=4",
    )
    hand.bid(2, 4)
    expect_illegal(
        lambda: hand.bid(3, 3),
        "seat 3 bid 3: side 1 needs at least 4 (side_min_bid=4; partner seat 1 bid blind nil)",
    )
    expect_illegal(
        lambda: hand.blind_nil(3),
        "seat 3 may not bid blind nil: partner seat 1 bid blind nil, below side_min_bid=4"
    )
    hand.bid(3, 4)
    assert hand.bids == (0, "bn", 4, 4)


def test_side_min_bid_zero_default_no_constraint() -> None:
    hand = Hand(RuleSet(blind_nil="anytime"), 3, DEAL_C)
    hand.bid(0, 0)
    hand.bid(1, 1)
    assert hand.can_bid(2, 0) and hand.can_bid(2, 1) and hand.can_blind_nil(2)


def test_side_min_bid_follows_bid_order_dealer_right() -> None:
    # Dealer 0, dealer_right: the order is 3, 0, 1, 2, so seat 3 and seat 0 bid first for their sides.
    hand = Hand(SIDE_MIN4.replace(first_bidder="dealer_right"), 0, DEAL_C)
    hand.bid(3, 1)
    hand.bid(0, 0)
    expect_illegal(
        lambda: hand.bid(1, 2),
        "seat 1 bid 2: side 1 needs at least 4 (side_min_bid=4; partner seat 3 bid 1)",
    )
    expect_illegal(
        lambda: hand.bid(1, 0),
        "seat 1 may not bid nil: partner seat 3 bid 1, below side_min_bid=4",
    )
    hand.bid(1, 3)  # 1 + 3 = 4
    expect_illegal(
        lambda: hand.bid(2, 3),
        "seat 2 bid 3: side 0 needs at least 4 (side_min_bid=4; partner seat 0 bid nil)",
    )
    hand.bid(2, 4)
    assert hand.bids == (0, 3, 4, 1)
    # Dealer 0, dealer_left: the order is 1, 2, 3, 0, so seat 1 bids first for its side and is free.
    left = Hand(SIDE_MIN4, 0, DEAL_C)
    assert left.can_bid(1, 1) and left.can_bid(1, 0)
    left.bid(1, 1)
    left.bid(2, 0)
    expect_illegal(
        lambda: left.bid(3, 2),
        "seat 3 bid 2: side 1 needs at least 4 (side_min_bid=4; partner seat 1 bid 1)",
    )
    left.bid(3, 3)
    expect_illegal(
        lambda: left.bid(0, 3),
        "seat 0 bid 3: side 0 needs at least 4 (side_min_bid=4; partner seat 2 bid nil)",
    )
    left.bid(0, 4)


def test_sum_of_bids_last_bidder_may_not_make_13() -> None:
    hand = Hand(SUM13, 0, DEAL_C)  # order 1, 2, 3, 0
    hand.bid(1, 3)
    hand.bid(2, 4)
    hand.bid(3, 2)
    # 3 + 4 + 2 = 9: seat 0 may not bid 13 - 9 = 4; 3 and 5 are fine.
    expect_illegal(
        lambda: hand.bid(0, 4),
        "seat 0 bid 4: the four bids would add up to 13 (sum_of_bids_not_hand_size)",
    )
    assert [t for t in range(14) if not hand.can_bid(0, t)] == [4]
    assert hand.can_bid(0, 3) and hand.can_bid(0, 5) and hand.can_bid(0, 0) and hand.can_blind_nil(0)
    hand.bid(0, 5)
    assert hand.bids == (5, 3, 4, 2) and hand.phase is Phase.PLAY


def test_sum_of_bids_nil_counts_zero() -> None:
    hand = Hand(SUM13, 0, DEAL_C)
    hand.bid(1, 0)
    hand.bid(2, 6)
    hand.blind_nil(3)
    # 0 + 6 + 0 = 6: seat 0 may not bid 7.
    expect_illegal(
        lambda: hand.bid(0, 7),
        "seat 0 bid 7: the four bids would add up to 13 (sum_of_bids_not_hand_size)",
    )
    assert hand.can_bid(0, 6) and hand.can_bid(0, 8) and hand.can_bid(0, 0)


def test_sum_of_bids_nil_refused_when_the_others_make_13() -> None:
    hand = Hand(SUM13, 0, DEAL_C)
    hand.bid(1, 5)
    hand.bid(2, 4)
    hand.bid(3, 4)
    expect_illegal(
        lambda: hand.bid(0, 0),
        "seat 0 may not bid nil: the four bids would add up to 13 (sum_of_bids_not_hand_size)",
    )
    expect_illegal(
        lambda: hand.blind_nil(0),
        "seat 0 may not bid blind nil: the four bids would add up to 13 (sum_of_bids_not_hand_size)",
    )
    assert [t for t in range(14) if not hand.can_bid(0, t)] == [0]
    hand.bid(0, 1)
    assert hand.bids == (1, 5, 4, 4)


def test_sum_of_bids_first_three_bidders_unrestricted() -> None:
    hand = Hand(SUM13, 0, DEAL_C)
    assert all(hand.can_bid(1, t) for t in range(14))
    hand.bid(1, 6)
    assert all(hand.can_bid(2, t) for t in range(14))
    hand.bid(2, 7)  # the first two already add up to 13
    assert all(hand.can_bid(3, t) for t in range(14)) and hand.can_blind_nil(3)
    hand.bid(3, 0)  # the first three add up to 13
    assert not hand.can_bid(0, 0) and hand.can_bid(0, 1)
    hand.bid(0, 1)
    assert hand.bids == (1, 6, 7, 0)


def test_sum_of_bids_off_default_allows_13() -> None:
    hand = Hand(STANDARD, 0, DEAL_C)
    hand.bid(1, 3)
    hand.bid(2, 4)
    hand.bid(3, 2)
    assert hand.can_bid(0, 4)


def test_side_min_bid_and_sum_of_bids_combine() -> None:
    hand = Hand(SIDE_MIN4.replace(sum_of_bids_not_hand_size=True), 0, DEAL_C)
    hand.bid(1, 3)
    hand.bid(2, 4)
    hand.bid(3, 2)  # side 1: 3 + 2 = 5
    # Seat 0 (partner seat 2 bid 4): side_min_bid allows anything; the sum rule refuses 4.
    expect_illegal(
        lambda: hand.bid(0, 4),
        "seat 0 bid 4: the four bids would add up to 13 (sum_of_bids_not_hand_size)",
    )
    assert [t for t in range(14) if not hand.can_bid(0, t)] == [4]
    assert hand.can_blind_nil(0)
    # With partner seat 2 at 1 instead, both rules bite: 0-2 by side_min_bid, 7 by the sum rule.
    other = Hand(SIDE_MIN4.replace(sum_of_bids_not_hand_size=True), 0, DEAL_C)
    other.bid(1, 3)
    other.bid(2, 1)
    other.bid(3, 2)
    assert [t for t in range(14) if not other.can_bid(0, t)] == [0, 1, 2, 7]
    assert not other.can_blind_nil(0)


# --- forced-bid modes (forced_mode) ---------------------------------------------------------------

SUICIDE = RuleSet(forced_mode="suicide", blind_nil="off")
MIRROR = RuleSet(forced_mode="mirror", blind_nil="off")
WHIZ = RuleSet(forced_mode="whiz", blind_nil="off")

# Standard deck: seat 0 holds no spade, seat 1 five (AS-10S), seat 2 three (9S-7S), seat 3 five (6S-2S).
DEAL_W = (
    "AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H",
    "AS KS QS JS 10S AC KC QC JC 10C 9C 8C 7C",
    "9S 8S 7S 6C 5C 4C 3C 2C AD KD QD JD 10D",
    "6S 5S 4S 3S 2S 9D 8D 7D 6D 5D 4D 3D 2D",
)


def test_forced_suicide_first_partner_nil_or_four_up() -> None:
    hand = Hand(SUICIDE, 1, DEAL_C)  # dealer 1: seat 2 bids first
    expect_illegal(lambda: hand.bid(2, 3),
                   "seat 2 bid 3: allowed nil or 4-13 (suicide, first of side 0 to bid)")
    assert [t for t in range(14) if hand.can_bid(2, t)] == [0, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]
    assert not hand.can_blind_nil(2)
    expect_illegal(lambda: hand.bid(2, 14), "seat 2 bid 14: allowed 0-13")


def test_forced_suicide_second_partner() -> None:
    hand = Hand(SUICIDE, 3, DEAL_C)  # seat 0 bids first
    assert hand.can_bid(0, 0) and hand.can_bid(0, 4) and not hand.can_bid(0, 3)
    hand.bid(0, 0)
    hand.bid(1, 5)  # first of side 1
    # Seat 2 after its partner's nil: 4-13 only.
    expect_illegal(lambda: hand.bid(2, 0), "seat 2 bid 0: allowed 4-13 (suicide, partner seat 0 bid nil)")
    expect_illegal(lambda: hand.bid(2, 3), "seat 2 bid 3: allowed 4-13 (suicide, partner seat 0 bid nil)")
    assert [t for t in range(14) if hand.can_bid(2, t)] == list(range(4, 14))
    hand.bid(2, 4)
    # Seat 3 after its partner's 5: nil only.
    expect_illegal(lambda: hand.bid(3, 5), "seat 3 bid 5: allowed nil (suicide, partner seat 1 bid 5)")
    expect_illegal(lambda: hand.bid(3, 4), "seat 3 bid 4: allowed nil (suicide, partner seat 1 bid 5)")
    assert [t for t in range(14) if hand.can_bid(3, t)] == [0]
    hand.bid(3, 0)
    assert hand.bids == (0, 5, 4, 0) and hand.phase is Phase.PLAY


def test_forced_mirror_exact_spade_count() -> None:
    # DEAL_C: seats 0 and 1 hold no spade, seat 2 four (AS-JS), seat 3 nine (10S-2S).
    hand = Hand(MIRROR, 3, DEAL_C)
    expect_illegal(lambda: hand.bid(0, 1), "seat 0 bid 1: allowed nil (mirror: holds 0 spades)")
    assert [t for t in range(14) if hand.can_bid(0, t)] == [0]
    hand.bid(0, 0)
    hand.bid(1, 0)
    expect_illegal(lambda: hand.bid(2, 0), "seat 2 bid 0: allowed exactly 4 (mirror: holds 4 spades)")
    expect_illegal(lambda: hand.bid(2, 3), "seat 2 bid 3: allowed exactly 4 (mirror: holds 4 spades)")
    assert [t for t in range(14) if hand.can_bid(2, t)] == [4]
    hand.bid(2, 4)
    assert [t for t in range(14) if hand.can_bid(3, t)] == [9]
    hand.bid(3, 9)
    assert hand.bids == (0, 0, 4, 9) and hand.phase is Phase.PLAY


def test_forced_mirror_joker_counts_as_a_spade() -> None:
    # DEAL_J (jokers deck): seat 0 no trump, seat 1 AS, seat 2 LJ and 2S, seat 3 BJ and KS-3S (12).
    hand = Hand(MIRROR.replace(deck="jokers"), 3, DEAL_J)
    hand.bid(0, 0)
    expect_illegal(lambda: hand.bid(1, 0), "seat 1 bid 0: allowed exactly 1 (mirror: holds 1 spade)")
    hand.bid(1, 1)
    expect_illegal(lambda: hand.bid(2, 1), "seat 2 bid 1: allowed exactly 2 (mirror: holds 2 spades)")
    hand.bid(2, 2)
    expect_illegal(lambda: hand.bid(3, 11), "seat 3 bid 11: allowed exactly 12 (mirror: holds 12 spades)")
    hand.bid(3, 12)
    assert hand.bids == (0, 1, 2, 12)


def test_forced_mirror_promoted_deuce_counts_as_a_spade() -> None:
    # DEAL_K (joker-joker-deuce-deuce): seat 2's only trump is 2D.
    hand = Hand(MIRROR.replace(deck="joker-joker-deuce-deuce"), 1, DEAL_K)
    assert [t for t in range(14) if hand.can_bid(2, t)] == [1]


def test_forced_whiz_nil_or_exact_count() -> None:
    hand = Hand(WHIZ, 0, DEAL_W)  # seat 1 bids first
    expect_illegal(lambda: hand.bid(1, 2), "seat 1 bid 2: allowed nil or 5 (whiz: holds 5 spades)")
    expect_illegal(lambda: hand.bid(1, 6), "seat 1 bid 6: allowed nil or 5 (whiz: holds 5 spades)")
    assert [t for t in range(14) if hand.can_bid(1, t)] == [0, 5]
    hand.bid(1, 5)
    assert [t for t in range(14) if hand.can_bid(2, t)] == [0, 3]
    hand.bid(2, 0)
    hand.bid(3, 0)
    # Seat 0 holds no spade: nil only (beside its partner's nil, both_partners_nil is "allowed").
    expect_illegal(lambda: hand.bid(0, 1), "seat 0 bid 1: allowed nil (whiz: holds 0 spades)")
    assert [t for t in range(14) if hand.can_bid(0, t)] == [0]
    hand.bid(0, 0)
    assert hand.bids == (0, 5, 0, 0) and hand.phase is Phase.PLAY


def test_forced_whiz_joker_counts_as_a_spade() -> None:
    # DEAL_J2 (jokers deck): seat 1's only trump is LJ, seat 3 holds none.
    hand = Hand(WHIZ.replace(deck="jokers"), 0, DEAL_J2)
    assert [t for t in range(14) if hand.can_bid(1, t)] == [0, 1]
    expect_illegal(lambda: hand.bid(1, 2), "seat 1 bid 2: allowed nil or 1 (whiz: holds 1 spade)")


@pytest.mark.parametrize("name", ["suicide", "mirror", "whiz"])
def test_forced_presets_load_with_blind_nil_off(name: str) -> None:
    preset = load_preset(name)
    assert preset.forced_mode == name and preset.blind_nil == "off"
    expected = RuleSet(name=name, description=preset.description, blind_nil="off", forced_mode=name)
    assert preset == expected
    assert not Hand(preset, 3, DEAL_C).can_blind_nil(0)


# --- OpenSpiel's rules: side_max_bid and spades_lead = "never_broken" ---------------------------
# docs/scoring.md "Bidding constraints" and "Bidding and play"; the openspiel preset. DEAL_C with
# dealer 3: seat 0 bids and leads first, as in every OpenSpiel episode.

OPENSPIEL = load_preset("openspiel")


def test_side_max_bid_second_partner_may_not_pass_the_maximum() -> None:
    hand = Hand(OPENSPIEL, 3, DEAL_C)
    hand.bid(0, 9)
    hand.bid(1, 13)
    # Seat 2: 9 + 4 = 13 is the most; 5 would make 14. Nil is always allowed.
    expect_illegal(
        lambda: hand.bid(2, 5),
        "seat 2 bid 5: side 0 may bid at most 13 (side_max_bid=13; partner seat 0 bid 9)",
    )
    assert [t for t in range(14) if hand.can_bid(2, t)] == [0, 1, 2, 3, 4]
    hand.bid(2, 4)
    # Seat 3 beside a partner's 13: nil only.
    assert [t for t in range(14) if hand.can_bid(3, t)] == [0]
    expect_illegal(
        lambda: hand.bid(3, 1),
        "seat 3 bid 1: side 1 may bid at most 13 (side_max_bid=13; partner seat 1 bid 13)",
    )
    hand.bid(3, 0)
    assert hand.bids == (9, 13, 4, 0) and hand.phase is Phase.PLAY


def test_side_max_bid_first_partner_bids_freely_and_is_refused_without_partners() -> None:
    hand = Hand(RuleSet(side_max_bid=15, blind_nil="off"), 3, DEAL_C)
    assert [t for t in range(14) if hand.can_bid(0, t)] == list(range(14))
    hand.bid(0, 13)
    assert [t for t in range(14) if hand.can_bid(1, t)] == list(range(14))
    hand.bid(1, 6)
    assert [t for t in range(14) if hand.can_bid(2, t)] == [0, 1, 2]
    with pytest.raises(RulesError, match="side_max_bid=13: allowed left out"):
        RuleSet(mode="solo", blind_nil="off", side_max_bid=13)


def test_never_broken_a_spade_is_led_only_from_a_hand_of_spades() -> None:
    hand = Hand(OPENSPIEL, 1, DEAL_C)  # seat 2 leads
    bid_all(hand)
    expect_illegal(lambda: hand.play(2, parse_card("AS")),
                   "trick 1: seat 2 may not lead AS: no spade on the first lead unless holding only "
                   "spades (dealer_left_no_spade)")
    play(hand, "2 AH", "3 2H", "0 6H", "1 9H", "2 KH", "3 3H", "0 7H", "1 10H")
    play(hand, "2 QH", "3 4H", "0 8H", "1 JH")
    # Trick 4: seat 3, void in diamonds, trumps; under must_break that would break spades.
    play(hand, "2 2D", "3 2S", "0 5C", "1 AD")
    assert hand.tricks[3].winner == 3 and not hand.spades_broken_status
    # Seat 3 still holds 5H: it may not lead a spade, though one was played on a diamond.
    expect_illegal(lambda: hand.play(3, parse_card("3S")),
                   "trick 5: seat 3 led 3S while holding another suit (spades_lead='never_broken')")
    assert hand.legal_plays(3) == parse_cards("5H")
    play(hand, "3 5H", "0 6C", "1 2C", "2 3D")
    # Seat 3 won with 5H and holds only spades now: it may lead one.
    assert hand.tricks[4].winner == 3
    assert hand.legal_plays(3) == parse_cards("3S 4S 5S 6S 7S 8S 9S 10S")

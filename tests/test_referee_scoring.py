"""Scoring and game-end tests of the referee, each a full hand played through the real API.

Sources: docs/rules.md (baseline and options), docs/scoring.md (steps 1-5, the pagat and MSN
examples, the end of a game) and docs/hand-log.md (its example). Every expected number is
worked out by hand in the test from the bids and tricks.

The deals are stacked so that each seat takes exactly the tricks a test asks for, by legal
play (see :func:`stacked_deal`); the referee checks every bid and card.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from stacking import play_game_hand, play_hand, stacked_deal

from spades_sim.referee import Game, Hand, IllegalMove
from spades_sim.referee.handlog import HandResult
from spades_sim.rules import BlindNil, FailedContract, RuleSet

STANDARD = RuleSet()
ACE = 12


def test_stacked_deal_is_a_full_deck() -> None:
    hands, plays = stacked_deal((4, 3, 3, 3), dealer=3)
    assert sorted(card for seat_cards in hands for card in seat_cards) == list(range(52))
    assert [len(seat_cards) for seat_cards in hands] == [13] * 4
    assert plays[0][0] == 0  # the dealer's left leads


# --- pagat's example (docs/rules.md "Scoring", docs/scoring.md step 5) ---
# Side 0 (seats 0+2) is on 337 with 7 bags and bids 5 (3 + 2); side 1 bids 6 (3 + 3) from 200.


def pagat(counts: Sequence[int]) -> HandResult:
    return play_hand((3, 3, 2, 3), counts, score_before=(337, 200), bags_before=(7, 0))


def test_pagat_bags_337_bid5_took7_ends_389() -> None:
    result = pagat((4, 3, 3, 3))
    # side 0: 50 + 2 bags = 52, 9 bags; side 1 makes 6 exactly: +60.
    assert result.points == (52, 60)
    assert result.bags == (2, 0)
    assert result.penalty == (0, 0)
    assert result.score == (389, 260)
    assert result.bag_total == (9, 0)


def test_pagat_bags_337_bid5_took8_ends_290() -> None:
    result = pagat((5, 3, 3, 2))
    # side 0: 50 + 3 - 100 (the tenth bag) = -47, bags 10 - 10 = 0; side 1 takes 5 of 6: -60.
    assert result.points == (-47, -60)
    assert result.bags == (3, 0)
    assert result.penalty == (100, 0)
    assert result.score == (290, 140)
    assert result.bag_total == (0, 0)


def test_pagat_bags_337_bid5_took9_ends_291() -> None:
    result = pagat((5, 2, 4, 2))
    # side 0: 50 + 4 - 100 = -46, bags 11 - 10 = 1.
    assert result.points == (-46, -60)
    assert result.score == (291, 140)
    assert result.bag_total == (1, 0)


# --- nil (docs/rules.md "Scoring", docs/scoring.md steps 1-4) ---


def test_docs_hand_log_example_nil_made_beside_made_contract() -> None:
    # docs/hand-log.md: bids 4, 3, 0, 4 and tricks 5, 3, 0, 5 (dealer 3).
    # Side 0: 40 + 1 bag + 100 nil = 141. Side 1 bids 7 and takes 8: 70 + 1 = 71
    # (the example in the docs prints -80 for side 1, which its bids and tricks do not give).
    result = play_hand((4, 3, 0, 4), (5, 3, 0, 5))
    assert result.nil == (None, None, "made", None)
    assert result.points == (141, 71)
    assert result.bags == (1, 1)
    assert result.score == (141, 71)


def test_rules_failed_nil_tricks_become_bags() -> None:
    # Seat 0 nil takes 2; seat 2 bids 4, takes 5: 40 + (1 + 2 bags) - 100 = -57.
    result = play_hand((0, 4, 4, 4), (2, 3, 5, 3))
    assert result.nil == ("set", None, None, None)
    assert result.points == (-57, -80)
    assert result.bags == (3, 0)
    assert result.bag_total == (3, 0)


def test_rules_failed_nil_tricks_do_not_help_partner() -> None:
    # Seat 0 nil takes 3; seat 2 bids 4, takes 3: the contract is set (-40) even though the
    # side took 6 tricks; the nil's 3 tricks are still bags, with no bag points: -40 - 100 = -140.
    result = play_hand((0, 3, 4, 3), (3, 4, 3, 3))
    assert result.points == (-140, 61)  # side 1 bids 6, takes 7
    assert result.bags == (3, 1)


def test_msn_nil_beside_failed_contract_scores_minus_120() -> None:
    # docs/scoring.md step 3: nil and partner bid 2, each takes 1 trick: -100 - 20 = -120, 1 bag.
    # Side 1 bids 8 and takes 11: 80 + 3 = 83.
    result = play_hand((0, 4, 2, 4), (1, 6, 1, 5))
    assert result.nil == ("set", None, None, None)
    assert result.points == (-120, 83)
    assert result.bags == (1, 3)


def test_scoring_md_both_partners_nil_made() -> None:
    # Contract 0 is made; each nil +100. Side 1 bids 12, takes 13 - 0: 120 + 1.
    result = play_hand((0, 6, 0, 6), (0, 6, 0, 7))
    assert result.nil == ("made", None, "made", None)
    assert result.points == (200, 121)
    assert result.bags == (0, 1)


def test_scoring_md_both_partners_nil_one_set() -> None:
    # Seat 0 takes 2 tricks: -100 + 100; the contract of 0 is made, so its 2 bags score +2.
    result = play_hand((0, 6, 0, 6), (2, 5, 0, 6))
    assert result.nil == ("set", None, "made", None)
    assert result.points == (2, -120)
    assert result.bags == (2, 0)


# --- blind nil (docs/rules.md "Blind nil", docs/scoring.md "Bidding") ---


def test_scoring_md_blind_nil_exactly_100_behind_allowed_and_scores_200() -> None:
    # Side 1 trails 200 to 100. Seat 1 blind nil takes 0; seat 3 bids 4 and takes 4: 40 + 200.
    result = play_hand((4, "bn", 4, 4), (5, 0, 4, 4), score_before=(200, 100))
    assert result.nil == (None, "made", None, None)
    # Side 0 bids 8, takes 9: 80 + 1.
    assert result.points == (81, 240)
    assert result.score == (281, 340)


def test_scoring_md_blind_nil_set_loses_200() -> None:
    # Seat 1 blind nil takes 1 trick: -200; seat 3 bids 4, takes 4: 40 + 1 bag = -159.
    result = play_hand((4, "bn", 4, 4), (4, 1, 4, 4), score_before=(200, 100))
    assert result.nil == (None, "set", None, None)
    assert result.points == (80, -159)  # side 0 bid 8, took 8


def hand_at(rules: RuleSet, score_before: tuple[int, int] = (0, 0), hand_index: int = 0) -> Hand:
    """A fresh hand, dealer 0, so seat 1 bids first."""
    hands, _ = stacked_deal((4, 3, 3, 3), dealer=0)
    return Hand(rules, 0, hands, score_before, (0, 0), hand_index)


def test_scoring_md_blind_nil_90_behind_refused() -> None:
    hand = hand_at(STANDARD, score_before=(190, 100))
    with pytest.raises(IllegalMove) as raised:
        hand.blind_nil(1)
    assert str(raised.value) == "seat 1 bid blind nil but side 1 trails by 90 (needs 100)"
    assert hand.can_blind_nil(1) is False
    assert hand_at(STANDARD, score_before=(200, 100)).can_blind_nil(1) is True


def test_blind_nil_when_ahead_refused() -> None:
    hand = hand_at(STANDARD, score_before=(100, 150))
    with pytest.raises(
        IllegalMove, match=r"^seat 1 bid blind nil but side 1 leads by 50 \(needs to trail by 100\)$"
    ):
        hand.blind_nil(1)


def test_blind_nil_off() -> None:
    hand = hand_at(RuleSet(blind_nil=BlindNil.OFF), score_before=(400, 0))
    with pytest.raises(IllegalMove, match=r"^seat 1 bid blind nil but blind nil is off$"):
        hand.blind_nil(1)


def test_blind_nil_anytime() -> None:
    assert hand_at(RuleSet(blind_nil=BlindNil.ANYTIME)).can_blind_nil(1)


def test_blind_nil_after_first_hand() -> None:
    rules = RuleSet(blind_nil=BlindNil.AFTER_FIRST_HAND)
    with pytest.raises(IllegalMove, match=r"^seat 1 bid blind nil but this is the first hand of the game"):
        hand_at(rules, hand_index=0).blind_nil(1)
    assert hand_at(rules, hand_index=1).can_blind_nil(1)


def test_blind_nil_threshold_option() -> None:
    rules = RuleSet(blind_nil_threshold=200)
    assert not hand_at(rules, score_before=(300, 110)).can_blind_nil(1)
    assert hand_at(rules, score_before=(300, 100)).can_blind_nil(1)


# --- contract and bag options (docs/rules.md "Scoring") ---


def test_failed_contract_zero() -> None:
    # Side 0 bids 5, takes 4: 0 instead of -50; side 1 bids 8, takes 9: 81.
    result = play_hand((3, 4, 2, 4), (2, 5, 2, 4), rules=RuleSet(failed_contract=FailedContract.ZERO))
    assert result.points == (0, 81)
    assert result.bags == (0, 1)


def test_failed_contract_minus_ten_per_bid() -> None:
    result = play_hand((3, 4, 2, 4), (2, 5, 2, 4))
    assert result.points == (-50, 81)


@pytest.mark.parametrize(("overtrick_points", "side0_points"), [(1, 53), (0, 50), (-1, 47)])
def test_overtrick_points(overtrick_points: int, side0_points: int) -> None:
    # Side 0 bids 5, takes 8: 50 + overtrick_points * 3. Side 1 bids 5, takes 5.
    result = play_hand((3, 3, 2, 2), (4, 3, 4, 2), rules=RuleSet(overtrick_points=overtrick_points))
    assert result.points == (side0_points, 50)
    assert result.bags == (3, 0)


def test_bag_limit_5_penalty_50_with_carry_over() -> None:
    rules = RuleSet(bag_limit=5, bag_penalty=50)
    game = Game(rules, dealer=3, bags=(3, 0))
    # Hand 1: side 0 bids 5, takes 9: 4 bags, 3 + 4 = 7 -> -50, 2 carried. 50 + 4 - 50 = 4.
    play_game_hand(game, (3, 2, 2, 2), (5, 2, 4, 2))
    assert game.results[-1].penalty == (50, 0)
    assert (game.score, game.bags) == ((4, 40), (2, 0))
    # Hand 2 (dealer 0): side 0 bids 4, takes 7: 3 bags, 2 + 3 = 5 -> -50, 0 carried. 40 + 3 - 50.
    # Side 1 bids 6 (3 + 3), takes 6.
    play_game_hand(game, (2, 3, 2, 3), (4, 3, 3, 3))
    assert game.results[-1].points == (-7, 60)
    assert (game.score, game.bags) == ((-3, 100), (0, 0))


def test_bag_limit_reached_twice_in_one_hand() -> None:
    # Limit 5, 4 carried; side 0 bids 4 and takes all 13: 9 bags, 13 = 2 x 5 + 3.
    # 40 + 9 - 2 x 50 = -51. Side 1 bids 2 and takes none: -20.
    result = play_hand(
        (2, 1, 2, 1), (7, 0, 6, 0), rules=RuleSet(bag_limit=5, bag_penalty=50), bags_before=(4, 0)
    )
    assert result.penalty == (100, 0)
    assert result.points == (-51, -20)
    assert result.bag_total == (3, 0)


# --- end of a game (docs/rules.md "End of a game", docs/scoring.md "End of a game") ---


def test_game_one_side_over_target_wins() -> None:
    game = Game(STANDARD, dealer=3, score=(480, 300))
    # Side 0 bids 5, takes 5: +50 -> 530; side 1 bids 8, takes 8: 380.
    assert play_game_hand(game, (3, 4, 2, 4), (3, 4, 2, 4)) == 0
    assert game.over and game.winner == 0 and game.score == (530, 380)
    with pytest.raises(ValueError, match=r"the game is over: side 0 won \[530, 380\]"):
        game.start_hand(stacked_deal((3, 4, 2, 4), game.dealer_index)[0])


def test_game_both_over_target_higher_wins() -> None:
    game = Game(STANDARD, dealer=3, score=(480, 490))
    # Side 0: +50 -> 530; side 1 bids 8, takes 8: +80 -> 570. Both over: the higher, side 1, wins.
    assert play_game_hand(game, (3, 4, 2, 4), (3, 4, 2, 4)) == 1
    assert game.score == (530, 570)


def test_game_exact_tie_over_target_plays_on() -> None:
    game = Game(STANDARD, dealer=3, score=(450, 420))
    # Side 0: +50 -> 500; side 1: +80 -> 500. An exact tie at the target: another hand.
    assert play_game_hand(game, (3, 4, 2, 4), (3, 4, 2, 4)) is None
    assert game.score == (500, 500) and not game.over
    # Next hand (dealer 0): side 0 bids 5, takes 6: 51 -> 551; side 1 bids 8, takes 7: -80 -> 420.
    assert play_game_hand(game, (3, 4, 2, 4), (4, 4, 2, 3)) == 0
    assert game.score == (551, 420)
    assert game.hand_index == 2 and game.dealer_index == 1

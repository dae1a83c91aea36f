"""The kernel's own rule steps on hand-computed cases from docs/rules.md and docs/scoring.md.

``_score_side`` (scoring), ``_game_over`` (end of game), ``_blind_nil_allowed``
(blind-nil eligibility) and the trick helpers ``_lead_mask``, ``_follow_mask``
and ``_beats_mask`` are called directly, with every expected number worked out
by hand from the rule text, so a wrong kernel cannot agree with itself here.
"""

from __future__ import annotations

import numpy as np
import pytest

from spades_sim.cards import mask_of, parse_cards
from spades_sim.kernel.game import _game_over
from spades_sim.kernel.packing import (
    BLIND_AFTER_FIRST_HAND,
    BLIND_ANYTIME,
    BLIND_OFF,
    BLIND_WHEN_BEHIND,
    NO_ELIMINATION,
    pack_rules,
)
from spades_sim.kernel.policy import _blind_nil_allowed
from spades_sim.kernel.scoring import _score_side
from spades_sim.kernel.trick import _beats, _beats_mask, _follow_mask, _lead_mask
from spades_sim.rules import RuleSet

# Standard rule numbers (docs/rules.md baseline): −10 per bid when set, +1 per bag,
# 10 bags cost 100.
STD = {"failed_per_bid": 10, "overtrick_points": 1, "bag_limit": 10, "bag_penalty": 100}


def score(contract: int, contract_tricks: int, nil_tricks: int = 0, nil_made: int = 0,
          nil_set: int = 0, bags_before: int = 0, **rule_numbers: int) -> tuple[int, ...]:
    """Call the kernel's ``_score_side``; returns (points, bags, penalty, bags_after, made)."""
    numbers = {**STD, **rule_numbers}
    result = _score_side(contract, contract_tricks, nil_tricks, nil_made, nil_set, bags_before,
                         10 * contract, numbers["failed_per_bid"] * contract,
                         numbers["overtrick_points"], numbers["bag_limit"], numbers["bag_penalty"])
    return tuple(int(x) for x in result)


# --- pagat's bag example (docs/rules.md "Scoring", docs/scoring.md step 5) ---


def test_pagat_bags_337_bid5_took7_ends_389() -> None:
    points, bags, penalty, bags_after, made = score(5, 7, bags_before=7)
    assert (points, bags, penalty, bags_after, made) == (52, 2, 0, 9, 1)
    assert 337 + points == 389


def test_pagat_bags_337_bid5_took8_ends_290() -> None:
    points, bags, penalty, bags_after, made = score(5, 8, bags_before=7)
    # 50 + 3 bags = 53; the tenth bag costs 100 and the total goes back to 0.
    assert (points, bags, penalty, bags_after, made) == (-47, 3, 100, 0, 1)
    assert 337 + points == 290


def test_pagat_bags_337_bid5_took9_ends_291() -> None:
    points, bags, penalty, bags_after, made = score(5, 9, bags_before=7)
    assert (points, bags, penalty, bags_after, made) == (-46, 4, 100, 1, 1)
    assert 337 + points == 291


# --- contracts ---


def test_rules_made_contract_exactly() -> None:
    assert score(6, 6) == (60, 0, 0, 0, 1)


def test_rules_failed_contract_minus_ten_per_bid() -> None:
    # Bid 7, took 5: −70, no bags for the undertricks' side.
    assert score(7, 5) == (-70, 0, 0, 0, 0)


def test_rules_failed_contract_zero_book_rule() -> None:
    assert score(7, 5, failed_per_bid=0) == (0, 0, 0, 0, 0)


def test_rules_failed_contract_keeps_carried_bags() -> None:
    assert score(7, 5, bags_before=6) == (-70, 0, 0, 6, 0)


def test_rules_overtrick_points_zero() -> None:
    assert score(4, 6, overtrick_points=0) == (40, 2, 0, 2, 1)


def test_rules_overtrick_points_minus_one() -> None:
    assert score(4, 6, overtrick_points=-1) == (38, 2, 0, 2, 1)


# --- nil ---


def test_scoring_md_failed_nil_tricks_are_bags() -> None:
    # Partner bid 4 and took 5; the nil bidder took 2: contract made, 1 + 2 bags, nil −100.
    assert score(4, 5, nil_tricks=2, nil_set=100) == (40 + 3 - 100, 3, 0, 3, 1)


def test_msn_nil_beside_failed_contract_minus_120_one_bag() -> None:
    # Nil and partner bid 2; each takes 1 trick: −100 − 20 = −120, the side takes 1 bag
    # and scores no bag point because the contract is set (docs/scoring.md step 3).
    assert score(2, 1, nil_tricks=1, nil_set=100) == (-120, 1, 0, 1, 0)


def test_scoring_md_failed_nil_bag_can_trigger_penalty_on_set_contract() -> None:
    # 9 bags carried; the set contract's nil bidder takes 2 tricks: 11 bags, penalty 100.
    assert score(5, 3, nil_tricks=2, nil_set=100, bags_before=9) == (-50 - 100 - 100, 2, 100, 1, 0)


def test_rules_made_nil_and_made_contract() -> None:
    assert score(4, 4, nil_made=100) == (140, 0, 0, 0, 1)


def test_rules_made_nil_and_contract_with_overtricks() -> None:
    assert score(3, 5, nil_made=100) == (132, 2, 0, 2, 1)


def test_rules_made_blind_nil_value_200() -> None:
    assert score(5, 6, nil_made=200) == (251, 1, 0, 1, 1)


def test_scoring_md_both_partners_nil_contract_zero_made() -> None:
    assert score(0, 0, nil_made=200) == (200, 0, 0, 0, 1)


def test_scoring_md_both_partners_nil_one_set() -> None:
    # A contract of 0 is always made; the set nil bidder's 3 tricks are bags worth +1 each.
    assert score(0, 0, nil_tricks=3, nil_made=100, nil_set=100) == (3, 3, 0, 3, 1)


def test_scoring_md_both_partners_nil_both_set() -> None:
    # Two set nils of 100 each (nil_set is their sum, 200); 5 + 13 = 18 bags: one penalty, 8 carried.
    assert score(0, 0, nil_tricks=13, nil_set=200, bags_before=5) == (13 - 200 - 100, 13, 100, 8, 1)


# --- bag penalty variants ---


def test_rules_bag_limit_5_penalty_50_carry_over() -> None:
    # 4 carried + 2 = 6 bags: one penalty of 50, 1 bag carried.
    assert score(3, 5, bags_before=4, bag_limit=5, bag_penalty=50) == (32 - 50, 2, 50, 1, 1)


def test_rules_bag_limit_5_several_penalties_in_one_hand() -> None:
    # 4 carried + 12 = 16 bags: three penalties, 1 carried.
    assert score(1, 13, bags_before=4, bag_limit=5, bag_penalty=50) == (10 + 12 - 150, 12, 150, 1, 1)


def test_rules_bag_penalty_zero_still_wraps_the_count() -> None:
    assert score(3, 5, bags_before=9, bag_penalty=0) == (32, 2, 0, 1, 1)


def test_rules_exactly_ten_bags_costs_100_and_leaves_zero() -> None:
    assert score(3, 4, bags_before=9) == (31 - 100, 1, 100, 0, 1)


# --- end of game (docs/rules.md: game to 500; both over: higher wins; exact tie plays on) ---


@pytest.mark.parametrize(("scores", "winner"), [
    ((510, 480), 0),
    ((480, 510), 1),
    ((500, -120), 0),
    ((499, 500), 1),
    ((510, 530), 1),
    ((530, 510), 0),
    ((510, 510), -1),
    ((499, 499), -1),
    ((300, 300), -1),
    ((-600, 499), -1),
])
def test_rules_game_over(scores: tuple[int, int], winner: int) -> None:
    assert int(_game_over(np.array(scores, dtype=np.int64), 500, NO_ELIMINATION, 0, 1, -1)) == winner


def test_rules_game_over_other_target() -> None:
    assert int(_game_over(np.array([300, 120], dtype=np.int64), 300, NO_ELIMINATION, 0, 1, -1)) == 0
    assert int(_game_over(np.array([299, 120], dtype=np.int64), 300, NO_ELIMINATION, 0, 1, -1)) == -1


@pytest.mark.parametrize(("scores", "elimination", "hand_limit", "hands", "thirteen", "winner"), [
    ((100, -200), -200, 0, 3, -1, 0),     # exactly at the elimination score loses
    ((100, -190), -200, 0, 3, -1, -1),    # above it plays on
    ((-250, -210), -200, 0, 3, -1, 1),    # both eliminated: the higher score wins
    ((-250, -250), -200, 0, 3, -1, -1),   # ... and a tie plays on
    ((510, -300), -200, 0, 3, -1, 0),     # target and elimination point the same way
    ((120, 80), NO_ELIMINATION, 8, 8, -1, 0),   # hand limit reached: higher score wins
    ((120, 80), NO_ELIMINATION, 8, 7, -1, -1),  # not yet
    ((90, 90), NO_ELIMINATION, 8, 9, -1, -1),   # a tie at the limit plays another hand
    ((-300, 450), NO_ELIMINATION, 0, 4, 0, 0),  # a made 13 that wins the game, from behind
])
def test_scoring_md_end_of_game_options(scores, elimination, hand_limit, hands, thirteen,
                                         winner) -> None:
    score = np.array(scores, dtype=np.int64)
    assert int(_game_over(score, 500, elimination, hand_limit, hands, thirteen)) == winner


# --- blind nil eligibility (docs/scoring.md "Bidding") ---


@pytest.mark.parametrize(("mode", "own", "other", "hand_index", "allowed"), [
    (BLIND_WHEN_BEHIND, 0, 100, 0, True),      # exactly 100 behind is allowed
    (BLIND_WHEN_BEHIND, 10, 100, 3, False),    # 90 behind is not
    (BLIND_WHEN_BEHIND, -250, 40, 3, True),
    (BLIND_WHEN_BEHIND, 200, 100, 3, False),   # ahead
    (BLIND_WHEN_BEHIND, 100, 100, 3, False),   # level
    (BLIND_OFF, 0, 400, 3, False),
    (BLIND_ANYTIME, 300, 0, 0, True),
    (BLIND_ANYTIME, 0, 0, 0, True),
    (BLIND_AFTER_FIRST_HAND, 0, 400, 0, False),
    (BLIND_AFTER_FIRST_HAND, 400, 0, 1, True),
])
def test_scoring_md_blind_nil_allowed(mode: int, own: int, other: int, hand_index: int,
                                      allowed: bool) -> None:
    assert bool(_blind_nil_allowed(mode, 100, own, other, hand_index)) is allowed


def test_blind_nil_threshold_is_configurable() -> None:
    assert bool(_blind_nil_allowed(BLIND_WHEN_BEHIND, 200, 0, 200, 0)) is True
    assert bool(_blind_nil_allowed(BLIND_WHEN_BEHIND, 200, 0, 199, 0)) is False
    assert bool(_blind_nil_allowed(BLIND_WHEN_BEHIND, 0, 50, 50, 0)) is True


@pytest.mark.parametrize(("option", "code"), [
    ("off", BLIND_OFF), ("anytime", BLIND_ANYTIME),
    ("after_first_hand", BLIND_AFTER_FIRST_HAND), ("when_behind", BLIND_WHEN_BEHIND),
])
def test_pack_rules_blind_nil_codes(option: str, code: int) -> None:
    assert pack_rules(RuleSet(blind_nil=option)).blind_mode == code


# --- legal cards and trick power (docs/rules.md: follow suit; spades not led before broken) ---

SUIT_MASKS = pack_rules(RuleSet()).suit_masks
TRUMP = 3
CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3


def mask(text: str) -> int:
    """Bitmask of cards; for the standard deck a slot is the card id."""
    return mask_of(parse_cards(text))


def umask(text: str) -> np.uint64:
    return np.uint64(mask(text))


HAND = "AS 7S 2S KH 3H QD 10C 9C 4C"


def test_rules_must_follow_suit() -> None:
    assert int(_follow_mask(umask(HAND), HEARTS, SUIT_MASKS)) == mask("KH 3H")
    assert int(_follow_mask(umask(HAND), CLUBS, SUIT_MASKS)) == mask("10C 9C 4C")
    assert int(_follow_mask(umask(HAND), SPADES, SUIT_MASKS)) == mask("AS 7S 2S")


def test_rules_void_may_play_anything() -> None:
    hand = "AS 7S KH 3H 10C"
    assert int(_follow_mask(umask(hand), DIAMONDS, SUIT_MASKS)) == mask(hand)


def test_rules_no_spade_lead_before_broken() -> None:
    assert int(_lead_mask(umask(HAND), SUIT_MASKS, TRUMP, False)) == mask("KH 3H QD 10C 9C 4C")


def test_rules_any_lead_once_broken() -> None:
    assert int(_lead_mask(umask(HAND), SUIT_MASKS, TRUMP, True)) == mask(HAND)


def test_rules_spade_lead_when_holding_only_spades() -> None:
    assert int(_lead_mask(umask("AS 7S 2S"), SUIT_MASKS, TRUMP, False)) == mask("AS 7S 2S")


def test_rules_beats_mask_side_suit_winner() -> None:
    # 10H winning: a higher heart or any spade beats it.
    expected = mask("JH QH KH AH") | int(SUIT_MASKS[SPADES])
    assert int(_beats_mask(parse_cards("10H")[0], HEARTS, SUIT_MASKS, TRUMP)) == expected


def test_rules_beats_mask_ace_of_side_suit() -> None:
    assert int(_beats_mask(parse_cards("AC")[0], CLUBS, SUIT_MASKS, TRUMP)) == int(SUIT_MASKS[SPADES])


def test_rules_beats_mask_lowest_card() -> None:
    expected = (int(SUIT_MASKS[DIAMONDS]) & ~mask("2D")) | int(SUIT_MASKS[SPADES])
    assert int(_beats_mask(parse_cards("2D")[0], DIAMONDS, SUIT_MASKS, TRUMP)) == expected


def test_rules_beats_mask_spade_winner() -> None:
    assert int(_beats_mask(parse_cards("10S")[0], SPADES, SUIT_MASKS, TRUMP)) == mask("JS QS KS AS")
    assert int(_beats_mask(parse_cards("2S")[0], SPADES, SUIT_MASKS, TRUMP)) == (
        int(SUIT_MASKS[SPADES]) & ~mask("2S"))


def test_rules_nothing_beats_ace_of_spades() -> None:
    assert int(_beats_mask(parse_cards("AS")[0], SPADES, SUIT_MASKS, TRUMP)) == 0


def test_rules_beats_is_the_trick_winner_rule() -> None:
    # A card beats the winner when higher and of the winner's suit, or a spade over a side suit.
    suit_of = {card: card // 13 for card in range(52)}
    for winner in parse_cards("2D 10H AC 2S 10S AS"):
        for card in range(52):
            expected = card > winner and (suit_of[card] == suit_of[winner] or suit_of[card] == TRUMP)
            assert bool(_beats(card, winner, suit_of[winner], SUIT_MASKS, TRUMP)) == expected


def test_standard_suit_masks_are_card_id_runs() -> None:
    for suit in range(4):
        assert int(SUIT_MASKS[suit]) == ((1 << 13) - 1) << (13 * suit)


# --- the bidding constraints of docs/scoring.md, as the kernel's allowed-bid mask ---

def _allowed(rules: RuleSet, bids: list[int], seat: int, position: int,
             trumps_held: int = 3) -> set[int]:
    from spades_sim.kernel.bidding import _allowed_bids
    from spades_sim.kernel.packing import pack_rules

    mask = int(_allowed_bids(pack_rules(rules), np.array(bids, dtype=np.int64), seat, position,
                             trumps_held))
    return {b for b in range(14) if mask >> b & 1}


def test_allowed_bids_baseline_and_min_bid() -> None:
    assert _allowed(RuleSet(), [-1, -1, -1, -1], 1, 0) == set(range(14))
    assert _allowed(RuleSet(min_bid=1, blind_nil="off"), [-1, -1, -1, -1], 1, 0) == set(range(1, 14))


def test_allowed_bids_side_min_4() -> None:
    rules = RuleSet(side_min_bid=4)
    assert _allowed(rules, [-1, -1, -1, -1], 1, 0) == set(range(14))      # first partner: free
    assert _allowed(rules, [2, -1, -1, -1], 2, 1) == set(range(2, 14))    # 2 + 2 reaches 4; no nil
    assert _allowed(rules, [0, -1, -1, -1], 2, 1) == set(range(4, 14))    # partner nil: at least 4
    assert _allowed(rules, [5, -1, -1, -1], 2, 1) == set(range(14))       # partner made the board


def test_allowed_bids_side_max_13_and_15() -> None:
    rules = RuleSet(side_max_bid=13, side_min_bid=2)
    assert _allowed(rules, [-1, -1, -1, -1], 0, 0) == set(range(14))      # first partner: free
    assert _allowed(rules, [9, -1, -1, -1], 2, 2) == set(range(5))     # 9 + 4 = 13 at most
    assert _allowed(rules, [13, -1, -1, -1], 2, 2) == {0}                 # beside a 13: nil only
    assert _allowed(rules, [1, -1, -1, -1], 2, 2) == set(range(1, 13))    # the board and the cap
    assert _allowed(RuleSet(side_max_bid=15), [6, -1, -1, -1], 2, 2) == set(range(10))


def test_allowed_bids_sum_not_hand_size_and_double_nil() -> None:
    rules = RuleSet(sum_of_bids_not_hand_size=True, both_partners_nil="forbidden")
    assert _allowed(rules, [3, 4, 2, -1], 3, 3) == set(range(14)) - {4}       # 3 + 4 + 2 + 4 = 13
    assert _allowed(rules, [3, 4, 2, -1], 3, 2) == set(range(14))             # not the last bidder
    assert _allowed(rules, [5, 4, 4, -1], 3, 3) == set(range(1, 14))          # nil would make 13
    assert _allowed(rules, [5, 0, 2, -1], 3, 3) == set(range(1, 14)) - {6}    # partner seat 1 is nil


def test_allowed_bids_forced_modes() -> None:
    suicide = RuleSet(forced_mode="suicide", blind_nil="off")
    assert _allowed(suicide, [-1, -1, -1, -1], 1, 0) == {0} | set(range(4, 14))  # first of side 1
    assert _allowed(suicide, [-1, 0, -1, -1], 3, 2) == set(range(4, 14))         # after a nil
    assert _allowed(suicide, [-1, 5, -1, -1], 3, 2) == {0}                        # after a 5
    mirror = RuleSet(forced_mode="mirror", blind_nil="off")
    assert _allowed(mirror, [-1, -1, -1, -1], 2, 0, trumps_held=4) == {4}
    assert _allowed(mirror, [-1, -1, -1, -1], 2, 0, trumps_held=0) == {0}
    whiz = RuleSet(forced_mode="whiz", blind_nil="off")
    assert _allowed(whiz, [-1, -1, -1, -1], 2, 0, trumps_held=5) == {0, 5}
    assert _allowed(whiz, [-1, -1, -1, -1], 2, 0, trumps_held=0) == {0}

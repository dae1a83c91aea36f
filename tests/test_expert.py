"""The expert-v1 policy (the fixed yardstick) and the expert's card play: decisions on constructed
hands, and strength.

The constructed cases call the kernel's policy functions directly under the standard
deck (a card's slot is its id: clubs 0-12, diamonds 13-25, hearts 26-38, spades
39-51, 2 low). Seats 0 and 2 are partners, as are 1 and 3.
"""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from spades_sim.analysis.compare import compare_strategies
from spades_sim.cards import format_cards, mask_of, parse_cards
from spades_sim.kernel import policy
from spades_sim.kernel.packing import pack_rules
from spades_sim.kernel.strategies import STRATEGIES, Strategy
from spades_sim.kernel.trick import _follow_mask, _lead_mask
from spades_sim.rules import RuleSet
from spades_sim.run.catalogue import pick
from spades_sim.run.simulate import simulate_games, simulate_hands, trace_games

PACKED = pack_rules(RuleSet())
SEED = 4_343
NO_BAG_PENALTY = 1000  # the kernel's bag room when bags cost nothing
POLICY_IDS = {"expert-v1": policy.POLICY_EXPERT_V1, "expert": policy.POLICY_EXPERT}


def umask(text: str) -> np.uint64:
    return np.uint64(mask_of(parse_cards(text)))


def slot(text: str) -> int:
    return parse_cards(text)[0]


def bid(strategy: Strategy, hand: str, bag_room: int, partner_bid: int = -1) -> int:
    result, _ = policy._choose_bid(
        policy.POLICY_EXPERT_V1, strategy.vector(), umask(hand), 2, partner_bid, (1 << 14) - 1, 13,
        1.0, bag_room, PACKED.suit_masks, PACKED.suit_low, PACKED.trump_suit, np.uint64(1))
    return result


# Trick estimate 3.0: A K Q of spades, each guarded (3 trumps); no side ace, king or queen.
THREE_TRICKS = "AS KS QS 2H 3H 4H 5D 6D 7D 8C 9C TC JC"


@pytest.mark.parametrize(("bag_room", "expected"), [(10, 3), (4, 3), (3, 4), (1, 4)])
def test_bag_awareness_bids_the_bags_near_the_penalty(bag_room: int, expected: int) -> None:
    """bag_near=3, bag_bid=1: 3 tricks, plus 1 when 3 or fewer bags are left before the penalty."""
    strategy = Strategy("t", "expert-v1", "expert-v1", {"bag_near": 3.0, "bag_bid": 1.0})
    assert bid(strategy, THREE_TRICKS, bag_room) == expected


def test_bag_awareness_is_off_by_default_and_when_bags_are_free() -> None:
    assert bid(Strategy("t", "expert-v1", "expert-v1"), THREE_TRICKS, 1) == 3
    shy = Strategy("t", "expert-v1", "expert-v1", {"bag_near": 3.0, "bag_bid": -1.0})
    assert bid(shy, THREE_TRICKS, 2) == 2
    assert bid(shy, THREE_TRICKS, NO_BAG_PENALTY) == 3


def play(seat: int, hand: str, trick: list[tuple[int, str]], bids: list[int],
         tricks: list[int] | None = None, gone: str = "", policy_name: str = "expert-v1",
         shown_out: list[int] | None = None, bag_cost: tuple[float, float] = (1.0, 1.0),
         **params: float) -> str:
    """The card ``policy_name`` plays from ``hand`` after ``trick`` ((seat, card) so far).

    ``shown_out`` has bit s of a seat set once it failed to follow suit s (0 clubs ... 3
    spades); ``bag_cost`` is what one more bag costs the seat's side and its opponents."""
    mine = umask(hand)
    if trick:
        led = PACKED.slot_suit[slot(trick[0][1])]
        legal = np.uint64(_follow_mask(mine, led, PACKED.suit_masks))
        win_seat, win_card = trick[0][0], slot(trick[0][1])
        for who, card in trick[1:]:
            s = slot(card)
            if s > win_card and PACKED.slot_suit[s] in (PACKED.slot_suit[win_card], PACKED.trump_suit):
                win_seat, win_card = who, s
        win_suit = PACKED.slot_suit[win_card]
    else:
        led = -1
        legal = np.uint64(_lead_mask(mine, PACKED.suit_masks, PACKED.trump_suit, True))
        win_seat, win_card, win_suit = -1, -1, -1
    played = umask(" ".join([gone] + [card for _, card in trick]).strip())
    vector = Strategy("t", policy_name, policy_name, params).vector()
    chosen, _ = policy._choose_card(
        POLICY_IDS[policy_name], vector, seat, (seat + 2) % 4, legal, mine, len(trick), led,
        win_card, win_seat, win_suit, played, np.array(shown_out or [0, 0, 0, 0], dtype=np.int64),
        np.array(bids, dtype=np.int64), np.array(tricks or [0, 0, 0, 0], dtype=np.int64), 4,
        NO_BAG_PENALTY, bag_cost[0], bag_cost[1], 10.0, PACKED.suit_masks, PACKED.suit_low,
        PACKED.trump_suit, np.uint64(1))
    return format_cards([chosen]).replace("10", "T")


def test_cover_before_the_nil_bidder_plays_high_only_when_it_can_win() -> None:
    """Seat 1's partner (seat 3) bid nil and plays after it: over the 5 it plays the king; under
    an ace it cannot beat it keeps the king and plays the 3."""
    bids, tricks = [3, 4, 3, 0], [3, 4, 2, 0]
    assert play(1, "KH 9H 3H 4C", [(0, "5H")], bids, tricks) == "KH"
    assert play(1, "KH 9H 3H 4C", [(0, "AH")], bids, tricks) == "3H"


def test_cover_takes_the_trick_off_the_nil_bidder() -> None:
    """Seat 3 plays after its nil partner (seat 1), who is winning with the 9: overtake cheaply."""
    assert play(3, "KH TH 3H", [(0, "5H"), (1, "9H"), (2, "7H")], [3, 0, 3, 4],
                [4, 0, 3, 3]) == "TH"


def test_attack_leads_the_card_the_nil_bidder_cannot_duck() -> None:
    """Seat 1 bid nil. Seat 0 leads: in clubs its 2 has nothing below it; the 5 of hearts has
    the 2, 3 and 4 of hearts below it, so the club is the better attack. Side 0 needs 1 more
    trick of the 5 left: attacking does not risk its contract."""
    assert play(0, "5H 9H 2C QC KD", [], [4, 0, 3, 4], [3, 0, 3, 2]) == "2C"


def test_attack_stays_under_the_nil_bidder_who_is_winning() -> None:
    """The opposing nil bidder (seat 1) is winning with the jack: seat 2 plays its highest
    heart under the jack (the 10), not the king."""
    assert play(2, "KH TH 2H", [(0, "5H"), (1, "JH")], [4, 0, 3, 4], [4, 0, 2, 4]) == "TH"


def test_goes_for_the_set_only_when_set_slack_allows() -> None:
    """Side 0 has made its 2; side 1 bid 11 and needs every one of the 11 tricks left. Last to
    play, seat 0 can win with the ace: it does with set_slack=4 and ducks (the 9) without."""
    hand = "AH 9H 2C 3C 4C 5C 6C 7C 8C 9C TC"
    trick = [(1, "TH"), (2, "3H"), (3, "4H")]
    bids, tricks = [1, 6, 1, 5], [1, 0, 1, 0]
    assert play(0, hand, trick, bids, tricks, set_slack=4.0) == "AH"
    assert play(0, hand, trick, bids, tricks) == "9H"


def test_ducks_once_the_contract_is_certain() -> None:
    """Seat 0's side needs 1 more trick and seat 0 holds the boss trump (A of spades): the
    contract is certain, so last to play it ducks the 4 under the queen rather than win with
    the king. Holding the 5 of spades instead, nothing is certain and it wins with the king."""
    trick = [(1, "QH"), (2, "2H"), (3, "3H")]
    bids, tricks = [2, 3, 2, 4], [2, 4, 1, 3]
    assert play(0, "KH 4H AS", trick, bids, tricks) == "4H"
    assert play(0, "KH 4H 5S", trick, bids, tricks) == "KH"


# --- strength ---


def test_expert_nil_bids_succeed_65_to_75_percent_against_itself() -> None:
    """The default strategy's nil success: 20,000 hands from 0–0. With the tuned premium
    (``nil_bonus`` -2, reports/tuning.md) it bids nil on about 17% of seat-hands and makes 69.8%
    [69.0%, 70.6%] of them; its interval lies in [65%, 75%]. (With the old premium of -35 it was
    77% of 9%: the tuning trades made nils for won games.)"""
    totals = simulate_hands(RuleSet(), "expert", 20_000, seed=SEED).totals
    row = pick(totals.summary(), "nil_success")
    assert row["n"] > 10_000
    assert row["low"] > 0.65 and row["high"] < 0.75


def test_expert_beats_basic_by_a_clear_margin() -> None:
    """300 deal sequences in duplicate: expert's paired interval lies above 55% of games."""
    result = compare_strategies(RuleSet(), "expert", "basic", 300, SEED)
    assert result.paired_interval[0] > 0.55


def test_expert_beats_the_yardstick() -> None:
    """1,000 deal sequences in duplicate: the paired interval against expert-v1 lies above 58%."""
    result = compare_strategies(RuleSet(), "expert", "expert-v1", 1_000, SEED)
    assert result.paired_interval[0] > 0.58


def _blind_nils(strategy: Strategy, games: int) -> list[int]:
    """For each blind nil in ``games`` self-play games under standard rules: the partner's bid
    when it was made before the blind nil's, else -1."""
    _, out, _, packed = trace_games(RuleSet(), strategy, range(games), SEED)
    found = []
    for row, seat in zip(*np.nonzero(out.blind)):
        first = (int(out.dealer[row]) + packed.first_bid_offset) % 4
        partner = (seat + 2) % 4
        before = (partner - first) % 4 < (seat - first) % 4
        found.append(int(out.bid[row, partner]) if before else -1)
    return found


def test_blind_nil_needs_its_minimum_calibrated_chance() -> None:
    """Under standard rules (no cards passed) the calibrated blind nil is made about 26% of the
    time unless the partner has already bid 4 or more (43% and up), so with a
    ``blind_nil_min_chance`` of 0.35 every blind nil follows a partner's bid of 4 or more; with
    no minimum, some come before the partner's bid. (The shipped expert's minimum, 0.15, hardly
    binds: reports/tuning.md found the game-winning margin alone the better judge.)"""
    expert = STRATEGIES["expert"]
    kept = _blind_nils(expert.variant({"blind_nil_min_chance": 0.35}), 1_500)
    assert len(kept) >= 20 and min(kept) >= 4
    loose = _blind_nils(expert.variant({"blind_nil_min_chance": 0.0}), 1_500)
    assert loose.count(-1) >= 20


# sha256 of the records (CSV) of 3,000 hands (seed 11) and 60 games (seed 12), made with the expert
# of release 0.1 before it was renamed expert-v1: the yardstick must never move.
V1_DIGESTS = {"standard": ("bc3c29059290173c", "8923ff1fe9b64d43"),
              "five-player": ("79775c5a324efad1", "e4938803adb44687")}


@pytest.mark.parametrize("preset", sorted(V1_DIGESTS))
def test_expert_v1_plays_exactly_as_the_first_expert(preset: str) -> None:
    hands = simulate_hands(preset, "expert-v1", 3_000, seed=11, keep_records=True).records()
    games = simulate_games(preset, "expert-v1", 60, seed=12, keep_records=True).records()
    # seat_hands_k came later and is derived (hands × the seats of a side): not play.
    games = games.drop(columns=[c for c in games.columns if c.startswith("seat_hands_")])
    digests = tuple(hashlib.sha256(frame.to_csv(index=False).encode()).hexdigest()[:16]
                    for frame in (hands, games))
    assert digests == V1_DIGESTS[preset]


def test_named_strategies_use_the_expert_policy_where_documented() -> None:
    for name in ("expert", "bag-averse"):
        assert (STRATEGIES[name].bidding, STRATEGIES[name].play) == ("expert", "expert")
    assert STRATEGIES["bag-averse"].param("set_slack") == 0
    assert STRATEGIES["expert"].param("set_slack") > 0


def test_leads_a_card_when_every_card_would_win() -> None:
    """Contract made, nothing to set: the duck lead takes the card most likely to lose, but with
    only aces left every card wins, and it must still lead one (the lower suit's)."""
    assert play(0, "AH AC", [], [1, 3, 1, 3], [1, 5, 1, 4]) == "AC"


# --- the expert's card play (docs/strategies.md, "Card play") ---

EVEN = [3, 3, 3, 3]  # both sides bid 6
# Tricks taken so far with 5, 4 and 3 cards left: each side still needs a trick or two.
AFTER_8, AFTER_9, AFTER_10 = [2, 2, 2, 2], [2, 2, 3, 2], [3, 2, 2, 3]


def expert(seat: int, hand: str, trick: list[tuple[int, str]], bids: list[int] = EVEN,
           **kwargs) -> str:
    return play(seat, hand, trick, bids, policy_name="expert", **kwargs)


def test_second_hand_plays_low() -> None:
    """Seat 1 is second to a heart with the ace out: it keeps the king for later (the 4)."""
    assert expert(1, "KH 9H 4H 2C", [(0, "5H")], tricks=AFTER_9) == "4H"


def test_third_hand_plays_the_cheapest_of_equal_high_cards() -> None:
    """Seat 2 is third to a heart with the ace gone: K and Q are equals, so the queen."""
    assert expert(2, "KH QH 4H 2C 3C", [(0, "5H"), (1, "9H")], gone="AH", tricks=AFTER_8) == "QH"
    # With the ace still out the queen is still the cheapest card equal to the king.
    assert expert(2, "KH QH 4H 2C 3C", [(0, "5H"), (1, "9H")], tricks=AFTER_8) == "QH"


def test_third_hand_high_holding_the_boss() -> None:
    """expert-v1 plays low with the partner winning; the expert wins with the boss, the only card
    the fourth seat cannot beat (its partner's 10 can be beaten by the queen or king)."""
    trick = [(0, "TH"), (1, "3H")]
    assert expert(2, "AH 4H 2C 3D", trick, tricks=AFTER_9) == "AH"
    assert play(2, "AH 4H 2C 3D", trick, EVEN, AFTER_9) == "4H"


def test_never_ruffs_a_partners_sure_winner() -> None:
    """The partner's ace of hearts wins (the fourth seat has not shown out of hearts): seat 2,
    out of hearts, discards a side card instead of ruffing with the 2 of spades (expert-v1 plays
    its lowest-ranked card, the trump)."""
    chosen = expert(2, "2S 9C TD", [(0, "AH"), (1, "3H")], tricks=AFTER_10)
    assert chosen in ("9C", "TD")
    assert play(2, "2S 9C TD", [(0, "AH"), (1, "3H")], EVEN, AFTER_10) == "2S"


def test_discards_a_side_card_when_the_trick_is_lost() -> None:
    """An opponent's ace of spades ruffed the heart: the 3 of spades cannot win, so a side card."""
    assert expert(3, "3S 7C 8D", [(0, "5H"), (1, "2H"), (2, "AS")], tricks=AFTER_10) in ("7C", "8D")


def test_nil_bidder_ducks_with_the_highest_card_that_loses() -> None:
    assert expert(1, "QH 9H 5H 2C", [(0, "TH")], bids=[3, 0, 3, 4]) == "9H"


def test_nil_bidder_that_cannot_duck_wins_as_cheaply_as_possible() -> None:
    """Every heart wins over the 5 and the ace is out: the queen, which a later seat may beat
    (expert-v1 plays its highest card)."""
    assert expert(1, "KH QH 2C", [(0, "5H")], bids=[3, 0, 3, 4]) == "QH"
    assert play(1, "KH QH 2C", [(0, "5H")], [3, 0, 3, 4]) == "KH"


def test_covers_a_partners_nil_on_a_spade_lead_with_the_highest_spade() -> None:
    """Seat 3 plays before its nil partner (seat 1): it sets the bar with the ace of spades
    (expert-v1 plays its lowest winning spade, the 6)."""
    trick = [(2, "5S")]
    assert expert(3, "AS 9S 6S 2C", trick, bids=[3, 0, 3, 4]) == "AS"
    assert play(3, "AS 9S 6S 2C", trick, [3, 0, 3, 4]) == "6S"


def test_attack_stays_under_the_card_the_nil_bidder_must_beat() -> None:
    """Seat 1 bid nil and plays next: seat 0's partner led the 4 of hearts, so seat 0 stays under
    it (the 3) rather than raise the bar the nil bidder must duck under."""
    assert expert(0, "KH 3H 9C", [(2, "4H"), (3, "2H")], bids=[3, 0, 3, 4]) == "3H"

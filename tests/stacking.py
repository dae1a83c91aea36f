"""Stacked deals for the referee tests: a full deck and legal plays giving each seat chosen tricks.

Shared by test_referee_scoring.py and test_referee_options.py; ``conftest.py`` puts this folder
on the import path.
"""

from __future__ import annotations

from collections.abc import Sequence

from spades_sim.cards import CLUBS, DIAMONDS, HEARTS, SPADES, card_id
from spades_sim.handlog import HandResult
from spades_sim.referee import BidValue, Game, Hand, Phase
from spades_sim.rules import RuleSet

STANDARD = RuleSet()
ACE = 12


def winner_order(counts: Sequence[int]) -> list[int]:
    """A trick-by-trick winner list with ``counts[s]`` tricks for seat s.

    :func:`stacked_deal` needs tricks 9 and 10 won by different seats, so at
    least two seats must take a trick.
    """
    takers = [seat for seat in range(4) if counts[seat] > 0]
    assert sum(counts) == 13 and len(takers) >= 2, counts
    first, second = takers[:2]
    rest = [seat for seat in range(4) for _ in range(counts[seat] - (seat == first) - (seat == second))]
    return [*rest[:8], first, second, *rest[8:]]


def stacked_deal(counts: Sequence[int], dealer: int) -> tuple[list[list[int]], list[tuple[int, int]]]:
    """Build a deal and a legal play sequence in which seat s takes ``counts[s]`` tricks.

    Tricks 1-9 are clubs, diamonds, hearts in turn, four consecutive ranks of one
    suit each (2-5, 6-9, 10-K); everyone follows and the planned winner holds the
    top one. Trick 10: the leader leads the ace of a plain suit, the other plain
    aces are discarded (their suits are gone) and the planned winner trumps with
    AS, breaking spades. Tricks 11-13: everyone holds only spades (2-5, 6-9, 10-K).

    Returns the four hands and the ``(seat, card)`` plays in order.
    """
    hands: list[list[int]] = [[], [], [], []]
    plays: list[tuple[int, int]] = []
    leader = (dealer + 1) % 4
    plain_aces = [card_id(suit, ACE) for suit in (CLUBS, DIAMONDS, HEARTS)]
    for index, winner in enumerate(winner_order(counts)):
        if index == 9:
            assert leader != winner
            others = iter(plain_aces)
            card_of = {seat: card_id(SPADES, ACE) if seat == winner else next(others) for seat in range(4)}
        else:
            suit, group = (
                ((CLUBS, DIAMONDS, HEARTS)[index % 3], index // 3) if index < 9 else (SPADES, index - 10)
            )
            low = 4 * group
            losers = [seat for seat in range(4) if seat != winner]
            card_of = {winner: card_id(suit, low + 3)} | {
                seat: card_id(suit, low + i) for i, seat in enumerate(losers)
            }
        for offset in range(4):
            seat = (leader + offset) % 4
            hands[seat].append(card_of[seat])
            plays.append((seat, card_of[seat]))
        leader = winner
    return hands, plays


def finish(hand: Hand, bids: Sequence[BidValue], plays: Sequence[tuple[int, int]]) -> HandResult:
    """Bid (``"bn"`` = blind nil) in turn from the first bidder, play every card, return the result."""
    for offset in range(4):
        seat = (hand.first_bidder_index + offset) % 4
        if bids[seat] == "bn":
            hand.blind_nil(seat)
        else:
            hand.bid(seat, int(bids[seat]))
    for seat, card in plays:
        hand.play(seat, card)
    assert hand.phase is Phase.SCORE
    return hand.result


def play_hand(
    bids: Sequence[BidValue],
    counts: Sequence[int],
    rules: RuleSet = STANDARD,
    score_before: tuple[int, int] = (0, 0),
    bags_before: tuple[int, int] = (0, 0),
    dealer: int = 3,
    hand_index: int = 0,
) -> HandResult:
    """Play one stacked hand where seat s bids ``bids[s]`` and takes ``counts[s]`` tricks."""
    hands, plays = stacked_deal(counts, dealer)
    hand = Hand(rules, dealer, hands, score_before, bags_before, hand_index)
    result = finish(hand, bids, plays)
    assert result.tricks == tuple(counts)
    return result


def play_game_hand(game: Game, bids: Sequence[BidValue], counts: Sequence[int]) -> int | None:
    """Play the game's next hand, stacked, and record it; return the game's winner."""
    hands, plays = stacked_deal(counts, game.dealer_index)
    hand = game.start_hand(hands)
    finish(hand, bids, plays)
    return game.record(hand)

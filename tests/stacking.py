"""Stacked deals for the referee tests: a full deck and legal plays giving each seat chosen tricks.

Shared by the referee test files; ``conftest.py`` puts this folder on the import path. Works at
every table mode (2-5 seats, any hand size): :func:`stacked_deal` for a deal, :func:`stacked_draw`
for the two-player keep-or-discard draw (kept cards plus discards).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from spades_sim.cards import CLUBS, DIAMONDS, HEARTS, SPADES
from spades_sim.referee import BidValue, DeckSpec, Game, Hand, Phase, deck_of
from spades_sim.referee.handlog import BlindCount, HandResult
from spades_sim.rules import RuleSet

STANDARD = RuleSet()
ACE = 12

Plays = list[tuple[int, int]]
"""``(seat, card)`` plays in order."""


def winner_order(counts: Sequence[int], trumped: Collection[int] = (9,)) -> list[int]:
    """A trick-by-trick winner list with ``counts[s]`` tricks for seat s.

    The tricks at the positions ``trumped`` are won by a trump on another suit's
    lead, so their winner must differ from the winner of the trick before (who
    leads them). Seats with the most tricks left win first, which keeps other
    seats available for those positions.
    """
    remaining = list(counts)
    order: list[int] = []
    for position in range(sum(counts)):
        candidates = [
            seat for seat, left in enumerate(remaining)
            if left and not (position in trumped and order and seat == order[-1])
        ]  # fmt: skip
        assert candidates, (counts, order)
        seat = max(candidates, key=lambda s: remaining[s])
        order.append(seat)
        remaining[seat] -= 1
    return order


def _trick_groups(deck: DeckSpec, in_play: Collection[int], seat_count: int) -> tuple[list[list[int]], range]:
    """Split the cards in play into tricks of ``seat_count`` cards; return them and the positions
    of the trumped tricks.

    Plain tricks: consecutive cards of one plain suit, from its lowest. The top cards of a
    plain suit that do not fill a trick are left over; the leftovers go, a suit's leftovers
    together, into "trumped" tricks (after the plain ones), each filled up with at least one
    of the top trumps. The other trumps make the last tricks, from the lowest.
    """
    plain: list[list[int]] = []
    leftovers: list[list[int]] = []
    for suit in (CLUBS, DIAMONDS, HEARTS):
        suit_cards = [card for card in deck.suit_cards(suit) if card in in_play]
        whole = len(suit_cards) - len(suit_cards) % seat_count
        plain += [suit_cards[i : i + seat_count] for i in range(0, whole, seat_count)]
        if whole < len(suit_cards):
            leftovers.append(suit_cards[whole:])
    trumps = [card for card in deck.suit_cards(SPADES) if card in in_play]
    leftover_count = sum(len(group) for group in leftovers)
    trumped_count = -(-leftover_count // (seat_count - 1))  # each needs a trump beside its plain cards
    trumped: list[list[int]] = [[] for _ in range(trumped_count)]
    for group in sorted(leftovers, key=len, reverse=True):
        trick = next(t for t in trumped if len(t) + len(group) <= seat_count - 1)
        trick += group
    top_count = trumped_count * seat_count - leftover_count
    low_trumps, top_trumps = trumps[: len(trumps) - top_count], iter(trumps[len(trumps) - top_count :])
    for trick in trumped:
        trick += [next(top_trumps) for _ in range(seat_count - len(trick))]
    assert len(low_trumps) % seat_count == 0, "the cards in play do not make whole tricks"
    last = [low_trumps[i : i + seat_count] for i in range(0, len(low_trumps), seat_count)]
    assert plain, "the first trick is a plain lead"
    return plain + trumped + last, range(len(plain), len(plain) + trumped_count)


def _stack(
    rules: RuleSet, counts: Sequence[int], dealer: int, in_play: Collection[int]
) -> tuple[list[list[int]], Plays]:
    """Deal ``in_play`` so that by legal play seat s takes ``counts[s]`` tricks (:func:`stacked_deal`)."""
    deck = deck_of(rules)
    seat_count = len(counts)
    assert seat_count == rules.seat_count and rules.first_lead == "dealer_left_no_spade"
    groups, trumped = _trick_groups(deck, in_play, seat_count)
    hands: list[list[int]] = [[] for _ in range(seat_count)]
    plays: Plays = []
    # The dealer's left leads (two-player: the seat two_player_first names).
    leader = (dealer + (0 if rules.two_player_first == "dealer" else 1)) % seat_count
    for index, winner in enumerate(winner_order(counts, trumped)):
        group = groups[index]
        top = max(group, key=lambda card: (deck.is_trump(card), deck.rank_of(card)))
        # The winner holds the top card; in a trumped trick the leader leads the plain card first
        # in the group (the others of its suit, if any, follow; every other seat is void in it).
        rest = [card for card in group if card != top]
        card_of = {winner: top}
        if leader != winner:
            card_of[leader] = rest.pop(0)
        others = iter(rest)
        card_of |= {seat: next(others) for seat in range(seat_count) if seat not in card_of}
        for offset in range(seat_count):
            seat = (leader + offset) % seat_count
            hands[seat].append(card_of[seat])
            plays.append((seat, card_of[seat]))
        leader = winner
    return hands, plays


def stacked_deal(
    counts: Sequence[int], dealer: int, rules: RuleSet = STANDARD
) -> tuple[list[list[int]], Plays]:
    """Build a deal and a legal play sequence in which seat s takes ``counts[s]`` tricks.

    First come plain tricks: each a run of consecutive cards of one plain suit; everyone
    follows and the planned winner holds the top one. Then "trumped" tricks: the leftover
    top cards of the plain suits are led and discarded (their suits are gone) and the planned
    winner trumps with a top trump, breaking spades (so the winner must differ from the trick
    before: :func:`winner_order`; with the standard deck this is trick 10, three plain aces and
    AS). Last, everyone holds only trumps, which are then led and followed, lowest first.
    At least two seats must take a trick when there is a trumped trick.

    Returns the hands (one list per seat) and the ``(seat, card)`` plays in order.
    """
    assert rules.mode != "two-player", "the two-player deal is a draw: use stacked_draw"
    return _stack(rules, counts, dealer, deck_of(rules).cards)


def stacked_draw(
    counts: Sequence[int], dealer: int, rules: RuleSet
) -> tuple[list[list[int]], list[list[int]], Plays]:
    """Two-player: the kept cards (every club and every trump of the deck, 26 with the standard
    deck), the discards (the other cards, half each) and the plays, as :func:`stacked_deal`."""
    deck = deck_of(rules)
    kept = {card for card in deck.cards if deck.suit_of(card) in (CLUBS, SPADES)}
    thrown = sorted(deck.cards - kept)
    assert len(kept) == len(thrown) == 26, "keep every club and trump: 26 cards"
    hands, plays = _stack(rules, counts, dealer, kept)
    return hands, [thrown[:13], thrown[13:]], plays


def bid_in_turn(hand: Hand, bids: Sequence[BidValue]) -> None:
    """Bid ``bids[seat]`` (``"bn"`` = blind nil, a ``BlindCount`` a blind bid) in turn from the
    first bidder."""
    for offset in range(hand.seat_count):
        seat = (hand.first_bidder_index + offset) % hand.seat_count
        if bids[seat] == "bn":
            hand.blind_nil(seat)
        elif isinstance(bids[seat], BlindCount):
            hand.blind_bid(seat, int(bids[seat]))
        else:
            hand.bid(seat, int(bids[seat]))


def finish(hand: Hand, bids: Sequence[BidValue], plays: Sequence[tuple[int, int]]) -> HandResult:
    """Bid (``"bn"`` = blind nil) in turn from the first bidder, play every card, return the result."""
    bid_in_turn(hand, bids)
    for seat, card in plays:
        hand.play(seat, card)
    assert hand.phase is Phase.SCORE
    return hand.result


def _deal(
    rules: RuleSet, counts: Sequence[int], dealer: int
) -> tuple[list[list[int]], list[list[int]] | None, Plays]:
    """A stacked deal for any mode: hands, discards (two-player) or None, plays."""
    if rules.mode == "two-player":
        return stacked_draw(counts, dealer, rules)
    hands, plays = stacked_deal(counts, dealer, rules)
    return hands, None, plays


def play_hand(
    bids: Sequence[BidValue],
    counts: Sequence[int],
    rules: RuleSet = STANDARD,
    score_before: Sequence[int] | None = None,
    bags_before: Sequence[int] | None = None,
    dealer: int | None = None,
    hand_index: int = 0,
) -> HandResult:
    """Play one stacked hand where seat s bids ``bids[s]`` and takes ``counts[s]`` tricks.

    The dealer is the last seat by default (3 at four seats), so seat 0 bids and leads first.
    """
    dealer = rules.seat_count - 1 if dealer is None else dealer
    hands, discards, plays = _deal(rules, counts, dealer)
    hand = Hand(rules, dealer, hands, score_before, bags_before, hand_index, discards)
    result = finish(hand, bids, plays)
    assert result.tricks == tuple(counts)
    return result


def play_game_hand(game: Game, bids: Sequence[BidValue], counts: Sequence[int]) -> int | None:
    """Play the game's next hand, stacked, and record it; return the game's winner."""
    hands, discards, plays = _deal(game.rules, counts, game.dealer_index)
    hand = game.start_hand(hands, discards)
    finish(hand, bids, plays)
    return game.record(hand)

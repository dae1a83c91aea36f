"""The referee: plain-Python Spades, written from docs/rules.md and docs/scoring.md alone.

This module is the test oracle for the numba kernel, so it shares no code with
it and uses no numpy. A :class:`Hand` is an explicit state machine in the
manner of pokerkit's ``State``: it moves BID → EXCHANGE (the blind-nil card
passing, when there is one) → PLAY → SCORE, each transition in one
``_end_<phase>`` or ``_begin_<phase>`` method, and every action comes as three
methods, ``verify_*`` (raises :class:`IllegalMove` with a sentence saying why),
``can_*`` (the same as a bool) and the action itself, which returns a frozen
record and appends it to :attr:`Hand.operations`.

Every table mode of docs/scoring.md "Table modes" is played: the rule set
gives the seats (2-5), the hand size, the sides (two partnerships, or one side
per seat) and who is whose partner. A :class:`Game` carries score and bags
from hand to hand and applies the end of game rule (target,
``bid_thirteen = "wins_game"``, ``elimination``, ``hand_limit``, for any number
of sides). :func:`deck_of` gives a rule set's deck: its cards (50-54) and its
trumps, high to low (jokers and promoted deuces are "spades" for following,
leading and breaking). :func:`replay_hand` and :func:`score_file` check hand logs
(``docs/hand-log.md``) move by move and compare every recorded field.

>>> from spades_sim.rules import RuleSet
>>> hand = Hand(RuleSet(), 3, ["AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S",
...                            "AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H",
...                            "AD KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D 2D",
...                            "AC KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C 2C"])
>>> hand.turn_index, hand.bid(0, 13)
(0, Bid(seat_index=0, tricks=13))
"""

from __future__ import annotations

import enum
import functools
import json
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from spades_sim import cards

if TYPE_CHECKING:  # pandas only for the table of scored hands, imported when it is made
    import pandas as pd
from spades_sim.referee.handlog import (
    BLIND_NIL,
    NIL_MADE,
    NIL_SET,
    RESULT_FIELDS,
    SIDE_COUNT,
    Action,
    Bid,
    BlindNilBid,
    CardPass,
    CardPlay,
    HandLog,
    HandResult,
    LogError,
    NilOutcome,
    Trick,
    check_deal,
    log_rules,
    parse_action,
    read_log,
    trick_to_json,
)
from spades_sim.rules import (
    HAND_SIZE,
    SEAT_COUNT,
    BidThirteen,
    BlindNil,
    BothPartnersNil,
    Deck,
    FailedContract,
    FirstBidder,
    FirstLead,
    ForcedMode,
    JokerDeuces,
    Mode,
    NilTricks,
    RuleSet,
    SpadesLead,
    TwoPlayerFirst,
)

MAX_BID = HAND_SIZE
"""The highest bid with 13 cards a seat: every trick (bids run up to the rules' hand size)."""

TRUMP_SUIT = cards.SPADES
"""Spades are always trump (docs/rules.md baseline); jokers and promoted deuces join them."""

DECK_SIZE = SEAT_COUNT * HAND_SIZE
"""Cards of every four-seat (and two-player) deck: 52. Three players play 51 or 54, five 50."""

_NUMBER_WORDS = {2: "two", 3: "three", 4: "four", 5: "five"}
"""Seat counts as the messages write them ("the four bids")."""

BidValue = int | str
"""A seat's bid: a number of tricks (0 is nil) or :data:`~spades_sim.referee.handlog.BLIND_NIL`."""

_BidRecord = TypeVar("_BidRecord", Bid, BlindNilBid)
_T = TypeVar("_T")


class IllegalMove(ValueError):
    """A bid or play that the rules do not allow; the message says why.

    >>> str(IllegalMove("seat 2 bid 14: allowed 0-13"))
    'seat 2 bid 14: allowed 0-13'
    """


class Phase(enum.StrEnum):
    """The phases of a hand, in order."""

    BID = "bid"
    """Each seat bids once, clockwise from the first bidder (the dealer's left by default)."""
    EXCHANGE = "exchange"
    """The blind-nil exchange (``blind_nil_pass`` > 0 and a blind nil bid): partners pass cards."""
    PLAY = "play"
    """The tricks are played, one per card a seat holds."""
    SCORE = "score"
    """All cards are played and :attr:`Hand.result` is known: the hand is done."""


# --- decks -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class DeckSpec:
    """One deck of docs/scoring.md "Decks": the cards in play and the trumps, high to low.

    Every card that is not a trump belongs to its printed suit and ranks by its
    printed rank (A high); a trump ranks by its place in :attr:`trumps`.

    >>> deck = deck_of(RuleSet(deck="joker-joker-deuce-deuce"))
    >>> cards.format_cards(deck.trumps[:5]), len(deck.trumps), deck.suit_of(cards.parse_card("2D"))
    ('BJ LJ 2D 2S AS', 16, 3)
    """

    name: str
    """The ``deck`` value."""
    cards: frozenset[int]
    """The card ids in play (52; 51 or 54 with three players, 50 with five)."""
    trumps: tuple[int, ...]
    """The trumps ("spades"), highest first."""
    note: str
    """What sets the deck apart from 52 plain cards, for messages."""

    def __post_init__(self) -> None:
        assert set(self.trumps) <= self.cards, self.name

    @functools.cached_property
    def _trump_power(self) -> dict[int, int]:
        return {card: len(self.trumps) - place for place, card in enumerate(self.trumps)}

    def is_trump(self, card: int) -> bool:
        """Whether a card is a trump ("spade") in this deck."""
        return card in self._trump_power

    @functools.cached_property
    def _suits(self) -> tuple[int, ...]:
        """Per card id: the suit it counts as (a table: the referee asks millions of times)."""
        return tuple(TRUMP_SUIT if card in self._trump_power else cards.card_suit(card)
                     for card in range(cards.CARD_COUNT))

    def suit_of(self, card: int) -> int:
        """The suit a card counts as for following, leading and breaking: trumps are spades."""
        return self._suits[card]

    def rank_of(self, card: int) -> int:
        """A card's strength within the suit it counts as (higher wins)."""
        power = self._trump_power.get(card)
        return cards.card_rank(card) if power is None else power

    def suit_cards(self, suit: int) -> tuple[int, ...]:
        """The deck's cards that count as ``suit``, lowest first."""
        return tuple(sorted((c for c in self.cards if self.suit_of(c) == suit), key=self.rank_of))

    @property
    def lowest_club(self) -> int:
        """The lowest club of the deck: 2C, or 3C where 2C is removed (``first_lead = "two_of_clubs"``)."""
        return self.suit_cards(cards.CLUBS)[0]


def _deck(name: str, removed: str, trumps: str) -> DeckSpec:
    removed_ids = cards.parse_cards(removed)
    trump_ids = cards.parse_cards(trumps)
    jokers = {c for c in trump_ids if c >= 52}
    in_play = (set(range(52)) - set(removed_ids)) | jokers
    removed_names = cards.format_cards(removed_ids).split()
    size = f"{_and_list(removed_names)} removed" if removed_names else f"{len(in_play)} cards"
    note = f"{size}, BJ and LJ added" if jokers else f"{size}, no jokers"
    return DeckSpec(name, frozenset(in_play), trump_ids, note)


def _and_list(names: Sequence[str]) -> str:
    """``2C``, ``2C and 2D``, ``2C, 2D, 2H and 2S``."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


_SPADES_A_TO_3 = "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S"

_JOKER_DEUCES_REMOVED = {
    JokerDeuces.CLUBS_DIAMONDS: "2C 2D",
    JokerDeuces.CLUBS_HEARTS: "2C 2H",
    JokerDeuces.ALL: "2C 2D 2H 2S",  # five players: 50 cards
    JokerDeuces.NONE: "",  # three players: 54 cards
}
"""The deuces the ``jokers`` deck removes (``joker_deuces`` in docs/rules.md)."""


@functools.cache
def _deck_table(deck: Deck, joker_deuces: JokerDeuces, three_player: bool) -> DeckSpec:
    # Three players without jokers play 51 cards: 2C is removed (docs/rules.md "Table modes").
    short = "2C" if three_player else ""
    match deck:
        case Deck.STANDARD:
            return _deck(deck.value, short, _SPADES_A_TO_3 + " 2S")
        case Deck.JOKERS:
            removed = _JOKER_DEUCES_REMOVED[joker_deuces]
            lowest_trump = "" if "2S" in removed else " 2S"
            return _deck(deck.value, removed, "BJ LJ " + _SPADES_A_TO_3 + lowest_trump)
        case Deck.JOKER_JOKER_DEUCE_DEUCE:
            return _deck(deck.value, "2H 2C", "BJ LJ 2D 2S " + _SPADES_A_TO_3)
        case Deck.JOKER_JOKER_DEUCE_ACE:
            return _deck(deck.value, "2H 2D", "BJ LJ 2S " + _SPADES_A_TO_3)
        case Deck.DEUCE_HIGH:
            return _deck(deck.value, short, "2S " + _SPADES_A_TO_3)
    raise AssertionError(f"unhandled deck {deck!r}")


def deck_of(rules: RuleSet) -> DeckSpec:
    """Return the deck a rule set plays (``deck``, ``joker_deuces`` for the jokers deck, and the
    mode: three players without jokers remove 2C).

    >>> [len(deck_of(RuleSet(deck=d)).trumps) for d in Deck]
    [13, 15, 16, 15, 13]
    >>> deck_of(RuleSet(deck="jokers")).note
    '2C and 2D removed, BJ and LJ added'
    >>> five = deck_of(RuleSet(mode="five-player", deck="jokers", joker_deuces="all", blind_nil="off"))
    >>> len(five.cards), len(five.trumps), five.note
    (50, 14, '2C, 2D, 2H and 2S removed, BJ and LJ added')
    """
    return _deck_table(rules.deck, rules.joker_deuces, rules.mode == Mode.THREE_PLAYER)


STANDARD_DECK = _deck_table(Deck.STANDARD, JokerDeuces.CLUBS_DIAMONDS, False)
"""The 52-card deck with the 13 spades as trumps."""


# --- pure rule steps -------------------------------------------------------------------------


def side_of(seat_index: int) -> int:
    """Return the side of a seat at a partnership table: partners sit opposite (seats 0+2 are
    side 0, 1+3 side 1). Any mode: :meth:`RuleSet.seat_side <spades_sim.rules.RuleSet.seat_side>`.

    >>> [side_of(seat) for seat in range(4)]
    [0, 1, 0, 1]
    """
    return seat_index % SIDE_COUNT


def partner_of(rules: RuleSet, seat_index: int) -> int | None:
    """Return a seat's partner: the seat opposite in partnership; None in the individual modes.

    >>> partner_of(RuleSet(), 1), partner_of(RuleSet(mode="solo", blind_nil="off"), 1)
    (3, None)
    """
    return (seat_index + 2) % SEAT_COUNT if rules.partnership else None


def _zeros(rules: RuleSet) -> tuple[int, ...]:
    """A per-side list of zeros: the score and bags a game starts from."""
    return (0,) * rules.side_count


def trick_winner_index(trick_cards: Sequence[int], rules: RuleSet | None = None) -> int:
    """Return the position (0 = leader) of the card that wins a trick.

    The highest trump ("spade": the spade suit, jokers and promoted deuces, in
    the deck's order) wins; with no trump, the highest card of the suit led.
    Cards of another suit never win. ``rules`` picks the deck (standard if None).

    >>> trick_winner_index(cards.parse_cards("KH AC 2H QH"))
    0
    >>> trick_winner_index(cards.parse_cards("KH AC 2S 3S"))
    3
    >>> trick_winner_index(cards.parse_cards("AS 3D 2S 5D"), RuleSet(deck="deuce-high"))
    2
    """
    deck = STANDARD_DECK if rules is None else deck_of(rules)
    led_suit = deck.suit_of(trick_cards[0])

    def power(card: int) -> tuple[bool, bool, int]:
        suit = deck.suit_of(card)
        return suit == TRUMP_SUIT, suit == led_suit, deck.rank_of(card)

    return max(range(len(trick_cards)), key=lambda position: power(trick_cards[position]))


def is_nil(bid: BidValue | None) -> bool:
    """Whether a bid is nil or blind nil.

    >>> is_nil(0), is_nil(BLIND_NIL), is_nil(3)
    (True, True, False)
    """
    return bid == 0 or bid == BLIND_NIL


def score_hand(
    rules: RuleSet,
    bids: Sequence[BidValue],
    tricks_taken: Sequence[int],
    score_before: Sequence[int] | None = None,
    bags_before: Sequence[int] | None = None,
) -> HandResult:
    """Score one hand from the bids and the tricks each seat took (docs/scoring.md, steps 1-5).

    Every side is scored alike: a partnership, or in the individual modes one
    seat, whose contract is its own bid and whose nil tricks are its own bags.

    Parameters
    ----------
    rules : RuleSet
        The scoring options and the table mode (which seats make a side).
    bids : sequence of int or "bn", one per seat
        Tricks bid (0 is nil) or :data:`~spades_sim.referee.handlog.BLIND_NIL`.
    tricks_taken : sequence of int, one per seat
        Tricks each seat took; they sum to the hand size.
    score_before, bags_before : sequence of int, one per side
        Each side's score and carried bags before the hand (all 0 if None).

    Returns
    -------
    HandResult

    Examples
    --------
    Pagat's example: side 0 on 337 with 7 bags bids 5 and takes 8 tricks.

    >>> result = score_hand(RuleSet(), (3, 3, 2, 2), (4, 3, 4, 2), (337, 0), (7, 0))
    >>> result.points, result.penalty, result.score, result.bag_total
    ((-47, 50), (100, 0), (290, 50), (0, 0))

    Ten for two hundred: side 0 bids 6 + 4 and takes 11 tricks: 200 + 1 bag.

    >>> score_hand(RuleSet(ten_for_two_hundred=True), (6, 1, 4, 1), (6, 1, 5, 1)).points
    (201, 20)

    Solo: every seat alone; seat 1's nil (worth 50 here) is made, seat 2 bid 4 and took 6.

    >>> score_hand(RuleSet(mode="solo", blind_nil="off", nil_value=50), (3, 0, 4, 5), (3, 0, 6, 4)).points
    (30, 50, 42, -50)
    """
    score_before = _zeros(rules) if score_before is None else score_before
    bags_before = _zeros(rules) if bags_before is None else bags_before
    nil: list[NilOutcome] = [None] * len(bids)
    points, bags, penalty, score, bag_total = ([0] * rules.side_count for _ in range(5))
    for side in range(rules.side_count):
        contract, contract_tricks, nil_seats = side_contract(rules, bids, tricks_taken, side)
        # Step 1: the contract (a contract of 0, both partners nil, is always made).
        made = contract_tricks >= contract
        if made:
            side_points = _made_contract_points(rules, contract)
            side_bags = contract_tricks - contract
        elif rules.ten_for_two_hundred and contract >= 10:
            side_points = -200  # whatever failed_contract says
            side_bags = 0
        else:
            side_points = -10 * contract if rules.failed_contract == FailedContract.MINUS_TEN_PER_BID else 0
            side_bags = 0
        # Step 2: a nil bidder's tricks are bags even when the contract is set
        # (with nil_tricks = "count_for_partner" they are contract tricks instead).
        if rules.nil_tricks == NilTricks.BAGS_ONLY:
            side_bags += sum(tricks_taken[seat] for seat in nil_seats)
        # Step 3: bag points only on a made contract (the MSN example scores no bag point).
        if made:
            side_points += rules.overtrick_points * side_bags
        # Step 4: each nil on its own.
        for seat in nil_seats:
            value = rules.blind_nil_value if bids[seat] == BLIND_NIL else rules.nil_value
            nil[seat] = NIL_MADE if tricks_taken[seat] == 0 else NIL_SET
            side_points += value if nil[seat] == NIL_MADE else -value
        # Step 5: each bag_limit reached costs bag_penalty and is taken off the total.
        penalty_count, bag_total[side] = divmod(bags_before[side] + side_bags, rules.bag_limit)
        penalty[side] = penalty_count * rules.bag_penalty
        points[side] = side_points - penalty[side]
        bags[side] = side_bags
        score[side] = score_before[side] + points[side]
    return HandResult(
        tricks=tuple(tricks_taken),
        nil=tuple(nil),
        points=tuple(points),
        bags=tuple(bags),
        penalty=tuple(penalty),
        score=tuple(score),
        bag_total=tuple(bag_total),
    )


def side_contract(
    rules: RuleSet, bids: Sequence[BidValue], tricks_taken: Sequence[int], side: int
) -> tuple[int, int, list[int]]:
    """Return a side's contract, its contract tricks and its nil bidders' seats.

    The contract is the sum of the side's non-nil bids. Contract tricks are the
    tricks of its non-nil bidders, or all the side's tricks with
    ``nil_tricks = "count_for_partner"``. In the individual modes a side is one
    seat: its contract is its own bid (0 when it bid nil).

    >>> side_contract(RuleSet(), (0, 1, 4, 1), (2, 4, 2, 5), 0)
    (4, 2, [0])
    >>> side_contract(RuleSet(nil_tricks="count_for_partner"), (0, 1, 4, 1), (2, 4, 2, 5), 0)
    (4, 4, [0])
    >>> side_contract(RuleSet(mode="three-player", blind_nil="off"), (5, 0, 9), (6, 2, 9), 1)
    (0, 0, [1])
    """
    seats = [seat for seat in range(len(bids)) if rules.seat_side(seat) == side]
    nil_seats = [seat for seat in seats if is_nil(bids[seat])]
    contract_seats = [seat for seat in seats if not is_nil(bids[seat])]
    contract = sum(int(bids[seat]) for seat in contract_seats)
    counted = seats if rules.nil_tricks == NilTricks.COUNT_FOR_PARTNER else contract_seats
    return contract, sum(tricks_taken[seat] for seat in counted), nil_seats


def _made_contract_points(rules: RuleSet, contract: int) -> int:
    """Points for a made contract, bags aside (docs/scoring.md step 1 and "Rule options")."""
    if contract == MAX_BID and rules.bid_thirteen == BidThirteen.SCORES_500:
        return 500
    if contract == MAX_BID and rules.bid_thirteen == BidThirteen.SCORES_200:
        return 200
    if rules.ten_for_two_hundred and contract >= 10:
        return 200
    return 10 * contract


def thirteen_winner(rules: RuleSet, bids: Sequence[BidValue], tricks_taken: Sequence[int]) -> int | None:
    """Return the side that made a contract of 13 under ``bid_thirteen = "wins_game"``, else None.

    >>> thirteen_winner(RuleSet(bid_thirteen="wins_game"), (7, 0, 6, 0), (7, 0, 6, 0))
    0
    >>> thirteen_winner(RuleSet(), (7, 0, 6, 0), (7, 0, 6, 0)) is None
    True
    """
    if rules.bid_thirteen != BidThirteen.WINS_GAME:
        return None
    for side in range(rules.side_count):
        contract, contract_tricks, _ = side_contract(rules, bids, tricks_taken, side)
        if contract == MAX_BID and contract_tricks >= contract:
            return side
    return None


def game_winner(
    rules: RuleSet,
    score: Sequence[int],
    hands_played: int | None = None,
    thirteen_side: int | None = None,
) -> int | None:
    """Return the side that has won after a hand, or None while the game goes on.

    docs/scoring.md "End of a game with more than two sides": ``thirteen_side``
    (the side that made a contract of 13 under ``bid_thirteen = "wins_game"``)
    wins. Otherwise the game is over when some side's score is at or over the
    target, or some side's is at or below ``elimination``, or ``hands_played``
    has reached ``hand_limit``; then the one highest score wins, and a highest
    score shared by two or more sides plays another hand. With two sides this
    is the rule of "End of a game, all together" (a side's claim to the target
    or to the other's elimination is always the higher score).
    ``hands_played=None`` leaves the hand limit out.

    >>> rules = RuleSet()
    >>> game_winner(rules, (510, 480)), game_winner(rules, (510, 530)), game_winner(rules, (510, 510))
    (0, 1, None)
    >>> game_winner(RuleSet(elimination=-200), (100, -200)), game_winner(RuleSet(hand_limit=8), (90, 80), 8)
    (0, 0)
    >>> game_winner(RuleSet(mode="three-player", blind_nil="off"), (520, 520, 300)) is None  # shared top
    True
    """
    if thirteen_side is not None:
        return thirteen_side
    elimination = rules.elimination
    over = (
        max(score) >= rules.target
        or (elimination is not None and min(score) <= elimination)
        or (rules.hand_limit is not None and hands_played is not None and hands_played >= rules.hand_limit)
    )
    if not over:
        return None
    top = max(score)
    leaders = [side for side, points in enumerate(score) if points == top]
    return leaders[0] if len(leaders) == 1 else None


def blind_nil_refusal(rules: RuleSet, side: int, score_before: Sequence[int], hand_index: int) -> str | None:
    """Return why a side may not bid blind nil in this hand, or None when it may.

    ``when_behind`` measures the side against the leader: the highest score of
    any other side (the other side, with two).

    >>> rules = RuleSet()
    >>> blind_nil_refusal(rules, 1, (140, 40), 0) is None
    True
    >>> blind_nil_refusal(rules, 1, (80, 40), 0)
    'side 1 trails by 40 (needs 100)'
    >>> blind_nil_refusal(RuleSet(mode="solo", blind_nil_solo=True), 3, (0, 150, 20, 60), 0)
    'side 3 trails the leader by 90 (needs 100)'
    """
    match rules.blind_nil:
        case BlindNil.ANYTIME:
            return None
        case BlindNil.OFF:
            return "blind nil is off"
        case BlindNil.AFTER_FIRST_HAND:
            return (
                None
                if hand_index > 0
                else "this is the first hand of the game (allowed after the first hand)"
            )
        case BlindNil.WHEN_BEHIND:
            leader = max(points for other, points in enumerate(score_before) if other != side)
            deficit = leader - score_before[side]
            needed = rules.blind_nil_threshold
            # With more than two sides, name whom the side is measured against.
            two_sides = len(score_before) == 2
            trails = "trails" if two_sides else "trails the leader"
            level = "is level" if two_sides else "is level with the leader"
            if deficit >= needed:
                return None
            if deficit > 0:
                return f"side {side} {trails} by {deficit} (needs {needed})"
            if deficit == 0:
                return f"side {side} {level} (needs to trail by {needed})"
            return f"side {side} leads by {-deficit} (needs to trail by {needed})"
    raise AssertionError(f"unhandled blind_nil option {rules.blind_nil!r}")


# --- one hand --------------------------------------------------------------------------------


class Hand:
    """One hand of Spades as a state machine: BID → EXCHANGE → PLAY → SCORE.

    The table is the rules' mode (docs/scoring.md "Table modes"): n = 2 to 5
    seats, each holding the hand size; two partnerships or one side per seat.
    The EXCHANGE phase happens only with ``blind_nil_pass`` > 0 and a blind nil
    bid (docs/scoring.md "The blind-nil exchange").

    Parameters
    ----------
    rules : RuleSet
        The rules played.
    dealer : int
        The dealer's seat, 0 to n - 1. The dealer's left bids first (the dealer's right
        with ``first_bidder = "dealer_right"``; in two-player the seat ``two_player_first``
        names); ``first_lead`` says who leads first.
    hands : sequence of n card sequences
        The cards each seat holds after the deal (two-player: the cards it kept in the
        draw): card ids or a string such as ``"AS 10H 2C ..."``, the hand size each, together
        exactly the rules' deck (:func:`deck_of`), with the discards in two-player.
    score_before, bags_before : sequence of int, one per side
        Each side's score and carried bags before the hand (for blind nil and the result);
        all 0 if None.
    hand_index : int
        The hand's index in its game, from 0 (for ``blind_nil = "after_first_hand"``).
    discards : sequence of 2 card sequences, optional
        Two-player only, and required there: the 13 cards each seat discarded in the draw.

    Raises
    ------
    ValueError
        A deal that is not the hand size a seat of the rules' deck, each card once
        (a removed deuce, or a joker in a deck without jokers, is refused); discards
        missing in two-player or given in another mode.
    """

    def __init__(
        self,
        rules: RuleSet,
        dealer: int,
        hands: Sequence[Sequence[int] | str],
        score_before: Sequence[int] | None = None,
        bags_before: Sequence[int] | None = None,
        hand_index: int = 0,
        discards: Sequence[Sequence[int] | str] | None = None,
    ) -> None:
        self.rules = rules
        """The rules played."""
        self.seat_count = rules.seat_count
        """Seats at the table (2 to 5)."""
        self.deck = deck_of(rules)
        """The deck played: its cards and its trumps."""
        self.dealer_index = _check_seat("dealer", dealer, self.seat_count, ValueError)
        """The dealer's seat."""
        self.hands, self.discards = _check_deal(rules, self.deck, hands, discards)
        """The cards each seat held after the deal, as given (before any blind-nil exchange);
        in two-player, the cards each seat discarded in the draw (else None)."""
        self.score_before = _check_sides(rules, "score_before", score_before, minimum=None)
        """Each side's score before the hand."""
        self.bags_before = _check_sides(rules, "bags_before", bags_before, minimum=0)
        """Each side's bags carried into the hand."""
        if isinstance(hand_index, bool) or not isinstance(hand_index, int) or hand_index < 0:
            raise ValueError(f"hand_index={hand_index!r}: allowed a whole number 0 or more")
        self.hand_index = hand_index
        """The hand's index in its game."""
        self.operations: list[Action] = []
        """Every action applied, in order."""
        self.tricks: list[Trick] = []
        """The completed tricks, in order."""
        self.spades_broken_status = False
        """Whether a trump ("spade") has been played on the lead of another suit."""
        self.phase = Phase.BID
        """The current phase."""
        self.first_bidder_index = first_bidder(rules, self.dealer_index)
        """The seat that bids first."""
        self.turn_index: int | None = self.first_bidder_index
        """The seat to bid, pass or play next; None once the hand is over."""
        self.leader_index: int = first_leader(rules, self.dealer_index, self.hands)
        """The seat that leads (or led) the trick in progress; before play, the first leader
        as the cards are held (a blind-nil exchange may move the lowest club under
        ``first_lead = "two_of_clubs"``; play starts from the hands after it)."""
        self._holdings = [set(seat_cards) for seat_cards in self.hands]
        self._bids: list[BidValue | None] = [None] * self.seat_count
        self._passers: list[int] = []  # the exchange still to come: one passing seat per card
        self._trick_cards: list[int] = []
        self._tricks_taken = [0] * self.seat_count
        self._result: HandResult | None = None

    # --- views ---

    @property
    def bids(self) -> tuple[BidValue | None, ...]:
        """Each seat's bid so far: tricks, ``"bn"`` for blind nil, None before it bids."""
        return tuple(self._bids)

    @property
    def tricks_taken(self) -> tuple[int, ...]:
        """Tricks taken so far by each seat."""
        return tuple(self._tricks_taken)

    @property
    def trick_cards(self) -> tuple[int, ...]:
        """The cards of the trick in progress, from its leader."""
        return tuple(self._trick_cards)

    @property
    def trick_number(self) -> int:
        """The number of the trick in progress (or last played), from 1."""
        return min(len(self.tricks) + 1, self.rules.hand_size)

    @property
    def result(self) -> HandResult:
        """What the hand scored; only once every card is played.

        :raises ValueError: the hand is not over.
        """
        if self._result is None:
            raise ValueError(f"the hand is not over: phase {self.phase}, seat {self.turn_index} is next")
        return self._result

    def holding(self, seat: int) -> tuple[int, ...]:
        """The cards seat ``seat`` holds now, lowest id first (after any blind-nil passes)."""
        return tuple(sorted(self._holdings[seat]))

    def waiting_for(self) -> str:
        """What the hand waits for, as messages say it: ``"seat 2 is to bid"``,
        ``"seat 3 is to pass 2 cards to seat 1"``, ``"seat 0 is to play"``; empty once over.
        """
        match self.phase:
            case Phase.BID | Phase.PLAY:
                return f"seat {self.turn_index} is to {self.phase}"
            case Phase.EXCHANGE:
                passer = self._passers[0]
                run = next((i for i, seat in enumerate(self._passers) if seat != passer), len(self._passers))
                noun = "card" if run == 1 else "cards"
                return f"seat {passer} is to pass {run} {noun} to seat {partner_of(self.rules, passer)}"
        return ""

    # --- bidding ---

    def _verify_bidder(self, seat: int, what: str) -> None:
        _check_seat("seat", seat, self.seat_count, IllegalMove)
        if self.phase != Phase.BID:
            raise IllegalMove(f"seat {seat} {what} after bidding was over")
        if seat != self.turn_index:
            raise IllegalMove(f"seat {seat} {what} out of turn ({self.waiting_for()})")

    def _partner_bid(self, seat: int) -> tuple[int | None, BidValue | None]:
        """A seat's partner and the partner's bid so far; (None, None) with no partner."""
        partner = partner_of(self.rules, seat)
        return partner, None if partner is None else self._bids[partner]

    def verify_bid(self, seat: int, tricks: int) -> None:
        """Raise :class:`IllegalMove` unless seat ``seat`` may bid ``tricks`` now (0 is nil).

        Bids run from ``min_bid`` to the hand size (13; 17 or 18 with three players,
        10 with five).
        """
        self._verify_bidder(seat, "bid")
        top = self.rules.hand_size
        if isinstance(tricks, bool) or not isinstance(tricks, int) or not self.rules.min_bid <= tricks <= top:
            raise IllegalMove(f"seat {seat} bid {tricks}: allowed {self.rules.min_bid}-{top}")
        if self.rules.forced_mode != ForcedMode.NONE:
            self._verify_forced_bid(seat, tricks)
        if tricks == 0:
            self._verify_partner_not_nil(seat, "nil")
            self._verify_nil_constraints(seat, "nil")
            return
        partner, partner_bid = self._partner_bid(seat)
        minimum = self.rules.side_min_bid
        if partner_bid is not None and tricks + _count(partner_bid) < minimum:
            raise IllegalMove(
                f"seat {seat} bid {tricks}: side {self.rules.seat_side(seat)} needs at least {minimum} "
                f"(side_min_bid={minimum}; partner seat {partner} bid {_bid_name(partner_bid)})"
            )
        if self._sum_would_be_hand_size(seat, tricks):
            raise IllegalMove(f"seat {seat} bid {tricks}: {self._sum_rule_text()}")

    def _verify_forced_bid(self, seat: int, tricks: int) -> None:
        """``forced_mode`` (docs/scoring.md "Forced-bid modes"): the bids a forced mode allows.

        ``suicide``: the first partner of a side to bid may bid nil or 4-13; the second must bid
        4-13 after a nil and nil otherwise. ``mirror``: exactly the trumps ("spades", jokers and
        promoted deuces included) dealt to the seat, nil with none. ``whiz``: nil or exactly that
        count, nil only with none.
        """
        mode = self.rules.forced_mode
        top = self.rules.hand_size
        if mode == ForcedMode.SUICIDE:  # partnership only (the rule set refuses it elsewhere)
            partner, partner_bid = self._partner_bid(seat)
            if partner_bid is None:
                if tricks == 0 or tricks >= 4:
                    return
                allowed, why = f"nil or 4-{top}", f"first of side {self.rules.seat_side(seat)} to bid"
            elif is_nil(partner_bid):
                if tricks >= 4:
                    return
                allowed, why = f"4-{top}", f"partner seat {partner} bid nil"
            else:
                if tricks == 0:
                    return
                allowed, why = "nil", f"partner seat {partner} bid {_bid_name(partner_bid)}"
            raise IllegalMove(f"seat {seat} bid {tricks}: allowed {allowed} ({mode}, {why})")
        held = sum(1 for card in self.hands[seat] if self.deck.is_trump(card))
        if tricks == held or (mode == ForcedMode.WHIZ and tricks == 0):
            return
        if held == 0:
            allowed = "nil"
        elif mode == ForcedMode.MIRROR:
            allowed = f"exactly {held}"
        else:
            allowed = f"nil or {held}"
        noun = "spade" if held == 1 else "spades"
        raise IllegalMove(f"seat {seat} bid {tricks}: allowed {allowed} ({mode}: holds {held} {noun})")

    def _verify_nil_constraints(self, seat: int, what: str) -> None:
        """``side_min_bid`` and ``sum_of_bids_not_hand_size`` for a nil or blind nil (counted 0)."""
        partner, partner_bid = self._partner_bid(seat)
        minimum = self.rules.side_min_bid
        if partner_bid is not None and _count(partner_bid) < minimum:
            raise IllegalMove(
                f"seat {seat} may not bid {what}: partner seat {partner} bid {_bid_name(partner_bid)}, "
                f"below side_min_bid={minimum}"
            )
        if self._sum_would_be_hand_size(seat, 0):
            raise IllegalMove(f"seat {seat} may not bid {what}: {self._sum_rule_text()}")

    def _sum_would_be_hand_size(self, seat: int, tricks: int) -> bool:
        """Whether the last bidder's ``tricks`` would make all n bids add up to the hand size
        (nil counts 0)."""
        if not self.rules.sum_of_bids_not_hand_size:
            return False
        others = [bid for index, bid in enumerate(self._bids) if index != seat]
        if any(bid is None for bid in others):
            return False  # not the last bidder
        return tricks + sum(_count(bid) for bid in others) == self.rules.hand_size

    def _sum_rule_text(self) -> str:
        return (
            f"the {_NUMBER_WORDS[self.seat_count]} bids would add up to {self.rules.hand_size} "
            "(sum_of_bids_not_hand_size)"
        )

    def _verify_partner_not_nil(self, seat: int, what: str) -> None:
        """``both_partners_nil = "forbidden"``: no nil (or blind nil) beside a partner's nil."""
        partner, partner_bid = self._partner_bid(seat)
        if self.rules.both_partners_nil == BothPartnersNil.FORBIDDEN and is_nil(partner_bid):
            partner_what = "blind nil" if partner_bid == BLIND_NIL else "nil"
            raise IllegalMove(
                f"seat {seat} may not bid {what}: partner seat {partner} already bid {partner_what} "
                "(both_partners_nil=forbidden)"
            )

    def can_bid(self, seat: int, tricks: int) -> bool:
        """Whether seat ``seat`` may bid ``tricks`` now."""
        return _allowed(self.verify_bid, seat, tricks)

    def bid(self, seat: int, tricks: int) -> Bid:
        """Seat ``seat`` bids ``tricks`` (0 is nil); return the :class:`Bid` record."""
        self.verify_bid(seat, tricks)
        return self._record_bid(Bid(seat, tricks), tricks)

    def verify_blind_nil(self, seat: int) -> None:
        """Raise :class:`IllegalMove` unless seat ``seat`` may bid blind nil now."""
        self._verify_bidder(seat, "bid blind nil")
        side = self.rules.seat_side(seat)
        refusal = blind_nil_refusal(self.rules, side, self.score_before, self.hand_index)
        if refusal is not None:
            raise IllegalMove(f"seat {seat} bid blind nil but {refusal}")
        self._verify_partner_not_nil(seat, "blind nil")
        self._verify_nil_constraints(seat, "blind nil")

    def can_blind_nil(self, seat: int) -> bool:
        """Whether seat ``seat`` may bid blind nil now."""
        return _allowed(self.verify_blind_nil, seat)

    def blind_nil(self, seat: int) -> BlindNilBid:
        """Seat ``seat`` bids blind nil; return the :class:`BlindNilBid` record."""
        self.verify_blind_nil(seat)
        return self._record_bid(BlindNilBid(seat), BLIND_NIL)

    def _record_bid(self, record: _BidRecord, value: BidValue) -> _BidRecord:
        self._bids[record.seat_index] = value
        self.operations.append(record)
        self.turn_index = (record.seat_index + 1) % self.seat_count
        if all(bid is not None for bid in self._bids):
            self._end_bid()
        return record

    def _end_bid(self) -> None:
        self._passers = self._exchange_order()
        if self._passers:
            self.phase = Phase.EXCHANGE
            self.turn_index = self._passers[0]
        else:
            self._begin_play()

    def _exchange_order(self) -> list[int]:
        """The passing seat of each card of the blind-nil exchange, in order.

        For each blind nil in bidding order: the partner passes ``blind_nil_pass``
        cards, then the blind-nil bidder as many back. One exchange a side: when
        both partners bid blind nil, only the first of them (in bidding order) receives.
        """
        count = self.rules.blind_nil_pass
        order: list[int] = []
        served: set[int] = set()
        if not count:
            return order
        for offset in range(self.seat_count):
            seat = (self.first_bidder_index + offset) % self.seat_count
            side = self.rules.seat_side(seat)
            if self._bids[seat] == BLIND_NIL and side not in served:
                partner = partner_of(self.rules, seat)
                assert partner is not None, "blind_nil_pass needs partners (the rule set refuses it alone)"
                served.add(side)
                order += [partner] * count + [seat] * count
        return order

    # --- the blind-nil exchange ---

    def verify_pass_card(self, seat: int, card: int) -> None:
        """Raise :class:`IllegalMove` unless seat ``seat`` may pass ``card`` to its partner now.

        Checks that there is a blind-nil exchange in progress, that it is the
        seat's turn (the partner's ``blind_nil_pass`` cards first, then the
        blind-nil bidder's as many back) and that the seat holds the card at
        this moment (a card just received may be passed back).
        """
        self._verify_card_action(seat, card, "passed")
        name = cards.format_card(card)
        if self.phase != Phase.EXCHANGE:
            raise IllegalMove(f"seat {seat} passed {name} {self._no_exchange_reason()}")
        if seat != self.turn_index:
            raise IllegalMove(f"seat {seat} passed {name} out of turn ({self.waiting_for()})")
        if card not in self._holdings[seat]:
            raise IllegalMove(f"seat {seat} passed {name}, which it does not hold")

    def _no_exchange_reason(self) -> str:
        """Why no card may be passed now, outside the EXCHANGE phase."""
        if self.phase == Phase.BID:
            return f"during bidding ({self.waiting_for()})"
        if self.phase == Phase.SCORE:
            return "after the hand was over"
        if any(isinstance(operation, CardPass) for operation in self.operations):
            return f"after the blind-nil exchange was over ({self.waiting_for()})"
        if not self.rules.blind_nil_pass:
            return "but no cards are passed (blind_nil_pass=0)"
        return "but nobody bid blind nil (cards are passed only after a blind nil)"

    def can_pass_card(self, seat: int, card: int) -> bool:
        """Whether seat ``seat`` may pass ``card`` to its partner now."""
        return _allowed(self.verify_pass_card, seat, card)

    def pass_card(self, seat: int, card: int) -> CardPass:
        """Seat ``seat`` passes ``card`` face down to its partner; return the :class:`CardPass` record."""
        self.verify_pass_card(seat, card)
        record = CardPass(seat, card)
        partner = partner_of(self.rules, seat)
        assert partner is not None
        self._holdings[seat].remove(card)
        self._holdings[partner].add(card)
        self.operations.append(record)
        self._passers.pop(0)
        if self._passers:
            self.turn_index = self._passers[0]
        else:
            self._begin_play()
        return record

    def _begin_play(self) -> None:
        # The first lead is decided on the hands as held now, after any exchange: under
        # two_of_clubs the lowest club may have changed hands (docs/scoring.md).
        self.leader_index = first_leader(self.rules, self.dealer_index, self._holdings)
        self.phase = Phase.PLAY
        self.turn_index = self.leader_index

    # --- play ---

    def _verify_card_action(self, seat: int, card: int, verb: str) -> None:
        """The seat and card id checks shared by passes and plays."""
        _check_seat("seat", seat, self.seat_count, IllegalMove)
        if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < cards.CARD_COUNT:
            raise IllegalMove(f"seat {seat} {verb} card id {card!r}: allowed 0-{cards.CARD_COUNT - 1}")

    def verify_play(self, seat: int, card: int) -> None:
        """Raise :class:`IllegalMove` unless seat ``seat`` may play ``card`` now.

        Checks the turn, that the card is held, the first lead (``first_lead``),
        that trumps are not led before they are broken unless the leader holds
        only trumps (``spades_lead = "must_break"``), and that the suit led is
        followed when possible. Trumps ("spades") are the spade suit, the jokers
        and any promoted deuce (:func:`deck_of`).
        """
        self._verify_card_action(seat, card, "played")
        name = cards.format_card(card)
        if self.phase == Phase.BID:
            raise IllegalMove(f"seat {seat} played {name} during bidding ({self.waiting_for()})")
        if self.phase == Phase.EXCHANGE:
            raise IllegalMove(
                f"seat {seat} played {name} during the blind-nil exchange ({self.waiting_for()})"
            )
        if self.phase == Phase.SCORE:
            raise IllegalMove(f"seat {seat} played {name} after the hand was over")
        if seat != self.turn_index:
            raise IllegalMove(f"seat {seat} played {name} out of turn ({self.waiting_for()})")
        holding = self._holdings[seat]
        if card not in holding:
            raise IllegalMove(f"seat {seat} played {name}, not in hand")
        deck = self.deck
        suit = deck.suit_of(card)
        if not self._trick_cards:
            self._verify_lead(seat, card)
            return
        led_suit = deck.suit_of(self._trick_cards[0])
        if suit != led_suit and any(deck.suit_of(held) == led_suit for held in holding):
            followers = sorted((held for held in holding if deck.suit_of(held) == led_suit),
                               key=deck.rank_of)
            raise IllegalMove(
                f"trick {self.trick_number}: seat {seat} must follow {cards.SUIT_NAMES[led_suit]}; "
                f"holds {cards.format_cards(followers)}"
            )

    def _verify_lead(self, seat: int, card: int) -> None:
        """The leading rules: ``first_lead`` on trick 1, then ``spades_lead``."""
        name = cards.format_card(card)
        trump = self.deck.is_trump(card)
        only_trumps = all(self.deck.is_trump(held) for held in self._holdings[seat])
        if not self.tricks:
            match self.rules.first_lead:
                case FirstLead.TWO_OF_CLUBS:
                    lowest = self.deck.lowest_club
                    if card != lowest:
                        raise IllegalMove(
                            f"trick 1: seat {seat} must lead {cards.format_card(lowest)} (two_of_clubs)"
                        )
                    return
                case FirstLead.DEALER_LEFT_NO_SPADE:
                    # No trump on the first lead, whatever spades_lead says.
                    if trump and not only_trumps:
                        if self.rules.spades_lead == SpadesLead.MUST_BREAK:
                            raise IllegalMove(f"trick 1: seat {seat} led {name} before spades were broken")
                        raise IllegalMove(
                            f"trick 1: seat {seat} may not lead {name}: no spade on the first lead "
                            "unless holding only spades (dealer_left_no_spade)"
                        )
                    return
                case FirstLead.DEALER_RIGHT:
                    pass  # the ordinary leading rule below
        if (
            self.rules.spades_lead == SpadesLead.MUST_BREAK
            and trump
            and not self.spades_broken_status
            and not only_trumps
        ):
            raise IllegalMove(f"trick {self.trick_number}: seat {seat} led {name} before spades were broken")

    def can_play(self, seat: int, card: int) -> bool:
        """Whether seat ``seat`` may play ``card`` now."""
        return _allowed(self.verify_play, seat, card)

    def legal_plays(self, seat: int) -> tuple[int, ...]:
        """The cards seat ``seat`` may play now, lowest id first (empty when it is not to play)."""
        return tuple(card for card in self.holding(seat) if self.can_play(seat, card))

    def play(self, seat: int, card: int) -> CardPlay:
        """Seat ``seat`` plays ``card``; return the :class:`CardPlay` record."""
        self.verify_play(seat, card)
        record = CardPlay(seat, card)
        self._holdings[seat].remove(card)
        if self._trick_cards and self.deck.is_trump(card):
            led_suit = self.deck.suit_of(self._trick_cards[0])
            # Only a trump on another suit's lead breaks spades; a trump lead
            # (allowed when holding only trumps, or with spades_lead = "any_time")
            # does not (docs/scoring.md, Play and "Decks").
            self.spades_broken_status |= led_suit != TRUMP_SUIT
        self._trick_cards.append(card)
        self.operations.append(record)
        self.turn_index = (seat + 1) % self.seat_count
        if len(self._trick_cards) == self.seat_count:
            self._end_trick()
        return record

    def _end_trick(self) -> None:
        position = trick_winner_index(self._trick_cards, self.rules)
        winner = (self.leader_index + position) % self.seat_count
        self.tricks.append(Trick(self.leader_index, winner, tuple(self._trick_cards)))
        self._tricks_taken[winner] += 1
        self._trick_cards = []
        self.leader_index = self.turn_index = winner
        if len(self.tricks) == self.rules.hand_size:
            self._end_play()

    def _end_play(self) -> None:
        self.phase = Phase.SCORE
        self.turn_index = None
        bids = [bid for bid in self._bids if bid is not None]
        self._result = score_hand(self.rules, bids, self._tricks_taken, self.score_before, self.bags_before)

    # --- any action ---

    def apply(self, action: Action) -> Action:
        """Apply an action record (as parsed from a log); return it."""
        match action:
            case Bid(seat, tricks):
                return self.bid(seat, tricks)
            case BlindNilBid(seat):
                return self.blind_nil(seat)
            case CardPass(seat, card):
                return self.pass_card(seat, card)
            case CardPlay(seat, card):
                return self.play(seat, card)
        raise TypeError(f"not an action record: {action!r}")


def _allowed(verify: Callable[..., None], *args: int) -> bool:
    # can_* is verify_* turned into a bool, so the two can never disagree.
    try:
        verify(*args)
    except IllegalMove:
        return False
    return True


def _count(bid: BidValue) -> int:
    """A bid's count of tricks: nil and blind nil count 0."""
    return 0 if is_nil(bid) else int(bid)


def _bid_name(bid: BidValue) -> str:
    """A bid as the messages write it: ``nil``, ``blind nil`` or its number."""
    if bid == BLIND_NIL:
        return "blind nil"
    return "nil" if is_nil(bid) else str(bid)


def _check_seat(name: str, seat: object, seat_count: int, error: type[ValueError]) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < seat_count:
        raise error(f"{name} {seat!r}: allowed 0-{seat_count - 1}")
    return seat


def _check_sides(
    rules: RuleSet, name: str, values: Sequence[int] | None, minimum: int | None
) -> tuple[int, ...]:
    """One whole number per side of the rules' table (all 0 if None), each ``minimum`` or more."""
    if values is None:
        return _zeros(rules)
    count = rules.side_count
    if (
        len(values) != count
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in values)
        or (minimum is not None and min(values) < minimum)
    ):
        floor = "" if minimum is None else f" {minimum} or more"
        raise ValueError(f"{name}={list(values)!r}: allowed {count} whole numbers{floor}, one per side")
    return tuple(values)


def _check_deal(
    rules: RuleSet,
    deck: DeckSpec,
    raw_hands: Sequence[Sequence[int] | str],
    raw_discards: Sequence[Sequence[int] | str] | None,
) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...] | None]:
    """The deal must be the hand size a seat, each card once, every one of them in ``deck``;
    in two-player (and only there) the discards of the draw complete it.

    n seats of the hand size in distinct cards of the deck are exactly the deck (50-54 cards);
    in two-player, 2 x 13 kept and 2 x 13 discarded are its 52.
    """
    two_player = rules.mode == Mode.TWO_PLAYER
    if two_player and raw_discards is None:
        raise ValueError(
            "discards missing: required with mode='two-player', allowed 2 strings of 13 cards "
            "(the cards each player discarded in the draw)"
        )
    if raw_discards is not None and not two_player:
        raise ValueError(
            f"discards: allowed only with mode='two-player' (mode={str(rules.mode)!r} deals every card)"
        )
    hands = _card_ids(raw_hands)
    discards = None if raw_discards is None else _card_ids(raw_discards)
    # The table first (seats, cards a seat, each card once), then the cards themselves.
    check_deal(hands, rules.hand_size, rules.seat_count, discards)
    for name, seats in (("hands", hands), ("discards", discards or ())):
        _check_in_deck(name, seats, deck)
    assert set().union(*hands, *(discards or ())) == deck.cards, "the counts of RuleSet and deck_of disagree"
    return hands, discards


def _card_ids(raw_seats: Sequence[Sequence[int] | str]) -> tuple[tuple[int, ...], ...]:
    """Card ids per seat from strings or ids."""
    return tuple(
        cards.parse_cards(raw, unique=False) if isinstance(raw, str) else tuple(raw) for raw in raw_seats
    )


def _check_in_deck(name: str, seats: Sequence[Sequence[int]], deck: DeckSpec) -> None:
    """Every card of ``hands`` (or ``discards``) must be a card id of ``deck``."""
    for seat, seat_cards in enumerate(seats):
        for card in seat_cards:
            if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < cards.CARD_COUNT:
                raise ValueError(f"{name}[{seat}] holds {card!r}: allowed a card id 0-{cards.CARD_COUNT - 1}")
            if card not in deck.cards:
                raise ValueError(
                    f"{name}[{seat}] holds {cards.format_card(card)}: allowed a card of the "
                    f"{deck.name} deck ({deck.note})"
                )


def _left_of_dealer(rules: RuleSet, dealer: int) -> int:
    """The dealer's left (dealer + 1). Two-player: the seat ``two_player_first`` names, the
    non-dealer (the dealer's left) by default, which draws, bids and leads first there."""
    if rules.mode == Mode.TWO_PLAYER and rules.two_player_first == TwoPlayerFirst.DEALER:
        return dealer
    return (dealer + 1) % rules.seat_count


def first_bidder(rules: RuleSet, dealer: int) -> int:
    """Return the seat that bids first: the dealer's left, or right with ``first_bidder = "dealer_right"``.

    The dealer's right is dealer - 1 at any table size; in two-player, ``two_player_first`` decides.

    >>> first_bidder(RuleSet(), 0), first_bidder(RuleSet(first_bidder="dealer_right"), 0)
    (1, 3)
    >>> first_bidder(RuleSet(mode="three-player", blind_nil="off", first_bidder="dealer_right"), 0)
    2
    """
    if rules.first_bidder == FirstBidder.DEALER_LEFT:
        return _left_of_dealer(rules, dealer)
    return (dealer - 1) % rules.seat_count


def first_leader(rules: RuleSet, dealer: int, hands: Sequence[Collection[int]]) -> int:
    """Return the seat that leads the first trick (``first_lead``).

    The dealer's left (in two-player the seat ``two_player_first`` names); the
    dealer's right with ``dealer_right``; with ``two_of_clubs`` the holder in
    ``hands`` of the deck's lowest club (2C, or 3C where 2C is removed).
    """
    match rules.first_lead:
        case FirstLead.DEALER_LEFT_NO_SPADE:
            return _left_of_dealer(rules, dealer)
        case FirstLead.DEALER_RIGHT:
            return (dealer - 1) % rules.seat_count
        case FirstLead.TWO_OF_CLUBS:
            lowest = deck_of(rules).lowest_club
            return next(seat for seat, seat_cards in enumerate(hands) if lowest in seat_cards)
    raise AssertionError(f"unhandled first_lead option {rules.first_lead!r}")


# --- a game ----------------------------------------------------------------------------------


class Game:
    """A game: score and bags carried from hand to hand, and the end-of-game rule.

    After each hand :func:`game_winner` decides: a made contract of 13 under
    ``bid_thirteen = "wins_game"``, the target, ``elimination`` and ``hand_limit``
    (docs/scoring.md "End of a game, all together" and "with more than two sides").

    Parameters
    ----------
    rules : RuleSet
        The rules played.
    dealer : int
        The dealer of the next hand; the deal passes clockwise (dealer + 1 mod n) each hand.
    score, bags : sequence of int, one per side
        Each side's score and carried bags before the next hand (all 0 if None).
    hand_index : int
        The index of the next hand in the game (so also the hands played so far).
    """

    def __init__(
        self,
        rules: RuleSet,
        dealer: int = 0,
        score: Sequence[int] | None = None,
        bags: Sequence[int] | None = None,
        hand_index: int = 0,
    ) -> None:
        self.rules = rules
        """The rules played."""
        self.dealer_index = _check_seat("dealer", dealer, rules.seat_count, ValueError)
        """The dealer of the next hand."""
        self.score = _check_sides(rules, "score", score, minimum=None)
        """Each side's score now."""
        self.bags = _check_sides(rules, "bags", bags, minimum=0)
        """Each side's bags carried into the next hand."""
        self.hand_index = hand_index
        """The index of the next hand."""
        self.results: list[HandResult] = []
        """The results of the hands recorded, in order."""
        self.winner: int | None = game_winner(rules, self.score, hands_played=hand_index)
        """The winning side, or None while the game goes on."""

    @property
    def over(self) -> bool:
        """Whether a side has won."""
        return self.winner is not None

    def verify_next(self, dealer: int) -> None:
        """Raise ValueError unless a next hand dealt by ``dealer`` may be played."""
        if self.over:
            raise ValueError(f"the game is over: side {self.winner} won {list(self.score)}")
        if dealer != self.dealer_index:
            raise ValueError(
                f"dealer={dealer}: allowed {self.dealer_index} (the deal passes clockwise each hand)"
            )

    def start_hand(
        self, hands: Sequence[Sequence[int] | str], discards: Sequence[Sequence[int] | str] | None = None
    ) -> Hand:
        """Deal the next hand (dealer, score, bags and index from the game); :meth:`record` it when done.

        ``discards``: the two-player draw's discards (two-player only).
        """
        self.verify_next(self.dealer_index)
        return Hand(self.rules, self.dealer_index, hands, self.score, self.bags, self.hand_index, discards)

    def record(self, hand: Hand) -> int | None:
        """Add a finished hand to the game; return the winning side, or None if the game goes on.

        :raises ValueError: the hand is unfinished or was not dealt from this game's state.
        """
        self.verify_next(hand.dealer_index)
        expected = (self.score, self.bags, self.hand_index)
        if (hand.score_before, hand.bags_before, hand.hand_index) != expected:
            raise ValueError(
                f"hand {hand.hand_index} starts from score {list(hand.score_before)}, bags "
                f"{list(hand.bags_before)}; the game is at hand {self.hand_index}, score "
                f"{list(self.score)}, bags {list(self.bags)}"
            )
        result = hand.result
        self.results.append(result)
        self.score, self.bags = result.score, result.bag_total
        self.hand_index += 1
        self.dealer_index = (self.dealer_index + 1) % self.rules.seat_count
        bids = [bid for bid in hand.bids if bid is not None]
        self.winner = game_winner(
            self.rules,
            self.score,
            hands_played=self.hand_index,
            thirteen_side=thirteen_winner(self.rules, bids, result.tricks),
        )
        return self.winner


# --- replaying logs --------------------------------------------------------------------------


def replay_hand(
    rules: RuleSet,
    log: HandLog,
    score_before: Sequence[int] | None = None,
    bags_before: Sequence[int] | None = None,
    hand_index: int | None = None,
) -> tuple[HandResult, tuple[Trick, ...]]:
    """Replay a logged hand through the referee and check what the log records.

    ``score_before``, ``bags_before`` and ``hand_index`` are the values carried
    from earlier hands; when given, the log's own fields (if present) must
    equal them; when None, the log's fields are used (default 0).

    Returns
    -------
    (HandResult, tuple of Trick)
        The referee's result and tricks.

    Raises
    ------
    IllegalMove
        An action the rules do not allow.
    LogError
        An unfinished hand, or a recorded field (``tricks``, ``result``,
        ``score_before``, ...) that differs from the referee's; the message
        names the field and both values.
    """
    hand = _replay(rules, log, score_before, bags_before, hand_index)
    return hand.result, tuple(hand.tricks)


def _replay(
    rules: RuleSet,
    log: HandLog,
    score_before: Sequence[int] | None,
    bags_before: Sequence[int] | None,
    hand_index: int | None,
) -> Hand:
    carried_score = None if score_before is None else tuple(score_before)
    carried_bags = None if bags_before is None else tuple(bags_before)
    hand = Hand(
        rules,
        log.dealer,
        log.hands,
        _carried("score_before", log.score_before, carried_score, _zeros(rules)),
        _carried("bags_before", log.bags_before, carried_bags, _zeros(rules)),
        _carried("hand", log.hand, hand_index, 0),
        log.discards,
    )
    for text in log.actions:
        hand.apply(parse_action(text))
    if hand.phase != Phase.SCORE:
        step = hand.waiting_for()
        if hand.phase == Phase.PLAY:
            step += f" to trick {hand.trick_number}"
        raise LogError(f"actions: the hand is unfinished after {len(log.actions)} actions ({step})")
    _check_recorded(hand, log)
    return hand


def _carried(name: str, logged: _T | None, carried: _T | None, default: _T) -> _T:
    """The value a hand starts from: the one carried from earlier hands, which the log must agree with."""
    if carried is None:
        return default if logged is None else logged
    if logged is not None and logged != carried:
        raise LogError(f"{name}: log says {_shown(logged)}, referee carries {_shown(carried)}")
    return carried


def _shown(value: object) -> str:
    return json.dumps(list(value) if isinstance(value, tuple) else value)


def _check_recorded(hand: Hand, log: HandLog) -> None:
    if log.tricks is not None:
        if len(log.tricks) != len(hand.tricks):
            raise LogError(f"tricks: log has {len(log.tricks)} tricks, referee computes {len(hand.tricks)}")
        for index, (logged, computed) in enumerate(zip(log.tricks, hand.tricks, strict=True)):
            logged_json, computed_json = trick_to_json(logged), trick_to_json(computed)
            for key in logged_json:
                if logged_json[key] != computed_json[key]:
                    raise LogError(
                        f"tricks[{index}].{key}: log says {_shown(logged_json[key])}, "
                        f"referee computes {_shown(computed_json[key])}"
                    )
    if log.result is not None:
        for name in RESULT_FIELDS:
            logged_value, computed_value = getattr(log.result, name), getattr(hand.result, name)
            if logged_value != computed_value:
                raise LogError(
                    f"result.{name}: log says {_shown(logged_value)}, "
                    f"referee computes {_shown(computed_value)}"
                )


@dataclass(frozen=True)
class ScoredHand:
    """One hand of a log file as the referee scored it."""

    line_number: int
    """The line of the file, from 1."""
    game: int | None
    """The game id of the line, or None for a standalone hand."""
    hand: int
    """The hand's index in its game."""
    dealer: int
    """The dealer's seat."""
    bids: tuple[BidValue, ...]
    """Each seat's bid: tricks (0 is nil) or ``"bn"`` for blind nil."""
    result: HandResult
    """The referee's result."""
    game_winner: int | None
    """The side that won the game with this hand, or None."""


@dataclass
class _GameTrack:
    """The game that score_file is in the middle of."""

    game_id: int | None
    rules_text: str
    game: Game
    closed_note: str | None = None  # why no further hand may follow, once it may not


def scored_frame(scored: list[ScoredHand]) -> pd.DataFrame:
    """The hands :func:`score_file` scored as a table: ``line``, ``game``, ``hand``,
    ``dealer``, per seat ``bid_k`` (``nil``, ``blind nil`` or the number) and ``tricks_k``, per side
    ``points_k``, ``score_k`` and ``bags_k`` (the bag total after the hand), and
    ``game_winner`` (empty while the game goes on)."""
    import pandas as pd

    rows = []
    for hand in scored:
        row: dict[str, object] = {"line": hand.line_number, "game": hand.game,
                                  "hand": hand.hand, "dealer": hand.dealer}
        row.update({f"bid_{k}": _bid_name(bid) for k, bid in enumerate(hand.bids)})
        row.update({f"tricks_{k}": t for k, t in enumerate(hand.result.tricks)})
        for name, values in (("points", hand.result.points), ("score", hand.result.score),
                             ("bags", hand.result.bag_total)):
            row.update({f"{name}_{k}": v for k, v in enumerate(values)})
        row["game_winner"] = hand.game_winner
        rows.append(row)
    frame = pd.DataFrame(rows)
    for column in ("game", "game_winner"):
        if column in frame:
            frame[column] = frame[column].astype("Int64")
    return frame


def score_file(path: str | Path, rules: RuleSet | None = None) -> list[ScoredHand]:
    """Replay every hand of a hand-log file and check every recorded field.

    Consecutive lines with the same non-null ``game`` are one game: score and
    bags carry over, ``hand`` counts up by one, the deal passes clockwise, and
    no hand may follow the end of the game. A line without ``game`` is a
    standalone hand from its own ``score_before``/``bags_before`` (default 0).

    Parameters
    ----------
    path : str or Path
        The JSONL hand-log file.
    rules : RuleSet, optional
        Rules for every line; by default each line's ``rules`` field, resolved
        with :func:`spades_sim.referee.handlog.log_rules` (a file relative to the log's folder).

    Raises
    ------
    LogError
        On the first problem, with the message prefixed ``line N:``.
    """
    scored: list[ScoredHand] = []
    track: _GameTrack | None = None
    games_seen: dict[int, int] = {}  # game id -> the line that started it
    rules_cache: dict[str, RuleSet] = {}
    for line_number, log in read_log(path):
        try:
            continuing = track is not None and log.game is not None and track.game_id == log.game
            if not continuing:
                if log.game is not None and log.game in games_seen:
                    raise LogError(
                        f"game={log.game}: already played from line {games_seen[log.game]}: "
                        "the hands of a game must be consecutive lines"
                    )
                if log.game is not None:
                    games_seen[log.game] = line_number
                if rules is None and log.rules not in rules_cache:
                    rules_cache[log.rules] = log_rules(log.rules, path)
                game_rules = rules or rules_cache[log.rules]
                game = Game(
                    game_rules,
                    log.dealer,
                    # Checked here so that a message names the log's field.
                    _check_sides(game_rules, "score_before", log.score_before, minimum=None),
                    _check_sides(game_rules, "bags_before", log.bags_before, minimum=0),
                    log.hand or 0,
                )
                track = _GameTrack(log.game, log.rules, game)
            assert track is not None
            _check_continuation(track, log, rules is None)
            hand = _replay(track.game.rules, log, track.game.score, track.game.bags, track.game.hand_index)
            winner = track.game.record(hand)
            _check_game_over(track, log, line_number)
        except LogError as error:
            raise error.at_line(line_number) from None
        except ValueError as error:  # IllegalMove, RulesError, CardError, deal errors
            raise LogError(str(error), line_number) from None
        scored.append(
            ScoredHand(
                line_number=line_number,
                game=log.game,
                hand=hand.hand_index,
                dealer=hand.dealer_index,
                bids=tuple(bid for bid in hand.bids if bid is not None),
                result=hand.result,
                game_winner=winner,
            )
        )
    return scored


def _check_continuation(track: _GameTrack, log: HandLog, check_rules: bool) -> None:
    if track.closed_note is not None:
        raise LogError(f"game {track.game_id}: a hand after the game is over ({track.closed_note})")
    if check_rules and log.rules != track.rules_text:
        raise LogError(
            f"rules={log.rules!r}: allowed {track.rules_text!r}, the rules of the game's earlier hands"
        )
    track.game.verify_next(log.dealer)


def _check_game_over(track: _GameTrack, log: HandLog, line_number: int) -> None:
    winner = track.game.winner
    if log.game_over is not None:
        if log.game_over["winner"] != winner:
            computed = (
                json.dumps({"winner": winner})
                if winner is not None
                else f"the game goes on at {list(track.game.score)}"
            )
            raise LogError(f"game_over: log says {json.dumps(log.game_over)}, referee computes {computed}")
        track.closed_note = f"game_over at line {line_number}"
    elif winner is not None:
        track.closed_note = f"side {winner} won at line {line_number}"

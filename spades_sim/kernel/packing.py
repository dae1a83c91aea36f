"""Pack a RuleSet into the plain numbers and tables the kernel reads.

A rule set becomes kernel input only here, as the seats' strategies do only in
:func:`spades_sim.kernel.strategies.pack_strategies` (docs/architecture.md, "Kernel conventions").

The kernel works in *slots*: bit positions of a ``uint64`` hand mask laid out so
that each effective suit occupies a contiguous run of bits in trick-power
order, with the trump suit highest. Then "does card a beat card b" and "lowest
card that wins" are plain bit operations, whatever the deck. For the standard
deck a slot is the card id itself.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..cards import BIG_JOKER, CLUBS, DIAMONDS, HEARTS, LITTLE_JOKER, SPADES, card_id
from ..rules import (
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
    ZeroBid,
)
from .basic_policies import BLIND_AFTER_FIRST_HAND, BLIND_ANYTIME, BLIND_OFF, BLIND_WHEN_BEHIND
from .bidding import FORCED_MIRROR, FORCED_NONE, FORCED_SUICIDE, FORCED_WHIZ
from .play import LEAD_LOWEST_CLUB, LEAD_NO_TRUMP, LEAD_ORDINARY
from .scoring import (
    SCORING_BAG_LIMIT,
    SCORING_BAG_PENALTY,
    SCORING_BLIND_MULTIPLIER,
    SCORING_BLIND_VALUE,
    SCORING_FAILED_PER_BID,
    SCORING_FIELDS,
    SCORING_NIL_FOR_PARTNER,
    SCORING_NIL_VALUE,
    SCORING_OVERTRICK,
    SCORING_TEN_FOR_200,
    SCORING_THIRTEEN,
    SCORING_ZERO_BID,
)

_BLIND_CODES = {
    BlindNil.OFF: BLIND_OFF,
    BlindNil.ANYTIME: BLIND_ANYTIME,
    BlindNil.AFTER_FIRST_HAND: BLIND_AFTER_FIRST_HAND,
    BlindNil.WHEN_BEHIND: BLIND_WHEN_BEHIND,
}


_FIRST_LEAD_MODE = {
    FirstLead.DEALER_LEFT_NO_SPADE: LEAD_NO_TRUMP,
    FirstLead.TWO_OF_CLUBS: LEAD_LOWEST_CLUB,  # the seat is found from the deal
    FirstLead.DEALER_RIGHT: LEAD_ORDINARY,
}
_JOKER_DEUCES_REMOVED = {
    JokerDeuces.CLUBS_DIAMONDS: (CLUBS, DIAMONDS), JokerDeuces.CLUBS_HEARTS: (CLUBS, HEARTS),
    JokerDeuces.ALL: (CLUBS, DIAMONDS, HEARTS, SPADES), JokerDeuces.NONE: (),
}
_FORCED = {ForcedMode.NONE: FORCED_NONE, ForcedMode.SUICIDE: FORCED_SUICIDE,
           ForcedMode.MIRROR: FORCED_MIRROR, ForcedMode.WHIZ: FORCED_WHIZ}
_BID_THIRTEEN = {BidThirteen.OFF: 0, BidThirteen.WINS_GAME: 0, BidThirteen.SCORES_500: 500,
                 BidThirteen.SCORES_200: 200}
# The basic bid is a four-player trick estimate times this. A card wins more often at a smaller
# table: 4 / seats at three and five seats. Two players would take 2, but the draw keeps strong
# cards, so drawn hands already estimate high: 1 brings their two bids to about 12 of the 13
# tricks, as 4 / seats does elsewhere (tests/test_modes.py checks the bid totals).
_TRICK_SCALE = {Mode.PARTNERSHIP: 1.0, Mode.SOLO: 1.0, Mode.TWO_PLAYER: 1.0,
                Mode.THREE_PLAYER: 4 / 3, Mode.FIVE_PLAYER: 4 / 5}
NO_ELIMINATION = -(2**62)
"""The elimination score when elimination is off: no side ever falls that low."""


def deck_suits(rules: RuleSet) -> tuple[tuple[int, ...], ...]:
    """Card ids of each effective suit (clubs, diamonds, hearts, trumps), lowest power first.

    This is docs/scoring.md's deck table as data; the kernel's slot layout follows it.

    >>> from spades_sim.cards import format_cards
    >>> format_cards(deck_suits(RuleSet(deck="joker-joker-deuce-deuce"))[3][-5:])
    'AS 2S 2D LJ BJ'
    """
    removed: set[int] = set()
    promoted: list[int] = []  # deuces that become top trumps, lowest power first
    jokers: list[int] = []
    if rules.mode == Mode.THREE_PLAYER and rules.deck != Deck.JOKERS:
        removed = {card_id(CLUBS, 0)}  # 51 cards, 17 each
    if rules.deck == Deck.JOKERS:
        removed = {card_id(suit, 0) for suit in _JOKER_DEUCES_REMOVED[rules.joker_deuces]}
        jokers = [LITTLE_JOKER, BIG_JOKER]
    elif rules.deck == Deck.JOKER_JOKER_DEUCE_DEUCE:
        removed = {card_id(HEARTS, 0), card_id(CLUBS, 0)}
        promoted = [card_id(SPADES, 0), card_id(DIAMONDS, 0)]
        jokers = [LITTLE_JOKER, BIG_JOKER]
    elif rules.deck == Deck.JOKER_JOKER_DEUCE_ACE:
        removed = {card_id(HEARTS, 0), card_id(DIAMONDS, 0)}
        promoted = [card_id(SPADES, 0)]
        jokers = [LITTLE_JOKER, BIG_JOKER]
    elif rules.deck == Deck.DEUCE_HIGH:
        promoted = [card_id(SPADES, 0)]
    suits = []
    for suit in range(4):
        plain = [card_id(suit, rank) for rank in range(13)
                 if card_id(suit, rank) not in removed and card_id(suit, rank) not in promoted]
        suits.append(tuple(plain + (promoted + jokers if suit == SPADES else [])))
    return tuple(suits)


class PackedRules(NamedTuple):
    """A rule set as the kernel reads it (numba accepts a NamedTuple argument)."""

    seat_count: int
    side_count: int
    """2 in partnership; in the individual modes one side per seat (side = seat % side_count)."""
    partner: np.ndarray
    """ndarray(int64, ndim=1), one per seat: the partner's seat, -1 when playing alone."""
    hand_size: int
    draw_deal: bool
    """Two-player keep-or-discard draw instead of a deal."""
    draw_second_seen: bool
    """In the draw, a player who keeps the first card sees the second."""
    blind_pass: int
    """Cards exchanged each way between partners after a blind nil."""
    nil_pass: int
    """Cards exchanged each way between partners after a plain nil (none when both bid nil)."""
    trick_scale: float
    """What a seat's four-player trick estimate is multiplied by at this table."""
    deck_slots: np.ndarray
    """ndarray(int64, ndim=1): the slots of the cards in play, in deck order."""
    slot_card: np.ndarray
    """ndarray(int64, ndim=1), 64 long: card id of each slot, -1 where unused."""
    suit_masks: np.ndarray
    """ndarray(uint64, ndim=1), 4 long: slots of each effective suit."""
    suit_low: np.ndarray
    """ndarray(int64, ndim=1), 4 long: lowest slot of each effective suit (rank = slot - suit_low)."""
    slot_suit: np.ndarray
    """ndarray(int64, ndim=1), 64 long: effective suit of each slot, -1 where unused."""
    trump_suit: int
    min_bid: int
    max_bid: int
    scoring: np.ndarray
    """ndarray(int64, ndim=1), ``SCORING_FIELDS`` long: the scoring rules, one number a slot
    (``scoring.SCORING_*``), as the hand's scoring and the double-dummy search both read them."""
    blind_mode: int
    blind_threshold: int
    target: int
    first_bid_offset: int
    """Seats after the dealer of the first bidder: 1 (dealer's left), n - 1 (dealer's right), or
    in two-player 1 (non-dealer) or 0 (dealer)."""
    first_lead_offset: int
    first_lead_mode: int
    """LEAD_NO_TRUMP, LEAD_LOWEST_CLUB (the holder of the deck's lowest club leads it) or LEAD_ORDINARY."""
    lead_any_time: bool
    """Trumps may be led before they are broken."""
    trumps_break: bool
    """A trump played on another suit's lead breaks trumps (false: ``never_broken``)."""
    forbid_double_nil: bool
    forced_mode: int
    """FORCED_NONE, FORCED_SUICIDE, FORCED_MIRROR or FORCED_WHIZ."""
    side_min_bid: int
    side_max_bid: int
    """The most a side's two bids may add up to; twice the hand size when off."""
    sum_not_hand_size: bool
    """The last bidder may not make the bids add up to the hand size."""
    thirteen_wins: bool
    elimination: int
    hand_limit: int
    """0 when off."""
    ace_mask: np.uint64
    """Slots of the printed aces (a hand feature)."""
    king_mask: np.uint64
    blind_bid_threshold: int
    """How far a side must trail to bid a number of tricks blind; -1 when blind bids are off."""
    blind_bid_min: int
    """The lowest blind bid."""
    sets_to_lose: int
    """A side set this many times in a game loses it; 0 when off."""


class PackedStrategies(NamedTuple):
    """The strategy of every seat as the kernel reads it: policy ids, parameter vectors and the
    expert bidder's calibration tables for this table (the fields of
    :class:`~spades_sim.kernel.expert_bid.BidTables`, flattened into this one tuple). Every
    array is C-contiguous: numba compiles the kernel once per array layout it is handed.

    Made only by :func:`spades_sim.kernel.strategies.pack_strategies`; defined here beside
    :class:`PackedRules` so that the drivers check both without importing the strategies."""

    bid_policy: np.ndarray
    """ndarray(int64, ndim=1): bidding policy id per seat."""
    play_policy: np.ndarray
    """ndarray(int64, ndim=1): card-play policy id per seat."""
    params: np.ndarray
    """ndarray(float64, ndim=2): parameter vector per seat."""
    strength_w: np.ndarray
    nil_w: np.ndarray
    own: np.ndarray
    joint: np.ndarray
    cover: np.ndarray
    nil: np.ndarray
    blind: np.ndarray
    game: np.ndarray
    bag_steps: np.ndarray
    win: np.ndarray
    choice_set: np.ndarray
    """ndarray(int64, ndim=1): per seat, its row of the precomputed choices below."""
    own_bid: np.ndarray
    own_value: np.ndarray
    joint_bid: np.ndarray
    joint_value: np.ndarray
    cover_points: np.ndarray


def pack_scoring(rules: RuleSet) -> np.ndarray:
    """The scoring rules of a validated :class:`RuleSet` as ``PackedRules.scoring``.

    >>> pack_scoring(RuleSet(nil_value=50)).tolist()
    [0, 50, 200, 10, 0, 0, 1, 10, 100, 0, 2]
    """
    scoring = np.zeros(SCORING_FIELDS, dtype=np.int64)
    scoring[SCORING_NIL_FOR_PARTNER] = rules.nil_tricks == NilTricks.COUNT_FOR_PARTNER
    scoring[SCORING_NIL_VALUE] = rules.nil_value
    scoring[SCORING_BLIND_VALUE] = rules.blind_nil_value
    scoring[SCORING_FAILED_PER_BID] = (
        10 if rules.failed_contract == FailedContract.MINUS_TEN_PER_BID else 0)
    scoring[SCORING_TEN_FOR_200] = rules.ten_for_two_hundred
    scoring[SCORING_THIRTEEN] = _BID_THIRTEEN[rules.bid_thirteen]
    scoring[SCORING_OVERTRICK] = rules.overtrick_points
    scoring[SCORING_BAG_LIMIT] = rules.bag_limit
    scoring[SCORING_BAG_PENALTY] = rules.bag_penalty
    scoring[SCORING_ZERO_BID] = rules.zero_bid == ZeroBid.ZERO
    scoring[SCORING_BLIND_MULTIPLIER] = rules.blind_bid_multiplier
    return scoring


def pack_rules(rules: RuleSet) -> PackedRules:
    """Pack a validated :class:`RuleSet` for the kernel.

    >>> packed = pack_rules(RuleSet())
    >>> packed.hand_size, int(packed.suit_masks[3]) >> 39
    (13, 8191)
    """
    suits = deck_suits(rules)
    slot_card = np.full(64, -1, dtype=np.int64)
    slot_suit = np.full(64, -1, dtype=np.int64)
    suit_masks = np.zeros(4, dtype=np.uint64)
    suit_low = np.zeros(4, dtype=np.int64)
    ace_mask = king_mask = 0
    slot = 0
    for suit, cards in enumerate(suits):
        suit_low[suit] = slot
        for card in cards:
            slot_card[slot] = card
            slot_suit[slot] = suit
            suit_masks[suit] |= np.uint64(1 << slot)
            if card < 52 and card % 13 == 12:
                ace_mask |= 1 << slot
            if card < 52 and card % 13 == 11:
                king_mask |= 1 << slot
            slot += 1
    n = rules.seat_count
    if rules.mode == Mode.TWO_PLAYER:
        first_offset = 1 if rules.two_player_first == TwoPlayerFirst.NON_DEALER else 0
        bid_offset = lead_offset = first_offset
    else:
        bid_offset = 1 if rules.first_bidder == FirstBidder.DEALER_LEFT else n - 1
        lead_offset = n - 1 if rules.first_lead == FirstLead.DEALER_RIGHT else 1
    partner = [(seat + 2) % n if rules.partnership else -1 for seat in range(n)]
    return PackedRules(
        seat_count=n,
        side_count=rules.side_count,
        partner=np.array(partner, dtype=np.int64),
        hand_size=rules.hand_size,
        draw_deal=rules.mode == Mode.TWO_PLAYER,
        draw_second_seen=rules.draw_second_card_seen,
        blind_pass=rules.blind_nil_pass,
        nil_pass=rules.nil_pass,
        trick_scale=_TRICK_SCALE[rules.mode],
        deck_slots=np.arange(slot, dtype=np.int64),
        slot_card=slot_card,
        suit_masks=suit_masks,
        suit_low=suit_low,
        slot_suit=slot_suit,
        trump_suit=SPADES,
        min_bid=rules.min_bid,
        max_bid=rules.hand_size,
        scoring=pack_scoring(rules),
        blind_mode=_BLIND_CODES[rules.blind_nil],
        blind_threshold=rules.blind_nil_threshold,
        target=rules.target,
        first_bid_offset=bid_offset,
        first_lead_offset=lead_offset,
        first_lead_mode=_FIRST_LEAD_MODE[rules.first_lead],
        lead_any_time=rules.spades_lead == SpadesLead.ANY_TIME,
        trumps_break=rules.spades_lead != SpadesLead.NEVER_BROKEN,
        forbid_double_nil=rules.both_partners_nil == BothPartnersNil.FORBIDDEN,
        forced_mode=_FORCED[rules.forced_mode],
        side_min_bid=rules.side_min_bid,
        side_max_bid=2 * rules.hand_size if rules.side_max_bid is None else rules.side_max_bid,
        sum_not_hand_size=rules.sum_of_bids_not_hand_size,
        thirteen_wins=rules.bid_thirteen == BidThirteen.WINS_GAME,
        elimination=NO_ELIMINATION if rules.elimination is None else rules.elimination,
        hand_limit=0 if rules.hand_limit is None else rules.hand_limit,
        ace_mask=np.uint64(ace_mask),
        king_mask=np.uint64(king_mask),
        blind_bid_threshold=-1 if rules.blind_bid_threshold is None else rules.blind_bid_threshold,
        blind_bid_min=rules.blind_bid_min,
        sets_to_lose=rules.sets_to_lose,
    )

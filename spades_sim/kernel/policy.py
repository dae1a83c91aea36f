"""Fixed policies: how a seat bids and which card it plays.

A strategy is two policy ids (bidding, card play) and a parameter vector, so
tuning a parameter never recompiles. The policy ids and the parameter slots
live here, beside the code that reads them. jit-compiled; inputs not checked.

Policies
--------
``POLICY_RANDOM``
    Uniform over the legal bids (never blind nil) and over the legal cards.
``POLICY_BASIC``
    Bids a trick estimate (high cards, spade length, short suits) plus an
    offset; bids nil when the hand's nil risk is at most a threshold; goes blind
    nil when allowed and far enough behind; adds to its bid over a partner's nil.
    Plays to make the contract with the cheapest winning card, ducks once the
    contract is made, covers a partner's nil and plays low under an opponent's nil.
    In the two-player draw it keeps a trump or a side ace, king or queen and
    otherwise takes the next card; in a blind-nil exchange the partner passes its
    lowest cards and the blind-nil bidder passes back its highest.

The trick estimate is made for four seats and multiplied by the table's
``trick_scale`` (``spades_sim.packing``): 4/3 at three seats, 4/5 at five.
"""

import numpy as np
from numba import njit

from .bits import _highest_bit, _lowest_bit, _nth_bit, _popcount
from .rng import _below, _next
from .trick import _beats_mask, _seat_after

POLICY_RANDOM = 0
POLICY_BASIC = 1

# Slots of a strategy's parameter vector (names and ranges: spades_sim.strategies).
P_BID_OFFSET = 0
P_NIL_THRESHOLD = 1
P_BLIND_DEFICIT = 2
P_COVER_BONUS = 3
P_BLIND_NEAR = 4
P_SOLO_NIL_THRESHOLD = 5
PARAM_COUNT = 6

# Blind-nil eligibility codes (``PackedRules.blind_mode``).
BLIND_OFF, BLIND_ANYTIME, BLIND_AFTER_FIRST_HAND, BLIND_WHEN_BEHIND = 0, 1, 2, 3


@njit(cache=True, inline='always')
def _blind_nil_allowed(blind_mode, blind_threshold, own_score, other_score, hand_index):
    """Whether a seat may bid blind nil at the start of this hand."""
    if blind_mode == BLIND_ANYTIME:
        return True
    if blind_mode == BLIND_AFTER_FIRST_HAND:
        return hand_index > 0
    if blind_mode == BLIND_WHEN_BEHIND:
        return other_score - own_score >= blind_threshold
    return False


@njit(cache=True, inline='always')
def _suit_size(suit_masks, suit):
    return _popcount(suit_masks[suit])


@njit(cache=True, inline='always')
def _holds_rank_from_top(hand, suit_masks, suit_low, suit, k):
    """Whether ``hand`` holds the k-th highest card of ``suit`` (k = 0: the ace)."""
    slot = suit_low[suit] + _suit_size(suit_masks, suit) - 1 - k
    return (hand >> np.uint64(slot)) & np.uint64(1) == np.uint64(1)


@njit(cache=True, inline='always')
def _estimate_tricks(hand, suit_masks, suit_low, trump_suit):
    """Expected tricks of a hand: trump honours and length, side aces and kings, short suits."""
    trump_count = _popcount(hand & suit_masks[trump_suit])
    estimate = 0.0
    honours = 0
    for k in range(3):  # A, K, Q of trumps: sure tricks when guarded by k smaller trumps
        if _holds_rank_from_top(hand, suit_masks, suit_low, trump_suit, k):
            honours += 1
            estimate += 1.0 if trump_count > k else 0.5
    estimate += min(max(trump_count - 3, 0), trump_count - honours)
    for suit in range(4):
        if suit == trump_suit:
            continue
        length = _popcount(hand & suit_masks[suit])
        if length == 0:
            if trump_count >= 3:
                estimate += 0.6
            continue
        if _holds_rank_from_top(hand, suit_masks, suit_low, suit, 0):
            estimate += 1.0 if length <= 6 else 0.5
        elif length == 1 and trump_count >= 3:
            estimate += 0.3
        if _holds_rank_from_top(hand, suit_masks, suit_low, suit, 1) and 2 <= length <= 5:
            estimate += 0.8
        if _holds_rank_from_top(hand, suit_masks, suit_low, suit, 2) and 3 <= length <= 4:
            estimate += 0.4
    return estimate


@njit(cache=True, inline='always')
def _nil_risk(hand, suit_masks, suit_low, trump_suit):
    """How likely a hand is to take a trick: high trumps, trump length, unguarded side honours."""
    trump_count = _popcount(hand & suit_masks[trump_suit])
    risk = 0.3 * max(trump_count - 3, 0)
    trump_weights = (1.0, 1.0, 1.0, 0.6, 0.35)  # A K Q J 10 of trumps
    for k in range(5):
        if _holds_rank_from_top(hand, suit_masks, suit_low, trump_suit, k):
            risk += trump_weights[k]
    for suit in range(4):
        if suit == trump_suit:
            continue
        length = _popcount(hand & suit_masks[suit])
        if _holds_rank_from_top(hand, suit_masks, suit_low, suit, 0):
            risk += 0.9
        if _holds_rank_from_top(hand, suit_masks, suit_low, suit, 1):
            risk += 0.8 if length <= 2 else 0.5
        if _holds_rank_from_top(hand, suit_masks, suit_low, suit, 2) and length <= 2:
            risk += 0.25
    return risk


@njit(cache=True, inline='always')
def _wants_blind_nil(policy, params, partner_bid, deficit, other_score, target):
    """Decide blind nil before seeing the cards (only called when it is allowed).

    The basic policy goes blind only as a last resort: far behind, with the
    opponents close to the target, and the partner not already nil.
    """
    if policy != POLICY_BASIC:
        return False
    return (partner_bid != 0 and deficit >= params[P_BLIND_DEFICIT]
            and other_score >= target - params[P_BLIND_NEAR])


@njit(cache=True, inline='always')
def _nearest_allowed(bid, allowed, max_bid):
    """The allowed count bid (>= 1) nearest to ``bid``, the higher one on a tie; -1 if none."""
    for distance in range(max_bid + 1):
        for candidate in (bid + distance, bid - distance):
            if 1 <= candidate <= max_bid and (allowed >> candidate) & 1:
                return candidate
    return -1


@njit(cache=True, inline='always')
def _choose_bid(policy, params, hand, partner, partner_bid, allowed, max_bid, trick_scale,
                suit_masks, suit_low, trump_suit, rng_state):
    """Return (bid, rng_state); ``partner_bid`` is -1 while the partner has not bid, or
    when there is no partner (``partner`` = -1).

    ``allowed`` has bit b set when bid b (0 = nil) is allowed now: the bidding rules
    are applied by the engine, the policy only picks among what they leave.
    """
    if policy == POLICY_RANDOM:
        rng_state, bits = _next(rng_state)
        return _nth_bit(np.uint64(allowed), _below(bits, _popcount(np.uint64(allowed)))), rng_state
    # Alone, nobody covers a nil and every opponent attacks it: a separate, stricter threshold.
    nil_threshold = params[P_NIL_THRESHOLD] if partner >= 0 else params[P_SOLO_NIL_THRESHOLD]
    if (allowed & 1 and partner_bid != 0
            and _nil_risk(hand, suit_masks, suit_low, trump_suit) <= nil_threshold):
        return 0, rng_state
    estimate = (_estimate_tricks(hand, suit_masks, suit_low, trump_suit) * trick_scale
                + params[P_BID_OFFSET])
    if partner_bid == 0:
        estimate += params[P_COVER_BONUS]
    bid = int(np.floor(estimate + 0.5))
    if partner_bid > 0:
        bid = min(bid, max_bid - partner_bid)
    bid = _nearest_allowed(min(max(bid, 1), max_bid), allowed, max_bid)
    return (bid if bid >= 0 else 0), rng_state  # only nil is left when no count bid is allowed


@njit(cache=True, inline='always')
def _keep_first(policy, slot, slot_suit, suit_masks, suit_low, trump_suit, rng_state):
    """Two-player draw: return (keep, rng_state), whether to keep the drawn card ``slot``.

    Otherwise it is discarded and the next card must be kept.
    """
    if policy == POLICY_RANDOM:
        rng_state, bits = _next(rng_state)
        return (bits & np.uint64(1)) == np.uint64(1), rng_state
    suit = slot_suit[slot]
    from_top = suit_low[suit] + _suit_size(suit_masks, suit) - 1 - slot
    return suit == trump_suit or from_top < 3, rng_state


@njit(cache=True, inline='always')
def _pass_card(policy, hand, to_blind_nil, suit_masks, suit_low, trump_suit, rng_state):
    """Return (slot, rng_state): the card a seat passes in the blind-nil exchange.

    ``to_blind_nil``: the partner passes to the blind-nil bidder (else it is the way back).
    """
    if policy == POLICY_RANDOM:
        rng_state, bits = _next(rng_state)
        return _nth_bit(hand, _below(bits, _popcount(hand))), rng_state
    if to_blind_nil:
        return _lowest_rank(hand, suit_masks, suit_low, trump_suit), rng_state
    return _highest_rank(hand, suit_masks, suit_low, trump_suit), rng_state


@njit(cache=True, inline='always')
def _lowest_rank(mask, suit_masks, suit_low, trump_suit):
    """The lowest-ranked card of ``mask``, a non-trump when ranks tie."""
    best = -1
    best_rank = 99
    for suit in range(4):
        in_suit = mask & suit_masks[suit]
        if in_suit == 0:
            continue
        slot = _lowest_bit(in_suit)
        rank = slot - suit_low[suit]
        if rank < best_rank or (rank == best_rank and best >= suit_low[trump_suit]):
            best, best_rank = slot, rank
    return best


@njit(cache=True, inline='always')
def _highest_rank(mask, suit_masks, suit_low, trump_suit):
    """The highest-ranked card of ``mask``, a trump when ranks tie."""
    best = -1
    best_rank = -1
    for suit in range(4):
        in_suit = mask & suit_masks[suit]
        if in_suit == 0:
            continue
        slot = _highest_bit(in_suit)
        rank = slot - suit_low[suit]
        if rank > best_rank or (rank == best_rank and suit == trump_suit):
            best, best_rank = slot, rank
    return best


@njit(cache=True, inline='always')
def _lead_basic(legal, hand, gone, need, suit_masks, suit_low, trump_suit):
    """Lead a boss card while the contract needs tricks, else the lowest card."""
    if need > 0:
        for suit in range(4):
            mine = legal & suit_masks[suit]
            if mine == 0:
                continue
            top = _highest_bit(mine)
            outstanding = suit_masks[suit] & ~gone & ~hand
            if outstanding == 0 or top > _highest_bit(outstanding):
                if suit != trump_suit or legal == mine or outstanding & suit_masks[trump_suit] != 0:
                    return top
    return _lowest_rank(legal, suit_masks, suit_low, trump_suit)


@njit(cache=True, inline='always')
def _duck(legal, beats, suit_masks, suit_low, trump_suit):
    """The highest-ranked card that does not win; if every card wins, the highest."""
    losing = legal & ~beats
    return _highest_rank(losing if losing != 0 else legal, suit_masks, suit_low, trump_suit)


@njit(cache=True, inline='always')
def _choose_card(policy, seat, partner, legal, hand, position, win_slot, win_seat, win_suit,
                 gone, bids, tricks, seat_count,
                 suit_masks, suit_low, trump_suit, rng_state):
    """Return (slot, rng_state): the card ``seat`` plays from the ``legal`` mask.

    ``partner`` is the partner's seat, -1 when playing alone. ``position`` is 0 for
    the leader; then ``win_slot``/``win_seat``/``win_suit`` describe the card now
    winning the trick. ``bids`` and ``tricks`` are per seat (bids -1 until made);
    ``gone`` is the mask of cards the seat knows are out of play: played this hand,
    or seen discarded in the two-player draw.
    """
    if policy == POLICY_RANDOM or _popcount(legal) == 1:
        if policy == POLICY_RANDOM:
            rng_state, bits = _next(rng_state)
            return _nth_bit(legal, _below(bits, _popcount(legal))), rng_state
        return _lowest_bit(legal), rng_state
    my_nil = bids[seat] == 0
    partner_nil_alive = partner >= 0 and bids[partner] == 0 and tricks[partner] == 0
    opp_nil_alive = False
    opp_nil_to_play = False  # a live opposing nil bidder plays after this seat in this trick
    for other in range(1, seat_count):
        opponent = _seat_after(seat, other, seat_count)
        if opponent != partner and bids[opponent] == 0 and tricks[opponent] == 0:
            opp_nil_alive = True
            if position + other < seat_count:
                opp_nil_to_play = True
    need = bids[seat] - tricks[seat] if bids[seat] > 0 else 0
    if partner >= 0 and bids[partner] > 0:
        need += bids[partner] - tricks[partner]
    if position == 0:
        if my_nil or opp_nil_alive:
            return _lowest_rank(legal, suit_masks, suit_low, trump_suit), rng_state
        if partner_nil_alive:
            return _highest_bit(legal), rng_state
        return _lead_basic(legal, hand, gone, need, suit_masks, suit_low, trump_suit), rng_state
    beats = _beats_mask(win_slot, win_suit, suit_masks, trump_suit)
    winners = legal & beats
    if my_nil:
        return _duck(legal, beats, suit_masks, suit_low, trump_suit), rng_state
    if partner_nil_alive:
        if win_seat == partner and winners != 0:
            return _lowest_bit(winners), rng_state  # take the trick off the nil bidder
        if win_seat != partner and position < 2:
            return _highest_bit(legal), rng_state  # play high before the nil bidder has to
    if opp_nil_alive:
        losing = legal & ~beats
        if opp_nil_to_play and losing != 0:
            # Keep the bar low for the nil bidder still to play.
            return _lowest_rank(losing, suit_masks, suit_low, trump_suit), rng_state
        # Leave the nil bidder's card winning.
        return _duck(legal, beats, suit_masks, suit_low, trump_suit), rng_state
    if need > 0:
        # Win as cheaply as possible, unless the partner is already winning it.
        if winners != 0 and win_seat != partner:
            return _lowest_bit(winners), rng_state
        return _lowest_rank(legal, suit_masks, suit_low, trump_suit), rng_state
    return _duck(legal, beats, suit_masks, suit_low, trump_suit), rng_state

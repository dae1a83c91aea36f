"""Bidding: which bids the rules allow, one round of bids, and the nil and blind-nil exchanges.

jit-compiled; inputs not checked.
"""

import numpy as np
from numba import njit

from .bits import _popcount
from .decide import (
    _blind_allowed,
    _blind_bids_allowed,
    _decide_bid,
    _decide_blind,
    _decide_blind_bid,
    _decide_pass,
)
from .scoring import BLIND_COUNT_FLAG, SCORING_ZERO_BID
from .scratch import BLIND_BID, BLIND_COUNT_BID, FREE_BID

# Forced-bid modes (``PackedRules.forced_mode``).
FORCED_NONE, FORCED_SUICIDE, FORCED_MIRROR, FORCED_WHIZ = 0, 1, 2, 3


@njit(cache=True, inline='always')
def _allowed_bids(rules, bids, seat, position, trumps_held):
    """Bit b set when ``seat``, bidding ``position``-th (from 0), may bid b (0 = nil) now.

    A forced mode decides alone; otherwise min_bid, both_partners_nil, side_min_bid,
    side_max_bid and sum_of_bids_not_hand_size together (docs/scoring.md "Bidding
    constraints", "Forced-bid modes").
    """
    n = rules.seat_count
    partner = rules.partner[seat]
    partner_bid = bids[partner] if partner >= 0 else -1
    all_bids = (1 << (rules.max_bid + 1)) - 1
    if rules.forced_mode == FORCED_MIRROR:
        return 1 << trumps_held
    if rules.forced_mode == FORCED_WHIZ:
        return 1 | (1 << trumps_held)
    if rules.forced_mode == FORCED_SUICIDE:
        four_up = all_bids & ~0xF
        if partner_bid < 0:
            return 1 | four_up
        return four_up if partner_bid == 0 else 1
    allowed = all_bids
    if rules.min_bid > 0 or (rules.forbid_double_nil and partner_bid == 0):
        allowed &= ~1
    if partner_bid >= 0 and rules.side_min_bid > 0:
        if partner_bid < rules.side_min_bid:
            allowed &= ~((1 << (rules.side_min_bid - partner_bid)) - 1)  # nil and counts too low
    if partner_bid >= 0 and partner_bid + rules.max_bid > rules.side_max_bid:
        allowed &= (1 << (rules.side_max_bid - partner_bid + 1)) - 1  # counts too high
    if position == n - 1 and rules.sum_not_hand_size:
        others = 0
        for other in range(n):
            if other != seat:
                others += bids[other]
        forbidden = rules.hand_size - others
        if 0 <= forbidden <= rules.max_bid:
            allowed &= ~(1 << forbidden)
    return allowed


@njit(cache=True, _nrt=False)
def _bid_round(rules, strat, dealer, hand_index, s):
    """One round of bids from the first bidder, clockwise; writes ``s.bids``, ``s.blind`` and
    ``s.bidders``."""
    n = rules.seat_count
    for seat in range(n):
        s.bids[seat] = -1
        s.blind[seat] = 0
    for k in range(n):
        seat = (dealer + rules.first_bid_offset + k) % n
        s.bidders[k] = seat
        allowed = _allowed_bids(rules, s.bids, seat, k,
                                _popcount(s.hands[seat] & rules.suit_masks[rules.trump_suit]))
        blind_allowed = _blind_allowed(rules, s, seat, allowed, hand_index)
        forced = s.forced[seat]
        if forced != FREE_BID:
            # A what-if bid (spades_sim.analysis.whatif): made as told, noted when the rules forbid it.
            if forced == BLIND_BID:
                s.bids[seat] = 0
                s.blind[seat] = 1
                ok = blind_allowed
            elif forced > BLIND_COUNT_BID:
                count = forced - BLIND_COUNT_BID
                s.bids[seat] = count
                s.blind[seat] = BLIND_COUNT_FLAG
                ok = (count <= rules.max_bid
                      and ((_blind_bids_allowed(rules, s, seat, allowed) >> count) & 1) == 1)
            else:
                s.bids[seat] = forced
                ok = forced <= rules.max_bid and ((allowed >> forced) & 1) == 1
            if not ok:
                s.forced[n] = 0
            continue
        if blind_allowed and _decide_blind(rules, strat, s, seat, dealer, hand_index):
            s.bids[seat] = 0
            s.blind[seat] = 1
            continue
        # Blind bids (off: no mask) are asked after blind nil, still before the seat looks.
        counts = _blind_bids_allowed(rules, s, seat, allowed)
        count = 0
        if counts != 0:
            count = _decide_blind_bid(rules, strat, s, seat, dealer, k, counts, hand_index)
        if count > 0:
            s.bids[seat] = count
            s.blind[seat] = BLIND_COUNT_FLAG
        else:
            s.bids[seat] = _decide_bid(rules, strat, s, seat, dealer, k, allowed, hand_index)


@njit(cache=True, inline='always')
def _pass_cards(rules, strat, dealer, hand_index, giver, taker, to_blind_nil, count, s):
    """``giver`` passes ``count`` cards of its remaining hand to ``taker``."""
    for _ in range(count):
        slot = _decide_pass(rules, strat, s, giver, dealer, hand_index, to_blind_nil)
        bit = np.uint64(1) << np.uint64(slot)
        s.remaining[giver] &= ~bit
        s.remaining[taker] |= bit
        s.given[giver] |= bit


@njit(cache=True, inline='always')
def _pass_count(rules, s, seat):
    """Cards an exchange passes each way to ``seat``: ``blind_pass`` for a blind nil, ``nil_pass``
    for a plain nil whose partner bid neither nil nor blind nil (0 under ``zero_bid``, where a
    plain 0 is no nil), else 0."""
    if s.bids[seat] != 0:
        return 0
    if s.blind[seat] == 1:
        return rules.blind_pass
    if rules.nil_pass == 0 or rules.scoring[SCORING_ZERO_BID] == 1:
        return 0
    partner = rules.partner[seat]
    if partner < 0 or s.bids[partner] == 0:
        return 0
    return rules.nil_pass


@njit(cache=True, inline='always')
def _exchange(rules, strat, dealer, hand_index, s):
    """Set ``s.remaining`` to the hands play starts with, after any exchange; writes
    ``s.given`` and ``s.givers``.

    Each side exchanges once, in the bidding order (``s.bidders``) of the seat it serves: its
    first blind nil (``blind_pass`` cards) or its plain nil (``nil_pass`` cards, none when both
    partners bid nil): the partner passes, then the nil bidder passes back (docs/scoring.md).
    """
    for seat in range(rules.seat_count):
        s.remaining[seat] = s.hands[seat]
        s.given[seat] = 0
        s.givers[seat] = -1
    # Called only under rules that pass cards: the call copies the packed rules, strategies and
    # scratch onto the stack (some 450 words), about 4% of a standard hand and 8% of a
    # two-player one spent on nothing when nobody passes (docs/performance.md).
    if rules.blind_pass > 0 or rules.nil_pass > 0:
        _exchange_passes(rules, strat, dealer, hand_index, s)


# No reference counting (it allocates nothing): with it, each hand's call counted a reference to
# each of the packed strategies' twenty arrays in and out, 5% of a hand of ``random``.
@njit(cache=True, _nrt=False)
def _exchange_passes(rules, strat, dealer, hand_index, s):
    """The exchanges of :func:`_exchange`, from ``s.remaining`` as dealt: updates it, and
    writes ``s.given`` and ``s.givers``."""
    n = rules.seat_count
    exchanged = 0  # bit per side
    passes = 0
    for k in range(n):
        seat = s.bidders[k]
        side = seat % rules.side_count
        count = _pass_count(rules, s, seat)
        if count > 0 and not (exchanged >> side) & 1:
            exchanged |= 1 << side
            partner = rules.partner[seat]
            # The partner passes to the nil, then the nil passes back: one call site in a loop,
            # so that the decision (every policy's pass) is compiled in once, not twice.
            for back in range(2):
                giver, taker = (seat, partner) if back else (partner, seat)
                _pass_cards(rules, strat, dealer, hand_index, giver, taker, back == 0, count, s)
                s.givers[passes] = giver
                passes += 1

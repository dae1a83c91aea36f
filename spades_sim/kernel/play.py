"""Card play: thirteen tricks (or ``hand_size``) from the hands after the exchange.

jit-compiled; inputs not checked.
"""

import numpy as np
from numba import njit

from .bits import _RUNTIME_ZERO
from .decide import _decide_card, _prepare_play, _Trick
from .trick import _beats, _follow_mask, _lead_mask, _seat_after

# First-lead codes (``PackedRules.first_lead_mode``).
LEAD_NO_TRUMP = 0
"""The first lead may not be a trump unless the leader holds only trumps."""
LEAD_LOWEST_CLUB = 1
"""The holder of the deck's lowest club leads it."""
LEAD_ORDINARY = 2
"""The first lead follows the ordinary leading rule."""


@njit(cache=True, inline='always')
def _first_leader(rules, dealer, remaining):
    """The seat that leads the first trick: the holder of the lowest club, or the seat
    ``first_lead_offset`` after the dealer."""
    n = rules.seat_count
    leader = _seat_after(dealer, rules.first_lead_offset, n)
    if rules.first_lead_mode == LEAD_LOWEST_CLUB:
        lowest_club = np.uint64(1) << np.uint64(rules.suit_low[0])
        for seat in range(n):
            if remaining[seat] & lowest_club:
                leader = seat
    return leader


@njit(cache=True, inline='always')
def _play_tricks(rules, strat, dealer, hand_index, s):
    """Play every trick from ``s.remaining``; writes ``s.first_leader``, ``s.plays``,
    ``s.winners`` and ``s.tricks``."""
    # Arrays are bound to locals once: reading them through the tuples inside the loop
    # costs a reference-count update per access.
    n = rules.seat_count
    trump = rules.trump_suit
    suit_masks, slot_suit = rules.suit_masks, rules.slot_suit
    remaining, tricks = s.remaining, s.tricks
    plays, winners = s.plays, s.winners
    shown_out = s.shown_out
    for seat in range(n):
        tricks[seat] = 0
        shown_out[seat] = 0
        _prepare_play(rules, strat, s, seat, dealer, hand_index)
    played = np.uint64(0)
    broken = False
    lowest_club = np.uint64(1) << np.uint64(rules.suit_low[0])
    leader = _first_leader(rules, dealer, remaining)
    s.first_leader[0] = leader
    for t in range(rules.hand_size):
        led_suit = _RUNTIME_ZERO[0] - 1  # not the literal -1 (see _RUNTIME_ZERO)
        win_slot = led_suit
        win_seat = led_suit
        win_suit = led_suit
        for k in range(n):
            seat = _seat_after(leader, k, n)
            # The hot arrays are indexed unsigned (the seat here, the card and the suit below):
            # for a signed index numba adds a wraparound for a negative one on the way to
            # every load, and none of these is ever negative.
            at = np.uint64(seat)
            hand = remaining[at]
            if k == 0:
                if t == 0 and rules.first_lead_mode == LEAD_LOWEST_CLUB:
                    legal = lowest_club
                else:
                    first_no_trump = t == 0 and rules.first_lead_mode == LEAD_NO_TRUMP
                    free = broken or (rules.lead_any_time and not first_no_trump)
                    legal = _lead_mask(hand, suit_masks, trump, free)
            else:
                legal = _follow_mask(hand, np.uint64(led_suit), suit_masks)
            slot = _decide_card(rules, strat, s, seat, dealer, hand_index, legal,
                                _Trick(k, led_suit, win_slot, win_seat, win_suit, played))
            bit = np.uint64(1) << np.uint64(slot)
            remaining[at] = hand & ~bit
            played |= bit
            plays[t * n + k] = slot
            suit = slot_suit[np.uint64(slot)]
            if k == 0:
                led_suit = suit
                win_slot, win_seat, win_suit = slot, seat, suit
            else:
                if suit != led_suit:
                    shown_out[at] |= 1 << led_suit
                if suit == trump and led_suit != trump and rules.trumps_break:
                    broken = True
                if _beats(slot, win_slot, win_suit, suit_masks, trump):
                    win_slot, win_seat, win_suit = slot, seat, suit
        winners[t] = win_seat
        tricks[np.uint64(win_seat)] += 1
        leader = win_seat

"""One trick: legal cards, who is winning, which cards would win.

Cards are slots (see ``spades_sim.kernel.packing``): each effective suit is a run of
bits in power order and the trump suit is the highest run, so a card beats the
current winner exactly when it is higher *and* either of the winner's suit or a
trump. jit-compiled; inputs not checked.
"""

import numpy as np
from numba import njit

from .bits import _bits_above


@njit(cache=True, inline='always')
def _seat_after(seat, steps, seat_count):
    """The seat ``steps`` places clockwise (0 <= steps < seat_count); no division in the hot loop."""
    seat += steps
    return seat - seat_count if seat >= seat_count else seat


@njit(cache=True, inline='always')
def _lead_mask(hand, suit_masks, trump_suit, broken):
    """Cards a leader may lead: no trump before trumps are broken, unless holding only trumps."""
    if broken:
        return hand
    non_trump = hand & ~suit_masks[trump_suit]
    return non_trump if non_trump != 0 else hand


@njit(cache=True, inline='always')
def _follow_mask(hand, led_suit, suit_masks):
    """Cards a follower may play: the suit led if any, else anything."""
    same = hand & suit_masks[led_suit]
    return same if same != 0 else hand


@njit(cache=True, inline='always')
def _beats_mask(winning_slot, winning_suit, suit_masks, trump_suit):
    """All slots that would beat the card now winning the trick."""
    higher = _bits_above(winning_slot)
    if winning_suit == trump_suit:
        return suit_masks[trump_suit] & higher
    return (suit_masks[winning_suit] & higher) | suit_masks[trump_suit]


@njit(cache=True, inline='always')
def _beats(slot, winning_slot, winning_suit, suit_masks, trump_suit):
    """Whether ``slot`` beats the card now winning the trick (the trick-winner rule)."""
    beats = _beats_mask(winning_slot, winning_suit, suit_masks, trump_suit)
    return (beats >> np.uint64(slot)) & np.uint64(1) != np.uint64(0)

"""Pack a RuleSet and a Strategy into the plain numbers and tables the kernel reads.

This is the one place where Python objects become kernel input (DESIGN.md).
The kernel works in *slots*: bit positions of a ``uint64`` hand mask laid out so
that each effective suit occupies a contiguous run of bits in trick-power
order, with the trump suit highest. Then "does card a beat card b" and "lowest
card that wins" are plain bit operations, whatever the deck. For the standard
deck a slot is the card id itself.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .rules import BlindNil, FailedContract, RuleSet

# Blind-nil eligibility codes read by the kernel.
BLIND_OFF, BLIND_ANYTIME, BLIND_AFTER_FIRST_HAND, BLIND_WHEN_BEHIND = 0, 1, 2, 3
_BLIND_CODES = {
    BlindNil.OFF: BLIND_OFF,
    BlindNil.ANYTIME: BLIND_ANYTIME,
    BlindNil.AFTER_FIRST_HAND: BLIND_AFTER_FIRST_HAND,
    BlindNil.WHEN_BEHIND: BLIND_WHEN_BEHIND,
}


class PackedRules(NamedTuple):
    """A rule set as the kernel reads it (numba accepts a NamedTuple argument)."""

    seat_count: int
    hand_size: int
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
    nil_value: int
    blind_mode: int
    blind_threshold: int
    blind_value: int
    failed_per_bid: int
    """Points lost per contract trick when set: 10, or 0 for the book rule."""
    overtrick_points: int
    bag_limit: int
    bag_penalty: int
    target: int


def pack_rules(rules: RuleSet) -> PackedRules:
    """Pack a validated :class:`RuleSet` for the kernel.

    >>> packed = pack_rules(RuleSet())
    >>> packed.hand_size, int(packed.suit_masks[3]) >> 39
    (13, 8191)
    """
    slot_card = np.full(64, -1, dtype=np.int64)
    slot_card[:52] = np.arange(52)
    slot_suit = np.full(64, -1, dtype=np.int64)
    slot_suit[:52] = np.arange(52) // 13
    suit_masks = np.array([((1 << 13) - 1) << (13 * s) for s in range(4)], dtype=np.uint64)
    return PackedRules(
        seat_count=rules.seat_count,
        hand_size=rules.hand_size,
        deck_slots=np.arange(52, dtype=np.int64),
        slot_card=slot_card,
        suit_masks=suit_masks,
        suit_low=np.array([0, 13, 26, 39], dtype=np.int64),
        slot_suit=slot_suit,
        trump_suit=3,
        min_bid=rules.min_bid,
        max_bid=rules.hand_size,
        nil_value=rules.nil_value,
        blind_mode=_BLIND_CODES[rules.blind_nil],
        blind_threshold=rules.blind_nil_threshold,
        blind_value=rules.blind_nil_value,
        failed_per_bid=10 if rules.failed_contract == FailedContract.MINUS_TEN_PER_BID else 0,
        overtrick_points=rules.overtrick_points,
        bag_limit=rules.bag_limit,
        bag_penalty=rules.bag_penalty,
        target=rules.target,
    )

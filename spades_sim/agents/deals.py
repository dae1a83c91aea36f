"""The kernel's deals at the Python table: hand ``h`` of game ``g`` under seed ``s`` is the
very deal the kernel plays there (its first dealer, its shuffle, its cards).

The kernel's jitted deal functions are called from Python (each call a few microseconds), so
the table shares the kernel's counter-based deals instead of copying them: a hand played at
the table and the same hand simulated see the same cards, and a Python bot is measured on the
kernel's deal sequences. The seeds of the seats' random choices (``Observation.random_key``)
are the keys of the kernel's policy streams.
"""

from __future__ import annotations

import numpy as np

from ..kernel.deal import _deal, _first_dealer, _shuffle
from ..kernel.game import _POLICY_SALT
from ..kernel.packing import PackedRules
from ..kernel.rng import _key3


def first_dealer(seed: int, game: int, seat_count: int) -> int:
    """The seat that deals the first hand of ``game`` (the kernel's)."""
    return int(_first_dealer(np.uint64(seed), np.int64(game), np.int64(seat_count)))


def _deal_key(seed: int, game: int, hand: int) -> np.uint64:
    return np.uint64(_key3(np.uint64(seed), np.int64(game), np.int64(hand)))


def seat_keys(seed: int, game: int, hand: int, seat_count: int) -> tuple[int, ...]:
    """Each seat's random key in hand ``hand`` of ``game`` (the kernel's policy streams)."""
    policy_key = np.uint64(_key3(np.uint64(seed) ^ _POLICY_SALT, np.int64(game), np.int64(hand)))
    return tuple(int(_key3(policy_key, np.int64(seat), np.int64(0))) for seat in range(seat_count))


def _slot_cards(packed: PackedRules, mask: int) -> tuple[int, ...]:
    return tuple(sorted(int(packed.slot_card[slot]) for slot in range(64) if mask >> slot & 1))


def dealt_hands(packed: PackedRules, seed: int, game: int, hand: int) -> tuple[tuple[int, ...], ...]:
    """The cards each seat is dealt in hand ``hand`` of ``game`` (card ids, lowest first)."""
    cards = np.empty(packed.deck_slots.shape[0], dtype=np.int64)
    hands = np.zeros(packed.seat_count, dtype=np.uint64)
    _deal(packed.deck_slots, np.int64(packed.seat_count), np.int64(packed.hand_size),
          _deal_key(seed, game, hand), cards, hands)
    return tuple(_slot_cards(packed, int(mask)) for mask in hands)


def draw_stock(packed: PackedRules, seed: int, game: int, hand: int) -> tuple[int, ...]:
    """Two-player: the shuffled stock of the keep-or-discard draw, top card first (card ids);
    turn ``t`` draws cards ``2t`` and ``2t + 1``."""
    cards = np.empty(packed.deck_slots.shape[0], dtype=np.int64)
    _shuffle(packed.deck_slots, _deal_key(seed, game, hand), cards)
    return tuple(int(packed.slot_card[slot]) for slot in cards)


def first_drawer(packed: PackedRules, dealer: int) -> int:
    """Two-player: the seat that draws first (as it bids first, ``two_player_first``)."""
    return (dealer + packed.first_bid_offset) % 2

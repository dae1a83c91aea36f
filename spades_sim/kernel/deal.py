"""The deal: the first dealer of a game, the shuffle, and the two ways cards reach the seats.

Deal ``h`` of game ``g`` in a run with seed ``s`` is shuffled from the key
``_key3(s, g, h)``; the first dealer of game ``g`` comes from another key.
jit-compiled; inputs not checked.
"""

import numpy as np
from numba import njit

from .decide import _decide_keep
from .rng import _below, _key3, _next

_DEALER_SALT = np.uint64(0x5EA7DEA1E5)


@njit(cache=True, inline='always')
def _first_dealer(seed, game, seat_count):
    """The seat that deals the first hand of ``game``."""
    return _below(_key3(np.uint64(seed) ^ _DEALER_SALT, game, 0), seat_count)


@njit(cache=True, inline='always')
def _shuffle(deck_slots, key, cards):
    """Put the deck into ``cards`` in the Fisher-Yates order drawn from ``key``."""
    n = deck_slots.shape[0]
    for k in range(n):
        cards[k] = deck_slots[k]
    state = np.uint64(key)
    for k in range(n - 1, 0, -1):
        state, bits = _next(state)
        j = _below(bits, k + 1)
        cards[k], cards[j] = cards[j], cards[k]


@njit(cache=True, inline='always')
def _deal(deck_slots, seat_count, hand_size, key, cards, hands):
    """Shuffle the deck and deal ``hand_size`` cards a seat."""
    _shuffle(deck_slots, key, cards)
    for seat in range(seat_count):
        hands[seat] = 0
    k = 0
    for seat in range(seat_count):
        for _ in range(hand_size):
            hands[seat] |= np.uint64(1) << np.uint64(cards[k])
            k += 1


@njit(cache=True, inline='always')
def _draw_deal(rules, strat, dealer, hand_index, key, first, s):
    """The two-player keep-or-discard draw (docs/scoring.md); ``first`` draws first.

    Writes ``s.hands`` (kept), ``s.discards`` and ``s.known`` (discards the drawer saw).
    """
    _shuffle(rules.deck_slots, key, s.cards)
    for seat in range(2):
        s.hands[seat] = 0
        s.discards[seat] = 0
        s.known[seat] = 0
    one = np.uint64(1)
    for turn in range(rules.deck_slots.shape[0] // 2):
        seat = (first + turn) % 2
        top, below = s.cards[2 * turn], s.cards[2 * turn + 1]
        keep = _decide_keep(rules, strat, s, seat, dealer, hand_index, top)
        if keep:
            s.hands[seat] |= one << np.uint64(top)
            s.discards[seat] |= one << np.uint64(below)
            if rules.draw_second_seen:
                s.known[seat] |= one << np.uint64(below)
        else:
            s.hands[seat] |= one << np.uint64(below)
            s.discards[seat] |= one << np.uint64(top)
            s.known[seat] |= one << np.uint64(top)

"""A plain kernel: how fast a bare numba hand of Spades runs on this machine.

``scripts/bench.py --plain`` times it beside spades-sim's ``random`` in the same run, so the
distance between the engine and what the hardware allows for this shape of work is a ratio
measured on one machine, not a figure carried over from another (docs/performance.md).

It plays the standard rules only (four seats in two partnerships, 52 cards, spades broken
before they are led, nil ±100, 10 bags −100), every hand from 0–0 as a hand run does, with
uniform random bids (0 to 13, no blind nil) and uniform random legal cards, and keeps a few
totals. None of spades-sim's engine is here: no rule options, strategies, records, traces,
features or per-seat streams; one SplitMix64 stream a hand. tests/test_plain_kernel.py replays
its hands through the referee, so the figure is the speed of the real game.

    python scripts/plain_kernel.py [--hands 1000000]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from numba import njit

from spades_sim.kernel.bits import _lowest_bit, _popcount

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_SUIT = np.uint64(0x1FFF)
_SPADES = _SUIT << np.uint64(39)
SPADES_SUIT = 3
"""Card ids are ``suit * 13 + rank`` (spades_sim.cards): spades are 39 to 51."""

SUMS = ("points", "bags", "contracts_made", "nils_made", "nils_set")
"""The totals ``play_hands`` keeps per side, in the order of ``sums``' columns."""


@njit(cache=True, inline='always')
def _mix(z):
    """SplitMix64's output function."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True, inline='always')
def _nth_bit(mask, n):
    """Index of the n-th set bit of ``mask`` (from the lowest), one cleared bit at a time: the
    yardstick's own walk, as it was when the aims were set against it (spades-sim's
    ``bits._nth_bit`` chooses the same bit with selects; docs/performance.md says what the
    plain kernel would gain with it)."""
    for _ in range(n):
        mask &= mask - np.uint64(1)
    return _lowest_bit(mask)


@njit(cache=True, inline='always')
def _draw(state, n):
    """Advance a SplitMix64 state; returns (new state, a uniform integer in [0, n))."""
    state = state + _GOLDEN
    return state, np.int64(((_mix(state) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@njit(cache=True, inline='always')
def _play_hand(state, dealer, deck, dealt, hands, bids, plays, tricks, points, bags, made):
    """Deal, bid, play and score one hand from the stream ``state``; fills the other arrays
    (``dealt`` the four hands as dealt, ``plays`` the 52 cards in order, ``points``, ``bags``
    and ``made`` (1 when the contract was made) per side). Returns the stream's state."""
    for k in range(52):
        deck[k] = k
    for k in range(51, 0, -1):
        state, j = _draw(state, k + 1)
        deck[k], deck[j] = deck[j], deck[k]
    k = 0
    for seat in range(4):
        hand = np.uint64(0)
        for _ in range(13):
            hand |= np.uint64(1) << np.uint64(deck[k])
            k += 1
        dealt[seat] = hand
        hands[seat] = hand
        tricks[seat] = 0
    for i in range(4):
        state, bids[(dealer + 1 + i) & 3] = _draw(state, 14)
    leader = (dealer + 1) & 3
    broken = False
    for t in range(13):
        led = win_card = win_suit = win_seat = -1
        for i in range(4):
            seat = (leader + i) & 3
            hand = hands[seat]
            if i == 0:
                legal = hand if broken else hand & ~_SPADES
            else:
                legal = hand & (_SUIT << np.uint64(13 * led))
            if legal == 0:
                legal = hand
            state, n = _draw(state, _popcount(legal))
            card = _nth_bit(legal, n)
            hands[seat] = hand & ~(np.uint64(1) << np.uint64(card))
            plays[4 * t + i] = card
            suit = card // 13
            if i == 0:
                led, win_card, win_suit, win_seat = suit, card, suit, seat
            elif (suit == win_suit and card > win_card) or suit == SPADES_SUIT != win_suit:
                win_card, win_suit, win_seat = card, suit, seat
            if suit == SPADES_SUIT != led:
                broken = True
        tricks[win_seat] += 1
        leader = win_seat
    for side in range(2):
        contract = taken = nil_bags = score = 0
        for seat in (side, side + 2):
            if bids[seat] == 0:
                nil_bags += tricks[seat]
                score += 100 if tricks[seat] == 0 else -100
            else:
                contract += bids[seat]
                taken += tricks[seat]
        made[side] = taken >= contract
        if taken >= contract:
            bag = taken - contract + nil_bags
            score += 10 * contract + bag
        else:
            bag = nil_bags
            score -= 10 * contract
        if bag >= 10:  # from 0 bags, one hand crosses the limit at most once
            score -= 100
        points[side] = score
        bags[side] = bag
    return state


@njit(cache=True, inline='always')
def _hand_key(seed, hand):
    """The stream of hand ``hand`` of a run with ``seed``."""
    return _mix(_mix(np.uint64(seed) + _GOLDEN) ^ np.uint64(hand))


@njit(cache=True)
def play_hands(seed, count, sums):
    """Play hands 0 to ``count`` - 1 of ``seed``, dealer ``hand % 4``, adding to ``sums``
    (int64, 2 sides × ``SUMS``)."""
    deck = np.empty(52, np.int64)
    dealt = np.empty(4, np.uint64)
    hands = np.empty(4, np.uint64)
    bids = np.empty(4, np.int64)
    plays = np.empty(52, np.int64)
    tricks = np.empty(4, np.int64)
    points = np.empty(2, np.int64)
    bags = np.empty(2, np.int64)
    made = np.empty(2, np.int64)
    for hand in range(count):
        dealer = hand & 3
        _play_hand(_hand_key(seed, hand), dealer, deck, dealt, hands, bids, plays, tricks,
                   points, bags, made)
        for side in range(2):
            sums[side, 0] += points[side]
            sums[side, 1] += bags[side]
            sums[side, 2] += made[side]
            for seat in (side, side + 2):
                if bids[seat] == 0:
                    sums[side, 3 if tricks[seat] == 0 else 4] += 1
    return sums


@njit(cache=True)
def one_hand(seed, hand, dealt, bids, plays, tricks, points, bags, made):
    """Hand ``hand`` of ``seed`` exactly as ``play_hands`` plays it, into the arrays given
    (for the referee's replay in the tests). Returns its dealer."""
    deck = np.empty(52, np.int64)
    hands = np.empty(4, np.uint64)
    dealer = hand & 3
    _play_hand(_hand_key(seed, hand), dealer, deck, dealt, hands, bids, plays, tricks, points,
               bags, made)
    return dealer


def hands_per_second(count: int, seed: int = 1) -> float:
    """Full hands a second of one ``play_hands`` call of ``count`` hands (compiled first)."""
    play_hands(seed, 1000, np.zeros((2, len(SUMS)), np.int64))
    start = time.perf_counter()
    play_hands(seed, count, np.zeros((2, len(SUMS)), np.int64))
    return count / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1_000_000)
    args = parser.parse_args()
    print(f"plain kernel, random, one thread: {hands_per_second(args.hands):,.0f} hands/s")


if __name__ == "__main__":
    main()

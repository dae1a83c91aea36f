"""scripts/plain_kernel.py, the benchmark's plain kernel, plays the real game: its hands replayed
through the referee are legal, won by the seats it says, and score what it says; its totals are
the sums of its hands."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from spades_sim.referee.hand import Hand
from spades_sim.rules import load_preset

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
import plain_kernel

STANDARD = load_preset("standard")
HANDS = 300


def _hand(seed: int, index: int) -> tuple[int, list[np.ndarray]]:
    arrays = [np.empty(4, np.uint64), np.empty(4, np.int64), np.empty(52, np.int64),
              np.empty(4, np.int64), np.empty(2, np.int64), np.empty(2, np.int64),
              np.empty(2, np.int64)]
    return plain_kernel.one_hand(seed, index, *arrays), arrays


def test_hands_replay_through_the_referee() -> None:
    nils = sets = penalties = 0
    for index in range(HANDS):
        dealer, (dealt, bids, plays, tricks, points, bags, made) = _hand(7, index)
        hand = Hand(STANDARD, dealer, [[c for c in range(52) if int(h) >> c & 1] for h in dealt])
        for k in range(4):
            seat = (dealer + 1 + k) % 4
            hand.bid(seat, int(bids[seat]))
        for card in plays:  # every play must be legal, in turn: the referee raises otherwise
            hand.play(hand.turn_index, int(card))
        result = hand.result
        assert result.tricks == tuple(tricks)
        assert result.points == tuple(points), (index, bids, tricks)
        assert result.bags == tuple(bags)
        nils += int((bids == 0).sum())
        sets += int((made == 0).sum())
        penalties += sum(p > 0 for p in result.penalty)
        for side in range(2):
            contract = sum(int(bids[s]) for s in (side, side + 2))
            taken = sum(int(tricks[s]) for s in (side, side + 2) if bids[s] != 0)
            assert made[side] == (taken >= contract)
    # Random bids reach every scoring branch: nils, sets and the bag penalty.
    assert nils > 30 and sets > 100 and penalties > 0


def test_totals_are_the_sums_of_the_hands() -> None:
    sums = plain_kernel.play_hands(7, 50, np.zeros((2, len(plain_kernel.SUMS)), np.int64))
    expected = np.zeros_like(sums)
    for index in range(50):
        _, (_, bids, _, tricks, points, bags, made) = _hand(7, index)
        for side in range(2):
            nil = [s for s in (side, side + 2) if bids[s] == 0]
            expected[side] += (points[side], bags[side], made[side],
                               sum(tricks[s] == 0 for s in nil), sum(tricks[s] > 0 for s in nil))
    assert (sums == expected).all()

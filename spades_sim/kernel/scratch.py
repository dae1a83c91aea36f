"""The per-hand scratch state every rule step reads and writes, and the names of its rows.

One ``_Scratch`` per thread: the drivers allocate it (``_new_scratch``, plain numpy: a
jitted allocator would cost the first run a compile for nothing) and the chunk functions
reuse it hand after hand, so the hot loop allocates nothing. Inputs not checked.
"""

from typing import NamedTuple

import numpy as np

from .expert_bid import WORK_SIZE
from .scoring import SIDE_ROWS

FREE_BID = -1
"""``_Scratch.forced``: the seat bids by its policy."""
BLIND_BID = 100
"""``_Scratch.forced``: the seat bids blind nil."""
BLIND_COUNT_BID = 200
"""``_Scratch.forced``: ``BLIND_COUNT_BID + n``, the seat bids n tricks blind."""

# Columns of ``_Scratch.costs``: what one more bag costs, for the expert's card play.
COST_OWN_SIDE = 0
"""To the seat's own side."""
COST_OPPONENTS = 1
"""To its opponents, on average."""
COST_COLUMNS = 2


class _Scratch(NamedTuple):
    cards: np.ndarray  # int64 (deck,)
    hands: np.ndarray  # uint64 (seats,): as dealt (kept, in the draw)
    discards: np.ndarray  # uint64 (seats,): two-player draw
    known: np.ndarray  # uint64 (seats,): discards the seat saw, out of play
    given: np.ndarray  # uint64 (seats,): passed in the blind-nil exchange
    remaining: np.ndarray  # uint64 (seats,)
    rng: np.ndarray  # uint64 (seats,)
    bids: np.ndarray  # int64 (seats,)
    blind: np.ndarray  # int64 (seats,)
    tricks: np.ndarray  # int64 (seats,)
    plays: np.ndarray  # int64 (seats * hand_size,)
    winners: np.ndarray  # int64 (hand_size,)
    score: np.ndarray  # int64 (sides,)
    bag_total: np.ndarray  # int64 (sides,)
    side: np.ndarray  # int64 (SIDE_ROWS, sides): the last hand's score by side, rows named in
    # ``scoring`` (SIDE_POINTS … SIDE_COUNT_TRICKS)
    forced: np.ndarray  # int64 (seats + 1,): a bid each seat must make (FREE_BID: its policy's;
    # BLIND_BID: blind nil); the last entry is 1 while every forced bid was allowed, else 0
    shown_out: np.ndarray  # int64 (seats,): bit s set once the seat failed to follow suit s
    costs: np.ndarray  # float64 (seats, COST_COLUMNS): what a bag costs the seat's side and
    # its opponents
    work: np.ndarray  # float64 (WORK_SIZE,): the expert bidder's scratch space
    bidders: np.ndarray  # int64 (seats,): the seats in the order they bid
    givers: np.ndarray  # int64 (seats,): the seats in the order they passed in the blind-nil
    # exchange, -1 after the last
    first_leader: np.ndarray  # int64 (1,): the seat that led the first trick
    sets: np.ndarray  # int64 (sides,): each side's contracts set so far in the game


def _new_scratch(rules):
    """A thread's scratch state for hands of ``rules``."""
    n, sides, hand_size = rules.seat_count, rules.side_count, rules.hand_size
    return _Scratch(
        np.empty(rules.deck_slots.shape[0], np.int64), np.zeros(n, np.uint64),
        np.zeros(n, np.uint64), np.zeros(n, np.uint64), np.zeros(n, np.uint64),
        np.zeros(n, np.uint64), np.zeros(n, np.uint64),
        np.zeros(n, np.int64), np.zeros(n, np.int64),
        np.zeros(n, np.int64), np.zeros(n * hand_size, np.int64),
        np.zeros(hand_size, np.int64), np.zeros(sides, np.int64), np.zeros(sides, np.int64),
        np.zeros((SIDE_ROWS, sides), np.int64), _free_bids(n), np.zeros(n, np.int64),
        np.zeros((n, COST_COLUMNS), np.float64), np.zeros(WORK_SIZE, np.float64),
        np.zeros(n, np.int64), np.full(n, -1, np.int64), np.zeros(1, np.int64),
        np.zeros(sides, np.int64),
    )


def _free_bids(seats):
    """``_Scratch.forced`` with no seat forced (and the validity flag set)."""
    forced = np.full(seats + 1, FREE_BID, np.int64)
    forced[seats] = 1
    return forced

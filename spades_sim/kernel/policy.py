"""Constructed positions: a policy asked for one bid or one card with the facts it reads passed
one by one, as tests/test_expert.py builds its positions. The kernel never calls these: its
decisions go through ``decide`` and the policy table (``policies``) with the seat's observation.

``POLICY_RANDOM`` … ``POLICY_EXPERT`` are the policies' ids, read from the table; the basic and
expert-v1 policies themselves are in ``basic_policies``.
"""

from typing import NamedTuple

import numpy as np

from .basic_policies import _blind_nil_allowed  # noqa: F401  (read as policy._blind_nil_allowed)
from .observation import _Observation
from .policies import IDS, TABLE
from .scoring import SCORING_FAILED_PER_BID, SCORING_FIELDS


class _PositionRules(NamedTuple):
    """The rule facts a bid or a card play reads, for a position built by hand."""

    seat_count: int
    max_bid: int
    trick_scale: float
    scoring: np.ndarray
    """The packed scoring (``packing.pack_scoring``); only the points a set loses a trick are read."""
    suit_masks: np.ndarray
    suit_low: np.ndarray
    trump_suit: int


def _scoring(failed_per_bid: float) -> np.ndarray:
    """A packed scoring whose set loses ``failed_per_bid`` points a trick of the contract."""
    scoring = np.zeros(SCORING_FIELDS, np.int64)
    scoring[SCORING_FAILED_PER_BID] = int(failed_per_bid)
    return scoring


def __getattr__(name: str) -> int:
    """``POLICY_RANDOM``, ``POLICY_BASIC``, ``POLICY_EXPERT_V1``, ``POLICY_EXPERT``: a policy's
    id, its place in ``policies.TABLE`` (read from there: the table is the one place it lives)."""
    if name.startswith("POLICY_"):
        key = name.removeprefix("POLICY_").lower().replace("_", "-")
        if key in IDS:
            return IDS[key]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _position(seat, partner, hand, legal, position, led_suit, win_slot, win_seat, win_suit, gone,
              shown_out, bids, tricks, bag_room, notes):
    """An observation of a constructed position (the fields no policy reads there left empty)."""
    empty = np.zeros(len(bids), np.int64)
    return _Observation(
        int(seat), int(partner), 0, 0, np.uint64(hand), legal, int(position), -1,
        np.ascontiguousarray(bids, np.int64), empty, np.uint64(0), np.uint64(0),
        np.zeros(1, np.int64), 0, int(led_suit), int(win_slot), int(win_seat), int(win_suit),
        np.uint64(gone), np.uint64(gone), np.ascontiguousarray(shown_out, np.int64),
        np.ascontiguousarray(tricks, np.int64), np.zeros(2, np.int64), np.zeros(2, np.int64),
        int(bag_room), np.asarray(notes, np.float64), np.zeros(1, np.float64),
        np.zeros(2, np.int64))


def _choose_bid(policy, params, hand, partner, partner_bid, allowed, max_bid, trick_scale,
                bag_room, suit_masks, suit_low, trump_suit, rng_state):
    """Return (bid, rng_state): the bid of the policy with id ``policy`` for seat 0 holding
    ``hand`` in a constructed position (``partner_bid`` -1 before the partner bids): its
    module's own ``bid`` (compiled for these stand-ins alone, not the whole table)."""
    seats = max(partner + 1, 2)
    bids = np.full(seats, -1, np.int64)
    if partner >= 0:
        bids[partner] = partner_bid
    rules = _PositionRules(seats, int(max_bid), float(trick_scale), _scoring(10), suit_masks,
                           suit_low, int(trump_suit))
    obs = _position(0, partner, hand, int(allowed), 0, -1, -1, -1, -1, 0, np.zeros(seats),
                    bids, np.zeros(seats), bag_room, np.zeros(2))
    strat = _PositionStrategy(np.tile(np.asarray(params, np.float64), (seats, 1)))
    return TABLE[policy].bid(rules, strat, obs, np.uint64(rng_state))


class _PositionStrategy(NamedTuple):
    """The seats' parameter vectors, for a position built by hand."""

    params: np.ndarray


def _choose_card(policy, params, seat, partner, legal, hand, position, led_suit, win_slot,
                 win_seat, win_suit, gone, shown_out, bids, tricks, seat_count, bag_room,
                 bag_cost_own, bag_cost_opp, set_unit, suit_masks, suit_low, trump_suit,
                 rng_state):
    """Return (slot, rng_state): the card the policy with id ``policy`` plays from ``legal`` in
    a constructed position, its facts as the observation's fields (``gone``: the cards the seat
    knows are out of play; ``bag_cost_own``/``bag_cost_opp``: the expert's bag costs;
    ``set_unit``: 10 plus the points a failed contract loses a trick)."""
    rules = _PositionRules(int(seat_count), 13, 1.0, _scoring(float(set_unit) - 10.0),
                           suit_masks, suit_low, int(trump_suit))
    obs = _position(seat, partner, hand, np.uint64(legal), position, led_suit, win_slot,
                    win_seat, win_suit, gone, shown_out, bids, tricks, bag_room,
                    [bag_cost_own, bag_cost_opp])
    strat = _PositionStrategy(np.tile(np.asarray(params, np.float64), (int(seat_count), 1)))
    return TABLE[policy].play(rules, strat, obs, np.uint64(rng_state))

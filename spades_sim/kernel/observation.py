"""What a seat knows when it decides: the one record every policy decides from.

Every decision of every policy (``policies.TABLE``) is a function ``(rules, strat, obs, rng)
-> (move, rng)``: the packed rules, the packed strategies (the seat's parameters are
``strat.params[obs.seat]``), an :class:`_Observation` and the seat's random stream. The hand's
loop makes the record from its scratch state (:func:`_observe`, compiled into the loop, so it
costs nothing it does not read), and so does ``decide._decide`` from the observation vector a
Python agent sends: both run the same policy code on the same record. jit-compiled; inputs not
checked.
"""

from typing import NamedTuple

import numpy as np
from numba import njit

from .scoring import _bag_room


class _Observation(NamedTuple):
    """One seat's view of the hand at a decision. Card sets are masks of slots (``packing``),
    cards slots; per-seat arrays have one entry a seat, per-side arrays one a side. The arrays
    are the hand's own (not copies): a field is meaningful from the step that writes it on,
    ``passed`` and ``received`` from the exchange, the play's fields (``plays``,
    ``first_leader``, ``shown_out``, ``tricks``) in card play; before, they hold the last
    hand's values, which no policy may read."""

    seat: int
    partner: int
    """The partner's seat, -1 without one."""
    dealer: int
    hand_index: int
    """The hand's number in the game, from 0."""
    hand: np.uint64
    """The seat's cards now (the draw: the cards kept so far)."""
    legal: int
    """The legal moves: bit b for bid b (0 nil) for a bid, a mask of slots for a card or a
    pass, 1 for a yes-or-no decision (blind nil, the draw); for a blind bid, bit b for each
    number b it may bid blind."""
    position: int
    """A bid: the seat's place in the bidding order; a card: its place in the trick (0 leads);
    a pass: 1 when it passes to the blind-nil bidder, 0 when it is the bidder passing back."""
    drawn: int
    """The draw: the card just drawn (else not meaningful)."""
    bids: np.ndarray
    """int64 per seat: each seat's bid, -1 before it bids (blind nil is 0 ...)."""
    blind: np.ndarray
    """int64 per seat: ... with 1 here; 2 for a number of tricks bid blind)."""
    passed: np.uint64
    """The cards the seat passed in a blind-nil exchange."""
    received: np.uint64
    """The cards its partner passed it."""
    plays: np.ndarray
    """int64: every card played this hand in play order from the first lead (the first
    ``popcount(played)`` entries; trick t, place k is entry ``t * seats + k``)."""
    first_leader: int
    """The seat that led the first trick (with ``plays``: who played each card)."""
    led_suit: int
    """The trick in progress: the suit led (-1 when the seat leads), and the card winning it
    so far, its seat and suit (-1 when the seat leads)."""
    win_slot: int
    win_seat: int
    win_suit: int
    played: np.uint64
    """Every card played this hand, the trick in progress included."""
    gone: np.uint64
    """The cards the seat knows are out of play: ``played`` and the discards it saw."""
    shown_out: np.ndarray
    """int64 per seat: bit s set once the seat failed to follow suit s this hand."""
    tricks: np.ndarray
    """int64 per seat: the tricks taken so far."""
    score: np.ndarray
    """int64 per side: the scores before the hand."""
    bags: np.ndarray
    """int64 per side: the bags before the hand."""
    bag_room: int
    """Bags the seat's side can still take before the next penalty (large when bags are free)."""
    notes: np.ndarray
    """float64: what the seat's policy worked out for this hand before the first trick (its
    ``prepare``; the expert: what a bag costs, ``scratch.COST_*``)."""
    work: np.ndarray
    """float64: scratch space a policy may overwrite (the expert bidder's)."""
    sets: np.ndarray
    """int64 per side: the contracts each side had set earlier in the game (``sets_to_lose``)."""


@njit(cache=True, inline='always')
def _side_of(seat, side_count):
    """The side ``seat`` plays on, ``seat % side_count`` without a division in the card loop
    (every table has fewer than twice as many seats as sides: 4 and 2, or one side a seat)."""
    return seat - side_count if seat >= side_count else seat


@njit(cache=True, inline='always')
def _observe(rules, s, seat, dealer, hand_index, hand, legal, position, drawn, led_suit,
             win_slot, win_seat, win_suit, played):
    """The observation of ``seat`` from the hand's scratch ``s`` (``scratch._Scratch``) and the
    decision's own facts (its cards now, the legal moves, its position, the card drawn, the
    trick in progress and the cards played)."""
    partner = rules.partner[seat]
    received = s.given[partner] if partner >= 0 else np.uint64(0)
    return _Observation(
        seat, partner, dealer, hand_index, hand, legal, position, drawn, s.bids, s.blind,
        s.given[seat], received, s.plays, s.first_leader[0], led_suit, win_slot, win_seat,
        win_suit, played, played | s.known[seat], s.shown_out, s.tricks, s.score, s.bag_total,
        _bag_room(rules, s.bag_total[_side_of(seat, rules.side_count)]), s.costs[seat], s.work,
        s.sets)

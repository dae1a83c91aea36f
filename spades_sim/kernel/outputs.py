"""The kernel's record layouts, their allocation, and the writing of a hand's records.

The layouts (``HandRecords``, ``HandTrace``, ``GameRecords``) are NamedTuples of
arrays; ``spades_sim.run.records`` turns them into DataFrames and hand logs.
jit-compiled; inputs not checked.
"""

from typing import NamedTuple

import numpy as np
from numba import njit

from .basic_policies import _nil_risk
from .bits import _highest_bit, _popcount
from .scoring import (
    SCORING_ZERO_BID,
    SIDE_BAGS,
    SIDE_CONTRACT,
    SIDE_COUNT_TRICKS,
    SIDE_MADE,
    SIDE_PENALTY,
    SIDE_POINTS,
)

UNFINISHED = -1
"""``GameRecords.winner`` of a game stopped at the hand cap."""


class HandRecords(NamedTuple):
    """Per-hand records; row = hand. Seat columns are (n, seats), side columns (n, sides).

    Hand features (spades … nil_risk) describe the cards as dealt, before any exchange.
    """

    game: np.ndarray  # int64 (n,)
    hand: np.ndarray  # int32 (n,): index within the game
    dealer: np.ndarray  # int8 (n,)
    bid: np.ndarray  # int8 (n, seats): 0 = nil
    blind: np.ndarray  # int8 (n, seats): 1 = blind nil, 2 = a number bid blind, -1 = a bid of 0
    # that is no nil (zero_bid)
    tricks: np.ndarray  # int8 (n, seats)
    spades: np.ndarray  # int8 (n, seats): trumps held
    top_spade: np.ndarray  # int8 (n, seats): rank of the highest trump held, -1 for none
    aces: np.ndarray  # int8 (n, seats): printed aces held
    kings: np.ndarray  # int8 (n, seats)
    voids: np.ndarray  # int8 (n, seats): suits with no card
    nil_risk: np.ndarray  # float32 (n, seats): the basic policy's nil-risk score
    contract: np.ndarray  # int8 (n, sides)
    made: np.ndarray  # int8 (n, sides)
    points: np.ndarray  # int32 (n, sides): score change, penalty included
    bags: np.ndarray  # int8 (n, sides): bags taken this hand
    penalty: np.ndarray  # int32 (n, sides)
    score: np.ndarray  # int32 (n, sides): after the hand
    bag_total: np.ndarray  # int8 (n, sides): after the hand


class HandTrace(NamedTuple):
    """Everything needed to write a hand log, as the kernel played it; row = hand."""

    hands: np.ndarray  # uint64 (n, seats): slots dealt (kept, in the two-player draw)
    discards: np.ndarray  # uint64 (n, seats): slots discarded in the two-player draw
    given: np.ndarray  # uint64 (n, seats): slots passed in the blind-nil exchange
    plays: np.ndarray  # int8 (n, seats * hand_size): slots in play order
    winners: np.ndarray  # int8 (n, hand_size): seat winning each trick
    bidders: np.ndarray  # int8 (n, seats): the seats in the order they bid
    givers: np.ndarray  # int8 (n, seats): the seats in the order they passed in the blind-nil
    # exchange (each passes its ``given`` cards to its partner), -1 after the last
    first_leader: np.ndarray  # int8 (n,): seat leading the first trick (each later trick's
    # leader is the previous trick's winner)


class GameRecords(NamedTuple):
    """Per-game records; row = game. Side columns are (n, sides) and count over the game's hands."""

    first_dealer: np.ndarray  # int8 (n,)
    hands: np.ndarray  # int32 (n,): hands played
    winner: np.ndarray  # int8 (n,): side, or UNFINISHED
    score: np.ndarray  # int32 (n, sides): final
    bag_total: np.ndarray  # int8 (n, sides): final
    contracts: np.ndarray  # int32 (n, sides): hands with a contract > 0
    made: np.ndarray  # int32 (n, sides): of those, made
    nil_bids: np.ndarray  # int32 (n, sides): nil bids (not blind)
    nil_made: np.ndarray  # int32 (n, sides)
    blind_bids: np.ndarray  # int32 (n, sides)
    blind_made: np.ndarray  # int32 (n, sides)
    bags: np.ndarray  # int32 (n, sides): bags taken
    penalty: np.ndarray  # int32 (n, sides): points lost to bag penalties
    bid_error: np.ndarray  # int32 (n, sides): sum over hands with a contract of
    # |contract - tricks of the count bidders|


def _empty_hand_outputs(rules, rows):
    """Allocate hand records and traces for ``rows`` hands (plain numpy, called from Python: a
    jitted allocator would cost the first run a compile for nothing)."""
    n, sides = rules.seat_count, rules.side_count
    i8, i32 = np.int8, np.int32
    hands_out = HandRecords(
        np.zeros(rows, np.int64), np.zeros(rows, i32), np.zeros(rows, i8),
        np.zeros((rows, n), i8), np.zeros((rows, n), i8), np.zeros((rows, n), i8),
        np.zeros((rows, n), i8), np.zeros((rows, n), i8), np.zeros((rows, n), i8),
        np.zeros((rows, n), i8), np.zeros((rows, n), i8), np.zeros((rows, n), np.float32),
        np.zeros((rows, sides), i8), np.zeros((rows, sides), i8), np.zeros((rows, sides), i32),
        np.zeros((rows, sides), i8), np.zeros((rows, sides), i32), np.zeros((rows, sides), i32),
        np.zeros((rows, sides), i8),
    )
    trace_out = HandTrace(
        np.zeros((rows, n), np.uint64), np.zeros((rows, n), np.uint64),
        np.zeros((rows, n), np.uint64), np.zeros((rows, n * rules.hand_size), i8),
        np.zeros((rows, rules.hand_size), i8), np.zeros((rows, n), i8),
        np.zeros((rows, n), i8), np.zeros(rows, i8),
    )
    return hands_out, trace_out


def _empty_game_records(rows, sides):
    """Allocate game records for ``rows`` games of ``sides`` sides (plain numpy, as above)."""
    i8, i32 = np.int8, np.int32
    return GameRecords(
        np.zeros(rows, i8), np.zeros(rows, i32), np.zeros(rows, i8),
        np.zeros((rows, sides), i32), np.zeros((rows, sides), i8),
        np.zeros((rows, sides), i32), np.zeros((rows, sides), i32),
        np.zeros((rows, sides), i32), np.zeros((rows, sides), i32),
        np.zeros((rows, sides), i32), np.zeros((rows, sides), i32),
        np.zeros((rows, sides), i32), np.zeros((rows, sides), i32), np.zeros((rows, sides), i32),
    )


@njit(cache=True, inline='always')
def _blind_code(rules, s, seat):
    """The ``blind`` column of a seat's record: its blind flag (1 a blind nil, 2 a number bid
    blind), -1 for a bid of 0 that is a contract, not a nil (``zero_bid = "zero"``), else 0."""
    if s.blind[seat] != 0:
        return s.blind[seat]
    if s.bids[seat] == 0 and rules.scoring[SCORING_ZERO_BID] == 1:
        return -1
    return 0


def _hand_records(rules, s, game, hand_index, dealer, row, out, features):
    """Copy the hand just played into row ``row`` of ``out``, and with ``features`` its hand
    features (spades, top spade, aces, kings, voids, nil risk: read only from kept records, so a
    run that keeps totals alone skips them)."""
    out.game[row] = game
    out.hand[row] = hand_index
    out.dealer[row] = dealer
    trump = rules.trump_suit
    for seat in range(rules.seat_count):
        hand = s.hands[seat]
        out.bid[row, seat] = s.bids[seat]
        out.blind[row, seat] = _blind_code(rules, s, seat)
        out.tricks[row, seat] = s.tricks[seat]
        if not features:
            continue
        trumps = hand & rules.suit_masks[trump]
        out.spades[row, seat] = _popcount(trumps)
        out.top_spade[row, seat] = _highest_bit(trumps) - rules.suit_low[trump] if trumps else -1
        voids = 0
        for suit in range(4):
            voids += (hand & rules.suit_masks[suit]) == 0
        out.aces[row, seat] = _popcount(hand & rules.ace_mask)
        out.kings[row, seat] = _popcount(hand & rules.king_mask)
        out.voids[row, seat] = voids
        out.nil_risk[row, seat] = _nil_risk(hand, rules.suit_masks, rules.suit_low, trump)
    for side in range(rules.side_count):
        out.points[row, side] = s.side[SIDE_POINTS, side]
        out.bags[row, side] = s.side[SIDE_BAGS, side]
        out.penalty[row, side] = s.side[SIDE_PENALTY, side]
        out.made[row, side] = s.side[SIDE_MADE, side]
        out.contract[row, side] = s.side[SIDE_CONTRACT, side]
        out.score[row, side] = s.score[side]
        out.bag_total[row, side] = s.bag_total[side]


# No reference counting (it allocates nothing): with it, each hand's call took references to
# the output arrays it writes, with atomic instructions on arrays every thread shares. Compiled
# into the hands driver, where it runs once a hand (a call copies the packed rules, the scratch
# and the records onto the stack, some 400 words: docs/performance.md); called by the game loop,
# which writes hands only when a run keeps them.
_write_hand = njit(cache=True, _nrt=False)(_hand_records)
_write_hand_inline = njit(cache=True, inline='always')(_hand_records)


@njit(cache=True, inline='always')
def _write_trace(s, row, trace):
    """Copy the cards dealt, passed and played, and who bid, passed and led, into row ``row``."""
    for seat in range(s.hands.shape[0]):
        trace.hands[row, seat] = s.hands[seat]
        trace.discards[row, seat] = s.discards[seat]
        trace.given[row, seat] = s.given[seat]
        trace.bidders[row, seat] = s.bidders[seat]
        trace.givers[row, seat] = s.givers[seat]
    trace.first_leader[row] = s.first_leader[0]
    for k in range(s.plays.shape[0]):
        trace.plays[row, k] = s.plays[k]
    for t in range(s.winners.shape[0]):
        trace.winners[row, t] = s.winners[t]


@njit(cache=True, inline='always')
def _clear_game_tally(sides, row, games):
    """Zero the counts of game row ``row`` that :func:`_tally_hand` adds to."""
    for side in range(sides):
        games.contracts[row, side] = 0
        games.made[row, side] = 0
        games.bid_error[row, side] = 0
        games.nil_bids[row, side] = 0
        games.nil_made[row, side] = 0
        games.blind_bids[row, side] = 0
        games.blind_made[row, side] = 0
        games.bags[row, side] = 0
        games.penalty[row, side] = 0


@njit(cache=True, inline='always')
def _tally_hand(rules, s, row, games):
    """Add the hand just scored to the counts of game row ``row``."""
    sides = rules.side_count
    for seat in range(rules.seat_count):
        side = seat % sides
        if _blind_code(rules, s, seat) >= 0 and s.bids[seat] == 0:
            made_nil = 1 if s.tricks[seat] == 0 else 0
            if s.blind[seat] == 1:
                games.blind_bids[row, side] += 1
                games.blind_made[row, side] += made_nil
            else:
                games.nil_bids[row, side] += 1
                games.nil_made[row, side] += made_nil
    for side in range(sides):
        if s.side[SIDE_CONTRACT, side] > 0:
            games.contracts[row, side] += 1
            games.made[row, side] += s.side[SIDE_MADE, side]
            games.bid_error[row, side] += abs(s.side[SIDE_CONTRACT, side]
                                              - s.side[SIDE_COUNT_TRICKS, side])
        games.bags[row, side] += s.side[SIDE_BAGS, side]
        games.penalty[row, side] += s.side[SIDE_PENALTY, side]


@njit(cache=True, inline='always')
def _write_game(s, row, first_dealer, played, winner, games):
    """Write game row ``row``'s first dealer, length, winner, final score and bags."""
    games.first_dealer[row] = first_dealer
    games.hands[row] = played
    games.winner[row] = winner
    for side in range(s.score.shape[0]):
        games.score[row, side] = s.score[side]
        games.bag_total[row, side] = s.bag_total[side]

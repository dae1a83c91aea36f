"""The kernel's chunk entry points: hands, games and what-if deals, one chunk of rows each.

The rule steps live in their own modules: ``deal``, ``bidding`` (bids and the blind-nil
exchange), ``play`` (tricks), ``scoring``, ``game`` (a hand's pipeline and the game
loop) and ``outputs`` (the record layouts and their writing); ``scratch`` is the state
they share. ``spades_sim.kernel.drivers`` calls the functions below on threads.

A hand-only run plays deal 0 of games 0, 1, 2, … so hand ``i`` of a hand run is exactly
the first hand of game ``i`` of a game run with the same seed. jit-compiled; inputs not
checked.
"""

import numpy as np
from numba import njit

from .bidding import (  # noqa: F401  (re-exported: callers read them as engine.…)
    FORCED_MIRROR,
    FORCED_NONE,
    FORCED_SUICIDE,
    FORCED_WHIZ,
    _allowed_bids,
)
from .bits import _RUNTIME_ZERO
from .deal import _first_dealer
from .game import (  # noqa: F401  (re-exported)
    STEP_BIDDING,
    STEP_DEAL,
    STEP_PLAY,
    STEP_RECORDS,
    STEP_SCORING,
    STEPS,
    _game_over,
    _play_game,
    _play_hand,
    _play_hand_inline,
    _winner_after_hand,
)
from .outputs import (  # noqa: F401  (re-exported)
    UNFINISHED,
    GameRecords,
    HandRecords,
    HandTrace,
    _empty_game_records,
    _empty_hand_outputs,
    _write_hand,
    _write_hand_inline,
    _write_trace,
)
from .play import LEAD_LOWEST_CLUB, LEAD_NO_TRUMP, LEAD_ORDINARY  # noqa: F401  (re-exported)
from .scoring import (
    BLIND_COUNT_FLAG,
    BLIND_NIL_FLAG,
    SCORING_ZERO_BID,
    SIDE_MADE,
    SIDE_POINTS,
    _count_sets,
)
from .scratch import BLIND_BID, BLIND_COUNT_BID, FREE_BID, _new_scratch  # noqa: F401  (re-exported)


@njit(cache=True, nogil=True, _nrt=False)
def _hands_chunk(rules, strat, seed, start, lo, hi, s, out, trace,
                 write_trace, through, features):
    """Play hands ``start + i`` for ``lo <= i < hi`` into row ``i`` of ``out`` (and of ``trace``),
    each through step ``through`` (``game.STEP_RECORDS``: the whole hand; before it, the rows
    are left as they were), with the hand features if ``features``.

    The chunk functions release the GIL (``nogil``): ``spades_sim.kernel.drivers`` runs chunks
    on threads, each with its own scratch ``s`` and its own rows. They are compiled
    without numba's reference counting (``_nrt=False``): they allocate nothing, and the
    atomic reference-count updates on shared output arrays would otherwise dominate the
    hot loop and stop two threads from scaling.
    """
    for i in range(lo, hi):
        game = start + i
        dealer = _first_dealer(seed, game, rules.seat_count)
        for side in range(rules.side_count):
            s.score[side] = 0
            s.bag_total[side] = 0
        _play_hand_inline(rules, strat, seed, game, _RUNTIME_ZERO[0], dealer, s, np.bool_(True),
                          through)
        if through >= STEP_RECORDS:
            _write_hand_inline(rules, s, game, _RUNTIME_ZERO[0], dealer, i, out, features)
            if write_trace:
                _write_trace(s, i, trace)


@njit(cache=True, nogil=True, _nrt=False)
def _games_chunk(rules, strat, seed, start, lo, hi, max_hands, s, games, write_hands,
                 hand_row, hands_out, trace_out):
    """Play games ``start + i`` for ``lo <= i < hi`` into row ``i`` of ``games`` (nogil, no
    NRT, as above). With ``write_hands`` their hands go to ``hands_out`` and ``trace_out`` from
    row ``hand_row`` on (which must have room: a first pass without tells how many).

    Returns ``hand_row`` plus the number of hands played.
    """
    for i in range(lo, hi):
        hand_row += _play_game(rules, strat, seed, start + i, max_hands, s, i, games,
                               write_hands, hand_row, hands_out, trace_out)
    return hand_row


@njit(cache=True, nogil=True, _nrt=False)
def _what_if_chunk(rules, strat, seed, deals, dealer, hand_index, hero,
                   forced_bids, candidates, score, bag_total, sets, max_hands, lo, hi, s, made,
                   points, won, valid, hero_bid):
    """For deals ``lo <= i < hi`` and every candidate bid ``j`` of seat ``hero``: play the hand
    from ``deals[i]`` with the bids ``forced_bids`` (FREE_BID: the policy's) and the hero's
    ``candidates[j]``, from ``score``, ``bag_total`` and ``sets`` (each side's sets so far,
    ``sets_to_lose``) at hand ``hand_index``, then play the game on to its end (or
    ``max_hands`` more hands).

    Writes whether the hero's bid was made (a nil: no trick; a count bid: the side's contract),
    the side's points for the hand, the game's result for the hero's side (1 won, 0 lost,
    UNFINISHED), whether every forced bid was allowed, and the bid the hero made (BLIND_BID for
    blind nil, BLIND_COUNT_BID + n for n bid blind: with a FREE_BID candidate, the policy's
    choice). Every candidate of deal ``i`` sees the same policy streams and later deals (game
    ``i`` of ``seed``): common random numbers.
    """
    n, sides = rules.seat_count, rules.side_count
    hero_side = hero % sides
    whole_hand = _RUNTIME_ZERO[0] + STEP_RECORDS  # not a literal (see _RUNTIME_ZERO)
    for i in range(lo, hi):
        for j in range(candidates.shape[0]):
            for side in range(sides):
                s.score[side] = score[side]
                s.bag_total[side] = bag_total[side]
                s.sets[side] = sets[side]
            for seat in range(n):
                s.hands[seat] = deals[i, seat]
                s.forced[seat] = forced_bids[seat]
            s.forced[hero] = candidates[j]
            s.forced[n] = 1
            played = hand_index
            winner = UNFINISHED
            while winner == UNFINISHED and played < hand_index + max_hands:
                first = played == hand_index
                _play_hand(rules, strat, seed, i, played,
                           (dealer + played - hand_index) % n, s, np.bool_(not first), whole_hand)
                if first:
                    valid[i, j] = s.forced[n]
                    if s.bids[hero] == 0 and (s.blind[hero] == 1
                                              or rules.scoring[SCORING_ZERO_BID] == 0):
                        made[i, j] = 1 if s.tricks[hero] == 0 else 0
                    else:
                        made[i, j] = s.side[SIDE_MADE, hero_side]
                    points[i, j] = s.side[SIDE_POINTS, hero_side]
                    hero_bid[i, j] = (BLIND_BID if s.blind[hero] == BLIND_NIL_FLAG
                                      else BLIND_COUNT_BID + s.bids[hero]
                                      if s.blind[hero] == BLIND_COUNT_FLAG else s.bids[hero])
                    for seat in range(n):
                        s.forced[seat] = FREE_BID
                _count_sets(rules, s)
                played += 1
                winner = _winner_after_hand(rules, s, played)
            won[i, j] = UNFINISHED if winner == UNFINISHED else (1 if winner == hero_side else 0)

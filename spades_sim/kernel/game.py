"""A hand from deal to score, and a game from its first deal to its end.

A game's first dealer comes from its own key (``deal._first_dealer``) and the dealer
then rotates clockwise. Policies draw from streams keyed by (seed, game, hand, seat).
jit-compiled; inputs not checked.
"""

import numpy as np
from numba import njit

from .bidding import _bid_round, _exchange
from .bits import _RUNTIME_ZERO
from .deal import _deal, _draw_deal, _first_dealer
from .outputs import (
    UNFINISHED,
    _clear_game_tally,
    _tally_hand,
    _write_game,
    _write_hand,
    _write_trace,
)
from .play import _play_tricks
from .rng import _key3
from .scoring import SIDE_CONTRACT, SIDE_MADE, _count_sets, _score_hand

_POLICY_SALT = np.uint64(0x90111C1E5)

# The rule steps of a hand, in order: a run may stop after any (``_play_hand``'s ``through``).
STEP_DEAL = 1
"""The cards reach the seats."""
STEP_BIDDING = 2
"""Bids, and the blind-nil exchange."""
STEP_PLAY = 3
"""Every trick."""
STEP_SCORING = 4
"""Every side's score."""
STEP_RECORDS = 5
"""The hand's records (and trace) written: the whole hand."""
STEPS = {"deal": STEP_DEAL, "bidding": STEP_BIDDING, "play": STEP_PLAY, "scoring": STEP_SCORING,
         "records": STEP_RECORDS}
"""The steps by name (``drivers.play_hands(through=...)``)."""


def _hand(rules, strat, seed, game, hand_index, dealer, s, deal, through):
    """Deal, bid, play and score hand ``hand_index`` of ``game``, from the state in ``s``.

    With ``deal`` False the hands already in ``s.hands`` are played (a what-if deal). The
    hand stops after step ``through`` (``STEP_DEAL`` … ``STEP_SCORING``; ``STEP_RECORDS``
    or more: the whole hand): a benchmark's breakdown by step runs this very pipeline.
    """
    policy_key = _key3(np.uint64(seed) ^ _POLICY_SALT, game, hand_index)
    for seat in range(rules.seat_count):
        s.rng[seat] = _key3(policy_key, seat, 0)
    deal_key = _key3(seed, game, hand_index)
    if not deal:
        pass
    elif rules.draw_deal:
        _draw_deal(rules, strat, dealer, hand_index, deal_key,
                   (dealer + rules.first_bid_offset) % 2, s)
    else:
        _deal(rules.deck_slots, rules.seat_count, rules.hand_size, deal_key, s.cards, s.hands)
    if through < STEP_BIDDING:
        return
    _bid_round(rules, strat, dealer, hand_index, s)
    _exchange(rules, strat, dealer, hand_index, s)
    if through < STEP_PLAY:
        return
    _play_tricks(rules, strat, dealer, hand_index, s)
    if through < STEP_SCORING:
        return
    _score_hand(rules, s)


# It allocates nothing, so it needs no reference counting (``_nrt=False``, as the chunk
# functions). Compiled into the hands driver and the game loop, the hot paths, where that
# bought 8 to 10% of their speed (docs/performance.md); compiled once and called by the what-if
# driver (inlining it into every driver made each compile for a minute or more).
_play_hand = njit(cache=True, _nrt=False)(_hand)
_play_hand_inline = njit(cache=True, _nrt=False, inline='always')(_hand)


@njit(cache=True, inline='always')
def _sets_decide(score, sets, sets_to_lose):
    """``sets_to_lose`` (two sides): -2 when no side has reached it; else the winner, the side
    that has not (both have: the higher score, -1 on a tie, to play on)."""
    lost0 = sets[0] >= sets_to_lose
    lost1 = sets[1] >= sets_to_lose
    if not lost0 and not lost1:
        return -2
    if lost0 and lost1:
        if score[0] == score[1]:
            return -1
        return 0 if score[0] > score[1] else 1
    return 1 if lost0 else 0


@njit(cache=True, inline='always')
def _game_over(score, target, elimination, hand_limit, hands_played, thirteen_side):
    """Winning side after a hand, or -1 to play on (docs/scoring.md "End of a game").

    The game is over when a side reaches ``target``, a side falls to ``elimination``
    or ``hand_limit`` hands are played; then the one highest score wins, and a shared
    top score plays on. ``thirteen_side`` is the side that just made a contract of 13
    that wins the game, or -1. (``sets_to_lose`` is decided before, by :func:`_sets_decide`.)
    """
    if thirteen_side >= 0:
        return thirteen_side
    over = hand_limit > 0 and hands_played >= hand_limit
    best = 0
    shared = False
    for side in range(score.shape[0]):
        if score[side] >= target or score[side] <= elimination:
            over = True
        if side > 0 and score[side] == score[best]:
            shared = True
        elif score[side] > score[best]:
            best, shared = side, False
    return best if over and not shared else -1


@njit(cache=True, inline='always')
def _winner_after_hand(rules, s, played):
    """The game's winner after the hand just scored in ``s`` (the ``played``-th), or -1."""
    thirteen_side = -1
    if rules.thirteen_wins:
        for side in range(rules.side_count):
            if s.side[SIDE_CONTRACT, side] == 13 and s.side[SIDE_MADE, side] == 1:
                thirteen_side = side
    if rules.sets_to_lose > 0 and thirteen_side < 0:
        by_sets = _sets_decide(s.score, s.sets, rules.sets_to_lose)
        if by_sets != -2:
            return by_sets
    return _game_over(s.score, rules.target, rules.elimination, rules.hand_limit, played,
                      thirteen_side)


@njit(cache=True, _nrt=False)
def _play_game(rules, strat, seed, game, max_hands, s,
               game_row, games, write_hands, hand_row, hands_out, trace_out):
    """Play one game to its end (or ``max_hands``); write its game record, and its hands if asked.

    Returns the number of hands played.
    """
    n = rules.seat_count
    first = _first_dealer(seed, game, n)
    for side in range(rules.side_count):
        s.score[side] = 0
        s.bag_total[side] = 0
        s.sets[side] = 0
    _clear_game_tally(rules.side_count, game_row, games)
    whole_hand = _RUNTIME_ZERO[0] + STEP_RECORDS  # not a literal (see _RUNTIME_ZERO)
    winner = UNFINISHED
    played = _RUNTIME_ZERO[0]  # not the literal 0 (see _RUNTIME_ZERO)
    while played < max_hands and winner == UNFINISHED:
        dealer = (first + played) % n
        _play_hand_inline(rules, strat, seed, game, played, dealer, s, np.bool_(True),
                          whole_hand)
        if write_hands:
            _write_hand(rules, s, game, played, dealer, hand_row + played, hands_out,
                        np.bool_(True))
            _write_trace(s, hand_row + played, trace_out)
        _tally_hand(rules, s, game_row, games)
        _count_sets(rules, s)
        played += 1
        winner = _winner_after_hand(rules, s, played)
    _write_game(s, game_row, first, played, winner, games)
    return played

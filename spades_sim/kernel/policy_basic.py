"""The ``basic`` policy (``basic_policies`` module docstring): a trick estimate, simple card play.

One module of the policy table (``policies.TABLE``): every decision is a function
``(rules, strat, obs, rng) -> (move, rng)`` of the seat's observation
(``observation._Observation``). It draws nothing from its stream. jit-compiled; inputs not
checked.
"""

from numba import njit

from .basic_policies import (
    _basic_blind_bid,
    _bid_basic,
    _keep_first,
    _leading_other,
    _pass_card,
    _play_basic,
    _wants_blind_nil,
)
from .bits import _lowest_bit, _popcount

NAME = "basic"
"""The name strategies give it."""
READS_TABLES = False
"""Whether it reads the expert's calibration tables (then they are packed for its seats)."""
COMPILED_APART = (_play_basic,)
"""The functions it calls that are compiled on their own, not into the hand (the first run's
warm-up compiles them through ``decide._card_players``; its test checks their types)."""


@njit(cache=True, inline='always')
def _partner_bid(obs):
    """The partner's bid, -1 before it bids or without a partner."""
    return obs.bids[obs.partner] if obs.partner >= 0 else -1


@njit(cache=True, inline='always')
def blind(rules, strat, obs, rng):
    """Blind nil as a last resort: far behind, the opponents near the target."""
    side = obs.seat % rules.side_count
    leader = _leading_other(obs.score, side)
    wants = _wants_blind_nil(strat.params[obs.seat], _partner_bid(obs), leader - obs.score[side],
                             leader, rules.target)
    return (1 if wants else 0), rng


@njit(cache=True, inline='always')
def blind_bid(rules, strat, obs, rng):
    """The lowest blind bid, on the same last resort as blind nil."""
    side = obs.seat % rules.side_count
    leader = _leading_other(obs.score, side)
    return _basic_blind_bid(strat.params[obs.seat], obs.legal, leader - obs.score[side], leader,
                            rules.target), rng


@njit(cache=True, inline='always')
def bid(rules, strat, obs, rng):
    """The trick estimate, or nil on a hand with little nil risk."""
    return _bid_basic(strat.params[obs.seat], obs.hand, obs.partner, _partner_bid(obs),
                      obs.legal, rules.max_bid, rules.trick_scale, obs.bag_room,
                      rules.suit_masks, rules.suit_low, rules.trump_suit), rng


@njit(cache=True, inline='always')
def keep(rules, strat, obs, rng):
    """Keep a trump or a side ace, king or queen."""
    kept = _keep_first(obs.drawn, rules.slot_suit, rules.suit_masks, rules.suit_low,
                       rules.trump_suit)
    return (1 if kept else 0), rng


@njit(cache=True, inline='always')
def pass_card(rules, strat, obs, rng):
    """The lowest card to the blind-nil bidder, the highest back."""
    return _pass_card(obs.hand, obs.position == 1, rules.suit_masks, rules.suit_low,
                      rules.trump_suit), rng


@njit(cache=True, inline='always')
def prepare(rules, strat, obs, rng):
    """Nothing to work out before the first trick."""
    return 0, rng


@njit(cache=True, inline='always')
def play(rules, strat, obs, rng):
    """The basic card play."""
    legal = obs.legal
    if _popcount(legal) == 1:
        return _lowest_bit(legal), rng
    return _play_basic(obs.seat, obs.partner, legal, obs.hand, obs.position, obs.win_slot,
                       obs.win_seat, obs.win_suit, obs.gone, obs.bids, obs.tricks,
                       rules.seat_count, rules.suit_masks, rules.suit_low,
                       rules.trump_suit), rng

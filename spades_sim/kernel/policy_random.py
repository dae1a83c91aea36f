"""The ``random`` policy: uniform over the legal bids (never blind nil; no blind bid or one, evenly)
and the legal cards.

One module of the policy table (``policies.TABLE``): every decision is a function
``(rules, strat, obs, rng) -> (move, rng)`` of the seat's observation
(``observation._Observation``). jit-compiled; inputs not checked.
"""

import numpy as np
from numba import njit

from .bits import _nth_bit, _popcount
from .rng import _below, _next

NAME = "random"
"""The name strategies give it."""
READS_TABLES = False
"""Whether it reads the expert's calibration tables (then they are packed for its seats)."""
COMPILED_APART = ()
"""The functions it calls that are compiled on their own, not into the hand (the first run's
warm-up compiles them through ``decide._card_players``; its test checks their types)."""


@njit(cache=True, inline='always')
def _any_of(mask, rng):
    """One set bit of ``mask``, each as likely, and the stream after the draw."""
    rng, bits = _next(rng)
    mask = np.uint64(mask)
    return _nth_bit(mask, _below(bits, _popcount(mask))), rng


@njit(cache=True, inline='always')
def blind(rules, strat, obs, rng):
    """Never blind nil."""
    return 0, rng


@njit(cache=True, inline='always')
def blind_bid(rules, strat, obs, rng):
    """No blind bid or one of the numbers allowed, uniformly (asked only where blind bids are
    allowed, so no record of a table without them changes)."""
    slot, rng = _any_of(np.uint64(obs.legal | 1), rng)
    return slot, rng


@njit(cache=True, inline='always')
def bid(rules, strat, obs, rng):
    """A legal bid, uniformly."""
    return _any_of(obs.legal, rng)


@njit(cache=True, inline='always')
def keep(rules, strat, obs, rng):
    """Keep the card drawn or not, evenly."""
    rng, bits = _next(rng)
    return (1 if (bits & np.uint64(1)) == np.uint64(1) else 0), rng


@njit(cache=True, inline='always')
def pass_card(rules, strat, obs, rng):
    """Any card of the hand, uniformly."""
    return _any_of(obs.hand, rng)


@njit(cache=True, inline='always')
def prepare(rules, strat, obs, rng):
    """Nothing to work out before the first trick."""
    return 0, rng


@njit(cache=True, inline='always')
def play(rules, strat, obs, rng):
    """A legal card, uniformly."""
    return _any_of(obs.legal, rng)

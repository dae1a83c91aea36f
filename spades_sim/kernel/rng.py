"""Counter-based randomness: every stream is a pure function of its key.

Deal ``i`` of a run with seed ``s`` is shuffled from the key ``_key3(s, DEAL, i)``;
the choices a policy makes for seat ``k`` in that deal come from ``_key3(s, i, k)``
under another tag. Nothing depends on thread count or chunk size, and two runs
with the same seed see the same cards (common random numbers).

The generator for one stream is SplitMix64 (Steele, Lea and Flood 2014): the
state advances by a fixed odd constant and each output is a strong 64-bit mix of
the state, so consecutive keys give independent-looking streams.

jit-compiled; inputs not checked.
"""

import numpy as np
from numba import njit

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


@njit(cache=True, inline='always')
def _mix64(z):
    """SplitMix64's output function: a bijective avalanche mix of 64 bits."""
    z = np.uint64(z)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True, inline='always')
def _key3(a, b, c):
    """A 64-bit key that is a pure function of three integers."""
    z = _mix64(np.uint64(a) + _GOLDEN)
    z = _mix64(z ^ (np.uint64(b) + _GOLDEN * np.uint64(2)))
    return _mix64(z ^ (np.uint64(c) + _GOLDEN * np.uint64(3)))


@njit(cache=True, inline='always')
def _next(state):
    """Advance a SplitMix64 state; returns (new_state, 64 random bits)."""
    state = np.uint64(state) + _GOLDEN
    return state, _mix64(state)


@njit(cache=True, inline='always')
def _below(bits, n):
    """Map 64 random bits to an integer in [0, n) by Lemire's multiply-shift.

    The bias is at most n / 2**32, far below anything a simulation can see.
    """
    return np.int64(((bits >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))

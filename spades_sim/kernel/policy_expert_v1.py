"""The ``expert-v1`` policy (``basic_policies`` module docstring): the first release's expert, kept
unchanged as the fixed yardstick. It bids, draws and passes as ``basic``.

One module of the policy table (``policies.TABLE``): every decision is a function
``(rules, strat, obs, rng) -> (move, rng)`` of the seat's observation
(``observation._Observation``). jit-compiled; inputs not checked.
"""

from numba import njit

from .basic_policies import _play_expert_v1
from .bits import _lowest_bit, _popcount
from .policy_basic import (  # noqa: F401  (its decisions)
    bid,
    blind,
    blind_bid,
    keep,
    pass_card,
    prepare,
)

NAME = "expert-v1"
"""The name strategies give it."""
READS_TABLES = False
"""Whether it reads the expert's calibration tables (then they are packed for its seats)."""
COMPILED_APART = (_play_expert_v1,)
"""The functions it calls that are compiled on their own, not into the hand (the first run's
warm-up compiles them through ``decide._card_players``; its test checks their types)."""


@njit(cache=True, inline='always')
def play(rules, strat, obs, rng):
    """The expert-v1 card play."""
    legal = obs.legal
    if _popcount(legal) == 1:
        return _lowest_bit(legal), rng
    return _play_expert_v1(strat.params[obs.seat], obs.seat, obs.partner, legal, obs.hand,
                           obs.position, obs.win_slot, obs.win_seat, obs.win_suit, obs.gone,
                           obs.bids, obs.tricks, rules.seat_count, obs.bag_room,
                           rules.suit_masks, rules.suit_low, rules.trump_suit), rng

"""The policy table: every policy of the kernel, and the one dispatch that chooses among them.

A policy is one module with its ``NAME``, ``READS_TABLES`` (whether it reads the expert's
calibration tables) and one function per decision (:data:`DECISIONS`), each
``(rules, strat, obs, rng) -> (move, rng)``: the packed rules, the packed strategies (the
seat's parameters are ``strat.params[obs.seat]``), the seat's observation
(``observation._Observation``) and its random stream. A policy's id is its place in
:data:`TABLE`; ``strategies.POLICIES`` names them from it, ``PackedStrategies`` holds the id of
each seat's bidding and card-play policy, and the functions below (one per decision, made from
the table) call the id's function. Adding a policy is one module and one entry here
(docs/architecture.md, "Adding a policy"). jit-compiled; inputs not checked.
"""

from numba import njit

from . import policy_basic, policy_expert, policy_expert_v1, policy_random

TABLE = (policy_random, policy_basic, policy_expert_v1, policy_expert)
"""The policies; a policy's id is its place here (the records depend on no id, but keep the
order: the four built-in policies' ids are those the earlier releases packed)."""

DECISIONS = ("blind", "bid", "keep", "pass_card", "prepare", "play", "blind_bid")
"""The functions each policy module defines: blind nil (1 yes, 0 no: asked only when the rules
allow it), a bid (0 nil), the two-player draw (1 keeps the card drawn), a card passed in a
blind-nil exchange, what it works out before the first trick (``obs.notes``; the move is not
read) and a card played; last, a number of tricks bid blind (0: none; ``obs.legal`` has bit b
for each b it may bid blind: asked only when the rules allow one, before the seat looks)."""

IDS = {module.NAME: index for index, module in enumerate(TABLE)}
"""Each policy's id by its name."""


def _last(decide):
    @njit(inline='always')
    def last(policy, rules, strat, obs, rng):
        return decide(rules, strat, obs, rng)

    return last


def _either(index, decide, others):
    @njit(inline='always')
    def either(policy, rules, strat, obs, rng):
        if policy == index:
            return decide(rules, strat, obs, rng)
        return others(policy, rules, strat, obs, rng)

    return either


def _dispatch(decision: str):
    """``(policy, rules, strat, obs, rng) -> (move, rng)``: the decision ``decision`` of the
    policy with id ``policy``, one branch a table entry (the last entry takes any other id),
    compiled into its caller."""
    chosen = _last(getattr(TABLE[-1], decision))
    for index in range(len(TABLE) - 2, -1, -1):
        chosen = _either(index, getattr(TABLE[index], decision), chosen)
    return chosen


_blind, _bid, _keep, _pass_card, _prepare, _play, _blind_bid = (
    _dispatch(name) for name in DECISIONS)


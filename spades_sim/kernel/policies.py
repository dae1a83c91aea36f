"""The policy table: every policy of the kernel, and the one dispatch that chooses among them.

A policy is one module with its ``NAME``, ``READS_TABLES`` (whether it reads the expert's
calibration tables) and one function per decision (:data:`DECISIONS`), each
``(rules, strat, obs, rng) -> (move, rng)``: the packed rules, the packed strategies (the
seat's parameters are ``strat.params[obs.seat]``), the seat's observation
(``observation._Observation``) and its random stream. A policy's id is its place in
:data:`TABLE`; ``strategies.POLICIES`` names them from it, ``PackedStrategies`` holds the id of
each seat's bidding and card-play policy, and the functions below (one per decision, made from
the table) call the id's function. Adding a policy is one module and one entry here
(docs/architecture.md, "Adding a policy"); adding a decision is one name in :data:`DECISIONS`,
one function in every policy module and one call in ``decide``.

A user's own policies (``user_policies``) are entered after the table, ids ``len(TABLE)`` on, by
the type of the packed strategies: a run with user policies packs its strategies as a subclass
of ``PackedStrategies`` whose ``USER_POLICIES`` lists them (``user_policies.packed_class``), and
the dispatch, chosen when numba types it, has a branch for each after the table's. The kernel is
then compiled once more for that type (and cached under it); the built-in table's own type, and
so its compiled kernel and cache entries, are untouched (for it the ids after the table lead
nowhere: the last entry checks its id, one comparison). jit-compiled; inputs not checked.
"""

from numba import njit
from numba.core.errors import TypingError
from numba.extending import overload

from . import policy_basic, policy_expert, policy_expert_v1, policy_random

TABLE = (policy_random, policy_basic, policy_expert_v1, policy_expert)
"""The policies; a policy's id is its place here (the records depend on no id, but keep the
order: the four built-in policies' ids are those the earlier releases packed)."""

DECISIONS = ("blind", "bid", "keep", "pass_card", "prepare", "play", "blind_bid")
"""The functions each policy module defines: blind nil (1 yes, 0 no: asked only when the rules
allow it), a bid (0 nil), the two-player draw (1 keeps the card drawn), a card passed in a
blind-nil exchange, what it works out before the first trick (``obs.notes``; the move is not
read) and a card played; last, a number of tricks bid blind (0: none; ``obs.legal`` has bit b
for each b it may bid blind: asked only when the rules allow one, before the seat looks). A
user's policy defines the same (``user_policies``)."""

IDS = {module.NAME: index for index, module in enumerate(TABLE)}
"""Each policy's id by its name."""

USER_POLICIES = "USER_POLICIES"
"""The attribute of a packed-strategies class that lists the user policies of its run, in id
order from ``len(TABLE)`` (``user_policies.packed_class``); the built-in class has none."""


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


def _chain(table, decision: str, first: int = 0, last=None):
    """``(policy, rules, strat, obs, rng) -> (move, rng)``: the decision ``decision`` of the
    policy with id ``policy`` in ``table`` (ids from ``first``), one branch an entry, and any
    other id to ``last`` (None: to the last entry), compiled into its caller."""
    chosen = _last(getattr(table[-1], decision)) if last is None else last
    for index in range(len(table) - (1 if last is None else 0) - 1, -1, -1):
        chosen = _either(first + index, getattr(table[index], decision), chosen)
    return chosen


def _nothing(policy, rules, strat, obs, rng):
    """No policy after the table: the built-in packed strategies hold no other id."""
    return 0, rng


def _users(decision: str):
    """``(policy, rules, strat, obs, rng) -> (move, rng)`` for the ids after the table: the
    user policies the packed strategies' type carries (:data:`USER_POLICIES`), chosen when numba
    types the call and compiled into the caller; nothing for the built-in type."""
    chains = {}  # one chain per tuple of user policies, made once a process

    def users(policy, rules, strat, obs, rng):
        raise NotImplementedError("jit-compiled only")

    @overload(users, inline='always')
    def typed(policy, rules, strat, obs, rng):
        owner = getattr(strat, "instance_class", None)
        policies = getattr(owner, USER_POLICIES, ())
        if policies is None:  # a class rebuilt from a cache index only: never compiled for
            raise TypingError(f"{owner.__name__}: its user policies are not loaded")
        if not policies:
            return _nothing
        if policies not in chains:
            chains[policies] = _chain(policies, decision, len(TABLE))
        return chains[policies].py_func

    return users


def _dispatch(decision: str):
    """``(policy, rules, strat, obs, rng) -> (move, rng)``: the decision ``decision`` of the
    policy with id ``policy``, one branch a table entry and, past the table, the user policies
    of the packed strategies' type (:func:`_users`), compiled into its caller."""
    return _chain(TABLE, decision, 0, _users(decision))


_blind, _bid, _keep, _pass_card, _prepare, _play, _blind_bid = (
    _dispatch(name) for name in DECISIONS)

"""The built-in strategies as agents: every decision made by the kernel's own jitted functions.

A :class:`KernelAgent` does not copy a policy into Python. Each decision turns the
:class:`~spades_sim.agents.observation.Observation` into the kernel's observation vector
(``spades_sim.kernel.decide``: the seat's cards, the bids, the tricks, the cards played, the
scores and bags, the legal moves as masks of the kernel's card slots) and calls
``decide._decide``, which fills a scratch state from it and makes the decision through the very
functions the kernel's hands make it through. The random choices come from the seat's stream
of the kernel (``Observation.random_key`` is its key), carried from one decision of the hand
to the next, so a built-in agent at the Python table makes exactly the moves the kernel makes
in a simulation of the same seed (``tests/test_agents_kernel.py`` checks every move under
every preset).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import reduce
from operator import or_
from typing import Any

import numpy as np
from numba import typeof

from ..kernel import decide, drivers
from ..kernel.engine import _new_scratch
from ..kernel.packing import PackedRules, PackedStrategies, pack_rules
from ..kernel.strategies import Strategy, StrategyError, get_strategy, pack_strategies
from ..rules import RuleSet
from .observation import Observation
from .protocol import AgentError

_DECISIONS = {"blind_nil": decide.DECIDE_BLIND, "bid": decide.DECIDE_BID,
              "draw": decide.DECIDE_DRAW, "pass_card": decide.DECIDE_PASS,
              "play": decide.DECIDE_PLAY, "blind_bid": decide.DECIDE_BLIND_BID}
_WORD = 1 << 64


@dataclass
class _Table:
    """One rule set as the kernel reads it, for one strategy on every seat."""

    rules: PackedRules
    strategies: PackedStrategies
    scratch: Any
    slot: tuple[int, ...]
    """The kernel's slot of each card id (-1: not in the deck)."""
    card: tuple[int, ...]
    """The card id of each slot."""
    bit: tuple[int, ...]
    """The bit of each card id in a mask of slots (0: not in the deck)."""
    obs: np.ndarray
    """The observation vector, reused from one decision to the next."""
    decide: Callable[..., tuple[int, int]]
    """``decide._decide`` as compiled for this table's arguments (see :func:`_compiled`)."""


def _compiled(dispatcher: Any, *args: Any) -> Callable[..., Any]:
    """``dispatcher``'s compiled entry for the types of ``args`` (which it was compiled or
    loaded for), called without numba's dispatch: typing a table's packed rules, strategies
    and scratch (some eighty arrays and numbers) on every call took five times as long as the
    decision itself. The dispatcher itself when that entry cannot be found."""
    call: Callable[..., Any] = dispatcher
    try:
        found = dispatcher.overloads.get(tuple(typeof(arg) for arg in args))
        if found is not None:
            call = found.entry_point
    except Exception:  # another numba's internals: the ordinary call
        pass
    return call


_PHASE = {decide.DECIDE_DRAW: 0, decide.DECIDE_BLIND: 1, decide.DECIDE_BLIND_BID: 2,
          decide.DECIDE_BID: 3, decide.DECIDE_PASS: 4, decide.DECIDE_PLAY: 5}
"""The decisions in the order a hand asks them."""


def _progress(code: int, o: Observation) -> tuple[int, int]:
    """How far into the hand a seat's decision is: of one seat in one hand, a later decision
    compares greater (each card of the draw kept, blind nil, the bid, each card passed, each
    card played)."""
    if code == decide.DECIDE_DRAW:
        return _PHASE[code], len(o.hand)
    if code == decide.DECIDE_PASS:
        return _PHASE[code], len(o.passed)
    if code == decide.DECIDE_PLAY:
        return _PHASE[code], len(o.tricks) * o.rules.seat_count + len(o.trick)
    return _PHASE[code], 0


def _signed(value: int) -> int:
    """A 64-bit unsigned number as the int64 with the same bits."""
    return value - _WORD if value >= _WORD >> 1 else value


class KernelAgent:
    """A built-in strategy (``random``, ``basic``, ``expert-v1``, ``expert`` and the named
    variants, with their parameters) as an agent: each decision is the kernel's own.

    One agent may sit at several seats and at several tables: it keeps each seat's random
    stream for the hand in progress (keyed by ``Observation.random_key``) and one packed rule
    set per table's rules.
    """

    def __init__(self, strategy: Strategy) -> None:
        self.strategy = strategy
        """The strategy played: its policies and parameters."""
        self.name = strategy.name
        """The name in logs and messages: the strategy's (``expert[bid_offset=0.5]`` when its
        parameters were changed)."""
        self._tables: dict[RuleSet, _Table] = {}
        self._streams: dict[int, tuple[tuple[int, int], int]] = {}
        self._deal: tuple[int, int] | None = None
        self._last: tuple[RuleSet | None, _Table | None] = (None, None)

    def _table(self, rules: RuleSet) -> _Table:
        last_rules, last_table = self._last
        if rules is last_rules and last_table is not None:  # as the decision before: no hashing
            return last_table
        table = self._tables.get(rules)
        if table is None:
            packed = pack_rules(rules)
            strategies = pack_strategies([self.strategy] * rules.seat_count, rules)
            card = tuple(int(card) for card in packed.slot_card)
            slot = [-1] * 54
            for at, card_id in enumerate(card):
                if card_id >= 0:
                    slot[card_id] = at
            scratch = _new_scratch(packed)  # type: ignore[no-untyped-call]
            obs = np.zeros(decide.OBS_SIZE, np.int64)
            # Compiled (a first time: tens of seconds, with the kernel's notice) or loaded
            # from the cache before the first decision, Ctrl-C taken at once meanwhile.
            drivers.load_kernel(decide._decide, packed, strategies, scratch, obs)
            table = self._tables[rules] = _Table(
                packed, strategies, scratch, tuple(slot), card,
                tuple(0 if at < 0 else 1 << at for at in slot), obs,
                _compiled(decide._decide, packed, strategies, scratch, obs))
        self._last = (rules, table)
        return table

    def _decide(self, decision: str, observation: Observation) -> int:
        """The kernel's move: a bid, 0 or 1 (blind nil, the draw), or a card id."""
        o = observation
        table = self._table(o.rules)
        deal = (o.game, o.hand_number)
        if deal != self._deal:  # a new hand: the streams of the one before are done
            self._deal = deal
            self._streams.clear()
        rules = o.rules
        n = rules.seat_count
        slot = table.slot
        bit = table.bit.__getitem__
        code = _DECISIONS[decision]
        v = table.obs
        v[decide.OBS_DECISION] = code
        v[decide.OBS_SEAT] = o.seat
        v[decide.OBS_HAND_INDEX] = o.hand_number
        v[decide.OBS_DEALER] = o.dealer
        v[decide.OBS_HAND] = reduce(or_, map(bit, o.hand), 0)
        legal = 0
        if code in (decide.DECIDE_BID, decide.DECIDE_BLIND_BID):
            for bid in o.legal:
                legal |= 1 << bid
            if code == decide.DECIDE_BLIND_BID:
                legal &= ~1  # 0 is no blind bid, not a bid the kernel's mask holds
            v[decide.OBS_POSITION] = (o.seat - o.first_bidder) % n
        elif code in (decide.DECIDE_PASS, decide.DECIDE_PLAY):
            legal = reduce(or_, map(bit, o.legal), 0)
        v[decide.OBS_LEGAL] = legal
        if code == decide.DECIDE_PASS:
            v[decide.OBS_POSITION] = 1 if self._to_blind_nil(o) else 0
        v[decide.OBS_DRAWN] = slot[o.drawn] if o.drawn is not None else 0
        v[decide.OBS_KNOWN] = reduce(or_, map(bit, o.discards), 0)
        v[decide.OBS_PASSED] = reduce(or_, map(bit, o.passed), 0)
        v[decide.OBS_RECEIVED] = reduce(or_, map(bit, o.received), 0)
        # The seat's stream as its earlier decisions in this hand left it; a decision no later
        # in the hand than the last one seen starts the hand again (another table, in
        # duplicate, playing the same deal with this agent).
        progress = _progress(code, o)
        last = self._streams.get(o.random_key)
        state = last[1] if last is not None and last[0] < progress else o.random_key
        v[decide.OBS_STREAM] = _signed(state)
        for seat in range(n):
            made = o.bids[seat]
            v[decide.OBS_BIDS + seat] = -1 if made is None else made
            v[decide.OBS_BLIND + seat] = (1 if o.blind[seat] else
                                          2 if o.blind_bids and o.blind_bids[seat] else 0)
            v[decide.OBS_TRICKS + seat] = o.tricks_taken[seat]
        for side in range(rules.side_count):
            v[decide.OBS_SCORE + side] = o.score[side]
            v[decide.OBS_BAGS + side] = o.bags[side]
            v[decide.OBS_SETS + side] = o.sets[side] if o.sets else 0
        played = 0
        if code == decide.DECIDE_PLAY:
            v[decide.OBS_FIRST_LEADER] = o.tricks[0].leader if o.tricks else o.leader
            plays = [slot[card] for trick in o.tricks for card in trick.cards]
            plays.extend(slot[card] for card in o.trick)
            played = len(plays)
            v[decide.OBS_PLAYS:decide.OBS_PLAYS + played] = plays
        v[decide.OBS_PLAYED] = played
        move, stream = table.decide(table.rules, table.strategies, table.scratch, v)
        self._streams[o.random_key] = (progress, int(stream))
        if code in (decide.DECIDE_PASS, decide.DECIDE_PLAY):
            return table.card[int(move)]
        return int(move)

    @staticmethod
    def _to_blind_nil(o: Observation) -> bool:
        """Whether the seat passes to its side's nil bidder (else it is that bidder, passing
        back): the exchange is for the side's first blind nil in bidding order, else (with
        ``nil_pass``) for its plain nil (docs/scoring.md "The nil card pass")."""
        n = o.rules.seat_count
        side = o.rules.seat_side(o.seat)
        for k in range(n):
            seat = (o.first_bidder + k) % n
            if o.blind[seat] and o.rules.seat_side(seat) == side and o.rules.blind_nil_pass:
                return seat != o.seat
        for k in range(n):
            seat = (o.first_bidder + k) % n
            if o.bids[seat] == 0 and not o.blind[seat] and o.rules.seat_side(seat) == side:
                return seat != o.seat
        return True

    def blind_nil(self, observation: Observation) -> bool:
        """Blind nil or not, as the strategy's bidding policy decides."""
        return bool(self._decide("blind_nil", observation))

    def bid(self, observation: Observation) -> int:
        """The strategy's bid."""
        return self._decide("bid", observation)

    def blind_bid(self, observation: Observation) -> int:
        """The number of tricks the strategy's bidding policy bids blind (0: none)."""
        return self._decide("blind_bid", observation)

    def draw(self, observation: Observation) -> bool:
        """Keep the drawn card or not, as the strategy's card-play policy decides."""
        return bool(self._decide("draw", observation))

    def pass_card(self, observation: Observation) -> int:
        """The card the strategy passes in the blind-nil exchange."""
        return self._decide("pass_card", observation)

    def play(self, observation: Observation) -> int:
        """The strategy's card."""
        return self._decide("play", observation)


def kernel_agent(name: str, **params: float) -> KernelAgent:
    """The named strategy ``name`` as an agent, with ``params`` (its parameters by name, as in
    a study's strategies) changed; the agent is then named after them
    (``expert[bid_offset=0.5]``).

    :raises AgentError: an unknown strategy, or a parameter it does not take or out of range.
    """
    try:
        strategy = get_strategy(name)
        if params:
            strategy = strategy.variant(params)
    except StrategyError as error:
        raise AgentError("agent", name, f"its own parameters ({error})") from None
    return KernelAgent(strategy)

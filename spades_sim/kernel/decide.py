"""One decision at a time: every decision a seat makes, from what the seat knows.

Each function below makes one kind of decision for one seat: it makes the seat's observation
(``observation._observe``) from the hand's scratch ``s`` (``scratch._Scratch``) and the
decision's own facts, and asks the seat's policy through the policy table (``policies``), with
the seat's random stream ``s.rng[seat]``. The hand's own loop (``bidding``, ``deal``,
``play``) decides through them, and so does a built-in strategy asked from Python one decision
at a time (:func:`_decide`, for ``spades_sim.agents.kernel_agent``): both run the same code on
the same state, so an agent makes exactly the kernel's moves.

:func:`_decide` takes the seat's observation as one int64 vector (the ``OBS_*`` layout
below), fills a scratch from it and calls the decision asked for. jit-compiled; inputs not
checked.
"""

from typing import NamedTuple

import numpy as np
from numba import njit

from .basic_policies import _blind_nil_allowed, _leading_other
from .bits import _RUNTIME_ZERO
from .observation import _observe, _side_of
from .policies import _bid, _blind, _blind_bid, _keep, _pass_card, _play, _prepare
from .scoring import BLIND_COUNT_FLAG
from .trick import _beats, _seat_after

# --- the decisions, as the hand's loop makes them ---

_NO_CARD = -1
"""A slot, suit or seat that is not there (the trick's winner before the lead, the card drawn
outside the draw)."""


@njit(cache=True, inline='always')
def _blind_allowed(rules, s, seat, allowed, hand_index):
    """Whether ``seat`` may bid blind nil now (``allowed``: the bids it may make)."""
    side = _side_of(seat, rules.side_count)
    return (allowed & 1) == 1 and _blind_nil_allowed(
        rules.blind_mode, rules.blind_threshold, s.score[side], _leading_other(s.score, side),
        hand_index)


@njit(cache=True, inline='always')
def _blind_bids_allowed(rules, s, seat, allowed):
    """Bit b set when ``seat`` may bid b tricks blind now (docs/scoring.md "Blind bids"): its
    side trails by ``blind_bid_threshold`` or more, its partner has not bid blind, and b, from
    ``blind_bid_min``, is a bid it may make (``allowed``); 0 when blind bids are off."""
    if rules.blind_bid_threshold < 0:
        return 0
    side = seat % rules.side_count
    partner = rules.partner[seat]
    if partner < 0 or s.blind[partner] == BLIND_COUNT_FLAG:
        return 0
    if _leading_other(s.score, side) - s.score[side] < rules.blind_bid_threshold:
        return 0
    return allowed & ~((1 << rules.blind_bid_min) - 1)


@njit(cache=True, inline='always')
def _before_play(rules, s, seat, dealer, hand_index, hand, legal, position, drawn):
    """The observation of a decision before the first lead (nothing played yet)."""
    zero = np.uint64(0)
    return _observe(rules, s, seat, dealer, hand_index, hand, legal, position, drawn, _NO_CARD,
                    _NO_CARD, _NO_CARD, _NO_CARD, zero)


@njit(cache=True, inline='always')
def _decide_blind(rules, strat, s, seat, dealer, hand_index):
    """Whether ``seat`` bids blind nil (asked only when it may); draws from ``s.rng[seat]``."""
    obs = _before_play(rules, s, seat, dealer, hand_index, s.hands[seat], 1, 0, _NO_CARD)
    blind, s.rng[seat] = _blind(strat.bid_policy[seat], rules, strat, obs, s.rng[seat])
    return blind == 1


@njit(cache=True, inline='always')
def _decide_blind_bid(rules, strat, s, seat, dealer, position, blind_allowed, hand_index):
    """The number of tricks ``seat`` bids blind, before looking (0: none), from
    ``blind_allowed`` (bit b: b tricks); draws from ``s.rng[seat]``. The observation holds no
    cards: the seat has not looked."""
    obs = _before_play(rules, s, seat, dealer, hand_index, np.uint64(0), blind_allowed,
                       position, _NO_CARD)
    count, s.rng[seat] = _blind_bid(strat.bid_policy[seat], rules, strat, obs, s.rng[seat])
    return count if count > 0 and (blind_allowed >> count) & 1 else 0


@njit(cache=True, inline='always')
def _decide_bid(rules, strat, s, seat, dealer, position, allowed, hand_index):
    """The bid of ``seat``, the ``position``-th to bid, from the bids ``allowed`` (bit b: bid
    b, 0 nil) and its cards ``s.hands[seat]``; draws from ``s.rng[seat]``."""
    obs = _before_play(rules, s, seat, dealer, hand_index, s.hands[seat], allowed, position,
                       _NO_CARD)
    bid, s.rng[seat] = _bid(strat.bid_policy[seat], rules, strat, obs, s.rng[seat])
    return bid


@njit(cache=True, inline='always')
def _decide_keep(rules, strat, s, seat, dealer, hand_index, slot):
    """Two-player draw: whether ``seat`` keeps the card ``slot`` just drawn."""
    obs = _before_play(rules, s, seat, dealer, hand_index, s.hands[seat], 1, 0, slot)
    keep, s.rng[seat] = _keep(strat.play_policy[seat], rules, strat, obs, s.rng[seat])
    return keep == 1


@njit(cache=True, inline='always')
def _decide_pass(rules, strat, s, seat, dealer, hand_index, to_blind_nil):
    """The card (slot) ``seat`` passes from ``s.remaining[seat]`` in the blind-nil exchange;
    ``to_blind_nil``: it passes to the blind-nil bidder (else it is the bidder passing back)."""
    hand = s.remaining[seat]
    obs = _before_play(rules, s, seat, dealer, hand_index, hand, hand, 1 if to_blind_nil else 0,
                       _NO_CARD)
    slot, s.rng[seat] = _pass_card(strat.play_policy[seat], rules, strat, obs, s.rng[seat])
    return slot


@njit(cache=True, inline='always')
def _prepare_play(rules, strat, s, seat, dealer, hand_index):
    """What ``seat``'s card play reads all hand long, worked out once before the first trick
    (its policy's ``prepare``: the expert's bag costs, ``s.costs[seat]``)."""
    hand = s.remaining[seat]
    obs = _before_play(rules, s, seat, dealer, hand_index, hand, hand, 0, _NO_CARD)
    _, s.rng[seat] = _prepare(strat.play_policy[seat], rules, strat, obs, s.rng[seat])


class _Trick(NamedTuple):
    """The trick in progress, as the seat about to play sees it."""

    position: int
    """The seat's place in the trick, 0 for the leader."""
    led_suit: int
    """The suit led (-1 for the leader), and the card winning the trick so far: its slot, seat
    and suit (-1 for the leader)."""
    win_slot: int
    win_seat: int
    win_suit: int
    played: np.uint64
    """Every card played this hand, this trick's included."""


@njit(cache=True, inline='always')
def _decide_card(rules, strat, s, seat, dealer, hand_index, legal, trick):
    """The card (slot) ``seat`` plays from the ``legal`` mask of its cards
    ``s.remaining[seat]`` into ``trick`` (a :class:`_Trick`). Draws from ``s.rng[seat]``."""
    obs = _observe(rules, s, seat, dealer, hand_index, s.remaining[seat], legal, trick.position,
                   _NO_CARD, trick.led_suit, trick.win_slot, trick.win_seat, trick.win_suit,
                   trick.played)
    slot, s.rng[seat] = _play(strat.play_policy[seat], rules, strat, obs, s.rng[seat])
    return slot


@njit(cache=True, _nrt=False)
def _card_players(rules, strat, s):
    """Compiles the card players the policies call (those not compiled into the hand: the
    expert's, expert-v1's and basic's) for the argument types the hand passes them, as the
    hand passes them (through :func:`_decide_card`): a first run's warm-up compiles this
    (``warmup.callee_groups``) rather than typing their arguments out again. Plays nothing
    worth reading (a lead from seat 0's cards)."""
    zero = _RUNTIME_ZERO[0]  # not a literal: the hand's numbers are read, typed int64
    return _decide_card(rules, strat, s, zero, zero, zero, s.remaining[0],
                        _Trick(zero, zero - 1, zero - 1, zero - 1, zero - 1, np.uint64(0)))


# --- one decision asked from Python ---

DECIDE_BLIND, DECIDE_BID, DECIDE_DRAW, DECIDE_PASS, DECIDE_PLAY, DECIDE_BLIND_BID = 0, 1, 2, 3, 4, 5
"""The decisions :func:`_decide` makes (``OBS_DECISION``)."""

MAX_SEATS = 5
"""The most seats at a table."""
MAX_CARDS = 64
"""The most cards played in a hand (slots): room for every layout."""

# The observation vector :func:`_decide` reads (int64). Card sets are masks of slots
# (``packing``), cards slots; per-seat and per-side entries have MAX_SEATS places.
OBS_DECISION = 0
"""One of DECIDE_*."""
OBS_SEAT = 1
OBS_HAND_INDEX = 2
"""The hand's number in the game, from 0."""
OBS_HAND = 3
"""The seat's cards now (the draw: the cards kept so far)."""
OBS_LEGAL = 4
"""The legal moves: a mask of slots for a card, bit b for bid b (0 nil) for a bid."""
OBS_DRAWN = 5
"""The draw: the card just drawn."""
OBS_KNOWN = 6
"""Two-player: the discards the seat saw."""
OBS_POSITION = 7
"""A bid: the seat's place in the bidding order, from 0. A pass: 1 when it passes to the
blind-nil bidder, 0 when it is the bidder passing back."""
OBS_STREAM = 8
"""The seat's random stream: its state now (``s.rng[seat]``)."""
OBS_PLAYED = 9
"""Cards played so far this hand, the trick in progress included."""
OBS_FIRST_LEADER = 10
"""The seat that led the first trick."""
OBS_DEALER = 11
OBS_PASSED = 12
"""The cards the seat passed in a blind-nil exchange."""
OBS_RECEIVED = 13
"""The cards its partner passed it."""
OBS_BIDS = 14
"""Each seat's bid (-1 before it bids; blind nil is 0)."""
OBS_BLIND = OBS_BIDS + MAX_SEATS
"""Each seat: 1 when its bid is blind nil."""
OBS_TRICKS = OBS_BLIND + MAX_SEATS
"""Tricks taken by each seat."""
OBS_SCORE = OBS_TRICKS + MAX_SEATS
"""Each side's score before the hand."""
OBS_BAGS = OBS_SCORE + MAX_SEATS
"""Each side's bags before the hand."""
OBS_PLAYS = OBS_BAGS + MAX_SEATS
"""Every card played, in play order from the first lead (slots)."""
OBS_SETS = OBS_PLAYS + MAX_CARDS
"""Each side's sets earlier in the game (``sets_to_lose``)."""
OBS_SIZE = OBS_SETS + MAX_SEATS


@njit(cache=True, inline='always')
def _fill(rules, obs, s, seat):
    """Fill the scratch ``s`` with what ``obs`` says the seat knows; returns the trick in
    progress: (position, led_suit, win_slot, win_seat, win_suit)."""
    n, sides = rules.seat_count, rules.side_count
    for k in range(n):
        s.bids[k] = obs[OBS_BIDS + k]
        s.blind[k] = obs[OBS_BLIND + k]
        s.tricks[k] = obs[OBS_TRICKS + k]
        s.shown_out[k] = 0
        s.given[k] = 0
    for k in range(sides):
        s.score[k] = obs[OBS_SCORE + k]
        s.bag_total[k] = obs[OBS_BAGS + k]
        s.sets[k] = obs[OBS_SETS + k]
    hand = np.uint64(obs[OBS_HAND])
    s.hands[seat] = hand
    s.remaining[seat] = hand
    s.known[seat] = np.uint64(obs[OBS_KNOWN])
    s.rng[seat] = np.uint64(obs[OBS_STREAM])
    s.given[seat] = np.uint64(obs[OBS_PASSED])
    partner = rules.partner[seat]
    if partner >= 0:
        s.given[partner] = np.uint64(obs[OBS_RECEIVED])
    # The tricks so far, replayed: who showed out of what, and the trick in progress.
    played = obs[OBS_PLAYED]
    leader = obs[OBS_FIRST_LEADER]
    s.first_leader[0] = leader
    trump = rules.trump_suit
    position, led_suit, win_slot, win_seat, win_suit = 0, -1, -1, -1, -1
    for i in range(played):
        position = i % n
        slot = obs[OBS_PLAYS + i]
        s.plays[i] = slot
        player = _seat_after(leader, position, n)
        suit = rules.slot_suit[slot]
        if position == 0:
            led_suit, win_slot, win_seat, win_suit = suit, slot, player, suit
        else:
            if suit != led_suit:
                s.shown_out[player] |= 1 << led_suit
            if _beats(slot, win_slot, win_suit, rules.suit_masks, trump):
                win_slot, win_seat, win_suit = slot, player, suit
        if position == n - 1:
            leader = win_seat
    position = played % n
    if position == 0:
        led_suit, win_slot, win_seat, win_suit = -1, -1, -1, -1
    return position, led_suit, win_slot, win_seat, win_suit


@njit(cache=True, _nrt=False)
def _decide(rules, strat, s, obs):
    """The move of seat ``obs[OBS_SEAT]`` (playing ``strat``'s policies at its seat) for the
    decision ``obs[OBS_DECISION]``, from the observation ``obs``; returns (move, the seat's
    stream after it). A bid is a number (0 nil); blind nil and the draw 1 (yes) or 0; a blind
    bid its number (0: none, ``OBS_LEGAL`` the numbers allowed); a card a slot. ``s`` is a
    scratch for ``rules``, overwritten."""
    seat = obs[OBS_SEAT]
    dealer = obs[OBS_DEALER]
    hand_index = obs[OBS_HAND_INDEX]
    decision = obs[OBS_DECISION]
    position, led_suit, win_slot, win_seat, win_suit = _fill(rules, obs, s, seat)
    if decision == DECIDE_BLIND:
        move = 1 if _decide_blind(rules, strat, s, seat, dealer, hand_index) else 0
    elif decision == DECIDE_BLIND_BID:
        move = _decide_blind_bid(rules, strat, s, seat, dealer, obs[OBS_POSITION],
                                 obs[OBS_LEGAL], hand_index)
    elif decision == DECIDE_BID:
        move = _decide_bid(rules, strat, s, seat, dealer, obs[OBS_POSITION], obs[OBS_LEGAL],
                           hand_index)
    elif decision == DECIDE_DRAW:
        move = 1 if _decide_keep(rules, strat, s, seat, dealer, hand_index,
                                 obs[OBS_DRAWN]) else 0
    elif decision == DECIDE_PASS:
        move = _decide_pass(rules, strat, s, seat, dealer, hand_index, obs[OBS_POSITION] == 1)
    else:
        _prepare_play(rules, strat, s, seat, dealer, hand_index)
        played = np.uint64(0)
        for i in range(obs[OBS_PLAYED]):
            played |= np.uint64(1) << np.uint64(obs[OBS_PLAYS + i])
        move = _decide_card(rules, strat, s, seat, dealer, hand_index, np.uint64(obs[OBS_LEGAL]),
                            _Trick(position, led_suit, win_slot, win_seat, win_suit, played))
    return move, s.rng[seat]


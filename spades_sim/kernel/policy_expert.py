"""The ``expert`` policy: bids by expected value under the table's scoring and the game state
from calibration tables (``expert_bid``), sound card play (``expert_play``). It draws as
``basic``, and passes as ``basic`` in a blind-nil exchange; after a plain nil (``nil_pass``) it
passes as :func:`_pass_expert` says.

One module of the policy table (``policies.TABLE``): every decision is a function
``(rules, strat, obs, rng) -> (move, rng)`` of the seat's observation
(``observation._Observation``). jit-compiled; inputs not checked.
"""

from numba import njit

from .bits import _highest_bit, _lowest_bit, _popcount
from .expert_bid import (
    _bid_expert,
    _blind_bid_expert,
    _horizon,
    _next_bag_cost,
    _wants_blind_expert,
)
from .expert_play import _play_expert
from .params import P_BAG_WEIGHT
from .policy_basic import keep  # noqa: F401  (its decision)
from .policy_basic import pass_card as _pass_basic
from .scoring import BLIND_COUNT_FLAG, SCORING_FAILED_PER_BID, SCORING_ZERO_BID
from .scratch import COST_OPPONENTS, COST_OWN_SIDE

NAME = "expert"
"""The name strategies give it."""
READS_TABLES = True
"""Whether it reads the expert's calibration tables (then they are packed for its seats)."""
COMPILED_APART = (_play_expert,)
"""The functions it calls that are compiled on their own, not into the hand (the first run's
warm-up compiles them through ``decide._card_players``; its test checks their types)."""


@njit(cache=True, inline='always')
def blind(rules, strat, obs, rng):
    """Blind nil when its chance to win the game beats an ordinary hand's (``expert_bid``)."""
    wants, rng = _wants_blind_expert(rules, strat, strat.params[obs.seat], obs.seat, obs.bids,
                                     obs.score, obs.hand_index, obs.work, rng)
    return (1 if wants else 0), rng


@njit(cache=True, inline='always')
def _last_set(rules, obs):
    """Whether one more set loses the seat's side the game (``sets_to_lose``)."""
    return (rules.sets_to_lose > 0
            and obs.sets[obs.seat % rules.side_count] >= rules.sets_to_lose - 1)


@njit(cache=True, inline='always')
def blind_bid(rules, strat, obs, rng):
    """A blind bid when its chance to win the game beats an ordinary hand's (``expert_bid``)."""
    return _blind_bid_expert(rules, strat, strat.params[obs.seat], obs.seat, obs.legal,
                             obs.bids, obs.score, obs.hand_index, obs.work,
                             _last_set(rules, obs)), rng


@njit(cache=True, inline='always')
def bid(rules, strat, obs, rng):
    """The bid of the best expected value (``expert_bid``)."""
    partner_blind = obs.partner >= 0 and obs.blind[obs.partner] == BLIND_COUNT_FLAG
    return _bid_expert(rules, strat, strat.params[obs.seat], obs.seat, obs.position, obs.legal,
                       obs.hand, obs.bids, obs.score, obs.bags, obs.hand_index, obs.work, rng,
                       partner_blind, _last_set(rules, obs))


@njit(cache=True, inline='always')
def _pass_expert(hand, to_nil, suit_masks, suit_low, trump_suit):
    """The card a seat passes in a plain nil's exchange (docs/strategies.md).

    To the nil bidder (``to_nil``): its lowest side card, from its longest suit when ranks tie
    (a low card helps the nil duck; the partner keeps its trumps and high cards, which cover
    the nil); a trump only when it holds nothing else. The nil bidder, back: its highest trump
    (a trump wins every trick it is played to once its suit is out), else its most dangerous
    side card: the highest counted from the top of its suit, from its shortest suit when they
    tie (a high card in a short suit cannot be ducked under for long).
    """
    best = -1
    best_score = -1000_000
    for suit in range(4):
        in_suit = hand & suit_masks[suit]
        if in_suit == 0:
            continue
        length = _popcount(in_suit)
        top = suit_low[suit] + _popcount(suit_masks[suit]) - 1
        if to_nil:
            slot = _lowest_bit(in_suit)
            score = -100 * (slot - suit_low[suit]) + length
            if suit == trump_suit:
                score -= 10_000
        else:
            slot = _highest_bit(in_suit)
            score = -100 * (top - slot) - length
            if suit == trump_suit:
                score += 10_000
        if score > best_score:
            best, best_score = slot, score
    return best


@njit(cache=True, inline='always')
def pass_card(rules, strat, obs, rng):
    """After a blind nil as ``basic`` (the lowest card to the bidder, the highest back); after a
    plain nil, :func:`_pass_expert`."""
    to_nil = obs.position == 1
    nil_seat = obs.partner if to_nil else obs.seat
    if obs.blind[nil_seat] == 1:
        return _pass_basic(rules, strat, obs, rng)
    return _pass_expert(obs.hand, to_nil, rules.suit_masks, rules.suit_low,
                        rules.trump_suit), rng


@njit(cache=True, inline='always')
def prepare(rules, strat, obs, rng):
    """What one more bag costs the seat's side and (on average) its opponents, read by its card
    play all hand long: ``obs.notes[COST_OWN_SIDE]`` and ``obs.notes[COST_OPPONENTS]``."""
    horizon = _horizon(rules, strat, obs.score, obs.hand_index)
    weight = strat.params[obs.seat][P_BAG_WEIGHT]
    sides = rules.side_count
    own = obs.seat % sides
    opponents = 0.0
    for side in range(sides):
        cost = _next_bag_cost(rules, strat, horizon, obs.bags[side], weight)
        if side == own:
            obs.notes[COST_OWN_SIDE] = cost
        else:
            opponents += cost
    obs.notes[COST_OPPONENTS] = opponents / (sides - 1)
    return 0, rng


@njit(cache=True, inline='always')
def play(rules, strat, obs, rng):
    """The expert card play (``expert_play``)."""
    legal = obs.legal
    if _popcount(legal) == 1:
        return _lowest_bit(legal), rng
    return _play_expert(strat.params[obs.seat], obs.seat, obs.partner, legal, obs.hand,
                        obs.position, obs.led_suit, obs.win_slot, obs.win_seat, obs.win_suit,
                        obs.gone, obs.shown_out, obs.bids, obs.tricks, rules.seat_count,
                        obs.notes[COST_OWN_SIDE], obs.notes[COST_OPPONENTS],
                        10.0 + rules.scoring[SCORING_FAILED_PER_BID],
                        -1 if rules.scoring[SCORING_ZERO_BID] == 1 else 0, rules.suit_masks,
                        rules.suit_low, rules.trump_suit), rng

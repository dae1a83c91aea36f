"""Card play: thirteen tricks (or ``hand_size``) from the hands after the exchange.

jit-compiled; inputs not checked.
"""

import numpy as np
from numba import njit

from .bits import _RUNTIME_ZERO
from .expert_bid import _horizon, _next_bag_cost
from .params import P_BAG_WEIGHT, POLICY_EXPERT
from .policy import _choose_card
from .scoring import _bag_room
from .scratch import COST_OPPONENTS, COST_OWN_SIDE
from .trick import _beats, _follow_mask, _lead_mask, _seat_after

# First-lead codes (``PackedRules.first_lead_mode``).
LEAD_NO_TRUMP = 0
"""The first lead may not be a trump unless the leader holds only trumps."""
LEAD_LOWEST_CLUB = 1
"""The holder of the deck's lowest club leads it."""
LEAD_ORDINARY = 2
"""The first lead follows the ordinary leading rule."""


@njit(cache=True, inline='always')
def _bag_costs(rules, tables, params, seat, score, bag_total, hand_index, costs):
    """What one more bag costs ``seat``'s side and (on average) its opponents, for the expert's
    card play: ``costs[seat, COST_OWN_SIDE]`` and ``costs[seat, COST_OPPONENTS]``."""
    horizon = _horizon(rules, tables, score, hand_index)
    weight = params[P_BAG_WEIGHT]
    sides = rules.side_count
    own = seat % sides
    opponents = 0.0
    for side in range(sides):
        cost = _next_bag_cost(rules, tables, horizon, bag_total[side], weight)
        if side == own:
            costs[seat, COST_OWN_SIDE] = cost
        else:
            opponents += cost
    costs[seat, COST_OPPONENTS] = opponents / (sides - 1)


@njit(cache=True, inline='always')
def _first_leader(rules, dealer, remaining):
    """The seat that leads the first trick: the holder of the lowest club, or the seat
    ``first_lead_offset`` after the dealer."""
    n = rules.seat_count
    leader = _seat_after(dealer, rules.first_lead_offset, n)
    if rules.first_lead_mode == LEAD_LOWEST_CLUB:
        lowest_club = np.uint64(1) << np.uint64(rules.suit_low[0])
        for seat in range(n):
            if remaining[seat] & lowest_club:
                leader = seat
    return leader


@njit(cache=True, inline='always')
def _play_tricks(rules, strat, dealer, hand_index, s):
    """Play every trick from ``s.remaining``; writes ``s.first_leader``, ``s.plays``,
    ``s.winners`` and ``s.tricks``."""
    # Arrays are bound to locals once: reading them through the tuples inside the loop
    # costs a reference-count update per access.
    n = rules.seat_count
    trump = rules.trump_suit
    suit_masks, suit_low, slot_suit = rules.suit_masks, rules.suit_low, rules.slot_suit
    remaining, rng, bids, tricks = s.remaining, s.rng, s.bids, s.tricks
    plays, winners, known, partners = s.plays, s.winners, s.known, rules.partner
    shown_out, costs = s.shown_out, s.costs
    play_policy, params = strat.play_policy, strat.params
    bag_total = s.bag_total
    set_unit = 10.0 + rules.failed_per_bid  # a set loses the made value and the set value
    for seat in range(n):
        tricks[seat] = 0
        shown_out[seat] = 0
        if play_policy[seat] == POLICY_EXPERT:
            _bag_costs(rules, strat, params[seat], seat, s.score, bag_total, hand_index,
                       costs)
    played = np.uint64(0)
    broken = False
    lowest_club = np.uint64(1) << np.uint64(rules.suit_low[0])
    leader = _first_leader(rules, dealer, remaining)
    s.first_leader[0] = leader
    for t in range(rules.hand_size):
        led_suit = _RUNTIME_ZERO[0] - 1  # not the literal -1 (see _RUNTIME_ZERO)
        win_slot = led_suit
        win_seat = led_suit
        win_suit = led_suit
        for k in range(n):
            seat = _seat_after(leader, k, n)
            hand = remaining[seat]
            if k == 0:
                if t == 0 and rules.first_lead_mode == LEAD_LOWEST_CLUB:
                    legal = lowest_club
                else:
                    first_no_trump = t == 0 and rules.first_lead_mode == LEAD_NO_TRUMP
                    free = broken or (rules.lead_any_time and not first_no_trump)
                    legal = _lead_mask(hand, suit_masks, trump, free)
            else:
                legal = _follow_mask(hand, led_suit, suit_masks)
            slot, rng[seat] = _choose_card(
                play_policy[seat], params[seat], seat, partners[seat], legal, hand, k, led_suit,
                win_slot, win_seat, win_suit, played | known[seat], shown_out, bids, tricks, n,
                _bag_room(rules, bag_total[seat % rules.side_count]), costs[seat, COST_OWN_SIDE],
                costs[seat, COST_OPPONENTS], set_unit, suit_masks, suit_low, trump, rng[seat])
            bit = np.uint64(1) << np.uint64(slot)
            remaining[seat] = hand & ~bit
            played |= bit
            plays[t * n + k] = slot
            suit = slot_suit[slot]
            if k == 0:
                led_suit = suit
                win_slot, win_seat, win_suit = slot, seat, suit
            else:
                if suit != led_suit:
                    shown_out[seat] |= 1 << led_suit
                if suit == trump and led_suit != trump:
                    broken = True
                if _beats(slot, win_slot, win_suit, suit_masks, trump):
                    win_slot, win_seat, win_suit = slot, seat, suit
        winners[t] = win_seat
        tricks[win_seat] += 1
        leader = win_seat

"""The built-in ``basic`` policy written again as a user's own kernel policy.

Seven numba-jitted functions of the seat's observation, one per decision, each
``(rules, strat, obs, rng) -> (move, rng)``, gathered in ``BASIC_AGAIN`` (a ``KernelPolicy``).
The kernel compiles them into its hand, so this plays at the kernel's speed and makes exactly
the built-in ``basic``'s moves (tests/test_user_policies.py compares their records). Play it
from a strategy file (``examples/basic-again.toml``)::

    spades-sim simulate --strategy examples/basic-again.toml --hands 100000

or from Python, naming it where a strategy takes a policy::

    Strategy("basic-again", "examples/basic_again.py:BASIC_AGAIN",
             "examples/basic_again.py:BASIC_AGAIN")

Card sets are masks of slots (a bit a card: each suit a run of bits, lowest card first, trumps
the highest run; ``rules.suit_masks[suit]``, ``rules.suit_low[suit]`` its first slot); only the
kernel's bit helpers are borrowed. docs/agents.md ("Your own policy in the kernel") says more.
"""

import numpy as np
from numba import njit

from spades_sim.kernel.bits import _bits_above, _highest_bit, _lowest_bit, _popcount
from spades_sim.kernel.params import (
    P_BAG_BID,
    P_BAG_NEAR,
    P_BID_OFFSET,
    P_BLIND_DEFICIT,
    P_BLIND_NEAR,
    P_COVER_BONUS,
    P_NIL_THRESHOLD,
    P_SOLO_NIL_THRESHOLD,
)
from spades_sim.kernel.user_policies import KernelPolicy

# --- what a hand is worth ---


@njit(inline='always')
def holds_from_top(hand, rules, suit, k):
    """Whether ``hand`` holds the k-th highest card of ``suit`` (k = 0: its ace)."""
    slot = rules.suit_low[suit] + _popcount(rules.suit_masks[suit]) - 1 - k
    return (hand >> np.uint64(slot)) & np.uint64(1) == np.uint64(1)


@njit(inline='always')
def tricks_expected(hand, rules):
    """Trump honours (guarded) and length, side aces, kings and queens, short suits."""
    trump = rules.trump_suit
    trumps = _popcount(hand & rules.suit_masks[trump])
    tricks = 0.0
    honours = 0
    for k in range(3):
        if holds_from_top(hand, rules, trump, k):
            honours += 1
            tricks += 1.0 if trumps > k else 0.5
    tricks += min(max(trumps - 3, 0), trumps - honours)
    for suit in range(4):
        if suit == trump:
            continue
        length = _popcount(hand & rules.suit_masks[suit])
        if length == 0:
            if trumps >= 3:
                tricks += 0.6
            continue
        if holds_from_top(hand, rules, suit, 0):
            tricks += 1.0 if length <= 6 else 0.5
        elif length == 1 and trumps >= 3:
            tricks += 0.3
        if holds_from_top(hand, rules, suit, 1) and 2 <= length <= 5:
            tricks += 0.8
        if holds_from_top(hand, rules, suit, 2) and 3 <= length <= 4:
            tricks += 0.4
    return tricks


@njit(inline='always')
def nil_danger(hand, rules):
    """How likely the hand is to take a trick: high trumps, trump length, bare side honours."""
    trump = rules.trump_suit
    trumps = _popcount(hand & rules.suit_masks[trump])
    danger = 0.3 * max(trumps - 3, 0)
    weights = (1.0, 1.0, 1.0, 0.6, 0.35)  # A K Q J 10 of trumps
    for k in range(5):
        if holds_from_top(hand, rules, trump, k):
            danger += weights[k]
    for suit in range(4):
        if suit == trump:
            continue
        length = _popcount(hand & rules.suit_masks[suit])
        if holds_from_top(hand, rules, suit, 0):
            danger += 0.9
        if holds_from_top(hand, rules, suit, 1):
            danger += 0.8 if length <= 2 else 0.5
        if holds_from_top(hand, rules, suit, 2) and length <= 2:
            danger += 0.25
    return danger


@njit(inline='always')
def partner_bid(obs):
    """The partner's bid, -1 before it bids or without a partner."""
    return obs.bids[obs.partner] if obs.partner >= 0 else -1


@njit(inline='always')
def nearest_allowed(bid, allowed, most):
    """The allowed count bid nearest ``bid`` (the higher on a tie), -1 if none."""
    for distance in range(most + 1):
        for candidate in (bid + distance, bid - distance):
            if 1 <= candidate <= most and (allowed >> candidate) & 1:
                return candidate
    return -1


# --- which card ---


@njit(inline='always')
def lowest(mask, rules):
    """The lowest-ranked card of ``mask``, a non-trump when ranks tie."""
    best, best_rank = -1, 99
    for suit in range(4):
        in_suit = mask & rules.suit_masks[suit]
        if in_suit == 0:
            continue
        slot = _lowest_bit(in_suit)
        rank = slot - rules.suit_low[suit]
        if rank < best_rank or (rank == best_rank and best >= rules.suit_low[rules.trump_suit]):
            best, best_rank = slot, rank
    return best


@njit(inline='always')
def highest(mask, rules):
    """The highest-ranked card of ``mask``, a trump when ranks tie."""
    best, best_rank = -1, -1
    for suit in range(4):
        in_suit = mask & rules.suit_masks[suit]
        if in_suit == 0:
            continue
        slot = _highest_bit(in_suit)
        rank = slot - rules.suit_low[suit]
        if rank > best_rank or (rank == best_rank and suit == rules.trump_suit):
            best, best_rank = slot, rank
    return best


@njit(inline='always')
def winning_cards(obs, rules):
    """Every card that would beat the card winning the trick now."""
    above = _bits_above(obs.win_slot)
    trumps = rules.suit_masks[rules.trump_suit]
    if obs.win_suit == rules.trump_suit:
        return trumps & above
    return (rules.suit_masks[obs.win_suit] & above) | trumps


@njit(inline='always')
def under(legal, beats, rules):
    """The highest card that does not win; if every card wins, the highest."""
    losing = legal & ~beats
    return highest(losing if losing != 0 else legal, rules)


@njit(inline='always')
def lead(obs, rules, need):
    """A boss card while the contract needs tricks, else the lowest card."""
    legal = obs.legal
    if need > 0:
        for suit in range(4):
            mine = legal & rules.suit_masks[suit]
            if mine == 0:
                continue
            top = _highest_bit(mine)
            out = rules.suit_masks[suit] & ~obs.gone & ~obs.hand
            boss = out == 0 or top > _highest_bit(out)
            # a trump only when it draws trumps still out (or nothing else may be led)
            if boss and (suit != rules.trump_suit or legal == mine
                         or out & rules.suit_masks[rules.trump_suit] != 0):
                return top
    return lowest(legal, rules)


@njit(inline='always')
def card(obs, rules):
    """Make the contract cheaply, duck once made, cover a partner's nil, sink an opponent's."""
    seat, partner, bids, tricks, legal = obs.seat, obs.partner, obs.bids, obs.tricks, obs.legal
    my_nil = bids[seat] == 0
    partner_nil = partner >= 0 and bids[partner] == 0 and tricks[partner] == 0
    their_nil = False
    their_nil_to_play = False  # a live opposing nil bidder plays after this seat in this trick
    n = rules.seat_count
    for other in range(1, n):
        opponent = seat + other - n if seat + other >= n else seat + other
        if opponent != partner and bids[opponent] == 0 and tricks[opponent] == 0:
            their_nil = True
            if obs.position + other < n:
                their_nil_to_play = True
    need = bids[seat] - tricks[seat] if bids[seat] > 0 else 0
    if partner >= 0 and bids[partner] > 0:
        need += bids[partner] - tricks[partner]
    if obs.position == 0:
        if my_nil or their_nil:
            return lowest(legal, rules)
        if partner_nil:
            return _highest_bit(legal)
        return lead(obs, rules, need)
    beats = winning_cards(obs, rules)
    winners = legal & beats
    if my_nil:
        return under(legal, beats, rules)
    if partner_nil:
        if obs.win_seat == partner and winners != 0:
            return _lowest_bit(winners)  # take the trick off the nil bidder
        if obs.win_seat != partner and obs.position < 2:
            return _highest_bit(legal)  # high before the nil bidder has to play
    if their_nil:
        losing = legal & ~beats
        if their_nil_to_play and losing != 0:
            return lowest(losing, rules)  # keep the bar low for the nil bidder still to play
        return under(legal, beats, rules)  # leave the nil bidder's card winning
    if need > 0:
        if winners != 0 and obs.win_seat != partner:
            return _lowest_bit(winners)
        return lowest(legal, rules)
    return under(legal, beats, rules)


# --- the seven decisions ---


@njit(inline='always')
def last_resort(obs, rules, params):
    """Far behind the leader, who is near the target: the time for a blind gamble."""
    side = obs.seat % rules.side_count
    leader = -(2**62)
    for other in range(obs.score.shape[0]):
        if other != side and obs.score[other] > leader:
            leader = obs.score[other]
    return (leader - obs.score[side] >= params[P_BLIND_DEFICIT]
            and leader >= rules.target - params[P_BLIND_NEAR])


@njit(inline='always')
def blind(rules, strat, obs, rng):
    """Blind nil as a last resort, unless the partner bid nil."""
    wants = partner_bid(obs) != 0 and last_resort(obs, rules, strat.params[obs.seat])
    return (1 if wants else 0), rng


@njit(inline='always')
def blind_bid(rules, strat, obs, rng):
    """Where the rules allow a number bid blind: the lowest allowed, as the same last resort."""
    if last_resort(obs, rules, strat.params[obs.seat]):
        return _lowest_bit(np.uint64(obs.legal)), rng
    return 0, rng


@njit(inline='always')
def bid(rules, strat, obs, rng):
    """Nil on a hand with little nil danger, else the trick estimate."""
    params = strat.params[obs.seat]
    partner = partner_bid(obs)
    threshold = params[P_NIL_THRESHOLD] if obs.partner >= 0 else params[P_SOLO_NIL_THRESHOLD]
    if obs.legal & 1 and partner != 0 and nil_danger(obs.hand, rules) <= threshold:
        return 0, rng
    estimate = tricks_expected(obs.hand, rules) * rules.trick_scale + params[P_BID_OFFSET]
    if partner == 0:
        estimate += params[P_COVER_BONUS]
    if obs.bag_room <= params[P_BAG_NEAR]:
        estimate += params[P_BAG_BID]
    tricks = int(np.floor(estimate + 0.5))
    if partner > 0:
        tricks = min(tricks, rules.max_bid - partner)
    tricks = nearest_allowed(min(max(tricks, 1), rules.max_bid), obs.legal, rules.max_bid)
    return (tricks if tricks >= 0 else 0), rng


@njit(inline='always')
def keep(rules, strat, obs, rng):
    """The draw: keep a trump or a side ace, king or queen."""
    suit = rules.slot_suit[obs.drawn]
    from_top = rules.suit_low[suit] + _popcount(rules.suit_masks[suit]) - 1 - obs.drawn
    return (1 if suit == rules.trump_suit or from_top < 3 else 0), rng


@njit(inline='always')
def pass_card(rules, strat, obs, rng):
    """The lowest card to the blind-nil bidder, the highest back."""
    if obs.position == 1:
        return lowest(obs.hand, rules), rng
    return highest(obs.hand, rules), rng


@njit(inline='always')
def prepare(rules, strat, obs, rng):
    """Nothing to work out before the first trick."""
    return 0, rng


@njit(inline='always')
def play(rules, strat, obs, rng):
    """The one legal card, or the card play above."""
    if _popcount(obs.legal) == 1:
        return _lowest_bit(obs.legal), rng
    return card(obs, rules), rng


BASIC_AGAIN = KernelPolicy(
    "basic-again", blind=blind, bid=bid, keep=keep, pass_card=pass_card, prepare=prepare,
    play=play, blind_bid=blind_bid,
    params=("bid_offset", "nil_threshold", "blind_nil_deficit", "blind_nil_near", "cover_bonus",
            "solo_nil_threshold", "bag_near", "bag_bid"))
"""The policy: named ``examples/basic_again.py:BASIC_AGAIN`` in a strategy."""

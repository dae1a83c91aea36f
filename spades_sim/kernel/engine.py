"""Hand, game and chunk drivers: deal → bid → play → score, writing fixed-width records.

Deal ``h`` of game ``g`` in a run with seed ``s`` is shuffled from the key
``_key3(s, g, h)``; the first dealer of game ``g`` comes from another key, and the
dealer then rotates clockwise. A hand-only run plays deal 0 of games 0, 1, 2, …
so hand ``i`` of a hand run is exactly the first hand of game ``i`` of a game run
with the same seed. Policies draw from streams keyed by (seed, game, hand, seat).

The record layouts (``HandRecords``, ``HandTrace``, ``GameRecords``) are
NamedTuples of arrays; ``spades_sim.run.records`` turns them into DataFrames.
jit-compiled; inputs not checked.
"""

from typing import NamedTuple

import numpy as np
from numba import njit

from .bits import _RUNTIME_ZERO, _highest_bit, _popcount
from .expert_bid import (
    WORK_SIZE,
    _bid_expert,
    _horizon,
    _next_bag_cost,
    _wants_blind_expert,
)
from .params import P_BAG_WEIGHT, POLICY_EXPERT
from .policy import (
    _blind_nil_allowed,
    _choose_bid,
    _choose_card,
    _keep_first,
    _nil_risk,
    _pass_card,
    _wants_blind_nil,
)
from .rng import _below, _key3, _next
from .scoring import _contract_points, _score_side
from .trick import _follow_mask, _lead_mask, _seat_after

_DEALER_SALT = np.uint64(0x5EA7DEA1E5)
_POLICY_SALT = np.uint64(0x90111C1E5)

UNFINISHED = -1
"""``GameRecords.winner`` of a game stopped at the hand cap."""
FREE_BID = -1
"""``_Scratch.forced``: the seat bids by its policy."""
BLIND_BID = 100
"""``_Scratch.forced``: the seat bids blind nil."""

# First-lead codes (``PackedRules.first_lead_mode``).
LEAD_NO_TRUMP = 0
"""The first lead may not be a trump unless the leader holds only trumps."""
LEAD_LOWEST_CLUB = 1
"""The holder of the deck's lowest club leads it."""
LEAD_ORDINARY = 2
"""The first lead follows the ordinary leading rule."""

# Forced-bid modes (``PackedRules.forced_mode``).
FORCED_NONE, FORCED_SUICIDE, FORCED_MIRROR, FORCED_WHIZ = 0, 1, 2, 3


class HandRecords(NamedTuple):
    """Per-hand records; row = hand. Seat columns are (n, seats), side columns (n, sides).

    Hand features (spades … nil_risk) describe the cards as dealt, before any exchange.
    """

    game: np.ndarray  # int64 (n,)
    hand: np.ndarray  # int32 (n,): index within the game
    dealer: np.ndarray  # int8 (n,)
    bid: np.ndarray  # int8 (n, seats): 0 = nil
    blind: np.ndarray  # int8 (n, seats): 1 = blind nil
    tricks: np.ndarray  # int8 (n, seats)
    spades: np.ndarray  # int8 (n, seats): trumps held
    top_spade: np.ndarray  # int8 (n, seats): rank of the highest trump held, -1 for none
    aces: np.ndarray  # int8 (n, seats): printed aces held
    kings: np.ndarray  # int8 (n, seats)
    voids: np.ndarray  # int8 (n, seats): suits with no card
    nil_risk: np.ndarray  # float32 (n, seats): the basic policy's nil-risk score
    contract: np.ndarray  # int8 (n, sides)
    made: np.ndarray  # int8 (n, sides)
    points: np.ndarray  # int32 (n, sides): score change, penalty included
    bags: np.ndarray  # int8 (n, sides): bags taken this hand
    penalty: np.ndarray  # int32 (n, sides)
    score: np.ndarray  # int32 (n, sides): after the hand
    bag_total: np.ndarray  # int8 (n, sides): after the hand


class HandTrace(NamedTuple):
    """Everything needed to write a hand log; row = hand."""

    hands: np.ndarray  # uint64 (n, seats): slots dealt (kept, in the two-player draw)
    discards: np.ndarray  # uint64 (n, seats): slots discarded in the two-player draw
    given: np.ndarray  # uint64 (n, seats): slots passed in the blind-nil exchange
    plays: np.ndarray  # int8 (n, seats * hand_size): slots in play order
    winners: np.ndarray  # int8 (n, hand_size): seat winning each trick


class GameRecords(NamedTuple):
    """Per-game records; row = game. Side columns are (n, sides) and count over the game's hands."""

    first_dealer: np.ndarray  # int8 (n,)
    hands: np.ndarray  # int32 (n,): hands played
    winner: np.ndarray  # int8 (n,): side, or UNFINISHED
    score: np.ndarray  # int32 (n, sides): final
    bag_total: np.ndarray  # int8 (n, sides): final
    contracts: np.ndarray  # int32 (n, sides): hands with a contract > 0
    made: np.ndarray  # int32 (n, sides): of those, made
    nil_bids: np.ndarray  # int32 (n, sides): nil bids (not blind)
    nil_made: np.ndarray  # int32 (n, sides)
    blind_bids: np.ndarray  # int32 (n, sides)
    blind_made: np.ndarray  # int32 (n, sides)
    bags: np.ndarray  # int32 (n, sides): bags taken
    penalty: np.ndarray  # int32 (n, sides): points lost to bag penalties
    bid_error: np.ndarray  # int32 (n, sides): sum over hands with a contract of
    # |contract - tricks of the count bidders|


class _Scratch(NamedTuple):
    cards: np.ndarray  # int64 (deck,)
    hands: np.ndarray  # uint64 (seats,): as dealt (kept, in the draw)
    discards: np.ndarray  # uint64 (seats,): two-player draw
    known: np.ndarray  # uint64 (seats,): discards the seat saw, out of play
    given: np.ndarray  # uint64 (seats,): passed in the blind-nil exchange
    remaining: np.ndarray  # uint64 (seats,)
    rng: np.ndarray  # uint64 (seats,)
    bids: np.ndarray  # int64 (seats,)
    blind: np.ndarray  # int64 (seats,)
    tricks: np.ndarray  # int64 (seats,)
    plays: np.ndarray  # int64 (seats * hand_size,)
    winners: np.ndarray  # int64 (hand_size,)
    score: np.ndarray  # int64 (sides,)
    bag_total: np.ndarray  # int64 (sides,)
    side: np.ndarray  # int64 (6, sides): points, bags, penalty, made, contract and the count
    # bidders' tricks of the last hand
    forced: np.ndarray  # int64 (seats + 1,): a bid each seat must make (FREE_BID: its policy's;
    # BLIND_BID: blind nil); the last entry is 1 while every forced bid was allowed, else 0
    shown_out: np.ndarray  # int64 (seats,): bit s set once the seat failed to follow suit s
    costs: np.ndarray  # float64 (seats, 2): what a bag costs the seat's side and its opponents
    work: np.ndarray  # float64 (WORK_SIZE,): the expert bidder's scratch space


@njit(cache=True)
def _new_scratch(rules):
    n, sides, hand_size = rules.seat_count, rules.side_count, rules.hand_size
    return _Scratch(
        np.empty(rules.deck_slots.shape[0], np.int64), np.zeros(n, np.uint64),
        np.zeros(n, np.uint64), np.zeros(n, np.uint64), np.zeros(n, np.uint64),
        np.zeros(n, np.uint64), np.zeros(n, np.uint64),
        np.zeros(n, np.int64), np.zeros(n, np.int64),
        np.zeros(n, np.int64), np.zeros(n * hand_size, np.int64),
        np.zeros(hand_size, np.int64), np.zeros(sides, np.int64), np.zeros(sides, np.int64),
        np.zeros((6, sides), np.int64), _free_bids(n), np.zeros(n, np.int64),
        np.zeros((n, 2), np.float64), np.zeros(WORK_SIZE, np.float64),
    )


@njit(cache=True)
def _free_bids(seats):
    """``_Scratch.forced`` with no seat forced (and the validity flag set)."""
    forced = np.full(seats + 1, FREE_BID, np.int64)
    forced[seats] = 1
    return forced


@njit(cache=True, inline='always')
def _first_dealer(seed, game, seat_count):
    return _below(_key3(np.uint64(seed) ^ _DEALER_SALT, game, 0), seat_count)


@njit(cache=True, inline='always')
def _shuffle(deck_slots, key, cards):
    """Put the deck into ``cards`` in the Fisher-Yates order drawn from ``key``."""
    n = deck_slots.shape[0]
    for k in range(n):
        cards[k] = deck_slots[k]
    state = np.uint64(key)
    for k in range(n - 1, 0, -1):
        state, bits = _next(state)
        j = _below(bits, k + 1)
        cards[k], cards[j] = cards[j], cards[k]


@njit(cache=True, inline='always')
def _deal(deck_slots, seat_count, hand_size, key, cards, hands):
    """Shuffle the deck and deal ``hand_size`` cards a seat."""
    _shuffle(deck_slots, key, cards)
    for seat in range(seat_count):
        hands[seat] = 0
    k = 0
    for seat in range(seat_count):
        for _ in range(hand_size):
            hands[seat] |= np.uint64(1) << np.uint64(cards[k])
            k += 1


@njit(cache=True, inline='always')
def _draw_deal(rules, play_policy, key, first, s):
    """The two-player keep-or-discard draw (docs/scoring.md); ``first`` draws first.

    Writes ``s.hands`` (kept), ``s.discards`` and ``s.known`` (discards the drawer saw).
    """
    _shuffle(rules.deck_slots, key, s.cards)
    for seat in range(2):
        s.hands[seat] = 0
        s.discards[seat] = 0
        s.known[seat] = 0
    one = np.uint64(1)
    for turn in range(rules.deck_slots.shape[0] // 2):
        seat = (first + turn) % 2
        top, below = s.cards[2 * turn], s.cards[2 * turn + 1]
        keep, s.rng[seat] = _keep_first(play_policy[seat], top, rules.slot_suit, rules.suit_masks,
                                        rules.suit_low, rules.trump_suit, s.rng[seat])
        if keep:
            s.hands[seat] |= one << np.uint64(top)
            s.discards[seat] |= one << np.uint64(below)
            if rules.draw_second_seen:
                s.known[seat] |= one << np.uint64(below)
        else:
            s.hands[seat] |= one << np.uint64(below)
            s.discards[seat] |= one << np.uint64(top)
            s.known[seat] |= one << np.uint64(top)


@njit(cache=True, inline='always')
def _pass_cards(rules, play_policy, giver, taker, to_blind_nil, s):
    """``giver`` passes ``rules.blind_pass`` cards of its remaining hand to ``taker``."""
    for _ in range(rules.blind_pass):
        slot, s.rng[giver] = _pass_card(play_policy[giver], s.remaining[giver], to_blind_nil,
                                        rules.suit_masks, rules.suit_low, rules.trump_suit,
                                        s.rng[giver])
        bit = np.uint64(1) << np.uint64(slot)
        s.remaining[giver] &= ~bit
        s.remaining[taker] |= bit
        s.given[giver] |= bit


@njit(cache=True)
def _exchange(rules, play_policy, dealer, s):
    """Set ``s.remaining`` to the hands play starts with, after any blind-nil exchange.

    Each side exchanges once, for its first blind nil in bidding order: the partner
    passes, then the blind-nil bidder passes back (docs/scoring.md).
    """
    n = rules.seat_count
    for seat in range(n):
        s.remaining[seat] = s.hands[seat]
        s.given[seat] = 0
    if rules.blind_pass == 0:
        return
    exchanged = 0  # bit per side
    for k in range(n):
        seat = (dealer + rules.first_bid_offset + k) % n
        side = seat % rules.side_count
        if s.blind[seat] == 1 and not (exchanged >> side) & 1:
            exchanged |= 1 << side
            partner = rules.partner[seat]
            _pass_cards(rules, play_policy, partner, seat, True, s)
            _pass_cards(rules, play_policy, seat, partner, False, s)


@njit(cache=True, inline='always')
def _allowed_bids(rules, bids, seat, position, trumps_held):
    """Bit b set when ``seat``, bidding ``position``-th (from 0), may bid b (0 = nil) now.

    A forced mode decides alone; otherwise min_bid, both_partners_nil, side_min_bid and
    sum_of_bids_not_hand_size together (docs/scoring.md "Bidding constraints", "Forced-bid modes").
    """
    n = rules.seat_count
    partner = rules.partner[seat]
    partner_bid = bids[partner] if partner >= 0 else -1
    all_bids = (1 << (rules.max_bid + 1)) - 1
    if rules.forced_mode == FORCED_MIRROR:
        return 1 << trumps_held
    if rules.forced_mode == FORCED_WHIZ:
        return 1 | (1 << trumps_held)
    if rules.forced_mode == FORCED_SUICIDE:
        four_up = all_bids & ~0xF
        if partner_bid < 0:
            return 1 | four_up
        return four_up if partner_bid == 0 else 1
    allowed = all_bids
    if rules.min_bid > 0 or (rules.forbid_double_nil and partner_bid == 0):
        allowed &= ~1
    if partner_bid >= 0 and rules.side_min_bid > 0:
        if partner_bid < rules.side_min_bid:
            allowed &= ~((1 << (rules.side_min_bid - partner_bid)) - 1)  # nil and counts too low
    if position == n - 1 and rules.sum_not_hand_size:
        others = 0
        for other in range(n):
            if other != seat:
                others += bids[other]
        forbidden = rules.hand_size - others
        if 0 <= forbidden <= rules.max_bid:
            allowed &= ~(1 << forbidden)
    return allowed


@njit(cache=True, inline='always')
def _leading_other(score, side):
    """The highest score of any side but ``side``: the one "behind" is measured against."""
    best = -(2**62)
    for other in range(score.shape[0]):
        if other != side and score[other] > best:
            best = score[other]
    return best


@njit(cache=True, inline='always')
def _bag_room(rules, bag_total):
    """Bags a side can still take before the next penalty (a large number when bags are free)."""
    return rules.bag_limit - bag_total if rules.bag_penalty > 0 else 1000


@njit(cache=True, _nrt=False)
def _bid_round(rules, strat, dealer, hand_index, s):
    """One round of bids from the first bidder, clockwise; writes ``s.bids`` and ``s.blind``."""
    n = rules.seat_count
    bid_policy, params = strat.bid_policy, strat.params
    for seat in range(n):
        s.bids[seat] = -1
        s.blind[seat] = 0
    for k in range(n):
        seat = (dealer + rules.first_bid_offset + k) % n
        side = seat % rules.side_count
        partner = rules.partner[seat]
        partner_bid = s.bids[partner] if partner >= 0 else -1
        allowed = _allowed_bids(rules, s.bids, seat, k,
                                _popcount(s.hands[seat] & rules.suit_masks[rules.trump_suit]))
        leader = _leading_other(s.score, side)
        blind_allowed = (allowed & 1) == 1 and _blind_nil_allowed(
            rules.blind_mode, rules.blind_threshold, s.score[side], leader, hand_index)
        forced = s.forced[seat]
        if forced != FREE_BID:
            # A what-if bid (spades_sim.analysis.whatif): made as told, noted when the rules forbid it.
            if forced == BLIND_BID:
                s.bids[seat] = 0
                s.blind[seat] = 1
                ok = blind_allowed
            else:
                s.bids[seat] = forced
                ok = forced <= rules.max_bid and ((allowed >> forced) & 1) == 1
            if not ok:
                s.forced[n] = 0
            continue
        if bid_policy[seat] == POLICY_EXPERT:
            blind = False
            if blind_allowed:
                blind, s.rng[seat] = _wants_blind_expert(rules, strat, params[seat], seat,
                                                         s.bids, s.score, hand_index, s.work,
                                                         s.rng[seat])
        else:
            blind = blind_allowed and _wants_blind_nil(bid_policy[seat], params[seat],
                                                       partner_bid, leader - s.score[side],
                                                       leader, rules.target)
        if blind:
            s.bids[seat] = 0
            s.blind[seat] = 1
        elif bid_policy[seat] == POLICY_EXPERT:
            s.bids[seat], s.rng[seat] = _bid_expert(
                rules, strat, params[seat], seat, k, allowed, s.hands[seat], s.bids, s.score,
                s.bag_total, hand_index, s.work, s.rng[seat])
        else:
            s.bids[seat], s.rng[seat] = _choose_bid(
                bid_policy[seat], params[seat], s.hands[seat], partner, partner_bid, allowed,
                rules.max_bid, rules.trick_scale, _bag_room(rules, s.bag_total[side]),
                rules.suit_masks, rules.suit_low, rules.trump_suit, s.rng[seat])


@njit(cache=True, inline='always')
def _bag_costs(rules, tables, params, seat, score, bag_total, hand_index, costs):
    """What one more bag costs ``seat``'s side and (on average) its opponents, for the expert's
    card play: ``costs[seat, 0]`` and ``costs[seat, 1]``."""
    horizon = _horizon(rules, tables, score, hand_index)
    weight = params[P_BAG_WEIGHT]
    sides = rules.side_count
    own = seat % sides
    opponents = 0.0
    for side in range(sides):
        cost = _next_bag_cost(rules, tables, horizon, bag_total[side], weight)
        if side == own:
            costs[seat, 0] = cost
        else:
            opponents += cost
    costs[seat, 1] = opponents / (sides - 1)


@njit(cache=True, inline='always')
def _play_tricks(rules, strat, dealer, hand_index, s):
    """Play every trick from ``s.remaining``; writes ``s.plays``, ``s.winners`` and ``s.tricks``."""
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
    leader = _seat_after(dealer, rules.first_lead_offset, n)
    if rules.first_lead_mode == LEAD_LOWEST_CLUB:
        for seat in range(n):
            if remaining[seat] & lowest_club:
                leader = seat
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
                _bag_room(rules, bag_total[seat % rules.side_count]), costs[seat, 0],
                costs[seat, 1], set_unit, suit_masks, suit_low, trump, rng[seat])
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
                # Suits are runs of slots with trumps on top: higher and (same suit or trump) wins.
                if slot > win_slot and (suit == win_suit or suit == trump):
                    win_slot, win_seat, win_suit = slot, seat, suit
        winners[t] = win_seat
        tricks[win_seat] += 1
        leader = win_seat


@njit(cache=True, inline='always')
def _score_hand(rules, s):
    """Score every side; updates ``s.score``, ``s.bag_total`` and ``s.side``."""
    n = rules.seat_count
    sides = rules.side_count
    for side in range(sides):
        contract = 0
        contract_tricks = 0
        count_tricks = 0  # the count bidders' own tricks (contract_tricks may add a nil's)
        nil_tricks = 0
        nil_won = 0
        nil_lost = 0
        for seat in range(side, n, sides):  # partners are side_count seats apart
            if s.bids[seat] > 0:
                contract += s.bids[seat]
                contract_tricks += s.tricks[seat]
                count_tricks += s.tricks[seat]
            else:
                if rules.nil_counts_for_partner:
                    contract_tricks += s.tricks[seat]
                else:
                    nil_tricks += s.tricks[seat]
                value = rules.blind_value if s.blind[seat] == 1 else rules.nil_value
                if s.tricks[seat] == 0:
                    nil_won += value
                else:
                    nil_lost += value
        made_points, set_points = _contract_points(contract, rules.failed_per_bid,
                                                   rules.ten_for_two_hundred,
                                                   rules.thirteen_points)
        points, bags, penalty, bags_after, made = _score_side(
            contract, contract_tricks, nil_tricks, nil_won, nil_lost, s.bag_total[side],
            made_points, set_points, rules.overtrick_points, rules.bag_limit, rules.bag_penalty)
        s.score[side] += points
        s.bag_total[side] = bags_after
        s.side[0, side] = points
        s.side[1, side] = bags
        s.side[2, side] = penalty
        s.side[3, side] = made
        s.side[4, side] = contract
        s.side[5, side] = count_tricks


# Compiled once and called by every driver, not inlined into each: inlining the whole hand
# into every driver made each compile for a minute or more. It allocates nothing, so it needs
# no reference counting (``_nrt=False``, as the chunk drivers below).
@njit(cache=True, _nrt=False)
def _play_hand(rules, strat, seed, game, hand_index, dealer, s, deal):
    """Deal, bid, play and score hand ``hand_index`` of ``game``, from the state in ``s``.

    With ``deal`` False the hands already in ``s.hands`` are played (a what-if deal).
    """
    policy_key = _key3(np.uint64(seed) ^ _POLICY_SALT, game, hand_index)
    for seat in range(rules.seat_count):
        s.rng[seat] = _key3(policy_key, seat, 0)
    deal_key = _key3(seed, game, hand_index)
    if not deal:
        pass
    elif rules.draw_deal:
        _draw_deal(rules, strat.play_policy, deal_key, (dealer + rules.first_bid_offset) % 2, s)
    else:
        _deal(rules.deck_slots, rules.seat_count, rules.hand_size, deal_key, s.cards, s.hands)
    _bid_round(rules, strat, dealer, hand_index, s)
    _exchange(rules, strat.play_policy, dealer, s)
    _play_tricks(rules, strat, dealer, hand_index, s)
    _score_hand(rules, s)


@njit(cache=True)
def _write_hand(rules, s, game, hand_index, dealer, row, out):
    """Copy the hand just played, and its hand features, into row ``row`` of ``out``."""
    out.game[row] = game
    out.hand[row] = hand_index
    out.dealer[row] = dealer
    trump = rules.trump_suit
    for seat in range(rules.seat_count):
        hand = s.hands[seat]
        out.bid[row, seat] = s.bids[seat]
        out.blind[row, seat] = s.blind[seat]
        out.tricks[row, seat] = s.tricks[seat]
        trumps = hand & rules.suit_masks[trump]
        out.spades[row, seat] = _popcount(trumps)
        out.top_spade[row, seat] = _highest_bit(trumps) - rules.suit_low[trump] if trumps else -1
        voids = 0
        for suit in range(4):
            voids += (hand & rules.suit_masks[suit]) == 0
        out.aces[row, seat] = _popcount(hand & rules.ace_mask)
        out.kings[row, seat] = _popcount(hand & rules.king_mask)
        out.voids[row, seat] = voids
        out.nil_risk[row, seat] = _nil_risk(hand, rules.suit_masks, rules.suit_low, trump)
    for side in range(rules.side_count):
        out.points[row, side] = s.side[0, side]
        out.bags[row, side] = s.side[1, side]
        out.penalty[row, side] = s.side[2, side]
        out.made[row, side] = s.side[3, side]
        out.contract[row, side] = s.side[4, side]
        out.score[row, side] = s.score[side]
        out.bag_total[row, side] = s.bag_total[side]


@njit(cache=True, inline='always')
def _write_trace(s, row, trace):
    for seat in range(s.hands.shape[0]):
        trace.hands[row, seat] = s.hands[seat]
        trace.discards[row, seat] = s.discards[seat]
        trace.given[row, seat] = s.given[seat]
    for k in range(s.plays.shape[0]):
        trace.plays[row, k] = s.plays[k]
    for t in range(s.winners.shape[0]):
        trace.winners[row, t] = s.winners[t]


@njit(cache=True, inline='always')
def _game_over(score, target, elimination, hand_limit, hands_played, thirteen_side):
    """Winning side after a hand, or -1 to play on (docs/scoring.md "End of a game").

    The game is over when a side reaches ``target``, a side falls to ``elimination``
    or ``hand_limit`` hands are played; then the one highest score wins, and a shared
    top score plays on. ``thirteen_side`` is the side that just made a contract of 13
    that wins the game, or -1.
    """
    if thirteen_side >= 0:
        return thirteen_side
    over = hand_limit > 0 and hands_played >= hand_limit
    best = 0
    shared = False
    for side in range(score.shape[0]):
        if score[side] >= target or score[side] <= elimination:
            over = True
        if side > 0 and score[side] == score[best]:
            shared = True
        elif score[side] > score[best]:
            best, shared = side, False
    return best if over and not shared else -1


@njit(cache=True, inline='always')
def _winner_after_hand(rules, s, played):
    """The game's winner after the hand just scored in ``s`` (the ``played``-th), or -1."""
    thirteen_side = -1
    if rules.thirteen_wins:
        for side in range(rules.side_count):
            if s.side[4, side] == 13 and s.side[3, side] == 1:
                thirteen_side = side
    return _game_over(s.score, rules.target, rules.elimination, rules.hand_limit, played,
                      thirteen_side)


@njit(cache=True, _nrt=False)
def _play_game(rules, strat, seed, game, max_hands, s,
               game_row, games, write_hands, hand_row, hands_out, trace_out):
    """Play one game to its end (or ``max_hands``); write its game record, and its hands if asked.

    Returns the number of hands played.
    """
    n = rules.seat_count
    sides = rules.side_count
    first = _first_dealer(seed, game, n)
    for side in range(sides):
        s.score[side] = 0
        s.bag_total[side] = 0
        games.contracts[game_row, side] = 0
        games.made[game_row, side] = 0
        games.bid_error[game_row, side] = 0
        games.nil_bids[game_row, side] = 0
        games.nil_made[game_row, side] = 0
        games.blind_bids[game_row, side] = 0
        games.blind_made[game_row, side] = 0
        games.bags[game_row, side] = 0
        games.penalty[game_row, side] = 0
    winner = UNFINISHED
    played = _RUNTIME_ZERO[0]  # not the literal 0 (see _RUNTIME_ZERO)
    while played < max_hands and winner == UNFINISHED:
        dealer = (first + played) % n
        _play_hand(rules, strat, seed, game, played, dealer, s, np.bool_(True))
        if write_hands:
            _write_hand(rules, s, game, played, dealer, hand_row + played, hands_out)
            _write_trace(s, hand_row + played, trace_out)
        for seat in range(n):
            side = seat % sides
            if s.bids[seat] == 0:
                made_nil = 1 if s.tricks[seat] == 0 else 0
                if s.blind[seat] == 1:
                    games.blind_bids[game_row, side] += 1
                    games.blind_made[game_row, side] += made_nil
                else:
                    games.nil_bids[game_row, side] += 1
                    games.nil_made[game_row, side] += made_nil
        for side in range(sides):
            if s.side[4, side] > 0:
                games.contracts[game_row, side] += 1
                games.made[game_row, side] += s.side[3, side]
                games.bid_error[game_row, side] += abs(s.side[4, side] - s.side[5, side])
            games.bags[game_row, side] += s.side[1, side]
            games.penalty[game_row, side] += s.side[2, side]
        played += 1
        winner = _winner_after_hand(rules, s, played)
    games.first_dealer[game_row] = first
    games.hands[game_row] = played
    games.winner[game_row] = winner
    for side in range(sides):
        games.score[game_row, side] = s.score[side]
        games.bag_total[game_row, side] = s.bag_total[side]
    return played


@njit(cache=True, nogil=True, _nrt=False)
def _hands_chunk(rules, strat, seed, start, lo, hi, s, out, trace,
                 write_trace):
    """Play hands ``start + i`` for ``lo <= i < hi`` into row ``i`` of ``out`` (and of ``trace``).

    The chunk functions release the GIL (``nogil``): ``spades_sim.kernel.drivers`` runs chunks
    on threads, each with its own scratch ``s`` and its own rows. They are compiled
    without numba's reference counting (``_nrt=False``): they allocate nothing, and the
    atomic reference-count updates on shared output arrays would otherwise dominate the
    hot loop and stop two threads from scaling.
    """
    for i in range(lo, hi):
        game = start + i
        dealer = _first_dealer(seed, game, rules.seat_count)
        for side in range(rules.side_count):
            s.score[side] = 0
            s.bag_total[side] = 0
        _play_hand(rules, strat, seed, game, _RUNTIME_ZERO[0], dealer, s, np.bool_(True))
        _write_hand(rules, s, game, _RUNTIME_ZERO[0], dealer, i, out)
        if write_trace:
            _write_trace(s, i, trace)


@njit(cache=True, nogil=True, _nrt=False)
def _games_chunk(rules, strat, seed, start, lo, hi, max_hands, s, games, write_hands,
                 hand_row, hands_out, trace_out):
    """Play games ``start + i`` for ``lo <= i < hi`` into row ``i`` of ``games`` (nogil, no
    NRT, as above). With ``write_hands`` their hands go to ``hands_out`` and ``trace_out`` from
    row ``hand_row`` on (which must have room: a first pass without tells how many).

    Returns ``hand_row`` plus the number of hands played.
    """
    for i in range(lo, hi):
        hand_row += _play_game(rules, strat, seed, start + i, max_hands, s, i, games,
                               write_hands, hand_row, hands_out, trace_out)
    return hand_row


@njit(cache=True)
def _empty_hand_outputs(rules, rows):
    """Allocate hand records and traces for ``rows`` hands."""
    n, sides = rules.seat_count, rules.side_count
    i8, i32 = np.int8, np.int32
    hands_out = HandRecords(
        np.zeros(rows, np.int64), np.zeros(rows, i32), np.zeros(rows, i8),
        np.zeros((rows, n), i8), np.zeros((rows, n), i8), np.zeros((rows, n), i8),
        np.zeros((rows, n), i8), np.zeros((rows, n), i8), np.zeros((rows, n), i8),
        np.zeros((rows, n), i8), np.zeros((rows, n), i8), np.zeros((rows, n), np.float32),
        np.zeros((rows, sides), i8), np.zeros((rows, sides), i8), np.zeros((rows, sides), i32),
        np.zeros((rows, sides), i8), np.zeros((rows, sides), i32), np.zeros((rows, sides), i32),
        np.zeros((rows, sides), i8),
    )
    trace_out = HandTrace(
        np.zeros((rows, n), np.uint64), np.zeros((rows, n), np.uint64),
        np.zeros((rows, n), np.uint64), np.zeros((rows, n * rules.hand_size), i8),
        np.zeros((rows, rules.hand_size), i8),
    )
    return hands_out, trace_out


@njit(cache=True)
def _empty_game_records(rows, sides):
    """Allocate game records for ``rows`` games of ``sides`` sides."""
    i8, i32 = np.int8, np.int32
    return GameRecords(
        np.zeros(rows, i8), np.zeros(rows, i32), np.zeros(rows, i8),
        np.zeros((rows, sides), i32), np.zeros((rows, sides), i8),
        np.zeros((rows, sides), i32), np.zeros((rows, sides), i32),
        np.zeros((rows, sides), i32), np.zeros((rows, sides), i32),
        np.zeros((rows, sides), i32), np.zeros((rows, sides), i32),
        np.zeros((rows, sides), i32), np.zeros((rows, sides), i32), np.zeros((rows, sides), i32),
    )


@njit(cache=True, nogil=True, _nrt=False)
def _what_if_chunk(rules, strat, seed, deals, dealer, hand_index, hero,
                   forced_bids, candidates, score, bag_total, max_hands, lo, hi, s, made, points,
                   won, valid, hero_bid):
    """For deals ``lo <= i < hi`` and every candidate bid ``j`` of seat ``hero``: play the hand
    from ``deals[i]`` with the bids ``forced_bids`` (FREE_BID: the policy's) and the hero's
    ``candidates[j]``, from ``score`` and ``bag_total`` at hand ``hand_index``, then play the
    game on to its end (or ``max_hands`` more hands).

    Writes whether the hero's bid was made (a nil: no trick; a count bid: the side's contract),
    the side's points for the hand, the game's result for the hero's side (1 won, 0 lost,
    UNFINISHED), whether every forced bid was allowed, and the bid the hero made (BLIND_BID for
    blind nil: with a FREE_BID candidate, the policy's choice). Every candidate of deal ``i`` sees
    the same policy streams and later deals (game ``i`` of ``seed``): common random numbers.
    """
    n, sides = rules.seat_count, rules.side_count
    hero_side = hero % sides
    for i in range(lo, hi):
        for j in range(candidates.shape[0]):
            for side in range(sides):
                s.score[side] = score[side]
                s.bag_total[side] = bag_total[side]
            for seat in range(n):
                s.hands[seat] = deals[i, seat]
                s.forced[seat] = forced_bids[seat]
            s.forced[hero] = candidates[j]
            s.forced[n] = 1
            played = hand_index
            winner = UNFINISHED
            while winner == UNFINISHED and played < hand_index + max_hands:
                first = played == hand_index
                _play_hand(rules, strat, seed, i, played,
                           (dealer + played - hand_index) % n, s, np.bool_(not first))
                if first:
                    valid[i, j] = s.forced[n]
                    if s.bids[hero] == 0:
                        made[i, j] = 1 if s.tricks[hero] == 0 else 0
                    else:
                        made[i, j] = s.side[3, hero_side]
                    points[i, j] = s.side[0, hero_side]
                    hero_bid[i, j] = BLIND_BID if s.blind[hero] == 1 else s.bids[hero]
                    for seat in range(n):
                        s.forced[seat] = FREE_BID
                played += 1
                winner = _winner_after_hand(rules, s, played)
            won[i, j] = UNFINISHED if winner == UNFINISHED else (1 if winner == hero_side else 0)

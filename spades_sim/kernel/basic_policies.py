"""The basic and expert-v1 policies' bids and card play, and helpers the others share.

A strategy is two policies (bidding, card play) and a parameter vector, so tuning a
parameter never recompiles. Each policy is one module of the policy table
(``policies.TABLE``: ``policy_random``, ``policy_basic``, ``policy_expert_v1``,
``policy_expert``) that reads the seat's observation and calls the functions here; the
parameter slots are in ``params``. The expert's own card play is in ``expert_play`` and its
bidding in ``expert_bid``. jit-compiled; inputs not checked.

Policies
--------
``random``
    Uniform over the legal bids (never blind nil) and over the legal cards.
``basic``
    Bids a trick estimate (high cards, spade length, short suits) plus an
    offset; bids nil when the hand's nil risk is at most a threshold; goes blind
    nil when allowed and far enough behind; adds to its bid over a partner's nil.
    Plays to make the contract with the cheapest winning card, ducks once the
    contract is made, covers a partner's nil and plays low under an opponent's nil.
    In the two-player draw it keeps a trump or a side ace, king or queen and
    otherwise takes the next card; in a blind-nil exchange the partner passes its
    lowest cards and the blind-nil bidder passes back its highest. Bag awareness:
    within ``P_BAG_NEAR`` bags of the penalty it adds ``P_BAG_BID`` to its estimate.
``expert-v1``
    The first release's expert, kept unchanged as the fixed yardstick. Bids as basic.
    Plays with the cards still out in view: covers a partner's nil
    (high before the nil bidder, the cheapest winner after it), attacks an opponent's
    nil with leads it cannot duck unless its own contract needs the tricks, plays for
    tricks only until the contract is certain (boss trumps), then ducks, and goes for
    the set when the opponents can lose fewer than ``P_SET_SLACK`` of the tricks left.
``expert``
    Bids by expected value under the table's scoring and the game state from
    calibration tables (``expert_bid``); sound card play (``expert_play``).

docs/strategies.md describes every rule.

The trick estimate is made for four seats and multiplied by the table's
``trick_scale`` (``spades_sim.kernel.packing``): 4/3 at three seats, 4/5 at five.
"""

import numpy as np
from numba import njit

from .bits import _bits_above, _highest_bit, _lowest_bit, _popcount
from .params import (  # noqa: F401  (the slots are read as basic_policies.P_… elsewhere)
    P_BAG_BID,
    P_BAG_NEAR,
    P_BID_OFFSET,
    P_BLIND_DEFICIT,
    P_BLIND_NEAR,
    P_COVER_BONUS,
    P_NIL_THRESHOLD,
    P_SET_SLACK,
    P_SOLO_NIL_THRESHOLD,
    PARAM_COUNT,
)
from .trick import _beats_mask, _seat_after

# Blind-nil eligibility codes (``PackedRules.blind_mode``).
BLIND_OFF, BLIND_ANYTIME, BLIND_AFTER_FIRST_HAND, BLIND_WHEN_BEHIND = 0, 1, 2, 3


@njit(cache=True, inline='always')
def _blind_nil_allowed(blind_mode, blind_threshold, own_score, other_score, hand_index):
    """Whether a seat may bid blind nil at the start of this hand."""
    if blind_mode == BLIND_ANYTIME:
        return True
    if blind_mode == BLIND_AFTER_FIRST_HAND:
        return hand_index > 0
    if blind_mode == BLIND_WHEN_BEHIND:
        return other_score - own_score >= blind_threshold
    return False


@njit(cache=True, inline='always')
def _leading_other(score, side):
    """The highest score of any side but ``side``: the one "behind" is measured against."""
    best = -(2**62)
    for other in range(score.shape[0]):
        if other != side and score[other] > best:
            best = score[other]
    return best


@njit(cache=True, inline='always')
def _suit_size(suit_masks, suit):
    return _popcount(suit_masks[suit])


@njit(cache=True, inline='always')
def _holds_rank_from_top(hand, suit_masks, suit_low, suit, k):
    """Whether ``hand`` holds the k-th highest card of ``suit`` (k = 0: the ace)."""
    slot = suit_low[suit] + _suit_size(suit_masks, suit) - 1 - k
    return (hand >> np.uint64(slot)) & np.uint64(1) == np.uint64(1)


@njit(cache=True, inline='always')
def _estimate_tricks(hand, suit_masks, suit_low, trump_suit):
    """Expected tricks of a hand: trump honours and length, side aces and kings, short suits."""
    trump_count = _popcount(hand & suit_masks[trump_suit])
    estimate = 0.0
    honours = 0
    for k in range(3):  # A, K, Q of trumps: sure tricks when guarded by k smaller trumps
        if _holds_rank_from_top(hand, suit_masks, suit_low, trump_suit, k):
            honours += 1
            estimate += 1.0 if trump_count > k else 0.5
    estimate += min(max(trump_count - 3, 0), trump_count - honours)
    for suit in range(4):
        if suit == trump_suit:
            continue
        length = _popcount(hand & suit_masks[suit])
        if length == 0:
            if trump_count >= 3:
                estimate += 0.6
            continue
        if _holds_rank_from_top(hand, suit_masks, suit_low, suit, 0):
            estimate += 1.0 if length <= 6 else 0.5
        elif length == 1 and trump_count >= 3:
            estimate += 0.3
        if _holds_rank_from_top(hand, suit_masks, suit_low, suit, 1) and 2 <= length <= 5:
            estimate += 0.8
        if _holds_rank_from_top(hand, suit_masks, suit_low, suit, 2) and 3 <= length <= 4:
            estimate += 0.4
    return estimate


@njit(cache=True)
def _nil_risk(hand, suit_masks, suit_low, trump_suit):
    """How likely a hand is to take a trick: high trumps, trump length, unguarded side honours."""
    trump_count = _popcount(hand & suit_masks[trump_suit])
    risk = 0.3 * max(trump_count - 3, 0)
    trump_weights = (1.0, 1.0, 1.0, 0.6, 0.35)  # A K Q J 10 of trumps
    for k in range(5):
        if _holds_rank_from_top(hand, suit_masks, suit_low, trump_suit, k):
            risk += trump_weights[k]
    for suit in range(4):
        if suit == trump_suit:
            continue
        length = _popcount(hand & suit_masks[suit])
        if _holds_rank_from_top(hand, suit_masks, suit_low, suit, 0):
            risk += 0.9
        if _holds_rank_from_top(hand, suit_masks, suit_low, suit, 1):
            risk += 0.8 if length <= 2 else 0.5
        if _holds_rank_from_top(hand, suit_masks, suit_low, suit, 2) and length <= 2:
            risk += 0.25
    return risk


@njit(cache=True, inline='always')
def _last_resort(params, deficit, other_score, target):
    """The basic policy's time for a blind gamble: ``deficit`` or more behind, with the
    opponents (``other_score``) close to the target."""
    return deficit >= params[P_BLIND_DEFICIT] and other_score >= target - params[P_BLIND_NEAR]


@njit(cache=True, inline='always')
def _wants_blind_nil(params, partner_bid, deficit, other_score, target):
    """Decide blind nil before seeing the cards (only called when it is allowed).

    The basic policy goes blind only as a last resort (:func:`_last_resort`), and not when the
    partner is already nil.
    """
    return partner_bid != 0 and _last_resort(params, deficit, other_score, target)


@njit(cache=True, inline='always')
def _basic_blind_bid(params, counts, deficit, other_score, target):
    """A blind bid before seeing the cards (``counts``: bit b when b may be bid blind): the
    lowest allowed, on the blind-nil last-resort condition (far behind, the opponents close to
    the target), else 0 (none). Blind nil is asked first, so this is the seat's blind gamble
    when blind nil is off or its partner bid nil."""
    if _last_resort(params, deficit, other_score, target):
        return _lowest_bit(np.uint64(counts))
    return 0


@njit(cache=True, inline='always')
def _nearest_allowed(bid, allowed, max_bid):
    """The allowed count bid (>= 1) nearest to ``bid``, the higher one on a tie; -1 if none."""
    for distance in range(max_bid + 1):
        for candidate in (bid + distance, bid - distance):
            if 1 <= candidate <= max_bid and (allowed >> candidate) & 1:
                return candidate
    return -1


@njit(cache=True)
def _bid_basic(params, hand, partner, partner_bid, allowed, max_bid, trick_scale, bag_room,
               suit_masks, suit_low, trump_suit):
    """The basic bid (module docstring); ``partner_bid`` is -1 while the partner has not bid,
    or when there is no partner (``partner`` = -1). ``bag_room`` is how many more bags the
    side can take before the next penalty (large when bags cost nothing).

    ``allowed`` has bit b set when bid b (0 = nil) is allowed now: the bidding rules
    are applied by the engine, the policy only picks among what they leave.
    """
    # Alone, nobody covers a nil and every opponent attacks it: a separate, stricter threshold.
    nil_threshold = params[P_NIL_THRESHOLD] if partner >= 0 else params[P_SOLO_NIL_THRESHOLD]
    if (allowed & 1 and partner_bid != 0
            and _nil_risk(hand, suit_masks, suit_low, trump_suit) <= nil_threshold):
        return 0
    estimate = (_estimate_tricks(hand, suit_masks, suit_low, trump_suit) * trick_scale
                + params[P_BID_OFFSET])
    if partner_bid == 0:
        estimate += params[P_COVER_BONUS]
    if bag_room <= params[P_BAG_NEAR]:
        estimate += params[P_BAG_BID]
    bid = int(np.floor(estimate + 0.5))
    if partner_bid > 0:
        bid = min(bid, max_bid - partner_bid)
    bid = _nearest_allowed(min(max(bid, 1), max_bid), allowed, max_bid)
    return bid if bid >= 0 else 0  # only nil is left when no count bid is allowed


@njit(cache=True, inline='always')
def _keep_first(slot, slot_suit, suit_masks, suit_low, trump_suit):
    """Two-player draw: whether to keep the drawn card ``slot`` (a trump or a side ace, king or
    queen). Otherwise it is discarded and the next card must be kept.
    """
    suit = slot_suit[slot]
    from_top = suit_low[suit] + _suit_size(suit_masks, suit) - 1 - slot
    return suit == trump_suit or from_top < 3


@njit(cache=True, inline='always')
def _pass_card(hand, to_blind_nil, suit_masks, suit_low, trump_suit):
    """The card a seat passes in the blind-nil exchange: its lowest to the blind-nil bidder
    (``to_blind_nil``), its highest on the way back."""
    if to_blind_nil:
        return _lowest_rank(hand, suit_masks, suit_low, trump_suit)
    return _highest_rank(hand, suit_masks, suit_low, trump_suit)


@njit(cache=True, inline='always')
def _lowest_rank(mask, suit_masks, suit_low, trump_suit):
    """The lowest-ranked card of ``mask``, a non-trump when ranks tie."""
    best = -1
    best_rank = 99
    for suit in range(4):
        in_suit = mask & suit_masks[suit]
        if in_suit == 0:
            continue
        slot = _lowest_bit(in_suit)
        rank = slot - suit_low[suit]
        if rank < best_rank or (rank == best_rank and best >= suit_low[trump_suit]):
            best, best_rank = slot, rank
    return best


@njit(cache=True, inline='always')
def _highest_rank(mask, suit_masks, suit_low, trump_suit):
    """The highest-ranked card of ``mask``, a trump when ranks tie."""
    best = -1
    best_rank = -1
    for suit in range(4):
        in_suit = mask & suit_masks[suit]
        if in_suit == 0:
            continue
        slot = _highest_bit(in_suit)
        rank = slot - suit_low[suit]
        if rank > best_rank or (rank == best_rank and suit == trump_suit):
            best, best_rank = slot, rank
    return best


@njit(cache=True, inline='always')
def _lead_basic(legal, hand, gone, need, suit_masks, suit_low, trump_suit):
    """Lead a boss card while the contract needs tricks, else the lowest card."""
    if need > 0:
        for suit in range(4):
            mine = legal & suit_masks[suit]
            if mine == 0:
                continue
            top = _highest_bit(mine)
            outstanding = suit_masks[suit] & ~gone & ~hand
            if outstanding == 0 or top > _highest_bit(outstanding):
                if suit != trump_suit or legal == mine or outstanding & suit_masks[trump_suit] != 0:
                    return top
    return _lowest_rank(legal, suit_masks, suit_low, trump_suit)


@njit(cache=True, inline='always')
def _duck(legal, beats, suit_masks, suit_low, trump_suit):
    """The highest-ranked card that does not win; if every card wins, the highest."""
    losing = legal & ~beats
    return _highest_rank(losing if losing != 0 else legal, suit_masks, suit_low, trump_suit)


@njit(cache=True, inline='always')
def _side_need(seat, partner, bids, tricks):
    """Tricks the contract of ``seat``'s side still needs (its count bidders' bids - tricks)."""
    need = bids[seat] - tricks[seat] if bids[seat] > 0 else 0
    if partner >= 0 and bids[partner] > 0:
        need += bids[partner] - tricks[partner]
    return need


@njit(cache=True)
def _play_basic(seat, partner, legal, hand, position, win_slot, win_seat, win_suit,
                gone, bids, tricks, seat_count, suit_masks, suit_low, trump_suit):
    """The basic card play (module docstring); arguments as in ``policy_basic.play`` reads them
    from the observation."""
    my_nil = bids[seat] == 0
    partner_nil_alive = partner >= 0 and bids[partner] == 0 and tricks[partner] == 0
    opp_nil_alive = False
    opp_nil_to_play = False  # a live opposing nil bidder plays after this seat in this trick
    for other in range(1, seat_count):
        opponent = _seat_after(seat, other, seat_count)
        if opponent != partner and bids[opponent] == 0 and tricks[opponent] == 0:
            opp_nil_alive = True
            if position + other < seat_count:
                opp_nil_to_play = True
    need = _side_need(seat, partner, bids, tricks)
    if position == 0:
        if my_nil or opp_nil_alive:
            return _lowest_rank(legal, suit_masks, suit_low, trump_suit)
        if partner_nil_alive:
            return _highest_bit(legal)
        return _lead_basic(legal, hand, gone, need, suit_masks, suit_low, trump_suit)
    beats = _beats_mask(win_slot, win_suit, suit_masks, trump_suit)
    winners = legal & beats
    if my_nil:
        return _duck(legal, beats, suit_masks, suit_low, trump_suit)
    if partner_nil_alive:
        if win_seat == partner and winners != 0:
            return _lowest_bit(winners)  # take the trick off the nil bidder
        if win_seat != partner and position < 2:
            return _highest_bit(legal)  # play high before the nil bidder has to
    if opp_nil_alive:
        losing = legal & ~beats
        if opp_nil_to_play and losing != 0:
            # Keep the bar low for the nil bidder still to play.
            return _lowest_rank(losing, suit_masks, suit_low, trump_suit)
        # Leave the nil bidder's card winning.
        return _duck(legal, beats, suit_masks, suit_low, trump_suit)
    if need > 0:
        # Win as cheaply as possible, unless the partner is already winning it.
        if winners != 0 and win_seat != partner:
            return _lowest_bit(winners)
        return _lowest_rank(legal, suit_masks, suit_low, trump_suit)
    return _duck(legal, beats, suit_masks, suit_low, trump_suit)


@njit(cache=True, inline='always')
def _outstanding(suit_masks, suit, hand, gone):
    """Cards of ``suit`` still held by the other seats, as far as this seat knows."""
    return suit_masks[suit] & ~gone & ~hand


@njit(cache=True, inline='always')
def _sure_trumps(hand, gone, suit_masks, trump_suit):
    """How many of the hand's trumps rank above every trump still out: certain tricks."""
    mine = hand & suit_masks[trump_suit]
    out = _outstanding(suit_masks, trump_suit, hand, gone)
    if out == 0:
        return _popcount(mine)
    return _popcount(mine & _bits_above(_highest_bit(out)))


@njit(cache=True, inline='always')
def _sure_winners(mask, hand, gone, suit_masks, trump_suit, win_suit):
    """The cards of ``mask`` no card still out can beat in a trick won so far in ``win_suit``.

    A card of the led suit (or a trump) is sure when it outranks every outstanding card
    of its suit, and, for a side suit, no other seat can trump (no trumps out).
    """
    sure = np.uint64(0)
    trumps_out = _outstanding(suit_masks, trump_suit, hand, gone)
    for suit in range(4):
        mine = mask & suit_masks[suit]
        if mine == 0 or (suit != win_suit and suit != trump_suit):
            continue
        if suit != trump_suit and trumps_out != 0:
            continue
        out = _outstanding(suit_masks, suit, hand, gone)
        sure |= mine if out == 0 else mine & _bits_above(_highest_bit(out))
    return sure


# What a scored lead aims at (``_scored_lead``).
AIM_LOSE, AIM_ATTACK, AIM_COVER = 0, 1, 2


@njit(cache=True, inline='always')
def _scored_lead(legal, hand, gone, suit_masks, suit_low, trump_suit, aim):
    """A lead chosen among one card per suit by the outstanding cards around it.

    ``AIM_LOSE`` (ducking, or leading into one's own nil): the suit's lowest card, the one
    with the most outstanding cards above it. ``AIM_ATTACK`` (an opponent's nil): the
    lowest card with the fewest outstanding cards below it, so the nil bidder cannot duck
    under it. ``AIM_COVER`` (a partner's nil): the highest card, a boss first. Ties go to
    the lower rank (the higher when covering), then to a side suit.
    """
    best = -1
    best_key = -1e9
    for suit in range(4):
        mine = legal & suit_masks[suit]
        if mine == 0:
            continue
        slot = _highest_bit(mine) if aim == AIM_COVER else _lowest_bit(mine)
        out = _outstanding(suit_masks, suit, hand, gone)
        above = _popcount(out & _bits_above(slot))
        rank = slot - suit_low[suit]
        if aim == AIM_LOSE:
            key = above * 100.0 - rank
        elif aim == AIM_ATTACK:
            key = (20 - (_popcount(out) - above)) * 100.0 - rank
        else:
            key = (100.0 if above == 0 else 0.0) + rank
        if suit == trump_suit:
            key -= 0.5
        if key > best_key:
            best, best_key = slot, key
    return best


@njit(cache=True)
def _lead_for_tricks(legal, hand, gone, suit_masks, suit_low, trump_suit):
    """Lead to win tricks: a side-suit boss, a boss trump while trumps are out, a singleton
    to ruff later, else the lowest card of the longest side suit."""
    trumps = hand & suit_masks[trump_suit]
    trumps_out = _outstanding(suit_masks, trump_suit, hand, gone)
    singleton = -1
    longest = -1
    longest_len = 0
    for suit in range(4):
        mine = legal & suit_masks[suit]
        if mine == 0 or suit == trump_suit:
            continue
        top = _highest_bit(mine)
        out = _outstanding(suit_masks, suit, hand, gone)
        if out != 0 and top > _highest_bit(out):
            return top  # a boss while the others still hold the suit
        length = _popcount(mine)
        if length == 1 and trumps != 0 and out != 0:
            singleton = top
        if length > longest_len:
            longest, longest_len = suit, length
    mine = legal & trumps
    if mine != 0 and trumps_out != 0 and _highest_bit(mine) > _highest_bit(trumps_out):
        return _highest_bit(mine)  # draw the opponents' trumps with a boss trump
    if singleton >= 0:
        return singleton
    if longest >= 0:
        return _lowest_bit(legal & suit_masks[longest])
    return _lowest_bit(legal)


# Not inlined: the expert play is large, and inlining it into every kernel multiplied the
# compile time (each kernel took minutes); a call per card costs little beside its work.
@njit(cache=True)
def _play_expert_v1(params, seat, partner, legal, hand, position, win_slot, win_seat, win_suit,
                    gone, bids, tricks, seat_count, bag_room, suit_masks, suit_low, trump_suit):
    """The expert-v1 card play (module docstring); arguments as in ``policy_expert_v1.play``
    reads them from the observation."""
    cards_left = _popcount(hand)
    my_nil = bids[seat] == 0
    partner_nil = partner >= 0 and bids[partner] == 0 and tricks[partner] == 0
    # The opponents: a live nil among them (and where its bidder sits), and their contract.
    opp_nil_seat = -1
    opp_nil_offset = 0
    opp_need = 0
    opp_contract = 0
    opp_tricks = 0
    for other in range(1, seat_count):
        opponent = _seat_after(seat, other, seat_count)
        if opponent == partner:
            continue
        if bids[opponent] == 0 and tricks[opponent] == 0 and opp_nil_seat < 0:
            opp_nil_seat, opp_nil_offset = opponent, other
        if bids[opponent] > 0:
            if partner >= 0:  # partnership: the opponents form one side
                opp_contract += bids[opponent]
                opp_tricks += tricks[opponent]
            else:
                opp_need = max(opp_need, bids[opponent] - tricks[opponent])
    if partner >= 0:
        opp_need = opp_contract - opp_tricks
    need = _side_need(seat, partner, bids, tricks)
    # Play for tricks while the contract is not yet certain (certain: enough boss trumps),
    # or to set an opponent who needs nearly every trick left.
    contract_open = need > 0 and need > _sure_trumps(hand, gone, suit_masks, trump_suit)
    setting = (0 < opp_need <= cards_left and cards_left - opp_need < params[P_SET_SLACK]
               and bag_room > params[P_BAG_NEAR])
    # Attack an opposing nil unless the contract needs most of the tricks left.
    attack = opp_nil_seat >= 0 and 2 * need <= cards_left
    want = contract_open or setting
    if position == 0:
        if my_nil:
            return _scored_lead(legal, hand, gone, suit_masks, suit_low, trump_suit, AIM_LOSE)
        if partner_nil:
            return _scored_lead(legal, hand, gone, suit_masks, suit_low, trump_suit, AIM_COVER)
        if attack:
            return _scored_lead(legal, hand, gone, suit_masks, suit_low, trump_suit, AIM_ATTACK)
        if want:
            return _lead_for_tricks(legal, hand, gone, suit_masks, suit_low, trump_suit)
        return _scored_lead(legal, hand, gone, suit_masks, suit_low, trump_suit, AIM_LOSE)
    beats = _beats_mask(win_slot, win_suit, suit_masks, trump_suit)
    winners = legal & beats
    losing = legal & ~beats
    last = position == seat_count - 1
    if my_nil:
        return _duck(legal, beats, suit_masks, suit_low, trump_suit)
    partner_to_play = partner >= 0 and position + (partner - seat) % seat_count < seat_count
    if partner_nil:
        if not partner_to_play:
            if win_seat == partner:
                if winners != 0:
                    return _lowest_bit(winners)  # take the trick off the nil bidder
                return _lowest_rank(legal, suit_masks, suit_low, trump_suit)
        elif winners != 0:
            # Before the nil bidder plays: set the bar as high as the suit allows, or ruff low.
            if winners & suit_masks[trump_suit] == 0:
                return _highest_bit(winners)
            return _lowest_bit(winners)
        else:
            return _lowest_rank(legal, suit_masks, suit_low, trump_suit)
    if attack:
        if win_seat == opp_nil_seat:
            # The nil bidder is winning: stay under it, shedding the highest card that does.
            return _duck(legal, beats, suit_masks, suit_low, trump_suit)
        if position + opp_nil_offset < seat_count:  # the nil bidder is still to play
            if losing != 0:
                if want:
                    return _lowest_rank(losing, suit_masks, suit_low, trump_suit)
                return _highest_rank(losing, suit_masks, suit_low, trump_suit)
            return _lowest_bit(winners)  # forced to win: keep the bar as low as possible
    if not want:
        return _duck(legal, beats, suit_masks, suit_low, trump_suit)
    if win_seat == partner or winners == 0:
        return _lowest_rank(legal, suit_masks, suit_low, trump_suit)
    if last:
        return _lowest_bit(winners)
    sure = _sure_winners(winners, hand, gone, suit_masks, trump_suit, win_suit)
    if sure != 0:
        return _lowest_bit(sure)
    if partner_to_play and losing != 0 and winners & suit_masks[trump_suit] == 0:
        # The partner is still to play: hold back and let it try (second hand low).
        return _lowest_rank(losing, suit_masks, suit_low, trump_suit)
    return _lowest_bit(winners)


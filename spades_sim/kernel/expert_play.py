"""The expert card play: sound technique written as a few masks and one pass over the suits.

Everything is decided from what the seat can see: its hand, the cards out of play
(played, or seen discarded in the two-player draw), the trick so far, the bids and
tricks, and which seats have shown out of which suit. "Outstanding" cards are the
cards of the deck neither in the seat's hand nor out of play. docs/strategies.md
states every rule; the order of the rules is the order of the code below:

1. own nil: duck with the highest card that still loses; when every card wins, take
   it as cheaply as possible if a later seat could still overtake, else shed the most
   dangerous card (the nil is lost);
2. partner's nil: before the nil bidder plays, set the bar with the highest card that
   wins (or ruff); after it, take the trick off it with the cheapest winner; lead
   bosses and suits the nil bidder is out of;
3. an opponent's nil, unless the own contract needs most of the tricks left: lead low
   cards the nil bidder cannot duck under; never overtake the card it must beat;
   let it win; keep the low cards for later;
4. otherwise play for tricks while the contract is open (more tricks needed than boss
   trumps held), while a set is worth going for, or while bags are worth more to take
   than to give; else duck, giving the tricks (bags) to the opponents.

Playing for tricks: second hand low, third hand high with the cheapest card equal to
its highest, the cheapest winner that nothing still to play can beat, never ruff or
overtake a partner's sure winner, discard from the least useful side suit, never a
trump when a side card will do. jit-compiled; inputs not checked.
"""

import numpy as np
from numba import njit

from .bits import _RUNTIME_ZERO, _bits_above, _highest_bit, _lowest_bit, _popcount
from .params import P_SET_SLACK
from .trick import _beats_mask, _seat_after

_ONE = np.uint64(1)


@njit(cache=True, inline='always')
def _above(out, slot, suit_mask):
    """Outstanding cards of the card's suit that rank above it."""
    return _popcount(out & suit_mask & _bits_above(slot))


@njit(cache=True, inline='always')
def _sure_trump_count(hand, out, trump_mask):
    """Trumps of the hand that rank above every outstanding trump: certain tricks."""
    mine = hand & trump_mask
    trumps_out = out & trump_mask
    if trumps_out == 0:
        return _popcount(mine)
    return _popcount(mine & _bits_above(_highest_bit(trumps_out)))


@njit(cache=True, inline='always')
def _holds_trick(cards, out, led_suit, suit_masks, trump_suit, later_opponent, later_void):
    """The cards of ``cards`` (each already winning the trick) that no opponent still to play
    can beat: a trump above every outstanding trump; a card of the led suit above every
    outstanding card of it, unless an opponent still to play has shown out while trumps
    are out (it may ruff)."""
    if not later_opponent:
        return cards
    trump_mask = suit_masks[trump_suit]
    trumps_out = out & trump_mask
    held = np.uint64(0)
    mine = cards & trump_mask
    if mine != 0:
        held |= mine if trumps_out == 0 else mine & _bits_above(_highest_bit(trumps_out))
    if led_suit != trump_suit and not (later_void and trumps_out != 0):
        mine = cards & suit_masks[led_suit]
        led_out = out & suit_masks[led_suit]
        if mine != 0:
            held |= mine if led_out == 0 else mine & _bits_above(_highest_bit(led_out))
    return held


@njit(cache=True, inline='always')
def _suit_of(slot, suit_masks):
    """The effective suit of a slot."""
    for suit in range(4):
        if (suit_masks[suit] >> np.uint64(slot)) & _ONE == _ONE:
            return suit
    return -1


@njit(cache=True, inline='always')
def _can_be_beaten(slot, suit, out, suit_masks, trump_suit, anyone_later, ruff_possible):
    """Whether a seat still to play may beat ``slot`` (the card now winning, of ``suit``): it may
    hold a higher card of the suit, or ruff a side card while trumps are out (``ruff_possible``)."""
    if not anyone_later:
        return False
    if out & suit_masks[suit] & _bits_above(slot) != 0:
        return True
    return suit != trump_suit and ruff_possible and out & suit_masks[trump_suit] != 0


@njit(cache=True, inline='always')
def _cheapest_equal(slot, mine, out):
    """The lowest card of ``mine`` (one suit) with no outstanding card between it and ``slot``."""
    below = out & ((_ONE << np.uint64(slot)) - _ONE)
    if below == 0:
        return _lowest_bit(mine)
    return _lowest_bit(mine & _bits_above(_highest_bit(below)))


@njit(cache=True, inline='always')
def _most_dangerous(cards, out, suit_masks, suit_low, trump_suit):
    """The card of ``cards`` most likely to win a later trick: the fewest outstanding cards
    above it; then a trump; then the higher rank."""
    best = -1
    best_key = -1e9
    for suit in range(4):
        mine = cards & suit_masks[suit]
        if mine == 0:
            continue
        slot = _highest_bit(mine)
        key = -100.0 * _above(out, slot, suit_masks[suit]) + (slot - suit_low[suit])
        if suit == trump_suit:
            key += 50.0
        if key > best_key:
            best, best_key = slot, key
    return best


@njit(cache=True, inline='always')
def _shed(losing, follows, need, out, suit_masks, suit_low, trump_suit):
    """Duck: the highest card of the led suit that loses; when void, the losing card most likely
    to win a later trick, a side card while the contract still needs the trumps."""
    if follows:
        return _highest_bit(losing)
    side_cards = losing & ~suit_masks[trump_suit]
    pool = side_cards if side_cards != 0 and need > 0 else losing
    return _most_dangerous(pool, out, suit_masks, suit_low, trump_suit)


@njit(cache=True, inline='always')
def _discard(legal, hand, out, suit_masks, suit_low, trump_suit):
    """A card that does not matter: the lowest card of the side suit whose lowest card has the
    most outstanding cards above it (the shorter suit on a tie, to make a void), never a
    trump while a side card is left."""
    best = -1
    best_key = -1e9
    for suit in range(4):
        if suit == trump_suit:
            continue
        mine = legal & suit_masks[suit]
        if mine == 0:
            continue
        slot = _lowest_bit(mine)
        key = (100.0 * _above(out, slot, suit_masks[suit]) - 10.0 * _popcount(hand & suit_masks[suit])
               - (slot - suit_low[suit]))
        if key > best_key:
            best, best_key = slot, key
    return best if best >= 0 else _lowest_bit(legal)


@njit(cache=True, inline='always')
def _lead_to_lose(legal, out, others_out, suit_masks, suit_low, trump_suit):
    """The lead most likely to lose: a suit's lowest card with the most outstanding cards above
    it; never a suit every other seat has shown out of (it would win); trumps last."""
    best = -1
    best_key = -1e9
    for suit in range(4):
        mine = legal & suit_masks[suit]
        if mine == 0:
            continue
        slot = _lowest_bit(mine)
        key = 100.0 * _above(out, slot, suit_masks[suit]) - (slot - suit_low[suit])
        if (others_out >> suit) & 1:
            key -= 5000.0
        if suit == trump_suit:
            key -= 0.5
        if key > best_key:
            best, best_key = slot, key
    return best


@njit(cache=True, inline='always')
def _lead_to_cover(legal, out, partner_out, suit_masks, suit_low, trump_suit):
    """A lead that shields a partner's nil: a boss first, then a suit the nil bidder is out of
    (it discards), then the highest card."""
    best = -1
    best_key = -1e9
    for suit in range(4):
        mine = legal & suit_masks[suit]
        if mine == 0:
            continue
        slot = _highest_bit(mine)
        above = _above(out, slot, suit_masks[suit])
        key = (1000.0 if above == 0 else -10.0 * above) + (slot - suit_low[suit])
        if (partner_out >> suit) & 1:
            key += 300.0
        if key > best_key:
            best, best_key = slot, key
    return best


@njit(cache=True, inline='always')
def _lead_to_attack(legal, out, nil_out, cover_out, suit_masks, suit_low, trump_suit):
    """A lead the opposing nil bidder cannot duck: a suit's lowest card with the fewest
    outstanding cards below it; never a suit the nil bidder is out of, and not one its
    partner is out of while trumps are out (it would ruff over)."""
    trumps_out = out & suit_masks[trump_suit]
    best = -1
    best_key = 1e9
    for suit in range(4):
        mine = legal & suit_masks[suit]
        if mine == 0:
            continue
        slot = _lowest_bit(mine)
        below = _popcount(out & suit_masks[suit] & ((_ONE << np.uint64(slot)) - _ONE))
        key = 100.0 * below + (slot - suit_low[suit])
        if (nil_out >> suit) & 1:
            key += 10000.0
        if (cover_out >> suit) & 1 and suit != trump_suit and trumps_out != 0:
            key += 5000.0
        if key < best_key:
            best, best_key = slot, key
    return best


@njit(cache=True, inline='always')
def _lead_for_tricks(legal, hand, out, opponents_out, partner_out, next_out, suit_masks,
                     suit_low, trump_suit):
    """Lead to take tricks: cash a side-suit boss no opponent can ruff; draw trumps with the boss
    trump; lead into the partner's void; a singleton to ruff later; else low from the longest
    side suit, not away from a king or queen that needs its guard."""
    trump_mask = suit_masks[trump_suit]
    trumps_out = out & trump_mask
    my_trumps = hand & trump_mask
    singleton = -1
    into_void = -1
    longest = -1
    longest_key = -1e9
    for suit in range(4):
        mine = legal & suit_masks[suit]
        if mine == 0 or suit == trump_suit:
            continue
        top = _highest_bit(mine)
        suit_out = out & suit_masks[suit]
        ruffable = trumps_out != 0 and (opponents_out >> suit) & 1 == 1
        if not ruffable and ((suit_out == 0 and trumps_out == 0)
                             or (suit_out != 0 and top > _highest_bit(suit_out))):
            return top
        length = _popcount(mine)
        if ((partner_out >> suit) & 1 and trumps_out != 0 and (next_out >> suit) & 1 == 0
                and suit_out != 0):
            into_void = _lowest_bit(mine)
        if length == 1 and my_trumps != 0 and suit_out != 0:
            singleton = top
        above = _above(out, top, suit_masks[suit])
        key = 10.0 * length - (15.0 if 1 <= above <= 2 and length <= above + 1 else 0.0)
        if key > longest_key:
            longest, longest_key = suit, key
    mine = legal & my_trumps
    if mine != 0 and trumps_out != 0 and _highest_bit(mine) > _highest_bit(trumps_out) and (
            _popcount(mine) >= 2 or _popcount(trumps_out) <= 2):
        return _highest_bit(mine)
    if into_void >= 0:
        return into_void
    if singleton >= 0:
        return singleton
    if longest >= 0:
        return _lowest_bit(legal & suit_masks[longest])
    if trumps_out == 0 or _highest_bit(mine) > _highest_bit(trumps_out):
        return _highest_bit(mine)
    return _lowest_bit(mine)


@njit(cache=True, _nrt=False)
def _play_expert(params, seat, partner, legal, hand, position, led_suit, win_slot, win_seat,
                 win_suit, gone, shown_out, bids, tricks, seat_count, bag_cost_own,
                 bag_cost_opp, set_unit, nil_bid, suit_masks, suit_low, trump_suit):
    """The expert card play (module docstring). Returns the slot to play.

    ``shown_out`` (int64, one per seat): bit s set when that seat has failed to follow suit
    s this hand. ``bag_cost_own`` / ``bag_cost_opp``: what one more bag costs this seat's
    side and its opponents, in points (negative when bags pay). ``set_unit``: the points a
    side loses per contract trick when set rather than made. ``nil_bid``: an opponent's bid
    that is a nil, 0, or -1 when a bid of 0 is a zero (``zero_bid``: a contract of no tricks,
    its tricks counting for its side's contract, so it is not attacked). The seat's own zero and
    its partner's are still played as a nil: the partner's bid tables, calibrated with nils,
    count on it (playing them for the side's contract lost 5 points of win share against
    ``expert-v1``, 61.9% against 66.9%). Other arguments as in
    ``policy_expert.play``.
    """
    trump_mask = suit_masks[trump_suit]
    out = (suit_masks[0] | suit_masks[1] | suit_masks[2] | trump_mask) & ~hand & ~gone
    cards_left = _popcount(hand)
    # The table: live nils, the two contracts.
    my_nil = bids[seat] == 0
    my_nil_live = my_nil and tricks[seat] == 0
    partner_nil = partner >= 0 and bids[partner] == 0 and tricks[partner] == 0
    nil_seat = -1
    nil_offset = 0
    opp_contract = 0
    opp_need = 0
    others_out = -1  # suits every other seat has shown out of
    opponents_out = _RUNTIME_ZERO[0]  # suits some opponent has shown out of (not a literal 0)
    for other in range(1, seat_count):
        opponent = _seat_after(seat, other, seat_count)
        others_out &= shown_out[opponent]
        if opponent == partner:
            continue
        opponents_out |= shown_out[opponent]
        if bids[opponent] == nil_bid:
            if tricks[opponent] == 0 and nil_seat < 0:
                nil_seat, nil_offset = opponent, other
        elif bids[opponent] > nil_bid:  # a count bid (a zero's tricks count for its side)
            if partner >= 0:  # partnership: the opponents are one side
                opp_contract += bids[opponent]
                opp_need += bids[opponent] - tricks[opponent]
            elif bids[opponent] - tricks[opponent] > opp_need:
                opp_contract, opp_need = bids[opponent], bids[opponent] - tricks[opponent]
    need = bids[seat] - tricks[seat] if bids[seat] > 0 else 0
    if partner >= 0 and bids[partner] > 0:
        need += bids[partner] - tricks[partner]
    # What the seat plays for.
    our_set = need > cards_left
    opp_open = opp_contract > 0 and 0 < opp_need <= cards_left
    bags_pay = bag_cost_own + bag_cost_opp < 0
    want = need > 0 and not our_set and need > _sure_trump_count(hand, out, trump_mask)
    if my_nil:
        want = False  # a nil bidder's own tricks are only bags (or, once set, worth nothing)
    elif not want:
        if our_set:  # our tricks are worth nothing to us: deny the opponents theirs
            want = opp_open or bag_cost_opp < 0
        elif opp_open:
            spare = cards_left - opp_need
            want = bags_pay or (spare < params[P_SET_SLACK] and set_unit * opp_contract
                                >= (spare + 1) * (bag_cost_own + bag_cost_opp))
        else:
            want = bags_pay
    attack = nil_seat >= 0 and 2 * need <= cards_left
    partner_out = shown_out[partner] if partner >= 0 else 0
    if position == 0:
        if my_nil:
            return _lead_to_lose(legal, out, others_out, suit_masks, suit_low, trump_suit)
        if partner_nil:
            return _lead_to_cover(legal, out, partner_out, suit_masks, suit_low, trump_suit)
        if attack:
            cover_out = shown_out[_seat_after(nil_seat, 2, seat_count)] if partner >= 0 else 0
            return _lead_to_attack(legal, out, shown_out[nil_seat], cover_out, suit_masks,
                                   suit_low, trump_suit)
        if want:
            next_out = shown_out[_seat_after(partner, 1, seat_count)] if partner >= 0 else 0
            return _lead_for_tricks(legal, hand, out, opponents_out, partner_out, next_out,
                                    suit_masks, suit_low, trump_suit)
        return _lead_to_lose(legal, out, others_out, suit_masks, suit_low, trump_suit)
    beats = _beats_mask(win_slot, win_suit, suit_masks, trump_suit)
    winners = legal & beats
    losing = legal & ~beats
    follows = legal & suit_masks[led_suit] != 0
    # Who plays after this seat in this trick.
    partner_later = False
    later_opponent = np.bool_(False)  # not a literal: a literal argument compiles a callee twice
    later_void = np.bool_(False)  # an opponent still to play has shown out of the led suit
    for other in range(1, seat_count - position):
        later = _seat_after(seat, other, seat_count)
        if later == partner:
            partner_later = True
        else:
            later_opponent = True
            if (shown_out[later] >> led_suit) & 1:
                later_void = True
    if my_nil_live:
        if losing != 0:
            if follows:
                return _highest_bit(losing)
            return _most_dangerous(losing, out, suit_masks, suit_low, trump_suit)
        cheapest = _lowest_bit(winners)
        if _can_be_beaten(cheapest, _suit_of(cheapest, suit_masks), out, suit_masks, trump_suit,
                          partner_later or later_opponent, True):
            return cheapest
        return _most_dangerous(legal, out, suit_masks, suit_low, trump_suit)
    if partner_nil:
        if partner_later:
            if follows:
                # Set the bar for the nil bidder as high as the suit allows.
                return _highest_bit(winners) if winners != 0 else _lowest_bit(legal)
            ruffs = winners & trump_mask
            if ruffs != 0:
                return _lowest_bit(ruffs)
            return _discard(legal, hand, out, suit_masks, suit_low, trump_suit)
        if win_seat == partner:
            if winners != 0:
                return _lowest_bit(winners)  # take the trick off the nil bidder
            return _discard(legal, hand, out, suit_masks, suit_low, trump_suit)
    if attack:
        nil_later = position + nil_offset < seat_count
        if win_seat == nil_seat or nil_later:
            # Leave the nil bidder winning, or the bar it must beat as low as it is; shed the
            # highest card that does, and keep the low cards for later attacks.
            if losing != 0:
                return _shed(losing, follows, need, out, suit_masks, suit_low, trump_suit)
            return _lowest_bit(winners)
    if not want:
        if losing != 0:
            return _shed(losing, follows, need, out, suit_masks, suit_low, trump_suit)
        if later_opponent:
            return _lowest_bit(winners)  # an opponent may still take it
        return _most_dangerous(legal, out, suit_masks, suit_low, trump_suit)
    # Playing for tricks.
    if win_seat == partner:
        partner_holds = not _can_be_beaten(win_slot, win_suit, out, suit_masks, trump_suit,
                                           later_opponent, later_void)
        if not partner_holds:
            held = _holds_trick(winners, out, led_suit, suit_masks, trump_suit, later_opponent,
                                later_void)
            if held != 0:
                return _lowest_bit(held)
        return _lowest_bit(legal) if follows else _discard(legal, hand, out, suit_masks,
                                                           suit_low, trump_suit)
    if winners == 0:
        return _lowest_bit(legal) if follows else _discard(legal, hand, out, suit_masks,
                                                           suit_low, trump_suit)
    if not later_opponent:
        return _lowest_bit(winners)
    held = _holds_trick(winners, out, led_suit, suit_masks, trump_suit, later_opponent, later_void)
    if held != 0:
        return _lowest_bit(held)
    if follows:
        if partner_later:  # second hand low: the partner still plays
            return _lowest_bit(losing) if losing != 0 else _lowest_bit(winners)
        # Third hand high: the cheapest card equal to the highest, when that one wins.
        top = _highest_bit(legal)
        if (beats >> np.uint64(top)) & _ONE == _ONE:
            return _cheapest_equal(top, legal, out)
        return _lowest_bit(legal)
    ruffs = winners & trump_mask
    if ruffs != 0:
        return _lowest_bit(ruffs)
    return _discard(legal, hand, out, suit_masks, suit_low, trump_suit)


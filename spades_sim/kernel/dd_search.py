"""Double-dummy search: every hand face up, each seat playing its best (docs/double-dummy.md).

One recursive alpha-beta over card plays answers a yes/no question, *can the maximising seats
reach ``target``?*, in one of three modes:

- ``MODE_TRICKS``: the tricks of the target seats over the whole hand (taken so far and to come)
  reach ``target``; the target seats are the maximising side;
- ``MODE_NIL``: the nil seat (the only target seat) takes ``target`` (1) tricks, the other sides
  maximising and the nil seat and its partner minimising;
- ``MODE_SCORE``: the hand's score difference of the maximising side (the kernel's own scoring
  of a side, ``scoring._score_side_hand``, on the rule set's ``PackedRules.scoring``:
  :func:`_hand_value`) reaches ``target``.

The usual techniques of bridge solvers keep it fast: a transposition table at trick starts
keyed on the hands with each card's rank *relative to the cards still out* (so positions that
differ only in which small cards are gone share an entry), holding lower and upper bounds that
stay valid for every target and every deal of the same rules; cards of a hand with no card of
another hand between them are played once (they are equivalent); and the moves are ordered so
that the cut comes early (a cheap winner, a low card under a partner's winner, a cashed top
card; and the card that last refuted a turn, from a cutoff table). The drivers
(:func:`_solve_tricks`, :func:`_solve_score`, :func:`_solve_many`) find the exact value with
yes/no searches that share the tables, stepping from a guess (or bisecting the score values).

Cards are slots (``spades_sim.kernel.packing``); legality is the kernel's own
(``trick._lead_mask``, ``trick._follow_mask``, the first-lead codes of ``play``; trumps are
broken only by a trump played on another suit's lead). jit-compiled; inputs not checked: the
plain-Python face is ``spades_sim.kernel.double_dummy``.
"""

import numpy as np
from numba import njit, types

from .bits import _RUNTIME_ZERO, _bits_above, _highest_bit, _lowest_bit, _nth_bit, _popcount
from .play import LEAD_LOWEST_CLUB, LEAD_NO_TRUMP
from .scoring import SCORING_NIL_FOR_PARTNER, _score_side_hand
from .trick import _beats, _beats_mask, _follow_mask, _lead_mask
from .views import _address, _borrowed, _view_maker

MODE_TRICKS = 0
MODE_NIL = 1
MODE_SCORE = 2

# Fields of the ``cfg`` array that every search reads.
CFG_SEATS = 0
CFG_TRUMP = 1
CFG_FIRST_LEAD = 2
CFG_LEAD_ANY_TIME = 3
CFG_MAX_SEATS = 4
"""Bit mask of the maximising seats."""
CFG_TARGET_SEATS = 5
"""Bit mask of the seats whose tricks count (tricks and nil modes)."""
CFG_MODE = 6
CFG_CONTEXT = 7
"""A number for the question asked (mode, side or seat, bids): table entries of other questions
never match."""
CFG_LOWEST_CLUB = 8
"""Slot of the deck's lowest club."""
CFG_TRUMPS_BREAK = 9
"""1 when a trump on another suit's lead breaks trumps, 0 under ``spades_lead = "never_broken"``."""
CFG_SIDES = 10
"""Scoring sides: partners are this many seats apart."""
CFG_SIDE = 11
"""MODE_SCORE: the side whose score difference is asked."""
CFG_FIELDS = 12

# MODE_SCORE reads the rule set's scoring as the hand's kernel does, in ``scoring`` (the rule set's
# ``PackedRules.scoring``, see ``scoring.SCORING_*``); per seat bids and blind flags, and per side
# bags carried, in ``bids``, ``blind`` and ``bags``.

KEY_WORDS = 6
"""Words of a table key: one normalised hand per seat (five at most), then the rest of the state."""
_UNSET = 1 << 30
_VALID = np.uint64(1) << np.uint64(63)
_ONE = np.uint64(1)
MAX_MOVES = 24
"""More than any hand holds (17 cards at three seats). A row of ``moves`` (one per depth of the
search) holds the cards to try, then their priorities."""
MAX_DEPTH = 64
"""Rows of ``moves`` and of ``key_rows``: more than the cards of any deal."""

# A pattern's row: its hands in words 0 to 4 of ``pat_hands`` and, in the same 64-byte row seen
# as 32-bit numbers (``pat_info``, a view of the same memory: one cache line a pattern), these.
# Row 0 holds, in ``pat_info[0, 0]``, the next free row.
PAT_LOWER = 10
PAT_UPPER = 11
PAT_NEXT = 12
"""The next pattern of its list (a shape's, or a pattern's children; 0: the end)."""
PAT_TOPS = 13
"""Cards the pattern fixes, per suit (5 bits each, the top cards of the suit) and in all (bits 20
on): patterns with fewer come first."""
PAT_CHILD = 14
"""The first of the pattern's children (patterns that fix more cards, those included; 0: none)."""
PAT_PARENT = 15
"""The pattern whose children it is among (0: it is in the shape's list)."""
PAT_WORDS = 8
"""64-bit words of a pattern's row."""

# A row of the endings table (score mode): word 0 its key (the tricks taken as the score tells
# them apart, the tricks to come and the question; 0: empty), then per count ``m`` of the tricks
# to come the maximising seats take (0 to ENDS_SPAN - 1) the smallest score difference of any
# ending where they take ``m`` or more (word 1 + m), then the largest of any where they take
# ``m`` or fewer (word 1 + ENDS_SPAN + m).
ENDS_SPAN = 18
"""Counts of tricks to come a row covers: 0 to 17, the largest hand."""
ENDS_WORDS = 1 + 2 * ENDS_SPAN

# An exact-table row: the trick start's check hash in word 0 of ``keys`` and, in the same 32-byte
# row seen as 32-bit numbers (``info``), these.
EXACT_MOVE = 2
"""The lead that last cut here, as a relative slot, plus 1 (0: none)."""
EXACT_LOWER = 3
EXACT_LOWER_TOPS = 4
EXACT_UPPER = 5
EXACT_UPPER_TOPS = 6
EXACT_WORDS = 4
"""64-bit words of an exact-table row."""

# The arrays a search reads, as :func:`_reach_root` hands them down: each one's address, rows
# and columns at these offsets of ``desc`` (see ``views._view_maker``: seven to nine words an
# array for every recursive call would cost more than the search's own work).
(D_HANDS, D_TAKEN, D_CFG, D_SUIT_MASKS, D_SUIT_LOW, D_SLOT_SUIT, D_KEYS, D_INFO, D_SHAPES,
 D_PAT_HANDS, D_PAT_INFO, D_CUTS, D_ENDS, D_BIDS, D_BLIND, D_BAGS, D_SCORING, D_MOVES,
 D_KEY_ROWS, D_STOP) = range(0, 60, 3)
DESC_WORDS = 60

_u64s = _view_maker(types.uint64, 1)
_i64s = _view_maker(types.int64, 1)
_u64_rows = _view_maker(types.uint64, 2)
_i64_rows = _view_maker(types.int64, 2)
_i32_rows = _view_maker(types.int32, 2)


@njit(cache=True)
def _hand_value(taken, bids, blind, bags, scoring, sides, asked):
    """The score difference of side ``asked`` (of ``sides``, ``cfg[CFG_SIDE]`` and
    ``cfg[CFG_SIDES]``) for a hand ending with ``taken`` tricks per seat: its points minus the
    other sides' total, each side scored by the kernel's own ``scoring._score_side_hand`` (bags
    and a penalty crossing the limit included)."""
    n = taken.shape[0]
    value = 0
    for side in range(sides):
        points = _score_side_hand(scoring, n, sides, side, bids, blind, taken, bags[side])[0]
        value += points if side == asked else -points
    return value


@njit(cache=True)
def _next_ending(extra, left):
    """Step ``extra`` (the tricks to come per seat, ``left`` in all) to the next way the tricks
    can fall, an odometer over the first seats' counts with the last seat taking the rest;
    False after the last. The first is every trick to the last seat."""
    n = extra.shape[0]
    while True:
        seat = 0
        while seat < n - 1:
            extra[seat] += 1
            if extra[seat] <= left:
                break
            extra[seat] = 0
            seat += 1
        if seat == n - 1:
            return False
        spent = 0
        for seat in range(n - 1):
            spent += extra[seat]
        if spent <= left:
            extra[n - 1] = left - spent
            return True


@njit(cache=True)
def _ending_value(taken, extra, bids, blind, bags, scoring, sides, asked):
    """:func:`_hand_value` of the hand ending with ``extra`` more tricks per seat after
    ``taken`` (restored)."""
    n = taken.shape[0]
    for seat in range(n):
        taken[seat] += extra[seat]
    value = _hand_value(taken, bids, blind, bags, scoring, sides, asked)
    for seat in range(n):
        taken[seat] -= extra[seat]
    return value


@njit(cache=True)
def _score_values(taken, left, bids, blind, bags, scoring, sides, asked, out):
    """The distinct score differences any ending of ``left`` more tricks can give, ascending, in
    ``out``; returns how many."""
    extra = np.zeros(taken.shape[0], np.int64)
    extra[-1] = left
    count = 0
    more = True
    while more:
        value = _ending_value(taken, extra, bids, blind, bags, scoring, sides, asked)
        known = False
        for i in range(count):
            if out[i] == value:
                known = True
                break
        if not known:
            out[count] = value
            count += 1
        more = _next_ending(extra, left)
    out[:count].sort()
    return count


@njit(cache=True)
def _ends_row(ends, taken, left, n, cfg, bids, blind, bags, scoring):
    """The row of ``ends`` for the endings of ``left`` more tricks after ``taken`` (see
    ENDS_WORDS), filled by going through every way the tricks can fall if it was not there."""
    key = np.int64(_score_taken(taken, n, bids, scoring, cfg)) | (left << 40) | (
        cfg[CFG_CONTEXT] << 45)
    row = np.int64((np.uint64(key) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(40)) & (
        ends.shape[0] - 1)
    if ends[row, 0] == key:
        return row
    ends[row, 0] = key
    low, high = 1, 1 + ENDS_SPAN
    for m in range(left + 1):
        ends[row, low + m] = _UNSET
        ends[row, high + m] = -_UNSET
    extra = np.zeros(n, np.int64)
    extra[n - 1] = left
    sides, asked = cfg[CFG_SIDES], cfg[CFG_SIDE]
    more = True
    while more:
        ours = 0
        for seat in range(n):
            if (cfg[CFG_MAX_SEATS] >> seat) & 1:
                ours += extra[seat]
        value = _ending_value(taken, extra, bids, blind, bags, scoring, sides, asked)
        ends[row, low + ours] = min(ends[row, low + ours], value)
        ends[row, high + ours] = max(ends[row, high + ours], value)
        more = _next_ending(extra, left)
    for m in range(left - 1, -1, -1):  # "m or more" and "m or fewer"
        ends[row, low + m] = min(ends[row, low + m], ends[row, low + m + 1])
    for m in range(1, left + 1):
        ends[row, high + m] = max(ends[row, high + m], ends[row, high + m - 1])
    return row


@njit(cache=True, inline='always')
def _worst(mode, won, ours, ends, end):
    """The least the maximising seats end with when they take ``ours`` or more of the tricks to
    come: tricks (``won`` so far), or the score difference (row ``end`` of ``ends``)."""
    if mode == MODE_SCORE:
        return ends[end, 1 + ours]
    return won + ours


@njit(cache=True, inline='always')
def _best(mode, won, left, theirs, ends, end):
    """The most the maximising seats end with when the others take ``theirs`` or more of the
    ``left`` tricks to come (see :func:`_worst`)."""
    if mode == MODE_SCORE:
        return ends[end, 1 + ENDS_SPAN + left - theirs]
    return won + left - theirs


@njit(cache=True, inline='always')
def _won(taken, n, cfg):
    """The tricks the target seats have taken."""
    won = 0
    for seat in range(n):
        if (cfg[CFG_TARGET_SEATS] >> seat) & 1:
            won += taken[seat]
    return won


@njit(cache=True, inline='always')
def _legal(hand, k, first, broken, led_suit, cfg, suit_masks):
    """The kernel's legal cards for a seat holding ``hand``, ``k`` cards into the trick."""
    if k > 0:
        return _follow_mask(hand, led_suit, suit_masks)
    if first and cfg[CFG_FIRST_LEAD] == LEAD_LOWEST_CLUB:
        club = _ONE << np.uint64(cfg[CFG_LOWEST_CLUB])
        if hand & club:
            return club
    first_no_trump = first and cfg[CFG_FIRST_LEAD] == LEAD_NO_TRUMP
    free = broken or (cfg[CFG_LEAD_ANY_TIME] != 0 and not first_no_trump)
    return _lead_mask(hand, suit_masks, cfg[CFG_TRUMP], free)


@njit(cache=True, inline='always')
def _top_cards(cards, count):
    """The ``count`` highest cards of ``cards``."""
    for _ in range(_popcount(cards) - count):
        cards &= cards - _ONE
    return cards


@njit(cache=True)
def _quick_tricks(hands, n, leader, broken, cfg, suit_masks, skipped=-1):
    """Tricks the leader can cash at once, keeping the lead: in each suit (but ``skipped``) its
    unbroken run of top cards, as far as no opponent holding a trump runs out of the suit first
    (a lower bound on its group's tricks to come). Returns (tricks, the cards counted)."""
    trump = cfg[CFG_TRUMP]
    group = (cfg[CFG_MAX_SEATS] >> leader) & 1
    hand = hands[leader]
    occupied = np.uint64(0)
    for seat in range(n):
        occupied |= hands[seat]
    others = occupied & ~hand
    tricks = 0
    counted = np.uint64(0)
    for suit in range(4):
        own = hand & suit_masks[suit]
        if own == 0 or suit == skipped:
            continue
        if suit == trump and not (broken or cfg[CFG_LEAD_ANY_TIME] != 0
                                  or hand & ~suit_masks[trump] == 0):
            continue  # trumps may not be led yet
        out = others & suit_masks[suit]
        run = 0
        top = own
        while top:
            high = _highest_bit(top)
            if out != 0 and _highest_bit(out) > high:
                break
            run += 1
            top ^= _ONE << np.uint64(high)
        if run == 0:
            continue
        longest = 0  # the most cards of the suit another seat holds
        for seat in range(n):
            if seat != leader:
                longest = max(longest, _popcount(hands[seat] & suit_masks[suit]))
        ranked = min(run, longest)  # the rest win because the other seats have run out
        if run >= longest:
            run = _popcount(own)  # and so do the leader's small cards
        if suit != trump:
            for seat in range(n):
                length = _popcount(hands[seat] & suit_masks[suit])
                if ((cfg[CFG_MAX_SEATS] >> seat) & 1) != group:
                    if hands[seat] & suit_masks[trump] and length < run:
                        run = length  # an opponent ruffs once out of the suit
                elif seat != leader and length == 0 and hands[seat] & ~suit_masks[trump] == 0:
                    run = min(run, 1)  # a partner holding only trumps must ruff: the lead moves
        if run:
            tricks += run
            if ranked:
                counted |= _top_cards(own, min(ranked, run))
    return tricks, counted


@njit(cache=True)
def _entry_tricks(hands, n, leader, broken, cfg, suit_masks):
    """Tricks the leader's side can take at once by way of the partner (two partnerships): the
    leader leads a small card of a side suit whose top card the partner holds, no opponent can
    ruff it, and the partner cashes its quick tricks in the other suits (:func:`_quick_tricks`
    on the cards left after that trick; the opponents only follow to it, or discard holding no
    trump, which can only help). Returns the best such (tricks, the cards counted), or (0, 0)."""
    best = 0
    best_cards = np.uint64(0)
    if n != 4:
        return best, best_cards
    partner = leader + 2 if leader < 2 else leader - 2
    seats = cfg[CFG_MAX_SEATS]
    if seats != 5 and seats != 10:  # two partnerships, seats 0 and 2 against 1 and 3
        return best, best_cards
    trump = cfg[CFG_TRUMP]
    trumps = suit_masks[trump]
    for suit in range(4):
        if suit == trump:
            continue
        mine = hands[leader] & suit_masks[suit]
        theirs = hands[partner] & suit_masks[suit]
        if mine == 0 or theirs == 0:
            continue
        top = _highest_bit(theirs)
        low = _lowest_bit(mine)
        if low > top:
            continue  # the leader's smallest card would win the trick itself
        entry = True
        for step in (1, 3):
            opponent = leader + step if leader + step < 4 else leader + step - 4
            cards = hands[opponent] & suit_masks[suit]
            if cards == 0 and hands[opponent] & trumps:
                entry = False  # it ruffs
            elif cards != 0 and _highest_bit(cards) > top:
                entry = False  # it beats the partner's top card
        if not entry:
            continue
        lead, win = hands[leader], hands[partner]
        hands[leader] = lead & ~(_ONE << np.uint64(low))
        hands[partner] = win & ~(_ONE << np.uint64(top))
        tricks, counted = _quick_tricks(hands, n, partner, broken, cfg, suit_masks, suit)
        hands[leader] = lead
        hands[partner] = win
        if 1 + tricks > best:
            best = 1 + tricks
            best_cards = counted | (_ONE << np.uint64(top))
    return best, best_cards


@njit(cache=True)
def _sure_trumps(hands, n, cfg, suit_masks):
    """Tricks each group is sure of from trumps, at any trick start whoever leads: the larger of
    (a) the run of top trumps still out that the group holds, as many as its longest trump
    holding (the run's cards need never fall on one another: the long hand plays a small trump
    or a run card under its partner's) and (b) its longest trump holding less all the other
    group's trumps (each of that hand's trumps wins its trick unless another group's trump beats
    it, and each of those beats one at most). Returns (maximising group's, other group's, the
    cards counted: the run's, when (a) decides; (b) rests on suit lengths alone)."""
    trumps = suit_masks[cfg[CFG_TRUMP]]
    rest = np.uint64(0)
    held_max = held_min = longest_max = longest_min = 0  # per group: the maximising one, the other
    for seat in range(n):
        own = hands[seat] & trumps
        rest |= own
        length = _popcount(own)
        if (cfg[CFG_MAX_SEATS] >> seat) & 1:
            held_max += length
            longest_max = max(longest_max, length)
        else:
            held_min += length
            longest_min = max(longest_min, length)
    run_cards = np.uint64(0)
    if rest == 0:
        return 0, 0, run_cards
    top = _highest_bit(rest)
    owner = 0
    for seat in range(n):
        if (hands[seat] >> np.uint64(top)) & _ONE:
            owner = (cfg[CFG_MAX_SEATS] >> seat) & 1
            break
    group_cards = np.uint64(0)
    for seat in range(n):
        if (cfg[CFG_MAX_SEATS] >> seat) & 1 == owner:
            group_cards |= hands[seat]
    longest = longest_max if owner else longest_min
    run = 0
    while rest and run < longest:
        bit = _ONE << np.uint64(_highest_bit(rest))
        if group_cards & bit == 0:
            break
        run += 1
        run_cards |= bit
        rest ^= bit
    ours = run if owner else 0
    theirs = 0 if owner else run
    if longest_max - held_min > ours:
        ours = longest_max - held_min
        if owner:
            run_cards = np.uint64(0)
    if longest_min - held_max > theirs:
        theirs = longest_min - held_max
        if not owner:
            run_cards = np.uint64(0)
    return ours, theirs, run_cards


@njit(cache=True)
def _guess_tricks(hands, n, left, cfg, suit_masks):
    """A guess at the tricks to come of the maximising seats, for the drivers to start from (a
    good guess saves the searches at targets far from the value): ``left`` times a linear fit of
    their share of the top-card points (4-3-2-1 for each suit's top four cards), of the trumps,
    of the aces and kings (2 and 1), and their longest trump holding against the others'.
    Fitted on 3,000 random deals solved by DDS (tricks of the leading side); off by at most one
    trick in 4 deals out of 5."""
    trump = cfg[CFG_TRUMP]
    points = np.zeros(2, np.int64)
    trumps = np.zeros(2, np.int64)
    longest = np.zeros(2, np.int64)
    controls = np.zeros(2, np.int64)
    for seat in range(n):
        group = (cfg[CFG_MAX_SEATS] >> seat) & 1
        for suit in range(4):
            rest = suit_masks[suit]
            for value in range(4, 0, -1):  # the suit's top cards, highest first
                if rest == 0:
                    break
                top = np.uint64(_highest_bit(rest))
                rest ^= _ONE << top
                if (hands[seat] >> top) & _ONE:
                    points[group] += value
                    if value >= 3:
                        controls[group] += value - 2
        length = _popcount(hands[seat] & suit_masks[trump])
        trumps[group] += length
        longest[group] = max(longest[group], length)
    share = -0.4115 + 0.321 * (longest[1] - longest[0]) / max(left, 1)
    share += 0.8694 * (points[1] / (points[0] + points[1]) if points[0] + points[1] else 0.5)
    share += 0.7442 * (trumps[1] / (trumps[0] + trumps[1]) if trumps[0] + trumps[1] else 0.5)
    share += 0.2406 * (controls[1] / (controls[0] + controls[1]) if controls[0] + controls[1]
                       else 0.5)
    return min(max(np.int64(np.floor(left * share + 0.75)), 0), left)


@njit(cache=True)
def _table_key(hands, n, leader, broken, first, taken, cfg, suit_masks, suit_low, bids,
               scoring, key):
    """Fill ``key`` (KEY_WORDS words) for a trick start: each seat's cards by rank among the cards
    still out in its suit, then leader, broken, first trick, the question and (score mode) the
    tricks taken per seat as :func:`_score_taken` tells them apart."""
    occupied = np.uint64(0)
    for seat in range(KEY_WORDS - 1):
        key[seat] = 0
    for seat in range(n):
        occupied |= hands[seat]
    for suit in range(4):
        rest = occupied & suit_masks[suit]
        rank = np.uint64(suit_low[suit])
        while rest:
            bit = rest & (~rest + _ONE)
            for seat in range(n):
                if hands[seat] & bit:
                    key[seat] |= _ONE << rank
                    break
            rank += _ONE
            rest ^= bit
    meta = np.uint64(leader) | (np.uint64(broken) << np.uint64(3)) | (
        np.uint64(first) << np.uint64(4)) | (np.uint64(cfg[CFG_CONTEXT]) << np.uint64(5))
    if cfg[CFG_MODE] == MODE_SCORE:
        meta |= _score_taken(taken, n, bids, scoring, cfg) << np.uint64(24)
    key[KEY_WORDS - 1] = meta | _VALID


@njit(cache=True, inline='always')
def _score_taken(taken, n, bids, scoring, cfg):
    """The tricks taken per seat as far as the hand's score can tell them apart (5 bits a seat):
    a side whose seats all count toward its contract (every seat bid, or nil tricks count for
    the partner) is scored on its total alone, so the total goes to its first seat and the
    others show 0, except that a nil seat's 0 or more still matters; positions that differ only
    in which partner took the tricks then share table entries."""
    sides = cfg[CFG_SIDES]
    word = np.uint64(0)
    for side in range(sides):
        pooled = sides < n
        total = 0
        for seat in range(side, n, sides):
            total += taken[seat]
            if bids[seat] == 0 and not scoring[SCORING_NIL_FOR_PARTNER]:
                pooled = False
        for seat in range(side, n, sides):
            count = taken[seat]
            if pooled:
                count = total if seat == side else 0
                if bids[seat] == 0 and taken[seat] > 0:
                    count |= 16  # a nil taken: its 0 or more (the total is at most 13 here)
            word |= np.uint64(count) << np.uint64(5 * seat)
    return word


@njit(cache=True, inline='always')
def _mix(place, check, word):
    """One more word into the two hashes of :func:`_table_hashes`."""
    place = (place ^ word) * np.uint64(0x9E3779B97F4A7C15)
    place ^= place >> np.uint64(29)
    check = (check ^ word) * np.uint64(0xBF58476D1CE4E5B9)
    check ^= check >> np.uint64(31)
    return place, check


@njit(cache=True, inline='always')
def _table_hashes(key):
    """Two independent hashes of a key: the first places it, the second (never 0, the mark of an
    empty entry) is what a table keeps to recognise it."""
    place = np.uint64(0)
    check = np.uint64(0x2545F4914F6CDD1D)
    for word in range(KEY_WORDS):
        place, check = _mix(place, check, key[word])
    return place, check | _ONE


@njit(cache=True)
def _shape_hashes(hands, n, key, suit_masks):
    """The two hashes of a trick start's shape: each seat's suit lengths and the key's last word
    (leader, broken, the question, tricks taken in score mode)."""
    place = np.uint64(0)
    check = np.uint64(0x2545F4914F6CDD1D)
    for seat in range(n):
        word = np.uint64(0)
        for suit in range(4):
            word |= np.uint64(_popcount(hands[seat] & suit_masks[suit])) << np.uint64(6 * suit)
        place, check = _mix(place, check, word)
    place, check = _mix(place, check, key[KEY_WORDS - 1])
    return place, check | _ONE


@njit(cache=True)
def _closure(hands, n, relevant, suit_masks):
    """The cards a trick start's answer rests on, given the ``relevant`` cards found below it: in
    each suit, every card still out from the lowest relevant one up, that one first extended
    down the run of its holder's next lower cards (a run's cards were tried as one, so a
    position where they are not a run may differ)."""
    occupied = np.uint64(0)
    for seat in range(n):
        occupied |= hands[seat]
    closed = np.uint64(0)
    for suit in range(4):
        rel = relevant & suit_masks[suit]
        if rel == 0:
            continue
        cards = occupied & suit_masks[suit]
        low = _lowest_bit(rel)
        hand = np.uint64(0)
        for seat in range(n):
            if (hands[seat] >> np.uint64(low)) & _ONE:
                hand = hands[seat]
                break
        below = cards & ((_ONE << np.uint64(low)) - _ONE)
        while below:
            next_low = _highest_bit(below)
            if (hand >> np.uint64(next_low)) & _ONE == 0:
                break
            low = next_low
            below ^= _ONE << np.uint64(low)
        closed |= cards & ~((_ONE << np.uint64(low)) - _ONE)
    return closed


@njit(cache=True)
def _pattern_mask(hands, n, closed, suit_masks, suit_low):
    """A closure (:func:`_closure`) as a mask of the key's relative ranks (the top cards of each
    suit) and its counts: per suit 5 bits, the total from bit 20."""
    occupied = np.uint64(0)
    for seat in range(n):
        occupied |= hands[seat]
    mask = np.uint64(0)
    tops = 0
    for suit in range(4):
        top = _popcount(closed & suit_masks[suit])
        if top == 0:
            continue
        cards = _popcount(occupied & suit_masks[suit])
        mask |= ((_ONE << np.uint64(top)) - _ONE) << np.uint64(suit_low[suit] + cards - top)
        tops |= top << (5 * suit)
        tops += top << 20
    return mask, tops


@njit(cache=True)
def _pattern_cards(hands, n, tops, suit_masks):
    """The cards of this position a pattern's counts (:func:`_pattern_mask`) stand for."""
    occupied = np.uint64(0)
    for seat in range(n):
        occupied |= hands[seat]
    cards = np.uint64(0)
    for suit in range(4):
        top = (tops >> (5 * suit)) & 31
        if top:
            cards |= _top_cards(occupied & suit_masks[suit], top)
    return cards


@njit(cache=True)
def _shape_row(shapes, place, check, make):
    """The row of ``shapes`` for a shape (4 rows probed), made if ``make`` (replacing the first
    row probed when all are taken); -1 if absent."""
    size = shapes.shape[0]
    home = np.int64(place & np.uint64(size - 1))
    for probe in range(4):
        row = (home + probe) & (size - 1)
        if shapes[row, 0] == check:
            return row
        if shapes[row, 0] == 0:
            if make:
                shapes[row, 0] = check
                shapes[row, 1] = 0
                return row
            return -1
    if make:
        shapes[home, 0] = check
        shapes[home, 1] = 0
        return home
    return -1


@njit(cache=True, inline='always')
def _covers(pat_hands, general, specific, n):
    """Whether pattern ``specific`` fixes every card ``general`` fixes, at the same seats (any
    position it matches, ``general`` matches)."""
    for seat in range(n):
        cards = pat_hands[general, seat]
        if pat_hands[specific, seat] & cards != cards:
            return False
    return True


@njit(cache=True)
def _pattern_find(pat_hands, pat_info, pattern, key, n, need):
    """The first pattern of the tree from list row ``pattern`` on that the position's key matches
    (the same seat holds each of its top cards) and whose bounds decide ``need``; 0 for none. A
    pattern's children are more specific: they are looked at only where it matches."""
    parent = 0
    while True:
        while pattern:
            match = True
            for seat in range(n):
                cards = pat_hands[pattern, seat]
                if key[seat] & cards != cards:
                    match = False
                    break
            if match:
                if pat_info[pattern, PAT_LOWER] >= need or pat_info[pattern, PAT_UPPER] < need:
                    return pattern
                if pat_info[pattern, PAT_CHILD]:
                    parent = pattern
                    pattern = pat_info[pattern, PAT_CHILD]
                    continue
            pattern = pat_info[pattern, PAT_NEXT]
        if parent == 0:
            return 0
        pattern = pat_info[parent, PAT_NEXT]  # back up: the parent's next sibling
        parent = pat_info[parent, PAT_PARENT]


@njit(cache=True)
def _pattern_insert(pat_info, first, new, owner):
    """List ``first`` (the children of pattern ``owner``, 0: a shape's list) with pattern ``new``
    put in its place (fewest fixed cards first); returns the list's first row."""
    order = pat_info[new, PAT_TOPS] >> 20
    pat_info[new, PAT_PARENT] = owner
    before = 0
    pattern = first
    while pattern and (pat_info[pattern, PAT_TOPS] >> 20) <= order:
        before = pattern
        pattern = pat_info[pattern, PAT_NEXT]
    pat_info[new, PAT_NEXT] = pattern
    if before:
        pat_info[before, PAT_NEXT] = new
        return first
    return new


@njit(cache=True)
def _pattern_add(shapes, row, pat_hands, pat_info, new, n):
    """Put pattern ``new`` (its row filled, no links) in the tree of shape ``row``: under the
    most general patterns that match it (merged into an equal one, dropped if a more general
    one's bounds say as much); else in their list, taking the list's more specific patterns as
    its children (those whose bounds it makes redundant give it their children instead).
    Returns whether ``new`` was kept."""
    order = pat_info[new, PAT_TOPS] >> 20
    low = pat_info[new, PAT_LOWER]
    high = pat_info[new, PAT_UPPER]
    owner = 0
    first = np.int64(shapes[row, 1])
    pattern = first
    while pattern:
        if (pat_info[pattern, PAT_TOPS] >> 20) > order:
            break
        if _covers(pat_hands, pattern, new, n):
            if pat_info[pattern, PAT_LOWER] >= low and pat_info[pattern, PAT_UPPER] <= high:
                return False
            if pat_info[pattern, PAT_TOPS] == pat_info[new, PAT_TOPS]:  # the same pattern
                pat_info[pattern, PAT_LOWER] = max(pat_info[pattern, PAT_LOWER], low)
                pat_info[pattern, PAT_UPPER] = min(pat_info[pattern, PAT_UPPER], high)
                return False
            owner = pattern  # go down into its children
            first = pat_info[pattern, PAT_CHILD]
            pattern = first
            continue
        pattern = pat_info[pattern, PAT_NEXT]
    kept_first = 0
    kept_last = 0
    pattern = first
    while pattern:
        after = pat_info[pattern, PAT_NEXT]
        if (pat_info[pattern, PAT_TOPS] >> 20) > order and _covers(pat_hands, new, pattern, n):
            if pat_info[pattern, PAT_LOWER] <= low and pat_info[pattern, PAT_UPPER] >= high:
                child = pat_info[pattern, PAT_CHILD]  # redundant: its children move up
                while child:
                    next_child = pat_info[child, PAT_NEXT]
                    pat_info[new, PAT_CHILD] = _pattern_insert(pat_info, pat_info[new, PAT_CHILD],
                                                               child, new)
                    child = next_child
            else:
                pat_info[new, PAT_CHILD] = _pattern_insert(pat_info, pat_info[new, PAT_CHILD],
                                                           pattern, new)
        else:
            if kept_last:
                pat_info[kept_last, PAT_NEXT] = pattern
            else:
                kept_first = pattern
            kept_last = pattern
            pat_info[pattern, PAT_NEXT] = 0
        pattern = after
    first = _pattern_insert(pat_info, kept_first, new, owner)
    if owner:
        pat_info[owner, PAT_CHILD] = first
    else:
        shapes[row, 1] = first
    return True


@njit(cache=True)
def _pattern_store(shapes, pat_hands, pat_info, place, check, key, n, mask, tops, low, high):
    """Record bounds for the pattern ``key & mask`` of a shape (:func:`_pattern_add`). A full
    pool starts over."""
    if pat_info[0, 0] >= pat_info.shape[0]:
        shapes[:, :] = 0
        pat_info[0, 0] = 1
    row = _shape_row(shapes, place, check, True)
    new = pat_info[0, 0]
    for seat in range(n):
        pat_hands[new, seat] = key[seat] & mask
    pat_info[new, PAT_LOWER] = low
    pat_info[new, PAT_UPPER] = high
    pat_info[new, PAT_NEXT] = 0
    pat_info[new, PAT_TOPS] = tops
    pat_info[new, PAT_CHILD] = 0
    if _pattern_add(shapes, row, pat_hands, pat_info, new, n):
        pat_info[0, 0] = new + 1


@njit(cache=True)
def _exact_find(keys, place, check):
    """The row of the exact table holding this trick start, or -1."""
    row = np.int64(place & np.uint64(keys.shape[0] - 1))
    return row if keys[row, 0] == check else -1


@njit(cache=True)
def _exact_store(keys, info, place, check, low, low_tops, high, high_tops, move):
    """Record in the exact table a trick start's bounds, each with the counts of the top cards
    it rests on (:func:`_pattern_mask`), and the lead that cut (a relative slot; -1 for none);
    another trick start in the row is replaced."""
    row = np.int64(place & np.uint64(keys.shape[0] - 1))
    if keys[row, 0] != check:
        keys[row, 0] = check
        info[row, EXACT_MOVE] = 0
        info[row, EXACT_LOWER] = -_UNSET
        info[row, EXACT_UPPER] = _UNSET
    if low > info[row, EXACT_LOWER]:
        info[row, EXACT_LOWER] = low
        info[row, EXACT_LOWER_TOPS] = low_tops
    if high < info[row, EXACT_UPPER]:
        info[row, EXACT_UPPER] = high
        info[row, EXACT_UPPER_TOPS] = high_tops
    if move >= 0:
        info[row, EXACT_MOVE] = move + 1


@njit(cache=True)
def _cut_hashes(hand, k, seat, leader, led_suit, win_slot, need, trick_mask, hands, n, cfg,
                suit_masks):
    """The two hashes of a turn's entry in the cutoff table (the card that last cut at each
    turn of a trick): a lead by the leader's hand, its partner's suit-length parities and the
    tricks still needed; a follow by every card of the led suit still out or in the trick, the
    card winning and the leader; a discard or ruff by the hand, the card winning and the tricks
    needed. Close positions share an entry, so a card that refuted one is tried first in the
    next (it only orders moves: a stale entry costs time, never an answer)."""
    word = np.uint64(cfg[CFG_CONTEXT]) << np.uint64(16)
    if k == 0:
        partner = seat + n // 2
        if partner >= n:
            partner -= n
        parity = 0
        for suit in range(4):
            parity |= (_popcount(hands[partner] & suit_masks[suit]) & 1) << suit
        cards = hand
        word |= np.uint64(parity) | (np.uint64(need & 63) << np.uint64(4)) | np.uint64(1 << 15)
    elif hand & suit_masks[led_suit]:
        cards = trick_mask
        for other in range(n):
            cards |= hands[other]
        cards &= suit_masks[led_suit]
        word |= np.uint64(win_slot) | (np.uint64(leader) << np.uint64(8)) | np.uint64(1 << 14)
    else:
        cards = hand
        word |= np.uint64(win_slot) | (np.uint64(need & 63) << np.uint64(8))
    place, check = _mix(np.uint64(0), np.uint64(0x2545F4914F6CDD1D), cards)
    place, check = _mix(place, check, word)
    return place, check | _ONE


@njit(cache=True, inline='always')
def _cut_card(cuts, place, check, k):
    """The card (slot) that last cut at turn ``k`` of this cutoff entry, or -1."""
    row = np.int64(place & np.uint64(cuts.shape[0] - 1))
    if cuts[row, 0] != check:
        return -1
    return np.int64((cuts[row, 1] >> np.uint64(8 * k)) & np.uint64(255)) - 1


@njit(cache=True, inline='always')
def _cut_store(cuts, place, check, k, slot):
    """Record ``slot`` as the card that cut at turn ``k`` of this cutoff entry."""
    row = np.int64(place & np.uint64(cuts.shape[0] - 1))
    if cuts[row, 0] != check:
        cuts[row, 0] = check
        cuts[row, 1] = 0
    shift = np.uint64(8 * k)
    cuts[row, 1] = (cuts[row, 1] & ~(np.uint64(255) << shift)) | (np.uint64(slot + 1) << shift)


@njit(cache=True, inline='always')
def _to_front(moves, count, slot):
    """Move ``slot`` to the front of the first ``count`` entries of ``moves`` if it is there."""
    for i in range(count):
        if moves[i] == slot:
            for j in range(i, 0, -1):
                moves[j] = moves[j - 1]
            moves[0] = slot
            return


@njit(cache=True, inline='always')
def _moves(hand, legal, k, seat, led_suit, win_slot, win_seat, win_suit, trick_mask, hands, n,
           cfg, suit_masks, slot_suit, out):
    """The legal cards worth trying, one of each run of equivalent cards, best guess first, in
    ``out``; returns how many."""
    trump = cfg[CFG_TRUMP]
    max_seats = cfg[CFG_MAX_SEATS]
    mode = cfg[CFG_MODE]
    occupied = trick_mask
    for other in range(n):
        occupied |= hands[other]
    others = occupied & ~hand
    own_group = (max_seats >> seat) & 1
    winning_ours = k > 0 and ((max_seats >> win_seat) & 1) == own_group
    # the nil seat wants to lose tricks; everyone else wants its group to win them
    ducking = mode == MODE_NIL and ((cfg[CFG_TARGET_SEATS] >> seat) & 1) == 1
    attacking_nil = mode == MODE_NIL and own_group == 1
    count = 0
    rest = legal
    previous = -1
    while rest:
        slot = _lowest_bit(rest)
        rest &= rest - _ONE
        suit = slot_suit[slot]
        if previous >= 0 and slot_suit[previous] == suit:
            between = _bits_above(previous) & ((_ONE << np.uint64(slot)) - _ONE)
            if others & between == 0:
                out[count - 1] = slot  # the same run: keep its highest card
                previous = slot
                continue
        previous = slot
        out[count] = slot
        count += 1
    # per suit, once: can a seat of the other group ruff it (void, holding a trump), and does
    # another seat of the own group hold its top card (a low lead goes towards it)
    trumps = suit_masks[trump]
    ruffed_suits = 0
    toward_suits = 0
    if k == 0 and not (ducking or attacking_nil):
        for suit in range(4):
            cards = occupied & suit_masks[suit]
            if cards == 0:
                continue
            top = _ONE << np.uint64(_highest_bit(cards))
            for other in range(n):
                if ((max_seats >> other) & 1) != own_group:
                    if suit != trump and hands[other] & suit_masks[suit] == 0 and (
                            hands[other] & trumps):
                        ruffed_suits |= 1 << suit
                elif other != seat and hands[other] & top:
                    toward_suits |= 1 << suit
    # a third seat whose cheapest winner the next seat can beat plays its winners top down
    top_down = False
    if k > 0 and k < n - 1 and not (ducking or attacking_nil):
        winners = legal & suit_masks[led_suit] & _beats_mask(win_slot, win_suit, suit_masks,
                                                             trump)
        next_seat = seat + 1
        if next_seat >= n:
            next_seat -= n
        next_suit = hands[next_seat] & suit_masks[led_suit]
        top_down = winners != 0 and next_suit != 0 and _highest_bit(next_suit) > _lowest_bit(
            winners)
    for i in range(count):
        slot = out[i]
        suit = slot_suit[slot]
        low = slot - _lowest_bit(suit_masks[suit])  # rank within the suit
        if k == 0:
            if ducking or attacking_nil:
                score = -low
            else:
                top = _highest_bit(occupied & suit_masks[suit])
                ruffed = (ruffed_suits >> suit) & 1 == 1
                if (hand >> np.uint64(top)) & _ONE and (others & suit_masks[suit] & _bits_above(
                        slot)) == 0:
                    score = 40 if ruffed else (60 if suit != trump else 50)  # cash a top card
                else:
                    score = 30 - low if (toward_suits >> suit) & 1 else -low
                    if ruffed:
                        score -= 20
        else:
            wins = _beats(slot, win_slot, win_suit, suit_masks, trump)
            if ducking:
                score = -100 + low if wins else low + (20 if suit != trump else 0)
            elif attacking_nil:
                score = -low - (50 if wins else 0)
            elif wins and not winning_ours and (k >= 2 or k == n - 1 or suit != led_suit):
                # third or last seat (or a ruff): win as cheaply as possible, or force out the
                # next seat's higher cards
                score = 80 + low if top_down and suit == led_suit else 80 - low
            else:
                score = -low - (30 if wins else 0) - (20 if suit == trump and led_suit != trump
                                                      else 0)
        out[MAX_MOVES + i] = score
    for i in range(1, count):  # insertion sort, highest priority first
        slot, score = out[i], out[MAX_MOVES + i]
        j = i - 1
        while j >= 0 and out[MAX_MOVES + j] < score:
            out[j + 1], out[MAX_MOVES + j + 1] = out[j], out[MAX_MOVES + j]
            j -= 1
        out[j + 1], out[MAX_MOVES + j + 1] = slot, score
    return count


@njit(cache=True)
def _reach(k, leader, led_suit, win_slot, win_seat, win_suit, broken, first, trick_mask, target,
           depth, desc):
    """Whether the maximising seats reach ``target`` from this state (see the module's modes),
    and the cards the answer rests on (any position where the same seats hold them, and the
    same small cards otherwise, has the same answer); ``hands`` and ``taken`` are changed
    during the search and restored. The arrays are found from ``desc`` (:func:`_reach_root`)."""
    hands = _u64s(desc, D_HANDS)
    taken = _i64s(desc, D_TAKEN)
    cfg = _i64s(desc, D_CFG)
    suit_masks = _u64s(desc, D_SUIT_MASKS)
    suit_low = _i64s(desc, D_SUIT_LOW)
    slot_suit = _i64s(desc, D_SLOT_SUIT)
    keys = _u64_rows(desc, D_KEYS)
    info = _i32_rows(desc, D_INFO)
    shapes = _u64_rows(desc, D_SHAPES)
    pat_hands = _u64_rows(desc, D_PAT_HANDS)
    pat_info = _i32_rows(desc, D_PAT_INFO)
    cuts = _u64_rows(desc, D_CUTS)
    ends = _i64_rows(desc, D_ENDS)
    bids = _i64s(desc, D_BIDS)
    blind = _i64s(desc, D_BLIND)
    bags = _i64s(desc, D_BAGS)
    scoring = _i64s(desc, D_SCORING)
    moves = _i64_rows(desc, D_MOVES)
    key_rows = _u64_rows(desc, D_KEY_ROWS)
    stop = _i64s(desc, D_STOP)
    nothing = np.uint64(0)
    if stop[0]:  # asked to stop: cut off, the answer is not one (see _reach_root)
        return False, nothing
    n = cfg[CFG_SEATS]
    mode = cfg[CFG_MODE]
    need = target
    key = key_rows[depth]
    shape_row = row = -1
    place = check = shape_place = shape_check = nothing
    if k == 0:
        left = _popcount(hands[leader])
        if left == 1:  # the last trick plays itself
            win_seat = leader
            win_slot = _lowest_bit(hands[leader])
            win_suit = slot_suit[win_slot]
            played = hands[leader]
            for step in range(1, n):
                seat = leader + step
                if seat >= n:
                    seat -= n
                slot = _lowest_bit(hands[seat])
                played |= hands[seat]
                if _beats(slot, win_slot, win_suit, suit_masks, cfg[CFG_TRUMP]):
                    win_seat, win_slot, win_suit = seat, slot, slot_suit[slot]
            taken[win_seat] += 1
            if mode == MODE_SCORE:
                reached = _hand_value(taken, bids, blind, bags, scoring, cfg[CFG_SIDES],
                                      cfg[CFG_SIDE]) >= target
            else:
                reached = _won(taken, n, cfg) >= target
            taken[win_seat] -= 1
            winner = _ONE << np.uint64(win_slot)
            if played & suit_masks[win_suit] & ~winner:  # it won by rank
                return reached, winner
            return reached, nothing
        won = end = 0
        if mode == MODE_SCORE:
            if left == 0:
                return _hand_value(taken, bids, blind, bags, scoring, cfg[CFG_SIDES],
                                   cfg[CFG_SIDE]) >= target, nothing
            end = _ends_row(ends, taken, left, n, cfg, bids, blind, bags, scoring)
        else:
            won = _won(taken, n, cfg)
            need = target - won  # the table holds bounds on the tricks still to come
        # bounds from how the tricks to come can fall: any way, then with the tricks a side is
        # sure of (the score's nil seats may still take any of them)
        if _worst(mode, won, 0, ends, end) >= target:
            return True, nothing
        if _best(mode, won, left, 0, ends, end) < target:
            return False, nothing
        if mode != MODE_NIL:
            # a hand holding the top trumps still out takes a trick with each of them
            ours, theirs, sure = _sure_trumps(hands, n, cfg, suit_masks)
            if _worst(mode, won, ours, ends, end) >= target:
                return True, _closure(hands, n, sure, suit_masks)
            if _best(mode, won, left, theirs, ends, end) < target:
                return False, _closure(hands, n, sure, suit_masks)
            if not first:
                maximising = (cfg[CFG_MAX_SEATS] >> leader) & 1 == 1
                for entry in range(2):
                    if entry:
                        quick, cashed = _entry_tricks(hands, n, leader, broken, cfg,
                                                      suit_masks)
                    else:
                        quick, cashed = _quick_tricks(hands, n, leader, broken, cfg,
                                                      suit_masks)
                    if (_worst(mode, won, quick, ends, end) >= target if maximising
                            else _best(mode, won, left, quick, ends, end) < target):
                        return maximising, _closure(hands, n, cashed, suit_masks)
        _table_key(hands, n, leader, broken, first, taken, cfg, suit_masks, suit_low, bids,
                   scoring, key)
        place, check = _table_hashes(key)
        row = _exact_find(keys, place, check)
        if row >= 0:
            if info[row, EXACT_LOWER] >= need:
                return True, _pattern_cards(hands, n, info[row, EXACT_LOWER_TOPS], suit_masks)
            if info[row, EXACT_UPPER] < need:
                return False, _pattern_cards(hands, n, info[row, EXACT_UPPER_TOPS], suit_masks)
        if not first:  # the first trick's lead rules look at the cards themselves
            shape_place, shape_check = _shape_hashes(hands, n, key, suit_masks)
            shape_row = _shape_row(shapes, shape_place, shape_check, False)
            if shape_row >= 0:
                pattern = _pattern_find(pat_hands, pat_info, np.int64(shapes[shape_row, 1]), key,
                                        n, need)
                if pattern:
                    tops = pat_info[pattern, PAT_TOPS]
                    if pat_info[pattern, PAT_LOWER] >= need:
                        _exact_store(keys, info, place, check, pat_info[pattern, PAT_LOWER],
                                     tops, _UNSET, 0, -1)
                        return True, _pattern_cards(hands, n, tops, suit_masks)
                    _exact_store(keys, info, place, check, -_UNSET, 0,
                                 pat_info[pattern, PAT_UPPER], tops, -1)
                    return False, _pattern_cards(hands, n, tops, suit_masks)
    seat = leader + k
    if seat >= n:
        seat -= n
    hand = hands[seat]
    legal = _legal(hand, k, first, broken, led_suit, cfg, suit_masks)
    count = _moves(hand, legal, k, seat, led_suit, win_slot, win_seat, win_suit, trick_mask,
                   hands, n, cfg, suit_masks, slot_suit, moves[depth])
    cut_place = cut_check = nothing
    killer = -1
    if count > 1:
        needed = need
        if k > 0 and mode != MODE_SCORE:
            needed = target - _won(taken, n, cfg)
        cut_place, cut_check = _cut_hashes(hand, k, seat, leader, led_suit, win_slot, needed,
                                           trick_mask, hands, n, cfg, suit_masks)
        killer = _cut_card(cuts, cut_place, cut_check, k)
        if killer >= 0:
            _to_front(moves[depth], count, killer)
    if k == 0 and row >= 0 and info[row, EXACT_MOVE]:  # the lead that cut here before
        relative = info[row, EXACT_MOVE] - 1
        suit = slot_suit[relative]
        occupied = np.uint64(0)
        for other in range(n):
            occupied |= hands[other]
        _to_front(moves[depth], count,
                  _nth_bit(occupied & suit_masks[suit], relative - suit_low[suit]))
    maximising = (cfg[CFG_MAX_SEATS] >> seat) & 1 == 1
    trump = cfg[CFG_TRUMP]
    result = not maximising
    relevant = nothing
    same = nothing  # cards whose answer a card tried has shown (their rank did not matter)
    cut = -1
    for i in range(count):  # a maximising seat stops at the first yes, a minimising one at a no
        slot = moves[depth, i]
        bit = _ONE << np.uint64(slot)
        if same & bit:
            continue
        suit = slot_suit[slot]
        hands[seat] = hand & ~bit
        if k == 0:
            next_led, next_slot, next_seat, next_suit = suit, slot, seat, suit
            next_broken = broken
        else:
            next_led = led_suit
            next_broken = broken or (suit == trump and led_suit != trump
                                     and cfg[CFG_TRUMPS_BREAK] != 0)
            if _beats(slot, win_slot, win_suit, suit_masks, trump):
                next_slot, next_seat, next_suit = slot, seat, suit
            else:
                next_slot, next_seat, next_suit = win_slot, win_seat, win_suit
        if k == n - 1:
            taken[next_seat] += 1
            zero = _RUNTIME_ZERO[0]  # typed values, not literals (see bits._RUNTIME_ZERO)
            none = zero - 1
            reached, below = _reach(zero, next_seat, none, none, none, none, next_broken,
                                    zero != zero, np.uint64(zero), target, depth + 1, desc)
            taken[next_seat] -= 1
            winner = _ONE << np.uint64(next_slot)
            if (trick_mask | bit) & suit_masks[next_suit] & ~winner:  # the trick went by rank
                below |= winner
        else:
            reached, below = _reach(k + 1, leader, next_led, next_slot, next_seat, next_suit,
                                    next_broken, first, trick_mask | bit, target, depth + 1, desc)
        hands[seat] = hand
        if stop[0]:  # the card's search was cut off: store nothing, leave at once
            return False, nothing
        if reached == maximising:
            result = reached
            relevant = below  # the other cards tried do not matter: this one decides
            cut = slot
            if count > 1 and slot != killer:
                _cut_store(cuts, cut_place, cut_check, k, slot)
            break
        relevant |= below
        # no card of the suit below the lowest that mattered can answer otherwise (none at all
        # if none mattered)
        ranked = below & suit_masks[suit]
        if ranked == 0:
            same |= suit_masks[suit]
        elif slot < _lowest_bit(ranked):
            same |= suit_masks[suit] & ((_ONE << np.uint64(_lowest_bit(ranked))) - _ONE)
    if k == 0:
        relevant = _closure(hands, n, relevant, suit_masks)
        move = -1
        if cut >= 0:
            suit = slot_suit[cut]
            occupied = np.uint64(0)
            for other in range(n):
                occupied |= hands[other]
            below_cut = occupied & suit_masks[suit] & ((_ONE << np.uint64(cut)) - _ONE)
            move = suit_low[suit] + _popcount(below_cut)
        mask, tops = _pattern_mask(hands, n, relevant, suit_masks, suit_low)
        if result:
            _exact_store(keys, info, place, check, need, tops, _UNSET, 0, move)
        else:
            _exact_store(keys, info, place, check, -_UNSET, 0, need - 1, tops, move)
        if not first:
            if result:
                _pattern_store(shapes, pat_hands, pat_info, shape_place, shape_check, key, n,
                               mask, tops, need, _UNSET)
            else:
                _pattern_store(shapes, pat_hands, pat_info, shape_place, shape_check, key, n,
                               mask, tops, -_UNSET, need - 1)
    return result, relevant


@njit(cache=True, inline='always')
def _describe(desc, at, array):
    """Put a 1-d array's address and length at ``desc[at:at + 3]`` (see D_HANDS)."""
    if array.strides[0] != array.itemsize:
        raise ValueError("the search's arrays must be C-contiguous")
    desc[at] = _address(array)
    desc[at + 1] = array.shape[0]
    desc[at + 2] = 0


@njit(cache=True, inline='always')
def _describe_rows(desc, at, array):
    """Put a 2-d array's address, rows and columns at ``desc[at:at + 3]``."""
    if array.strides[1] != array.itemsize or array.strides[0] != array.shape[1] * array.itemsize:
        raise ValueError("the search's arrays must be C-contiguous")
    desc[at] = _address(array)
    desc[at + 1] = array.shape[0]
    desc[at + 2] = array.shape[1]


@njit(cache=True, nogil=True)
def _reach_root(hands, taken, k, leader, led_suit, win_slot, win_seat, win_suit, broken, first,
                trick_mask, target, cfg, suit_masks, suit_low, slot_suit, keys, info, shapes,
                pat_hands, pat_info, cuts, ends, bids, blind, bags, scoring, moves, key_rows, stop):
    """:func:`_reach` from the top of a search. Every array must be C-contiguous (the solver's
    own are; others raise ValueError) and is kept alive by the caller while the search runs on
    views of it.

    ``stop``: int64 (1,), read at every node; once another thread sets ``stop[0]`` the search
    returns within microseconds, cut off: its answer means nothing and the caller must drop it
    (every search above returns at once too). A cut-off search stores nothing in the tables
    from the nodes it left unfinished, so what they hold stays exact."""
    desc = np.empty(DESC_WORDS, np.int64)
    _describe(desc, D_HANDS, hands)
    _describe(desc, D_TAKEN, taken)
    _describe(desc, D_CFG, cfg)
    _describe(desc, D_SUIT_MASKS, suit_masks)
    _describe(desc, D_SUIT_LOW, suit_low)
    _describe(desc, D_SLOT_SUIT, slot_suit)
    _describe_rows(desc, D_KEYS, keys)
    _describe_rows(desc, D_INFO, info)
    _describe_rows(desc, D_SHAPES, shapes)
    _describe_rows(desc, D_PAT_HANDS, pat_hands)
    _describe_rows(desc, D_PAT_INFO, pat_info)
    _describe_rows(desc, D_CUTS, cuts)
    _describe_rows(desc, D_ENDS, ends)
    _describe(desc, D_BIDS, bids)
    _describe(desc, D_BLIND, blind)
    _describe(desc, D_BAGS, bags)
    _describe(desc, D_SCORING, scoring)
    _describe_rows(desc, D_MOVES, moves)
    _describe_rows(desc, D_KEY_ROWS, key_rows)
    _describe(desc, D_STOP, stop)
    return _reach(k, leader, led_suit, win_slot, win_seat, win_suit, broken, first, trick_mask,
                  target, _RUNTIME_ZERO[0], _borrowed(desc))[0]


@njit(cache=True, nogil=True)
def _solve_tricks(hands, taken, k, leader, led_suit, win_slot, win_seat, win_suit, broken,
                  first, trick_mask, low, high, guess, cfg, suit_masks, suit_low, slot_suit, keys,
                  info, shapes, pat_hands, pat_info, cuts, ends, bids, blind, bags, scoring, moves,
                  key_rows, stop):
    """The exact value between ``low`` (the tricks taken, known reached) and ``high`` (the most
    possible): the largest target the maximising seats reach, stepping one trick at a time from
    ``guess`` (negative: :func:`_guess_tricks`'s); a right guess takes two searches, both at the
    value. Cut off (``stop[0]`` set, see :func:`_reach_root`): returns at once, a value that
    means nothing."""
    target = guess
    if guess < 0:
        seat = leader + k
        if seat >= cfg[CFG_SEATS]:
            seat -= cfg[CFG_SEATS]
        target = low + _guess_tricks(hands, cfg[CFG_SEATS], _popcount(hands[seat]), cfg,
                                     suit_masks)
    while low < high and not stop[0]:
        target = min(max(target, low + 1), high)
        if _reach_root(hands, taken, k, leader, led_suit, win_slot, win_seat, win_suit, broken,
                       first, trick_mask, target, cfg, suit_masks, suit_low, slot_suit, keys,
                       info, shapes, pat_hands, pat_info, cuts, ends, bids, blind, bags, scoring, moves,
                       key_rows, stop):
            low = target
            target += 1
        else:
            high = target - 1
            target -= 1
    return low


@njit(cache=True, nogil=True)
def _solve_score(hands, taken, k, leader, led_suit, win_slot, win_seat, win_suit, broken, first,
                 trick_mask, values, count, guess, cfg, suit_masks, suit_low, slot_suit, keys,
                 info, shapes, pat_hands, pat_info, cuts, ends, bids, blind, bags, scoring, moves,
                 key_rows, stop):
    """The exact score difference: the largest of ``values[:count]`` (every ending's value,
    ascending; the smallest is always reached) that the maximising side reaches. With ``guess``
    (an index of ``values``; negative: none) it steps one value at a time from there, a right
    guess taking two searches; without, it bisects. Cut off (``stop[0]`` set): returns at once,
    a value that means nothing."""
    low, high = 0, count - 1
    target = guess
    while low < high and not stop[0]:
        if guess < 0:
            target = (low + high + 1) // 2
        target = min(max(target, low + 1), high)
        if _reach_root(hands, taken, k, leader, led_suit, win_slot, win_seat, win_suit, broken,
                       first, trick_mask, values[target], cfg, suit_masks, suit_low,
                       slot_suit, keys, info, shapes, pat_hands, pat_info, cuts, ends, bids, blind,
                       bags, scoring, moves, key_rows, stop):
            low = target
            target += 1
        else:
            high = target - 1
            target -= 1
    return values[low]


@njit(cache=True, nogil=True)
def _solve_many(deals, leaders, sides, cfg, partner_side, suit_masks, suit_low, slot_suit, keys,
                info, shapes, pat_hands, pat_info, cuts, ends, bids, blind, bags, scoring, moves,
                key_rows, stop, out):
    """Tricks of ``sides[i]`` in fresh deal ``deals[i]`` (slot masks per seat) led by
    ``leaders[i]``, for every i, into ``out``. ``partner_side`` is each seat's side; ``cfg`` is
    this call's own copy (its seat masks and context are set per deal). Once ``stop[0]`` is set
    (see :func:`_reach_root`) it returns at once; ``out`` then means nothing."""
    n = cfg[CFG_SEATS]
    taken = np.zeros(n, np.int64)
    hands = np.zeros(n, np.uint64)
    for i in range(deals.shape[0]):
        side = sides[i]
        seats = 0
        for seat in range(n):
            hands[seat] = deals[i, seat]
            if partner_side[seat] == side:
                seats |= 1 << seat
        cfg[CFG_MAX_SEATS] = seats
        cfg[CFG_TARGET_SEATS] = seats
        cfg[CFG_CONTEXT] = side
        size = _popcount(hands[leaders[i]])
        zero = _RUNTIME_ZERO[0]
        out[i] = _solve_tricks(hands, taken, zero, leaders[i], zero - 1, zero - 1, zero - 1,
                               zero - 1, zero != zero, zero == zero, np.uint64(zero), zero, size,
                               zero - 1, cfg, suit_masks, suit_low, slot_suit, keys, info, shapes,
                               pat_hands, pat_info, cuts, ends, bids, blind, bags, scoring, moves,
                               key_rows, stop)
        if stop[0]:
            break

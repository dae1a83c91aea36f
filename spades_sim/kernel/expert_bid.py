"""The expert's bids: the allowed bid with the highest expected value under the table's rules.

A seat's hand is summarised by two linear scores of a few hand features
(:func:`_strength_features`, :func:`_nil_features`) whose weights, like every
distribution below, come from the project's own self-play (``spades_sim.kernel.calibration``
builds them; ``data/calibration/`` ships them):

- ``own[ctx, position, strength bin]``: the distribution of the seat's own tricks,
  when its partner has not bid yet (ctx 0), has bid nil (ctx 1), or there is no
  partner (ctx 2); ``position`` is the seat's place in the bidding order;
- ``joint[position - 2, strength bin, partner's bid]``: the distribution of the side's
  tricks when the partner has made a count bid already;
- ``cover[partner's bid]``: the partner's own tricks when this seat bids nil after it;
- ``nil[ctx, nil-score bin]``: the chance a nil is made (ctx as above: partner still to
  bid, partner bid a count, no cover);
- ``blind[cards passed, partner's bid class]``: the chance a blind nil is made;
- ``game``: per-hand figures of self-play games (points and spread per side, bags,
  make rate, ...), used for the bag horizon and the chance to win a game.

The value of a count bid is its expected points for the side, counting the table's
made and set values, overtricks, the bag penalty crossed this hand and the expected
future penalty of the bags carried (``bag_steps``: a Poisson number of bags over the
hands the game is expected to last). A nil's value adds its own ±nil points to the
partner's part. Near the end of a game (a side within reach of the target, or the last
hands of a hand limit) the seat picks instead the bid with the highest chance to win
the game (``win``: a race approximation, exact where this hand ends the game). Blind
nil is bid only when its chance to win the game beats an ordinary hand's by
``P_BLIND_MARGIN``, and a blind bid (docs/scoring.md "Blind bids") likewise, its tricks before
looking taken as a binomial share of the hand. The partner of a blind bidder bids the count of best
expected value for the side's joint contract, the blind bidder's tricks unknown (a blind bid tells
nothing of the cards). With ``sets_to_lose``, a side one set from losing bids for
the game, a set counting as a lost game. jit-compiled; inputs not checked.
"""

from typing import NamedTuple

import numpy as np
from numba import njit

from .basic_policies import _holds_rank_from_top
from .bits import _RUNTIME_ZERO, _lowest_bit, _popcount
from .params import (
    P_BAG_WEIGHT,
    P_BID_OFFSET,
    P_BLIND_MARGIN,
    P_BLIND_MIN_CHANCE,
    P_COVER_BONUS,
    P_EXPLORE_BLIND,
    P_EXPLORE_NIL,
    P_NIL_BONUS,
    P_NIL_MIN_CHANCE,
    P_NIL_PASS_COVER,
    P_NIL_PASS_REACH,
)
from .rng import _next
from .scoring import (
    SCORING_BAG_LIMIT,
    SCORING_BAG_PENALTY,
    SCORING_BLIND_MULTIPLIER,
    SCORING_BLIND_VALUE,
    SCORING_NIL_VALUE,
    SCORING_OVERTRICK,
    SCORING_ZERO_BID,
    _contract_value,
    _score_side,
)

STRENGTH_FEATURES = 22
"""Length of :func:`_strength_features`'s vector."""
NIL_FEATURES = 19
"""Length of :func:`_nil_features`'s vector."""
STRENGTH_STEP = 0.25
"""Width of a strength bin, in tricks."""
NIL_STRENGTH_MAX = 3.0
"""Nil is judged only for hands expected to take fewer tricks than this (a stronger hand has
no chance at nil, and judging it costs time)."""
CTX_PARTNER_LATER, CTX_PARTNER_NIL, CTX_ALONE = 0, 1, 2
"""``own`` contexts."""
NIL_CTX_PARTNER_LATER, NIL_CTX_PARTNER_COUNT, NIL_CTX_NO_COVER = 0, 1, 2
"""``nil`` contexts."""
# Slots of ``BidTables.game``.
G_MU, G_SIGMA, G_BAGS, G_MAKE, G_NIL, G_PARTNER_SHARE, G_MU_COVER = range(7)
G_NIL_LOW, G_NIL_STEP = 7, 8
CALIBRATED_SLOTS = 9
"""Slots 0-8 come from calibration; the rest are set when the tables are packed."""
G_WIN_STEP = 9
GAME_SLOTS = 10
_GH_Z = np.sqrt(3.0)  # three-point Gauss-Hermite rule: nodes 0, ±sqrt(3), weights 2/3, 1/6


class BidTables(NamedTuple):
    """The calibration tables of one table family, as the kernel reads them (module docstring)."""

    strength_w: np.ndarray  # float64 (STRENGTH_FEATURES,)
    nil_w: np.ndarray  # float64 (NIL_FEATURES,): logit of a set nil
    own: np.ndarray  # float64 (3, 5, strength bins, tricks + 1)
    joint: np.ndarray  # float64 (2, strength bins, tricks + 1, tricks + 1)
    cover: np.ndarray  # float64 (tricks + 1, tricks + 1)
    nil: np.ndarray  # float64 (3, nil bins)
    blind: np.ndarray  # float64 (4, 4)
    game: np.ndarray  # float64 (GAME_SLOTS,)
    bag_steps: np.ndarray  # float64 (HORIZONS, bag rows, tricks + 1): see _bag_row
    win: np.ndarray  # float64 (hands-left slices, distance bins, distance bins)


@njit(cache=True, inline='always')
def _top(hand, suit_masks, suit_low, suit, k):
    """1.0 when ``hand`` holds the k-th highest card of ``suit`` (k = 0: its top card), else 0.0."""
    return 1.0 if _holds_rank_from_top(hand, suit_masks, suit_low, suit, k) else 0.0


@njit(cache=True)
def _strength_features(hand, suit_masks, suit_low, trump_suit, out):
    """Write the trick-taking features of ``hand`` into ``out`` (float64, STRENGTH_FEATURES).

    0 a constant; 1-6 the top four trumps, each with and without enough smaller trumps to
    guard it; 7-9 trump length (all, past 3, past 5); then over the side suits: 10-11 aces
    in suits of up to 5 and of 6 or more cards, 12-14 kings guarded (2-5 cards), alone, in
    long suits, 15-16 queens in 3-5 cards and in 1-2, 17-19 voids, singletons and
    doubletons times the trumps (up to 3), 20 ace-king together, 21 cards past the fifth.
    """
    trumps = _popcount(hand & suit_masks[trump_suit])
    for i in range(STRENGTH_FEATURES):
        out[i] = 0.0
    out[0] = 1.0
    out[1] = _top(hand, suit_masks, suit_low, trump_suit, 0)
    king = _top(hand, suit_masks, suit_low, trump_suit, 1)
    queen = _top(hand, suit_masks, suit_low, trump_suit, 2)
    out[2 if trumps >= 2 else 3] = king
    out[4 if trumps >= 3 else 5] = queen
    out[6] = _top(hand, suit_masks, suit_low, trump_suit, 3) if trumps >= 4 else 0.0
    out[7] = trumps
    out[8] = max(trumps - 3, 0)
    out[9] = max(trumps - 5, 0)
    ruff = min(trumps, 3)
    for suit in range(4):
        if suit == trump_suit:
            continue
        length = _popcount(hand & suit_masks[suit])
        if length == 0:
            out[17] += ruff
            continue
        ace = _top(hand, suit_masks, suit_low, suit, 0)
        king = _top(hand, suit_masks, suit_low, suit, 1)
        out[10 if length <= 5 else 11] += ace
        out[13 if length == 1 else (12 if length <= 5 else 14)] += king
        if length <= 5:
            out[15 if length >= 3 else 16] += _top(hand, suit_masks, suit_low, suit, 2)
        if length == 1:
            out[18] += ruff
        elif length == 2:
            out[19] += ruff
        out[20] += ace * king
        out[21] += max(length - 5, 0)


@njit(cache=True)
def _nil_features(hand, suit_masks, suit_low, trump_suit, out):
    """Write the features of ``hand`` that make a nil fail into ``out`` (float64, NIL_FEATURES).

    0 a constant; 1-5 the top five trumps; 6-8 trump length (all, past 2, past 3); over the
    side suits: 9 aces, 10-11 kings in 1-2 and in 3+ cards, 12-13 queens likewise, 14 jacks
    in 1-2 cards, 15 suits whose lowest card is among the suit's top six, 16 voids, 17 cards
    among a suit's top five in suits of up to 3; 18 a lowest trump among the trumps' top seven.
    """
    trumps = hand & suit_masks[trump_suit]
    trump_count = _popcount(trumps)
    for i in range(NIL_FEATURES):
        out[i] = 0.0
    out[0] = 1.0
    for k in range(5):
        out[1 + k] = _top(hand, suit_masks, suit_low, trump_suit, k)
    out[6] = trump_count
    out[7] = max(trump_count - 2, 0)
    out[8] = max(trump_count - 3, 0)
    if trumps != 0 and _from_top(trumps, suit_masks, suit_low, trump_suit) <= 6:
        out[18] = 1.0
    for suit in range(4):
        if suit == trump_suit:
            continue
        mine = hand & suit_masks[suit]
        length = _popcount(mine)
        if length == 0:
            out[16] += 1.0
            continue
        out[9] += _top(hand, suit_masks, suit_low, suit, 0)
        out[10 if length <= 2 else 11] += _top(hand, suit_masks, suit_low, suit, 1)
        out[12 if length <= 2 else 13] += _top(hand, suit_masks, suit_low, suit, 2)
        if length <= 2:
            out[14] += _top(hand, suit_masks, suit_low, suit, 3)
        if _from_top(mine, suit_masks, suit_low, suit) <= 5:
            out[15] += 1.0
        if length <= 3:
            for k in range(5):
                out[17] += _top(hand, suit_masks, suit_low, suit, k)


@njit(cache=True, inline='always')
def _from_top(mine, suit_masks, suit_low, suit):
    """The place from the top of the suit (0: its top card) of the lowest card of ``mine``."""
    return _popcount(suit_masks[suit]) - 1 - (_lowest_bit(mine) - suit_low[suit])


@njit(cache=True, inline='always')
def _dot(weights, features):
    total = 0.0
    for i in range(weights.shape[0]):
        total += weights[i] * features[i]
    return total


@njit(cache=True, inline='always')
def _nil_chance(tables, ctx, z):
    """P(nil made) from the nil score ``z`` (the logit of a set) in context ``ctx``."""
    step = tables.game[G_NIL_STEP]
    row = tables.nil[ctx]
    index = int((z - tables.game[G_NIL_LOW]) / step + 0.5)
    return row[min(max(index, 0), row.shape[0] - 1)]


HORIZONS = 30
"""Hands still to play that the bag tables distinguish (1 to 30)."""


@njit(cache=True, inline='always')
def _horizon(rules, tables, score, hand_index):
    """Index (0 = one hand) of the hands the game is expected to last after this one: the points
    the leader still needs over the self-play points per hand, within a hand limit."""
    most = -(2**62)
    for side in range(score.shape[0]):
        most = max(most, score[side])
    hands = (rules.target - most) / tables.game[G_MU]
    if rules.hand_limit > 0:
        hands = min(hands, rules.hand_limit - hand_index - 1)
    return min(max(int(hands + 0.5), 1), HORIZONS) - 1


@njit(cache=True, inline='always')
def _bag_row(rules, tables, horizon, bags):
    """``bag_steps`` row of a side carrying ``bags``: the expected rise in bag penalties, in points,
    when it takes j more bags (the penalty crossed this hand included)."""
    return tables.bag_steps[horizon, bags % tables.bag_steps.shape[1]]


@njit(cache=True, inline='always')
def _next_bag_cost(rules, tables, horizon, bags, weight):
    """What one more bag costs a side carrying ``bags``: penalties now and later (weighted), less
    the overtrick point (negative when bags pay)."""
    return weight * _bag_row(rules, tables, horizon, bags)[1] - rules.scoring[SCORING_OVERTRICK]


@njit(cache=True)
def _outcome_value(rules, contract, tricks, costs, weight):
    """Points of a side's contract of ``contract`` taking ``tricks``, less ``weight`` × the rise in
    expected bag penalties (``costs``, a :func:`_bag_row`)."""
    made_points, set_points = _contract_value(rules.scoring, contract)
    if tricks < contract:
        return -set_points
    bags = tricks - contract
    return made_points + rules.scoring[SCORING_OVERTRICK] * bags - weight * costs[bags]


@njit(cache=True, inline='always')
def _hand_points(rules, contract, tricks, bags_before):
    """The score change of a side's contract with no nil (bag penalty crossed this hand
    included): the engine's own scoring, ``scoring._score_side``."""
    scoring = rules.scoring
    made_points, set_points = _contract_value(scoring, contract)
    return _score_side(contract, tricks, 0, 0, 0, bags_before, made_points, set_points,
                       scoring[SCORING_OVERTRICK], scoring[SCORING_BAG_LIMIT],
                       scoring[SCORING_BAG_PENALTY])[0]


@njit(cache=True)
def _win_after(rules, tables, ours, theirs, hands_left):
    """Chance that the side on ``ours`` wins a two-sided game against ``theirs`` after this hand,
    with ``hands_left`` hands of a hand limit still to play: exact when the game is over,
    else the race table."""
    target = rules.target
    if (ours >= target or theirs >= target or ours <= rules.elimination
            or theirs <= rules.elimination or (rules.hand_limit > 0 and hands_left <= 0)):
        return 1.0 if ours > theirs else (0.0 if ours < theirs else 0.5)
    bins = tables.win.shape[1] - 1
    step = tables.game[G_WIN_STEP]
    i = min(int((target - ours) / step + 0.999), bins)
    j = min(int((target - theirs) / step + 0.999), bins)
    layer = 0 if rules.hand_limit == 0 else min(hands_left, tables.win.shape[0] - 1)
    return tables.win[layer, i, j]


@njit(cache=True)
def _opponents_outcomes(rules, tables, bids, seat, partner, values, weights):
    """The opponents' score change this hand as at most 4 weighted values (returns the count):
    from their contract and nil when all have bid, else the self-play spread of a side."""
    n = rules.seat_count
    contract = 0
    nils = 0
    unknown = 0
    for other in range(n):
        if other == seat or other == partner:
            continue
        if bids[other] < 0:
            unknown += 1
        elif bids[other] == 0:
            nils += 1
        else:
            contract += bids[other]
    if unknown > 0:
        mu, sigma = tables.game[G_MU], tables.game[G_SIGMA]
        values[0], values[1], values[2] = mu - _GH_Z * sigma, mu, mu + _GH_Z * sigma
        weights[0], weights[1], weights[2] = 1.0 / 6.0, 2.0 / 3.0, 1.0 / 6.0
        return 3
    made_points, set_points = _contract_value(rules.scoring, contract)
    make = tables.game[G_MAKE] if contract > 0 else 1.0
    values[0], values[1] = made_points + rules.scoring[SCORING_OVERTRICK], -set_points
    weights[0], weights[1] = make, 1.0 - make
    if nils == 0:
        return 2
    nil = tables.game[G_NIL]
    nil_value = rules.scoring[SCORING_NIL_VALUE]
    values[2], values[3] = values[0] - nil_value, values[1] - nil_value
    values[0] += nil_value
    values[1] += nil_value
    weights[2], weights[3] = weights[0] * (1.0 - nil), weights[1] * (1.0 - nil)
    weights[0] *= nil
    weights[1] *= nil
    return 4


@njit(cache=True)
def _win_chance(rules, tables, ours, theirs, hands_left, points, values, weights, count):
    """Chance to win the game when this hand changes our score by ``points`` and the opponents'
    by ``values[q]`` with weight ``weights[q]`` (q < ``count``)."""
    total = 0.0
    for q in range(count):
        total += weights[q] * _win_after(rules, tables, ours + points, theirs + values[q],
                                         hands_left)
    return total


@njit(cache=True, inline='always')
def _near_the_end(rules, score, hand_index):
    """Whether this hand may decide a two-sided game: a side within reach of the target (or of
    elimination), or the last two hands of a hand limit."""
    if score.shape[0] != 2:
        return False
    reach = 10 * rules.max_bid
    for side in range(2):
        if score[side] >= rules.target - reach or score[side] <= rules.elimination + reach:
            return True
    return rules.hand_limit > 0 and rules.hand_limit - hand_index <= 2


@njit(cache=True, inline='always')
def _distribution(tables, partner, partner_bid, position, sbin):
    """(distribution, base): the trick distribution a seat's bid is judged by, and the partner's
    count bid already in the side's contract (0 when none)."""
    if partner < 0:
        return tables.own[CTX_ALONE, position, sbin], 0
    if partner_bid > 0:
        return tables.joint[position - 2, sbin, partner_bid], partner_bid
    if partner_bid == 0:
        return tables.own[CTX_PARTNER_NIL, position, sbin], 0
    return tables.own[CTX_PARTNER_LATER, position, sbin], 0


@njit(cache=True, inline='always')
def _support(dist):
    """(lowest, highest, mean) trick count of a distribution."""
    low_k, high_k = dist.shape[0] - 1, _RUNTIME_ZERO[0]  # not the literal 0 (see bits)
    mean = 0.0
    for k in range(dist.shape[0]):
        if dist[k] > 0.0:
            low_k, high_k = min(low_k, k), k
            mean += k * dist[k]
    return low_k, high_k, mean


@njit(cache=True)
def _count_value(rules, dist, low_k, high_k, contract, whole, frac, costs, weight):
    """Expected value of ``contract`` over the trick distribution ``dist`` shifted by
    ``whole + frac`` tricks (the aggressiveness offset)."""
    top = dist.shape[0] - 1
    value = 0.0
    for k in range(low_k, high_k + 1):
        p = dist[k]
        if p <= 0.0:
            continue
        v = _outcome_value(rules, contract, min(max(k + whole, 0), top), costs, weight)
        if frac > 0.0:
            v = (1.0 - frac) * v + frac * _outcome_value(
                rules, contract, min(max(k + whole + 1, 0), top), costs, weight)
        value += p * v
    return value


@njit(cache=True)
def _best_count(rules, dist, base, allowed, shift, costs, weight):
    """(bid, value): the allowed count bid of highest expected value over ``dist`` (the side's
    contract adds ``base``). A climb from the bid nearest the expected tricks, one bid at a
    time while the value rises (it has one peak); every allowed bid when that one is not
    allowed. (-1, -inf) when no count bid is allowed."""
    low_k, high_k, mean = _support(dist)
    whole = int(np.floor(shift))
    frac = shift - whole
    centre = min(max(int(mean + shift + 0.5) - base, 1), rules.max_bid)
    best, best_value = -1, -1e18
    if (allowed >> centre) & 1:
        best = centre
        best_value = _count_value(rules, dist, low_k, high_k, base + centre, whole, frac, costs,
                                  weight)
        for step in (1, -1):
            b = centre + step
            while 1 <= b <= rules.max_bid and (allowed >> b) & 1:
                value = _count_value(rules, dist, low_k, high_k, base + b, whole, frac, costs,
                                     weight)
                if value <= best_value:
                    break
                best, best_value = b, value
                b += step
            if best != centre:
                break  # it climbed up: no need to look down
    else:
        for b in range(1, rules.max_bid + 1):
            if (allowed >> b) & 1:
                value = _count_value(rules, dist, low_k, high_k, base + b, whole, frac, costs,
                                     weight)
                if value > best_value:
                    best, best_value = b, value
    return best, best_value


@njit(cache=True, inline='always')
def _cover_points(rules, tables, partner_bid, costs, weight):
    """The value of the partner's count bid when this seat bids nil after it."""
    cover = tables.cover[partner_bid]
    points = 0.0
    for k in range(cover.shape[0]):
        if cover[k] > 0.0:
            points += cover[k] * _outcome_value(rules, partner_bid, k, costs, weight)
    return points


@njit(cache=True, inline='always')
def _cover_shift(rules, params):
    """Tricks added to the distribution of a seat whose partner bid nil: ``cover_bonus``, and
    ``nil_pass_cover`` for each card the nil passes back to it (``nil_pass``)."""
    return params[P_COVER_BONUS] + params[P_NIL_PASS_COVER] * rules.nil_pass


@njit(cache=True)
def _fill_choices(rules, tables, params, h, own_bid, own_value, joint_bid, joint_value,
                  cover_points):
    """Precompute, for the parameter vectors ``params`` (one row per distinct strategy) and the
    horizon ``h``, what :func:`_bid_expert` would compute when every count bid is allowed: the
    best count bid and its value per ``own`` and ``joint`` cell and bag count (``*_bid``,
    ``*_value``), and the partner's part of a nil after its count bid (``cover_points``).
    One horizon a call keeps each call short (Ctrl-C is taken between calls)."""
    every = ((1 << (rules.max_bid + 1)) - 1) & ~1
    for q in range(params.shape[0]):
        weight = params[q, P_BAG_WEIGHT]
        for r in range(tables.bag_steps.shape[1]):
            costs = tables.bag_steps[h, r]
            for ctx in range(tables.own.shape[0]):
                shift = params[q, P_BID_OFFSET] + (
                    _cover_shift(rules, params[q]) if ctx == CTX_PARTNER_NIL else 0.0)
                for position in range(tables.own.shape[1]):
                    for sbin in range(tables.own.shape[2]):
                        bid, value = _best_count(rules, tables.own[ctx, position, sbin],
                                                 _RUNTIME_ZERO[0],
                                                 every, shift, costs, weight)
                        own_bid[q, ctx, position, sbin, r, h] = bid
                        own_value[q, ctx, position, sbin, r, h] = value
            for later in range(joint_bid.shape[1]):
                for sbin in range(joint_bid.shape[2]):
                    for partner_bid in range(1, joint_bid.shape[3]):
                        bid, value = _best_count(
                            rules, tables.joint[later, sbin, partner_bid], partner_bid,
                            every, params[q, P_BID_OFFSET], costs, weight)
                        joint_bid[q, later, sbin, partner_bid, r, h] = bid
                        joint_value[q, later, sbin, partner_bid, r, h] = value
            for partner_bid in range(1, cover_points.shape[1]):
                cover_points[q, partner_bid, r, h] = _cover_points(
                    rules, tables, partner_bid, costs, weight)


# Inlined into the bid round: the usual path is a few table reads, and a call passing every
# table would cost more than them. The rare paths below are separate functions.
@njit(cache=True, inline='always')
def _bid_expert(rules, tables, params, seat, position, allowed, hand, bids, score, bag_total,
                hand_index, work, rng_state, partner_blind, last_set):
    """Return (bid, rng_state): the expert's bid for ``seat``, the ``position``-th to bid.

    ``tables`` holds the BidTables fields and the precomputed choices of :func:`_fill_choices`
    (``choice_set[seat]`` is the seat's row); ``allowed`` has bit b set when bid b (0 = nil)
    is allowed; ``bids`` holds the bids made so far (-1 not yet); ``score`` and ``bag_total``
    are per side; ``work`` is scratch space (float64, WORK_SIZE). ``partner_blind``: the
    partner's count bid was blind, so the seat bids beside it (:func:`_bid_beside_blind`);
    ``last_set``: one more set loses the game (``sets_to_lose``), so the seat bids for the
    game.
    """
    side = seat % rules.side_count
    partner = rules.partner[seat]
    partner_bid = bids[partner] if partner >= 0 else -1
    if params[P_EXPLORE_NIL] > 0.0 and allowed & 1:
        rng_state, bits = _next(rng_state)
        if _uniform(bits) < params[P_EXPLORE_NIL]:
            return 0, rng_state
    _strength_features(hand, rules.suit_masks, rules.suit_low, rules.trump_suit, work)
    strength = _dot(tables.strength_w, work)
    sbin = min(max(int(strength / STRENGTH_STEP + 0.5), 0), tables.own.shape[2] - 1)
    if partner_blind:
        return _bid_beside_blind(rules, tables.own[CTX_PARTNER_LATER, position, sbin],
                                 partner_bid, allowed, last_set), rng_state
    horizon = _horizon(rules, tables, score, hand_index)
    r = bag_total[side] % tables.bag_steps.shape[1]
    q = tables.choice_set[seat]
    every = ((1 << (rules.max_bid + 1)) - 1) & ~1
    if allowed & every == every:  # the usual case: read the precomputed choice
        if partner < 0:
            best = tables.own_bid[q, CTX_ALONE, position, sbin, r, horizon]
            best_value = tables.own_value[q, CTX_ALONE, position, sbin, r, horizon]
        elif partner_bid > 0:
            best = tables.joint_bid[q, position - 2, sbin, partner_bid, r, horizon]
            best_value = tables.joint_value[q, position - 2, sbin, partner_bid, r, horizon]
        else:
            ctx = CTX_PARTNER_NIL if partner_bid == 0 else CTX_PARTNER_LATER
            best = tables.own_bid[q, ctx, position, sbin, r, horizon]
            best_value = tables.own_value[q, ctx, position, sbin, r, horizon]
    else:
        best, best_value = _restricted_best_count(rules, tables, params, partner, partner_bid,
                                                  position, sbin, allowed, horizon, r)
    if best < 0:
        return 0, rng_state  # only nil is allowed
    if rules.scoring[SCORING_ZERO_BID] == 1:
        # A bid of 0 is a contract of no tricks (zero_bid): one more count bid, judged alike;
        # near the end of a game the count bids' chances to win decide, as with nil refused.
        if rules.side_count == 2 and (last_set or _near_the_end(rules, score, hand_index)):
            return _bid_for_the_game(rules, tables, seat, partner, partner_bid, position, sbin,
                                     allowed, bids, score, bag_total, hand_index, best,
                                     np.bool_(False), 0.0, 0.0, work, last_set), rng_state
        if allowed & 1 and _zero_value(rules, tables, params, partner, partner_bid, position,
                                       sbin, horizon, r) > best_value:
            return 0, rng_state
        return best, rng_state
    # Nil: its own points, plus the partner's contract without this seat's tricks (the count
    # bids above counted the partner's contract when it had bid, and its own share when not).
    nil_ok = False
    nil_chance = 0.0
    partner_points = 0.0  # the partner's contract points if this seat bids nil
    endgame = rules.side_count == 2 and (last_set or _near_the_end(rules, score, hand_index))
    if allowed & 1 and strength < NIL_STRENGTH_MAX + params[P_NIL_PASS_REACH] * rules.nil_pass:
        ctx = NIL_CTX_NO_COVER
        relative = 0.0
        if partner >= 0 and partner_bid < 0:
            ctx = NIL_CTX_PARTNER_LATER
            partner_points = tables.game[G_MU_COVER]
            relative = tables.game[G_PARTNER_SHARE]  # its share, already left out of the count bids
        elif partner_bid > 0:
            ctx = NIL_CTX_PARTNER_COUNT
            partner_points = tables.cover_points[q, partner_bid, r, horizon]
        _nil_features(hand, rules.suit_masks, rules.suit_low, rules.trump_suit, work)
        nil_chance = _nil_chance(tables, ctx, _dot(tables.nil_w, work))
        nil_ok = nil_chance >= params[P_NIL_MIN_CHANCE]
        nil_value = ((2.0 * nil_chance - 1.0) * rules.scoring[SCORING_NIL_VALUE]
                     + params[P_NIL_BONUS] + partner_points - relative)
        if not endgame:
            return (0 if nil_ok and nil_value > best_value else best), rng_state
    elif not endgame:
        return best, rng_state
    # The nil's risk premium counts near the end too, as points added to the nil's outcome.
    return _bid_for_the_game(rules, tables, seat, partner, partner_bid, position, sbin, allowed,
                             bids, score, bag_total, hand_index, best, nil_ok, nil_chance,
                             partner_points + params[P_NIL_BONUS], work, last_set), rng_state


@njit(cache=True, _nrt=False)
def _zero_value(rules, tables, params, partner, partner_bid, position, sbin, horizon, bag_row):
    """The expected value of a zero (``zero_bid = "zero"``): the side's contract with nothing
    added, over the distribution and with the offset a count bid is judged by."""
    dist, base = _distribution(tables, partner, partner_bid, position, sbin)
    low_k, high_k, _ = _support(dist)
    shift = params[P_BID_OFFSET]
    whole = int(np.floor(shift))
    return _count_value(rules, dist, low_k, high_k, base, whole, shift - whole,
                        tables.bag_steps[horizon, bag_row], params[P_BAG_WEIGHT])


@njit(cache=True, _nrt=False)
def _restricted_best_count(rules, tables, params, partner, partner_bid, position, sbin, allowed,
                           horizon, bag_row):
    """(bid, value) of :func:`_best_count` when the rules allow only some count bids (a forced
    mode, a side minimum, the sum rule), so the precomputed choice does not apply."""
    dist, base = _distribution(tables, partner, partner_bid, position, sbin)
    shift = params[P_BID_OFFSET] + (_cover_shift(rules, params) if partner_bid == 0 else 0.0)
    return _best_count(rules, dist, base, allowed, shift, tables.bag_steps[horizon, bag_row],
                       params[P_BAG_WEIGHT])


@njit(cache=True, inline='always')
def _uniform(bits):
    """A uniform number in [0, 1) from 64 random bits."""
    return (bits >> np.uint64(11)) * (1.0 / 9007199254740992.0)


WORK_SIZE = 32
"""Length of the scratch vector the bidding functions take: the features, then the opponents'
outcomes at ``_OPP``."""
_OPP = 24


@njit(cache=True)
def _game_view(rules, tables, seat, partner, bids, score, hand_index, work):
    """(ours, theirs, hands_left, opponents' outcome count) for a two-sided game; the outcomes'
    values and weights go to ``work[_OPP:_OPP + 4]`` and ``work[_OPP + 4:_OPP + 8]``."""
    side = seat % 2
    hands_left = rules.hand_limit - hand_index - 1 if rules.hand_limit > 0 else 1
    count = _opponents_outcomes(rules, tables, bids, seat, partner, work[_OPP:_OPP + 4],
                                work[_OPP + 4:_OPP + 8])
    return score[side], score[1 - side], hands_left, count


@njit(cache=True, _nrt=False)
def _bid_for_the_game(rules, tables, seat, partner, partner_bid, position, sbin, allowed, bids,
                      score, bag_total, hand_index, best, nil_ok, nil_chance, partner_points,
                      work, last_set):
    """Near the end of a game: among the count bids around ``best`` (and nil when ``nil_ok``),
    the one with the highest chance to win the game; with ``last_set`` a set contract loses it."""
    dist, base = _distribution(tables, partner, partner_bid, position, sbin)
    low_k, high_k, _ = _support(dist)
    ours, theirs, hands_left, count = _game_view(rules, tables, seat, partner, bids, score,
                                                 hand_index, work)
    values, weights = work[_OPP:_OPP + 4], work[_OPP + 4:_OPP + 8]
    # With the partner still to bid, its share of the side's points is taken as its mean.
    share = tables.game[G_PARTNER_SHARE] if partner >= 0 and partner_bid < 0 else 0.0
    bags_before = bag_total[seat % 2]
    chosen, chosen_chance = best, -1.0
    for b in range(max(1, best - 3), min(rules.max_bid, best + 3) + 1):
        if not (allowed >> b) & 1:
            continue
        chance = 0.0
        for k in range(low_k, high_k + 1):
            p = dist[k]
            if p > 0.0 and not (last_set and k < base + b):
                points = _hand_points(rules, base + b, k, bags_before) + share
                chance += p * _win_chance(rules, tables, ours, theirs, hands_left, points,
                                          values, weights, count)
        if chance > chosen_chance + 1e-9:
            chosen, chosen_chance = b, chance
    if nil_ok:
        chance = _gamble_chance(rules, tables, ours, theirs, hands_left, nil_chance,
                                rules.scoring[SCORING_NIL_VALUE], partner_points, values, weights,
                                count)
        if chance > chosen_chance + 1e-9:
            chosen = 0
    return chosen


@njit(cache=True)
def _gamble_chance(rules, tables, ours, theirs, hands_left, chance, value, rest, values, weights,
                   count):
    """Chance to win the game with a nil worth ±``value`` made with ``chance``, the partner's
    contract adding ``rest`` points."""
    return (chance * _win_chance(rules, tables, ours, theirs, hands_left, value + rest, values,
                                 weights, count)
            + (1.0 - chance) * _win_chance(rules, tables, ours, theirs, hands_left, rest - value,
                                           values, weights, count))


# Compiled into both blind judgements: a call would copy the packed tables onto the stack.
@njit(cache=True, inline='always')
def _ordinary_chance(rules, tables, ours, theirs, hands_left, values, weights, count):
    """Chance to win the game with an ordinary hand: the side's points from self-play, the
    three-point rule over their spread."""
    mu, sigma = tables.game[G_MU], tables.game[G_SIGMA]
    return (_win_chance(rules, tables, ours, theirs, hands_left, mu, values, weights, count)
            * (2.0 / 3.0)
            + _win_chance(rules, tables, ours, theirs, hands_left, mu - _GH_Z * sigma, values,
                          weights, count) / 6.0
            + _win_chance(rules, tables, ours, theirs, hands_left, mu + _GH_Z * sigma, values,
                          weights, count) / 6.0)


@njit(cache=True, _nrt=False)
def _wants_blind_expert(rules, tables, params, seat, bids, score, hand_index, work, rng_state):
    """Return (blind, rng_state): whether ``seat`` bids blind nil (only called when allowed).

    Blind nil when its calibrated chance of success (for the cards passed and the partner's
    bid) is at least ``P_BLIND_MIN_CHANCE`` and its chance to win the game with it beats an
    ordinary hand's by ``P_BLIND_MARGIN``.
    """
    partner = rules.partner[seat]
    partner_bid = bids[partner] if partner >= 0 else -1
    if partner_bid == 0 or rules.side_count != 2:
        return False, rng_state  # never over a partner's nil, not even when exploring
    if params[P_EXPLORE_BLIND] > 0.0:
        rng_state, bits = _next(rng_state)
        return _uniform(bits) < params[P_EXPLORE_BLIND], rng_state
    klass = 0 if partner_bid < 0 else (1 if partner_bid <= 3 else (2 if partner_bid <= 5 else 3))
    chance = tables.blind[min(rules.blind_pass, 3), klass]
    if chance < params[P_BLIND_MIN_CHANCE]:
        return False, rng_state
    ours, theirs, hands_left, count = _game_view(rules, tables, seat, partner, bids, score,
                                                 hand_index, work)
    values, weights = work[_OPP:_OPP + 4], work[_OPP + 4:_OPP + 8]
    if partner_bid > 0:
        made_points, set_points = _contract_value(rules.scoring, partner_bid)
        make = tables.game[G_MAKE]
        rest = make * made_points - (1.0 - make) * set_points
    else:
        rest = tables.game[G_MU_COVER]
    blind = _gamble_chance(rules, tables, ours, theirs, hands_left, chance,
                           rules.scoring[SCORING_BLIND_VALUE], rest, values, weights, count)
    ordinary = _ordinary_chance(rules, tables, ours, theirs, hands_left, values, weights, count)
    return blind > ordinary + params[P_BLIND_MARGIN], rng_state


def _binomial_at_least(n, share, k):
    """P(X >= k) for X ~ Binomial(n, share)."""
    if k <= 0:
        return 1.0
    p = (1.0 - share) ** n
    below = 0.0
    for j in range(min(k, n + 1)):
        if j > 0:
            p *= (n - j + 1) / j * share / (1.0 - share)
        below += p
    return max(0.0, 1.0 - below)


_binomial_at_least = njit(cache=True, inline='always')(_binomial_at_least)


@njit(cache=True, _nrt=False)
def _bid_beside_blind(rules, own, blind_bid, allowed, last_set):
    """The count bid beside a partner's blind bid of ``blind_bid`` (or nil when no count is
    allowed): the side's contract is the sum, scored multiplied, and the partner's tricks are
    unknown (it bid before looking): Binomial(hand size, 1 / seats). Of the allowed counts, the
    one of highest expected points over ``own`` (the seat's tricks) and that binomial;
    ``last_set``: a set costs twice as much (it would lose the game)."""
    n = rules.hand_size
    share = 1.0 / rules.seat_count
    scoring = rules.scoring
    multiplier = scoring[SCORING_BLIND_MULTIPLIER]
    best, best_value = 0, -1e18
    for p in range(1, rules.max_bid + 1):
        if not (allowed >> p) & 1:
            continue
        contract = blind_bid + p
        made_points, set_points = _contract_value(scoring, contract)
        lose = multiplier * set_points * (2.0 if last_set else 1.0)
        value = 0.0
        for k in range(own.shape[0]):
            if own[k] <= 0.0:
                continue
            make = _binomial_at_least(n, share, contract - k)
            value += own[k] * (make * multiplier * made_points - (1.0 - make) * lose)
        if value > best_value:
            best, best_value = p, value
    return best


@njit(cache=True, _nrt=False)
def _blind_bid_expert(rules, tables, params, seat, counts, bids, score, hand_index, work,
                      last_set):
    """The number of tricks ``seat`` bids blind (0: none), before looking: of the counts allowed
    (``counts``, bit b for b), the one with the best chance to win the game, when it beats an
    ordinary hand's by ``P_BLIND_MARGIN`` (the blind-nil rule).

    Unseen, a seat's tricks are taken as Binomial(hand size, 1 / seats). With the partner still
    to bid, the blind bid is the side's: the partner adds a small count (it bids beside a blind
    bid by :func:`_bid_beside_blind`, taken here as 1) and both partners' tricks count,
    Binomial(2 × hand size, 1 / seats). After the partner's count bid the partner covers its own
    bid and the seat must take its blind bid itself; beside a nil likewise. ``last_set``: a set
    loses the game (``sets_to_lose``), for the blind bid and (at the side's make rate) for an
    ordinary hand.
    """
    if rules.side_count != 2:
        return 0
    partner = rules.partner[seat]
    partner_bid = bids[partner]
    n = rules.hand_size
    share = 1.0 / rules.seat_count
    if partner_bid > 0:
        base, extra = partner_bid, 0  # the partner takes its own bid, the seat its blind bid
    elif partner_bid == 0:
        base, extra = 0, 0
    else:
        base, extra = 1, 1  # the partner adds 1 and both partners' tricks count
        n = 2 * rules.hand_size
    ours, theirs, hands_left, count = _game_view(rules, tables, seat, partner, bids, score,
                                                 hand_index, work)
    values, weights = work[_OPP:_OPP + 4], work[_OPP + 4:_OPP + 8]
    scoring = rules.scoring
    multiplier = scoring[SCORING_BLIND_MULTIPLIER]
    best, best_chance = 0, -1.0
    for b in range(1, rules.max_bid + 1):
        if not (counts >> b) & 1:
            continue
        made_points, set_points = _contract_value(scoring, base + b)
        chance = 0.0
        p = (1.0 - share) ** n  # P(k = 0), then P(k) from P(k - 1)
        for k in range(n + 1):
            if k > 0:
                p *= (n - k + 1) / k * share / (1.0 - share)
            if k >= b + extra:
                points = multiplier * made_points + scoring[SCORING_OVERTRICK] * (k - b - extra)
            elif last_set:
                continue  # a set loses the game
            else:
                points = -multiplier * set_points
            # as a float, as every other call passes it (an int would compile it again)
            chance += p * _win_chance(rules, tables, ours, theirs, hands_left, float(points),
                                      values, weights, count)
        if chance > best_chance:
            best, best_chance = b, chance
    ordinary = _ordinary_chance(rules, tables, ours, theirs, hands_left, values, weights, count)
    if last_set:
        ordinary *= tables.game[G_MAKE]
    return best if best_chance > ordinary + params[P_BLIND_MARGIN] else 0


@njit(cache=True)
def _hand_features(hands, suit_masks, suit_low, trump_suit, strength_out, nil_out):
    """Both feature vectors of every hand in ``hands`` (uint64, 1-d), for calibration:
    ``strength_out[i]`` and ``nil_out[i]`` (float64, 2-d)."""
    for i in range(hands.shape[0]):
        _strength_features(hands[i], suit_masks, suit_low, trump_suit, strength_out[i])
        _nil_features(hands[i], suit_masks, suit_low, trump_suit, nil_out[i])

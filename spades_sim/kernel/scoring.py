"""Score a hand (docs/scoring.md, steps 1-5): each side's contract, nils, bags and penalty.

The scoring rules reach the kernel as one array, ``PackedRules.scoring`` (its slots are the
``SCORING_*`` constants below, filled by ``packing.pack_rules``); the hand's own scoring and the
double-dummy search's score mode (``dd_search._hand_value``) both read it, through
``_score_side_hand``, the one tally of a side's nils and contract. ``_score_side`` scores one
side from plain numbers (the expert bidder calls it too, to weigh its candidate bids);
``_score_hand`` scores every side of the hand just played from the scratch state.
jit-compiled; inputs not checked.
"""

from numba import njit

# Rows of ``_Scratch.side``: what each side's last hand scored (``_score_hand`` writes them).
SIDE_POINTS = 0
"""Score change, penalty included."""
SIDE_BAGS = 1
"""Bags taken."""
SIDE_PENALTY = 2
"""Points lost to bag penalties."""
SIDE_MADE = 3
"""1 if the contract was made, else 0."""
SIDE_CONTRACT = 4
"""The sum of the side's count (non-nil) bids."""
SIDE_COUNT_TRICKS = 5
"""The count bidders' own tricks (the contract's tricks may add a nil bidder's)."""
SIDE_ROWS = 6

# Slots of ``PackedRules.scoring`` (int64): the scoring rules, as numbers.
SCORING_NIL_FOR_PARTNER = 0
"""1 when a nil bidder's tricks count toward its partner's contract, 0 when they are bags only."""
SCORING_NIL_VALUE = 1
"""Points for a made nil, lost for a set one."""
SCORING_BLIND_VALUE = 2
"""Points for a made blind nil, lost for a set one."""
SCORING_FAILED_PER_BID = 3
"""Points lost per contract trick when set: 10, or 0 for the book rule."""
SCORING_TEN_FOR_200 = 4
"""1 when a contract of 10 or more scores 200 both ways."""
SCORING_THIRTEEN = 5
"""Points for a made contract of 13 (500 or 200), 0 for the ordinary value."""
SCORING_OVERTRICK = 6
"""Points per bag on a made contract (+1, 0 or -1)."""
SCORING_BAG_LIMIT = 7
"""Bags that cost one penalty."""
SCORING_BAG_PENALTY = 8
"""Points lost each time the bag limit is reached (0: none)."""
SCORING_ZERO_BID = 9
"""1 when a plain bid of 0 is a contract of no tricks (``zero_bid = "zero"``), 0 when it is a nil."""
SCORING_BLIND_MULTIPLIER = 10
"""What a contract holding a blind bid scores, made or set, is multiplied by this."""
SCORING_FIELDS = 11

BLIND_NIL_FLAG = 1
"""``blind[seat]`` (``_Scratch.blind``, the records' ``blind``) of a blind nil (its bid is 0)."""
BLIND_COUNT_FLAG = 2
"""``blind[seat]`` of a number of tricks bid blind (docs/scoring.md "Blind bids")."""


@njit(cache=True, inline='always')
def _contract_points(contract, failed_per_bid, ten_for_two_hundred, thirteen_points):
    """(made_points, set_points): what a side's contract scores when made, and loses when set.

    10 × contract and ``failed_per_bid`` × contract; 200 both ways for 10 or more under
    ten-for-two-hundred; ``thirteen_points`` (when > 0) for a made contract of 13.
    """
    made_points = 10 * contract
    set_points = failed_per_bid * contract
    if ten_for_two_hundred and contract >= 10:
        made_points = 200
        set_points = 200
    if contract == 13 and thirteen_points > 0:
        made_points = thirteen_points
    return made_points, set_points


@njit(cache=True, inline='always')
def _score_side(contract, contract_tricks, nil_tricks, nil_made_value, nil_set_value,
                bags_before, made_points, set_points, overtrick_points, bag_limit, bag_penalty):
    """Score a side's hand.

    Parameters
    ----------
    contract : int
        Sum of the side's non-nil bids.
    contract_tricks : int
        Tricks that count toward the contract (the non-nil bidders', or all the side's
        when nil tricks count for the partner).
    nil_tricks : int
        Tricks of the side's nil bidders that are bags only (0 when they count for the partner).
    nil_made_value, nil_set_value : int
        Points won by the side's made nils, points lost by its set nils (both >= 0).
    bags_before : int
        Bags the side carries into the hand.
    made_points, set_points : int
        What the contract scores when made, and loses when set (>= 0): 10 × contract
        and 10 × contract under the baseline rules.
    overtrick_points, bag_limit, bag_penalty : int
        Rule numbers (the ``SCORING_*`` slots of ``PackedRules.scoring``).

    Returns
    -------
    points, bags, penalty, bags_after, made : int
        Score change (penalty included), bags taken this hand, points lost to the
        bag penalty, bags carried forward, and 1 if the contract was made else 0.
    """
    made = 1 if contract_tricks >= contract else 0
    if made == 1:
        bags = contract_tricks - contract + nil_tricks
        points = made_points + overtrick_points * bags
    else:
        # A set contract earns nothing for bags, but a failed nil's tricks still count as bags.
        bags = nil_tricks
        points = -set_points
    points += nil_made_value - nil_set_value
    total = bags_before + bags
    penalty = 0
    while total >= bag_limit:  # each full bag_limit costs a penalty; the excess carries over
        total -= bag_limit
        penalty += bag_penalty
    return points - penalty, bags, penalty, total, made


@njit(cache=True, inline='always')
def _bag_room(rules, bag_total):
    """Bags a side can still take before the next penalty (a large number when bags are free)."""
    scoring = rules.scoring
    return (scoring[SCORING_BAG_LIMIT] - bag_total if scoring[SCORING_BAG_PENALTY] > 0
            else 1000)


@njit(cache=True, inline='always')
def _contract_value(scoring, contract):
    """(made_points, set_points) of a side's ``contract`` under ``scoring`` (see
    :func:`_contract_points`)."""
    return _contract_points(contract, scoring[SCORING_FAILED_PER_BID],
                            scoring[SCORING_TEN_FOR_200], scoring[SCORING_THIRTEEN])


@njit(cache=True, inline='always')
def _score_side_hand(scoring, seats, sides, side, bids, blind, tricks, bags_before):
    """Score ``side`` for a hand of ``bids``, ``blind`` flags and ``tricks`` (one each per seat;
    a bid of 0 is a nil, blind when its flag is ``BLIND_NIL_FLAG``; under ``zero_bid`` a plain 0
    is a contract of no tricks; a count bid with ``BLIND_COUNT_FLAG`` was bid blind, and
    multiplies the contract's points), carrying ``bags_before``: the tally of its nils and
    contract, then :func:`_score_side`. Partners are ``sides`` seats apart.

    Returns
    -------
    points, bags, penalty, bags_after, made : int
        As :func:`_score_side`.
    contract, count_tricks : int
        The sum of the side's count bids, and the count bidders' own tricks.
    """
    contract = 0
    contract_tricks = 0
    count_tricks = 0  # the count bidders' own tricks (contract_tricks may add a nil's)
    nil_tricks = 0
    nil_won = 0
    nil_lost = 0
    zero_contract = scoring[SCORING_ZERO_BID] == 1
    multiplier = 1
    for seat in range(side, seats, sides):
        if bids[seat] > 0 or (zero_contract and blind[seat] == 0):
            if blind[seat] == BLIND_COUNT_FLAG:
                multiplier = scoring[SCORING_BLIND_MULTIPLIER]
            contract += bids[seat]
            contract_tricks += tricks[seat]
            count_tricks += tricks[seat]
        else:
            if scoring[SCORING_NIL_FOR_PARTNER]:
                contract_tricks += tricks[seat]
            else:
                nil_tricks += tricks[seat]
            value = (scoring[SCORING_BLIND_VALUE] if blind[seat] == BLIND_NIL_FLAG
                     else scoring[SCORING_NIL_VALUE])
            if tricks[seat] == 0:
                nil_won += value
            else:
                nil_lost += value
    made_points, set_points = _contract_value(scoring, contract)
    points, bags, penalty, bags_after, made = _score_side(
        contract, contract_tricks, nil_tricks, nil_won, nil_lost, bags_before,
        multiplier * made_points, multiplier * set_points, scoring[SCORING_OVERTRICK],
        scoring[SCORING_BAG_LIMIT], scoring[SCORING_BAG_PENALTY])
    return points, bags, penalty, bags_after, made, contract, count_tricks


@njit(cache=True, inline='always')
def _score_hand(rules, s):
    """Score every side; updates ``s.score``, ``s.bag_total`` and the rows of ``s.side``."""
    n = rules.seat_count
    sides = rules.side_count
    for side in range(sides):
        points, bags, penalty, bags_after, made, contract, count_tricks = _score_side_hand(
            rules.scoring, n, sides, side, s.bids, s.blind, s.tricks, s.bag_total[side])
        s.score[side] += points
        s.bag_total[side] = bags_after
        s.side[SIDE_POINTS, side] = points
        s.side[SIDE_BAGS, side] = bags
        s.side[SIDE_PENALTY, side] = penalty
        s.side[SIDE_MADE, side] = made
        s.side[SIDE_CONTRACT, side] = contract
        s.side[SIDE_COUNT_TRICKS, side] = count_tricks


@njit(cache=True, inline='always')
def _count_sets(rules, s):
    """Add the hand just scored to ``s.sets``, each side's sets in the game (``sets_to_lose``):
    a contract of 1 or more not made. A game's loops call it; a hand played alone counts none."""
    for side in range(rules.side_count):
        if s.side[SIDE_CONTRACT, side] > 0 and s.side[SIDE_MADE, side] == 0:
            s.sets[side] += 1

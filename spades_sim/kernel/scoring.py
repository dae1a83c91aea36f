"""Score a hand (docs/scoring.md, steps 1-5): each side's contract, nils, bags and penalty.

``_score_side`` scores one side from plain numbers (the expert bidder calls it too, to
weigh its candidate bids); ``_score_hand`` scores every side of the hand just played
from the scratch state. jit-compiled; inputs not checked.
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
        Rule numbers (see ``PackedRules``).

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
    return rules.bag_limit - bag_total if rules.bag_penalty > 0 else 1000


@njit(cache=True, inline='always')
def _score_hand(rules, s):
    """Score every side; updates ``s.score``, ``s.bag_total`` and the rows of ``s.side``."""
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
        s.side[SIDE_POINTS, side] = points
        s.side[SIDE_BAGS, side] = bags
        s.side[SIDE_PENALTY, side] = penalty
        s.side[SIDE_MADE, side] = made
        s.side[SIDE_CONTRACT, side] = contract
        s.side[SIDE_COUNT_TRICKS, side] = count_tricks

"""Score one side's hand (docs/scoring.md, steps 1-5). jit-compiled; inputs not checked."""

from numba import njit


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

"""The expert's bids by expected value: the argmax on constructed trick distributions whose
expected values are worked out by hand from the rules, and the parameter ranges.

The kernel's ``_best_count(rules, dist, base, allowed, shift, costs, weight)`` returns the
allowed count bid of highest expected value over the distribution ``dist`` of the side's
tricks; ``costs[j]`` is the rise in expected bag penalties when the side takes j bags.
"""

from __future__ import annotations

import numpy as np
import pytest

from spades_sim.kernel import expert_bid
from spades_sim.kernel.packing import pack_rules
from spades_sim.kernel.strategies import Strategy, StrategyError
from spades_sim.rules import RuleSet

STANDARD = pack_rules(RuleSet())
EVERY_COUNT_BID = ((1 << 14) - 1) & ~1
NO_BAG_COST = np.zeros(14)

# The side takes 3 tricks with chance 0.2, 4 with 0.5 and 5 with 0.3.
DIST = np.zeros(14)
DIST[3], DIST[4], DIST[5] = 0.2, 0.5, 0.3


def best(rules, allowed=EVERY_COUNT_BID, costs=NO_BAG_COST, shift=0.0, base=0):
    bid, value = expert_bid._best_count(rules, DIST, base, allowed, shift, costs, 1.0)
    return int(bid), float(value)


def test_standard_scoring_picks_the_bid_of_highest_expected_value() -> None:
    """Made: 10 a trick bid + 1 a bag; set: -10 a trick bid. Expected values:
    bid 2: 0.2×21 + 0.5×22 + 0.3×23 = 22.1;  bid 3: 0.2×30 + 0.5×31 + 0.3×32 = 31.1;
    bid 4: 0.2×(-40) + 0.5×40 + 0.3×41 = 24.3;  bid 5: 0.2×(-50) + 0.5×(-50) + 0.3×50 = -20."""
    assert best(STANDARD) == pytest.approx((3, 31.1))


def test_a_bag_penalty_one_bag_away_moves_the_bid_up() -> None:
    """The next bag costs 100 (the side is one bag from the limit): bid 3 is worth
    0.2×30 + 0.5×(31-100) + 0.3×(32-100) = -48.9, bid 4 0.2×(-40) + 0.5×40 + 0.3×(41-100) = -5.7,
    bid 5 -20: bid 4."""
    costs = np.full(14, 100.0)
    costs[0] = 0.0
    assert best(STANDARD, costs=costs) == pytest.approx((4, -5.7))


def test_a_set_that_scores_zero_moves_the_bid_up() -> None:
    """failed_contract = zero: bid 4 is worth 0.2×0 + 0.5×40 + 0.3×41 = 32.3 > bid 3's 31.1."""
    assert best(pack_rules(RuleSet(failed_contract="zero"))) == pytest.approx((4, 32.3))


def test_overtricks_that_cost_a_point_keep_the_bid() -> None:
    """overtrick_points = -1: bid 3 is 0.2×30 + 0.5×29 + 0.3×28 = 28.9, bid 4
    0.2×(-40) + 0.5×40 + 0.3×39 = 23.7: still 3, worth less."""
    assert best(pack_rules(RuleSet(overtrick_points=-1))) == pytest.approx((3, 28.9))


def test_only_allowed_bids_are_chosen() -> None:
    """Bid 3 not allowed: bid 4 (24.3) beats bid 2 (22.1)."""
    assert best(STANDARD, allowed=EVERY_COUNT_BID & ~(1 << 3)) == pytest.approx((4, 24.3))


def test_the_partners_bid_is_part_of_the_contract() -> None:
    """The partner bid 2 (base 2): the seat's bid b makes a contract of 2 + b, so the best is 1
    (a contract of 3, 31.1)."""
    assert best(STANDARD, base=2) == pytest.approx((1, 31.1))


def test_the_offset_judges_bids_by_a_shifted_distribution() -> None:
    """shift = +1: the tricks are 4, 5, 6 with the same chances; bid 4 is worth
    0.2×40 + 0.5×41 + 0.3×42 = 41.1, bid 5 0.2×(-50) + 0.5×50 + 0.3×51 = 30.3."""
    assert best(STANDARD, shift=1.0) == pytest.approx((4, 41.1))


@pytest.mark.parametrize(("rules", "shift", "expected"), [
    (RuleSet(), 0.0, (3, 31.1)),
    # Four cards come back from the nil: 0.5 a card, the tricks are 5, 6, 7. Bid 4 is worth
    # 0.2×41 + 0.5×42 + 0.3×43 = 42.1, bid 5 0.2×50 + 0.5×51 + 0.3×52 = 51.1, bid 6
    # 0.2×(-60) + 0.5×60 + 0.3×61 = 36.3.
    (RuleSet(nil_pass=4), 2.0, (5, 51.1)),
    # One card: half a trick, the two distributions around it weighed half and half. Bid 3 is
    # worth (31.1 + (0.2×31 + 0.5×32 + 0.3×33)) / 2 = 31.6, bid 4 (24.3 + 41.1) / 2 = 32.7.
    (RuleSet(nil_pass=1), 0.5, (4, 32.7)),
])
def test_a_nil_partner_bids_for_the_cards_passed_back(rules, shift, expected) -> None:
    """Over a partner's nil the expert's distribution moves by ``cover_bonus`` (0) and
    ``nil_pass_cover`` (0.5) for each card of the nil card pass."""
    packed = pack_rules(rules)
    got = expert_bid._cover_shift(packed, Strategy("t", "expert", "expert").variant(
        {"cover_bonus": 0.0, "nil_pass_cover": 0.5}).vector())
    assert got == shift
    assert best(packed, shift=got) == pytest.approx(expected)


@pytest.mark.parametrize(("name", "value", "message"), [
    ("nil_min_chance", 1.5, "param nil_min_chance=1.5: allowed 0 to 1"),
    ("nil_bonus", -500.0, "param nil_bonus=-500.0: allowed -200 to 200"),
    ("bag_weight", -1.0, "param bag_weight=-1.0: allowed 0 to 5"),
    ("blind_nil_margin", 2.0, "param blind_nil_margin=2.0: allowed -1 to 1"),
    ("blind_nil_min_chance", -0.1, "param blind_nil_min_chance=-0.1: allowed 0 to 1"),
    ("nil_pass_reach", 2.5, "param nil_pass_reach=2.5: allowed 0 to 2"),
    ("nil_pass_cover", -0.5, "param nil_pass_cover=-0.5: allowed 0 to 2"),
])
def test_expert_parameters_out_of_range_are_refused(name: str, value: float, message: str) -> None:
    with pytest.raises(StrategyError) as raised:
        Strategy("t", "expert", "expert", {name: value})
    assert str(raised.value) == message


def test_a_parameter_the_policies_do_not_read_is_refused() -> None:
    with pytest.raises(StrategyError) as raised:
        Strategy("t", "expert", "expert", {"nil_threshold": 0.5})
    assert str(raised.value) == ("param nil_threshold=0.5: allowed only with the basic or "
                                 "expert-v1 policies (this strategy bids expert and plays expert)")

"""Differential test of the nil card pass and the zero bid: the kernel against the referee.

``test_differential.py``'s machinery (the kernel traces written as hand logs, every log replayed
by the referee move by move, every record compared) under random combinations of ``nil_pass``,
``blind_nil_pass`` and ``zero_bid`` with other options of docs/rules.md. The shipped presets,
``trickster-jokers`` among them, run in ``test_differential.py``.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from test_differential import EXCHANGE_MIX, EXPERT_MIX, MIXED, differential, pool  # noqa: F401

from spades_sim.rules import RulesError, RuleSet

PASSES = (1, 2, 4, None, 4, 3, 2, None)
"""The nil pass of each random rule set; None: no pass, and a bid of 0 is a zero."""
COMBINATIONS = len(PASSES)


def random_rules(index: int) -> RuleSet:
    """Rule set ``index`` of a fixed random draw: a nil pass (or a zero bid) with other options,
    drawn again until the table can play them."""
    rng = random.Random(45_000 + index)
    while True:
        zero = PASSES[index] is None
        fields = {
            "name": f"pass-{index}",
            "nil_pass": PASSES[index] or 0,
            "zero_bid": "zero" if zero else "nil",
            "blind_nil": rng.choice(["anytime", "when_behind", "off"]),
            "deck": rng.choice(["standard", "jokers", "joker-joker-deuce-deuce", "deuce-high"]),
            "first_lead": rng.choice(["dealer_left_no_spade", "two_of_clubs"]),
            "nil_tricks": rng.choice(["bags_only", "count_for_partner"]),
            "both_partners_nil": "allowed" if zero else rng.choice(["allowed", "forbidden"]),
            "side_min_bid": rng.choice([0, 0, 2]),
            "failed_contract": rng.choice(["minus_ten_per_bid", "zero"]),
            "target": rng.choice([300, 500]),
        }
        if fields["blind_nil"] != "off":
            fields["blind_nil_pass"] = rng.choice([0, 1, 3])
        if zero and index == 7:
            fields.update(mode="solo", blind_nil="off", blind_nil_pass=0, side_min_bid=0,
                          nil_tricks="bags_only")
        try:
            return RuleSet(**fields)  # type: ignore[arg-type]
        except RulesError:
            continue


@pytest.mark.parametrize("index", range(COMBINATIONS))
def test_random_pass_combinations_agree_with_the_referee(pool, tmp_path: Path,  # noqa: F811
                                                         index: int) -> None:
    """2,000 random hands and 100 games (basic against random card play; the expert against
    expert-v1) per combination: every exchange and zero bid replayed by the referee."""
    rules = random_rules(index)
    hands = differential(pool, tmp_path, rules, "random", "hands", 2_000, seed=45_001 + index)
    assert hands.hands == 2_000
    if rules.nil_pass:
        assert hands.counts["plain nil beside a count"] > 0, hands.counts
    if rules.zero_bid == "zero":
        assert hands.counts["zero bids"] > 0 and hands.counts["nil made"] == 0, hands.counts
    mix = EXCHANGE_MIX if rules.partnership else MIXED
    games = differential(pool, tmp_path, rules, mix, "games", 100, seed=45_101 + index,
                         max_hands=40)
    assert games.games == 100
    expert = differential(pool, tmp_path, rules, EXPERT_MIX, "games", 10, seed=45_201 + index,
                          max_hands=40)
    assert expert.games == 10


def test_the_draw_covers_every_pass_and_the_zero_bid() -> None:
    drawn = [random_rules(index) for index in range(COMBINATIONS)]
    assert {rules.nil_pass for rules in drawn} == {0, 1, 2, 3, 4}
    assert {rules.zero_bid for rules in drawn} == {"nil", "zero"}
    assert any(rules.nil_pass and rules.blind_nil_pass for rules in drawn)
    assert any(not rules.partnership for rules in drawn)

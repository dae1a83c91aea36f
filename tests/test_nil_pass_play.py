"""The strategies under the nil card pass and the zero bid: the expert's pass cards, its nil
chances read from the pass tables, its zero bids, and ``calibrate``'s pass tables."""

from __future__ import annotations

from itertools import pairwise

import numpy as np
import pytest
from clirun import assert_one_line_error, invoke

from spades_sim import simulate_hands
from spades_sim.cards import format_card, parse_cards
from spades_sim.kernel import calibration
from spades_sim.kernel.packing import pack_rules
from spades_sim.kernel.policy_expert import _pass_expert
from spades_sim.rules import RuleSet, load_preset
from spades_sim.run.catalogue import pick

STANDARD = pack_rules(RuleSet())
JOKERS = pack_rules(load_preset("trickster-jokers"))


def pass_of(packed, hand: str, to_nil: bool) -> str:
    """The card ``_pass_expert`` passes from ``hand``, as a name."""
    slot_of = {int(card): slot for slot, card in enumerate(packed.slot_card) if card >= 0}
    mask = 0
    for card in parse_cards(hand):
        mask |= 1 << slot_of[card]
    slot = _pass_expert.py_func(np.uint64(mask), to_nil, packed.suit_masks, packed.suit_low,
                                packed.trump_suit)
    return format_card(int(packed.slot_card[slot]))


@pytest.mark.parametrize(("packed", "hand", "to_nil", "card"), [
    # The nil bidder passes back its highest trump first, whatever its side cards.
    (STANDARD, "QS 3S AH 2H 9D 8D 7D 6D 5D 4C 3C 2C KC", False, "QS"),
    (JOKERS, "2S 3S AH 3H 9D 8D 7D 6D 5D 4C 3C KC AS", False, "2S"),  # 2S ranks over AS here
    # No trump: the side card nearest the top of its suit, the shorter suit on a tie.
    (STANDARD, "AH 2H KD QD JD 10D 9D 8D 4C 3C 2C 7C 6C", False, "AH"),
    (STANDARD, "KH 2H KD QD JD 10D 9D 8D 4C 3C 2C 7C 6C", False, "KH"),
    # The partner passes its lowest side card, from its longest suit on a tie, never a trump
    # while it holds a side card; it keeps its high cards and trumps.
    (STANDARD, "2S AS KS 2H KH 2D 9D 8D 7D 5C 3C KC QC", True, "2D"),
    (STANDARD, "2S 3S AS KS QS JS 10S 9S 8S 7S 6S 5S 4S", True, "2S"),
])
def test_expert_pass_cards(packed, hand: str, to_nil: bool, card: str) -> None:
    assert pass_of(packed, hand, to_nil) == card


@pytest.mark.parametrize("family", ["partnership-standard", "partnership-joker-joker-deuce-deuce"])
def test_pass_tables_shipped_and_read_for_the_pass(family: str) -> None:
    arrays = calibration.load_family(family)
    assert arrays["pass_bids"].shape == (4, 3, arrays["nil_bids"].shape[1])
    entry = calibration.provenance()[family]
    assert entry["nil_pass_command"].startswith(f"spades-sim calibrate {family} ")
    assert f"--seed {entry['nil_pass_seed']}" in entry["nil_pass_command"]
    rules = load_preset("standard" if family.endswith("standard") else "joker-joker-deuce-deuce")
    plain = calibration.kernel_tables(arrays, rules).nil
    for passed in (1, 2, 4):
        made, bids = calibration.nil_counts_for(arrays, rules.replace(nil_pass=passed))
        np.testing.assert_array_equal(made, arrays["pass_made"][passed - 1])
        np.testing.assert_array_equal(bids, arrays["pass_bids"][passed - 1])
    made, bids = calibration.nil_counts_for(arrays, rules)
    np.testing.assert_array_equal(bids, arrays["nil_bids"])  # no pass: the plain nil's
    # With the pass the nils of the middle nil scores (where most are bid) succeed more often.
    for passed in (2, 4):
        chances = calibration.kernel_tables(arrays, rules.replace(nil_pass=passed)).nil
        middle = arrays["nil_bids"][1] >= 300
        assert (chances[1][middle] > plain[1][middle]).mean() > 0.8, passed


def test_expert_bids_more_nils_the_more_cards_are_passed() -> None:
    """The nil bid rate rises with the pass, each rate's 95% interval clear of the next: the pass
    tables make nils likelier to succeed, and ``nil_pass_reach`` lets the expert judge a nil on
    stronger hands the more cards it can pass away (with 0 it stopped rising at 2 cards)."""
    rates = []
    for passed in (0, 1, 2, 4):
        table = simulate_hands(RuleSet(nil_pass=passed), "expert", 20_000, seed=11).summary()
        rates.append(pick(table, "nil_bid_rate"))
    for lower, higher in pairwise(rates):
        assert lower["high"] < higher["low"], (lower, higher)


def test_the_pass_parameters_win_games() -> None:
    """With four cards passed, the expert beats itself without ``nil_pass_reach`` and
    ``nil_pass_cover`` in duplicate, the paired interval's lower bound above 50%
    (reports/house-rules.md: 71.8% [71.0%, 72.7%] on 5,000 deal sequences)."""
    from spades_sim import compare_strategies
    from spades_sim.kernel.strategies import STRATEGIES

    plain = STRATEGIES["expert"].variant({"nil_pass_reach": 0.0, "nil_pass_cover": 0.0})
    result = compare_strategies(RuleSet(nil_pass=4), "expert", plain, 600, seed=12)
    assert result.paired_interval[0] > 0.5, result.paired_interval


def test_expert_zero_bids_are_contracts() -> None:
    zero = simulate_hands(RuleSet(zero_bid="zero"), "expert", 4_000, seed=7, keep_records=True)
    table = zero.summary()
    assert pick(table, "nil_bid_rate")["value"] == 0
    frame = zero.records()
    zeros = frame[frame["bid"] == 0]
    assert len(zeros) > 0 and (zeros["blind"] == -1).all()
    assert (zeros["nil_outcome"] == "none").all()


def mask_of(packed, cards: str) -> np.uint64:
    """The slot mask of ``cards`` (names) at the packed table."""
    slot_of = {int(card): slot for slot, card in enumerate(packed.slot_card) if card >= 0}
    return np.uint64(sum(1 << slot_of[card] for card in parse_cards(cards)))


@pytest.mark.parametrize(("nil_bid", "card"), [(0, "2H"), (-1, "AH")])
def test_expert_does_not_attack_a_zero(nil_bid: int, card: str) -> None:
    """Seat 0 leads; its left-hand opponent bid 0, the others 3, 3 and 4. Against a nil the expert
    attacks: it leads the deuce of hearts, which the nil cannot duck under. A zero (``zero_bid``,
    ``nil_bid`` -1) is a contract of no tricks whose tricks count for its side, so the expert
    plays for its own six tricks instead and leads its boss, the ace of hearts."""
    from spades_sim.kernel.expert_play import _play_expert
    from spades_sim.kernel.strategies import STRATEGIES

    hand = mask_of(STANDARD, "AH 2H KD QD JD 10D 9D KC QC JC 10C 9C 8C")
    slot = _play_expert(
        STRATEGIES["expert"].vector(), 0, 2, hand, hand, 0, -1, -1, -1, -1, np.uint64(0),
        np.zeros(4, np.int64), np.array([3, 0, 3, 4], np.int64), np.zeros(4, np.int64), 4, 10.0,
        10.0, 10.0, nil_bid, STANDARD.suit_masks, STANDARD.suit_low, STANDARD.trump_suit)
    assert format_card(int(STANDARD.slot_card[slot])) == card


@pytest.mark.parametrize(("args", "message"), [
    (["partnership-standard", "--nil-pass-only"],
     "nil-pass-only: allowed with --nil-pass-hands N (the hands to play)"),
    (["solo-standard", "--nil-pass-hands", "20000"],
     "family='solo-standard': allowed a partnership family with --nil-pass-hands (a pass needs "
     "partners)"),
    (["partnership-standard", "--nil-pass-hands", "5"],
     "nil-pass-hands=5: allowed 0 or a whole number 10,000 to 10^9"),
])
def test_calibrate_nil_pass_refusals(tmp_path, args: list[str], message: str) -> None:
    assert_one_line_error(invoke(["calibrate", *args, "--out-dir", str(tmp_path)]), message)


def test_calibrate_adds_pass_tables_and_keeps_the_rest(tmp_path) -> None:
    result = invoke(["calibrate", "partnership-deuce-high", "--out-dir", str(tmp_path),
                     "--nil-pass-only", "--nil-pass-hands", "10000", "--seed", "3", "--quiet"])
    assert result.exit_code == 0, result.output
    arrays = calibration.load_family("partnership-deuce-high", tmp_path)
    shipped = calibration.load_family("partnership-deuce-high")
    assert arrays["pass_bids"].sum() > 0
    for key in shipped:
        np.testing.assert_array_equal(arrays[key], shipped[key], err_msg=key)
    entry = calibration.tomllib.loads((tmp_path / "tables.toml").read_text())[
        "partnership-deuce-high"]
    assert entry["command"] == calibration.provenance()["partnership-deuce-high"]["command"]
    assert entry["nil_pass_command"] == (
        f"spades-sim calibrate partnership-deuce-high --out-dir {tmp_path} --seed 3 "
        "--nil-pass-only --nil-pass-hands 10000")


def test_logs_with_passes_and_zeros_replay(tmp_path) -> None:
    """``score``, ``audit`` and ``review`` replay the kernel's logs with nil passes (and with zero
    bids, whose rules file is written beside the log)."""
    log = tmp_path / "hands.jsonl"
    result = invoke(["simulate", "--rules", "trickster-jokers", "--hands", "300", "--seed", "5",
                     "--strategy", "expert", "--strategy", "basic", "--quiet", "--log", str(log),
                     "--log-deals", "0:300"])
    assert result.exit_code == 0, result.output
    lines = log.read_text(encoding="utf-8").splitlines()
    passed = [line for line in lines if ' g ' in line]
    assert len(passed) >= 5
    scored = invoke(["score", str(log)])
    assert scored.exit_code == 0, scored.output
    assert scored.output.endswith("300 hands scored, all moves legal, every recorded result agrees\n")
    audited = invoke(["audit", str(log)])
    assert audited.exit_code == 0, audited.output
    few = tmp_path / "passes.jsonl"
    few.write_text("\n".join(passed[:2]) + "\n", encoding="utf-8")
    reviewed = invoke(["review", str(few), "--quiet"])
    assert reviewed.exit_code == 0, reviewed.output
    assert reviewed.output.startswith("2 hands, ")

    zeros = tmp_path / "zeros.jsonl"
    result = invoke(["simulate", "--rule", "zero_bid=zero", "--hands", "200", "--seed", "5",
                     "--quiet", "--log", str(zeros), "--log-deals", "0:200"])
    assert result.exit_code == 0, result.output
    assert ' b 0"' in zeros.read_text(encoding="utf-8")
    scored = invoke(["score", str(zeros)])
    assert scored.exit_code == 0, scored.output
    assert "200 hands scored, all moves legal" in scored.output

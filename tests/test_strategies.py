"""Named strategies, per-side parameter overrides and the ``strategies`` commands."""

from __future__ import annotations

import numpy as np
import pytest
from clirun import assert_ok, assert_one_line_error, invoke

from spades_sim.kernel.strategies import (
    PARAMS,
    STRATEGIES,
    Strategy,
    StrategyError,
    get_strategy,
    override_params,
    pack_strategies,
    parse_param_override,
)
from spades_sim.rules import RuleSet, load_preset, preset_names
from spades_sim.run.catalogue import Totals, pick
from spades_sim.run.simulate import seat_strategies, simulate_hands

SEED = 4_242


def test_named_strategies_are_valid_and_distinct() -> None:
    assert {"random", "basic", "conservative", "aggressive", "nil-happy", "bag-averse",
            "expert"} <= set(STRATEGIES)
    vectors = {(s.bidding, s.play, tuple(s.vector())) for s in STRATEGIES.values()}
    assert len(vectors) == len(STRATEGIES)  # no two strategies alike
    for strategy in STRATEGIES.values():
        assert strategy.description


@pytest.mark.parametrize(("text", "parsed"), [
    ("0.bid_offset=0.5", (0, "bid_offset", 0.5)),
    ("1.nil_threshold=0", (1, "nil_threshold", 0.0)),
    ("3.cover_bonus=2", (3, "cover_bonus", 2.0)),
    ("bid_offset=0.5", (None, "bid_offset", 0.5)),  # no side: every side
])
def test_parse_param_override(text: str, parsed: tuple[int | None, str, float]) -> None:
    assert parse_param_override(text) == parsed


FORM = ("allowed [SIDE.]NAME=VALUE with VALUE, a list A,B,… or a range LO..HI (a grid "
        "LO..HI:STEP, HI included), e.g. 0.bid_offset=0.5 or bid_offset=-1..1:0.5")


@pytest.mark.parametrize(("text", "message"), [
    ("a.bid_offset=1", f"param='a.bid_offset=1': {FORM}"),
    ("0.bid_offset=high", f"param='0.bid_offset=high': {FORM}"),
    (" 3.cover_bonus=2", f"param=' 3.cover_bonus=2': {FORM}"),
    ("0.bid_offset=0.5 ", f"param='0.bid_offset=0.5 ': {FORM}"),
    ("0.boldness=1", "param boldness=1: allowed a parameter "
     + ", ".join(spec.name for spec in PARAMS)),
    ("0.bid_offset=0,1", "param='0.bid_offset=0,1': allowed one value, e.g. 0.bid_offset=0.5 "
     "(a list or a range is for tune)"),
    ("0.bid_offset=0..1", "param='0.bid_offset=0..1': allowed one value, e.g. 0.bid_offset=0.5 "
     "(a list or a range is for tune)"),
])
def test_parse_param_override_refuses(text: str, message: str) -> None:
    with pytest.raises(StrategyError) as raised:
        parse_param_override(text)
    assert str(raised.value) == message


def test_override_params_changes_one_side_and_checks_ranges() -> None:
    seats = seat_strategies(["basic", "expert-v1"], 4)
    changed = override_params(seats, [(1, "bid_offset", -1.0)], 2)
    assert [s.name for s in changed] == ["basic", "expert-v1[bid_offset=-1]", "basic",
                                         "expert-v1[bid_offset=-1]"]
    assert changed[3].param("bid_offset") == -1.0 and changed[2].param("bid_offset") == 0.0
    # Without partners a side is one seat.
    solo = override_params(seat_strategies("basic", 4), [(2, "nil_threshold", 1.0)], 4)
    assert [s.param("nil_threshold") for s in solo] == [0.5, 0.5, 1.0, 0.5]
    with pytest.raises(StrategyError, match=r"^param side 2: allowed 0 to 1$"):
        override_params(seats, [(2, "bid_offset", 1.0)], 2)
    with pytest.raises(StrategyError, match=r"^param bid_offset=4.0: allowed -3 to 3$"):
        override_params(seats, [(0, "bid_offset", 4.0)], 2)
    # A parameter the side's policies do not read is refused, not silently ignored.
    with pytest.raises(StrategyError, match=r"^param bid_offset=-1.0: allowed only with the "
                       r"basic or expert-v1 or expert policies \(this strategy bids random and "
                       r"plays random\)$"):
        override_params(seat_strategies(["basic", "random"], 4), [(1, "bid_offset", -1.0)], 2)


def test_param_override_moves_that_sides_bids() -> None:
    """bid_offset = -2 on side 1, same deals: side 0 bids exactly as before; a side-1 count bid
    drops by 2, or to the lowest count bid, 1 (the offset moves the estimate before rounding;
    nil decisions do not depend on it)."""
    seats = override_params(seat_strategies("basic", 4), [(1, "bid_offset", -2.0)], 2)
    changed = simulate_hands(RuleSet(), seats, 5_000, seed=SEED, keep_records=True).records()
    plain = simulate_hands(RuleSet(), "basic", 5_000, seed=SEED, keep_records=True).records()
    side0 = plain["side"] == 0
    assert (changed.loc[side0, "bid"] == plain.loc[side0, "bid"]).all()
    before = plain.loc[~side0, "bid"].to_numpy()
    after = changed.loc[~side0, "bid"].to_numpy()
    assert ((before == 0) == (after == 0)).all()
    counted = before > 0
    drop = before[counted] - after[counted]
    assert (drop == np.minimum(2, before[counted] - 1)).mean() > 0.99  # the 13-trick cap aside
    assert drop.min() >= 0 and drop.max() <= 2


def test_bidding_temperament_orders_the_contract_make_rate() -> None:
    """Same deals: conservative (expert judging bids half a trick short) makes more contracts
    than expert, and expert more than aggressive (half a trick long), each gap beyond the two
    95% intervals (measured 96.6%, 93.6% and 87.4%)."""
    rates = {}
    for name in ("conservative", "expert", "aggressive"):
        summary = simulate_hands(RuleSet(), name, 20_000, seed=SEED).summary()
        rates[name] = pick(summary, "make_rate")[["low", "high"]].to_numpy()
    assert rates["conservative"][0] > rates["expert"][1]
    assert rates["expert"][0] > rates["aggressive"][1]


def test_nil_happy_bids_nil_more_often() -> None:
    totals = {name: simulate_hands(RuleSet(), name, 10_000, seed=SEED).totals
              for name in ("basic", "nil-happy")}
    assert totals["nil-happy"].get("nil_bid_rate").y > 2 * totals["basic"].get("nil_bid_rate").y


# --- the commands ---


def test_strategies_list_names_every_strategy() -> None:
    result = invoke(["strategies", "list"])
    assert_ok(result)
    names = [line.split()[0] for line in result.output.splitlines()]
    assert names == list(STRATEGIES)


def test_strategies_show_prints_the_parameters_its_policies_read() -> None:
    result = invoke(["strategies", "show", "conservative"])
    assert_ok(result)
    lines = result.output.splitlines()
    assert lines[0].startswith("conservative: expert, judging bids half a trick short")
    rows = {line.split()[0]: line.split()[1:3] for line in lines[3:]}
    assert set(rows) == {spec.name for spec in STRATEGIES["conservative"].params_read()}
    assert "nil_threshold" not in rows and "nil_min_chance" in rows  # basic's, not the expert's
    assert rows["bid_offset"] == ["-0.5*", "0"]  # set by the strategy, then the default
    assert rows["bag_weight"] == ["1", "1"]
    basic = invoke(["strategies", "show", "basic"]).output
    assert "nil_threshold" in basic and "nil_min_chance" not in basic


def test_strategies_show_unknown_name() -> None:
    assert_one_line_error(invoke(["strategies", "show", "expertish"]),
                          "strategy='expertish': allowed " + ", ".join(STRATEGIES)
                          + ", or a strategy file NAME.toml")


def test_simulate_with_param_override_names_it() -> None:
    result = invoke(["simulate", "--hands", "2000", "--seed", "1", "--quiet",
                     "--param", "1.bid_offset=-1"])
    assert_ok(result)
    assert result.output.startswith(
        "rules standard, strategy expert vs expert[bid_offset=-1], seed 1: 2,000 hands")


@pytest.mark.parametrize(("args", "message"), [
    (["--param", "2.bid_offset=1"], "param side 2: allowed 0 to 1"),
    (["--param", "0.bid_offset=9"], "param bid_offset=9: allowed -3 to 3"),
    (["--param", "x"], f"param='x': {FORM}"),
])
def test_simulate_bad_param(args: list[str], message: str) -> None:
    assert_one_line_error(invoke(["simulate", "--hands", "10", *args]), message)


def test_get_strategy_passes_objects_through() -> None:
    custom = Strategy("mine", params={"bid_offset": 1.0})
    assert get_strategy(custom) is custom
    assert np.isclose(custom.vector()[0], 1.0)


def test_mean_absolute_bid_error_by_hand() -> None:
    """Hand 1: side 0 bids 3 + nil and its bidder takes 4 (error 1), side 1 bids 2 + 4 and takes
    3 + 5 (error 2). Hand 2: side 0 bids 1 + 1, takes 0 (error 2); side 1 bids 1 + 1, takes 0 + 13
    (error 11). Mean (1 + 2 + 2 + 11) / 4 = 4; per side (1 + 2) / 2 = 1.5 and (2 + 11) / 2 = 6.5."""
    from types import SimpleNamespace

    bid = np.array([[3, 2, 0, 4], [1, 1, 1, 1]], dtype=np.int8)
    tricks = np.array([[4, 3, 1, 5], [0, 0, 0, 13]], dtype=np.int8)
    contract = np.array([[3, 6], [2, 2]], dtype=np.int8)
    zeros = np.zeros((2, 2), dtype=np.int32)
    records = SimpleNamespace(bid=bid, blind=np.zeros_like(bid), tricks=tricks, contract=contract,
                              made=np.array([[1, 1], [0, 1]], dtype=np.int8), bags=zeros,
                              penalty=zeros, points=zeros)
    totals = Totals("hands", 4, 2)
    totals.add(records)
    summary = totals.summary()
    row = pick(summary, "bid_error")
    assert (row["value"], row["n"]) == (4.0, 4)
    for side, value in ((0, 1.5), (1, 6.5)):
        row = pick(summary, "bid_error", side)
        assert (row["value"], row["n"]) == (value, 2)
        assert row["metric"] == f"side {side} (seats {side}+{side + 2}) mean absolute bid error"


def test_mean_absolute_bid_error_by_game() -> None:
    """Game 1: side 0 misses by 3 over 2 contracts, side 1 by 1 over 2; game 2: side 0 by 1 over 2,
    side 1 by 5 over 3. Per side 4 / 4 = 1.0 and 6 / 5 = 1.2; both sides 10 / 9."""
    from types import SimpleNamespace

    pair = np.zeros((2, 2), dtype=np.int32)
    records = SimpleNamespace(
        hands=np.array([3, 4], dtype=np.int32), winner=np.array([0, 1], dtype=np.int8),
        contracts=np.array([[2, 2], [2, 3]], dtype=np.int32), made=pair, nil_bids=pair,
        nil_made=pair, blind_bids=pair, blind_made=pair, bags=pair, penalty=pair, score=pair,
        bid_error=np.array([[3, 1], [1, 5]], dtype=np.int32))
    totals = Totals("games", 4, 2)
    totals.add(records)
    summary = totals.summary()
    for side, value, n in ((None, 10 / 9, 9), (0, 1.0, 4), (1, 1.2, 5)):
        row = pick(summary, "bid_error", side)
        assert row["value"] == pytest.approx(value) and row["n"] == n, side
        assert row["low"] < value < row["high"]


@pytest.mark.parametrize("preset", preset_names())
def test_packed_strategies_are_c_contiguous_under_every_preset(preset: str) -> None:
    # numba compiles the whole kernel once per array layout it is handed: a table that comes
    # out of packing Fortran-ordered or strided would compile every driver a second time.
    rules = load_preset(preset)
    packed = pack_strategies(seat_strategies(["expert", "expert-v1"], rules.seat_count), rules)
    assert [name for name, array in zip(packed._fields, packed)
            if not array.flags.c_contiguous] == []

"""Tuning strategy parameters on common random numbers."""

from __future__ import annotations

from pathlib import Path

import pytest
from clirun import assert_ok, assert_one_line_error, invoke

from spades_sim.analysis.tune import MAX_SETTINGS, parse_param_range, tune
from spades_sim.kernel.strategies import PARAMS, STRATEGIES, StrategyError
from spades_sim.rules import RuleSet

SEED = 8_080


@pytest.mark.parametrize(("text", "parsed"), [
    ("bid_offset=-1..1:0.5", ("bid_offset", [-1.0, -0.5, 0.0, 0.5, 1.0])),
    ("nil_threshold=0.5..0.5:1", ("nil_threshold", [0.5])),  # a single value
    ("cover_bonus=0..1:0.3", ("cover_bonus", [0.0, 0.3, 0.6, 0.9])),  # HI not on the grid
    ("0.set_slack=0,2,4", ("set_slack", [0.0, 2.0, 4.0])),  # a list, side 0: the one tuned
    ("bid_offset=0.5", ("bid_offset", [0.5])),
])
def test_parse_param_range(text: str, parsed: tuple[str, list[float]]) -> None:
    assert parse_param_range(text) == parsed


FORM = ("allowed [SIDE.]NAME=VALUE with VALUE, a list A,B,… or a range LO..HI (a grid "
        "LO..HI:STEP, HI included), e.g. 0.bid_offset=0.5 or bid_offset=-1..1:0.5")
"""The one grammar of --param, as a refusal words it."""


@pytest.mark.parametrize(("text", "message"), [
    ("bid_offset", f"param='bid_offset': {FORM}"),
    ("bid_offset=0..", f"param='bid_offset=0..': {FORM}"),
    ("bid_offset=a..1:1", f"param='bid_offset=a..1:1': {FORM}"),
    ("boldness=0..1:1", "param boldness=0..1:1: allowed a parameter "
     + ", ".join(spec.name for spec in PARAMS)),
    ("bid_offset=1..-1:0.5", "param bid_offset=1..-1:0.5: allowed LO <= HI and STEP > 0"),
    ("bid_offset=-1..1:0", "param bid_offset=-1..1:0: allowed LO <= HI and STEP > 0"),
    ("bid_offset=-1..1:-0.5", "param bid_offset=-1..1:-0.5: allowed LO <= HI and STEP > 0"),
    ("bid_offset=-1..nan:1", f"param='bid_offset=-1..nan:1': {FORM}"),
    ("bid_offset=-5..1:1", "param bid_offset=-5..1:1: allowed -3 to 3"),
    ("blind_nil_deficit=0..10000:1",
     f"param blind_nil_deficit=0..10000:1: allowed at most {MAX_SETTINGS} values (10001 asked)"),
    ("bid_offset=-1..1", "param='bid_offset=-1..1': allowed a grid of values, a list "
     "NAME=A,B,… or NAME=LO..HI:STEP, e.g. bid_offset=-1..1:0.5"),
    ("1.bid_offset=0,1", "param='1.bid_offset=0,1': allowed a parameter of the strategy tuned, "
     "NAME=… or 0.NAME=…"),
    ("bid_offset=-1:1:0.5", f"param='bid_offset=-1:1:0.5': {FORM}"),  # the old form: the CLI's
])
def test_parse_param_range_refuses(text: str, message: str) -> None:
    with pytest.raises(StrategyError) as raised:
        parse_param_range(text)
    assert str(raised.value) == message


def test_tuning_recovers_the_known_better_setting() -> None:
    """Against basic, bidding three tricks under the estimate loses almost every game; bidding
    the estimate (basic itself) splits them: the grid must rank 0 first, apart from -3."""
    result = tune(RuleSet(), "basic", [("bid_offset", [-3.0, 0.0])], "basic", 200, SEED)
    best = result.best
    assert best["bid_offset"] == 0.0 and best["win_share"] == 0.5
    worst = result.table.iloc[-1]
    assert worst["bid_offset"] == -3.0 and worst["high"] < best["low"]


def test_two_parameter_grid_and_repeated_parameter() -> None:
    ranges = [("bid_offset", [-0.5, 0.0]), ("nil_threshold", [0.0, 0.5])]
    result = tune(RuleSet(), "basic", ranges, "random", 30, SEED)
    assert len(result.table) == 4
    assert set(zip(result.table["bid_offset"], result.table["nil_threshold"])) == {
        (-0.5, 0.0), (-0.5, 0.5), (0.0, 0.0), (0.0, 0.5)}
    assert list(result.table["win_share"]) == sorted(result.table["win_share"], reverse=True)
    with pytest.raises(StrategyError, match="each parameter once"):
        tune(RuleSet(), "basic", [("bid_offset", [0.0]), ("bid_offset", [1.0])], "basic", 10, SEED)


def test_tune_command(tmp_path: Path) -> None:
    figure = tmp_path / "tune.png"
    result = invoke(["tune", "basic", "--param", "bid_offset=-3..0:3", "--against", "random",
                     "--games", "20", "--seed", "2", "--quiet", "--figure", str(figure)])
    assert_ok(result)
    lines = result.output.splitlines()
    assert lines[0] == ("rules standard, basic against random, seed 2: 2 settings x 20 deal"
                        " sequences x 2")
    assert lines[1].startswith("bid_offset=") and "win share" in lines[1]
    assert lines[3].startswith("best: bid_offset=")
    assert figure.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(("args", "message"), [
    (["--param", "bid_offset=1..0:1"], "param bid_offset=1..0:1: allowed LO <= HI and STEP > 0"),
    # the old form, refused for another reason: one line, and it names the new form
    (["--param", "bid_offset=1:0:1"], "param bid_offset=1..0:1: allowed LO <= HI and STEP > 0"),
    (["--param", "bid_offset=0..1:1", "--figure", "t.pdf"],
     "figure='t.pdf': allowed a file ending in .png or .svg"),
    (["--param", "bid_offset=0..1:1", "--against", "nobody"],
     "strategy='nobody': allowed " + ", ".join(STRATEGIES) + ", or a strategy file NAME.toml"),
])
def test_tune_command_bad_input(args: list[str], message: str) -> None:
    assert_one_line_error(invoke(["tune", "basic", "--quiet", *args]), message)


def test_tune_command_needs_a_param() -> None:
    assert_one_line_error(invoke(["tune", "basic"]), "Missing option '--param'.", prefix_only=True)

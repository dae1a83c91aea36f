"""Tuning strategy parameters on common random numbers."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from clirun import assert_ok, assert_one_line_error, invoke

from spades_sim.analysis import tune as tune_module
from spades_sim.analysis.cmaes import cma_search
from spades_sim.analysis.compare import compare_strategies
from spades_sim.analysis.spsa import Space, spsa
from spades_sim.analysis.tune import (
    MAX_SETTINGS,
    ParamRange,
    confirmation_seed,
    parse_param_range,
    tune,
)
from spades_sim.kernel.strategies import (
    PARAMS,
    STRATEGIES,
    Strategy,
    StrategyError,
    dumps_strategy,
    load_strategy,
    loads_strategy,
)
from spades_sim.rules import RuleSet

SEED = 8_080


@pytest.mark.parametrize(("text", "values"), [
    ("bid_offset=-1..1:0.5", [-1.0, -0.5, 0.0, 0.5, 1.0]),
    ("nil_threshold=0.5..0.5:1", [0.5]),  # a single value
    ("cover_bonus=0..1:0.3", [0.0, 0.3, 0.6, 0.9]),  # HI not on the grid
    ("0.set_slack=0,2,4", [0.0, 2.0, 4.0]),  # a list, side 0: the one tuned
    ("bid_offset=0.5", [0.5]),
])
def test_parse_param_range(text: str, values: list[float]) -> None:
    parsed = parse_param_range(text)
    assert parsed.name == text.partition("=")[0].rpartition(".")[2] and parsed.values() == values


def test_parse_param_range_without_a_step() -> None:
    """LO..HI alone is a search's range, its scale a tenth of it; a grid needs the STEP."""
    parsed = parse_param_range("nil_bonus=-100..0")
    assert parsed == ParamRange("nil_bonus", -100.0, 0.0, None) and parsed.scale() == 10.0
    with pytest.raises(StrategyError) as raised:
        parsed.values()
    assert str(raised.value) == ("param='nil_bonus=-100..0': allowed NAME=LO..HI:STEP or a list "
                                 "NAME=A,B,… with --method grid (the grid's spacing)")


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
    ("1.bid_offset=0,1", "param='1.bid_offset=0,1': allowed a parameter of the strategy tuned, "
     "NAME=… or 0.NAME=…"),
    ("bid_offset=-1:1:0.5", f"param='bid_offset=-1:1:0.5': {FORM}"),  # the old form: the CLI's
])
def test_parse_param_range_refuses(text: str, message: str) -> None:
    with pytest.raises(StrategyError) as raised:
        parse_param_range(text)
    assert str(raised.value) == message


def test_grid_values_are_bounded() -> None:
    with pytest.raises(StrategyError) as raised:
        parse_param_range("blind_nil_deficit=0..10000:1").values()
    assert str(raised.value) == (f"param blind_nil_deficit=0..10000:1: allowed at most "
                                 f"{MAX_SETTINGS} values (10001 asked)")


def test_tuning_recovers_the_known_better_setting() -> None:
    """Against basic, bidding three tricks under the estimate loses almost every game; bidding
    the estimate (basic itself) splits them: the grid must rank 0 first, apart from -3."""
    result = tune(RuleSet(), "basic", [("bid_offset", [-3.0, 0.0])], "basic", 200, SEED,
                  confirm=50)
    best = result.best
    assert best["bid_offset"] == 0.0 and best["win_share"] == 0.5
    worst = result.table.iloc[-1]
    assert worst["bid_offset"] == -3.0 and worst["high"] < best["low"]


def test_two_parameter_grid_and_repeated_parameter() -> None:
    ranges = [("bid_offset", [-0.5, 0.0]), ("nil_threshold", [0.0, 0.5])]
    result = tune(RuleSet(), "basic", ranges, "random", 30, SEED, confirm=10)
    assert len(result.table) == 4
    assert set(zip(result.table["bid_offset"], result.table["nil_threshold"])) == {
        (-0.5, 0.0), (-0.5, 0.5), (0.0, 0.0), (0.0, 0.5)}
    assert list(result.table["win_share"]) == sorted(result.table["win_share"], reverse=True)
    with pytest.raises(StrategyError, match="each parameter once"):
        tune(RuleSet(), "basic", [("bid_offset", [0.0]), ("bid_offset", [1.0])], "basic", 10, SEED)


def test_tune_command(tmp_path: Path) -> None:
    figure = tmp_path / "tune.png"
    result = invoke(["tune", "basic", "--param", "bid_offset=-3..0:3", "--against", "random",
                     "--games", "20", "--confirm", "20", "--seed", "2", "--quiet", "--figure",
                     str(figure)])
    assert_ok(result)
    lines = result.output.splitlines()
    assert lines[0] == ("rules standard, basic against random, seed 2: 2 settings x 20 deal"
                        " sequences x 2")
    assert lines[1].startswith("bid_offset=") and "win share" in lines[1]
    assert lines[3].startswith("best: bid_offset=")
    assert lines[4].startswith("confirmed against basic on 20 fresh deal sequences x 2 (seed "
                               f"{confirmation_seed(2)}): win share ")
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


# --- searches: SPSA and CMA-ES -----------------------------------------------------------------

OPTIMUM = np.array([2.0, 0.8])
SPACE = Space(("x", "y"), np.array([0.0, 0.0]), np.array([10.0, 1.0]), np.array([8.0, 0.2]),
              np.array([0.5, 0.05]))


def _strength(theta: np.ndarray) -> float:
    """A synthetic strategy's strength in Elo, 60 Elo at its best (x = 2, y = 0.8)."""
    return float(60 - 3 * (theta[0] - OPTIMUM[0]) ** 2 - 200 * (theta[1] - OPTIMUM[1]) ** 2)


def _pair_results(step: int, plus: np.ndarray, minus: np.ndarray, pairs: int = 100) -> float:
    """Wins minus losses of ``plus`` over ``pairs`` duplicate pairs drawn for its Elo edge (a
    pair won both, split or lost both), as a real match would report them."""
    rng = np.random.default_rng(step)
    edge = 1 / (1 + 10 ** (-(_strength(plus) - _strength(minus)) / 400)) - 0.5
    won, lost = 0.3 + edge, 0.3 - edge  # the rest split
    outcomes = rng.choice([2, 0, -2], size=pairs, p=[won, 1 - won - lost, lost])
    return float(outcomes.sum())


def test_spsa_finds_the_better_parameters_of_a_known_objective() -> None:
    """From x = 8, y = 0.2 (−120 Elo, 180 below the best) SPSA climbs to within 10 Elo of the
    optimum on noisy duplicate results, and the same seed gives the same path."""
    run = spsa(SPACE, 300, _pair_results, rate=0.05, seed=3)
    assert not run.interrupted and len(run.rows) == 300
    assert round(_strength(SPACE.start)) == -120 and _strength(run.theta) > 50, run.theta
    again = spsa(SPACE, 300, _pair_results, rate=0.05, seed=3)
    assert np.array_equal(again.theta, run.theta)


def test_spsa_keeps_theta_when_interrupted() -> None:
    """Ctrl-C in step 6 (a KeyboardInterrupt between matches, or the match reporting it) keeps
    θ as it was after step 5, the same θ as an uninterrupted search's fifth."""
    whole = spsa(SPACE, 40, _pair_results, seed=5)

    def stopping(step: int, plus: np.ndarray, minus: np.ndarray) -> float | None:
        if step == 5:
            raise KeyboardInterrupt
        return _pair_results(step, plus, minus)

    for match in (stopping, lambda step, plus, minus: None if step == 5 else
                  _pair_results(step, plus, minus)):
        stopped = spsa(SPACE, 40, match, seed=5)
        assert stopped.interrupted and len(stopped.rows) == 5
        assert np.array_equal(stopped.theta, [whole.rows[4]["x"], whole.rows[4]["y"]])


def test_cma_finds_the_better_parameters_of_a_known_objective() -> None:
    def evaluate(generation: int, candidates: list[np.ndarray]) -> np.ndarray:
        rng = np.random.default_rng(generation)  # one noise draw a generation: common numbers
        return np.array([0.5 + _strength(c) / 1000 for c in candidates]) + rng.normal(0, 0.002)

    run = cma_search(SPACE, 30, evaluate, seed=2)
    assert _strength(run.mean) > 55, run.mean
    assert np.array_equal(cma_search(SPACE, 30, evaluate, seed=2).mean, run.mean)


BAD_BASIC = STRATEGIES["basic"].with_params(bid_offset=1.0)
"""basic bidding a trick over its estimate: it sets most of its contracts."""


def test_spsa_tunes_a_real_strategy_and_confirms_on_unseen_deals() -> None:
    """SPSA moves the bid offset of an overbidding basic down towards 0, and the confirmation
    plays the setting found against the start on deals of another seed: the same comparison
    as compare-strategies with that seed."""
    result = tune("standard", BAD_BASIC, ["bid_offset=-1..2:0.5"], "basic", 20, SEED,
                  method="spsa", budget=800, confirm=100, rate=0.05)
    assert len(result.table) == 20 and result.played == 800 and not result.interrupted
    assert abs(result.setting["bid_offset"]) < 0.5
    confirmation = result.confirmation
    assert confirmation is not None and confirmation.seed == confirmation_seed(SEED) != SEED
    again = compare_strategies("standard", result.tuned, BAD_BASIC, 100, confirmation_seed(SEED))
    assert np.array_equal(confirmation.share, again.share)
    facts = result.confirmed()
    assert facts["pairs"] == 100 and facts["low"] > 0.5


def test_grid_confirms_its_best_on_unseen_deals() -> None:
    result = tune("standard", BAD_BASIC, ["bid_offset=0..1:1"], "basic", 30, SEED, confirm=40)
    assert result.setting == {"bid_offset": 0.0}
    assert result.confirmation is not None and result.confirmation.seed == confirmation_seed(SEED)
    assert result.confirmation.pairs == 40 and result.confirmed()["low"] > 0.5


def test_search_interrupted_keeps_the_best_so_far(monkeypatch: pytest.MonkeyPatch,
                                                  tmp_path: Path) -> None:
    """Ctrl-C in SPSA's third step: the command prints θ after two steps as the setting found,
    saves it, confirms nothing and exits 130."""
    played = []
    real = tune_module.play_pairs

    def pairs(*args, **kwargs):
        played.append(args)
        return None if len(played) == 3 else real(*args, **kwargs)

    monkeypatch.setattr(tune_module, "play_pairs", pairs)
    saved = tmp_path / "best.toml"
    result = invoke(["tune", "basic", "--method", "spsa", "--param", "bid_offset=-1..1",
                     "--against", "random", "--games", "5", "--budget", "100", "--seed", "4",
                     "--save", str(saved), "--no-figure", "--format", "json"])
    assert result.exit_code == 130, result.output
    output = json.loads(result.stdout)
    assert len(output["rows"]) == 2 and output["metadata"]["interrupted"] is True
    assert output["metadata"]["confirmation"] == {}
    theta = float(f'{output["rows"][-1]["bid_offset"]:.4g}')  # as saved: 4 significant digits
    assert output["metadata"]["tuned"] == {"bid_offset": theta}
    assert load_strategy(saved).param("bid_offset") == theta


def test_ctrl_c_in_a_real_search(tmp_path: Path) -> None:
    """SIGINT to a real SPSA search once its second step is reported: exit 130 at once, the
    setting after the last finished step printed as the best so far and saved."""
    saved = tmp_path / "best.toml"
    command = [sys.executable, "-m", "spades_sim", "tune", "basic", "--method", "spsa", "--param",
               "bid_offset=-1..1", "--against", "random", "--games", "20", "--budget", "40000",
               "--seed", "3", "--save", str(saved), "--no-figure"]
    # A test run started in the background hands SIG_IGN down: the child gets the default back.
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert process.stderr is not None
    steps = []
    for line in process.stderr:
        steps.append(line)
        if line.startswith("spsa step 2/"):
            break
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert "Traceback" not in err
    lines = out.splitlines()
    assert lines, err
    done = int(lines[0].split(": ")[1].split()[0])
    assert done >= 2 and lines[0].endswith(f"{40 * done:,} games (interrupted)")
    assert lines[-1] == "not confirmed: interrupted (the setting above is the best found so far)"
    reported = [line for line in (steps + err.splitlines()) if line.startswith("spsa step")]
    theta = float(reported[done - 1].rsplit("bid_offset=", 1)[1])
    assert lines[2].split()[:3] == ["bid_offset", "0", f"{theta:g}"]
    assert load_strategy(saved).param("bid_offset") == theta


def test_save_round_trip(tmp_path: Path) -> None:
    """--save writes a strategy file that strategies show and --strategy read back, with the
    setting found and the confirmation in its description."""
    saved = tmp_path / "best.toml"
    result = invoke(["tune", "basic", "--method", "spsa", "--param", "bid_offset=-1..1",
                     "--param", "nil_threshold=0..2:0.25", "--against", "random", "--games",
                     "5", "--budget", "40", "--confirm", "10", "--seed", "6", "--save",
                     str(saved), "--no-figure", "--format", "json", "--quiet"])
    assert_ok(result)
    output = json.loads(result.stdout)
    tuned = output["metadata"]["tuned"]
    strategy = load_strategy(saved)
    assert strategy.name == "best" and strategy.bidding == "basic"
    assert {name: strategy.param(name) for name in tuned} == tuned
    assert "tuned by spsa" in strategy.description and "10 fresh deal sequences" in strategy.description
    shown = invoke(["strategies", "show", str(saved)])
    assert_ok(shown)
    assert shown.output.startswith("best: basic tuned by spsa")
    played = invoke(["simulate", "--strategy", str(saved), "--games", "2", "--seed", "1",
                     "--quiet"])
    assert_ok(played)
    assert output["metadata"]["confirmation"]["pairs"] == 10
    assert [row["parameter"] for row in output["parameters"]] == ["bid_offset", "nil_threshold"]


def test_spsa_command_text_and_progress(tmp_path: Path) -> None:
    figure = tmp_path / "path.png"
    result = invoke(["tune", "basic", "--method", "spsa", "--param", "bid_offset=-1..1",
                     "--against", "random", "--games", "5", "--budget", "20", "--confirm", "5",
                     "--seed", "7", "--figure", str(figure)])
    assert_ok(result)
    lines = result.stdout.splitlines()
    assert lines[0] == ("rules standard, basic tuned by spsa, seed 7: 2 steps of θ+cΔ against "
                        "θ−cΔ, 5 deal sequences x 2 a match, 20 games")
    assert lines[1].split() == ["parameter", "start", "tuned", "bounds"]
    assert lines[2].split()[:2] == ["bid_offset", "0"] and lines[2].endswith("[-1, 1]")
    assert lines[3].startswith(f"confirmed against basic on 5 fresh deal sequences x 2 (seed "
                               f"{confirmation_seed(7)}): win share ")
    steps = [line for line in result.stderr.splitlines() if line.startswith("spsa step")]
    assert [line.split(":")[0] for line in steps] == ["spsa step 1/2", "spsa step 2/2"]
    assert figure.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_cma_command() -> None:
    result = invoke(["tune", "basic", "--method", "cma", "--param", "bid_offset=-1..1",
                     "--against", "random", "--games", "3", "--budget", "24", "--confirm", "3",
                     "--seed", "7", "--no-figure", "--format", "json", "--quiet"])
    assert_ok(result)
    output = json.loads(result.stdout)
    assert len(output["rows"]) == 1 and output["metadata"]["method"] == "cma"
    assert output["metadata"]["played"] == 24 and output["metadata"]["confirmation"]["pairs"] == 3


def test_cma_without_its_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(__import__("sys").modules, "cma", None)  # import cma raises ImportError
    assert_one_line_error(invoke(["tune", "basic", "--method", "cma", "--param", "bid_offset=-1..1",
                                  "--quiet"]),
                          "method='cma': allowed once the cma library is installed "
                          "(pip install 'spades-sim[cma]')")


SEARCH = ["--method", "spsa", "--param", "bid_offset=-1..1"]


@pytest.mark.parametrize(("args", "message"), [
    (["--method", "anneal", "--param", "bid_offset=-1..1"],
     "method='anneal': allowed grid, spsa, cma"),
    (["--param", "bid_offset=-1..1"],
     "param='bid_offset=-1..1': allowed NAME=LO..HI:STEP or a list NAME=A,B,… with --method grid "
     "(the grid's spacing)"),
    ([*SEARCH, "--budget", "0"], "budget=0: allowed 1 to 1,000,000,000"),
    ([*SEARCH, "--budget", "100"],
     "budget=100: allowed at least 200 games with --method spsa and --games 100 (one step)"),
    (["--method", "cma", "--param", "bid_offset=-1..1", "--games", "10", "--budget", "50"],
     "budget=50: allowed at least 80 games with --method cma and --games 10 (one generation "
     "of 4)"),
    (["--param", "bid_offset=0..1:1", "--budget", "1000"],
     "budget=1000: allowed with --method spsa or cma (the grid plays --games deal sequences "
     "per setting)"),
    (["--param", "bid_offset=0..1:1", "--rate", "0.1"], "rate=0.1: allowed with --method spsa only"),
    ([*SEARCH, "--rate", "0"], "rate=0: allowed above 0, at most 1"),
    ([*SEARCH, "--confirm", "0"], "confirm=0: allowed 1 to 1,000,000,000"),
    ([*SEARCH, "--save", "best.txt"], "save='best.txt': allowed a strategy file ending in .toml"),
    (["--method", "spsa", "--param", "bid_offset=0..0"],
     "param bid_offset=0..0: allowed LO < HI with --method spsa"),
    (["--method", "spsa", "--param", "bid_offset=0.5..1"],
     "param bid_offset=0.5..1: allowed bounds around the start, basic's bid_offset=0"),
    (["--method", "spsa", "--param", "nil_bonus=-50..0"],
     "param nil_bonus: allowed a parameter basic's policies read: bag_bid, bag_near, "
     "bid_offset, blind_nil_deficit, blind_nil_near, cover_bonus, nil_threshold, "
     "solo_nil_threshold"),
])
def test_search_bad_input(args: list[str], message: str, tmp_path: Path) -> None:
    saved = tmp_path / "best.txt"
    result = invoke(["tune", "basic", "--quiet", *[str(saved) if a == "best.txt" else a
                                                   for a in args]])
    assert_one_line_error(result, message.replace("'best.txt'", repr(str(saved))))
    assert not saved.exists()


def test_at_most_ten_parameters() -> None:
    """expert reads twelve parameters (two of them for calibration runs only); a search of
    eleven of them is refused, the count in the message."""
    expert = [spec.name for spec in STRATEGIES["expert"].params_read()]
    assert len(expert) == 12
    ranges = [ParamRange(name, 0.0, 1.0, None) for name in expert[:11]]
    with pytest.raises(StrategyError) as raised:
        tune_module.check_ranges(ranges, "spsa", STRATEGIES["expert"])
    assert str(raised.value) == f"param: allowed at most 10 parameters ({len(ranges)} given)"


def test_save_never_overwrites_an_input(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    mine = tmp_path / "mine.toml"
    mine.write_text('name = "mine"\nbase = "basic"\n[params]\nbid_offset = 0.5\n')
    before = mine.read_bytes()
    for args in (["mine.toml", "--save", "mine.toml"],
                 ["basic", "--against", "mine.toml", "--save", "./mine.toml"]):
        result = invoke(["tune", *args, *SEARCH, "--quiet"])
        assert_one_line_error(result, f"save='{args[-1]}': allowed a path other than "
                              "strategy='mine.toml' (the same file: writing it would overwrite "
                              "that input)")
    assert mine.read_bytes() == before


def test_a_saved_name_that_could_not_be_read_back_is_replaced() -> None:
    """--save a.toml.toml names the strategy after the file's stem, a.toml, which a strategy
    file may not be named (it would read as a file): the file names it basic-tuned instead."""
    tuned = STRATEGIES["basic"].variant({"bid_offset": -0.5})
    for name in ("a.toml", "basic"):
        text = dumps_strategy(Strategy(name, tuned.bidding, tuned.play, tuned.params), "basic")
        assert loads_strategy(text).name == "basic-tuned"


def test_a_lopsided_setting_s_interval_stays_in_range() -> None:
    """bid_offset=1 against basic wins about 2% of pairs: its interval stays above 0 (the normal
    interval on the pair means went below it, to -0.74%)."""
    result = invoke(["tune", "basic", "--param", "bid_offset=-1..1:1", "--against", "basic",
                     "--games", "50", "--confirm", "20", "--seed", "1", "--quiet",
                     "--format", "json"])
    assert_ok(result)
    rows = json.loads(result.output)["rows"]
    assert len(rows) == 3 and min(row["win_share"] for row in rows) == 0.02
    assert all(0.0 <= row["low"] <= row["win_share"] <= row["high"] <= 1.0 for row in rows)

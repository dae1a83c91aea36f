"""The ``spades-sim`` command line through click's CliRunner.

Help on every command, the summary a run prints (checked against the library),
the files ``--out`` and ``--log`` write, and bad input: exit code 2, one
``Error: field=value: allowed ...`` line and never a traceback (docs/guarantees.md, "Bad input").
"""

from __future__ import annotations

import dataclasses
import json
import math
import time
import tomllib
from pathlib import Path

import click
import numba
import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner
from clirun import assert_ok, assert_one_line_error, invoke

from spades_sim import rules as rules_module
from spades_sim.cli import cli
from spades_sim.cli.options import compile_notice, output_options, progress, run_options
from spades_sim.kernel import drivers
from spades_sim.kernel.strategies import DEFAULT_STRATEGY
from spades_sim.rules import preset_names
from spades_sim.run.simulate import simulate_games, simulate_hands

HAND_COLUMNS = [
    "game", "hand", "dealer", "seat", "side", "bid", "blind", "tricks", "spades", "top_spade",
    "aces", "kings", "voids", "nil_risk", "contract", "made", "points", "bags", "penalty", "score",
    "bag_total", "nil_outcome",
]
GAME_COLUMNS = ["game", "first_dealer", "hands", "winner"] + [
    f"{name}_{side}"
    for name in ("score", "bag_total", "contracts", "made", "nil_bids", "nil_made", "blind_bids",
                 "blind_made", "bags", "penalty", "bid_error")
    for side in (0, 1)
] + ["seat_hands_0", "seat_hands_1"]


# --- help ---


def _command_paths(group: click.Group, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    paths = []
    for name, command in sorted(group.commands.items()):
        paths.append(prefix + (name,))
        if isinstance(command, click.Group):
            paths.extend(_command_paths(command, prefix + (name,)))
    return paths


COMMAND_PATHS = [()] + _command_paths(cli)


def test_command_tree_has_the_expected_commands() -> None:
    assert {"simulate", "score", "rules"} <= set(cli.commands)
    assert {("rules", "list"), ("rules", "show"), ("rules", "validate")} <= set(COMMAND_PATHS)


@pytest.mark.parametrize("flag", ["-h", "--help"])
@pytest.mark.parametrize("path", COMMAND_PATHS, ids=lambda p: " ".join(p) or "spades-sim")
def test_help_on_every_command(path: tuple[str, ...], flag: str) -> None:
    result = invoke([*path, flag])
    assert_ok(result)
    assert result.output.startswith("Usage: ")
    assert "-h, --help" in result.output


@pytest.mark.parametrize("path", COMMAND_PATHS, ids=lambda p: " ".join(p) or "spades-sim")
def test_help_of_every_command_has_an_example(path: tuple[str, ...]) -> None:
    result = invoke([*path, "--help"])
    assert_ok(result)
    assert "Example" in result.output, f"no example in the help of {' '.join(path) or 'the group'}"


def test_no_progress_bar_when_not_a_terminal() -> None:
    result = invoke(["simulate", "--hands", "100", "--seed", "1"])
    assert_ok(result)
    assert result.stderr == ""
    assert result.output == invoke(["simulate", "--hands", "100", "--seed", "1", "--quiet"]).output


def test_progress_is_silent_when_quiet_or_off_a_terminal(capsys: pytest.CaptureFixture) -> None:
    for quiet, terminal_only in ((True, True), (True, False), (False, True)):
        with progress(10, "hands", quiet, terminal_only=terminal_only) as advance:
            advance(10)
    assert capsys.readouterr().err == ""  # pytest's stderr is not a terminal
    with progress(10, "hands", False, terminal_only=False) as advance:
        advance(10)
    assert capsys.readouterr().err.startswith("hands")


class _Kernel:
    """A stand-in for a numba dispatcher whose load takes ``seconds``."""

    __name__ = "_stand_in"

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def compile(self, signature: tuple[object, ...]) -> None:
        time.sleep(self.seconds)


def test_a_kernel_compile_is_announced_and_a_quick_load_is_not(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    notices: list[str] = []
    monkeypatch.setattr(drivers, "COMPILE_NOTICE_AFTER", 0.05)
    drivers.set_compile_notice(notices.append)
    try:
        drivers.load_kernel(_Kernel(0.0), 1)  # loaded from the cache: nothing said
        assert notices == []
        drivers.load_kernel(_Kernel(1.0), 1)
    finally:
        drivers.set_compile_notice(None)
    assert notices == ["compiling the kernel (_stand_in) for this machine, once: tens of "
                       "seconds; later runs load it from the cache", "compiled _stand_in in 1 s"]
    drivers.load_kernel(_Kernel(0.2), 1)  # no notice set: nothing said
    assert notices[2:] == []
    compile_notice("compiling")
    assert capsys.readouterr().err == "\r\033[Kcompiling\n"  # clears a bar's line first


def _help_of(*bundles) -> tuple[list[str], str]:
    """The parameters and the help of a command made of option bundles alone."""
    def command(**_: object) -> None:
        """A command."""
    for bundle in reversed(bundles):
        command = bundle(command)
    command = click.command()(command)
    text = CliRunner().invoke(command, ["--help"]).output
    return [p.name for p in command.params], " ".join(text.split())  # wrapped as one line


def test_the_run_options_bundle_words_each_command_s_options() -> None:
    names, text = _help_of(run_options(seed="Seed, shared by every setting.",
                                       max_hands="counted as half a win"))
    assert names == ["seed", "threads", "max_hands", "quiet"]
    assert "Seed, shared by every setting. [default: random, printed]" in text
    assert "(counted as half a win). [default: 1000]" in text
    names, text = _help_of(run_options(seed="Seed of round 0.", seed_default=1, threads=False))
    assert names == ["seed", "quiet"]
    assert "Seed of round 0. [default: 1]" in text
    assert _help_of(run_options(seed=None, quiet=False))[0] == ["threads"]


def test_the_output_options_bundle_words_each_command_s_options() -> None:
    assert _help_of(output_options(out=None))[0] == ["fmt"]
    assert _help_of(output_options())[0] == ["fmt", "out"]
    names, text = _help_of(output_options("nil.png"))
    assert names == ["fmt", "out", "figure_path", "svg", "no_figure"]
    assert "(.png or .svg), e.g. nil.png. [default: no figure]" in text.replace("- ", "-")
    names, text = _help_of(output_options(out="Write the per-match table."))
    assert names == ["fmt", "out"] and "Write the per-match table." in text


def test_version() -> None:
    result = invoke(["--version"])
    assert_ok(result)
    assert result.output.startswith("spades-sim, version ")


# --- simulate: the summary ---


def _summary_lines(output: str) -> list[str]:
    """The table rows after the ``metric`` header, up to a ``wrote`` line."""
    lines = output.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("metric "))
    rows = []
    for line in lines[start + 1:]:
        if line.startswith("wrote "):
            break
        rows.append(line)
    return rows


def _row_of(output: str, metric: str) -> str:
    matches = [line for line in _summary_lines(output) if line.startswith(metric + "  ")]
    assert len(matches) == 1, (metric, output)
    return matches[0]


def _expected_cells(row) -> tuple[str, str]:
    """The value and n a summary row must print: shares (unit ``rate``) as percentages."""
    if math.isnan(row.value):
        value = "-"
    elif row.unit == "rate":
        value = f"{100 * row.value:.2f}%"
    else:
        value = f"{row.value:.3f}"
    return value, f"{row.n:,}"


def _check_summary(output: str, summary: pd.DataFrame) -> None:
    assert len(_summary_lines(output)) == len(summary)
    for row in summary.itertuples(index=False):
        line = _row_of(output, row.metric)
        value, n = _expected_cells(row)
        cells = line[len(row.metric):].split()
        assert cells[0] == value, (row.metric, line)
        assert cells[-1] == n, (row.metric, line)
        if not math.isnan(row.low):
            low_high = " ".join(cells[1:-1])
            assert low_high.startswith("[") and low_high.endswith("]"), line


def test_simulate_hands_prints_the_library_summary() -> None:
    result = invoke(["simulate", "--hands", "2000", "--seed", "5", "--quiet"])
    assert_ok(result)
    first = result.output.splitlines()[0]
    assert first == "rules standard, strategy expert, seed 5: 2,000 hands"
    run = simulate_hands("standard", "expert", 2000, seed=5)
    _check_summary(result.output, run.summary())
    for metric in ("contracts made", "nil bids per seat-hand", "bags per side-hand",
                   "points per side-hand"):
        assert _row_of(result.output, metric)
    # Same seed, same output.
    assert invoke(["simulate", "--hands", "2000", "--seed", "5", "--quiet"]).output == result.output


def test_simulate_games_prints_the_library_summary() -> None:
    result = invoke(["simulate", "--games", "50", "--seed", "3", "--quiet"])
    assert_ok(result)
    assert result.output.splitlines()[0] == "rules standard, strategy expert, seed 3: 50 games"
    run = simulate_games("standard", "expert", 50, seed=3)
    _check_summary(result.output, run.summary())
    assert _row_of(result.output, "side 0 (seats 0+2) win rate")
    assert _row_of(result.output, "hands per game")


def test_simulate_two_strategies_and_rule_override() -> None:
    result = invoke(["simulate", "--hands", "500", "--seed", "2", "--quiet", "--strategy", "basic",
                     "--strategy", "random", "--rule", "nil_value=50"])
    assert_ok(result)
    assert result.output.splitlines()[0] == (
        "rules standard nil_value=50, strategy basic vs random, seed 2: 500 hands")
    run = simulate_hands(rules_module.RuleSet(nil_value=50), ["basic", "random"], 500, seed=2)
    _check_summary(result.output, run.summary())


def test_simulate_without_seed_prints_a_seed_that_reproduces_the_run() -> None:
    result = invoke(["simulate", "--hands", "300", "--quiet"])
    assert_ok(result)
    first = result.output.splitlines()[0]
    seed = int(first.split("seed ")[1].split(":")[0])
    again = invoke(["simulate", "--hands", "300", "--quiet", "--seed", str(seed)])
    assert again.output == result.output


def test_simulate_rules_file_then_rule_override(tmp_path: Path) -> None:
    path = tmp_path / "house.toml"
    rules_module.save_rules(rules_module.RuleSet(name="house", target=300), path)
    result = invoke(["simulate", "--games", "20", "--seed", "1", "--quiet", "--rules", str(path),
                     "--rule", "bag_limit=5"])
    assert_ok(result)
    assert result.output.splitlines()[0] == "rules house bag_limit=5, strategy expert, seed 1: 20 games"
    run = simulate_games(rules_module.RuleSet(name="house", target=300, bag_limit=5), "expert", 20,
                         seed=1)
    _check_summary(result.output, run.summary())


# --- simulate: files ---


@pytest.mark.parametrize("suffix", [".parquet", ".csv"])
def test_out_hands(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"x{suffix}"
    result = invoke(["simulate", "--hands", "300", "--seed", "4", "--quiet", "--records",
                     str(path)])
    assert_ok(result)
    assert result.output.splitlines()[-1] == f"wrote {path}"
    frame = pd.read_parquet(path) if suffix == ".parquet" else pd.read_csv(path)
    assert list(frame.columns) == HAND_COLUMNS
    assert len(frame) == 4 * 300
    expected = simulate_hands("standard", DEFAULT_STRATEGY, 300, seed=4, keep_records=True).records()
    for column in HAND_COLUMNS:
        if column == "nil_outcome":
            assert list(frame[column].astype(str)) == list(expected[column].astype(str))
        elif column == "nil_risk":
            np.testing.assert_allclose(frame[column].to_numpy(), expected[column].to_numpy(), rtol=1e-6)
        else:
            np.testing.assert_array_equal(frame[column].to_numpy(), expected[column].to_numpy(),
                                          err_msg=column)
    assert sorted(frame["seat"].unique()) == [0, 1, 2, 3]
    assert (frame.groupby("game").size() == 4).all()


@pytest.mark.parametrize("suffix", [".parquet", ".csv"])
def test_out_games(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"g{suffix}"
    result = invoke(["simulate", "--games", "30", "--seed", "4", "--quiet", "--records",
                     str(path)])
    assert_ok(result)
    frame = pd.read_parquet(path) if suffix == ".parquet" else pd.read_csv(path)
    assert list(frame.columns) == GAME_COLUMNS
    assert len(frame) == 30
    expected = simulate_games("standard", DEFAULT_STRATEGY, 30, seed=4, keep_records=True).records()
    for column in GAME_COLUMNS:
        np.testing.assert_array_equal(frame[column].to_numpy(), expected[column].to_numpy(),
                                      err_msg=column)
    assert list(frame["game"]) == list(range(30))


def test_log_and_score_round_trip_hands(tmp_path: Path) -> None:
    path = tmp_path / "h.jsonl"
    result = invoke(["simulate", "--hands", "100", "--seed", "8", "--quiet", "--log", str(path),
                     "--log-deals", "10:30"])
    assert_ok(result)
    assert result.output.splitlines()[-1] == f"wrote {path}"
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 20
    assert all(json.loads(line)["rules"] == "standard" for line in lines)
    scored = invoke(["score", str(path)])
    assert_ok(scored)
    out = scored.output.splitlines()
    assert out[-1] == "20 hands scored, all moves legal, every recorded result agrees"
    assert len(out) == 1 + 20 + 1


def test_the_default_log_range_is_cut_to_the_run(tmp_path: Path) -> None:
    """--log without --log-deals logs the first 10 hands, or every hand of a shorter run: never
    a hand the run did not play."""
    path = tmp_path / "h.jsonl"
    assert_ok(invoke(["simulate", "--hands", "4", "--seed", "8", "--quiet", "--log", str(path)]))
    assert len(path.read_text(encoding="utf-8").splitlines()) == 4


def test_log_and_score_round_trip_games(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    result = invoke(["simulate", "--games", "10", "--seed", "8", "--quiet", "--log", str(path),
                     "--log-deals", "0:3"])
    assert_ok(result)
    logs = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert sorted({log["game"] for log in logs}) == [0, 1, 2]
    expected = simulate_games("standard", DEFAULT_STRATEGY, 3, seed=8, keep_records=True).records()
    assert len(logs) == int(expected["hands"].sum())
    scored = invoke(["score", str(path)])
    assert_ok(scored)
    out = scored.output.splitlines()
    assert out[-1] == f"{len(logs)} hands scored, all moves legal, every recorded result agrees"
    assert sum("wins" in line for line in out) == int((expected["winner"] >= 0).sum())


def test_score_with_other_rules_refuses_the_recorded_results(tmp_path: Path) -> None:
    path = tmp_path / "h.jsonl"
    assert_ok(invoke(["simulate", "--hands", "50", "--seed", "8", "--quiet", "--log", str(path),
                      "--log-deals", "0:50"]))
    # Scoring every contract as zero when set disagrees with the recorded points of a set hand.
    records = simulate_hands("standard", DEFAULT_STRATEGY, 50, seed=8, keep_records=True).records()
    assert (records["made"] == 0).any()
    result = invoke(["score", str(path), "--rules", "standard", "--rule", "failed_contract=zero"])
    assert_one_line_error(result, "line ", prefix_only=True)
    assert "result.points: log says" in result.output


# --- bad input: one line, exit code 2, no traceback ---

BAD_SIMULATE = [
    (["--rule", "nil_value=-1"], "nil_value=-1: allowed 1 to 10000"),
    (["--rule", "foo=1"], "unknown key 'foo': allowed a RuleSet field: " + ", ".join(sorted(
        f.name for f in dataclasses.fields(rules_module.RuleSet)))),
    (["--rule", "nil_value"], "rule='nil_value': allowed FIELD=VALUE on one line with no space "
                              "around the = sign, for example nil_value=50"),
    (["--rules", "nosuch"], f"rules='nosuch': allowed a preset ({', '.join(preset_names())}) or "
                            f"{rules_module.RULES_FILE_FORMS}"),
    (["--rules", "nosuch.toml"],
     "rules='nosuch.toml': allowed a readable TOML file (No such file or directory)"),
    (["--records", "x.txt"], "records='x.txt': allowed a file ending in .parquet, .csv or .json, "
                             "or - for stdout"),
    (["--strategy", "nosuch"],
     "strategy='nosuch': allowed random, basic, expert, conservative, aggressive, nil-happy, "
     "bag-averse, expert-v1, or a strategy file NAME.toml"),
    (["--strategy", "basic", "--strategy", "random", "--strategy", "basic"],
     "strategies=3: allowed one (all seats), two (seats take turns: one per side in partnership)"
     " or 4 (one per seat)"),
    (["--threads", "99"], f"threads=99: allowed 1 to {numba.config.NUMBA_NUM_THREADS} on this machine"),
    (["--threads", "0"], f"threads=0: allowed 1 to {numba.config.NUMBA_NUM_THREADS} on this machine"),
    (["--seed", "-1"], "seed=-1: allowed a whole number from 0 to 2**63-1"),
    (["--seed", str(2**63)], f"seed={2**63}: allowed a whole number from 0 to 2**63-1"),
    (["--hands", "5", "--games", "5"], "hands/games: allowed one of --hands N or --games N, not both"),
    (["--log", "x.jsonl", "--log-deals", "5:2"],
     "log-deals='5:2': allowed START:STOP with 0 <= START < STOP <= 100,000 (the run plays "
     "100,000 hands), at most 100,000 hands"),
    (["--log", "x.jsonl", "--log-deals", "a:b"], "log-deals='a:b': allowed START:STOP, e.g. 0:100"),
    (["--games", "5", "--max-hands", "0"], "max_hands=0: allowed 1 to 100,000"),
]


@pytest.mark.parametrize(("args", "message"), BAD_SIMULATE, ids=[" ".join(a) for a, _ in BAD_SIMULATE])
def test_simulate_bad_input(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str],
                           message: str) -> None:
    monkeypatch.chdir(tmp_path)
    result = invoke(["simulate", "--quiet", *args])
    assert_one_line_error(result, message)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("option", ["--hands", "--games"])
def test_simulate_zero_count_names_the_option(option: str) -> None:
    # The user typed --hands (or --games); the message must name that field and its value.
    result = invoke(["simulate", "--quiet", option, "0"])
    assert_one_line_error(result, f"{option[2:]}=0: allowed", prefix_only=True)


def test_score_broken_log(tmp_path: Path) -> None:
    path = tmp_path / "broken.jsonl"
    path.write_text('{"rules": "standard", "dealer": 0\n', encoding="utf-8")
    result = invoke(["score", str(path)])
    assert_one_line_error(result, "line 1: not JSON: ", prefix_only=True)


def test_score_illegal_move(tmp_path: Path) -> None:
    path = tmp_path / "h.jsonl"
    assert_ok(invoke(["simulate", "--hands", "5", "--seed", "1", "--quiet", "--log", str(path),
                      "--log-deals", "0:1"]))
    log = json.loads(path.read_text(encoding="utf-8"))
    # Swap the first two plays: the second seat plays before the leader.
    actions = log["actions"]
    actions[4], actions[5] = actions[5], actions[4]
    path.write_text(json.dumps(log) + "\n", encoding="utf-8")
    result = invoke(["score", str(path)])
    assert_one_line_error(result, "line 1: seat ", prefix_only=True)
    assert "out of turn" in result.output


def test_score_rule_needs_rules() -> None:
    result = invoke(["score", "whatever.jsonl", "--rule", "nil_value=50"])
    assert_one_line_error(result, "rule: allowed only together with --rules")


def test_score_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "nosuch.jsonl"
    result = invoke(["score", str(path)])
    assert_one_line_error(result, "", prefix_only=True)
    assert "nosuch.jsonl" in result.output


def test_out_into_missing_directory_is_refused_without_traceback(tmp_path: Path) -> None:
    path = tmp_path / "no" / "such" / "x.csv"
    result = invoke(["simulate", "--hands", "100", "--seed", "1", "--quiet", "--records",
                     str(path)])
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code == 2
    assert result.output.splitlines()[-1].startswith("Error: records=")


# --- rules commands ---


def test_rules_list() -> None:
    result = invoke(["rules", "list"])
    assert_ok(result)
    names = [line.split()[0] for line in result.output.splitlines()]
    assert names == rules_module.preset_names()
    assert "standard" in names
    standard = next(line for line in result.output.splitlines() if line.split()[0] == "standard")
    assert rules_module.load_preset("standard").description in standard


def test_rules_show_standard_loads_back_equal() -> None:
    result = invoke(["rules", "show", "standard"])
    assert_ok(result)
    assert rules_module.loads(result.output) == rules_module.load_preset("standard")


@pytest.mark.parametrize("name", preset_names())
def test_rules_show_prints_every_field_of_a_preset(name: str) -> None:
    """A preset file lists only what differs from standard; ``rules show`` prints every field
    (an optional one that is off left out: TOML has no null), and the text loads back equal."""
    result = invoke(["rules", "show", name])
    assert_ok(result)
    preset = rules_module.load_preset(name)
    shown = tomllib.loads(result.output)
    assert sorted(shown) == sorted(spec.name for spec in dataclasses.fields(preset)
                                   if getattr(preset, spec.name) is not None)
    assert rules_module.loads(result.output) == preset


def test_rules_show_file(tmp_path: Path) -> None:
    path = tmp_path / "house.toml"
    house = rules_module.RuleSet(name="house", nil_value=50, bag_limit=5, bag_penalty=50)
    rules_module.save_rules(house, path)
    result = invoke(["rules", "show", str(path)])
    assert_ok(result)
    assert rules_module.loads(result.output) == house


def test_rules_show_unknown() -> None:
    assert_one_line_error(invoke(["rules", "show", "nosuch"]),
                          f"rules='nosuch': allowed a preset ({', '.join(preset_names())}) or "
                          f"{rules_module.RULES_FILE_FORMS}")


def test_rules_validate_good_file(tmp_path: Path) -> None:
    path = tmp_path / "good.toml"
    path.write_text('name = "house"\ntarget = 300\n', encoding="utf-8")
    result = invoke(["rules", "validate", str(path)])
    assert_ok(result)
    assert result.output == f"{path}: valid (house)\n"


@pytest.mark.parametrize(("text", "message"), [
    ("target = 0\n", "target=0: allowed 1 to 1000000"),
    ('blind_nil = "sometimes"\n',
     "blind_nil='sometimes': allowed off, anytime, after_first_hand, when_behind"),
    ("nil = 50\n", "unknown key 'nil': allowed a RuleSet field: " + ", ".join(sorted(
        f.name for f in dataclasses.fields(rules_module.RuleSet)))),
])
def test_rules_validate_bad_file(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    assert_one_line_error(invoke(["rules", "validate", str(path)]), message)


def test_rules_validate_broken_toml(tmp_path: Path) -> None:
    path = tmp_path / "broken.toml"
    path.write_text("target = \n", encoding="utf-8")
    assert_one_line_error(invoke(["rules", "validate", str(path)]),
                          f"file={str(path)!r}: allowed valid TOML (", prefix_only=True)


def test_rules_validate_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "missing.toml"
    assert_one_line_error(invoke(["rules", "validate", str(path)]),
                          f"rules={str(path)!r}: allowed a readable TOML file (No such file or directory)")


def test_log_with_rule_overrides_saves_its_rules_and_scores(tmp_path: Path) -> None:
    """A log of modified rules names a rules file written beside it, so score replays it."""
    log = tmp_path / "jokers.jsonl"
    result = CliRunner().invoke(cli, [
        "simulate", "--hands", "30", "--seed", "4", "--quiet", "--rules", "jokers",
        "--rule", "first_lead=two_of_clubs", "--rule", "nil_tricks=count_for_partner",
        "--log", str(log), "--log-deals", "0:30"])
    assert result.exit_code == 0, result.output
    rules_file = tmp_path / "jokers.jsonl.rules.toml"
    assert f"wrote {log} (rules in {rules_file})" in result.output
    saved = rules_module.load_rules(rules_file)
    assert saved == rules_module.load_preset("jokers").replace(
        first_lead="two_of_clubs", nil_tricks="count_for_partner")
    scored = CliRunner().invoke(cli, ["score", str(log)])
    assert scored.exit_code == 0, scored.output
    assert scored.output.splitlines()[-1] == (
        "30 hands scored, all moves legal, every recorded result agrees")


# --- rules files are read only where the user pointed ---

TARGET_300 = 'name = "t300"\ntarget = 300\n'


def test_a_file_called_like_a_preset_does_not_replace_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("standard").write_text(TARGET_300, encoding="utf-8")
    ambiguous = ("rules='standard': allowed './standard' for the file in the working folder; "
                 "the preset only where no file has this name (it names both)")
    assert_one_line_error(invoke(["rules", "show", "standard"]), ambiguous)
    # Refused before anything runs or is written.
    assert_one_line_error(invoke(["simulate", "--quiet", "--hands", "5", "--rules", "standard",
                                  "--records", "x.csv"]), ambiguous)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["standard"]
    for given in ("./standard", str(tmp_path / "standard")):
        shown = invoke(["rules", "show", given])
        assert_ok(shown)
        assert rules_module.loads(shown.output).target == 300
    Path("standard").rename("standard.toml")
    shown = invoke(["rules", "show", "standard.toml"])
    assert_ok(shown)
    assert rules_module.loads(shown.output).name == "t300"
    shown = invoke(["rules", "show", "standard"])  # no file of that name now: the preset
    assert_ok(shown)
    assert rules_module.loads(shown.output) == rules_module.load_preset("standard")


def test_without_rules_the_default_preset_is_played_beside_a_file_of_its_name(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No --rules: the user typed no word that could mean the file, so the preset is played
    (as the same command with --rules standard in an empty folder)."""
    monkeypatch.chdir(tmp_path)
    Path("standard").write_text(TARGET_300, encoding="utf-8")
    beside = invoke(["simulate", "--quiet", "--hands", "20", "--seed", "3"])
    assert_ok(beside)
    Path("standard").unlink()
    alone = invoke(["simulate", "--quiet", "--hands", "20", "--seed", "3", "--rules", "standard"])
    assert beside.output == alone.output and beside.output.startswith("rules standard,")


def test_a_bare_word_that_is_no_preset_lists_the_presets(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("house").write_text(TARGET_300, encoding="utf-8")
    assert_one_line_error(invoke(["rules", "show", "house"]),
                          f"rules='house': allowed a preset ({', '.join(preset_names())}) or a "
                          "rules file given as ./NAME or NAME.toml")


def test_an_unknown_rules_key_is_named_without_its_value(tmp_path: Path) -> None:
    path = tmp_path / "leak.toml"
    path.write_text('api_token = "s3cr3t-value-123"\n', encoding="utf-8")
    for args in (["rules", "validate", str(path)], ["simulate", "--rules", str(path)]):
        result = invoke(args)
        assert_one_line_error(result, "unknown key 'api_token': allowed a RuleSet field: ",
                              prefix_only=True)
        assert "s3cr3t" not in result.output


def test_a_log_with_a_rules_file_scores_from_any_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder, elsewhere = tmp_path / "x", tmp_path / "y"
    folder.mkdir()
    elsewhere.mkdir()
    monkeypatch.chdir(folder)
    assert_ok(invoke(["simulate", "--hands", "5", "--seed", "2", "--quiet", "--rule",
                      "target=300", "--log", "h.jsonl", "--log-deals", "0:5"]))
    lines = [json.loads(line) for line in Path("h.jsonl").read_text(encoding="utf-8").splitlines()]
    assert {line["rules"] for line in lines} == {"h.jsonl.rules.toml"}  # from the log's folder
    monkeypatch.chdir(elsewhere)
    scored = invoke(["score", str(folder / "h.jsonl")])
    assert_ok(scored)
    assert scored.output.splitlines()[-1] == (
        "5 hands scored, all moves legal, every recorded result agrees")
    # A log naming a file that is no .toml rules file is refused unread, in one line.
    for rules in ("/etc/passwd", "h.jsonl"):
        for line in lines:
            line["rules"] = rules
        (folder / "bad.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines),
                                         encoding="utf-8")
        result = invoke(["score", str(folder / "bad.jsonl")])
        assert_one_line_error(result, f"line 1: rules={rules!r}: allowed a preset (",
                              prefix_only=True)
        assert "root:" not in result.output and "actions" not in result.output

"""Strategy files: a strategy saved as TOML plays, prints and is recorded as a named one does.
(Bad files: tests/test_bad_input.py's strategy-file table.)"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clirun import assert_ok, invoke

from spades_sim import simulate_games
from spades_sim.kernel.strategies import (
    STRATEGIES,
    dumps_strategy,
    get_strategy,
    load_strategy,
    loads_strategy,
)

NIL_LOVER = """name = "nil-lover"
description = "expert with a smaller risk premium on nil"
base = "expert"

[params]
nil_bonus = -10
blind_nil_margin = 0.1
"""


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "nil-lover.toml").write_text(NIL_LOVER, encoding="utf-8")
    return tmp_path


def test_a_file_is_its_base_with_its_parameters(folder: Path) -> None:
    strategy = get_strategy("nil-lover.toml")
    expert = STRATEGIES["expert"]
    assert (strategy.name, strategy.bidding, strategy.play) == ("nil-lover", "expert", "expert")
    assert strategy.params == {**expert.params, "nil_bonus": -10, "blind_nil_margin": 0.1}
    assert strategy.description == "expert with a smaller risk premium on nil"
    assert load_strategy(folder / "nil-lover.toml") == strategy


def test_a_file_plays_as_the_same_parameters_given_by_name(folder: Path) -> None:
    """Same seed, same records: the file's strategy is the base with the changes made."""
    by_file = simulate_games("standard", ["nil-lover.toml", "expert"], 40, seed=5,
                             keep_records=True).records()
    by_name = simulate_games("standard", [STRATEGIES["expert"].variant(
        {"nil_bonus": -10, "blind_nil_margin": 0.1}), "expert"], 40, seed=5,
        keep_records=True).records()
    assert by_file.equals(by_name)


def test_a_written_file_reads_back_the_same() -> None:
    tuned = STRATEGIES["expert"].variant({"nil_bonus": -12.5, "bag_weight": 1.5})
    again = loads_strategy(dumps_strategy(tuned, "expert"))
    assert (again.bidding, again.play, again.params) == (tuned.bidding, tuned.play, tuned.params)
    assert again.name == "expert[nil_bonus=-12.5,bag_weight=1.5]"
    # A name too long for a file (many changes) or a named strategy's becomes the base's, tuned.
    assert loads_strategy(dumps_strategy(STRATEGIES["expert"], "expert")).name == "expert-tuned"


def test_strategies_show_prints_a_file_as_a_named_one(folder: Path) -> None:
    """A file with nil-happy's parameters prints nil-happy's table, line for line."""
    params = "\n".join(f"{key} = {value!r}" for key, value in STRATEGIES["nil-happy"].params.items())
    Path("happy.toml").write_text(f'name = "happy"\nbase = "expert"\n[params]\n{params}\n',
                                  encoding="utf-8")
    by_file, by_name = invoke(["strategies", "show", "happy.toml"]), invoke(
        ["strategies", "show", "nil-happy"])
    assert_ok(by_file)
    assert_ok(by_name)
    assert by_file.output.splitlines()[1:] == by_name.output.splitlines()[1:]
    assert by_file.output.startswith("happy: expert with ")


def test_runs_and_exports_record_the_files_parameters_in_full(folder: Path) -> None:
    result = invoke(["compare-strategies", "nil-lover.toml", "expert", "--games", "20", "--seed",
                     "1", "--format", "json", "--no-figure"])
    assert_ok(result)
    recorded = json.loads(result.output)["metadata"]["strategies"][0]
    assert recorded == {"name": "nil-lover", "bidding": "expert", "play": "expert",
                        "params": get_strategy("nil-lover.toml").params,
                        "description": "expert with a smaller risk premium on nil"}
    # A saved run keeps them: it resumes with the file gone.
    assert_ok(invoke(["simulate", "--strategy", "nil-lover.toml", "--games", "300", "--seed", "1",
                      "--save", "run", "--quiet"]))
    Path("nil-lover.toml").unlink()
    manifest = json.loads(Path("run/manifest.json").read_text(encoding="utf-8"))
    assert manifest["strategies"][0]["params"]["nil_bonus"] == -10
    resumed = invoke(["simulate", "--resume", "run", "--quiet"])
    assert_ok(resumed)
    assert resumed.output.startswith("rules standard, strategy nil-lover, seed 1: 300 games")


def test_a_figure_goes_where_figure_says_and_nowhere_else(folder: Path) -> None:
    Path("sub").mkdir()
    Path("sub/mine.toml").write_text(NIL_LOVER, encoding="utf-8")
    before = sorted(folder.rglob("*"))
    args = ["compare-strategies", "sub/mine.toml", "expert", "--games", "5", "--seed", "1",
            "--quiet"]
    assert_ok(invoke(args))
    assert sorted(folder.rglob("*")) == before
    assert_ok(invoke([*args, "--figure", "sub/mine.png"]))
    assert sorted(folder.rglob("*")) == sorted([*before, folder / "sub" / "mine.png"])

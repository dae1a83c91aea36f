"""A user's own kernel policy: ``examples/basic_again.py`` (the built-in ``basic`` written again
as user code) plays exactly the built-in's records in the kernel's hand, sits at a table with the
built-in policies, is named in strategy files and from Python, and anything wrong with a policy is
refused in one line (docs/agents.md, "Your own policy in the kernel")."""

from __future__ import annotations

import dataclasses
import pickle
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from clirun import assert_ok, assert_one_line_error, invoke

from spades_sim.agents import AgentError, agent, load_agent, play_hands
from spades_sim.agents.kernel_agent import kernel_agent
from spades_sim.kernel import drivers, engine, policies, user_policies, warmup
from spades_sim.kernel.packing import PackedStrategies, pack_rules
from spades_sim.kernel.strategies import (
    Strategy,
    StrategyError,
    dumps_strategy,
    loads_strategy,
    pack_strategies,
    seat_strategies,
)
from spades_sim.rules import load_preset

ROOT = Path(__file__).resolve().parents[1]
SPEC = str(ROOT / "examples" / "basic_again.py") + ":BASIC_AGAIN"
MINE = Strategy("basic-again", SPEC, SPEC)


def _records(preset: str, seats: list[str | Strategy], hands: int, games: int):
    rules = load_preset(preset)
    packed_rules = pack_rules(rules)
    packed = pack_strategies(seat_strategies(seats, rules.seat_count), rules)
    out, trace = drivers.play_hands(rules=packed_rules, strategies=packed, seed=11, start=0,
                                    count=hands, trace=True)
    played = drivers.play_games(rules=packed_rules, strategies=packed, seed=11, start=0,
                                count=games, max_hands=100)
    return packed, (out, trace, played)


def _assert_same(first, second) -> None:
    for mine, theirs in zip(first, second, strict=True):
        for field, a, b in zip(mine._fields, mine, theirs, strict=True):
            assert np.array_equal(a, b), field


@pytest.mark.parametrize(("preset", "mine", "built_in"), [
    ("standard", [MINE], ["basic"]),
    # blind nil and its card exchange; every policy at one table, the user's at two seats
    ("app-settings", [MINE, "expert", "random", MINE], ["basic", "expert", "random", "basic"]),
    # the two-player draw, against the first release's expert
    ("head-to-head", [MINE, "expert-v1"], ["basic", "expert-v1"]),
])
def test_basic_written_again_plays_the_built_in_basics_records(preset, mine, built_in) -> None:
    packed, records = _records(preset, mine, 1500, 30)
    assert user_policies.carried(packed)[0].NAME == "basic-again"
    first_user = len(policies.TABLE)
    assert first_user in packed.bid_policy and first_user in packed.play_policy
    _, expected = _records(preset, built_in, 1500, 30)
    _assert_same(records, expected)


def test_a_user_policy_compiles_apart_and_leaves_the_built_in_kernel_cached() -> None:
    """The kernel compiled for a run with user policies is cached under a type of its own: the
    built-in type's entries stay, and a new process loads both without compiling."""
    rules = load_preset("standard")
    built_in = pack_strategies(seat_strategies(["basic"], 4), rules)
    users = pack_strategies(seat_strategies([MINE], 4), rules)
    assert type(built_in) is PackedStrategies and isinstance(users, PackedStrategies)
    assert type(users) is type(pack_strategies(seat_strategies([MINE, "expert"], 4), rules))
    _records("standard", [MINE], 10, 1)
    _records("standard", ["basic"], 10, 1)
    packed_rules = pack_rules(rules)
    arguments = [packed_rules, None, 1, 0, 0, 0, engine._new_scratch(packed_rules),
                 *engine._empty_hand_outputs(packed_rules, 0), False, engine.STEP_RECORDS, True]
    for packed in (built_in, users):
        signature = tuple(drivers.numba.typeof(argument) for argument in
                          arguments[:1] + [packed] + arguments[2:])
        assert warmup.in_cache(engine._hands_chunk, signature)
    script = textwrap.dedent(f"""
        from spades_sim.kernel import drivers, engine
        from spades_sim.kernel.packing import pack_rules
        from spades_sim.kernel.strategies import Strategy, pack_strategies, seat_strategies
        from spades_sim.rules import load_preset
        rules = load_preset("standard")
        for seats in (["basic"], [Strategy("mine", {SPEC!r}, {SPEC!r})]):
            drivers.play_hands(rules=pack_rules(rules), start=0, count=10, seed=1,
                               strategies=pack_strategies(seat_strategies(seats, 4), rules))
        print(len(engine._hands_chunk.stats.cache_hits), len(engine._hands_chunk.stats.cache_misses))
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env=warmup.process_env(), timeout=600, check=True)
    assert done.stdout.split() == ["2", "0"], done.stdout + done.stderr


def test_a_cache_index_naming_a_policy_not_loaded_is_read_and_never_compiled_for() -> None:
    stand_in = pickle.loads(pickle.dumps(user_policies.packed_class(
        (user_policies.load_policy(SPEC, StrategyError),))))
    assert getattr(stand_in, policies.USER_POLICIES)
    unknown = user_policies.__getattr__("PackedStrategies_0123456789abcdef")
    assert getattr(unknown, policies.USER_POLICIES) is None
    assert issubclass(unknown, PackedStrategies)


def test_a_strategy_file_names_the_policy_and_its_parameters() -> None:
    mine = loads_strategy(f'name = "mine"\nbidding = "{SPEC}"\nplay = "{SPEC}"\n'
                          "[params]\nbid_offset = 0.5\n")
    assert (mine.bidding, mine.play, mine.param("bid_offset")) == (SPEC, SPEC, 0.5)
    assert [spec.name for spec in mine.params_read()][:2] == ["bid_offset", "nil_threshold"]
    with pytest.raises(StrategyError, match="allowed only with"):
        MINE.with_params(set_slack=2)
    mixed = loads_strategy(f'name = "mixed"\nbase = "expert"\nplay = "{SPEC}"\n')
    assert (mixed.bidding, mixed.play) == ("expert", SPEC)
    again = loads_strategy(dumps_strategy(mine, None))  # as tune --save writes a tuned one
    assert (again.bidding, again.play, again.params) == (SPEC, SPEC, mine.params)


def test_the_command_line_plays_a_strategy_file_with_a_user_policy(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    result = invoke(["compare-strategies", "examples/basic-again.toml", "basic", "--games", "6",
                     "--seed", "3"])
    assert_ok(result)
    assert "basic-again (A) vs basic (B)" in result.output
    # the same moves: every pair split evenly, A − B exactly 0
    assert "every pair split evenly" in result.output


def test_a_user_policy_seated_at_the_python_table_makes_basics_moves(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """At the Python table (one decision at a time, every move checked by the referee) the
    policy plays as in the kernel: the same moves as the built-in basic agent."""
    monkeypatch.chdir(ROOT)
    mine = play_hands("app-settings", [kernel_agent("examples/basic-again.toml"),
                                       agent("expert")] * 2, 40, seed=5)
    theirs = play_hands("app-settings", [agent("basic"), agent("expert")] * 2, 40, seed=5)
    assert mine.fault is None and len(mine.logs) == 40
    assert [dataclasses.replace(log, strategies=None) for log in mine.logs] == [
        dataclasses.replace(log, strategies=None) for log in theirs.logs]


def _policy_file(folder: Path, body: str) -> Path:
    path = folder / "mine.py"
    path.write_text("from numba import njit\nimport numpy as np\n" + textwrap.dedent(body))
    return path


_DECISIONS = "".join(f"""
@njit
def {name}(rules, strat, obs, rng):
    return 0, rng
""" for name in policies.DECISIONS)

REFUSED = [
    ("nothing.py:P", None, "allowed path/to/file.py:NAME or package.module:NAME, the file a "
                           "readable .py file"),
    ("mine.py:P", "X = 1\n", "allowed a name that {folder}/mine.py defines (X, njit)"),
    ("mine.py:P", "P = 3\n", "allowed a policy: numba-jitted functions blind, bid, keep, "
                             "pass_card, prepare, play, blind_bid, each (rules, strat, obs, rng) "
                             "-> (move, rng); int lacks blind, bid, keep, pass_card, prepare, "
                             "play, blind_bid"),
    ("mine.py:P", _DECISIONS.replace("@njit\ndef play", "def play")
     + "import sys\nP = sys.modules[__name__]\n", "play is not numba-jitted (@njit)"),
    ("mine.py:P", _DECISIONS.replace("play(rules, strat, obs, rng)", "play(rules, obs, rng)")
     + "import sys\nP = sys.modules[__name__]\n", "play does not take (rules, strat, obs, rng)"),
    ("mine.py:P", "raise ValueError('no')\n", "allowed a file that loads (ValueError: no)"),
]


@pytest.mark.parametrize(("spec", "body", "allowed"), REFUSED)
def test_a_bad_policy_is_refused_in_one_line(tmp_path: Path, spec, body, allowed) -> None:
    if body is not None:
        _policy_file(tmp_path, body)
    named = str(tmp_path / spec)
    strategy = tmp_path / "mine.toml"
    strategy.write_text(f'name = "mine"\nbidding = "{named}"\nplay = "basic"\n')
    result = invoke(["simulate", "--strategy", str(strategy), "--hands", "10"])
    if allowed.startswith("allowed"):
        assert_one_line_error(result, f"bidding={named!r}: " + allowed.format(folder=tmp_path))
    else:  # the end of the refusal of what is not a policy
        assert_one_line_error(result, f"bidding={named!r}: allowed a policy: numba-jitted "
                                      "functions", prefix_only=True)
        assert result.output.rstrip().endswith(allowed)


def test_a_policy_that_does_not_compile_in_the_hand_is_refused_in_one_line(tmp_path) -> None:
    _policy_file(tmp_path, _DECISIONS.replace("def bid(rules, strat, obs, rng):\n    return 0, rng",
                                              "def bid(rules, strat, obs, rng):\n"
                                              "    return obs.no_such_field, rng")
                 + "import sys\nP = sys.modules[__name__]\n")
    named = f"{tmp_path}/mine.py:P"
    strategy = tmp_path / "mine.toml"
    strategy.write_text(f'name = "mine"\nbidding = "{named}"\nplay = "{named}"\n')
    result = invoke(["simulate", "--strategy", str(strategy), "--hands", "10"])
    assert_one_line_error(result, f"policy={named!r}: allowed a policy whose functions compile "
                                  "in the kernel's hand (TypingError: ", prefix_only=True)
    assert "Unknown attribute 'no_such_field'" in result.output
    assert result.output.rstrip().endswith(" at mine.py line 10)")


def test_a_kernel_policy_named_as_a_bot_says_where_it_goes() -> None:
    with pytest.raises(AgentError, match="it is a kernel policy: name it as the bidding and play "
                                         "of a strategy file"):
        load_agent(SPEC)

"""A first run's compile on two cores (spades_sim.kernel.warmup): the callees it compiles ahead
are the very ones the hand calls, and the split's bookkeeping (once a process, the helper
stopped whatever happens)."""

import json
import os
import subprocess
import sys

import conftest
import pytest

from spades_sim.kernel import decide, warmup
from spades_sim.run.blocks import prepare_table

_TABLE = prepare_table("standard", "random")
PACKED = (_TABLE.packed_rules, _TABLE.packed_strategies)


def _first_run_signatures(tmp_path) -> dict:
    """What a first run's hand kernels asked the callees compiled ahead for: from this test
    run's own warm-up when it compiled the hand kernel (conftest), else from a first run made
    here, in a fresh cache (the callees compiled ahead in this one process, then a hand run of
    every strategy)."""
    path = os.environ.get(conftest.FIRST_RUN_SIGNATURES)
    if path and os.path.exists(path):
        with open(path) as file:
            record = json.load(file)
        # A warm-up that found the hand kernel cached after all asked the callees for nothing.
        if record["hand kernel compiled"]:
            return record["callees"]
    code = ("from spades_sim import simulate_hands\n"
            "from spades_sim.kernel import warmup\n"
            "from spades_sim.run.blocks import prepare_table\n"
            "table = prepare_table('standard', 'expert')\n"
            f"for group in {(warmup.RUN_GROUP, warmup.HELPER_GROUP)!r}:\n"
            "    warmup.compile_group(group, table.packed_rules, table.packed_strategies)\n"
            "simulate_hands('standard', ['expert', 'expert-v1', 'basic', 'random'], 2, seed=1)\n"
            + conftest.CALLEE_SIGNATURES)
    env = {key: value for key, value in os.environ.items()
           if key != conftest.FIRST_RUN_SIGNATURES}
    env["NUMBA_CACHE_DIR"] = str(tmp_path)
    result = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                            text=True, check=True)
    record = json.loads(result.stdout.splitlines()[-1])
    assert record["hand kernel compiled"]
    return record["callees"]


def test_the_callees_compile_for_the_types_the_hand_passes_them(tmp_path):
    # A callee the hand kernels asked for other types than those it was compiled for ahead
    # would be compiled twice: the split would cost more than it saves.
    found = _first_run_signatures(tmp_path)
    ahead = {d.__name__: str(signature)
             for group in warmup.callee_groups(*PACKED).values() for d, signature in group}
    # The card players are compiled ahead through decide._card_players, which calls them as
    # the hand does: each is then compiled for one signature only, asked by both. The probe
    # itself is never called by the hand (compiled ahead, here or in the helper process).
    through = {d.__name__: "through _card_players" for d in warmup.CARD_PLAYERS}
    probe = decide._card_players.__name__
    assert {name: entry["ahead"] for name, entry in found.items()} == ahead | through
    assert {name: entry["asked"] for name, entry in found.items()
            if name in ahead and name != probe} \
        == {name: [signature] for name, signature in ahead.items() if name != probe}
    assert found[probe]["asked"] in ([], [ahead[probe]])
    assert all(len(found[name]["asked"]) == 1 and found[name]["compiled"] == 1
               for name in through)
    assert all(entry["cached"] for entry in found.values())


def test_a_signature_never_compiled_is_not_in_the_cache():
    group = warmup.callee_groups(*PACKED)["bidding"]
    dispatcher, signature = group[0]
    assert not warmup.in_cache(dispatcher, signature[:2])


class _Helper:
    """A stand-in for the helper process: ``kinds`` the chunk kernels it was asked for."""

    def __init__(self, kinds: tuple[str, ...], finishes: bool = True) -> None:
        self.kinds, self.finishes, self.killed, self.waited = kinds, finishes, False, 0

    def wait(self, timeout: float | None = None) -> int:
        self.waited += 1
        if not self.finishes and not self.killed:
            raise subprocess.TimeoutExpired("helper", timeout or 0)
        return 0

    def poll(self) -> int | None:
        return 0 if self.finishes or self.killed else None

    def kill(self) -> None:
        self.killed = True


@pytest.fixture
def first_run(monkeypatch):
    """Nothing cached; compile_group records the groups it is asked for; the helper is a
    stand-in (``started`` lists the helpers made; ``finishing[0]`` False: they never end)."""
    compiled: list[str] = []
    started: list[_Helper] = []
    finishing = [True]
    monkeypatch.setattr(warmup, "_considered", [False])
    monkeypatch.setattr(warmup, "_expected", [frozenset()])
    monkeypatch.setattr(warmup, "_helper", [None, ()])
    monkeypatch.setattr(warmup, "_POLL", 0.01)
    monkeypatch.setattr(warmup, "HELPER_TIMEOUT", 0.1)
    monkeypatch.setattr(warmup, "in_cache", lambda dispatcher, signature: False)
    monkeypatch.setattr(warmup, "compile_group", lambda name, rules, strategies:
                        compiled.append(name))

    def start(rules, strategies, kinds) -> _Helper:
        started.append(_Helper(kinds, finishing[0]))
        return started[-1]

    monkeypatch.setattr(warmup, "_start_helper", start)
    return compiled, started, finishing


def test_the_helper_compiles_its_group_while_this_process_compiles_the_other(first_run):
    compiled, started, _ = first_run
    warmup.compile_callees(*PACKED, True, "hands")
    assert compiled == ["bidding"]
    assert len(started) == 1 and started[0].kinds == () and started[0].waited == 1
    warmup.compile_callees(*PACKED, True, "games")  # once a process
    assert compiled == ["bidding"] and len(started) == 1


def test_the_helper_goes_on_to_the_kernels_the_run_expects(first_run):
    _, started, finishing = first_run
    finishing[0] = False
    with warmup.expecting("games", "hands"):
        warmup.compile_callees(*PACKED, True, "games")
        helper = started[0]
        assert helper.kinds == ("hands",) and not helper.killed  # still compiling the hands'
        warmup.compile_callees(*PACKED, True, "hands")  # waits for it, up to HELPER_TIMEOUT
        assert helper.waited >= 1 and helper.killed  # past its time: stopped
    assert warmup._expected == [frozenset()]


def test_a_helper_still_running_when_the_run_ends_is_stopped(first_run):
    _, started, finishing = first_run
    finishing[0] = False
    with warmup.expecting("games", "hands"):
        warmup.compile_callees(*PACKED, True, "games")
        assert not started[0].killed
    assert started[0].killed


def test_on_one_thread_this_process_compiles_both_groups(first_run):
    compiled, started, _ = first_run
    with warmup.expecting("games", "hands"):
        warmup.compile_callees(*PACKED, False, "games")
    assert compiled == ["bidding", "play"] and started == []


def test_a_helper_that_cannot_start_leaves_both_groups_here(first_run, monkeypatch):
    compiled, _, _ = first_run
    monkeypatch.setattr(warmup, "_start_helper", lambda rules, strategies, kinds: None)
    warmup.compile_callees(*PACKED, True, "hands")
    assert compiled == ["bidding", "play"]


def test_ctrl_c_while_compiling_stops_the_helper(first_run, monkeypatch):
    _, started, finishing = first_run
    finishing[0] = False

    def interrupted(name: str, rules, strategies) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(warmup, "compile_group", interrupted)
    with pytest.raises(KeyboardInterrupt):
        warmup.compile_callees(*PACKED, True, "hands")
    assert started[0].killed


def test_nothing_is_compiled_ahead_when_the_callees_are_cached(first_run, monkeypatch):
    compiled, started, _ = first_run
    monkeypatch.setattr(warmup, "in_cache", lambda dispatcher, signature: True)
    warmup.compile_callees(*PACKED, True, "hands")
    assert compiled == [] and started == []


def test_a_numba_without_the_cache_index_compiles_nothing_ahead():
    assert warmup.in_cache(object(), ()) is True


def test_only_the_hand_and_game_kernels_can_be_expected():
    with pytest.raises(ValueError, match="kinds: \\['deals'\\]: allowed hands, games"), \
            warmup.expecting("hands", "deals"):
        pass


def test_the_helper_imports_the_runs_own_kernel_from_any_working_folder(tmp_path, monkeypatch):
    # A folder holding another spades_sim (a checkout beside an install): the helper must not
    # import it (it would compile into another cache folder, and the run wait for nothing).
    decoy = tmp_path / "spades_sim" / "kernel"
    decoy.mkdir(parents=True)
    for folder in (decoy.parent, decoy):
        (folder / "__init__.py").write_text("")
    marker = tmp_path / "decoy-ran"
    (decoy / "warmup_helper.py").write_text(f"open({str(marker)!r}, 'w').close()\n")
    monkeypatch.chdir(tmp_path)
    helper = warmup.start_compiling((), *PACKED)
    assert helper is not None and helper.wait(60) == 0
    assert not marker.exists()


def test_a_helper_of_another_kernel_compiles_nothing():
    done = subprocess.run([sys.executable, "-P", "-m", "spades_sim.kernel.warmup_helper",
                           "/another/kernel", "play"], stdin=subprocess.DEVNULL, timeout=60)
    assert done.returncode == 2

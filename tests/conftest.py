"""Shared test set-up: this folder on the import path (for the helper modules ``stacking``,
``refereeplay`` and ``clirun``), the kernel compiled on every core before the tests start, and
the fixtures several test files use."""

import os
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

KERNEL_WARM_UPS = {
    "hands and what-if": "from spades_sim import simulate_hands, trace_hands, what_if\n"
                         "simulate_hands('standard', 'expert', 2, seed=1)\n"
                         "trace_hands('standard', 'expert', [0], 1)\n"
                         "what_if('standard', 'AS KS 7S 3S AH KH 4H 2H QD 6D 3D 8C 5C', "
                         "strategies='random', deals=2, seed=1)\n",
    "games": "from spades_sim import simulate_games, trace_games\n"
             "simulate_games('standard', 'random', 1, seed=1)\n"
             "trace_games('standard', 'random', [0], 1, max_hands=2)\n",
    "double-dummy": "from spades_sim.kernel.double_dummy import DoubleDummy, Position, solve_deals\n"
                    "hands = (1 << 51 | 1 << 26, 1 << 50 | 1 << 27, 1 << 49 | 1 << 28, "
                    "1 << 48 | 1 << 29)\n"
                    "solver = DoubleDummy('standard')\n"
                    "position = Position(hands, 0, taken=(3, 3, 3, 2))\n"
                    "solver.tricks(position, 0), solver.nil_set(position, 0)\n"
                    "solver.score(position, (0, 3, 3, 2))\n"  # a nil: the score search
                    "solve_deals('standard', [[(1 << 13) - 1 << 13 * k for k in range(4)]], [0], "
                    "0)\n",
}
"""Tiny runs that compile every kernel entry point. Only the first packs the expert (whose bid
tables compile a kernel of their own); it also writes what its hand kernels compiled the hand's
callees for (see ``FIRST_RUN_SIGNATURES``)."""

FIRST_RUN_SIGNATURES = "SPADES_SIM_TEST_FIRST_RUN_SIGNATURES"
"""The environment variable naming the file where the warm-up (a first run, when the hand kernel
was not cached) writes, for every callee ``spades_sim.kernel.warmup`` compiles ahead, the argument
types it compiled it for and those the hand kernels then asked for, and whether it compiled the
hand kernel itself (``tests/test_warmup.py`` reads it)."""

CALLEE_SIGNATURES = f"path = {FIRST_RUN_SIGNATURES!r}" + """
import json, os
from spades_sim.kernel import engine, warmup
from spades_sim.run.blocks import prepare_table
table = prepare_table("standard", "random")
groups = warmup.callee_groups(table.packed_rules, table.packed_strategies)
found = {d.__name__: {"ahead": str(sig), "cached": warmup.in_cache(d, sig),
                      "asked": [str(s) for s in d.signatures]}
         for group in groups.values() for d, sig in group}
found.update({d.__name__: {"ahead": "through _card_players", "cached": all(
    warmup.in_cache(d, s) for s in d.signatures), "asked": [str(s) for s in d.signatures],
    "compiled": warmup.cached_count(d)} for d in warmup.CARD_PLAYERS})
# numba counts a signature it could not load from the cache as a miss: then it compiled it
record = {"hand kernel compiled": sum(engine._hands_chunk.stats.cache_misses.values()) > 0,
          "callees": found}
path = os.environ.get(path)
if path:
    with open(path, "w") as file:
        json.dump(record, file)
else:
    print(json.dumps(record))
"""
"""Reports the callees' signatures after a run's hand kernels loaded (as JSON: to the file
``FIRST_RUN_SIGNATURES`` names, else on standard output), and whether this process compiled the
hand kernel: only then did it ask the callees for their types (a hand kernel loaded from the
cache asks nothing)."""

WARM_UP_LANES = (("callees", "hands and what-if"), ("double-dummy", "games"))
"""The warm-ups in two lanes, one a core, each lane's one after another. ``callees`` compiles
the hand's largest callees (both groups of ``spades_sim.kernel.warmup``), which every hand
kernel calls, so that the hand kernels after it each compile only their own bodies; the
double-dummy search, which calls none of them, takes about as long, so the game kernel
after it finds them done. CPU seconds from a cold cache: callees 25, hands and what-if 21,
double-dummy 27, games 18."""

KERNEL_ENTRY_POINTS = (("engine", "_hands_chunk"), ("engine", "_games_chunk"),
                       ("engine", "_what_if_chunk"), ("expert_bid", "_fill_choices"),
                       ("dd_search", "_reach_root"), ("dd_search", "_solve_tricks"),
                       ("dd_search", "_solve_score"), ("dd_search", "_solve_many"),
                       ("dd_search", "_score_values"), ("sums", "_metric_sums"))
"""The kernel's jitted functions that Python calls (module, name): the ones worth warming."""


def _cached_entry_points() -> set[tuple[str, str]]:
    """The entry points numba's cache holds for the kernel's sources as they are now.

    numba's own index of each, read as numba reads it before it compiles (an entry written for
    other sources is not there), in the folder ``spades_sim.kernel`` points numba at: file times
    alone can say otherwise (a checkout or a cache restored with other times)."""
    from importlib import import_module

    from spades_sim.kernel import warmup

    return {(module, name) for module, name in KERNEL_ENTRY_POINTS
            if warmup.cached_count(getattr(import_module(f"spades_sim.kernel.{module}"), name)) > 0}


def _kernel_is_cached() -> bool:
    """Whether numba's cache holds every entry point, written after its source last changed."""
    return _cached_entry_points() == set(KERNEL_ENTRY_POINTS)


def _warm_the_kernel() -> None:
    """Compile the kernel's entry points side by side, in two lanes of processes (``WARM_UP_LANES``),
    into numba's cache.

    From a cold cache the compile takes minutes and, left to the tests, happens in one process
    on one core (or, under pytest-xdist, the same entry point in every worker at once). The
    processes share the test run's environment, so they fill the cache the tests then load.
    A warm-up that fails is not an error here: the tests compile what is missing themselves
    and report any fault of the kernel."""
    from spades_sim.kernel import warmup
    from spades_sim.run.blocks import prepare_table

    table = prepare_table("standard", "random")
    # Set before the test workers start, so they inherit it too; only when the hand kernel is
    # not cached yet, so that the warm-up is the first run test_warmup needs (else it makes one).
    if ("engine", "_hands_chunk") not in _cached_entry_points():
        os.environ[FIRST_RUN_SIGNATURES] = os.path.join(tempfile.mkdtemp(), "signatures.json")
    # The processes import the same spades_sim as this one (a worktree's, not an install's).
    env = warmup.process_env()

    def start(step: str) -> subprocess.Popen | None:
        if step == "callees":
            return warmup.start_compiling((warmup.RUN_GROUP, warmup.HELPER_GROUP),
                                          table.packed_rules, table.packed_strategies)
        code = KERNEL_WARM_UPS[step] + (CALLEE_SIGNATURES if step == "hands and what-if" else "")
        return subprocess.Popen([sys.executable, "-c", code], env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    running: list[subprocess.Popen] = []

    def lane(steps: tuple[str, ...]) -> None:
        for step in steps:
            process = start(step)
            if process is not None:
                running.append(process)
                process.wait()

    lanes = [threading.Thread(target=lane, args=(steps,), daemon=True) for steps in WARM_UP_LANES]
    try:
        for thread in lanes:
            thread.start()
        for thread in lanes:
            thread.join()
    finally:
        for process in running:
            if process.poll() is None:
                process.kill()
                process.wait()


def _warm_up_wanted(config: pytest.Config) -> bool:
    return not (config.option.help or config.option.collectonly) and not _kernel_is_cached()


def pytest_configure(config: pytest.Config) -> None:
    # pytest-xdist's controller collects nothing and starts its workers after this returns: warm
    # up here, before any worker compiles an entry point that another compiles at the same time.
    if (not hasattr(config, "workerinput") and getattr(config.option, "numprocesses", None)
            and _warm_up_wanted(config)):
        _warm_the_kernel()


def pytest_collection_finish(session: pytest.Session) -> None:
    # In a run in one process, once the tests are known: only if one of them uses the kernel
    # (collecting it imported the kernel), so that the referee's tests alone never wait for it.
    config = session.config
    if (not hasattr(config, "workerinput") and not getattr(config.option, "numprocesses", None)
            and "spades_sim.kernel" in sys.modules and _warm_up_wanted(config)):
        _warm_the_kernel()


@pytest.fixture
def small_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Saved runs of 1,000-hand and 50-game blocks, so a test saves many blocks cheaply."""
    from spades_sim.run import simulate

    monkeypatch.setattr(simulate, "BLOCK_HANDS", 1000)
    monkeypatch.setattr(simulate, "BLOCK_GAMES", 50)

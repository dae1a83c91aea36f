"""Benchmark spades-sim: hands/s, games/s and what-if completions/s per core and with all
threads, Dask scaling and overhead, memory flatness, warm start.

A benchmark, never a test: it measures and prints. Each figure is the median of
``--repeats`` timed runs after a warm-up (numba compiles or loads its cache
first), because the 2-core development machine is noisy.

    python scripts/bench.py            # the full set, about six minutes (10^8 hands for memory)
    python scripts/bench.py --quick    # smaller counts
    python scripts/bench.py --strategies-only   # hands/s and games/s per strategy only
    python scripts/bench.py --hands random,expert   # full hands/s of these, one thread, only
    python scripts/bench.py --breakdown-only    # ns per hand of each step of the kernel only
    python scripts/bench.py --presets-only      # cards played/s under every preset only
    python scripts/bench.py --dd [--dd-deals 1000]   # double-dummy solves only
    python scripts/bench.py --cold     # first runs with an empty kernel cache only
    python scripts/bench.py --openspiel   # spades-sim's random against OpenSpiel's, one core
                                          # (needs pyspiel: pip install ".[openspiel]")
    python scripts/bench.py --plain    # spades-sim's random against a plain kernel, one core
    python scripts/bench.py --table    # hands/s of Python agents at the Python table, one core,
                                       # and the time of one expert decision from Python
    python scripts/bench.py --user-policy [STRATEGY]   # a user's kernel policy against basic,
                                       # one core, in turn (default examples/basic-again.toml)
"""

from __future__ import annotations

import argparse
import itertools
import os
import statistics
import subprocess
import sys
import tempfile
import time
from importlib.metadata import version

import numba
import numpy as np
import plain_kernel  # beside this script (python scripts/bench.py puts its folder on the path)

from spades_sim.analysis.whatif import what_if
from spades_sim.kernel import drivers
from spades_sim.kernel.double_dummy import DoubleDummy, Position, solve_deals
from spades_sim.kernel.packing import pack_rules
from spades_sim.kernel.strategies import get_strategy, pack_strategies
from spades_sim.rules import load_preset, preset_names
from spades_sim.run.blocks import new_totals
from spades_sim.run.simulate import BLOCK_HANDS, simulate_games, simulate_hands

STRATEGIES = ("random", "basic", "expert-v1", "expert")
"""The strategies timed one by one (the default, ``expert``, last)."""
STAGES = ("deal", "bidding", "play", "scoring", "records")
"""The steps of ``drivers.play_hands(through=...)``, in order ("bidding" includes the
blind-nil exchange; "records" writes the hand's records, without the hand features, as a run
that keeps only its totals does)."""
PARTS = (*STAGES, "totals")
"""The breakdown's parts: the kernel's steps, then the block's sums (``Totals.add``)."""


def _breakdown(strategy: str, hands: int, repeats: int) -> list[float]:
    """Nanoseconds per hand that each part adds, on one thread: the real pipeline run through
    each kernel step in turn (``play_hands(through=...)``), differences of medians; then the
    totals of a block of the run's size (``Totals.add``, what ``simulate`` does with it)."""
    standard = load_preset("standard")
    packed = pack_rules(standard)
    strat = pack_strategies([get_strategy(strategy)] * packed.seat_count, standard)
    saved = drivers.threads()
    drivers.set_threads(1)
    try:
        totals = []
        for step in STAGES:
            def run(count, step=step):
                drivers.play_hands(rules=packed, strategies=strat, seed=1, start=0, count=count,
                                   through=step, features=False)
            run(100)
            times = []
            for _ in range(repeats):
                start = time.perf_counter()
                run(hands)
                times.append(time.perf_counter() - start)
            totals.append(statistics.median(times) / hands * 1e9)
        records = drivers.play_hands(rules=packed, strategies=strat, seed=1, start=0,
                                     count=BLOCK_HANDS, features=False)[0]
        times = []
        for _ in range(repeats):
            start = time.perf_counter()
            new_totals("hands", packed).add(records)
            times.append(time.perf_counter() - start)
    finally:
        drivers.set_threads(saved)
    summing = statistics.median(times) / BLOCK_HANDS * 1e9
    return [totals[0]] + [b - a for a, b in itertools.pairwise(totals)] + [summing]


ONE_THREAD_CLOCK = time.process_time
"""The clock of the one-thread figures: the process's CPU time, not the wall's, so that on a
machine shared with other work the time the process waited for a core is not counted (the
ratios of two runs timed in turn then hold to a few percent where wall time scattered ±20%)."""


def _median_rate(run, count: int, repeats: int, clock=time.perf_counter) -> float:
    run(min(count, 10_000))  # warm-up: compile or load the cache
    times = []
    for _ in range(repeats):
        start = clock()
        run(count)
        times.append(clock() - start)
    return count / statistics.median(times)


def _paired_speed_ratio(run_a, run_b, count: int, repeats: int,
                        clock=time.perf_counter) -> tuple[float, float, float]:
    """A's rate over B's, timed in turn (A B, B A, A B, ...) so that the machine's drift cancels
    pair by pair, and the order within a pair too (the second of two runs in a row was measured
    up to 4% slower): (median, min, max) of the per-pair ratios."""
    run_a(min(count, 10_000))
    run_b(min(count, 10_000))

    def timed(run) -> float:
        start = clock()
        run(count)
        return clock() - start

    ratios = []
    for k in range(repeats):
        if k % 2:
            b_seconds, a_seconds = timed(run_b), timed(run_a)
        else:
            a_seconds, b_seconds = timed(run_a), timed(run_b)
        ratios.append(b_seconds / a_seconds)
    return statistics.median(ratios), min(ratios), max(ratios)


RANDOM_GAME_HANDS = 100
"""``random`` never reaches 500 (its games stop at the hand limit, 1,000 hands): it is timed on
this many times fewer games."""
GAME_LOOP_AIM = 0.9
"""Games to 500 a second times the hands a game, over hands a second: the game loop (scores
carried, the end of a game, game records) should cost at most a tenth of the hands' time."""


def _games_timed(strategy: str, games: int) -> int:
    """How many games to time for ``strategy`` (``random``'s last a hundred times longer)."""
    return games // RANDOM_GAME_HANDS if strategy == "random" else games


def _hands_per_game(games) -> float:
    """The mean hands a game of a run of ``games`` (a ``simulate_games`` result) lasted."""
    row = games.totals.as_row()
    return row["hands_per_game.all.y"] / row["hands_per_game.all.units"]


def _warm_start_seconds(repeats: int) -> float:
    """Wall time of a whole ``spades-sim simulate --hands 10000`` process, cache warm."""
    command = [sys.executable, "-m", "spades_sim", "simulate", "--hands", "10000", "--seed", "1",
               "--quiet"]
    subprocess.run(command, check=True, capture_output=True)  # make sure the cache is warm
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


COLD_COMMANDS = (("simulate --hands 1000", ["simulate", "--hands", "1000", "--seed", "1", "--quiet"]),
                 ("hand CARDS --deals 1000", ["hand", "AS 7S 3S 9H 8H 4H 2H QD 6D 3D 8C 5C 2C",
                                              "--deals", "1000", "--seed", "1", "--quiet"]),
                 ("report (the default study)", ["report", "--out-dir", "{folder}"]))
"""The first runs timed with an empty kernel cache; ``{folder}`` is each run's own temporary
folder."""


def _cold_start(command: list[str]) -> tuple[float, float]:
    """Wall seconds and peak resident MiB of one ``spades-sim`` process run with an empty numba
    cache (a fresh NUMBA_CACHE_DIR: it compiles every kernel it uses), measured by a small
    parent process so that earlier children do not count."""
    code = ("import resource, subprocess, sys, time\n"
            "start = time.perf_counter()\n"
            "subprocess.run(sys.argv[1:], check=True, capture_output=True)\n"
            "print(time.perf_counter() - start, "
            "resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    with tempfile.TemporaryDirectory() as folder:
        arguments = [word.format(folder=folder) for word in command]
        done = subprocess.run([sys.executable, "-c", code, sys.executable, "-m", "spades_sim",
                               *arguments], check=True, capture_output=True, text=True,
                              env={**os.environ, "NUMBA_CACHE_DIR": os.path.join(folder, "cache")})
    seconds, peak_kib = done.stdout.split()[-2:]
    return float(seconds), int(peak_kib) / 1024


def _print_cold_start() -> None:
    """The first run's figures (issue aims: 15 s for simulate and for a player's first hand, 45 s
    for the report, 700 MiB)."""
    print("first run, empty kernel cache (compiles; one run each):")
    for label, command in COLD_COMMANDS:
        seconds, peak = _cold_start(command)
        print(f"  spades-sim {label:<28} {seconds:>7.1f} s wall, peak {peak:>6,.0f} MiB")


def _peak_rss_mib(hands: int) -> float:
    """Peak resident memory of a fresh process that totals ``hands`` hands (kernel cache warm)."""
    code = ("import resource, sys\n"
            "from spades_sim.run.simulate import simulate_hands\n"
            "simulate_hands('standard', 'random', int(sys.argv[1]), seed=1)\n"
            "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)")
    done = subprocess.run([sys.executable, "-c", code, str(hands)], check=True,
                          capture_output=True, text=True)
    return int(done.stdout.split()[-1]) / 1024


OPENSPIEL_RATIO_AIM = 35
"""How many times faster than OpenSpiel's own loop spades-sim's ``random`` should play hands."""


def _print_openspiel(hands: int, repeats: int) -> None:
    """Whole random hands per second on one core: OpenSpiel's ``spades`` played by its
    uniform random bots in its native loop (``pyspiel.evaluate_bots``, one C++ call a hand:
    the deal, the bids and the 52 cards; its own scoring), and spades-sim's ``random`` (deal,
    bid, play, score, totals) and the plain kernel of the same game (scripts/plain_kernel.py),
    in the same run, and the ratios."""
    try:
        import pyspiel
    except ImportError:
        sys.exit("--openspiel: pyspiel is not installed: allowed with it installed "
                 '(pip install ".[openspiel]")')
    game = pyspiel.load_game("spades")
    bots = [pyspiel.make_uniform_random_bot(seat, seat + 1) for seat in range(4)]

    def openspiel(count: int) -> None:
        for hand in range(count):
            pyspiel.evaluate_bots(game.new_initial_state(), bots, hand)

    theirs = _median_rate(openspiel, max(1, hands // 20), repeats)
    ours = _median_rate(_random_hands, hands, repeats)
    plain = _median_rate(_plain, hands, repeats)
    print(f"random hands/s on one core: OpenSpiel {version('open-spiel')} {theirs:,.0f}, "
          f"spades-sim {ours:,.0f}: {ours / theirs:.1f}x (aim: at least {OPENSPIEL_RATIO_AIM}x); "
          f"the plain kernel {plain:,.0f}: {plain / theirs:.1f}x")


def _plain(count: int) -> None:
    """``count`` random hands of scripts/plain_kernel.py (standard rules only, no engine)."""
    plain_kernel.play_hands(1, count, np.zeros((2, len(plain_kernel.SUMS)), np.int64))


_STANDARD = load_preset("standard")


def _random_hands(count: int) -> None:
    """``count`` hands of spades-sim's ``random`` on one thread (deal, bid, play, score, totals)."""
    simulate_hands(_STANDARD, "random", count, seed=1, threads=1)


def _print_plain(hands: int, repeats: int) -> None:
    """Whole random hands a second on one core: the plain kernel and spades-sim's ``random``,
    timed in turn: how far the engine is from what the machine allows for the same game; then
    the default ``expert`` against the plain kernel the same way (the speed issue's aims: 0.8
    and 0.4)."""
    clock = ONE_THREAD_CLOCK
    median, low, high = _paired_speed_ratio(_random_hands, _plain, hands, repeats, clock)
    plain = _median_rate(_plain, hands, repeats, clock)
    print(f"random hands/s on one core (CPU time): plain kernel {plain:,.0f}, "
          f"spades-sim {_median_rate(_random_hands, hands, repeats, clock):,.0f}; spades-sim / "
          f"plain {median:.2f} (timed in turn, {repeats} pairs: {low:.2f} to {high:.2f})")
    for strategy in ("expert",):
        median, low, high = _paired_speed_ratio(
            lambda k, s=strategy: simulate_hands(_STANDARD, s, k, seed=1, threads=1), _plain,
            hands, repeats, clock)
        print(f"  {strategy}: {median:.2f} of the plain kernel's hands/s (timed in turn, "
              f"{repeats} pairs: {low:.2f} to {high:.2f})")


DECISION_AIM_US = 20
"""The median time of one ``expert`` decision called from Python, in microseconds (aim)."""
TABLE_EXPERT_AIM = 200
"""Hands a second of four ``expert`` agents at the Python table on one core (aim)."""


class _Recorder:
    """An agent that passes every decision on to another and keeps the observations."""

    def __init__(self, inner) -> None:
        self.inner, self.seen, self.name = inner, [], inner.name

    def _passed(self, method: str, observation):
        self.seen.append((method, observation))
        return getattr(self.inner, method)(observation)

    def blind_nil(self, observation):
        return self._passed("blind_nil", observation)

    def bid(self, observation):
        return self._passed("bid", observation)

    def draw(self, observation):
        return self._passed("draw", observation)

    def pass_card(self, observation):
        return self._passed("pass_card", observation)

    def play(self, observation):
        return self._passed("play", observation)


def _decision_microseconds(hands: int) -> tuple[float, int]:
    """The median time of one ``expert`` agent's decision (bids and cards) called from Python,
    each observation of ``hands`` standard hands timed once; and how many were timed."""
    from spades_sim.agents import agent, play_hands

    recorder = _Recorder(agent("expert"))
    play_hands("standard", [recorder] * 4, hands, seed=1)
    expert = agent("expert")
    times = []
    for method, observation in recorder.seen:
        decide = getattr(expert, method)
        start = time.perf_counter_ns()
        decide(observation)
        times.append(time.perf_counter_ns() - start)
    return statistics.median(times) / 1000, len(times)


def _print_table(hands: int, repeats: int) -> None:
    """Hands a second at the Python table (``spades_sim.agents``), every move through the
    referee, on one core: four uniform agents, the example bot with three of them, and four
    ``expert`` agents (the kernel's own decisions, one at a time). Beside the wall-clock rate,
    the rate per second of this process's CPU time, which other work on a shared machine does
    not slow. Then the median time of one ``expert`` decision called from Python."""
    from pathlib import Path

    from spades_sim.agents import RandomAgent, agent, load_agent, play_hands

    bot = load_agent(f"{Path(__file__).resolve().parent.parent / 'examples' / 'high_low_bot.py'}"
                     ":HighLowBot").make()
    print(f"Python table, one core, {repeats} repeats of {hands:,} standard hands, medians")
    print(f"{'agents':<28} {'hands/s':>10} {'per CPU s':>10}")
    for label, seats in (("4 uniform agents", [RandomAgent()] * 4),
                         ("high-low bot + 3 uniform", [bot] + [RandomAgent()] * 3),
                         ("4 expert agents", [agent("expert")] * 4)):
        play_hands("standard", seats, min(hands, 200), seed=1)  # warm-up: the deal's kernel
        walls, cpus = [], []
        for _ in range(repeats):
            wall, cpu = time.perf_counter(), time.process_time()
            play_hands("standard", seats, hands, seed=1)
            walls.append(time.perf_counter() - wall)
            cpus.append(time.process_time() - cpu)
        print(f"{label:<28} {hands / statistics.median(walls):>10,.0f} "
              f"{hands / statistics.median(cpus):>10,.0f}")
    print(f"(aim for 4 expert agents: at least {TABLE_EXPERT_AIM} hands/s)")
    micro, count = _decision_microseconds(min(hands, 200))
    print(f"one expert decision called from Python: median {micro:.1f} us over {count:,} "
          f"decisions (aim: at most {DECISION_AIM_US} us)")


def _dask_scaling(hands: int, repeats: int) -> None:
    """Hands/s on a local Dask cluster of 1 and of 2 single-threaded workers, and what one
    block (task) costs on Dask beyond its play."""
    from dask.distributed import LocalCluster

    from spades_sim.run import simulate

    rules = load_preset("standard")
    rates, overhead = [], 0.0
    for workers in (1, 2):
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                          host="127.0.0.1", dashboard_address=None) as cluster:
            address = cluster.scheduler_address
            rates.append(_median_rate(lambda k, address=address: simulate_hands(
                rules, "basic", k, seed=1, backend="dask", scheduler=address), hands, repeats))
            if workers == 1:
                blocks, size = 200, 1000
                saved = simulate.BLOCK_HANDS
                simulate.BLOCK_HANDS = size
                try:
                    dask_seconds = blocks * size / _median_rate(lambda k, address=address: simulate_hands(
                        rules, "basic", k, seed=1, backend="dask", scheduler=address),
                        blocks * size, repeats)
                    local_seconds = blocks * size / _median_rate(lambda k: simulate_hands(
                        rules, "basic", k, seed=1, threads=1), blocks * size, repeats)
                finally:
                    simulate.BLOCK_HANDS = saved
                overhead = (dask_seconds - local_seconds) / blocks
    print(f"{'dask, 1 vs 2 local workers, basic':<34} {rates[0]:>12,.0f} {rates[1]:>12,.0f} "
          f"{rates[1] / rates[0]:>7.2f}  (hands/s)")
    print(f"dask overhead per block (task): {1000 * overhead:.1f} ms "
          f"({simulate.BLOCK_HANDS:,} hands a block by default)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller counts")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--strategies-only", action="store_true",
                        help="only the hands/s and games/s of each strategy")
    parser.add_argument("--hands", metavar="STRATEGIES",
                        help="only the full hands/s of these strategies (comma-separated), "
                             "one thread: a kernel change timed before and after")
    parser.add_argument("--breakdown-only", action="store_true",
                        help="only where the time goes, step by step, in the kernel")
    parser.add_argument("--presets-only", action="store_true",
                        help="only the cards played a second under every preset")
    parser.add_argument("--dd", action="store_true",
                        help="only the double-dummy solver: full-deal tricks and nil solves")
    parser.add_argument("--dd-deals", type=int, default=1000,
                        help="random deals for --dd (default 1000)")
    parser.add_argument("--cold", action="store_true",
                        help="first runs with an empty kernel cache only")
    parser.add_argument("--openspiel", action="store_true",
                        help="spades-sim's random against OpenSpiel's random loop only")
    parser.add_argument("--plain", action="store_true",
                        help="spades-sim's random against a plain kernel of the same game only")
    parser.add_argument("--table", action="store_true",
                        help="Python agents at the Python table only, one core")
    parser.add_argument("--user-policy", metavar="STRATEGY", nargs="?", const=USER_POLICY,
                        help="a strategy of a user's own kernel policy against basic only, one "
                             f"core, timed in turn (default {USER_POLICY})")
    args = parser.parse_args()
    if args.user_policy:
        _print_user_policy(args.user_policy, 200_000 if args.quick else 1_000_000,
                           5_000 if args.quick else 20_000, args.repeats)
        return
    if args.table:
        _print_table(500 if args.quick else 2_000, args.repeats)
        return
    if args.cold:
        _print_cold_start()
        return
    if args.openspiel:
        _print_openspiel(200_000 if args.quick else 1_000_000, args.repeats)
        return
    if args.dd:
        _print_double_dummy(args.dd_deals)
        return
    if args.plain:
        _print_plain(200_000 if args.quick else 1_000_000, args.repeats)
        return
    hands = 200_000 if args.quick else 1_000_000
    games = 5_000 if args.quick else 20_000
    rules = load_preset("standard")
    cores = numba.config.NUMBA_NUM_THREADS
    print(f"spades-sim benchmark: {os.cpu_count()} cores, numba {numba.__version__}, "
          f"{args.repeats} repeats, medians")
    if args.breakdown_only:
        _print_breakdown(hands, args.repeats)
        return
    if args.hands:
        for strategy in args.hands.split(","):
            rate = _median_rate(lambda k, s=strategy: simulate_hands(rules, s, k, seed=1,
                                                                     threads=1),
                                hands, args.repeats, ONE_THREAD_CLOCK)
            print(f"{f'full hands/s, {strategy}':<34} {rate:>12,.0f}  (1 thread, CPU time)")
        return
    if args.presets_only:
        _print_presets(hands // 2, args.repeats)
        return
    print(f"{'what':<34} {'1 thread':>12} {f'{cores} threads':>12} {'ratio':>7}")
    per_core = {}
    last_run = {}  # the last timed run of each line (a run of games tells its hands a game)
    for label, strategy, run, n in (
            [("full hands/s", s, simulate_hands, hands) for s in STRATEGIES]
            + [("games to 500/s", s, simulate_games, _games_timed(s, games))
               for s in STRATEGIES]):
        rates = []
        for threads in (1, cores):
            def timed(k, label=label, s=strategy, run=run, threads=threads):
                last_run[label, s] = run(rules, s, k, seed=1, threads=threads)
            rates.append(_median_rate(timed, n, args.repeats))
        per_core[label, strategy] = rates[0]
        print(f"{f'{label}, {strategy}':<34} {rates[0]:>12,.0f} {rates[1]:>12,.0f} "
              f"{rates[1] / rates[0]:>7.2f}")
    print(f"the game loop: games/s x hands a game / hands/s, one thread "
          f"(aim: at least {GAME_LOOP_AIM})")
    for strategy in STRATEGIES:
        per_game = _hands_per_game(last_run["games to 500/s", strategy])
        share = per_core["games to 500/s", strategy] * per_game / per_core["full hands/s",
                                                                            strategy]
        print(f"  {strategy:<12} {per_game:>7.2f} hands a game  {share:>5.2f}")
    for label, run, n in (("full hands/s", simulate_hands, hands),
                          ("games to 500/s", simulate_games, games)):
        median, low, high = _paired_speed_ratio(
            lambda k, run=run: run(rules, "expert", k, seed=1, threads=1),
            lambda k, run=run: run(rules, "expert-v1", k, seed=1, threads=1), n, args.repeats)
        print(f"{label} per core, expert / expert-v1: {median:.2f} (timed in turn, "
              f"{args.repeats} pairs: {low:.2f} to {high:.2f}; medians above: "
              f"{per_core[label, 'expert'] / per_core[label, 'expert-v1']:.2f})")
    if args.strategies_only:
        return
    # spades-sim hand: a completion is one random deal of the unknown cards, played once for each
    # of the 15 candidates (the strategy's choice, nil, 1-13) and on to the end of the game.
    deals = 500 if args.quick else 2_000
    rates = [_median_rate(lambda k, t=threads: what_if(
        rules, "AS 7S 3S 9H 8H 4H 2H QD 6D 3D 8C 5C 2C", deals=k, seed=1, threads=t),
        deals, args.repeats) for threads in (1, cores)]
    print(f"{'what-if completions/s (hand)':<34} {rates[0]:>12,.0f} {rates[1]:>12,.0f} "
          f"{rates[1] / rates[0]:>7.2f}")
    small, large = 10**6, 10**7 if args.quick else 10**8
    peaks = [_peak_rss_mib(n) for n in (small, large)]
    print(f"peak resident memory, aggregate-only (random, own process): {peaks[0]:,.0f} MiB for "
          f"{small:,} hands, {peaks[1]:,.0f} MiB for {large:,} ({peaks[1] / peaks[0]:.2f}x)")
    _dask_scaling(hands, args.repeats)
    print(f"warm start, spades-sim simulate --hands 10000: {_warm_start_seconds(args.repeats):.2f} s wall")
    _print_cold_start()
    _print_presets(hands // 2, args.repeats)
    _print_breakdown(hands, args.repeats)
    _print_plain(hands, args.repeats)


USER_POLICY = "examples/basic-again.toml"
"""The built-in basic written again as a user's kernel policy (examples/basic_again.py)."""
USER_POLICY_AIM = 0.8
"""A user's policy's hands a second over the built-in policy's it rewrites (the speed issue's
aim for ``basic-again`` against ``basic``)."""


def _print_user_policy(strategy: str, hands: int, games: int, repeats: int) -> None:
    """Hands and games a second of ``strategy`` (a user's kernel policy) over ``basic``'s, one
    thread, timed in turn (the first call compiles the user's kernel, or loads it)."""
    start = time.perf_counter()
    simulate_hands(_STANDARD, strategy, 1, seed=1, threads=1)
    print(f"{strategy}: kernel compiled or loaded in {time.perf_counter() - start:.1f} s")
    for label, run, n in (("full hands/s", simulate_hands, hands),
                          ("games to 500/s", simulate_games, games)):
        median, low, high = _paired_speed_ratio(
            lambda k, run=run: run(_STANDARD, strategy, k, seed=1, threads=1),
            lambda k, run=run: run(_STANDARD, "basic", k, seed=1, threads=1), n, repeats)
        print(f"{label} per core, {strategy} / basic: {median:.2f} (timed in turn, {repeats} "
              f"pairs: {low:.2f} to {high:.2f}; aim at least {USER_POLICY_AIM})")


PRESET_AIM = 0.75
"""Cards played a second under any preset, over the standard rules' (the speed issue's aim)."""


def _print_presets(hands: int, repeats: int) -> None:
    """Hands and cards played a second under every preset (``basic``, all threads), and each
    preset's cards a second relative to the standard rules', timed in turn with them (preset,
    standard, preset, ...: the median of the pairs' ratios and their range), so that a change
    of load on a shared machine moves both sides of a ratio alike."""
    cores = numba.config.NUMBA_NUM_THREADS
    print(f"every preset, basic, {cores} threads (cards played/s relative to standard, timed in "
          f"turn with it; aim: at least {PRESET_AIM}):")
    standard = load_preset("standard")
    standard_cards = standard.seat_count * standard.hand_size

    def run(rules):
        return lambda n: simulate_hands(rules, "basic", n, seed=1)

    for name in preset_names():
        preset = load_preset(name)
        rate = _median_rate(run(preset), hands, repeats)
        cards = preset.seat_count * preset.hand_size
        ratio, low, high = _paired_speed_ratio(run(preset), run(standard), hands, repeats)
        scale = cards / standard_cards
        print(f"  {name:<26} {rate:>10,.0f} hands/s {rate * cards:>13,.0f} cards/s "
              f"{ratio * scale:>6.2f} ({low * scale:.2f} to {high * scale:.2f})")


def _random_deals(count: int, seed: int = 1) -> np.ndarray:
    """Random 13-card deals of the standard deck, four seats (card-id masks)."""
    rng = np.random.default_rng(seed)
    deals = np.zeros((count, 4), np.uint64)
    for i in range(count):
        order = rng.permutation(52)
        for seat in range(4):
            deals[i, seat] = sum(1 << int(card) for card in order[seat * 13:(seat + 1) * 13])
    return deals


def _spread(label: str, seconds: list[float]) -> None:
    ms = np.array(seconds) * 1000
    print(f"{label:<44} median {np.median(ms):>9,.1f}  p90 {np.percentile(ms, 90):>9,.1f}  "
          f"p99 {np.percentile(ms, 99):>9,.1f}  max {ms.max():>9,.1f} ms")


def _print_double_dummy(count: int) -> None:
    """Full 13-card solves of random standard deals, one thread, each with a fresh solver (an
    empty transposition table): the tricks of the leader's side, and the nil of the seat after
    the leader; then a bulk solve of a few deals on one thread and on all."""
    rules = load_preset("standard")
    deals = _random_deals(count)
    DoubleDummy(rules).tricks(Position.deal([int(h) for h in deals[0]], 0), 0)  # compile / load
    tricks, nils = [], []
    for i, row in enumerate(deals):
        position = Position.deal([int(h) for h in row], i % 4)
        started = time.perf_counter()
        DoubleDummy(rules).tricks(position, (i % 4) % 2)
        tricks.append(time.perf_counter() - started)
        started = time.perf_counter()
        DoubleDummy(rules).nil_set(position, (i + 1) % 4)
        nils.append(time.perf_counter() - started)
    print(f"double-dummy solves of {count:,} random full deals (standard rules, one thread):")
    _spread("tricks of the leader's side, full deal", tricks)
    _spread("nil of the seat after the leader, full deal", nils)
    bulk = deals[:min(count, 64)]
    leaders = np.arange(len(bulk), dtype=np.int64) % 4
    cores = numba.config.NUMBA_NUM_THREADS
    rates = []
    for threads in (1, cores):
        started = time.perf_counter()
        solve_deals(rules, bulk, leaders, 0, threads=threads)
        rates.append(len(bulk) / (time.perf_counter() - started))
    print(f"solve_deals, {len(bulk)} deals: {rates[0]:.2f} deals/s on 1 thread, {rates[1]:.2f} on "
          f"{cores} threads (ratio {rates[1] / rates[0]:.2f})")


def _print_breakdown(hands: int, repeats: int) -> None:
    print("where the time goes, 1 thread (ns per hand; kernel steps as differences of medians, "
          "then the totals):")
    for strategy in STRATEGIES:
        parts = _breakdown(strategy, hands // 4, repeats)
        cells = ", ".join(f"{name} {ns:.0f}" for name, ns in zip(PARTS, parts, strict=True))
        print(f"  {strategy}: {cells}; total {sum(parts):.0f} ns = {1e9 / sum(parts):,.0f} hands/s")


if __name__ == "__main__":
    main()

"""Benchmark spades-sim: hands/s and games/s per core and with all threads, memory, warm start.

A benchmark, never a test: it measures and prints. Each figure is the median of
``--repeats`` timed runs after a warm-up (numba compiles or loads its cache
first), because the 2-core development machine is noisy.

    python scripts/bench.py            # the full set, about a minute
    python scripts/bench.py --quick    # smaller counts
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time

import numba

from spades_sim.rules import load_preset
from spades_sim.simulate import simulate_games, simulate_hands


def _median_rate(run, count: int, repeats: int) -> float:
    run(min(count, 10_000))  # warm-up: compile or load the cache
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run(count)
        times.append(time.perf_counter() - start)
    return count / statistics.median(times)


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller counts")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    hands = 200_000 if args.quick else 1_000_000
    games = 5_000 if args.quick else 20_000
    rules = load_preset("standard")
    cores = numba.config.NUMBA_NUM_THREADS
    print(f"spades-sim benchmark: {os.cpu_count()} cores, numba {numba.__version__}, "
          f"{args.repeats} repeats, medians")
    print(f"{'what':<34} {'1 thread':>12} {f'{cores} threads':>12} {'ratio':>7}")
    for strategy in ("random", "basic"):
        rates = []
        for threads in (1, cores):
            rates.append(_median_rate(
                lambda n, s=strategy: simulate_hands(rules, s, n, seed=1, threads=threads),
                hands, args.repeats))
        print(f"{f'full hands/s, {strategy}':<34} {rates[0]:>12,.0f} {rates[1]:>12,.0f} "
              f"{rates[1] / rates[0]:>7.2f}")
    rates = []
    for threads in (1, cores):
        rates.append(_median_rate(
            lambda n: simulate_games(rules, "basic", n, seed=1, threads=threads),
            games, args.repeats))
    print(f"{'games to 500/s, basic':<34} {rates[0]:>12,.0f} {rates[1]:>12,.0f} "
          f"{rates[1] / rates[0]:>7.2f}")
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    simulate_hands(rules, "basic", 5 * hands, seed=2)
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"peak resident memory: {after / 1024:,.0f} MiB after {5 * hands:,} aggregate-only hands "
          f"({before / 1024:,.0f} MiB before that run)")
    print(f"warm start, spades-sim simulate --hands 10000: {_warm_start_seconds(args.repeats):.2f} s wall")


if __name__ == "__main__":
    main()

"""The helper process of a first run's compile (``spades_sim.kernel.warmup``).

``python -P -m spades_sim.kernel.warmup_helper KERNEL_FOLDER STEP …`` reads a table's packed
rules and strategies (pickled) from its standard input and compiles, into numba's cache and one
after another, each callee group named (``warmup.callee_groups``) and then each chunk kernel named
(``warmup.KERNEL_KINDS``). A chunk kernel is compiled the way a run compiles it, through the
drivers, by a run of one item; before the first, it waits until the run's own process has
compiled the other callee group, so that the kernel finds every callee done. It ends at once,
compiling nothing, when it has not imported the kernel in ``KERNEL_FOLDER`` (the run's own):
it would compile another kernel, into another cache folder, that the run would wait for in vain.
"""

from __future__ import annotations

import pickle
import sys
from pathlib import Path

from . import drivers, warmup

KERNEL_RUNS = {
    "hands": lambda rules, strategies: drivers.play_hands(
        rules=rules, strategies=strategies, seed=0, start=0, count=1),
    "games": lambda rules, strategies: drivers.play_games(
        rules=rules, strategies=strategies, seed=0, start=0, count=1, max_hands=1),
}
"""A run of one item that compiles each chunk kernel of ``warmup.KERNEL_KINDS``."""


def main(kernel_folder: str, steps: list[str]) -> None:
    """Compile ``steps`` for the table read from standard input, if this is the kernel in
    ``kernel_folder``."""
    if Path(warmup.__file__).resolve().parent != Path(kernel_folder):
        sys.exit(2)
    rules, strategies = pickle.load(sys.stdin.buffer)
    warmup.as_helper()
    drivers.set_threads(1)
    kernels = [step for step in steps if step in KERNEL_RUNS]
    for group in (step for step in steps if step not in KERNEL_RUNS):
        warmup.compile_group(group, rules, strategies)
    if kernels:
        warmup.wait_for_group(warmup.callee_groups(rules, strategies)[warmup.RUN_GROUP])
    for kind in kernels:
        KERNEL_RUNS[kind](rules, strategies)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])

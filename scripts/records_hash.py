"""A hash of the records of mixed-strategy runs: the check that a change to the kernel's policies
or their plumbing leaves every built-in strategy's records bit-identical.

Runs hands and games under four presets (standard; jokers; app-settings, with blind nil and
its card exchange; head-to-head, the two-player draw) with random, basic, expert-v1 and expert
mixed at one table, and prints one SHA-256 per run and one over them all. Run it before a
change and after: the hashes must be equal.

    python scripts/records_hash.py            # 2,000 hands and 200 games per preset and seating
    python scripts/records_hash.py --hands 20000 --games 1000
"""

from __future__ import annotations

import argparse
import hashlib

import numpy as np

from spades_sim.kernel import drivers
from spades_sim.kernel.packing import pack_rules
from spades_sim.kernel.strategies import pack_strategies, seat_strategies
from spades_sim.rules import load_preset

MIXES = {
    "standard": [("random", "basic", "expert-v1", "expert"), ("expert", "expert-v1", "basic", "random")],
    "jokers": [("expert", "basic", "expert-v1", "random")],
    "app-settings": [("expert", "expert-v1", "basic", "expert"), ("basic", "expert", "random", "expert-v1")],
    "head-to-head": [("expert", "basic"), ("random", "expert-v1"), ("expert-v1", "expert")],
}
"""The seatings run under each preset."""


def _digest(arrays) -> str:
    """SHA-256 of a tuple of arrays (a NamedTuple of records), field by field."""
    digest = hashlib.sha256()
    for name, array in zip(arrays._fields, arrays, strict=True):
        digest.update(name.encode())
        digest.update(np.ascontiguousarray(array).tobytes())
    return digest.hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=20261206)
    args = parser.parse_args()
    total = hashlib.sha256()
    for preset, seatings in MIXES.items():
        rules = load_preset(preset)
        packed = pack_rules(rules)
        for names in seatings:
            strat = pack_strategies(seat_strategies(list(names), rules.seat_count), rules)
            hands, trace = drivers.play_hands(rules=packed, strategies=strat, seed=args.seed,
                                              start=0, count=args.hands, trace=True)
            games = drivers.play_games(rules=packed, strategies=strat, seed=args.seed, start=0,
                                       count=args.games, max_hands=200)
            for kind, arrays in (("hands", hands), ("trace", trace), ("games", games)):
                text = _digest(arrays)
                total.update(text.encode())
                print(f"{preset:13} {'/'.join(names):34} {kind:6} {text[:16]}")
    print(f"all {total.hexdigest()}")


if __name__ == "__main__":
    main()

"""The double-dummy solver against bridge's DDS on many full deals (the bulk check).

    python scripts/dd_check.py --deals 1000 [--threads 2] [--seed 20261202]

Spades with spades led at any time and no first-lead rule (``spades_lead = "any_time"``,
``first_lead = "dealer_right"``) is bridge in a spade contract, so on random 13-card deals the
solver's tricks for a side when seat L leads must equal DDS's spade tricks (through the
``endplay`` package, a test dependency) for the declarer whose left-hand opponent is L: seat
L - 1, seats 0 to 3 being North, East, South and West. Prints each disagreement, then one
summary line with the solver's time; exits 1 on any disagreement. The test suite runs the same
comparison on three deals (tests/test_double_dummy.py).
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np
from endplay.dds import calc_all_tables
from endplay.types import Deal, Denom, Player

from spades_sim.kernel.double_dummy import solve_deals
from spades_sim.rules import RuleSet

BRIDGE_RULES = RuleSet(spades_lead="any_time", first_lead="dealer_right")
_RANKS = "23456789TJQKA"


def pbn(hands: np.ndarray) -> str:
    """A deal (card-id masks, seats 0 to 3) in PBN, North first."""
    def one(mask: int) -> str:
        return ".".join("".join(_RANKS[rank] for rank in range(12, -1, -1)
                                if mask >> (suit * 13 + rank) & 1) for suit in (3, 2, 1, 0))
    return "N:" + " ".join(one(int(mask)) for mask in hands)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--seed", type=int, default=20261202)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    hands = np.zeros((args.deals, 4), np.uint64)
    for i in range(args.deals):
        order = rng.permutation(52)
        for seat in range(4):
            hands[i, seat] = sum(1 << int(card) for card in order[seat * 13:(seat + 1) * 13])
    leaders = np.arange(args.deals, dtype=np.int64) % 4
    sides = (np.arange(args.deals, dtype=np.int64) // 4) % 2
    deals = [Deal(pbn(row)) for row in hands]
    others = [Denom.hearts, Denom.diamonds, Denom.clubs, Denom.nt]
    tables = [table for start in range(0, len(deals), 200)  # DDS takes 200 tables a call
              for table in calc_all_tables(deals[start:start + 200], exclude=others)]
    started = time.perf_counter()
    got = solve_deals(BRIDGE_RULES, hands, leaders, sides, threads=args.threads)
    seconds = time.perf_counter() - started
    wrong = 0
    for i, table in enumerate(tables):
        declarer = (int(leaders[i]) - 1) % 4  # the leader is the declarer's left-hand opponent
        tricks = int(table[Denom.spades, Player(declarer)])
        expected = tricks if int(sides[i]) == declarer % 2 else 13 - tricks
        if got[i] != expected:
            wrong += 1
            print(f"deal {i}: {pbn(hands[i])} leader {leaders[i]} side {sides[i]}: "
                  f"solver {got[i]}, DDS {expected}")
    print(f"{args.deals:,} deals, {wrong} disagreements; solver {seconds:.1f} s "
          f"({seconds / max(args.deals, 1) * 1000:.0f} ms a deal on {args.threads or 'all'} "
          "threads)")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())

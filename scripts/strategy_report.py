"""Measure the named strategies' credibility and print a Markdown report.

    python scripts/strategy_report.py > reports/strategies.md

Every figure carries its 95% interval: Wilson for rates over games or bids, normal
for means, paired over deal sequences for duplicate comparisons. Fixed seeds: the
same command prints the same report. About two minutes on 2 cores once compiled.
The last section, the double-dummy yardstick, is printed from data/dd_yardstick.csv,
which ``scripts/dd_yardstick.py`` writes (it takes far longer: it solves every card play).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pandas as pd

from spades_sim import compare_strategies, simulate_hands
from spades_sim.intervals import wilson_interval
from spades_sim.kernel.strategies import DEFAULT_STRATEGY, STRATEGIES
from spades_sim.run.catalogue import pick

YARDSTICK_DATA = Path(__file__).resolve().parent.parent / "data" / "dd_yardstick.csv"


def pct(value: float) -> str:
    return f"{100 * value:.1f}%"


def interval(low: float, high: float, scale: float = 100, unit: str = "%", digits: int = 1) -> str:
    return f"[{scale * low:.{digits}f}{unit}, {scale * high:.{digits}f}{unit}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="standard")
    parser.add_argument("--pairs", type=int, default=2_000, help="deal sequences per comparison")
    parser.add_argument("--hands", type=int, default=200_000, help="hands per hand run")
    args = parser.parse_args()
    rules, pairs, hands = args.rules, args.pairs, args.hands
    print(f"# Strategy credibility under `{rules}` rules\n")
    print(f"Made by `python scripts/strategy_report.py --rules {rules} --pairs {pairs} "
          f"--hands {hands}`.\n")

    basic_random = compare_strategies(rules, "basic", "random", pairs, seed=31)
    wins = round(float(basic_random.share.sum()) * 2)
    low, high = wilson_interval(wins, 2 * pairs)
    print("## basic against random\n")
    print(f"`basic` won {wins:,} of {2 * pairs:,} games to the target against `random` (duplicate, seed "
          f"31): {pct(wins / (2 * pairs))}, Wilson 95% interval {interval(low, high, digits=2)}.\n")

    print("## Nil success and bid error (hands from 0–0, each strategy against itself)\n")
    print("| strategy | nil bids | nil success | 95% interval | mean absolute bid error "
          "| 95% interval |")
    print("|---|---:|---:|---|---:|---|")
    for name in ("basic", "expert", "expert-v1", "conservative", "aggressive", "nil-happy",
                 "bag-averse"):
        table = simulate_hands(rules, name, hands, seed=1).summary()
        nil, error = pick(table, "nil_success"), pick(table, "bid_error")
        default = " (default)" if name == DEFAULT_STRATEGY else ""
        print(f"| `{name}`{default} | {int(nil['n']):,} | {pct(nil['value'])} | "
              f"{interval(nil['low'], nil['high'])} | {error['value']:.3f} | "
              f"{interval(error['low'], error['high'], 1, '', 3)} |")

    mixed = simulate_hands(rules, ["expert", "basic"], hands, seed=1).summary()
    print(f"\nMean absolute bid error per side, `expert` (side 0) against `basic` (side 1), {hands:,} "
          "hands; the error is |contract − tricks of the side's count bidders| per side-hand with "
          "a contract:\n")
    print("| side | mean absolute bid error | 95% interval | side-hands |")
    print("|---|---:|---|---:|")
    for side in (0, 1):
        row = pick(mixed, "bid_error", side)
        print(f"| {row['metric'].removesuffix(' mean absolute bid error')} | {row['value']:.3f} | "
              f"{interval(row['low'], row['high'], 1, '', 3)} | {int(row['n']):,} |")
    nil = pick(mixed, "nil_success")

    print(f"\n## Every named strategy in duplicate ({pairs:,} deal sequences × 2, seed 21)\n")
    print("Win share: a win 1, a game stopped at the hand cap ½; paired 95% interval.\n")
    print("| strategy | against basic | 95% interval | against expert-v1 (the yardstick) | "
          "95% interval |")
    print("|---|---:|---|---:|---|")
    for name in STRATEGIES:
        cells = []
        for opponent in ("basic", "expert-v1"):
            result = compare_strategies(rules, name, opponent, pairs, seed=21)
            cells += [pct(result.share.mean()), interval(*result.paired_interval)]
        print(f"| `{name}` | " + " | ".join(cells) + " |")
    print(f"\nIn the mixed hand run above, nil bids of both sides succeeded {pct(nil['value'])} "
          f"{interval(nil['low'], nil['high'])} of {int(nil['n']):,}.")
    if YARDSTICK_DATA.exists():
        from dd_yardstick import section  # scripts/ is on the path of a script run from it

        print()
        print(section(pd.read_csv(YARDSTICK_DATA)), end="")


if __name__ == "__main__":
    main()

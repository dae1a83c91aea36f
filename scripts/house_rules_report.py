"""Measure how the expert plays the nil pass, the zero bid and blind bids and print a Markdown report.

    python scripts/house_rules_report.py > reports/house-rules.md

Three sections: the expert's nil bid rate and nil success under a nil card pass of 0, 1, 2
and 4 cards (``nil_pass``; `expert` on every seat, hands from 0-0), `expert` against itself
without its pass parameters under each pass, and `expert` against `expert-v1` in duplicate
on each preset of :data:`PRESETS` and under the zero bid. Every
figure carries its 95% interval: Wilson for the rates, paired over deal sequences for the
duplicate share. Fixed seeds: the same command prints the same report. About two minutes
on 2 cores once compiled.
"""

from __future__ import annotations

import argparse
from itertools import pairwise

from spades_sim import compare_strategies, simulate_hands
from spades_sim.kernel.strategies import STRATEGIES
from spades_sim.rules import load_preset
from spades_sim.run.catalogue import pick

PASSES = (0, 1, 2, 4)
"""The nil passes measured (Trickster's ``nilPass`` choices)."""

PRESETS = ["trickster-jokers", "tournament-blind"]
"""The presets of these house rules the duplicate match is played on (one line each)."""

HAND_SEED = 45
DUPLICATE_SEED = 4_545


def pct(value: float) -> str:
    return f"{100 * value:.1f}%"


def interval(low: float, high: float) -> str:
    return f"[{100 * low:.1f}%, {100 * high:.1f}%]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="standard", help="the rules the pass is added to")
    parser.add_argument("--hands", type=int, default=1_000_000, help="hands per nil pass")
    parser.add_argument("--pairs", type=int, default=5_000, help="deal sequences per preset")
    args = parser.parse_args()
    print("# House rules: the nil card pass and the expert\n")
    print(f"Made by `python scripts/house_rules_report.py --rules {args.rules} --hands {args.hands} "
          f"--pairs {args.pairs}` (hand runs from seed {HAND_SEED}, duplicate matches from seed "
          f"{DUPLICATE_SEED}).\n")

    print(f"## Nil bids under a nil card pass (`{args.rules}`, `expert` on every seat)\n")
    print(f"{args.hands:,} hands from 0–0 for each pass, the same deals for each (seed "
          f"{HAND_SEED}); Wilson 95% intervals. The expert reads its nil chances from the "
          "calibration tables of that pass (docs/strategies.md).\n")
    print("| nil_pass | nil bids | nil bids per seat-hand | 95% interval | nil success | "
          "95% interval |")
    print("|---:|---:|---:|---|---:|---|")
    base = load_preset(args.rules)
    rows = {}
    for passed in PASSES:
        table = simulate_hands(base.replace(nil_pass=passed), "expert", args.hands,
                               seed=HAND_SEED).summary()
        rate, success = pick(table, "nil_bid_rate"), pick(table, "nil_success")
        rows[passed] = rate, success
        print(f"| {passed} | {int(success['n']):,} | {pct(rate['value'])} | "
              f"{interval(rate['low'], rate['high'])} | {pct(success['value'])} | "
              f"{interval(success['low'], success['high'])} |")
    rising = all(rows[a][0]["value"] < rows[b][0]["value"] for a, b in pairwise(PASSES))
    apart = rows[0][0]["high"] < rows[2][0]["low"]
    print(f"\nThe nil bid rate rises with every card passed: {'yes' if rising else 'no'}; its "
          f"intervals at 0 and 2 cards are apart: {'yes' if apart else 'no'} "
          f"({interval(rows[0][0]['low'], rows[0][0]['high'])} against "
          f"{interval(rows[2][0]['low'], rows[2][0]['high'])}).\n")

    print(f"## The expert's pass judgement ({args.pairs:,} deal sequences × 2)\n")
    print("`expert` against itself without its two pass parameters (`nil_pass_reach` 0: nil judged "
          "only below 3 tricks, as without a pass; `nil_pass_cover` 0: the nil's partner bids "
          f"as if nothing came back), in duplicate under `{args.rules}` with the pass; win share of "
          "`expert`, paired 95% interval.\n")
    print("| nil_pass | expert's win share | 95% interval | lower bound above 50% |")
    print("|---:|---:|---|---|")
    plain = STRATEGIES["expert"].variant({"nil_pass_reach": 0.0, "nil_pass_cover": 0.0})
    for passed in PASSES[1:]:
        result = compare_strategies(base.replace(nil_pass=passed), "expert", plain, args.pairs,
                                    seed=DUPLICATE_SEED)
        low, high = result.paired_interval
        print(f"| {passed} | {pct(result.share.mean())} | {interval(low, high)} | "
              f"{'yes' if low > 0.5 else 'no'} |")
    print()

    print(f"## `expert` against `expert-v1` in duplicate ({args.pairs:,} deal sequences × 2)\n")
    print("Win share of `expert`: a win 1, a game stopped at the hand cap ½; paired 95% interval "
          "over the deal sequences.\n")
    print("| rules | expert's win share | 95% interval | lower bound above 50% |")
    print("|---|---:|---|---|")
    tables = [(f"`{name}`", load_preset(name)) for name in PRESETS]
    tables.append(("`standard` with `zero_bid = \"zero\"`", load_preset("standard").replace(
        zero_bid="zero")))
    for label, rules in tables:
        result = compare_strategies(rules, "expert", "expert-v1", args.pairs,
                                    seed=DUPLICATE_SEED)
        low, high = result.paired_interval
        print(f"| {label} | {pct(result.share.mean())} | {interval(low, high)} | "
              f"{'yes' if low > 0.5 else 'no'} |")


if __name__ == "__main__":
    main()

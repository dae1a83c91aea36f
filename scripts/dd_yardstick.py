"""A strength yardstick: how much each strategy gives away against double-dummy play.

    nice python scripts/dd_yardstick.py --hands 2000

For each strategy (default ``random``, ``basic``, ``expert`` and ``expert-v1``) it plays
``--hands`` self-play hands from 0–0 (the strategy at every seat; the same seeded deals for
every strategy), writes their hand logs, and reviews every card play with the double-dummy
solver exactly as ``spades-sim review`` does (docs/double-dummy.md): the tricks and the
hand-score difference each play gave away against best play with every card visible, and
whether it lost any value (a trick, the points given the bids, or a nil). Per strategy it
writes, per seat-hand, the tricks and points given away and the plays that lost value,
and the share of card plays that lost value, each with its 95% interval (the hands are the
independent units), to ``--out`` (CSV, default data/dd_yardstick.csv), and puts the same
table as the section "Double-dummy yardstick" of reports/strategies.md (replacing the one
there; ``scripts/strategy_report.py`` prints it from the CSV, so regenerating the report
keeps it).
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import pandas as pd

from spades_sim.analysis.review import ReviewResult, review_file
from spades_sim.kernel.strategies import seat_strategies
from spades_sim.rules import resolve_rules
from spades_sim.run.handlogs import write_hand_logs

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data" / "dd_yardstick.csv"
REPORT = ROOT / "reports" / "strategies.md"
STRATEGIES = ("random", "basic", "expert", "expert-v1")
SECTION = "## Double-dummy yardstick"
"""The heading of the report's section; the section runs to the next ``## `` heading."""
METRICS = ("tricks_lost", "points_lost", "mistakes", "lost_share")


def measure(rules_name: str, strategy: str, hands: int, seed: int,
            jobs: int = 1) -> dict[str, object]:
    """Play and review ``hands`` self-play hands of ``strategy``, the reviews split over
    ``jobs`` processes (the same hands and answers whatever the number); one row of the data
    file."""
    rules = resolve_rules(rules_name)
    strategies = seat_strategies([strategy], rules.seat_count)
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        logs = []
        for part, chunk in enumerate(np.array_split(np.arange(hands), max(1, jobs))):
            if len(chunk):
                logs.append(Path(folder) / f"hands-{part}.jsonl")
                write_hand_logs(str(logs[-1]), "hands", rules, strategies, seed,
                                range(int(chunk[0]), int(chunk[-1]) + 1), 1000)
        played = time.perf_counter()
        with ProcessPoolExecutor(len(logs)) as pool:
            parts = list(pool.map(review_file, logs))
        result = ReviewResult("hands", tuple(hand for part in parts for hand in part.hands))
    reviewed = time.perf_counter()
    totals = result.totals()
    row = totals[(totals["group"] == "strategy") & (totals["name"] == strategy)].iloc[0]
    out: dict[str, object] = {"strategy": strategy, "rules": rules_name, "seed": seed,
                              "hands": hands, "seat_hands": int(row["seat_hands"]),
                              "plays": int(row["plays"]),
                              "plays_lost": int(row["total_mistakes"])}
    for metric in METRICS:
        out.update({metric: float(row[metric]), f"{metric}_low": float(row[f"{metric}_low"]),
                    f"{metric}_high": float(row[f"{metric}_high"])})
    out["seconds_play"] = round(played - start, 1)
    out["seconds_review"] = round(reviewed - played, 1)
    out["jobs"] = len(logs)
    return out


def _cell(value: float, low: float, high: float, percent: bool = False) -> tuple[str, str]:
    if percent:
        return f"{100 * value:.2f}%", f"[{100 * low:.2f}%, {100 * high:.2f}%]"
    if math.isnan(low):
        return f"{value:.3f}", "-"
    return f"{value:.3f}", f"[{low:.3f}, {high:.3f}]"


FULL_HANDS = 2000
"""The hands a strategy the yardstick is meant to have."""


def section(data: pd.DataFrame) -> str:
    """The report's section from the data file's rows (Markdown, ending in a newline)."""
    first = data.iloc[0]
    runs = ", ".join(f"`{name}`" for name in data["strategy"])
    lines = [
        SECTION, "",
        f"Made by `python scripts/dd_yardstick.py --rules {first['rules']} --hands "
        f"{int(first['hands'])} --seed {int(first['seed'])}` (data: "
        "[data/dd_yardstick.csv](../data/dd_yardstick.csv)). Each strategy played the same "
        f"{int(first['hands']):,} hands from 0–0 against itself ({runs}), and every card play "
        "was reviewed as `spades-sim review` reviews it "
        "([docs/double-dummy.md](../docs/double-dummy.md)): what the play gave away against "
        "best play with every card visible. Per seat-hand: the double-dummy tricks its side "
        "lost, the hand-score difference it lost given the bids (the side's hand points minus "
        "the other side's), and the plays that lost any value (a trick, points or a nil); then "
        "the share of all card plays that lost value. 95% intervals, the hands as the units.",
        "",
        "| strategy | seat-hands | tricks given away | 95% interval | points given away "
        "| 95% interval | plays that lost value | 95% interval | share of plays | 95% interval |",
        "|---|---:|---:|---|---:|---|---:|---|---:|---|",
    ]
    for row in data.to_dict("records"):
        cells = [f"`{row['strategy']}`", f"{int(row['seat_hands']):,}"]
        for metric in METRICS:
            cells += _cell(row[metric], row[f"{metric}_low"], row[f"{metric}_high"],
                           percent=metric == "lost_share")
        lines.append("| " + " | ".join(cells) + " |")
    seconds = data["seconds_review"].sum()
    if int(first["hands"]) < FULL_HANDS:
        lines += ["", f"**A preliminary run**: {int(first['hands']):,} hands a strategy, not the "
                  f"{FULL_HANDS:,} the yardstick is meant to have, because reviewing a hand with a "
                  "nil bid still takes the solver minutes (docs/double-dummy.md, \"Speed\"). "
                  "The intervals say how little it settles."]
    jobs = int(first.get("jobs", 1))
    lines += ["", f"The reviews took {seconds / 60:.0f} minutes in all, on {jobs} "
              f"process{'es' if jobs > 1 else ''} "
              f"({', '.join(f'{r.strategy} {r.seconds_review / 60:.1f}' for r in data.itertuples())}"
              " minutes).", ""]
    return "\n".join(lines)


def replace_section(report: str, text: str) -> str:
    """``report`` with its yardstick section replaced by ``text`` (or ``text`` added at the end)."""
    start = report.find(SECTION)
    if start < 0:
        return report.rstrip("\n") + "\n\n" + text
    end = report.find("\n## ", start + len(SECTION))
    rest = "" if end < 0 else report[end + 1:]
    return report[:start] + text + ("\n" + rest if rest else "")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="standard")
    parser.add_argument("--hands", type=int, default=FULL_HANDS,
                        help="self-play hands per strategy")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--strategy", action="append", dest="strategies",
                        help="a strategy to measure (repeatable) [default: "
                             + ", ".join(STRATEGIES) + "]")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="processes the reviews run in (default: one a core)")
    parser.add_argument("--out", default=str(DATA), help="the data file (CSV)")
    parser.add_argument("--report", default=str(REPORT),
                        help="the report whose section is replaced ('' for none)")
    args = parser.parse_args()
    rows = []
    for strategy in args.strategies or STRATEGIES:
        print(f"{strategy}: {args.hands:,} hands ...", file=sys.stderr, flush=True)
        row = measure(args.rules, strategy, args.hands, args.seed, args.jobs)
        print(f"  played in {row['seconds_play']} s, reviewed in {row['seconds_review']} s: "
              f"{row['tricks_lost']:.3f} tricks, {row['points_lost']:.3f} points given away per "
              f"seat-hand, {100 * float(row['lost_share']):.2f}% of plays lost value",
              file=sys.stderr, flush=True)
        rows.append(row)
    data = pd.DataFrame(rows)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    data.to_csv(args.out, index=False)
    print(f"wrote {args.out}", file=sys.stderr)
    if args.report:
        report = Path(args.report)
        report.write_text(replace_section(report.read_text(encoding="utf-8"), section(data)),
                          encoding="utf-8")
        print(f"wrote the section of {report}", file=sys.stderr)


if __name__ == "__main__":
    main()

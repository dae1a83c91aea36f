"""A strength yardstick: how much each strategy gives away against double-dummy play.

    nice python scripts/dd_yardstick.py --hands 2000 [--minutes 90]

For each strategy (default ``random``, ``basic``, ``expert``, ``expert-v1`` and
``examples/expert-before-tuning.toml``, the expert's nil parameters before their tuning) it plays
``--hands`` self-play hands from 0–0 (the strategy at every seat; the same seeded deals for
every strategy), writes their hand logs, and reviews every card play with the double-dummy
solver exactly as ``spades-sim review`` does (docs/double-dummy.md): the tricks and the
hand-score difference each play gave away against best play with every card visible, and
whether it lost any value (a trick, the points given the bids, or a nil).

The reviews take hours (a hand with a nil bid takes tens of seconds), so the run can be
spread over sittings: each strategy's reviewed hands are kept, one row a hand, in
``--hands-dir`` (default data/dd_yardstick/), appended chunk by chunk as each finishes, and
a later run reviews only the hands not there; ``--minutes`` stops it starting more, a
second run with ``--last-first`` takes the same strategy's hands from the other end, and
``--start`` begins a run elsewhere (each run skips the hands another has kept meanwhile). Then,
from every hand kept, per strategy it writes the tricks and points given away per seat-hand,
the plays that lost value per seat-hand and the share of card plays that lost value, each
with its 95% interval (the hands are the independent units), to ``--out`` (CSV, default
data/dd_yardstick.csv), and puts the same table as the section "Double-dummy yardstick" of
reports/strategies.md (replacing the one there; ``scripts/strategy_report.py`` prints it
from the CSV, so regenerating the report keeps it), marked unfinished while a strategy has
fewer than 2,000 hands.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import tempfile
import time
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path

import pandas as pd

from spades_sim.analysis.review import HandReview, ReviewResult, review_file
from spades_sim.kernel.strategies import seat_strategies, strategy_label
from spades_sim.rules import resolve_rules
from spades_sim.run.handlogs import write_hand_logs

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data" / "dd_yardstick.csv"
HANDS = ROOT / "data" / "dd_yardstick"
REPORT = ROOT / "reports" / "strategies.md"
STRATEGIES = ("random", "basic", "expert", "expert-v1",
              str(ROOT / "examples" / "expert-before-tuning.toml"))
"""The strategies measured: names, or strategy files (kept and shown under their stem)."""
SECTION = "## Double-dummy yardstick"
"""The heading of the report's section; the section runs to the next ``## `` heading."""
METRICS = ("tricks_lost", "points_lost", "mistakes", "lost_share")


CHUNK = 1
"""Hands reviewed together: the unit of work a process takes and that a run keeps. One, because
a few hands take an hour or more to review: a run cut short loses only the hand in hand (with
five a chunk, one slow hand held four finished ones back for hours, and a run stopped then lost
them all), and a hand's review shares nothing with the next one's (one solver a hand)."""
SEATS = 4
PER_SEAT = ("plays", "mistakes", "tricks_lost", "points_lost", "nils_lost")
HAND_COLUMNS = ("hand", *(f"{field}_{seat}" for field in PER_SEAT for seat in range(SEATS)),
                "seconds")
"""The columns of a strategy's file of reviewed hands (one row a hand)."""


def hands_path(folder: Path, rules_name: str, strategy: str, seed: int) -> Path:
    """The file of one strategy's reviewed hands."""
    return folder / f"{rules_name}-{strategy}-seed{seed}.csv"


def hand_rows(review: ReviewResult, first: int, seconds: float) -> list[dict[str, object]]:
    """The rows of the hands of ``review``, numbered from ``first``, ``seconds`` shared out."""
    rows = []
    for offset, hand in enumerate(review.hands):
        row: dict[str, object] = {"hand": first + offset}
        for field in PER_SEAT:
            for seat in range(SEATS):
                row[f"{field}_{seat}"] = getattr(hand, field)[seat]
        row["seconds"] = round(seconds / max(1, len(review.hands)), 3)
        rows.append(row)
    return rows


def hand_reviews(rows: pd.DataFrame, strategy: str) -> ReviewResult:
    """The reviews the rows of :func:`hand_rows` hold (without the mistakes' details)."""
    hands = []
    for row in rows.to_dict("records"):
        per_seat = {field: tuple(int(row[f"{field}_{seat}"]) for seat in range(SEATS))
                    for field in PER_SEAT}
        hands.append(HandReview(line_number=int(row["hand"]) + 1, strategies=(strategy,) * SEATS,
                                found=(), **per_seat))
    return ReviewResult("hands", tuple(hands))


def missing_chunks(done: set[int], hands: int) -> list[range]:
    """The hands 0 to ``hands`` - 1 not in ``done``, as runs of consecutive hands of at most
    CHUNK each."""
    chunks: list[range] = []
    for hand in range(hands):
        if hand in done:
            continue
        last = chunks[-1] if chunks else None
        if last is not None and last.stop == hand and len(last) < CHUNK:
            chunks[-1] = range(last.start, hand + 1)
        else:
            chunks.append(range(hand, hand + 1))
    return chunks


def review_chunk(rules_name: str, strategy: str, seed: int,
                 chunk: range) -> list[dict[str, object]]:
    """Play the self-play hands ``chunk`` of ``strategy`` (the same deals whatever the chunks)
    and review them; their rows."""
    rules = resolve_rules(rules_name)
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "hands.jsonl"
        write_hand_logs(str(log), "hands", rules, seat_strategies([strategy], rules.seat_count),
                        seed, chunk, 1000)
        start = time.perf_counter()
        review = review_file(log)
        return hand_rows(review, chunk.start, time.perf_counter() - start)


def load_hands(path: Path) -> pd.DataFrame:
    """The reviewed hands kept in ``path`` (none if it is missing), one row a hand."""
    if not path.exists():
        return pd.DataFrame(columns=list(HAND_COLUMNS))
    rows = pd.read_csv(path)
    if tuple(rows.columns) != HAND_COLUMNS:
        sys.exit(f"{path}: columns {', '.join(rows.columns)[:80]}: allowed exactly "
                 f"{', '.join(HAND_COLUMNS[:3])}, ...: remove the file to start again")
    return rows.drop_duplicates("hand").sort_values("hand")


def review_hands(rules_name: str, strategies: list[str], hands: int, seed: int, folder: Path,
                 jobs: int = 1, deadline: float = math.inf, last_first: bool = False,
                 start: int | None = None) -> dict[str, pd.DataFrame]:
    """Review the hands 0 to ``hands`` - 1 of each strategy not yet in its file under
    ``folder``, the strategies' chunks taken in turn (so a run cut short leaves them all about
    as far), from hand ``start`` up and then the ones below it (from ``start`` down and then
    the ones above with ``last_first``; default the first hand, or the last), ``jobs`` at a
    time, each chunk's rows appended as it finishes (an interrupted or timed-out run keeps
    them); no chunk is started after ``deadline`` (``time.monotonic``), nor one another run
    has kept meanwhile (several runs of one strategy, each from its own ``start``, share the
    work).
    Returns per strategy every reviewed hand of its file below ``hands``."""
    folder.mkdir(parents=True, exist_ok=True)
    if start is None:
        start = hands - 1 if last_first else 0
    paths = {name: hands_path(folder, rules_name, strategy_label(name), seed) for name in strategies}
    todo = sorted(((chunk, name) for name in strategies for chunk in missing_chunks(
        set(load_hands(paths[name])["hand"].astype(int)), hands)),
        key=lambda item: (_order(item[0].start, start, last_first), strategies.index(item[1])))
    if todo and time.monotonic() < deadline:
        with ProcessPoolExecutor(max(1, jobs)) as pool:
            pending: dict[Future[list[dict[str, object]]], Path] = {}
            for chunk, name in todo:
                while len(pending) >= max(1, jobs):
                    _append(pending, wait(pending, return_when=FIRST_COMPLETED).done)
                if time.monotonic() >= deadline:
                    break
                if set(chunk) <= set(load_hands(paths[name])["hand"].astype(int)):
                    continue  # another run kept it meanwhile
                pending[pool.submit(review_chunk, rules_name, name, seed, chunk)] = paths[name]
            _append(pending, wait(pending).done)
    kept = {name: load_hands(path) for name, path in paths.items()}
    return {name: rows[rows["hand"] < hands] for name, rows in kept.items()}


def _order(hand: int, start: int, last_first: bool) -> tuple[bool, int]:
    """Where ``hand`` comes in a run from ``start`` (up, or down with ``last_first``)."""
    if last_first:
        return hand > start, -hand
    return hand < start, hand


def _append(pending: dict[Future[list[dict[str, object]]], Path],
            finished: set[Future[list[dict[str, object]]]]) -> None:
    for future in finished:
        path = pending.pop(future)
        frame = pd.DataFrame(future.result(), columns=list(HAND_COLUMNS))
        frame.to_csv(path, mode="a", header=not path.exists(), index=False)


def measure(rules_name: str, strategy: str, rows: pd.DataFrame, seed: int,
            jobs: int) -> dict[str, object]:
    """One row of the data file from a strategy's reviewed hands."""
    totals = hand_reviews(rows, strategy).totals()
    row = totals[(totals["group"] == "strategy") & (totals["name"] == strategy)].iloc[0]
    out: dict[str, object] = {"strategy": strategy, "rules": rules_name, "seed": seed,
                              "hands": len(rows), "seat_hands": int(row["seat_hands"]),
                              "plays": int(row["plays"]),
                              "plays_lost": int(row["total_mistakes"])}
    for metric in METRICS:
        out.update({metric: float(row[metric]), f"{metric}_low": float(row[f"{metric}_low"]),
                    f"{metric}_high": float(row[f"{metric}_high"])})
    out["seconds_review"] = round(float(rows["seconds"].sum()), 1)
    out["jobs"] = jobs
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
    wanted = int(first.get("target_hands", first["hands"]))
    lines = [
        SECTION, "",
        f"Made by `python scripts/dd_yardstick.py --rules {first['rules']} --hands "
        f"{wanted} --seed {int(first['seed'])}` (data: "
        "[data/dd_yardstick.csv](../data/dd_yardstick.csv), the hands reviewed in "
        "[data/dd_yardstick/](../data/dd_yardstick/)). Each strategy played the same "
        f"hands from 0–0 against itself ({runs}), and every card play "
        "was reviewed as `spades-sim review` reviews it "
        "([docs/double-dummy.md](../docs/double-dummy.md)): what the play gave away against "
        "best play with every card visible. Per seat-hand: the double-dummy tricks its side "
        "lost, the hand-score difference it lost given the bids (the side's hand points minus "
        "the other side's), and the plays that lost any value (a trick, points or a nil); then "
        "the share of all card plays that lost value. 95% intervals, the hands as the units.",
        "",
        "| strategy | hands | tricks given away | 95% interval | points given away "
        "| 95% interval | plays that lost value | 95% interval | share of plays | 95% interval |",
        "|---|---:|---:|---|---:|---|---:|---|---:|---|",
    ]
    for row in data.to_dict("records"):
        cells = [f"`{row['strategy']}`", f"{int(row['hands']):,}"]
        for metric in METRICS:
            cells += _cell(row[metric], row[f"{metric}_low"], row[f"{metric}_high"],
                           percent=metric == "lost_share")
        lines.append("| " + " | ".join(cells) + " |")
    short = data[data["hands"] < FULL_HANDS]
    if len(short):
        counts = ", ".join(f"`{name}` {int(count):,}"
                           for name, count in zip(short["strategy"], short["hands"]))
        lines += ["", f"**Not finished**: {counts} hands of the {FULL_HANDS:,} a strategy the "
                  "yardstick is meant to have: "
                  "reviewing a hand with a nil bid takes the solver tens of seconds "
                  "(docs/double-dummy.md, \"Speed\"), so the run goes on over several sittings "
                  "(it keeps every hand reviewed). The intervals say how much is settled."]
    seconds = data["seconds_review"].sum()
    lines += ["", f"The reviews took {seconds / 3600:.1f} hours of one core in all "
              f"({', '.join(f'{r.strategy} {r.seconds_review / 3600:.1f}' for r in data.itertuples())}"
              ").", ""]
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
    parser.add_argument("--minutes", type=float, default=math.inf,
                        help="start no more reviews after this long (the hands done are kept)")
    parser.add_argument("--last-first", action="store_true",
                        help="review the missing hands from the last down (a second run of "
                             "the same strategy meets the first half-way)")
    parser.add_argument("--start", type=int, default=None,
                        help="the first hand to review (default: the first, or the last with "
                             "--last-first); the ones before it come last: a third run of a "
                             "strategy can start in the middle of what is missing")
    parser.add_argument("--hands-dir", default=str(HANDS),
                        help="where each strategy's reviewed hands are kept")
    parser.add_argument("--out", default=str(DATA), help="the data file (CSV)")
    parser.add_argument("--report", default=str(REPORT),
                        help="the report whose section is replaced ('' for none)")
    args = parser.parse_args()
    deadline = time.monotonic() + 60 * args.minutes
    strategies = list(args.strategies or STRATEGIES)
    print(f"{', '.join(strategies)}: {args.hands:,} hands each ...", file=sys.stderr, flush=True)
    reviewed = review_hands(args.rules, strategies, args.hands, args.seed, Path(args.hands_dir),
                            args.jobs, deadline, args.last_first, args.start)
    rows = []
    for strategy, hands in reviewed.items():
        if not len(hands):
            print(f"{strategy}: none reviewed yet", file=sys.stderr)
            continue
        row = measure(args.rules, strategy_label(strategy), hands, args.seed, args.jobs)
        row["target_hands"] = args.hands
        minutes = float(row["seconds_review"]) / 60  # type: ignore[arg-type]
        print(f"{row['strategy']}: {row['hands']:,} hands reviewed ({minutes:.0f} minutes of one core): "
              f"{row['tricks_lost']:.3f} tricks, {row['points_lost']:.3f} points given "
              f"away per seat-hand, {100 * float(row['lost_share']):.2f}% of plays lost value",
              file=sys.stderr, flush=True)
        rows.append(row)
    if not rows:
        return
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

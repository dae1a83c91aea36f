"""Measure the expert against its yardstick and the table's rules, and print a Markdown report.

    python scripts/expert_report.py > reports/expert.md

Strength in duplicate against expert-v1 and basic; nil defence; calibration and blind nil in
self-play; bidding against the outcome on random positions; how the bids answer the rules
and the score; the technique audit. Every figure carries its 95% interval: Wilson for
rates, normal for means, paired for duplicate and same-deal comparisons. Fixed seeds: the
same command prints the same report. About three minutes on 2 cores once compiled.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

from spades_sim import compare_strategies, simulate_games, simulate_hands
from spades_sim.analysis.metrics import _side_hands
from spades_sim.analysis.whatif import BLIND_LABEL, POLICY_LABEL, what_if
from spades_sim.cards import format_cards
from spades_sim.intervals import paired_interval, wilson_interval
from spades_sim.referee.audit import audit_file
from spades_sim.rules import load_preset
from spades_sim.run.catalogue import pick

NEW, YARDSTICK = "expert", "expert-v1"


def pct(value: float, digits: int = 1) -> str:
    return f"{100 * value:.{digits}f}%"


def span(low: float, high: float, scale: float = 100, unit: str = "%", digits: int = 1) -> str:
    return f"[{scale * low:.{digits}f}{unit}, {scale * high:.{digits}f}{unit}]"


def rate(successes: int, trials: int) -> str:
    low, high = wilson_interval(int(successes), int(trials))
    return f"{pct(successes / trials)} {span(low, high)}"


def mean(values: np.ndarray, digits: int = 2, unit: str = "") -> str:
    m, low, high = paired_interval(np.asarray(values, dtype=np.float64))
    return f"{m:+.{digits}f}{unit} [{low:+.{digits}f}, {high:+.{digits}f}]"


def plain_mean(values: np.ndarray, digits: int = 2) -> str:
    m, low, high = paired_interval(np.asarray(values, dtype=np.float64))
    return f"{m:.{digits}f} [{low:.{digits}f}, {high:.{digits}f}]"


def strength(pairs: int) -> None:
    print(f"## Strength in duplicate ({pairs:,} deal sequences × 2 games, seed 7)\n")
    print("Win share of the first strategy: a win 1, a game stopped at the hand cap ½; paired 95% "
          "interval over the deal sequences.\n")
    print("| rules | strategy | against | win share | 95% interval |")
    print("|---|---|---|---:|---|")
    runs = [("standard", NEW, YARDSTICK), ("standard", NEW, "basic"),
            ("standard", YARDSTICK, "basic")]
    runs += [(rules, NEW, YARDSTICK) for rules in ("jokers", "classic", "online-table",
                                                    "app-settings")]
    for rules, a, b in runs:
        result = compare_strategies(rules, a, b, pairs, seed=7)
        low, high = result.paired_interval
        print(f"| {rules} | `{a}` | `{b}` | {pct(result.share.mean())} | {span(low, high)} |")
    print()


def _seat_frame(records):
    return records.set_index(["game", "seat"]).sort_index()


def nil_defence(hands: int) -> None:
    print(f"## Nil defence ({hands:,} hands from 0–0, seed 5)\n")
    print(f"Seats 0 and 2 play `{YARDSTICK}` (the fixed nil bidder: its nils depend on its hand "
          "and its partner only, so both runs bid the same nils on the same deals); seats 1 and 3 "
          "defend with `basic` in one run and with `expert` in the other.\n")
    runs = {d: _seat_frame(simulate_hands("standard", [YARDSTICK, d], hands, seed=5,
                                          keep_records=True).records())
            for d in ("basic", NEW)}
    nil = {d: (frame["bid"] == 0) & (frame["blind"] == 0) & (frame.index.get_level_values(
        "seat") % 2 == 0) for d, frame in runs.items()}
    both = nil["basic"] & nil[NEW]
    made = {d: (runs[d].loc[both, "tricks"] == 0).to_numpy(np.float64) for d in runs}
    print("| defenders | nils | made | 95% interval |")
    print("|---|---:|---:|---|")
    for d in runs:
        print(f"| `{d}` | {int(both.sum()):,} | {rate(int(made[d].sum()), int(both.sum()))} |")
    diff = made[NEW] - made["basic"]
    print(f"\nPaired difference (expert defence − basic defence) over the same nils: "
          f"{mean(100 * diff, 2, ' points of %')}.\n")


def self_play(hands: int, games: int) -> None:
    print(f"## Self-play: calibration ({hands:,} hands from 0–0, seed 3) and blind nil "
          f"({games:,} games to 500, seed 3)\n")
    print("| strategy | nil bids per seat-hand | nil success | mean contract − tricks | "
          "contract make rate | nil success in games | blind nils per game | blind nil made |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name in (NEW, YARDSTICK):
        records = simulate_hands("standard", name, hands, seed=3, keep_records=True).records()
        nil = (records["bid"] == 0) & (records["blind"] == 0)
        nil_made = int((records.loc[nil, "tricks"] == 0).sum())
        sides = _side_hands(records)
        sides = sides[sides["contract"] > 0]
        error = (sides["contract"] - sides["count_tricks"]).to_numpy(np.float64)
        made = int(sides["made"].sum())
        summary = simulate_games("standard", name, games, seed=3).summary()
        blind = pick(summary, "blind_success")
        blind_bids = int(blind["n"])
        blind_text = rate(round(blind["value"] * blind_bids), blind_bids) if blind_bids else "–"
        game_nils = pick(summary, "nil_success")
        game_nil_text = rate(round(game_nils["value"] * game_nils["n"]), int(game_nils["n"]))
        print(f"| `{name}` | {rate(int(nil.sum()), len(records))} | "
              f"{rate(nil_made, int(nil.sum()))} | {mean(error)} | "
              f"{rate(made, len(sides))} | {game_nil_text} | {blind_bids / games:.3f} | "
              f"{blind_text} |")
    print("\nMean contract − tricks is over side-hands with a contract (the count bidders' "
          "tricks); negative means overtricks. Nil success in games counts every nil of the "
          "games, the gambles near the end included (a side behind near the target bids nils "
          "it would not bid at 0–0).\n")


def _random_position(rng: np.random.Generator) -> dict:
    deck = rng.permutation(52)[:13]
    score = [int(x) for x in rng.integers(-10, 46, size=2) * 10]
    bags = [int(x) for x in rng.integers(0, 10, size=2)]
    return {"hand": format_cards(sorted(int(c) for c in deck)), "score": score, "bags": bags,
            "hand_index": max(1, (max(score) + 50) // 60)}


def against_the_outcome(positions: int, deals: int) -> None:
    print(f"## Bidding against the outcome ({positions} random positions, {deals:,} completions "
          "each, seed 11)\n")
    print("A position is a hand for seat 0, the first to bid, a score for each side (−100 to "
          "450) and bags (0–9). `spades-sim hand` plays every completion of the other hands once "
          "per candidate bid and on to the end of the game; a position counts when some candidate "
          "wins the game more often than the strategy's own bid with a paired 95% interval wholly "
          "above 0. `hand` judges blind nil as it is bid, before looking (on random cards of "
          "the seat, against the strategy's own bid on the same deals); the last columns leave "
          "it out.\n")
    rng = np.random.default_rng(11)
    chosen = [_random_position(rng) for _ in range(positions)]
    print("| strategy | beaten by some candidate | 95% interval | beaten by a bid made with the "
          "cards seen | 95% interval |")
    print("|---|---:|---|---:|---|")
    for name in (NEW, YARDSTICK):
        beaten = seen = 0
        for k, position in enumerate(chosen):
            result = what_if("standard", position["hand"], seat=0, strategies=name,
                             score=position["score"], bags=position["bags"],
                             hand_index=position["hand_index"], deals=deals, seed=100 + k)
            table = result.table[result.table["bid"] != POLICY_LABEL]
            better = table[table["change_low"] > 0]
            beaten += len(better) > 0
            seen += (better["bid"] != BLIND_LABEL).any()
        cells = []
        for count in (beaten, seen):
            low, high = wilson_interval(int(count), positions)
            cells += [f"{count} of {positions} ({pct(count / positions)})", span(low, high)]
        print(f"| `{name}` | " + " | ".join(cells) + " |")
    print()


def rule_response(hands: int, games: int) -> None:
    standard = load_preset("standard")
    print("## How the expert's bids answer the rules (expert on every seat)\n")
    print(f"Nil value ({hands:,} hands from 0–0 each, seed 13):\n")
    print("| nil | nil bids per seat-hand | 95% interval |")
    print("|---|---:|---|")
    for value in (50, 100, 200):
        summary = simulate_hands(standard.replace(nil_value=value), NEW, hands,
                                 seed=13).summary()
        row = pick(summary, "nil_bid_rate")
        print(f"| ±{value} | {pct(row['value'], 2)} | {span(row['low'], row['high'], digits=2)} |")
    print(f"\nBag rule ({games:,} games to 500 each, seed 13):\n")
    print("| bag rule | bags per side-hand | 95% interval |")
    print("|---|---:|---|")
    for label, limit, penalty in (("10 bags −100", 10, 100), ("5 bags −50", 5, 50),
                                  ("−10 a bag", 1, 10), ("no penalty", 10, 0)):
        summary = simulate_games(standard.replace(bag_limit=limit, bag_penalty=penalty), NEW,
                                 games, seed=13).summary()
        row = pick(summary, "bags")
        print(f"| {label} | {row['value']:.3f} | {span(row['low'], row['high'], 1, '', 3)} |")
    print(f"\nScoring of a set and of overtricks ({hands:,} hands from 0–0 each, seed 13; the mean "
          "contract is over side-hands with a contract):\n")
    print("| rules | mean contract | bags per side-hand |")
    print("|---|---:|---:|")
    for label, rules in (("standard (set −10 a trick, overtrick +1)", standard),
                         ("set scores 0 (`failed_contract = \"zero\"`)",
                          standard.replace(failed_contract="zero")),
                         ("overtrick 0", standard.replace(overtrick_points=0)),
                         ("overtrick −1", standard.replace(overtrick_points=-1))):
        sides = _side_hands(simulate_hands(rules, NEW, hands, seed=13,
                                           keep_records=True).records())
        contract = sides.loc[sides["contract"] > 0, "contract"].to_numpy(np.float64)
        # Per hand, the two sides' mean: the sides of one hand share its tricks.
        bags = sides.groupby(["game", "hand"])["bags"].mean().to_numpy(np.float64)
        print(f"| {label} | {plain_mean(contract)} | {plain_mean(bags, 3)} |")
    print()


def score_response(count: int) -> None:
    print(f"## The bid and the score ({count} random hands, seat 0 first to bid, seed 17)\n")
    rng = np.random.default_rng(17)
    states = {"0–0, first hand": ((0, 0), 0), "460–300 (a made 4 wins the game)": ((460, 300), 8),
              "300–460 (the opponents are 40 short)": ((300, 460), 8)}
    bids = {label: [] for label in states}
    for k in range(count):
        hand = format_cards(sorted(int(c) for c in rng.permutation(52)[:13]))
        for label, (score, hand_index) in states.items():
            result = what_if("standard", hand, seat=0, strategies=NEW, score=score,
                             hand_index=hand_index, deals=1, seed=k)
            bids[label].append(str(result.choices.idxmax()))
    as_number = {label: np.array([0 if b in ("nil", "blind nil") else int(b) for b in values],
                                 dtype=np.float64) for label, values in bids.items()}
    base = as_number["0–0, first hand"]
    print("A nil or blind nil counts as a bid of 0.\n")
    print("| score (ours–theirs) | mean bid | change against 0–0 (paired) | nils | blind nils |")
    print("|---|---:|---:|---:|---:|")
    for label, values in as_number.items():
        change = "–" if label.startswith("0–0") else mean(values - base)
        print(f"| {label} | {plain_mean(values)} | {change} | {bids[label].count('nil')} | "
              f"{bids[label].count('blind nil')} |")
    print()


def audit(hands: int) -> None:
    print(f"## Technique audit ({hands:,} hands of self-play each, seed 1; `spades-sim audit`)\n")
    print("| strategy | hands with any flagged error | 95% interval | per pattern |")
    print("|---|---:|---|---|")
    with tempfile.TemporaryDirectory() as folder:
        for name in (NEW, YARDSTICK):
            log = Path(folder) / f"{name}.jsonl"
            subprocess.run([sys.executable, "-m", "spades_sim", "simulate", "--hands", str(hands),
                            "--seed", "1", "--strategy", name, "--log", str(log), "--log-deals",
                            f"0:{hands}", "--quiet"], check=True, stdout=subprocess.DEVNULL)
            result = audit_file(log)
            rows = {row.pattern: row for row in result.counts}
            worst = ", ".join(f"{row.pattern} {pct(row.share, 2)}" for row in result.counts
                              if row.pattern != "any" and row.hands)
            total = rows["any"]
            print(f"| `{name}` | {pct(total.share, 2)} | {span(total.low, total.high, digits=2)} "
                  f"| {worst or 'none'} |")
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=4_000)
    parser.add_argument("--hands", type=int, default=200_000)
    parser.add_argument("--games", type=int, default=4_000)
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--deals", type=int, default=500)
    parser.add_argument("--audit-hands", type=int, default=5_000)
    args = parser.parse_args()
    print("# The expert against its yardstick and the table's rules\n")
    print(f"Made by `python scripts/expert_report.py --pairs {args.pairs} --hands {args.hands} "
          f"--games {args.games} --positions {args.positions} --deals {args.deals} "
          f"--audit-hands {args.audit_hands}`. `expert-v1` is the expert of the first release, "
          "kept unchanged as the yardstick; rules `standard` unless said.\n")
    strength(args.pairs)
    nil_defence(args.hands)
    self_play(args.hands, args.games)
    rule_response(args.hands, args.games)
    score_response(200)
    against_the_outcome(args.positions, args.deals)
    audit(args.audit_hands)


if __name__ == "__main__":
    main()

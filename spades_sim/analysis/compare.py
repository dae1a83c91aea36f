"""Duplicate comparison of two strategies: every deal sequence played twice, seats swapped.

Game ``g`` of a run with seed ``s`` deals the same cards to the same seats
whatever plays them (counter-based deals), so playing games ``0 … n-1`` once with
strategy A on side 0 and once with A on side 1 gives each strategy both halves
of every deal sequence; the luck of the cards cancels in the pair. Results are
per pair, and intervals are paired: the mean of the n pair values ± 1.96 of its
standard error. The unpaired interval of the same 2n games is reported beside it,
to show how much the pairing sharpens the comparison.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any, cast

import numpy as np
import pandas as pd

from ..agents import BotFault, LoadedAgent, TableGame, play_duplicate, resolve_agent
from ..intervals import paired_interval, ratio_difference, share_interval, wilson_interval
from ..kernel.strategies import Strategy, get_strategy
from ..rules import RuleSet, resolve_rules
from ..run.catalogue import Metric, Units, frame_units, metric
from ..run.records import log_game_frame
from ..run.simulate import (
    DEFAULT_MAX_HANDS,
    Run,
    RunError,
    check_size,
    resolve_seed,
    simulate_game_range,
    simulate_games,
)
from .figures import colours, error_bars, percent_ticks, plain_text, pyplot, save
from .formatting import PERCENT_UNITS, value_text
from .metrics import Payouts, check_buy_in
from .sprt import Sprt, SprtResult, run_sprt

if TYPE_CHECKING:
    from matplotlib.axes import Axes


class PairsAlike(Enum):
    """How the pairs came out when every pair came out the same for A, which is when the paired
    interval has zero width; the value is the wording.

    A game counts 1 for its winner and ½ each when unfinished, so a pair's share for A (the
    mean of its two games) is 1, ¾, ½, ¼ or 0, and ½ is one game to each or both unfinished.
    """

    SPLIT = "every pair split evenly, one game to each"
    UNFINISHED = "every game unfinished"
    SPLIT_OR_UNFINISHED = "every pair split evenly: one game to each, or both unfinished"
    A_WON = "A won both games of every pair"
    B_WON = "B won both games of every pair"
    A_WON_ONE = "A won one game of every pair, the other unfinished"
    B_WON_ONE = "B won one game of every pair, the other unfinished"


_ALIKE_BY_SHARE = {1.0: PairsAlike.A_WON, 0.75: PairsAlike.A_WON_ONE,
                   0.25: PairsAlike.B_WON_ONE, 0.0: PairsAlike.B_WON}


TABLE_HANDS_PER_SECOND = 800
"""About how many hands a second the Python table plays with quick agents on a free core
(``scripts/bench.py --table``: some 820 per CPU second), for the note a comparison on the
table prints."""


@dataclass
class Comparison:
    """The outcome of :func:`compare_strategies` or :func:`compare_agents`; ``summary()`` is the
    table to print."""

    rules: RuleSet
    a: Strategy | LoadedAgent
    """A: a strategy of the kernel, or an agent played at the Python table."""
    b: Strategy | LoadedAgent
    seed: int
    pairs: int
    interrupted: bool
    rows: list[dict[str, Any]]
    share: np.ndarray
    """A's result in each pair of games: a win 1, a loss 0, an unfinished game ½, averaged."""
    unfinished: np.ndarray
    """Unfinished games in each pair (0, 1 or 2)."""
    fault: BotFault | None = None
    """At the Python table: the bot that stopped the comparison (the pairs before it count)."""

    def summary(self) -> pd.DataFrame:
        """One row per metric: A's value, B's value, the difference A − B and its paired interval."""
        return pd.DataFrame(self.rows)

    @property
    def paired_interval(self) -> tuple[float, float]:
        """95% interval of A's win share from the pairs, inside [0, 1]
        (:func:`~spades_sim.intervals.share_interval`)."""
        return share_interval(self.share)[1:]

    @property
    def pairs_alike(self) -> PairsAlike | None:
        """What every pair came to when all came to the same share for A; None when they differ
        (or there are none). With two pairs or more the paired interval then has zero width."""
        if not self.pairs or np.any(self.share != self.share[0]):
            return None
        share = float(self.share[0])
        if share != 0.5:
            return _ALIKE_BY_SHARE[share]
        if not self.unfinished.any():
            return PairsAlike.SPLIT
        if np.all(self.unfinished == 2):
            return PairsAlike.UNFINISHED
        return PairsAlike.SPLIT_OR_UNFINISHED

    @property
    def unpaired_interval(self) -> tuple[float, float]:
        """95% interval of A's win share treating the 2n games as independent (Wilson)."""
        wins = float(self.share.sum() * 2)
        return wilson_interval(round(wins), 2 * self.pairs)

    def economics(self, buy_in: float, rake: float) -> pd.DataFrame:
        """Expected profit per game of a player of A and of B at a table with this buy-in and
        rake (see :class:`spades_sim.analysis.metrics.Payouts`), with paired 95% intervals over the deal
        sequences, and the break-even win rate (unfinished games held at their observed rate).

        One row per strategy: ``label`` (its name), ``win_rate`` (games won, unfinished not
        counted), ``profit``, ``low``, ``high``, ``break_even``.
        """
        check_buy_in(buy_in)
        payouts = Payouts(buy_in, rake, self.rules.seat_count, 2)
        rows = []
        for strategy, share in ((self.a, self.share), (self.b, 1 - self.share)):
            wins = 2 * share - self.unfinished / 2  # share = (wins + unfinished / 2) / 2
            profit = payouts.profit(wins, np.zeros_like(wins), self.unfinished) / 2 - buy_in / 2
            mean, low, high = paired_interval(profit)
            rows.append({"label": strategy.name, "win_rate": float(wins.mean()) / 2,
                         "profit": mean, "low": low, "high": high,
                         "break_even": payouts.break_even(
                             unfinished=float(self.unfinished.mean()) / 2)})
        return pd.DataFrame(rows)


COMPARED = ("win_share", "points", "nil_bid_rate", "nil_success", "bags", "penalty_points")
"""The catalogue metrics a duplicate comparison reports, by key."""


def _check_two_sided(rules: RuleSet) -> None:
    if rules.side_count != 2:
        raise RunError(f"rules mode={str(rules.mode)!r}: allowed a two-sided table (partnership or"
                       " two-player) for a duplicate comparison")


def pair_shares(units: list[Units]) -> np.ndarray:
    """A's score in each pair (a win 1, an unfinished game ½, the mean of the two games) from
    the units of the two runs: A on side 0, then on side 1."""
    return _pooled(units, metric("win_share"), (0, 1))[0] / 2


def _pooled(units: list[Units], metric: Metric, a_sides: tuple[int, int]
            ) -> tuple[np.ndarray, np.ndarray]:
    """Per pair: the numerator and denominator of ``metric`` for the strategy that sat on side
    ``a_sides[0]`` of the first run and ``a_sides[1]`` of the second, summed over both games."""
    (y0, x0), (y1, x1) = units[0].pair(metric, [a_sides[0]]), units[1].pair(metric, [a_sides[1]])
    return y0 + y1, x0 + x1


def compare_strategies(raw_rules: str | RuleSet, a: str | Strategy, b: str | Strategy, games: int,
                       seed: int | None = None, threads: int | None = None,
                       max_hands: int = DEFAULT_MAX_HANDS,
                       on_block: Callable[[int], None] | None = None) -> Comparison:
    """Play ``games`` deal sequences twice (A on side 0, then A on side 1) and compare A with B.

    Needs a two-sided table (partnership or two-player). With ``on_block`` the two
    runs report progress game by game (2 × ``games`` in all).
    """
    rules = resolve_rules(raw_rules)
    _check_two_sided(rules)
    first, second = get_strategy(a), get_strategy(b)
    seed = resolve_seed(seed)  # one seed for both runs: the same deals
    runs: list[Run] = []
    for order in ([first, second], [second, first]):
        run = simulate_games(rules, order, games, seed=seed, threads=threads, keep_records=True,
                             max_hands=max_hands, on_block=on_block)
        runs.append(run)
        if run.interrupted:
            break
    pairs = min(run.done for run in runs) if len(runs) == 2 else 0
    frames = [run.records().iloc[:pairs] for run in runs] if pairs else []
    interrupted = any(run.interrupted for run in runs)
    return _compared(rules, first, second, seed, frames, interrupted)


def play_pairs(rules: RuleSet, a: Strategy, b: Strategy, start: int, count: int, seed: int,
               threads: int | None = None, max_hands: int = DEFAULT_MAX_HANDS,
               on_block: Callable[[int], None] | None = None) -> list[pd.DataFrame] | None:
    """Deal sequences ``start`` … ``start + count - 1`` of ``seed`` played twice, A on side 0
    and then on side 1: the two game frames (A's pair scores are :func:`pair_shares` of their
    units), or None when Ctrl-C stopped either run. The pairs of :func:`compare_strategies`
    with that seed, a block at a time (a sequential test's blocks, a tuning search's steps)."""
    played = []
    for order in ([a, b], [b, a]):
        run = simulate_game_range(rules, order, start, count, seed, threads, max_hands, on_block)
        if run.interrupted:
            return None
        played.append(run.records())
    return played


SPRT_BLOCK = 50
"""Pairs a sequential test plays between two looks at its LLR."""


def sprt_strategies(raw_rules: str | RuleSet, a: str | Strategy, b: str | Strategy, test: Sprt,
                    games: int, seed: int | None = None, threads: int | None = None,
                    max_hands: int = DEFAULT_MAX_HANDS, block: int = SPRT_BLOCK,
                    on_block: Callable[[int], None] | None = None
                    ) -> tuple[Comparison, SprtResult]:
    """:func:`compare_strategies` that stops when a sequential test on the pairs accepts one of
    its hypotheses (:mod:`spades_sim.analysis.sprt`), ``games`` deal sequences at most.

    Pairs are played ``block`` at a time, deal sequences 0, 1, 2 … of the seed in order (the
    same as those of :func:`compare_strategies`), and the LLR is looked at after each block.
    The comparison covers every pair played; Ctrl-C keeps the blocks finished.
    """
    rules = resolve_rules(raw_rules)
    _check_two_sided(rules)
    first, second = get_strategy(a), get_strategy(b)
    check_size("games", games)
    seed = resolve_seed(seed)
    frames: list[list[pd.DataFrame]] = [[], []]
    interrupted = False

    def play_block(start: int, count: int) -> np.ndarray | None:
        nonlocal interrupted
        played = play_pairs(rules, first, second, start, count, seed, threads, max_hands, on_block)
        if played is None:
            interrupted = True
            return None
        for kept, frame in zip(frames, played, strict=True):
            kept.append(frame)
        return pair_shares([frame_units(frame) for frame in played])

    result = run_sprt(test, play_block, games, block)
    joined = [pd.concat(kept, ignore_index=True) for kept in frames] if frames[0] else []
    return _compared(rules, first, second, seed, joined, interrupted), result


def compare_agents(raw_rules: str | RuleSet, a: str | LoadedAgent, b: str | LoadedAgent,
                   games: int, seed: int | None = None,
                   max_hands: int = DEFAULT_MAX_HANDS, time_limit: float | None = None,
                   on_game: Callable[[TableGame], None] | None = None) -> Comparison:
    """:func:`compare_strategies` at the Python table: ``a`` and ``b`` are bots
    (``path/to/bot.py:NAME``, ``package.module:NAME``) or built-in agents by name
    (:func:`spades_sim.agents.resolve_agent`), or such agents already loaded; every deal
    sequence is played both ways, game by game, through the referee.

    A bot fault (an illegal move, an exception, a decision over ``time_limit``) stops the
    comparison: :attr:`Comparison.fault` says what happened, and the pairs finished before it
    are compared.
    """
    rules = resolve_rules(raw_rules)
    first, second = (side if isinstance(side, LoadedAgent) else resolve_agent(side) for side in (a, b))
    seed = resolve_seed(seed)
    run = play_duplicate(rules, first.make, second.make, games, seed,
                         names=(first.name, second.name), time_limit=time_limit,
                         max_hands=max_hands, on_game=on_game)
    pairs = run.pairs
    frames = ([log_game_frame(rules, table.logs).iloc[:pairs] for table in (run.a_first, run.b_first)]
              if pairs else [])
    comparison = _compared(rules, first, second, seed, frames, run.interrupted)
    comparison.fault = run.fault
    return comparison


def _compared(rules: RuleSet, first: Strategy | LoadedAgent, second: Strategy | LoadedAgent,
              seed: int, frames: list[pd.DataFrame], interrupted: bool) -> Comparison:
    """The comparison of the game frames of the two runs (A on side 0, then on side 1), cut to
    the pairs both finished."""
    if not frames:
        return Comparison(rules, first, second, seed, 0, True, [], np.zeros(0), np.zeros(0))
    pairs = len(frames[0])
    # A sat on side 0 in the first run and on side 1 in the second; B the other way round.
    units = [frame_units(frame) for frame in frames]
    rows = [_pair_row(metric(key, "games"), units) for key in COMPARED]
    share = pair_shares(units)
    # A − B in win share is 2 × A's share − 1: its interval is the share's, so it stays in range.
    _, low, high = share_interval(share)
    rows[COMPARED.index("win_share")].update(low=2 * low - 1, high=2 * high - 1)
    # Two frames here (pairs > 0), so the sum is an array, never sum's start value 0.
    unfinished = cast(np.ndarray,
                      sum((frame["winner"].to_numpy() < 0).astype(np.float64) for frame in frames))
    return Comparison(rules, first, second, seed, pairs, interrupted, rows, share, unfinished)


def _pair_row(chosen: Metric, units: list[Units]) -> dict[str, Any]:
    """A's and B's value of one metric (sums over both games of every pair) and the paired
    difference, by the delta method over pairs, so a pair with no denominator (no nil bid)
    weighs nothing."""
    (na, da), (nb, db) = _pooled(units, chosen, (0, 1)), _pooled(units, chosen, (1, 0))
    difference, low, high = ratio_difference(na, da, nb, db)
    return {"key": chosen.key, "metric": chosen.label, "unit": chosen.unit,
            "a": na.sum() / da.sum() if da.sum() else math.nan,
            "b": nb.sum() / db.sum() if db.sum() else math.nan,
            "difference": difference, "low": low, "high": high, "pairs": na.size}


@plain_text
def plot_comparison(comparison: Comparison, path: str, break_even: float | None = None) -> None:
    """A's win share against 50% and A − B in every other compared metric, each with its paired
    95% interval; ``break_even`` (a share: the win rate at which a player breaks even at the
    table's economics) is drawn beside 50%. PNG or SVG by the name."""
    plt = pyplot()
    rows = [row for row in comparison.rows if row["key"] != "win_share"]
    fig = plt.figure(figsize=(10, 1.0 + 0.72 * len(rows)), layout="constrained")
    grid = fig.add_gridspec(len(rows), 2, width_ratios=[1, 1.25])
    _plot_win_share(fig.add_subplot(grid[:, 0]), comparison, break_even)
    for k, row in enumerate(rows):
        _plot_difference(fig.add_subplot(grid[k, 1]), row, first=k == 0)
    fig.suptitle(f"{comparison.rules.name}: {comparison.pairs:,} deal sequences, both ways: "
                 f"{comparison.a.name} (A) vs {comparison.b.name} (B)", fontsize=10)
    fig.supxlabel("Intervals are paired over the deal sequences (each played with the seats "
                  "swapped). Right: A − B; right of 0, A's value is higher.", fontsize=8,
                  color="#444444")
    save(fig, path)


def _plot_win_share(ax: Axes, comparison: Comparison, break_even: float | None) -> None:
    """Both strategies' win shares (A's and its complement) with the paired interval."""
    share = 100 * float(comparison.share.mean())
    low, high = (100 * bound for bound in comparison.paired_interval)
    names = [comparison.a.name, comparison.b.name]
    palette = colours(names)
    shares, lows, highs = [share, 100 - share], [low, 100 - high], [high, 100 - low]
    errors = error_bars(shares, lows, highs)
    for k, name in enumerate(names):
        ax.errorbar(shares[k], k, xerr=errors[:, k:k + 1], fmt="o", markersize=7, capsize=5,
                    color=palette[name])
        ax.annotate(f"{shares[k]:.1f}%", (shares[k], k), xytext=(0, 9),
                    textcoords="offset points", ha="center", fontsize=8)
    ax.axvline(50, color="grey", linewidth=0.8, linestyle="--", label="even (50%)")
    if break_even is not None:
        ax.axvline(100 * break_even, color="#444444", linewidth=1, linestyle=":",
                   label=f"break-even win rate {100 * break_even:.2f}%")
    ax.set_yticks([0, 1], [f"{name} ({side})" for name, side in zip(names, "AB")], fontsize=9)
    ax.set_ylim(1.6, -0.6)
    percent_ticks(ax.xaxis)
    ax.set_xlabel("win share in duplicate (win 1, unfinished ½), paired 95% interval",
                  fontsize=9)
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.14), ncols=1)
    ax.grid(axis="x", color="#eeeeee", linewidth=0.6)
    ax.set_axisbelow(True)


def _plot_difference(ax: Axes, row: dict[str, Any], first: bool) -> None:
    """One metric's A − B (a summary row) on its own scale, with A's and B's values beside it."""
    percent = row["unit"] in PERCENT_UNITS
    scale = 100 if percent else 1
    difference, low, high = (scale * row[name] for name in ("difference", "low", "high"))
    ax.axvline(0, color="grey", linewidth=0.8)
    if math.isnan(difference):
        ax.text(0.5, 0, "n/a", transform=ax.get_yaxis_transform(), ha="center", va="center",
                fontsize=8, color="grey")
    else:
        ax.errorbar(difference, 0, xerr=error_bars([difference], [low], [high]), fmt="o",
                    color="#333333", markersize=5, capsize=3)
    unit = "percentage points" if percent else row["unit"]
    digits = 1 if percent else 2
    values = (f"A {value_text(row['a'], row['unit'], digits)}, "
              f"B {value_text(row['b'], row['unit'], digits)}")
    ax.set_yticks([0], [f"{row['metric']}\n{values}"], fontsize=8)
    ax.set_ylim(-0.8, 0.8)
    ax.tick_params(axis="x", labelsize=7)
    ax.set_xlabel(f"A − B ({unit})", fontsize=7, labelpad=1)
    if first:
        ax.set_title("A − B, paired 95% interval", fontsize=9)

"""Grid search over strategy parameters, every setting in duplicate on the same deals.

Each setting of the grid plays :func:`spades_sim.analysis.compare.compare_strategies`
against the same opponent with the same seed, so every setting meets the same
deal sequences (common random numbers) and differences between settings are not
the luck of the cards.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from ..kernel.strategies import (
    MAX_PARAM_VALUES,
    Strategy,
    StrategyError,
    get_strategy,
    parse_param,
)
from ..outputs import shown
from ..rules import RuleSet, resolve_rules
from ..run.simulate import DEFAULT_MAX_HANDS, resolve_seed
from .compare import compare_strategies
from .figures import colours, error_bars, percent_ticks, plain_text, pyplot, save

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

MAX_SETTINGS = MAX_PARAM_VALUES
"""The most grid points one tuning run may ask for."""


def parse_param_range(raw_range: str) -> tuple[str, list[float]]:
    """A ``--param`` of ``tune`` (:func:`~spades_sim.kernel.strategies.parse_param`, the one
    grammar): a parameter of the strategy tuned (no SIDE, or side 0 as in compare-strategies)
    and its grid values, a list ``A,B,…`` or ``LO..HI:STEP`` (HI included).

    >>> parse_param_range("bid_offset=-1..1:0.5")
    ('bid_offset', [-1.0, -0.5, 0.0, 0.5, 1.0])
    >>> parse_param_range("0.set_slack=0,4")
    ('set_slack', [0.0, 4.0])
    """
    setting = parse_param(raw_range)
    if setting.side not in (None, 0):
        raise StrategyError(f"param={shown(raw_range)!r}: allowed a parameter of the strategy "
                            "tuned, NAME=… or 0.NAME=…")
    if not setting.values:
        raise StrategyError(f"param={shown(raw_range)!r}: allowed a grid of values, a list "
                            "NAME=A,B,… or NAME=LO..HI:STEP, e.g. bid_offset=-1..1:0.5")
    return setting.name, list(setting.values)


@dataclass
class TuneResult:
    """Every setting's duplicate result against the opponent, best first in ``table``."""

    rules: RuleSet
    base: Strategy
    against: Strategy
    seed: int
    games: int
    names: list[str]
    table: pd.DataFrame
    """One row per setting: the parameters, win share with its paired 95% interval, points per hand."""
    interrupted: bool

    @property
    def best(self) -> pd.Series:
        """The setting with the highest win share."""
        return self.table.iloc[0]


def tune(raw_rules: str | RuleSet, strategy: str | Strategy, ranges: list[tuple[str, list[float]]],
         against: str | Strategy, games: int, seed: int | None = None,
         threads: int | None = None, max_hands: int = DEFAULT_MAX_HANDS,
         on_block: Callable[[int], None] | None = None) -> TuneResult:
    """Play every combination of ``ranges`` (a grid) in duplicate against ``against``.

    All settings use one seed, hence the same deals. An interrupted run keeps the
    settings that finished.
    """
    rules = resolve_rules(raw_rules)
    base, opponent = get_strategy(strategy), get_strategy(against)
    names = [name for name, _ in ranges]
    if len(set(names)) != len(names):
        raise StrategyError("param: allowed each parameter once (" + ", ".join(names) + ")")
    grid = list(itertools.product(*(values for _, values in ranges)))
    if len(grid) > MAX_SETTINGS:
        raise StrategyError(f"param: allowed at most {MAX_SETTINGS} settings ({len(grid)} asked)")
    seed = resolve_seed(seed)
    rows = []
    interrupted = False
    for values in grid:
        setting = dict(zip(names, values))
        result = compare_strategies(rules, base.variant(setting), opponent, games, seed, threads, max_hands,
                                    on_block=on_block)
        if result.interrupted:
            interrupted = True
            break
        low, high = result.paired_interval
        points = result.summary().set_index("key").loc["points"]
        rows.append({**setting, "win_share": float(result.share.mean()), "low": low, "high": high,
                     "points_per_hand_diff": points["difference"]})
    table = pd.DataFrame(rows, columns=[*names, "win_share", "low", "high",
                                        "points_per_hand_diff"])
    table = table.sort_values("win_share", ascending=False, kind="stable").reset_index(drop=True)
    return TuneResult(rules, base, opponent, seed, games, names, table, interrupted)


HEATMAP_INTERVALS = 36
"""The most cells a heatmap writes each one's interval in (more would not fit their cells)."""


@plain_text
def plot_tuning(result: TuneResult, path: str) -> bool:
    """The win share of every setting against 50%, with its paired 95% interval: a line plot
    (one parameter) or a heatmap with the values in its cells (two); False if not drawable."""
    if len(result.names) not in (1, 2) or result.table.empty:
        return False
    plt = pyplot()

    fig, ax = plt.subplots(figsize=(6.4, 4.2) if len(result.names) == 1 else (7.2, 5.2),
                           layout="constrained")
    against = result.against.name
    if len(result.names) == 1:
        _tuning_line(ax, result)
    else:
        _tuning_heatmap(fig, ax, result)
    ax.set_title(f"{result.base.name} against {against} on {result.rules.name}: "
                 f"{result.games:,} deal sequences x 2 a setting", fontsize=9)
    save(fig, path)
    return True


def _tuning_line(ax: Axes, result: TuneResult) -> None:
    name = result.names[0]
    ordered = result.table.sort_values(name)
    share, low, high = (100 * ordered[column] for column in ("win_share", "low", "high"))
    colour = colours([result.base.name])[result.base.name]
    ax.errorbar(ordered[name], share, yerr=error_bars(share, low, high), marker="o", capsize=4,
                color=colour, label="win share, paired 95% interval")
    best = result.best
    ax.plot(best[name], 100 * best["win_share"], marker="*", markersize=14, color=colour,
            linestyle="none", label=f"best: {name}={best[name]:g}, "
                                    f"{100 * best['win_share']:.1f}%")
    ax.axhline(50, color="grey", linewidth=0.8, linestyle="--", label="even (50%)")
    if len(ordered) <= 12:
        ax.set_xticks(ordered[name], [f"{value:g}" for value in ordered[name]])
    ax.set_xlabel(f"{name} (parameter value)")
    ax.set_ylabel(f"win share against {result.against.name}")
    percent_ticks(ax.yaxis)
    ax.legend(fontsize=7)


def _tuning_heatmap(fig: Figure, ax: Axes, result: TuneResult) -> None:
    from matplotlib.patches import Rectangle

    x_name, y_name = result.names
    table = result.table
    shares, lows, highs = (100 * table.pivot(index=y_name, columns=x_name, values=column)
                           .sort_index().sort_index(axis=1)
                           for column in ("win_share", "low", "high"))
    grid = shares.to_numpy()
    # Centred on 50%, so that the colour says which side of even a setting is, and how far.
    spread = max(5.0, float(np.nanmax(np.abs(grid - 50))))
    image = ax.imshow(grid, origin="lower", aspect="auto", cmap="RdBu", vmin=50 - spread,
                      vmax=50 + spread)
    cells = grid.size
    size = 8 if cells <= 16 else 7 if cells <= HEATMAP_INTERVALS else 6
    for i, j in np.ndindex(grid.shape):
        value = grid[i, j]
        if np.isnan(value):
            continue
        low, high = lows.to_numpy()[i, j], highs.to_numpy()[i, j]
        text = f"{value:.1f}%"
        if cells <= HEATMAP_INTERVALS:
            text += f"\n[{low:.1f}, {high:.1f}]"
        ax.text(j, i, text, ha="center", va="center", fontsize=size,
                fontweight="bold" if low > 50 or high < 50 else "normal",
                color="white" if abs(value - 50) > 0.6 * spread else "black")
    best = result.best
    column = list(shares.columns).index(best[x_name])
    row = list(shares.index).index(best[y_name])
    ax.add_patch(Rectangle((column - 0.5, row - 0.5), 1, 1, fill=False, edgecolor="black",
                           linewidth=2))
    ax.set_xticks(range(grid.shape[1]), [f"{v:g}" for v in shares.columns])
    ax.set_yticks(range(grid.shape[0]), [f"{v:g}" for v in shares.index])
    ax.set_ylabel(y_name)
    bar = fig.colorbar(image, ax=ax, label=f"win share against {result.against.name}")
    percent_ticks(bar.ax.yaxis)
    ax.set_xlabel(f"{x_name}\nIn each cell: the win share and its paired 95% interval (bold: "
                  "the interval excludes 50%); framed: the best setting.", fontsize=9)

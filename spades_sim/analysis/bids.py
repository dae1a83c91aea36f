"""Bid accuracy and bidding profiles of strategies: ``spades-sim bids``.

Each strategy plays the same hands (one seed, hands from 0-0) on side 0 against
one opponent on side 1, and its side's bids are summarised: how often it bids
what (the profile), how far its contracts miss the tricks its count bidders take
(bid minus tricks), and the rates of :func:`spades_sim.analysis.metrics.hand_metrics`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

import numpy as np
import pandas as pd

from ..kernel.strategies import Strategy, StrategyError, get_strategy
from ..outputs import shown
from ..rules import RuleSet, resolve_rules
from ..run.simulate import resolve_seed, simulate_hands
from .figures import colours, error_bars, line_looks, plain_text, pyplot, save
from .metrics import BID_COLUMNS, bid_minus_tricks, bid_profile

if TYPE_CHECKING:
    from matplotlib.axes import Axes


@dataclass
class BidProfiles:
    """What :func:`bid_profiles` produced: three tidy tables with a ``strategy`` column."""

    rules: RuleSet
    against: Strategy
    seed: int
    hands: int
    interrupted: bool
    metrics: pd.DataFrame
    """Per strategy, the rows of :func:`spades_sim.analysis.metrics.hand_metrics` for its side."""
    profile: pd.DataFrame
    """Per strategy, :func:`spades_sim.analysis.metrics.bid_profile` of its seats."""
    errors: pd.DataFrame
    """Per strategy, :func:`spades_sim.analysis.metrics.bid_minus_tricks` of its side."""

    def data(self) -> pd.DataFrame:
        """All three tables in one tidy frame: ``table``, ``strategy``, ``key`` and the values."""
        parts = [
            self.metrics.assign(table="metric"),
            self.profile.rename(columns={"bid": "key", "seat_hands": "n", "share": "value"})
            .assign(table="bid profile"),
            self.errors.rename(columns={"bid_minus_tricks": "key", "side_hands": "n",
                                        "share": "value"}).assign(table="bid minus tricks"),
        ]
        frame = pd.concat(parts, ignore_index=True)
        frame["key"] = frame["key"].astype(str)
        return frame[["table", "strategy", "key", "value", "low", "high", "n"]]


def bid_profiles(raw_rules: str | RuleSet, strategies: Sequence[str | Strategy],
                 against: str | Strategy, hands: int, seed: int | None = None,
                 threads: int | None = None,
                 on_block: Callable[[int], None] | None = None) -> BidProfiles:
    """Play ``hands`` hands per strategy (the same deals for all) against ``against`` and
    summarise each strategy's bidding. An interrupted run keeps the strategies it finished."""
    rules = resolve_rules(raw_rules)
    opponent = get_strategy(against)
    chosen = [get_strategy(raw) for raw in strategies]  # all checked before the first run
    names = [strategy.name for strategy in chosen]
    repeated = next((name for i, name in enumerate(names) if name in names[:i]), None)
    if repeated is not None:
        raise StrategyError(f"strategy={shown(repeated)!r}: allowed each strategy once (its rows "
                            "would be one)")
    seed = resolve_seed(seed)
    metrics: list[pd.DataFrame] = []
    profile: list[pd.DataFrame] = []
    errors: list[pd.DataFrame] = []
    interrupted = False
    for strategy in chosen:
        summaries = _summaries(rules, strategy, opponent, hands, seed, threads, on_block)
        if summaries is None:
            interrupted = True
            break
        for kept, summary in zip((metrics, profile, errors), summaries, strict=True):
            kept.append(summary.assign(strategy=strategy.name))

    def joined(parts: list[pd.DataFrame]) -> pd.DataFrame:
        if not parts:
            return pd.DataFrame()
        frame = pd.concat(parts, ignore_index=True)
        return frame[["strategy", *[c for c in frame.columns if c != "strategy"]]]

    return BidProfiles(rules, opponent, seed, hands, interrupted, joined(metrics),
                       joined(profile), joined(errors))


def _summaries(rules: RuleSet, strategy: Strategy, opponent: Strategy, hands: int, seed: int,
               threads: int | None, on_block: Callable[[int], None] | None
               ) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame] | None:
    """One strategy's hand metrics, bid profile and bid errors over ``hands`` hands against
    ``opponent`` (None when the run was interrupted). The metrics come from the run's totals
    (the same figures as from its records), the rest from the few record columns they read:
    its records are dropped on return, before the next strategy's run (a report's memory)."""
    run = simulate_hands(rules, [strategy, opponent], hands, seed=seed, threads=threads,
                         keep_records=True, on_block=on_block)
    if run.interrupted:
        return None
    metrics = run.summary(side=0)
    frame = run.records(BID_COLUMNS)
    del run  # its blocks' records, which ``records`` copied: held once while they are counted
    own = frame[frame["side"] == 0]
    del frame
    return metrics, bid_profile(own), bid_minus_tricks(own)


@plain_text
def plot_bid_profiles(profiles: BidProfiles, title: str, path: str) -> None:
    """Two panels: how often each bid is made, and bid minus tricks, one line per strategy with
    95% error bars; PNG or SVG by the name's suffix."""
    plt = pyplot()
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2), layout="constrained")
    bids = list(dict.fromkeys(_bid_order(profiles.profile["bid"])))
    palette = colours(profiles.profile["strategy"])
    looks = line_looks(profiles.profile["strategy"])  # seven lines cross: marker and style too
    for name, part in profiles.profile.groupby("strategy", sort=False):
        position = {bid: k for k, bid in enumerate(bids)}
        x = np.array([position[bid] for bid in part["bid"]])
        label = cast(str, name)  # the strategy column holds names
        _error_line(left, x, part, label, palette[label], looks[label])
    left.set_xticks(range(len(bids)), bids, fontsize=8)
    left.set_xlabel("bid (per seat)")
    left.set_ylabel("share of seat-hands (%)")
    left.set_title("bidding profile", fontsize=9)
    left.legend(fontsize=7, title="95% intervals", title_fontsize=7)
    for name, part in profiles.errors.groupby("strategy", sort=False):
        label = cast(str, name)  # the strategy column holds names
        _error_line(right, part["bid_minus_tricks"].to_numpy(), part, label, palette[label],
                    looks[label])
    right.axvline(0, color="grey", linewidth=0.8, linestyle="--")
    right.set_xlabel("contract minus tricks taken (tricks; > 0: set, < 0: bags)")
    right.set_ylabel("share of side-hands with a contract (%)")
    right.set_title("bid minus tricks", fontsize=9)
    right.legend(fontsize=7, title="95% intervals", title_fontsize=7)
    fig.suptitle(title, fontsize=10)
    save(fig, path)


def _bid_order(bids: pd.Series) -> list[str]:
    """Bids in table order: blind nil, nil, then 1, 2, … ."""
    def key(bid: str) -> int:
        return {"blind nil": -2, "nil": -1}.get(bid, int(bid) if bid.isdigit() else 99)
    return sorted(set(bids), key=key)


def _error_line(ax: Axes, x: np.ndarray, part: pd.DataFrame, label: str, colour: str,
                look: dict[str, Any]) -> None:
    share = 100 * part["share"].to_numpy(np.float64)
    errors = error_bars(share, 100 * part["low"], 100 * part["high"])
    ax.errorbar(x, share, yerr=errors, markersize=4, capsize=3, label=label, color=colour,
                linewidth=1.1, **look)

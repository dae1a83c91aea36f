"""A duplicate round robin (a league): every pair of contenders on the same deal sequences, and
Bradley–Terry ratings on the Elo scale with bootstrap intervals.

Every match plays deal sequences 0 … n−1 of one seed twice, seats swapped
(:func:`spades_sim.analysis.compare.compare_strategies`; a bot at the Python table,
:func:`~spades_sim.analysis.compare.compare_agents`), so all matches share their deals. A match
gives, per deal sequence, A's pair score s (the mean of its two games: a win 1, an unfinished
game ½): won both (1), split (½) or lost both (0), or ¾ / ¼ with an unfinished game.

**Ratings.** The Bradley–Terry model on the Elo scale: contender i scores
E[s] = 1 / (1 + 10^(−(rᵢ − rⱼ)/400)) against j. The ratings maximise the likelihood
Σ over matches of Wᵢⱼ·log E + (nᵢⱼ − Wᵢⱼ)·log(1 − E), Wᵢⱼ the sum of i's pair scores against
j in nᵢⱼ pairs (a pair score is a fractional win, as a draw is half a win in chess ratings),
with one virtual split pair added to every match so that a contender that won every pair has a
finite rating (BayesElo's prior draws, for the same reason); Newton's method finds them, the
anchor's rating held at 0. **Intervals** come from a bootstrap over deal sequences: the same
resampled deal sequences for every match (they share their deals, so their luck is shared too),
the ratings refitted, the 2.5% and 97.5% points of each. **Likelihood of superiority**
between neighbours in rank: the share of bootstrap replicates in which the higher-ranked has
the higher rating.

>>> shares = {(0, 1): np.full(50, 0.75), (0, 2): np.full(50, 0.9), (1, 2): np.full(50, 0.75)}
>>> [round(float(r)) for r in fit_ratings(*match_totals(shares, 3), anchor=1)]
[185, 0, -185]
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from ..agents import LoadedAgent, is_bot_spec, resolve_agent
from ..agents.registry import agent_names
from ..intervals import share_interval
from ..kernel.strategies import (
    Strategy,
    StrategyError,
    get_strategy,
    is_strategy_file,
    strategy_label,
)
from ..rules import RuleSet, resolve_rules
from ..run.simulate import DEFAULT_MAX_HANDS, RunError, check_size, resolve_seed
from .compare import Comparison, compare_agents, compare_strategies
from .figures import colours, error_bars, plain_text, pyplot, save
from .formatting import table_rows
from .sprt import pentanomial

if TYPE_CHECKING:
    from matplotlib.axes import Axes

ELO = 400 / math.log(10)
"""Elo points per natural unit of the logistic model."""

PRIOR_PAIRS = 1.0
"""Virtual split pairs added to every match, so that no rating is infinite."""

BOOTSTRAP = 1000
"""Bootstrap replicates of a league's ratings by default."""

DEFAULT_ANCHOR = "expert-v1"
"""The contender rated 0 when the user names none (and it plays)."""

NEWTON_STEPS = 100
"""The most Newton steps of a fit (a league converges in about ten)."""


def match_totals(shares: dict[tuple[int, int], np.ndarray], count: int,
                 rows: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Wᵢⱼ (i's summed pair scores against j) and nᵢⱼ (pairs), ``count`` × ``count``, from each
    match's pair scores (``shares[(i, j)]``: i's, per deal sequence), the prior split pair
    included; with ``rows`` (replicates × deal sequences, indices) one pair of matrices per
    replicate, summed over those deal sequences."""
    shape = (count, count) if rows is None else (rows.shape[0], count, count)
    wins, games = np.zeros(shape), np.zeros(shape)
    for (i, j), share in shares.items():
        taken = share[rows] if rows is not None else share
        won = taken.sum(axis=-1) + PRIOR_PAIRS / 2
        played = taken.shape[-1] + PRIOR_PAIRS
        wins[..., i, j], wins[..., j, i] = won, played - won
        games[..., i, j] = games[..., j, i] = played
    return wins, games


def fit_ratings(wins: np.ndarray, games: np.ndarray, anchor: int) -> np.ndarray:
    """The Bradley–Terry ratings (Elo scale, ``anchor`` at 0) of one league or of a stack of
    replicates (leading axes), by Newton's method on the log-likelihood."""
    count = wins.shape[-1]
    free = [k for k in range(count) if k != anchor]
    theta = np.zeros(wins.shape[:-1])
    scores = wins.sum(axis=-1)
    for _ in range(NEWTON_STEPS):
        expected = 1 / (1 + np.exp(-(theta[..., :, None] - theta[..., None, :])))
        gradient = scores - (games * expected).sum(axis=-1)
        weight = games * expected * (1 - expected)
        hessian = weight - np.eye(count) * weight.sum(axis=-1)[..., None]
        reduced = hessian[..., free, :][..., :, free]
        step = np.linalg.solve(-reduced, gradient[..., free][..., None])[..., 0]
        # Damped: a league with a lopsided match starts far from its optimum.
        step = np.clip(step, -2.0, 2.0)
        theta[..., free] += step
        if np.abs(step).max() < 1e-10:
            break
    return np.asarray(theta * ELO)


@dataclass
class Match:
    """One pair of contenders in duplicate: A's pair scores, per deal sequence."""

    a: str
    b: str
    share: np.ndarray
    comparison: Comparison

    def row(self) -> dict[str, Any]:
        """Pairs by outcome and A's win share with its paired 95% interval."""
        lost_both, lost_one, split, won_one, won_both = pentanomial(self.share).tolist()
        mean, low, high = share_interval(self.share)
        return {"a": self.a, "b": self.b, "pairs": int(self.share.size), "won_both": won_both,
                "split": split, "lost_both": lost_both, "with_unfinished": won_one + lost_one,
                "win_share": mean, "low": low, "high": high}


@dataclass
class League:
    """The outcome of :func:`play_league`."""

    rules: RuleSet
    names: list[str]
    contenders: list[Strategy | LoadedAgent]
    seed: int
    anchor: str
    matches: list[Match]
    interrupted: bool
    bootstrap: int
    ratings: np.ndarray = field(default_factory=lambda: np.zeros(0))
    replicates: np.ndarray = field(default_factory=lambda: np.zeros((0, 0)))

    @property
    def pairs(self) -> int:
        """Deal sequences every match played."""
        return min((m.share.size for m in self.matches), default=0)

    def pair_table(self) -> pd.DataFrame:
        """One row per match (:meth:`Match.row`)."""
        return pd.DataFrame([match.row() for match in self.matches])

    def rating_table(self) -> pd.DataFrame:
        """The contenders best first: ``rank``, ``name``, ``elo`` with its bootstrap 95%
        interval (``low``, ``high``; the anchor's is 0 exactly) and ``los_next``, the
        likelihood that it is stronger than the next one down."""
        order = np.argsort(-self.ratings, kind="stable")
        rows = []
        for rank, k in enumerate(order):
            low, high = np.percentile(self.replicates[:, k], [2.5, 97.5])
            below = order[rank + 1] if rank + 1 < len(order) else None
            los = (float(np.mean(self.replicates[:, k] > self.replicates[:, below])
                         + 0.5 * np.mean(self.replicates[:, k] == self.replicates[:, below]))
                   if below is not None else math.nan)
            rows.append({"rank": rank + 1, "name": self.names[k],
                         "elo": float(self.ratings[k]), "low": float(low), "high": float(high),
                         "los_next": los})
        return pd.DataFrame(rows)


def rate(shares: dict[tuple[int, int], np.ndarray], count: int, anchor: int, bootstrap: int,
         seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The ratings of a league's pair scores and ``bootstrap`` replicates of them, resampling
    the deal sequences (the same ones in every match) with a generator seeded by ``seed``."""
    ratings = fit_ratings(*match_totals(shares, count), anchor=anchor)
    sequences = min(share.size for share in shares.values())
    rng = np.random.default_rng(seed)
    rows = rng.integers(0, sequences, size=(bootstrap, sequences))
    replicates = fit_ratings(*match_totals(shares, count, rows), anchor=anchor)
    return ratings, replicates


def _contender(raw: str | Strategy | LoadedAgent) -> Strategy | LoadedAgent:
    """A strategy of the kernel (a name or a strategy file), else an agent of the Python table
    (a bot, or a built-in agent such as ``uniform``)."""
    if isinstance(raw, Strategy | LoadedAgent):
        return raw
    if is_bot_spec(raw):
        return resolve_agent(raw)
    try:
        return get_strategy(raw)
    except StrategyError:
        if is_strategy_file(raw) or raw not in agent_names():
            raise
        return resolve_agent(raw)


def check_league(names: Sequence[str], anchor: str | None) -> str:
    """Two or more contenders, each once, and an anchor among them (default ``expert-v1`` when
    it plays, else the first); the anchor's name."""
    if len(names) < 2:
        raise RunError(f"strategies={len(names)}: allowed two or more contenders for a league")
    repeated = next((name for k, name in enumerate(names) if name in names[:k]), None)
    if repeated is not None:
        raise StrategyError(f"strategy={repeated!r}: allowed each contender once")
    if anchor is None:
        return DEFAULT_ANCHOR if DEFAULT_ANCHOR in names else names[0]
    if anchor not in names:
        raise StrategyError(f"anchor={anchor!r}: allowed one of the contenders: "
                            + ", ".join(names))
    return anchor


def prepare_league(rules: RuleSet, raw_contenders: Sequence[str | Strategy | LoadedAgent],
                   games: int, anchor: str | None = None, bootstrap: int = BOOTSTRAP
                   ) -> tuple[list[Strategy | LoadedAgent], list[str], str, dict[str, LoadedAgent]]:
    """Every check of a league before it plays: a two-sided table, the size, the contenders
    (loaded: strategies, strategy files, bots), each once, the anchor among them. Returns the
    contenders, their names, the anchor's name and, when a bot plays, the agent each strategy
    of the kernel plays as at the Python table."""
    if rules.side_count != 2:
        raise RunError(f"rules mode={str(rules.mode)!r}: allowed a two-sided table (partnership or"
                       " two-player) for a league")
    check_size("games", games)
    if isinstance(bootstrap, bool) or not 1 <= bootstrap <= 100_000:
        raise RunError(f"bootstrap={bootstrap}: allowed 1 to 100,000 replicates")
    contenders = [_contender(raw) for raw in raw_contenders]
    # A bot by its name after the colon (FILE.py:NAME), as compare-strategies names it.
    names = [strategy_label(c.name) if isinstance(c, LoadedAgent) else c.name for c in contenders]
    raw_names = [raw if isinstance(raw, str) else None for raw in raw_contenders]
    if anchor is not None and anchor not in names and anchor in raw_names:
        anchor = names[raw_names.index(anchor)]  # named as on the command line: mine.toml
    chosen_anchor = check_league(names, anchor)
    # A match with an agent is played at the Python table, where a strategy of the kernel plays
    # as the agent of its name: refused now (before any match) when there is none.
    at_table = {c.name: resolve_agent(c.name) for c in contenders if isinstance(c, Strategy)} \
        if any(isinstance(c, LoadedAgent) for c in contenders) else {}
    return contenders, names, chosen_anchor, at_table


def play_league(raw_rules: str | RuleSet, raw_contenders: Sequence[str | Strategy | LoadedAgent],
                games: int, seed: int | None = None, anchor: str | None = None,
                bootstrap: int = BOOTSTRAP, threads: int | None = None,
                max_hands: int = DEFAULT_MAX_HANDS, time_limit: float | None = None,
                on_match: Callable[[str, str], None] | None = None,
                on_block: Callable[[int], None] | None = None) -> League:
    """Play every pair of contenders in duplicate on deal sequences 0 … ``games``−1 of one seed
    and rate them (see the module's notes). Contenders are strategy names, strategy files,
    :class:`Strategy` objects or bots (``FILE.py:NAME``, ``module:NAME``; played at the Python
    table). ``anchor`` names the contender rated 0. Ctrl-C stops after the matches finished.
    """
    rules = resolve_rules(raw_rules)
    contenders, names, chosen_anchor, at_table = prepare_league(rules, raw_contenders, games,
                                                                anchor, bootstrap)
    seed = resolve_seed(seed)
    matches: list[Match] = []
    interrupted = False
    for i, j in itertools.combinations(range(len(contenders)), 2):
        a, b = contenders[i], contenders[j]
        if on_match is not None:
            on_match(names[i], names[j])
        if isinstance(a, Strategy) and isinstance(b, Strategy):
            result = compare_strategies(rules, a, b, games, seed, threads, max_hands, on_block)
        else:
            sides = [c if isinstance(c, LoadedAgent) else at_table[c.name] for c in (a, b)]
            result = compare_agents(rules, sides[0], sides[1], games, seed, max_hands, time_limit)
        if result.interrupted or result.fault is not None or result.pairs < games:
            interrupted = True
            break
        matches.append(Match(names[i], names[j], result.share, result))
    league = League(rules, names, contenders, seed, chosen_anchor, matches, interrupted,
                    bootstrap)
    if not interrupted:
        shares = {(names.index(m.a), names.index(m.b)): m.share for m in matches}
        league.ratings, league.replicates = rate(shares, len(names), names.index(chosen_anchor),
                                                 bootstrap, seed)
    return league


def league_text(league: League) -> str:
    """The rating table, then every match: pairs by outcome and the win share."""
    width = max(len(name) for name in [*league.names, "strategy"]) + 2
    lines = [f"{'rank':<5}{'strategy':<{width}}{'Elo':>8}  {'95% interval':>18}  "
             f"{'LOS over next':>13}"]
    for row in table_rows(league.rating_table()):
        interval = ("(anchor)" if row.name == league.anchor
                    else f"[{row.low:+.1f}, {row.high:+.1f}]")
        los = "" if math.isnan(row.los_next) else f"{100 * row.los_next:.1f}%"
        lines.append(f"{row.rank:<5}{row.name:<{width}}{row.elo:>+8.1f}  {interval:>18}  "
                     f"{los:>13}".rstrip())
    lines.append("")
    lines.append(f"{'A':<{width}}{'B':<{width}}{'won both':>9}{'split':>7}{'lost both':>10}"
                 f"{'A win share':>13}  paired 95% interval")
    for row in table_rows(league.pair_table()):
        lines.append(f"{row.a:<{width}}{row.b:<{width}}{row.won_both:>9,}{row.split:>7,}"
                     f"{row.lost_both:>10,}{100 * row.win_share:>12.2f}%  "
                     f"[{100 * row.low:.2f}%, {100 * row.high:.2f}%]")
    return "\n".join(lines)


@plain_text
def plot_league(league: League, path: str) -> None:
    """The ratings with their bootstrap intervals, best at the top, and the matrix of win
    shares. PNG or SVG by the name."""
    plt = pyplot()
    table = league.rating_table()
    count = len(league.names)
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 1.5 + 0.45 * count),
                                      layout="constrained", width_ratios=[1, 1.1])
    _plot_ratings(left, table, league.anchor)
    _plot_matrix(right, league, list(table["name"]))
    fig.suptitle(f"{league.rules.name}: league of {count} in duplicate, {league.pairs:,} deal "
                 "sequences a match", fontsize=10)
    save(fig, path)


def _plot_ratings(ax: Axes, table: pd.DataFrame, anchor: str) -> None:
    palette = colours(list(table["name"]))
    for k, row in enumerate(table_rows(table)):
        errors = error_bars([row.elo], [row.low], [row.high])
        ax.errorbar(row.elo, k, xerr=errors, fmt="o", capsize=4, color=palette[row.name])
        ax.annotate(f"{row.elo:+.0f}", (row.elo, k), xytext=(0, 7), textcoords="offset points",
                    ha="center", fontsize=7)
    ax.axvline(0, color="grey", linewidth=0.8, linestyle="--")
    ax.set_yticks(range(len(table)), list(table["name"]), fontsize=8)
    ax.set_ylim(len(table) - 0.5, -0.7)
    ax.set_xlabel(f"Elo (Bradley–Terry; {anchor} = 0), bootstrap 95% interval", fontsize=8)
    ax.grid(axis="x", color="#eeeeee", linewidth=0.6)


def _plot_matrix(ax: Axes, league: League, order: list[str]) -> None:
    count = len(order)
    grid = np.full((count, count), np.nan)
    for match in league.matches:
        i, j = order.index(match.a), order.index(match.b)
        share = float(match.share.mean())
        grid[i, j], grid[j, i] = share, 1 - share
    ax.imshow(100 * grid, cmap="RdBu", vmin=0, vmax=100)
    for i in range(count):
        for j in range(count):
            if not np.isnan(grid[i, j]):
                ax.text(j, i, f"{100 * grid[i, j]:.0f}", ha="center", va="center", fontsize=7)
    ax.set_xticks(range(count), order, fontsize=7, rotation=45, ha="right")
    ax.set_yticks(range(count), order, fontsize=7)
    ax.set_title("win share (%) of the row against the column", fontsize=8)


__all__ = ["BOOTSTRAP", "DEFAULT_ANCHOR", "League", "Match", "check_league", "fit_ratings", "prepare_league",
           "league_text", "match_totals", "play_league", "plot_league", "rate"]

"""Tuning strategy parameters: a grid, SPSA or CMA-ES, each confirmed on fresh deals.

``grid`` plays every setting of the grid against the same opponent on the same deal sequences
(common random numbers), so differences between settings are not the luck of the cards.
``spsa`` (:mod:`spades_sim.analysis.spsa`) moves the setting step by step, each step a duplicate
match of θ + cΔ against θ − cΔ on fresh deal sequences, as fishtest tunes chess engines. ``cma``
(:mod:`spades_sim.analysis.cmaes`, an optional extra) is CMA-ES, each generation's candidates
ranked on the same fresh deal sequences against the opponent.

The best setting of a search is the luckiest as well as the best (the winner's curse), so every
method ends with a confirmation: the setting it chose plays the starting one in duplicate on deal
sequences of another seed (:func:`confirmation_seed`), which the search never saw, and that
paired comparison is the search's result.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
import pandas as pd

from ..kernel.drivers import RunError
from ..kernel.strategies import (
    MAX_PARAM_VALUES,
    PARAMS,
    STRATEGIES,
    Strategy,
    StrategyError,
    get_strategy,
    parse_param,
)
from ..outputs import shown
from ..rules import RuleSet, resolve_rules
from ..run.catalogue import frame_units
from ..run.simulate import DEFAULT_MAX_HANDS, check_size, resolve_seed
from .cmaes import CmaRun, cma_search, load_cma, population
from .compare import Comparison, compare_strategies, pair_shares, play_pairs
from .figures import colours, error_bars, percent_ticks, plain_text, pyplot, save
from .spsa import RATE, Space, SpsaRun, spsa

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

MAX_SETTINGS = MAX_PARAM_VALUES
"""The most grid points one tuning run may ask for."""

MAX_PARAMS = 10
"""The most parameters one tuning run may search."""

METHODS = ("grid", "spsa", "cma")
"""The search methods, ``grid`` first (the default)."""

DEFAULT_GAMES = {"grid": 500, "spsa": 100, "cma": 100}
"""Deal sequences per setting (grid), per step (spsa) or per candidate (cma), each played twice."""

DEFAULT_BUDGET = 20_000
"""The games a search (spsa, cma) plays unless told otherwise."""

DEFAULT_CONFIRM = 1000
"""Deal sequences of the confirmation, each played twice."""

SCALE_SHARE = 0.1
"""A parameter's scale when its range gives no STEP: this share of HI − LO."""

_SPEC = {spec.name: spec for spec in PARAMS}


class ParamRange(NamedTuple):
    """One parameter to tune: its bounds, and the grid's spacing or the search's scale."""

    name: str
    low: float
    high: float
    step: float | None
    """The grid's spacing; a search's scale (SPSA's final perturbation c_end, CMA-ES's initial
    spread; None: a tenth of HI − LO)."""
    listed: tuple[float, ...] | None = None
    """A grid given as its values (the library's ``(name, values)`` form) rather than a STEP."""

    def text(self) -> str:
        """The range as it was given, e.g. ``bid_offset=-1..1:0.5``.

        >>> ParamRange("bid_offset", 0.0, 1.0, 5e-324).text()
        'bid_offset=0..1:5e-324'
        """
        def number(x: float) -> str:
            return repr(x).removesuffix(".0")

        if self.listed is not None:
            return f"{self.name}=" + ",".join(map(number, self.listed))
        return (f"{self.name}={number(self.low)}..{number(self.high)}"
                + ("" if self.step is None else f":{number(self.step)}"))

    def scale(self) -> float:
        """The search's scale for this parameter."""
        return self.step if self.step is not None else SCALE_SHARE * (self.high - self.low)

    def values(self) -> list[float]:
        """The grid's values, LO to HI by STEP (HI included when on the grid).

        >>> parse_param_range("bid_offset=-1..1:0.5").values()
        [-1.0, -0.5, 0.0, 0.5, 1.0]
        """
        if self.listed is not None:
            return list(self.listed)
        if self.step is None:
            raise StrategyError(f"param={self.text()!r}: allowed NAME=LO..HI:STEP or a list "
                                "NAME=A,B,… with --method grid (the grid's spacing)")
        steps = (self.high - self.low) / self.step  # a tiny step makes this astronomically large
        if not steps < MAX_SETTINGS:
            asked = f"{int(steps) + 1}" if steps < 10**12 else "far too many"
            raise StrategyError(f"param {self.text()}: allowed at most {MAX_SETTINGS} values"
                                f" ({asked} asked)")
        count = math.floor(steps + 1e-9) + 1
        return [round(self.low + k * self.step, 10) for k in range(count)]


def parse_param_range(raw_range: str) -> ParamRange:
    """A ``--param`` of ``tune`` in the one grammar (:func:`~spades_sim.kernel.strategies.parse_param`):
    a parameter of the strategy tuned (no SIDE, or side 0 as in compare-strategies) and its
    range ``LO..HI[:STEP]`` (STEP: the grid's spacing or a search's scale), or the grid's values
    as a list ``A,B,…``.

    >>> parse_param_range("bid_offset=-1..1:0.5")
    ParamRange(name='bid_offset', low=-1.0, high=1.0, step=0.5, listed=None)
    >>> parse_param_range("nil_bonus=-100..0")
    ParamRange(name='nil_bonus', low=-100.0, high=0.0, step=None, listed=None)
    >>> parse_param_range("0.set_slack=0,4").values()
    [0.0, 4.0]
    """
    setting = parse_param(raw_range, step_is_scale=True)  # a grid is made by ParamRange
    if setting.side not in (None, 0):
        raise StrategyError(f"param={shown(raw_range)!r}: allowed a parameter of the strategy "
                            "tuned, NAME=… or 0.NAME=…")
    if setting.bounds is None:  # a list, or one value: the grid's values
        return ParamRange(setting.name, min(setting.values), max(setting.values), None,
                          setting.values)
    low, high = setting.bounds
    return ParamRange(setting.name, low, high, setting.step)


def confirmation_seed(seed: int) -> int:
    """The seed of a search's confirmation: another stream of deal sequences than the search's
    own seed, so the confirmation plays deals the search never saw (the same for the same seed).

    >>> confirmation_seed(5) == confirmation_seed(5) != 5
    True
    """
    state = np.random.SeedSequence([seed, 0x5EED_C0F1]).generate_state(1, np.uint64)[0]
    return int(state >> np.uint64(1))  # 63 bits, as every seed


@dataclass
class TuneResult:
    """A tuning run: the search's own table, the setting it chose and its confirmation."""

    rules: RuleSet
    base: Strategy
    """The starting strategy, whose parameters the search changes."""
    against: Strategy
    """The grid's and CMA-ES's opponent (SPSA plays its own perturbations against each other)."""
    seed: int
    games: int
    """Deal sequences per setting (grid), per step (spsa) or per candidate (cma)."""
    names: list[str]
    table: pd.DataFrame
    """The search: grid, one row per setting best first (the parameters, win share with its
    paired 95% interval, points per hand); spsa, one row per step (perturbations, result, θ
    after it); cma, one row per generation (best and mean share, the mean after it)."""
    interrupted: bool
    method: str = "grid"
    ranges: list[ParamRange] = field(default_factory=list)
    start: dict[str, float] = field(default_factory=dict)
    """The parameters searched, as the starting strategy sets them."""
    setting: dict[str, float] = field(default_factory=dict)
    """The setting the search chose (the best found so far when it was interrupted)."""
    played: int = 0
    """Games the search played."""
    confirm_seed: int = 0
    confirmation: Comparison | None = None
    """The chosen setting (A) against the starting one (B) on the confirmation's deal
    sequences; None when the search was interrupted or chose nothing."""

    @property
    def best(self) -> pd.Series:
        """The grid's best setting: its row of the table."""
        return self.table.iloc[0]

    @property
    def tuned(self) -> Strategy:
        """The starting strategy with the chosen setting."""
        return self.base.variant(self.setting) if self.setting else self.base

    def parameters(self) -> pd.DataFrame:
        """One row per parameter searched: its start, the setting chosen and its bounds."""
        return pd.DataFrame([{"parameter": item.name, "start": self.start[item.name],
                              "tuned": self.setting.get(item.name, math.nan),
                              "low": item.low, "high": item.high} for item in self.ranges])

    def confirmed(self) -> dict[str, float | int]:
        """The confirmation as figures: seed, pairs, win share with its paired 95% interval,
        points per hand A − B (empty without a confirmation)."""
        if self.confirmation is None or not self.confirmation.pairs:
            return {}
        low, high = self.confirmation.paired_interval
        rows = {row["key"]: row for row in self.confirmation.rows}
        return {"seed": self.confirm_seed, "pairs": self.confirmation.pairs,
                "win_share": float(self.confirmation.share.mean()), "low": low, "high": high,
                "points_per_hand_diff": float(rows["points"]["difference"]),
                "interrupted": self.confirmation.interrupted}


Progress = Callable[[str], None]
"""Where a search reports each step: one line of text."""


def _ranges(ranges: Sequence[ParamRange | str | tuple[str, list[float]]]) -> list[ParamRange]:
    """Ranges as parsed; a ``(name, values)`` pair is the grid of those values."""
    parsed = []
    for item in ranges:
        if isinstance(item, str):
            item = parse_param_range(item)
        elif not isinstance(item, ParamRange):
            name, values = item
            item = ParamRange(name, min(values), max(values), None, tuple(values))
        parsed.append(item)
    return parsed


def check_ranges(ranges: list[ParamRange], method: str, base: Strategy) -> None:
    """Refuse ranges a method cannot search: a method not known, a parameter twice or read by
    none of ``base``'s policies, more than :data:`MAX_PARAMS`, and for a search (spsa, cma) a
    range without room (LO = HI) or not holding ``base``'s value, where the search starts."""
    if method not in METHODS:
        raise RunError(f"method={shown(method)!r}: allowed " + ", ".join(METHODS))
    names = [item.name for item in ranges]
    if not names:
        raise StrategyError("param: allowed at least one parameter to tune")
    if len(names) > MAX_PARAMS:
        raise StrategyError(f"param: allowed at most {MAX_PARAMS} parameters ({len(names)} given)")
    if len(set(names)) != len(names):
        raise StrategyError("param: allowed each parameter once (" + ", ".join(names) + ")")
    read = {spec.name for spec in base.params_read()}
    for item in ranges:
        if item.name not in read:
            raise StrategyError(f"param {item.name}: allowed a parameter {base.name}'s policies "
                                "read: " + ", ".join(sorted(read)))
        spec = _SPEC[item.name]
        if not spec.low <= item.low <= item.high <= spec.high:  # a library's (name, values)
            raise StrategyError(f"param {item.text()}: allowed values from {spec.low:g} to "
                                f"{spec.high:g}")
        if method == "grid":
            continue
        start = base.param(item.name)
        if not item.low < item.high:
            raise StrategyError(f"param {item.text()}: allowed LO < HI with --method {method}")
        if not item.low <= start <= item.high:
            raise StrategyError(f"param {item.text()}: allowed bounds around the start, "
                                f"{base.name}'s {item.name}={start:g}")


def check_tuning(ranges: Sequence[ParamRange], method: str, base: Strategy, games: int | None,
                 budget: int | None, rate: float | None, confirm: int = DEFAULT_CONFIRM) -> None:
    """Every check of a tuning run, before any game: the ranges (:func:`check_ranges`), the
    games, budget, rate and confirmation, and for ``cma`` the library. One line each."""
    check_ranges(list(ranges), method, base)
    games = DEFAULT_GAMES[method] if games is None else games
    check_size("games", games)
    check_size("games", confirm, "confirm")
    if method == "grid":
        if budget is not None:
            raise RunError(f"budget={budget}: allowed with --method spsa or cma (the grid plays "
                           "--games deal sequences per setting)")
        grid_settings(ranges)
    if method != "spsa" and rate is not None:
        raise RunError(f"rate={rate:g}: allowed with --method spsa only")
    if rate is not None and not 0 < rate <= 1:
        raise RunError(f"rate={rate:g}: allowed above 0, at most 1")
    if method == "cma":
        load_cma()
    if method != "grid":
        budget = DEFAULT_BUDGET if budget is None else budget
        check_size("games", budget, "budget")
        _per_step(budget, games, 1 if method == "spsa" else population(len(ranges)), method)


def tune(raw_rules: str | RuleSet, strategy: str | Strategy,
         ranges: Sequence[ParamRange | str | tuple[str, list[float]]],
         against: str | Strategy, games: int | None = None, seed: int | None = None,
         threads: int | None = None, max_hands: int = DEFAULT_MAX_HANDS,
         on_block: Callable[[int], None] | None = None, *, method: str = "grid",
         budget: int | None = None, confirm: int = DEFAULT_CONFIRM, rate: float | None = None,
         on_step: Progress | None = None) -> TuneResult:
    """Tune ``strategy``'s parameters over ``ranges`` by ``method`` (:func:`search`), then
    confirm the setting found against the starting one on ``confirm`` fresh deal sequences
    (:func:`confirm_setting`): the search's table, its setting and the confirmation."""
    check_tuning(_ranges(ranges), method, get_strategy(strategy), games, budget, rate, confirm)
    result = search(raw_rules, strategy, ranges, against, games, seed, threads, max_hands,
                    on_block, method=method, budget=budget, rate=rate, on_step=on_step)
    if not result.interrupted:
        confirm_setting(result, confirm, threads, max_hands, on_block, on_step)
    return result


def search(raw_rules: str | RuleSet, strategy: str | Strategy,
           ranges: Sequence[ParamRange | str | tuple[str, list[float]]],
           against: str | Strategy, games: int | None = None, seed: int | None = None,
           threads: int | None = None, max_hands: int = DEFAULT_MAX_HANDS,
           on_block: Callable[[int], None] | None = None, *, method: str = "grid",
           budget: int | None = None, rate: float | None = None,
           on_step: Progress | None = None) -> TuneResult:
    """Search ``strategy``'s parameters over ``ranges`` (:func:`parse_param_range` texts or
    parsed) by ``method``, all on deal sequences of ``seed``:

    - ``grid``: every combination of the ranges' values against ``against``, ``games`` deal
      sequences each, all on the same ones (``budget`` not taken);
    - ``spsa``: ``budget // (2 × games)`` steps, each θ + cΔ against θ − cΔ on the next
      ``games`` deal sequences (``rate``: SPSA's final learning rate);
    - ``cma``: CMA-ES, ``budget // (2 × games × population)`` generations, each candidate
      against ``against`` on the generation's ``games`` deal sequences.

    ``budget`` is in games (default :data:`DEFAULT_BUDGET`). ``on_block`` is called with the
    games each block adds, ``on_step`` with a line after each step or generation. Ctrl-C stops
    the search and keeps the best setting found so far (``interrupted``).
    """
    rules = resolve_rules(raw_rules)
    base, opponent = get_strategy(strategy), get_strategy(against)
    parsed = _ranges(ranges)
    check_tuning(parsed, method, base, games, budget, rate)
    games = DEFAULT_GAMES[method] if games is None else games
    seed = resolve_seed(seed)
    names = [item.name for item in parsed]
    result = TuneResult(rules, base, opponent, seed, games, names, pd.DataFrame(), False, method,
                        parsed, start={name: base.param(name) for name in names},
                        confirm_seed=confirmation_seed(seed))
    if method == "grid":
        _grid(result, grid_settings(parsed), threads, max_hands, on_block)
        return result
    budget = DEFAULT_BUDGET if budget is None else budget
    space = Space(tuple(names), np.array([item.low for item in parsed]),
                  np.array([item.high for item in parsed]),
                  np.array([result.start[name] for name in names]),
                  np.array([item.scale() for item in parsed]))
    if method == "spsa":
        _spsa(result, space, budget, RATE if rate is None else rate, threads, max_hands,
              on_block, on_step)
    else:
        _cma(result, space, budget, threads, max_hands, on_block, on_step)
    return result


def grid_settings(ranges: Sequence[ParamRange]) -> list[tuple[float, ...]]:
    """Every combination of the ranges' grid values (at most :data:`MAX_SETTINGS`)."""
    grid = list(itertools.product(*(item.values() for item in ranges)))
    if len(grid) > MAX_SETTINGS:
        raise StrategyError(f"param: allowed at most {MAX_SETTINGS} settings ({len(grid)} asked)")
    return grid


def confirm_setting(result: TuneResult, pairs: int = DEFAULT_CONFIRM, threads: int | None = None,
                    max_hands: int = DEFAULT_MAX_HANDS,
                    on_block: Callable[[int], None] | None = None,
                    on_step: Progress | None = None) -> None:
    """Play the setting the search found (A) against the starting strategy (B) on ``pairs``
    deal sequences of :func:`confirmation_seed`, which the search never saw, each twice:
    ``result.confirmation``; ``on_step`` is told first. Ctrl-C keeps the pairs finished
    (``result.interrupted``)."""
    check_size("games", pairs, "confirm")
    if not result.setting:
        return
    try:
        if on_step is not None:
            on_step(f"confirming {_setting_text(result.setting)} against {result.base.name} on "
                    f"{pairs:,} fresh deal sequences x 2 (seed {result.confirm_seed})")
        result.confirmation = compare_strategies(result.rules, result.tuned, result.base, pairs,
                                                 result.confirm_seed, threads, max_hands,
                                                 on_block=on_block)
    except KeyboardInterrupt:
        result.interrupted = True
    else:
        result.interrupted = result.confirmation.interrupted


def _per_step(budget: int, games: int, evaluations: int, method: str) -> int:
    """How many steps (generations) of ``evaluations`` matches of ``games`` pairs fit the
    budget; at least one, or a one-line refusal."""
    steps = budget // (2 * games * evaluations)
    if steps < 1:
        raise RunError(f"budget={budget:,}: allowed at least {2 * games * evaluations:,} games "
                       f"with --method {method} and --games {games} (one "
                       + ("step" if method == "spsa" else f"generation of {evaluations}") + ")")
    return steps


def _grid(result: TuneResult, grid: list[tuple[float, ...]], threads: int | None,
          max_hands: int, on_block: Callable[[int], None] | None) -> None:
    """Every setting of the grid against the opponent on deal sequences 0 … games − 1."""
    rows = []
    for values in grid:
        setting = dict(zip(result.names, values))
        try:  # Ctrl-C while a setting's strategies are packed, as well as while it plays
            compared = compare_strategies(result.rules, result.base.variant(setting),
                                          result.against, result.games, result.seed, threads,
                                          max_hands, on_block=on_block)
        except KeyboardInterrupt:
            result.interrupted = True
            break
        if compared.interrupted:
            result.interrupted = True
            break
        result.played += 2 * result.games
        low, high = compared.paired_interval
        points = compared.summary().set_index("key").loc["points"]
        rows.append({**setting, "win_share": float(compared.share.mean()), "low": low,
                     "high": high, "points_per_hand_diff": points["difference"]})
    table = pd.DataFrame(rows, columns=[*result.names, "win_share", "low", "high",
                                        "points_per_hand_diff"])
    result.table = table.sort_values("win_share", ascending=False, kind="stable").reset_index(
        drop=True)
    if rows:
        result.setting = {name: float(result.table.iloc[0][name]) for name in result.names}
def _pairs_of(result: TuneResult, a: Strategy, b: Strategy, start: int, threads: int | None,
              max_hands: int, on_block: Callable[[int], None] | None) -> np.ndarray | None:
    """A's pair scores over the search's deal sequences ``start`` … ``start + games − 1``
    (None: interrupted)."""
    frames = play_pairs(result.rules, a, b, start, result.games, result.seed, threads, max_hands,
                        on_block)
    if frames is None:
        return None
    result.played += 2 * result.games
    return pair_shares([frame_units(frame) for frame in frames])


def _setting_text(setting: dict[str, float]) -> str:
    return " ".join(f"{name}={value:g}" for name, value in setting.items())


def _spsa(result: TuneResult, space: Space, budget: int, rate: float, threads: int | None,
          max_hands: int, on_block: Callable[[int], None] | None,
          on_step: Progress | None) -> None:
    """SPSA: step k plays θ + cΔ against θ − cΔ on deal sequences k·games … (k+1)·games − 1."""
    steps = _per_step(budget, result.games, 1, "spsa")

    def match(step: int, plus: np.ndarray, minus: np.ndarray) -> float | None:
        shares = _pairs_of(result, result.base.variant(space.setting(plus)),
                           result.base.variant(space.setting(minus)), step * result.games,
                           threads, max_hands, on_block)
        # A pair's wins minus losses for θ + cΔ: 4 × its pair score − 2 (unfinished: half each).
        return None if shares is None else float((4 * shares - 2).sum())

    def report(run: SpsaRun) -> None:
        if on_step is not None:
            row = run.rows[-1]
            on_step(f"spsa step {len(run.rows)}/{steps}: θ+cΔ {row['result']:+g} games net, "
                    f"θ {_setting_text(space.setting(run.theta))}")

    run = spsa(space, steps, match, rate, result.seed, report)
    result.table = pd.DataFrame(run.rows, columns=["step", *(f"c_{n}" for n in space.names),
                                                   "result", *space.names])
    result.interrupted = run.interrupted
    result.setting = space.setting(run.theta)


def _cma(result: TuneResult, space: Space, budget: int, threads: int | None, max_hands: int,
         on_block: Callable[[int], None] | None, on_step: Progress | None) -> None:
    """CMA-ES: generation g's candidates each play the opponent on deal sequences
    g·games … (g+1)·games − 1."""
    size = population(len(space.names))
    generations = _per_step(budget, result.games, size, "cma")

    def evaluate(generation: int, candidates: list[np.ndarray]) -> np.ndarray | None:
        shares = []
        for candidate in candidates:
            pairs = _pairs_of(result, result.base.variant(space.setting(candidate)),
                              result.against, generation * result.games, threads, max_hands,
                              on_block)
            if pairs is None:
                return None
            shares.append(float(pairs.mean()))
        return np.array(shares)

    def report(run: CmaRun) -> None:
        if on_step is not None:
            row = run.rows[-1]
            on_step(f"cma generation {len(run.rows)}/{generations}: best {100 * row['best_share']:.1f}%, "
                    f"mean {100 * row['mean_share']:.1f}% against {result.against.name}, "
                    f"mean setting {_setting_text(space.setting(run.mean))}")

    run = cma_search(space, generations, evaluate, result.seed, size, report)
    result.table = pd.DataFrame(run.rows, columns=["generation", "best_share", "mean_share",
                                                   *space.names])
    result.interrupted = run.interrupted
    result.setting = space.setting(run.mean)


def saved_strategy(result: TuneResult, name: str) -> tuple[Strategy, str | None]:
    """The tuned strategy as a strategy file saves it, named ``name`` and described by how it
    was found, with the named strategy its file starts from (the starting strategy's, or the
    first named one with its policies; None for a user's policies, which the file names)."""
    base = result.base.name if result.base.name in STRATEGIES else next(
        (key for key, known in STRATEGIES.items()
         if (known.bidding, known.play) == (result.base.bidding, result.base.play)), None)
    facts = result.confirmed()
    confirmed = (f"; against {result.base.name} on {facts['pairs']:,} fresh deal sequences x 2 (seed "
                 f"{facts['seed']}): win share {100 * facts['win_share']:.2f}% "
                 f"[{100 * facts['low']:.2f}%, {100 * facts['high']:.2f}%]") if facts else ""
    tuned = result.tuned
    description = (f"{result.base.name} tuned by {result.method} on {result.rules.name}, seed "
                   f"{result.seed}{confirmed}")
    return Strategy(name, tuned.bidding, tuned.play, dict(tuned.params), description), base


HEATMAP_INTERVALS = 36
"""The most cells a heatmap writes each one's interval in (more would not fit their cells)."""


@plain_text
def plot_tuning(result: TuneResult, path: str) -> bool:
    """The win share of every setting against 50%, with its paired 95% interval: a line plot
    (one parameter) or a heatmap with the values in its cells (two); a search's path (spsa,
    cma): each parameter within its bounds, step by step. False if not drawable."""
    if result.table.empty or (result.method == "grid" and len(result.names) not in (1, 2)):
        return False
    plt = pyplot()
    if result.method != "grid":
        _search_path(plt, result, path)
        return True

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


def _search_path(plt: Any, result: TuneResult, path: str) -> None:
    """Each parameter's value after every step (generation) of a search, as a share of its
    range (0 at LO, 1 at HI), with its start and the setting chosen in the legend."""
    fig, ax = plt.subplots(figsize=(7.2, 4.4), layout="constrained")
    x_name = "step" if result.method == "spsa" else "generation"
    palette = colours(result.names)
    for item in result.ranges:
        width = item.high - item.low
        path_values = (result.table[item.name] - item.low) / width
        ax.plot(np.concatenate([[0], result.table[x_name]]),
                np.concatenate([[(result.start[item.name] - item.low) / width], path_values]),
                color=palette[item.name],
                label=f"{item.name}: {result.start[item.name]:g} → {result.setting[item.name]:g}"
                      f"  [{item.low:g}, {item.high:g}]")
    ax.set_ylim(-0.03, 1.03)
    ax.set_xlabel(f"{x_name} ({result.games:,} deal sequences x 2 "
                  + ("a step: θ+cΔ against θ−cΔ)" if result.method == "spsa" else
                     f"a candidate, against {result.against.name})"))
    ax.set_ylabel("value within its bounds (0: LO, 1: HI)")
    ax.legend(fontsize=7, loc="best")
    facts = result.confirmed()
    confirmed = (f"; confirmed against the start: {100 * facts['win_share']:.1f}% "
                 f"[{100 * facts['low']:.1f}%, {100 * facts['high']:.1f}%]") if facts else ""
    ax.set_title(f"{result.base.name} tuned by {result.method} on {result.rules.name}{confirmed}",
                 fontsize=9)
    save(fig, path)

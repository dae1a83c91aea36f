"""Aggregates with 95% confidence intervals, accumulated block by block so memory stays flat.

:class:`HandTotals` and :class:`GameTotals` add up the counts of each block of
kernel records as it arrives (``add``) and turn them into a summary table
(``summary``): one row per metric with its value, interval and sample size.
Proportions use the Wilson score interval; means use the normal interval from
the sample variance.
"""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass, field, fields

import numpy as np
import pandas as pd

Z95 = 1.959963984540054
"""The two-sided 95% normal quantile."""


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (NaNs when there are no trials).

    >>> [round(x, 4) for x in wilson_interval(8, 10)]
    [0.4902, 0.9433]
    >>> wilson_interval(0, 300_000)[0]
    0.0
    """
    if trials == 0:
        return math.nan, math.nan
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    # At 0 or all successes the bound is exactly 0 or 1 (rounding would leave it a hair off).
    low = 0.0 if successes == 0 else max(centre - half, 0.0)
    high = 1.0 if successes == trials else min(centre + half, 1.0)
    return low, high


def mean_interval(total: float, total_sq: float, n: int, z: float = Z95) -> tuple[float, float, float]:
    """Mean and normal 95% interval from a sum, a sum of squares and a count.

    >>> mean_interval(6.0, 14.0, 3)[0]
    2.0
    """
    if n == 0:
        return math.nan, math.nan, math.nan
    mean = total / n
    variance = max(total_sq / n - mean * mean, 0.0) * n / max(n - 1, 1)
    half = z * math.sqrt(variance / n)
    return mean, mean - half, mean + half


def ratio_interval(sum_y: float, sum_x: float, sum_yy: float, sum_xx: float, sum_xy: float,
                   n: int, z: float = Z95) -> tuple[float, float, float]:
    """Ratio Σy/Σx over n independent clusters (games), with its delta-method 95% interval.

    Used for per-hand rates in game runs, where the hands of one game are not independent.

    >>> [round(v, 3) for v in ratio_interval(6.0, 6.0, 14.0, 14.0, 14.0, 3)]
    [1.0, 1.0, 1.0]
    """
    if n < 2 or sum_x == 0:
        return math.nan, math.nan, math.nan
    ratio = sum_y / sum_x
    residual_sq = max(sum_yy - 2 * ratio * sum_xy + ratio * ratio * sum_xx, 0.0) / (n - 1)
    half = z * math.sqrt(residual_sq / n) / (sum_x / n)
    return ratio, ratio - half, ratio + half


def paired_interval(differences: np.ndarray, z: float = Z95) -> tuple[float, float, float]:
    """Mean of per-pair values (differences of two runs on the same deals) and its normal 95%
    interval: the mean ± z standard errors of the pairs (NaN bounds with fewer than 2 pairs).

    >>> [round(v, 3) for v in paired_interval(np.array([1.0, 0.0, 1.0, 0.0]))]
    [0.5, -0.066, 1.066]
    """
    n = differences.size
    mean = float(differences.mean()) if n else math.nan
    if n < 2:
        return mean, math.nan, math.nan
    half = z * float(differences.std(ddof=1)) / math.sqrt(n)
    return mean, mean - half, mean + half


def ratio_difference(num_a: np.ndarray, den_a: np.ndarray, num_b: np.ndarray, den_b: np.ndarray,
                     z: float = Z95) -> tuple[float, float, float]:
    """Σnum_a/Σden_a − Σnum_b/Σden_b over paired units (games on the same deals) and its 95%
    interval by the delta method: units with no denominator (no nil bid) weigh nothing.

    >>> one = np.array([1.0, 2.0, 3.0])
    >>> ratio_difference(one, one, one, one)
    (0.0, 0.0, 0.0)
    """
    n = num_a.size
    if n == 0 or not den_a.sum() or not den_b.sum():
        return math.nan, math.nan, math.nan
    ratio_a, ratio_b = num_a.sum() / den_a.sum(), num_b.sum() / den_b.sum()
    difference = float(ratio_a - ratio_b)
    if n < 2:
        return difference, math.nan, math.nan
    # Linearised per-unit contributions of the difference of two ratio estimators.
    contributions = (num_a - ratio_a * den_a) / den_a.mean() - (num_b - ratio_b * den_b) / den_b.mean()
    half = z * float(contributions.std(ddof=1)) / math.sqrt(n)
    return difference, difference - half, difference + half


def _rate_row(metric: str, successes: int, trials: int) -> dict[str, object]:
    low, high = wilson_interval(successes, trials)
    value = successes / trials if trials else math.nan
    return {"metric": metric, "value": value, "low": low, "high": high, "n": trials}


def _mean_row(metric: str, total: float, total_sq: float, n: int) -> dict[str, object]:
    mean, low, high = mean_interval(total, total_sq, n)
    return {"metric": metric, "value": mean, "low": low, "high": high, "n": n}


_SHAPE_FIELDS = ("sides", "seats")
"""Fields that describe the table rather than count anything: taken, not added, by ``merge``."""


class _Totals:
    """What running totals share: merging, and a flat row of numbers (for Parquet shards).

    Totals are sums, so the totals of a run are the merge of its blocks' totals in
    block order; the sums are of whole numbers, so the merge gives exactly the figures
    of one pass over the whole run.
    """

    def merge(self, other: _Totals) -> None:
        """Add ``other`` (the totals of later blocks) into these totals."""
        _merge_into(self, other)

    def as_row(self) -> dict[str, float]:
        """Every total as a flat ``{"name": value, "wins.0": …, "bag_sums.y": …}`` row."""
        row: dict[str, float] = {}
        _flatten(self, "", row)
        return row

    @classmethod
    def from_row(cls, row: dict[str, float]):
        """The totals written by :meth:`as_row`."""
        totals = cls()
        _restore(totals, row, "")
        return totals

    def empty_like(self):
        """Zero totals for the same table."""
        return type(self)(**{name: getattr(self, name) for name in _SHAPE_FIELDS
                             if hasattr(self, name)})


def _merge_into(target, other) -> None:
    for spec in fields(target):
        mine, theirs = getattr(target, spec.name), getattr(other, spec.name)
        if spec.name in _SHAPE_FIELDS:  # the totals being added know the table
            setattr(target, spec.name, theirs or mine)
        elif isinstance(mine, _RatioSums):
            _merge_into(mine, theirs)
        elif isinstance(mine, list):
            if not mine:
                setattr(target, spec.name, copy.deepcopy(theirs))
            elif theirs:
                for index, value in enumerate(theirs):
                    if isinstance(value, _RatioSums):
                        _merge_into(mine[index], value)
                    else:
                        mine[index] += value
        else:
            setattr(target, spec.name, mine + theirs)


def _flatten(obj, prefix: str, row: dict[str, float]) -> None:
    for spec in fields(obj):
        value, key = getattr(obj, spec.name), prefix + spec.name
        if isinstance(value, _RatioSums):
            _flatten(value, key + ".", row)
        elif isinstance(value, list):
            for index, item in enumerate(value):
                if isinstance(item, _RatioSums):
                    _flatten(item, f"{key}.{index}.", row)
                else:
                    row[f"{key}.{index}"] = item
        else:
            row[key] = value


def _restore(obj, row: dict[str, float], prefix: str) -> None:
    for spec in fields(obj):
        value, key = getattr(obj, spec.name), prefix + spec.name
        if isinstance(value, _RatioSums):
            _restore(value, row, key + ".")
        elif isinstance(value, list):
            items = {}
            for name in row:
                if name.startswith(key + "."):
                    index, _, rest = name[len(key) + 1:].partition(".")
                    items.setdefault(int(index), rest)
            restored = []
            for index in sorted(items):
                if items[index]:  # "0.y": a list of ratio sums
                    sums = _RatioSums()
                    _restore(sums, row, f"{key}.{index}.")
                    restored.append(sums)
                else:
                    restored.append(_number(row[f"{key}.{index}"], spec.name))
            setattr(obj, spec.name, restored)
        else:
            setattr(obj, spec.name, type(value)(row[key]))


def _number(value, name: str):
    """List items: counts (wins) are whole numbers, sums (bid_error) floats."""
    return int(value) if name in ("wins", "bid_error_n") else float(value)


@dataclass
class _Counts(_Totals):
    """Counts shared by hand runs and game runs (side-hands and seat-hands)."""

    side_hands: int = 0
    contracts: int = 0
    made: int = 0
    seat_hands: int = 0
    nil_bids: int = 0
    nil_made: int = 0
    blind_bids: int = 0
    blind_made: int = 0
    bags: float = 0.0
    penalty: float = 0.0

    def rows(self) -> list[dict[str, object]]:
        return [
            _rate_row("contract make rate", self.made, self.contracts),
            _rate_row("nil bid rate (per seat-hand)", self.nil_bids, self.seat_hands),
            _rate_row("nil success rate", self.nil_made, self.nil_bids),
            _rate_row("blind nil bid rate (per seat-hand)", self.blind_bids, self.seat_hands),
            _rate_row("blind nil success rate", self.blind_made, self.blind_bids),
        ]


@dataclass
class HandTotals(_Counts):
    """Running totals over blocks of ``HandRecords`` (see ``spades_sim.kernel.engine``)."""

    bags_sq: float = 0.0
    penalty_sq: float = 0.0
    penalty_events: int = 0
    points: float = 0.0
    points_sq: float = 0.0
    seats: int = 0
    bid_error: list[float] = field(default_factory=list)
    """Per side: sum of |contract − tricks of its count bidders| over side-hands with a contract."""
    bid_error_sq: list[float] = field(default_factory=list)
    bid_error_n: list[int] = field(default_factory=list)
    """Per side: side-hands with a contract, over which the bid error is averaged."""

    def add(self, records) -> None:
        """Add one block of hand records."""
        self._add_bid_error(records)
        nil = records.bid == 0
        blind = records.blind == 1
        made_nil = records.tricks == 0
        has_contract = records.contract > 0
        bags = records.bags.astype(np.float64)
        points = records.points.astype(np.float64)
        self.side_hands += records.points.size
        self.contracts += int(has_contract.sum())
        self.made += int((has_contract & (records.made == 1)).sum())
        self.seat_hands += records.bid.size
        self.nil_bids += int((nil & ~blind).sum())
        self.nil_made += int((nil & ~blind & made_nil).sum())
        self.blind_bids += int(blind.sum())
        self.blind_made += int((blind & made_nil).sum())
        self.bags += float(bags.sum())
        self.bags_sq += float((bags * bags).sum())
        penalty = records.penalty.astype(np.float64)
        self.penalty += float(penalty.sum())
        self.penalty_sq += float((penalty * penalty).sum())
        self.penalty_events += int((records.penalty > 0).sum())
        self.points += float(points.sum())
        self.points_sq += float((points * points).sum())

    def _add_bid_error(self, records) -> None:
        """|contract − tricks of the side's count bidders| for every side-hand with a contract."""
        sides = records.contract.shape[1]
        if not self.bid_error_n:
            self.seats = records.bid.shape[1]
            self.bid_error, self.bid_error_sq, self.bid_error_n = [0.0] * sides, [0.0] * sides, [0] * sides
        tricks = np.where(records.bid > 0, records.tricks, 0).astype(np.int64)
        for side in range(sides):
            contract = records.contract[:, side].astype(np.int64)
            taken = tricks[:, side::sides].sum(axis=1)
            error = np.abs(contract - taken)[contract > 0].astype(np.float64)
            self.bid_error[side] += float(error.sum())
            self.bid_error_sq[side] += float((error * error).sum())
            self.bid_error_n[side] += error.size

    def summary(self) -> pd.DataFrame:
        """One row per metric: value, 95% interval (low, high) and sample size n."""
        sides = len(self.bid_error_n)
        rows = self.rows() + [
            _mean_row("mean absolute bid error", sum(self.bid_error), sum(self.bid_error_sq),
                      sum(self.bid_error_n)),
        ] + [
            _mean_row(f"mean absolute bid error, {side_label(side, sides, self.seats)}", self.bid_error[side],
                      self.bid_error_sq[side], self.bid_error_n[side])
            for side in range(sides) if sides > 1
        ] + [
            _mean_row("bags per side-hand", self.bags, self.bags_sq, self.side_hands),
            _rate_row("bag penalty rate (per side-hand)", self.penalty_events, self.side_hands),
            _mean_row("penalty points per side-hand", self.penalty, self.penalty_sq,
                      self.side_hands),
            _mean_row("points per side-hand", self.points, self.points_sq, self.side_hands),
        ]
        return pd.DataFrame(rows)


@dataclass
class _RatioSums:
    """Sums for one ratio of per-game totals, sum y / sum x, over games (see :func:`ratio_interval`)."""

    y: float = 0.0
    yy: float = 0.0
    x: float = 0.0
    xx: float = 0.0
    xy: float = 0.0
    games: int = 0

    def add(self, y: np.ndarray, x: np.ndarray) -> None:
        self.y += float(y.sum())
        self.yy += float((y * y).sum())
        self.x += float(x.sum())
        self.xx += float((x * x).sum())
        self.xy += float((x * y).sum())
        self.games += y.size

    def row(self, metric: str) -> dict[str, object]:
        value, low, high = ratio_interval(self.y, self.x, self.yy, self.xx, self.xy, self.games)
        return {"metric": metric, "value": value, "low": low, "high": high, "n": round(self.x)}


def side_label(side: int, sides: int, seats: int) -> str:
    """How reports name a side: "side 0 (seats 0+2)" in partnership, else "seat k".

    >>> side_label(1, 2, 4), side_label(1, 2, 2)
    ('side 1 (seats 1+3)', 'seat 1')
    """
    if sides == seats:
        return f"seat {side}"
    return f"side {side} (seats " + "+".join(map(str, range(side, seats, sides))) + ")"


@dataclass
class GameTotals(_Counts):
    """Running totals over blocks of ``GameRecords`` of a table of ``seats`` seats and ``sides`` sides."""

    sides: int = 2
    seats: int = 4
    games: int = 0
    finished: int = 0
    wins: list[int] = field(default_factory=list)
    """Games won by each side."""
    hands: float = 0.0
    hands_sq: float = 0.0
    bag_sums: _RatioSums = field(default_factory=_RatioSums)
    penalty_sums: _RatioSums = field(default_factory=_RatioSums)
    points_sums: _RatioSums = field(default_factory=_RatioSums)
    bid_error_sums: list[_RatioSums] = field(default_factory=list)
    """Per side, then all sides: bid error over hands with a contract."""

    def add(self, records) -> None:
        """Add one block of game records."""
        hands = records.hands.astype(np.float64)
        side_hands = self.sides * hands
        self.games += records.hands.size
        self.finished += int((records.winner >= 0).sum())
        won = np.bincount(records.winner[records.winner >= 0], minlength=self.sides)
        self.wins = [int(a + b) for a, b in zip(self.wins or [0] * self.sides, won)]
        self.hands += float(hands.sum())
        self.hands_sq += float((hands * hands).sum())
        self.side_hands += int(side_hands.sum())
        self.seat_hands += int(self.seats * hands.sum())
        self.contracts += int(records.contracts.sum())
        self.made += int(records.made.sum())
        self.nil_bids += int(records.nil_bids.sum())
        self.nil_made += int(records.nil_made.sum())
        self.blind_bids += int(records.blind_bids.sum())
        self.blind_made += int(records.blind_made.sum())
        self.bags += float(records.bags.sum())
        self.penalty += float(records.penalty.sum())
        # A game's final score is the sum of its hands' points.
        for sums, values in ((self.bag_sums, records.bags), (self.penalty_sums, records.penalty),
                             (self.points_sums, records.score)):
            sums.add(values.astype(np.float64).sum(axis=1), side_hands)
        if not self.bid_error_sums:
            self.bid_error_sums = [_RatioSums() for _ in range(self.sides + 1)]
        error, contracts = records.bid_error.astype(np.float64), records.contracts.astype(np.float64)
        for side in range(self.sides):
            self.bid_error_sums[side].add(error[:, side], contracts[:, side])
        self.bid_error_sums[-1].add(error.sum(axis=1), contracts.sum(axis=1))

    def summary(self) -> pd.DataFrame:
        """One row per metric: value, 95% interval (low, high) and sample size n.

        Per-hand figures of a game run are ratios over games, with intervals that
        treat each game as one independent cluster of hands.
        """
        wins = self.wins or [0] * self.sides
        rows = [_rate_row(f"{side_label(side, self.sides, self.seats)} win rate", wins[side], self.finished)
                for side in range(self.sides)] + [
            _rate_row("unfinished rate (stopped at the hand cap)", self.games - self.finished,
                      self.games),
            _mean_row("hands per game", self.hands, self.hands_sq, self.games),
        ] + self.rows()
        if self.bid_error_sums:
            rows.append(self.bid_error_sums[-1].row("mean absolute bid error"))
            rows += [self.bid_error_sums[side].row(
                f"mean absolute bid error, {side_label(side, self.sides, self.seats)}")
                for side in range(self.sides)]
        for metric, sums in (("bags per side-hand", self.bag_sums),
                             ("penalty points per side-hand", self.penalty_sums),
                             ("points per side-hand", self.points_sums)):
            rows.append(sums.row(metric))
        return pd.DataFrame(rows)

"""The catalogue of metrics: every figure a run reports, defined once, as data.

A metric (:class:`Metric`) is Σ numerator / Σ denominator over the *units* of a run, where
numerator and denominator are columns of the run's unit table (:class:`Units`): one row per
unit — a hand of a hand run, a game of a game run — and, for what is counted per side, one
column per side. "Side" names a partnership, or a lone seat in the individual modes. A figure
of some sides only (the side a strategy sat on) sums the columns of those sides.

Every consumer evaluates this one catalogue: the streaming totals of ``simulate``
(:class:`Totals`, added block by block, so memory stays flat), the record frames of the
analysis API (:func:`frame_units`), the paired comparisons of ``compare-strategies``,
``compare-rules``, ``bags`` and ``tune``. They select metrics by :attr:`Metric.key`.

**Intervals follow the sampling unit.** The units of a run are independent (each hand of a
hand run and each game of a game run is dealt from its own counter), but what is counted
inside one unit is not: the sides of one hand share its tricks, the hands of one game its
score and its bags, the blind nils of one game the score that called for them. So every
figure is a ratio over the units as independent clusters, with the delta-method interval
(:func:`spades_sim.intervals.ratio_interval`; for a mean per unit it is the usual normal
interval), kept within its metric's range: a rate takes the Wilson interval on the trials the
clusters are worth (:func:`spades_sim.intervals.rate_interval`), a mean of non-negative counts
the delta method's on the log scale (:func:`spades_sim.intervals.positive_ratio_interval`) —
and a proportion of the units themselves (the win rate, the share of games unfinished or
decided by a penalty) takes the Wilson interval.

>>> [m.key for m in CATALOGUE][:4]
['win_rate', 'win_share', 'unfinished_rate', 'hands_per_game']
>>> METRICS["nil_success"].label, METRICS["nil_success"].unit
('nil success rate', 'rate')
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields

import numpy as np
import pandas as pd

from ..intervals import positive_ratio_interval, rate_interval, ratio_interval, wilson_interval
from ..kernel.drivers import (
    HAND_RECORD_COLUMNS,
    HAND_UNIT_COLUMNS,
    hand_metric_sums,
    hand_unit_table,
    metric_sums,
)

RUN_KINDS = ("hands", "games")
"""Run kinds: a hand run's unit is the hand, a game run's the game."""


@dataclass(frozen=True)
class Metric:
    """One figure: Σ ``numerator`` / Σ ``denominator`` over a run's units (columns of
    :class:`Units`), read in ``unit`` (``rate`` values are shares, shown as percentages)."""

    key: str
    label: str
    unit: str
    """``rate`` (a share, printed in %), or what one value counts: ``points``, ``tricks`` …"""
    numerator: str
    denominator: str
    per: str
    """What the denominator counts (``n`` of a table): ``seat-hands``, ``nil bids``, ``games`` …"""
    runs: tuple[str, ...] = RUN_KINDS
    """The run kinds that have it."""
    interval: str = "ratio"
    """``ratio`` (clustered by unit) or ``proportion`` (a 0/1 per unit: Wilson)."""
    shown: str = "pooled"
    """How a run's summary shows it: ``pooled`` over the sides, per side (``each``), ``both``,
    or ``none`` (asked for by key only)."""
    nonnegative: bool = False
    """Whether every unit's numerator is 0 or more (bags, penalty points), so the interval stays
    above 0. A rate is within [0, 1] anyway."""

    @property
    def percent(self) -> bool:
        """Whether the value is a share (printed as a percentage)."""
        return self.unit == "rate"


def _m(key, label, unit, numerator, denominator, per, runs=RUN_KINDS, interval="ratio",
       shown="pooled") -> Metric:
    return Metric(key, label, unit, numerator, denominator, per, runs, interval, shown,
                  nonnegative=unit != "rate" and key in _NONNEGATIVE)


_NONNEGATIVE = {"hands_per_game", "mean_bid", "bid_error", "bags", "penalty_points",
                "penalty_per_game"}
"""The metrics other than rates whose numerators are never negative (points and contract
minus tricks can be)."""


HANDS, GAMES = ("hands",), ("games",)
CATALOGUE: tuple[Metric, ...] = (
    _m("win_rate", "win rate", "rate", "won", "finished", "finished games", GAMES, "proportion",
       "each"),
    _m("win_share", "win share (win 1, unfinished ½)", "rate", "share", "games", "games", GAMES,
       shown="none"),
    _m("unfinished_rate", "games unfinished (stopped at the hand cap)", "rate", "unfinished",
       "games", "games", GAMES, "proportion"),
    _m("hands_per_game", "hands per game", "hands", "hands", "games", "games", GAMES),
    _m("mean_bid", "mean bid per seat-hand", "tricks", "bid_sum", "seat_hands", "seat-hands",
       HANDS),
    _m("nil_bid_rate", "nil bids per seat-hand", "rate", "nil_bids", "seat_hands", "seat-hands"),
    _m("nil_success", "nil success rate", "rate", "nil_made", "nil_bids", "nil bids"),
    _m("blind_bid_rate", "blind nil bids per seat-hand", "rate", "blind_bids", "seat_hands",
       "seat-hands"),
    _m("blind_success", "blind nil success rate", "rate", "blind_made", "blind_bids",
       "blind nil bids"),
    _m("make_rate", "contracts made", "rate", "made", "contracts", "contracts"),
    _m("set_rate", "contracts set", "rate", "set", "contracts", "contracts"),
    _m("bid_minus_tricks", "mean contract minus tricks", "tricks", "bid_minus", "contracts",
       "contracts", HANDS),
    _m("bid_error", "mean absolute bid error", "tricks", "bid_error", "contracts", "contracts",
       shown="both"),
    _m("bags", "bags per side-hand", "bags", "bags", "side_hands", "side-hands"),
    _m("penalty_rate", "bag penalties per side-hand", "rate", "penalised", "side_hands",
       "side-hands", HANDS),
    _m("penalty_points", "bag penalty points per side-hand", "points", "penalty", "side_hands",
       "side-hands"),
    _m("penalty_per_game", "bag penalty points per game", "points", "penalty", "games", "games",
       GAMES),
    _m("penalised_games", "side-games with a bag penalty", "rate", "penalised", "side_games",
       "side-games", GAMES),
    _m("decided_by_penalty", "games decided by a bag penalty", "rate", "decided", "games",
       "games", GAMES, "proportion"),
    _m("points", "points per side-hand", "points", "points", "side_hands", "side-hands"),
)
"""Every metric, in the order tables show them."""

METRICS: dict[str, Metric] = {metric.key: metric for metric in CATALOGUE}
"""The catalogue by key."""


class MetricError(ValueError):
    """A metric key that is not in the catalogue, or not one of the run's."""


def metric(key: str, kind: str | None = None) -> Metric:
    """The metric ``key`` (of a ``kind`` run when given), or a one-line :class:`MetricError`."""
    found = METRICS.get(key)
    if found is None or (kind is not None and kind not in found.runs):
        keys = [m.key for m in CATALOGUE if kind is None or kind in m.runs]
        raise MetricError(f"metric={key!r}: allowed " + ", ".join(keys))
    return found


def of_run(kind: str) -> list[Metric]:
    """The metrics a ``kind`` run has, in table order."""
    return [m for m in CATALOGUE if kind in m.runs]


def side_label(side: int, sides: int, seats: int, who: str | None = None) -> str:
    """How tables name a side: "side 0 (seats 0+2)" in partnership, "side 1 (seat 1)" alone;
    ``who`` (a strategy's name) is added inside the brackets.

    >>> side_label(1, 2, 4), side_label(1, 2, 2), side_label(0, 4, 4, "expert")
    ('side 1 (seats 1+3)', 'side 1 (seat 1)', 'side 0 (seat 0, expert)')
    """
    members = list(range(side, seats, sides))
    seat_text = (f"seat {side}" if len(members) == 1
                 else "seats " + "+".join(map(str, members)))
    return f"side {side} ({seat_text}{', ' + who if who else ''})"


# ---------------------------------------------------------------- unit tables


@dataclass(frozen=True)
class Units:
    """A run's unit table: ``columns[name]`` is (units,) for a count per unit or (units, sides)
    for a count per side; :meth:`pair` gives a metric's per-unit numerator and denominator."""

    kind: str
    seats: int
    sides: int
    columns: dict[str, np.ndarray]

    def stacked(self) -> tuple[np.ndarray, np.ndarray]:
        """Every column in one C-contiguous array (names, units, sides), in ``columns``' order,
        a count per unit in side 0, in the narrowest type that holds them all; and per column
        1 where it is counted per side, else 0."""
        values = list(self.columns.values())
        per_side = np.array([v.ndim == 2 for v in values], np.int64)
        stack = np.zeros((len(values), values[0].shape[0], self.sides), np.result_type(*values))
        for i, column in enumerate(values):
            if column.ndim == 1:
                stack[i, :, 0] = column
            else:
                stack[i] = column
        return stack, per_side

    def column(self, name: str, sides: Sequence[int] | None = None) -> np.ndarray:
        """Column ``name`` per unit, summed over ``sides`` (None: every side)."""
        values = self.columns[name]
        if values.ndim == 1:
            return values
        return values.sum(axis=1) if sides is None else values[:, list(sides)].sum(axis=1)

    def pair(self, metric: Metric, sides: Sequence[int] | None = None
             ) -> tuple[np.ndarray, np.ndarray]:
        """The metric's numerator and denominator per unit, as float64, for ``sides``."""
        return (self.column(metric.numerator, sides).astype(np.float64),
                self.column(metric.denominator, sides).astype(np.float64))

    def rows(self, start: int, stop: int | None = None) -> Units:
        """Units ``start … stop - 1`` (to the end with ``stop`` None): a shorter run."""
        return Units(self.kind, self.seats, self.sides,
                     {name: values[start:stop] for name, values in self.columns.items()})


def _hand_units(**columns: np.ndarray) -> Units:
    """The unit table of a hand run from its seat columns ``bid``, ``blind``, ``tricks``
    (units, seats) and side columns ``contract``, ``made``, ``points``, ``bags``, ``penalty``
    (units, sides), worked out in one jitted pass (``kernel.sums``): per side, the hands and
    seat-hands, the bids (blind nils apart), the nils and blind nils bid and made, the contracts
    made and set, contract minus tricks, the bags, penalties and points."""
    table = hand_unit_table(**columns)
    return Units("hands", columns["bid"].shape[1], table.shape[2],
                 dict(zip(HAND_UNIT_COLUMNS, table, strict=True)))


def hand_units(records) -> Units:
    """The unit table of a block of ``HandRecords`` (see ``spades_sim.kernel.engine``)."""
    return _hand_units(**{name: getattr(records, name) for name in HAND_RECORD_COLUMNS})


def _metric_indices(metrics: list[Metric], names: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Each metric's numerator and denominator as indices into the unit columns ``names``."""
    return (np.array([names.index(m.numerator) for m in metrics], np.int64),
            np.array([names.index(m.denominator) for m in metrics], np.int64))


def penalty_decides(score: np.ndarray, penalty: np.ndarray, winner: np.ndarray) -> np.ndarray:
    """Per game: True where the bag penalties decided it — a finished game whose winner would not
    be ahead (another side level or higher) if no side had lost points to bag penalties: final
    scores with the penalties added back; the hands themselves are not replayed."""
    finished = winner >= 0
    without = (score + penalty).astype(np.float64)
    leader = np.where(finished, winner, 0)
    rows = np.arange(len(winner))
    others = np.where(np.arange(score.shape[1]) == leader[:, None], -np.inf, without)
    return finished & (others.max(axis=1) >= without[rows, leader])


def _game_units(seats: int, hands, winner, sides_of) -> Units:
    """The unit table of a game run at a table of ``seats`` seats; ``sides_of(name)`` gives a
    (games, sides) column of the records, ``seat_hands`` included."""
    winner = winner.astype(np.int64)
    games = winner.size
    score, penalty = sides_of("score").astype(np.int64), sides_of("penalty").astype(np.int64)
    sides = score.shape[1]
    hands = hands.astype(np.int64)
    finished = winner >= 0
    won = (winner[:, None] == np.arange(sides)).astype(np.int64)
    contracts, made = sides_of("contracts").astype(np.int64), sides_of("made").astype(np.int64)
    return Units("games", seats, sides, {
        "games": np.ones(games, np.int64),
        "finished": finished.astype(np.int64),
        "unfinished": (~finished).astype(np.int64),
        "hands": hands,
        "decided": penalty_decides(score, penalty, winner).astype(np.int64),
        "won": won,
        "share": won + 0.5 * (~finished)[:, None],
        "side_games": np.ones((games, sides), np.int64),
        "seat_hands": sides_of("seat_hands").astype(np.int64),
        "side_hands": hands[:, None] * np.ones(sides, np.int64),
        "nil_bids": sides_of("nil_bids").astype(np.int64),
        "nil_made": sides_of("nil_made").astype(np.int64),
        "blind_bids": sides_of("blind_bids").astype(np.int64),
        "blind_made": sides_of("blind_made").astype(np.int64),
        "contracts": contracts,
        "made": made,
        "set": contracts - made,
        "bid_error": sides_of("bid_error").astype(np.int64),
        "bags": sides_of("bags").astype(np.int64),
        "penalty": penalty,
        "penalised": (penalty > 0).astype(np.int64),
        # A game's final score is the sum of its hands' points.
        "points": score,
    })


def game_units(records, seats: int) -> Units:
    """The unit table of a block of ``GameRecords`` of a table of ``seats`` seats."""
    sides = records.score.shape[1]

    def sides_of(name: str) -> np.ndarray:
        if name == "seat_hands":
            return records.hands.astype(np.int64)[:, None] * np.full(sides, seats // sides)
        return getattr(records, name)

    return _game_units(seats, records.hands, records.winner, sides_of)


class FrameError(ValueError):
    """A record frame the catalogue cannot read."""


def frame_units(frame: pd.DataFrame) -> Units:
    """The unit table of a record frame (:mod:`spades_sim.run.records`): a seat-hand frame (one row
    per seat and hand, every seat of each hand) or a game frame (one row per game)."""
    if "seat" in frame.columns:
        return _hand_frame_units(frame)
    if "winner" in frame.columns:
        sides = sum(1 for column in frame.columns if column.startswith("score_"))
        if "seat_hands_0" not in frame.columns:
            raise FrameError("game frame: allowed a frame of records.game_frame (with its "
                             "seat_hands_k columns)")
        hands = frame["hands"].to_numpy(np.int64)
        # Every game has a hand, and seat_hands_k = hands × the seats of a side.
        seats = sides * (int(frame["seat_hands_0"].iloc[0] // hands[0]) if len(frame) else 1)

        def sides_of(name: str) -> np.ndarray:
            return np.column_stack([frame[f"{name}_{side}"].to_numpy(np.int64)
                                    for side in range(sides)])

        return _game_units(seats, hands, frame["winner"].to_numpy(), sides_of)
    raise FrameError("frame: allowed a seat-hand frame (with a seat column) or a game frame "
                     "(with a winner column)")


def _hand_frame_units(frame: pd.DataFrame) -> Units:
    ordered = frame.sort_values(["game", "hand", "seat"], kind="stable")
    seats = int(ordered["seat"].max()) + 1 if len(ordered) else 1
    sides = int(ordered["side"].max()) + 1 if len(ordered) else 1
    units = len(ordered) // seats
    whole = units * seats == len(ordered) and (
        ordered["seat"].to_numpy().reshape(units, seats) == np.arange(seats)).all()
    if not whole:
        raise FrameError("hand frame: allowed whole hands (a row for every seat of each hand)")

    def seat_values(name: str) -> np.ndarray:
        return ordered[name].to_numpy(np.int64).reshape(units, seats)

    def side_values(name: str) -> np.ndarray:
        return seat_values(name)[:, :sides]  # seats 0 … sides-1 are one of each side

    return _hand_units(bid=seat_values("bid"), blind=seat_values("blind"),
                       tricks=seat_values("tricks"), contract=side_values("contract"),
                       made=side_values("made"), points=side_values("points"),
                       bags=side_values("bags"), penalty=side_values("penalty"))


# ---------------------------------------------------------------- sums and tables


@dataclass
class Sums:
    """The sums of one metric over units, enough for its value and interval: Σy, Σy², Σx, Σx²,
    Σxy over units (y the numerator, x the denominator of each unit) and the number of units.
    Sums of whole numbers, so sums of blocks merge exactly."""

    y: float = 0.0
    yy: float = 0.0
    x: float = 0.0
    xx: float = 0.0
    xy: float = 0.0
    units: int = 0

    def add(self, y: np.ndarray, x: np.ndarray) -> None:
        """Add the units with numerators ``y`` and denominators ``x``."""
        self.add_sums(y.sum(), (y * y).sum(), x.sum(), (x * x).sum(), (x * y).sum(), y.size)

    def add_sums(self, y: float, yy: float, x: float, xx: float, xy: float, units: int) -> None:
        """Add sums already taken over ``units`` units."""
        self.y += float(y)
        self.yy += float(yy)
        self.x += float(x)
        self.xx += float(xx)
        self.xy += float(xy)
        self.units += int(units)

    def merge(self, other: Sums) -> None:
        for spec in fields(self):
            setattr(self, spec.name, getattr(self, spec.name) + getattr(other, spec.name))

    def estimate(self, interval: str, share: bool = True,
                 nonnegative: bool = False) -> tuple[float, float, float]:
        """(value, low, high) with the 95% interval of kind ``interval`` (NaNs without a
        denominator); ``share``: the value is a share of trials (a rate), and its interval
        stays within [0, 1]; ``nonnegative``: no unit's numerator is below 0, and the
        interval stays above 0."""
        if not self.x:
            return math.nan, math.nan, math.nan
        value = self.y / self.x
        if interval == "proportion":
            low, high = wilson_interval(round(self.y), round(self.x))
            return value, low, high
        sums = (self.y, self.x, self.yy, self.xx, self.xy, self.units)
        if share:
            _, low, high = rate_interval(*sums)
        elif nonnegative:
            _, low, high = positive_ratio_interval(*sums)
        else:
            _, low, high = ratio_interval(*sums)
        return value, low, high


TABLE_COLUMNS = ["key", "side", "metric", "unit", "value", "low", "high", "n", "per", "units",
                 "interval"]
"""The columns of a metrics table: the metric's ``key``, the ``side`` (None: pooled), its
``metric`` label as printed, ``unit``, ``value`` and 95% interval (``low``, ``high``), ``n``
(Σ denominator) counted in ``per``, the number of ``units`` (hands or games) and the
``interval`` kind."""


def row(metric: Metric, sums: Sums, side: int | None = None, sides: int = 2,
        seats: int = 4) -> dict[str, object]:
    """One row of a metrics table (:data:`TABLE_COLUMNS`)."""
    value, low, high = sums.estimate(metric.interval, metric.percent, metric.nonnegative)
    label = metric.label if side is None else f"{side_label(side, sides, seats)} {metric.label}"
    return {"key": metric.key, "side": side, "metric": label, "unit": metric.unit,
            "value": value, "low": low, "high": high, "n": round(sums.x), "per": metric.per,
            "units": sums.units, "interval": metric.interval}


def sums_of(units: Units, metric: Metric, sides: Sequence[int] | None = None) -> Sums:
    """The sums of ``metric`` over ``units`` for ``sides`` (None: every side)."""
    sums = Sums()
    sums.add(*units.pair(metric, sides))
    return sums


def selections(kind: str, sides: int) -> Iterable[tuple[Metric, int | None]]:
    """Every (metric, side) a run's summary shows, in table order; side None is pooled."""
    for metric in of_run(kind):
        if metric.shown in ("pooled", "both"):
            yield metric, None
        if metric.shown in ("each", "both") and sides > 1:
            for side in range(sides):
                yield metric, side


def chosen(kind: str, sides: int, side: int | None = None,
           keys: Sequence[str] | None = None) -> list[tuple[Metric, int | None]]:
    """The (metric, side) rows of a table: the run's summary (:func:`selections`), or with
    ``side`` every metric of that side; ``keys`` keeps those metrics only, in that order."""
    if keys is not None:
        return [(metric(key, kind), side) for key in keys]
    if side is None:
        return list(selections(kind, sides))
    return [(m, side) for m in of_run(kind) if m.shown != "none"]


def table(units: Units, side: int | None = None,
          keys: Sequence[str] | None = None) -> pd.DataFrame:
    """The metrics table of a unit table, rows as :func:`chosen` picks them."""
    return _table(chosen(units.kind, units.sides, side, keys),
                  lambda m, s: sums_of(units, m, None if s is None else [s]),
                  units.sides, units.seats)


def _table(rows_of, sums_for, sides: int, seats: int) -> pd.DataFrame:
    frame = pd.DataFrame([row(m, sums_for(m, s), s, sides, seats) for m, s in rows_of],
                         columns=TABLE_COLUMNS)
    frame["side"] = frame["side"].astype("Int64")  # a side number, or <NA> for pooled rows
    return frame


def select(frame: pd.DataFrame, key: str, side: int | None = None) -> pd.DataFrame:
    """The rows of a metrics table (or a side-by-side table) for metric ``key`` and ``side``
    (None: pooled)."""
    sides = frame["side"]
    return frame[(frame["key"] == key) & (sides.isna() if side is None else sides == side)]


def pick(frame: pd.DataFrame, key: str, side: int | None = None) -> pd.Series:
    """The one row of a metrics table for metric ``key`` and ``side`` (None: pooled).

    >>> from spades_sim import simulate_hands
    >>> summary = simulate_hands("standard", "basic", 500, seed=1).summary()
    >>> pick(summary, "bid_error", side=1)["metric"]
    'side 1 (seats 1+3) mean absolute bid error'
    """
    rows = select(frame, key, side)
    if len(rows) != 1:
        raise MetricError(f"metric={key!r} side={side!r}: allowed a metric and side of the "
                          f"table (found {len(rows)} rows)")
    return rows.iloc[0]


class Totals:
    """Running sums of every (metric, side) of a ``kind`` run, added block by block of kernel
    records (:meth:`add`), merged across blocks (:meth:`merge`) and summarised as the table of
    :func:`table` (:meth:`summary`): the same figures as the record frames of the same hands."""

    def __init__(self, kind: str, seats: int = 4, sides: int = 2):
        self.kind, self.seats, self.sides = kind, seats, sides
        self.sums: dict[tuple[str, int | None], Sums] = {
            (m.key, side): Sums() for m in of_run(kind) for side in (None, *range(sides))}

    def add(self, records) -> None:
        """Add one block of ``HandRecords`` or ``GameRecords``."""
        metrics = of_run(self.kind)
        if self.kind == "hands":
            # Summed straight from the records, on the run's threads (kernel.sums).
            names: list[str] = list(HAND_UNIT_COLUMNS)
            out = hand_metric_sums(
                *_metric_indices(metrics, names),
                **{name: getattr(records, name) for name in HAND_RECORD_COLUMNS})
            count = records.bid.shape[0]
        else:
            units = game_units(records, self.seats)
            names = list(units.columns)
            columns, per_side = units.stacked()
            out = metric_sums(columns, per_side, *_metric_indices(metrics, names))
            count = columns.shape[1]
        for selection, side in enumerate((None, *range(self.sides))):
            for metric, (y, yy, x, xx, xy) in zip(metrics, out[selection], strict=True):
                self.sums[(metric.key, side)].add_sums(y, yy, x, xx, xy, units=count)

    def merge(self, other: Totals) -> None:
        """Add ``other`` (the totals of later blocks of the same run) into these."""
        for selection, sums in self.sums.items():
            sums.merge(other.sums[selection])

    def empty_like(self) -> Totals:
        """Zero totals for the same run."""
        return Totals(self.kind, self.seats, self.sides)

    def get(self, key: str, side: int | None = None) -> Sums:
        """The sums of metric ``key`` for ``side`` (None: pooled)."""
        return self.sums[(metric(key, self.kind).key, side)]

    def summary(self, side: int | None = None,
                keys: Sequence[str] | None = None) -> pd.DataFrame:
        """The run's metrics table, rows as :func:`chosen` picks them."""
        return _table(chosen(self.kind, self.sides, side, keys),
                      lambda m, s: self.sums[(m.key, s)], self.sides, self.seats)

    def as_row(self) -> dict[str, float]:
        """Every sum as one flat row ``{"nil_success.all.y": …}`` (for a saved run's shard)."""
        flat: dict[str, float] = {"seats": self.seats, "sides": self.sides}
        for (key, side), sums in self.sums.items():
            for spec in fields(sums):
                flat[f"{key}.{'all' if side is None else side}.{spec.name}"] = getattr(
                    sums, spec.name)
        return flat

    @classmethod
    def from_row(cls, kind: str, flat: dict[str, float]) -> Totals:
        """The totals written by :meth:`as_row` (KeyError if a sum is missing)."""
        totals = cls(kind, int(flat["seats"]), int(flat["sides"]))
        for (key, side), sums in totals.sums.items():
            for spec in fields(sums):
                value = flat[f"{key}.{'all' if side is None else side}.{spec.name}"]
                setattr(sums, spec.name, int(value) if spec.name == "units" else float(value))
        return totals


__all__ = [
    "CATALOGUE",
    "METRICS",
    "RUN_KINDS",
    "TABLE_COLUMNS",
    "FrameError",
    "Metric",
    "MetricError",
    "Sums",
    "Totals",
    "Units",
    "chosen",
    "frame_units",
    "game_units",
    "hand_units",
    "metric",
    "of_run",
    "penalty_decides",
    "pick",
    "row",
    "select",
    "selections",
    "side_label",
    "sums_of",
    "table",
]

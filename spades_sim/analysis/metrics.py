"""The analysis API on tidy record frames: metrics with 95% intervals, per run and side by side.

Everything here works on the frames of :mod:`spades_sim.run.records` (``Run.records()``
of a run with ``keep_records=True``, or a Parquet/CSV file written by ``--out``),
so it serves a notebook as well as the commands built on it:

>>> from spades_sim import simulate_games
>>> from spades_sim.analysis.metrics import game_metrics
>>> run = simulate_games("standard", ["expert", "basic"], 200, seed=1, keep_records=True)
>>> table = game_metrics(run.records())
>>> list(table.columns)
['key', 'side', 'metric', 'unit', 'value', 'low', 'high', 'n', 'per', 'units', 'interval']
>>> from spades_sim.run.catalogue import pick
>>> bool(pick(table, "hands_per_game")["value"] == pick(run.summary(), "hands_per_game")["value"])
True

The metrics are those of the catalogue (:mod:`spades_sim.run.catalogue`), evaluated on the
frame's units exactly as ``simulate`` evaluates them block by block, so a frame and the
run's summary agree to the last digit. Seat-hand frames (hand runs) give
:func:`hand_metrics`, :func:`bid_profile` and :func:`bid_minus_tricks`; game frames give
:func:`game_metrics`; :func:`compare_game_frames` puts runs of the same deals (other
rules, other strategies) side by side with paired differences against the first;
:func:`economics` turns results into money. Nil success by hand feature is in
:mod:`spades_sim.analysis.nil`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import cast

import numpy as np
import pandas as pd

from ..intervals import mean_interval, ratio_difference, wilson_interval
from ..numbers import decimal_number
from ..outputs import shown
from ..run.catalogue import chosen, frame_units, penalty_decides, table

# ---------------------------------------------------------------- game frames


def side_count(games: pd.DataFrame) -> int:
    """How many sides a game frame has (its ``score_k`` columns)."""
    return sum(1 for column in games.columns if column.startswith("score_"))


def _side_columns(games: pd.DataFrame, name: str) -> np.ndarray:
    """The ``name_k`` columns of every side as a (games, sides) array."""
    return np.column_stack([games[f"{name}_{side}"].to_numpy(np.int64)
                            for side in range(side_count(games))])


def decided_by_penalty(games: pd.DataFrame) -> np.ndarray:
    """Per game of a game frame: whether the bag penalties decided it
    (:func:`spades_sim.run.catalogue.penalty_decides`)."""
    return penalty_decides(_side_columns(games, "score"), _side_columns(games, "penalty"),
                              games["winner"].to_numpy())


def placed_second(games: pd.DataFrame) -> np.ndarray:
    """Per game and side (bool array): the side with the highest final score among the losers of
    a finished game (ties go to the lower side number)."""
    score = _side_columns(games, "score").astype(np.float64)
    winner = games["winner"].to_numpy()
    losers = np.where(np.arange(score.shape[1]) == winner[:, None], -np.inf, score)
    second = np.argmax(losers, axis=1)
    placed: np.ndarray = (np.arange(score.shape[1]) == second[:, None]) & (winner >= 0)[:, None]
    return placed


def game_metrics(games: pd.DataFrame, side: int | None = None,
                 keys: Sequence[str] | None = None) -> pd.DataFrame:
    """The metrics of a game frame with 95% intervals (:data:`spades_sim.run.catalogue.TABLE_COLUMNS`):
    win rates, unfinished games, game length, nil and blind-nil bids and success, contracts
    made and set, bid error, bags, penalties, games decided by a penalty, points.

    ``side=None`` pools every side (and gives each side's win rate); ``side=k`` gives side
    ``k``'s own figures, for example the side a strategy sat on; ``keys`` picks metrics.
    """
    return table(frame_units(games), side, keys)


def compare_game_frames(frames: Mapping[str, pd.DataFrame], side: int | None = None,
                        keys: Sequence[str] | None = None) -> pd.DataFrame:
    """Runs of the same deal sequences side by side (other rules or strategies, same seed).

    One row per run and metric: ``run``, the columns of :func:`game_metrics`, and
    ``difference`` (this run − the first) with its paired 95% interval (``diff_low``,
    ``diff_high``), game ``g`` of each run paired with game ``g`` of the first. The runs
    must have the same number of games. The first run's differences are 0.
    """
    labels = list(frames)
    counts = {len(frames[label]) for label in labels}
    if len(counts) != 1:
        raise ValueError(f"games={sorted(counts)}: allowed runs of the same number of games")
    units = {label: frame_units(frames[label]) for label in labels}
    first = units[labels[0]]
    rows = []
    for label in labels:
        metrics = table(units[label], side, keys)
        for picked, record in zip(chosen(first.kind, first.sides, side, keys),
                                  metrics.to_dict("records"), strict=True):
            metric, chosen_side = picked
            sides = None if chosen_side is None else [chosen_side]
            difference = ratio_difference(*units[label].pair(metric, sides),
                                          *first.pair(metric, sides))
            rows.append({"run": label, **record, "difference": difference[0],
                         "diff_low": difference[1], "diff_high": difference[2]})
    frame = pd.DataFrame(rows)
    frame["side"] = frame["side"].astype("Int64")
    return frame


# ---------------------------------------------------------------- seat-hand frames


def hand_metrics(hands: pd.DataFrame, side: int | None = None,
                 keys: Sequence[str] | None = None) -> pd.DataFrame:
    """The metrics of a seat-hand frame with 95% intervals: bids, nil and blind-nil bid and
    success rates, contracts made and set, contract minus tricks (signed and absolute),
    bags, penalties and points per side-hand. ``side=k`` gives side ``k``'s figures."""
    return table(frame_units(hands), side, keys)


BID_COLUMNS = ("game", "hand", "seat", "side", "bid", "blind", "tricks", "contract", "made",
               "points", "bags", "penalty")
"""The record columns :func:`bid_profile` and :func:`bid_minus_tricks` read."""


def _side_hands(hands: pd.DataFrame) -> pd.DataFrame:
    """One row per side and hand of a seat-hand frame, with the tricks of its count bidders."""
    count_tricks = np.where(hands["bid"] > 0, hands["tricks"], 0)
    per_side = (pd.DataFrame({"game": hands["game"], "hand": hands["hand"], "side": hands["side"],
                              "count_tricks": count_tricks})
                .groupby(["game", "hand", "side"], sort=True)["count_tricks"].sum())
    first_seats = hands[hands["seat"] == hands["side"]].sort_values(["game", "hand", "side"])
    frame = first_seats[["game", "hand", "side", "contract", "made", "points", "bags",
                         "penalty"]].reset_index(drop=True)
    frame["count_tricks"] = per_side.to_numpy()
    return frame


def bid_minus_tricks(hands: pd.DataFrame) -> pd.DataFrame:
    """The distribution of contract − tricks taken by the count bidders, per side-hand with a
    contract: positive = short (set), negative = overtricks (bags).

    One row per value: ``bid_minus_tricks``, ``side_hands``, ``share`` with its Wilson
    interval (``low``, ``high``).
    """
    side_hands = _side_hands(hands)
    side_hands = side_hands[side_hands["contract"] > 0]
    values = (side_hands["contract"] - side_hands["count_tricks"]).astype(np.int64)
    counts = values.value_counts().sort_index()
    total = int(counts.sum())
    rows = []
    # The index holds the integer values counted (pandas types an index label as Hashable).
    for value, count in cast(Iterable[tuple[int, int]], counts.items()):
        low, high = wilson_interval(int(count), total)
        rows.append({"bid_minus_tricks": int(value), "side_hands": int(count),
                     "share": count / total, "low": low, "high": high})
    return pd.DataFrame(rows, columns=["bid_minus_tricks", "side_hands", "share", "low", "high"])


def bid_label(bid: int, blind: int) -> str:
    """How a bid is named in a profile: "blind nil", "nil" or the number."""
    return "blind nil" if blind else ("nil" if bid == 0 else str(bid))


def bid_profile(hands: pd.DataFrame) -> pd.DataFrame:
    """How often each bid is made, per seat-hand: ``bid`` ("blind nil", "nil", "1", …),
    ``seat_hands``, ``share`` with its Wilson interval (``low``, ``high``), in bid order."""
    blind = hands["blind"].to_numpy() == 1
    bid = hands["bid"].to_numpy(np.int64)
    order = np.where(blind, -1, bid)
    counts = pd.Series(order).value_counts().sort_index()
    total = int(counts.sum())
    rows = []
    # The index holds the integer values counted (pandas types an index label as Hashable).
    for value, count in cast(Iterable[tuple[int, int]], counts.items()):
        low, high = wilson_interval(int(count), total)
        rows.append({"bid": bid_label(max(int(value), 0), int(value) < 0),
                     "seat_hands": int(count), "share": count / total, "low": low, "high": high})
    return pd.DataFrame(rows, columns=["bid", "seat_hands", "share", "low", "high"])


# ---------------------------------------------------------------- table economics


class EconomicsError(ValueError):
    """A bad buy-in or rake."""


def parse_rake(text: str) -> float:
    """A rake as a share of the buy-in: ``"15%"`` or ``"0.15"``.

    >>> parse_rake("15%"), parse_rake("0.15")
    (0.15, 0.15)
    """
    try:
        value = (decimal_number(text[:-1]) / 100 if text.endswith("%")
                 else decimal_number(text))
    except ValueError:
        value = math.nan
    if not 0 <= value < 1:
        raise EconomicsError(f"rake={shown(text)!r}: allowed a share of the buy-in from 0 to "
                             "under 1, e.g. 15% or 0.15")
    return value


MAX_BUY_IN = 10**9
"""The largest buy-in (profits of many games stay exact far beyond it)."""


def check_buy_in(buy_in: float) -> None:
    """Refuse a buy-in that is not a positive amount up to :data:`MAX_BUY_IN`."""
    if not (isinstance(buy_in, int | float) and not isinstance(buy_in, bool)
            and math.isfinite(buy_in) and 0 < buy_in <= MAX_BUY_IN):
        raise EconomicsError(f"buy-in={buy_in!r}: allowed a positive amount up to {MAX_BUY_IN:,}")


@dataclass(frozen=True)
class Payouts:
    """What one player gets back from the prize pool, by result, at a table of ``seats`` players
    in ``sides`` sides, each paying ``buy_in`` of which ``rake`` (a share) is not in the pool.

    The pool is ``seats × buy_in × (1 − rake)``. The winning side's players share it, except
    that at an individual table of three or more (solo, three- and five-player) the second
    place gets its buy-in back less the rake first. An unfinished game pays everyone's share
    back (a tie: the pool split evenly).
    """

    buy_in: float
    rake: float
    seats: int
    sides: int

    @property
    def net(self) -> float:
        """One buy-in less the rake."""
        return self.buy_in * (1 - self.rake)

    @property
    def second(self) -> float:
        return self.net if self.sides == self.seats and self.seats >= 3 else 0.0

    @property
    def first(self) -> float:
        return (self.seats * self.net - self.second) / (self.seats // self.sides)

    def expected_profit(self, win: float, second: float = 0.0, unfinished: float = 0.0) -> float:
        """Expected profit per game of one player from the rates of its results."""
        return win * self.first + second * self.second + unfinished * self.net - self.buy_in

    def break_even(self, second: float = 0.0, unfinished: float = 0.0) -> float:
        """The win rate at which the expected profit is 0 (the other rates held)."""
        return (self.buy_in - second * self.second - unfinished * self.net) / self.first

    def profit(self, won: np.ndarray, second: np.ndarray, unfinished: np.ndarray) -> np.ndarray:
        """Profit of one player in each game, from per-game 0/1 results."""
        return won * self.first + second * self.second + unfinished * self.net - self.buy_in


def economics(games: pd.DataFrame, buy_in: float, rake: float, seats: int,
              labels: Mapping[int, str] | None = None) -> pd.DataFrame:
    """Expected profit per game of a player on each side of a game frame, with its 95% interval,
    and the break-even win rate; see :class:`Payouts` for who is paid what.

    ``labels`` names the sides (for example by strategy); one row per side: ``side``, ``label``,
    ``win_rate``, ``second_rate``, ``profit``, ``low``, ``high``, ``break_even``.
    """
    check_buy_in(buy_in)
    sides = side_count(games)
    payouts = Payouts(buy_in, rake, seats, sides)
    winner = games["winner"].to_numpy()
    unfinished = (winner < 0).astype(np.float64)
    second = placed_second(games)
    rows = []
    for side in range(sides):
        won = (winner == side).astype(np.float64)
        profits = payouts.profit(won, second[:, side].astype(np.float64), unfinished)
        mean, low, high = mean_interval(float(profits.sum()), float((profits * profits).sum()),
                                        profits.size)
        second_rate = float(second[:, side].mean()) if payouts.second else 0.0
        rows.append({"side": side, "label": (labels or {}).get(side, f"side {side}"),
                     "win_rate": float(won.mean()), "second_rate": second_rate, "profit": mean,
                     "low": low, "high": high,
                     "break_even": payouts.break_even(second_rate, float(unfinished.mean()))})
    return pd.DataFrame(rows)


__all__ = [
    "BID_COLUMNS",
    "EconomicsError",
    "Payouts",
    "bid_label",
    "bid_minus_tricks",
    "bid_profile",
    "check_buy_in",
    "compare_game_frames",
    "decided_by_penalty",
    "economics",
    "game_metrics",
    "hand_metrics",
    "parse_rake",
    "placed_second",
    "side_count",
]

"""Nil attempts and success broken down by a feature of the hand as dealt.

Works on the tidy seat-hand frame of :func:`spades_sim.run.records.hand_frame` (one row
per seat and hand, with the hand features ``spades``, ``top_spade``, ``voids``,
``aces``, ``kings`` and ``nil_risk``), so it serves a notebook as well as the
``spades-sim nil`` command:

>>> from spades_sim import simulate_hands
>>> from spades_sim.analysis.nil import nil_by_feature
>>> run = simulate_hands("standard", "expert", 2_000, seed=1, keep_records=True)
>>> table = nil_by_feature(run.records(), "spades")
>>> list(table.columns)[:4]
['spades', 'seat_hands', 'bids', 'bid_rate']

A nil here is a plain nil; with ``blind=True`` the table is of blind nils instead
(bid before the cards were seen, so the feature is of the hand the bidder then
found). The rates are conditional on the policy's choice to bid nil: they say how
the nils a strategy chooses fare, not how any hand would fare if it bid nil.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from ..cards import card_symbol, format_card
from ..intervals import wilson_interval
from ..outputs import shown
from ..rules import RuleSet
from .figures import LEFT_OUT, MIN_CASES, error_bars, plain_text, pyplot, save
from .formatting import table_rows

FEATURES: dict[str, str] = {
    "spades": "trumps held",
    "top_spade": "highest trump held (rank from the lowest: 0 = the 2 of a standard deck; -1 none)",
    "voids": "suits with no card",
    "aces_kings": "aces and kings held",
    "nil_risk": "the policies' nil-risk score, in steps of 0.25 (0: no high card)",
}
"""The hand features a nil table can be broken down by, and what each counts."""

RISK_STEP = 0.25


class FeatureError(ValueError):
    """An unknown hand feature."""


def check_feature(feature: str) -> None:
    """Refuse a feature that is not in :data:`FEATURES`."""
    if feature not in FEATURES:
        raise FeatureError(f"by={shown(feature)!r}: allowed " + ", ".join(FEATURES))


def nil_columns(feature: str) -> list[str]:
    """The record columns :func:`nil_by_feature` reads for ``feature``."""
    check_feature(feature)
    kept = ["aces", "kings"] if feature == "aces_kings" else [feature]
    return ["bid", "blind", "tricks", *kept]


def feature_values(frame: pd.DataFrame, feature: str) -> pd.Series:
    """The value of ``feature`` for every row of a seat-hand frame (nil risk rounded down to
    a multiple of 0.25)."""
    check_feature(feature)
    if feature == "aces_kings":
        return (frame["aces"].astype(np.int64) + frame["kings"].astype(np.int64)).rename(feature)
    if feature == "nil_risk":
        # Rounded before flooring: float32 risks such as 0.3 + 0.2 must not fall a step short.
        steps = np.floor(np.round(frame["nil_risk"].to_numpy(np.float64) / RISK_STEP, 6))
        return pd.Series(steps * RISK_STEP, index=frame.index, name=feature)
    return frame[feature].astype(np.int64).rename(feature)


CARD_COLUMN = "card"
"""The column naming the card of a ``top_spade`` value (``none``, ``2S`` … ``AS``, ``BJ``)."""


def nil_by_feature(frame: pd.DataFrame, feature: str, blind: bool = False,
                   rules: RuleSet | None = None) -> pd.DataFrame:
    """Nil (or, with ``blind``, blind-nil) bids and their success per value of a hand feature,
    with Wilson 95% intervals.

    One row per value seen: ``seat_hands`` with that value, nil ``bids`` among them and the
    ``bid_rate`` (``bid_low``, ``bid_high``), nils ``made`` and the ``success`` rate
    (``low``, ``high``; NaN where no nil was bid). For ``top_spade`` under known ``rules``,
    a :data:`CARD_COLUMN` after the value names its card (:func:`feature_labels`).
    """
    values = feature_values(frame, feature)
    nil = ((frame["bid"] == 0) & (frame["blind"] == int(blind))).to_numpy()
    made = nil & (frame["tricks"] == 0).to_numpy()
    grouped = pd.DataFrame({feature: values, "bids": nil, "made": made}).groupby(feature)
    table = grouped.agg(seat_hands=("bids", "size"), bids=("bids", "sum"), made=("made", "sum"))
    table = table.reset_index()
    rows = []
    for row in table_rows(table):
        bid_low, bid_high = wilson_interval(int(row.bids), int(row.seat_hands))
        low, high = wilson_interval(int(row.made), int(row.bids))
        rows.append({
            "bid_rate": row.bids / row.seat_hands, "bid_low": bid_low, "bid_high": bid_high,
            "success": row.made / row.bids if row.bids else np.nan, "low": low, "high": high,
        })
    result = pd.concat([table, pd.DataFrame(rows, index=table.index)], axis=1)
    named = feature == "top_spade" and rules is not None
    if named:
        result[CARD_COLUMN] = feature_labels(feature, result[feature].tolist(), rules,
                                             symbols=False)
    return result[[feature, *([CARD_COLUMN] if named else []), "seat_hands", "bids",
                   "bid_rate", "bid_low", "bid_high", "made", "success", "low", "high"]]


def feature_title(feature: str) -> str:
    """What a feature counts, without the note on its values (:data:`FEATURES`), for a figure
    whose axis names the values.

    >>> feature_title("top_spade")
    'highest trump held'
    """
    return FEATURES[feature].split(" (")[0]


def feature_labels(feature: str, values: Sequence[float], rules: RuleSet | None = None,
                   symbols: bool = True) -> list[str]:
    """How a figure names each value of ``feature``: for ``top_spade`` under known ``rules``
    the card (``none``, ``2♠`` … ``A♠``, then the jokers or promoted deuces of the deck,
    ranked as docs/analysis.md lists them per deck; without ``symbols`` as the tables and
    text write cards, ``2S`` … ``AS``), else the number.

    Without the rules a ``top_spade`` value names different cards in different decks, so it
    stays a number.

    >>> from spades_sim.rules import RuleSet
    >>> feature_labels("top_spade", [-1, 0, 12], RuleSet())
    ['none', '2♠', 'A♠']
    >>> feature_labels("top_spade", [-1, 11, 12, 13], RuleSet(deck="deuce-high"))
    ['none', 'A♠', '2♠', '13']
    >>> feature_labels("top_spade", [-1, 0, 12], RuleSet(), symbols=False)
    ['none', '2S', 'AS']
    """
    numbers = [f"{value:g}" for value in values]
    if feature != "top_spade" or rules is None:
        return numbers
    # The kernel counts top_spade in this order, so the names follow it exactly.
    from ..kernel.packing import deck_suits

    lowest_first = deck_suits(rules)[3]
    name = card_symbol if symbols else format_card
    return ["none" if value == -1 else name(lowest_first[int(value)])
            if 0 <= value < len(lowest_first) else number
            for value, number in zip(values, numbers, strict=True)]


@plain_text
def plot_nil_by_feature(table: pd.DataFrame, feature: str, title: str, path: str,
                        blind: bool = False, rules: RuleSet | None = None,
                        min_cases: int = MIN_CASES) -> None:
    """Success rate by feature value with 95% error bars, and the bid rate beneath; PNG or SVG.

    A value with fewer than ``min_cases`` seat-hands has no bid rate drawn, and one with fewer
    than ``min_cases`` nil bids no success rate: the figure marks and names them. With the
    ``rules`` the run played, ``top_spade`` values are named as cards (:func:`feature_labels`).
    """
    plt = pyplot()
    kind = "blind nil" if blind else "nil"
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(6.4, 5.6), sharex=True,
                                      gridspec_kw={"height_ratios": [2, 1]}, layout="constrained")
    x = table[feature].to_numpy(np.float64)
    width = RISK_STEP * 0.8 if feature == "nil_risk" else 0.8
    bids = table["bids"].to_numpy()
    shown = bids >= min_cases
    thin_success = (bids > 0) & ~shown
    success = 100 * table["success"].to_numpy(np.float64)
    errors = error_bars(success, 100 * table["low"], 100 * table["high"])
    top.errorbar(x[shown], success[shown], yerr=errors[:, shown], fmt="o-", capsize=4,
                 color="#3b6ea8", label=f"{kind} success, 95% interval")
    top.set_ylim(0, 100)
    top.set_ylabel(f"{kind}s made (%)")
    top.set_title(title, fontsize=10)
    hands = table["seat_hands"].to_numpy()
    counted = hands >= min_cases
    bid_rate = 100 * table["bid_rate"].to_numpy(np.float64)
    bid_errors = error_bars(bid_rate, 100 * table["bid_low"], 100 * table["bid_high"])
    bottom.bar(x[counted], bid_rate[counted], width=width, yerr=bid_errors[:, counted],
               capsize=3, color="#c26b2b", label=f"hands bid {kind}, 95% interval")
    few = f"fewer than {min_cases} cases: left out"
    for ax, left_out in ((top, thin_success), (bottom, ~counted)):
        if left_out.any():
            ax.plot(x[left_out], np.zeros(left_out.sum()), linestyle="none", marker="x",
                    color=LEFT_OUT, markersize=7, clip_on=False, label=few)
    top.legend(loc="best", fontsize=8)
    # Headroom above the highest bar and its interval, where the legend goes (a rate stops
    # at 100%, then the legend finds its own place).
    highest = float(np.nanmax((bid_rate + bid_errors[1])[counted])) if counted.any() else 0.0
    bottom.set_ylim(0, min(100.0, 1.8 * max(1.0, highest)))
    bottom.legend(loc="upper right" if 1.8 * highest <= 100 else "best", fontsize=8)
    bottom.set_ylabel(f"bid {kind} (%)")
    labels = feature_labels(feature, x.tolist(), rules)
    named = labels != [f"{value:g}" for value in x]
    bottom.set_xlabel(feature_title(feature) if named else FEATURES[feature])
    if feature != "nil_risk":
        bottom.set_xticks(x, labels, fontsize=8 if len(x) <= 16 else 7)
    fig.supxlabel(_left_out_note(labels, thin_success, ~counted, min_cases, kind),
                  fontsize=8, color="#444444")
    save(fig, path)


def _left_out_note(labels: list[str], thin_success: np.ndarray, thin_bids: np.ndarray,
                   min_cases: int, kind: str) -> str:
    """The figure's note: the minimum of cases, and the values (as labelled) it left out."""
    parts = [f"{what} at {', '.join(np.asarray(labels)[mask])}"
             for what, mask in (("success", thin_success), ("bid rate", thin_bids)) if mask.any()]
    return (f"Drawn where a value has at least {min_cases} {kind} bids (success) or "
            f"{min_cases} seat-hands (bid rate); left out here: "
            + ("; ".join(parts) if parts else "none") + ".")

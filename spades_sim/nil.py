"""Nil attempts and success broken down by a feature of the hand as dealt.

Works on the tidy seat-hand frame of :func:`spades_sim.records.hand_frame` (one row
per seat and hand, with the hand features ``spades``, ``top_spade``, ``voids``,
``aces``, ``kings`` and ``nil_risk``), so it serves a notebook as well as the
``spades-sim nil`` command:

>>> from spades_sim import simulate_hands
>>> from spades_sim.nil import nil_by_feature
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

import numpy as np
import pandas as pd

from .intervals import wilson_interval
from .figures import plain_text, pyplot, save
from .outputs import shown

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


def nil_by_feature(frame: pd.DataFrame, feature: str, blind: bool = False) -> pd.DataFrame:
    """Nil (or, with ``blind``, blind-nil) bids and their success per value of a hand feature,
    with Wilson 95% intervals.

    One row per value seen: ``seat_hands`` with that value, nil ``bids`` among them and the
    ``bid_rate`` (``bid_low``, ``bid_high``), nils ``made`` and the ``success`` rate
    (``low``, ``high``; NaN where no nil was bid).
    """
    values = feature_values(frame, feature)
    nil = ((frame["bid"] == 0) & (frame["blind"] == int(blind))).to_numpy()
    made = nil & (frame["tricks"] == 0).to_numpy()
    grouped = pd.DataFrame({feature: values, "bids": nil, "made": made}).groupby(feature)
    table = grouped.agg(seat_hands=("bids", "size"), bids=("bids", "sum"), made=("made", "sum"))
    table = table.reset_index()
    rows = []
    for row in table.itertuples(index=False):
        bid_low, bid_high = wilson_interval(int(row.bids), int(row.seat_hands))
        low, high = wilson_interval(int(row.made), int(row.bids))
        rows.append({
            "bid_rate": row.bids / row.seat_hands, "bid_low": bid_low, "bid_high": bid_high,
            "success": row.made / row.bids if row.bids else np.nan, "low": low, "high": high,
        })
    result = pd.concat([table, pd.DataFrame(rows, index=table.index)], axis=1)
    return result[[feature, "seat_hands", "bids", "bid_rate", "bid_low", "bid_high", "made",
                   "success", "low", "high"]]


@plain_text
def plot_nil_by_feature(table: pd.DataFrame, feature: str, title: str, path: str,
                        blind: bool = False) -> None:
    """Success rate by feature value with 95% error bars, and the bid rate beneath; PNG or SVG."""
    plt = pyplot()
    kind = "blind nil" if blind else "nil"
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(6, 5.2), sharex=True,
                                      gridspec_kw={"height_ratios": [2, 1]})
    x = table[feature].to_numpy(np.float64)
    width = RISK_STEP * 0.8 if feature == "nil_risk" else 0.8
    shown = table["bids"].to_numpy() > 0
    success = table["success"].to_numpy()
    # Clipped at 0: a Wilson bound can sit a rounding error inside a rate of 0 or 1.
    errors = np.clip(np.vstack([success - table["low"].to_numpy(),
                                table["high"].to_numpy() - success]), 0, None)
    top.errorbar(x[shown], 100 * success[shown], yerr=100 * errors[:, shown], fmt="o-",
                 capsize=4, color="#3b6ea8", label=f"{kind} success, 95% interval")
    top.set_ylim(0, 100)
    top.set_ylabel(f"{kind}s made (%)")
    top.legend(loc="lower left", fontsize=8)
    top.set_title(title, fontsize=10)
    bid_rate = table["bid_rate"].to_numpy()
    bid_errors = np.clip(np.vstack([bid_rate - table["bid_low"].to_numpy(),
                                    table["bid_high"].to_numpy() - bid_rate]), 0, None)
    bottom.bar(x, 100 * bid_rate, width=width, yerr=100 * bid_errors, capsize=3,
               color="#c26b2b", label=f"hands bid {kind}, 95% interval")
    bottom.set_ylabel(f"bid {kind} (%)")
    bottom.set_xlabel(FEATURES[feature])
    bottom.legend(loc="upper right", fontsize=8)
    save(fig, path)

"""One way to write a value and its interval: as text for a terminal, and the text tables of the
commands. Whether a value is a percentage comes from its unit (``rate``, see
:mod:`spades_sim.run.catalogue`), never from its label.

>>> value_text(0.12345, "rate"), value_text(2.5, "points"), interval_text(0.1, 0.2, "rate")
('12.35%', '2.500', '[10.00%, 20.00%]')
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from enum import Enum
from typing import TYPE_CHECKING, Any, Protocol, cast

import pandas as pd

from ..referee.audit import ANY, seats_label
from .sprt import score_elo

if TYPE_CHECKING:
    from ..kernel.strategies import Strategy
    from ..referee.audit import AuditResult
    from ..referee.replay import ScoredHand
    from .metrics import Payouts
    from .sprt import SprtResult

PERCENT_UNITS = ("rate", "share")
"""Units whose values are shares, written as percentages."""


def table_rows(table: pd.DataFrame) -> Iterator[Any]:
    """The rows of ``table`` as named tuples (``itertuples(index=False)``), their fields read by
    column name. Typed as Any: pandas types every field as any scalar, and a text table knows
    its columns."""
    return table.itertuples(index=False)


# What the text of each result reads of it: protocols, not the result classes, whose modules
# import this one.
class _Named(Protocol):
    @property
    def name(self) -> str: ...


class DuplicateResult(Protocol):
    """What :func:`win_share_text` reads of a duplicate comparison
    (:class:`spades_sim.analysis.compare.Comparison`)."""

    @property
    def pairs(self) -> int: ...
    @property
    def paired_interval(self) -> tuple[float, float]: ...
    @property
    def unpaired_interval(self) -> tuple[float, float]: ...
    @property
    def pairs_alike(self) -> Enum | None: ...
    @property
    def share(self) -> Any: ...


class TuningResult(Protocol):
    """What :func:`tune_text` reads of a tuning run
    (:class:`spades_sim.analysis.tune.TuneResult`)."""

    @property
    def table(self) -> pd.DataFrame: ...
    @property
    def names(self) -> Sequence[str]: ...
    @property
    def best(self) -> pd.Series: ...
    @property
    def against(self) -> _Named: ...
    @property
    def base(self) -> _Named: ...
    @property
    def method(self) -> str: ...
    @property
    def games(self) -> int: ...
    @property
    def played(self) -> int: ...
    @property
    def seed(self) -> int: ...
    @property
    def interrupted(self) -> bool: ...
    def parameters(self) -> pd.DataFrame: ...
    def confirmed(self) -> dict[str, Any]: ...


class WhatIfResult(Protocol):
    """What :func:`what_if_text` reads of a what-if
    (:class:`spades_sim.analysis.whatif.WhatIf`)."""

    @property
    def table(self) -> pd.DataFrame: ...
    @property
    def choices(self) -> pd.Series: ...
    @property
    def refused(self) -> Sequence[str]: ...
    @property
    def best(self) -> str: ...


def _scale(unit: str, digits: int | None) -> tuple[float, str, int]:
    if unit in PERCENT_UNITS:
        return 100.0, "%", 2 if digits is None else digits
    return 1.0, "", 3 if digits is None else digits


def value_text(value: float, unit: str, digits: int | None = None, sign: str = "",
               percent_sign: bool = True) -> str:
    """``value`` in its unit: shares as percentages (2 decimals), others with 3 decimals;
    ``sign="+"`` writes the sign of a difference; ``-`` for no value (NaN)."""
    if value is None or math.isnan(value):
        return "-"
    scale, suffix, places = _scale(unit, digits)
    return f"{scale * value:{sign}.{places}f}{suffix if percent_sign else ''}"


def interval_text(low: float, high: float, unit: str, digits: int | None = None,
                  percent_sign: bool = True) -> str:
    """``[low, high]`` in the unit of the value; empty when there is no interval."""
    if low is None or math.isnan(low):
        return ""
    return (f"[{value_text(low, unit, digits, percent_sign=percent_sign)}, "
            f"{value_text(high, unit, digits, percent_sign=percent_sign)}]")


def summary_text(table: pd.DataFrame) -> str:
    """A metrics table (:data:`spades_sim.run.catalogue.TABLE_COLUMNS`) as aligned text: metric,
    value, 95% interval and n."""
    width = max(len(m) for m in table["metric"])
    lines = [f"{'metric':<{width}}  {'value':>9}  {'95% interval':>21}  {'n':>10}"]
    for row in table_rows(table):
        lines.append(f"{row.metric:<{width}}  {value_text(row.value, row.unit):>9}  "
                     f"{interval_text(row.low, row.high, row.unit):>21}  {row.n:>10,}")
    return "\n".join(lines)


def comparison_text(table: pd.DataFrame) -> str:
    """A duplicate comparison (``Comparison.summary()``): A, B, A − B and its paired interval."""
    width = max(len(m) for m in table["metric"])
    lines = [f"{'metric':<{width}}  {'A':>9}  {'B':>9}  {'A - B':>9}  {'paired 95% interval':>21}"]
    for row in table_rows(table):
        cells = [value_text(v, row.unit) for v in (row.a, row.b, row.difference)]
        lines.append(f"{row.metric:<{width}}  {cells[0]:>9}  {cells[1]:>9}  {cells[2]:>9}  "
                     f"{interval_text(row.low, row.high, row.unit):>21}")
    return "\n".join(lines)


def side_by_side_text(table: pd.DataFrame, group: str = "run") -> str:
    """Metric by metric, one line per run (rule set or strategy): value and 95% interval, and
    with a ``difference`` column the difference from the first run and its paired interval."""
    width = max(len(str(name)) for name in table[group]) + 2
    paired = "difference" in table.columns
    lines = [f"{'':<{width}}  {'value':>9}  {'95% interval':>22}"
             + (f"  {'minus first':>11}  {'paired 95% interval':>22}" if paired else "")]
    first = table[group].iloc[0]
    for metric, part in table.groupby("metric", sort=False):
        lines.append(cast(str, metric))  # a metric's label
        for row in table_rows(part):
            line = (f"  {getattr(row, group)!s:<{width - 2}}  "
                    f"{value_text(row.value, row.unit):>9}  "
                    f"{interval_text(row.low, row.high, row.unit):>22}")
            if paired and getattr(row, group) != first:
                line += (f"  {value_text(row.difference, row.unit, sign='+'):>11}  "
                         f"{interval_text(row.diff_low, row.diff_high, row.unit):>22}")
            lines.append(line.rstrip())
    return "\n".join(lines)


def _economics_header(payouts: Payouts) -> str:
    prize = f"a winning player gets {payouts.first:,.2f}"
    if payouts.second:
        prize += f", the second {payouts.second:,.2f}"
    return (f"table economics: buy-in {payouts.buy_in:,.2f}, rake {100 * payouts.rake:g}% "
            f"(not in the pool); {prize}")


def _economics_rows(table: pd.DataFrame, indent: str = "  ") -> list[str]:
    width = max(len(str(label)) for label in table["label"])
    return [f"{indent}{row.label:<{width}}  win rate {100 * row.win_rate:6.2f}%  expected profit"
            f" per game {row.profit:+.2f} [{row.low:+.2f}, {row.high:+.2f}]  "
            f"break-even win rate {100 * row.break_even:.2f}%"
            for row in table_rows(table)]


def economics_text(table: pd.DataFrame, payouts: Payouts) -> str:
    """Expected profit per game and break-even win rate, one line per side or strategy
    (``metrics.economics`` or ``Comparison.economics`` with their ``Payouts``)."""
    return "\n".join([_economics_header(payouts), *_economics_rows(table)])


def rules_economics_text(table: pd.DataFrame, payouts: Payouts) -> str:
    """Table economics under each rule set (``RulesComparison.economics``): what the house
    takes a game and a hand, then each side's expected profit."""
    lines = [_economics_header(payouts)]
    for run, part in table.groupby("run", sort=False):
        first = part.iloc[0]
        lines.append(f"  {run}: the house takes {first['rake_per_game']:,.2f} a game, "
                     f"{first['rake_per_hand']:,.2f} a hand")
        lines += _economics_rows(part, "    ")
    return "\n".join(lines)


def win_share_text(comparison: DuplicateResult) -> str:
    """The line after a duplicate comparison: A's paired interval against the unpaired one."""
    paired, unpaired = comparison.paired_interval, comparison.unpaired_interval
    alike = comparison.pairs_alike
    if comparison.pairs < 2:
        narrower = "undefined with one pair, against"
    elif alike is not None:
        narrower = f"of zero width ({alike.value}), against"
    else:
        narrower = f"{(unpaired[1] - unpaired[0]) / (paired[1] - paired[0]):.2f}x narrower than"
    return (f"A's win share: paired interval [{100 * paired[0]:.2f}%, {100 * paired[1]:.2f}%]"
            f" is {narrower} the unpaired [{100 * unpaired[0]:.2f}%, "
            f"{100 * unpaired[1]:.2f}%] on the same games")


def sprt_text(result: SprtResult, comparison: DuplicateResult) -> str:
    """The lines of a sequential test: its hypotheses, the pairs by outcome with the Elo of A's
    mean pair score and its paired interval, the LLR against its bounds and the verdict."""
    test, counts = result.test, result.counts
    elo = [score_elo(float(comparison.share.mean())),
           *(score_elo(min(max(bound, 0.0), 1.0)) for bound in comparison.paired_interval)]
    lower, upper = test.bounds
    unfinished = (f", won one (other unfinished) {counts[3]:,}, lost one {counts[1]:,}"
                  if counts[1] or counts[3] else "")
    return "\n".join([
        f"SPRT: H0 Elo {test.elo0:g} against H1 Elo {test.elo1:g} (of A's pair score), "
        f"alpha {test.alpha:g}, beta {test.beta:g}",
        f"pairs {result.pairs:,}: won both {counts[4]:,}, split {counts[2]:,}, "
        f"lost both {counts[0]:,}{unfinished}; Elo {elo[0]:+.1f} [{elo[1]:+.1f}, {elo[2]:+.1f}]",
        f"LLR {result.llr:.3f} in bounds [{lower:.3f}, {upper:.3f}]: {result.verdict_text}"])


def tune_title(result: TuningResult, rules: str) -> str:
    """The first line of a tuning run: the rules, who tunes against whom, the seed and what
    the search played."""
    stopped = " (interrupted)" if result.interrupted else ""
    if result.method == "grid":
        return (f"rules {rules}, {result.base.name} against {result.against.name}, seed "
                f"{result.seed}: {len(result.table)} settings x {result.games:,} deal sequences "
                f"x 2{stopped}")
    steps = len(result.table)
    if result.method == "spsa":
        played = f"{steps} steps of θ+cΔ against θ−cΔ"
    else:
        played = f"{steps} generations against {result.against.name}"
    return (f"rules {rules}, {result.base.name} tuned by {result.method}, seed {result.seed}: "
            f"{played}, {result.games:,} deal sequences x 2 a match, {result.played:,} games"
            f"{stopped}")


def tune_text(result: TuningResult) -> str:
    """A tuning run (``tune.TuneResult``): a grid's settings, best first, or a search's
    parameters from start to setting found; then the confirmation against the start."""
    lines = []
    if result.method == "grid":
        for row in table_rows(result.table):
            setting = "  ".join(f"{name}={getattr(row, name):g}" for name in result.names)
            lines.append(f"{setting:<40} win share {100 * row.win_share:6.2f}%  "
                         f"[{100 * row.low:6.2f}%, {100 * row.high:6.2f}%]  "
                         f"points/hand {row.points_per_hand_diff:+7.2f}")
        if not result.table.empty:
            best = result.best
            lines.append("best: " + ", ".join(f"{name}={best[name]:g}" for name in result.names)
                         + f" wins {100 * best['win_share']:.2f}% [{100 * best['low']:.2f}%, "
                         f"{100 * best['high']:.2f}%] against {result.against.name} on the "
                         "search's deals")
    else:
        parameters = result.parameters()
        lines.append(f"{'parameter':<22} {'start':>10} {'tuned':>10}   bounds")
        for row in table_rows(parameters):
            lines.append(f"{row.parameter:<22} {row.start:>10g} {row.tuned:>10g}   "
                         f"[{row.low:g}, {row.high:g}]")
    facts = result.confirmed()
    if facts:
        stopped = " (interrupted)" if facts["interrupted"] else ""
        lines.append(f"confirmed against {result.base.name} on {facts['pairs']:,} fresh deal "
                     f"sequences x 2 (seed {facts['seed']}){stopped}: win share "
                     f"{100 * facts['win_share']:.2f}% [{100 * facts['low']:.2f}%, "
                     f"{100 * facts['high']:.2f}%], points/hand "
                     f"{facts['points_per_hand_diff']:+.2f}")
    elif result.interrupted:
        lines.append("not confirmed: interrupted (the setting above is the best found so far)")
    return "\n".join(lines)


def nil_text(table: pd.DataFrame, feature: str, blind: bool) -> str:
    """Nil bids and success by a hand feature (``nil.nil_by_feature``)."""
    lines = [f"{feature:>10}  {'seat-hands':>10}  {'blind nils' if blind else 'nil bids':>10}  "
             f"{'bid rate':>8}  {'made':>7}  {'success':>8}  {'95% interval':>18}"]
    named = "card" in table.columns  # top_spade's values, named as cards (nil.CARD_COLUMN)
    for row in table_rows(table):
        value = row.card if named else f"{getattr(row, feature):g}"
        success, interval = "-", ""
        if row.bids:
            success = value_text(row.success, "rate", 1)
            interval = interval_text(row.low, row.high, "rate", 1)
        lines.append(f"{value:>10}  {row.seat_hands:>10,}  {row.bids:>10,}  "
                     f"{value_text(row.bid_rate, 'rate'):>8}  {row.made:>7,}  {success:>8}  "
                     f"{interval:>18}".rstrip())
    return "\n".join(lines)


def what_if_text(result: WhatIfResult, policy_label: str) -> str:
    """The table of a what-if (``whatif.WhatIf``) and what it says: the strategy's own bid,
    the bids not allowed, the best bid."""
    def plain(low: float, high: float, unit: str = "rate", digits: int | None = None) -> str:
        return interval_text(low, high, unit, digits, percent_sign=False)

    lines = [f"{'bid':<18} {'made':>7} {'95% interval':>14}  {'side pts':>8} "
             f"{'95% interval':>16}  {'win game':>8} {'95% interval':>14}  "
             f"{'vs strategy':>11} {'paired 95%':>16}"]
    for row in table_rows(result.table):
        change = ("" if row.bid == policy_label else
                  f"{value_text(row.win_change, 'rate', sign='+'):>11} "
                  + plain(row.change_low, row.change_high).rjust(16))
        lines.append(f"{row.bid:<18} {value_text(row.made, 'rate'):>7} "
                     f"{plain(row.made_low, row.made_high):>14}  {row.points:8.1f} "
                     f"{plain(row.points_low, row.points_high, 'points', 1):>16}  "
                     f"{value_text(row.win, 'rate'):>8} {plain(row.win_low, row.win_high):>14}"
                     f"  {change}".rstrip())
    choices = ", ".join(f"{bid} ({100 * share:.1f}%)" for bid, share in result.choices.items())
    lines.append(f"the strategy's own bid: {choices}")
    if result.refused:
        lines.append("not allowed here: " + ", ".join(result.refused))
    best = result.table.set_index("bid").loc[result.best]
    settled = best["change_low"] > 0 or best["change_high"] < 0
    lines.append(f"best bid: {result.best}, winning {100 * best['win']:.2f}% "
                 f"[{100 * best['win_low']:.2f}%, {100 * best['win_high']:.2f}%]; made "
                 f"{100 * best['made']:.1f}%, {best['points']:+.1f} side points this hand"
                 + ("" if settled else "; not distinguishable from the strategy's own bid "
                    "at these deals"))
    return "\n".join(lines)


def scored_text(scored: Sequence[ScoredHand]) -> str:
    """The table of a scored hand log (``referee.score_file``): each hand's bids, tricks,
    points, score and bags, the game's end where a side wins, and the verdict."""
    lines = [f"{'line':>5} {'game':>5} {'hand':>4}  {'bids (by seat)':<18} "
             f"{'tricks':<12} {'points':>11} {'score':>11} {'bags':>6}"]
    for hand in scored:
        bids = " ".join(str(b) for b in hand.bids)
        tricks = " ".join(str(t) for t in hand.result.tricks)
        points = "/".join(str(p) for p in hand.result.points)
        total = "/".join(str(s) for s in hand.result.score)
        bags = "/".join(str(b) for b in hand.result.bag_total)
        game = "-" if hand.game is None else str(hand.game)
        hand_index = "-" if hand.hand is None else str(hand.hand)
        end = f"  side {hand.game_winner} wins" if hand.game_winner is not None else ""
        lines.append(f"{hand.line_number:>5} {game:>5} {hand_index:>4}  {bids:<18} {tricks:<12} "
                     f"{points:>11} {total:>11} {bags:>6}{end}")
    lines.append(f"{len(scored)} hands scored, all moves legal, every recorded result agrees")
    return "\n".join(lines)


def audit_text(result: AuditResult, list_count: int) -> str:
    """The table of a card-play audit (``referee.audit.AuditResult``): per pattern the hands
    with an instance, their share with its interval and the instances, then the first
    ``list_count`` instances with a card that would have been sound."""
    lines = [f"{'pattern':<20} {'hands':>7} {'share':>7} {'95% interval':>17} {'instances':>9}"]
    for row in result.counts:
        if row.pattern == ANY:
            lines.append("-" * 64)
        share = "-" if math.isnan(row.share) else f"{100 * row.share:.2f}%"
        interval = ("" if math.isnan(row.low)
                    else f"[{100 * row.low:.2f}%, {100 * row.high:.2f}%]")
        lines.append(f"{row.pattern:<20} {row.hands:>7,} {share:>7} {interval:>17} "
                     f"{row.instances:>9,}")
    lines.append(f"{result.hands_audited:,} hands audited ({seats_label(result.seats)})")
    listed = result.instances[:list_count]
    if listed:
        lines.append(f"first {len(listed):,} of {len(result.instances):,} instances:")
        lines.append(f"{'line':>6} {'game':>5} {'hand':>4} {'trick':>5} {'seat':>4}  "
                     f"{'pattern':<20} {'played':>6} {'sound':>5}  trick so far")
        for instance in listed:
            fields = instance.row()
            lines.append(f"{fields['line']:>6} {fields['game'] if fields['game'] != '' else '-':>5} "
                         f"{fields['hand'] if fields['hand'] != '' else '-':>4} {fields['trick']:>5} "
                         f"{fields['seat']:>4}  {fields['pattern']:<20} {fields['played']:>6} "
                         f"{fields['sound'] or '-':>5}  {fields['trick_so_far']}")
    return "\n".join(lines)


def params_text(strategy: Strategy, table: pd.DataFrame) -> str:
    """A strategy's policies and the table of the parameters they read
    (:func:`spades_sim.analysis.listings.params_table`), those it sets marked ``*``."""
    lines = [f"{strategy.name}: {strategy.description}",
             f"bidding policy {strategy.bidding}, card-play policy {strategy.play}",
             f"{'parameter':<20} {'value':>8} {'default':>8}  {'range':<15} meaning"
             "  (* = set by this strategy)"]
    for row in table.itertuples(index=False):
        mark = "*" if row.set_by_strategy else " "
        lines.append(f"{row.parameter:<20} {row.value:>8g}{mark}{row.default:>8g}  "
                     f"{f'{row.low:g} to {row.high:g}':<15} {row.meaning}")
    return "\n".join(lines)


__all__ = ["PERCENT_UNITS", "DuplicateResult", "TuningResult", "WhatIfResult", "audit_text",
           "comparison_text", "economics_text", "interval_text", "nil_text", "params_text",
           "rules_economics_text", "scored_text", "side_by_side_text", "summary_text",
           "table_rows", "tune_text", "tune_title", "value_text", "what_if_text", "win_share_text"]

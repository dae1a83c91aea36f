"""Rule variants compared on the same deal sequences: ``compare-rules`` and ``bags``.

Game ``g`` of a run deals from the counter of (seed, game, hand), so runs under
different rule sets with one seed share their deals wherever the deck is the
same (a jokers deck deals other cards; the pairing by game then still gives a
valid, if less sharp, interval). :func:`compare_rules` plays the same games under
each rule set and reports every metric of :func:`spades_sim.analysis.metrics.game_metrics`
side by side, with the paired difference from the first rule set.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from ..intervals import ratio_difference
from ..numbers import whole_number
from ..referee.scoring import blind_nil_refusal
from ..rules import RulesError, RuleSet, check_name, overrides_of, resolve_rules
from ..run.catalogue import GAMES, METRICS, TABLE_COLUMNS, Metric, Sums, row, select, side_label
from ..run.records import game_frame
from ..run.simulate import DEFAULT_MAX_HANDS, resolve_seed, simulate_games, trace_games
from .figures import colours, error_bars, percent_ticks, plain_text, pyplot, save
from .metrics import compare_game_frames, economics

if TYPE_CHECKING:
    from matplotlib.figure import SubFigure

    from ..kernel.strategies import Strategy


@dataclass
class RulesComparison:
    """What :func:`compare_rules` produced; ``table`` is tidy (one row per rule set and metric)."""

    labels: list[str]
    rules: list[RuleSet]
    seed: int
    games: int
    interrupted: bool
    frames: dict[str, pd.DataFrame]
    table: pd.DataFrame

    def economics(self, buy_in: float, rake: float,
                  labels: dict[int, str] | None = None) -> pd.DataFrame:
        """Under each rule set: the expected profit per game of a player on each side
        (:func:`spades_sim.analysis.metrics.economics`, ``labels`` naming the sides), and what the house
        takes: ``rake_per_game`` (every seat's share of its buy-in) and ``rake_per_hand`` (that
        over the hands a game lasts under these rules, which is what the rule set changes)."""
        parts = []
        for label, rules in zip(self.labels, self.rules, strict=True):
            frame = self.frames[label]
            per_game = rules.seat_count * buy_in * rake
            parts.append(economics(frame, buy_in, rake, rules.seat_count, labels).assign(
                run=label, rake_per_game=per_game,
                rake_per_hand=per_game / float(frame["hands"].mean())))
        table = pd.concat(parts, ignore_index=True)
        return table[["run", *[c for c in table.columns if c != "run"]]]


def compare_rules(rule_sets: Sequence[str | RuleSet],
                  strategies: str | Strategy | Sequence[str | Strategy], games: int,
                  seed: int | None = None, threads: int | None = None,
                  max_hands: int = DEFAULT_MAX_HANDS, labels: Sequence[str] | None = None,
                  on_block: Callable[[int], None] | None = None) -> RulesComparison:
    """Play games ``0 … games-1`` of one seed under each rule set, with the same strategies.

    The rule sets must seat the same table (seats and sides) so that the strategies and the
    sides' figures line up.
    ``labels`` name the rule sets in the table (default: their names, numbered if
    repeated). An interrupted run keeps the games every rule set finished.
    """
    resolved = check_same_table(rule_sets)
    labels = check_labels(list(labels) if labels is not None
                          else _unique_labels([r.name for r in resolved]))
    seed = resolve_seed(seed)
    frames: dict[str, pd.DataFrame] = {}
    interrupted = False
    for label, rules in zip(labels, resolved, strict=True):
        run = simulate_games(rules, strategies, games, seed=seed, threads=threads,
                             keep_records=True, max_hands=max_hands, on_block=on_block)
        frames[label] = run.records()
        if run.interrupted:
            interrupted = True
            break
    done = min((len(frame) for frame in frames.values()), default=0)
    if interrupted and done:
        # Keep only the rule sets that finished as many games as the one interrupted.
        frames = {label: frame.iloc[:done] for label, frame in frames.items()}
    table = compare_game_frames(frames) if done else pd.DataFrame()
    return RulesComparison(list(frames), resolved[:len(frames)], seed, done, interrupted, frames,
                           table)


def parse_variant(text: str) -> tuple[str, dict[str, Any]]:
    """``LABEL:FIELD=VALUE,…`` as the variant's label and its rule overrides.

    >>> parse_variant("nil 50:nil_value=50,target=300")
    ('nil 50', {'nil_value': 50, 'target': 300})
    """
    label, sep, rest = text.partition(":")
    label = label.strip()
    parts = [part.strip() for part in rest.split(",") if part.strip()]
    if not sep or not label or not parts or not all("=" in part for part in parts):
        raise RulesError("variant", text, "LABEL:FIELD=VALUE,…, e.g. nil50:nil_value=50,"
                         "target=300")
    check_name("variant", label)
    return label, overrides_of(parts, "variant")


def scoped_override(text: str) -> tuple[str | None, str]:
    """A ``--rule`` of a comparison: ``NAME:FIELD=VALUE`` for the rule set NAME only, or
    ``FIELD=VALUE`` for every rule set (a field name has no colon, a value may).

    >>> scoped_override("classic:target=300"), scoped_override("nil_value=50")
    (('classic', 'target=300'), (None, 'nil_value=50'))
    """
    head, sep, rest = text.partition(":")
    if sep and "=" not in head:
        return head.strip(), rest
    return None, text


def rule_sets_of(names: Sequence[str], overrides: Sequence[str] = (),
                 variants: Sequence[str] = (),
                 resolve: Callable[[str, dict[str, Any]], RuleSet] = resolve_rules,
                 ) -> tuple[list[RuleSet], list[str]]:
    """The rule sets of a comparison and their labels: each of ``names`` (a preset or a rules
    file) with the ``--rule`` ``overrides`` meant for it (:func:`scoped_override`; the label
    shows them after the rule set's name), then each ``LABEL:FIELD=VALUE,…`` of ``variants``:
    the first rule set, as the overrides meant for every rule set leave it, with the
    variant's own. Two rule sets under one label are refused. ``resolve(name, overrides)``
    reads a name (a study that names no file reads presets only)."""
    scoped = [scoped_override(text) for text in overrides]
    unknown = next((name for name, _ in scoped if name is not None and name not in names), None)
    if unknown is not None:
        raise RulesError("rule", unknown, "the name of a rule set of the comparison: "
                         + ", ".join(names))
    every = overrides_of([text for name, text in scoped if name is None])
    rule_sets, labels = [], []
    for name in names:
        own = [text for scope, text in scoped if scope == name]
        rule_sets.append(resolve(name, {**every, **overrides_of(own)}))
        labels.append(" ".join([rule_sets[-1].name, *own]))
    extra, extra_labels = variant_rule_sets(rule_sets[0] if rule_sets else "standard", variants)
    return rule_sets + extra, check_labels(_unique_labels(labels) + extra_labels)


def check_labels(labels: list[str]) -> list[str]:
    """Refuse two rule sets of one comparison under one label (their columns would be one);
    returns ``labels``."""
    repeated = next((label for i, label in enumerate(labels) if label in labels[:i]), None)
    if repeated is not None:
        raise RulesError("labels", repeated, "a different label for each rule set")
    return labels


def variant_rule_sets(base: str | RuleSet, variants: Sequence[str]
                      ) -> tuple[list[RuleSet], list[str]]:
    """The rule sets of ``LABEL:FIELD=VALUE,…`` ``variants`` (:func:`parse_variant`): ``base``
    with each variant's fields changed, and their labels."""
    rule_sets, labels = [], []
    for text in variants:
        label, changes = parse_variant(text)
        rule_sets.append(resolve_rules(base, changes))
        labels.append(label)
    return rule_sets, labels


def check_same_table(rule_sets: Sequence[str | RuleSet]) -> list[RuleSet]:
    """Resolve rule sets for one comparison, refusing none at all or a different table (seats
    and sides) from the first's."""
    resolved = [resolve_rules(rules) for rules in rule_sets]
    if not resolved:
        raise RulesError("rules", "", "one or more presets or rules files")
    first = resolved[0]
    for rules in resolved[1:]:
        if (rules.seat_count, rules.side_count) != (first.seat_count, first.side_count):
            raise RulesError("mode", str(rules.mode),
                             f"the table of {first.name} ({first.seat_count} seats, "
                             f"{first.side_count} sides) for every rule set of one comparison")
    return resolved


def _unique_labels(names: list[str]) -> list[str]:
    """Rule-set names, with " (2)", " (3)" … added to repeats."""
    seen: dict[str, int] = {}
    labels = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        labels.append(name if seen[name] == 1 else f"{name} ({seen[name]})")
    return labels


BAG_RULES = ("10:100", "5:50", "1:10", "10:0")
"""The bag rules ``spades-sim bags`` compares by default (LIMIT:PENALTY)."""


def bag_rule(text: str) -> tuple[int, int]:
    """``LIMIT:PENALTY`` as two whole numbers (checked again by the rules when applied).

    >>> bag_rule("5:50")
    (5, 50)
    """
    limit, sep, penalty = text.partition(":")
    try:
        if sep:
            return whole_number(limit), whole_number(penalty)
    except ValueError:
        pass
    raise RulesError("bag-rule", text, "LIMIT:PENALTY, e.g. 5:50 (every 5 bags -50) or 10:0 "
                     "(no penalty)")


def bag_label(limit: int, penalty: int) -> str:
    """How a bag rule is named in tables and figures."""
    if penalty == 0:
        return "no bag penalty"
    return f"{limit} bag{'s' if limit != 1 else ''} -{penalty}"


def bag_variants(base: RuleSet, specs: Sequence[str]) -> tuple[list[RuleSet], list[str]]:
    """The rule set ``base`` under each bag rule ``LIMIT:PENALTY``, and their labels."""
    variants, labels = [], []
    for text in specs:
        limit, penalty = bag_rule(text)
        label = bag_label(limit, penalty)
        if label in labels:
            raise RulesError("bag-rule", text, f"each bag rule once ({label!r} is given twice)")
        variants.append(base.replace(bag_limit=limit, bag_penalty=penalty))
        labels.append(label)
    return variants, labels


NIL_KEYS = ("nil_bid_rate", "nil_success")
BLIND_NIL_KEYS = ("blind_bid_rate", "blind_success")
PENALTY_KEYS = ("penalty_rate", "penalty_points", "penalty_per_game", "penalised_games",
                "decided_by_penalty")


def unplayed_metrics(rules: RuleSet, kind: str = "games") -> set[str]:
    """The metric keys that cannot be non-zero (or have no case at all) under ``rules``: nils
    where the lowest bid is 1, blind nils where they are off, bag penalties where there are
    none. In a hand run (``kind="hands"``) every hand is a game's first, from 0–0, so blind nil
    is played only where the rules allow it then, and a bag penalty only where one hand's
    tricks can reach the bag limit.

    >>> sorted(unplayed_metrics(RuleSet(), "hands"))
    ['blind_bid_rate', 'blind_success']
    >>> sorted(unplayed_metrics(RuleSet(min_bid=1, blind_nil="off", bag_penalty=0)))[:3]
    ['blind_bid_rate', 'blind_success', 'decided_by_penalty']
    """
    unplayed: set[str] = set()
    if rules.min_bid > 0:
        unplayed.update(NIL_KEYS)
    level = (0,) * rules.side_count
    if rules.blind_nil == "off" or (kind == "hands"
                                    and blind_nil_refusal(rules, 0, level, 0) is not None):
        unplayed.update(BLIND_NIL_KEYS)
    if rules.bag_penalty == 0 or (kind == "hands" and rules.bag_limit > rules.hand_size):
        unplayed.update(PENALTY_KEYS)
    return unplayed


def leave_out_unplayed(table: pd.DataFrame, rule_sets: Sequence[RuleSet], labels: Sequence[str],
                       kind: str = "games", group: str = "run"
                       ) -> tuple[pd.DataFrame, dict[str, set[str]]]:
    """``table`` (runs side by side, ``group`` naming the run) without what its rules cannot
    play (:func:`unplayed_metrics`): a row unplayed under every rule set is dropped, and under
    some of them its values there are left empty (NaN). Returns the table and, per label, the
    metric keys left out."""
    unplayed = {label: unplayed_metrics(rules, kind) for label, rules in zip(labels, rule_sets,
                                                                           strict=True)}
    everywhere = set.intersection(*unplayed.values()) if unplayed else set()
    kept = table[~table["key"].isin(everywhere)].copy()
    values = [c for c in ("value", "low", "high", "difference", "diff_low", "diff_high")
              if c in kept.columns]
    for label, keys in unplayed.items():
        kept.loc[(kept[group] == label) & kept["key"].isin(keys), values] = np.nan
    return kept.reset_index(drop=True), unplayed


def unplayed_text(unplayed: dict[str, set[str]], shown: Sequence[str] = ()) -> str:
    """The metrics left out, in words: "Not played under these rules: classic: nil bids per
    seat-hand, nil success rate; …". Only the metrics of ``shown`` (all when empty) are named;
    empty when nothing was left out."""
    parts = []
    for label, keys in unplayed.items():
        named = [METRICS[m.key].label for m in METRICS.values()
                 if m.key in keys and (not shown or m.key in shown)]
        if named:
            parts.append(f"{label}: {', '.join(named)}")
    return ("Not played under these rules (left out): " + "; ".join(parts) + ".") if parts else ""


COMEBACK_DEFICIT = 100
"""How far behind, in points after some hand, a side must have been for its win to count as a
comeback."""

COMEBACK = Metric("comebacks", f"the comeback rate (wins after trailing by {COMEBACK_DEFICIT} "
                  "points or more)", "rate",
                  "came_back", "trailed", f"side-games {COMEBACK_DEFICIT} or more behind", GAMES)
"""How often a side that trailed by :data:`COMEBACK_DEFICIT` points or more after some hand of a
finished game went on to win it: a rate over those side-games, clustered by game. Not in the
catalogue: it needs the score after every hand, which a game run's totals do not keep."""

SELF_PLAY_KEYS = ("hands_per_game", "nil_bid_rate", "nil_success", "blind_bid_rate",
                  "blind_success", "bags", "penalty_per_game", "decided_by_penalty", "points")
"""The catalogue's rows of the game for equal players (:func:`self_play`), before the comebacks."""


def comeback_units(games: Any, hands: Any) -> tuple[np.ndarray, np.ndarray]:
    """Per game of a traced game run (``GameRecords`` and its ``HandRecords``, game ``k`` in row
    ``k``): the sides of a finished game that trailed by :data:`COMEBACK_DEFICIT` or more after
    some hand and won it, and those that trailed so (a side trails by what the best other side
    has more)."""
    winner = games.winner.astype(np.int64)
    count, sides = games.score.shape
    score = hands.score.astype(np.int64)
    best_other = np.stack([np.delete(score, side, axis=1).max(axis=1) for side in range(sides)],
                          axis=1)
    deficit = np.full((count, sides), np.iinfo(np.int64).min)
    np.maximum.at(deficit, hands.game.astype(np.int64), best_other - score)
    trailed = (deficit >= COMEBACK_DEFICIT) & (winner >= 0)[:, None]
    came_back = trailed & (winner[:, None] == np.arange(sides))
    return came_back.sum(axis=1).astype(np.float64), trailed.sum(axis=1).astype(np.float64)


@dataclass
class SelfPlay:
    """What :func:`self_play` produced: the game under each rule set with one strategy at every
    seat; ``table`` has the columns of :func:`spades_sim.analysis.metrics.compare_game_frames`."""

    labels: list[str]
    rules: list[RuleSet]
    strategy: str
    seed: int
    games: int
    table: pd.DataFrame


def self_play(rule_sets: Sequence[RuleSet], strategy: str | Strategy, games: int, seed: int,
              labels: Sequence[str], max_hands: int = DEFAULT_MAX_HANDS,
              played: dict[RuleSet, tuple[Any, Any]] | None = None) -> SelfPlay:
    """Games ``0 … games-1`` of ``seed`` under each rule set with ``strategy`` at every seat:
    the game for equal players. The rows of :data:`SELF_PLAY_KEYS` (pooled over the sides, which
    play alike) and the comebacks (:data:`COMEBACK`), each with the paired difference from the
    first rule set. Every hand's score is kept (the games are traced, on one thread), so the
    runs are kept small; ``played`` keeps the records of each rule set across calls (a bag rule
    that is the baseline's own is played once). Ctrl-C raises ``KeyboardInterrupt``."""
    played = {} if played is None else played
    frames, units = {}, {}
    for label, rules in zip(labels, rule_sets, strict=True):
        if rules not in played:
            game_records, hand_records, _, _ = trace_games(rules, strategy, range(games),
                                                           seed, max_hands)
            played[rules] = (game_records, hand_records)
        game_records, hand_records = played[rules]
        frames[label] = game_frame(game_records, rules.seat_count)
        units[label] = comeback_units(game_records, hand_records)
    table = compare_game_frames(frames, keys=SELF_PLAY_KEYS)
    first = units[labels[0]]
    rows = []
    for label in labels:
        sums = Sums()
        sums.add(*units[label])
        difference = ratio_difference(*units[label], *first)
        rows.append({"run": label, **row(COMEBACK, sums), "difference": difference[0],
                     "diff_low": difference[1], "diff_high": difference[2]})
    comebacks = pd.DataFrame(rows, columns=["run", *TABLE_COLUMNS, "difference", "diff_low",
                                            "diff_high"])
    comebacks["side"] = comebacks["side"].astype("Int64")
    # Each rule set's rows together, the comebacks before its points.
    joined = pd.concat([table, comebacks], ignore_index=True)
    order = {key: k for k, key in enumerate((*SELF_PLAY_KEYS[:-1], COMEBACK.key,
                                             SELF_PLAY_KEYS[-1]))}
    joined = joined.assign(_run=joined["run"].map({label: k for k, label in enumerate(labels)}),
                           _key=joined["key"].map(order))
    joined = joined.sort_values(["_run", "_key"], kind="stable").drop(columns=["_run", "_key"])
    name = strategy if isinstance(strategy, str) else strategy.name
    return SelfPlay(list(labels), list(rule_sets), name, seed, games,
                    joined.reset_index(drop=True))


def per_side(result: RulesComparison, who: Sequence[str], pooled: Sequence[str],
             keys: Sequence[str], first: Sequence[str] = ("win_rate",)) -> pd.DataFrame:
    """A rule comparison's table with no row that pools two strategies' decisions: ``first``
    for side 0, then the game-level ``pooled`` rows (hands per game, games decided by a
    penalty), then each of ``keys`` for every side, labelled with the strategy ``who[side]``
    sat there."""
    if not result.games:
        return pd.DataFrame()
    rules = result.rules[0]
    parts = [compare_game_frames(result.frames, side=0, keys=first)]
    if pooled:
        parts.append(compare_game_frames(result.frames, keys=pooled))
    parts += [compare_game_frames(result.frames, side=side, keys=keys)
              for side in range(rules.side_count)]
    table = pd.concat(parts, ignore_index=True)
    for side in range(rules.side_count):
        mine = table["side"] == side
        table.loc[mine, "metric"] = [
            f"{side_label(side, rules.side_count, rules.seat_count, who[side])} "
            f"{METRICS[key].label}" for key in table.loc[mine, "key"]]
    table["_run"] = table["run"].map({label: k for k, label in enumerate(result.labels)})
    table = table.sort_values("_run", kind="stable").drop(columns="_run")
    return table.reset_index(drop=True)


RULES_FIGURE_METRICS = (("win_rate", 0), ("hands_per_game", None), ("nil_success", None),
                        ("penalty_per_game", None))
"""The (metric key, side) panels of the rule-variant figure (side None: pooled)."""
BAGS_FIGURE_METRICS = (("bags", None), ("penalty_per_game", None), ("decided_by_penalty", None),
                       ("win_rate", 0), ("hands_per_game", None))
"""The panels of the bag-rule figure."""


@plain_text
def plot_metric_panels(table: pd.DataFrame, metrics: Sequence[tuple[str, int | None]], title: str,
                       path: str, group: str = "run", break_even: float | None = None) -> None:
    """One panel per (metric key, side): on its left each run's (``group`` column's) value with
    its 95% interval, on its right the difference from the first run with the paired 95%
    interval (the same deals), so that a small change shows at the scale it has. Rates in
    percent, their differences in percentage points; ``break_even`` (a share: the win rate at
    which a player breaks even at the table's economics) is drawn on the win-rate panels.
    ``table`` has the columns of :func:`spades_sim.analysis.metrics.compare_game_frames`."""
    plt = pyplot()
    known = {**METRICS, COMEBACK.key: COMEBACK}
    names = [str(name) for name in dict.fromkeys(table[group])]
    reference = names[0]
    palette = colours(names)
    columns = 2 if len(metrics) > 1 else 1
    rows = -(-len(metrics) // columns)
    fig = plt.figure(figsize=(6.6 * columns, rows * (0.28 * len(names) + 1.6) + 0.9),
                     layout="constrained")
    panels = fig.subfigures(rows, columns, squeeze=False)
    for panel, (key, side) in zip(panels.flat, metrics):
        part = select(table, key, side).assign(name=lambda frame: frame[group].astype(str))
        part = part.set_index("name").loc[names]
        _metric_panel(panel, part, known[key], reference, palette,
                      break_even if key == "win_rate" else None)
    for panel in list(panels.flat)[len(metrics):]:
        panel.set_visible(False)
    fig.suptitle(title, fontsize=10)
    undefined = any(select(table, key, side)["value"].isna().any() for key, side in metrics)
    fig.supxlabel(f"Left: each rule set's value with its 95% interval. Right: its difference "
                  f"from {reference} on the same deals, with the paired 95% interval."
                  + (" n/a: not played under that rule set, or no such event." if undefined
                     else ""), fontsize=8, color="#444444")
    save(fig, path)


def _metric_panel(panel: SubFigure, part: pd.DataFrame, metric: Metric, reference: str,
                  palette: dict[str, str], break_even: float | None) -> None:
    """One metric of :func:`plot_metric_panels`: values on the left, differences on the right."""
    from matplotlib.ticker import MaxNLocator

    value_ax, diff_ax = panel.subplots(1, 2, sharey=True)
    panel.suptitle(str(part["metric"].iloc[0]), fontsize=9)
    scale = 100 if metric.percent else 1
    y = np.arange(len(part))
    for ax, columns in ((value_ax, ("value", "low", "high")),
                        (diff_ax, ("difference", "diff_low", "diff_high"))):
        values, lows, highs = (scale * part[column].to_numpy(np.float64) for column in columns)
        errors = error_bars(values, lows, highs)
        for k, name in enumerate(part.index):
            if ax is diff_ax and k == 0:
                ax.plot(0, k, marker="D", color=palette[name], markersize=5)
            elif np.isnan(values[k]):
                ax.text(0.5, k, "n/a", transform=ax.get_yaxis_transform(), ha="center",
                        va="center", fontsize=8, color="grey")
            else:
                ax.errorbar(values[k], k, xerr=errors[:, k:k + 1], fmt="o", color=palette[name],
                            markersize=5, capsize=3)
    low, high = diff_ax.get_xlim()
    # On the side of 0 with more room, so that it stays inside the panel.
    diff_ax.annotate("reference", (0, 0), xytext=(6 if high > -low else -6, 0),
                     textcoords="offset points", ha="left" if high > -low else "right",
                     va="center", fontsize=7, color="grey")
    value_ax.set_yticks(y, list(part.index), fontsize=8)
    # Every row in view, top to bottom: a last row with no value ("n/a") would sit on the axis.
    value_ax.set_ylim(len(part) - 0.5, -0.5)
    unit = "%" if metric.percent else metric.unit
    value_ax.set_xlabel(f"value ({unit})", fontsize=8)
    diff_ax.set_xlabel(f"minus {reference} ({'percentage points' if metric.percent else unit})",
                       fontsize=8)
    diff_ax.axvline(0, color="grey", linewidth=0.8)
    if metric.percent:
        percent_ticks(value_ax.xaxis)
    if metric.key == "win_rate":
        value_ax.axvline(50, color="grey", linewidth=0.8, linestyle="--", label="50%")
        if break_even is not None:
            value_ax.axvline(100 * break_even, color="#444444", linewidth=1, linestyle=":",
                             label=f"break-even {100 * break_even:.2f}%")
        # Above the panel, where it hides no row.
        value_ax.legend(fontsize=7, loc="lower left", bbox_to_anchor=(0, 1), ncols=2,
                        frameon=False, borderaxespad=0.2)
    for ax in (value_ax, diff_ax):
        ax.xaxis.set_major_locator(MaxNLocator(nbins=5, steps=[1, 2, 2.5, 5, 10]))
        ax.tick_params(axis="x", labelsize=8)
        ax.grid(axis="x", color="#eeeeee", linewidth=0.6)
        ax.set_axisbelow(True)

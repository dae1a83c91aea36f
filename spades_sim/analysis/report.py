"""Studies: several analyses run together and written up as one HTML report.

A study (:class:`Study`, read from TOML by :func:`load_study`) names the rule sets
to compare, the bag rules, the strategies to play against each other, the table
economics and the run sizes. :func:`run_study` runs it and writes
``<out_dir>/<name>/index.html`` with its figures (PNG) and tables (CSV) beside it:
plain HTML with no scripts or links outside the folder, so it reads offline.

With no file, :data:`DEFAULT_STUDY` is used: standard rules against the main
partnership variants, the four bag rules, and the named strategies in duplicate
round robin. Every section plays with one seed, so a study is reproducible.
"""

from __future__ import annotations

import html
import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import tomli_w

from .. import __version__
from ..inputs import read_toml
from ..kernel.strategies import StrategyError, get_strategy, is_strategy_file
from ..kernel.warmup import expecting
from ..names import name_fault
from ..outputs import check_apart, check_name, check_new_folders, shown, write_text
from ..rules import RulesError, RuleSet, is_rules_path, preset_names, resolve_rules, unknown_key
from ..run.simulate import check_threads, simulate_hands
from .bids import bid_profiles, plot_bid_profiles
from .export import write_csv
from .figures import MIN_CASES, colours, error_bars, percent_ticks, plain_text, pyplot, save
from .findings import Finding, across_runs, number, quantity, ranked
from .formatting import PERCENT_UNITS, interval_text, table_rows, value_text
from .league import play_league, plot_league
from .metrics import EconomicsError, Payouts, check_buy_in, parse_rake
from .nil import (
    FEATURES,
    feature_labels,
    feature_title,
    nil_by_feature,
    nil_columns,
    plot_nil_by_feature,
)
from .variants import (
    BAG_RULES,
    COMEBACK,
    SELF_PLAY_KEYS,
    RulesComparison,
    SelfPlay,
    bag_rule,
    bag_variants,
    check_same_table,
    compare_rules,
    leave_out_unplayed,
    parse_variant,
    per_side,
    plot_metric_panels,
    rule_sets_of,
    self_play,
    unplayed_metrics,
    unplayed_text,
)


class StudyError(ValueError):
    """A study file or setting that is not allowed."""


@dataclass(frozen=True)
class Study:
    """What a report studies, and how big each part is."""

    name: str = "default"
    """The report's folder name under the output folder."""
    title: str = "Spades rules and strategies: the default study"
    seed: int = 1
    rules: tuple[str, ...] = ("standard", "classic", "online-table", "app-settings", "jokers")
    """Presets or rules files; the first is the baseline of every comparison."""
    variants: tuple[str, ...] = ()
    """More rule sets for the rule-variant section, ``LABEL:FIELD=VALUE,…``: the first rule set
    with those fields changed (``spades_sim.analysis.variants.parse_variant``)."""
    bag_rules: tuple[str, ...] = BAG_RULES
    """LIMIT:PENALTY bag rules applied to the baseline rules."""
    strategies: tuple[str, ...] = ("expert", "expert-v1", "bag-averse", "basic", "conservative",
                                   "aggressive", "nil-happy")
    """Played against each other in duplicate, and profiled for bidding."""
    anchor: str = ""
    """The strategy rated 0 in the strategies section's league (empty: ``expert-v1`` when it
    plays, else the first strategy)."""
    strategy: str = "expert"
    """The study's main strategy: every seat in the rules and bag sections' game for equal
    players and in the nil section, side 0 of their edge over ``opponent``, and the opponent in
    the bidding section."""
    opponent: str = "basic"
    """Side 1 in the rules and bag sections."""
    games: int = 5000
    """Games under each rule set and each bag rule, ``strategy`` against ``opponent``."""
    self_play_games: int = 2000
    """Games under each rule set and each bag rule with ``strategy`` at every seat: the game for
    equal players (every hand's score is kept, on one thread, so fewer than ``games``)."""
    pairs: int = 2000
    """Deal sequences (each played twice) per pair of strategies."""
    hands: int = 200_000
    """Hands for the nil and bidding sections (per strategy for bidding)."""
    nil_feature: str = "spades"
    buy_in: float = 100.0
    rake: str = "15%"
    rules_typed: bool = field(default=True, repr=False)
    """Whether the bare words of ``rules`` were typed by a user (a study file, a study made in
    code): a word that is a preset and a file in the working folder is then refused as
    ambiguous (:func:`spades_sim.rules.resolve_rules`). The words of :data:`DEFAULT_STUDY`, and
    of a study file that does not set ``rules``, were written by the program and are its
    presets, whatever the working folder holds: the user named no file. Not a setting of a
    study file."""

    def __post_init__(self) -> None:
        """The checks that read no file: types, ranges, names, strategies, economics and the
        form of every variant and bag rule (:meth:`check_rules` reads the rule sets)."""
        for name in ("seed", "games", "self_play_games", "pairs", "hands"):
            value = getattr(self, name)
            low, high = (0, 2**63 - 1) if name == "seed" else (1, 10**9)
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise StudyError(f"{name}={shown(repr(value))}: allowed a whole number from {low} "
                                 f"to {high}")
        for name in ("name", "title"):
            value = getattr(self, name)
            allowed = name_fault(value) if isinstance(value, str) else "a string"
            if allowed is not None:
                raise StudyError(f"{name}={shown(repr(value))}: allowed {allowed}")
        if any(c in self.name for c in "/\\") or self.name.startswith("."):
            raise StudyError(f"name={shown(repr(self.name))}: allowed a folder name (no slashes)")
        for name in ("rules", "strategies", "bag_rules", "variants"):
            value = getattr(self, name)
            if not isinstance(value, tuple) or not (value or name == "variants") or not all(
                    isinstance(item, str) for item in value):
                raise StudyError(f"{name}={shown(repr(value))}: allowed a non-empty list of names")
        if len(self.strategies) < 2:
            raise StudyError(f"strategies={list(self.strategies)!r}: allowed two or more")
        repeated = next((s for i, s in enumerate(self.strategies) if s in self.strategies[:i]),
                        None)
        if repeated is not None:
            raise StudyError(f"strategies={shown(repr(repeated))}: allowed each strategy once")
        if not isinstance(self.anchor, str) or (self.anchor and
                                                 self.anchor not in self.strategies):
            raise StudyError(f"anchor={shown(repr(self.anchor))}: allowed one of the study's "
                             "strategies (empty: expert-v1 when it plays, else the first)")
        if self.nil_feature not in FEATURES:
            raise StudyError(f"nil_feature={self.nil_feature!r}: allowed " + ", ".join(FEATURES))
        try:
            for name in (*self.strategies, self.strategy, self.opponent):
                get_strategy(name)
            check_buy_in(self.buy_in)
            parse_rake(self.rake)
            for text in self.variants:
                parse_variant(text)
            for text in self.bag_rules:
                bag_rule(text)
        except (StrategyError, EconomicsError, RulesError) as error:
            raise StudyError(str(error)) from None

    def rule_set(self, name: str, overrides: dict[str, Any] | None = None) -> RuleSet:
        """One of the study's rule sets by its entry in ``rules``."""
        return resolve_rules(name, overrides, typed=self.rules_typed)

    def baseline(self) -> RuleSet:
        """The first rule set: the baseline of every comparison and the table of the other
        sections."""
        return self.rule_set(self.rules[0])

    def rule_sets(self) -> tuple[list[RuleSet], list[str]]:
        """The rule sets of the rule-variant section and their labels (the variants last)."""
        rule_sets, labels = rule_sets_of(self.rules, (), self.variants, resolve=self.rule_set)
        check_same_table(rule_sets)
        return rule_sets, labels

    def check_rules(self) -> None:
        """Read every rule set the study plays (presets and rules files, the variants, the bag
        rules) and refuse any that is bad, two under one label, or a different table."""
        try:
            self.rule_sets()
            bag_variants(self.baseline(), self.bag_rules)
        except RulesError as error:
            raise StudyError(str(error)) from None


DEFAULT_STUDY = Study(rules_typed=False)
"""The study ``report`` runs without --config. Making it reads no file (its rule sets are
read when it runs), so a file in the working folder named like one of its presets changes
nothing; the presets are played."""

SETTINGS = tuple(spec.name for spec in fields(Study) if spec.name != "rules_typed")
"""The fields a study file may set, in order."""


def load_study(path: str | Path) -> Study:
    """Read a study from TOML: any of :data:`SETTINGS`; the others keep their defaults. Every
    rule set it names is read and checked (:meth:`Study.check_rules`). The file is a regular file
    of at most :data:`~spades_sim.inputs.MAX_TEXT_BYTES` (:func:`spades_sim.inputs.read_text`)."""
    path = Path(path)

    def refuse(allowed: str) -> StudyError:
        return StudyError(f"config={shown(path)!r}: allowed {allowed}")

    raw = read_toml(path, refuse)
    if not raw:
        raise refuse("a study that sets at least one field (this one sets none; without "
                     "--config the default study runs)")
    values: dict[str, Any] = {}
    for key, value in raw.items():
        if key not in SETTINGS:
            raise StudyError(f"{unknown_key(key)}: allowed a study field: "
                             + ", ".join(sorted(SETTINGS)))
        if key in ("buy_in", "rake") and isinstance(value, int | float) and not isinstance(
                value, bool):
            value = float(value) if key == "buy_in" else str(value)  # rake = 0.15 as "0.15"
        values[key] = tuple(value) if isinstance(value, list) else value
    for key, value in values.items():
        expected = type(getattr(DEFAULT_STUDY, key))
        if not isinstance(value, expected) or isinstance(value, bool):
            raise StudyError(f"{key}={shown(repr(value))}: allowed a {_type_name(expected)}")
    study = Study(**values, rules_typed="rules" in values)  # unset: the default's presets
    study.check_rules()
    return study


def check_study(study: Study, out_dir: str | Path, threads: int | None = None,
                config: str | Path | None = None) -> None:
    """Every check of a report before its first line, block or file: the study's rule sets
    (:meth:`Study.check_rules`), the threads, and the output folder apart from the study's
    inputs (:func:`check_report`).

    Raises
    ------
    StudyError, RunError, OutputError
        One line naming the field.
    """
    study.check_rules()
    check_threads(threads)
    check_report(study, out_dir, config)


def _type_name(kind: type) -> str:
    return {str: "string", int: "whole number", float: "number", tuple: "list"}[kind]


def check_out_dir(out_dir: str | Path, name: str | None = None) -> None:
    """Refuse, before a study runs rather than after, an output folder that cannot be made or
    written: ``out_dir`` and the report folder ``name`` in it, made when the study runs, with
    any missing parents (:func:`spades_sim.outputs.check_new_folders`)."""
    check_name(out_dir, "out-dir")
    if name is not None:
        check_name(name, "name")
    check_new_folders(Path(out_dir) / name if name else Path(out_dir), "out-dir", out_dir)


def check_report(study: Study, out_dir: str | Path, config: str | Path | None = None) -> None:
    """Every check of a report's paths before it runs: the output folder can be made and
    written (:func:`check_out_dir`), and the report folder holds none of its inputs, the
    study file ``config`` and the rules files it names
    (:func:`spades_sim.outputs.check_apart`)."""
    check_out_dir(out_dir, study.name)
    check_apart({"config": config, "rules": [name for name in study.rules if is_rules_path(name)]},
                {}, {"out-dir": Path(out_dir) / study.name})


STUDY_FILE = "study.toml"
"""The study a report ran, written beside its index.html so that it can be run again."""


def study_toml(study: Study) -> str:
    """The study as a TOML file :func:`load_study` reads back to the same study; a rules file
    is named by its absolute path, so the study runs from any folder."""
    values: dict[str, Any] = {}
    for name in SETTINGS:
        value = getattr(study, name)
        if name == "rules":
            value = [str(Path(rules).resolve()) if _is_file(rules) else rules for rules in value]
        elif name == "strategies":  # a strategy file too, so the study runs from any folder
            value = [str(Path(s).resolve()) if is_strategy_file(s) else s for s in value]
        elif name in ("anchor", "strategy", "opponent") and is_strategy_file(value):
            value = str(Path(value).resolve())
        values[name] = list(value) if isinstance(value, tuple) else value
    return ("# The study of this report; run it again with:\n"
            f"#   spades-sim report --config {STUDY_FILE}\n" + tomli_w.dumps(values))


def _is_file(name: str) -> bool:
    """Whether a study's rules entry names a file rather than a preset."""
    return name not in preset_names() and Path(name).is_file()


class _Markup(str):
    """HTML that the report's own code built with :func:`_fill`: put into a page as it is.

    Every other string is text, escaped where it enters the page. Only :func:`_fill` and
    :func:`_join` make Markup, so a name, title or label that a study sets can never reach
    the page unescaped.
    """


def _fill(template: str, *args: Any, **kwargs: Any) -> _Markup:
    """``template.format(...)``, every substituted string HTML-escaped unless it is Markup.

    ``template`` is the code's own HTML, never user text. Numbers pass unescaped so that
    format specs (``{:.2f}``) work; they cannot carry markup. Any other value is escaped
    as its ``str``.

    >>> _fill("<td>{}</td>{x}", "<script>", x=_fill("<b>{:.1f}</b>", 2))
    '<td>&lt;script&gt;</td><b>2.0</b>'
    """
    return _Markup(template.format(*map(_escaped, args),
                                  **{key: _escaped(value) for key, value in kwargs.items()}))


def _join(parts: Any) -> _Markup:
    """Parts of a page one after the other; any that is not Markup is escaped."""
    return _Markup("".join(_escaped(part) for part in parts))


def _escaped(value: Any) -> Any:
    if isinstance(value, _Markup | int | float | np.integer | np.floating):
        return value
    return html.escape(str(value), quote=True)  # any other object as its escaped text


@dataclass
class Section:
    """One part of the report: a heading, prose, figures and tables.

    ``heading``, ``text`` and the captions are plain text (escaped when the page is
    written); the tables are :class:`_Markup`.
    """

    heading: str
    text: str
    figures: list[str] = field(default_factory=list)
    tables: list[tuple[str, _Markup, str]] = field(default_factory=list)
    """(caption, HTML, the CSV file of its data) triples."""
    findings: list[Finding] = field(default_factory=list)
    """The sentences the section opens with, each from the rows of one of its tables."""
    note: str = ""
    """What the section leaves out, and why (plain text)."""

    @property
    def anchor(self) -> str:
        """The id of the section's heading, for the table of contents."""
        return "-".join("".join(c if c.isalnum() else " " for c in self.heading.lower()).split())


@dataclass
class Report:
    """What :func:`run_study` wrote."""

    study: Study
    folder: Path
    index: Path
    files: list[Path]
    interrupted: bool
    sections: list[Section] = field(default_factory=list)
    """The sections on the page, with their findings."""


def run_study(study: Study = DEFAULT_STUDY, out_dir: str | Path = "reports",
              threads: int | None = None,
              on_progress: Callable[[str], None] | None = None) -> Report:
    """Run every section of the study and write the report folder; returns what was written.

    ``on_progress(section_name)`` is called as each section starts. On Ctrl-C the
    sections finished so far are written up and the report says it is incomplete.
    """
    check_study(study, out_dir, threads)
    folder = Path(out_dir) / study.name
    folder.mkdir(parents=True, exist_ok=True)
    writer = _Writer(folder)
    write_text(folder / STUDY_FILE, study_toml(study), "out-dir")
    writer.files.append(folder / STUDY_FILE)
    sections: list[Section] = []
    interrupted = False
    steps = [("rule variants", _rules_section), ("bag rules", _bags_section),
             ("strategies", _strategies_section), ("bidding", _bids_section),
             ("nil", _nil_section)]
    # Games first, hands later: a first run compiles the hand kernel beside the game kernel.
    with expecting("games", "hands"):
        for name, make in steps:
            if on_progress is not None:
                on_progress(name)
            try:
                section = make(study, writer, threads)
            except KeyboardInterrupt:
                section = None
            if section is None:
                interrupted = True
                break
            sections.append(section)
    index = folder / "index.html"
    write_text(index, _page(study, sections, interrupted), "out-dir")
    return Report(study, folder, index, [index, *writer.files], interrupted, sections)


class _Writer:
    """Writes a section's figures and data into the report folder and remembers them."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.files: list[Path] = []
        self.played: dict[RuleSet, tuple[Any, Any]] = {}
        """The self-play records of each rule set, kept across sections (see ``self_play``)."""

    def figure(self, name: str, draw: Callable[[str], None]) -> str:
        path = self.folder / f"{name}.png"
        draw(str(path))
        self.files.append(path)
        return path.name

    def data(self, name: str, frame: pd.DataFrame) -> str:
        path = self.folder / f"{name}.csv"
        write_csv(frame, path, "out-dir")
        self.files.append(path)
        return path.name


def _side_by_side_html(table: pd.DataFrame, group: str = "run",
                       unplayed: dict[str, set[str]] | None = None) -> _Markup:
    """Metrics as rows, runs as columns: value and 95% interval, and the paired difference from
    the first run where there is one; "not played" where the run's rules cannot play the row
    (``unplayed``: run to metric keys)."""
    runs = list(dict.fromkeys(table[group]))
    paired = "difference" in table.columns
    unplayed = unplayed or {}
    rows = []
    for metric, part in table.groupby("metric", sort=False):
        cells = []
        for run in runs:
            row = part[part[group] == run].iloc[0]
            if row["key"] in unplayed.get(str(run), set()):
                cells.append(_fill("<td><small>not played</small></td>"))
                continue
            text = _value_text(row["unit"], row["value"], row["low"], row["high"])
            if paired and run != runs[0] and not math.isnan(row["difference"]):
                text = _fill("{}<br><small>{}</small>", text, _value_text(
                    row["unit"], row["difference"], row["diff_low"], row["diff_high"], sign="+"))
            cells.append(_fill("<td>{}</td>", text))
        rows.append(_row(str(metric), cells))
    return _table(["metric", *map(str, runs)], rows)


def _table(head: list[str], rows: list[_Markup]) -> _Markup:
    """A table with a row of column headings above ``rows``."""
    return _fill("<table><tr>{}</tr>{}</table>",
                 _join(_fill("<th>{}</th>", name) for name in head), _join(rows))


def _row(heading: str, cells: list[_Markup]) -> _Markup:
    """A table row: its heading, then its cells."""
    return _fill("<tr><th>{}</th>{}</tr>", heading, _join(cells))


def _value_text(unit: str, value: float, low: float, high: float, sign: str = "") -> str:
    """A value with its 95% interval; shares in percent with one decimal."""
    if math.isnan(value):
        return "–"
    digits = 1 if unit in PERCENT_UNITS else 3
    interval = interval_text(low, high, unit, digits, percent_sign=False)
    return f"{value_text(value, unit, digits, sign)} {interval}".rstrip()


EDGE_KEYS = ("nil_bid_rate", "nil_success", "blind_bid_rate", "blind_success", "make_rate",
             "bid_error", "bags", "penalty_per_game", "points")
"""The rows of the rules and bag sections' edge of one strategy over another, for each side: no
row pools the two strategies' decisions."""
EDGE_POOLED = ("hands_per_game", "decided_by_penalty")
"""The rows of the edge that are the game's, not a side's."""

RULES_PANELS = (("hands_per_game", None), (COMEBACK.key, None), ("nil_bid_rate", None),
                ("points", None))
"""The panels of the rule-variant section's figure of the game for equal players."""
BAGS_PANELS = (("penalty_per_game", None), ("decided_by_penalty", None),
               ("hands_per_game", None), (COMEBACK.key, None))
"""The panels of the bag-rule section's figure of the game for equal players."""
RULES_EDGE_PANELS = (("win_rate", 0), ("hands_per_game", None), ("bags", 0), ("bags", 1))
BAGS_EDGE_PANELS = (("win_rate", 0), ("penalty_per_game", 0), ("penalty_per_game", 1),
                    ("decided_by_penalty", None))


def _rules_section(study: Study, writer: _Writer, threads: int | None) -> Section | None:
    rule_sets, labels = study.rule_sets()
    result = compare_rules(rule_sets, _sides(study), study.games, study.seed, threads,
                           labels=labels)
    if result.interrupted:
        return None
    equal = self_play(rule_sets, study.strategy, study.self_play_games, study.seed, labels,
                      played=writer.played)
    return _comparison_section(
        writer, study, "rules", result, equal, (RULES_PANELS, RULES_EDGE_PANELS),
        ("hands_per_game", COMEBACK.key, "points"), "Rule variants",
        f"Each rule set plays the same deal sequences (seed {study.seed}) to the end of the "
        f"game, twice: with {study.strategy} at every seat ({study.self_play_games:,} games), "
        f"which shows how the rules change the game for equal players, and "
        f"{_sides_text(study)} ({study.games:,} games), which shows how they change "
        f"{study.strategy}'s edge. Each cell gives the value with its 95% interval; beneath it, "
        f"in small type, the difference from {result.labels[0]} with its paired 95% interval "
        "(game g paired with game g). Rows of the edge are per side: none pools the two "
        "strategies' decisions.")


def _bags_section(study: Study, writer: _Writer, threads: int | None) -> Section | None:
    base = study.baseline()
    variants, labels = bag_variants(base, study.bag_rules)
    result = compare_rules(variants, _sides(study), study.games, study.seed, threads,
                           labels=labels)
    if result.interrupted:
        return None
    equal = self_play(variants, study.strategy, study.self_play_games, study.seed, labels,
                      played=writer.played)
    return _comparison_section(
        writer, study, "bags", result, equal, (BAGS_PANELS, BAGS_EDGE_PANELS),
        ("decided_by_penalty", "hands_per_game", COMEBACK.key), "Bag rules",
        f"The {base.name} rules with only the bag rule changed, on the same deal sequences: "
        f"{study.strategy} at every seat ({study.self_play_games:,} games) and "
        f"{_sides_text(study)} ({study.games:,} games). A game counts as decided by a bag "
        "penalty when its winner would not be ahead at the end with every side's penalty points "
        "added back.")


def _comparison_section(writer: _Writer, study: Study, name: str, result: RulesComparison,
                        equal: SelfPlay,
                        panels: tuple[Sequence[tuple[str, int | None]],
                                      Sequence[tuple[str, int | None]]],
                        keys: Sequence[str], heading: str, text: str) -> Section:
    """A section of rule sets side by side: the game for equal players (``equal``) and the edge
    of one strategy over another (``result``, per side), each as a figure, its data and a
    table, opened by a finding for each of ``keys`` of the game for equal players and one for
    the edge's win rate; what the rules cannot play is left out and named."""
    who = _sides(study)
    names = [who[side % len(who)] for side in range(result.rules[0].side_count)]
    edge, unplayed = leave_out_unplayed(
        per_side(result, names, EDGE_POOLED, EDGE_KEYS), result.rules, result.labels)
    equal_table, _ = leave_out_unplayed(equal.table, equal.rules, equal.labels)
    equal_name = f"{name}-self-play"
    figures = [
        writer.figure(equal_name, lambda path: plot_metric_panels(
            equal_table, panels[0], f"{study.strategy} at every seat: "
            f"{equal.games:,} games under each rule set", path)),
        writer.figure(name, lambda path: plot_metric_panels(
            edge, panels[1], f"{_sides_text(study)}: {result.games:,} games under each rule set",
            path))]
    writer.data(equal_name, equal_table)
    writer.data(name, edge)
    findings = [across_runs(equal_table, key, None,
                            f"For equal players ({study.strategy} at every seat),",
                            f"{equal_name}.csv", unplayed) for key in keys]
    findings.append(across_runs(edge, "win_rate", 0, f"With {study.strategy} against "
                                f"{study.opponent},",
                                f"{name}.csv", unplayed))
    return Section(
        heading, text, figures,
        [(f"For equal players: {study.strategy} at every seat", _side_by_side_html(
            equal_table, unplayed=unplayed), f"{equal_name}.csv"),
         (f"The edge of {study.strategy} over {study.opponent}, per side",
          _side_by_side_html(edge, unplayed=unplayed), f"{name}.csv")],
        [finding for finding in findings if finding is not None],
        unplayed_text(unplayed, [*EDGE_KEYS, *EDGE_POOLED, *SELF_PLAY_KEYS]))


def _sides(study: Study) -> list[str]:
    return [study.strategy, study.opponent]


def _sides_text(study: Study) -> str:
    return f"{study.strategy} (side 0) against {study.opponent} (side 1)"


def _strategies_section(study: Study, writer: _Writer, threads: int | None) -> Section | None:
    """The strategies as a league (:func:`spades_sim.analysis.league.play_league`): every pair
    in duplicate on the same deal sequences, their ratings, and the table economics."""
    rules = study.baseline()
    if rules.side_count != 2:
        return Section("Strategies", f"Not played: {rules.name} is not a two-sided table.")
    anchor = get_strategy(study.anchor).name if study.anchor else None
    league = play_league(rules, list(study.strategies), study.pairs, study.seed, anchor,
                         threads=threads)
    if league.interrupted:
        return None
    names = league.names
    payouts = Payouts(study.buy_in, parse_rake(study.rake), rules.seat_count, 2)
    matches = []
    for match in league.matches:
        result = match.comparison
        low, high = result.paired_interval
        money = result.economics(study.buy_in, payouts.rake)
        for (me, you), share, (lo, hi), row in (
                ((match.a, match.b), float(result.share.mean()), (low, high), money.iloc[0]),
                ((match.b, match.a), 1 - float(result.share.mean()), (1 - high, 1 - low),
                 money.iloc[1])):
            matches.append({"strategy": me, "opponent": you, "win_share": share, "low": lo,
                            "high": hi, "profit": row["profit"], "profit_low": row["low"],
                            "profit_high": row["high"], "pairs": result.pairs})
    table = pd.DataFrame(matches)
    field_table = _field(table, names, payouts)
    ratings = league.rating_table()
    figure = writer.figure("strategies", lambda path: _plot_round_robin(table, field_table, names,
                                                                         rules.name, path))
    league_figure = writer.figure("league", lambda path: plot_league(league, path))
    writer.data("strategies", table)
    writer.data("ratings", ratings)
    writer.data("economics", field_table)
    grid = _round_robin_html(table, names)
    money_html = _economics_html(field_table)
    findings = _league_findings(ratings, table, field_table, league.anchor)
    return Section(
        "Strategies",
        f"Every pair of strategies in duplicate under {rules.name} rules (a league): "
        f"{study.pairs:,} deal sequences, the same for every pair, each played twice with the "
        "seats swapped. The win share counts a win 1 and an unfinished game ½; intervals are "
        "paired. The ratings are Bradley–Terry ratings on the Elo scale with "
        f"{league.anchor} at 0, their 95% intervals from a bootstrap over the deal sequences, "
        "and the likelihood of superiority is the bootstrap's chance that a strategy is "
        "stronger than the next one down. Table economics: buy-in "
        f"{study.buy_in:g} per player, rake {100 * payouts.rake:g}% of it (paid on entry, not in "
        f"the pool), so a winning player gets {payouts.first:g}: the break-even win rate is "
        f"{100 * payouts.break_even():.2f}%.",
        [league_figure, figure],
        [("Ratings (Elo, Bradley–Terry)", _ratings_html(ratings, league.anchor), "ratings.csv"),
         ("Win share of the row strategy against the column strategy", grid, "strategies.csv"),
         ("Against the field, with table economics", money_html, "economics.csv")],
        findings)


def _league_findings(ratings: pd.DataFrame, table: pd.DataFrame, field_table: pd.DataFrame,
                     anchor: str) -> list[Finding]:
    """The strategies section's sentences: the highest rating, the top two head to head, and
    the best and worst expected profit against the field."""
    findings = []
    first, second = ratings.iloc[0], ratings.iloc[1]
    if first["name"] != anchor:
        findings.append(Finding(
            f"{first['name']} rates highest, {number(first['elo'], 1, sign=True)} Elo "
            f"[{number(first['low'], 1, sign=True)}, {number(first['high'], 1, sign=True)}] "
            f"with {anchor} at {number(0, 0)}.", "ratings.csv",
            ({"name": first["name"]}, {"name": anchor})))
    else:
        findings.append(Finding(
            f"{anchor}, the anchor at {number(0, 0)} Elo, rates highest; {second['name']} is "
            f"next, {number(second['elo'], 1, sign=True)} Elo "
            f"[{number(second['low'], 1, sign=True)}, {number(second['high'], 1, sign=True)}].",
            "ratings.csv", ({"name": anchor}, {"name": second["name"]})))
    match = table[(table["strategy"] == first["name"]) & (table["opponent"] == second["name"])]
    if not match.empty:
        row = match.iloc[0]
        even = row["low"] <= 0.5 <= row["high"]  # the paired interval of the share holds ½
        findings.append(Finding(
            f"Head to head, {row['strategy']} takes a win share of "
            f"{quantity(row['win_share'], row['low'], row['high'], 'share')} against "
            f"{row['opponent']}" + (": no measurable difference between the two." if even
                                    else "."), "strategies.csv",
            ({"strategy": row["strategy"], "opponent": row["opponent"]},)))
    best, worst = field_table.iloc[0], field_table.iloc[-1]
    findings.append(Finding(
        f"Against the field, {best['strategy']} expects "
        f"{_profit(best)} per game and {worst['strategy']} {_profit(worst)}, at a "
        f"break-even win rate of {number(100 * best['break_even'], 2)}%.", "economics.csv",
        ({"strategy": best["strategy"]}, {"strategy": worst["strategy"]})))
    return findings


def _profit(row: pd.Series) -> str:
    """An expected profit and its interval, signed, as the sentences write it."""
    return (f"{number(row['profit'], 2, sign=True)} [{number(row['profit_low'], 2, sign=True)}, "
            f"{number(row['profit_high'], 2, sign=True)}]")


def _ratings_html(ratings: pd.DataFrame, anchor: str) -> _Markup:
    rows = []
    for row in table_rows(ratings):
        interval = "anchor" if row.name == anchor else f"[{row.low:+.1f}, {row.high:+.1f}]"
        los = "–" if math.isnan(row.los_next) else f"{100 * row.los_next:.1f}%"
        rows.append(_row(f"{row.rank}. {row.name}", [
            _fill("<td>{}</td>", f"{row.elo:+.1f}"), _fill("<td>{}</td>", interval),
            _fill("<td>{}</td>", los)]))
    return _table(["strategy", "Elo", "95% interval", "likelihood of superiority over the next"],
                  rows)


def _field(table: pd.DataFrame, names: list[str], payouts: Payouts) -> pd.DataFrame:
    """Each strategy against the others on average: the intervals combine the independent
    matches (the half-widths add in quadrature)."""
    rows = []
    for name in names:
        mine = table[table["strategy"] == name]
        k = len(mine)
        share_half = math.sqrt(float((((mine["high"] - mine["low"]) / 2) ** 2).sum())) / k
        profit_half = math.sqrt(float((((mine["profit_high"] - mine["profit_low"]) / 2) ** 2)
                                      .sum())) / k
        share, profit = float(mine["win_share"].mean()), float(mine["profit"].mean())
        rows.append({"strategy": name, "win_share": share, "low": share - share_half,
                     "high": share + share_half, "profit": profit,
                     "profit_low": profit - profit_half, "profit_high": profit + profit_half,
                     "break_even": payouts.break_even()})
    return pd.DataFrame(rows).sort_values("win_share", ascending=False, ignore_index=True)


def _round_robin_html(table: pd.DataFrame, names: list[str]) -> _Markup:
    rows = []
    for me in names:
        cells = []
        for you in names:
            match = table[(table["strategy"] == me) & (table["opponent"] == you)]
            if match.empty:
                cells.append(_fill("<td>–</td>"))
                continue
            row = match.iloc[0]
            cells.append(_fill("<td>{}</td>", _value_text("share", row["win_share"], row["low"],
                                                          row["high"])))
        rows.append(_row(me, cells))
    return _table(["row vs column", *names], rows)


def _economics_html(field_table: pd.DataFrame) -> _Markup:
    rows = [
        _row(row.strategy, [
            _fill("<td>{}</td>", _value_text("share", row.win_share, row.low, row.high)),
            _fill("<td>{:+.2f} [{:+.2f}, {:+.2f}]</td>", row.profit, row.profit_low,
                  row.profit_high),
            _fill("<td>{:.2f}%</td>", 100 * row.break_even)])
        for row in table_rows(field_table)]
    return _table(["strategy", "mean win share against the others", "expected profit per game",
                   "break-even win rate"], rows)


@plain_text
def _plot_round_robin(table: pd.DataFrame, field_table: pd.DataFrame, names: list[str],
                      rules_name: str, path: str) -> None:
    """Heatmap of the row strategy's win share; each one's share against the field beside 50%
    and the break-even win rate; and its expected profit per game beside 0 (break-even)."""
    plt = pyplot()
    fig, (left, middle, right) = plt.subplots(1, 3, figsize=(12, 4.6), layout="constrained",
                                              gridspec_kw={"width_ratios": [1.3, 1, 1]})
    grid = np.full((len(names), len(names)), np.nan)
    for row in table_rows(table):
        grid[names.index(row.strategy), names.index(row.opponent)] = 100 * row.win_share
    # aspect "auto": a square grid would shrink inside its cell after the layout reserved room
    # for its labels, and the y label would fall off the canvas.
    image = left.imshow(grid, cmap="RdBu", vmin=0, vmax=100, aspect="auto")
    for i, j in itertools.product(range(len(names)), repeat=2):
        if not math.isnan(grid[i, j]):
            left.text(j, i, f"{grid[i, j]:.0f}", ha="center", va="center", fontsize=8,
                      color="white" if abs(grid[i, j] - 50) > 30 else "black")
    left.set_xticks(range(len(names)), names, rotation=30, ha="right", fontsize=8)
    left.set_yticks(range(len(names)), names, fontsize=8)
    left.set_xlabel("opponent")
    left.set_ylabel("strategy")
    left.set_title("win share of the row strategy (%)", fontsize=9)
    fig.colorbar(image, ax=left, label="win share (%)")
    palette = colours(names)
    order = list(field_table["strategy"])
    y = np.arange(len(order))
    break_even = 100 * float(field_table["break_even"].iloc[0])
    for ax, (value, low, high), (line, line_label), what in (
            (middle, ("win_share", "low", "high"), (50, "even (50%)"),
             "mean win share against the others"),
            (right, ("profit", "profit_low", "profit_high"), (0, "break-even (0)"),
             "profit per game")):
        scale = 100 if ax is middle else 1
        values, lows, highs = (scale * field_table[column].to_numpy(np.float64)
                               for column in (value, low, high))
        errors = error_bars(values, lows, highs)
        for k, name in enumerate(order):
            ax.errorbar(values[k], k, xerr=errors[:, k:k + 1], fmt="o", capsize=4,
                        color=palette[name])
        ax.axvline(line, color="grey", linewidth=0.8, linestyle="--", label=line_label)
        ax.set_yticks(y, order, fontsize=8)
        ax.set_ylim(len(order) - 0.5, -0.5)
        ax.set_xlabel(f"{what}, 95% interval", fontsize=9)
        ax.grid(axis="x", color="#eeeeee", linewidth=0.6)
        ax.set_axisbelow(True)
    middle.axvline(break_even, color="#444444", linewidth=1, linestyle=":",
                   label=f"break-even win rate {break_even:.2f}%")
    percent_ticks(middle.xaxis)
    middle.set_title("against the field", fontsize=9)
    right.set_title("table economics against the field", fontsize=9)
    for ax in (middle, right):
        ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.16))
    fig.suptitle(f"{rules_name}: strategies in duplicate", fontsize=10)
    save(fig, path)


def _bids_section(study: Study, writer: _Writer, threads: int | None) -> Section | None:
    rules = study.baseline()
    result = bid_profiles(rules, study.strategies, study.strategy, study.hands, study.seed,
                          threads)
    if result.interrupted:
        return None
    title = f"{rules.name}: bids on side 0 against {study.strategy}, {study.hands:,} hands each"
    figure = writer.figure("bids", lambda path: plot_bid_profiles(result, title, path))
    unplayed = unplayed_metrics(rules, "hands")  # every hand from 0–0
    metrics = result.metrics[~result.metrics["key"].isin(unplayed)]
    data = result.data()
    data = data[~((data["table"] == "metric") & data["key"].isin(unplayed))]
    writer.data("bids", data)
    findings = [ranked(data, "value", "strategy", subject, unit, "bids.csv", most="highest",
                       least="lowest", pick={"table": "metric", "key": key})
                for key, subject, unit in (
                    ("nil_bid_rate", "Nil bids per seat-hand are", "rate"),
                    ("bid_error", "The mean absolute bid error is", "tricks"),
                    ("make_rate", "Contracts made are", "rate"))]
    return Section(
        "Bidding",
        f"Each strategy bids on side 0 against {study.strategy} on the same {study.hands:,} hands, "
        "each from 0–0. Bid minus tricks is the side's contract minus the tricks its count "
        "bidders took: above 0 the contract was set, below 0 the side took bags.",
        [figure], [("bids.csv", _side_by_side_html(metrics, group="strategy"), "bids.csv")],
        [finding for finding in findings if finding is not None],
        unplayed_text({f"{rules.name} from 0–0": unplayed}, list(result.metrics["key"])))


def _nil_section(study: Study, writer: _Writer, threads: int | None) -> Section | None:
    rules = study.baseline()
    run = simulate_hands(rules, study.strategy, study.hands, study.seed, threads,
                         keep_records=True)
    if run.interrupted:
        return None
    feature = study.nil_feature
    table = nil_by_feature(run.records(nil_columns(feature)), feature)
    del run  # its records: not held while the figure is drawn
    title = f"{rules.name}: {study.strategy}'s nils by {feature_title(feature)}"
    figure = writer.figure("nil", lambda path: plot_nil_by_feature(table, feature, title, path,
                                                                     rules=rules))
    writer.data("nil", table)
    labels = feature_labels(feature, list(table[feature]), rules, symbols=False)  # cards by name
    rows = [
        _fill("<tr><td>{}</td><td>{:,}</td><td>{:,}</td><td>{}</td><td>{}</td></tr>",
              label, row.seat_hands, row.bids,
              _value_text("rate", row.bid_rate, row.bid_low, row.bid_high),
              _value_text("rate", row.success, row.low, row.high))
        for label, row in zip(labels, table_rows(table), strict=True)]
    grid = _table([feature, "seat-hands", "nil bids", "bid rate", "success rate"], rows)
    return Section(
        "Nil",
        f"{study.strategy} at every seat, {study.hands:,} hands from 0–0: how often a hand bids "
        f"nil and how often those nils are made, by {FEATURES[feature]}. The rates "
        "are of the nils the strategy chose to bid, not of every hand.",
        [figure], [("nil.csv", grid, "nil.csv")],
        _nil_findings(table, feature, study.strategy, rules))


def _nil_findings(table: pd.DataFrame, feature: str, strategy: str,
                  rules: RuleSet) -> list[Finding]:
    """The nil section's sentences: at the feature's values with the most and the fewest nil
    bids (of those with at least ``MIN_CASES`` bids), how often the strategy bids nil and makes
    it."""
    counted = table[table["bids"] >= MIN_CASES].sort_values("bid_rate", ascending=False,
                                                             kind="stable")
    if counted.empty:
        return []
    what = feature_title(feature)
    findings = []
    rows = [counted.iloc[0]] + ([counted.iloc[-1]] if len(counted) > 1 else [])
    for position, row in enumerate(rows):
        if feature == "top_spade":  # a card, by name
            card = feature_labels(feature, [row[feature]], rules, symbols=False)[0]
            held = "no trump" if card == "none" else f"{card} as the highest trump"
        else:
            held = f"{number(row[feature], _decimals(row[feature]))} {what}"
        bids = quantity(row["bid_rate"], row["bid_low"], row["bid_high"], "rate")
        made = quantity(row["success"], row["low"], row["high"], "rate")
        text = (f"{strategy} bids nil most often with {held}: on {bids} of those hands, "
                f"making {made} of the nils" if position == 0 else
                f"Its lowest measured nil rate is with {held}: {bids} of those hands, "
                f"{made} of the nils made") + "."
        findings.append(Finding(text, "nil.csv", ({feature: row[feature]},)))
    return findings


def _decimals(value: float) -> int:
    """The decimals a feature's value needs (a count none, a risk score two)."""
    return 0 if float(value).is_integer() else 2


_STYLE = """
body { font-family: system-ui, sans-serif; max-width: 1100px; margin: 2em auto; padding: 0 1em;
       color: #222; line-height: 1.45; }
table { border-collapse: collapse; margin: 0.8em 0 1.6em; font-size: 0.85em; }
th, td { border: 1px solid #ccc; padding: 0.3em 0.55em; text-align: right; vertical-align: top; }
th { background: #f2f2f2; text-align: left; }
small { color: #555; }
img { max-width: 100%; border: 1px solid #eee; }
.note { background: #fff6d9; padding: 0.6em 1em; }
.findings { background: #eef5fb; padding: 0.6em 1em 0.6em 2em; }
.findings li { margin: 0.3em 0; }
nav ol { margin: 0.3em 0 1em; }
"""


def _page(study: Study, sections: list[Section], interrupted: bool) -> str:
    """The whole report as one self-contained HTML page (figures are files beside it).

    Every text goes in through :func:`_fill`, which escapes it; the only HTML put in as
    it is are the style sheet and the tables, which the code built with ``_fill`` too.
    """
    settings = _join(_fill("<tr><th>{}</th><td>{}</td></tr>", name, _setting(study, name))
                     for name in SETTINGS)
    body = []
    if interrupted:
        body.append(_fill('<p class="note">Interrupted: only the sections below were '
                          'finished.</p>'))
    if sections:
        body.append(_fill("<nav><h2>Contents</h2><ol>{}</ol></nav>", _join(
            _fill('<li><a href="#{}">{}</a></li>', section.anchor, section.heading)
            for section in sections)))
    for section in sections:
        body.append(_fill('<h2 id="{}">{}</h2>', section.anchor, section.heading))
        if section.findings:
            body.append(_fill('<ul class="findings">{}</ul>', _join(
                _fill("<li>{}</li>", finding.text) for finding in section.findings)))
        body.append(_fill("<p>{}</p>", section.text))
        if section.note:
            body.append(_fill("<p><small>{}</small></p>", section.note))
        body += [_fill('<p><img src="{}" alt="{} figure"></p>', name, section.heading)
                 for name in section.figures]
        body += [_fill('<h3>{} (<a href="{}">{}</a>)</h3>{}', caption, data, data, table)
                 if caption != data else _fill('<h3><a href="{0}">{0}</a></h3>{1}', data, table)
                 for caption, table, data in section.tables]
    return _fill(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        "<title>{title}</title><style>{style}</style></head><body>"
        "<h1>{title}</h1>"
        "<p>spades-sim {version}. All intervals "
        "are 95%: Wilson for rates, normal for means, paired where runs share their deals. "
        "Every figure and table has its data beside this page as CSV.</p>"
        "<details><summary>Study settings</summary><table>{settings}</table>"
        "<p>The study is in <a href=\"{study_file}\">{study_file}</a>: "
        "<code>spades-sim report --config {study_file}</code> runs it again.</p></details>"
        "{body}</body></html>\n", title=study.title, style=_Markup(_STYLE), version=__version__,
        settings=settings, body=_join(body), study_file=STUDY_FILE)


def _setting(study: Study, name: str) -> str:
    value = getattr(study, name)
    return ", ".join(value) if isinstance(value, tuple) else str(value)

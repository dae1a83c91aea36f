"""What every figure shows: differences from the reference with paired intervals, break-even
lines, card names, the minimum of cases, values in heatmap cells, percentages, one colour per
strategy and rule set, and no text past the canvas. Each figure is drawn from a tiny run and
looked at as :func:`spades_sim.analysis.figures.save` writes it
(:func:`spades_sim.analysis.figures.inspecting`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from spades_sim.analysis import figures
from spades_sim.analysis.bids import bid_profiles, plot_bid_profiles
from spades_sim.analysis.compare import compare_strategies, plot_comparison
from spades_sim.analysis.figures import MIN_CASES, colours, inspecting
from spades_sim.analysis.nil import nil_by_feature, plot_nil_by_feature
from spades_sim.analysis.report import (
    BAGS_EDGE_PANELS,
    BAGS_PANELS,
    RULES_EDGE_PANELS,
    RULES_PANELS,
    Study,
    _plot_round_robin,
    run_study,
)
from spades_sim.analysis.tune import plot_tuning, tune
from spades_sim.analysis.variants import (
    BAG_RULES,
    BAGS_FIGURE_METRICS,
    RULES_FIGURE_METRICS,
    bag_label,
    bag_rule,
    compare_rules,
    plot_metric_panels,
)
from spades_sim.analysis.whatif import plot_what_if, what_if
from spades_sim.kernel.strategies import STRATEGIES, get_strategy
from spades_sim.rules import RuleSet, preset_names
from spades_sim.run.simulate import simulate_hands

LONG = "a house variant with a long name that a user chose for this table"
"""A rule-set label long enough to run past a figure's edge unless the figure makes room."""


@dataclass
class Axes:
    """What one axes of a drawn figure shows."""

    title: str
    xlabel: str
    ylabel: str
    xticks: list[str]
    yticks: list[str]
    ylim: tuple[float, float]
    texts: list[str]
    rows: dict[str, str]
    """Tick label of a row → the colour of the dot drawn on it (dot-and-interval panels)."""
    series: dict[str, str]
    """Label of an error-bar series → its colour."""


@dataclass
class Drawn:
    """What a saved figure shows, taken before it is freed."""

    path: str
    clipped: list[str]
    texts: list[str]
    axes: list[Axes] = field(default_factory=list)

    def text(self) -> str:
        return "\n".join(self.texts)


def _colour(line) -> str:
    from matplotlib.colors import to_hex

    return to_hex(line.get_color())


def _look(fig, path: str) -> Drawn:
    from matplotlib.text import Text

    drawn = Drawn(path, figures.clipped_texts(fig),
                  [text.get_text() for text in fig.findobj(Text) if text.get_text()])
    for ax in fig.axes:
        # An axes sharing its rows with the one left of it has no tick labels of its own.
        named = max((sibling for sibling in ax.get_shared_y_axes().get_siblings(ax)),
                    key=lambda sibling: sum(bool(t.get_text()) for t in sibling.get_yticklabels()))
        ticks = {round(tick, 6): label.get_text()
                 for tick, label in zip(named.get_yticks(), named.get_yticklabels())}
        rows = {}
        for line in ax.lines:
            y = np.atleast_1d(line.get_ydata())
            if line.get_marker() == "o" and y.size == 1 and round(float(y[0]), 6) in ticks:
                rows[ticks[round(float(y[0]), 6)]] = _colour(line)
        series = {container.get_label(): _colour(container.lines[0])
                  for container in ax.containers
                  if hasattr(container, "has_yerr") and not container.get_label().startswith("_")}
        drawn.axes.append(Axes(ax.get_title(), ax.get_xlabel(), ax.get_ylabel(),
                               [t.get_text() for t in ax.get_xticklabels()],
                               [t.get_text() for t in ax.get_yticklabels()], ax.get_ylim(),
                               [t.get_text() for t in ax.texts], rows, series))
    return drawn


def _drawn(draw, tmp_path: Path, name: str) -> Drawn:
    """Draw one figure (``draw(path)``) and what it showed."""
    seen: list[Drawn] = []
    with inspecting(lambda fig, path: seen.append(_look(fig, path))):
        draw(str(tmp_path / name))
    assert len(seen) == 1
    return seen[0]


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> dict[str, Drawn]:
    """Every figure of a tiny report, with a long variant label and a rules file."""
    seen: list[Drawn] = []
    study = Study(name="tiny", seed=3, games=20, self_play_games=20, pairs=12, hands=1500,
                  rules=("standard", "online-table"), variants=(f"{LONG}:nil_value=50",),
                  bag_rules=("10:100", "10:0"), strategies=("expert", "basic", "nil-happy"),
                  nil_feature="top_spade")
    with inspecting(lambda fig, path: seen.append(_look(fig, path))):
        run_study(study, tmp_path_factory.mktemp("report"))
    return {Path(drawn.path).stem: drawn for drawn in seen}


@pytest.fixture(scope="module")
def commands(tmp_path_factory) -> dict[str, Drawn]:
    """The figures of the commands that the report does not draw, from tiny runs, with titles
    as long as the commands write them."""
    tmp_path = tmp_path_factory.mktemp("figures")
    rules = RuleSet()
    comparison = compare_strategies(rules, "expert", "basic", 12, seed=2)
    one = tune(rules, "basic", [("bid_offset", [-1.0, 0.0, 1.0])], "basic", 6, seed=2)
    two = tune(rules, "basic", [("bid_offset", [-0.5, 0.0]), ("nil_threshold", [0.0, 1.0])],
               "basic", 6, seed=2)
    blind_rules = rules.replace(blind_nil="anytime")
    bold = get_strategy("expert-v1").variant({"blind_nil_deficit": 0, "blind_nil_near": 10000})
    blind = simulate_hands(blind_rules, [bold, "expert-v1"], 1500, seed=3, keep_records=True)
    hand = what_if(blind_rules, "AS 7S 3S 9H 8H 4H 2H QD 6D 3D 8C 5C 2C", score=(100, 310),
                   deals=16, seed=4, threads=1)
    ruled = compare_rules(["standard", "classic"], ["expert", "basic"], 16, seed=1,
                          labels=["standard", "classic"])
    long_title = ("rules standard blind_nil=anytime, strategy expert-v1[blind_nil_deficit=0,"
                  "blind_nil_near=10000] vs expert-v1, seed 3: 1,500 hands")
    draws = {
        "compare": lambda path: plot_comparison(comparison, path, break_even=100 / 170),
        "tune-line": lambda path: plot_tuning(one, path),
        "tune-heatmap": lambda path: plot_tuning(two, path),
        "blind-nil": lambda path: plot_nil_by_feature(
            nil_by_feature(blind.records(), "spades", blind=True), "spades", long_title, path,
            blind=True, rules=blind_rules),
        "hand": lambda path: plot_what_if(hand, "rules standard blind_nil=anytime, seat 0 of "
                                          "dealer 3, score 100/310, bags 0/0, strategy expert, "
                                          "seed 4: 16 deals", path),
        "rules-economics": lambda path: plot_metric_panels(
            ruled.table, RULES_FIGURE_METRICS, "rules standard, classic, strategy expert vs "
            "basic, seed 1: 16 games under each of 2 rule sets", path, break_even=100 / 170),
    }
    return {name: _drawn(draw, tmp_path, f"{name}.png") for name, draw in draws.items()}


REPORT_FIGURES = ("rules-self-play", "rules", "bags-self-play", "bags", "strategies", "bids",
                  "nil")
COMMAND_FIGURES = ("compare", "tune-line", "tune-heatmap", "blind-nil", "hand", "rules-economics")


@pytest.mark.parametrize("name", REPORT_FIGURES)
def test_no_text_of_a_report_figure_leaves_the_canvas(report: dict[str, Drawn], name: str) -> None:
    assert report[name].clipped == []


@pytest.mark.parametrize("name", COMMAND_FIGURES)
def test_no_text_of_a_command_figure_leaves_the_canvas(commands: dict[str, Drawn],
                                                       name: str) -> None:
    assert commands[name].clipped == []


def test_the_clipping_check_finds_a_clipped_text(tmp_path: Path) -> None:
    """The check itself: a title that runs past the edge is found, one that fits is not."""
    plt = figures.pyplot()
    fig, ax = plt.subplots(figsize=(3, 2))
    ax.set_title("a title far too long for a figure three inches wide, and then some more")
    assert any(found.startswith("'a title far") for found in figures.clipped_texts(fig))
    figures.lay_out(fig)  # makes room for the tick labels, and wraps the title
    assert figures.clipped_texts(fig) == []
    assert "\n" in ax.get_title()
    plt.close(fig)


def test_rule_and_bag_figures_show_differences_with_paired_intervals(
        report: dict[str, Drawn], commands: dict[str, Drawn]) -> None:
    """Each metric has a value panel and a panel of the difference from the first rule set, in
    the report's figures of the game for equal players and of the edge and in the commands';
    the bag figures have hands per game and the comebacks."""
    for drawn, reference, metrics in (
            (report["rules"], "standard", RULES_EDGE_PANELS),
            (report["rules-self-play"], "standard", RULES_PANELS),
            (report["bags"], "10 bags -100", BAGS_EDGE_PANELS),
            (report["bags-self-play"], "10 bags -100", BAGS_PANELS),
            (commands["rules-economics"], "standard", RULES_FIGURE_METRICS)):
        differences = [ax for ax in drawn.axes if ax.xlabel.startswith(f"minus {reference}")]
        assert len(differences) == len(metrics)
        assert "paired 95% interval" in drawn.text()
    assert ("hands_per_game", None) in BAGS_FIGURE_METRICS
    assert "hands per game" in report["bags-self-play"].text()
    assert "the comeback rate (wins after trailing by 100 points or more)" in report[
        "bags-self-play"].text()
    # The edge's rows are per side, named by the strategy that sat there.
    assert "side 1 (seats 1+3, basic) bag penalty points per game" in report["bags"].text()
    # Every rule set but the reference has a dot with its interval in the difference panels.
    win_rate = next(ax for ax in report["rules"].axes if ax.xlabel.startswith("minus standard"))
    assert set(win_rate.rows) == {"online-table", LONG}
    assert "minus standard (percentage points)" in [ax.xlabel for ax in commands[
        "rules-economics"].axes]


def test_the_heatmap_of_seven_strategies_keeps_its_labels_on_the_canvas(tmp_path: Path) -> None:
    """The default study's seven strategies: the heatmap's axis labels (its y label was cut at
    the left edge) and every tick stay on the canvas."""
    names = list(STRATEGIES)[:7]
    matches = pd.DataFrame([{"strategy": a, "opponent": b, "win_share": 0.5, "low": 0.45,
                             "high": 0.55, "profit": 0.0, "profit_low": -5.0, "profit_high": 5.0}
                            for a in names for b in names if a != b])
    field_share = pd.DataFrame([{"strategy": name, "win_share": 0.5, "low": 0.48, "high": 0.52,
                                 "profit": 0.0, "profit_low": -2.0, "profit_high": 2.0,
                                 "break_even": 100 / 170} for name in names])
    drawn = _drawn(lambda path: _plot_round_robin(matches, field_share, names, "standard", path),
                   tmp_path, "heat.png")
    assert drawn.clipped == []
    assert (drawn.axes[0].xlabel, drawn.axes[0].ylabel) == ("opponent", "strategy")


def test_the_bidding_lines_differ_in_marker_and_style(tmp_path: Path) -> None:
    """Seven strategies' lines in the bids figure: no two share a marker and line style, so
    they are told apart where colours are near or lines lie on each other."""
    names = list(STRATEGIES)[:7]
    profiles = bid_profiles(RuleSet(), names, "basic", 200, seed=1)
    looks: list[list[tuple[str, str, str]]] = []

    def look(fig, _path: str) -> None:
        looks.extend([(str(container.get_label()), container.lines[0].get_marker(),
                       container.lines[0].get_linestyle()) for container in ax.containers
                      if not str(container.get_label()).startswith("_")] for ax in fig.axes)

    with inspecting(look):
        plot_bid_profiles(profiles, "t", str(tmp_path / "bids.png"))
    for lines in looks:
        assert [name for name, _, _ in lines] == names
        assert len({(marker, style) for _, marker, style in lines}) == len(names)


def test_compare_and_tune_show_the_win_share_against_50_percent_in_percent(
        commands: dict[str, Drawn]) -> None:
    compare = commands["compare"]
    share = compare.axes[0]
    assert share.yticks == ["expert (A)", "basic (B)"]
    assert all(tick.endswith("%") for tick in share.xticks if tick)
    assert "even (50%)" in compare.text()
    assert "A − B, paired 95% interval" in compare.text()
    assert compare.axes[1].xlabel == "A − B (points)"
    line = commands["tune-line"].axes[0]
    assert all(tick.endswith("%") for tick in line.yticks if tick)
    assert "even (50%)" in commands["tune-line"].text()


def test_break_even_lines(report: dict[str, Drawn], commands: dict[str, Drawn]) -> None:
    """Buy-in 100 and rake 15% (the study's default): a winner gets 170, break-even 58.82%."""
    assert "break-even win rate 58.82%" in commands["compare"].text()
    assert "break-even 58.82%" in commands["rules-economics"].text()
    assert "break-even win rate 58.82%" in report["strategies"].text()
    assert "break-even (0)" in report["strategies"].text()


def test_heatmap_cells_carry_their_values(tmp_path: Path) -> None:
    result = tune(RuleSet(), "basic", [("bid_offset", [-0.5, 0.0]), ("nil_threshold", [0.0, 1.0])],
                  "basic", 6, seed=2)
    drawn = _drawn(lambda path: plot_tuning(result, path), tmp_path, "heat.svg")
    cells = drawn.axes[0].texts
    assert len(cells) == 4
    for row in result.table.itertuples(index=False):
        expected = f"{100 * row.win_share:.1f}%\n[{100 * row.low:.1f}, {100 * row.high:.1f}]"
        assert expected in cells
    assert all(tick.endswith("%") for tick in drawn.axes[1].yticks if tick)  # the colour bar


def _top_spade_frame(values: list[int], thin: int | None = None) -> pd.DataFrame:
    """Seat-hands with every ``values`` of top_spade 120 times (one nil in four, made), and
    ``thin`` twice, both nils: a bin under the minimum with a bid rate of 100%."""
    held = [value for value in values for _ in range(120)] + ([thin, thin] if thin is not None
                                                              else [])
    bids = [0 if k % 4 == 0 else 3 for k in range(len(held) - (2 if thin is not None else 0))]
    bids += [0, 0] if thin is not None else []
    return pd.DataFrame({"bid": bids, "blind": 0, "tricks": 0, "spades": 0, "top_spade": held,
                         "voids": 0, "aces": 0, "kings": 0, "nil_risk": np.float32(0)})


def test_top_spade_ticks_name_the_cards_of_the_deck(tmp_path: Path) -> None:
    table = nil_by_feature(_top_spade_frame(list(range(-1, 13))), "top_spade")
    standard = _drawn(lambda path: plot_nil_by_feature(table, "top_spade", "t", path,
                                                        rules=RuleSet()), tmp_path, "s.png")
    assert standard.axes[1].xticks == ["none", "2♠", "3♠", "4♠", "5♠", "6♠", "7♠", "8♠", "9♠",
                                       "10♠", "J♠", "Q♠", "K♠", "A♠"]
    assert standard.axes[1].xlabel == "highest trump held"
    jokers = nil_by_feature(_top_spade_frame(list(range(-1, 15))), "top_spade")
    drawn = _drawn(lambda path: plot_nil_by_feature(jokers, "top_spade", "t", path,
                                                     rules=RuleSet(deck="jokers")), tmp_path,
                   "j.png")
    assert drawn.axes[1].xticks[-4:] == ["K♠", "A♠", "LJ", "BJ"]
    deuces = nil_by_feature(_top_spade_frame(list(range(-1, 16))), "top_spade")
    drawn = _drawn(lambda path: plot_nil_by_feature(
        deuces, "top_spade", "t", path, rules=RuleSet(deck="joker-joker-deuce-deuce")),
        tmp_path, "d.png")
    assert drawn.axes[1].xticks[:2] == ["none", "3♠"]
    assert drawn.axes[1].xticks[-5:] == ["A♠", "2♠", "2♦", "LJ", "BJ"]
    # Without the rules the deck is not known: the ranks stay numbers.
    plain = _drawn(lambda path: plot_nil_by_feature(table, "top_spade", "t", path), tmp_path,
                   "n.png")
    assert plain.axes[1].xticks[:3] == ["-1", "0", "1"]
    assert "the 2 of a standard deck" in plain.axes[1].xlabel


def test_a_bin_under_the_minimum_is_left_out_and_named(tmp_path: Path) -> None:
    """Two seat-hands at the K♠, both nil: a bid rate of 100% with an interval from 34%. It is
    left out, so the bid-rate axis stays at the scale of the bins with enough cases, and the
    note names it and the minimum."""
    table = nil_by_feature(_top_spade_frame(list(range(-1, 11)), thin=11), "top_spade")
    assert table.set_index("top_spade").loc[11, "seat_hands"] == 2 < MIN_CASES
    drawn = _drawn(lambda path: plot_nil_by_feature(table, "top_spade", "t", path,
                                                     rules=RuleSet()), tmp_path, "m.svg")
    bid_rate = drawn.axes[1]
    assert bid_rate.ylim[1] < 90  # 25% bars and their intervals, with room for the legend
    note = next(text for text in drawn.texts if text.startswith("Drawn where"))
    assert f"at least {MIN_CASES} nil bids" in note.replace("\n", " ")
    assert "success at K♠; bid rate at K♠." in note.replace("\n", " ")
    assert f"fewer than {MIN_CASES} cases: left out" in drawn.text()


def test_one_colour_per_strategy_and_rule_set_in_every_figure(report: dict[str, Drawn],
                                                              commands: dict[str, Drawn]) -> None:
    bids = report["bids"].axes[0].series
    field_share = report["strategies"].axes[1].rows
    assert set(bids) == set(field_share) == {"expert", "basic", "nil-happy"}
    for name in bids:
        assert bids[name] == field_share[name] == figures.FIXED_COLOURS[name], name
    assert commands["compare"].axes[0].rows == {"expert (A)": bids["expert"],
                                                "basic (B)": bids["basic"]}
    # The rule sets: standard the same in the report's figure and the command's.
    assert (report["rules"].axes[0].rows["standard"]
            == commands["rules-economics"].axes[0].rows["standard"])
    assert len(set(report["rules"].axes[0].rows.values())) == 3  # with the long variant


def test_colours_are_fixed_for_named_strategies_and_presets_and_never_shared() -> None:
    assert set(STRATEGIES) <= set(figures.STRATEGY_ORDER)
    assert set(preset_names()) <= set(figures.PRESET_ORDER)
    assert list(figures.BAG_RULE_ORDER) == [bag_label(*bag_rule(text)) for text in BAG_RULES]
    assert len(set(figures.PALETTE)) == len(figures.PALETTE)
    names = [f"variant {k}" for k in range(30)] + ["expert", "basic"]
    chosen = colours(names)
    assert len(set(chosen.values())) == len(names)  # past the palette too
    assert chosen["expert"] == figures.FIXED_COLOURS["expert"]
    assert colours(reversed(names)) == chosen  # whatever the order
    # A variant labelled like a strategy, beside that strategy's colour twin: another colour.
    assert len(set(colours(["standard", "expert"]).values())) == 2

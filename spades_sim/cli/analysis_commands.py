"""The analysis commands: strategies in duplicate (compare-strategies, tune), rule sets on
shared deals (compare-rules, bags), bidding and nil studies (bids, nil) and one hand's
best bid (hand)."""

from __future__ import annotations

import math
import sys

import click

from ..analysis import export
from ..analysis.bids import bid_profiles, plot_bid_profiles
from ..analysis.compare import compare_strategies, plot_comparison
from ..analysis.formatting import (
    comparison_text,
    economics_text,
    nil_text,
    rules_economics_text,
    side_by_side_text,
    tune_text,
    what_if_text,
    win_share_text,
)
from ..analysis.metrics import Payouts
from ..analysis.nil import FEATURES, check_feature, nil_by_feature, plot_nil_by_feature
from ..analysis.tune import parse_param_range, plot_tuning, tune
from ..analysis.variants import (
    BAG_RULES,
    BAGS_FIGURE_METRICS,
    RULES_FIGURE_METRICS,
    bag_variants,
    compare_rules,
    plot_metric_panels,
    rule_sets_of,
    variant_rule_sets,
)
from ..analysis.whatif import (
    POLICY_LABEL,
    deal_passes,
    double_dummy_text,
    parse_bids,
    parse_side_values,
    plot_what_if,
    what_if,
    what_if_double_dummy,
)
from ..kernel.strategies import (
    DEFAULT_STRATEGY,
    STRATEGIES,
    get_strategy,
    seat_strategies,
)
from ..outputs import shown
from ..run.deals import parse_suit_count
from ..run.simulate import simulate_hands
from .errors import InputError, user_errors
from .options import (
    WHOLE,
    economics_options,
    output_options,
    parse_economics,
    progress,
    resolve_rules,
    rule_options,
    run_options,
    strategy_options,
    table_strategies,
    variant_option,
)
from .output import (
    Outputs,
    check_outputs,
    deliver,
    echo,
    rules_label,
    run_metadata,
    run_title,
    side_labels,
    status,
    strategies_label,
)


@click.command(name="compare-strategies")
@click.argument("strategy_a", metavar="A")
@click.argument("strategy_b", metavar="B")
@rule_options
@click.option("--games", type=WHOLE, default=2000, show_default=True,
              help="Deal sequences; each is played twice, seats swapped.")
@run_options(max_hands="counted as half a win")
@click.option("--param", "param_overrides", multiple=True, metavar="SIDE.NAME=VALUE",
              help="Change a parameter of A (side 0) or B (side 1), e.g. --param 1.set_slack=0 "
                   "(repeatable).")
@output_options("compare-A-vs-B.png", named=True)
@economics_options
def compare_strategies_command(strategy_a: str, strategy_b: str, rules_name: str,
                               rule_overrides: tuple[str, ...], games: int, seed: int | None,
                               param_overrides: tuple[str, ...], threads: int | None,
                               max_hands: int, fmt: str, out: str | None,
                               figure_path: str | None, svg: bool, no_figure: bool,
                               buy_in: float | None, rake: str | None, quiet: bool) -> None:
    """Compare two strategies in duplicate: every deal sequence played with the seats swapped.

    Prints each strategy's win share, points per hand, nil and bag figures, and the
    difference A − B with its paired 95% interval, then how much narrower the paired
    interval is than an unpaired one on the same games (or, when every pair came out the
    same, how the pairs came out).

    Example:

    \b
        spades-sim compare-strategies conservative basic --games 4000 --seed 21
        spades-sim compare-strategies expert basic --buy-in 100 --rake 15%
    """
    figure_path = figure_path or f"compare-{strategy_a}-vs-{strategy_b}.png"
    with user_errors():
        rules = resolve_rules(rules_name, rule_overrides)
        outputs = check_outputs(fmt, out, figure_path, svg, no_figure)
        money = parse_economics(buy_in, rake)
        pair = seat_strategies([strategy_a, strategy_b], 2, param_overrides, side_count=2)
        with progress(2 * games, "games", quiet) as advance:
            result = compare_strategies(rules, pair[0], pair[1], games, seed, threads,
                                        max_hands, on_block=advance)
    title = (f"rules {rules_label(rules, rule_overrides)}, {result.a.name} (A) vs "
             f"{result.b.name} (B), seed {result.seed}: {result.pairs:,} deal sequences x 2"
             + (" (interrupted)" if result.interrupted else ""))
    if not result.pairs:
        echo(title)
        sys.exit(130)
    text = [title, comparison_text(result.summary()), win_share_text(result)]
    extra = {}
    break_even = None
    if money is not None:
        extra["economics"] = result.economics(*money)
        text.append(economics_text(extra["economics"], Payouts(*money, rules.seat_count, 2)))
        break_even = float(extra["economics"]["break_even"].iloc[0])
    meta = export.metadata(
        "compare-strategies", result.seed, [rules], [result.a, result.b], pairs=result.pairs,
        interrupted=result.interrupted, win_share_paired_interval=list(result.paired_interval),
        win_share_unpaired_interval=list(result.unpaired_interval))
    deliver(outputs, "\n".join(text), result.summary(), meta,
            lambda path: plot_comparison(result, path, break_even), extra=extra)
    if result.interrupted:
        sys.exit(130)


@click.command(name="tune")
@click.argument("strategy_name", metavar="STRATEGY")
@click.option("--param", "param_ranges", multiple=True, required=True, metavar="NAME=LO:HI:STEP",
              help="A parameter to search, HI included (repeatable: a grid over all of them).")
@click.option("--against", default=DEFAULT_STRATEGY, show_default=True, metavar="NAME",
              help="The opponent every setting plays in duplicate.")
@rule_options
@click.option("--games", type=WHOLE, default=500, show_default=True,
              help="Deal sequences per setting; each is played twice, seats swapped.")
@run_options(seed="Seed, shared by every setting.", max_hands="counted as half a win")
@output_options("tune-STRATEGY.png", named=True)
def tune_command(strategy_name: str, param_ranges: tuple[str, ...], against: str,
                 rules_name: str, rule_overrides: tuple[str, ...], games: int, seed: int | None,
                 threads: int | None, max_hands: int, fmt: str, out: str | None,
                 figure_path: str | None, svg: bool, no_figure: bool, quiet: bool) -> None:
    """Grid-search a strategy's parameters against an opponent, all settings on the same deals.

    Prints every setting's win share with its paired 95% interval, best first, and
    draws the result.

    Example:

    \b
        spades-sim tune basic --param bid_offset=-1:1:0.25 --against basic --games 1000
    """
    figure_path = figure_path or f"tune-{strategy_name}.png"
    with user_errors():
        rules = resolve_rules(rules_name, rule_overrides)
        ranges = [parse_param_range(text) for text in param_ranges]
        outputs = check_outputs(fmt, out, figure_path, svg, no_figure or len(ranges) > 2)
        settings = math.prod(len(values) for _, values in ranges)
        with progress(2 * games * settings, "games", quiet) as advance:
            result = tune(rules, strategy_name, ranges, against, games, seed, threads, max_hands,
                          on_block=advance)
    title = (f"rules {rules_label(rules, rule_overrides)}, {result.base.name} against "
             f"{result.against.name}, seed {result.seed}: {len(result.table)} settings x "
             f"{games:,} deal sequences x 2" + (" (interrupted)" if result.interrupted else ""))
    text = "\n".join(filter(None, [title, tune_text(result)]))
    meta = export.metadata("tune", result.seed, [rules], [result.base, result.against],
                           games=games, parameters=result.names, interrupted=result.interrupted)
    draw = (lambda path: plot_tuning(result, path)) if not result.table.empty else None
    deliver(outputs, text, result.table, meta, draw)
    if len(result.names) > 2 and not result.table.empty:
        status("no figure: one or two parameters can be drawn")
    if result.interrupted:
        sys.exit(130)


@click.command(name="nil")
@rule_options
@click.option("--hands", type=WHOLE, default=200_000, show_default=True,
              help="Hands to play, each from 0-0.")
@run_options()
@strategy_options
@click.option("--by", "feature", default="spades", show_default=True,
              help="The hand feature: " + ", ".join(FEATURES) + ".")
@click.option("--blind", is_flag=True,
              help="Blind nils instead of nils. From 0-0 they need rules and a strategy that "
                   "allow them, e.g. --rule blind_nil=anytime --param 0.blind_nil_deficit=0 "
                   "--param 0.blind_nil_near=10000.")
@output_options("nil-by-FEATURE.png", named=True)
def nil_command(rules_name: str, rule_overrides: tuple[str, ...], hands: int, seed: int | None,
                threads: int | None, strategy_names: tuple[str, ...],
                param_overrides: tuple[str, ...], feature: str, blind: bool, fmt: str,
                out: str | None, figure_path: str | None, svg: bool, no_figure: bool,
                quiet: bool) -> None:
    """Nil bids and their success by a feature of the hand, with 95% intervals.

    Plays hands from 0-0 and breaks the seats' plain nils (or, with --blind, blind
    nils) down by the feature: how often such hands bid nil and how often those nils
    were made.

    Example:

    \b
        spades-sim nil --by spades --hands 200000 --seed 1
        spades-sim nil --blind --rule blind_nil=anytime --param 0.blind_nil_deficit=0 \
            --param 0.blind_nil_near=10000
    """
    figure_path = figure_path or f"{'blind-' if blind else ''}nil-by-{feature}.png"
    with user_errors():
        rules = resolve_rules(rules_name, rule_overrides)
        check_feature(feature)
        outputs = check_outputs(fmt, out, figure_path, svg, no_figure)
        strategies = table_strategies(rules, strategy_names, param_overrides)
        with progress(hands, "hands", quiet) as advance:
            run = simulate_hands(rules, strategies, hands, seed=seed, threads=threads,
                                 keep_records=True, on_block=advance)
    title = run_title(rules, rule_overrides, run) + (" (interrupted)" if run.interrupted else "")
    if not run.done:
        echo(title)
        sys.exit(130)
    table = nil_by_feature(run.records(), feature, blind)
    deliver(outputs, f"{title}\n{nil_text(table, feature, blind)}", table,
            run_metadata(run, "nil", feature=feature, blind=blind),
            lambda path: plot_nil_by_feature(table, feature, title, path, blind, rules))
    if run.interrupted:
        sys.exit(130)


def _play_rule_sets(rule_sets: list, labels: list[str] | None, strategy_names: tuple[str, ...],
                    param_overrides: tuple[str, ...], games: int, seed: int | None,
                    threads: int | None, max_hands: int, quiet: bool):
    """Play the same games under each rule set (compare-rules and bags)."""
    strategies = table_strategies(rule_sets[0], strategy_names, param_overrides)
    with progress(games * len(rule_sets), "games", quiet) as advance:
        return compare_rules(rule_sets, strategies, games, seed, threads, max_hands, labels,
                             on_block=advance), strategies


def _print_rules_comparison(command: str, result, strategies: list, what: str,
                            metrics: tuple, outputs: Outputs,
                            money: tuple[float, float] | None) -> None:
    count = len(result.labels)
    title = (f"{what}, strategy {strategies_label(strategies)}, seed {result.seed}: "
             f"{result.games:,} games under "
             + (f"each of {count} rule sets" if count > 1 else "1 rule set"))
    header = title + (" (interrupted)" if result.interrupted else "")
    if not result.games:
        echo(header)
        sys.exit(130)
    meta = export.metadata(command, result.seed, result.rules, strategies, labels=result.labels,
                           games=result.games, interrupted=result.interrupted)
    text, extra = [header, side_by_side_text(result.table)], {}
    break_even = None
    if money is not None:
        seats, sides = result.rules[0].seat_count, result.rules[0].side_count
        extra["economics"] = result.economics(*money, side_labels(seats, sides, strategies))
        text.append(rules_economics_text(extra["economics"], Payouts(*money, seats, sides)))
        # The figure's win rate is side 0's: its break-even under the first rule set.
        break_even = float(extra["economics"]["break_even"].iloc[0])
    deliver(outputs, "\n".join(text), result.table, meta,
            lambda path: plot_metric_panels(result.table, metrics, title, path,
                                            break_even=break_even), extra=extra)
    if result.interrupted:
        sys.exit(130)


@click.command(name="compare-rules")
@click.argument("rule_names", nargs=-1, required=True, metavar="PRESET|FILE...")
@click.option("--rule", "rule_overrides", multiple=True, metavar="[NAME:]FIELD=VALUE",
              help="Change a rule field of the rule set NAME, or of every rule set, e.g. "
                   "--rule classic:target=300 (repeatable).")
@variant_option
@click.option("--games", type=WHOLE, default=2000, show_default=True,
              help="Games under each rule set (the same deal sequences).")
@run_options(seed="Seed, shared by every rule set.", max_hands="counted as unfinished")
@strategy_options
@output_options("compare-rules.png")
@economics_options
def compare_rules_command(rule_names: tuple[str, ...], rule_overrides: tuple[str, ...],
                          variants: tuple[str, ...], games: int, seed: int | None,
                          strategy_names: tuple[str, ...], param_overrides: tuple[str, ...],
                          threads: int | None, max_hands: int, fmt: str, out: str | None,
                          figure_path: str, svg: bool, no_figure: bool, buy_in: float | None,
                          rake: str | None, quiet: bool) -> None:
    """Play the same deal sequences under each rule set and compare them side by side.

    Prints win rates, game length, contract, nil, bag and penalty figures for every
    rule set with 95% intervals, and each one's difference from the first with its
    paired interval (game g of each rule set paired with game g of the first).

    Example:

    \b
        spades-sim compare-rules standard classic jokers --games 2000 --seed 1
    """
    with user_errors():
        repeated = next((name for i, name in enumerate(rule_names) if name in rule_names[:i]), None)
        if repeated is not None:
            raise InputError(f"rules={shown(repeated)!r}: allowed each rule set once (given twice)")
        rule_sets, labels = rule_sets_of(rule_names, rule_overrides, variants)
        outputs = check_outputs(fmt, out, figure_path, svg, no_figure)
        money = parse_economics(buy_in, rake)
        result, strategies = _play_rule_sets(rule_sets, labels, strategy_names, param_overrides,
                                             games, seed, threads, max_hands, quiet)
    _print_rules_comparison("compare-rules", result, strategies,
                            "rules " + ", ".join(result.labels), RULES_FIGURE_METRICS, outputs,
                            money)


@click.command(name="bags")
@rule_options
@click.option("--bag-rule", "bag_rules", multiple=True, metavar="LIMIT:PENALTY",
              help="A bag rule: lose PENALTY points every LIMIT bags, e.g. 5:50; 10:0 for none "
                   f"(repeatable). [default: {' '.join(BAG_RULES)}]")
@click.option("--games", type=WHOLE, default=2000, show_default=True,
              help="Games under each bag rule (the same deal sequences).")
@run_options(seed="Seed, shared by every bag rule.", max_hands="counted as unfinished")
@strategy_options
@variant_option
@output_options("bags.png")
def bags_command(rules_name: str, rule_overrides: tuple[str, ...], bag_rules: tuple[str, ...],
                 games: int, seed: int | None, strategy_names: tuple[str, ...],
                 param_overrides: tuple[str, ...], threads: int | None, max_hands: int,
                 variants: tuple[str, ...], fmt: str, out: str | None, figure_path: str,
                 svg: bool, no_figure: bool, quiet: bool) -> None:
    """Bag accumulation and bag penalties under different bag rules, on the same deals.

    Plays the same games under each bag rule (the rest of the rules as --rules) and
    prints bags per hand, penalty points per game, the share of games with a
    penalty and of games a penalty decided, win rates and game length.

    Example:

    \b
        spades-sim bags --bag-rule 10:100 --bag-rule 5:50 --games 4000 --seed 1
    """
    with user_errors():
        base = resolve_rules(rules_name, rule_overrides)
        rule_sets, labels = bag_variants(base, bag_rules or BAG_RULES)
        extra, extra_labels = variant_rule_sets(base, variants)
        rule_sets, labels = rule_sets + extra, labels + extra_labels
        outputs = check_outputs(fmt, out, figure_path, svg, no_figure)
        result, strategies = _play_rule_sets(rule_sets, labels, strategy_names, param_overrides,
                                             games, seed, threads, max_hands, quiet)
    _print_rules_comparison("bags", result, strategies,
                            f"rules {rules_label(base, rule_overrides)} by bag rule",
                            BAGS_FIGURE_METRICS, outputs, None)


@click.command(name="bids")
@click.argument("strategy_names", nargs=-1, metavar="[STRATEGY]...")
@click.option("--against", default=DEFAULT_STRATEGY, show_default=True, metavar="NAME",
              help="The opponent on side 1 while each strategy bids on side 0.")
@rule_options
@click.option("--hands", type=WHOLE, default=100_000, show_default=True,
              help="Hands per strategy, each from 0-0 (the same deals for every strategy).")
@run_options(seed="Seed, shared by every strategy.")
@output_options("bids.png")
def bids_command(strategy_names: tuple[str, ...], against: str, rules_name: str,
                 rule_overrides: tuple[str, ...], hands: int, seed: int | None,
                 threads: int | None, fmt: str, out: str | None, figure_path: str, svg: bool,
                 no_figure: bool, quiet: bool) -> None:
    """Bid accuracy and bidding profiles of strategies (default: every named strategy).

    Each strategy bids on side 0 against --against on the same hands. Prints its
    bid, nil and blind-nil rates, contract make and set rates and how far its
    contracts miss the tricks taken; the figure shows how often it bids what and
    the distribution of bid minus tricks.

    Example:

    \b
        spades-sim bids expert basic conservative --hands 200000 --seed 1
    """
    with user_errors():
        rules = resolve_rules(rules_name, rule_overrides)
        chosen = [get_strategy(name) for name in strategy_names or STRATEGIES]
        get_strategy(against)  # refused now rather than after the first strategy's run
        outputs = check_outputs(fmt, out, figure_path, svg, no_figure)
        with progress(hands * len(chosen), "hands", quiet) as advance:
            result = bid_profiles(rules, chosen, against, hands, seed, threads, on_block=advance)
    title = (f"rules {rules_label(rules, rule_overrides)}, bids on side 0 against "
             f"{result.against.name}, seed {result.seed}: {hands:,} hands per strategy")
    header = title + (" (interrupted)" if result.interrupted else "")
    if result.metrics.empty:
        echo(header)
        sys.exit(130)
    meta = export.metadata("bids", result.seed, [rules], [*chosen, result.against], hands=hands,
                           interrupted=result.interrupted)
    deliver(outputs, f"{header}\n{side_by_side_text(result.metrics, group='strategy')}",
            result.data(), meta, lambda path: plot_bid_profiles(result, title, path))
    if result.interrupted:
        sys.exit(130)


@click.command(name="hand")
@click.argument("cards", metavar="CARDS")
@click.option("--seat", type=WHOLE, default=0, show_default=True, help="The seat holding CARDS.")
@rule_options
@click.option("--score", "score_text", default="", metavar="us=N,them=N",
              help="The score before this hand (or SIDE=N,… per side). [default: 0-0]")
@click.option("--bags", "bags_text", default="", metavar="us=N,them=N",
              help="Bags each side carries. [default: none]")
@click.option("--bids", "bids_text", default="", metavar="SEAT:BID,…",
              help="Bids already made this hand, e.g. 1:4,2:nil (blind nil: blind).")
@click.option("--dealer", type=WHOLE, default=None,
              help="The dealer. [default: the seat that puts --bids just before the seat's turn]")
@click.option("--hands-played", "hand_index", type=WHOLE, default=None,
              help="Hands already played in this game. [default: 0 at 0-0, else 1]")
@click.option("--constraint", "constraint_texts", multiple=True, metavar="SEAT:SUIT=LO-HI",
              help="Only deals where a seat holds so many cards of a suit, e.g. 1:spades=0-2 "
                   "(repeatable).")
@click.option("--deals", type=WHOLE, default=1000, show_default=True,
              help="Random completions of the unknown cards, each played for every bid.")
@click.option("--dd", "double_dummy", is_flag=True,
              help="Also solve every completion double-dummy: the distribution of the side's "
                   "tricks with every card visible, beside the strategy's own bid and how often "
                   "it was made (docs/double-dummy.md).")
@run_options()
@strategy_options
@output_options("hand.png")
def hand_command(cards: str, seat: int, rules_name: str, rule_overrides: tuple[str, ...],
                 score_text: str, bags_text: str, bids_text: str, dealer: int | None,
                 hand_index: int | None, constraint_texts: tuple[str, ...], deals: int,
                 seed: int | None, threads: int | None, strategy_names: tuple[str, ...],
                 param_overrides: tuple[str, ...], fmt: str, out: str | None, figure_path: str,
                 svg: bool, no_figure: bool, quiet: bool, double_dummy: bool = False) -> None:
    """Which bid is best with these cards? Plays many random deals of the unknown cards.

    Fixes the seat's CARDS and what is known (score, bags, bids already made), deals
    the rest at random --deals times and plays each deal once for every candidate
    bid (nil, each count bid, and the strategy's own choice), then plays the game on
    to its end; blind nil, where allowed, is judged as it is bid, before looking (on
    deals where the seat's cards are random too). Prints per bid the chance it is made,
    the points it scores this hand and the chance to win the game, with 95%
    intervals, and the change against the strategy's choice (paired: every bid sees
    the same deals).

    Example:

    \b
        spades-sim hand "AS 7S 3S 9H 8H 4H 2H QD 6D 3D 8C 5C 2C" --score us=240,them=310
    """
    with user_errors():
        rules = resolve_rules(rules_name, rule_overrides)
        score = parse_side_values(score_text, "score", rules, seat) if score_text else None
        bags = parse_side_values(bags_text, "bags", rules, seat) if bags_text else None
        known = parse_bids(bids_text, rules.seat_count)
        constraints = [parse_suit_count(text) for text in constraint_texts]
        outputs = check_outputs(fmt, out, figure_path, svg, no_figure)
        strategies = table_strategies(rules, strategy_names, param_overrides)
        with progress(deals * deal_passes(rules), "deals", quiet) as advance:
            result = what_if(rules, cards, seat, strategies, score, bags, known, dealer,
                             hand_index, deals, seed, threads, constraints, on_block=advance)
        view, stopped = None, False
        if double_dummy and not result.interrupted:  # Ctrl-C is acted on: no solving after it
            try:
                view = what_if_double_dummy(result, threads)
            except KeyboardInterrupt:  # the table stands; the view is left out
                stopped = True
    names = " vs ".join(dict.fromkeys(s.name for s in strategies))
    title = (f"rules {rules_label(rules, rule_overrides)}, seat {seat} of dealer "
             f"{result.dealer}, score {'/'.join(map(str, result.score))}, bags "
             f"{'/'.join(map(str, result.bags))}, strategy {names}, seed {result.seed}: "
             f"{deals:,} deals")
    played = int(result.table["deals"].iloc[0])
    header = title + (f" (interrupted after {played:,})" if result.interrupted else "")
    meta = export.metadata(
        "hand", result.seed, [rules], strategies, cards=cards, seat=seat, dealer=result.dealer,
        score=list(result.score), bags=list(result.bags), hands_played=result.hand_index,
        bids={str(k): v for k, v in result.known_bids.items()}, deals=deals, played=played,
        interrupted=result.interrupted, best=result.best, choices=result.choices.to_dict(),
        refused=result.refused)
    text = f"{header}\n{what_if_text(result, POLICY_LABEL)}"
    extra = None
    if view is not None:
        text += "\n" + double_dummy_text(result, view)
        meta["double_dummy_mean"] = list(view.mean)
        extra = {"double_dummy": view.table}
    elif double_dummy:
        text += "\ndouble-dummy view: not solved (interrupted)"
        meta["double_dummy_interrupted"] = True
    deliver(outputs, text, result.table, meta, lambda path: plot_what_if(result, title, path),
            extra=extra)
    if result.interrupted or stopped:
        sys.exit(130)

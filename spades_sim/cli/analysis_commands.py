"""The analysis commands: strategies in duplicate (compare-strategies, tune), rule sets on
shared deals (compare-rules, bags), bidding and nil studies (bids, nil) and one hand's
best bid (hand)."""

from __future__ import annotations

import sys

import click

from ..agents import LoadedAgent, is_bot_spec, resolve_agent
from ..agents.table import check_duplicate
from ..analysis import export
from ..analysis.bids import bid_profiles, plot_bid_profiles
from ..analysis.compare import (
    TABLE_HANDS_PER_SECOND,
    Comparison,
    compare_agents,
    compare_strategies,
    plot_comparison,
    sprt_strategies,
)
from ..analysis.formatting import (
    comparison_text,
    economics_text,
    nil_text,
    rules_economics_text,
    side_by_side_text,
    sprt_text,
    tune_text,
    tune_title,
    what_if_text,
    win_share_text,
)
from ..analysis.hand_inputs import parse_bids, parse_side_values
from ..analysis.league import BOOTSTRAP, league_text, play_league, plot_league, prepare_league
from ..analysis.metrics import Payouts
from ..analysis.nil import (
    FEATURES,
    check_feature,
    nil_by_feature,
    nil_columns,
    plot_nil_by_feature,
)
from ..analysis.sprt import SprtResult, parse_sprt
from ..analysis.spsa import RATE
from ..analysis.tune import (
    DEFAULT_BUDGET,
    DEFAULT_CONFIRM,
    DEFAULT_GAMES,
    check_tuning,
    grid_settings,
    parse_param_range,
    plot_tuning,
    saved_strategy,
    tune,
)
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
    plot_what_if,
    what_if,
    what_if_double_dummy,
)
from ..kernel.strategies import (
    DEFAULT_STRATEGY,
    PARAM_FORM,
    STRATEGIES,
    Strategy,
    check_strategy_path,
    get_strategy,
    is_strategy_file,
    old_param_spelling,
    save_strategy,
    seat_strategies,
    strategy_label,
)
from ..outputs import shown
from ..rules import RuleSet
from ..run.deals import parse_suit_count
from ..run.simulate import resolve_seed, simulate_hands
from .aliases import new_spelling
from .errors import InputError, one_line, user_errors
from .options import (
    DECIMAL,
    WHOLE,
    PathType,
    economics_options,
    output_options,
    parse_economics,
    progress,
    resolve_rules,
    rule_options,
    rules_files,
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

TIME_LIMIT = ("With a bot: the seconds one decision may take; a bot over it stops the play. "
              "[default: none]")
"""The --time-limit help of the commands that seat bots."""


@click.command(name="compare-strategies")
@click.argument("strategy_a", metavar="A")
@click.argument("strategy_b", metavar="B")
@rule_options
@click.option("--games", type=WHOLE, default=2000, show_default=True,
              help="Deal sequences; each is played twice, seats swapped.")
@run_options(max_hands="counted as half a win")
@click.option("--param", "param_overrides", multiple=True, metavar=PARAM_FORM,
              help="Change a parameter of A (side 0) or B (side 1), e.g. --param 1.set_slack=0 "
                   "(repeatable; no SIDE: both).")
@click.option("--time-limit", type=DECIMAL, default=None, metavar="SECONDS",
              help=TIME_LIMIT)
@click.option("--sprt", "sprt_text_given", default=None, metavar="ELO0,ELO1",
              help="Stop when a sequential test on the pairs accepts H0 (A is ELO0 Elo stronger) "
                   "or H1 (ELO1); --games is then the most deal sequences played.")
@click.option("--alpha", type=DECIMAL, default=0.05, show_default=True,
              help="With --sprt: the chance of accepting H1 when H0 holds.")
@click.option("--beta", type=DECIMAL, default=0.05, show_default=True,
              help="With --sprt: the chance of accepting H0 when H1 holds.")
@output_options("compare.png")
@economics_options
def compare_strategies_command(strategy_a: str, strategy_b: str, rules_name: str | None,
                               rule_overrides: tuple[str, ...], games: int, seed: int | None,
                               param_overrides: tuple[str, ...], threads: int | None,
                               max_hands: int, time_limit: float | None,
                               sprt_text_given: str | None, alpha: float, beta: float, fmt: str,
                               out: str | None, figure_path: str | None, svg: bool,
                               no_figure: bool, buy_in: float | None, rake: str | None,
                               quiet: bool) -> None:
    """Compare two strategies in duplicate: every deal sequence played with the seats swapped.

    Prints each strategy's win share, points per hand, nil and bag figures, and the
    difference A − B with its paired 95% interval, then how much narrower the paired
    interval is than an unpaired one on the same games (or, when every pair came out the
    same, how the pairs came out).

    With --sprt ELO0,ELO1 the pairs are played in blocks of 50 until a sequential probability
    ratio test on the pair outcomes (won both, split, lost both) accepts H0 or H1, at most
    --games of them; the log-likelihood ratio, its bounds and the verdict are printed.

    A or B may be a bot of your own, path/to/bot.py:NAME or package.module:NAME (an agent,
    its class or a function making one; docs/agents.md). The comparison then runs on the
    Python table, through the referee, one decision at a time.

    Example:

    \b
        spades-sim compare-strategies conservative basic --games 4000 --seed 21
        spades-sim compare-strategies expert basic --buy-in 100 --rake 15%
        spades-sim compare-strategies expert basic --sprt 0,20 --games 20000 --seed 5
        spades-sim compare-strategies examples/high_low_bot.py:HighLowBot uniform --games 200
    """
    at_table = is_bot_spec(strategy_a) or is_bot_spec(strategy_b)
    with user_errors():
        rules = resolve_rules(rules_name, rule_overrides)
        if at_table and param_overrides:
            raise InputError(f"param={shown(param_overrides[0])!r}: allowed only when A and B are "
                             "both strategies of the kernel (a bot takes no --param)")
        if at_table and threads is not None:
            raise InputError(f"threads={threads}: allowed only when A and B are both strategies "
                             "of the kernel (the Python table plays on one core)")
        sprt, tested = None, SprtResult(parse_sprt("0,1"))
        if sprt_text_given is not None:
            sprt = parse_sprt(sprt_text_given, alpha, beta)
            if at_table:
                raise InputError(f"sprt={shown(sprt_text_given)!r}: allowed only when A and B are "
                                 "both strategies of the kernel")
        elif (alpha, beta) != (0.05, 0.05):
            raise InputError(f"alpha={alpha:g}, beta={beta:g}: allowed only with --sprt")
        if time_limit is not None and not at_table:
            raise InputError(f"time-limit={time_limit:g}: allowed only when A or B is a bot "
                             "(FILE.py:NAME or module:NAME)")
        outputs = check_outputs(fmt, out, figure_path, svg, no_figure,
                                reads={"rules": rules_files(rules_name)})
        money = parse_economics(buy_in, rake)
        if at_table:
            sides = resolve_agent(strategy_a), resolve_agent(strategy_b)
            check_duplicate(rules, games, max_hands, time_limit)
            seed = resolve_seed(seed)  # checked before the note is printed
            result = _compare_at_table(rules, sides, games, seed, max_hands, time_limit, quiet)
        else:
            pair = seat_strategies([strategy_a, strategy_b], 2, param_overrides, side_count=2)
            with progress(2 * games, "games", quiet) as advance:
                if sprt is None:
                    result = compare_strategies(rules, pair[0], pair[1], games, seed, threads,
                                                max_hands, on_block=advance)
                else:
                    result, tested = sprt_strategies(rules, pair[0], pair[1], sprt, games, seed,
                                                     threads, max_hands, on_block=advance)
    stopped = " (interrupted)" if result.interrupted and not result.fault else (
        " (stopped)" if result.fault else "")
    title = (f"rules {rules_label(rules, rule_overrides)}, {result.a.name} (A) vs "
             f"{result.b.name} (B), seed {result.seed}: {result.pairs:,} deal sequences x 2"
             + stopped)
    if not result.pairs:
        echo(title)
        _exit_stopped(result)
    text = [title, comparison_text(result.summary()), win_share_text(result)]
    extra = {}
    sprt_facts: dict[str, object] = {}
    if sprt is not None:
        text.append(sprt_text(tested, result))
        sprt_facts["sprt"] = tested.as_dict()
        extra["sprt"] = tested.frame()
    break_even = None
    if money is not None:
        extra["economics"] = result.economics(*money)
        text.append(economics_text(extra["economics"], Payouts(*money, rules.seat_count, 2)))
        break_even = float(extra["economics"]["break_even"].iloc[0])
    contenders = (result.a, result.b)
    bots = [side.name for side in contenders if not isinstance(side, Strategy)]
    meta = export.metadata(
        "compare-strategies", result.seed, [rules],
        [side for side in contenders if isinstance(side, Strategy)], pairs=result.pairs,
        **({"bots": bots} if bots else {}),
        interrupted=result.interrupted, win_share_paired_interval=list(result.paired_interval),
        win_share_unpaired_interval=list(result.unpaired_interval), **sprt_facts)
    deliver(outputs, "\n".join(text), result.summary(), meta,
            lambda path: plot_comparison(result, path, break_even), extra=extra)
    if result.interrupted or result.fault:
        _exit_stopped(result)


@click.command(name="league")
@click.argument("contenders", nargs=-1, required=True, metavar="STRATEGY...")
@rule_options
@click.option("--games", type=WHOLE, default=1000, show_default=True,
              help="Deal sequences per match, the same for every match; each is played twice, "
                   "seats swapped.")
@click.option("--anchor", default=None, metavar="NAME",
              help="The contender rated 0. [default: expert-v1 when it plays, else the first]")
@click.option("--bootstrap", type=WHOLE, default=BOOTSTRAP, show_default=True,
              help="Bootstrap replicates over the deal sequences, for the rating intervals.")
@run_options(max_hands="counted as half a win")
@click.option("--time-limit", type=DECIMAL, default=None, metavar="SECONDS",
              help=TIME_LIMIT)
@output_options("league.png", out="Write the per-match table (pairs by outcome, win share) to "
                "a .parquet, .csv or .json file, or - for CSV on stdout.")
def league_command(contenders: tuple[str, ...], rules_name: str | None,
                   rule_overrides: tuple[str, ...], games: int, anchor: str | None,
                   bootstrap: int, seed: int | None, threads: int | None, max_hands: int,
                   time_limit: float | None, fmt: str, out: str | None, figure_path: str | None,
                   svg: bool, no_figure: bool, quiet: bool) -> None:
    """A duplicate round robin: every pair of contenders on the same deal sequences.

    Contenders are strategy names, strategy files (NAME.toml) and bots (FILE.py:NAME or
    module:NAME, played at the Python table). Prints Bradley-Terry ratings on the Elo scale
    (the anchor at 0) with bootstrap 95% intervals over the deal sequences and the likelihood
    that each is stronger than the next one down, then every match: pairs won both, split and
    lost both, and the win share with its paired 95% interval. --format csv prints the rating
    table; --out writes the per-match one.

    Example:

    \b
        spades-sim league expert expert-v1 basic conservative --games 1000 --seed 3
        spades-sim league expert mine.toml examples/high_low_bot.py:HighLowBot --games 100
    """
    at_table = any(is_bot_spec(name) for name in contenders)
    with user_errors():
        rules = resolve_rules(rules_name, rule_overrides)
        if at_table and threads is not None:
            raise InputError(f"threads={threads}: allowed only when every contender is a "
                             "strategy of the kernel (the Python table plays on one core)")
        if time_limit is not None and not at_table:
            raise InputError(f"time-limit={time_limit:g}: allowed only when a contender is a bot "
                             "(FILE.py:NAME or module:NAME)")
        outputs = check_outputs(fmt, out, figure_path, svg, no_figure,
                                reads={"rules": rules_files(rules_name)})
        if at_table:
            check_duplicate(rules, games, max_hands, time_limit)
        players, _, _, _ = prepare_league(rules, contenders, games, anchor, bootstrap)
        seed = resolve_seed(seed)
        matches = len(players) * (len(players) - 1) // 2
        with progress(2 * games * matches, "games", quiet) as advance:
            league = play_league(rules, players, games, seed, anchor, bootstrap, threads,
                                 max_hands, time_limit, on_block=advance)
    title = (f"rules {rules_label(rules, rule_overrides)}, league of {len(league.names)}, seed "
             f"{league.seed}: {games:,} deal sequences x 2 a match, ratings anchored at "
             f"{league.anchor} = 0, {bootstrap:,} bootstrap replicates")
    if league.interrupted:
        echo(title + " (interrupted: no ratings)")
        sys.exit(130)
    pairs, ratings = league.pair_table(), league.rating_table()
    kernel = [c for c in league.contenders if isinstance(c, Strategy)]
    bots = [c.name for c in league.contenders if not isinstance(c, Strategy)]
    meta = export.metadata("league", league.seed, [rules], kernel,
                           **({"bots": bots} if bots else {}), pairs=games, anchor=league.anchor,
                           bootstrap=bootstrap)
    deliver(outputs, "\n".join([title, league_text(league)]), ratings, meta,
            lambda path: plot_league(league, path), data=pairs, extra={"pairs": pairs})


def _compare_at_table(rules: RuleSet, sides: tuple[LoadedAgent, LoadedAgent], games: int,
                      seed: int | None, max_hands: int, time_limit: float | None,
                      quiet: bool) -> Comparison:
    """compare-strategies with a bot: the duplicate comparison on the Python table."""
    status(f"note: a bot is in the game, so the comparison runs on the Python table, through "
           f"the referee: expect about {TABLE_HANDS_PER_SECOND} hands a second on a free core, "
           "fewer with a slow bot")
    with progress(2 * games, "games", quiet) as advance:
        return compare_agents(rules, *sides, games, seed, max_hands, time_limit,
                              on_game=lambda game: advance(1))


def _exit_stopped(result: Comparison) -> None:
    """End a comparison that stopped early: a bot's fault in one line (with the bot's own
    traceback under it when it raised), exit 2; Ctrl-C, exit 130."""
    if result.fault is not None:
        status(f"Error: {one_line(result.fault.message)} (the {result.pairs:,} deal sequences "
               "finished before it are compared above)" if result.pairs else
               f"Error: {one_line(result.fault.message)}")
        if result.fault.traceback:
            status(result.fault.traceback.rstrip())
        sys.exit(2)
    sys.exit(130)


@click.command(name="tune")
@click.argument("strategy_name", metavar="STRATEGY")
@click.option("--param", "param_ranges", multiple=True, required=True, metavar=PARAM_FORM,
              help="A parameter to tune within LO..HI, or the grid's values A,B,… (repeatable, "
                   "at most 10). STEP: the grid's spacing (grid); the search's scale, SPSA's "
                   "perturbation and CMA-ES's first spread (spsa, cma; default a tenth of HI - LO).")
@click.option("--method", default="grid", show_default=True, metavar="grid|spsa|cma",
              help="grid: every setting of the grid against --against on the same deals; spsa: "
                   "steps of θ+cΔ against θ−cΔ on fresh deals; cma: CMA-ES against --against "
                   "(the extra spades-sim[cma]).")
@click.option("--against", default=DEFAULT_STRATEGY, show_default=True, metavar="NAME",
              help="The opponent of the grid's settings and of CMA-ES's candidates.")
@rule_options
@click.option("--games", type=WHOLE, default=None,
              help="Deal sequences per setting (grid), step (spsa) or candidate (cma); each is "
                   "played twice, seats swapped. [default: grid 500, spsa and cma 100]")
@click.option("--budget", type=WHOLE, default=None, metavar="GAMES",
              help=f"Games the search may play (spsa, cma). [default: {DEFAULT_BUDGET:,}]")
@click.option("--rate", type=DECIMAL, default=None,
              help=f"SPSA's final learning rate r_end. [default: {RATE:g}]")
@click.option("--confirm", type=WHOLE, default=DEFAULT_CONFIRM, show_default=True,
              metavar="PAIRS",
              help="Fresh deal sequences (another seed's) on which the setting found plays the "
                   "starting one, each twice: the result.")
@click.option("--save", "save_path", type=PathType(dir_okay=False), default=None,
              metavar="FILE.toml",
              help="Write the setting found as a strategy file.")
@run_options(seed="Seed of the search's deals (the confirmation's seed is drawn from it).",
             max_hands="counted as half a win")
@output_options("tune.png")
def tune_command(strategy_name: str, param_ranges: tuple[str, ...], method: str, against: str,
                 rules_name: str | None, rule_overrides: tuple[str, ...], games: int | None,
                 budget: int | None, rate: float | None, confirm: int, save_path: str | None,
                 seed: int | None, threads: int | None, max_hands: int, fmt: str, out: str | None,
                 figure_path: str | None, svg: bool, no_figure: bool, quiet: bool) -> None:
    """Tune a strategy's parameters, then confirm the setting found on fresh deals.

    --method grid plays every setting of the grid against --against, all on the same deals,
    and prints each one's win share with its paired 95% interval, best first. --method spsa
    moves the setting step by step, each step a duplicate match of θ+cΔ against θ−cΔ on fresh
    deals (as fishtest tunes engines); --method cma is CMA-ES (pip install
    'spades-sim[cma]'). Every method ends with the confirmation: the setting found against the
    starting strategy on deal sequences the search never saw, with its paired 95% interval.
    Ctrl-C keeps the best setting found so far (printed, and saved with --save).

    Example:

    \b
        spades-sim tune basic --param bid_offset=-1..1:0.25 --against basic --games 1000
        spades-sim tune expert --method spsa --param nil_bonus=-100..0 --param
            blind_nil_margin=-0.2..0.5 --budget 20000 --save tuned.toml
    """
    with user_errors():
        rules = resolve_rules(rules_name, rule_overrides)
        ranges = [parse_param_range(new_spelling("tune", "--param", text,
                                                 old_param_spelling(text)))
                  for text in param_ranges]
        base = get_strategy(strategy_name)
        check_tuning(ranges, method, base, games, budget, rate, confirm)
        get_strategy(against)
        if save_path is not None:
            check_strategy_path(save_path)
        strategy_files = [name for name in (strategy_name, against) if is_strategy_file(name)]
        drawable = method != "grid" or len(ranges) <= 2
        outputs = check_outputs(fmt, out, figure_path, svg, no_figure or not drawable,
                                reads={"rules": rules_files(rules_name), "strategy": strategy_files},
                                writes={"save": save_path})
        grid = len(grid_settings(ranges)) * 2 * (games or DEFAULT_GAMES["grid"]) \
            if method == "grid" else 0
        lines = None if quiet or method == "grid" else status
        with progress(grid + 2 * confirm if grid else 0, "games", quiet or not grid) as advance:
            result = tune(rules, base, ranges, against, games, seed, threads, max_hands,
                          on_block=advance, method=method, budget=budget, confirm=confirm,
                          rate=rate, on_step=lines)
        if save_path is not None and result.setting:
            tuned, start = saved_strategy(result, strategy_label(save_path))
            save_strategy(tuned, start, save_path)
    title = tune_title(result, rules_label(rules, rule_overrides))
    text = "\n".join(filter(None, [title, tune_text(result)]))
    facts = result.confirmed()
    meta = export.metadata("tune", result.seed, [rules], [result.base, result.against],
                           method=method, games=result.games, played=result.played,
                           parameters=result.names, start=result.start, tuned=result.setting,
                           confirmation=facts, interrupted=result.interrupted)
    extra = {"parameters": result.parameters()}
    if result.confirmation is not None and result.confirmation.pairs:
        extra["confirmation"] = result.confirmation.summary()
    draw = (lambda path: plot_tuning(result, path)) if not result.table.empty else None
    deliver(outputs, text, result.table, meta, draw, extra=extra)
    if not drawable and not result.table.empty:
        status("no figure: one or two parameters of a grid can be drawn")
    if save_path is not None and result.setting:
        status(f"wrote {save_path}")
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
@output_options("nil.png")
def nil_command(rules_name: str | None, rule_overrides: tuple[str, ...], hands: int, seed: int | None,
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
    with user_errors():
        rules = resolve_rules(rules_name, rule_overrides)
        check_feature(feature)
        outputs = check_outputs(fmt, out, figure_path, svg, no_figure,
                                reads={"rules": rules_files(rules_name)})
        strategies = table_strategies(rules, strategy_names, param_overrides)
        with progress(hands, "hands", quiet) as advance:
            run = simulate_hands(rules, strategies, hands, seed=seed, threads=threads,
                                 keep_records=True, on_block=advance)
    title = run_title(rules, rule_overrides, run) + (" (interrupted)" if run.interrupted else "")
    if not run.done:
        echo(title)
        sys.exit(130)
    table = nil_by_feature(run.records(nil_columns(feature)), feature, blind, rules)
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
                          figure_path: str | None, svg: bool, no_figure: bool, buy_in: float | None,
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
        outputs = check_outputs(fmt, out, figure_path, svg, no_figure,
                                reads={"rules": rules_files(*rule_names)})
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
def bags_command(rules_name: str | None, rule_overrides: tuple[str, ...], bag_rules: tuple[str, ...],
                 games: int, seed: int | None, strategy_names: tuple[str, ...],
                 param_overrides: tuple[str, ...], threads: int | None, max_hands: int,
                 variants: tuple[str, ...], fmt: str, out: str | None, figure_path: str | None,
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
        outputs = check_outputs(fmt, out, figure_path, svg, no_figure,
                                reads={"rules": rules_files(rules_name)})
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
def bids_command(strategy_names: tuple[str, ...], against: str, rules_name: str | None,
                 rule_overrides: tuple[str, ...], hands: int, seed: int | None,
                 threads: int | None, fmt: str, out: str | None, figure_path: str | None, svg: bool,
                 no_figure: bool, quiet: bool) -> None:
    """Bid accuracy and bidding profiles of strategies (default: every named strategy).

    Each strategy bids on side 0 against --against on the same hands. Prints its
    bid, nil and blind-nil rates, contract make and set rates and how far its
    contracts miss the tricks taken; the figure (--figure) shows how often it bids
    what and the distribution of bid minus tricks.

    Example:

    \b
        spades-sim bids expert basic conservative --hands 200000 --seed 1
    """
    with user_errors():
        rules = resolve_rules(rules_name, rule_overrides)
        chosen = [get_strategy(name) for name in strategy_names or STRATEGIES]
        get_strategy(against)  # refused now rather than after the first strategy's run
        outputs = check_outputs(fmt, out, figure_path, svg, no_figure,
                                reads={"rules": rules_files(rules_name)})
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
@click.option("--seat", type=WHOLE, default=0, show_default=True, metavar="N",
              help="The seat holding CARDS.")
@rule_options
@click.option("--score", "score_text", default="", metavar="SIDE=N,…",
              help="The score before this hand, every side given: 0=240,1=310, or us=240,"
                   "them=310 from the seat's side. [default: 0-0]")
@click.option("--bags", "bags_text", default="", metavar="SIDE=N,…",
              help="Bags each side carries, every side given: 0=3,1=5, or us=3,them=5 from the "
                   "seat's side. [default: none]")
@click.option("--sets", "sets_text", default="", metavar="SIDE=N,…",
              help="Contracts each side has had set this game, under rules with sets_to_lose: "
                   "0=1,1=0, or us=1,them=0. [default: none]")
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
def hand_command(cards: str, seat: int, rules_name: str | None, rule_overrides: tuple[str, ...],
                 score_text: str, bags_text: str, sets_text: str, bids_text: str,
                 dealer: int | None, hand_index: int | None, constraint_texts: tuple[str, ...], deals: int,
                 seed: int | None, threads: int | None, strategy_names: tuple[str, ...],
                 param_overrides: tuple[str, ...], fmt: str, out: str | None, figure_path: str | None,
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
        sets = parse_side_values(sets_text, "sets", rules, seat) if sets_text else None
        known = parse_bids(bids_text, rules)
        constraints = [parse_suit_count(text) for text in constraint_texts]
        outputs = check_outputs(fmt, out, figure_path, svg, no_figure,
                                reads={"rules": rules_files(rules_name)})
        strategies = table_strategies(rules, strategy_names, param_overrides)
        with progress(deals * deal_passes(rules), "deals", quiet) as advance:
            result = what_if(rules, cards, seat, strategies, score, bags, known, dealer,
                             hand_index, deals, seed, threads, constraints, on_block=advance,
                             sets=sets)
        view, stopped = None, False
        if double_dummy and not result.interrupted:  # Ctrl-C is acted on: no solving after it
            try:
                view = what_if_double_dummy(result, threads)
            except KeyboardInterrupt:  # the table stands; the view is left out
                stopped = True
    names = " vs ".join(dict.fromkeys(s.name for s in strategies))
    title = (f"rules {rules_label(rules, rule_overrides)}, seat {seat} of dealer "
             f"{result.dealer}, score {'/'.join(map(str, result.score))}, bags "
             f"{'/'.join(map(str, result.bags))}"
             + (f", sets {'/'.join(map(str, result.sets))}" if rules.sets_to_lose else "")
             + f", strategy {names}, seed {result.seed}: "
             f"{deals:,} deals")
    played = int(result.table["deals"].iloc[0])
    header = title + (f" (interrupted after {played:,})" if result.interrupted else "")
    meta = export.metadata(
        "hand", result.seed, [rules], strategies, cards=cards, seat=seat, dealer=result.dealer,
        score=list(result.score), bags=list(result.bags), sets=list(result.sets),
        hands_played=result.hand_index,
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

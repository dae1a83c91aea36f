"""The ``spades-sim`` command line: thin commands over the library.

Each command parses its options, calls the library and prints. Bad input of any
kind ends in one ``Error: field=value: allowed …`` line and exit code 2.
"""

from __future__ import annotations

import dataclasses
import math
import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click
import pandas as pd

from .. import __version__
from .. import rules as _rules
from ..cards import CardError
from ..run.catalogue import side_label
from ..analysis import export
from ..analysis.formatting import (
    comparison_text,
    economics_text,
    rules_economics_text,
    nil_text,
    side_by_side_text,
    summary_text,
    tune_text,
    what_if_text,
    win_share_text,
)
from ..analysis import calibrate as _calibrate
from ..referee.audit import ANY, AuditError, audit_file, check_csv_path, seats_label
from ..kernel.calibration import CalibrationError, load_family
from ..analysis.bids import bid_profiles, plot_bid_profiles
from ..analysis.compare import compare_strategies, plot_comparison
from ..analysis.metrics import EconomicsError, Payouts, check_buy_in, economics, parse_rake
from ..analysis.tune import parse_param_range, plot_tuning, tune
from ..referee.handlog import LogError, rules_reference, write_log
from ..analysis.nil import FEATURES, FeatureError, check_feature, nil_by_feature, plot_nil_by_feature
from ..numbers import decimal_number, whole_number
from ..outputs import OutputError, check_file, check_folder, shown
from ..run.records import trace_logs
from ..run.deals import DealError, parse_suit_count
from ..referee import IllegalMove, score_file, scored_frame
from ..run.store import RunStore, StoreError, strategy_spec
from ..analysis.report import DEFAULT_STUDY, StudyError, check_out_dir, load_study, run_study
from ..run.simulate import (
    Run,
    RunError,
    check_log_range,
    resume,
    simulate_games,
    simulate_hands,
    trace_games,
    trace_hands,
)
from ..kernel.strategies import (
    DEFAULT_STRATEGY,
    STRATEGIES,
    StrategyError,
    get_strategy,
    seat_strategies,
)
from ..analysis.whatif import (
    POLICY_LABEL,
    WhatIfError,
    deal_passes,
    parse_bids,
    parse_side_values,
    plot_what_if,
    what_if,
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


class InputError(click.ClickException):
    """Bad user input: printed as one ``Error: …`` line, exit code 2 (as click's usage errors)."""

    exit_code = 2


_USER_ERRORS = (_rules.RulesError, StrategyError, RunError, OutputError, LogError, IllegalMove,
                CardError, FeatureError, EconomicsError, StudyError, DealError, WhatIfError,
                StoreError, AuditError, CalibrationError)


@contextmanager
def _user_errors() -> Iterator[None]:
    """Turn the library's input errors into one-line CLI errors."""
    try:
        yield
    except _USER_ERRORS as error:
        raise InputError(str(error)) from None


def _rule_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """``--rules NAME|FILE`` and repeatable ``--rule FIELD=VALUE``."""
    command = click.option("--rule", "rule_overrides", multiple=True, metavar="FIELD=VALUE",
                           help="Override one rule field, e.g. --rule nil_value=50 (repeatable).")(command)
    return click.option("--rules", "rules_name", default="standard", show_default=True,
                        metavar="NAME|FILE",
                        help="A preset (spades-sim rules list) or a rules file, given as "
                             "./NAME or NAME.toml.")(command)


def _resolve_rules(rules_name: str, rule_overrides: tuple[str, ...]) -> _rules.RuleSet:
    overrides = dict(_rules.parse_override(text) for text in rule_overrides)
    return _rules.resolve_rules(rules_name, overrides)


class _Number(click.ParamType):
    """An option's number, in ASCII digits only (see :mod:`spades_sim.numbers`); anything else
    ends in one ``field=value: allowed …`` line. Its range is checked where it is used."""

    def __init__(self, name: str, parse: Callable[[str], Any], allowed: str) -> None:
        self.name, self._parse, self._allowed = name, parse, allowed

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if not isinstance(value, str):
            return value  # a default
        try:
            return self._parse(value)
        except ValueError:
            field = param.opts[0].lstrip("-") if param is not None else "value"
            raise InputError(f"{field}={shown(value)!r}: allowed {self._allowed}") from None


WHOLE = _Number("integer", whole_number, "a whole number in digits 0-9")
DECIMAL = _Number("float", decimal_number, "a number in digits 0-9, e.g. 100 or 2.5")


def _parse_range(text: str, kind: str) -> range:
    """``A:B`` (A included, B excluded) or a single index ``A``."""
    start, sep, stop = text.partition(":")
    try:
        first = whole_number(start)
        last = whole_number(stop) if sep else first + 1
    except ValueError:
        raise InputError(f"log-deals={shown(text)!r}: allowed START:STOP, e.g. 0:100") from None
    deals = range(first, last)
    check_log_range(kind, deals)
    return deals


MESSAGE_MOST = 1000
"""The longest error line: a message that quotes too much keeps its start and its end."""


def _one_line(message: str) -> str:
    """An error message on one line of at most ``MESSAGE_MOST`` characters."""
    return shown(" ".join(message.splitlines()), MESSAGE_MOST)


class _OneLineErrors(click.Group):
    """A command group whose usage errors print one ``Error:`` line (no usage block), exit 2."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        kwargs["standalone_mode"] = False
        try:
            result = super().main(*args, **kwargs)
        except click.ClickException as error:
            click.echo(f"Error: {_one_line(error.format_message())}", err=True)
            sys.exit(error.exit_code)
        except (click.Abort, KeyboardInterrupt):
            # Ctrl-C before a run has started (or where a command keeps nothing): the shell's
            # code for an interrupt, as after an interrupted run.
            click.echo("interrupted", err=True)
            sys.exit(130)
        sys.exit(result if isinstance(result, int) else 0)


def _strategy_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """``--strategy`` and ``--param`` of the commands that seat strategies round the table."""
    command = click.option(
        "--param", "param_overrides", multiple=True, metavar="SIDE.NAME=VALUE",
        help="Change one parameter of one side's strategy (a seat's, without partners), "
             "e.g. --param 0.bid_offset=0.5 (repeatable; spades-sim strategies show expert).",
    )(command)
    return click.option(
        "--strategy", "strategy_names", multiple=True, metavar="NAME",
        help="Strategy for every seat; twice: the seats take turns (side 0, then side 1 "
             "in partnership); or once per seat. "
             f"One of: {', '.join(STRATEGIES)}. [default: {DEFAULT_STRATEGY}]",
    )(command)


def _table_strategies(rules: _rules.RuleSet, strategy_names: tuple[str, ...],
                      param_overrides: tuple[str, ...]) -> list:
    """One strategy per seat from ``--strategy`` names and ``--param`` overrides."""
    return seat_strategies(list(strategy_names) or [DEFAULT_STRATEGY], rules.seat_count,
                           param_overrides, rules.side_count)


def _svg_option(command: Callable[..., Any]) -> Callable[..., Any]:
    return click.option("--svg", is_flag=True,
                        help="Also write the figure as SVG, beside it under the same name.")(command)


def _figure_paths(path: str, svg: bool) -> list[str]:
    """The figure's path and, with --svg, the same name ending in .svg."""
    if svg and not path.lower().endswith(".svg"):
        return [path, path[: len(path) - len(Path(path).suffix)] + ".svg"]
    return [path]


def _echo(text: str, err: bool = False) -> None:
    """Print ``text``; a stdout closed early (``| head``) ends the printing quietly, not the
    command, so that the files it was asked for are still written."""
    try:
        click.echo(text, err=err)
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # nothing more reaches the closed pipe
        os.close(devnull)


def _status(text: str) -> None:
    """A status line ("wrote …", "note: …"): on stderr, so stdout holds only the results."""
    click.echo(text, err=True)


def _write_figure(draw: Callable[[str], Any], path: str, svg: bool) -> None:
    """Draw the figure to its path (and its SVG twin) and say so; a failed write (a full disk)
    ends in one line, after the results have been printed."""
    for target in _figure_paths(path, svg):
        with _user_errors():
            draw(target)
        _status(f"wrote {target}")


def _write_data(frame: pd.DataFrame, out: str, meta: dict[str, Any]) -> None:
    """Write the ``--out`` table (with its metadata) and say so (a failed write as in
    _write_figure)."""
    with _user_errors():
        export.write(frame, out, meta)
    if out != export.STDOUT:
        _status(f"wrote {out}")


@dataclasses.dataclass(frozen=True)
class _Outputs:
    """Where a command's results go: the table's ``--format``, the ``--out`` file and the
    figure (None: --no-figure, or a command without one) with its --svg twin."""

    fmt: str
    out: str | None
    figure: str | None = None
    svg: bool = False


def _outputs(fmt: str, out: str | None, figure: str | None = None, svg: bool = False,
             no_figure: bool = False) -> _Outputs:
    """Check every output before the run: the format, the --out path, the figure paths."""
    export.check_format(fmt)
    if out is not None:
        export.check_out(out)
        if out == export.STDOUT and fmt != "text":
            raise InputError(f"out='-': allowed with --format text only (--format {fmt} puts "
                             "the table on stdout already)")
    if no_figure:
        figure = None
    if figure is not None:
        _check_figure(figure, svg)
    return _Outputs(fmt, out, figure, svg)


def _deliver(outputs: _Outputs, text: str, table: pd.DataFrame, meta: dict[str, Any],
             draw: Callable[[str], Any] | None = None, data: pd.DataFrame | None = None,
             extra: dict[str, pd.DataFrame] | None = None) -> None:
    """The one output path of a command: the table on stdout as text (on stderr when --out -
    takes stdout) or as JSON or CSV, then the figure, then the --out file (``data``, default
    the table)."""
    if outputs.fmt == "text":
        _echo(text, err=outputs.out == export.STDOUT)
    else:
        _echo(export.as_text(table, outputs.fmt, meta, extra))
    if draw is not None and outputs.figure is not None:
        _write_figure(draw, outputs.figure, outputs.svg)
    if outputs.out is not None:
        _write_data(table if data is None else data, outputs.out, meta)


def _format_option(command: Callable[..., Any]) -> Callable[..., Any]:
    return click.option(
        "--format", "fmt", default="text", show_default=True, metavar="text|json|csv",
        help="How the table is printed: aligned text, or JSON (with the run's seed, rules, "
             "strategies and version) or CSV, every value, interval and count.")(command)


def _output_options(figure: str | None, named: bool = False,
                    out_help: str | None = "Write the table: .parquet, .csv or .json (with the "
                    "run's metadata in Parquet and JSON), or - for CSV on stdout."
                    ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``--format``, ``--out`` (unless ``out_help`` is None), and with a ``figure`` name
    ``--figure``, ``--svg`` and ``--no-figure``; ``named``: the command makes the figure's
    name from its arguments (``figure`` is the pattern the help shows)."""
    def decorate(command: Callable[..., Any]) -> Callable[..., Any]:
        if figure is not None:
            command = click.option("--no-figure", is_flag=True,
                                   help="Draw no figure.")(command)
            command = _svg_option(command)
            command = click.option(
                "--figure", "figure_path", type=click.Path(dir_okay=False),
                default=None if named else figure, show_default=not named,
                help="The figure (.png or .svg)." + (f" [default: {figure}]" if named else ""),
            )(command)
        if out_help is not None:
            command = click.option("--out", type=click.Path(dir_okay=False, allow_dash=True),
                                   default=None, help=out_help)(command)
        return _format_option(command)
    return decorate


def _economics_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """``--buy-in`` and ``--rake`` of the commands that report table economics."""
    command = click.option(
        "--rake", default=None, metavar="SHARE",
        help="The house's share of each buy-in, paid on entry and not in the prize pool: "
             "15% or 0.15. [default: 15%; needs --buy-in]")(command)
    return click.option(
        "--buy-in", "buy_in", type=DECIMAL, default=None, metavar="AMOUNT",
        help="Print the expected profit per game of a player of each side or strategy, and the "
             "break-even win rate, at this buy-in per player.")(command)


def _parse_economics(buy_in: float | None, rake: str | None) -> tuple[float, float] | None:
    """(buy-in, rake share) from the options, or None when no economics were asked for."""
    if buy_in is None:
        if rake is not None:
            raise InputError(f"rake={shown(rake)!r}: allowed only together with --buy-in")
        return None
    check_buy_in(buy_in)
    return buy_in, parse_rake(rake if rake is not None else "15%")


@click.group(cls=_OneLineErrors, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="spades-sim")
def cli() -> None:
    """spades-sim: Monte Carlo strategy analysis for the card game Spades.

    Deals and plays millions of hands with fixed policies and reports the
    outcomes with 95% confidence intervals.

    Example:

    \b
        spades-sim simulate --hands 100000 --seed 1
    """


@cli.command()
@_rule_options
@click.option("--hands", type=WHOLE, default=None,
              help="Play N independent hands.  [default: 100000]")
@click.option("--games", type=WHOLE, default=None, help="Play N games to the target instead.")
@click.option("--seed", type=WHOLE, default=None,
              help="Seed; the same seed gives the same results. [default: random, printed]")
@click.option("--threads", type=WHOLE, default=None, help="Threads. [default: all cores]")
@_strategy_options
@click.option("--max-hands", type=WHOLE, default=1000, show_default=True,
              help="Stop a game that has not ended after this many hands (counted unfinished).")
@click.option("--out", type=click.Path(dir_okay=False, allow_dash=True), default=None,
              help="Write the records (one row per seat-hand, or per game): .parquet, .csv or "
                   ".json (with the run's metadata in Parquet and JSON), or - for CSV on stdout.")
@click.option("--log", "log_path", type=click.Path(dir_okay=False), default=None,
              help="Write hand logs (JSONL) of the deals chosen by --log-deals.")
@click.option("--log-deals", default="0:10", show_default=True, metavar="START:STOP",
              help="Which hands (or games, with --games) --log writes.")
@_economics_options
@click.option("--save", "save_dir", type=click.Path(file_okay=False), default=None,
              metavar="DIR", help="Save the run block by block in DIR (a manifest and Parquet "
                                  "shards of totals), so that --resume DIR can finish it.")
@click.option("--resume", "resume_dir", type=click.Path(file_okay=False), default=None,
              metavar="DIR", help="Finish the run saved in DIR; run options given as well must "
                                  "match it.")
@click.option("--backend", default="local", show_default=True, metavar="local|dask",
              help="Where blocks run: local numba threads, or a Dask cluster (--scheduler).")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="The Dask scheduler for --backend dask, e.g. tcp://10.0.0.5:8786.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@_format_option
@click.pass_context
def simulate(ctx: click.Context, rules_name: str, rule_overrides: tuple[str, ...], hands: int | None,
             games: int | None, seed: int | None, threads: int | None,
             strategy_names: tuple[str, ...], param_overrides: tuple[str, ...], max_hands: int,
             out: str | None, log_path: str | None, log_deals: str, buy_in: float | None,
             rake: str | None, save_dir: str | None, resume_dir: str | None, backend: str,
             scheduler: str | None, quiet: bool, fmt: str) -> None:
    """Simulate hands or games and print a summary with 95% intervals.

    Example:

    \b
        spades-sim simulate --rules standard --games 2000 --seed 7 --strategy basic --strategy random
        spades-sim simulate --rules solo --games 2000 --buy-in 100 --rake 15%
        spades-sim simulate --hands 100000000 --save big-run     # Ctrl-C, then:
        spades-sim simulate --resume big-run
        spades-sim simulate --hands 100000000 --backend dask --scheduler tcp://10.0.0.5:8786
    """
    if hands is not None and games is not None:
        raise InputError("hands/games: allowed one of --hands N or --games N, not both")
    given = {name for name in ("log_deals", "max_hands")
             if ctx.get_parameter_source(name) != click.core.ParameterSource.DEFAULT}
    if "log_deals" in given and log_path is None:
        raise InputError(f"log-deals={shown(log_deals)!r}: allowed only together with --log FILE")
    if "max_hands" in given and games is None and resume_dir is None:
        raise InputError(f"max-hands={max_hands}: allowed only together with --games N")
    if buy_in is not None and games is None:
        raise InputError(f"buy-in={buy_in:g}: allowed only together with --games N")
    totals_only = [name for name, value in (("--out", out), ("--log", log_path),
                                            ("--buy-in", buy_in)) if value is not None]
    if (backend == "dask" or resume_dir is not None) and totals_only:
        what = (f"backend={shown(backend)!r}" if backend == "dask"
                else f"resume={shown(resume_dir)!r}")
        raise InputError(f"{what}: allowed without {', '.join(totals_only)} (such a run keeps "
                         "totals only)")
    if resume_dir is not None:
        if save_dir is not None:
            raise InputError(f"save={shown(save_dir)!r}: allowed without --resume (a resumed run "
                             "goes on saving in its own folder)")
        with _user_errors():
            outputs = _outputs(fmt, None)
            run = _resume(ctx, resume_dir, rules_name, rule_overrides, hands, games, seed,
                          threads, strategy_names, param_overrides, max_hands, backend,
                          scheduler, quiet)
        title = _run_title(run.rules, (), run) + f" (resumed from {resume_dir})" + _stopped(run)
        _deliver(outputs, f"{title}\n{summary_text(run.summary())}", run.summary(),
                 _run_metadata(run, resumed_from=resume_dir))
        _exit_if_not_saved(run)
        if run.interrupted:
            sys.exit(130)
        return
    with _user_errors():
        money = _parse_economics(buy_in, rake)
        rules = _resolve_rules(rules_name, rule_overrides)
        outputs = _outputs(fmt, out)
        if log_path is not None:
            for path in filter(None, (log_path, _log_rules_file(log_path, rules))):
                check_file(path, "log")
        kind = "games" if games is not None else "hands"
        deal_range = _parse_range(log_deals, kind) if log_path else None
        n = games if games is not None else (hands if hands is not None else 100_000)
        strategies = _table_strategies(rules, strategy_names, param_overrides)
        run_function = simulate_games if kind == "games" else simulate_hands
        extra = {"max_hands": max_hands} if kind == "games" else {}
        show_bar = not quiet and sys.stderr.isatty()
        with _progress(n, kind, show_bar) as advance:
            run = run_function(rules, strategies, n, seed=seed, threads=threads,
                               keep_records=out is not None or money is not None,
                               on_block=advance, save=save_dir, backend=backend,
                               scheduler=scheduler, **extra)
    text = [_run_title(rules, rule_overrides, run) + _stopped(run), summary_text(run.summary())]
    extra = {}
    if money is not None and run.done and not run.save_error:
        sides = rules.side_count
        labels = {side: side_label(side, sides, rules.seat_count, strategies[side].name)
                  for side in range(sides)}
        extra["economics"] = economics(run.records(), *money, rules.seat_count, labels)
        text.append(economics_text(extra["economics"], Payouts(*money, rules.seat_count, sides)))
    _deliver(outputs, "\n".join(text), run.summary(), _run_metadata(run), extra=extra,
             data=run.records() if out is not None and not run.save_error else None)
    _exit_if_not_saved(run)
    if log_path is not None and deal_range is not None:
        with _user_errors():
            rules_file = _write_logs(log_path, kind, rules, strategies, run.seed, deal_range,
                                     max_hands)
        _status(f"wrote {log_path}" + (f" (rules in {rules_file})" if rules_file else ""))
    if run.interrupted:
        sys.exit(130)


def _run_metadata(run: Run, command: str = "simulate", **facts: Any) -> dict[str, Any]:
    """The metadata of a run's table and records (:func:`spades_sim.analysis.export.metadata`)."""
    return export.metadata(command, run.seed, [run.rules], run.strategies, kind=run.kind,
                           requested=run.requested, done=run.done, interrupted=run.interrupted,
                           **facts)


def _stopped(run: Run) -> str:
    """The header's mark of a run that stopped early."""
    return " (interrupted)" if run.interrupted else (" (stopped)" if run.save_error else "")


def _exit_if_not_saved(run: Run) -> None:
    """After the summary of a saved run whose shard could not be written: one line, exit 2."""
    if run.save_error:
        click.echo(f"Error: {_one_line(run.save_error)}", err=True)
        sys.exit(2)


def _resume(ctx: click.Context, resume_dir: str, rules_name: str,
            rule_overrides: tuple[str, ...], hands: int | None, games: int | None,
            seed: int | None, threads: int | None, strategy_names: tuple[str, ...],
            param_overrides: tuple[str, ...], max_hands: int, backend: str,
            scheduler: str | None, quiet: bool):
    """Finish a saved run; the run options given on the command line must match its manifest."""
    store = RunStore(resume_dir)
    saved = store.manifest()
    explicit = {name for name in ("rules_name", "rule_overrides", "strategy_names",
                                  "param_overrides", "max_hands")
                if ctx.get_parameter_source(name) != click.core.ParameterSource.DEFAULT}
    changes: dict[str, Any] = {"version": __version__}  # another version may play differently
    rules = saved.rule_set()
    if explicit & {"rules_name", "rule_overrides"}:
        rules = _resolve_rules(rules_name, rule_overrides)
        changes["rules"] = rules.to_dict()
    if explicit & {"strategy_names", "param_overrides"}:
        changes["strategies"] = tuple(map(strategy_spec, _table_strategies(
            rules, strategy_names, param_overrides)))
    if hands is not None or games is not None:
        changes["kind"], changes["requested"] = ("hands", hands) if hands is not None else (
            "games", games)
    if seed is not None:
        changes["seed"] = seed
    if "max_hands" in explicit:
        changes["max_hands"] = max_hands
    requested = dataclasses.replace(saved, **changes)
    store.check(requested)
    scan = store.scan(saved)
    for line in scan.damaged:
        click.echo(f"note: {line}", err=True)
    already = sum(count for _, count, _ in scan.blocks)
    show_bar = not quiet and sys.stderr.isatty()
    with _progress(saved.requested, saved.kind, show_bar) as advance:
        advance(already)
        return resume(resume_dir, threads, advance, backend, scheduler, requested)


def _log_rules_file(path: str, rules: _rules.RuleSet) -> str | None:
    """The rules file a hand log needs beside it, if any.

    A log names its rules. When they are not exactly a shipped preset (a file, or
    ``--rule`` overrides), they are saved as ``<log>.rules.toml`` and the log names
    that file (by its name, from the log's folder), so that ``spades-sim score``
    replays it under the same rules from any folder.
    """
    if rules.name not in _rules.preset_names() or _rules.load_preset(rules.name) != rules:
        return f"{path}.rules.toml"
    return None


def _write_logs(path: str, kind: str, rules: _rules.RuleSet, strategies: list, seed: int,
                deal_range: range, max_hands: int) -> str | None:
    """Write the hand logs; returns the rules file written beside them (_log_rules_file)."""
    rules_file = _log_rules_file(path, rules)
    rules_ref = rules.name
    if rules_file is not None:
        _rules.save_rules(rules, rules_file, "log")
        rules_ref = rules_reference(rules_file, path)
    if kind == "games":
        game_records, records, trace, packed = trace_games(rules, strategies, deal_range, seed,
                                                           max_hands)
        logs = trace_logs(rules_ref, records, trace, packed, games=game_records)
    else:
        records, trace, packed = trace_hands(rules, strategies, deal_range, seed)
        logs = trace_logs(rules_ref, records, trace, packed)
    write_log(path, logs)
    return rules_file


@contextmanager
def _progress(total: int, unit: str, show: bool) -> Iterator[Callable[[int], None]]:
    """A progress bar with the rate and ETA on a terminal; a no-op otherwise.

    Commands never branch on quiet mode: they always get an ``advance(count)`` callable.
    """
    if not show:
        yield lambda _count: None
        return
    start = time.perf_counter()
    with click.progressbar(length=total, label=unit, show_eta=True, show_percent=True,
                           file=sys.stderr) as bar:

        def advance(count: int) -> None:
            rate = (bar.pos + count) / max(time.perf_counter() - start, 1e-9)
            bar.label = f"{unit} {rate:>11,.0f}/s"
            bar.update(count)

        yield advance


@cli.command()
@click.argument("log_file", type=click.Path(dir_okay=False))
@click.option("--rules", "rules_name", default=None, metavar="NAME|FILE",
              help="Score with these rules instead of each line's own.")
@click.option("--rule", "rule_overrides", multiple=True, metavar="FIELD=VALUE",
              help="Override one rule field (repeatable; needs --rules).")
@_output_options(None)
def score(log_file: str, rules_name: str | None, rule_overrides: tuple[str, ...], fmt: str,
          out: str | None) -> None:
    """Validate and score a hand log (JSONL) with the referee; print each hand's result.

    Any log will do: one written by ``simulate --log``, by hand or by another
    program (the format is in docs/hand-log.md).

    Example:

    \b
        spades-sim score hands.jsonl
    """
    with _user_errors():
        rules = _resolve_rules(rules_name, rule_overrides) if rules_name else None
        if rule_overrides and rules is None:
            raise InputError("rule: allowed only together with --rules")
        outputs = _outputs(fmt, out)
        scored = score_file(log_file, rules)
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
    meta = export.metadata("score", None, [rules] if rules else [], [], log=log_file,
                           hands=len(scored))
    _deliver(outputs, "\n".join(lines), scored_frame(scored), meta)


@cli.command(name="audit")
@click.argument("log_file", type=click.Path(dir_okay=False))
@click.option("--rules", "rules_name", default=None, metavar="NAME|FILE",
              help="Replay with these rules instead of each line's own.")
@click.option("--rule", "rule_overrides", multiple=True, metavar="FIELD=VALUE",
              help="Override one rule field (repeatable; needs --rules).")
@click.option("--seat", "seats", type=WHOLE, multiple=True, metavar="N",
              help="Audit only this seat's plays (repeatable). [default: every seat]")
@click.option("--list", "list_count", type=WHOLE, default=20, show_default=True, metavar="N",
              help="How many instances to list; 0 for none.")
@click.option("--out", type=click.Path(dir_okay=False), default=None, metavar="FILE.csv",
              help="Write every instance as CSV.")
@_format_option
def audit_command(log_file: str, rules_name: str | None, rule_overrides: tuple[str, ...],
                  seats: tuple[int, ...], list_count: int, out: str | None, fmt: str) -> None:
    """Audit the card play of a hand log (JSONL) for five technique errors.

    Replays every hand with the referee, as score does, and at every card play
    checks what the seat knew for third-hand-low, ruff-partner-winner,
    wasted-trump, nil-took-duckable and nil-not-covered (defined in
    docs/analysis.md). Prints per pattern the hands with at least one instance,
    their share of the hands audited with its 95% interval and the instances,
    then the first --list instances with a card that would have been sound.

    Example:

    \b
        spades-sim simulate --hands 5000 --seed 1 --log hands.jsonl --log-deals 0:5000
        spades-sim audit hands.jsonl --list 10 --out instances.csv
    """
    with _user_errors():
        if list_count < 0:
            raise InputError(f"list={list_count}: allowed a whole number 0 or more")
        rules = _resolve_rules(rules_name, rule_overrides) if rules_name else None
        if rule_overrides and rules is None:
            raise InputError("rule: allowed only together with --rules")
        if out is not None:
            check_csv_path(out)
        outputs = _outputs(fmt, None)
        result = audit_file(log_file, rules, seats or None)
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
    shown = result.instances[:list_count]
    if shown:
        lines.append(f"first {len(shown):,} of {len(result.instances):,} instances:")
        lines.append(f"{'line':>6} {'game':>5} {'hand':>4} {'trick':>5} {'seat':>4}  "
                     f"{'pattern':<20} {'played':>6} {'sound':>5}  trick so far")
        for instance in shown:
            row = instance.row()
            lines.append(f"{row['line']:>6} {row['game'] if row['game'] != '' else '-':>5} "
                         f"{row['hand'] if row['hand'] != '' else '-':>4} {row['trick']:>5} "
                         f"{row['seat']:>4}  {row['pattern']:<20} {row['played']:>6} "
                         f"{row['sound'] or '-':>5}  {row['trick_so_far']}")
    meta = export.metadata("audit", None, [rules] if rules else [], [], log=log_file,
                           hands=result.hands_audited, seats=list(result.seats))
    _deliver(outputs, "\n".join(lines), result.table(), meta,
             extra={"instances": result.instance_table().head(list_count)})
    if out is not None:
        with _user_errors():  # after the results are printed: a full disk does not hide them
            result.write_csv(out)
        _status(f"wrote {out}")


@cli.command()
@click.argument("families", nargs=-1, metavar="FAMILY...")
@click.option("--all", "every_family", is_flag=True, help="Every family the presets use.")
@click.option("--out-dir", type=click.Path(file_okay=False), required=True, metavar="DIR",
              help="Existing folder for FAMILY.npz and tables.toml (data/calibration for the "
                   "shipped tables).")
@click.option("--seed", type=WHOLE, default=1, show_default=True, help="Seed of round 0.")
@click.option("--rounds", type=WHOLE, default=_calibrate.ROUNDS, show_default=True,
              help="Rounds of self-play (each bids from the tables of the one before).")
@click.option("--hands", type=WHOLE, default=_calibrate.Sizes.hands, show_default=True,
              help="Hands per round measuring the tricks.")
@click.option("--nil-hands", type=WHOLE, default=_calibrate.Sizes.nil_hands, show_default=True,
              help="Hands per round exploring nils.")
@click.option("--blind-hands", type=WHOLE, default=_calibrate.Sizes.blind_hands,
              show_default=True, help="Hands per round and cards passed exploring blind nils.")
@click.option("--games", type=WHOLE, default=_calibrate.Sizes.games, show_default=True,
              help="Self-play games fitting the race table's spread (two-sided tables).")
@click.option("--from-shipped", is_flag=True,
              help="Start from the shipped tables instead of a bootstrap round.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
def calibrate(families: tuple[str, ...], every_family: bool, out_dir: str, seed: int, rounds: int,
              hands: int, nil_hands: int, blind_hands: int, games: int, from_shipped: bool,
              quiet: bool) -> None:
    """Build the expert bidder's calibration tables by self-play.

    A family is a table mode and a deck (partnership-standard, solo-standard,
    ...): the tables hold the trick and nil chances the expert bids from. Each
    family's file and the command that made it (in tables.toml) go to
    --out-dir. docs/strategies.md explains the rounds.

    Example:

    \b
        spades-sim calibrate partnership-standard --out-dir my-tables --hands 200000
    """
    with _user_errors():
        names = list(_calibrate.FAMILY_PRESETS) if every_family else list(families)
        if not names:
            raise InputError("family: allowed one or more of "
                             + ", ".join(_calibrate.FAMILY_PRESETS) + " (or --all)")
        for name in names:
            if name not in _calibrate.FAMILY_PRESETS:
                raise InputError(f"family={shown(name)!r}: allowed "
                                 + ", ".join(_calibrate.FAMILY_PRESETS))
        check_folder(out_dir, "out-dir")
        for label, value, low in (("rounds", rounds, 1), ("hands", hands, 10_000),
                                  ("nil-hands", nil_hands, 10_000),
                                  ("blind-hands", blind_hands, 1_000), ("games", games, 0)):
            if not low <= value <= 10**9:
                raise InputError(f"{label}={value}: allowed a whole number {low:,} to 10^9")
        sizes = _calibrate.Sizes(hands, nil_hands, blind_hands, games)
        for name in names:
            start = load_family(name) if from_shipped else None
            total = rounds * _calibrate.round_hands(name, sizes)
            with _progress(total, f"{name} hands", not quiet) as advance:
                arrays = _calibrate.calibrate_family(name, rounds, sizes, seed, advance,
                                                     start=start)
            made_by = {"command": "spades-sim calibrate " + " ".join(
                [name, "--out-dir", out_dir, "--seed", str(seed), "--rounds", str(rounds),
                 "--hands", str(hands), "--nil-hands", str(nil_hands), "--blind-hands",
                 str(blind_hands), "--games", str(games)]
                + (["--from-shipped"] if from_shipped else [])),
                "seed": seed, "rounds": rounds, "hands": hands, "nil_hands": nil_hands,
                "blind_hands": blind_hands, "games": games, "from_shipped": from_shipped,
                "version": __version__}
            path = _calibrate.write_tables(out_dir, name, arrays, made_by)
            _status(f"wrote {path}")


@cli.group()
def rules() -> None:
    """List, show and check rule sets (presets and TOML files).

    Example:

    \b
        spades-sim rules show standard > my-table.toml
    """


@rules.command(name="list")
@_format_option
def rules_list(fmt: str) -> None:
    """List the shipped presets.

    Example:

    \b
        spades-sim rules list
    """
    with _user_errors():
        outputs = _outputs(fmt, None)
    presets = [_rules.load_preset(name) for name in _rules.preset_names()]
    table = pd.DataFrame({"name": [r.name for r in presets],
                          "description": [r.description for r in presets]})
    _deliver(outputs, "\n".join(f"{r.name:<24} {r.description}" for r in presets), table,
             export.metadata("rules list", None, presets, []))


@rules.command(name="show")
@click.argument("name", metavar="NAME|FILE")
def rules_show(name: str) -> None:
    """Print a preset or rules file as complete TOML.

    Example:

    \b
        spades-sim rules show standard
    """
    with _user_errors():
        click.echo(_rules.dumps(_rules.resolve_rules(name)), nl=False)


@rules.command(name="validate")
@click.argument("path", type=click.Path(dir_okay=False))
def rules_validate(path: str) -> None:
    """Check a rules TOML file; print its name if it is valid.

    Example:

    \b
        spades-sim rules validate my-table.toml
    """
    with _user_errors():
        rule_set = _rules.load_rules(path)
    click.echo(f"{path}: valid ({rule_set.name})")


@cli.group()
def strategies() -> None:
    """List the named strategies and show their parameters.

    Example:

    \b
        spades-sim strategies show basic
    """


@strategies.command(name="list")
@_format_option
def strategies_list(fmt: str) -> None:
    """List the named strategies.

    Example:

    \b
        spades-sim strategies list
    """
    with _user_errors():
        outputs = _outputs(fmt, None)
    table = pd.DataFrame({"name": list(STRATEGIES),
                          "description": [s.description for s in STRATEGIES.values()]})
    _deliver(outputs, "\n".join(f"{name:<14} {s.description}" for name, s in STRATEGIES.items()),
             table, export.metadata("strategies list", None, [], list(STRATEGIES.values())))


@strategies.command(name="show")
@click.argument("name")
@_format_option
def strategies_show(name: str, fmt: str) -> None:
    """Print a strategy's policies and the parameters they read: value, default, range, meaning.

    Example:

    \b
        spades-sim strategies show conservative
    """
    with _user_errors():
        outputs = _outputs(fmt, None)
        strategy = get_strategy(name)
    specs = strategy.params_read()
    table = pd.DataFrame({
        "parameter": [spec.name for spec in specs],
        "value": [strategy.param(spec.name) for spec in specs],
        "default": [spec.default for spec in specs],
        "low": [spec.low for spec in specs], "high": [spec.high for spec in specs],
        "set_by_strategy": [spec.name in strategy.params for spec in specs],
        "meaning": [spec.meaning for spec in specs]})
    lines = [f"{strategy.name}: {strategy.description}",
             f"bidding policy {strategy.bidding}, card-play policy {strategy.play}",
             f"{'parameter':<20} {'value':>8} {'default':>8}  {'range':<15} meaning"
             "  (* = set by this strategy)"]
    for row in table.itertuples(index=False):
        mark = "*" if row.set_by_strategy else " "
        lines.append(f"{row.parameter:<20} {row.value:>8g}{mark}{row.default:>8g}  "
                     f"{f'{row.low:g} to {row.high:g}':<15} {row.meaning}")
    _deliver(outputs, "\n".join(lines), table,
             export.metadata("strategies show", None, [], [strategy]))


def _game_run_options(unfinished: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``--threads`` and ``--max-hands`` of the commands that play games on shared deals;
    ``unfinished`` says how they count a game stopped at the cap."""
    def decorate(command: Callable[..., Any]) -> Callable[..., Any]:
        command = click.option(
            "--max-hands", type=WHOLE, default=1000, show_default=True,
            help=f"Stop a game that has not ended after this many hands ({unfinished}).",
        )(command)
        return click.option("--threads", type=WHOLE, default=None,
                            help="Threads. [default: all cores]")(command)
    return decorate


_duplicate_run_options = _game_run_options("counted as half a win")
_shared_deal_run_options = _game_run_options("counted as unfinished")


@cli.command(name="compare-strategies")
@click.argument("strategy_a", metavar="A")
@click.argument("strategy_b", metavar="B")
@_rule_options
@click.option("--games", type=WHOLE, default=2000, show_default=True,
              help="Deal sequences; each is played twice, seats swapped.")
@click.option("--seed", type=WHOLE, default=None,
              help="Seed; the same seed gives the same results. [default: random, printed]")
@click.option("--param", "param_overrides", multiple=True, metavar="SIDE.NAME=VALUE",
              help="Change a parameter of A (side 0) or B (side 1), e.g. --param 1.set_slack=0 "
                   "(repeatable).")
@_duplicate_run_options
@_output_options("compare-A-vs-B.png", named=True)
@_economics_options
@click.option("--quiet", is_flag=True, help="No progress bar.")
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
    with _user_errors():
        rules = _resolve_rules(rules_name, rule_overrides)
        outputs = _outputs(fmt, out, figure_path, svg, no_figure)
        money = _parse_economics(buy_in, rake)
        pair = seat_strategies([strategy_a, strategy_b], 2, param_overrides, side_count=2)
        show_bar = not quiet and sys.stderr.isatty()
        with _progress(2 * games, "games", show_bar) as advance:
            result = compare_strategies(rules, pair[0], pair[1], games, seed, threads,
                                        max_hands, on_block=advance)
    title = (f"rules {_rules_label(rules, rule_overrides)}, {result.a.name} (A) vs "
             f"{result.b.name} (B), seed {result.seed}: {result.pairs:,} deal sequences x 2"
             + (" (interrupted)" if result.interrupted else ""))
    if not result.pairs:
        _echo(title)
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
    _deliver(outputs, "\n".join(text), result.summary(), meta,
             lambda path: plot_comparison(result, path, break_even), extra=extra)
    if result.interrupted:
        sys.exit(130)


@cli.command(name="tune")
@click.argument("strategy_name", metavar="STRATEGY")
@click.option("--param", "param_ranges", multiple=True, required=True, metavar="NAME=LO:HI:STEP",
              help="A parameter to search, HI included (repeatable: a grid over all of them).")
@click.option("--against", default=DEFAULT_STRATEGY, show_default=True, metavar="NAME",
              help="The opponent every setting plays in duplicate.")
@_rule_options
@click.option("--games", type=WHOLE, default=500, show_default=True,
              help="Deal sequences per setting; each is played twice, seats swapped.")
@click.option("--seed", type=WHOLE, default=None,
              help="Seed, shared by every setting. [default: random, printed]")
@_duplicate_run_options
@_output_options("tune-STRATEGY.png", named=True)
@click.option("--quiet", is_flag=True, help="No progress bar.")
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
    with _user_errors():
        rules = _resolve_rules(rules_name, rule_overrides)
        ranges = [parse_param_range(text) for text in param_ranges]
        outputs = _outputs(fmt, out, figure_path, svg, no_figure or len(ranges) > 2)
        settings = math.prod(len(values) for _, values in ranges)
        show_bar = not quiet and sys.stderr.isatty()
        with _progress(2 * games * settings, "games", show_bar) as advance:
            result = tune(rules, strategy_name, ranges, against, games, seed, threads, max_hands,
                          on_block=advance)
    title = (f"rules {_rules_label(rules, rule_overrides)}, {result.base.name} against "
             f"{result.against.name}, seed {result.seed}: {len(result.table)} settings x "
             f"{games:,} deal sequences x 2" + (" (interrupted)" if result.interrupted else ""))
    text = "\n".join(filter(None, [title, tune_text(result)]))
    meta = export.metadata("tune", result.seed, [rules], [result.base, result.against],
                           games=games, parameters=result.names, interrupted=result.interrupted)
    draw = (lambda path: plot_tuning(result, path)) if not result.table.empty else None
    _deliver(outputs, text, result.table, meta, draw)
    if len(result.names) > 2 and not result.table.empty:
        _status("no figure: one or two parameters can be drawn")
    if result.interrupted:
        sys.exit(130)


@cli.command(name="nil")
@_rule_options
@click.option("--hands", type=WHOLE, default=200_000, show_default=True,
              help="Hands to play, each from 0-0.")
@click.option("--seed", type=WHOLE, default=None,
              help="Seed; the same seed gives the same results. [default: random, printed]")
@click.option("--threads", type=WHOLE, default=None, help="Threads. [default: all cores]")
@_strategy_options
@click.option("--by", "feature", default="spades", show_default=True,
              help="The hand feature: " + ", ".join(FEATURES) + ".")
@click.option("--blind", is_flag=True,
              help="Blind nils instead of nils. From 0-0 they need rules and a strategy that "
                   "allow them, e.g. --rule blind_nil=anytime --param 0.blind_nil_deficit=0 "
                   "--param 0.blind_nil_near=10000.")
@_output_options("nil-by-FEATURE.png", named=True)
@click.option("--quiet", is_flag=True, help="No progress bar.")
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
    with _user_errors():
        rules = _resolve_rules(rules_name, rule_overrides)
        check_feature(feature)
        outputs = _outputs(fmt, out, figure_path, svg, no_figure)
        strategies = _table_strategies(rules, strategy_names, param_overrides)
        show_bar = not quiet and sys.stderr.isatty()
        with _progress(hands, "hands", show_bar) as advance:
            run = simulate_hands(rules, strategies, hands, seed=seed, threads=threads,
                                 keep_records=True, on_block=advance)
    title = _run_title(rules, rule_overrides, run) + (" (interrupted)" if run.interrupted else "")
    if not run.done:
        _echo(title)
        sys.exit(130)
    table = nil_by_feature(run.records(), feature, blind)
    _deliver(outputs, f"{title}\n{nil_text(table, feature, blind)}", table,
             _run_metadata(run, "nil", feature=feature, blind=blind),
             lambda path: plot_nil_by_feature(table, feature, title, path, blind, rules))
    if run.interrupted:
        sys.exit(130)


def _check_figure(path: str, svg: bool) -> None:
    """Refuse a figure path (or, with --svg, its SVG twin) before a run: not .png or .svg, or
    one that cannot be written."""
    if not path.lower().endswith((".png", ".svg")):
        raise OutputError(f"figure={shown(path)!r}: allowed a file ending in .png or .svg")
    for target in _figure_paths(path, svg):
        check_file(target, "figure")


def _rules_label(rules: _rules.RuleSet, rule_overrides: tuple[str, ...]) -> str:
    """How a title names the rules: the rule set's name, then each --rule override."""
    return rules.name + "".join(f" {text}" for text in rule_overrides)


def _run_title(rules: _rules.RuleSet, rule_overrides: tuple[str, ...], run) -> str:
    """The first line of a run's output: rules, strategies, seed and what was played."""
    names = " vs ".join(dict.fromkeys(s.name for s in run.strategies))
    return (f"rules {_rules_label(rules, rule_overrides)}, strategy {names}, seed {run.seed}: "
            f"{run.done:,} {run.kind}")


def _play_rule_sets(rule_sets: list, labels: list[str] | None, strategy_names: tuple[str, ...],
                    param_overrides: tuple[str, ...], games: int, seed: int | None,
                    threads: int | None, max_hands: int, quiet: bool):
    """Play the same games under each rule set (compare-rules and bags)."""
    strategies = _table_strategies(rule_sets[0], strategy_names, param_overrides)
    show_bar = not quiet and sys.stderr.isatty()
    with _progress(games * len(rule_sets), "games", show_bar) as advance:
        return compare_rules(rule_sets, strategies, games, seed, threads, max_hands, labels,
                             on_block=advance), strategies


def _variant_option(command: Callable[..., Any]) -> Callable[..., Any]:
    return click.option(
        "--variant", "variants", multiple=True, metavar="LABEL:FIELD=VALUE,…",
        help="Add a rule set: the first one with these fields changed, e.g. "
             "--variant 'nil 50:nil_value=50' (repeatable).")(command)


def _print_rules_comparison(command: str, result, strategies: list, what: str,
                            metrics: tuple, outputs: _Outputs,
                            money: tuple[float, float] | None) -> None:
    names = " vs ".join(dict.fromkeys(s.name for s in strategies))
    count = len(result.labels)
    title = (f"{what}, strategy {names}, seed {result.seed}: {result.games:,} games under "
             + (f"each of {count} rule sets" if count > 1 else "1 rule set"))
    header = title + (" (interrupted)" if result.interrupted else "")
    if not result.games:
        _echo(header)
        sys.exit(130)
    meta = export.metadata(command, result.seed, result.rules, strategies, labels=result.labels,
                           games=result.games, interrupted=result.interrupted)
    text, extra = [header, side_by_side_text(result.table)], {}
    break_even = None
    if money is not None:
        seats, sides = result.rules[0].seat_count, result.rules[0].side_count
        labels = {side: side_label(side, sides, seats, strategies[side].name)
                  for side in range(sides)}
        extra["economics"] = result.economics(*money, labels)
        text.append(rules_economics_text(extra["economics"], Payouts(*money, seats, sides)))
        # The figure's win rate is side 0's: its break-even under the first rule set.
        break_even = float(extra["economics"]["break_even"].iloc[0])
    _deliver(outputs, "\n".join(text), result.table, meta,
             lambda path: plot_metric_panels(result.table, metrics, title, path,
                                             break_even=break_even), extra=extra)
    if result.interrupted:
        sys.exit(130)


@cli.command(name="compare-rules")
@click.argument("rule_names", nargs=-1, required=True, metavar="PRESET|FILE...")
@click.option("--rule", "rule_overrides", multiple=True, metavar="[NAME:]FIELD=VALUE",
              help="Change a rule field of the rule set NAME, or of every rule set, e.g. "
                   "--rule classic:target=300 (repeatable).")
@_variant_option
@click.option("--games", type=WHOLE, default=2000, show_default=True,
              help="Games under each rule set (the same deal sequences).")
@click.option("--seed", type=WHOLE, default=None,
              help="Seed, shared by every rule set. [default: random, printed]")
@_strategy_options
@_shared_deal_run_options
@_output_options("compare-rules.png")
@_economics_options
@click.option("--quiet", is_flag=True, help="No progress bar.")
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
    with _user_errors():
        repeated = next((name for i, name in enumerate(rule_names) if name in rule_names[:i]), None)
        if repeated is not None:
            raise InputError(f"rules={shown(repeated)!r}: allowed each rule set once (given twice)")
        rule_sets, labels = rule_sets_of(rule_names, rule_overrides, variants)
        outputs = _outputs(fmt, out, figure_path, svg, no_figure)
        money = _parse_economics(buy_in, rake)
        result, strategies = _play_rule_sets(rule_sets, labels, strategy_names, param_overrides,
                                             games, seed, threads, max_hands, quiet)
    _print_rules_comparison("compare-rules", result, strategies,
                            "rules " + ", ".join(result.labels), RULES_FIGURE_METRICS, outputs,
                            money)


@cli.command(name="bags")
@_rule_options
@click.option("--bag-rule", "bag_rules", multiple=True, metavar="LIMIT:PENALTY",
              help="A bag rule: lose PENALTY points every LIMIT bags, e.g. 5:50; 10:0 for none "
                   f"(repeatable). [default: {' '.join(BAG_RULES)}]")
@click.option("--games", type=WHOLE, default=2000, show_default=True,
              help="Games under each bag rule (the same deal sequences).")
@click.option("--seed", type=WHOLE, default=None,
              help="Seed, shared by every bag rule. [default: random, printed]")
@_strategy_options
@_shared_deal_run_options
@_variant_option
@_output_options("bags.png")
@click.option("--quiet", is_flag=True, help="No progress bar.")
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
    with _user_errors():
        base = _resolve_rules(rules_name, rule_overrides)
        rule_sets, labels = bag_variants(base, bag_rules or BAG_RULES)
        extra, extra_labels = variant_rule_sets(base, variants)
        rule_sets, labels = rule_sets + extra, labels + extra_labels
        outputs = _outputs(fmt, out, figure_path, svg, no_figure)
        result, strategies = _play_rule_sets(rule_sets, labels, strategy_names, param_overrides,
                                             games, seed, threads, max_hands, quiet)
    _print_rules_comparison("bags", result, strategies,
                            f"rules {_rules_label(base, rule_overrides)} by bag rule",
                            BAGS_FIGURE_METRICS, outputs, None)


@cli.command(name="bids")
@click.argument("strategy_names", nargs=-1, metavar="[STRATEGY]...")
@click.option("--against", default=DEFAULT_STRATEGY, show_default=True, metavar="NAME",
              help="The opponent on side 1 while each strategy bids on side 0.")
@_rule_options
@click.option("--hands", type=WHOLE, default=100_000, show_default=True,
              help="Hands per strategy, each from 0-0 (the same deals for every strategy).")
@click.option("--seed", type=WHOLE, default=None,
              help="Seed, shared by every strategy. [default: random, printed]")
@click.option("--threads", type=WHOLE, default=None, help="Threads. [default: all cores]")
@_output_options("bids.png")
@click.option("--quiet", is_flag=True, help="No progress bar.")
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
    with _user_errors():
        rules = _resolve_rules(rules_name, rule_overrides)
        chosen = [get_strategy(name) for name in strategy_names or STRATEGIES]
        get_strategy(against)  # refused now rather than after the first strategy's run
        outputs = _outputs(fmt, out, figure_path, svg, no_figure)
        show_bar = not quiet and sys.stderr.isatty()
        with _progress(hands * len(chosen), "hands", show_bar) as advance:
            result = bid_profiles(rules, chosen, against, hands, seed, threads, on_block=advance)
    title = (f"rules {_rules_label(rules, rule_overrides)}, bids on side 0 against "
             f"{result.against.name}, seed {result.seed}: {hands:,} hands per strategy")
    header = title + (" (interrupted)" if result.interrupted else "")
    if result.metrics.empty:
        _echo(header)
        sys.exit(130)
    meta = export.metadata("bids", result.seed, [rules], [*chosen, result.against], hands=hands,
                           interrupted=result.interrupted)
    _deliver(outputs, f"{header}\n{side_by_side_text(result.metrics, group='strategy')}",
             result.data(), meta, lambda path: plot_bid_profiles(result, title, path))
    if result.interrupted:
        sys.exit(130)


@cli.command(name="report")
@click.option("--config", "config_path", type=click.Path(dir_okay=False), default=None,
              metavar="STUDY.TOML", help="The study to run. [default: the default study]")
@click.option("--out-dir", default="reports", show_default=True, type=click.Path(file_okay=False),
              help="The report is written to OUT_DIR/<study name>/index.html.")
@click.option("--threads", type=WHOLE, default=None, help="Threads. [default: all cores]")
@_variant_option
def report_command(config_path: str | None, out_dir: str, threads: int | None,
                   variants: tuple[str, ...]) -> None:
    """Run a study and write it up as an HTML report with its figures and data.

    With no --config, the default study: standard rules against the main variants,
    the bag rules, and the named strategies against each other in duplicate (about
    20 seconds on 2 cores once compiled). The report reads offline: open
    index.html in a browser.

    Example:

    \b
        spades-sim report
        spades-sim report --config my-study.toml --out-dir /tmp
    """
    with _user_errors():
        study = load_study(config_path) if config_path else DEFAULT_STUDY
        if variants:  # checked with the study's other fields
            study = dataclasses.replace(study, variants=study.variants + variants)
        check_out_dir(out_dir, study.name)
        _status(f"study {study.name!r}, seed {study.seed}")
        report = run_study(study, out_dir, threads,
                           on_progress=lambda name: _status(f"  {name} ..."))
    _status(f"wrote {report.index} ({len(report.files)} files)"
            + (" (interrupted)" if report.interrupted else ""))
    if report.interrupted:
        sys.exit(130)


@cli.command(name="hand")
@click.argument("cards", metavar="CARDS")
@click.option("--seat", type=WHOLE, default=0, show_default=True, help="The seat holding CARDS.")
@_rule_options
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
@click.option("--seed", type=WHOLE, default=None,
              help="Seed; the same seed gives the same results. [default: random, printed]")
@click.option("--threads", type=WHOLE, default=None, help="Threads. [default: all cores]")
@_strategy_options
@_output_options("hand.png")
@click.option("--quiet", is_flag=True, help="No progress bar.")
def hand_command(cards: str, seat: int, rules_name: str, rule_overrides: tuple[str, ...],
                 score_text: str, bags_text: str, bids_text: str, dealer: int | None,
                 hand_index: int | None, constraint_texts: tuple[str, ...], deals: int,
                 seed: int | None, threads: int | None, strategy_names: tuple[str, ...],
                 param_overrides: tuple[str, ...], fmt: str, out: str | None, figure_path: str,
                 svg: bool, no_figure: bool, quiet: bool) -> None:
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
    with _user_errors():
        rules = _resolve_rules(rules_name, rule_overrides)
        score = parse_side_values(score_text, "score", rules, seat) if score_text else None
        bags = parse_side_values(bags_text, "bags", rules, seat) if bags_text else None
        known = parse_bids(bids_text, rules.seat_count)
        constraints = [parse_suit_count(text) for text in constraint_texts]
        outputs = _outputs(fmt, out, figure_path, svg, no_figure)
        strategies = _table_strategies(rules, strategy_names, param_overrides)
        show_bar = not quiet and sys.stderr.isatty()
        with _progress(deals * deal_passes(rules), "deals", show_bar) as advance:
            result = what_if(rules, cards, seat, strategies, score, bags, known, dealer,
                             hand_index, deals, seed, threads, constraints, on_block=advance)
    names = " vs ".join(dict.fromkeys(s.name for s in strategies))
    title = (f"rules {_rules_label(rules, rule_overrides)}, seat {seat} of dealer "
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
    _deliver(outputs, f"{header}\n{what_if_text(result, POLICY_LABEL)}", result.table, meta,
             lambda path: plot_what_if(result, title, path))
    if result.interrupted:
        sys.exit(130)

"""The options the commands share, each declared once, and the progress bar.

An option bundle is a function that returns a decorator applying a list of
``click.option`` decorators (as sqlite-utils' ``output_options``); a command that
words an option differently passes the difference as an argument, so that every
command keeps its own help text and default. The parsers beside each bundle turn
its values into the library's (rule sets, strategies, economics).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import click

from .. import rules as _rules
from ..analysis.metrics import check_buy_in, parse_rake
from ..kernel.strategies import (
    DEFAULT_STRATEGY,
    PARAM_FORM,
    STRATEGIES,
    seat_strategies,
)
from ..numbers import decimal_number, whole_number
from ..outputs import shown
from ..run.simulate import check_log_range
from .errors import InputError

Decorator = Callable[[Callable[..., Any]], Callable[..., Any]]


def _field(param: click.Parameter | None, default: str) -> str:
    """The field a message names: an option by its long name, an argument by its own."""
    if param is None:
        return default
    if isinstance(param, click.Option):
        return param.opts[0].lstrip("-")
    return str(param.name).removesuffix("_file")


class Number(click.ParamType):
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
            raise InputError(f"{_field(param, 'value')}={shown(value)!r}: allowed "
                             f"{self._allowed}") from None


WHOLE = Number("integer", whole_number, "a whole number in digits 0-9")
DECIMAL = Number("float", decimal_number, "a number in digits 0-9, e.g. 100 or 2.5")


class PathType(click.Path):
    """A path option or argument: a NUL, which no file name can hold, or a byte that is not
    UTF-8 ends in one ``field=value: allowed …`` line before click looks the path up (where
    it raised)."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str):
            if "\x00" in value:
                raise InputError(f"{_field(param, 'path')}={shown(value)!r}: allowed a path "
                                 "without NUL characters")
            try:  # a byte that is not UTF-8 arrives as a lone surrogate, which no message prints
                value.encode("utf-8")
            except UnicodeEncodeError:
                shown_value = shown(value.encode("utf-8", "replace").decode())
                raise InputError(f"{_field(param, 'path')}={shown_value!r}: allowed a path in "
                                 "UTF-8") from None
        return super().convert(value, param, ctx)


def _bundle(options: Sequence[Callable[[Any], Any]]) -> Decorator:
    """One decorator applying ``options``; they show in ``--help`` in the order listed."""
    def decorate(command: Callable[..., Any]) -> Callable[..., Any]:
        for option in reversed(options):
            command = option(command)
        return command
    return decorate


SEED_REPEATS = "Seed; the same seed gives the same results."
"""The --seed help of a command that plays one run (or one set of deals)."""


QUIET = "No progress on stderr (bar or lines)."
"""The --quiet help, the same in every command."""


def run_options(*, seed: str | None = SEED_REPEATS, seed_default: int | None = None,
                seed_unset: str = "random, printed", threads: bool = True,
                max_hands: str | None = None, quiet: bool = True) -> Decorator:
    """The run options: ``--seed``, ``--threads``, ``--max-hands`` and ``--quiet``.

    ``seed`` is the help of --seed (None: no --seed); with no ``seed_default`` the seed may
    be omitted, and ``seed_unset`` says what is played then (a random seed, drawn and
    printed). ``max_hands`` says how a game stopped at the cap is counted (None: no
    --max-hands). ``threads`` and ``quiet``: whether the command takes --threads and --quiet.
    """
    options = []
    if seed is not None:
        unset = seed_default is None
        options.append(click.option(
            "--seed", type=WHOLE, default=seed_default, show_default=None if unset else True,
            help=f"{seed} [default: {seed_unset}]" if unset else seed))
    if threads:
        options.append(click.option("--threads", type=WHOLE, default=None,
                                    help="Threads. [default: all cores]"))
    if max_hands is not None:
        options.append(click.option(
            "--max-hands", type=WHOLE, default=1000, show_default=True,
            help=f"Stop a game that has not ended after this many hands ({max_hands})."))
    if quiet:
        options.append(click.option("--quiet", is_flag=True, help=QUIET))
    return _bundle(options)


TABLE_OUT = ("Write the table: .parquet, .csv or .json (with the run's metadata in Parquet and "
             "JSON), or - for CSV on stdout.")
"""The --out help of a command whose file is its table."""


def output_options(figure: str | None = None, *, out: str | None = TABLE_OUT) -> Decorator:
    """The output options: ``--format``, ``--out`` (the command's table, in every command that
    has it) and, with a ``figure``, ``--figure``, ``--svg`` and ``--no-figure``.

    ``out`` is the help of --out (None: no --out). ``figure`` is an example file name the help
    of --figure shows: a figure is drawn only where --figure says, so that no command writes
    into the working folder unless told to.
    """
    options = [click.option(
        "--format", "fmt", default="text", show_default=True, metavar="text|json|csv",
        help="How the table is printed: aligned text, or JSON (with the run's seed, rules, "
             "strategies and version) or CSV, every value, interval and count.")]
    if out is not None:
        options.append(click.option(
            "--out", type=PathType(dir_okay=False, allow_dash=True), default=None, help=out))
    if figure is not None:
        options += [
            click.option("--figure", "figure_path", type=PathType(dir_okay=False),
                         default=None, metavar="PATH",
                         help=f"Draw the figure to this file (.png or .svg), e.g. {figure}. "
                              "[default: no figure]"),
            click.option("--svg", is_flag=True,
                         help="Also write the figure as SVG, beside --figure under the same "
                              "name."),
            click.option("--no-figure", is_flag=True,
                         help="Draw no figure, even with --figure (the default without it)."),
        ]
    return _bundle(options)


@contextmanager
def progress(total: int, unit: str, quiet: bool, *,
             terminal_only: bool = True) -> Iterator[Callable[[int], None]]:
    """A progress bar on stderr with the rate and ETA; a no-op with ``quiet`` (--quiet) or,
    when ``terminal_only``, when stderr is not a terminal.

    Commands never branch on quiet mode: they always get an ``advance(count)`` callable.
    """
    if quiet or (terminal_only and not sys.stderr.isatty()):
        yield lambda _count: None
        return
    first: list[tuple[float, int]] = []  # the rate is counted from the first update, so that a
    # kernel compiling before it (the first run) does not make the run look slow
    with click.progressbar(length=total, label=unit, show_eta=True, show_percent=True,
                           file=sys.stderr) as bar:

        def advance(count: int) -> None:
            now = time.perf_counter()
            if first:
                start, done = first[0]
                rate = (bar.pos + count - done) / max(now - start, 1e-9)
                bar.label = f"{unit} {rate:>11,.0f}/s"
            else:
                first.append((now, bar.pos + count))
            bar.update(count)

        yield advance


def compile_notice(text: str) -> None:
    """A kernel compile's notice (``drivers.set_compile_notice``) on stderr, on a line of its
    own: a progress bar drawn before it is drawn again below on its next update."""
    click.echo(f"\r\033[K{text}", err=True, color=True)  # kept even when stderr is no terminal


def rule_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """``--rules NAME|FILE`` and repeatable ``--rule FIELD=VALUE``."""
    return _bundle([
        # No default value: the default is the preset (RULES_DEFAULT) whatever files the
        # working folder holds, as the user named none (resolve_rules).
        click.option("--rules", "rules_name", default=None, metavar="NAME|FILE",
                     help="A preset (spades-sim rules list) or a rules file, given as "
                          f"./NAME or NAME.toml.  [default: {RULES_DEFAULT}]"),
        click.option("--rule", "rule_overrides", multiple=True, metavar="FIELD=VALUE",
                     help="Override one rule field, e.g. --rule nil_value=50 (repeatable)."),
    ])(command)


def log_rule_options(verb: str) -> Decorator:
    """``--rules`` and ``--rule`` of the commands that read a hand log: the rules ``verb``
    (score, replay) the log with instead of each line's own."""
    return _bundle([
        click.option("--rules", "rules_name", default=None, metavar="NAME|FILE",
                     help=f"{verb} with these rules instead of each line's own."),
        click.option("--rule", "rule_overrides", multiple=True, metavar="FIELD=VALUE",
                     help="Override one rule field (repeatable; needs --rules)."),
    ])


RULES_DEFAULT = "standard"
"""The preset of a command whose --rules is not given."""


def resolve_rules(rules_name: str | None, rule_overrides: tuple[str, ...]) -> _rules.RuleSet:
    """The rule set of ``--rules`` with its ``--rule`` overrides. Without --rules, the preset
    :data:`RULES_DEFAULT`, even beside a file of that name: the user typed no word that
    could mean the file."""
    overrides = _rules.overrides_of(rule_overrides)
    if rules_name is None:
        return _rules.resolve_rules(RULES_DEFAULT, overrides, typed=False)
    return _rules.resolve_rules(rules_name, overrides)


def rules_files(*names: str | None) -> list[str]:
    """The rules values among ``names`` that name files (not presets): a command's inputs."""
    return [name for name in names if name is not None and _rules.is_rules_path(name)]


def log_rules(rules_name: str | None, rule_overrides: tuple[str, ...]) -> _rules.RuleSet | None:
    """The rules of a log command's ``--rules`` and ``--rule`` (None: each line's own)."""
    rules = resolve_rules(rules_name, rule_overrides) if rules_name else None
    if rule_overrides and rules is None:
        raise InputError("rule: allowed only together with --rules")
    return rules


def strategy_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """``--strategy`` and ``--param`` of the commands that seat strategies round the table."""
    return _bundle([
        click.option(
            "--strategy", "strategy_names", multiple=True, metavar="NAME",
            help="Strategy for every seat; twice: the seats take turns (side 0, then side 1 "
                 "in partnership); or once per seat. "
                 f"One of: {', '.join(STRATEGIES)}. [default: {DEFAULT_STRATEGY}]"),
        click.option(
            "--param", "param_overrides", multiple=True, metavar=PARAM_FORM,
            help="Change one parameter of one side's strategy (a seat's, without partners; no "
                 "SIDE: every side's), e.g. --param 0.bid_offset=0.5 (repeatable; spades-sim "
                 "strategies show expert)."),
    ])(command)


def table_strategies(rules: _rules.RuleSet, strategy_names: tuple[str, ...],
                     param_overrides: tuple[str, ...]) -> list:
    """One strategy per seat from ``--strategy`` names and ``--param`` overrides."""
    return seat_strategies(list(strategy_names) or [DEFAULT_STRATEGY], rules.seat_count,
                           param_overrides, rules.side_count)


def economics_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """``--buy-in`` and ``--rake`` of the commands that report table economics."""
    return _bundle([
        click.option(
            "--buy-in", "buy_in", type=DECIMAL, default=None, metavar="AMOUNT",
            help="Print the expected profit per game of a player of each side or strategy, "
                 "and the break-even win rate, at this buy-in per player."),
        click.option(
            "--rake", default=None, metavar="SHARE",
            help="The house's share of each buy-in, paid on entry and not in the prize pool: "
                 "15% or 0.15. [default: 15%; needs --buy-in]"),
    ])(command)


def parse_economics(buy_in: float | None, rake: str | None) -> tuple[float, float] | None:
    """(buy-in, rake share) from the options, or None when no economics were asked for."""
    if buy_in is None:
        if rake is not None:
            raise InputError(f"rake={shown(rake)!r}: allowed only together with --buy-in")
        return None
    check_buy_in(buy_in)
    return buy_in, parse_rake(rake if rake is not None else "15%")


def variant_option(command: Callable[..., Any]) -> Callable[..., Any]:
    """``--variant``: a rule set added to a comparison, the first one with some fields changed."""
    return click.option(
        "--variant", "variants", multiple=True, metavar="LABEL:FIELD=VALUE,…",
        help="Add a rule set: the first one with these fields changed, e.g. "
             "--variant 'nil 50:nil_value=50' (repeatable).")(command)


def parse_log_range(text: str, kind: str, played: int, given: bool = True) -> range:
    """``--log-deals``: ``A:B`` (A included, B excluded) or a single index ``A``, inside the run
    of ``played`` hands (or games). The default range (not ``given``) is cut to the run."""
    start, sep, stop = text.partition(":")
    try:
        first = whole_number(start)
        last = whole_number(stop) if sep else first + 1
    except ValueError:
        raise InputError(f"log-deals={shown(text)!r}: allowed START:STOP, e.g. 0:100") from None
    deals = range(first, last if given else min(last, played))
    check_log_range(kind, deals, played)
    return deals

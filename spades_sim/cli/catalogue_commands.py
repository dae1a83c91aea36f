"""The catalogue commands: ``rules`` (list, show and check rule sets) and ``strategies``
(list the named strategies and show their parameters)."""

from __future__ import annotations

import click
import pandas as pd

from .. import rules as _rules
from ..analysis import export
from ..kernel.strategies import STRATEGIES, get_strategy
from .errors import user_errors
from .options import output_options
from .output import check_outputs, deliver


@click.group()
def rules() -> None:
    """List, show and check rule sets (presets and TOML files).

    Example:

    \b
        spades-sim rules show standard > my-table.toml
    """


@rules.command(name="list")
@output_options(out=None)
def rules_list(fmt: str) -> None:
    """List the shipped presets.

    Example:

    \b
        spades-sim rules list
    """
    with user_errors():
        outputs = check_outputs(fmt, None)
    presets = [_rules.load_preset(name) for name in _rules.preset_names()]
    table = pd.DataFrame({"name": [r.name for r in presets],
                          "description": [r.description for r in presets]})
    deliver(outputs, "\n".join(f"{r.name:<24} {r.description}" for r in presets), table,
             export.metadata("rules list", None, presets, []))


@rules.command(name="show")
@click.argument("name", metavar="NAME|FILE")
def rules_show(name: str) -> None:
    """Print a preset or rules file as complete TOML.

    Example:

    \b
        spades-sim rules show standard
    """
    with user_errors():
        click.echo(_rules.dumps(_rules.resolve_rules(name)), nl=False)


@rules.command(name="validate")
@click.argument("path", type=click.Path(dir_okay=False))
def rules_validate(path: str) -> None:
    """Check a rules TOML file; print its name if it is valid.

    Example:

    \b
        spades-sim rules validate my-table.toml
    """
    with user_errors():
        rule_set = _rules.load_rules(path)
    click.echo(f"{path}: valid ({rule_set.name})")


@click.group()
def strategies() -> None:
    """List the named strategies and show their parameters.

    Example:

    \b
        spades-sim strategies show basic
    """


@strategies.command(name="list")
@output_options(out=None)
def strategies_list(fmt: str) -> None:
    """List the named strategies.

    Example:

    \b
        spades-sim strategies list
    """
    with user_errors():
        outputs = check_outputs(fmt, None)
    table = pd.DataFrame({"name": list(STRATEGIES),
                          "description": [s.description for s in STRATEGIES.values()]})
    deliver(outputs, "\n".join(f"{name:<14} {s.description}" for name, s in STRATEGIES.items()),
             table, export.metadata("strategies list", None, [], list(STRATEGIES.values())))


@strategies.command(name="show")
@click.argument("name")
@output_options(out=None)
def strategies_show(name: str, fmt: str) -> None:
    """Print a strategy's policies and the parameters they read: value, default, range, meaning.

    Example:

    \b
        spades-sim strategies show conservative
    """
    with user_errors():
        outputs = check_outputs(fmt, None)
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
    deliver(outputs, "\n".join(lines), table,
             export.metadata("strategies show", None, [], [strategy]))


"""The catalogue commands: ``rules`` (list, show and check rule sets) and ``strategies``
(list the named strategies and show their parameters)."""

from __future__ import annotations

import click

from .. import rules as _rules
from ..analysis import export
from ..analysis.formatting import params_text
from ..analysis.listings import params_table, presets_table, strategies_table
from ..kernel.strategies import STRATEGIES, get_strategy
from .errors import user_errors
from .options import PathType, output_options
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
    deliver(outputs, "\n".join(f"{r.name:<24} {r.description}" for r in presets),
            presets_table(presets),
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
@click.argument("path", type=PathType(dir_okay=False))
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
    deliver(outputs, "\n".join(f"{name:<14} {s.description}" for name, s in STRATEGIES.items()),
            strategies_table(STRATEGIES),
            export.metadata("strategies list", None, [], list(STRATEGIES.values())))


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
    table = params_table(strategy)
    deliver(outputs, params_text(strategy, table), table,
            export.metadata("strategies show", None, [], [strategy]))


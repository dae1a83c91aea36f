"""The ``spades-sim`` command line: thin commands over the library.

Each command parses its options, calls the library and prints. Bad input of any
kind ends in one ``Error: field=value: allowed …`` line and exit code 2
(:mod:`.errors`). The shared options are in :mod:`.options`, the output path in
:mod:`.output`, and the commands in a module each by what they do.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from .. import __version__
from ..kernel.drivers import set_compile_notice
from .aliases import flush
from .analysis_commands import (
    bags_command,
    bids_command,
    compare_rules_command,
    compare_strategies_command,
    hand_command,
    league_command,
    nil_command,
    tune_command,
)
from .cache_commands import cache_command
from .catalogue_commands import rules, strategies
from .dd_commands import dd_command, review_command
from .errors import MESSAGE_MOST, OneLineErrors
from .log_commands import audit_command, score
from .options import compile_notice
from .run_commands import calibrate, report_command, simulate

__all__ = ["MESSAGE_MOST", "cli"]


class Commands(OneLineErrors):
    """The ``spades-sim`` group: one ``Error:`` line for bad input; a command that ran (to its
    end, or to an exit of its own) then prints the notices of the old spellings it was given
    (:mod:`.aliases`), which a refused command line does not."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            result = super().invoke(ctx)
        except SystemExit:
            flush(ctx)
            raise
        flush(ctx)
        return result


@click.group(cls=Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="spades-sim")
def cli() -> None:
    """spades-sim: Monte Carlo strategy analysis for the card game Spades.

    Deals and plays millions of hands with fixed policies and reports the
    outcomes with 95% confidence intervals.

    Example:

    \b
        spades-sim simulate --hands 100000 --seed 1
    """
    # a terminal is told when the kernel compiles (the first run), instead of a bar at 0%
    set_compile_notice(compile_notice if sys.stderr.isatty() else None)


for _command in (simulate, score, audit_command, calibrate, rules, strategies,
                 compare_strategies_command, tune_command, nil_command, compare_rules_command,
                 bags_command, bids_command, report_command, hand_command, dd_command,
                 review_command, league_command, cache_command):
    cli.add_command(_command)

"""How the command line fails: one ``Error: field=value: allowed …`` line and exit code 2.

The library raises its own error for each kind of bad input; :func:`user_errors` turns
them into :class:`InputError`, and :class:`OneLineErrors`, the group's class, prints any
click error as one line of at most :data:`MESSAGE_MOST` characters.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import click

from .. import rules as _rules
from ..agents import AgentError
from ..analysis.double_dummy import DoubleDummyError
from ..analysis.hand_inputs import HandInputError
from ..analysis.metrics import EconomicsError
from ..analysis.nil import FeatureError
from ..analysis.report import StudyError
from ..analysis.review import ReviewError
from ..analysis.whatif import WhatIfError
from ..cards import CardError
from ..kernel.calibration import CalibrationError
from ..kernel.double_dummy import PositionError
from ..kernel.strategies import StrategyError
from ..outputs import OutputError, shown
from ..referee import IllegalMove
from ..referee.audit import AuditError
from ..referee.handlog import LogError
from ..run.deals import DealError
from ..run.simulate import RunError
from ..run.store import StoreError


class InputError(click.ClickException):
    """Bad user input: printed as one ``Error: …`` line, exit code 2 (as click's usage errors)."""

    exit_code = 2


USER_ERRORS = (_rules.RulesError, StrategyError, RunError, OutputError, LogError, IllegalMove,
               CardError, FeatureError, EconomicsError, StudyError, DealError, WhatIfError,
               StoreError, AuditError, CalibrationError, DoubleDummyError, ReviewError,
               PositionError, AgentError, HandInputError)
"""The library's errors of bad input: each one's message is the line the user sees."""


@contextmanager
def user_errors() -> Iterator[None]:
    """Turn the library's input errors into one-line CLI errors."""
    try:
        yield
    except USER_ERRORS as error:
        raise InputError(str(error)) from None


MESSAGE_MOST = 1000
"""The longest error line: a message that quotes too much keeps its start and its end."""


def one_line(message: str) -> str:
    """An error message on one line of at most ``MESSAGE_MOST`` characters."""
    return shown(" ".join(message.splitlines()), MESSAGE_MOST)


class OneLineErrors(click.Group):
    """A command group whose usage errors print one ``Error:`` line (no usage block), exit 2."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        kwargs["standalone_mode"] = False
        try:
            result = super().main(*args, **kwargs)
        except click.ClickException as error:
            click.echo(f"Error: {one_line(error.format_message())}", err=True)
            sys.exit(error.exit_code)
        except (click.Abort, KeyboardInterrupt):
            # Ctrl-C before a run has started (or where a command keeps nothing): the shell's
            # code for an interrupt, as after an interrupted run.
            click.echo("interrupted", err=True)
            sys.exit(130)
        sys.exit(result if isinstance(result, int) else 0)

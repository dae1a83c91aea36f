"""Old spellings, kept for one release: every one declared once here, and each use answered
by one notice line on stderr that says the new form.

Two kinds: an option renamed (:data:`OLD_OPTIONS`, declared on its command by
:func:`old_option`, hidden from ``--help``) and a value written in a form the option took
before (:data:`OLD_VALUES`; the library says what the new spelling of such a value is, and
:func:`new_spelling` prints the notice and hands the new spelling on).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import click

from ..outputs import shown
from .errors import InputError

UNTIL = "0.2"
"""The release that drops the old spellings."""


@dataclass(frozen=True)
class OldOption:
    """An option's old name on one command, and the name it has now."""

    command: str
    old: str
    new: str
    dest: str
    """The new option's parameter name, which the old one's value is passed on as."""
    multiple: bool = False


OLD_OPTIONS: tuple[OldOption, ...] = (
    OldOption("dd", "--hands", "--cards", "seat_cards", multiple=True),
    OldOption("simulate", "--out", "--records", "records"),
    OldOption("audit", "--out", "--instances", "instances"),
)
"""Every renamed option: ``--hands`` is a count in every command, ``--out`` the command's
table, so dd's cards, simulate's records and audit's instances were given names of their own."""

OLD_VALUES: dict[tuple[str, str], tuple[str, str]] = {
    ("tune", "--param"): ("NAME=LO:HI:STEP", "NAME=LO..HI:STEP"),
    ("dd", "--bids"): ("B,B,… in seat order", "SEAT:BID,…"),
    ("dd", "--bags"): ("N,N,… in side order", "SIDE=N,…"),
}
"""Every old value form: (command, option) → (old form, new form)."""


NOTICES = "spades_sim.old_spellings"
"""Where a command's context keeps its notices until the command has run (:func:`flush`)."""


def notice(old: str, new: str) -> None:
    """The one line an old spelling prints on stderr: kept until the command has run, so that
    a command line refused for another reason still prints one ``Error:`` line only."""
    line = f"note: {old} is an old spelling, taken until spades-sim {UNTIL}: write {new}"
    context = click.get_current_context(silent=True)
    if context is None:
        click.echo(line, err=True)
    else:
        context.find_root().meta.setdefault(NOTICES, []).append(line)


def flush(context: click.Context) -> None:
    """Print the notices of the command run in ``context`` (each once) on stderr."""
    for line in dict.fromkeys(context.find_root().meta.pop(NOTICES, [])):
        click.echo(line, err=True)


def old_option(command: str, old: str, **declared: Any) -> Callable[[Callable[..., Any]],
                                                                     Callable[..., Any]]:
    """Declare ``command``'s old option name ``old`` (from :data:`OLD_OPTIONS`), hidden, with
    the click settings ``declared`` of the new one (its type): a value given under the old
    name is passed on under the new one, with a notice; both names at once are refused."""
    alias = next(a for a in OLD_OPTIONS if (a.command, a.old) == (command, old))
    given_as = f"old_{alias.dest}"

    def decorate(function: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(function)
        def command_with_alias(*args: Any, **kwargs: Any) -> Any:
            value = kwargs.pop(given_as)
            if value not in (None, ()):
                if kwargs[alias.dest] not in (None, ()):
                    raise InputError(f"{old.lstrip('-')}: allowed {alias.new} or its old spelling "
                                     f"{old}, not both")
                notice(f"{command} {old}", alias.new)
                kwargs[alias.dest] = value
            return function(*args, **kwargs)

        return click.option(old, given_as, hidden=True, multiple=alias.multiple,
                            default=None, **declared)(command_with_alias)
    return decorate


def new_spelling(command: str, option: str, text: str, new: str | None) -> str:
    """``text`` as the command reads it: ``new`` (the library's new spelling of a value in an
    old form of :data:`OLD_VALUES`, with a notice) or, when None, ``text`` itself."""
    if new is None:
        return text
    if (command, option) not in OLD_VALUES:
        raise KeyError(f"{command} {option}: no old value form declared")
    notice(f"{command} {option} {shown(text)}", f"{option} {shown(new)}")
    return new


__all__ = ["OLD_OPTIONS", "OLD_VALUES", "UNTIL", "OldOption", "flush", "new_spelling", "notice",
           "old_option"]

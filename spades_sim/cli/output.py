"""Where a command's results go: the table on stdout (text, JSON or CSV), the ``--out``
file, the figure, status lines on stderr, and the titles that head the tables."""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import click
import pandas as pd

from .. import rules as _rules
from ..analysis import export
from ..outputs import OutputError, Paths, check_apart, check_file, shown
from ..run.catalogue import side_label
from ..run.simulate import Run
from .errors import InputError, one_line, user_errors


def echo(text: str, err: bool = False) -> None:
    """Print ``text`` (on stderr with ``err``). A stdout that fails (``| head``, a full disk)
    ends the printing, not the command, so that the files it was asked for are still written:
    the process's streams take care of it (``spades_sim.environment.StandardStreams``)."""
    click.echo(text, err=err)


def status(text: str) -> None:
    """A status line ("wrote …", "note: …"): on stderr, so stdout holds only the results."""
    click.echo(text, err=True)


def figure_paths(path: str, svg: bool) -> list[str]:
    """The figure's path and, with --svg, the same name ending in .svg."""
    if svg and not path.lower().endswith(".svg"):
        return [path, path[: len(path) - len(Path(path).suffix)] + ".svg"]
    return [path]


def check_figure(path: str, svg: bool) -> None:
    """Refuse a figure path (or, with --svg, its SVG twin) before a run: not .png or .svg, or
    one that cannot be written."""
    if not path.lower().endswith((".png", ".svg")):
        raise OutputError(f"figure={shown(path)!r}: allowed a file ending in .png or .svg")
    for target in figure_paths(path, svg):
        check_file(target, "figure")


def write_figure(draw: Callable[[str], Any], path: str, svg: bool) -> None:
    """Draw the figure to its path (and its SVG twin) and say so; a failed write (a full disk)
    ends in one line, after the results have been printed."""
    for target in figure_paths(path, svg):
        with user_errors():
            draw(target)
        status(f"wrote {target}")


def write_data(frame: pd.DataFrame, out: str, meta: dict[str, Any], field: str = "out") -> None:
    """Write the ``--out`` table (or the file of option ``field``) with its metadata and say
    so (a failed write as in write_figure)."""
    with user_errors():
        export.write(frame, out, meta, field)
    if out != export.STDOUT:
        status(f"wrote {out}")


@dataclasses.dataclass(frozen=True)
class Outputs:
    """Where a command's results go: the table's ``--format``, the ``--out`` file (the option
    ``out_name``: simulate's --records) and the figure (None: --no-figure, or a command without
    one) with its --svg twin."""

    fmt: str
    out: str | None
    figure: str | None = None
    svg: bool = False
    out_name: str = "out"


def check_outputs(fmt: str, out: str | None, figure: str | None = None, svg: bool = False,
                  no_figure: bool = False, *, reads: Mapping[str, Paths] | None = None,
                  writes: Mapping[str, Paths] | None = None,
                  folders: Mapping[str, Paths] | None = None, out_name: str = "out") -> Outputs:
    """Check every output before the run: the format, the --out path, the figure paths; then
    that no output overwrites an input or another output (:func:`spades_sim.outputs.check_apart`).

    The one place a command declares what it reads and writes: ``reads``, its input files and
    folders by option; ``writes``, its other output files (checked by the command itself:
    ``--log``, ``--mistakes`` …); ``folders``, the folders it fills (``--save``). ``out_name``
    is the option of the data file ``out`` when it is not --out (simulate's --records).
    """
    export.check_format(fmt)
    if out is not None:
        export.check_out(out, out_name)
        if out == export.STDOUT and fmt != "text":
            raise InputError(f"{out_name}='-': allowed with --format text only (--format {fmt} "
                             "puts the table on stdout already)")
    if svg and figure is None and not no_figure:
        raise OutputError("svg=true: allowed with --figure PATH (a figure is drawn only where "
                          "--figure says)")
    if no_figure:
        figure = None
    if figure is not None:
        check_figure(figure, svg)
    check_apart(reads or {}, {out_name: out, "figure": figure and figure_paths(figure, svg),
                              **(writes or {})}, folders)
    return Outputs(fmt, out, figure, svg, out_name)


def deliver(outputs: Outputs, text: str, table: pd.DataFrame, meta: dict[str, Any],
            draw: Callable[[str], Any] | None = None, data: pd.DataFrame | None = None,
            extra: dict[str, pd.DataFrame] | None = None) -> None:
    """The one output path of a command: the table on stdout as text (on stderr when --out -
    takes stdout) or as JSON or CSV, then the figure, then the --out file (``data``, default
    the table)."""
    if outputs.fmt == "text":
        echo(text, err=outputs.out == export.STDOUT)
    else:
        echo(export.as_text(table, outputs.fmt, meta, extra))
    if draw is not None and outputs.figure is not None:
        write_figure(draw, outputs.figure, outputs.svg)
    if outputs.out is not None:
        write_data(table if data is None else data, outputs.out, meta, outputs.out_name)


def rules_label(rules: _rules.RuleSet, rule_overrides: tuple[str, ...]) -> str:
    """How a title names the rules: the rule set's name, then each --rule override."""
    return rules.name + "".join(f" {text}" for text in rule_overrides)


def strategies_label(strategies: list) -> str:
    """How a title names the strategies at the table: each name once, in seat order."""
    return " vs ".join(dict.fromkeys(s.name for s in strategies))


def side_labels(seats: int, sides: int, strategies: list) -> dict[int, str]:
    """How the economics tables name each side: its seats and its strategy (the one at seat s,
    side s's first seat)."""
    return {side: side_label(side, sides, seats, strategies[side].name) for side in range(sides)}


def run_title(rules: _rules.RuleSet, rule_overrides: tuple[str, ...], run: Run) -> str:
    """The first line of a run's output: rules, strategies, seed and what was played."""
    return (f"rules {rules_label(rules, rule_overrides)}, strategy "
            f"{strategies_label(run.strategies)}, seed {run.seed}: {run.done:,} {run.kind}")


def run_metadata(run: Run, command: str = "simulate", **facts: Any) -> dict[str, Any]:
    """The metadata of a run's table and records (:func:`spades_sim.analysis.export.metadata`)."""
    return export.metadata(command, run.seed, [run.rules], run.strategies, kind=run.kind,
                           requested=run.requested, done=run.done, interrupted=run.interrupted,
                           **facts)


def stopped(run: Run) -> str:
    """The header's mark of a run that stopped early."""
    return " (interrupted)" if run.interrupted else (" (stopped)" if run.save_error else "")


def exit_if_not_saved(run: Run) -> None:
    """After the summary of a saved run whose shard could not be written: one line, exit 2."""
    if run.save_error:
        click.echo(f"Error: {one_line(run.save_error)}", err=True)
        sys.exit(2)


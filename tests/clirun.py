"""Running the ``spades-sim`` command in-process, and the checks every command test makes."""

from __future__ import annotations

import click
from click.testing import CliRunner, Result

from spades_sim.cli import cli


def every_command(group: click.Group = cli, path: tuple[str, ...] = ()) -> dict[str, click.Command]:
    """Every command of the tree, by its words (``"rules show"``)."""
    found: dict[str, click.Command] = {}
    for name, command in group.commands.items():
        if isinstance(command, click.Group):
            found.update(every_command(command, (*path, name)))
        else:
            found[" ".join((*path, name))] = command
    return found


def invoke(args: list[str]) -> Result:
    return CliRunner().invoke(cli, args)


def assert_ok(result: Result) -> None:
    assert result.exception is None, result.output
    assert result.exit_code == 0, result.output


def assert_one_line_error(result: Result, expected: str, *, prefix_only: bool = False) -> None:
    """Exit code 2, no exception other than click's exit, and exactly one ``Error: ...`` line."""
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    lines = result.output.splitlines()
    assert len(lines) == 1, result.output
    if prefix_only:
        assert lines[0].startswith(f"Error: {expected}"), lines[0]
    else:
        assert lines[0] == f"Error: {expected}"


def stop_after(blocks: int):
    """An ``on_block`` for a run that presses Ctrl-C when ``blocks`` blocks have finished."""
    calls = []

    def on_block(count: int) -> None:
        calls.append(count)
        if len(calls) == blocks:
            raise KeyboardInterrupt

    return on_block

"""README.md's ``$ spades-sim ...`` examples print what they show.

The parsing, running and comparing are scripts/readme_examples.py's (loaded from its file,
not copied): the examples run in this process, which starts Python, pandas and the kernel
once instead of once a command; one block runs as real ``python -m spades_sim`` commands.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "readme_examples.py"


def _load_script():
    spec = importlib.util.spec_from_file_location("readme_examples", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the file runs
    spec.loader.exec_module(module)
    return module


examples = _load_script()
BLOCKS = examples.parse(examples.README.read_text(encoding="utf-8"))
RUNNABLE = [block for block in BLOCKS if any(not e.skipped for e in block.examples)]


def _failures(outcomes) -> str:
    return "\n".join(line for outcome in outcomes if not outcome.ok
                     for line in [outcome.example.label(), *outcome.diff()])


def _block(command: str):
    """The block whose first example is ``command``."""
    return next(block for block in BLOCKS if block.examples[0].command == command)


@pytest.mark.parametrize("block", RUNNABLE,
                         ids=[f"line{block.line + 1}-{block.examples[0].command.split()[1]}"
                              for block in RUNNABLE])
def test_the_readme_shows_what_its_examples_print(block) -> None:
    """Fix a failure with ``python scripts/readme_examples.py --write`` and read the diff."""
    outcomes = examples.run_block(block, examples.run_in_process)
    assert outcomes
    assert all(outcome.ok for outcome in outcomes), _failures(outcomes)


def test_the_examples_print_the_same_as_commands() -> None:
    """The real ``python -m spades_sim``: two refused inputs, whose ``Error:`` lines go to
    stderr (compared because the commands fail) while stdout stays empty."""
    block = _block("spades-sim simulate --rules solo --rule blind_nil=anytime")
    outcomes = examples.run_block(block, examples.run_command)
    assert [len(outcome.printed) for outcome in outcomes] == [1, 1]
    assert all(outcome.ok for outcome in outcomes), _failures(outcomes)


def test_one_changed_digit_is_a_difference() -> None:
    block = _block("spades-sim strategies list")
    show = block.examples[1]
    assert show.command == "spades-sim strategies show expert"
    row = next(i for i, line in enumerate(show.shown) if line.startswith("set_slack"))
    changed = list(show.shown)
    changed[row] = changed[row].replace("4*", "5*", 1)
    outcome = examples.run_block(examples.Block(block.line, (
        examples.Example(show.line, show.command, tuple(changed)),)), examples.run_in_process)[0]
    assert not outcome.ok
    diff = outcome.diff()
    assert f"-{changed[row]}" in diff and f"+{show.shown[row]}" in diff


def test_every_skipped_command_is_an_example() -> None:
    assert examples.stale_skips(BLOCKS) == []


def test_an_elision_stands_for_any_run_of_lines() -> None:
    printed = ["head", "a 1", "b 2", "c 3", "tail"]
    assert examples.matches(printed, printed)
    assert examples.matches(["head", "...", "tail"], printed)
    assert examples.matches(["head", "...", "b 2", "...", "tail"], printed)
    assert examples.matches(["...", "a 1", "b 2", "c 3", "tail"], printed)  # none elided
    assert examples.matches(["..."], printed) and examples.matches(["..."], [])
    assert not examples.matches(["head", "...", "c 3"], printed)  # the end is shown
    assert not examples.matches(["...", "b 2", "a 1", "..."], printed)  # in order
    assert not examples.matches([], ["something printed"])
    assert examples.matches(["head  "], ["head"])  # trailing white space is not compared


def test_a_refreshed_excerpt_keeps_the_lines_shown() -> None:
    shown = ("rules x: 10 games", "win rate", "  a      50.0%", "...", "bags", "  a      1.5",
             "...", "wrote x.png")
    printed = ["rules x: 20 games", "win rate", "  a      52.0%", "  b      48.0%", "nil",
               "  a      3.0%", "bags", "  a      1.4", "  b      1.6", "wrote x.png"]
    new, notes = examples.refresh(shown, printed)
    assert new == ["rules x: 20 games", "win rate", "  a      52.0%", "...", "bags",
                   "  a      1.4", "...", "wrote x.png"]
    assert notes == [] and examples.matches(new, printed)
    # A shown line the command no longer prints is dropped, and said so.
    new, notes = examples.refresh(("win rate", "  gone   1%", "  a      1%", "..."),
                                  ["win rate", "  a      2%", "  b      3%"])
    assert new == ["win rate", "  a      2%", "..."]
    assert notes == ["no longer printed: gone   1%"]
    # A row belongs to its heading: under a renamed heading it is not taken for another's row.
    new, notes = examples.refresh(("top", "...", "old name", "  a      1%", "..."),
                                  ["top", "win rate", "  a      2%", "new name", "  a      3%"])
    assert new == ["top", "..."]
    assert notes == ["no longer printed: old name", "no longer printed: a      1%"]

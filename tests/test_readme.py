"""README.md's and docs/commands.md's ``$ spades-sim ...`` examples print what they show, the
files they leave are ones ``.gitignore`` keeps out of a clone's changes, and the README's lines on
the strategies' strength are the committed reports' figures.

The parsing, running and comparing are scripts/readme_examples.py's (loaded from its file,
not copied): the examples run in this process, which starts Python, pandas and the kernel
once instead of once a command; one block runs as real ``python -m spades_sim`` commands.
"""

from __future__ import annotations

import csv
import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "readme_examples.py"


def _load_script():
    spec = importlib.util.spec_from_file_location("readme_examples", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the file runs
    spec.loader.exec_module(module)
    return module


examples = _load_script()
BLOCKS = examples.documents_blocks()
RUNNABLE = [block for block in BLOCKS if any(not e.skipped for e in block.examples)]


def _failures(outcomes) -> str:
    return "\n".join(line for outcome in outcomes if not outcome.ok
                     for line in [outcome.example.label(), *outcome.diff()])


def _block(command: str):
    """The block whose first example is ``command``."""
    return next(block for block in BLOCKS if block.examples[0].command == command)


@pytest.mark.parametrize("block", RUNNABLE,
                         ids=[f"{Path(block.document).stem}-line{block.line + 1}-"
                              f"{block.examples[0].command.split()[1]}" for block in RUNNABLE])
def test_the_documents_show_what_their_examples_print(block) -> None:
    """Fix a failure with ``python scripts/readme_examples.py --write`` and read the diff.

    What the examples leave in their folder is what a reader following the tour in a clone
    finds there, so ``.gitignore`` must keep it out of ``git status``."""
    left: list[str] = []
    outcomes = examples.run_block(block, examples.run_in_process, left)
    assert outcomes
    assert all(outcome.ok for outcome in outcomes), _failures(outcomes)
    assert _not_ignored(left) == [], "add them to .gitignore"


def _not_ignored(paths: list[str]) -> list[str]:
    """The paths (relative to the repository's root) that .gitignore does not ignore."""
    if not paths:
        return []
    done = subprocess.run(["git", "check-ignore", "--no-index", "--stdin"], cwd=ROOT,
                          input="\n".join(paths), capture_output=True, text=True, check=False)
    assert done.returncode in (0, 1), done.stderr  # 1: none ignored
    ignored = set(done.stdout.splitlines())
    return [path for path in paths if path not in ignored]


def test_the_gitignore_check_sees_a_file_it_does_not_ignore() -> None:
    assert _not_ignored(["hands.jsonl", "compare.png", "pyproject.toml"]) == ["pyproject.toml"]


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


# --- the README's strength lines against the committed reports ----------------------------


def _table_row(text: str, *cells: str) -> list[str]:
    """The cells of the first Markdown table row of ``text`` that starts with ``cells``."""
    for line in text.splitlines():
        row = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("|") and row[:len(cells)] == list(cells):
            return row
    raise LookupError(cells)


def _elo(value: str) -> str:
    return f"{float(value):+.0f}"


def strength_lines() -> list[str]:
    """The README's three lines on the strategies' strength, as the committed reports give them
    (reports/expert.md's duplicate table and technique audit, reports/default's league)."""
    expert = (ROOT / "reports" / "expert.md").read_text(encoding="utf-8")
    duplicate = expert.split("## Strength in duplicate", 1)[1].split("\n## ", 1)[0]
    heading = re.search(r"\(([\d,]+) deal sequences × 2 games, seed (\d+)\)", duplicate)
    assert heading, "reports/expert.md: no duplicate heading"
    shares = {against: _table_row(duplicate, "standard", "`expert`", f"`{against}`")[3:5]
              for against in ("expert-v1", "basic")}
    first = (f"- In duplicate ({heading[1]} deal sequences, seed {heading[2]}) `expert` wins "
             f"{' '.join(shares['expert-v1'])} of games against `expert-v1` and "
             f"{' '.join(shares['basic'])} against `basic`.")
    with (ROOT / "reports" / "default" / "ratings.csv").open(encoding="utf-8") as file:
        ratings = [row for row in csv.DictReader(file) if row["name"] != "expert-v1"]
    second = ("- The default report's league (Elo, `expert-v1` = 0): " + ", ".join(
        f"`{row['name']}` {_elo(row['elo'])} [{_elo(row['low'])}, {_elo(row['high'])}]"
        for row in ratings) + ".")
    audit = expert.split("## Technique audit", 1)[1].split("\n## ", 1)[0]
    hands = re.match(r" \(([\d,]+) hands of self-play", audit)
    assert hands, "reports/expert.md: no audit heading"
    mine, yardstick = (_table_row(audit, f"`{name}`")[1:3] for name in ("expert", "expert-v1"))
    third = (f"- Technique (`spades-sim audit`, {hands[1]} hands of self-play): {' '.join(mine)} "
             f"of `expert`'s hands have a flagged error, {' '.join(yardstick)} of `expert-v1`'s.")
    return [first, second, third]


def test_the_readme_states_the_strength_the_reports_measured() -> None:
    """Regenerated reports change these lines: copy them from the failure's message."""
    readme = examples.README.read_text(encoding="utf-8")
    shown = readme.split("<!-- strength -->\n", 1)[1].split("<!-- /strength -->", 1)[0]
    assert shown.splitlines() == strength_lines()

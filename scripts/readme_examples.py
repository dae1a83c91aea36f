"""Check, or rewrite, the outputs README.md and docs/commands.md show for their
``$ spades-sim ...`` examples.

    python scripts/readme_examples.py               # --check: what differs; exit 1 if anything
    python scripts/readme_examples.py --write       # rewrite the documents' outputs from fresh runs
    python scripts/readme_examples.py --only bags   # only blocks with a command containing 'bags'
    python scripts/readme_examples.py --in-process  # the same check in one process, about 3x faster

An example is a line ``$ spades-sim ARGS`` inside a fenced block, followed by the lines the
command prints, up to the next ``$`` line or the end of the block. A line that is only
``...`` stands for any run of lines (none included), so an example may show an excerpt;
a comment after two spaces and ``#`` is for the reader and not part of the command. The
commands of one block run in order in one fresh temporary folder (holding a copy of the
repository's ``examples/``, the bots an example may seat), because a later one may
read what an earlier one wrote (``--log hands.jsonl``, then ``score hands.jsonl``), and each
block starts from an empty folder, so no example depends on another block.

Each command runs as ``python -m spades_sim ARGS`` with the interpreter running this script
and this checkout first on the import path, so the code checked is the code beside the
README, whatever is installed (``--in-process`` runs them through click's test runner
instead, as tests/test_readme.py does, to start Python once). What is compared is what a
reader sees on a terminal:

- stdout, always;
- stderr only when the command fails (exit code not 0), after stdout: that is where the
  one-line ``Error: ...`` of a refused input goes. A successful command's stderr (progress
  bars are off in a pipe; a library's warnings) is not part of any example.

Lines are compared with trailing white space removed, since editors strip it from Markdown.
Every example runs with a fixed ``--seed`` (or plays nothing random), and a seed gives the
same result byte for byte whatever the threads, so the comparison is exact: nothing is
masked. File names in outputs are the relative names the commands were given, which the
temporary folder keeps as they are; an example whose output varies from run to run (a
timing, an absolute path) cannot be checked and belongs in ``SKIP``.

``--write`` keeps each example's elisions as far as it can: the lines it showed are matched
to the fresh output by their labels (the text before the first number column) and replaced
by the lines now printed in their place; an example that shows everything is replaced
whole. Read the diff afterwards: the prose around an example may quote its numbers.
"""

from __future__ import annotations

import argparse
import difflib
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
README = REPO / "README.md"
DOCUMENTS = (README, REPO / "docs" / "commands.md")
"""The documents whose examples are run: the front page and the command tour."""
ELISION = "..."
PROMPT = "$ "
PROGRAM = "spades-sim"
TIMEOUT = 600
"""Seconds one command may take before the check gives up on it (an example should take a few)."""

SKIP = {
    # Each entry is an example's command exactly as a document shows it (without its comment),
    # with the reason it cannot be checked. An entry that matches no example is an error,
    # so the list cannot outlive the examples it excuses.
    "spades-sim rules show standard > my-table.toml":
        "writes a file for the reader to edit (and needs a shell for the redirection)",
    "spades-sim rules validate my-table.toml": "reads the file the reader has edited",
    "spades-sim simulate --rules my-table.toml --rule nil_value=50 --rule target=300 --games 1000":
        "reads the file the reader has edited; its output is not shown",
    "spades-sim simulate --hands 5000000 --seed 1 --save big-run --quiet":
        "needs Ctrl-C after 5 s: where it stops depends on the machine",
    "spades-sim simulate --resume big-run --quiet": "resumes the run interrupted above",
    "spades-sim simulate --resume big-run --seed 2 --quiet": "needs the run saved above",
    "spades-sim report": "the full default study takes minutes",
}
_SHELL = re.compile(r"^(?:\d?[<>]|[|;&])")
"""Tokens a shell would treat as redirections or command separators; the runner uses no shell."""
_COMMENT = re.compile(r"\s{2,}#.*$")


@dataclass(frozen=True)
class Example:
    """One ``$ spades-sim ...`` line of a document and the output lines shown under it."""

    line: int
    """Index (from 0) of the ``$`` line in its document."""
    command: str
    """The command as the reader types it, without its comment."""
    shown: tuple[str, ...]
    """The output lines shown, ``...`` included."""
    document: str = "README.md"
    """The document's path from the repository's root."""

    @property
    def args(self) -> list[str]:
        """The arguments after ``spades-sim``; shell syntax is refused, as no shell runs them."""
        args = shlex.split(self.command)[1:]
        shell = [arg for arg in args if _SHELL.match(arg)]
        if shell:
            raise ValueError(f"{self.label()}: {shell[0]!r} needs a shell; list it in SKIP")
        return args

    @property
    def skipped(self) -> str | None:
        """Why the example is not run, or None."""
        return SKIP.get(self.command)

    def label(self) -> str:
        """``DOCUMENT:LINE: $ COMMAND`` with a 1-based line number, as editors count."""
        return f"{self.document}:{self.line + 1}: {PROMPT}{self.command}"


@dataclass(frozen=True)
class Block:
    """The examples of one fenced block, run in order in one folder."""

    line: int
    """Index (from 0) of the block's opening fence."""
    examples: tuple[Example, ...]
    document: str = "README.md"
    """The document's path from the repository's root."""


def parse(text: str, document: str = "README.md") -> list[Block]:
    """The blocks of a document's text that hold ``$`` examples, in order.

    A ``$`` line that does not run spades-sim is refused: the runner only knows spades-sim.
    """
    lines = text.splitlines()
    blocks: list[Block] = []
    fence: int | None = None  # the open block's first line
    prompts: list[int] = []  # its ``$`` lines
    for index, line in enumerate(lines):
        if line.startswith("```"):
            if fence is None:
                fence, prompts = index, []
                continue
            if prompts:  # each example's output runs to the next ``$`` line or the fence
                ends = prompts[1:] + [index]
                blocks.append(Block(fence, tuple(_example(lines, start, end, document)
                                                 for start, end in zip(prompts, ends)),
                                    document))
            fence = None
        elif fence is not None and line.startswith(PROMPT):
            prompts.append(index)
    if fence is not None:
        raise ValueError(f"{document}:{fence + 1}: a fenced block that never closes")
    return blocks


def documents_blocks() -> list[Block]:
    """The example blocks of every document in :data:`DOCUMENTS`, in order."""
    return [block for path in DOCUMENTS
            for block in parse(path.read_text(encoding="utf-8"), _name(path))]


def _name(path: Path) -> str:
    return path.relative_to(REPO).as_posix()


def _example(lines: list[str], start: int, end: int, document: str) -> Example:
    """The example whose ``$`` line is ``lines[start]`` and whose output ends before ``end``."""
    command = _COMMENT.sub("", lines[start][len(PROMPT):]).strip()
    if command.split(" ")[0] != PROGRAM:
        raise ValueError(f"{document}:{start + 1}: only {PROGRAM} commands can be checked:"
                         f" {lines[start]!r}")
    return Example(start, command, tuple(lines[start + 1:end]), document)


def matches(shown: list[str] | tuple[str, ...], printed: list[str]) -> bool:
    """Whether the printed lines are what the example shows: the shown lines in order and
    nothing else, where each ``...`` stands for any run of lines (none included).

    >>> matches(["a", "...", "c"], ["a", "b", "b", "c"]), matches(["a", "..."], ["b"])
    (True, False)
    """
    shown = [line.rstrip() for line in shown]
    printed = [line.rstrip() for line in printed]
    segments = _segments(shown)
    if len(segments) == 1:  # no elision: the whole output
        return segments[0] == printed
    first, *middle, last = segments
    if len(first) + len(last) > len(printed) or printed[:len(first)] != first:
        return False
    if last and printed[-len(last):] != last:
        return False
    position, end = len(first), len(printed) - len(last)
    # Placing each run in between as early as it fits leaves the most room for the runs after
    # it, so this finds a placement whenever there is one.
    for segment in middle:
        found = _find(segment, printed, position, end)
        if found is None:
            return False
        position = found + len(segment)
    return True


def refresh(shown: tuple[str, ...], printed: list[str]) -> tuple[list[str], list[str]]:
    """The example's output lines rewritten from ``printed``, keeping its elisions, and notes
    on what could not be kept (shown lines the command no longer prints).

    A shown run of lines is placed where the same lines are printed, else where lines with
    the same labels are; failing both its lines are placed one by one and the run grows to
    cover what is now printed between them. If the result would still not match (an odd
    excerpt), the whole output replaces the example, with a note.
    """
    if matches(shown, printed):
        return list(shown), []
    shown = [line.rstrip() for line in shown]
    printed = [line.rstrip() for line in printed]
    if ELISION not in shown:
        return printed, []
    printed_labels = _labels(printed)
    segments = _segments(shown)
    label_segments = _segments(_labels(shown))
    notes: list[str] = []
    out: list[str] = []
    position = 0
    for number, (segment, labels) in enumerate(zip(segments, label_segments)):
        if number:
            out.append(ELISION)
        if not segment:
            continue
        low, high = _place(segment, labels, printed, printed_labels, position, number == 0,
                           number == len(segments) - 1, notes)
        if low is None:
            continue
        out += printed[low:high]
        position = high
    # Two elisions in a row say no more than one.
    out = [line for i, line in enumerate(out)
           if not (line == ELISION and out[i - 1:i] == [ELISION])]
    if not matches(out, printed):
        notes.append("the excerpt could not be kept: the whole output is shown")
        return printed, notes
    return out, notes


def _segments(lines: list[str]) -> list[list[str]]:
    """The runs of lines between elisions (empty where an elision starts or ends)."""
    segments: list[list[str]] = [[]]
    for line in lines:
        if line == ELISION:
            segments.append([])
        else:
            segments[-1].append(line)
    return segments


def _labels(lines: list[str]) -> list[str]:
    """What names each line whatever its numbers: its indentation and its text up to the first
    ``": "`` or run of two spaces (a metric, a strategy, a setting), and for an indented row
    also the label of the heading above it, so that ``  expert`` under one metric is not taken
    for ``  expert`` under another. Elisions stay elisions (and do not end a section)."""
    labels, heading = [], ""
    for line in lines:
        if line == ELISION:
            labels.append(ELISION)
            continue
        indent = len(line) - len(line.lstrip())
        text = line.strip()
        cut = min((i for i in (text.find(": "), text.find("  ")) if i >= 0), default=len(text))
        label = " " * indent + text[:cut]
        if indent:
            labels.append(f"{heading}\n{label}")
        else:
            heading = label
            labels.append(label)
    return labels


def _find(segment: list[str], printed: list[str], low: int, high: int) -> int | None:
    """The first index ``i`` in ``low … high - len(segment)`` where ``printed[i:]`` starts with
    the segment, or None."""
    size = len(segment)
    return next((i for i in range(low, high - size + 1) if printed[i:i + size] == segment), None)


def _place(segment: list[str], labels: list[str], printed: list[str], printed_labels: list[str],
           position: int, anchored_start: bool, anchored_end: bool,
           notes: list[str]) -> tuple[int | None, int]:
    """Where a shown run of lines (with its labels) stands in the printed output now, at or
    after ``position``: ``(low, high)``, or ``(None, position)`` when none of its lines is
    printed any more."""
    size = len(segment)
    if anchored_start:  # the example's first lines: the output's first lines
        low, high = 0, size
    elif anchored_end:  # its last lines: the output's last lines
        low, high = max(position, len(printed) - size), len(printed)
    else:
        low, high = position, len(printed)
    for shown, now in ((segment, printed), (labels, printed_labels)):
        found = _find(shown, now, low, high)
        if found is not None:
            return found, found + size
    # Lines added or dropped inside the run: place each line by its label, in order, and let
    # the run cover what is printed between them now.
    indexes = []
    cursor = position
    for line, label in zip(segment, labels):
        index = next((i for i in range(cursor, len(printed)) if printed_labels[i] == label), None)
        if index is None:
            notes.append(f"no longer printed: {line.strip()}")
            continue
        indexes.append(index)
        cursor = index + 1
    if not indexes:
        return None, position
    low = 0 if anchored_start else indexes[0]
    return low, len(printed) if anchored_end else indexes[-1] + 1


@dataclass
class Outcome:
    """What one example printed against what its document shows."""

    example: Example
    printed: list[str]
    seconds: float

    @property
    def ok(self) -> bool:
        """Whether the output is what the example shows."""
        return matches(self.example.shown, self.printed)

    def diff(self) -> list[str]:
        """A unified diff from the document's lines to the lines ``--write`` would put there."""
        new, notes = refresh(self.example.shown, self.printed)
        diff = difflib.unified_diff(list(self.example.shown), new, self.example.document,
                                    "printed now",
                                    lineterm="", n=1)
        return list(diff) + [f"note: {note}" for note in notes]


def run_command(args: list[str], folder: str) -> list[str]:
    """Run ``python -m spades_sim ARGS`` in ``folder``; the lines a terminal would show (stdout,
    then stderr if it failed)."""
    env = dict(os.environ)
    # This checkout first, so the README is checked against the code beside it; UTF-8 because
    # the outputs print ♠, ½ and −, whatever the machine's locale.
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    env["PYTHONIOENCODING"] = "utf-8"
    try:
        done = subprocess.run([sys.executable, "-m", "spades_sim", *args], cwd=folder, env=env,
                              capture_output=True, encoding="utf-8", errors="replace",
                              timeout=TIMEOUT, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return [f"(no answer after {TIMEOUT} s)"]
    return _terminal(done.returncode, done.stdout, done.stderr)


def run_in_process(args: list[str], folder: str) -> list[str]:
    """The same lines as :func:`run_command`, from the command run inside this process.

    Starting Python, pandas, matplotlib and the kernel's cached machine code costs one to
    five seconds a command, several times what the README's examples play; in one process
    that is paid once, which is what keeps the test cheap. The examples' results depend only
    on their seeds, so they print the same either way.
    """
    from click.testing import CliRunner

    from spades_sim.cli import cli

    previous = os.getcwd()
    os.chdir(folder)  # the files the examples name are relative to their folder
    try:
        result = CliRunner().invoke(cli, args, prog_name=PROGRAM)
    finally:
        os.chdir(previous)
    stderr = result.stderr
    if result.exc_info is not None and not isinstance(result.exception, SystemExit):
        stderr += "".join(traceback.format_exception(*result.exc_info))  # a crash, shown whole
    return _terminal(result.exit_code, result.stdout, stderr)


def _terminal(code: int, stdout: str, stderr: str) -> list[str]:
    """What an example is compared with: stdout, and stderr when the command failed."""
    return stdout.splitlines() + (stderr.splitlines() if code != 0 else [])


def run_block(block: Block, runner=run_command, left: list[str] | None = None) -> list[Outcome]:
    """Run a block's examples in order in one fresh temporary folder (skipped ones not at all)
    with ``runner`` (:func:`run_command` or :func:`run_in_process`); ``left``, if given, gets
    the paths of the files and folders the examples left in the folder (relative, ``/`` after
    a folder), what a reader following the tour in a clone would find there."""
    outcomes = []
    with tempfile.TemporaryDirectory(prefix="readme-example-") as folder:
        # The repository's examples/ as a reader's checkout has them: the bots the README seats.
        shutil.copytree(REPO / "examples", Path(folder) / "examples")
        for example in block.examples:
            if example.skipped:
                continue
            started = time.perf_counter()
            printed = runner(example.args, folder)
            outcomes.append(Outcome(example, printed, time.perf_counter() - started))
        if left is not None:
            left += sorted(path.name + ("/" if path.is_dir() else "")
                           for path in Path(folder).iterdir() if path.name != "examples")
    return outcomes


def stale_skips(blocks: list[Block]) -> list[str]:
    """SKIP entries that name no example: the command changed, so the entry must too."""
    commands = {example.command for block in blocks for example in block.examples}
    return [command for command in SKIP if command not in commands]


def rewrite(text: str, outcomes: list[Outcome]) -> tuple[str, list[str]]:
    """A document's text with each outcome's example output replaced by its refreshed lines, and
    the notes of each change (the outcomes are that document's)."""
    lines = text.splitlines()
    changes = []
    # From the bottom up, so that the line numbers of the examples above stay valid.
    for outcome in sorted(outcomes, key=lambda o: o.example.line, reverse=True):
        example = outcome.example
        new, why = refresh(example.shown, outcome.printed)
        if new == list(example.shown):
            continue
        start = example.line + 1
        lines[start:start + len(example.shown)] = new
        changes.append([example.label(), *(f"  {note}" for note in why)])
    notes = [line for change in reversed(changes) for line in change]
    return "\n".join(lines) + ("\n" if text.endswith("\n") else ""), notes


def main(argv: list[str] | None = None) -> int:
    """The command line; returns the exit code."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="report differing examples (default)")
    mode.add_argument("--write", action="store_true", help="rewrite the documents' outputs")
    parser.add_argument("--only", action="append", default=[], metavar="TEXT",
                        help="only blocks with a command containing TEXT (repeatable)")
    parser.add_argument("--in-process", action="store_true",
                        help="run the commands inside this process: much faster, the same outputs")
    options = parser.parse_args(argv)
    if options.in_process:
        sys.path.insert(0, str(REPO))  # as run_command does with PYTHONPATH
    runner = run_in_process if options.in_process else run_command
    blocks = documents_blocks()
    stale = stale_skips(blocks)
    for command in stale:
        print(f"SKIP names no example (update the list): {command}")
    chosen = [block for block in blocks
              if not options.only or any(word in example.command for word in options.only
                                         for example in block.examples)]
    outcomes: list[Outcome] = []
    for block in chosen:
        for example in block.examples:
            if example.skipped:
                print(f"skip          {example.label()}  ({example.skipped})")
        for outcome in run_block(block, runner):
            outcomes.append(outcome)
            status = "ok  " if outcome.ok else "DIFF"
            print(f"{status} {outcome.seconds:6.1f} s  {outcome.example.label()}", flush=True)
            if not outcome.ok and not options.write:
                print("\n".join(f"    {line}" for line in outcome.diff()))
    differing = [outcome for outcome in outcomes if not outcome.ok]
    if options.write:
        rewritten = 0
        for path in DOCUMENTS:
            text = path.read_text(encoding="utf-8")
            new_text, notes = rewrite(text, [outcome for outcome in differing
                                             if outcome.example.document == _name(path)])
            if new_text != text:
                path.write_text(new_text, encoding="utf-8")
            if notes:
                print("\n".join(notes))
            rewritten += sum(1 for note in notes if not note.startswith(" "))
        print(f"rewrote {rewritten} example(s)")
        return 1 if stale else 0
    print(f"{len(outcomes)} examples run in {sum(o.seconds for o in outcomes):.1f} s,"
          f" {len(differing)} differ")
    return 1 if differing or stale else 0

if __name__ == "__main__":
    sys.exit(main())

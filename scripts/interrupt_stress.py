"""Press Ctrl-C at random moments in real runs of the long-running commands, and check each ends
as promised: exit 130, no traceback, what was finished printed, and the header's count equal
to the totals.

    python scripts/interrupt_stress.py --runs 200 --seed 1
    python scripts/interrupt_stress.py --runs 200 --seed 7 --earliest 4 --latest 10 --within 2

The runs take turns among ``--kinds``: a hand run (``simulate --hands``, half of them saved with
``--save``), a game run (``simulate --games``, likewise), a what-if (``hand``, the position of
issue 41), a long what-if (``hand-long``: a position whose games go on for many hands, still
playing its first pass minutes in), a what-if whose double-dummy view is being solved
(``hand-dd``), a duplicate comparison (``compare``), a grid search (``tune``), the default
``report``, a double-dummy question of minutes (``dd``) and the review of its hand
(``review``): `expert-v1` hand 522 of seed 1, a nil whose partner bid one
(docs/double-dummy.md), written to each run's folder as ``slow.jsonl``; those two print
nothing partial. Each gets SIGINT after a random delay of ``--earliest`` to ``--latest``
seconds (early ones land while the libraries load or strategies are packed, late ones, 4 to
10 s in, while the kernel runs) and must stop within ``--within`` seconds: exit, or for a
what-if print its table (it then draws its figure of the deals finished, and exits once that
is written). A run still going a minute after its SIGINT is killed and counted as hung. It
prints one line a run, then per kind the runs, their exit codes and the longest stop, and a
last line counting the runs with a problem; its exit code is
1 if there was any. With ``--cold`` each run starts on an empty kernel cache of its own, so that
its SIGINT lands while numba compiles (tens of seconds a kind):

    python scripts/interrupt_stress.py --cold --runs 30 --kinds dd,hands,hand --earliest 2 --latest 30

A stress script, not a test: 200 late runs take about half an hour.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from typing import IO

HAND = "AS 7S 3S 9H 8H 4H 2H QD 6D 3D 8C 5C 2C"
RUNS = {
    "hands": ["simulate", "--hands", "20000000", "--seed", "7", "--quiet"],
    "games": ["simulate", "--games", "400000", "--seed", "7", "--quiet"],
    "hand": ["hand", HAND, "--score", "us=100,them=300", "--deals", "200000", "--seed",
             "734893", "--quiet"],
    # Both sides far from the goal and deep in bags: every deal plays a long game per bid.
    "hand-long": ["hand", HAND, "--score", "us=-150,them=-120", "--bags", "us=8,them=9",
                  "--deals", "500000", "--seed", "3", "--quiet"],
    # A short what-if, then the double-dummy solve of its deals, which SIGINT at 4 to 10 s cuts.
    "hand-dd": ["hand", HAND, "--score", "us=100,them=300", "--deals", "256", "--dd", "--seed",
                "2", "--quiet"],
    # Sized to be still running at 10 s on an idle machine: SIGINT lands in the first of the two
    # runs of a comparison, and in one of the first settings of the grid (each a comparison).
    "compare": ["compare-strategies", "expert", "basic", "--games", "200000", "--seed", "5",
                "--quiet", "--no-figure"],
    "tune": ["tune", "basic", "--param", "bid_offset=-1..1:0.25", "--against", "basic",
             "--games", "40000", "--seed", "5", "--quiet", "--no-figure"],
    "report": ["report"],
    # Print nothing partial: `interrupted` on stderr, exit 130.
    "dd": ["dd", "--log", "slow.jsonl"],
    "review": ["review", "slow.jsonl"],
}
QUIET = ("dd", "review")
"""The kinds that keep nothing partial."""
SLOW_HANDS = ("2C 4C 7C 8C 9C 2D 7D KD 3H 6H 9H 10H 4S",
              "6C QC 5D 6D 9D QD 2H JH 3S 6S 9S QS AS",
              "5C 10C KC 3D 10D 4H 7H 8H QH KH 5S 8S 10S",
              "3C JC AC 4D 8D JD AD 5H AH 2S 7S JS KS")
"""`expert-v1` hand 522 of seed 1: dealer 0, bids 0, 4, 1, 5; the first score value of its
first position takes many minutes."""


def _write_slow_log(path: str) -> None:
    """The slow hand's log line (bid as self-play bid it, then each seat's lowest card)."""
    from spades_sim.cards import parse_cards
    from spades_sim.referee import Hand, HandLog
    from spades_sim.rules import RuleSet

    hand = Hand(RuleSet(), 0, [parse_cards(text) for text in SLOW_HANDS])
    for seat, bid in ((1, 4), (2, 1), (3, 5), (0, 0)):
        hand.bid(seat, bid)
    while hand.turn_index is not None:
        hand.play(hand.turn_index, hand.legal_plays(hand.turn_index)[0])
    with open(path, "w", encoding="utf-8") as log:
        log.write(HandLog.from_hand(hand, "standard").dumps() + "\n")
FIGURE_AFTER = ("hand", "hand-long", "hand-dd")
"""The kinds that draw a figure after printing their results."""
HUNG_AFTER = 60.0
"""Seconds after its SIGINT a run is killed and counted as hung."""


def _default_sigint() -> None:
    # A shell's background job starts with SIGINT ignored, and Python then keeps it ignored.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _problems(kind: str, returncode: int | None, out: str, err: str) -> list[str]:
    """What is wrong with how one interrupted run ended (empty: nothing)."""
    problems = []
    if returncode is None:
        return [f"hung: killed {HUNG_AFTER:.0f} s after its SIGINT"]
    if returncode != 130:
        problems.append(f"exit {returncode}")
    if "Traceback" in err or "Segmentation" in err or "Fatal Python" in err:
        problems.append("traceback")
    if kind in QUIET:
        if out or err.strip().splitlines()[-1:] != ["interrupted"]:
            problems.append("printed more than `interrupted`")
        return problems
    lines = out.splitlines()
    if not lines:
        return problems  # stopped before there was anything to print
    if kind == "hands":
        counted = re.search(r": ([\d,]+) hands \(interrupted\)$", lines[0])
        totals = next((line for line in lines if line.startswith("bags per side-hand")), "")
        if not counted or not totals or int(totals.split()[-1].replace(",", "")) != 2 * int(
                counted[1].replace(",", "")):
            problems.append("header's count is not the totals'")
    elif kind == "games" and not re.search(r": [\d,]+ games \(interrupted\)$", lines[0]):
        problems.append("header not marked interrupted")
    elif kind.startswith("hand") and kind != "hands":
        played = re.search(r"deals \(interrupted after ([\d,]+)\)$", lines[0])
        table = [line for line in lines[2:] if line.startswith(("strategy's choice", "nil"))]
        if len(table) != 2 or "best bid: " not in out:
            problems.append("no table of the deals finished")
        elif kind == "hand-dd" and "double-dummy view: not solved (interrupted)" not in lines:
            problems.append("the double-dummy view not marked interrupted")
        elif kind != "hand-dd" and not played:
            problems.append("header not marked interrupted")
    elif kind == "compare":
        pairs = re.search(r": ([\d,]+) deal sequences x 2 \(interrupted\)$", lines[0])
        if not pairs or (pairs[1] != "0") != any(line.startswith("win share") for line in lines):
            problems.append("header's pairs are not the table's")
    elif kind == "tune":
        settings = re.search(r": (\d+) settings x [\d,]+ deal sequences x 2 \(interrupted\)$",
                             lines[0])
        rows = [line for line in lines[1:] if line.startswith("bid_offset=")]
        if not settings or int(settings[1]) != len(rows):
            problems.append("header's settings are not the table's")
    return problems


def _reader(stream: IO[str], lines: list[str], first: list[float]) -> None:
    """Read ``stream`` to its end into ``lines``, noting when the first line came."""
    for line in stream:
        if not first:
            first.append(time.monotonic())
        lines.append(line)


def _one_run(kind: str, command: list[str], folder: str, delay: float, cold: bool
             ) -> tuple[int | None, str, str, float, float]:
    """Start ``command`` (``cold``: with an empty kernel cache of its own, so that it compiles
    every kernel it runs), send SIGINT after ``delay`` seconds; its exit code (None: hung and
    killed), stdout, stderr, the seconds to stop (to its first line of results, or its exit)
    and to exit."""
    environment = dict(os.environ)
    if cold:
        environment["NUMBA_CACHE_DIR"] = os.path.join(folder, "kernel-cache")
    process = subprocess.Popen(command, cwd=folder, stdout=subprocess.PIPE, env=environment,
                               stderr=subprocess.PIPE, text=True, preexec_fn=_default_sigint)
    out: list[str] = []
    err: list[str] = []
    first: list[float] = []
    readers = [threading.Thread(target=_reader, args=(process.stdout, out, first)),
               threading.Thread(target=_reader, args=(process.stderr, err, []))]
    for reader in readers:
        reader.start()
    time.sleep(delay)
    sent = time.monotonic()
    if process.poll() is not None:
        err.append("finished before its SIGINT\n")
    process.send_signal(signal.SIGINT)
    try:
        process.wait(timeout=HUNG_AFTER)
        returncode: int | None = process.returncode
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        returncode = None
    took = time.monotonic() - sent
    for reader in readers:
        reader.join()
    # A what-if prints its table, then draws its figure: it has stopped once the table is out.
    # The others print and exit: they have stopped when they have exited.
    drawn = kind in FIGURE_AFTER and first and first[0] >= sent
    stopped = first[0] - sent if drawn else took
    return returncode, "".join(out), "".join(err), stopped, took


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--earliest", type=float, default=0.5)
    parser.add_argument("--latest", type=float, default=6.0)
    parser.add_argument("--within", type=float, default=1.0)
    parser.add_argument("--cold", action="store_true",
                        help="each run compiles its kernels, in an empty cache of its own")
    parser.add_argument("--kinds", default=",".join(RUNS),
                        help=f"the runs to take turns, of {', '.join(RUNS)}")
    args = parser.parse_args()
    kinds = args.kinds.split(",")
    if not kinds or not set(kinds) <= set(RUNS):
        parser.error(f"--kinds={args.kinds!r}: allowed some of {', '.join(RUNS)}")
    rng = random.Random(args.seed)
    failed = 0
    codes: dict[str, Counter[str]] = defaultdict(Counter)
    longest: dict[str, float] = defaultdict(float)
    for index in range(args.runs):
        kind = kinds[index % len(kinds)]
        folder = tempfile.mkdtemp(prefix="spades-stress-")
        command = [sys.executable, "-m", "spades_sim", *RUNS[kind]]
        if kind in ("hands", "games") and rng.random() < 0.5:
            command += ["--save", os.path.join(folder, "run")]
        if kind == "report":
            command += ["--out-dir", folder]
        if kind in QUIET:
            _write_slow_log(os.path.join(folder, "slow.jsonl"))
        delay = rng.uniform(args.earliest, args.latest)
        returncode, out, err, stopped, took = _one_run(kind, command, folder, delay, args.cold)
        shutil.rmtree(folder, ignore_errors=True)
        problems = _problems(kind, returncode, out, err)
        if stopped > args.within:
            problems.append(f"took {stopped:.2f} s to stop")
        failed += bool(problems)
        codes[kind][str(returncode) if returncode is not None else "hung"] += 1
        longest[kind] = max(longest[kind], stopped)
        printed = f"{len(out.splitlines())} lines" if out else "nothing"
        print(f"{index:3d} {kind:<9} SIGINT at {delay:4.1f} s, stopped in {stopped:4.2f} s, "
              f"exited in {took:5.2f} s, exit {returncode}, printed {printed}  "
              f"{'; '.join(problems) or 'ok'}", flush=True)
        if problems and err.strip():  # what went wrong, in the run's own words
            for line in err.strip().splitlines()[-3:]:
                print(f"      {line[:160]}", flush=True)
    for kind in kinds:
        if codes[kind]:
            exits = ", ".join(f"exit {code}: {count}" for code, count in codes[kind].items())
            print(f"{kind:<9} {sum(codes[kind].values())} runs ({exits}), longest stop "
                  f"{longest[kind]:.2f} s")
    print(f"{args.runs} runs, {failed} with a problem")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

"""Press Ctrl-C at random moments in real runs of the long-running commands, and check each ends
as promised: exit 130, no traceback, what was finished printed, and the header's count equal
to the totals.

    python scripts/interrupt_stress.py --runs 200 --seed 1

The runs take turns: a hand run (``simulate --hands``, half of them saved with ``--save``), a
game run (``simulate --games``, likewise), a what-if (``hand``) and the default ``report``.
Each gets SIGINT after a random delay of ``--earliest`` to ``--latest`` seconds (so some land
while the libraries load, some while strategies are packed, most while the kernel runs) and
must stop within ``--within`` seconds: exit, or for ``hand`` print its table (it then draws
its figure of the deals finished, and exits once that is written). It prints
one line a run and a last line counting the runs with a problem; its exit code is 1 if there
was any. A stress script, not a test: 200 runs take about 15 minutes.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time

RUNS = {
    "hands": ["simulate", "--hands", "20000000", "--seed", "7", "--quiet"],
    "games": ["simulate", "--games", "400000", "--seed", "7", "--quiet"],
    "hand": ["hand", "AS 7S 3S 9H 8H 4H 2H QD 6D 3D 8C 5C 2C", "--score", "us=100,them=300",
             "--deals", "200000", "--seed", "1", "--quiet"],
    "report": ["report"],
}


def _default_sigint() -> None:
    # A shell's background job starts with SIGINT ignored, and Python then keeps it ignored.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _problems(kind: str, returncode: int, out: str, err: str) -> list[str]:
    """What is wrong with how one interrupted run ended (empty: nothing)."""
    problems = []
    if returncode != 130:
        problems.append(f"exit {returncode}")
    if "Traceback" in err or "Segmentation" in err or "Fatal Python" in err:
        problems.append("traceback")
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
    elif kind == "hand" and "(interrupted after " not in lines[0]:
        problems.append("no table of the deals finished")
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--earliest", type=float, default=0.5)
    parser.add_argument("--latest", type=float, default=6.0)
    parser.add_argument("--within", type=float, default=1.0)
    parser.add_argument("--kinds", default=",".join(RUNS),
                        help=f"the runs to take turns, of {', '.join(RUNS)}")
    args = parser.parse_args()
    kinds = args.kinds.split(",")
    if not kinds or not set(kinds) <= set(RUNS):
        parser.error(f"--kinds={args.kinds!r}: allowed some of {', '.join(RUNS)}")
    rng = random.Random(args.seed)
    failed = 0
    for index in range(args.runs):
        kind = kinds[index % len(kinds)]
        folder = tempfile.mkdtemp(prefix="spades-stress-")
        command = [sys.executable, "-m", "spades_sim", *RUNS[kind]]
        if kind in ("hands", "games") and rng.random() < 0.5:
            command += ["--save", os.path.join(folder, "run")]
        if kind == "report":
            command += ["--out-dir", folder]
        delay = rng.uniform(args.earliest, args.latest)
        process = subprocess.Popen(command, cwd=folder, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True, preexec_fn=_default_sigint)
        time.sleep(delay)
        sent = time.monotonic()
        process.send_signal(signal.SIGINT)
        # hand prints its table, then draws its figure: it has stopped once the table is out.
        first = process.stdout.readline() if kind == "hand" else ""
        answered = time.monotonic() - sent
        # The rest through the same buffered reader: communicate() reads the pipe itself and
        # would miss the lines readline() has already buffered.
        rest = process.stdout.read()
        err = process.stderr.read()
        process.wait(timeout=300)
        took, out = time.monotonic() - sent, first + rest
        if kind != "hand":
            answered = took
        problems = _problems(kind, process.returncode, out, err)
        if answered > args.within:
            problems.append(f"took {answered:.2f} s to stop")
        failed += bool(problems)
        printed = f"{len(out.splitlines())} lines" if out else "nothing"
        print(f"{index:3d} {kind:<6} SIGINT at {delay:4.1f} s, stopped in {answered:4.2f} s, "
              f"exited in {took:4.2f} s, exit {process.returncode}, printed {printed}  "
              f"{'; '.join(problems) or 'ok'}", flush=True)
        if problems and err.strip():  # what went wrong, in the run's own words
            for line in err.strip().splitlines()[-3:]:
                print(f"      {line[:160]}", flush=True)
    print(f"{args.runs} runs, {failed} with a problem")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

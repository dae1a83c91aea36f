"""Stopping a double-dummy search part-way: the search's stop flag, DoubleDummy.stop, and Ctrl-C
sent to a real `dd` and `review` on a question that takes minutes.

The slow hand is hand 522 of `expert-v1` self-play, seed 1 (docs/double-dummy.md, "Speed"):
dealer 0, bids 0 (nil), 4, 1, 5. The best score difference from its first position took more
than nine minutes; every test here stops it within a fraction of a second.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from refereeplay import auto_finish, log_of, write_lines

from spades_sim.cards import mask_of, parse_cards
from spades_sim.kernel import drivers
from spades_sim.kernel.dd_search import MODE_TRICKS, _reach_root
from spades_sim.kernel.double_dummy import DoubleDummy, Position, SearchStopped
from spades_sim.referee import Hand
from spades_sim.rules import RuleSet

SLOW_HANDS = ("2C 4C 7C 8C 9C 2D 7D KD 3H 6H 9H 10H 4S",
              "6C QC 5D 6D 9D QD 2H JH 3S 6S 9S QS AS",
              "5C 10C KC 3D 10D 4H 7H 8H QH KH 5S 8S 10S",
              "3C JC AC 4D 8D JD AD 5H AH 2S 7S JS KS")
SLOW_BIDS = (0, 4, 1, 5)
LEADER = 1  # dealer 0: seat 1 bids first and leads


def slow_position() -> Position:
    return Position.deal([mask_of(parse_cards(text)) for text in SLOW_HANDS], LEADER)


def test_a_search_with_the_flag_set_returns_cut_off_and_stores_nothing() -> None:
    """The search reads the flag at every node: set before it starts, the search returns at
    once and writes nothing to the solver's tables; cleared, the same solver's answer is a
    fresh solver's."""
    solver = DoubleDummy("standard")
    position = slow_position()
    state = solver._state(position, solver._layout)
    arguments = (*state, 7, solver._cfg(MODE_TRICKS, 0b1010, 0b1010, 1), *solver._tables(),
                 *solver._no_score())
    drivers.load_kernel(_reach_root, *arguments)  # compiled or loaded before it is timed
    solver._stop[0] = 1
    started = time.perf_counter()
    assert not _reach_root(*arguments)
    assert time.perf_counter() - started < 0.5
    assert not solver._keys.any() and not solver._cuts.any() and not solver._shapes.any()
    solver._stop[0] = 0
    assert solver.tricks(position, 1) == DoubleDummy("standard").tricks(position, 1)


def test_stop_cuts_off_a_slow_question_and_the_solver_stays_exact() -> None:
    """DoubleDummy.stop from another thread: the question in progress raises SearchStopped
    within a fraction of a second, and what the cut-off search left in the tables changes no
    later answer."""
    solver = DoubleDummy("standard")
    position = slow_position()
    timer = threading.Timer(0.5, solver.stop)
    timer.start()
    started = time.perf_counter()
    with pytest.raises(SearchStopped):
        solver.score_value(position, SLOW_BIDS, side=1)
    assert time.perf_counter() - started < 1.5
    assert solver._stop[0] == 0  # ready for the next question
    fresh = DoubleDummy("standard")
    late = position
    for _ in range(36):  # nine tricks of lowest legal cards: a position the search went through
        late = late.play(late.legal("standard")[0], "standard")
    assert (solver.score_value(late, SLOW_BIDS, side=1)
            == fresh.score_value(late, SLOW_BIDS, side=1))
    assert solver.tricks(position, 1) == fresh.tricks(position, 1)


@pytest.mark.parametrize("command", [["dd", "--log"], ["review"]])
def test_ctrl_c_stops_a_slow_question_at_once(tmp_path: Path, command: list[str]) -> None:
    """A real `dd` (the hand's score question, minutes long) and `review` get SIGINT two
    seconds in: `interrupted`, nothing else printed, exit 130, within 1.5 s of the signal."""
    hand = Hand(RuleSet(), 0, [parse_cards(text) for text in SLOW_HANDS])
    for offset, bid in enumerate((4, 1, 5, 0)):
        hand.bid((LEADER + offset) % 4, bid)
    log = write_lines(tmp_path, [log_of(auto_finish(hand))])
    process = subprocess.Popen([sys.executable, "-m", "spades_sim", *command, str(log)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(2.0)
    assert process.poll() is None  # still on its first question
    sent = time.monotonic()
    process.send_signal(signal.SIGINT)
    try:
        out, err = process.communicate(timeout=30)
    finally:
        process.kill()
    stopped = time.monotonic() - sent
    # (click ends the line it may be on before the one word)
    assert (process.returncode, out, err.lstrip("\n")) == (130, "", "interrupted\n")
    assert stopped < 1.5, stopped

"""The kernel's drivers: allocate the outputs, cut the work into chunks, run them on threads.

The kernel's chunk functions (``engine._hands_chunk``, ``_games_chunk`` and
``_what_if_chunk``) release the GIL and each writes only its own rows of outputs allocated
here, so a pool of Python threads keeps every core busy and the result does not depend on
the number of threads or on which chunk runs first. Spreading the chunks from Python rather
than in a numba ``parallel=True`` loop does two things:

- the kernel compiles three functions fewer (a parallel loop compiles slowly, and each
  re-optimises the whole hand kernel it calls);
- Ctrl-C is taken between chunks. While a driver runs, the SIGINT handler only notes the
  request (a KeyboardInterrupt raised while numba is unboxing arguments or boxing results
  can crash the process); the driver raises it between chunks, after the running chunks
  finish (a few milliseconds each), and starts no more, so no thread is left inside the
  kernel when the process exits. Each kernel is compiled, or loaded from numba's cache, before
  the request is held (:func:`load_kernel`): loading the hand kernel takes a few tenths of a
  second, and Ctrl-C meanwhile is an ordinary KeyboardInterrupt in Python code.
"""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager

import numba
import numpy as np

from . import engine

CHUNK_HANDS = 1024
"""Hands per chunk; results do not depend on it."""
CHUNK_GAMES = 32
"""Games per chunk; results do not depend on it."""
CHUNK_DEALS = 16
"""Deals per chunk of a what-if; results do not depend on it."""



class RunError(ValueError):
    """A bad run setting (count, seed, threads)."""


def cores() -> int:
    """The most threads a run may use: the cores numba sees (``NUMBA_NUM_THREADS``)."""
    return numba.config.NUMBA_NUM_THREADS


_threads = [cores()]


def set_threads(threads: int | None) -> int:
    """Set the number of threads later runs use (None: all cores) and return it."""
    most = cores()
    if threads is None:
        threads = most
    if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= most:
        raise RunError(f"threads={threads!r}: allowed 1 to {most} on this machine")
    _threads[0] = threads
    return threads


def threads() -> int:
    """The number of threads runs use now."""
    return _threads[0]


def _takes_sigint() -> bool:
    """Whether this thread may change the SIGINT handler: the main thread of a process whose
    SIGINT raises KeyboardInterrupt (a Dask worker's thread, or a run with SIGINT ignored,
    keeps its own)."""
    return (threading.current_thread() is threading.main_thread()
            and signal.getsignal(signal.SIGINT) is signal.default_int_handler)


@contextmanager
def interrupts_held() -> Iterator[Callable[[], None]]:
    """Hold Ctrl-C inside the block (the kernel's run, or a step that must not be cut in two);
    yields the check that raises it at a safe point, and raises it on leaving the block.

    Only the main thread of a process whose SIGINT raises KeyboardInterrupt changes the
    handler (a Dask worker's thread, or a run with SIGINT ignored, keeps its own).
    """
    if not _takes_sigint():
        yield lambda: None
        return
    requested: list[int] = []

    def check() -> None:
        if requested:
            raise KeyboardInterrupt

    signal.signal(signal.SIGINT, lambda signum, frame: requested.append(signum))
    try:
        yield check
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    check()


@contextmanager
def interrupts_noted() -> Iterator[None]:
    """Let Ctrl-C raise at once inside the block, as usual, and also note it, so that a
    KeyboardInterrupt that Python swallows is raised again when the block ends: one raised
    while a finaliser runs is printed as "Exception ignored" and dropped, and numba's compiler
    makes and drops many objects. Only the main thread of a process whose SIGINT raises
    KeyboardInterrupt changes the handler (as in :func:`interrupts_held`)."""
    if not _takes_sigint():
        yield
        return
    requested: list[int] = []
    unraisable = sys.unraisablehook

    def note_and_raise(signum: int, frame: object) -> None:
        requested.append(signum)
        raise KeyboardInterrupt

    def quietly(hook_args) -> None:  # the swallowed interrupt is raised again below: no notice
        if not isinstance(hook_args.exc_value, KeyboardInterrupt):
            unraisable(hook_args)

    signal.signal(signal.SIGINT, note_and_raise)
    sys.unraisablehook = quietly
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
        sys.unraisablehook = unraisable
    if requested:
        raise KeyboardInterrupt


def load_kernel(kernel, *args) -> None:
    """Compile ``kernel`` (a numba dispatcher) for the types of ``args``, or load it from the
    cache, without running it; call it before :func:`interrupts_held` so that Ctrl-C while it
    loads is taken at once (:func:`interrupts_noted`: never lost)."""
    with interrupts_noted():
        kernel.compile(tuple(numba.typeof(arg) for arg in args))


def _load_for(kernel, arguments: Callable[[int, int], tuple]) -> None:
    """:func:`load_kernel` for the arguments of an empty chunk, ``arguments(0, 0)``, made with
    Ctrl-C held (they hold numba-made scratch arrays, and numba must not be interrupted while
    it boxes them)."""
    with interrupts_held():
        sample = arguments(0, 0)
    load_kernel(kernel, *sample)


def run_chunks(count: int, chunk: int, play: Callable[[int, int], None],
               check: Callable[[], None] = lambda: None) -> None:
    """Call ``play(lo, hi)`` on ranges of at most ``chunk`` items that cover ``0 … count - 1``,
    on :func:`threads` threads, calling ``check`` after each.

    ``play`` must write only rows ``lo … hi - 1`` of its outputs. When ``check`` raises (Ctrl-C)
    or a chunk does, no further chunk starts, the running ones finish, and the exception goes on.
    """
    ranges = [(lo, min(count, lo + chunk)) for lo in range(0, count, chunk)]
    workers = min(threads(), len(ranges))
    if workers <= 1:
        for lo, hi in ranges:
            play(lo, hi)
            check()
        return
    pool = ThreadPoolExecutor(workers, thread_name_prefix="spades-sim")
    try:
        for future in [pool.submit(play, lo, hi) for lo, hi in ranges]:
            future.result()
            check()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def play_hands(packed, strat, seed: int, start: int, count: int, write_trace: bool = False):
    """Hands ``start … start + count - 1`` of a hand run: their records and traces (left
    zero without ``write_trace``)."""
    with interrupts_held():  # numba allocates and boxes the outputs
        out, trace = engine._empty_hand_outputs(packed, count)

    def arguments(lo: int, hi: int) -> tuple:
        return (packed, strat, seed, start, lo, hi, engine._new_scratch(packed), out, trace,
                write_trace)

    _load_for(engine._hands_chunk, arguments)
    with interrupts_held() as check:
        run_chunks(count, CHUNK_HANDS, lambda lo, hi: engine._hands_chunk(*arguments(lo, hi)),
                   check)
    return out, trace


def play_games(packed, strat, seed: int, start: int, count: int, max_hands: int):
    """Game records of games ``start … start + count - 1`` (no hand records)."""
    with interrupts_held():
        games = engine._empty_game_records(count, packed.side_count)
        no_hands, no_trace = engine._empty_hand_outputs(packed, 0)

    def arguments(lo: int, hi: int) -> tuple:
        return (packed, strat, seed, start, lo, hi, max_hands, engine._new_scratch(packed), games,
                False, 0, no_hands, no_trace)

    _load_for(engine._games_chunk, arguments)
    with interrupts_held() as check:
        run_chunks(count, CHUNK_GAMES, lambda lo, hi: engine._games_chunk(*arguments(lo, hi)),
                   check)
    return games


def _consecutive_runs(ids: np.ndarray) -> list[tuple[int, int]]:
    """``(lo, hi)`` row ranges of ``ids`` whose values go up by one."""
    breaks = np.flatnonzero(np.diff(ids) != 1) + 1
    edges = [0, *breaks.tolist(), ids.size]
    return [(lo, hi) for lo, hi in zip(edges[:-1], edges[1:]) if hi > lo]


def trace_hands(packed, strat, seed: int, deals: np.ndarray):
    """Replay hands ``deals`` (hand-run indices) of a hand run: their records and traces."""
    with interrupts_held():
        out, trace = engine._empty_hand_outputs(packed, deals.size)
        s = engine._new_scratch(packed)
    load_kernel(engine._hands_chunk, packed, strat, seed, 0, 0, 0, s, out, trace, True)
    with interrupts_held() as check:
        for lo, hi in _consecutive_runs(deals):
            engine._hands_chunk(packed, strat, seed, int(deals[lo]) - lo, lo, hi, s, out, trace,
                                True)
            check()
    return out, trace


def trace_games(packed, strat, seed: int, game_ids: np.ndarray, max_hands: int):
    """Replay games ``game_ids``: their game records, and every hand's record and trace."""
    runs = _consecutive_runs(game_ids)
    with interrupts_held():
        games = engine._empty_game_records(game_ids.size, packed.side_count)
        s = engine._new_scratch(packed)
        no_hands = engine._empty_hand_outputs(packed, 0)
    load_kernel(engine._games_chunk, packed, strat, seed, 0, 0, 0, max_hands, s, games, True, 0,
                *no_hands)
    with interrupts_held() as check:

        def replay(write_hands: bool, hands_out, trace_out) -> int:
            row = 0
            for lo, hi in runs:
                row = engine._games_chunk(packed, strat, seed, int(game_ids[lo]) - lo, lo, hi,
                                          max_hands, s, games, write_hands, row, hands_out,
                                          trace_out)
                check()
            return row

        rows = replay(False, *engine._empty_hand_outputs(packed, 0))
        out, trace = engine._empty_hand_outputs(packed, rows)
        replay(True, out, trace)
    return games, out, trace


def what_if_grid(packed, strat, seed: int, deals: np.ndarray, dealer: int, hand_index: int,
                 hero: int, forced_bids: np.ndarray, candidates: np.ndarray, score: np.ndarray,
                 bag_total: np.ndarray, max_hands: int):
    """Every candidate bid of ``hero`` on every completion in ``deals``, played to the game's
    end: the arrays (made, points, won, valid, hero_bid), one row a deal and one column a
    candidate, as ``engine._what_if_chunk`` writes them, and ``finished``, which rows were
    played: all of them, unless Ctrl-C stopped the run (it is not raised then)."""
    shape = (deals.shape[0], candidates.size)
    made, points = np.zeros(shape, np.int8), np.zeros(shape, np.int32)
    won, valid = np.zeros(shape, np.int8), np.zeros(shape, np.int8)
    hero_bid = np.zeros(shape, np.int8)
    finished = np.zeros(deals.shape[0], np.bool_)

    def arguments(lo: int, hi: int) -> tuple:
        return (packed, strat, seed, deals, dealer, hand_index, hero, forced_bids, candidates,
                score, bag_total, max_hands, lo, hi, engine._new_scratch(packed), made, points,
                won, valid, hero_bid)

    def play(lo: int, hi: int) -> None:
        engine._what_if_chunk(*arguments(lo, hi))
        finished[lo:hi] = True

    _load_for(engine._what_if_chunk, arguments)
    try:
        with interrupts_held() as check:
            run_chunks(deals.shape[0], CHUNK_DEALS, play, check)
    except KeyboardInterrupt:
        pass  # every candidate of a finished row was played: the caller keeps those rows
    return made, points, won, valid, hero_bid, finished


__all__ = ["CHUNK_DEALS", "CHUNK_GAMES", "CHUNK_HANDS", "RunError", "cores", "interrupts_held",
           "interrupts_noted", "load_kernel", "play_games", "play_hands", "run_chunks",
           "set_threads", "threads", "trace_games", "trace_hands", "what_if_grid"]

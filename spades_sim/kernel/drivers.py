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

import itertools
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager

import numba
import numpy as np

from . import engine, user_policies, warmup
from .packing import PackedRules, PackedStrategies
from .sums import (
    HAND_UNIT_COLUMNS,
    SUMS,
    UNIT_SEAT_TYPES,
    UNIT_SIDE_TYPES,
    _hand_metric_sums,
    _hand_unit_table,
    _metric_sums,
)

CHUNK_HANDS = 4096
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


def check_threads(threads: int | None) -> int:
    """The number of threads a run would use (None: all cores), refused unless 1 to the
    machine's cores; changes nothing, so a command can check it before any work."""
    most = cores()
    if threads is None:
        threads = most
    if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= most:
        raise RunError(f"threads={threads!r}: allowed 1 to {most} on this machine")
    return threads


def set_threads(threads: int | None) -> int:
    """Set the number of threads later runs use (None: all cores) and return it."""
    _threads[0] = check_threads(threads)
    return _threads[0]


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
def interrupts_held(on_interrupt: Callable[[], None] | None = None
                    ) -> Iterator[Callable[[], None]]:
    """Hold Ctrl-C inside the block (the kernel's run, or a step that must not be cut in two);
    yields the check that raises it at a safe point, and raises it on leaving the block.
    ``on_interrupt`` is called when Ctrl-C comes (on this thread, while it runs Python code or
    waits for another thread): to tell a kernel running on another thread to stop.

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

    def note(signum: int, frame: object) -> None:
        requested.append(signum)
        if on_interrupt is not None:
            on_interrupt()

    signal.signal(signal.SIGINT, note)
    try:
        yield check
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    check()


@contextmanager
def interrupts_noted() -> Iterator[None]:
    """Let Ctrl-C raise at once inside the block, as usual, even where Python swallows it.

    A KeyboardInterrupt raised inside a callback from C (llvmlite hands numba each compiled
    object through one) or a finaliser (numba's compiler makes and drops many objects) is
    printed as "Exception ignored" and dropped, and the compile would go on for tens of
    seconds. Such a swallowed interrupt is raised again by a profile hook on the next Python
    call or return the main thread makes, so at once and where nothing swallows it (no second
    signal, which could land after the block); whatever else the block raises once Ctrl-C has
    come (numba's state left half-made by it) is raised as KeyboardInterrupt. Only the main
    thread of a process whose SIGINT raises KeyboardInterrupt changes the handler (as in
    :func:`interrupts_held`)."""
    if not _takes_sigint():
        yield
        return
    requested: list[int] = []
    unraisable = sys.unraisablehook

    def note_and_raise(signum: int, frame: object) -> None:
        requested.append(signum)
        raise KeyboardInterrupt

    def raise_again(frame, event: str, arg: object) -> None:
        if frame.f_code is again.__code__:  # still inside the hook that set it
            return
        sys.setprofile(None)
        raise KeyboardInterrupt

    def again(hook_args) -> None:
        if not isinstance(hook_args.exc_value, KeyboardInterrupt):
            unraisable(hook_args)
            return
        # Not from here: raised inside this hook, it would be dropped too.
        sys.setprofile(raise_again)

    signal.signal(signal.SIGINT, note_and_raise)
    sys.unraisablehook = again
    try:
        yield
    except BaseException as error:
        if requested and not isinstance(error, KeyboardInterrupt):
            raise KeyboardInterrupt from error
        raise
    finally:
        if sys.getprofile() is raise_again:
            sys.setprofile(None)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        sys.unraisablehook = unraisable
    if requested:
        raise KeyboardInterrupt


COMPILE_NOTICE_AFTER = 1.0
"""Seconds a kernel may take to load before it is taken to be compiling (a load from numba's
cache takes a few tenths of a second; a compile, tens of seconds)."""

_compile_notice: list[Callable[[str], None] | None] = [None]


def set_compile_notice(notice: Callable[[str], None] | None) -> None:
    """Have ``notice(text)`` called (from another thread) when a kernel is being compiled
    rather than loaded from the cache, as on the first run after installing or changing the
    kernel, and again when it is done; None: no notices (the default)."""
    _compile_notice[0] = notice


_HAND_KERNELS = {engine._hands_chunk: "hands", engine._games_chunk: "games",
                 engine._what_if_chunk: "what-if"}
"""The kernels that play hands, by kind: on a first run their callees compile side by side
(:func:`spades_sim.kernel.warmup.compile_callees`) before them."""


def load_kernel(kernel, *args) -> None:
    """Compile ``kernel`` (a numba dispatcher) for the types of ``args``, or load it from the
    cache, without running it; call it before :func:`interrupts_held` so that Ctrl-C while it
    loads is taken at once (:func:`interrupts_noted`: never lost). A load that takes longer
    than :data:`COMPILE_NOTICE_AFTER` is a compile: the notice (:func:`set_compile_notice`)
    says so, and how long it took. A kernel that plays hands and is not cached has the
    hand's largest callees compiled first, on two cores when the run has two threads."""
    notice = _compile_notice[0]
    told = threading.Event()

    def tell() -> None:
        told.set()
        if notice is not None:
            notice(f"compiling the kernel ({kernel.__name__}) for this machine, once: tens of "
                   "seconds; later runs load it from the cache")

    signature = tuple(numba.typeof(arg) for arg in args)
    timer = threading.Timer(COMPILE_NOTICE_AFTER, tell)
    timer.daemon = True
    start = time.perf_counter()
    if notice is not None:
        timer.start()
    users = user_policies.carried(args[1]) if len(args) > 1 else ()
    try:
        with interrupts_noted(), user_policies.compiling(users):
            # A user's policies compile in this process only (a helper could not load them).
            if kernel in _HAND_KERNELS and not users and signature not in kernel.overloads \
                    and not warmup.in_cache(kernel, signature):
                warmup.compile_callees(args[0], args[1], threads() > 1, _HAND_KERNELS[kernel])
            kernel.compile(signature)
    except numba.core.errors.NumbaError as error:
        if not users:
            raise
        # A user policy that numba cannot compile in the hand (the kernel itself compiles).
        names = " or ".join(user.spec for user in users)
        raise RunError(f"policy={names!r}: allowed a policy whose functions compile in the "
                       f"kernel's hand ({user_policies.compile_fault(error)})") from None
    finally:
        timer.cancel()
    if told.is_set() and notice is not None:
        notice(f"compiled {kernel.__name__} in {time.perf_counter() - start:.0f} s")


_loaded: set[tuple] = set()
"""The kernels :func:`_load_once` loaded, each with the kinds of arguments
(:func:`_argument_kinds`) it was loaded for."""


def _argument_kinds(value) -> object:
    """What numba's type of an argument follows from, cheaply: a tuple's class and its items'
    kinds, an array's dtype, dimensions and flags (contiguity, writeable, aligned...), else the
    value's class. Typing the packed tuples' hundred-odd arrays with ``numba.typeof`` took a
    few milliseconds a block, with both kernel threads idle."""
    if isinstance(value, np.ndarray):
        return value.dtype, value.ndim, value.flags.num
    if isinstance(value, tuple):
        return type(value), tuple(_argument_kinds(item) for item in value)
    return type(value)


def _load_for(kernel, arguments: Callable[[int, int], tuple]) -> None:
    """:func:`load_kernel` for the arguments of an empty chunk, ``arguments(0, 0)``, made with
    Ctrl-C held (they hold numba-made scratch arrays, and numba must not be interrupted while
    it boxes them), once (:func:`_load_once`)."""
    with interrupts_held():
        sample = arguments(0, 0)
    _load_once(kernel, *sample)


def _load_once(kernel, *args) -> None:
    """:func:`load_kernel` once a process for arguments of the same kinds (every block of a
    run, and runs at the same table, pass the same)."""
    key = (kernel, _argument_kinds(args))
    if key not in _loaded:
        load_kernel(kernel, *args)
        _loaded.add(key)


def run_chunks(count: int, chunk: int, play: Callable[[int, int], None],
               check: Callable[[], None] = lambda: None, workers: int | None = None,
               finish_running: bool = True) -> None:
    """Call ``play(lo, hi)`` on ranges of at most ``chunk`` items that cover ``0 … count - 1``,
    on ``workers`` threads (default: :func:`threads`), calling ``check`` after each, and every
    :data:`CHECK_EVERY` seconds while one runs.

    ``play`` must write only rows ``lo … hi - 1`` of its outputs. When ``check`` raises (Ctrl-C)
    or a chunk does, no further chunk starts and the exception goes on once the running chunks
    finish; without ``finish_running``, at once, the running chunks finishing on their threads
    (for chunks that may run for seconds: their outputs must be dropped, and the process exits
    only when they end; a single worker runs on a thread of its own too, so that this thread
    runs the SIGINT handler while a chunk runs, as :func:`interrupts_held`'s ``on_interrupt``
    needs to tell a kernel to stop).
    """
    ranges = [(lo, min(count, lo + chunk)) for lo in range(0, count, chunk)]
    workers = min(workers or threads(), len(ranges))
    if workers <= 1 and finish_running:
        for lo, hi in ranges:
            play(lo, hi)
            check()
        return
    pool = ThreadPoolExecutor(workers, thread_name_prefix="spades-sim")
    done = False
    try:
        for future in [pool.submit(play, lo, hi) for lo, hi in ranges]:
            while True:
                try:
                    future.result(timeout=CHECK_EVERY)
                    break
                except TimeoutError:
                    check()
            check()
        done = True
    finally:
        pool.shutdown(wait=done or finish_running, cancel_futures=True)


CHECK_EVERY = 0.02
"""Seconds between checks for Ctrl-C while :func:`run_chunks` waits for a chunk."""

_stoppable_loaded: set[object] = set()
_watched: list[np.ndarray | None] = [None]
"""The stop flag of the search running on the main thread (:func:`run_stoppable`), if any."""
_wakeup: list[socket.socket] = []


def _watch_wakeups(reader: socket.socket) -> None:
    """Set the running search's stop flag on SIGINT: Python's own signal handler writes the
    signal's number to the wakeup socket at once, even while the main thread is inside the
    kernel (it runs the Python-level handler only when the kernel returns)."""
    while True:
        numbers = reader.recv(64)
        if not numbers:
            return
        stop = _watched[0]
        if signal.SIGINT in numbers and stop is not None:
            stop.fill(1)


def _wakeup_fd() -> int:
    """The write end of the wakeup socket, its watcher thread started on first use."""
    if not _wakeup:
        reader, writer = socket.socketpair()
        writer.setblocking(False)
        _wakeup.extend((reader, writer))
        threading.Thread(target=_watch_wakeups, args=(reader,), daemon=True,
                         name="spades-sim-stop").start()
    return _wakeup[1].fileno()


def run_stoppable(kernel, stop: np.ndarray, *args):
    """``kernel(*args)`` for a kernel that releases the GIL and returns at once, cut off, when
    another thread sets ``stop[0]`` (the double-dummy search:
    :func:`spades_sim.kernel.dd_search._reach_root`), with Ctrl-C acted on while it runs. On
    the main thread of a process whose SIGINT raises KeyboardInterrupt, Ctrl-C is held while
    the kernel runs and also sets ``stop[0]``, from a watcher thread woken through
    ``signal.set_wakeup_fd`` (the main thread, inside the kernel, runs no Python code): the
    kernel returns within milliseconds and KeyboardInterrupt is raised, its result dropped
    (the caller clears ``stop``). Elsewhere only whoever sets ``stop`` stops it. The kernel is
    compiled, or loaded from the cache, on its first call, before Ctrl-C is held
    (:func:`load_kernel`)."""
    if kernel not in _stoppable_loaded:
        load_kernel(kernel, *args)
        _stoppable_loaded.add(kernel)
    if not _takes_sigint():
        return kernel(*args)
    with interrupts_held(lambda: stop.fill(1)):  # raises KeyboardInterrupt on leaving
        _watched[0] = stop
        previous = signal.set_wakeup_fd(_wakeup_fd(), warn_on_full_buffer=False)
        try:
            return kernel(*args)
        finally:
            signal.set_wakeup_fd(previous)
            _watched[0] = None


def _check_inputs(rules, strategies, seed: int) -> None:
    """Refuse what the kernel cannot take: it reads the packed tuples field by field, and a seed
    outside ``0 … 2**63 - 1`` would wrap silently in its counters."""
    if not isinstance(rules, PackedRules):
        raise TypeError(f"rules: a PackedRules (packing.pack_rules) expected, not {type(rules).__name__}")
    if not isinstance(strategies, PackedStrategies):
        raise TypeError("strategies: a PackedStrategies (strategies.pack_strategies) expected, "
                        f"not {type(strategies).__name__}")
    if strategies.bid_policy.shape[0] != rules.seat_count:
        raise ValueError(f"strategies: {strategies.bid_policy.shape[0]} seats packed for a table "
                         f"of {rules.seat_count}")
    check_seed(seed)


def check_seed(seed: int) -> None:
    """Refuse a seed that is not a whole number from 0 to 2**63 - 1 (the kernel's counters
    take 63 bits)."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise RunError(f"seed={seed!r}: allowed a whole number from 0 to 2**63-1")


def _check_range(name: str, value: int) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
        raise RunError(f"{name}={value!r}: allowed a whole number of at least 0")


def _ids(name: str, ids) -> np.ndarray:
    ids = np.ascontiguousarray(ids, dtype=np.int64)
    if ids.ndim != 1 or (ids.size and ids.min() < 0):
        raise RunError(f"{name}: allowed a 1-D sequence of indices of at least 0")
    return ids


def play_hands(*, rules, strategies, seed: int, start: int, count: int, trace: bool = False,
               through: str = "records", features: bool = True):
    """Play hands ``start … start + count - 1`` of a hand run (each from 0–0, dealer seat 0).

    Parameters
    ----------
    rules : PackedRules
        The table, from :func:`spades_sim.kernel.packing.pack_rules`.
    strategies : PackedStrategies
        Every seat's strategy, from :func:`spades_sim.kernel.strategies.pack_strategies`.
    seed : int
        The run's seed, ``0 … 2**63 - 1``; hand ``i`` is a pure function of ``(seed, i)``.
    start, count : int
        The first hand index and the number of hands.
    trace : bool
        Also write every hand's trace (the cards dealt, passed and played; who bid, passed and
        led).
    through : {"deal", "bidding", "play", "scoring", "records"}
        The last rule step each hand runs ("bidding" includes the blind-nil exchange). Before
        "records" (the default: the whole hand) nothing is written and the outputs stay zero:
        the steps are there to time the real pipeline a step at a time (``scripts/bench.py``).
    features : bool
        Also write each seat's hand features (``spades`` … ``nil_risk``); a run that keeps only
        its totals does without (they were about 6% of a ``random`` run's time).

    Returns
    -------
    records : HandRecords
        One row per hand: int8/int32/int64 arrays of shape ``(count,)``, ``(count, seats)`` or
        ``(count, sides)`` (see :class:`spades_sim.kernel.outputs.HandRecords`).
    hand_trace : HandTrace
        One row per hand, shape ``(count, …)``; all zero unless ``trace``.
    """
    _check_inputs(rules, strategies, seed)
    _check_range("start", start)
    _check_range("count", count)
    if through not in engine.STEPS:
        raise RunError(f"through={through!r}: allowed one of {', '.join(engine.STEPS)}")
    step = engine.STEPS[through]
    with interrupts_held():  # numba allocates and boxes the outputs
        out, hand_trace = engine._empty_hand_outputs(rules, count)

    def arguments(lo: int, hi: int) -> tuple:
        return (rules, strategies, seed, start, lo, hi, engine._new_scratch(rules), out,
                hand_trace, trace, step, features)

    _load_for(engine._hands_chunk, arguments)
    with interrupts_held() as check:
        run_chunks(count, CHUNK_HANDS, lambda lo, hi: engine._hands_chunk(*arguments(lo, hi)),
                   check)
    return out, hand_trace


def play_games(*, rules, strategies, seed: int, start: int, count: int, max_hands: int):
    """Play games ``start … start + count - 1`` of a game run to their end.

    Parameters
    ----------
    rules : PackedRules
    strategies : PackedStrategies
    seed : int
        ``0 … 2**63 - 1``; game ``g`` is a pure function of ``(seed, g)``.
    start, count : int
        The first game index and the number of games.
    max_hands : int
        A game still undecided after this many hands is recorded as unfinished.

    Returns
    -------
    GameRecords
        One row per game: arrays of shape ``(count,)`` or ``(count, sides)`` (see
        :class:`spades_sim.kernel.outputs.GameRecords`).
    """
    _check_inputs(rules, strategies, seed)
    _check_range("start", start)
    _check_range("count", count)
    _check_range("max_hands", max_hands)
    with interrupts_held():
        games = engine._empty_game_records(count, rules.side_count)
        no_hands, no_trace = engine._empty_hand_outputs(rules, 0)

    def arguments(lo: int, hi: int) -> tuple:
        return (rules, strategies, seed, start, lo, hi, max_hands, engine._new_scratch(rules),
                games, False, 0, no_hands, no_trace)

    _load_for(engine._games_chunk, arguments)
    with interrupts_held() as check:
        run_chunks(count, CHUNK_GAMES, lambda lo, hi: engine._games_chunk(*arguments(lo, hi)),
                   check)
    return games


def _consecutive_runs(ids: np.ndarray, most: int) -> list[tuple[int, int]]:
    """``(lo, hi)`` row ranges of ``ids`` whose values go up by one, of at most ``most`` rows
    (a kernel call each, Ctrl-C taken between them)."""
    breaks = np.flatnonzero(np.diff(ids) != 1) + 1
    edges = [0, *breaks.tolist(), ids.size]
    return [(start, min(start + most, hi)) for lo, hi in itertools.pairwise(edges)
            for start in range(lo, hi, most)]


def trace_hands(*, rules, strategies, seed: int, deals):
    """Replay hands ``deals`` of a hand run, with their traces.

    Parameters
    ----------
    rules : PackedRules
    strategies : PackedStrategies
    seed : int
    deals : array_like of int
        Hand indices of the run, shape ``(n,)``; any order, repeats allowed.

    Returns
    -------
    records : HandRecords
        Row ``k`` is hand ``deals[k]``, bit for bit as :func:`play_hands` plays it.
    hand_trace : HandTrace
        Row ``k`` is that hand's trace.
    """
    _check_inputs(rules, strategies, seed)
    deals = _ids("deals", deals)
    with interrupts_held():
        out, hand_trace = engine._empty_hand_outputs(rules, deals.size)
        s = engine._new_scratch(rules)
    whole_hand = engine.STEP_RECORDS
    load_kernel(engine._hands_chunk, rules, strategies, seed, 0, 0, 0, s, out, hand_trace, True,
                whole_hand, True)
    with interrupts_held() as check:
        for lo, hi in _consecutive_runs(deals, CHUNK_HANDS):
            engine._hands_chunk(rules, strategies, seed, int(deals[lo]) - lo, lo, hi, s, out,
                                hand_trace, True, whole_hand, True)
            check()
    return out, hand_trace


def trace_games(*, rules, strategies, seed: int, games, max_hands: int):
    """Replay games ``games`` of a game run, with every hand's record and trace.

    Parameters
    ----------
    rules : PackedRules
    strategies : PackedStrategies
    seed : int
    games : array_like of int
        Game indices of the run, shape ``(n,)``.
    max_hands : int
        As in :func:`play_games`.

    Returns
    -------
    game_records : GameRecords
        Row ``k`` is game ``games[k]``.
    records : HandRecords
        Every hand of those games, game after game, shape ``(hands, …)``.
    hand_trace : HandTrace
        Those hands' traces, row for row.
    """
    _check_inputs(rules, strategies, seed)
    game_ids = _ids("games", games)
    _check_range("max_hands", max_hands)
    runs = _consecutive_runs(game_ids, CHUNK_GAMES)
    with interrupts_held():
        game_records = engine._empty_game_records(game_ids.size, rules.side_count)
        s = engine._new_scratch(rules)
        no_hands = engine._empty_hand_outputs(rules, 0)
    load_kernel(engine._games_chunk, rules, strategies, seed, 0, 0, 0, max_hands, s,
                game_records, True, 0, *no_hands)
    with interrupts_held() as check:

        def replay(write_hands: bool, hands_out, trace_out) -> int:
            row = 0
            for lo, hi in runs:
                row = engine._games_chunk(rules, strategies, seed, int(game_ids[lo]) - lo, lo, hi,
                                          max_hands, s, game_records, write_hands, row,
                                          hands_out, trace_out)
                check()
            return row

        rows = replay(False, *engine._empty_hand_outputs(rules, 0))
        out, hand_trace = engine._empty_hand_outputs(rules, rows)
        replay(True, out, hand_trace)
    return game_records, out, hand_trace


def what_if_deals(*, rules, strategies, seed: int, deals, dealer: int, hand_index: int,
                  hero: int, forced_bids, candidates, score, bag_total, max_hands: int,
                  sets=None):
    """Every candidate bid of ``hero`` on every deal in ``deals``, each played to the game's end.

    Parameters
    ----------
    rules : PackedRules
    strategies : PackedStrategies
    seed : int
        Keys the play after the deal (later hands of the game, random policies).
    deals : ndarray of uint64, shape (n, seats)
        Each seat's cards as a slot mask, one row per deal.
    dealer, hand_index, hero : int
        The dealer's seat, the hand's index within the game and the seat that bids.
    forced_bids : ndarray of int64, shape (seats,)
        A bid already made per seat (``engine.FREE_BID`` where the strategy bids).
    candidates : ndarray of int64, shape (c,)
        The hero's bids to try (``FREE_BID``: the strategy's own; ``BLIND_BID``: blind nil;
        ``BLIND_COUNT_BID + n``: n tricks bid blind).
    score, bag_total : ndarray of int64, shape (sides,)
        The game's score and bags before the hand.
    max_hands : int
        As in :func:`play_games`.
    sets : ndarray of int64, shape (sides,), optional
        Each side's contracts set so far this game (``sets_to_lose``); none by default.

    Returns
    -------
    made, points, won, valid, hero_bid : ndarray, shape (n, c)
        int8 made (1) or set, int32 the hero side's points in the hand, int8 the game won,
        int8 the bid was allowed, int16 the bid the hero made; row a deal, column a candidate.
    finished : ndarray of bool, shape (n,)
        Which rows were played: every candidate of a finished row was played, so those rows
        stand even when Ctrl-C stopped the run.
    interrupted : bool
        Whether Ctrl-C stopped the run (it is not raised, so that the caller keeps the finished
        rows, and must then stop). It may come after every row was played (while the last
        chunks finished), so ``finished`` alone cannot tell.
    """
    _check_inputs(rules, strategies, seed)
    deals = np.ascontiguousarray(deals, dtype=np.uint64)
    forced_bids = np.ascontiguousarray(forced_bids, dtype=np.int64)
    candidates = np.ascontiguousarray(candidates, dtype=np.int64)
    score = np.ascontiguousarray(score, dtype=np.int64)
    bag_total = np.ascontiguousarray(bag_total, dtype=np.int64)
    sets = np.zeros_like(bag_total) if sets is None else np.ascontiguousarray(sets, dtype=np.int64)
    if deals.ndim != 2 or deals.shape[1] != rules.seat_count:
        raise RunError(f"deals: allowed an array of shape (n, {rules.seat_count})")
    shape = (deals.shape[0], candidates.size)
    made, points = np.zeros(shape, np.int8), np.zeros(shape, np.int32)
    won, valid = np.zeros(shape, np.int8), np.zeros(shape, np.int8)
    hero_bid = np.zeros(shape, np.int16)  # room for BLIND_COUNT_BID + n
    finished = np.zeros(deals.shape[0], np.bool_)

    def arguments(lo: int, hi: int) -> tuple:
        return (rules, strategies, seed, deals, dealer, hand_index, hero, forced_bids,
                candidates, score, bag_total, sets, max_hands, lo, hi, engine._new_scratch(rules),
                made, points, won, valid, hero_bid)

    def play(lo: int, hi: int) -> None:
        engine._what_if_chunk(*arguments(lo, hi))
        finished[lo:hi] = True

    _load_for(engine._what_if_chunk, arguments)
    interrupted = False
    try:
        with interrupts_held() as check:
            run_chunks(deals.shape[0], CHUNK_DEALS, play, check)
    except KeyboardInterrupt:
        interrupted = True  # the caller keeps the finished rows and stops
    return made, points, won, valid, hero_bid, finished, interrupted


HAND_RECORD_COLUMNS = tuple(name for name, _ in UNIT_SEAT_TYPES + UNIT_SIDE_TYPES)
"""The names of the hand records' columns a unit table is made from (``sums.UNIT_SEAT_TYPES``
and ``UNIT_SIDE_TYPES``): the keywords of :func:`hand_unit_table`."""


def _hand_record_columns(columns: dict[str, np.ndarray]) -> list[np.ndarray]:
    """The hand records' columns a unit table is made from, in the kernel's order and types,
    checked: (units, seats) seat columns and (units, sides) side columns."""
    seat_values = [np.ascontiguousarray(columns[name], kind) for name, kind in UNIT_SEAT_TYPES]
    side_values = [np.ascontiguousarray(columns[name], kind) for name, kind in UNIT_SIDE_TYPES]
    units, seats = seat_values[0].shape
    sides = side_values[0].shape[1] if side_values[0].ndim == 2 else 0
    if (any(v.shape != (units, seats) for v in seat_values)
            or any(v.shape != (units, sides) for v in side_values)
            or not 0 < sides <= seats or seats % sides):
        raise ValueError("hand unit columns: allowed (units, seats) seat columns and (units, "
                         "sides) side columns, the seats a multiple of the sides")
    return seat_values + side_values


def hand_unit_table(**columns: np.ndarray) -> np.ndarray:
    """The unit table of a block of hands, int32 ``(len(HAND_UNIT_COLUMNS), units, sides)``,
    from the seat columns ``bid``, ``blind``, ``tricks`` (units, seats) and the side columns
    ``contract``, ``made``, ``points``, ``bags``, ``penalty`` (units, sides) of its hand records
    (seat s plays on side s % sides); other integer types are converted to the records'."""
    values = _hand_record_columns(columns)
    out = np.empty((len(HAND_UNIT_COLUMNS), values[0].shape[0], values[-1].shape[1]), np.int32)
    _hand_unit_table(*values, out)
    return out


def hand_metric_sums(numerators: np.ndarray, denominators: np.ndarray,
                     **columns: np.ndarray) -> np.ndarray:
    """The sums Σy, Σy², Σx, Σx², Σxy of every metric over a block of hands, as
    :func:`metric_sums` gives them over the block's :func:`hand_unit_table` (the same values:
    whole numbers, exact in any order), taken chunk by chunk on :func:`threads` threads without
    making the table. Metric ``m`` is column ``numerators[m]`` over ``denominators[m]`` of
    ``HAND_UNIT_COLUMNS`` (int64 indices); ``columns`` as for :func:`hand_unit_table`."""
    values = _hand_record_columns(columns)
    _check_metric_indices(len(HAND_UNIT_COLUMNS), numerators, denominators)
    units, sides = values[0].shape[0], values[-1].shape[1]
    ranges = range(0, units, CHUNK_HANDS)
    out = np.zeros((len(ranges), 1 + sides, numerators.shape[0], SUMS))

    def add(lo: int, hi: int) -> None:
        _hand_metric_sums(*values, lo, hi, numerators, denominators, out[lo // CHUNK_HANDS])

    if units:  # compiled (with the notice of a first run) before the threads call it
        _load_once(_hand_metric_sums, *values, 0, 0, numerators, denominators, out[0])
    run_chunks(units, CHUNK_HANDS, add)
    return out.sum(axis=0)


def _check_metric_indices(names: int, numerators: np.ndarray, denominators: np.ndarray) -> None:
    for label, index in (("numerators", numerators), ("denominators", denominators)):
        if index.dtype != np.int64 or index.ndim != 1:
            raise ValueError(f"{label}: allowed a 1-D int64 array")
    if numerators.shape != denominators.shape or (numerators.size and (
            max(numerators.max(), denominators.max()) >= names
            or min(numerators.min(), denominators.min()) < 0)):
        raise ValueError("numerators, denominators: allowed metric columns 0 to names - 1, "
                         "one of each a metric")


def metric_sums(columns: np.ndarray, per_side: np.ndarray, numerators: np.ndarray,
                denominators: np.ndarray) -> np.ndarray:
    """The sums Σy, Σy², Σx, Σx², Σxy of every metric over a block's units, float64
    ``(1 + sides, metrics, 5)``: selection 0 the sides pooled, ``1 + s`` side ``s``.

    ``columns`` (names, units, sides), C-contiguous, holds the unit table's columns, a count per
    unit in side 0 where ``per_side`` is 0; metric ``m`` is column ``numerators[m]`` over
    column ``denominators[m]`` (int64 indices)."""
    if columns.ndim != 3 or not columns.flags.c_contiguous:
        raise ValueError("columns: allowed a C-contiguous (names, units, sides) array")
    if per_side.dtype != np.int64 or per_side.shape != (columns.shape[0],):
        raise ValueError("per_side: allowed a 1-D int64 array, one flag a column")
    _check_metric_indices(columns.shape[0], numerators, denominators)
    out = np.zeros((1 + columns.shape[2], numerators.shape[0], SUMS))
    _metric_sums(columns, per_side, numerators, denominators, out)
    return out


__all__ = ["CHUNK_DEALS", "CHUNK_GAMES", "CHUNK_HANDS", "HAND_RECORD_COLUMNS",
           "HAND_UNIT_COLUMNS", "RunError", "check_seed", "cores", "hand_metric_sums",
           "hand_unit_table", "interrupts_held", "interrupts_noted", "load_kernel", "metric_sums",
           "play_games", "play_hands", "run_chunks", "set_compile_notice", "set_threads",
           "threads", "trace_games", "trace_hands", "what_if_deals"]

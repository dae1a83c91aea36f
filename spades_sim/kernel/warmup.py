"""A first run's compile on two cores: the hand's largest callees compiled side by side.

numba compiles in one thread, and a chunk kernel (``engine._hands_chunk`` and the others)
compiles every jitted function its hand calls the first time it meets each, one after another.
On a first run (an empty cache) :func:`compile_callees` splits the largest of those callees in
two groups of about the same compile time: this process compiles one while a helper process
(``spades_sim.kernel.warmup_helper``) compiles the other, both into numba's cache. The chunk
kernel then finds the callees done and compiles only its own body. A run that says which chunk
kernels it will use (:func:`expecting`) has the helper go on to compile the others meanwhile.

The callees are compiled for the argument types the hand passes them (:func:`callee_groups`:
the run's own packed rules and strategies, handed to the helper through its standard input);
a test checks that a first run's chunk kernels then ask every one of them for exactly those
types, so a change to a call in the hand cannot quietly turn the split into twice the work. Anything
that goes wrong here only costs the time it would have saved: the chunk kernel compiles what is
missing itself. Without a cache folder it can write (``cache.writable``) there is no helper.
"""

from __future__ import annotations

import inspect
import os
import pickle
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
from numba import from_dtype, typeof, types

from . import bidding, cache, decide, engine, policies, sums

HELPER_GROUP, RUN_GROUP = "play", "bidding"
"""The group the helper process compiles, and the one the run's own process compiles."""
HELPER_TIMEOUT = 300.0
"""Seconds to wait for the helper before going on without it (it takes about a quarter minute)."""

KERNEL_KINDS = ("hands", "games")
"""The chunk kernels a run may say it expects (:func:`expecting`): the hand and game kernels."""

_POLL = 0.2
_considered = [False]
_expected: list[frozenset[str]] = [frozenset()]
_helper: list = [None, ()]  # the helper process while it runs, and the kernels it compiles


CARD_PLAYERS = tuple(dict.fromkeys(player for module in policies.TABLE
                                   for player in module.COMPILED_APART))
"""The card players compiled ahead through ``decide._card_players`` (which calls them as the hand
does), so that their argument types are not typed out here again: those the policies of the
table compile on their own."""


def callee_groups(rules, strategies) -> dict[str, list[tuple[Any, tuple]]]:
    """The callees compiled side by side, as (dispatcher, argument types) for a table's packed
    ``rules`` and ``strategies``, in two groups of about the same compile time: ``bidding``
    (the bid round, the expert bidder with it) and ``play`` (the card players, through
    ``decide._card_players``, the card exchange and a hand run's totals' kernel; the record
    writer is compiled into the hands kernel, and the game loop, which calls it, compiles it
    itself). The argument lists are the functions' own (:func:`_typed`: each parameter typed by
    its name), and every type is taken from the values the kernel is handed (``typeof``)."""
    scratch = engine._new_scratch(rules)
    i = types.int64
    ints = types.Array(i, 1, "C")
    hand = {"rules": typeof(rules), "strat": typeof(strategies), "s": typeof(scratch),
            "dealer": i, "hand_index": i}
    """The hand's values by the names the hand's functions give them."""
    totals = {**{name: types.Array(from_dtype(np.dtype(kind)), 2, "C")
                 for name, kind in sums.UNIT_SEAT_TYPES + sums.UNIT_SIDE_TYPES},
              "lo": i, "hi": i, "numerators": ints, "denominators": ints,
              "out": types.Array(types.float64, 3, "C")}
    """A hand run's totals' values by the names ``sums`` gives them."""
    return {
        "bidding": [_typed(bidding._bid_round, hand)],
        "play": [_typed(decide._card_players, hand), _typed(bidding._exchange_passes, hand),
                 _typed(sums._hand_metric_sums, totals)],
    }


def _typed(dispatcher, kinds: dict[str, Any]) -> tuple[Any, tuple]:
    """``dispatcher`` with its argument types: its parameters, in order, each typed by its name
    in ``kinds`` (a KeyError names a parameter the warm-up has no type for)."""
    names = inspect.signature(dispatcher.py_func).parameters
    return dispatcher, tuple(kinds[name] for name in names)


def in_cache(dispatcher, signature: tuple) -> bool:
    """Whether numba's cache holds ``dispatcher`` compiled for ``signature`` (written after its
    source last changed), without loading it; False when its index cannot be read. True when
    that cannot be told (numba's cache index is not public): then nothing is compiled ahead."""
    try:
        cache = dispatcher._cache
        key = cache._index_key(signature, dispatcher.targetctx.codegen())
        load_index = cache._cache_file._load_index
    except Exception:  # another numba's internals: no split, the ordinary compile
        return True
    try:
        return key in load_index()
    except Exception:  # a damaged index: not cached (compiling sets it aside, kernel.cache)
        return False


def cached_count(dispatcher) -> int:
    """How many signatures numba's cache holds ``dispatcher`` compiled for (-1 when that cannot
    be told): a callee compiled ahead for other types than the hand then asks for holds two."""
    try:
        return len(dispatcher._cache._cache_file._load_index())
    except Exception:  # another numba's internals, or a damaged index
        return -1


def compile_group(name: str, rules, strategies) -> None:
    """Compile the callees of group ``name`` (for ``rules`` and ``strategies``) that are not
    in the cache, into it."""
    for dispatcher, signature in callee_groups(rules, strategies)[name]:
        if not in_cache(dispatcher, signature):
            dispatcher.compile(signature)


def compile_callees(rules, strategies, side_by_side: bool, kind: str) -> None:
    """Compile the hand's largest callees (for a table's packed ``rules`` and ``strategies``)
    into the cache before the chunk kernel ``kind`` (``KERNEL_KINDS``) compiles, once a
    process: with ``side_by_side``, one group in a helper process while this one compiles the
    other, the helper then going on to the other chunk kernels the run said it expects
    (:func:`expecting`). Nothing to do when the callees are all cached already; on a later
    call for a kernel the helper is compiling, wait for the helper."""
    helper, helper_kinds = _helper
    if _considered[0]:
        if helper is not None and kind in helper_kinds:
            _finish(helper, HELPER_TIMEOUT)
        return
    _considered[0] = True
    groups = callee_groups(rules, strategies)
    cold = {name for name, group in groups.items()
            if not all(in_cache(dispatcher, signature) for dispatcher, signature in group)}
    # the helper hands its work over through the cache: none without a cache to write
    if side_by_side and HELPER_GROUP in cold and cache.writable():
        helper_kinds = tuple(sorted(_expected[0] - {kind}))
        helper = _start_helper(rules, strategies, helper_kinds)
    _helper[:] = [helper, helper_kinds if helper else ()]
    try:
        for name in sorted(cold - ({HELPER_GROUP} if helper else set())):
            compile_group(name, rules, strategies)
        if helper is not None and helper_kinds:
            wait_for_group(groups[HELPER_GROUP], alive=lambda: helper.poll() is None)
        elif helper is not None:  # nothing after its group: it ends with it
            _finish(helper, HELPER_TIMEOUT)
    except BaseException:
        _finish(helper, 0.0)
        raise


def wait_for_group(group: list[tuple[Any, tuple]], alive=lambda: True) -> None:
    """Wait until another process has compiled ``group`` (of :func:`callee_groups`) into the
    cache, while ``alive()`` (that process runs), for at most ``HELPER_TIMEOUT``: then the
    chunk kernel compiles whatever is missing itself."""
    waited = 0.0
    while alive() and waited < HELPER_TIMEOUT and not all(
            in_cache(dispatcher, signature) for dispatcher, signature in group):
        time.sleep(_POLL)
        waited += _POLL


def _finish(helper, timeout: float) -> None:
    """Wait up to ``timeout`` seconds for the helper to end, then stop it."""
    if helper is None:
        return
    try:
        helper.wait(timeout)
    except subprocess.TimeoutExpired:
        pass
    finally:
        if helper.poll() is None:
            helper.kill()
            helper.wait()
        _helper[:] = [None, ()]


@contextmanager
def expecting(*kinds: str) -> Iterator[None]:
    """A run that will use the chunk kernels ``kinds`` (``KERNEL_KINDS``) says so: on a first
    run the helper compiles those it does not compile first, while it compiles that one. The
    helper is stopped when the block ends."""
    unknown = set(kinds) - set(KERNEL_KINDS)
    if unknown:
        raise ValueError(f"kinds: {sorted(unknown)}: allowed {', '.join(KERNEL_KINDS)}")
    _expected[0] = frozenset(kinds)
    try:
        yield
    finally:
        _expected[0] = frozenset()
        _finish(_helper[0], 0.0)


def process_env() -> dict[str, str]:
    """This process's environment with this very spades_sim first on the import path (a
    checkout's, not only an installed one), for a process that compiles into the same cache."""
    env = dict(os.environ)
    package_root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [package_root, env.get("PYTHONPATH")]))
    return env


def start_compiling(steps: tuple[str, ...], rules, strategies) -> subprocess.Popen | None:
    """A process compiling ``steps`` one after another (groups of :func:`callee_groups`, then
    chunk kernels of ``KERNEL_KINDS``) for ``rules`` and ``strategies`` (handed to it through
    its standard input: ``spades_sim.kernel.warmup_helper``), or None when it cannot start."""
    try:
        # Its own session: Ctrl-C at the terminal reaches this process, which stops it.
        # -P: not the working folder first on the import path (it may hold another checkout),
        # so that the helper compiles this very kernel into the same cache folder.
        process = subprocess.Popen(
            [sys.executable, "-P", "-m", "spades_sim.kernel.warmup_helper",
             str(Path(__file__).resolve().parent), *steps], env=process_env(),
            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True)
    except OSError:
        return None
    # Megabytes with the expert's tables: written from a thread, so that this process goes on
    # compiling while the helper starts and reads them.
    threading.Thread(target=_hand_over, args=(process.stdin, (rules, strategies)),
                     daemon=True).start()
    return process


def _hand_over(stream, table) -> None:
    try:
        with stream:
            pickle.dump(table, stream)
    except OSError:  # the helper is gone: the chunk kernel compiles that group itself
        pass


def _start_helper(rules, strategies, kinds: tuple[str, ...]) -> subprocess.Popen | None:
    return start_compiling((HELPER_GROUP, *kinds), rules, strategies)


def as_helper() -> None:
    """This process is a helper: it never starts one of its own."""
    _considered[0] = True

"""A first run's compile on two cores: the hand's largest callees compiled side by side.

numba compiles in one thread, and a chunk kernel (``engine._hands_chunk`` and the others)
compiles every jitted function its hand calls the first time it meets each, one after another.
On a first run (an empty cache) :func:`compile_callees` splits the largest of those callees in
two groups of about the same compile time: this process compiles one while a helper process
(``python -m spades_sim.kernel.warmup play``) compiles the other, both into numba's cache. The
chunk kernel then finds the callees done and compiles only its own body.

The callees are compiled for the argument types the hand passes them (:func:`callee_groups`:
the run's own packed rules and strategies, handed to the helper through its standard input);
a test checks that a first run's chunk kernels then ask every one of them for exactly those
types, so a change to a call in the hand cannot quietly turn the split into twice the work. Anything
that goes wrong here only costs the time it would have saved: the chunk kernel compiles what is
missing itself.
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import numpy as np
from numba import from_dtype, typeof, types

from . import bidding, engine, expert_play, outputs, policy, sums

HELPER_GROUP = "play"
"""The group the helper process compiles; this process compiles the other (``bidding``)."""
HELPER_TIMEOUT = 600.0
"""Seconds to wait for the helper before going on without it (it takes about a quarter minute)."""

_considered = [False]


def callee_groups(rules, strategies) -> dict[str, list[tuple[Any, tuple]]]:
    """The callees compiled side by side, as (dispatcher, argument types) for a table's packed
    ``rules`` and ``strategies``, in two groups of about the same compile time: ``bidding``
    (the bid round, the expert bidder with it, and the blind-nil exchange) and ``play`` (the
    card players, the record writer and a hand run's totals' kernel)."""
    scratch = engine._new_scratch(rules)
    hands, _ = engine._empty_hand_outputs(rules, 1)
    table, seats, state, records = (typeof(value) for value in (rules, strategies, scratch, hands))
    i, u, f, b = types.int64, types.uint64, types.float64, types.boolean
    row, ints, masks = typeof(strategies.params[0]), typeof(scratch.bids), typeof(rules.suit_masks)
    columns = [types.Array(from_dtype(np.dtype(kind)), 2, "C")
               for _, kind in sums.UNIT_SEAT_TYPES + sums.UNIT_SIDE_TYPES]
    indices, values = types.Array(i, 1, "C"), types.Array(f, 3, "C")
    return {
        "bidding": [(bidding._bid_round, (table, seats, i, i, state)),
                    (bidding._exchange, (table, ints, state))],
        "play": [
            (expert_play._play_expert, (row, i, i, u, u, i, i, i, i, i, u, ints, ints, ints, i,
                                        f, f, f, masks, ints, i)),
            (policy._play_expert_v1, (row, i, i, u, u, i, i, i, i, u, ints, ints, i, i, masks,
                                      ints, i)),
            (policy._play_basic, (i, i, u, u, i, i, i, i, u, ints, ints, i, masks, ints, i)),
            (outputs._write_hand, (table, state, i, i, i, i, records, b)),
            (sums._hand_metric_sums, (*columns, i, i, indices, indices, values)),
        ],
    }


def in_cache(dispatcher, signature: tuple) -> bool:
    """Whether numba's cache holds ``dispatcher`` compiled for ``signature`` (written after its
    source last changed), without loading it. True when that cannot be told (numba's cache
    index is not public): then nothing is compiled ahead."""
    try:
        cache = dispatcher._cache
        key = cache._index_key(signature, dispatcher.targetctx.codegen())
        return key in cache._cache_file._load_index()
    except Exception:  # another numba's internals: no split, the ordinary compile
        return True


def compile_group(name: str, rules, strategies) -> None:
    """Compile the callees of group ``name`` (for ``rules`` and ``strategies``) that are not
    in the cache, into it."""
    for dispatcher, signature in callee_groups(rules, strategies)[name]:
        if not in_cache(dispatcher, signature):
            dispatcher.compile(signature)


def compile_callees(rules, strategies, side_by_side: bool) -> None:
    """Compile the hand's largest callees (for a table's packed ``rules`` and ``strategies``)
    into the cache before a chunk kernel compiles, once a process: with ``side_by_side``, one
    group in a helper process while this one compiles the other. Nothing to do when they are
    all cached already."""
    if _considered[0]:
        return
    _considered[0] = True
    groups = callee_groups(rules, strategies)
    cold = {name for name, group in groups.items()
            if not all(in_cache(dispatcher, signature) for dispatcher, signature in group)}
    helper = _start_helper(rules, strategies) if side_by_side and HELPER_GROUP in cold else None
    try:
        for name in sorted(cold - ({HELPER_GROUP} if helper else set())):
            compile_group(name, rules, strategies)
        if helper is not None:
            helper.wait(HELPER_TIMEOUT)
    except subprocess.TimeoutExpired:
        pass  # the chunk kernel compiles what the helper did not finish
    finally:
        if helper is not None and helper.poll() is None:
            helper.kill()
            helper.wait()


def start_compiling(groups: tuple[str, ...], rules, strategies) -> subprocess.Popen | None:
    """A process compiling ``groups``, one after another, for ``rules`` and ``strategies``
    (handed to it through its standard input), or None when it cannot start."""
    env = dict(os.environ)
    # The same spades_sim as this process's (a checkout's, not only an installed one).
    package_root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [package_root, env.get("PYTHONPATH")]))
    try:
        # Its own session: Ctrl-C at the terminal reaches this process, which stops it.
        process = subprocess.Popen(
            [sys.executable, "-m", "spades_sim.kernel.warmup", *groups], env=env,
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


def _start_helper(rules, strategies) -> subprocess.Popen | None:
    return start_compiling((HELPER_GROUP,), rules, strategies)


if __name__ == "__main__":
    _table = pickle.load(sys.stdin.buffer)
    for _group in sys.argv[1:]:
        compile_group(_group, *_table)

"""The public run API: simulate hands or games, resume a saved run, replay chosen deals.

Each function validates its settings, packs the table once
(:func:`spades_sim.run.blocks.prepare_table`), picks the seed (:func:`resolve_seed`) and the
backend (:func:`spades_sim.run.backends.backend`), and hands the run to the block machinery
(:mod:`spades_sim.run.blocks`): a run goes block by block (``BLOCK_HANDS`` hands or
``BLOCK_GAMES`` games a call) so that a progress bar can move, totals are folded in as each
block finishes (memory stays flat unless records are kept), and Ctrl-C keeps every finished
block. A saved run writes each block's totals to its folder (:mod:`spades_sim.run.store`)
and :func:`resume` finishes it; the Dask backend plays the same blocks on a cluster.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from pathlib import Path

from ..kernel import drivers
from ..kernel.drivers import RunError, check_seed, check_threads, set_threads
from ..kernel.strategies import seat_strategies
from ..rules import RuleSet
from . import backends
from .blocks import Backend, Run, Table, new_store, new_totals, play_run, prepare_table
from .catalogue import Totals
from .store import MAX_BLOCK, MAX_COUNT, MAX_HANDS_CAP, Manifest, RunStore

BLOCK_HANDS = MAX_BLOCK["hands"]
BLOCK_GAMES = MAX_BLOCK["games"]
DEFAULT_MAX_HANDS = 1000
"""A game still running after this many hands is stopped and counted as unfinished."""
MAX_LOGGED = 100_000
"""The most hands (or games) one run writes hand logs of."""


def resolve_seed(seed: int | None) -> int:
    """The one place where ``None`` becomes a fresh random seed; ints pass through (checked)."""
    if seed is None:
        return secrets.randbits(63)
    check_seed(seed)
    return seed


def _check_count(name: str, value: int, most: int | None = None) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1 or (
            most is not None and value > most):
        allowed = "a whole number of 1 or more" if most is None else f"1 to {most:,}"
        raise RunError(f"{name}={value!r}: allowed {allowed}")


def check_size(kind: str, n: int, field: str | None = None) -> None:
    """Refuse a run of ``n`` hands or games (``kind``) outside 1 to :data:`MAX_COUNT`; the
    message names ``field`` (default ``kind``)."""
    _check_count(field or kind, n, MAX_COUNT[kind])


def _prepare(raw_rules: str | RuleSet, raw_strategies, kind: str, n: int, seed: int | None,
             threads: int | None) -> tuple[Table, int]:
    """The table validated and packed, the run's size and threads checked, and its seed."""
    table = prepare_table(raw_rules, raw_strategies)
    check_size(kind, n)
    set_threads(threads)
    return table, resolve_seed(seed)


def _new_run(kind: str, table: Table, seed: int, n: int, keep_records: bool = False) -> Run:
    return Run(kind, table.rules, table.strategies, seed, n,
               totals=new_totals(kind, table.packed_rules), keep_records=keep_records,
               table=table)


def _connected_store(target: Backend, save: str | Path | None, run: Run, block: int,
                     max_hands: int | None) -> RunStore | None:
    """Reach the backend, then make the save folder: a scheduler that cannot be reached is bad
    input, and leaves no folder behind."""
    target.connect()
    try:
        return new_store(save, run, block, max_hands)
    except BaseException:
        target.close()
        raise


def simulate_hands(raw_rules: str | RuleSet, raw_strategies, n: int, seed: int | None = None,
                   threads: int | None = None, keep_records: bool = False,
                   on_block: Callable[[int], None] | None = None, save: str | Path | None = None,
                   backend: str = "local", scheduler: str | None = None) -> Run:
    """Play ``n`` independent hands (each from 0-0) and total them.

    Hand ``i`` is the first hand of game ``i`` of a game run with the same seed.
    ``on_block(k)`` is called with the number of hands each block added. With ``save``
    the run is saved block by block in that folder (:mod:`spades_sim.run.store`) and can be
    continued with :func:`resume`; ``backend="dask"`` plays the blocks on the Dask
    cluster at ``scheduler`` (:mod:`spades_sim.run.backends`) with the same results.
    """
    table, seed = _prepare(raw_rules, raw_strategies, "hands", n, seed, threads)
    target = backends.backend(backend, scheduler, keep_records)
    run = _new_run("hands", table, seed, n, keep_records)
    store = _connected_store(target, save, run, BLOCK_HANDS, None)
    return play_run(run, target, BLOCK_HANDS, None, on_block, store)


def resume(path: str | Path, threads: int | None = None,
           on_block: Callable[[int], None] | None = None, backend: str = "local",
           scheduler: str | None = None, requested: Manifest | None = None) -> Run:
    """Continue the run saved in ``path``: its finished blocks are read back, the rest played.

    The totals equal those of the same run never interrupted. With ``requested`` the saved
    manifest must match it (:meth:`spades_sim.run.store.RunStore.check`). Every shard is checked
    first (:meth:`spades_sim.run.store.RunStore.scan`): the blocks of damaged or missing shards
    are played again (``Run.replayed`` says which), the others are kept.
    """
    target = backends.backend(backend, scheduler)
    store = RunStore(path)
    store.manifest()  # a folder that is no saved run is refused before a lock is made in it
    store.acquire("resume")
    try:
        manifest = store.check(requested) if requested is not None else store.manifest()
        scan = store.scan(manifest)
        table, seed = _prepare(manifest.rule_set(), manifest.seat_strategies(), manifest.kind,
                               manifest.requested, manifest.seed, threads)
        target.connect()
    except BaseException:
        store.release()
        raise
    run = _new_run(manifest.kind, table, seed, manifest.requested)
    run.replayed = scan.damaged
    for _, count, row in scan.blocks:
        run.totals.merge(Totals.from_row(manifest.kind, row))
        run.done += count
    return play_run(run, target, manifest.block, manifest.max_hands, on_block, store,
                    scan.pending)


def simulate_games(raw_rules: str | RuleSet, raw_strategies, n: int, seed: int | None = None,
                   threads: int | None = None, keep_records: bool = False,
                   max_hands: int = DEFAULT_MAX_HANDS,
                   on_block: Callable[[int], None] | None = None, save: str | Path | None = None,
                   backend: str = "local", scheduler: str | None = None) -> Run:
    """Play ``n`` games to the target (or ``max_hands``) and total them; ``save``, ``backend``
    and ``scheduler`` as in :func:`simulate_hands`."""
    table, seed = _prepare(raw_rules, raw_strategies, "games", n, seed, threads)
    _check_count("max_hands", max_hands, MAX_HANDS_CAP)
    target = backends.backend(backend, scheduler, keep_records)
    run = _new_run("games", table, seed, n, keep_records)
    store = _connected_store(target, save, run, BLOCK_GAMES, max_hands)
    return play_run(run, target, BLOCK_GAMES, max_hands, on_block, store)


def simulate_game_range(raw_rules: str | RuleSet, raw_strategies, start: int, count: int,
                        seed: int, threads: int | None = None, max_hands: int = DEFAULT_MAX_HANDS,
                        on_block: Callable[[int], None] | None = None) -> Run:
    """Play games ``start`` … ``start + count - 1`` of the game run with this seed, keeping
    their records: the same games, dealt the same, as those of :func:`simulate_games` with
    ``n > start + count - 1``. A sequential test plays its pairs this way, block after block."""
    table, seed = _prepare(raw_rules, raw_strategies, "games", start + count, seed, threads)
    _check_count("max_hands", max_hands, MAX_HANDS_CAP)
    run = _new_run("games", table, seed, start + count, keep_records=True)
    starts = list(range(start, start + count, BLOCK_GAMES))
    return play_run(run, backends.backend("local", None, True), BLOCK_GAMES, max_hands, on_block,
                    None, starts)


def check_log_range(kind: str, deals: range, played: int | None = None) -> None:
    """Refuse a range of hands (or games) to log that is empty, starts below 0, ends beyond the
    largest run, or holds more than :data:`MAX_LOGGED` of them; with ``played`` (the run's
    size), one that ends beyond the run: a log of hands never played would pass for the run's.
    """
    most = MAX_COUNT[kind] if played is None else min(played, MAX_COUNT[kind])
    if not 0 <= deals.start < deals.stop <= most or len(deals) > MAX_LOGGED:
        inside = "" if played is None else f" (the run plays {played:,} {kind})"
        raise RunError(f"log-deals='{deals.start}:{deals.stop}': allowed START:STOP with "
                       f"0 <= START < STOP <= {most:,}{inside}, at most {MAX_LOGGED:,} {kind}")


def trace_hands(raw_rules: str | RuleSet, raw_strategies, deals: Sequence[int], seed: int):
    """Replay hands ``deals`` of a hand run; returns (HandRecords, HandTrace, PackedRules)."""
    table = prepare_table(raw_rules, raw_strategies)
    out, trace = drivers.trace_hands(rules=table.packed_rules,
                                     strategies=table.packed_strategies, seed=seed, deals=deals)
    return out, trace, table.packed_rules


def trace_games(raw_rules: str | RuleSet, raw_strategies, game_ids: Sequence[int], seed: int,
                max_hands: int = DEFAULT_MAX_HANDS):
    """Replay games ``game_ids``; returns (GameRecords, HandRecords, HandTrace, PackedRules)."""
    table = prepare_table(raw_rules, raw_strategies)
    games, out, trace = drivers.trace_games(rules=table.packed_rules,
                                            strategies=table.packed_strategies, seed=seed,
                                            games=game_ids, max_hands=max_hands)
    return games, out, trace, table.packed_rules


__all__ = ["BLOCK_GAMES", "BLOCK_HANDS", "DEFAULT_MAX_HANDS", "MAX_COUNT", "MAX_HANDS_CAP",
           "MAX_LOGGED", "Run", "RunError", "check_log_range", "check_size", "check_threads",
           "resolve_seed", "resume", "seat_strategies", "set_threads", "simulate_game_range",
           "simulate_games", "simulate_hands", "trace_games", "trace_hands"]

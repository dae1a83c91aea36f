"""Orchestration: seeds, threads, blocks, progress and interruption.

Python validates, packs and allocates; the kernel loops and writes (docs/architecture.md,
"Kernel conventions"). A run goes block by block (``BLOCK_HANDS`` hands or
``BLOCK_GAMES`` games a call) so that a progress bar can move, totals are
folded in as each block finishes (memory stays flat unless records are kept),
and Ctrl-C keeps every finished block. A saved run writes each block's totals
to its folder (:mod:`spades_sim.run.store`) and :func:`resume` finishes it; the
Dask backend plays the same blocks on a cluster (:mod:`spades_sim.run.backends`).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..kernel import drivers
from . import records as _records
from .catalogue import Totals
from ..kernel.drivers import RunError, set_threads
from ..outputs import shown
from ..kernel.packing import PackedRules, pack_rules
from ..rules import RuleSet, resolve_rules
from ..outputs import OutputError
from .store import Manifest, RunStore, strategy_spec
from ..kernel.strategies import PackedStrategies, Strategy, get_strategy, pack_strategies

BLOCK_HANDS = 1 << 16
BLOCK_GAMES = 1 << 11
DEFAULT_MAX_HANDS = 1000
"""A game still running after this many hands is stopped and counted as unfinished."""
MAX_HANDS_CAP = 100_000
"""The largest hand cap a run may set (game records count hands in 32 bits)."""
MAX_COUNT = {"hands": 10**10, "games": 10**9}
"""The most hands, or games, one run plays (days of play on a large cluster)."""
MAX_LOGGED = 100_000
"""The most hands (or games) one run writes hand logs of."""


def resolve_seed(seed: int | None) -> int:
    """The one place where ``None`` becomes a fresh random seed; ints pass through (checked)."""
    if seed is None:
        return secrets.randbits(63)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise RunError(f"seed={seed!r}: allowed a whole number from 0 to 2**63-1")
    return seed


def seat_strategies(raw_strategies: str | Strategy | Sequence[str | Strategy],
                    seat_count: int = 4) -> list[Strategy]:
    """One strategy per seat from one (everyone), two (taking turns round the table, so
    partners share one) or one per seat.

    >>> [s.name for s in seat_strategies(["basic", "random"])]
    ['basic', 'random', 'basic', 'random']
    """
    if isinstance(raw_strategies, str | Strategy):
        raw_strategies = [raw_strategies]
    chosen = [get_strategy(s) for s in raw_strategies]
    if len(chosen) not in (1, 2, seat_count):
        raise RunError(f"strategies={len(chosen)}: allowed one (all seats), two (seats take turns:"
                       f" one per side in partnership) or {seat_count} (one per seat)")
    return [chosen[seat % len(chosen)] for seat in range(seat_count)]


@dataclass
class Run:
    """What a simulation produced: its settings, totals, optional records and whether it finished."""

    kind: str  # "hands" or "games"
    rules: RuleSet
    strategies: list[Strategy]
    seed: int
    requested: int
    done: int = 0
    """Hands or games played (and kept) so far."""
    interrupted: bool = False
    replayed: list[str] = field(default_factory=list)
    """A resumed run: one line per damaged shard whose block was played again."""
    save_error: str | None = None
    """Why a saved run stopped early: a shard could not be written (its totals are not
    counted; the run can be resumed once the folder takes files again)."""
    totals: Totals = field(default_factory=lambda: Totals("hands"))
    frames: list[pd.DataFrame] = field(default_factory=list)

    def summary(self, side: int | None = None) -> pd.DataFrame:
        """The run's metrics table (:meth:`spades_sim.run.catalogue.Totals.summary`): every side
        pooled and the per-side rows, or with ``side`` that side's figures."""
        return self.totals.summary(side)

    def records(self) -> pd.DataFrame:
        """The kept records (``keep_records=True``) as one DataFrame."""
        return pd.concat(self.frames, ignore_index=True) if self.frames else pd.DataFrame()


def _check_count(name: str, value: int, most: int | None = None) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1 or (
            most is not None and value > most):
        allowed = "a whole number of 1 or more" if most is None else f"1 to {most:,}"
        raise RunError(f"{name}={value!r}: allowed {allowed}")


def _prepare(raw_rules: str | RuleSet, raw_strategies, kind: str, n: int, seed: int | None,
             threads: int | None) -> tuple[RuleSet, list[Strategy], PackedRules, PackedStrategies, int]:
    rules, strategies, packed, strat = _pack(raw_rules, raw_strategies)
    _check_count(kind, n, MAX_COUNT[kind])
    set_threads(threads)
    return rules, strategies, packed, strat, resolve_seed(seed)


def _pack(raw_rules: str | RuleSet, raw_strategies
          ) -> tuple[RuleSet, list[Strategy], PackedRules, PackedStrategies]:
    """Resolve the rules and one strategy per seat, and pack both for the kernel."""
    rules = resolve_rules(raw_rules)
    strategies = seat_strategies(raw_strategies, rules.seat_count)
    return rules, strategies, pack_rules(rules), pack_strategies(strategies, rules)


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
    rules, strategies, packed, strat, seed = _prepare(raw_rules, raw_strategies, "hands", n, seed,
                                                      threads)
    check_backend(backend, scheduler, keep_records)
    run = Run("hands", rules, strategies, seed, n, totals=new_totals("hands", packed))
    store = _new_store(save, run, BLOCK_HANDS, None)
    return _run_blocks(run, BLOCK_HANDS, packed, strat, None, keep_records, on_block, store,
                       _client(backend, scheduler))


def play_block(kind: str, packed: PackedRules, strat: PackedStrategies, seed: int, start: int,
               count: int, max_hands: int | None):
    """Play one block (hands or games ``start`` … ``start + count - 1``); its kernel records."""
    if kind == "hands":
        return drivers.play_hands(rules=packed, strategies=strat, seed=seed, start=start,
                                  count=count)[0]
    return drivers.play_games(rules=packed, strategies=strat, seed=seed, start=start, count=count,
                              max_hands=max_hands)


def new_totals(kind: str, packed: PackedRules) -> Totals:
    """Empty totals for a hand or game run at this table."""
    return Totals(kind, packed.seat_count, packed.side_count)


def _new_store(save: str | Path | None, run: Run, block: int, max_hands: int | None):
    """Create the save folder of a new run (None without ``save``)."""
    if save is None:
        return None
    store = RunStore(save)
    store.create(_manifest(run, block, max_hands))
    return store


def _manifest(run: Run, block: int, max_hands: int | None) -> Manifest:
    return Manifest(run.kind, run.rules.to_dict(), tuple(map(strategy_spec, run.strategies)),
                    run.seed, run.requested, block, max_hands)


def _run_blocks(run: Run, block: int, packed: PackedRules, strat: PackedStrategies,
                max_hands: int | None, keep_records: bool,
                on_block: Callable[[int], None] | None, store: RunStore | None,
                client: Any = None, pending: list[int] | None = None) -> Run:
    """Play the blocks of ``run`` that start at ``pending`` (default: every block), in order,
    folding each block's totals into the run's (and into a shard of ``store``, whose lock is
    released at the end); with a Dask ``client`` the blocks run on its cluster.

    Ctrl-C between or during blocks stops the run; every finished block is kept. The totals
    are sums of whole numbers, so the order the blocks are merged in does not matter.
    """
    if pending is None:
        pending = list(range(0, run.requested, block))

    def finish(start: int, count: int, totals, frame: pd.DataFrame | None) -> None:
        if store is not None:  # first, so that a block whose shard fails is not counted
            store.write_block(start, count, totals.as_row())
        run.totals.merge(totals)
        if frame is not None:
            run.frames.append(frame)
        run.done += count
        if on_block is not None:
            on_block(count)

    try:
        if client is not None:
            from .backends import dask_blocks

            for start, count, totals in dask_blocks(run, block, pending, max_hands, client):
                finish(start, count, totals, None)
            return run
        for start in pending:
            count = min(block, run.requested - start)
            records = play_block(run.kind, packed, strat, run.seed, start, count, max_hands)
            with drivers.interrupts_held():  # a block is counted whole or not at all
                totals = run.totals.empty_like()
                totals.add(records)
                frame = None
                if keep_records:
                    frame = (_records.hand_frame(records) if run.kind == "hands"
                             else _records.game_frame(records, packed.seat_count, start))
                finish(start, count, totals, frame)
    except KeyboardInterrupt:
        run.interrupted = True
    except OutputError as error:  # a shard could not be saved (a full disk): keep what is done
        run.save_error = str(error)
    finally:
        if client is not None:
            client.close()
        if store is not None:
            store.release()
    return run


BACKENDS = ("local", "dask")


def _client(backend: str, scheduler: str | None) -> Any:
    """A Dask client for ``backend="dask"``, else None. A scheduler that cannot be reached
    leaves a new save folder with no blocks, which ``resume`` can finish later."""
    if backend != "dask":
        return None
    from .backends import connect

    return connect(scheduler or "")


def check_backend(backend: str, scheduler: str | None, keep_records: bool = False) -> None:
    """Refuse an unknown backend, a scheduler without Dask, or records with Dask."""
    if backend not in BACKENDS:
        raise RunError(f"backend={shown(backend)!r}: allowed " + " or ".join(BACKENDS))
    if backend == "local" and scheduler is not None:
        raise RunError(f"scheduler={shown(scheduler)!r}: allowed only with backend dask")
    if backend == "dask":
        if not scheduler:
            raise RunError("scheduler: allowed an address such as tcp://127.0.0.1:8786 with "
                           "backend dask")
        if keep_records:
            raise RunError("records: allowed only with backend local (a Dask run keeps totals)")


def resume(path: str | Path, threads: int | None = None,
           on_block: Callable[[int], None] | None = None, backend: str = "local",
           scheduler: str | None = None, requested: Manifest | None = None) -> Run:
    """Continue the run saved in ``path``: its finished blocks are read back, the rest played.

    The totals equal those of the same run never interrupted. With ``requested`` the saved
    manifest must match it (:meth:`spades_sim.run.store.RunStore.check`). Every shard is checked
    first (:meth:`spades_sim.run.store.RunStore.scan`): the blocks of damaged or missing shards
    are played again (``Run.replayed`` says which), the others are kept.
    """
    check_backend(backend, scheduler)
    store = RunStore(path)
    store.acquire("resume")
    try:
        manifest = store.check(requested) if requested is not None else store.manifest()
        scan = store.scan(manifest)
        rules, strategies, packed, strat, seed = _prepare(
            manifest.rule_set(), manifest.seat_strategies(), manifest.kind,
            manifest.requested, manifest.seed, threads)
        client = _client(backend, scheduler)
    except BaseException:
        store.release()
        raise
    totals = new_totals(manifest.kind, packed)
    run = Run(manifest.kind, rules, strategies, seed, manifest.requested, totals=totals,
              replayed=scan.damaged)
    for _, count, row in scan.blocks:
        run.totals.merge(Totals.from_row(manifest.kind, row))
        run.done += count
    return _run_blocks(run, manifest.block, packed, strat, manifest.max_hands, False, on_block,
                       store, client, scan.pending)


def simulate_games(raw_rules: str | RuleSet, raw_strategies, n: int, seed: int | None = None,
                   threads: int | None = None, keep_records: bool = False,
                   max_hands: int = DEFAULT_MAX_HANDS,
                   on_block: Callable[[int], None] | None = None, save: str | Path | None = None,
                   backend: str = "local", scheduler: str | None = None) -> Run:
    """Play ``n`` games to the target (or ``max_hands``) and total them; ``save``, ``backend``
    and ``scheduler`` as in :func:`simulate_hands`."""
    rules, strategies, packed, strat, seed = _prepare(raw_rules, raw_strategies, "games", n, seed,
                                                      threads)
    _check_count("max_hands", max_hands, MAX_HANDS_CAP)
    check_backend(backend, scheduler, keep_records)
    run = Run("games", rules, strategies, seed, n, totals=new_totals("games", packed))
    store = _new_store(save, run, BLOCK_GAMES, max_hands)
    return _run_blocks(run, BLOCK_GAMES, packed, strat, max_hands, keep_records, on_block, store,
                       _client(backend, scheduler))


def check_log_range(kind: str, deals: range) -> None:
    """Refuse a range of hands (or games) to log that is empty, starts below 0, ends beyond the
    largest run, or holds more than :data:`MAX_LOGGED` of them."""
    if not 0 <= deals.start < deals.stop <= MAX_COUNT[kind] or len(deals) > MAX_LOGGED:
        raise RunError(f"log-deals='{deals.start}:{deals.stop}': allowed START:STOP with "
                       f"0 <= START < STOP <= {MAX_COUNT[kind]:,}, at most {MAX_LOGGED:,} {kind}")


def trace_hands(raw_rules: str | RuleSet, raw_strategies, deals: Sequence[int], seed: int):
    """Replay hands ``deals`` of a hand run; returns (HandRecords, HandTrace, PackedRules)."""
    _, _, packed, strat = _pack(raw_rules, raw_strategies)
    out, trace = drivers.trace_hands(rules=packed, strategies=strat, seed=seed, deals=deals)
    return out, trace, packed


def trace_games(raw_rules: str | RuleSet, raw_strategies, game_ids: Sequence[int], seed: int,
                max_hands: int = DEFAULT_MAX_HANDS):
    """Replay games ``game_ids``; returns (GameRecords, HandRecords, HandTrace, PackedRules)."""
    _, _, packed, strat = _pack(raw_rules, raw_strategies)
    games, out, trace = drivers.trace_games(rules=packed, strategies=strat, seed=seed,
                                            games=game_ids, max_hands=max_hands)
    return games, out, trace, packed

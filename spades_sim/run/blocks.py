"""The block machinery: a run cut into blocks, each played, folded into the run and saved.

Python validates, packs and allocates; the kernel loops and writes (docs/architecture.md,
"Kernel conventions"). Every run goes block by block so that a progress bar can move,
results are folded in as each block finishes (memory stays flat unless records are kept)
and Ctrl-C keeps every finished block:

- :func:`prepare_table` validates and packs a table once: the rules, one strategy per seat
  and both packed for the kernel (the runs, the Dask worker, the what-if and calibration);
- :func:`block_starts` cuts a run of ``requested`` items into blocks of ``block``;
- a *backend* (:mod:`spades_sim.run.backends`) plays the blocks and yields each as a
  :class:`Block` (the local threads or a Dask cluster);
- :func:`run_blocks` folds each block into the run, writes its shard first when the run is
  saved (:mod:`spades_sim.run.store`), reports it to ``on_block``, and stops on Ctrl-C or a
  shard that cannot be written, keeping every block folded so far;
- :func:`play_run` is that loop for a hand or game run (:class:`Run`), with its backend.

A what-if (:mod:`spades_sim.analysis.whatif`) plays its deals through :func:`run_blocks` too,
with blocks of its own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple, Protocol

import pandas as pd

from ..kernel import drivers
from ..kernel.engine import GameRecords, HandRecords
from ..kernel.expert_bid import BidTables
from ..kernel.packing import PackedRules, pack_rules
from ..kernel.strategies import PackedStrategies, Strategy, pack_strategies, seat_strategies
from ..outputs import OutputError
from ..rules import RuleSet, resolve_rules
from .catalogue import Totals
from .store import Manifest, RunStore, strategy_spec


class Table(NamedTuple):
    """A table ready to play: the rules and one strategy per seat, resolved and packed."""

    rules: RuleSet
    strategies: list[Strategy]
    packed_rules: PackedRules
    packed_strategies: PackedStrategies


def prepare_table(raw_rules: str | RuleSet,
                  raw_strategies: str | Strategy | Sequence[str | Strategy],
                  overrides: Sequence[str | tuple[int, str, float]] = (),
                  tables: BidTables | None = None) -> Table:
    """Validate and pack a table once: the rules resolved (:func:`spades_sim.rules.resolve_rules`),
    one strategy per seat with ``overrides`` applied
    (:func:`spades_sim.kernel.strategies.seat_strategies`), and both packed for the kernel;
    ``tables`` replaces the expert's shipped calibration tables
    (:func:`spades_sim.kernel.strategies.pack_strategies`)."""
    rules = resolve_rules(raw_rules)
    strategies = seat_strategies(raw_strategies, rules.seat_count, overrides, rules.side_count)
    return Table(rules, strategies, pack_rules(rules),
                 pack_strategies(strategies, rules, tables))


@dataclass(frozen=True)
class Block:
    """One played block: items ``start`` … ``start + count - 1`` and what they gave."""

    start: int
    count: int
    result: Any
    """A hand or game run's :class:`~spades_sim.run.catalogue.Totals`; a what-if's rows."""
    frame: pd.DataFrame | None = None
    """The block's records, when a local run keeps them."""


def block_starts(requested: int, block: int) -> list[int]:
    """The first item of every block of a run of ``requested`` items cut into ``block`` s."""
    return list(range(0, requested, block))


def new_totals(kind: str, packed: PackedRules) -> Totals:
    """Empty totals for a hand or game run at this table."""
    return Totals(kind, packed.seat_count, packed.side_count)


def play_block(kind: str, table: Table, seed: int, start: int, count: int,
               max_hands: int | None, features: bool = True) -> HandRecords | GameRecords:
    """Play one block (hands or games ``start`` … ``start + count - 1``); its kernel records,
    a hand run's without the hand features unless ``features`` (totals do not read them)."""
    packed, strat = table.packed_rules, table.packed_strategies
    if kind == "hands":
        hands: HandRecords = drivers.play_hands(rules=packed, strategies=strat, seed=seed,
                                                start=start, count=count,
                                                features=features)[0]
        return hands
    assert max_hands is not None  # a game run always has its cap
    games: GameRecords = drivers.play_games(rules=packed, strategies=strat, seed=seed,
                                            start=start, count=count, max_hands=max_hands)
    return games


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
    keep_records: bool = False
    """Whether each block's records are kept (``frames``) as well as its totals."""
    table: Table | None = field(default=None, repr=False, compare=False)
    """The packed table the local backend plays."""

    def summary(self, side: int | None = None) -> pd.DataFrame:
        """The run's metrics table (:meth:`spades_sim.run.catalogue.Totals.summary`): every side
        pooled and the per-side rows, or with ``side`` that side's figures."""
        return self.totals.summary(side)

    def records(self, columns: Sequence[str] | None = None) -> pd.DataFrame:
        """The kept records (``keep_records=True``) as one DataFrame; only ``columns`` when
        given (a copy of those alone: a large run's whole records are copied twice over)."""
        if not self.frames:
            return pd.DataFrame()
        frames = self.frames if columns is None else [frame[list(columns)] for frame in self.frames]
        return pd.concat(frames, ignore_index=True)

    def fold(self, block: Block) -> None:
        """Count one finished block: its totals merged, its records kept."""
        self.totals.merge(block.result)
        if block.frame is not None:
            self.frames.append(block.frame)
        self.done += block.count


class Backend(Protocol):
    """Where a run's blocks are played (:func:`spades_sim.run.backends.backend` gives one)."""

    name: str

    def connect(self) -> None:
        """Reach what plays the blocks (a refused one: a one-line ``RunError``)."""

    def blocks(self, run: Run, block: int, starts: Sequence[int],
               max_hands: int | None) -> Iterator[Block]:
        """Play the blocks of ``run`` that start at ``starts``; yield each as it finishes."""

    def close(self) -> None:
        """Let go of what :meth:`connect` reached."""


class Ending(NamedTuple):
    """How :func:`run_blocks` ended: Ctrl-C, or a shard that could not be written."""

    interrupted: bool = False
    save_error: str | None = None


def run_blocks(blocks: Iterator[Block], fold: Callable[[Block], None],
               on_block: Callable[[int], None] | None = None,
               store: RunStore | None = None) -> Ending:
    """Fold every block of ``blocks`` with ``fold`` as it comes, writing its shard to ``store``
    first (its result is then a :class:`~spades_sim.run.catalogue.Totals`) and then reporting
    its count to ``on_block``; the store's lock is released at the end.

    Ctrl-C between or during blocks stops the loop, as does a shard that cannot be written
    (a full disk): every block folded so far is kept. The local backend yields each block
    with Ctrl-C held, so a block is written, folded and reported whole or not at all. Any
    other error (a lost Dask scheduler) goes on after the same clean-up.
    """
    ending = Ending()
    try:
        for block in blocks:
            if store is not None:  # first, so that a block whose shard fails is not counted
                store.write_block(block.start, block.count, block.result.as_row())
            fold(block)
            if on_block is not None:
                on_block(block.count)
    except KeyboardInterrupt:
        ending = Ending(interrupted=True)
    except OutputError as error:
        ending = Ending(save_error=str(error))
    finally:
        close = getattr(blocks, "close", None)
        if close is not None:  # a generator left inside a block: let it clean up now
            close()
        if store is not None:
            store.release()
    return ending


def play_run(run: Run, backend: Backend, block: int, max_hands: int | None = None,
             on_block: Callable[[int], None] | None = None, store: RunStore | None = None,
             pending: Sequence[int] | None = None) -> Run:
    """Play the blocks of ``run`` that start at ``pending`` (default: every block), in order,
    on ``backend``, folding each into the run's totals (and into a shard of ``store``).

    The totals are sums of whole numbers, so the order the blocks are merged in does not
    matter. Ctrl-C keeps every finished block (``run.interrupted``); so does a shard that
    cannot be written (``run.save_error``).
    """
    try:
        backend.connect()
    except BaseException:
        if store is not None:
            store.release()
        raise
    if pending is None:
        pending = block_starts(run.requested, block)
    try:
        ending = run_blocks(backend.blocks(run, block, pending, max_hands), run.fold, on_block,
                            store)
    finally:
        backend.close()
    run.interrupted, run.save_error = ending.interrupted, ending.save_error
    return run


def new_store(save: str | Path | None, run: Run, block: int,
              max_hands: int | None) -> RunStore | None:
    """Create the save folder of a new run (None without ``save``)."""
    if save is None:
        return None
    store = RunStore(save)
    store.create(manifest_of(run, block, max_hands))
    return store


def manifest_of(run: Run, block: int, max_hands: int | None) -> Manifest:
    """What a saved run's folder records of ``run``."""
    return Manifest(run.kind, run.rules.to_dict(), tuple(map(strategy_spec, run.strategies)),
                    run.seed, run.requested, block, max_hands)


__all__ = ["Backend", "Block", "Ending", "Run", "Table", "block_starts", "manifest_of",
           "new_store", "new_totals", "play_block", "play_run", "prepare_table", "run_blocks"]

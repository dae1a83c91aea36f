"""Backends: where a run's blocks are played, one object per target with one method set.

:func:`backend` validates a backend's name (and its scheduler) once and returns a
:class:`LocalBackend` (numba threads in this process) or a :class:`DaskBackend` (a Dask
cluster). Each has ``connect()``, ``blocks(run, block, starts, max_hands)``, which yields
every block as a :class:`~spades_sim.run.blocks.Block` as it finishes, and ``close()``; the
block loop (:func:`spades_sim.run.blocks.play_run`) never asks which one it has.

On Dask each block is one task: a worker validates and packs the table
(:func:`~spades_sim.run.blocks.prepare_table`), plays the block with the same kernel, seed
and block boundaries as a local run, and sends back its totals as a flat row
(:meth:`spades_sim.run.catalogue.Totals.as_row`). The client merges the rows as they arrive
(sums of whole numbers: the order does not matter), so the results are identical to the
local backend's, and it writes each block's shard at once when the run is saved. Dask
(``pip install 'spades-sim[dask]'``) is imported only here, and only by a Dask backend.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Iterator, Sequence
from typing import Any

from ..kernel import drivers
from ..kernel.drivers import RunError, set_threads
from ..outputs import shown
from ..rules import from_dict
from . import records as _records
from .blocks import Block, Run, new_totals, play_block, prepare_table
from .catalogue import Totals
from .store import strategy_of, strategy_spec

BACKENDS = ("local", "dask")
"""The backends a run may name."""


def backend(name: str, scheduler: str | None = None,
            keep_records: bool = False) -> LocalBackend | DaskBackend:
    """The backend called ``name``, checked: an unknown name, a scheduler without Dask, a
    Dask run without one, or records with Dask are refused in one line (:class:`RunError`).
    A Dask backend reaches its scheduler only when the run starts (``connect``)."""
    if name not in BACKENDS:
        raise RunError(f"backend={shown(name)!r}: allowed " + " or ".join(BACKENDS))
    if name == "local" and scheduler is not None:
        raise RunError(f"scheduler={shown(scheduler)!r}: allowed only with backend dask")
    if name == "local":
        return LocalBackend()
    if not scheduler:
        raise RunError("scheduler: allowed an address such as tcp://127.0.0.1:8786 with "
                       "backend dask")
    if keep_records:
        raise RunError("records: allowed only with backend local (a Dask run keeps totals)")
    return DaskBackend(scheduler)


class LocalBackend:
    """The blocks played one after another on this process's numba threads
    (:func:`spades_sim.kernel.drivers.set_threads`)."""

    name = "local"

    def connect(self) -> None:
        """Nothing to reach."""

    def blocks(self, run: Run, block: int, starts: Sequence[int],
               max_hands: int | None) -> Iterator[Block]:
        """Play each block of ``run`` at ``run.table`` and yield it with its totals (and its
        record frame when the run keeps records).

        Each block is yielded with Ctrl-C held, so that the caller writes, folds and reports
        it whole or not at all; Ctrl-C meanwhile is raised when the next block is asked for.
        """
        table = run.table
        assert table is not None  # a run is given its table before it is played
        for start in starts:
            count = min(block, run.requested - start)
            records = play_block(run.kind, table, run.seed, start, count, max_hands,
                                 features=run.keep_records)
            with drivers.interrupts_held():  # a block is counted whole or not at all
                totals = run.totals.empty_like()
                totals.add(records)
                frame = None
                if run.keep_records:
                    frame = (_records.hand_frame(records) if run.kind == "hands" else
                             _records.game_frame(records, table.packed_rules.seat_count,
                                                 start))
                yield Block(start, count, totals, frame)

    def close(self) -> None:
        """Nothing to let go of."""


class DaskBackend:
    """The blocks played as tasks on the Dask cluster whose scheduler is at ``scheduler``."""

    name = "dask"

    def __init__(self, scheduler: str) -> None:
        self.scheduler = scheduler
        self.client: Any = None

    def connect(self) -> None:
        """A client of the scheduler (:func:`connect`), made before a new run's save folder
        (one that cannot be reached leaves none)."""
        if self.client is None:
            self.client = connect(self.scheduler)

    def blocks(self, run: Run, block: int, starts: Sequence[int],
               max_hands: int | None) -> Iterator[Block]:
        """The blocks as they finish on the cluster (:func:`dask_blocks`)."""
        self.connect()
        for start, count, totals in dask_blocks(run, block, list(starts), max_hands,
                                                self.client):
            yield Block(start, count, totals)

    def close(self) -> None:
        """Close the client."""
        if self.client is not None:
            self.client.close()
            self.client = None


CONNECT_TIMEOUT = "10s"
"""How long to try to reach the scheduler before giving up."""
POLL_SECONDS = 1.0
"""How often a run waiting on its blocks checks that the cluster still has a worker."""
NO_WORKER_SECONDS = 60.0
"""How long a run waits with no worker in the cluster before it stops."""


def block_totals(kind: str, rules: dict[str, Any], strategies: list[dict[str, Any]], seed: int,
                 start: int, count: int, max_hands: int | None, threads: int = 1
                 ) -> dict[str, float]:
    """Play one block on a worker (``threads`` numba threads) and return its totals as a row."""
    set_threads(threads)
    table = prepare_table(from_dict(rules), [strategy_of(spec) for spec in strategies])
    records = play_block(kind, table, seed, start, count, max_hands, features=False)
    totals = new_totals(kind, table.packed_rules)
    totals.add(records)
    return totals.as_row()


def connect(scheduler: str):
    """A Dask client of the scheduler at ``scheduler`` (refused in one line if Dask is missing)."""
    try:
        from dask.distributed import Client
    except ImportError:
        raise RunError("backend='dask': allowed only with dask.distributed installed "
                       "(pip install 'spades-sim[dask]')") from None
    from distributed.comm.addressing import get_address_host_port

    try:
        # A malformed address is refused before a client exists: a client that fails to start
        # on one waits twice its timeout to close when it is collected, at exit.
        get_address_host_port(scheduler)
    except (ValueError, TypeError) as error:
        raise RunError(f"scheduler={shown(scheduler)!r}: allowed the address of a running Dask "
                       f"scheduler, e.g. tcp://10.0.0.5:8786 ({shown(str(error))})") from None
    try:
        return Client(scheduler, timeout=CONNECT_TIMEOUT, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as error:
        raise RunError(f"scheduler={shown(scheduler)!r}: allowed the address of a running Dask "
                       f"scheduler ({shown(str(error))})") from None


def dask_blocks(run, block: int, starts: list[int], max_hands: int | None, client
                ) -> Iterator[tuple[int, int, Totals]]:
    """Yield (start, count, totals) of the run's blocks that start at ``starts``, played on the
    cluster of ``client`` (see :func:`connect`), as each one finishes: the totals are sums of
    whole numbers, so the order they are merged in does not change them, and a block lost
    with a worker holds back no other block's shard.

    On Ctrl-C the tasks still queued are cancelled; the blocks yielded so far stay merged. A
    lost scheduler, or no worker in the cluster for ``NO_WORKER_SECONDS``, ends the run with a
    one-line :class:`~spades_sim.kernel.drivers.RunError` after the same clean-up.
    """
    from dask.distributed import as_completed

    args = (run.kind, run.rules.to_dict(), [strategy_spec(s) for s in run.strategies], run.seed)
    futures = {client.submit(block_totals, *args, start, min(block, run.requested - start),
                             max_hands, pure=False): start for start in starts}
    address = client.scheduler.address
    finished = as_completed(futures, loop=client.loop)
    active = checked = time.monotonic()  # when a worker was last seen, and last looked for
    try:
        while not finished.is_empty():
            if finished.has_ready():
                for future in finished.next_batch(block=False):
                    try:
                        row = future.result()
                    except dask_errors():
                        raise RunError(_stopped(address, "lost the scheduler", run)) from None
                    start = futures[future]
                    yield start, min(block, run.requested - start), Totals.from_row(run.kind, row)
                active = time.monotonic()
                continue
            time.sleep(0.02)  # a short poll: Ctrl-C is taken at once, and the cluster watched
            now = time.monotonic()
            if now - checked < POLL_SECONDS:
                continue
            checked = now
            if client.status != "running":
                continue  # reconnecting: the futures are cancelled if that fails
            if client.scheduler_info().get("workers"):
                active = now
            elif now - active > NO_WORKER_SECONDS:
                raise RunError(_stopped(address, f"no worker for {NO_WORKER_SECONDS:g} s", run))
    finally:
        with contextlib.suppress(Exception):  # the scheduler may be gone: nothing left to cancel
            client.cancel(list(futures))


def dask_errors() -> tuple[type[BaseException], ...]:
    """What a client raises when its scheduler goes away (a closed connection, cancelled
    futures, a timeout)."""
    from distributed.client import FutureCancelledError, FuturesCancelledError
    from distributed.comm.core import CommClosedError

    return (OSError, CommClosedError, FutureCancelledError, FuturesCancelledError,
            asyncio.CancelledError, asyncio.TimeoutError)


def _stopped(address: str, what: str, run) -> str:
    """The one line a Dask run ends with when its cluster fails it."""
    return (f"scheduler={address!r}: {what}; {run.done:,} of {run.requested:,} {run.kind} "
            "finished (kept in a --save folder: --resume finishes the run)")

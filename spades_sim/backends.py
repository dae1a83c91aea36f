"""The Dask backend: a run's blocks played on a Dask cluster instead of local threads.

Each block is one task: a worker resolves the rules and strategies, plays the
block with the same kernel, seed and block boundaries as a local run, and sends
back its totals as a flat row (:meth:`spades_sim.analysis.HandTotals.as_row`).
The client merges the rows in block order as they arrive, so the results are
identical to the local backend's, and it writes each block's shard at once when
the run is saved. Dask (``pip install 'spades-sim[dask]'``) is imported only here.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .analysis import GameTotals, HandTotals
from .packing import pack_rules
from .rules import from_dict
from .store import strategy_of, strategy_spec
from .strategies import pack_strategies


CONNECT_TIMEOUT = "10s"
"""How long to try to reach the scheduler before giving up."""


def block_totals(kind: str, rules: dict[str, Any], strategies: list[dict[str, Any]], seed: int,
                 start: int, count: int, max_hands: int | None, threads: int = 1
                 ) -> dict[str, float]:
    """Play one block on a worker (``threads`` numba threads) and return its totals as a row."""
    from .simulate import new_totals, play_block, set_threads

    set_threads(threads)
    rule_set = from_dict(rules)
    packed = pack_rules(rule_set)
    seats = [strategy_of(spec) for spec in strategies]
    records = play_block(kind, packed, pack_strategies(seats, rule_set), seed, start, count,
                         max_hands)
    totals = new_totals(kind, packed)
    totals.add(records)
    return totals.as_row()


def connect(scheduler: str):
    """A Dask client of the scheduler at ``scheduler`` (refused in one line if Dask is missing)."""
    from .simulate import RunError

    try:
        from dask.distributed import Client
    except ImportError:
        raise RunError("backend='dask': allowed only with dask.distributed installed "
                       "(pip install 'spades-sim[dask]')") from None
    try:
        return Client(scheduler, timeout=CONNECT_TIMEOUT, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as error:
        raise RunError(f"scheduler={scheduler!r}: allowed the address of a running Dask "
                       f"scheduler ({error})") from None


def dask_blocks(run, block: int, max_hands: int | None, client
                ) -> Iterator[tuple[int, int, HandTotals | GameTotals]]:
    """Yield (start, count, totals) of the run's missing blocks, in block order, played on the
    cluster of ``client`` (see :func:`connect`).

    On Ctrl-C the tasks still queued are cancelled; the blocks yielded so far stay merged.
    """
    from dask.distributed import as_completed

    args = (run.kind, run.rules.to_dict(), [strategy_spec(s) for s in run.strategies], run.seed)
    starts = range(run.done, run.requested, block)
    futures = {client.submit(block_totals, *args, start, min(block, run.requested - start),
                             max_hands, pure=False): start for start in starts}
    totals_type = type(run.totals)
    arrived: dict[int, dict[str, float]] = {}
    try:
        expected = run.done
        for future in as_completed(futures, loop=client.loop):
            arrived[futures[future]] = future.result()
            while expected in arrived:
                count = min(block, run.requested - expected)
                yield expected, count, totals_type.from_row(arrived.pop(expected))
                expected += count
    finally:
        client.cancel(list(futures))

"""Orchestration: seeds, threads, blocks, progress and interruption.

Python validates, packs and allocates; the kernel loops and writes
(STYLE.md §5.2). A run goes block by block (``BLOCK_HANDS`` hands or
``BLOCK_GAMES`` games a call) so that a progress bar can move, totals are
folded in as each block finishes (memory stays flat unless records are kept),
and Ctrl-C keeps every finished block.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numba
import numpy as np
import pandas as pd

from . import records as _records
from .analysis import GameTotals, HandTotals
from .kernel import engine
from .packing import PackedRules, pack_rules
from .rules import RuleSet, resolve_rules
from .strategies import PackedStrategies, Strategy, get_strategy, pack_strategies

BLOCK_HANDS = 1 << 16
BLOCK_GAMES = 1 << 11
CHUNK_HANDS = 1024
"""Hands per parallel chunk; results do not depend on it."""
CHUNK_GAMES = 32
DEFAULT_MAX_HANDS = 1000
"""A game still running after this many hands is stopped and counted as unfinished."""
MAX_HANDS_CAP = 100_000
"""The largest hand cap a run may set (game records count hands in 32 bits)."""


class RunError(ValueError):
    """A bad run setting (count, seed, threads)."""


def resolve_seed(seed: int | None) -> int:
    """The one place where ``None`` becomes a fresh random seed; ints pass through (checked)."""
    if seed is None:
        return secrets.randbits(63)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise RunError(f"seed={seed!r}: allowed a whole number from 0 to 2**63-1")
    return seed


def set_threads(threads: int | None) -> int:
    """Set numba's thread count (None: all cores) and return it."""
    most = numba.config.NUMBA_NUM_THREADS
    if threads is None:
        threads = most
    if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= most:
        raise RunError(f"threads={threads!r}: allowed 1 to {most} on this machine")
    numba.set_num_threads(threads)
    return threads


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
    interrupted: bool = False
    totals: HandTotals | GameTotals = field(default_factory=HandTotals)
    frames: list[pd.DataFrame] = field(default_factory=list)

    def summary(self) -> pd.DataFrame:
        """The summary table of :mod:`spades_sim.analysis`."""
        return self.totals.summary()

    def records(self) -> pd.DataFrame:
        """The kept records (``keep_records=True``) as one DataFrame."""
        return pd.concat(self.frames, ignore_index=True) if self.frames else pd.DataFrame()


def _check_count(name: str, value: int, most: int | None = None) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1 or (
            most is not None and value > most):
        allowed = "a whole number of 1 or more" if most is None else f"1 to {most}"
        raise RunError(f"{name}={value!r}: allowed {allowed}")


def _prepare(raw_rules: str | RuleSet, raw_strategies, kind: str, n: int, seed: int | None,
             threads: int | None) -> tuple[RuleSet, list[Strategy], PackedRules, PackedStrategies, int]:
    rules, strategies, packed, strat = _pack(raw_rules, raw_strategies)
    _check_count(kind, n)
    set_threads(threads)
    return rules, strategies, packed, strat, resolve_seed(seed)


def _pack(raw_rules: str | RuleSet, raw_strategies
          ) -> tuple[RuleSet, list[Strategy], PackedRules, PackedStrategies]:
    """Resolve the rules and one strategy per seat, and pack both for the kernel."""
    rules = resolve_rules(raw_rules)
    strategies = seat_strategies(raw_strategies, rules.seat_count)
    return rules, strategies, pack_rules(rules), pack_strategies(strategies)


def simulate_hands(raw_rules: str | RuleSet, raw_strategies, n: int, seed: int | None = None,
                   threads: int | None = None, keep_records: bool = False,
                   on_block: Callable[[int], None] | None = None) -> Run:
    """Play ``n`` independent hands (each from 0-0) and total them.

    Hand ``i`` is the first hand of game ``i`` of a game run with the same seed.
    ``on_block(k)`` is called with the number of hands each block added.
    """
    rules, strategies, packed, strat, seed = _prepare(raw_rules, raw_strategies, "hands", n, seed,
                                                      threads)
    run = Run("hands", rules, strategies, seed, n, totals=HandTotals())
    _, no_trace = engine._empty_hand_outputs(packed, 0)

    def play_block(start: int, count: int):
        out, _ = engine._empty_hand_outputs(packed, count)
        engine._simulate_hands(packed, strat.bid_policy, strat.play_policy, strat.params,
                               seed, start, count, CHUNK_HANDS, out, no_trace, False)
        return out

    return _run_blocks(run, BLOCK_HANDS, play_block,
                       (lambda out, _start: _records.hand_frame(out)) if keep_records else None,
                       on_block)


def _run_blocks(run: Run, block: int, play_block: Callable[[int, int], Any],
                frame_of: Callable[[Any, int], pd.DataFrame] | None,
                on_block: Callable[[int], None] | None) -> Run:
    """Play ``run.requested`` hands or games block by block, folding each into the totals.

    Ctrl-C between or during blocks stops the run; every finished block is kept.
    """
    try:
        while run.done < run.requested:
            count = min(block, run.requested - run.done)
            records = play_block(run.done, count)
            run.totals.add(records)
            if frame_of is not None:
                run.frames.append(frame_of(records, run.done))
            run.done += count
            if on_block is not None:
                on_block(count)
    except KeyboardInterrupt:
        run.interrupted = True
    return run


def simulate_games(raw_rules: str | RuleSet, raw_strategies, n: int, seed: int | None = None,
                   threads: int | None = None, keep_records: bool = False,
                   max_hands: int = DEFAULT_MAX_HANDS,
                   on_block: Callable[[int], None] | None = None) -> Run:
    """Play ``n`` games to the target (or ``max_hands``) and total them."""
    rules, strategies, packed, strat, seed = _prepare(raw_rules, raw_strategies, "games", n, seed,
                                                      threads)
    _check_count("max_hands", max_hands, MAX_HANDS_CAP)
    run = Run("games", rules, strategies, seed, n, totals=GameTotals(sides=packed.side_count, seats=packed.seat_count))
    no_hands, no_trace = engine._empty_hand_outputs(packed, 0)

    def play_block(start: int, count: int):
        games = engine._empty_game_records(count, packed.side_count)
        engine._simulate_games(packed, strat.bid_policy, strat.play_policy, strat.params,
                               seed, start, count, CHUNK_GAMES, max_hands, games,
                               no_hands, no_trace)
        return games

    return _run_blocks(run, BLOCK_GAMES, play_block,
                       _records.game_frame if keep_records else None, on_block)


def trace_hands(raw_rules: str | RuleSet, raw_strategies, deals: Sequence[int], seed: int):
    """Replay hands ``deals`` of a hand run; returns (HandRecords, HandTrace, PackedRules)."""
    _, _, packed, strat = _pack(raw_rules, raw_strategies)
    ids = np.asarray(deals, dtype=np.int64)
    out, trace = engine._empty_hand_outputs(packed, ids.size)
    engine._trace_hands(packed, strat.bid_policy, strat.play_policy, strat.params, seed, ids,
                        out, trace)
    return out, trace, packed


def trace_games(raw_rules: str | RuleSet, raw_strategies, game_ids: Sequence[int], seed: int,
                max_hands: int = DEFAULT_MAX_HANDS):
    """Replay games ``game_ids``; returns (GameRecords, HandRecords, HandTrace, PackedRules)."""
    _, _, packed, strat = _pack(raw_rules, raw_strategies)
    ids = np.asarray(game_ids, dtype=np.int64)
    games = engine._empty_game_records(ids.size, packed.side_count)
    args = (packed, strat.bid_policy, strat.play_policy, strat.params, seed, ids, max_hands, games)
    rows = engine._trace_games(*args, False, *engine._empty_hand_outputs(packed, 0))
    out, trace = engine._empty_hand_outputs(packed, rows)
    engine._trace_games(*args, True, out, trace)
    return games, out, trace, packed

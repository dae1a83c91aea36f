"""Results are a pure function of (rules, strategies, seed, index) (docs/guarantees.md).

Counter-based randomness means that neither the thread count nor the block and
chunk sizes may change a single record; hand ``i`` of a hand run is the first
hand of game ``i`` of a game run; different strategies and rule sets on the same
seed see the same cards; and a seed picked by ``resolve_seed(None)`` is recorded
and reproduces the run.
"""

from __future__ import annotations

from collections.abc import Iterator

import numba
import numpy as np
import pandas as pd
import pytest

from spades_sim.kernel import drivers
from spades_sim.rules import RuleSet
from spades_sim.run import records as records_module
from spades_sim.run import simulate
from spades_sim.run.catalogue import pick
from spades_sim.run.simulate import (
    RunError,
    resolve_seed,
    set_threads,
    simulate_games,
    simulate_hands,
    trace_games,
    trace_hands,
)

HANDS = 20_000
GAMES = 300
SEED = 424_242

@pytest.fixture(autouse=True)
def _restore_threads() -> Iterator[None]:
    yield
    set_threads(None)


def assert_frames_equal(left: pd.DataFrame, right: pd.DataFrame) -> None:
    assert list(left.columns) == list(right.columns)
    assert len(left) == len(right)
    for column in left.columns:
        np.testing.assert_array_equal(left[column].to_numpy(), right[column].to_numpy(),
                                      err_msg=column)


def assert_records_equal(left, right) -> None:
    """Every field of two record NamedTuples (HandRecords, HandTrace, GameRecords)."""
    assert type(left) is type(right)
    for name in left._fields:
        np.testing.assert_array_equal(getattr(left, name), getattr(right, name), err_msg=name)


# --- threads, blocks and chunks ---


def test_records_equal_threads_1_vs_2() -> None:
    one = simulate_hands("standard", "basic", HANDS, seed=SEED, threads=1, keep_records=True)
    two = simulate_hands("standard", "basic", HANDS, seed=SEED, threads=2, keep_records=True)
    assert (one.done, two.done, one.interrupted, two.interrupted) == (HANDS, HANDS, False, False)
    assert_frames_equal(one.records(), two.records())
    pd.testing.assert_frame_equal(one.summary(), two.summary())


def test_game_records_equal_threads_1_vs_2() -> None:
    one = simulate_games("standard", "basic", GAMES, seed=SEED, threads=1, keep_records=True)
    two = simulate_games("standard", "basic", GAMES, seed=SEED, threads=2, keep_records=True)
    assert_frames_equal(one.records(), two.records())
    pd.testing.assert_frame_equal(one.summary(), two.summary())


def test_mixed_strategies_records_equal_threads_1_vs_2() -> None:
    strategies = ["expert", "random"]
    one = simulate_hands("standard", strategies, 5_000, seed=SEED, threads=1, keep_records=True)
    two = simulate_hands("standard", strategies, 5_000, seed=SEED, threads=2, keep_records=True)
    assert_frames_equal(one.records(), two.records())


@pytest.mark.parametrize(("block", "chunk"), [(3_000, 7), (1 << 16, 1), (HANDS, HANDS), (999, 5_000)])
def test_records_equal_across_chunk_sizes(monkeypatch: pytest.MonkeyPatch, block: int,
                                          chunk: int) -> None:
    baseline = simulate_hands("standard", "basic", HANDS, seed=SEED, keep_records=True)
    monkeypatch.setattr(simulate, "BLOCK_HANDS", block)
    monkeypatch.setattr(drivers, "CHUNK_HANDS", chunk)
    blocks = []
    split = simulate_hands("standard", "basic", HANDS, seed=SEED, keep_records=True,
                           on_block=blocks.append)
    assert sum(blocks) == HANDS
    assert len(blocks) == -(-HANDS // block)
    assert_frames_equal(baseline.records(), split.records())
    pd.testing.assert_frame_equal(baseline.summary(), split.summary())


@pytest.mark.parametrize(("block", "chunk"), [(50, 3), (7, 1), (GAMES, GAMES)])
def test_game_records_equal_across_chunk_sizes(monkeypatch: pytest.MonkeyPatch, block: int,
                                               chunk: int) -> None:
    baseline = simulate_games("standard", "basic", GAMES, seed=SEED, keep_records=True)
    monkeypatch.setattr(simulate, "BLOCK_GAMES", block)
    monkeypatch.setattr(drivers, "CHUNK_GAMES", chunk)
    split = simulate_games("standard", "basic", GAMES, seed=SEED, keep_records=True)
    assert_frames_equal(baseline.records(), split.records())
    assert list(split.records()["game"]) == list(range(GAMES))
    pd.testing.assert_frame_equal(baseline.summary(), split.summary())


# --- the trace path agrees with the parallel path ---


def test_trace_hands_equals_simulate_hands() -> None:
    run = simulate_hands("standard", "basic", 3_000, seed=SEED, keep_records=True)
    out, _, _ = trace_hands("standard", "basic", range(3_000), SEED)
    assert_frames_equal(run.records(), records_module.hand_frame(out))


def test_trace_hands_of_chosen_deals() -> None:
    deals = [2_999, 5, 0, 1_234, 5]
    full, full_trace, _ = trace_hands("standard", "basic", range(3_000), SEED)
    some, some_trace, _ = trace_hands("standard", "basic", deals, SEED)
    for name in full._fields:
        np.testing.assert_array_equal(getattr(some, name), getattr(full, name)[deals], err_msg=name)
    for name in full_trace._fields:
        np.testing.assert_array_equal(getattr(some_trace, name), getattr(full_trace, name)[deals],
                                      err_msg=name)


def test_trace_hands_in_kernel_calls_of_any_size(monkeypatch: pytest.MonkeyPatch) -> None:
    """A replay is cut into kernel calls of at most CHUNK_HANDS hands (Ctrl-C is taken between
    them): the records and traces do not depend on it."""
    deals = [*range(2_000), 2_500, *range(2_600, 3_000)]
    whole, whole_trace, _ = trace_hands("standard", "basic", deals, SEED)
    monkeypatch.setattr(drivers, "CHUNK_HANDS", 700)
    cut, cut_trace, _ = trace_hands("standard", "basic", deals, SEED)
    for name in whole._fields:
        np.testing.assert_array_equal(getattr(cut, name), getattr(whole, name), err_msg=name)
    for name in whole_trace._fields:
        np.testing.assert_array_equal(getattr(cut_trace, name), getattr(whole_trace, name),
                                      err_msg=name)


def test_trace_games_equals_simulate_games() -> None:
    run = simulate_games("standard", "basic", 200, seed=SEED, keep_records=True)
    games, out, _, _ = trace_games("standard", "basic", range(200), SEED)
    assert_frames_equal(run.records(), records_module.game_frame(games, 4))
    assert out.game.size == int(games.hands.sum())


# --- hands mode is the first hand of each game ---


@pytest.mark.parametrize("strategies", ["basic", "random", ["basic", "random"]])
def test_hand_i_is_first_hand_of_game_i(strategies) -> None:
    n = 400
    hand_out, hand_trace, _ = trace_hands("standard", strategies, range(n), SEED)
    games, game_out, game_trace, _ = trace_games("standard", strategies, range(n), SEED,
                                                 max_hands=30)
    first = np.flatnonzero(game_out.hand == 0)
    assert first.size == n
    np.testing.assert_array_equal(game_out.game[first], np.arange(n))
    for name in hand_out._fields:
        np.testing.assert_array_equal(getattr(hand_out, name), getattr(game_out, name)[first],
                                      err_msg=name)
    for name in hand_trace._fields:
        np.testing.assert_array_equal(getattr(hand_trace, name), getattr(game_trace, name)[first],
                                      err_msg=name)
    np.testing.assert_array_equal(games.first_dealer, hand_out.dealer)


def test_simulate_hands_matches_first_hands_of_simulate_games_records() -> None:
    hands = simulate_hands("standard", "basic", 300, seed=SEED, keep_records=True).records()
    _, game_out, _, _ = trace_games("standard", "basic", range(300), SEED)
    first = records_module.hand_frame(game_out)
    first = first[first["hand"] == 0].reset_index(drop=True)
    assert_frames_equal(hands, first)


# --- common random numbers ---


def test_strategies_share_deals_on_one_seed() -> None:
    basic, basic_trace, _ = trace_hands("standard", "basic", range(2_000), SEED)
    rand, rand_trace, _ = trace_hands("standard", "random", range(2_000), SEED)
    np.testing.assert_array_equal(basic_trace.hands, rand_trace.hands)
    np.testing.assert_array_equal(basic.dealer, rand.dealer)
    np.testing.assert_array_equal(basic.spades, rand.spades)
    # ... but they play differently.
    assert not np.array_equal(basic.bid, rand.bid)


def test_same_deck_presets_share_deals() -> None:
    _, standard_trace, _ = trace_hands("standard", "basic", range(2_000), SEED)
    house = RuleSet(name="house", nil_value=50, bag_limit=5, bag_penalty=50, target=300,
                    failed_contract="zero")
    _, house_trace, _ = trace_hands(house, "basic", range(2_000), SEED)
    np.testing.assert_array_equal(standard_trace.hands, house_trace.hands)


def test_different_seeds_differ() -> None:
    a, a_trace, _ = trace_hands("standard", "basic", range(1_000), SEED)
    b, b_trace, _ = trace_hands("standard", "basic", range(1_000), SEED + 1)
    assert (a_trace.hands != b_trace.hands).any(axis=1).mean() > 0.999
    assert not np.array_equal(a.dealer, b.dealer)
    games_a = simulate_games("standard", "basic", 100, seed=SEED, keep_records=True).records()
    games_b = simulate_games("standard", "basic", 100, seed=SEED + 1, keep_records=True).records()
    assert not np.array_equal(games_a["score_0"], games_b["score_0"])


def test_different_games_differ() -> None:
    # Deals of different games (and of different hands in one game) are different.
    _, _, trace, _ = trace_games("standard", "basic", range(50), SEED)
    rows = {tuple(int(x) for x in row) for row in trace.hands}
    assert len(rows) == trace.hands.shape[0]


# --- seeds ---


def test_resolve_seed_none_gives_a_fresh_int() -> None:
    seeds = {resolve_seed(None) for _ in range(5)}
    assert len(seeds) == 5
    for seed in seeds:
        assert isinstance(seed, int) and not isinstance(seed, bool)
        assert 0 <= seed < 2**63


def test_resolve_seed_passes_ints_through() -> None:
    assert resolve_seed(0) == 0
    assert resolve_seed(2**63 - 1) == 2**63 - 1


@pytest.mark.parametrize("bad", [-1, 2**63, True, 1.5, "3"])
def test_resolve_seed_refuses(bad) -> None:
    with pytest.raises(RunError) as raised:
        resolve_seed(bad)
    assert str(raised.value) == f"seed={bad!r}: allowed a whole number from 0 to 2**63-1"


def test_unseeded_hand_run_records_its_seed_and_reproduces() -> None:
    run = simulate_hands("standard", "basic", 2_000, seed=None, keep_records=True)
    assert isinstance(run.seed, int) and 0 <= run.seed < 2**63
    again = simulate_hands("standard", "basic", 2_000, seed=run.seed, keep_records=True)
    assert again.seed == run.seed
    assert_frames_equal(run.records(), again.records())


def test_unseeded_game_run_records_its_seed_and_reproduces() -> None:
    run = simulate_games("standard", "basic", 100, seed=None, keep_records=True)
    assert isinstance(run.seed, int) and 0 <= run.seed < 2**63
    again = simulate_games("standard", "basic", 100, seed=run.seed, keep_records=True)
    assert_frames_equal(run.records(), again.records())


def test_two_unseeded_runs_differ() -> None:
    a = simulate_hands("standard", "basic", 500, seed=None, keep_records=True)
    b = simulate_hands("standard", "basic", 500, seed=None, keep_records=True)
    assert a.seed != b.seed
    assert not np.array_equal(a.records()["spades"], b.records()["spades"])


@pytest.mark.parametrize(("threads", "message"), [
    (0, f"threads=0: allowed 1 to {numba.config.NUMBA_NUM_THREADS} on this machine"),
    (numba.config.NUMBA_NUM_THREADS + 1,
     f"threads={numba.config.NUMBA_NUM_THREADS + 1}: allowed 1 to "
     f"{numba.config.NUMBA_NUM_THREADS} on this machine"),
])
def test_set_threads_refuses(threads: int, message: str) -> None:
    with pytest.raises(RunError) as raised:
        simulate_hands("standard", "basic", 10, seed=1, threads=threads)
    assert str(raised.value) == message


def test_set_threads_sets_the_drivers_thread_count() -> None:
    assert set_threads(1) == 1 and drivers.threads() == 1
    assert set_threads(None) == numba.config.NUMBA_NUM_THREADS
    assert drivers.threads() == numba.config.NUMBA_NUM_THREADS


# --- an interrupted run keeps the blocks that finished (docs/guarantees.md, "Interrupts") ---


def test_interrupted_run_keeps_finished_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    full = simulate_hands("standard", "basic", 5_000, seed=SEED, keep_records=True).records()
    monkeypatch.setattr(simulate, "BLOCK_HANDS", 1_000)
    calls = []

    def stop_after_three(count: int) -> None:
        calls.append(count)
        if len(calls) == 3:
            raise KeyboardInterrupt

    run = simulate_hands("standard", "basic", 5_000, seed=SEED, keep_records=True,
                         on_block=stop_after_three)
    assert run.interrupted and run.done == 3_000 and run.requested == 5_000
    assert_frames_equal(run.records(), full.iloc[:4 * 3_000].reset_index(drop=True))
    assert int(pick(run.summary(), "bags")["n"]) == 2 * 3_000

"""Scale: saved runs that resume after Ctrl-C or a kill, and the Dask backend."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest
from clirun import assert_ok, assert_one_line_error, invoke, stop_after

from spades_sim.kernel import drivers
from spades_sim.run.catalogue import Totals
from spades_sim.run.simulate import RunError, resume, simulate_games, simulate_hands
from spades_sim.run.store import MANIFEST, RunStore, StoreError


def test_totals_round_trip_and_merge() -> None:
    """A block's totals survive the flat row of a shard exactly, and merging blocks gives the
    totals of one pass."""
    run = simulate_games("solo", "expert", 120, seed=3)
    back = Totals.from_row("games", run.totals.as_row())
    pd.testing.assert_frame_equal(back.summary(), run.summary())
    merged = back.empty_like()
    merged.merge(back)
    pd.testing.assert_frame_equal(merged.summary(), run.summary())
    hands = simulate_hands("standard", "basic", 3000, seed=3)
    assert Totals.from_row("hands", hands.totals.as_row()).as_row() == hands.totals.as_row()


@pytest.mark.usefixtures("small_blocks")
def test_interrupted_saved_hand_run_resumes_to_the_same_totals(tmp_path: Path) -> None:
    full = simulate_hands("standard", "expert", 5500, seed=4)
    part = simulate_hands("standard", "expert", 5500, seed=4, save=tmp_path / "run",
                          on_block=stop_after(3))
    assert part.interrupted and part.done == 3000
    shards = sorted(p.name for p in (tmp_path / "run").glob("block-*.parquet"))
    assert shards == [f"block-{start:012d}-00001000.parquet" for start in (0, 1000, 2000)]
    shard = pd.read_parquet(tmp_path / "run" / shards[1])
    assert shard["start"].item() == 1000 and shard["count"].item() == 1000
    assert shard["nil_bid_rate.all.x"].item() == 4 * 1000  # seat-hands
    again = resume(tmp_path / "run")
    assert (again.done, again.interrupted, again.seed) == (5500, False, 4)
    pd.testing.assert_frame_equal(again.summary(), full.summary())
    # The last block is shorter: 500 hands.
    assert (tmp_path / "run" / "block-000000005000-00000500.parquet").is_file()


@pytest.mark.usefixtures("small_blocks")
def test_interrupted_saved_game_run_resumes_twice(tmp_path: Path) -> None:
    full = simulate_games("standard", ["expert", "basic"], 260, seed=6, max_hands=300)
    simulate_games("standard", ["expert", "basic"], 260, seed=6, max_hands=300,
                   save=tmp_path / "g", on_block=stop_after(2))
    second = resume(tmp_path / "g", on_block=stop_after(2))
    assert second.interrupted and second.done == 200
    third = resume(tmp_path / "g")
    assert third.done == 260
    pd.testing.assert_frame_equal(third.summary(), full.summary())
    manifest = json.loads((tmp_path / "g" / MANIFEST).read_text())
    assert manifest["max_hands"] == 300 and manifest["block"] == 50 and manifest["seed"] == 6
    assert [s["name"] for s in manifest["strategies"]] == ["expert", "basic", "expert", "basic"]


def test_a_killed_run_keeps_its_finished_blocks(tmp_path: Path) -> None:
    """SIGKILL in the middle of a saved run (no chance to clean up), then --resume."""
    folder = tmp_path / "killed"
    command = [sys.executable, "-m", "spades_sim", "simulate", "--hands", "2000000", "--seed",
               "9", "--strategy", "random", "--save", str(folder), "--quiet", "--threads", "1"]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while len(list(folder.glob("block-*.parquet"))) < 3 and time.monotonic() < deadline:
        time.sleep(0.05)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    kept = RunStore(folder).blocks()
    assert 3 <= len(kept) < 31  # 2,000,000 hands are 31 blocks of 65,536
    resumed = invoke(["simulate", "--resume", str(folder), "--quiet"])
    assert_ok(resumed)
    fresh = invoke(["simulate", "--hands", "2000000", "--seed", "9", "--strategy", "random",
                    "--quiet"])
    resumed_lines, fresh_lines = resumed.output.splitlines(), fresh.output.splitlines()
    assert resumed_lines[0] == fresh_lines[0] + f" (resumed from {folder})"
    assert resumed_lines[1:] == fresh_lines[1:]


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_in_the_middle_of_a_run_keeps_its_blocks_and_exits_130(tmp_path: Path) -> None:
    """SIGINT to a real two-thread run once its first block is saved: the run stops between
    chunks, prints its totals as interrupted and exits 130, with no traceback."""
    folder = tmp_path / "interrupted"
    command = [sys.executable, "-m", "spades_sim", "simulate", "--hands", "20000000", "--seed",
               "7", "--save", str(folder), "--quiet", "--threads", "2"]
    # The run keeps an ignored SIGINT ignored (a background job's), and a test run started in
    # the background hands SIG_IGN down: the child gets the default disposition back.
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, preexec_fn=_default_sigint)
    deadline = time.monotonic() + 120
    while not list(folder.glob("block-*.parquet")) and time.monotonic() < deadline:
        time.sleep(0.02)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert "Traceback" not in err
    header, *rows = out.splitlines()
    assert header.endswith(" hands (interrupted)")
    hands = int(header.split(": ")[-1].split(" ")[0].replace(",", ""))
    assert hands % 65_536 == 0 and 1 <= hands // 65_536 < 306  # 20,000,000 hands: 306 blocks
    side_hands = next(row for row in rows if row.startswith("bags per side-hand")).split()[-1]
    assert int(side_hands.replace(",", "")) == 2 * hands  # the header counts what the totals hold
    assert len(RunStore(folder).blocks()) == hands // 65_536


@pytest.mark.parametrize("finish_running", [True, False])
def test_run_chunks_takes_ctrl_c_while_a_long_chunk_runs(finish_running: bool) -> None:
    """Ctrl-C noted while a long chunk runs is acted on within CHECK_EVERY, not when the chunk
    ends: no chunk starts after it, and without finish_running the call does not wait for the
    running ones either."""
    release = threading.Event()
    started: list[int] = []
    noted_at: list[float] = []

    def play(lo: int, hi: int) -> None:
        started.append(lo)
        release.wait(10)  # a chunk that runs until it is released

    def check() -> None:
        if not noted_at:  # Ctrl-C, noted: checked while the first chunks still run
            noted_at.append(time.monotonic())
            assert not release.is_set()
        raise KeyboardInterrupt

    threading.Timer(1.0, release.set).start()  # the long chunks end after a second
    with pytest.raises(KeyboardInterrupt):
        drivers.run_chunks(10, 1, play, check, workers=2, finish_running=finish_running)
    left = time.monotonic()
    assert sorted(started) == [0, 1]
    assert left - noted_at[0] < 0.5 if not finish_running else release.is_set()
    release.set()


@pytest.fixture
def ctrl_c_raises() -> Iterator[None]:
    """SIGINT raising KeyboardInterrupt, the case under test: a test run started in the
    background inherits it ignored (and then nothing is raised at all)."""
    inherited = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, inherited)


@pytest.mark.usefixtures("ctrl_c_raises")
def test_ctrl_c_swallowed_inside_a_compile_is_raised_at_once() -> None:
    """Ctrl-C that lands in a callback from C, where Python prints "Exception ignored" and drops
    the KeyboardInterrupt (as llvmlite's callback for each object numba compiles), is raised
    again on the block's next Python call, not when the block (a compile of tens of seconds)
    ends; the hook that dropped it stays quiet, and is put back afterwards."""
    import ctypes

    def callback_body() -> None:
        os.kill(os.getpid(), signal.SIGINT)
        for _ in range(1000):  # the handler runs here, inside the callback
            pass

    callback = ctypes.CFUNCTYPE(None)(callback_body)
    hook = sys.unraisablehook
    went_on: list[int] = []
    with pytest.raises(KeyboardInterrupt), drivers.interrupts_noted():
        callback()
        start = time.monotonic()
        while time.monotonic() - start < 5:  # the rest of a long compile
            went_on.append(1)
    assert went_on == []
    assert sys.unraisablehook is hook and sys.getprofile() is None
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


@pytest.mark.usefixtures("ctrl_c_raises")
def test_an_error_after_ctrl_c_in_a_compile_is_an_interrupt() -> None:
    """What the half-made compile raises next, once Ctrl-C has come, ends as the interrupt."""
    with pytest.raises(KeyboardInterrupt), drivers.interrupts_noted():
        try:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(1)
        except KeyboardInterrupt:  # swallowed, as numba's compiler may
            pass
        raise RuntimeError("no compiled object yet")


@pytest.mark.parametrize(("args", "message"), [
    (["--seed", "5"], "seed=5: allowed 4, as in the run saved in"),
    (["--hands", "999"], "requested=999: allowed 3000, as in the run saved in"),
    (["--games", "3000"], "kind='games': allowed 'hands', as in the run saved in"),
    (["--rule", "bag_penalty=50"], "rules.bag_penalty=50: allowed 100, as in the run saved in"),
    (["--strategy", "basic"], "strategies=['basic', 'basic', 'basic', 'basic']: allowed "
                              "['expert', 'expert', 'expert', 'expert']"),
])
@pytest.mark.usefixtures("small_blocks")
def test_a_resume_that_does_not_match_the_saved_run_is_refused(
        tmp_path: Path, args: list[str], message: str) -> None:
    simulate_hands("standard", "expert", 3000, seed=4, save=tmp_path / "r",
                   on_block=stop_after(1))
    assert_one_line_error(invoke(["simulate", "--resume", str(tmp_path / "r"), "--quiet", *args]),
                          message, prefix_only=True)


@pytest.mark.usefixtures("small_blocks")
def test_a_manifest_of_another_version_is_refused(tmp_path: Path) -> None:
    simulate_hands("standard", "expert", 3000, seed=4, save=tmp_path / "v",
                   on_block=stop_after(1))
    path = tmp_path / "v" / MANIFEST
    manifest = json.loads(path.read_text())
    path.write_text(json.dumps({**manifest, "version": "0.0.1"}))
    assert_one_line_error(invoke(["simulate", "--resume", str(tmp_path / "v"), "--quiet"]),
                          "version=", prefix_only=True)


def test_save_and_resume_folders_are_checked(tmp_path: Path) -> None:
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x").write_text("")
    assert_one_line_error(
        invoke(["simulate", "--hands", "10", "--save", str(tmp_path / "full"), "--quiet"]),
        f"save={str(tmp_path / 'full')!r}: allowed a new or empty folder (to go on with the run "
        "saved there: --resume)")
    assert_one_line_error(
        invoke(["simulate", "--resume", str(tmp_path / "none"), "--quiet"]),
        f"resume={str(tmp_path / 'none')!r}: allowed a folder written by --save (it has no "
        "manifest.json)")
    assert_one_line_error(
        invoke(["simulate", "--resume", str(tmp_path / "none"), "--records", "x.csv", "--quiet"]),
        f"resume={str(tmp_path / 'none')!r}: allowed without --records (such a run keeps totals "
        "only)")
    with pytest.raises(StoreError):
        RunStore(tmp_path / "none").manifest()


@pytest.mark.parametrize(("args", "message"), [
    (["--backend", "spark"], "backend='spark': allowed local or dask"),
    (["--backend", "dask"], "scheduler: allowed an address such as tcp://127.0.0.1:8786"),
    (["--scheduler", "tcp://127.0.0.1:8786"], "scheduler='tcp://127.0.0.1:8786': allowed only "
                                              "with backend dask"),
    (["--backend", "dask", "--scheduler", "tcp://127.0.0.1:9", "--records", "x.csv"],
     "backend='dask': allowed without --records (such a run keeps totals only)"),
    (["--backend", "dask", "--scheduler", "tcp://127.0.0.1:9"],
     "scheduler='tcp://127.0.0.1:9': allowed the address of a running Dask scheduler"),
])
def test_backend_options_are_checked(monkeypatch: pytest.MonkeyPatch, args: list[str],
                                     message: str) -> None:
    from spades_sim.run import backends

    monkeypatch.setattr(backends, "CONNECT_TIMEOUT", "1s")  # port 9 refuses: no need to wait 10 s
    assert_one_line_error(invoke(["simulate", "--hands", "10", "--quiet", *args]), message,
                          prefix_only=True)


@pytest.mark.parametrize("kind", ["--hands", "--games"])
def test_a_scheduler_not_reached_leaves_no_save_folder(monkeypatch: pytest.MonkeyPatch,
                                                       tmp_path: Path, kind: str) -> None:
    from spades_sim.run import backends

    monkeypatch.setattr(backends, "CONNECT_TIMEOUT", "1s")
    result = invoke(["simulate", kind, "10", "--quiet", "--backend", "dask", "--scheduler",
                     "tcp://127.0.0.1:9", "--save", str(tmp_path / "run")])
    assert_one_line_error(result, "scheduler='tcp://127.0.0.1:9': allowed the address of a "
                                  "running Dask scheduler", prefix_only=True)
    assert not (tmp_path / "run").exists()


@pytest.fixture(scope="module")
def cluster():
    """Two Dask workers in their own processes, on loopback."""
    from dask.distributed import LocalCluster  # a test dependency: never skipped

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=None) as local:
        yield local.scheduler_address


@pytest.mark.usefixtures("small_blocks")
def test_dask_backend_gives_the_local_results(cluster: str, tmp_path: Path) -> None:
    local = simulate_hands("standard", ["expert", "basic"], 6200, seed=12)
    remote = simulate_hands("standard", ["expert", "basic"], 6200, seed=12, backend="dask",
                            scheduler=cluster)
    pd.testing.assert_frame_equal(remote.summary(), local.summary())
    games = simulate_games("solo", "expert", 230, seed=12)
    remote_games = simulate_games("solo", "expert", 230, seed=12, backend="dask",
                                  scheduler=cluster, save=tmp_path / "d")
    pd.testing.assert_frame_equal(remote_games.summary(), games.summary())
    assert len(list((tmp_path / "d").glob("block-*.parquet"))) == 5  # 4 × 50 + 30


@pytest.mark.usefixtures("small_blocks")
def test_a_run_saved_locally_resumes_on_dask(cluster: str, tmp_path: Path) -> None:
    full = simulate_games("standard", "basic", 240, seed=13)
    simulate_games("standard", "basic", 240, seed=13, save=tmp_path / "x", on_block=stop_after(2))
    finished = resume(tmp_path / "x", backend="dask", scheduler=cluster)
    assert finished.done == 240
    pd.testing.assert_frame_equal(finished.summary(), full.summary())


def test_dask_command_line(cluster: str) -> None:
    remote = invoke(["simulate", "--hands", "3000", "--seed", "2", "--quiet", "--backend", "dask",
                     "--scheduler", cluster])
    assert_ok(remote)
    local = invoke(["simulate", "--hands", "3000", "--seed", "2", "--quiet"])
    assert remote.output == local.output


def _cluster(workers: int):
    from dask.distributed import LocalCluster

    return LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                        host="127.0.0.1", dashboard_address=None)


@pytest.mark.usefixtures("small_blocks")
def test_a_lost_scheduler_ends_the_run_in_one_line_with_its_blocks_saved(tmp_path: Path) -> None:
    """The scheduler (and its workers) shut down once two blocks are in: the run stops with
    the one-line error, the blocks it had are saved, and a local --resume finishes it."""
    local = _cluster(1)
    calls = []

    def close_after_two(count: int) -> None:
        calls.append(count)
        if len(calls) == 2:
            local.close()

    with pytest.raises(RunError) as raised:
        simulate_games("standard", "basic", 600, seed=14, backend="dask",
                       scheduler=local.scheduler_address, save=tmp_path / "lost",
                       on_block=close_after_two)
    message = str(raised.value)
    assert "\n" not in message and message.startswith(
        f"scheduler={local.scheduler_address!r}: lost the scheduler; ")
    kept = RunStore(tmp_path / "lost").blocks()
    assert len(kept) >= 2 and f"{sum(c for _, c, _ in kept):,} of 600 games" in message
    finished = resume(tmp_path / "lost")
    pd.testing.assert_frame_equal(finished.summary(),
                                  simulate_games("standard", "basic", 600, seed=14).summary())


def test_a_cluster_with_no_worker_ends_the_run_in_one_line(monkeypatch: pytest.MonkeyPatch,
                                                            tmp_path: Path) -> None:
    from spades_sim.run import backends

    monkeypatch.setattr(backends, "NO_WORKER_SECONDS", 1.5)
    monkeypatch.setattr(backends, "POLL_SECONDS", 0.2)
    with _cluster(0) as empty:
        result = invoke(["simulate", "--games", "100", "--quiet", "--backend", "dask",
                         "--scheduler", empty.scheduler_address, "--save", str(tmp_path / "e")])
    assert_one_line_error(result, f"scheduler={empty.scheduler_address!r}: no worker for 1.5 s; "
                                  "0 of 100 games finished (kept in a --save folder: --resume "
                                  "finishes the run)")
    assert RunStore(tmp_path / "e").blocks() == []

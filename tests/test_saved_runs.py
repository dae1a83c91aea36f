"""Saved runs check themselves: each damage a careless or hostile hand can do to a save folder
is either repaired by playing the damaged block again (and said so) or refused in one line.

Every test saves 5,500 hands of ``basic`` in blocks of 1,000 (six shards, the last of 500),
then damages the folder and resumes it; a repaired run must give exactly the totals of the
same run never interrupted.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest
from clirun import assert_ok, assert_one_line_error, invoke

from spades_sim.inputs import MAX_NESTING, MAX_SHARD_BYTES, MAX_TEXT_BYTES
from spades_sim.kernel import warmup
from spades_sim.outputs import _create_temporary, is_temporary
from spades_sim.rules import load_preset
from spades_sim.run.simulate import resume, simulate_hands
from spades_sim.run.store import LOCK, MANIFEST, MAX_BLOCK, Manifest, RunStore, StoreError

pytestmark = pytest.mark.usefixtures("small_blocks")

HANDS, SEED = 5_500, 4


def _shard(folder: Path, start: int) -> Path:
    return next(folder.glob(f"block-{start:012d}-*.parquet"))


@pytest.fixture
def saved(tmp_path: Path, small_blocks: None) -> Path:
    """A finished saved run of six shards."""
    simulate_hands("standard", "basic", HANDS, seed=SEED, save=tmp_path / "run")
    return tmp_path / "run"


@pytest.fixture(scope="module")
def whole() -> pd.DataFrame:
    import spades_sim.run.simulate as simulate

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(simulate, "BLOCK_HANDS", 1000)
        return simulate_hands("standard", "basic", HANDS, seed=SEED).summary()


def _resume_counting(folder: Path):
    """Resume ``folder``: (the run, the hands played again)."""
    played = []
    run = resume(folder, on_block=played.append)
    return run, sum(played)


def _truncate(path: Path) -> None:
    path.write_bytes(path.read_bytes()[:200])


def _empty(path: Path) -> None:
    path.write_bytes(b"")


def _garbage(path: Path) -> None:
    path.write_bytes(b"PAR1 this is not a parquet file at all" * 20)


def _tamper(path: Path) -> None:
    """One total changed, the shard otherwise intact (its checksum now wrong)."""
    frame = pd.read_parquet(path)
    frame["bags.all.y"] += 4
    frame.to_parquet(path, index=False)


def _shift(path: Path) -> None:
    """The row's range moved by one hand (the checksum recomputed would still not help: the
    range is part of it, and the name no longer agrees)."""
    frame = pd.read_parquet(path)
    frame["count"] -= 1
    frame.to_parquet(path, index=False)


def _rename(path: Path) -> None:
    """The shard's name claims 999 hands: not a block of this run."""
    path.rename(path.with_name(path.name.replace("-00001000.", "-00000999.")))


@pytest.mark.parametrize(("damage", "reason"), [
    (_truncate, "unreadable"), (_empty, "unreadable"), (_garbage, "unreadable"),
    (_tamper, "its totals do not match their checksum"),
    (_shift, "its range differs from its name"),
    (_rename, "hands 2000-2998 are not a block of this run"),
    (Path.unlink, None),
])
def test_a_damaged_or_missing_shard_is_played_again_alone(saved: Path, whole: pd.DataFrame,
                                                           damage, reason: str | None) -> None:
    damage(_shard(saved, 2000))
    scan = RunStore(saved).scan(RunStore(saved).manifest())
    assert scan.pending == [2000]
    assert len(scan.damaged) == (0 if reason is None else 1)
    if reason:
        assert reason in scan.damaged[0] and scan.damaged[0].endswith("playing its block again")
    run, played = _resume_counting(saved)
    assert played == 1000  # only the damaged block, not the blocks after it
    assert run.done == HANDS and run.replayed == scan.damaged
    pd.testing.assert_frame_equal(run.summary(), whole)
    assert RunStore(saved).scan(RunStore(saved).manifest()).pending == []


def test_the_command_says_which_shard_it_plays_again(saved: Path) -> None:
    _tamper(_shard(saved, 1000))
    result = invoke(["simulate", "--resume", str(saved), "--quiet"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0] == (
        "note: block-000000001000-00001000.parquet: its totals do not match their checksum; "
        "playing its block again")


@pytest.mark.parametrize(("args", "message"), [
    (["--threads", "1000000"], "threads=1000000: allowed 1 to"),
    (["--backend", "nope"], "backend='nope': allowed local or dask"),
    (["--scheduler", "tcp://h:1"], "scheduler='tcp://h:1': allowed only with backend dask"),
])
def test_a_resume_checks_its_options_before_the_notes_of_its_scan(
        saved: Path, args: list[str], message: str) -> None:
    """A damaged shard would be noted as the scan finds it: a bad option is refused before,
    alone on its line, and the folder is left as it was."""
    _tamper(_shard(saved, 1000))
    before = sorted(path.name for path in saved.iterdir())
    assert_one_line_error(invoke(["simulate", "--resume", str(saved), "--quiet", *args]),
                          message, prefix_only=True)
    assert sorted(path.name for path in saved.iterdir()) == before


def test_a_shard_of_another_run_is_refused(saved: Path, tmp_path: Path) -> None:
    simulate_hands("standard", "basic", HANDS, seed=SEED + 1, save=tmp_path / "other")
    shutil.copy(_shard(tmp_path / "other", 3000), _shard(saved, 3000))
    assert_one_line_error(invoke(["simulate", "--resume", str(saved), "--quiet"]),
                          f"shard={str(_shard(saved, 3000))!r}: allowed shards of the run saved "
                          f"in {str(saved)!r} (it belongs to run", prefix_only=True)


def _contents(folder: Path) -> dict[str, int]:
    return {path.name: path.stat().st_mtime_ns for path in folder.iterdir()}


@pytest.mark.parametrize("change", [
    {"seed": SEED + 1}, {"block": 7}, {"block": 500}, {"block": 5_500}, {"requested": 6_000},
    {"requested": 5_499}, {"max_hands": 300},
    {"rules": {**load_preset("standard").to_dict(), "nil_value": 50}},
], ids=lambda change: "-".join(f"{key}={str(value)[:8]}" for key, value in change.items()))
def test_a_manifest_edited_after_its_shards_is_refused_before_any_block(saved: Path,
                                                                         change: dict) -> None:
    """Any field edited refuses the run, before a block is played or a shard written: the
    shards carry the digest of the manifest they were saved with (a block of 7 once played
    the run again in 786 tiny blocks)."""
    path = saved / MANIFEST
    path.write_text(json.dumps({**json.loads(path.read_text()), **change}))
    before = _contents(saved)
    started = time.monotonic()
    result = invoke(["simulate", "--resume", str(saved), "--quiet"])
    assert time.monotonic() - started < 10
    assert_one_line_error(result, f"resume={str(saved)!r}: allowed a manifest.json as its shards "
                          "were saved with (6 shards of run", prefix_only=True)
    assert "it was changed)" in result.output
    assert _contents(saved) == before
    with pytest.raises(StoreError, match="it was changed"):
        resume(saved, on_block=pytest.fail)


@pytest.mark.parametrize(("block", "kind", "most"), [
    (2**62, "hands", MAX_BLOCK["hands"]), (MAX_BLOCK["hands"] + 1, "hands", MAX_BLOCK["hands"]),
    (MAX_BLOCK["games"] + 1, "games", MAX_BLOCK["games"])])
def test_a_block_beyond_its_range_is_refused(saved: Path, block: int, kind: str,
                                             most: int) -> None:
    """Not a sixth shard, as ``"block": 2**62`` once gave: the block's range is checked with
    the manifest's other fields."""
    path = saved / MANIFEST
    path.write_text(json.dumps({**json.loads(path.read_text()), "block": block, "kind": kind}))
    before = _contents(saved)
    result = invoke(["simulate", "--resume", str(saved), "--quiet"])
    assert_one_line_error(result, f"resume={str(saved)!r}: allowed a manifest.json it can trust "
                          f"(block={block}: allowed a whole number from 1 to {most:,})")
    assert _contents(saved) == before


def test_a_shard_beyond_its_bound_is_refused(saved: Path) -> None:
    shard = _shard(saved, 2000)
    with shard.open("ab") as file:
        file.truncate(MAX_SHARD_BYTES + 1)  # sparse: no disk used
    before = _contents(saved)
    assert_one_line_error(invoke(["simulate", "--resume", str(saved), "--quiet"]),
                          f"shard={str(shard)!r}: allowed a file of at most 16 MiB "
                          f"({MAX_SHARD_BYTES + 1:,} bytes); move it out")
    assert _contents(saved) == before


@pytest.mark.parametrize(("text", "allowed"), [
    ('{"kind": ' + "[" * 40 + "]" * 40 + "}", f"JSON nested at most {MAX_NESTING} deep"),
    ("[" * 100_000, f"JSON nested at most {MAX_NESTING} deep"),
    ('{"seed": ' + "9" * 5000 + "}", "JSON with numbers of at most 4300 digits"),
])
def test_a_manifest_beyond_its_bounds_is_refused(saved: Path, text: str, allowed: str) -> None:
    (saved / MANIFEST).write_text(text)
    assert_one_line_error(invoke(["simulate", "--resume", str(saved), "--quiet"]),
                          f"resume={str(saved)!r}: allowed a manifest.json it can trust "
                          f"(manifest: allowed {allowed})")


def test_an_over_large_manifest_is_refused(saved: Path) -> None:
    path = saved / MANIFEST
    path.write_text(path.read_text() + " " * MAX_TEXT_BYTES)
    size = path.stat().st_size
    assert_one_line_error(invoke(["simulate", "--resume", str(saved), "--quiet"]),
                          f"resume={str(saved)!r}: allowed a manifest.json that is a file of at "
                          f"most 1 MiB ({size:,} bytes)")


@pytest.mark.parametrize(("change", "message"), [
    ({"block": 0}, "block=0: allowed a whole number from 1 to 65,536"),
    ({"block": "1000"}, "block='1000': allowed a whole number from 1 to 65,536"),
    ({"requested": 1.5}, "requested=1.5: allowed a whole number from 1 to 10,000,000,000"),
    ({"requested": 10**10 + 1}, f"requested={10**10 + 1}: allowed a whole number from 1 to"),
    ({"requested": 10**10, "block": 1}, "block=1: allowed a whole number from 10,000 to 65,536 "
     "for a run of 10,000,000,000 hands (at most 1,000,000 blocks)"),
    ({"seed": -1}, "seed=-1: allowed a whole number from 0 to 2**63-1"),
    ({"seed": True}, "seed=True: allowed a whole number from 0 to 2**63-1"),
    ({"kind": "sets"}, "kind='sets': allowed 'hands' or 'games'"),
    ({"max_hands": 0}, "max_hands=0: allowed null or a whole number from 1 to 100,000"),
    ({"format": 1}, "format=1: allowed 3 (a run saved by another release"),
    ({"strategies": 3}, "strategies=3: allowed a list of strategies"),
    ({"strategies": [{"name": "x"}]}, "strategies=['x']: allowed a list"),
    ({"rules": []}, "rules=[]: allowed a rule set"),
    ({"rules": {"nil_value": "lots"}}, "nil_value='lots': allowed"),
    ({"api_token": "s3cr3t"}, "manifest field 'api_token': allowed kind, rules"),
])
def test_a_manifest_it_cannot_trust_is_refused(saved: Path, change: dict, message: str) -> None:
    path = saved / MANIFEST
    path.write_text(json.dumps({**json.loads(path.read_text()), **change}))
    result = invoke(["simulate", "--resume", str(saved), "--quiet"])
    assert_one_line_error(result, f"resume={str(saved)!r}: allowed a manifest.json it can trust (",
                          prefix_only=True)
    assert message in result.output and "s3cr3t" not in result.output


@pytest.mark.parametrize("text", ["", "[1, 2]", "{", "[" * 100_000, "1" * 5000])
def test_a_manifest_that_is_not_json_is_refused(saved: Path, text: str) -> None:
    (saved / MANIFEST).write_text(text)
    assert_one_line_error(invoke(["simulate", "--resume", str(saved), "--quiet"]),
                          f"resume={str(saved)!r}: allowed a manifest.json", prefix_only=True)


def test_a_folder_in_use_is_refused(saved: Path, tmp_path: Path) -> None:
    """While one process holds the folder (here: this test's lock), a second resume or save
    into it is refused in one line, and the folder is usable again once it is released."""
    holder = RunStore(saved)
    holder.acquire()
    try:
        assert_one_line_error(invoke(["simulate", "--resume", str(saved), "--quiet"]),
                              f"resume={str(saved)!r}: allowed a folder no other run is using "
                              "(another spades-sim process is saving into it)")
        fresh = tmp_path / "fresh"
        fresh.mkdir()
        other = RunStore(fresh)
        other.acquire("save")
        try:
            assert_one_line_error(
                invoke(["simulate", "--hands", "10", "--save", str(fresh), "--quiet"]),
                f"save={str(fresh)!r}: allowed a folder no other run is using (another "
                "spades-sim process is saving into it)")
        finally:
            other.release()
    finally:
        holder.release()
    assert invoke(["simulate", "--resume", str(saved), "--quiet"]).exit_code == 0


def test_a_refused_save_leaves_the_folder_as_it_was(tmp_path: Path) -> None:
    """A folder holding another file is refused before anything is written into it: no lock,
    no manifest (the lock used to be left behind)."""
    folder = tmp_path / "full"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine")
    assert_one_line_error(invoke(["simulate", "--hands", "10", "--save", str(folder),
                                  "--quiet"]),
                          f"save={str(folder)!r}: allowed a new or empty folder (to go on with "
                          "the run saved there: --resume)")
    assert [p.name for p in folder.iterdir()] == ["notes.txt"]
    with pytest.raises(StoreError, match="allowed a new or empty folder"):
        RunStore(folder).create(Manifest("hands", {}, (), 1, 10, 10, None))
    assert [p.name for p in folder.iterdir()] == ["notes.txt"]


def _unopenable_lock(folder: Path, kind: str) -> None:
    """Make ``folder/.lock`` a folder, or a file this process cannot open for writing (for
    root, whom permissions do not stop, a link to a file of /proc no one can append to)."""
    lock = folder / LOCK
    lock.unlink(missing_ok=True)
    if kind == "folder":
        lock.mkdir()
    elif os.geteuid() == 0:
        lock.symlink_to("/proc/version")
    else:
        lock.touch(mode=0o000)


@pytest.mark.parametrize("kind", ["folder", "unreadable"])
def test_a_lock_that_cannot_be_opened_is_one_line(saved: Path, tmp_path: Path,
                                                  kind: str) -> None:
    _unopenable_lock(saved, kind)
    before = sorted(p.name for p in saved.iterdir())
    result = invoke(["simulate", "--resume", str(saved), "--quiet"])
    assert_one_line_error(result, f"resume={str(saved)!r}: allowed a folder whose .lock is a "
                                  "file spades-sim can open (", prefix_only=True)
    assert sorted(p.name for p in saved.iterdir()) == before
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    _unopenable_lock(fresh, kind)
    result = invoke(["simulate", "--hands", "10", "--save", str(fresh), "--quiet"])
    assert_one_line_error(result, f"save={str(fresh)!r}: allowed a folder whose .lock is a "
                                  "file spades-sim can open (", prefix_only=True)
    assert [p.name for p in fresh.iterdir()] == [LOCK]


KILLED_WHILE_SAVING = """
import os, signal, sys
import pandas as pd
from spades_sim.run import simulate

simulate.BLOCK_HANDS = 1000
real_to_parquet = pd.DataFrame.to_parquet
shards = []

def killed_on_the_third(frame, path, *args, **kwargs):
    real_to_parquet(frame, path, *args, **kwargs)  # written, not yet renamed
    shards.append(path)
    if len(shards) == 3:
        os.kill(os.getpid(), signal.SIGKILL)

pd.DataFrame.to_parquet = killed_on_the_third
simulate.simulate_hands("standard", "basic", int(sys.argv[2]), seed=int(sys.argv[3]),
                        save=sys.argv[1])
"""


def test_a_save_killed_while_writing_a_shard_is_resumed_without_its_temporary(
        tmp_path: Path, whole: pd.DataFrame) -> None:
    """SIGKILL while a shard is written leaves its temporary file: --resume clears it and
    finishes the run with exactly the totals of a run never interrupted."""
    folder = tmp_path / "run"
    killed = subprocess.run([sys.executable, "-c", KILLED_WHILE_SAVING, str(folder), str(HANDS),
                             str(SEED)], env=warmup.process_env(), capture_output=True)
    assert killed.returncode == -signal.SIGKILL, killed.stderr.decode()[-2000:]
    names = sorted(p.name for p in folder.iterdir())
    temporaries = [name for name in names if is_temporary(name)]
    assert len(temporaries) == 1 and temporaries[0].startswith(".block-000000002000-")
    assert [name for name in names if name.startswith("block-")] == [
        "block-000000000000-00001000.parquet", "block-000000001000-00001000.parquet"]
    run, played = _resume_counting(folder)
    assert played == HANDS - 2000
    assert run.summary().equals(whole)
    assert not any(is_temporary(p.name) for p in folder.iterdir())


def test_a_fresh_save_clears_the_temporary_of_a_save_killed_before_its_manifest(
        tmp_path: Path) -> None:
    """Killed while its manifest was written, a save leaves only its lock and a temporary
    file: that folder counts as empty, and a new run saved there removes the temporary."""
    folder = tmp_path / "run"
    folder.mkdir()
    (folder / LOCK).touch()
    leftover = _create_temporary(folder, MANIFEST).name  # as atomic_path names it
    (folder / leftover).write_text("{")
    assert sorted(p.name for p in folder.iterdir()) == sorted([LOCK, leftover])
    assert_ok(invoke(["simulate", "--hands", "10", "--save", str(folder), "--quiet"]))
    assert sorted(p.name for p in folder.iterdir()) == [
        LOCK, "block-000000000000-00000010.parquet", MANIFEST]


def test_a_folder_that_is_no_saved_run_gets_no_lock(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="allowed a folder written by --save"):
        resume(tmp_path)
    assert_one_line_error(invoke(["simulate", "--resume", str(tmp_path), "--quiet"]),
                          f"resume={str(tmp_path)!r}: allowed a folder written by --save (it "
                          "has no manifest.json)")
    assert list(tmp_path.iterdir()) == []

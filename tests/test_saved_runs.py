"""Saved runs check themselves: each damage a careless or hostile hand can do to a save folder
is either repaired by playing the damaged block again (and said so) or refused in one line.

Every test saves 5,500 hands of ``basic`` in blocks of 1,000 (six shards, the last of 500),
then damages the folder and resumes it; a repaired run must give exactly the totals of the
same run never interrupted.
"""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import pandas as pd
import pytest
from clirun import assert_one_line_error, invoke

from spades_sim.inputs import MAX_NESTING, MAX_SHARD_BYTES, MAX_TEXT_BYTES
from spades_sim.rules import load_preset
from spades_sim.run.simulate import resume, simulate_hands
from spades_sim.run.store import MANIFEST, MAX_BLOCK, RunStore, StoreError

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

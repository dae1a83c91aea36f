"""The kernel cache's folders: this version's marked used, other versions' pruned when unused
for 30 days (or beyond the newest few), ``spades-sim cache`` listing and clearing them. Every
test works in a folder of its own (``NUMBA_CACHE_DIR``), never on the cache the tests load."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from clirun import assert_ok, invoke

from spades_sim.kernel import cache

DAY = 24 * 3600.0
NOW = 2_000_000_000.0


def _version(base: Path, digest: str, used_days_ago: float | None, *, marker: bool = True,
             size: int = 1000) -> Path:
    """A kernel cache folder last used ``used_days_ago`` days before NOW (None: just now)."""
    folder = base / f"kernel-{digest}"
    (folder / "spades_sim_kernel").mkdir(parents=True)
    (folder / "spades_sim_kernel" / "engine.nbi").write_bytes(b"x" * size)
    when = NOW - (used_days_ago or 0) * DAY
    if marker:
        (folder / cache.USED).touch()
        os.utime(folder / cache.USED, (when, when))
    os.utime(folder, (when, when))
    return folder


@pytest.fixture
def base(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "cache").mkdir()
    return tmp_path / "cache"


def _names(base: Path) -> list[str]:
    return sorted(path.name for path in base.iterdir())


def test_prune_removes_other_versions_unused_for_30_days(base: Path) -> None:
    current = Path(cache.folder() or "")
    assert current.parent == base
    _version(base, current.name[len(cache.PREFIX):], 400)  # this version: kept, however old
    _version(base, "a" * 16, 31)
    _version(base, "b" * 16, 29)
    _version(base, "c" * 16, 45, marker=False)  # made before the marker: the folder's own time
    (base / "kernel-not-a-digest").mkdir()  # not a kernel version's folder: never touched
    (base / "other-cache").mkdir()
    removed = cache.prune(str(base), now=NOW)
    assert sorted(f.digest for f in removed) == ["a" * 16, "c" * 16]
    assert _names(base) == sorted([current.name, "kernel-" + "b" * 16, "kernel-not-a-digest",
                                   "other-cache"])


def test_prune_keeps_the_newest_few_once_the_rest_are_a_day_old(base: Path) -> None:
    for rank in range(cache.KEEP_NEWEST + 3):  # 2 days apart, the first a day and a half old
        _version(base, f"{rank:016x}", 1.5 + 2 * rank)
    removed = cache.prune(str(base), now=NOW)
    assert [f.digest for f in cache.folders(str(base))] == [
        f"{rank:016x}" for rank in range(cache.KEEP_NEWEST)]
    assert sorted(f.digest for f in removed) == [
        f"{rank:016x}" for rank in range(cache.KEEP_NEWEST, cache.KEEP_NEWEST + 3)]


def test_versions_used_in_the_last_day_are_kept_however_many(base: Path) -> None:
    """Several checkouts of different versions in use at once each keep their compiled kernel."""
    for rank in range(cache.KEEP_NEWEST + 3):
        _version(base, f"{rank:016x}", rank / 24)  # an hour apart
    assert cache.prune(str(base), now=NOW) == []
    assert len(cache.folders(str(base))) == cache.KEEP_NEWEST + 3


def test_tidy_marks_this_version_used_and_prunes_at_most_once_a_day(base: Path,
                                                                    monkeypatch) -> None:
    monkeypatch.setattr(cache, "FOLDER", cache.folder())
    _version(base, "a" * 16, 40)
    cache.tidy(now=NOW)
    assert os.stat(Path(cache.FOLDER or "") / cache.USED).st_mtime == NOW
    assert _names(base) == sorted([Path(cache.FOLDER or "").name, cache.PRUNED])
    _version(base, "b" * 16, 40)
    cache.tidy(now=NOW + DAY / 2)  # pruned half a day ago: not again yet
    assert "kernel-" + "b" * 16 in _names(base)
    cache.tidy(now=NOW + DAY + 1)
    assert "kernel-" + "b" * 16 not in _names(base)


def test_a_cache_folder_that_cannot_be_written_is_left_alone(tmp_path: Path,
                                                            monkeypatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("", encoding="utf-8")
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(blocker / "cache"))
    monkeypatch.setattr(cache, "FOLDER", cache.folder())
    cache.tidy(now=NOW)  # no error, nothing said: the cache's own note says it when it matters
    assert list(tmp_path.iterdir()) == [blocker]


def test_the_cache_command_lists_and_clears(base: Path) -> None:
    current = Path(cache.folder() or "")
    _version(base, current.name[len(cache.PREFIX):], None, size=2_000_000)
    _version(base, "a" * 16, 3, size=500_000)
    (base / "other-cache").mkdir()
    shown = invoke(["cache"])
    assert_ok(shown)
    lines = shown.stdout.splitlines()
    assert lines[0] == f"kernel cache {base}: 2 folder(s), 2.5 MB"
    assert lines[1].startswith(f"  {current.name[7:]}      2.0 MB  last used ")
    assert lines[1].endswith("  (this version)")
    assert lines[2].startswith(f"  {'a' * 16}      0.5 MB  last used ")
    table = json.loads(invoke(["cache", "--format", "json"]).stdout)
    assert [(row["digest"], row["current"], row["bytes"]) for row in table["rows"]] == [
        (current.name[7:], True, 2_000_000), ("a" * 16, False, 500_000)]
    cleared = invoke(["cache", "--clear"])
    assert_ok(cleared)
    assert cleared.stdout == f"kernel cache {base}: removed 2 folder(s), 2.5 MB\n"
    assert _names(base) == ["other-cache"]

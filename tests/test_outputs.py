"""Output paths: refused before a run when they cannot be written, written whole or not at all.

Every refusal is one ``Error:`` line naming the option, the path and the reason, exit code 2,
and leaves the folder as it was: no target, no temporary file.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pandas as pd
import pytest
from clirun import assert_ok, invoke

from spades_sim.outputs import OutputError, atomic_path, check_file, shown

RUN = ["simulate", "--hands", "2000", "--seed", "1", "--quiet", "--strategy", "basic"]
"""A cheap run: its records (8,000 rows) are far larger than the tiny file system below."""


@contextmanager
def _mounted(folder: Path, options: str) -> Iterator[None]:
    """A tmpfs mounted on ``folder`` for the block (skips the test where mounting is not
    allowed: not root, or no CAP_SYS_ADMIN in a container)."""
    folder.mkdir(exist_ok=True)
    mount = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(folder)],
                           capture_output=True, text=True)
    if mount.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mount.stderr.strip() or mount.returncode}")
    try:
        yield
    finally:
        subprocess.run(["umount", str(folder)], check=True)


@pytest.fixture
def read_only(tmp_path: Path) -> Iterator[Path]:
    """A folder no file can be created in: mode 0o555, or for root (whom permissions do not
    stop) a read-only tmpfs."""
    folder = tmp_path / "ro"
    if os.geteuid() == 0:
        with _mounted(folder, "ro,size=64k"):
            yield folder
        return
    folder.mkdir()
    folder.chmod(0o555)
    try:
        yield folder
    finally:
        folder.chmod(0o755)


def _error_lines(output: str) -> list[str]:
    return [line for line in output.splitlines() if line.startswith("Error:")]


def _assert_refused(result, field: str, path: Path, reason: str) -> None:
    """Exit 2, exactly one line (the error), naming the field, the path (shortened) and why."""
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    lines = result.output.splitlines()
    assert len(lines) == 1, result.output
    assert lines[0].startswith(f"Error: {field}='{str(path)[:20]}"), lines[0]
    assert reason in lines[0], lines[0]
    assert len(lines[0]) < 220, lines[0]  # a long path is shortened


def _commands(option: str, path: Path) -> list[str]:
    """A command writing ``path`` through ``option``."""
    if option == "records":
        return [*RUN, "--records", str(path)]
    if option == "log":
        return [*RUN, "--log", str(path), "--log-deals", "0:5"]
    return ["compare-rules", "standard", "classic", "--games", "20", "--quiet", "--figure",
            str(path)]


SUFFIX = {"records": ".csv", "log": ".jsonl", "figure": ".png"}


@pytest.mark.parametrize("option", ["records", "log", "figure"])
def test_a_read_only_folder_is_refused_before_the_run(read_only: Path, option: str) -> None:
    path = read_only / f"x{SUFFIX[option]}"
    result = invoke(_commands(option, path))
    _assert_refused(result, option, path, "allowed a path in a writable folder (")
    assert "Read-only file system" in result.output or "Permission denied" in result.output
    assert list(read_only.iterdir()) == []


@pytest.mark.parametrize("option", ["records", "log", "figure"])
def test_a_path_under_proc_is_refused_before_the_run(option: str) -> None:
    path = Path(f"/proc/spades-x{SUFFIX[option]}")
    _assert_refused(invoke(_commands(option, path)), option, path,
                    "allowed a path in a writable folder (No such file or directory)")
    assert not path.exists()


@pytest.mark.parametrize("option", ["records", "log", "figure"])
def test_an_over_long_name_is_refused_before_the_run(tmp_path: Path, option: str) -> None:
    path = tmp_path / ("x" * (300 - len(SUFFIX[option])) + SUFFIX[option])
    _assert_refused(invoke(_commands(option, path)), option, path,
                    "allowed a file name of at most 255 bytes in this folder (300 given)")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("option", ["records", "log", "figure"])
def test_an_existing_folder_is_refused_before_the_run(tmp_path: Path, option: str) -> None:
    path = tmp_path / f"taken{SUFFIX[option]}"
    path.mkdir()
    result = invoke(_commands(option, path))
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    lines = result.output.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.output
    assert str(path) in lines[0] and "directory" in lines[0]
    assert list(tmp_path.iterdir()) == [path] and list(path.iterdir()) == []


def test_the_log_rules_file_is_checked_before_the_run(tmp_path: Path) -> None:
    """With --rule the log needs <log>.rules.toml beside it: 250 characters pass for the log, not
    for the rules file."""
    path = tmp_path / ("x" * 244 + ".jsonl")
    check_file(path, "log")
    result = invoke([*RUN, "--rule", "nil_value=50", "--log", str(path), "--log-deals", "0:5"])
    _assert_refused(result, "log", Path(f"{path}.rules.toml"),
                    "allowed a file name of at most 255 bytes in this folder (261 given)")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("args", [
    ["simulate", "--hands", "100", "--quiet", "--save", "/proc/spades-run"],
    ["report", "--out-dir", "/proc"],
    ["audit", "no-such-log.jsonl", "--instances", "/proc/spades-x.csv"],
    ["nil", "--quiet", "--figure", "/proc/spades-x.png"],
])
def test_other_outputs_are_refused_in_one_line(args: list[str]) -> None:
    result = invoke(args)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    lines = result.output.splitlines()
    assert len(lines) == 1, result.output
    assert "/proc/" in lines[0] and lines[0].endswith(
        "allowed a path in a writable folder (No such file or directory)"), lines[0]


def test_a_failed_write_keeps_the_old_file_and_leaves_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "table.csv"
    target.write_text("old content\n")
    with pytest.raises(RuntimeError, match="midway"), atomic_path(target) as temporary:
        Path(temporary).write_text("half of the new")
        raise RuntimeError("midway")
    with pytest.raises(KeyboardInterrupt), atomic_path(target) as temporary:
        Path(temporary).write_text("half of the new")
        raise KeyboardInterrupt
    with pytest.raises(OutputError, match=r"^out='.*table\.csv': not written \(No space left "
                                          r"on device\)$"), atomic_path(target) as temporary:
        Path(temporary).write_text("half of the new")
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    assert target.read_text() == "old content\n"
    assert list(tmp_path.iterdir()) == [target]


def test_a_complete_write_replaces_the_file_and_keeps_its_mode(tmp_path: Path) -> None:
    target = tmp_path / "table.csv"
    target.write_text("old\n")
    target.chmod(0o640)
    with atomic_path(target) as temporary:
        assert Path(temporary).parent == tmp_path and Path(temporary).name.startswith(".")
        assert temporary.endswith(".csv")  # writers that go by the suffix still can
        Path(temporary).write_text("new\n")
        assert target.read_text() == "old\n"  # nothing reaches the target before the end
    assert target.read_text() == "new\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    fresh = tmp_path / "fresh.csv"
    umask = os.umask(0o022)
    try:
        with atomic_path(fresh) as temporary:
            Path(temporary).write_text("x")
    finally:
        os.umask(umask)
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o644  # as any new file, not mkstemp's 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fresh.csv", "table.csv"]


def test_a_device_is_written_in_place_not_replaced() -> None:
    """Renaming a file over /dev/null would replace the device (as root it would succeed)."""
    with atomic_path("/dev/null", "log") as temporary:
        assert temporary == "/dev/null"
        Path(temporary).write_text("discarded")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def _assert_summary_then_one_error(result, field: str, target: Path) -> None:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert "contracts made" in result.output  # the summary was printed
    assert _error_lines(result.output) == [
        f"Error: {field}={str(target)!r}: not written (No space left on device)"]
    assert result.output.splitlines()[-1].startswith("Error:")


def test_a_full_disk_after_the_run_still_prints_the_summary(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The disk fills half-way through the CSV (simulated): the old file stays as it was."""
    target = tmp_path / "records.csv"
    target.write_text("old records\n")
    real_to_csv = pd.DataFrame.to_csv

    def fill_the_disk(frame, path, *args, **kwargs):
        real_to_csv(frame.head(100), path, *args, **kwargs)
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(pd.DataFrame, "to_csv", fill_the_disk)
    result = invoke([*RUN, "--records", str(target)])
    _assert_summary_then_one_error(result, "records", target)
    assert target.read_text() == "old records\n"
    assert list(tmp_path.iterdir()) == [target]


@pytest.mark.parametrize("option,name", [("records", "records.csv"), ("log", "hands.jsonl")])
def test_a_full_tmpfs_still_prints_the_summary(tmp_path: Path, option: str, name: str) -> None:
    small = tmp_path / "small"
    with _mounted(small, "size=64k"):
        target = small / name
        extra = ["--log-deals", "0:200"] if option == "log" else []
        result = invoke([*RUN, f"--{option}", str(target), *extra])
        _assert_summary_then_one_error(result, option, target)
        assert list(small.iterdir()) == []


def test_a_successful_run_leaves_only_its_files(tmp_path: Path) -> None:
    result = invoke([*RUN, "--rule", "nil_value=50", "--records", str(tmp_path / "r.parquet"),
                     "--log", str(tmp_path / "h.jsonl"), "--log-deals", "0:5"])
    assert_ok(result)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["h.jsonl", "h.jsonl.rules.toml",
                                                          "r.parquet"]
    assert len(pd.read_parquet(tmp_path / "r.parquet")) == 8000
    assert len((tmp_path / "h.jsonl").read_text().splitlines()) == 5


@pytest.mark.usefixtures("small_blocks")
def test_a_full_disk_while_saving_keeps_the_blocks_saved_and_prints_them(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The third shard of a saved run does not fit (simulated): the run stops there, prints the
    totals of the two blocks it saved, ends in one line, and --resume finishes it later."""
    folder = tmp_path / "run"
    real_to_parquet = pd.DataFrame.to_parquet
    written = []

    def third_fills_the_disk(frame, path, *args, **kwargs):
        written.append(path)
        if len(written) == 3:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_to_parquet(frame, path, *args, **kwargs)

    monkeypatch.setattr(pd.DataFrame, "to_parquet", third_fills_the_disk)
    result = invoke([*RUN, "--hands", "5000", "--save", str(folder)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    lines = result.output.splitlines()
    assert lines[0].endswith(": 2,000 hands (stopped)")
    side_hands = next(line for line in lines if line.startswith("bags per side-hand"))
    assert side_hands.split()[-1] == "4,000"  # the header counts what the totals hold
    assert len(_error_lines(result.output)) == 1 and lines[-1].startswith(
        f"Error: save={shown(folder / 'block-000000002000-00001000.parquet')!r}: not written "
        "(No space left on device)")
    assert sorted(p.name for p in folder.iterdir()) == [
        ".lock", "block-000000000000-00001000.parquet", "block-000000001000-00001000.parquet",
        "manifest.json"]
    monkeypatch.setattr(pd.DataFrame, "to_parquet", real_to_parquet)
    resumed = invoke(["simulate", "--resume", str(folder), "--quiet"])
    fresh = invoke([*RUN, "--hands", "5000"])
    assert resumed.output.splitlines()[1:] == fresh.output.splitlines()[1:]


LONG = "x" * 300
NAMED = {
    "out-dir": lambda path: ["report", "--out-dir", str(path)],
    "calibrate": lambda path: ["calibrate", "solo-standard", "--out-dir", str(path)],
    "save": lambda path: [*RUN, "--save", str(path)],
    "records": lambda path: [*RUN, "--records", f"{path}.csv"],
    "log": lambda path: [*RUN, "--log", str(path)],
    "figure": lambda path: ["bags", "--games", "10", "--quiet", "--figure", f"{path}.png"],
}
"""A command naming a file or folder ``path`` through each output option."""


@pytest.mark.parametrize("option", list(NAMED))
@pytest.mark.parametrize("name", [LONG, f"{LONG}/inner", "a\nb", "tab\there", "bell\x07",
                                  "line\u2028sep"])
def test_a_name_no_file_system_takes_or_with_a_control_character_is_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, option: str, name: str) -> None:
    """300 characters (as the last name or a folder on the way) and control characters end in
    one line, exit 2, nothing made; so does the NUL no argument can carry, through a study."""
    monkeypatch.chdir(tmp_path)
    result = invoke(NAMED[option](Path(name)))
    field = "out-dir" if option == "calibrate" else option
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    lines = result.output.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"Error: {field}="), result.output
    if len(name) > 250:  # the name too long, or (for a file in it) the folder not there
        assert re.search(r"name of at most 255 bytes in this folder \(30\d given\)$|"
                         r"allowed (a path in )?an existing folder$", lines[0]), lines[0]
    else:
        assert "allowed a path without control characters" in lines[0], lines[0]
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(("name", "start"), [
    ("a\x00b", "Error: name='a\\x00b': allowed "),
    ("b" * 300, "Error: "),
])
def test_a_study_name_no_folder_can_take_is_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, start: str) -> None:
    """The report folder is named after the study: a NUL, or 300 characters, end in one line
    (from the study's own checks, or else from the folder's: a name of at most 255 bytes)."""
    monkeypatch.chdir(tmp_path)
    escaped = name.replace("\x00", "\\u0000")  # TOML's escape of a NUL
    (tmp_path / "s.toml").write_text(f'name = "{escaped}"\n')
    result = invoke(["report", "--config", "s.toml", "--out-dir", "out"])
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    lines = result.output.splitlines()
    assert len(lines) == 1 and lines[0].startswith(start), lines
    assert "name=" in lines[0] or "at most 255 bytes in this folder (300 given)" in lines[0]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.toml"]


@pytest.mark.parametrize("args", [
    [*RUN, "--log", "newdir/"],
    ["review", "log.jsonl", "--mistakes", "m.csv/"],
    ["audit", "log.jsonl", "--instances", "x.csv/"],
    ["bags", "--quiet", "--figure", "x.png/"],
    [*RUN, "--records", "x.csv/"],
])
def test_a_file_option_ending_in_a_slash_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str]) -> None:
    """A path ending in / names a folder: a file option refuses it (--log newdir/ once wrote
    a file named newdir)."""
    monkeypatch.chdir(tmp_path)
    result = invoke(args)
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    lines = result.output.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and "/'" in lines[0], lines
    assert list(tmp_path.iterdir()) == []


def test_a_folder_option_ending_in_a_slash_is_that_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert_ok(invoke([*RUN, "--hands", "10", "--save", "run/"]))
    assert (tmp_path / "run" / "manifest.json").is_file()
    assert_ok(invoke(["simulate", "--resume", "run/", "--quiet"]))

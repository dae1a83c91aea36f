"""Inputs that are not regular files are refused, in one line and at once.

No command reads a stream: a named pipe, a device (``/dev/zero``) or a folder where a file
is read (a rules file, a study, a hand log, the rules file a log names, a saved run's
manifest or shard, a calibration index) is refused with exit 2, one line, no traceback and
nothing written. Opened as a file, a named pipe with no writer blocks for ever and
``/dev/zero`` never ends, so every case runs in one child process under a timeout: a
regression fails this test, naming the case, instead of hanging the suite.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from spades_sim.inputs import MAX_LOG_BYTES, MAX_TABLES_BYTES, read_bytes
from spades_sim.kernel.calibration import CalibrationError, load_family
from spades_sim.rules import load_preset
from spades_sim.run.simulate import seat_strategies
from spades_sim.run.store import MANIFEST, Manifest, strategy_spec

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")

CARDS = "AS 7S 3S 9H 8H 4H 2H QD 6D 3D 8C 5C 2C"
PIPE = "allowed a regular file (not a named pipe)"
DEVICE = "allowed a regular file (not a character device)"
FOLDER = "allowed a regular file (not a folder)"
SHARD = "block-000000000000-00000010.parquet"

CASES = [
    (["rules", "validate", "pipe.toml"], f"rules='pipe.toml': {PIPE}"),
    (["rules", "show", "./pipe.toml"], f"rules='pipe.toml': {PIPE}"),
    (["simulate", "--hands", "10", "--rules", "pipe.toml"], f"rules='pipe.toml': {PIPE}"),
    (["nil", "--rules", "pipe.toml"], f"rules='pipe.toml': {PIPE}"),
    (["hand", CARDS, "--rules", "pipe.toml"], f"rules='pipe.toml': {PIPE}"),
    (["compare-rules", "standard", "pipe.toml"], f"rules='pipe.toml': {PIPE}"),
    (["score", "hands.jsonl", "--rules", "pipe.toml"], f"rules='pipe.toml': {PIPE}"),
    (["simulate", "--hands", "10", "--rules", "/dev/zero"], f"rules='/dev/zero': {DEVICE}"),
    (["rules", "validate", "/dev/zero"], f"rules='/dev/zero': {DEVICE}"),
    (["simulate", "--hands", "10", "--rules", "./folder/"], f"rules='folder': {FOLDER}"),
    (["report", "--config", "pipe.toml"], f"config='pipe.toml': {PIPE}"),
    (["report", "--config", "/dev/zero"], f"config='/dev/zero': {DEVICE}"),
    (["score", "pipe.jsonl"], f"log='pipe.jsonl': {PIPE}"),
    (["audit", "pipe.jsonl"], f"log='pipe.jsonl': {PIPE}"),
    (["review", "pipe.jsonl"], f"log='pipe.jsonl': {PIPE}"),
    (["dd", "--log", "pipe.jsonl"], f"log='pipe.jsonl': {PIPE}"),
    (["score", "/dev/zero"], f"log='/dev/zero': {DEVICE}"),
    (["audit", "huge.jsonl"],
     f"log='huge.jsonl': allowed a file of at most 4 GiB ({MAX_LOG_BYTES + 1:,} bytes)"),
    (["score", "names-a-pipe.jsonl"], f"line 1: rules='pipe.toml': {PIPE}"),
    (["simulate", "--resume", "run-pipe", "--quiet"],
     f"resume='run-pipe': allowed a {MANIFEST} that is a regular file (not a named pipe)"),
    (["simulate", "--resume", "run-folder", "--quiet"],
     f"resume='run-folder': allowed a {MANIFEST} that is a regular file (not a folder)"),
    (["simulate", "--resume", "run-shard", "--quiet"],
     f"shard='run-shard/{SHARD}': {PIPE}; move it out"),
    (["calibrate", "partnership-standard", "--out-dir", "tables"],
     f"out-dir='tables/tables.toml': {PIPE}"),
]

CHILD = """
import json, sys
from pathlib import Path
from click.testing import CliRunner
from spades_sim.cli import cli

def listing():
    return sorted(str(p) for p in Path(".").rglob("*"))

for args in json.loads(sys.argv[1]):
    print(json.dumps({"started": args}), flush=True)
    before = listing()
    result = CliRunner().invoke(cli, args)
    print(json.dumps({"args": args, "exit_code": result.exit_code, "output": result.output,
                      "exception": type(result.exception).__name__,
                      "written": sorted(set(listing()) - set(before))}), flush=True)
"""


def _manifest() -> str:
    return Manifest(kind="hands", rules=load_preset("standard").to_dict(),
                    strategies=tuple(map(strategy_spec, seat_strategies("basic"))), seed=1,
                    requested=10, block=10, max_hands=None).to_json()


def _folder(root: Path) -> None:
    """Named pipes and a folder wherever a command reads a file, with what each case needs."""
    for name in ("pipe.toml", "pipe.jsonl"):
        os.mkfifo(root / name)
    (root / "folder").mkdir()
    with (root / "huge.jsonl").open("wb") as file:
        file.truncate(MAX_LOG_BYTES + 1)  # sparse: no disk used, but 4 GiB to read
    line = {"rules": "pipe.toml", "dealer": 1, "actions": [], "hands": [
        "AC KC QC JC 10C 9C 8C 7C 6C 5C 8H 7H 6H", "4C 3C 2C AD KD QD JD 10D 9D 8D JH 10H 9H",
        "7D 6D 5D 4D 3D 2D AH KH QH AS KS QS JS", "5H 4H 3H 2H 10S 9S 8S 7S 6S 5S 4S 3S 2S"]}
    (root / "names-a-pipe.jsonl").write_text(json.dumps(line) + "\n")
    for run in ("run-pipe", "run-folder", "run-shard"):
        (root / run).mkdir()
        (root / run / ".lock").touch()  # as a saving run leaves it
    os.mkfifo(root / "run-pipe" / MANIFEST)
    (root / "run-folder" / MANIFEST).mkdir()
    (root / "run-shard" / MANIFEST).write_text(_manifest())
    os.mkfifo(root / "run-shard" / SHARD)
    (root / "tables").mkdir()
    os.mkfifo(root / "tables" / "tables.toml")


def test_no_command_reads_a_pipe_a_device_or_a_folder_as_a_file(tmp_path: Path) -> None:
    _folder(tmp_path)
    try:
        child = subprocess.run([sys.executable, "-c", CHILD, json.dumps([a for a, _ in CASES])],
                               cwd=tmp_path, capture_output=True, text=True, timeout=180)
    except subprocess.TimeoutExpired as error:
        out = error.stdout.decode() if isinstance(error.stdout, bytes) else error.stdout or ""
        started = [json.loads(line) for line in out.splitlines() if '"started"' in line]
        pytest.fail(f"hung on input: {started[-1]['started'] if started else 'start-up'}")
    assert child.returncode == 0, child.stderr[-3000:]
    results = [json.loads(line) for line in child.stdout.splitlines() if '"args"' in line]
    assert [result["args"] for result in results] == [args for args, _ in CASES]
    for result, (args, expected) in zip(results, CASES, strict=True):
        lines = result["output"].splitlines()
        assert (result["exit_code"], result["exception"]) == (2, "SystemExit"), (args, result)
        assert lines == [f"Error: {expected}"], (args, result["output"])
        assert result["written"] == [], (args, result["written"])


def test_the_library_reads_a_regular_file_within_its_bound(tmp_path: Path) -> None:
    path = tmp_path / "shard"
    path.write_bytes(b"x" * 10)
    assert read_bytes(path, ValueError, 10) == b"x" * 10
    with pytest.raises(ValueError, match=r"^a file of at most 9 bytes \(10 bytes\)$"):
        read_bytes(path, ValueError, 9)


@pytest.mark.parametrize(("size", "data", "allowed"), [
    (MAX_TABLES_BYTES + 1, b"", f"a file of at most 16 MiB ({MAX_TABLES_BYTES + 1:,} bytes)"),
    (None, b"PK not a zip file", "a file of calibration tables, as calibrate writes"),
])
def test_calibration_tables_beyond_their_bound_or_damaged_are_refused(
        tmp_path: Path, size: int | None, data: bytes, allowed: str) -> None:
    path = tmp_path / "solo-standard.npz"
    path.write_bytes(data)
    if size is not None:
        os.truncate(path, size)
    with pytest.raises(CalibrationError, match=re.escape(f"allowed {allowed}")):
        load_family("solo-standard", tmp_path)

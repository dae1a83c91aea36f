"""Machine-readable output: ``--format json|csv`` on every command with a table, ``--out`` as
Parquet, CSV or JSON (``-`` for stdout) with the run's metadata, status lines on stderr,
``--no-figure``, and a closed pipe that still leaves the requested files written."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from clirun import assert_ok, assert_one_line_error, invoke

from spades_sim import __version__
from spades_sim.analysis import export
from spades_sim.kernel.strategies import STRATEGIES
from spades_sim.outputs import csv_cell
from spades_sim.rules import RuleSet, from_dict

# One small run of every command that prints a table, and its table's first column.
COMMANDS = {
    "simulate": (["simulate", "--games", "12", "--seed", "3", "--quiet"], "key"),
    "compare-strategies": (["compare-strategies", "basic", "random", "--games", "8", "--seed",
                            "3", "--quiet"], "key"),
    "compare-rules": (["compare-rules", "standard", "classic", "--games", "8", "--seed", "3",
                       "--quiet"], "run"),
    "bags": (["bags", "--games", "8", "--seed", "3", "--quiet", "--bag-rule", "10:100",
              "--bag-rule", "5:50"], "run"),
    "bids": (["bids", "basic", "--hands", "300", "--seed", "3", "--quiet"], "table"),
    "nil": (["nil", "--hands", "500", "--seed", "3", "--quiet"], "spades"),
    "tune": (["tune", "basic", "--param", "bid_offset=0:0.5:0.5", "--against", "basic",
              "--games", "6", "--seed", "3", "--quiet"], "bid_offset"),
    "hand": (["hand", "AS 7S 3S 9H 8H 4H 2H QD 6D 3D 8C 5C 2C", "--deals", "32", "--seed", "3",
              "--quiet"], "bid"),
}


@pytest.fixture
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.usefixtures("in_tmp")
@pytest.mark.parametrize("name", COMMANDS)
def test_json_and_csv_carry_the_table_and_json_the_run(name: str) -> None:
    args, first = COMMANDS[name]
    document = json.loads(_stdout(invoke([*args, "--format", "json", *_no_figure(name)])))
    meta = document["metadata"]
    assert (meta["spades_sim"], meta["command"], meta["seed"]) == (__version__, name, 3)
    assert meta["rules"][0]["name"] == "standard" and "nil_value" in meta["rules"][0]
    assert all({"name", "bidding", "play", "params"} <= set(s) for s in meta["strategies"])
    assert meta["interrupted"] is False
    rows = pd.DataFrame(document["rows"])
    assert rows.columns[0] == first and len(rows) > 1
    table = pd.read_csv(io.StringIO(_stdout(invoke([*args, "--format", "csv",
                                                    *_no_figure(name)]))))
    assert list(table.columns) == list(rows.columns) and len(table) == len(rows)
    # The same values, whichever format: CSV's and JSON's numbers agree.
    numbers = rows.select_dtypes("number").columns
    pd.testing.assert_frame_equal(table[numbers].astype(float), rows[numbers].astype(float))


@pytest.mark.parametrize("suffix", [".json", ".parquet", ".csv"])
@pytest.mark.parametrize("name", ["compare-strategies", "tune"])
def test_out_writes_the_table_with_its_metadata(tmp_path: Path, name: str, suffix: str) -> None:
    args, first = COMMANDS[name]
    path = tmp_path / f"table{suffix}"
    result = invoke([*args, "--out", str(path), "--no-figure"])
    assert_ok(result)
    assert f"wrote {path}" not in result.stdout and f"wrote {path}" in result.stderr
    if suffix == ".csv":
        assert pd.read_csv(path).columns[0] == first
        return
    meta = export.read_metadata(path)
    assert (meta["command"], meta["seed"], meta["spades_sim"]) == (name, 3, __version__)
    frame = (pd.read_parquet(path) if suffix == ".parquet"
             else pd.DataFrame(json.loads(path.read_text())["rows"]))
    assert frame.columns[0] == first


def test_simulate_records_carry_the_rules_and_strategies(tmp_path: Path) -> None:
    path = tmp_path / "games.parquet"
    assert_ok(invoke(["simulate", "--games", "10", "--seed", "4", "--quiet", "--rule",
                      "nil_value=50", "--strategy", "expert", "--strategy", "basic", "--records",
                      str(path)]))
    meta = export.read_metadata(path)
    assert from_dict(meta["rules"][0]) == RuleSet().replace(nil_value=50)
    assert [s["name"] for s in meta["strategies"]] == ["expert", "basic", "expert", "basic"]
    assert meta["strategies"][0]["params"] == dict(STRATEGIES["expert"].params)
    assert (meta["kind"], meta["done"]) == ("games", 10)
    assert len(pd.read_parquet(path)) == 10


def test_out_dash_puts_the_data_on_stdout_and_the_table_on_stderr() -> None:
    result = invoke(["simulate", "--games", "5", "--seed", "4", "--quiet", "--records", "-"])
    assert_ok(result)
    records = pd.read_csv(io.StringIO(result.stdout))
    assert len(records) == 5 and "winner" in records.columns
    assert "points per side-hand" in result.stderr


def test_status_lines_go_to_stderr(in_tmp: Path) -> None:
    result = invoke(["compare-rules", "standard", "classic", "--games", "6", "--seed", "2",
                     "--quiet", "--out", "rules.csv", "--figure", "rules.png"])
    assert_ok(result)
    assert "wrote" not in result.stdout
    assert result.stderr.splitlines() == ["wrote rules.png", "wrote rules.csv"]


@pytest.mark.parametrize("flags", [[], ["--no-figure"], ["--figure", "f.png", "--no-figure"]],
                         ids=["no-figure-option", "no-figure", "figure-and-no-figure"])
@pytest.mark.parametrize("name", ["compare-strategies", "compare-rules", "bags", "bids", "nil",
                                  "tune", "hand"])
def test_no_file_is_written_unless_asked(in_tmp: Path, name: str, flags: list[str]) -> None:
    """A figure command draws only where --figure says: nothing lands in the working folder."""
    assert_ok(invoke([*COMMANDS[name][0], *flags]))
    assert list(in_tmp.iterdir()) == []


def test_svg_without_a_figure_path_is_refused(in_tmp: Path) -> None:
    result = invoke([*COMMANDS["bags"][0], "--svg"])
    assert result.exit_code == 2
    assert result.output.splitlines() == [
        "Error: svg=true: allowed with --figure PATH (a figure is drawn only where --figure says)"]
    assert list(in_tmp.iterdir()) == []


def test_a_closed_pipe_ends_quietly_with_the_files_written(tmp_path: Path) -> None:
    """``spades-sim bags --out x.csv | head -1``: the reader leaves (here before the table is
    printed, so that the print surely fails); the file is written all the same, nothing more
    is said, and the exit code is 141 (128 + SIGPIPE), as other programs' whose reader left."""
    command = [sys.executable, "-m", "spades_sim", "bags", "--games", "30", "--seed", "1",
               "--quiet", "--no-figure", "--out", "bags.csv"]
    process = subprocess.Popen(command, cwd=tmp_path, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    process.stdout.close()
    err = process.stderr.read()
    assert process.wait(timeout=120) == 141, err
    assert err.splitlines() == ["wrote bags.csv"]
    assert len(pd.read_csv(tmp_path / "bags.csv")) > 10


@pytest.mark.parametrize(("args", "message"), [
    (["--format", "xml"], "format='xml': allowed text, json, csv"),
    (["--out", "table.txt"], "out='table.txt': allowed a file ending in .parquet, .csv or .json,"
                             " or - for stdout"),
    (["--out", "-", "--format", "json"], "out='-': allowed with --format text only (--format "
                                         "json puts the table on stdout already)"),
    (["--out", "/proc/table.json"], "out='/proc/table.json': allowed a path in a writable "
                                      "folder"),
])
def test_bad_output_options_are_refused_before_the_run(in_tmp: Path, args: list[str],
                                                       message: str) -> None:
    result = invoke([*COMMANDS["compare-strategies"][0], *args])
    assert_one_line_error(result, message, prefix_only=True)
    assert list(in_tmp.iterdir()) == []


def _no_figure(name: str) -> list[str]:
    return [] if name == "simulate" else ["--no-figure"]


def _stdout(result) -> str:
    assert_ok(result)
    return result.stdout


def test_format_text_is_the_default() -> None:
    args, _ = COMMANDS["simulate"]
    assert invoke(args).stdout == invoke([*args, "--format", "text"]).stdout


@pytest.mark.parametrize(("args", "first"), [
    (["rules", "list"], "name"), (["strategies", "list"], "name"),
    (["strategies", "show", "expert"], "parameter"), (["score", "hands.jsonl"], "line"),
    (["audit", "hands.jsonl"], "pattern")])
def test_the_other_tables_print_as_json_and_csv(in_tmp: Path, args: list[str],
                                                first: str) -> None:
    assert_ok(invoke(["simulate", "--hands", "300", "--seed", "5", "--quiet", "--log",
                      "hands.jsonl", "--log-deals", "0:4"]))
    table = pd.read_csv(io.StringIO(_stdout(invoke([*args, "--format", "csv"]))))
    assert table.columns[0] == first and len(table) >= 4
    document = json.loads(_stdout(invoke([*args, "--format", "json"])))
    assert document["metadata"]["command"] == " ".join(args[:2] if args[0] in (
        "rules", "strategies") else args[:1])
    assert len(document["rows"]) == len(table)


# --- CSV cells from user text: never a formula in a spreadsheet ---

FORMULA_LABEL = '=HYPERLINK("x")'
FORMULA_NAME = "@SUM(1)"


def _csv_cells(text: str) -> set[str]:
    return {cell for row in csv.reader(io.StringIO(text)) for cell in row}


def test_csv_cells_from_user_text_are_not_formulas(in_tmp: Path) -> None:
    """A variant label and a rule set name that a spreadsheet would run: in every CSV (stdout,
    --out, - for stdout) they start with ' and stay whole; numbers, negative ones included,
    stay numbers."""
    (in_tmp / "house.toml").write_text(f'name = "{FORMULA_NAME}"\ntarget = 300\n')
    args = ["compare-rules", "standard", "house.toml", "--variant", f"{FORMULA_LABEL}:nil_value=50",
            "--games", "8", "--seed", "3", "--quiet", "--no-figure"]
    printed = _stdout(invoke([*args, "--format", "csv"]))
    result = invoke([*args, "--out", "table.csv"])
    assert_ok(result)
    dashed = invoke([*args, "--out", "-"])
    assert_ok(dashed)
    for text in (printed, (in_tmp / "table.csv").read_text(encoding="utf-8"), dashed.stdout):
        cells = _csv_cells(text)
        assert "'" + FORMULA_LABEL in cells and "'" + FORMULA_NAME in cells
        assert not any(cell.startswith(("=", "@", "+", "\t", "\r")) for cell in cells)
        table = pd.read_csv(io.StringIO(text))
        assert (table["difference"].dropna() < 0).any()  # negative numbers: still numbers
        assert pd.api.types.is_float_dtype(table["difference"])


def test_the_one_csv_writer_leaves_numbers_and_plain_text_alone() -> None:
    frame = pd.DataFrame({"label": ["-5", "+1.5", "-label", "\tx", "ok", "=1+1"],
                          "value": [-1.0, 2.0, -3.0, 4.0, 5.0, 6.0]})
    table = pd.read_csv(io.StringIO(export.csv_text(frame)), keep_default_na=False,
                        dtype={"label": str})
    assert list(table["label"]) == ["-5", "+1.5", "'-label", "'\tx", "ok", "'=1+1"]
    assert list(table["value"]) == [-1.0, 2.0, -3.0, 4.0, 5.0, 6.0]
    assert csv_cell("\rx") == "'\rx" and csv_cell(-2) == -2 and csv_cell(None) is None


def test_the_report_csv_neutralises_labels(tmp_path: Path) -> None:
    from spades_sim.analysis.report import _Writer

    _Writer(tmp_path).data("rules", pd.DataFrame({"run": [FORMULA_LABEL], "value": [-0.5]}))
    assert (tmp_path / "rules.csv").read_text(encoding="utf-8").splitlines() == [
        "run,value", '"\'=HYPERLINK(""x"")",-0.5']

"""No output overwrites an input or another output of its command.

Every command that writes files declares what it reads and writes in one place
(``check_outputs``, ``check_report``); ``spades_sim.outputs.check_apart`` compares them by
resolved path and by file identity. A clash is refused in one line naming both options, exit
code 2, before anything runs: every file is left as it was and nothing new appears.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from clirun import invoke

from spades_sim.outputs import OutputError, check_apart
from spades_sim.rules import dumps, load_preset

CARDS = "AS 7S 3S 9H 8H 4H 2H QD 6D 3D 8C 5C 2C"
LOG_LINE = '{"not": "read: the clash is refused first"}\n'


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working folder with a rules file ``r.toml``, a hard link to it (``hard.*``), symbolic
    links to it (``link.*``) and a hand log ``log.json``."""
    monkeypatch.chdir(tmp_path)
    rules = load_preset("standard")
    (tmp_path / "r.toml").write_text(dumps(rules.__class__(**{**rules.__dict__,
                                                             "name": "house"})))
    for suffix in (".jsonl", ".png", ".csv", ".json"):
        os.link(tmp_path / "r.toml", tmp_path / f"hard{suffix}")
        (tmp_path / f"link{suffix}").symlink_to("r.toml")
    (tmp_path / "log.json").write_text(LOG_LINE)
    (tmp_path / "log.csv").write_text(LOG_LINE)
    return tmp_path


def _snapshot(folder: Path) -> dict[str, bytes | None]:
    """Every entry under ``folder`` and the bytes of each file (None for a folder)."""
    return {str(path.relative_to(folder)): None if path.is_dir() else path.read_bytes()
            for path in sorted(folder.rglob("*"))}


def _refused(folder: Path, args: list[str], field: str, path: str, other: str,
             reason: str) -> None:
    """The command ends in one line, exit 2, naming ``field``'s ``path`` and the ``other``
    option, and leaves the folder as it was."""
    before = _snapshot(folder)
    result = invoke(args)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    lines = result.output.splitlines()
    assert len(lines) == 1, result.output
    assert lines[0].startswith(f"Error: {field}={path!r}: allowed "), lines[0]
    assert other in lines[0] and reason in lines[0], lines[0]
    assert _snapshot(folder) == before


SAME_INPUT = "(the same file: writing it would overwrite that input)"
SAME_OUTPUT = "(both outputs would be written to one place)"
RUN = ["simulate", "--hands", "10", "--seed", "1", "--quiet"]


@pytest.mark.parametrize(("args", "field", "path", "other", "reason"), [
    # the cases of the issue: the log over the rules file, the log over the records
    ([*RUN, "--rules", "./r.toml", "--log", "r.toml"], "log", "r.toml", "rules='./r.toml'",
     SAME_INPUT),
    ([*RUN, "--records", "x.json", "--log", "x.json"], "log", "x.json", "records='x.json'",
     SAME_OUTPUT),
    # a hard link and a symbolic link to the rules file
    ([*RUN, "--rules", "./r.toml", "--log", "hard.jsonl"], "log", "hard.jsonl",
     "rules='./r.toml'", SAME_INPUT),
    ([*RUN, "--rules", "./r.toml", "--log", "link.jsonl"], "log", "link.jsonl",
     "rules='./r.toml'", SAME_INPUT),
    # the log's own rules file (<log>.rules.toml, written for rules that are not a preset)
    ([*RUN, "--rules", "./x.rules.toml", "--rule", "nil_value=50", "--log", "x"], "log",
     "x.rules.toml", "rules='./x.rules.toml'", SAME_INPUT),
    # the records through a link onto the rules file
    ([*RUN, "--rules", "./r.toml", "--records", "hard.csv"], "records", "hard.csv",
     "rules='./r.toml'", SAME_INPUT),
])
def test_simulate_refuses_an_output_over_an_input_or_another_output(
        folder: Path, args: list[str], field: str, path: str, other: str, reason: str) -> None:
    if "./x.rules.toml" in args:
        (folder / "x.rules.toml").write_text((folder / "r.toml").read_text())
    _refused(folder, args, field, path, other, reason)


def test_simulate_refuses_an_output_inside_its_save_folder(folder: Path) -> None:
    (folder / "run").mkdir()
    _refused(folder, [*RUN, "--save", "run", "--records", "run/records.csv"], "records",
             "run/records.csv", "save='run'", "which the command fills")
    assert list((folder / "run").iterdir()) == []  # no lock, no manifest


@pytest.mark.parametrize(("args", "field", "path", "other", "reason"), [
    (["compare-strategies", "basic", "random", "--rules", "./r.toml", "--figure", "link.png"],
     "figure", "link.png", "rules='./r.toml'", SAME_INPUT),
    (["tune", "basic", "--param", "bid_offset=0..1:1", "--rules", "./r.toml", "--out",
      "hard.csv"], "out", "hard.csv", "rules='./r.toml'", SAME_INPUT),
    (["nil", "--rules", "./r.toml", "--out", "link.json"], "out", "link.json",
     "rules='./r.toml'", SAME_INPUT),
    (["compare-rules", "standard", "./r.toml", "--out", "hard.json"], "out", "hard.json",
     "rules='./r.toml'", SAME_INPUT),
    (["bags", "--rules", "./r.toml", "--figure", "hard.png"], "figure", "hard.png",
     "rules='./r.toml'", SAME_INPUT),
    (["bids", "basic", "--out", "t.csv", "--figure", "t-link.png"], "figure", "t-link.png",
     "out='t.csv'", SAME_OUTPUT),
    (["bids", "basic", "--rules", "./r.toml", "--out", "link.csv"], "out", "link.csv",
     "rules='./r.toml'", SAME_INPUT),
    (["hand", CARDS, "--rules", "./r.toml", "--figure", "hard.png"], "figure", "hard.png",
     "rules='./r.toml'", SAME_INPUT),
    (["score", "log.json", "--out", "log.json"], "out", "log.json", "log='log.json'",
     SAME_INPUT),
    (["audit", "log.csv", "--instances", "./log.csv"], "instances", "./log.csv", "log='log.csv'",
     SAME_INPUT),
    (["review", "log.json", "--out", "t.csv", "--mistakes", "t.csv"], "mistakes", "t.csv",
     "out='t.csv'", SAME_OUTPUT),
    (["review", "log.json", "--rules", "./r.toml", "--mistakes", "hard.json"], "mistakes",
     "hard.json", "rules='./r.toml'", SAME_INPUT),
    (["dd", "--log", "log.json", "--out", "log.json"], "out", "log.json", "log='log.json'",
     SAME_INPUT),
])
def test_every_command_refuses_an_output_over_an_input(
        folder: Path, args: list[str], field: str, path: str, other: str, reason: str) -> None:
    if "t-link.png" in args:  # the figure, written through the link, onto the table
        (folder / "t.csv").write_text("metric,value\n")
        (folder / "t-link.png").symlink_to("t.csv")
    _refused(folder, args, field, path, other, reason)


def test_a_report_folder_holding_its_study_or_rules_is_refused(folder: Path) -> None:
    """The report folder (OUT_DIR/<name>) is the report's: a study file or rules file inside
    it, or a hard link in it to the study, is refused before a status line is printed."""
    report = folder / "reports" / "mine"
    report.mkdir(parents=True)
    (report / "s.toml").write_text('name = "mine"\nseed = 3\n')
    _refused(folder, ["report", "--config", "reports/mine/s.toml"], "out-dir", "reports/mine",
             "config='reports/mine/s.toml'", "(an input, in the folder it fills)")
    os.link(report / "s.toml", folder / "linked.toml")
    _refused(folder, ["report", "--config", "linked.toml"], "out-dir", "reports/mine",
             "config='linked.toml'", "(s.toml in it is that input's file)")
    (folder / "linked.toml").unlink()
    (report / "index.html").symlink_to(folder / "r.toml")  # the report writes through it
    (folder / "house.toml").write_text('name = "mine"\nrules = ["./r.toml"]\n')
    _refused(folder, ["report", "--config", "house.toml"], "out-dir", "reports/mine",
             "rules='./r.toml'", "(index.html in it is that input's file)")
    (report / "index.html").unlink()
    (folder / "rules.toml").write_text('name = "mine"\nrules = ["reports/mine/r.toml"]\n')
    (report / "r.toml").write_text((folder / "r.toml").read_text())
    _refused(folder, ["report", "--config", "rules.toml"], "out-dir", "reports/mine",
             "rules='reports/mine/r.toml'", "(an input, in the folder it fills)")


def test_calibrate_refuses_a_family_twice(folder: Path) -> None:
    """calibrate reads no file; its one clash is a family's file written twice."""
    before = _snapshot(folder)
    result = invoke(["calibrate", "partnership-standard", "solo-standard",
                     "partnership-standard", "--out-dir", "."])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert result.output == ("Error: family='partnership-standard': allowed each family once "
                             "(given twice)\n")
    assert _snapshot(folder) == before


def test_check_apart_leaves_out_stdout_devices_and_what_was_not_given(tmp_path: Path) -> None:
    check_apart({}, {"out": "x.csv", "figure": ["x.png", "x.svg"]})
    check_apart({"log": "-"}, {"out": "-", "figure": None})
    check_apart({"rules": "/dev/null"}, {"out": "/dev/null", "log": "/dev/null"})
    check_apart({"rules": tmp_path / "a.toml"}, {"out": tmp_path / "b.csv"},
                {"save": tmp_path / "run"})
    # a folder output holds everything in it, found through a symbolic link to it too
    (tmp_path / "run").mkdir()
    (tmp_path / "alias").symlink_to("run")
    with pytest.raises(OutputError, match=r"^out='.*alias/x.csv': allowed a path outside save="):
        check_apart({}, {"out": tmp_path / "alias" / "x.csv"}, {"save": tmp_path / "run"})
    with pytest.raises(OutputError, match=r"^save='.*run': allowed a folder that does not hold "
                                          r"rules="):
        check_apart({"rules": tmp_path / "alias" / "r.toml"}, {}, {"save": tmp_path / "run"})

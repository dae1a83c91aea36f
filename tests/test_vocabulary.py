"""One vocabulary of options: the same idea has the same option name and value form in every
command, and the old spellings still taken say their new form.

The command tree is walked (``spades_sim.cli.cli``), so a new command or option is checked as
soon as it exists: against :data:`IDEAS` (the one name and value form of each idea, and the
other names that idea must never take), and against every other command declaring the same
option (one type and value form; one help where the option means exactly the same thing).
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from clirun import every_command

from spades_sim.cli import cli
from spades_sim.cli.aliases import OLD_OPTIONS, OLD_VALUES, UNTIL
from spades_sim.cli.options import DECIMAL, WHOLE
from spades_sim.kernel.strategies import seat_strategies

COMMANDS = every_command()


def _long(option: click.Option) -> str:
    return next(name for name in option.opts if name.startswith("--"))


def _options(command: str, hidden: bool = False) -> dict[str, click.Option]:
    """A command's options by long name (the declared ones, or with ``hidden`` the old
    spellings)."""
    return {_long(param): param for param in COMMANDS[command].params
            if isinstance(param, click.Option) and param.name != "help"
            and param.hidden == hidden}


IDEAS: dict[str, tuple[str, str | None, tuple[str, ...]]] = {
    # idea: (the option, its value form (metavar; None: the type's own), names it never takes)
    "hands to play (a count)": ("--hands", None, ("--n-hands", "--num-hands", "--hand-count")),
    "games or deal sequences to play (a count)": ("--games", None, ("--n-games", "--pairs",
                                                                   "--sequences")),
    "random deals of a hand's unknown cards (a count)": ("--deals", None, ("--completions",)),
    "a seat's cards": ("--cards", "CARDS", ("--hand", "--holding", "--seat-cards")),
    "bids made (by seat)": ("--bids", "SEAT:BID,…", ("--bid", "--bid-list")),
    "each side's score": ("--score", "SIDE=N,…", ("--scores",)),
    "each side's bags": ("--bags", "SIDE=N,…", ("--bag-count", "--bags-before")),
    "a strategy parameter": ("--param", "[SIDE.]NAME=VALUE", ("--params", "--set",
                                                              "--param-range", "--range")),
    "the strategy of the seats": ("--strategy", "NAME", ("--strategies-at",)),
    "a rule set (preset or file)": ("--rules", "NAME|FILE", ("--preset", "--ruleset")),
    "one rule field changed": ("--rule", "FIELD=VALUE", ("--set-rule", "--override")),
    "the seed": ("--seed", None, ("--random-seed", "--rng")),
    "threads": ("--threads", None, ("--jobs", "--workers", "-j")),
    "no progress shown": ("--quiet", None, ("--silent", "--no-progress", "-q")),
    "how the table is printed": ("--format", "text|json|csv", ("--fmt", "--output-format")),
    "the command's table, written to a file": ("--out", None, ("--output", "-o", "--table",
                                                              "--data")),
    "simulate's records, written to a file": ("--records", None, ("--records-out",)),
    "audit's instances, written to a file": ("--instances", "FILE.csv", ()),
    "review's plays that lost value, written to a file": ("--mistakes", "FILE", ()),
    "the figure's file": ("--figure", None, ("--plot", "--png", "--chart")),
    "a folder written to": ("--out-dir", "DIR", ("--output-dir", "--dir")),
    "a hand log (JSONL)": ("--log", None, ("--hand-log", "--jsonl")),
    "which seat": ("--seat", "N", ("--player",)),
    "the dealer (a seat)": ("--dealer", None, ()),
    "how many rows to list": ("--list", "N", ("--top", "--limit", "--show")),
    "the opponent": ("--against", "NAME", ("--opponent", "--versus", "--vs")),
    "a rule set added to a comparison": ("--variant", "LABEL:FIELD=VALUE,…", ("--variants",)),
    "buy-in per player": ("--buy-in", "AMOUNT", ("--stake",)),
    "the house's share": ("--rake", "SHARE", ("--fee",)),
    "a bot's time per decision": ("--time-limit", "SECONDS", ("--timeout",)),
}
"""Each idea → the one option name, its value form, and names the idea must never take."""

EXTENDED_FORMS = {("compare-rules", "--rule"): "[NAME:]FIELD=VALUE"}
"""Where a command takes an option's value form with more in front: compare-rules names the
rule set a --rule changes (its rule sets are positional)."""

KEEPS = {"--save": {"simulate": "DIR", "tune": "FILE.toml"}}
"""An option whose one idea, keeping what the command made to use it again, takes the form of
what each command makes: simulate's run folder (``--resume`` goes on with it), tune's setting
found as a strategy file (every ``--strategy`` reads it)."""

SAME_HELP = ("--format", "--quiet", "--threads", "--svg", "--no-figure", "--strategy",
             "--buy-in", "--rake", "--variant", "--time-limit")
"""Options that mean exactly the same in every command: one help text."""

COUNTS = ("--hands", "--games", "--deals", "--hands-played", "--nil-hands", "--blind-hands",
          "--rounds", "--bootstrap", "--max-hands")
"""Options that are counts: whole numbers in every command."""


def _uses() -> dict[str, list[tuple[str, click.Option]]]:
    uses: dict[str, list[tuple[str, click.Option]]] = defaultdict(list)
    for command in COMMANDS:
        for name, option in _options(command).items():
            uses[name].append((command, option))
    return uses


def _form(command: str, option: click.Option) -> tuple:
    """What must agree across commands: the type, its value form, flag or not."""
    return (type(option.type).__name__, getattr(option.type, "name", None),
            EXTENDED_FORMS.get((command, _long(option)), option.metavar), option.is_flag)


def test_no_idea_has_two_names() -> None:
    synonyms = {name: idea for idea, (_, _, others) in IDEAS.items() for name in others}
    for command in COMMANDS:
        for option in COMMANDS[command].params:
            if not isinstance(option, click.Option):
                continue
            for name in option.opts + option.secondary_opts:
                assert name not in synonyms, (
                    f"{command} {name}: the idea {synonyms[name]!r} is written "
                    f"{IDEAS[synonyms[name]][0]}")


def test_each_idea_has_its_one_value_form() -> None:
    for idea, (name, form, _) in IDEAS.items():
        declared = [(command, option) for command, option in _uses().get(name, [])]
        assert declared, f"{idea}: no command declares {name}"
        for command, option in declared:
            if form is not None:
                expected = EXTENDED_FORMS.get((command, name), form)
                assert option.metavar == expected, f"{command} {name}: {option.metavar!r}"


def test_an_option_in_several_commands_has_one_type_and_form() -> None:
    for name, uses in _uses().items():
        if name in KEEPS:
            assert {command: option.metavar for command, option in uses} == KEEPS[name]
            continue
        forms = {_form(command, option) for command, option in uses}
        # An extended form is the one form with more in front; compare what follows it.
        base = {(t, n, (m or "").split("]")[-1], f) for t, n, m, f in forms}
        assert len(base) == 1, f"{name}: " + "; ".join(
            f"{command}: {_form(command, option)}" for command, option in uses)
        if name in SAME_HELP:
            helps = {option.help for _, option in uses}
            assert len(helps) == 1, f"{name}: {helps}"


def test_counts_are_whole_numbers_and_hands_is_always_a_count() -> None:
    uses = _uses()
    for name in COUNTS:
        for command, option in uses.get(name, []):
            assert option.type is WHOLE and not option.multiple, f"{command} {name}"
    assert {command for command, _ in uses["--hands"]} >= {"simulate", "nil", "bids",
                                                           "calibrate"}
    for command, option in uses["--seed"] + uses["--threads"]:
        assert option.type is WHOLE, command
    for command, option in uses["--buy-in"]:
        assert option.type is DECIMAL, command


def test_out_is_the_command_s_table() -> None:
    """--out is the table everywhere it is declared; simulate's records and audit's instances
    have names of their own."""
    for command, option in _uses()["--out"]:
        assert option.help.startswith("Write the "), (command, option.help)
        assert "table" in option.help or "totals" in option.help, (command, option.help)
    assert "--records" in _options("simulate") and "--out" not in _options("simulate")
    assert "--instances" in _options("audit") and "--out" not in _options("audit")
    for command in ("report", "simulate", "nil", "compare-rules"):
        assert {"--seed", "--quiet"} <= set(_options(command)), command


def test_old_spellings_are_declared_once_hidden_and_never_a_primary_name() -> None:
    declared = {(a.command, a.old) for a in OLD_OPTIONS}
    assert len(declared) == len(OLD_OPTIONS)
    for alias in OLD_OPTIONS:
        hidden = _options(alias.command, hidden=True)
        assert alias.old in hidden, alias
        assert alias.old not in _options(alias.command), f"{alias.command} declares {alias.old}"
        assert alias.new in _options(alias.command), alias
        assert hidden[alias.old].name == f"old_{alias.dest}"
    every_hidden = {(command, name) for command in COMMANDS
                    for name in _options(command, hidden=True)}
    assert every_hidden == declared, "a hidden option that is not a declared old spelling"
    for command, option in OLD_VALUES:
        assert option in _options(command), (command, option)


# --- each old spelling: the same result as the new one, and one notice naming it -----------

SUITS = ["AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S", "AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H",
         "AD KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D 2D", "AC KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C 2C"]


def _deal(option: str) -> list[str]:
    return [word for text in SUITS for word in (option, text)]


def _run(args: list[str], folder: Path) -> tuple[str, list[str]]:
    """stdout, and stderr's lines, of a command that must succeed."""
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    return result.stdout, result.stderr.splitlines()


def _notice(old: str, new: str) -> str:
    return f"note: {old} is an old spelling, taken until spades-sim {UNTIL}: write {new}"


def _json_rows(text: str) -> list:
    return json.loads(text)["rows"]


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_dd_hands_is_dd_cards_with_a_notice(folder: Path) -> None:
    new, new_err = _run(["dd", *_deal("--cards"), "--format", "json"], folder)
    old, old_err = _run(["dd", *_deal("--hands"), "--format", "json"], folder)
    assert _json_rows(old) == _json_rows(new) and new_err == []
    assert old_err == [_notice("dd --hands", "--cards")]
    both = CliRunner().invoke(cli, ["dd", *_deal("--cards"), "--hands", SUITS[0]])
    assert both.exit_code == 2
    assert both.output == "Error: hands: allowed --cards or its old spelling --hands, not both\n"


def test_dd_bids_and_bags_in_seat_order_with_a_notice(folder: Path) -> None:
    base = ["dd", *_deal("--cards"), "--dealer", "0", "--format", "json"]
    new, new_err = _run([*base, "--bids", "0:6,1:2,2:6,3:2", "--bags", "0=1,1=2"], folder)
    old, old_err = _run([*base, "--bids", "6,2,6,2", "--bags", "1,2"], folder)
    assert _json_rows(old) == _json_rows(new) and new_err == []
    assert old_err == [_notice("dd --bids 6,2,6,2", "--bids 0:6,1:2,2:6,3:2"),
                       _notice("dd --bags 1,2", "--bags 0=1,1=2")]


def test_tune_param_lo_hi_step_with_a_notice(folder: Path) -> None:
    base = ["tune", "basic", "--against", "random", "--games", "2", "--max-hands", "3",
            "--seed", "1", "--quiet", "--no-figure"]
    new, new_err = _run([*base, "--param", "bid_offset=0..1:1"], folder)
    listed, _ = _run([*base, "--param", "bid_offset=0,1"], folder)
    old, old_err = _run([*base, "--param", "bid_offset=0:1:1"], folder)
    assert old == new == listed and new_err == []
    assert old_err == [_notice("tune --param bid_offset=0:1:1", "--param bid_offset=0..1:1")]


def test_simulate_out_is_simulate_records_with_a_notice(folder: Path) -> None:
    base = ["simulate", "--hands", "20", "--seed", "3", "--quiet"]
    _, new_err = _run([*base, "--records", "new.csv"], folder)
    _, old_err = _run([*base, "--out", "old.csv"], folder)
    assert (folder / "old.csv").read_bytes() == (folder / "new.csv").read_bytes()
    assert new_err == ["wrote new.csv"]
    assert old_err == ["wrote old.csv", _notice("simulate --out", "--records")]


def test_audit_out_is_audit_instances_with_a_notice(folder: Path) -> None:
    _run(["simulate", "--hands", "30", "--seed", "3", "--quiet", "--log", "h.jsonl",
          "--log-deals", "0:30"], folder)
    new, new_err = _run(["audit", "h.jsonl", "--instances", "new.csv"], folder)
    old, old_err = _run(["audit", "h.jsonl", "--out", "old.csv"], folder)
    assert old == new and (folder / "old.csv").read_bytes() == (folder / "new.csv").read_bytes()
    assert new_err == ["wrote new.csv"]
    assert old_err == ["wrote old.csv", _notice("audit --out", "--instances")]


def test_an_old_spelling_refused_for_another_reason_is_one_error_line(folder: Path) -> None:
    result = CliRunner().invoke(cli, ["dd", *_deal("--hands"), "--bids", "6,2,6"])
    assert result.exit_code == 2
    assert result.output == ("Error: bids='0:6,1:2,2:6': allowed a bid for every seat 0 to 3, "
                             "e.g. 0:4,1:3,2:nil,3:4\n")


def test_a_param_without_a_side_changes_every_side() -> None:
    every = seat_strategies("basic", 4, ["bid_offset=1"], side_count=2)
    assert [s.name for s in every] == ["basic[bid_offset=1]"] * 4
    with pytest.raises(ValueError, match="param=bid_offset: allowed each side's parameter once"):
        seat_strategies("basic", 4, ["0.bid_offset=1", "bid_offset=0"], side_count=2)


def test_nil_by_top_spade_prints_card_names(folder: Path) -> None:
    """The top spade as a card (standard deck: rank 0 is the 2), none for no spade: in the
    text and in a card column beside the rank in the table."""
    args = ["nil", "--by", "top_spade", "--hands", "200", "--seed", "2", "--quiet",
            "--no-figure"]
    names = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    rows = _json_rows(_run([*args, "--format", "json"], folder)[0])
    assert [row["card"] for row in rows] == [
        "none" if row["top_spade"] == -1 else names[row["top_spade"]] + "S" for row in rows]
    out, _ = _run(args, folder)
    assert [line.split()[0] for line in out.splitlines()[2:]] == [row["card"] for row in rows]
    assert rows[-1]["card"] == "AS"


def test_a_seat_s_cards_are_written_one_way() -> None:
    """hand's CARDS and dd's --cards: the same name and form (parsed by cards.parse_cards)."""
    (argument,) = [p for p in COMMANDS["hand"].params if isinstance(p, click.Argument)]
    assert argument.metavar == "CARDS" == _options("dd")["--cards"].metavar


def test_report_takes_seed_and_quiet(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """report --seed replaces the study's seed and --quiet drops the progress lines: the study
    run_study is handed (its sections are report's tests')."""
    from types import SimpleNamespace

    from spades_sim.analysis.report import DEFAULT_STUDY
    from spades_sim.cli import run_commands

    handed: list[tuple[int, object]] = []

    def run_study(study, out_dir, threads, on_progress=None):
        handed.append((study.seed, on_progress))
        return SimpleNamespace(index=f"{out_dir}/index.html", files=[], interrupted=False)

    monkeypatch.setattr(run_commands, "run_study", run_study)
    _, quiet = _run(["report", "--seed", "5", "--quiet"], folder)
    _run(["report"], folder)
    assert handed[0] == (5, None) and quiet[0] == f"study {DEFAULT_STUDY.name!r}, seed 5"
    assert handed[1][0] == DEFAULT_STUDY.seed and callable(handed[1][1])

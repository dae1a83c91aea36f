"""The run commands: ``simulate`` (with its saved runs and hand logs), ``calibrate`` (the
expert's tables by self-play) and ``report`` (a study written up as HTML)."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import click
import pandas as pd

from .. import __version__
from ..analysis import calibrate as _calibrate
from ..analysis.formatting import economics_text, summary_text
from ..analysis.metrics import Payouts, economics
from ..analysis.report import DEFAULT_STUDY, check_study, load_study, run_study
from ..kernel.calibration import load_family, provenance
from ..outputs import check_file, check_folder, shown
from ..referee.handlog import log_rules_file
from ..run import backends
from ..run.handlogs import check_log_strategies, write_hand_logs
from ..run.simulate import (
    check_size,
    check_threads,
    resolve_seed,
    resume,
    simulate_games,
    simulate_hands,
)
from ..run.store import RunStore, check_save, resume_manifest
from .aliases import old_option
from .errors import InputError, user_errors
from .options import (
    WHOLE,
    PathType,
    economics_options,
    output_options,
    parse_economics,
    parse_log_range,
    progress,
    resolve_rules,
    rule_options,
    rules_files,
    run_options,
    strategy_options,
    table_strategies,
    variant_option,
)
from .output import (
    check_outputs,
    deliver,
    exit_if_not_saved,
    run_metadata,
    run_title,
    side_labels,
    status,
    stopped,
)

RECORDS_OUT = ("Write the records (one row per seat-hand, or per game): .parquet, .csv or "
               ".json (with the run's metadata in Parquet and JSON), or - for CSV on stdout.")


@click.command()
@rule_options
@click.option("--hands", type=WHOLE, default=None,
              help="Play N independent hands.  [default: 100000]")
@click.option("--games", type=WHOLE, default=None, help="Play N games to the target instead.")
@run_options(max_hands="counted unfinished")
@strategy_options
@output_options(out=None)
@click.option("--records", type=PathType(dir_okay=False, allow_dash=True), default=None,
              help=RECORDS_OUT)
@old_option("simulate", "--out", type=PathType(dir_okay=False, allow_dash=True))
@click.option("--log", "log_path", type=PathType(dir_okay=False), default=None,
              help="Write hand logs (JSONL) of the deals chosen by --log-deals.")
@click.option("--log-deals", default="0:10", show_default=True, metavar="START:STOP",
              help="Which hands (or games, with --games) --log writes.")
@economics_options
@click.option("--save", "save_dir", type=PathType(file_okay=False), default=None,
              metavar="DIR", help="Save the run block by block in DIR (a manifest and Parquet "
                                  "shards of totals), so that --resume DIR can finish it.")
@click.option("--resume", "resume_dir", type=PathType(file_okay=False), default=None,
              metavar="DIR", help="Finish the run saved in DIR; run options given as well must "
                                  "match it.")
@click.option("--backend", default="local", show_default=True, metavar="local|dask",
              help="Where blocks run: local numba threads, or a Dask cluster (--scheduler).")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="The Dask scheduler for --backend dask, e.g. tcp://10.0.0.5:8786.")
@click.pass_context
def simulate(ctx: click.Context, rules_name: str | None, rule_overrides: tuple[str, ...], hands: int | None,
             games: int | None, seed: int | None, threads: int | None,
             strategy_names: tuple[str, ...], param_overrides: tuple[str, ...], max_hands: int,
             records: str | None, log_path: str | None, log_deals: str, buy_in: float | None,
             rake: str | None, save_dir: str | None, resume_dir: str | None, backend: str,
             scheduler: str | None, quiet: bool, fmt: str) -> None:
    """Simulate hands or games and print a summary with 95% intervals.

    Example:

    \b
        spades-sim simulate --rules standard --games 2000 --seed 7 --strategy basic --strategy random
        spades-sim simulate --rules solo --games 2000 --buy-in 100 --rake 15%
        spades-sim simulate --hands 100000000 --save big-run     # Ctrl-C, then:
        spades-sim simulate --resume big-run
        spades-sim simulate --hands 100000000 --backend dask --scheduler tcp://10.0.0.5:8786
    """
    if hands is not None and games is not None:
        raise InputError("hands/games: allowed one of --hands N or --games N, not both")
    given = {name for name in ("log_deals", "max_hands")
             if ctx.get_parameter_source(name) != click.core.ParameterSource.DEFAULT}
    if "log_deals" in given and log_path is None:
        raise InputError(f"log-deals={shown(log_deals)!r}: allowed only together with --log FILE")
    if "max_hands" in given and games is None and resume_dir is None:
        raise InputError(f"max-hands={max_hands}: allowed only together with --games N")
    if buy_in is not None and games is None:
        raise InputError(f"buy-in={buy_in:g}: allowed only together with --games N")
    totals_only = [name for name, value in (("--records", records), ("--log", log_path),
                                            ("--buy-in", buy_in)) if value is not None]
    if (backend == "dask" or resume_dir is not None) and totals_only:
        what = (f"backend={shown(backend)!r}" if backend == "dask"
                else f"resume={shown(str(resume_dir))!r}")
        raise InputError(f"{what}: allowed without {', '.join(totals_only)} (such a run keeps "
                         "totals only)")
    if resume_dir is not None:
        if save_dir is not None:
            raise InputError(f"save={shown(save_dir)!r}: allowed without --resume (a resumed run "
                             "goes on saving in its own folder)")
        with user_errors():
            outputs = check_outputs(fmt, None, reads={"resume": resume_dir,
                                                      "rules": rules_files(rules_name)})
            run = _resume(ctx, resume_dir, rules_name, rule_overrides, hands, games, seed,
                          threads, strategy_names, param_overrides, max_hands, backend,
                          scheduler, quiet)
        title = run_title(run.rules, (), run) + f" (resumed from {resume_dir})" + stopped(run)
        deliver(outputs, f"{title}\n{summary_text(run.summary())}", run.summary(),
                run_metadata(run, resumed_from=resume_dir))
        exit_if_not_saved(run)
        if run.interrupted:
            sys.exit(130)
        return
    with user_errors():
        money = parse_economics(buy_in, rake)
        rules = resolve_rules(rules_name, rule_overrides)
        log_paths = [] if log_path is None else list(
            filter(None, (log_path, log_rules_file(log_path, rules))))
        for path in log_paths:
            check_file(path, "log")
        if save_dir is not None:
            check_save(save_dir)
        outputs = check_outputs(fmt, records, reads={"rules": rules_files(rules_name)},
                                writes={"log": log_paths}, folders={"save": save_dir},
                                out_name="records")
        kind = "games" if games is not None else "hands"
        n = games if games is not None else (hands if hands is not None else 100_000)
        check_size(kind, n)
        deal_range = (parse_log_range(log_deals, kind, n, "log_deals" in given)
                      if log_path else None)
        strategies = table_strategies(rules, strategy_names, param_overrides)
        if log_path is not None:
            check_log_strategies(strategies)
        run_function = simulate_games if kind == "games" else simulate_hands
        extra = {"max_hands": max_hands} if kind == "games" else {}
        with progress(n, kind, quiet) as advance:
            run = run_function(rules, strategies, n, seed=seed, threads=threads,
                               keep_records=records is not None or money is not None,
                               on_block=advance, save=save_dir, backend=backend,
                               scheduler=scheduler, **extra)
    text = [run_title(rules, rule_overrides, run) + stopped(run), summary_text(run.summary())]
    tables: dict[str, pd.DataFrame] = {}
    if money is not None and run.done and not run.save_error:
        seats, sides = rules.seat_count, rules.side_count
        labels = side_labels(seats, sides, strategies)
        tables["economics"] = economics(run.records(), *money, seats, labels)
        text.append(economics_text(tables["economics"], Payouts(*money, seats, sides)))
    deliver(outputs, "\n".join(text), run.summary(), run_metadata(run), extra=tables,
            data=run.records() if records is not None and not run.save_error else None)
    exit_if_not_saved(run)
    if deal_range is not None and deal_range.stop > run.done:  # interrupted: the hands played
        deal_range = range(deal_range.start, max(deal_range.start, run.done))
    if log_path is not None and deal_range:
        with user_errors():
            rules_file = write_hand_logs(log_path, kind, rules, strategies, run.seed, deal_range,
                                         max_hands)
        status(f"wrote {log_path}" + (f" (rules in {rules_file})" if rules_file else ""))
    if run.interrupted:
        sys.exit(130)


def _resume(ctx: click.Context, resume_dir: str, rules_name: str | None,
            rule_overrides: tuple[str, ...], hands: int | None, games: int | None,
            seed: int | None, threads: int | None, strategy_names: tuple[str, ...],
            param_overrides: tuple[str, ...], max_hands: int, backend: str,
            scheduler: str | None, quiet: bool):
    """Finish a saved run; the run options given on the command line must match its manifest."""
    store = RunStore(resume_dir)
    saved = store.manifest()
    explicit = {name for name in ("rules_name", "rule_overrides", "strategy_names",
                                  "param_overrides", "max_hands")
                if ctx.get_parameter_source(name) != click.core.ParameterSource.DEFAULT}
    rules_given = bool(explicit & {"rules_name", "rule_overrides"})
    rules = resolve_rules(rules_name, rule_overrides) if rules_given else saved.rule_set()
    strategies = (table_strategies(rules, strategy_names, param_overrides)
                  if explicit & {"strategy_names", "param_overrides"} else None)
    requested = resume_manifest(
        saved, rules=rules if rules_given else None, strategies=strategies, hands=hands,
        games=games, seed=seed, max_hands=max_hands if "max_hands" in explicit else None)
    store.check(requested)
    check_threads(threads)  # every check before the scan's first note
    backends.backend(backend, scheduler)
    scan = store.scan(saved)
    for line in scan.damaged:
        click.echo(f"note: {line}", err=True)
    already = sum(count for _, count, _ in scan.blocks)
    with progress(saved.requested, saved.kind, quiet) as advance:
        advance(already)
        return resume(resume_dir, threads, advance, backend, scheduler, requested)


@click.command()
@click.argument("families", nargs=-1, metavar="FAMILY...")
@click.option("--all", "every_family", is_flag=True, help="Every family the presets use.")
@click.option("--out-dir", type=PathType(file_okay=False), required=True, metavar="DIR",
              help="Existing folder for FAMILY.npz and tables.toml (data/calibration for the "
                   "shipped tables).")
@run_options(seed="Seed of round 0.", seed_default=1, threads=False)
@click.option("--rounds", type=WHOLE, default=_calibrate.ROUNDS, show_default=True,
              help="Rounds of self-play (each bids from the tables of the one before).")
@click.option("--hands", type=WHOLE, default=_calibrate.Sizes.hands, show_default=True,
              help="Hands per round measuring the tricks.")
@click.option("--nil-hands", type=WHOLE, default=_calibrate.Sizes.nil_hands, show_default=True,
              help="Hands per round exploring nils.")
@click.option("--blind-hands", type=WHOLE, default=_calibrate.Sizes.blind_hands,
              show_default=True, help="Hands per round and cards passed exploring blind nils.")
@click.option("--games", type=WHOLE, default=_calibrate.Sizes.games, show_default=True,
              help="Self-play games fitting the race table's spread (two-sided tables).")
@click.option("--from-shipped", is_flag=True,
              help="Start from the shipped tables instead of a bootstrap round.")
@click.option("--nil-pass-hands", type=WHOLE, default=0, show_default=True,
              help="Hands per nil pass of 1 to 4 cards exploring nils with the pass, after the "
                   "rounds (partnership families; 0: no pass tables).")
@click.option("--nil-pass-only", is_flag=True,
              help="Only add the pass tables to the family's tables in --out-dir (else the "
                   "shipped ones), every other table kept.")
def calibrate(families: tuple[str, ...], every_family: bool, out_dir: str, seed: int, rounds: int,
              hands: int, nil_hands: int, blind_hands: int, games: int, from_shipped: bool,
              nil_pass_hands: int, nil_pass_only: bool, quiet: bool) -> None:
    """Build the expert bidder's calibration tables by self-play.

    A family is a table mode and a deck (partnership-standard, solo-standard,
    ...): the tables hold the trick and nil chances the expert bids from. Each
    family's file and the command that made it (in tables.toml) go to
    --out-dir. docs/strategies.md explains the rounds.

    Example:

    \b
        spades-sim calibrate partnership-standard --out-dir my-tables --hands 200000
        spades-sim calibrate partnership-standard --out-dir my-tables --nil-pass-only \\
            --nil-pass-hands 100000
    """
    with user_errors():
        if every_family and families:  # else the names given would be dropped unread
            raise InputError(f"family={shown(families[0])!r}: allowed FAMILY... or --all, "
                             "not both")
        names = list(_calibrate.FAMILY_PRESETS) if every_family else list(families)
        if not names:
            raise InputError("family: allowed one or more of "
                             + ", ".join(_calibrate.FAMILY_PRESETS) + " (or --all)")
        for i, name in enumerate(names):
            if name not in _calibrate.FAMILY_PRESETS:
                raise InputError(f"family={shown(name)!r}: allowed "
                                 + ", ".join(_calibrate.FAMILY_PRESETS))
            if name in names[:i]:
                raise InputError(f"family={name!r}: allowed each family once (given twice)")
        check_folder(out_dir, "out-dir")
        _calibrate.read_index(out_dir)  # written after each family: refused before the first
        for label, value, low in (("rounds", rounds, 1), ("hands", hands, 10_000),
                                  ("nil-hands", nil_hands, 10_000),
                                  ("blind-hands", blind_hands, 1_000), ("games", games, 0)):
            if not low <= value <= 10**9:
                raise InputError(f"{label}={value}: allowed a whole number {low:,} to 10^9")
        if nil_pass_hands and not 10_000 <= nil_pass_hands <= 10**9:
            raise InputError(f"nil-pass-hands={nil_pass_hands}: allowed 0 or a whole number "
                             "10,000 to 10^9")
        if nil_pass_only and not nil_pass_hands:
            raise InputError("nil-pass-only: allowed with --nil-pass-hands N (the hands to play)")
        if nil_pass_hands:
            for name in names:
                if not name.startswith("partnership-"):
                    raise InputError(f"family={name!r}: allowed a partnership family with "
                                     "--nil-pass-hands (a pass needs partners)")
        sizes = _calibrate.Sizes(hands, nil_hands, blind_hands, games)
        _calibrate.check_seed(seed, rounds)
        if nil_pass_only:
            _add_pass_tables(names, out_dir, seed, nil_pass_hands, quiet)
            return
        # Every family's shipped tables read before the first family is played and written.
        starts = {name: load_family(name) if from_shipped else None for name in names}
        for name in names:
            start = starts[name]
            total = rounds * _calibrate.round_hands(name, sizes)
            # Calibration is long and often logged: its bar shows off a terminal too.
            total += 4 * nil_pass_hands
            with progress(total, f"{name} hands", quiet, terminal_only=False) as advance:
                arrays = _calibrate.calibrate_family(name, rounds, sizes, seed, advance,
                                                     start=start)
                if nil_pass_hands:
                    arrays = _calibrate.add_pass_tables(name, arrays, nil_pass_hands, seed,
                                                        advance)
            made_by = {"command": "spades-sim calibrate " + " ".join(
                [name, "--out-dir", out_dir, "--seed", str(seed), "--rounds", str(rounds),
                 "--hands", str(hands), "--nil-hands", str(nil_hands), "--blind-hands",
                 str(blind_hands), "--games", str(games)]
                + (["--from-shipped"] if from_shipped else [])
                + (["--nil-pass-hands", str(nil_pass_hands)] if nil_pass_hands else [])),
                "seed": seed, "rounds": rounds, "hands": hands, "nil_hands": nil_hands,
                "blind_hands": blind_hands, "games": games, "from_shipped": from_shipped,
                "version": __version__}
            if nil_pass_hands:
                made_by["nil_pass_hands"] = nil_pass_hands
            path = _calibrate.write_tables(out_dir, name, arrays, made_by)
            status(f"wrote {path}")


def _add_pass_tables(names: list[str], out_dir: str, seed: int, hands: int, quiet: bool) -> None:
    """``calibrate --nil-pass-only``: each family's tables (in ``out_dir``, else the shipped ones)
    with the pass tables added, its entry in tables.toml keeping how the rest was made."""
    index = _calibrate.read_index(out_dir)
    shipped = provenance()
    starts = {name: load_family(name, out_dir if (Path(out_dir) / f"{name}.npz").is_file()
                                else None) for name in names}
    for name in names:
        with progress(4 * hands, f"{name} nil-pass hands", quiet, terminal_only=False) as advance:
            arrays = _calibrate.add_pass_tables(name, starts[name], hands, seed, advance)
        made_by = dict(index.get(name) or shipped.get(name) or {})
        made_by.update({
            "nil_pass_command": "spades-sim calibrate " + " ".join(
                [name, "--out-dir", out_dir, "--seed", str(seed), "--nil-pass-only",
                 "--nil-pass-hands", str(hands)]),
            "nil_pass_seed": seed, "nil_pass_hands": hands})
        path = _calibrate.write_tables(out_dir, name, arrays, made_by)
        status(f"wrote {path}")


@click.command(name="report")
@click.option("--config", "config_path", type=PathType(dir_okay=False), default=None,
              metavar="STUDY.TOML", help="The study to run. [default: the default study]")
@click.option("--out-dir", default="reports", show_default=True, type=PathType(file_okay=False),
              metavar="DIR", help="The report is written to DIR/<study name>/index.html.")
@run_options(seed="Seed of every section; the same seed gives the same report.",
             seed_unset="the study's seed")
@variant_option
def report_command(config_path: str | None, out_dir: str, seed: int | None, threads: int | None,
                   quiet: bool, variants: tuple[str, ...]) -> None:
    """Run a study and write it up as an HTML report with its figures and data.

    With no --config, the default study: standard rules against the main variants,
    the bag rules, and the named strategies against each other in duplicate (about
    20 seconds on 2 cores once compiled). The report reads offline: open
    index.html in a browser.

    Example:

    \b
        spades-sim report
        spades-sim report --config my-study.toml --out-dir /tmp --seed 7 --quiet
    """
    with user_errors():
        study = load_study(config_path) if config_path else DEFAULT_STUDY
        if variants:  # checked with the study's other fields
            study = dataclasses.replace(study, variants=study.variants + variants)
        if seed is not None:  # refused as every command's --seed is
            study = dataclasses.replace(study, seed=resolve_seed(seed))
        check_study(study, out_dir, threads, config_path)  # all before the first status line
        status(f"study {study.name!r}, seed {study.seed}")
        report = run_study(study, out_dir, threads,
                           on_progress=None if quiet else lambda name: status(f"  {name} ..."))
    status(f"wrote {report.index} ({len(report.files)} files)"
           + (" (interrupted)" if report.interrupted else ""))
    if report.interrupted:
        sys.exit(130)


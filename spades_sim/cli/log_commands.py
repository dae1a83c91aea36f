"""The hand-log commands: ``score`` (validate and score a log with the referee) and
``audit`` (the card play of a log checked for technique errors)."""

from __future__ import annotations

import click

from ..analysis import export
from ..analysis.formatting import audit_text, scored_text
from ..referee import score_file, scored_frame
from ..referee.audit import audit_file, check_csv_path, check_list_count
from .aliases import old_option
from .errors import user_errors
from .options import WHOLE, PathType, log_rule_options, log_rules, output_options, rules_files
from .output import check_outputs, deliver, status


@click.command()
@click.argument("log_file", type=PathType(dir_okay=False))
@log_rule_options("Score")
@output_options()
def score(log_file: str, rules_name: str | None, rule_overrides: tuple[str, ...], fmt: str,
          out: str | None) -> None:
    """Validate and score a hand log (JSONL) with the referee; print each hand's result.

    Any log will do: one written by ``simulate --log``, by hand or by another
    program (the format is in docs/hand-log.md).

    Example:

    \b
        spades-sim score hands.jsonl
    """
    with user_errors():
        rules = log_rules(rules_name, rule_overrides)
        outputs = check_outputs(fmt, out, reads={"log": log_file,
                                                 "rules": rules_files(rules_name)})
        scored = score_file(log_file, rules)
    meta = export.metadata("score", None, [rules] if rules else [], [], log=log_file,
                           hands=len(scored))
    deliver(outputs, scored_text(scored), scored_frame(scored), meta)


@click.command(name="audit")
@click.argument("log_file", type=PathType(dir_okay=False))
@log_rule_options("Replay")
@click.option("--seat", "seats", type=WHOLE, multiple=True, metavar="N",
              help="Audit only this seat's plays (repeatable). [default: every seat]")
@click.option("--list", "list_count", type=WHOLE, default=20, show_default=True, metavar="N",
              help="How many instances to list; 0 for none.")
@click.option("--instances", type=PathType(dir_okay=False), default=None, metavar="FILE.csv",
              help="Write every instance as CSV.")
@old_option("audit", "--out", type=PathType(dir_okay=False), metavar="FILE.csv")
@output_options(out=None)
def audit_command(log_file: str, rules_name: str | None, rule_overrides: tuple[str, ...],
                  seats: tuple[int, ...], list_count: int, instances: str | None,
                  fmt: str) -> None:
    """Audit the card play of a hand log (JSONL) for five technique errors.

    Replays every hand with the referee, as score does, and at every card play
    checks what the seat knew for third-hand-low, ruff-partner-winner,
    wasted-trump, nil-took-duckable and nil-not-covered (defined in
    docs/analysis.md). Prints per pattern the hands with at least one instance,
    their share of the hands audited with its 95% interval and the instances,
    then the first --list instances with a card that would have been sound.

    Example:

    \b
        spades-sim simulate --hands 5000 --seed 1 --log hands.jsonl --log-deals 0:5000
        spades-sim audit hands.jsonl --list 10 --instances instances.csv
    """
    with user_errors():
        check_list_count(list_count)
        rules = log_rules(rules_name, rule_overrides)
        if instances is not None:
            check_csv_path(instances)
        outputs = check_outputs(fmt, None, reads={"log": log_file,
                                                  "rules": rules_files(rules_name)},
                                writes={"instances": instances})
        result = audit_file(log_file, rules, seats or None)
    meta = export.metadata("audit", None, [rules] if rules else [], [], log=log_file,
                           hands=result.hands_audited, seats=list(result.seats))
    deliver(outputs, audit_text(result, list_count), result.table(), meta,
            extra={"instances": result.instance_table().head(list_count)})
    if instances is not None:
        with user_errors():  # after the results are printed: a full disk does not hide them
            result.write_csv(instances)
        status(f"wrote {instances}")


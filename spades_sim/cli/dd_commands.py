"""The double-dummy commands: ``dd`` (one deal or one position of a log, solved with every
card visible) and ``review`` (every play of a hand log that lost double-dummy value)."""

from __future__ import annotations

import click

from ..analysis import export
from ..analysis.double_dummy import (
    analyse_deal,
    analyse_position,
    bids_text,
    deal_text,
    hand_bids,
    log_position,
    parse_hands,
    position_text,
)
from ..analysis.hand_inputs import (
    every_seat_bids,
    old_bids_spelling,
    old_side_spelling,
    parse_side_values,
)
from ..analysis.review import review_file, review_text
from ..cards import format_card
from ..referee.audit import check_list_count
from ..referee.handlog import LogError, log_lines
from .aliases import new_spelling, old_option
from .errors import InputError, user_errors
from .options import (
    QUIET,
    WHOLE,
    PathType,
    log_rule_options,
    log_rules,
    output_options,
    progress,
    resolve_rules,
    rules_files,
)
from .output import check_outputs, deliver, rules_label, status


@click.command(name="dd")
@click.option("--cards", "seat_cards", multiple=True, metavar="CARDS",
              help="The cards of one seat, e.g. --cards 'AS KS QS …'; once per seat, seat 0 first.")
@old_option("dd", "--hands", metavar="CARDS")
@click.option("--log", "log_path", type=PathType(dir_okay=False), default=None,
              help="Instead of --cards: a position of this hand log (JSONL).")
@click.option("--line", "line_number", type=WHOLE, default=None,
              help="The log's line holding the hand (from 1). [default: 1]")
@click.option("--after", type=WHOLE, default=None,
              help="How many cards of the hand are played before the position. [default: 0]")
@click.option("--rules", "rules_name", default=None, metavar="NAME|FILE",
              help="A preset or a rules file (./NAME or NAME.toml). [default: standard; with "
                   "--log the line's own]")
@click.option("--rule", "rule_overrides", multiple=True, metavar="FIELD=VALUE",
              help="Override one rule field (repeatable; with --log it needs --rules).")
@click.option("--dealer", type=WHOLE, default=None,
              help="With --cards: the dealer, which says who leads first. [default: the seat "
                   "before seat 0]")
@click.option("--bids", "bids_text_", default=None, metavar="SEAT:BID,…",
              help="Every seat's bid (a number, nil or blind), e.g. 0:4,1:3,2:nil,3:4: adds the "
                   "best score difference and a line of play. [default with --log: the hand's "
                   "bids]")
@click.option("--bags", "bags_text", default=None, metavar="SIDE=N,…",
              help="Bags each side carries into the hand, e.g. 0=3,1=5. [default: none; with "
                   "--log the hand's]")
@output_options()
def dd_command(seat_cards: tuple[str, ...], log_path: str | None, line_number: int | None,
               after: int | None, rules_name: str | None, rule_overrides: tuple[str, ...],
               dealer: int | None, bids_text_: str | None, bags_text: str | None, fmt: str,
               out: str | None) -> None:
    """Double-dummy analysis of one deal, or of one position of a hand log.

    With every card visible and every seat playing its best: for each seat that
    leads the deal, the tricks each side takes and whether each seat's nil can be
    set (its opponents can force it to take a trick, its partner helping it); with
    --bids, each side's best score difference (its hand points minus the others')
    and a best line of play. At a position of a log (--log FILE --line N --after K:
    K cards into the hand on line N) the same from there, and for every legal card
    of the seat to play its side's tricks, score difference and the nils after it.
    Definitions: docs/double-dummy.md.

    Example:

    \b
        spades-sim dd --cards 'AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S' \\
            --cards 'AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H' \\
            --cards 'AD KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D 2D' \\
            --cards 'AC KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C 2C'
        spades-sim dd --log hands.jsonl --line 2 --after 8
    """
    if bids_text_ is not None:
        bids_text_ = new_spelling("dd", "--bids", bids_text_, old_bids_spelling(bids_text_))
    if bags_text is not None:
        bags_text = new_spelling("dd", "--bags", bags_text, old_side_spelling(bags_text))
    with user_errors():
        outputs = check_outputs(fmt, out, reads={"log": log_path,
                                                 "rules": rules_files(rules_name)})
        if log_path is None:
            for name, value in (("line", line_number), ("after", after)):
                if value is not None:
                    raise InputError(f"{name}={value}: allowed only together with --log FILE")
            if not seat_cards:
                raise InputError("cards: allowed --cards once per seat, or --log FILE")
            rules = resolve_rules(rules_name, rule_overrides)
            hands = parse_hands(rules, seat_cards)
            bids, blind = every_seat_bids(bids_text_, rules) if bids_text_ is not None else (None, ())
            bags = parse_side_values(bags_text, "bags", rules) if bags_text is not None else ()
            deal = analyse_deal(rules, hands, dealer, bids, blind, bags)
            title = (f"rules {rules_label(rules, rule_overrides)}: double-dummy tricks of each "
                     "side by the seat that leads")
            meta = export.metadata("dd", None, [rules], [], hands=[
                " ".join(format_card(card) for card in held) for held in hands],
                dealer=deal.dealer, first_leader=deal.first_leader, bids=deal.bids,
                blind=list(deal.blind), bags=list(deal.bags),
                line=[format_card(card) for card in deal.line], line_value=deal.line_value)
            deliver(outputs, f"{title}\n{deal_text(deal)}", deal.table, meta)
            return
        if seat_cards:
            raise InputError("cards: allowed either --cards or --log FILE, not both")
        if dealer is not None:
            raise InputError(f"dealer={dealer}: allowed only with --cards (a log names its dealer)")
        rules_given = log_rules(rules_name, rule_overrides)
        line = 1 if line_number is None else line_number
        spot = log_position(log_path, line, 0 if after is None else after, rules_given)
        rules = spot.logged.rules
        if bids_text_ is not None:
            bids, blind = every_seat_bids(bids_text_, rules)
        else:
            bids, blind = hand_bids(spot.hand)
        bags = (parse_side_values(bags_text, "bags", rules) if bags_text is not None
                else tuple(spot.hand.bags_before))
        result = analyse_position(rules, spot.position, bids, blind, bags)
    next_card = "" if spot.next_card is None else f"; the log plays {format_card(spot.next_card)}"
    title = (f"rules {rules.name}, {log_path} line {line}, after {spot.after} of {spot.plays} card "
             f"plays (bids {bids_text(bids, blind)}){next_card}")
    meta = export.metadata(
        "dd", None, [rules], [], log=log_path, line=line, after=spot.after, plays=spot.plays,
        to_play=spot.position.to_play, trick=[format_card(c) for c in spot.position.trick],
        taken=list(spot.position.taken), broken=spot.position.broken,
        tricks=list(result.tricks), nil_set={str(k): v for k, v in result.nil_set.items()},
        bids=list(bids), blind=list(blind), bags=list(bags), score=result.score,
        line_of_play=[format_card(c) for c in result.line],
        logged_card=None if spot.next_card is None else format_card(spot.next_card))
    deliver(outputs, position_text(result, title), result.table, meta)


@click.command(name="review")
@click.argument("log_file", type=PathType(dir_okay=False))
@log_rule_options("Review")
@click.option("--strategies", "strategy_text", default=None, metavar="NAME,NAME,…",
              help="Label the seats by these strategy names, one per seat. [default: the log's "
                   "strategies field, else unknown]")
@click.option("--list", "list_count", type=WHOLE, default=20, show_default=True, metavar="N",
              help="How many plays that lost value to list; 0 for none.")
@click.option("--mistakes", "mistakes_path", type=PathType(dir_okay=False), default=None,
              metavar="FILE", help="Write every play that lost value: .parquet, .csv or .json.")
@click.option("--quiet", is_flag=True, help=QUIET)
@output_options(out="Write the per-seat and per-strategy totals: .parquet, .csv or .json "
                    "(with the review's metadata in Parquet and JSON), or - for CSV on stdout.")
def review_command(log_file: str, rules_name: str | None, rule_overrides: tuple[str, ...],
                   strategy_text: str | None, list_count: int, mistakes_path: str | None,
                   quiet: bool, fmt: str, out: str | None) -> None:
    """Replay a hand log and mark every play that lost double-dummy value.

    Every hand is checked by the referee (as score does), then at each card play
    the position is solved with every card visible: a play loses value when its
    side's double-dummy tricks fall, when its side's best score difference given
    the bids falls, or when it lets a nil be set (the nil's side) or lets one off
    (an opponent). Prints per seat and per strategy the mistakes, tricks and
    points lost per seat-hand and the share of plays that lost value, with 95%
    intervals, then the first --list plays with a card that kept the value.
    Definitions: docs/double-dummy.md.

    Example:

    \b
        spades-sim simulate --hands 200 --seed 1 --log hands.jsonl --log-deals 0:20
        spades-sim review hands.jsonl --out totals.csv
    """
    with user_errors():
        check_list_count(list_count)
        rules = log_rules(rules_name, rule_overrides)
        if mistakes_path is not None:
            if mistakes_path == export.STDOUT:
                raise InputError("mistakes='-': allowed a file ending in .parquet, .csv or .json")
            export.check_out(mistakes_path, "mistakes")
        outputs = check_outputs(fmt, out, reads={"log": log_file,
                                                 "rules": rules_files(rules_name)},
                                writes={"mistakes": mistakes_path})
        names = None if strategy_text is None else [name.strip() for name in
                                                    strategy_text.split(",")]
        hands = _hand_count(log_file)
        with progress(hands, "hands", quiet) as advance:
            result = review_file(log_file, rules, names, on_hand=advance)
    meta = export.metadata("review", None, [rules] if rules else [], [], log=log_file,
                           hands=len(result.hands), plays=result.plays,
                           mistakes=len(result.mistakes))
    deliver(outputs, review_text(result, list_count), result.totals(), meta,
            extra={"mistakes": result.mistake_table().head(list_count)})
    if mistakes_path is not None:
        with user_errors():  # after the results are printed: a full disk does not hide them
            export.write(result.mistake_table(), mistakes_path, meta, "mistakes")
        status(f"wrote {mistakes_path}")


def _hand_count(path: str) -> int:
    """The log's non-blank lines, for the progress bar's total (a file the log reader refuses:
    none; the review itself then refuses it in one line)."""
    try:
        return sum(1 for _, text in log_lines(path) if text.strip())
    except LogError:
        return 0


__all__ = ["dd_command", "review_command"]

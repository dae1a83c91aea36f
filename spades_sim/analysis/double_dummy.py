"""Double-dummy analysis of one deal or one position (``spades-sim dd``).

A deal is given as the cards of every seat, or as a position of a hand log: a line of
the file and a number of card plays into that hand, replayed through the referee
(:func:`spades_sim.referee.replay.logged_hands`) and turned into a
:class:`spades_sim.kernel.double_dummy.Position` here (:func:`position_of`). The
solver (:class:`~spades_sim.kernel.double_dummy.DoubleDummy`) then gives, with every
card visible and every seat playing its best:

- for each seat that may lead a fresh deal, the tricks each side takes;
- for each seat, whether its nil *can be set*: the other sides can force it to take a
  trick, its partner helping it;
- with the bids, the best *score difference* of a side (its points for the hand minus
  the other sides' total, bags and a bag penalty included) and a line of play that gets
  it;
- at a position, the same from there, and for each legal card of the seat to play the
  tricks (and score difference) of its side after that card.

Every bad deal or position ends in one :class:`DoubleDummyError` line that names what
is wrong (a card dealt twice, a card missing from the deal, a hand of the wrong size, a
position past the end of the hand).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from ..cards import CardError, format_card, format_cards, mask_of, parse_cards
from ..kernel.double_dummy import DoubleDummy, Position, PositionError, table_bits_for
from ..referee.deck import deck_of
from ..referee.hand import Hand, Phase, first_leader
from ..referee.handlog import BlindCount, CardPlay, check_deal, parse_action
from ..referee.replay import LoggedHand, logged_hands
from ..rules import Mode, RuleSet


class DoubleDummyError(ValueError):
    """A deal, position, bid list or bag list that the double-dummy analysis cannot take."""


# --- what a deal and a position are made of ------------------------------------------------


def side_name(rules: RuleSet, side: int) -> str:
    """A side as the tables write it: its seats joined by ``+`` (``0+2``), or the seat alone."""
    return "+".join(str(seat) for seat in range(rules.seat_count) if rules.seat_side(seat) == side)


def parse_hands(rules: RuleSet, texts: Sequence[str]) -> tuple[tuple[int, ...], ...]:
    """The cards of every seat from one string per seat (``"AS KS …"``, read by
    :func:`~spades_sim.cards.parse_cards` as every command reads a seat's cards; the field
    ``cards``, as ``dd --cards`` gives them), checked against the
    rules: one hand per seat, the hand size each, cards of the rules' deck, each card once,
    and (but in two-player, where the draw leaves half the deck out) every card of the deck.

    :raises DoubleDummyError: naming the first problem.
    """
    seats, size = rules.seat_count, rules.hand_size
    if len(texts) != seats:
        raise DoubleDummyError(f"cards: {len(texts)} given: allowed {seats}, one per seat in seat "
                               f"order (--cards once per seat, seat 0 first)")
    hands: list[tuple[int, ...]] = []
    for seat, text in enumerate(texts):
        try:
            hands.append(parse_cards(text, unique=False))
        except CardError as error:
            raise DoubleDummyError(f"cards[{seat}]: {error}") from None
    deck = deck_of(rules)
    for seat, held in enumerate(hands):
        for card in held:
            if card not in deck.cards:
                raise DoubleDummyError(f"cards[{seat}]: card {format_card(card)} is not in the "
                                       f"{deck.name} deck of {rules.name} ({deck.note})")
    try:
        check_deal(hands, hand_size=None, seat_count=seats)
    except ValueError as error:  # worded for a log's field "hands": here the cards given
        raise DoubleDummyError(str(error).replace("hands", "cards")) from None
    dealt = {card for held in hands for card in held}
    missing = sorted(deck.cards - dealt)
    complete = rules.mode != Mode.TWO_PLAYER
    for seat, held in enumerate(hands):
        if len(held) != size:
            note = (f"; missing from the deal: {_few_cards(missing)}" if complete and missing
                    else "")
            raise DoubleDummyError(f"cards[{seat}] has {len(held)} cards: allowed {size}{note}")
    if complete and missing:  # cannot happen with the sizes right and no card twice; kept plain
        raise DoubleDummyError(f"cards: missing from the deal: {_few_cards(missing)}")
    return tuple(hands)


def _few_cards(cards: Sequence[int], most: int = 8) -> str:
    shown_cards = format_cards(cards[:most])
    return shown_cards + (f" and {len(cards) - most} more" if len(cards) > most else "")


def position_of(hand: Hand) -> Position:
    """The solver's position of a referee hand in its play phase (its cards as held now, after
    any blind-nil exchange)."""
    if hand.phase != Phase.PLAY or hand.turn_index is None:
        raise DoubleDummyError(f"position: allowed a hand in play ({hand.waiting_for() or 'over'})")
    return Position(
        hands=tuple(mask_of(hand.holding(seat)) for seat in range(hand.seat_count)),
        to_play=hand.turn_index,
        trick=hand.trick_cards,
        taken=hand.tricks_taken,
        broken=hand.spades_broken_status,
    )


def hand_bids(hand: Hand) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The bids of a referee hand past its bidding, as the solver takes them: (bids, blind), a
    blind flag 1 for a blind nil and 2 for a number of tricks bid blind."""
    bids = [bid for bid in hand.bids if bid is not None]
    return (tuple(0 if bid == "bn" else int(bid) for bid in bids),
            tuple(1 if bid == "bn" else 2 if isinstance(bid, BlindCount) else 0 for bid in bids))


def plays_of(log_actions: Sequence[str]) -> int:
    """How many card plays a log line holds."""
    return sum(1 for text in log_actions if text.split()[1:2] == ["p"])


# --- a line of play --------------------------------------------------------------------------


@dataclass(frozen=True)
class LineTrick:
    """One trick (or the end of the one in progress) of a line of play."""

    leader: int
    cards: tuple[int, ...]
    winner: int | None
    """None when the line starts inside this trick and the winner is of cards before it."""


def line_tricks(rules: RuleSet, position: Position, line: Sequence[int]) -> list[LineTrick]:
    """A line of play (card ids from ``position`` on) cut into its tricks, with who led and who
    won each (found by playing it through the solver's rules)."""
    seats = rules.seat_count
    tricks: list[LineTrick] = []
    current = position
    leader = (current.to_play - len(current.trick)) % seats
    cards: list[int] = list(current.trick)
    for card in line:
        taken = _taken(current, seats)
        current = current.play(card, rules)
        cards.append(card)
        after = _taken(current, seats)
        if after != taken:
            winner = next(seat for seat in range(seats) if after[seat] != taken[seat])
            tricks.append(LineTrick(leader, tuple(cards), winner))
            leader, cards = winner, []
    if cards:
        tricks.append(LineTrick(leader, tuple(cards), None))
    return tricks


def _taken(position: Position, seats: int) -> tuple[int, ...]:
    return tuple(position.taken) if position.taken else (0,) * seats


def line_text(rules: RuleSet, position: Position, line: Sequence[int]) -> list[str]:
    """A line of play as text, one trick a line: ``trick 3: 0 AS  1 2H  2 2D  3 2C  -> 0``."""
    first = sum(_taken(position, rules.seat_count)) + 1
    lines = []
    for number, trick in enumerate(line_tricks(rules, position, line), start=first):
        plays = "  ".join(f"{(trick.leader + k) % rules.seat_count} {format_card(card)}"
                          for k, card in enumerate(trick.cards))
        won = f"  -> seat {trick.winner}" if trick.winner is not None else ""
        lines.append(f"  trick {number}: {plays}{won}")
    return lines


# --- a fresh deal ----------------------------------------------------------------------------


@dataclass
class DealAnalysis:
    """What :func:`analyse_deal` found for a fresh deal."""

    rules: RuleSet
    hands: tuple[tuple[int, ...], ...]
    dealer: int
    first_leader: int
    """The seat that leads the first trick with this dealer and these cards."""
    table: pd.DataFrame
    """One row per seat that leads: ``leader``, ``first`` (the rules' first leader with this
    dealer), ``may_lead``, ``tricks_<side>`` per side, ``nil_set_<seat>`` per seat (True: the
    nil can be set) and, with bids, ``score_<side>`` per side (the best hand-score difference
    of the side). A seat that the rules do not let lead the first trick has no values."""
    bids: tuple[int, ...] | None = None
    blind: tuple[int, ...] = ()
    bags: tuple[int, ...] = ()
    line: tuple[int, ...] = ()
    """With bids: a best line for the first leader's side, from the first lead."""
    line_value: int | None = None
    """Its score difference for the first leader's side."""


def analyse_deal(rules: RuleSet, hands: Sequence[Sequence[int]], dealer: int | None = None,
                 bids: Sequence[int] | None = None, blind: Sequence[int] = (),
                 bags: Sequence[int] = ()) -> DealAnalysis:
    """Double-dummy tricks, nils and (with ``bids``) score differences of a fresh deal, for
    every seat that may lead it; ``dealer`` (default the seat before seat 0) names the rules'
    first leader, whose best score line is kept."""
    seats, sides = rules.seat_count, rules.side_count
    if dealer is None:
        dealer = seats - 1
    if not 0 <= dealer < seats:
        raise DoubleDummyError(f"dealer={dealer}: allowed 0 to {seats - 1}")
    held = tuple(tuple(seat_cards) for seat_cards in hands)
    masks = tuple(mask_of(seat_cards) for seat_cards in held)
    leader = first_leader(rules, dealer, [set(seat_cards) for seat_cards in held])
    solver = DoubleDummy(rules, table_bits=table_bits_for(bids))
    tricks = solver.table(masks)
    blind_flags = tuple(blind) if blind else (False,) * seats
    rows: list[dict[str, object]] = []
    line: tuple[int, ...] = ()
    line_value: int | None = None
    for seat in range(seats):
        row: dict[str, object] = {"leader": seat, "first": seat == leader,
                                  "may_lead": bool(tricks[seat, 0] >= 0)}
        if not row["may_lead"]:
            row.update({f"tricks_{side}": None for side in range(sides)})
            row.update({f"nil_set_{other}": None for other in range(seats)})
            if bids is not None:
                row.update({f"score_{side}": None for side in range(sides)})
            rows.append(row)
            continue
        row.update({f"tricks_{side}": int(tricks[seat, side]) for side in range(sides)})
        position = Position.deal(masks, seat)
        row.update({f"nil_set_{other}": solver.nil_set(position, other) for other in range(seats)})
        if bids is not None:
            values: dict[int, int] = {}
            for side in range(sides):
                if sides == 2 and side == 1:  # two sides: what one gains the other loses
                    values[1] = -values[0]
                    continue
                values[side] = solver.score_value(position, tuple(bids), blind=blind_flags,
                                                  bags=tuple(bags), side=side)
            row.update({f"score_{side}": value for side, value in values.items()})
            if seat == leader:  # solved already: the line comes from the solver's tables
                best = solver.score(position, tuple(bids), blind=blind_flags, bags=tuple(bags),
                                    side=rules.seat_side(leader))
                line, line_value = tuple(best.line), best.value
        rows.append(row)
    table = pd.DataFrame(rows)
    for column in table.columns:
        if column.startswith(("tricks_", "score_")):
            table[column] = table[column].astype("Int64")
    return DealAnalysis(rules, held, dealer, leader, table,
                        None if bids is None else tuple(bids), blind_flags, tuple(bags), line,
                        line_value)


def deal_text(result: DealAnalysis) -> str:
    """The table of :func:`analyse_deal` as text."""
    rules = result.rules
    seats, sides = rules.seat_count, rules.side_count
    header = f"{'lead':>5}" + "".join(f"{'tricks ' + side_name(rules, s):>12}" for s in range(sides))
    header += "".join(f"{'nil ' + str(seat):>7}" for seat in range(seats))
    with_score = result.bids is not None
    if with_score:
        header += "".join(f"{'score ' + side_name(rules, s):>11}" for s in range(sides))
    lines = [header]
    for row in result.table.to_dict("records"):
        mark = "*" if row["first"] else " "
        text = f"{row['leader']:>4}{mark}"
        if not row["may_lead"]:
            lines.append(text + "  may not lead the first trick")
            continue
        text += "".join(f"{row[f'tricks_{s}']:>12}" for s in range(sides))
        text += "".join(f"{'set' if row[f'nil_set_{seat}'] else 'safe':>7}" for seat in range(seats))
        if with_score:
            text += "".join(f"{row[f'score_{s}']:>+11}" for s in range(sides))
        lines.append(text)
    lines.append(f"* seat {result.first_leader} leads the first trick (dealer {result.dealer}); "
                 "nil k: can seat k's nil be set (set) or not (safe)")
    if with_score and result.bids is not None and result.line_value is not None:
        side = rules.seat_side(result.first_leader)
        lines.append(f"best line for side {side_name(rules, side)} (bids "
                     f"{bids_text(result.bids, result.blind)}"
                     + (f", bags {'/'.join(map(str, result.bags))}" if result.bags else "")
                     + f"): score difference {result.line_value:+}")
        start = Position.deal(tuple(mask_of(seat_cards) for seat_cards in result.hands),
                              result.first_leader)
        lines += line_text(rules, start, result.line)
    return "\n".join(lines)


def bids_text(bids: Sequence[int], blind: Sequence[int]) -> str:
    """Bids as the titles write them: ``4 3 nil 4`` (blind nil: ``bn``; 6 bid blind: ``bb6``)."""
    def one(k: int, bid: int) -> str:
        flag = blind[k] if blind else 0
        if flag == 2:
            return f"bb{bid}"
        return "bn" if flag else ("nil" if bid == 0 else str(bid))
    return " ".join(one(k, bid) for k, bid in enumerate(bids))


# --- a position of a log ---------------------------------------------------------------------


@dataclass
class LogPosition:
    """A position of a hand log: the referee hand after ``after`` card plays of line ``line``."""

    logged: LoggedHand
    after: int
    plays: int
    """The card plays the hand holds."""
    hand: Hand
    position: Position
    next_card: int | None
    """The card the log plays next."""


def log_position(path: str | Path, line: int, after: int,
                 rules: RuleSet | None = None) -> LogPosition:
    """The position after ``after`` card plays of the hand on line ``line`` (from 1) of a hand
    log, the whole log checked by the referee first (as ``spades-sim score`` does).

    :raises LogError: the log is refused by the referee.
    :raises DoubleDummyError: no hand on that line, or ``after`` past the hand's last play.
    """
    hands = logged_hands(path, rules)
    by_line = {logged.line_number: logged for logged in hands}
    if line not in by_line:
        lines = [logged.line_number for logged in hands]
        raise DoubleDummyError(f"line={line}: allowed a line of the log holding a hand ("
                               + _line_ranges(lines) + ")")
    logged = by_line[line]
    plays = plays_of(logged.log.actions)
    if not 0 <= after < plays:
        raise DoubleDummyError(f"after={after}: allowed 0 to {plays - 1} (the hand on line {line} "
                               f"has {plays} card plays; {plays} is past its end)")
    hand = logged.start()
    played = 0
    next_card: int | None = None
    for text in logged.log.actions:
        action = parse_action(text)
        if isinstance(action, CardPlay):
            if played == after:
                next_card = action.card
                break
            played += 1
        hand.apply(action)
    return LogPosition(logged, after, plays, hand, position_of(hand), next_card)


def _line_ranges(lines: Sequence[int]) -> str:
    if not lines:
        return "none"
    if lines == list(range(lines[0], lines[-1] + 1)):
        return f"{lines[0]} to {lines[-1]}" if len(lines) > 1 else str(lines[0])
    return ", ".join(map(str, lines[:10])) + (" …" if len(lines) > 10 else "")


@dataclass
class PositionAnalysis:
    """What :func:`analyse_position` found at one position."""

    rules: RuleSet
    position: Position
    tricks: tuple[int, ...]
    """Per side: the most tricks it takes in the whole hand from here."""
    nil_set: dict[int, bool]
    """Per seat asked (the nil bidders with bids, else every seat): can its nil be set."""
    table: pd.DataFrame
    """One row per legal card of the seat to play: ``card``, ``tricks`` (its side's, after the
    card), ``score`` (its side's best score difference after it, with bids) and
    ``nil_set_<seat>`` per seat of :attr:`nil_set`."""
    bids: tuple[int, ...] | None = None
    blind: tuple[int, ...] = ()
    bags: tuple[int, ...] = ()
    score: int | None = None
    line: tuple[int, ...] = ()
    """With bids: a best line for the side to play."""
    facts: dict[str, object] = field(default_factory=dict)


def analyse_position(rules: RuleSet, position: Position, bids: Sequence[int] | None = None,
                     blind: Sequence[int] = (), bags: Sequence[int] = ()) -> PositionAnalysis:
    """Tricks of every side from ``position``, the nils that can be set, and per legal card of
    the seat to play its side's tricks (and, with ``bids``, score difference) after it."""
    try:
        position.check(rules)
    except PositionError as error:
        raise DoubleDummyError(str(error)) from None
    seats, sides = rules.seat_count, rules.side_count
    solver = DoubleDummy(rules, table_bits=table_bits_for(bids))
    tricks = tuple(solver.tricks(position, side) for side in range(sides))
    side = rules.seat_side(position.to_play)
    nil_seats = (list(range(seats)) if bids is None
                 else [seat for seat in range(seats) if bids[seat] == 0])
    nil_set = {seat: solver.nil_set(position, seat) for seat in nil_seats}
    card_tricks = solver.card_tricks(position, side)
    card_nils = {seat: solver.card_nil_set(position, seat) for seat in nil_seats}
    blind_flags = tuple(blind) if blind else (False,) * seats
    card_scores: dict[int, int] = {}
    score: int | None = None
    line: tuple[int, ...] = ()
    if bids is not None:
        card_scores = solver.card_scores(position, tuple(bids), blind=blind_flags, bags=tuple(bags),
                                         side=side)
        best = solver.score(position, tuple(bids), blind=blind_flags, bags=tuple(bags), side=side)
        score, line = best.value, tuple(best.line)
    rows = []
    for card in position.legal(rules):
        row: dict[str, object] = {"card": format_card(card), "tricks": card_tricks[card]}
        if bids is not None:
            row["score"] = card_scores[card]
        row.update({f"nil_set_{seat}": card_nils[seat][card] for seat in nil_seats})
        rows.append(row)
    return PositionAnalysis(rules, position, tricks, nil_set, pd.DataFrame(rows),
                            None if bids is None else tuple(bids), blind_flags, tuple(bags), score,
                            line)


def position_text(result: PositionAnalysis, title: str = "") -> str:
    """The analysis of a position as text."""
    rules, position = result.rules, result.position
    seats, sides = rules.seat_count, rules.side_count
    side = rules.seat_side(position.to_play)
    taken = _taken(position, seats)
    lines = [title] if title else []
    trick = ("  ".join(f"{(position.to_play - len(position.trick) + k) % seats} {format_card(c)}"
                       for k, c in enumerate(position.trick)) or "none (a lead)")
    lines.append(f"trick {sum(taken) + 1}, seat {position.to_play} to play; this trick so far: "
                 f"{trick}; tricks taken by seat: {' '.join(map(str, taken))}; spades "
                 + ("broken" if position.broken else "not broken"))
    lines.append("double-dummy tricks in the hand from here: " + ", ".join(
        f"side {side_name(rules, s)} {result.tricks[s]}" for s in range(sides)))
    if result.nil_set:
        lines.append("nil: " + ", ".join(f"seat {seat} {'can be set' if is_set else 'cannot be set'}"
                                         for seat, is_set in result.nil_set.items()))
    header = f"{'card':>5} {'tricks ' + side_name(rules, side):>12}"
    if result.bids is not None:
        header += f" {'score ' + side_name(rules, side):>11}"
    header += "".join(f" {'nil ' + str(seat):>6}" for seat in result.nil_set)
    lines.append(header)
    for row in result.table.to_dict("records"):
        text = f"{row['card']:>5} {row['tricks']:>12}"
        if result.bids is not None:
            text += f" {row['score']:>+11}"
        text += "".join(f" {'set' if row[f'nil_set_{seat}'] else 'safe':>6}" for seat in result.nil_set)
        lines.append(text)
    if result.bids is not None and result.score is not None:
        lines.append(f"best line for side {side_name(rules, side)} (bids "
                     f"{bids_text(result.bids, result.blind)}"
                     + (f", bags {'/'.join(map(str, result.bags))}" if result.bags else "")
                     + f"): score difference {result.score:+}")
        lines += line_text(rules, position, result.line)
    return "\n".join(lines)


__all__ = ["DealAnalysis", "DoubleDummyError", "LineTrick", "LogPosition", "PositionAnalysis",
           "analyse_deal", "analyse_position", "bids_text", "deal_text", "hand_bids",
           "line_text", "line_tricks", "log_position",
           "parse_hands", "plays_of", "position_of", "position_text", "side_name"]

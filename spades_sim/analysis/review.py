"""Double-dummy review of hand logs (``spades-sim review``): every card play that lost value.

Each hand of a log is replayed through the referee (the whole log is checked first, as
``spades-sim score`` checks it: :func:`spades_sim.referee.replay.logged_hands`) and, at
every card play, the position is handed to the double-dummy solver
(:class:`spades_sim.kernel.double_dummy.DoubleDummy`, one per hand, so that its tables
serve the hand's successive positions). With every card visible and best play from then
on, a play by a seat of side S *loses value* when one of these is true:

- **tricks**: the most tricks S can take in the hand falls: the value before the play
  (the best over the seat's legal cards) minus the value after the card played;
- **points**: the best *score difference* of S given the hand's bids (S's points for the
  hand minus the other sides' total, bags and a bag penalty crossing the limit included,
  scored as the kernel scores a hand) falls, measured the same way;
- **nil**: for a seat that bid nil (or blind nil) and has not yet taken a trick, a play by
  the nil's side (the nil or its partner) that turns "cannot be set" into "can be set",
  or a play by an opponent that turns "can be set" into "cannot be set".

A play that loses any of these is a *mistake*; it is listed with the trick, the seat,
the card played and a card that would have kept every value it lost (when one card keeps
them all; else one that keeps the points, then the tricks). Totals per seat and per
strategy (the log's ``strategies`` field, or names given, else ``unknown``): mistakes,
tricks lost and points lost per seat-hand, nils lost, and the share of plays that lost
value, each with its 95% interval, the hands of the log being the independent units
(:func:`spades_sim.intervals.positive_ratio_interval`, for the share of plays
:func:`spades_sim.intervals.rate_interval`; a strategy at two seats of one hand counts
that hand once).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..cards import card_rank, format_card
from ..intervals import positive_ratio_interval, rate_interval
from ..kernel.double_dummy import DoubleDummy, Position, PositionError, table_bits_for
from ..names import name_fault
from ..outputs import shown
from ..referee.hand import Hand, Phase
from ..referee.handlog import STRATEGY_NAME_MOST, CardPlay, parse_action
from ..referee.replay import LoggedHand, logged_hands
from ..rules import RuleSet
from .double_dummy import hand_bids, position_of

UNKNOWN = "unknown"
"""The strategy label of a seat whose strategy neither the log nor the caller names."""

KINDS = ("tricks", "points", "nil")
"""What a play can lose, in the order a mistake lists them."""


class ReviewError(ValueError):
    """A review that cannot be made: strategy names that do not fit the log's tables, or a
    position the solver refuses (the message names the line and the play)."""


@dataclass(frozen=True)
class Mistake:
    """One card play that lost double-dummy value."""

    line_number: int
    game: int | None
    hand: int
    trick: int
    """The trick's number in the hand, from 1."""
    seat: int
    strategy: str
    card: int
    """The card played."""
    better: int
    """A card that would have kept the value lost."""
    tricks_lost: int
    points_lost: int
    nils_lost: tuple[int, ...]
    """The nil bidders whose nil the play lost (for its side: made settable; for an opponent:
    let off)."""
    trick_so_far: tuple[tuple[int, int], ...]
    """(seat, card) of the cards already in the trick."""

    @property
    def kinds(self) -> str:
        """What the play lost: ``tricks``, ``points``, ``nil`` joined by ``+``."""
        lost = {"tricks": self.tricks_lost > 0, "points": self.points_lost > 0,
                "nil": bool(self.nils_lost)}
        return "+".join(kind for kind in KINDS if lost[kind])

    def row(self) -> dict[str, object]:
        """The mistake as a table row."""
        return {
            "line": self.line_number, "game": self.game, "hand": self.hand, "trick": self.trick,
            "seat": self.seat, "strategy": self.strategy, "played": format_card(self.card),
            "better": format_card(self.better), "lost": self.kinds,
            "tricks_lost": self.tricks_lost, "points_lost": self.points_lost,
            "nils_lost": " ".join(map(str, self.nils_lost)),
            "trick_so_far": "  ".join(f"{seat} {format_card(card)}"
                                      for seat, card in self.trick_so_far),
        }


MISTAKE_COLUMNS = ("line", "game", "hand", "trick", "seat", "strategy", "played", "better",
                   "lost", "tricks_lost", "points_lost", "nils_lost", "trick_so_far")


@dataclass(frozen=True)
class HandReview:
    """One hand's review: per seat its plays and what they lost."""

    line_number: int
    strategies: tuple[str, ...]
    plays: tuple[int, ...]
    mistakes: tuple[int, ...]
    tricks_lost: tuple[int, ...]
    points_lost: tuple[int, ...]
    nils_lost: tuple[int, ...]
    """Per seat: plays that lost a nil."""
    found: tuple[Mistake, ...]


METRICS = (
    ("mistakes", "mistakes per hand", "plays that lost value, per seat-hand"),
    ("tricks_lost", "tricks lost per hand", "double-dummy tricks lost, per seat-hand"),
    ("points_lost", "points lost per hand", "hand-score difference lost, per seat-hand"),
    ("nils_lost", "nils lost per hand", "plays that lost a nil, per seat-hand"),
    ("lost_share", "plays that lost value", "share of the plays that lost value"),
)
"""The totals' metrics: column, text label, meaning."""


@dataclass
class ReviewResult:
    """What :func:`review_file` found."""

    path: str
    hands: tuple[HandReview, ...]

    @property
    def mistakes(self) -> list[Mistake]:
        """Every mistake, in play order."""
        return [mistake for hand in self.hands for mistake in hand.found]

    @property
    def plays(self) -> int:
        return sum(sum(hand.plays) for hand in self.hands)

    def mistake_table(self) -> pd.DataFrame:
        """Every mistake as a row (:data:`MISTAKE_COLUMNS`)."""
        frame = pd.DataFrame([m.row() for m in self.mistakes], columns=list(MISTAKE_COLUMNS))
        frame["game"] = frame["game"].astype("Int64")
        return frame

    def totals(self) -> pd.DataFrame:
        """Per seat, then per strategy: ``group`` (seat or strategy), ``name``, ``hands`` (the
        hands with such a seat), ``seat_hands``, ``plays``, then per metric of
        :data:`METRICS` its ``value`` with ``_low`` and ``_high`` (95%, hands as the units)."""
        seats = max((len(hand.plays) for hand in self.hands), default=0)
        rows = []
        for seat in range(seats):
            label = {hand.strategies[seat] for hand in self.hands if seat < len(hand.strategies)}
            name = f"seat {seat}" + (f" ({label.pop()})" if len(label) == 1 else "")
            rows.append(self._row("seat", name, functools.partial(_seat_of, seat=seat)))
        names = list(dict.fromkeys(name for hand in self.hands for name in hand.strategies))
        for strategy in names:
            rows.append(self._row("strategy", strategy,
                                  functools.partial(_seats_playing, strategy=strategy)))
        return pd.DataFrame(rows)

    def _row(self, group: str, name: str,
             seats_of: Callable[[HandReview], list[int]]) -> dict[str, object]:
        chosen = [(hand, seats_of(hand)) for hand in self.hands]
        chosen = [(hand, seats) for hand, seats in chosen if seats]
        count = np.array([len(seats) for _, seats in chosen], np.float64)
        plays = np.array([sum(hand.plays[s] for s in seats) for hand, seats in chosen], np.float64)
        row: dict[str, object] = {"group": group, "name": name, "hands": len(chosen),
                                  "seat_hands": int(count.sum()), "plays": int(plays.sum())}
        for column, _, _ in METRICS:
            if column == "lost_share":
                y = np.array([sum(hand.mistakes[s] for s in seats) for hand, seats in chosen],
                             np.float64)
                x = plays
            else:
                y = np.array([sum(getattr(hand, column)[s] for s in seats)
                              for hand, seats in chosen], np.float64)
                x = count
            if column == "mistakes":
                row["total_mistakes"] = int(y.sum())
            # Counts per seat-hand are never negative and the lost share is a rate: their
            # intervals stay above 0 (and within [0, 1]) however few the mistakes.
            interval = rate_interval if column == "lost_share" else positive_ratio_interval
            value, low, high = interval(float(y.sum()), float(x.sum()), float((y * y).sum()),
                                        float((x * x).sum()), float((x * y).sum()), len(chosen))
            if len(chosen) == 1 and x.sum():  # one hand: the value, no interval
                value = float(y.sum() / x.sum())
            row.update({column: value, f"{column}_low": low, f"{column}_high": high})
        return row


def _seat_of(hand: HandReview, seat: int) -> list[int]:
    return [seat] if seat < len(hand.plays) else []


def _seats_playing(hand: HandReview, strategy: str) -> list[int]:
    return [seat for seat, name in enumerate(hand.strategies) if name == strategy]


def check_strategy_names(names: Sequence[str]) -> tuple[str, ...]:
    """``--strategies``: one label per seat, each a non-empty name without spaces round it."""
    for name in names:
        if name_fault(name, STRATEGY_NAME_MOST) is not None:
            raise ReviewError(f"strategies={shown(','.join(names))!r}: allowed one name per seat, "
                              f"comma-separated, each 1 to {STRATEGY_NAME_MOST} printable "
                              "characters")
    return tuple(names)


def review_file(path: str | Path, rules: RuleSet | None = None,
                strategies: Sequence[str] | None = None,
                on_hand: Callable[[int], None] | None = None) -> ReviewResult:
    """Review every hand of a hand log against double-dummy play.

    ``rules`` replaces each line's own; ``strategies`` (one name per seat) replaces each
    line's ``strategies`` field (default: the field, else :data:`UNKNOWN`). ``on_hand(1)`` is
    called after each hand (a progress bar).

    :raises LogError: the referee refuses the log.
    :raises ReviewError: ``strategies`` of the wrong length for a table of the log, or a
        position the solver refuses.
    """
    names = None if strategies is None else check_strategy_names(strategies)
    hands = logged_hands(path, rules)
    if names is not None:
        for logged in hands:
            if len(names) != logged.rules.seat_count:
                raise ReviewError(f"strategies={shown(','.join(names))!r}: allowed "
                                  f"{logged.rules.seat_count} names, one per seat (line "
                                  f"{logged.line_number} is a hand of {logged.rules.seat_count} "
                                  "seats)")
    reviews = []
    for logged in hands:
        seat_names = names or logged.log.strategies or (UNKNOWN,) * logged.rules.seat_count
        reviews.append(review_hand(logged, tuple(seat_names)))
        if on_hand is not None:
            on_hand(1)
    return ReviewResult(str(path), tuple(reviews))


class _Values:
    """The solver's values of one hand's positions, each solved once: tricks and score
    difference per side, nil settable per seat. With two sides what one side gains the other
    loses, so only side 0 is solved."""

    def __init__(self, rules: RuleSet, bids: tuple[int, ...], blind: tuple[int, ...],
                 bags: tuple[int, ...]) -> None:
        self.rules, self.bids, self.blind, self.bags = rules, bids, blind, bags
        self.solver = DoubleDummy(rules, table_bits=table_bits_for(bids))
        self._tricks: dict[tuple[object, ...], int] = {}
        self._scores: dict[tuple[object, ...], int] = {}
        self._nils: dict[tuple[object, ...], bool] = {}
        self.two_sides = rules.side_count == 2

    @staticmethod
    def key(position: Position, seats: int) -> tuple[object, ...]:
        return (position.hands, position.to_play, tuple(position.trick),
                tuple(position.taken) or (0,) * seats, position.broken)

    def tricks(self, position: Position, side: int) -> int:
        asked = 0 if self.two_sides else side
        key = (*self.key(position, self.rules.seat_count), asked)
        if key not in self._tricks:
            self._tricks[key] = self.solver.tricks(position, asked)
        value = self._tricks[key]
        return self.rules.hand_size - value if self.two_sides and side else value

    def score(self, position: Position, side: int) -> int:
        asked = 0 if self.two_sides else side
        key = (*self.key(position, self.rules.seat_count), asked)
        if key not in self._scores:
            self._scores[key] = self.solver.score_value(position, self.bids, blind=self.blind,
                                                        bags=self.bags, side=asked)
        value = self._scores[key]
        return -value if self.two_sides and side else value

    def score_at_least(self, position: Position, side: int, target: int) -> bool:
        """Whether :meth:`score` is at least ``target``: the solver's one yes/no search unless
        the value is known."""
        asked = 0 if self.two_sides else side
        key = (*self.key(position, self.rules.seat_count), asked)
        if key in self._scores:
            return self.score(position, side) >= target
        if self.two_sides and side:  # side 1's value is at least t when side 0's is below -t + 1
            return not self.solver.score_reaches(position, self.bids, 1 - target,
                                                 blind=self.blind, bags=self.bags, side=0)
        return self.solver.score_reaches(position, self.bids, target, blind=self.blind,
                                         bags=self.bags, side=asked)

    def score_after(self, position: Position, after: Position, side: int) -> int:
        """:meth:`score` of ``after``, a card of a seat of ``side`` played from ``position``:
        the card can only keep or lower its side's value, so one yes/no search at the value
        before settles it when it is kept (as most cards keep it)."""
        asked = 0 if self.two_sides else side
        key = (*self.key(after, self.rules.seat_count), asked)
        before = self.score(position, side)
        if key not in self._scores and self.score_at_least(after, side, before):
            self._scores[key] = -before if self.two_sides and side else before
        return self.score(after, side)

    def nil_set(self, position: Position, seat: int) -> bool:
        key = (*self.key(position, self.rules.seat_count), seat)
        if key not in self._nils:
            self._nils[key] = self.solver.nil_set(position, seat)
        return self._nils[key]


def review_hand(logged: LoggedHand, strategies: tuple[str, ...]) -> HandReview:
    """Review one checked hand of a log (see the module's definitions)."""
    rules = logged.rules
    seats = rules.seat_count
    hand = logged.start()
    plays, mistakes = [0] * seats, [0] * seats
    tricks_lost, points_lost, nils_lost = [0] * seats, [0] * seats, [0] * seats
    found: list[Mistake] = []
    values: _Values | None = None
    for text in logged.log.actions:
        action = parse_action(text)
        if not isinstance(action, CardPlay) or hand.phase != Phase.PLAY:
            hand.apply(action)
            continue
        if values is None:  # the bidding is over: the bids are known
            bids, blind = hand_bids(hand)
            values = _Values(rules, bids, blind, tuple(hand.bags_before))
        try:
            mistake = _judge(values, hand, action, logged, strategies)
        except PositionError as error:
            raise ReviewError(f"line {logged.line_number}: trick {hand.trick_number}, seat "
                              f"{action.seat_index} {format_card(action.card)}: the solver "
                              f"refuses the position: {error}") from None
        seat = action.seat_index
        plays[seat] += 1
        if mistake is not None:
            mistakes[seat] += 1
            tricks_lost[seat] += mistake.tricks_lost
            points_lost[seat] += mistake.points_lost
            nils_lost[seat] += bool(mistake.nils_lost)
            found.append(mistake)
        hand.apply(action)
    return HandReview(logged.line_number, strategies, tuple(plays), tuple(mistakes),
                      tuple(tricks_lost), tuple(points_lost), tuple(nils_lost), tuple(found))


def _judge(values: _Values, hand: Hand, action: CardPlay, logged: LoggedHand,
           strategies: tuple[str, ...]) -> Mistake | None:
    """The mistake of one play, or None when it lost no value."""
    rules = values.rules
    seat, card = action.seat_index, action.card
    side = rules.seat_side(seat)
    position = position_of(hand)
    after = position.play(card, rules)
    legal = position.legal(rules)
    if len(legal) == 1:
        return None  # a forced card loses nothing
    tricks_lost = values.tricks(position, side) - values.tricks(after, side)
    points_lost = values.score(position, side) - values.score_after(position, after, side)
    taken = hand.tricks_taken
    nils_lost = []
    for nil_seat, bid in enumerate(values.bids):
        if bid != 0 or taken[nil_seat]:
            continue
        before_set, after_set = values.nil_set(position, nil_seat), values.nil_set(after, nil_seat)
        own = rules.seat_side(nil_seat) == side
        if (own and not before_set and after_set) or (not own and before_set and not after_set):
            nils_lost.append(nil_seat)
    if tricks_lost <= 0 and points_lost <= 0 and not nils_lost:
        return None
    better = _better(values, position, legal, side, tricks_lost > 0, points_lost > 0, nils_lost)
    seats = rules.seat_count
    leader = (seat - len(position.trick)) % seats
    return Mistake(
        line_number=logged.line_number, game=logged.log.game, hand=logged.hand_index,
        trick=hand.trick_number, seat=seat, strategy=strategies[seat], card=card, better=better,
        tricks_lost=max(tricks_lost, 0), points_lost=max(points_lost, 0),
        nils_lost=tuple(nils_lost),
        trick_so_far=tuple(((leader + k) % seats, c) for k, c in enumerate(position.trick)))


def _better(values: _Values, position: Position, legal: Sequence[int], side: int,
            tricks: bool, points: bool, nils: Sequence[int]) -> int:
    """A legal card that keeps every value the play lost: among those, the lowest in rank; when
    no card keeps them all, the best for the points, then for the tricks."""
    rules = values.rules
    own_side = {nil: rules.seat_side(nil) == side for nil in nils}
    classes = position.equivalent_cards(rules)  # one card of each asked, for them all

    def cards_where(keeps: Callable[[Position], bool]) -> set[int]:
        return {card for cards in classes if keeps(position.play(cards[0], rules))
                for card in cards}

    keeps: list[tuple[str, set[int]]] = []
    if points:
        best = values.score(position, side)  # no card does better than the best
        keeps.append(("points", cards_where(lambda after: values.score_at_least(after, side,
                                                                                  best))))
    if tricks:
        most = values.tricks(position, side)
        keeps.append(("tricks", cards_where(lambda after: values.tricks(after, side) == most)))
    for nil in nils:
        wanted = not own_side[nil]  # the nil's side wants it safe; an opponent wants it settable
        keeps.append(("nil", cards_where(functools.partial(_nil_is, values, nil, wanted))))
    every = set(legal)
    for _, cards in keeps:
        every &= cards
    pool = every or keeps[0][1]
    return min(pool, key=lambda c: (card_rank(c) if card_rank(c) >= 0 else 13, c))


def _nil_is(values: _Values, nil: int, wanted: bool, position: Position) -> bool:
    return values.nil_set(position, nil) == wanted


def review_text(result: ReviewResult, list_count: int) -> str:
    """The totals of a review as text, then the first ``list_count`` mistakes."""
    from .formatting import interval_text, value_text

    totals = result.totals()
    mistakes = result.mistakes
    lines = [f"{len(result.hands):,} hands, {result.plays:,} card plays, {len(mistakes):,} lost "
             "double-dummy value"]
    width = max([len(str(name)) for name in totals["name"]] + [8]) if len(totals) else 8
    header = f"{'':<{width}} {'hands':>6}"
    for _, label, _ in METRICS:
        header += f"  {label:>31}"
    lines.append(header)
    for record in totals.to_dict("records"):
        row: dict[str, Any] = {str(key): value for key, value in record.items()}
        text = f"{row['name']:<{width}} {row['seat_hands']:>6,}"
        for column, _, _ in METRICS:
            unit = "rate" if column == "lost_share" else "points"
            value = value_text(float(row[column]), unit, 3 if unit == "points" else None)
            interval = interval_text(float(row[f"{column}_low"]), float(row[f"{column}_high"]), unit,
                                     3 if unit == "points" else None)
            text += f"  {value:>9} {interval:>21}"
        lines.append(text)
    lines.append("per seat-hand, 95% intervals with the hands as units; 'hands' counts seat-hands")
    listed = mistakes[:list_count]
    if listed:
        lines.append(f"first {len(listed):,} of {len(mistakes):,} plays that lost value:")
        lines.append(f"{'line':>5} {'game':>4} {'hand':>4} {'trick':>5} {'seat':>4}  "
                     f"{'strategy':<12} {'played':>6} {'better':>6}  {'lost':<18} trick so far")
        for mistake in listed:
            row = mistake.row()
            lost = "+".join(filter(None, (
                f"{mistake.tricks_lost} trick{'s' if mistake.tricks_lost != 1 else ''}"
                if mistake.tricks_lost else "",
                f"{mistake.points_lost} pts" if mistake.points_lost else "",
                "nil " + "/".join(map(str, mistake.nils_lost)) if mistake.nils_lost else "")))
            lines.append(f"{row['line']:>5} {row['game'] if row['game'] is not None else '-':>4} "
                         f"{row['hand']:>4} {row['trick']:>5} {row['seat']:>4}  "
                         f"{shown(str(row['strategy']), 12):<12} {row['played']:>6} "
                         f"{row['better']:>6}  {lost:<18} {row['trick_so_far'] or '(lead)'}")
    return "\n".join(lines)


__all__ = ["KINDS", "METRICS", "MISTAKE_COLUMNS", "UNKNOWN", "HandReview", "Mistake",
           "ReviewError", "ReviewResult", "check_strategy_names", "review_file", "review_hand",
           "review_text"]

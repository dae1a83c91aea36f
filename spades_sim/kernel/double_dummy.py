"""Double-dummy solving of Spades: every hand face up, every seat playing its best.

The plain-Python face of :mod:`spades_sim.kernel.dd_search`: a :class:`Position` (cards by card
id, as :mod:`spades_sim.cards` numbers them) with the kernel's own legality, and a
:class:`DoubleDummy` solver for one rule set that answers three questions from any position of
a hand: the most tricks a side takes against best defence (:meth:`DoubleDummy.tricks`),
whether a nil can be set (:meth:`DoubleDummy.nil_set`) and the best hand-score difference
given the bids, with a line of play that reaches it (:meth:`DoubleDummy.score`).
:func:`solve_deals` solves many fresh deals on every thread. docs/double-dummy.md says what
each answer means and how the search works.

>>> from spades_sim.cards import mask_of, parse_cards
>>> hands = [mask_of(parse_cards(text)) for text in ("AS 2H", "KS 3H", "QS 4H", "JS 5H")]
>>> solver = DoubleDummy("standard")
>>> start = Position(hands, to_play=0, taken=(3, 3, 3, 2))   # two tricks left
>>> solver.tricks(start, side=0), solver.tricks(start, side=1)
(7, 6)
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

import numpy as np

from ..cards import CARD_COUNT, CLUBS, cards_of, format_card, format_cards
from ..rules import RuleSet, resolve_rules
from . import drivers
from .dd_search import (
    CFG_CONTEXT,
    CFG_FIELDS,
    CFG_FIRST_LEAD,
    CFG_LEAD_ANY_TIME,
    CFG_LOWEST_CLUB,
    CFG_MAX_SEATS,
    CFG_MODE,
    CFG_SEATS,
    CFG_SIDE,
    CFG_SIDES,
    CFG_TARGET_SEATS,
    CFG_TRUMP,
    CFG_TRUMPS_BREAK,
    ENDS_WORDS,
    EXACT_WORDS,
    KEY_WORDS,
    MAX_DEPTH,
    MAX_MOVES,
    MODE_NIL,
    MODE_SCORE,
    MODE_TRICKS,
    PAT_WORDS,
    _hand_value,
    _reach_root,
    _score_values,
    _solve_many,
    _solve_score,
    _solve_tricks,
)
from .packing import pack_rules
from .play import LEAD_LOWEST_CLUB, LEAD_NO_TRUMP
from .scoring import BLIND_COUNT_FLAG, BLIND_NIL_FLAG

TABLE_BITS = 20
"""A solver's tables: 2**TABLE_BITS patterns (bounds for every position of a shape whose top
cards lie alike, 64 bytes each), a quarter as many exact trick starts (bounds and the lead that
cut, 32 bytes each), an eighth as many shapes and a sixteenth as many cutoff entries (16 bytes
each), and a 256th as many rows of score endings (296 bytes each): about 76 MB in all. The
tables read at random are kept small because a fresh solver pays for every page it touches and
a small table stays in the processor's caches: a quarter of the exact table, an eighth of the
shapes and a sixteenth of the cutoffs measured about 12% faster per fresh full-deal solve than
half as many shapes and cutoffs and a full-size exact table."""

LARGE_TABLE_BITS = 23
"""The tables for questions about a hand with a nil bid (:func:`table_bits_for`): eight times
the default, about 610 MB of address space, touched only as a search fills it. Score and nil
questions about such a hand search far more positions than a tricks question, and a long
search fills the default pattern pool (which then starts over) many times: reviewing twenty
self-play hands of ``expert`` with a nil bid took 746 s with the default tables, 291 s at 22
bits, 236 s at 23 and 221 s at 24 (the same answers; the slowest hand 474 s, 150, 107, 95)."""

SOLVE_CHUNK = 1
"""Deals a thread of :func:`solve_deals` takes at a time: one (a deal takes a tenth of a
second on average, and up to seconds), so that the threads share the slow deals."""

_NIL_CONTEXT = 8     # contexts: tricks of side s = s, nil of seat s = 8 + s, score questions 16 on
_SCORE_CONTEXT = 16
_MAX_CONTEXT = 1 << 18


def _table(rows: int, words: int) -> tuple[np.ndarray, np.ndarray]:
    """A zeroed table of ``rows`` rows of ``words`` 64-bit words, starting on a 64-byte boundary
    (a row is read in as few cache lines as it can be), and the same memory as 32-bit numbers."""
    raw = np.zeros(rows * words + 8, np.uint64)
    start = (-raw.ctypes.data % 64) // 8
    table = raw[start:start + rows * words].reshape(rows, words)
    return table, table.view(np.int32)


class SearchStopped(Exception):
    """A question cut off part-way by :meth:`DoubleDummy.stop`: its answer is dropped."""


class PositionError(ValueError):
    """A position, deal or question the solver cannot take: one line naming the field, the value
    and what is allowed."""


@dataclass(frozen=True)
class _Layout:
    """A rule set's cards as the solver sees them: the kernel's slots and tables."""

    rules: RuleSet
    seats: int
    sides: int
    hand_size: int
    card_slot: np.ndarray
    """Slot of each card id, -1 for cards not in the deck."""
    slot_card: np.ndarray
    slot_suit: np.ndarray
    suit_masks: np.ndarray
    suit_low: np.ndarray
    trump: int
    deck: int
    """Card-id mask of the deck."""
    first_lead_mode: int
    lead_any_time: bool
    trumps_break: bool
    lowest_club: int
    """Card id of the deck's lowest club."""
    cfg: np.ndarray
    """The search's ``cfg`` with the rule fields filled in."""
    scoring: np.ndarray
    """The rule set's scoring as the kernel packs it (``PackedRules.scoring``), which the score
    search reads."""
    side_of: tuple[int, ...]

    def side_seats(self, side: int) -> int:
        """Bit mask of the seats of ``side``."""
        return sum(1 << seat for seat in range(self.seats) if self.side_of[seat] == side)

    def slots(self, cards: int) -> int:
        """A card-id mask as a slot mask."""
        mask = 0
        while cards:
            low = cards & -cards
            mask |= 1 << int(self.card_slot[low.bit_length() - 1])
            cards ^= low
        return mask

    def beats(self, card: int, winner: int) -> bool:
        """Whether ``card`` beats the card now winning the trick."""
        slot, best = int(self.card_slot[card]), int(self.card_slot[winner])
        suit, best_suit = int(self.slot_suit[slot]), int(self.slot_suit[best])
        if suit == best_suit:
            return slot > best
        return suit == self.trump

    def suit(self, card: int) -> int:
        """The effective suit of a card (jokers and promoted deuces are trumps)."""
        return int(self.slot_suit[int(self.card_slot[card])])


@lru_cache(maxsize=64)
def _layout(rules: RuleSet) -> _Layout:
    packed = pack_rules(rules)
    card_slot = np.full(CARD_COUNT, -1, np.int64)
    deck = 0
    for slot, card in enumerate(packed.slot_card):
        if card >= 0:
            card_slot[card] = slot
            deck |= 1 << int(card)
    cfg = np.zeros(CFG_FIELDS, np.int64)
    cfg[CFG_SEATS] = packed.seat_count
    cfg[CFG_TRUMP] = packed.trump_suit
    cfg[CFG_FIRST_LEAD] = packed.first_lead_mode
    cfg[CFG_LEAD_ANY_TIME] = int(packed.lead_any_time)
    cfg[CFG_LOWEST_CLUB] = packed.suit_low[CLUBS]
    cfg[CFG_TRUMPS_BREAK] = int(packed.trumps_break)
    cfg[CFG_SIDES] = packed.side_count
    return _Layout(
        rules=rules, seats=packed.seat_count, sides=packed.side_count,
        hand_size=packed.hand_size, card_slot=card_slot, slot_card=packed.slot_card,
        slot_suit=packed.slot_suit, suit_masks=packed.suit_masks, suit_low=packed.suit_low,
        trump=packed.trump_suit, deck=deck, first_lead_mode=packed.first_lead_mode,
        lead_any_time=packed.lead_any_time, trumps_break=packed.trumps_break,
        lowest_club=int(packed.slot_card[packed.suit_low[CLUBS]]), cfg=cfg,
        scoring=packed.scoring,
        side_of=tuple(rules.seat_side(seat) for seat in range(packed.seat_count)))


def _rules_of(rules: RuleSet | str) -> RuleSet:
    try:
        return resolve_rules(rules)
    except ValueError as error:
        raise PositionError(str(error)) from None


def _count(mask: int) -> int:
    return int(mask).bit_count()


def _cards_text(mask: int) -> str:
    cards = cards_of(mask)
    text = format_cards(cards[:6])
    return text + (f" and {len(cards) - 6} more" if len(cards) > 6 else "")


@dataclass(frozen=True)
class Position:
    """A position of a hand: the cards each seat still holds (card-id bit masks), the seat to
    play, the cards of the trick in progress (in play order; its leader is ``to_play -
    len(trick)``), the tricks each seat has taken (``()``: none yet) and whether trumps are
    broken (a trump has been played on another suit's lead). It is the hand's first trick,
    with the rules' first-lead restrictions, while no trick has been taken."""

    hands: tuple[int, ...]
    to_play: int
    trick: tuple[int, ...] = ()
    taken: tuple[int, ...] = ()
    broken: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "hands", tuple(int(hand) for hand in self.hands))
        object.__setattr__(self, "trick", tuple(int(card) for card in self.trick))
        object.__setattr__(self, "taken", tuple(int(count) for count in self.taken))
        object.__setattr__(self, "to_play", int(self.to_play))
        object.__setattr__(self, "broken", bool(self.broken))

    @classmethod
    def deal(cls, hands: Iterable[int], leader: int) -> Position:
        """A fresh deal: ``hands`` (card-id masks, seat order), ``leader`` to lead trick 1."""
        return cls(tuple(hands), to_play=leader)

    @property
    def leader(self) -> int:
        """The seat that led (or leads) the trick in progress."""
        return (self.to_play - len(self.trick)) % len(self.hands)

    @property
    def first_trick(self) -> bool:
        return sum(self.taken) == 0

    def taken_tricks(self) -> tuple[int, ...]:
        """Tricks taken per seat (zeros when none is)."""
        return self.taken or (0,) * len(self.hands)

    def check(self, rules: RuleSet | str) -> None:
        """Raise :class:`PositionError` naming the first thing wrong with this position under
        ``rules``: the number of hands, a seat out of range, a card outside the deck or in two
        places, hand sizes that do not fit the trick, a seat that may not lead the first trick."""
        _check(self, _layout(_rules_of(rules)))

    def legal(self, rules: RuleSet | str) -> list[int]:
        """The cards the seat to play may play, ascending by card id."""
        layout = _layout(_rules_of(rules))
        _check(self, layout)
        return _legal_cards(self, layout)

    def equivalent_cards(self, rules: RuleSet | str) -> list[tuple[int, ...]]:
        """The legal cards in classes of equivalent ones, lowest first: cards of one suit of
        the seat's hand with no other hand's card, nor one of the trick, between them. Every
        double-dummy answer is the same after each card of a class (the solver tries one)."""
        layout = _layout(_rules_of(rules))
        _check(self, layout)
        held = 0
        for hand in self.hands:
            held |= hand
        for card in self.trick:
            held |= 1 << card
        others = layout.slots(held & ~self.hands[self.to_play])
        classes: list[list[int]] = []
        last = -1
        for slot, card in sorted((int(layout.card_slot[card]), card)
                                 for card in _legal_cards(self, layout)):
            between = (1 << slot) - (1 << (last + 1)) if last >= 0 else 0
            if (last >= 0 and layout.slot_suit[last] == layout.slot_suit[slot]
                    and not others & between):
                classes[-1].append(card)
            else:
                classes.append([card])
            last = slot
        return [tuple(cards) for cards in classes]

    def play(self, card: int, rules: RuleSet | str) -> Position:
        """The position after the seat to play plays ``card`` (a finished trick is won and the
        winner leads)."""
        layout = _layout(_rules_of(rules))
        _check(self, layout)
        legal = _legal_cards(self, layout)
        if card not in legal:
            raise PositionError(f"card={format_card(card) if 0 <= card < CARD_COUNT else card}: "
                                f"allowed a legal card of seat {self.to_play} "
                                f"({format_cards(legal)})")
        return _after(self, card, layout)


def _legal_cards(position: Position, layout: _Layout) -> list[int]:
    hand = position.hands[position.to_play]
    if position.trick:
        led = layout.suit(position.trick[0])
        same = [card for card in cards_of(hand) if layout.suit(card) == led]
        return same or list(cards_of(hand))
    cards = list(cards_of(hand))
    first = position.first_trick
    if first and layout.first_lead_mode == LEAD_LOWEST_CLUB and layout.lowest_club in cards:
        return [layout.lowest_club]
    free = position.broken or (layout.lead_any_time and not (
        first and layout.first_lead_mode == LEAD_NO_TRUMP))
    if free:
        return cards
    plain = [card for card in cards if layout.suit(card) != layout.trump]
    return plain or cards


def _winning_index(trick: Sequence[int], layout: _Layout) -> int:
    """The index in ``trick`` (cards in play order) of the card winning it so far."""
    best = 0
    for index in range(1, len(trick)):
        if layout.beats(trick[index], trick[best]):
            best = index
    return best


def _after(position: Position, card: int, layout: _Layout) -> Position:
    seats = layout.seats
    hands = list(position.hands)
    hands[position.to_play] &= ~(1 << card)
    trick = (*position.trick, card)
    broken = position.broken or (len(trick) > 1 and layout.trumps_break
                                 and layout.suit(card) == layout.trump
                                 and layout.suit(trick[0]) != layout.trump)
    if len(trick) < seats:
        return Position(tuple(hands), (position.to_play + 1) % seats, trick,
                        position.taken, broken)
    winner = (position.leader + _winning_index(trick, layout)) % seats
    taken = list(position.taken_tricks())
    taken[winner] += 1
    return Position(tuple(hands), winner, (), tuple(taken), broken)


def _check(position: Position, layout: _Layout) -> None:
    seats, name = layout.seats, layout.rules.name
    if len(position.hands) != seats:
        raise PositionError(f"hands: {len(position.hands)} given: allowed {seats}, one per seat")
    if not 0 <= position.to_play < seats:
        raise PositionError(f"to_play={position.to_play}: allowed 0 to {seats - 1}")
    if len(position.trick) >= seats:
        raise PositionError(f"trick: {len(position.trick)} cards: allowed 0 to {seats - 1}")
    if position.taken and (len(position.taken) != seats or min(position.taken) < 0):
        raise PositionError(f"taken={position.taken}: allowed () or {seats} counts of 0 or more")
    seen = 0
    for seat, hand in enumerate(position.hands):
        if hand < 0 or hand & ~layout.deck:
            raise PositionError(f"hands[{seat}]: {_cards_text(max(hand, 0) & ~layout.deck)} "
                                f"not in the deck of {name}")
        if hand & seen:
            raise PositionError(f"hands[{seat}]: {_cards_text(hand & seen)} also in another hand")
        seen |= hand
    for card in position.trick:
        if not 0 <= card < CARD_COUNT or not layout.deck >> card & 1:
            raise PositionError(f"trick: card {card} not in the deck of {name}")
        if seen >> card & 1:
            raise PositionError(f"trick: {format_card(card)} is also held or played twice")
        seen |= 1 << card
    sizes = [_count(hand) for hand in position.hands]
    played = {(position.leader + k) % seats for k in range(len(position.trick))}
    left = sizes[position.to_play]
    for seat in range(seats):
        wanted = left - 1 if seat in played else left
        if sizes[seat] != wanted:
            raise PositionError(f"hands[{seat}] holds {sizes[seat]} cards: allowed {wanted} "
                                f"(seat {position.to_play} to play holds {left}, and "
                                f"{len(position.trick)} of this trick played)")
    if left == 0:
        raise PositionError("hands: no card left to play: allowed a position before the "
                            "hand's end")
    if sum(position.taken) + left > layout.hand_size:
        raise PositionError(f"taken={position.taken}: {sum(position.taken)} tricks taken and "
                            f"{left} to play: allowed {layout.hand_size} in all")
    if position.first_trick and not position.trick:
        holder = _lead_holder(position, layout)
        if holder is not None and holder != position.to_play:
            raise PositionError(f"to_play={position.to_play}: allowed seat {holder} only, who "
                                f"holds {format_card(layout.lowest_club)} and must lead it to "
                                "the first trick")


@dataclass(frozen=True)
class ScoreLine:
    """A best score difference and a line of play (card ids, from the position to the hand's
    end) that reaches it against best defence."""

    value: int
    line: tuple[int, ...]


class DoubleDummy:
    """A double-dummy solver for one rule set (a RuleSet or a preset name).

    It keeps its transposition table between calls: its entries hold for every deal of the
    rules, so successive positions of one hand (and other deals) are solved faster. Not
    thread-safe: one solver per thread (:func:`solve_deals` does that for bulk work).
    """

    def __init__(self, rules: RuleSet | str, table_bits: int = TABLE_BITS) -> None:
        self.rules = _rules_of(rules)
        self._layout = _layout(self.rules)
        size = 1 << table_bits
        self._keys, self._info = _table(size // 4, EXACT_WORDS)
        self._shapes = np.zeros((size // 8, 2), np.uint64)
        self._pat_hands, self._pat_info = _table(size, PAT_WORDS)
        self._pat_info[0, 0] = 1
        self._cuts = np.zeros((size // 16, 2), np.uint64)
        self._ends = np.zeros((max(1, size >> 8), ENDS_WORDS), np.int64)
        self._moves = np.full((MAX_DEPTH, 2 * MAX_MOVES + 1), -1, np.int64)
        self._key_rows = np.zeros((MAX_DEPTH, KEY_WORDS), np.uint64)
        self._stop = np.zeros(1, np.int64)
        """The search's stop flag: set, the question being answered is cut off."""
        self._contexts: dict[tuple[object, ...], int] = {}
        self._last: dict[tuple[int, int], tuple[tuple[int, ...], int]] = {}
        """Per question (mode, context), the last answer and the holdings it was about."""

    def stop(self) -> None:
        """Cut off the question being answered, from another thread: the search returns within
        milliseconds, stores nothing it has not finished, and the question raises
        :class:`SearchStopped` (its answer dropped; the solver stays usable). A question
        asked on the main thread stops the same way on Ctrl-C and raises KeyboardInterrupt."""
        self._stop[0] = 1

    def _search(self, kernel, *args):
        """``kernel(*args)``, a search that polls this solver's stop flag (its last argument
        before the outputs), stopped on :meth:`stop` or Ctrl-C (:func:`drivers.run_stoppable`)."""
        try:
            result = drivers.run_stoppable(kernel, self._stop, *args)
        finally:
            cut = bool(self._stop[0])
            self._stop[0] = 0
        if cut:
            raise SearchStopped("the double-dummy search was stopped")
        return result

    # --- the three questions ------------------------------------------------------------------

    def tricks(self, position: Position, side: int) -> int:
        """The most tricks ``side`` takes in the whole hand (taken so far and to come) against
        best defence by every other seat."""
        layout = self._checked(position)
        seats = self._side(side)
        cfg = self._cfg(MODE_TRICKS, seats, seats, side)
        won = sum(count for seat, count in enumerate(position.taken_tricks())
                  if seats >> seat & 1)
        left = _count(position.hands[position.to_play])
        state = self._state(position, layout)
        question = (MODE_TRICKS, side)
        last = self._guess(position, question)
        value = int(self._search(_solve_tricks, *state, won, won + left,
                                 -1 if last is None else last, cfg, *self._tables(),
                                 *self._no_score()))
        self._answered(position, question, value)
        return value

    def nil_set(self, position: Position, seat: int) -> bool:
        """Whether the other sides can force ``seat`` to take a trick in the hand, its partner
        helping it (True at once when it has taken one)."""
        layout = self._checked(position)
        if not 0 <= seat < layout.seats:
            raise PositionError(f"seat={seat}: allowed 0 to {layout.seats - 1}")
        if position.taken_tricks()[seat] > 0:
            return True
        attackers = ((1 << layout.seats) - 1) & ~self._side(layout.side_of[seat])
        cfg = self._cfg(MODE_NIL, attackers, 1 << seat, _NIL_CONTEXT + seat)
        return bool(self._search(_reach_root, *self._state(position, layout), 1, cfg,
                                 *self._tables(), *self._no_score()))

    def score(self, position: Position, bids: Sequence[int], *, blind: Sequence[int] = (),
              bags: Sequence[int] = (), side: int = 0) -> ScoreLine:
        """The best hand-score difference of ``side`` (its points for the hand minus the other
        sides' total, bags and a penalty crossing the bag limit included, scored as the kernel
        scores a hand) with ``side`` maximising and every other seat minimising, and a line that
        reaches it. ``bids`` per seat (0: nil), ``blind`` per seat (True: blind nil), ``bags``
        per side carried into the hand (default none)."""
        layout = self._checked(position)
        question = self._score_question(position, bids, blind, bags, side)
        value = self._score_value(position, layout, question)
        return ScoreLine(value, tuple(self._score_line(position, layout, question, value)))

    def score_value(self, position: Position, bids: Sequence[int], *,
                    blind: Sequence[int] = (), bags: Sequence[int] = (), side: int = 0) -> int:
        """:meth:`score`'s value alone, without the line (finding a line asks the search again
        at every turn, so this is many times cheaper)."""
        layout = self._checked(position)
        return self._score_value(position, layout,
                                 self._score_question(position, bids, blind, bags, side))

    def score_reaches(self, position: Position, bids: Sequence[int], target: int, *,
                      blind: Sequence[int] = (), bags: Sequence[int] = (),
                      side: int = 0) -> bool:
        """Whether :meth:`score_value` is at least ``target``: one yes/no search where the value
        takes several, so checking a value already known (is it kept after a card?) is
        cheaper this way."""
        layout = self._checked(position)
        question = self._score_question(position, bids, blind, bags, side)
        by_tricks = self._score_by_tricks(position, layout, question,
                                          _count(position.hands[position.to_play]))
        if by_tricks is not None:
            return by_tricks >= target
        return self._reaches(position, question, target)

    # --- per legal card -----------------------------------------------------------------------

    def card_tricks(self, position: Position, side: int | None = None) -> dict[int, int]:
        """For each legal card of the seat to play: :meth:`tricks` of ``side`` (default the
        side of the seat to play) after it."""
        side = self._layout.side_of[position.to_play] if side is None else side
        return {card: self.tricks(position.play(card, self.rules), side)
                for card in position.legal(self.rules)}

    def card_nil_set(self, position: Position, seat: int) -> dict[int, bool]:
        """For each legal card of the seat to play: :meth:`nil_set` of ``seat`` after it."""
        return {card: self.nil_set(position.play(card, self.rules), seat)
                for card in position.legal(self.rules)}

    def card_scores(self, position: Position, bids: Sequence[int], *,
                    blind: Sequence[int] = (), bags: Sequence[int] = (),
                    side: int | None = None) -> dict[int, int]:
        """For each legal card of the seat to play: the :meth:`score` value of ``side``
        (default the side of the seat to play) after it."""
        side = self._layout.side_of[position.to_play] if side is None else side
        question = self._score_question(position, bids, blind, bags, side)
        values = {}
        for card in position.legal(self.rules):
            values[card] = self._score_value(position.play(card, self.rules), self._layout,
                                             question)
        return values

    def table(self, hands: Sequence[int]) -> np.ndarray:
        """For each seat leading a fresh deal of ``hands`` (card-id masks), the tricks of each
        side: int64 (seats, sides); a row of -1 for a seat the rules do not let lead the first
        trick (the holder of the lowest club must)."""
        layout = self._layout
        holder = _lead_holder(Position.deal(hands, 0), layout)
        self._checked(Position.deal(hands, 0 if holder is None else holder))
        out = np.full((layout.seats, layout.sides), -1, np.int64)
        for leader in range(layout.seats):
            if holder is not None and leader != holder:
                continue
            position = Position.deal(hands, leader)
            for side in range(layout.sides):
                if layout.sides == 2 and side == 1:  # what one side takes the other does not
                    out[leader, 1] = _count(position.hands[leader]) - out[leader, 0]
                else:
                    out[leader, side] = self.tricks(position, side)
        return out

    # --- the search's inputs ------------------------------------------------------------------

    def _checked(self, position: Position) -> _Layout:
        if not isinstance(position, Position):
            raise PositionError(f"position: allowed a Position, not {type(position).__name__}")
        _check(position, self._layout)
        return self._layout

    def _side(self, side: int) -> int:
        if not 0 <= side < self._layout.sides:
            raise PositionError(f"side={side}: allowed 0 to {self._layout.sides - 1}")
        return self._layout.side_seats(side)

    def _cfg(self, mode: int, max_seats: int, target_seats: int, context: int) -> np.ndarray:
        cfg = self._layout.cfg.copy()
        cfg[CFG_MODE] = mode
        cfg[CFG_MAX_SEATS] = max_seats
        cfg[CFG_TARGET_SEATS] = target_seats
        cfg[CFG_CONTEXT] = context
        return cfg

    def _tables(self) -> tuple[np.ndarray, ...]:
        layout = self._layout
        return (layout.suit_masks, layout.suit_low, layout.slot_suit, self._keys, self._info,
                self._shapes, self._pat_hands, self._pat_info, self._cuts, self._ends)

    def _no_score(self) -> tuple[np.ndarray, ...]:
        seats = self._layout.seats
        return (np.zeros(seats, np.int64), np.zeros(seats, np.int64),
                np.zeros(self._layout.sides, np.int64), self._layout.scoring, self._moves,
                self._key_rows, self._stop)

    def _state(self, position: Position, layout: _Layout) -> tuple[object, ...]:
        """The search's state arguments, ``hands`` to ``trick_mask``."""
        hands = np.array([layout.slots(hand) for hand in position.hands], np.uint64)
        taken = np.array(position.taken_tricks(), np.int64)
        led = win_slot = win_seat = win_suit = -1
        trick_mask = 0
        for card in position.trick:
            trick_mask |= 1 << int(layout.card_slot[card])
        if position.trick:
            led = layout.suit(position.trick[0])
            best = _winning_index(position.trick, layout)
            win_slot = int(layout.card_slot[position.trick[best]])
            win_seat = (position.leader + best) % layout.seats
            win_suit = int(layout.slot_suit[win_slot])
        return (hands, taken, len(position.trick), position.leader, led, win_slot, win_seat,
                win_suit, position.broken, position.first_trick, np.uint64(trick_mask))

    def _score_question(self, position: Position, bids: Sequence[int], blind: Sequence[int],
                        bags: Sequence[int], side: int) -> tuple[np.ndarray, ...]:
        """(cfg, bids, blind, bags, scoring) of a score question, checked."""
        layout = self._layout
        seats, sides = layout.seats, layout.sides
        bid_list = [int(bid) for bid in bids]
        if len(bid_list) != seats or not all(0 <= bid <= layout.hand_size for bid in bid_list):
            raise PositionError(f"bids={tuple(bids)}: allowed {seats} bids of 0 (nil) to "
                                f"{layout.hand_size}, one per seat")
        # A flag per seat: True (1) a blind nil, 2 a number of tricks bid blind (the contract's
        # points multiplied, docs/scoring.md "Blind bids"), as the kernel's blind flags.
        blind_list = [int(flag) for flag in blind] if blind else [0] * seats
        if len(blind_list) != seats or any(
                flag not in (0, BLIND_NIL_FLAG, BLIND_COUNT_FLAG)
                or (flag == BLIND_NIL_FLAG) != (flag != 0 and bid_list[seat] == 0)
                for seat, flag in enumerate(blind_list)):
            raise PositionError(f"blind={tuple(blind)}: allowed {seats} flags, one per seat, "
                                "True only where the bid is 0 (a blind nil), 2 only where it "
                                "is not (a blind bid)")
        bag_list = [int(bag) for bag in bags] if bags else [0] * sides
        if len(bag_list) != sides or min(bag_list) < 0:
            raise PositionError(f"bags={tuple(bags)}: allowed {sides} counts of 0 or more, one "
                                "per side")
        self._side(side)
        key = (tuple(bid_list), tuple(blind_list), tuple(bag_list), side)
        context = self._contexts.setdefault(key, _SCORE_CONTEXT + len(self._contexts))
        if context >= _MAX_CONTEXT:  # a long-lived solver asked very many questions: start over
            self._contexts.clear()
            self._last.clear()
            self._keys[:] = 0  # every stored answer: the question numbers are reused
            self._shapes[:] = 0
            self._pat_info[0, 0] = 1
            self._ends[:] = 0
            context = self._contexts.setdefault(key, _SCORE_CONTEXT)
        cfg = self._cfg(MODE_SCORE, layout.side_seats(side), 0, context)
        cfg[CFG_SIDE] = side
        return (cfg, np.array(bid_list, np.int64), np.array(blind_list, np.int64),
                np.array(bag_list, np.int64), layout.scoring)

    def _score_value(self, position: Position, layout: _Layout,
                     question: tuple[np.ndarray, ...]) -> int:
        cfg, bids, blind, bags, scoring = question
        left = _count(position.hands[position.to_play])
        by_tricks = self._score_by_tricks(position, layout, question, left)
        if by_tricks is not None:
            return by_tricks
        state = self._state(position, layout)
        taken = state[1]
        values = np.zeros(_endings(layout.seats, left), np.int64)
        count = _score_values(taken, left, bids, blind, bags, scoring, int(cfg[CFG_SIDES]),
                              int(cfg[CFG_SIDE]), values)
        known = (MODE_SCORE, int(cfg[CFG_CONTEXT]))
        guess = self._guess(position, known)
        start = -1  # the index of the largest possible value not above the guess
        if guess is not None:
            start = max(0, int(np.searchsorted(values[:count], guess, side="right")) - 1)
        value = int(self._search(_solve_score, *state, values, count, start, cfg,
                                 *self._tables(), bids, blind, bags, scoring, self._moves,
                                 self._key_rows, self._stop))
        self._answered(position, known, value)
        return value

    def _guess(self, position: Position, question: tuple[int, int]) -> int | None:
        """The last answer to the same question about a position of the same hand, the best
        guess the drivers can start from when successive positions of a hand are solved, as a
        review does; None for none."""
        last = self._last.get(question)
        if last is not None and _same_hand(_holdings(position), last[0]):
            return last[1]
        return None

    def _answered(self, position: Position, question: tuple[int, int], value: int) -> None:
        self._last[question] = (_holdings(position), value)

    def _score_by_tricks(self, position: Position, layout: _Layout,
                         question: tuple[np.ndarray, ...], left: int) -> int | None:
        """The score value from a tricks solve, where that is exact: two sides and no nil bid
        (so the value depends on the sides' trick totals alone) and a value that never falls
        as the asked side takes more of the tricks left (no bag penalty within reach; then
        the best score line is the most tricks). None otherwise."""
        cfg, bids, blind, bags, scoring = question
        if layout.sides != 2 or not bids.all():
            return None
        side = int(cfg[CFG_SIDE])
        own, other = (layout.side_of.index(s) for s in (side, 1 - side))
        taken = position.taken_tricks()
        won = sum(count for seat, count in enumerate(taken) if layout.side_of[seat] == side)
        lost = sum(taken) - won
        values = []
        for more in range(left + 1):
            ending = np.zeros(layout.seats, np.int64)
            ending[own], ending[other] = won + more, lost + left - more
            values.append(int(_hand_value(ending, bids, blind, bags, scoring, layout.sides, side)))
        if any(later < earlier for earlier, later in pairwise(values)):
            return None
        return values[self.tricks(position, side) - won]

    def _reaches(self, position: Position, question: tuple[np.ndarray, ...], target: int) -> bool:
        cfg, bids, blind, bags, scoring = question
        return bool(self._search(_reach_root, *self._state(position, self._layout), target,
                                 cfg, *self._tables(), bids, blind, bags, scoring, self._moves,
                                 self._key_rows, self._stop))

    def _score_line(self, position: Position, layout: _Layout,
                    question: tuple[np.ndarray, ...], value: int) -> list[int]:
        """A line from ``position`` that keeps ``value``: at each turn a card after which the
        value is unchanged."""
        side = int(question[0][CFG_SIDE])
        line: list[int] = []
        while any(position.hands):
            maximising = layout.side_of[position.to_play] == side
            for card in _legal_cards(position, layout):
                after = _after(position, card, layout)
                keeps = (self._reaches(after, question, value) if maximising
                         else not self._reaches(after, question, value + 1))
                if keeps:
                    break
            else:  # pragma: no cover - the value is exact, so some card keeps it
                raise AssertionError("no card keeps the solved value")
            line.append(card)
            position = after
        return line


def table_bits_for(bids: Sequence[int] | None) -> int:
    """The table size (``DoubleDummy``'s ``table_bits``) for the questions about a hand with
    ``bids`` (None: no bids asked about): :data:`LARGE_TABLE_BITS` when a seat bid nil, else
    :data:`TABLE_BITS`."""
    return LARGE_TABLE_BITS if bids is not None and 0 in bids else TABLE_BITS


def _holdings(position: Position) -> tuple[int, ...]:
    """Each seat's cards at the start of a position's trick (its hand and its card in the
    trick)."""
    held = list(position.hands)
    seats = len(held)
    for k, card in enumerate(position.trick):
        held[(position.leader + k) % seats] |= 1 << card
    return tuple(held)


def _same_hand(one: tuple[int, ...], other: tuple[int, ...]) -> bool:
    """Whether two positions' holdings (:func:`_holdings`) can be of one hand: every seat's
    cards in one are among its cards in the other."""
    return (all(a & ~b == 0 for a, b in zip(one, other, strict=True))
            or all(b & ~a == 0 for a, b in zip(one, other, strict=True)))


def _lead_holder(position: Position, layout: _Layout) -> int | None:
    """The seat that must lead the first trick (it holds the lowest club, under the rule that
    it leads), or None when any seat may."""
    if layout.first_lead_mode != LEAD_LOWEST_CLUB:
        return None
    club = layout.lowest_club
    return next((seat for seat, hand in enumerate(position.hands) if int(hand) >> club & 1),
                None)


def _endings(seats: int, left: int) -> int:
    """How many ways ``left`` tricks can fall among ``seats`` seats (a bound on distinct
    score values)."""
    count = 1
    for k in range(1, seats):
        count = count * (left + k) // k
    return count


def solve_deals(rules: RuleSet | str, hands: np.ndarray | Sequence[Sequence[int]],
                leaders: np.ndarray | Sequence[int], sides: np.ndarray | Sequence[int] | int, *,
                threads: int | None = None) -> np.ndarray:
    """Double-dummy tricks of many fresh deals on ``threads`` threads (default: every core).

    ``hands``: (m, seats) card-id masks; ``leaders``: (m,) the seat leading trick 1;
    ``sides``: (m,) or one side. Returns int64 (m,): ``tricks(Position.deal(hands[i],
    leaders[i]), sides[i])``. The answers do not depend on the number of threads. Ctrl-C raises
    KeyboardInterrupt within milliseconds: the deals being solved are cut off, their answers
    dropped.
    """
    rules = _rules_of(rules)
    layout = _layout(rules)
    masks = [[int(hand) for hand in row]
             for row in (hands.tolist() if isinstance(hands, np.ndarray) else hands)]
    m = len(masks)
    leader_array = np.asarray(leaders, np.int64).reshape(-1)
    side_array = np.broadcast_to(np.asarray(sides, np.int64), (m,)).copy() if np.ndim(
        sides) == 0 else np.asarray(sides, np.int64).reshape(-1)
    if len(leader_array) != m or len(side_array) != m:
        raise PositionError(f"leaders/sides: {len(leader_array)} and {len(side_array)} given: "
                            f"allowed {m}, one per deal")
    deals = np.zeros((m, layout.seats), np.uint64)
    for i, row in enumerate(masks):
        position = Position.deal(row, int(leader_array[i]))
        try:
            _check(position, layout)
            if not 0 <= side_array[i] < layout.sides:
                raise PositionError(f"side={side_array[i]}: allowed 0 to {layout.sides - 1}")
        except PositionError as error:
            raise PositionError(f"deal {i}: {error}") from None
        deals[i] = [layout.slots(hand) for hand in row]
    threads = max(1, min(threads or os.cpu_count() or 1, m or 1))
    out = np.zeros(m, np.int64)
    partner_side = np.array(layout.side_of, np.int64)
    solvers = threading.local()  # one solver (its tables) per thread
    stop = np.zeros(1, np.int64)  # the call's stop flag, read by every thread's search

    def arguments(lo: int, hi: int, result: np.ndarray) -> tuple:
        solver = getattr(solvers, "solver", None)
        if solver is None:
            solver = solvers.solver = DoubleDummy(rules)
        return (deals[lo:hi], leader_array[lo:hi].copy(), side_array[lo:hi].copy(),
                layout.cfg.copy(), partner_side, layout.suit_masks, layout.suit_low,
                layout.slot_suit, *solver._tables()[3:], *solver._no_score()[:4],
                solver._moves, solver._key_rows, stop, result)

    def solve(lo: int, hi: int) -> None:
        result = np.zeros(hi - lo, np.int64)
        _solve_many(*arguments(lo, hi, result))
        out[lo:hi] = result

    # Compiled, or loaded from the cache, before Ctrl-C is held; then small chunks taken in
    # turn, not one equal share a thread (deals differ in cost by a thousand times, so equal
    # shares leave a thread idle while another has the slow ones), Ctrl-C taken between them.
    drivers.load_kernel(_solve_many, *arguments(0, 0, np.zeros(0, np.int64)))
    with drivers.interrupts_held(lambda: stop.fill(1)) as check:
        # A deal can take seconds: Ctrl-C sets the stop flag, the deals in flight are cut off
        # within milliseconds on their threads (their answers dropped), no more start, and
        # the caller goes on at once. Even one thread runs apart from this one, which takes
        # the Ctrl-C.
        drivers.run_chunks(m, SOLVE_CHUNK, solve, check, workers=threads, finish_running=False)
    return out


__all__ = ["DoubleDummy", "Position", "PositionError", "ScoreLine", "SearchStopped",
           "solve_deals"]

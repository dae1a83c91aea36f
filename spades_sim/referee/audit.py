"""A technique audit of hand logs: five card-play errors, found by replaying every hand.

:func:`audit_file` replays each hand of a hand log (``docs/hand-log.md``) through the
referee, exactly as ``spades-sim score`` does (an illegal or broken log is refused with
the referee's one-line :class:`~spades_sim.referee.handlog.LogError`), and at every card play
rebuilds what the playing seat knew (:class:`PlayView`): its hand before the play, its
legal cards, the trick so far and who is winning it under the deck's trick power
(jokers and promoted deuces are trumps: :func:`~spades_sim.referee.deck_of`), every
seat's bid, the tricks each seat has taken, the cards already played and which seats
have shown out of which suit.

Terms. *Outstanding* cards, for a seat, are the cards of the deck in play that are
neither in its hand nor already played (two-player: nor among its own discards). A
*live nil* is a seat that bid nil or blind nil and has taken no trick yet. A side's
contract *still needs tricks* when the sum of its count bids exceeds the tricks its
count bidders have taken so far (in the individual modes a seat is its own side).
*Beats* is the trick power of the referee: a trump beats any plain card, a card of the
led suit beats any card of another plain suit, and within a suit the higher rank wins.

The five patterns (one instance is one card play):

``third-hand-low``
    Partnership. The seat's partner led the trick and the seat plays third (an
    opponent plays after it); the card winning belongs to the opponent who played
    second; the seat holds a legal card of the led suit that beats it and that no
    outstanding card of the led suit ranks above (the boss); the seat's side still
    needs tricks; the seat did not bid nil and no seat at the table is a live nil; the
    opponent still to play has not shown out of the led suit earlier in the hand while
    trumps are outstanding (if it has, keeping the boss can be sound); and the seat
    plays a card that does not beat the winner. Sound: the (lowest) boss.
``ruff-partner-winner``
    Partnership. The led suit is not trump; the seat has no card of the led suit and
    holds a non-trump card; the partner, who did not bid nil, is winning the trick
    with a sure winner (the seat plays last, or no outstanding card of the led suit
    ranks above the partner's card and no trump is outstanding); and the seat plays a
    trump. Sound: a side card (the lowest non-trump).
``wasted-trump``
    Any table mode. The led suit is not trump; the seat has no card of the led suit and
    holds a non-trump card; the card winning is a trump that ranks above the trump the
    seat plays; the seat is not a live nil; its side still needs tricks; and it plays
    that trump. Sound: a side card (the lowest non-trump).
``nil-took-duckable``
    Any table mode. The seat is a live nil and did not lead the trick; at its turn it
    held a legal card that did not beat the card then winning; and it wins the trick.
    Sound: the ducking card (the highest legal card that does not beat the winner).
``nil-not-covered``
    Partnership. The partner is a live nil, has already played in this trick and is
    winning it when the seat plays; the seat holds a legal card that beats the
    partner's card; it plays a card that does not; and the partner wins the trick.
    Sound: the covering card (the lowest legal card that beats the partner's).

The share of a pattern is the share of the hands audited in which at least one audited
seat made that error, with its Wilson 95% interval.

This module is plain Python: it needs the referee and the log reader, not the kernel.
"""

from __future__ import annotations

import csv
import dataclasses
import functools
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from spades_sim import cards
from spades_sim.intervals import wilson_interval
from spades_sim.outputs import atomic_path, check_file, csv_cell, shown
from spades_sim.referee.deck import TRUMP_SUIT, DeckSpec
from spades_sim.referee.hand import Hand, Phase
from spades_sim.referee.handlog import (
    Action,
    CardPlay,
    HandLog,
    LogError,
    log_rules,
    parse_action,
    read_log,
)
from spades_sim.referee.replay import ScoredHand, score_file
from spades_sim.referee.scoring import BidValue, is_nil, partner_of, trick_winner_index
from spades_sim.rules import MAX_SEATS, RuleSet

THIRD_HAND_LOW = "third-hand-low"
RUFF_PARTNER_WINNER = "ruff-partner-winner"
WASTED_TRUMP = "wasted-trump"
NIL_TOOK_DUCKABLE = "nil-took-duckable"
NIL_NOT_COVERED = "nil-not-covered"

PATTERNS = (THIRD_HAND_LOW, RUFF_PARTNER_WINNER, WASTED_TRUMP, NIL_TOOK_DUCKABLE, NIL_NOT_COVERED)
"""The five technique errors, in the order the audit reports them."""

ANY = "any"
"""The summary row of hands with at least one instance of any pattern."""

CSV_FIELDS = ("line", "game", "hand", "trick", "seat", "pattern", "played", "sound", "trick_so_far")
"""The columns of :func:`write_instances_csv`, one row per instance."""


class AuditError(ValueError):
    """Bad audit input (a seat outside the table, an output path that is not .csv).

    The message is one line, ``field=value: allowed ...``, as the CLI prints it.

    Examples
    --------
    >>> str(AuditError("seat=7: allowed 0-3"))
    'seat=7: allowed 0-3'
    """


MAX_LISTED = 100_000
"""The most lines a listing prints (audit's instances, review's mistakes): every size a user
types has an upper bound."""


def check_list_count(count: int) -> None:
    """Refuse a ``--list`` count below 0 or above :data:`MAX_LISTED`."""
    if not 0 <= count <= MAX_LISTED:
        raise AuditError(f"list={count}: allowed a whole number 0 to {MAX_LISTED:,}")


# --- what the seat to play knew --------------------------------------------------------------


@dataclass(frozen=True)
class PlayView:
    """What the seat to play knew at one card play, rebuilt from the referee's replay.

    :func:`audit_hand` builds one for every audited play after the lead (every pattern
    concerns a trick in progress). The fields are what the seat saw; the properties and
    methods derive the rest (the winner so far, the outstanding cards, live nils, ...).

    Examples
    --------
    >>> from spades_sim.referee import deck_of
    >>> rules = RuleSet()
    >>> view = PlayView(rules, deck_of(rules), 1, 2, cards.parse_cards("AH 4H 2C"),
    ...                 cards.parse_cards("AH 4H"), cards.parse_cards("5H KH"), (0, 1),
    ...                 (3, 3, 3, 3), (0, 0, 0, 0), frozenset(cards.parse_cards("5H KH")),
    ...                 (frozenset(),) * 4)
    >>> view.position, view.led_suit, cards.format_card(view.winning_card), view.winning_seat
    (2, 2, 'KH', 1)
    >>> view.beats(cards.parse_card("AH"), view.winning_card), len(view.outstanding)
    (True, 47)
    """

    rules: RuleSet
    """The rules played."""
    deck: DeckSpec
    """The deck in play: its cards and its trumps."""
    trick_number: int
    """The trick in progress, from 1."""
    seat: int
    """The seat to play."""
    holding: tuple[int, ...]
    """The seat's cards before the play."""
    legal: tuple[int, ...]
    """The cards it may play (the referee's ``legal_plays``)."""
    trick_cards: tuple[int, ...]
    """The cards of the trick so far, from its leader."""
    trick_seats: tuple[int, ...]
    """The seats that played them, in the same order."""
    bids: tuple[BidValue, ...]
    """Every seat's bid: tricks, 0 for nil, ``"bn"`` for blind nil."""
    tricks_taken: tuple[int, ...]
    """Tricks each seat has taken so far."""
    played: frozenset[int]
    """Every card played earlier in the hand (earlier tricks and this one)."""
    shown_out: tuple[frozenset[int], ...]
    """Per seat, the suits it has shown out of earlier in the hand (by not following)."""
    own_discards: frozenset[int] = frozenset()
    """Two-player: the cards the seat itself discarded in the draw (empty elsewhere)."""

    @property
    def position(self) -> int:
        """The seat's place in the trick: 0 leads, 1 plays second, ..."""
        return len(self.trick_cards)

    @property
    def led_suit(self) -> int | None:
        """The suit led (trumps count as spades), or None when the seat leads."""
        return self.deck.suit_of(self.trick_cards[0]) if self.trick_cards else None

    @property
    def partner(self) -> int | None:
        """The seat's partner; None in the individual modes."""
        return partner_of(self.rules, self.seat)

    @functools.cached_property
    def winning_position(self) -> int | None:
        """The position of the card winning the trick so far (the referee's
        :func:`~spades_sim.referee.trick_winner_index`), or None when the seat leads."""
        return trick_winner_index(self.trick_cards, self.rules) if self.trick_cards else None

    @property
    def winning_card(self) -> int | None:
        """The card winning the trick so far, or None when the seat leads."""
        position = self.winning_position
        return None if position is None else self.trick_cards[position]

    @property
    def winning_seat(self) -> int | None:
        """The seat winning the trick so far, or None when the seat leads."""
        position = self.winning_position
        return None if position is None else self.trick_seats[position]

    @functools.cached_property
    def outstanding(self) -> frozenset[int]:
        """Cards of the deck the seat cannot see: not in its hand, not played, not its own discards."""
        return self.deck.cards - set(self.holding) - self.played - self.own_discards

    def power(self, card: int) -> tuple[bool, bool, int]:
        """Return a card's strength in this trick, as the referee ranks it.

        Parameters
        ----------
        card : int
            A card id.

        Returns
        -------
        tuple of (bool, bool, int)
            Whether it is a trump, whether it is of the led suit, its rank in its suit
            (the deck's trump order for trumps); a higher tuple wins.
        """
        suit = self.deck.suit_of(card)
        return suit == TRUMP_SUIT, suit == self.led_suit, self.deck.rank_of(card)

    def beats(self, card: int, other: int) -> bool:
        """Return whether ``card`` would win over ``other`` in this trick.

        Parameters
        ----------
        card, other : int
            Card ids.

        Returns
        -------
        bool
        """
        return self.power(card) > self.power(other)

    def live_nil(self, seat: int) -> bool:
        """Return whether a seat is a live nil: it bid nil or blind nil and has taken no trick yet.

        Parameters
        ----------
        seat : int
            Any seat of the table.

        Returns
        -------
        bool
        """
        return is_nil(self.bids[seat], self.rules) and self.tricks_taken[seat] == 0

    def side_needs_tricks(self, seat: int) -> bool:
        """Return whether a seat's side still needs tricks.

        Parameters
        ----------
        seat : int
            Any seat of the table; in the individual modes it is its own side.

        Returns
        -------
        bool
            Whether the sum of the side's count bids exceeds the tricks its count bidders
            have taken so far (never for a side of nil bidders only).
        """
        side = self.rules.seat_side(seat)
        bidders = [
            other for other in range(len(self.bids))
            if self.rules.seat_side(other) == side and not is_nil(self.bids[other], self.rules)
        ]  # fmt: skip
        return sum(int(self.bids[other]) for other in bidders) > sum(self.tricks_taken[o] for o in bidders)

    def outstanding_trumps(self) -> bool:
        """Whether any trump is outstanding for the seat."""
        return any(self.deck.is_trump(card) for card in self.outstanding)

    def void_in_led_suit(self) -> bool:
        """Whether the seat holds no card of the led suit (False when it leads)."""
        led = self.led_suit
        return led is not None and all(self.deck.suit_of(card) != led for card in self.holding)

    def side_cards(self) -> list[int]:
        """The seat's non-trump cards, lowest rank first."""
        plain = [card for card in self.holding if not self.deck.is_trump(card)]
        return sorted(plain, key=lambda card: (self.deck.rank_of(card), card))


# --- the five patterns -----------------------------------------------------------------------

Check = Callable[[PlayView, int, int], int | None]
"""A pattern: ``check(view, card, trick_winner)``, given what the seat knew, the card it played
and the seat that won the trick, returns a sound card when the play is an instance, else None."""


def third_hand_low(view: PlayView, card: int, trick_winner: int) -> int | None:
    """``third-hand-low``: third hand holds the boss over second hand's winner and plays low.

    Returns the lowest boss the seat held when the play is an instance, else None.
    """
    rules, seat = view.rules, view.seat
    if not rules.partnership or view.position != 2 or view.trick_seats[0] != view.partner:
        return None
    winner = view.winning_card
    if view.winning_position != 1 or winner is None or view.beats(card, winner):
        return None
    if is_nil(view.bids[seat], rules) or any(view.live_nil(other) for other in range(rules.seat_count)):
        return None
    if not view.side_needs_tricks(seat):
        return None
    led = view.led_suit
    outstanding_led = [other for other in view.outstanding if view.deck.suit_of(other) == led]
    bosses = [
        held for held in view.legal
        if view.deck.suit_of(held) == led and view.beats(held, winner)
        and not any(view.deck.rank_of(other) > view.deck.rank_of(held) for other in outstanding_led)
    ]  # fmt: skip
    if not bosses:
        return None
    fourth = (seat + 1) % rules.seat_count
    if led in view.shown_out[fourth] and view.outstanding_trumps():
        return None
    return min(bosses, key=view.deck.rank_of)


def ruff_partner_winner(view: PlayView, card: int, trick_winner: int) -> int | None:
    """``ruff-partner-winner``: a trump on the partner's sure winner while holding a side card.

    Returns the lowest side card (non-trump) the seat held when the play is an instance, else None.
    """
    rules = view.rules
    if not rules.partnership or view.led_suit in (None, TRUMP_SUIT) or not view.deck.is_trump(card):
        return None
    side_cards = view.side_cards()
    partner = view.partner
    if not view.void_in_led_suit() or not side_cards or partner is None:
        return None
    winner = view.winning_card
    if view.winning_seat != partner or is_nil(view.bids[partner], rules) or winner is None:
        return None
    last = view.position == rules.seat_count - 1
    led = view.led_suit
    sure = last or not any(
        view.deck.is_trump(other) or (view.deck.suit_of(other) == led and view.beats(other, winner))
        for other in view.outstanding
    )
    return side_cards[0] if sure else None


def wasted_trump(view: PlayView, card: int, trick_winner: int) -> int | None:
    """``wasted-trump``: a trump below the trump already winning, while holding a side card.

    Returns the lowest side card (non-trump) the seat held when the play is an instance, else None.
    """
    deck, seat = view.deck, view.seat
    if view.led_suit in (None, TRUMP_SUIT) or not deck.is_trump(card):
        return None
    side_cards = view.side_cards()
    if not view.void_in_led_suit() or not side_cards:
        return None
    winner = view.winning_card
    if winner is None or not deck.is_trump(winner) or deck.rank_of(winner) <= deck.rank_of(card):
        return None
    if view.live_nil(seat) or not view.side_needs_tricks(seat):
        return None
    return side_cards[0]


def nil_took_duckable(view: PlayView, card: int, trick_winner: int) -> int | None:
    """``nil-took-duckable``: a live nil, not on lead, wins a trick it could have ducked.

    Returns the highest legal card that did not beat the card then winning when the play is an
    instance, else None.
    """
    seat, winner = view.seat, view.winning_card
    if winner is None or trick_winner != seat or not view.live_nil(seat):
        return None
    ducks = [held for held in view.legal if not view.beats(held, winner)]
    return max(ducks, key=view.power) if ducks else None


def nil_not_covered(view: PlayView, card: int, trick_winner: int) -> int | None:
    """``nil-not-covered``: the partner's live nil is winning, the seat could beat it and does not.

    Returns the lowest legal card that beats the partner's when the play is an instance, else None.
    """
    partner = view.partner
    if not view.rules.partnership or partner is None or trick_winner != partner:
        return None
    if view.winning_seat != partner or not view.live_nil(partner):
        return None
    winner = view.winning_card
    assert winner is not None
    if view.beats(card, winner):
        return None
    covers = [held for held in view.legal if view.beats(held, winner)]
    return min(covers, key=view.power) if covers else None


CHECKS: dict[str, Check] = {
    THIRD_HAND_LOW: third_hand_low,
    RUFF_PARTNER_WINNER: ruff_partner_winner,
    WASTED_TRUMP: wasted_trump,
    NIL_TOOK_DUCKABLE: nil_took_duckable,
    NIL_NOT_COVERED: nil_not_covered,
}
"""Each pattern's check, in the order of :data:`PATTERNS`."""


# --- results ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Instance:
    """One card play that is an instance of a pattern."""

    line_number: int
    """The line of the log file, from 1."""
    game: int | None
    """The line's game id, or None for a standalone hand."""
    hand: int | None
    """The hand's index in its game (None for a standalone hand without a ``hand`` field)."""
    trick: int
    """The trick, from 1."""
    seat: int
    """The seat that played."""
    pattern: str
    """One of :data:`PATTERNS`."""
    card: int
    """The card played."""
    sound: int | None
    """A card the seat held that would have been sound (the boss, a side card, the ducking
    card, the covering card)."""
    trick_so_far: tuple[tuple[int, int], ...] = ()
    """The ``(seat, card)`` plays of the trick before this one."""

    def row(self) -> dict[str, str | int]:
        """Return the instance as a CSV row.

        Returns
        -------
        dict
            One value per :data:`CSV_FIELDS` key: cards by name, ``trick_so_far`` as
            ``SEAT:CARD`` pairs, a missing game, hand or sound card as an empty string.

        Examples
        --------
        >>> Instance(3, None, None, 2, 1, "wasted-trump", 41, 5, ((0, 16),)).row()["trick_so_far"]
        '0:5D'
        """
        return {
            "line": self.line_number,
            "game": "" if self.game is None else self.game,
            "hand": "" if self.hand is None else self.hand,
            "trick": self.trick,
            "seat": self.seat,
            "pattern": self.pattern,
            "played": cards.format_card(self.card),
            "sound": "" if self.sound is None else cards.format_card(self.sound),
            "trick_so_far": " ".join(f"{seat}:{cards.format_card(c)}" for seat, c in self.trick_so_far),
        }


@dataclass(frozen=True)
class PatternCount:
    """One row of the audit table: a pattern (or :data:`ANY`) over the hands audited."""

    pattern: str
    """The pattern, or ``"any"``."""
    hands: int
    """Hands with at least one instance."""
    share: float
    """``hands`` over the hands audited (NaN with no hands)."""
    low: float
    """The Wilson 95% interval of the share: lower bound."""
    high: float
    """Upper bound."""
    instances: int
    """Instances (card plays) in all."""


@dataclass(frozen=True)
class AuditResult:
    """The audit of one log: the table and every instance."""

    hands_audited: int
    """Hands replayed and audited (every hand of the log)."""
    seats: tuple[int, ...]
    """The seats whose plays were audited, sorted."""
    counts: tuple[PatternCount, ...]
    """One row per pattern, in the order of :data:`PATTERNS`, then :data:`ANY`."""
    instances: tuple[Instance, ...]
    """Every instance, in log order."""

    def count(self, pattern: str) -> PatternCount:
        """Return the table row of one pattern.

        Parameters
        ----------
        pattern : str
            One of :data:`PATTERNS` or :data:`ANY`.

        Returns
        -------
        PatternCount

        Raises
        ------
        KeyError
            An unknown pattern.
        """
        for row in self.counts:
            if row.pattern == pattern:
                return row
        raise KeyError(pattern)

    def table(self) -> pd.DataFrame:
        """The audit table: one row per pattern (then ``any``) with ``hands``, ``share``,
        ``low``, ``high`` and ``instances``."""
        return pd.DataFrame([dataclasses.asdict(row) for row in self.counts])

    def instance_table(self) -> pd.DataFrame:
        """Every instance, one row each, in the columns of the ``--out`` CSV."""
        return pd.DataFrame([instance.row() for instance in self.instances],
                            columns=list(CSV_FIELDS))

    def write_csv(self, path: str | Path) -> None:
        """Write every instance as CSV, all or nothing (:func:`write_instances_csv`).

        Parameters
        ----------
        path : str or Path
            A ``.csv`` file in an existing folder.
        """
        write_instances_csv(self.instances, path)


# --- auditing --------------------------------------------------------------------------------


def audit_hand(
    rules: RuleSet,
    log: HandLog,
    score_before: Sequence[int] | None = None,
    bags_before: Sequence[int] | None = None,
    hand_index: int | None = None,
    seats: Iterable[int] | None = None,
    line_number: int = 1,
) -> list[Instance]:
    """Replay one hand through the referee and return the instances of the five patterns.

    Parameters
    ----------
    rules : RuleSet
        The rules the hand is played under.
    log : HandLog
        The hand.
    score_before, bags_before : sequence of int, optional
        The score and bags the hand starts from (for the blind-nil rules); by default the
        log's own fields, else 0.
    hand_index : int, optional
        The hand's index in its game (for ``blind_nil = "after_first_hand"``); by default
        the log's ``hand``, else 0.
    seats : iterable of int, optional
        Audit only these seats' plays (all seats if None).
    line_number : int
        The line to report in each :class:`Instance`.

    Returns
    -------
    list of Instance
        In play order; a play may be an instance of more than one pattern.

    Raises
    ------
    ValueError
        The referee's :class:`~spades_sim.referee.IllegalMove` or a deal error; use
        :func:`audit_file` to have a whole log checked first, as ``score`` does.
    """
    index = (log.hand or 0) if hand_index is None else hand_index
    hand = Hand(
        rules,
        log.dealer,
        log.hands,
        log.score_before if score_before is None else score_before,
        log.bags_before if bags_before is None else bags_before,
        index,
        log.discards,
    )
    audited = set(range(rules.seat_count) if seats is None else seats)
    discards = hand.discards
    played: set[int] = set()
    shown_out: list[set[int]] = [set() for _ in range(hand.seat_count)]
    pending: list[tuple[PlayView, int]] = []  # this trick's audited plays
    instances: list[Instance] = []
    game = log.game
    reported_hand = index if (log.game is not None or log.hand is not None) else None
    for text in log.actions:
        action = _parse(text)
        if not isinstance(action, CardPlay) or hand.phase != Phase.PLAY:
            hand.apply(action)
            continue
        seat, card = action.seat_index, action.card
        trick_cards = hand.trick_cards
        leader = hand.leader_index
        # Every pattern concerns a trick in progress, so a lead is never audited.
        if trick_cards and seat in audited:
            holding = hand.holding(seat)
            view = PlayView(
                rules=rules,
                deck=hand.deck,
                trick_number=hand.trick_number,
                seat=seat,
                holding=holding,
                legal=_legal_plays(hand, seat, holding),
                trick_cards=trick_cards,
                trick_seats=tuple((leader + k) % hand.seat_count for k in range(len(trick_cards))),
                bids=tuple(bid for bid in hand.bids if bid is not None),
                tricks_taken=hand.tricks_taken,
                played=frozenset(played),
                shown_out=tuple(frozenset(suits) for suits in shown_out),
                own_discards=frozenset(discards[seat]) if discards is not None else frozenset(),
            )
            pending.append((view, card))
        if trick_cards:
            led = hand.deck.suit_of(trick_cards[0])
            if hand.deck.suit_of(card) != led:
                shown_out[seat].add(led)
        played.add(card)
        tricks_before = len(hand.tricks)
        hand.apply(action)
        if len(hand.tricks) > tricks_before:
            trick_winner = hand.tricks[-1].winner
            for view, played_card in pending:
                for pattern, check in CHECKS.items():
                    sound = check(view, played_card, trick_winner)
                    if sound is not None:
                        instances.append(
                            Instance(
                                line_number=line_number,
                                game=game,
                                hand=reported_hand,
                                trick=view.trick_number,
                                seat=view.seat,
                                pattern=pattern,
                                card=played_card,
                                sound=sound,
                                trick_so_far=tuple(zip(view.trick_seats, view.trick_cards, strict=True)),
                            )
                        )
            pending = []
    return instances


def _legal_plays(hand: Hand, seat: int, holding: tuple[int, ...]) -> tuple[int, ...]:
    """The cards ``seat`` may play after the lead: the referee's follow rule (the cards of the
    led suit, or any card when void), which is all ``verify_play`` checks there once the turn
    and the card are right (the same as :meth:`Hand.legal_plays`, much faster)."""
    deck = hand.deck
    led = deck.suit_of(hand.trick_cards[0])
    followers = tuple(card for card in holding if deck.suit_of(card) == led)
    return followers or holding


@functools.lru_cache(maxsize=4096)
def _parse(text: str) -> Action:
    """:func:`~spades_sim.referee.handlog.parse_action`, remembered: a log repeats its few hundred codes."""
    return parse_action(text)


def check_seats(seats: Iterable[int] | None, seat_count: int | None = None) -> tuple[int, ...] | None:
    """Return the seats to audit, sorted and without repeats, or refuse one.

    Parameters
    ----------
    seats : iterable of int, optional
        The seats asked for; None for all.
    seat_count : int, optional
        The seats of the table (the smallest table of a log); None checks only that each
        seat is a whole number.

    Returns
    -------
    tuple of int or None
        The seats, sorted; None when ``seats`` is None.

    Raises
    ------
    AuditError
        A seat that is not a whole number 0 to ``seat_count`` - 1.

    Examples
    --------
    >>> check_seats([2, 0, 2])
    (0, 2)
    >>> check_seats([4], 4)
    Traceback (most recent call last):
    ...
    spades_sim.referee.audit.AuditError: seat=4: allowed 0-3
    """
    if seats is None:
        return None
    chosen = list(seats)
    top = MAX_SEATS if seat_count is None else seat_count
    for seat in chosen:
        whole = isinstance(seat, int) and not isinstance(seat, bool)
        if not whole or (seat_count is not None and not 0 <= seat < seat_count):
            raise AuditError(f"seat={seat!r}: allowed 0-{top - 1}")
    return tuple(sorted(set(chosen)))


def audit_file(
    path: str | Path, rules: RuleSet | None = None, seats: Iterable[int] | None = None
) -> AuditResult:
    """Replay every hand of a hand log through the referee and audit its card play.

    The whole log is checked first with :func:`~spades_sim.referee.score_file` (every move,
    every recorded field, the games' continuity), so a broken or illegal log is refused
    with the same one-line message as ``spades-sim score``; then each hand is replayed
    again and every audited seat's card plays are checked against :data:`PATTERNS`.

    Parameters
    ----------
    path : str or Path
        The JSONL hand-log file.
    rules : RuleSet, optional
        Rules for every line; by default each line's ``rules`` field.
    seats : iterable of int, optional
        Audit only these seats' plays (all seats if None); each must be a seat of every
        table in the log.

    Returns
    -------
    AuditResult

    Raises
    ------
    LogError
        The log cannot be read or the referee refuses it (``line N: ...``).
    AuditError
        A seat outside the log's tables.
    """
    # With the rules given the table is known now; else once the log's lines are read.
    chosen = check_seats(seats, None if rules is None else rules.seat_count)
    scored = {hand.line_number: hand for hand in score_file(path, rules)}
    rules_cache: dict[str, RuleSet] = {}
    plans: list[tuple[int, HandLog, RuleSet, tuple[int, ...] | None, tuple[int, ...] | None, int]] = []
    previous: tuple[HandLog, ScoredHand] | None = None
    for line_number, log in read_log(path):
        if line_number not in scored:  # the file changed since it was scored
            raise LogError("the log changed while it was audited", line_number)
        done = scored[line_number]
        if rules is None and log.rules not in rules_cache:
            rules_cache[log.rules] = log_rules(log.rules, path)
        line_rules = rules or rules_cache[log.rules]
        continuing = previous is not None and log.game is not None and previous[0].game == log.game
        score_before: tuple[int, ...] | None
        bags_before: tuple[int, ...] | None
        if previous is not None and continuing:
            before = previous[1].result
            score_before, bags_before = before.score, before.bag_total
        else:
            score_before, bags_before = log.score_before, log.bags_before
        plans.append((line_number, log, line_rules, score_before, bags_before, done.hand))
        previous = (log, done)
    seat_counts = {line_rules.seat_count for _, _, line_rules, _, _, _ in plans}
    if chosen is not None and seat_counts:
        check_seats(chosen, min(seat_counts))
    instances: list[Instance] = []
    hands_with: dict[str, set[int]] = {pattern: set() for pattern in PATTERNS}
    for line_number, log, line_rules, score_before, bags_before, hand_index in plans:
        found = audit_hand(line_rules, log, score_before, bags_before, hand_index, chosen, line_number)
        instances += found
        for instance in found:
            hands_with[instance.pattern].add(line_number)
    total = len(plans)
    counts = [_count_row(p, len(hands_with[p]), total, _n(instances, p)) for p in PATTERNS]
    any_hands = set().union(*hands_with.values())
    counts.append(_count_row(ANY, len(any_hands), total, len(instances)))
    audited = chosen if chosen is not None else tuple(range(max(seat_counts, default=0)))
    return AuditResult(total, audited, tuple(counts), tuple(instances))


def _n(instances: Sequence[Instance], pattern: str) -> int:
    return sum(1 for instance in instances if instance.pattern == pattern)


def _count_row(pattern: str, hands: int, total: int, instances: int) -> PatternCount:
    low, high = wilson_interval(hands, total)
    share = hands / total if total else math.nan
    return PatternCount(pattern, hands, share, low, high, instances)


# --- output ----------------------------------------------------------------------------------


def check_csv_path(path: str | Path) -> None:
    """Refuse an instance file that is not ``.csv``, or that cannot be written
    (:func:`spades_sim.outputs.check_file`: a missing or read-only folder, ...).

    Parameters
    ----------
    path : str or Path
        The file ``--instances`` names.

    Raises
    ------
    AuditError
        With the one-line message of the CLI (``instances='x.txt': allowed a file ending in .csv``).
    OutputError
        A path that cannot be written, likewise in one line.

    Examples
    --------
    >>> check_csv_path("instances.parquet")
    Traceback (most recent call last):
    ...
    spades_sim.referee.audit.AuditError: instances='instances.parquet': allowed a file ending in .csv
    """
    if Path(path).suffix.lower() != ".csv":
        raise AuditError(f"instances={shown(path)!r}: allowed a file ending in .csv")
    check_file(path, "instances")  # as given: Path() drops a final /, which names a folder


def write_instances_csv(instances: Iterable[Instance], path: str | Path) -> None:
    """Write instances as CSV (:data:`CSV_FIELDS`), all or nothing: to a temporary file
    beside ``path``, then renamed over it (:func:`spades_sim.outputs.atomic_path`).

    Parameters
    ----------
    instances : iterable of Instance
        The rows.
    path : str or Path
        The ``.csv`` file (:func:`check_csv_path`).
    """
    path = Path(path)
    check_csv_path(path)
    with atomic_path(path) as temporary, open(temporary, "w", encoding="utf-8",
                                              newline="") as out:
        writer = csv.DictWriter(out, fieldnames=CSV_FIELDS)
        writer.writeheader()
        for instance in instances:
            writer.writerow({key: csv_cell(value) for key, value in instance.row().items()})


def seats_label(seats: Sequence[int]) -> str:
    """Return the audited seats as the summary line writes them.

    Parameters
    ----------
    seats : sequence of int
        The seats, sorted.

    Returns
    -------
    str

    Examples
    --------
    >>> seats_label((0, 1, 2, 3)), seats_label((2,)), seats_label((0, 2)), seats_label(())
    ('seats 0-3', 'seat 2', 'seats 0, 2', 'no seats')
    """
    if not seats:
        return "no seats"
    if len(seats) == 1:
        return f"seat {seats[0]}"
    if list(seats) == list(range(seats[0], seats[-1] + 1)):
        return f"seats {seats[0]}-{seats[-1]}"
    return "seats " + ", ".join(str(seat) for seat in seats)


__all__ = [
    "ANY",
    "CHECKS",
    "CSV_FIELDS",
    "PATTERNS",
    "MAX_LISTED",
    "AuditError",
    "AuditResult",
    "Instance",
    "PatternCount",
    "PlayView",
    "audit_file",
    "audit_hand",
    "check_csv_path",
    "check_list_count",
    "check_seats",
    "nil_not_covered",
    "nil_took_duckable",
    "ruff_partner_winner",
    "seats_label",
    "third_hand_low",
    "wasted_trump",
    "write_instances_csv",
]

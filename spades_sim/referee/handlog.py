"""The JSONL hand-log format of ``docs/hand-log.md``.

One line holds one hand as a JSON object. :meth:`HandLog.loads` checks the
structure of a line (types, card names, the deal, seat numbers, action codes)
and :meth:`HandLog.dumps` writes it back, keys in the order of the docs, so that
``HandLog.loads(log.dumps()) == log``. Whether the moves are legal and the
recorded results right is the referee's business (:mod:`spades_sim.referee`).

Every problem raises :class:`LogError`, whose message starts with ``line N:``
when the line number is known.

This module is plain Python (no numpy): it is part of the test oracle.
"""

from __future__ import annotations

import functools
import io
import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Protocol

from spades_sim import cards
from spades_sim.inputs import MAX_LOG_BYTES, MAX_LOG_LINE, loads_json, open_input
from spades_sim.names import name_fault
from spades_sim.numbers import is_digits, whole_number
from spades_sim.outputs import atomic_path, shown
from spades_sim.rules import (
    HAND_SIZE,
    MAX_SEATS,
    SEAT_COUNT,
    RulesError,
    RuleSet,
    load_preset,
    load_rules,
    preset_names,
)

SIDE_COUNT = 2
"""Scoring sides at a partnership table: seats 0+2 and 1+3."""

MIN_SEATS = 2
"""The fewest seats of any table mode (two-player); a log line has 2 to ``MAX_SEATS`` seats."""

NIL_MADE: Literal["made"] = "made"
NIL_SET: Literal["set"] = "set"
NilOutcome = Literal["made", "set"] | None
"""A seat's nil outcome in :attr:`HandResult.nil`: made, set, or None (no nil bid)."""

BLIND_NIL = "bn"
"""The action code of blind nil, also used to mark a blind nil among bids."""

BLIND_BID = "bb"
"""The action code of a blind bid of a number of tricks (``S bb N``)."""


class BlindCount(int):
    """A blind bid of a number of tricks among bids: the count itself, marked as bid blind.

    It adds, compares and scores as its count (a contract's tricks); only the scoring of a
    side's contract (docs/scoring.md "Blind bids") and the log codes tell it apart.

    >>> BlindCount(6) + 3, isinstance(BlindCount(6), BlindCount), BlindCount(6), str(BlindCount(6))
    (9, True, BlindCount(6), 'bb6')
    """

    def __repr__(self) -> str:
        return f"BlindCount({int(self)})"

    def __str__(self) -> str:
        """As tables of bids write it beside ``bn`` (blind nil): ``bb6``."""
        return f"{BLIND_BID}{int(self)}"


HAND_CAP = "hand_cap"
"""The ``game_over.reason`` of a game stopped unfinished at a simulation's hand cap."""

_ACTION_FORMS = ("'S b N' (bid), 'S bn' (blind nil), 'S bb N' (blind bid), 'S g CARD' (pass) "
                 "or 'S p CARD' (play)")


class LogError(ValueError):
    """A hand log that cannot be read or does not agree with the referee.

    ``str(error)`` is ``"line N: message"`` when the line number is known,
    else just the message.

    >>> str(LogError("dealer=7: allowed a seat 0-3", 4))
    'line 4: dealer=7: allowed a seat 0-3'
    """

    def __init__(self, message: str, line_number: int | None = None) -> None:
        self.message = message
        """The problem, without the line prefix."""
        self.line_number = line_number
        """The 1-based line number, or None when unknown."""
        super().__init__(message if line_number is None else f"line {line_number}: {message}")

    def at_line(self, line_number: int | None) -> LogError:
        """Return this error with ``line_number`` filled in (unchanged if already known or None)."""
        if self.line_number is not None or line_number is None:
            return self
        return LogError(self.message, line_number)


# --- actions ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Bid:
    """Seat ``seat_index`` bids ``tricks`` tricks; 0 is nil (code ``S b N``)."""

    seat_index: int
    tricks: int


@dataclass(frozen=True)
class BlindNilBid:
    """Seat ``seat_index`` bids blind nil (code ``S bn``)."""

    seat_index: int


@dataclass(frozen=True)
class BlindBid:
    """Seat ``seat_index`` bids ``tricks`` tricks blind, before looking at its cards (code
    ``S bb N``; docs/scoring.md "Blind bids")."""

    seat_index: int
    tricks: int


@dataclass(frozen=True)
class CardPass:
    """Seat ``seat_index`` passes card id ``card`` face down to its partner in the blind-nil
    exchange (code ``S g CARD``)."""

    seat_index: int
    card: int


@dataclass(frozen=True)
class CardPlay:
    """Seat ``seat_index`` plays card id ``card`` (code ``S p CARD``)."""

    seat_index: int
    card: int


Action = Bid | BlindNilBid | BlindBid | CardPass | CardPlay
"""Any one action of a hand; the referee's ``operations`` are these records."""


def parse_action(text: str, line_number: int | None = None, seat_count: int = MAX_SEATS) -> Action:
    """Parse one action code such as ``"1 b 4"``, ``"2 bn"``, ``"0 g 3C"`` or ``"1 p QS"``.

    Only the syntax and the seat range (0 to ``seat_count`` - 1; any table
    mode's seat by default) are checked here; bid ranges and the legality of
    passes and plays are the referee's.

    >>> parse_action("1 b 4"), parse_action("2 bn"), parse_action("3 p 10h")
    (Bid(seat_index=1, tricks=4), BlindNilBid(seat_index=2), CardPlay(seat_index=3, card=34))
    >>> parse_action("0 g 3C")
    CardPass(seat_index=0, card=1)
    >>> parse_action("1 x 4", 7)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    spades_sim.referee.handlog.LogError: line 7: action '1 x 4': unknown code 'x': allowed 'S b N' (bid), ...
    """
    if not isinstance(text, str):
        raise LogError(f"action {_short(text)!r}: not a string: allowed {_ACTION_FORMS}",
                       line_number)
    try:
        return _parse_action(text, seat_count)
    except LogError as error:
        raise LogError(error.message, line_number) from None


@functools.lru_cache(maxsize=4096)
def _parse_action(text: str, seat_count: int) -> Action:
    """:func:`parse_action` of a string, remembered: a log repeats a few hundred codes (seat,
    code and card) a hundred thousand times, and the records are frozen."""

    def fail(problem: str) -> LogError:
        return LogError(f"action {_short(text)!r}: {problem}")

    tokens = text.split()
    if not tokens:
        raise fail(f"empty: allowed {_ACTION_FORMS}")
    raw_seat, *rest = tokens
    if not is_digits(raw_seat) or int(raw_seat) >= seat_count:
        raise fail(f"seat {_short(raw_seat)!r}: allowed 0-{seat_count - 1}")
    seat_index = int(raw_seat)
    match rest:
        case ["b", raw_tricks]:
            # A sign is accepted so that "-1" reaches the referee's range check
            # ("bid -1: allowed 0-13") instead of a vaguer syntax error.
            try:
                return Bid(seat_index, whole_number(raw_tricks))
            except ValueError:
                raise fail(f"bid {_short(raw_tricks)!r}: allowed a whole number") from None
        case ["bn"]:
            return BlindNilBid(seat_index)
        case ["bb", raw_tricks]:
            try:
                return BlindBid(seat_index, whole_number(raw_tricks))
            except ValueError:
                raise fail(f"blind bid {_short(raw_tricks)!r}: allowed a whole number") from None
        case ["g" | "p" as code, raw_card]:
            try:
                card = cards.parse_card(raw_card)
            except cards.CardError as error:
                raise fail(str(error)) from None
            return CardPass(seat_index, card) if code == "g" else CardPlay(seat_index, card)
        case ["b" | "bn" | "bb" | "g" | "p" as code, *_]:
            raise fail(f"wrong number of tokens for code {code!r}: allowed {_ACTION_FORMS}")
        case [code, *_]:
            raise fail(f"unknown code {code!r}: allowed {_ACTION_FORMS}")
        case _:
            raise fail(f"no code after the seat: allowed {_ACTION_FORMS}")


def format_action(action: Action) -> str:
    """Return the log code of an action record; ``parse_action(format_action(a)) == a``.

    >>> format_action(Bid(1, 4)), format_action(BlindNilBid(2)), format_action(CardPlay(3, 34))
    ('1 b 4', '2 bn', '3 p 10H')
    >>> format_action(CardPass(0, 1))
    '0 g 3C'
    """
    match action:
        case Bid(seat_index, tricks):
            return f"{seat_index} b {tricks}"
        case BlindNilBid(seat_index):
            return f"{seat_index} {BLIND_NIL}"
        case BlindBid(seat_index, tricks):
            return f"{seat_index} {BLIND_BID} {tricks}"
        case CardPass(seat_index, card):
            return f"{seat_index} g {cards.format_card(card)}"
        case CardPlay(seat_index, card):
            return f"{seat_index} p {cards.format_card(card)}"
    raise TypeError(f"not an action record: {action!r}")


# --- records ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Trick:
    """One completed trick: who led, who won, and the cards in play order from the leader."""

    leader: int
    winner: int
    cards: tuple[int, ...]


@dataclass(frozen=True)
class HandResult:
    """What a hand scored; ``tricks`` and ``nil`` per seat, every other field per side
    (2 sides in partnership, one per seat in the individual modes)."""

    tricks: tuple[int, ...]
    """Tricks taken by each seat."""
    nil: tuple[NilOutcome, ...]
    """Each seat's nil outcome: ``"made"``, ``"set"`` or None (no nil bid)."""
    points: tuple[int, ...]
    """Each side's score change for the hand, bag penalty included."""
    bags: tuple[int, ...]
    """Bags each side took this hand."""
    penalty: tuple[int, ...]
    """Points each side lost to the bag penalty this hand (0 or positive)."""
    score: tuple[int, ...]
    """Each side's score after the hand."""
    bag_total: tuple[int, ...]
    """Each side's bags carried forward after the hand."""


class PlayedHand(Protocol):
    """What :meth:`HandLog.from_hand` reads from a played hand: the attributes of
    :class:`spades_sim.referee.hand.Hand` that a log line records.

    A protocol rather than an import, because the hand module imports this one.
    """

    @property
    def dealer_index(self) -> int: ...
    @property
    def hands(self) -> tuple[tuple[int, ...], ...]: ...
    @property
    def discards(self) -> tuple[tuple[int, ...], ...] | None: ...
    @property
    def score_before(self) -> tuple[int, ...]: ...
    @property
    def bags_before(self) -> tuple[int, ...]: ...
    @property
    def hand_index(self) -> int: ...
    @property
    def operations(self) -> Sequence[Action]: ...
    @property
    def tricks(self) -> Sequence[Trick]: ...
    @property
    def result(self) -> HandResult: ...


RESULT_FIELDS = ("tricks", "nil", "points", "bags", "penalty", "score", "bag_total")
"""The keys of a log's ``result`` object, in the order they are written."""

_SEATS = f"{MIN_SEATS}-{MAX_SEATS}"
"""The seat counts (and side counts) a log line may have, as messages write them."""

_REQUIRED = {
    "rules": "a preset name or the path of a .toml rules file",
    "dealer": "a seat of the table",
    "hands": f"a list of {_SEATS} strings of cards, one per seat",
    "actions": "a list of action codes",
}
"""The required fields and what each allows."""
# Key order of a written line: the order of the example in docs/hand-log.md, with the
# two-player discards right after the hands they complete.
_KEY_ORDER = (
    "rules", "game", "hand", "dealer", "score_before", "bags_before", "sets_before",
    "hands", "discards", "actions", "tricks", "result", "game_over", "strategies",
)  # fmt: skip
# "strategies" comes last: a line written without it is byte for byte what it was before the
# field existed, and one written with it only grows at its end.

STRATEGY_NAME_MOST = 100
"""The longest strategy name a line's ``strategies`` may hold."""


@dataclass(frozen=True)
class HandLog:
    """One line of a hand log: the deal, the actions and the optional checks.

    ``hands`` holds card ids per seat in the order they were written;
    ``actions`` the action codes as written (each one syntactically valid).
    A line has 2 to 5 seats; whether that is the rules' table is the referee's check.
    """

    rules: str
    """A preset name or the path of a ``.toml`` rules file, relative to the log's folder
    (:func:`log_rules`)."""
    dealer: int
    """The dealer's seat, 0 to n - 1."""
    hands: tuple[tuple[int, ...], ...]
    """Card ids each seat holds after the deal (before any blind-nil exchange), seats 0 to n - 1."""
    actions: tuple[str, ...]
    """The bids, then any blind-nil passes, then the plays, as action codes."""
    game: int | None = None
    """Game id; consecutive lines with the same id are the hands of one game."""
    hand: int | None = None
    """Index of the hand within its game, from 0."""
    score_before: tuple[int, ...] | None = None
    """Each side's score before the hand."""
    bags_before: tuple[int, ...] | None = None
    """Each side's bags carried into the hand."""
    tricks: tuple[Trick, ...] | None = None
    """The tricks as recorded, to be checked by the referee."""
    result: HandResult | None = None
    """The result as recorded, to be checked by the referee."""
    game_over: dict[str, Any] | None = None
    """``{"winner": side}`` or ``{"winner": None, "reason": "hand_cap"}``."""
    discards: tuple[tuple[int, ...], ...] | None = None
    """Two-player only: card ids each seat discarded in the keep-or-discard draw.
    (After the older fields so that positional construction keeps working; written right
    after ``hands``.)"""
    strategies: tuple[str, ...] | None = None
    """Optional: the name of the strategy (or player) at each seat, seats 0 to n - 1, for
    reports that judge the play by who played it (``spades-sim review``); not checked
    against anything else."""
    sets_before: tuple[int, ...] | None = None
    """Optional, with ``sets_to_lose``: the times each side's contract was set earlier in the
    game (after the older fields, so that positional construction keeps working)."""

    @classmethod
    def from_hand(
        cls,
        hand: PlayedHand,
        rules: str,
        game: int | None = None,
        game_over: dict[str, Any] | None = None,
        sets_before: Sequence[int] | None = None,
    ) -> HandLog:
        """Return the complete log line of a played (scored) hand of the referee.

        Replaying the line (:func:`~spades_sim.referee.replay_hand`, or
        :func:`~spades_sim.referee.score_file` after :func:`write_log`) plays the same
        moves and checks every result the hand computed.

        Parameters
        ----------
        hand : Hand
            A :class:`~spades_sim.referee.hand.Hand` whose every card is played.
        rules : str
            The line's ``rules`` field: the preset name or ``.toml`` path of the hand's
            rules (the hand holds the rule set, not where it came from).
        game : int, optional
            The game id, for a hand of a game; its ``hand`` index is then written too.
            A standalone hand writes its index only when it is not 0 (the default).
        game_over : dict, optional
            ``{"winner": side}`` on the last hand of a game.
        sets_before : sequence of int, optional
            With ``sets_to_lose``: each side's sets earlier in the game.

        Raises
        ------
        ValueError
            The hand is not over.

        Examples
        --------
        >>> from spades_sim.referee import Hand, HandLog
        >>> from spades_sim.rules import RuleSet
        >>> hand = Hand(RuleSet(), 3, ["AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S",
        ...                            "AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H",
        ...                            "AD KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D 2D",
        ...                            "AC KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C 2C"])
        >>> for seat, tricks in enumerate((13, 0, 0, 0)):
        ...     _ = hand.bid(seat, tricks)
        >>> while hand.turn_index is not None:
        ...     _ = hand.play(hand.turn_index, hand.legal_plays(hand.turn_index)[-1])
        >>> log = HandLog.from_hand(hand, "standard")
        >>> log.actions[:5], log.result.score
        (('0 b 13', '1 b 0', '2 b 0', '3 b 0', '0 p AS'), (230, 200))
        """
        result = hand.result  # first: it refuses an unfinished hand
        in_game = game is not None
        return cls(
            rules=rules,
            dealer=hand.dealer_index,
            hands=hand.hands,
            discards=hand.discards,
            actions=tuple(format_action(operation) for operation in hand.operations),
            game=game,
            hand=hand.hand_index if in_game or hand.hand_index else None,
            score_before=hand.score_before,
            bags_before=hand.bags_before,
            tricks=tuple(hand.tricks),
            result=result,
            game_over=game_over,
            sets_before=None if sets_before is None else tuple(sets_before),
        )

    @classmethod
    def loads(cls, line: str, line_number: int | None = None) -> HandLog:
        """Parse one log line, checking its structure.

        :raises LogError: not JSON, a missing or unknown field, a wrong type, an
            unknown card, a card dealt twice (in ``hands`` and ``discards`` together),
            not 2-5 seats, a seat out of range of the line's seats or a bad action
            code; the message starts with ``line N:``. The cards a seat holds and the
            number of sides are checked by the referee, which knows the table mode.
        """
        try:
            # Without the line end, a JSON error's column is the column in the file.
            raw = loads_json(line.rstrip("\r\n"),
                             lambda allowed: LogError(f"not a hand: allowed {allowed}",
                                                      line_number))
        except json.JSONDecodeError as error:
            raise LogError(f"not JSON: {error.msg} at column {error.colno}", line_number) from None
        try:
            return _log_from_json(raw, line_number)
        except LogError as error:
            raise error.at_line(line_number) from None

    def dumps(self) -> str:
        """Return the log as one JSON line (no newline); optional fields are omitted when None."""
        raw: dict[str, Any] = {
            "rules": self.rules,
            "game": self.game,
            "hand": self.hand,
            "dealer": self.dealer,
            "score_before": _list_or_none(self.score_before),
            "bags_before": _list_or_none(self.bags_before),
            "sets_before": _list_or_none(self.sets_before),
            "hands": _card_strings(self.hands),
            "discards": None if self.discards is None else _card_strings(self.discards),
            "actions": list(self.actions),
            "tricks": None if self.tricks is None else [trick_to_json(t) for t in self.tricks],
            "result": None if self.result is None else result_to_json(self.result),
            "game_over": self.game_over,
            "strategies": None if self.strategies is None else list(self.strategies),
        }
        return json.dumps({key: raw[key] for key in _KEY_ORDER if raw[key] is not None})


def result_to_json(result: HandResult) -> dict[str, Any]:
    """Return a result as the plain JSON object of a log line."""
    return {name: list(getattr(result, name)) for name in RESULT_FIELDS}


def trick_to_json(trick: Trick) -> dict[str, Any]:
    """Return a trick as the plain JSON object of a log line (cards by name)."""
    return {
        "leader": trick.leader,
        "winner": trick.winner,
        "cards": [cards.format_card(c) for c in trick.cards],
    }


def _list_or_none(values: Sequence[int] | None) -> list[int] | None:
    return None if values is None else list(values)


def _card_strings(seats: Sequence[Sequence[int]]) -> list[str]:
    return [cards.format_cards(seat_cards) for seat_cards in seats]


# --- reading ---------------------------------------------------------------------------------
# The helpers below raise LogError without a line number; HandLog.loads adds it.


def _log_from_json(raw: Any, line_number: int | None) -> HandLog:
    if not isinstance(raw, dict):
        raise LogError(f"a line must be a JSON object, got {_json_type(raw)}")
    unknown = [key for key in raw if key not in _KEY_ORDER]
    if unknown:
        raise LogError(f"unknown field {unknown[0]!r}: allowed " + ", ".join(_KEY_ORDER))
    for key, allowed in _REQUIRED.items():
        if raw.get(key) is None:
            raise LogError(f"{key} missing: a required field, allowed {allowed}")
    rules = raw["rules"]
    if not isinstance(rules, str) or not rules:
        raise LogError(f"rules={json.dumps(rules)}: allowed {_REQUIRED['rules']}")
    hands = _seat_cards(raw["hands"], "hands")
    raw_discards = raw.get("discards")
    discards = None if raw_discards is None else _seat_cards(raw_discards, "discards", len(hands))
    try:
        check_deal(hands, hand_size=None, seat_count=None, discards=discards)
    except ValueError as error:
        raise LogError(str(error)) from None
    # Every seat number of the line must be a seat of its table, which has one hand per seat.
    seat_count = len(hands)
    tricks = raw.get("tricks")
    result = raw.get("result")
    return HandLog(
        rules=rules,
        dealer=_seat(raw["dealer"], "dealer", seat_count),
        hands=hands,
        actions=_actions(raw["actions"], line_number, seat_count),
        game=_optional(raw, "game", _whole_number),
        hand=_optional(raw, "hand", _whole_number),
        score_before=_optional(raw, "score_before", _side_list),
        bags_before=_optional(raw, "bags_before", _side_list),
        sets_before=_optional(raw, "sets_before", _side_list),
        tricks=None if tricks is None else _tricks(tricks, seat_count),
        result=None if result is None else _result(result, seat_count),
        game_over=None if raw.get("game_over") is None else _game_over(raw["game_over"], seat_count),
        discards=discards,
        strategies=None if raw.get("strategies") is None else _strategies(raw["strategies"], seat_count),
    )


def _strategies(value: Any, seat_count: int) -> tuple[str, ...]:
    """``strategies``: one non-empty name per seat, each at most ``STRATEGY_NAME_MOST``
    printable characters."""
    if (
        not isinstance(value, list)
        or len(value) != seat_count
        or not all(
            isinstance(v, str) and name_fault(v, STRATEGY_NAME_MOST) is None for v in value
        )
    ):
        raise LogError(
            f"strategies={_short_json(value)}: allowed a list of {seat_count} strategy names, one "
            f"per seat (non-empty, printable, at most {STRATEGY_NAME_MOST} characters, no "
            "surrounding spaces)"
        )
    return tuple(value)


def _json_type(value: Any) -> str:
    names = {dict: "an object", list: "a list", str: "a string", bool: "true/false", type(None): "null"}
    return names.get(type(value), "a number")


def _is_int(value: Any) -> bool:
    # JSON true/false arrive as bool, a subclass of int: they are not numbers here.
    return isinstance(value, int) and not isinstance(value, bool)


def _optional(raw: dict[str, Any], key: str, convert: Any) -> Any:
    value = raw.get(key)
    return None if value is None else convert(value, key)


def _whole_number(value: Any, name: str) -> int:
    if not _is_int(value) or value < 0:
        raise LogError(f"{name}={json.dumps(value)}: allowed a whole number 0 or more")
    return int(value)


def _seat(value: Any, name: str, seat_count: int) -> int:
    if not _is_int(value) or not 0 <= value < seat_count:
        raise LogError(f"{name}={json.dumps(value)}: allowed a seat 0-{seat_count - 1}")
    return int(value)


def _int_list(value: Any, name: str, lengths: range, what: str) -> tuple[int, ...]:
    if not isinstance(value, list) or len(value) not in lengths or not all(_is_int(v) for v in value):
        count = str(lengths[0]) if len(lengths) == 1 else f"{lengths[0]}-{lengths[-1]}"
        raise LogError(f"{name}={json.dumps(value)}: allowed a list of {count} whole numbers ({what})")
    return tuple(value)


def _side_list(value: Any, name: str) -> tuple[int, ...]:
    # 2 sides in partnership, else one per seat: how many this table has is the referee's check.
    return _int_list(value, name, range(MIN_SEATS, MAX_SEATS + 1), "one per side")


def _card_names(value: Any, name: str) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise LogError(f"{name}={json.dumps(value)}: allowed a list of card names")
    try:
        return cards.parse_cards(value, unique=False)
    except cards.CardError as error:
        raise LogError(f"{name}: {error}") from None


def _seat_cards(value: Any, name: str, seat_count: int | None = None) -> tuple[tuple[int, ...], ...]:
    """Parse ``hands`` (2-5 strings) or ``discards`` (one string per seat of ``hands``)."""
    lengths = range(MIN_SEATS, MAX_SEATS + 1) if seat_count is None else range(seat_count, seat_count + 1)
    if not isinstance(value, list) or len(value) not in lengths or not all(isinstance(v, str) for v in value):
        allowed = (
            _REQUIRED["hands"] if seat_count is None else f"a list of {seat_count} strings of cards, as hands"
        )
        raise LogError(f"{name}={_short_json(value)}: allowed {allowed}")
    seats: list[tuple[int, ...]] = []
    for seat_index, text in enumerate(value):
        try:
            seats.append(cards.parse_cards(text, unique=False))
        except cards.CardError as error:
            raise LogError(f"{name}[{seat_index}]: {error}") from None
    return tuple(seats)


def check_deal(
    hands: Sequence[Sequence[int]],
    hand_size: int | None = HAND_SIZE,
    seat_count: int | None = SEAT_COUNT,
    discards: Sequence[Sequence[int]] | None = None,
) -> None:
    """Raise ValueError unless ``hands`` holds ``seat_count`` seats of ``hand_size`` card ids
    and no card twice; ``discards`` (two-player), when given, has one list of ``hand_size``
    card ids per seat, and no card is both held and discarded.

    ``None`` leaves a count unchecked beyond what any table mode allows (2-5 seats).
    Shared by the log reader, which does not know the table mode, and
    :class:`spades_sim.referee.Hand`, which checks every count and which cards
    belong to the deck.

    >>> check_deal([range(0, 13), range(13, 26), range(26, 39), range(39, 51)])
    Traceback (most recent call last):
    ...
    ValueError: hands[3] has 12 cards: allowed 13
    >>> check_deal([range(0, 13), range(13, 26)], seat_count=2, discards=[range(26, 39), range(12, 25)])
    Traceback (most recent call last):
    ...
    ValueError: discards: card AC dealt twice (hands[0] and discards[1]): each card is dealt once
    """
    if seat_count is None:
        if not MIN_SEATS <= len(hands) <= MAX_SEATS:
            raise ValueError(f"hands has {len(hands)} seats: allowed {_SEATS}")
    elif len(hands) != seat_count:
        raise ValueError(f"hands has {len(hands)} seats: allowed {seat_count}")
    fields = [("hands", hands)]
    if discards is not None:
        if len(discards) != len(hands):
            raise ValueError(f"discards has {len(discards)} seats: allowed {len(hands)}, as hands")
        fields.append(("discards", discards))
    holder: dict[int, tuple[str, int]] = {}
    for name, seats in fields:
        for seat_index, seat_cards in enumerate(seats):
            if hand_size is not None and len(seat_cards) != hand_size:
                raise ValueError(f"{name}[{seat_index}] has {len(seat_cards)} cards: allowed {hand_size}")
            for card in seat_cards:
                if card in holder:
                    raise ValueError(
                        f"{name}: card {cards.format_card(card)} dealt twice "
                        f"({_holders(holder[card], (name, seat_index))}): each card is dealt once"
                    )
                holder[card] = name, seat_index


def _holders(first: tuple[str, int], second: tuple[str, int]) -> str:
    """The two places of a card dealt twice: ``seats 0 and 1`` within hands, else by field."""
    if first[0] == second[0] == "hands":
        return f"seat {first[1]}" if first[1] == second[1] else f"seats {first[1]} and {second[1]}"
    return f"{first[0]}[{first[1]}] and {second[0]}[{second[1]}]"


def _short_json(value: Any, limit: int = 60) -> str:
    return _short(json.dumps(value), limit)


def _actions(value: Any, line_number: int | None, seat_count: int) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise LogError(f"actions={_short_json(value)}: allowed {_REQUIRED['actions']}")
    for text in value:
        parse_action(text, line_number, seat_count)  # syntax only; legality is the referee's
    return tuple(value)


def _check_keys(value: Any, name: str, keys: Sequence[str], required: Sequence[str]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise LogError(
            f"{name}: allowed an object with keys " + ", ".join(keys) + f", got {_json_type(value)}"
        )
    for key in value:
        if key not in keys:
            raise LogError(f"{name}: unknown key {key!r}: allowed " + ", ".join(keys))
    for key in required:
        if key not in value:
            raise LogError(f"{name}.{key}: missing: allowed an object with keys " + ", ".join(keys))
    return value


def _tricks(value: Any, seat_count: int) -> tuple[Trick, ...]:
    if not isinstance(value, list):
        raise LogError(f"tricks: allowed a list of trick objects, got {_json_type(value)}")
    tricks = []
    keys = ("leader", "winner", "cards")
    for index, raw_trick in enumerate(value):
        name = f"tricks[{index}]"
        raw = _check_keys(raw_trick, name, keys, keys)
        tricks.append(
            Trick(
                leader=_seat(raw["leader"], f"{name}.leader", seat_count),
                winner=_seat(raw["winner"], f"{name}.winner", seat_count),
                cards=_card_names(raw["cards"], f"{name}.cards"),
            )
        )
    return tuple(tricks)


def _result(value: Any, seat_count: int) -> HandResult:
    raw = _check_keys(value, "result", RESULT_FIELDS, RESULT_FIELDS)
    nil = raw["nil"]
    if (
        not isinstance(nil, list)
        or len(nil) != seat_count
        or any(v not in (None, NIL_MADE, NIL_SET) for v in nil)
    ):
        raise LogError(
            f'result.nil={json.dumps(nil)}: allowed a list of {seat_count} of null, "made" or "set"'
        )
    return HandResult(
        tricks=_int_list(raw["tricks"], "result.tricks", range(seat_count, seat_count + 1), "one per seat"),
        nil=tuple(nil),
        **{name: _side_list(raw[name], f"result.{name}") for name in RESULT_FIELDS[2:]},
    )


def _game_over(value: Any, seat_count: int) -> dict[str, Any]:
    raw = _check_keys(value, "game_over", ("winner", "reason"), ("winner",))
    winner = raw["winner"]
    # A table has at most one side per seat; which sides this one has is the referee's check.
    if winner is None:
        valid = raw.get("reason") == HAND_CAP
    else:
        # A finished game may say why it ended; only its winner is checked.
        valid = _is_int(winner) and 0 <= winner < seat_count and isinstance(raw.get("reason", ""), str)
    if not valid:
        raise LogError(
            f"game_over={json.dumps(raw)}: allowed "
            f'{{"winner": a side 0-{seat_count - 1}}} or {{"winner": null, "reason": "{HAND_CAP}"}}'
        )
    return dict(raw)


def log_lines(path: str | Path) -> Iterator[tuple[int, str]]:
    """Yield ``(line_number, text)`` for each line of a hand-log file, numbered from 1.

    The file must be a regular file of at most :data:`~spades_sim.inputs.MAX_LOG_BYTES`, in
    UTF-8, with lines of at most :data:`~spades_sim.inputs.MAX_LOG_LINE` characters
    (:func:`spades_sim.inputs.open_input`); a line is read only up to that length.

    :raises LogError: when the file cannot be read or breaks one of those bounds.
    """
    def refuse(allowed: str) -> LogError:
        return LogError(f"log={shown(path)!r}: allowed {allowed}")

    try:
        file = open_input(path, refuse, MAX_LOG_BYTES)
    except OSError as error:
        raise refuse(f"a readable JSONL file ({error.strerror})") from None
    with file, io.TextIOWrapper(file, encoding="utf-8") as text:
        line_number = 0
        try:
            while line := text.readline(MAX_LOG_LINE + 1):
                line_number += 1
                if len(line) > MAX_LOG_LINE:
                    raise LogError(f"not a hand: allowed a line of at most {MAX_LOG_LINE:,} "
                                   "characters", line_number)
                yield line_number, line
        except UnicodeDecodeError:
            raise refuse("a UTF-8 text file") from None


def read_log(path: str | Path) -> Iterator[tuple[int, HandLog]]:
    """Yield ``(line_number, log)`` for each non-blank line of a hand-log file, numbered from 1.

    :raises LogError: on the first line with a structural problem (see :meth:`HandLog.loads`),
        or when the file cannot be read (see :func:`log_lines`).
    """
    hands = 0
    for line_number, line in log_lines(path):
        if line.strip():
            hands += 1
            yield line_number, HandLog.loads(line, line_number)
    if not hands:
        raise LogError(f"log={shown(path)!r}: allowed a JSONL file of one or more hands (this "
                       "one has none)")


def log_rules(rules: str, log_path: str | Path) -> RuleSet:
    """The rule set that a line's ``rules`` field names, in the log file at ``log_path``.

    A value ending in ``.toml`` is a rules file's path, read relative to the log file's
    folder (not the working folder, so the log scores the same from anywhere); any other
    value must be a preset's name. So a log never makes its reader open a file that is
    not named as a rules file, whatever else its ``rules`` field holds (``/etc/passwd``,
    say).

    :raises RulesError: an unknown preset, a path not ending in ``.toml``, or a file
        that cannot be read or is no valid rules file; the message quotes the field
        (shortened), never the file's content.
    """
    if rules.endswith(".toml"):
        return load_rules(Path(log_path).parent / rules)  # an absolute path stays as it is
    if rules in preset_names():
        return load_preset(rules)
    # Not load_preset's message: the command line's ./NAME for a file does not apply here.
    raise RulesError("rules", _short(rules), f"a preset ({', '.join(preset_names())}) or the "
                     "path of a .toml rules file, from the log's folder")


def rules_reference(rules_path: str | Path, log_path: str | Path) -> str:
    """What a log at ``log_path`` writes in its ``rules`` field to name ``rules_path``.

    Relative to the log's folder (with ``/``) when the file is in that folder or below
    it, so that the log and its rules can move together; absolute otherwise.
    :func:`log_rules` reads it back from any working folder.
    """
    rules_file = Path(rules_path).absolute()
    try:
        return rules_file.relative_to(Path(log_path).absolute().parent).as_posix()
    except ValueError:
        return str(rules_file)


def log_rules_file(log_path: str | Path, rules: RuleSet) -> str | None:
    """The rules file to write beside a hand log at ``log_path``, or None when it needs none.

    A log names its rules. When they are exactly a shipped preset, the log names the
    preset; otherwise (a rules file, or a preset with fields changed) they are saved as
    ``<log>.rules.toml`` and the log names that file by :func:`rules_reference`, so that
    the log is scored under the same rules from any folder.
    """
    if rules.name not in preset_names() or load_preset(rules.name) != rules:
        return f"{log_path}.rules.toml"
    return None


def _short(text: str, limit: int = 60) -> str:
    return shown(text, limit)


def write_log(path: str | Path, logs: Iterable[HandLog]) -> None:
    """Write hand logs to a file, one JSON line each, whole or not at all
    (:func:`spades_sim.outputs.atomic_path`)."""
    with atomic_path(path, "log") as temporary, open(temporary, "w", encoding="utf-8") as out:
        for log in logs:
            out.write(log.dumps() + "\n")

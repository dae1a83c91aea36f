"""Replaying and checking hand logs (docs/hand-log.md) through the referee.

:func:`replay_hand` plays one logged hand move by move through a
:class:`~spades_sim.referee.hand.Hand` and compares every recorded field with the
referee's own computation; :func:`score_file` does so for every line of a file,
carrying score and bags through each game and applying the end of the game;
:func:`scored_frame` turns what it scored into a table; :func:`logged_hands` gives each
checked hand with the state it was played from, for readers that replay the moves themselves.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from spades_sim.referee.game import Game
from spades_sim.referee.hand import Hand, Phase, _check_sides
from spades_sim.referee.handlog import (
    RESULT_FIELDS,
    HandLog,
    HandResult,
    LogError,
    Trick,
    log_rules,
    parse_action,
    read_log,
    trick_to_json,
)
from spades_sim.referee.scoring import BidValue, _bid_name, _zeros
from spades_sim.rules import RuleSet

if TYPE_CHECKING:  # pandas only for the table of scored hands, imported when it is made
    import pandas as pd

_T = TypeVar("_T")


def replay_hand(
    rules: RuleSet,
    log: HandLog,
    score_before: Sequence[int] | None = None,
    bags_before: Sequence[int] | None = None,
    hand_index: int | None = None,
) -> tuple[HandResult, tuple[Trick, ...]]:
    """Replay a logged hand through the referee and check what the log records.

    ``score_before``, ``bags_before`` and ``hand_index`` are the values carried
    from earlier hands; when given, the log's own fields (if present) must
    equal them; when None, the log's fields are used (default 0).

    Returns
    -------
    (HandResult, tuple of Trick)
        The referee's result and tricks.

    Raises
    ------
    IllegalMove
        An action the rules do not allow.
    LogError
        An unfinished hand, or a recorded field (``tricks``, ``result``,
        ``score_before``, ...) that differs from the referee's; the message
        names the field and both values.
    """
    hand = _replay(rules, log, score_before, bags_before, hand_index)
    return hand.result, tuple(hand.tricks)


def _replay(
    rules: RuleSet,
    log: HandLog,
    score_before: Sequence[int] | None,
    bags_before: Sequence[int] | None,
    hand_index: int | None,
) -> Hand:
    carried_score = None if score_before is None else tuple(score_before)
    carried_bags = None if bags_before is None else tuple(bags_before)
    hand = Hand(
        rules,
        log.dealer,
        log.hands,
        _carried("score_before", log.score_before, carried_score, _zeros(rules)),
        _carried("bags_before", log.bags_before, carried_bags, _zeros(rules)),
        _carried("hand", log.hand, hand_index, 0),
        log.discards,
    )
    for text in log.actions:
        hand.apply(parse_action(text))
    if hand.phase != Phase.SCORE:
        step = hand.waiting_for()
        if hand.phase == Phase.PLAY:
            step += f" to trick {hand.trick_number}"
        raise LogError(f"actions: the hand is unfinished after {len(log.actions)} actions ({step})")
    _check_recorded(hand, log)
    return hand


def _carried(name: str, logged: _T | None, carried: _T | None, default: _T) -> _T:
    """The value a hand starts from: the one carried from earlier hands, which the log must agree with."""
    if carried is None:
        return default if logged is None else logged
    if logged is not None and logged != carried:
        raise LogError(f"{name}: log says {_shown(logged)}, referee carries {_shown(carried)}")
    return carried


def _shown(value: object) -> str:
    return json.dumps(list(value) if isinstance(value, tuple) else value)


def _check_recorded(hand: Hand, log: HandLog) -> None:
    # Equal records are equal in every field a log writes (card ids name cards one to one), so
    # the field by field comparison below runs only to name a difference.
    if log.tricks is not None and log.tricks != tuple(hand.tricks):
        if len(log.tricks) != len(hand.tricks):
            raise LogError(f"tricks: log has {len(log.tricks)} tricks, referee computes {len(hand.tricks)}")
        for index, (logged, computed) in enumerate(zip(log.tricks, hand.tricks, strict=True)):
            logged_json, computed_json = trick_to_json(logged), trick_to_json(computed)
            for key in logged_json:
                if logged_json[key] != computed_json[key]:
                    raise LogError(
                        f"tricks[{index}].{key}: log says {_shown(logged_json[key])}, "
                        f"referee computes {_shown(computed_json[key])}"
                    )
    if log.result is not None and log.result != hand.result:
        for name in RESULT_FIELDS:
            logged_value, computed_value = getattr(log.result, name), getattr(hand.result, name)
            if logged_value != computed_value:
                raise LogError(
                    f"result.{name}: log says {_shown(logged_value)}, "
                    f"referee computes {_shown(computed_value)}"
                )


@dataclass(frozen=True)
class ScoredHand:
    """One hand of a log file as the referee scored it."""

    line_number: int
    """The line of the file, from 1."""
    game: int | None
    """The game id of the line, or None for a standalone hand."""
    hand: int
    """The hand's index in its game."""
    dealer: int
    """The dealer's seat."""
    bids: tuple[BidValue, ...]
    """Each seat's bid: tricks (0 is nil) or ``"bn"`` for blind nil."""
    result: HandResult
    """The referee's result."""
    game_winner: int | None
    """The side that won the game with this hand, or None."""


@dataclass
class _GameTrack:
    """The game that score_file is in the middle of."""

    game_id: int | None
    rules_text: str
    game: Game
    closed_note: str | None = None  # why no further hand may follow, once it may not


def scored_frame(scored: list[ScoredHand]) -> pd.DataFrame:
    """The hands :func:`score_file` scored as a table: ``line``, ``game``, ``hand``,
    ``dealer``, per seat ``bid_k`` (``nil``, ``blind nil`` or the number) and ``tricks_k``, per side
    ``points_k``, ``score_k`` and ``bags_k`` (the bag total after the hand), and
    ``game_winner`` (empty while the game goes on)."""
    import pandas as pd

    rows = []
    for hand in scored:
        row: dict[str, object] = {"line": hand.line_number, "game": hand.game,
                                  "hand": hand.hand, "dealer": hand.dealer}
        row.update({f"bid_{k}": _bid_name(bid) for k, bid in enumerate(hand.bids)})
        row.update({f"tricks_{k}": t for k, t in enumerate(hand.result.tricks)})
        for name, values in (("points", hand.result.points), ("score", hand.result.score),
                             ("bags", hand.result.bag_total)):
            row.update({f"{name}_{k}": v for k, v in enumerate(values)})
        row["game_winner"] = hand.game_winner
        rows.append(row)
    frame = pd.DataFrame(rows)
    for column in ("game", "game_winner"):
        if column in frame:
            frame[column] = frame[column].astype("Int64")
    return frame


def score_file(path: str | Path, rules: RuleSet | None = None) -> list[ScoredHand]:
    """Replay every hand of a hand-log file and check every recorded field.

    Consecutive lines with the same non-null ``game`` are one game: score and
    bags carry over, ``hand`` counts up by one, the deal passes clockwise, and
    no hand may follow the end of the game. A line without ``game`` is a
    standalone hand from its own ``score_before``/``bags_before`` (default 0).

    Parameters
    ----------
    path : str or Path
        The JSONL hand-log file.
    rules : RuleSet, optional
        Rules for every line; by default each line's ``rules`` field, resolved
        with :func:`spades_sim.referee.handlog.log_rules` (a file relative to the log's folder).

    Raises
    ------
    LogError
        On the first problem, with the message prefixed ``line N:``.
    """
    return [scored for scored, _ in _score(path, rules)]


@dataclass(frozen=True)
class LoggedHand:
    """One hand of a log file checked by the referee, with what it was played from: enough to
    replay it move by move (:meth:`start`, then ``log.actions``)."""

    line_number: int
    """The line of the file, from 1."""
    log: HandLog
    """The line as read."""
    rules: RuleSet
    """The rules it was played under."""
    score_before: tuple[int, ...]
    """Each side's score before the hand (carried through its game)."""
    bags_before: tuple[int, ...]
    """Each side's bags carried into the hand."""
    hand_index: int
    """The hand's index in its game."""
    scored: ScoredHand
    """What the referee scored."""

    def start(self) -> Hand:
        """A fresh referee hand as dealt, ready for the line's actions."""
        return Hand(self.rules, self.log.dealer, self.log.hands, self.score_before,
                    self.bags_before, self.hand_index, self.log.discards)


def logged_hands(path: str | Path, rules: RuleSet | None = None) -> list[LoggedHand]:
    """Every hand of a hand-log file, checked as :func:`score_file` checks it, with the rules,
    score, bags and hand index each was played from (so that another reader can replay the
    moves without carrying the games itself).

    :raises LogError: as :func:`score_file`.
    """
    return [logged for _, logged in _score(path, rules)]


def _score(path: str | Path, rules: RuleSet | None) -> list[tuple[ScoredHand, LoggedHand]]:
    """What :func:`score_file` and :func:`logged_hands` return, line by line."""
    scored: list[tuple[ScoredHand, LoggedHand]] = []
    track: _GameTrack | None = None
    games_seen: dict[int, int] = {}  # game id -> the line that started it
    rules_cache: dict[str, RuleSet] = {}
    for line_number, log in read_log(path):
        try:
            continuing = track is not None and log.game is not None and track.game_id == log.game
            if not continuing:
                if log.game is not None and log.game in games_seen:
                    raise LogError(
                        f"game={log.game}: already played from line {games_seen[log.game]}: "
                        "the hands of a game must be consecutive lines"
                    )
                if log.game is not None:
                    games_seen[log.game] = line_number
                if rules is None and log.rules not in rules_cache:
                    rules_cache[log.rules] = log_rules(log.rules, path)
                game_rules = rules or rules_cache[log.rules]
                game = Game(
                    game_rules,
                    log.dealer,
                    # Checked here so that a message names the log's field.
                    _check_sides(game_rules, "score_before", log.score_before, minimum=None),
                    _check_sides(game_rules, "bags_before", log.bags_before, minimum=0),
                    log.hand or 0,
                    _check_sides(game_rules, "sets_before", log.sets_before, minimum=0),
                )
                track = _GameTrack(log.game, log.rules, game)
            assert track is not None
            _check_continuation(track, log, rules is None)
            _carried("sets_before", log.sets_before, track.game.sets, track.game.sets)
            hand = _replay(track.game.rules, log, track.game.score, track.game.bags, track.game.hand_index)
            winner = track.game.record(hand)
            _check_game_over(track, log, line_number)
        except LogError as error:
            raise error.at_line(line_number) from None
        except ValueError as error:  # IllegalMove, RulesError, CardError, deal errors
            raise LogError(str(error), line_number) from None
        done = ScoredHand(
            line_number=line_number,
            game=log.game,
            hand=hand.hand_index,
            dealer=hand.dealer_index,
            bids=tuple(bid for bid in hand.bids if bid is not None),
            result=hand.result,
            game_winner=winner,
        )
        scored.append((done, LoggedHand(line_number, log, track.game.rules, hand.score_before,
                                        hand.bags_before, hand.hand_index, done)))
    return scored


def _check_continuation(track: _GameTrack, log: HandLog, check_rules: bool) -> None:
    if track.closed_note is not None:
        raise LogError(f"game {track.game_id}: a hand after the game is over ({track.closed_note})")
    if check_rules and log.rules != track.rules_text:
        raise LogError(
            f"rules={log.rules!r}: allowed {track.rules_text!r}, the rules of the game's earlier hands"
        )
    track.game.verify_next(log.dealer)


def _check_game_over(track: _GameTrack, log: HandLog, line_number: int) -> None:
    winner = track.game.winner
    if log.game_over is not None:
        if log.game_over["winner"] != winner:
            computed = (
                json.dumps({"winner": winner})
                if winner is not None
                else f"the game goes on at {list(track.game.score)}"
            )
            raise LogError(f"game_over: log says {json.dumps(log.game_over)}, referee computes {computed}")
        track.closed_note = f"game_over at line {line_number}"
    elif winner is not None:
        track.closed_note = f"side {winner} won at line {line_number}"

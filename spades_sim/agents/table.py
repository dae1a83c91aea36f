"""The Python table: hands and whole games of any rules with any agent on each seat.

Every move goes through the referee (:class:`spades_sim.referee.Hand`, :class:`Game`), so
every move is checked; the deals are the kernel's (:mod:`spades_sim.agents.deals`), so hand
``h`` of game ``g`` under seed ``s`` holds the cards a simulation of the same seed deals there.
The table writes the hand-log format of docs/hand-log.md, which ``spades-sim score``,
``audit`` and ``review`` read.

A bot that returns an illegal move, raises, or takes longer than the time limit ends the game
in progress, and the run stops there: :attr:`TableRun.fault` says what happened in one line
(with the bot's own traceback when it raised), and every game finished before it is kept.

>>> from spades_sim.agents import RandomAgent, play_games
>>> run = play_games("standard", [RandomAgent()] * 4, 2, seed=1, max_hands=10)
>>> len(run.games), len(run.logs) <= 20, run.fault is None
(2, True, True)
"""

from __future__ import annotations

import dataclasses
import operator
import signal
import threading
import time
import traceback
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import FrameType, TracebackType
from typing import Any, Literal

import numpy as np

from ..cards import CardError, format_card, parse_card
from ..kernel.packing import pack_rules
from ..outputs import shown
from ..referee import Game, Hand, Phase
from ..referee.handlog import BLIND_NIL, HAND_CAP, STRATEGY_NAME_MOST, BlindCount, CardPass, HandLog
from ..referee.scoring import partner_of
from ..rules import Mode, RuleSet, resolve_rules
from ..run.handlogs import save_logs
from ..run.simulate import DEFAULT_MAX_HANDS, MAX_HANDS_CAP, RunError, _check_count, resolve_seed
from . import deals
from .observation import YES_NO, Decision, Observation
from .protocol import Agent, AgentError, agent_name, missing_methods

MAX_TABLE_COUNT = 10**7
"""The most hands or games one table run plays (Python plays a few hundred hands a second)."""
MAX_TIME_LIMIT = 3600
"""The longest time limit of one decision, in seconds."""

FaultKind = Literal["illegal", "raised", "timeout"]
"""How a bot stopped a run: an illegal move, an exception, or a decision over the time limit."""


@dataclass(frozen=True)
class BotFault:
    """A bot that stopped the run: who, in which decision, what it did and what was legal."""

    kind: FaultKind
    """``"illegal"``, ``"raised"`` or ``"timeout"``."""
    seat: int
    """The bot's seat."""
    bot: str
    """The bot's name."""
    decision: Decision
    """The decision it was asked for."""
    game: int
    """The game (for a run of single hands, the hand) in which it happened; that game is not
    kept."""
    hand: int
    """The hand's number in that game."""
    legal: tuple[str, ...]
    """The legal moves, as text (card names for a card)."""
    move: str | None = None
    """The move returned, as text (None when the bot raised or ran out of time)."""
    message: str = ""
    """The one line that says all of the above."""
    traceback: str | None = None
    """The bot's own traceback, when it raised."""


@dataclass(frozen=True)
class TableGame:
    """One finished game (or, in a run of single hands, one hand) of a table run."""

    game: int
    """The game's number: its deals are the kernel's deals of this game under the run's seed."""
    first_dealer: int
    """The dealer of its first hand."""
    logs: tuple[HandLog, ...]
    """Its hands, as hand-log lines naming each seat's agent."""
    winner: int | None
    """The winning side; None for a game stopped unfinished at the hand cap, or a single hand."""

    @property
    def score(self) -> tuple[int, ...]:
        """Each side's score at the end."""
        result = self.logs[-1].result
        assert result is not None
        return result.score


@dataclass
class TableRun:
    """What a table run played: its finished games, and what stopped it early, if anything."""

    rules: RuleSet
    """The rules played."""
    names: tuple[str, ...]
    """The agent at each seat, by name."""
    seed: int
    """The seed of the deals (and of the seats' random keys)."""
    kind: Literal["hands", "games"]
    """Single hands (hand 0 of games 0, 1, …, as a hand run of the kernel) or whole games."""
    games: list[TableGame] = field(default_factory=list)
    """Every finished game (or hand), in order; a game a bot stopped is not among them."""
    fault: BotFault | None = None
    """The bot that stopped the run, or None."""
    interrupted: bool = False
    """Whether Ctrl-C stopped the run (the games finished before it are kept)."""

    @property
    def logs(self) -> list[HandLog]:
        """Every hand of the finished games, as hand-log lines, in order."""
        return [log for game in self.games for log in game.logs]

    def write_log(self, path: str) -> str | None:
        """Write every finished hand to ``path`` as a hand log (docs/hand-log.md), whole or not
        at all; returns the rules file written beside it, or None when the log names a preset."""
        return save_logs(path, self.rules, self.logs)


class _Stopped(Exception):
    """A bot stopped the game in progress."""

    def __init__(self, fault: BotFault) -> None:
        super().__init__(fault.message)
        self.fault = fault


class _DecisionTimeout(BaseException):
    """Raised inside a bot's decision when its time is up (a BaseException, so that a bot's
    ``except Exception`` does not swallow it)."""


class _Clock:
    """The time limit of one decision: measured after it returns, and, where an alarm signal
    can be set (Unix, the main thread), also cut short when it runs over, so a bot that never
    returns is stopped too."""

    def __init__(self, limit: float | None) -> None:
        self.limit = limit
        self.alarm = (limit is not None and hasattr(signal, "setitimer")
                      and threading.current_thread() is threading.main_thread())
        self._active = False

    def _expire(self, signum: int, frame: FrameType | None) -> None:
        if self._active:  # an alarm that arrives after the decision returned is ignored
            raise _DecisionTimeout

    @contextmanager
    def installed(self) -> Iterator[None]:
        """The alarm handler in place for a run (the previous one restored after)."""
        if not self.alarm:
            yield
            return
        previous = signal.signal(signal.SIGALRM, self._expire)
        try:
            yield
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)

    def call(self, method: Callable[[Observation], Any], observation: Observation) -> tuple[Any, float]:
        """The decision's move and the seconds it took; raises _DecisionTimeout when cut short."""
        start = time.perf_counter()
        if self.alarm:
            assert self.limit is not None
            self._active = True
            signal.setitimer(signal.ITIMER_REAL, self.limit)
        try:
            move = method(observation)
        finally:
            if self.alarm:
                self._active = False
                signal.setitimer(signal.ITIMER_REAL, 0)
        return move, time.perf_counter() - start


def legal_bids(hand: Hand, seat: int) -> tuple[int, ...]:
    """The bids ``seat`` may make now in ``hand`` (0 is nil), lowest first."""
    rules = hand.rules
    return tuple(bid for bid in range(rules.min_bid, rules.hand_size + 1) if hand.can_bid(seat, bid))


def hand_observation(decision: Decision, seat: int, hand: Hand, game: int, hand_number: int,
                     dealer: int, score: tuple[int, ...], bags: tuple[int, ...], key: int,
                     legal: tuple[int, ...], discards: tuple[int, ...] = (),
                     sets: tuple[int, ...] = ()) -> Observation:
    """What ``seat`` knows when asked for ``decision`` in the referee's ``hand`` (after any
    draw): the one place an observation is read off a hand, for the table and the OpenSpiel
    bridge (:mod:`spades_sim.agents.openspiel`)."""
    rules = hand.rules
    bids = hand.bids
    passed: tuple[int, ...] = ()
    received: tuple[int, ...] = ()
    if (rules.blind_nil_pass or rules.nil_pass) and hand.phase is not Phase.BID:
        passes = [op for op in hand.operations if isinstance(op, CardPass)]
        passed = tuple(op.card for op in passes if op.seat_index == seat)
        received = tuple(op.card for op in passes if partner_of(rules, op.seat_index) == seat)
    return Observation(
        decision, rules, seat, dealer, game, hand_number,
        hand=() if decision in (Decision.BLIND_NIL, Decision.BLIND_BID) else hand.holding(seat),
        bids=tuple(None if bid is None else 0 if bid == BLIND_NIL else int(bid) for bid in bids),
        blind=tuple(bid == BLIND_NIL for bid in bids), first_bidder=hand.first_bidder_index,
        passed=passed, received=received, tricks=tuple(hand.tricks), trick=hand.trick_cards,
        leader=hand.leader_index, tricks_taken=hand.tricks_taken,
        spades_broken=hand.spades_broken_status, score=score, bags=bags, legal=legal,
        discards=discards, random_key=key,
        blind_bids=(tuple(isinstance(bid, BlindCount) for bid in bids)
                    if any(isinstance(bid, BlindCount) for bid in bids) else ()),
        sets=sets if rules.sets_to_lose else ())


def legal_blind_bids(hand: Hand, seat: int) -> tuple[int, ...]:
    """The numbers ``seat`` may bid blind now in ``hand``, lowest first (empty: none)."""
    rules = hand.rules
    if rules.blind_bid_threshold is None:
        return ()
    return tuple(count for count in range(rules.blind_bid_min, rules.hand_size + 1)
                 if hand.can_blind_bid(seat, count))


def _bot_frames(error: BaseException) -> TracebackType | None:
    """The traceback of an exception a bot raised, from the bot's own first frame: the table's
    frames above it are the table's business, not the bot author's."""
    tb = error.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename == __file__:
        tb = tb.tb_next
    return tb


def _log_name(name: str) -> str:
    """A name as a log's ``strategies`` field takes it: printable, trimmed, not too long."""
    text = "".join(char if char.isprintable() else "?" for char in name).strip() or "agent"
    return shown(text, STRATEGY_NAME_MOST)


def _move_text(move: Any, decision: Decision) -> str:
    if decision in (Decision.PASS, Decision.PLAY) and type(move) is int and 0 <= move <= 53:
        return format_card(move)
    return shown(repr(move) if not isinstance(move, str) else move, 60)


def _normalised(move: Any, decision: Decision) -> Any:
    """A move as the referee takes it: a card name becomes its id, numpy numbers plain ones;
    anything that is no move of the decision's kind comes back unchanged (and is refused)."""
    if decision in (Decision.BLIND_NIL, Decision.DRAW):
        if isinstance(move, (bool, np.bool_)) or (type(move) is int and move in (0, 1)):
            return bool(move)
        return move
    if decision in (Decision.PASS, Decision.PLAY) and isinstance(move, str):
        try:
            return parse_card(move)
        except CardError:
            return move
    if isinstance(move, (bool, np.bool_)):
        return move
    try:
        return operator.index(move)
    except TypeError:
        return move


class Table:
    """One agent on each seat, playing the kernel's deals of ``seed`` through the referee.

    Parameters
    ----------
    rules : RuleSet
        The rules played (any mode and deck).
    agents : sequence of Agent
        One per seat; the same agent may sit at several seats (each observation names its seat).
    seed : int
        The deals' seed: hand ``h`` of game ``g`` is the kernel's deal there.
    names : sequence of str, optional
        Each seat's name in logs and messages (default: each agent's ``name`` or class).
    time_limit : float, optional
        Seconds one decision may take; a bot over it stops the run (:class:`BotFault`).
    """

    def __init__(self, rules: RuleSet, agents: Sequence[Agent], seed: int,
                 names: Sequence[str] | None = None, time_limit: float | None = None) -> None:
        self.rules = rules
        self.packed = pack_rules(rules)
        self.agents = tuple(agents)
        self.names = tuple(_log_name(name) for name in (names or [agent_name(a) for a in agents]))
        self.seed = seed
        self.clock = _Clock(time_limit)
        self._n = rules.seat_count
        self._kind: Literal["hands", "games"] = "games"
        self._seen: list[tuple[int, ...]] = []  # two-player: the discards each seat saw
        self._sets: tuple[int, ...] = ()  # each side's sets before the hand (sets_to_lose)

    # --- one decision ---

    def _ask(self, decision: Decision, seat: int, observation: Observation) -> Any:
        """The agent's move, checked against ``observation.legal``; raises _Stopped otherwise."""
        method = getattr(self.agents[seat], decision.value)
        legal = observation.legal
        try:
            move, seconds = self.clock.call(method, observation)
        except _DecisionTimeout:
            raise self._stop("timeout", decision, seat, observation,
                             f"{decision} took more than {self.clock.limit:g} s: allowed at most "
                             f"{self.clock.limit:g} s (time_limit)") from None
        except (Exception, SystemExit) as error:  # a bot's sys.exit() is its fault, not the run's end
            text = "".join(traceback.format_exception(type(error), error, _bot_frames(error)))
            kind = type(error).__name__
            raise self._stop("raised", decision, seat, observation,
                             f"{decision} raised {kind}; the bot's traceback follows",
                             trace=text) from None
        if self.clock.limit is not None and seconds > self.clock.limit:
            raise self._stop("timeout", decision, seat, observation,
                             f"{decision} took {seconds:.3g} s: allowed at most "
                             f"{self.clock.limit:g} s (time_limit)")
        chosen = _normalised(move, decision)
        if type(chosen) not in (int, bool) or chosen not in legal or (
                type(chosen) is bool) != (decision in (Decision.BLIND_NIL, Decision.DRAW)):
            shown_move = _move_text(chosen, decision)
            raise self._stop("illegal", decision, seat, observation,
                             f"{decision}={shown_move!r}: allowed "
                             f"{' '.join(observation.legal_names)}", move=shown_move)
        return chosen

    def _stop(self, kind: FaultKind, decision: Decision, seat: int, observation: Observation,
              what: str, move: str | None = None, trace: str | None = None) -> _Stopped:
        where = (f"game {observation.game}, hand {observation.hand_number}"
                 if self._kind == "games" else f"hand {observation.game}")
        message = f"seat {seat} (bot {self.names[seat]!r}, {where}): {what}"
        return _Stopped(BotFault(kind, seat, self.names[seat], decision, observation.game,
                                 observation.hand_number, observation.legal_names, move, message,
                                 trace))

    # --- one hand ---

    def _observe(self, decision: Decision, seat: int, hand: Hand | None, game: int, hand_number: int,
                 dealer: int, score: tuple[int, ...], bags: tuple[int, ...], key: int,
                 legal: tuple[int, ...], **draw: Any) -> Observation:
        """What ``seat`` knows now (``hand`` None: during the draw, before the hand exists)."""
        if hand is None:
            n = self._n
            return Observation(decision, self.rules, seat, dealer, game, hand_number,
                               hand=tuple(sorted(draw["kept"])), bids=(None,) * n,
                               blind=(False,) * n, first_bidder=draw["first"], passed=(),
                               received=(), tricks=(), trick=(), leader=draw["first"],
                               tricks_taken=(0,) * n, spades_broken=False, score=score, bags=bags,
                               legal=legal, drawn=draw["drawn"],
                               discards=tuple(sorted(draw["seen"])), random_key=key)
        return hand_observation(decision, seat, hand, game, hand_number, dealer, score, bags, key,
                                legal, self._seen[seat] if self._seen else (), self._sets)

    def _draw(self, game: int, hand_number: int, dealer: int, score: tuple[int, ...],
              bags: tuple[int, ...], keys: tuple[int, ...]
              ) -> tuple[list[list[int]], list[list[int]]]:
        """Two-player: the keep-or-discard draw from the kernel's stock; kept and discarded
        cards per seat (docs/scoring.md "The two-player draw")."""
        stock = deals.draw_stock(self.packed, self.seed, game, hand_number)
        first = deals.first_drawer(self.packed, dealer)
        kept: list[list[int]] = [[], []]
        discarded: list[list[int]] = [[], []]
        seen: list[list[int]] = [[], []]
        for turn in range(len(stock) // 2):
            seat = (first + turn) % 2
            top, below = stock[2 * turn], stock[2 * turn + 1]
            observation = self._observe(Decision.DRAW, seat, None, game, hand_number, dealer, score,
                                        bags, keys[seat], YES_NO, kept=kept[seat], first=first,
                                        drawn=top, seen=seen[seat])
            if self._ask(Decision.DRAW, seat, observation):
                kept[seat].append(top)
                discarded[seat].append(below)
                if self.rules.draw_second_card_seen:
                    seen[seat].append(below)
            else:
                kept[seat].append(below)
                discarded[seat].append(top)
                seen[seat].append(top)
        self._seen = [tuple(sorted(cards)) for cards in seen]
        return kept, discarded

    def _play_hand(self, game: int, hand_number: int, dealer: int, score: tuple[int, ...],
                  bags: tuple[int, ...]) -> Hand:
        """Play hand ``hand_number`` of ``game`` from ``score`` and ``bags``; return it scored.

        :raises _Stopped: a bot stopped it.
        """
        keys = deals.seat_keys(self.seed, game, hand_number, self._n)
        self._seen = []
        discards = None
        if self.rules.mode == Mode.TWO_PLAYER:
            held, discards = self._draw(game, hand_number, dealer, score, bags, keys)
            dealt: Sequence[Sequence[int]] = held
        else:
            dealt = deals.dealt_hands(self.packed, self.seed, game, hand_number)
        hand = Hand(self.rules, dealer, dealt, score, bags, hand_number, discards)
        while hand.phase is not Phase.SCORE:
            seat = hand.turn_index
            assert seat is not None
            context = (hand, game, hand_number, dealer, score, bags, keys[seat])
            if hand.phase is Phase.PLAY:
                move = self._ask(Decision.PLAY, seat, self._observe(
                    Decision.PLAY, seat, *context, hand.legal_plays(seat)))
                hand.play(seat, move)
            elif hand.phase is Phase.BID:
                if hand.can_blind_nil(seat) and self._ask(Decision.BLIND_NIL, seat, self._observe(
                        Decision.BLIND_NIL, seat, *context, YES_NO)):
                    hand.blind_nil(seat)
                    continue
                counts = legal_blind_bids(hand, seat)
                if counts and hasattr(self.agents[seat], Decision.BLIND_BID.value):
                    count = self._ask(Decision.BLIND_BID, seat, self._observe(
                        Decision.BLIND_BID, seat, *context, (0, *counts)))
                    if count:
                        hand.blind_bid(seat, count)
                        continue
                legal = legal_bids(hand, seat)
                hand.bid(seat, self._ask(Decision.BID, seat, self._observe(
                    Decision.BID, seat, *context, legal)))
            else:
                move = self._ask(Decision.PASS, seat, self._observe(
                    Decision.PASS, seat, *context, hand.holding(seat)))
                hand.pass_card(seat, move)
        return hand

    # --- runs ---

    def _play_game(self, game: int, max_hands: int) -> TableGame:
        first = deals.first_dealer(self.seed, game, self._n)
        state = Game(self.rules, dealer=first)
        hands: list[Hand] = []
        sets: list[tuple[int, ...]] = []
        while not state.over and state.hand_index < max_hands:
            self._sets = state.sets
            sets.append(state.sets)
            hand = self._play_hand(game, state.hand_index, state.dealer_index, state.score, state.bags)
            state.record(hand)
            hands.append(hand)
        self._sets = ()
        over = ({"winner": state.winner} if state.winner is not None
                else {"winner": None, "reason": HAND_CAP})
        logs = tuple(HandLog.from_hand(hand, self.rules.name, game=game,
                                       game_over=over if k == len(hands) - 1 else None,
                                       sets_before=sets[k] if self.rules.sets_to_lose else None)
                     for k, hand in enumerate(hands))
        return TableGame(game, first, tuple(self._named(log) for log in logs), state.winner)

    def _play_single(self, game: int) -> TableGame:
        dealer = deals.first_dealer(self.seed, game, self._n)
        zeros = (0,) * self.rules.side_count
        hand = self._play_hand(game, 0, dealer, zeros, zeros)
        return TableGame(game, dealer, (self._named(HandLog.from_hand(hand, self.rules.name)),), None)

    def _named(self, log: HandLog) -> HandLog:
        return dataclasses.replace(log, strategies=self.names)

    def run(self, kind: Literal["hands", "games"], games: range, max_hands: int = DEFAULT_MAX_HANDS,
            on_game: Callable[[TableGame], None] | None = None) -> TableRun:
        """Play ``games`` (each a whole game, or its first hand when ``kind`` is "hands").

        A bot fault or Ctrl-C stops the run; the games finished before it are kept.
        """
        self._kind = kind
        result = TableRun(self.rules, self.names, self.seed, kind)
        with self.clock.installed():
            try:
                for game in games:
                    played = (self._play_game(game, max_hands) if kind == "games"
                              else self._play_single(game))
                    result.games.append(played)
                    if on_game is not None:
                        on_game(played)
            except _Stopped as stop:
                result.fault = stop.fault
            except KeyboardInterrupt:
                result.interrupted = True
        return result


AgentSource = Agent | Callable[[], Agent] | str
"""An agent, a class or function of no arguments that makes one (one for each seat), or the
name of a built-in agent (:func:`spades_sim.agents.agent`)."""


def seat_agent(source: AgentSource) -> Agent:
    """An agent for one seat: ``source`` itself when it is an agent, else what it makes.

    :raises AgentError: an unknown name, something that is neither an agent nor makes one.
    """
    if isinstance(source, str):
        from .registry import agent  # the registry imports the kernel's agents, which import this

        return agent(source)
    if not isinstance(source, type) and not missing_methods(source):
        return source  # type: ignore[return-value]
    if not callable(source):
        raise AgentError("agent", shown(repr(source), 60),
                         "an agent, a class or function making one, or a built-in agent's name")
    made = source()
    missing = missing_methods(made)
    if missing:
        raise AgentError("agent", type(made).__name__, f"an agent: it lacks {', '.join(missing)}")
    return made


def source_name(source: AgentSource) -> str:
    """The name of an agent, or of the agents a class or function makes (its ``name``
    attribute, else the class's or function's name)."""
    if isinstance(source, str):
        return source
    if not isinstance(source, type) and not missing_methods(source):
        return agent_name(source)
    name = getattr(source, "name", None)
    return name if isinstance(name, str) and name.strip() else getattr(source, "__name__", "agent")


def check_settings(kind: Literal["hands", "games"], count: int, max_hands: int,
                   time_limit: float | None) -> None:
    """A table run's settings: ``count`` hands or games (``kind``), the hand cap, the time
    limit.

    :raises RunError: one of them out of range.
    """
    _check_count(kind, count, MAX_TABLE_COUNT)
    _check_count("max_hands", max_hands, MAX_HANDS_CAP)
    if time_limit is not None and (isinstance(time_limit, bool) or not isinstance(time_limit, (int, float))
                                   or not 0 < time_limit <= MAX_TIME_LIMIT):
        raise RunError(f"time_limit={time_limit!r}: allowed seconds above 0, at most "
                       f"{MAX_TIME_LIMIT:,}")


def check_duplicate(rules: RuleSet, games: int, max_hands: int, time_limit: float | None,
                    kind: Literal["hands", "games"] = "games") -> None:
    """A duplicate comparison's table and settings (:func:`play_duplicate`), checked before
    anything is played or printed.

    :raises RunError: a table of more than two sides, or a setting out of range.
    """
    if rules.side_count != 2:
        raise RunError(f"rules mode={str(rules.mode)!r}: allowed a two-sided table (partnership"
                       " or two-player) for a duplicate comparison")
    check_settings(kind, games, max_hands, time_limit)


def _check_run(rules: RuleSet, agents: Sequence[Agent], kind: Literal["hands", "games"], count: int,
               max_hands: int, time_limit: float | None) -> None:
    """Every setting of a table run, before anything is played."""
    if len(agents) != rules.seat_count:
        raise AgentError("agents", f"{len(agents)} agents",
                         f"{rules.seat_count}, one per seat of mode={str(rules.mode)!r}")
    for seat, agent in enumerate(agents):
        missing = missing_methods(agent)
        if missing:
            raise AgentError(f"agents[{seat}]", type(agent).__name__,
                             f"an agent: it lacks {', '.join(missing)}")
    check_settings(kind, count, max_hands, time_limit)


def _table_run(kind: Literal["hands", "games"], rules: str | RuleSet, agents: Sequence[Agent],
               count: int, seed: int | None, names: Sequence[str] | None, time_limit: float | None,
               max_hands: int, on_game: Callable[[TableGame], None] | None) -> TableRun:
    resolved = resolve_rules(rules)
    _check_run(resolved, agents, kind, count, max_hands, time_limit)
    if names is not None and len(names) != len(agents):
        raise AgentError("names", f"{len(names)} names", f"{len(agents)}, one per seat")
    table = Table(resolved, agents, resolve_seed(seed), names, time_limit)
    return table.run(kind, range(count), max_hands, on_game)


def play_hands(rules: str | RuleSet, agents: Sequence[Agent], hands: int, seed: int | None = None,
               *, names: Sequence[str] | None = None, time_limit: float | None = None,
               on_game: Callable[[TableGame], None] | None = None) -> TableRun:
    """Play ``hands`` single hands, each from 0-0: hand ``i`` is the first hand of the kernel's
    game ``i`` under ``seed`` (as in a hand run of ``simulate``). ``rules``: a preset name, a
    rules file's path or a :class:`RuleSet`; ``agents``: one per seat. A new random seed when
    ``seed`` is None (:attr:`TableRun.seed` says which)."""
    return _table_run("hands", rules, agents, hands, seed, names, time_limit, DEFAULT_MAX_HANDS,
                      on_game)


def play_games(rules: str | RuleSet, agents: Sequence[Agent], games: int, seed: int | None = None,
               *, names: Sequence[str] | None = None, time_limit: float | None = None,
               max_hands: int = DEFAULT_MAX_HANDS,
               on_game: Callable[[TableGame], None] | None = None) -> TableRun:
    """Play ``games`` whole games (each stopped unfinished after ``max_hands`` hands), the
    kernel's games 0, 1, … of ``seed``; as :func:`play_hands` otherwise."""
    return _table_run("games", rules, agents, games, seed, names, time_limit, max_hands, on_game)


@dataclass
class DuplicateRun:
    """Two table runs of the same deals with the sides swapped: A on side 0, then on side 1,
    game by game, so that a stop keeps every pair finished before it."""

    a_first: TableRun
    """A on side 0 (seats 0 and 2 in partnership, seat 0 in two-player), B on side 1."""
    b_first: TableRun
    """B on side 0 and A on side 1."""

    @property
    def pairs(self) -> int:
        """Deal sequences played both ways."""
        return min(len(self.a_first.games), len(self.b_first.games))

    @property
    def fault(self) -> BotFault | None:
        """The bot that stopped the comparison, or None."""
        return self.a_first.fault or self.b_first.fault

    @property
    def interrupted(self) -> bool:
        """Whether Ctrl-C stopped the comparison."""
        return self.a_first.interrupted or self.b_first.interrupted


def play_duplicate(rules: str | RuleSet, a: AgentSource, b: AgentSource, games: int,
                   seed: int | None = None, *, names: tuple[str, str] | None = None,
                   time_limit: float | None = None, max_hands: int = DEFAULT_MAX_HANDS,
                   kind: Literal["hands", "games"] = "games",
                   on_game: Callable[[TableGame], None] | None = None) -> DuplicateRun:
    """Play the same ``games`` deal sequences twice, A on side 0 and A on side 1.

    Needs a two-sided table (partnership or two-player). ``a`` and ``b``: an agent (seated at
    both of its side's seats) or a class or function making one (one agent per seat). Both
    runs share one seed, so they see the same deals; each game is played both ways before the
    next, so a bot fault or Ctrl-C keeps every pair finished before it.
    """
    resolved = resolve_rules(rules)
    check_duplicate(resolved, games, max_hands, time_limit, kind)
    seed = resolve_seed(seed)
    label = names or (source_name(a), source_name(b))
    tables = []
    for order in ((0, 1), (1, 0)):
        chosen = [order[resolved.seat_side(seat)] for seat in range(resolved.seat_count)]
        seats = [seat_agent((a, b)[k]) for k in chosen]
        _check_run(resolved, seats, kind, games, max_hands, time_limit)
        tables.append(Table(resolved, seats, seed, [label[k] for k in chosen], time_limit))
    runs = [TableRun(resolved, table.names, seed, kind) for table in tables]
    for game in range(games):
        for table, run in zip(tables, runs, strict=True):
            part = table.run(kind, range(game, game + 1), max_hands, on_game)
            run.games += part.games
            run.fault, run.interrupted = part.fault, part.interrupted
            if part.fault is not None or part.interrupted:
                return DuplicateRun(*runs)
    return DuplicateRun(*runs)

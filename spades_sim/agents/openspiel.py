"""OpenSpiel both ways (docs/agents.md "OpenSpiel"); needs the ``openspiel`` extra.

- :class:`SpadesSimBot`: any spades-sim agent (every named strategy, any bot) as a
  ``pyspiel.Bot`` in OpenSpiel's own ``spades`` game (one hand an episode; cards are actions
  0-51, ``suit * 13 + rank`` as in spades-sim, bids are :data:`BID_ACTION` + tricks). The
  bot reads OpenSpiel's state into a referee hand under the ``openspiel`` preset, which plays
  OpenSpiel's rules exactly (seat 0 bids and leads first: dealer 3), and asks the agent with
  the :class:`~spades_sim.agents.Observation` the spades-sim table would give it.
- :class:`SpadesSimGame`: spades-sim's game registered in OpenSpiel as ``python_spades_sim``
  (:func:`register`), any partnership rules (blind nil and the joker decks included), single
  hands or whole games, so OpenSpiel's own algorithms (MCTS, IS-MCTS, ...) play them.
- :class:`OpenSpielAgent`: an OpenSpiel bot on :class:`SpadesSimGame` seated at spades-sim's
  table as an agent, to be measured against ``expert`` in duplicate.

This module imports ``pyspiel``; the rest of the package never imports it, so spades-sim works
without OpenSpiel installed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyspiel

from ..cards import format_card
from ..referee import Game, Hand, Phase
from ..referee.deck import deck_of
from ..referee.handlog import CardPass
from ..rules import Mode, RulesError, RuleSet, load_preset, resolve_rules
from . import deals
from .observation import Decision, Observation
from .protocol import Agent
from .registry import agent as named_agent
from .table import hand_observation, legal_bids

OPENSPIEL_RULES = "openspiel"
"""The preset that plays OpenSpiel's ``spades`` rules."""

OPENSPIEL_DEALER = 3
"""The dealer an OpenSpiel episode is read with: its left, seat 0, bids and leads first."""

SPIEL_DECK = 52
"""OpenSpiel ``spades`` deals 52 cards, card ``history[i]`` to seat ``i % 4``."""

BID_ACTION = 52
"""OpenSpiel ``spades``: the action of a bid of 0 (nil); a bid of b is ``BID_ACTION + b``."""


def _agent_of(agent: Agent | str) -> Agent:
    return named_agent(agent) if isinstance(agent, str) else agent


def deal_keys(seed: int, dealt: Sequence[int]) -> tuple[int, ...]:
    """Each seat's random key (:attr:`Observation.random_key`) for an OpenSpiel deal (its 52
    chance actions): the kernel's keys of a game numbered from a digest of the deal, so the
    same deal under the same seed gives the same keys, whatever was played before."""
    digest = hashlib.blake2b(bytes(dealt), digest_size=4).digest()
    game = int.from_bytes(digest, "little") & 0x7FFFFFFF
    return deals.seat_keys(seed, game, 0, 4)


class SpielHand:
    """A referee hand that follows an OpenSpiel ``spades`` episode action by action, under the
    ``openspiel`` preset (dealer 3), from the scores the game was loaded with."""

    def __init__(self, rules: RuleSet, score: tuple[int, int] = (0, 0), seed: int = 0) -> None:
        self.rules = rules
        self.score = score
        self.seed = seed
        # OpenSpiel reads a side's bags from its score's last digit.
        self.bags = tuple(abs(points) % 10 for points in score)
        self.history: list[int] = []
        self.hand: Hand | None = None
        self.keys: tuple[int, ...] = ()

    def follow(self, history: Sequence[int]) -> Hand:
        """The hand after ``history`` (OpenSpiel's actions from the start of the episode)."""
        if self.history != list(history[:len(self.history)]):
            self.history, self.hand = [], None
        for action in history[len(self.history):]:
            self._apply(int(action))
        assert self.hand is not None
        return self.hand

    def _apply(self, action: int) -> None:
        self.history.append(action)
        if len(self.history) == SPIEL_DECK:
            dealt = [sorted(self.history[seat::4]) for seat in range(4)]
            self.hand = Hand(self.rules, OPENSPIEL_DEALER, dealt, self.score, self.bags, 0)
            self.keys = deal_keys(self.seed, self.history)
            return
        if self.hand is None:
            return
        seat = self.hand.turn_index
        assert seat is not None
        if action >= BID_ACTION:
            self.hand.bid(seat, action - BID_ACTION)
        else:
            self.hand.play(seat, action)

    def observe(self, seat: int) -> Observation:
        """What ``seat``, to move, knows now."""
        hand = self.hand
        assert hand is not None
        if hand.phase is Phase.BID:
            decision, legal = Decision.BID, legal_bids(hand, seat)
        else:
            decision, legal = Decision.PLAY, hand.legal_plays(seat)
        return hand_observation(decision, seat, hand, 0, 0, OPENSPIEL_DEALER, self.score,
                                self.bags, self.keys[seat], legal)


def spiel_action(observation: Observation, move: Any) -> int:
    """A spades-sim move as an OpenSpiel ``spades`` action."""
    return BID_ACTION + int(move) if observation.decision is Decision.BID else int(move)


def spiel_scores(game: Any) -> tuple[int, int]:
    """The scores an OpenSpiel ``spades`` game was loaded with (its score parameters)."""
    params = game.get_parameters()
    return (int(params.get("score_partnership_0", 0)), int(params.get("score_partnership_1", 0)))


class SpadesSimBot(pyspiel.Bot):  # type: ignore[misc]  # pyspiel ships no type hints
    """A spades-sim agent as a bot in OpenSpiel's ``spades`` game.

    >>> import pyspiel
    >>> game = pyspiel.load_game("spades")
    >>> bots = [SpadesSimBot(game, seat, "expert") for seat in range(4)]

    ``agent`` is a built-in agent's name (``agent(name)``) or any agent. Each decision replays
    OpenSpiel's new actions into a referee hand under the ``openspiel`` preset and asks the
    agent with the observation the spades-sim table would give it; the move is always one of
    OpenSpiel's legal actions, as the preset plays its rules. ``seed`` keys the agent's random
    choices (with the deal), as the table's seed does.
    """

    def __init__(self, game: Any, player_id: int, agent: Agent | str, *, seed: int = 0) -> None:
        pyspiel.Bot.__init__(self)
        if game.get_type().short_name != "spades":
            raise RulesError("game", game.get_type().short_name, "OpenSpiel's 'spades'")
        self.player_id = player_id
        self.agent = _agent_of(agent)
        self.seed = seed
        self._hand = SpielHand(load_preset(OPENSPIEL_RULES), spiel_scores(game), seed)

    def observation(self, state: Any) -> Observation:
        """What the bot's seat knows in ``state``, as a spades-sim observation."""
        self._hand.follow(state.history())
        return self._hand.observe(int(state.current_player()))

    def step(self, state: Any) -> int:
        """The agent's move in ``state`` as an OpenSpiel action."""
        observation = self.observation(state)
        method = getattr(self.agent, str(observation.decision))
        return spiel_action(observation, method(observation))

    def restart_at(self, state: Any) -> None:
        """A new episode: nothing to reset (the hand follows each state's history)."""

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        """Another seat's action: read from the next state's history instead."""

    def provides_policy(self) -> bool:
        return False


# --- spades-sim's game in OpenSpiel ------------------------------------------------------------

GAME_NAME = "python_spades_sim"
"""The name :class:`SpadesSimGame` is registered under."""

MOST_CARDS = 54
"""Card actions 0-53: every card id (jokers 52 and 53)."""
BID_BASE = MOST_CARDS
"""A bid of b tricks is action ``BID_BASE + b`` (0 is nil)."""
BLIND_NIL_ACTION = BID_BASE + 14
"""Bid blind nil (asked before the cards are seen, when the rules allow it)."""
NO_BLIND_NIL_ACTION = BLIND_NIL_ACTION + 1
"""Decline blind nil and look at the cards."""
ACTION_COUNT = NO_BLIND_NIL_ACTION + 1

DEFAULT_MAX_HANDS = 40
"""Whole games: the hand cap, after which the higher score wins (ties: a draw)."""

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="spades-sim partnership Spades",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=4,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=False,
    parameter_specification={"rules": "standard", "whole_game": False,
                             "max_hands": DEFAULT_MAX_HANDS, "seed": 0})


def point_bound(rules: RuleSet) -> int:
    """A bound on how far one side's hand score can lead the other's (the returns of a hand)."""
    contract = max(10 * 2 * rules.hand_size, 200, 500 if rules.bid_thirteen != "off" else 0)
    nils = 2 * max(rules.nil_value, rules.blind_nil_value)
    bags = 2 * rules.hand_size + rules.bag_penalty * (1 + 2 * rules.hand_size // rules.bag_limit)
    return 2 * (contract + nils + bags)


@dataclass(frozen=True)
class GameSpec:
    """What a :class:`SpadesSimGame` was loaded with, as its states read it (a plain value:
    OpenSpiel copies states, and this is shared, not copied)."""

    rules: RuleSet
    whole_game: bool
    max_hands: int
    seed: int
    deck: tuple[int, ...]

    def __deepcopy__(self, memo: dict[int, Any]) -> GameSpec:
        return self


class SpadesSimGame(pyspiel.Game):  # type: ignore[misc]
    """spades-sim's partnership Spades as an OpenSpiel game.

    Parameters: ``rules`` (a partnership preset's name or a rules file, default ``standard``),
    ``whole_game`` (False: one hand an episode, returns each side's hand score less the other
    side's; True: a whole game, returns +1 to the winners and -1 to the losers, 0 each for a
    game still level at ``max_hands``), ``max_hands``, ``seed`` (the first dealer of a game).
    Actions: card ids 0-53 (a deal, a pass or a play), :data:`BID_BASE` + tricks,
    :data:`BLIND_NIL_ACTION` and :data:`NO_BLIND_NIL_ACTION`. Every move goes through the
    referee.
    """

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_GAME_TYPE.parameter_specification, **(params or {})}
        self.rules = resolve_rules(str(params["rules"]))
        if self.rules.mode != Mode.PARTNERSHIP:
            raise RulesError("rules", self.rules.name, "partnership rules")
        if self.rules.blind_bid_threshold == 0:
            # One hand from 0–0: only a threshold of 0 allows a blind bid, which has no action here.
            raise RulesError("blind_bid_threshold", 0, "left out or above 0 in OpenSpiel (a hand "
                             "played from 0–0 has no blind-bid action)")
        self.whole_game = bool(params["whole_game"])
        self.max_hands = int(params["max_hands"])
        self.seed = int(params["seed"])
        self.deck = tuple(sorted(deck_of(self.rules).cards))
        self.spec = GameSpec(self.rules, self.whole_game, self.max_hands, self.seed, self.deck)
        bound = 1.0 if self.whole_game else float(point_bound(self.rules))
        hands = self.max_hands if self.whole_game else 1
        info = pyspiel.GameInfo(
            num_distinct_actions=ACTION_COUNT, max_chance_outcomes=MOST_CARDS, num_players=4,
            min_utility=-bound, max_utility=bound, utility_sum=0.0,
            # A hand: its deal, a blind-nil question and a bid a seat, up to 16 passes (two
            # sides' exchanges of at most 4 cards each way), its plays.
            max_game_length=hands * (len(self.deck) + 4 * 2 + 4 * 4 + len(self.deck)))
        super().__init__(_GAME_TYPE, info, params)

    def new_initial_state(self) -> SpadesSimState:
        """A game (or hand) before its deal."""
        return SpadesSimState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> SpadesSimObserver:
        """Information-state and observation strings (what a seat has seen, in order)."""
        return SpadesSimObserver(iig_obs_type)


class SpadesSimState(pyspiel.State):  # type: ignore[misc]
    """A hand or game of :class:`SpadesSimGame`: the referee's ``Game`` and ``Hand``."""

    def __init__(self, game: SpadesSimGame) -> None:
        super().__init__(game)
        self.spec = game.spec
        first = int(deals.seat_keys(game.seed, 0, 0, 1)[0] % 4)
        self.match = Game(game.rules, dealer=first)
        self.hand: Hand | None = None
        self.dealt: list[int] = []
        self.asked_blind: set[int] = set()
        self.hand_points = (0, 0)
        self.moves: list[tuple[int, int]] = []
        """(player, action) of every move of this hand, chance (-1) included."""
        self.over = False

    # -- whose turn, and what may be done --

    def current_player(self) -> int:
        if self.over:
            return int(pyspiel.PlayerId.TERMINAL)
        if self.hand is None:
            return int(pyspiel.PlayerId.CHANCE)
        seat = self.hand.turn_index
        assert seat is not None
        return int(seat)

    def _legal_actions(self, player: int) -> list[int]:
        hand = self.hand
        assert hand is not None
        if hand.phase is Phase.PLAY:
            return sorted(hand.legal_plays(player))
        if hand.phase is Phase.BID:
            if player not in self.asked_blind and hand.can_blind_nil(player):
                return [BLIND_NIL_ACTION, NO_BLIND_NIL_ACTION]
            return [BID_BASE + bid for bid in legal_bids(hand, player)]
        return sorted(hand.holding(player))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        left = [card for card in self.spec.deck if card not in set(self.dealt)]
        return [(card, 1.0 / len(left)) for card in left]

    # -- moves --

    def _apply_action(self, action: int) -> None:
        player = self.current_player()
        self.moves.append((player, action))
        if self.hand is None:
            self._deal(action)
            return
        hand = self.hand
        if action == BLIND_NIL_ACTION:
            hand.blind_nil(player)
        elif action == NO_BLIND_NIL_ACTION:
            self.asked_blind.add(player)
        elif action >= BID_BASE:
            hand.bid(player, action - BID_BASE)
        elif hand.phase is Phase.PLAY:
            hand.play(player, action)
        else:
            hand.pass_card(player, action)
        if hand.phase is Phase.SCORE:
            self._end_hand(hand)

    def _deal(self, card: int) -> None:
        self.dealt.append(card)
        if len(self.dealt) < len(self.spec.deck):
            return
        dealer = self.match.dealer_index
        # Dealt one at a time from the dealer's left, as at a table.
        held: list[list[int]] = [[] for _ in range(4)]
        for index, dealt in enumerate(self.dealt):
            held[(dealer + 1 + index) % 4].append(dealt)
        self.hand = Hand(self.spec.rules, dealer, [sorted(cards) for cards in held],
                         self.match.score, self.match.bags, self.match.hand_index)

    def _end_hand(self, hand: Hand) -> None:
        before = self.match.score
        self.match.record(hand)
        after = self.match.score
        self.hand_points = (after[0] - before[0], after[1] - before[1])
        if not self.spec.whole_game or self.match.over or (
                self.match.hand_index >= self.spec.max_hands):
            self.over = True
            return
        self.hand, self.dealt, self.asked_blind, self.moves = None, [], set(), []

    def _action_to_string(self, player: int, action: int) -> str:
        if action < MOST_CARDS:
            return format_card(action) if player >= 0 else f"deal {format_card(action)}"
        if action == BLIND_NIL_ACTION:
            return "blind nil"
        if action == NO_BLIND_NIL_ACTION:
            return "look"
        return "nil" if action == BID_BASE else f"bid {action - BID_BASE}"

    def is_terminal(self) -> bool:
        return self.over

    def returns(self) -> list[float]:
        if not self.over:
            return [0.0] * 4
        if self.spec.whole_game:
            winner = self.match.winner
            return [0.0 if winner is None else (1.0 if seat % 2 == winner else -1.0)
                    for seat in range(4)]
        ours = self.hand_points
        return [float(ours[seat % 2] - ours[1 - seat % 2]) for seat in range(4)]

    def __str__(self) -> str:
        return " ".join(self._action_to_string(player, action) for player, action in self.moves)

    # -- what a seat knows --

    def seen_by(self, seat: int) -> str:
        """Everything ``seat`` has seen in this game, in order: the score, its own cards once
        dealt (not before a blind-nil question), every bid and play, the cards it passed and
        was passed (not the others')."""
        parts = [f"seat {seat} hand {self.match.hand_index} score {self.match.score} "
                 f"bags {self.match.bags}"]
        hand = self.hand
        if hand is not None:
            blind_pending = (hand.phase is Phase.BID and seat not in self.asked_blind
                             and hand.bids[seat] is None and hand.can_blind_nil(seat))
            if not blind_pending:
                parts.append("cards " + " ".join(format_card(card) for card in hand.hands[seat]))
        partner = (seat + 2) % 4
        for player, action in self.moves:
            if player < 0:
                continue
            private = hand is not None and action < MOST_CARDS and hand.phase is not Phase.BID \
                and self._is_pass(player, action)
            if private and player not in (seat, partner):
                parts.append(f"{player}:pass")
            else:
                parts.append(f"{player}:{self._action_to_string(player, action)}")
        return " ".join(parts)

    def _is_pass(self, player: int, action: int) -> bool:
        hand = self.hand
        assert hand is not None
        return any(op.seat_index == player and op.card == action for op in hand.operations
                   if isinstance(op, CardPass))

    def resample_from_infostate(self, player: int, sampler: Any) -> SpadesSimState:
        """A state the seat cannot tell from this one: the cards it has not seen dealt again
        at random, then every move of the hand replayed (for information-set MCTS). The seat's
        own cards, the cards passed to and by it, and every card played stay where they are."""
        return _resampled(self, player, np.random.default_rng(int(sampler() * 2**32)))


def _voids(rules: RuleSet, plays: Sequence[tuple[int, int, int]]) -> list[set[int]]:
    """The suits each seat has shown out of, from ``(trick, seat, card)`` plays in order."""
    deck = deck_of(rules)
    voids: list[set[int]] = [set() for _ in range(4)]
    led: dict[int, int] = {}
    for trick, seat, card in plays:
        suit = deck.suit_of(card)
        if trick not in led:
            led[trick] = suit
        elif suit != led[trick]:
            voids[seat].add(led[trick])
    return voids


def deal_rest(rules: RuleSet, known: list[list[int]], sizes: Sequence[int],
              plays: Sequence[tuple[int, int, int]], rng: np.random.Generator
              ) -> list[list[int]] | None:
    """Each seat's dealt hand: the ``known`` cards, and the deck's other cards dealt at random
    to fill each seat to ``sizes``, no seat given a suit it showed out of in ``plays``; None
    when a random attempt found no such deal."""
    deck = deck_of(rules)
    voids = _voids(rules, plays)
    taken = {card for cards in known for card in cards}
    hidden = [card for card in sorted(deck.cards) if card not in taken]
    held = [list(cards) for cards in known]
    room = [size - len(cards) for size, cards in zip(sizes, known, strict=True)]
    # The cards fewest seats may hold first, so a tight void is served before it fills up.
    order = sorted(rng.permutation(hidden).tolist(), key=lambda card: sum(
        deck.suit_of(card) not in voids[seat] for seat in range(4)))
    for card in order:
        open_seats = [seat for seat in range(4)
                      if room[seat] > 0 and deck.suit_of(card) not in voids[seat]]
        if not open_seats:
            return None
        seat = open_seats[int(rng.integers(len(open_seats)))]
        held[seat].append(int(card))
        room[seat] -= 1
    return held


def _hand_plays(hand: Hand) -> list[tuple[int, int, int]]:
    """Every card played in ``hand`` as ``(trick, seat, card)``, in order."""
    plays = [(number, (trick.leader + k) % 4, card)
             for number, trick in enumerate(hand.tricks) for k, card in enumerate(trick.cards)]
    return plays + [(len(hand.tricks), (hand.leader_index + k) % 4, card)
                    for k, card in enumerate(hand.trick_cards)]


def _resampled(state: SpadesSimState, seat: int, rng: np.random.Generator) -> SpadesSimState:
    """:meth:`SpadesSimState.resample_from_infostate` (a deal consistent with what ``seat`` saw:
    each other seat keeps the cards it is known to have played or passed, its voids shown by
    play, and its count)."""
    clone: SpadesSimState = state.clone()
    hand = state.hand
    if hand is None or state.over:
        return clone
    known = _known_holdings(state, seat)
    sizes = [len(cards) for cards in hand.hands]
    for _ in range(100):
        dealt = deal_rest(state.spec.rules, known, sizes, _hand_plays(hand), rng)
        if dealt is not None:
            return _replayed(state, dealt)
    return clone  # no consistent deal found at random: the true one


def _known_holdings(state: SpadesSimState, seat: int) -> list[list[int]]:
    """The cards of each seat's dealt hand that a resampled deal keeps there: ``seat``'s whole
    hand, every card played, and every card passed in a blind-nil exchange (the seat saw its
    partner's passes; an opponent's passed cards it did not see stay with the opponent too, so
    that the exchange replays: a small knowledge the seat does not have)."""
    hand = state.hand
    assert hand is not None
    known: list[list[int]] = [[] for _ in range(4)]
    known[seat] = list(hand.hands[seat])
    for op in hand.operations:
        card = getattr(op, "card", None)
        owner = getattr(op, "seat_index", None)
        if card is None or owner is None or owner == seat:
            continue
        if isinstance(op, CardPass) and card in hand.hands[seat]:
            continue  # a card passed to the seat: it is in its dealt hand's place already
        if card in hand.hands[owner] and card not in known[owner]:
            known[owner].append(card)
    return known


def _replayed(state: SpadesSimState, dealt: list[list[int]]) -> SpadesSimState:
    """``state`` with the hand dealt as ``dealt`` and the hand's moves replayed."""
    clone: SpadesSimState = state.clone()
    spec = state.spec
    hand = state.hand
    assert hand is not None
    clone.hand = Hand(spec.rules, hand.dealer_index, [sorted(cards) for cards in dealt],
                      clone.match.score, clone.match.bags, clone.match.hand_index)
    clone.asked_blind = set()
    moves = [(player, action) for player, action in state.moves if player >= 0]
    clone.moves = [(player, action) for player, action in state.moves if player < 0]
    for _, action in moves:
        clone._apply_action(action)  # replays through the referee: an impossible deal raises
    return clone


class SpadesSimObserver:
    """Strings of what a seat has seen (OpenSpiel's py-observer interface); no tensor."""

    def __init__(self, iig_obs_type: Any) -> None:
        self.tensor = np.zeros(0, np.float32)
        self.dict: dict[str, np.ndarray] = {}

    def set_from(self, state: SpadesSimState, player: int) -> None:
        """No tensor to fill."""

    def string_from(self, state: SpadesSimState, player: int) -> str:
        """What ``player`` has seen in ``state``."""
        return state.seen_by(player)


def register() -> None:
    """Register :class:`SpadesSimGame` with OpenSpiel as ``python_spades_sim`` (once)."""
    if GAME_NAME not in pyspiel.registered_names():
        pyspiel.register_game(_GAME_TYPE, SpadesSimGame)


register()


# --- an OpenSpiel bot at spades-sim's table -----------------------------------------------------


class OpenSpielAgent:
    """An OpenSpiel bot playing :class:`SpadesSimGame` seated at spades-sim's table as an agent.

    ``make_bot(game, seat)`` builds the bot for a seat (for example an IS-MCTS bot). For each
    decision the agent builds a state of the game consistent with the observation (the seat's
    own cards, every bid and play so far; the cards it cannot see dealt at random) and returns
    the bot's move, read back as a spades-sim move. Single hands only (the table's ``hands``).
    """

    name = "openspiel"

    def __init__(self, make_bot: Any, rules: str = "standard", *, seed: int = 0,
                 name: str | None = None) -> None:
        self.game = pyspiel.load_game(GAME_NAME, {"rules": rules})
        if self.game.rules.blind_nil_pass:
            raise RulesError("blind_nil_pass", self.game.rules.blind_nil_pass,
                             "0 for an OpenSpiel bot at the table (no exchange is replayed)")
        if self.game.rules.nil_pass:
            raise RulesError("nil_pass", self.game.rules.nil_pass,
                             "0 for an OpenSpiel bot at the table (no exchange is replayed)")
        self.make_bot = make_bot
        self.bots: dict[int, Any] = {}
        self.rng = np.random.default_rng(seed)
        if name:
            self.name = name

    def _state(self, observation: Observation) -> SpadesSimState:
        """A state of the game with this observation: the seat's cards, the rest at random."""
        state: SpadesSimState = self.game.new_initial_state()
        state.match = Game(self.game.rules, dealer=observation.dealer)
        seat = observation.seat
        rules = self.game.rules
        known: list[list[int]] = [[] for _ in range(4)]
        for _, who, card in observation.plays:
            known[who].append(card)
        known[seat] += observation.hand
        dealt = None
        while dealt is None:
            dealt = deal_rest(rules, known, [rules.hand_size] * 4, observation.plays, self.rng)
        held = dealt
        state.hand = Hand(self.game.rules, observation.dealer, [sorted(c) for c in held],
                          observation.score, observation.bags, observation.hand_number)
        bidders = [(observation.first_bidder + k) % 4 for k in range(4)]
        for bidder in bidders:
            bid = observation.bids[bidder]
            if bid is None:
                break
            if observation.blind[bidder]:
                state._apply_action(BLIND_NIL_ACTION)
            else:
                if state.hand.can_blind_nil(bidder):
                    state._apply_action(NO_BLIND_NIL_ACTION)
                state._apply_action(BID_BASE + bid)
        if observation.decision is Decision.BID and state.hand.can_blind_nil(seat):
            state._apply_action(NO_BLIND_NIL_ACTION)  # the seat looked at its cards
        for _, _, card in observation.plays:
            state._apply_action(card)
        return state

    def _move(self, observation: Observation) -> int:
        state = self._state(observation)
        seat = observation.seat
        if seat not in self.bots:
            self.bots[seat] = self.make_bot(self.game, seat)
        return int(self.bots[seat].step(state))

    def blind_nil(self, observation: Observation) -> bool:
        return self._move(observation) == BLIND_NIL_ACTION

    def bid(self, observation: Observation) -> int:
        return self._move(observation) - BID_BASE

    def draw(self, observation: Observation) -> bool:
        raise NotImplementedError("OpenSpielAgent plays partnership rules (no draw)")

    def pass_card(self, observation: Observation) -> int:
        raise NotImplementedError("OpenSpielAgent plays no blind-nil exchange (blind_nil_pass=0)")

    def play(self, observation: Observation) -> int:
        return self._move(observation)


__all__ = ["BID_ACTION", "GAME_NAME", "OPENSPIEL_RULES", "OpenSpielAgent", "SpadesSimBot",
           "SpadesSimGame", "register"]

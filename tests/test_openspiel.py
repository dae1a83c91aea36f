"""OpenSpiel both ways (docs/agents.md "OpenSpiel"; skipped without the ``openspiel`` extra).

- Every built-in strategy as a ``pyspiel.Bot`` in OpenSpiel's ``spades``: over 500 OpenSpiel
  hands, each bot's every move equals what the same spades-sim agent chooses from the
  observation a referee hand of the ``openspiel`` preset gives (built here, apart from the
  bot's own), every move is legal in OpenSpiel, the legal moves of the two games are the same
  sets at every decision, and OpenSpiel's returns equal the referee's score of the hand.
- spades-sim's game registered in OpenSpiel: information-set MCTS from OpenSpiel's Python
  algorithms plays complete hands of ``standard`` (blind nil offered) and ``jokers``.
"""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from spades_sim.agents import Decision, agent  # noqa: E402
from spades_sim.agents.openspiel import (  # noqa: E402
    BID_ACTION,
    BID_BASE,
    BLIND_NIL_ACTION,
    GAME_NAME,
    OPENSPIEL_DEALER,
    SPIEL_DECK,
    SpadesSimBot,
    deal_keys,
    spiel_action,
)
from spades_sim.agents.table import hand_observation, legal_bids  # noqa: E402
from spades_sim.kernel.strategies import STRATEGIES  # noqa: E402
from spades_sim.referee import Hand, Phase  # noqa: E402
from spades_sim.rules import load_preset  # noqa: E402

HANDS = 500
SEED = 11


def _expected(hand: Hand, seat: int, mirror: object, keys: tuple[int, ...]) -> tuple[int, set[int]]:
    """The mirror agent's move as an OpenSpiel action, and the referee's legal actions."""
    if hand.phase is Phase.BID:
        decision, legal = Decision.BID, legal_bids(hand, seat)
    else:
        decision, legal = Decision.PLAY, hand.legal_plays(seat)
    observation = hand_observation(decision, seat, hand, 0, 0, OPENSPIEL_DEALER,
                                   (0, 0), (0, 0), keys[seat], legal)
    move = getattr(mirror, str(decision))(observation)
    return spiel_action(observation, move), {spiel_action(observation, m) for m in legal}


def test_every_strategy_plays_openspiel_spades_as_itself() -> None:
    game = pyspiel.load_game("spades")
    rules = load_preset("openspiel")
    names = sorted(STRATEGIES)
    rng = np.random.default_rng(SEED)
    decisions = agreed = 0
    for episode in range(HANDS):
        seated = [names[(episode + seat * (1 + episode // len(names))) % len(names)]
                  for seat in range(4)]
        bots = [SpadesSimBot(game, seat, seated[seat], seed=SEED) for seat in range(4)]
        mirrors = [agent(name) for name in seated]
        state = game.new_initial_state()
        while state.is_chance_node():
            state.apply_action(int(rng.choice([a for a, _ in state.chance_outcomes()])))
        dealt = [int(a) for a in state.history()]
        assert len(dealt) == SPIEL_DECK
        hand = Hand(rules, OPENSPIEL_DEALER, [sorted(dealt[s::4]) for s in range(4)], (0, 0),
                    (0, 0), 0)
        keys = deal_keys(SEED, dealt)
        while not state.is_terminal():
            seat = state.current_player()
            assert seat == hand.turn_index
            want, legal = _expected(hand, seat, mirrors[seat], keys)
            assert legal == set(state.legal_actions()), (episode, seat, str(state))
            move = bots[seat].step(state)
            decisions += 1
            agreed += move == want and move in legal
            assert move == want, (episode, seat, seated[seat], move, want)
            state.apply_action(move)
            if move >= BID_ACTION:
                hand.bid(seat, move - BID_ACTION)
            else:
                hand.play(seat, move)
        assert hand.phase is Phase.SCORE
        assert tuple(state.returns()) == tuple(float(hand.result.score[s % 2]) for s in range(4))
    assert decisions == agreed and decisions >= HANDS * 56
    print(f"{HANDS} OpenSpiel hands, {decisions} decisions, {agreed} agreed")


def _play_with(game: object, bot_for_seat: list[object], rng: np.random.Generator) -> object:
    state = game.new_initial_state()  # type: ignore[attr-defined]
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(int(rng.choice([a for a, _ in state.chance_outcomes()])))
        else:
            action = bot_for_seat[state.current_player()].step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    return state


@pytest.mark.parametrize("rules", ["standard", "jokers"])
def test_ismcts_plays_spades_sim_hands(rules: str) -> None:
    game = pyspiel.load_game(GAME_NAME, {"rules": rules})
    rng = np.random.default_rng(3)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
    search = ismcts.ISMCTSBot(game, evaluator, uct_c=200.0, max_simulations=8,
                              random_state=np.random.RandomState(2))
    state = _play_with(game, [search, pyspiel.make_uniform_random_bot(1, 5), search,
                              pyspiel.make_uniform_random_bot(3, 6)], rng)
    returns = state.returns()
    assert returns[0] == returns[2] == -returns[1] == -returns[3]
    hand = state.hand
    assert hand.phase is Phase.SCORE and sum(hand.tricks_taken) == 13
    assert returns[0] == hand.result.score[0] - hand.result.score[1]


def test_blind_nil_is_an_action_when_the_rules_allow_it() -> None:
    game = pyspiel.load_game(GAME_NAME, {"rules": "standard", "whole_game": True})
    state = game.new_initial_state()
    rng = np.random.default_rng(5)
    offered = False
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(int(rng.choice([a for a, _ in state.chance_outcomes()])))
            continue
        legal = state.legal_actions()
        offered = BLIND_NIL_ACTION in legal
        if offered:
            break
        # Seats 0 and 2 bid 13 each and fail: their side falls 100 behind, and is offered
        # blind nil in the next hand.
        bids = [a for a in legal if BID_BASE <= a < BLIND_NIL_ACTION]
        high = state.current_player() % 2 == 0
        state.apply_action((max(bids) if high else min(bids)) if bids else int(rng.choice(legal)))
    assert offered
    seat = state.current_player()
    score = state.match.score
    assert state.match.hand_index >= 1 and score[seat % 2] <= score[1 - seat % 2] - 100
    assert "cards" not in state.information_state_string(seat)  # asked before looking


def test_an_openspiel_bot_plays_duplicate_hands_at_the_table() -> None:
    from spades_sim.agents import play_duplicate
    from spades_sim.agents.openspiel import OpenSpielAgent

    searcher = OpenSpielAgent(lambda game, seat: pyspiel.make_uniform_random_bot(seat, seat),
                              "jokers", name="os-random")
    run = play_duplicate("jokers", searcher, lambda: agent("expert"), 3, seed=4, kind="hands",
                         names=("os-random", "expert"))
    assert run.fault is None and run.pairs == 3
    assert run.a_first.names == ("os-random", "expert", "os-random", "expert")
    for table in (run.a_first, run.b_first):
        assert all(sum(log.result.tricks) == 13 for log in table.logs)


def test_every_partnership_preset_is_an_openspiel_game() -> None:
    """A random hand of each partnership preset through OpenSpiel's interface; other modes are
    refused in one line."""
    from spades_sim.rules import RulesError, preset_names

    rng = np.random.default_rng(8)
    played = []
    for name in preset_names():
        rules = load_preset(name)
        if not rules.partnership:
            with pytest.raises(RulesError, match="allowed partnership rules"):
                pyspiel.load_game(GAME_NAME, {"rules": name})
            continue
        game = pyspiel.load_game(GAME_NAME, {"rules": name})
        state = game.new_initial_state()
        while not state.is_terminal():
            outcomes = ([a for a, _ in state.chance_outcomes()] if state.is_chance_node()
                        else state.legal_actions())
            state.apply_action(int(rng.choice(outcomes)))
        assert sum(state.hand.tricks_taken) == rules.hand_size
        assert state.returns()[0] == -state.returns()[1]
        played.append(name)
    assert {"standard", "jokers", "classic", "suicide", "app-settings", "openspiel"} <= set(played)

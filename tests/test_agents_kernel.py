"""The built-in strategies as agents (spades_sim.agents.kernel_agent): at the Python table they
make exactly the kernel's moves.

Every preset is played at the table with built-in agents on every seat (the four policies
mixed, each seat's strategy rotating with the preset) and compared, hand by hand, with the
kernel's trace of the same seed: every bid, blind nil, draw (the cards kept and discarded),
pass and card, every trick and every result, and in whole games every score and the winner.
CI plays ``SPADES_SIM_AGENT_HANDS`` hands per preset (default 1,000: 15,000 in all, about 40 s of
one core) and a few whole games; set it higher outside CI (e.g. ``SPADES_SIM_AGENT_HANDS=10000``)
for more.
"""

from __future__ import annotations

import dataclasses
import os

import pytest

from spades_sim.agents import AgentError, agent, play_duplicate, play_games, play_hands
from spades_sim.agents.kernel_agent import KernelAgent
from spades_sim.kernel.strategies import STRATEGIES, get_strategy
from spades_sim.referee.handlog import HandLog
from spades_sim.rules import load_preset, preset_names
from spades_sim.run.records import trace_logs
from spades_sim.run.simulate import trace_games, trace_hands

HANDS = int(os.environ.get("SPADES_SIM_AGENT_HANDS", "1000"))
"""Hands per preset."""
GAMES = 2
"""Whole games per preset."""
POLICIES = ("random", "basic", "expert-v1", "expert")


def _same(log: HandLog) -> str:
    """A hand log as compared: the cards of each hand as a set (the table lists a drawn hand
    in the order drawn, the kernel's trace by card), each seat's run of passed cards as a set
    (the table logs them in the order passed, the kernel's trace keeps which cards a seat
    passed, not their order), the seats' names left out."""
    return dataclasses.replace(
        log, strategies=None, hands=tuple(tuple(sorted(cards)) for cards in log.hands),
        discards=None if log.discards is None else tuple(tuple(sorted(cards))
                                                         for cards in log.discards),
        actions=_passes_as_sets(log.actions)).dumps()


def _passes_as_sets(actions: tuple[str, ...]) -> tuple[str, ...]:
    """``actions`` with each run of one seat's ``g`` actions sorted."""
    out: list[str] = []
    run: list[str] = []
    for action in (*actions, ""):
        if run and not (action.split(" g ")[0] == run[0].split(" g ")[0] and " g " in action):
            out += sorted(run)
            run = []
        if " g " in action:
            run.append(action)
        elif action:
            out.append(action)
    return tuple(out)


def _seating(preset: str, shift: int) -> list[str]:
    n = load_preset(preset).seat_count
    return [POLICIES[(seat + shift) % len(POLICIES)] for seat in range(n)]


@pytest.mark.parametrize("preset", preset_names())
def test_built_in_agents_make_the_kernels_moves(preset):
    rules = load_preset(preset)
    shift = preset_names().index(preset)
    names = _seating(preset, shift)
    seed = 100 + shift
    run = play_hands(rules, [agent(name) for name in names], HANDS, seed=seed)
    assert run.fault is None and len(run.logs) == HANDS
    records, trace, packed = trace_hands(rules, names, range(HANDS), seed)
    kernel = trace_logs(rules.name, records, trace, packed)
    assert [_same(log) for log in run.logs] == [_same(log) for log in kernel]
    names = _seating(preset, shift + 1)
    games = play_games(rules, [agent(name) for name in names], GAMES, seed=seed, max_hands=60)
    assert games.fault is None
    game_records, records, trace, packed = trace_games(rules, names, range(GAMES), seed,
                                                       max_hands=60)
    kernel = trace_logs(rules.name, records, trace, packed, games=game_records)
    assert [_same(log) for log in games.logs] == [_same(log) for log in kernel]
    assert [game.winner for game in games.games] == [
        None if winner < 0 else int(winner) for winner in game_records.winner]


def test_a_strategy_with_parameters_and_the_random_draws_it_makes():
    """Parameters reach the kernel (an exploring expert draws from its stream for nil and blind
    nil: the stream is carried from decision to decision as the kernel carries it), and one
    agent may sit at every seat."""
    rules = load_preset("app-settings")
    explorer = get_strategy("expert").variant({"explore_nil": 0.3, "explore_blind": 0.3})
    seated = agent("expert", explore_nil=0.3, explore_blind=0.3)
    assert isinstance(seated, KernelAgent) and seated.name == explorer.name
    run = play_games(rules, [seated, agent("random")] * 2, 2, seed=8, max_hands=40)
    games, records, trace, packed = trace_games(rules, [explorer, "random"], range(2), 8,
                                                max_hands=40)
    kernel = trace_logs(rules.name, records, trace, packed, games=games)
    assert [_same(log) for log in run.logs] == [_same(log) for log in kernel]
    bids = [action for log in run.logs for action in log.actions if " bn" in action
            or action.endswith(" b 0")]
    assert bids  # the exploring nils and blind nils were made, and matched


def test_every_named_strategy_is_an_agent_and_bad_parameters_are_refused():
    for name in STRATEGIES:
        made = agent(name)
        assert isinstance(made, KernelAgent) and made.strategy == get_strategy(name)
    with pytest.raises(AgentError, match=r"agent='expert': allowed its own parameters \(param "
                                         r"depth=3: allowed a parameter"):
        agent("expert", depth=3)
    with pytest.raises(AgentError, match="agent='basic': allowed its own parameters"):
        agent("basic", nil_bonus=5)


@pytest.mark.parametrize("preset", ["standard", "head-to-head"])
def test_one_agent_at_both_tables_of_a_duplicate(preset):
    """In duplicate each deal is played at two tables in turn, here by one agent object on
    every seat of both: each table starts the seats' streams afresh (the same seat, hand and
    key as at the table before), so both make the kernel's moves."""
    rules = load_preset(preset)
    shared = agent("random")
    run = play_duplicate(rules, shared, shared, 6, seed=4, kind="hands")
    records, trace, packed = trace_hands(rules, "random", range(6), 4)
    kernel = [_same(log) for log in trace_logs(rules.name, records, trace, packed)]
    assert [_same(log) for log in run.a_first.logs] == kernel
    assert [_same(log) for log in run.b_first.logs] == kernel

"""The Python table and its agents (spades_sim.agents): observations, reproducible seeded play
on the kernel's deals, duplicate, bots that misbehave, hand logs that score and audit read,
and bots loaded from ``FILE.py:NAME`` or ``module:NAME``."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from clirun import assert_ok, invoke

from spades_sim.agents import (
    AgentError,
    Decision,
    Observation,
    RandomAgent,
    agent,
    load_agent,
    play_duplicate,
    play_games,
    play_hands,
)
from spades_sim.agents.table import seat_agent
from spades_sim.cards import format_card
from spades_sim.referee import score_file
from spades_sim.rules import load_preset, preset_names

EXAMPLE_BOT = Path(__file__).resolve().parent.parent / "examples" / "high_low_bot.py"


def randoms(rules: str, seed: int = 0) -> list[RandomAgent]:
    return [RandomAgent(seed)] * load_preset(rules).seat_count


class Watcher(RandomAgent):
    """A random agent that checks, at every decision, what its observation must hold."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: dict[Decision, int] = dict.fromkeys(Decision, 0)

    def _choose(self, observation: Observation) -> int:
        self.asked[observation.decision] += 1
        check_observation(observation)
        return super()._choose(observation)


def check_observation(obs: Observation) -> None:
    n = obs.rules.seat_count
    assert len(obs.bids) == len(obs.blind) == len(obs.tricks_taken) == n
    assert len(obs.score) == len(obs.bags) == obs.rules.side_count
    assert obs.legal and len(set(obs.legal)) == len(obs.legal)
    assert obs.hand_names == tuple(format_card(card) for card in obs.hand)
    played = [card for _, _, card in obs.plays]
    assert len(played) == len(set(played)) and not set(played) & set(obs.hand)
    assert sum(obs.tricks_taken) == len(obs.tricks)
    match obs.decision:
        case Decision.BLIND_NIL:
            assert obs.hand == () and obs.legal == (False, True)
            assert obs.bids[obs.seat] is None
        case Decision.BID:
            assert len(obs.hand) == obs.rules.hand_size and obs.bids[obs.seat] is None
            assert all(obs.rules.min_bid <= bid <= obs.rules.hand_size for bid in obs.legal)
        case Decision.DRAW:
            assert obs.drawn is not None and obs.drawn not in obs.hand and obs.legal == (False, True)
            assert not set(obs.discards) & set(obs.hand)
        case Decision.PASS:
            assert set(obs.legal) == set(obs.hand) and obs.partner is not None
            assert obs.blind[obs.seat] or obs.blind[obs.partner]
        case Decision.PLAY:
            assert set(obs.legal) <= set(obs.hand) and obs.legal_names == tuple(
                format_card(card) for card in obs.legal)
            assert (obs.leader + len(obs.trick)) % n == obs.seat
            assert all(bid is not None for bid in obs.bids)
            assert not (set(obs.received) - set(obs.hand) - set(played) - set(obs.passed))


@pytest.mark.parametrize("preset", preset_names())
def test_every_preset_plays_at_the_table(preset, tmp_path):
    """Random agents play hands and a short game of every preset; the referee scores the log."""
    watcher = Watcher()
    seats = [watcher] * load_preset(preset).seat_count
    hands = play_hands(preset, seats, 3, seed=5)
    games = play_games(preset, seats, 1, seed=5, max_hands=4)
    for run in (hands, games):
        assert run.fault is None and not run.interrupted
        path = tmp_path / f"{run.kind}.jsonl"
        run.write_log(str(path))
        assert len(score_file(path)) == len(run.logs)
    assert len(hands.logs) == 3 and len(games.games) == 1 and 1 <= len(games.logs) <= 4
    bids = len(seats) * (len(hands.logs) + len(games.logs))
    assert watcher.asked[Decision.BID] + watcher.asked[Decision.BLIND_NIL] >= bids
    rules = load_preset(preset)
    assert bool(watcher.asked[Decision.DRAW]) == (rules.mode == "two-player")
    if rules.blind_nil_pass:
        assert watcher.asked[Decision.PASS]  # a blind nil in one hand of seven, at 50% a seat


def test_same_seed_same_log_and_the_kernel_deals():
    """The same seed gives the same hands, line for line; another seed others; the deals are
    the kernel's (its trace of the same seed), dealer included."""
    from spades_sim.run.simulate import trace_games, trace_hands

    first = play_hands("standard", randoms("standard"), 4, seed=11)
    again = play_hands("standard", randoms("standard"), 4, seed=11)
    other = play_hands("standard", randoms("standard"), 4, seed=12)
    assert [log.dumps() for log in first.logs] == [log.dumps() for log in again.logs]
    assert [log.hands for log in first.logs] != [log.hands for log in other.logs]
    records, trace, packed = trace_hands("standard", "random", range(4), 11)
    for row, log in enumerate(first.logs):
        kernel = tuple(tuple(sorted(int(packed.slot_card[s]) for s in range(64)
                                    if int(trace.hands[row, seat]) >> s & 1)) for seat in range(4))
        assert log.hands == kernel and log.dealer == int(records.dealer[row])
    game = play_games("standard", randoms("standard"), 1, seed=11, max_hands=3)
    _, records, trace, packed = trace_games("standard", "random", [0], 11, max_hands=3)
    for row, log in enumerate(game.logs):
        assert log.dealer == int(records.dealer[row]) and log.hand == int(records.hand[row])
        assert [sorted(cards) for cards in log.hands] == [
            sorted(int(packed.slot_card[s]) for s in range(64) if int(trace.hands[row, seat]) >> s & 1)
            for seat in range(4)]


def test_random_agent_reproducible_whatever_was_asked_before():
    """A RandomAgent's moves in a hand depend on the table's seed, not on its history."""
    used = RandomAgent()
    play_hands("standard", [used] * 4, 3, seed=1)
    fresh = play_hands("standard", [RandomAgent()] * 4, 2, seed=2)
    after = play_hands("standard", [used] * 4, 2, seed=2)
    assert [log.actions for log in fresh.logs] == [log.actions for log in after.logs]
    # The same deal twice in a row (both tables of a duplicate of single hands): the same moves.
    once = play_hands("standard", [used] * 4, 1, seed=2)
    twice = play_hands("standard", [used] * 4, 1, seed=2)
    assert once.logs[0].actions == twice.logs[0].actions == fresh.logs[0].actions
    seeded = play_hands("standard", [RandomAgent(7)] * 4, 2, seed=2)
    assert [log.actions for log in seeded.logs] != [log.actions for log in fresh.logs]


def test_duplicate_swaps_the_sides_on_the_same_deals():
    bot = load_agent(f"{EXAMPLE_BOT}:HighLowBot")
    run = play_duplicate("standard", bot.make, RandomAgent, 3, seed=4, max_hands=5)
    assert run.pairs == 3 and run.fault is None
    a_name = "high-low"  # the class's name (a command line names it by its spec)
    for one, two in zip(run.a_first.games, run.b_first.games, strict=True):
        assert one.first_dealer == two.first_dealer
        for x, y in zip(one.logs, two.logs, strict=False):
            assert x.hands == y.hands and x.dealer == y.dealer
        assert one.logs[0].strategies == (a_name, "uniform", a_name, "uniform")
        assert two.logs[0].strategies == ("uniform", a_name, "uniform", a_name)
    two_player = play_duplicate("head-to-head", RandomAgent(1), RandomAgent(2), 1, seed=4, max_hands=2)
    assert two_player.a_first.logs[0].strategies == ("uniform", "uniform")
    with pytest.raises(Exception, match="allowed a two-sided table"):
        play_duplicate("solo", RandomAgent, RandomAgent, 1, seed=1)


def test_duplicate_takes_built_in_agents_by_name_and_refuses_what_is_no_agent():
    by_name = play_duplicate("standard", "expert", "uniform", 2, seed=4, max_hands=3)
    made = play_duplicate("standard", agent("expert"), agent("uniform"), 2, seed=4, max_hands=3)
    assert by_name.a_first.games[0].logs[0].strategies == ("expert", "uniform", "expert", "uniform")
    assert [g.logs for g in by_name.a_first.games] == [g.logs for g in made.a_first.games]
    with pytest.raises(AgentError, match="agent='nope': allowed uniform, "):
        play_duplicate("standard", "nope", "expert", 1, seed=1)
    with pytest.raises(AgentError, match="agent='5': allowed an agent, a class or function"):
        play_duplicate("standard", 5, "expert", 1, seed=1)  # type: ignore[arg-type]


class Misbehaves(RandomAgent):
    """A random agent that does ``what`` when asked ``decision`` in game ``game``, hand 1."""

    name = "naughty"

    def __init__(self, what: str, decision: Decision, game: int = 1) -> None:
        super().__init__()
        self.what, self.decision, self.game = what, decision, game

    def _choose(self, observation: Observation) -> int:
        if (observation.decision, observation.game, observation.hand_number) == (
                self.decision, self.game, 1):
            return self.misbehave(observation)
        return super()._choose(observation)

    def misbehave(self, observation: Observation) -> int:
        if self.what == "raise":
            return 1 // 0
        if self.what == "exit":
            raise SystemExit(3)
        if self.what == "sleep":
            time.sleep(0.3)
        elif self.what == "loop":
            while True:
                pass
        elif self.what == "illegal":
            held = set(observation.hand)
            return next(card for card in range(52) if card not in held and card not in observation.legal)
        return observation.legal[0]


def _stopped(bot: Misbehaves, **options):
    seats = [RandomAgent(), bot, RandomAgent(), RandomAgent()]
    run = play_games("standard", seats, 4, seed=3, max_hands=3, **options)
    assert run.fault is not None
    assert [game.game for game in run.games] == [0]  # game 0 kept; game 1 stopped; no more
    assert all(len(game.logs) == 3 for game in run.games)
    assert run.fault.seat == 1 and run.fault.bot == "naughty" and run.fault.game == 1
    assert "\n" not in run.fault.message
    return run.fault


def test_an_illegal_move_ends_the_game_in_one_line():
    fault = _stopped(Misbehaves("illegal", Decision.PLAY))
    assert fault.kind == "illegal" and fault.decision == Decision.PLAY and fault.traceback is None
    assert fault.message == (f"seat 1 (bot 'naughty', game 1, hand 1): play={fault.move!r}: "
                             f"allowed {' '.join(fault.legal)}")
    bid = _stopped(Misbehaves("illegal", Decision.BID))
    assert bid.message.startswith("seat 1 (bot 'naughty', game 1, hand 1): bid=")


def test_a_bot_that_raises_shows_its_own_traceback():
    fault = _stopped(Misbehaves("raise", Decision.BID))
    assert fault.kind == "raised" and fault.decision == Decision.BID
    assert fault.message == ("seat 1 (bot 'naughty', game 1, hand 1): bid raised "
                             "ZeroDivisionError; the bot's traceback follows")
    assert fault.traceback is not None
    assert "in misbehave" in fault.traceback and "ZeroDivisionError" in fault.traceback
    assert fault.traceback.startswith("Traceback (most recent call last):\n  File ")
    assert "table.py" not in fault.traceback  # the table's own frames are left out
    assert fault.traceback.splitlines()[1].endswith(", in bid")  # the bot's method, first


def test_a_bot_that_exits_is_stopped_like_one_that_raises():
    fault = _stopped(Misbehaves("exit", Decision.PLAY))
    assert fault.kind == "raised" and "play raised SystemExit" in fault.message


def test_the_time_limit_stops_a_slow_bot_and_one_that_never_returns():
    fault = _stopped(Misbehaves("sleep", Decision.PLAY), time_limit=0.05)
    assert fault.kind == "timeout" and "allowed at most 0.05 s (time_limit)" in fault.message
    start = time.perf_counter()
    fault = _stopped(Misbehaves("loop", Decision.BID), time_limit=0.05)
    assert fault.kind == "timeout" and time.perf_counter() - start < 5


def test_a_fault_in_duplicate_keeps_the_pairs_before_it():
    """Each deal sequence is played both ways before the next: a bot that stops pair 2 leaves
    pairs 0 and 1 whole."""
    run = play_duplicate("standard", lambda: Misbehaves("raise", Decision.PLAY, game=2),
                         RandomAgent, 5, seed=3, max_hands=3)
    assert run.fault is not None and run.fault.game == 2 and run.pairs == 2
    assert len(run.a_first.games) == len(run.b_first.games) == 2


def test_table_logs_score_and_audit_from_the_command_line(tmp_path):
    run = play_games("standard", randoms("standard"), 2, seed=8, max_hands=3)
    path = tmp_path / "table.jsonl"
    assert run.write_log(str(path)) is None
    changed = play_hands(load_preset("standard").replace(nil_value=50), randoms("standard"), 2,
                         seed=8)
    other = tmp_path / "changed.jsonl"
    assert changed.write_log(str(other)) == f"{other}.rules.toml"
    for log in (path, other):
        for command in ("score", "audit"):
            result = invoke([command, str(log)])
            assert_ok(result)
    assert "6 hands scored, all moves legal" in invoke(["score", str(path)]).output


def test_the_agents_by_name():
    assert isinstance(agent("uniform", seed=2), RandomAgent)
    assert agent("expert").name == "expert"  # the kernel's strategies: tests/test_agents_kernel.py
    with pytest.raises(AgentError, match=r"agent='nobody': allowed uniform, aggressive, "):
        agent("nobody")
    with pytest.raises(AgentError, match="agent='uniform': allowed its own parameters"):
        agent("uniform", depth=3)


def test_the_loader_seats_a_file_a_module_an_object_and_a_factory(tmp_path):
    assert isinstance(load_agent(f"{EXAMPLE_BOT}:HighLowBot").make(), RandomAgent)
    assert isinstance(load_agent("spades_sim.agents.random_agent:RandomAgent").make(), RandomAgent)
    (tmp_path / "helper.py").write_text("SEED = 4\n")
    (tmp_path / "bots.py").write_text(
        "from helper import SEED\nfrom spades_sim.agents import RandomAgent\n"
        "ONE = RandomAgent(SEED)\n\ndef make():\n    return RandomAgent(SEED)\n")
    one = load_agent(f"{tmp_path / 'bots.py'}:ONE")
    assert one.make() is one.make() and one.make().seed == 4
    made = load_agent(f"{tmp_path / 'bots.py'}:make")
    assert made.make() is not made.make()
    assert isinstance(seat_agent(made.make), RandomAgent)


@pytest.mark.parametrize(("source", "name", "expected"), [
    ("missing.py", "Bot", "allowed path/to/bot.py:NAME or package.module:NAME, the file a readable .py file"),
    ("syntax.py", "Bot", "allowed a file that loads (SyntaxError: "),
    ("raises.py", "Bot", "allowed a file that loads (RuntimeError: no network)"),
    ("plain.py", "Nope", "allowed a name that {path} defines (Half, NoPlay, make_int)"),
    ("plain.py", "NUMBER", "allowed an agent (methods blind_nil, bid, draw, pass_card, play), a class of "
                           "agents or a function returning one; int lacks blind_nil"),
    ("plain.py", "make_int", "; int lacks blind_nil, bid, draw, pass_card, play"),
    ("plain.py", "NoPlay", "; NoPlay lacks play"),
    ("plain.py", "Half", "allowed an agent class or function that can be instantiated with no "
                         "arguments (TypeError: "),
    ("no_such_module_xyz", "Bot", "allowed a module that imports (ModuleNotFoundError: "),
    ("not a module", "Bot", "allowed path/to/bot.py:NAME or package.module:NAME"),
    ("plain.py", "", "allowed path/to/bot.py:NAME or package.module:NAME"),
])
def test_the_loader_refuses_in_one_line(tmp_path, source, name, expected):
    (tmp_path / "syntax.py").write_text("def broken(:\n")
    (tmp_path / "raises.py").write_text("raise RuntimeError('no network')\n")
    (tmp_path / "plain.py").write_text(
        "from spades_sim.agents import RandomAgent\nNUMBER = 3\n\ndef make_int():\n    return 3\n\n"
        "class NoPlay(RandomAgent):\n    play = None\n\n"
        "class Half(RandomAgent):\n    def __init__(self, depth):\n        super().__init__()\n")
    path = str(tmp_path / source) if source.endswith(".py") else source
    spec = f"{path}:{name}"
    with pytest.raises(AgentError) as error:
        load_agent(spec)
    message = str(error.value)
    assert "\n" not in message
    assert message.startswith(f"bot={spec!r}: ")
    assert expected.format(path=path) in message


def test_the_example_bot_beats_random_agents_in_duplicate():
    """The example bot plays whole games at the table, on both sides of the same deals."""
    bot = load_agent(f"{EXAMPLE_BOT}:HighLowBot")
    run = play_duplicate("standard", bot.make, RandomAgent, 4, seed=2)
    assert run.pairs == 4
    wins = [game.winner == 0 for game in run.a_first.games] + [
        game.winner == 1 for game in run.b_first.games]
    assert sum(wins) >= 7  # random agents bid blind nil half the time they may


def test_legal_plays_equals_the_cards_verify_play_allows():
    """The referee's fast ``legal_plays`` is the cards ``can_play`` allows, at every play, under
    every leading rule."""
    from spades_sim.referee import Hand

    checked = 0
    original = Hand.legal_plays

    def both(hand, seat):
        nonlocal checked
        checked += 1
        fast = original(hand, seat)
        assert fast == tuple(card for card in hand.holding(seat) if hand.can_play(seat, card))
        return fast

    Hand.legal_plays = both
    try:
        for preset in ("standard", "jokers", "three-player", "deuce-high", "head-to-head"):
            play_hands(preset, randoms(preset), 3, seed=9)
        for changes in ({"spades_lead": "any_time"}, {"first_lead": "dealer_right"},
                        {"first_lead": "two_of_clubs"}):
            play_hands(load_preset("standard").replace(**changes), randoms("standard"), 3, seed=9)
    finally:
        Hand.legal_plays = original
    assert checked > 1000


def test_the_log_game_frame_is_the_kernels_game_frame():
    """Whole games written as hand logs give the kernel's own game records, column by column,
    so a comparison at the table reads its metrics as a simulation does."""
    import pandas as pd

    from spades_sim.run.records import log_game_frame, trace_logs
    from spades_sim.run.simulate import simulate_games, trace_games

    for preset, strategies in (("standard", ["expert", "random"] * 2),
                               ("app-settings", ["random"] * 4), ("three-player", ["basic"] * 3)):
        rules = load_preset(preset)
        run = simulate_games(rules, strategies, 4, seed=3, keep_records=True, max_hands=30)
        games, records, trace, packed = trace_games(rules, strategies, range(4), 3, max_hands=30)
        frame = log_game_frame(rules, trace_logs(rules.name, records, trace, packed, games=games))
        pd.testing.assert_frame_equal(frame, run.records().reset_index(drop=True), check_dtype=False)


def test_compare_strategies_with_a_bot(tmp_path):
    """A bot on the command line: the comparison runs at the table (a note says so), with the
    usual summary and outputs; a bot's fault ends it with the pairs before it compared."""
    out = tmp_path / "summary.csv"
    result = invoke(["compare-strategies", f"{EXAMPLE_BOT}:HighLowBot", "uniform", "--games", "3",
                     "--seed", "1", "--max-hands", "4", "--no-figure", "--out", str(out)])
    assert_ok(result)
    assert "note: a bot is in the game, so the comparison runs on the Python table" in result.output
    assert f"{EXAMPLE_BOT}:HighLowBot (A) vs uniform (B), seed 1: 3 deal sequences x 2" in result.output
    assert out.read_text().startswith("key,metric,unit,a,b,difference,low,high,pairs")
    result = invoke(["compare-strategies", f"{EXAMPLE_BOT}:HighLowBot", "uniform", "--games", "2",
                     "--seed", "1", "--max-hands", "3", "--no-figure", "--format", "json"])
    metadata = json.loads(result.stdout)["metadata"]
    assert metadata["bots"] == [f"{EXAMPLE_BOT}:HighLowBot", "uniform"] and metadata["pairs"] == 2
    (tmp_path / "naughty.py").write_text(
        "from spades_sim.agents import RandomAgent\n\nclass Bot(RandomAgent):\n"
        "    def play(self, observation):\n"
        "        if observation.game == 1:\n            raise KeyError('oops')\n"
        "        return super().play(observation)\n")
    result = invoke(["compare-strategies", f"{tmp_path / 'naughty.py'}:Bot", "uniform", "--games",
                     "3", "--seed", "1", "--max-hands", "2", "--no-figure"])
    assert result.exit_code == 2
    assert ": 1 deal sequences x 2 (stopped)" in result.output
    lines = result.output.splitlines()
    error = next(k for k, line in enumerate(lines) if line.startswith("Error: "))
    assert lines[error].startswith("Error: seat ")
    assert (f" (bot '{tmp_path / 'naughty.py'}:Bot', game 1, hand 0): play raised KeyError; the "
            "bot's traceback follows") in lines[error]
    assert "(the 1 deal sequences finished before it are compared above)" in lines[error]
    assert lines[error + 1] == "Traceback (most recent call last):"
    assert "raise KeyError('oops')" in result.output and lines[-1] == "KeyError: 'oops'"


@pytest.mark.parametrize(("args", "expected"), [
    (["missing.py:Bot", "uniform"], "bot='missing.py:Bot': allowed path/to/bot.py:NAME or "
     "package.module:NAME, the file a readable .py file"),
    ([f"{EXAMPLE_BOT}:HighLowBot", "nobody"], "agent='nobody': allowed uniform, aggressive, "
     "bag-averse, basic, conservative, expert, expert-v1, nil-happy, random"),
    ([f"{EXAMPLE_BOT}:HighLowBot", "uniform", "--param", "0.bid_offset=1"],
     "param='0.bid_offset=1': allowed only when A and B are both strategies of the kernel (a bot "
     "takes no --param)"),
    ([f"{EXAMPLE_BOT}:HighLowBot", "uniform", "--threads", "2"], "threads=2: allowed only when A "
     "and B are both strategies of the kernel (the Python table plays on one core)"),
    (["expert", "basic", "--time-limit", "1"], "time-limit=1: allowed only when A or B is a bot "
     "(FILE.py:NAME or module:NAME)"),
    ([f"{EXAMPLE_BOT}:HighLowBot", "uniform", "--time-limit", "0"],
     "time_limit=0.0: allowed seconds above 0, at most 3,600"),
    ([f"{EXAMPLE_BOT}:HighLowBot", "uniform", "--time-limit", "nan"],
     "time-limit='nan': allowed a number in digits 0-9, e.g. 100 or 2.5"),
    ([f"{EXAMPLE_BOT}:HighLowBot", "uniform", "--max-hands", "0"], "max_hands=0: allowed 1 to 100,000"),
    ([f"{EXAMPLE_BOT}:HighLowBot", "uniform", "--games", "0"], "games=0: allowed 1 to 10,000,000"),
    ([f"{EXAMPLE_BOT}:HighLowBot", "uniform", "--seed", str(2**64)],
     f"seed={2**64}: allowed a whole number from 0 to 2**63-1"),
    ([f"{EXAMPLE_BOT}:HighLowBot", "uniform", "--rules", "solo"], "rules mode='solo': allowed a "
     "two-sided table (partnership or two-player) for a duplicate comparison"),
])
def test_compare_strategies_refuses_a_bad_bot_in_one_line(tmp_path, args, expected):
    from clirun import assert_one_line_error

    games = [] if "--games" in args else ["--games", "2"]
    result = invoke(["compare-strategies", *args, *games, "--no-figure"])
    assert_one_line_error(result, expected)


def test_the_draw_deals_the_kernels_stock():
    """Two-player: each turn of the kernel's traced draw splits the table's two stock cards of
    that turn between the drawing seat's kept cards and its discards."""
    from spades_sim.agents import deals
    from spades_sim.kernel.packing import pack_rules
    from spades_sim.run.simulate import trace_hands

    rules = load_preset("head-to-head")
    packed = pack_rules(rules)
    records, trace, _ = trace_hands(rules, "random", range(3), 6)

    def cards(mask) -> set[int]:
        return {int(packed.slot_card[s]) for s in range(64) if int(mask) >> s & 1}

    for row in range(3):
        stock = deals.draw_stock(packed, 6, row, 0)
        first = deals.first_drawer(packed, int(records.dealer[row]))
        for turn in range(26):
            seat = (first + turn) % 2
            pair = {stock[2 * turn], stock[2 * turn + 1]}
            assert len(pair & cards(trace.hands[row, seat])) == 1
            assert len(pair & cards(trace.discards[row, seat])) == 1


class ByName(RandomAgent):
    """Plays cards by name and bids as numpy integers: both are taken."""

    def play(self, observation: Observation) -> str:
        return observation.legal_names[0].lower()

    def bid(self, observation: Observation):
        import numpy as np

        return np.int64(observation.legal[-1] if observation.legal[0] == 0 else observation.legal[0])


def test_moves_by_name_and_numpy_numbers_are_taken():
    run = play_hands("standard", [ByName()] * 4, 2, seed=1)
    assert run.fault is None and len(run.logs) == 2
    first_play = next(action for action in run.logs[0].actions if " p " in action)
    seat = int(first_play.split()[0])
    assert first_play == f"{seat} p {format_card(min(run.logs[0].hands[seat]))}"

    class Floaty(RandomAgent):
        def bid(self, observation: Observation) -> float:
            return 3.0

    run = play_hands("standard", [RandomAgent(), Floaty(), RandomAgent(), RandomAgent()], 1,
                     seed=1, names=["r0", "floaty", "r2", "r3"])
    assert run.fault is not None and run.fault.kind == "illegal" and run.fault.move == "3.0"
    assert run.fault.message.startswith("seat 1 (bot 'floaty', hand 0): bid='3.0': allowed 0 1 2 ")


def test_ctrl_c_keeps_the_finished_games_and_pairs():
    finished = []

    def stop_after_three(game) -> None:
        finished.append(game.game)
        if len(finished) == 3:
            raise KeyboardInterrupt

    run = play_games("standard", randoms("standard"), 10, seed=1, max_hands=2, on_game=stop_after_three)
    assert run.interrupted and run.fault is None and [game.game for game in run.games] == [0, 1, 2]
    finished.clear()
    duplicate = play_duplicate("standard", RandomAgent, RandomAgent, 10, seed=1, max_hands=2,
                               on_game=stop_after_three)
    assert duplicate.interrupted and duplicate.pairs == 1

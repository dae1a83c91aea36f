"""The JSONL hand-log format (docs/hand-log.md): round trips, and refused lines through score_file."""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from refereeplay import log_of, play_randomly, random_deal, write_lines

from spades_sim.cards import format_card, parse_card
from spades_sim.referee import Game, Hand, IllegalMove, replay_hand, score_file
from spades_sim.referee.handlog import (
    Bid,
    BlindNilBid,
    CardPass,
    CardPlay,
    HandLog,
    LogError,
    format_action,
    log_rules,
    parse_action,
    read_log,
    rules_reference,
    write_log,
)
from spades_sim.rules import RuleSet, load_preset, preset_names
from spades_sim.rules import dumps as dumps_rules

STANDARD = RuleSet()
CODES = ("'S b N' (bid), 'S bn' (blind nil), 'S bb N' (blind bid), 'S g CARD' (pass) "
         "or 'S p CARD' (play)")
"""What an action-code error says is allowed."""

# The play-test deal C: dealer 1, so seat 2 leads; seat 2 cashes AH KH, then may not lead a spade.
DEAL_C = (
    "AC KC QC JC 10C 9C 8C 7C 6C 5C 8H 7H 6H",
    "4C 3C 2C AD KD QD JD 10D 9D 8D JH 10H 9H",
    "7D 6D 5D 4D 3D 2D AH KH QH AS KS QS JS",
    "5H 4H 3H 2H 10S 9S 8S 7S 6S 5S 4S 3S 2S",
)


def random_hands(seed: int) -> tuple[tuple[int, ...], ...]:
    deck = list(range(52))
    random.Random(seed).shuffle(deck)
    return tuple(tuple(deck[13 * seat : 13 * seat + 13]) for seat in range(4))


def played(hand: Hand, bids: tuple[int | str, ...] = (3, 3, 3, 3)) -> Hand:
    """Bid (``"bn"`` = blind nil), then play every seat's lowest legal card: a full, legal hand."""
    for offset in range(1, 5):
        seat = (hand.dealer_index + offset) % 4
        bid = bids[seat]
        if isinstance(bid, str):
            hand.blind_nil(seat)
        else:
            hand.bid(seat, bid)
    while hand.turn_index is not None:
        hand.play(hand.turn_index, hand.legal_plays(hand.turn_index)[0])
    return hand


def game_logs(hand_count: int, game: int = 0, seed: int = 1) -> list[HandLog]:
    """The logs of the first hands of a game, score and bags carried by the referee's Game."""
    state = Game(STANDARD, dealer=2)
    logs = []
    for index in range(hand_count):
        hand = played(state.start_hand(random_hands(seed + index)))
        logs.append(log_of(hand, game=game, hand=index))
        state.record(hand)
    return logs


def score_error(tmp_path: Path, lines: Sequence[str | dict[str, Any] | HandLog]) -> str:
    with pytest.raises(LogError) as raised:
        score_file(write_lines(tmp_path, lines))
    return str(raised.value)


def raw_of(log: HandLog) -> dict[str, Any]:
    return dict(json.loads(log.dumps()))


# --- round trips ---


def test_round_trip_loads_dumps() -> None:
    log = log_of(
        played(Hand(STANDARD, 3, random_hands(0))),
        game=7,
        hand=0,
        game_over={"winner": None, "reason": "hand_cap"},
    )
    assert HandLog.loads(log.dumps()) == log


def test_round_trip_minimal_line_omits_optional_fields() -> None:
    log = HandLog(rules="standard", dealer=0, hands=random_hands(2), actions=("1 b 4", "2 bn"))
    assert list(json.loads(log.dumps())) == ["rules", "dealer", "hands", "actions"]
    assert HandLog.loads(log.dumps()) == log


def test_dumps_key_order_and_card_names() -> None:
    raw = raw_of(log_of(played(Hand(STANDARD, 3, DEAL_C)), game=0, hand=0))
    assert list(raw) == [
        "rules", "game", "hand", "dealer", "score_before", "bags_before",
        "hands", "actions", "tricks", "result",
    ]  # fmt: skip
    assert raw["hands"][0] == DEAL_C[0]
    assert list(raw["result"]) == ["tricks", "nil", "points", "bags", "penalty", "score", "bag_total"]


def test_loads_accepts_t_for_ten_and_lowercase() -> None:
    raw = raw_of(HandLog(rules="standard", dealer=0, hands=random_hands(3), actions=()))
    raw["actions"] = ["1 p th"]
    raw["hands"] = [text.replace("10", "t").lower() for text in raw["hands"]]
    log = HandLog.loads(json.dumps(raw))
    assert log.hands == random_hands(3)
    assert parse_action(log.actions[0]) == CardPlay(1, parse_card("10H"))


def test_parse_action_codes() -> None:
    assert parse_action("1 b 4") == Bid(1, 4)
    assert parse_action("3 b 0") == Bid(3, 0)
    assert parse_action("2 bn") == BlindNilBid(2)
    assert parse_action("0 g 3C") == CardPass(0, parse_card("3C"))
    assert parse_action("1 p QS") == CardPlay(1, parse_card("QS"))
    assert parse_action("4 p LJ") == CardPlay(4, parse_card("LJ"))  # a five-player seat
    for action in (Bid(0, 13), BlindNilBid(3), CardPass(1, 53), CardPlay(2, 0)):
        assert parse_action(format_action(action)) == action


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1 x 4", f"line 9: action '1 x 4': unknown code 'x': allowed {CODES}"),
        ("5 b 3", "line 9: action '5 b 3': seat '5': allowed 0-4"),  # five seats at most
        ("1 b", f"line 9: action '1 b': wrong number of tokens for code 'b': allowed {CODES}"),
        ("1 b four", "line 9: action '1 b four': bid 'four': allowed a whole number"),
        ("1 g", f"line 9: action '1 g': wrong number of tokens for code 'g': allowed {CODES}"),
        ("1 g 1C", "line 9: action '1 g 1C': card '1C': allowed a rank 2-10, J, Q, K, A (or T) followed by "
                   "a suit C, D, H, S, or BJ / LJ for the jokers"),
    ],
)  # fmt: skip
def test_parse_action_errors(text: str, message: str) -> None:
    with pytest.raises(LogError) as raised:
        parse_action(text, 9)
    assert str(raised.value) == message


# --- other table modes: 2-5 seats, per-side lists, discards, passes ---

THREE_HANDS = tuple(tuple(range(17 * seat, 17 * seat + 17)) for seat in range(3))
"""Three seats of 17 cards: all the structure needs (which cards the deck has is the referee's)."""
TWO_KEPT = (tuple(range(13)), tuple(range(13, 26)))
TWO_THROWN = (tuple(range(26, 39)), tuple(range(39, 52)))


def test_round_trip_discards_written_after_hands() -> None:
    log = HandLog(rules="head-to-head", dealer=1, hands=TWO_KEPT, discards=TWO_THROWN, actions=("0 b 4",))
    raw = raw_of(log)
    assert list(raw) == ["rules", "dealer", "hands", "discards", "actions"]
    assert raw["discards"][0] == "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"
    assert HandLog.loads(log.dumps()) == log
    assert HandLog(rules="r", dealer=0, hands=TWO_KEPT, actions=()).discards is None


def test_loads_three_seats_and_three_sides() -> None:
    result = {"tricks": [6, 2, 9], "nil": [None, "set", None], "points": [51, -98, 90], "bags": [1, 2, 0],
              "penalty": [0, 0, 0], "score": [51, -98, 90], "bag_total": [1, 2, 0]}
    log = HandLog(rules="three-player", dealer=2, hands=THREE_HANDS, actions=("0 b 5", "1 b 0", "2 b 9"),
                  score_before=(0, 0, 0), game_over={"winner": 2})
    raw = raw_of(log) | {"result": result}
    loaded = HandLog.loads(json.dumps(raw))
    assert loaded.result is not None and loaded.result.points == (51, -98, 90)
    assert HandLog.loads(loaded.dumps()) == loaded


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"dealer": 3}, "dealer=3: allowed a seat 0-2"),
        ({"actions": ["3 b 2"]}, "action '3 b 2': seat '3': allowed 0-2"),
        ({"tricks": [{"leader": 3, "winner": 0, "cards": ["2C", "3C", "4C"]}]},
         "tricks[0].leader=3: allowed a seat 0-2"),
        ({"score_before": [0, 0, 0, 0, 0, 0]},
         "score_before=[0, 0, 0, 0, 0, 0]: allowed a list of 2-5 whole numbers (one per side)"),
        ({"game_over": {"winner": 3}},
         'game_over={"winner": 3}: allowed {"winner": a side 0-2} or {"winner": null, "reason": "hand_cap"}'),
        ({"hands": ["2C 3C"]}, 'hands=["2C 3C"]: allowed a list of 2-5 strings of cards, one per seat'),
        ({"discards": ["AS", "KS"]}, 'discards=["AS", "KS"]: allowed a list of 3 strings of cards, as hands'),
    ],
    ids=["dealer", "action-seat", "trick-seat", "six-sides", "winner", "one-seat", "discards-seats"],
)  # fmt: skip
def test_loads_seat_numbers_of_a_three_seat_line(change: dict[str, Any], message: str) -> None:
    raw = raw_of(HandLog(rules="three-player", dealer=2, hands=THREE_HANDS, actions=())) | change
    with pytest.raises(LogError) as raised:
        HandLog.loads(json.dumps(raw), 5)
    assert str(raised.value) == f"line 5: {message}"


def test_loads_five_seats_five_sides() -> None:
    hands = tuple(tuple(range(10 * seat, 10 * seat + 10)) for seat in range(5))
    log = HandLog(rules="five-player", dealer=4, hands=hands, actions=("4 b 2",),
                  score_before=(1, 2, 3, 4, 5), game_over={"winner": 4})
    assert HandLog.loads(log.dumps()) == log


def test_loads_card_both_kept_and_discarded(tmp_path: Path) -> None:
    raw = raw_of(HandLog(rules="head-to-head", dealer=0, hands=TWO_KEPT, discards=TWO_THROWN, actions=()))
    raw["discards"][1] = raw["discards"][1].replace("AS", "AC")  # seat 0 kept AC
    assert score_error(tmp_path, [raw]) == (
        "line 1: discards: card AC dealt twice (hands[0] and discards[1]): each card is dealt once"
    )
    raw["discards"][1] = "1X"
    assert score_error(tmp_path, [raw]).startswith("line 1: discards[1]: card '1X': allowed a rank")


def test_write_log_read_log(tmp_path: Path) -> None:
    logs = game_logs(3)
    path = tmp_path / "game.jsonl"
    write_log(path, logs)
    path.write_text(
        path.read_text(encoding="utf-8").replace("\n", "\n\n", 1), encoding="utf-8"
    )  # a blank line
    assert list(read_log(path)) == [(1, logs[0]), (3, logs[1]), (4, logs[2])]


# --- score_file on good files ---


def test_score_file_game_carries_score_and_bags(tmp_path: Path) -> None:
    logs = game_logs(3)
    scored = score_file(write_lines(tmp_path, logs))
    assert [s.line_number for s in scored] == [1, 2, 3]
    assert [s.hand for s in scored] == [0, 1, 2]
    assert [s.dealer for s in scored] == [2, 3, 0]
    assert [s.result for s in scored] == [log.result for log in logs]
    assert scored[1].result.score == tuple(
        a + b for a, b in zip(scored[0].result.score, scored[1].result.points, strict=True)
    )
    assert all(s.bids == (3, 3, 3, 3) and s.game_winner is None for s in scored)


def test_score_file_minimal_lines_need_only_required_fields(tmp_path: Path) -> None:
    lines = []
    for log in game_logs(2):
        raw = raw_of(log)
        lines.append({key: raw[key] for key in ("rules", "dealer", "hands", "actions", "game")})
    scored = score_file(write_lines(tmp_path, lines))
    assert [s.result for s in scored] == [log.result for log in game_logs(2)]


def test_score_file_replay_of_standalone_hand(tmp_path: Path) -> None:
    log = log_of(played(Hand(STANDARD, 1, DEAL_C, score_before=(120, -30), bags_before=(4, 2))))
    (scored,) = score_file(write_lines(tmp_path, [log]))
    assert scored.game is None and scored.hand == 0
    assert replay_hand(STANDARD, log) == (log.result, log.tricks)


def test_score_file_blind_nil_marked_and_checked(tmp_path: Path) -> None:
    # docs/scoring.md: blind nil when the side trails by at least 100 at the start of the hand.
    log = log_of(played(Hand(STANDARD, 0, random_hands(6), score_before=(200, 100)), bids=(3, "bn", 3, 3)))
    assert log.actions[0] == "1 bn"
    (scored,) = score_file(write_lines(tmp_path, [log]))
    assert scored.bids == (3, "bn", 3, 3)
    assert scored.result.nil[1] in ("made", "set")
    only_90_behind = dataclasses.replace(log, score_before=(190, 100))
    assert score_error(tmp_path, [only_90_behind]) == (
        "line 1: seat 1 bid blind nil but side 1 trails by 90 (needs 100)"
    )


def test_score_file_game_over_and_hand_after_it(tmp_path: Path) -> None:
    # Play the hand once from 0-0 to learn its points, then again from a score where the side
    # that gains ends on exactly 500 and wins.
    points = played(Hand(STANDARD, 2, random_hands(5))).result.points
    side = 0 if points[0] > 0 else 1
    assert points[side] > 0
    start = (500 - points[0], 0) if side == 0 else (0, 500 - points[1])
    hand = played(Hand(STANDARD, 2, random_hands(5), score_before=start))
    last = log_of(hand, game=4, hand=9, game_over={"winner": side})
    (scored,) = score_file(write_lines(tmp_path, [last]))
    assert scored.game_winner == side and scored.result.score[side] == 500
    wrong = dataclasses.replace(last, game_over={"winner": None, "reason": "hand_cap"})
    assert score_error(tmp_path, [wrong]) == (
        'line 1: game_over: log says {"winner": null, "reason": "hand_cap"}, '
        f'referee computes {{"winner": {side}}}'
    )
    after = dataclasses.replace(
        game_logs(1)[0], game=4, hand=10, dealer=3, score_before=None, bags_before=None
    )
    message = score_error(tmp_path, [last, after])
    assert message == "line 2: game 4: a hand after the game is over (game_over at line 1)"
    without_marker = dataclasses.replace(last, game_over=None)
    message = score_error(tmp_path, [without_marker, after])
    assert message == f"line 2: game 4: a hand after the game is over (side {side} won at line 1)"


def test_score_file_hand_cap_accepted_only_while_unfinished(tmp_path: Path) -> None:
    (log,) = game_logs(1)
    assert log.result is not None
    capped = dataclasses.replace(log, game_over={"winner": None, "reason": "hand_cap"})
    assert score_file(write_lines(tmp_path, [capped]))[0].game_winner is None
    claimed = dataclasses.replace(log, game_over={"winner": 1})
    assert score_error(tmp_path, [claimed]) == (
        'line 1: game_over: log says {"winner": 1}, '
        f"referee computes the game goes on at {list(log.result.score)}"
    )


# --- HandLog.from_hand: the log of a played hand replays to the same hand ---

FROM_HAND_RULES = {
    **{name: load_preset(name) for name in preset_names()},
    "exchange.toml": RuleSet(blind_nil="anytime", blind_nil_pass=2),
    "two-clubs-right.toml": RuleSet(first_lead="two_of_clubs", first_bidder="dealer_right",
                                    nil_tricks="count_for_partner", bid_thirteen="wins_game"),
    "solo-blind.toml": RuleSet(mode="solo", nil_value=50, blind_nil="anytime", blind_nil_solo=True),
}
"""Every preset and a few option sets: the exchange, two of clubs, blind nil alone; by the
``rules`` field a log names them with (a ``.toml`` name is written beside the log)."""


def rules_field(tmp_path: Path, name: str) -> str:
    """The log's ``rules`` field for ``name``; a ``.toml`` one is written into ``tmp_path``."""
    if name.endswith(".toml"):
        (tmp_path / name).write_text(dumps_rules(FROM_HAND_RULES[name]), encoding="utf-8")
    return name


@pytest.mark.parametrize("name", sorted(FROM_HAND_RULES))
def test_from_hand_round_trip_replays_the_hand(tmp_path: Path, name: str) -> None:
    """hand -> HandLog.from_hand -> write_log -> read_log -> replay_hand and score_file give the
    hand's own result and tricks, for random legal hands of every mode and a few options."""
    rules = FROM_HAND_RULES[name]
    rng = random.Random(name)
    hands = []
    for dealer in range(rules.seat_count):
        dealt, discards = random_deal(rules, rng)
        hands.append(play_randomly(Hand(rules, dealer, dealt, discards=discards), rng))
    logs = [HandLog.from_hand(hand, rules_field(tmp_path, name)) for hand in hands]
    path = tmp_path / "hands.jsonl"
    write_log(path, logs)
    read = [log for _, log in read_log(path)]
    assert read == logs
    for hand, log in zip(hands, read, strict=True):
        assert log.actions == tuple(format_action(op) for op in hand.operations)
        assert (log.dealer, log.hands, log.discards) == (hand.dealer_index, hand.hands, hand.discards)
        assert log.hand is None and log.game is None  # a standalone first hand writes neither
        assert replay_hand(rules, log) == (hand.result, tuple(hand.tricks))
    scored = score_file(path)
    assert [s.result for s in scored] == [hand.result for hand in hands]
    assert [s.bids for s in scored] == [hand.bids for hand in hands]


def test_from_hand_writes_a_game_that_scores_as_played(tmp_path: Path) -> None:
    """The hands of a game, with ``game`` (so every ``hand`` index) and the winner's
    ``game_over``: score_file carries score and bags as the Game did and ends the game there."""
    rules = load_preset("online-table")  # random bids lose: the game ends at -200
    rng = random.Random(5)
    game = Game(rules, dealer=1)
    logs = []
    while not game.over:
        assert game.hand_index < 100, "the game should end long before"
        dealt, _ = random_deal(rules, rng)
        hand = play_randomly(game.start_hand(dealt), rng)
        winner = game.record(hand)
        game_over = None if winner is None else {"winner": winner}
        logs.append(HandLog.from_hand(hand, "online-table", game=3, game_over=game_over))
    assert [log.hand for log in logs] == list(range(len(logs)))
    path = tmp_path / "game.jsonl"
    write_log(path, logs)
    scored = score_file(path)
    assert [s.result for s in scored] == game.results
    assert scored[-1].game_winner == game.winner
    assert all(s.game_winner is None for s in scored[:-1])


def test_from_hand_writes_the_index_of_a_later_standalone_hand() -> None:
    """A standalone hand after the first keeps its index, which decides
    ``blind_nil = "after_first_hand"``: without it the replay would refuse the blind nil."""
    rules = RuleSet(blind_nil="after_first_hand")
    hand = Hand(rules, 3, random_hands(4), hand_index=2)
    hand.blind_nil(0)
    log = HandLog.from_hand(play_randomly(hand, random.Random(4)), "online-table")
    assert log.hand == 2 and log.actions[0] == "0 bn"
    assert replay_hand(rules, log) == (hand.result, tuple(hand.tricks))
    with pytest.raises(IllegalMove, match="first hand of the game"):
        replay_hand(rules, dataclasses.replace(log, hand=None))


def test_from_hand_refuses_an_unfinished_hand() -> None:
    hand = Hand(STANDARD, 0, DEAL_C)
    hand.bid(1, 3)
    with pytest.raises(ValueError, match="the hand is not over: phase bid, seat 2 is next"):
        HandLog.from_hand(hand, "standard")


# --- refused lines (docs/hand-log.md "Errors") ---


def test_bad_json(tmp_path: Path) -> None:
    good = game_logs(1)[0]
    assert score_error(tmp_path, [good, '{"rules": "standard",']) == (
        "line 2: not JSON: Expecting property name enclosed in double quotes at column 22"
    )


def test_missing_required_field(tmp_path: Path) -> None:
    raw = raw_of(game_logs(1)[0])
    del raw["actions"]
    assert (
        score_error(tmp_path, [raw])
        == "line 1: actions missing: a required field, allowed a list of action codes"
    )


def test_unknown_card(tmp_path: Path) -> None:
    raw = raw_of(game_logs(1)[0])
    raw["hands"][2] = "1X " + raw["hands"][2].split(" ", 1)[1]
    assert score_error(tmp_path, [raw]) == (
        "line 1: hands[2]: card '1X': allowed a rank 2-10, J, Q, K, A (or T) followed by a suit "
        "C, D, H, S, or BJ / LJ for the jokers"
    )


def test_card_dealt_twice(tmp_path: Path) -> None:
    raw = raw_of(game_logs(1)[0])
    first_card = raw["hands"][0].split()[0]
    raw["hands"][3] = " ".join([first_card, *raw["hands"][3].split()[1:]])
    assert score_error(tmp_path, [raw]) == (
        f"line 1: hands: card {first_card} dealt twice (seats 0 and 3): each card is dealt once"
    )


def test_twelve_cards(tmp_path: Path) -> None:
    raw = raw_of(game_logs(1)[0])
    raw["hands"][1] = " ".join(raw["hands"][1].split()[:12])
    assert score_error(tmp_path, [raw]) == "line 1: hands[1] has 12 cards: allowed 13"


def test_dealer_out_of_range(tmp_path: Path) -> None:
    raw = raw_of(game_logs(1)[0])
    raw["dealer"] = 4
    assert score_error(tmp_path, [raw]) == "line 1: dealer=4: allowed a seat 0-3"


def test_trick_seat_out_of_range(tmp_path: Path) -> None:
    raw = raw_of(game_logs(1)[0])
    raw["tricks"][5]["winner"] = 7
    assert score_error(tmp_path, [raw]) == "line 1: tricks[5].winner=7: allowed a seat 0-3"


def test_wrong_type(tmp_path: Path) -> None:
    raw = raw_of(game_logs(1)[0])
    raw["score_before"] = [0]
    assert (
        score_error(tmp_path, [raw])
        == "line 1: score_before=[0]: allowed a list of 2-5 whole numbers (one per side)"
    )


def test_unknown_action_code(tmp_path: Path) -> None:
    raw = raw_of(game_logs(1)[0])
    raw["actions"][0] = "3 pass"
    assert score_error(tmp_path, [raw]) == (f"line 1: action '3 pass': unknown code 'pass': allowed {CODES}")


def test_illegal_move_spade_led_before_broken(tmp_path: Path) -> None:
    actions = ["2 b 4", "3 b 3", "0 b 3", "1 b 3"]
    actions += ["2 p AH", "3 p 2H", "0 p 6H", "1 p 9H", "2 p KH", "3 p 3H", "0 p 7H", "1 p 10H", "2 p JS"]
    line = {"rules": "standard", "dealer": 1, "hands": list(DEAL_C), "actions": actions}
    assert (
        score_error(tmp_path, [game_logs(1)[0], line])
        == "line 2: trick 3: seat 2 led JS before spades were broken"
    )


def test_illegal_move_not_in_hand(tmp_path: Path) -> None:
    log = game_logs(1)[0]
    first_play = parse_action(log.actions[4])
    assert isinstance(first_play, CardPlay)
    stranger = next(card for card in range(52) if card not in log.hands[first_play.seat_index])
    actions = (*log.actions[:4], format_action(CardPlay(first_play.seat_index, stranger)), *log.actions[5:])
    message = score_error(tmp_path, [dataclasses.replace(log, actions=actions)])
    assert message == f"line 1: seat {first_play.seat_index} played {format_card(stranger)}, not in hand"


def test_unfinished_hand(tmp_path: Path) -> None:
    log = game_logs(1)[0]
    last_seat = parse_action(log.actions[-1]).seat_index
    message = score_error(tmp_path, [dataclasses.replace(log, actions=log.actions[:-1])])
    expected = (
        f"line 1: actions: the hand is unfinished after 55 actions (seat {last_seat} is to play to trick 13)"
    )
    assert message == expected


def test_wrong_recorded_result(tmp_path: Path) -> None:
    log = game_logs(1)[0]
    assert log.result is not None
    points = log.result.points
    wrong = dataclasses.replace(log.result, points=(points[0] + 10, points[1]))
    message = score_error(tmp_path, [dataclasses.replace(log, result=wrong)])
    assert message == (
        f"line 1: result.points: log says [{points[0] + 10}, {points[1]}], "
        f"referee computes [{points[0]}, {points[1]}]"
    )


def test_wrong_recorded_trick(tmp_path: Path) -> None:
    log = game_logs(1)[0]
    assert log.tricks is not None
    tricks = list(log.tricks)
    true_winner = tricks[2].winner
    tricks[2] = dataclasses.replace(tricks[2], winner=(true_winner + 1) % 4)
    message = score_error(tmp_path, [dataclasses.replace(log, tricks=tuple(tricks))])
    assert (
        message
        == f"line 1: tricks[2].winner: log says {(true_winner + 1) % 4}, referee computes {true_winner}"
    )


def test_score_before_must_equal_carried_total(tmp_path: Path) -> None:
    first, second = game_logs(2)
    assert second.score_before is not None
    bad = dataclasses.replace(second, score_before=(second.score_before[0] + 10, second.score_before[1]))
    carried = list(second.score_before)
    assert score_error(tmp_path, [first, bad]) == (
        f"line 2: score_before: log says {[carried[0] + 10, carried[1]]}, referee carries {carried}"
    )


def test_hand_must_count_up(tmp_path: Path) -> None:
    first, second = game_logs(2)
    assert score_error(tmp_path, [first, dataclasses.replace(second, hand=2)]) == (
        "line 2: hand: log says 2, referee carries 1"
    )


def test_dealer_must_rotate(tmp_path: Path) -> None:
    first, second = game_logs(2)
    assert score_error(tmp_path, [first, dataclasses.replace(second, dealer=1)]) == (
        "line 2: dealer=1: allowed 3 (the deal passes clockwise each hand)"
    )


def test_game_lines_must_be_consecutive(tmp_path: Path) -> None:
    game_0 = game_logs(1, game=0)
    game_1 = game_logs(1, game=1)
    assert score_error(tmp_path, [*game_0, *game_1, *game_0]) == (
        "line 3: game=0: already played from line 1: the hands of a game must be consecutive lines"
    )


def test_unknown_rules(tmp_path: Path) -> None:
    log = dataclasses.replace(game_logs(1)[0], rules="no-such-preset")
    assert score_error(tmp_path, [log]).startswith("line 1: rules='no-such-preset': allowed a preset (")


def test_rules_argument_overrides_line(tmp_path: Path) -> None:
    # The lines' "rules" names no preset: the argument is used instead, for every line.
    logs = [dataclasses.replace(log, rules="no-such-preset", result=None) for log in game_logs(2)]
    scored = score_file(write_lines(tmp_path, logs), rules=STANDARD)
    assert [s.result for s in scored] == [log.result for log in game_logs(2)]


def test_rules_from_toml_path(tmp_path: Path) -> None:
    rules_path = tmp_path / "target300.toml"
    rules_path.write_text('name = "t300"\ntarget = 300\n', encoding="utf-8")
    logs = [dataclasses.replace(log, rules=str(rules_path)) for log in game_logs(2)]
    assert len(score_file(write_lines(tmp_path, logs))) == 2


def test_rules_file_is_read_from_the_log_folder_not_the_working_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A log names its rules file relative to its own folder: it scores from anywhere, and a
    file of that name in the working folder is not read instead."""
    folder, elsewhere = tmp_path / "logs", tmp_path / "elsewhere"
    folder.mkdir()
    elsewhere.mkdir()
    (folder / "house.toml").write_text('name = "house"\n', encoding="utf-8")
    (elsewhere / "house.toml").write_text("target = 0\n", encoding="utf-8")  # would be refused
    logs = [dataclasses.replace(log, rules="house.toml") for log in game_logs(2)]
    path = write_lines(folder, logs)
    monkeypatch.chdir(elsewhere)
    assert len(score_file(path)) == 2
    assert rules_reference(folder / "house.toml", path) == "house.toml"
    assert rules_reference(elsewhere / "house.toml", path) == str(elsewhere / "house.toml")
    assert log_rules(str(folder / "house.toml"), elsewhere / "any.jsonl").name == "house"


@pytest.mark.parametrize("rules", ["/etc/passwd", "notes.txt", "./standard", "house"])
def test_rules_that_name_no_toml_file_or_preset_are_refused_unread(tmp_path: Path,
                                                                   rules: str) -> None:
    (tmp_path / "notes.txt").write_text("password = hunter2\n", encoding="utf-8")
    (tmp_path / "house").write_text('name = "house"\n', encoding="utf-8")
    log = dataclasses.replace(game_logs(1)[0], rules=rules)
    message = score_error(tmp_path, [log])
    assert message.startswith(f"line 1: rules={rules!r}: allowed a preset (")
    assert message.endswith("or the path of a .toml rules file, from the log's folder")
    assert "hunter2" not in message and "root" not in message


def test_rules_file_with_an_unknown_key_is_refused_without_its_value(tmp_path: Path) -> None:
    (tmp_path / "leak.toml").write_text('api_token = "s3cr3t-value-123"\n', encoding="utf-8")
    log = dataclasses.replace(game_logs(1)[0], rules="leak.toml")
    message = score_error(tmp_path, [log])
    assert message.startswith("line 1: unknown key 'api_token': allowed a RuleSet field: ")
    assert "s3cr3t" not in message

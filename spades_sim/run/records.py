"""Kernel records ↔ DataFrames and files, and kernel traces → hand logs.

``hand_frame`` is tidy: one row per seat and hand, with the side's columns
(contract, points, bags, …) repeated on both partners' rows (in the individual
modes a seat is its own side). ``game_frame`` has one row per game. Files are
written by :func:`spades_sim.analysis.export.write`.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Literal

import numpy as np
import pandas as pd

from ..cards import format_card
from ..kernel.scoring import BLIND_COUNT_FLAG, BLIND_NIL_FLAG
from ..referee.handlog import (
    BLIND_BID,
    BLIND_NIL,
    Bid,
    BlindBid,
    BlindCount,
    BlindNilBid,
    HandLog,
    HandResult,
    Trick,
    parse_action,
)
from ..referee.scoring import BidValue, is_nil, side_contract
from ..rules import RuleSet

_SEAT_COLUMNS = ("bid", "blind", "tricks", "spades", "top_spade", "aces", "kings", "voids",
                 "nil_risk")
_SIDE_COLUMNS = ("contract", "made", "points", "bags", "penalty", "score", "bag_total")
_GAME_SIDE_COLUMNS = ("score", "bag_total", "contracts", "made", "nil_bids", "nil_made",
                      "blind_bids", "blind_made", "bags", "penalty", "bid_error")

NilOutcome = Literal["made", "set"] | None
"""A seat's nil in a hand result: made, set, or no nil bid."""


def hand_frame(records) -> pd.DataFrame:
    """One row per seat-hand from ``HandRecords``."""
    n, seats = records.bid.shape
    seat = np.tile(np.arange(seats), n)
    side = seat % records.contract.shape[1]
    row = np.repeat(np.arange(n), seats)
    frame = pd.DataFrame({
        "game": np.repeat(records.game, seats),
        "hand": np.repeat(records.hand, seats),
        "dealer": np.repeat(records.dealer, seats),
        "seat": seat.astype(np.int8),
        "side": side.astype(np.int8),
    })
    for name in _SEAT_COLUMNS:
        frame[name] = getattr(records, name).reshape(-1)
    for name in _SIDE_COLUMNS:
        frame[name] = getattr(records, name)[row, side]
    nil = (frame["bid"] == 0) & (frame["blind"] >= 0)  # -1: a zero bid, no nil (zero_bid)
    frame["nil_outcome"] = pd.Categorical(
        np.where(~nil, "none", np.where(frame["tricks"] == 0, "made", "set")),
        categories=["none", "made", "set"])
    return frame


def game_frame(games, seats: int, start: int = 0) -> pd.DataFrame:
    """One row per game from ``GameRecords`` of a table of ``seats`` seats; ``start`` is the
    first game's index. ``seat_hands_k`` (hands × the seats of side k) makes the frame carry
    every denominator of its metrics."""
    n = games.hands.size
    frame = pd.DataFrame({
        "game": np.arange(start, start + n),
        "first_dealer": games.first_dealer,
        "hands": games.hands,
        "winner": games.winner,
    })
    sides = games.score.shape[1]
    for name in _GAME_SIDE_COLUMNS:
        values = getattr(games, name)
        for side in range(sides):
            frame[f"{name}_{side}"] = values[:, side]
    for side in range(sides):
        frame[f"seat_hands_{side}"] = (games.hands * (seats // sides)).astype(np.int32)
    return frame


def _cards(slots, slot_card) -> tuple[int, ...]:
    return tuple(int(slot_card[s]) for s in slots)


def _mask_cards(mask, slot_card) -> tuple[int, ...]:
    return _cards([s for s in range(64) if int(mask) >> s & 1], slot_card)


def _exchange_actions(givers, given, slot_card) -> list[str]:
    """The ``g`` actions of the blind-nil exchange, in the order the kernel passed: each seat
    of ``givers`` (-1 ends them) passes its ``given`` cards, lowest slot first."""
    actions: list[str] = []
    for giver in givers:
        if giver < 0:
            break
        actions += [f"{int(giver)} g {format_card(card)}"
                    for card in _mask_cards(given[giver], slot_card)]
    return actions


def trace_logs(rules_name: str, records, trace, packed, *, games=None) -> list[HandLog]:
    """Hand logs (``spades_sim.referee.handlog``) of traced hands.

    With ``games`` (the ``GameRecords`` of a traced game run) the lines carry the
    game id, hand index, running scores and the game's end; without, each hand
    stands alone from 0-0.
    """
    slot_card = packed.slot_card
    seats, hand_size = packed.seat_count, packed.hand_size
    logs = []
    score_before = np.zeros(packed.side_count, dtype=np.int64)
    bags_before = np.zeros(packed.side_count, dtype=np.int64)
    sets_before = np.zeros(packed.side_count, dtype=np.int64)
    game_row = -1
    for row in range(records.game.size):
        hand_index = int(records.hand[row])
        if hand_index == 0:
            score_before[:] = 0
            bags_before[:] = 0
            sets_before[:] = 0
            game_row += 1
        dealer = int(records.dealer[row])
        hands = tuple(_mask_cards(trace.hands[row, seat], slot_card) for seat in range(seats))
        discards = (tuple(_mask_cards(trace.discards[row, seat], slot_card) for seat in range(seats))
                    if packed.draw_deal else None)
        actions = []
        for seat in (int(seat) for seat in trace.bidders[row]):
            if records.blind[row, seat] == BLIND_COUNT_FLAG:
                actions.append(f"{seat} {BLIND_BID} {int(records.bid[row, seat])}")
            elif records.blind[row, seat] == BLIND_NIL_FLAG:
                actions.append(f"{seat} bn")
            else:
                actions.append(f"{seat} b {int(records.bid[row, seat])}")
        actions += _exchange_actions(trace.givers[row], trace.given[row], slot_card)
        tricks = []
        leader = int(trace.first_leader[row])
        for t in range(hand_size):
            cards = _cards(trace.plays[row, t * seats:(t + 1) * seats], slot_card)
            for k, card in enumerate(cards):
                actions.append(f"{(leader + k) % seats} p {format_card(card)}")
            winner = int(trace.winners[row, t])
            tricks.append(Trick(leader=leader, winner=winner, cards=cards))
            leader = winner
        nil: tuple[NilOutcome, ...] = tuple(
            # A bid of 0 whose blind column is -1 is a zero (zero_bid), not a nil.
            None if records.bid[row, seat] != 0 or records.blind[row, seat] < 0
            else ("made" if records.tricks[row, seat] == 0 else "set")
            for seat in range(seats))
        result = HandResult(
            tricks=tuple(int(x) for x in records.tricks[row]),
            nil=nil,
            points=tuple(int(x) for x in records.points[row]),
            bags=tuple(int(x) for x in records.bags[row]),
            penalty=tuple(int(x) for x in records.penalty[row]),
            score=tuple(int(x) for x in records.score[row]),
            bag_total=tuple(int(x) for x in records.bag_total[row]),
        )
        game_over = None
        in_game = games is not None
        if in_game and hand_index == int(games.hands[game_row]) - 1:
            winner = int(games.winner[game_row])
            game_over = ({"winner": winner} if winner >= 0
                         else {"winner": None, "reason": "hand_cap"})
        logs.append(HandLog(
            rules=rules_name, dealer=dealer, hands=hands, discards=discards, actions=tuple(actions),
            game=int(records.game[row]) if in_game else None,
            hand=hand_index if in_game else None,
            score_before=tuple(int(x) for x in score_before),
            bags_before=tuple(int(x) for x in bags_before),
            tricks=tuple(tricks), result=result, game_over=game_over,
            sets_before=(tuple(int(x) for x in sets_before)
                         if in_game and packed.sets_to_lose else None)))
        score_before[:] = records.score[row]
        bags_before[:] = records.bag_total[row]
        sets_before += (records.contract[row] > 0) & (records.made[row] == 0)
    return logs


def log_game_frame(rules: RuleSet, logs: Sequence[HandLog]) -> pd.DataFrame:
    """The game frame (:func:`game_frame`'s columns) of whole games written as hand logs, such
    as the Python table's (``spades_sim.agents``): one row per game, the consecutive lines of
    one ``game`` id in order, each line with its result and the last with its ``game_over``.

    The counts follow the kernel's tally of a hand (a side's contract, made and bid error when
    it bid tricks; its nil and blind-nil bids and how many were made; its bags and penalty), so
    the catalogue's metrics of a table's games mean what they mean for a simulation's.
    """
    sides, seats = rules.side_count, rules.seat_count
    rows: list[dict[str, int]] = []
    for _, lines in itertools.groupby(logs, key=lambda log: log.game):
        game = list(lines)
        first, last = game[0], game[-1]
        assert last.result is not None and last.game_over is not None, "a game's last line"
        winner = last.game_over.get("winner")
        row = {"game": int(first.game or 0), "first_dealer": first.dealer, "hands": len(game),
               "winner": -1 if winner is None else int(winner)}
        counts = {name: [0] * sides for name in _GAME_SIDE_COLUMNS[2:]}
        for log in game:
            _tally_log(rules, log, counts)
        for side in range(sides):
            row[f"score_{side}"] = last.result.score[side]
            row[f"bag_total_{side}"] = last.result.bag_total[side]
            for name, values in counts.items():
                row[f"{name}_{side}"] = values[side]
        rows.append(row)
    frame = pd.DataFrame(rows, columns=["game", "first_dealer", "hands", "winner"] + [
        f"{name}_{side}" for name in _GAME_SIDE_COLUMNS for side in range(sides)])
    for side in range(sides):
        frame[f"seat_hands_{side}"] = (frame["hands"] * (seats // sides)).astype(np.int32)
    return frame


def _tally_log(rules: RuleSet, log: HandLog, counts: dict[str, list[int]]) -> None:
    """Add one hand's counts (the kernel's ``_tally_hand``) to a game's ``counts`` by side."""
    assert log.result is not None
    bids: list[BidValue] = [0] * rules.seat_count
    for action in log.actions:
        match parse_action(action):
            case Bid(seat, count):
                bids[seat] = count
            case BlindNilBid(seat):
                bids[seat] = BLIND_NIL
            case BlindBid(seat, count):
                bids[seat] = BlindCount(count)
    tricks = log.result.tricks
    for seat, bid in enumerate(bids):
        if is_nil(bid, rules):
            kind = "blind" if bid == BLIND_NIL else "nil"
            counts[f"{kind}_bids"][rules.seat_side(seat)] += 1
            counts[f"{kind}_made"][rules.seat_side(seat)] += tricks[seat] == 0
    for side in range(rules.side_count):
        contract, counted, _ = side_contract(rules, bids, tricks, side)
        if contract > 0:
            counts["contracts"][side] += 1
            counts["made"][side] += counted >= contract
            counts["bid_error"][side] += abs(contract - counted)
        counts["bags"][side] += log.result.bags[side]
        counts["penalty"][side] += log.result.penalty[side]

"""Playing referee hands in the tests: moves written as text, finishing a hand (lowest cards, or
random legal moves on a random deal), its log line, log files, and checking that a move is
refused with exactly a given message.

Shared by the referee and hand-log test files; ``conftest.py`` puts this folder on the
import path. Stacked deals (chosen tricks per seat) are in ``stacking``.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from spades_sim.cards import parse_card
from spades_sim.referee import BLIND_NIL, BidValue, Hand, HandLog, IllegalMove, Phase, deck_of
from spades_sim.rules import RuleSet


def expect_illegal(action: Callable[[], object], message: str) -> None:
    """``action()`` raises :class:`IllegalMove` with exactly ``message``."""
    with pytest.raises(IllegalMove) as raised:
        action()
    assert str(raised.value) == message


def expect_refused(action: Callable[[], object], message: str) -> None:
    """A deal (or other argument) refused with ValueError and exactly ``message``."""
    with pytest.raises(ValueError) as raised:
        action()
    assert str(raised.value) == message


def bid_all(hand: Hand, tricks: int = 3) -> None:
    """Every seat bids ``tricks``, in turn from the first bidder."""
    for offset in range(hand.seat_count):
        hand.bid((hand.first_bidder_index + offset) % hand.seat_count, tricks)


def play(hand: Hand, *moves: str) -> None:
    """Play ``"SEAT CARD"`` moves, e.g. ``play(hand, "2 AH", "3 2H")``."""
    for move in moves:
        seat, card = move.split()
        hand.play(int(seat), parse_card(card))


def give(hand: Hand, *moves: str) -> None:
    """Pass ``"SEAT CARD"`` cards in the blind-nil exchange."""
    for move in moves:
        seat, card = move.split()
        hand.pass_card(int(seat), parse_card(card))


def auto_finish(hand: Hand) -> Hand:
    """Play every remaining card: each seat its lowest legal card."""
    while hand.turn_index is not None:
        hand.play(hand.turn_index, hand.legal_plays(hand.turn_index)[0])
    return hand


def log_of(played: Hand, rules: str = "standard", /, **fields: Any) -> HandLog:
    """The complete log line of a finished hand (:meth:`HandLog.from_hand`), with the two-player
    discards; ``fields`` set or replace the line's other fields (``game``, ``hand``,
    ``game_over``, or a wrong value to be caught)."""
    return dataclasses.replace(HandLog.from_hand(played, rules), **fields)


def write_lines(tmp_path: Path, lines: Sequence[str | dict[str, Any] | HandLog]) -> Path:
    """Write ``hands.jsonl`` in ``tmp_path``: log lines, raw JSON objects or text as it stands."""
    path = tmp_path / "hands.jsonl"
    text = [
        line.dumps() if isinstance(line, HandLog) else line if isinstance(line, str) else json.dumps(line)
        for line in lines
    ]
    path.write_text("\n".join(text) + "\n", encoding="utf-8")
    return path


def random_deal(
    rules: RuleSet, rng: random.Random
) -> tuple[list[list[int]], list[list[int]] | None]:
    """A shuffled deal of the rules' deck: the hands and, in two-player, the discards of the
    draw (each seat keeps half of its 26 cards)."""
    deck = sorted(deck_of(rules).cards)
    rng.shuffle(deck)
    size = rules.hand_size
    if rules.mode == "two-player":
        return [deck[0:13], deck[26:39]], [deck[13:26], deck[39:52]]
    return [deck[seat * size : (seat + 1) * size] for seat in range(rules.seat_count)], None


def play_randomly(hand: Hand, rng: random.Random) -> Hand:
    """Finish a hand with moves chosen at random among the legal ones: a bid or blind nil the
    referee allows, any held card in the blind-nil exchange, any legal card in play."""
    while hand.phase is not Phase.SCORE:
        seat = hand.turn_index
        assert seat is not None
        if hand.phase is Phase.BID:
            bids: list[BidValue] = [BLIND_NIL] if hand.can_blind_nil(seat) else []
            bids += [t for t in range(hand.rules.hand_size + 1) if hand.can_bid(seat, t)]
            assert bids, hand.waiting_for()
            # Mostly blind nil, nil or a low bid, as players bid: all the tricks are rarely bid.
            bid = rng.choice(bids[: max(1, len(bids) // 3)] if rng.random() < 0.8 else bids)
            if bid == BLIND_NIL:
                hand.blind_nil(seat)
            else:
                hand.bid(seat, int(bid))
        elif hand.phase is Phase.EXCHANGE:
            hand.pass_card(seat, rng.choice(hand.holding(seat)))
        else:
            hand.play(seat, rng.choice(hand.legal_plays(seat)))
    return hand

"""The double-dummy solver (spades_sim.kernel.double_dummy) against an independent oracle.

- Endings of every preset (and a few rule variants the presets do not cover): 2 to 5 cards a
  seat, at a trick's start, in mid-trick, broken and not, and in the hand's first trick; the
  solver's ``legal``, ``tricks`` for every side, ``nil_set`` for every seat, ``score`` for
  random bids (nils, blind nils where the rules allow them, bags near the limit) and the
  per-card answers equal the exhaustive minimax of ``ddoracle``, written from the rules and the
  referee alone (never from the kernel). ``test_the_oracle_plays_as_the_referee`` holds the
  oracle's legality to the referee's ``Hand``.
- 13-card deals of four seats against bridge's double-dummy solver (endplay's DDS) in spades,
  under rules that make Spades play exactly like bridge in a spade contract: trumps led at any
  time and no first-lead rule (``spades_lead = "any_time"``, ``first_lead = "dealer_right"``;
  the default ``dealer_left_no_spade`` forbids a spade on the first lead, which bridge allows).
  Seats 0, 1, 2, 3 are bridge's North, East, South, West (seat s + 1 sits on seat s's left, as
  East on North's); a side's tricks when seat L leads are the spade tricks of the bridge declarer
  whose left-hand opponent is L, that is seat L - 1 (13 minus them for the leader's side).
- Properties: two sides' tricks add up to the hand's, more sides' to at most it (each side's
  guaranteeing strategy played at once gives every side at least its guarantee); score lines
  replay through ``Position.play``, the oracle and (a full deal) the referee's ``Hand`` to their
  value; the per-card answers' best is the position's answer; ``table`` rows and ``solve_deals``
  agree with ``tricks``, on one thread and two.
- ``PositionError`` for malformed positions and illegal plays, naming the field.
"""

from __future__ import annotations

import os
import random
import zlib
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest
from ddoracle import Oracle, OracleError, Spot, bits
from endplay.dds import calc_all_tables
from endplay.types import Deal, Denom, Player

from spades_sim.cards import mask_of, parse_cards
from spades_sim.kernel.double_dummy import (
    LARGE_TABLE_BITS,
    TABLE_BITS,
    DoubleDummy,
    Position,
    PositionError,
    ScoreLine,
    solve_deals,
    table_bits_for,
)
from spades_sim.referee import Hand
from spades_sim.rules import BlindNil, FirstLead, Mode, RuleSet, load_preset, preset_names

VARIANTS = {
    "two-of-clubs": RuleSet(first_lead="two_of_clubs"),
    "dealer-right-any-time": RuleSet(first_lead="dealer_right", spades_lead="any_time"),
    "any-time": RuleSet(spades_lead="any_time"),
    "count-for-partner": RuleSet(nil_tricks="count_for_partner", failed_contract="zero",
                                 overtrick_points=-1, bag_limit=3, bag_penalty=37,
                                 blind_nil="anytime"),
    "ten-for-200": RuleSet(ten_for_two_hundred=True, bid_thirteen="scores_500", overtrick_points=0),
    "solo-blind": RuleSet(mode="solo", blind_nil="anytime", blind_nil_solo=True, nil_value=50,
                          first_lead="dealer_right"),
    "jokers-hearts": RuleSet(deck="jokers", joker_deuces="clubs_hearts", spades_lead="any_time"),
    "never-broken": RuleSet(spades_lead="never_broken", first_lead="dealer_right", side_max_bid=13),
    "three-jokers": RuleSet(mode="three-player", deck="jokers", joker_deuces="none", blind_nil="off"),
    # A bid of 0 as a contract (zero_bid): the solver's scores against the referee's.
    "zero-bid": RuleSet(zero_bid="zero", blind_nil="anytime", bag_limit=3, bag_penalty=40),
    "zero-bid-count-for-partner": RuleSet(zero_bid="zero", nil_tricks="count_for_partner"),
}
"""Rule sets beside the presets: the lead rules, the scoring options, decks the presets lack."""

RULE_SETS = {**{name: load_preset(name) for name in preset_names()}, **VARIANTS}

CASES_PER_PRESET = 36
CASES_PER_VARIANT = 16
CARDS_WEIGHTS = {2: 3, 3: 4, 4: 3}
"""How often an ending has 2, 3 or 4 cards a seat (at the start of its trick); see _cases."""


def _seed(name: str) -> int:
    return zlib.crc32(name.encode())


# --- random endings ---


def _leader_first_club(oracle: Oracle, hands: list[int], leader: int, rng: random.Random) -> None:
    """Under ``two_of_clubs`` the first leader holds the deck's lowest club: move it there."""
    lowest = oracle.deck.lowest_club
    if hands[leader] >> lowest & 1:
        return
    give_back = rng.choice(bits(hands[leader]))
    hands[leader] ^= (1 << give_back) | (1 << lowest)
    for seat, hand in enumerate(hands):
        if seat != leader and hand >> lowest & 1:
            hands[seat] ^= (1 << lowest) | (1 << give_back)


def random_ending(rules: RuleSet, rng: random.Random, kind: str, k: int) -> Spot:
    """A legal position with ``k`` cards a seat at its trick's start (the seats that already
    played to the trick in progress hold one fewer): ``kind`` "start" (a trick's start),
    "mid" (1 to seats - 1 cards of the trick played) or "first" (the hand's first trick, no
    trick taken, led or in mid-trick)."""
    oracle = Oracle(rules)
    n = rules.seat_count
    dealt = rng.sample(sorted(oracle.deck.cards), k * n)
    hands = [sum(1 << c for c in dealt[seat * k:(seat + 1) * k]) for seat in range(n)]
    leader = rng.randrange(n)
    if kind == "first":
        if rules.first_lead == FirstLead.TWO_OF_CLUBS:
            _leader_first_club(oracle, hands, leader, rng)
        taken: tuple[int, ...] = rng.choice([(), (0,) * n])
        broken = False
        played = rng.randrange(n)
    else:
        counts = [0] * n
        for _ in range(rules.hand_size - k):
            counts[rng.randrange(n)] += 1
        taken = tuple(counts)
        broken = rng.random() < 0.5
        played = 0 if kind == "start" else rng.randrange(1, n)
    state = (tuple(hands), leader, (), taken or (0,) * n, broken)
    for _ in range(played):
        state = oracle.play(state, rng.choice(oracle.legal(state)))
    hands_now, to_play, trick, _, broken_now = state  # no trick is completed: taken is unchanged
    return Spot(hands_now, to_play, trick, taken, broken_now)


def random_bids(rules: RuleSet, spot: Spot, rng: random.Random
                ) -> tuple[tuple[int, ...], tuple[bool, ...], tuple[int, ...]]:
    """Bids near what the seats can take (nils where allowed, blind ones where the rules have
    blind nil), and per side bags close to the limit so that the penalty matters."""
    n = rules.seat_count
    left = len(bits(spot.hands[spot.to_play]))  # the tricks still to play
    taken = spot.taken or (0,) * n
    nil_ok = rules.min_bid == 0
    blind_ok = rules.blind_nil != BlindNil.OFF
    bids, blind = [], []
    for seat in range(n):
        if nil_ok and rng.random() < 0.3:
            bids.append(0)
            blind.append(blind_ok and rng.random() < 0.5)
        else:
            bids.append(max(1, min(rules.hand_size, taken[seat] + rng.randint(-1, left // 2 + 1))))
            blind.append(False)
    if not any(blind) and rng.random() < 0.5:
        blind = []  # the default: no blind nil
    limit = rules.bag_limit
    bags = tuple(rng.choice([0, max(0, limit - 1), max(0, limit - 2), max(0, limit - 3)])
                 for _ in range(rules.side_count))
    return tuple(bids), tuple(blind), bags


def _position(spot: Spot) -> Position:
    return Position(hands=tuple(spot.hands), to_play=spot.to_play, trick=tuple(spot.trick),
                    taken=tuple(spot.taken), broken=spot.broken)


def _describe(name: str, spot: Spot, extra: str = "") -> str:
    """The failing position in code form, for the report."""
    return (f"rules={name!r}: Position(hands={tuple(hex(h) for h in spot.hands)}, "
            f"to_play={spot.to_play}, trick={spot.trick}, taken={spot.taken}, "
            f"broken={spot.broken}){extra}".replace("'0x", "0x").replace("',", ",").replace("')", ")"))


def _final_value(oracle: Oracle, spot: Spot, line: Sequence[int], bids: Sequence[int],
                 blind: Sequence[bool], bags: Sequence[int], side: int) -> int:
    """Play ``line`` from ``spot`` under the oracle's rules (each card checked legal), to the end
    of the hand, and score the final tricks as the referee does."""
    final = oracle.replay(oracle.state(spot), line)
    assert oracle.over(final), f"the line {line} stops before the end of the hand"
    return oracle.hand_value(final[3], bids, blind, bags, side)


def _check_ending(name: str, rules: RuleSet, dd: DoubleDummy, spot: Spot, rng: random.Random) -> None:
    oracle = Oracle(rules)
    n, sides = rules.seat_count, rules.side_count
    state = oracle.state(spot)
    position = _position(spot)
    where = _describe(name, spot)
    position.check(rules)
    assert position.legal(rules) == oracle.legal(state), where

    bid_sets = [random_bids(rules, spot, rng) for _ in range(2)]
    score_questions = [(0, s) for s in range(sides)] + [(1, rng.randrange(sides))]
    questions: list[Any] = []
    for side in range(sides):
        seats = oracle.side_seats(side)
        questions.append((lambda taken, seats=seats: sum(taken[s] for s in seats), seats))
    for seat in range(n):
        partner = (seat + 2) % 4 if rules.mode == Mode.PARTNERSHIP else seat
        attackers = set(range(n)) - {seat, partner}
        questions.append((lambda taken, seat=seat: int(taken[seat] > 0), attackers))
    for which, side in score_questions:
        bids, blind, bags = bid_sets[which]
        questions.append((lambda taken, b=bids, bl=blind, bg=bags, s=side:
                          oracle.hand_value(taken, b, bl, bg, s), oracle.side_seats(side)))
    memo: dict[Any, tuple[int, ...]] = {}
    expected = oracle.search_many(state, questions, memo)
    children = {card: memo[oracle.play(state, card)] for card in oracle.legal(state)}
    # Equivalent cards split the legal ones, and every card of a class has the same answers.
    classes = position.equivalent_cards(rules)
    assert sorted(c for cards in classes for c in cards) == sorted(children), where
    for cards in classes:
        assert len({children[c] for c in cards}) == 1, f"equivalent cards {cards}: {where}"

    got_tricks = [dd.tricks(position, side) for side in range(sides)]
    assert got_tricks == list(expected[:sides]), f"tricks per side: {where}"
    got_nil = [dd.nil_set(position, seat) for seat in range(n)]
    assert got_nil == [bool(v) for v in expected[sides:sides + n]], f"nil_set per seat: {where}"

    to_play_side = rules.seat_side(spot.to_play)
    card_tricks = dd.card_tricks(position)
    assert card_tricks == {c: v[to_play_side] for c, v in children.items()}, f"card_tricks: {where}"
    assert max(card_tricks.values()) == got_tricks[to_play_side], where
    other = rng.randrange(sides)
    assert dd.card_tricks(position, other) == {c: v[other] for c, v in children.items()}, where
    nil_seat = rng.randrange(n)
    assert dd.card_nil_set(position, nil_seat) == {
        c: bool(v[sides + nil_seat]) for c, v in children.items()}, f"card_nil_set {nil_seat}: {where}"

    for q, (which, side) in enumerate(score_questions):
        bids, blind, bags = bid_sets[which]
        score_where = f"{where}; bids={bids}, blind={blind}, bags={bags}, side={side}"
        line = dd.score(position, bids, blind=blind, bags=bags, side=side)
        assert isinstance(line, ScoreLine)
        assert line.value == expected[sides + n + q], f"score: {score_where}"
        assert dd.score_value(position, bids, blind=blind, bags=bags, side=side) == line.value
        assert dd.score_reaches(position, bids, line.value, blind=blind, bags=bags, side=side)
        assert not dd.score_reaches(position, bids, line.value + 1, blind=blind, bags=bags,
                                    side=side), score_where
        # The line is legal (the oracle checks each card) and scores its value.
        assert _final_value(oracle, spot, line.line, bids, blind, bags, side) == line.value, score_where
        replayed = position
        for card in line.line:
            replayed = replayed.play(card, rules)
        assert not any(replayed.hands) and not replayed.trick, score_where
        assert oracle.hand_value(tuple(replayed.taken), bids, blind, bags, side) == line.value
        if q == len(score_questions) - 1:
            cards = dd.card_scores(position, bids, blind=blind, bags=bags, side=side)
            assert cards == {c: v[sides + n + q] for c, v in children.items()}, f"card_scores: {score_where}"
            best = max if rules.seat_side(spot.to_play) == side else min
            assert best(cards.values()) == line.value, score_where
    # Every side's best against all the others: the sum of their guarantees is at most the hand
    # (each side's guaranteeing strategy played at once gives each at least its guarantee), and
    # with two sides exactly the hand.
    hand_tricks = sum(state[3]) + len(bits(spot.hands[spot.to_play]))
    if sides == 2:
        assert sum(got_tricks) == hand_tricks, where
    else:
        assert sum(got_tricks) <= hand_tricks, where


def _cases(rules: RuleSet, count: int, seed: int) -> list[Spot]:
    """``count`` endings: one of 5 cards a seat in mid-trick (and one at a trick's start with
    two or three seats: 5 cards at four or five seats is the oracle's slowest search), the rest of
    2 to 4 cards, at a trick's start, in mid-trick and in the first trick in turn."""
    rng = random.Random(seed)
    kinds = ["start", "mid", "first", "mid"]
    spots = [random_ending(rules, rng, "mid", 5)]
    if rules.seat_count <= 3:
        spots.append(random_ending(rules, rng, "start", 5))
    for index in range(count - len(spots)):
        k = rng.choices(list(CARDS_WEIGHTS), weights=list(CARDS_WEIGHTS.values()))[0]
        spots.append(random_ending(rules, rng, kinds[index % len(kinds)], k))
    return spots


@pytest.mark.parametrize("name", list(RULE_SETS))
def test_endings_match_the_oracle(name: str) -> None:
    rules = RULE_SETS[name]
    count = CASES_PER_VARIANT if name in VARIANTS else CASES_PER_PRESET
    dd = DoubleDummy(rules if name in VARIANTS else name)
    rng = random.Random(_seed(name) + 1)
    for spot in _cases(rules, count, _seed(name)):
        _check_ending(name, rules, dd, spot, rng)


def test_the_oracle_plays_as_the_referee() -> None:
    """The oracle's legal cards, trick winners and broken trumps are the referee's, on random
    full hands of every preset but two-player (whose deal is a draw)."""
    for name, rules in RULE_SETS.items():
        if rules.mode == Mode.TWO_PLAYER:
            continue
        rng = random.Random(_seed(name) + 2)
        oracle = Oracle(rules)
        n = rules.seat_count
        for _ in range(3):
            deck = sorted(oracle.deck.cards)
            rng.shuffle(deck)
            size = rules.hand_size
            hands = [deck[s * size:(s + 1) * size] for s in range(n)]
            hand = Hand(rules, rng.randrange(n), hands)
            _bid_freely(hand)
            state = (tuple(sum(1 << c for c in h) for h in hands), hand.turn_index, (), (0,) * n, False)
            while hand.turn_index is not None:
                seat = hand.turn_index
                assert seat == state[1]
                legal = oracle.legal(state)
                assert tuple(legal) == hand.legal_plays(seat), name
                card = rng.choice(legal)
                hand.play(seat, card)
                state = oracle.play(state, card)
                assert state[4] == hand.spades_broken_status
                assert state[3] == hand.tricks_taken
            assert oracle.over(state)


def _bid_freely(hand: Hand) -> None:
    for offset in range(hand.seat_count):
        seat = (hand.first_bidder_index + offset) % hand.seat_count
        for bid in (2, 3, 1, 0, *range(4, 18)):
            if hand.can_bid(seat, bid):
                hand.bid(seat, bid)
                break
    # A blind-nil exchange does not happen: nobody bid blind nil.


# --- full deals against bridge's DDS ---

BRIDGE_RULES = RuleSet(spades_lead="any_time", first_lead="dealer_right")
BRIDGE_DEALS = int(os.environ.get("SPADES_SIM_DD_BRIDGE_DEALS", "3"))
"""Full deals solved against DDS here. A full deal takes the solver seconds to a minute today, so
the test suite checks three; ``scripts/dd_check.py --deals 1000`` is the bulk comparison."""
_RANKS = "23456789TJQKA"


def _pbn_hand(mask: int) -> str:
    held = bits(mask)
    return ".".join("".join(_RANKS[c % 13] for c in sorted((c for c in held if c // 13 == suit),
                                                             reverse=True))
                    for suit in (3, 2, 1, 0))


def _bridge_deals(count: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    hands = np.zeros((count, 4), dtype=np.uint64)
    for i in range(count):
        order = rng.permutation(52)
        for seat in range(4):
            hands[i, seat] = sum(1 << int(c) for c in order[seat * 13:(seat + 1) * 13])
    return hands


@pytest.fixture(scope="module")
def bridge() -> tuple[np.ndarray, np.ndarray]:
    """The deals (m, 4) and DDS's spade tricks per declarer (m, 4), seat s as bridge player s."""
    hands = _bridge_deals(BRIDGE_DEALS, 20261202)
    deals = [Deal("N:" + " ".join(_pbn_hand(int(h)) for h in row)) for row in hands]
    others = [Denom.hearts, Denom.diamonds, Denom.clubs, Denom.nt]
    tables = [table for start in range(0, len(deals), 200)  # DDS takes 200 tables a call
              for table in calc_all_tables(deals[start:start + 200], exclude=others)]
    declarer = np.array([[table[Denom.spades, Player(seat)] for seat in range(4)] for table in tables],
                        dtype=np.int64)
    return hands, declarer


def _dds_side_tricks(declarer_row: np.ndarray, leader: int, side: int) -> int:
    declarer = (leader - 1) % 4  # the leader is the declarer's left-hand opponent
    tricks = int(declarer_row[declarer])
    return tricks if side == declarer % 2 else 13 - tricks


def test_full_deals_match_bridge_dds(bridge: tuple[np.ndarray, np.ndarray]) -> None:
    hands, declarer = bridge
    m = len(hands)
    leaders = np.arange(m, dtype=np.int64) % 4
    sides = (np.arange(m, dtype=np.int64) // 4) % 2
    got = solve_deals(BRIDGE_RULES, hands, leaders, sides)
    expected = np.array([_dds_side_tricks(declarer[i], int(leaders[i]), int(sides[i])) for i in range(m)])
    wrong = np.flatnonzero(got != expected)
    first = wrong[0] if len(wrong) else 0
    assert not len(wrong), (
        f"{len(wrong)} of {m} deals disagree with DDS; first: hands={[hex(int(h)) for h in hands[first]]}, "
        f"leader={leaders[first]}, side={sides[first]}: solver {got[first]}, DDS {expected[first]}")


def test_answers_do_not_depend_on_the_table_size() -> None:
    """A tiny solver (its pattern pool starts over again and again) and the large one given to
    hands with a nil bid answer alike: tricks, nils and scores of endings of 4 to 6 cards a
    seat, with nil bids."""
    rules = RULE_SETS["standard"]
    tiny, large = DoubleDummy(rules, table_bits=6), DoubleDummy(rules, table_bits=LARGE_TABLE_BITS)
    rng = random.Random(_seed("table size"))
    nils = 0
    for index in range(40):
        spot = random_ending(rules, rng, ("start", "mid")[index % 2], rng.randint(4, 6))
        position = _position(spot)
        bids, blind, bags = random_bids(rules, spot, rng)
        for side in range(rules.side_count):
            assert tiny.tricks(position, side) == large.tricks(position, side), _describe(
                "standard", spot)
            assert (tiny.score_value(position, bids, blind=blind, bags=bags, side=side)
                    == large.score_value(position, bids, blind=blind, bags=bags, side=side)), \
                _describe("standard", spot, f" bids={bids} blind={blind} bags={bags}")
        for seat in (seat for seat, bid in enumerate(bids) if bid == 0):
            nils += 1
            assert tiny.nil_set(position, seat) == large.nil_set(position, seat), _describe(
                "standard", spot, f" nil of seat {seat}")
    assert nils >= 20
    assert table_bits_for((3, 0, 4, 2)) == LARGE_TABLE_BITS
    assert table_bits_for((3, 1, 4, 2)) == table_bits_for(None) == TABLE_BITS


def test_solve_deals_threads() -> None:
    """One answer whatever the number of threads, on short deals (5 to 8 cards a seat)."""
    rng = random.Random(11)
    short = [_fresh_deal(BRIDGE_RULES, rng, 5 + i % 4) for i in range(40)]
    for hands in (np.array(short[i::4], dtype=np.uint64) for i in range(4)):
        leaders = np.arange(len(hands), dtype=np.int64) % 4
        one = solve_deals(BRIDGE_RULES, hands, leaders, 1, threads=1)
        two = solve_deals(BRIDGE_RULES, hands, leaders, 1, threads=2)
        assert one.dtype == np.int64 and one.shape == (len(hands),)
        assert np.array_equal(one, two)
        assert np.array_equal(one, solve_deals(BRIDGE_RULES, hands, leaders, np.ones(len(hands), np.int64)))


# --- properties on fresh deals of the presets ---


def _fresh_deal(rules: RuleSet, rng: random.Random, size: int | None = None) -> list[int]:
    """A random deal of ``size`` cards a seat (the hand size if None) from the rules' deck."""
    oracle = Oracle(rules)
    deck = sorted(oracle.deck.cards)
    rng.shuffle(deck)
    size = size or rules.hand_size
    return [sum(1 << c for c in deck[s * size:(s + 1) * size]) for s in range(rules.seat_count)]


@pytest.mark.parametrize("name", ["standard", "three-player", "solo", "head-to-head", "five-player",
                                  "two-of-clubs"])
def test_fresh_deal_tables_and_the_first_lead(name: str) -> None:
    """``table`` of short fresh deals (4 cards a seat, 3 at five seats; the first-lead rules in
    force): -1 in the
    rows of the seats that may not lead under two_of_clubs; otherwise each side's tricks, the
    oracle's and ``Position.deal``'s; two sides share the tricks, more take at most them."""
    rules = RULE_SETS[name]
    dd = DoubleDummy(rules)
    oracle = Oracle(rules)
    rng = random.Random(_seed(name) + 3)
    size = 3 if rules.seat_count == 5 else 4
    for deal_index in range(3):
        hands = _fresh_deal(rules, rng, size)
        if rules.first_lead == FirstLead.TWO_OF_CLUBS:
            # The lowest club dealt (to seat 0, 1, 2): with nobody holding it, the rules name no
            # first leader (a short deal's case only), and the test does not ask.
            _leader_first_club(oracle, hands, deal_index, rng)
        table = dd.table(hands)
        assert table.dtype == np.int64 and table.shape == (rules.seat_count, rules.side_count)
        lowest = oracle.deck.lowest_club
        for leader in range(rules.seat_count):
            row = list(table[leader])
            if rules.first_lead == FirstLead.TWO_OF_CLUBS and not hands[leader] >> lowest & 1:
                assert row == [-1] * rules.side_count, (name, hands, leader)
                continue
            spot = Spot(tuple(hands), leader)
            where = _describe(name, spot)
            expected = oracle.tricks_of_every_side(oracle.state(spot))
            position = Position.deal(hands, leader)
            assert [dd.tricks(position, side) for side in range(rules.side_count)] == expected, where
            assert row == expected, f"table row {leader}: {where}"
            if rules.side_count == 2:
                assert sum(row) == size
            else:
                assert sum(row) <= size
        leaders = np.array([s for s in range(rules.seat_count) if table[s, 0] >= 0], dtype=np.int64)
        many = np.array([hands] * len(leaders), dtype=np.uint64)
        assert list(solve_deals(rules, many, leaders, 0)) == [table[s, 0] for s in leaders]


def test_full_deal_score_line_replays_through_the_referee() -> None:
    """A 13-card score line is legal in the referee's ``Hand`` and scores its value there."""
    rules = load_preset("standard")
    dd = DoubleDummy(rules)
    rng = random.Random(7)
    for deal_index in range(1):
        hands = _fresh_deal(rules, rng)
        dealer = deal_index % 4
        leader = (dealer + 1) % 4
        bids = (4, 3, 0, 3) if deal_index else (3, 4, 3, 2)
        line = dd.score(Position.deal(hands, leader), bids, bags=(8, 9), side=deal_index % 2)
        assert len(line.line) == 52
        hand = Hand(rules, dealer, [bits(h) for h in hands], bags_before=(8, 9))
        for offset in range(4):
            seat = (hand.first_bidder_index + offset) % 4
            hand.bid(seat, bids[seat])
        for card in line.line:
            hand.play(hand.turn_index, card)
        points = hand.result.points
        side = deal_index % 2
        assert points[side] - points[1 - side] == line.value


# --- malformed positions ---


def _refused(make: Any, *fields: str) -> str:
    """``make()`` raises PositionError whose one-line message names one of ``fields``."""
    with pytest.raises(PositionError) as raised:
        make()
    message = str(raised.value)
    assert isinstance(raised.value, ValueError)
    assert "\n" not in message and any(f in message for f in fields), message
    return message


def test_position_errors() -> None:
    rules = load_preset("standard")
    mask = [sum(1 << c for c in range(s * 3, s * 3 + 3)) for s in range(4)]  # 3 cards a seat
    good = Position(hands=tuple(mask), to_play=1, taken=(3, 3, 3, 1))
    good.check(rules)

    def check(**changes: Any) -> Any:
        fields = {"hands": good.hands, "to_play": good.to_play, "trick": good.trick,
                  "taken": good.taken, "broken": good.broken, **changes}
        return lambda: Position(**fields).check(rules)

    _refused(check(hands=(mask[0] | 1 << 3, *mask[1:])), "hands")  # card 3 in seats 0 and 1
    _refused(check(hands=(mask[0] | 1 << 52, *mask[1:])), "hands")  # a joker, not in the deck
    _refused(check(hands=tuple(mask[:3])), "hands")  # three hands at four seats
    _refused(check(hands=(mask[0] | 1 << 40, *mask[1:])), "hands", "trick")  # 4, 3, 3, 3 cards
    _refused(check(to_play=4), "to_play")
    _refused(check(to_play=-1), "to_play")
    # A trick of one card led by seat 0 (to play 1): seat 0 must hold one fewer.
    _refused(check(trick=(40,)), "hands", "trick")
    # Seat 0 led card 3, which seat 1 still holds.
    _refused(check(trick=(3,), hands=(mask[0] & ~1, *mask[1:])), "hands", "trick")
    # Illegal plays: a card seat 1 does not hold (its partner's; the AS).
    for bad_card in (0, 51):
        _refused(lambda card=bad_card: good.play(card, rules), "card")
    led = Position(hands=(mask[0] & ~1, *mask[1:]), to_play=1, trick=(0,), taken=(3, 3, 3, 1))
    led.check(rules)
    # Seat 1 holds 3C 4C 5C (ids 3, 4, 5) and must follow clubs: nothing else is legal.
    assert led.legal(rules) == [3, 4, 5]
    _refused(lambda: led.play(51, rules), "card")
    # Wrong-sized taken, or the position's dealing under another table size.
    _refused(check(taken=(3, 3, 3)), "taken")
    _refused(lambda: Position(hands=tuple(mask), to_play=0).check(load_preset("three-player")), "hands")


def test_equivalent_cards_by_hand() -> None:
    """Cards of a suit are equivalent when no other hand holds a card between them, nor does the
    trick; a card played in an earlier trick does not part them."""
    rules = load_preset("standard")

    def classes(*texts: str) -> list[tuple[int, ...]]:
        return [tuple(parse_cards(text)) for text in texts]

    hands = [mask_of(parse_cards(text)) for text in (
        "2H 3H 5H 7H 9H", "4H 6H 2C 3C 4C", "5C 6C 7C 8C 9C", "2D 3D 4D 5D 6D")]
    lead = Position(hands, to_play=0, taken=(2, 2, 2, 2))  # the 8H went in an earlier trick
    assert lead.equivalent_cards(rules) == classes("2H 3H", "5H", "7H 9H")
    follow = lead.play(parse_cards("5H")[0], rules)  # only the 5H, now in the trick, parts them
    assert follow.equivalent_cards(rules) == classes("4H", "6H")


def test_the_solver_refuses_a_bad_position() -> None:
    dd = DoubleDummy("standard")
    mask = [sum(1 << c for c in range(s * 3, s * 3 + 3)) for s in range(4)]
    bad = Position(hands=(mask[0] | 1 << 3, *mask[1:]), to_play=0, taken=(3, 3, 3, 1))
    _refused(lambda: dd.tricks(bad, 0), "hands")


def test_oracle_sanity() -> None:
    """The oracle on a hand-made ending: seat 0 leads the AS and KS against low spades."""
    rules = load_preset("standard")
    spot = Spot(hands=(1 << 51 | 1 << 50, 1 << 39 | 1 << 40, 1 << 41 | 1 << 42, 1 << 0 | 1 << 1),
                to_play=0, taken=(3, 4, 4, 0), broken=True)  # AS KS / 2S 3S / 4S 5S / 2C 3C
    oracle = Oracle(rules)
    assert oracle.tricks(oracle.state(spot), 0) == 9
    assert oracle.tricks(oracle.state(spot), 1) == 4
    assert oracle.nil_set(oracle.state(spot), 3) is False
    assert oracle.nil_set(oracle.state(spot), 1) is True  # it has tricks already
    with pytest.raises(OracleError):
        Oracle(load_preset("three-player")).legal(((1 << 5,) * 3, 0, (), (0, 0, 0), False))


def test_search_refuses_arrays_that_are_not_c_contiguous():
    """The search reads its arrays through views built from their addresses and shapes, so an
    array with gaps between its items would be read wrongly: the search's entry refuses it."""
    from spades_sim.kernel.dd_search import MODE_TRICKS, _reach_root

    solver = DoubleDummy("standard")
    hands = [mask_of(parse_cards(text)) for text in (
        "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S", "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H",
        "AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D", "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C")]
    position = Position.deal(hands, 0)
    state = list(solver._state(position, solver._layout))
    cfg = solver._cfg(MODE_TRICKS, 5, 5, 0)
    assert _reach_root(*state, 13, cfg, *solver._tables(), *solver._no_score())
    gapped = np.zeros(2 * len(state[0]), np.uint64)[::2]
    gapped[:] = state[0]
    state[0] = gapped
    with pytest.raises(ValueError, match="C-contiguous"):
        _reach_root(*state, 13, cfg, *solver._tables(), *solver._no_score())

"""Table modes in the kernel: decks and deals per mode, the two-player draw, the blind-nil
exchange and the basic policy's bids at every table size (docs/scoring.md, "Table modes and the
blind-nil exchange").

Expected deck contents are counted by hand from docs/rules.md; statistical tolerances follow
tests/test_deals.py (4 standard errors, or the 1e-4 point of a chi-square).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from chisquare import chi2_upper, chi_square

from spades_sim.cards import parse_cards
from spades_sim.kernel.engine import _game_over
from spades_sim.kernel.packing import NO_ELIMINATION
from spades_sim.rules import RuleSet
from spades_sim.run.catalogue import pick
from spades_sim.run.simulate import simulate_games, simulate_hands, trace_games, trace_hands

TRACED = 2_000
SEED = 6_120


def _cards_of(mask: int, slot_card: np.ndarray) -> set[int]:
    return {int(slot_card[s]) for s in range(64) if int(mask) >> s & 1}


def _all_cards() -> set[int]:
    return set(range(52))


# (mode, deck, joker_deuces) -> (cards per seat, trumps in the deck, cards not in the deck)
DECKS = {
    ("partnership", "standard", "clubs_diamonds"): (13, 13, ""),
    ("solo", "jokers", "clubs_hearts"): (13, 15, "2C 2H"),
    ("solo", "joker-joker-deuce-deuce", "clubs_diamonds"): (13, 16, "2C 2H"),
    ("three-player", "standard", "clubs_diamonds"): (17, 13, "2C"),
    ("three-player", "deuce-high", "clubs_diamonds"): (17, 13, "2C"),
    ("three-player", "jokers", "none"): (18, 15, ""),
    ("five-player", "jokers", "all"): (10, 14, "2C 2D 2H 2S"),
}


@pytest.mark.parametrize("key", DECKS, ids=["-".join(k) for k in DECKS])
def test_cards_and_trumps_per_seat(key: tuple[str, str, str]) -> None:
    mode, deck, deuces = key
    hand_size, trumps, removed = DECKS[key]
    blind = "off" if mode != "partnership" else "when_behind"
    rules = RuleSet(mode=mode, deck=deck, joker_deuces=deuces, blind_nil=blind)
    out, trace, packed = trace_hands(rules, "random", range(200), SEED)
    deck_cards = _all_cards() - set(parse_cards(removed))
    if deck in ("jokers", "joker-joker-deuce-deuce"):
        deck_cards |= {52, 53}
    assert rules.hand_size == hand_size and packed.hand_size == hand_size
    for row in range(200):
        held = [_cards_of(trace.hands[row, seat], packed.slot_card)
                for seat in range(rules.seat_count)]
        assert [len(cards) for cards in held] == [hand_size] * rules.seat_count
        assert set().union(*held) == deck_cards  # with the counts: every card exactly once
        # The kernel's trump count per seat adds up to the deck's trumps.
        assert int(out.spades[row].sum()) == trumps
    assert int(out.tricks.sum(axis=1).max()) == hand_size == int(out.tricks.sum(axis=1).min())


@pytest.mark.parametrize("mode", ["three-player", "five-player"])
def test_every_card_equally_likely_in_every_seat(mode: str) -> None:
    """A (card, seat) table of a uniform deal: Pearson's statistic times (D-1)/D is chi-square
    with (D-1)(S-1) degrees of freedom for a deck of D cards and S seats (test_deals)."""
    rules = RuleSet(mode=mode, blind_nil="off",
                    **({"deck": "jokers", "joker_deuces": "all"} if mode == "five-player" else {}))
    hands = 30_000
    _, trace, _ = trace_hands(rules, "random", range(hands), SEED + 1)
    deck, seats = rules.deck_size, rules.seat_count
    table = np.array([[((trace.hands[:, seat] >> np.uint64(slot)) & np.uint64(1)).sum()
                       for seat in range(seats)] for slot in range(deck)], dtype=float)
    assert (table.sum(axis=1) == hands).all()
    statistic = chi_square(table, np.full_like(table, hands / seats)) * (deck - 1) / deck
    assert statistic < chi2_upper((deck - 1) * (seats - 1)), statistic


# --- the two-player keep-or-discard draw ---


@pytest.fixture(scope="module")
def random_draws():
    rules = RuleSet(mode="two-player", blind_nil="off")
    _, trace, packed = trace_hands(rules, "random", range(40_000), SEED + 2)
    return trace, packed


def test_draw_keeps_13_each_and_leaves_26_out(random_draws) -> None:
    trace, packed = random_draws
    assert list(packed.slot_card[:52]) == list(range(52))
    full = np.uint64((1 << 52) - 1)
    kept0, kept1 = trace.hands[:, 0], trace.hands[:, 1]
    out0, out1 = trace.discards[:, 0], trace.discards[:, 1]
    assert ((kept0 | kept1 | out0 | out1) == full).all()
    for masks in (kept0, kept1, out0, out1):
        assert (np.bitwise_count(masks) == 13).all()  # 4 x 13 = 52 with the union: disjoint
    assert (np.bitwise_count(out0 | out1) == 26).all()


def test_draw_every_card_equally_likely_in_each_hand(random_draws) -> None:
    """With the random policy (keep or discard by a coin, blind to the card) every card ends in
    each hand with chance 1/4 and out of play with 1/2: the 52 x 3 table is a uniform partition
    into 13 + 13 + 26, so Pearson's statistic times 51/52 is chi-square with 51 x 2 df."""
    trace, _ = random_draws
    n = trace.hands.shape[0]
    places = (trace.hands[:, 0], trace.hands[:, 1], trace.discards[:, 0] | trace.discards[:, 1])
    table = np.array([[((mask >> np.uint64(card)) & np.uint64(1)).sum() for mask in places]
                      for card in range(52)], dtype=float)
    expected = n * np.array([0.25, 0.25, 0.5])
    statistic = chi_square(table, np.broadcast_to(expected, table.shape)) * 51 / 52
    assert statistic < chi2_upper(102), statistic


def test_basic_draw_keeps_trumps_and_honours() -> None:
    """The basic policy keeps a drawn trump or side A/K/Q: its hands hold more trumps than the
    13/4 = 3.25 a card-blind draw gives (seen above), and the two bids add up to about the 13
    tricks."""
    rules = RuleSet(mode="two-player", blind_nil="off")
    frame = simulate_hands(rules, "basic", 20_000, seed=SEED + 3, keep_records=True).records()
    assert frame["spades"].mean() > 4.0
    total_bid = frame.groupby("game")["bid"].sum()
    assert 0.8 * 13 <= total_bid.mean() <= 13


# --- the basic policy at every table size ---

TABLES = {
    "solo": RuleSet(mode="solo", blind_nil="off"),
    "two-player": RuleSet(mode="two-player", blind_nil="off"),
    "three-player": RuleSet(mode="three-player", blind_nil="off"),
    "five-player": RuleSet(mode="five-player", deck="jokers", joker_deuces="all", blind_nil="off"),
}


@pytest.mark.parametrize("name", TABLES)
def test_basic_bids_fit_the_tricks_of_the_table(name: str) -> None:
    """The bids of a table add up to between 75% and 100% of the tricks, and most contracts
    are made: the four-player trick estimate is scaled to the table size."""
    rules = TABLES[name]
    run = simulate_hands(rules, "basic", 20_000, seed=SEED + 4, keep_records=True)
    total_bid = run.records().groupby("game")["bid"].sum()
    assert 0.75 * rules.hand_size <= total_bid.mean() <= rules.hand_size, total_bid.mean()
    assert pick(run.summary(), "make_rate")["low"] > 0.6


def test_basic_never_bids_nil_alone_by_default() -> None:
    """solo_nil_threshold = -1: a seat without a partner keeps off nil (it fails ~70% in solo)."""
    run = simulate_hands(TABLES["solo"], "basic", 5_000, seed=SEED + 5)
    assert run.totals.get("nil_bid_rate").y == 0


# --- the blind-nil exchange ---


def test_basic_exchange_passes_lowest_then_highest() -> None:
    """blind_nil_pass = 2: the partner passes two cards of its lowest ranks, then the blind-nil
    bidder passes back two of its highest (which suit on equal ranks is the policy's choice)."""
    rules = RuleSet(blind_nil="anytime", blind_nil_pass=2)
    _, out, trace, packed = trace_games(rules, "basic", range(300), SEED + 6)
    exchanges = 0
    for row in np.flatnonzero(out.blind.sum(axis=1) == 1):  # both blind: the differential test
        seat = int(np.flatnonzero(out.blind[row])[0])
        partner = (seat + 2) % 4
        dealt = {s: _cards_of(trace.hands[row, s], packed.slot_card) for s in (seat, partner)}
        given = {s: _cards_of(trace.given[row, s], packed.slot_card) for s in (seat, partner)}
        assert _ranks(given[partner]) == _ranks(dealt[partner])[:2], row
        after = (dealt[seat] | given[partner]) - given[seat]
        assert len(after) == 13
        assert _ranks(given[seat]) == _ranks(dealt[seat] | given[partner])[-2:], row
        exchanges += 1
    assert exchanges > 20


def _ranks(cards: set[int]) -> list[int]:
    return sorted(card % 13 for card in cards)


def test_exchange_helps_blind_nil() -> None:
    """Passing three cards makes a basic blind nil succeed more often than passing none
    (the same seed: the same deals and, until the scores differ, the same blind-nil calls)."""
    rates = []
    for passed in (0, 3):
        rules = RuleSet(blind_nil="anytime", blind_nil_pass=passed)
        rates.append(pick(simulate_games(rules, "basic", 2_000, seed=SEED + 7).summary(),
                          "blind_success"))
    # Standard errors from the intervals, which take the game as the unit (the blind nils of
    # one game are not independent).
    (p0, se0), (p3, se3) = ((row["value"], (row["high"] - row["low"]) / (2 * 1.96))
                            for row in rates)
    se = math.sqrt(se0 ** 2 + se3 ** 2)
    assert p3 - p0 > 4 * se, (p0, p3, se)


# --- the end of a game with more than two sides ---


@pytest.mark.parametrize(("scores", "limit", "hands", "winner"), [
    ((510, 480, 300), 0, 1, 0),     # one side over the target
    ((510, 520, 100), 0, 1, 1),     # two over: the higher
    ((510, 510, 100), 0, 1, -1),    # two over and level on top: play on
    ((520, 510, 520), 0, 1, -1),    # the top score shared by two of three
    ((300, -210, 250, 0), 0, 1, 0),  # elimination ends it: the highest wins
    ((100, 90, 80), 8, 8, 0),       # hand limit: the highest wins
    ((100, 100, 80), 8, 8, -1),     # hand limit, top shared: play on
    ((100, 90, 80), 8, 7, -1),      # nothing yet
])
def test_game_over_with_more_sides(scores, limit: int, hands: int, winner: int) -> None:
    score = np.array(scores, dtype=np.int64)
    assert int(_game_over(score, 500, -200 if len(scores) == 4 else NO_ELIMINATION, limit, hands,
                          -1)) == winner

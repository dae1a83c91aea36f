"""Differential test: the numba kernel against the plain-Python referee (docs/architecture.md).

The kernel plays hands and games; ``records.trace_logs`` turns its traces into
hand logs (docs/hand-log.md) carrying the kernel's bids, every card played, the
winner of every trick, the result of every hand (tricks, nil outcomes, points,
bags, penalties, scores, bag totals) and the end of every game.
``referee.score_file`` replays each log move by move — so an illegal bid or
card raises — and compares every recorded field with its own computation,
carrying score, bags, dealer and hand index from hand to hand within a game.
On top of that, this module compares the referee's results with the kernel's
record arrays field by field, and the kernel's per-game records with the sums
over the referee's hands.

Sizes: 20,000 hands and 500 games for each policy, plus mixed sides.
The referee is plain Python (about 1 ms a hand), so the logs are scored by two
worker processes while this process traces the next chunk; the workers run
only the library function ``score_file`` (spawned, so nothing of numba's state
is forked).
"""

from __future__ import annotations

import multiprocessing
import os
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest

from spades_sim.kernel.strategies import Strategy
from spades_sim.referee import ScoredHand, game_winner, replay_hand, score_file
from spades_sim.referee.handlog import BlindCount, LogError, write_log
from spades_sim.referee.scoring import contract_set
from spades_sim.rules import RuleSet, load_preset, preset_names
from spades_sim.run.records import trace_logs
from spades_sim.run.simulate import trace_games, trace_hands

STANDARD = RuleSet()
MIXED = ["basic", "random"]  # seats take turns: side 0 (seats 0+2) basic, side 1 (seats 1+3) random
# Only the basic bidder bids blind nil; with random card play on side 1 both ways of passing
# cards in the blind-nil exchange are compared.
EXCHANGE_MIX = ["basic", Strategy("basic-bids-random-play", "basic", "random")]
# The expert bidding and card play against the yardstick's, side against side.
EXPERT_MIX = ["expert", "expert-v1"]
HAND_CHUNK = 1_000
GAME_CHUNK = 50


@pytest.fixture(scope="module")
def pool() -> Iterator[ProcessPoolExecutor]:
    workers = max(1, min(2, os.cpu_count() or 1))
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as executor:
        yield executor


@dataclass
class _Chunk:
    out: object  # HandRecords
    games: object | None  # GameRecords
    future: Future


@dataclass
class Tally:
    """What the compared hands contained, to show that each rule branch was exercised."""

    hands: int = 0
    games: int = 0
    finished: int = 0
    capped: int = 0
    counts: Counter = field(default_factory=Counter)


def _chunks(ids: Sequence[int], size: int) -> Iterator[list[int]]:
    for start in range(0, len(ids), size):
        yield list(ids[start:start + size])


def differential(pool: ProcessPoolExecutor, tmp_path: Path, rules: RuleSet, policy, kind: str,
                 count: int, seed: int, max_hands: int = 1000) -> Tally:
    """Trace ``count`` hands or games, have the referee score them, compare everything."""
    chunks: list[_Chunk] = []
    size = HAND_CHUNK if kind == "hands" else GAME_CHUNK
    for index, ids in enumerate(_chunks(range(count), size)):
        if kind == "hands":
            out, trace, packed = trace_hands(rules, policy, ids, seed)
            games = None
        else:
            games, out, trace, packed = trace_games(rules, policy, ids, seed, max_hands=max_hands)
        path = tmp_path / f"{kind}-{index}.jsonl"
        write_log(path, trace_logs(rules.name, out, trace, packed, games=games))
        chunks.append(_Chunk(out, games, pool.submit(score_file, str(path), rules)))
    tally = Tally()
    for chunk in chunks:
        scored = chunk.future.result()  # a LogError here names the line and the disagreement
        compare_hands(rules, chunk.out, scored, tally)
        if chunk.games is not None:
            compare_games(rules, chunk.games, chunk.out, scored, tally, max_hands)
    return tally


def _contract_tricks(rules: RuleSet, side_bids: np.ndarray, side_tricks: np.ndarray,
                     side_nils: np.ndarray) -> np.ndarray:
    """Tricks toward a side's contract: the non-nil bidders' (a zero bid's among them), or all
    with count_for_partner."""
    if rules.nil_tricks == "count_for_partner":
        return side_tricks.sum(axis=1)
    return np.where(side_nils, 0, side_tricks).sum(axis=1)


def _is_nil(rules: RuleSet, bid: int | str) -> bool:
    """A nil or blind nil (under zero_bid = "zero" a plain 0 is a contract, no nil)."""
    return bid == "bn" or (bid == 0 and rules.zero_bid == "nil")


def compare_hands(rules: RuleSet, out, scored: list[ScoredHand], tally: Tally) -> None:
    """The referee's result of every hand equals the kernel's record arrays."""
    n = out.game.size
    assert len(scored) == n
    tally.hands += n
    bids = np.array([[0 if b == "bn" else b for b in s.bids] for s in scored], dtype=np.int64)
    # The kernel's blind flag: 1 blind nil, 2 a number of tricks bid blind (BlindCount), -1 a bid
    # of 0 that is no nil (zero_bid), else 0.
    flags = np.array([[1 if b == "bn" else 2 if isinstance(b, BlindCount) else 0 for b in s.bids]
                      for s in scored], dtype=np.int64)
    blind = (flags == 1).astype(np.int64)
    nils = np.array([[_is_nil(rules, b) for b in s.bids] for s in scored], dtype=bool)
    np.testing.assert_array_equal(out.bid, bids)
    np.testing.assert_array_equal(out.blind, np.where((bids == 0) & ~nils, -1, flags))
    np.testing.assert_array_equal(out.dealer, [s.dealer for s in scored])
    np.testing.assert_array_equal(out.tricks, [s.result.tricks for s in scored])
    for name in ("points", "bags", "penalty", "score", "bag_total"):
        np.testing.assert_array_equal(getattr(out, name), [getattr(s.result, name) for s in scored],
                                      err_msg=name)
    tricks = out.tricks.astype(np.int64)
    nil = np.where(nils, np.where(tricks == 0, "made", "set"), "none")
    np.testing.assert_array_equal(nil, [[v or "none" for v in s.result.nil] for s in scored])
    # Contract and made, recomputed from the referee's bids and tricks (docs/scoring.md step 1).
    sides = rules.side_count
    for side in range(sides):
        side_bids, side_tricks = bids[:, side::sides], tricks[:, side::sides]
        side_nils = nils[:, side::sides]
        contract = side_bids.sum(axis=1)
        contract_tricks = _contract_tricks(rules, side_bids, side_tricks, side_nils)
        np.testing.assert_array_equal(out.contract[:, side], contract)
        np.testing.assert_array_equal(out.made[:, side], contract_tricks >= contract)
        c = tally.counts
        c["set contracts"] += int(((contract_tricks < contract) & (contract > 0)).sum())
        c[f"blind nil by side {side}"] += int(blind[:, side::sides].sum())
        if rules.partnership:
            c["both partners nil"] += int(side_nils.all(axis=1).sum())
            c["plain nil beside a count"] += int(
                ((side_nils & (blind[:, side::sides] == 0)).any(axis=1)
                 & ~side_nils.all(axis=1)).sum())
        c["nil beside set contract"] += int(
            (side_nils.any(axis=1) & (contract_tricks < contract)).sum())
        c["zero bids"] += int(((side_bids == 0) & ~side_nils).sum())
    c = tally.counts
    c["nil made"] += int(((nil == "made") & (blind == 0)).sum())
    c["nil set"] += int(((nil == "set") & (blind == 0)).sum())
    c["blind nil made"] += int(((nil == "made") & (blind == 1)).sum())
    c["blind nil set"] += int(((nil == "set") & (blind == 1)).sum())
    c["penalties"] += int((out.penalty > 0).sum())
    for side in range(sides):
        side_blind = (flags[:, side::sides] == 2).any(axis=1)
        made = np.asarray(out.made[:, side], dtype=bool)
        c["blind bid made"] += int((side_blind & made).sum())
        c["blind bid set"] += int((side_blind & ~made).sum())
    c["bags"] += int(out.bags.astype(np.int64).sum())


def compare_games(rules: RuleSet, games, out, scored: list[ScoredHand], tally: Tally,
                  max_hands: int) -> None:
    """Game ends, winners and the kernel's per-game records against the referee's hands."""
    hand_counts = games.hands.astype(np.int64)
    assert int(hand_counts.sum()) == len(scored)
    ends = np.cumsum(hand_counts)
    starts = ends - hand_counts
    for g in range(hand_counts.size):
        hands = scored[starts[g]:ends[g]]
        game_id = int(out.game[starts[g]])
        assert all(s.game == game_id for s in hands)
        assert [s.hand for s in hands] == list(range(len(hands)))
        assert hands[0].dealer == int(games.first_dealer[g])
        assert all(s.game_winner is None for s in hands[:-1]), "the referee ended the game early"
        last = hands[-1]
        kernel_winner = int(games.winner[g])
        assert last.game_winner == (None if kernel_winner < 0 else kernel_winner), game_id
        assert tuple(int(x) for x in games.score[g]) == last.result.score
        assert tuple(int(x) for x in games.bag_total[g]) == last.result.bag_total
        if rules.sets_to_lose and kernel_winner >= 0:
            sets = [sum(contract_set(rules, h.bids, h.result.tricks, side) for h in hands)
                    for side in range(2)]
            tally.counts["lost by sets"] += max(sets) >= rules.sets_to_lose
        if kernel_winner < 0:
            # Stopped at the cap: the referee too sees a game that is not over.
            assert len(hands) == max_hands
            assert game_winner(rules, last.result.score) is None
            tally.capped += 1
        else:
            tally.finished += 1
        # The game record's counts, recomputed from the referee's hands.
        for side in range(rules.side_count):
            seats = range(side, rules.seat_count, rules.side_count)
            nil = [(h, s) for h in hands for s in seats if h.bids[s] == 0 and _is_nil(rules, 0)]
            blind = [(h, s) for h in hands for s in seats if h.bids[s] == "bn"]
            contracts = [h for h in hands if sum(h.bids[s] for s in seats if h.bids[s] != "bn") > 0]
            made = [h for h in contracts
                    if sum(h.result.tricks[s] for s in seats
                           if not _is_nil(rules, h.bids[s]) or rules.nil_tricks == "count_for_partner")
                    >= sum(h.bids[s] for s in seats if h.bids[s] != "bn")]
            # Bid error: |contract − tricks of the count bidders| (nil tricks never count here).
            bid_error = sum(abs(sum(h.bids[s] - h.result.tricks[s] for s in seats
                                    if not _is_nil(rules, h.bids[s]))) for h in contracts)
            expected = {
                "nil_bids": len(nil),
                "nil_made": sum(h.result.tricks[s] == 0 for h, s in nil),
                "blind_bids": len(blind),
                "blind_made": sum(h.result.tricks[s] == 0 for h, s in blind),
                "contracts": len(contracts),
                "made": len(made),
                "bags": sum(h.result.bags[side] for h in hands),
                "penalty": sum(h.result.penalty[side] for h in hands),
                "bid_error": bid_error,
            }
            got = {name: int(getattr(games, name)[g, side]) for name in expected}
            assert got == expected, (game_id, side)
    tally.games += hand_counts.size


# --- the required comparisons ---


def test_basic_hands(pool, tmp_path: Path) -> None:
    tally = differential(pool, tmp_path, STANDARD, "basic", "hands", 20_000, seed=1_001)
    c = tally.counts
    assert tally.hands == 20_000
    for outcome in ("nil made", "nil set", "set contracts", "nil beside set contract"):
        assert c[outcome] > 0, outcome


def test_random_hands(pool, tmp_path: Path) -> None:
    tally = differential(pool, tmp_path, STANDARD, "random", "hands", 20_000, seed=1_002)
    c = tally.counts
    assert tally.hands == 20_000
    for outcome in ("nil made", "nil set", "set contracts", "both partners nil",
                    "nil beside set contract"):
        assert c[outcome] > 0, outcome


def test_mixed_hands(pool, tmp_path: Path) -> None:
    tally = differential(pool, tmp_path, STANDARD, MIXED, "hands", 10_000, seed=1_003)
    assert tally.hands == 10_000
    assert tally.counts["nil made"] > 0 and tally.counts["set contracts"] > 0


def test_basic_games(pool, tmp_path: Path) -> None:
    tally = differential(pool, tmp_path, STANDARD, "basic", "games", 500, seed=2_001)
    c = tally.counts
    assert tally.games == 500 and tally.finished == 500
    # Blind nils made and set, and bag penalties, must actually have been compared.
    assert c["blind nil made"] + c["blind nil set"] > 0, "no blind nil in the basic games"
    assert c["penalties"] > 0, "no bag penalty in the basic games"
    assert c["blind nil made"] > 0 and c["blind nil set"] > 0


def test_expert_games(pool, tmp_path: Path) -> None:
    """The expert against expert-v1: sets, nil attacks, bag penalties, blind nils, every legal."""
    tally = differential(pool, tmp_path, STANDARD, EXPERT_MIX, "games", 300, seed=2_004)
    c = tally.counts
    assert tally.games == 300 and tally.finished == 300
    assert c["penalties"] > 0 and c["nil made"] > 0 and c["nil set"] > 0, c


def test_random_games_capped_at_30_hands(pool, tmp_path: Path) -> None:
    tally = differential(pool, tmp_path, STANDARD, "random", "games", 500, seed=2_002,
                         max_hands=30)
    assert tally.games == 500
    assert tally.capped > 0, "no game reached the cap"
    assert tally.counts["penalties"] > 0


def test_mixed_games(pool, tmp_path: Path) -> None:
    tally = differential(pool, tmp_path, STANDARD, MIXED, "games", 500, seed=2_003)
    assert tally.games == 500 and tally.finished == 500
    assert tally.counts["penalties"] > 0


# --- other rule options ---

VARIANTS = {
    "house": RuleSet(name="house", nil_value=50, blind_nil="anytime", blind_nil_value=150,
                     failed_contract="zero", overtrick_points=-1, bag_limit=5, bag_penalty=50,
                     target=300),
    "book": RuleSet(name="book", min_bid=1, blind_nil="off", overtrick_points=0, bag_penalty=0,
                    target=300),
    "late": RuleSet(name="late", blind_nil="after_first_hand", blind_nil_threshold=0, bag_limit=3,
                    bag_penalty=30, target=200),
}


@pytest.mark.parametrize("name", VARIANTS)
def test_rule_variants(pool, tmp_path: Path, name: str) -> None:
    rules = VARIANTS[name]
    hands = differential(pool, tmp_path, rules, "random", "hands", 2_000, seed=3_001)
    assert hands.hands == 2_000
    games = differential(pool, tmp_path, rules, MIXED, "games", 100, seed=3_002, max_hands=200)
    assert games.games == 100
    assert games.counts["penalties"] > 0 or rules.bag_penalty == 0


# --- the rule options of docs/rules.md: every shipped preset and option combinations ---

OPTION_SETS = {
    "options-a": RuleSet(name="options-a", deck="jokers", joker_deuces="clubs_hearts",
                         first_bidder="dealer_right", first_lead="two_of_clubs",
                         spades_lead="any_time", nil_tricks="count_for_partner",
                         both_partners_nil="forbidden", ten_for_two_hundred=True,
                         bid_thirteen="scores_500", elimination=-200, hand_limit=16),
    "options-b": RuleSet(name="options-b", deck="joker-joker-deuce-ace", first_lead="dealer_right",
                         bid_thirteen="wins_game", elimination=-100, hand_limit=8,
                         blind_nil="anytime"),
    "options-c": RuleSet(name="options-c", deck="deuce-high", spades_lead="any_time",
                         bid_thirteen="scores_200", ten_for_two_hundred=True, target=300),
    "options-d": RuleSet(name="options-d", side_min_bid=4, sum_of_bids_not_hand_size=True,
                         blind_nil="anytime", both_partners_nil="forbidden"),
    "options-e": RuleSet(name="options-e", side_min_bid=2, sum_of_bids_not_hand_size=True,
                         first_bidder="dealer_right", blind_nil="after_first_hand",
                         blind_nil_threshold=0),
    # Table modes and the blind-nil exchange (docs/scoring.md, the section of that name).
    "options-f": RuleSet(name="options-f", mode="solo", deck="jokers", joker_deuces="clubs_hearts",
                         blind_nil="anytime", blind_nil_solo=True, sum_of_bids_not_hand_size=True,
                         first_lead="two_of_clubs", nil_value=50),
    "options-g": RuleSet(name="options-g", mode="two-player", deck="joker-joker-deuce-deuce",
                         two_player_first="dealer", draw_second_card_seen=False,
                         blind_nil="when_behind", blind_nil_threshold=50, blind_nil_solo=True,
                         elimination=-100, target=300),
    "options-h": RuleSet(name="options-h", mode="three-player", deck="jokers", joker_deuces="none",
                         first_bidder="dealer_right", first_lead="dealer_right",
                         blind_nil="after_first_hand", blind_nil_solo=True, hand_limit=10),
    "options-i": RuleSet(name="options-i", blind_nil="anytime", blind_nil_pass=3,
                         first_lead="two_of_clubs"),
    "options-j": RuleSet(name="options-j", mode="five-player", deck="jokers", joker_deuces="all",
                         forced_mode="whiz", blind_nil="off", bag_limit=5, bag_penalty=50),
    "options-k": RuleSet(name="options-k", mode="solo", forced_mode="mirror", blind_nil="off",
                         ten_for_two_hundred=True, bid_thirteen="scores_200",
                         failed_contract="zero", overtrick_points=-1),
    "options-l": RuleSet(name="options-l", mode="three-player", deck="deuce-high",
                         blind_nil="off", sum_of_bids_not_hand_size=True, min_bid=1,
                         spades_lead="any_time", first_lead="two_of_clubs"),
    # Blind bids and sets to lose (docs/scoring.md "Blind bids", "Sets to lose") among the
    # options they meet: side bounds, ten for two hundred, thirteen, nil tricks, elimination.
    "options-n": RuleSet(name="options-n", blind_bid_threshold=0, blind_bid_min=4,
                         blind_bid_multiplier=3, sets_to_lose=3, ten_for_two_hundred=True,
                         side_min_bid=2, blind_nil="anytime", sum_of_bids_not_hand_size=True),
    "options-o": RuleSet(name="options-o", blind_bid_threshold=0, blind_bid_min=1,
                         side_max_bid=15, sets_to_lose=1, bid_thirteen="scores_500",
                         failed_contract="zero", nil_tricks="count_for_partner", elimination=-150),
    "options-p": RuleSet(name="options-p", mode="two-player", blind_nil="off", sets_to_lose=2,
                         target=300),
    # OpenSpiel's lead and bid rules beside the others (the openspiel preset runs above).
    "options-m": RuleSet(name="options-m", spades_lead="never_broken", first_lead="dealer_right",
                         side_max_bid=15, side_min_bid=2, blind_nil="anytime",
                         first_bidder="dealer_right"),
}


def _assert_both_exchanges(tally: Tally) -> None:
    """Blind nils made and set, and exchanges by basic (side 0) and random (side 1) card play."""
    c = tally.counts
    assert c["blind nil made"] > 0 and c["blind nil set"] > 0, c
    assert c["blind nil by side 0"] > 0 and c["blind nil by side 1"] > 0, c


@pytest.mark.parametrize("name", preset_names())
def test_presets_agree_with_the_referee(pool, tmp_path: Path, name: str) -> None:
    """5,000 random hands, 200 games of basic against random and 20 of expert against
    expert-v1 per shipped preset: every policy plays only legal moves under every preset."""
    rules = load_preset(name)
    hands = differential(pool, tmp_path, rules, "random", "hands", 5_000, seed=4_001)
    assert hands.hands == 5_000
    # A 100-hand cap keeps presets whose basic play rarely reaches the target (suicide's nils
    # mostly fail) within CI's time; capped games are compared hand by hand all the same.
    mix = EXCHANGE_MIX if rules.blind_nil_pass else MIXED
    games = differential(pool, tmp_path, rules, mix, "games", 200, seed=4_002, max_hands=100)
    assert games.games == 200
    if rules.blind_nil_pass:
        _assert_both_exchanges(games)
    expert = differential(pool, tmp_path, rules, EXPERT_MIX, "games", 20, seed=4_005, max_hands=100)
    assert expert.games == 20


def _random_blind_rules(rng: random.Random, index: int) -> RuleSet:
    """A random combination of the blind-bid and set options with the rules they touch."""
    return RuleSet(
        name=f"blind-{index}",
        # Low minimums and a side maximum of 13 let random bidders make some blind contracts.
        blind_bid_threshold=rng.choice([0, 0, 50, 100]), blind_bid_min=rng.choice([1, 1, 2, 6, 13]),
        blind_bid_multiplier=rng.randint(1, 4), sets_to_lose=rng.randint(0, 3),
        side_max_bid=rng.choice([None, 13]),
        ten_for_two_hundred=rng.random() < 0.5,
        bid_thirteen=rng.choice(["off", "wins_game", "scores_500", "scores_200"]),
        failed_contract=rng.choice(["minus_ten_per_bid", "zero"]),
        side_min_bid=rng.randint(0, 4), blind_nil=rng.choice(["off", "anytime", "when_behind"]),
        elimination=rng.choice([None, -100, -300]), target=rng.choice([200, 300, 500]))


def test_random_blind_bid_combinations_agree_with_the_referee(pool, tmp_path: Path) -> None:
    """Six random combinations of blind bids and sets to lose: 1,000 random hands and 40 games
    each (random bids blind evenly where allowed, so every combination bids blind often)."""
    rng = random.Random(45)
    tally = Tally()
    for index in range(6):
        rules = _random_blind_rules(rng, index)
        hands = differential(pool, tmp_path, rules, "random", "hands", 1_000, seed=4_500 + index)
        games = differential(pool, tmp_path, rules, MIXED, "games", 40, seed=4_600 + index,
                             max_hands=40)
        assert hands.hands == 1_000 and games.games == 40
        tally.counts.update(hands.counts + games.counts)
    c = tally.counts
    assert c["blind bid made"] > 0 and c["blind bid set"] > 0 and c["lost by sets"] > 0, c


@pytest.mark.parametrize("name", OPTION_SETS)
def test_option_sets_agree_with_the_referee(pool, tmp_path: Path, name: str) -> None:
    """Option combinations beyond the presets: 2,000 random hands and 100 games capped at 40."""
    rules = OPTION_SETS[name]
    assert differential(pool, tmp_path, rules, "random", "hands", 2_000, seed=4_003).hands == 2_000
    mix = EXCHANGE_MIX if rules.blind_nil_pass else MIXED
    games = differential(pool, tmp_path, rules, mix, "games", 100, seed=4_004, max_hands=40)
    assert games.games == 100
    if rules.blind_nil_pass:
        _assert_both_exchanges(games)
    if rules.blind_bid_threshold is not None:
        # The random side bids blind evenly where allowed: blind contracts made and set.
        c = games.counts
        assert c["blind bid made"] > 0 and c["blind bid set"] > 0, c
    if rules.sets_to_lose:
        assert games.counts["lost by sets"] > 0, games.counts


def test_large_point_values(pool, tmp_path: Path) -> None:
    """The largest values a RuleSet accepts must fit the records.

    With bag_limit=1 and the largest bag penalty, 10,000, a hand with 9 bags
    loses 90,000 points: beyond 16 bits, so narrow record columns would wrap.
    """
    rules = RuleSet(name="big", bag_limit=1, bag_penalty=10_000, nil_value=10_000)
    tally = differential(pool, tmp_path, rules, "basic", "hands", 200, seed=3_003)
    assert tally.counts["penalties"] > 0


# --- the comparison can fail: a corrupted kernel trace is caught ---


def _corrupt_points(out, trace) -> None:
    out.points[3, 0] += 1
    out.score[3, 0] += 1


def _corrupt_winner(out, trace) -> None:
    trace.winners[3, 5] = (trace.winners[3, 5] + 1) % 4


def _corrupt_bag_total(out, trace) -> None:
    out.bag_total[3, 1] += 1


def _corrupt_play_order(out, trace) -> None:
    # Swap the last two cards of the first trick: a seat plays the other's card.
    trace.plays[3, 2], trace.plays[3, 3] = trace.plays[3, 3], trace.plays[3, 2]


@pytest.mark.parametrize(("corrupt", "message"), [
    (_corrupt_points, "result.points: log says"),
    (_corrupt_winner, "out of turn"),  # the logged leader of trick 7 is not the winner of trick 6
    (_corrupt_bag_total, "result.bag_total: log says"),
    (_corrupt_play_order, "seat "),
])
def test_a_corrupted_trace_is_refused(tmp_path: Path, corrupt, message: str) -> None:
    out, trace, packed = trace_hands(STANDARD, "random", range(10), 5)
    logs = trace_logs(STANDARD.name, out, trace, packed)
    for log in logs:
        replay_hand(STANDARD, log)  # the untouched trace agrees
    corrupt(out, trace)
    path = tmp_path / "bad.jsonl"
    write_log(path, trace_logs(STANDARD.name, out, trace, packed))
    with pytest.raises(LogError) as raised:
        score_file(path, STANDARD)
    assert str(raised.value).startswith("line 4: ")
    assert message in str(raised.value)

"""Property tests (hypothesis) of traced kernel hands and games.

Every invariant is recomputed here from the trace alone, independently of the
kernel and of the referee: cards dealt and played, whose turn it is, legal
cards, the winner of each trick (highest spade, else highest card of the suit
led) and the score of each side from the bids and tricks (docs/scoring.md,
steps 1-5). Hypothesis draws seeds and deal indices; ``derandomize=True``
makes the examples themselves fixed, so a run is reproducible.
"""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spades_sim.rules import BlindNil, FailedContract, RuleSet
from spades_sim.run.simulate import simulate_games, trace_games, trace_hands

SPADES = 3
FULL_DECK = (1 << 52) - 1

RULE_SETS = [
    RuleSet(),
    RuleSet(name="house", nil_value=50, blind_nil="anytime", blind_nil_value=150,
            failed_contract="zero", overtrick_points=-1, bag_limit=5, bag_penalty=50, target=300),
    RuleSet(name="book", min_bid=1, blind_nil="off", overtrick_points=0, bag_penalty=0, target=250),
    RuleSet(name="late", blind_nil="after_first_hand", blind_nil_threshold=0, bag_limit=3,
            bag_penalty=30, target=200),
]
POLICIES = ["basic", "random", ["basic", "random"], ["random", "basic"]]

SETTINGS = settings(max_examples=100, deadline=None, database=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])

seeds = st.integers(min_value=0, max_value=2**63 - 1)
deal_indices = st.integers(min_value=0, max_value=2**40)
rule_sets = st.sampled_from(RULE_SETS)
policies = st.sampled_from(POLICIES)


def suit(card: int) -> int:
    return card // 13


def cards_in(mask: int) -> list[int]:
    return [c for c in range(52) if mask >> c & 1]


# --- independent rule steps ---


def trick_winner(cards: list[int]) -> int:
    """Position (0 = leader) of the winning card: highest spade, else highest of the suit led."""
    spades = [i for i, c in enumerate(cards) if suit(c) == SPADES]
    if spades:
        return max(spades, key=lambda i: cards[i])
    led = suit(cards[0])
    return max((i for i, c in enumerate(cards) if suit(c) == led), key=lambda i: cards[i])


def score_side(rules: RuleSet, bids: list[int], blinds: list[int], tricks: list[int],
               bags_before: int) -> dict[str, int]:
    """docs/scoring.md steps 1-5 for one side (two seats)."""
    contract = sum(b for b in bids if b > 0)
    contract_tricks = sum(t for b, t in zip(bids, tricks) if b > 0)
    nil_tricks = sum(t for b, t in zip(bids, tricks) if b == 0)
    made = contract_tricks >= contract
    if made:
        bags = contract_tricks - contract + nil_tricks
        points = 10 * contract + rules.overtrick_points * bags
    else:
        bags = nil_tricks
        per_bid = 10 if rules.failed_contract == FailedContract.MINUS_TEN_PER_BID else 0
        points = -per_bid * contract
    for bid, blind, taken in zip(bids, blinds, tricks):
        if bid == 0:
            value = rules.blind_nil_value if blind else rules.nil_value
            points += value if taken == 0 else -value
    penalties, bag_total = divmod(bags_before + bags, rules.bag_limit)
    penalty = penalties * rules.bag_penalty
    return {"points": points - penalty, "bags": bags, "penalty": penalty, "bag_total": bag_total,
            "made": int(made), "contract": contract}


def game_winner(score: tuple[int, int], target: int) -> int:
    if (score[0] >= target or score[1] >= target) and score[0] != score[1]:
        return 0 if score[0] > score[1] else 1
    return -1


# --- named invariants on one traced row ---


def check_deal(hands: list[int]) -> None:
    assert [bin(h).count("1") for h in hands] == [13, 13, 13, 13]
    union = 0
    for h in hands:
        assert union & h == 0, "a card dealt twice"
        union |= h
    assert union == FULL_DECK


def check_play(rules: RuleSet, hands: list[int], dealer: int, plays: list[int],
               winners: list[int]) -> list[int]:
    """Replay the trace: turn order, legal cards, trick winners; return tricks per seat."""
    remaining = list(hands)
    played_by = [0, 0, 0, 0]
    tricks = [0, 0, 0, 0]
    broken = False
    leader = (dealer + 1) % 4
    assert sorted(plays) == list(range(52)), "every card played exactly once"
    for t in range(13):
        trick = plays[4 * t:4 * t + 4]
        led = suit(trick[0])
        for k, card in enumerate(trick):
            seat = (leader + k) % 4
            held = cards_in(remaining[seat])
            assert card in held, f"trick {t}: seat {seat} played a card it does not hold"
            if k == 0:
                if suit(card) == SPADES and not broken:
                    assert all(suit(c) == SPADES for c in held), f"trick {t}: spade led unbroken"
            elif suit(card) != led:
                assert all(suit(c) != led for c in held), f"trick {t}: seat {seat} revoked"
                if suit(card) == SPADES:
                    broken = True
            remaining[seat] &= ~(1 << card)
            played_by[seat] += 1
        winner = (leader + trick_winner(trick)) % 4
        assert winners[t] == winner, (t, trick, winners[t], winner)
        tricks[winner] += 1
        leader = winner
    assert played_by == [13, 13, 13, 13]
    assert remaining == [0, 0, 0, 0]
    return tricks


def check_hand(rules: RuleSet, out, trace, row: int, score_before: tuple[int, int],
               bags_before: tuple[int, int], hand_index: int) -> None:
    hands = [int(h) for h in trace.hands[row]]
    dealer = int(out.dealer[row])
    check_deal(hands)
    bids = [int(b) for b in out.bid[row]]
    blinds = [int(b) for b in out.blind[row]]
    for seat in range(4):
        assert rules.min_bid <= bids[seat] <= 13
        if blinds[seat]:
            assert bids[seat] == 0
            assert rules.blind_nil != BlindNil.OFF
            if rules.blind_nil == BlindNil.AFTER_FIRST_HAND:
                assert hand_index > 0
            if rules.blind_nil == BlindNil.WHEN_BEHIND:
                side = seat % 2
                assert score_before[1 - side] - score_before[side] >= rules.blind_nil_threshold
        # Hand features: spades held.
        assert int(out.spades[row, seat]) == bin(hands[seat] >> 39).count("1")
    tricks = check_play(rules, hands, dealer, [int(p) for p in trace.plays[row]],
                        [int(w) for w in trace.winners[row]])
    assert [int(t) for t in out.tricks[row]] == tricks
    assert sum(tricks) == 13
    for side in range(2):
        expected = score_side(rules, bids[side::2], blinds[side::2], tricks[side::2],
                              bags_before[side])
        got = {name: int(getattr(out, name)[row, side]) for name in expected}
        assert got == expected, (side, got, expected)
        assert int(out.score[row, side]) == score_before[side] + expected["points"]
        assert out.bags[row, side] >= 0
        assert 0 <= out.bag_total[row, side] < rules.bag_limit


# --- properties ---


@SETTINGS
@given(seed=seeds, start=deal_indices, rules=rule_sets, policy=policies)
def test_traced_hands_obey_the_rules(seed: int, start: int, rules: RuleSet, policy) -> None:
    deals = list(range(start, start + 8))
    out, trace, _ = trace_hands(rules, policy, deals, seed)
    np.testing.assert_array_equal(out.game, deals)
    assert (out.hand == 0).all()
    for row in range(len(deals)):
        check_hand(rules, out, trace, row, (0, 0), (0, 0), 0)


@settings(SETTINGS, max_examples=50)
@given(seed=seeds, game=deal_indices, rules=rule_sets, policy=policies,
       max_hands=st.integers(min_value=1, max_value=40))
def test_traced_games_obey_the_rules(seed: int, game: int, rules: RuleSet, policy,
                                     max_hands: int) -> None:
    games, out, trace, _ = trace_games(rules, policy, [game], seed, max_hands=max_hands)
    played = int(games.hands[0])
    assert 1 <= played <= max_hands
    assert out.game.size == played
    score, bags = (0, 0), (0, 0)
    winner = -1
    for row in range(played):
        assert winner == -1, "a hand was played after the game ended"
        assert int(out.hand[row]) == row
        assert int(out.dealer[row]) == (int(games.first_dealer[0]) + row) % 4
        check_hand(rules, out, trace, row, score, bags, row)
        score = (int(out.score[row, 0]), int(out.score[row, 1]))
        bags = (int(out.bag_total[row, 0]), int(out.bag_total[row, 1]))
        winner = game_winner(score, rules.target)
    assert int(games.winner[0]) == winner
    if winner == -1:
        assert played == max_hands
    assert tuple(int(x) for x in games.score[0]) == score
    assert tuple(int(x) for x in games.bag_total[0]) == bags
    # The game record's counts are the sums over its hands.
    nil = out.bid == 0
    blind = out.blind == 1
    made_nil = out.tricks == 0
    for side in range(2):
        seats = slice(side, 4, 2)
        assert int(games.nil_bids[0, side]) == int((nil & ~blind)[:, seats].sum())
        assert int(games.nil_made[0, side]) == int((nil & ~blind & made_nil)[:, seats].sum())
        assert int(games.blind_bids[0, side]) == int(blind[:, seats].sum())
        assert int(games.blind_made[0, side]) == int((blind & made_nil)[:, seats].sum())
        has_contract = out.contract[:, side] > 0
        assert int(games.contracts[0, side]) == int(has_contract.sum())
        assert int(games.made[0, side]) == int((has_contract & (out.made[:, side] == 1)).sum())
        assert int(games.bags[0, side]) == int(out.bags[:, side].astype(np.int64).sum())
        assert int(games.penalty[0, side]) == int(out.penalty[:, side].astype(np.int64).sum())


@settings(SETTINGS, max_examples=10)
@given(seed=seeds, rules=rule_sets)
def test_game_runs_respect_the_hand_cap(seed: int, rules: RuleSet) -> None:
    # The random policy overbids and rarely reaches the target: most games hit the cap.
    run = simulate_games(rules, "random", 40, seed=seed, keep_records=True, max_hands=25)
    frame = run.records()
    assert ((frame["hands"] >= 1) & (frame["hands"] <= 25)).all()
    unfinished = frame["winner"] == -1
    assert (frame.loc[unfinished, "hands"] == 25).all()
    for side in (0, 1):
        assert ((frame[f"bag_total_{side}"] >= 0) & (frame[f"bag_total_{side}"] < rules.bag_limit)).all()
        assert (frame[f"bags_{side}"] >= 0).all()


def test_hand_cap_beyond_int16() -> None:
    """A game stopped at a cap of 40,000 hands reports 40,000 hands played.

    The random policy never reaches 500 (it overbids by several tricks a hand),
    so the game runs to the cap; the count must not wrap around.
    """
    run = simulate_games("standard", "random", 1, seed=0, keep_records=True, max_hands=40_000)
    frame = run.records()
    assert int(frame["winner"][0]) == -1
    assert int(frame["hands"][0]) == 40_000
    assert int(frame["bags_0"][0]) >= 0 and int(frame["bags_1"][0]) >= 0

"""The referee under blind bids (``blind_bid_threshold``, ``blind_bid_min``,
``blind_bid_multiplier``) and ``sets_to_lose``: docs/rules.md "Blind bids" and "End of a game",
docs/scoring.md "Blind bids" and "Sets to lose".

Every expected value is worked out by hand in the comments from the rules as documented. The
hands are stacked standard-deck deals (``stacking``) in which seat s takes the tricks asked; the
dealer is seat 3, so seat 0 bids first.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from refereeplay import auto_finish, expect_illegal, log_of, write_lines
from stacking import finish, play_game_hand, play_hand, stacked_deal

from spades_sim.referee import Game, Hand, score_file, score_hand
from spades_sim.referee.handlog import BlindBid, BlindCount, HandLog, LogError, format_action, parse_action
from spades_sim.rules import RulesError, RuleSet, load_preset

BLIND = RuleSet(blind_bid_threshold=100)
B = BlindCount


# --- the rule options -----------------------------------------------------------------------------


@pytest.mark.parametrize(("changes", "message"), [
    ({"blind_bid_threshold": -1}, "blind_bid_threshold=-1: allowed 0 to 1000000"),
    ({"blind_bid_min": 0}, "blind_bid_min=0: allowed 1 to 13 (the hand size)"),
    ({"blind_bid_min": 14}, "blind_bid_min=14: allowed 1 to 13 (the hand size)"),
    ({"blind_bid_multiplier": 11}, "blind_bid_multiplier=11: allowed 1 to 10"),
    ({"sets_to_lose": -1}, "sets_to_lose=-1: allowed 0 to 100 (0 = never)"),
    ({"blind_bid_threshold": 100, "forced_mode": "suicide", "blind_nil": "off"},
     "blind_bid_threshold=100: allowed left out (off) with forced_mode='suicide'"),
])
def test_options_out_of_range_are_refused_in_one_line(changes: dict[str, object], message: str) -> None:
    with pytest.raises(RulesError) as caught:
        RuleSet(**changes)  # type: ignore[arg-type]
    assert str(caught.value).startswith(message) and "\n" not in str(caught.value)


@pytest.mark.parametrize("mode", ["solo", "two-player", "three-player", "five-player"])
def test_the_individual_modes_refuse_blind_bids(mode: str) -> None:
    deck = "jokers" if mode == "five-player" else "standard"
    extra = {"joker_deuces": "all"} if mode == "five-player" else {}
    with pytest.raises(RulesError, match=f"blind_bid_threshold=100: allowed left out \\(off\\) with "
                                         f"mode='{mode}' \\(a blind bid is a side's, with partners\\)"):
        RuleSet(mode=mode, deck=deck, blind_nil="off", blind_bid_threshold=100, **extra)  # type: ignore[arg-type]


@pytest.mark.parametrize("mode", ["solo", "three-player", "five-player"])
def test_more_than_two_sides_refuse_sets_to_lose(mode: str) -> None:
    deck = "jokers" if mode == "five-player" else "standard"
    extra = {"joker_deuces": "all"} if mode == "five-player" else {}
    with pytest.raises(RulesError, match=f"sets_to_lose=2: allowed 0 with mode='{mode}'"):
        RuleSet(mode=mode, deck=deck, blind_nil="off", sets_to_lose=2, **extra)  # type: ignore[arg-type]


def test_two_player_plays_sets_to_lose() -> None:
    assert RuleSet(mode="two-player", blind_nil="off", sets_to_lose=3).sets_to_lose == 3


def test_the_tournament_preset() -> None:
    rules = load_preset("tournament-blind")
    assert (rules.blind_bid_threshold, rules.blind_bid_min, rules.blind_bid_multiplier,
            rules.sets_to_lose) == (100, 6, 2, 2)
    assert rules.replace(name="standard", description=RuleSet().description,
                         blind_bid_threshold=None, sets_to_lose=0) == RuleSet()


# --- who may bid blind ----------------------------------------------------------------------------


def fresh(rules: RuleSet = BLIND, score: tuple[int, int] = (250, 150)) -> Hand:
    hands, _ = stacked_deal((4, 3, 3, 3), 3)
    return Hand(rules, 3, hands, score, (0, 0))


def test_a_side_100_behind_may_bid_blind_from_6_to_13() -> None:
    hand = fresh()
    hand.bid(0, 3)
    # Side 1 trails 250 - 150 = 100: exactly the threshold.
    assert [n for n in range(14) if hand.can_blind_bid(1, n)] == list(range(6, 14))
    assert hand.blind_bid(1, 7) == BlindBid(1, 7)
    assert hand.bids[1] == 7 and isinstance(hand.bids[1], BlindCount)


def test_a_side_not_far_enough_behind_may_not_bid_blind() -> None:
    hand = fresh(score=(240, 150))
    expect_illegal(lambda: hand.blind_bid(0, 6),
                   "seat 0 bid blind but side 0 leads by 90 (needs to trail by 100)")
    hand.bid(0, 3)
    expect_illegal(lambda: hand.blind_bid(1, 6), "seat 1 bid blind but side 1 trails by 90 (needs 100)")
    off = fresh(RuleSet(), (0, 500))
    expect_illegal(lambda: off.blind_bid(0, 6), "seat 0 bid blind but blind bids are off")


def test_blind_bid_min_and_the_hand_size_bound_the_blind_bid() -> None:
    hand = fresh(BLIND.replace(blind_bid_min=4), (0, 100))
    expect_illegal(lambda: hand.blind_bid(0, 3), "seat 0 bid 3 blind: allowed 4-13 (blind_bid_min=4)")
    expect_illegal(lambda: hand.blind_bid(0, 14), "seat 0 bid 14 blind: allowed 4-13 (blind_bid_min=4)")
    hand.blind_bid(0, 4)


def test_one_blind_bid_a_side_and_the_partner_bids_after_it_as_usual() -> None:
    hand = fresh(score=(0, 300))
    hand.blind_bid(0, 6)
    hand.bid(1, 4)
    expect_illegal(lambda: hand.blind_bid(2, 6),
                   "seat 2 bid 6 blind: partner seat 0 already bid blind 6 (one blind bid a side)")
    hand.bid(2, 0)  # a nil beside the blind bid
    assert hand.bids == (6, 4, 0, None)


def test_a_blind_bid_obeys_side_max_bid() -> None:
    # side_max_bid = 13: after the partner's 8 a blind bid may reach only 5, below the minimum 6.
    hand = fresh(BLIND.replace(side_max_bid=13), (300, 0))
    hand.bid(0, 3)
    hand.bid(1, 8)
    hand.bid(2, 3)
    assert not any(hand.can_blind_bid(3, n) for n in range(14))
    expect_illegal(lambda: hand.blind_bid(3, 6),
                   "seat 3 bid 6: side 1 may bid at most 13 (side_max_bid=13; partner seat 1 bid 8)")


def test_blind_bid_threshold_zero_allows_a_level_side_but_not_a_leader() -> None:
    hand = fresh(BLIND.replace(blind_bid_threshold=0), (50, 50))
    assert hand.can_blind_bid(0, 6)
    hand = fresh(BLIND.replace(blind_bid_threshold=0), (60, 50))
    assert not hand.can_blind_bid(0, 6)


# --- scoring --------------------------------------------------------------------------------------


def test_a_made_blind_bid_scores_double_and_bags_single() -> None:
    # Side 1: blind 6 + 2 = 8, takes 4 + 5 = 9: 2 × 80 + 1 bag = 161, on 150 → 311.
    # Side 0: 3 + 2 = 5, takes 2 + 2 = 4: set, −50.
    result = play_hand((3, B(6), 2, 2), (2, 4, 2, 5), BLIND, (250, 150))
    assert result.points == (-50, 161)
    assert result.score == (200, 311) and result.bags == (0, 1) and result.bag_total == (0, 1)


def test_a_set_blind_bid_loses_double() -> None:
    # Side 1: blind 7 + 3 = 10, takes 4 + 5 = 9: set, 2 × −100 = −200.
    # Side 0: 2 + 1 = 3, takes 2 + 2 = 4: 30 + 1 bag = 31.
    result = play_hand((2, B(7), 1, 3), (2, 4, 2, 5), BLIND, (250, 150))
    assert result.points == (31, -200)


def test_the_multiplier_is_an_option() -> None:
    # Triple: blind 6 + 2 made with 1 bag: 3 × 80 + 1 = 241.
    result = play_hand((3, B(6), 2, 2), (2, 4, 2, 5), BLIND.replace(blind_bid_multiplier=3), (250, 150))
    assert result.points[1] == 241


def test_a_nil_beside_a_blind_bid_is_not_multiplied() -> None:
    # Side 0: blind 8 and nil. Seat 0 takes 9, seat 2 none: 2 × 80 + 1 bag + 100 = 261.
    # Side 1: 3 + 1 = 4, takes 2 + 2: 40.
    result = play_hand((B(8), 3, 0, 1), (9, 2, 0, 2), BLIND, (0, 100))
    assert result.points == (261, 40) and result.nil == (None, None, "made", None)


def test_ten_for_two_hundred_is_multiplied_too() -> None:
    # Side 0: blind 6 + 4 = 10, takes 6 + 5 = 11: 200 × 2 + 1 bag = 401; side 1: 1 + 1, takes 2: 20.
    rules = BLIND.replace(ten_for_two_hundred=True)
    result = play_hand((B(6), 1, 4, 1), (6, 1, 5, 1), rules, (0, 100))
    assert result.points == (401, 20)
    # Set: −200 × 2 = −400.
    assert play_hand((B(6), 1, 4, 1), (5, 2, 4, 2), rules, (0, 100)).points[0] == -400


def test_failed_contract_zero_stays_zero() -> None:
    result = play_hand((B(6), 1, 4, 1), (5, 2, 4, 2), BLIND.replace(failed_contract="zero"), (0, 100))
    assert result.points[0] == 0


def test_score_hand_with_blind_counts_directly() -> None:
    # The same as the first scoring test, through score_hand: the BlindCount marks the blind bid.
    assert score_hand(BLIND, (3, B(6), 2, 2), (2, 4, 2, 5)).points == (-50, 161)
    assert score_hand(BLIND, (3, 6, 2, 2), (2, 4, 2, 5)).points == (-50, 81)


# --- sets to lose ---------------------------------------------------------------------------------

TWO_SETS = RuleSet(sets_to_lose=2)


def test_the_second_set_loses_the_game_whatever_the_scores() -> None:
    game = Game(TWO_SETS, dealer=3)
    # Hand 1: side 0 bids 4 + 4, takes 3 + 3: set (−80); side 1 bids 2 + 2, takes 7: 40 + 3 = 43.
    assert play_game_hand(game, (4, 2, 4, 2), (3, 4, 3, 3)) is None
    assert game.sets == (1, 0) and game.score == (-80, 43)
    # Hand 2 (dealer 0, seat 1 bids first): side 0 makes 2 + 2 with 7 tricks, 43;
    # side 1 bids 4 + 4 and takes 6: set, −80. Sets (1, 1).
    assert play_game_hand(game, (2, 4, 2, 4), (4, 3, 3, 3)) is None
    assert game.sets == (1, 1) and game.score == (-37, -37)
    # Hand 3: side 0 set again (bids 5 + 5, takes 4 + 4), side 1 makes 1 + 1 with 5: side 1 wins,
    # though side 0 is not at the target and nobody is.
    assert play_game_hand(game, (5, 1, 5, 1), (4, 2, 4, 3)) == 1
    assert game.sets == (2, 1)


def test_a_failed_nil_is_not_a_set() -> None:
    game = Game(TWO_SETS, dealer=3, sets=(1, 0))
    # Side 0: nil takes 1 (set nil), partner 3 takes 3: contract made. No set.
    assert play_game_hand(game, (0, 3, 3, 3), (1, 5, 3, 4)) is None
    assert game.sets == (1, 0)


def test_both_sides_reaching_the_limit_together_the_higher_score_wins() -> None:
    game = Game(TWO_SETS, dealer=3, score=(100, 90), sets=(1, 1))
    # Both set: side 0 bids 4 + 4, takes 3 + 3 (−80, 20); side 1 bids 4 + 4 takes 3 + 4 (−80, 10).
    assert play_game_hand(game, (4, 4, 4, 4), (3, 3, 3, 4)) == 0
    assert game.score == (20, 10)


def test_both_reaching_it_level_play_on_and_the_next_hand_decides() -> None:
    game = Game(TWO_SETS, dealer=3, score=(100, 100), sets=(1, 1))
    # Both set by 80: level at 20, 20: play on.
    assert play_game_hand(game, (4, 4, 4, 4), (3, 3, 4, 3)) is None
    # Next hand (seat 1 first): side 1 makes 3 + 3 (60 + 1 bag), side 0 makes 3 + 3 (60): side 1 wins.
    assert play_game_hand(game, (3, 3, 3, 3), (3, 4, 3, 3)) == 1


def test_sets_come_before_the_target() -> None:
    game = Game(TWO_SETS, dealer=3, score=(480, 100), sets=(1, 0))
    # Side 0 bids 4 and nil; seat 0 takes 3 (set, −40), the nil is made (+100): 480 + 60 = 540,
    # over the target, but it is side 0's second set: side 1 wins.
    assert play_game_hand(game, (4, 3, 0, 3), (3, 5, 0, 5)) == 1
    assert game.score[0] == 540


def test_sets_count_only_under_the_option() -> None:
    game = Game(RuleSet(), dealer=3)
    for _ in range(3):
        play_game_hand(game, (4, 2, 4, 2), (3, 4, 3, 3))
    assert game.winner is None


# --- the hand log ---------------------------------------------------------------------------------


def test_the_blind_bid_code() -> None:
    assert parse_action("2 bb 7") == BlindBid(2, 7) and format_action(BlindBid(2, 7)) == "2 bb 7"
    with pytest.raises(LogError, match="action '2 bb x': blind bid 'x': allowed a whole number"):
        parse_action("2 bb x")


def played_blind_hand() -> Hand:
    hands, _ = stacked_deal((4, 3, 3, 3), 3)
    hand = Hand(BLIND, 3, hands, (250, 150), (0, 0))
    hand.bid(0, 3)
    hand.blind_bid(1, 6)
    hand.bid(2, 3)
    hand.bid(3, 1)
    return auto_finish(hand)


def test_a_log_with_a_blind_bid_replays(tmp_path: Path) -> None:
    played = played_blind_hand()
    log = log_of(played, "blind.toml")
    assert log.actions[1] == "1 bb 6"
    (tmp_path / "blind.toml").write_text('blind_bid_threshold = 100\n', encoding="utf-8")
    [scored] = score_file(write_lines(tmp_path, [log]))
    assert scored.result == played.result and isinstance(scored.bids[1], BlindCount)


def test_a_blind_bid_the_rules_refuse_stops_the_replay(tmp_path: Path) -> None:
    log = log_of(played_blind_hand(), "standard")
    with pytest.raises(LogError, match="line 1: seat 1 bid blind but blind bids are off"):
        score_file(write_lines(tmp_path, [log]))


def test_sets_before_is_carried_and_checked(tmp_path: Path) -> None:
    (tmp_path / "sets.toml").write_text('sets_to_lose = 2\n', encoding="utf-8")
    game = Game(TWO_SETS, dealer=3)
    lines: list[HandLog] = []
    for bids, counts in (((4, 2, 4, 2), (3, 4, 3, 3)), ((5, 1, 5, 1), (4, 2, 4, 3))):
        sets = game.sets
        hands, plays = stacked_deal(counts, game.dealer_index)
        hand = game.start_hand(hands)
        finish(hand, bids, plays)
        winner = game.record(hand)
        lines.append(HandLog.from_hand(hand, "sets.toml", game=0, sets_before=sets,
                                       game_over=None if winner is None else {"winner": winner}))
    assert lines[1].sets_before == (1, 0) and lines[1].game_over == {"winner": 1}
    assert [s.game_winner for s in score_file(write_lines(tmp_path, lines))] == [None, 1]
    wrong = dataclasses.replace(lines[1], sets_before=(0, 0))
    with pytest.raises(LogError, match=r"line 2: sets_before: log says \[0, 0\], referee carries \[1, 0\]"):
        score_file(write_lines(tmp_path, [lines[0], wrong]))


def test_audit_and_review_replay_a_log_with_a_blind_bid(tmp_path: Path) -> None:
    """``audit`` and ``review`` read a log whose bids include a blind bid: every card play is
    replayed (review judges each against double-dummy play, the blind contract scored double)."""
    from spades_sim.analysis.review import review_file
    from spades_sim.referee.audit import audit_file

    (tmp_path / "blind.toml").write_text('blind_bid_threshold = 100\n', encoding="utf-8")
    path = write_lines(tmp_path, [log_of(played_blind_hand(), "blind.toml")])
    assert audit_file(path).hands_audited == 1
    assert review_file(path).plays == 52

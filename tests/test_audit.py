"""The technique audit (spades_sim.referee.audit) on stacked deals written as hand logs.

Each test deals the cards that matter by hand, plays the trick in question as written and
lets the rest of the hand be played out with each seat's lowest legal card; only the trick
in question is looked at. Every pattern is shown caught, and beside it the sound play in the
same situation (and each exclusion of the definitions) is shown not flagged. No numba here:
the audit is plain Python over the referee.
"""

from __future__ import annotations

import csv
from collections.abc import Sequence
from pathlib import Path

import pytest
from refereeplay import play

from spades_sim.cards import format_card, parse_card, parse_cards
from spades_sim.referee import BidValue, Hand, Phase, audit, deck_of
from spades_sim.referee.audit import (
    ANY,
    NIL_NOT_COVERED,
    NIL_TOOK_DUCKABLE,
    PATTERNS,
    RUFF_PARTNER_WINNER,
    THIRD_HAND_LOW,
    WASTED_TRUMP,
    AuditError,
    PlayView,
    audit_file,
)
from spades_sim.referee.handlog import (
    BLIND_NIL,
    Bid,
    BlindNilBid,
    HandLog,
    LogError,
    format_action,
    write_log,
)
from spades_sim.rules import RuleSet, resolve_rules

EVEN = (3, 3, 3, 3)


# --- building logs ---------------------------------------------------------------------------


def deal(
    fixed: dict[int, str], voids: dict[int, str] | None = None, rules: RuleSet | None = None
) -> list[tuple[int, ...]]:
    """Each seat's ``fixed`` cards, the rest of the deck dealt to fill every hand, never a card of
    a suit (letters C D H S; trumps count as S) into a seat listed in ``voids``."""
    rules = rules or RuleSet()
    deck = deck_of(rules)
    size, seats = rules.hand_size, rules.seat_count
    hands = [list(parse_cards(fixed.get(seat, ""))) for seat in range(seats)]
    barred = {seat: {"CDHS".index(letter) for letter in text} for seat, text in (voids or {}).items()}
    rest = sorted(deck.cards - {card for hand in hands for card in hand})

    def eligible(card: int) -> list[int]:
        suit = deck.suit_of(card)
        return [s for s in range(seats) if len(hands[s]) < size and suit not in barred.get(s, ())]

    # The cards with the fewest places to go first, each to the emptiest seat that may take it.
    for card in sorted(rest, key=lambda c: (len(eligible(c)), c)):
        places = eligible(card)
        assert places, f"no seat may take {format_card(card)}"
        hands[max(places, key=lambda s: (size - len(hands[s]), -s))].append(card)
    assert all(len(hand) == size for hand in hands)
    return [tuple(hand) for hand in hands]


def hand_log(
    hands: Sequence[Sequence[int]],
    bids: Sequence[BidValue] = EVEN,
    script: Sequence[str] = (),
    dealer: int = 3,
    rules_name: str = "standard",
    score_before: Sequence[int] | None = None,
    game: int | None = None,
    hand_index: int | None = None,
) -> HandLog:
    """A whole hand: bids in turn, the ``script`` plays (``"SEAT CARD"``), then each seat's
    lowest legal card to the end."""
    rules = resolve_rules(rules_name)
    hand = Hand(rules, dealer, hands, score_before, None, hand_index or 0)
    for offset in range(rules.seat_count):
        seat = (hand.first_bidder_index + offset) % rules.seat_count
        hand.apply(BlindNilBid(seat) if bids[seat] == BLIND_NIL else Bid(seat, int(bids[seat])))
    play(hand, *script)
    while hand.phase == Phase.PLAY:
        seat = hand.turn_index
        assert seat is not None
        hand.play(seat, hand.legal_plays(seat)[0])
    return HandLog(
        rules=rules_name,
        dealer=dealer,
        hands=tuple(tuple(h) for h in hands),
        actions=tuple(format_action(action) for action in hand.operations),
        game=game,
        hand=hand_index,
        score_before=None if score_before is None else tuple(score_before),
    )


def audited(tmp_path: Path, *logs: HandLog, **options: object) -> audit.AuditResult:
    path = tmp_path / "hands.jsonl"
    write_log(path, logs)
    return audit_file(path, **options)  # type: ignore[arg-type]


def found(result: audit.AuditResult, trick: int, line: int = 1) -> set[tuple[str, int, str, str]]:
    """``(pattern, seat, played, sound)`` of the instances in one trick of one line."""
    return {
        (i.pattern, i.seat, format_card(i.card), "" if i.sound is None else format_card(i.sound))
        for i in result.instances
        if i.trick == trick and i.line_number == line
    }


def patterns(result: audit.AuditResult, trick: int, line: int = 1) -> set[str]:
    return {pattern for pattern, *_ in found(result, trick, line)}


def lowest_side_card(hand: Sequence[int], rules: RuleSet | None = None) -> str:
    deck = deck_of(rules or RuleSet())
    return format_card(min((c for c in hand if not deck.is_trump(c)), key=lambda c: (deck.rank_of(c), c)))


# --- third-hand-low --------------------------------------------------------------------------

# Seat 0 leads 5H, seat 1 (an opponent) plays KH, seat 2 holds AH, the boss.
THIRD_HAND = {0: "5H", 1: "KH", 2: "AH 2H"}


def test_third_hand_low_is_caught(tmp_path: Path) -> None:
    log = hand_log(deal(THIRD_HAND), script=["0 5H", "1 KH", "2 2H"])
    assert found(audited(tmp_path, log), 1) == {(THIRD_HAND_LOW, 2, "2H", "AH")}


def test_third_hand_playing_the_boss_is_sound(tmp_path: Path) -> None:
    log = hand_log(deal(THIRD_HAND), script=["0 5H", "1 KH", "2 AH"])
    assert found(audited(tmp_path, log), 1) == set()


def test_third_hand_low_is_not_checked_with_a_live_nil_at_the_table(tmp_path: Path) -> None:
    log = hand_log(deal(THIRD_HAND), bids=(3, 3, 3, 0), script=["0 5H", "1 KH", "2 2H"])
    assert THIRD_HAND_LOW not in patterns(audited(tmp_path, log), 1)


def test_third_hand_low_only_against_second_hands_winner(tmp_path: Path) -> None:
    # The partner's lead is winning (second hand played low): ducking is no error.
    log = hand_log(deal({0: "QH", 1: "2H", 2: "AH 3H"}), script=["0 QH", "1 2H", "2 3H"])
    assert THIRD_HAND_LOW not in patterns(audited(tmp_path, log), 1)


# Trick 1: seat 0's QH wins; seat 3 follows (6H) or shows out (2C). Trick 2: seat 0 leads 5H,
# seat 1 plays KH, seat 2 holds AH and plays 4H.
def _known_void(fourth_follows: bool) -> HandLog:
    fixed = {0: "QH 5H", 1: "2H KH", 2: "3H 4H AH", 3: "6H" if fourth_follows else "2C"}
    voids = {} if fourth_follows else {3: "H"}
    return hand_log(deal(fixed, voids), script=[
        "0 QH", "1 2H", "2 3H", "3 6H" if fourth_follows else "3 2C",
        "0 5H", "1 KH", "2 4H",
    ])  # fmt: skip


def test_third_hand_low_with_the_fourth_hand_known_void_and_trumps_out_is_not_flagged(
    tmp_path: Path,
) -> None:
    assert THIRD_HAND_LOW not in patterns(audited(tmp_path, _known_void(fourth_follows=False)), 2)


def test_third_hand_low_when_the_fourth_hand_has_followed_is_flagged(tmp_path: Path) -> None:
    assert found(audited(tmp_path, _known_void(fourth_follows=True)), 2) == {
        (THIRD_HAND_LOW, 2, "4H", "AH")
    }


def test_seats_restrict_the_audit(tmp_path: Path) -> None:
    log = hand_log(deal(THIRD_HAND), script=["0 5H", "1 KH", "2 2H"])
    result = audited(tmp_path, log, seats=[0, 1, 3])
    assert result.seats == (0, 1, 3)
    assert all(instance.seat != 2 for instance in result.instances)
    assert THIRD_HAND_LOW not in patterns(result, 1)


# --- ruff-partner-winner ---------------------------------------------------------------------

# Seat 0 leads 5D, seat 1 plays AD, seat 2 follows; seat 3 (seat 1's partner) has no diamond.
PARTNER_ACE = {0: "5D", 1: "AD", 2: "3D", 3: "2S 9C"}


def test_ruffing_the_partners_sure_winner_is_caught(tmp_path: Path) -> None:
    hands = deal(PARTNER_ACE, {3: "D"})
    log = hand_log(hands, script=["0 5D", "1 AD", "2 3D", "3 2S"])
    assert found(audited(tmp_path, log), 1) == {(RUFF_PARTNER_WINNER, 3, "2S", lowest_side_card(hands[3]))}


def test_discarding_on_the_partners_winner_is_sound(tmp_path: Path) -> None:
    log = hand_log(deal(PARTNER_ACE, {3: "D"}), script=["0 5D", "1 AD", "2 3D", "3 9C"])
    assert found(audited(tmp_path, log), 1) == set()


def test_ruffing_an_opponents_winner_is_sound(tmp_path: Path) -> None:
    fixed = {0: "5D", 1: "4D", 2: "AD", 3: "2S 9C"}
    log = hand_log(deal(fixed, {3: "D"}), script=["0 5D", "1 4D", "2 AD", "3 2S"])
    assert found(audited(tmp_path, log), 1) == set()


def test_ruffing_a_nil_partners_winner_is_not_flagged(tmp_path: Path) -> None:
    # Seat 1 bid nil: overtaking its winner is the cover, not a waste.
    log = hand_log(deal(PARTNER_ACE, {3: "D"}), bids=(3, 0, 3, 3), script=["0 5D", "1 AD", "2 3D", "3 2S"])
    assert RUFF_PARTNER_WINNER not in patterns(audited(tmp_path, log), 1)


def test_ruffing_the_partners_ace_with_trumps_out_and_a_hand_to_come_is_not_flagged(
    tmp_path: Path,
) -> None:
    # Seat 2 plays third: seat 3 may still ruff the ace, so it is no sure winner.
    log = hand_log(deal({0: "AD", 1: "5D", 2: "2S 9C"}, {2: "D"}), script=["0 AD", "1 5D", "2 2S"])
    assert found(audited(tmp_path, log), 1) == set()


# --- wasted-trump ----------------------------------------------------------------------------

# Seat 0 leads 5D, seat 1 ruffs with KS; seat 2 has no diamond either.
OVER_RUFF = {0: "5D", 1: "KS", 2: "2S AS 9C"}


def test_under_ruffing_is_caught(tmp_path: Path) -> None:
    hands = deal(OVER_RUFF, {1: "D", 2: "D"})
    log = hand_log(hands, script=["0 5D", "1 KS", "2 2S"])
    assert found(audited(tmp_path, log), 1) == {(WASTED_TRUMP, 2, "2S", lowest_side_card(hands[2]))}


@pytest.mark.parametrize("card", ["9C", "AS"], ids=["discard", "over-ruff"])
def test_discarding_or_over_ruffing_is_sound(tmp_path: Path, card: str) -> None:
    log = hand_log(deal(OVER_RUFF, {1: "D", 2: "D"}), script=["0 5D", "1 KS", f"2 {card}"])
    assert found(audited(tmp_path, log), 1) == set()


def test_a_live_nil_under_ruffing_is_not_flagged(tmp_path: Path) -> None:
    log = hand_log(deal(OVER_RUFF, {1: "D", 2: "D"}), bids=(3, 3, 0, 3), script=["0 5D", "1 KS", "2 2S"])
    assert found(audited(tmp_path, log), 1) == set()


def test_the_decks_trump_order_decides(tmp_path: Path) -> None:
    # joker-joker-deuce-deuce: 2D is a trump above AS, so AS under it is wasted ...
    rules = resolve_rules("joker-joker-deuce-deuce")
    hands = deal({0: "5H", 1: "2D", 2: "AS 9C"}, {1: "H", 2: "H"}, rules)
    log = hand_log(hands, script=["0 5H", "1 2D", "2 AS"], rules_name="joker-joker-deuce-deuce")
    assert found(audited(tmp_path, log), 1) == {(WASTED_TRUMP, 2, "AS", lowest_side_card(hands[2], rules))}
    # ... while with the standard deck 2D is a diamond discard and AS wins the trick.
    log = hand_log(deal({0: "5H", 1: "2D", 2: "AS 9C"}, {1: "H", 2: "H"}), script=["0 5H", "1 2D", "2 AS"])
    assert found(audited(tmp_path, log), 1) == set()


# --- nil-took-duckable -----------------------------------------------------------------------

# Seat 1 bid nil; seat 0 leads 5D; seat 1 holds 2D (a duck) and KD.
NIL_SECOND = {0: "5D", 1: "2D KD", 2: "3D", 3: "4D"}
NIL_BIDS = (3, 0, 3, 3)


def test_a_nil_winning_a_trick_it_could_duck_is_caught(tmp_path: Path) -> None:
    log = hand_log(deal(NIL_SECOND), bids=NIL_BIDS, script=["0 5D", "1 KD", "2 3D", "3 4D"])
    assert (NIL_TOOK_DUCKABLE, 1, "KD", "2D") in found(audited(tmp_path, log), 1)


def test_a_nil_ducking_is_sound(tmp_path: Path) -> None:
    log = hand_log(deal(NIL_SECOND), bids=NIL_BIDS, script=["0 5D", "1 2D", "2 3D", "3 4D"])
    assert found(audited(tmp_path, log), 1) == set()


def test_a_nil_with_no_duck_is_not_flagged(tmp_path: Path) -> None:
    hands = deal({0: "5D 2D", 1: "KD AD", 2: "3D", 3: "4D"}, {1: "D"})
    log = hand_log(hands, bids=NIL_BIDS, script=["0 5D", "1 KD", "2 3D", "3 4D"])
    assert NIL_TOOK_DUCKABLE not in patterns(audited(tmp_path, log), 1)


def test_a_nil_overtaken_is_not_flagged(tmp_path: Path) -> None:
    hands = deal({0: "5D", 1: "2D KD", 2: "3D", 3: "AD"})
    log = hand_log(hands, bids=NIL_BIDS, script=["0 5D", "1 KD", "2 3D", "3 AD"])
    assert found(audited(tmp_path, log), 1) == set()


def test_a_blind_nil_counts_as_a_nil(tmp_path: Path) -> None:
    # Side 0 trails by 100, so seat 2 may bid blind nil; it holds 2D and wins with KD.
    hands = deal({0: "5D", 1: "3D", 2: "2D KD", 3: "4D"})
    log = hand_log(hands, bids=(3, 3, BLIND_NIL, 3), script=["0 5D", "1 3D", "2 KD", "3 4D"],
                   score_before=(0, 100))
    assert found(audited(tmp_path, log), 1) == {(NIL_TOOK_DUCKABLE, 2, "KD", "2D")}


# --- nil-not-covered -------------------------------------------------------------------------

# Seat 1's nil is winning with KD; its partner, seat 3, holds AD.
NIL_COVER = {0: "5D", 1: "KD", 2: "3D", 3: "AD 4D"}


def test_a_nil_left_uncovered_is_caught(tmp_path: Path) -> None:
    log = hand_log(deal(NIL_COVER), bids=NIL_BIDS, script=["0 5D", "1 KD", "2 3D", "3 4D"])
    assert (NIL_NOT_COVERED, 3, "4D", "AD") in found(audited(tmp_path, log), 1)


def test_the_partner_overtaking_the_nil_is_sound(tmp_path: Path) -> None:
    log = hand_log(deal(NIL_COVER), bids=NIL_BIDS, script=["0 5D", "1 KD", "2 3D", "3 AD"])
    assert NIL_NOT_COVERED not in patterns(audited(tmp_path, log), 1)


def test_a_nil_partner_ruffed_by_the_cover(tmp_path: Path) -> None:
    # The same as test_ruffing_a_nil_partners_winner_is_not_flagged, discarding instead:
    # seat 3 could have ruffed seat 1's AD and did not.
    hands = deal(PARTNER_ACE, {3: "D"})
    log = hand_log(hands, bids=(3, 0, 3, 3), script=["0 5D", "1 AD", "2 3D", "3 9C"])
    assert (NIL_NOT_COVERED, 3, "9C", "2S") in found(audited(tmp_path, log), 1)


# --- the result, games, views ----------------------------------------------------------------


def test_counts_shares_and_intervals(tmp_path: Path) -> None:
    flagged = hand_log(deal(THIRD_HAND), script=["0 5H", "1 KH", "2 2H"])
    sound = hand_log(deal(THIRD_HAND), script=["0 5H", "1 KH", "2 AH"])
    result = audited(tmp_path, flagged, sound, sound, sound)
    assert result.hands_audited == 4 and result.seats == (0, 1, 2, 3)
    assert [row.pattern for row in result.counts] == [*PATTERNS, ANY]
    hands_with = {p: {i.line_number for i in result.instances if i.pattern == p} for p in PATTERNS}
    for pattern in PATTERNS:
        row = result.count(pattern)
        assert row.hands == len(hands_with[pattern])
        assert row.instances == sum(i.pattern == pattern for i in result.instances)
        assert row.share == row.hands / 4
        assert row.low <= row.share <= row.high
    assert 1 in hands_with[THIRD_HAND_LOW]
    assert result.count(ANY).hands == len(set().union(*hands_with.values()))
    assert result.count(ANY).instances == len(result.instances)


def test_a_game_carries_its_score_and_reports_game_and_hand(tmp_path: Path) -> None:
    first = hand_log(deal({}), game=7, hand_index=0)
    # The second hand is dealt by seat 0, so seat 1 leads: the third-hand-low scene, one seat on.
    second = hand_log(deal({1: "5H", 2: "KH", 3: "AH 2H"}), script=["1 5H", "2 KH", "3 2H"],
                      dealer=0, game=7, hand_index=1)
    result = audited(tmp_path, first, second)
    assert result.hands_audited == 2
    instance = next(i for i in result.instances if i.line_number == 2 and i.trick == 1)
    assert (instance.game, instance.hand, instance.seat, instance.pattern) == (7, 1, 3, THIRD_HAND_LOW)
    assert instance.trick_so_far == ((1, parse_card("5H")), (2, parse_card("KH")))


def test_outstanding_cards_leave_out_the_hand_the_plays_and_own_discards() -> None:
    rules = RuleSet(mode="two-player", blind_nil="off")
    held, played, thrown = parse_cards("AS 2H"), frozenset(parse_cards("KS 3H")), parse_cards("QS 4H")
    view = PlayView(rules, deck_of(rules), 1, 1, held, held, (parse_card("KS"),), (0,), (3, 3),
                    (0, 0), played, (frozenset(), frozenset()), frozenset(thrown))
    assert view.outstanding == deck_of(rules).cards - set(held) - played - set(thrown)
    assert view.winning_seat == 0 and view.beats(parse_card("AS"), parse_card("KS"))


def test_an_illegal_log_is_refused_with_the_referees_message(tmp_path: Path) -> None:
    log = hand_log(deal(THIRD_HAND))
    actions = list(log.actions)
    actions[4], actions[5] = actions[5], actions[4]  # the second seat plays before the leader
    path = tmp_path / "bad.jsonl"
    write_log(path, [HandLog(log.rules, log.dealer, log.hands, tuple(actions))])
    with pytest.raises(LogError, match=r"^line 1: seat 1 played .* out of turn"):
        audit_file(path)


def test_a_seat_outside_the_table_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "hands.jsonl"
    write_log(path, [hand_log(deal({}))])
    with pytest.raises(AuditError, match=r"^seat=4: allowed 0-3$"):
        audit_file(path, seats=[4])


def test_the_csv_holds_every_instance(tmp_path: Path) -> None:
    result = audited(tmp_path, hand_log(deal(THIRD_HAND), script=["0 5H", "1 KH", "2 2H"]))
    out = tmp_path / "instances.csv"
    result.write_csv(out)
    with open(out, encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == len(result.instances)
    assert {"line": "1", "game": "", "hand": "", "trick": "1", "seat": "2", "pattern": THIRD_HAND_LOW,
            "played": "2H", "sound": "AH", "trick_so_far": "0:5H 1:KH"} in rows
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hands.jsonl", "instances.csv"]


# --- the command -----------------------------------------------------------------------------


def _cli_log(tmp_path: Path) -> Path:
    path = tmp_path / "hands.jsonl"
    write_log(path, [
        hand_log(deal(THIRD_HAND), script=["0 5H", "1 KH", "2 2H"]),
        hand_log(deal(NIL_SECOND), bids=NIL_BIDS, script=["0 5D", "1 KD", "2 3D", "3 4D"]),
        hand_log(deal(THIRD_HAND), script=["0 5H", "1 KH", "2 AH"]),
    ])  # fmt: skip
    return path


def test_audit_command_prints_the_table(tmp_path: Path) -> None:
    from clirun import assert_ok, invoke  # the command line loads the kernel's modules

    path = _cli_log(tmp_path)
    expected = audit_file(path)
    out = tmp_path / "instances.csv"
    result = invoke(["audit", str(path), "--list", "2", "--instances", str(out)])
    assert_ok(result)
    lines = result.output.splitlines()
    assert lines[0].split() == ["pattern", "hands", "share", "95%", "interval", "instances"]
    for line, row in zip(lines[1:6], expected.counts[:5], strict=True):
        assert line.split() == [row.pattern, str(row.hands), f"{100 * row.share:.2f}%",
                                f"[{100 * row.low:.2f}%,", f"{100 * row.high:.2f}%]", str(row.instances)]
    assert lines[7].split()[0] == ANY
    assert lines[8] == "3 hands audited (seats 0-3)"
    assert lines[9] == f"first 2 of {len(expected.instances)} instances:"
    assert len(lines) == 10 + 1 + 2 + 1 and lines[-1] == f"wrote {out}"
    assert out.read_text(encoding="utf-8").count("\n") == 1 + len(expected.instances)
    assert expected.count(THIRD_HAND_LOW).hands >= 1 and expected.count(NIL_TOOK_DUCKABLE).hands >= 1


BAD_AUDIT = [
    (["--seat", "4"], "seat=4: allowed 0-3"),
    (["--seat", "-1"], "seat=-1: allowed 0-3"),
    (["--list", "-1"], "list=-1: allowed a whole number 0 to 100,000"),
    (["--list", "100001"], "list=100001: allowed a whole number 0 to 100,000"),
    (["--instances", "instances.parquet"],
     "instances='instances.parquet': allowed a file ending in .csv"),
    (["--rule", "nil_value=50"], "rule: allowed only together with --rules"),
]


@pytest.mark.parametrize(("args", "message"), BAD_AUDIT, ids=[" ".join(a) for a, _ in BAD_AUDIT])
def test_audit_command_bad_input(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str],
                                 message: str) -> None:
    from clirun import assert_one_line_error, invoke

    path = _cli_log(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert_one_line_error(invoke(["audit", str(path), *args]), message)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hands.jsonl"]


def test_audit_command_missing_and_broken_logs(tmp_path: Path) -> None:
    from clirun import assert_one_line_error, invoke

    missing = tmp_path / "nosuch.jsonl"
    assert_one_line_error(invoke(["audit", str(missing)]),
                          f"log={str(missing)!r}: allowed a readable JSONL file (No such file or directory)")
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"rules": "standard", "dealer": 0\n', encoding="utf-8")
    out = tmp_path / "instances.csv"
    result = invoke(["audit", str(broken), "--instances", str(out)])
    assert_one_line_error(result, "line 1: not JSON: ", prefix_only=True)
    assert not out.exists()

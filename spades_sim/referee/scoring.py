"""The referee's pure rule steps: who partners whom, who wins a trick, what a hand scores
(docs/scoring.md, steps 1-5), when blind nil is allowed and who has won the game.

Functions of their arguments alone, with no state: :class:`~spades_sim.referee.hand.Hand`
and :class:`~spades_sim.referee.game.Game` call them at the end of a trick, a hand and a game.
"""

from __future__ import annotations

from collections.abc import Sequence

from spades_sim import cards  # noqa: F401  (the doctests name cards)
from spades_sim.referee.deck import STANDARD_DECK, deck_of
from spades_sim.referee.handlog import (
    BLIND_NIL,
    NIL_MADE,
    NIL_SET,
    SIDE_COUNT,
    BlindCount,
    HandResult,
    NilOutcome,
)
from spades_sim.rules import (
    HAND_SIZE,
    SEAT_COUNT,
    BidThirteen,
    BlindNil,
    FailedContract,
    NilTricks,
    RuleSet,
    ZeroBid,
)

MAX_BID = HAND_SIZE
"""The highest bid with 13 cards a seat: every trick (bids run up to the rules' hand size)."""

BidValue = int | str
"""A seat's bid: a number of tricks (0 is nil; a :class:`~spades_sim.referee.handlog.BlindCount`
when bid blind) or :data:`~spades_sim.referee.handlog.BLIND_NIL`."""


def side_of(seat_index: int) -> int:
    """Return the side of a seat at a partnership table: partners sit opposite (seats 0+2 are
    side 0, 1+3 side 1). Any mode: :meth:`RuleSet.seat_side <spades_sim.rules.RuleSet.seat_side>`.

    >>> [side_of(seat) for seat in range(4)]
    [0, 1, 0, 1]
    """
    return seat_index % SIDE_COUNT


def partner_of(rules: RuleSet, seat_index: int) -> int | None:
    """Return a seat's partner: the seat opposite in partnership; None in the individual modes.

    >>> partner_of(RuleSet(), 1), partner_of(RuleSet(mode="solo", blind_nil="off"), 1)
    (3, None)
    """
    return (seat_index + 2) % SEAT_COUNT if rules.partnership else None


def _zeros(rules: RuleSet) -> tuple[int, ...]:
    """A per-side list of zeros: the score and bags a game starts from."""
    return (0,) * rules.side_count


def trick_winner_index(trick_cards: Sequence[int], rules: RuleSet | None = None) -> int:
    """Return the position (0 = leader) of the card that wins a trick.

    The highest trump ("spade": the spade suit, jokers and promoted deuces, in
    the deck's order) wins; with no trump, the highest card of the suit led.
    Cards of another suit never win. ``rules`` picks the deck (standard if None).

    >>> trick_winner_index(cards.parse_cards("KH AC 2H QH"))
    0
    >>> trick_winner_index(cards.parse_cards("KH AC 2S 3S"))
    3
    >>> trick_winner_index(cards.parse_cards("AS 3D 2S 5D"), RuleSet(deck="deuce-high"))
    2
    """
    deck = STANDARD_DECK if rules is None else deck_of(rules)
    return deck.trick_winner_position(trick_cards)


def is_nil(bid: BidValue | None, rules: RuleSet | None = None) -> bool:
    """Whether a bid is nil or blind nil; under ``zero_bid = "zero"`` (``rules``) a bid of 0 is a
    contract of no tricks, not a nil.

    >>> is_nil(0), is_nil(BLIND_NIL), is_nil(3), is_nil(0, RuleSet(zero_bid="zero"))
    (True, True, False, False)
    """
    if bid == 0:
        return rules is None or rules.zero_bid == ZeroBid.NIL
    return bid == BLIND_NIL


def score_hand(
    rules: RuleSet,
    bids: Sequence[BidValue],
    tricks_taken: Sequence[int],
    score_before: Sequence[int] | None = None,
    bags_before: Sequence[int] | None = None,
) -> HandResult:
    """Score one hand from the bids and the tricks each seat took (docs/scoring.md, steps 1-5).

    Every side is scored alike: a partnership, or in the individual modes one
    seat, whose contract is its own bid and whose nil tricks are its own bags.

    Parameters
    ----------
    rules : RuleSet
        The scoring options and the table mode (which seats make a side).
    bids : sequence of int or "bn", one per seat
        Tricks bid (0 is nil) or :data:`~spades_sim.referee.handlog.BLIND_NIL`.
    tricks_taken : sequence of int, one per seat
        Tricks each seat took; they sum to the hand size.
    score_before, bags_before : sequence of int, one per side
        Each side's score and carried bags before the hand (all 0 if None).

    Returns
    -------
    HandResult

    Examples
    --------
    Pagat's example: side 0 on 337 with 7 bags bids 5 and takes 8 tricks.

    >>> result = score_hand(RuleSet(), (3, 3, 2, 2), (4, 3, 4, 2), (337, 0), (7, 0))
    >>> result.points, result.penalty, result.score, result.bag_total
    ((-47, 50), (100, 0), (290, 50), (0, 0))

    Ten for two hundred: side 0 bids 6 + 4 and takes 11 tricks: 200 + 1 bag.

    >>> score_hand(RuleSet(ten_for_two_hundred=True), (6, 1, 4, 1), (6, 1, 5, 1)).points
    (201, 20)

    Blind bids: side 1 bids 6 blind and 2 and takes 9 tricks: twice 80, and 1 bag.

    >>> blind = RuleSet(blind_bid_threshold=100)
    >>> score_hand(blind, (3, BlindCount(6), 3, 2), (2, 7, 2, 2)).points
    (-60, 161)

    Solo: every seat alone; seat 1's nil (worth 50 here) is made, seat 2 bid 4 and took 6.

    >>> score_hand(RuleSet(mode="solo", blind_nil="off", nil_value=50), (3, 0, 4, 5), (3, 0, 6, 4)).points
    (30, 50, 42, -50)
    """
    score_before = _zeros(rules) if score_before is None else score_before
    bags_before = _zeros(rules) if bags_before is None else bags_before
    nil: list[NilOutcome] = [None] * len(bids)
    points, bags, penalty, score, bag_total = ([0] * rules.side_count for _ in range(5))
    for side in range(rules.side_count):
        contract, contract_tricks, nil_seats = side_contract(rules, bids, tricks_taken, side)
        # Step 1: the contract (a contract of 0, both partners nil, is always made).
        made = contract_tricks >= contract
        if made:
            side_points = _made_contract_points(rules, contract)
            side_bags = contract_tricks - contract
        elif rules.ten_for_two_hundred and contract >= 10:
            side_points = -200  # whatever failed_contract says
            side_bags = 0
        else:
            side_points = -10 * contract if rules.failed_contract == FailedContract.MINUS_TEN_PER_BID else 0
            side_bags = 0
        # A blind bid multiplies what the whole contract scores, made or set (bags and nils apart).
        if has_blind_count(rules, bids, side):
            side_points *= rules.blind_bid_multiplier
        # Step 2: a nil bidder's tricks are bags even when the contract is set
        # (with nil_tricks = "count_for_partner" they are contract tricks instead).
        if rules.nil_tricks == NilTricks.BAGS_ONLY:
            side_bags += sum(tricks_taken[seat] for seat in nil_seats)
        # Step 3: bag points only on a made contract (the MSN example scores no bag point).
        if made:
            side_points += rules.overtrick_points * side_bags
        # Step 4: each nil on its own.
        for seat in nil_seats:
            value = rules.blind_nil_value if bids[seat] == BLIND_NIL else rules.nil_value
            nil[seat] = NIL_MADE if tricks_taken[seat] == 0 else NIL_SET
            side_points += value if nil[seat] == NIL_MADE else -value
        # Step 5: each bag_limit reached costs bag_penalty and is taken off the total.
        penalty_count, bag_total[side] = divmod(bags_before[side] + side_bags, rules.bag_limit)
        penalty[side] = penalty_count * rules.bag_penalty
        points[side] = side_points - penalty[side]
        bags[side] = side_bags
        score[side] = score_before[side] + points[side]
    return HandResult(
        tricks=tuple(tricks_taken),
        nil=tuple(nil),
        points=tuple(points),
        bags=tuple(bags),
        penalty=tuple(penalty),
        score=tuple(score),
        bag_total=tuple(bag_total),
    )


def side_contract(
    rules: RuleSet, bids: Sequence[BidValue], tricks_taken: Sequence[int], side: int
) -> tuple[int, int, list[int]]:
    """Return a side's contract, its contract tricks and its nil bidders' seats.

    The contract is the sum of the side's non-nil bids. Contract tricks are the
    tricks of its non-nil bidders, or all the side's tricks with
    ``nil_tricks = "count_for_partner"``. In the individual modes a side is one
    seat: its contract is its own bid (0 when it bid nil).

    >>> side_contract(RuleSet(), (0, 1, 4, 1), (2, 4, 2, 5), 0)
    (4, 2, [0])
    >>> side_contract(RuleSet(nil_tricks="count_for_partner"), (0, 1, 4, 1), (2, 4, 2, 5), 0)
    (4, 4, [0])
    >>> side_contract(RuleSet(mode="three-player", blind_nil="off"), (5, 0, 9), (6, 2, 9), 1)
    (0, 0, [1])
    """
    seats = [seat for seat in range(len(bids)) if rules.seat_side(seat) == side]
    nil_seats = [seat for seat in seats if is_nil(bids[seat], rules)]
    contract_seats = [seat for seat in seats if not is_nil(bids[seat], rules)]
    contract = sum(int(bids[seat]) for seat in contract_seats)
    counted = seats if rules.nil_tricks == NilTricks.COUNT_FOR_PARTNER else contract_seats
    return contract, sum(tricks_taken[seat] for seat in counted), nil_seats


def has_blind_count(rules: RuleSet, bids: Sequence[BidValue], side: int) -> bool:
    """Whether a seat of ``side`` bid a number of tricks blind (docs/scoring.md "Blind bids").

    >>> has_blind_count(RuleSet(), (BlindCount(6), 2, 3, 4), 0), has_blind_count(RuleSet(), (6, 2, 3, 4), 0)
    (True, False)
    """
    return any(isinstance(bid, BlindCount) for seat, bid in enumerate(bids)
               if rules.seat_side(seat) == side)


def contract_set(rules: RuleSet, bids: Sequence[BidValue], tricks_taken: Sequence[int], side: int) -> bool:
    """Whether ``side``'s contract (a count of 1 or more) was set: what ``sets_to_lose`` counts.

    >>> rules = RuleSet()
    >>> contract_set(rules, (4, 0, 3, 2), (3, 1, 3, 6), 0), contract_set(rules, (0, 3, 0, 2), (1, 3, 0, 9), 0)
    (True, False)
    """
    contract, contract_tricks, _ = side_contract(rules, bids, tricks_taken, side)
    return contract > 0 and contract_tricks < contract


def _made_contract_points(rules: RuleSet, contract: int) -> int:
    """Points for a made contract, bags aside (docs/scoring.md step 1 and "Rule options")."""
    if contract == MAX_BID and rules.bid_thirteen == BidThirteen.SCORES_500:
        return 500
    if contract == MAX_BID and rules.bid_thirteen == BidThirteen.SCORES_200:
        return 200
    if rules.ten_for_two_hundred and contract >= 10:
        return 200
    return 10 * contract


def thirteen_winner(rules: RuleSet, bids: Sequence[BidValue], tricks_taken: Sequence[int]) -> int | None:
    """Return the side that made a contract of 13 under ``bid_thirteen = "wins_game"``, else None.

    >>> thirteen_winner(RuleSet(bid_thirteen="wins_game"), (7, 0, 6, 0), (7, 0, 6, 0))
    0
    >>> thirteen_winner(RuleSet(), (7, 0, 6, 0), (7, 0, 6, 0)) is None
    True
    """
    if rules.bid_thirteen != BidThirteen.WINS_GAME:
        return None
    for side in range(rules.side_count):
        contract, contract_tricks, _ = side_contract(rules, bids, tricks_taken, side)
        if contract == MAX_BID and contract_tricks >= contract:
            return side
    return None


def game_winner(
    rules: RuleSet,
    score: Sequence[int],
    hands_played: int | None = None,
    thirteen_side: int | None = None,
    sets: Sequence[int] | None = None,
) -> int | None:
    """Return the side that has won after a hand, or None while the game goes on.

    docs/scoring.md "End of a game with more than two sides": ``thirteen_side``
    (the side that made a contract of 13 under ``bid_thirteen = "wins_game"``)
    wins. Otherwise the game is over when some side's score is at or over the
    target, or some side's is at or below ``elimination``, or ``hands_played``
    has reached ``hand_limit``; then the one highest score wins, and a highest
    score shared by two or more sides plays another hand. With two sides this
    is the rule of "End of a game, all together" (a side's claim to the target
    or to the other's elimination is always the higher score).
    ``hands_played=None`` leaves the hand limit out.

    >>> rules = RuleSet()
    >>> game_winner(rules, (510, 480)), game_winner(rules, (510, 530)), game_winner(rules, (510, 510))
    (0, 1, None)
    >>> game_winner(RuleSet(elimination=-200), (100, -200)), game_winner(RuleSet(hand_limit=8), (90, 80), 8)
    (0, 0)
    >>> game_winner(RuleSet(mode="three-player", blind_nil="off"), (520, 520, 300)) is None  # shared top
    True

    ``sets`` (each side's sets so far) under ``sets_to_lose``: a side set that many times loses
    to the other whatever the scores; both at once: the higher score wins, level plays on.

    >>> two = RuleSet(sets_to_lose=2)
    >>> game_winner(two, (300, 100), sets=(2, 1)), game_winner(two, (300, 100), sets=(2, 2))
    (1, 0)
    """
    if thirteen_side is not None:
        return thirteen_side
    if rules.sets_to_lose and sets is not None:
        losers = [side for side, count in enumerate(sets) if count >= rules.sets_to_lose]
        if len(losers) == 1:
            return 1 - losers[0]  # two sides (the rule set refuses sets_to_lose with more)
        if losers:
            return None if score[0] == score[1] else int(score[1] > score[0])
    elimination = rules.elimination
    over = (
        max(score) >= rules.target
        or (elimination is not None and min(score) <= elimination)
        or (rules.hand_limit is not None and hands_played is not None and hands_played >= rules.hand_limit)
    )
    if not over:
        return None
    top = max(score)
    leaders = [side for side, points in enumerate(score) if points == top]
    return leaders[0] if len(leaders) == 1 else None


def blind_bid_refusal(rules: RuleSet, side: int, score_before: Sequence[int]) -> str | None:
    """Return why a side may not bid a number of tricks blind in this hand, or None when it may:
    it must trail the other side by ``blind_bid_threshold`` or more.

    >>> rules = RuleSet(blind_bid_threshold=100)
    >>> blind_bid_refusal(rules, 1, (250, 150)) is None, blind_bid_refusal(rules, 0, (250, 150))
    (True, 'side 0 leads by 100 (needs to trail by 100)')
    >>> blind_bid_refusal(RuleSet(), 0, (0, 0))
    'blind bids are off'
    """
    if rules.blind_bid_threshold is None:
        return "blind bids are off"
    return _behind_refusal(side, score_before, rules.blind_bid_threshold)


def _behind_refusal(side: int, score_before: Sequence[int], needed: int) -> str | None:
    """Why ``side`` is not ``needed`` points or more behind the best other side, or None."""
    leader = max(points for other, points in enumerate(score_before) if other != side)
    deficit = leader - score_before[side]
    # With more than two sides, name whom the side is measured against.
    two_sides = len(score_before) == 2
    trails = "trails" if two_sides else "trails the leader"
    level = "is level" if two_sides else "is level with the leader"
    if deficit >= needed:
        return None
    if deficit > 0:
        return f"side {side} {trails} by {deficit} (needs {needed})"
    if deficit == 0:
        return f"side {side} {level} (needs to trail by {needed})"
    return f"side {side} leads by {-deficit} (needs to trail by {needed})"


def blind_nil_refusal(rules: RuleSet, side: int, score_before: Sequence[int], hand_index: int) -> str | None:
    """Return why a side may not bid blind nil in this hand, or None when it may.

    ``when_behind`` measures the side against the leader: the highest score of
    any other side (the other side, with two).

    >>> rules = RuleSet()
    >>> blind_nil_refusal(rules, 1, (140, 40), 0) is None
    True
    >>> blind_nil_refusal(rules, 1, (80, 40), 0)
    'side 1 trails by 40 (needs 100)'
    >>> blind_nil_refusal(RuleSet(mode="solo", blind_nil_solo=True), 3, (0, 150, 20, 60), 0)
    'side 3 trails the leader by 90 (needs 100)'
    """
    match rules.blind_nil:
        case BlindNil.ANYTIME:
            return None
        case BlindNil.OFF:
            return "blind nil is off"
        case BlindNil.AFTER_FIRST_HAND:
            return (
                None
                if hand_index > 0
                else "this is the first hand of the game (allowed after the first hand)"
            )
        case BlindNil.WHEN_BEHIND:
            return _behind_refusal(side, score_before, rules.blind_nil_threshold)
    raise AssertionError(f"unhandled blind_nil option {rules.blind_nil!r}")


def _count(bid: BidValue) -> int:
    """A bid's count of tricks: nil and blind nil count 0."""
    return 0 if is_nil(bid) else int(bid)


def _bid_name(bid: BidValue) -> str:
    """A bid as the messages write it: ``nil``, ``blind nil``, its number or ``blind N``."""
    if bid == BLIND_NIL:
        return "blind nil"
    if isinstance(bid, BlindCount):
        return f"blind {int(bid)}"
    return "nil" if is_nil(bid) else str(bid)


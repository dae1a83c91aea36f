"""What a user tells about a hand, written the same way in every command (``hand``, ``dd``):
the bids made, and each side's score and bags. One parser each; a seat's cards are read by
:func:`spades_sim.cards.parse_cards` everywhere.

- bids: ``SEAT:BID,…``, e.g. ``1:4,2:nil,3:blind`` (BID a number, ``nil`` or ``blind``);
- score and bags: ``SIDE=N,…`` with every side once, e.g. ``0=240,1=310``; where a command
  knows the seat it speaks for (``hand --seat``), ``us=N,them=N`` too.

The spellings ``dd`` took before (``--bids 4,3,nil,4`` in seat order, ``--bags 1,2`` in side
order) have their new spelling here (:func:`old_bids_spelling`, :func:`old_side_spelling`),
which the command line names in its notice while it still takes them.
"""

from __future__ import annotations

from ..kernel import engine
from ..numbers import is_digits, whole_number
from ..outputs import shown
from ..rules import RuleSet

SCORE_MOST = 100_000
"""The largest score, either way, a side may be given."""


class HandInputError(ValueError):
    """Bids, a score or bags written in a form the commands do not take."""


def bid_code(text: str) -> int:
    """A bid as the kernel takes it: a number, ``nil`` (0), ``blind`` / ``bn`` (blind nil) or
    ``blindN`` / ``bbN`` (N tricks bid blind: ``engine.BLIND_COUNT_BID + N``)."""
    word = text.lower()
    if word == "nil":
        return 0
    if word in ("blind", "bn", "blind nil", "blind_nil"):
        return engine.BLIND_BID
    for prefix in ("blind", "bb"):
        count = word.removeprefix(prefix)
        if count != word and count.isdigit() and count.isascii() and int(count) > 0:
            return engine.BLIND_COUNT_BID + whole_number(count)
    return whole_number(word)


def bid_name(code: int) -> str:
    """The other way round: ``blind nil``, ``nil``, the number or ``blind N``."""
    if code > engine.BLIND_COUNT_BID:
        return f"blind {code - engine.BLIND_COUNT_BID}"
    return "blind nil" if code == engine.BLIND_BID else ("nil" if code == 0 else str(code))


def is_bid_code(code: int, rules: RuleSet) -> bool:
    """Whether ``code`` (:func:`bid_code`) is a bid at a table of ``rules``: 0 to the hand size,
    blind nil, or a number bid blind up to the hand size (whether the rules allow it where it is
    bid is the kernel's check)."""
    return (0 <= code <= rules.hand_size or code == engine.BLIND_BID
            or 0 < code - engine.BLIND_COUNT_BID <= rules.hand_size)


def parse_bids(text: str, rules: RuleSet) -> dict[int, int]:
    """``SEAT:BID,…`` as {seat: bid code}, e.g. ``"1:4,2:nil"``: each seat at most once, each
    bid a number 0 to the hand size, ``nil`` or ``blind``. A text that says nothing (blanks, a
    line break) is refused, not read as "no bids".

    >>> from spades_sim.rules import RuleSet
    >>> parse_bids("1:4, 2:nil,3:blind", RuleSet())
    {1: 4, 2: 0, 3: 100}
    """
    seats = rules.seat_count
    refusal = HandInputError(f"bids={shown(text)!r}: allowed SEAT:BID,… with seats 0 to "
                             f"{seats - 1} once each and BID 0 to {rules.hand_size}, nil, "
                             "blind or blindN, e.g. 1:4,2:nil")
    if text and (not text.isprintable() or not text.strip()):
        raise refusal
    bids: dict[int, int] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        seat, sep, bid = part.partition(":")
        try:
            seat_number, code = whole_number(seat), bid_code(bid)
        except ValueError:
            seat_number, code = -1, -1
        if (not sep or not 0 <= seat_number < seats or seat_number in bids
                or not is_bid_code(code, rules)):
            raise refusal
        bids[seat_number] = code
    return bids


def every_seat_bids(text: str, rules: RuleSet) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``SEAT:BID,…`` naming every seat (:func:`parse_bids`), as (bids, blind) in seat order
    (a blind nil bids 0, flag 1; a number bid blind, flag 2), as the double-dummy solver takes
    them.

    >>> from spades_sim.rules import RuleSet
    >>> every_seat_bids("0:4,1:3,2:nil,3:blind", RuleSet())
    ((4, 3, 0, 0), (0, 0, 0, 1))
    >>> every_seat_bids("0:blind6,1:3,2:nil,3:4", RuleSet())
    ((6, 3, 0, 4), (2, 0, 0, 0))
    """
    bids = parse_bids(text, rules)
    if len(bids) != rules.seat_count:
        example = ",".join(f"{seat}:{bid}" for seat, bid in
                           zip(range(rules.seat_count), ("4", "3", "nil", "4", "1"), strict=False))
        raise HandInputError(f"bids={shown(text)!r}: allowed a bid for every seat 0 to "
                             f"{rules.seat_count - 1}, e.g. {example}")
    codes = [bids[seat] for seat in range(rules.seat_count)]
    blind_count = [code > engine.BLIND_COUNT_BID for code in codes]
    return (tuple(0 if code == engine.BLIND_BID else code - engine.BLIND_COUNT_BID if counted
                  else code for code, counted in zip(codes, blind_count, strict=True)),
            tuple(1 if code == engine.BLIND_BID else 2 if counted else 0
                  for code, counted in zip(codes, blind_count, strict=True)))


def old_bids_spelling(text: str) -> str | None:
    """The new spelling of bids written in seat order without seats (``4,3,nil,4``, the form
    ``dd --bids`` took before), or None when ``text`` is not in that form.

    >>> old_bids_spelling("4,3,nil,4"), old_bids_spelling("0:4,1:3")
    ('0:4,1:3,2:nil,3:4', None)
    """
    parts = [part.strip() for part in text.split(",")]
    if ":" in text or not text.strip() or not text.isprintable():
        return None
    return ",".join(f"{seat}:{part}" for seat, part in enumerate(parts))


def parse_side_values(text: str, field: str, rules: RuleSet,
                      seat: int | None = None) -> tuple[int, ...]:
    """``SIDE=N,…`` (or, given the ``seat`` it speaks for, ``us=N,them=N`` with two sides) as
    one value per side; every side once (``us=240`` alone is refused: the other side's value
    is not known to be 0). ``field`` (``score``, ``bags`` or ``sets``) sets the range: a score
    within ±:data:`SCORE_MOST`, bags 0 to one under the bag limit, sets 0 to one under
    ``sets_to_lose`` (none allowed without it).

    >>> from spades_sim.rules import RuleSet
    >>> parse_side_values("them=310,us=240", "score", RuleSet(), 1)
    (310, 240)
    >>> parse_side_values("0=3,1=5", "bags", RuleSet())
    (3, 5)
    """
    sides = rules.side_count
    values: dict[int, int] = {}
    names = {} if seat is None else {
        "us": seat % sides, **({"them": 1 - seat % sides} if sides == 2 else {})}
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, sep, value = part.partition("=")
        key = key.lower()
        side = names.get(key, int(key) if is_digits(key) else -1)
        try:
            number = whole_number(value)
        except ValueError:
            side = -1
        if not sep or not 0 <= side < sides or side in values:
            values = {}
            break
        values[side] = number
    if len(values) != sides:
        us_them = "us=N,them=N or " if sides == 2 and seat is not None else ""
        raise HandInputError(f"{field}={shown(text)!r}: allowed {us_them}SIDE=N,… with every "
                             f"side 0 to {sides - 1} once")
    if field == "sets" and not rules.sets_to_lose:
        raise HandInputError(f"sets={shown(text)!r}: allowed only under rules with "
                             "sets_to_lose (a game lost by sets)")
    low, high = {"bags": (0, max(rules.bag_limit - 1, 0)),
                 "sets": (0, rules.sets_to_lose - 1)}.get(field, (-SCORE_MOST, SCORE_MOST))
    if not all(low <= value <= high for value in values.values()):
        raise HandInputError(f"{field}={shown(text)!r}: allowed {field} {low:,} to {high:,} "
                             "for each side")
    return tuple(values[side] for side in range(sides))


def old_side_spelling(text: str) -> str | None:
    """The new spelling of per-side values written in side order without sides (``1,2``, the
    form ``dd --bags`` took before), or None when ``text`` is not in that form.

    >>> old_side_spelling("1,2"), old_side_spelling("0=1,1=2")
    ('0=1,1=2', None)
    """
    if "=" in text or not text.strip() or not text.isprintable():
        return None
    return ",".join(f"{side}={part.strip()}" for side, part in enumerate(text.split(",")))


__all__ = ["SCORE_MOST", "HandInputError", "bid_code", "bid_name", "every_seat_bids",
           "old_bids_spelling", "old_side_spelling", "parse_bids", "parse_side_values"]

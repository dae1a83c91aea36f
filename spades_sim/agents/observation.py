"""What a seat knows when it is asked for a decision: :class:`Decision` and :class:`Observation`.

An :class:`Observation` holds everything one seat may know at the moment of one decision,
and nothing it may not: the rules, its seat and the dealer, the hand's number in the game,
its own cards, the bids so far (blind or not), the cards it passed and received, every card
played so far by seat and trick, the trick in progress and its leader, the tricks taken per
seat, the scores and bags before the hand, and the legal moves. Cards are card ids
(:mod:`spades_sim.cards`: ``suit * 13 + rank``, jokers 52 and 53), and every card field has
its names beside it (``hand_names``: ``("QS", "10H", "BJ", ...)``).

The fields mirror the observation the kernel's own policies decide from (docs/agents.md), so
that a built-in strategy and a Python bot see the same things.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass

from ..cards import format_card
from ..referee.handlog import Trick
from ..referee.scoring import partner_of
from ..rules import RuleSet


class Decision(enum.StrEnum):
    """The decisions the rules can ask a seat for, each one method of an agent."""

    BLIND_NIL = "blind_nil"
    """Bid blind nil or not, before looking at the cards (asked only when the rules allow it)."""
    BID = "bid"
    """A bid: tricks, 0 for nil."""
    BLIND_BID = "blind_bid"
    """A number of tricks bid blind, before looking at the cards, or 0 for none (asked only
    when the rules allow one, after blind nil; an agent without this method never bids blind)."""
    DRAW = "draw"
    """Two-player keep-or-discard draw: keep the card drawn (True) or discard it (False)."""
    PASS = "pass_card"
    """The blind-nil exchange: one card to pass face down to the partner."""
    PLAY = "play"
    """A card to play to the trick."""


YES_NO = (False, True)
"""The legal answers of a yes-or-no decision (blind nil, the draw)."""


def card_names(card_ids: Iterable[int]) -> tuple[str, ...]:
    """The names of cards, in order.

    >>> card_names((51, 34, 53))
    ('AS', '10H', 'BJ')
    """
    return tuple(format_card(card) for card in card_ids)


@dataclass(frozen=True)
class Observation:
    """What seat :attr:`seat` knows when asked for :attr:`decision`; built by the table.

    Per-seat fields (``bids``, ``blind``, ``tricks_taken``) have one entry per seat, 0 to n - 1
    clockwise; per-side fields (``score``, ``bags``) one per side (two in partnership, where
    seats 0 and 2 are side 0; one per seat in the individual modes, side k being seat k).
    """

    decision: Decision
    """The decision asked for."""
    rules: RuleSet
    """The rules played (the table's mode, deck and every option)."""
    seat: int
    """The seat deciding, 0 to n - 1."""
    dealer: int
    """The dealer's seat."""
    game: int
    """The game's number at the table (for a table of single hands, the hand's number)."""
    hand_number: int
    """The hand's number in its game, from 0."""
    hand: tuple[int, ...]
    """The cards the seat holds now, lowest id first: empty when it is asked for blind nil or
    a blind bid (declared before looking at the cards; in two-player the seat has seen them in the draw);
    in the draw, the cards kept so far."""
    bids: tuple[int | None, ...]
    """Each seat's bid so far: tricks (0 is nil, blind or not), None before it bids."""
    blind: tuple[bool, ...]
    """Whether each seat's bid is a blind nil."""
    first_bidder: int
    """The seat that bids first; the others follow clockwise."""
    passed: tuple[int, ...]
    """The cards this seat passed in the blind-nil exchange, in order."""
    received: tuple[int, ...]
    """The cards this seat received in the blind-nil exchange, in order."""
    tricks: tuple[Trick, ...]
    """The completed tricks, in order: each its leader, its winner and its cards in play order
    from the leader (the card ``k`` was played by seat ``(leader + k) % n``)."""
    trick: tuple[int, ...]
    """The cards of the trick in progress, in play order from :attr:`leader`."""
    leader: int
    """The seat that leads the trick in progress (before play: the first leader as the cards
    are held)."""
    tricks_taken: tuple[int, ...]
    """Tricks taken so far by each seat."""
    spades_broken: bool
    """Whether a trump has been played on the lead of another suit in this hand."""
    score: tuple[int, ...]
    """Each side's score before the hand."""
    bags: tuple[int, ...]
    """Each side's bags carried into the hand."""
    legal: tuple[int, ...]
    """The legal moves, one of which the agent returns: bids (0 is nil) for ``bid``, card ids
    for ``pass_card`` and ``play``, ``(False, True)`` for ``blind_nil`` and ``draw``, 0 (none)
    and the numbers allowed for ``blind_bid``."""
    drawn: int | None = None
    """The draw only: the card just drawn, to keep or to discard."""
    discards: tuple[int, ...] = ()
    """Two-player only: the discards of the draw this seat has seen (all of its own, except
    the second card of a turn discarded unseen under ``draw_second_card_seen = false``)."""
    blind_bids: tuple[bool, ...] = ()
    """Whether each seat's count bid was bid blind (docs/scoring.md "Blind bids"); empty when
    nobody has."""
    sets: tuple[int, ...] = ()
    """With ``sets_to_lose``: each side's contracts set earlier in the game (else empty)."""
    random_key: int = 0
    """A 64-bit key for this seat's random choices in this hand, derived from the table's
    seed, the game, the hand and the seat (the key of the kernel's own policy stream), so a
    bot that draws from it is reproducible whatever was asked before. It tells nothing about
    the cards."""

    @property
    def seat_count(self) -> int:
        """Seats at the table."""
        return self.rules.seat_count

    @property
    def side(self) -> int:
        """The seat's side."""
        return self.rules.seat_side(self.seat)

    @property
    def partner(self) -> int | None:
        """The partner's seat in partnership play (opposite), None alone."""
        return partner_of(self.rules, self.seat)

    @property
    def hand_names(self) -> tuple[str, ...]:
        """:attr:`hand` by name (``"QS"``, ``"10H"``, ``"BJ"``)."""
        return card_names(self.hand)

    @property
    def trick_names(self) -> tuple[str, ...]:
        """:attr:`trick` by name."""
        return card_names(self.trick)

    @property
    def legal_names(self) -> tuple[str, ...]:
        """:attr:`legal` by name for a card decision (``pass_card``, ``play``); else each move
        as text (``"0"``, ``"4"``; ``"False"``, ``"True"``)."""
        if self.decision in (Decision.PASS, Decision.PLAY):
            return card_names(self.legal)
        return tuple(str(move) for move in self.legal)

    @property
    def plays(self) -> tuple[tuple[int, int, int], ...]:
        """Every card played so far in the hand as ``(trick, seat, card)``, trick from 0, in
        play order (the completed tricks, then the trick in progress)."""
        n = self.rules.seat_count
        played = [(number, (trick.leader + k) % n, card)
                  for number, trick in enumerate(self.tricks) for k, card in enumerate(trick.cards)]
        played += [(len(self.tricks), (self.leader + k) % n, card) for k, card in enumerate(self.trick)]
        return tuple(played)

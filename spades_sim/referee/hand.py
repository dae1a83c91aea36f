"""One hand of Spades as an explicit state machine: BID → EXCHANGE → PLAY → SCORE.

In the manner of pokerkit's ``State``, each transition is one ``_end_<phase>`` or
``_begin_<phase>`` method of :class:`Hand`, and every action comes as three methods,
``verify_*`` (raises :class:`IllegalMove` with a sentence saying why), ``can_*`` (the
same as a bool) and the action itself, which returns a frozen record of
:mod:`spades_sim.referee.handlog` and appends it to :attr:`Hand.operations`. Every
table mode is played: the rule set gives the seats (2-5), the hand size, the sides
and who is whose partner.

>>> from spades_sim.rules import RuleSet
>>> hand = Hand(RuleSet(), 3, ["AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S",
...                            "AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H",
...                            "AD KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D 2D",
...                            "AC KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C 2C"])
>>> hand.turn_index, hand.bid(0, 13)
(0, Bid(seat_index=0, tricks=13))
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Collection, Sequence
from typing import TypeVar

from spades_sim import cards
from spades_sim.referee.deck import TRUMP_SUIT, DeckSpec, deck_of
from spades_sim.referee.handlog import (
    BLIND_NIL,
    Action,
    Bid,
    BlindBid,
    BlindCount,
    BlindNilBid,
    CardPass,
    CardPlay,
    HandResult,
    Trick,
    check_deal,
)
from spades_sim.referee.scoring import (
    BidValue,
    _bid_name,
    _count,
    _zeros,
    blind_bid_refusal,
    blind_nil_refusal,
    is_nil,
    partner_of,
    score_hand,
)
from spades_sim.rules import (
    BothPartnersNil,
    FirstBidder,
    FirstLead,
    ForcedMode,
    Mode,
    RuleSet,
    SpadesLead,
    TwoPlayerFirst,
)

_NUMBER_WORDS = {2: "two", 3: "three", 4: "four", 5: "five"}
"""Seat counts as the messages write them ("the four bids")."""

_BidRecord = TypeVar("_BidRecord", Bid, BlindNilBid, BlindBid)


class IllegalMove(ValueError):
    """A bid or play that the rules do not allow; the message says why.

    >>> str(IllegalMove("seat 2 bid 14: allowed 0-13"))
    'seat 2 bid 14: allowed 0-13'
    """


class Phase(enum.StrEnum):
    """The phases of a hand, in order."""

    BID = "bid"
    """Each seat bids once, clockwise from the first bidder (the dealer's left by default)."""
    EXCHANGE = "exchange"
    """The card exchange after a blind nil (``blind_nil_pass`` > 0) or a plain nil
    (``nil_pass`` > 0): partners pass cards."""
    PLAY = "play"
    """The tricks are played, one per card a seat holds."""
    SCORE = "score"
    """All cards are played and :attr:`Hand.result` is known: the hand is done."""


class Hand:
    """One hand of Spades as a state machine: BID → EXCHANGE → PLAY → SCORE.

    The table is the rules' mode (docs/scoring.md "Table modes"): n = 2 to 5
    seats, each holding the hand size; two partnerships or one side per seat.
    The EXCHANGE phase happens only with ``blind_nil_pass`` > 0 and a blind nil
    bid, or ``nil_pass`` > 0 and a plain nil beside a partner's number (docs/scoring.md
    "The blind-nil exchange", "The nil card pass").

    Parameters
    ----------
    rules : RuleSet
        The rules played.
    dealer : int
        The dealer's seat, 0 to n - 1. The dealer's left bids first (the dealer's right
        with ``first_bidder = "dealer_right"``; in two-player the seat ``two_player_first``
        names); ``first_lead`` says who leads first.
    hands : sequence of n card sequences
        The cards each seat holds after the deal (two-player: the cards it kept in the
        draw): card ids or a string such as ``"AS 10H 2C ..."``, the hand size each, together
        exactly the rules' deck (:func:`deck_of`), with the discards in two-player.
    score_before, bags_before : sequence of int, one per side
        Each side's score and carried bags before the hand (for blind nil and the result);
        all 0 if None.
    hand_index : int
        The hand's index in its game, from 0 (for ``blind_nil = "after_first_hand"``).
    discards : sequence of 2 card sequences, optional
        Two-player only, and required there: the 13 cards each seat discarded in the draw.

    Raises
    ------
    ValueError
        A deal that is not the hand size a seat of the rules' deck, each card once
        (a removed deuce, or a joker in a deck without jokers, is refused); discards
        missing in two-player or given in another mode.
    """

    def __init__(
        self,
        rules: RuleSet,
        dealer: int,
        hands: Sequence[Sequence[int] | str],
        score_before: Sequence[int] | None = None,
        bags_before: Sequence[int] | None = None,
        hand_index: int = 0,
        discards: Sequence[Sequence[int] | str] | None = None,
    ) -> None:
        self.rules = rules
        """The rules played."""
        self.seat_count = rules.seat_count
        """Seats at the table (2 to 5)."""
        self._hand_size = rules.hand_size  # a computed property of the rules, asked every trick
        self.deck = deck_of(rules)
        """The deck played: its cards and its trumps."""
        self.dealer_index = _check_seat("dealer", dealer, self.seat_count, ValueError)
        """The dealer's seat."""
        self.hands, self.discards = _check_deal(rules, self.deck, hands, discards)
        """The cards each seat held after the deal, as given (before any blind-nil exchange);
        in two-player, the cards each seat discarded in the draw (else None)."""
        self.score_before = _check_sides(rules, "score_before", score_before, minimum=None)
        """Each side's score before the hand."""
        self.bags_before = _check_sides(rules, "bags_before", bags_before, minimum=0)
        """Each side's bags carried into the hand."""
        if isinstance(hand_index, bool) or not isinstance(hand_index, int) or hand_index < 0:
            raise ValueError(f"hand_index={hand_index!r}: allowed a whole number 0 or more")
        self.hand_index = hand_index
        """The hand's index in its game."""
        self.operations: list[Action] = []
        """Every action applied, in order."""
        self.tricks: list[Trick] = []
        """The completed tricks, in order."""
        self.spades_broken_status = False
        """Whether a trump ("spade") has been played on the lead of another suit."""
        self.phase = Phase.BID
        """The current phase."""
        self.first_bidder_index = first_bidder(rules, self.dealer_index)
        """The seat that bids first."""
        self.turn_index: int | None = self.first_bidder_index
        """The seat to bid, pass or play next; None once the hand is over."""
        self.leader_index: int = first_leader(rules, self.dealer_index, self.hands)
        """The seat that leads (or led) the trick in progress; before play, the first leader
        as the cards are held (a blind-nil exchange may move the lowest club under
        ``first_lead = "two_of_clubs"``; play starts from the hands after it)."""
        self._holdings = [set(seat_cards) for seat_cards in self.hands]
        self._bids: list[BidValue | None] = [None] * self.seat_count
        self._passers: list[int] = []  # the exchange still to come: one passing seat per card
        self._trick_cards: list[int] = []
        self._tricks_taken = [0] * self.seat_count
        self._result: HandResult | None = None

    # --- views ---

    @property
    def bids(self) -> tuple[BidValue | None, ...]:
        """Each seat's bid so far: tricks, ``"bn"`` for blind nil, None before it bids."""
        return tuple(self._bids)

    @property
    def tricks_taken(self) -> tuple[int, ...]:
        """Tricks taken so far by each seat."""
        return tuple(self._tricks_taken)

    @property
    def trick_cards(self) -> tuple[int, ...]:
        """The cards of the trick in progress, from its leader."""
        return tuple(self._trick_cards)

    @property
    def trick_number(self) -> int:
        """The number of the trick in progress (or last played), from 1."""
        return min(len(self.tricks) + 1, self._hand_size)

    @property
    def result(self) -> HandResult:
        """What the hand scored; only once every card is played.

        :raises ValueError: the hand is not over.
        """
        if self._result is None:
            raise ValueError(f"the hand is not over: phase {self.phase}, seat {self.turn_index} is next")
        return self._result

    def holding(self, seat: int) -> tuple[int, ...]:
        """The cards seat ``seat`` holds now, lowest id first (after any blind-nil passes)."""
        return tuple(sorted(self._holdings[seat]))

    def waiting_for(self) -> str:
        """What the hand waits for, as messages say it: ``"seat 2 is to bid"``,
        ``"seat 3 is to pass 2 cards to seat 1"``, ``"seat 0 is to play"``; empty once over.
        """
        match self.phase:
            case Phase.BID | Phase.PLAY:
                return f"seat {self.turn_index} is to {self.phase}"
            case Phase.EXCHANGE:
                passer = self._passers[0]
                run = next((i for i, seat in enumerate(self._passers) if seat != passer), len(self._passers))
                noun = "card" if run == 1 else "cards"
                return f"seat {passer} is to pass {run} {noun} to seat {partner_of(self.rules, passer)}"
        return ""

    # --- bidding ---

    def _verify_bidder(self, seat: int, what: str) -> None:
        _check_seat("seat", seat, self.seat_count, IllegalMove)
        if self.phase != Phase.BID:
            raise IllegalMove(f"seat {seat} {what} after bidding was over")
        if seat != self.turn_index:
            raise IllegalMove(f"seat {seat} {what} out of turn ({self.waiting_for()})")

    def _partner_bid(self, seat: int) -> tuple[int | None, BidValue | None]:
        """A seat's partner and the partner's bid so far; (None, None) with no partner."""
        partner = partner_of(self.rules, seat)
        return partner, None if partner is None else self._bids[partner]

    def verify_bid(self, seat: int, tricks: int) -> None:
        """Raise :class:`IllegalMove` unless seat ``seat`` may bid ``tricks`` now (0 is nil).

        Bids run from ``min_bid`` to the hand size (13; 17 or 18 with three players,
        10 with five).
        """
        self._verify_bidder(seat, "bid")
        top = self.rules.hand_size
        if isinstance(tricks, bool) or not isinstance(tricks, int) or not self.rules.min_bid <= tricks <= top:
            raise IllegalMove(f"seat {seat} bid {tricks}: allowed {self.rules.min_bid}-{top}")
        if self.rules.forced_mode != ForcedMode.NONE:
            self._verify_forced_bid(seat, tricks)
        if tricks == 0:
            self._verify_partner_not_nil(seat, "nil")
            self._verify_nil_constraints(seat, "nil")
            return
        partner, partner_bid = self._partner_bid(seat)
        minimum = self.rules.side_min_bid
        if partner_bid is not None and tricks + _count(partner_bid) < minimum:
            raise IllegalMove(
                f"seat {seat} bid {tricks}: side {self.rules.seat_side(seat)} needs at least {minimum} "
                f"(side_min_bid={minimum}; partner seat {partner} bid {_bid_name(partner_bid)})"
            )
        if self._sum_would_be_hand_size(seat, tricks):
            raise IllegalMove(f"seat {seat} bid {tricks}: {self._sum_rule_text()}")
        maximum = self.rules.side_max_bid
        if maximum is not None and partner_bid is not None and tricks + _count(partner_bid) > maximum:
            raise IllegalMove(
                f"seat {seat} bid {tricks}: side {self.rules.seat_side(seat)} may bid at most {maximum} "
                f"(side_max_bid={maximum}; partner seat {partner} bid {_bid_name(partner_bid)})"
            )

    def _verify_forced_bid(self, seat: int, tricks: int) -> None:
        """``forced_mode`` (docs/scoring.md "Forced-bid modes"): the bids a forced mode allows.

        ``suicide``: the first partner of a side to bid may bid nil or 4-13; the second must bid
        4-13 after a nil and nil otherwise. ``mirror``: exactly the trumps ("spades", jokers and
        promoted deuces included) dealt to the seat, nil with none. ``whiz``: nil or exactly that
        count, nil only with none.
        """
        mode = self.rules.forced_mode
        top = self.rules.hand_size
        if mode == ForcedMode.SUICIDE:  # partnership only (the rule set refuses it elsewhere)
            partner, partner_bid = self._partner_bid(seat)
            if partner_bid is None:
                if tricks == 0 or tricks >= 4:
                    return
                allowed, why = f"nil or 4-{top}", f"first of side {self.rules.seat_side(seat)} to bid"
            elif is_nil(partner_bid):
                if tricks >= 4:
                    return
                allowed, why = f"4-{top}", f"partner seat {partner} bid nil"
            else:
                if tricks == 0:
                    return
                allowed, why = "nil", f"partner seat {partner} bid {_bid_name(partner_bid)}"
            raise IllegalMove(f"seat {seat} bid {tricks}: allowed {allowed} ({mode}, {why})")
        held = sum(1 for card in self.hands[seat] if self.deck.is_trump(card))
        if tricks == held or (mode == ForcedMode.WHIZ and tricks == 0):
            return
        if held == 0:
            allowed = "nil"
        elif mode == ForcedMode.MIRROR:
            allowed = f"exactly {held}"
        else:
            allowed = f"nil or {held}"
        noun = "spade" if held == 1 else "spades"
        raise IllegalMove(f"seat {seat} bid {tricks}: allowed {allowed} ({mode}: holds {held} {noun})")

    def _verify_nil_constraints(self, seat: int, what: str) -> None:
        """``side_min_bid`` and ``sum_of_bids_not_hand_size`` for a nil or blind nil (counted 0)."""
        partner, partner_bid = self._partner_bid(seat)
        minimum = self.rules.side_min_bid
        if partner_bid is not None and _count(partner_bid) < minimum:
            raise IllegalMove(
                f"seat {seat} may not bid {what}: partner seat {partner} bid {_bid_name(partner_bid)}, "
                f"below side_min_bid={minimum}"
            )
        if self._sum_would_be_hand_size(seat, 0):
            raise IllegalMove(f"seat {seat} may not bid {what}: {self._sum_rule_text()}")

    def _sum_would_be_hand_size(self, seat: int, tricks: int) -> bool:
        """Whether the last bidder's ``tricks`` would make all n bids add up to the hand size
        (nil counts 0)."""
        if not self.rules.sum_of_bids_not_hand_size:
            return False
        others = [bid for index, bid in enumerate(self._bids) if index != seat]
        made = [bid for bid in others if bid is not None]
        if len(made) < len(others):
            return False  # not the last bidder
        return tricks + sum(_count(bid) for bid in made) == self.rules.hand_size

    def _sum_rule_text(self) -> str:
        return (
            f"the {_NUMBER_WORDS[self.seat_count]} bids would add up to {self.rules.hand_size} "
            "(sum_of_bids_not_hand_size)"
        )

    def _verify_partner_not_nil(self, seat: int, what: str) -> None:
        """``both_partners_nil = "forbidden"``: no nil (or blind nil) beside a partner's nil."""
        partner, partner_bid = self._partner_bid(seat)
        if self.rules.both_partners_nil == BothPartnersNil.FORBIDDEN and is_nil(partner_bid):
            partner_what = "blind nil" if partner_bid == BLIND_NIL else "nil"
            raise IllegalMove(
                f"seat {seat} may not bid {what}: partner seat {partner} already bid {partner_what} "
                "(both_partners_nil=forbidden)"
            )

    def can_bid(self, seat: int, tricks: int) -> bool:
        """Whether seat ``seat`` may bid ``tricks`` now."""
        return _allowed(self.verify_bid, seat, tricks)

    def bid(self, seat: int, tricks: int) -> Bid:
        """Seat ``seat`` bids ``tricks`` (0 is nil); return the :class:`Bid` record."""
        self.verify_bid(seat, tricks)
        return self._record_bid(Bid(seat, tricks), tricks)

    def verify_blind_nil(self, seat: int) -> None:
        """Raise :class:`IllegalMove` unless seat ``seat`` may bid blind nil now."""
        self._verify_bidder(seat, "bid blind nil")
        side = self.rules.seat_side(seat)
        refusal = blind_nil_refusal(self.rules, side, self.score_before, self.hand_index)
        if refusal is not None:
            raise IllegalMove(f"seat {seat} bid blind nil but {refusal}")
        self._verify_partner_not_nil(seat, "blind nil")
        self._verify_nil_constraints(seat, "blind nil")

    def can_blind_nil(self, seat: int) -> bool:
        """Whether seat ``seat`` may bid blind nil now."""
        return _allowed(self.verify_blind_nil, seat)

    def blind_nil(self, seat: int) -> BlindNilBid:
        """Seat ``seat`` bids blind nil; return the :class:`BlindNilBid` record."""
        self.verify_blind_nil(seat)
        return self._record_bid(BlindNilBid(seat), BLIND_NIL)

    def verify_blind_bid(self, seat: int, tricks: int) -> None:
        """Raise :class:`IllegalMove` unless seat ``seat`` may bid ``tricks`` blind now
        (docs/scoring.md "Blind bids"): its side trails by ``blind_bid_threshold`` or more, the
        count runs from ``blind_bid_min`` to the hand size, its partner has not bid blind, and
        the bid obeys every constraint a bid made looking does."""
        self._verify_bidder(seat, "bid blind")
        side = self.rules.seat_side(seat)
        refusal = blind_bid_refusal(self.rules, side, self.score_before)
        if refusal is not None:
            raise IllegalMove(f"seat {seat} bid blind but {refusal}")
        top = self.rules.hand_size
        low = self.rules.blind_bid_min
        if isinstance(tricks, bool) or not isinstance(tricks, int) or not low <= tricks <= top:
            raise IllegalMove(f"seat {seat} bid {tricks} blind: allowed {low}-{top} (blind_bid_min={low})")
        partner, partner_bid = self._partner_bid(seat)
        if isinstance(partner_bid, BlindCount):
            raise IllegalMove(f"seat {seat} bid {tricks} blind: partner seat {partner} already bid "
                              f"{_bid_name(partner_bid)} (one blind bid a side)")
        self.verify_bid(seat, tricks)

    def can_blind_bid(self, seat: int, tricks: int) -> bool:
        """Whether seat ``seat`` may bid ``tricks`` blind now."""
        return _allowed(self.verify_blind_bid, seat, tricks)

    def blind_bid(self, seat: int, tricks: int) -> BlindBid:
        """Seat ``seat`` bids ``tricks`` blind, before looking; return the :class:`BlindBid` record."""
        self.verify_blind_bid(seat, tricks)
        return self._record_bid(BlindBid(seat, tricks), BlindCount(tricks))

    def _record_bid(self, record: _BidRecord, value: BidValue) -> _BidRecord:
        self._bids[record.seat_index] = value
        self.operations.append(record)
        self.turn_index = (record.seat_index + 1) % self.seat_count
        if all(bid is not None for bid in self._bids):
            self._end_bid()
        return record

    def _end_bid(self) -> None:
        self._passers = self._exchange_order()
        if self._passers:
            self.phase = Phase.EXCHANGE
            self.turn_index = self._passers[0]
        else:
            self._begin_play()

    def _exchange_order(self) -> list[int]:
        """The passing seat of each card of the exchanges, in order.

        One exchange a side, in the bidding order of the seat that receives: for a blind nil
        (``blind_nil_pass`` cards) or, on a side with no blind nil, for a plain nil whose
        partner bid a number (``nil_pass`` cards), the partner passes first, then the nil
        bidder as many back. When both partners bid blind nil, only the first of them (in
        bidding order) receives; when both bid nil, and neither blind, nobody passes.
        """
        order: list[int] = []
        served: set[int] = set()
        if not (self.rules.blind_nil_pass or self.rules.nil_pass):
            return order
        for seat in self._exchange_receivers():
            partner = partner_of(self.rules, seat)
            assert partner is not None, "a pass needs partners (the rule set refuses it alone)"
            side = self.rules.seat_side(seat)
            if side in served:
                continue
            served.add(side)
            count = self.rules.blind_nil_pass if self._bids[seat] == BLIND_NIL else self.rules.nil_pass
            order += [partner] * count + [seat] * count
        return order

    def _exchange_receivers(self) -> list[int]:
        """The seats, in bidding order, that an exchange serves: every blind nil when
        ``blind_nil_pass`` > 0, and with ``nil_pass`` > 0 a plain nil whose partner bid neither
        nil nor blind nil."""
        receivers = []
        for offset in range(self.seat_count):
            seat = (self.first_bidder_index + offset) % self.seat_count
            bid = self._bids[seat]
            if bid == BLIND_NIL and self.rules.blind_nil_pass:
                receivers.append(seat)
            elif bid == 0 and self.rules.nil_pass:
                partner = partner_of(self.rules, seat)
                if partner is not None and not is_nil(self._bids[partner], self.rules):
                    receivers.append(seat)
        return receivers

    # --- the exchanges (blind nil and plain nil) ---

    def verify_pass_card(self, seat: int, card: int) -> None:
        """Raise :class:`IllegalMove` unless seat ``seat`` may pass ``card`` to its partner now.

        Checks that there is an exchange in progress, that it is the
        seat's turn (the partner's ``blind_nil_pass`` or ``nil_pass`` cards first, then the
        nil bidder's as many back) and that the seat holds the card at
        this moment (a card just received may be passed back).
        """
        self._verify_card_action(seat, card, "passed")
        name = cards.format_card(card)
        if self.phase != Phase.EXCHANGE:
            raise IllegalMove(f"seat {seat} passed {name} {self._no_exchange_reason()}")
        if seat != self.turn_index:
            raise IllegalMove(f"seat {seat} passed {name} out of turn ({self.waiting_for()})")
        if card not in self._holdings[seat]:
            raise IllegalMove(f"seat {seat} passed {name}, which it does not hold")

    def _exchange_name(self) -> str:
        """The exchange as messages name it: the blind-nil exchange, or the card exchange when
        a plain nil passes too (``nil_pass``)."""
        return "the card exchange" if self.rules.nil_pass else "the blind-nil exchange"

    def _no_exchange_reason(self) -> str:
        """Why no card may be passed now, outside the EXCHANGE phase."""
        if self.phase == Phase.BID:
            return f"during bidding ({self.waiting_for()})"
        if self.phase == Phase.SCORE:
            return "after the hand was over"
        if any(isinstance(operation, CardPass) for operation in self.operations):
            return f"after {self._exchange_name()} was over ({self.waiting_for()})"
        if not (self.rules.blind_nil_pass or self.rules.nil_pass):
            return "but no cards are passed (blind_nil_pass=0, nil_pass=0)"
        if not self.rules.nil_pass:
            return "but nobody bid blind nil (cards are passed only after a blind nil)"
        return "but no side has a nil to pass to (none, or both partners bid nil)"

    def can_pass_card(self, seat: int, card: int) -> bool:
        """Whether seat ``seat`` may pass ``card`` to its partner now."""
        return _allowed(self.verify_pass_card, seat, card)

    def pass_card(self, seat: int, card: int) -> CardPass:
        """Seat ``seat`` passes ``card`` face down to its partner; return the :class:`CardPass` record."""
        self.verify_pass_card(seat, card)
        record = CardPass(seat, card)
        partner = partner_of(self.rules, seat)
        assert partner is not None
        self._holdings[seat].remove(card)
        self._holdings[partner].add(card)
        self.operations.append(record)
        self._passers.pop(0)
        if self._passers:
            self.turn_index = self._passers[0]
        else:
            self._begin_play()
        return record

    def _begin_play(self) -> None:
        # The first lead is decided on the hands as held now, after any exchange: under
        # two_of_clubs the lowest club may have changed hands (docs/scoring.md).
        self.leader_index = first_leader(self.rules, self.dealer_index, self._holdings)
        self.phase = Phase.PLAY
        self.turn_index = self.leader_index

    # --- play ---

    def _verify_card_action(self, seat: int, card: int, verb: str) -> None:
        """The seat and card id checks shared by passes and plays."""
        _check_seat("seat", seat, self.seat_count, IllegalMove)
        if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < cards.CARD_COUNT:
            raise IllegalMove(f"seat {seat} {verb} card id {card!r}: allowed 0-{cards.CARD_COUNT - 1}")

    def verify_play(self, seat: int, card: int) -> None:
        """Raise :class:`IllegalMove` unless seat ``seat`` may play ``card`` now.

        Checks the turn, that the card is held, the first lead (``first_lead``),
        that trumps are not led before they are broken unless the leader holds
        only trumps (``spades_lead = "must_break"``), and that the suit led is
        followed when possible. Trumps ("spades") are the spade suit, the jokers
        and any promoted deuce (:func:`deck_of`).
        """
        # The usual case (a plain int seat and card in range, in play, in turn, held) is tested
        # first and cheaply: the differential tests replay millions of plays. Anything else goes
        # through the checks in their order, for the message.
        if not (
            type(seat) is int
            and type(card) is int
            and seat == self.turn_index
            and self.phase is Phase.PLAY
            and 0 <= card < cards.CARD_COUNT
            and card in self._holdings[seat]
        ):
            self._refuse_play(seat, card)
        holding = self._holdings[seat]
        deck = self.deck
        suit = deck.suit_of(card)
        if not self._trick_cards:
            self._verify_lead(seat, card)
            return
        led_suit = deck.suit_of(self._trick_cards[0])
        if suit != led_suit and any(deck.suit_of(held) == led_suit for held in holding):
            followers = sorted((held for held in holding if deck.suit_of(held) == led_suit),
                               key=deck.rank_of)
            raise IllegalMove(
                f"trick {self.trick_number}: seat {seat} must follow {cards.SUIT_NAMES[led_suit]}; "
                f"holds {cards.format_cards(followers)}"
            )

    def _refuse_play(self, seat: int, card: int) -> None:
        """The checks of :meth:`verify_play` before the rules of leading and following, in order:
        raise :class:`IllegalMove` for the first that fails (return if none does)."""
        self._verify_card_action(seat, card, "played")
        name = cards.format_card(card)
        if self.phase == Phase.BID:
            raise IllegalMove(f"seat {seat} played {name} during bidding ({self.waiting_for()})")
        if self.phase == Phase.EXCHANGE:
            raise IllegalMove(
                f"seat {seat} played {name} during {self._exchange_name()} ({self.waiting_for()})"
            )
        if self.phase == Phase.SCORE:
            raise IllegalMove(f"seat {seat} played {name} after the hand was over")
        if seat != self.turn_index:
            raise IllegalMove(f"seat {seat} played {name} out of turn ({self.waiting_for()})")
        if card not in self._holdings[seat]:
            raise IllegalMove(f"seat {seat} played {name}, not in hand")

    def _verify_lead(self, seat: int, card: int) -> None:
        """The leading rules: ``first_lead`` on trick 1, then ``spades_lead``."""
        name = cards.format_card(card)
        trump = self.deck.is_trump(card)
        # Asked only of a trump lead (every rule below allows any other lead).
        only_trumps = trump and all(self.deck.is_trump(held) for held in self._holdings[seat])
        if not self.tricks:
            match self.rules.first_lead:
                case FirstLead.TWO_OF_CLUBS:
                    lowest = self.deck.lowest_club
                    if card != lowest:
                        raise IllegalMove(
                            f"trick 1: seat {seat} must lead {cards.format_card(lowest)} (two_of_clubs)"
                        )
                    return
                case FirstLead.DEALER_LEFT_NO_SPADE:
                    # No trump on the first lead, whatever spades_lead says.
                    if trump and not only_trumps:
                        if self.rules.spades_lead == SpadesLead.MUST_BREAK:
                            raise IllegalMove(f"trick 1: seat {seat} led {name} before spades were broken")
                        raise IllegalMove(
                            f"trick 1: seat {seat} may not lead {name}: no spade on the first lead "
                            "unless holding only spades (dealer_left_no_spade)"
                        )
                    return
                case FirstLead.DEALER_RIGHT:
                    pass  # the ordinary leading rule below
        if not trump or only_trumps:
            return
        if self.rules.spades_lead == SpadesLead.NEVER_BROKEN:
            raise IllegalMove(f"trick {self.trick_number}: seat {seat} led {name} while holding "
                              "another suit (spades_lead='never_broken')")
        if self.rules.spades_lead == SpadesLead.MUST_BREAK and not self.spades_broken_status:
            raise IllegalMove(f"trick {self.trick_number}: seat {seat} led {name} before spades were broken")

    def can_play(self, seat: int, card: int) -> bool:
        """Whether seat ``seat`` may play ``card`` now."""
        return _allowed(self.verify_play, seat, card)

    def legal_plays(self, seat: int) -> tuple[int, ...]:
        """The cards seat ``seat`` may play now, lowest id first (empty when it is not to play):
        the cards :meth:`can_play` allows."""
        holding = self.holding(seat)
        if seat != self.turn_index or self.phase is not Phase.PLAY or (
                not self.tricks and self.rules.first_lead == FirstLead.TWO_OF_CLUBS):
            return tuple(card for card in holding if self.can_play(seat, card))
        # Asked at every play, so it spares raising an IllegalMove, with its message, for each
        # card that may not go. After the lead verify_play checks only the follow rule (the turn
        # and the card held being right): the led suit's cards, or any card when void.
        deck = self.deck
        if self._trick_cards:
            led = deck.suit_of(self._trick_cards[0])
            return tuple(card for card in holding if deck.suit_of(card) == led) or holding
        # A lead (but the first under two_of_clubs, above): whether a card may be led depends
        # only on whether it is a trump, so one card of each kind is asked.
        trumps = [card for card in holding if deck.is_trump(card)]
        others = [card for card in holding if not deck.is_trump(card)]
        allowed = {card for group in (trumps, others) if group and self.can_play(seat, group[0])
                   for card in group}
        return tuple(card for card in holding if card in allowed)

    def play(self, seat: int, card: int) -> CardPlay:
        """Seat ``seat`` plays ``card``; return the :class:`CardPlay` record."""
        self.verify_play(seat, card)
        return self._record_play(CardPlay(seat, card))

    def _record_play(self, record: CardPlay) -> CardPlay:
        seat, card = record.seat_index, record.card
        self._holdings[seat].remove(card)
        if self._trick_cards and self.deck.is_trump(card):
            led_suit = self.deck.suit_of(self._trick_cards[0])
            # Only a trump on another suit's lead breaks spades; a trump lead
            # (allowed when holding only trumps, or with spades_lead = "any_time")
            # does not (docs/scoring.md, Play and "Decks"); under "never_broken" nothing does.
            self.spades_broken_status |= (led_suit != TRUMP_SUIT
                                          and self.rules.spades_lead != SpadesLead.NEVER_BROKEN)
        self._trick_cards.append(card)
        self.operations.append(record)
        self.turn_index = (seat + 1) % self.seat_count
        if len(self._trick_cards) == self.seat_count:
            self._end_trick()
        return record

    def _end_trick(self) -> None:
        position = self.deck.trick_winner_position(self._trick_cards)
        winner = (self.leader_index + position) % self.seat_count
        self.tricks.append(Trick(self.leader_index, winner, tuple(self._trick_cards)))
        self._tricks_taken[winner] += 1
        self._trick_cards = []
        self.leader_index = self.turn_index = winner
        if len(self.tricks) == self._hand_size:
            self._end_play()

    def _end_play(self) -> None:
        self.phase = Phase.SCORE
        self.turn_index = None
        bids = [bid for bid in self._bids if bid is not None]
        self._result = score_hand(self.rules, bids, self._tricks_taken, self.score_before, self.bags_before)

    # --- any action ---

    def apply(self, action: Action) -> Action:
        """Apply an action record (as parsed from a log); return it."""
        if type(action) is CardPlay:
            # Most actions are plays: the record, frozen, is kept as it is, not made again.
            self.verify_play(action.seat_index, action.card)
            return self._record_play(action)
        match action:
            case Bid(seat, tricks):
                return self.bid(seat, tricks)
            case BlindNilBid(seat):
                return self.blind_nil(seat)
            case BlindBid(seat, tricks):
                return self.blind_bid(seat, tricks)
            case CardPass(seat, card):
                return self.pass_card(seat, card)
            case CardPlay(seat, card):
                return self.play(seat, card)
        raise TypeError(f"not an action record: {action!r}")


def _allowed(verify: Callable[..., None], *args: int) -> bool:
    # can_* is verify_* turned into a bool, so the two can never disagree.
    try:
        verify(*args)
    except IllegalMove:
        return False
    return True


def _check_seat(name: str, seat: object, seat_count: int, error: type[ValueError]) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < seat_count:
        raise error(f"{name} {seat!r}: allowed 0-{seat_count - 1}")
    return seat


def _check_sides(
    rules: RuleSet, name: str, values: Sequence[int] | None, minimum: int | None
) -> tuple[int, ...]:
    """One whole number per side of the rules' table (all 0 if None), each ``minimum`` or more."""
    if values is None:
        return _zeros(rules)
    count = rules.side_count
    if (
        len(values) != count
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in values)
        or (minimum is not None and min(values) < minimum)
    ):
        floor = "" if minimum is None else f" {minimum} or more"
        raise ValueError(f"{name}={list(values)!r}: allowed {count} whole numbers{floor}, one per side")
    return tuple(values)


def _check_deal(
    rules: RuleSet,
    deck: DeckSpec,
    raw_hands: Sequence[Sequence[int] | str],
    raw_discards: Sequence[Sequence[int] | str] | None,
) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...] | None]:
    """The deal must be the hand size a seat, each card once, every one of them in ``deck``;
    in two-player (and only there) the discards of the draw complete it.

    n seats of the hand size in distinct cards of the deck are exactly the deck (50-54 cards);
    in two-player, 2 x 13 kept and 2 x 13 discarded are its 52.
    """
    two_player = rules.mode == Mode.TWO_PLAYER
    if two_player and raw_discards is None:
        raise ValueError(
            "discards missing: required with mode='two-player', allowed 2 strings of 13 cards "
            "(the cards each player discarded in the draw)"
        )
    if raw_discards is not None and not two_player:
        raise ValueError(
            f"discards: allowed only with mode='two-player' (mode={str(rules.mode)!r} deals every card)"
        )
    hands = _card_ids(raw_hands)
    discards = None if raw_discards is None else _card_ids(raw_discards)
    # The table first (seats, cards a seat, each card once), then the cards themselves.
    check_deal(hands, rules.hand_size, rules.seat_count, discards)
    for name, seats in (("hands", hands), ("discards", discards or ())):
        _check_in_deck(name, seats, deck)
    assert set().union(*hands, *(discards or ())) == deck.cards, "the counts of RuleSet and deck_of disagree"
    return hands, discards


def _card_ids(raw_seats: Sequence[Sequence[int] | str]) -> tuple[tuple[int, ...], ...]:
    """Card ids per seat from strings or ids."""
    return tuple(
        cards.parse_cards(raw, unique=False) if isinstance(raw, str) else tuple(raw) for raw in raw_seats
    )


def _check_in_deck(name: str, seats: Sequence[Sequence[int]], deck: DeckSpec) -> None:
    """Every card of ``hands`` (or ``discards``) must be a card id of ``deck``."""
    for seat, seat_cards in enumerate(seats):
        for card in seat_cards:
            if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < cards.CARD_COUNT:
                raise ValueError(f"{name}[{seat}] holds {card!r}: allowed a card id 0-{cards.CARD_COUNT - 1}")
            if card not in deck.cards:
                raise ValueError(
                    f"{name}[{seat}] holds {cards.format_card(card)}: allowed a card of the "
                    f"{deck.name} deck ({deck.note})"
                )


def _left_of_dealer(rules: RuleSet, dealer: int) -> int:
    """The dealer's left (dealer + 1). Two-player: the seat ``two_player_first`` names, the
    non-dealer (the dealer's left) by default, which draws, bids and leads first there."""
    if rules.mode == Mode.TWO_PLAYER and rules.two_player_first == TwoPlayerFirst.DEALER:
        return dealer
    return (dealer + 1) % rules.seat_count


def first_bidder(rules: RuleSet, dealer: int) -> int:
    """Return the seat that bids first: the dealer's left, or right with ``first_bidder = "dealer_right"``.

    The dealer's right is dealer - 1 at any table size; in two-player, ``two_player_first`` decides.

    >>> first_bidder(RuleSet(), 0), first_bidder(RuleSet(first_bidder="dealer_right"), 0)
    (1, 3)
    >>> first_bidder(RuleSet(mode="three-player", blind_nil="off", first_bidder="dealer_right"), 0)
    2
    """
    if rules.first_bidder == FirstBidder.DEALER_LEFT:
        return _left_of_dealer(rules, dealer)
    return (dealer - 1) % rules.seat_count


def first_leader(rules: RuleSet, dealer: int, hands: Sequence[Collection[int]]) -> int:
    """Return the seat that leads the first trick (``first_lead``).

    The dealer's left (in two-player the seat ``two_player_first`` names); the
    dealer's right with ``dealer_right``; with ``two_of_clubs`` the holder in
    ``hands`` of the deck's lowest club (2C, or 3C where 2C is removed).
    """
    match rules.first_lead:
        case FirstLead.DEALER_LEFT_NO_SPADE:
            return _left_of_dealer(rules, dealer)
        case FirstLead.DEALER_RIGHT:
            return (dealer - 1) % rules.seat_count
        case FirstLead.TWO_OF_CLUBS:
            lowest = deck_of(rules).lowest_club
            return next(seat for seat, seat_cards in enumerate(hands) if lowest in seat_cards)
    raise AssertionError(f"unhandled first_lead option {rules.first_lead!r}")


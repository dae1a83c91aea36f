"""Rule sets: the options of docs/rules.md as frozen, validated data.

A :class:`RuleSet` is a plain value. Presets live as TOML files in ``data/rules/``
(installed as the ``spades_sim.presets`` package); :func:`load_preset` reads
one by name, :func:`load_rules` reads a user's file, and :func:`dumps` writes
the TOML form back. Every bad value raises :class:`RulesError`, whose message
names the field, the value and what is allowed.

The kernel never sees a ``RuleSet``: :func:`spades_sim.kernel.packing.pack_rules`
turns one into a tuple of numbers and tables, once per run.
"""

from __future__ import annotations

import dataclasses
import enum
import os
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, fields
from importlib import resources
from pathlib import Path
from typing import Any

import tomli_w

from .inputs import loads_toml, read_text
from .names import name_fault
from .outputs import shown, write_text

SEAT_COUNT = 4
"""Seats at a partnership (or solo) table."""

HAND_SIZE = 13
"""Cards per seat with the standard deck and four seats."""

MAX_SEATS = 5
"""The most seats of any table mode (five-player)."""

MAX_POINTS = 10_000
"""Largest nil, blind-nil or bag-penalty value a rule set may give."""

MAX_TARGET = 1_000_000
"""Largest game target (and blind-nil threshold)."""


class RulesError(ValueError):
    """A rule set field with a value that is not allowed.

    The message reads ``field=value: allowed ...`` so that a user sees at once
    what to change.
    """

    def __init__(self, field_name: str, value: Any, allowed: str) -> None:
        self.field_name = field_name
        self.value = value
        self.allowed = allowed
        super().__init__(f"{field_name}={shown(repr(value))}: allowed {allowed}")


class UnknownKeyError(RulesError):
    """A key that is not a rule field, named without its value.

    A file given as rules may be any file (a log can name one): its values must not be
    echoed, as one of them may be a password or a token. The message reads
    ``unknown key 'NAME': allowed ...``.
    """

    def __init__(self, key: str, allowed: str) -> None:
        self.field_name = key
        self.value = None
        self.allowed = allowed
        ValueError.__init__(self, f"{unknown_key(key)}: allowed {allowed}")


def unknown_key(key: str, limit: int = 40) -> str:
    """``unknown key 'NAME'``, the name cut to ``limit`` characters, for a one-line message.

    >>> unknown_key("api_token"), unknown_key("k" * 50, limit=10)
    ("unknown key 'api_token'", "unknown key 'kkkkkkk...'")
    """
    return f"unknown key {key if len(key) <= limit else key[:limit - 3] + '...'!r}"


class Mode(enum.StrEnum):
    """Table mode (docs/rules.md "Table modes"); docs/scoring.md "Table modes" has the details."""

    PARTNERSHIP = "partnership"
    SOLO = "solo"
    TWO_PLAYER = "two-player"
    THREE_PLAYER = "three-player"
    FIVE_PLAYER = "five-player"


_MODE_SEATS = {Mode.PARTNERSHIP: 4, Mode.SOLO: 4, Mode.TWO_PLAYER: 2, Mode.THREE_PLAYER: 3,
               Mode.FIVE_PLAYER: 5}


class Deck(enum.StrEnum):
    """Deck and trump order (docs/rules.md "Decks and trump orders" lists each deck's cards)."""

    STANDARD = "standard"
    JOKERS = "jokers"
    JOKER_JOKER_DEUCE_DEUCE = "joker-joker-deuce-deuce"
    JOKER_JOKER_DEUCE_ACE = "joker-joker-deuce-ace"
    DEUCE_HIGH = "deuce-high"


class JokerDeuces(enum.StrEnum):
    """Which deuces the ``jokers`` deck removes: two for 2 and 4 players, all for 5, none for 3."""

    CLUBS_DIAMONDS = "clubs_diamonds"
    CLUBS_HEARTS = "clubs_hearts"
    ALL = "all"
    NONE = "none"


class TwoPlayerFirst(enum.StrEnum):
    """Who draws, bids and leads first in the two-player game."""

    NON_DEALER = "non_dealer"
    DEALER = "dealer"


class FirstBidder(enum.StrEnum):
    """Who bids first (docs/rules.md "Bidding"); bidding then goes clockwise."""

    DEALER_LEFT = "dealer_left"
    DEALER_RIGHT = "dealer_right"


class FirstLead(enum.StrEnum):
    """Who leads the first trick, and with what (docs/rules.md "Play")."""

    DEALER_LEFT_NO_SPADE = "dealer_left_no_spade"
    TWO_OF_CLUBS = "two_of_clubs"
    DEALER_RIGHT = "dealer_right"


class SpadesLead(enum.StrEnum):
    """When trumps may be led (docs/rules.md "Play")."""

    MUST_BREAK = "must_break"
    ANY_TIME = "any_time"
    NEVER_BROKEN = "never_broken"


class NilTricks(enum.StrEnum):
    """What a nil bidder's tricks do for the side (docs/rules.md "Scoring")."""

    BAGS_ONLY = "bags_only"
    COUNT_FOR_PARTNER = "count_for_partner"


class BothPartnersNil(enum.StrEnum):
    """Whether both partners may bid nil in one hand (docs/rules.md "Bidding")."""

    ALLOWED = "allowed"
    FORBIDDEN = "forbidden"


class ForcedMode(enum.StrEnum):
    """A forced-bid mode that replaces free bidding (docs/rules.md "Forced-bid modes")."""

    NONE = "none"
    SUICIDE = "suicide"
    MIRROR = "mirror"
    WHIZ = "whiz"


class BidThirteen(enum.StrEnum):
    """What a side's made contract of 13 does (docs/rules.md "Scoring")."""

    OFF = "off"
    WINS_GAME = "wins_game"
    SCORES_500 = "scores_500"
    SCORES_200 = "scores_200"


class BlindNil(enum.StrEnum):
    """When a player may bid blind nil (docs/rules.md "Blind nil")."""

    OFF = "off"
    ANYTIME = "anytime"
    AFTER_FIRST_HAND = "after_first_hand"
    WHEN_BEHIND = "when_behind"


class ZeroBid(enum.StrEnum):
    """What a bid of 0 is (docs/rules.md "The zero bid")."""

    NIL = "nil"
    ZERO = "zero"


class FailedContract(enum.StrEnum):
    """What a set (failed) contract scores (docs/rules.md "Scoring")."""

    MINUS_TEN_PER_BID = "minus_ten_per_bid"
    ZERO = "zero"


@dataclass(frozen=True)
class RuleSet:
    """One complete set of Spades rules; every field defaults to docs/rules.md's baseline.

    >>> RuleSet().target, RuleSet(nil_value=50).nil_value
    (500, 50)
    """

    name: str = "standard"
    """Short name, used in logs and reports."""

    description: str = (
        "Partnership Spades: nil ±100, blind nil ±200 when 100 behind, 10 bags −100, game to 500")
    """One line saying what the rule set is (the default describes the ``standard`` preset)."""

    mode: Mode = Mode.PARTNERSHIP
    """Table mode [partnership: partners sit opposite, seats 0+2 against 1+3]; solo,
    two-player, three-player and five-player score each seat on its own."""

    deck: Deck = Deck.STANDARD
    """Deck and trump order; standard: 52 cards, spades always trump, A high."""

    min_bid: int = 0
    """Lowest bid a player may make: 0 (nil allowed) or 1 (no nil)."""

    nil_value: int = 100
    """Points for a made nil, lost for a failed one [100]."""

    blind_nil: BlindNil = BlindNil.WHEN_BEHIND
    """When blind nil may be bid [when_behind]."""

    blind_nil_threshold: int = 100
    """With ``when_behind``: how far the bidder's side must trail, at least [100]."""

    blind_nil_value: int = 200
    """Points for a made blind nil, lost for a failed one [200]."""

    failed_contract: FailedContract = FailedContract.MINUS_TEN_PER_BID
    """A set contract scores −10 × contract [minus_ten_per_bid] or nothing (zero)."""

    overtrick_points: int = 1
    """Points per bag on a made contract: +1 [default], 0 or −1."""

    bag_limit: int = 10
    """Bags that trigger one penalty; the excess carries over [10]."""

    bag_penalty: int = 100
    """Points lost each time ``bag_limit`` bags are reached [100]; 0 = no penalty."""

    target: int = 500
    """Points that win the game [500]; both sides over: higher wins; a tie plays on."""

    joker_deuces: JokerDeuces = JokerDeuces.CLUBS_DIAMONDS
    """With ``deck = "jokers"``: the deuces removed: [clubs_diamonds] or clubs_hearts for 2 and 4
    players, all for five-player, none for three-player."""

    first_bidder: FirstBidder = FirstBidder.DEALER_LEFT
    """Who bids first [dealer_left]; bidding goes clockwise from there."""

    first_lead: FirstLead = FirstLead.DEALER_LEFT_NO_SPADE
    """Who leads the first trick [dealer_left_no_spade]; see docs/scoring.md."""

    spades_lead: SpadesLead = SpadesLead.MUST_BREAK
    """Trumps may be led once broken [must_break], any_time, or never_broken: only by a seat
    holding nothing else (trumps are never broken; OpenSpiel's ``spades``)."""

    nil_tricks: NilTricks = NilTricks.BAGS_ONLY
    """A nil bidder's tricks are bags only [bags_only] or count_for_partner's contract."""

    forced_mode: ForcedMode = ForcedMode.NONE
    """Forced bidding [none], suicide, mirror or whiz; see docs/scoring.md."""

    side_min_bid: int = 0
    """A side's bids must add up to at least this ("board"), 0 [none] to 4; see docs/scoring.md."""

    sum_of_bids_not_hand_size: bool = False
    """The last bidder may not make all the bids add up to the hand size [off]."""

    side_max_bid: int | None = None
    """A side's two bids may add up to at most this [None: off], from the hand size to twice it
    less one, e.g. 13 (OpenSpiel's ``spades``); see docs/scoring.md."""

    both_partners_nil: BothPartnersNil = BothPartnersNil.ALLOWED
    """Both partners may bid nil, each scored on its own [allowed], or forbidden."""

    ten_for_two_hundred: bool = False
    """A side's contract of 10 or more scores 200 when made and −200 when set [off]."""

    bid_thirteen: BidThirteen = BidThirteen.OFF
    """A side's made contract of 13: nothing special [off], wins_game, scores_500, scores_200."""

    elimination: int | None = None
    """A side at or below this score loses at once [None: off], e.g. −200."""

    hand_limit: int | None = None
    """After this many hands the higher score wins [None: off]; a tie plays another hand."""

    blind_nil_pass: int = 0
    """Cards exchanged between partners after a blind nil: [0], 1, 2 or 3 each way."""

    nil_pass: int = 0
    """Cards exchanged between a plain nil bidder and its partner after the bidding: [0], 1, 2,
    3 or 4 each way (partnership only; none when both partners bid nil)."""

    zero_bid: ZeroBid = ZeroBid.NIL
    """A bid of 0 is a nil [nil], or zero: a contract of 0 tricks with no nil bonus or penalty."""

    blind_nil_solo: bool = False
    """Allow blind nil in the individual modes (solo, two-, three-, five-player) [false]."""

    draw_second_card_seen: bool = True
    """Two-player draw: a player who keeps the first card looks at the second before
    discarding it [true], or discards it unseen."""

    two_player_first: TwoPlayerFirst = TwoPlayerFirst.NON_DEALER
    """Two-player: who draws, bids and leads first [non_dealer] or dealer."""

    blind_bid_threshold: int | None = None
    """Blind bids [None: off]: a seat whose side trails the other by at least this (0: whenever it
    is not ahead) may bid a number of tricks blind, before looking at its cards; partnership only."""

    blind_bid_min: int = 6
    """The lowest blind bid [6]; blind bids run from it to the hand size."""

    blind_bid_multiplier: int = 2
    """A side with a blind bid scores its contract this many times, made or set [2]."""

    sets_to_lose: int = 0
    """A side whose contract is set this many times in a game loses it [0: never]; two sides only."""

    def __post_init__(self) -> None:
        for spec in fields(self):
            value = getattr(self, spec.name)
            enum_type = _ENUM_FIELDS.get(spec.name)
            if enum_type is not None:
                object.__setattr__(self, spec.name, _coerce_enum(spec.name, value, enum_type))
            elif spec.type == "int":
                if isinstance(value, bool) or not isinstance(value, int):
                    raise RulesError(spec.name, value, "a whole number")
            elif spec.type == "str" and not isinstance(value, str):
                raise RulesError(spec.name, value, "a string")
            elif spec.type == "bool" and not isinstance(value, bool):
                raise RulesError(spec.name, value, "true or false")
            elif spec.type == "int | None" and value is not None and (
                    isinstance(value, bool) or not isinstance(value, int)):
                raise RulesError(spec.name, value, "a whole number, or leave it out for off")
        check_name("name", self.name)
        _check_choice("min_bid", self.min_bid, (0, 1))
        # Upper bounds keep every score of a long game inside the kernel's 32-bit records.
        _check_range("nil_value", self.nil_value, 1, MAX_POINTS)
        _check_range("blind_nil_value", self.blind_nil_value, 1, MAX_POINTS)
        _check_range("blind_nil_threshold", self.blind_nil_threshold, 0, MAX_TARGET)
        _check_choice("overtrick_points", self.overtrick_points, (-1, 0, 1))
        _check_range("bag_limit", self.bag_limit, 1, 100)
        _check_range("bag_penalty", self.bag_penalty, 0, MAX_POINTS, " (0 = no penalty)")
        _check_range("target", self.target, 1, MAX_TARGET)
        _check_range("side_min_bid", self.side_min_bid, 0, 4)
        self._check_side_max_bid()
        if self.elimination is not None:
            _check_range("elimination", self.elimination, -MAX_TARGET, self.target - 1,
                         " (below the target)")
        if self.hand_limit is not None:
            _check_range("hand_limit", self.hand_limit, 1, 10_000)
        if self.forced_mode != ForcedMode.NONE:
            _require_defaults((
                ("min_bid", self.min_bid, 0), ("blind_nil", self.blind_nil, BlindNil.OFF),
                ("nil_pass", self.nil_pass, 0),
                ("side_min_bid", self.side_min_bid, 0),
                ("sum_of_bids_not_hand_size", self.sum_of_bids_not_hand_size, False),
                ("both_partners_nil", self.both_partners_nil, BothPartnersNil.ALLOWED),
            ), f" with forced_mode={str(self.forced_mode)!r} (a forced mode sets every bid itself)")
        if self.min_bid == 1 and self.blind_nil != BlindNil.OFF:
            raise RulesError(
                "blind_nil", str(self.blind_nil), "'off' when min_bid=1 (no nil means no blind nil)"
            )
        _check_range("blind_nil_pass", self.blind_nil_pass, 0, 3)
        _check_range("nil_pass", self.nil_pass, 0, 4)
        self._check_zero_bid()
        self._check_blind_bids()
        _check_range("sets_to_lose", self.sets_to_lose, 0, 100, " (0 = never)")
        self._check_mode()

    def _check_zero_bid(self) -> None:
        """``nil_pass`` needs a plain nil; ``zero_bid = "zero"`` needs a bid of 0 that no
        other option makes a nil (docs/rules.md "The zero bid")."""
        if self.nil_pass and self.min_bid == 1:
            raise RulesError("nil_pass", self.nil_pass, "0 when min_bid=1 (no nil to pass to)")
        if self.zero_bid == ZeroBid.NIL:
            return
        if self.nil_pass:
            raise RulesError("nil_pass", self.nil_pass,
                             "0 with zero_bid='zero' (a bid of 0 is not a nil; no nil to pass to)")
        _require_defaults((
            ("min_bid", self.min_bid, 0),
            ("forced_mode", self.forced_mode, ForcedMode.NONE),
            ("both_partners_nil", self.both_partners_nil, BothPartnersNil.ALLOWED),
        ), " with zero_bid='zero' (a bid of 0 is a contract, not a nil)")

    def _check_blind_bids(self) -> None:
        """Blind bids (docs/rules.md "Blind bids"): a threshold turns them on; the minimum and
        the multiplier are read only then (as ``blind_nil_threshold`` only under ``when_behind``)."""
        _check_range("blind_bid_min", self.blind_bid_min, 1, self.hand_size, " (the hand size)")
        _check_range("blind_bid_multiplier", self.blind_bid_multiplier, 1, 10)
        if self.blind_bid_threshold is None:
            return
        _check_range("blind_bid_threshold", self.blind_bid_threshold, 0, MAX_TARGET,
                     " (0: whenever not ahead), or leave it out for off")
        if self.forced_mode != ForcedMode.NONE:
            raise RulesError("blind_bid_threshold", self.blind_bid_threshold,
                             f"left out (off) with forced_mode={str(self.forced_mode)!r} "
                             "(a forced mode sets every bid itself)")

    def _check_side_max_bid(self) -> None:
        """``side_max_bid``: a partnership option that leaves every seat a bid to make (docs/rules.md
        "Bidding constraints")."""
        if self.side_max_bid is None:
            return
        if self.mode != Mode.PARTNERSHIP:
            raise RulesError("side_max_bid", self.side_max_bid,
                             f"left out (off) with mode={str(self.mode)!r} (no partners)")
        _check_range("side_max_bid", self.side_max_bid, self.hand_size, 2 * self.hand_size - 1,
                     " (the hand size to twice it less one), or leave it out for off")
        # With a higher minimum, a forced bid or a forbidden sum, a seat could be left no bid.
        _require_defaults((
            ("min_bid", self.min_bid, 0),
            ("forced_mode", self.forced_mode, ForcedMode.NONE),
            ("sum_of_bids_not_hand_size", self.sum_of_bids_not_hand_size, False),
        ), f" with side_max_bid={self.side_max_bid}")

    def _check_mode(self) -> None:
        """Refuse options that the table mode cannot play (docs/scoring.md "Table modes")."""
        mode = str(self.mode)
        with_mode = f" with mode={mode!r}"
        decks = _MODE_DECKS[self.mode]
        if self.deck not in decks:
            raise RulesError("deck", str(self.deck), _either(decks) + with_mode)
        if self.deck == Deck.JOKERS:
            removals = _MODE_JOKER_DEUCES[self.mode]
            if self.joker_deuces not in removals:
                raise RulesError("joker_deuces", str(self.joker_deuces),
                                 f"{_either(removals)} with deck='jokers' and mode={mode!r}"
                                 f" ({self.seat_count} players)")
        if self.blind_nil_pass and self.blind_nil == BlindNil.OFF:
            raise RulesError("blind_nil_pass", self.blind_nil_pass, "0 when blind_nil='off'")
        if self.bid_thirteen != BidThirteen.OFF and self.hand_size != HAND_SIZE:
            raise RulesError("bid_thirteen", str(self.bid_thirteen),
                             f"'off'{with_mode} ({self.hand_size} tricks a hand)")
        if self.mode != Mode.TWO_PLAYER:
            _require_defaults((
                ("draw_second_card_seen", self.draw_second_card_seen, True),
                ("two_player_first", self.two_player_first, TwoPlayerFirst.NON_DEALER),
            ), f"{with_mode} (a two-player option)")
        else:
            _require_defaults((
                ("first_bidder", self.first_bidder, FirstBidder.DEALER_LEFT),
                ("first_lead", self.first_lead, FirstLead.DEALER_LEFT_NO_SPADE),
            ), f"{with_mode} (two_player_first chooses who bids and leads first)")
        if self.sets_to_lose and self.side_count != 2:
            raise RulesError("sets_to_lose", self.sets_to_lose,
                             f"0{with_mode} (a set loses the game to the one other side: "
                             "partnership and two-player only)")
        if self.mode == Mode.PARTNERSHIP:
            if self.blind_nil_solo:
                raise RulesError("blind_nil_solo", True,
                                 "false with mode='partnership' (an individual-mode option)")
            return
        if self.blind_bid_threshold is not None:
            raise RulesError("blind_bid_threshold", self.blind_bid_threshold,
                             f"left out (off){with_mode} (a blind bid is a side's, with partners)")
        _require_defaults((
            ("side_min_bid", self.side_min_bid, 0),
            ("nil_tricks", self.nil_tricks, NilTricks.BAGS_ONLY),
            ("both_partners_nil", self.both_partners_nil, BothPartnersNil.ALLOWED),
            ("blind_nil_pass", self.blind_nil_pass, 0),
            ("nil_pass", self.nil_pass, 0),
        ), f"{with_mode} (no partners)")
        if self.forced_mode == ForcedMode.SUICIDE:
            raise RulesError("forced_mode", "suicide",
                             f"'none', 'mirror' or 'whiz'{with_mode} (suicide needs partners)")
        if self.blind_nil != BlindNil.OFF and not self.blind_nil_solo:
            raise RulesError("blind_nil", str(self.blind_nil),
                             f"'off'{with_mode} unless blind_nil_solo=true")

    @property
    def seat_count(self) -> int:
        """Number of seats at the table.

        >>> RuleSet(mode="three-player", blind_nil="off").seat_count
        3
        """
        return _MODE_SEATS[self.mode]

    @property
    def partnership(self) -> bool:
        """Whether partners score together (else every seat is its own side)."""
        return self.mode == Mode.PARTNERSHIP

    @property
    def deck_size(self) -> int:
        """Cards in the deck after the removals of ``deck`` and the mode (52 in the two-player
        draw, of which 26 are kept).

        >>> alone = RuleSet(blind_nil="off")
        >>> alone.replace(mode="three-player").deck_size, alone.replace(
        ...     mode="five-player", deck="jokers", joker_deuces="all").deck_size
        (51, 50)
        """
        if self.deck == Deck.JOKERS:
            return 54 - _JOKER_REMOVALS[self.joker_deuces]
        return 51 if self.mode == Mode.THREE_PLAYER else 52

    @property
    def hand_size(self) -> int:
        """Cards each seat holds when play starts, and tricks in a hand.

        >>> [RuleSet(mode=m, blind_nil="off").hand_size
        ...  for m in ("partnership", "two-player", "three-player")]
        [13, 13, 17]
        """
        if self.mode == Mode.TWO_PLAYER:
            return HAND_SIZE
        return self.deck_size // self.seat_count

    @property
    def side_count(self) -> int:
        """Number of scoring sides: 2 in partnership, else one per seat."""
        return 2 if self.partnership else self.seat_count

    def seat_side(self, seat_index: int) -> int:
        """Return the side of a seat: partners sit opposite; alone, a seat is its own side.

        >>> [RuleSet().seat_side(s) for s in range(4)]
        [0, 1, 0, 1]
        >>> RuleSet(mode="solo", blind_nil="off").seat_side(3)
        3
        """
        return seat_index % self.side_count

    def replace(self, **changes: Any) -> RuleSet:
        """Return a copy with some fields changed (and validated).

        Unknown field names raise :class:`UnknownKeyError` (a :class:`RulesError`).
        """
        known = {spec.name for spec in fields(self)}
        for key in changes:
            if key not in known:
                raise UnknownKeyError(key, "a RuleSet field: " + ", ".join(sorted(known)))
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """Return the rule set as plain TOML-ready values (optional fields left out when off)."""
        return {spec.name: _plain(getattr(self, spec.name)) for spec in fields(self)
                if getattr(self, spec.name) is not None}


_ENUM_FIELDS: dict[str, type[enum.StrEnum]] = {
    "mode": Mode,
    "deck": Deck,
    "blind_nil": BlindNil,
    "failed_contract": FailedContract,
    "joker_deuces": JokerDeuces,
    "first_bidder": FirstBidder,
    "first_lead": FirstLead,
    "spades_lead": SpadesLead,
    "nil_tricks": NilTricks,
    "both_partners_nil": BothPartnersNil,
    "bid_thirteen": BidThirteen,
    "forced_mode": ForcedMode,
    "zero_bid": ZeroBid,
    "two_player_first": TwoPlayerFirst,
}

_ALL_DECKS = tuple(Deck)
_MODE_DECKS: dict[Mode, tuple[Deck, ...]] = {
    Mode.PARTNERSHIP: _ALL_DECKS, Mode.SOLO: _ALL_DECKS, Mode.TWO_PLAYER: _ALL_DECKS,
    # Three players: 2♣ out (51 cards) or jokers in (54); five: jokers in, all deuces out (50).
    Mode.THREE_PLAYER: (Deck.STANDARD, Deck.JOKERS, Deck.DEUCE_HIGH),
    Mode.FIVE_PLAYER: (Deck.JOKERS,),
}
"""The decks each table mode can deal evenly (docs/scoring.md "Table modes")."""

_TWO_DEUCES = (JokerDeuces.CLUBS_DIAMONDS, JokerDeuces.CLUBS_HEARTS)
_MODE_JOKER_DEUCES: dict[Mode, tuple[JokerDeuces, ...]] = {
    Mode.PARTNERSHIP: _TWO_DEUCES, Mode.SOLO: _TWO_DEUCES, Mode.TWO_PLAYER: _TWO_DEUCES,
    Mode.THREE_PLAYER: (JokerDeuces.NONE,), Mode.FIVE_PLAYER: (JokerDeuces.ALL,),
}
"""The deuces the jokers deck removes at each table size (``joker_deuces`` in docs/rules.md)."""

_JOKER_REMOVALS = {JokerDeuces.CLUBS_DIAMONDS: 2, JokerDeuces.CLUBS_HEARTS: 2,
                   JokerDeuces.ALL: 4, JokerDeuces.NONE: 0}


def _plain(value: Any) -> Any:
    return str(value) if isinstance(value, enum.Enum) else value


def check_name(field_name: str, value: str) -> str:
    """Refuse a name that cannot head a table (:func:`spades_sim.names.name_fault`) as a
    :class:`RulesError`: a rule set's ``name``, a variant's label; returns it."""
    allowed = name_fault(value)
    if allowed is not None:
        raise RulesError(field_name, value, allowed)
    return value


def overrides_of(texts: Sequence[str], field_name: str = "rule") -> dict[str, Any]:
    """``FIELD=VALUE`` texts (:func:`parse_override`) as one mapping; a field given twice is
    refused rather than the last one silently kept."""
    overrides: dict[str, Any] = {}
    for text in texts:
        key, value = parse_override(text)
        if key in overrides:
            raise RulesError(field_name, text, f"each field once ({key!r} is given twice)")
        overrides[key] = value
    return overrides


def _require_defaults(checks: tuple[tuple[str, Any, Any], ...], reason: str) -> None:
    """Refuse the first (field, value, default) whose value is not the default.

    The message allows only the default, followed by ``reason``.
    """
    for name, value, default in checks:
        if value != default:
            raise RulesError(name, _plain(value), f"{_plain(default)!r}{reason}")


def _either(choices: tuple[enum.StrEnum, ...]) -> str:
    return " or ".join(repr(str(choice)) for choice in choices)


def _coerce_enum(name: str, value: Any, enum_type: type[enum.StrEnum]) -> enum.StrEnum:
    try:
        return enum_type(value)
    except ValueError:
        allowed = ", ".join(member.value for member in enum_type)
        raise RulesError(name, value, allowed) from None


def _check_choice(name: str, value: int, allowed: tuple[int, ...]) -> None:
    if value not in allowed:
        *first, last = (str(a) for a in allowed)
        raise RulesError(name, value, ", ".join(first) + " or " + last)


def _check_range(name: str, value: int, low: int, high: int, note: str = "") -> None:
    if not low <= value <= high:
        raise RulesError(name, value, f"{low} to {high}{note}")


def from_dict(raw_rules: dict[str, Any], *, base: RuleSet | None = None) -> RuleSet:
    """Build a :class:`RuleSet` from a mapping, starting from ``base`` (defaults if None).

    >>> from_dict({"target": 300}).target
    300
    """
    # A file written before a field was renamed still loads (both names at once: refused).
    renamed = {(RENAMED[key] if key in RENAMED and RENAMED[key] not in raw_rules else key): value
               for key, value in raw_rules.items()}
    return (base or RuleSet()).replace(**renamed)


RENAMED = {"team_min_bid": "side_min_bid"}
"""Old names of rule fields that files may still use: old name → field."""


def loads(text: str, *, source: str = "<string>") -> RuleSet:
    """Parse a rule set from TOML text; unknown fields and bad values raise :class:`RulesError`."""
    try:
        raw = loads_toml(text, lambda allowed: RulesError("rules", source, allowed))
    except tomllib.TOMLDecodeError as error:
        raise RulesError("file", source, f"valid TOML ({error})") from None
    if not raw:
        raise RulesError("rules", source, "a rules file that sets at least one field (this one "
                         "sets none; spades-sim rules show standard prints a complete one)")
    return from_dict(raw)


def dumps(rules: RuleSet) -> str:
    """Return the TOML text of a rule set; ``loads(dumps(r)) == r``.

    >>> loads(dumps(RuleSet(target=300))) == RuleSet(target=300)
    True
    """
    text: str = tomli_w.dumps(rules.to_dict())  # tomli_w ships no type hints
    return text


def load_rules(path: str | Path) -> RuleSet:
    """Read a rule set from a TOML file: a regular file of at most
    :data:`~spades_sim.inputs.MAX_TEXT_BYTES` (:func:`spades_sim.inputs.read_text`)."""
    if "\x00" in str(path):  # the system cannot even look such a name up
        raise RulesError("rules", str(path), "a path without NUL characters")
    path = Path(path)
    try:
        text = read_text(path, lambda allowed: RulesError("rules", str(path), allowed))
    except OSError as error:
        raise RulesError("rules", str(path), f"a readable TOML file ({error.strerror})") from None
    except UnicodeDecodeError:
        raise RulesError("rules", str(path), "a UTF-8 TOML file") from None
    if text.startswith("\ufeff"):
        raise RulesError("rules", str(path), "a UTF-8 TOML file without a byte-order mark")
    return loads(text, source=str(path))


def save_rules(rules: RuleSet, path: str | Path, field: str = "rules") -> None:
    """Write a rule set to a TOML file, whole or not at all (an error names ``field``)."""
    write_text(path, dumps(rules), field)


def preset_names() -> list[str]:
    """Names of the shipped presets, sorted."""
    folder = resources.files("spades_sim.presets")
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".toml"))


RULES_FILE_FORMS = "a rules file given as ./NAME or NAME.toml"
"""How a value must be written to name a file rather than a preset (see :func:`is_rules_path`)."""


def load_preset(name: str) -> RuleSet:
    """Return the shipped preset called ``name`` (see :func:`preset_names`).

    A preset file lists only what differs from ``standard``, whose values are the defaults of
    :class:`RuleSet`: it is read, as any rules file is, on top of those defaults, so a new rule
    option needs its default in :class:`RuleSet` alone.
    """
    names = preset_names()
    if name not in names:
        raise RulesError("rules", name, f"a preset ({', '.join(names)}) or {RULES_FILE_FORMS}")
    text = (resources.files("spades_sim.presets") / f"{name}.toml").read_text(encoding="utf-8")
    return loads(text, source=f"preset {name}")


_SEPARATORS: tuple[str, ...] = tuple({"/", os.sep} | ({os.altsep} if os.altsep else set()))


def is_rules_path(text: str) -> bool:
    """Whether a rules value names a file: it contains a path separator or ends in ``.toml``.

    Anything else is a bare word, which only ever means a preset.

    >>> is_rules_path("standard"), is_rules_path("./standard"), is_rules_path("house.toml")
    (False, True, True)
    """
    return text.endswith(".toml") or any(sep in text for sep in _SEPARATORS)


def resolve_rules(raw_rules: str | RuleSet, overrides: dict[str, Any] | None = None, *,
                  typed: bool = True) -> RuleSet:
    """Turn a preset name, a rules file's path or a RuleSet into a RuleSet, then apply overrides.

    The rule for a string (the same on the command line, in a study and in the library):

    - it is a *path* when it contains a path separator (``/``, or the system's own) or ends
      in ``.toml``, as ``./standard``, ``rules/house`` or ``house.toml``; the file is read
      relative to the working folder, whatever its name ends in;
    - else it is a *bare word*, and a bare word is a preset name: one that is not a
      preset is refused, listing the presets. A file is never looked for under a bare
      word, so a file called ``standard`` cannot stand in for the preset;
    - a bare word that is a preset's name *and* the name of a file in the working
      folder is refused as ambiguous (the user may have meant either); ``./NAME``
      reads the file.

    With ``typed=False`` the word was not typed by the user but written by the program (the
    default study's presets): it is the preset, whatever files the working folder holds, as
    the user named no file.

    A hand log's own ``rules`` field is read by :func:`spades_sim.referee.handlog.log_rules`,
    relative to the log's folder.
    """
    if isinstance(raw_rules, RuleSet):
        rules = raw_rules
    elif is_rules_path(raw_rules):
        rules = load_rules(raw_rules)
    else:
        if typed and raw_rules in preset_names() and Path(raw_rules).is_file():
            raise RulesError("rules", raw_rules, f"'./{raw_rules}' for the file in the working "
                             "folder; the preset only where no file has this name (it names both)")
        rules = load_preset(raw_rules)
    return rules.replace(**overrides) if overrides else rules


def parse_override(raw_override: str) -> tuple[str, Any]:
    """Parse a ``field=value`` override; the value is read as a TOML value, else as a string.

    >>> parse_override("nil_value=50"), parse_override("blind_nil=off")
    (('nil_value', 50), ('blind_nil', 'off'))
    """
    key, sep, text = raw_override.partition("=")
    if (not sep or not key or not text or not raw_override.isprintable()
            or key != key.strip() or text != text.strip()):
        # A line break would end the TOML value and start another one, silently dropped; a
        # space around the field or the value (``target= 300``) is a value typed wrongly.
        raise RulesError("rule", raw_override, "FIELD=VALUE on one line with no space around "
                         "the = sign, for example nil_value=50")
    try:
        value = loads_toml(f"v = {text}",
                           lambda allowed: RulesError("rule", raw_override, allowed))["v"]
    except tomllib.TOMLDecodeError:
        value = text
    return key, value

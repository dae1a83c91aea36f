"""The referee's decks (docs/scoring.md "Decks"): which cards are in play and which are trumps.

A :class:`DeckSpec` says, per card, the suit it counts as for following, leading
and breaking (jokers and promoted deuces are "spades") and its strength in that
suit. :func:`deck_of` gives a rule set's deck: its cards (50-54) and its trumps,
high to low. Plain Python, with no numpy: this is part of the test oracle.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

from spades_sim import cards
from spades_sim.rules import HAND_SIZE, SEAT_COUNT, Deck, JokerDeuces, Mode, RuleSet

TRUMP_SUIT = cards.SPADES
"""Spades are always trump (docs/rules.md baseline); jokers and promoted deuces join them."""

DECK_SIZE = SEAT_COUNT * HAND_SIZE
"""Cards of every four-seat (and two-player) deck: 52. Three players play 51 or 54, five 50."""


@dataclass(frozen=True)
class DeckSpec:
    """One deck of docs/scoring.md "Decks": the cards in play and the trumps, high to low.

    Every card that is not a trump belongs to its printed suit and ranks by its
    printed rank (A high); a trump ranks by its place in :attr:`trumps`.

    >>> deck = deck_of(RuleSet(deck="joker-joker-deuce-deuce"))
    >>> cards.format_cards(deck.trumps[:5]), len(deck.trumps), deck.suit_of(cards.parse_card("2D"))
    ('BJ LJ 2D 2S AS', 16, 3)
    """

    name: str
    """The ``deck`` value."""
    cards: frozenset[int]
    """The card ids in play (52; 51 or 54 with three players, 50 with five)."""
    trumps: tuple[int, ...]
    """The trumps ("spades"), highest first."""
    note: str
    """What sets the deck apart from 52 plain cards, for messages."""

    def __post_init__(self) -> None:
        assert set(self.trumps) <= self.cards, self.name

    @functools.cached_property
    def _trump_power(self) -> dict[int, int]:
        return {card: len(self.trumps) - place for place, card in enumerate(self.trumps)}

    def is_trump(self, card: int) -> bool:
        """Whether a card is a trump ("spade") in this deck."""
        return card in self._trump_power

    @functools.cached_property
    def _suits(self) -> tuple[int, ...]:
        """Per card id: the suit it counts as (a table: the referee asks millions of times)."""
        return tuple(TRUMP_SUIT if card in self._trump_power else cards.card_suit(card)
                     for card in range(cards.CARD_COUNT))

    def suit_of(self, card: int) -> int:
        """The suit a card counts as for following, leading and breaking: trumps are spades."""
        return self._suits[card]

    def rank_of(self, card: int) -> int:
        """A card's strength within the suit it counts as (higher wins)."""
        power = self._trump_power.get(card)
        return cards.card_rank(card) if power is None else power

    @functools.cached_property
    def _ranks(self) -> tuple[int, ...]:
        """Per card id: :meth:`rank_of`, as a table (asked for every card of every trick)."""
        return tuple(self.rank_of(card) for card in range(cards.CARD_COUNT))

    def trick_winner_position(self, trick_cards: Sequence[int]) -> int:
        """The position (0 = leader) of the card that wins a trick of this deck: the highest
        trump, else the highest card of the suit led; the first such card if two were equal."""
        suits, ranks = self._suits, self._ranks
        led_suit = suits[trick_cards[0]]
        best_position = 0
        best = (led_suit == TRUMP_SUIT, True, ranks[trick_cards[0]])
        for position in range(1, len(trick_cards)):
            card = trick_cards[position]
            suit = suits[card]
            power = (suit == TRUMP_SUIT, suit == led_suit, ranks[card])
            if power > best:
                best_position, best = position, power
        return best_position

    def suit_cards(self, suit: int) -> tuple[int, ...]:
        """The deck's cards that count as ``suit``, lowest first."""
        return tuple(sorted((c for c in self.cards if self.suit_of(c) == suit), key=self.rank_of))

    @property
    def lowest_club(self) -> int:
        """The lowest club of the deck: 2C, or 3C where 2C is removed (``first_lead = "two_of_clubs"``)."""
        return self.suit_cards(cards.CLUBS)[0]


def _deck(name: str, removed: str, trumps: str) -> DeckSpec:
    removed_ids = cards.parse_cards(removed)
    trump_ids = cards.parse_cards(trumps)
    jokers = {c for c in trump_ids if c >= 52}
    in_play = (set(range(52)) - set(removed_ids)) | jokers
    removed_names = cards.format_cards(removed_ids).split()
    size = f"{_and_list(removed_names)} removed" if removed_names else f"{len(in_play)} cards"
    note = f"{size}, BJ and LJ added" if jokers else f"{size}, no jokers"
    return DeckSpec(name, frozenset(in_play), trump_ids, note)


def _and_list(names: Sequence[str]) -> str:
    """``2C``, ``2C and 2D``, ``2C, 2D, 2H and 2S``."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


_SPADES_A_TO_3 = "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S"

_JOKER_DEUCES_REMOVED = {
    JokerDeuces.CLUBS_DIAMONDS: "2C 2D",
    JokerDeuces.CLUBS_HEARTS: "2C 2H",
    JokerDeuces.ALL: "2C 2D 2H 2S",  # five players: 50 cards
    JokerDeuces.NONE: "",  # three players: 54 cards
}
"""The deuces the ``jokers`` deck removes (``joker_deuces`` in docs/rules.md)."""


@functools.cache
def _deck_table(deck: Deck, joker_deuces: JokerDeuces, three_player: bool) -> DeckSpec:
    # Three players without jokers play 51 cards: 2C is removed (docs/rules.md "Table modes").
    short = "2C" if three_player else ""
    match deck:
        case Deck.STANDARD:
            return _deck(deck.value, short, _SPADES_A_TO_3 + " 2S")
        case Deck.JOKERS:
            removed = _JOKER_DEUCES_REMOVED[joker_deuces]
            lowest_trump = "" if "2S" in removed else " 2S"
            return _deck(deck.value, removed, "BJ LJ " + _SPADES_A_TO_3 + lowest_trump)
        case Deck.JOKER_JOKER_DEUCE_DEUCE:
            return _deck(deck.value, "2H 2C", "BJ LJ 2D 2S " + _SPADES_A_TO_3)
        case Deck.JOKER_JOKER_DEUCE_ACE:
            return _deck(deck.value, "2H 2D", "BJ LJ 2S " + _SPADES_A_TO_3)
        case Deck.DEUCE_HIGH:
            return _deck(deck.value, short, "2S " + _SPADES_A_TO_3)
    raise AssertionError(f"unhandled deck {deck!r}")


def deck_of(rules: RuleSet) -> DeckSpec:
    """Return the deck a rule set plays (``deck``, ``joker_deuces`` for the jokers deck, and the
    mode: three players without jokers remove 2C).

    >>> [len(deck_of(RuleSet(deck=d)).trumps) for d in Deck]
    [13, 15, 16, 15, 13]
    >>> deck_of(RuleSet(deck="jokers")).note
    '2C and 2D removed, BJ and LJ added'
    >>> five = deck_of(RuleSet(mode="five-player", deck="jokers", joker_deuces="all", blind_nil="off"))
    >>> len(five.cards), len(five.trumps), five.note
    (50, 14, '2C, 2D, 2H and 2S removed, BJ and LJ added')
    """
    return _deck_table(rules.deck, rules.joker_deuces, rules.mode == Mode.THREE_PLAYER)


STANDARD_DECK = _deck_table(Deck.STANDARD, JokerDeuces.CLUBS_DIAMONDS, False)
"""The 52-card deck with the 13 spades as trumps."""

"""Card ids, parsing and formatting.

A card id is ``suit * 13 + rank`` for the 52 standard cards, with suits
0 = clubs, 1 = diamonds, 2 = hearts, 3 = spades and ranks 0 = '2' … 12 = 'A'.
The jokers are 52 (little joker, ``LJ``) and 53 (big joker, ``BJ``).
A set of cards is a Python ``int`` (or ``uint64``) bitmask with bit ``id`` set.

Cards are written rank first, then suit: ``AS``, ``10H`` (``TH`` is accepted
too), ``2C``, ``BJ``, ``LJ``. Parsing is case-insensitive and accepts
separators of spaces and commas.
"""

from __future__ import annotations

from collections.abc import Iterable

SUIT_LETTERS = "CDHS"
"""Suit letters in suit-id order: clubs, diamonds, hearts, spades."""

SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
"""Suit names in suit-id order."""

SUIT_SYMBOLS = "♣♦♥♠"
"""Suit symbols in suit-id order, for figures."""

RANK_NAMES = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
"""Rank names in rank-id order, 2 low … A high."""

CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3
LITTLE_JOKER = 52
BIG_JOKER = 53
CARD_COUNT = 54
"""Number of card ids (52 standard cards and two jokers)."""

_JOKER_NAMES = {LITTLE_JOKER: "LJ", BIG_JOKER: "BJ"}


class CardError(ValueError):
    """A card or hand string that cannot be parsed."""


def card_id(suit: int, rank: int) -> int:
    """Return the id of the standard card of ``suit`` and ``rank``.

    >>> card_id(SPADES, 12)
    51
    """
    return suit * 13 + rank


def card_suit(card: int) -> int:
    """Return the printed suit of a standard card (jokers have none: -1).

    >>> card_suit(51), card_suit(BIG_JOKER)
    (3, -1)
    """
    return card // 13 if card < 52 else -1


def card_rank(card: int) -> int:
    """Return the printed rank id of a standard card (jokers: -1).

    >>> card_rank(card_id(HEARTS, 8))
    8
    """
    return card % 13 if card < 52 else -1


def format_card(card: int) -> str:
    """Return the short name of a card id.

    >>> format_card(51), format_card(8), format_card(52)
    ('AS', '10C', 'LJ')
    """
    if card in _JOKER_NAMES:
        return _JOKER_NAMES[card]
    if not 0 <= card < 52:
        raise CardError(f"card id {card!r}: allowed 0-53")
    return RANK_NAMES[card % 13] + SUIT_LETTERS[card // 13]


def card_symbol(card: int) -> str:
    """Return a card's name with its suit as a symbol, as figures write it (jokers: LJ, BJ).

    >>> card_symbol(51), card_symbol(27), card_symbol(53)
    ('A♠', '3♥', 'BJ')
    """
    name = format_card(card)
    return name if card in _JOKER_NAMES else name[:-1] + SUIT_SYMBOLS[card // 13]


_CARDS_BY_NAME = {
    **{rank + suit: suit_index * 13 + rank_index
       for suit_index, suit in enumerate(SUIT_LETTERS)
       for rank_index, rank in enumerate(RANK_NAMES)},
    **{"T" + suit: suit_index * 13 + RANK_NAMES.index("10")
       for suit_index, suit in enumerate(SUIT_LETTERS)},
    **{name: card for card, name in _JOKER_NAMES.items()},
}
"""Every card name parse_card takes (upper case), with its id."""


def parse_card(raw_card: str) -> int:
    """Parse one card name such as ``AS``, ``10h``, ``TH`` or ``BJ``.

    >>> parse_card("AS"), parse_card("10h"), parse_card("th"), parse_card("bj")
    (51, 34, 34, 53)
    """
    card = _CARDS_BY_NAME.get(raw_card.strip().upper())  # the referee reads millions of them
    if card is not None:
        return card
    raise CardError(
        f"card {raw_card!r}: allowed a rank 2-10, J, Q, K, A (or T) followed by a suit "
        "C, D, H, S, or BJ / LJ for the jokers"
    )


def parse_cards(raw_cards: str | Iterable[str], *, unique: bool = True) -> tuple[int, ...]:
    """Parse a list of cards from a string (``"AS, 10H BJ"``) or an iterable of names.

    Duplicates raise :class:`CardError` unless ``unique`` is false.

    >>> parse_cards("AS, 10H BJ")
    (51, 34, 53)
    """
    names = raw_cards.replace(",", " ").split() if isinstance(raw_cards, str) else list(raw_cards)
    cards = tuple(parse_card(name) for name in names)
    if unique and len(set(cards)) != len(cards):
        seen: set[int] = set()
        for card in cards:
            if card in seen:
                raise CardError(f"card {format_card(card)!r} appears twice: each card may appear once")
            seen.add(card)
    return cards


def format_cards(cards: Iterable[int]) -> str:
    """Format card ids as a space-separated string, in the given order.

    >>> format_cards([51, 34, 53])
    'AS 10H BJ'
    """
    return " ".join(format_card(card) for card in cards)


def mask_of(cards: Iterable[int]) -> int:
    """Return the bitmask of a collection of card ids.

    >>> mask_of([0, 2])
    5
    """
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def cards_of(mask: int) -> tuple[int, ...]:
    """Return the card ids in a bitmask, lowest id first.

    >>> cards_of(5)
    (0, 2)
    """
    mask = int(mask)
    return tuple(card for card in range(CARD_COUNT) if mask >> card & 1)


def sort_hand(cards: Iterable[int]) -> list[int]:
    """Sort cards for display: spades first, then hearts, clubs, diamonds; high rank first.

    >>> format_cards(sort_hand(parse_cards("2C AS 3H BJ")))
    'BJ AS 3H 2C'
    """
    suit_order = {SPADES: 0, HEARTS: 1, CLUBS: 2, DIAMONDS: 3, -1: -1}
    return sorted(cards, key=lambda c: (suit_order[card_suit(c)], -c))

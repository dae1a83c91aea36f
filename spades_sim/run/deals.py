"""Constrained deals, in the style of the bridge deal generators: predeal, constrain, accept.

A :class:`Dealer` fixes some cards in some seats (``predeal``), then completes
the deal at random: the cards left are shuffled and fill the seats' empty
places, so every completion is equally likely. Completions that break a
constraint — a :class:`SuitCount` such as "seat 1 holds 0–2 spades", or any
``accept`` function — are thrown away and drawn again, which keeps the
accepted deals uniform over the deals that satisfy everything.

>>> from spades_sim.run.deals import Dealer, SuitCount
>>> dealer = Dealer("standard", {0: "AS KS QS JS 2H 3H 4H 5H 6H 7H 8H 9H 10H"},
...                 [SuitCount(seat=1, suit="spades", low=0, high=2)])
>>> deals = dealer.deal(1000, seed=1)
>>> deals.shape
(1000, 4)
>>> bool((dealer.suit_counts(deals, "spades")[:, 1] <= 2).all())
True

Deals are counter-based: deal ``i`` of seed ``s`` is a pure function of ``(s, i)``. They are
dealt in *deal blocks* of :data:`DEAL_BLOCK`: block ``b`` draws its completions from its own
Philox stream, keyed by the seed with the block number as its counter, and keeps the first
:data:`DEAL_BLOCK` that meet every constraint; deal ``i`` is deal ``i % DEAL_BLOCK`` of block
``i // DEAL_BLOCK``. So the deals do not depend on how many are asked for at once, on the
threads, or on the blocks a what-if plays them in, and :func:`deal_block_seed` keys whatever
is played from a deal block's deals the same way.

Constraints that no deal can meet are refused at once; constraints so rare that
fewer than one trial deal in :data:`MIN_ACCEPT_RATE` meets them are refused after a
trial of :data:`TRIAL_DEALS` deals, instead of running for ever. Deals come back as
an array of card masks over the kernel's slots (see :mod:`spades_sim.kernel.packing`);
:meth:`Dealer.hands` turns one into card ids.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from ..cards import SUIT_NAMES, CardError, format_card, parse_cards
from ..kernel.packing import PackedRules, pack_rules
from ..numbers import whole_number
from ..outputs import shown
from ..rules import RuleSet, resolve_rules

TRIAL_DEALS = 20_000
"""Deals drawn to measure how often the constraints are met before a long run."""
MIN_ACCEPT_RATE = 1e-4
"""Constraints met less often than this are refused as too rare."""
BATCH = 4096
"""Completions drawn at a time once a deal block's first draw fell short."""
DEAL_BLOCK = 256
"""Deals dealt from one counter of the seed's stream (see the module's notes)."""
_DEAL_STREAM, _PLAY_STREAM = 1, 2
"""The high words of the Philox keys: the deals, and the seeds of what is played from them."""


class DealError(ValueError):
    """Cards or constraints that no deal can satisfy, or that are too rare to sample."""


@dataclass(frozen=True)
class SuitCount:
    """Seat ``seat`` holds from ``low`` to ``high`` cards of ``suit`` (its effective suit: the
    spades are every trump, jokers and promoted deuces included)."""

    seat: int
    suit: str
    low: int
    high: int

    def __str__(self) -> str:
        return f"{self.seat}:{self.suit}={self.low}-{self.high}"


MAX_DEALS = 1_000_000
"""The most deals one call deals (each is kept in memory, with every candidate bid's result)."""


def parse_suit_count(text: str) -> SuitCount:
    """``SEAT:SUIT=LOW-HIGH`` or ``SEAT:SUIT=N``, e.g. ``1:spades=0-2``.

    >>> parse_suit_count("1:spades=0-2")
    SuitCount(seat=1, suit='spades', low=0, high=2)
    """
    seat, _, rest = text.partition(":")
    suit, _, counts = rest.partition("=")
    low, _, high = counts.partition("-")
    try:
        result = SuitCount(whole_number(seat), suit.strip().lower(), whole_number(low),
                           whole_number(high or low))
    except ValueError:
        raise DealError(f"constraint={shown(text)!r}: allowed SEAT:SUIT=LOW-HIGH, e.g. "
                        "1:spades=0-2") from None
    if result.suit not in SUIT_NAMES:
        raise DealError(f"constraint={shown(text)!r}: allowed a suit of " + ", ".join(SUIT_NAMES))
    return result


def check_deal_count(n: int) -> None:
    """Refuse a number of deals below 1 or above :data:`MAX_DEALS`."""
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_DEALS:
        raise DealError(f"deals={n!r}: allowed 1 to {MAX_DEALS:,}")


def _stream(seed: int, stream: int, block: int) -> np.random.Generator:
    """The Philox generator of deal block ``block`` of ``seed``: keyed by the seed (and which
    stream), counting from the block number (in the counter's third word, so no block's draws
    reach the next one's)."""
    return np.random.Generator(np.random.Philox(key=seed | stream << 64, counter=block << 128))


def deal_block_seed(seed: int, block: int) -> int:
    """A seed (0 … 2**63 - 1) for what is played from the deals of deal block ``block`` of
    ``seed``: a pure function of the two, as the deals are."""
    return int(_stream(seed, _PLAY_STREAM, block).bit_generator.random_raw()) >> 1


def popcount(masks: np.ndarray) -> np.ndarray:
    """Set bits of each uint64 (numpy ≥ 1.26 has no ``bitwise_count``)."""
    x = masks.astype(np.uint64)
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return ((x * np.uint64(0x0101010101010101)) >> np.uint64(56)).astype(np.int64)


class Dealer:
    """Uniform random deals of ``rules`` with ``predeal`` fixed and every constraint met.

    ``predeal`` maps seats to cards (a string such as ``"AS 7S 3H"`` or card ids);
    ``constraints`` are :class:`SuitCount` s; ``accept`` is any test of a deal, given
    the cards of every seat as tuples of card ids.
    """

    def __init__(self, rules: str | RuleSet, predeal: Mapping[int, str | Iterable[int]] | None = None,
                 constraints: Sequence[SuitCount] = (),
                 accept: Callable[[tuple[tuple[int, ...], ...]], bool] | None = None) -> None:
        self.rules = resolve_rules(rules)
        self.packed: PackedRules = pack_rules(self.rules)
        packed = self.packed
        if packed.draw_deal:
            raise DealError(f"rules mode={str(self.rules.mode)!r}: allowed a dealt table (the "
                            "two-player draw has no deal to fix)")
        seats, size = packed.seat_count, packed.hand_size
        self.card_slot = {int(card): slot for slot, card in enumerate(packed.slot_card)
                          if card >= 0}
        self.fixed = np.zeros(seats, np.uint64)
        taken: dict[int, int] = {}
        for seat, cards in (predeal or {}).items():
            if not 0 <= seat < seats:
                raise DealError(f"seat={seat!r}: allowed 0 to {seats - 1}")
            ids = parse_cards(cards) if isinstance(cards, str) else tuple(cards)
            for card in ids:
                if card not in self.card_slot:
                    raise DealError(f"card={format_card(card)!r}: allowed a card of the "
                                    f"{self.rules.name} deck")
                if card in taken:
                    raise DealError(f"card={format_card(card)!r}: allowed once (seat "
                                    f"{taken[card]} holds it already)")
                taken[card] = seat
                self.fixed[seat] |= np.uint64(1) << np.uint64(self.card_slot[card])
            if len(ids) > size:
                raise DealError(f"seat {seat} cards={len(ids)}: allowed at most {size}")
        self.free = size - popcount(self.fixed)
        all_slots = np.asarray(packed.deck_slots, np.uint64)
        fixed_all = int(np.bitwise_or.reduce(self.fixed)) if seats else 0
        self.remaining = np.array([slot for slot in all_slots if not fixed_all >> int(slot) & 1],
                                  np.uint64)
        self.constraints = tuple(constraints)
        self.accept = accept
        self._check_possible()

    def suit_mask(self, suit: str) -> np.uint64:
        mask: np.uint64 = self.packed.suit_masks[SUIT_NAMES.index(suit)]
        return mask

    def suit_counts(self, deals: np.ndarray, suit: str) -> np.ndarray:
        """Cards of ``suit`` held by each seat of each deal, shape (deals, seats)."""
        return popcount(deals & self.suit_mask(suit))

    def hands(self, deal: np.ndarray) -> tuple[tuple[int, ...], ...]:
        """The card ids of every seat of one deal (a row of :meth:`deal`)."""
        slot_card = self.packed.slot_card
        return tuple(tuple(int(slot_card[s]) for s in range(64) if int(mask) >> s & 1)
                     for mask in deal)

    def _check_possible(self) -> None:
        """Refuse constraints that the fixed cards already rule out."""
        seats = self.packed.seat_count
        for i, c in enumerate(self.constraints):
            if any((c.seat, c.suit) == (d.seat, d.suit) for d in self.constraints[:i]):
                raise DealError(f"constraint={str(c)!r}: allowed each seat and suit once "
                                f"(seat {c.seat}'s {c.suit} are given twice)")
            if not 0 <= c.seat < seats:
                raise DealError(f"constraint={str(c)!r}: allowed seats 0 to {seats - 1}")
            if c.suit not in SUIT_NAMES:
                raise DealError(f"constraint={str(c)!r}: allowed a suit of "
                                + ", ".join(SUIT_NAMES))
            mask = int(self.suit_mask(c.suit))
            held = bin(int(self.fixed[c.seat]) & mask).count("1")
            out = sum(1 for slot in self.remaining if mask >> int(slot) & 1)
            others = self.remaining.size - out
            free = int(self.free[c.seat])
            least, most = held + max(0, free - others), held + min(free, out)
            if c.low > c.high or c.high < least or c.low > most:
                raise DealError(f"constraint={str(c)!r}: allowed a range that meets {least} to "
                                f"{most} (what seat {c.seat} can hold with the cards fixed)")

    def _complete(self, rng: np.random.Generator, count: int) -> np.ndarray:
        """``count`` uniform completions, shape (count, seats), not yet filtered."""
        order = rng.permuted(np.tile(self.remaining, (count, 1)), axis=1)
        bits = np.left_shift(np.uint64(1), order)
        deals = np.tile(self.fixed, (count, 1))
        start = 0
        for seat, free in enumerate(self.free):
            if free:
                deals[:, seat] |= np.bitwise_or.reduce(bits[:, start:start + free], axis=1)
            start += free
        return deals

    def _keep(self, deals: np.ndarray) -> np.ndarray:
        keep = np.ones(len(deals), bool)
        for c in self.constraints:
            held = popcount(deals[:, c.seat] & self.suit_mask(c.suit))
            keep &= (held >= c.low) & (held <= c.high)
        if self.accept is not None:
            for i in np.flatnonzero(keep):
                keep[i] = bool(self.accept(self.hands(deals[i])))
        return keep

    def deal(self, n: int, seed: int, start: int = 0) -> np.ndarray:
        """Deals ``start`` … ``start + n - 1`` of ``seed``, each meeting every constraint, as slot
        masks of shape (n, seats); deal ``i`` of a seed is the same however it is asked for."""
        check_deal_count(n)
        if isinstance(start, bool) or not isinstance(start, int) or start < 0:
            raise DealError(f"start={start!r}: allowed a whole number of at least 0")
        first, last = start // DEAL_BLOCK, (start + n - 1) // DEAL_BLOCK
        deals = np.concatenate([self._deal_block(seed, block)
                                for block in range(first, last + 1)])
        offset = start - first * DEAL_BLOCK
        return deals[offset:offset + n]

    def _deal_block(self, seed: int, block: int) -> np.ndarray:
        """The :data:`DEAL_BLOCK` deals of deal block ``block``: the first completions of its
        stream that meet every constraint (so uniform over the deals that do)."""
        rng = _stream(seed, _DEAL_STREAM, block)
        unconstrained = not self.constraints and self.accept is None
        # The first draw of a constrained block 0 is the trial that measures the accept rate.
        size = DEAL_BLOCK if unconstrained or block else TRIAL_DEALS
        kept: list[np.ndarray] = []
        found, tried = 0, 0
        while found < DEAL_BLOCK:
            deals = self._complete(rng, size)
            tried += len(deals)
            deals = deals[self._keep(deals)]
            kept.append(deals)
            found += len(deals)
            if tried >= TRIAL_DEALS and found < MIN_ACCEPT_RATE * tried:
                raise DealError(f"constraints: {found:,} of {tried:,} trial deals met them; allowed"
                                f" constraints that at least 1 deal in "
                                f"{round(1 / MIN_ACCEPT_RATE):,} meets")
            size = BATCH
        return np.concatenate(kept)[:DEAL_BLOCK]

    def completions(self) -> int:
        """How many completions the predeal leaves, before constraints (multinomial)."""
        total = math.factorial(self.remaining.size)
        for free in self.free:
            total //= math.factorial(int(free))
        return total


__all__ = [
    "DEAL_BLOCK",
    "CardError",
    "DealError",
    "Dealer",
    "SuitCount",
    "check_deal_count",
    "deal_block_seed",
    "parse_suit_count",
    "popcount",
]

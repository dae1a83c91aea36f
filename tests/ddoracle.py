"""An exhaustive double-dummy oracle for the tests of the kernel's solver, written from the rules.

Independent of ``spades_sim.kernel``: it reads only the rules (docs/rules.md, docs/scoring.md)
and the referee (:func:`spades_sim.referee.deck_of` for the cards, the trumps and the trick's
winner, :func:`spades_sim.referee.scoring.score_hand` for a hand's points). It searches every
line of play to the end of the hand, with no pruning but a memo on the full state, so it is
only fit for endings (up to about 5 cards a seat).

A position is anything with the attributes of the solver's ``Position`` (``hands``: per seat a
card-id bitmask, or a collection of card ids; ``to_play``; ``trick``: the card ids played to the
trick in progress, in order; ``taken``: tricks per seat so far, ``()`` for none; ``broken``).
The hand's first trick is the one in progress while no trick has been taken (``sum(taken) ==
0``): the first-lead rules apply to its lead.

Legality (docs/rules.md "Play"):

- a seat follows the suit led when it can ("suit" as the deck counts it: jokers and promoted
  deuces are spades), else plays anything;
- the first lead: ``two_of_clubs``: the deck's lowest club and nothing else;
  ``dealer_left_no_spade``: no trump unless the leader holds only trumps, whatever
  ``spades_lead`` says; ``dealer_right``: the ordinary rule below;
- any other lead: ``spades_lead = "must_break"``: no trump before trumps are broken unless the
  leader holds only trumps; ``any_time``: anything;
- trumps are broken when a trump is played on a non-trump lead (a trump lead does not break them);
  under ``spades_lead = "never_broken"`` they never are, so a trump is led only from a hand of trumps.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from spades_sim.referee.deck import TRUMP_SUIT, deck_of
from spades_sim.referee.handlog import BLIND_NIL
from spades_sim.referee.scoring import partner_of, score_hand
from spades_sim.rules import FirstLead, RuleSet, SpadesLead, resolve_rules

State = tuple[tuple[int, ...], int, tuple[int, ...], tuple[int, ...], bool]
"""(hands as masks, to_play, trick, taken per seat, broken): the whole state of play."""


class OracleError(ValueError):
    """A position the oracle cannot play (for example: the first lead under ``two_of_clubs``
    by a seat without the lowest club)."""


@dataclass(frozen=True)
class Spot:
    """A position of the oracle's own (the solver's ``Position`` works as well)."""

    hands: tuple[int, ...]
    to_play: int
    trick: tuple[int, ...] = ()
    taken: tuple[int, ...] = ()
    broken: bool = False


def _mask(hand: int | Collection[int]) -> int:
    if isinstance(hand, int):
        return hand
    mask = 0
    for card in hand:
        mask |= 1 << int(card)
    return mask


def bits(mask: int) -> list[int]:
    """The card ids of a mask, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class Oracle:
    """Exhaustive minimax for one rule set (a RuleSet or a preset name)."""

    def __init__(self, rules: RuleSet | str) -> None:
        self.rules = resolve_rules(rules) if isinstance(rules, str) else rules
        self.deck = deck_of(self.rules)
        self.seats = self.rules.seat_count
        self.suit = [self.deck.suit_of(card) for card in range(54)]
        self.trump_mask = _mask(self.deck.trumps)
        self.suit_mask = [_mask(c for c in self.deck.cards if self.suit[c] == suit) for suit in range(4)]

    # --- the rules of play ---

    def state(self, position: Any) -> State:
        """The oracle's state of a position (hands as masks, taken filled with zeros)."""
        hands = tuple(_mask(h) for h in position.hands)
        taken = tuple(position.taken) or (0,) * self.seats
        if len(hands) != self.seats or len(taken) != self.seats:
            raise OracleError(f"{len(hands)} hands, {len(taken)} taken at {self.seats} seats")
        return hands, int(position.to_play), tuple(position.trick), taken, bool(position.broken)

    def legal(self, state: State) -> list[int]:
        """The cards the seat to play may play, lowest id first."""
        hands, seat, trick, taken, broken = state
        hand = hands[seat]
        if not hand:
            return []
        if trick:
            return bits(hand & self.suit_mask[self.suit[trick[0]]] or hand)
        rules = self.rules
        plain = hand & ~self.trump_mask
        if sum(taken) == 0:  # the lead of the hand's first trick
            if rules.first_lead == FirstLead.TWO_OF_CLUBS:
                lowest = self.deck.lowest_club
                if not hand >> lowest & 1:
                    raise OracleError(f"first lead under two_of_clubs by seat {seat} without "
                                      f"card {lowest}")
                return [lowest]
            if rules.first_lead == FirstLead.DEALER_LEFT_NO_SPADE:
                return bits(plain or hand)
        if rules.spades_lead == SpadesLead.ANY_TIME or broken:
            return bits(hand)
        return bits(plain or hand)

    def play(self, state: State, card: int) -> State:
        """The state after the seat to play plays ``card`` (no legality check)."""
        hands, seat, trick, taken, broken = state
        n = self.seats
        new_hands = list(hands)
        new_hands[seat] &= ~(1 << card)
        if (trick and self.suit[card] == TRUMP_SUIT and self.suit[trick[0]] != TRUMP_SUIT
                and self.rules.spades_lead != SpadesLead.NEVER_BROKEN):
            broken = True
        new_trick = (*trick, card)
        if len(new_trick) < n:
            return tuple(new_hands), (seat + 1) % n, new_trick, taken, broken
        leader = (seat - len(trick)) % n
        winner = (leader + self.deck.trick_winner_position(new_trick)) % n
        new_taken = list(taken)
        new_taken[winner] += 1
        return tuple(new_hands), winner, (), tuple(new_taken), broken

    def play_checked(self, state: State, card: int) -> State:
        """:meth:`play`, refusing a card that is not legal."""
        if card not in self.legal(state):
            raise OracleError(f"card {card} is not legal for seat {state[1]}: legal {self.legal(state)}")
        return self.play(state, card)

    @staticmethod
    def over(state: State) -> bool:
        return not state[2] and not any(state[0])

    def replay(self, state: State, line: Iterable[int]) -> State:
        """Play a line of cards to its end, each checked; return the final state."""
        for card in line:
            state = self.play_checked(state, card)
        return state

    # --- minimax ---

    def search(self, state: State, value: Callable[[tuple[int, ...]], int],
               maximisers: Collection[int]) -> int:
        """The minimax value of ``value(final tricks per seat)``: the seats in ``maximisers``
        maximise it, every other seat minimises it."""
        return self.search_many(state, [(value, maximisers)])[0]

    def search_many(self, state: State,
                    questions: Sequence[tuple[Callable[[tuple[int, ...]], int], Collection[int]]],
                    memo: dict[State, tuple[int, ...]] | None = None) -> tuple[int, ...]:
        """:meth:`search` for several (value, maximisers) questions in one walk of the tree:
        each is its own minimax, only the walk and the memo are shared. ``memo``, if given,
        is filled with the values of every state reached (so the root's children are there)."""
        if memo is None:
            memo = {}
        legal, play = self.legal, self.play
        # Per seat: per question, max if that seat maximises it, else min.
        choosers = [[max if seat in maxers else min for _, maxers in questions]
                    for seat in range(self.seats)]

        def solve(node: State) -> tuple[int, ...]:
            known = memo.get(node)
            if known is not None:
                return known
            cards = legal(node)
            if not cards:
                if node[2] or any(node[0]):
                    raise OracleError(f"no legal card in a live state {node}")
                result = tuple(value(node[3]) for value, _ in questions)
            else:
                results = [solve(play(node, card)) for card in cards]
                if len(results) == 1:
                    result = results[0]
                else:
                    pick = choosers[node[1]]
                    result = tuple(pick[q](column) for q, column in enumerate(zip(*results)))
            memo[node] = result
            return result

        return solve(state)

    def side_seats(self, side: int) -> set[int]:
        return {seat for seat in range(self.seats) if self.rules.seat_side(seat) == side}

    def tricks(self, state: State, side: int) -> int:
        seats = self.side_seats(side)
        return self.search(state, lambda taken: sum(taken[s] for s in seats), seats)

    def tricks_of_every_side(self, state: State) -> list[int]:
        """:meth:`tricks` of each side in turn, in one walk of the tree."""
        questions = []
        for side in range(self.rules.side_count):
            seats = self.side_seats(side)
            questions.append((lambda taken, seats=seats: sum(taken[s] for s in seats), seats))
        return list(self.search_many(state, questions))

    def nil_set(self, state: State, seat: int) -> bool:
        if state[3][seat] > 0:
            return True
        partner = partner_of(self.rules, seat)
        helpers = {seat} if partner is None else {seat, partner}
        attackers = set(range(self.seats)) - helpers
        return bool(self.search(state, lambda taken: int(taken[seat] > 0), attackers))

    def hand_value(self, final_taken: Sequence[int], bids: Sequence[int], blind: Sequence[bool],
                   bags: Sequence[int], side: int) -> int:
        """The referee's score of a hand: side's points minus the other sides' total."""
        values = [BLIND_NIL if blind and blind[s] else bids[s] for s in range(self.seats)]
        carried = tuple(bags) or (0,) * self.rules.side_count
        points = score_hand(self.rules, values, final_taken, None, carried).points
        return points[side] - sum(p for other, p in enumerate(points) if other != side)

    def score(self, state: State, bids: Sequence[int], blind: Sequence[bool], bags: Sequence[int],
              side: int) -> int:
        cache: dict[tuple[int, ...], int] = {}

        def value(taken: tuple[int, ...]) -> int:
            if taken not in cache:
                cache[taken] = self.hand_value(taken, bids, blind, bags, side)
            return cache[taken]

        return self.search(state, value, self.side_seats(side))


def oracle_tricks(rules: RuleSet | str, position: Any, side: int) -> int:
    """The most tricks ``side`` takes in the hand (taken so far + the rest) against best defence."""
    oracle = Oracle(rules)
    return oracle.tricks(oracle.state(position), side)


def oracle_nil_set(rules: RuleSet | str, position: Any, seat: int) -> bool:
    """Whether the other sides can force ``seat`` to take a trick, its partner helping it."""
    oracle = Oracle(rules)
    return oracle.nil_set(oracle.state(position), seat)


def oracle_score(rules: RuleSet | str, position: Any, bids: Sequence[int], blind: Sequence[bool] = (),
                 bags: Sequence[int] = (), side: int = 0) -> int:
    """The best hand-score difference for ``side`` (its points minus the other sides' total)."""
    oracle = Oracle(rules)
    return oracle.score(oracle.state(position), bids, blind, bags, side)

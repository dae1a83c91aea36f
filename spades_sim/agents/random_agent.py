"""The simplest agent: every decision uniform over the legal moves."""

from __future__ import annotations

import random

from .observation import Observation


class RandomAgent:
    """Chooses uniformly among the legal moves of every decision (blind nil and the draw too).

    Reproducible without a seed of its own: its choices in a hand are drawn from
    ``observation.random_key`` (the table's seed, game, hand and seat), so the same table
    seed gives the same moves whatever else the agent was asked before. ``seed`` varies
    them: two agents with different seeds choose differently on the same deals.
    """

    name = "uniform"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        """Mixed into every decision's draw."""

    def _choose(self, o: Observation) -> int:
        # A pure function of the seed, the seat's hand key and how far into the hand the
        # decision is: no state carried between decisions, so one agent at several seats, or
        # at both tables of a duplicate of the same deal, chooses the same way each time.
        played = sum(len(trick.cards) for trick in o.tricks) + len(o.trick)
        where = (self.seed, o.random_key, o.decision.value, len(o.hand), len(o.passed),
                 len(o.discards), played)
        return random.Random(repr(where)).choice(o.legal)

    def blind_nil(self, observation: Observation) -> bool:
        """Blind nil or not, evenly."""
        return bool(self._choose(observation))

    def bid(self, observation: Observation) -> int:
        """Any legal bid, evenly."""
        return self._choose(observation)

    def blind_bid(self, observation: Observation) -> int:
        """No blind bid or any number allowed, evenly."""
        return self._choose(observation)

    def draw(self, observation: Observation) -> bool:
        """Keep or discard, evenly."""
        return bool(self._choose(observation))

    def pass_card(self, observation: Observation) -> int:
        """Any held card, evenly."""
        return self._choose(observation)

    def play(self, observation: Observation) -> int:
        """Any legal card, evenly."""
        return self._choose(observation)

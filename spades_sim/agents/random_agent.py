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
        """Mixed into every hand's key."""
        self._streams: dict[int, random.Random] = {}
        self._deal: tuple[int, int] | None = None

    def _choose(self, observation: Observation) -> int:
        # One stream per key (a seat's hand): one agent may sit at several seats, asked in turn.
        deal = (observation.game, observation.hand_number)
        if deal != self._deal:
            self._deal = deal
            self._streams.clear()  # the hand before this one is over
        stream = self._streams.get(observation.random_key)
        if stream is None:
            stream = self._streams[observation.random_key] = random.Random(
                f"{self.seed}:{observation.random_key}")
        return stream.choice(observation.legal)

    def blind_nil(self, observation: Observation) -> bool:
        """Blind nil or not, evenly."""
        return bool(self._choose(observation))

    def bid(self, observation: Observation) -> int:
        """Any legal bid, evenly."""
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

"""A bot in thirty lines: bid the sure tricks, win a trick as cheaply as possible, else duck.

Seat it at the Python table (docs/agents.md):

    from spades_sim.agents import RandomAgent, load_agent, play_duplicate
    bot = load_agent("examples/high_low_bot.py:HighLowBot")
    run = play_duplicate("standard", bot.make, RandomAgent, 100, seed=1)
"""

from spades_sim.agents import Observation, RandomAgent
from spades_sim.cards import card_rank, card_suit


def is_trump(card: int) -> bool:
    return card >= 52 or card_suit(card) == 3  # jokers and spades (deuce-high aside)


def power(card: int) -> int:
    """Any trump above any plain card; the jokers above the spades; then by rank."""
    return card if card >= 52 else card_rank(card) + (20 if is_trump(card) else 0)


class HighLowBot(RandomAgent):
    """Never bids blind nil; the draw and the blind-nil exchange stay uniform (RandomAgent's)."""

    name = "high-low"

    def blind_nil(self, observation: Observation) -> bool:
        return False

    def bid(self, observation: Observation) -> int:
        sure = sum(1 for card in observation.hand
                   if card_rank(card) >= 11 or card >= 52 or (is_trump(card) and card_rank(card) >= 9))
        return min(observation.legal, key=lambda bid: abs(bid - max(sure, 1)))

    def play(self, observation: Observation) -> int:
        legal = sorted(observation.legal, key=power)
        if not observation.trick:  # lead the highest card if it is an ace or a trump, else the lowest
            return legal[-1] if card_rank(legal[-1]) == 12 or is_trump(legal[-1]) else legal[0]
        led = card_suit(observation.trick[0])
        in_play = [card for card in observation.trick if is_trump(card) or card_suit(card) == led]
        best = max(power(card) for card in in_play)
        winners = [card for card in legal
                   if power(card) > best and (is_trump(card) or card_suit(card) == led)]
        return winners[0] if winners else legal[0]

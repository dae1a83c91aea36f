"""A game of hands: score and bags carried from hand to hand, and the end-of-game rule
(docs/scoring.md "End of a game, all together" and "with more than two sides").
"""

from __future__ import annotations

from collections.abc import Sequence

from spades_sim.referee.hand import Hand, _check_seat, _check_sides
from spades_sim.referee.handlog import HandResult
from spades_sim.referee.scoring import contract_set, game_winner, thirteen_winner
from spades_sim.rules import RuleSet


class Game:
    """A game: score and bags carried from hand to hand, and the end-of-game rule.

    After each hand :func:`game_winner` decides: a made contract of 13 under
    ``bid_thirteen = "wins_game"``, the target, ``elimination`` and ``hand_limit``
    (docs/scoring.md "End of a game, all together" and "with more than two sides").

    Parameters
    ----------
    rules : RuleSet
        The rules played.
    dealer : int
        The dealer of the next hand; the deal passes clockwise (dealer + 1 mod n) each hand.
    score, bags : sequence of int, one per side
        Each side's score and carried bags before the next hand (all 0 if None).
    hand_index : int
        The index of the next hand in the game (so also the hands played so far).
    sets : sequence of int, one per side
        Each side's sets so far, for ``sets_to_lose`` (all 0 if None).
    """

    def __init__(
        self,
        rules: RuleSet,
        dealer: int = 0,
        score: Sequence[int] | None = None,
        bags: Sequence[int] | None = None,
        hand_index: int = 0,
        sets: Sequence[int] | None = None,
    ) -> None:
        self.rules = rules
        """The rules played."""
        self.dealer_index = _check_seat("dealer", dealer, rules.seat_count, ValueError)
        """The dealer of the next hand."""
        self.score = _check_sides(rules, "score", score, minimum=None)
        """Each side's score now."""
        self.bags = _check_sides(rules, "bags", bags, minimum=0)
        """Each side's bags carried into the next hand."""
        self.sets = _check_sides(rules, "sets", sets, minimum=0)
        """Each side's contracts set so far in the game (``sets_to_lose``)."""
        self.hand_index = hand_index
        """The index of the next hand."""
        self.results: list[HandResult] = []
        """The results of the hands recorded, in order."""
        self.winner: int | None = game_winner(rules, self.score, hands_played=hand_index, sets=self.sets)
        """The winning side, or None while the game goes on."""

    @property
    def over(self) -> bool:
        """Whether a side has won."""
        return self.winner is not None

    def verify_next(self, dealer: int) -> None:
        """Raise ValueError unless a next hand dealt by ``dealer`` may be played."""
        if self.over:
            raise ValueError(f"the game is over: side {self.winner} won {list(self.score)}")
        if dealer != self.dealer_index:
            raise ValueError(
                f"dealer={dealer}: allowed {self.dealer_index} (the deal passes clockwise each hand)"
            )

    def start_hand(
        self, hands: Sequence[Sequence[int] | str], discards: Sequence[Sequence[int] | str] | None = None
    ) -> Hand:
        """Deal the next hand (dealer, score, bags and index from the game); :meth:`record` it when done.

        ``discards``: the two-player draw's discards (two-player only).
        """
        self.verify_next(self.dealer_index)
        return Hand(self.rules, self.dealer_index, hands, self.score, self.bags, self.hand_index, discards)

    def record(self, hand: Hand) -> int | None:
        """Add a finished hand to the game; return the winning side, or None if the game goes on.

        :raises ValueError: the hand is unfinished or was not dealt from this game's state.
        """
        self.verify_next(hand.dealer_index)
        expected = (self.score, self.bags, self.hand_index)
        if (hand.score_before, hand.bags_before, hand.hand_index) != expected:
            raise ValueError(
                f"hand {hand.hand_index} starts from score {list(hand.score_before)}, bags "
                f"{list(hand.bags_before)}; the game is at hand {self.hand_index}, score "
                f"{list(self.score)}, bags {list(self.bags)}"
            )
        result = hand.result
        self.results.append(result)
        self.score, self.bags = result.score, result.bag_total
        self.hand_index += 1
        self.dealer_index = (self.dealer_index + 1) % self.rules.seat_count
        bids = [bid for bid in hand.bids if bid is not None]
        self.sets = tuple(count + contract_set(self.rules, bids, result.tricks, side)
                          for side, count in enumerate(self.sets))
        self.winner = game_winner(
            self.rules,
            self.score,
            hands_played=self.hand_index,
            thirteen_side=thirteen_winner(self.rules, bids, result.tricks),
            sets=self.sets,
        )
        return self.winner


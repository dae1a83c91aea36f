"""The referee: plain-Python Spades, written from docs/rules.md and docs/scoring.md alone.

This package is the test oracle for the numba kernel, so it shares no code with
it and uses no numpy. Its modules, from the bottom up:

- :mod:`~spades_sim.referee.deck`: the decks of docs/scoring.md "Decks" (:func:`deck_of`):
  the cards in play and the trumps, high to low (jokers and promoted deuces are
  "spades" for following, leading and breaking);
- :mod:`~spades_sim.referee.scoring`: the pure rule steps: partners, trick winners,
  :func:`score_hand`, blind nil's conditions, :func:`game_winner`;
- :mod:`~spades_sim.referee.handlog`: the JSONL hand-log format and the action records;
- :mod:`~spades_sim.referee.hand`: :class:`Hand`, one hand as a state machine (BID →
  EXCHANGE → PLAY → SCORE) with ``verify_*``, ``can_*`` and the action for every move,
  and :class:`IllegalMove`;
- :mod:`~spades_sim.referee.game`: :class:`Game`, score and bags carried from hand to
  hand and the end of game rule (target, ``bid_thirteen = "wins_game"``,
  ``elimination``, ``hand_limit``, for any number of sides);
- :mod:`~spades_sim.referee.replay`: :func:`replay_hand` and :func:`score_file` check
  hand logs (``docs/hand-log.md``) move by move and compare every recorded field;
- :mod:`~spades_sim.referee.audit`: the technique audit of card play.

Every table mode of docs/scoring.md "Table modes" is played: the rule set gives
the seats (2-5), the hand size, the sides (two partnerships, or one side per
seat) and who is whose partner. The names below are re-exported here, so
``from spades_sim.referee import Hand, Game, replay_hand`` works.
"""

from spades_sim.referee.deck import DECK_SIZE, STANDARD_DECK, TRUMP_SUIT, DeckSpec, deck_of
from spades_sim.referee.game import Game
from spades_sim.referee.hand import Hand, IllegalMove, Phase, first_bidder, first_leader
from spades_sim.referee.handlog import (
    BLIND_NIL,
    Action,
    Bid,
    BlindBid,
    BlindCount,
    BlindNilBid,
    CardPass,
    CardPlay,
    HandLog,
    HandResult,
    LogError,
    Trick,
    read_log,
    write_log,
)
from spades_sim.referee.replay import ScoredHand, replay_hand, score_file, scored_frame
from spades_sim.referee.scoring import (
    MAX_BID,
    BidValue,
    blind_nil_refusal,
    game_winner,
    is_nil,
    partner_of,
    score_hand,
    side_contract,
    side_of,
    thirteen_winner,
    trick_winner_index,
)

__all__ = [
    # deck
    "DECK_SIZE",
    "STANDARD_DECK",
    "TRUMP_SUIT",
    "DeckSpec",
    "deck_of",
    # scoring
    "MAX_BID",
    "BidValue",
    "blind_nil_refusal",
    "game_winner",
    "is_nil",
    "partner_of",
    "score_hand",
    "side_contract",
    "side_of",
    "thirteen_winner",
    "trick_winner_index",
    # handlog
    "BLIND_NIL",
    "Action",
    "Bid",
    "BlindBid",
    "BlindCount",
    "BlindNilBid",
    "CardPass",
    "CardPlay",
    "HandLog",
    "HandResult",
    "LogError",
    "Trick",
    "read_log",
    "write_log",
    # hand
    "Hand",
    "IllegalMove",
    "Phase",
    "first_bidder",
    "first_leader",
    # game
    "Game",
    # replay
    "ScoredHand",
    "replay_hand",
    "score_file",
    "scored_frame",
]

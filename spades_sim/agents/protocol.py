"""The :class:`Agent` protocol: one method per decision, each given an observation and
returning one move; and :class:`AgentError`, a bot that cannot be seated."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from ..outputs import shown
from .observation import Decision, Observation


class AgentError(ValueError):
    """An agent that cannot be seated: a bot spec that does not load, a name that is not
    there, an object that is not an agent, an unknown agent name. The message is one line,
    ``field='value': allowed …``."""

    def __init__(self, field: str, value: str, allowed: str) -> None:
        super().__init__(f"{field}={shown(value)!r}: allowed {allowed}")


@runtime_checkable
class Agent(Protocol):
    """A player: one method per decision the rules can ask for (:class:`Decision`).

    Each method receives an :class:`Observation` of what the seat knows and returns one of
    ``observation.legal``. A card may be returned as its id (an ``int``, numpy integers
    included) or its name (``"QS"``). The table checks every move: anything not in
    ``observation.legal`` ends the game (docs/agents.md). An agent may keep state between
    calls; the table calls it for one seat at a time, in the order of play.
    """

    def blind_nil(self, observation: Observation) -> bool:
        """Bid blind nil (True) or not (False), before looking at the cards: asked at the
        seat's turn to bid when the rules allow blind nil then (``observation.hand`` is
        empty). After False the seat is asked for :meth:`bid`."""
        ...

    def bid(self, observation: Observation) -> int:
        """A bid: a number of tricks, 0 for nil."""
        ...

    # ``blind_bid(observation) -> int`` is optional (OPTIONAL_METHODS): a number of tricks bid
    # blind, before looking, or 0; asked only where the rules allow a blind bid, after blind nil.

    def draw(self, observation: Observation) -> bool:
        """The two-player draw: keep ``observation.drawn`` (True; the next card is then
        discarded) or discard it (False; the next card is then kept)."""
        ...

    def pass_card(self, observation: Observation) -> int | str:
        """The blind-nil exchange: one card to pass to the partner (asked once per card)."""
        ...

    def play(self, observation: Observation) -> int | str:
        """A card to play to the trick in progress."""
        ...


DECISION_METHODS = {decision: str(decision) for decision in Decision}
"""The method of an agent that makes each decision."""

OPTIONAL_METHODS = frozenset({str(Decision.BLIND_BID)})
"""Decision methods an agent may leave out: without ``blind_bid`` it never bids blind (an
agent written before blind bids existed still sits at every table)."""


def missing_methods(candidate: object) -> list[str]:
    """The decision methods ``candidate`` lacks (empty for an agent)."""
    return [name for name in DECISION_METHODS.values()
            if name not in OPTIONAL_METHODS and not callable(getattr(candidate, name, None))]


def agent_name(agent: object) -> str:
    """The name an agent is shown under (in logs and messages): its ``name`` attribute when it
    is a non-empty string, else its class's name."""
    name = getattr(agent, "name", None)
    return name if isinstance(name, str) and name.strip() else type(agent).__name__

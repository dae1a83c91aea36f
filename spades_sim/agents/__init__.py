"""Agents: every decision of a hand from Python, and a table that seats any agent on any seat.

- :mod:`~spades_sim.agents.observation`: :class:`Decision` and :class:`Observation`, what a
  seat knows when it decides;
- :mod:`~spades_sim.agents.protocol`: the :class:`Agent` protocol, one method per decision;
- :mod:`~spades_sim.agents.random_agent`: :class:`RandomAgent`, uniform over the legal moves;
- :mod:`~spades_sim.agents.registry`: :func:`agent`, the built-in agents by name;
- :mod:`~spades_sim.agents.loader`: :func:`load_agent`, bots from ``FILE.py:NAME`` or
  ``module:NAME``;
- :mod:`~spades_sim.agents.deals`: the kernel's deals and random keys, called from Python;
- :mod:`~spades_sim.agents.table`: :func:`play_hands`, :func:`play_games` and
  :func:`play_duplicate`, through the referee, writing hand logs.

The package is a tier of its own, beside the run tier: it reads the kernel (its deals), the
referee (every move checked) and the run tier (hand logs, seeds); the analysis tier and the
command line read it. docs/agents.md shows how to write a bot.
"""

from .loader import LoadedAgent, is_bot_spec, load_agent, resolve_agent
from .observation import Decision, Observation, card_names
from .protocol import Agent, AgentError, agent_name
from .random_agent import RandomAgent
from .registry import agent, agent_names
from .table import (
    BotFault,
    DuplicateRun,
    Table,
    TableGame,
    TableRun,
    play_duplicate,
    play_games,
    play_hands,
)

__all__ = [
    "Agent",
    "AgentError",
    "BotFault",
    "Decision",
    "DuplicateRun",
    "LoadedAgent",
    "Observation",
    "RandomAgent",
    "Table",
    "TableGame",
    "TableRun",
    "agent",
    "agent_name",
    "agent_names",
    "card_names",
    "is_bot_spec",
    "load_agent",
    "play_duplicate",
    "play_games",
    "play_hands",
    "resolve_agent",
]

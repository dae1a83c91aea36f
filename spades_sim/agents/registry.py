"""Agents by name: :func:`agent` and the one table they are registered in."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from ..kernel.strategies import STRATEGIES
from .kernel_agent import kernel_agent
from .protocol import Agent, AgentError
from .random_agent import RandomAgent

PYTHON_AGENTS: dict[str, Callable[..., Agent]] = {
    RandomAgent.name: RandomAgent,
}
"""The built-in agents written in Python, by name: each a class (or factory) whose keyword
arguments are the agent's parameters."""

KERNEL_AGENTS: dict[str, Callable[..., Agent]] = {
    name: partial(kernel_agent, name) for name in STRATEGIES}
"""The built-in strategies (every named strategy) as agents that call the kernel's own
decision functions (:class:`~spades_sim.agents.kernel_agent.KernelAgent`), by name; their
keyword arguments are the strategy's parameters."""


def agent_names() -> list[str]:
    """The names :func:`agent` accepts."""
    return sorted(PYTHON_AGENTS) + sorted(KERNEL_AGENTS)


def agent(name: str, **params: Any) -> Agent:
    """A new built-in agent by name, with its parameters as keyword arguments.

    >>> agent("uniform", seed=3).seed
    3

    >>> agent("expert", set_slack=2).name
    'expert[set_slack=2]'

    :raises AgentError: an unknown name, or parameters the agent does not take.
    """
    maker = PYTHON_AGENTS.get(name) or KERNEL_AGENTS.get(name)
    if maker is None:
        raise AgentError("agent", name, ", ".join(agent_names()))
    try:
        return maker(**params)
    except TypeError as error:
        raise AgentError("agent", name, f"its own parameters ({error})") from None

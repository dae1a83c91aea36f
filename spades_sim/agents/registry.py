"""Agents by name: :func:`agent` and the one table they are registered in."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .protocol import Agent, AgentError
from .random_agent import RandomAgent

PYTHON_AGENTS: dict[str, Callable[..., Agent]] = {
    RandomAgent.name: RandomAgent,
}
"""The built-in agents written in Python, by name: each a class (or factory) whose keyword
arguments are the agent's parameters."""

# The built-in strategies (random, basic, expert-v1, expert) are registered here as agents once
# the kernel offers one decision at a time: each will call the kernel's own decision functions,
# so that it makes exactly the kernel's moves. They are not copied into Python: until then
# agent() names them as kernel strategies it cannot seat yet.
KERNEL_AGENTS: dict[str, Callable[..., Agent]] = {}
"""The built-in strategies as agents that call the kernel's decision functions, by name."""


def agent_names() -> list[str]:
    """The names :func:`agent` accepts."""
    return sorted(PYTHON_AGENTS) + sorted(KERNEL_AGENTS)


def agent(name: str, **params: Any) -> Agent:
    """A new built-in agent by name, with its parameters as keyword arguments.

    >>> agent("uniform", seed=3).seed
    3

    :raises AgentError: an unknown name (a built-in strategy that is not yet an agent is named
        as such), or parameters the agent does not take.
    """
    maker = PYTHON_AGENTS.get(name) or KERNEL_AGENTS.get(name)
    if maker is None:
        from ..kernel.strategies import STRATEGIES

        allowed = ", ".join(agent_names())
        if name in STRATEGIES:
            allowed += (f" ({name} is a strategy of the kernel, which plays whole hands; it is "
                        "not an agent yet)")
        raise AgentError("agent", name, allowed)
    try:
        return maker(**params)
    except TypeError as error:
        raise AgentError("agent", name, f"its own parameters ({error})") from None

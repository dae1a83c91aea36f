"""Bots from the command line: ``path/to/mybot.py:MyBot`` or ``package.module:attr``.

:func:`load_agent` imports the file or module, finds the name and checks that it is an agent,
a class of agents or a function returning one; anything else is refused in one line
(:class:`~spades_sim.agents.protocol.AgentError`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..kernel.user_policies import is_kernel_policy
from ..loading import error_text, load_named
from .protocol import DECISION_METHODS, OPTIONAL_METHODS, Agent, AgentError, missing_methods
from .registry import agent

SPEC_FORMS = "path/to/bot.py:NAME or package.module:NAME"
"""How a bot is named on the command line."""

_METHODS = ", ".join(name for name in DECISION_METHODS.values() if name not in OPTIONAL_METHODS)


@dataclass(frozen=True)
class LoadedAgent:
    """A bot loaded from its spec: its name and how to seat it."""

    name: str
    """The spec as given, which names the bot in logs, tables and messages."""
    make: Callable[[], Agent]
    """A new agent for one seat: the class instantiated, the function called, or (an agent
    object was named) that same object."""


def is_bot_spec(text: str) -> bool:
    """Whether ``text`` names a bot (``FILE.py:NAME``, ``module:NAME``) rather than a strategy.

    >>> is_bot_spec("bots/mine.py:MyBot"), is_bot_spec("mybots.smart:make"), is_bot_spec("expert")
    (True, True, False)
    """
    return ":" in text


def load_agent(spec: str) -> LoadedAgent:
    """Load the bot that ``spec`` names: ``path/to/bot.py:NAME`` (a Python file, its folder put
    first on the import path while it loads) or ``package.module:NAME`` (an importable module).

    ``NAME`` may be an agent object, a class whose instances are agents (made with no
    arguments) or a function of no arguments returning an agent.

    :raises AgentError: a spec of another form, a file or module that does not load, a name
        that is not there, or an object that is not an agent; one line naming the spec.
    """
    value = load_named(spec, lambda allowed: AgentError("bot", spec, allowed), SPEC_FORMS)
    return LoadedAgent(spec, _maker(spec, value))


def _maker(spec: str, value: object) -> Callable[[], Agent]:
    """How to seat ``value``: checked once now, by making one agent from it."""
    if isinstance(value, type) or not missing_methods(value):
        if not isinstance(value, type):
            agent = value
            return lambda: agent  # type: ignore[return-value]
        made = _call(spec, value, "instantiated with no arguments")
    elif callable(value):
        made = _call(spec, value, "called with no arguments")
    else:
        made = value
    missing = missing_methods(made)
    if missing:
        what = f"{type(made).__name__} lacks {', '.join(missing)}"
        if is_kernel_policy(made):
            what = ("it is a kernel policy: name it as the bidding and play of a strategy file "
                    "(docs/agents.md)")
        raise AgentError("bot", spec, f"an agent (methods {_METHODS}), a class of agents or a "
                         f"function returning one; {what}")
    return value  # type: ignore[return-value]


def _call(spec: str, maker: Callable[[], object], how: str) -> object:
    try:
        return maker()
    except Exception as error:
        raise AgentError("bot", spec, f"an agent class or function that can be {how} "
                         f"({error_text(error)})") from None


def resolve_agent(text: str) -> LoadedAgent:
    """A player of the Python table named on the command line: a bot spec (:func:`load_agent`)
    or the name of a built-in agent (:func:`~spades_sim.agents.registry.agent`).

    :raises AgentError: a bot that cannot be loaded, or a name that is no agent.
    """
    if is_bot_spec(text):
        return load_agent(text)
    agent(text)  # refuses an unknown name now, before anything is played
    return LoadedAgent(text, lambda: agent(text))

"""spades-sim: a Monte Carlo strategy analyzer for the card game Spades.

>>> from spades_sim import simulate_hands
>>> run = simulate_hands("standard", "basic", 1000, seed=1)
>>> run.done
1000

The simulation names load the numba kernel on first use only, so that the
plain-Python referee (``spades_sim.referee``) can be imported without it.
"""

from importlib import import_module
from importlib.metadata import PackageNotFoundError, version
from typing import Any

try:
    __version__ = version("spades-sim")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0.0.0"

from .rules import RuleSet, RulesError, load_preset, load_rules, preset_names  # noqa: E402

_LAZY = {
    "compare_strategies": "compare",
    "resolve_seed": "simulate",
    "simulate_games": "simulate",
    "simulate_hands": "simulate",
    "STRATEGIES": "strategies",
    "Strategy": "strategies",
    "get_strategy": "strategies",
}

__all__ = ["RuleSet", "RulesError", "load_preset", "load_rules", "preset_names", *_LAZY]


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module 'spades_sim' has no attribute {name!r}")

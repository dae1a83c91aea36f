"""spades-sim: a Monte Carlo strategy analyzer for the card game Spades.

>>> from spades_sim import simulate_hands
>>> run = simulate_hands("standard", "basic", 1000, seed=1)
>>> run.done
1000
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("spades-sim")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0.0.0"

from .rules import RuleSet, RulesError, load_preset, load_rules, preset_names  # noqa: E402
from .simulate import resolve_seed, simulate_games, simulate_hands  # noqa: E402
from .strategies import STRATEGIES, Strategy, get_strategy  # noqa: E402

__all__ = [
    "STRATEGIES",
    "RuleSet",
    "RulesError",
    "Strategy",
    "get_strategy",
    "load_preset",
    "load_rules",
    "preset_names",
    "resolve_seed",
    "simulate_games",
    "simulate_hands",
]

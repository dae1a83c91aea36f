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

from .cards import format_card, format_cards, parse_card, parse_cards
from .rules import RulesError, RuleSet, load_preset, load_rules, preset_names

_LAZY = {
    # the kernel tier: strategies and packing
    "STRATEGIES": "kernel.strategies",
    "Strategy": "kernel.strategies",
    "get_strategy": "kernel.strategies",
    "pack_rules": "kernel.packing",
    "pack_strategies": "kernel.strategies",
    # the referee: the state machine and the hand-log format
    "Game": "referee",
    "Hand": "referee",
    "IllegalMove": "referee",
    "replay_hand": "referee",
    "score_file": "referee",
    "HandLog": "referee.handlog",
    "read_log": "referee.handlog",
    "write_log": "referee.handlog",
    "audit_file": "referee.audit",
    # the run tier
    "Run": "run.simulate",
    "resolve_seed": "run.simulate",
    "resume": "run.simulate",
    "simulate_games": "run.simulate",
    "simulate_hands": "run.simulate",
    "trace_games": "run.simulate",
    "trace_hands": "run.simulate",
    "Dealer": "run.deals",
    "SuitCount": "run.deals",
    "RunStore": "run.store",
    # the agents: bots at the Python table
    "Observation": "agents",
    "RandomAgent": "agents",
    "load_agent": "agents",
    "play_hands": "agents",
    "play_games": "agents",
    "play_duplicate": "agents",
    # the analysis tier
    "compare_strategies": "analysis.compare",
    "compare_agents": "analysis.compare",
    "compare_rules": "analysis.variants",
    "tune": "analysis.tune",
    "what_if": "analysis.whatif",
    "nil_by_feature": "analysis.nil",
    "bid_profiles": "analysis.bids",
    "game_metrics": "analysis.metrics",
    "hand_metrics": "analysis.metrics",
    "economics": "analysis.metrics",
    "Payouts": "analysis.metrics",
    "load_study": "analysis.report",
    "run_study": "analysis.report",
}
"""Public names by module, imported on first use (the referee and rules load without numba)."""

__all__ = ["RuleSet", "RulesError", "load_preset", "load_rules", "preset_names",
           "format_card", "format_cards", "parse_card", "parse_cards", *_LAZY]


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module 'spades_sim' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))

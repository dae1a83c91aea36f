"""spades-sim: a Monte Carlo strategy analyzer for the card game Spades.

>>> from spades_sim import simulate_hands
>>> run = simulate_hands("standard", "basic", 1000, seed=1)
>>> run.done
1000

Every public name is imported on first use: the simulation names load the numba kernel,
and the plain-Python referee (``spades_sim.referee``) can be imported without it. The
command line imports this package before it can take Ctrl-C quietly, so it imports nothing
(a Ctrl-C then would end in a traceback).
"""

from importlib import import_module
from typing import Any

_LAZY = {
    # the base modules
    "format_card": "cards",
    "format_cards": "cards",
    "parse_card": "cards",
    "parse_cards": "cards",
    "RulesError": "rules",
    "RuleSet": "rules",
    "load_preset": "rules",
    "load_rules": "rules",
    "preset_names": "rules",
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

__all__ = [*_LAZY]


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("spades-sim")
    except PackageNotFoundError:  # running from a source tree that is not installed
        return "0.0.0"


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        value = getattr(import_module(f".{_LAZY[name]}", __name__), name)
    elif name == "__version__":
        value = _version()
    else:
        raise AttributeError(f"module 'spades_sim' has no attribute {name!r}")
    globals()[name] = value  # found once
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))

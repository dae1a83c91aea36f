"""The catalogues as tables: the shipped rule presets, the named strategies, and the
parameters a strategy reads (``spades-sim rules list``, ``strategies list``, ``strategies
show``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pandas as pd

from ..kernel.strategies import Strategy
from ..rules import RuleSet


def presets_table(presets: Sequence[RuleSet]) -> pd.DataFrame:
    """One row per rule set: its name and description."""
    return pd.DataFrame({"name": [r.name for r in presets],
                         "description": [r.description for r in presets]})


def strategies_table(strategies: Mapping[str, Strategy]) -> pd.DataFrame:
    """One row per named strategy: its name and description."""
    return pd.DataFrame({"name": list(strategies),
                         "description": [s.description for s in strategies.values()]})


def params_table(strategy: Strategy) -> pd.DataFrame:
    """One row per parameter the strategy's policies read: its value in this strategy, its
    default and range, whether the strategy sets it, and what it means."""
    specs = strategy.params_read()
    return pd.DataFrame({
        "parameter": [spec.name for spec in specs],
        "value": [strategy.param(spec.name) for spec in specs],
        "default": [spec.default for spec in specs],
        "low": [spec.low for spec in specs], "high": [spec.high for spec in specs],
        "set_by_strategy": [spec.name in strategy.params for spec in specs],
        "meaning": [spec.meaning for spec in specs]})

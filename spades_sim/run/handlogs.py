"""Hand logs of a run: its chosen hands (or games) replayed with a trace and written as JSONL."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence

from ..kernel.strategies import Strategy
from ..names import name_fault
from ..outputs import shown
from ..referee.handlog import (
    STRATEGY_NAME_MOST,
    HandLog,
    LogError,
    log_rules_file,
    rules_reference,
    write_log,
)
from ..rules import RuleSet, save_rules
from .records import trace_logs
from .simulate import trace_games, trace_hands


def check_log_strategies(strategies: Sequence[Strategy]) -> None:
    """Refuse, before a run, a strategy whose label a hand log cannot hold (a log must read
    back): many ``--param`` changes make a label longer than ``STRATEGY_NAME_MOST``."""
    for strategy in strategies:
        allowed = name_fault(strategy.name, STRATEGY_NAME_MOST)
        if allowed is not None:
            raise LogError(f"strategy={shown(strategy.name)!r}: allowed in a hand log {allowed}; "
                           "fewer --param changes")


def write_hand_logs(path: str, kind: str, rules: RuleSet, strategies: Sequence[Strategy], seed: int,
                    deals: range, max_hands: int) -> str | None:
    """Write the logs of hands (``kind`` "hands") or games ``deals`` of a run to ``path``.

    The run is the one ``simulate`` plays with ``rules``, one strategy per seat and
    ``seed`` (games stopped at ``max_hands``): the hands are replayed, not kept from it.
    Each line names the strategy at each seat in its ``strategies`` field. Returns the rules
    file written beside the log (:func:`log_rules_file`), or None when the log names a preset.
    """
    if kind == "games":
        game_records, records, trace, packed = trace_games(rules, strategies, deals, seed,
                                                           max_hands)
        logs = trace_logs(rules.name, records, trace, packed, games=game_records)
    else:
        records, trace, packed = trace_hands(rules, strategies, deals, seed)
        logs = trace_logs(rules.name, records, trace, packed)
    names = tuple(strategy.name for strategy in strategies)
    return save_logs(path, rules, (dataclasses.replace(log, strategies=names) for log in logs))


def save_logs(path: str, rules: RuleSet, logs: Iterable[HandLog]) -> str | None:
    """Write hand logs played under ``rules`` to ``path``, each line naming the rules: the
    preset's name, or a rules file written beside the log first (:func:`log_rules_file`),
    which is returned (None when the log names a preset).
    """
    rules_file = log_rules_file(path, rules)
    rules_ref = rules.name
    if rules_file is not None:
        save_rules(rules, rules_file, "log")
        rules_ref = rules_reference(rules_file, path)
    write_log(path, (dataclasses.replace(log, rules=rules_ref) for log in logs))
    return rules_file

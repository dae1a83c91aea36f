"""When a hand log gets a rules file beside it (referee.handlog.log_rules_file), and the logs
simulate --log writes with it (run.handlogs.write_hand_logs)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from spades_sim.referee import score_file
from spades_sim.referee.handlog import log_rules_file
from spades_sim.rules import load_preset, load_rules, resolve_rules, save_rules
from spades_sim.run.handlogs import write_hand_logs
from spades_sim.run.simulate import seat_strategies


def test_a_shipped_preset_needs_no_rules_file() -> None:
    assert log_rules_file("hands.jsonl", load_preset("standard")) is None
    assert log_rules_file("hands.jsonl", resolve_rules("solo")) is None


def test_a_preset_read_back_from_its_own_file_needs_none(tmp_path: Path) -> None:
    save_rules(load_preset("classic"), tmp_path / "classic.toml")
    assert log_rules_file("hands.jsonl", load_rules(tmp_path / "classic.toml")) is None


@pytest.mark.parametrize("rules", [
    resolve_rules("standard", {"nil_value": 50}),
    dataclasses.replace(load_preset("standard"), name="house"),
    dataclasses.replace(load_preset("standard"), description="ours"),
], ids=["overridden", "renamed", "described"])
def test_rules_other_than_a_preset_are_saved_beside_the_log(rules) -> None:
    assert log_rules_file("logs/hands.jsonl", rules) == "logs/hands.jsonl.rules.toml"


def test_written_logs_name_their_rules_and_score_under_them(tmp_path: Path) -> None:
    rules = resolve_rules("standard", {"nil_value": 50})
    log = tmp_path / "hands.jsonl"
    rules_file = write_hand_logs(str(log), "hands", rules, seat_strategies("basic"), 3,
                                 range(4), 1000)
    assert rules_file == f"{log}.rules.toml"
    assert load_rules(rules_file) == rules
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(lines) == 4 and {line["rules"] for line in lines} == {"hands.jsonl.rules.toml"}
    assert len(score_file(log)) == 4


def test_logs_under_a_preset_name_it_and_write_no_rules_file(tmp_path: Path) -> None:
    log = tmp_path / "games.jsonl"
    assert write_hand_logs(str(log), "games", load_preset("standard"), seat_strategies("basic"),
                           3, range(1), 50) is None
    assert {json.loads(line)["rules"] for line in log.read_text().splitlines()} == {"standard"}
    assert list(tmp_path.iterdir()) == [log]

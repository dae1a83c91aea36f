"""The record frames: every column documented in docs/analysis.md with its type, and the
encoding of ``top_spade`` under every deck."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest

from spades_sim import simulate_games, simulate_hands
from spades_sim.cards import format_card
from spades_sim.kernel.packing import deck_suits
from spades_sim.rules import RuleSet, load_preset
from spades_sim.run.simulate import trace_hands

DOC = Path(__file__).resolve().parent.parent / "docs" / "analysis.md"
HAND_TABLE = "### One row per seat and hand"
GAME_TABLE = "### One row per game"


def documented_columns(heading: str) -> dict[str, str]:
    """``{column: type}`` from the first table under ``heading`` in docs/analysis.md."""
    text = DOC.read_text(encoding="utf-8")
    assert heading in text, f"docs/analysis.md has no section {heading!r}"
    section = text.split(heading, 1)[1].split("\n#", 1)[0]
    rows = re.findall(r"^\| `([a-z_]+)` \| ([a-z0-9]+) \|", section, flags=re.MULTILINE)
    return dict(rows)


def frame_columns(frame: pd.DataFrame) -> dict[str, str]:
    """``{column: dtype}``, per-side columns (``score_0``, ``score_1``, …) as ``score_k``."""
    return {re.sub(r"_\d+$", "_k", name): str(dtype) for name, dtype in frame.dtypes.items()}


@pytest.mark.parametrize("rules", ["standard", "solo"])
@pytest.mark.parametrize(("simulate", "size", "heading"), [(simulate_hands, 20, HAND_TABLE),
                                                           (simulate_games, 3, GAME_TABLE)],
                         ids=["hands", "games"])
def test_every_record_column_is_documented_with_its_type(simulate, size: int, heading: str,
                                                         rules: str) -> None:
    frame = simulate(rules, "basic", size, seed=1, keep_records=True).records()
    assert frame_columns(frame) == documented_columns(heading)


def test_the_doc_table_is_read() -> None:
    """The parse above finds what a reader sees: a column the doc does not list is missing."""
    hand = documented_columns(HAND_TABLE)
    assert hand["top_spade"] == "int8" and hand["nil_outcome"] == "category"
    assert "score" in hand and "score_k" not in hand
    assert documented_columns(GAME_TABLE)["bid_error_k"] == "int32"


# The deck's trumps, lowest to highest, as docs/analysis.md's top_spade table gives them.
TRUMP_ENDS = [
    (RuleSet(), 13, "2S", "AS"),
    (RuleSet(deck="jokers"), 15, "2S", "BJ"),
    (load_preset("five-player"), 14, "3S", "BJ"),
    (RuleSet(deck="joker-joker-deuce-deuce"), 16, "3S", "BJ"),
    (RuleSet(deck="joker-joker-deuce-ace"), 15, "3S", "BJ"),
    (RuleSet(deck="deuce-high"), 13, "3S", "2S"),
    (load_preset("three-player"), 13, "2S", "AS"),
    (load_preset("head-to-head"), 13, "2S", "AS"),
]


@pytest.mark.parametrize(("rules", "count", "lowest", "highest"), TRUMP_ENDS,
                         ids=[f"{rules.name}-{rules.deck}" for rules, *_ in TRUMP_ENDS])
def test_top_spade_is_the_place_of_the_highest_trump(rules: RuleSet, count: int, lowest: str,
                                                     highest: str) -> None:
    """``top_spade`` of every seat of 200 traced hands is the place of its highest trump in the
    deck's trump order (0 the lowest), or -1 without a trump."""
    trumps = deck_suits(rules)[3]
    assert (len(trumps), format_card(trumps[0]), format_card(trumps[-1])) == (count, lowest,
                                                                             highest)
    records, trace, packed = trace_hands(rules, "basic", range(200), 1)
    seen = set()
    for row in range(200):
        for seat in range(packed.seat_count):
            mask = int(trace.hands[row, seat])
            held = {int(packed.slot_card[slot]) for slot in range(64) if mask >> slot & 1}
            places = [place for place, card in enumerate(trumps) if card in held]
            expected = max(places) if places else -1
            assert records.top_spade[row, seat] == expected
            seen.add(expected)
    assert count - 1 in seen  # the top trump was dealt, so the whole range was checked

"""Shared test set-up: this folder on the import path (for the helper modules ``stacking``,
``refereeplay`` and ``clirun``), and the fixtures several test files use."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture
def small_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Saved runs of 1,000-hand and 50-game blocks, so a test saves many blocks cheaply."""
    from spades_sim.run import simulate

    monkeypatch.setattr(simulate, "BLOCK_HANDS", 1000)
    monkeypatch.setattr(simulate, "BLOCK_GAMES", 50)

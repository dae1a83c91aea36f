"""The manifest a resume asks for (run.store.resume_manifest): the saved run with the run
options given again in their place, checked against the saved one field by field."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from spades_sim import __version__
from spades_sim.rules import load_preset, resolve_rules
from spades_sim.run.simulate import seat_strategies
from spades_sim.run.store import Manifest, RunStore, StoreError, resume_manifest, strategy_spec

STANDARD = load_preset("standard")


@pytest.fixture
def saved() -> Manifest:
    return Manifest(kind="hands", rules=STANDARD.to_dict(),
                    strategies=tuple(map(strategy_spec, seat_strategies("basic"))), seed=7,
                    requested=3000, block=1000, max_hands=None, version="0.0.old")


def test_no_option_given_keeps_the_saved_run_under_this_version(saved: Manifest) -> None:
    assert resume_manifest(saved) == dataclasses.replace(saved, version=__version__)


def test_each_option_given_takes_its_field(saved: Manifest) -> None:
    rules = resolve_rules("standard", {"nil_value": 50})
    strategies = seat_strategies(["expert", "random"])
    requested = resume_manifest(saved, rules=rules, strategies=strategies, seed=8,
                                max_hands=300)
    assert requested.rules == rules.to_dict()
    assert requested.strategies == tuple(map(strategy_spec, strategies))
    assert (requested.seed, requested.max_hands) == (8, 300)
    assert (requested.kind, requested.requested, requested.block) == ("hands", 3000, 1000)


@pytest.mark.parametrize(("hands", "games", "size"), [
    (5000, None, ("hands", 5000)), (None, 40, ("games", 40)), (5000, 40, ("hands", 5000))])
def test_hands_or_games_set_the_kind_and_size(saved: Manifest, hands, games, size) -> None:
    requested = resume_manifest(saved, hands=hands, games=games)
    assert (requested.kind, requested.requested) == size


def test_the_store_refuses_the_first_option_that_differs(saved: Manifest, tmp_path: Path) -> None:
    saved = dataclasses.replace(saved, version=__version__)
    store = RunStore(tmp_path / "run")
    store.create(saved)
    store.release()
    assert store.check(resume_manifest(saved, seed=7, hands=3000)) == saved
    with pytest.raises(StoreError, match=r"^seed=8: allowed 7, as in the run saved in"):
        store.check(resume_manifest(saved, seed=8))
